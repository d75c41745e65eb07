"""Issue 43's acceptance, end to end: the instructor's hand work done by the package.

A copy of the shipped own exercise (``examples/iris_exercise``) with one free-text
question added through the documented API (``exercise.free_text`` and its three cells in
the solutions notebook); ``assign`` with Canvas's gradebook export as it is (a
"Points Possible" row, the test student); ``grade``; the typed free text in grades.json
and ``to_grade_by_hand.csv``; ``review`` writes a page holding every free-text answer
(escaped); the student who handed in nothing is in canvas.csv and said missing in
grades.json and the report; a check cell that raises is an error (with its exception)
in grades.csv; ``feedback --out DIR`` gives each graded student their files and Canvas's
re-upload zip names each by their Canvas id."""
import csv
import json
import re
import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest

from grading_helpers import package_only
from prayatul_edu import cli, grading
from prayatul_edu.exercises import CORRECT
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.grading.report import CELL_ERROR
from test_lms_roster import CANVAS

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iris_exercise"
#: The free-text question, as docs/authoring.md declares one.
FREE_TEXT = '''

exercise.free_text(
    "why one flower per cluster is pure", points=2,
    prompt="In a sentence or two: why does a cluster of one flower always have purity 1?",
    explain="A cluster of one flower holds one species only: its majority is all of it.")
'''
#: Its cells in the solutions notebook: the heading, the prompt, the check cell.
CELLS = [("markdown", "q51-6-text", "## 51.6 One flower per cluster"),
         ("code", "q51-6-prompt", 'q6 = ex.question("51.6")\nq6'),
         ("code", "q51-6-check", 'answer = "One flower is one species: the cluster is pure."'
                                 "  # SOLUTION\nq6.check(answer)")]
#: What the students type into the free-text question (one tries to inject markup).
WORDS = {"s001": "Its only flower is its majority: <script>alert('x')</script> & so 1/1.",
         "s002": "Because a single point is always pure."}


def with_free_text(folder: Path) -> Path:
    shutil.copytree(EXAMPLE, folder)
    with open(folder / "questions.py", "a", encoding="utf-8") as fh:
        fh.write(FREE_TEXT)
    nb = nbformat.read(folder / "solutions.ipynb", as_version=4)
    at = next(k for k, c in enumerate(nb.cells) if c.get("id") == "progress-text")
    for kind, cid, source in reversed(CELLS):
        cell = (nbformat.v4.new_markdown_cell if kind == "markdown"
                else nbformat.v4.new_code_cell)(source)
        cell["id"] = cid
        nb.cells.insert(at, cell)
    nbformat.write(nb, folder / "solutions.ipynb")
    return folder


def typed(nb, answers: dict) -> None:
    """Each check cell's answer line replaced by what the student typed (code)."""
    for cell in nb.cells:
        m = re.fullmatch(r"q51-(\d)-check", cell.get("id", ""))
        if m and f"51.{m.group(1)}" in answers:
            cell.source = re.sub(r"^answer = [^\n]*", lambda _: "answer = "
                                 + answers[f"51.{m.group(1)}"], cell.source, count=1,
                                 flags=re.M)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    with package_only():
        d = tmp_path_factory.mktemp("handwork")
        exercise = with_free_text(d / "iris_text")
        pa.load(exercise)
        (d / "canvas_export.csv").write_bytes(CANVAS.encode("utf-8"))
        assert cli.main(["assign", str(exercise), "--roster", str(d / "canvas_export.csv"),
                         "--out", str(d / "hw")]) == 0
        sub = d / "collected"
        sub.mkdir()
        for sid, answers in {
                "s001": {"51.2": "float(pe.purity(q2.species, q2.clusters))",
                         "51.6": repr(WORDS["s001"])},
                # 51.2's check cell raises: a name never defined
                "s002": {"51.2": "purity_i_forgot_to_compute", "51.6": repr(WORDS["s002"])},
        }.items():                                   # ytanaka hands in nothing
            name = f"{sid}_51_iris.ipynb"
            nb = nbformat.read(d / "hw" / "notebooks" / name, as_version=4)
            typed(nb, answers)
            nbformat.write(nb, sub / name)
        assert cli.main(["grade", str(sub), "--exercise", str(exercise), "--roster",
                         str(d / "hw" / "roster.csv"), "--out", str(d / "out"), "--format",
                         "canvas", "--format", "gradescope", "--sandbox", SANDBOX,
                         "--jobs", "2"]) == 0
        yield d


def _json(course):
    return json.loads((course / "out" / "grades.json").read_text(encoding="utf-8"))


def test_assign_takes_canvas_export_as_it_is(course):
    assert sorted(p.name for p in (course / "hw" / "notebooks").glob("*.ipynb")) == [
        "s001_51_iris.ipynb", "s002_51_iris.ipynb", "ytanaka_51_iris.ipynb"]


def test_typed_free_text_is_in_grades_json_and_to_grade_by_hand(course):
    rows = {s["student"]: {r["question"]: r for r in s["rows"]}
            for s in _json(course)["students"]}
    assert {sid: rows[sid]["51.6"]["answer"] for sid in rows} == WORDS
    assert rows["s001"]["51.2"]["status"] == CORRECT
    waiting = list(csv.reader(open(course / "out" / "to_grade_by_hand.csv",
                                   encoding="utf-8")))
    assert waiting == [["student", "question", "points", "reason", "answer"],
                       ["s001", "51.6", "", "", WORDS["s001"]],
                       ["s002", "51.6", "", "", WORDS["s002"]]]


def test_review_page_holds_every_free_text_answer_escaped(course):
    assert cli.main(["review", str(course / "out")]) == 0
    page = (course / "out" / "review.html").read_text(encoding="utf-8")
    assert "Because a single point is always pure." in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; so 1/1." in page
    assert "<script>alert" not in page
    assert "why does a cluster of one flower always have purity 1?" in page   # the prompt
    assert "its majority is all of it." in page                                 # the model
    assert page.count('<tr class="answer"') == 2


def test_review_all_shows_any_answer_with_the_graders_verdict(course, tmp_path):
    """On request (--all) every question's answers, as the student's check recorded
    them, beside the grader's verdict: any answer can be corrected from the page."""
    assert cli.main(["review", str(course / "out"), "--all", "--out",
                     str(tmp_path / "all.html")]) == 0
    page = (tmp_path / "all.html").read_text(encoding="utf-8")
    rows = _json(course)["students"]
    purity = next(r for r in rows[0]["rows"] if r["question"] == "51.2")
    assert purity["status"] == CORRECT and 0 < float(purity["given"]) <= 1   # a purity
    assert f'<pre class="text">{purity["given"]}</pre></td><td class="verdict">correct (2): ' \
        in page
    assert page.count('data-question="51.2"') == 1      # s002's cell raised: no answer
    assert page.count('<tr class="answer"') == 2 + 1     # the words, and s001's 51.2


def test_the_student_who_handed_in_nothing_is_said_missing(course):
    data = _json(course)
    assert data["missing"] == [{"student": "ytanaka", "name": "Tanaka, Yui",
                                "status": "missing", "total": None, "max_total": 8.0}]
    canvas = list(csv.reader(open(course / "out" / "canvas.csv", encoding="utf-8")))
    assert canvas[2:][-1] == ["Tanaka, Yui", "3145", "", "ytanaka", "CS 101 B", ""]
    assert {r[3] for r in canvas[2:]} == {"alima", "cokafor", "ytanaka"}
    scores = list(csv.reader(open(course / "out" / "gradescope_scores.csv", encoding="utf-8")))
    assert scores[-1] == ["Tanaka, Yui", "ytanaka", "", ""]
    report = (course / "out" / "report.md").read_text(encoding="utf-8")
    assert "1 student(s) of the roster handed in nothing (missing, not in the statistics): " \
           "ytanaka (Tanaka, Yui)." in report     # the name the instructor knows them by


def test_missing_as_zero_by_policy_in_export(course, tmp_path):
    shutil.copytree(course / "out", tmp_path / "z")
    assert cli.main(["export", str(tmp_path / "z"), "--missing", "zero"]) == 0
    canvas = list(csv.reader(open(tmp_path / "z" / "canvas.csv", encoding="utf-8")))
    assert canvas[-1][-1] == "0"
    assert json.loads((tmp_path / "z" / "grades.json").read_text())["missing"][0]["total"] == 0


def test_a_check_cell_that_raises_is_an_error_in_grades_csv(course):
    rows = list(csv.DictReader(open(course / "out" / "grades.csv", encoding="utf-8")))
    row = next(r for r in rows if r["student"] == "s002" and r["question"] == "51.2")
    assert row["status"] == CELL_ERROR
    assert "raised NameError: name 'purity_i_forgot_to_compute' is not defined" in \
        row["feedback"]
    report = (course / "out" / "report.md").read_text(encoding="utf-8")
    assert "Cells that raised (status error, no answer recorded): NameError 1." in report


def test_review_points_brought_in_by_export(course, tmp_path):
    """The page's CSV (its format, as the browser test downloads it) is the overrides
    file export reads: the points reach grades.json and the feedback."""
    shutil.copytree(course / "out", tmp_path / "g")
    (tmp_path / "ov.csv").write_text('student,question,points,reason\n'
                                     '"s002","51.6","1.5","Right, but say why."\n')
    assert cli.main(["export", str(tmp_path / "g"), "--overrides", str(tmp_path / "ov.csv")]) == 0
    s2 = next(s for s in json.loads((tmp_path / "g" / "grades.json").read_text())["students"]
              if s["student"] == "s002")
    assert next(r for r in s2["rows"] if r["question"] == "51.6")["points"] == 1.5
    waiting = list(csv.reader(open(tmp_path / "g" / "to_grade_by_hand.csv")))
    assert [r[0] for r in waiting[1:]] == ["s001"]


def test_feedback_delivered_a_folder_each_and_canvas_zip(course):
    out = course / "delivered"
    assert cli.main(["feedback", str(course / "out"), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["canvas_feedback.zip", "s001", "s002"]
    for sid in ("s001", "s002"):
        md = (out / sid / "feedback.md").read_text(encoding="utf-8")
        page = (out / sid / "feedback.html").read_text(encoding="utf-8")
        assert md.startswith(f"# Feedback for {sid}")
        assert f"<h1>Feedback for {sid}</h1>" in page and "<table>" in page
    with zipfile.ZipFile(out / "canvas_feedback.zip") as z:
        assert sorted(z.namelist()) == ["limaana_3143_feedback.html",
                                        "okaforchidi_3144_feedback.html"]
        assert "Feedback for s002" in z.read("okaforchidi_3144_feedback.html").decode()


#: A named mistake of the wrong length: three numbers for the two parts (ARI, NMI).
WRONG_LENGTH = '''              pa.mistake("ARI thrice", lambda d: [float(pe.adjusted_rand_index(
                  d["species"], d["clusters"]))] * 3, "You gave the ARI three times."),
'''


def test_a_mistake_of_the_wrong_length_is_named_with_its_question(tmp_path, capsys,
                                                                   monkeypatch):
    """Named before any notebook runs (the solutions are never run: seconds, not the
    minutes of a search for fair variants), by question and mistake, no traceback."""
    from prayatul_edu.grading import authored

    with package_only():
        folder = with_free_text(tmp_path / "broken")
        text = (folder / "questions.py").read_text(encoding="utf-8")
        anchor = '              pa.mistake("arithmetic mean in NMI",'
        assert anchor in text
        (folder / "questions.py").write_text(text.replace(anchor, WRONG_LENGTH + anchor),
                                             encoding="utf-8")
        ran = []
        monkeypatch.setattr(authored, "run_solutions", lambda *a, **k: ran.append(a))
        (tmp_path / "class.csv").write_text("student\ns1\ns2\n", encoding="utf-8")
        code = cli.main(["assign", str(folder), "--roster", str(tmp_path / "class.csv"),
                         "--out", str(tmp_path / "hw")])
    err = capsys.readouterr().err
    assert code == 2 and ran == []
    assert err.strip() == ("exercise: 51.3 ARI and NMI: the named mistake 'ARI thrice' gives 3 "
                           "numbers, the key 2 numbers: a mistake must have the key's shape "
                           "(one value per part, the table's rows and columns)")
    assert "Traceback" not in err and "broadcast" not in err
    assert not (tmp_path / "hw").exists()
