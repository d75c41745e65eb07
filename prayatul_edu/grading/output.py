"""One ``--out``, one consistent set of files: a grading run never writes beside an earlier
run's files, and never removes a file it did not write.

:func:`prepare` refuses an ``out`` that already holds grades (``grades.json``, exports,
``feedback/``...) unless ``replace`` is given: then the run is written into a fresh
hidden folder beside it, which :func:`swap_in` puts in place of the old one whole once
every file is written (the old folder is renamed away, the new one renamed in, the old
one removed), so no file of the earlier run survives next to a newer one. Only what a
grading run writes is replaced: the grader's names at the top of ``out``
(:data:`GRADER_FILES`) and, inside its folders, the files the earlier run's
``grades.json`` lists (``settings.files``). Anything else at the top of ``out`` (your
notes, a hidden ``.notes.txt``, a ``.git/``) is moved into the new run before the swap,
so it is kept; a file of yours inside the grader's folders (``feedback/mine.txt``)
refuses the run, naming it. ``out`` given as a symbolic link is resolved: the run is
swapped in the link's target (the link stays); a link to nothing is refused in one
line. A folder that holds no grades but other files is never written into; without a
grades.json (a run stopped before it), only the feedback of the students its
``grades.partial.csv`` names is the grader's inside its folders.
:func:`files_in` lists what a run wrote, for ``grades.json``.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from .identity import display_name

__all__ = ["prepare", "swap_in", "files_in", "grader_files", "not_written", "GRADER_FILES"]

#: What a grading run writes at the top of ``out`` (and its temporary files, ``.*``).
GRADER_FILES = ("grades.csv", "grades.json", "grades.partial.csv", "canvas.csv",
                "canvas_questions.csv", "gradescope_scores.csv", "feedback", "gradescope",
                "report.html", "report.md", "to_grade_by_hand.csv")
#: A temporary file of the grader's atomic writes (``.grades.csv.k2j4_x9a``): left by a
#: run that was killed, never the instructor's.
_TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}")
_TOP_TEMPORARY = re.compile(r"\.(?:" + "|".join(map(re.escape, GRADER_FILES))
                            + r")\.[a-z0-9_]{8}")


def _holds_grades(names) -> bool:
    return any(n in GRADER_FILES for n in names)


def _target(out) -> Path:
    """``out`` with its symbolic links resolved; ValueError (one line) for a link to
    nothing."""
    out = Path(out)
    if os.path.islink(out) and not out.exists():
        raise ValueError(f"out: {display_name(out)} is a symbolic link to "
                         f"{display_name(os.readlink(out))}, which does not exist; give a "
                         "folder (or make the link's target)")
    return Path(os.path.realpath(out))


def not_written(out) -> list[str]:
    """What in the grades folder ``out`` a grading run did not write (paths relative to
    ``out``, ``/`` between folders): every entry at the top that is not one of
    :data:`GRADER_FILES` (nor a temporary file of theirs), and every file inside the
    grader's folders that the folder's ``grades.json`` does not list (when it lists
    its files)."""
    out = Path(out)
    try:
        listed = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        listed = set(listed["settings"]["files"])
    except (OSError, ValueError, TypeError, KeyError):
        listed = _stopped_run(out)
    found = []
    for name in sorted(os.listdir(out)):
        if name not in GRADER_FILES:
            if not _TOP_TEMPORARY.fullmatch(name):
                found.append(name)
            continue
        if not (out / name).is_dir() or (out / name).is_symlink():
            continue
        for path in files_in(out / name, hidden=True):
            rel = f"{name}/{path}"
            if rel not in listed and not _TEMPORARY.fullmatch(rel.rsplit("/", 1)[-1]):
                found.append(rel)
    return found


class _StoppedRun:
    """What a run stopped before its grades.json wrote inside the grader's folders: the
    feedback of the students its ``grades.partial.csv`` names (``feedback/STUDENT_*.md``)
    and nothing else; with no such file, nothing (a ``feedback/`` of your own is yours)."""

    def __init__(self, students):
        self.students = students

    def __contains__(self, rel: str) -> bool:
        folder, _, name = rel.partition("/")
        return (folder == "feedback" and "/" not in name and name.endswith(".md")
                and any(name.startswith(f"{s}_") for s in self.students))


def _stopped_run(out: Path) -> _StoppedRun:
    try:
        text = (out / "grades.partial.csv").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return _StoppedRun(set())
    return _StoppedRun({row.get("student") for row in csv.DictReader(io.StringIO(text))}
                       - {None, ""})


def prepare(out, replace: bool = False) -> tuple[Path, Path]:
    """(the folder the grades go to, the folder the run writes into): ``out`` itself
    (its links resolved) when it is new or empty, and a fresh folder beside it when
    ``replace`` and ``out`` holds an earlier run's grades; ValueError (nothing written)
    otherwise, saying how to go on."""
    given, out = out, _target(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out: {display_name(given)} is a file, not a folder")
    names = sorted(os.listdir(out)) if out.is_dir() else []
    if not names:
        out.mkdir(parents=True, exist_ok=True)
        return out, out
    if not _holds_grades(names):
        raise ValueError(f"out: {display_name(given)} is not empty and holds no grades; give "
                         "a new or empty folder")
    if not replace:
        raise ValueError(f"out: {display_name(given)} already holds grades (grades.json, "
                         "feedback/, exports); nothing was graded. Give a new folder, or "
                         "--replace to write this run into a fresh folder and put it in "
                         "place of the earlier run's files (your other files are kept)")
    inside = [n for n in not_written(out) if "/" in n]
    if inside:
        raise ValueError(f"out: {display_name(given)} holds files the grader did not write "
                         "inside its folders ("
                         + ", ".join(display_name(n) for n in inside[:5])
                         + "); nothing was graded: move them out of the grader's folders")
    return out, Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))


def swap_in(work: Path, out) -> None:
    """Put the finished run ``work`` in place of ``out`` (nothing to do when they are the
    same folder): what the grader did not write at the top of ``out``
    (:func:`not_written`) is moved into ``work``, then the earlier folder is renamed
    away, ``work`` renamed in (with the earlier folder's permissions), the earlier one
    removed."""
    out = Path(out)
    if Path(work) == out:
        return
    moved = []
    try:
        for name in [n for n in not_written(out) if "/" not in n]:
            os.replace(out / name, Path(work) / name)
            moved.append(name)
        os.chmod(work, stat.S_IMODE(os.stat(out).st_mode))
    except OSError as exc:
        for name in moved:                       # put back what was moved
            os.replace(Path(work) / name, out / name)
        shutil.rmtree(work, ignore_errors=True)
        raise ValueError(f"out: your files in {display_name(out)} could not be kept while "
                         f"replacing the grades ({type(exc).__name__}); nothing was "
                         "replaced") from None
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.replace(out, old / "run")
    os.replace(work, out)
    shutil.rmtree(old, ignore_errors=True)


def files_in(folder, hidden: bool = False) -> list[str]:
    """Every file under ``folder`` (``/`` between folders, sorted), its temporary files
    (``.*``) left out unless ``hidden``."""
    folder = Path(folder)
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if hidden or not d.startswith("."))
        found += [(Path(here) / f).relative_to(folder).as_posix() for f in files
                  if hidden or not f.startswith(".")]
    return sorted(found)


def grader_files(folder) -> list[str]:
    """:func:`files_in` of ``folder`` that a grading run writes (under
    :data:`GRADER_FILES`), never the instructor's own files beside them."""
    return [f for f in files_in(folder) if f.split("/", 1)[0] in GRADER_FILES]
