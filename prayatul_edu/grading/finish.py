"""The files of a grades folder, rewritten from its grades.json: ``prayatul-edu export``
(and the last step of ``grade``).

No notebook runs. The grades in grades.json get the instructor's corrections
(:mod:`.overrides`) and the late policy (:mod:`.late`); then grades.json, grades.csv,
feedback/, the Canvas and Gradescope exports (:mod:`.export`) and the class report
(:mod:`.class_report`) are written again, and ``to_grade_by_hand.csv`` lists the
free-text answers still waiting for their points (fill it in, pass it as
``--overrides``). What the exports were (formats, assignment
name, the missing policy) is kept in grades.json (``exports``), so a later ``export``
writes the same files.

**Missing students**: every student of the roster given to ``grade`` who has no graded
file is listed in grades.json's ``missing`` (``student``, ``name``, ``status``
``"missing"``, ``total``), has a row in every export and is named at the top of the
class report. Their points are, by the policy ``missing`` (``--missing``): ``blank``
(the default: ``total`` null, an empty cell in the exports, which Canvas and Gradescope
read as no grade) or ``zero`` (0 points).
"""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from ..exercises.authoring import HAND
from .batch import feedback_name
from .class_report import write_class_report
from .export import missing_cell, write_exports
from .output import grader_files, not_written
from .uploader import Person
from .late import LATE_ROW, describe, late_verdict, parse_policy, read_due, read_submissions
from .overrides import apply_overrides, hand_grading_csv, points_text, read_overrides
from .report import StudentReport, csv_text, feedback_markdown, md_escape, write_atomic

__all__ = ["finish", "read_grades", "student_feedback"]


def read_grades(folder) -> dict:
    """grades.json of ``folder``; ValueError saying what is wrong."""
    path = Path(folder) / "grades.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(f"grades: no readable grades.json in {Path(folder).name or '.'} "
                         "(a folder written by prayatul-edu grade)") from None
    if not isinstance(data, dict) or not isinstance(data.get("students"), list):
        raise ValueError("grades: grades.json holds no students")
    return data


def student_feedback(s: dict) -> str:
    """The feedback file: the grader's, then the corrections and the lateness."""
    text = feedback_markdown(StudentReport.from_dict(s))
    extra = []
    if s.get("overrides"):
        extra += ["## Corrected by your instructor", ""]
        extra += [f"* {md_escape(o['question'])}: {points_text(o['points'])} (the grader gave "
                  f"{o['grader_points']:g}), {md_escape(o['time'])}: {md_escape(o['reason'])}"
                  for o in s["overrides"]]
        extra.append("")
    if s.get("late"):
        extra += ["## Late work", "", md_escape(describe(s["late"])), ""]
    return text + ("\n" + "\n".join(extra) if extra else "")


def _missing(students, settings: dict, people: dict, policy: str) -> list[dict]:
    """grades.json's ``missing``: the students of the roster with no graded file."""
    graded = {s["student"] for s in students}
    maximum = max((s["max_total"] for s in students), default=0.0)
    return [{"student": sid, "name": people[sid].name if sid in people else "",
             "status": "missing", "total": 0.0 if policy == "zero" else None,
             "max_total": maximum}
            for sid in settings.get("roster") or () if sid not in graded]


def _apply_late(s: dict, record: dict | None) -> None:
    s["rows"] = [r for r in s["rows"] if r["question"] != LATE_ROW]
    s["late"] = record
    if record and record["penalty"]:
        earned = round(sum(r["points"] for r in s["rows"]), 2)
        s["rows"].append({"student": s["student"], "variant": s["rows"][0]["variant"]
                          if s["rows"] else "", "question": LATE_ROW, "title": "penalty",   # shown "late penalty"
                          # + 0.0: no penalty of nothing earned printed as "-0"
                          "points": -round(earned * record["penalty"], 2) + 0.0,
                          "max_points": 0.0,
                          "status": "late", "feedback": describe(record), "file": s["file"],
                          "diagnosed": []})


def finish(folder, *, overrides=None, late: str | None = None, due: str | None = None,
           submissions=None, formats=None, assignment: str | None = None,
           canvas_questions: bool | None = None, now: dt.datetime | None = None,
           missing: str | None = None) -> dict:
    """Rewrite the files of the grades ``folder`` (see the module doc); ``None`` keeps what
    grades.json says (formats, the late policy); returns the new grades.json data.
    ValueError (nothing written) for a bad overrides or submissions file or policy."""
    folder = Path(folder)
    data = read_grades(folder)
    students = data["students"]
    kept = data.get("exports", {})
    formats = tuple(kept.get("formats", ()) if formats is None else formats)
    assignment = kept.get("assignment") if assignment is None else assignment
    canvas_questions = bool(kept.get("canvas_questions")) if canvas_questions is None \
        else canvas_questions
    missing = kept.get("missing", "blank") if missing is None else missing
    missing_cell(missing)       # an unknown policy refused before anything is written
    late_kept = data.get("late_policy", {})
    policy = parse_policy(late if late is not None else late_kept.get("policy"))
    due_at = read_due(due) if due else (dt.datetime.fromisoformat(late_kept["due"])
                                        if late_kept.get("due") else None)
    times = read_submissions(submissions) if submissions else {
        k: dt.datetime.fromisoformat(v) for k, v in late_kept.get("submitted", {}).items()}
    skipped = apply_overrides(students, read_overrides(overrides), now) if overrides else []
    for s in students:
        _apply_late(s, late_verdict(s["student"], s["file"], due_at, times, policy))
        s["total"] = round(sum(r["points"] for r in s["rows"]), 2)
        s["max_total"] = round(sum(r["max_points"] for r in s["rows"]), 2)
    data["overrides_skipped"] = skipped    # students of the file not in these grades
    graded = {s["student"] for s in students}
    data["submissions_skipped"] = sorted(set(times) - graded)   # named, never dropped silently
    data["exports"] = {"formats": list(formats), "assignment": assignment,
                       "canvas_questions": canvas_questions, "missing": missing}
    data["late_policy"] = {"policy": policy.text,
                           "due": due_at.isoformat() if due_at else None,
                           "submitted": {k: v.isoformat() for k, v in times.items()}}
    reports = [StudentReport.from_dict(s) for s in students]
    # the instructor's files inside the grader's folders: kept, and never listed as the
    # grader's (a later grade --replace refuses the run naming them, never deletes them)
    yours = ({n for n in not_written(folder) if "/" in n}
             if isinstance(data.get("settings", {}).get("files"), list) else set())
    yours -= {f"feedback/{feedback_name(r)}" for r in reports}
    (folder / "feedback").mkdir(exist_ok=True)
    for s, r in zip(students, reports):
        write_atomic(folder / "feedback" / feedback_name(r), student_feedback(s))
    write_atomic(folder / "grades.csv", csv_text(reports))
    settings = data.setdefault("settings", {})
    people = {k: Person(**v) for k, v in (settings.get("people") or {}).items()}
    data["missing"] = _missing(students, settings, people, missing)
    absent = [m["student"] for m in data["missing"]]
    yours -= {p.relative_to(folder).as_posix() for p in write_exports(
        reports, folder, formats, assignment=assignment, canvas_questions=canvas_questions,
        people=people or None, missing=absent, missing_policy=missing)}
    title = assignment or " + ".join(sorted({s.get("exercise") or "" for s in students}
                                            - {""})) or "grades"
    write_class_report(students, folder, title,    # named as the roster names them
                       [f"{m['student']} ({m['name']})" if m.get("name") else m["student"]
                        for m in data["missing"]])
    waiting = folder / "to_grade_by_hand.csv"
    if any(r["status"] == HAND for s in students for r in s["rows"]):
        write_atomic(waiting, hand_grading_csv(students, HAND))
    else:
        waiting.unlink(missing_ok=True)
    settings["files"] = sorted(set(grader_files(folder)) - yours | {"grades.json"})
    write_atomic(folder / "grades.json", json.dumps(data, indent=1))
    return data
