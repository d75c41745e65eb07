"""The kinds of answer a question expects, one class each.

A question derives from the class of its answer's kind, which owns reading the
answer (what a student may type, and what to say when it cannot be read),
comparing it with the key (floats within ``ATOL + RTOL |key|``) and the
diagnosis (a recognised mistake; the right numbers in the wrong order; "give 4
decimals" only for an answer typed with fewer and within 1e-3 of the key; a fraction
typed as a percentage; the key rounded to 1 or 2 decimals told it may be rounding
or a slip; or a pointer to the ideas to revisit), never printing the expected value. A question whose data leave a free
choice (01.7's tied majority classes) accepts every answer in ``keys()``:

========================  =============================  ============================
kind                      a student types                partial credit
========================  =============================  ============================
:class:`NumberQuestion`   ``0.25``, ``'1/4'``            no
:class:`IntegerQuestion`  ``3``                          no
:class:`NumbersQuestion`  ``[p, r, F]`` or a dict        per named number
:class:`TableQuestion`    a list of rows or an array     no
:class:`ChoiceQuestion`   ``'ACD'`` or ``['A', 'C']``    right minus wrong statements
:class:`DefensibleChoice` ``'B'``                        no (every defensible letter
                                                         passes, with its reason)
:class:`FunctionQuestion` a function: ``check(purity)``  per case class, where the
                                                         question declares it
========================  =============================  ============================

A :class:`FunctionQuestion` runs the student's function on its cases (each call under
:data:`CALL_LIMIT` seconds) and names the slip whose implementation it behaves like;
the grader adds hidden cases, run in the sandbox after the student's notebook.
"""
from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction
from typing import ClassVar

import numpy as np

from ..steps import Derivation, fmt
from ._base import (CORRECT, INCORRECT, INVALID, NOT_ATTEMPTED, PARTLY, QUESTIONS, Feedback,
                    InvalidAnswer, Mistake, Outcome, Question, close, intact, is_placeholder,
                    numeric)
from ._data import rng_for
from .assignment import emit

__all__ = ["NumberQuestion", "IntegerQuestion", "NumbersQuestion", "TableQuestion",
           "ChoiceQuestion", "DefensibleChoice", "NOT_USUAL", "CLOSE", "NEAR", "COARSE",
           "PERCENT", "CLOSE_WITHIN", "FunctionQuestion", "CALL_LIMIT", "FIRST_CALL_LIMIT",
           "hidden_cell",
           "run_hidden", "json_data"]

NOT_USUAL = "This is not one of the usual slips; `hint()` may help."
CLOSE = ("Close, but not within 1e-4: give 4 decimals (rounded or cut), and keep the "
         "intermediate results unrounded.")
#: An answer typed with 4 decimals or more that is near the key but no known slip.
NEAR = ("Close, but not within 1e-4, and not one of the usual slips: an intermediate "
        "result rounded too early, or one term off, can do this; `hint()` may help.")
#: An answer typed with 1 to 3 decimals that is the key rounded or cut there, but more than
#: :data:`CLOSE_WITHIN` from it: rounding and a slip of thought are equally likely, so both
#: are named (never "not one of the usual slips" for a right method rounded too far).
COARSE = ("Not within 1e-4. If you rounded to fewer than 4 decimals, give 4 (rounded or "
          "cut); if not, this is not one of the usual slips, and `hint()` may help.")
#: A value between 0 and 1 typed as a percentage (58.8 for 0.588).
PERCENT = ("That looks like a percentage: give the value as a fraction between 0 and 1 "
           "(0.25, not 25).")


#: A number typed as text is read when it has at most this many characters and an
#: exponent of at most this size (``Fraction("1e20000000")`` would compute 10**20000000
#: for 41 s in the grader's own process before failing).
NUMBER_TEXT, NUMBER_EXPONENT = 100, 400
_EXPONENT = re.compile(r"[eE]\s*[+-]?\s*0*(\d+)")


def _read_text(x: str, what: str) -> float:
    text = x.strip().replace(" ", "")
    if text.endswith("%") and len(text) > 1:       # '15%' is 15 hundredths: 0.15
        return _read_text(text[:-1], what) / 100
    big = next((m for m in _EXPONENT.finditer(text)
                if len(m.group(1)) > 3 or int(m.group(1)) > NUMBER_EXPONENT), None)
    if len(text) > NUMBER_TEXT or big:
        why = (f"more than {NUMBER_TEXT} characters" if len(text) > NUMBER_TEXT else
               f"an exponent beyond {NUMBER_EXPONENT}")
        raise InvalidAnswer(f"{what}: {x[:40]!r}{'...' if len(x) > 40 else ''} is not read "
                            f"as a number ({why}; write 0.25 or '1/4')")
    try:
        v = float(Fraction(text))
    except (ValueError, ZeroDivisionError, OverflowError):
        raise InvalidAnswer(f"{what}: could not read {x!r} as a number "
                            "(write 0.25 or '1/4')")
    if not math.isfinite(v):
        raise InvalidAnswer(f"{what}: expected a finite number, got {x!r}")
    return v


def read_number(x, what: str) -> float:
    """``x`` (a number, or a string such as ``'1/4'`` or ``'15%'``, read as 0.15) as a
    float, or InvalidAnswer (text of more than :data:`NUMBER_TEXT` characters or with an
    exponent beyond :data:`NUMBER_EXPONENT` too: never a stall of the grader)."""
    if isinstance(x, (bool, np.bool_)):
        raise InvalidAnswer(f"{what}: expected a number, got {x!r}")
    if isinstance(x, str):
        return _read_text(x, what)
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InvalidAnswer(f"{what}: expected a number, got {type(x).__name__}")
    except OverflowError:
        raise InvalidAnswer(f"{what}: expected a finite number, got a number too large "
                            "for a float")
    if not math.isfinite(v):
        raise InvalidAnswer(f"{what}: expected a finite number, got {v}")
    return v


def _unreadable(answer) -> None:
    """The grader's record of an answer the kernel could not serialise."""
    if isinstance(answer, dict) and set(answer) == {"unreadable"}:
        raise InvalidAnswer(f"the answer could not be read: {answer['unreadable']}")


def decimals(x: float) -> int:
    """How many decimals ``x`` was typed with (0.333 -> 3, 1/3 -> 16, 2.0 -> 0)."""
    text = repr(float(x))
    if "e" in text or "n" in text:
        return 16
    frac_part = text.partition(".")[2]
    return 0 if frac_part == "0" else len(frac_part)


#: "Give 4 decimals" is said only of an answer this close to the key: farther away, a
#: coarse number is as likely a slip of thought (E[Rand] = 0.5 for a key of 0.53) as
#: one of rounding, and the student is not sent to add decimals to a wrong idea.
CLOSE_WITHIN = 1e-3


def too_few_decimals(got: float, want: float) -> bool:
    """The key typed with fewer than 4 decimals (0.333 for 1/3, 0.846 for 0.8461): the
    answer has at most 3 decimals, is within one unit of its last decimal and within
    :data:`CLOSE_WITHIN` of the key (0.85 for 0.8461 is not: 3.9e-3 away)."""
    places = decimals(got)
    return places < 4 and abs(got - want) < min(10.0 ** -places, CLOSE_WITHIN)


def coarse(got: float, want: float) -> bool:
    """The key rounded or cut to the 1 to 3 decimals the answer was typed with (0.85 for
    0.8461; 0.7 for 0.7042, as 0.70 is read)."""
    places = decimals(got)
    if not 1 <= places <= 3:
        return False
    scale = 10.0 ** places
    return any(abs(got - r) < 0.1 / scale for r in (round(want * scale) / scale,
                                                     math.trunc(want * scale) / scale))


def in_percent(got: float, want: float) -> bool:
    """A key between 0.01 and 1 typed as a percentage (to within 1e-3 of the key)."""
    return 0.01 <= abs(want) <= 1 and abs(got) > 1 and abs(got / 100 - want) < CLOSE_WITHIN


def typed_percent(answer) -> list[str]:
    """The parts of ``answer`` typed as percentages (``'15%'``), as typed."""
    parts = answer.values() if isinstance(answer, dict) else (
        answer if isinstance(answer, (list, tuple)) else [answer])
    return [a.strip() for a in parts if isinstance(a, str) and a.strip().endswith("%")]


def percent_note(answer) -> str | None:
    """What a student who typed a percentage is told: how it was read."""
    typed = typed_percent(answer)
    if not typed:
        return None
    read = ", ".join(f"{t!r} as {fmt(read_number(t, 'answer'))}" for t in typed)
    return (f"Read {read} (a percentage is hundredths); the course writes such values as "
            "fractions between 0 and 1.")


def outside(got: float, bounds) -> bool:
    """Whether ``got`` lies outside the closed interval ``bounds`` (None: no bounds)."""
    return bounds is not None and not bounds[0] - 1e-12 <= got <= bounds[1] + 1e-12


def near(got: float, want: float) -> bool:
    """A value within 1e-3 of the key (but not accepted)."""
    return abs(got - want) < 1e-3


# ------------------------------------------------------------------ numbers
class _NumericQuestion(Question):
    """Answers made of numbers compared entry by entry (the shared comparison).

    ``bounds``: the interval every entry of the answer lies in (a measure's range, such as
    ``(0, 1)`` for a p-value), or None; an answer outside it is told so.
    """

    bounds: ClassVar[tuple | None] = None
    #: Whether a slip is named when the answer makes it in some parts only (and no slip
    #: fits the whole answer); a table: never.
    partial_slips: ClassVar[bool] = True

    def range_slip(self, got: np.ndarray) -> str | None:
        """What to say of entries outside :attr:`bounds`."""
        bad = [g for g in got if outside(g, self.bounds)]
        if not bad:
            return None
        lo, hi = (fmt(b) for b in self.bounds)
        asked = getattr(self, "asked", "the answer")
        what = "every value of this measure" if asked in ("the answer", "table") else asked
        return (f"{', '.join(fmt(g) for g in bad)} is outside [{lo}, {hi}], and {what} "
                "lies in that range: check the formula (what is on top, what below) before "
                "the arithmetic; `hint()` may help.")

    def grade(self, answer) -> Outcome:
        outcome = super().grade(answer)
        if outcome.status not in (NOT_ATTEMPTED, INVALID) and (note := percent_note(answer)):
            outcome.messages.append(note)
        return outcome

    def entries(self, value) -> np.ndarray:
        return np.ravel(numeric(value))

    def matches(self, value, key) -> bool:
        got, want = self.entries(value), self.entries(key)
        return got.shape == want.shape and all(close(g, k) for g, k in zip(got, want))

    def summary(self, ok: np.ndarray) -> tuple[str, float]:
        """The first sentence of the feedback, and the points."""
        return "Not yet.", 0.0

    def order_slip(self, got: np.ndarray, want: np.ndarray) -> str | None:
        """What to say when the answer holds the right numbers in another order."""
        return None

    def compare(self, value) -> Outcome:
        got, want = self.entries(value), self.entries(self._once("keys")[0])
        ok = np.array([close(g, k) for g, k in zip(got, want)])
        wrong = ~ok
        whole, partial = [], []
        for m in self._once("diagnosable"):
            mv = self.entries(m.value)
            if mv.shape != want.shape or not np.all(np.isfinite(mv[wrong])):
                continue
            if all(close(g, x) and not close(x, k)
                   for g, x, k in zip(got[wrong], mv[wrong], want[wrong])):
                # the slip explains every wrong entry; does it fit the right ones too?
                fits = all(close(g, x) for g, x in zip(got[ok], mv[ok]))
                (whole if fits else partial).append(m)
        # A slip that fits the whole answer is named alone; one made in some parts only
        # (d rounded early, p not) when none fits the whole, but never in a table, which
        # is one object (one miscounted cell is not a transposed table).
        named = whole or (partial if self.partial_slips else [])
        diagnosed = [name for m in named for name in m.names]
        messages = [m.message for m in named]
        if not diagnosed and (order := self.order_slip(got, want)):
            diagnosed.append("wrong order")
            messages.append(order)
        if not diagnosed:
            if all(too_few_decimals(g, k) for g, k in zip(got[wrong], want[wrong])):
                diagnosed.append("too few decimals")
                messages.append(CLOSE)
            elif all(in_percent(g, k) for g, k in zip(got[wrong], want[wrong])):
                diagnosed.append("percent")
                messages.append(PERCENT)
            elif out_of_range := self.range_slip(got[wrong]):
                diagnosed.append("out of range")
                messages.append(out_of_range)
            elif all(near(g, k) for g, k in zip(got[wrong], want[wrong])):
                messages.append(NEAR)
            elif all(coarse(g, k) or too_few_decimals(g, k)
                     for g, k in zip(got[wrong], want[wrong])):
                messages.append(COARSE)
            else:
                messages.append(NOT_USUAL)
        lead, points = self.summary(ok)
        status = PARTLY if points > 0 else INCORRECT
        return Outcome(self.qid, status, points, self.points, [lead] + messages, diagnosed)


class NumberQuestion(_NumericQuestion):
    """One number, named ``asked`` in the solution's first line."""

    kind = "number"
    asked: ClassVar[str] = "the answer"

    def headline(self, d):
        keys = self.keys()
        also = (f" (a tie leaves a choice: {', '.join(fmt(k) for k in keys[1:])} is accepted "
                "too)" if len(keys) > 1 else "")
        d.text(f"**{self.asked} = {fmt(keys[0])}**{also}. How:")

    def answer_format(self) -> str:
        return "Answer: a number (e.g. 0.25 or '1/4')."

    def read(self, answer):
        _unreadable(answer)
        if isinstance(answer, (list, tuple, np.ndarray)) and np.size(answer) == 1:
            answer = np.ravel(np.asarray(answer, dtype=object))[0]    # [0.5882]: one number
        return read_number(answer, "answer")


class IntegerQuestion(NumberQuestion):
    """One whole number (compared exactly)."""

    kind = "integer"

    def answer_format(self) -> str:
        return "Answer: a whole number."

    def read(self, answer):
        v = super().read(answer)
        if v != int(v):
            raise InvalidAnswer(f"answer: expected a whole number, got {v}")
        return int(v)

    def matches(self, value, key) -> bool:
        return value == key

    def compare(self, value) -> Outcome:
        diagnosed = [m for m in self._once("diagnosable") if m.value == value]
        messages = [m.message for m in diagnosed] or [NOT_USUAL]
        return Outcome(self.qid, INCORRECT, 0.0, self.points, ["Not yet."] + messages,
                       [name for m in diagnosed for name in m.names])


class NumbersQuestion(_NumericQuestion):
    """A few named numbers (``parts``), with partial credit per number."""

    kind = "vector"
    parts: ClassVar[tuple] = ()

    def headline(self, d):
        d.text("**" + ", ".join(f"{p} = {v if isinstance(v, str) else fmt(v)}"
                                for p, v in zip(self.parts, self.key()))
               + "**. How:")

    def answer_format(self) -> str:
        return (f"Answer: {len(self.parts)} numbers in this order: "
                f"{', '.join(self.parts)} (a list, or a dict with these names).")

    def read(self, answer):
        _unreadable(answer)
        if isinstance(answer, dict):
            answer = self._by_part(answer)
        if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__"):
            raise InvalidAnswer(f"answer: expected {len(self.parts)} numbers "
                                f"({', '.join(self.parts)}), got {type(answer).__name__}")
        answer = list(np.ravel(answer)) if isinstance(answer, np.ndarray) else list(answer)
        if len(answer) != len(self.parts):
            raise InvalidAnswer(f"answer: expected {len(self.parts)} numbers "
                                f"({', '.join(self.parts)}), got {len(answer)}")
        return np.array([read_number(a, p) for a, p in zip(answer, self.parts)])

    def _by_part(self, answer: dict) -> list:
        """A dict's numbers in the order of :attr:`parts`. A name is read as a part's when
        they agree but for case, spaces, underscores and braces (``a1`` or ``s_{C_1}`` for
        ``a_1`` and ``s_C1``, as a question's text writes them)."""
        def plain(name) -> str:
            return re.sub(r"[\s_{}$\\]", "", str(name)).lower()

        given = {}
        for name, value in answer.items():
            if (part := name if name in self.parts else next(
                    (p for p in self.parts if plain(p) == plain(name)), None)) is not None:
                if part in given:
                    raise InvalidAnswer(f"answer: {part} given twice")
                given[part] = value
        missing = [p for p in self.parts if p not in given]
        if missing:
            raise InvalidAnswer(f"answer: missing {', '.join(missing)}")
        return [given[p] for p in self.parts]

    def order_slip(self, got, want):
        """The right numbers in another order: say which part holds which number."""
        if len(got) != len(want):
            return None
        free, holds = list(range(len(want))), {}
        for i, g in enumerate(got):
            j = next((j for j in free if close(g, want[j])), None)
            if j is None:
                return None
            free.remove(j)
            holds[i] = j
        moved = [f"as {self.parts[i]} you gave {self.parts[j]}"
                 for i, j in holds.items() if i != j and not close(got[i], want[i])]
        if not moved:
            return None
        return (f"These are the right numbers in the wrong order: {'; '.join(moved)}. "
                f"Give them in the order {', '.join(self.parts)}.")

    def summary(self, ok):
        names = [p for p, good in zip(self.parts, ok) if not good]
        lead = (f"Not yet: {', '.join(names)} {'is' if len(names) == 1 else 'are'} off"
                f" ({int(ok.sum())} of {len(ok)} right).")
        return lead, round(self.points * ok.sum() / len(ok), 2)


class TableQuestion(_NumericQuestion):
    """A table of numbers (no partial credit: the table is one object)."""

    kind = "matrix"
    asked: ClassVar[str] = "table"
    partial_slips = False

    def answer_format(self) -> str:
        r, c = np.shape(self.compute_key())
        return f"Answer: a {r} x {c} table (a list of rows or an array)."

    def read(self, answer):
        _unreadable(answer)
        shape = np.shape(self.compute_key())
        try:
            arr = np.array(answer, dtype=float)
        except (TypeError, ValueError):
            arr = self._read_entries(answer, shape)
        if arr.shape != shape:
            raise InvalidAnswer(f"answer: expected a {shape[0]} x {shape[1]} table, got "
                                f"shape {arr.shape}{self.shape_note(arr.shape)}")
        if not np.all(np.isfinite(arr)):
            raise InvalidAnswer("answer: every entry must be a finite number")
        return arr

    @staticmethod
    def _read_entries(answer, shape) -> np.ndarray:
        """A table whose entries are numbers or texts such as ``'53/100'`` (rows of a list)."""
        what = f"a {shape[0]} x {shape[1]} table of numbers"
        try:
            cells = np.array(answer, dtype=object)
        except (TypeError, ValueError):
            raise InvalidAnswer(f"answer: expected {what}")
        if cells.ndim != 2 or cells.size > 10 * max(1, shape[0] * shape[1]):
            raise InvalidAnswer(f"answer: expected {what}")
        return np.array([[read_number(x, f"entry ({i + 1}, {j + 1})") for j, x in enumerate(row)]
                         for i, row in enumerate(cells)], dtype=float)

    def shape_note(self, shape) -> str:
        """What may explain an answer of ``shape`` (a table with totals: one row or column
        more than the key)."""
        want = np.shape(self.compute_key())
        if len(shape) == 2 and (shape[0] - want[0], shape[1] - want[1]) in ((1, 0), (0, 1),
                                                                            (1, 1)):
            return " (no totals row or column)"
        return ""

    def summary(self, ok):
        off = int((~ok).sum())
        return f"Not yet: {off} of {ok.size} entries {'is' if off == 1 else 'are'} off.", 0.0

    def headline(self, d):
        key = np.asarray(self.compute_key())
        d.text(f"**The {self.asked}:**")
        d.table(["", *[str(j + 1) for j in range(key.shape[1])]],
                [[str(i + 1), *row] for i, row in enumerate(key.tolist())])
        d.text("How:")


# ------------------------------------------------------------------ choices
class ChoiceQuestion(Question):
    """Pick the true statements. ``statements()`` returns ``(text, is_true, why)``
    triples; the options are lettered A, B, ... in an order shuffled per seed.
    The answer is a string of letters (``"ACD"``) or a list of them; with
    ``single = True`` exactly one letter.

    When statements are misjudged the feedback says how many and gives each one's
    ``why`` (the idea to revisit), never which letters: the student rethinks the
    statements instead of toggling letters.
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

    @property
    def choices(self) -> dict[str, str]:
        """Letter -> statement, in the order shown to this student (what the prompt lists)."""
        intact(self)
        return {letter: text for letter, text, _, _ in self._once("options")}

    def letters_for(self, judged: dict[str, bool]) -> str:
        """The letters of the statements you judged true.

        ``judged`` maps a phrase that occurs in exactly one statement to your verdict
        on that statement; every statement must be judged. Useful when the data (and
        so the letters' order) are a variant's:
        ``q.letters_for({"above 0.5": s_1 > 0.5 and s_2 > 0.5, ...})``.
        """
        if not isinstance(judged, dict):
            raise TypeError(f"judged: expected a dict phrase -> bool, got {type(judged).__name__}")
        verdict: dict[str, bool] = {}
        for phrase, ok in judged.items():
            hits = [letter for letter, text in self.choices.items() if phrase in text]
            if len(hits) != 1:
                raise ValueError(f"judged: the phrase {phrase!r} occurs in {len(hits)} "
                                 "statements; use one that names exactly one")
            verdict[hits[0]] = bool(ok)
        missing = sorted(set(self.choices) - set(verdict))
        if missing:
            raise ValueError(f"judged: no verdict on statement(s) {', '.join(missing)}")
        return "".join(letter for letter in sorted(verdict) if verdict[letter])

    def compute_key(self) -> frozenset:
        return frozenset(letter for letter, _, true, _ in self.options() if true)

    def mistakes(self) -> list[Mistake]:
        """One per statement: that statement misjudged (for ``single``: that letter picked)."""
        key = self.compute_key()
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
        _unreadable(answer)
        if isinstance(answer, dict) and "statements" in answer:   # as recorded (to_json)
            return self._by_statement(answer["statements"])
        if isinstance(answer, str):
            letters = [c for c in answer.upper() if not c.isspace() and c not in ",;"]
        elif isinstance(answer, (list, tuple, set, frozenset)):
            letters = []
            for a in answer:
                if not isinstance(a, str):
                    raise InvalidAnswer(f"answer: expected letters, got {a!r}")
                letters += [c for c in a.upper() if not c.isspace()]
        else:
            raise InvalidAnswer(f"answer: expected letters such as 'AC', got "
                                f"{type(answer).__name__}")
        valid = set(self.choices)
        bad = sorted(set(letters) - valid)
        word = answer.strip() if isinstance(answer, str) else ""
        named = bad and len(word) > 2 and any(word.lower() in text.lower()
                                              for text in self.choices.values())
        if named or (len(bad) > 1 and word.replace(" ", "").isalpha()):
            what = ("is text from an option" if named else "is a word, not option letters")
            letters_of = "the option's letter" if self.single else "the options' letters"
            raise InvalidAnswer(f"answer: {word!r} {what}; give {letters_of} instead "
                                f"(one of {', '.join(sorted(valid))})")
        if bad:
            raise InvalidAnswer(f"answer: {', '.join(bad)} is not an option "
                                f"(options: {', '.join(sorted(valid))})")
        if self.single and len(set(letters)) != 1:
            raise InvalidAnswer("answer: give exactly one letter")
        if not letters:
            raise InvalidAnswer("answer: no letter given")
        return frozenset(letters)

    def to_json(self, answer):
        """The answer as recorded for the grader: the statements picked, by their text (and
        the letters, as shown): re-checked by statement, a reordered or edited list of
        statements never reshuffles it."""
        value = super().to_json(answer)
        if not isinstance(value, frozenset):
            return value
        return {"letters": sorted(value),
                "statements": [self.choices[letter] for letter in sorted(value)]}

    def _by_statement(self, picked) -> frozenset:
        """The letters, in this question's order, of the statements ``picked`` (their
        texts); a text no longer among the statements is dropped."""
        if (not isinstance(picked, list) or len(picked) > 100
                or not all(isinstance(t, str) for t in picked)):
            raise InvalidAnswer("answer: the recorded statements could not be read")
        letters = frozenset(letter for letter, text in self.choices.items() if text in picked)
        if not letters:
            raise InvalidAnswer("answer: none of the statements picked is among the "
                                "question's statements now")
        if self.single and len(letters) != 1:
            raise InvalidAnswer("answer: give exactly one letter")
        return letters

    def matches(self, value, key) -> bool:
        return value == key

    def compare(self, value) -> Outcome:
        key = self._once("keys")[0]
        why = {letter: w for letter, _, _, w in self._once("options")}
        if self.single:
            return Outcome(self.qid, INCORRECT, 0.0, self.points,
                           ["Not yet: that is not the best choice."]
                           + [f"To revisit: {why[letter]}" for letter in sorted(value)],
                           [f"misjudged {letter}" for letter in sorted(value)])
        wrong = sorted(value ^ key)
        right = len(why) - len(wrong)
        points = round(self.points * max(0, right - len(wrong)) / len(why), 2)
        lead = (f"Not yet: {len(wrong)} of {len(why)} statements "
                f"{'is' if len(wrong) == 1 else 'are'} misjudged.")
        return Outcome(self.qid, PARTLY if points > 0 else INCORRECT, points, self.points,
                       [lead] + [f"To revisit: {why[letter]}" for letter in wrong],
                       [f"misjudged {letter}" for letter in wrong])

    def acceptable(self) -> bool:
        """Every single misjudgement must be an answer one can give: at least two true
        statements (one letter fewer is still a letter) and, for ``single``, one."""
        return len(self.compute_key()) >= (1 if self.single else 2)

    def headline(self, d: Derivation) -> None:
        d.text(f"**Answer: {''.join(sorted(self.compute_key()))}.** Why:")

    def explain(self, d: Derivation) -> None:
        self.explain_choice(d)
        d.table(["", "statement", "true?", "why"],
                [[letter, text, "yes" if true else "no", why]
                 for letter, text, true, why in self.options()], max_rows=50)

    def explain_choice(self, d: Derivation) -> None:
        """Numbers behind the statements (optional)."""


class DefensibleChoice(ChoiceQuestion):
    """A choice of one option where the data leave more than one defensible answer
    (a judgement: follow the majority of the criteria, or the structure one sees).

    ``defensible()`` maps each accepted letter to the reason it is accepted; the
    first true statement is the key, the others are accepted too, each with its
    reason, and are never diagnosed as mistakes.
    """

    single = True

    def defensible(self) -> dict[str, str]:
        """Letter -> why that answer is accepted (the key's letter included)."""
        raise NotImplementedError

    def keys(self) -> list:
        key = self.compute_key()
        return [key, *(frozenset(letter) for letter in self._once("defensible")
                       if frozenset(letter) != key)]

    def mistakes(self) -> list[Mistake]:
        accepted = self._once("defensible")
        return [m for m in super().mistakes() if not set(m.value) & set(accepted)]

    def grade(self, answer) -> Outcome:
        outcome = super().grade(answer)
        if outcome.status == CORRECT:
            why = self._once("defensible")
            outcome.messages += [why[letter] for letter in sorted(self.read(answer))
                                 if letter in why]
        return outcome

    def explain(self, d: Derivation) -> None:
        super().explain(d)
        d.text("Accepted: " + " ".join(f"{letter}: {why}" for letter, why
                                       in sorted(self.defensible().items())))


# ---------------------------------------------------------------- functions
#: Seconds one call of a student's function may take (then it is stopped and said so).
CALL_LIMIT = 2.0
#: Seconds the first call of a run may take: it pays the imports in the function's body
#: (scikit-learn or pandas take seconds on a busy machine, and are no endless loop).
FIRST_CALL_LIMIT = 10.0
#: Characters kept of a function's source in the record, and of a message or a repr shown.
SOURCE_LIMIT, SHOWN_LIMIT = 20_000, 160
#: The case classes of a function question, in the order the feedback names them.
CASE_CLASSES = ("shown", "small", "hidden")
#: In the kernel: qid -> the function last checked (the grader's hidden cases call it).
_FUNCTIONS: dict = {}
_SIGNATURE = re.compile(r"\s*([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)?"
                        r"\s*\)\s*")


class _TimeLimit(BaseException):
    """Raised in a student's function when its call runs past the time limit (not an
    ``Exception``: a function's own ``except Exception`` does not swallow it)."""


def _limited(fn, args, seconds: float):
    """``fn(*args)`` stopped after ``seconds``: SIGALRM in the main thread (it also ends a
    ``sleep``), else an exception raised asynchronously in the calling thread."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def alarm(signum, frame):
            raise _TimeLimit()

        old = signal.signal(signal.SIGALRM, alarm)
        try:
            # again every 0.1 s: one caught by the function's own ``except:`` is not the end
            signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
            try:
                return fn(*args)
            finally:
                # the timer off, whatever arrives meanwhile (one left running after the
                # old handler is back would end the process: SIGALRM's default action)
                while True:
                    try:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                        _deliver()
                        break
                    except _TimeLimit:
                        pass
        finally:
            signal.signal(signal.SIGALRM, old)
    import ctypes

    done, lock = threading.Event(), threading.Lock()
    target = threading.get_ident()

    def watch():
        wait = seconds
        while not done.wait(wait):      # again every 0.1 s after the first
            with lock:                  # never after the call's end below
                if done.is_set():
                    return
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(_TimeLimit))
            wait = 0.1
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return fn(*args)
    finally:
        # End the watch, then take one raised just as the call returned here, not later
        # elsewhere. Never by clearing it (SetAsyncExc with NULL): CPython 3.11 then
        # leaves its eval breaker set for good, and the next call made under
        # sys.setprofile loops forever (a test suite hung on it).
        while True:
            try:
                with lock:
                    done.set()
                watcher.join()
                _deliver()
                break
            except _TimeLimit:
                pass


def _deliver() -> None:
    """Nothing: entering a Python function is where the interpreter runs a signal's
    handler and raises an exception another thread has sent to this one
    (``PyThreadState_SetAsyncExc``), so one still pending is raised here."""


def _shown(text, limit: int = SHOWN_LIMIT) -> str:
    """A student's text (a repr, an exception's message) as a Markdown code span: one line,
    at most ``limit`` characters, never read as Markdown or HTML."""
    text = " ".join(str(text).split())
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)  # ANSI, bells
    text = text if len(text) <= limit else text[:limit - 1] + "…"
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def json_data(value) -> list | float | int | str | bool | None:
    """A case's argument as JSON data (arrays as lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [json_data(v) for v in value]
    return value


def _argument(value):
    """A case's argument as the function receives it: a list becomes a fresh array (one
    call cannot change what the next one is given)."""
    return np.array(value) if isinstance(value, list) else value


class FunctionQuestion(Question):
    """The answer is a function: ``q.check(purity)`` runs it on the question's cases and
    names the misconception it holds.

    The cases are argument dicts in three classes: ``shown`` (the variant's data, the
    prompt's), ``small`` (a few small public cases) and ``hidden`` (drawn by the grader
    in its own process for each graded notebook, and run in the sandbox after the
    student's notebook: never present while the student's code runs). The grader's last
    cell runs the function on the graded variant's public cases too, and grades those
    outputs (a function checked on another variant's data is the same function on this
    one's). Each call has :data:`CALL_LIMIT` seconds; an exception, a wrong type and a
    time limit are named with their case. A named mistake is a reference implementation of the slip
    (``mistakes(cases)`` gives its outputs): the feedback names the one the function
    behaves like and shows the smallest case where it differs from the right answer
    (its output against the measure's; on the variant's own data, the output only).

    A question sets ``signature`` (``"purity(truth, pred)"``), ``returns`` (the names of
    the numbers returned, empty for one number), ``asked`` (what the measure is called),
    ``credit`` (case class -> share of the points, for partial credit; empty: all or
    nothing) and implements :meth:`shown_case`, :meth:`small_cases`,
    :meth:`hidden_case`, ``compute_key(cases)`` and ``mistakes(cases)`` (with
    :meth:`outputs`).
    """

    kind = "function"
    signature: ClassVar[str] = ""
    returns: ClassVar[tuple] = ()
    asked: ClassVar[str] = "the answer"
    credit: ClassVar[dict] = {}
    n_hidden: ClassVar[int] = 6

    # -- the cases -----------------------------------------------------
    @classmethod
    def function_name(cls) -> str:
        return _SIGNATURE.fullmatch(cls.signature).group(1)

    @classmethod
    def arguments(cls) -> tuple:
        args = _SIGNATURE.fullmatch(cls.signature).group(2) or ""
        return tuple(a.strip() for a in args.split(",") if a.strip())

    def shown_case(self) -> dict | None:
        """The variant's data as arguments (None: no case of the shown data)."""
        return None

    def small_cases(self) -> list[dict]:
        """A few small public cases."""
        return []

    def hidden_case(self, rng) -> dict:
        """One hidden case drawn from ``rng`` (the grader's)."""
        raise NotImplementedError

    def public_cases(self) -> list[tuple[str, str, dict]]:
        """``(label, case class, arguments)`` of the cases run at home."""
        shown = self.shown_case()
        cases = [] if shown is None else [("your data", "shown", shown)]
        return cases + [(f"small case {k}", "small", c)
                        for k, c in enumerate(self.small_cases(), 1)]

    def hidden_cases(self, rng) -> list[dict]:
        """The hidden cases of one graded notebook (JSON data)."""
        return [{a: json_data(v) for a, v in self.hidden_case(rng).items()}
                for _ in range(self.n_hidden)]

    def graded_cases(self, rng) -> tuple[list[dict], list[dict]]:
        """``(public, hidden)``: the cases the grader runs the function on, in the
        sandbox after the student's notebook (JSON data): this variant's public cases
        (whatever data the notebook worked on: a function is the same function on any
        data) and the hidden cases drawn from ``rng``."""
        public = [{a: json_data(v) for a, v in c.items()} for _, _, c in self.public_cases()]
        return public, self.hidden_cases(rng)

    def outputs(self, fn, cases=None) -> list:
        """``fn`` (the library's reference or a slip's, trusted code) on ``cases`` (default:
        the public ones): a value per case, None where it is undefined (it raises)."""
        if cases is None:
            cases = [c for _, _, c in self.public_cases()]
        out = []
        for case in cases:
            try:
                out.append(self._value(fn(*[_argument(case[a]) for a in self.arguments()])))
            except Exception:
                out.append(None)
        return out

    def _value(self, v):
        """A returned value as a float or a tuple of floats; TypeError naming what it is."""
        def number(x):
            if isinstance(x, (bool, np.bool_)) or not isinstance(
                    x, (numbers.Real, np.integer, np.floating)) and not (
                    isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iuf"):
                raise TypeError(type(x).__name__)
            return float(x)

        if not self.returns:
            return number(v)
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__len__"):
            raise TypeError(type(v).__name__)
        if len(v) != len(self.returns):
            raise TypeError(f"{type(v).__name__} of {len(v)}")
        return tuple(number(x) for x in v)

    # -- running a student's function ------------------------------------
    def _run(self, fn, cases) -> list[dict]:
        """The student's ``fn`` on ``cases``: per case ``{"value"}``, ``{"error",
        "message"}``, ``{"type", "repr"}`` or ``{"timeout"}``; after a time limit the
        remaining cases are not run (``{"skipped"}``). The first call may take
        :data:`FIRST_CALL_LIMIT` seconds (its imports), the others :data:`CALL_LIMIT`."""
        out = []
        for case in cases:
            if out and "timeout" in out[-1] or out and "skipped" in out[-1]:
                out.append({"skipped": True})
                continue
            args = [_argument(case[a]) for a in self.arguments()]
            limit = CALL_LIMIT if out else FIRST_CALL_LIMIT
            try:
                # the value read, its repr and an exception's message are the student's
                # code too: under the time limit, and whatever they raise is said
                out.append(_limited(self._call, (fn, args), limit))
            except _TimeLimit:
                out.append({"timeout": limit})
        return out

    def _call(self, fn, args) -> dict:
        """One call of ``fn`` and what it gave, as :meth:`_run` records it."""
        try:
            v = fn(*args)
        except _TimeLimit:
            raise
        except BaseException as exc:   # sys.exit(), KeyboardInterrupt: named too
            return {"error": _said(lambda e=exc: type(e).__name__, 80),
                    "message": _said(lambda e=exc: str(e), SHOWN_LIMIT + 1)}
        try:
            value = self._value(v)
        except _TimeLimit:
            raise
        except TypeError as what:
            return {"type": str(what)[:80], "repr": _said(lambda: repr(v), SHOWN_LIMIT + 1)}
        except BaseException as exc:    # a float() that raises: its value cannot be read
            return {"error": _said(lambda e=exc: type(e).__name__, 80),
                    "message": _said(lambda e=exc: str(e), SHOWN_LIMIT + 1)}
        return {"value": [_json_float(x) for x in value] if self.returns
                else _json_float(value)}

    def record(self, fn) -> dict:
        """What the grader receives for ``fn``: its name, its source (at most
        :data:`SOURCE_LIMIT` characters) and its outputs on the public cases."""
        import inspect

        try:
            source = inspect.getsource(fn)
        except (TypeError, OSError):
            source = ""
        return {"function": str(getattr(fn, "__name__", "?"))[:100],
                "source": source[:SOURCE_LIMIT],
                "outputs": self._run(fn, [c for _, _, c in self.public_cases()])}

    # -- the kind's answer handling --------------------------------------
    def answer_format(self) -> str:
        what = ("a number" if not self.returns else
                f"{len(self.returns)} numbers in this order: {', '.join(self.returns)}")
        return (f"Answer: your function `def {self.signature}:` returning {what}; check it "
                f"with `check({self.function_name()})` (the function, not a call of it).")

    def read(self, answer, n: int | None = None):
        """The record of ``answer`` (a function, or the record of one) whose outputs are
        ``n`` (default: as many as this variant's public cases), or InvalidAnswer."""
        if callable(answer):
            return self.record(answer)
        _unreadable(answer)
        outputs = answer.get("outputs") if isinstance(answer, dict) else None
        n = len(self.public_cases()) if n is None else n
        if not isinstance(outputs, list) or len(outputs) != n or not all(
                isinstance(o, dict) for o in outputs):
            raise InvalidAnswer(f"answer: expected your function `{self.function_name()}` "
                                f"(e.g. `check({self.function_name()})`), got "
                                f"{type(answer).__name__}")
        return answer

    def check(self, answer) -> Feedback:
        """Run your function on the public cases; record it for the grader; say what is
        right or, where it is wrong, which misconception it behaves like."""
        intact(self)
        if callable(answer):
            _FUNCTIONS[self.qid] = answer
            answer = self.record(answer)
        return super().check(answer)

    def to_json(self, answer):
        try:
            return self.read(answer)
        except InvalidAnswer:
            return {"unreadable": repr(answer)[:200]}

    def acceptable(self) -> bool:
        return True      # the small and hidden cases tell the mistakes apart, not the data

    def headline(self, d):
        d.text(f"**A function `{self.signature}` that computes {self.asked}.** "
               "The library's reference, on the public cases:")
        d.table(["case", "arguments", self.asked],
                [[label, self.describe_case(c), _fmt_value(v)] for (label, _, c), v
                 in zip(self.public_cases(), self.compute_key())], max_rows=50)
        d.text("How:")

    def describe_case(self, case: dict) -> str:
        """A case in one line (``truth = [1, 1, 2], pred = [1, 2, 2]``)."""
        return ", ".join(f"{a} = {json_data(case[a])}" for a in self.arguments())

    # -- grading -------------------------------------------------------------
    def grade(self, answer, hidden: tuple | None = None, public=None) -> Outcome:
        """The verdict on ``answer`` (a function, or the record of one); ``hidden``: the
        grader's ``(cases, outputs)`` (outputs None or a sentence: they could not be run).
        ``public``: the grader's own run of the function on this variant's public cases
        (their outputs, graded instead of the ones the record holds, which may be another
        variant's), or the sentence why there is none (the record's outputs are then
        another variant's and not graded); None: the record's outputs are this
        variant's."""
        if is_placeholder(answer):
            return Outcome(self.qid, NOT_ATTEMPTED, 0.0, self.points,
                           [f"Not attempted yet: write `{self.function_name()}`, then replace "
                            f"`...` with your answer (the function `{self.function_name()}` "
                            "itself) and run the cell again."])
        cases = self.public_cases()
        rerun = _outputs(public, len(cases))
        # outputs recorded on another variant's cases: as many as that variant has
        n = None if public is None else len(_record_outputs(answer))
        try:
            record = self.read(answer, n)
        except InvalidAnswer as exc:
            return Outcome(self.qid, INVALID, 0.0, self.points, [str(exc) + "."])
        missing = []
        if public is None:
            outputs = list(record["outputs"])
        elif rerun is not None:
            outputs = rerun
        else:
            outputs = [{"skipped": True}] * len(cases)
            missing.append(("your variant's public cases", public if isinstance(public, str)
                            else "no outputs were recorded"))
        if hidden is not None:
            hidden_cases, hidden_out = hidden
            cases += [(f"hidden case {k}", "hidden", c) for k, c in enumerate(hidden_cases, 1)]
            ran = _outputs(hidden_out, len(hidden_cases))
            if ran is not None:
                outputs += ran
            else:
                missing.append(("the hidden cases", hidden_out if isinstance(hidden_out, str)
                                else "no outputs were recorded"))
                outputs += [{"skipped": True}] * len(hidden_cases)
        return self._verdict(cases, outputs, missing)

    def _verdict(self, cases, outputs, missing) -> Outcome:
        args = [c for _, _, c in cases]
        want = self.compute_key(args)
        got = [self._read_output(o) for o in outputs]
        right = [g is not None and w is not None and _same(g, w) for g, w in zip(got, want)]
        classes = [k for _, k, _ in cases]
        present = [k for k in CASE_CLASSES if k in classes]
        if all(right):
            hidden = "hidden" in classes
            msg = (f"Correct on all {len(cases)} cases (the hidden ones included)." if hidden
                   else f"Correct on the {len(cases)} public cases. When graded, your "
                   "function also runs on hidden cases of your variant.")
            return Outcome(self.qid, CORRECT, self.points, self.points, [msg])
        share = self.credit or {}
        earned = sum(share.get(k, 0.0) for k in present
                     if all(r for r, c in zip(right, classes) if c == k))
        points = round(self.points * min(1.0, earned), 2)
        n_right = sum(right)
        messages = [f"Not yet: your function is right on {n_right} of {len(cases)} cases."]
        diagnosed: list[str] = []
        messages += self._failures(cases, outputs, missing, diagnosed)
        values = [(i, g) for i, g in enumerate(got) if g is not None]
        wrong = [i for i, g in values if not right[i] and want[i] is not None]
        if wrong:
            named = self._behaves_like(args, got, want, right)
            if named is not None:
                diagnosed += named.names
                messages.append(named.message)
            elif all(right[i] for i, k in enumerate(classes) if k != "hidden"
                     and outputs[i].get("value") is not None):
                messages.append("It is right on the public cases but not on the hidden "
                                "ones: does it treat the shown data as a special case?")
                diagnosed.append("right only on the public cases")
            else:
                messages.append(NOT_USUAL)
            messages.append(self._smallest(cases, got, want, wrong))
        status = PARTLY if points > 0 else INCORRECT
        return Outcome(self.qid, status, points, self.points, messages, diagnosed)

    def _read_output(self, o: dict):
        v = o.get("value") if isinstance(o, dict) else None
        try:
            if v is None:
                return None
            if self.returns:
                if not isinstance(v, list) or len(v) != len(self.returns):
                    return None
                return tuple(float(x) for x in v)
            return float(v)
        except (TypeError, ValueError, OverflowError):
            return None

    def _failures(self, cases, outputs, missing, diagnosed) -> list[str]:
        """A sentence per kind of failure (the first case of each named); ``missing``:
        ``(which cases, why)`` of the cases the grader could not run the function on."""
        said, out = set(), []
        if missing:
            which = " and ".join(w for w, _ in missing)
            whys = "; ".join(dict.fromkeys(why for _, why in missing))
            out.append(f"Your function could not be run on {which} ({whys}).")
            diagnosed.append("hidden cases not run")
        for (label, _, _), o in zip(cases, outputs):
            if "error" in o and "error" not in said:
                said.add("error")
                out.append(f"On {label} it raised {_shown(o.get('error'), 80)}: "
                           f"{_shown(o.get('message', ''))}.")
                diagnosed.append(f"raises {str(o.get('error'))[:40]}")
            elif "timeout" in o and "timeout" not in said:
                said.add("timeout")
                out.append(f"On {label} it did not return within {_seconds(o):g} s (the time "
                           "limit of a call) and was stopped: an endless loop? The cases "
                           "after it were not run.")
                diagnosed.append("time limit")
            elif "type" in o and "type" not in said:
                said.add("type")
                what = ("a number" if not self.returns
                        else f"{len(self.returns)} numbers ({', '.join(self.returns)})")
                out.append(f"On {label} it returned a {_shown(o.get('type'), 80)} "
                           f"({_shown(o.get('repr', ''))}), not {what}.")
                diagnosed.append("wrong type")
        return out

    def _behaves_like(self, args, got, want, right):
        """The named mistake whose outputs the function's equal on every case where both
        are defined (an output of NaN is undefined: a slip that also misses an edge case,
        such as a point alone in its cluster, is still named), and that differs from the
        key where the function does."""
        for m in self.mistakes(args):
            pairs = [(g, v, w) for g, v, w in zip(got, m.value, want)
                     if g is not None and not _undefined(g)]
            if not pairs or any(v is None or not _same(g, v) for g, v, _ in pairs):
                continue
            if any(not _same(g, w) for g, _, w in pairs if w is not None):
                return m
        return None

    def _smallest(self, cases, got, want, wrong) -> str:
        """The smallest case where the output differs from the key (a small public case
        first, then a hidden one): its output and the measure's; the shown data last, with
        its output only (its right value is another question's answer)."""
        def size(i):   # a small case first, then a hidden one; the shown data last
            c = cases[i][2]
            return (cases[i][1] == "shown", cases[i][1] == "hidden",
                    sum(np.size(c[a]) for a in self.arguments()))
        i = min(wrong, key=size)
        label, kind, case = cases[i]
        if kind == "shown":
            return (f"On your variant's data it returns {_fmt_value(got[i])}, which is not "
                    f"{self.asked}.")
        return (f"On {label}, {self.describe_case(case)}, it returns {_fmt_value(got[i])}; "
                f"{self.asked} is {_fmt_value(want[i])}.")


def _said(text, limit: int) -> str:
    """``text()`` (a student's repr or message) cut to ``limit``; '?' where it raises."""
    try:
        return str(text())[:limit]
    except _TimeLimit:
        raise
    except BaseException:
        return "?"


def _seconds(o: dict) -> float:
    """The time limit a recorded ``{"timeout"}`` names (the kernel's record: read safely)."""
    try:
        return min(max(float(o.get("timeout")), 0.0), 3600.0)
    except (TypeError, ValueError, OverflowError):
        return CALL_LIMIT


def _outputs(ran, n: int) -> list | None:
    """``ran`` if it is the outputs of ``n`` cases (a list of dicts), else None."""
    if isinstance(ran, list) and len(ran) == n and all(isinstance(o, dict) for o in ran):
        return list(ran)
    return None


def _record_outputs(answer) -> list:
    """The outputs a record holds (a list; anything else: empty)."""
    outputs = answer.get("outputs") if isinstance(answer, dict) else None
    return outputs if isinstance(outputs, list) else []


def _json_float(x: float):
    return x if math.isfinite(x) else repr(x)


def _undefined(a) -> bool:
    """Whether an output is NaN (every number of it)."""
    try:
        return bool(np.all(np.isnan(np.asarray(a, dtype=float))))
    except (TypeError, ValueError):
        return False


def _same(a, b) -> bool:
    a, b = np.atleast_1d(np.asarray(a, dtype=float)), np.atleast_1d(np.asarray(b, dtype=float))
    return a.shape == b.shape and all(close(x, y) for x, y in zip(a, b))


def _fmt_value(v) -> str:
    if v is None:
        return "undefined"
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ")"
    return fmt(v)


def hidden_cell(cases: dict) -> str:
    """The code of the cell the grader runs last in the sandbox: every function checked
    (qid -> the cases it is graded on, JSON data: the graded variant's public cases, then
    the hidden ones) called on those cases, the outputs written to the channel."""
    import json

    return ("from prayatul_edu.exercises.kinds import run_hidden as _run_hidden\n"
            f"_run_hidden({json.dumps(json.dumps(cases))})\n")


def run_hidden(cases_json: str) -> None:
    """In the kernel, after the student's notebook: each question's last checked function
    on the grader's cases (the graded variant's public ones and the hidden ones: ``{"event":
    "hidden", "qid", "outputs"}`` on the channel; ``"missing"`` when no function was
    checked in this kernel)."""
    import json

    for qid, cases in json.loads(cases_json).items():
        fn, cls = _FUNCTIONS.get(qid), QUESTIONS.get(qid)
        if fn is None or cls is None:
            emit({"event": "hidden", "qid": qid,
                   "missing": "no function was checked in the kernel that ran last"})
            continue
        q = cls(None, data={})
        try:
            outputs = q._run(fn, cases)
        except BaseException as exc:  # noqa: BLE001 - one question's run never ends the rest
            outputs = f"its run ended with {_said(lambda e=exc: type(e).__name__, 80)}"
        if isinstance(outputs, list):
            emit({"event": "hidden", "qid": qid, "outputs": outputs})
        else:
            emit({"event": "hidden", "qid": qid, "missing": outputs})
