"""Exercises generated from solutions: the solution regions of a notebook replaced by blanks.

The one home of the rules ``scripts/make_exercises.py`` (the course's ``exercises/``
from ``solutions/``) and an instructor's own exercise
(:mod:`prayatul_edu.exercises.authoring`) follow. Marked solution regions are replaced by a
placeholder, so that the exercise still runs top to bottom, blank:

* a line marked ``# SOLUTION``: ``name = <expr>  # SOLUTION`` becomes
  ``name = ...  # your answer here`` (``...`` is "not attempted" for ``check``);
  a list ``[a, b, c]`` becomes ``[..., ..., ...]``, so the student sees how many
  numbers to give, and ``# SOLUTION: text`` puts ``# text`` in place of
  ``# your answer here``; any other such line becomes ``pass  # your code here``;
* the lines from ``# BEGIN SOLUTION`` to ``# END SOLUTION`` become
  ``# your code here`` (``pass  # your code here`` when indented); a region that
  assigns ``answer`` (at the cell's top level) with no later line of the cell assigning
  it again gets ``answer = ...  # your answer here`` too, so that a region left
  unfilled checks "not attempted", never the previous question's ``answer``;
* a cell tagged ``solution`` is replaced by an empty one of the same kind
  (``# your code here`` or ``*Your answer here.*``).

A cell has one answer line: a placeholder that a later line of the same cell
assigns again would throw the student's answer away, so it is an error.
Outputs and execution counts are cleared. The notebook metadata records the
exercise, its questions and its cell ids (``prayatul_edu``), which the grader
uses to report deleted cells.
"""
from __future__ import annotations

import ast
import copy
import re

from . import _base
from ._base import topic_questions

__all__ = ["HEADING", "strip_source", "make_exercise", "literal_answers", "run_solutions", "PLACEHOLDER",
           "checked_questions"]

_ASSIGN = re.compile(r"^(\s*)([A-Za-z_][\w\[\]\"', .]*?)\s*=(?!=)\s*(.+?)\s*"
                     r"#\s*SOLUTION\s*(?::\s*(.*?))?\s*$")
_LINE = re.compile(r"#\s*SOLUTION\s*(:.*)?$")
PLACEHOLDER = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(\.\.\.|\[(\.\.\.,\s*)*\.\.\.\])\s*(#.*)?$")
_TOP_ASSIGN = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)")
_BEGIN = re.compile(r"^(\s*)#\s*BEGIN SOLUTION\s*$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")


def _assigns_answer_later(lines: list[str]) -> bool:
    return any(_TOP_ASSIGN.match(line) and _TOP_ASSIGN.match(line).group(1) == "answer"
               for line in lines)


def strip_source(source: str, where: str = "cell") -> str:
    """The source with its solution regions replaced by placeholders."""
    out, indent, answered = [], None, False
    lines = source.split("\n")
    for k, line in enumerate(lines):
        if indent is not None:                      # inside BEGIN ... END
            if _BEGIN.match(line):
                raise ValueError(f"{where}: '# BEGIN SOLUTION' inside another region")
            if _END.match(line):
                out.append(f"{indent}pass  # your code here" if indent else "# your code here")
                if answered and not _assigns_answer_later(lines[k + 1:]):
                    out.append("answer = ...  # your answer here")
                indent, answered = None, False
                continue
            top = _TOP_ASSIGN.match(line)
            answered = answered or (not indent and top is not None
                                    and top.group(1) == "answer")
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
        m = PLACEHOLDER.match(line)
        top = _TOP_ASSIGN.match(line)
        if top and top.group(1) in placeholders:
            raise ValueError(f"{where}: line {k + 1} assigns {top.group(1)!r} again, after "
                             f"the answer line {placeholders[top.group(1)] + 1}: the student's "
                             "answer would be thrown away (keep one answer line per cell)")
        if m:
            placeholders[m.group(1)] = k


def make_exercise(nb, name: str):
    """The exercise notebook (a new object) for the solution notebook ``nb``."""
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
        "questions": topic_questions(topic),
        "cells": [c.get("id") for c in nb.cells],
    }
    return nb


# ------------------------------------------------------------ an instructor's checks
_SETUP_ID = re.compile(r"^STUDENT_ID = [^#\n]*", re.M)


def _answer_lines(source: str):
    """(expression) of every ``name = <expr>  # SOLUTION`` line of ``source``."""
    for line in source.split("\n"):
        m = _ASSIGN.match(line)
        if m:
            yield m.group(3)


_CHECK_ID = re.compile(r"^q(\d+)-(\d+)-check$")
#: ``NAME = ex.question("NN.k")``; ``question("NN.k").check(``; ``NAME.check(``; a heading
_BOUND = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*[\w.]*question\(\s*['\"](\d+\.\d+)['\"]")
_DIRECT = re.compile(r"question\(\s*['\"](\d+\.\d+)['\"]\s*\)\s*\.\s*check\s*\(")
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*check\s*\(")
HEADING = re.compile(r"^#+\s*(?:Question\s+)?(\d+\.\d+)\b", re.M)


def checked_questions(nb) -> dict[int, str]:
    """cell index -> the question whose answer the code cell checks: by its id
    (``qNN-k-check``, as the course's notebooks name it), else by position and question,
    whatever id JupyterLab gave it: a cell calling ``question("NN.k").check(``, or
    ``NAME.check(`` where the notebook binds ``NAME = ex.question("NN.k")``, or any
    ``.check(`` under a Markdown heading that starts with the question's number
    (``## 51.6 ...``)."""
    names = {m.group(1): m.group(2) for c in nb.cells if c.cell_type == "code"
             for m in _BOUND.finditer(c.source)}
    out, current = {}, None
    for k, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            heading = HEADING.search(cell.source)
            current = heading.group(1) if heading else current
            continue
        if cell.cell_type != "code":
            continue
        by_id = _CHECK_ID.match(str(cell.get("id", "")))
        direct = _DIRECT.search(cell.source)
        called = [names[n] for n in _CALLED.findall(cell.source) if n in names]
        if by_id:
            out[k] = f"{by_id.group(1)}.{by_id.group(2)}"
        elif direct:
            out[k] = direct.group(1)
        elif called:
            out[k] = called[-1]
        elif current and _CALLED.search(cell.source):
            out[k] = current
    return out


def literal_answers(nb, where: str, exempt=()) -> list[str]:
    """Problems: an answer line whose solution is a literal (typed, not computed from the
    data: it would be right for one variant only). ``exempt``: the ids or indices of the
    cells whose answer is typed by nature (a free text, graded by hand; see
    :func:`checked_questions`)."""
    problems = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or cell.get("id") in exempt or k in exempt:
            continue
        for expr in _answer_lines(cell.source):
            try:
                ast.literal_eval(expr)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            problems.append(f"{where}, cell {k + 1}: the solution {expr!r} is typed, not "
                            "computed from the data (a variant has other data)")
    return problems


def run_solutions(nb, seed, env: dict) -> dict:
    """qid -> the status of its last check when the solutions notebook ``nb`` runs (here,
    in this process: the instructor's own code) with ``STUDENT_ID`` set to ``seed``;
    ``env``: environment variables set meanwhile. The session (:func:`~._base.setup`) is
    left as it was."""
    import contextlib
    import io
    import os

    saved = {k: os.environ.get(k) for k in env}
    session = {k: (dict(v) if isinstance(v, dict) else v) for k, v in _base._SESSION.items()}
    os.environ.update(env)
    _base._SESSION["outcomes"] = {}
    namespace = {"__name__": "__solutions__", "display": lambda *a, **k: None}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in nb.cells:
                if cell.cell_type != "code":
                    continue
                source = _SETUP_ID.sub(f"STUDENT_ID = {seed!r}", cell.source, count=1)
                exec(compile(source, "<solutions>", "exec"), namespace)
        outcomes = {qid: out.status for qid, out in _base._SESSION["outcomes"].items()}
    finally:
        _base._SESSION.update(session)     # the caller's session as it was
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return outcomes
