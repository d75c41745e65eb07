"""Grades an instructor can trust when they slip and when the LMS renames files (issue 36,
cases 1-5), end to end on a fresh ``prayatul-edu assign`` with a course key.

A class of four with names, e-mails, SIS ids, sections and one Canvas user id; the
collection is what per-student folders and a Canvas download give:

* ``s0001/``, ``s0002/``: honest, every answer right;
* ``s0003/``: an older blank handout, a newer ``late/Copy of s0003_... (1).ipynb`` with
  every answer (the newest of s0003's own files counts), and, newest of all, a blank
  copy named like s0002's (``STUDENT_ID = 's0002'``, its token line removed) put into
  s0003's own folder: a conflict, never s0002's grade;
* s0004: a Canvas "Download Submissions" name, two answers right;
* ``notes/untitled.ipynb``: nobody's.

Expected totals are computed here from the answers given (each question 1 point).
"""
import csv
import hashlib
import json
import os
import re
import time

import nbformat
import pytest

from grading_helpers import POINTS, QIDS, TOTAL, answers, notebook
from prayatul_edu import cli, grading
from prayatul_edu.grading import uploader

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
EXERCISE = "03_pair_counting"
KEY = b"fedcba9876543210-a-course-key-for-trust"
FINGERPRINT = hashlib.sha256(KEY).hexdigest()[:12]
CLASS = """student,name,email,sis_id,section,canvas_id
s0001,Ana Lima,ana@uni.example,1001,A,
s0002,Bo Chen,bo@uni.example,1002,A,
s0003,Cy Dee,cy@uni.example,1003,B,
s0004,Di Eve,di@uni.example,1004,B,4004
"""
EXPECTED = {"s0001": TOTAL, "s0002": TOTAL, "s0003": TOTAL,
            "s0004": POINTS["03.1"] + POINTS["03.2"]}        # s0004 answered two


def _handout(hw, sid):
    return hw / "notebooks" / f"{sid}_{EXERCISE}.ipynb"


def _token(hw, sid):
    return re.search(r"PRAYATUL_EDU_VARIANT'\] = '(\w+)'", _handout(hw, sid).read_text()
                     ).group(1)


def _answered(hw, sid, qids=QIDS):
    right = answers(_token(hw, sid))       # the data of the variant handed out
    return notebook(sid, {q: right[q] for q in qids}, template=_handout(hw, sid))


def _write(nb, path, age=0):
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    os.utime(path, (time.time() - age,) * 2)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    d = tmp_path_factory.mktemp("trust")
    (d / "class.csv").write_text(CLASS, encoding="utf-8")
    (d / "course.key").write_bytes(KEY + b"\n")
    assert cli.main(["assign", "03", "--roster", str(d / "class.csv"), "--out", str(d / "hw"),
                     "--course-key", str(d / "course.key")]) == 0
    hw, top = d / "hw", d / "collected"
    _write(_answered(hw, "s0001"), top / "s0001" / f"s0001_{EXERCISE}.ipynb", 600)
    _write(_answered(hw, "s0002"), top / "s0002" / f"s0002_{EXERCISE}.ipynb", 600)
    _write(notebook("s0003", template=_handout(hw, "s0003")),
           top / "s0003" / f"s0003_{EXERCISE}.ipynb", 3600)
    _write(_answered(hw, "s0003"), top / "late" / f"Copy of s0003_{EXERCISE} (1).ipynb", 60)
    forged = notebook("s0002", template=_handout(hw, "s0003"))
    forged.cells[2].source = "\n".join(line for line in forged.cells[2].source.splitlines()
                                       if "PRAYATUL_EDU_VARIANT" not in line)
    _write(forged, top / "s0003" / f"s0002_{EXERCISE}.ipynb", 0)
    _write(_answered(hw, "s0004", QIDS[:2]),
           top / f"evedi_LATE_4004_777_s0004_{EXERCISE}-1.ipynb", 600)
    (top / "notes").mkdir()
    (top / "notes" / "untitled.ipynb").write_text("{}", encoding="utf-8")
    return d


def _grade(course, *extra, out="grades"):
    return cli.main(["grade", str(course / "collected"), "--out", str(course / out),
                     "--roster", str(course / "hw" / "roster.csv"), "--jobs", "2",
                     "--sandbox", SANDBOX, "--format", "canvas", "--format", "gradescope",
                     *extra])


@pytest.fixture(scope="module")
def graded(course, capsys_module):
    code = _grade(course, "--course-key", str(course / "course.key"))
    out = course / "grades"
    data = json.loads((out / "grades.json").read_text())
    return code, out, data, {s["student"]: s for s in data["students"]}, capsys_module()


@pytest.fixture(scope="module")
def capsys_module():
    """stderr of the module's grading run (the CLI prints there)."""
    import io
    import sys

    buf, real = io.StringIO(), sys.stderr

    class Tee(io.TextIOBase):
        def write(self, text):
            buf.write(text)
            return real.write(text)

    sys.stderr = Tee()
    yield lambda: buf.getvalue()
    sys.stderr = real


# ------------------------------------------------------------------ case 1: the key
def test_assign_copies_the_class_rosters_columns(course):
    rows = list(csv.DictReader(open(course / "hw" / "roster.csv", encoding="utf-8")))
    assert [(r["file"], r["student"], r["name"], r["sis_id"], r["canvas_id"]) for r in rows] \
        == [(f"s000{k}_{EXERCISE}.ipynb", f"s000{k}", name, f"100{k}",
             "4004" if k == 4 else "")
            for k, name in enumerate(["Ana Lima", "Bo Chen", "Cy Dee", "Di Eve"], 1)]
    assert f"fingerprint {FINGERPRINT}" in (course / "hw" / "README.md").read_text()


def test_a_forgotten_course_key_is_refused_with_the_fingerprint(course, capsys):
    assert _grade(course, out="forgotten") == 2
    err = capsys.readouterr().err
    assert "--course-key" in err and FINGERPRINT in err and "nothing was graded" in err
    assert not (course / "forgotten").exists()


def test_a_wrong_course_key_is_refused_with_both_fingerprints(course, capsys):
    (course / "other.key").write_bytes(b"another-key-of-the-course-0123456789\n")
    assert _grade(course, "--course-key", str(course / "other.key"), out="wrong") == 2
    err = capsys.readouterr().err
    other = hashlib.sha256(b"another-key-of-the-course-0123456789").hexdigest()[:12]
    assert FINGERPRINT in err and other in err and not (course / "wrong").exists()


def test_without_the_readme_the_notebooks_tokens_refuse_a_forgotten_key(course, capsys):
    """The roster copied away from the assignment's README: the handed-out tokens alone
    catch the forgotten key before anything is graded."""
    (course / "elsewhere").mkdir(exist_ok=True)
    roster = course / "elsewhere" / "roster.csv"
    roster.write_bytes((course / "hw" / "roster.csv").read_bytes())
    code = cli.main(["grade", str(course / "collected"), "--out", str(course / "tokens"),
                     "--roster", str(roster), "--sandbox", SANDBOX])
    err = capsys.readouterr().err
    assert code == 2 and not (course / "tokens").exists()
    assert "4 notebook(s) were handed out with another variant" in err
    assert "no --course-key was given" in err and "--grade-mismatched-variants" in err


def test_a_pasted_token_refuses_the_batch_naming_the_student(course, tmp_path, capsys):
    hw = course / "hw"
    nb = _answered(hw, "s0004")
    nb.cells[2].source = nb.cells[2].source.replace(_token(hw, "s0004"), _token(hw, "s0001"))
    _write(nb, tmp_path / "s0004" / f"s0004_{EXERCISE}.ipynb")
    _write(_answered(hw, "s0001"), tmp_path / "s0001" / f"s0001_{EXERCISE}.ipynb")
    code = cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "out"),
                     "--roster", str(hw / "roster.csv"), "--course-key",
                     str(course / "course.key"), "--sandbox", SANDBOX])
    err = capsys.readouterr().err
    assert code == 2 and not (tmp_path / "out").exists()
    assert "1 notebook(s)" in err and "s0004 (s0004/s0004_03_pair_counting.ipynb)" in err
    assert "1 of 2: the others match" in err
    # graded knowingly: s0004 against their own variant; the row and grades.json say so
    code = cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "out"),
                     "--roster", str(hw / "roster.csv"), "--course-key",
                     str(course / "course.key"), "--sandbox", SANDBOX,
                     "--grade-mismatched-variants"])
    assert code == 0
    data = json.loads((tmp_path / "out" / "grades.json").read_text())
    got = {s["student"]: s for s in data["students"]}
    assert got["s0001"]["total"] == TOTAL and got["s0001"]["problems"] == []
    assert got["s0004"]["problems"] == [
        f"handed out with variant {_token(hw, 's0001')}, graded against "
        f"{_token(hw, 's0004')} (--grade-mismatched-variants)"]
    assert [m["student"] for m in data["settings"]["mismatched_variants"]] == ["s0004"]


# ------------------------------------------------------------------ the graded run
def test_every_student_is_graded_from_where_the_file_was_collected(graded):
    code, _, _, students, _ = graded
    assert code == 3                                   # something needs a look
    assert {s: students[s]["total"] for s in students} == EXPECTED
    assert students["s0003"]["file"] == f"late/Copy of s0003_{EXERCISE} (1).ipynb"
    assert students["s0003"]["problems"] == [
        f"also handed in: s0003/s0003_{EXERCISE}.ipynb (older, or not a regular file; not "
        "graded: the newest file counts)"]
    assert students["s0004"]["file"] == f"evedi_LATE_4004_777_s0004_{EXERCISE}-1.ipynb"
    assert all(students[s]["problems"] == [] for s in ("s0001", "s0002", "s0004"))


def test_a_classmates_copy_is_a_conflict_and_the_honest_grade_stands(graded):
    _, out, data, students, err = graded
    assert data["settings"]["conflicts"] == [{
        "file": f"s0003/s0002_{EXERCISE}.ipynb", "uploader": "s0003", "claims": "s0002",
        "why": "handed in by s0003 (from where it was collected) but named as s0002's",
        "kind": "uploader", "other": [f"s0002/s0002_{EXERCISE}.ipynb"]}]
    assert students["s0002"]["total"] == TOTAL
    assert students["s0002"]["file"] == f"s0002/s0002_{EXERCISE}.ipynb"
    assert (f"conflict: s0003/s0002_{EXERCISE}.ipynb: handed in by s0003" in err
            and f"s0002's own file(s): s0002/s0002_{EXERCISE}.ipynb" in err)


def test_an_unmatched_file_is_listed_never_graded_nor_exported(graded):
    _, out, data, students, err = graded
    assert data["settings"]["unmatched"] == ["notes/untitled.ipynb"]
    assert "unmatched: notes/untitled.ipynb" in err and "exit status 3" in err
    assert sorted(students) == sorted(EXPECTED)
    for path in out.rglob("*"):
        if path.is_file():
            assert "invalid-" not in path.read_text(encoding="utf-8")
    assert data["settings"]["roster_matched"] == {"path": 0, "name": 1, "folder": 3,
                                                  "canvas": 1, "unmatched": 1,
                                                  "conflicts": 1}


def test_exports_carry_the_rosters_names_and_only_graded_students(graded):
    _, out, _, _, _ = graded
    canvas = list(csv.reader(open(out / "canvas.csv", encoding="utf-8")))
    full, two = f"{TOTAL:g}", f"{EXPECTED['s0004']:g}"   # all answered; 03.1 and 03.2
    assert sorted(canvas[2:]) == [
        ["Ana Lima", "", "1001", "", "A", full], ["Bo Chen", "", "1002", "", "A", full],
        ["Cy Dee", "", "1003", "", "B", full], ["Di Eve", "4004", "1004", "", "B", two]]
    scores = list(csv.reader(open(out / "gradescope_scores.csv", encoding="utf-8")))
    assert scores[:1] + sorted(scores[1:]) == [["Name", "SID", "Email", "Total Score"],
                      ["Ana Lima", "1001", "ana@uni.example", full],
                      ["Bo Chen", "1002", "bo@uni.example", full],
                      ["Cy Dee", "1003", "cy@uni.example", full],
                      ["Di Eve", "1004", "di@uni.example", two]]


def test_grades_json_lists_every_file_the_run_wrote(graded):
    _, out, data, _, _ = graded
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert data["settings"]["files"] == on_disk
    assert "canvas.csv" in on_disk and f"feedback/s0002_{EXERCISE}.md" in on_disk


# ------------------------------------------------------------------ case 2: one --out
def test_a_regrade_into_the_same_folder_is_refused_and_changes_nothing(graded, course,
                                                                      capsys):
    out = graded[1]
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert _grade(course, "--course-key", str(course / "course.key")) == 2
    err = capsys.readouterr().err
    assert "already holds grades" in err and "--replace" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_replace_swaps_the_whole_folder_no_earlier_file_survives(graded, course):
    out = graded[1]
    (out / "notes.txt").write_text("mine")      # a file the grader did not write: kept
    code = cli.main(["grade", str(course / "collected" / "s0001"), "--out", str(out),
                     "--roster", str(course / "hw" / "roster.csv"), "--course-key",
                     str(course / "course.key"), "--sandbox", SANDBOX, "--replace",
                     "--format", "canvas", "--format", "gradescope"])
    assert code == 0
    data = json.loads((out / "grades.json").read_text())
    assert (out / "notes.txt").read_text() == "mine"
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert sorted(data["settings"]["files"] + ["notes.txt"]) == on_disk
    assert data["settings"]["files"] == sorted([
        "canvas.csv", "grades.csv", "grades.json", "gradescope_scores.csv",
        f"feedback/s0001_{EXERCISE}.md", "gradescope/s0001/results.json", "report.html",
        "report.md"])
    scores = list(csv.reader(open(out / "gradescope_scores.csv")))
    assert [r[0] for r in scores[:2]] == ["Name", "Ana Lima"] and scores[1][-1] != ""
    # the rest of the roster handed in nothing in this run: missing, no score (issue 43)
    assert {r[-1] for r in scores[2:]} == {""} and len(scores) > 2
    assert [m["name"] for m in data["missing"]] == [r[0] for r in scores[2:]]
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".grades.")]


# ------------------------------------------------------------------ names, without grading
@pytest.mark.parametrize("name, plain", [
    (f"Copy of s017_{EXERCISE} (1).ipynb", f"s017_{EXERCISE}.ipynb"),
    (f"Copy of Copy of s017_{EXERCISE}(2).ipynb", f"s017_{EXERCISE}.ipynb"),
    (f"limaana_late_3143_207797_s017_{EXERCISE}-2.ipynb", f"s017_{EXERCISE}.ipynb"),
    (f"limaana_3143_207797_Copy of s017_{EXERCISE} (1).ipynb", f"s017_{EXERCISE}.ipynb"),
    ("s1_2_3.ipynb", "s1_2_3.ipynb"),            # not Canvas's (no original name after ids)
])
def test_decorations_of_browsers_drives_and_canvas_are_taken_off(name, plain):
    assert uploader.plain_name(name) == plain


def test_without_a_roster_a_copy_is_its_students():
    """(Without a roster, any name that is a valid id is one: ``untitled.ipynb`` is
    student ``untitled``; assign's roster is what tells students from other names.)"""
    res = uploader.resolve([f"late/Copy of s004_{EXERCISE} (1).ipynb", f"s004_{EXERCISE}.ipynb",
                            "my notes.ipynb", "untitled.ipynb"], exercise=EXERCISE)
    assert res.student == {0: "s004", 1: "s004", 3: "untitled"}
    assert res.unmatched == ["my notes.ipynb"]


def test_canvas_names_map_to_students_by_id_or_by_name():
    people = {"s1": uploader.Person("s1", name="Ana Lima"),
              "s2": uploader.Person("s2", name="Bo Chen", canvas_id="22")}
    roster = {"s1_03_pair_counting.ipynb": "s1", "s2_03_pair_counting.ipynb": "s2"}
    res = uploader.resolve(["limaana_LATE_11_5_untitled.ipynb", "x_22_6_notebook.ipynb",
                            "chenbo_22_7_s1_03_pair_counting.ipynb"],
                           roster=roster, people=people)
    assert res.student == {0: "s1", 1: "s2"} and res.how == {0: "canvas", 1: "canvas"}
    assert [(c["file"], c["uploader"], c["claims"]) for c in res.conflicts] == [
        ("chenbo_22_7_s1_03_pair_counting.ipynb", "s2", "s1")]


def test_two_unknown_uploaders_claiming_one_student_are_both_held_back():
    res = uploader.resolve([f"a_11_1_s1_{EXERCISE}.ipynb", f"b_12_2_s1_{EXERCISE}.ipynb"],
                           exercise=EXERCISE)
    assert res.student == {}
    assert sorted((c["uploader"], c["other"][0]) for c in res.conflicts) == [
        ("Canvas user 11", f"b_12_2_s1_{EXERCISE}.ipynb"),
        ("Canvas user 12", f"a_11_1_s1_{EXERCISE}.ipynb")]


def test_id_from_folder_takes_the_first_folder_as_uploader():
    res = uploader.resolve(["s1/work.ipynb", "s2/s1_03_pair_counting.ipynb", "top.ipynb",
                            "bad name/x.ipynb"], by_folder=True)
    assert res.student == {0: "s1", 2: "top"}
    assert [c["file"] for c in res.conflicts] == ["s2/s1_03_pair_counting.ipynb"]
    assert res.unmatched == ["bad name/x.ipynb"]


def test_export_of_one_format_leaves_no_stale_export_of_another(graded, tmp_path):
    """``export --overrides --format canvas`` on a folder graded with both formats: the
    Gradescope files of the earlier writing (the old total) would disagree with
    grades.json beside them; they are removed, and grades.json lists what is there."""
    import shutil

    out = tmp_path / "g"
    shutil.copytree(graded[1], out)     # (as the module's runs left it)
    before = json.loads((out / "grades.json").read_text())["students"][0]
    row = next(r for r in before["rows"] if r["points"] > 0)
    assert (out / "gradescope_scores.csv").exists()
    (tmp_path / "fix.csv").write_text("student,question,points,reason\n"
                                      f"{before['student']},{row['question']},0,copied\n",
                                      encoding="utf-8")
    assert cli.main(["export", str(out), "--overrides", str(tmp_path / "fix.csv"),
                     "--format", "canvas"]) == 0
    data = json.loads((out / "grades.json").read_text())
    total = before["total"] - row["points"]
    assert data["students"][0]["total"] == total
    name = data["settings"]["people"][before["student"]]["name"]
    canvas = {r[0]: r[-1] for r in csv.reader(open(out / "canvas.csv", encoding="utf-8"))}
    assert canvas[name] == f"{total:g}"
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert not [f for f in on_disk if f.startswith("gradescope")]
    # (notes.txt: the instructor's, kept by the --replace above, never listed)
    assert data["settings"]["files"] == [f for f in on_disk if f != "notes.txt"]


@pytest.mark.parametrize("forged", [
    f"deecy_3145_101_s0002\\s0002_{EXERCISE}.ipynb",     # a backslash kept in the name
    f"deecy_3145_101_s0002/s0002_{EXERCISE}.ipynb",      # ... or made a folder by unzip
    f"deecy_3145_101_x/chenbo_3144_100_s0002_{EXERCISE}.ipynb",   # Bo's prefix, forged
])
def test_a_path_separator_in_a_canvas_name_does_not_hide_its_uploader(forged):
    """Cy (Canvas user 3145) uploads a file named ``s0002\\s0002_03_pair_counting.ipynb``:
    Canvas prefixes Cy's name and id; split at the backslash, the prefix was a folder
    and the file a bare claim on Bo, graded as Bo's when newer. It is Cy's, a conflict."""
    people = {"s0002": uploader.Person("s0002", name="Bo Chen"),
              "s0003": uploader.Person("s0003", name="Cy Dee")}
    roster = {f"{s}_{EXERCISE}.ipynb": s for s in people}
    res = uploader.resolve([f"chenbo_3144_100_s0002_{EXERCISE}.ipynb", forged],
                           roster=roster, people=people, exercise=EXERCISE)
    assert res.student == {0: "s0002"}
    assert [(c["uploader"], c["claims"]) for c in res.conflicts] == [("s0003", "s0002")]


def test_grading_another_exercises_folder_is_refused(course, tmp_path, capsys):
    """The slip of grading HW1's folder as HW3: every student got 0 with exit status 0
    (each row saying the name says another exercise). Refused before anything runs: the
    files name another exercise than --exercise, or than the roster's assignment."""
    import shutil

    from grading_helpers import ROOT

    for sid in ("s0001", "s0002"):
        shutil.copyfile(ROOT / "exercises" / "01_matching.ipynb",
                        tmp_path / f"{sid}_01_matching.ipynb")
    base = ["grade", str(tmp_path), "--roster", str(course / "hw" / "roster.csv"),
            "--course-key", str(course / "course.key"), "--sandbox", SANDBOX]
    assert cli.main(base + ["--out", str(tmp_path / "a"), "--exercise", "03"]) == 2
    err = capsys.readouterr().err
    assert ("exercise: the files name 01_matching (2 file(s)), none 03_pair_counting "
            "(--exercise)") in err and "nothing was graded" in err
    assert cli.main(base + ["--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert ("exercise: the roster's assignment is 03_pair_counting (recorded in" in err
            and "but the files are 01_matching" in err)
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_an_id_typed_in_another_case_is_its_student_when_only_one_fits():
    """A per-student folder ``S0002/`` or a file ``S0001_03_pair_counting.ipynb`` (typed
    by hand, or an LMS's capitals) was unmatched; ids differing only in case stay apart."""
    roster = {f"{s}_{EXERCISE}.ipynb": s for s in ("s0001", "s0002", "ab", "AB")}
    res = uploader.resolve([f"S0001_{EXERCISE}.ipynb", "S0002/work.ipynb",
                            f"Ab_{EXERCISE}.ipynb", f"S0002/S0001_{EXERCISE}.ipynb"],
                           roster=roster, exercise=EXERCISE)
    assert res.student == {0: "s0001", 1: "s0002"}
    assert res.unmatched == [f"Ab_{EXERCISE}.ipynb"]
    assert [(c["uploader"], c["claims"]) for c in res.conflicts] == [("s0002", "s0001")]


def test_a_file_whose_name_says_no_exercise_is_graded_as_the_batchs(course, tmp_path, capsys):
    """``s0003/untitled.ipynb`` (the guide's own per-student example) graded without
    --exercise beside files naming 03: it was 0 of 0 points, exported as 0, exit status
    0. The batch's one exercise is its exercise. With no exercise named anywhere and none
    given, nothing is graded."""
    hw = course / "hw"
    _write(_answered(hw, "s0001"), tmp_path / "c" / "s0001" / f"s0001_{EXERCISE}.ipynb")
    _write(_answered(hw, "s0003"), tmp_path / "c" / "s0003" / "untitled.ipynb")
    code = cli.main(["grade", str(tmp_path / "c"), "--out", str(tmp_path / "out"),
                     "--roster", str(hw / "roster.csv"), "--course-key",
                     str(course / "course.key"), "--sandbox", SANDBOX, "--jobs", "2",
                     "--format", "canvas"])
    data = json.loads((tmp_path / "out" / "grades.json").read_text())
    assert code == 0
    assert {s["student"]: (s["exercise"], s["total"], s["max_total"])
            for s in data["students"]} == {"s0001": (EXERCISE, TOTAL, TOTAL),
                                           "s0003": (EXERCISE, TOTAL, TOTAL)}
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "s0001.ipynb").write_text("{}", encoding="utf-8")
    assert cli.main(["grade", str(tmp_path / "d"), "--out", str(tmp_path / "o2"),
                     "--sandbox", SANDBOX]) == 2
    assert ("exercise: no file's name says which exercise it answers (e.g. "
            "s1234_03_pair_counting.ipynb); give --exercise" in capsys.readouterr().err)
    assert not (tmp_path / "o2").exists()


def test_one_unknown_canvas_uploader_naming_two_students_is_held_back():
    """Bo's Canvas name is not the roster's ("Robert Chen"): Canvas user 3144 hands in
    his own file and a blank copy named as Ana's, who handed in nothing. The copy was
    graded as Ana's (0, exported); one uploader naming two students is a conflict until
    the roster's canvas_id says who is who."""
    people = {"s0001": uploader.Person("s0001", name="Ana Lima"),
              "s0002": uploader.Person("s0002", name="Bo Chen")}
    roster = {f"{s}_{EXERCISE}.ipynb": s for s in people}
    names = [f"chenrobert_3144_7_s0002_{EXERCISE}.ipynb",
             f"chenrobert_3144_8_s0001_{EXERCISE}.ipynb"]
    res = uploader.resolve(names, roster=roster, people=people, exercise=EXERCISE)
    assert res.student == {}
    assert sorted((c["file"], c["uploader"], c["claims"]) for c in res.conflicts) == [
        (names[0], "Canvas user 3144", "s0002"), (names[1], "Canvas user 3144", "s0001")]
    assert "Canvas user 3144 handed in files named for 2 students" in \
        uploader.conflict_lines(res)[0]
    people["s0002"].canvas_id = "3144"              # the roster says who is who
    res = uploader.resolve(names, roster=roster, people=people, exercise=EXERCISE)
    assert res.student == {0: "s0002"} and [c["file"] for c in res.conflicts] == [names[1]]


def test_a_jupyterhub_exchange_folder_names_its_uploader():
    """nbgrader's exchange keeps each submission in ``ID+ASSIGNMENT+TIMESTAMP[+RANDOM]/``:
    s0003's copy named as s0002's in s0003's own submission folder was a bare claim on
    s0002 (graded as s0002's when newer); it is a conflict, and s0002's file stands."""
    roster = {f"{s}_{EXERCISE}.ipynb": s for s in ("s0002", "s0003", "ana+x")}
    names = [f"inbound/s0002+hw3+2026-11-20 10:00:00.000000 UTC/s0002_{EXERCISE}.ipynb",
             f"inbound/s0003+hw3+2026-11-20 11:00:00.000000 UTC+k3j2/s0002_{EXERCISE}.ipynb",
             "inbound/ana+x+hw3+2026-11-20 12:00:00.000000 UTC/untitled.ipynb"]
    res = uploader.resolve(names, roster=roster, exercise=EXERCISE)
    assert res.student == {0: "s0002", 2: "ana+x"} and res.how == {0: "folder", 2: "folder"}
    assert [(c["uploader"], c["claims"]) for c in res.conflicts] == [("s0003", "s0002")]


def test_variant_course_on_handed_out_notebooks_is_refused(course, capsys):
    """``--variant course`` taken for "with the course key": every handed-out notebook
    (each on its student's variant) would be graded against the course's own data."""
    code = _grade(course, "--course-key", str(course / "course.key"), "--variant", "course",
                  out="course-data")
    err = capsys.readouterr().err
    assert code == 2 and not (course / "course-data").exists()
    assert ("graded against the course's data" in err and "--variant course" in err
            and "nothing was graded" in err.lower())
