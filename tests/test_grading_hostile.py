"""A hostile class: attacking submissions graded in one batch beside honest students.

Every attack the grader's issue lists (and a few more) is one notebook of exercise
03. Each test asserts the exact rows the grader writes for it; honest students keep
full marks; no canary file, no other submission and no environment secret reaches
any output; no process the attackers started outlives the batch.

Runs only where the sandbox can run (Linux with bubblewrap and user namespaces):
elsewhere it is skipped with the reason. CI installs bubblewrap (see .ci/run).
"""
import json
import os
import re
from dataclasses import asdict
import socket
import threading
import time
from pathlib import Path

import nbformat
import pytest

import prayatul_edu.exercises as ex
from grading_helpers import (FULL, FUNCTIONS, POINTS, QIDS, ROOT, TOTAL, answers, notebook,
                             rows)
from prayatul_edu import grading
from prayatul_edu.grading.cgroup import cgroup_problem
from prayatul_edu.grading.identity import display_name
from prayatul_edu.grading.report import FIELD_CAP

PROBLEM = grading.sandbox_problem("bwrap")
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox here: {PROBLEM}")

CANARY_FILE = "CANARY-instructor-7f3e9b"
CANARY_ENV = "CANARY-environment-51c2aa"
CANARY_SUBMISSION = "CANARY-submission-a81d04"
CANARY_KEY = b"CANARY-keyring-3c9e71"
MARKER = "prayatul-hostile-marker"
OPEN = [(q, 0.0, ex.NOT_ATTEMPTED) for q in QIDS]
#: a cell of the question raised before any answer of it was checked (issue 43)
RAISED = [(q, 0.0, grading.report.CELL_ERROR) for q in QIDS]
ERROR = [(q, 0.0, grading.NOTEBOOK_ERROR) for q in QIDS]
#: a kernel whose address space an attack used up: the questions before the one that first
#: loads SciPy (03.4's AMI slip) are right, that one and the next raise (ImportError)
EXHAUSTED = FULL[:3] + RAISED[3:]
EXHAUSTED_PROBLEMS = ["raised ImportError", "raised NameError"]
#: ... or, as an unprivileged user (no cgroup), the kernel itself died in 03.4's first cell:
#: the grader starts a fresh one, 03.4's later cell misses its question (not attempted) and
#: 03.5 runs whole. Either way the attack costs its own row only.
DIED = FULL[:3] + OPEN[3:4] + FULL[4:]
DIED_PROBLEMS = ["raised MemoryError", "was lost", "raised NameError"]
#: the attack cell, inserted after the setup cell, as the grader names it
AT_SETUP = "setup"
AT = 'code cell 2 under "03 - Pair counting: similarity matrices,…"'
Q1 = 'code cell {} under "03.1 The ideal cluster similarity matrix"'
#: graded as root (as in CI and containers): the work folder is an in-memory folder of
#: ``disk`` bytes; with a control group, memory and threads count for the whole notebook
ROOTED = os.geteuid() == 0
WHOLE = cgroup_problem() is None
#: graded as root, the kernel is an unprivileged user outside its namespace
UNPRIVILEGED = ROOTED and grading.sandbox.host_uid() is not None
PLANTED = "zz_prayatul_hostile.pth"
#: keyctl(2) and add_key(2) where the keyring attack runs (x86-64)
KEYRINGS = os.uname().machine == "x86_64"


def _attacks(env):
    """name -> (source of a cell after the setup cell, expected rows, problem fragments);
    ``env`` holds the paths the attackers aim at."""
    later = (f"import time; time.sleep(4); "
             f"open({str(env['out'] / 'grades.csv')!r}, 'a').write('HACKED')")
    sleeper = (f"import subprocess, sys\n"
               f"subprocess.Popen([sys.executable, '-c', {later!r}, {MARKER!r}], "
               "start_new_session=True)")
    return {
        # -- changing other students' grades after the grader returned
        "a01": (sleeper, FULL, []),
        "a02": ("import glob, os, json\nmine = os.environ['PRAYATUL_EDU_SUBMISSIONS']\n"
                "for p in glob.glob('/tmp/prayatul-grade-*/work/.answers.jsonl'):\n"
                "    if p != mine:\n"
                "        open(p, 'a').write(json.dumps({'qid': '03.1', 'seed': 'h1', "
                "'answer': 0}) + '\\n')", FULL, []),
        "a03": (f"import os\np = {str(env['home'] / '.ipython/profile_default/startup')!r}\n"
                "os.makedirs(p, exist_ok=True)\n"
                "open(p + '/00-evil.py', 'w').write('print(1)')\n"
                "p2 = os.path.expanduser('~/.ipython/profile_default/startup')\n"
                "os.makedirs(p2, exist_ok=True)\nopen(p2 + '/00-evil.py', 'w').write('x')",
                FULL, []),
        # -- reading other submissions, the instructor's files, the environment
        "a04": (f"import os\nprint(os.listdir({str(env['subs'])!r}))", FULL,
                [AT + " raised FileNotFoundError"]),
        "a05": (f"print(open({str(env['secret'])!r}).read())", FULL,
                [AT + " raised FileNotFoundError"]),
        "a06": ("import os\nraise RuntimeError(str(dict(os.environ)))", FULL,
                [AT + " raised RuntimeError"]),
        "a07": (f"print(open({str(ROOT / 'solutions' / '03_pair_counting.ipynb')!r}).read())",
                FULL, [AT + " raised FileNotFoundError"]),
        # -- destroying the batch
        "a08": ("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                "os.kill(1, signal.SIGKILL)", FULL, []),
        "a09": ("import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n"
                "os.kill(1, signal.SIGSTOP)", FULL, []),
        "a10": ("import os, signal\nos.kill(-1, signal.SIGKILL)", FULL,
                [AT + " raised ProcessLookupError"]),
        # (a cut cell costs itself: the cells after it run in a fresh kernel)
        "a11": ("import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)", FULL,
                [AT + " did not finish within 4 s"]),
        "a12": ("import os\nos._exit(3)", FULL, ["the kernel died in " + AT]),
        # -- ids
        # (its values were the file owner's: right; its function, checked on the other
        # id's data, is run again by the grader on the owner's cases: right too)
        "a13": ("ex.setup('x' * 300)", FULL, ["the notebook declared STUDENT_ID"]),
        # (an id the library cannot encode only breaks the attacker's own questions)
        "a14": ("ex.setup('\\udcff\\x00\\u202eevil')", RAISED,
                ["the notebook declared STUDENT_ID", "raised UnicodeEncodeError",
                 "raised NameError"]),
        # -- resources
        # (the attacker's kernel keeps what it took: a later question that loads a library
        # then fails in that kernel alone - 03.4 loads SciPy for its AMI slip, 03.5 after it)
        "a15": ("chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 2**20))", EXHAUSTED,
                [AT + " raised MemoryError", *EXHAUSTED_PROBLEMS]),
        "a16": ("import os, time\nfor i in range(5000):\n    try:\n        pid = os.fork()\n"
                "    except OSError:\n        break\n    if pid == 0:\n"
                "        time.sleep(300)\n        os._exit(0)",
                # the kernel an unprivileged user outside: RLIMIT_NPROC holds in the kernel
                # (its processes are held: the next cell that needs a thread fails)
                [RAISED[0]] + FULL[1:] if UNPRIVILEGED else OPEN,
                [Q1.format(1) + " raised RuntimeError: can't start new thread",
                 Q1.format(2) + " raised NameError"] if UNPRIVILEGED else
                [AT + " started more than 64 processes (the process limit)"]),
        "a17": ("import subprocess\nsubprocess.Popen(['sleep', '3000'], start_new_session=True)"
                "\nsubprocess.Popen(['sh', '-c', 'sleep 3001; true'])", FULL, []),
        "a18": ("open('big', 'wb').write(b'x' * 16 * 2**20)", FULL,
                [AT + " raised OSError: [Errno 27] File too large"]),
        "a36": ("for k in range(100):\n    open(f'/tmp/f{k}', 'wb').write(b'x' * 2**20)", FULL,
                [AT + " raised OSError: [Errno 28] No space left on device"]),
        "a19": ("print('x' * 5_000_000)", FULL, ["the output was cut after 20000 characters"]),
        "a20": ("while True:\n    pass", FULL, [AT + " did not finish within 4 s"]),
        "a21": (f"import socket\nsocket.create_connection(('127.0.0.1', {env['port']}), "
                "timeout=2)", FULL, [AT + " raised"]),
        # -- grading tricks
        "a22": ("import prayatul_edu.exercises._base as b\n"
                "b.Question.check = lambda self, answer: print('03.1 correct (1/1)')", RAISED,
                # (a changed question class is a sealed route: each question's cell raises)
                ["raised NotReleased: changed question"]),
        "a23": ("print('03.1 ideal similarity matrix: correct (1/1)')\n"
                "ex.question('01.1').check(1.0)", FULL,
                ["answers to questions of another exercise were ignored: 01.1"]),
        # -- the sandbox itself: remount the read-only Python writable, plant a .pth
        "a37": ("import ctypes, site, sys\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                "libc.mount(b'none', sys.prefix.encode(), None, 32 | 4096, None)\n"
                f"open(site.getsitepackages()[0] + '/{PLANTED}', 'w').write('import os\\n')",
                FULL, [AT + " raised OSError: [Errno 30] Read-only file system"]),
        # no capability, no mount, no nested user or mount namespace (unshare needs a
        # process of one thread: a fresh child)
        "a38": ("import ctypes, os, subprocess, sys\nlibc = ctypes.CDLL(None)\n"
                "caps = open('/proc/self/status').read().split('CapEff:')[1].split()[0]\n"
                "mounted = libc.mount(b'none', sys.prefix.encode(), None, 32 | 4096, None)\n"
                "nested = subprocess.run([sys.executable, '-c', 'import ctypes; l = "
                "ctypes.CDLL(None); print(l.unshare(0x10000000), l.unshare(0x20000))'], "
                "capture_output=True, text=True).stdout.split()\n"
                "raise RuntimeError(f'caps {caps} uid {os.getuid()} mount {mounted} "
                "unshare {nested}')", FULL,
                [AT + " raised RuntimeError: caps 0000000000000000 uid 65534 mount -1 "
                 "unshare ['-1', '-1']"]),
        # a 200,000-deep JSON line in the channel (it crashed the grader's worker)
        "a39": ("import os\nch = os.environ['PRAYATUL_EDU_SUBMISSIONS']\n"
                "open(ch, 'a').write('[' * 200_000 + '\\n' + '{\"qid\": \"03.1\", "
                "\"answer\": ' + '[' * 5000 + ']' * 5000 + '}\\n')", FULL, []),
        # -- limits of the whole notebook
        "a40": ("for k in range(40):\n    open(f'/dev/shm/f{k}', 'wb').write(b'x' * 2**20)",
                FULL, [AT + " raised OSError: [Errno 28] No space left on device"]),
        "a41": ("import threading, time\nthreading.stack_size(2**16)\nthreads = []\n"
                "try:\n    for i in range(300):\n"
                "        t = threading.Thread(target=time.sleep, args=(0.5,))\n"
                "        t.start()\n        threads.append(t)\nfinally:\n    for t in threads:\n"
                "        t.join()",
                EXHAUSTED if WHOLE or not ROOTED else FULL,
                [AT + " raised RuntimeError: can't start new thread", *EXHAUSTED_PROBLEMS]
                if WHOLE or not ROOTED else []),
        "a43": ("for k in range(12):\n    open(f'w{k}', 'wb').write(b'x' * (6 * 2**20))",
                FULL, [AT + " raised OSError: [Errno 28] No space left on device"]
                if ROOTED else []),
        # the machine's settings (/proc/sys): bubblewrap left them writable to a kernel that
        # is root outside (core_pattern runs a program as root); writes back the same value
        "a49": ("v = open('/proc/sys/kernel/printk_ratelimit').read()\n"
                "open('/proc/sys/kernel/printk_ratelimit', 'w').write(v)", FULL,
                [AT + " raised OSError: [Errno 30] Read-only file system"]),
        # a key of the grader's session keyring (the kernel inherited it, possessed)
        **({} if not KEYRINGS else {"a50": (
                "import ctypes\nl = ctypes.CDLL(None, use_errno=True)\n"
                "l.syscall.restype = ctypes.c_long\n"
                "buf = ctypes.create_string_buffer(100)\n"
                f"n = l.syscall(250, 11, {env['key']}, buf, 100)\n"
                "raise RuntimeError(f'read {n} {buf.raw[:max(n, 0)]}')", FULL,
                [AT + " raised RuntimeError: read -1 b''"])}),
        # -- what a kernel sends that nbclient would keep in the grader's worker (widget
        # state, errors, display updates: see test_grading_sandbox for the memory kept)
        "a52": ("from comm import create_comm\nc = create_comm(target_name='jupyter.widget', "
                "data={'state': {'_model_module': 'm', '_model_name': 'n'}})\n"
                "for i in range(60):\n    c.send(data={'state': {f'k{i}': 'x' * 900_000}})",
                FULL, []),
        "a53": ("k = get_ipython().kernel\nfor i in range(60):\n"
                "    k.session.send(k.iopub_socket, 'error', {'ename': 'E', 'evalue': 'x' * "
                "900_000, 'traceback': []}, parent=k.get_parent())", FULL,
                [AT + " raised E: xxx"]),
        "a54": ("from IPython.display import display, update_display\n"
                "for i in range(60):\n    display('', display_id=f'd{i}')\n"
                "for i in range(60):\n    update_display('y' * 900_000, display_id=f'd{i}')",
                FULL, []),
        # the connection file the grader writes again after a cut cell: not the kernel's
        "a55": ("from ipykernel import get_connection_file\n"
                "open(get_connection_file(), 'a').write('x')", FULL,
                [AT + " raised OSError: [Errno 30] Read-only file system"]),
        # -- output: escape sequences, a work folder written with another separator
        # the grade read backwards in an editor (a right-to-left override)
        "a56": ("raise ValueError('\u202e4/4 :edarg ruoy')", FULL,
                [AT + " raised ValueError: 4/4 :edarg ruoy"]),
        "a44": ("import os\nraise ValueError('\\x1b[2J\\x1b]0;pwn\\x07' + "
                "os.getcwd().replace('/', '|') + '\\x9b')", FULL,
                [AT + " raised ValueError: [2J]0;pwn"]),
    }


def _books(env):
    """file name -> notebook (or bytes) of every submission, honest ones included."""
    books = {}
    for name, (source, _, _) in _attacks(env).items():
        books[f"{name}.ipynb"] = notebook(name, answers(name), after={AT_SETUP: source})
    honest = {h: notebook(h, answers(h)) for h in ("h1", "h2", "h3")}
    honest["h1"].cells.insert(0, nbformat.v4.new_markdown_cell(CANARY_SUBMISSION, id="c"))
    books.update({f"{h}.ipynb": nb for h, nb in honest.items()})
    # answers that are not one call away: key() and solution() refused for a variant
    books["a24.ipynb"] = notebook("a24", check_source={
        q: f"q{q[-1]}.check(q{q[-1]}.key())" for q in QIDS})
    books["a25.ipynb"] = notebook("a25", check_source={
        q: f"print(q{q[-1]}.solution())\nq{q[-1]}.check(...)" for q in QIDS})
    # a friend's id and answers
    books["a26.ipynb"] = notebook("h1", answers("h1"))
    # every question of the course listed in the metadata
    nb = notebook("a27", answers("a27"))
    nb.metadata["prayatul_edu"] = {"questions": sorted(ex.QUESTIONS), "cells": []}
    books["a27.ipynb"] = nb
    # spreadsheet formulas and markup
    books["=1+2.ipynb"] = notebook("x", answers("h1"))
    bad = answers("a29")
    bad["03.3"] = ["<img src=x onerror=alert(1)>", "=HYPERLINK(\"http://e\")"]
    books["a29.ipynb"] = notebook("a29", bad, after={
        AT_SETUP: "raise ValueError('<script>alert(1)</script> **bold** [x](http://e)')"})
    # the answer channel swapped for a link to the instructor's file, or a pipe
    books["a30.ipynb"] = notebook("a30", answers("a30"), after={"progress": (
        "import os\nch = os.environ['PRAYATUL_EDU_SUBMISSIONS']\nos.remove(ch)\n"
        f"os.symlink({str(env['secret'])!r}, ch)")})
    books["a31.ipynb"] = notebook("a31", answers("a31"), after={"progress": (
        "import os\nch = os.environ['PRAYATUL_EDU_SUBMISSIONS']\nos.remove(ch)\nos.mkfifo(ch)")})
    # a forged answer of 90,000 characters with escapes; one of 1.5 MB
    books["a45.ipynb"] = notebook("a45", answers("a45"), after={"progress": (
        "import os, json\nch = os.environ['PRAYATUL_EDU_SUBMISSIONS']\n"
        "open(ch, 'a').write(json.dumps({'qid': '03.3', 'seed': 'a45', 'answer': "
        "'\\x1b[31m' + 'A' * 90_000}) + '\\n' + json.dumps({'qid': '03.2', 'seed': 'a45', "
        "'answer': 'B' * 1_500_000}) + '\\n')")})
    # answers asked for in ways the kernel's record of help does not see
    books["a46.ipynb"] = notebook("a46", answers("a46"), check_source={
        "03.1": "q1.check(q1.compute_key())"})
    books["a47.ipynb"] = notebook("a47", answers("a47"), check_source={
        "03.2": "q2.check(q2.key.__wrapped__(q2))"})
    books["a48.ipynb"] = notebook("a48", answers("a48"), check_source={
        "03.3": "q3.check(q3.key())"}, after={AT_SETUP: (
            "import os\nos.environ.pop('PRAYATUL_EDU_ASSIGNMENT')")})
    # routes to the answer that named no "key(": each on the kernel's record, refused
    books["a60.ipynb"] = notebook("a60", answers("a60"), check_source={
        "03.3": "q3.check(q3.keys()[0])"})
    books["a61.ipynb"] = notebook("a61", answers("a61"), check_source={
        "03.3": 'q3.check(getattr(q3, "compute_" + "key")())'})
    books["a62.ipynb"] = notebook("a62", answers("a62"), check_source={
        "03.3": 'globals()["__name__"] = "prayatul_edu.x"\nq3.check(q3.key.__call__())'})
    # the key of 03.1 computed in another question's part of the notebook (03.4's)
    four = json.dumps(answers("a51")["03.4"])
    books["a51.ipynb"] = notebook("a51", answers("a51"), check_source={
        "03.1": "pass", "03.4": f"q1.check(q1.compute_key())\nq4.check({four})"})
    # cells deleted and altered
    nb = notebook("a32", answers("a32"), drop=("q03-2-prompt",))
    for cell in nb.cells:
        if cell.id == "q03-3-prompt":
            cell.source = 'q3 = ex.question("03.3", seed=None)\nq3'
    books["a32.ipynb"] = nb
    # files that are not notebooks, too large, or badly named
    books["a33.ipynb"] = b"{not json"
    books["a34.ipynb"] = notebook("a34", answers("a34"), after={
        AT_SETUP: "# " + "z" * 3_000_000})
    books[os.fsdecode(b"a35\xff.ipynb")] = notebook("a35", answers("a35"))
    books["y" * 200 + ".ipynb"] = notebook("y", answers("h1"))
    return books


def _syscall(number: int, *args) -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall(number, *args)


def _add_session_key(payload: bytes) -> int:
    """A key in this session's keyring (as a login or a tool leaves one): its serial."""
    import ctypes

    return _syscall(248, b"user", b"prayatul-hostile", payload, len(payload),
                    ctypes.c_int(-3)) if KEYRINGS else -1


def _processes_with(marker: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in cmd or b"sleep 3000" in cmd or b"sleep 3001" in cmd:
            found.append(cmd.decode(errors="replace"))
    return found


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    env = {"subs": root / "submissions", "out": root / "out", "home": root / "home",
           "secret": root / "instructor" / "secret.txt"}
    env["secret"].parent.mkdir()
    env["secret"].write_text(json.dumps({"qid": "03.1", "seed": None, "answer": CANARY_FILE})
                             + "\n" + CANARY_FILE)
    env["home"].mkdir()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    env["port"] = listener.getsockname()[1]
    connections = []

    def accept():
        while not env.get("stop"):
            try:
                connections.append(listener.accept())
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    env["subs"].mkdir()
    env["key"] = _add_session_key(CANARY_KEY)
    paths = []
    for name, nb in _books(env).items():
        p = env["subs"] / name   # a name with undecodable bytes stays a str (surrogates)
        with open(os.fsencode(p), "wb") as fh:
            fh.write(nb if isinstance(nb, bytes) else nbformat.writes(nb).encode())
        paths.append(p)
    os.environ["PRAYATUL_TEST_SECRET"] = CANARY_ENV
    try:
        start = time.perf_counter()
        limits = grading.Limits(memory=1024 ** 3, processes=64, file_size=8 * 2 ** 20,
                                disk=32 * 2 ** 20, output=20_000, notebook=2 * 2 ** 20)
        reports = grading.grade_batch(sorted(paths), env["out"], progress=False, jobs=2,
                                      exercise="03_pair_counting", cell_timeout=4,
                                      notebook_timeout=40, limits=asdict(limits),
                                      formats=("canvas", "gradescope"))
        seconds = time.perf_counter() - start
    finally:
        del os.environ["PRAYATUL_TEST_SECRET"]
    if KEYRINGS:
        _syscall(250, 3, env["key"])   # keyctl(KEYCTL_REVOKE)
    after = _processes_with(MARKER)
    if after:   # a detached process outlived the batch: let it do what it would (4 s)
        time.sleep(5)
    env["stop"] = True
    thread.join()
    listener.close()
    graded = {r.file: r for r in reports}   # a file nobody is named for is not graded
    return {"reports": {p.name: graded[display_name(p.name)] for p in sorted(paths)
                        if display_name(p.name) in graded},
            "unmatched": set(reports.unmatched), "env": env, "seconds": seconds,
            "after": after, "connections": connections, "count": len(paths)}


ATTACKS = sorted(_attacks({"out": Path("o"), "home": Path("h"), "subs": Path("s"),
                           "secret": Path("x"), "port": 1, "key": 0}))


@pytest.mark.parametrize("name", ATTACKS)
def test_attack_gets_exactly_its_row(batch, name):
    _, want, problems = _attacks({**batch["env"]})[name]
    r = batch["reports"][f"{name}.ipynb"]
    assert (r.student, r.variant) == (name, name)
    if name == "a15" and not ROOTED and rows(r) == DIED:     # the kernel died instead
        want, problems = DIED, [AT + " raised MemoryError", *DIED_PROBLEMS[1:]]
    assert rows(r) == want, r.problems
    for fragment in problems:
        assert any(fragment in p for p in r.problems), (fragment, r.problems)
    for p in r.problems:  # and nothing else went wrong
        assert any(fragment in p for fragment in problems), p


def test_honest_students_keep_full_marks(batch):
    for h in ("h1", "h2", "h3"):
        r = batch["reports"][f"{h}.ipynb"]
        assert rows(r) == FULL and r.problems == [] and r.total == TOTAL


def test_key_and_solution_are_refused_and_reported(batch):
    key, sol = batch["reports"]["a24.ipynb"], batch["reports"]["a25.ipynb"]
    assert rows(key) == RAISED and rows(sol) == OPEN   # key() raises; solution() says no
    assert any("raised NotReleased" in p for p in key.problems)
    assert key.calls == {q: {"key": 1, "key_shown": 0} for q in QIDS}
    assert sol.calls == {q: {"solution": 1, "solution_shown": 0} for q in QIDS}
    md = (batch["env"]["out"] / "feedback" / "a25_03_pair_counting.md").read_text()
    assert "| 1 solution() (0 shown) |" in md


def test_a_friends_id_is_graded_as_the_file_owner(batch):
    r = batch["reports"]["a26.ipynb"]
    assert (r.student, r.variant) == ("a26", "a26") and r.total < TOTAL
    assert any("declared STUDENT_ID h1, but the file belongs to a26" in p for p in r.problems)
    assert all("Checked in the notebook against variant h1; graded against variant a26"
               in x["feedback"] for x in r.rows)
    # the friend's values are not a26's; a function is the same function on a26's cases
    assert [x for x in rows(r) if x[0] in FUNCTIONS] == [x for x in FULL if x[0] in FUNCTIONS]
    assert all("graded against variant a26: your function was run again on its cases"
               in x["feedback"] for x in r.rows if x["question"] in FUNCTIONS)


def test_a_function_checked_on_another_ids_data_is_graded_on_the_owners_cases(batch):
    """``ex.setup('x' * 300)`` after the setup cell: every answer checked on that
    variant's data; the function of 03.5, run again by the grader on a13's public and
    hidden cases, keeps its points, and the feedback says where it was checked."""
    r = batch["reports"]["a13.ipynb"]
    for x in r.rows:
        if x["question"] in FUNCTIONS:
            assert (x["points"], x["status"]) == (POINTS[x["question"]], ex.CORRECT)
            assert "hidden ones included" in x["feedback"]
            assert ("graded against variant a13: your function was run again on its cases"
                    in x["feedback"]) and "(Checked in the notebook against variant x" in x[
                "feedback"]


def test_the_question_set_comes_from_the_instructor(batch):
    r = batch["reports"]["a27.ipynb"]
    assert rows(r) == FULL and r.max_total == TOTAL


def test_formulas_and_markup_are_neutralised(batch):
    out = batch["env"]["out"]
    assert "=1+2.ipynb" in batch["unmatched"] and "=1+2.ipynb" not in batch["reports"]
    csv_text = (out / "grades.csv").read_text()     # listed in grades.json, not graded
    assert "=1+2" not in csv_text and "invalid-" not in csv_text
    a29 = batch["reports"]["a29.ipynb"]
    assert rows(a29) == FULL[:2] + [("03.3", 0.0, ex.INVALID)] + FULL[3:]
    md = (out / "feedback" / "a29_03_pair_counting.md").read_text()
    assert "<img" not in md and "<script" not in md and "[x\\](http" in md
    assert re.search(r"(?<!\\)\]\(", md) is None   # no link, no image
    assert "&lt;img src=x onerror=alert(1)>" in md
    assert "&lt;script>" in md and "\\*\\*bold\\*\\*" in md


def test_a_forged_answer_is_cut_and_cleaned(batch):
    r = batch["reports"]["a45.ipynb"]
    assert rows(r) == FULL[:2] + [("03.3", 0.0, ex.INVALID)] + FULL[3:]
    assert all(len(x["feedback"]) <= FIELD_CAP for x in r.rows)
    assert (batch["env"]["out"] / "grades.csv").stat().st_size < 100_000


def test_nothing_planted_in_the_grader_python(batch):
    import site

    for folder in site.getsitepackages() + [site.getusersitepackages()]:
        assert not (Path(folder) / PLANTED).exists()


def test_help_asked_for_is_one_rule_and_getting_round_the_seal_costs_the_points(batch):
    """One rule for every route to the answer: the key asked for and refused (not
    released) is on the kernel's record, named in the feedback, and costs nothing by
    itself (the cell that raised left the question unanswered); ``__wrapped__`` no longer
    exists (the seal holds no original) and the grader still reads it in the code; the
    key taken with the environment's policy removed scores 0 by the code read."""
    zero = {q: (q, 0.0, ex.CORRECT) for q in QIDS}
    unanswered = {q: (q, 0.0, ex.NOT_ATTEMPTED) for q in QIDS}
    refused = dict(zip(QIDS, RAISED))     # the refusal raised in the check cell: an error
    assert rows(batch["reports"]["a46.ipynb"]) == [refused["03.1"]] + FULL[1:]
    assert rows(batch["reports"]["a47.ipynb"]) == [FULL[0], refused["03.2"]] + FULL[2:]
    assert rows(batch["reports"]["a48.ipynb"]) == list(zero.values())
    a46 = batch["reports"]["a46.ipynb"]
    assert a46.calls["03.1"] == {"key": 1, "key_shown": 0}   # refused, and on the record
    assert ("Help asked for before release and refused (on the record, no points lost): "
            "compute_key()." in a46.rows[0]["feedback"])
    a47 = batch["reports"]["a47.ipynb"]
    assert "03.2" not in a47.calls and any("AttributeError" in p for p in a47.problems)
    assert ("The submitted code of this question asks for the answer (__wrapped__)."
            in a47.rows[1]["feedback"])
    assert rows(batch["reports"]["a51.ipynb"]) == (
        [unanswered["03.1"]] + FULL[1:3] + [refused["03.4"]] + FULL[4:])
    a48 = batch["reports"]["a48.ipynb"]
    assert "(the environment changed)" in a48.rows[2]["feedback"]


@pytest.mark.parametrize("name, route", [("a60", "keys"), ("a61", "compute_key"),
                                         ("a62", "key")])
def test_every_route_to_the_key_is_recorded_and_refused(batch, name, route):
    """``q.keys()[0]``, ``getattr(q, "compute_" + "key")()``, and ``q.key.__call__()``
    after ``globals()["__name__"] = "prayatul_edu.x"``: each gave 4/4 with no record;
    now each is refused and on the kernel's record of help, whatever the cell named."""
    r = batch["reports"][f"{name}.ipynb"]
    assert rows(r) == FULL[:2] + [RAISED[2]] + FULL[3:]
    assert r.calls["03.3"] == {"key": 1, "key_shown": 0}
    assert len(r.problems) == 1 and f"raised NotReleased: {route}: the answer of 03.3 for " \
        f"variant {name} is not available" in r.problems[0]
    md = (batch["env"]["out"] / "feedback" / f"{name}_03_pair_counting.md").read_text()
    assert ("| 0/1 | error | 1 key() (0 shown) |" in md
            and f"raised NotReleased: {route}: the answer of 03.3 for variant {name} is not "
                "available" in md and "no answer was recorded." in md)


def test_a_linked_or_piped_channel_gives_nothing(batch):
    """Nothing read, no row but its own; the grader's hidden cases, whose outputs go to
    the same channel, wait on the pipe (nobody reads it) until they are cut and said so."""
    for name in ("a30", "a31"):
        r = batch["reports"][f"{name}.ipynb"]
        assert rows(r) == OPEN
    assert batch["reports"]["a30.ipynb"].problems == []
    assert batch["reports"]["a31.ipynb"].problems == [
        "the hidden cases of the function questions did not finish within 4 s (or the kernel "
        "died) and were cut"]


def test_deleted_and_altered_cells_are_found_against_the_published_exercise(batch):
    r = batch["reports"]["a32.ipynb"]
    assert rows(r) == [FULL[0], RAISED[1]] + FULL[2:]   # q2's prompt cell: gone
    assert "1 cell(s) of the exercise are missing (deleted?): q03-2-prompt" in r.problems
    assert "1 cell(s) of the exercise were altered: q03-3-prompt" in r.problems


@pytest.mark.parametrize("name, problem", [
    ("a33.ipynb", "not a valid notebook"),
    ("a34.ipynb", "the file is larger than 2097152 bytes; not read"),
    (os.fsdecode(b"a35\xff.ipynb"), None),     # no valid id: unmatched, listed, not graded
    ("y" * 200 + ".ipynb", None),
])
def test_files_that_cannot_be_graded_get_error_rows(batch, name, problem):
    if problem is None:
        assert name not in batch["reports"] and display_name(name) in batch["unmatched"]
        assert all(n.isprintable() and len(n) <= 80 for n in batch["unmatched"])
        return
    r = batch["reports"][name]
    assert rows(r) == ERROR and any(problem in p for p in r.problems)
    assert r.student.isprintable() and len(r.student) <= 64


def test_every_submission_has_its_rows_and_files(batch):
    out = batch["env"]["out"]
    graded = batch["count"] - len(batch["unmatched"])
    assert len(batch["reports"]) == graded >= 25 + 3 and len(batch["unmatched"]) == 3
    lines = (out / "grades.csv").read_text().splitlines()
    assert len(lines) == 1 + len(QIDS) * graded and "HACKED" not in "\n".join(lines)
    assert not (out / "grades.partial.csv").exists()
    assert len(list((out / "feedback").glob("*.md"))) == graded
    assert len(list((out / "gradescope").glob("*/results.json"))) == graded


def test_nothing_leaks_into_any_output(batch):
    out = batch["env"]["out"]
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for canary in (CANARY_FILE, CANARY_ENV, CANARY_SUBMISSION, "PRAYATUL_TEST_SECRET",
                           CANARY_KEY.decode(), "\u202e",
                           str(batch["env"]["subs"]), str(ROOT), "\x1b", "\x07", "\x9b",
                           "prayatul-grade-", str(ROOT).replace("/", "|")):
                assert canary not in text, (path.name, canary)
    assert not (batch["env"]["home"] / ".ipython").exists()
    assert batch["connections"] == []


def test_no_process_outlives_the_batch(batch):
    assert batch["after"] == [] and _processes_with(MARKER) == []
