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
========================  =============================  ============================
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import ClassVar

import numpy as np

from ..steps import Derivation, fmt
from ._base import (CORRECT, INCORRECT, PARTLY, InvalidAnswer, Mistake, Outcome, Question, close,
                    numeric)
from ._data import rng_for

__all__ = ["NumberQuestion", "IntegerQuestion", "NumbersQuestion", "TableQuestion",
           "ChoiceQuestion", "DefensibleChoice", "NOT_USUAL", "CLOSE", "NEAR", "COARSE",
           "PERCENT", "CLOSE_WITHIN"]

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
    """``x`` (a number, or a string such as ``'1/4'``) as a float, or InvalidAnswer (text
    of more than :data:`NUMBER_TEXT` characters or with an exponent beyond
    :data:`NUMBER_EXPONENT` too: never a stall of the grader)."""
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


def near(got: float, want: float) -> bool:
    """A value within 1e-3 of the key (but not accepted)."""
    return abs(got - want) < 1e-3


# ------------------------------------------------------------------ numbers
class _NumericQuestion(Question):
    """Answers made of numbers compared entry by entry (the shared comparison)."""

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
        diagnosed, messages = [], []
        for m in self._once("diagnosable"):
            mv = self.entries(m.value)
            if mv.shape != want.shape or not np.all(np.isfinite(mv[wrong])):
                continue
            if all(close(g, x) and not close(x, k)
                   for g, x, k in zip(got[wrong], mv[wrong], want[wrong])):
                diagnosed += m.names
                messages.append(m.message)
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
            missing = [p for p in self.parts if p not in answer]
            if missing:
                raise InvalidAnswer(f"answer: missing {', '.join(missing)}")
            answer = [answer[p] for p in self.parts]
        if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__"):
            raise InvalidAnswer(f"answer: expected {len(self.parts)} numbers "
                                f"({', '.join(self.parts)}), got {type(answer).__name__}")
        answer = list(np.ravel(answer)) if isinstance(answer, np.ndarray) else list(answer)
        if len(answer) != len(self.parts):
            raise InvalidAnswer(f"answer: expected {len(self.parts)} numbers "
                                f"({', '.join(self.parts)}), got {len(answer)}")
        return np.array([read_number(a, p) for a, p in zip(answer, self.parts)])

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

    def answer_format(self) -> str:
        r, c = np.shape(self.compute_key())
        return f"Answer: a {r} x {c} table (a list of rows or an array)."

    def read(self, answer):
        _unreadable(answer)
        shape = np.shape(self.compute_key())
        try:
            arr = np.array(answer, dtype=float)
        except (TypeError, ValueError):
            raise InvalidAnswer(f"answer: expected a {shape[0]} x {shape[1]} table of numbers")
        if arr.shape != shape:
            raise InvalidAnswer(f"answer: expected a {shape[0]} x {shape[1]} table "
                                f"(no totals row or column), got shape {arr.shape}")
        if not np.all(np.isfinite(arr)):
            raise InvalidAnswer("answer: every entry must be a finite number")
        return arr

    def summary(self, ok):
        return f"Not yet: {int((~ok).sum())} of {ok.size} entries are off.", 0.0

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
