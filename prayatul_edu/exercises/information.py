"""Notebook 02: entropy, mutual information and NMI.

The entropies and the mutual information of the tutorial's Exercise 2 data,
the lecture's NMI on its 1550-instance table, and a new question: what purity
and NMI say about a clustering that puts every example in its own cluster.
"""
from __future__ import annotations

import math

import numpy as np

from .. import (adjusted_mutual_information, cluster_entropy, contingency_table, entropy,
                mutual_information, normalized_mutual_information, purity)
from ..steps import fmt
from ._base import Mistake, table_rows
from .kinds import FunctionQuestion, NumberQuestion, NumbersQuestion
from .matching import lecture_labels, describe_exercise_2

__all__ = ["Entropies", "MutualInformation", "LectureNMI", "SingletonsNMI"]


def _garbled_mi(truth, pred, base=2.0):
    """The lecture transcription's MI: ratio r = p_ij / (p_i p_j) in front of log r."""
    t, p = np.asarray(truth), np.asarray(pred)
    n, total = len(t), 0.0
    for c in np.unique(p):
        for k in np.unique(t):
            n_ij = np.sum((p == c) & (t == k))
            if n_ij:
                r = (n_ij / n) / ((np.sum(p == c) / n) * (np.sum(t == k) / n))
                total += r * math.log(r, base)
    return total


def _unweighted_mi(truth, pred, base=2.0):
    """The lecture's MI as written: the logs log(p_ij / (p_i p_j)) summed without p_ij."""
    t = contingency_table(truth, pred)
    p = t.counts / t.n
    pi, pj = p.sum(axis=1, keepdims=True), p.sum(axis=0, keepdims=True)
    cells = p > 0
    return float(np.sum(np.log((p / (pi * pj))[cells])) / math.log(base))


def _exchanged_marginals_mi(truth, pred) -> list[float]:
    """A slip of a square table (as many clusters as classes; none otherwise): each cell's
    p_ij over the class share of its row's index and the cluster share of its column's
    index (the two margins exchanged)."""
    t = contingency_table(truth, pred)
    p = t.counts / t.n
    if p.shape[0] != p.shape[1]:
        return []
    cells = p > 0
    return [float(np.sum(p[cells] * np.log2((p / np.outer(p.sum(axis=0), p.sum(axis=1))
                                               )[cells])))]


class Entropies(NumbersQuestion):
    qid, title, dataset = "02.1", "the entropies H(C) and H(T)", "exercise_2"
    parts = ("H(C)", "H(T)")
    ties_named = True
    hints = ("H(C) = - sum_i p_i log2 p_i with p_i = n_i / n, the cluster sizes' shares.",
             "H(T) is the same with the class sizes. Use log base 2 (bits).")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Compute the entropy of the clustering $H(\\mathcal{C})$ and of the classes "
               "$H(\\mathcal{T})$, in bits.")

    def compute_key(self):
        return np.array([float(entropy(self.clusters)), float(entropy(self.classes))])

    def mistakes(self):
        hc, ht = self.compute_key()
        mi = float(mutual_information(self.classes, self.clusters, base=2))
        n = len(self.classes)
        shares = [np.unique(labels, return_counts=True)[1] / n
                  for labels in (self.clusters, self.classes)]
        return [Mistake("natural log", np.array([hc, ht]) * math.log(2),
                        "These are nats (natural log); use log2 to get bits."),
                Mistake("log10", np.array([float(entropy(self.clusters, base=10)),
                                           float(entropy(self.classes, base=10))]),
                        "You used log10 (decimal digits); the course measures entropy in bits "
                        "with log2."),
                Mistake("swapped", np.array([ht, hc]),
                        "H(C) and H(T) are swapped: C are the clusters, T the classes."),
                Mistake("normalised by log2 k", np.array(
                            [hc / math.log2(len(np.unique(self.clusters))),
                             ht / math.log2(len(np.unique(self.classes)))]),
                        "You divided by log2 of the number of clusters (classes), a "
                        "normalised entropy; H is asked in bits, not normalised."),
                Mistake("sign", np.array([-hc, -ht]),
                        "An entropy is never negative: mind the minus sign in front of the "
                        "sum."),
                Mistake("uniform shares", np.array(
                            [math.log2(len(np.unique(self.clusters))),
                             math.log2(len(np.unique(self.classes)))]),
                        "log2 of the number of clusters (classes) is the entropy of clusters "
                        "of equal size, its largest value; H uses the actual shares "
                        "n_i / n of the sizes."),
                Mistake("conditional entropies", np.array([hc - mi, ht - mi]),
                        "Those are the conditional entropies H(C | T) and H(T | C) (what is "
                        "left of one once the other is known); H(C) and H(T) come from the "
                        "cluster sizes and the class sizes alone."),
                Mistake("joint entropy", np.array([hc + ht - mi, ht]),
                        "Your H(C) is the joint entropy H(C, T) = -sum_ij p_ij log2 p_ij of "
                        "the cells; H(C) uses the cluster sizes p_i = n_i / n (the rows' "
                        "sums)."),
                Mistake("H(C) as the clustering's entropy e", np.array([ht - mi, ht]),
                        "Your H(C) is the entropy of the clustering e = sum_i (n_i / n) e_i "
                        "(the clusters' class entropies, weighted), which is H(T | C); H(C) "
                        "is the entropy of the cluster sizes alone, -sum_i p_i log2 p_i."),
                Mistake("counts for p_i", np.array([hc, ht]) * n,
                        "You weighted each log by the count n_i; the weight is the share "
                        "p_i = n_i / n: H = -sum_i p_i log2 p_i."),
                Mistake("counts in the log", np.array([hc, ht]) - math.log2(n),
                        "You took the log of the counts, -sum_i p_i log2 n_i; the log is of "
                        "the shares p_i = n_i / n, as is the weight in front of it."),
                Mistake("no p_i weight", np.array([-np.sum(np.log2(p)) for p in shares]),
                        "You added up the logs -log2 p_i alone; each must be weighted by "
                        "its share: H = -sum_i p_i log2 p_i."),
                Mistake("Gini impurity", np.array([1 - np.sum(p ** 2) for p in shares]),
                        "That is the Gini impurity 1 - sum_i p_i^2 (a decision tree's "
                        "measure); the entropy is -sum_i p_i log2 p_i, in bits.")]

    def explain(self, d):
        for name, labels, sizes in (("H(C)", self.clusters, "cluster sizes"),
                                    ("H(T)", self.classes, "class sizes")):
            h = entropy(labels)
            d.text(f"*{name} = {fmt(h)} bits*, from the {sizes}:")
            d.extend(h.derivation(), heading=False)


class MutualInformation(NumberQuestion):
    qid, title, dataset = "02.2", "the mutual information I(C, T)", "exercise_2"
    asked = "I(C, T)"
    ties_named = True
    hints = ("p_ij = n_ij / n, p_i = n_i / n, p_j = m_j / n: start from the contingency table.",
             "I(C, T) = sum_ij p_ij log2( p_ij / (p_i p_j) ), over the cells with n_ij > 0.",
             "The lecture's transcription drops the p_ij weight in front of the log: put it back.")

    def describe(self, d):
        describe_exercise_2(self, d)
        d.text("Compute the mutual information $I(\\mathcal{C}, \\mathcal{T}) = \\sum_{ij} "
               "p_{ij} \\log_2 \\frac{p_{ij}}{p_i p_j}$ in bits.")

    def compute_key(self):
        return float(mutual_information(self.classes, self.clusters, base=2))

    def mistakes(self):
        hc, ht = float(entropy(self.clusters)), float(entropy(self.classes))
        hj = hc + ht - self.compute_key()            # H(C, T)
        n = len(self.classes)
        return [Mistake("natural log", self.compute_key() * math.log(2),
                        "That is the mutual information in nats (natural log); use log2."),
                Mistake("log10", float(mutual_information(self.classes, self.clusters,
                                                          base=10)),
                        "You used log10 (decimal digits); the course measures information in "
                        "bits with log2."),
                Mistake("no p_ij weight", _unweighted_mi(self.classes, self.clusters),
                        "You added up the logs log2(p_ij / (p_i p_j)) alone, with no weight; "
                        "each log must be weighted by p_ij."),
                Mistake("lecture's garbled formula", _garbled_mi(self.classes, self.clusters),
                        "You followed the lecture's transcription, which weights each log by "
                        "p_ij / (p_i p_j). The weight is p_ij."),
                Mistake("joint entropy", hj,
                        "That is the joint entropy H(C, T) = -sum_ij p_ij log2 p_ij; the "
                        "mutual information is H(C) + H(T) - H(C, T)."),
                Mistake("H(T | C)", hj - hc,
                        "That is the conditional entropy H(T | C) = H(C, T) - H(C), what is "
                        "left of the classes once the cluster is known; I(C, T) = H(T) - "
                        "H(T | C)."),
                Mistake("H(C | T)", hj - ht,
                        "That is the conditional entropy H(C | T) = H(C, T) - H(T); I(C, T) "
                        "= H(C) - H(C | T)."),
                Mistake("H(C) + H(T)", hc + ht,
                        "That is H(C) + H(T); the mutual information subtracts the joint "
                        "entropy: I = H(C) + H(T) - H(C, T)."),
                Mistake("sign", -self.compute_key(),
                        "The mutual information is never negative: I = H(C) + H(T) - "
                        "H(C, T), mind the order of the terms."),
                Mistake("unweighted conditional entropy", ht - float(np.mean(
                            cluster_entropy(self.classes, self.clusters).per_cluster)),
                        "You took H(T) minus the plain mean of the clusters' entropies e_i; "
                        "H(T | C) weights each e_i by its cluster's share n_i / n."),
                Mistake("counts for p_ij", self.compute_key() * len(self.classes),
                        "You weighted each log by the count n_ij; the weight is the share "
                        "p_ij = n_ij / n."),
                Mistake("NMI", self.compute_key() / math.sqrt(hc * ht),
                        "That is the NMI, I / sqrt(H(C) H(T)); the question asks for the "
                        "mutual information I(C, T) itself, in bits."),
                Mistake("variation of information", hc + ht - 2 * self.compute_key(),
                        "That is the variation of information H(C) + H(T) - 2 I, a distance; "
                        "the mutual information is H(C) + H(T) - H(C, T)."),
                Mistake("counts in the log", self.compute_key() - math.log2(n),
                        "You put the counts into the log, log2(n_ij / (n_i m_j)); the log "
                        "takes the shares, p_ij / (p_i p_j) = n n_ij / (n_i m_j): the factor "
                        "n is missing."),
                Mistake("p_j missing in the log", -(hj - hc),
                        "You divided p_ij by p_i alone in the log, which gives minus the "
                        "conditional entropy H(T | C); the log is of p_ij / (p_i p_j), both "
                        "shares below."),
                Mistake("p_i missing in the log", -(hj - ht),
                        "You divided p_ij by p_j alone in the log, which gives minus the "
                        "conditional entropy H(C | T); the log is of p_ij / (p_i p_j), both "
                        "shares below."),
                Mistake("H(C) - H(T | C)", hc - (hj - hc),
                        "You subtracted H(T | C) (the clusters' entropy e) from H(C); each "
                        "entropy loses its own conditional one: I = H(T) - H(T | C) = H(C) - "
                        "H(C | T)."),
                Mistake("H(T) - H(C | T)", ht - (hj - ht),
                        "You subtracted H(C | T) from H(T); each entropy loses its own "
                        "conditional one: I = H(T) - H(T | C) = H(C) - H(C | T)."),
                Mistake("unweighted conditional entropy of the classes", hc - float(np.mean(
                            cluster_entropy(self.clusters, self.classes).per_cluster)),
                        "You took H(C) minus the plain mean of the classes' entropies (over "
                        "the clusters); H(C | T) weights each class's entropy by its share "
                        "m_j / n."),
                Mistake("arithmetic NMI", 2 * self.compute_key() / (hc + ht),
                        "That is the NMI normalised by (H(C) + H(T)) / 2 (scikit-learn's "
                        "default); the question asks for the mutual information I(C, T) "
                        "itself, in bits."),
                Mistake("homogeneity", self.compute_key() / ht,
                        "That is the homogeneity I / H(T) = 1 - H(T | C) / H(T), a share "
                        "between 0 and 1; the question asks for I(C, T) itself, in bits."),
                Mistake("completeness", self.compute_key() / hc,
                        "That is the completeness I / H(C) = 1 - H(C | T) / H(C), a share "
                        "between 0 and 1; the question asks for I(C, T) itself, in bits."),
                Mistake("AMI", float(adjusted_mutual_information(self.classes, self.clusters)),
                        "That is the adjusted mutual information (AMI), which subtracts the "
                        "I expected by chance and rescales; the question asks for I(C, T) "
                        "itself, in bits."),
                *[Mistake("marginals exchanged", value,
                          "You divided p_ij by the class share of row i and the cluster share "
                          "of column j; row i's share is its cluster's, p_i = n_i / n, and "
                          "column j's its class's, p_j = m_j / n.")
                  for value in _exchanged_marginals_mi(self.classes, self.clusters)],
                Mistake("the bound min(H(C), H(T))", min(hc, ht),
                        "That is min(H(C), H(T)), the largest value I(C, T) can take (when "
                        "one labelling tells the other); compute I from the cells: sum_ij "
                        "p_ij log2(p_ij / (p_i p_j)).")]

    def explain(self, d):
        d.extend(mutual_information(self.classes, self.clusters, base=2).derivation())


class LectureNMI(NumberQuestion):
    qid, title, dataset = "02.3", "NMI (the lecture's table)", "lecture_table"
    asked = "NMI"
    ties_named = True
    hints = ("NMI = I(C, T) / sqrt(H(C) H(T)): the geometric mean of I/H(C) and I/H(T).",
             "The base of the logarithms cancels in the ratio.")

    def describe(self, d):
        d.text(self.ours("The lecture's contingency table", "Your contingency table")
               + " (rows clusters, columns classes):")
        head, rows = table_rows(self.table, ["C1", "C2", "C3"], ["T1", "T2", "T3"])
        d.table(head, rows)
        d.text("Compute the normalized mutual information "
               "$NMI = I(\\mathcal{C},\\mathcal{T}) / \\sqrt{H(\\mathcal{C}) H(\\mathcal{T})}$.")

    def _nmi(self, average="geometric"):
        return normalized_mutual_information(*lecture_labels(self), average=average)

    def compute_key(self):
        return float(self._nmi())

    def mistakes(self):
        r = self._nmi()
        geometric, n = math.sqrt(float(r.h_clusters) * float(r.h_classes)), int(self.table.sum())
        return [Mistake("arithmetic mean", float(self._nmi("arithmetic")),
                        "You normalised by (H(C) + H(T)) / 2; the lecture uses the geometric "
                        "mean sqrt(H(C) H(T))."),
                Mistake("I / H(C)", float(r.mi) / float(r.h_clusters),
                        "That is I / H(C) alone; NMI is the geometric mean of I/H(C) and "
                        "I/H(T)."),
                Mistake("I / H(T)", float(r.mi) / float(r.h_classes),
                        "That is I / H(T) alone; NMI is the geometric mean of I/H(C) and "
                        "I/H(T)."),
                Mistake("max normalisation", float(self._nmi("max")),
                        "You divided by the larger entropy max(H(C), H(T)); the lecture's NMI "
                        "divides by their geometric mean sqrt(H(C) H(T))."),
                Mistake("min normalisation", float(self._nmi("min")),
                        "You divided by the smaller entropy min(H(C), H(T)); the lecture's NMI "
                        "divides by their geometric mean sqrt(H(C) H(T))."),
                Mistake("not normalised", float(r.mi),
                        "That is I(C, T) itself; NMI divides it by sqrt(H(C) H(T))."),
                Mistake("product, no square root", float(r.mi) / (float(r.h_clusters)
                                                                   * float(r.h_classes)),
                        "You divided by H(C) H(T); NMI divides by its square root."),
                Mistake("joint normalisation", float(r.mi) / (float(r.h_clusters) + float(
                            r.h_classes) - float(r.mi)),
                        "You divided by the joint entropy H(C, T); the lecture's NMI divides "
                        "by sqrt(H(C) H(T))."),
                Mistake("nats over bits", float(r.mi) * math.log(2) / math.sqrt(
                            float(r.h_clusters) * float(r.h_classes)),
                        "Your I is in nats and your entropies in bits: use one base for all "
                        "three (then it cancels)."),
                Mistake("1 - NMI", 1 - float(r),
                        "That is 1 - NMI, a distance; NMI itself is I / sqrt(H(C) H(T)), 1 "
                        "when the clustering tells the classes exactly."),

                *[Mistake(f"AMI ({average})", value,
                          "That is the adjusted mutual information (AMI), which subtracts "
                          "the I expected by chance; the lecture's NMI divides I itself by "
                          "sqrt(H(C) H(T)).") for average, value in self._amis().items()],
                Mistake("no p_ij weight", _unweighted_mi(*lecture_labels(self)) / math.sqrt(
                            float(r.h_clusters) * float(r.h_classes)),
                        "Your I adds up the logs log(p_ij / (p_i p_j)) alone, with no "
                        "weight; each log must be weighted by p_ij before dividing by "
                        "sqrt(H(C) H(T))."),
                Mistake("lecture's garbled formula", _garbled_mi(*lecture_labels(self)) /
                        geometric,
                        "Your I follows the lecture's transcription, which weights each log "
                        "by p_ij / (p_i p_j); the weight is p_ij."),
                Mistake("square root of the whole", math.sqrt(float(r)),
                        "You took the square root of I / sqrt(H(C) H(T)); the square root is "
                        "of the denominator alone, NMI = I / sqrt(H(C) H(T))."),
                Mistake("log10 over bits", float(r.mi) * math.log10(2) / geometric,
                        "Your I is in decimal digits (log10) and your entropies in bits: use "
                        "one base for all three (then it cancels)."),
                Mistake("bits over nats", float(r.mi) / (geometric * math.log(2)),
                        "Your I is in bits and your entropies in nats (natural log): use one "
                        "base for all three (then it cancels)."),
                Mistake("mean of I/H(C) and I/H(T)", (float(r.mi) / float(r.h_clusters)
                                                       + float(r.mi) / float(r.h_classes)) / 2,
                        "You took the arithmetic mean of I/H(C) and I/H(T); the lecture's NMI "
                        "is their geometric mean, I / sqrt(H(C) H(T))."),
                Mistake("I / (H(C) + H(T))", float(r.mi) / (float(r.h_clusters)
                                                             + float(r.h_classes)),
                        "You divided by the sum H(C) + H(T) (without halving it, nor the "
                        "square root of the product); the lecture's NMI divides by sqrt(H(C) "
                        "H(T))."),
                Mistake("normalised variation of information", (
                            float(r.h_clusters) + float(r.h_classes) - 2 * float(r.mi))
                        / (float(r.h_clusters) + float(r.h_classes) - float(r.mi)),
                        "That is the normalised variation of information (H(C) + H(T) - 2 I) "
                        "/ H(C, T), a distance (0 for identical partitions); NMI is a "
                        "similarity, I / sqrt(H(C) H(T))."),
                Mistake("counts in the log", (float(r.mi) - math.log2(n)) / geometric,
                        "Your I puts the counts into the log, log2(n_ij / (n_i m_j)); the log "
                        "takes the shares, p_ij / (p_i p_j) = n n_ij / (n_i m_j): the factor "
                        "n is missing.")]

    def _amis(self) -> dict:
        """The AMI normalised by the geometric and the arithmetic mean of the entropies
        (one expected MI for both: it is the costly part, a sum over 1550 instances)."""
        a = adjusted_mutual_information(*lecture_labels(self), average="arithmetic")
        mi, emi = float(a.mi), float(a.emi)
        geometric = math.sqrt(float(a.h_clusters) * float(a.h_classes))
        return {"geometric": (mi - emi) / (geometric - emi), "arithmetic": float(a)}

    def explain(self, d):
        r = self._nmi()
        d.extend(r.derivation())
        d.extend(r.mi.derivation())
        d.extend(r.h_clusters.derivation())
        d.extend(r.h_classes.derivation())


class SingletonsNMI(NumbersQuestion):
    qid, title, dataset = "02.4", "over-splitting: purity vs NMI", "exercise_2"
    parts = ("purity", "NMI")
    ties_named = True
    hints = ("Every example alone: each cluster has one member, so each is pure.",
             "With singletons, I(C, T) = H(T) (knowing the cluster tells the class) and "
             "H(C) = log2 n.")

    def describe(self, d):
        d.text(f"Take the classes of the ten examples ({', '.join(map(str, self.classes))}) and "
               "a clustering that puts **every example in its own cluster**. Compute its "
               "purity and its NMI (geometric).")

    def _singletons(self):
        return np.arange(1, len(self.classes) + 1)

    def compute_key(self):
        s = self._singletons()
        return np.array([float(purity(self.classes, s)),
                         float(normalized_mutual_information(self.classes, s))])

    def mistakes(self):
        p = self.compute_key()[0]
        s = self._singletons()
        hc, ht = math.log2(len(self.classes)), float(entropy(self.classes))
        return [Mistake("NMI is 1", np.array([p, 1.0]),
                        "NMI is 1 only when the clustering and the classes tell each other "
                        "completely: here the clusters say more than the classes do. "
                        "Compare H(C) with I(C, T)."),
                Mistake("NMI is 0", np.array([p, 0.0]),
                        "NMI is 0 only when the clusters tell nothing of the class. Does "
                        "knowing an example's cluster tell its class here?"),
                Mistake("one cluster for all", np.array(
                            [np.unique(self.classes, return_counts=True)[1].max()
                             / len(self.classes), 0.0]),
                        "You scored a clustering that puts every example in *one* cluster; "
                        "the question puts every example in a cluster of its own."),
                Mistake("nats over bits", np.array([p, ht * math.log(2) / math.sqrt(hc * ht)]),
                        "Your I is in nats and your entropies in bits: use one base for all "
                        "three (then it cancels)."),
                Mistake("arithmetic NMI", np.array([p, float(normalized_mutual_information(
                            self.classes, s, average="arithmetic"))]),
                        "You normalised by (H(C) + H(T)) / 2; the question asks for the "
                        "geometric NMI, I / sqrt(H(C) H(T))."),
                Mistake("max NMI", np.array([p, float(normalized_mutual_information(
                            self.classes, s, average="max"))]),
                        "You normalised by max(H(C), H(T)) = H(C) = log2 n; the question asks "
                        "for the geometric NMI, I / sqrt(H(C) H(T))."),
                Mistake("I not normalised", np.array([p, float(entropy(self.classes))]),
                        "That is I(C, T) = H(T) itself; NMI divides it by sqrt(H(C) H(T))."),
                Mistake("H(C) in nats", np.array([p, float(entropy(self.classes)) / math.sqrt(
                            float(entropy(self.classes)) * math.log(len(self.classes)))]),
                        "Your H(C) = ln n is in nats while I and H(T) are in bits: use log2 "
                        "for all (H(C) = log2 n)."),
                Mistake("purity as maximum matching", np.array(
                            [len(np.unique(self.classes)) / len(self.classes),
                             self.compute_key()[1]]),
                        "You matched each class to one cluster only (maximum matching); "
                        "purity lets every cluster take its own majority class, whatever the "
                        "other clusters take."),
                Mistake("the given clustering", np.array(
                            [float(purity(self.classes, self.clusters)),
                             float(normalized_mutual_information(self.classes,
                                                                 self.clusters))]),
                        "Those are the purity and NMI of the ten examples' own clustering; "
                        "the question asks about a clustering that puts every example in a "
                        "cluster of its own."),
                Mistake("purity 1/n", np.array([1 / len(self.classes),
                                                self.compute_key()[1]]),
                        "You counted one majority example in all; purity adds up the "
                        "majority count of *every* cluster before dividing by n."),
                Mistake("AMI for NMI", np.array([p, float(adjusted_mutual_information(
                            self.classes, s))]),
                        "That is the adjusted mutual information (AMI), 0 here: every "
                        "shuffle of singletons tells the class as well, so E[I] = I. The "
                        "question asks for the NMI, I / sqrt(H(C) H(T)), which is not "
                        "adjusted for chance."),
                Mistake("I = H(C)", np.array([p, math.sqrt(hc / ht)]),
                        "You took I(C, T) = H(C); the mutual information can never exceed "
                        "either entropy, so it cannot be H(C) when H(C) > H(T). Which one "
                        "bounds it here?"),
                Mistake("no square root", np.array([p, 1 / hc]),
                        "You divided I = H(T) by H(C) H(T); NMI divides by its square root, "
                        "sqrt(H(C) H(T))."),
                Mistake("H(C) of the given clustering", np.array([p, math.sqrt(
                            ht / float(entropy(self.clusters)))]),
                        "Your H(C) is the entropy of the examples' own clusters (02.1); with "
                        "every example alone there are n clusters of one: H(C) = log2 n."),
                Mistake("H(T) as log2 of the number of classes", np.array([p, math.sqrt(
                            math.log2(len(np.unique(self.classes))) / hc)]),
                        "You took I = H(T) as log2 of the number of classes, the entropy of "
                        "classes of equal size; H(T) uses the class sizes' shares, -sum_j "
                        "p_j log2 p_j."),
                Mistake("H(C) as log2 of the number of classes", np.array([p, math.sqrt(
                            ht / math.log2(len(np.unique(self.classes))))]),
                        "Your H(C) is log2 of the number of classes; the clustering has n "
                        "clusters of one example each, so H(C) = log2 n.")]

    def explain(self, d):
        s = self._singletons()
        d.extend(purity(self.classes, s).derivation())
        d.extend(normalized_mutual_information(self.classes, s).derivation())
        d.text("Purity rewards over-splitting with a perfect score; NMI penalises it through "
               "H(C).")


# ------------------------------------------------------- a function as the answer
class MutualInformationFunction(FunctionQuestion):
    qid, title, dataset = "02.5", "write mutual_information(truth, pred)", "exercise_2"
    signature = "mutual_information(truth, pred)"
    asked = "I(C, T)"
    points = 2.0
    hints = MutualInformation.hints + (
        "The labels can be any values: list the distinct labels the data hold rather than "
        "assuming 1..k; skip the cells with n_ij = 0 (0 log 0 = 0).",)

    def describe(self, d):
        d.text("Write a function `mutual_information(truth, pred)` that returns the mutual "
               "information $I(\\mathcal{C}, \\mathcal{T}) = \\sum_{ij} p_{ij} \\log_2 "
               "\\frac{p_{ij}}{p_i p_j}$ of the clusters `pred` and the classes `truth` "
               "(arrays of labels of the same length, any labels), in bits. Write it "
               "yourself, without the library's `mutual_information`.")
        d.text("`check(mutual_information)` runs it on your data below and on a few small "
               "cases; when graded it also runs on hidden cases.")
        describe_exercise_2(self, d)

    def shown_case(self):
        return {"truth": self.classes.tolist(), "pred": self.clusters.tolist()}

    def small_cases(self):
        return [{"truth": [1, 1, 1, 2], "pred": [1, 1, 2, 2]},
                {"truth": [1, 1, 2, 2], "pred": [1, 2, 1, 2]},
                {"truth": [0, 0, 1, 1, 1], "pred": [4, 4, 4, 9, 9]},
                {"truth": [1, 2, 3, 4], "pred": [1, 1, 1, 1]},
                {"truth": [1, 1, 2, 3], "pred": [1, 2, 2, 3]}]

    def hidden_case(self, rng):
        n = int(rng.integers(6, 16))
        return {"truth": rng.integers(1, int(rng.integers(3, 5)), n),
                "pred": rng.integers(0, int(rng.integers(2, 5)), n) * 2}

    def compute_key(self, cases=None):
        return self.outputs(lambda truth, pred: float(mutual_information(truth, pred, base=2)),
                            cases)

    def mistakes(self, cases=None):
        return [Mistake("natural log", self.outputs(
                    lambda truth, pred: float(mutual_information(truth, pred, base=math.e)),
                    cases),
                    "Your function gives the mutual information in nats (natural log); "
                    "the course measures it in bits: use log2."),
                Mistake("no p_ij weight", self.outputs(_unweighted_mi, cases),
                        "Your function adds up the logs log2(p_ij / (p_i p_j)) alone, with "
                        "no weight; each log must be weighted by p_ij."),
                Mistake("lecture's garbled formula", self.outputs(_garbled_mi, cases),
                        "Your function follows the lecture's transcription, which weights "
                        "each log by p_ij / (p_i p_j). The weight is p_ij.")]

    def explain(self, d):
        d.text("```python\ndef mutual_information(truth, pred):\n"
               "    truth, pred = np.asarray(truth), np.asarray(pred)\n"
               "    n, total = len(truth), 0.0\n"
               "    for c in np.unique(pred):\n"
               "        for t in np.unique(truth):\n"
               "            p_ij = np.sum((pred == c) & (truth == t)) / n\n"
               "            if p_ij > 0:                       # 0 log 0 = 0\n"
               "                p_i, p_j = np.mean(pred == c), np.mean(truth == t)\n"
               "                total += p_ij * np.log2(p_ij / (p_i * p_j))\n"
               "    return total\n```")
        d.extend(mutual_information(self.classes, self.clusters, base=2).derivation())


__all__ += ["MutualInformationFunction"]
