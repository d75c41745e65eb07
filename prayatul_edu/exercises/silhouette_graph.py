"""Notebook 04: the silhouette coefficient and the graph measures.

The tutorial's Exercise 1 (a_i, b_i, s_i, per cluster and overall, and the
comment on C_1), the normalized cut of the same data (the lecture's internal
measures, in their correct form) and a new question: choose k by silhouette.
"""
from __future__ import annotations

import numpy as np

from .. import beta_cv, calinski_harabasz, davies_bouldin, normalized_cut, silhouette
from ..steps import fmt
from ._base import Mistake, apart, table_rows
from .kinds import (ChoiceQuestion, FunctionQuestion, InvalidAnswer, NumberQuestion,
                    NumbersQuestion)

__all__ = ["SilhouetteA", "SilhouetteB", "SilhouetteS", "SilhouetteSummary",
           "SuitabilityC1", "NormalizedCut", "ChooseK"]

_COUNT = {4: "Four", 5: "Five", 8: "Eight"}


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
    """a_i and b_i by a rule: the point itself in a_i's average; b_i as the smallest mean
    distance to another cluster (``"mean"``, the lecture's), the smallest sum
    (``"sum"``), the distance to the nearest point of another cluster (``"nearest"``),
    the smallest over the other clusters of the distance to their farthest point
    (``"farthest"``), the median instead of the mean (``"median"``), the mean of the
    cluster that holds x_i's nearest point (``"nearest point's cluster"``) or of the
    cluster of the smallest sum (``"smallest sum's cluster"``), the mean of the other
    clusters' means (``"mean of means"``), sums over |C'| - 1 (``"over size - 1"``), the largest
    mean instead of the smallest (``"largest mean"``), the
    mean over the points of all the other clusters pooled (``"pooled"``), or the mean
    over all the other points, x_i's own cluster included (``"all"``)."""
    D, lab = np.asarray(q.D, dtype=float), np.asarray(q.labels)
    own, other = _own_other(q)
    if self_included:
        own = own | np.eye(len(lab), dtype=bool)
    a = (D * own).sum(1) / own.sum(1)
    if b_rule == "all":
        return a, D.sum(1) / (len(lab) - 1)
    if b_rule == "pooled":
        return a, (D * other).sum(1) / other.sum(1)
    if b_rule == "nearest":
        return a, np.where(other, D, np.inf).min(1)
    if b_rule == "smallest sum's cluster":
        sums = np.stack([D[:, lab == c].sum(1) for c in np.unique(lab)], 1)
        mine = lab[:, None] == np.unique(lab)[None, :]
        pick = np.where(mine, np.inf, sums).argmin(1)
        return a, np.array([D[i, lab == np.unique(lab)[pick[i]]].mean()
                            for i in range(len(lab))])
    if b_rule == "nearest point's cluster":
        j = np.where(other, D, np.inf).argmin(1)
        return a, np.array([D[i, lab == lab[j[i]]].mean() for i in range(len(lab))])
    # one column per cluster: the rule applied to x_i's distances to that cluster
    per = np.stack([{"mean": lambda m: D[:, m].mean(1), "sum": lambda m: D[:, m].sum(1),
                     "largest mean": lambda m: D[:, m].mean(1),
                     "farthest": lambda m: D[:, m].max(1),
                     "median": lambda m: np.median(D[:, m], 1),
                     "mean of means": lambda m: D[:, m].mean(1),
                     "over size - 1": lambda m: D[:, m].sum(1) / max(m.sum() - 1, 1)
                     }[b_rule](lab == c)
                    for c in np.unique(lab)], 1)
    mine = lab[:, None] == np.unique(lab)[None, :]
    if b_rule == "mean of means":
        return a, np.where(mine, 0.0, per).sum(1) / (~mine).sum(1)
    if b_rule == "largest mean":
        return a, np.where(mine, -np.inf, per).max(1)
    return a, np.where(mine, np.inf, per).min(1)


def _as_points(q) -> np.ndarray:
    """The s_i of the slip that gives a silhouette function the rows of D as points."""
    from scipy.spatial.distance import cdist

    D = np.asarray(q.D, dtype=float)
    return np.asarray(silhouette(cdist(D, D), q.labels, metric="precomputed").samples,
                      dtype=float)


def _s(a, b):
    return (b - a) / np.maximum(a, b)


def _own_other(q):
    """Boolean masks: same cluster (without the point itself), other cluster."""
    lab = np.asarray(q.labels)
    same = lab[:, None] == lab[None, :]
    return same & ~np.eye(len(lab), dtype=bool), ~same


class _EachPoint(NumbersQuestion):
    """A number per point (04.1-04.3). On a variant eight points in three clusters (of
    four, two and two): a cluster of four tells a sum, a median or the nearest member from
    the mean of the others, and a second other cluster tells b_i (the *nearest* cluster's
    mean) from the mean over both other clusters, the farther cluster's mean or the mean of
    the cluster of x_i's nearest point. The course's data are the tutorial's Exercise 1,
    two clusters of two."""
    dataset = "silhouette_three"
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
                        "That is the average distance to the nearest *other* cluster (b_i); "
                        "a_i averages over the other points of x_i's own cluster."),
                Mistake("nearest other point of the cluster",
                        np.where(own, D, np.inf).min(1),
                        "You took the distance to the nearest other member of x_i's "
                        "cluster; a_i averages the distances to all of them."),
                Mistake("farthest other point of the cluster",
                        np.where(own, D, -np.inf).max(1),
                        "You took the distance to the farthest other member of x_i's "
                        "cluster; a_i averages the distances to all of them."),
                Mistake("squared distances", (D ** 2 * own).sum(1) / own.sum(1),
                        "You averaged the *squared* distances; a_i averages the distances "
                        "themselves."),
                Mistake("median, not mean", np.array(
                            [np.median(D[i, own[i]]) for i in range(n)]),
                        "You took the median of the distances to the other members of x_i's "
                        "cluster; a_i is their mean."),
                Mistake("row sum over n", D.sum(1) / n,
                        "You averaged x_i's whole row of distances over n (itself and the "
                        "other clusters included); a_i averages over the other members of "
                        "x_i's own cluster only, dividing by |C| - 1."),
                Mistake("own-cluster sum over n - 1", (D * own).sum(1) / (n - 1),
                        "Your sum over x_i's own cluster is right, but you divided it by "
                        "n - 1; divide by |C| - 1, the number of the other points of the "
                        "cluster.")]

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
             "One mean per other cluster, then the smallest: do not pool the other clusters' "
             "points into one average. With two clusters there is only one mean.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute $b_i$, the smallest average distance of $x_i$ to the examples of "
               f"another cluster, for {self._range}.")

    def compute_key(self):
        return np.asarray(_sil(self).b, dtype=float)

    def mistakes(self):
        _, other = _own_other(self)
        D = np.asarray(self.D)
        n = len(D)
        a, b = _parts(self)
        return [Mistake("sum instead of mean", _parts(self, b_rule="sum")[1],
                        "b_i is an *average* distance: divide each other cluster's sum by "
                        "its size, then take the smallest."),
                Mistake("nearest point", np.where(other, D, np.inf).min(1),
                        "You took the distance to the nearest point of another cluster; "
                        "b_i averages over all the points of a cluster (and then takes the "
                        "nearest *cluster*)."),
                Mistake("farthest point", _parts(self, b_rule="farthest")[1],
                        "You took the distance to the farthest point of the other cluster; "
                        "b_i averages over all its points (and then takes the nearest "
                        "*cluster*, when there are several)."),
                Mistake("all other points", _parts(self, b_rule="all")[1],
                        "You averaged over all the other points, x_i's own cluster included; "
                        "b_i averages over the points of another cluster only."),
                Mistake("own cluster (a_i)", a,
                        "That is the average distance within x_i's own cluster (a_i); b_i "
                        "averages over the points of another cluster."),
                Mistake("other clusters pooled", _parts(self, b_rule="pooled")[1],
                        "You averaged over the points of all the other clusters at once; "
                        "b_i takes one mean per other cluster and keeps the smallest."),
                Mistake("median, not mean", _parts(self, b_rule="median")[1],
                        "You took the median of x_i's distances to a cluster; b_i takes "
                        "their mean (then the smallest over the other clusters)."),
                Mistake("the nearest point's cluster",
                        _parts(self, b_rule="nearest point's cluster")[1],
                        "You took the mean distance to the cluster that holds x_i's nearest "
                        "point; b_i compares the *means* of all the other clusters and "
                        "keeps the smallest, which can be another cluster's."),
                Mistake("the cluster of the smallest sum",
                        _parts(self, b_rule="smallest sum's cluster")[1],
                        "You chose the nearest cluster by the *sum* of the distances (a "
                        "smaller cluster has a smaller sum); b_i compares the clusters' "
                        "*means* and keeps the smallest."),
                Mistake("mean of the clusters' means", _parts(self, b_rule="mean of means")[1],
                        "You averaged the other clusters' means; b_i keeps the smallest of "
                        "them, the mean distance to the nearest other cluster."),
                Mistake("divided by |C| - 1", _parts(self, b_rule="over size - 1")[1],
                        "You divided the sum over another cluster by its size minus one; x_i "
                        "is not in that cluster, so its mean divides by its size |C'|."),
                Mistake("largest mean", _parts(self, b_rule="largest mean")[1],
                        "You kept the *largest* of the other clusters' means; b_i is the "
                        "smallest, the mean distance to the nearest other cluster."),
                Mistake("all points, itself included", D.sum(1) / n,
                        "You averaged x_i's whole row over n (its own cluster and itself "
                        "included); b_i averages over the points of another cluster only."),
                Mistake("b_i - a_i", b - a,
                        "That is b_i - a_i, the top of the silhouette; the question asks "
                        "for b_i itself.")]

    def explain(self, d):
        _, other = _own_other(self)
        D = np.asarray(self.D)
        b = _sil(self).b
        d.formula(r"b_i = \min_{C_k \ne C} \frac{1}{|C_k|}\sum_{x_j \in C_k} d(x_i, x_j)",
                  "b_i = the smallest, over the other clusters C_k, of the mean distance "
                  "from x_i to the members of C_k")
        lab = np.asarray(self.labels)
        for i in range(len(D)):
            means = []
            for c in np.unique(lab[other[i]]):
                js = np.flatnonzero(lab == c)
                terms = " + ".join(fmt(D[i, j]) for j in js)
                means.append(f"({terms}) / {len(js)}")
            if len(means) == 1:
                d.step(rf"b_{i + 1} = {means[0]} = {fmt(b[i])}",
                       f"b_{i + 1} = {means[0]} = {fmt(b[i])}")
            else:
                d.step(rf"b_{i + 1} = \min({', '.join(means)}) = {fmt(b[i])}",
                       f"b_{i + 1} = min({', '.join(means)}) = {fmt(b[i])}")
        d.text("One mean per other cluster; with two clusters the minimum is over one mean.")


class SilhouetteS(_EachPoint):
    qid, title = "04.3", "s_i for each point"
    symbol = "s"
    ties_named = True
    hints = ("s_i = (b_i - a_i) / max(a_i, b_i).",
             "s_i is negative when x_i is on average closer to another cluster than to its own.",
             "Stuck on a_i or b_i? a_i is the mean distance to the *other* members of x_i's "
             "cluster (04.1: divide by |C| - 1); b_i the smallest of the mean distances to "
             "the other clusters (04.2). Then divide b_i - a_i by the larger of the two.")

    def describe(self, d):
        _describe_ex1(self, d)
        d.text("Compute the silhouette $s_i = (b_i - a_i)/\\max(a_i, b_i)$ of each example.")

    def compute_key(self):
        return np.asarray(_sil(self).samples, dtype=float)

    def mistakes(self):
        s = _sil(self)
        a, b = np.asarray(s.a), np.asarray(s.b)
        own, _ = _own_other(self)
        D_ = np.asarray(self.D, dtype=float)
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
                        "Your b_i is the distance to the nearest point of another cluster; "
                        "b_i averages over all the points of a cluster (see 04.2)."),
                Mistake("b_i from the farthest point", _s(*_parts(self, b_rule="farthest")),
                        "Your b_i is the distance to the farthest point of a cluster; "
                        "b_i averages over all the points of a cluster (see 04.2)."),
                Mistake("a_i and b_i rounded early", _s(np.round(a, 1), np.round(b, 1)),
                        "You rounded a_i and b_i (to 1 decimal) before dividing; keep them "
                        "unrounded and round s_i only at the end."),
                Mistake("a_i and b_i rounded to 2 decimals", _s(np.round(a, 2), np.round(b, 2)),
                        "You rounded a_i and b_i (to 2 decimals) before dividing; keep them "
                        "unrounded and round s_i only at the end."),
                Mistake("divided by a_i + b_i", (b - a) / (a + b),
                        "Divide by max(a_i, b_i), not by a_i + b_i."),
                Mistake("a_i / b_i", a / b,
                        "You gave a_i / b_i; s_i = (b_i - a_i) / max(a_i, b_i), which is "
                        "1 - a_i / b_i only when a_i < b_i."),
                Mistake("a_i over all other points", _s(_parts(self, b_rule="all")[1], b),
                        "Your a_i averages over all the other points; a_i uses the other "
                        "points of x_i's own cluster only (see 04.1)."),
                Mistake("distances as coordinates", _as_points(self),
                        "Your s_i treat the rows of the distance matrix as the points' "
                        "coordinates (a silhouette function told it was given points); D "
                        "already holds the distances d(x_i, x_j)."),
                Mistake("b_i over all other points", _s(a, _parts(self, b_rule="all")[1]),
                        "Your b_i averages over all the other points, x_i's own cluster "
                        "included; b_i is the smallest of the *other* clusters' means (see "
                        "04.2)."),
                Mistake("sums for means", _s((D_ * own).sum(1), _parts(self, b_rule="sum")[1]),
                        "Your a_i and b_i are sums of distances; both are *means* (04.1, "
                        "04.2), and a sum over a larger cluster weighs more."),
                Mistake("b_i over the other clusters pooled", _s(*_parts(self, b_rule="pooled")),
                        "Your b_i averages over the points of all the other clusters at "
                        "once; b_i is the smallest of the other clusters' means (see 04.2)."),
                Mistake("b_i from the nearest point's cluster",
                        _s(*_parts(self, b_rule="nearest point's cluster")),
                        "Your b_i is the mean distance to the cluster of x_i's nearest point; "
                        "b_i is the smallest of the other clusters' means (see 04.2)."),
                Mistake("b_i from the cluster of the smallest sum",
                        _s(*_parts(self, b_rule="smallest sum's cluster")),
                        "Your b_i is the mean distance to the cluster of the smallest *sum*; "
                        "b_i is the smallest of the other clusters' *means* (see 04.2)."),
                Mistake("b_i as the largest mean", _s(*_parts(self, b_rule="largest mean")),
                        "Your b_i is the mean distance to the *farthest* other cluster; b_i "
                        "is the smallest of the other clusters' means (see 04.2).")]

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

    #: 04.3's slips that 04.4 lists in its own words (the others are carried over)
    _OWN = ("point itself in a_i", "divided by b_i", "b_i from the nearest point",
            "divided by min(a_i, b_i)", "divided by a_i")

    def _from_each_point(self, key) -> list:
        """04.3's slips in the s_i, averaged as 04.4 asks: a student who made one there
        makes it here. Only where it gives another answer (with two clusters a pooled b_i
        is b_i)."""
        lab = np.asarray(self.labels)
        out = []
        for m in SilhouetteS(None, data=self.data).mistakes():
            v = np.asarray(m.value, dtype=float)
            value = np.array([v[lab == 1].mean(), v[lab == 2].mean(), v.mean()])
            if m.name not in self._OWN and apart(value, key):
                out.append(Mistake(m.name, value, f"{m.message} (Your s_i have the slip "
                                                  "of 04.3.)"))
        return out

    def mistakes(self):
        s = _sil(self)
        a, b, lab = np.asarray(s.a), np.asarray(s.b), np.asarray(self.labels)
        wrong = []
        for c in (1, 2):
            ma, mb = a[lab == c].mean(), b[lab == c].mean()
            wrong.append((mb - ma) / max(ma, mb))
        ma, mb = a.mean(), b.mean()
        wrong.append((mb - ma) / max(ma, mb))
        by_b, by_min, by_a = (b - a) / b, (b - a) / np.minimum(a, b), (b - a) / a
        r = np.round(np.asarray(s.samples, dtype=float), 2)
        key = self.compute_key()
        with_self = _s(*_parts(self, self_included=True))
        v = np.asarray(s.samples, dtype=float)
        near = _s(*_parts(self, b_rule="nearest"))
        return [*self._from_each_point(key),
                Mistake("averaged a and b first", np.array(wrong),
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
                Mistake("cluster sums, overall mean", np.array(
                            [v[lab == 1].sum(), v[lab == 2].sum(), key[2]]),
                        "Your s_C1 and s_C2 add up their members' s_i; a cluster's "
                        "silhouette is their *mean*, as your overall s_C is."),
                Mistake("divided by min(a_i, b_i)", np.array(
                            [by_min[lab == 1].mean(), by_min[lab == 2].mean(), by_min.mean()]),
                        "Your s_i divide by min(a_i, b_i); s_i = (b_i - a_i) / max(a_i, b_i), "
                        "between -1 and 1."),
                Mistake("divided by a_i", np.array(
                            [by_a[lab == 1].mean(), by_a[lab == 2].mean(), by_a.mean()]),
                        "Your s_i divide by a_i; s_i = (b_i - a_i) / max(a_i, b_i)."),
                Mistake("a and b averaged per cluster", np.array(
                            [wrong[0], wrong[1], (wrong[0] + wrong[1]) / 2]),
                        "You averaged a_i and b_i within each cluster first and formed "
                        "(b - a)/max(a, b) from the means. Compute every s_i, then average "
                        "the s_i (for s_C, over all N points)."),
                Mistake("s_C as the sum of the clusters", np.array(
                            [key[0], key[1], key[0] + key[1]]),
                        "Your s_C adds s_C1 and s_C2; the overall silhouette is the *mean* "
                        "of all N points' s_i."),
                Mistake("s_i rounded early", np.array(
                            [r[lab == 1].mean(), r[lab == 2].mean(), r.mean()]),
                        "You rounded the s_i (to 2 decimals) before averaging; keep them "
                        "unrounded and round only the answers."),
                Mistake("distances as coordinates for s_C", np.array(
                            [key[0], key[1], float(silhouette(self.D, lab))]),
                        "Your s_C treats the rows of the distance matrix as the points' "
                        "coordinates (a silhouette function told it was given points); D "
                        "already holds the distances d(x_i, x_j).")]

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
                        "You divided by n, as the muddled line the exercise quotes does; "
                        "divide each cut by the cluster's volume W(C_i, V)."),
                Mistake("divided by W(C_i, C_i)", (cuts / ins).sum(),
                        "The denominator is W(C_i, V), all the weight at C_i (inside *and* "
                        "leaving), not only the weight inside."),
                Mistake("pairs inside counted once", (cuts / (cuts + ins / 2)).sum(),
                        "Your W(C_i, V) counts each pair inside C_i once; W(C_i, V) sums w_ij "
                        "over every i in C_i and every j in V, so a pair inside C_i counts in "
                        "both orders."),
                Mistake("divided by n_i", (cuts / sizes).sum(),
                        "You divided each cut by the cluster's size n_i (with two clusters "
                        "of two that is also the cut W(C_1, C_2) itself); the denominator is "
                        "each cluster's volume W(C_i, V), a sum of weights."),
                Mistake("each cut counted twice", (2 * cuts / (ins + cuts)).sum(),
                        "You counted each cut edge in both directions, W(C_i, not C_i) + "
                        "W(not C_i, C_i); the cut W(C_i, not C_i) counts each pair between "
                        "C_i and the rest once, and the volume W(C_i, V) holds it once."),
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
                Mistake("weight inside over the cut", (ins / cuts).sum(),
                        "You divided the weight inside each cluster by its cut; NC divides "
                        "each cut W(C_i, not C_i) by the cluster's volume W(C_i, V)."),
                Mistake("sum of the cuts", cuts.sum(),
                        "You added up the cuts W(C_i, not C_i) without dividing; NC divides "
                        "each cluster's cut by its volume W(C_i, V) before adding."),
                Mistake("1 - NC", 1 - (cuts / (ins + cuts)).sum(),
                        "That is 1 - NC; NC itself adds up each cluster's cut over its "
                        "volume, W(C_i, not C_i) / W(C_i, V)."),
                Mistake("similarities 1 - d as weights", _nc(1 - D, lab),
                        "You turned the distances into similarities 1 - d; the question takes "
                        "the distances themselves as the edge weights."),
                Mistake("BetaCV", float(beta_cv(D, lab)),
                        "That is BetaCV (the mean weight inside the clusters over the mean "
                        "weight between them); NC adds up each cluster's cut over its "
                        "volume, W(C_i, not C_i) / W(C_i, V).")]

    def explain(self, d):
        d.extend(normalized_cut(self.D, self.labels).derivation())


def _nc(W, lab) -> float:
    """NC of the weights ``W`` (the diagonal ignored): a slip's weights for 04.6."""
    W = np.array(W, dtype=float)
    np.fill_diagonal(W, 0.0)
    return float(sum(W[m][:, ~m].sum() / W[m].sum() for m in (lab == c for c in np.unique(lab))))


def _silhouette_summaries(D, labels, *, self_in_a: bool = False, b_rule: str = "mean",
                          alone: str = "zero", form: str = "max") -> tuple:
    """The mean, the median and the clusters' mean of the s_i of one clustering on the
    distance matrix ``D``, vectorised: a_i and b_i of every point from its sums of
    distances to each cluster (``D`` times the clusters' indicator matrix). The
    library's ``silhouette`` computes the same s_i with all that a
    derivation needs (about 2.5 ms a call at n = 12); 04.7 screens a variant on a few
    dozen silhouettes, and draws many variants.

    The slips, for 04.7: ``self_in_a`` counts x_i itself (distance 0) in a_i's average;
    ``b_rule="nearest"`` takes b_i as the distance to the nearest point of another
    cluster, ``"pooled"`` as the mean over the points of all the other clusters,
    ``"largest"`` as the largest of their means; ``alone`` gives a point alone in its
    cluster s_i = 1 (``"one"``) or leaves it out (``"drop"``) instead of s_i = 0; ``form``
    divides b_i - a_i by ``"min"`` (a_i, b_i), by ``"a"``, ``"b"`` or their ``"sum"``, not at all
    (``"none"``), or flips the sign (``"flipped"``)."""
    codes = np.unique(labels, return_inverse=True)[1].ravel()
    member = codes[:, None] == np.arange(codes.max() + 1)[None, :]      # n x c
    sizes = member.sum(0)
    sums = D @ member                                                    # sum to each C
    own = np.arange(len(codes)), codes
    a = sums[own] / (sizes[codes] if self_in_a else np.maximum(sizes[codes] - 1, 1))
    if b_rule == "nearest":
        b = np.where(codes[:, None] == codes[None, :], np.inf, D).min(1)
    elif b_rule == "pooled":
        b = (D.sum(1) - sums[own]) / (len(codes) - sizes[codes])
    elif b_rule == "largest":
        b = np.where(member, -np.inf, sums / sizes).max(1)
    else:
        b = np.where(member, np.inf, sums / sizes).min(1)
    top = {"max": np.maximum(a, b), "min": np.minimum(a, b), "a": a, "b": b, "sum": a + b,
           "none": np.ones_like(a), "flipped": -np.maximum(a, b)}[form]
    many = sizes[codes] > 1
    s = np.where(many & (top != 0), (b - a) / np.where(top != 0, top, 1), 0.0)
    if alone == "one":
        s = np.where(many, s, 1.0)
    elif alone == "drop":
        s, member = s[many], member[many][:, sizes > 1]
        sizes = member.sum(0)
    return float(s.mean()), float(np.median(s)), float(((s @ member) / sizes).mean())


def _distance_matrix(X, metric: str = "euclidean") -> np.ndarray:
    """The points' distance matrix for a 04.7 slip: SciPy's ``metric`` (``"euclidean"``,
    ``"cityblock"``, ``"cosine"``), ``"squared"`` (the squared Euclidean distance) or
    ``"standardised"`` (Euclidean, after scaling each coordinate to mean 0 and sd 1)."""
    from scipy.spatial.distance import cdist

    X = np.asarray(X, dtype=float)
    if metric == "standardised":
        X, metric = (X - X.mean(0)) / X.std(0), "euclidean"
    D = cdist(X, X, "sqeuclidean" if metric == "squared" else metric)
    D = np.maximum((D + D.T) / 2, 0.0)
    np.fill_diagonal(D, 0.0)
    return D


class ChooseK(NumbersQuestion):
    """04.7: the k the silhouette recommends *and* its silhouette. The number k alone
    cannot tell a slip from the key when the slip picks the same k (another distance or
    another average often does, on twelve points); the silhouette that goes with it can:
    a Manhattan, squared or median silhouette is another number at the same k."""

    qid, title, dataset = "04.7", "choose k by silhouette", "choose_k"
    parts = ("k", "s")
    ties_named = True
    #: A slip is named only when it fits k *and* s: a wrong k with the right s is no
    #: slip about s (a median or another distance would give another s).
    partial_slips = False
    hints = ("Compute the overall silhouette of each candidate clustering "
             "(`silhouette(q.X, labels)`).",
             "A larger silhouette means tighter, better separated clusters: the recommended "
             "k is the candidate with the largest one, and s is that silhouette.")

    def describe(self, d):
        d.text("Twelve points in the plane (`q.X`) and four candidate clusterings "
               "(`q.candidates[k]` for k = 2, 3, 4, 5; average-linkage agglomerative):")
        d.table(["point", "x", "y", *[f"k={k}" for k in self.candidates]],
                [[f"x{i + 1}", *self.X[i], *[int(lab[i]) for lab in self.candidates.values()]]
                 for i in range(len(self.X))])
        d.text("Which number of clusters k does the silhouette (Euclidean distances) "
               "recommend? Give k and the overall silhouette $s$ of that clustering.")

    def read(self, answer):
        v = super().read(answer)
        if v[0] != int(v[0]) and v[1] == int(v[1]):
            raise InvalidAnswer(f"k, s: k comes first; you gave {fmt(v[0])}, {fmt(v[1])} "
                                "(the whole number second): give [k, s]")
        if v[0] != int(v[0]):
            raise InvalidAnswer(f"k: expected a whole number (a number of clusters), got "
                                f"{fmt(v[0])}")
        return v

    def _scores(self):
        D = _distance_matrix(self.X)
        return {k: float(silhouette(D, lab, metric="precomputed"))
                for k, lab in self.candidates.items()}

    def compute_key(self):
        sc = self._scores()
        k = max(sc, key=sc.get)
        return np.array([k, sc[k]])

    def _by(self, score, best=max) -> tuple:
        """The k that ``score(labels)`` ranks first (``best=min``: the smallest value), and
        that value."""
        values = {k: float(score(lab)) for k, lab in self.candidates.items()}
        k = best(values, key=values.get)
        return k, values[k]

    def _summaries(self, metric: str, **slip) -> dict:
        """k -> (mean, median, clusters' mean) of candidate k's s_i with ``metric`` (and a
        slip of :func:`_silhouette_summaries`)."""
        D = _distance_matrix(self.X, metric)
        return {k: _silhouette_summaries(D, lab, **slip) for k, lab in self.candidates.items()}

    def _silhouette_picks(self) -> dict:
        """The (k, value) each silhouette slip gives (another distance, another average,
        the point itself in a_i), from :func:`_silhouette_summaries`."""
        euclid = self._summaries("euclidean")

        def best(summ, part=0):
            k = max(summ, key=lambda k: summ[k][part])
            return k, summ[k][part]

        return {"median s_i": best(euclid, 1),
                "mean of the cluster silhouettes": best(euclid, 2),
                "Manhattan distance": best(self._summaries("cityblock")),
                "squared distances": best(self._summaries("squared")),
                "cosine distance": best(self._summaries("cosine")),
                "standardised coordinates": best(self._summaries("standardised")),
                "point itself in a_i": best(self._summaries("euclidean", self_in_a=True)),
                "b_i as the nearest point": best(self._summaries("euclidean",
                                                                 b_rule="nearest")),
                "b_i over the other clusters pooled": best(self._summaries("euclidean",
                                                                           b_rule="pooled")),
                "a point alone: s_i = 1": best(self._summaries("euclidean", alone="one")),
                "points alone left out": best(self._summaries("euclidean", alone="drop")),
                "b_i as the largest mean": best(self._summaries("euclidean",
                                                                b_rule="largest")),
                **{name: best(self._summaries("euclidean", form=form))
                   for name, form in self._FORMS.items()}}

    def _picks(self) -> dict:
        """The (k, value) each slip gives: another criterion, distance or average."""
        X = np.asarray(self.X, dtype=float)
        return {"Calinski-Harabasz": self._by(lambda lab: calinski_harabasz(X, lab)),
                "Davies-Bouldin": self._by(lambda lab: davies_bouldin(X, lab), min),
                **self._silhouette_picks()}

    #: Slips whose k every variant keeps apart from the key's (:meth:`acceptable`), so
    #: that the keys spread over the candidates. The others (the clusters' mean of the
    #: s_i, the Manhattan and the squared distance, the point itself in a_i) often pick
    #: the silhouette's k on twelve points in uneven groups (of 1,500 draws none kept all
    #: of them apart); there the silhouette they give tells them from the key, and
    #: :meth:`acceptable` asks that it does, by more than the tolerance.
    SCREENED = ("smallest silhouette", "largest k", "position, not k", "position, counted from 1",
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
                           "the points are compared by their Euclidean distance.",
        "standardised coordinates": "You scaled each coordinate to mean 0 and sd 1 first; "
                                    "the question compares the points as given, by their "
                                    "Euclidean distance.",
        "s as the clusters' mean": "Your k is right, but your s averages the clusters' "
                                   "silhouettes s_C; the overall silhouette averages all "
                                   "the points' s_i, so a larger cluster weighs more (see "
                                   "04.4).",
        "point itself in a_i": "Your a_i include x_i itself (distance 0): a_i averages over "
                               "the *other* points of the cluster, dividing by |C| - 1 "
                               "(see 04.1).",
        "b_i as the nearest point": "Your b_i is the distance to the nearest point of another "
                                    "cluster; b_i is the smallest of the other clusters' "
                                    "*mean* distances (see 04.2).",
        "b_i over the other clusters pooled": "Your b_i averages over the points of all the "
                                              "other clusters at once; b_i is the smallest "
                                              "of the other clusters' means (see 04.2).",
        "a point alone: s_i = 1": "You gave a point alone in its cluster s_i = 1; its a_i is "
                                  "undefined, and the silhouette sets its s_i to 0 "
                                  "(Rousseeuw's rule), which keeps singletons from looking "
                                  "perfect.",
        "b_i as the largest mean": "Your b_i is the mean distance to the *farthest* other "
                                   "cluster; b_i is the smallest of the other clusters' "
                                   "means (see 04.2).",
        "divided by b_i": "Your s_i divide by b_i; s_i = (b_i - a_i) / max(a_i, b_i), which "
                          "differs where a point is closer to another cluster (see 04.3).",
        "divided by a_i": "Your s_i divide by a_i; s_i = (b_i - a_i) / max(a_i, b_i) (see "
                          "04.3).",
        "divided by min(a_i, b_i)": "Your s_i divide by min(a_i, b_i); s_i divides by the "
                                    "larger, max(a_i, b_i), and stays in [-1, 1] (see 04.3).",
        "divided by a_i + b_i": "Your s_i divide by a_i + b_i; s_i divides b_i - a_i by "
                                "max(a_i, b_i) (see 04.3).",
        "not divided": "Your s_i are b_i - a_i; s_i divides that by max(a_i, b_i) (see 04.3).",
        "sign flipped": "Your s_i have the sign flipped, (a_i - b_i) / max(a_i, b_i): a well "
                        "placed point has s_i near +1, and the silhouette recommends the "
                        "largest mean (see 04.3).",
        "points alone left out": "You left the points alone in their cluster out of the "
                                 "average; they count, with s_i = 0 (Rousseeuw's rule), so "
                                 "the mean is over all N points."}

    #: Slips that are no slip on some data: with no point alone in its cluster the
    #: conventions for one give the silhouette itself, and with two clusters the pooled b_i
    #: is b_i. Listed where they give another (k, s) than the key, never screened.
    WHERE_THEY_APPLY = ("b_i over the other clusters pooled", "a point alone: s_i = 1",
                        "points alone left out", "b_i as the largest mean",
                        "divided by b_i", "divided by a_i", "divided by min(a_i, b_i)",
                        "not divided", "sign flipped", "divided by a_i + b_i",
                        "s as the clusters' mean")
    #: 04.3's slips in the s_i (:func:`_silhouette_summaries`' ``form``); with every s_i
    #: positive, b_i > a_i and dividing by b_i is dividing by the larger.
    _FORMS = {"divided by b_i": "b", "divided by a_i": "a", "divided by min(a_i, b_i)": "min",
              "not divided": "none", "sign flipped": "flipped", "divided by a_i + b_i": "sum"}

    def mistakes(self):
        sc = self._scores()
        key = max(sc, key=sc.get)
        picks = {**self._picks(), "s as the clusters' mean": (
            key, self._summaries("euclidean")[key][2])}
        picks = {name: pick for name, pick in picks.items()
                 if name not in self.WHERE_THEY_APPLY or apart([key, sc[key]], pick)}
        low, second = min(sc, key=sc.get), sorted(sc, key=sc.get)[-2]
        return [Mistake("smallest silhouette", [low, sc[low]],
                        "You picked the smallest silhouette; larger is better."),
                Mistake("largest k", [max(sc), sc[max(sc)]],
                        "More clusters always tighten the clusters, but the silhouette also "
                        "asks for separation: compare the silhouettes."),
                Mistake("position, not k", [list(sc).index(key), sc[key]],
                        "Your k looks like a position in the list of candidates (counted "
                        "from 0); the answer is a number of clusters k, a key of "
                        "`q.candidates`."),
                Mistake("position, counted from 1", [list(sc).index(key) + 1, sc[key]],
                        "Your k looks like a position in the list of candidates (counted "
                        "from 1); the answer is a number of clusters k, a key of "
                        "`q.candidates`."),
                Mistake("second largest silhouette", [second, sc[second]],
                        "That k has the second largest silhouette; the silhouette recommends "
                        "the k of the largest."),
                *[Mistake(name, list(pick), self._SAID[name]) for name, pick in picks.items()]]

    def acceptable(self):
        """A clear winner, every slip of :attr:`SCREENED` picks another k, and every slip
        gives another (k, s) than the key. The silhouettes are those of
        :func:`_silhouette_summaries` (vectorised; equal to the library's,
        tests/test_exercise_slips.py); the cheap tests first."""
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
        if (self._by(lambda lab: calinski_harabasz(X, lab))[0] == key
                or self._by(lambda lab: davies_bouldin(X, lab), min)[0] == key):
            return False
        # the slips not screened on k may pick the key's k: their silhouette must differ
        # (from the summaries: the library's silhouettes and CH cost 50 ms a draw here)
        return all(apart([key, sc[key]], [k, summ[k][part]])
                   for summ, part in ((euclid, 2), (self._summaries("cityblock"), 0),
                                      (self._summaries("squared"), 0),
                                      (self._summaries("euclidean", self_in_a=True), 0),
                                      (self._summaries("euclidean", b_rule="nearest"), 0),
                                      (self._summaries("standardised"), 0))
                   for k in [max(summ, key=lambda k: summ[k][part])])

    def explain(self, d):
        sc = self._scores()
        k = int(self.compute_key()[0])
        d.table(["k", "silhouette"], [[k, v] for k, v in sc.items()])
        d.text(f"The largest silhouette is at k = {k}: s = {fmt(sc[k])}.")
        d.extend(silhouette(self.X, self.candidates[k]).derivation())


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
