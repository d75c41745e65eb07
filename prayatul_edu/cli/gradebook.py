"""``prayatul-edu gradebook OUT_A OUT_B ... --out book.csv``: the term's grades in one
table (on :mod:`prayatul_edu.grading.gradebook`): a row per student, a column per
assignment, a total; a student missing from an assignment is shown as missing (an
empty cell), not 0, unless ``--missing-as-zero``; ``--roster`` lists every student of
the class (Canvas's and Gradescope's rosters read as they are) with their name.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..grading.gradebook import gradebook_csv, parse_weights
from ..grading.report import write_atomic

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("folders", nargs="+", metavar="GRADES_DIR",
                        help="folders written by grade (or export), one per assignment")
    parser.add_argument("--out", required=True, metavar="FILE", help="the gradebook CSV")
    parser.add_argument("--weights", metavar="W1,W2,...", help="one weight per folder: adds "
                        "a column 'weighted %%'")
    parser.add_argument("--roster", metavar="FILE", help="the class roster (a CSV with a "
                        "column student, Canvas's gradebook export or Gradescope's roster): "
                        "every student of it is a row, with their name")
    parser.add_argument("--missing-as-zero", action="store_true", help="a missing "
                        "assignment counts 0 points (default: left empty)")


def run(args) -> int:
    try:
        weights = parse_weights(args.weights, len(args.folders))
        text = gradebook_csv(args.folders, weights=weights,
                             missing_as_zero=args.missing_as_zero, roster=args.roster)
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    write_atomic(Path(args.out), text)
    print(f"gradebook: {text.count(chr(10)) - 1} student(s), {len(args.folders)} "
          f"assignment(s): {args.out}", file=sys.stderr)
    return 0
