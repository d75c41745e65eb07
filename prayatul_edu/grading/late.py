"""Late work: the due date, when each student handed in, and the late policy.

* **The due date** is given at ``prayatul-edu assign --due 2026-12-01T23:59`` and kept
  in the assignment's record, ``assignment.json`` beside the handouts
  (:func:`keep_due`); ``grade`` and ``export`` read it from there (``--due FILE``) or
  take a date (``--due 2026-12-01T23:59``). A date without a time zone is UTC.
* **The submission time** comes from the LMS, never from a file's modification time:
  a submissions CSV (``--submissions FILE``: columns ``student`` and ``submitted_at``,
  ISO 8601, as exported from the LMS) or Canvas's late mark in the names of its
  downloads (``name_late_123_456_file.ipynb``, in any case, or the folder an upload
  was unzipped into: late, by how much unknown; a mark inside an upload is not
  Canvas's). Without
  either it is *unknown*, and said so.
* **The policy** (``--late``): ``none`` (the default: nothing recorded), ``flag``
  (lateness shown, no points taken) or ``penalty:10%/day,cap:50%`` (each day or part
  of a day late takes 10% of the points, at most 50%; a Canvas mark alone counts as one
  day, the least it can be).

The verdict goes into grades.json (``late`` of each student), the feedback and, as a
row ``late`` of negative points, the totals and exports.

>>> p = parse_policy("penalty:10%/day,cap:50%")
>>> p.fraction(days=2), p.fraction(days=9)
(0.2, 0.5)
"""
from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from .identity import csv_rows
from .report import write_atomic
from .uploader import canvas_late

__all__ = ["LatePolicy", "parse_policy", "parse_due", "read_due", "keep_due",
           "read_submissions", "late_verdict", "RECORD", "LATE_ROW"]

#: The assignment's record beside the handouts.
RECORD = "assignment.json"
#: The question id of the row that carries a late penalty.
LATE_ROW = "late"
_POLICY = re.compile(r"penalty:(\d+(?:\.\d+)?)%/day(?:,cap:(\d+(?:\.\d+)?)%)?")


@dataclass(frozen=True)
class LatePolicy:
    """``kind``: none, flag or penalty; ``per_day`` and ``cap``: fractions of the points."""

    kind: str = "none"
    per_day: float = 0.0
    cap: float = 1.0
    text: str = "none"

    def fraction(self, days: int) -> float:
        """The share of the points taken for ``days`` (whole, started) days late."""
        if self.kind != "penalty" or days <= 0:
            return 0.0
        return round(min(self.cap, self.per_day * days), 6)


def parse_policy(text: str | None) -> LatePolicy:
    """``none``, ``flag`` or ``penalty:P%/day[,cap:C%]``; ValueError naming ``late``."""
    t = (text or "none").strip().lower().replace(" ", "")
    if t in ("none", "flag"):
        return LatePolicy(t, text=t)
    m = _POLICY.fullmatch(t)
    if not m:
        raise ValueError(f"late: expected none, flag or penalty:10%/day,cap:50%, got {text!r}")
    per_day, cap = float(m.group(1)) / 100, float(m.group(2) or 100) / 100
    if not 0 < per_day <= 1 or not 0 < cap <= 1:
        raise ValueError(f"late: the penalty and its cap must be between 0% and 100%, got "
                         f"{text!r}")
    return LatePolicy("penalty", per_day, cap, t)


def parse_due(text: str, what: str = "due") -> dt.datetime:
    """An ISO 8601 date and time (``2026-12-01T23:59``; without a zone: UTC)."""
    try:
        when = dt.datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{what}: expected a date and time such as 2026-12-01T23:59, got "
                         f"{str(text)[:60]!r}") from None
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def keep_due(out, due: str | None) -> Path:
    """Write the assignment's record (``out/assignment.json``): the due date as given and,
    when it reads as a date, as ISO 8601 (``due_at``)."""
    try:
        due_at = parse_due(due).isoformat() if due else None
    except ValueError:
        due_at = None
    path = Path(out) / RECORD
    write_atomic(path, json.dumps({"due": due, "due_at": due_at}, indent=1) + "\n")
    return path


def read_due(text: str | None) -> dt.datetime | None:
    """``--due``: a date, or an assignment's record (``assignment.json``)."""
    if not text:
        return None
    path = Path(text)
    if path.suffix == ".json" or path.is_file():
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise ValueError(f"due: cannot read the assignment's record {path.name}") from None
        if not isinstance(record, dict) or not record.get("due_at"):
            raise ValueError(f"due: {path.name} holds no due date that reads as a date "
                             "(assign --due 2026-12-01T23:59)")
        return parse_due(record["due_at"])
    return parse_due(text)


def read_submissions(path, students=None) -> dict[str, dt.datetime]:
    """student -> submission time, from the LMS's CSV (columns ``student`` and
    ``submitted_at``); a student listed twice: the latest time. ``students`` (a set; None:
    not checked): the roster's ids; ValueError naming every line whose id is not one."""
    times: dict[str, dt.datetime] = {}
    rows = csv_rows(path, ("student", "submitted_at"), "submissions")
    unknown = [f"line {k}: {row['student']}" for k, row in rows
               if students is not None and row["student"] not in students]
    if unknown:
        raise ValueError(f"submissions: {len(unknown)} id(s) not on the roster ("
                         + ", ".join(unknown[:5]) + (", ..." if len(unknown) > 5 else "")
                         + "): give the roster's ids; nothing was graded")
    for k, row in rows:
        sid = row["student"]
        when = parse_due(row["submitted_at"] or "", f"submissions: line {k}: submitted_at")
        times[sid] = max(when, times.get(sid, when))
    return times


def late_verdict(student: str, file: str, due: dt.datetime | None, times: dict,
                 policy: LatePolicy) -> dict | None:
    """The ``late`` record of one student (None when the policy is none): where the
    submission time came from, how many days (started) late, the share of points taken."""
    if policy.kind == "none":
        return None
    record = {"policy": policy.text, "due": due.isoformat() if due else None,
              "submitted": None, "source": "unknown", "late": None, "days": None,
              "penalty": 0.0}
    if student in times:
        record.update(submitted=times[student].isoformat(), source="submissions CSV")
        if due is not None:
            seconds = (times[student] - due).total_seconds()
            record["late"] = seconds > 0
            record["days"] = math.ceil(seconds / 86400) if seconds > 0 else 0
    elif canvas_late(file):
        record.update(source="Canvas's late mark", late=True, days=1)
    if record["late"] and record["days"]:
        record["penalty"] = policy.fraction(record["days"])
    return record


def describe(record: dict | None) -> str:
    """One sentence for the feedback."""
    if record is None:
        return ""
    if record["source"] == "unknown":
        return ("Submission time unknown (no time from the LMS): not treated as late.")
    if record["late"] is None:
        return (f"Submitted {record['submitted']}; no due date given: not judged.")
    if not record["late"]:
        return f"On time (submitted {record['submitted'] or '?'}, due {record['due']})."
    how = ("marked late by Canvas (how late is not known: counted as 1 day)"
           if record["source"] == "Canvas's late mark" else
           f"submitted {record['submitted']}, due {record['due']}: {record['days']} "
           f"day{'s' if record['days'] != 1 else ''} late")
    cost = (f"; {record['penalty'] * 100:g}% of the points taken ({record['policy']})"
            if record["penalty"] else f" (policy {record['policy']}: no points taken)")
    return f"Late: {how}{cost}."
