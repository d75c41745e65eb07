"""A class roster as a learning management system writes it: Canvas's gradebook export
and Gradescope's roster, read as they are (:func:`lms_rows`).

The grader's own roster is a CSV with a column ``student`` (:func:`~.identity.roster_rows`
reads it, and hands any other CSV to :func:`lms_rows` first):

* **Canvas's gradebook export** (Grades, Export): the columns ``Student, ID, SIS User ID,
  SIS Login ID, Section``, then one per assignment. Its ``Points Possible`` row (and any
  other row that names no student: ``Manual Posting``, ``Read Only``) and Canvas's test
  student (``Student, Test``) are skipped. The student id is the ``SIS User ID``; a row
  without one takes its ``SIS Login ID``; a row with neither is refused by line. The
  name (``Student``, as Canvas sorts it: ``Lima, Ana``), Canvas's user ``ID`` (which
  names a student's files in Canvas's "Download Submissions"), the SIS login and the
  section are kept; the assignment columns are not.
* **Gradescope's roster** (Roster, Download): ``First Name, Last Name`` or ``Name``
  (or ``Full Name``), ``Email``, ``SID``, ``Role``. Only the rows whose ``Role`` is
  ``Student`` are read (without a ``Role`` column, every row). The student id is the
  ``SID``; a row without one takes its ``Email``.

Each row read becomes ``{"student": ..., "name": ..., ...}`` with the person columns of
:data:`~.uploader.PERSON_COLUMNS` (``name``, ``email``, ``sis_id``, ``sis_login``,
``section``, ``canvas_id``), so ``prayatul-edu assign`` copies them into its
``roster.csv`` and the exports fill Canvas's and Gradescope's columns from them.
"""
from __future__ import annotations

import re

__all__ = ["lms_rows", "lms_kind", "CANVAS_COLUMNS", "TEST_STUDENT", "LMS_NAMES"]

#: The identity columns of Canvas's gradebook export, in its order.
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
#: The sortable name Canvas gives its test student ("Student View").
TEST_STUDENT = ("student, test", "test student")
#: What the errors say the recognised formats are.
LMS_NAMES = ("Canvas's gradebook export (Student, ID, SIS User ID, SIS Login ID, Section) "
             "or Gradescope's roster (Name, Email, SID, Role)")


def _key(text) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(text or "").strip().lower()).strip("_")


def lms_kind(fieldnames) -> str | None:
    """``"canvas"``, ``"gradescope"`` or None: which LMS wrote a CSV with these columns."""
    keys = {_key(f) for f in fieldnames or ()}
    if {"student", "id"} <= keys and keys & {"sis_user_id", "sis_login_id"}:
        return "canvas"
    if "sid" in keys and keys & {"email", "name", "full_name", "first_name", "last_name"}:
        return "gradescope"
    return None


def _get(row: dict, *names) -> str:
    keyed = {_key(k): (v or "").strip() for k, v in row.items()
             if k is not None and isinstance(v, str)}
    return next((keyed[n] for n in names if keyed.get(n)), "")


def _canvas(numbered) -> list[tuple[int, dict]]:
    out = []
    for line, row in numbered:
        name, canvas_id = _get(row, "student"), _get(row, "id")
        if not canvas_id or name.lower() in TEST_STUDENT:
            continue        # Points Possible, Manual Posting, Read Only; the test student
        sis_id, login = _get(row, "sis_user_id"), _get(row, "sis_login_id")
        if not (sis_id or login):
            raise ValueError(f"roster: line {line}: the Canvas student {name!r} (ID "
                             f"{canvas_id}) has neither an SIS User ID nor an SIS Login ID: "
                             "the grader names students by one of them")
        out.append((line, {"student": sis_id or login, "name": name, "canvas_id": canvas_id,
                           "sis_id": sis_id, "sis_login": login,
                           "section": _get(row, "section")}))
    return out


def _gradescope(numbered, has_role: bool) -> list[tuple[int, dict]]:
    out = []
    for line, row in numbered:
        if has_role and _get(row, "role").lower() != "student":
            continue        # instructors, TAs, readers
        name = _get(row, "name", "full_name") or " ".join(
            p for p in (_get(row, "first_name"), _get(row, "last_name")) if p)
        sid, email = _get(row, "sid"), _get(row, "email")
        if not (sid or email or name):
            continue        # an empty line of a spreadsheet
        if not (sid or email):
            raise ValueError(f"roster: line {line}: the Gradescope student {name!r} has "
                             "neither an SID nor an Email: the grader names students by "
                             "one of them")
        out.append((line, {"student": sid or email, "name": name, "email": email,
                           "sis_id": sid, "section": _get(row, "sections", "section")}))
    return out


def lms_rows(fieldnames, numbered) -> list[tuple[int, dict]] | None:
    """(line, row) of every student of a roster an LMS wrote (see the module doc), each
    row holding ``student`` and the person columns; None when the columns ``fieldnames``
    are not those of a recognised LMS. ``numbered``: (line, row) of the CSV's rows, as
    :class:`csv.DictReader` reads them."""
    kind = lms_kind(fieldnames)
    if kind == "canvas":
        return _canvas(numbered)
    if kind == "gradescope":
        return _gradescope(numbered, "role" in {_key(f) for f in fieldnames})
    return None
