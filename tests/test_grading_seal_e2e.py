"""Issue 42's acceptance, end to end, on a fresh ``prayatul-edu assign --course-key`` of
course exercise 01 for a class of five with Canvas ids, and on the shipped own exercise:

* s0001 answers every question honestly (the solutions' own code, on the variant);
* s0002 answers 01.8 from ``q8.options()``, s0003 from ``q8.statements()``: less than
  full marks, and the route on the record;
* s0004 asks for ``solution()`` of 01.1, s0005 for ``explain()``, each refused, then
  answer honestly: one rule, equal totals, the route named;
* the own exercise graded once, one statement's truth edited in its ``questions.py``,
  graded again: refused, naming the question, what changed and for whom.
"""
import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from prayatul_edu import cli, grading

ROOT = Path(__file__).resolve().parents[1]
SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
EXERCISE = "01_matching"
KEY = b"0123456789abcdef-a-course-key-for-issue-42"
CLASS = """student,name,canvas_id
s0001,Ana Lima,4001
s0002,Bo Chen,4002
s0003,Cy Dee,4003
s0004,Di Eve,4004
s0005,Ed Fox,4005
"""
SOLUTIONS = nbformat.read(ROOT / "solutions" / f"{EXERCISE}.ipynb", as_version=4)
OPTIONS = "answer = ''.join(l for l, t, ok, w in q8.options() if ok)\nq8.check(answer)"
STATEMENTS = ("truth = {t: ok for t, ok, w in q8.statements()}\n"
              "answer = ''.join(l for l, t in q8.choices.items() if truth[t])\nq8.check(answer)")
HELP = {"s0004": "q1.solution()",
        "s0005": "from prayatul_edu.steps import Derivation\nq1.explain(Derivation('x'))"}


def _honest(handout: Path, replace=None, after=None) -> nbformat.NotebookNode:
    """The handed-out notebook with every check cell the solutions' (the honest code:
    it computes each answer from the student's own data); ``replace``: check cell id ->
    other source; ``after``: cell id -> a cell added after it."""
    nb = nbformat.read(handout, as_version=4)
    solved = {c.id: c.source for c in SOLUTIONS.cells if c.id.endswith("-check")}
    cells = []
    for cell in nb.cells:
        if cell.id in solved:
            cell.source = (replace or {}).get(cell.id, solved[cell.id])
        cells.append(cell)
        if after and cell.id in after:
            cells.append(nbformat.v4.new_code_cell(after[cell.id], id=f"extra-{cell.id}"))
    nb.cells = cells
    return nb


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    d = tmp_path_factory.mktemp("seal")
    (d / "class.csv").write_text(CLASS, encoding="utf-8")
    (d / "course.key").write_bytes(KEY + b"\n")
    assert cli.main(["assign", "01", "--roster", str(d / "class.csv"), "--out", str(d / "hw"),
                     "--course-key", str(d / "course.key")]) == 0
    handout = d / "hw" / "notebooks"
    top = d / "collected"
    top.mkdir()
    notebooks = {"s0001": _honest(handout / f"s0001_{EXERCISE}.ipynb"),
                 "s0002": _honest(handout / f"s0002_{EXERCISE}.ipynb",
                                  replace={"q01-8-check": OPTIONS}),
                 "s0003": _honest(handout / f"s0003_{EXERCISE}.ipynb",
                                  replace={"q01-8-check": STATEMENTS})}
    for sid, source in HELP.items():
        notebooks[sid] = _honest(handout / f"{sid}_{EXERCISE}.ipynb",
                                 after={"q01-1-check": source})
    for sid, nb in notebooks.items():
        (top / sid).mkdir()
        nbformat.write(nb, top / sid / f"{sid}_{EXERCISE}.ipynb")
    code = cli.main(["grade", str(top), "--out", str(d / "grades"), "--roster",
                     str(d / "hw" / "roster.csv"), "--course-key", str(d / "course.key"),
                     "--jobs", "2", "--sandbox", SANDBOX])
    data = json.loads((d / "grades" / "grades.json").read_text())
    return d, code, {s["student"]: s for s in data["students"]}


def _rows(student) -> dict:
    return {r["question"]: r for r in student["rows"]}


def test_assign_records_every_question_it_hands_out(course):
    d, _, _ = course
    record = json.loads((d / "hw" / "questions.json").read_text())
    assert record["exercise"] == EXERCISE
    assert set(record["questions"]["01.8"]["students"]) == {f"s000{i}" for i in range(1, 6)}
    assert not (d / "hw" / "notebooks" / "questions.json").exists()    # never handed out


def test_the_honest_student_gets_full_marks(course):
    _, code, students = course
    s1 = students["s0001"]
    import prayatul_edu.exercises as ex

    full = sum(ex.QUESTIONS[q].points for q in ex.topic_questions("01"))   # 01.11 counts 2
    assert full == 12
    assert s1["total"] == s1["max_total"] == full, [(r["question"], r["status"])
                                                     for r in s1["rows"]]


@pytest.mark.parametrize("sid, route", [("s0002", "options"), ("s0003", "statements")])
def test_an_answer_read_from_the_options_or_statements_gets_less_and_is_recorded(
        course, sid, route):
    _, _, students = course
    student = students[sid]
    assert student["total"] < students["s0001"]["total"]
    q8 = _rows(student)["01.8"]
    assert q8["points"] == 0
    assert f"{route}()" in q8["feedback"]          # the route, named in the feedback
    assert student["calls"]["01.8"]["key"] >= 1 and student["calls"]["01.8"]["key_shown"] == 0


def test_solution_and_explain_asked_then_answered_honestly_score_the_same(course):
    _, _, students = course
    s4, s5 = students["s0004"], students["s0005"]
    assert s4["total"] == s5["total"] == students["s0001"]["total"]
    assert "solution()" in _rows(s4)["01.1"]["feedback"]
    assert "explain()" in _rows(s5)["01.1"]["feedback"]


def _run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "prayatul_edu", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=900)


def test_an_edited_statement_of_the_own_exercise_is_refused_then_named(tmp_path):
    own = tmp_path / "own"
    shutil.copytree(ROOT / "examples" / "iris_exercise", own)
    (tmp_path / "class.csv").write_text(CLASS, encoding="utf-8")
    (tmp_path / "course.key").write_bytes(KEY + b"\n")
    run = _run("assign", own, "--roster", "class.csv", "--out", "hw", "--course-key",
               "course.key", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    collected = tmp_path / "collected"
    collected.mkdir()
    shutil.copy(next((tmp_path / "hw" / "notebooks").glob("s0001_*.ipynb")), collected)
    grade = ["grade", "collected", "--roster", "hw/roster.csv", "--course-key",
             "course.key", "--exercise", own, "--jobs", "1", "--sandbox", SANDBOX]
    first = _run(*grade, "--out", "g1", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    source = (own / "questions.py").read_text()
    edited = source.replace('("An NMI of 0 means a perfect clustering.", False,',
                            '("An NMI of 0 means a perfect clustering.", True,')
    assert edited != source
    (own / "questions.py").write_text(edited)
    again = _run(*grade, "--out", "g2", cwd=tmp_path)
    assert again.returncode == 2
    assert not (tmp_path / "g2" / "grades.csv").exists()
    m = re.search(r"questions: changed since they were handed out .*?(\d+\.\d+): a "
                  r"statement's truth \(for s0001, s0002, s0003, s0004, s0005\)",
                  again.stderr)
    assert m, again.stderr
    qid = m.group(1)
    with open(tmp_path / "hw" / "roster.csv", newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 5
    allowed = _run(*grade, "--out", "g3", "--grade-changed-questions", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert (f"changed since hand-out, graded by the current version: {qid}: a statement's "
            "truth (for s0001") in allowed.stderr
