"""An assignment from start to finish: ``prayatul-edu assign`` -> students -> collect ->
``grade`` -> exports -> ``release``.

The handout is checked cell by cell (and its first cell run outside any course folder);
then a class of 24 students works on it: honest, partial, blank, a duplicate, a
forgotten id, a hung cell, odd file names, entries that are not files, in nested
folders with a roster of paths. Each student's expected total is computed here from
the answers they gave and the partial-credit rules (numbers: the share of entries
within tolerance; tables: all or nothing), never from the grader's output.
"""
import csv
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

import nbformat
import numpy as np
import pytest

from grading_helpers import FUNCTIONS, POINTS, QIDS, ROOT, TOTAL, answers, notebook
from prayatul_edu import cli, grading
from prayatul_edu.exercises import CORRECT
from prayatul_edu.grading import export, handout

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
EXERCISE = "03_pair_counting"
KEY = b"0123456789abcdef-course-key-for-tests"
CANARY = "CANARY-cycle-5b1d"


def _cells(path):
    return nbformat.read(path, as_version=4).cells


# ------------------------------------------------------------------ the handout
@pytest.fixture(scope="module")
def handed(tmp_path_factory):
    d = tmp_path_factory.mktemp("handout")
    (d / "class.csv").write_text("student,name\ns01,Ana\nana.b@uni,Bo\n", encoding="utf-8")
    (d / "course.key").write_bytes(KEY + b"\n")
    wheel = d / "prayatul_edu-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK wheel")
    code = cli.main(["assign", "03", "--roster", str(d / "class.csv"), "--out", str(d / "hw"),
                     "--course-key", str(d / "course.key"), "--due", "2026-12-01T23:59",
                     "--title", "HW3", "--wheel", str(wheel)])
    assert code == 0
    return d / "hw"


def test_assign_writes_one_notebook_per_student_a_roster_and_records(handed):
    assert sorted(p.name for p in (handed / "notebooks").iterdir()) == [
        "ana.b@uni_03_pair_counting.ipynb", "prayatul_edu-0.1.0-py3-none-any.whl",
        "s01_03_pair_counting.ipynb"]
    assert list(csv.reader(open(handed / "roster.csv", encoding="utf-8"))) == [
        ["file", "student", "name"], ["s01_03_pair_counting.ipynb", "s01", "Ana"],
        ["ana.b@uni_03_pair_counting.ipynb", "ana.b@uni", "Bo"]]   # the class's columns too
    records = (handed / "README.md").read_text()
    fingerprint = hashlib.sha256(KEY).hexdigest()[:12]
    assert records.startswith("# HW3: handed out ") and f"fingerprint {fingerprint}" in records
    assert KEY.decode() not in records and "* students: 2" in records
    assert f"prayatul-edu grade COLLECTED/ --out grades --exercise {EXERCISE}" in records


def test_the_first_code_cell_turns_assignment_mode_on_with_the_students_variant(handed):
    cells = _cells(handed / "notebooks" / "s01_03_pair_counting.ipynb")
    published = _cells(ROOT / "exercises" / f"{EXERCISE}.ipynb")
    assert [c.id for c in cells] == ["intro", "handout"] + [c.id for c in published[1:]]
    code = [c for c in cells if c.cell_type == "code"]
    token = hmac.new(KEY, b"s01", hashlib.sha256).hexdigest()[:16]
    assert code[0].id == "setup" and code[0].source.splitlines()[:3] == [
        "import os  # set by prayatul-edu assign",
        "os.environ.setdefault('PRAYATUL_EDU_ASSIGNMENT', '{\"released\": false, "
        "\"attempts_per_hint\": 1}')  # set by prayatul-edu assign",
        f"os.environ['PRAYATUL_EDU_VARIANT'] = '{token}'  # set by prayatul-edu assign"]
    assert "STUDENT_ID = 's01'  # your student id, set by your instructor" in code[0].source
    assert handout.student_variant(KEY, "s01") == token
    assert handout.student_variant(None, "s01") == "s01"
    # no solution anywhere, and every other cell as published
    for cell in cells:
        assert "SOLUTION" not in cell.source and "solution()\n" not in cell.source
    same = {c.id: c.source for c in published if c.id != "setup"}
    assert {c.id: c.source for c in cells if c.id in same} == same
    text = cells[1].source
    assert text.startswith("## Your assignment: HW3")
    for phrase in ("**Due:** 2026-12-01 23:59 UTC.", "`s01_03_pair_counting.ipynb` (do not rename",
                   "pip install prayatul_edu-0.1.0-py3-none-any.whl", "It is not on PyPI"):
        assert phrase in text
    assert grading.published.compare_cells(
        nbformat.read(handed / "notebooks" / "s01_03_pair_counting.ipynb", as_version=4),
        grading.published.published_cells(EXERCISE)) == []


def test_the_handout_locks_outside_any_course_folder(handed, tmp_path):
    """The setup cell run by a plain Python in an empty folder: solutions closed, the
    data is the token's variant (not the id's), no course file needed."""
    cell = _cells(handed / "notebooks" / "s01_03_pair_counting.ipynb")[2].source
    probe = cell + (
        "\nq = ex.question('03.2')\n"
        "print(q.seed)\nprint('not available yet' in q.solution().text)\n"
        "print(str(ex.question('03.2', seed='s01').data) == str(q.data))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRAYATUL_EDU")}
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    token = handout.student_variant(KEY, "s01")
    assert out.stdout.split() == [token, "True", "False"], out.stderr
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("argv, message", [
    (["99"], "exercise: there is no exercise '99'; the exercises are 01_matching"),
    (["03", "--course-key", "{short}"], "course-key: short.key holds 5 bytes; a key needs at "
                                        "least 16"),
    (["03", "--roster", "{dup}"], "roster: line 3: student s1 is listed twice (line 2)"),
    (["03", "--published", "{solutions}"], "assign: the notebook of 03_pair_counting holds "
                                           "solutions"),
    # one documented form of a date (issue 43: this was kept as null and refused by grade)
    (["03", "--due", "1 December, 23:59"], "due: expected a date and time such as "
                                           "2026-12-01T23:59, got '1 December, 23:59'"),
])
def test_assign_refuses(tmp_path, capsys, argv, message):
    (tmp_path / "short.key").write_text("abcde")
    (tmp_path / "class.csv").write_text("student\ns1\n")
    (tmp_path / "dup.csv").write_text("student\ns1\ns1\n")
    subs = {"{short}": str(tmp_path / "short.key"), "{dup}": str(tmp_path / "dup.csv"),
            "{solutions}": str(ROOT / "solutions")}
    argv = [subs.get(a, a) for a in argv]
    if "--roster" not in argv:
        argv += ["--roster", str(tmp_path / "class.csv")]
    assert cli.main(["assign", *argv, "--out", str(tmp_path / "hw")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "hw" / "roster.csv").exists()


def test_assign_never_overwrites_an_assignment(handed, capsys):
    assert cli.main(["assign", "03", "--roster", str(handed.parent / "class.csv"),
                     "--out", str(handed)]) == 2
    assert "already holds an assignment (roster.csv)" in capsys.readouterr().err


def test_release_hands_out_the_solutions(handed, tmp_path):
    assert cli.main(["release", "03", "--out", str(tmp_path / "rel"), "--roster",
                     str(handed.parent / "class.csv"), "--course-key",
                     str(handed.parent / "course.key")]) == 0
    rel = tmp_path / "rel"
    assert (rel / f"{EXERCISE}_solutions.ipynb").read_bytes() == (
        ROOT / "solutions" / f"{EXERCISE}.ipynb").read_bytes()
    cells = _cells(rel / "notebooks" / "s01_03_pair_counting.ipynb")
    setup = cells[2].source
    assert "'{\"released\": true, \"attempts_per_hint\": 1}'" in setup
    assert handout.student_variant(KEY, "s01") in setup
    assert "The solutions are released" in cells[1].source and "Hand in" not in cells[1].source
    probe = setup + "\nprint(ex.question('03.2').solution().text.splitlines()[0])\n"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRAYATUL_EDU")}
    shown = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    assert shown.stdout.startswith("Solution of Question 03.2"), shown.stderr


# ------------------------------------------------------------------ the whole cycle
def _close(g, k):
    return abs(g - k) <= 1e-4 + 1e-4 * abs(k)


def expected_points(given, right, qid):
    """Points of one answer to ``qid`` by the documented rules: 03.1 a table (all or
    nothing), the function of 03.5 all or nothing (the right function's source, run on
    the student's own variant, is right on every case), the others numbers (the share of
    entries within tolerance, rounded to 0.01); 03.4's third entry is a letter (right or
    wrong, one share like the numbers'). Each share times the question's points."""
    if given is None:
        return 0.0
    if qid in FUNCTIONS:
        return POINTS[qid] * (given == right)
    if np.ndim(right) == 2:
        g, k = np.ravel(np.asarray(given, float)), np.ravel(np.asarray(right, float))
        return POINTS[qid] * float(len(g) == len(k) and all(_close(a, b) for a, b in zip(g, k)))
    g, k = list(np.ravel(np.asarray(given, object))), list(np.ravel(np.asarray(right, object)))
    if len(g) != len(k):
        return 0.0
    ok = [a == b if isinstance(b, str) else _close(float(a), float(b)) for a, b in zip(g, k)]
    return round(POINTS[qid] * sum(ok) / len(ok), 2)


STUDENTS = [f"s{k:02d}" for k in range(1, 25)]
ODD = {"s13": "a symbolic link", "s14": "a named pipe", "s15": "a folder",
       "s16": "a symbolic link"}


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    d = tmp_path_factory.mktemp("cycle")
    (d / "secret.txt").write_text(CANARY, encoding="utf-8")
    (d / "class.csv").write_text("student\n" + "\n".join(STUDENTS) + "\n", encoding="utf-8")
    assert cli.main(["assign", EXERCISE, "--roster", str(d / "class.csv"),
                     "--out", str(d / "hw")]) == 0
    given = {}          # student -> {qid: the answer checked}
    books = {}          # path in collected/ -> notebook
    for k, sid in enumerate(STUDENTS):
        right = answers(sid)
        mine = {q: right[q] for j, q in enumerate(QIDS) if (k + j) % 3}   # some left blank
        if sid == "s03":
            mine["03.3"] = [right["03.3"][0], right["03.3"][1] + 0.5]      # half right
        if sid == "s04":
            mine["03.2"] = [right["03.2"][0] + 1] + right["03.2"][1:3] + [right["03.2"][3] + 1]
        student, after = sid, None
        if sid == "s09":     # forgot their id: works on the course's data (its values
            # are the course's; its function, run again on s09's cases, is right there)
            student = None
            mine = answers(None)
        if sid == "s11":     # an endless loop after the first question
            after = {"q03-1-check": "while True:\n    pass"}
        given[sid] = mine
        books[sid] = notebook(student, mine, after=after,
                              template=d / "hw" / "notebooks" / f"{sid}_{EXERCISE}.ipynb")
    top = d / "collected"
    paths = {sid: f"section_{'ab'[k % 2]}/{sid}_{EXERCISE}.ipynb"
             for k, sid in enumerate(STUDENTS)}
    paths["s05"] = "section_b/Copy of s05_03 (1) — final!.ipynb"     # odd names
    paths["s06"] = "section_a/late/ünïcode nàme.ipynb"
    paths["s10"] = "section_b/deep/er/=cmd().ipynb"
    for sid, rel in paths.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        if sid in ODD:
            continue
        nbformat.write(books[sid], top / rel)
    os.symlink(d / "secret.txt", top / paths["s13"])
    os.mkfifo(top / paths["s14"])
    (top / paths["s15"]).mkdir()
    os.symlink(d / "gone.ipynb", top / paths["s16"])
    # s07 handed in twice: an older blank file and the newer one with answers
    older = top / "section_b" / "first try" / f"s07_{EXERCISE}.ipynb"
    older.parent.mkdir()
    nbformat.write(notebook("s07", template=d / "hw" / "notebooks" / f"s07_{EXERCISE}.ipynb"),
                   older)
    os.utime(older, (time.time() - 3600,) * 2)
    (top / "section_a" / "stray.ipynb").write_text("{}")     # on nobody's roster
    # the roster: paths, a few base names (as assign wrote them)
    rows = [(rel, sid) for sid, rel in paths.items()]
    rows = [(rel.rsplit("/", 1)[1], sid) if sid in ("s20", "s21", "s22") else (rel, sid)
            for rel, sid in rows] + [(older.relative_to(top).as_posix(), "s07")]
    with open(d / "roster.csv", "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("file", "student")] + rows)
    out = d / "grades"
    code = cli.main(["grade", str(top), "--out", str(out), "--roster", str(d / "roster.csv"),
                     "--exercise", "03", "--jobs", "2", "--cell-timeout", "4",
                     "--sandbox", SANDBOX, "--format", "canvas", "--format", "gradescope",
                     "--canvas-questions", "--assignment", "HW3"])
    assert code == 3            # the stray file needs a look
    data = json.loads((out / "grades.json").read_text())
    return {s["student"]: s for s in data["students"]}, given, out, data


def _expected_total(sid, given):
    if sid in ODD:
        return 0.0
    right = answers(sid)
    return round(sum(expected_points(given[sid].get(q), right[q], q) for q in QIDS), 2)


def test_every_students_total_is_the_one_computed_by_hand(cycle):
    students, given, _, _ = cycle
    assert sorted(students) == sorted(STUDENTS)     # the stray file: listed, not graded
    got = {sid: students[sid]["total"] for sid in STUDENTS}
    assert got == {sid: _expected_total(sid, given) for sid in STUDENTS}
    assert got["s03"] == _expected_total("s03", given) and got["s03"] % 1 == 0.5
    assert 0 < got["s11"] and len({got[s] for s in STUDENTS}) >= 4


def test_honest_students_have_no_problems(cycle):
    students = cycle[0]
    special = {"s07", "s09", "s11"} | set(ODD)
    assert {sid: students[sid]["problems"] for sid in STUDENTS if sid not in special} == {
        sid: [] for sid in STUDENTS if sid not in special}


def test_duplicate_forgotten_id_hung_cell_and_odd_entries_are_reported(cycle):
    students = cycle[0]
    assert students["s07"]["problems"] == [
        "also handed in: section_b/first try/s07_03_pair_counting.ipynb (older, or not a "
        "regular file; not graded: the newest file counts)"]
    assert len(students["s07"]["rows"]) == len(QIDS)
    assert students["s09"]["problems"] == [
        "the notebook declared STUDENT_ID = None (the course's own data), but s09 is graded "
        "on their own variant: answers checked on the course's data score as answers to "
        "other data (set STUDENT_ID to your id)"]
    # its function, checked on the course's data, is the same function on s09's cases
    for row in students["s09"]["rows"]:
        if row["question"] in FUNCTIONS:
            assert (row["points"], row["status"]) == (POINTS[row["question"]], CORRECT)
            assert ("(Checked in the notebook against the course's own data; graded against "
                    f"variant {row['variant']}: your function was run again on "
                    "its cases.)") in row["feedback"]
    assert [p for p in students["s11"]["problems"] if "cut" in p] == [
        'code cell 3 under "03.1 The ideal cluster similarity matrix" did not finish '
        "within 4 s (the cell time limit: an endless loop?) and was "
        "cut; the cells after it ran in a fresh kernel, after the setup cell (what the cells "
        "before it defined was lost)"]
    for sid, what in ODD.items():
        assert students[sid]["problems"] == [f"the entry is {what}; it was not read"]
        assert {r["status"] for r in students[sid]["rows"]} == {grading.NOTEBOOK_ERROR}
    assert cycle[3]["settings"]["unmatched"] == ["section_a/stray.ipynb"]


def test_one_feedback_file_per_student_named_after_student_and_exercise(cycle):
    students, _, out, _ = cycle
    assert sorted(p.name for p in (out / "feedback").iterdir()) == sorted(
        f"{s}_{EXERCISE}.md" for s in students)
    md = (out / "feedback" / f"s11_{EXERCISE}.md").read_text()
    # the cut cell named as Jupyter shows it, in plain text that renders as itself
    assert ('code cell 3 under "03.1 The ideal cluster similarity matrix" did not finish '
            "within 4 s") in md


def test_the_roster_says_which_files_matched_how(cycle):
    settings = cycle[3]["settings"]
    # 25 files on the roster (s07's twice), s20-s22 by base name; the stray file on none
    assert settings["roster_matched"] == {"path": 22, "name": 3, "folder": 0, "canvas": 0,
                                          "unmatched": 1, "conflicts": 0}
    assert settings["not_graded"] == {
        f"section_a/s07_{EXERCISE}.ipynb": [f"section_b/first try/s07_{EXERCISE}.ipynb"]}


def test_nothing_of_the_secret_reaches_any_output(cycle):
    out = cycle[2]
    for path in out.rglob("*"):
        if path.is_file():
            assert CANARY not in path.read_text(encoding="utf-8")


def test_canvas_imports_count_every_point_once(cycle):
    students, given, out, _ = cycle
    total = list(csv.reader(open(out / "canvas.csv", encoding="utf-8")))
    assert total[0] == export.CANVAS_IDENTITY + ["HW3"]
    assert total[1] == ["Points Possible", "", "", "", "", f"{TOTAL:g}"]
    assert {r[2]: float(r[5]) for r in total[2:]} == {
        sid: _expected_total(sid, given) for sid in STUDENTS}
    assert all(r[:2] == ["", ""] and r[3:5] == ["", ""] for r in total[2:])
    per_q = list(csv.reader(open(out / "canvas_questions.csv", encoding="utf-8")))
    assert per_q[0] == export.CANVAS_IDENTITY + [f"HW3 {q}" for q in QIDS]
    assert per_q[1] == ["Points Possible", "", "", "", ""] + [f"{POINTS[q]:g}" for q in QIDS]
    assert sum(float(x) for x in per_q[1][5:]) == float(total[1][5])
    assert {r[2]: round(sum(float(x) for x in r[5:]), 2) for r in per_q[2:]} == {
        r[2]: float(r[5]) for r in total[2:]}


def test_gradescope_score_upload_and_results(cycle):
    students, given, out, _ = cycle
    table = list(csv.reader(open(out / "gradescope_scores.csv", encoding="utf-8")))
    assert table[0] == ["Name", "SID", "Email", "Total Score"]
    got = {r[1]: r for r in table[1:]}
    assert set(got) == set(students)
    for sid in STUDENTS:
        assert got[sid] == [sid, sid, "", f"{_expected_total(sid, given):g}"]
    assert sorted(p.name for p in (out / "gradescope").iterdir()) == sorted(students)
    res = json.loads((out / "gradescope" / "s07" / "results.json").read_text())
    assert res["score"] == students["s07"]["total"] and len(res["tests"]) == len(QIDS)
