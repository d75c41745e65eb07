"""``prayatul-edu export GRADES_DIR``: write a grades folder's files again from its
grades.json, without running any notebook (on :mod:`prayatul_edu.grading.finish`).

Applies your corrections (``--overrides FILE``: a CSV student, question, points,
reason; kept with their reason and time in grades.json and shown in the feedback) and
a late policy (``--late``), then rewrites grades.json, grades.csv, feedback/, the
Canvas and Gradescope exports and the class report (report.md, report.html).
"""
from __future__ import annotations

import sys

from ..grading.export import FORMATS, MISSING_POLICIES
from ..grading.finish import finish

__all__ = ["add_arguments", "run", "add_late_arguments", "print_not_applied", "LATE_OPTIONS"]


#: The options ``grade`` and ``export`` share: (flag, metavar, destination, help).
LATE_OPTIONS = (
    ("--overrides", "FILE", "overrides", "your corrections: a CSV with the columns student, "
     "question, points, reason (kept with their reason and time in grades.json)"),
    ("--late", "POLICY", "late", "none (default), flag, or penalty:10%%/day,cap:50%% (each "
     "day or part of one takes 10%% of the points, at most 50%%)"),
    ("--due", "WHEN", "due", "the due date (2026-12-01T23:59, UTC unless a zone is given) or "
     "the assignment's record assignment.json written by assign --due"),
    ("--submissions", "FILE", "submission_times", "when each student handed in, from the "
     "LMS: a CSV with the columns student and submitted_at (without it: Canvas's late mark "
     "in the file names, else unknown)"))


def add_late_arguments(parser) -> None:
    """The options ``grade`` and ``export`` share: corrections, late and missing work."""
    group = parser.add_argument_group("corrections, late and missing work")
    for flag, metavar, dest, help_ in LATE_OPTIONS:
        group.add_argument(flag, metavar=metavar, dest=dest, help=help_)
    group.add_argument("--missing", choices=tuple(MISSING_POLICIES), default=None,
                       help="the points of a student of the roster who handed in nothing, "
                            "in the exports: blank (the default: no grade) or zero")


def add_arguments(parser) -> None:
    parser.add_argument("grades", metavar="GRADES_DIR", help="a folder written by grade")
    add_late_arguments(parser)
    parser.add_argument("--format", action="append", choices=FORMATS, dest="formats",
                        help="the exports to write (default: those grade wrote)")
    parser.add_argument("--assignment", metavar="NAME",
                        help="the assignment's column name in canvas.csv (default: as before)")
    parser.add_argument("--canvas-questions", action="store_true", default=None,
                        help="also canvas_questions.csv (a column per question)")


def run(args) -> int:
    try:
        data = finish(args.grades, overrides=args.overrides, late=args.late, due=args.due,
                      submissions=args.submission_times, formats=args.formats,
                      assignment=args.assignment, canvas_questions=args.canvas_questions,
                      missing=args.missing)
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    corrected = sum(len(s.get("overrides", [])) for s in data["students"])
    late = sum(1 for s in data["students"] if (s.get("late") or {}).get("late"))
    print(f"exported {len(data['students'])} student(s), {corrected} correction(s), {late} "
          f"late: {args.grades}/grades.json, report.html, report.md", file=sys.stderr)
    print_not_applied(data)
    return 0


def print_not_applied(data: dict) -> None:
    """Name the students of ``--overrides`` and ``--submissions`` that are not in these
    grades (their rows were not applied)."""
    for what, key in (("overrides", "overrides_skipped"),
                      ("submissions", "submissions_skipped")):
        if data.get(key):
            print(f"{what}: not in these grades, not applied: " + ", ".join(data[key]),
                  file=sys.stderr)
