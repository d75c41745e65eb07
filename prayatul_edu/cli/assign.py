"""``prayatul-edu assign``: hand out an exercise, one notebook per student (on
:mod:`prayatul_edu.grading.handout`).

Writes ``DIR/notebooks/STUDENT_NN_topic.ipynb`` for every student of the roster
(assignment mode on inside each notebook, the student's id and variant filled in,
instructions for installing and handing in), ``DIR/roster.csv`` for
``prayatul-edu grade --roster`` and ``DIR/README.md`` for your records.
"""
from __future__ import annotations

import sys

from ..exercises.assignment import Policy
from ..grading.authored import assign_authored, is_path
from ..grading.handout import assign, read_course_key
from ..grading.late import keep_due, parse_due

__all__ = ["add_arguments", "run", "shown_due"]


def add_arguments(parser) -> None:
    parser.add_argument("exercise", metavar="EXERCISE",
                        help="the exercise handed out: 03 or 03_pair_counting, or the folder "
                             "of your own (questions.py and solutions.ipynb)")
    parser.add_argument("--roster", required=True, metavar="FILE",
                        help="the class: a CSV with a column student (one row per "
                             "student), or Canvas's gradebook export or Gradescope's "
                             "roster as the LMS writes it (no converter)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="a new folder for notebooks/, roster.csv and README.md")
    parser.add_argument("--course-key", metavar="FILE",
                        help="the course key you keep (never handed out): each student's "
                             "variant is then a token only the key computes from their id; "
                             "without it the variant is the id itself")
    parser.add_argument("--due", metavar="WHEN", help="the due date, ISO 8601: 2026-12-01T23:59 "
                        "(UTC unless a zone is given: 2026-12-01T23:59+01:00); the notebooks "
                        "show it, grade --late reads it from assignment.json")
    parser.add_argument("--title", metavar="TEXT", help="the assignment's title")
    parser.add_argument("--wheel", metavar="FILE",
                        help="the prayatul-edu wheel students install (copied beside the "
                             "notebooks and named in their instructions)")
    parser.add_argument("--attempts-per-hint", type=int, default=Policy().attempts_per_hint,
                        metavar="N", help="checks before each next hint (default %(default)s)")
    parser.add_argument("--published", metavar="DIR",
                        help="folder of the published exercises (default: exercises/)")


def shown_due(text: str) -> str:
    """The due date ``--due`` (one form, ISO 8601, refused otherwise: ValueError naming
    ``due``) as the notebooks show it: ``2026-12-01 23:59 UTC``."""
    when = parse_due(text)
    zone = "UTC" if when.utcoffset().total_seconds() == 0 else f"UTC{when:%z}"
    return f"{when:%Y-%m-%d %H:%M} {zone}"


def run(args) -> int:
    try:
        if args.attempts_per_hint < 0:
            raise ValueError(f"attempts-per-hint: must be 0 or more, got {args.attempts_per_hint}")
        key = read_course_key(args.course_key) if args.course_key else None
        due = shown_due(args.due) if args.due else None
        authored = is_path(args.exercise)
        hand_out = assign_authored if authored else assign
        said = {"progress": lambda line: print(line, file=sys.stderr, flush=True)} \
            if authored else {}
        written = hand_out(args.exercise, args.roster, args.out, course_key=key, due=due,
                           **said,
                           title=args.title, published=args.published, wheel=args.wheel,
                           attempts_per_hint=args.attempts_per_hint)
        keep_due(args.out, args.due)
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"assigned to {len(written)} student(s): {args.out}/notebooks/ (hand these out), "
          f"{args.out}/roster.csv (for grade --roster), {args.out}/README.md", file=sys.stderr)
    return 0
