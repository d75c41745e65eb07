#!/usr/bin/env python3
"""Generate the student notebooks exercises/NN_topic.ipynb from solutions/NN_topic.ipynb.

    python scripts/make_exercises.py            # write exercises/ from solutions/
    python scripts/make_exercises.py --check    # exit 1 if exercises/ is not up to date

solutions/ is the single source. Marked solution regions are replaced by a
placeholder, so that the exercise still runs top to bottom, blank:

* a line marked ``# SOLUTION``: ``name = <expr>  # SOLUTION`` becomes
  ``name = ...  # your answer here`` (``...`` is "not attempted" for ``check``);
  a list ``[a, b, c]`` becomes ``[..., ..., ...]``, so the student sees how many
  numbers to give, and ``# SOLUTION: text`` puts ``# text`` in place of
  ``# your answer here``; any other such line becomes ``pass  # your code here``;
* the lines from ``# BEGIN SOLUTION`` to ``# END SOLUTION`` become
  ``# your code here`` (``pass  # your code here`` when indented);
* a cell tagged ``solution`` is replaced by an empty one of the same kind
  (``# your code here`` or ``*Your answer here.*``).

A cell has one answer line: a placeholder that a later line of the same cell
assigns again would throw the student's answer away, so it is an error.
Outputs and execution counts are cleared. The notebook metadata records the
exercise, its questions and its cell ids (``prayatul_edu``), which the grader
uses to report deleted cells.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"

_ASSIGN = re.compile(r"^(\s*)([A-Za-z_][\w\[\]\"', .]*?)\s*=(?!=)\s*(.+?)\s*"
                     r"#\s*SOLUTION\s*(?::\s*(.*?))?\s*$")
_LINE = re.compile(r"#\s*SOLUTION\s*(:.*)?$")
_PLACEHOLDER = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(\.\.\.|\[(\.\.\.,\s*)*\.\.\.\])\s*(#.*)?$")
_TOP_ASSIGN = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)")
_BEGIN = re.compile(r"^(\s*)#\s*BEGIN SOLUTION\s*$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")


def strip_source(source: str, where: str = "cell") -> str:
    """The source with its solution regions replaced by placeholders."""
    out, indent = [], None
    for line in source.split("\n"):
        if indent is not None:                      # inside BEGIN ... END
            if _BEGIN.match(line):
                raise ValueError(f"{where}: '# BEGIN SOLUTION' inside another region")
            if _END.match(line):
                out.append(f"{indent}pass  # your code here" if indent else "# your code here")
                indent = None
            continue
        begin = _BEGIN.match(line)
        if begin:
            indent = begin.group(1)
            continue
        if _END.match(line):
            raise ValueError(f"{where}: '# END SOLUTION' without '# BEGIN SOLUTION'")
        if _LINE.search(line):
            m = _ASSIGN.match(line)
            if m:
                comment = m.group(4) or "your answer here"
                out.append(f"{m.group(1)}{m.group(2)} = {_blank(m.group(3))}  # {comment}")
            else:
                lead = re.match(r"^\s*", line).group(0)
                out.append(f"{lead}pass  # your code here")
            continue
        out.append(line)
    if indent is not None:
        raise ValueError(f"{where}: '# BEGIN SOLUTION' without '# END SOLUTION'")
    _check_one_answer_line(out, where)
    return "\n".join(out)


def _blank(expr: str) -> str:
    """The placeholder for ``expr``: ``...``, or ``[..., ...]`` for a list of that length."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return "..."
    if isinstance(node, ast.List) and node.elts:
        return "[" + ", ".join(["..."] * len(node.elts)) + "]"
    return "..."


def _check_one_answer_line(lines: list[str], where: str) -> None:
    """A placeholder a student fills must not be assigned again later in the cell."""
    placeholders = {}
    for k, line in enumerate(lines):
        m = _PLACEHOLDER.match(line)
        top = _TOP_ASSIGN.match(line)
        if top and top.group(1) in placeholders:
            raise ValueError(f"{where}: line {k + 1} assigns {top.group(1)!r} again, after "
                             f"the answer line {placeholders[top.group(1)] + 1}: the student's "
                             "answer would be thrown away (keep one answer line per cell)")
        if m:
            placeholders[m.group(1)] = k


def make_exercise(nb, name: str):
    """The exercise notebook (a new object) for the solution notebook ``nb``."""
    import copy

    import prayatul_edu.exercises as ex

    nb = copy.deepcopy(nb)
    for k, cell in enumerate(nb.cells):
        where = f"{name}, cell {k + 1}"
        tags = cell.get("metadata", {}).get("tags", [])
        if "solution" in tags:
            cell.source = "# your code here" if cell.cell_type == "code" else "*Your answer here.*"
            cell.metadata["tags"] = [t for t in tags if t != "solution"] or None
            if cell.metadata["tags"] is None:
                del cell.metadata["tags"]
        else:
            cell.source = strip_source(cell.source, where)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    topic = name.split("_")[0]
    nb.metadata["prayatul_edu"] = {
        "exercise": name,
        "questions": ex.topic_questions(topic),
        "cells": [c.get("id") for c in nb.cells],
    }
    return nb


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
