"""What the grader takes from the LMS and from the instructor, and what it promises about
them (issue 42): identity from the LMS's own layer only (the outermost Canvas name or
per-student folder; nothing inside an upload names anyone), every input checked before
anything is graded or written (corrections, submission times, the assignment's name),
and ``--replace`` swapping only what the grader wrote."""
import csv
import io
import json
import re

import pytest

from grading_helpers import TOTAL
from prayatul_edu import grading
from prayatul_edu.grading import export, late, output, overrides, uploader
from prayatul_edu.grading.report import StudentReport

EXERCISE = "03_pair_counting"
SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
PEOPLE = {"s0002": uploader.Person("s0002", name="Bo Chen", canvas_id="3002"),
          "s0003": uploader.Person("s0003", name="Chidi Okafor", canvas_id="4103")}
ROSTER = {f"{s}_{EXERCISE}.ipynb": s for s in PEOPLE}


# ------------------------------------------------------------------ identity
@pytest.mark.parametrize("forged", [
    f"okaforchidi_4103_901_a/s0002/s0002_{EXERCISE}.ipynb",          # unzip made folders
    f"okaforchidi_LATE_4103_901_a/s0002/s0002_{EXERCISE}.ipynb",     # ... of a late upload
    f"canvas/okaforchidi_4103_901_s0002/s0002_{EXERCISE}.ipynb",     # under the download's
    f"okaforchidi_4103_901_a\\s0002\\s0002_{EXERCISE}.ipynb",          # a name kept whole
    f"s0003/s0002/s0002_{EXERCISE}.ipynb",                           # a per-student folder
])
def test_a_folder_inside_an_upload_never_names_its_uploader(forged):
    """Chidi (s0003, Canvas user 4103) uploads ``a\\s0002\\s0002_03_pair_counting.ipynb``;
    unzipped, the download became ``okaforchidi_4103_901_a/s0002/...``. The folder
    ``s0002`` made by unzip was taken for Bo's per-student folder before the Canvas
    prefix: Chidi's blank file was "Bo's" and, newer, cost Bo his grade. The outermost
    layer says whose it is: Chidi's, naming Bo, a conflict; Bo's own file stands."""
    own = f"chenbo_3002_900_s0002_{EXERCISE}.ipynb"
    res = uploader.resolve([own, forged], roster=ROSTER, people=PEOPLE, exercise=EXERCISE)
    assert res.student == {0: "s0002"}
    assert [(c["file"], c["uploader"], c["claims"], c["other"]) for c in res.conflicts] == [
        (forged, "s0003", "s0002", [own])]


def test_a_conflict_names_the_file_as_it_was_collected():
    """Chidi's file ``okaforchidi_4103_901_a/..\\s0002\\s0002_...``: shown with its
    backslashes made folders, ``okaforchidi_4103_901_a/../s0002/s0002_...``, the path the
    instructor is told to look at is another file (``collected/s0002/...``)."""
    forged = f"okaforchidi_4103_901_a/..\\s0002\\s0002_{EXERCISE}.ipynb"
    res = uploader.resolve([f"chenbo_3002_900_s0002_{EXERCISE}.ipynb", forged,
                            "notes\\..\\x.ipynb"], roster=ROSTER, people=PEOPLE,
                           exercise=EXERCISE)
    assert [c["file"] for c in res.conflicts] == [forged]
    assert res.unmatched == ["notes\\..\\x.ipynb"]


def test_an_upload_unzipped_in_place_is_no_per_student_folder_beside_canvas_names():
    """``unzip okaforchidi_4103_901_a.zip`` run in the download folder (unzip's default)
    spills Chidi's ``s0002/s0002_03_pair_counting.ipynb`` beside the Canvas names: it
    read as Bo's per-student folder, Bo had two files and the newer (its time is the one
    Chidi stored in his zip) was graded, Bo's own listed as "also handed in", exit 0.
    A student with a Canvas name and a per-student folder of another layout is not
    decided by date: the folder's file is a conflict, the Canvas download stands."""
    own = f"chenbo_3002_900_s0002_{EXERCISE}.ipynb"
    spilled = f"s0002/s0002_{EXERCISE}.ipynb"
    names = [own, "okaforchidi_4103_901_a.zip", spilled,
             f"okaforchidi_4103_901_s0003_{EXERCISE}.ipynb",
             f"s0003/okaforchidi_4103_902_s0003_{EXERCISE}-1.ipynb"]  # sorted by Canvas id
    res = uploader.resolve(names, roster=ROSTER, people=PEOPLE, exercise=EXERCISE)
    assert res.student == {0: "s0002", 1: "s0003", 3: "s0003", 4: "s0003"}
    assert [(c["file"], c["claims"], c["other"]) for c in res.conflicts] == [
        (spilled, "s0002", [own])]
    assert "a per-student folder beside s0002's Canvas download" in res.conflicts[0]["why"]
    # a folder layout alone is as before
    alone = uploader.resolve([spilled], roster=ROSTER, people=PEOPLE, exercise=EXERCISE)
    assert alone.student == {0: "s0002"} and alone.conflicts == []


def test_a_canvas_name_never_names_a_student_whose_canvas_id_is_another():
    """Canvas user 5555, not on the roster, whose Canvas name reads ``chenbo`` (renamed
    "Bo Chen"): the name was taken for Bo although the roster gives Bo's Canvas id, 3002,
    and the newest of Bo's "three" files was graded as his. Another id is another
    uploader: its file naming Bo is a conflict, its other file nobody's."""
    own = f"chenbo_3002_900_s0002_{EXERCISE}.ipynb"
    names = [own, f"chenbo_5555_901_s0002_{EXERCISE}.ipynb", "chenbo_5555_902_hw.ipynb"]
    res = uploader.resolve(names, roster=ROSTER, people=PEOPLE, exercise=EXERCISE)
    assert res.student == {0: "s0002"}
    assert [(c["file"], c["uploader"], c["claims"]) for c in res.conflicts] == [
        (names[1], "Canvas user 5555", "s0002")]
    assert res.unmatched == [names[2]]
    # a student without a Canvas id on the roster is still found by their name
    people = dict(PEOPLE, s0002=uploader.Person("s0002", name="Bo Chen"))
    res = uploader.resolve(names[:1], roster=ROSTER, people=people, exercise=EXERCISE)
    assert res.student == {0: "s0002"} and res.conflicts == []


def test_the_outermost_layer_is_the_uploader_whatever_lies_inside():
    """Inside Chidi's own upload, a folder naming nobody and his own name: his file."""
    names = [f"okaforchidi_4103_901_hw/work/s0003_{EXERCISE}.ipynb",
             f"s0002/okaforchidi_4103_901_s0002_{EXERCISE}.ipynb"]
    res = uploader.resolve(names, roster=ROSTER, people=PEOPLE, exercise=EXERCISE)
    assert res.student == {0: "s0003", 1: "s0002"} and res.how == {0: "canvas", 1: "folder"}
    assert res.conflicts == []


@pytest.mark.parametrize("path, marked", [
    (f"okaforchidi_LATE_4103_901_a/s0002/s0002_{EXERCISE}.ipynb", True),   # a folder's mark
    (f"okaforchidi_Late_4103_901_a/s0003_{EXERCISE}.ipynb", True),         # in any case
    (f"okaforchidi_late_4103_901_s0003_{EXERCISE}.ipynb", True),
    (f"s0003/okaforchidi_LATE_4103_901_s0003_{EXERCISE}.ipynb", True),     # kept in a folder
    (f"okaforchidi_4103_901_a/okaforchidi_LATE_1_2_s0003_{EXERCISE}.ipynb", False),  # inside
    (f"okaforchidi_4103_901_x_LATE_1_2_s0003_{EXERCISE}.ipynb", False),    # inside the name
    (f"s0003_late_fix_{EXERCISE}.ipynb", False),                           # no Canvas name
    (f"s0003_{EXERCISE}.ipynb", False),
])
def test_canvas_late_mark_is_read_from_the_lms_layer(path, marked):
    assert uploader.canvas_late(path) is marked
    due = late.parse_due("2026-12-01T23:59")
    verdict = late.late_verdict("s0003", path, due, {}, late.parse_policy("flag"))
    assert verdict["late"] is (True if marked else None)
    assert verdict["source"] == ("Canvas's late mark" if marked else "unknown")


# ------------------------------------------------------------------ inputs, read alone
def _overrides(tmp_path, *rows):
    path = tmp_path / "fix.csv"
    path.write_text("student,question,points,reason\n" + "".join(f"{r}\n" for r in rows),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("points, message", [
    ("-0", "line 3: points '-0' is negative"),
    ("0_5", "line 3: points '0_5' is not a number such as 0.5"),     # float() reads 5
    ("1e0", "line 3: points '1e0' is not a number such as 0.5"),
    ('"0,5"', "line 3: points '0,5' is not a number such as 0.5"),   # a decimal comma
    ("inf", "line 3: points 'inf' is not a number such as 0.5"),
    ("", "line 3: no points"),
])
def test_points_of_a_correction_are_plain_numbers(tmp_path, points, message):
    path = _overrides(tmp_path, "s0001,03.1,1,ok", f"s0002,03.1,{points},regrade")
    with pytest.raises(ValueError, match=message):
        overrides.read_overrides(path)


def test_plain_points_are_read_with_their_line(tmp_path):
    got = overrides.read_overrides(_overrides(tmp_path, "s0001,03.1,0.5,half",
                                              "s0002,03.2,.25,a quarter", "s0003,03.3,1,ok"))
    assert [(o["student"], o["points"], o["line"]) for o in got] == [
        ("s0001", 0.5, 2), ("s0002", 0.25, 3), ("s0003", 1.0, 4)]


def test_a_comma_for_the_decimal_point_is_refused_not_read_as_whole_points(tmp_path):
    """``s0002,03.1,0,5,regrade``: half a point written the European way, unquoted. The
    row has one field more than the header; it was read as 0 points with the reason
    "5" (the rest dropped), a silent wrong grade. Refused, naming the line."""
    path = _overrides(tmp_path, "s0001,03.1,1,ok", "s0002,03.1,0,5,regrade")
    with pytest.raises(ValueError, match=r"^overrides: line 3: 5 values where the header "
                                         r"has 4 \(student, question, points, reason\)"):
        overrides.read_overrides(path)
    # quoted, the comma is the file's (refused as points); empty trailing cells a
    # spreadsheet leaves are no values, and a reason over two lines keeps the line count
    path = _overrides(tmp_path, 's0001,03.1,1,"two\nlines"', "s0002,03.1,0.5,ok,,")
    assert [(o["student"], o["points"], o["line"]) for o in
            overrides.read_overrides(path)] == [("s0001", 1.0, 2), ("s0002", 0.5, 4)]


def test_a_roster_row_with_a_value_too_many_is_refused(tmp_path):
    """``s0003,Okafor, Chidi,...``: an unquoted comma in a name moves every column after
    it: Chidi's Canvas id would be read from the column before. Refused."""
    path = tmp_path / "class.csv"
    path.write_text("student,name,canvas_id\ns0002,Bo Chen,3002\n"
                    "s0003,Okafor, Chidi,4103\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^roster: line 3: 4 values where the header has "
                                         r"3 \(student, name, canvas_id\)"):
        uploader.read_people(path)


def test_one_canvas_id_on_two_rows_is_refused(tmp_path, capsys):
    """Bo's row copied from Ana's with her Canvas id: Ana's upload
    (``limaana_3001_901_notebook.ipynb``) was Bo's, graded as his when newer, and Ana
    was simply absent, exit 0. The roster is refused at ``assign`` and ``grade``."""
    path = tmp_path / "class.csv"
    path.write_text("student,name,canvas_id\ns0001,Ana Lima,3001\ns0002,Bo Chen,3001\n",
                    encoding="utf-8")
    message = "roster: line 3: canvas_id 3001 is s0001's too (line 2)"
    with pytest.raises(ValueError, match=re.escape(message)):
        uploader.read_people(path)
    assert _cli("assign", "03", "--roster", path, "--out", tmp_path / "hw") == 2
    assert message in capsys.readouterr().err and not (tmp_path / "hw").exists()


@pytest.mark.parametrize("row, message", [
    ("s0009,03.1,1,typo", "line 3: s0009: no such student"),
    ("s0002,03.9,1,typo", "line 3: s0002: no question '03.9' .the questions are 03.1, 03.2"),
    ("s0002,03.2,999,oops", "line 3: s0002 03.2: 999 points is more than the question's 1"),
])
def test_a_correction_is_checked_against_the_exercise_and_the_class(tmp_path, row, message):
    fixes = overrides.read_overrides(_overrides(tmp_path, "s0001,03.1,1,ok", row))
    with pytest.raises(ValueError, match=message + ".*nothing was graded"):
        overrides.check_overrides(fixes, {"03.1": 1.0, "03.2": 1.0}, {"s0001", "s0002"})


def test_a_correction_for_an_id_in_another_case_is_refused_naming_the_id(tmp_path):
    """``S0001,03.1,1,on paper`` for s0001: ``export`` skipped it as "not in these
    grades" (a student of another part of the class) and exited 0, s0001's correction
    never applied. An id that differs from a graded one only in case is a typo: refused,
    naming the id meant; so too against the roster at ``grade``."""
    fixes = overrides.read_overrides(_overrides(tmp_path, "s0002,03.1,1,ok",
                                                "S0001,03.1,1,on paper"))
    students = [{"student": s, "rows": [{"question": "03.1", "points": 0.0,
                                         "max_points": 1.0, "status": "incorrect",
                                         "feedback": ""}]} for s in ("s0001", "s0002")]
    with pytest.raises(ValueError, match=r"^overrides: line 3: S0001 is not in these grades "
                                         r"but s0001 is \(an id in another case\?\)"):
        overrides.apply_overrides(students, fixes)
    assert students[0]["rows"][0]["points"] == 0.0 and "overrides" not in students[1]
    with pytest.raises(ValueError, match=r"line 3: S0001: no such student \(not on the "
                                         r"roster; s0001 is\)"):
        overrides.check_overrides(fixes, {"03.1": 1.0}, {"s0001", "s0002"})


def test_submission_times_of_ids_not_on_the_roster_are_named(tmp_path):
    path = tmp_path / "times.csv"
    path.write_text("student,submitted_at\ns0001,2026-12-01T10:00\nS0002,2026-12-01T11:00\n"
                    "s0009,2026-12-02T10:00\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"submissions: 2 id\(s\) not on the roster \(line 3: "
                                         r"S0002, line 4: s0009\)"):
        late.read_submissions(path, {"s0001", "s0002"})
    assert sorted(late.read_submissions(path)) == ["S0002", "s0001", "s0009"]


def test_the_assignment_name_is_escaped_in_the_canvas_header():
    r = StudentReport(student="s0001", file="s0001.ipynb", variant="v", exercise=EXERCISE)
    r.rows.append({"student": "s0001", "variant": "v", "question": "03.1", "title": "",
                   "points": 1.0, "max_points": 1.0, "status": "correct", "feedback": "",
                   "file": "s0001.ipynb", "diagnosed": []})
    name = '=HYPERLINK("http://evil.example","x")'
    for questions, column in ((False, name), (True, f"{name} 03.1")):
        header = next(csv.reader(io.StringIO(export.canvas_csv([r], name, questions))))
        assert header[-1] == "'" + column


# ------------------------------------------------------------------ --replace, on folders
def _run(folder, files, extra=()):
    """A grades folder as a run leaves it: ``files`` written and listed in grades.json."""
    for f in list(files) + list(extra):
        (folder / f).parent.mkdir(parents=True, exist_ok=True)
        (folder / f).write_text(f"old {f}", encoding="utf-8")
    (folder / "grades.json").write_text(json.dumps(
        {"students": [], "settings": {"files": sorted(list(files) + ["grades.json"])}}))
    return folder


RUN = ["grades.csv", f"feedback/s0001_{EXERCISE}.md", "gradescope/s0001/results.json"]


def _replace(out, new_files):
    target, work = output.prepare(out, replace=True)
    for f in new_files:
        (work / f).parent.mkdir(parents=True, exist_ok=True)
        (work / f).write_text(f"new {f}", encoding="utf-8")
    output.swap_in(work, target)
    return target


def test_replace_keeps_what_the_grader_did_not_write(tmp_path):
    out = _run(tmp_path / "grades", RUN, [".notes.txt", ".git/HEAD", "mine.txt",
                                          ".grades.csv.k2j4_x9a"])   # a killed write's
    _replace(out, ["grades.csv", "grades.json", f"feedback/s0002_{EXERCISE}.md"])
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert on_disk == [".git/HEAD", ".notes.txt", f"feedback/s0002_{EXERCISE}.md",
                       "grades.csv", "grades.json", "mine.txt"]
    assert (out / ".notes.txt").read_text() == "old .notes.txt"
    assert (out / "grades.csv").read_text() == "new grades.csv"
    assert [p.name for p in tmp_path.iterdir()] == ["grades"]     # nothing left beside


def test_replace_refuses_a_file_of_yours_inside_the_graders_folders(tmp_path):
    out = _run(tmp_path / "grades", RUN, ["feedback/mine.txt"])
    with pytest.raises(ValueError, match=r"inside its folders \(feedback/mine.txt\); "
                                         "nothing was graded"):
        output.prepare(out, replace=True)
    assert [p.name for p in tmp_path.iterdir()] == ["grades"]


def test_replace_never_takes_a_folder_of_yours_without_grades_for_the_graders(tmp_path):
    """An ``--out`` that never held a run but has a ``feedback/`` of the instructor's
    (drafts written by hand): with no grades.json listing what the grader wrote,
    ``--replace`` took every file in ``feedback/`` for the grader's and deleted
    ``feedback/draft.md`` without a word. Nothing says the grader wrote it: refused."""
    out = tmp_path / "mine"
    for f in ("feedback/draft.md", "gradescope/notes/results.json", "todo.txt"):
        (out / f).parent.mkdir(parents=True, exist_ok=True)
        (out / f).write_text(f"my {f}", encoding="utf-8")
    with pytest.raises(ValueError, match=r"inside its folders \(feedback/draft.md, "
                                         r"gradescope/notes/results.json\); nothing was"):
        output.prepare(out, replace=True)
    assert (out / "feedback" / "draft.md").read_text() == "my feedback/draft.md"
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]


def test_replace_after_a_stopped_run_swaps_its_feedback_and_keeps_yours(tmp_path):
    """A run stopped mid-batch leaves no grades.json, only grades.partial.csv and the
    feedback of the students it finished (ids may hold "_"): those are the grader's
    (replaced), a file of the instructor's beside them is not (the run is refused,
    naming it)."""
    out = tmp_path / "grades"
    (out / "feedback").mkdir(parents=True)
    (out / "grades.partial.csv").write_text(
        "student,variant,question,points,max_points,status,feedback,file\n"
        f"s_01,s_01,03.1,1.0,1.0,correct,,s_01_{EXERCISE}.ipynb\n", encoding="utf-8")
    (out / "feedback" / f"s_01_{EXERCISE}.md").write_text("old", encoding="utf-8")
    _replace(out, ["grades.csv", "grades.json", f"feedback/s0002_{EXERCISE}.md"])
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        f"feedback/s0002_{EXERCISE}.md", "grades.csv", "grades.json"]
    (out / "grades.json").unlink()
    (out / "grades.partial.csv").write_text("student,question\ns0002,03.1\n", encoding="utf-8")
    (out / "feedback" / "s0001_notes.md").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match=r"inside its folders \(feedback/s0001_notes.md\)"):
        output.prepare(out, replace=True)


def test_replace_through_a_link_swaps_the_links_target(tmp_path):
    real = _run(tmp_path / "real", RUN, [".notes.txt"])
    (tmp_path / "link").symlink_to(real)
    target = _replace(tmp_path / "link", ["grades.csv", "grades.json"])
    assert target == real.resolve() and (tmp_path / "link").is_symlink()
    assert sorted(p.name for p in real.iterdir()) == [".notes.txt", "grades.csv",
                                                      "grades.json"]
    assert (tmp_path / "link" / "grades.csv").read_text() == "new grades.csv"


def test_a_dangling_link_is_one_line(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    for replace in (False, True):
        with pytest.raises(ValueError, match=r"^out: .*link is a symbolic link to .*gone, "
                                             "which does not exist"):
            output.prepare(tmp_path / "link", replace)


# ------------------------------------------------------------------ end to end
# A fresh ``assign --course-key`` of exercise 03 for a class of five with Canvas ids, and
# a Canvas download: Ana's and Bo's honest files; Chidi's late upload, a zip that unzip
# made into ``okaforchidi_LATE_4003_903_a/`` holding his own file (two answers right) and,
# newest of all, a blank copy of Bo's handout in a folder ``s0002/``.
CLASS = """student,name,email,sis_id,section,canvas_id
s0001,Ana Lima,ana@uni.example,1001,A,4001
s0002,Bo Chen,bo@uni.example,1002,A,4002
s0003,Chidi Okafor,chidi@uni.example,1003,B,4003
s0004,Di Eve,di@uni.example,1004,B,4004
s0005,Eli Fox,eli@uni.example,1005,B,4005
"""
ZIP = "okaforchidi_LATE_4003_903_a"


def _cli(*args):
    from prayatul_edu import cli

    return cli.main([str(a) for a in args])


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    import os
    import re
    import time

    import nbformat

    from grading_helpers import QIDS, answers, notebook

    d = tmp_path_factory.mktemp("lms")
    (d / "class.csv").write_text(CLASS, encoding="utf-8")
    (d / "course.key").write_bytes(b"0123456789abcdef-the-lms-layer-course-key\n")
    assert _cli("assign", "03", "--roster", d / "class.csv", "--out", d / "hw",
                "--course-key", d / "course.key") == 0

    def handout(sid, qids=()):
        path = d / "hw" / "notebooks" / f"{sid}_{EXERCISE}.ipynb"
        token = re.search(r"PRAYATUL_EDU_VARIANT'\] = '(\w+)'", path.read_text()).group(1)
        right = answers(token)
        return notebook(sid, {q: right[q] for q in qids}, template=path)

    def write(nb, rel, age):
        path = d / "collected" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        os.utime(path, (time.time() - age,) * 2)

    write(handout("s0001", QIDS), f"limaana_4001_901_s0001_{EXERCISE}.ipynb", 600)
    write(handout("s0002", QIDS), f"chenbo_4002_902_s0002_{EXERCISE}.ipynb", 600)
    write(handout("s0003", QIDS[:2]), f"{ZIP}/s0003_{EXERCISE}.ipynb", 300)
    write(handout("s0002"), f"{ZIP}/s0002/s0002_{EXERCISE}.ipynb", 0)
    return d


def _grade(course, out, *extra):
    return _cli("grade", course / "collected", "--out", out, "--roster",
                course / "hw" / "roster.csv", "--course-key", course / "course.key",
                "--sandbox", SANDBOX, "--jobs", "2", "--format", "canvas", *extra)


@pytest.fixture(scope="module")
def graded(course):
    out = course / "grades"
    code = _grade(course, out, "--late", "penalty:10%/day")
    data = json.loads((out / "grades.json").read_text())
    return code, out, data, {s["student"]: s for s in data["students"]}


def test_a_blank_file_unzipped_from_a_classmates_upload_leaves_the_honest_total(graded):
    code, out, data, students = graded
    assert code == 3                                         # the conflict needs a look
    assert {s: students[s]["total"] for s in students} == {
        "s0001": TOTAL, "s0002": TOTAL, "s0003": 1.8}        # 2 - 10% for Canvas's mark
    assert students["s0002"]["file"] == f"chenbo_4002_902_s0002_{EXERCISE}.ipynb"
    assert students["s0002"]["problems"] == []
    assert [(c["file"], c["uploader"], c["claims"]) for c in data["settings"]["conflicts"]] \
        == [(f"{ZIP}/s0002/s0002_{EXERCISE}.ipynb", "s0003", "s0002")]


def test_the_late_mark_of_the_folder_an_upload_was_unzipped_into_counts(graded):
    late_ = graded[3]["s0003"]["late"]
    assert (late_["source"], late_["late"], late_["days"], late_["penalty"]) == (
        "Canvas's late mark", True, 1, 0.1)
    assert all(graded[3][s]["late"]["late"] is None for s in ("s0001", "s0002"))


@pytest.mark.parametrize("row, message", [
    ("s0001,03.2,999,typo", "line 2: s0001 03.2: 999 points is more than the question's 1"),
    ("s0001,03.7,1,typo", "line 2: s0001: no question '03.7'"),
    ("s0009,03.1,1,typo", "line 2: s0009: no such student"),
    ("s0001,03.1,-0,typo", "line 2: points '-0' is negative"),
    ("s0001,03.1,0_5,typo", "line 2: points '0_5' is not a number"),
])
def test_a_wrong_correction_is_refused_before_anything_is_graded(course, tmp_path, capsys,
                                                                 row, message):
    fix = tmp_path / "fix.csv"
    fix.write_text(f"student,question,points,reason\n{row}\n", encoding="utf-8")
    assert _grade(course, tmp_path / "out", "--overrides", fix) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_submission_times_of_ids_not_on_the_roster_refuse_the_run(course, tmp_path, capsys):
    times = tmp_path / "times.csv"
    times.write_text("student,submitted_at\ns0001,2026-12-01T10:00\n1002,2026-12-01T10:00\n",
                     encoding="utf-8")
    assert _grade(course, tmp_path / "out", "--submissions", times) == 2
    assert "submissions: 1 id(s) not on the roster (line 3: 1002)" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_replace_keeps_a_hidden_file_and_a_git_folder(graded, course):
    out = graded[1]
    (out / ".notes.txt").write_text("mine", encoding="utf-8")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (out / "regrades.txt").write_text("ask Bo", encoding="utf-8")
    fix = course / "fix.csv"
    fix.write_text("student,question,points,reason\ns0003,03.3,0.5,on paper\n",
                   encoding="utf-8")
    assert _grade(course, out, "--replace", "--overrides", fix, "--late",
                  "penalty:10%/day") == 3
    assert (out / ".notes.txt").read_text() == "mine"
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (out / "regrades.txt").read_text() == "ask Bo"
    data = json.loads((out / "grades.json").read_text())
    assert {s["student"]: s["total"] for s in data["students"]} == {
        "s0001": TOTAL, "s0002": TOTAL, "s0003": 2.25}    # (2 + 0.5) - 10%
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                     if p.is_file() and not p.name.startswith(".")
                     and ".git" not in p.parts and p.name != "regrades.txt")
    assert data["settings"]["files"] == on_disk           # the grader's files only
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".grades.")]


def test_export_keeps_your_files_in_the_graders_folders_and_never_lists_them(graded,
                                                                            tmp_path):
    """``export --format canvas`` removed the whole ``gradescope/`` of an earlier
    writing, the instructor's ``gradescope/mine.txt`` and ``gradescope/s0001/note.txt``
    with it; and every export listed whatever lay in ``feedback/`` as the grader's
    (``settings.files``), so the next ``grade --replace`` deleted ``feedback/mine.md``
    without a word. Only the grader's stale files go; yours stay, unlisted, and a later
    ``--replace`` refuses the run naming them."""
    import shutil

    out = tmp_path / "g"
    shutil.copytree(graded[1], out)
    assert _cli("export", out, "--format", "gradescope") == 0
    assert (out / "gradescope" / "s0001" / "results.json").exists()
    mine = {"feedback/mine.md": "draft", "gradescope/mine.txt": "upload on Monday",
            "gradescope/s0001/note.txt": "asked for a regrade"}
    for rel, text in mine.items():
        (out / rel).write_text(text, encoding="utf-8")
    assert _cli("export", out, "--format", "canvas") == 0
    assert {rel: (out / rel).read_text() for rel in mine} == mine
    assert not (out / "gradescope" / "s0001" / "results.json").exists()
    assert not (out / "gradescope_scores.csv").exists()
    listed = json.loads((out / "grades.json").read_text())["settings"]["files"]
    assert not set(mine) & set(listed) and "feedback/s0001_03_pair_counting.md" in listed
    assert sorted(n for n in output.not_written(out) if "/" in n) == sorted(mine)


def test_a_dangling_out_link_is_one_line_and_grades_nothing(course, tmp_path, capsys):
    (tmp_path / "grades").symlink_to(tmp_path / "gone")
    for extra in ((), ("--replace",)):
        assert _grade(course, tmp_path / "grades", *extra) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert err.strip().splitlines()[-1].startswith("out: ")
        assert "is a symbolic link to" in err and "which does not exist" in err
    assert not (tmp_path / "gone").exists()
