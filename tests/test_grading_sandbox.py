"""The sandbox's own defences, piece by piece: the answer channel read with bounded size
and depth, student text cleaned and cut, the grader's folders scrubbed whatever the
separator, control groups for a whole notebook, the worker that nothing a student
sends can end, and course keys (variants no student can compute for another)."""
import json
import os
import stat
from dataclasses import asdict

import nbformat
import pytest

import prayatul_edu.exercises as ex
from grading_helpers import FULL, QIDS, TOTAL, answers, notebook, rows
from prayatul_edu import cli, grading
from prayatul_edu.exercises.coursekey import read_key, variant_token, write_key
from prayatul_edu.grading import cgroup, report, runner, sandbox, worker
from prayatul_edu.grading.notebook import _scrub

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"


def test_the_channel_skips_deep_long_and_odd_lines(tmp_path):
    good = {"qid": "03.2", "seed": "s1", "answer": [[1, 2], [3, 4]]}
    lines = ["[" * 200_000, "{" * 100_000, json.dumps({"qid": "03.1", "answer": "B" * 1_500_000}),
             json.dumps({"qid": "03.1", "answer": [[[[[[[[[1]]]]]]]]]}), "[1, 2]", "not json",
             "\udcff".encode("utf-8", "surrogatepass").decode("latin-1"), json.dumps(good)]
    channel = tmp_path / "channel.jsonl"
    channel.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n")
    assert runner.read_channel(channel) == [good]


def test_the_channel_nesting_limit_is_exact():
    def nested(depth):
        value = 1
        for _ in range(depth - 1):
            value = [value]
        return json.dumps({"answer": value}).encode()

    assert runner._record(nested(runner.CHANNEL_DEPTH)) is not None
    assert runner._record(nested(runner.CHANNEL_DEPTH + 1)) is None


@pytest.mark.parametrize("text, clean", [
    ("\x1b[31mred\x1b[0m", "[31mred[0m"),
    ("bell\x07 osc\x1b]0;title\x07", "bell osc]0;title"),
    ("c1 \x9b2J \x85 del\x7f", "c1 2J  del"),
    ("keep\nnew lines\tand tabs", "keep\nnew lines\tand tabs"),
    ("nul\x00 cr\r", "nul cr"),
    # text that displays reversed, or isolated (what a grade looks like in an editor)
    ("\u202e4/4 :edarg\u202c \u2067x\u2069 \u200f\u200e\u061c", "4/4 :edarg x "),
])
def test_control_characters_are_stripped(text, clean):
    assert report.clean_text(text) == clean


def test_every_field_is_cut_and_cleaned_in_every_output():
    r = report.StudentReport(student="s1", file="s1.ipynb", variant="s1",
                             problems=["\x1b[2J" + "p" * 5000])
    r.rows.append({"student": "s1", "variant": "s1", "question": "03.1", "title": "t",
                   "points": 0.0, "max_points": 1.0, "status": ex.INVALID,
                   "feedback": "\x1b[31m" + "A" * 1_500_000, "file": "s1.ipynb"})
    back = report.StudentReport.from_dict(r.to_dict())
    assert len(back.rows[0]["feedback"]) == report.FIELD_CAP
    assert back.rows[0]["feedback"].startswith("[31mAAA") and back.rows[0]["feedback"][-1] == "…"
    assert len(back.problems[0]) == report.FIELD_CAP
    for text in (report.csv_text([back]), report.feedback_markdown(back),
                 report.json_text([back], {}, {})):
        assert "\x1b" not in text and len(text) < 3 * report.FIELD_CAP + 2000


WORK = "/tmp/prayatul-grade-x1y2/work"


@pytest.mark.parametrize("text, scrubbed", [
    (f"{WORK}/data.csv", "data.csv"),
    (WORK, "."),
    (WORK.replace("/", "|") + "|k-1", "k-1"),
    (WORK.replace("/", "\\"), "."),
    (WORK.replace("/", ":") + " and more", ". and more"),
    ("|tmp|prayatul-grade-x1y2|other", "<path>"),
    ("a (root) and 1/2", "a (root) and 1/2"),
])
def test_the_work_folder_is_scrubbed_whatever_the_separator(text, scrubbed):
    from pathlib import Path

    assert _scrub(text, Path(WORK)) == scrubbed


@pytest.mark.parametrize("folder", ["home", "cwd", "prefix", "package"])
def test_the_graders_folders_are_scrubbed_whatever_the_separator(folder):
    import sys
    from pathlib import Path

    where = {"home": Path.home(), "cwd": Path.cwd(), "prefix": Path(sys.prefix),
             "package": Path(grading.__file__).parent}[folder]
    for sep in "/|\\":
        text = "at " + str(where / "secret.txt").replace("/", sep) + " now"
        assert _scrub(text, Path(WORK)) == "at <path> now", (sep, _scrub(text, Path(WORK)))


def test_the_worker_survives_whatever_grading_raises(monkeypatch):
    def explode(*a, **k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(worker, "grade_source", explode)
    opts = asdict(grading.Options(exercise="03"))
    r = grading.StudentReport.from_dict(worker._grade({"name": "s5.ipynb", "options": opts},
                                                      b"{}"))
    assert r.student == "s5" and r.problems == ["grading failed (RecursionError)"]
    assert [x["status"] for x in r.rows] == [grading.NOTEBOOK_ERROR] * len(QIDS)


def test_the_worker_is_started_isolated():
    """python -I (nothing of the current folder, HOME or PYTHON* on its path); as root in
    a mount namespace of its own (its notebooks' work folders are mounted there)."""
    import time

    w = grading.Worker()
    try:
        w._start()
        cmdline = b""
        for _ in range(200):
            cmdline = open(f"/proc/{w.proc.pid}/cmdline", "rb").read()
            if cmdline and b"limits.py" not in cmdline:
                break
            time.sleep(0.05)
        args = cmdline.split(b"\0")[1:-1]
        own = os.geteuid() == 0
        assert args == [b"-I", b"-m", b"prayatul_edu.grading.worker",
                        f"--parent={os.getpid()}".encode()] + [b"--own-mounts"] * own
        mine, its = (os.readlink(f"/proc/{p}/ns/mnt") for p in ("self", w.proc.pid))
        assert (mine != its) == own
    finally:
        w.close()


def test_the_kernel_is_confined_whoever_runs_the_grader(tmp_path):
    argv, env = sandbox.kernel_command("bwrap", tmp_path / "w", tmp_path / "c" / "k.json",
                                       grading.Limits(disk=2 ** 25), {}, ["GROUP"])
    assert argv[0] == "GROUP" and env is None
    text = " ".join(argv)
    for flag in (f"--bind {tmp_path / 'w'} {tmp_path / 'w'}",
                 f"--ro-bind {tmp_path / 'c'} {tmp_path / 'c'}",  # the connection file's
                 "--ro-bind /proc/sys /proc/sys","--unshare-user --uid 65534 --gid 65534", "--disable-userns",
                 "--cap-drop ALL", f"--size {sandbox.SHM_SIZE} --tmpfs /dev/shm",
                 "--remount-ro /dev", f"--size {2 ** 25} --tmpfs /tmp"):
        assert flag in text


@pytest.mark.skipif(cgroup.cgroup_problem() is not None,
                    reason=f"no control group here: {cgroup.cgroup_problem()}")
def test_a_control_group_counts_threads_and_memory_of_every_process():
    import subprocess
    import sys

    group = cgroup.NotebookGroup.create(grading.Limits(memory=64 * 2 ** 20, processes=8))
    code = ("import threading, time, subprocess, sys\nthreading.stack_size(2**16)\nn = 0\n"
            "try:\n    for n in range(200):\n"
            "        threading.Thread(target=time.sleep, args=(1,), daemon=True).start()\n"
            "except RuntimeError:\n    pass\nprint(n, flush=True)\ntime.sleep(1.5)\n"
            "p = [subprocess.Popen([sys.executable, '-c', 'b = bytes(1) * (40 * 2**20); "
            "import time; time.sleep(1)']) for _ in range(2)]\n"
            "print(sorted(x.wait() for x in p))")
    try:
        res = subprocess.run(group.prefix() + [sys.executable, "-c", code],
                             capture_output=True, text=True, timeout=60)
        threads, codes = res.stdout.split("\n", 1)
        # 8 + 32 tasks in all: the main thread and the threads started before the limit
        assert 0 < int(threads) < 8 + cgroup.KERNEL_TASKS
        assert "-9" in codes   # two children of 40 MB against 64 MB for the group
    finally:
        group.remove()
    assert not any(f.exists() for f in group.folders)


def test_no_control_group_without_root(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(cgroup, "_PROBLEM", {})
    assert cgroup.cgroup_problem() == "the grader is not root"
    assert cgroup.NotebookGroup.create(grading.Limits()) is None
    lines = sandbox.enforced_limits("bwrap", grading.Limits())
    assert lines[1].startswith("no control group (the grader is not root): memory 2G per "
                               "process, 256 processes per user")
    assert lines[-1] == "work folder: on disk, not capped in total (needs root)"


# -- course keys


def test_a_variant_token_needs_the_key():
    k1, k2 = bytes(range(32)), bytes(range(1, 33))
    t = variant_token(k1, "s1")
    assert t == variant_token(k1, "s1") and len(t) == 16 and int(t, 16) >= 0
    assert len({t, variant_token(k1, "s2"), variant_token(k2, "s1")}) == 3
    with pytest.raises(ValueError, match="key: expected at least 16 bytes"):
        variant_token(b"short", "s1")
    with pytest.raises(ValueError, match="student_id: expected a non-empty string"):
        variant_token(k1, "")


def test_a_course_key_file(tmp_path):
    path = write_key(tmp_path / "course.key")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(read_key(path)) == 64
    assert read_key(path) != read_key(write_key(tmp_path / "other.key"))
    with pytest.raises(ValueError, match="exists already; it is kept"):
        write_key(path)
    (tmp_path / "bad.key").write_text("short  \n")
    with pytest.raises(ValueError, match="holds 5 bytes; a key needs at least 16"):
        read_key(tmp_path / "bad.key")
    with pytest.raises(ValueError, match="cannot read"):
        read_key(tmp_path / "missing.key")


def test_setup_with_a_variant_seeds_every_question():
    token = variant_token(bytes(range(32)), "s1")
    try:
        ex.setup(student_id="s1", variant=token)
        q = ex.question("03.2")
        assert q.seed == token
        same = ex.question("03.2", seed=token)
        public = ex.question("03.2", seed="s1")
        def labels(x):
            return (x.classes.tolist(), x.clusters.tolist())

        assert labels(q) == labels(same) and labels(q) != labels(public)
        with pytest.raises(TypeError, match="variant: expected the text"):
            ex.setup("s1", variant="")
    finally:
        ex.setup(None)


def test_grading_with_a_course_key(tmp_path, capsys):
    key_file = tmp_path / "course.key"
    assert cli.main(["grade", "--make-key", str(key_file)]) == 0
    key = read_key(key_file)
    subs = tmp_path / "subs"
    subs.mkdir()
    for student in ("s1", "s2"):
        token = variant_token(key, student)
        # s1 works on the assigned variant; s2 on the public one of its id
        seed = token if student == "s1" else student
        setup = (f"ex.setup(student_id={student!r}, variant={token!r})\nq1 = ex.question('03.1')"
                 if student == "s1" else "pass")
        nbformat.write(notebook(student, answers(seed), after={"setup": setup}),
                       subs / f"{student}_03_pair_counting.ipynb")
    out = tmp_path / "out"
    assert cli.main(["grade", str(subs), "--out", str(out), "--course-key", str(key_file),
                     "--sandbox", SANDBOX, "--cell-timeout", "20", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "limits: sandbox: " in err and "limits: per process: memory 2G" in err
    got = json.loads((out / "grades.json").read_text())
    by = {s["student"]: s for s in got["students"]}
    assert by["s1"]["variant"] == variant_token(key, "s1") and by["s1"]["total"] == TOTAL
    assert by["s2"]["variant"] == variant_token(key, "s2") and by["s2"]["total"] < TOTAL
    assert key.decode() not in (out / "grades.json").read_text()
    assert got["settings"]["course_key"] is True
    assert got["settings"]["enforced"] == sandbox.enforced_limits(SANDBOX, grading.Limits())
    assert [f"limits: {line}" for line in got["settings"]["enforced"]] == [
        line for line in err.splitlines() if line.startswith("limits: ")]


@pytest.mark.skipif(SANDBOX != "bwrap" or cgroup.cgroup_problem() is not None,
                    reason="needs the sandbox and a control group")
def test_memory_is_limited_for_the_whole_notebook(tmp_path):
    """Three children of 350 MB against 1 GB for the notebook: one is killed (each is
    under the per-process limit); the honest student beside it keeps full marks."""
    attack = ("import subprocess, sys\nprocs = [subprocess.Popen([sys.executable, '-c', "
              "'import time; b = bytes(1) * (350 * 2**20); time.sleep(1)']) "
              "for _ in range(3)]\ncodes = sorted(p.wait() for p in procs)\n"
              "raise RuntimeError('killed' if codes[0] < 0 else 'all held')")
    paths = []
    for student, extra in (("m1", attack), ("m2", None)):
        paths.append(tmp_path / f"{student}.ipynb")
        nbformat.write(notebook(student, answers(student),
                                after={"setup": extra} if extra else None), paths[-1])
    reports = grading.grade_batch(paths, tmp_path / "out", progress=False, jobs=2,
                                  exercise="03", cell_timeout=30, notebook_timeout=90,
                                  limits=asdict(grading.Limits(memory=1024 ** 3)))
    assert [(rows(r), r.problems) for r in reports] == [
        (FULL, ['code cell 2 under "03 - Pair counting: similarity matrices,…" raised '
                'RuntimeError: killed']), (FULL, [])]


def test_a_cgroup_v2_group_is_made_below_the_graders(tmp_path, monkeypatch):
    """On cgroup v2 (a stand-in folder tree here) the notebook's group is made below the
    grader's group (or its parent when the grader sits in its own leaf), with memory.max,
    no swap and pids.max."""
    base = tmp_path / "grp"
    (base / cgroup.GRADER_LEAF).mkdir(parents=True)
    (base / "cgroup.controllers").write_text("cpu memory pids\n")
    (base / "cgroup.subtree_control").write_text("memory pids\n")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(cgroup, "_mounts", lambda: {"v2": str(tmp_path)})
    monkeypatch.setattr(cgroup, "_own", lambda: {"": f"/grp/{cgroup.GRADER_LEAF}"})
    original_mkdir = type(base).mkdir

    def mkdir(self, *a, **k):   # what the kernel does in a new group
        original_mkdir(self, *a, **k)
        (self / "memory.swap.max").write_text("max\n")

    monkeypatch.setattr(type(base), "mkdir", mkdir)
    group = cgroup.NotebookGroup.create(grading.Limits(memory=2 ** 30, processes=10))
    assert group.version == "v2" and [f.parent for f in group.folders] == [base]
    folder = group.folders[0]
    assert (folder / "memory.max").read_text() == str(2 ** 30)
    assert (folder / "memory.swap.max").read_text() == "0"
    assert (folder / "pids.max").read_text() == str(10 + cgroup.KERNEL_TASKS)
    assert group.prefix()[-1] == str(folder / "cgroup.procs")
    (base / "cgroup.controllers").write_text("cpu\n")
    (base / "cgroup.subtree_control").write_text("\n")
    assert cgroup._base_folders()[0] is None   # no memory controller to hand down


@pytest.mark.parametrize("source, asked", [
    # asking for help is the kernel's record (one rule for every route), not the code's
    ("q1.check(q1.compute_key())", []),
    ("q1.solution()\nq1.explain(None)", []),
    ("q1.check(q1.key.__wrapped__(q1))", ["__wrapped__"]),
    ("q1.key.__closure__[0].cell_contents", ["__closure__", "cell_contents"]),
    ("import os\nos.environ.pop('PRAYATUL_EDU_ASSIGNMENT')\nq1.check(q1.key())",
     ["the environment changed"]),
    ("import os\nos.environ['PRAYATUL_EDU_ASSIGNMENT'] = '{\"released\": true}'",
     ["the environment changed"]),
    # what a hand-out's setup cell does: harmless (the grader's policy is set first)
    ("import os\nos.environ.setdefault('PRAYATUL_EDU_ASSIGNMENT', '{}')\n"
     "os.environ['PRAYATUL_EDU_VARIANT'] = '6f3a2032666cc367'", []),
    ("answer = sorted([3, 1], key=abs)\nq1.check(answer)", []),
    # what Python reads is what the grader reads: a continued line, compatibility letters
    ("q1.check(q1.__wrapped\\\n__)", ["__wrapped__"]),
    ("q1.\uff3f\uff3fclosure\uff3f\uff3f", ["__closure__"]),
    ("import os\nos.environ |= {'PRAYATUL_EDU_ASSIGNMENT': '{}'}", ["the environment changed"]),
    # what is beside the question: the memo among everything alive, the module's globals,
    # a function question's caller (its cases, the checking's locals)
    ("import gc\nmemo = [o for o in gc.get_objects() if isinstance(o, dict) and 'keys' in o]",
     ["get_objects"]),
    ("q1.check.__globals__['close'] = lambda a, k: True", ["__globals__"]),
    ("def purity(truth, pred):\n    import sys\n    return sys._getframe(2).f_locals",
     ["_getframe", "f_locals"]),
    ("try:\n    q1.key()\nexcept Exception as e:\n    e.__traceback__.tb_frame.f_back",
     ["f_back", "tb_frame"]),
    ("import weakref\nweakref.getweakrefs(q1)[0].__callback__", ["__callback__", "getweakrefs"]),
    ("from prayatul_edu.exercises import assignment as a\na._OWN.add(None)", ["_OWN"]),
    ("from prayatul_edu.exercises import authoring\nauthoring._spec_of(type(q1))",
     ["_spec_of"]),
    # the data sets' module: the part of a data set kept for the library alone (09.4's
    # groups), its store, and the generators that redraw a variant with its seed
    ("from prayatul_edu.exercises import _data\n_data.private('criteria_k', q1.seed, q1.data)",
     ["_data"]),
    ("import prayatul_edu.exercises as ex\nex._data._PRIVATE", ["_PRIVATE", "_data"]),
    ("from prayatul_edu.exercises import (assignment,\n    _data as d)\nd.DATASETS", ["_data"]),
    ("import importlib\nm = importlib.import_module('prayatul_edu.exercises._data')", ["_data"]),
    # a name of the student's own that merely ends so is no route
    ("import numpy as np\n_data = my_data = q1.data\nq1.check(len(my_data))", []),
])
def test_the_grader_reads_the_code_for_answers_asked_for(source, asked):
    from prayatul_edu.grading.notebook import asked_for_answers

    nb = notebook("s1", check_source={"03.1": source})
    assert asked_for_answers(nb, QIDS) == ({"03.1": asked} if asked else {})


def test_code_getting_round_the_seal_in_another_questions_part_counts_for_its_question():
    """q1's memo read in 03.4's part of the notebook costs 03.1 (and 03.4, whose part it
    is in); a question named by its id or by another name the notebook gives it, too."""
    from prayatul_edu.grading.notebook import asked_for_answers

    nb = notebook("s1", check_source={
        "03.4": "q1.check(q1._memo)\nq4.check(...)",
        "03.2": "third = ex.question('03.3')\nq2.check(...)"})
    nb.cells.append(nbformat.v4.new_code_cell("third.check(third.__closure__)\n"
                                              "ex.question('03.2').solution()", id="end"))
    assert asked_for_answers(nb, QIDS) == {
        "03.1": ["_memo"], "03.2": ["__closure__"], "03.3": ["__closure__"],
        "03.4": ["_memo"],
        # the cell appended at the end is in the last question's part
        "03.5": ["__closure__"]}


@pytest.mark.skipif(os.geteuid() != 0 or sandbox.host_uid() is None,
                    reason="the kernel runs as an unprivileged uid outside when root grades "
                           "and bubblewrap can run as that user here")
def test_the_kernel_is_not_root_outside_its_namespace():
    """Graded by root, the kernel's files belong to an unprivileged uid outside (what it
    can read, signal or write is that user's), and the machine's settings are read-only."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    uid = sandbox.host_uid()
    folder = tempfile.TemporaryDirectory(prefix="prayatul-grade-")  # as the grader makes it
    work = Path(folder.name) / "work"
    work.mkdir()
    os.chmod(folder.name, 0o711)
    os.chown(work, uid, uid)
    argv, _ = sandbox.kernel_command("bwrap", work, work / "k.json", grading.Limits(), {})
    assert argv[argv.index("--as") + 1] == str(uid) and uid not in (0, sandbox.SANDBOX_UID)
    code = ("import os\nopen('mine', 'w').write(str(os.getuid()))\n"
            "try:\n    open('/proc/sys/kernel/printk_ratelimit', 'w').write('5')\n"
            "except OSError as e:\n    print(e.errno)")
    argv = argv[:argv.index("ipykernel_launcher") - 2] + [sys.executable, "-c", code]
    res = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert res.stdout.split() == ["30"], res.stderr
    assert (work / "mine").read_text() == str(sandbox.SANDBOX_UID)
    assert (work / "mine").stat().st_uid == uid
    folder.cleanup()


def test_the_grader_keeps_nothing_a_kernel_piles_up():
    """What nbclient keeps of a kernel's messages, sent 50 times at 100 KB: widget state
    (it was kept whole: 431 MB in the worker for 400 messages of 900 KB), errors beyond
    the output cap (349 MB), display updates of kept outputs (319 MB); the worker's own
    memory is 83 MB. Now: a few times the output cap."""
    client = runner._capped_client_class()(nbformat.v4.new_notebook())
    client.output_cap = 20_000
    client.reset_execution_trackers()
    client.clear_before_next_output = False
    cell = nbformat.v4.new_code_cell("x")
    big = "x" * 100_000

    def send(kind, content):
        client.process_message({"msg_type": kind, "content": content, "buffers": [],
                                "header": {"msg_type": kind}, "metadata": {},
                                "parent_header": {"msg_id": "m"}}, cell, 0)

    send("comm_open", {"comm_id": "c", "target_name": "jupyter.widget", "data": {
        "state": {"_model_module": "m", "_model_name": "n"}}})
    for i in range(50):
        send("comm_msg", {"comm_id": "c", "data": {"state": {f"k{i}": big}}})
        send("display_data", {"data": {"text/plain": ""}, "metadata": {},
                              "transient": {"display_id": f"d{i}" + "i" * 1000}})
        send("error", {"ename": "E", "evalue": big, "traceback": [big] * 10})
    for i in range(50):
        send("update_display_data", {"data": {"text/plain": big}, "metadata": {},
                                     "transient": {"display_id": f"d{i}" + "i" * 1000}})
    kept = (json.dumps(cell.outputs) + json.dumps(client.widget_state)
            + repr(client._display_id_map) + repr(client.widget_buffers))
    assert len(kept) < 3 * client.output_cap
    errors = [o for o in cell.outputs if o["output_type"] == "error"]
    assert errors and all(len(o["evalue"]) == runner.ERROR_FIELD for o in errors)
    assert len(cell.outputs) > 10   # displays kept up to the cap, as before
