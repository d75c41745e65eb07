"""Notebook 06: the Prayatul matrix by hand.

A small example (6 instances, 15 pairs): the matrix BR / RW / WR / BW by hand,
its five measures, what they say about which algorithm is better on which
pairs, and a new question: why the comparison does not care about label names.
"""
from __future__ import annotations

import numpy as np

from .. import prayatul_matrix
from ..prayatul import PRAYATUL_MEASURES
from ._base import Mistake
from .kinds import ChoiceQuestion, NumbersQuestion

__all__ = ["PrayatulCounts", "PrayatulMeasures", "PrayatulReading", "PrayatulRelabel"]

def _describe_small(q, d):
    n = len(q.truth)
    d.text(f"{n} instances, the ground truth and two clusterings (primary A, alternative B):")
    d.table(["", *[f"x{i + 1}" for i in range(n)]],
            [["truth g", *map(int, q.truth)], ["primary A", *map(int, q.primary)],
             ["alternative B", *map(int, q.alternative)]])


def _m(q, swap=False):
    a, b = (q.alternative, q.primary) if swap else (q.primary, q.alternative)
    return prayatul_matrix(q.truth, a, b)


def _tally(ra, rb) -> np.ndarray:
    """BR, RW, WR, BW from the verdicts ``ra`` (A right) and ``rb`` (B right) of each item."""
    ra, rb = np.asarray(ra, dtype=bool), np.asarray(rb, dtype=bool)
    return np.array([np.sum(ra & rb), np.sum(ra & ~rb), np.sum(~ra & rb), np.sum(~ra & ~rb)],
                    dtype=float)


def _together(labels) -> np.ndarray:
    """For each pair i < j: whether ``labels`` puts i and j together."""
    x = np.asarray(labels)
    return (x[:, None] == x[None, :])[np.triu_indices(len(x), 1)]


def _together_counts(q) -> np.ndarray:
    """The slip: BR, RW, WR, BW with "right" read as "together" (the truth left out)."""
    return _tally(_together(q.primary), _together(q.alternative))


def _together_right_counts(q) -> np.ndarray:
    """The slip: BR, RW, WR, BW with a pair "right" only when the algorithm *and* the truth
    put it together (the pairs both keep apart counted wrong)."""
    t = _together(q.truth)
    return _tally(_together(q.primary) & t, _together(q.alternative) & t)


def _apart_right_counts(q) -> np.ndarray:
    """The slip: BR, RW, WR, BW with a pair "right" only when the algorithm *and* the truth
    keep it apart (the pairs both put together counted wrong)."""
    t = ~_together(q.truth)
    return _tally(~_together(q.primary) & t, ~_together(q.alternative) & t)


def _instance_counts(q) -> np.ndarray:
    """The slip: BR, RW, WR, BW over the instances, each "right" when its raw label equals
    the truth's (accuracy on raw labels, which the lecture shows punishes names)."""
    t = np.asarray(q.truth)
    return _tally(np.asarray(q.primary) == t, np.asarray(q.alternative) == t)


def _five(br, rw, wr, bw) -> np.ndarray:
    """The five measures (sigma_c, alpha, xi_c, xi_e, phi_e) of a matrix's four counts."""
    t = br + rw + wr + bw
    return np.array([(rw - wr) / (rw + wr) if rw + wr else 0.0, (br + rw - bw) / t,
                     (br + rw) / (br + rw + wr), (br + rw - wr) / (br + rw + wr),
                     (br + rw - wr) / t])


class PrayatulCounts(NumbersQuestion):
    qid, title, dataset = "06.1", "the Prayatul matrix by hand", "prayatul_small"
    parts = ("BR", "RW", "WR", "BW")
    ties_named = True
    hints = ("A pair (i, j) is Right for an algorithm when it agrees with the truth on "
             "'together or apart': (p_i = p_j) exactly when (g_i = g_j).",
             "List the 15 unordered pairs; for each, is A right? is B right? Tally the four "
             "combinations.",
             "BR + RW + WR + BW = N (N - 1) / 2 = 15.")

    def describe(self, d):
        _describe_small(self, d)
        d.text("Count the pairs: **BR** (both right), **RW** (A right, B wrong), **WR** "
               "(A wrong, B right), **BW** (both wrong).")

    def compute_key(self):
        m = _m(self)
        return np.array([m.br, m.rw, m.wr, m.bw], dtype=float)

    def mistakes(self):
        k = self.compute_key()
        n = len(self.truth)
        return [Mistake("ordered pairs", 2 * k,
                        "You counted ordered pairs: (i, j) and (j, i) are one pair; there are "
                        "N (N - 1) / 2 of them."),
                Mistake("roles swapped", k[[0, 2, 1, 3]],
                        "RW and WR are swapped: RW is primary (A) right and alternative (B) "
                        "wrong."),
                Mistake("self-pairs", k + np.array([n, 0, 0, 0]),
                        "You counted each instance paired with itself; only pairs of two "
                        "different instances count."),
                Mistake("BR and BW swapped", k[[3, 1, 2, 0]],
                        "BR and BW are swapped: BR counts the pairs both algorithms get "
                        "right, BW those both get wrong."),
                Mistake("all N x N pairs", 2 * k + np.array([n, 0, 0, 0]),
                        "You counted all N x N ordered pairs, each instance with itself "
                        "included; count the N (N - 1) / 2 pairs of two different instances "
                        "once each."),
                Mistake("fractions of the pairs", k / k.sum(),
                        "Those are fractions of the T pairs; BR, RW, WR and BW count pairs."),
                Mistake("together for right", _together_counts(self),
                        "You counted the pairs each clustering puts *together*. A pair is "
                        "Right for an algorithm when it agrees with the truth: together in "
                        "both, or apart in both."),
                Mistake("right and wrong exchanged", k[[3, 2, 1, 0]],
                        "You counted the pairs an algorithm gets *wrong* as right. A pair is "
                        "right for an algorithm when it agrees with the truth on 'together "
                        "or apart'."),
                Mistake("right only when together", _together_right_counts(self),
                        "You counted a pair right only when the algorithm and the truth both "
                        "put it together. A pair the truth keeps apart is right too when the "
                        "algorithm keeps it apart: right means agreeing on 'together or "
                        "apart'."),
                Mistake("right only when apart", _apart_right_counts(self),
                        "You counted a pair right only when the algorithm and the truth both "
                        "keep it apart. A pair the truth puts together is right too when the "
                        "algorithm puts it together: right means agreeing on 'together or "
                        "apart'."),
                Mistake("instances by raw labels", _instance_counts(self),
                        "You compared each instance's label with the truth's (accuracy on raw "
                        "labels, which depends on the label names). The Prayatul matrix counts "
                        "*pairs*: a pair is right when the algorithm agrees with the truth on "
                        "'together or apart'.")]

    def acceptable(self):
        k = self.compute_key()
        return super().acceptable() and bool(np.all(k > 0))   # every cell occupied

    def explain(self, d):
        d.extend(_m(self).counts_derivation())         # the pairs; the measures are 06.2


class PrayatulMeasures(NumbersQuestion):
    qid, title, dataset = "06.2", "the five measures", "prayatul_small"
    parts = tuple(m.symbol for m in PRAYATUL_MEASURES.values())
    ties_named = True
    hints = ("; ".join(f"{m.symbol} = {m.plain_formula}" for m in PRAYATUL_MEASURES.values())
             + ".",
             "Every measure is from the primary's (A's) point of view.")

    def describe(self, d):
        _describe_small(self, d)
        names = ", ".join(f"{m.title.lower()} ${m.latex}$" for m in PRAYATUL_MEASURES.values())
        d.text(f"From your Prayatul matrix, compute the five measures: {names}.")

    def compute_key(self):
        m = _m(self)
        return np.array([float(getattr(m, name)) for name in PRAYATUL_MEASURES])

    def mistakes(self):
        s = _m(self, swap=True)
        m = _m(self)
        key = self.compute_key()
        return [Mistake("roles swapped", np.array([float(getattr(s, n))
                                                   for n in PRAYATUL_MEASURES]),
                        "You took B's point of view: every measure is about the primary A "
                        "(RW: A right, B wrong)."),
                Mistake("BW in the denominator", np.array([
                    m.comparative_deviation, m.polarization,
                    (m.br + m.rw) / m.n_pairs, (m.br + m.rw - m.wr) / m.n_pairs,
                    m.effective_superiority]),
                    "xi_c and xi_e leave the pairs both get wrong (BW) out of the "
                    "denominator: BR + RW + WR."),
                Mistake("sigma_c sign", np.array([-key[0], *key[1:]]),
                        "sigma_c has its sign flipped: it is (RW - WR) / (RW + WR), RW (A "
                        "right, B wrong) first, so it is positive when A wins the pairs where "
                        "they disagree."),
                Mistake("sigma_c over all pairs", np.array(
                    [(m.rw - m.wr) / m.n_pairs, *key[1:]]),
                    "sigma_c divides RW - WR by the pairs where the two disagree, RW + WR, "
                    "not by all the pairs."),
                Mistake("phi_e without BW", np.array(
                    [*key[:4], (m.br + m.rw - m.wr) / (m.br + m.rw + m.wr)]),
                    "phi_e divides by all T pairs (BW included); leaving BW out gives xi_e."),
                Mistake("alpha without BW", np.array(
                    [key[0], (m.br + m.rw) / m.n_pairs, *key[2:]]),
                    "The polarization subtracts the pairs both get wrong: alpha = (BR + RW - "
                    "BW) / T."),
                Mistake("sigma_c without BW", np.array(
                    [(m.rw - m.wr) / (m.br + m.rw + m.wr), *key[1:]]),
                    "sigma_c divides RW - WR by the pairs where the two disagree, RW + WR: "
                    "BR must go from the denominator too, not only BW."),
                Mistake("phi_e without BR", np.array(
                    [*key[:4], (m.rw - m.wr) / m.n_pairs]),
                    "phi_e counts A's right pairs, BR + RW, less B's wins WR: (BR + RW - WR) "
                    "/ T."),
                Mistake("self-pairs", _five(m.br + len(self.truth), m.rw, m.wr, m.bw),
                        "Your counts include each instance paired with itself (N more pairs "
                        "both right); only pairs of two different instances count, "
                        "T = N (N - 1) / 2."),
                Mistake("BR and BW swapped", _five(m.bw, m.rw, m.wr, m.br),
                        "Your BR and BW are swapped: BR counts the pairs both algorithms get "
                        "right, BW those both get wrong."),
                Mistake("together for right", _five(*_together_counts(self)),
                        "Your counts are of the pairs each clustering puts *together*. A pair "
                        "is right for an algorithm when it agrees with the truth: together in "
                        "both, or apart in both."),
                Mistake("right only when together", _five(*_together_right_counts(self)),
                        "Your counts take a pair as right only when the algorithm and the "
                        "truth both put it together; a pair both keep apart is right too."),
                Mistake("right only when apart", _five(*_apart_right_counts(self)),
                        "Your counts take a pair as right only when the algorithm and the "
                        "truth both keep it apart; a pair both put together is right too."),
                Mistake("alpha with WR for BW", np.array([key[0], key[4], *key[2:]]),
                        "Your alpha subtracts WR (that is phi_e); the polarization subtracts "
                        "the pairs both get wrong: alpha = (BR + RW - BW) / T."),
                Mistake("phi_e with BW for WR", np.array([*key[:4], key[1]]),
                        "Your phi_e subtracts BW (that is alpha); effective superiority "
                        "subtracts B's wins: phi_e = (BR + RW - WR) / T."),
                Mistake("alpha with BR on top", np.array(
                    [key[0], (m.br - m.bw) / m.n_pairs, *key[2:]]),
                    "Your alpha counts only BR as A's right pairs; the polarization counts "
                    "every pair A gets right, BR + RW, less BW, over T."),
                Mistake("right and wrong exchanged", _five(m.bw, m.wr, m.rw, m.br),
                        "Your counts take the pairs an algorithm gets *wrong* as right. A "
                        "pair is right for an algorithm when it agrees with the truth on "
                        "'together or apart'."),
                Mistake("xi_c with BR on top", np.array(
                    [key[0], key[1], m.br / (m.br + m.rw + m.wr), *key[3:]]),
                    "Your xi_c counts only BR on top; comparative rightness counts every pair "
                    "A gets right, BR + RW, over BR + RW + WR."),
                Mistake("phi_e without BR in T", np.array(
                    [*key[:4], (m.br + m.rw - m.wr) / (m.rw + m.wr + m.bw)]),
                    "Your phi_e leaves BR out of the denominator; effective superiority "
                    "divides by all T = BR + RW + WR + BW pairs."),
                Mistake("RW for BR + RW", np.array([
                    key[0], (m.rw - m.bw) / m.n_pairs, m.rw / (m.rw + m.wr),
                    (m.rw - m.wr) / (m.rw + m.wr), (m.rw - m.wr) / m.n_pairs]),
                    "You counted only RW as A's right pairs; A is right on BR + RW pairs "
                    "(both right included) in alpha, xi_c, xi_e and phi_e.")]

    def acceptable(self):
        m = _m(self)
        return super().acceptable() and m.rw != m.wr

    def explain(self, d):
        d.extend(_m(self).derivation())


class PrayatulReading(ChoiceQuestion):
    qid, title, dataset = "06.3", "reading the measures", "prayatul_small"
    hints = ("sigma_c looks only at the pairs where exactly one algorithm is right.",
             "A is right on BR + RW pairs, B on BR + WR pairs, out of T.")

    def describe(self, d):
        _describe_small(self, d)
        d.text("What do the Prayatul matrix and its measures say? Which statements are true?")
        self.describe_options(d)

    def statements(self):
        m = _m(self)
        br, rw, wr, bw, t = m.br, m.rw, m.wr, m.bw, m.n_pairs
        return [
            ("On the pairs where they disagree, A is more often right than B "
             "(sigma_c > 0).", rw > wr, "Compare RW with WR."),
            ("A is right on more than half of all the pairs.", br + rw > t / 2,
             "A is right on BR + RW of the T pairs."),
            ("B is right on more than half of all the pairs.", br + wr > t / 2,
             "B is right on BR + WR of the T pairs."),
            ("There are pairs that neither algorithm gets right.", bw > 0, "Look at BW."),
            ("Of the pairs at least one algorithm gets right, A gets at least 80% right "
             "(xi_c >= 0.8).", (br + rw) >= 0.8 * (br + rw + wr), "Compute xi_c."),
            ("The polarization is positive: A's right decisions outnumber the pairs both get "
             "wrong.", br + rw > bw, "Compare BR + RW with BW."),
        ]

    def explain_choice(self, d):
        d.extend(_m(self).derivation())


class PrayatulRelabel(ChoiceQuestion):
    qid, title, dataset = "06.4", "label names do not matter", "none"
    hints = ("Which question does the Prayatul matrix ask about a pair?",
             "Renaming clusters changes no answer to 'are i and j together?'.")

    def describe(self, d):
        d.text("Algorithm B' is algorithm B with its cluster labels renamed (1 -> 3, 3 -> 1). "
               "Which statements are true?")
        self.describe_options(d)

    def statements(self):
        return [
            ("The Prayatul matrix of A against B' equals that of A against B.", True,
             "A pair is right when 'together or apart' agrees with the truth: does renaming "
             "change that?"),
            ("The Prayatul matrix of B against B' has RW = WR = 0.", True,
             "B and B' group the instances identically: can one be right where the other "
             "is wrong?"),
            ("Comparing labels instance by instance (accuracy) would score B and B' "
             "differently.", True, "Count how many labels change."),
            ("The truth must use the same label names as the clusterings.", False,
             "Only equality of labels within one labelling is ever used."),
            ("BR + RW + WR + BW depends on the number of clusters.", False,
             "Every one of the N (N - 1) / 2 pairs falls in exactly one cell."),
        ]
