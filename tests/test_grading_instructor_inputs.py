"""What the grader takes from the LMS and from the instructor, and what it promises about
them (issue 42): identity from the LMS's own layer only (the outermost Canvas name or
per-student folder; nothing inside an upload names anyone), every input checked before
anything is graded or written (corrections, submission times, the assignment's name),
and ``--replace`` swapping only what the grader wrote."""
import csv
import io
import json

import pytest

from prayatul_edu.grading import export, late, output, overrides, uploader
from prayatul_edu.grading.report import StudentReport

EXERCISE = "03_pair_counting"
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
    ("-0", "line 3: points '-0' are negative"),
    ("0_5", "line 3: points '0_5' are not a number of points"),     # float() reads 5
    ("1e0", "line 3: points '1e0' are not a number of points"),
    ('"0,5"', "line 3: points '0,5' are not a number of points"),   # a decimal comma
    ("inf", "line 3: points 'inf' are not a number of points"),
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
