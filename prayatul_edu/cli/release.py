"""``prayatul-edu release``: hand out an exercise's solutions when you decide (on
:mod:`prayatul_edu.grading.handout`).

Writes ``DIR/NN_topic_solutions.ipynb`` (the worked solutions on the course's data)
and, with ``--roster``, ``DIR/notebooks/STUDENT_NN_topic.ipynb``: each student's
notebook again, with ``solution()`` and ``key()`` open for their own variant.
"""
from __future__ import annotations

import sys

from ..grading.authored import is_path, release_authored
from ..grading.handout import read_course_key, release

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("exercise", metavar="EXERCISE",
                        help="the exercise whose solutions are released: 03 or 03_pair_counting, "
                             "or the folder of your own (questions.py and solutions.ipynb)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the files")
    parser.add_argument("--roster", metavar="FILE",
                        help="the class (a CSV with a column student): also each student's "
                             "notebook with their variant's solutions open")
    parser.add_argument("--course-key", metavar="FILE",
                        help="the course key the assignment was handed out with")
    parser.add_argument("--solutions", metavar="DIR",
                        help="folder of the solutions (default: solutions/)")
    parser.add_argument("--published", metavar="DIR",
                        help="folder of the published exercises (default: exercises/)")


def run(args) -> int:
    try:
        key = read_course_key(args.course_key) if args.course_key else None
        hand_out = release_authored if is_path(args.exercise) else release
        written = hand_out(args.exercise, args.out, roster=args.roster, course_key=key,
                           solutions=args.solutions, published=args.published)
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"released: {len(written)} file(s) in {args.out}", file=sys.stderr)
    return 0
