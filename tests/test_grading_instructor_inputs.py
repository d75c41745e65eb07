"""What the grader takes from the LMS and from the instructor, and what it promises about
them (issue 42): identity from the LMS's own layer only (the outermost Canvas name or
per-student folder; nothing inside an upload names anyone), every input checked before
anything is graded or written (corrections, submission times, the assignment's name),
and ``--replace`` swapping only what the grader wrote."""
import csv
import io
import json

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
        (forged.replace("\\", "/"), "s0003", "s0002", [own])]


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


@pytest.mark.parametrize("row, message", [
    ("s0009,03.1,1,typo", "line 3: s0009: no such student"),
    ("s0002,03.9,1,typo", "line 3: s0002: no question '03.9' .the questions are 03.1, 03.2"),
    ("s0002,03.2,999,oops", "line 3: s0002 03.2: 999 points is more than the question's 1"),
])
def test_a_correction_is_checked_against_the_exercise_and_the_class(tmp_path, row, message):
    fixes = overrides.read_overrides(_overrides(tmp_path, "s0001,03.1,1,ok", row))
    with pytest.raises(ValueError, match=message + ".*nothing was graded"):
        overrides.check_overrides(fixes, {"03.1": 1.0, "03.2": 1.0}, {"s0001", "s0002"})


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


def test_a_dangling_out_link_is_one_line_and_grades_nothing(course, tmp_path, capsys):
    (tmp_path / "grades").symlink_to(tmp_path / "gone")
    for extra in ((), ("--replace",)):
        assert _grade(course, tmp_path / "grades", *extra) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert err.strip().splitlines()[-1].startswith("out: ")
        assert "is a symbolic link to" in err and "which does not exist" in err
    assert not (tmp_path / "gone").exists()
