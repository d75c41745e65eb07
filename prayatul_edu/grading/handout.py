"""Hand out an assignment and, later, its solutions: ``prayatul-edu assign`` and ``release``.

:func:`assign` writes one notebook per student of a class roster from the published
exercise (``exercises/NN_topic.ipynb``, never ``solutions/``). Its first code cell (the
setup cell) turns assignment mode on inside the notebook itself, whatever folder it
is opened from (the policy goes to the environment variable the library reads,
unless the grader has already set one), fills in the student's ``STUDENT_ID`` and
carries the student's variant (:func:`student_variant`); an instructions cell says
how to install the library and what to hand in. The lines it adds end with
:data:`~.published.HANDOUT_MARK`, so the grader's comparison with the published
exercise does not count them as altered. Beside the notebooks: ``roster.csv``
(``file,student``: the roster ``prayatul-edu grade --roster`` reads) and a
``README.md`` for the instructor's records.

:func:`release` hands out the worked solutions (``solutions/NN_topic.ipynb``, on the
course's own data) and, with a roster, each student's notebook again with the
solutions of their own variant open.
"""
from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import re
import shutil
from pathlib import Path

from ..exercises.assignment import POLICY_ENV, VARIANT_ENV, Policy
from ..exercises.coursekey import read_key, variant_token
from ..exercises import QUESTIONS
from ..exercises.authoring import tolerance
from .identity import display_name, exercise_name, exercise_questions, roster_rows
from .published import HANDOUT_MARK, default_folder
from .report import write_atomic
from .uploader import read_people

__all__ = ["assign", "release", "student_variant", "read_course_key", "read_class_roster",
           "handout_notebook", "handout_name", "key_fingerprint", "recorded_key",
           "recorded_exercise", "key_record_problem", "handed_out_variant",
           "QUESTIONS_RECORD", "question_record", "questions_changed"]

#: What ``assign`` records of each question as handed out (the instructor's file, beside
#: README.md; never handed out): ``grade`` compares and refuses a question changed since.
QUESTIONS_RECORD = "questions.json"

#: What a solution in a notebook looks like (a solutions notebook must never be handed out).
_SOLUTION_MARKS = ("# BEGIN SOLUTION", "# SOLUTION", "# END SOLUTION")


def student_variant(key: bytes | None, student: str) -> str:
    """The variant (the seed of the student's data) of ``student``: without a course key
    the id itself (the public variants of self-study); with the instructor's key, the
    token only the key's holder can compute from the id
    (:func:`~prayatul_edu.exercises.coursekey.variant_token`, which the grader uses too)."""
    return student if key is None else variant_token(key, student)


def read_course_key(path) -> bytes:
    """The course key in the file ``path`` (:func:`~prayatul_edu.exercises.coursekey.read_key`;
    errors name the option ``course-key``)."""
    try:
        return read_key(path)
    except ValueError as exc:
        raise ValueError("course-key: " + str(exc).removeprefix("course key: ")) from None


def read_class_roster(path) -> list[str]:
    """The student ids of a class roster: a CSV with a column ``student`` (other columns,
    such as ``name``, ``email`` or a grading roster's ``file``, are ignored)."""
    return [row["student"] for row in _class_rows(path)]


def _class_rows(path) -> list[dict]:
    """The rows of a class roster, each student once (ValueError naming a repeated one)."""
    read_people(path)                # one Canvas id on two students' rows is refused
    seen: dict[str, int] = {}
    rows = []
    for k, row in roster_rows(path, ("student",)):
        if row["student"] in seen:
            raise ValueError(f"roster: line {k}: student {row['student']} is listed twice "
                             f"(line {seen[row['student']]})")
        seen[row["student"]] = k
        rows.append(row)
    return rows


def handout_name(student: str, exercise: str) -> str:
    """The file name a student hands in: ``s1234_03_pair_counting.ipynb``."""
    return f"{student}_{exercise}.ipynb"


def _setup_source(source: str, student: str, variant: str, policy: Policy) -> str:
    lines = [f"import os  {HANDOUT_MARK}",
             f"os.environ.setdefault({POLICY_ENV!r}, {policy.to_json()!r})  {HANDOUT_MARK}",
             f"os.environ[{VARIANT_ENV!r}] = {variant!r}  {HANDOUT_MARK}"]
    for line in source.splitlines():
        if line.lstrip().startswith("STUDENT_ID ="):
            line = (f"STUDENT_ID = {student!r}  # your student id, set by your instructor: "
                    "do not change it")
        lines.append(line)
    return "\n".join(lines)


def _instructions(student: str, exercise: str, *, title: str | None, due: str | None,
                  wheel: str | None, released: bool) -> str:
    name = handout_name(student, exercise)
    wheel = wheel or "prayatul_edu-VERSION-py3-none-any.whl"
    head = f"## Your assignment: {title}" if title else f"## Your assignment: {exercise}"
    lines = [head, "",
             f"* **Your id:** `{student}`, already set in the first code cell. Do not change "
             "it: your data and your grade are those of this id."]
    if released:
        lines += ["* **The solutions are released:** `q.solution()` shows the derivation "
                  "on your own data, `q.hint()` every hint. Nothing here is handed in."]
    else:
        lines += [
            f"* **Due:** {due}." if due else "* **Due:** as your instructor announced.",
            f"* **Hand in:** this notebook, saved, under its own name `{name}` (do not "
            "rename it; one file). Run every cell from the top before you save it.",
            "* **What counts:** each question's `check` cell. Your instructor runs your "
            "notebook again and re-checks every answer you checked; the last check of a "
            "question counts. A cell that does not finish or fails costs that cell only.",
            "* **Help:** `q.hint()` gives hints one by one as you make checked attempts; "
            "`q.solution()` stays closed until your instructor releases the solutions. "
            "Checks, hints and solutions asked for are recorded when your notebook is "
            "graded."]
    lines += ["",
              "**Installing prayatul-edu** (once; you do not need the course's repository). "
              "It is not on PyPI: install the wheel file your instructor gives you, with "
              "Python 3.10 or newer:", "",
              f"    pip install {wheel}", "",
              "then start `jupyter lab` and open this notebook."]
    return "\n".join(lines)


def _read_notebook(path: Path, what: str) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(f"{what}: {path.name} not found or not a notebook in "
                         f"{display_name(path.parent)}") from None


def handout_notebook(published: dict, exercise: str, student: str, variant: str, *,
                     policy: Policy, title: str | None = None, due: str | None = None,
                     wheel: str | None = None) -> dict:
    """The published exercise made ``student``'s (see the module doc); ValueError if it
    holds a solution or has no setup cell."""
    nb = json.loads(json.dumps(published))
    cells = nb.get("cells", [])
    for cell in cells:
        source = "".join(cell.get("source", ""))
        if any(mark in source for mark in _SOLUTION_MARKS):
            raise ValueError(f"assign: the notebook of {exercise} holds solutions (cell "
                             f"{cell.get('id')}); hand out the published exercise "
                             "(exercises/), never solutions/")
    setup = [k for k, c in enumerate(cells) if c.get("cell_type") == "code"
             and "STUDENT_ID =" in "".join(c.get("source", ""))]
    if not setup:
        raise ValueError(f"assign: the notebook of {exercise} has no setup cell "
                         "(STUDENT_ID = ...)")
    cell = cells[setup[0]]
    cell["source"] = _setup_source("".join(cell["source"]), student, variant, policy)
    cell["outputs"], cell["execution_count"] = [], None
    text = _instructions(student, exercise, title=title, due=due, wheel=wheel,
                         released=policy.released is True)
    cells.insert(setup[0], {"cell_type": "markdown", "id": "handout", "metadata": {},
                            "source": text})
    return nb


def _write_notebook(path: Path, nb: dict) -> None:
    write_atomic(path, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def key_fingerprint(key: bytes) -> str:
    """What ``assign`` records of a course key (README.md): the first 12 hex digits of its
    SHA-256; never the key."""
    return hashlib.sha256(key).hexdigest()[:12]


_RECORDED = re.compile(r"^\* variants: (?:a course key \(SHA-256 fingerprint "
                       r"(?P<fp>[0-9a-f]{12})\)|(?P<none>none):)", re.M)


def recorded_key(folder) -> tuple[bool, str | None] | None:
    """What ``assign`` recorded in ``folder/README.md`` of the course key: (True, its
    fingerprint) or (False, None) for none; None when there is no such record."""
    try:
        text = (Path(folder) / "README.md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = _RECORDED.search(text)
    if m is None:
        return None
    return (False, None) if m.group("none") else (True, m.group("fp"))


def recorded_exercise(folder) -> str | None:
    """The exercise ``assign`` recorded in ``folder/README.md`` (``* exercise: NN_topic``);
    None when there is no such record."""
    try:
        text = (Path(folder) / "README.md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r"^\* exercise: (\S+)$", text, re.M)
    return m.group(1) if m else None


def key_record_problem(folder, key: bytes | None) -> tuple[str | None, str | None]:
    """(what is wrong, the recorded fingerprint) of grading with the course ``key`` (None:
    none given) an assignment whose folder is ``folder`` (its README.md, as ``assign``
    wrote it); (None, fingerprint) when the key is the one recorded, or nothing is."""
    record = recorded_key(folder)
    if record is None:
        return None, None
    used, fingerprint = record
    readme = display_name(Path(folder) / "README.md")
    if used and key is None:
        return (f"course-key: the assignment was handed out with a course key (SHA-256 "
                f"fingerprint {fingerprint}, recorded in {readme}) and none was given: "
                "grade with --course-key FILE, the same key"), fingerprint
    if used and key_fingerprint(key) != fingerprint:
        return (f"course-key: the key given has the SHA-256 fingerprint "
                f"{key_fingerprint(key)}, but the assignment was handed out with the key "
                f"of fingerprint {fingerprint} (recorded in {readme}): grade with that "
                "key"), fingerprint
    if not used and key is not None:
        return (f"course-key: the assignment was handed out without a course key "
                f"(recorded in {readme}): each variant is the student's id; grade without "
                "--course-key"), None
    return None, fingerprint


#: The setup cell's line that carries a handed-out notebook's variant.
_VARIANT_LINE = re.compile(r"^\s*os\.environ\[\s*(['\"])" + re.escape(VARIANT_ENV)
                           + r"\1\s*\]\s*=\s*(['\"])(?P<variant>[^'\"\n]{0,100})\2\s*"
                           + re.escape(HANDOUT_MARK) + r"\s*$", re.M)


def handed_out_variant(nb) -> str | None:
    """The variant ``assign`` wrote into the notebook ``nb`` (a dict, as read from the
    file), None if it has no such line (not from ``assign``, or the line was removed)."""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    for cell in cells if isinstance(cells, list) else ():
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(s for s in source if isinstance(s, str)) \
            if isinstance(source, list) else str(source)
        m = _VARIANT_LINE.search(source)
        if m:
            return m.group("variant")
    return None


def assign(exercise: str, roster, out, *, course_key: bytes | None = None,
           due: str | None = None, title: str | None = None, published=None,
           wheel=None, attempts_per_hint: int = 1) -> list[Path]:
    """Write the handout of ``exercise`` for every student of the class ``roster`` (a
    CSV file, or a list of ids) in ``out``; return the notebooks written."""
    exercise = exercise_name(exercise)
    rows = (_class_rows(roster) if isinstance(roster, (str, Path))
            else [{"student": sid} for sid in roster])
    students = [row["student"] for row in rows]
    # the class roster's other columns (name, email, SIS id, section...) go into roster.csv
    extra = [c for c in rows[0] if c not in (None, "student", "file")] if rows else []
    out = Path(out)
    if (out / "roster.csv").exists():
        raise ValueError(f"out: {display_name(out)} already holds an assignment "
                         "(roster.csv); choose a new folder")
    published_nb = _read_notebook(Path(published or default_folder()) / f"{exercise}.ipynb",
                                  "published")
    wheel_name = Path(wheel).name if wheel else None
    policy = Policy(released=False, attempts_per_hint=attempts_per_hint)
    (out / "notebooks").mkdir(parents=True, exist_ok=True)
    written = []
    for sid in students:
        nb = handout_notebook(published_nb, exercise, sid, student_variant(course_key, sid),
                              policy=policy, title=title, due=due, wheel=wheel_name)
        path = out / "notebooks" / handout_name(sid, exercise)
        _write_notebook(path, nb)
        written.append(path)
    if wheel:
        shutil.copyfile(wheel, out / "notebooks" / wheel_name)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["file", "student", *extra])
    w.writerows([handout_name(row["student"], exercise), row["student"],
                 *((row.get(c) or "").strip() for c in extra)] for row in rows)
    write_atomic(out / "roster.csv", buf.getvalue())
    write_atomic(out / QUESTIONS_RECORD, json.dumps(question_record(
        exercise, {sid: student_variant(course_key, sid) for sid in students}), indent=1)
        + "\n")
    write_atomic(out / "README.md", _records(exercise, students, title=title, due=due,
                                             key=course_key, wheel=wheel_name,
                                             policy=policy))
    return written


def _records(exercise, students, *, title, due, key, wheel, policy) -> str:
    today = datetime.date.today().isoformat()
    key_line = (f"a course key (SHA-256 fingerprint {key_fingerprint(key)}): keep the key file; "
                "grading and release need the same one" if key is not None else
                "none: each student's variant is their id (anyone can compute it)")
    return "\n".join([
        f"# {title or exercise}: handed out {today}", "",
        f"* exercise: {exercise}", f"* due: {due or 'not given'}",
        f"* students: {len(students)} (roster.csv: file, student and the class roster's "
        "other columns)",
        f"* variants: {key_line}",
        f"* assignment mode in each notebook: {policy.to_json()}",
        f"* installation named in the notebooks: {wheel or 'the wheel you hand out'}", "",
        "Hand out `notebooks/` (one file per student, plus the wheel). Collect the files "
        "under the names they were handed out with, in any folders, then:", "",
        f"    prayatul-edu grade COLLECTED/ --out grades --exercise {exercise} "
        "--roster roster.csv --format canvas --format gradescope"
        + (" --course-key KEYFILE" if key is not None else ""), "",
        "and, when you decide, the solutions:", "",
        f"    prayatul-edu release {exercise} --out released --roster roster.csv"
        + (" --course-key KEYFILE" if key is not None else ""), ""])


def release(exercise: str, out, *, roster=None, course_key: bytes | None = None,
            solutions=None, published=None) -> list[Path]:
    """Hand out the solutions of ``exercise`` in ``out``: ``NN_topic_solutions.ipynb`` (the
    worked solutions on the course's data) and, with a class ``roster``, each student's
    notebook with the solutions of their variant open; return the files written."""
    exercise = exercise_name(exercise)
    folder = Path(solutions) if solutions else default_folder().parent / "solutions"
    source = folder / f"{exercise}.ipynb"
    _read_notebook(source, "solutions")  # refuse a missing or broken file before writing
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / f"{exercise}_solutions.ipynb"]
    shutil.copyfile(source, written[0])
    if roster is not None:
        students = read_class_roster(roster) if isinstance(roster, (str, Path)) else list(roster)
        published_nb = _read_notebook(Path(published or default_folder())
                                      / f"{exercise}.ipynb", "published")
        (out / "notebooks").mkdir(exist_ok=True)
        for sid in students:
            nb = handout_notebook(published_nb, exercise, sid,
                                  student_variant(course_key, sid),
                                  policy=Policy(released=True), title=f"{exercise}, solutions")
            path = out / "notebooks" / handout_name(sid, exercise)
            _write_notebook(path, nb)
            written.append(path)
    return written


# ------------------------------------------------------------ questions fixed at hand-out
def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, default=lambda v: getattr(v, "tolist", repr)())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(key):
    return sorted(key) if isinstance(key, frozenset) else key


def _question_state(cls, variant) -> dict:
    """What a question is for one variant: its keys (a choice: each statement's truth, by
    its text: the letters' order is no part of it), as digests."""
    q = cls(variant)
    if q.kind == "choice":
        return {"statements": {_digest(text): bool(true) for text, true, _ in q.statements()}}
    return {"keys": _digest([_plain(k) for k in q.keys()])}


def question_record(exercise: str, variants: dict) -> dict:
    """What ``assign`` records of each question of ``exercise`` as handed out to the
    students of ``variants`` (student -> variant): points, tolerance and, per student,
    the keys (a choice: each statement's truth by its text), as SHA-256 digests."""
    out = {}
    for qid in exercise_questions(exercise):
        cls = QUESTIONS[qid]
        out[qid] = {"points": cls.points, "tolerance": tolerance(cls), "kind": cls.kind,
                    "students": {s: _question_state(cls, v) for s, v in variants.items()}}
    return {"exercise": exercise, "questions": out}


def _what_changed(old: dict, new: dict) -> list[str]:
    said = []
    if "statements" in old or "statements" in new:
        a, b = old.get("statements", {}), new.get("statements", {})
        if set(a) != set(b):
            said.append("a statement's text")
        if any(a[t] != b[t] for t in set(a) & set(b)):
            said.append("a statement's truth")
    elif old.get("keys") != new.get("keys"):
        said.append("its key")
    return said


def questions_changed(folder, exercise: str, key: bytes | None) -> dict | None:
    """qid -> {what changed -> the students it changes} for the questions of
    ``exercise`` that differ from what ``assign`` recorded in ``folder`` (points,
    tolerance, a key, a statement's text or truth; a question added or removed); None
    when there is no record. Empty: nothing changed."""
    path = Path(folder) / QUESTIONS_RECORD
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        recorded = record["questions"]
    except OSError:
        return None
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"questions: {path.name} is not what assign wrote (not JSON, or no "
                         f"questions; in {display_name(path.parent)})") from None
    changed: dict = {}
    now = exercise_questions(exercise)
    for qid in sorted(set(recorded) | set(now)):
        if qid not in now or qid not in recorded:
            changed[qid] = {"removed since hand-out" if qid not in now
                            else "added since hand-out": []}
            continue
        old, cls = recorded[qid], QUESTIONS[qid]
        what: dict = {}
        if old.get("points") != cls.points:
            what[f"points {old.get('points'):g} -> {cls.points:g}"] = []
        if old.get("tolerance") != tolerance(cls):
            what["tolerance"] = []
        for student, state in (old.get("students") or {}).items():
            for change in _what_changed(state, _question_state(
                    cls, student_variant(key, student))):
                what.setdefault(change, []).append(student)
        if what:
            changed[qid] = what
    return changed


def describe_changes(changed: dict) -> list[str]:
    """One line per changed question: what changed, and for whom."""
    lines = []
    for qid, what in changed.items():
        parts = [w + (f" (for {', '.join(who[:5])}{' and more' if len(who) > 5 else ''})"
                      if who else "") for w, who in what.items()]
        lines.append(f"{qid}: " + "; ".join(parts))
    return lines
