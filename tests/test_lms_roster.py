"""Rosters as learning management systems write them (grading/roster.py): Canvas's
gradebook export and Gradescope's roster, read by ``assign``, ``grade`` (through
assign's roster.csv) and ``gradebook`` as they are."""
import csv
import json

import pytest

from prayatul_edu import cli
from prayatul_edu.grading import identity, uploader
from prayatul_edu.grading.gradebook import gradebook

#: Canvas's gradebook export as Canvas writes it: a BOM, the identity columns, an
#: assignment and its scores, the "Points Possible" row (indented, as Canvas does), a
#: "Manual Posting" row, three students (one without an SIS User ID) and the test student.
CANVAS = ("\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Homework 1 (2301),"
          "Current Score,Final Score\r\n"
          "    Points Possible,,,,,10,(read only),(read only)\r\n"
          "            Manual Posting,,,,,,,\r\n"
          '"Lima, Ana",3143,s001,alima,CS 101 A,8,80,80\r\n'
          '"Okafor, Chidi",3144,s002,cokafor,CS 101 A,,,\r\n'
          '"Tanaka, Yui",3145,,ytanaka,CS 101 B,,,\r\n'
          '"Student, Test",3199,,,CS 101 A,,,\r\n')
#: Gradescope's roster download: staff rows are not students.
GRADESCOPE = ("First Name,Last Name,SID,Email,Role,Sections\n"
              "Ana,Lima,s001,ana@uni.example,Student,A\n"
              "Grace,Hopper,,grace@uni.example,Instructor,\n"
              "Yui,Tanaka,,yui@uni.example,Student,B\n")


def _write(tmp_path, text, name="export.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_canvas_export_is_read_as_it_is(tmp_path):
    people = uploader.read_people(_write(tmp_path, CANVAS))
    assert list(people) == ["s001", "s002", "ytanaka"]   # no header row, no test student
    assert people["s001"] == uploader.Person("s001", name="Lima, Ana", sis_id="s001",
                                             sis_login="alima", section="CS 101 A",
                                             canvas_id="3143")
    assert (people["ytanaka"].sis_id, people["ytanaka"].sis_login) == ("", "ytanaka")


def test_gradescope_roster_is_read_students_only(tmp_path):
    people = uploader.read_people(_write(tmp_path, GRADESCOPE))
    assert list(people) == ["s001", "yui@uni.example"]   # the instructor skipped
    assert (people["s001"].name, people["s001"].email, people["s001"].section) == (
        "Ana Lima", "ana@uni.example", "A")


def test_a_canvas_student_without_any_sis_id_is_refused_by_line(tmp_path):
    text = CANVAS.replace("s002,cokafor", ",")
    with pytest.raises(ValueError) as err:
        identity.roster_rows(_write(tmp_path, text), ("student",))
    assert str(err.value) == ("roster: line 5: the Canvas student 'Okafor, Chidi' (ID 3144) "
                              "has neither an SIS User ID nor an SIS Login ID: the grader "
                              "names students by one of them")


def test_an_export_of_no_student_is_refused(tmp_path):
    text = "".join(CANVAS.splitlines(True)[:3]) + '"Student, Test",3199,,,A,,,\r\n'
    with pytest.raises(ValueError, match="lists no student"):
        identity.roster_rows(_write(tmp_path, text), ("student",))


def test_an_unknown_csv_names_the_formats_read(tmp_path):
    with pytest.raises(ValueError) as err:
        identity.roster_rows(_write(tmp_path, "Nombre,Correo\nAna,a@x\n"), ("student",))
    assert str(err.value).startswith("roster: expected a CSV with the column student (or "
                                     "Canvas's gradebook export")
    assert str(err.value).endswith("its columns are Nombre, Correo")


def test_assign_takes_the_canvas_export_and_keeps_its_names(tmp_path):
    roster = _write(tmp_path, CANVAS)
    assert cli.main(["assign", "03", "--roster", str(roster), "--out",
                     str(tmp_path / "hw")]) == 0
    assert sorted(p.name for p in (tmp_path / "hw" / "notebooks").iterdir()) == [
        "s001_03_pair_counting.ipynb", "s002_03_pair_counting.ipynb",
        "ytanaka_03_pair_counting.ipynb"]
    rows = list(csv.DictReader(open(tmp_path / "hw" / "roster.csv", encoding="utf-8")))
    assert [(r["student"], r["name"], r["canvas_id"]) for r in rows] == [
        ("s001", "Lima, Ana", "3143"), ("s002", "Okafor, Chidi", "3144"),
        ("ytanaka", "Tanaka, Yui", "3145")]
    assert "Homework 1 (2301)" not in rows[0]   # Canvas's score columns are not kept
    # grade reads assign's roster: the people of the exports are Canvas's
    people = uploader.read_people(tmp_path / "hw" / "roster.csv")
    assert (people["s002"].canvas_id, people["s002"].sis_login) == ("3144", "cokafor")


def _grades(folder, students, missing=()):
    folder.mkdir()
    rows = lambda s, p: [{"student": s, "question": "03.1", "points": p, "max_points": 2,  # noqa
                          "status": "correct", "feedback": "", "file": f"{s}.ipynb",
                          "variant": s, "diagnosed": []}]
    data = {"settings": {}, "students": [
        {"student": s, "file": f"{s}.ipynb", "variant": s, "exercise": "03_pair_counting",
         "rows": rows(s, p), "total": p, "max_total": 2} for s, p in students.items()],
        "missing": [{"student": s, "status": "missing", "total": None} for s in missing]}
    (folder / "grades.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_gradebook_lists_the_whole_class_of_a_canvas_roster(tmp_path):
    a = _grades(tmp_path / "a", {"s001": 2.0}, missing=["s002"])
    b = _grades(tmp_path / "b", {"s001": 1.0, "s002": 2.0, "s9": 1.0})
    header, rows = gradebook([a, b], roster=_write(tmp_path, CANVAS))
    assert header == ["student", "name", "03_pair_counting", "03_pair_counting (b)", "total",
                      "missing"]
    assert rows == [["s001", "Lima, Ana", "2", "1", "3", "0"],
                    ["s002", "Okafor, Chidi", "", "2", "2", "1"],
                    ["ytanaka", "Tanaka, Yui", "", "", "0", "2"],
                    ["s9", "", "", "1", "1", "1"]]      # graded, not on the roster: after


def test_gradebook_without_a_roster_keeps_a_student_missing_everywhere(tmp_path):
    a = _grades(tmp_path / "a", {"s001": 2.0}, missing=["s002"])
    _, rows = gradebook([a])
    assert rows == [["s001", "2", "2", "0"], ["s002", "", "0", "1"]]


def test_assign_help_says_the_lms_exports_are_read(capsys):
    """A new instructor reads ``assign --help`` first: it said 'a CSV with a column
    student' only, and they wrote a converter for the export assign reads as it is."""
    with pytest.raises(SystemExit):
        cli.main(["assign", "--help"])
    roster = " ".join(capsys.readouterr().out.split()).split("--roster FILE", 2)[2]
    assert "Canvas's gradebook export" in roster.split("--out DIR")[0]
    assert "Gradescope's roster" in roster.split("--out DIR")[0]
