"""What the grader takes from the LMS and from the instructor, and what it promises about
them (issue 42): identity from the LMS's own layer only (the outermost Canvas name or
per-student folder; nothing inside an upload names anyone), every input checked before
anything is graded or written (corrections, submission times, the assignment's name),
and ``--replace`` swapping only what the grader wrote."""
import pytest

from prayatul_edu.grading import late, uploader

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
