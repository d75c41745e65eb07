"""Grade one submission: run it in its sandbox, then re-check its answers here.

Every ``check(answer)`` in the student's kernel appends the answer to a channel
file in the sandbox's work folder; ``hint``, ``solution`` and ``key`` calls are
appended too. After the run the grader reads that file (capped, never following
a link) and re-checks each answer **in its own process**, against the key the
library computes for the variant the instructor assigned: whatever the kernel
does (redefining ``check``, patching the question classes, printing "Correct")
changes nothing.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .. import __file__ as _PACKAGE_INIT
from ..exercises import ATOL, INVALID, QUESTIONS, RTOL, Outcome
from ..exercises.assignment import VARIANT_ENV, Policy
from ..exercises.authoring import HAND, load as load_authored
from .authored import stage
from ..exercises.coursekey import variant_token
from ..exercises.generator import HEADING
from ..exercises.kinds import FunctionQuestion, hidden_cell
from .identity import display_name, exercise_questions, identify, valid_id
from .limits import Limits
from .published import compare_cells
from .report import CELL_ERROR, NOTEBOOK_ERROR, StudentReport, variant_name
from .runner import cell_names, read_channel, run_notebook
from .sandbox import host_uid, work_folder

__all__ = ["Options", "grade_source", "error_rows", "failed_report", "asked_for_answers",
           "raised_questions",
           "SOLUTION_SHOWN", "CELL_TIMEOUT", "NOTEBOOK_TIMEOUT"]

#: Defaults (seconds).
CELL_TIMEOUT, NOTEBOOK_TIMEOUT = 60, 300
#: At most this many problems of a run are listed (a notebook of 10,000 raising cells).
MAX_PROBLEMS = 30
#: ``--solution-shown``: what a question whose solution or key was shown in the graded
#: run earns: ``zero`` points, or its points with a ``flag`` in the feedback.
SOLUTION_SHOWN = ("zero", "flag")


@dataclass
class Options:
    """Everything the instructor decides about a batch (plain data: it travels to
    worker processes and Dask workers as JSON)."""

    exercise: str | None = None
    roster: dict | None = None
    variant: str = "student"
    cell_timeout: float = CELL_TIMEOUT
    notebook_timeout: float = NOTEBOOK_TIMEOUT
    limits: dict = field(default_factory=lambda: asdict(Limits()))
    sandbox: str = "bwrap"
    solution_shown: str = "zero"
    published: dict = field(default_factory=dict)   # exercise -> {cell id: [source, editable]}
    policy: str = field(default_factory=lambda: Policy().to_json())   # assignment mode
    course_key: str | None = None   # hex; variants are variant_token(key, student)
    authored: str | None = None     # an instructor's questions module (its path)

    def __post_init__(self):
        if self.authored:   # the questions come from the instructor's copy, in every process
            load_authored(self.authored)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "Options":
        return cls(**d)

    def tolerance(self) -> dict:
        return {"atol": ATOL, "rtol": RTOL}


def _identify(name: str, options: Options, folder: str = ""):
    """Who submitted ``name`` and the variant graded: with a course key, the student's
    :func:`~prayatul_edu.exercises.coursekey.variant_token`."""
    ident = identify(name, exercise=options.exercise, roster=options.roster, folder=folder,
                     variant=options.variant)
    if options.course_key and ident.ok and ident.variant is not None:
        ident.variant = variant_token(bytes.fromhex(options.course_key), ident.student)
    return ident


def failed_report(name: str, options: Options, why: str, folder: str = "") -> StudentReport:
    """The report of a notebook that could not be graded: ``why``, error rows."""
    ident = _identify(name, options, folder)
    r = StudentReport(student=ident.student, file=display_name(name),
                      variant=ident.variant if ident.ok else "",
                      exercise=ident.exercise, problems=[why])
    error_rows(r, exercise_questions(ident.exercise) if ident.exercise else [],
               "Not graded: " + why + ".")
    return r


def error_rows(report: StudentReport, qids, message: str) -> None:
    for qid in qids or ["-"]:
        cls = QUESTIONS.get(qid)
        report.rows.append(_row(report, qid, Outcome(
            qid, NOTEBOOK_ERROR, 0.0, cls.points if cls else 0.0, [message])))


def _row(report: StudentReport, qid: str, outcome: Outcome) -> dict:
    cls = QUESTIONS.get(qid)
    return {"student": report.student,
            "variant": "course" if report.variant is None else report.variant,
            "question": qid, "title": cls.title if cls else "",
            "points": outcome.points, "max_points": outcome.max_points,
            "status": outcome.status, "feedback": outcome.feedback, "file": report.file,
            "diagnosed": list(outcome.diagnosed),   # the named mistakes (the class report)
            # for the instructor: how distinctive an answer equal to the course's is
            "course_answer": outcome.course_answer}


_PATH = re.compile(r"(?<![\w.])/(?:[\w.@+-]+/)*[\w.@+-]+")
#: What may stand for a folder separator in a disguised path (``|``, ``\``, ``:``...).
_SEPARATOR = r"[^\w\s().'\"-]"


def _known_folders(work: Path) -> list[tuple[str, str]]:
    """(folder, what it becomes) of every folder of the grader a message could name."""
    named = [(work, "."), (work.parent, "<path>")]
    named += [(Path(p), "<path>") for p in (tempfile.gettempdir(), Path.home(), Path.cwd(),
                                            sys.prefix, sys.base_prefix, sys.exec_prefix,
                                            Path(_PACKAGE_INIT).parent)]
    found = {}
    for folder, neutral in named:
        for spelled in {str(folder), str(Path(folder).resolve())}:
            if len(Path(spelled).parts) > 1:
                found.setdefault(spelled, neutral)
    return sorted(found.items(), key=lambda kv: -len(kv[0]))


def _scrub(text: str, work: Path, any_path: bool = True) -> str:
    """Paths in a message made neutral: the work folder is ``.``, any other ``<path>``
    (the grader's folders are nobody's business, whoever typed them). The grader's own
    folders are found whatever separator they are written with (``|tmp|...``).
    ``any_path=False`` (a student's answer, kept as typed): the grader's folders only."""
    for folder, neutral in _known_folders(work):
        head = _SEPARATOR + _SEPARATOR.join(re.escape(p) for p in Path(folder).parts[1:])
        if neutral == ".":   # the work folder: names in it become relative
            text = re.sub(head + _SEPARATOR, "", text)
            text = re.sub(head + r"(?![\w.@+-])", ".", text)
        else:                # any other: the folder and whatever follows it
            text = re.sub(head + r"(?:" + _SEPARATOR + r"[\w.@+-]+)*(?![\w.@+-])", neutral,
                          text)
    return _PATH.sub("<path>", text) if any_path else text


def refused_routes(records, qids) -> dict:
    """qid -> the help asked for and refused in the graded run, by route (``solution()``,
    ``keys()``, ``explain()``...): on the record, no points lost."""
    routes: dict = {}
    for rec in records:
        if (rec.get("qid") in qids and rec.get("event") in ("solution", "key")
                and rec.get("shown") is False):
            route = rec.get("route") if isinstance(rec.get("route"), str) else rec["event"]
            routes.setdefault(rec["qid"], set()).add(display_name(route, 40) + "()")
    return {q: sorted(v) for q, v in routes.items()}


def _calls(records, qids) -> dict:
    """qid -> {"check": n, "hint": n, "hint_shown": n, "solution": ..., "key": ...}."""
    calls = {}
    for rec in records:
        qid = rec.get("qid")
        if qid not in qids:
            continue
        what = rec.get("event", "check") if "answer" not in rec else "check"
        if what not in ("check", "hint", "solution", "key"):
            continue
        c = calls.setdefault(qid, {})
        c[what] = c.get(what, 0) + 1
        if what != "check":
            c[f"{what}_shown"] = c.get(f"{what}_shown", 0) + (rec.get("shown") is True)
    return calls


def grade_source(name: str, data: bytes | None, options: Options,
                 folder: str = "") -> StudentReport:
    """Grade the notebook ``data`` submitted as file ``name`` (see the module doc);
    ``data=None``: the file was too large to be read.

    Examples
    --------
    A file that is not a notebook gets a report, never an exception:

    >>> from prayatul_edu.grading import Options, grade_source
    >>> options = Options(exercise="01_matching", sandbox="none")
    >>> report = grade_source("s1001_01_matching.ipynb", b"not a notebook", options)
    >>> report.student, report.total
    ('s1001', 0.0)
    >>> report.problems   # doctest: +NORMALIZE_WHITESPACE
    ['not a valid notebook (NotJSONError; not JSON, or not a Jupyter notebook of format 4)']

    A notebook is run (in the sandbox ``options.sandbox`` names, for seconds), so this
    one is not run here:

    >>> import pathlib
    >>> data = pathlib.Path("s1001_01_matching.ipynb").read_bytes()   # doctest: +SKIP
    >>> grade_source("s1001_01_matching.ipynb", data, Options()).total   # doctest: +SKIP
    8.5
    """
    import nbformat

    start = time.perf_counter()
    limits = Limits(**options.limits)
    ident = _identify(name, options, folder)
    qids = exercise_questions(ident.exercise) if ident.exercise else []
    report = StudentReport(student=ident.student, file=display_name(name),
                           variant=ident.variant, exercise=ident.exercise,
                           problems=list(ident.problems))
    if not ident.ok:
        report.variant = ""
        error_rows(report, qids, "Not graded: " + report.problems[-1] + ".")
        return report
    nb = None
    if data is None or len(data) > limits.notebook:
        report.problems.append(f"the file is larger than {limits.notebook} bytes; not read")
    else:
        try:
            nb = nbformat.reads(data.decode("utf-8", errors="replace"), as_version=4)
            if not isinstance(nb.get("cells"), list):
                raise ValueError("no list of cells")
        except Exception as exc:  # any unreadable file is reported, never raised
            # the exception's message can quote the file (or what a link pointed to): not shown
            report.problems.append(f"not a valid notebook ({type(exc).__name__}; not JSON, "
                                   "or not a Jupyter notebook of format 4)")
            nb = None
    if nb is None:
        error_rows(report, qids, "The file could not be read as a notebook: "
                    + report.problems[-1] + ".")
        return report

    records = []
    with tempfile.TemporaryDirectory(prefix="prayatul-grade-",
                                     ignore_cleanup_errors=True) as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        owner = host_uid() if options.sandbox != "none" else None
        with work_folder(work, limits.disk, owner):  # as root: in memory, capped
            channel = work / ".answers.jsonl"
            env = stage(options.authored, Path(tmp) / "exercise") if options.authored else {}
            cut: list = []
            names = cell_names(nb)   # as saved (the run sets the execution counts)
            hidden = graded_cases(qids, ident.variant)
            epilogue = (hidden_cell({q: public + cases for q, (public, cases)
                                     in hidden.items()}),) if hidden else ()
            found = _run_twice(nb, data, work, channel, options, limits, cut, env, epilogue)
            records = read_channel(channel)
        raised = {q: _scrub(m, work) for q, m in raised_questions(nb, qids, names).items()}
        if len(found) > MAX_PROBLEMS:
            found = found[:MAX_PROBLEMS] + [f"... and {len(found) - MAX_PROBLEMS} more"]
        report.problems += [_scrub(p, work) for p in found]

    answers, declared, ran = {}, [], {}
    for rec in records:
        if rec.get("event") == "hidden" and rec.get("qid") in hidden:
            ran[rec["qid"]] = _hidden_outputs(rec)
        elif rec.get("event") == "setup":
            sid = rec.get("student_id")
            declared.append(None if sid is None else display_name(sid, 70))
        elif isinstance(rec.get("qid"), str) and "answer" in rec:
            seed = rec.get("seed")
            answers[rec["qid"]] = {"seed": None if seed is None else display_name(seed, 70),
                                   "answer": rec["answer"]}
    report.declared = declared
    said = [d for d in declared if d is not None]
    if declared and declared[-1] is None and ident.variant is not None:
        report.problems.append(f"the notebook declared STUDENT_ID = None (the course's own "
                               f"data), but {ident.student} is graded on their own variant: "
                               "answers checked on the course's data score as answers to "
                               "other data (set STUDENT_ID to your id)")
    elif said and said[-1] != ident.student:
        shown = said[-1] if valid_id(said[-1]) else repr(said[-1])
        report.problems.append(f"the notebook declared STUDENT_ID {shown}, but the file "
                               f"belongs to {ident.student}: graded as {ident.student}")
    report.problems += compare_cells(nb, {k: tuple(v) for k, v in
                                          options.published.get(ident.exercise, {}).items()})
    extra = sorted(q for q in answers if q not in qids)
    if extra:
        report.problems.append("answers to questions of another exercise were ignored: "
                               + ", ".join(display_name(q, 20) for q in extra[:10]))
    report.calls = _calls(records, set(qids))
    asked = asked_for_answers(nb, qids)
    lost = cut_questions(nb, qids, cut, names)
    refused = refused_routes(records, set(qids))
    for qid in qids:
        try:
            outcome = _grade_question(qid, ident.variant, answers.get(qid),
                                      report.calls.get(qid, {}), options.solution_shown,
                                      asked.get(qid, ()), lost.get(qid), raised.get(qid),
                                      (*hidden[qid], ran.get(qid)) if qid in hidden else None,
                                      refused.get(qid, ()))
        except (Exception, RecursionError, MemoryError) as exc:  # this answer's row only
            cls = QUESTIONS[qid]
            outcome = Outcome(qid, INVALID, 0.0, cls.points, [
                f"The answer could not be checked ({type(exc).__name__}): write it as the "
                "question asks (e.g. 0.25 or '1/4')."])
        report.rows.append(_row(report, qid, outcome))
        got = (answers.get(qid) or {}).get("answer")
        if outcome.status == HAND and isinstance(got, str):   # the grader's folders out
            report.rows[-1]["answer"] = _scrub(got, work, False)   # the words, for review
        elif qid in answers:                                # as given, for review --all
            report.rows[-1]["given"] = _scrub(_as_text(got), work, False)
    report.seconds = round(time.perf_counter() - start, 2)
    return report


def _hidden_outputs(rec: dict) -> list | str:
    """A hidden-cases record of the kernel: its outputs, or the sentence why there are
    none (the kernel's own, made printable; else that none were recorded)."""
    if isinstance(rec.get("outputs"), list):
        return rec["outputs"]
    missing = rec.get("missing")
    if isinstance(missing, str) and missing.strip():
        return display_name(missing, 200)
    return "no outputs were recorded"


def graded_cases(qids, variant) -> dict:
    """qid -> ``(public, hidden)`` cases of each function question among ``qids`` for
    ``variant`` (:meth:`~prayatul_edu.exercises.kinds.FunctionQuestion.graded_cases`): the
    variant's public cases, and hidden ones drawn here, in the grader's process, from fresh
    randomness (no student can compute them). The function is run on both after the
    notebook, whatever variant the notebook worked on."""
    import secrets

    out = {}
    for qid in qids:
        cls = QUESTIONS.get(qid)
        if isinstance(cls, type) and issubclass(cls, FunctionQuestion):
            rng = np.random.default_rng(secrets.randbits(128))
            out[qid] = cls(seed=variant).graded_cases(rng)
    return out


def _run_twice(nb, data: bytes, work: Path, channel: Path, options: Options,
               limits: Limits, cut: list, env: dict, epilogue: tuple = ()) -> list[str]:
    """Run ``nb`` in ``work`` (:func:`.runner.run_notebook`), the problems met. A kernel
    that fails to start or to answer (a machine busy with another notebook, say) costs
    no row at once: the notebook is run once more from the start, in a fresh work
    folder, and its problems say so."""
    import nbformat

    failed = None
    for attempt in (1, 2):
        (work / "submission.ipynb").write_bytes(data)
        try:
            found = run_notebook(nb, work, channel, mode=options.sandbox, limits=limits,
                                 cell_timeout=options.cell_timeout,
                                 notebook_timeout=options.notebook_timeout,
                                 policy=options.policy, cut=cut, env=env,
                                 epilogue=epilogue)
        except Exception as exc:  # a kernel that did not start or answer
            cut.clear()
            why = f"{type(exc).__name__}: {display_name(exc, 200)}"
            if attempt == 2:
                return [f"the kernel failed to start or to answer ({failed}), and again "
                        f"when the notebook was run once more ({why}); not graded"]
            failed = why
            for entry in list(work.iterdir()):   # what the first run left: gone
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
            nb = nbformat.reads(data.decode("utf-8", errors="replace"), as_version=4)
            continue
        if failed:
            found.insert(0, f"the kernel failed to start or to answer ({failed}); the "
                            "notebook was run once more from the start, and graded so")
        return found
    return []


#: Code that gets round the seal (the library's internals, or the assignment's rules
#: switched off), as the grader reads it in the submitted notebook, outside the kernel.
#: Asking for help (``solution()``, ``key()``, ``explain()``, any sealed method) is not
#: read here: the kernel records every such request by construction, naming its route,
#: and one rule applies to all of them (:func:`_grade_question`).
_ASKING = re.compile(r"\b__wrapped__\b|"
                     # the checker's memo and what the seal keeps beside the questions
                     r"\b(_memo|_MEMO|_VAULT|_SPECS|__closure__|cell_contents|"
                     # the library's module internals, everything alive, the callers' frames
                     r"__globals__|get_objects|get_referents|get_referrers|_getframe|f_locals"
                     r"|f_globals|f_back|tb_frame|getweakrefs|__callback__|"
                     # the seal's own stores and judges, an instructor's declarations
                     r"_OWN|_ROUTES|_GUARDS|_AS_SEALED|_AS_MADE|_PRIVATE|_CONFIG"
                     r"|_SEALED_CLASSES|_asked_by_outsider|_judge|from_student|_spec_of)\b|"
                     # the data sets' module: what made a variant (09.4's groups), kept
                     # beside it, and the generators that redraw it from its seed
                     r"(?:\.\s*|\bimport[ \t]+(?:\([\w\s,.]*?|[\w \t,.]*?)\b)(?P<module>_data)\b|"
                     r"environ\s*\.\s*(pop|popitem|clear|update|__delitem__|__setitem__"
                     r"|__ior__)\b|environ\s*\|=|"
                     r"\bdel\s+[\w.]*environ\b|\b(putenv|unsetenv)\b|"
                     # setting a variable, except the variant a hand-out names (no gain)
                     r"environ\s*\[(?!\s*['\"]" + re.escape(VARIANT_ENV)
                     + r"['\"]\s*\])[^\]\n]*\]\s*=(?!=)")
_SECTION = re.compile(r"^q(\d+)-(\d+)-")
#: ``NAME = ex.question("03.1"...)``: a name the notebook gives a question
_BOUND = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*[\w.]*question\(\s*['\"](\d+\.\d+)['\"]")
_QID = re.compile(r"['\"](\d+\.\d+)['\"]")


def _asking_label(m) -> str:
    if m.group(1):
        return m.group(1)
    if m.group("module"):
        return m.group("module")
    return "__wrapped__" if "__wrapped__" in m.group(0) else "the environment changed"


def _code(cell) -> str:
    """A code cell's source as Python reads it: identifiers in their NFKC form (``ｋｅｙ``
    is ``key``), continued lines joined."""
    import unicodedata

    source = cell.get("source", "")
    source = source if isinstance(source, str) else ""
    return re.sub(r"\\\r?\n", "", unicodedata.normalize("NFKC", source))


def _sections(nb, qids) -> list:
    """The question whose part of the notebook each cell is in (None before the first):
    a part starts at a cell whose id is the question's (``q03-1-...``, as the course's
    notebooks name them), else, whatever ids JupyterLab gave the cells, at a Markdown
    heading that starts with the question's number (``## 51.6 ...``) or a code cell
    that binds it (``q6 = ex.question("51.6")``) when no heading started it. A notebook
    with the ids is read by its ids alone, as before."""
    by_id = [m and f"{m.group(1)}.{m.group(2)}" for m in
             (_SECTION.match(str(cell.get("id", ""))) for cell in nb.cells)]
    by_id = [q if q in qids else None for q in by_id]
    ids_only = any(by_id)
    out, current = [], None
    for cell, qid in zip(nb.cells, by_id):
        source = cell.get("source", "")
        source = source if isinstance(source, str) else ""
        if qid:
            current = qid
        elif ids_only:
            pass
        elif cell.get("cell_type") == "markdown":
            heading = HEADING.search(source)
            if heading and heading.group(1) in qids:
                current = heading.group(1)
        elif cell.get("cell_type") == "code":
            bound = [b.group(2) for b in _BOUND.finditer(source) if b.group(2) in qids]
            if len(bound) == 1 and bound[0] != current:
                current = bound[0]
        out.append(current)
    return out


def asked_for_answers(nb, qids) -> dict:
    """qid -> the calls that ask for its answer (``key(``, ``solution(``,
    ``compute_key(``, ``__wrapped__``, the environment changed), read from the submitted
    code by the grader itself. A call counts for the question whose part of the notebook
    it is in (from the question's first published cell to the next question's; before
    every question: all of them) and for every question its cell names (``"03.1"``, or a
    name the notebook gives the question: ``q1``), wherever the cell is."""
    found: dict = {}
    code = [(cell, _code(cell)) for cell in nb.cells if cell.get("cell_type") == "code"]
    names = {m.group(1): m.group(2) for _, source in code for m in _BOUND.finditer(source)
             if m.group(2) in qids}
    for cell, current in zip(nb.cells, _sections(nb, qids)):
        if cell.get("cell_type") != "code":
            continue
        source = _code(cell)
        hits = {_asking_label(m) for m in _ASKING.finditer(source)}
        if not hits:
            continue
        named = {names[w] for w in re.findall(r"[A-Za-z_]\w*", source) if w in names}
        named |= {q for q in _QID.findall(source) if q in qids}
        for qid in ([current] if current else list(qids)) + sorted(named):
            found.setdefault(qid, set()).update(hits)
    return {q: sorted(v) for q, v in found.items()}


def cut_questions(nb, qids, cut, names: dict) -> dict:
    """qid -> the sentence saying that a cell of its part of the notebook (see
    :func:`asked_for_answers`) was cut, or never run, for the questions with such a cell."""
    lost = {}
    cut = set(cut)
    for index, current in enumerate(_sections(nb, qids)):
        if index in cut and current is not None and current not in lost:
            lost[current] = (f"No answer was recorded: its cell ({names[index]}) was cut "
                             "or not run (see the problems with the notebook).")
    return lost


def _as_text(answer) -> str:
    """A recorded answer as one line of text (JSON for numbers and lists; a report caps
    it, :data:`~.report.FIELD_CAP`)."""
    if isinstance(answer, str):
        return answer
    try:
        return json.dumps(answer, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(answer)[:200]


def raised_questions(nb, qids, names: dict) -> dict:
    """qid -> the sentence naming the exception a code cell of its part of the notebook
    (see :func:`asked_for_answers`) raised in the graded run (the first such cell), for
    the questions with such a cell."""
    raised = {}
    for index, (cell, current) in enumerate(zip(nb.cells, _sections(nb, qids))):
        if current is None or current in raised or cell.get("cell_type") != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                raised[current] = (f"Error: {names.get(index, f'cell {index + 1}')} raised "
                                   f"{display_name(out.get('ename'), 60)}: "
                                   f"{display_name(out.get('evalue'), 200)}; no answer was "
                                   "recorded.")
                break
    return raised


def _grade_question(qid, variant, got, calls, solution_shown, asked=(),
                    lost=None, raised=None, hidden=None, refused=()) -> Outcome:
    """The outcome of ``qid``. One rule for every route to the answer (``solution()``,
    ``key()``, ``explain()``, ``options()``, any sealed method): an answer *shown* in the
    graded run (released, or a question on the course's data) costs the question under
    ``solution_shown``; a request refused before release is on the record, naming its
    route, and costs nothing. Code that gets round the seal (``asked``) counts as shown.
    ``raised``: the sentence naming the exception a cell of the question raised;
    ``hidden``: a function question's ``(public, hidden cases, outputs)``, the cases the
    grader ran the function on after the notebook (:func:`graded_cases`) and the outputs
    (the list the kernel recorded for both, or the sentence why there is none). Those
    outputs are graded, not the ones recorded at ``check``: a function checked on another
    variant's data is the same function on this one's."""
    q = QUESTIONS[qid](seed=variant)
    if got is None:
        outcome = q.grade(...)
        outcome.messages = [lost or raised
                            or "Not attempted: no answer was checked for this question."]
        if raised and not lost:     # the student's cell failed: an error, with its exception
            outcome.status = CELL_ERROR
    else:
        other, rerun = got["seed"] != variant, False
        if hidden is None:
            outcome = q.grade(got["answer"])
        else:
            public, cases, ran = hidden
            rerun = isinstance(ran, list) and len(ran) == len(public) + len(cases)
            if rerun:
                ran_public, ran_hidden = ran[:len(public)], ran[len(public):]
            else:   # not run: the outputs recorded at check count if they are this variant's
                ran_hidden = ran if isinstance(ran, str) else "no outputs were recorded"
                ran_public = ran_hidden if other else None
            outcome = q.grade(got["answer"], hidden=(cases, ran_hidden), public=ran_public)
            # a function's own messages can name folders: never shown
            outcome.messages = [_PATH.sub("<path>", m) for m in outcome.messages]
        if other:
            outcome.messages.append(
                f"(Checked in the notebook against {variant_name(got['seed'])}; graded "
                f"against {variant_name(variant)}"
                f"{': your function was run again on its cases' if rerun else ''}.)")
    shown = calls.get("solution_shown", 0) + calls.get("key_shown", 0)
    notes = []   # what the grader read in the code, then what the kernel recorded
    if asked:
        notes.append("The submitted code of this question asks for the answer ("
                     + ", ".join(asked) + ")")
    if shown:
        notes.append("The solution or key of this question was shown in the graded run")
    if refused and variant is not None:
        outcome.messages.append("Help asked for before release and refused (on the record, "
                                "no points lost): " + ", ".join(refused) + ".")
    if notes and variant is not None:
        if solution_shown == "zero" and outcome.points:
            outcome.points = 0.0
            notes[-1] += ": 0 points (the instructor's policy)"
        outcome.messages += [note + "." for note in notes]
    return outcome
