"""``prayatul-edu grade``: the command line of :mod:`prayatul_edu.grading`."""
from __future__ import annotations

import sys
from pathlib import Path

from ..exercises._base import QUESTIONS
from ..grading import CELL_TIMEOUT, NOTEBOOK_TIMEOUT, OUTPUT_CAP, grade_batch

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    parser.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                        help="students' notebooks (.ipynb) or folders of them")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="folder for grades.csv, grades.json and feedback/")
    parser.add_argument("--cell-timeout", type=float, default=CELL_TIMEOUT, metavar="S",
                        help=f"seconds a cell may run (default {CELL_TIMEOUT})")
    parser.add_argument("--notebook-timeout", type=float, default=NOTEBOOK_TIMEOUT,
                        metavar="S", help=f"seconds a notebook may run (default "
                                          f"{NOTEBOOK_TIMEOUT})")
    parser.add_argument("--output-cap", type=int, default=OUTPUT_CAP, metavar="CHARS",
                        help=f"characters of output kept per notebook (default {OUTPUT_CAP})")
    parser.add_argument("--id-from", choices=("notebook", "filename"), default="notebook",
                        help="whose variant: the id given to ex.setup() in the notebook "
                             "(default) or the file name (take-home work)")
    parser.add_argument("--exercise", metavar="NN_topic",
                        help="grade the questions of this exercise (default: the notebook's "
                             "metadata)")


def _collect(items) -> list[Path]:
    paths = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            paths += sorted(q for q in p.glob("*.ipynb") if ".ipynb_checkpoints" not in q.parts)
        else:
            paths.append(p)
    return paths


def run(args) -> int:
    paths = _collect(args.submissions)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"submissions: not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    if not paths:
        print("submissions: no notebook found", file=sys.stderr)
        return 2
    if args.exercise and not any(q.split(".")[0] == args.exercise.split("_")[0]
                                 for q in QUESTIONS):
        print(f"exercise: no questions for {args.exercise!r}", file=sys.stderr)
        return 2
    for name, value in (("cell-timeout", args.cell_timeout),
                        ("notebook-timeout", args.notebook_timeout),
                        ("output-cap", args.output_cap)):
        if value <= 0:
            print(f"{name}: must be positive, got {value}", file=sys.stderr)
            return 2
    reports = grade_batch(paths, args.out, cell_timeout=args.cell_timeout,
                          notebook_timeout=args.notebook_timeout, output_cap=args.output_cap,
                          id_from=args.id_from, exercise=args.exercise)
    bad = sum(1 for r in reports if r.problems)
    print(f"graded {len(reports)} notebook(s), {bad} with problems: {args.out}/grades.csv, "
          "grades.json, feedback/", file=sys.stderr)
    return 0
