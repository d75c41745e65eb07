"""A fair share of the machine for each notebook, end to end: a notebook that forks
dozens of spinning, detached processes (each cell well under the cell limit) is graded
beside honest notebooks (``jobs=2``), and the honest ones keep their full marks (before
each notebook had its own CPU controller, the burner's processes took 64/65 of the
machine and the honest kernels' cells were cut). A kernel that fails to start is tried
once more before it costs a row, and the row says so.

Runs only where the sandbox can run (Linux with bubblewrap and user namespaces); the
burner only where each notebook gets a control group with the cpu controller (root)."""
from dataclasses import asdict

import nbformat
import pytest

from grading_helpers import FULL, QIDS, answers, notebook, rows
from prayatul_edu import grading
from prayatul_edu.grading import notebook as graded_notebook
from prayatul_edu.grading.cgroup import cpu_controller

PROBLEM = grading.sandbox_problem("bwrap")
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox here: {PROBLEM}")
#: spinning children of the burner, and the seconds it keeps them spinning
CHILDREN, SPIN = 100, 30
#: an honest student's own computation (about 0.3 s of CPU on one core)
WORK = "total = sum(i * i for i in range(3_000_000))"
HONEST = ("s002", "s003")
BURNER = (f"import os, time\nstart = time.time() + 2\nfor _ in range({CHILDREN}):\n"
          "    if os.fork() == 0:\n        os.setsid()\n"
          "        time.sleep(max(0, start - time.time()))\n"   # spin once all are forked
          "        while True:\n            pass")


@pytest.mark.skipif(not cpu_controller(), reason="no cpu controller for the notebooks' "
                    "control groups here (needs root and a cgroup with the cpu controller)")
def test_a_cpu_burner_does_not_starve_its_neighbours(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    burner = notebook("s001", answers("s001"), after={"setup": BURNER})
    # then it waits, cell by cell, each well under the cell limit, while its children spin
    burner.cells += [nbformat.v4.new_code_cell("import time; time.sleep(2)")
                     for _ in range(SPIN // 2)]
    nbformat.write(burner, subs / "s001_03_pair_counting.ipynb")
    for student in HONEST:   # each computes a little of its own before every check
        nb = notebook(student, answers(student))
        for cell in nb.cells:
            if cell.id.endswith("-check"):
                cell.source = WORK + "\n" + cell.source
        nbformat.write(nb, subs / f"{student}_03_pair_counting.ipynb")
    limits = grading.Limits(processes=CHILDREN + 40)
    reports = grading.grade_batch([subs], tmp_path / "out", progress=False, jobs=2,
                                  exercise="03_pair_counting", cell_timeout=8,
                                  notebook_timeout=SPIN + 20, limits=asdict(limits))
    by = {r.student: r for r in reports}
    assert [x[0] for x in rows(by["s001"])] == QIDS   # the burner slows only itself
    for student in HONEST:
        assert rows(by[student]) == FULL, by[student].problems
        assert by[student].problems == []


def _fails_once(real, calls, times=1):
    def run(*args, **kw):
        calls.append(args[1])
        if len(calls) <= times:
            (args[1] / "left-by-the-first-run").write_text("x")
            raise RuntimeError("Kernel didn't respond in 60 seconds")
        assert not (args[1] / "left-by-the-first-run").exists()   # a fresh work folder
        return real(*args, **kw)
    return run


def test_a_kernel_that_fails_to_start_is_run_again(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(graded_notebook, "run_notebook",
                        _fails_once(graded_notebook.run_notebook, calls))
    data = nbformat.writes(notebook("s004", answers("s004"))).encode()
    r = graded_notebook.grade_source("s004_03_pair_counting.ipynb", data,
                                     graded_notebook.Options(exercise="03_pair_counting"))
    assert len(calls) == 2
    assert rows(r) == FULL
    assert r.problems == ["the kernel failed to start or to answer (RuntimeError: Kernel "
                          "didn't respond in 60 seconds); the notebook was run once more "
                          "from the start, and graded so"]


def test_a_kernel_that_fails_twice_costs_the_row_and_says_so(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(graded_notebook, "run_notebook",
                        _fails_once(graded_notebook.run_notebook, calls, times=2))
    data = nbformat.writes(notebook("s005", answers("s005"))).encode()
    r = graded_notebook.grade_source("s005_03_pair_counting.ipynb", data,
                                     graded_notebook.Options(exercise="03_pair_counting"))
    assert len(calls) == 2
    assert [x[:2] for x in rows(r)] == [(q, 0.0) for q in QIDS]
    assert r.problems[0].startswith("the kernel failed to start or to answer (RuntimeError: "
                                    "Kernel didn't respond in 60 seconds), and again when "
                                    "the notebook was run once more")
