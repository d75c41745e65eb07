"""Notebook 03: pair counting.

The tutorial's Exercise 3 (ideal similarity matrices, f00 f01 f10 f11, Rand and
Jaccard on the first five examples of Exercise 2) and a new question: the Rand
index against the adjusted Rand index on the full ten examples.
"""
from __future__ import annotations

import numpy as np

from .. import (adjusted_mutual_information, adjusted_rand_index, contingency_table,
                fowlkes_mallows_index, jaccard_index, normalized_mutual_information,
                pair_confusion, rand_index)
from ..steps import fmt
from ._base import InvalidAnswer, Mistake
from .kinds import FunctionQuestion, NumbersQuestion, TableQuestion
from .matching import describe_exercise_2

__all__ = ["IdealClusterMatrix", "PairCounts", "RandJaccard", "RandVsARI"]


def _ideal(labels):
    labels = np.asarray(labels)
    return (labels[:, None] == labels[None, :]).astype(int)


class IdealClusterMatrix(TableQuestion):
    qid, title, dataset = "03.1", "the ideal cluster similarity matrix", "exercise_3"
    asked = "ideal cluster similarity matrix (x1..x5)"
    ties_named = True
    hints = ("Entry (i, j) is 1 when x_i and x_j are in the same cluster, 0 otherwise.",
             "Every example is in the same cluster as itself: the diagonal is 1.")

    def describe(self, d):
        d.text("Five examples:")
        describe_exercise_2(self, d)
        d.text("Write down the 5 x 5 ideal **cluster** similarity matrix.")

    def compute_key(self):
        return _ideal(self.clusters)

    def mistakes(self):
        zero_diag = self.compute_key().copy()
        np.fill_diagonal(zero_diag, 0)
        return [Mistake("zero diagonal", zero_diag,
                        "Each example is in the same cluster as itself: the diagonal is 1."),
                Mistake("class matrix", _ideal(self.classes),
                        "That is the ideal *class* similarity matrix; this one uses the "
                        "clusters."),
                Mistake("0 and 1 exchanged", 1 - self.compute_key(),
                        "Your 1s mark pairs in *different* clusters; the similarity matrix has "
                        "1 where x_i and x_j share a cluster (the diagonal included)."),
                Mistake("agreement matrix", (_ideal(self.classes) == self.compute_key()
                                             ).astype(int),
                        "Your 1s mark the pairs on which class and cluster agree (together in "
                        "both or apart in both), as the Rand index counts them; the cluster "
                        "similarity matrix looks at the clusters alone."),
                Mistake("together in both", _ideal(self.classes) * self.compute_key(),
                        "Your 1s mark the pairs together in a class *and* in a cluster (f11); "
                        "the cluster similarity matrix has 1 wherever x_i and x_j share a "
                        "cluster, whatever their classes."),
                Mistake("together in either", _ideal(self.classes) | self.compute_key(),
                        "Your 1s mark the pairs together in a class *or* in a cluster; the "
                        "cluster similarity matrix has 1 only where x_i and x_j share a "
                        "cluster, whatever their classes."),
                *[Mistake(name, part(self.compute_key()), message) for name, part, message in (
                    ("upper triangle only", np.triu,
                     "You filled in the upper triangle (and the diagonal) only; the matrix is "
                     "symmetric: entry (j, i) is entry (i, j), so the 1s below the diagonal "
                     "are there too."),
                    ("strict upper triangle", lambda c: np.triu(c, 1),
                     "You filled in the pairs i < j only; the matrix is symmetric (entry "
                     "(j, i) is entry (i, j)) and its diagonal is 1: every example is in the "
                     "same cluster as itself."),
                    ("lower triangle only", np.tril,
                     "You filled in the lower triangle (and the diagonal) only; the matrix is "
                     "symmetric: entry (i, j) is entry (j, i), so the 1s above the diagonal "
                     "are there too."),
                    ("strict lower triangle", lambda c: np.tril(c, -1),
                     "You filled in the pairs i > j only; the matrix is symmetric (entry "
                     "(i, j) is entry (j, i)) and its diagonal is 1: every example is in the "
                     "same cluster as itself."),
                    ("identity", lambda c: np.eye(len(c), dtype=int),
                     "Your matrix has 1 on the diagonal only; entry (i, j) is 1 for every pair "
                     "x_i, x_j in the same cluster, not only for an example with itself."))]]

    def shape_note(self, shape) -> str:
        n, k = len(self.clusters), len(np.unique(self.clusters))
        if len(shape) == 2 and k != n and tuple(shape) in ((k, n), (n, k)):
            per = "row" if shape[1] == n else "column"
            return (f"; a {shape[0]} x {shape[1]} table has one {per} per cluster (a "
                    f"membership matrix): the similarity matrix is {n} x {n}, one row and "
                    "one column per example, entry (i, j) 1 when x_i and x_j share a cluster")
        return super().shape_note(shape)

    def acceptable(self):
        # a variant also needs pairs together in a cluster, so the matrix is not trivial
        return super().acceptable() and self.compute_key().sum() > len(self.clusters)

    def explain(self, d):
        labels = np.asarray(self.clusters)
        groups = ["{" + ", ".join(f"x{i + 1}" for i in np.flatnonzero(labels == c)) + "}"
                  for c in np.unique(labels)]
        d.text(f"The clusters are {', '.join(groups)}. Entry (a, b) is 1 when x_a and x_b are "
               "in the same cluster (every example with itself too: the diagonal is 1), and 0 "
               "otherwise; the matrix is symmetric.")


class PairCounts(NumbersQuestion):
    qid, title, dataset = "03.2", "f00, f01, f10, f11", "exercise_3"
    parts = ("f00", "f01", "f10", "f11")
    ties_named = True
    hints = ("List the 10 unordered pairs {x_i, x_j}, i < j.",
             "f01: different class but same cluster; f10: same class but different cluster.",
             "The four counts add up to n (n - 1) / 2 = 10.")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Count the pairs: $f_{00}$ (different class, different cluster), $f_{01}$ "
               "(different class, same cluster), $f_{10}$ (same class, different cluster), "
               "$f_{11}$ (same class, same cluster).")

    def compute_key(self):
        pc = pair_confusion(self.classes, self.clusters)
        return np.array([pc.tn, pc.fp, pc.fn, pc.tp], dtype=float)

    def mistakes(self):
        k = self.compute_key()
        n = len(self.classes)
        return [Mistake("ordered pairs", 2 * k,
                        "You counted ordered pairs (i, j) and (j, i) separately; a pair is "
                        "unordered: n (n - 1) / 2 of them."),
                Mistake("f01 and f10 swapped", k[[0, 2, 1, 3]],
                        "f01 and f10 are swapped: the first index is the class, the second the "
                        "cluster (f01 = different class, same cluster)."),
                Mistake("f00 and f01 swapped", k[[1, 0, 2, 3]],
                        "f00 and f01 are swapped: f00 counts the pairs apart in both, f01 "
                        "those in different classes but the same cluster."),
                Mistake("fractions of the pairs", k / k.sum(),
                        "Those are fractions of all pairs; f00 ... f11 are counts of pairs."),
                Mistake("f00 and f11 swapped", k[[3, 1, 2, 0]],
                        "f00 and f11 are swapped: f11 counts the pairs together in both "
                        "(same class and same cluster), f00 those apart in both."),
                Mistake("self-pairs", k + np.array([0, 0, 0, n]),
                        "You counted each example paired with itself; only pairs of two "
                        "different examples count."),
                Mistake("all n x n pairs", 2 * k + np.array([0, 0, 0, n]),
                        "You counted all n x n ordered pairs, each example with itself "
                        "included; count the n (n - 1) / 2 pairs of two different examples "
                        "once each."),
                Mistake("f00 and f10 swapped", k[[2, 1, 0, 3]],
                        "f00 and f10 are swapped: f00 counts the pairs apart in both, f10 "
                        "those in the same class but different clusters."),
                Mistake("reversed order", k[::-1],
                        "You gave the counts in reverse order (f11, f10, f01, f00); the "
                        "question asks for f00, f01, f10, f11."),
                Mistake("ordered pairs, f01 and f10 swapped", 2 * k[[0, 2, 1, 3]],
                        "You counted ordered pairs (each pair twice) with classes and "
                        "clusters exchanged; a pair is unordered, and f01 is different "
                        "class, same cluster."),
                Mistake("f00 as all pairs but f11", np.array([k.sum() - k[3], k[1], k[2],
                                                              k[3]]),
                        "Your f00 counts every pair not together in both; f00 is the pairs "
                        "apart in both (different class *and* different cluster), f01 and "
                        "f10 are not part of it."),
                Mistake("f01 and f10 with f11 in them", np.array([k[0], k[1] + k[3],
                                                                  k[2] + k[3], k[3]]),
                        "Your f01 counts every pair in the same cluster and f10 every pair in "
                        "the same class; f01 takes only those in *different* classes and f10 "
                        "only those in *different* clusters (the pairs together in both are "
                        "f11).")]

    def acceptable(self):
        return super().acceptable() and self.compute_key()[3] > 0

    def explain(self, d):
        d.extend(pair_confusion(self.classes, self.clusters).derivation())


class RandJaccard(NumbersQuestion):
    qid, title, dataset = "03.3", "Rand statistic and Jaccard coefficient", \
        "exercise_3"
    parts = ("Rand", "Jaccard")
    ties_named = True
    hints = ("Rand = (f00 + f11) / (f00 + f01 + f10 + f11).",
             "Jaccard = f11 / (f01 + f10 + f11): the pairs that are apart in both do not count.")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Compute the Rand statistic and the Jaccard coefficient.")

    def compute_key(self):
        return np.array([float(rand_index(self.classes, self.clusters)),
                         float(jaccard_index(self.classes, self.clusters))])

    def mistakes(self):
        pc = pair_confusion(self.classes, self.clusters)
        rand, jac = self.compute_key()
        total = pc.tn + pc.fp + pc.fn + pc.tp
        n = len(self.classes)
        ari = float(adjusted_rand_index(self.classes, self.clusters))
        return [Mistake("Jaccard with f00", np.array([rand, pc.tp / total]),
                        "Jaccard leaves f00 out of the denominator: f11 / (f01 + f10 + f11)."),
                Mistake("Rand without f00", np.array([pc.tp / total, jac]),
                        "The Rand statistic counts the agreements of both kinds: f00 + f11 "
                        "in the numerator."),
                Mistake("self-pairs", np.array([(pc.tn + pc.tp + n) / (total + n),
                                                (pc.tp + n) / (pc.fp + pc.fn + pc.tp + n)]),
                        "Your counts include each example paired with itself (n more pairs "
                        "together in both); only pairs of two different examples count."),
                Mistake("all n x n pairs", np.array(
                            [(2 * (pc.tn + pc.tp) + n) / (2 * total + n),
                             (2 * pc.tp + n) / (2 * (pc.fp + pc.fn + pc.tp) + n)]),
                        "Your counts come from all n x n ordered pairs, each example with "
                        "itself included; count the n (n - 1) / 2 pairs of two different "
                        "examples."),
                *([Mistake("Jaccard without f11 below", np.array(
                      [rand, pc.tp / (pc.fp + pc.fn)]),
                      "Your Jaccard leaves f11 out of its denominator; Jaccard = f11 / (f01 "
                      "+ f10 + f11).")] if pc.fp + pc.fn else []),
                Mistake("Jaccard = Rand", np.array([rand, rand]),
                        "Your Jaccard is the Rand statistic; Jaccard leaves the pairs apart "
                        "in both (f00) out: f11 / (f01 + f10 + f11)."),
                Mistake("Jaccard without f10", np.array([rand, pc.tp / (pc.tp + pc.fp)]),
                        "Your Jaccard leaves f10 out of the denominator (it is the pairs' "
                        "precision); Jaccard = f11 / (f01 + f10 + f11)."),
                Mistake("Jaccard without f01", np.array([rand, pc.tp / (pc.tp + pc.fn)]),
                        "Your Jaccard leaves f01 out of the denominator (it is the pairs' "
                        "recall); Jaccard = f11 / (f01 + f10 + f11)."),
                Mistake("Fowlkes-Mallows", np.array([rand, pc.tp / np.sqrt(
                            (pc.tp + pc.fp) * (pc.tp + pc.fn))]),
                        "That is the Fowlkes-Mallows index f11 / sqrt((f11 + f01)(f11 + f10)); "
                        "Jaccard = f11 / (f01 + f10 + f11)."),
                Mistake("Rand over n^2", np.array([(pc.tn + pc.tp) / n ** 2, jac]),
                        "Your Rand divides by n^2; the number of pairs is n (n - 1) / 2 (the "
                        "four counts added up)."),
                Mistake("1 - Rand", np.array([1 - rand, jac]),
                        "Your Rand is 1 - Rand, the share of pairs on which the two "
                        "labellings *disagree* (f01 + f10); Rand counts the agreements: "
                        "(f00 + f11) / all pairs."),
                Mistake("1 - Jaccard", np.array([rand, 1 - jac]),
                        "Your Jaccard is 1 - Jaccard, (f01 + f10) / (f01 + f10 + f11): the "
                        "disagreements; Jaccard counts the pairs together in both, f11 / "
                        "(f01 + f10 + f11)."),
                Mistake("Rand without f11", np.array([pc.tn / total, jac]),
                        "Your Rand counts only the pairs apart in both (f00) as agreements; "
                        "the pairs together in both agree too: Rand = (f00 + f11) / all "
                        "pairs."),
                Mistake("f01 and f10 with f11 in them", np.array(
                            [(pc.tn + pc.tp) / (total + 2 * pc.tp),
                             pc.tp / (pc.fp + pc.fn + 3 * pc.tp)]),
                        "Your f01 counts every pair in the same cluster and your f10 every "
                        "pair in the same class, so the pairs together in both are counted "
                        "three times below; f01 takes only those in *different* classes, "
                        "f10 only those in *different* clusters."),
                *([Mistake("ARI for Rand", np.array([ari, jac]),
                           "That is the adjusted Rand index (ARI), which subtracts the Rand "
                           "expected by chance; the Rand statistic itself is (f00 + f11) / "
                           "all pairs.")] if np.isfinite(ari) else [])]

    def explain(self, d):
        d.extend(rand_index(self.classes, self.clusters).derivation())
        d.extend(jaccard_index(self.classes, self.clusters).derivation())


#: 03.4's conceptual part: which number compares the clustering with chance.
WHICH = {
    "A": ("The Rand index: a random clustering scores 0 on it.", False,
          "The Rand index of a random clustering is not 0: with several clusters most pairs "
          "are apart in both, so chance alone gives a high Rand. Only an adjusted index "
          "subtracts what chance gives."),
    "B": ("The ARI: a random clustering with these cluster and class sizes scores 0 on it "
          "on average.", True, ""),
    "C": ("Both: each of them is 0 for a random clustering.", False,
          "Not both: the Rand index is not 0 for a random clustering; its chance value "
          "is high (most pairs are apart in both); the ARI subtracts that expected value."),
}


class RandVsARI(NumbersQuestion):
    qid, title, dataset = "03.4", "Rand vs adjusted Rand (all ten examples)", \
        "exercise_2"
    parts = ("Rand", "ARI", "which")
    ties_named = True
    hints = ("Start from the contingency table n_ij of the ten examples (rows clusters, "
             "columns classes) and its sums n_i, m_j: f11 = sum_ij C(n_ij, 2) pairs are "
             "together in both, sum_i C(n_i, 2) together in a cluster, sum_j C(m_j, 2) in a "
             "class, out of C(10, 2) = 45 pairs. Rand = (f00 + f11) / 45, as in 03.3.",
             "ARI = (sum_ij C(n_ij,2) - E) / ((sum_i C(n_i,2) + sum_j C(m_j,2)) / 2 - E) with "
             "E = sum_i C(n_i,2) sum_j C(m_j,2) / C(n,2).",
             "What does a clustering no better than chance score on each? Think of the pairs "
             "that are apart in both: with three clusters they are most pairs.")

    def describe(self, d):
        d.text(self.ours("Now all ten examples of Exercise 2:", "Now all ten examples of "
                         "your data (the data of 01.1):"))
        describe_exercise_2(self, d)
        d.text("Compute the Rand index and the adjusted Rand index (ARI). Then **which** one "
               "tells you how this clustering compares with chance (0 = no better than a "
               "random clustering)? Pick a letter:")
        d.table(["", "statement"], [[letter, text] for letter, (text, _, _) in WHICH.items()])

    def answer_format(self) -> str:
        return ("Answer: Rand, ARI and the letter of your choice, as a list "
                "[Rand, ARI, letter] (or a dict with the names Rand, ARI, which).")

    def _numbers(self):
        return (float(rand_index(self.classes, self.clusters)),
                float(adjusted_rand_index(self.classes, self.clusters)))

    def compute_key(self):
        # the letter compares as its position (A = 0), entry by entry with the numbers
        return [*self._numbers(), self._true_letter()]

    @staticmethod
    def _true_letter():
        return next(letter for letter, (_, true, _) in WHICH.items() if true)

    def read(self, answer):
        if isinstance(answer, dict) and set(answer) != {"unreadable"}:
            missing = [p for p in self.parts if p not in answer]
            if missing:
                raise InvalidAnswer(f"answer: missing {', '.join(missing)}")
            answer = [answer[p] for p in self.parts]
        if isinstance(answer, (list, tuple, np.ndarray)) and len(answer) == 3:
            letter = answer[2]
            if not (isinstance(letter, str) and letter.strip().upper() in WHICH):
                raise InvalidAnswer(f"which: expected the letter of a statement "
                                    f"({', '.join(WHICH)}), got {letter!r}")
            numbers = super().read([*list(answer)[:2], 0])
            return np.array([numbers[0], numbers[1], _code(letter.strip().upper())])
        if isinstance(answer, (list, tuple, np.ndarray)):
            raise InvalidAnswer(f"answer: expected 3 parts [Rand, ARI, letter], got "
                                f"{len(answer)}")
        if isinstance(answer, dict):
            return super().read(answer)             # the grader's record of an unreadable one
        raise InvalidAnswer(f"answer: expected a list [Rand, ARI, letter], got "
                            f"{type(answer).__name__}")

    def to_json(self, answer):
        value = super().to_json(answer)
        if isinstance(value, list):
            value[2] = list(WHICH)[int(value[2])]
        return value

    def mistakes(self):
        rand, ari = self._numbers()
        letter = self._true_letter()
        pc, n = pair_confusion(self.classes, self.clusters), len(self.classes)
        agree, pairs = pc.tn + pc.tp, pc.tn + pc.fp + pc.fn + pc.tp
        self_rand = (agree + n) / (pairs + n)
        all_rand = (2 * agree + n) / n ** 2
        m1, m2 = pc.tp + pc.fn, pc.tp + pc.fp          # pairs together in a class, a cluster
        hubert = (pairs * pc.tp - m1 * m2) / np.sqrt(m1 * m2 * (pairs - m1) * (pairs - m2)) \
            if 0 < m1 < pairs and 0 < m2 < pairs else 0.0
        five = np.array([float(rand_index(self.classes[:5], self.clusters[:5])),
                         float(adjusted_rand_index(self.classes[:5], self.clusters[:5]))])
        return [Mistake("ARI = Rand", [rand, rand, letter],
                        "The ARI subtracts the Rand index expected by chance and rescales; "
                        "it is not the Rand index."),
                Mistake("ARI as 2 Rand - 1", [rand, 2 * rand - 1, letter],
                        "2 Rand - 1 only stretches the Rand index to [-1, 1]; the ARI "
                        "subtracts the Rand index *expected by chance* for these cluster and "
                        "class sizes: ARI = (Rand - E[Rand]) / (1 - E[Rand])."),
                Mistake("ARI sign flipped", [rand, -ari, letter],
                        "Your ARI has its sign flipped: it is (index - expected index) / "
                        "(max index - expected index), the index found *minus* the one "
                        "expected by chance, so a clustering better than chance scores above 0."),
                Mistake("AMI for ARI", [rand, float(adjusted_mutual_information(
                            self.classes, self.clusters)), letter],
                        "That is the adjusted *mutual information* (AMI); the ARI adjusts the "
                        "pair counts of the Rand index for chance."),
                Mistake("Jaccard for ARI", [rand, float(jaccard_index(self.classes,
                                                                      self.clusters)), letter],
                        "Your ARI is the Jaccard coefficient; the ARI adjusts the Rand index "
                        "for chance: (Rand - E[Rand]) / (1 - E[Rand])."),
                Mistake("Jaccard for Rand", [float(jaccard_index(self.classes, self.clusters)),
                                             ari, letter],
                        "Your first number is the Jaccard coefficient f11 / (f01 + f10 + f11); "
                        "the Rand index also counts the pairs apart in both: (f00 + f11) / "
                        "all pairs."),
                *[Mistake(f"NMI ({average}) for ARI", [rand, float(
                      normalized_mutual_information(self.classes, self.clusters,
                                                    average=average)), letter],
                          "That is the normalised *mutual information* (NMI); the ARI adjusts "
                          "the pair counts of the Rand index for chance.")
                  for average in ("geometric", "arithmetic")],
                Mistake("Fowlkes-Mallows for ARI", [rand, float(fowlkes_mallows_index(
                            self.classes, self.clusters)), letter],
                        "That is the Fowlkes-Mallows index f11 / sqrt((f11 + f01)(f11 + "
                        "f10)); the ARI adjusts the Rand index for chance: (Rand - E[Rand]) / "
                        "(1 - E[Rand])."),
                Mistake("Hubert's statistic for ARI", [rand, hubert, letter],
                        "That is Hubert's statistic (the correlation of the two pair "
                        "indicators); the ARI is (Rand - E[Rand]) / (1 - E[Rand]) with "
                        "E[Rand] the Rand index expected by chance."),
                Mistake("Rand with self-pairs", [self_rand, ari, letter],
                        "Your Rand counts each example paired with itself (together in both); "
                        "only pairs of two different examples count, n (n - 1) / 2 of them."),
                Mistake("Rand of all n x n pairs", [all_rand, ari, letter],
                        "Your Rand counts all n x n ordered pairs, each example with itself "
                        "included; count the n (n - 1) / 2 pairs of two different examples."),
                *[Mistake(f"which: {letter}", [rand, ari, letter], why)
                  for letter, (_, true, why) in WHICH.items() if not true],
                *[Mistake(name, [rand, value, letter], message)
                  for name, value, message in self._ari_slips() if np.isfinite(value)],
                *([Mistake("first five examples", [*five, letter],
                           "Those are the Rand index and the ARI of the first five examples "
                           "(03.3's); this question takes all ten examples, C(10, 2) = 45 "
                           "pairs.")] if np.all(np.isfinite(five)) else [])]

    def _ari_slips(self) -> list[tuple[str, float, str]]:
        """The ARI by the slips of its formula: (name, value, message)."""
        counts = contingency_table(self.classes, self.clusters).counts.astype(float)
        n = counts.sum()

        def c2(x):
            return x * (x - 1) / 2
        index, a, b, pairs = c2(counts).sum(), c2(counts.sum(1)).sum(), \
            c2(counts.sum(0)).sum(), c2(n)
        expected = a * b / pairs
        # ordered pairs with the self-pairs: n_ij^2 for C(n_ij, 2), n^2 for C(n, 2)
        sq_index, sq_a, sq_b = (counts ** 2).sum(), (counts.sum(1) ** 2).sum(), \
            (counts.sum(0) ** 2).sum()
        sq_expected = sq_a * sq_b / n ** 2

        def ratio(top, below):
            return top / below if below else float("nan")
        return [
            ("ARI normalised by the larger", ratio(index - expected, max(a, b) - expected),
             "You put max(sum_i C(n_i, 2), sum_j C(m_j, 2)) below; the ARI's maximum index is "
             "their mean, (sum_i C(n_i, 2) + sum_j C(m_j, 2)) / 2."),
            ("ARI normalised by the smaller", ratio(index - expected, min(a, b) - expected),
             "You put min(sum_i C(n_i, 2), sum_j C(m_j, 2)) below; the ARI's maximum index is "
             "their mean, (sum_i C(n_i, 2) + sum_j C(m_j, 2)) / 2."),
            ("ARI on ordered pairs with self-pairs", ratio(
                sq_index - sq_expected, (sq_a + sq_b) / 2 - sq_expected),
             "You counted n_ij^2 (all ordered pairs, each example with itself) instead of "
             "C(n_ij, 2); the ARI counts unordered pairs of two different examples: "
             "C(n_ij, 2), C(n_i, 2), C(m_j, 2) and C(n, 2)."),
            ("ARI without the expected index", ratio(index, (a + b) / 2),
             "You left out the expected index E = sum_i C(n_i, 2) sum_j C(m_j, 2) / C(n, 2); "
             "the ARI subtracts it above and below: (index - E) / (max index - E)."),
            ("E over n (n - 1)", ratio(index - expected / 2, (a + b) / 2 - expected / 2),
             "Your expected index divides by n (n - 1), not C(n, 2) = n (n - 1) / 2, so it "
             "is half of E = sum_i C(n_i, 2) sum_j C(m_j, 2) / C(n, 2)."),
            ("E not divided by C(n, 2)", ratio(index - a * b, (a + b) / 2 - a * b),
             "Your expected index is sum_i C(n_i, 2) sum_j C(m_j, 2) alone; E divides it by "
             "the number of pairs, C(n, 2)."),
            ("max index as all pairs", ratio(index - expected, pairs - expected),
             "You took all C(n, 2) pairs as the maximum index; the ARI's maximum index is "
             "(sum_i C(n_i, 2) + sum_j C(m_j, 2)) / 2."),
        ]

    def explain(self, d):
        rand, ari = self._numbers()
        d.extend(rand_index(self.classes, self.clusters).derivation())
        d.extend(adjusted_rand_index(self.classes, self.clusters).derivation())
        d.text(f"Which one: {self._true_letter()}. A random clustering with these sizes has "
               "an ARI of 0 on average, whatever the sizes; its Rand index is high (most "
               f"pairs are apart in both). Here ARI = {fmt(ari)}: "
               + ("about as good as chance" if abs(ari) < 0.1 else
                  "better than chance" if ari > 0 else "worse than chance")
               + f", although Rand = {fmt(rand)}.")


def _code(letter: str) -> float:
    return float(ord(letter) - ord("A"))          # as _base.numeric reads a letter


# ------------------------------------------------------- 03.5: the answer is a function
def _counts(truth, pred) -> tuple:
    """The library's (TP, FP, FN, TN) as plain numbers (the reference)."""
    pc = pair_confusion(truth, pred)
    return (pc.tp, pc.fp, pc.fn, pc.tn)


def _ordered_pairs(truth, pred) -> tuple:
    """The slip: (a, b) and (b, a) counted apart: every count doubled."""
    return tuple(2 * x for x in _counts(truth, pred))


def _self_pairs(truth, pred) -> tuple:
    """The slip: pairs a <= b, each instance with itself too (same class, same cluster)."""
    tp, fp, fn, tn = _counts(truth, pred)
    return (tp + len(truth), fp, fn, tn)


def _all_n_squared(truth, pred) -> tuple:
    """The slip: all N^2 pairs (a, b), ordered and with the self-pairs."""
    tp, fp, fn, tn = _ordered_pairs(truth, pred)
    return (tp + len(truth), fp, fn, tn)


def _fp_fn_swapped(truth, pred) -> tuple:
    """The slip: "same class" and "same cluster" confused: FP and FN swapped."""
    tp, fp, fn, tn = _counts(truth, pred)
    return (tp, fn, fp, tn)


class PairCountsFunction(FunctionQuestion):
    qid, title, dataset = "03.5", "write pair_counts(truth, pred)", "exercise_2"
    signature = "pair_counts(truth, pred)"
    returns = ("TP", "FP", "FN", "TN")
    asked = "(TP, FP, FN, TN)"
    points = 2.0
    hints = ("Go through the unordered pairs {x_a, x_b} with a < b: N (N - 1) / 2 of them, "
             "each instance never paired with itself.",
             "For each pair ask: same class (truth)? same cluster (pred)? TP: both; FP: same "
             "cluster only; FN: same class only; TN: neither.",
             "The four counts add up to N (N - 1) / 2. The labels can be any values (0, 5, 7 "
             "as well as 1, 2, 3): compare them, never assume 1..k.")

    def describe(self, d):
        d.text("Write a function `pair_counts(truth, pred)` (the library's argument order: the "
               "classes first, then the clusters) that returns the four pair counts "
               "`(TP, FP, FN, TN)` in this order (the lecture's) over the unordered pairs "
               "$\\{x_a, x_b\\}$, $a < b$: TP same class and same cluster, FP different "
               "class but same cluster, FN same class but different cluster, TN different "
               "class and different cluster. Both arguments are arrays of labels of "
               "the same length (any labels: 0, 5, 7 as well as 1, 2, 3). Write it "
               "yourself, without the library's `pair_confusion`.")
        d.text(self.ours("`check(pair_counts)` runs it on the ten examples of Exercise 2 "
                         "below and on a few small cases; when graded it also runs on hidden "
                         "cases.",
                         "`check(pair_counts)` runs it on the ten examples of your data (the "
                         "data of 01.1) below and on a few small cases; when graded it also "
                         "runs on hidden cases."))
        describe_exercise_2(self, d)

    def shown_case(self):
        return {"truth": self.classes.tolist(), "pred": self.clusters.tolist()}

    def small_cases(self):
        # each tells some slips apart: FP != FN, TP > 0 and TN > 0, labels not 1..k
        return [{"truth": [1, 1, 2, 2], "pred": [1, 1, 1, 2]},
                {"truth": [1, 1, 2], "pred": [1, 2, 2]},
                {"truth": [0, 0, 0, 1, 1], "pred": [5, 5, 7, 7, 7]},
                {"truth": [1, 2, 3, 4], "pred": [1, 1, 1, 1]},
                {"truth": [1, 1, 1, 1], "pred": [1, 2, 3, 4]}]

    def hidden_case(self, rng):
        n = int(rng.integers(6, 16))
        return {"truth": rng.integers(0, int(rng.integers(2, 5)), n),
                "pred": rng.integers(1, int(rng.integers(2, 6)), n) * 4}

    def compute_key(self, cases=None):
        return self.outputs(_counts, cases)

    def mistakes(self, cases=None):
        return [Mistake("ordered pairs", self.outputs(_ordered_pairs, cases),
                        "Your function counts ordered pairs: (a, b) and (b, a) apart, so "
                        "every count is twice the lecture's (scikit-learn's "
                        "`pair_confusion_matrix` does this). A pair is unordered: take "
                        "a < b only, N (N - 1) / 2 pairs."),
                Mistake("self-pairs", self.outputs(_self_pairs, cases),
                        "Your function pairs each instance with itself (a <= b): those N "
                        "pairs are all 'same class, same cluster' and inflate TP by N. Only "
                        "pairs of two different instances count (a < b)."),
                Mistake("N^2 pairs", self.outputs(_all_n_squared, cases),
                        "Your function counts all N^2 pairs (a, b): ordered, and each "
                        "instance with itself, so the counts add up to N^2. The lecture "
                        "counts unordered pairs of two different instances: a < b, "
                        "N (N - 1) / 2 of them."),
                Mistake("FP and FN swapped", self.outputs(_fp_fn_swapped, cases),
                        "FP and FN are swapped: FP is *different class, same cluster* (the "
                        "clustering joins what the truth separates), FN *same class, "
                        "different cluster*. Check which argument is the truth.")]

    def explain(self, d):
        d.text("One way: every unordered pair a < b once, asked both questions:")
        d.text("```python\ndef pair_counts(truth, pred):\n"
               "    tp = fp = fn = tn = 0\n"
               "    n = len(truth)\n"
               "    for a in range(n):\n"
               "        for b in range(a + 1, n):             # unordered, a < b\n"
               "            same_class = truth[a] == truth[b]\n"
               "            same_cluster = pred[a] == pred[b]\n"
               "            if same_class and same_cluster: tp += 1\n"
               "            elif same_cluster: fp += 1\n"
               "            elif same_class: fn += 1\n"
               "            else: tn += 1\n"
               "    return tp, fp, fn, tn\n```")
        d.extend(pair_confusion(self.classes, self.clusters).derivation())


__all__ += ["PairCountsFunction"]
