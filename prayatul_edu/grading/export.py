"""Grades where instructors put them: Canvas's gradebook CSV, Gradescope's score upload
CSV and its autograder results.json.

* ``canvas.csv``: the columns of Canvas's gradebook import, ``Student``, ``ID``,
  ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column for the assignment
  (``--assignment``, default the exercise's name); the second row is ``Points
  Possible``. The identity columns come from the roster (``uploader.Person``,
  the columns ``prayatul-edu assign`` copies from the class roster): ``Student`` its
  ``name``, ``ID`` its ``canvas_id``, ``SIS User ID`` its ``sis_id`` (without one, and
  without a Canvas id or login to match on: the id the grader used, which Canvas then
  matches on), ``SIS Login ID`` and ``Section``;
  a column the roster does not have stays empty.
* ``canvas_questions.csv`` (``canvas_questions``): the same identity columns, then one
  column per question (``NAME 03.1``, ...) and no total: importing it makes one
  Canvas assignment per question whose points add up to the total. Import one of
  the two files, never both (that would count every point twice).
* ``gradescope_scores.csv``: Gradescope's score upload (an assignment's "Upload
  scores"): ``Name`` (the roster's name, else the grader's id), ``SID`` (the roster's
  ``sis_id``, else the grader's id), ``Email`` (the roster's) and ``Total Score``.

Only graded students are exported with their points: a file nobody could be named
for (unmatched, a conflict) has no row anywhere, and :func:`write_exports` leaves out a
report whose student is a stand-in (``invalid-...``). A student of the roster who handed
in nothing (``missing``) has a row in ``canvas.csv``, ``canvas_questions.csv`` and
``gradescope_scores.csv`` whose points are empty (the policy ``blank``, the default:
Canvas and Gradescope then show no grade) or 0 (``zero``); no ``results.json``.
* ``gradescope/STUDENT/results.json``: Gradescope's autograder results, one test per
  question with ``name``, ``number``, ``score``, ``max_score``, ``status`` and
  ``output`` (the feedback), the total ``score``, ``execution_time`` and an
  ``output`` listing the notebook's problems. These are what an autograder writes
  inside Gradescope (for a course that runs the grader there); Gradescope has no
  bulk upload for them.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from .report import StudentReport, csv_safe, write_atomic
from .uploader import Person

__all__ = ["canvas_csv", "gradescope_results", "gradescope_scores_csv", "write_exports",
           "FORMATS", "CANVAS_IDENTITY", "GRADESCOPE_COLUMNS", "MISSING_POLICIES",
           "missing_cell"]

FORMATS = ("canvas", "gradescope")
#: Canvas's identity columns, in the order of its gradebook export.
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def _assignment(reports, assignment: str | None) -> str:
    if assignment:
        return assignment
    names = sorted({r.exercise for r in reports if r.exercise})
    return " + ".join(names) if names else "prayatul-edu"


def _person(people, student: str) -> Person:
    return (people or {}).get(student) or Person(student)


#: What a missing student's points are, by policy (``--missing``).
MISSING_POLICIES = {"blank": "", "zero": "0"}


def missing_cell(policy: str) -> str:
    """The points cell of a student who handed in nothing: ``""`` or ``"0"``."""
    if policy not in MISSING_POLICIES:
        raise ValueError(f"missing: expected {' or '.join(MISSING_POLICIES)}, got {policy!r}")
    return MISSING_POLICIES[policy]


def _canvas_table(header, possible, rows, people) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_safe(v) for v in header])   # the assignment's name too
    w.writerow(["Points Possible", "", "", "", ""] + possible)
    for student, scores in rows:
        p = _person(people, student)
        sis = p.sis_id or ("" if p.canvas_id or p.sis_login else student)  # Canvas's own
        w.writerow([csv_safe(v) for v in [p.name, p.canvas_id, sis, p.sis_login,
                                          p.section]] + scores)
    return buf.getvalue()


def canvas_csv(reports: list[StudentReport], assignment: str | None = None,
               questions: bool = False, people: dict | None = None, missing=(),
               missing_policy: str = "blank") -> str:
    """The gradebook import CSV: the total (see the module doc); ``questions=True``: the
    questions instead, one column each, and no total (``canvas_questions.csv``);
    ``people``: student -> ``uploader.Person`` (the identity columns); ``missing``: the
    students who handed in nothing, their points by ``missing_policy``.

    Examples
    --------
    >>> from prayatul_edu.grading import StudentReport, canvas_csv
    >>> r = StudentReport("s1001", "s1001_01_matching.ipynb", None, exercise="01_matching",
    ...                   rows=[{"question": "01.1", "points": 2, "max_points": 2},
    ...                         {"question": "01.2", "points": 1, "max_points": 3}])
    >>> print(canvas_csv([r], missing=["s1002"]))   # s1002 handed in nothing
    Student,ID,SIS User ID,SIS Login ID,Section,01_matching
    Points Possible,,,,,5
    ,,s1001,,,3
    ,,s1002,,,
    <BLANKLINE>
    """
    name = _assignment(reports, assignment)
    cell = missing_cell(missing_policy)
    if questions:
        qids = sorted({x["question"] for r in reports for x in r.rows if x["question"] != "-"})
        maxima = {x["question"]: x["max_points"] for r in reports for x in r.rows}
        got = [{x["question"]: x["points"] for x in r.rows} for r in reports]
        return _canvas_table(CANVAS_IDENTITY + [f"{name} {q}" for q in qids],
                             [f"{maxima[q]:g}" for q in qids],
                             [(r.student, [f"{g[q]:g}" if q in g else "" for q in qids])
                              for r, g in zip(reports, got)]
                             + [(sid, [cell for _ in qids]) for sid in missing], people)
    possible = max((r.max_total for r in reports), default=0)
    return _canvas_table(CANVAS_IDENTITY + [name], [f"{possible:g}"],
                         [(r.student, [f"{r.total:g}"]) for r in reports]
                         + [(sid, [cell]) for sid in missing], people)


#: The columns of ``gradescope_scores.csv``.
GRADESCOPE_COLUMNS = ["Name", "SID", "Email", "Total Score"]


def gradescope_scores_csv(reports: list[StudentReport], people: dict | None = None,
                          missing=(), missing_policy: str = "blank") -> str:
    """Gradescope's score upload CSV (see the module doc)."""
    cell = missing_cell(missing_policy)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(GRADESCOPE_COLUMNS)
    for r in reports:
        p = _person(people, r.student)
        w.writerow([csv_safe(v) for v in (p.name or r.student, p.sis_id or r.student,
                                          p.email)] + [f"{r.total:g}"])
    for sid in missing:
        p = _person(people, sid)
        w.writerow([csv_safe(v) for v in (p.name or sid, p.sis_id or sid, p.email, cell)])
    return buf.getvalue()


def gradescope_results(r: StudentReport) -> dict:
    """Gradescope's ``results.json`` for one student (see the module doc).

    Examples
    --------
    >>> from prayatul_edu.grading import StudentReport, gradescope_results
    >>> r = StudentReport("s1001", "s1001_01_matching.ipynb", None, exercise="01_matching",
    ...                   rows=[{"question": "01.1", "points": 2, "max_points": 2,
    ...                          "status": "correct", "feedback": "Right."},
    ...                         {"question": "01.2", "points": 1, "max_points": 3,
    ...                          "status": "partly correct", "feedback": "One of three."}])
    >>> results = gradescope_results(r)
    >>> results["score"], [(t["number"], t["status"]) for t in results["tests"]]
    (3, [('01.1', 'passed'), ('01.2', 'failed')])
    """
    tests = []
    for k, x in enumerate(r.rows, 1):
        full = x["max_points"] > 0 and x["points"] >= x["max_points"]
        tests.append({"name": f"{x['question']} {x.get('title', '')}".strip(),
                      "number": x["question"], "score": x["points"],
                      "max_score": x["max_points"], "status": "passed" if full else "failed",
                      "output": f"{x['status']}: {x['feedback']}", "visibility": "visible"})
    problems = "\n".join(f"- {p}" for p in r.problems)
    return {"score": r.total, "execution_time": round(r.seconds),
            "output": (f"Graded as {r.student}, "
                       f"{'the course data' if r.variant is None else 'variant ' + r.variant}."
                       + (f"\nProblems with the notebook:\n{problems}" if problems else "")),
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


def write_exports(reports, out: Path, formats, *, assignment: str | None = None,
                  canvas_questions: bool = False, people: dict | None = None, missing=(),
                  missing_policy: str = "blank") -> list[Path]:
    """Write the exports ``formats`` of the graded ``reports`` in ``out``, the identity
    columns from ``people`` (student -> ``uploader.Person``, see
    :func:`~.uploader.read_people`); return the files written. A report whose student
    is a stand-in (``invalid-...``: nobody was named for the file) is left out. An
    export of an earlier writing that is not written now (another format, no
    ``canvas_questions``, a student no longer graded) is removed: no export in ``out``
    disagrees with these grades. ``missing``: the students of the roster who handed in
    nothing, exported with points by ``missing_policy`` (see the module doc)."""
    missing = {"missing": list(missing), "missing_policy": missing_policy}
    out = Path(out)
    reports = [r for r in reports if not r.student.startswith("invalid-")]
    written = []
    if "canvas" in formats:
        written.append(out / "canvas.csv")
        write_atomic(written[-1], canvas_csv(reports, assignment, people=people, **missing))
        if canvas_questions:
            written.append(out / "canvas_questions.csv")
            write_atomic(written[-1], canvas_csv(reports, assignment, True, people, **missing))
    if "gradescope" in formats:
        written.append(out / "gradescope_scores.csv")
        write_atomic(written[-1], gradescope_scores_csv(reports, people, **missing))
        for r in reports:
            folder = out / "gradescope" / r.student
            folder.mkdir(parents=True, exist_ok=True)
            written.append(folder / "results.json")
            write_atomic(written[-1], json.dumps(gradescope_results(r), indent=1))
    _remove_others(out, written)
    return written


def _remove_others(out: Path, written: list[Path]) -> None:
    """Remove the exports in ``out`` that are not among ``written`` (stale): the grader's
    files only (``gradescope/STUDENT/results.json``; a folder once it is empty), never a
    file of the instructor's beside them."""
    for name in ("canvas.csv", "canvas_questions.csv", "gradescope_scores.csv"):
        if out / name not in written:
            (out / name).unlink(missing_ok=True)
    results = out / "gradescope"
    if results.is_dir() and not results.is_symlink():
        for folder in results.iterdir():
            stale = folder / "results.json"
            if stale in written or not folder.is_dir() or folder.is_symlink():
                continue
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
            if not any(folder.iterdir()):
                folder.rmdir()
        if not any(results.iterdir()):
            results.rmdir()
