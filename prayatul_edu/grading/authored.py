"""An instructor's own exercise (:mod:`prayatul_edu.exercises.authoring`) handed out,
graded and released by its path.

``prayatul-edu assign FOLDER``, ``grade --exercise FOLDER`` and ``release FOLDER`` take
the folder of an instructor's exercise (``questions.py`` and ``solutions.ipynb``):
:func:`prepare` loads the questions from the instructor's copy (never from a
student's notebook), generates the student's notebook from the solutions (the
rules of :mod:`prayatul_edu.exercises.generator`) and runs the generator's checks
(:func:`check`): no answer assigned twice in a cell, no solution typed instead of
computed from the data, and full marks for the solutions notebook in every variant
handed out. :func:`stage` copies the questions module and its declared data files
(nothing else of the folder) for the grader's sandbox, where the kernel reads them
read-only.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..exercises import CORRECT
from ..exercises.assignment import POLICY_ENV, VARIANT_ENV
from ..exercises.authoring import EXERCISE_ENV, FreeTextQuestion, find, load
from ..exercises import _data
from ..exercises._base import QUESTIONS, apart
from ..exercises.generator import (checked_questions, literal_answers, make_exercise,
                                   run_solutions)
from .handout import assign, read_class_roster, release, student_variant
from .published import published_cells
from .report import write_atomic

__all__ = ["Prepared", "is_path", "prepare", "check", "stage", "copy_files", "assign_authored",
           "release_authored", "grading_options", "declared_problems", "fairness_problems"]


#: Added to the instructions of a handout of an instructor's exercise.
BESIDE = ("\n\n**Keep `questions.py` beside this notebook** (it came with it): it holds the "
          "questions; the notebook opens it with `pa.open_exercise(\"questions.py\")`.")


def is_path(text) -> bool:
    """Whether ``text`` names an instructor's exercise by its path (not ``03``)."""
    s = str(text)
    return os.sep in s or "/" in s or s.endswith((".py", ".ipynb")) or Path(s).is_dir()


@dataclass
class Prepared:
    """An instructor's exercise ready to hand out or grade: its name, questions module,
    solutions notebook, and the folders where the generated exercise (``published``) and a
    copy of the solutions (``solutions``) were written as ``NAME.ipynb``."""

    name: str
    module: Path
    notebook: Path
    published: Path
    solutions: Path


def prepare(path, work) -> Prepared:
    """Load the exercise at ``path`` and write its generated notebook in ``work``
    (ValueError when the folder lacks a file, or a solution region is broken)."""
    import nbformat

    exercise = load(path)
    module, notebook = find(path)
    if notebook is None:
        raise ValueError(f"exercise: no solutions.ipynb beside {module.name}")
    nb = nbformat.read(notebook, as_version=4)
    generated = make_exercise(nb, exercise.name)
    published, solutions = Path(work) / "published", Path(work) / "solutions"
    for folder in (published, solutions):
        folder.mkdir(parents=True, exist_ok=True)
    write_atomic(published / f"{exercise.name}.ipynb", nbformat.writes(generated) + "\n")
    shutil.copyfile(notebook, solutions / f"{exercise.name}.ipynb")
    return Prepared(exercise.name, module, notebook, published, solutions)


def check(prepared: Prepared, variants, progress=None) -> list[str]:
    """The generator's checks (see the module doc) for the ``variants`` handed out (and
    the exercise's own data, ``None``), and every code cell of the students' notebook
    compiles; the problems found, [] when none. Before any notebook runs: every key and
    mistake (:func:`declared_problems`) and whether variants can be fair at all
    (:func:`fairness_problems`). ``progress``: called with a line of text as each
    variant's solutions are run (the search for fair variants can take minutes)."""
    import nbformat

    nb = nbformat.read(prepared.notebook, as_version=4)
    exercise = load(prepared.module)
    graded = [q for q in exercise.qids if not issubclass(QUESTIONS[q], FreeTextQuestion)]
    words = {k for k, q in checked_questions(nb).items() if q not in graded}
    problems = literal_answers(nb, prepared.notebook.name, exempt=words)  # words are typed
    blank = nbformat.read(prepared.published / f"{prepared.name}.ipynb", as_version=4)
    for k, cell in enumerate(blank.cells, 1):   # the students' notebook must run, blank
        if cell.cell_type == "code" and not any(
                line.lstrip().startswith(("%", "!")) for line in cell.source.splitlines()):
            try:
                compile(cell.source, f"cell {k}", "exec")
            except SyntaxError as exc:
                problems.append(f"the students' notebook, cell {k}, does not run: "
                                f"{exc.msg} (line {exc.lineno}); keep an answer line whole "
                                "on the line marked # SOLUTION, or use BEGIN/END SOLUTION")
    declared = declared_problems(graded) or (fairness_problems(graded) if variants else [])
    if declared:      # a broken key or mistake, no fair variant: said before any run
        return problems + declared
    env = {EXERCISE_ENV: str(prepared.module), POLICY_ENV: "", VARIANT_ENV: ""}
    problems += _ambiguous_on_own_data(graded)
    seeds = [None, *variants]
    for done, seed in enumerate(seeds, 1):
        if progress is not None:
            which = "the exercise data" if seed is None else f"variant {seed}"
            progress(f"checking the solutions: {which} ({done} of {len(seeds)}; each "
                     "variant's data are redrawn until every question finds them fair)")
        try:
            status = run_solutions(nb, seed, env)
        except Exception as exc:  # the instructor's own code: say where it failed
            problems.append(f"the solutions raise {type(exc).__name__} ({exc}) for "
                            f"{'the exercise data' if seed is None else 'variant ' + seed}")
            continue
        wrong = [f"{q} ({status.get(q, 'never checked')})" for q in graded
                 if status.get(q) != CORRECT]
        if wrong:
            problems.append(f"the solutions do not get full marks for "
                            f"{'the exercise data' if seed is None else 'variant ' + seed}: "
                            + ", ".join(wrong))
    return problems


def _shape(value) -> str:
    """What a key or a mistake's value is, in words: ``one number``, ``3 numbers``, ``a
    table of 3 rows and 3 columns``."""
    shape = np.shape(value)
    if shape == ():
        return "one number"
    if len(shape) == 1:
        return f"{shape[0]} number{'s' * (shape[0] != 1)}"
    if len(shape) == 2:
        return (f"a table of {shape[0]} row{'s' * (shape[0] != 1)} and {shape[1]} "
                f"column{'s' * (shape[1] != 1)}")
    return f"an array of shape {shape}"


def declared_problems(qids) -> list[str]:
    """Every question of ``qids`` and each of its named mistakes computed on the
    exercise's own data, as ``assign`` loads the exercise (in seconds, before any
    notebook runs): a key or a mistake that raises, and a mistake whose value has not
    the key's shape (a number where the key is a list, 3 numbers for 2 parts, a table
    of other rows and columns), each named with its question and mistake; [] when
    none. No traceback: the instructor's exception is named with its message."""
    problems, on_data = [], {}   # a data set's problem: said once, with its questions
    for qid in qids:
        cls = QUESTIONS[qid]
        head = f"{qid} {cls.title}"
        try:
            q = cls(seed=None)
        except Exception as exc:     # its data set's function, or a reserved name
            heads, at = on_data.setdefault(str(exc), ([], len(problems)))
            heads.append(head)
            problems[at:at + (len(heads) > 1)] = [f"{', '.join(heads)}: {exc}"]
            continue
        try:
            key = q.keys()[0]
        except Exception as exc:     # the instructor's own code: where it failed
            text = str(exc)
            problems.append(text if text.startswith(qid) else
                            f"{head}: its key raises {type(exc).__name__} ({text})")
            continue
        try:
            slips = q.mistakes()
        except Exception as exc:     # _run names the mistake whose function raised
            text = str(exc)
            problems.append(text if text.startswith(qid) else
                            f"{head}: a named mistake raises {type(exc).__name__} ({text})")
            continue
        if isinstance(key, (frozenset, set, str)) or key is None:
            continue                 # a choice: letters, not numbers
        for m in slips:
            if np.shape(m.value) != np.shape(key):
                problems.append(f"{head}: the named mistake {m.name!r} gives "
                                f"{_shape(m.value)}, the key {_shape(key)}: a mistake must "
                                "have the key's shape (one value per part, the table's rows "
                                "and columns)")
    return problems


#: Draws of each data set :func:`fairness_problems` judges.
FAIRNESS_DRAWS = 40


def _unfair_reasons(q) -> list[str]:
    """Why the data of question ``q`` make no fair variant: its key not finite, a named
    mistake giving the key, two mistakes giving one value (each named)."""
    head = f"{q.qid} {q.title}"
    if q.acceptable():
        return []
    keys, slips = q.keys(), q.mistakes()
    if isinstance(keys[0], frozenset):   # a choice: too few true statements to misjudge
        need = 1 if getattr(q, "single", False) else 2
        if len(keys[0]) < need:
            return [f"{head}: only {len(keys[0])} statement{'s' * (len(keys[0]) != 1)} "
                    f"{'is' if len(keys[0]) == 1 else 'are'} true (a choice needs {need}: "
                    "a student who misjudges one still gives letters)"]
    reasons = [f"{head}: the key is not a finite number" for key in keys[:1]
               if not isinstance(key, frozenset) and not np.all(np.isfinite(
                   np.asarray(key, dtype=float)))]
    reasons += [f"{head}: the named mistake {m.name!r} gives the key" for m in slips
                if any(not apart(key, m.value) for key in keys)]
    reasons += [f"{head}: the named mistakes {a.name!r} and {b.name!r} give one value"
                for i, a in enumerate(slips) for b in slips[i + 1:] if not apart(a.value, b.value)]
    return reasons or [f"{head}: a named mistake is within the question's tolerance of "
                       "the key"]


def fairness_problems(qids, draws: int = FAIRNESS_DRAWS) -> list[str]:
    """Whether a student's variant can be fair at all: :data:`FAIRNESS_DRAWS` draws of
    each data set of the questions ``qids`` judged as the search for a variant judges
    them (every question on the data: a finite key, every named mistake told apart
    from it and from the others). A data set none of whose draws is fair would make
    ``assign`` search for minutes and fail: the problem names the questions and
    mistakes that made the draws unfair, the most frequent first; [] otherwise."""
    by_set: dict[str, list[str]] = {}
    for qid in qids:
        by_set.setdefault(QUESTIONS[qid].dataset, []).append(qid)
    problems = []
    for name, on_it in by_set.items():
        if name not in _data.DATASETS:
            continue
        draw = _data.DATASETS[name][1]
        rng = _data.rng_for("fairness check", name)
        fair, blamed = 0, {}
        for _ in range(draws):
            try:
                data = draw(rng)
                reasons = [r for qid in on_it
                           for r in _unfair_reasons(QUESTIONS[qid](seed="check", data=data))]
            except Exception as exc:     # the instructor's own code: where it failed
                return [f"data set {name.split('/')[-1]}: a variant's draw raises "
                        f"{type(exc).__name__} ({exc})"]
            fair += not reasons
            for r in dict.fromkeys(reasons):
                blamed[r] = blamed.get(r, 0) + 1
        if fair == 0:
            worst = sorted(blamed.items(), key=lambda kv: -kv[1])[:3]
            problems.append(f"no fair variant: none of {draws} draws of the data set "
                            f"{name.split('/')[-1]} is fair for every question on it; "
                            + "; ".join(f"{r} in {n} of {draws} draws" for r, n in worst)
                            + ": change the data's draw or the mistake")
    return problems


def _ambiguous_on_own_data(qids) -> list[str]:
    """The exercise's own data are taken as they are (a variant is redrawn instead): a
    named mistake giving the key there, or another mistake's value, is a problem."""
    problems = []
    for qid in qids:
        q = QUESTIONS[qid](seed=None)
        try:
            reasons = _unfair_reasons(q)
        except Exception as exc:    # the instructor's own code: say where it failed
            problems.append(f"{qid}: {exc}")
            continue
        if reasons:
            head = f"{qid} {q.title}: "
            problems.append(head + "on the exercise's own data "
                            + "; ".join(r.removeprefix(head) for r in reasons)
                            + ": a student's answer would be ambiguous; change the data or "
                              "the mistake")
    return problems


def copy_files(module: Path, dest: Path) -> list[Path]:
    """Copy the questions module and its declared data files into ``dest``."""
    exercise = load(module)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for source in [Path(module)] + [exercise.folder / f for f in exercise.files]:
        target = dest / (source.name if source != Path(module) else "questions.py")
        shutil.copyfile(source, target)
        os.chmod(target, 0o644)
        written.append(target)
    return written


def stage(module: str, dest: Path) -> dict:
    """A read-only copy of the questions (:func:`copy_files`) for a sandboxed kernel; the
    environment variable that points :func:`~.authoring.open_exercise` at it."""
    dest.mkdir(mode=0o755)
    os.chmod(dest, 0o755)
    copy_files(Path(module), dest)
    return {EXERCISE_ENV: str(dest / "questions.py")}



def assign_authored(path, roster, out, *, course_key: bytes | None = None, **kw) -> list[Path]:
    """:func:`~.handout.assign` of the instructor's exercise at ``path``: checked first
    (:func:`check`, for every student's variant: nothing is written when a check fails),
    then the handouts, with the questions module and its data files beside them."""
    kw.pop("published", None)   # generated from the solutions, not taken from a folder
    students = (read_class_roster(roster) if isinstance(roster, (str, Path))
                else list(roster))
    with tempfile.TemporaryDirectory(prefix="prayatul-assign-") as tmp:
        prepared = prepare(path, tmp)
        problems = check(prepared, [student_variant(course_key, s) for s in students],
                         progress=kw.pop("progress", None))
        if problems:
            raise ValueError("exercise: " + "; ".join(problems[:10]))
        written = assign(prepared.name, roster, out, course_key=course_key,  # all columns
                         published=prepared.published, **kw)
        copy_files(prepared.module, Path(out) / "notebooks")
    for path in written:                   # the student keeps the questions beside it
        nb = json.loads(path.read_text(encoding="utf-8"))
        cell = next(c for c in nb["cells"] if c.get("id") == "handout")
        cell["source"] = "".join(cell["source"]) + BESIDE
        write_atomic(path, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    readme = Path(out) / "README.md"      # the commands name the exercise by its path
    write_atomic(readme, readme.read_text(encoding="utf-8").replace(
        f"--exercise {prepared.name} ", f"--exercise {prepared.module.parent} ").replace(
        f"release {prepared.name} ", f"release {prepared.module.parent} "))
    return written


def release_authored(path, out, *, roster=None, course_key: bytes | None = None,
                     **kw) -> list[Path]:
    """:func:`~.handout.release` of the instructor's exercise at ``path``, with the
    questions module and its data files beside the notebooks."""
    with tempfile.TemporaryDirectory(prefix="prayatul-release-") as tmp:
        prepared = prepare(path, tmp)
        written = release(prepared.name, out, roster=roster, course_key=course_key,
                          solutions=prepared.solutions, published=prepared.published)
        written += copy_files(prepared.module, Path(out))
        if roster is not None:
            written += copy_files(prepared.module, Path(out) / "notebooks")
    return written


def grading_options(path, options) -> str:
    """Point ``options`` (:class:`~.notebook.Options`) at the instructor's exercise at
    ``path``: its questions module and its published cells; return the exercise's name."""
    with tempfile.TemporaryDirectory(prefix="prayatul-grade-") as tmp:
        prepared = prepare(path, tmp)
        options.published[prepared.name] = {k: list(v) for k, v in published_cells(
            prepared.name, prepared.published).items()}
    options.authored = str(prepared.module)
    options.exercise = prepared.name
    return prepared.name
