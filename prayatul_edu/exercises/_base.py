"""The machinery every exercise question shares.

A question is a small declarative class: which data set it uses, what kind of
answer it expects (a number, a few named numbers, a matrix, a set of
statements), how the library computes its key, which common mistakes it
recognises, its hints and its prompt. :class:`Question` does the rest:

* ``q.check(answer)`` compares with the key (floats within :data:`ATOL` /
  :data:`RTOL`), diagnoses a recognised mistake without ever printing the
  expected value, records the answer for the grader and returns a
  :class:`Feedback` (rich text in Jupyter, plain text in a terminal);
* ``q.hint()`` shows the next hint (``q.hint(2)``: hint 2), numbered and
  progressive; ``q.solution()`` the step-by-step derivation from the library;
* ``answer = ...`` (the placeholder of a blank exercise) is *not attempted*.

Answers are recorded in the kernel (``submissions()``) and, when the grader
sets the environment variable :data:`CHANNEL_ENV`, appended as JSON lines to
that file. The grader never trusts the kernel's verdict: it re-checks each
recorded answer in its own process, against the key of the student's variant.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Sequence

import numpy as np

from ..steps import Derivation
from . import assignment

__all__ = ["ATOL", "RTOL", "Feedback", "Mistake", "Outcome", "Question", "ChoiceQuestion",
           "setup", "student_id", "progress", "submissions", "question", "QUESTIONS",
           "NOT_ATTEMPTED", "CORRECT", "PARTLY", "INCORRECT", "INVALID", "CHANNEL_ENV"]

#: A float answer ``x`` is accepted for key ``k`` when ``|x - k| <= ATOL + RTOL |k|``.
#: Any value cut *or* rounded to 4 decimals is within 1e-4 of the exact one, so the
#: tutorial's printed answers (s_2 = 0.8461 for 0.846153..., s_C = 0.2670 for
#: 0.267094...) pass, and so does a student's.
ATOL = 1e-4
RTOL = 1e-4
#: Diagnosed mistakes and variants need values this far apart from the key.
SEPARATION = 1e-3

NOT_ATTEMPTED = "not attempted"
CORRECT = "correct"
PARTLY = "partly correct"
INCORRECT = "incorrect"
INVALID = "invalid answer"

#: The grader sets this to a file; every ``check`` appends one JSON line there.
CHANNEL_ENV = assignment.CHANNEL_ENV

#: qid -> question class, filled by ``Question.__init_subclass__``.
QUESTIONS: dict[str, type] = {}


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


@dataclass
class Outcome:
    """The verdict on one answer: status, points, and the sentences explaining it."""

    qid: str
    status: str
    points: float
    max_points: float
    messages: list[str] = field(default_factory=list)
    diagnosed: list[str] = field(default_factory=list)

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
_SESSION: dict[str, Any] = {"student_id": None, "questions": {}, "outcomes": {},
                            "answers": {}}


def setup(student_id: str | None = None) -> Feedback:
    """Choose the variant of every question created from now on.

    ``student_id=None`` (the default) gives the course's own data: the
    tutorial's and the lecture's numbers. Any other value (your student id)
    gives your own variant: new data of the same shape and difficulty, the
    same every time for the same id.
    """
    if student_id is not None and (not isinstance(student_id, (str, int))
                                   or isinstance(student_id, bool) or str(student_id) == ""):
        raise TypeError("student_id: expected a non-empty string (e.g. 's1234') or None, "
                        f"got {student_id!r}")
    _SESSION["student_id"] = None if student_id is None else str(student_id)
    _emit({"event": "setup", "student_id": _SESSION["student_id"]})
    if student_id is None:
        msg = "Using the course's own data (the tutorial's and the lecture's numbers)."
    else:
        msg = f"Using the variant of student `{student_id}`: your own data, your own answers."
    return Feedback(msg, msg.replace("`", ""))


def student_id() -> str | None:
    """The id given to :func:`setup` (None: the course's own data)."""
    return _SESSION["student_id"]


def _emit(record: dict) -> None:
    """Append a record to the grader's channel file, if the grader set one."""
    assignment.emit(record)


def submissions() -> dict[str, dict]:
    """qid -> {"seed", "answer"}: the last answer checked for each question (JSON-ready)."""
    return {qid: dict(v) for qid, v in _SESSION["answers"].items()}


def question(qid: str, seed: Any = "session") -> "Question":
    """The question ``qid`` (e.g. ``"01.2"``) for ``seed`` (default: :func:`setup`'s id)."""
    if qid not in QUESTIONS:
        raise ValueError(f"qid: no question {qid!r}; known: {', '.join(sorted(QUESTIONS))}")
    return QUESTIONS[qid](seed=seed)


def progress(topic: str | None = None) -> Feedback:
    """What is done and what is still open.

    With ``topic`` (e.g. ``"01"``) every question of that notebook is listed,
    also those not created yet; otherwise the questions created in this session.
    """
    if topic is None:
        qids = list(_SESSION["questions"])
    else:
        qids = sorted(q for q in QUESTIONS if q.split(".")[0] == str(topic))
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


# ---------------------------------------------------------------- seeds
def rng_for(seed: Any, salt: str) -> np.random.Generator:
    """A generator fixed by ``(seed, salt)``: the same student always gets the same data."""
    digest = hashlib.sha256(f"prayatul-edu|{seed}|{salt}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


# ------------------------------------------------------- answer handling
class _Invalid(Exception):
    """The answer cannot be read as the expected kind (the message says why)."""


def _is_placeholder(answer) -> bool:
    return answer is ... or answer is None


def _number(x, what: str) -> float:
    if isinstance(x, (bool, np.bool_)):
        raise _Invalid(f"{what}: expected a number, got {x!r}")
    if isinstance(x, str):
        try:
            return float(Fraction(x.strip().replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            raise _Invalid(f"{what}: could not read {x!r} as a number (write 0.25 or '1/4')")
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise _Invalid(f"{what}: expected a number, got {type(x).__name__}")
    if not math.isfinite(v):
        raise _Invalid(f"{what}: expected a finite number, got {v}")
    return v


def _close(a: float, k: float) -> bool:
    return abs(a - k) <= ATOL + RTOL * abs(k) + 1e-12


def _apart(a, b) -> bool:
    """True when some entry of ``a`` and ``b`` differs by more than SEPARATION."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape != b.shape or bool(np.any(np.abs(a - b) > SEPARATION))


# --------------------------------------------------------------- question
class Question:
    """Base of every question. Subclasses set the class attributes and implement
    :meth:`key`, :meth:`mistakes`, :meth:`describe` and :meth:`explain`.

    Class attributes
    ----------------
    qid : str            ``"NN.k"``: notebook NN, question k
    title : str          a few words
    dataset : str        the name of the data in :mod:`._data` (shared by questions)
    kind : str           ``"number"``, ``"vector"`` (``parts`` names the entries),
                         ``"matrix"``, ``"integer"``, ``"choice"``
    parts : tuple        names of a vector's entries (partial credit per entry)
    points : float       the question's weight
    hints : tuple        progressive hints
    """

    qid: ClassVar[str] = ""
    title: ClassVar[str] = ""
    dataset: ClassVar[str] = ""
    kind: ClassVar[str] = "number"
    parts: ClassVar[tuple] = ()
    points: ClassVar[float] = 1.0
    hints: ClassVar[tuple] = ()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.qid:
            if cls.qid in QUESTIONS:
                raise ValueError(f"qid: {cls.qid!r} is defined twice")
            QUESTIONS[cls.qid] = cls
        assignment.guard_key(cls)

    def __init__(self, seed: Any = "session"):
        from . import _data

        self.seed = _SESSION["student_id"] if seed == "session" else (
            None if seed is None else str(seed))
        self.data = _data.get(self.dataset, self.seed)
        self._hint_count = 0
        _SESSION["questions"][self.qid] = self

    def __getattr__(self, name):
        data = self.__dict__.get("data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__!r} has no attribute {name!r}")

    # -- to implement ------------------------------------------------------
    def key(self):
        """The expected answer, computed by the library from ``self.data``."""
        raise NotImplementedError

    def mistakes(self) -> list[Mistake]:
        """The common mistakes this question recognises (values by the wrong formula)."""
        return []

    def describe(self, d: Derivation) -> None:
        """Add the prompt (the task and its data) to ``d``."""
        raise NotImplementedError

    def explain(self, d: Derivation) -> None:
        """Add the step-by-step solution to ``d`` (derivations from the library)."""
        raise NotImplementedError

    # -- the student's side --------------------------------------------
    def _heading(self) -> str:
        variant = "the course's data" if self.seed is None else f"variant {self.seed}"
        return f"Question {self.qid}: {self.title} ({variant})"

    def prompt(self) -> Feedback:
        d = Derivation(self._heading())
        self.describe(d)
        d.text(f"*{self.answer_format()}* Then run `check(...)`; `hint()` and "
               "`solution()` help.")
        return _from_derivation(d)

    def _repr_markdown_(self) -> str:
        return self.prompt().markdown

    def __repr__(self) -> str:
        return self.prompt().text

    def answer_format(self) -> str:
        if self.kind == "number":
            return "Answer: a number (e.g. 0.25 or '1/4')."
        if self.kind == "integer":
            return "Answer: a whole number."
        if self.kind == "vector":
            return (f"Answer: {len(self.parts)} numbers in this order: "
                    f"{', '.join(self.parts)} (a list, or a dict with these names).")
        if self.kind == "matrix":
            r, c = np.shape(self.key())
            return f"Answer: a {r} x {c} table (a list of rows or an array)."
        return "Answer: see above."

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
        return Feedback(f"💡 **Hint {n}.** {text}{more}",
                        f"Hint {n}. {text}{more}".replace("`", ""))

    def solution(self) -> Feedback:
        """The derivation, step by step, computed by the library for this variant."""
        if (refused := assignment.gate("solution", self)) is not None:
            return Feedback(f"🔒 {refused}", refused.replace("`", ""))
        d = Derivation(f"Solution of {self._heading()}")
        self.explain(d)
        return _from_derivation(d)

    def check(self, answer) -> Feedback:
        """Check ``answer``; record it for the grader; say what is right or wrong."""
        outcome = self.grade(answer)
        if outcome.status != NOT_ATTEMPTED:
            record = {"qid": self.qid, "seed": self.seed, "answer": self.to_json(answer)}
            _SESSION["answers"][self.qid] = {"seed": self.seed, "answer": record["answer"]}
            _emit(record)
            assignment.note_check(self)
        _SESSION["outcomes"][self.qid] = outcome
        return outcome.render(self.title)

    # -- checking (also what the grader runs, in its own process) ---------
    def to_json(self, answer):
        """The answer as JSON data (what the grader receives)."""
        try:
            value = self.read(answer)
        except _Invalid:
            text = repr(answer)
            return {"unreadable": text[:200]}
        if isinstance(value, np.ndarray):
            return value.tolist()
        if isinstance(value, frozenset):
            return sorted(value)
        return value

    def read(self, answer):
        """The answer as the key's type, or :class:`_Invalid` saying what is wrong."""
        if isinstance(answer, dict) and set(answer) == {"unreadable"}:
            raise _Invalid(f"the answer could not be read: {answer['unreadable']}")
        if self.kind == "number":
            return _number(answer, "answer")
        if self.kind == "integer":
            v = _number(answer, "answer")
            if v != int(v):
                raise _Invalid(f"answer: expected a whole number, got {v}")
            return int(v)
        if self.kind == "vector":
            if isinstance(answer, dict):
                missing = [p for p in self.parts if p not in answer]
                if missing:
                    raise _Invalid(f"answer: missing {', '.join(missing)}")
                answer = [answer[p] for p in self.parts]
            if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__"):
                raise _Invalid(f"answer: expected {len(self.parts)} numbers "
                               f"({', '.join(self.parts)}), got {type(answer).__name__}")
            answer = list(answer)
            if len(answer) != len(self.parts):
                raise _Invalid(f"answer: expected {len(self.parts)} numbers "
                               f"({', '.join(self.parts)}), got {len(answer)}")
            return np.array([_number(a, p) for a, p in zip(answer, self.parts)])
        if self.kind == "matrix":
            shape = np.shape(self.key())
            try:
                arr = np.array(answer, dtype=float)
            except (TypeError, ValueError):
                raise _Invalid(f"answer: expected a {shape[0]} x {shape[1]} table of numbers")
            if arr.shape != shape:
                raise _Invalid(f"answer: expected a {shape[0]} x {shape[1]} table "
                               f"(no totals row or column), got shape {arr.shape}")
            if not np.all(np.isfinite(arr)):
                raise _Invalid("answer: every entry must be a finite number")
            return arr
        raise NotImplementedError(self.kind)

    def grade(self, answer) -> Outcome:
        """The verdict on ``answer`` (JSON data or Python values alike)."""
        if _is_placeholder(answer) or (isinstance(answer, (list, tuple)) and answer
                                       and all(_is_placeholder(a) for a in answer)):
            return Outcome(self.qid, NOT_ATTEMPTED, 0.0, self.points,
                           ["Not attempted yet: replace `...` with your answer and run "
                            "the cell again."])
        try:
            value = self.read(answer)
        except _Invalid as exc:
            return Outcome(self.qid, INVALID, 0.0, self.points, [str(exc) + "."])
        return self._compare(value)

    def _compare(self, value) -> Outcome:
        key = self.key()
        if self.kind in ("number", "integer"):
            ok = np.array([_close(value, key) if self.kind == "number" else value == key])
            got, want = np.array([value], float), np.array([key], float)
        else:
            got, want = np.ravel(value).astype(float), np.ravel(key).astype(float)
            ok = np.array([_close(a, k) for a, k in zip(got, want)])
        if ok.all():
            return Outcome(self.qid, CORRECT, self.points, self.points, ["Correct."])
        wrong = ~ok
        diagnosed, messages = [], []
        for m in self.mistakes():
            mv = np.ravel(np.asarray(m.value, dtype=float))
            if mv.shape != want.shape or not np.all(np.isfinite(mv[wrong])):
                continue
            if all(_close(g, x) and abs(x - k) > ATOL + RTOL * abs(k)
                   for g, x, k in zip(got[wrong], mv[wrong], want[wrong])):
                diagnosed.append(m.name)
                messages.append(m.message)
        if self.kind == "vector":
            names = [p for p, w in zip(self.parts, wrong) if w]
            lead = (f"Not yet: {', '.join(names)} {'is' if len(names) == 1 else 'are'} off"
                    f" ({int(ok.sum())} of {len(ok)} right).")
            points = round(self.points * ok.sum() / len(ok), 2)
        elif self.kind == "matrix":
            lead = f"Not yet: {int(wrong.sum())} of {wrong.size} entries are off."
            points = 0.0
        else:
            lead = "Not yet."
            points = 0.0
        if not diagnosed:
            messages.append("This is not one of the usual slips; `hint()` may help.")
        status = PARTLY if points > 0 else INCORRECT
        return Outcome(self.qid, status, points, self.points, [lead] + messages, diagnosed)

    # -- variants ---------------------------------------------------------
    def acceptable(self) -> bool:
        """Whether the data make a fair variant: every mistake is told apart from the key."""
        key = self.key()
        if not np.all(np.isfinite(np.asarray(key, dtype=float))):
            return False
        return all(_apart(m.value, key) for m in self.mistakes())


class ChoiceQuestion(Question):
    """Pick the true statements. ``statements()`` returns ``(text, is_true, why)``
    triples; the options are lettered A, B, ... in an order shuffled per seed.
    The answer is a string of letters (``"ACD"``) or a list of them; with
    ``single = True`` exactly one letter.

    When a statement is misjudged the feedback gives that statement's ``why``
    (what to reread), never the full answer.
    """

    kind = "choice"
    single: ClassVar[bool] = False

    def statements(self) -> list[tuple[str, bool, str]]:
        raise NotImplementedError

    def options(self) -> list[tuple[str, str, bool, str]]:
        """``(letter, text, is_true, why)`` in the order shown to this student."""
        st = self.statements()
        # shuffled for the course's data too, so the true ones are not simply listed first
        order = rng_for(self.seed, self.qid + "|order").permutation(len(st))
        return [(chr(65 + k), *st[i]) for k, i in enumerate(order)]

    def key(self) -> frozenset:
        return frozenset(letter for letter, _, true, _ in self.options() if true)

    def mistakes(self) -> list[Mistake]:
        """One per statement: that statement misjudged (for ``single``: that letter picked)."""
        key = self.key()
        if self.single:
            return [Mistake(f"misjudged {letter}", frozenset(letter), why)
                    for letter, _, true, why in self.options() if not true]
        return [Mistake(f"misjudged {letter}", key ^ {letter}, why)
                for letter, _, _, why in self.options()]

    def answer_format(self) -> str:
        if self.single:
            return "Answer: one letter, e.g. 'B'."
        return ("Answer: the letters of all the true statements, e.g. 'AC' "
                "(or ['A', 'C']).")

    def describe_options(self, d: Derivation) -> None:
        d.table(["", "statement"], [[letter, text] for letter, text, _, _ in self.options()],
                max_rows=50)

    def read(self, answer):
        if isinstance(answer, dict) and set(answer) == {"unreadable"}:
            raise _Invalid(f"the answer could not be read: {answer['unreadable']}")
        if isinstance(answer, str):
            letters = [c for c in answer.upper() if not c.isspace() and c not in ",;"]
        elif isinstance(answer, (list, tuple, set, frozenset)):
            letters = []
            for a in answer:
                if not isinstance(a, str):
                    raise _Invalid(f"answer: expected letters, got {a!r}")
                letters += [c for c in a.upper() if not c.isspace()]
        else:
            raise _Invalid(f"answer: expected letters such as 'AC', got {type(answer).__name__}")
        valid = {letter for letter, *_ in self.options()}
        bad = sorted(set(letters) - valid)
        if bad:
            raise _Invalid(f"answer: {', '.join(bad)} is not an option "
                           f"(options: {', '.join(sorted(valid))})")
        if self.single and len(set(letters)) != 1:
            raise _Invalid("answer: give exactly one letter")
        if not letters:
            raise _Invalid("answer: no letter given")
        return frozenset(letters)

    def _compare(self, value) -> Outcome:
        key = self.key()
        if value == key:
            return Outcome(self.qid, CORRECT, self.points, self.points, ["Correct."])
        opts = {letter: why for letter, _, _, why in self.options()}
        if self.single:
            diagnosed = [f"misjudged {letter}" for letter in sorted(value)]
            return Outcome(self.qid, INCORRECT, 0.0, self.points,
                           ["Not yet."] + [opts[letter] for letter in sorted(value)],
                           diagnosed)
        wrong = sorted(value ^ key)
        right = len(opts) - len(wrong)
        points = round(self.points * max(0, right - len(wrong)) / len(opts), 2)
        lead = (f"Not yet: {len(wrong)} of {len(opts)} statements misjudged "
                f"({', '.join(wrong)}).")
        return Outcome(self.qid, PARTLY if points > 0 else INCORRECT, points, self.points,
                       [lead] + [f"{letter}: {opts[letter]}" for letter in wrong],
                       [f"misjudged {letter}" for letter in wrong])

    def acceptable(self) -> bool:
        return True

    def explain(self, d: Derivation) -> None:
        self.explain_choice(d)
        d.table(["", "statement", "true?", "why"],
                [[letter, text, "yes" if true else "no", why]
                 for letter, text, true, why in self.options()], max_rows=50)
        d.text(f"Answer: {''.join(sorted(self.key()))}.")

    def explain_choice(self, d: Derivation) -> None:
        """Numbers behind the statements (optional)."""


def table_rows(matrix, row_names: Sequence, col_names: Sequence) -> tuple[list, list]:
    """Header and rows for ``Derivation.table`` from a matrix and its labels."""
    m = np.asarray(matrix)
    return ([""] + [str(c) for c in col_names],
            [[str(r)] + list(m[i]) for i, r in enumerate(row_names)])
