"""Each student's feedback delivered: ``prayatul-edu feedback GRADES_DIR --out DIR``.

From a grades folder's grades.json (after ``export``: corrections and late work in),
:func:`deliver` writes, for every graded student, ``DIR/STUDENT/feedback.md`` (the
feedback of ``feedback/``) and ``DIR/STUDENT/feedback.html`` (the same, readable in a
browser: rendered by mistune, no script, no raw HTML: the student's text was escaped
in the Markdown already and stays text). With ``layout="nbgrader"`` the files go where
nbgrader's ``feedback`` folder puts them, ``DIR/STUDENT/ASSIGNMENT/`` (hand ``DIR`` to
nbgrader's exchange, or to a course that collects feedback so).

When the roster came from Canvas (its students have Canvas ids: ``assign`` copies them
from Canvas's gradebook export), ``DIR/canvas_feedback.zip`` holds every student's
HTML feedback named as Canvas's "Download Submissions" names a student's file,
``NAME_USERID_feedback.html`` (``limaana_3143_feedback.html``): Canvas's "Re-upload
Submissions" of the assignment reads the user id in that name and attaches the file to
that student's submission as a comment. A student without a Canvas id is not in the
zip (listed in the result's ``not_in_zip``). A student the roster lists as missing
gets no folder: there is nothing to give feedback on.
"""
from __future__ import annotations

import html
import io
import re
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from .finish import read_grades, student_feedback
from .gradebook import grades_name
from .identity import valid_id
from .report import write_atomic

__all__ = ["deliver", "feedback_html", "canvas_file_name", "Delivered", "LAYOUTS"]

#: Where each student's files go: ``DIR/STUDENT/`` or nbgrader's ``DIR/STUDENT/ASSIGNMENT/``.
LAYOUTS = ("folders", "nbgrader")


@dataclass
class Delivered:
    """What :func:`deliver` wrote: ``students`` (id -> their folder), ``zip`` (Canvas's
    re-upload zip, or None) and ``not_in_zip`` (students without a Canvas id)."""

    students: dict = field(default_factory=dict)
    zip: Path | None = None
    not_in_zip: list = field(default_factory=list)


def feedback_html(markdown: str, title: str) -> str:
    """The feedback Markdown as a page of its own (see the module doc)."""
    import mistune

    render = mistune.create_markdown(escape=True, plugins=["table"])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\">"
            f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
            "max-width:50em;margin:auto;padding:0 1em}table{border-collapse:collapse}"
            "td,th{border:1px solid #bbb;padding:2px 6px}</style></head><body>\n"
            + render(markdown) + "</body></html>\n")


def canvas_file_name(name: str, canvas_id: str) -> str:
    """``NAME_USERID_feedback.html``: the name's letters as Canvas writes them in a
    download (lower case, last name first: ``"Lima, Ana"`` -> ``limaana``)."""
    if "," not in name:          # "Ana Lima": the last word first
        words = name.split()
        name = " ".join(words[-1:] + words[:-1])
    key = re.sub(r"[^a-z]", "", name.lower()) or "student"
    return f"{key}_{canvas_id}_feedback.html"


def deliver(folder, out, *, layout: str = "folders") -> Delivered:
    """Write every graded student's feedback of the grades ``folder`` into ``out`` (see the
    module doc); ValueError for an unknown layout or an ``out`` that is a file."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected {' or '.join(LAYOUTS)}, got {layout!r}")
    folder, out = Path(folder), Path(out)
    data = read_grades(folder)
    people = (data.get("settings") or {}).get("people") or {}
    assignment = grades_name(data, folder)
    assignment = re.sub(r"[^A-Za-z0-9_.+-]+", "_", assignment).strip("._") or "assignment"
    if out.exists() and not out.is_dir():
        raise ValueError(f"out: {out.name} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    done = Delivered()
    pages = {}
    for s in data["students"]:
        sid = s["student"]
        if not valid_id(sid) or sid.startswith("invalid-"):
            continue          # nobody was named for the file: nobody to deliver to
        target = out / sid / assignment if layout == "nbgrader" else out / sid
        if target.exists() and not target.is_dir():
            raise ValueError(f"out: {target.name} exists and is not a folder")
        target.mkdir(parents=True, exist_ok=True)
        markdown = student_feedback(s)
        pages[sid] = feedback_html(markdown, f"Feedback for {sid}: {assignment}")
        write_atomic(target / "feedback.md", markdown)
        write_atomic(target / "feedback.html", pages[sid])
        done.students[sid] = target
    with_ids = {sid: people[sid] for sid in pages
                if (people.get(sid) or {}).get("canvas_id")}
    zip_path = out / "canvas_feedback.zip"
    if with_ids:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for sid, p in with_ids.items():
                z.writestr(canvas_file_name(p.get("name") or sid, p["canvas_id"]), pages[sid])
        tmp = zip_path.with_suffix(".zip.part")
        tmp.write_bytes(buf.getvalue())
        shutil.move(tmp, zip_path)
        done.zip = zip_path
        done.not_in_zip = sorted(set(pages) - set(with_ids))
    else:
        zip_path.unlink(missing_ok=True)
    return done
