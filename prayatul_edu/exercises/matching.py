"""Notebook 01: the contingency table and the matching measures.

The tutorial's Exercise 2 (confusion matrix, precision / recall / F of cluster 1
against class 3, entropy and purity of cluster 2), the lecture's purity,
maximum-matching and F examples (the 1550-instance table), and new questions:
why accuracy fails when the clusters are the classes under other names, and the
full-reference notes' clustering ratio eta = C / K and clustering error (1 minus
the accuracy of the best one-to-one mapping of clusters to classes) when C != K.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .. import (cluster_entropy, clustering_error, clustering_ratio, contingency_table,
                f_measure, labels_from_table, maximum_matching, precision_recall_f, purity)
from ..steps import fmt, frac
from ._base import Mistake, apart, table_rows
from ._data import f_scores, greedy_matched, matched_by, row_by_row_matched
from .kinds import (ChoiceQuestion, FunctionQuestion, NumberQuestion, NumbersQuestion,
                    TableQuestion)

__all__ = ["ConfusionMatrix", "PrecisionRecallF", "ClusterEntropy", "ClusterPurity",
           "LecturePurity", "LectureMaximumMatching", "LectureF", "AccuracyPermutation",
           "ClusteringRatio", "ClusteringError"]


def _ex2_table(q):
    return contingency_table(q.classes, q.clusters)


def _bits(counts) -> float:
    """The entropy in bits of the shares of ``counts`` (empty cells add nothing)."""
    p = np.asarray(counts, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log2(p)).sum())


def _one_to_one(n) -> tuple[int, ...]:
    """The column matched to each row by the best one-to-one matching of a square table
    (the first best in the order of ``itertools.permutations``)."""
    n = np.asarray(n)
    rows = range(len(n))
    return max(itertools.permutations(range(n.shape[1]), len(n)),
               key=lambda cols: sum(n[i, c] for i, c in zip(rows, cols)))


def describe_exercise_2(q, d):
    d.table(["example", "class", "cluster"],
            [[f"x{i + 1}", int(t), int(c)] for i, (t, c) in enumerate(zip(q.classes, q.clusters))])


def _reordered(n) -> list[Mistake]:
    """The table with its rows (or columns) in another order: one slip per order."""
    out = []
    for what, axis, names in (("rows", 0, "clusters"), ("columns", 1, "classes")):
        for order in itertools.permutations(range(n.shape[axis])):
            if order != tuple(sorted(order)):
                out.append(Mistake(
                    f"{what} in another order {order}", np.take(n, order, axis=axis),
                    f"Your {what} hold the right counts in another order: the {what} are the "
                    f"{names} in the order of their numbers (the names the data give them)."))
    return out


def _one_example_off(n) -> list[Mistake]:
    """The table with one example left out, or counted twice: one slip per cell."""
    out, total = [], int(n.sum())
    for (i, j), count in np.ndenumerate(n):
        for step, name, did in ((-1, "one example left out", "one example is missing"),
                                (1, "one example counted twice", "one example is counted "
                                 "twice")):
            if count + step >= 0:
                off = n.copy()
                off[i, j] += step
                out.append(Mistake(
                    name, off,
                    f"Your counts add up to {total + step}, not n = {total}: {did}. Go "
                    "through the examples once, adding 1 to the cell (cluster, class) of "
                    "each."))
    return out


class ConfusionMatrix(TableQuestion):
    qid, title, dataset = "01.1", "the confusion matrix", "exercise_2"
    asked = "contingency table (rows clusters, columns classes)"
    ties_named = True
    hints = ("Cell (i, j) counts the examples that are in cluster i *and* in class j.",
             "Rows are clusters C_1..C_3, columns classes T_1..T_3; every row sums to the "
             "size of its cluster, every column to the size of its class.",
             "Go through the 10 examples once and add 1 to cell (cluster, class) each time.")

    def describe(self, d):
        d.text("Ten examples, 3 classes, 3 clusters (classes and clusters are not the same):")
        describe_exercise_2(self, d)
        d.text("Write down the contingency (confusion) table $n_{ij} = |C_i \\cap T_j|$ with "
               "**rows = clusters** $C_1, C_2, C_3$ and **columns = classes** $T_1, T_2, T_3$, "
               "without totals.")

    def compute_key(self):
        return _ex2_table(self).counts

    def mistakes(self):
        return [Mistake("transposed", self.compute_key().T,
                        "Your table is transposed: rows must be the clusters C_i and columns "
                        "the classes T_j (the lecture's n_ij = |C_i ∩ T_j|). The tutorial "
                        "prints it the other way round, and so does scikit-learn."),
                Mistake("fractions instead of counts", self.compute_key() / len(self.classes),
                        "Your table holds fractions of n; n_ij counts the examples (whole "
                        "numbers)."),
                Mistake("row shares", self.compute_key() / self.compute_key().sum(
                            axis=1, keepdims=True),
                        "Your rows are shares (the precisions n_ij / n_i); the contingency "
                        "table holds the counts n_ij themselves."),
                Mistake("column shares", self.compute_key() / self.compute_key().sum(
                            axis=0, keepdims=True),
                        "Your columns are shares (the recalls n_ij / m_j); the contingency "
                        "table holds the counts n_ij themselves."),
                Mistake("percentages", 100 * self.compute_key() / len(self.classes),
                        "Your table holds percentages of n; n_ij counts the examples (whole "
                        "numbers)."),
                *_reordered(self.compute_key()), *_one_example_off(self.compute_key())]

    def explain(self, d):
        d.extend(_ex2_table(self).derivation())
        d.note("The tutorial prints the same table transposed (classes as rows).")


class PrecisionRecallF(NumbersQuestion):
    qid, title, dataset = "01.2", "precision, recall and F of cluster 1, class 3", \
        "exercise_2"
    parts = ("precision(1, 3)", "recall(1, 3)", "F(1, 3)")
    ties_named = True
    hints = ("precision(i, j) = n_ij / n_i: the share of cluster i that is class j. "
             "recall(i, j) = n_ij / m_j: the share of class j found in cluster i.",
             "The first index is the cluster, the second the class: here cluster 1 and class 3.",
             "F is the harmonic mean 2 p r / (p + r), not the arithmetic mean.")

    def describe(self, d):
        d.text("The same ten examples:")
        describe_exercise_2(self, d)
        d.text("Compute precision(1, 3), recall(1, 3) and F(1, 3), where $i$ indexes the "
               "**cluster** and $j$ the **class**.")

    def _prf(self, i, j):
        p, r, f = precision_recall_f(self.classes, self.clusters)
        return np.array([p[i, j], r[i, j], f[i, j]])

    def compute_key(self):
        return self._prf(0, 2)

    def mistakes(self):
        p, r, _ = self.compute_key()
        n13 = int(_ex2_table(self).counts[0, 2])
        return [
            Mistake("indices swapped", self._prf(2, 0),
                    "You used cluster 3 and class 1: in precision(i, j) the first index is "
                    "the cluster, the second the class (the full-reference notes write it "
                    "the other way round)."),
            Mistake("precision and recall swapped", np.array([r, p, self.compute_key()[2]]),
                    "Precision and recall are swapped: precision divides n_ij by the size "
                    "of the cluster, recall by the size of the class."),
            Mistake("arithmetic mean", np.array([p, r, (p + r) / 2]),
                    "F is the harmonic mean 2 p r / (p + r), not (p + r) / 2."),
            Mistake("recall over n", self._with_recall(n13 / len(self.classes)),
                    "Your recall divides n_13 by all n examples; recall(1, 3) divides by "
                    "the size of class 3, m_3."),
            Mistake("F without the 2", np.array([p, r, p * r / (p + r) if p + r else 0.0]),
                    "Your F lacks the factor 2: F = 2 p r / (p + r), the harmonic mean of p "
                    "and r."),
            Mistake("geometric mean", np.array([p, r, math.sqrt(p * r)]),
                    "Your F is the geometric mean sqrt(p r); F is the harmonic mean "
                    "2 p r / (p + r)."),
            Mistake("F = p r", np.array([p, r, p * r]),
                    "Your F is the product p r; F is the harmonic mean 2 p r / (p + r)."),
            Mistake("swapped, arithmetic mean", np.array([r, p, (p + r) / 2]),
                    "Precision and recall are swapped (precision divides n_ij by the size "
                    "of the cluster, recall by the size of the class), and F is the "
                    "harmonic mean 2 p r / (p + r), not (p + r) / 2."),
            Mistake("neighbouring cluster", self._prf(1, 2),
                    "You used cluster 2 (the next row of the table); the question asks for "
                    "cluster 1 against class 3."),
            Mistake("neighbouring class", self._prf(0, 1),
                    "You used class 2 (the next column of the table); the question asks for "
                    "cluster 1 against class 3."),
            Mistake("precision over n", self._with_precision(p * self._n1() / len(
                        self.classes)),
                    "Your precision divides n_13 by all n examples; precision(1, 3) divides "
                    "by the size of cluster 1, n_1."),
            Mistake("rounded before F", np.array(
                        [round(p, 2), round(r, 2), _harmonic(round(p, 2), round(r, 2))]),
                    "You rounded precision and recall to 2 decimals and computed F from the "
                    "rounded numbers: keep every intermediate unrounded (n_13 / n_1 as a "
                    "fraction) and round only what you give, to 4 decimals."),
            Mistake("table transposed", self._transposed(),
                    "You read the table transposed (classes as rows, as the tutorial prints "
                    "it): your numbers are cluster 3 against class 1, with precision and "
                    "recall swapped. Rows are the clusters: precision(1, 3) = n_13 / n_1, "
                    "recall(1, 3) = n_13 / m_3."),
            Mistake("recall over the cluster size", np.array([p, p, p]),
                    "Your recall divides n_13 by the size of cluster 1, as precision does; "
                    "recall(1, 3) divides by the size of class 3, m_3."),
            Mistake("precision over the class size", np.array([r, r, r]),
                    "Your precision divides n_13 by the size of class 3, as recall does; "
                    "precision(1, 3) divides by the size of cluster 1, n_1."),
            Mistake("F upside down", np.array([p, r, (p + r) / (2 * p * r) if p * r else
                                               0.0]),
                    "Your F is (p + r) / (2 p r), the harmonic mean's reciprocal: F = "
                    "2 p r / (p + r) (1 / F is the mean of 1 / p and 1 / r)."),
            Mistake("Jaccard for F", np.array([p, r, n13 / (self._n1() + self._m3() - n13)]),
                    "Your F is n_13 / (n_1 + m_3 - n_13), the Jaccard coefficient of cluster "
                    "and class; F = 2 p r / (p + r) = 2 n_13 / (n_1 + m_3)."),
        ]

    def _transposed(self):
        """precision and recall read from the transposed table at row 1, column 3: those of
        cluster 3 and class 1, swapped."""
        p, r, f = self._prf(2, 0)
        return np.array([r, p, f])

    def _n1(self):
        return int(np.sum(np.asarray(self.clusters) == 1))

    def _m3(self):
        return int(np.sum(np.asarray(self.classes) == 3))

    def _with_recall(self, r):
        """The three numbers for a wrong recall ``r`` (precision right, F from both)."""
        p = self.compute_key()[0]
        return np.array([p, r, 2 * p * r / (p + r) if p + r else 0.0])

    def _with_precision(self, p):
        """The three numbers for a wrong precision ``p`` (recall right, F from both)."""
        r = self.compute_key()[1]
        return np.array([p, r, 2 * p * r / (p + r) if p + r else 0.0])

    def explain(self, d):
        n = _ex2_table(self).counts
        n13, n1, m3 = int(n[0, 2]), int(n[0].sum()), int(n[:, 2].sum())
        p, r, f = self.compute_key()
        d.text("Only three counts are needed: n_13 (examples in cluster 1 *and* class 3), "
               "n_1 (the size of cluster 1) and m_3 (the size of class 3).")
        d.step(rf"n_{{13}} = {n13},\quad n_1 = {n1},\quad m_3 = {m3}",
               f"n_13 = {n13}, n_1 = {n1}, m_3 = {m3}")
        d.step(rf"\text{{precision}}(1, 3) = \frac{{n_{{13}}}}{{n_1}} = {frac(n13, n1)}",
               f"precision(1, 3) = n_13 / n_1 = {frac(n13, n1)}")
        d.step(rf"\text{{recall}}(1, 3) = \frac{{n_{{13}}}}{{m_3}} = {frac(n13, m3)}",
               f"recall(1, 3) = n_13 / m_3 = {frac(n13, m3)}")
        if p + r > 0:
            d.step(rf"F(1, 3) = \frac{{2\,p\,r}}{{p + r}} = \frac{{2 \cdot {fmt(p)} \cdot "
                   rf"{fmt(r)}}}{{{fmt(p)} + {fmt(r)}}} = {fmt(f)}",
                   f"F(1, 3) = 2 p r / (p + r) = 2 * {fmt(p)} * {fmt(r)} / ({fmt(p)} + "
                   f"{fmt(r)}) = {fmt(f)}")
        else:
            d.step("F(1, 3) = 0", "F(1, 3) = 0 (precision and recall are both 0)")


class ClusterEntropy(NumberQuestion):
    qid, title, dataset = "01.3", "the entropy e_2 of cluster 2", "exercise_2"
    asked = "e_2"
    ties_named = True
    hints = ("e_i = - sum_j precision(i, j) log2 precision(i, j): it uses the class mix "
             "*inside cluster i* (row i of the table).",
             "Logarithms are base 2 (bits). Terms with precision 0 contribute 0.")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Compute the entropy $e_2 = -\\sum_j \\text{precision}(2, j) "
               "\\log_2 \\text{precision}(2, j)$ of cluster 2.")

    def compute_key(self):
        return float(cluster_entropy(self.classes, self.clusters).per_cluster[1])

    def mistakes(self):
        e = self.compute_key()
        n = _ex2_table(self).counts
        col = n[:, 1] / n[:, 1].sum()              # the class mix of class 2 over clusters
        e_class = -sum(p * math.log2(p) for p in col if p > 0)
        rows = n.sum(axis=1)
        recall = n[1] / n.sum(axis=0)             # row 2 divided by the class sizes
        return [Mistake("natural log", e * math.log(2),
                        "This is the entropy in nats (natural log); the tutorial uses log2."),
                Mistake("cluster 1", _bits(n[0]),
                        "That is the entropy of cluster 1 (row 1); e_2 uses row 2 of the "
                        "table."),
                Mistake("cluster 3", _bits(n[2]),
                        "That is the entropy of cluster 3 (row 3); e_2 uses row 2 of the "
                        "table."),
                Mistake("weighted by the cluster's size", rows[1] / n.sum() * e,
                        "You weighted e_2 by the cluster's share n_2 / n, as the total "
                        "entropy e does; e_2 itself is not weighted."),
                Mistake("the total entropy e", float(cluster_entropy(self.classes,
                                                                     self.clusters)),
                        "That is the entropy of the whole clustering, e = sum_i (n_i / n) "
                        "e_i; the question asks for e_2, cluster 2 alone."),
                Mistake("normalised by log2 k", e / math.log2(n.shape[1]),
                        "You divided by log2 of the number of classes (a normalised "
                        "entropy); e_2 is in bits, not normalised."),
                Mistake("recall instead of precision", -sum(
                            r * math.log2(r) for r in recall if r > 0),
                        "You used recall(2, j) = n_2j / m_j (divided by the class sizes); e_2 "
                        "uses precision(2, j) = n_2j / n_2, the shares inside cluster 2."),
                Mistake("class instead of cluster", e_class,
                        "You took class 2 (a column) instead of cluster 2 (a row): e_i "
                        "describes the classes inside cluster i."),
                Mistake("log10", float(cluster_entropy(self.classes, self.clusters,
                                                       base=10).per_cluster[1]),
                        "You used log10 (decimal digits); the course measures entropy in bits "
                        "with log2."),
                Mistake("sign", -e, "Entropy is never negative: mind the minus sign in front "
                        "of the sum."),
                Mistake("entropy of the cluster sizes", _bits(rows),
                        "That is the entropy of the clustering, H(C), from the cluster sizes "
                        "n_i / n; e_2 is the entropy of the class mix inside cluster 2 "
                        "(row 2 of the table)."),
                Mistake("entropy of the class sizes", _bits(n.sum(axis=0)),
                        "That is the entropy of the classes, H(T), from the class sizes; e_2 "
                        "is the entropy of the class mix inside cluster 2 (row 2 of the "
                        "table)."),
                Mistake("Gini impurity", 1 - float(((n[1] / n[1].sum()) ** 2).sum()),
                        "That is the Gini impurity 1 - sum_j p_2j^2 (of decision trees); the "
                        "entropy is - sum_j p_2j log2 p_2j."),
                Mistake("shares of n", -sum(x / n.sum() * math.log2(x / n.sum())
                                            for x in n[1] if x > 0),
                        "You divided the counts of row 2 by all n examples; the shares "
                        "precision(2, j) = n_2j / n_2 divide by the size of cluster 2, so "
                        "that they add up to 1."),
                Mistake("purity of cluster 2", n[1].max() / n[1].sum(),
                        "That is the purity of cluster 2 (its largest share); e_2 is the "
                        "entropy of all its shares, - sum_j p_2j log2 p_2j."),
                Mistake("log2 of the classes present", math.log2(np.count_nonzero(n[1])),
                        "That is log2 of the number of classes in cluster 2, the entropy "
                        "only if they were equally many; e_2 weighs each class by its share, "
                        "- sum_j p_2j log2 p_2j."),
                Mistake("entropy of the whole table", _bits(n.ravel()),
                        "That is the joint entropy H(C, T) of every cell of the table; e_2 "
                        "uses row 2 alone, the shares inside cluster 2.")]

    def acceptable(self):
        # not 1 bit (a cluster split half and half): the course's own e_2, and a value an
        # honest guess reaches
        return super().acceptable() and apart(self.compute_key(), 1.0)

    def explain(self, d):
        e = cluster_entropy(self.classes, self.clusters)
        d.text("The entropy of every cluster from its row of the table; e_2 is row 2 (the "
               "last lines, the total e, are not asked here):")
        d.extend(e.derivation(), heading=False)


class ClusterPurity(NumbersQuestion):
    qid, title, dataset = "01.4", "purity of cluster 2 and overall", "exercise_2"
    parts = ("p_2", "p")
    ties_named = True
    hints = ("p_i = max_j precision(i, j): the share of cluster i taken by its majority class.",
             "The overall purity weights each p_i by the cluster's size: "
             "p = sum_i (n_i / n) p_i = (1/n) sum_i max_j n_ij.",
             "Take the maximum along each *row* (cluster), not along each column (class).")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Compute the purity $p_2$ of cluster 2 and the overall purity $p$.")

    def compute_key(self):
        pu = purity(self.classes, self.clusters)
        return np.array([pu.per_cluster[1], float(pu)])

    def mistakes(self):
        n = _ex2_table(self).counts
        p2, p = self.compute_key()
        return [Mistake("max over clusters instead of classes", np.array(
                            [n[:, 1].max() / n[:, 1].sum(), n.max(axis=0).sum() / n.sum()]),
                        "You took the maximum over clusters for each class (down the "
                        "columns). Purity takes, for each cluster, the maximum over classes."),
                Mistake("unweighted mean", np.array(
                            [p2, (n.max(axis=1) / n.sum(axis=1)).mean()]),
                        "The overall purity weights each cluster by its size n_i / n; a plain "
                        "mean of the p_i is something else."),
                Mistake("p_2 of cluster 1", np.array([n[0].max() / n[0].sum(), p]),
                        "Your p_2 is the purity of cluster 1 (row 1); p_2 uses row 2."),
                Mistake("p_2 of cluster 3", np.array([n[2].max() / n[2].sum(), p]),
                        "Your p_2 is the purity of cluster 3 (row 3); p_2 uses row 2."),
                Mistake("overall: max over clusters", np.array([p2, n.max(axis=0).sum()
                                                                / n.sum()]),
                        "Your overall p takes the largest cell of each column (class), the "
                        "inverse purity; purity takes the largest cell of each row (cluster)."),
                Mistake("impurity", np.array([1 - p2, 1 - p]),
                        "Those are 1 - purity (the share *outside* the majority class); "
                        "purity is the share of the majority class itself."),
                Mistake("smallest class share", np.array(
                            [n[1].min() / n[1].sum(), p]),
                        "Your p_2 is the share of the *smallest* class in cluster 2; purity "
                        "takes the largest, max_j precision(2, j)."),
                Mistake("overall: maximum matching", np.array(
                            [p2, float(maximum_matching(self.classes, self.clusters))]),
                        "Your overall p is the maximum matching (each class matched to one "
                        "cluster only); purity lets every cluster take its own majority "
                        "class, even when two clusters share one."),
                Mistake("counts not shares", np.array([n[1].max(), n.max(axis=1).sum()]),
                        "Those are counts of examples; purity divides them: p_2 by the size of "
                        "cluster 2, p by n."),
                Mistake("p_2 over n", np.array([n[1].max() / n.sum(), p]),
                        "Your p_2 divides the majority count of cluster 2 by all n examples; "
                        "p_2 divides it by the size of cluster 2, n_2."),
                Mistake("p_2 over the class size", np.array(
                            [n[1].max() / n[:, n[1].argmax()].sum(), p]),
                        "Your p_2 divides the majority count of cluster 2 by the size of that "
                        "class (a recall); p_2 divides it by the size of cluster 2, n_2."),
                Mistake("p_2 as precision(2, 2)", np.array([n[1, 1] / n[1].sum(), p]),
                        "Your p_2 is the share of class 2 in cluster 2 (the diagonal cell); "
                        "p_2 is the share of cluster 2's majority class, whichever class "
                        "that is."),
                Mistake("p_2 of class 2", np.array([n[:, 1].max() / n[:, 1].sum(), p]),
                        "Your p_2 is the largest share of class 2 (column 2) in one cluster; "
                        "p_2 is about cluster 2 (row 2): its largest class over its size."),
                Mistake("overall: largest cell", np.array([p2, n.max() / n.sum()]),
                        "Your overall p is the single largest cell over n; purity adds the "
                        "largest cell of *every* row (cluster), then divides by n."),
                Mistake("overall: diagonal", np.array([p2, np.trace(n) / n.sum()]),
                        "Your overall p takes the cells C_i, T_i (the diagonal); purity takes "
                        "the largest cell of each row, wherever it is."),
                Mistake("overall: sum of the p_i", np.array(
                            [p2, (n.max(axis=1) / n.sum(axis=1)).sum()]),
                        "Your overall p adds up the p_i; purity weights each p_i by its "
                        "cluster's share n_i / n (add the majority counts, divide by n)."),
                Mistake("overall: median of the p_i", np.array(
                            [p2, float(np.median(n.max(axis=1) / n.sum(axis=1)))]),
                        "Your overall p is the median of the p_i; purity weights each p_i by "
                        "its cluster's share n_i / n (add the majority counts, divide by n).")]

    def explain(self, d):
        d.extend(purity(self.classes, self.clusters).derivation())


def fraction_slips(key: float, n: int, counted: str, measure: str) -> list[Mistake]:
    """A fraction of n given as the count itself, or as a percentage."""
    return [Mistake("count not divided by n", key * n,
                    f"That is the number of instances in {counted}; the {measure} is their "
                    f"fraction of all n = {int(n)} instances (a number between 0 and 1)."),
            Mistake("percentage", key * 100,
                    f"That is a percentage; give the {measure} as a fraction between 0 and 1.")]


def lecture_labels(q):
    """``(truth, pred)`` of a question's table ``q.table`` (rows clusters), read-only."""
    table = np.asarray(q.table, dtype=np.int64)
    return _labels_of(table.tobytes(), table.shape)


@functools.lru_cache(maxsize=64)
def _labels_of(cells: bytes, shape: tuple):
    """The labels of a table (given as its bytes), made once for all the questions judging
    a candidate variant; read-only."""
    truth, pred = labels_from_table(np.frombuffer(cells, dtype=np.int64).reshape(shape))
    for labels in (truth, pred):
        labels.setflags(write=False)
    return truth, pred


_GREEDY = ("You matched greedily: the largest cell first, then the largest cell left, and "
           "so on. A greedy first choice can block a better pairing; the best one-to-one "
           "matching compares every matching (or uses the Hungarian algorithm).")


def _describe_table(q, d):
    head, rows = table_rows(q.table, ["C1", "C2", "C3"], ["T1", "T2", "T3"])
    d.table(head, rows)
    d.text(f"Rows are clusters, columns classes; n = {int(np.sum(q.table))}.")


class LecturePurity(NumberQuestion):
    qid, title, dataset = "01.5", "purity (the lecture's table)", "lecture_table"
    asked = "purity"
    ties_named = True
    hints = ("purity = (1/n) sum_i max_j n_ij.",
             "For each row (cluster) take its largest cell; add them up; divide by n.")

    def describe(self, d):
        d.text(self.ours("The lecture's contingency table:", "Your contingency table:"))
        _describe_table(self, d)
        d.text("Compute the purity.")

    def compute_key(self):
        return float(purity(*lecture_labels(self)))

    def mistakes(self):
        n = np.asarray(self.table)
        return [Mistake("max over clusters instead of classes", n.max(axis=0).sum() / n.sum(),
                        "You took the largest cell of each column (class). Purity takes the "
                        "largest cell of each row (cluster)."),
                Mistake("unweighted mean", (n.max(axis=1) / n.sum(axis=1)).mean(),
                        "That is the plain mean of the purity_i; each cluster must be "
                        "weighted by its size n_i / n."),
                Mistake("maximum matching", float(maximum_matching(*lecture_labels(self))),
                        "That is the maximum matching (each class matched to one cluster "
                        "only); purity lets every cluster take its own majority class, even "
                        "when two clusters share one."),
                Mistake("diagonal", np.trace(n) / n.sum(),
                        "You took the cells C_i, T_i (the diagonal); purity takes the largest "
                        "cell of each row, wherever it is."),
                Mistake("unweighted mean over classes", (n.max(axis=0) / n.sum(axis=0)).mean(),
                        "That is the plain mean, over the classes (columns), of their largest "
                        "share; purity goes by the rows (clusters) and weights them by size."),
                Mistake("1 - purity", 1 - self.compute_key(),
                        "That is 1 - purity, the share outside the majority classes; purity "
                        "is the share of the majority cells themselves."),
                Mistake("the purest cluster only", float((n.max(axis=1) / n.sum(axis=1)).max()),
                        "That is the purity of the purest cluster alone; the overall purity "
                        "adds the largest cell of *every* row, then divides by n."),
                Mistake("largest cell only", n.max() / n.sum(),
                        "You took the single largest cell of the table; purity adds the "
                        "largest cell of *every* row (cluster), then divides by n."),
                Mistake("the F-measure", float(f_measure(*lecture_labels(self))),
                        "That is the lecture's F-measure (the mean of the clusters' F_i); "
                        "purity is (1/n) sum_i max_j n_ij, the majority cells over n."),
                Mistake("sum of the purity_i", float((n.max(axis=1) / n.sum(axis=1)).sum()),
                        "You added up the purity_i of the clusters; purity weights each by "
                        "its cluster's share n_i / n (add the majority cells, divide by n)."),
                Mistake("median of the purity_i", float(np.median(n.max(axis=1)
                                                                  / n.sum(axis=1))),
                        "That is the median of the purity_i of the clusters; purity weights "
                        "each by its cluster's share n_i / n (add the majority cells, divide "
                        "by n)."),
                Mistake("divided by the number of clusters", n.max(axis=1).sum() / len(n),
                        "You added the majority cells and divided by the number of clusters; "
                        "purity divides by the number of examples n."),
                Mistake("recall of the majority class", float(np.mean(
                            n.max(axis=1) / n.sum(axis=0)[n.argmax(axis=1)])),
                        "You divided each cluster's majority cell by the size of its class "
                        "(a recall) and averaged; purity divides the majority cells by n."),
                Mistake("the largest cluster only", float(
                            n[n.sum(axis=1).argmax()].max() / n[n.sum(axis=1).argmax()].sum()),
                        "That is the purity of the largest cluster alone; the overall purity "
                        "adds the largest cell of *every* row, then divides by n."),
                *fraction_slips(self.compute_key(), n.sum(), "the majority cells",
                                "purity")]

    def explain(self, d):
        d.extend(purity(*lecture_labels(self)).derivation())


class LectureMaximumMatching(NumberQuestion):
    qid, title, dataset = "01.6", "maximum matching (the lecture's table)", "matching_table"
    asked = "maximum matching"
    ties_named = True
    hints = ("Maximum matching pairs each cluster with a *different* class (one-to-one).",
             "Try the 6 one-to-one matchings of 3 clusters to 3 classes; keep the one with the "
             "largest total of matched cells; divide by n.")

    def describe(self, d):
        _describe_table(self, d)
        d.text("Compute the maximum matching measure: the best one-to-one matching of "
               "clusters to classes, as a fraction of n.")

    def compute_key(self):
        return float(maximum_matching(*lecture_labels(self)))

    def mistakes(self):
        n = np.asarray(self.table)
        return [Mistake("purity", float(purity(*lecture_labels(self))),
                        "That is the purity: two clusters took the same class. Maximum "
                        "matching is one-to-one: every class can be matched once."),
                Mistake("diagonal", np.trace(n) / n.sum(),
                        "You matched C_i with T_i. The names of clusters mean nothing: look "
                        "for the best matching, not the diagonal."),
                Mistake("largest cell of each column", n.max(axis=0).sum() / n.sum(),
                        "You gave every class its largest cell (the inverse purity), so two "
                        "classes can take the same cluster. Maximum matching is one-to-one."),
                Mistake("greedy matching", greedy_matched(n) / n.sum(), _GREEDY),
                Mistake("cluster by cluster", row_by_row_matched(n) / n.sum(),
                        "You went cluster by cluster, each taking its largest class not "
                        "taken yet: an early row can take the class a later row needs "
                        "more. The best one-to-one matching compares every matching."),
                Mistake("1 - matching", 1 - self.compute_key(),
                        "That is 1 minus the maximum matching (the share left unmatched); the "
                        "measure is the matched share itself."),
                Mistake("unweighted shares", float(np.mean(
                            [n[i, j] / n[i].sum() for i, j in enumerate(_one_to_one(n))])),
                        "You averaged the matched shares n_ij / n_i of the clusters plainly; "
                        "maximum matching adds the matched counts and divides by n."),
                Mistake("smallest total", _smallest_total(n) / n.sum(),
                        "That is the one-to-one matching with the *smallest* total (a "
                        "minimum-cost assignment); maximum matching keeps the largest."),
                Mistake("class by class", row_by_row_matched(n.T) / n.sum(),
                        "You went class by class, each taking its largest cluster not taken "
                        "yet: an early column can take the cluster a later one needs more. "
                        "The best one-to-one matching compares every matching."),
                Mistake("paired by F-scores", matched_by(n, f_scores(n)) / n.sum(),
                        "You paired clusters and classes by the largest total F-score (as the "
                        "full-reference notes map them); maximum matching pairs them by the "
                        "largest total of matched *examples*, and the two pairings can "
                        "differ."),
                Mistake("paired by row shares", matched_by(
                            n, n / n.sum(axis=1, keepdims=True)) / n.sum(),
                        "You paired clusters and classes by the largest total of the shares "
                        "n_ij / n_i (precisions); maximum matching pairs them by the largest "
                        "total of matched *examples* n_ij."),
                Mistake("paired by column shares", matched_by(
                            n, n / n.sum(axis=0, keepdims=True)) / n.sum(),
                        "You paired clusters and classes by the largest total of the shares "
                        "n_ij / m_j (recalls); maximum matching pairs them by the largest "
                        "total of matched *examples* n_ij."),
                Mistake("divided by the number of clusters",
                        self.compute_key() * n.sum() / len(n),
                        "You divided the matched total by the number of clusters r; maximum "
                        "matching divides it by all n examples."),
                *fraction_slips(self.compute_key(), n.sum(), "the matched cells",
                                "maximum matching")]

    def explain(self, d):
        d.extend(maximum_matching(*lecture_labels(self)).derivation())


class LectureF(NumberQuestion):
    qid, title, dataset = "01.7", "the F-measure (the lecture's table)", "lecture_table"
    asked = "F"
    ties_named = True
    hints = ("Each cluster C_i is matched to its majority class j* = argmax_j n_ij.",
             "prec_i = n_ij* / n_i (the row's size), recall_i = n_ij* / m_j* (the column's "
             "size), F_i their harmonic mean.",
             "The lecture's F is the plain (macro) mean of the F_i over the r clusters.")

    def describe(self, d):
        _describe_table(self, d)
        d.text("Compute the lecture's F-measure $F = (1/r) \\sum_i F_i$ (the mean of the "
               "$F_i$ over the $r$ clusters), each cluster matched to its majority class.")

    def compute_key(self):
        return float(f_measure(*lecture_labels(self)))

    def tie_choices(self) -> list[tuple[int, ...]]:
        """Every way of matching each cluster to one of its majority classes (a row whose
        maximum is tied leaves a choice the lecture's formula does not make)."""
        n = np.asarray(self.table)
        return list(itertools.product(*[np.flatnonzero(row == row.max()) for row in n]))

    def keys(self):
        """F for every choice among tied majority classes, the library's first."""
        _, _, f = precision_recall_f(*lecture_labels(self))
        rows = np.arange(len(f))
        out = [self.compute_key()]
        for choice in self.tie_choices():
            value = float(np.mean(f[rows, list(choice)]))
            if all(apart(value, k) for k in out):
                out.append(value)
        return out

    def mistakes(self):
        f = f_measure(*lecture_labels(self))
        n = np.asarray(self.table)
        F = np.asarray(precision_recall_f(*lecture_labels(self)).f)
        weighted = float((f.per_cluster * n.sum(axis=1)).sum() / n.sum())
        return [Mistake("weighted by cluster size", weighted,
                        "The lecture's F is the plain mean over clusters (macro), not "
                        "weighted by cluster size."),
                Mistake("sum, not mean", float(np.sum(f.per_cluster)),
                        "You added up the F_i; the lecture's F is their mean, (1/r) sum_i "
                        "F_i over the r clusters."),
                Mistake("class-weighted F", float(f_measure(*lecture_labels(self),
                                                           average="classes")),
                        "That is the full-reference notes' class-weighted F (each class takes "
                        "its best cluster). The lecture matches each cluster to its majority "
                        "class and averages over clusters."),
                Mistake("recall over cluster size", float(np.mean(f.precision)),
                        "Your F_i equal the precisions: recall_i divides by the size of the "
                        "matched class m_j*, not by the cluster's size."),
                Mistake("one-to-one matching", float(np.mean(
                            [F[i, j] for i, j in enumerate(_one_to_one(n))])),
                        "You matched clusters to classes one-to-one (as maximum matching "
                        "does); the lecture's F matches each cluster to its own majority "
                        "class, even when two clusters share one."),
                Mistake("arithmetic mean of precision and recall", float(np.mean(
                            (f.precision + f.recall) / 2)),
                        "Each F_i is the harmonic mean 2 prec_i recall_i / (prec_i + "
                        "recall_i), not (prec_i + recall_i) / 2."),
                Mistake("recall over n", float(np.mean(
                            2 * f.precision * (n.max(axis=1) / n.sum())
                            / (f.precision + n.max(axis=1) / n.sum()))),
                        "Your recall_i divides n_ij* by all n examples; it divides by the "
                        "size of the matched class, m_j* (its column's sum)."),
                Mistake("F of purity and inverse purity", _harmonic(
                            n.max(axis=1).sum() / n.sum(), n.max(axis=0).sum() / n.sum()),
                        "That is the harmonic mean of purity and inverse purity; the "
                        "lecture's F is the mean over clusters of each cluster's own F_i."),
                Mistake("best F of each cluster", float(F.max(axis=1).mean()),
                        "You matched each cluster to the class of its largest F_ij; the "
                        "lecture matches it to its majority class (largest n_ij)."),
                Mistake("mean over classes", float(np.mean(
                            [F[n[:, j].argmax(), j] for j in range(n.shape[1])])),
                        "You went by the classes (columns: each class and its majority "
                        "cluster, a mean over the classes); the lecture's F goes by the "
                        "clusters (rows)."),
                Mistake("F_i as the recall", float(np.mean(f.recall)),
                        "Your F_i equal the recalls n_ij* / m_j*; F_i is the harmonic mean of "
                        "precision and recall, 2 prec_i recall_i / (prec_i + recall_i)."),
                Mistake("best F of each cluster, weighted by size", float(
                            (F.max(axis=1) * n.sum(axis=1)).sum() / n.sum()),
                        "You matched each cluster to the class of its largest F_ij and "
                        "weighted the clusters by size; the lecture matches each cluster to "
                        "its majority class (largest n_ij) and takes the plain mean."),
                Mistake("F of the mean precision and recall", _harmonic(
                            float(np.mean(f.precision)), float(np.mean(f.recall))),
                        "You took the harmonic mean of the mean precision and the mean "
                        "recall; the lecture's F is the mean of the clusters' own F_i."),
                Mistake("median of the F_i", float(np.median(f.per_cluster)),
                        "That is the median of the F_i; the lecture's F is their mean, "
                        "(1/r) sum_i F_i."),
                Mistake("geometric mean", float(np.mean(np.sqrt(f.precision * f.recall))),
                        "Your F_i are the geometric means sqrt(prec_i recall_i); F_i is the "
                        "harmonic mean 2 prec_i recall_i / (prec_i + recall_i)."),
                Mistake("F_i without the 2", float(np.mean(f.per_cluster)) / 2,
                        "Your F_i lack the factor 2: F_i = 2 prec_i recall_i / (prec_i + "
                        "recall_i)."),
                Mistake("best F of each class", float(F.max(axis=0).mean()),
                        "You gave every class its best F over the clusters and averaged over "
                        "the classes; the lecture goes by the clusters (rows), each with its "
                        "majority class."),
                Mistake("mean of every F_ij", float(F.mean()),
                        "You averaged F(i, j) over every cell of the table; the lecture "
                        "takes one F_i per cluster, against its majority class.")]

    def explain(self, d):
        d.extend(f_measure(*lecture_labels(self)).derivation())
        keys = self.keys()
        if len(keys) > 1:
            n = np.asarray(self.table)
            tops = [np.flatnonzero(row == row.max()) + 1 for row in n]
            tied = [f"C{i + 1} (T{' and T'.join(map(str, top))})"
                    for i, top in enumerate(tops) if len(top) > 1]
            d.note(f"A tie: the largest cell of {', '.join(tied)} is shared, so the majority "
                   "class is not unique. The derivation takes the first; each choice is "
                   f"accepted: F = {', '.join(fmt(k) for k in keys)}.")


class AccuracyPermutation(ChoiceQuestion):
    qid, title, dataset = "01.8", "why accuracy fails under relabelling", "permutation"
    hints = ("Compute the fraction of examples with pred_i == truth_i, then purity.",
             "A clustering algorithm names its clusters arbitrarily: cluster '2' has no reason "
             "to mean class 2.")

    def _numbers(self):
        acc = float(np.mean(self.pred == self.truth))
        return acc, float(purity(self.truth, self.pred)), float(maximum_matching(self.truth,
                                                                                  self.pred))

    def describe(self, d):
        d.text("A clustering of 8 examples, next to the true classes:")
        d.table(["", *[f"x{i + 1}" for i in range(len(self.truth))]],
                [["class", *map(int, self.truth)], ["cluster", *map(int, self.pred)]])
        d.text("Which statements are true?")
        self.describe_options(d)

    def statements(self):
        acc, pu, mm = self._numbers()
        return [
            ("The accuracy (fraction of examples with cluster label = class label) is 0.",
             acc == 0, "Count the examples whose cluster number equals their class number."),
            ("The clustering is perfect: it groups the examples exactly as the classes do.",
             pu == 1 and mm == 1, "Compare who is grouped with whom, not the label values."),
            ("Purity and maximum matching are both 1 here.", pu == 1 and mm == 1,
             "Compute both from the contingency table."),
            ("Accuracy is meaningful for clusterings as long as the number of clusters "
             "equals the number of classes.", False,
             "Equal numbers do not fix which cluster name goes with which class."),
            ("Before a label-by-label comparison, clusters must be matched to classes "
             "(e.g. by maximum matching).", True,
             "Cluster names are arbitrary; a matching gives them meaning."),
            ("Renaming the clusters changes the purity.", False,
             "Purity only looks at the contingency table, whose rows are merely reordered."),
        ]

    def explain_choice(self, d):
        acc, pu, mm = self._numbers()
        d.text(f"Accuracy = {acc:g}, purity = {pu:g}, maximum matching = {mm:g}: the "
               "clusters are the classes under other names.")


# ------------------------------------------- clustering ratio and clustering error
def _describe_ratio_error(q, d):
    d.text(f"{len(q.classes)} examples, their true classes and the clusters an algorithm "
           "found (cluster numbers are arbitrary names):")
    d.table(["", *[f"x{i + 1}" for i in range(len(q.classes))]],
            [["class", *map(int, q.classes)], ["cluster", *map(int, q.clusters)]])


class ClusteringRatio(NumberQuestion):
    qid, title, dataset = "01.9", "the clustering ratio eta", "ratio_error"
    asked = "η"
    ties_named = True
    hints = ("C is the number of clusters the algorithm found, K the number of true classes: "
             "count the *distinct* labels in each row.",
             "eta = C / K: clusters per class. eta > 1 means the algorithm split classes, "
             "eta < 1 that it merged them.")

    def describe(self, d):
        _describe_ratio_error(self, d)
        d.text("Compute the clustering ratio η = C / K (C clusters found, K true classes).")

    def compute_key(self):
        return float(clustering_ratio(self.classes, self.clusters))

    def mistakes(self):
        r = clustering_ratio(self.classes, self.clusters)
        return [Mistake("K/C instead of C/K", r.n_classes / r.n_clusters,
                        "That is K / C, the ratio upside down: eta counts clusters per class, "
                        "so the number of clusters C is on top."),
                Mistake("C / n", r.n_clusters / len(self.classes),
                        "You divided the number of clusters by the number of examples n; eta "
                        "divides it by the number of classes K."),
                Mistake("C as the largest label + 1", (max(map(int, self.clusters)) + 1)
                        / r.n_classes,
                        "You took C as the largest cluster label plus 1 (as for labels "
                        "counted from 0); C is the number of *distinct* cluster labels."),
                Mistake("C not divided by K", float(r.n_clusters),
                        "That is C, the number of clusters alone; eta divides it by the "
                        "number of classes K."),
                Mistake("(C - K) / K", (r.n_clusters - r.n_classes) / r.n_classes,
                        "That is (C - K) / K, how many clusters too many per class; eta is "
                        "C / K itself (1 when C = K)."),
                Mistake("C - K", float(r.n_clusters - r.n_classes),
                        "That is C - K, the difference; eta is the ratio C / K."),
                Mistake("K / n", r.n_classes / len(self.classes),
                        "You divided the number of classes by the number of examples n; eta "
                        "divides the number of clusters C by the number of classes K."),
                Mistake("1 - C / K", 1 - r.n_clusters / r.n_classes,
                        "That is 1 - C / K (negative when the algorithm split classes); eta "
                        "is C / K itself."),
                Mistake("every label counted", len(self.clusters) / r.n_classes,
                        "You counted every cluster label in the row (n of them); C counts "
                        "the *distinct* cluster labels.")]

    def explain(self, d):
        r = clustering_ratio(self.classes, self.clusters)
        found = ", ".join(str(v) for v in sorted(set(map(int, self.clusters))))
        classes = ", ".join(str(v) for v in sorted(set(map(int, self.classes))))
        d.text(f"The distinct cluster labels are {found}, so C = {r.n_clusters}; the distinct "
               f"class labels are {classes}, so K = {r.n_classes}.")
        d.extend(r.derivation(), heading=False)
        d.note("eta = 1 is necessary for a perfect clustering but not sufficient: the right "
               "number of clusters can still group the wrong examples.")


class ClusteringError(NumberQuestion):
    qid, title, dataset = "01.10", "the clustering error when C != K", "ratio_error"
    asked = "clustering error"
    ties_named = True
    hints = ("Write the contingency table n_ij (rows = clusters, columns = classes). The "
             "clustering error is 1 - (largest total of a one-to-one matching) / n.",
             "One-to-one: each class is matched to at most one cluster and each cluster to at "
             "most one class. With C != K, min(C, K) pairs are matched; the examples of the "
             "cluster (or class) left without a partner are all errors.",
             "The error is a fraction of all n examples (a number between 0 and 1), not a "
             "count, and not the accuracy.")

    def describe(self, d):
        _describe_ratio_error(self, d)
        d.text("Compute the clustering error: the fraction of the examples that are "
               "misclassified after the best **one-to-one** mapping of clusters to classes.")

    def compute_key(self):
        return float(clustering_error(self.classes, self.clusters))

    def mistakes(self):
        e = clustering_error(self.classes, self.clusters)
        t = e.table
        n, matched = t.n, e.matched
        rows, cols = zip(*e.accuracy.pairs)
        # the examples of the matched clusters and classes only (the unmatched dropped)
        kept = _kept(t.counts, rows, cols)
        return [
            Mistake("majority class per cluster (not one-to-one)",
                    1 - float(purity(self.classes, self.clusters)),
                    "You gave every cluster its majority class, so two clusters can share a "
                    "class (that is 1 - purity). The clustering error maps clusters to "
                    "classes one-to-one: a class has one correct cluster."),
            Mistake("unmatched examples left out", (kept - matched) / kept,
                    "You left the examples of the unmatched cluster (or class) out. When "
                    "C != K only min(C, K) pairs are matched, and every example of what is "
                    "left over is misclassified: divide by all n examples."),
            Mistake("largest cluster of each class",
                    1 - float(t.counts.max(axis=0).sum()) / n,
                    "You gave every class its largest cluster (1 - the inverse purity), so "
                    "two classes can take one cluster. The clustering error maps clusters "
                    "to classes one-to-one."),
            Mistake("divided by the matched", (n - matched) / matched,
                    "You divided the misclassified examples by the matched ones; the "
                    "clustering error divides them by all n examples."),
            Mistake("count instead of fraction", n - matched,
                    "That is the number of misclassified examples; the clustering error is "
                    "their fraction of all n examples."),
            Mistake("accuracy instead of error", matched / n,
                    "That is the matched accuracy; the clustering error is 1 minus it."),
            Mistake("greedy matching", 1 - greedy_matched(t.counts) / n, _GREEDY),
            Mistake("raw labels compared", float(np.mean(self.clusters != self.classes)),
                    "You compared cluster numbers with class numbers directly. Cluster "
                    "numbers are arbitrary names: map clusters to classes first."),
            Mistake("divided by K", (n - matched) / n / t.shape[1],
                    "You divided the error by the number of classes K as well; the "
                    "clustering error is the misclassified examples over all n, "
                    "1 - matched / n."),
            Mistake("smallest total", 1 - _smallest_total(t.counts) / n,
                    "You used the one-to-one matching with the *smallest* total (a "
                    "minimum-cost assignment, what an assignment solver finds unless told to "
                    "maximise); the clustering error uses the matching with the largest "
                    "total."),
            Mistake("only the unmatched counted", (n - kept) / n,
                    "You counted only the examples left without a partner as errors; the "
                    "examples of a matched cluster outside its matched class are errors "
                    "too."),
            Mistake("only the matched clusters' errors", (kept - matched) / n,
                    "You counted the misclassified examples of the matched clusters only; "
                    "when C != K every example of the cluster (or class) left without a "
                    "partner is misclassified as well."),
        ]

    def explain(self, d):
        e = clustering_error(self.classes, self.clusters)
        t = e.table
        c, k = t.shape
        head, rows = table_rows(t.counts, [f"C{v}" for v in t.clusters],
                                [f"T{v}" for v in t.classes])
        d.text("The contingency table $n_{ij}$ (rows = clusters, columns = classes):")
        d.table(head, rows)
        d.text(f"C = {c} clusters, K = {k} classes: a one-to-one mapping pairs "
               f"min(C, K) = {min(c, k)} of them. The best one (largest total of matched "
               "cells, found by trying every mapping):")
        d.table(["cluster", "matched class", "matched examples n_ij"],
                [[f"C{t.clusters[i]}", f"T{t.classes[j]}", int(t.counts[i, j])]
                 for i, j in e.accuracy.pairs])
        rows_left = [f"C{t.clusters[i]}" for i in range(c) if i not in dict(e.accuracy.pairs)]
        cols_left = [f"T{t.classes[j]}" for j in range(k)
                     if j not in {jj for _, jj in e.accuracy.pairs}]
        left = rows_left or cols_left
        if left:
            d.text(f"Left without a partner: {', '.join(left)}; all of "
                   f"{'its' if len(left) == 1 else 'their'} examples are misclassified.")
        missed = t.n - e.matched
        d.step(rf"\text{{error}} = 1 - \frac{{{e.matched}}}{{{t.n}}} = "
               rf"\frac{{{missed}}}{{{t.n}}} = {fmt(e)}",
               f"error = 1 - {e.matched} / {t.n} = {missed} / {t.n} = {fmt(e)}")
        pu = float(purity(self.classes, self.clusters))
        d.note(f"Letting each cluster take its majority class would give 1 - purity = "
               f"{fmt(1 - pu)}: several clusters could then share one class, which the "
               "one-to-one mapping forbids (a class has one correct cluster).")


def _harmonic(a: float, b: float) -> float:
    return 2 * a * b / (a + b) if a + b else 0.0


def _smallest_total(counts) -> int:
    """The examples the one-to-one matching with the smallest total pairs."""
    n = counts if counts.shape[0] >= counts.shape[1] else counts.T
    return min(sum(n[i, j] for i, j in zip(rows, range(n.shape[1])))
               for rows in itertools.permutations(range(len(n)), n.shape[1]))


def _kept(counts, rows, cols) -> int:
    """The examples of the matched clusters (C > K) or the matched classes (C < K)."""
    c, k = counts.shape
    if c > k:
        return int(counts[list(rows)].sum())
    if c < k:
        return int(counts[:, list(cols)].sum())
    return int(counts.sum())


# ------------------------------------------------------- a function as the answer
def _inverse_purity(truth, pred):
    """The slip: the largest cluster of each class (columns), not the largest class of
    each cluster (rows)."""
    return float(purity(pred, truth))


def _largest_class_overall(truth, pred):
    """The slip: every cluster labelled with the largest class of all the data."""
    _, sizes = np.unique(np.asarray(truth), return_counts=True)
    return sizes.max() / len(truth)


def _unweighted_purity(truth, pred):
    """The slip: the plain mean of the clusters' purities (not weighted by size)."""
    n = contingency_table(truth, pred).counts
    return float((n.max(axis=1) / n.sum(axis=1)).mean())


class PurityFunction(FunctionQuestion):
    qid, title, dataset = "01.11", "write purity(truth, pred)", "exercise_2"
    signature = "purity(truth, pred)"
    asked = "the purity"
    points = 2.0
    hints = ("Build the contingency table first: rows are clusters (pred), columns "
             "classes (truth); cell (i, j) counts the instances in cluster i and class j.",
             "Purity = (1/n) sum_i max_j n_ij: for each *cluster* (row) its largest class, "
             "added up, divided by the number of instances n.",
             "The labels can be any values (0, 5, 7 as well as 1, 2, 3): list the distinct "
             "labels the data hold rather than assuming 1..k.")

    def describe(self, d):
        d.text("Write a function `purity(truth, pred)` (the library's argument order: the "
               "classes first, then the clusters) that returns the purity of the clustering "
               "`pred` against the classes `truth`, as a number: "
               "$\\text{purity} = \\frac{1}{n} \\sum_i \\max_j n_{ij}$, where $n_{ij}$ "
               "counts the instances in cluster $C_i$ and class $T_j$. Both arguments are "
               "arrays of labels of the same length (any labels: 0, 5, 7 as well as "
               "1, 2, 3). Write it yourself, without the library's `purity`.")
        d.text("`check(purity)` runs it on your data below and on a few small cases; when "
               "graded it also runs on hidden cases.")
        describe_exercise_2(self, d)

    def shown_case(self):
        return {"truth": self.classes.tolist(), "pred": self.clusters.tolist()}

    def small_cases(self):
        return [{"truth": [1, 2, 3, 1], "pred": [1, 1, 1, 2]},
                {"truth": [1, 1, 2, 2, 3], "pred": [1, 1, 1, 2, 2]},
                {"truth": [0, 0, 1, 1, 2, 2], "pred": [5, 5, 5, 5, 7, 7]},
                {"truth": [1, 1, 1, 1, 2], "pred": [1, 1, 1, 1, 1]},
                {"truth": [1, 2, 3, 4], "pred": [1, 2, 3, 4]},
                # two clusters with the same majority class: not a maximum matching
                {"truth": [1, 1, 1, 1, 2], "pred": [1, 1, 2, 2, 2]}]

    def hidden_case(self, rng):
        n = int(rng.integers(6, 16))
        return {"truth": rng.integers(0, int(rng.integers(2, 5)), n),
                "pred": rng.integers(1, int(rng.integers(2, 6)), n) * 3}

    def compute_key(self, cases=None):
        return self.outputs(lambda truth, pred: float(purity(truth, pred)), cases)

    def mistakes(self, cases=None):
        return [Mistake("inverse purity", self.outputs(_inverse_purity, cases),
                        "Your function computes the inverse purity: for each *class* its "
                        "largest cluster (the maximum down each column). Purity takes, for "
                        "each *cluster*, its largest class (the maximum along each row)."),
                Mistake("largest class overall", self.outputs(_largest_class_overall, cases),
                        "Your function gives the share of the largest class of all the data, "
                        "as if every cluster were labelled with that one class. Purity "
                        "labels each cluster with its *own* majority class."),
                Mistake("unweighted mean", self.outputs(_unweighted_purity, cases),
                        "Your function averages the clusters' purities p_i plainly; the "
                        "overall purity weights each p_i by its cluster's size n_i / n "
                        "(equivalently: add the majority counts, divide by n).")]

    def explain(self, d):
        d.text("One way: the contingency table, then the largest cell of each row:")
        d.text("```python\ndef purity(truth, pred):\n"
               "    truth, pred = np.asarray(truth), np.asarray(pred)\n"
               "    total = 0\n"
               "    for c in np.unique(pred):                 # each cluster C_i\n"
               "        _, counts = np.unique(truth[pred == c], return_counts=True)\n"
               "        total += counts.max()                 # max_j n_ij\n"
               "    return total / len(truth)\n```")
        d.extend(purity(self.classes, self.clusters).derivation())


__all__ += ["PurityFunction"]
