"""Who a submission belongs to and which exercise it answers: the instructor says.

The student and the variant come from the file name (``s1234.ipynb``,
``s1234_03_pair_counting.ipynb``) or from a roster (a CSV with the columns
``file`` and ``student``; ``file`` is a path relative to the folder graded,
``section_a/s1234.ipynb``, or a base name, ``s1234.ipynb``: a path is matched
first, then the base name), never from what the notebook declares. The exercise
comes from ``--exercise`` or the file's or its folder's name, never from the
notebook's metadata. Ids and names are checked: short and printable.
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
from pathlib import Path

from ..exercises import TOPICS, topic_questions
from ..exercises.authoring import AUTHORED
from .roster import LMS_NAMES, lms_rows

__all__ = ["valid_id", "display_name", "exercise_name", "exercise_names", "exercise_from_name",
           "exercise_questions", "read_roster", "roster_rows", "roster_key", "Identity",
           "identify", "ID_PATTERN", "csv_rows"]

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


def exercise_names() -> list[str]:
    """Every exercise: ``["01_matching", ...]``."""
    return [f"{k}_{v}" for k, v in sorted(TOPICS.items())]


def exercise_name(exercise: str) -> str:
    """``"03"`` or ``"03_pair_counting"`` -> ``"03_pair_counting"``; ValueError naming the
    exercises there are for anything else (``"03_matching"`` too)."""
    text = str(exercise)
    topic = text.split("_")[0]
    authored = {e.topic: e.name for e in AUTHORED.values()}   # an instructor's, loaded
    if topic in authored and text in (topic, authored[topic]):
        return authored[topic]
    if topic not in TOPICS or text not in (topic, f"{topic}_{TOPICS[topic]}"):
        raise ValueError(f"exercise: there is no exercise {display_name(text)!r}; the "
                         f"exercises are {', '.join(exercise_names())}")
    return f"{topic}_{TOPICS[topic]}"


def exercise_from_name(path: Path) -> str | None:
    """``NN_topic`` found in the file's name or its folder's name, else None."""
    for part in (path.name, path.parent.name):
        m = _EXERCISE.search(part)
        if m and f"{m.group(1)}_{m.group(2)}" in {f"{k}_{v}" for k, v in TOPICS.items()}:
            return f"{m.group(1)}_{m.group(2)}"
    return None


def roster_key(file: str) -> str:
    """A roster's ``file`` as the grader matches it: ``/`` between folders, no ``./``."""
    parts = [p for p in str(file).strip().replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


def roster_rows(path, columns: tuple[str, ...]) -> list[tuple[int, dict]]:
    """(line number, row) of every row of the roster CSV ``path``, which must have
    ``columns`` (one of them ``student``, a valid id, stripped); ValueError saying what is
    wrong otherwise. A class roster (``columns`` ``("student",)``) may also be one an LMS
    wrote, read as :func:`~.roster.lms_rows` reads it (Canvas's gradebook export,
    Gradescope's roster)."""
    path = Path(path)
    try:   # as a spreadsheet saves it: a BOM, ";" or tabs between columns, spaced headers
        with open(path, newline="", encoding="utf-8-sig") as fh:
            text = fh.read()
        head = text.split("\n", 1)[0]
        reader = csv.DictReader(io.StringIO(text), delimiter=max(",;\t", key=head.count))
        if reader.fieldnames:
            reader.fieldnames = [(f or "").strip() for f in reader.fieldnames]
        rows, lines, line = [], [], 2
        for row in reader:       # a row's own line: a quoted value may hold line breaks
            rows.append(row)
            lines.append(line)
            line = reader.line_num + 1
    except UnicodeDecodeError:
        raise ValueError(f"roster: {display_name(path.name)} is not UTF-8 text (save it as "
                         "CSV UTF-8)") from None
    except (OSError, csv.Error) as exc:
        raise ValueError(f"roster: cannot read {path.name} ({type(exc).__name__})") from None
    numbered = list(zip(lines, rows))   # each row with its own line in the file
    lms = lms_rows(reader.fieldnames, numbered) if columns == ("student",) and rows and \
        "student" not in rows[0] else None
    if lms is not None:       # Canvas's gradebook export, Gradescope's roster (.roster)
        if not lms:
            raise ValueError(f"roster: {display_name(path.name)} lists no student (only "
                             "header rows, test students or staff)")
        numbered, rows = lms, [row for _, row in lms]
    if not rows and set(columns) <= set(reader.fieldnames or ()):
        raise ValueError(f"roster: {display_name(path.name)} has the column"
                         f"{'s' * (len(columns) > 1)} {' and '.join(columns)} but no row "
                         "below them")
    if not rows or not set(columns) <= set(rows[0]):
        found = ", ".join(display_name(f, 40) for f in (reader.fieldnames or [])[:8])
        raise ValueError(f"roster: expected a CSV with the column{'s' * (len(columns) > 1)} "
                         + " and ".join(columns)
                         + (f" (or {LMS_NAMES})" if columns == ("student",) else "")
                         + (f"; its columns are {found}" if rows and found else ""))
    found = []
    for k, row in numbered:
        extra = row.pop(None, None) or ()
        if any((v or "").strip() for v in extra):   # an unquoted comma (0,5; Okafor, Chidi)
            names = reader.fieldnames               # moved the columns after it
            raise ValueError(f"roster: line {k}: {len(names) + len(extra)} values where the "
                             f"header has {len(names)} ("
                             + ", ".join(display_name(f, 40) for f in names[:8])
                             + "): quote a value that holds the separator (a "
                             "decimal: 0.5, not 0,5)")
        sid = (row.get("student") or "").strip()
        if not valid_id(sid):
            raise ValueError(f"roster: line {k}: {display_name(sid)!r} is not a valid "
                             "student id (letters, digits, _ . @ + -; at most 64)")
        found.append((k, dict(row, student=sid)))
    return found


def csv_rows(path, columns: tuple[str, ...], what: str) -> list[tuple[int, dict]]:
    """:func:`roster_rows` of another CSV the instructor gives (``what``: its option's
    name, which the errors name)."""
    try:
        return roster_rows(path, columns)
    except ValueError as exc:
        raise ValueError(f"{what}:" + str(exc).removeprefix("roster:")) from None


def read_roster(path) -> dict[str, str]:
    """file -> student id, from a CSV with the columns ``file`` (a path relative to the
    folder graded, or a base name) and ``student``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from prayatul_edu.grading import read_roster
    >>> roster = pathlib.Path(tempfile.mkdtemp()) / "roster.csv"
    >>> _ = roster.write_text("file,student\\nalice.ipynb,s1001\\nbob.ipynb,s1002\\n")
    >>> read_roster(roster)
    {'alice.ipynb': 's1001', 'bob.ipynb': 's1002'}
    """
    roster = {}
    try:
        rows = roster_rows(path, ("file", "student"))
    except ValueError as exc:   # the class roster given where assign's was meant?
        try:
            roster_rows(path, ("student",))
        except ValueError:
            raise exc from None
        raise ValueError(f"{exc} (a class roster: give the roster.csv that assign wrote "
                         "beside the notebooks)") from None
    for k, row in rows:
        file = roster_key(row.get("file") or "")
        if file in roster:
            raise ValueError(f"roster: line {k}: {display_name(file)!r} is listed twice")
        roster[file] = row["student"]
    return roster


class Identity:
    """``student`` (a valid id), ``variant`` (the seed graded; None: the course's data),
    ``exercise`` (``NN_topic`` or None), the ``problems`` found on the way and
    ``matched``: how the roster named the file (``"path"``, ``"name"``; None: no roster
    or not on it)."""

    def __init__(self, student: str, variant, exercise, problems: list[str], ok: bool = True,
                 matched: str | None = None):
        self.student, self.variant, self.exercise = student, variant, exercise
        self.problems, self.ok, self.matched = problems, ok, matched


def identify(name: str, *, exercise: str | None, roster: dict | None,
             folder: str = "", variant: str = "student") -> Identity:
    """Identity of the submission called ``name`` (in ``folder``), as the instructor set it.

    ``name`` may be a path relative to the folder graded (``section_a/s1234.ipynb``): a
    roster is matched on that path first, then on the base name.

    ``variant``: ``"student"`` grades each student's own variant, ``"course"`` everyone
    against the course's own data. ``ok`` is False when the file cannot be graded.
    """
    problems = []
    path = Path(folder) / name
    ex = exercise_name(exercise) if exercise else exercise_from_name(path)
    if ex is None:
        problems.append("no exercise: the file's name does not say which one (e.g. "
                        "s1234_03_pair_counting.ipynb) and none was given with --exercise")
    base = path.name
    stem = base[:-6] if base.endswith(".ipynb") else base
    named = exercise_from_name(Path(base))
    if ex is not None and named is not None and named != ex:
        problems.append(f"the file's name says exercise {named}, but it was graded as {ex} "
                        "(--exercise)")
    matched = None
    if roster is not None:
        key = roster_key(name)
        sid, matched = roster.get(key), "path"
        if sid is None and key != base:
            sid, matched = roster.get(base), "name"
        if sid is None:
            problems.append(f"the file {display_name(key)} is not on the roster (neither its "
                            "path nor its name)")
            return Identity(_stand_in(name), None, ex, problems, ok=False)
    else:
        sid = stem
        for e in (ex, named):  # s1234_03_pair_counting -> s1234
            if e is not None and e in sid and sid != e:
                sid = sid.replace(e, "").strip("_-. ") or sid
        if not valid_id(sid):
            problems.append(f"the file name {display_name(base)!r} is not a valid student "
                            "id (letters, digits, _ . @ + -; at most 64): rename it or use "
                            "--roster")
            return Identity(_stand_in(name), None, ex, problems, ok=False)
    return Identity(sid, None if variant == "course" else sid, ex, problems, ok=ex is not None,
                    matched=matched)
