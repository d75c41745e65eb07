"""What the grader writes: one report per student, rows, feedback, safe CSV and JSON.

Everything a student controls (their output, exception messages, unreadable
answers) loses its control characters (ESC and all of C0 and C1 but newline and
tab: no terminal escape sequence reaches a file) and the characters that reorder
text (the bidirectional overrides and isolates: no row reads other than it is), and
is cut at
:data:`FIELD_CAP` characters per field as a report is made or read back
(:meth:`StudentReport.to_dict`, :meth:`StudentReport.from_dict`); it is escaped in
the Markdown feedback (only where Markdown would misread it: :func:`md_escape`); CSV
cells starting with
``= + - @``, a tab or a carriage return are neutralised (a leading ``'``) so a
spreadsheet does not run them; the final files are written atomically.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

__all__ = ["StudentReport", "CSV_COLUMNS", "NOTEBOOK_ERROR", "CELL_ERROR", "FIELD_CAP", "clean_text",
           "csv_safe", "md_escape",
           "feedback_markdown", "csv_text", "write_atomic", "variant_name"]

#: Status of every question of a notebook that could not be graded at all.
NOTEBOOK_ERROR = "notebook error"
#: Status of a question whose cell raised before any answer of it was checked (its
#: feedback names the cell and the exception).
CELL_ERROR = "error"
CSV_COLUMNS = ["student", "variant", "question", "points", "max_points", "status",
               "feedback", "file"]
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Characters kept of any text field of a report (feedback, a problem, a name).
FIELD_CAP = 2000
#: C0 and C1 but newline and tab; the marks, overrides and isolates that reorder text
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                      "\u2066-\u2069]")


def clean_text(text: str, cap: int = FIELD_CAP) -> str:
    """``text`` without control characters (newline and tab kept), at most ``cap``
    characters (the cut marked with an ellipsis)."""
    text = _CONTROL.sub("", text)
    return text if len(text) <= cap else text[:cap - 1] + "…"


def _clean(value):
    """Every string in ``value`` (dicts, lists, keys too) cleaned (:func:`clean_text`)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


@dataclass
class StudentReport:
    """The grades of one submission: ``student`` and ``variant`` as the instructor set
    them, ``declared`` what the notebook said, one row per question, the problems met,
    and per question the help used (``calls``: checks, hints, solutions, keys)."""

    student: str
    file: str
    variant: str | None
    exercise: str | None = None
    declared: list = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total(self) -> float:
        return round(sum(r["points"] for r in self.rows), 2)

    @property
    def max_total(self) -> float:
        return round(sum(r["max_points"] for r in self.rows), 2)

    def to_dict(self) -> dict:
        d = _clean(asdict(self))
        d.update(total=self.total, max_total=self.max_total)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "StudentReport":
        names = {f for f in cls.__dataclass_fields__}
        return cls(**{k: _clean(v) for k, v in d.items() if k in names})


def variant_name(seed) -> str:
    if seed == "":
        return "no variant (not graded)"
    return "the course's own data" if seed is None else f"variant {seed}"


def csv_safe(value):
    """``value`` for a CSV cell: text a spreadsheet would run as a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def md_escape(text, table: bool = False) -> str:
    """Student-controlled ``text`` (or a message quoting it) as one line of inert Markdown
    that still reads as itself, as plain text and rendered: only what Markdown would
    misread is escaped, and only where it would (``s0001_01_matching`` stays as it is; a
    ``_`` that could start emphasis, ``*``, ``~``, a ``]`` that would close a link, a
    backslash before punctuation and a line-opening ``#``, ``>``, ``-``, ``+``, ``=`` or
    ``1.`` get a backslash). No HTML: a ``<`` that could open a tag, and a ``&`` that
    could start an entity, become ``&lt;`` and ``&amp;`` (every renderer honours those,
    not all a backslash before ``<``). ``table``: for a table's cell (``|`` escaped)."""
    s = re.sub(r"\s+", " ", str(text)).strip()
    s = re.sub(r"\\(?=[!-/:-@\[-`{-~])", r"\\\\", s)   # a backslash that would escape
    s = re.sub(r"&(?=#?\w+;)", "&amp;", s)                # an entity
    s = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", s)             # a tag, a comment, an autolink
    s = re.sub(r"[*~]", lambda m: "\\" + m.group(0), s)   # emphasis, strikethrough
    s = re.sub(r"(?<![^\W_])_|_(?![^\W_])", r"\\_", s)   # _ not inside a word
    s = re.sub(r"\](?=[(\[:])", r"\\]", s)                # a link, an image, a reference
    s = re.sub(r"^([#>+=-])", r"\\\1", s)                 # a heading, quote, list, rule
    s = re.sub(r"^(\d+)([.)])(?= |$)", r"\1\\\2", s)         # an ordered list
    return s.replace("|", "\\|") if table else s


def _help_line(calls: dict) -> str:
    parts = []
    for what in ("check", "hint", "solution", "key"):
        got = calls.get(what)
        if not got:
            continue
        shown = calls.get(f"{what}_shown", got)
        name = {"check": "check", "hint": "hint", "solution": "solution()", "key": "key()"}[what]
        text = f"{got} {name}{'s' if got != 1 and what in ('check', 'hint') else ''}"
        if what != "check" and shown != got:
            text += f" ({shown} shown)"
        elif what in ("solution", "key"):
            text += " (shown)" if shown else ""
        parts.append(text)
    return ", ".join(parts) if parts else "none"


def feedback_markdown(r: StudentReport) -> str:
    """The feedback file of one student (Markdown)."""
    lines = [f"# Feedback for {md_escape(r.student)}", "",
             f"File {md_escape(r.file)}, {md_escape(variant_name(r.variant))}: "
             f"**{r.total:g} / {r.max_total:g} points**.", ""]
    if r.problems:
        lines += ["## Problems with the notebook", ""] + [f"* {md_escape(p)}"
                                                          for p in r.problems] + [""]
    lines += ["## Questions", "", "| question | points | status | help used |",
              "| --- | --- | --- | --- |"]
    lines += [f"| {md_escape(x['question'], True)} {md_escape(x.get('title', ''), True)} | "
              f"{x['points']:g}/{x['max_points']:g} | {md_escape(x['status'], True)} | "
              f"{md_escape(_help_line(r.calls.get(x['question'], {})), True)} |"
              for x in r.rows]
    lines.append("")
    for x in r.rows:
        lines += [f"### {md_escape(x['question'])} {md_escape(x.get('title', ''))}", "",
                  md_escape(x["feedback"]), ""]
    return "\n".join(lines)


def csv_text(reports) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in reports:
        w.writerows({k: csv_safe(v) for k, v in row.items()} for row in r.rows)
    return buf.getvalue()


def json_text(reports, tolerance: dict, settings: dict) -> str:
    return json.dumps({"tolerance": tolerance, "settings": settings,
                       "students": [r.to_dict() for r in reports]}, indent=1)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new, whole."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
