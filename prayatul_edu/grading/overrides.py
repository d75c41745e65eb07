"""Grades corrected by hand: ``--overrides FILE`` of ``prayatul-edu export`` and ``grade``.

The file is a CSV with the columns ``student``, ``question``, ``points`` and ``reason``
(one row per correction: a question answered on paper, a regrade request, partial
credit the checker cannot see, the points of a free-text answer; a row with neither
points nor reason is skipped, so ``to_grade_by_hand.csv`` can be filled in bit by
bit). Each is applied to grades.json and kept there, in the student's ``overrides``,
with its reason, the time it was first applied and the grader's own points and
status; the feedback shows it.
Applying the same file again changes nothing (an unchanged correction keeps its time);
a later ``grade --overrides FILE`` into a new folder applies it to the new grades.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import re

from ..exercises import CORRECT, INCORRECT, NOT_ATTEMPTED, PARTLY
from ..exercises.authoring import HAND
from .identity import csv_rows, display_name
from .report import clean_text, csv_safe

__all__ = ["read_overrides", "check_overrides", "apply_overrides", "hand_grading_csv",
           "COLUMNS", "REASON_CAP"]

COLUMNS = ("student", "question", "points", "reason")
#: Characters of a reason kept.
REASON_CAP = 500
#: Points as a correction gives them: digits with at most one decimal point.
_POINTS = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def read_overrides(path) -> list[dict]:
    """The corrections in the CSV ``path``; ValueError naming the line and the problem."""
    out, seen = [], {}
    for k, row in csv_rows(path, COLUMNS, "overrides"):
        if not (row["points"] or "").strip() and not (row["reason"] or "").strip():
            continue          # a row of to_grade_by_hand.csv not filled in yet
        sid, qid = row["student"], (row["question"] or "").strip()
        reason = clean_text(" ".join((row["reason"] or "").split()), REASON_CAP)
        if not qid:
            raise ValueError(f"overrides: line {k}: no question")
        points = _points(row["points"], k)
        if not reason:
            raise ValueError(f"overrides: line {k}: give a reason (it is shown to the student)")
        if (sid, qid) in seen:
            raise ValueError(f"overrides: line {k}: {sid} {qid} is corrected twice (line "
                             f"{seen[sid, qid]})")
        seen[sid, qid] = k
        out.append({"student": sid, "question": qid, "points": points, "reason": reason,
                    "line": k})
    return out


def _points(text, line: int) -> float:
    """The points of line ``line``: digits with at most one ``.`` (``1``, ``0.5``,
    ``.5``); ValueError for anything else (``-0``, ``0_5``, ``1e3``, ``0,5``, ``inf``),
    which Python's ``float`` would read (``0_5`` as 5)."""
    text = (text or "").strip()
    if _POINTS.fullmatch(text):
        return float(text)
    shown = display_name(text, 20)
    why = ("no points (give them, or leave the reason empty too)" if not text
           else f"points {shown!r} is negative (give 0 or more)" if text.startswith("-")
           else f"points {shown!r} is not a number such as 0.5 (digits and a point only)")
    raise ValueError(f"overrides: line {line}: {why}")


def check_overrides(overrides: list[dict], maxima: dict, students=None) -> None:
    """Every correction of ``overrides`` (:func:`read_overrides`) against the exercise
    graded, before anything is graded: ``maxima`` (question -> its points) names the
    questions there are, ``students`` (a set; None: not checked) the students known (the
    roster's). ValueError naming the first line that is wrong and why."""
    for o in overrides:
        where = f"overrides: line {o['line']}: {display_name(o['student'], 64)}"
        if students is not None and o["student"] not in students:
            meant = _in_another_case(o["student"], students)
            raise ValueError(f"{where}: no such student (not on the roster"
                             + (f"; {meant} is" if meant else "") + "); nothing was graded")
        if o["question"] not in maxima:
            raise ValueError(f"{where}: no question {display_name(o['question'], 20)!r} "
                             f"(the questions are {', '.join(maxima)}); nothing was graded")
        if o["points"] > maxima[o["question"]]:
            raise ValueError(f"{where} {o['question']}: {o['points']:g} points is more than "
                             f"the question's {maxima[o['question']]:g}; nothing was graded")


def _in_another_case(sid: str, known) -> str | None:
    """The one id of ``known`` that ``sid`` (not among them) differs from only in case."""
    if sid in known:
        return None
    found = [k for k in known if k.casefold() == sid.casefold()]
    return found[0] if len(found) == 1 else None


def hand_grading_csv(students: list[dict], status: str) -> str:
    """``to_grade_by_hand.csv``: a row (points and reason empty) per answer whose
    ``status`` says it waits for its points, to fill in and pass as ``--overrides``;
    its last column, ``answer``, is the student's typed answer (read, never applied)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS + ("answer",))
    w.writerows([csv_safe(s["student"]), csv_safe(r["question"]), "", "",
                 csv_safe(clean_text(str(r.get("answer") or "")))]
                for s in students for r in s["rows"] if r["status"] == status)
    return buf.getvalue()


def points_text(points: float) -> str:
    """``1 point``, ``1.5 points``, ``0 points``."""
    return f"{points:g} point{'s' * (points != 1)}"


def _status(points: float, maximum: float, before: str) -> str:
    if maximum > 0 and points >= maximum:
        return CORRECT
    if points > 0:
        return PARTLY
    return NOT_ATTEMPTED if before == NOT_ATTEMPTED else INCORRECT


def apply_overrides(students: list[dict], overrides: list[dict],
                    now: dt.datetime | None = None) -> list[str]:
    """Apply ``overrides`` to the students of grades.json (dicts, changed in place);
    return the students of ``overrides`` not in these grades (skipped: a regrade of part
    of the class carries the whole file over). ValueError (nothing changed) for a
    question a student does not have, or points above the question's maximum."""
    by_id = {s["student"]: s for s in students}
    for o in overrides:
        meant = _in_another_case(o["student"], by_id)
        if meant:
            where = f"overrides: line {o['line']}: " if "line" in o else "overrides: "
            raise ValueError(f"{where}{display_name(o['student'], 64)} is not in these "
                             f"grades but {meant} is (an id in another case?): write "
                             f"{meant}")
    skipped = sorted({o["student"] for o in overrides if o["student"] not in by_id})
    overrides = [o for o in overrides if o["student"] in by_id]
    for o in overrides:
        s = by_id[o["student"]]
        row = next((r for r in s["rows"] if r["question"] == o["question"]), None)
        where = f"overrides: line {o['line']}: " if "line" in o else "overrides: "
        if row is None:
            raise ValueError(f"{where}{o['student']} has no question "
                             f"{display_name(o['question'], 20)!r} in grades.json")
        if o["points"] > row["max_points"]:
            raise ValueError(f"{where}{o['student']} {o['question']}: {o['points']:g} "
                             f"points is more than the question's {row['max_points']:g}")
    stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    for o in overrides:
        s = by_id[o["student"]]
        row = next(r for r in s["rows"] if r["question"] == o["question"])
        kept = s.setdefault("overrides", [])
        old = next((e for e in kept if e["question"] == o["question"]), None)
        if old and old["points"] == o["points"] and old["reason"] == o["reason"]:
            continue
        grader = (old["grader_points"], old["grader_status"]) if old else (
            row["points"], row["status"])
        entry = {"question": o["question"], "points": o["points"], "reason": o["reason"],
                 "time": stamp, "grader_points": grader[0], "grader_status": grader[1]}
        if old:
            kept[kept.index(old)] = entry
        else:
            kept.append(entry)
        row["points"] = o["points"]
        row["status"] = _status(o["points"], row["max_points"], grader[1])
        if grader[1] == HAND:    # read by hand: graded now, no longer waiting
            row["feedback"] = (f"Graded by your instructor: {points_text(o['points'])} of "
                               f"{row['max_points']:g}. {o['reason']}")
        else:
            row["feedback"] = (row["feedback"].split(" [Corrected by your instructor")[0]
                               + " [Corrected by your instructor: "
                               f"{points_text(o['points'])}. {o['reason']}]")
    return skipped
