"""Grades where instructors put them: Canvas's gradebook CSV, Gradescope's score upload
CSV and its autograder results.json.

* ``canvas.csv``: the columns of Canvas's gradebook import, ``Student``, ``ID``,
  ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column for the assignment
  (``--assignment``, default the exercise's name); the second row is ``Points
  Possible``. Students are matched on ``SIS User ID`` (the id the grader used); the
  other identity columns stay empty.
* ``canvas_questions.csv`` (``canvas_questions``): the same identity columns, then one
  column per question (``NAME 03.1``, ...) and no total: importing it makes one
  Canvas assignment per question whose points add up to the total. Import one of
  the two files, never both (that would count every point twice).
* ``gradescope_scores.csv``: Gradescope's score upload (an assignment's "Upload
  scores"): ``Name``, ``SID`` (the grader's id, what Gradescope matches on),
  ``Email`` (empty) and ``Total Score``.
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

__all__ = ["canvas_csv", "gradescope_results", "gradescope_scores_csv", "write_exports",
           "FORMATS", "CANVAS_IDENTITY", "GRADESCOPE_COLUMNS"]

FORMATS = ("canvas", "gradescope")
#: Canvas's identity columns, in the order of its gradebook export.
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def _assignment(reports, assignment: str | None) -> str:
    if assignment:
        return assignment
    names = sorted({r.exercise for r in reports if r.exercise})
    return " + ".join(names) if names else "prayatul-edu"


def _canvas_table(header, possible, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerow(["Points Possible", "", "", "", ""] + possible)
    for student, scores in rows:
        w.writerow([csv_safe(v) for v in ["", "", student, "", ""]] + scores)
    return buf.getvalue()


def canvas_csv(reports: list[StudentReport], assignment: str | None = None,
               questions: bool = False) -> str:
    """The gradebook import CSV: the total (see the module doc); ``questions=True``: the
    questions instead, one column each, and no total (``canvas_questions.csv``)."""
    name = _assignment(reports, assignment)
    if questions:
        qids = sorted({x["question"] for r in reports for x in r.rows if x["question"] != "-"})
        maxima = {x["question"]: x["max_points"] for r in reports for x in r.rows}
        got = [{x["question"]: x["points"] for x in r.rows} for r in reports]
        return _canvas_table(CANVAS_IDENTITY + [f"{name} {q}" for q in qids],
                             [f"{maxima[q]:g}" for q in qids],
                             [(r.student, [f"{g[q]:g}" if q in g else "" for q in qids])
                              for r, g in zip(reports, got)])
    possible = max((r.max_total for r in reports), default=0)
    return _canvas_table(CANVAS_IDENTITY + [name], [f"{possible:g}"],
                         [(r.student, [f"{r.total:g}"]) for r in reports])


#: The columns of ``gradescope_scores.csv``.
GRADESCOPE_COLUMNS = ["Name", "SID", "Email", "Total Score"]


def gradescope_scores_csv(reports: list[StudentReport]) -> str:
    """Gradescope's score upload CSV (see the module doc)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(GRADESCOPE_COLUMNS)
    for r in reports:
        w.writerow([csv_safe(r.student), csv_safe(r.student), "", f"{r.total:g}"])
    return buf.getvalue()


def gradescope_results(r: StudentReport) -> dict:
    """Gradescope's ``results.json`` for one student (see the module doc)."""
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
                  canvas_questions: bool = False) -> None:
    out = Path(out)
    if "canvas" in formats:
        write_atomic(out / "canvas.csv", canvas_csv(reports, assignment))
        if canvas_questions:
            write_atomic(out / "canvas_questions.csv", canvas_csv(reports, assignment, True))
    if "gradescope" in formats:
        write_atomic(out / "gradescope_scores.csv", gradescope_scores_csv(reports))
        for r in reports:
            folder = out / "gradescope" / r.student
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / "results.json", json.dumps(gradescope_results(r), indent=1))
