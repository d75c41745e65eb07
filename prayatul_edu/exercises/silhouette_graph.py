"""Notebook 04: the silhouette coefficient and the graph measures.

The tutorial's Exercise 1 (a_i, b_i, s_i, per cluster and overall, and the
comment on C_1), the normalized cut of the same data (the lecture's internal
measures, in their correct form) and a new question: choose k by silhouette.
"""
from __future__ import annotations

import numpy as np

from .. import beta_cv, calinski_harabasz, davies_bouldin, normalized_cut, silhouette
from ..steps import fmt
from ._base import Mistake, table_rows
from .kinds import (ChoiceQuestion, FunctionQuestion, IntegerQuestion, NumberQuestion,
                    NumbersQuestion)

__all__ = ["SilhouetteA", "SilhouetteB", "SilhouetteS", "SilhouetteSummary",
           "SuitabilityC1", "NormalizedCut", "ChooseK"]

_COUNT = {4: "Four", 5: "Five"}


def _sil(q):
    return silhouette(q.D, q.labels, metric="precomputed")


def _describe_ex1(q, d):
    lab = np.asarray(q.labels)
    names = [f"x{i + 1}" for i in range(len(lab))]
    groups = ", ".join(f"$C_{c} = \\{{" + ", ".join(f"x_{i + 1}" for i in np.flatnonzero(lab == c))
                       + "\\}$" for c in np.unique(lab))
    d.text(f"{_COUNT.get(len(lab), len(lab))} examples clustered as {groups}; their distances:")
    head, rows = table_rows(q.D, names, names)
    d.table(head, rows)


def _parts(q, *, self_included=False, b_rule="mean"):
    """a_i and b_i by a rule: the point itself in a_i's average; b_i as the mean distance
    to the other cluster (``"mean"``), its nearest or farthest point, or the mean over all
    the other points (``"all"``)."""
    D, lab = np.asarray(q.D, dtype=float), np.asarray(q.labels)
    own, other = _own_other(q)
    if self_included:
        own = own | np.eye(len(lab), dtype=bool)
    a = (D * own).sum(1) / own.sum(1)
    b = {"mean": lambda: (D * other).sum(1) / other.sum(1),
         "nearest": lambda: np.where(other, D, np.inf).min(1),
         "farthest": lambda: np.where(other, D, -np.inf).max(1),
         "all": lambda: D.sum(1) / (len(lab) - 1)}[b_rule]()
    return a, b


def _s(a, b):
    return (b - a) / np.maximum(a, b)


def _own_other(q):
    """Boolean masks: same cluster (without the point itself), other cluster."""
    lab = np.asarray(q.labels)
    same = lab[:, None] == lab[None, :]
    return same & ~np.eye(len(lab), dtype=bool), ~same


class _EachPoint(NumbersQuestion):
    """A number per point (04.1-04.3), on 04.4's data: on a variant five points in clusters
    of three and two, so that a cluster of three tells a sum from a mean and the nearest
    member from the mean of the others (with two in a cluster they are one number)."""
    dataset = "silhouette_sizes"
    symbol = ""

    @property
    def parts(self):
        return tuple(f"{self.symbol}_{i + 1}" for i in range(len(self.labels)))

    @property
    def _range(self):
        return f"$i = 1..{len(self.labels)}$"


class SilhouetteA(_EachPoint):
    qid, title = "04.1", "a_i for each point"
    symbol = "a"
    ties_named = True
    hints = ("a_i is the average distance from x_i to the *other* members of its cluster.",
             "Divide by |C| - 1: x_i itself is not one of the others.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute $a_i$, the average distance of $x_i$ to the other examples of its "
               f"cluster, for {self._range}.")

    def compute_key(self):
        return np.asarray(_sil(self).a, dtype=float)

    def mistakes(self):
        own, _ = _own_other(self)
        D = np.asarray(self.D)
        n = len(D)
        with_self = (D * (own | np.eye(n, dtype=bool))).sum(1) / (own.sum(1) + 1)
        all_others = D.sum(1) / (n - 1)
        return [Mistake("sum instead of mean", (D * own).sum(1),
                        "a_i is an *average* distance: divide the sum by |C| - 1, the number "
                        "of the other points of x_i's cluster."),
                Mistake("nearest other point", np.where(np.eye(n, dtype=bool), np.inf,
                                                        D).min(1),
                        "You took the distance to x_i's nearest other point; a_i averages the "
                        "distances to all the other members of x_i's own cluster."),
                Mistake("point itself included", with_self,
                        "You included x_i itself (distance 0) in the average: a_i divides by "
                        "|C| - 1, the number of *other* points of the cluster."),
                Mistake("all other points", all_others,
                        "You averaged over all other points; a_i only uses the points of "
                        "x_i's own cluster."),
                Mistake("the other cluster (b_i)", _parts(self)[1],
                        "That is the average distance to the *other* cluster (b_i); a_i "
                        "averages over the other points of x_i's own cluster.")]

    def explain(self, d):
        own, _ = _own_other(self)
        D = np.asarray(self.D)
        a = _sil(self).a
        d.formula(r"a_i = \frac{1}{|C| - 1}\sum_{x_j \in C,\ j \ne i} d(x_i, x_j)",
                  "a_i = (1 / (|C| - 1)) * sum of d(x_i, x_j) over the other members x_j of C")
        for i in range(len(D)):
            js = np.flatnonzero(own[i])
            terms = " + ".join(fmt(D[i, j]) for j in js)
            names = ", ".join(f"x{j + 1}" for j in js)
            d.step(rf"a_{i + 1} = ({terms}) / {len(js)} = {fmt(a[i])}",
                   f"a_{i + 1} = ({terms}) / {len(js)} = {fmt(a[i])}   (others: {names})")


class SilhouetteB(_EachPoint):
    qid, title = "04.2", "b_i for each point"
    symbol = "b"
    ties_named = True
    hints = ("For x_i, average its distances to the members of each *other* cluster; b_i is "
             "the smallest of these averages.",
             "With two clusters there is only one other cluster: b_i is the mean distance to it.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute $b_i$, the smallest average distance of $x_i$ to the examples of "
               f"another cluster, for {self._range}.")

    def compute_key(self):
        return np.asarray(_sil(self).b, dtype=float)

    def mistakes(self):
        _, other = _own_other(self)
        D = np.asarray(self.D)
        return [Mistake("sum instead of mean", (D * other).sum(1),
                        "b_i is an *average* distance: divide the sum by the size of the "
                        "other cluster."),
                Mistake("nearest point", np.where(other, D, np.inf).min(1),
                        "You took the distance to the nearest point of the other cluster; "
                        "b_i averages over all its points."),
                Mistake("farthest point", _parts(self, b_rule="farthest")[1],
                        "You took the distance to the farthest point of the other cluster; "
                        "b_i averages over all its points (and then takes the nearest "
                        "*cluster*, when there are several)."),
                Mistake("all other points", _parts(self, b_rule="all")[1],
                        "You averaged over all the other points, x_i's own cluster included; "
                        "b_i averages over the points of another cluster only."),
                Mistake("own cluster (a_i)", _parts(self)[0],
                        "That is the average distance within x_i's own cluster (a_i); b_i "
                        "averages over the points of the other cluster.")]

    def explain(self, d):
        _, other = _own_other(self)
        D = np.asarray(self.D)
        b = _sil(self).b
        d.formula(r"b_i = \min_{C_k \ne C} \frac{1}{|C_k|}\sum_{x_j \in C_k} d(x_i, x_j)",
                  "b_i = the smallest, over the other clusters C_k, of the mean distance "
                  "from x_i to the members of C_k")
        for i in range(len(D)):
            js = np.flatnonzero(other[i])
            terms = " + ".join(fmt(D[i, j]) for j in js)
            d.step(rf"b_{i + 1} = ({terms}) / {len(js)} = {fmt(b[i])}",
                   f"b_{i + 1} = ({terms}) / {len(js)} = {fmt(b[i])}")
        d.text("With two clusters there is one other cluster, so the minimum is over one mean.")


class SilhouetteS(_EachPoint):
    qid, title = "04.3", "s_i for each point"
    symbol = "s"
    ties_named = True
    hints = ("s_i = (b_i - a_i) / max(a_i, b_i).",
             "s_i is negative when x_i is on average closer to another cluster than to its own.",
             "Stuck on a_i or b_i? a_i is the mean distance to the *other* members of x_i's "
             "cluster (04.1: divide by |C| - 1); b_i the mean distance to all the members of "
             "the other cluster (04.2). Then divide b_i - a_i by the larger of the two.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute the silhouette $s_i = (b_i - a_i)/\\max(a_i, b_i)$ of each example.")

    def compute_key(self):
        return np.asarray(_sil(self).samples, dtype=float)

    def mistakes(self):
        s = _sil(self)
        a, b = np.asarray(s.a), np.asarray(s.b)
        return [Mistake("divided by b_i", (b - a) / b,
                        "Divide by max(a_i, b_i), not by b_i: when a_i > b_i that matters."),
                Mistake("sign flipped", (a - b) / np.maximum(a, b),
                        "The sign is flipped: s_i = (b_i - a_i) / max(...), positive for a "
                        "well placed point."),
                Mistake("point itself in a_i", _s(*_parts(self, self_included=True)),
                        "Your a_i includes x_i itself (distance 0): a_i averages over the "
                        "*other* points of the cluster, dividing by |C| - 1 (see 04.1)."),
                Mistake("divided by a_i", (b - a) / a,
                        "Divide by max(a_i, b_i), not by a_i."),
                Mistake("divided by min(a_i, b_i)", (b - a) / np.minimum(a, b),
                        "Divide by the larger of a_i and b_i, max(a_i, b_i), so that s_i "
                        "stays between -1 and 1."),
                Mistake("not divided", b - a,
                        "You stopped at b_i - a_i; s_i divides it by max(a_i, b_i)."),
                Mistake("b_i from the nearest point", _s(*_parts(self, b_rule="nearest")),
                        "Your b_i is the distance to the nearest point of the other cluster; "
                        "b_i averages over all the points of the other cluster (see 04.2)."),
                Mistake("b_i from the farthest point", _s(*_parts(self, b_rule="farthest")),
                        "Your b_i is the distance to the farthest point of the other cluster; "
                        "b_i averages over all the points of the other cluster (see 04.2)."),
                Mistake("a_i and b_i rounded early", _s(np.round(a, 1), np.round(b, 1)),
                        "You rounded a_i and b_i (to 1 decimal) before dividing; keep them "
                        "unrounded and round s_i only at the end.")]

    def explain(self, d):
        s = _sil(self)
        d.formula(r"s_i = \frac{b_i - a_i}{\max(a_i, b_i)}", "s_i = (b_i - a_i) / max(a_i, b_i)")
        for i, (a, b, v) in enumerate(zip(s.a, s.b, s.samples)):
            d.step(rf"s_{i + 1} = \frac{{{fmt(b)} - {fmt(a)}}}{{\max({fmt(a)}, {fmt(b)})}} "
                   rf"= {fmt(v)}",
                   f"s_{i + 1} = ({fmt(b)} - {fmt(a)}) / max({fmt(a)}, {fmt(b)}) = {fmt(v)}")
        d.text("a_i and b_i as in 04.1 and 04.2.")


class SilhouetteSummary(NumbersQuestion):
    qid, title, dataset = "04.4", "s per cluster and overall", "silhouette_sizes"
    parts = ("s_C1", "s_C2", "s_C")
    ties_named = True
    hints = ("s_C for a cluster is the mean of its members' s_i.",
             "The overall s averages all N points' s_i.",
             "Average the s_i, not the a_i and b_i.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute the silhouette of each cluster, $s_{C_1}$ and $s_{C_2}$, and of the "
               "whole clustering, $s_{\\mathcal{C}}$.")

    def compute_key(self):
        s = _sil(self)
        return np.array([*np.asarray(s.per_cluster, dtype=float), float(s)])

    def mistakes(self):
        s = _sil(self)
        a, b, lab = np.asarray(s.a), np.asarray(s.b), np.asarray(self.labels)
        wrong = []
        for c in (1, 2):
            ma, mb = a[lab == c].mean(), b[lab == c].mean()
            wrong.append((mb - ma) / max(ma, mb))
        ma, mb = a.mean(), b.mean()
        wrong.append((mb - ma) / max(ma, mb))
        by_b = (b - a) / b
        key = self.compute_key()
        with_self = _s(*_parts(self, self_included=True))
        v = np.asarray(s.samples, dtype=float)
        near = _s(*_parts(self, b_rule="nearest"))
        return [Mistake("averaged a and b first", np.array(wrong),
                        "You averaged a_i and b_i first and then formed (b - a)/max(a, b). "
                        "Compute every s_i, then average the s_i."),
                Mistake("s_C as the mean of the clusters", np.array(
                            [key[0], key[1], (key[0] + key[1]) / 2]),
                        "Your s_C is the mean of s_C1 and s_C2; the overall silhouette "
                        "averages all N points' s_i, so a larger cluster weighs more."),
                Mistake("point itself in a_i", np.array(
                            [with_self[lab == 1].mean(), with_self[lab == 2].mean(),
                             with_self.mean()]),
                        "Your a_i include x_i itself (distance 0): a_i averages over the "
                        "*other* points of the cluster, dividing by |C| - 1."),
                Mistake("divided by b_i", np.array(
                            [by_b[lab == 1].mean(), by_b[lab == 2].mean(), by_b.mean()]),
                        "Your s_i divide by b_i; s_i = (b_i - a_i) / max(a_i, b_i)."),
                Mistake("sums, not means", np.array(
                            [v[lab == 1].sum(), v[lab == 2].sum(), v.sum()]),
                        "You added up the s_i; the silhouette of a cluster (and of the "
                        "clustering) is their *mean*: divide by the number of points."),
                Mistake("s_C as the best cluster", np.array(
                            [key[0], key[1], max(key[0], key[1])]),
                        "Your s_C is the silhouette of the better cluster; the overall "
                        "silhouette averages all N points' s_i, of both clusters."),
                Mistake("median, not mean", np.array(
                            [np.median(v[lab == 1]), np.median(v[lab == 2]), np.median(v)]),
                        "You took the median of the s_i; s_C is their mean."),
                Mistake("b_i as the nearest point", np.array(
                            [near[lab == 1].mean(), near[lab == 2].mean(), near.mean()]),
                        "Your b_i is the distance to the nearest point of the other cluster; "
                        "b_i averages over all the points of the other cluster (see 04.2)."),
                Mistake("distances as coordinates", np.array(
                            [key[0], key[1], float(silhouette(self.D, lab))]),
                        "Your s_C treats the rows of the distance matrix as the points' "
                        "coordinates (a silhouette function given D without "
                        "`metric=\"precomputed\"`); D already holds the distances d(x_i, "
                        "x_j).")]

    def explain(self, d):
        s = _sil(self)
        lab, v = np.asarray(self.labels), np.asarray(s.samples, dtype=float)
        rows = [(f"s_{{C_{c}}}", f"s_C{c}", np.flatnonzero(lab == c)) for c in (1, 2)]
        for tex, name, idx in rows + [(r"s_{\mathcal{C}}", "s_C", np.arange(len(v)))]:
            mean = f"({' + '.join(fmt(v[i]) for i in idx)}) / {len(idx)} = {fmt(v[idx].mean())}"
            mean = mean.replace("+ -", "- ")
            d.step(f"{tex} = {mean}", f"{name} = {mean}")
        d.text("Each s_i as in 04.3 (a_i over the *other* members of the cluster, b_i over "
               "the members of the other cluster). The overall s_C averages all the points' "
               "s_i (not the two cluster values; with clusters of equal size it is the same).")


class SuitabilityC1(ChoiceQuestion):
    qid, title, dataset = "04.5", "is C1 a good cluster?", "exercise_1"
    hints = ("Look at s_1, s_2 and s_C1; then compare a_i with b_i.",
             "s_i near 1: x_i sits well in its cluster; near 0: on the border; negative: it "
             "is closer on average to another cluster.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Comment on the suitability of the examples assigned to $C_1$: which "
               "statements are true?")
        self.describe_options(d)

    def statements(self):
        s = _sil(self)
        s1, s2 = s.samples[0], s.samples[1]
        a, b = s.a, s.b
        return [
            ("Both x1 and x2 have a silhouette above 0.5.", bool(s1 > 0.5 and s2 > 0.5),
             "Compute s_1 and s_2."),
            ("Each of x1, x2 is closer on average to its own cluster than to C2 "
             "(a_i < b_i).", bool(a[0] < b[0] and a[1] < b[1]), "Compare a_i with b_i."),
            ("C1 has a higher silhouette than C2.", bool(s.per_cluster[0] > s.per_cluster[1]),
             "Compare s_C1 with s_C2."),
            ("Some point of C1 would fit better in C2 (a negative s_i in C1).",
             bool(min(s1, s2) < 0), "A negative s_i means that; check the signs of s_1, s_2."),
            ("A silhouette near 0 would mean the point lies between the two clusters.", True,
             "s_i = 0 means a_i = b_i: as close to its own cluster as to the other."),
        ]

    def explain_choice(self, d):
        s = _sil(self)
        d.table(["", "a_i", "b_i", "s_i"],
                [[f"x{i + 1}", s.a[i], s.b[i], s.samples[i]] for i in range(len(self.D))])
        d.text(f"s_C1 = {fmt(s.per_cluster[0])}, s_C2 = {fmt(s.per_cluster[1])}.")


class NormalizedCut(NumberQuestion):
    qid, title, dataset = "04.6", "the normalized cut", "exercise_1"
    asked = "NC"
    ties_named = True
    hints = ("W(S, R) = sum over i in S, j in R of w_ij, with the distances as weights.",
             "NC = sum_i W(C_i, not C_i) / W(C_i, V): V is all the examples, so W(C_i, V) "
             "includes the pairs inside C_i (in both orders) and those leaving it.",
             "The lecture's lines for NC are muddled: the denominator is W(C_i, V), not n.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("With the distances as edge weights, compute the normalized cut "
               "$NC = \\sum_i W(C_i, \\overline{C_i}) / W(C_i, V)$.")

    def compute_key(self):
        return float(normalized_cut(self.D, self.labels))

    def mistakes(self):
        D, lab = np.asarray(self.D), np.asarray(self.labels)
        cuts, ins, sizes = [], [], []
        for c in np.unique(lab):
            m = lab == c
            cuts.append(D[m][:, ~m].sum())
            ins.append(D[m][:, m].sum())
            sizes.append(m.sum())
        cuts, ins, sizes = map(np.array, (cuts, ins, sizes))
        return [Mistake("divided by n", cuts.sum() / len(lab),
                        "You divided by n, as the lecture's muddled line does; divide each "
                        "cut by the cluster's volume W(C_i, V)."),
                Mistake("divided by W(C_i, C_i)", (cuts / ins).sum(),
                        "The denominator is W(C_i, V), all the weight at C_i (inside *and* "
                        "leaving), not only the weight inside."),
                Mistake("pairs inside counted once", (cuts / (cuts + ins / 2)).sum(),
                        "Your W(C_i, V) counts each pair inside C_i once; W(C_i, V) sums w_ij "
                        "over every i in C_i and every j in V, so a pair inside C_i counts in "
                        "both orders."),
                Mistake("divided by n_i", (cuts / sizes).sum(),
                        "You divided each cut by the cluster's size n_i; the denominator is "
                        "its volume W(C_i, V), a sum of weights."),
                Mistake("weight inside over volume", (ins / (ins + cuts)).sum(),
                        "You added up W(C_i, C_i) / W(C_i, V), the weight that stays inside; "
                        "NC adds up the weight that leaves, W(C_i, not C_i) / W(C_i, V)."),
                Mistake("mean over clusters", (cuts / (ins + cuts)).mean(),
                        "You averaged the terms over the clusters; NC is their sum."),
                Mistake("divided by the total weight", cuts.sum() / D.sum(),
                        "You divided by the weight of the whole graph W(V, V); each cut is "
                        "divided by its own cluster's volume W(C_i, V), and the terms added."),
                Mistake("one cluster only", cuts[0] / (ins[0] + cuts[0]),
                        "That is the term of C_1 alone; NC adds the terms of every cluster, "
                        "W(C_i, not C_i) / W(C_i, V) for each C_i."),
                Mistake("BetaCV", float(beta_cv(D, lab)),
                        "That is BetaCV (the mean weight inside the clusters over the mean "
                        "weight between them); NC adds up each cluster's cut over its "
                        "volume, W(C_i, not C_i) / W(C_i, V).")]

    def explain(self, d):
        d.extend(normalized_cut(self.D, self.labels).derivation())


def _silhouette_summaries(D, labels) -> tuple:
    """The mean, the median and the clusters' mean of the s_i of one clustering on the
    distance matrix ``D``, vectorised: a_i and b_i of every point from its sums of
    distances to each cluster (``D`` times the clusters' indicator matrix). The
    library's ``silhouette`` computes the same s_i with all that a
    derivation needs (about 2.5 ms a call at n = 12); 04.7 screens a variant on a few
    dozen silhouettes, and draws many variants."""
    codes = np.unique(labels, return_inverse=True)[1].ravel()
    member = codes[:, None] == np.arange(codes.max() + 1)[None, :]      # n x c
    sizes = member.sum(0)
    sums = D @ member                                                    # sum to each C
    own = np.arange(len(codes)), codes
    a = sums[own] / np.maximum(sizes[codes] - 1, 1)
    b = np.where(member, np.inf, sums / sizes).min(1)
    top = np.maximum(a, b)
    s = np.where((sizes[codes] > 1) & (top > 0), (b - a) / np.where(top > 0, top, 1), 0.0)
    return float(s.mean()), float(np.median(s)), float(((s @ member) / sizes).mean())


def _distance_matrix(X, metric: str = "euclidean") -> np.ndarray:
    """The points' distance matrix for a 04.7 slip: SciPy's ``metric`` (``"euclidean"``,
    ``"cityblock"``, ``"cosine"``) or ``"squared"`` (the squared Euclidean distance)."""
    from scipy.spatial.distance import cdist

    X = np.asarray(X, dtype=float)
    D = cdist(X, X, "sqeuclidean" if metric == "squared" else metric)
    D = np.maximum((D + D.T) / 2, 0.0)
    np.fill_diagonal(D, 0.0)
    return D


class ChooseK(IntegerQuestion):
    qid, title, dataset = "04.7", "choose k by silhouette", "choose_k"
    asked = "k"
    ties_named = True
    hints = ("Compute the overall silhouette of each candidate clustering "
             "(`silhouette(q.X, labels)`).",
             "A larger silhouette means tighter, better separated clusters.")

    def describe(self, d):
        d.text("Twelve points in the plane (`q.X`) and four candidate clusterings "
               "(`q.candidates[k]` for k = 2, 3, 4, 5; average-linkage agglomerative):")
        d.table(["point", "x", "y", *[f"k={k}" for k in self.candidates]],
                [[f"x{i + 1}", *self.X[i], *[int(lab[i]) for lab in self.candidates.values()]]
                 for i in range(len(self.X))])
        d.text("Which number of clusters k does the silhouette recommend?")

    def _scores(self):
        D = _distance_matrix(self.X)
        return {k: float(silhouette(D, lab, metric="precomputed"))
                for k, lab in self.candidates.items()}

    def compute_key(self):
        sc = self._scores()
        return max(sc, key=sc.get)

    def _by(self, score, best=max) -> int:
        """The k that ``score(labels)`` ranks first (``best=min``: the smallest value)."""
        values = {k: float(score(lab)) for k, lab in self.candidates.items()}
        return best(values, key=values.get)

    def _summaries(self, metric: str) -> dict:
        """k -> (mean, median, clusters' mean) of candidate k's s_i with ``metric``."""
        D = _distance_matrix(self.X, metric)
        return {k: _silhouette_summaries(D, lab) for k, lab in self.candidates.items()}

    def _silhouette_picks(self) -> dict:
        """The k each silhouette slip picks (another distance, another average), from
        :func:`_silhouette_summaries`."""
        euclid = self._summaries("euclidean")

        def best(summ, part=0):
            return max(summ, key=lambda k: summ[k][part])

        return {"median s_i": best(euclid, 1),
                "mean of the cluster silhouettes": best(euclid, 2),
                "Manhattan distance": best(self._summaries("cityblock")),
                "squared distances": best(self._summaries("squared")),
                "cosine distance": best(self._summaries("cosine"))}

    def _picks(self) -> dict:
        """The k each slip picks: another criterion, another distance, another average."""
        X = np.asarray(self.X, dtype=float)
        picks = self._silhouette_picks()
        return {"Calinski-Harabasz": self._by(lambda lab: calinski_harabasz(X, lab)),
                "Davies-Bouldin": self._by(lambda lab: davies_bouldin(X, lab), min),
                **picks}

    #: Slips every variant keeps apart from the key (:meth:`acceptable`). The others (the
    #: clusters' mean of the s_i, the Manhattan and the squared distance) are named where
    #: they differ: on the variants' kind of data (groups of uneven size, spread and
    #: shape) they pick the silhouette's k on most draws where the screened slips do not
    #: (of 1,500 draws 353 keep the screened slips but the median apart, 80 the median
    #: too, 12 the clusters' mean as well, none all four), and each screened slip costs a
    #: variant more draws.
    SCREENED = ("smallest silhouette", "largest k", "position, not k",
                "second largest silhouette", "Calinski-Harabasz", "Davies-Bouldin",
                "median s_i", "cosine distance")

    _SAID = {
        "Calinski-Harabasz": "You picked the k with the largest Calinski-Harabasz index (the "
                             "variance ratio); the question asks for the silhouette, and the "
                             "two disagree when the clusters differ in size or spread.",
        "Davies-Bouldin": "You picked the k with the smallest Davies-Bouldin index; the "
                          "question asks for the silhouette, which weighs every point's "
                          "a_i and b_i, not the clusters' centroids.",
        "median s_i": "You took the median of the s_i; the silhouette of a clustering is "
                      "their mean.",
        "mean of the cluster silhouettes": "You averaged the clusters' silhouettes s_C; the "
                                           "overall silhouette averages all the points' s_i, "
                                           "so a larger cluster weighs more (see 04.4).",
        "Manhattan distance": "You used the Manhattan (city-block) distance; the points are "
                              "compared by their Euclidean distance.",
        "squared distances": "You used the squared Euclidean distances (as the SSE does); "
                             "the silhouette averages the distances themselves.",
        "cosine distance": "You used the cosine distance (the angle seen from the origin); "
                           "the points are compared by their Euclidean distance."}

    def mistakes(self):
        sc = self._scores()
        return [Mistake("smallest silhouette", min(sc, key=sc.get),
                        "You picked the smallest silhouette; larger is better."),
                Mistake("largest k", max(sc),
                        "More clusters always tighten the clusters, but the silhouette also "
                        "asks for separation: compare the silhouettes."),
                Mistake("position, not k", list(sc).index(max(sc, key=sc.get)),
                        "That is the position of the best silhouette in the list of "
                        "candidates (counted from 0); the answer is its number of clusters "
                        "k."),
                Mistake("second largest silhouette", sorted(sc, key=sc.get)[-2],
                        "That k has the second largest silhouette; the silhouette recommends "
                        "the k of the largest."),
                *[Mistake(name, k, self._SAID[name]) for name, k in self._picks().items()]]

    def acceptable(self):
        """A clear winner, and every slip of :attr:`SCREENED` picks another k. The
        silhouettes are those of :func:`_silhouette_summaries` (vectorised; equal to the
        library's, tests/test_exercise_slips.py); the cheap slips first."""
        euclid = self._summaries("euclidean")
        sc = {k: v[0] for k, v in euclid.items()}
        best, second = sorted(sc.values())[-2:][::-1]
        key = max(sc, key=sc.get)
        # the smallest and the second largest silhouette and the position (from 0) never
        # give k; the largest k, the median, the cosine, CH and DB must not
        if (best - second <= 0.02 or key == max(self.candidates)
                or max(euclid, key=lambda k: euclid[k][1]) == key):
            return False
        cosine = self._summaries("cosine")
        if max(cosine, key=lambda k: cosine[k][0]) == key:
            return False
        X = np.asarray(self.X, dtype=float)
        return (self._by(lambda lab: calinski_harabasz(X, lab)) != key
                and self._by(lambda lab: davies_bouldin(X, lab), min) != key)

    def explain(self, d):
        sc = self._scores()
        d.table(["k", "silhouette"], [[k, v] for k, v in sc.items()])
        d.text(f"The largest silhouette is at k = {self.compute_key()}.")
        d.extend(silhouette(self.X, self.candidates[self.compute_key()]).derivation())


# ------------------------------------------------------- a function as the answer
def _line(x) -> list:
    """The distances of points on a line (a case a student can check by hand)."""
    x = np.asarray(x, dtype=float)
    return np.round(np.abs(x[:, None] - x[None, :]), 2).tolist()


def _s_i(D, labels, i, *, self_in_a=False, nearest_point=False):
    """s_i by the lecture's formula, or with one of two slips: a_i averaged over the whole
    cluster, the point's own zero distance included; b_i the distance to the nearest
    point of another cluster instead of the nearest cluster's mean."""
    D, labels = np.asarray(D, dtype=float), np.asarray(labels)
    own = labels == labels[i]
    if own.sum() == 1 and not self_in_a:
        return 0.0                                   # alone in its cluster: s_i = 0
    a = D[i, own].sum() / (own.sum() if self_in_a else own.sum() - 1)
    if nearest_point:
        b = D[i, ~own].min()
    else:
        b = min(D[i, labels == c].mean() for c in np.unique(labels[~own]))
    return 0.0 if max(a, b) == 0 else float((b - a) / max(a, b))


class SilhouetteFunction(FunctionQuestion):
    qid, title, dataset = "04.8", "write silhouette_of(D, labels, i)", "exercise_1"
    signature = "silhouette_of(D, labels, i)"
    asked = "s_i"
    points = 2.0
    hints = ("a_i: the mean distance from point i to the *other* points of its own cluster "
             "(divide by |C| - 1: the point itself is not one of them).",
             "b_i: for each other cluster, the mean distance from point i to its points; "
             "b_i is the smallest of these means (the nearest *cluster*, not the nearest "
             "point).",
             "s_i = (b_i - a_i) / max(a_i, b_i); a point alone in its cluster has s_i = 0.")

    def describe(self, d):
        d.text("Write a function `silhouette_of(D, labels, i)` that returns the silhouette "
               "$s_i$ of point `i` (counted from 0: $x_1$ is `i = 0`) from the distance "
               "matrix `D` (an n x n array) and the cluster `labels` (an array of "
               "length n): $a_i$ the mean distance to the other points of its cluster, "
               "$b_i$ the smallest mean distance to the points of another cluster, "
               "$s_i = (b_i - a_i) / \\max(a_i, b_i)$, and $s_i = 0$ for a point alone in "
               "its cluster. Write it yourself, without the library's `silhouette`.")
        d.text("`check(silhouette_of)` runs it on your data below (point $x_1$) and on a "
               "few small cases; when graded it also runs on hidden cases.")
        _describe_ex1(self, d)

    def shown_case(self):
        return {"D": np.asarray(self.D).tolist(), "labels": np.asarray(self.labels).tolist(),
                "i": 0}

    def small_cases(self):
        return [{"D": _line([0, 1, 3, 4]), "labels": [1, 1, 2, 2], "i": 0},
                {"D": _line([0, 4, 5, 6]), "labels": [1, 1, 2, 2], "i": 1},
                {"D": _line([0, 1, 2, 4, 6]), "labels": [1, 1, 2, 2, 2], "i": 1},
                {"D": _line([0, 2, 3]), "labels": [1, 2, 2], "i": 0},
                {"D": _line([0, 1, 2.2, 9, 3, 3.5]), "labels": [1, 1, 2, 2, 3, 3], "i": 1},
                # three in its cluster: a_i a mean, not the nearest one nor a sum
                {"D": _line([0, 1, 5, 9, 10]), "labels": [1, 1, 1, 2, 2], "i": 0}]

    def hidden_case(self, rng):
        n = int(rng.integers(5, 10))
        X = rng.uniform(0, 10, (n, 2))
        labels = np.concatenate([[1, 2], rng.integers(1, 4, n - 2)])
        rng.shuffle(labels)
        D = np.round(np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)), 2)
        return {"D": D, "labels": labels, "i": int(rng.integers(0, n))}

    def compute_key(self, cases=None):
        return self.outputs(lambda D, labels, i: float(silhouette(
            np.asarray(D, dtype=float), labels, metric="precomputed").samples[i]), cases)

    def mistakes(self, cases=None):
        return [Mistake("a_i includes the point itself",
                        self.outputs(lambda D, labels, i: _s_i(D, labels, i, self_in_a=True),
                                     cases),
                        "Your a_i includes the point itself: it averages over the whole "
                        "cluster, the zero distance d(x_i, x_i) included. a_i is the mean "
                        "over the *other* points of the cluster (divide by |C| - 1)."),
                Mistake("b_i as the nearest point",
                        self.outputs(lambda D, labels, i: _s_i(D, labels, i,
                                                               nearest_point=True), cases),
                        "Your b_i is the distance to the nearest point of another cluster. "
                        "b_i is the mean distance to the points of the nearest *cluster* "
                        "(the smallest of the clusters' means).")]

    def explain(self, d):
        d.text("```python\ndef silhouette_of(D, labels, i):\n"
               "    D, labels = np.asarray(D, dtype=float), np.asarray(labels)\n"
               "    own = labels == labels[i]\n"
               "    if own.sum() == 1:\n"
               "        return 0.0                       # alone in its cluster\n"
               "    a = D[i, own].sum() / (own.sum() - 1)  # d(x_i, x_i) = 0 is not a neighbour\n"
               "    b = min(D[i, labels == c].mean() for c in np.unique(labels[~own]))\n"
               "    return (b - a) / max(a, b)\n```")
        d.extend(_sil(self).derivation())


__all__ += ["SilhouetteFunction"]
