#!/usr/bin/env python3
"""Generate the student notebooks exercises/NN_topic.ipynb from solutions/NN_topic.ipynb.

    python scripts/make_exercises.py            # write exercises/ from solutions/
    python scripts/make_exercises.py --check    # exit 1 if exercises/ is not up to date

solutions/ is the single source; the rules (solution regions replaced by blanks, one
answer line per cell) are those of :mod:`prayatul_edu.exercises.generator`, which an
instructor's own exercise follows too.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from prayatul_edu.exercises.generator import make_exercise, strip_source

__all__ = ["strip_source", "make_exercise", "expected_exercises", "main"]

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"


def expected_exercises() -> dict[Path, str]:
    """exercises/ path -> the text the command writes there."""
    import nbformat

    out = {}
    for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        text = nbformat.writes(make_exercise(nb, path.stem))
        out[EXERCISES / path.name] = text if text.endswith("\n") else text + "\n"
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if exercises/ differs from what would be "
                             "generated")
    args = parser.parse_args(argv)
    expected = expected_exercises()
    stale = [p for p, text in expected.items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    extra = [p for p in sorted(EXERCISES.glob("[0-9][0-9]_*.ipynb")) if p not in expected]
    if args.check:
        for p in stale:
            print(f"out of date: exercises/{p.name}", file=sys.stderr)
        for p in extra:
            print(f"no solution for: exercises/{p.name}", file=sys.stderr)
        return 1 if stale or extra else 0
    EXERCISES.mkdir(exist_ok=True)
    for p in stale:
        p.write_text(expected[p], encoding="utf-8")
        print(f"wrote exercises/{p.name}")
    for p in extra:
        print(f"warning: exercises/{p.name} has no solution notebook", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
