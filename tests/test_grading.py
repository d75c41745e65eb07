"""`prayatul-edu grade` on fabricated submissions (generated here from exercises/03).

All correct, partly wrong, blank, raising, an endless loop, a tampered `check`,
megabytes of output, deleted cells, malformed files, and a notebook answering
someone else's variant. The answers are computed here, independently of the
library's keys.
"""
import csv
import io
import json
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu import cli, grading

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "exercises" / "03_pair_counting.ipynb"
QIDS = ["03.1", "03.2", "03.3", "03.4"]


def _answers(student):
    """The right answers of notebook 03 for ``student``, computed by hand."""
    from sklearn.metrics import adjusted_rand_score, rand_score

    q = ex.question("03.1", seed=student)
    t, c = q.classes, q.clusters
    ideal = [[int(c[i] == c[j]) for j in range(5)] for i in range(5)]
    f = {"00": 0, "01": 0, "10": 0, "11": 0}
    for i in range(5):
        for j in range(i + 1, 5):
            f[f"{int(t[i] == t[j])}{int(c[i] == c[j])}"] += 1
    counts = [f["00"], f["01"], f["10"], f["11"]]
    rand = (f["00"] + f["11"]) / 10
    jac = f["11"] / (f["01"] + f["10"] + f["11"])
    q4 = ex.question("03.4", seed=student)
    return {"03.1": ideal, "03.2": counts, "03.3": [rand, jac],
            "03.4": [rand_score(q4.classes, q4.clusters),
                     adjusted_rand_score(q4.classes, q4.clusters)]}


def _notebook(student, answers=None, after=None, drop=()):
    """The exercise, with ``STUDENT_ID = student``, some answers filled in, extra cells
    inserted after some cells (``after``: cell id -> source) and cells dropped."""
    nb = nbformat.read(TEMPLATE, as_version=4)
    cells = []
    for cell in nb.cells:
        if cell.id in drop:
            continue
        if cell.id == "setup":
            cell.source = cell.source.replace("STUDENT_ID = None", f"STUDENT_ID = {student!r}")
        qid = cell.id[1:].replace("-", ".")[:4] if cell.id.endswith("-check") else None
        if qid and answers and qid in answers:
            var = "q" + qid[-1]
            cell.source = f"answer = {json.dumps(answers[qid])}\n{var}.check(answer)"
        cells.append(cell)
        if after and cell.id in after:
            cells.append(nbformat.v4.new_code_cell(after[cell.id], id=f"extra-{cell.id}"))
    nb.cells = cells
    return nb


TAMPER = """import prayatul_edu.exercises._base as b
b.Question.key = lambda self: 0                       # every answer 'right' in the kernel
b.Question.check = lambda self, answer: (b._emit({"qid": self.qid, "seed": self.seed,
                                                  "answer": answer}), "Correct!")[1]"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    d = tmp_path_factory.mktemp("submissions")
    right = {s: _answers(s) for s in ("s77", "s78", "s80", "s81", "s82", "s83", "s84")}
    wrong78 = dict(right["s78"])
    wrong78["03.2"] = [2 * x for x in right["s78"]["03.2"]]           # ordered pairs
    zero_diag = np.array(right["s78"]["03.1"])
    np.fill_diagonal(zero_diag, 0)
    wrong78["03.1"] = zero_diag.tolist()
    del wrong78["03.4"]
    books = {
        "correct": _notebook("s77", right["s77"]),
        "partly": _notebook("s78", wrong78),
        "blank": _notebook("s79"),
        "raising": _notebook("s80", right["s80"], after={"q03-1-check": "1 / 0"}),
        "loop": _notebook("s81", right["s81"], after={"q03-1-check": "while True:\n    pass"}),
        "tampered": _notebook("s82", {q: 0 for q in QIDS}, after={"setup": TAMPER}),
        "chatty": _notebook("s83", right["s83"],
                            after={"q03-1-check": "print('x' * 3_000_000)"}),
        "deleted": _notebook("s84", right["s84"], drop=("q03-2-prompt", "q03-2-check")),
    }
    paths = []
    for name, nb in books.items():
        p = d / f"{name}.ipynb"
        nbformat.write(nb, p)
        paths.append(p)
    (d / "garbage.ipynb").write_text("{not json", encoding="utf-8")
    (d / "alist.ipynb").write_text("[1, 2]", encoding="utf-8")
    paths += [d / "garbage.ipynb", d / "alist.ipynb"]
    err = io.StringIO()
    out = d / "out"
    reports = grading.grade_batch(paths, out, progress=err, cell_timeout=4,
                                  notebook_timeout=30, output_cap=20_000)
    return {r.file.split(".")[0]: r for r in reports}, out, err.getvalue(), d


def _status(report):
    return {r["question"]: r["status"] for r in report.rows}


def test_all_correct(graded):
    r = graded[0]["correct"]
    assert r.student == "s77" and r.seed == "s77" and r.problems == []
    assert _status(r) == {q: ex.CORRECT for q in QIDS}
    assert (r.total, r.max_total) == (4, 4)


def test_partly_wrong_is_diagnosed_without_the_answer(graded):
    r = graded[0]["partly"]
    st = _status(r)
    assert st == {"03.1": ex.INCORRECT, "03.2": st["03.2"], "03.3": ex.CORRECT,
                  "03.4": ex.NOT_ATTEMPTED}
    assert st["03.2"] in (ex.INCORRECT, ex.PARTLY)
    fb = {x["question"]: x["feedback"] for x in r.rows}
    assert "unordered" in fb["03.2"] and "diagonal is 1" in fb["03.1"]
    assert str(_answers("s78")["03.2"]) not in fb["03.2"]


def test_blank_is_not_attempted(graded):
    r = graded[0]["blank"]
    assert _status(r) == {q: ex.NOT_ATTEMPTED for q in QIDS} and r.total == 0
    assert r.problems == []


def test_raising_cell_is_reported_and_the_rest_graded(graded):
    r = graded[0]["raising"]
    assert any("raised ZeroDivisionError" in p for p in r.problems)
    assert _status(r) == {q: ex.CORRECT for q in QIDS}


def test_endless_loop_is_stopped_and_earlier_answers_kept(graded):
    r = graded[0]["loop"]
    assert any("did not finish within 4 s" in p for p in r.problems)
    assert _status(r) == {"03.1": ex.CORRECT, "03.2": ex.NOT_ATTEMPTED,
                          "03.3": ex.NOT_ATTEMPTED, "03.4": ex.NOT_ATTEMPTED}


def test_tampered_check_gains_nothing(graded):
    r = graded[0]["tampered"]
    assert all(s in (ex.INCORRECT, ex.INVALID) for s in _status(r).values())
    assert r.total == 0


def test_megabytes_of_output_are_cut(graded):
    r = graded[0]["chatty"]
    assert any("output was cut after 20000 characters" in p for p in r.problems)
    assert r.total == 4


def test_deleted_cells_are_reported(graded):
    r = graded[0]["deleted"]
    assert any("2 cell(s) of the exercise are missing" in p and "q03-2-check" in p
               for p in r.problems)
    assert _status(r)["03.2"] == ex.NOT_ATTEMPTED and r.total == 3


@pytest.mark.parametrize("name", ["garbage", "alist"])
def test_malformed_files_are_reported(graded, name):
    r = graded[0][name]
    assert r.problems[0].startswith("not a valid notebook")
    assert [x["status"] for x in r.rows] == [grading.NOTEBOOK_ERROR]


def test_outputs_csv_json_feedback_and_progress(graded):
    reports, out, err, _ = graded
    rows = list(csv.DictReader(open(out / "grades.csv", encoding="utf-8")))
    assert list(rows[0]) == grading.CSV_COLUMNS
    assert len(rows) == 8 * 4 + 2
    s77 = [x for x in rows if x["student"] == "s77"]
    assert [x["question"] for x in s77] == QIDS and {x["points"] for x in s77} == {"1.0"}
    data = json.loads((out / "grades.json").read_text())
    assert data["tolerance"] == {"atol": 1e-4, "rtol": 1e-4}
    by = {s["file"]: s for s in data["students"]}
    assert by["partly.ipynb"]["total"] == reports["partly"].total
    assert by["loop.ipynb"]["problems"] == reports["loop"].problems
    md = (out / "feedback" / "s78.md").read_text()
    assert md.startswith("# Feedback for s78") and "03.2 f00, f01, f10, f11" in md
    assert len(list((out / "feedback").glob("*.md"))) == 10
    assert err.count("\n") == 10 and "[1/10] correct.ipynb ... s77: 4/4" in err
    assert "[5/10] loop.ipynb ... s81: 1/4, 1 problem(s)" in err


def test_filename_identity_grades_the_files_variant(graded, tmp_path):
    p = tmp_path / "s99.ipynb"
    nbformat.write(_notebook("s77", _answers("s77")), p)
    r = grading.grade_notebook(p, id_from="filename", cell_timeout=30)
    assert (r.student, r.seed) == ("s99", "s99")
    assert r.total < 4
    assert all("Checked in the notebook against variant s77; graded against variant s99"
               in x["feedback"] for x in r.rows)


def test_cli_grade(tmp_path, capsys, graded):
    src = graded[3]
    out = tmp_path / "out"
    code = cli.main(["grade", str(src / "blank.ipynb"), str(src / "garbage.ipynb"),
                     "--out", str(out), "--exercise", "03_pair_counting"])
    assert code == 0
    err = capsys.readouterr().err
    assert "[2/2] garbage.ipynb" in err and "graded 2 notebook(s), 1 with problems" in err
    rows = list(csv.DictReader(open(out / "grades.csv", encoding="utf-8")))
    assert [(x["student"], x["status"]) for x in rows] == (
        [("s79", ex.NOT_ATTEMPTED)] * 4 + [("garbage", grading.NOTEBOOK_ERROR)] * 4)


@pytest.mark.parametrize("argv, message", [
    (["nowhere.ipynb"], "submissions: not found: nowhere.ipynb"),
    (["{nb}", "--exercise", "99_x"], "exercise: no questions for '99_x'"),
    (["{nb}", "--cell-timeout", "0"], "cell-timeout: must be positive"),
])
def test_cli_bad_arguments(tmp_path, capsys, argv, message):
    nb = tmp_path / "a.ipynb"
    nb.write_text("{}")
    argv = [a.replace("{nb}", str(nb)) for a in argv]
    assert cli.main(["grade", *argv, "--out", str(tmp_path / "o")]) == 2
    assert message in capsys.readouterr().err
