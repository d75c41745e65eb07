"""Who handed in each collected file: from where it was collected, never from a name the
student chose.

A file's **uploader** comes from where the instructor's collection put it:

* a per-student folder (``collected/s002/...``, what a JupyterHub exchange or a
  per-student LMS download gives): a folder of the file's path that is a student of the
  roster, or nbgrader's exchange folder of their submission (``s002+hw3+TIMESTAMP``)
  (or, with ``by_folder=True``, the first folder of the path, roster or not);
* Canvas's "Download Submissions" name, ``NAME[_LATE]_USERID_SUBMISSIONID_ORIGINAL``
  (``limaana_LATE_3143_207797_s002_03_pair_counting.ipynb``; :func:`canvas_parts`):
  the roster's ``canvas_id`` column, else its ``name`` written as Canvas writes it
  (letters only, lower case, last name first) of a student without a Canvas id, names
  the student; an id the roster does not know stays an uploader known only by that id;
* a roster row whose ``file`` is the file's path (the instructor wrote it).

Only the LMS's own layer says who uploaded (:func:`lms_layer`): the outermost folder of
the path that is a per-student folder or a Canvas name, else the file's own Canvas
name. Anything inside it (the folders unzip made of an upload,
``chidi_4103_901_a/s002/...``, a name holding backslashes) is the uploader's content: it
may make the file a conflict, never another student's upload; so does a per-student
folder beside a student's Canvas name (an upload unzipped in place spills its folders
beside the download). Canvas's late mark is read there too, in any case
(:func:`canvas_late`).

The file's **claim** is the student its name names once the decorations browsers, drives
and LMSs add are taken off (:func:`plain_name`: ``Copy of ...``, `` (1)``, Canvas's prefix
and its ``-1`` of a resubmission): a roster row whose ``file`` is that name, or the id
in it (``s002_03_pair_counting.ipynb`` -> ``s002``), which must be on the roster when
there is one (in any case, ``S002``, when no other id differs from it only in case; so
too a per-student folder). Without a roster, a file whose uploader is known names
another student only by a hand-in name (``ID_NN_topic.ipynb``; ``work.ipynb`` in ``s1/``
is s1's), and any other file's name that is a valid id is that student (``s1234.ipynb``).

:func:`resolve` decides, for every file: the student it is graded as (its uploader, else
its claim); **unmatched** (neither: listed for the instructor, never graded, never
exported); or a **conflict**, reported with both paths and never resolved by modification
time: a file whose uploader is one student and whose name names another (not graded:
the named student's own file stands), two uploaders (two Canvas ids the roster does
not know) claiming one student, or one such uploader naming several students (none
graded until the roster says who is who).

>>> plain_name("Copy of s017_03_pair_counting (1).ipynb")
's017_03_pair_counting.ipynb'
>>> canvas_parts("limaana_LATE_3143_207797_s017_03_pair_counting-1.ipynb")
('limaana', True, '3143', 's017_03_pair_counting-1.ipynb')
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .identity import (display_name, exercise_from_name, exercise_name, roster_key, roster_rows,
                       valid_id)

__all__ = ["Person", "PERSON_COLUMNS", "read_people", "canvas_parts", "plain_name",
           "canvas_name_key", "lms_layer", "canvas_late", "Resolution", "resolve",
           "conflict_lines"]

#: A person's columns as the grader calls them -> the roster headers read as each
#: (compared in lower case, runs of other characters as ``_``).
PERSON_COLUMNS = {
    "name": ("name", "full_name", "student_name", "sortable_name"),
    "email": ("email", "e_mail", "email_address"),
    "sis_id": ("sis_id", "sis_user_id", "sid", "student_number"),
    "sis_login": ("sis_login_id", "sis_login", "login_id"),
    "section": ("section",),
    "canvas_id": ("canvas_id", "canvas_user_id"),
}


@dataclass
class Person:
    """A student of the roster and what the exports say of them (empty: not known)."""

    student: str
    name: str = ""
    email: str = ""
    sis_id: str = ""
    sis_login: str = ""
    section: str = ""
    canvas_id: str = ""


def _header(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(text).strip().lower()).strip("_")


def read_people(path) -> dict[str, Person]:
    """student id -> :class:`Person`, from a roster CSV with a column ``student`` and any
    of :data:`PERSON_COLUMNS` (``prayatul-edu assign`` copies them from the class roster
    into its ``roster.csv``); a student listed on several rows keeps the first. One
    Canvas id on the rows of two students is refused (ValueError naming both lines): it
    would make one student's uploads the other's."""
    people: dict[str, Person] = {}
    canvas_ids: dict[str, tuple[str, int]] = {}
    for k, row in roster_rows(path, ("student",)):
        found = {_header(h): (v or "").strip() for h, v in row.items() if h is not None}
        values = {}
        for attr, headers in PERSON_COLUMNS.items():
            values[attr] = next((display_name(found[h], 200) for h in headers
                                 if found.get(h)), "")
        user = values.get("canvas_id")
        if user:
            other, line = canvas_ids.setdefault(user, (row["student"], k))
            if other != row["student"]:
                raise ValueError(f"roster: line {k}: canvas_id {user} is {other}'s too "
                                 f"(line {line}); each student has their own Canvas id")
        people.setdefault(row["student"], Person(row["student"], **values))
    return people


#: Canvas's "Download Submissions" name: NAME[_LATE]_USERID_SUBMISSIONID_ORIGINAL.
_CANVAS = re.compile(r"^(?P<name>[^_\s]+?)(?P<late>_late)?_(?P<user>\d+)_(?P<sub>\d+)_"
                     r"(?P<original>.+)$", re.IGNORECASE)
_COPY_OF = re.compile(r"^(?:copy of\s+)+", re.IGNORECASE)
#: `` (1)``, ``(2)`` of a browser or a drive; ``-1`` of a Canvas resubmission.
_COPY_NUMBER = re.compile(r"(?:\s*\(\d{1,3}\))+$")
_RESUBMITTED = re.compile(r"-\d{1,3}$")


def canvas_parts(base: str) -> tuple[str, bool, str, str] | None:
    """(name, late, Canvas user id, original file name) of a Canvas "Download
    Submissions" file name; None if ``base`` is not one."""
    m = _CANVAS.match(base)
    if not m:
        return None
    return m.group("name"), m.group("late") is not None, m.group("user"), m.group("original")


def plain_name(base: str) -> str:
    """``base`` without what browsers, drives and Canvas add: ``Copy of``, `` (1)``,
    Canvas's ``NAME_USERID_SUBMISSIONID_`` prefix and its resubmission ``-1``, and
    without any folder written into the name itself (``a\\b.ipynb`` -> ``b.ipynb``)."""
    parts = canvas_parts(base)
    canvas = parts is not None
    if canvas:
        base = parts[3]
    base = re.split(r"[\\/]", base)[-1]   # a name's own folders (a kept backslash): off
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    stem = _COPY_NUMBER.sub("", _COPY_OF.sub("", stem.strip())).strip()
    if canvas:
        stem = _RESUBMITTED.sub("", stem)
    return f"{stem}.{ext}" if ext else stem


def canvas_name_key(name: str) -> set[str]:
    """The ways Canvas may write a roster ``name`` in a download: its letters, lower case,
    in the given order and with the last name first (``"Ana Lima"`` -> ``analima``,
    ``limaana``; ``"Lima, Ana"`` -> ``limaana``, ``analima``)."""
    words = [re.sub(r"[^a-z]", "", w) for w in re.split(r"[\s,]+", name.lower())]
    words = [w for w in words if w]
    if not words:
        return set()
    return {"".join(words), "".join(words[-1:] + words[:-1]), "".join(words[1:] + words[:1])}


@dataclass
class Resolution:
    """What :func:`resolve` decided: ``student`` (entry index -> student id, the entries
    to grade), ``how`` (entry index -> ``"path"``, ``"name"``, ``"folder"``,
    ``"canvas"``), ``unmatched`` (names), ``conflicts`` (dicts with ``file``, ``why`` and
    ``other``: the paths involved)."""

    student: dict[int, str] = field(default_factory=dict)
    how: dict[int, str] = field(default_factory=dict)
    unmatched: list[str] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {"path": 0, "name": 0, "folder": 0, "canvas": 0}
        for how in self.how.values():
            out[how] += 1
        out["unmatched"] = len(self.unmatched)
        out["conflicts"] = len(self.conflicts)
        return out


def _strip_exercise(stem: str, exercise: str | None) -> str:
    """``s1234_03_pair_counting`` -> ``s1234``."""
    named = exercise_from_name(PurePosixPath(stem + ".ipynb"))
    for e in (exercise, named):
        if e and e in stem and stem != e:
            stem = stem.replace(e, "").strip("_-. ") or stem
    return stem


def _student(text: str, students: set[str]) -> str | None:
    """The student of ``students`` that ``text`` is, in any case (``S0001`` -> ``s0001``)
    when no other student's id differs from it only in case; else None."""
    if text in students:
        return text
    fits = [s for s in students if s.casefold() == text.casefold()]
    return fits[0] if len(fits) == 1 else None


def _folder_student(folder: str, students: set[str]) -> str | None:
    """The student whose per-student folder ``folder`` is: their id (:func:`_student`), or
    nbgrader's exchange folder of a submission, ``ID+ASSIGNMENT+TIMESTAMP[+RANDOM]``."""
    found = _student(folder, students)
    parts = folder.split("+")
    for k in range(len(parts) - 2, 0, -1):    # the longest id first (ids may hold "+")
        found = found or _student("+".join(parts[:k]), students)
    return found


def lms_layer(folders, base: str, students: set[str] | None = None):
    """(student, Canvas parts) of the LMS's own layer of a collected path: the outermost
    of its ``folders`` that is a per-student folder of ``students`` (the student, None)
    or a Canvas "Download Submissions" name (None, :func:`canvas_parts`; a folder unzip
    made of an upload), else the Canvas name of ``base``, else (None, None). Whatever
    lies inside that layer (the folders of an unzipped upload, a name holding folders)
    is the uploader's content and never names anyone."""
    for folder in folders:
        found = _folder_student(folder, students) if students is not None else None
        if found:
            return found, None
        canvas = canvas_parts(folder)
        if canvas is not None and canvas[0].isalpha():
            return None, canvas
    return None, canvas_parts(base)


def canvas_late(path: str) -> bool:
    """Whether Canvas marked ``path`` (relative to the folder graded) late: the late mark
    of its outermost Canvas name, a folder's (an unzipped upload's) or the file's, in any
    case (``_LATE_``, ``_late_``); a mark inside an upload is the student's own text."""
    parts = [p for p in str(path).split("/") if p not in ("", ".")]
    if not parts:
        return False
    _, canvas = lms_layer(parts[:-1], parts[-1])
    return canvas is not None and canvas[1]


def _claim(base: str, roster: dict | None, students: set[str] | None,
           exercise: str | None) -> str | None:
    """The student ``base`` names once its decorations are off (see the module doc)."""
    plain = plain_name(base)
    if roster is not None and roster.get(plain):
        return roster[plain]
    sid = _strip_exercise(plain[:-6] if plain.endswith(".ipynb") else plain, exercise)
    if not valid_id(sid):
        return None
    return sid if students is None else _student(sid, students)


def resolve(names, *, roster: dict | None = None, people: dict | None = None,
            exercise: str | None = None, by_folder: bool = False) -> Resolution:
    """Who handed in each of ``names`` (paths relative to the folder graded, ``/``
    between folders) and who it is graded as (see the module doc). ``roster``: file ->
    student (:func:`~.identity.read_roster`); ``people``: student -> :class:`Person`
    (:func:`read_people`); ``by_folder``: the first folder of every path is its
    uploader."""
    exercise = exercise_name(exercise) if exercise else None   # "03" -> "03_pair_counting"
    students = None
    if roster is not None or people:
        students = set(roster.values() if roster else ()) | set(people or ())
    by_canvas_id = {p.canvas_id: s for s, p in (people or {}).items() if p.canvas_id}
    by_canvas_name: dict[str, set[str]] = {}
    for s, p in (people or {}).items():
        for key in canvas_name_key(p.name):
            by_canvas_name.setdefault(key, set()).add(s)
    res = Resolution()
    uploader: dict[int, str] = {}      # entry -> who uploaded it ("s002", "Canvas user 17")
    own_canvas: dict[int, str] = {}    # entry in a per-student folder -> its name's student
    # each path as it was collected, for the instructor (a backslash in a name stays one)
    shown = [display_name("/".join(p for p in str(n).split("/") if p not in ("", ".")))
             for n in names]

    def canvas_student(canvas) -> str | None:
        """The student of a Canvas name: by its user id, else by the name when one
        student has it and the roster gives them no Canvas id (another id is another
        person, whatever name they gave Canvas)."""
        cname, _, user, _ = canvas
        if user in by_canvas_id:
            return by_canvas_id[user]
        named = by_canvas_name.get(cname.lower(), set())
        one = next(iter(named)) if len(named) == 1 else None
        return one if one is not None and not people[one].canvas_id else None
    for k, name in enumerate(names):
        key = roster_key(name)
        # the folders are those of the path: a backslash in a file's name is no folder
        parts = [p for p in str(name).split("/") if p not in ("", ".")]
        base, folders = parts[-1], parts[:-1]
        if roster is not None and "/" in key and roster.get(key):
            res.student[k], res.how[k] = roster[key], "path"   # the instructor said so
            uploader[k] = roster[key]
            continue
        up, how, canvas = None, None, None
        if by_folder and folders:
            up, how = (folders[0] if valid_id(folders[0]) else None), "folder"
            if up is None:
                res.unmatched.append(shown[k])
                continue
        else:
            layer, canvas = lms_layer(folders, base, students)
            if layer is not None:
                up, how = layer, "folder"
                named = canvas_parts(base)
                own_canvas[k] = canvas_student(named) if named else None
        if up is None and canvas is not None:
            up, how = canvas_student(canvas) or f"Canvas user {canvas[2]}", "canvas"
        claim = _claim(base, roster, students, exercise)
        if up is not None and students is None and exercise_from_name(
                PurePosixPath(plain_name(base))) is None:
            claim = None   # no roster: only a hand-in name (ID_NN_topic) names a student
        if up is not None and not up.startswith("Canvas user "):
            if claim is not None and claim != up:
                res.conflicts.append({"file": shown[k], "uploader": up,
                                      "claims": claim,
                                      "why": f"handed in by {up} (from where it was "
                                             f"collected) but named as {claim}'s",
                                      "kind": "uploader", "other": []})
                continue
            res.student[k], res.how[k], uploader[k] = up, how, up
        elif claim is not None:
            res.student[k] = claim
            res.how[k] = "canvas" if up else "name"
            if up:
                uploader[k] = up
        else:
            res.unmatched.append(shown[k])
    # one student by a Canvas name and by a per-student folder of another layout: the
    # folders of an upload unzipped in place beside the download, never decided by date
    layers: dict[str, dict[str, list[int]]] = {}
    for k, s in res.student.items():
        if uploader.get(k) == s:
            layers.setdefault(s, {}).setdefault(res.how[k], []).append(k)
    for s, how in layers.items():
        for k in how.get("folder", []) if "canvas" in how else []:
            if own_canvas.get(k) == s:
                continue          # a Canvas download sorted into per-student folders
            res.conflicts.append({"file": shown[k],
                                  "uploader": "unknown", "claims": s,
                                  "why": f"a per-student folder beside {s}'s Canvas "
                                         "download (an upload unzipped in place?)",
                                  "kind": "layout", "other": []})
            del res.student[k], res.how[k]
    # two uploaders claiming one student; a conflict's other paths: the named student's
    groups: dict[str, list[int]] = {}
    for k, s in res.student.items():
        groups.setdefault(s, []).append(k)
    for s, ks in groups.items():
        ups = {uploader[k] for k in ks if k in uploader}
        if len(ups) > 1:
            own = [k for k in ks if uploader.get(k) in (s, None)]
            if not any(uploader.get(k) == s for k in ks):
                own = []   # nobody is known to be the student: neither is graded
            for k in ks:
                if k in own:
                    continue
                others = [shown[j] for j in ks if j != k]
                res.conflicts.append({"file": shown[k],
                                      "uploader": uploader.get(k, "unknown"), "claims": s,
                                      "why": f"{len(ups)} uploaders claim {s}",
                                      "kind": "uploaders", "other": others})
                del res.student[k], res.how[k]
    # one uploader the roster does not know (a Canvas id) naming several students
    by_unknown: dict[str, list[int]] = {}
    for k in res.student:
        if uploader.get(k, "").startswith("Canvas user "):
            by_unknown.setdefault(uploader[k], []).append(k)
    for up, ks in by_unknown.items():
        named = sorted({res.student[k] for k in ks})
        if len(named) < 2:
            continue
        for k in ks:
            res.conflicts.append({"file": shown[k], "uploader": up,
                                  "claims": res.student[k],
                                  "why": f"{up} handed in files named for {len(named)} "
                                         f"students ({', '.join(named)})",
                                  "kind": "one uploader",
                                  "other": [shown[j]
                                            for j in ks if j != k]})
        for k in ks:
            del res.student[k], res.how[k]
    mine = {}
    for k, s in res.student.items():
        mine.setdefault(s, []).append(shown[k])
    for c in res.conflicts:
        if not c["other"]:
            c["other"] = mine.get(c["claims"], [])
    return res


def conflict_lines(res: Resolution) -> list[str]:
    """One line per conflict and per unmatched file, for the instructor."""
    lines = []
    for c in res.conflicts:
        other = ", ".join(c["other"])
        lines.append(f"conflict: {c['file']}: {c['why']}; not graded (never decided by "
                     "date); " + (f"also naming {c['claims']}: {other}"
                                  if c["kind"] == "uploaders"
                                  else f"its other file(s): {other}; the roster's canvas_id "
                                       "says who is who" if c["kind"] == "one uploader"
                                  else f"{c['claims']}'s own file(s): {other}" if other
                                  else f"{c['claims']} handed in no other file"))
    lines += [f"unmatched: {n}: neither where it was collected nor its name says whose "
              "it is; not graded, not exported" for n in res.unmatched]
    return lines

