"""The published exercise: the cells a submission must still have, unchanged.

A student edits the answer cells (those with a template line ``answer = ...`` or
``answer = [..., ...]``, or ``# your code here``) and the ``STUDENT_ID`` line (a handed-out
notebook also has the lines ``prayatul-edu assign`` wrote, marked
:data:`HANDOUT_MARK`, in its setup cell); every other cell of
``exercises/NN_topic.ipynb`` must be there with its published source. The
comparison is against the published file, never against the submission's own
metadata (which the student can edit).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .. import __file__ as _package_init

__all__ = ["published_cells", "compare_cells", "default_folder", "HANDOUT_MARK"]

_EDITABLE = ("# your answer here", "# your code here")


def default_folder() -> Path:
    """``exercises/`` beside the package (a source checkout), where the course publishes."""
    return Path(_package_init).resolve().parents[1] / "exercises"


#: The one answer line of a check cell, as the exercise generator writes it.
_ANSWER_LINE = re.compile(r"^answer = \[?\.\.\.", re.M)


def _editable(cell_id: str, source: str) -> bool:
    return (any(mark in source for mark in _EDITABLE) or "STUDENT_ID =" in source
            or bool(_ANSWER_LINE.search(source)))


def published_cells(exercise: str, folder: Path | None = None) -> dict[str, tuple[str, bool]]:
    """cell id -> (source, editable) of the published ``exercise``; {} if not found."""
    path = Path(folder or default_folder()) / f"{exercise}.ipynb"
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    cells = {}
    for cell in nb.get("cells", []):
        source = "".join(cell.get("source", ""))
        cells[str(cell.get("id"))] = (source, _editable(str(cell.get("id")), source))
    return cells


#: The lines ``prayatul-edu assign`` adds to the setup cell end with this comment.
HANDOUT_MARK = "# set by prayatul-edu assign"


def _strip_student_id(source: str) -> str:
    return "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith("STUDENT_ID =")
                     and not line.rstrip().endswith(HANDOUT_MARK))


def compare_cells(nb, published: dict[str, tuple[str, bool]]) -> list[str]:
    """Problems: published cells missing from ``nb`` or altered in it."""
    if not published:
        return []
    present = {}
    for cell in nb.cells:
        source = cell.get("source", "")
        present[str(cell.get("id"))] = "".join(source) if isinstance(source, list) else str(source)
    missing = [cid for cid in published if cid not in present]
    altered = []
    for cid, (source, editable) in published.items():
        if cid not in present:
            continue
        if editable:
            if "STUDENT_ID =" in source and (_strip_student_id(source).strip()
                                            != _strip_student_id(present[cid]).strip()):
                altered.append(cid)
        elif present[cid].strip() != source.strip():
            altered.append(cid)
    problems = []
    if missing:
        problems.append(f"{len(missing)} cell(s) of the exercise are missing (deleted?): "
                        + ", ".join(missing[:10]))
    if altered:
        problems.append(f"{len(altered)} cell(s) of the exercise were altered: "
                        + ", ".join(altered[:10]))
    return problems
