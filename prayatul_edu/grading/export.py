"""Grades where instructors put them: Canvas's gradebook CSV, Gradescope's results.json.

* ``canvas.csv``: the columns of Canvas's gradebook import, ``Student``, ``ID``,
  ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column per assignment
  (``--assignment``, default the exercise's name) and, with ``canvas_questions``,
  one per question; the second row is ``Points Possible``. Students are matched on
  ``SIS User ID`` (the id the grader used); the other identity columns stay empty.
* ``gradescope/STUDENT/results.json``: Gradescope's autograder results, one test per
  question with ``name``, ``number``, ``score``, ``max_score``, ``status`` and
  ``output`` (the feedback), the total ``score``, ``execution_time`` and an
  ``output`` listing the notebook's problems.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from .report import StudentReport, csv_safe, write_atomic

__all__ = ["canvas_csv", "gradescope_results", "write_exports", "FORMATS", "CANVAS_IDENTITY"]

FORMATS = ("canvas", "gradescope")
#: Canvas's identity columns, in the order of its gradebook export.
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def _assignment(reports, assignment: str | None) -> str:
    if assignment:
        return assignment
    names = sorted({r.exercise for r in reports if r.exercise})
    return " + ".join(names) if names else "prayatul-edu"


def canvas_csv(reports: list[StudentReport], assignment: str | None = None,
               questions: bool = False) -> str:
    """The gradebook import CSV (see the module doc)."""
    name = _assignment(reports, assignment)
    qids = sorted({x["question"] for r in reports for x in r.rows if x["question"] != "-"})
    header = CANVAS_IDENTITY + [name] + ([f"{name} {q}" for q in qids] if questions else [])
    maxima = {x["question"]: x["max_points"] for r in reports for x in r.rows}
    possible = max((r.max_total for r in reports), default=0)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerow(["Points Possible", "", "", "", ""] + [f"{possible:g}"]
               + ([f"{maxima[q]:g}" for q in qids] if questions else []))
    for r in reports:
        got = {x["question"]: x["points"] for x in r.rows}
        w.writerow([csv_safe(v) for v in ["", "", r.student, "", "", f"{r.total:g}"]]
                   + ([f"{got[q]:g}" if q in got else "" for q in qids] if questions else []))
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
        write_atomic(out / "canvas.csv", canvas_csv(reports, assignment, canvas_questions))
    if "gradescope" in formats:
        for r in reports:
            folder = out / "gradescope" / r.student
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / "results.json", json.dumps(gradescope_results(r), indent=1))
