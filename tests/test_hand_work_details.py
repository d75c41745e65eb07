"""Issue 43's smaller points: a header-only corrections file named as such, a late
penalty read once ("late penalty", not "late late penalty") and never "-0"."""
import json

import pytest

from prayatul_edu import cli
from prayatul_edu.grading.finish import finish
from prayatul_edu.grading.overrides import read_overrides
from test_lms_roster import _grades


def test_a_header_only_overrides_file_says_it_has_no_row(tmp_path):
    (tmp_path / "ov.csv").write_text("student,question,points,reason\n", encoding="utf-8")
    with pytest.raises(ValueError) as err:
        read_overrides(tmp_path / "ov.csv")
    assert str(err.value) == ("overrides: ov.csv has the columns student and question and "
                              "points and reason but no row below them")


def test_a_late_penalty_of_nothing_earned_is_0_and_named_once(tmp_path):
    folder = _grades(tmp_path / "g", {"s001": 0.0, "s002": 2.0})
    (tmp_path / "times.csv").write_text("student,submitted_at\n"
                                        "s001,2026-12-02T10:00:00+00:00\n"
                                        "s002,2026-12-02T10:00:00+00:00\n", encoding="utf-8")
    data = finish(folder, late="penalty:10%/day", due="2026-12-01T23:59",
                  submissions=tmp_path / "times.csv")
    rows = {s["student"]: s["rows"][-1] for s in data["students"]}
    assert (rows["s001"]["question"], rows["s001"]["title"]) == ("late", "penalty")
    assert str(rows["s001"]["points"]) == "0.0" and rows["s002"]["points"] == -0.2
    feedback = (folder / "feedback").glob("s001*")
    text = next(feedback).read_text(encoding="utf-8")
    assert "| late penalty | 0/0 |" in text and "late late" not in text
    assert "-0/0" not in text


def test_grade_and_export_take_missing_policy_names(tmp_path, capsys):
    folder = _grades(tmp_path / "g", {"s001": 2.0})
    assert cli.main(["export", str(folder), "--missing", "zero"]) == 0
    assert json.loads((folder / "grades.json").read_text())["exports"]["missing"] == "zero"
    with pytest.raises(SystemExit):
        cli.main(["export", str(folder), "--missing", "nothing"])
    assert "invalid choice: 'nothing'" in capsys.readouterr().err


def test_feedback_refuses_a_file_as_its_folder_and_a_folder_without_grades(tmp_path, capsys):
    folder = _grades(tmp_path / "g", {"s001": 2.0})
    (tmp_path / "taken").write_text("x")
    assert cli.main(["feedback", str(folder), "--out", str(tmp_path / "taken")]) == 2
    assert capsys.readouterr().err.strip() == "out: taken is a file, not a folder"
    assert cli.main(["review", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().startswith("grades: no readable grades.json in ")


def test_feedback_without_canvas_ids_writes_folders_and_no_zip(tmp_path):
    folder = _grades(tmp_path / "g", {"s001": 2.0, "s002": 1.0})
    assert cli.main(["feedback", str(folder), "--out", str(tmp_path / "d"),
                     "--layout", "nbgrader"]) == 0
    assert sorted(str(p.relative_to(tmp_path / "d")) for p in (tmp_path / "d").rglob("*.*")) \
        == ["s001/03_pair_counting/feedback.html", "s001/03_pair_counting/feedback.md",
            "s002/03_pair_counting/feedback.html", "s002/03_pair_counting/feedback.md"]


def _free_text_grades(folder):
    from prayatul_edu.exercises.authoring import HAND

    folder = _grades(folder, {"s001": 0.0, "s002": 0.0})
    data = json.loads((folder / "grades.json").read_text())
    for s, words in zip(data["students"], ["Pure, as one flower is.", "<b>bold</b> & <i>"]):
        s["rows"][0].update(status=HAND, answer=words, title="why pure")
    (folder / "grades.json").write_text(json.dumps(data))
    return folder


def test_review_model_gives_points_and_saves_the_overrides_export_reads(tmp_path):
    from prayatul_edu.grading.review import Review

    folder = _free_text_grades(tmp_path / "g")
    review = Review(folder)
    assert [e["answer"] for e in review.questions["03.1"]] == ["Pure, as one flower is.",
                                                              "<b>bold</b> & <i>"]
    review.give("s001", "03.1", "1.5", "  half   of it ")
    review.give("s002", "03.1", 2)
    review.give("s002", "03.1", "")          # taken back: not graded yet
    with pytest.raises(ValueError, match=r"^points: s001 03.1: expected 0 to 2, got 3$"):
        review.give("s001", "03.1", 3)
    with pytest.raises(ValueError, match=r"^question: s009 has no free-text answer"):
        review.give("s009", "03.1", 1)
    path = review.save()
    assert path == folder / "overrides.csv"
    assert read_overrides(path) == [{"student": "s001", "question": "03.1", "points": 1.5,
                                     "reason": "half of it", "line": 2}]
    assert cli.main(["export", str(folder), "--overrides", str(path)]) == 0
    assert [s["total"] for s in json.loads((folder / "grades.json").read_text())["students"]] \
        == [1.5, 0.0]


def test_review_notebook_and_app_show_answers_as_text(tmp_path):
    import nbformat

    from prayatul_edu.grading.review import review_app

    folder = _free_text_grades(tmp_path / "g")
    assert cli.main(["review", str(folder)]) == 0
    nb = nbformat.read(folder / "review.ipynb", as_version=4)
    assert nb.cells[1].source.endswith('review_app(".")   # the grades folder: this '
                                       "notebook's own")
    assert str(tmp_path) not in (folder / "review.ipynb").read_text()
    app = review_app(folder)
    html_values = [c.value for box in app.children
                   for c in (box.children[:1] if hasattr(box, "children") else [box])
                   if hasattr(c, "value") and isinstance(c.value, str)]
    shown = "\n".join(html_values)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;" in shown and "<b>bold</b>" not in shown
    points = [w for box in app.children if hasattr(box, "children")
              for row in box.children[1:] for w in row.children if w.description == "points"]
    points[0].value = "2"
    button = app.children[-2]
    button.click()
    assert "Saved 1 answer(s) to overrides.csv" in app.children[-1].value
    assert read_overrides(folder / "overrides.csv")[0]["points"] == 2.0
