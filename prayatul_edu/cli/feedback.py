"""``prayatul-edu feedback GRADES_DIR --out DIR``: each student's feedback delivered (on
:mod:`prayatul_edu.grading.delivery`).

Writes ``DIR/STUDENT/feedback.html`` and ``feedback.md`` for every graded student
(``--layout nbgrader``: ``DIR/STUDENT/ASSIGNMENT/``) and, when the roster came from
Canvas, ``DIR/canvas_feedback.zip`` for the assignment's "Re-upload Submissions".
"""
from __future__ import annotations

import sys

from ..grading.delivery import LAYOUTS, deliver

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("grades", metavar="GRADES_DIR", help="a folder written by grade "
                        "(run export first to bring in corrections)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the folder of the students' feedback folders")
    parser.add_argument("--layout", choices=LAYOUTS, default="folders",
                        help="folders (default): DIR/STUDENT/; nbgrader: "
                             "DIR/STUDENT/ASSIGNMENT/, as nbgrader's feedback folder")


def run(args) -> int:
    try:
        done = deliver(args.grades, args.out, layout=args.layout)
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"feedback: {len(done.students)} student(s) in {args.out}/"
          + (f"; {done.zip} for Canvas's Re-upload Submissions" if done.zip else ""),
          file=sys.stderr)
    if done.not_in_zip:
        print("not in the Canvas zip (no Canvas id on the roster): "
              + ", ".join(done.not_in_zip), file=sys.stderr)
    return 0
