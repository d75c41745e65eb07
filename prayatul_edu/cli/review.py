"""``prayatul-edu review GRADES_DIR``: the free-text answers of a grades folder on one
page, to read and give points to (on :mod:`prayatul_edu.grading.review`).

Writes ``GRADES_DIR/review.html`` (or ``--out FILE``): question by question the prompt,
the model answer and every student's answer, with fields for points and a comment; its
button downloads ``overrides.csv`` for ``prayatul-edu export GRADES_DIR --overrides``.
"""
from __future__ import annotations

import sys

from ..grading.review import write_review

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("grades", metavar="GRADES_DIR", help="a folder written by grade")
    parser.add_argument("--exercise", metavar="FOLDER",
                        help="your exercise (its folder or questions.py), for the prompts "
                             "and model answers (default: the one the grades were made "
                             "with)")
    parser.add_argument("--out", metavar="FILE", help="the page (default: "
                        "GRADES_DIR/review.html)")
    parser.add_argument("--all", action="store_true", dest="every",
                        help="every question's answers with the grader's verdict, not only "
                             "the free-text ones (to correct any answer by hand)")


def run(args) -> int:
    try:
        path = write_review(args.grades, questions=args.exercise, out=args.out,
                            every=args.every)
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"review: {path} (open it in a browser; its button downloads overrides.csv for "
          f"prayatul-edu export {args.grades} --overrides overrides.csv)", file=sys.stderr)
    return 0
