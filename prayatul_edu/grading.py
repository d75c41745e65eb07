"""Grade students' exercise notebooks: ``prayatul-edu grade SUBMISSIONS... --out DIR``.

Each submitted notebook runs top to bottom in a fresh Python kernel (nbclient),
in an empty temporary folder, with a time limit per cell and per notebook. Every
``check(answer)`` in the student's kernel appends the answer as a JSON line to a
file the grader names (environment variable ``PRAYATUL_EDU_SUBMISSIONS``); the
answers checked before a crash or an endless loop are therefore kept. The grader
then re-checks each answer **in its own process**, against the key that the
library computes for the student's variant: whatever the kernel does (redefining
``check``, patching the question classes, printing "Correct") changes nothing.

Writes, in ``DIR``:

* ``grades.csv``: one row per student and question - student, question, points,
  max_points, status (correct / partly correct / incorrect / invalid answer /
  not attempted / notebook error), feedback (the same diagnosis the student
  sees, never the expected value), file;
* ``grades.json``: the same rows grouped by student, with totals and the
  problems found in each notebook (cells that raised, timed out, were deleted;
  output that was cut; a file that is not a notebook);
* ``feedback/STUDENT.md``: one feedback file per student.

A notebook that raises, loops forever, prints megabytes, has lost cells or is
not valid JSON is reported for that student and the batch goes on. Progress is
shown on stderr. Student code runs with your permissions: grade in a container
or a throw-away account.

Identity (``--id-from``): ``notebook`` (default) grades each notebook against
the variant it chose with ``ex.setup(student_id=...)`` (``None``: the course's
own data) and names the student by that id (or the file name); ``filename``
names the student by the file name (``s1234.ipynb`` -> ``s1234``) and grades
against *that* variant, whatever the notebook declared - use it for take-home
work, so nobody can answer a friend's variant.
"""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .exercises import _base
from .exercises._base import CHANNEL_ENV, NOT_ATTEMPTED, QUESTIONS, Outcome

__all__ = ["grade_notebook", "grade_batch", "StudentReport",
           "NOTEBOOK_ERROR"]

#: Status of every question of a notebook that could not be run at all.
NOTEBOOK_ERROR = "notebook error"
#: Defaults (seconds, characters).
CELL_TIMEOUT, NOTEBOOK_TIMEOUT, OUTPUT_CAP = 60, 300, 100_000
#: At most this many bytes of the answer channel are read (its end: the last answers).
CHANNEL_CAP = 2_000_000
CSV_COLUMNS = ["student", "question", "points", "max_points", "status", "feedback", "file"]


@dataclass
class StudentReport:
    """The grades of one submission."""

    student: str
    file: str
    seed: str | None
    rows: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> float:
        return round(sum(r["points"] for r in self.rows), 2)

    @property
    def max_total(self) -> float:
        return round(sum(r["max_points"] for r in self.rows), 2)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(total=self.total, max_total=self.max_total)
        return d


# -------------------------------------------------------------- execution
def _capped_client_class():
    from nbclient import NotebookClient

    class CappedClient(NotebookClient):
        """A client that keeps at most ``output_cap`` characters of output per notebook
        (errors are always kept, their tracebacks shortened)."""

        output_cap = OUTPUT_CAP
        kept = 0
        cut = False

        def output(self, outs, msg, display_id, cell_index):
            out = super().output(outs, msg, display_id, cell_index)
            if out is None or not outs or outs[-1] is not out:
                return out
            if out.get("output_type") == "error":
                out["traceback"] = out.get("traceback", [])[-5:]
                return out
            size = len(json.dumps(out))
            if self.kept + size > self.output_cap:
                outs.pop()
                if not self.cut:
                    self.cut = True
                    outs.append({"output_type": "stream", "name": "stderr",
                                 "text": f"[grader: output cut after {self.output_cap} "
                                         "characters]\n"})
                return None
            self.kept += size
            return out

    return CappedClient


def _run(nb, workdir: Path, channel: Path, cell_timeout: float, notebook_timeout: float,
         output_cap: int) -> list[str]:
    """Execute ``nb`` cell by cell in a fresh kernel; return the problems met."""
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    problems = []
    client = _capped_client_class()(nb, timeout=int(cell_timeout), kernel_name="python3",
                                    allow_errors=True, record_timing=False,
                                    shutdown_kernel="immediate", startup_timeout=60,
                                    resources={"metadata": {"path": str(workdir)}})
    client.output_cap = output_cap
    env = dict(os.environ, **{CHANNEL_ENV: str(channel), "MPLBACKEND": "Agg",
                              "PYTHONHASHSEED": "0"})
    deadline = time.monotonic() + notebook_timeout
    client.reset_execution_trackers()
    # the kernel's own chatter (e.g. ipykernel's warnings) would drown the progress lines
    with client.setup_kernel(env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        for index, cell in enumerate(nb.cells):
            if cell.get("cell_type") != "code":
                continue
            remaining = deadline - time.monotonic()
            if remaining < 1:
                problems.append(f"the notebook did not finish within {notebook_timeout:g} s; "
                                f"cells from {index + 1} on were not run")
                break
            client.timeout = max(1, int(min(cell_timeout, remaining)))
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                limit = ("notebook" if client.timeout < cell_timeout else "cell")
                problems.append(f"cell {index + 1} did not finish within {client.timeout} s "
                                f"(the {limit} time limit: an endless loop?); the cells "
                                "after it were not run")
                break
            except DeadKernelError:
                problems.append(f"the kernel died in cell {index + 1}; the cells after it "
                                "were not run")
                break
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    problems.append(f"cell {index + 1} raised {out.get('ename')}: "
                                    f"{str(out.get('evalue'))[:200]}")
    if client.cut:
        problems.append(f"the output was cut after {output_cap} characters")
    return problems


def _read_channel(channel: Path) -> tuple[dict, list]:
    """(qid -> last {"seed", "answer"}, the student ids passed to setup, in order)."""
    answers, setups = {}, []
    if not channel.exists():
        return answers, setups
    with open(channel, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - CHANNEL_CAP))
        data = fh.read().decode("utf-8", errors="replace")
    for line in data.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        if rec.get("event") == "setup":
            sid = rec.get("student_id")
            setups.append(None if sid is None else str(sid))
        elif isinstance(rec.get("qid"), str) and "answer" in rec:
            seed = rec.get("seed")
            answers[rec["qid"]] = {"seed": None if seed is None else str(seed),
                                   "answer": rec["answer"]}
    return answers, setups


# ---------------------------------------------------------------- grading
def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "student"


def _expected_questions(nb, exercise: str | None, answers: dict) -> tuple[list[str], list[str]]:
    """(questions to grade, problems) from --exercise, the notebook's metadata or answers."""
    problems = []
    meta = nb.metadata.get("prayatul_edu", {}) if nb is not None else {}
    if exercise:
        topic = exercise.split("_")[0]
        qids = sorted(q for q in QUESTIONS if q.split(".")[0] == topic)
    elif isinstance(meta, dict) and isinstance(meta.get("questions"), list):
        qids = [q for q in meta["questions"] if q in QUESTIONS]
    else:
        topics = {q.split(".")[0] for q in answers if q in QUESTIONS}
        qids = sorted(q for q in QUESTIONS if q.split(".")[0] in topics)
        if nb is not None:
            problems.append("the notebook has lost its exercise metadata; graded the "
                            "questions of the notebooks it answered")
    if nb is not None and isinstance(meta, dict) and isinstance(meta.get("cells"), list):
        present = {c.get("id") for c in nb.cells}
        missing = [c for c in meta["cells"] if c not in present]
        if missing:
            problems.append(f"{len(missing)} cell(s) of the exercise are missing (deleted?): "
                            + ", ".join(map(str, missing[:10])))
    extra = sorted(set(answers) - set(qids))
    if extra:
        problems.append(f"answers to questions of another notebook were ignored: "
                        f"{', '.join(extra)}")
    return qids, problems


def _variant_name(seed) -> str:
    return "the course's own data" if seed is None else f"variant {seed}"


def grade_notebook(path, *, cell_timeout: float = CELL_TIMEOUT,
                   notebook_timeout: float = NOTEBOOK_TIMEOUT, output_cap: int = OUTPUT_CAP,
                   id_from: str = "notebook", exercise: str | None = None) -> StudentReport:
    """Run one submission in a fresh kernel and grade its answers (see the module doc)."""
    import nbformat

    path = Path(path)
    stem = path.stem
    start = time.perf_counter()
    problems, nb, answers, setups = [], None, {}, []
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8", errors="replace"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("no list of cells")
    except Exception as exc:  # any unreadable file is reported, never raised
        problems.append(f"not a valid notebook ({type(exc).__name__}: {str(exc)[:200]})")
        nb = None
    if nb is not None:
        with tempfile.TemporaryDirectory(prefix="prayatul-grade-") as tmp:
            channel = Path(tmp) / "answers.jsonl"
            work = Path(tmp) / "work"
            work.mkdir()
            try:
                problems += _run(nb, work, channel, cell_timeout, notebook_timeout, output_cap)
            except Exception as exc:  # a notebook nbclient cannot even start
                problems.append(f"could not run the notebook ({type(exc).__name__}: "
                                f"{str(exc)[:200]})")
            answers, setups = _read_channel(channel)

    declared = [s for s in setups if s is not None]
    if id_from == "filename":
        student, seed = stem, stem
    else:
        seed = setups[-1] if setups else None
        student = declared[-1] if declared else stem
    report = StudentReport(student=student, file=path.name, seed=seed, problems=problems)
    qids, more = _expected_questions(nb, exercise, answers)
    report.problems += more

    if nb is None:
        for qid in qids or ["-"]:
            cls = QUESTIONS.get(qid)
            report.rows.append(_row(report, qid, Outcome(
                qid, NOTEBOOK_ERROR, 0.0, cls.points if cls else 0.0,
                ["The file could not be read as a notebook: " + problems[0] + "."])))
    elif not qids:
        report.rows.append(_row(report, "-", Outcome("-", NOT_ATTEMPTED, 0.0, 0.0,
                                                     ["No question of the course was found."])))
    for qid in qids if nb is not None else []:
        q = QUESTIONS[qid](seed=seed)
        got = answers.get(qid)
        if got is None:
            outcome = q.grade(...)
            outcome.messages = ["Not attempted: no answer was checked for this question."]
        else:
            outcome = q.grade(got["answer"])
            if got["seed"] != seed:
                outcome.messages.append(
                    f"(Checked in the notebook against {_variant_name(got['seed'])}; graded "
                    f"against {_variant_name(seed)}.)")
        report.rows.append(_row(report, qid, outcome))
    report.seconds = round(time.perf_counter() - start, 2)
    return report


def _row(report: StudentReport, qid: str, outcome: Outcome) -> dict:
    cls = QUESTIONS.get(qid)
    return {"student": report.student, "question": qid, "title": cls.title if cls else "",
            "points": outcome.points, "max_points": outcome.max_points,
            "status": outcome.status, "feedback": outcome.feedback, "file": report.file}


def _feedback_markdown(r: StudentReport) -> str:
    lines = [f"# Feedback for {r.student}", "",
             f"File `{r.file}`, {_variant_name(r.seed)}: **{r.total:g} / {r.max_total:g} "
             "points**.", ""]
    if r.problems:
        lines += ["## Problems with the notebook", ""] + [f"* {p}" for p in r.problems] + [""]
    lines += ["## Questions", "", "| question | points | status |", "| --- | --- | --- |"]
    lines += [f"| {x['question']} {x['title']} | {x['points']:g}/{x['max_points']:g} | "
              f"{x['status']} |" for x in r.rows]
    lines.append("")
    for x in r.rows:
        lines += [f"### {x['question']} {x['title']}", "", x["feedback"], ""]
    return "\n".join(lines)


def grade_batch(paths, out, *, progress=True, **options) -> list[StudentReport]:
    """Grade every notebook in ``paths`` and write the CSV, the JSON and the feedback files.

    ``progress``: True shows a line per notebook on stderr, a file object writes there,
    False is silent. ``options`` go to :func:`grade_notebook`.
    """
    if progress is True:
        progress = sys.stderr
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    reports, used = [], set()
    for k, path in enumerate(paths, 1):
        if progress:
            print(f"[{k}/{len(paths)}] {Path(path).name} ...", end=" ", file=progress,
                  flush=True)
        try:
            r = grade_notebook(path, **options)
        except Exception as exc:  # the batch goes on whatever happens to one notebook
            r = StudentReport(student=Path(path).stem, file=Path(path).name, seed=None,
                              problems=[f"grading failed ({type(exc).__name__}: {exc})"])
            r.rows.append({"student": r.student, "question": "-", "title": "",
                           "points": 0.0, "max_points": 0.0, "status": NOTEBOOK_ERROR,
                           "feedback": r.problems[0], "file": r.file})
        reports.append(r)
        name = _safe_name(r.student)
        while name in used:
            name += "_"
        used.add(name)
        (out / "feedback" / f"{name}.md").write_text(_feedback_markdown(r), encoding="utf-8")
        if progress:
            flag = f", {len(r.problems)} problem(s)" if r.problems else ""
            print(f"{r.student}: {r.total:g}/{r.max_total:g}{flag} ({r.seconds:.1f} s)",
                  file=progress, flush=True)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in reports:
            w.writerows(r.rows)
    (out / "grades.json").write_text(json.dumps(
        {"tolerance": {"atol": _base.ATOL, "rtol": _base.RTOL},
         "students": [r.to_dict() for r in reports]}, indent=1), encoding="utf-8")
    return reports
