"""The shipped example (``examples/iris_exercise``) as issue 38's acceptance has it: assigned
by its path to 3 students (no solution in a handout), graded in the sandbox (an honest
student gets full marks, a blank notebook is "not attempted" throughout, a student's
named mistakes are named), corrected by hand (``export --overrides`` changes s0003's
Canvas total and keeps the reason), reported (every question, "not attempted") and
gathered into a gradebook with a second grading. The honest answers are computed here
from the data shown to the student, with scikit-learn and NumPy, not the library."""
import csv
import json
import re
import shutil
from pathlib import Path

import nbformat
import numpy as np
import pytest

from grading_helpers import package_only
from prayatul_edu import cli, grading
from prayatul_edu.exercises import CORRECT, NOT_ATTEMPTED
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.exercises._base import QUESTIONS

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iris_exercise"
STUDENTS = ["s0001", "s0002", "s0003"]


def honest(student):
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    q = QUESTIONS["51.1"](seed=student)
    s, c = np.asarray(q.species), np.asarray(q.clusters)
    table = [[int(np.sum((c == i) & (s == j))) for j in (1, 2, 3)] for i in (1, 2, 3)]
    majority = sum(max(row) for row in table)
    truth = {"above 0.9": majority / len(s) > 0.9,
             "one species only": all(sum(v > 0 for v in row) <= 1 for row in table),
             "corrects the Rand index": True, "its own cluster": True, "perfect": False}
    choices = QUESTIONS["51.5"](seed=student).choices
    letters = "".join(sorted(letter for letter, text in choices.items()
                             if next(v for k, v in truth.items() if k in text)))
    return {"51.1": table, "51.2": majority / len(s), "51.5": letters,
            "51.3": [float(adjusted_rand_score(s, c)),
                     float(normalized_mutual_info_score(s, c, average_method="geometric"))],
            "51.4": int(len(s) - majority)}


def answered(nb, given):
    for cell in nb.cells:
        m = re.fullmatch(r"q51-(\d)-check", cell.get("id", ""))
        if m and f"51.{m.group(1)}" in given:
            value = given[f"51.{m.group(1)}"]
            cell.source = re.sub(r"^answer = [^#\n]*", lambda _: f"answer = {value!r}  ",
                                 cell.source, count=1, flags=re.M)
    return nb


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    with package_only():
        d = tmp_path_factory.mktemp("example")
        pa.load(EXAMPLE)
        (d / "class.csv").write_text("student\n" + "\n".join(STUDENTS) + "\n")
        assert cli.main(["assign", str(EXAMPLE), "--roster", str(d / "class.csv"), "--out",
                         str(d / "hw")]) == 0
        sub = d / "sub"
        sub.mkdir()
        h3 = honest("s0003")
        transposed = [list(r) for r in zip(*h3["51.1"])]
        given = {"s0001": honest("s0001"), "s0002": {}, "s0003": dict(h3, **{"51.1": transposed})}
        for sid in STUDENTS:
            name = f"{sid}_51_iris.ipynb"
            nb = nbformat.read(d / "hw" / "notebooks" / name, as_version=4)
            nbformat.write(answered(nb, given[sid]), sub / name)
        assert cli.main(["grade", str(sub), "--exercise", str(EXAMPLE), "--roster",
                         str(d / "hw" / "roster.csv"), "--out", str(d / "g1"), "--format",
                         "canvas", "--sandbox", SANDBOX, "--jobs", "2", "--assignment",
                         "G1"]) == 0
        shutil.copytree(d / "g1", d / "g2")
        (d / "ov.csv").write_text("student,question,points,reason\n"
                                  "s0003,51.1,1,table on paper was right\n")
        assert cli.main(["export", str(d / "g2"), "--overrides", str(d / "ov.csv"),
                         "--assignment", "G2"]) == 0
        yield d


def _rows(folder, sid):
    g = json.loads((folder / "grades.json").read_text())
    s = next(s for s in g["students"] if s["student"] == sid)
    return {r["question"]: r for r in s["rows"]}


def test_assigned_by_its_path_without_a_solution(example):
    for sid in STUDENTS:
        text = (example / "hw" / "notebooks" / f"{sid}_51_iris.ipynb").read_text()
        assert "SOLUTION" not in text and "pe.purity(q2" not in text
    assert (example / "hw" / "notebooks" / "questions.py").read_bytes() == (
        EXAMPLE / "questions.py").read_bytes()


def test_honest_full_marks_blank_not_attempted_mistakes_named(example):
    honest_rows = _rows(example / "g1", "s0001")
    assert {q: r["status"] for q, r in honest_rows.items()} == {
        "51.1": CORRECT, "51.2": CORRECT, "51.3": CORRECT, "51.4": CORRECT,
        "51.5": CORRECT}
    assert sum(r["points"] for r in honest_rows.values()) == 6
    assert {r["status"] for r in _rows(example / "g1", "s0002").values()} == {NOT_ATTEMPTED}
    assert _rows(example / "g1", "s0003")["51.1"]["diagnosed"] == ["transposed"]


def test_export_overrides_change_s0003s_canvas_total_and_keep_the_reason(example):
    def total(folder):
        rows = list(csv.reader(open(folder / "canvas.csv")))
        return {r[2]: float(r[5]) for r in rows[2:]}["s0003"]

    assert total(example / "g2") == total(example / "g1") + 1
    g = json.loads((example / "g2" / "grades.json").read_text())
    s3 = next(s for s in g["students"] if s["student"] == "s0003")
    assert s3["overrides"][0]["reason"] == "table on paper was right"


def test_the_class_report_names_every_question_and_not_attempted(example):
    md = (example / "g1" / "report.md").read_text()
    for qid in ("51.1", "51.2", "51.3", "51.4", "51.5"):
        assert f"## {qid} " in md
    assert "not attempted" in md and "| transposed | 1 (33%) |" in md
    assert (example / "g1" / "report.html").read_text().count("data:image/png;base64,") == 6


def test_a_gradebook_of_two_grade_folders(example):
    out = example / "book.csv"
    assert cli.main(["gradebook", str(example / "g1"), str(example / "g2"), "--out",
                     str(out)]) == 0
    rows = list(csv.reader(open(out)))
    assert rows[0] == ["student", "G1", "G2", "total", "missing"]
    by = {r[0]: r for r in rows[1:]}
    assert by["s0003"][2] == f"{float(by['s0003'][1]) + 1:g}"
    assert by["s0002"][1:] == ["0", "0", "0", "0"]


def test_the_example_is_saved_with_every_check_correct():
    nb = nbformat.read(EXAMPLE / "solutions.ipynb", as_version=4)
    checks = [c for c in nb.cells if c.cell_type == "code" and c.id.endswith("-check")]
    assert [c.id for c in checks] == [f"q51-{k}-check" for k in range(1, 6)]
    for c in checks:
        assert ": correct (" in c.outputs[-1]["data"]["text/plain"], c.id
