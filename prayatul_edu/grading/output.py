"""One ``--out``, one consistent set of files: a grading run never writes beside an earlier
run's files.

:func:`prepare` refuses an ``out`` that already holds grades (``grades.json``, exports,
``feedback/``...) unless ``replace`` is given: then the run is written into a fresh
hidden folder beside it, which :func:`swap_in` puts in place of the old one whole once
every file is written (the old folder is renamed away, the new one renamed in, the old
one removed), so no file of the earlier run survives next to a newer one. A folder that
holds anything else is never replaced (nothing of the instructor's is deleted).
:func:`files_in` lists what a run wrote, for ``grades.json``.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .identity import display_name

__all__ = ["prepare", "swap_in", "files_in", "GRADER_FILES"]

#: What a grading run writes at the top of ``out`` (and its temporary files, ``.*``).
GRADER_FILES = ("grades.csv", "grades.json", "grades.partial.csv", "canvas.csv",
                "canvas_questions.csv", "gradescope_scores.csv", "feedback", "gradescope",
                "report.html", "report.md", "to_grade_by_hand.csv")


def _holds_grades(names) -> bool:
    return any(n in GRADER_FILES for n in names)


def prepare(out, replace: bool = False) -> Path:
    """The folder the run writes into: ``out`` itself when it is new or empty, a fresh
    folder beside it when ``replace`` and ``out`` holds an earlier run's grades;
    ValueError (nothing written) otherwise, saying how to go on."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out: {display_name(out)} is a file, not a folder")
    names = sorted(os.listdir(out)) if out.is_dir() else []
    if not names:
        out.mkdir(parents=True, exist_ok=True)
        return out
    if not _holds_grades(names):
        raise ValueError(f"out: {display_name(out)} is not empty and holds no grades; give a "
                         "new or empty folder")
    if not replace:
        raise ValueError(f"out: {display_name(out)} already holds grades (grades.json, "
                         "feedback/, exports); nothing was graded. Give a new folder, or "
                         "--replace to write this run into a fresh folder and put it in "
                         "place of that one whole (no earlier file survives)")
    others = [n for n in names if n not in GRADER_FILES and not n.startswith(".")]
    if others:
        raise ValueError(f"out: {display_name(out)} also holds files the grader did not "
                         f"write ({', '.join(display_name(n) for n in others[:5])}); it is "
                         "not replaced: move them, or give a new folder")
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))


def swap_in(work: Path, out) -> None:
    """Put the finished run ``work`` in place of ``out`` (nothing to do when they are the
    same folder): the earlier folder is renamed away, ``work`` renamed in, the earlier
    one removed."""
    out = Path(out)
    if Path(work) == out:
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.replace(out, old / "run")
    os.replace(work, out)
    shutil.rmtree(old, ignore_errors=True)


def files_in(folder) -> list[str]:
    """Every file under ``folder`` (``/`` between folders, sorted), its temporary files
    (``.*``) left out."""
    folder = Path(folder)
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [(Path(here) / f).relative_to(folder).as_posix() for f in files
                  if not f.startswith(".")]
    return sorted(found)
