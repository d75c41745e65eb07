"""The grader's own process is bounded, end to end: ``prayatul-edu grade`` ended with
SIGTERM mid-batch leaves no process behind (no worker, no sandbox, no kernel, no
detached child of a student) within seconds, and an answer string such as
``"1e20000000"`` is an invalid answer in its own row, read at once.

Runs only where the sandbox can run (Linux with bubblewrap and user namespaces)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

import prayatul_edu.exercises as ex
from grading_helpers import FULL, QIDS, ROOT, answers, notebook, rows
from prayatul_edu import grading
from prayatul_edu.grading.batch import STOP_GRACE

PROBLEM = grading.sandbox_problem("bwrap")
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox here: {PROBLEM}")

MARKER = "prayatul-stop-marker"


def _tree(root: int) -> dict[int, str]:
    """pid -> command line of every process under ``root`` (``root`` included)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            ppid = int(stat[stat.rfind(b")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(name))
    found, todo = {}, [root]
    while todo:
        pid = todo.pop()
        try:
            found[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace")
        except OSError:
            continue
        todo += children.get(pid, [])
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return state[state.rfind(b")") + 2:][:1] != b"Z"


def _with_marker() -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if MARKER.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
            except OSError:
                pass
    return found


def test_sigterm_mid_batch_leaves_no_process(tmp_path):
    """Two notebooks in their kernels (one of them has started a detached child that
    sleeps), two waiting: SIGTERM to ``grade`` ends the command and every process it
    started within STOP_GRACE + 2 seconds."""
    subs = tmp_path / "subs"
    subs.mkdir()
    sleeper = (f"import subprocess, sys, time\n"
               f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)', "
               f"{MARKER!r}], start_new_session=True)\ntime.sleep(120)")
    for k in range(4):
        student = f"s{k + 1:03d}"
        nbformat.write(notebook(student, answers(student), after={"setup": sleeper}),
                       subs / f"{student}_03_pair_counting.ipynb")
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from prayatul_edu import cli; "
                             "sys.exit(cli.main(sys.argv[1:]))", "grade", str(subs),
                             "--out", str(tmp_path / "out"), "--jobs", "2",
                             "--cell-timeout", "200", "--notebook-timeout", "250"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while len(_with_marker()) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        tree = _tree(proc.pid)
        assert len(_with_marker()) >= 2, "the kernels did not start in time"
        assert sum("prayatul_edu.grading.worker" in c for c in tree.values()) == 2, tree
        assert sum(c.startswith("bwrap ") for c in tree.values()) >= 2, tree
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(STOP_GRACE + 10)
        left = set(tree)
        while left and time.monotonic() < started + STOP_GRACE + 2:
            left = {pid for pid in left if _alive(pid)}
            time.sleep(0.1)
        ended = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode()
    assert proc.returncode == -signal.SIGTERM, err[-2000:]
    assert left == set() and _with_marker() == [], {p: tree[p] for p in left}
    assert "grading stopped (SIGTERM): 0 of 4 notebook(s) graded" in err, err[-2000:]
    assert ended < STOP_GRACE + 2
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_a_huge_exponent_is_an_invalid_answer_at_once(tmp_path):
    """``"1e20000000"`` as an answer, checked in the notebook and forged into the
    grader's channel: 41 s of Fraction arithmetic, then an uncaught OverflowError in the
    grader's worker, before; now an invalid answer in its own row, the other answers
    graded."""
    student = "s100"
    given = answers(student)
    given["03.3"] = ["1e20000000", given["03.3"][1]]
    forged = json.dumps({"qid": "03.2", "seed": student,
                         "answer": ["1e20000000", "1" * 5000, 2, 3]})
    forge = (f"import os\nopen(os.environ['PRAYATUL_EDU_SUBMISSIONS'], 'a')"
             f".write({forged!r} + '\\n')")
    path = tmp_path / f"{student}_03_pair_counting.ipynb"
    nbformat.write(notebook(student, given, after={"progress": forge}), path)
    start = time.perf_counter()
    (r,) = grading.grade_batch([path], tmp_path / "out", progress=False, jobs=1,
                               exercise="03_pair_counting", cell_timeout=30,
                               notebook_timeout=120)
    seconds = time.perf_counter() - start
    assert rows(r) == [("03.1", 1.0, ex.CORRECT), ("03.2", 0.0, ex.INVALID),
                       ("03.3", 0.0, ex.INVALID)] + FULL[3:], r.problems
    assert ("'1e20000000' is not read as a number (an exponent beyond 400"
            in r.rows[1]["feedback"]), r.rows[1]
    assert "the answer could not be read: ['1e20000000'," in r.rows[2]["feedback"]
    assert r.problems == []
    assert seconds < 30   # a kernel start and a few cells; the reading itself: < 1 ms
    saved = json.loads((tmp_path / "out" / "grades.json").read_text())
    assert [s["student"] for s in saved["students"]] == [student]
    assert QIDS == [x["question"] for x in r.rows]


@pytest.mark.parametrize("text, why", [
    ("1e20000000", "an exponent beyond 400"), ("-2.5E-0000401", "an exponent beyond 400"),
    ("1" * 101, "more than 100 characters"), ("1/" + "7" * 99, "more than 100 characters")])
def test_number_text_is_read_with_bounds(text, why):
    from prayatul_edu.exercises.kinds import read_number

    start = time.perf_counter()
    with pytest.raises(ex._base.InvalidAnswer, match=why):
        read_number(text, "answer")
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("text, value", [("1e300", 1e300), ("2.5E-3", 0.0025),
                                         ("1/4", 0.25), (" 1 / 8 ", 0.125),
                                         ("0." + "3" * 90, 1 / 3)])
def test_number_text_within_bounds_is_read(text, value):
    from prayatul_edu.exercises.kinds import read_number

    assert read_number(text, "answer") == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("answer", ["1e400", 10 ** 400])
def test_a_number_beyond_a_float_is_invalid_not_an_overflow(answer):
    from prayatul_edu.exercises.kinds import read_number

    with pytest.raises(ex._base.InvalidAnswer):
        read_number(answer, "answer")
