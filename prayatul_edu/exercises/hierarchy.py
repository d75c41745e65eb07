"""Notebook 05: agglomerative clustering and the cophenetic correlation.

The tutorial's Exercise 4 (single-linkage merges, cophenetic matrix, CPCC), its
optional exercise (the cophenetic distance is a metric: an argument, checked as
a set of true statements) and a new question: which linkage fits this distance
matrix best by CPCC.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import agglomerative, cophenetic_correlation, cophenetic_matrix
from ._base import Mistake, table_rows
from .kinds import ChoiceQuestion, NumbersQuestion, TableQuestion

__all__ = ["MergeHeights", "CopheneticMatrix", "CPCC", "CopheneticIsMetric", "BestLinkage"]

_NAMES = [f"x{i}" for i in range(1, 6)]
_LINKAGES = ("single", "complete", "average")


def _describe_ex4(q, d):
    d.text("Five examples and their distances:")
    head, rows = table_rows(q.D, _NAMES, _NAMES)
    d.table(head, rows)


def _tree(q, linkage="single"):
    D = np.asarray(q.D, dtype=float)
    return _tree_of(D.tobytes(), len(D), linkage)


@functools.lru_cache(maxsize=64)
def _tree_of(distances: bytes, n: int, linkage: str):
    """The tree of a distance matrix (given as its bytes), made once for all the questions
    judging a candidate variant (five questions, three linkages, many slips)."""
    D = np.frombuffer(distances, dtype=float).reshape(n, n)
    return agglomerative(D, linkage=linkage)


def _coph(q, linkage="single"):
    return np.asarray(cophenetic_matrix(_tree(q, linkage)), dtype=float)


def _by_merges(q, value) -> np.ndarray:
    """A 5 x 5 matrix with ``value(step, i, j)`` for each pair (i, j) the single-linkage
    merge ``step`` first puts together (0 on the diagonal)."""
    n = len(q.D)
    out = np.zeros((n, n))
    for step in _tree(q).steps:
        for i in step.a:
            for j in step.b:
                out[i, j] = out[j, i] = value(step, i, j)
    return out


def _merged_groups(q, reduce) -> np.ndarray:
    """The single-linkage merges with another height: ``reduce`` (np.max, np.mean) of the
    distances between the two clusters each merge joins (a slip: the right merges, the
    height of another linkage)."""
    D = np.asarray(q.D, dtype=float)
    return np.array([float(reduce(D[np.ix_(s.a, s.b)])) for s in _tree(q).steps])


def _grown_from_first(D: np.ndarray) -> np.ndarray:
    """The slip: one cluster grown from x1, each time by the example nearest to it (Prim's
    order): single linkage's heights, in the order x1's cluster meets them."""
    inside, out = [0], []
    while len(inside) < len(D):
        rest = [j for j in range(len(D)) if j not in inside]
        h, j = min((D[np.ix_(inside, [j])].min(), j) for j in rest)
        inside.append(j)
        out.append(float(h))
    return np.array(out)


def _neighbour_heights(q, shift: int) -> np.ndarray:
    """P_ij read one merge off: the height of the merge before (``shift=-1``; 0 before the
    first) or after (``shift=1``; the last merge's own after the last) the one that joins
    x_i and x_j."""
    h = np.asarray(_tree(q).heights, dtype=float)
    return _by_merges(q, lambda step, i, j: (
        h[min(step.number, len(h) - 1)] if shift > 0
        else (h[step.number - 2] if step.number > 1 else 0.0)))


def _first_merges(q, pick=max) -> np.ndarray:
    """P_ij read as the height at which the later of x_i, x_j first merged with anything:
    right in a chain (each merge adds one example), wrong when two groups merge. With
    ``pick=min``: the height at which the earlier of the two first merged."""
    first = {}
    for step in _tree(q).steps:
        for i in step.a + step.b:
            first.setdefault(i, step.height)
    return _by_merges(q, lambda step, i, j: pick(first[i], first[j]))


#: The linkages of the optional appendix (05a) a student may have run instead of single
#: linkage (by hand, or SciPy's ``linkage`` on the distance matrix): what each does.
_APPENDIX_LINKAGES = {
    "ward": ("Ward", "Ward's linkage (the growth of the within-cluster sum of squares)"),
    "centroid": ("centroid linkage", "centroid linkage (the distance between the clusters' "
                 "centroids)"),
    "median": ("median linkage", "median linkage (WPGMC: the distance between the "
               "clusters' midpoints)"),
}


def _other_linkages(q, value, what: str) -> list[Mistake]:
    """One mistake per appendix linkage: ``value(linkage)`` is what it gives."""
    return [Mistake(name, value(lk),
                    f"Those are the {what} of {does}; single linkage uses the smallest "
                    "distance between the members of two clusters.")
            for lk, (name, does) in _APPENDIX_LINKAGES.items()]


class MergeHeights(NumbersQuestion):
    qid, title, dataset = "05.1", "single-linkage merge heights", "exercise_4"
    parts = ("h_1", "h_2", "h_3", "h_4")
    ties_named = True
    hints = ("Start with every example alone; merge the two closest clusters; repeat.",
             "Single linkage: the distance between two clusters is the *smallest* distance "
             "between their members.",
             "Record the distance at which each of the 4 merges happens, in order.")

    def describe(self, d):
        _describe_ex4(self, d)
        d.text("Cluster them by single-linkage agglomerative clustering. Give the heights "
               "(distances) of the 4 merges in the order they happen.")

    def compute_key(self):
        return np.asarray(_tree(self).heights, dtype=float)

    def mistakes(self):
        D = np.asarray(self.D, dtype=float)
        return [Mistake("complete linkage", np.asarray(_tree(self, "complete").heights),
                        "Those are complete-linkage heights (largest distance between "
                        "members); single linkage uses the smallest."),
                Mistake("average linkage", np.asarray(_tree(self, "average").heights),
                        "Those are average-linkage heights; single linkage uses the smallest "
                        "distance between members."),
                Mistake("the smallest distances", np.sort(D[np.triu_indices(len(D), 1)])[:4],
                        "Those are the 4 smallest distances of the table. A distance between "
                        "two examples already in one cluster is no merge: after each merge, "
                        "the distance between two *clusters* is the smallest distance between "
                        "their members."),
                Mistake("weighted linkage", np.asarray(_tree(self, "weighted").heights),
                        "Those are weighted-average-linkage (WPGMA) heights; single linkage "
                        "uses the smallest distance between members."),
                Mistake("half heights", np.asarray(_tree(self).heights) / 2,
                        "You halved the heights (as a tree drawn with its leaves at half the "
                        "distance); a merge's height is the single-linkage distance between "
                        "the two clusters itself."),
                Mistake("cumulative heights", np.cumsum(_tree(self).heights),
                        "You added up the heights as you went; each merge's height is the "
                        "single-linkage distance between the two clusters it joins, not the "
                        "sum of the heights so far."),
                *_other_linkages(self, lambda lk: np.asarray(_tree(self, lk).heights),
                                 "heights"),
                Mistake("grown from x1", _grown_from_first(D),
                        "You grew one cluster from x1, adding the example nearest to it each "
                        "time (Prim's spanning tree): the right distances in another order. "
                        "Agglomerative clustering merges the two closest *clusters* anywhere "
                        "in the table, so each merge is the next one up the dendrogram."),
                Mistake("largest distance of the merged clusters", _merged_groups(self, np.max),
                        "Your merges are single linkage's, but you recorded the *largest* "
                        "distance between the two clusters joined (complete linkage's "
                        "height); a single-linkage merge happens at the smallest distance "
                        "between their members."),
                Mistake("mean distance of the merged clusters", _merged_groups(self, np.mean),
                        "Your merges are single linkage's, but you recorded the *mean* "
                        "distance between the two clusters joined (average linkage's "
                        "height); a single-linkage merge happens at the smallest distance "
                        "between their members.")]

    def explain(self, d):
        d.extend(_tree(self).derivation())


class CopheneticMatrix(TableQuestion):
    qid, title, dataset = "05.2", "the cophenetic matrix", "exercise_4"
    asked = "cophenetic matrix P (x1..x5)"
    ties_named = True
    hints = ("P_ij is the height of the merge that first puts x_i and x_j in one cluster.",
             "Read it off the dendrogram of 05.1 (single linkage); the diagonal is 0.",
             "Go through the merges in order: merge k joins two clusters A and B at height h_k; "
             "every pair with one example in A and the other in B gets P_ij = h_k.")

    def describe(self, d):
        _describe_ex4(self, d)
        d.text("From the single-linkage dendrogram, write down the 5 x 5 cophenetic distance "
               "matrix $P$.")

    def compute_key(self):
        return _coph(self)

    def mistakes(self):
        largest, mean = _merged_groups(self, np.max), _merged_groups(self, np.mean)
        cumulative = np.cumsum(_tree(self).heights)
        return [Mistake("complete linkage", _coph(self, "complete"),
                        "That is the cophenetic matrix of the complete-linkage tree; use "
                        "single linkage."),
                Mistake("the distance matrix", np.asarray(self.D, dtype=float),
                        "That is the distance matrix D itself. P_ij is the height at which "
                        "x_i and x_j first end up in the same cluster."),
                Mistake("average linkage", _coph(self, "average"),
                        "That is the cophenetic matrix of the average-linkage tree; use "
                        "single linkage."),
                Mistake("weighted linkage", _coph(self, "weighted"),
                        "That is the cophenetic matrix of the weighted-average-linkage (WPGMA) "
                        "tree; use single linkage."),
                Mistake("the wrong merge", _first_merges(self),
                        "Some P_ij are the height where x_i or x_j first merged with another "
                        "example. P_ij is the height of the merge that puts x_i and x_j "
                        "*together*: when they sit in two groups, the merge of those groups."),
                Mistake("upper triangle only", np.triu(_coph(self)),
                        "The cophenetic matrix is symmetric: P_ji = P_ij, fill in the lower "
                        "triangle too."),
                Mistake("lower triangle only", np.tril(_coph(self)),
                        "The cophenetic matrix is symmetric: P_ij = P_ji, fill in the upper "
                        "triangle too."),
                Mistake("merge numbers", _by_merges(self, lambda step, i, j: step.number),
                        "You wrote which merge (1st, 2nd, ...) joins x_i and x_j; P_ij is the "
                        "*height* of that merge, read on the dendrogram's axis."),
                *_other_linkages(self, lambda lk: _coph(self, lk), "cophenetic distances"),
                Mistake("the earlier first merge", _first_merges(self, min),
                        "Some P_ij are the height where the *first* of x_i, x_j to merge "
                        "merged with another example. P_ij is the height of the merge that "
                        "puts x_i and x_j together: when they sit in two groups, the merge of "
                        "those groups."),
                Mistake("the previous merge's height", _neighbour_heights(self, -1),
                        "Your P_ij are the heights of the merge *before* the one that joins "
                        "x_i and x_j (0 for the first merge): one merge off in the list of "
                        "05.1. P_ij is the height of the merge that puts them together."),
                Mistake("the next merge's height", _neighbour_heights(self, 1),
                        "Your P_ij are the heights of the merge *after* the one that joins "
                        "x_i and x_j: one merge off in the list of 05.1. P_ij is the height "
                        "of the merge that puts them together."),
                Mistake("largest distance of the merged clusters",
                        _by_merges(self, lambda step, i, j: largest[step.number - 1]),
                        "Your P_ij are the *largest* distances between the two clusters each "
                        "merge joins; P_ij is the single-linkage height of that merge, the "
                        "smallest distance between them."),
                Mistake("mean distance of the merged clusters",
                        _by_merges(self, lambda step, i, j: mean[step.number - 1]),
                        "Your P_ij are the *mean* distances between the two clusters each "
                        "merge joins; P_ij is the single-linkage height of that merge, the "
                        "smallest distance between them."),
                Mistake("cumulative heights",
                        _by_merges(self, lambda step, i, j: cumulative[step.number - 1]),
                        "Your P_ij add up the heights of the merges so far; P_ij is the height "
                        "of the one merge that puts x_i and x_j together."),
                Mistake("half heights", _coph(self) / 2,
                        "You halved the heights (a tree drawn with its leaves at half the "
                        "distance); P_ij is the merge height itself.")]

    def explain(self, d):
        d.extend(cophenetic_matrix(_tree(self)).derivation())


class CPCC(NumbersQuestion):
    qid, title, dataset = "05.3", "the cophenetic correlation coefficient", \
        "exercise_4"
    parts = ("d", "p", "CPCC")
    ties_named = True
    hints = ("P is the cophenetic matrix of 05.2: P_ij is the height of the single-linkage "
             "merge that first puts x_i and x_j in one cluster (go through the merges of "
             "05.1 in order).",
             "Use the 10 pairs i < j only: d and p are the means of D_ij and P_ij over them.",
             "CPCC = sum (D_ij - d)(P_ij - p) / sqrt( sum (D_ij - d)^2 sum (P_ij - p)^2 ), "
             "all sums over i < j.")

    def describe(self, d):
        _describe_ex4(self, d)
        d.text("With $P$ the single-linkage cophenetic matrix, compute $d$ and $p$ (the means "
               "of the entries $i < j$ of $D$ and $P$) and the CPCC.")

    def compute_key(self):
        c = cophenetic_correlation(self.D, _tree(self))
        return np.array([c.d_mean, c.p_mean, float(c)])

    def mistakes(self):
        D, P = np.asarray(self.D, dtype=float), _coph(self)
        iu = np.triu_indices(5, 1)
        d_all, p_all = D.mean(), P.mean()           # the diagonal zeros included
        x, y = D[iu] - d_all, P[iu] - p_all
        cpcc_all = (x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum())
        c = cophenetic_correlation(self.D, _tree(self, "complete"))
        a = cophenetic_correlation(self.D, _tree(self, "average"))
        w = cophenetic_correlation(self.D, _tree(self, "weighted"))
        d, p, n = D[iu].mean(), P[iu].mean(), len(iu[0])      # n: the 10 pairs i < j
        d2, p2 = round(d, 2), round(p, 2)
        dm, pm = float(np.median(D[iu])), float(np.median(P[iu]))
        from scipy.stats import kendalltau, spearmanr
        r = _pearson(D[iu], P[iu], d, p)
        p1 = np.round(P[iu], 1)
        return [Mistake("means with the diagonal", np.array([d_all, p_all, cpcc_all]),
                        "Your means include the zeros of the diagonal; d and p average the "
                        "entries i < j (the non-zero ones)."),
                Mistake("complete linkage", np.array([c.d_mean, c.p_mean, float(c)]),
                        "Your p and CPCC come from the complete-linkage tree; use single "
                        "linkage."),
                Mistake("average linkage", np.array([a.d_mean, a.p_mean, float(a)]),
                        "Your p and CPCC come from the average-linkage tree; use single "
                        "linkage."),
                Mistake("Spearman", np.array([d, p, float(spearmanr(D[iu], P[iu])[0])]),
                        "That is Spearman's rank correlation; the CPCC is Pearson's "
                        "correlation of the values D_ij and P_ij."),
                Mistake("means rounded early", np.array([d2, p2, _pearson(D[iu], P[iu], d2, p2)]),
                        "You rounded d and p (to 2 decimals) before using them; keep the "
                        "intermediate results unrounded (round only the answers, to 4 "
                        "decimals)."),
                Mistake("all 25 entries", np.array([d_all, p_all, float(np.corrcoef(
                            D.ravel(), P.ravel())[0, 1])]),
                        "You used all 25 entries (the diagonal and both halves); d, p and the "
                        "CPCC use the 10 pairs i < j."),
                Mistake("covariance", np.array([d, p, float(np.mean(
                            (D[iu] - d) * (P[iu] - p)))]),
                        "That is the covariance of D_ij and P_ij; the CPCC divides it by both "
                        "standard deviations (Pearson's correlation)."),
                Mistake("Kendall", np.array([d, p, float(kendalltau(D[iu], P[iu])[0])]),
                        "That is Kendall's tau, a rank correlation; the CPCC is Pearson's "
                        "correlation of the values D_ij and P_ij."),
                Mistake("r squared", np.array([d, p, r * r]),
                        "That is r^2 (the share of variance explained); the CPCC is "
                        "Pearson's r itself."),
                Mistake("P rounded early", np.array([d, p1.mean(), _pearson(
                            D[iu], p1, D[iu].mean(), p1.mean())]),
                        "You rounded the cophenetic distances P_ij (to 1 decimal) before "
                        "using them; keep them as the merge heights are (round only the "
                        "answers, to 4 decimals)."),
                Mistake("d rounded early", np.array([d2, p, r]),
                        "You rounded d (to 2 decimals); give it, as every answer, to 4 "
                        "decimals."),
                Mistake("p rounded early", np.array([d, p2, r]),
                        "You rounded p (to 2 decimals); give it, as every answer, to 4 "
                        "decimals."),
                Mistake("CPCC rounded early", np.array([d, p, round(r, 2)]),
                        "You rounded the CPCC (to 2 decimals); give it, as every answer, to 4 "
                        "decimals."),
                Mistake("uncentred", np.array([d, p, _pearson(D[iu], P[iu], 0.0, 0.0)]),
                        "You left out the means: sum D_ij P_ij / sqrt(sum D_ij^2 sum P_ij^2) "
                        "is the cosine of the two lists. The CPCC subtracts d from every D_ij "
                        "and p from every P_ij first."),
                Mistake("sums for means", np.array([D[iu].sum(), P[iu].sum(), r]),
                        "Your d and p are the sums of the 10 entries i < j; they are their "
                        "means (divide by 10)."),
                Mistake("sample covariance", np.array([d, p, float(np.sum(
                            (D[iu] - d) * (P[iu] - p)) / (n - 1))]),
                        "That is the sample covariance of D_ij and P_ij (divided by n - 1); "
                        "the CPCC divides the sum of products by sqrt(sum (D_ij - d)^2 "
                        "sum (P_ij - p)^2) (Pearson's correlation)."),
                Mistake("n - 1 on top only", np.array([d, p, r * n / (n - 1)]),
                        "Your covariance divides by n - 1 (the sample covariance) and your "
                        "standard deviations by n: the factors must cancel. Pearson's r uses "
                        "the same one in both, as in the CPCC's formula (sums only)."),
                Mistake("no square root", np.array([d, p, float(
                            np.sum((D[iu] - d) * (P[iu] - p))
                            / (np.sum((D[iu] - d) ** 2) * np.sum((P[iu] - p) ** 2)))]),
                        "You divided by sum (D_ij - d)^2 sum (P_ij - p)^2 without its square "
                        "root; the CPCC's denominator is sqrt(sum (D_ij - d)^2 "
                        "sum (P_ij - p)^2)."),
                Mistake("medians for means", np.array([dm, pm, _pearson(D[iu], P[iu], dm,
                                                                       pm)]),
                        "Your d and p are the medians of the 10 entries i < j; the CPCC "
                        "uses their means."),
                Mistake("means over N(N - 1)", np.array([d / 2, p / 2, r]),
                        "You divided the sums over the pairs i < j by N (N - 1) = 20, the "
                        "number of ordered pairs; there are N (N - 1) / 2 = 10 pairs i < j."),
                Mistake("weighted linkage", np.array([w.d_mean, w.p_mean, float(w)]),
                        "Your p and CPCC come from the weighted-average-linkage (WPGMA) "
                        "tree; use single linkage.")]

    def explain(self, d):
        d.extend(cophenetic_correlation(self.D, _tree(self)).derivation())


def _pearson(x, y, mx, my) -> float:
    """Pearson's formula with the means ``mx``, ``my`` given (rounded ones, for a slip)."""
    x, y = x - mx, y - my
    return float((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum()))


class CopheneticIsMetric(ChoiceQuestion):
    qid, title, dataset = "05.4", "the cophenetic distance is a metric", "none"
    hints = ("A metric needs: f(x, y) = 0 exactly when x = y; symmetry; the triangle "
             "inequality.",
             "Think in words about *when* two points end up in the same cluster.",
             "Once x and y are together, and y and z are together, x and z are together too: "
             "what does that say about P(x, z)?")

    def describe(self, d):
        d.text("Show that the cophenetic distance $P$ of an agglomerative clustering "
               "**without inversions** (each merge at least as high as the one before, as "
               "with single, complete and average linkage) is a distance metric (distinct "
               "examples at positive distances). Which statements are steps of a correct "
               "argument?")
        self.describe_options(d)

    def statements(self):
        return [
            ("P(x, x) = 0: x is in its own cluster from the start, before any merge.", True,
             "Where does x start?"),
            ("If P(x, y) = 0 then x = y: distinct examples merge at a positive height.", True,
             "At which heights do merges of distinct examples happen?"),
            ("P(x, y) = P(y, x): the merge that joins x with y also joins y with x.", True,
             "Is 'x and y are in the same cluster' symmetric?"),
            ("P(x, z) <= max(P(x, y), P(y, z)): without inversions, heights grow with the "
             "merges, so at the height max(...) x, y and z are already in one cluster.", True,
             "Follow x, y, z up the tree."),
            ("The same argument holds for every linkage, centroid and median included.", False,
             "Does every linkage merge at ever higher heights? Recall the inversions of "
             "centroid linkage in notebook 05: is 'merged no later, so no higher' still true?"),
            ("max(a, b) <= a + b for a, b >= 0, so the triangle inequality follows.", True,
             "Is the maximum of two non-negative numbers at most their sum?"),
            ("P(x, z) = D(x, z) for every pair, so P inherits the triangle inequality of D.",
             False, "Compare P with D in Exercise 4: are they equal?"),
            ("Symmetry holds only for single linkage.", False,
             "Does the argument for symmetry use the linkage at all?"),
            ("P can be negative when two clusters overlap.", False,
             "Merge heights are linkage distances between clusters: can they be negative?"),
        ]


class BestLinkage(ChoiceQuestion):
    qid, title, dataset, single = "05.5", "which linkage fits best?", "exercise_4", True
    hints = ("Build the tree with each linkage, take its cophenetic matrix, compute the CPCC.",
             "The CPCC measures how faithfully the dendrogram keeps the original distances.")

    def describe(self, d):
        _describe_ex4(self, d)
        d.text("Which linkage gives the dendrogram that best preserves these distances, "
               "by the cophenetic correlation?")
        self.describe_options(d)

    def _cpcc(self):
        return {lk: float(cophenetic_correlation(self.D, _tree(self, lk))) for lk in _LINKAGES}

    def statements(self):
        c = self._cpcc()
        best = max(c, key=c.get)
        return [(f"{lk} linkage", lk == best,
                 f"Compute the CPCC of the {lk}-linkage tree and compare.") for lk in _LINKAGES]

    def acceptable(self):
        c = sorted(self._cpcc().values())
        return super().acceptable() and c[-1] - c[-2] > 0.01

    def explain_choice(self, d):
        d.table(["linkage", "CPCC"], [[k, v] for k, v in self._cpcc().items()])
