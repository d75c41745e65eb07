"""The machinery every exercise question shares.

A question is a small declarative class: which data set it uses, what kind of
answer it expects (it derives from that kind's class in :mod:`.kinds`: a
number, a few named numbers, a table, a set of statements), how the library
computes its key, which common mistakes it recognises, its hints and its
prompt. :class:`Question` does the rest:

* ``q.check(answer)`` compares with the key (floats within :data:`ATOL` /
  :data:`RTOL`), diagnoses a recognised mistake without ever printing the
  expected value, records the answer for the grader and returns a
  :class:`Feedback` (rich text in Jupyter, plain text in a terminal);
* ``q.hint()`` shows the next hint (``q.hint(2)``: hint 2), numbered and
  progressive; ``q.solution()`` the step-by-step derivation from the library;
* ``answer = ...`` (the placeholder of a blank exercise) is *not attempted*;
* on a variant, an answer that is the course's own (and distinctive: not a value such
  as 0, 1/2 or 1 that a slip reaches as easily) is recorded for the instructor, never
  said to the student (:data:`COURSE_ANSWER`).

The data come from :mod:`._data`, which knows nothing about questions; a
variant is redrawn until every question on its data set finds it fair
(:meth:`Question.acceptable`, judged on a question built with ``data=``).

Answers are recorded in the kernel (``submissions()``) and, when the grader
sets the environment variable :data:`CHANNEL_ENV`, appended as JSON lines to
that file. The grader never trusts the kernel's verdict: it re-checks each
recorded answer in its own process, against the key of the student's variant.
"""
from __future__ import annotations

import os
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

import numpy as np

from ..steps import Derivation, plain_prose
from . import _data, assignment
from ._data import rng_for
from ._language import lecture_language

__all__ = ["ATOL", "RTOL", "Feedback", "Mistake", "Outcome", "Question", "InvalidAnswer",
           "setup", "student_id", "progress", "submissions", "question", "QUESTIONS",
           "NOT_ATTEMPTED", "CORRECT", "PARTLY", "INCORRECT", "INVALID", "CHANNEL_ENV",
           "COURSE_ANSWER", "distinctive_entries", "rng_for", "close", "apart",
           "distinguishable", "is_placeholder", "table_rows",
           "topic_questions", "TOPICS", "intact"]

#: Notebook number -> its name (``solutions/NN_name.ipynb``).
TOPICS = {"01": "matching", "02": "information", "03": "pair_counting",
          "04": "silhouette_graph", "05": "hierarchy", "06": "prayatul",
          "08": "trusting_a_score", "09": "choosing_k"}

#: A float answer ``x`` is accepted for key ``k`` when ``|x - k| <= ATOL + RTOL |k|``.
#: Any value cut *or* rounded to 4 decimals is within 1e-4 of the exact one, so the
#: tutorial's printed answers (s_2 = 0.8461 for 0.846153..., s_C = 0.2670 for
#: 0.267094...) pass, and so does a student's.
ATOL = 1e-4
RTOL = 1e-4
#: Variants need every diagnosed mistake this far apart from the key (and each other).
SEPARATION = 1e-3
#: On the course's data a mistake is still diagnosed when its value is this far from the
#: key: an answer within the tolerance of it is then at least 2e-4 from the key (the
#: arithmetic-mean NMI of the lecture's table is 9.3e-4 from the geometric one).
DISTINGUISHABLE = 3e-4

NOT_ATTEMPTED = "not attempted"
CORRECT = "correct"
PARTLY = "partly correct"
INCORRECT = "incorrect"
INVALID = "invalid answer"

#: The grader sets this to a file; every ``check`` appends one JSON line there.
CHANNEL_ENV = assignment.CHANNEL_ENV

#: qid -> question class, filled by ``Question.__init_subclass__``.
QUESTIONS: dict[str, type] = {}
#: qid -> candidate variants the question refused (the order of judging, for speed only).
_REFUSED: Counter = Counter()


# ------------------------------------------------------------- rich text
class Feedback:
    """Text shown in Jupyter as Markdown and in a terminal as plain text."""

    def __init__(self, markdown: str, text: str):
        self.markdown, self.text = markdown, text

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _from_derivation(d: Derivation) -> Feedback:
    return Feedback(d.to_markdown(), d.to_text())


@dataclass
class Mistake:
    """A common mistake: the value its wrong formula gives, and what to say then.

    ``value`` has the shape of the key (for a multi-part answer, the parts the
    mistake does not affect simply equal the key's).
    """

    name: str
    value: Any
    message: str
    #: names of other mistakes that give the same value on these data (see ``diagnosable``)
    merged: tuple = ()

    @property
    def names(self) -> list[str]:
        return [self.name, *self.merged]


@dataclass
class Outcome:
    """The verdict on one answer: status, points, and the sentences explaining it."""

    qid: str
    status: str
    points: float
    max_points: float
    messages: list[str] = field(default_factory=list)
    diagnosed: list[str] = field(default_factory=list)
    #: for the instructor only (grades.json, the class report): how distinctive an answer
    #: equal to the course's is, e.g. "3 of 3 numbers distinctive"; "" otherwise
    course_answer: str = ""

    @property
    def feedback(self) -> str:
        return " ".join(self.messages)

    def render(self, title: str) -> Feedback:
        mark = {CORRECT: "✅", PARTLY: "🟡", INCORRECT: "❌", INVALID: "⚠️",
                NOT_ATTEMPTED: "⏳"}[self.status]
        head = f"{self.qid} {title}: {self.status} ({_pts(self.points)}/{_pts(self.max_points)})"
        md = [f"{mark} **{head}**", ""] + [f"* {m}" for m in self.messages]
        txt = [head] + [f"  - {m}".replace("`", "") for m in self.messages]
        return Feedback("\n".join(md).rstrip() + "\n", "\n".join(txt))


def _pts(x: float) -> str:
    return f"{x:g}"


# ------------------------------------------------------- student identity
_SESSION: dict[str, Any] = {"student_id": None, "seed": None, "questions": {},
                            "outcomes": {}, "answers": {}}


def setup(student_id: str | None = None, variant: str | None = None) -> Feedback:
    """Choose the variant of every question created from now on.

    ``student_id=None`` (the default) gives the course's own data: the
    tutorial's and the lecture's numbers. Any other value (your student id)
    gives your own variant: new data of the same shape and difficulty, the
    same every time for the same id. ``variant``: the variant your instructor
    assigned you (written in an assigned notebook; see
    :mod:`prayatul_edu.exercises.coursekey`), used instead of the id.

    Examples
    --------
    >>> import prayatul_edu.exercises as ex
    >>> ex.setup("s1234567")
    Using the variant of student s1234567: your own data, your own answers.
    >>> ex.setup()                       # back to the course's own numbers
    Using the course's own data (the tutorial's and the lecture's numbers).
    """
    if variant is not None and (not isinstance(variant, str) or variant == ""):
        raise TypeError(f"variant: expected the text your instructor gave, got {variant!r}")
    if student_id is not None and (not isinstance(student_id, (str, int))
                                   or isinstance(student_id, bool) or str(student_id) == ""):
        raise TypeError("student_id: expected a non-empty string (e.g. 's1234') or None, "
                        f"got {student_id!r}")
    _SESSION["student_id"] = None if student_id is None else str(student_id)
    # the variant: given (a course key's token), else the one a handed-out notebook names,
    # else the id itself (the public variants of self-study)
    _SESSION["seed"] = None if student_id is None and variant is None else (
        variant if variant is not None
        else os.environ.get(assignment.VARIANT_ENV) or _SESSION["student_id"])
    _emit({"event": "setup", "student_id": _SESSION["student_id"]})
    if variant is not None:
        msg = "Using the variant your instructor assigned you: your own data, your own answers."
    elif student_id is None:
        msg = "Using the course's own data (the tutorial's and the lecture's numbers)."
    else:
        msg = f"Using the variant of student `{student_id}`: your own data, your own answers."
    return Feedback(msg, msg.replace("`", ""))


def student_id() -> str | None:
    """The id given to :func:`setup` (None: the course's own data).

    Examples
    --------
    >>> import prayatul_edu.exercises as ex
    >>> _ = ex.setup("s1234567")
    >>> ex.student_id()
    's1234567'
    >>> _ = ex.setup()
    >>> ex.student_id() is None
    True
    """
    return _SESSION["student_id"]


def _emit(record: dict) -> None:
    """Append a record to the grader's channel file, if the grader set one."""
    assignment.emit(record)


def submissions() -> dict[str, dict]:
    """qid -> {"seed", "answer"}: the last answer checked for each question (JSON-ready).

    Examples
    --------
    >>> import prayatul_edu.exercises as ex
    >>> _ = ex.setup()
    >>> _ = ex.question("01.2").check([0.25, "1/3", 0.2857])
    >>> ex.submissions()["01.2"]
    {'seed': None, 'answer': [0.25, 0.3333333333333333, 0.2857]}
    """
    return {qid: dict(v) for qid, v in _SESSION["answers"].items()}


def question(qid: str, seed: Any = "session") -> "Question":
    """The question ``qid`` (e.g. ``"01.2"``) for ``seed`` (default: :func:`setup`'s id).

    Examples
    --------
    >>> import prayatul_edu.exercises as ex
    >>> _ = ex.setup()
    >>> q = ex.question("01.2")
    >>> q.check([0.25, "1/3", 0.2857])   # precision(1, 3), recall(1, 3), F(1, 3)
    01.2 precision, recall and F of cluster 1, class 3: correct (1/1)
      - Correct.
    """
    if qid not in QUESTIONS:
        raise ValueError(f"qid: no question {qid!r}; known: {', '.join(sorted(QUESTIONS))}")
    return QUESTIONS[qid](seed=seed)


def topic_questions(topic) -> list[str]:
    """The question ids of notebook ``topic`` (e.g. ``"01"``) in order: 01.2 before 01.10.

    Examples
    --------
    >>> from prayatul_edu.exercises import topic_questions
    >>> topic_questions("01")[-3:]
    ['01.9', '01.10', '01.11']
    """
    return sorted((q for q in QUESTIONS if q.split(".")[0] == str(topic)),
                  key=lambda q: int(q.split(".")[1]))


def progress(topic: str | None = None) -> Feedback:
    """What is done and what is still open.

    With ``topic`` (e.g. ``"01"``) every question of that notebook is listed,
    also those not created yet; otherwise the questions created in this session.

    Examples
    --------
    >>> import prayatul_edu.exercises as ex
    >>> ex.progress("01")                # doctest: +ELLIPSIS
    Progress: ... of 11 questions correct (.../12 points)
    ...
    """
    if topic is None:
        qids = list(_SESSION["questions"])
    else:
        qids = topic_questions(topic)
        if not qids:
            raise ValueError(f"topic: no questions in {topic!r}")
    rows, open_ = [], []
    done = got = total = 0.0
    for qid in qids:
        cls = QUESTIONS[qid]
        out = _SESSION["outcomes"].get(qid)
        status = out.status if out else NOT_ATTEMPTED
        pts = out.points if out else 0.0
        rows.append([qid, cls.title, status, f"{_pts(pts)}/{_pts(cls.points)}"])
        got += pts
        total += cls.points
        if status != CORRECT:
            open_.append(qid)
        else:
            done += 1
    d = Derivation(f"Progress: {int(done)} of {len(qids)} questions correct "
                   f"({_pts(round(got, 2))}/{_pts(total)} points)")
    d.table(["question", "title", "status", "points"], rows, max_rows=100)
    if open_:
        d.text(f"Still open: {', '.join(open_)}.")
    else:
        d.text("Everything is done.")
    return _from_derivation(d)


# ------------------------------------------------------- answer handling
class InvalidAnswer(Exception):
    """The answer cannot be read as the expected kind (the message says why)."""


def is_placeholder(answer) -> bool:
    """``...`` (or None, or a list of them): the blank of an exercise, not attempted."""
    if answer is ... or answer is None:
        return True
    return isinstance(answer, (list, tuple)) and bool(answer) and all(
        a is ... or a is None for a in answer)


def close(a: float, k: float) -> bool:
    """Whether the answer ``a`` is accepted for the key ``k`` (:data:`ATOL`, :data:`RTOL`)."""
    return abs(a - k) <= ATOL + RTOL * abs(k) + 1e-12


def numeric(value) -> np.ndarray:
    """A key or mistake as an array of floats; an option letter in it (a choice that is one
    part of a numbers answer, such as 03.4's) counts as its position, A = 0."""
    if isinstance(value, (list, tuple)) and any(isinstance(v, str) for v in value):
        value = [float(ord(v) - ord("A")) if isinstance(v, str) else v for v in value]
    return np.asarray(value, dtype=float)


def apart(a, b) -> bool:
    """True when some entry of ``a`` and ``b`` differs by more than SEPARATION."""
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        return a != b
    a, b = numeric(a), numeric(b)
    return a.shape != b.shape or bool(np.any(np.abs(a - b) > SEPARATION))


_apart = apart          # the name the tests of earlier versions use


def _one_answer(a, b) -> bool:
    """Whether ``a`` and ``b`` are the same answer: equal sets, or every entry within the
    tolerance of the other's."""
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        return a == b
    a, b = np.ravel(numeric(a)), np.ravel(numeric(b))
    return a.shape == b.shape and all(close(x, y) and close(y, x) for x, y in zip(a, b))


def distinguishable(a, b) -> bool:
    """True when some entry of ``a`` and ``b`` differs by more than DISTINGUISHABLE."""
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        return a != b
    a, b = numeric(a), numeric(b)
    return a.shape != b.shape or bool(np.any(np.abs(a - b) > DISTINGUISHABLE))


# --------------------------------------------------------------- question
def intact(q) -> None:
    """Before the library's checking runs on ``q`` for a student (``check``, ``prompt``,
    ``solution``, ``choices``): a question a cell changed - a method set on the object
    or its class, a subclass or mixin of the cell's own, ``q.__class__``, its seed or its
    data replaced (see :func:`.assignment.changed`) - would hand the key to the cell's
    code, so its checking is a sealed route: recorded, and refused before release."""
    if not assignment.from_student():
        return
    what = assignment.changed(q)
    own = q.__dict__
    if what is None and not _data.made_here(type(q).dataset, own.get("seed"),
                                            own.get("data")):
        what = "its data"
    if what is not None:
        assignment.refuse_changed(q, what)


#: question -> what :meth:`Question._once` computed of it (kept out of the question: in
#: assignment mode nothing reachable from a question holds its key; see assignment.py)
#: Keyed by a weak reference to the question whose callback (:func:`_forget`) holds
#: nothing of the memo: a WeakKeyDictionary's reference carries one to the dictionary, and
#: ``weakref.getweakrefs(q)`` would lead from the question to its memo.
_MEMO: dict = {}


def _forget(ref) -> None:
    """The question behind ``ref`` is gone: so is its memo."""
    _MEMO.pop(ref, None)


class Question:
    """Base of every question. A question derives from the class of its answer's
    kind (:mod:`.kinds`: a number, a whole number, named numbers, a table, a choice
    of statements), which reads, compares and diagnoses answers; the question sets
    the class attributes and implements :meth:`compute_key`, :meth:`mistakes`,
    :meth:`describe` and :meth:`explain`.

    Attributes
    ----------
    qid : str
        ``"NN.k"``: notebook NN, question k (a class attribute, as are the others)
    title : str
        a few words
    dataset : str
        the name of the data in :mod:`._data` (shared by questions)
    kind : str
        the answer's kind (set by the kind's class)
    points : float
        the question's weight
    hints : tuple
        progressive hints
    """

    qid: ClassVar[str] = ""
    title: ClassVar[str] = ""
    dataset: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    points: ClassVar[float] = 1.0
    hints: ClassVar[tuple] = ()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.qid:
            if cls.qid in QUESTIONS:
                raise ValueError(f"qid: {cls.qid!r} is defined twice")
            QUESTIONS[cls.qid] = cls
        assignment.seal_class(cls)      # every method but the student's few: sealed

    def __init__(self, seed: Any = "session", *, data: dict | None = None):
        """The question for ``seed`` (``"session"``: :func:`setup`'s id; None: the
        course's data). With ``data`` the question is built on those data instead
        (a candidate variant being judged), and is not part of the session."""
        self.seed = _SESSION["seed"] if seed == "session" else (
            None if seed is None else str(seed))
        self._hint_count = 0
        if data is not None:
            self.data = data
            return
        self.data = _data.get(self.dataset, self.seed, fair=self._fair_for_all)
        _SESSION["questions"][self.qid] = self

    def _fair_for_all(self, data: dict) -> bool:
        """Whether every question on this data set finds ``data`` a fair variant (the
        question that refused most candidates so far is asked first: the same verdict,
        sooner)."""
        judges = sorted((cls for cls in QUESTIONS.values() if cls.dataset == self.dataset),
                        key=lambda cls: -_REFUSED[cls.qid])
        for cls in judges:
            if not cls(self.seed, data=data).acceptable():
                _REFUSED[cls.qid] += 1
                return False
        return True

    def __getattr__(self, name):
        data = self.__dict__.get("data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__!r} has no attribute {name!r}")

    def _once(self, method: str):
        """``self.<method>()``, computed on the first call only. The checking asks for
        the keys and the mistakes again for every answer and every mistake it judges;
        a question's data are read-only, so the values never change. Only the
        library's own checking uses them (it never changes them): a student's call of
        :meth:`key` or :meth:`mistakes` gets values of its own. The values are kept
        beside the question (:data:`_MEMO`), never in one of its attributes."""
        memo = _MEMO.get(weakref.ref(self))     # equal to the key: the same question
        if memo is None:
            memo = _MEMO[weakref.ref(self, _forget)] = {}
        if method not in memo:
            memo[method] = getattr(self, method)()
        return memo[method]

    # -- to implement ------------------------------------------------------
    def compute_key(self):
        """The expected answer, computed by the library from ``self.data`` (what the
        checking uses internally; students and the grader call :meth:`key`)."""
        raise NotImplementedError

    def keys(self) -> list:
        """Every answer accepted: the key, and others where the data leave a free choice
        (a tie the question's formula breaks either way); the first is :meth:`compute_key`."""
        return [self.compute_key()]

    def mistakes(self) -> list[Mistake]:
        """The common mistakes this question recognises (values by the wrong formula)."""
        return []

    def describe(self, d: Derivation) -> None:
        """Add the prompt (the task and its data) to ``d``."""
        raise NotImplementedError

    def explain(self, d: Derivation) -> None:
        """Add the step-by-step solution to ``d`` (derivations from the library)."""
        raise NotImplementedError

    def headline(self, d: Derivation) -> None:
        """Add the asked quantity and its value, first in the solution (set by the kind)."""

    # -- the kind of answer (implemented in .kinds) ----------------------
    def answer_format(self) -> str:
        """What an answer looks like, in one sentence."""
        raise NotImplementedError

    def read(self, answer):
        """The answer as the key's type, or :class:`InvalidAnswer` saying what is wrong."""
        raise NotImplementedError

    def matches(self, value, key) -> bool:
        """Whether the read answer ``value`` is accepted for ``key``."""
        raise NotImplementedError

    def compare(self, value) -> Outcome:
        """The verdict on a read, wrong answer: points, what is off, the diagnosis."""
        raise NotImplementedError

    def to_json(self, answer):
        """The answer as JSON data (what the grader receives)."""
        try:
            value = self.read(answer)
        except InvalidAnswer:
            return {"unreadable": repr(answer)[:200]}
        if isinstance(value, np.ndarray):
            return value.tolist()
        return value

    # -- the student's side --------------------------------------------
    def ours(self, course: str, variant: str) -> str:
        """``course`` on the course's data, ``variant`` on a student's variant (a variant
        has other numbers: "your table", not "the lecture's table")."""
        return course if self.seed is None else variant

    def _heading(self) -> str:
        variant = "the course's data" if self.seed is None else f"variant {self.seed}"
        title = self.ours(self.title, self.title.replace("the lecture's table", "your table"))
        return f"Question {self.qid}: {title} ({variant})"

    def prompt(self) -> Feedback:
        intact(self)
        d = Derivation(self._heading())
        self.describe(d)
        d.text(f"*{self.answer_format()}* Then run `check(...)`; `hint()` and "
               "`solution()` help.")
        return _from_derivation(d)

    def _repr_markdown_(self) -> str:
        return self.prompt().markdown

    def __repr__(self) -> str:
        return self.prompt().text

    def hint(self, n: int | None = None) -> Feedback:
        """Hint ``n`` (1, 2, ...); without ``n`` the next one, one more each call."""
        if (refused := assignment.gate("hint", self, n)) is not None:
            return Feedback(f"🔒 {refused}", refused.replace("`", ""))
        total = len(self.hints)
        if n is None:
            self._hint_count = min(self._hint_count + 1, total)
            n = self._hint_count
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= total:
            raise ValueError(f"n: expected a hint number from 1 to {total}, got {n!r}")
        text = self.hints[n - 1]
        more = (f" (hint {n} of {total}; `hint()` again for the next)" if n < total
                else f" (hint {n} of {total}: the last one; `solution()` shows everything)")
        return Feedback(f"💡 **Hint {n}.** {text}{more}", plain_prose(f"Hint {n}. {text}{more}"))

    def key(self):
        """The expected answer for this variant (the value ``check`` accepts)."""
        return self.compute_key()

    def solution(self) -> Feedback:
        """The derivation, step by step, computed by the library for this variant."""
        intact(self)
        if (refused := assignment.gate("solution", self)) is not None:
            return Feedback(f"🔒 {refused}", refused.replace("`", ""))
        d = Derivation(f"Solution of {self._heading()}")
        self.headline(d)
        self.explain(d)
        return _from_derivation(lecture_language(d))

    def check(self, answer) -> Feedback:
        """Check ``answer``; record it for the grader; say what is right or wrong."""
        intact(self)
        outcome = self.grade(answer)
        if outcome.status != NOT_ATTEMPTED:
            record = {"qid": self.qid, "seed": self.seed, "answer": self.to_json(answer)}
            _SESSION["answers"][self.qid] = {"seed": self.seed, "answer": record["answer"]}
            _emit(record)
            assignment.note_check(self)
        _SESSION["outcomes"][self.qid] = outcome
        return outcome.render(self.title)

    # -- checking (also what the grader runs, in its own process) ---------
    def grade(self, answer) -> Outcome:
        """The verdict on ``answer`` (JSON data or Python values alike)."""
        if is_placeholder(answer):
            return Outcome(self.qid, NOT_ATTEMPTED, 0.0, self.points,
                           ["Not attempted yet: replace `...` with your answer and run "
                            "the cell again."])
        try:
            value = self.read(answer)
        except InvalidAnswer as exc:
            return Outcome(self.qid, INVALID, 0.0, self.points, [str(exc) + "."])
        if any(self.matches(value, key) for key in self._once("keys")):
            return Outcome(self.qid, CORRECT, self.points, self.points, ["Correct."])
        outcome = self.compare(value)
        course = self._the_courses_answer(value) if self.seed is not None else None
        if course is not None:
            rare, total = distinctive_entries(course)
            if rare:                    # 1.0 or 1/2 is reached by honest slips: not recorded
                outcome.diagnosed.append(COURSE_ANSWER)
                outcome.course_answer = (f"{rare} of {total} "
                                         f"{'number' if total == 1 else 'numbers'} distinctive")
        return outcome

    def _the_courses_answer(self, value):
        """The course's key that ``value`` matches (None: none)."""
        return next((key for key in self._once("_course_keys") if self.matches(value, key)),
                    None)

    def _course_keys(self) -> list:
        return type(self)(None, data=_data.get(self.dataset, None)).keys()

    # -- diagnosis and fair variants ---------------------------------------
    def diagnosable(self) -> list[Mistake]:
        """The mistakes that can be told apart on these data: those whose value differs
        from the key, with mistakes of the same value (one answer fits both: every entry
        within the tolerance) merged into one, so that the feedback names each. On the
        course's data two slips can give the same number; a variant lets that happen only
        for a question whose :attr:`ties_named` is set."""
        keys, out = self._once("keys"), []
        for m in self._once("mistakes"):
            if not all(distinguishable(m.value, key) for key in keys):
                continue
            same = next((k for k, o in enumerate(out) if _one_answer(o.value, m.value)),
                        None)
            if same is None:
                out.append(m)
            else:
                o = out[same]
                said = o.message if m.message in o.message else f"{o.message} Or: {m.message}"
                out[same] = Mistake(o.name, o.value, said, (*o.merged, m.name))
        return out

    #: Whether slips that give one value on a variant are named together (their messages
    #: merged, see :meth:`diagnosable`) rather than the variant redrawn.
    ties_named: ClassVar[bool] = False

    def acceptable(self) -> bool:
        """Whether the data make a fair variant: a finite key, every mistake told apart
        from the key (and from every other mistake, unless :attr:`ties_named`)."""
        keys = self._once("keys")
        if not isinstance(keys[0], frozenset) and not all(np.all(np.isfinite(
                numeric(key))) for key in keys):
            return False
        values = [m.value for m in self._once("mistakes")]
        return ((self.ties_named or all(apart(a, b) for i, a in enumerate(values)
                                        for b in values[i + 1:]))
                and all(apart(key, m) for key in keys for m in values))


#: What the instructor's records (grades.json, the class report) name an answer on a
#: variant that equals the course's answer and is distinctive. The student is not told:
#: an honest slip can give the same number (1.0 for an entropy on most variants).
COURSE_ANSWER = "the course's answer (distinctive)"

#: An entry p/q with a denominator up to this (0, 1/2, 1/3, 3/4, 1, a whole number) is
#: common: many slips and many variants give it.
COMMON_DENOMINATOR = 6


def distinctive_entries(value) -> tuple[int, int]:
    """``(distinctive, total)``: how many numbers of ``value`` are no fraction with a
    denominator up to :data:`COMMON_DENOMINATOR` (letters and whole numbers are common).

    >>> distinctive_entries([0.5, 0.7, 1 / 3])
    (1, 3)
    """
    if isinstance(value, frozenset):
        return 0, len(value)
    x = np.ravel(numeric(value))
    common = np.zeros(x.shape, dtype=bool)
    for q in range(1, COMMON_DENOMINATOR + 1):
        common |= np.abs(x * q - np.round(x * q)) <= 1e-9 * q * np.maximum(1, np.abs(x))
    return int((~common).sum()), int(x.size)


def table_rows(matrix, row_names: Sequence, col_names: Sequence) -> tuple[list, list]:
    """Header and rows for ``Derivation.table`` from a matrix and its labels."""
    m = np.asarray(matrix)
    return ([""] + [str(c) for c in col_names],
            [[str(r)] + list(m[i]) for i, r in enumerate(row_names)])


# Every method of a question but the student's few (assignment.OPEN_TO_STUDENTS) is
# sealed: a student's call is reported, and refused before release in assignment mode.
assignment.configure(Question)
assignment.seal_class(Question)
