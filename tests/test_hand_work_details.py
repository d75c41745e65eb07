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
