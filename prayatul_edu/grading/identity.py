"""Who a submission belongs to and which exercise it answers: the instructor says.

The student and the variant come from the file name (``s1234.ipynb``,
``s1234_03_pair_counting.ipynb``) or from a roster (a CSV with the columns
``file`` and ``student``), never from what the notebook declares. The exercise
comes from ``--exercise`` or the file's or its folder's name, never from the
notebook's metadata. Ids and names are checked: short and printable.
"""
from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path

from ..exercises import TOPICS, topic_questions

__all__ = ["valid_id", "display_name", "exercise_name", "exercise_from_name", "exercise_questions",
           "read_roster", "Identity", "identify", "ID_PATTERN"]

#: A student id: a letter or digit, then letters, digits, ``_ . @ + -``; 64 at most.
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}")
_EXERCISE = re.compile(r"(?:^|[^0-9])(0[1-9])_(" + "|".join(sorted(TOPICS.values()))
                       + r")(?![a-z])")


def valid_id(text) -> bool:
    return isinstance(text, str) and ID_PATTERN.fullmatch(text) is not None


def display_name(text, limit: int = 80) -> str:
    """``text`` made printable and short (undecodable bytes, control characters escaped)."""
    s = str(text).encode("utf-8", "backslashreplace").decode("utf-8")
    s = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in s)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def _stand_in(name: str) -> str:
    """A valid id standing for an invalid name (stable, so rows can be joined)."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"invalid-{digest}"


def exercise_questions(exercise: str) -> list[str]:
    """The question ids of ``exercise`` (``"03_pair_counting"`` or ``"03"``)."""
    topic = str(exercise).split("_")[0]
    return topic_questions(topic)


def exercise_name(exercise: str) -> str:
    """``"03"`` or ``"03_pair_counting"`` -> ``"03_pair_counting"`` (ValueError if unknown)."""
    topic = str(exercise).split("_")[0]
    if topic not in TOPICS:
        raise ValueError(f"exercise: no questions for {exercise!r}")
    return f"{topic}_{TOPICS[topic]}"


def exercise_from_name(path: Path) -> str | None:
    """``NN_topic`` found in the file's name or its folder's name, else None."""
    for part in (path.name, path.parent.name):
        m = _EXERCISE.search(part)
        if m and f"{m.group(1)}_{m.group(2)}" in {f"{k}_{v}" for k, v in TOPICS.items()}:
            return f"{m.group(1)}_{m.group(2)}"
    return None


def read_roster(path) -> dict[str, str]:
    """file name -> student id, from a CSV with the columns ``file`` and ``student``."""
    path = Path(path)
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"roster: cannot read {path.name} ({exc})") from None
    if not rows or not {"file", "student"} <= set(rows[0]):
        raise ValueError("roster: expected a CSV with the columns file and student")
    roster = {}
    for k, row in enumerate(rows, 2):
        file, sid = (row.get("file") or "").strip(), (row.get("student") or "").strip()
        if not valid_id(sid):
            raise ValueError(f"roster: line {k}: {display_name(sid)!r} is not a valid "
                             "student id (letters, digits, _ . @ + -; at most 64)")
        if file in roster:
            raise ValueError(f"roster: line {k}: {display_name(file)!r} is listed twice")
        roster[file] = sid
    return roster


class Identity:
    """``student`` (a valid id), ``variant`` (the seed graded; None: the course's data),
    ``exercise`` (``NN_topic`` or None) and the ``problems`` found on the way."""

    def __init__(self, student: str, variant, exercise, problems: list[str], ok: bool = True):
        self.student, self.variant, self.exercise = student, variant, exercise
        self.problems, self.ok = problems, ok


def identify(name: str, *, exercise: str | None, roster: dict | None,
             folder: str = "", variant: str = "student") -> Identity:
    """Identity of the submission called ``name`` (in ``folder``), as the instructor set it.

    ``variant``: ``"student"`` grades each student's own variant, ``"course"`` everyone
    against the course's own data. ``ok`` is False when the file cannot be graded.
    """
    problems = []
    path = Path(folder) / name
    ex = exercise_name(exercise) if exercise else exercise_from_name(path)
    if ex is None:
        problems.append("no exercise: the file's name does not say which one (e.g. "
                        "s1234_03_pair_counting.ipynb) and none was given with --exercise")
    stem = name[:-6] if name.endswith(".ipynb") else name
    if roster is not None:
        sid = roster.get(name)
        if sid is None:
            problems.append(f"the file {display_name(name)} is not on the roster")
            return Identity(_stand_in(name), None, ex, problems, ok=False)
    else:
        sid = stem
        if ex is not None and ex in stem and stem != ex:  # s1234_03_pair_counting -> s1234
            sid = stem.replace(ex, "").strip("_-. ") or stem
        if not valid_id(sid):
            problems.append(f"the file name {display_name(name)!r} is not a valid student "
                            "id (letters, digits, _ . @ + -; at most 64): rename it or use "
                            "--roster")
            return Identity(_stand_in(name), None, ex, problems, ok=False)
    return Identity(sid, None if variant == "course" else sid, ex, problems, ok=ex is not None)
