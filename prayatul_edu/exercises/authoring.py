"""Your own questions, in your own files: an exercise declared beside its notebook.

An instructor writes a module ``questions.py`` beside a solutions notebook
``solutions.ipynb`` (both in one folder of their own; no change to the package).
The module declares an :class:`Exercise` and its questions, built on the
package's kinds of answer (:mod:`.kinds`): a number, a whole number, a few
named numbers, a table, a choice of statements, and a free text graded by hand.
For each question: the data (from :meth:`Exercise.dataset`, a function of a
random generator: one variant per student, or ``None``: the exercise's own
data), the key computed from the data, the tolerance, the named mistakes (a
wrong computation and the message naming it: :func:`mistake`), hints and
points::

    import numpy as np
    import prayatul_edu as pe
    import prayatul_edu.exercises.authoring as pa

    exercise = pa.Exercise("51_labels", title="Two labelings")

    @exercise.dataset
    def labels(rng):                      # rng None: your own data; else a student's
        if rng is None:
            return {"truth": np.array([1, 1, 2, 2]), "pred": np.array([1, 2, 2, 2])}
        return {"truth": rng.integers(1, 3, 8), "pred": rng.integers(1, 3, 8)}

    exercise.number(
        "purity", data=labels, points=2,
        prompt=lambda d: f"Truth {d['truth'].tolist()}, clusters {d['pred'].tolist()}: purity?",
        key=lambda d: float(pe.purity(d["truth"], d["pred"])),
        mistakes=[pa.mistake("swapped", lambda d: float(pe.purity(d["pred"], d["truth"])),
                             "You took the majority cluster of each class.")],
        hints=["For each cluster, count its largest class."])

Questions are numbered in the order they are declared: ``51.1``, ``51.2``... The
notebook opens the exercise by its path (:func:`open_exercise`): its setup cell is::

    import prayatul_edu.exercises.authoring as pa
    ex = pa.open_exercise("questions.py")
    STUDENT_ID = None  # your student id for a take-home variant, e.g. "s1234"
    ex.setup(student_id=STUDENT_ID)

and each question ``q1 = ex.question("51.1")``, ``q1.check(answer)`` as in the course's
own exercises. The grader never takes the questions from a student's notebook: it
loads this module from the instructor's path (``prayatul-edu grade --exercise
FOLDER``) and, inside the sandbox, shows the kernel a read-only copy of it
(:data:`EXERCISE_ENV`). The guide, step by step: ``docs/authoring.md``.
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from . import _base, _data, assignment
from ._base import ATOL, RTOL, TOPICS, Feedback, InvalidAnswer, Mistake, Outcome, Question
from .kinds import (ChoiceQuestion, FunctionQuestion, IntegerQuestion, NumberQuestion,
                    NumbersQuestion, TableQuestion, json_data)

__all__ = ["Exercise", "mistake", "open_exercise", "load", "find", "exercise_of",
           "FreeTextQuestion", "HAND", "EXERCISE_ENV", "AUTHORED", "QUESTIONS_FILE",
           "SOLUTIONS_FILE", "MAX_TEXT", "RESERVED", "tolerance"]

#: The grader sets this (inside the sandbox) to its read-only copy of the questions module:
#: :func:`open_exercise` loads that copy, whatever path the notebook names.
EXERCISE_ENV = "PRAYATUL_EDU_EXERCISE"
#: The files of an exercise's folder: the questions and the solutions notebook.
QUESTIONS_FILE, SOLUTIONS_FILE = "questions.py", "solutions.ipynb"
#: The status of a free-text answer until its points are given by hand.
HAND = "to be graded by hand"
#: Characters of a free-text answer kept.
MAX_TEXT = 5000
#: Names a data set's dict may not use: the question's own attributes (``q.seed`` is
#: the variant, ``q.data`` the data, ``q.hint`` a method...), which would hide the data.
RESERVED = frozenset({"seed", "data"} | {
    n for kind in (Question, ChoiceQuestion, IntegerQuestion, NumberQuestion,
                   NumbersQuestion, TableQuestion) for n in dir(kind) if not n.startswith("_")})
#: exercise name -> the :class:`Exercise` declared (in this process).
AUTHORED: dict[str, "Exercise"] = {}

_NAME = re.compile(r"(\d\d)_([a-z][a-z0-9_]{0,39})")
_LOADED: dict[Path, "Exercise"] = {}


@dataclass(frozen=True)
class _Slip:
    name: str
    compute: Callable
    message: str


def mistake(name: str, compute: Callable[[dict], Any], message: str) -> _Slip:
    """A named mistake: ``compute(data)`` is the value the wrong computation gives, and
    ``message`` what a student who gives it is told (name the slip, never the answer).
    For a function question (:meth:`Exercise.function`) ``compute`` is the slip's own
    implementation: a function with the question's signature."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"mistake: name: expected a few words, got {name!r}")
    if not callable(compute):
        raise TypeError(f"mistake {name!r}: compute: expected a function of the data, got "
                        f"{type(compute).__name__}")
    if not isinstance(message, str) or not message.strip():
        raise ValueError(f"mistake {name!r}: message: expected a sentence")
    return _Slip(name.strip(), compute, message.strip())


# ------------------------------------------------------------ the kinds
def _blocks(d, content, data) -> None:
    """Add a prompt or an explanation: a string (Markdown), or a function of the data
    giving a string, a ``(header, rows)`` table, or a list of them."""
    value = content(data) if callable(content) else content
    for item in (value if isinstance(value, list) else [value]):
        if isinstance(item, tuple) and len(item) == 2:
            d.table(list(item[0]), [list(r) for r in item[1]], max_rows=200)
        elif item:
            d.text(str(item))


def _run(q, what: str, compute):
    """``compute(q.data)``, the instructor's own function; an error names the question,
    the function and the variant (ValueError)."""
    try:
        return compute(q.data)
    except Exception as exc:
        variant = "the exercise's own data" if q.seed is None else f"variant {q.seed}"
        raise ValueError(f"{q.qid} {q.title}: its {what} raises {type(exc).__name__} "
                         f"({exc}) for {variant}") from exc


#: question class -> its declaration (the instructor's key, mistakes, statements, prompt,
#: explanation and tolerance), kept beside the class, never in one of its attributes: in
#: assignment mode only the question's sealed methods (:meth:`_Authored._spec`) reach it.
_SPECS: dict = {}


def _spec_of(cls) -> dict:
    """The declaration of the authored question class ``cls`` (or of its first base
    declared). Asked from a cell, a sealed route (recorded, refused before release)."""
    if assignment.from_student():
        assignment.judge(cls, "_spec_of")
    return next((_SPECS[c] for c in cls.__mro__ if c in _SPECS), {})


def tolerance(cls) -> list:
    """``[atol, rtol]`` of the question class ``cls``: an authored question's own, else
    the library's (:data:`~prayatul_edu.exercises.ATOL`, ``RTOL``)."""
    spec = _spec_of(cls)
    return [spec.get("atol", ATOL), spec.get("rtol", RTOL)]


class _Authored:
    """What every authored question adds to its kind: the instructor's functions."""

    def _spec(self) -> dict:
        return _spec_of(type(self))

    def compute_key(self):
        return self._convert(_run(self, "key", self._spec()["key"]))

    def mistakes(self) -> list[Mistake]:
        return [Mistake(m.name, self._convert(_run(self, f"mistake {m.name!r}", m.compute)),
                        m.message) for m in self._spec()["mistakes"]]

    def describe(self, d) -> None:
        _blocks(d, self._spec()["prompt"], self.data)

    def explain(self, d) -> None:
        if self._spec().get("explain") is not None:
            _blocks(d, self._spec()["explain"], self.data)
        else:
            d.text("Computed from your data by the instructor's solution.")

    def _convert(self, value):
        return value


class _Tolerant(_Authored):
    """Numbers within the question's ``atol + rtol |key|`` of the key are accepted."""

    def _convert(self, value):
        return np.asarray(value, dtype=float) if np.ndim(value) else float(value)

    def _within(self, got, want) -> np.ndarray:
        got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
        spec = self._spec()
        return np.abs(got - want) <= spec["atol"] + spec["rtol"] * np.abs(want) + 1e-12

    def read(self, answer):
        value = super().read(answer)
        key = self._once("keys")[0]
        if np.shape(value) != np.shape(key):
            return value
        snapped = np.where(self._within(value, key), key, value)   # within: the key itself
        return float(snapped) if np.ndim(snapped) == 0 else snapped

    def matches(self, value, key) -> bool:
        return np.shape(value) == np.shape(key) and bool(np.all(self._within(value, key)))

    def to_json(self, answer):
        try:     # what the student typed, not the key it was taken for
            value = super(_Tolerant, self).read(answer)
        except InvalidAnswer:
            return {"unreadable": repr(answer)[:200]}
        return value.tolist() if isinstance(value, np.ndarray) else value

    def acceptable(self) -> bool:
        if not super().acceptable():
            return False
        key = self._once("keys")[0]
        return not any(np.all(self._within(m.value, key)) for m in self._once("mistakes"))


class _Number(_Tolerant, NumberQuestion):
    pass


class _Numbers(_Tolerant, NumbersQuestion):
    pass


class _Table(_Tolerant, TableQuestion):
    pass


class _Integer(_Authored, IntegerQuestion):
    def _convert(self, value):
        if float(value) != int(value):
            raise ValueError(f"{self.qid}: the key or a mistake of a whole-number question "
                             f"is {value!r}, not a whole number")
        return int(value)


class _Choice(_Authored, ChoiceQuestion):
    """Statements ``(text, is_true, why)`` or ``(text, is_true, why, name)``: a misjudged
    statement is the named mistake ``misjudged: name`` (the same name whatever letter the
    statement has in a student's shuffled order)."""

    def statements(self):
        return [tuple(s[:3]) for s in self._statements()]

    def _statements(self):
        st = _run(self, "statements", self._spec()["statements"])
        for s in st:
            if not (isinstance(s, (tuple, list)) and len(s) in (3, 4)
                    and isinstance(s[0], str) and isinstance(s[1], (bool, np.bool_))):
                raise ValueError(f"{self.qid}: statements: expected (text, is_true, why"
                                 f"[, name]) tuples, got {s!r}")
        return st

    def _named(self) -> dict[str, str]:
        """letter -> the statement's name."""
        names = {s[0]: (s[3] if len(s) == 4 else s[0][:40]) for s in self._statements()}
        return {letter: names[text] for letter, text, _, _ in self.options()}

    def compute_key(self):
        return ChoiceQuestion.compute_key(self)

    def describe(self, d) -> None:
        _blocks(d, self._spec()["prompt"], self.data)
        self.describe_options(d)           # the lettered statements, in this student's order

    def mistakes(self):
        named = self._named()
        return [Mistake(f"misjudged: {named[m.name.split()[-1]]}", m.value, m.message)
                for m in ChoiceQuestion.mistakes(self)]

    def compare(self, value) -> Outcome:
        out = ChoiceQuestion.compare(self, value)
        named = self._named()
        out.diagnosed = [f"misjudged: {named[d.split()[-1]]}" for d in out.diagnosed]
        return out

    def explain(self, d) -> None:
        ChoiceQuestion.explain(self, d)
        if self._spec().get("explain") is not None:
            _blocks(d, self._spec()["explain"], self.data)


def _cases(value, what: str) -> list[dict]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(c, dict) for c in value):
        raise ValueError(f"{what}: expected a list of cases (dicts argument -> value), got "
                         f"{type(value).__name__}")
    return [{a: json_data(v) for a, v in c.items()} for c in value]


class _Function(FunctionQuestion):
    """An instructor's function question: the reference, the slips, the cases of ``_spec``."""

    def _spec(self) -> dict:
        return _spec_of(type(self))

    def shown_case(self):
        if self._spec().get("shown") is None:
            return None
        return _cases([_run(self, "shown", self._spec()["shown"])], f"{self.qid} shown")[0]

    def small_cases(self):
        cases = self._spec()["cases"]
        return _cases(_run(self, "cases", cases) if callable(cases) else cases,
                      f"{self.qid} cases")

    def hidden_case(self, rng):
        return self._spec()["hidden"](rng)

    def hidden_cases(self, rng):
        return super().hidden_cases(rng) if self._spec().get("hidden") is not None else []

    def compute_key(self, cases=None):
        return self.outputs(self._spec()["reference"], cases)

    def mistakes(self, cases=None):
        return [Mistake(m.name, self.outputs(m.compute, cases), m.message)
                for m in self._spec()["mistakes"]]

    def describe(self, d) -> None:
        _blocks(d, self._spec()["prompt"], self.data)

    def explain(self, d) -> None:
        _blocks(d, self._spec().get("explain") or "The instructor's reference gives the values "
                "above.", self.data)


class _HandOutcome(Outcome):
    def render(self, title: str) -> Feedback:
        if self.status != HAND:
            return super().render(title)
        head = f"{self.qid} {title}: recorded, {HAND} (of {self.max_points:g} points)"
        return Feedback(f"📝 **{head}**\n\n" + "".join(f"* {m}\n" for m in self.messages),
                        "\n".join([head] + [f"  - {m}" for m in self.messages]))


class FreeTextQuestion(Question):
    """An answer in words, graded by hand: ``check`` records it (at most
    :data:`MAX_TEXT` characters) and says so; the grader gives it 0 points and the status
    :data:`HAND` until the instructor's override (``prayatul-edu export --overrides``)
    gives its points. ``solution()`` shows the instructor's model answer or rubric."""

    kind = "text"

    def _spec(self) -> dict:
        return _spec_of(type(self))

    def compute_key(self):
        return None

    def describe(self, d) -> None:
        _blocks(d, self._spec()["prompt"], self.data)

    def explain(self, d) -> None:
        _blocks(d, self._spec().get("explain") or "Your instructor reads your answer.", self.data)

    def answer_format(self) -> str:
        return "Answer: a few sentences, as a string (in quotes)."

    def read(self, answer):
        if not isinstance(answer, str) or not answer.strip():
            raise InvalidAnswer("answer: expected your answer as text, in quotes")
        return answer.strip()[:MAX_TEXT]

    def matches(self, value, key) -> bool:
        return False                      # never correct by itself: read by hand

    def keys(self) -> list:
        return [None]

    def _course_keys(self) -> list:
        return []

    def acceptable(self) -> bool:
        return True

    def compare(self, value) -> Outcome:
        return _HandOutcome(self.qid, HAND, 0.0, self.points,
                            ["Recorded: your instructor reads this answer and gives its "
                             "points by hand."])


# ------------------------------------------------------------ the exercise
class Exercise:
    """An instructor's exercise: ``name`` is ``NN_topic`` (two digits, not those of the
    course's own notebooks, then a short lower-case name; 51 and above are never the
    course's); its questions are ``NN.1``, ``NN.2``... in the order declared. ``files``:
    data files beside the module that the questions read (:meth:`path`); they are handed
    out with the notebooks and shown to the grader's sandbox (nothing else of the folder
    is: keep your course key elsewhere, or anywhere, it is never copied)."""

    def __init__(self, name: str, *, title: str = "", files: Sequence[str] = ()):
        m = _NAME.fullmatch(str(name))
        if not m:
            raise ValueError(f"name: expected two digits, an underscore and a short lower-case "
                             f"name (e.g. '51_iris'), got {name!r}")
        if m.group(1) in TOPICS:
            raise ValueError(f"name: {m.group(1)} is the number of the course's exercise "
                             f"{m.group(1)}_{TOPICS[m.group(1)]}; choose another (51-99)")
        taken = [e for e in AUTHORED.values() if e.topic == m.group(1) and e.name != name]
        if taken or name in AUTHORED:
            raise ValueError(f"name: exercise number {m.group(1)} is declared twice in this "
                             "session (one exercise per number)")
        caller = sys._getframe(1).f_globals.get("__file__")
        self.folder = Path(caller).resolve().parent if caller else Path.cwd()
        for f in files:
            if not isinstance(f, str) or Path(f).name != f or f.startswith("."):
                raise ValueError(f"files: expected names of files beside the module, got {f!r}")
        self.name, self.topic, self.title, self.files = name, m.group(1), title, tuple(files)
        self.qids: list[str] = []
        self._datasets: set[str] = set()
        AUTHORED[name] = self

    # -- data ----------------------------------------------------------
    def path(self, name: str) -> Path:
        """The file ``name`` beside the questions module (one of ``files``)."""
        if name not in self.files:
            raise ValueError(f"path: {name!r} is not one of the exercise's files "
                             f"({', '.join(self.files) or 'none declared'}); add it to files=")
        return self.folder / name

    def dataset(self, draw: Callable[[Any], dict]) -> str:
        """Declare a data set (a decorator): ``draw(rng)`` returns a dict of the data;
        ``rng`` is None for the exercise's own data and a NumPy generator fixed by the
        student's variant otherwise (redrawn until every question on it has a finite key
        and mistakes told apart from it). Returns the data set's name for ``data=``."""
        name = f"{self.name}/{draw.__name__}"
        if name in self._datasets:
            raise ValueError(f"dataset: {draw.__name__!r} is declared twice in {self.name}; "
                             "give each data set a function name of its own")
        self._datasets.add(name)

        def checked(rng):
            data = draw(rng)
            if not isinstance(data, dict):
                raise TypeError(f"dataset {draw.__name__}: expected a dict of the data, got "
                                f"{type(data).__name__}")
            taken = sorted(k for k in data if k in RESERVED)
            if taken:   # q.seed would be the variant, not these data
                raise ValueError(f"dataset {draw.__name__}: the data name"
                                 f"{'s' * (len(taken) > 1)} {', '.join(map(repr, taken))} "
                                 f"belong{'s' * (len(taken) == 1)} to the question itself (q.seed is its variant, "
                                 "q.data its data, ...): rename "
                                 f"{'them' if len(taken) > 1 else 'it'}; reserved: "
                                 + ", ".join(sorted(RESERVED)))
            return data

        _data.DATASETS[name] = (lambda: checked(None), checked)
        return name

    # -- questions -----------------------------------------------------
    def _declare(self, base, title, spec, *, data, points, hints, extra=None):
        if data is None:
            data = "none"
        if data not in _data.DATASETS:
            raise ValueError(f"data: {data!r} is not a data set (declare one with "
                             "@exercise.dataset)")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or points <= 0:
            raise ValueError(f"points: expected a positive number, got {points!r}")
        if isinstance(hints, str) or not all(isinstance(h, str) for h in hints):
            raise TypeError("hints: expected a list of sentences")
        for m in spec.get("mistakes", ()):
            if not isinstance(m, _Slip):
                raise TypeError(f"mistakes: expected pa.mistake(name, compute, message), "
                                f"got {m!r}")
        qid = f"{self.topic}.{len(self.qids) + 1}"
        attrs = dict(qid=qid, title=str(title), dataset=data, points=float(points),
                     hints=tuple(hints), __module__=self.name, **(extra or {}))
        cls = type(f"Q{self.topic}_{len(self.qids) + 1}", (base,), attrs)
        _SPECS[cls] = spec
        self.qids.append(qid)
        return cls

    def _numeric(self, base, title, *, key, prompt, data=None, mistakes=(), hints=(),
                 points: float = 1, atol: float = ATOL, rtol: float = RTOL, explain=None,
                 **extra):
        if not callable(key):
            raise TypeError("key: expected a function of the data that computes the answer")
        for name, tol in (("atol", atol), ("rtol", rtol)):
            if not isinstance(tol, (int, float)) or isinstance(tol, bool) or tol < 0:
                raise ValueError(f"{name}: expected a number >= 0, got {tol!r}")
        spec = dict(key=key, prompt=prompt, mistakes=list(mistakes), atol=float(atol),
                    rtol=float(rtol), explain=explain)
        return self._declare(base, title, spec, data=data, points=points, hints=hints,
                             extra=extra)

    def number(self, title: str, *, key, prompt, data=None, mistakes=(), hints=(),
               points: float = 1, atol: float = ATOL, rtol: float = RTOL, explain=None,
               asked: str = "the answer"):
        """A number, accepted within ``atol + rtol |key|`` (default 1e-4 and 1e-4).

        ``key(data)`` computes the answer; ``mistakes``: :func:`mistake` values; ``asked``:
        what the solution's first line names (``purity = 0.8``)."""
        return self._numeric(_Number, title, key=key, prompt=prompt, data=data,
                             mistakes=mistakes, hints=hints, points=points, atol=atol,
                             rtol=rtol, explain=explain, asked=asked)

    def numbers(self, title: str, *, parts: Sequence[str], **kw):
        """A few named numbers (``parts``), partial credit per number; the other arguments
        are those of :meth:`number` (``key(data)`` gives the numbers in order)."""
        if isinstance(parts, str) or len(parts) < 2:
            raise ValueError("parts: expected the names of two numbers or more")
        return self._numeric(_Numbers, title, parts=tuple(parts), **kw)

    def table(self, title: str, **kw):
        """A table of numbers (all or nothing); the arguments of :meth:`number`."""
        return self._numeric(_Table, title, **dict({"asked": "table"}, **kw))

    def integer(self, title: str, **kw):
        """A whole number, compared exactly; the arguments of :meth:`number` but the
        tolerance."""
        if "atol" in kw or "rtol" in kw:
            raise TypeError("integer: a whole number is compared exactly (no atol, rtol)")
        return self._numeric(_Integer, title, **dict({"asked": "the answer"}, **kw))

    def choice(self, title: str, *, statements, prompt, data=None, hints=(),
               points: float = 1, single: bool = False, explain=None):
        """Pick the true statements: ``statements(data)`` gives ``(text, is_true, why)``
        or ``(text, is_true, why, name)`` tuples; a misjudged statement is a named mistake
        (``why`` is its message); options are shuffled per student."""
        if not callable(statements):
            raise TypeError("statements: expected a function of the data")
        spec = dict(statements=statements, prompt=prompt, explain=explain, mistakes=[])
        return self._declare(_Choice, title, spec, data=data, points=points, hints=hints,
                             extra={"single": bool(single)})

    def function(self, title: str, *, name: str, signature: str, reference, cases, prompt,
                 data=None, shown=None, hidden=None, n_hidden: int = 6, mistakes=(),
                 returns: Sequence[str] = (), credit: dict | None = None, hints=(),
                 points: float = 1, explain=None, asked: str | None = None):
        """The answer is a function the student writes (:class:`~.kinds.FunctionQuestion`).

        ``name`` and ``signature``: the function's name and arguments (``"purity"``,
        ``"truth, pred"``); ``reference``: your implementation, with that signature
        (never shown to a student); ``cases``: the public cases, a list of dicts argument
        -> value (lists for arrays) or a function of the data giving them; ``shown``: a
        function of the data giving the case of the data the prompt shows (its right
        value is never printed in the feedback); ``hidden(rng)``: one hidden case drawn
        from the grader's generator (``n_hidden`` of them per graded notebook, run in the
        sandbox after the student's notebook); ``mistakes``: :func:`mistake` values whose
        ``compute`` is the slip's implementation; ``returns``: the names of the numbers
        the function returns (empty: one number); ``credit``: the share of the points per
        case class (``{"small": 0.5, "hidden": 0.5}``; without it all or nothing);
        ``asked``: what the function computes, in the feedback (``"the purity"``)."""
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"name: expected the function's name (e.g. 'purity'), got {name!r}")
        args = str(signature).strip().removeprefix(name).strip()
        args = args[1:-1] if args.startswith("(") and args.endswith(")") else args
        if not re.fullmatch(r"\s*[A-Za-z_]\w*(\s*,\s*[A-Za-z_]\w*)*\s*", args):
            raise ValueError(f"signature: expected the arguments' names (e.g. 'truth, pred'), "
                             f"got {signature!r}")
        if not callable(reference):
            raise TypeError("reference: expected your implementation (a function with the "
                            f"signature {signature!r}), got {type(reference).__name__}")
        for what, f in (("shown", shown), ("hidden", hidden)):
            if f is not None and not callable(f):
                raise TypeError(f"{what}: expected a function, got {type(f).__name__}")
        if not callable(cases):
            _cases(cases, "cases")
        if isinstance(returns, str) or not all(isinstance(r, str) for r in returns):
            raise TypeError("returns: expected the names of the numbers returned (a list)")
        credit = dict(credit or {})
        if any(k not in ("shown", "small", "hidden") or isinstance(v, bool)
               or not isinstance(v, (int, float)) or v < 0 for k, v in credit.items()):
            raise ValueError("credit: expected shares (numbers >= 0) of the case classes "
                             "'shown', 'small', 'hidden'")
        if isinstance(n_hidden, bool) or not isinstance(n_hidden, int) or n_hidden < 0:
            raise ValueError(f"n_hidden: expected a whole number >= 0, got {n_hidden!r}")
        spec = dict(reference=reference, cases=cases, shown=shown, hidden=hidden,
                    mistakes=list(mistakes), prompt=prompt, explain=explain)
        sig = f"{name}({', '.join(a.strip() for a in args.split(','))})"
        return self._declare(_Function, title, spec, data=data, points=points, hints=hints,
                             extra=dict(signature=sig, returns=tuple(returns), credit=credit,
                                        n_hidden=n_hidden, asked=asked or f"the {name}"))

    def free_text(self, title: str, *, prompt, data=None, hints=(), points: float = 1,
                  explain=None):
        """An answer in words, graded by hand (:class:`FreeTextQuestion`); ``explain``:
        the model answer or rubric ``solution()`` shows once released."""
        spec = dict(prompt=prompt, explain=explain, mistakes=[])
        return self._declare(FreeTextQuestion, title, spec, data=data, points=points,
                             hints=hints)

    # -- the student's side ----------------------------------------------
    def setup(self, student_id: str | None = None, variant: str | None = None) -> Feedback:
        """:func:`prayatul_edu.exercises.setup`: choose the variant."""
        return _base.setup(student_id=student_id, variant=variant)

    def question(self, qid) -> Question:
        """Question ``qid`` (``"51.2"``, or its number ``2``) for the session's variant."""
        qid = f"{self.topic}.{qid}" if isinstance(qid, int) else str(qid)
        if qid not in self.qids:
            raise ValueError(f"qid: no question {qid!r} in {self.name}; its questions are "
                             f"{', '.join(self.qids)}")
        return _base.question(qid)

    def progress(self) -> Feedback:
        """What is done and what is still open in this exercise."""
        return _base.progress(self.topic)

    def __repr__(self) -> str:
        return f"Exercise({self.name!r}: {len(self.qids)} questions)"


# ------------------------------------------------------------ loading
def find(path) -> tuple[Path, Path | None]:
    """(questions module, solutions notebook or None) of an exercise given by its folder,
    its ``questions.py`` or its ``solutions.ipynb``; ValueError saying what is missing."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    module = p if p.suffix == ".py" and p.is_file() else folder / QUESTIONS_FILE
    if not module.is_file():
        raise ValueError(f"exercise: no {QUESTIONS_FILE} in {folder.name or '.'} (an "
                         "instructor's exercise is a folder with questions.py and "
                         "solutions.ipynb)")
    notebook = p if p.suffix == ".ipynb" and p.is_file() else folder / SOLUTIONS_FILE
    return module.resolve(), notebook.resolve() if notebook.is_file() else None


def _forget(before: set, module: str) -> None:
    """Undo a module that failed to load: its exercise is declared anew once fixed."""
    for name in set(AUTHORED) - before:
        del AUTHORED[name]
    sys.modules.pop(module, None)


def load(path) -> Exercise:
    """The exercise declared by the questions module at ``path`` (a folder, the module or
    the notebook beside it), loaded once per process (its questions registered)."""
    module, _ = find(path)
    if module in _LOADED:
        return _LOADED[module]
    before = set(AUTHORED)
    spec = importlib.util.spec_from_file_location(
        f"prayatul_authored_{len(_LOADED)}_{module.stem}", module)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
    except SyntaxError as exc:
        _forget(before, spec.name)
        raise ValueError(f"exercise: {module.name}, line {exc.lineno}: {exc.msg} (a "
                         "syntax error)") from None
    except Exception as exc:
        _forget(before, spec.name)
        raise ValueError(f"exercise: {module.name} does not load: {type(exc).__name__}: "
                         f"{exc}") from exc
    new = [AUTHORED[n] for n in AUTHORED if n not in before]
    if len(new) != 1:
        raise ValueError(f"exercise: {module.name} declares {len(new)} exercises; it must "
                         "declare exactly one (pa.Exercise(...))")
    if not new[0].qids:
        raise ValueError(f"exercise: {new[0].name} declares no question")
    _LOADED[module] = new[0]
    return new[0]


def open_exercise(path: str = QUESTIONS_FILE) -> Exercise:
    """The exercise of the notebook: the questions module at ``path`` (relative to the
    notebook's folder). When the grader runs the notebook, its own read-only copy of the
    instructor's module (:data:`EXERCISE_ENV`) is loaded instead."""
    staged = os.environ.get(EXERCISE_ENV)
    return load(staged if staged else path)


def exercise_of(name: str) -> Exercise | None:
    """The authored exercise ``name`` loaded in this process, else None."""
    return AUTHORED.get(str(name))

