"""Notebook 03: pair counting.

The tutorial's Exercise 3 (ideal similarity matrices, f00 f01 f10 f11, Rand and
Jaccard on the first five examples of Exercise 2) and a new question: the Rand
index against the adjusted Rand index on the full ten examples.
"""
from __future__ import annotations

import numpy as np

from .. import (adjusted_rand_index, hubert_statistic, jaccard_index, pair_confusion,
                rand_index)
from ._base import Mistake
from .kinds import NumbersQuestion, TableQuestion
from .matching import describe_exercise_2

__all__ = ["IdealClusterMatrix", "PairCounts", "RandJaccard", "RandVsARI"]


def _ideal(labels):
    labels = np.asarray(labels)
    return (labels[:, None] == labels[None, :]).astype(int)


class IdealClusterMatrix(TableQuestion):
    qid, title, dataset = "03.1", "the ideal cluster similarity matrix", "exercise_3"
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
                        "clusters.")]

    def acceptable(self):
        # a variant also needs pairs together in a cluster, so the matrix is not trivial
        return super().acceptable() and self.compute_key().sum() > len(self.clusters)

    def explain(self, d):
        d.extend(hubert_statistic(self.classes, self.clusters).derivation())


class PairCounts(NumbersQuestion):
    qid, title, dataset = "03.2", "f00, f01, f10, f11", "exercise_3"
    parts = ("f00", "f01", "f10", "f11")
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
                Mistake("f00 and f11 swapped", k[[3, 1, 2, 0]],
                        "f00 and f11 are swapped: f11 counts the pairs together in both "
                        "(same class and same cluster), f00 those apart in both."),
                Mistake("self-pairs", k + np.array([0, 0, 0, n]),
                        "You counted each example paired with itself; only pairs of two "
                        "different examples count.")]

    def acceptable(self):
        return super().acceptable() and self.compute_key()[3] > 0

    def explain(self, d):
        d.extend(pair_confusion(self.classes, self.clusters).derivation())


class RandJaccard(NumbersQuestion):
    qid, title, dataset = "03.3", "Rand statistic and Jaccard coefficient", \
        "exercise_3"
    parts = ("Rand", "Jaccard")
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
        return [Mistake("Jaccard with f00", np.array([rand, pc.tp / total]),
                        "Jaccard leaves f00 out of the denominator: f11 / (f01 + f10 + f11)."),
                Mistake("Rand without f00", np.array([pc.tp / total, jac]),
                        "The Rand statistic counts the agreements of both kinds: f00 + f11 "
                        "in the numerator.")]

    def explain(self, d):
        d.extend(rand_index(self.classes, self.clusters).derivation())
        d.extend(jaccard_index(self.classes, self.clusters).derivation())


class RandVsARI(NumbersQuestion):
    qid, title, dataset = "03.4", "Rand vs adjusted Rand (all ten examples)", \
        "exercise_2"
    parts = ("Rand", "ARI")
    hints = ("Start from the contingency table of the ten examples.",
             "ARI = (sum_ij C(n_ij,2) - E) / ((sum_i C(n_i,2) + sum_j C(m_j,2)) / 2 - E) with "
             "E = sum_i C(n_i,2) sum_j C(m_j,2) / C(n,2).",
             "A clustering no better than chance has ARI near 0, even when its Rand is high.")

    def describe(self, d):
        d.text("Now all ten examples of Exercise 2:")
        describe_exercise_2(self, d)
        d.text("Compute the Rand index and the adjusted Rand index (ARI). Which one tells you "
               "that this clustering is about as good as chance?")

    def compute_key(self):
        return np.array([float(rand_index(self.classes, self.clusters)),
                         float(adjusted_rand_index(self.classes, self.clusters))])

    def mistakes(self):
        rand = self.compute_key()[0]
        return [Mistake("ARI = Rand", np.array([rand, rand]),
                        "The ARI subtracts the Rand index expected by chance and rescales; "
                        "it is not the Rand index.")]

    def explain(self, d):
        d.extend(rand_index(self.classes, self.clusters).derivation())
        d.extend(adjusted_rand_index(self.classes, self.clusters).derivation())
