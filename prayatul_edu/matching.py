"""Matching-based measures: purity, maximum matching, precision / recall / F.

Each cluster ``C_i`` is matched to a class ``T_j`` and scored by the overlap
``n_ij`` (rows are clusters, columns classes, as in the lecture). Purity lets
several clusters match the same class (many-to-one); maximum matching insists
on a one-to-one matching (Hungarian algorithm); the F-measure balances how
pure a cluster is against how much of its class it recovers.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

from ._validation import check_choice
from .labels import check_labels, check_partitions
from .counting import DENSE_TABLE_MAX_CELLS, ContingencyTable
from .contingency import contingency_table, scikit_learn_names
from .steps import Derivation, Result, ScalarResult, fmt, frac

__all__ = ["purity", "maximum_matching", "precision_recall_f", "f_measure",
           "clustering_ratio", "clustering_error",
           "raw_accuracy", "raw_precision_recall", "RAW_AVERAGES"]


def _label_rows(table: ContingencyTable):
    return [str(c) for c in table.clusters], [str(c) for c in table.classes]


#: Tables with more cells than this are read from their non-empty cells (purity, F-measure,
#: maximum matching): the same numbers, without an r x k matrix.
READ_CELLS_BEYOND = 250_000


def _read_cells(table: ContingencyTable) -> bool:
    r, k = table.shape
    return r * k > READ_CELLS_BEYOND


def _largest_cell(group: np.ndarray, other: np.ndarray, value: np.ndarray):
    """For every group (cluster or class, each with a non-empty cell): the largest
    ``value`` among its cells and the ``other`` index where it is, the lowest on a
    tie (as ``argmax`` along a row of the dense table)."""
    order = np.lexsort((other, -value, group))    # by group, largest first, then lowest
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = group[order[1:]] != group[order[:-1]]
    at = order[first]                             # one cell a group, in group order
    return value[at], other[at]


# ---------------------------------------------------------------- purity
class Purity(ScalarResult):
    """Purity, with ``.per_cluster`` (purity_i), ``.best_class`` and ``.table``."""

    def derivation(self) -> Derivation:
        t = self.table
        clusters, classes = _label_rows(t)
        d = Derivation(f"Purity = {fmt(self)}")
        d.formula(r"\text{purity}_i = \frac{1}{n_i}\max_j n_{ij}, \qquad "
                  r"\text{purity} = \sum_i \frac{n_i}{n}\,\text{purity}_i "
                  r"= \frac{1}{n}\sum_i \max_j n_{ij}",
                  "purity_i = max_j n_ij / n_i ;  purity = sum_i (n_i/n) purity_i "
                  "= (1/n) sum_i max_j n_ij")
        rows = [[clusters[i], classes[self.best_class[i]], int(self.best_count[i]),
                 int(t.cluster_sizes[i]), frac(self.best_count[i], t.cluster_sizes[i])]
                for i in range(len(clusters))]
        d.table(["cluster C_i", "majority class", "max_j n_ij", "n_i", "purity_i"], rows)
        total = int(self.best_count.sum())
        d.step(rf"\text{{purity}} = \frac{{{total}}}{{{t.n}}} = {fmt(self)}",
               f"purity = {total} / {t.n} = {fmt(self)}")
        d.text("Purity is many-to-one: two clusters may both claim the same class, so "
               "splitting every instance into its own cluster gives purity 1.")
        return d


@scikit_learn_names()
def purity(truth, pred) -> Purity:
    """Purity of a clustering: the fraction of instances in their cluster's majority class.

    .. math::
        \\text{purity}_i = \\frac{1}{n_i} \\max_j n_{ij}, \\qquad
        \\text{purity} = \\sum_{i=1}^{r} \\frac{n_i}{n} \\text{purity}_i
                      = \\frac{1}{n} \\sum_{i=1}^{r} \\max_j n_{ij}

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
        Ground-truth classes and predicted clusters.
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    Purity
        A float in (0, 1] with ``.per_cluster`` (purity of each cluster, aligned
        with ``.table.clusters``), ``.best_class`` (index of each cluster's
        majority class) and ``.table`` (the :class:`ContingencyTable`).

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.1.

    Examples
    --------
    >>> from prayatul_edu import purity
    >>> p = purity(truth=[1, 3, 2, 1, 3, 3, 2, 2, 1, 2],
    ...            pred=[1, 2, 3, 1, 2, 1, 2, 2, 3, 1])
    >>> round(float(p), 4), p.per_cluster.tolist()
    (0.5, [0.5, 0.5, 0.5])
    """
    table = contingency_table(truth, pred)
    if _read_cells(table):                # thousands of clusters: the non-empty cells
        best_count, best_class = _largest_cell(table.cell_cluster, table.cell_class,
                                               table.cell_count)
    else:
        n = table.counts                  # n[i, j] = |C_i ∩ T_j|
        best_class = n.argmax(axis=1)     # j* for every cluster
        best_count = n.max(axis=1)        # max_j n_ij
    per_cluster = best_count / table.cluster_sizes
    value = best_count.sum() / table.n    # (1/n) sum_i max_j n_ij
    return Purity(value, per_cluster=per_cluster, best_class=best_class,
                  best_count=best_count, table=table)


# ---------------------------------------------------------- maximum matching
class MaximumMatching(ScalarResult):
    """Maximum matching, with ``.matching`` (cluster label -> class label)."""

    def derivation(self) -> Derivation:
        t = self.table
        d = Derivation(f"Maximum matching = {fmt(self)}")
        d.formula(r"\text{match} = \max_{\pi} \frac{1}{n} \sum_i n_{i\,\pi(i)}"
                  r"\quad(\pi \text{ one-to-one: each class matched at most once})",
                  "match = max over one-to-one matchings pi of (1/n) sum_i n_{i,pi(i)}")
        rows = [[str(t.clusters[i]), str(t.classes[j]), count, int(t.cluster_sizes[i])]
                for (i, j), count in zip(self.pairs, self.pair_counts)]
        d.table(["cluster C_i", "matched class", "n_i,pi(i)", "n_i"], rows)
        d.step(rf"\text{{match}} = \frac{{{self.matched}}}{{{t.n}}} = {fmt(self)}",
               f"match = {self.matched} / {t.n} = {fmt(self)}")
        unmatched = t.shape[0] - len(self.matching)
        if unmatched:
            d.note(f"{unmatched} cluster(s) have no class left to match (more clusters "
                   "than classes); their instances count as errors.")
        d.text("The best of all one-to-one matchings. Unlike purity, two clusters cannot share "
               "a class.")
        return d


def _best_assignment_brute_force(n: np.ndarray):
    """The teaching version: try every one-to-one matching of rows to columns."""
    r, k = n.shape
    best, best_pairs = -1, None
    if r <= k:
        for cols in permutations(range(k), r):
            total = sum(n[i, cols[i]] for i in range(r))
            if total > best:
                best, best_pairs = total, list(zip(range(r), cols))
    else:
        for rows in permutations(range(r), k):
            total = sum(n[rows[j], j] for j in range(k))
            if total > best:
                best, best_pairs = total, sorted(zip(rows, range(k)))
    return best_pairs


@scikit_learn_names()
def maximum_matching(truth, pred) -> MaximumMatching:
    """Maximum matching: the best one-to-one pairing of clusters with classes.

    .. math::
        \\text{match} = \\max_{\\pi} \\frac{1}{n} \\sum_{i} n_{i\\,\\pi(i)}

    where ``pi`` maps clusters to distinct classes. This is the accuracy of the
    clustering after the best relabelling, so it is immune to permuted cluster
    labels (unlike raw accuracy). Solved with the Hungarian algorithm
    (``scipy.optimize.linear_sum_assignment``); for small tables the brute
    force over all matchings gives the same value; for tables of more than
    :data:`READ_CELLS_BEYOND` cells (thousands of clusters), an assignment
    over the non-empty cells only (:func:`_best_assignment_sparse`), which
    never makes the table dense.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    MaximumMatching
        A float in (0, 1] with ``.matching`` (dict: cluster label -> class
        label), ``.matched`` (number of instances on matched cells) and ``.table``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.1;
    H. W. Kuhn, "The Hungarian method for the assignment problem", 1955.

    Examples
    --------
    >>> from prayatul_edu import maximum_matching
    >>> m = maximum_matching(truth=[0, 0, 1, 1], pred=["b", "b", "a", "a"])
    >>> float(m), m.matching
    (1.0, {'a': 1, 'b': 0})
    """
    table = contingency_table(truth, pred)
    r, k = table.shape
    if r * k <= 64 and min(r, k) <= 6:
        pairs = _best_assignment_brute_force(table.counts)
        solver = "brute force over every one-to-one matching"
    elif not _read_cells(table):
        from scipy.optimize import linear_sum_assignment

        rows, cols = linear_sum_assignment(table.counts, maximize=True)
        pairs = list(zip(rows.tolist(), cols.tolist()))
        solver = "the Hungarian algorithm (scipy.optimize.linear_sum_assignment)"
    else:
        pairs = _best_assignment_sparse(table)
        solver = ("a sparse assignment over the non-empty cells "
                  "(scipy.sparse.csgraph.min_weight_full_bipartite_matching)")
    pair_counts = _counts_at(table, pairs)
    matched = int(sum(pair_counts))
    matching = {_py(table.clusters[i]): _py(table.classes[j]) for i, j in pairs}
    return MaximumMatching(matched / table.n, matching=matching, matched=matched,
                           pairs=pairs, pair_counts=pair_counts, table=table, solver=solver)


def _best_assignment_sparse(table: ContingencyTable) -> list[tuple[int, int]]:
    """The pairs (cluster, class) of a maximum matching, from the non-empty cells.

    Each cluster ``i`` also gets an edge of its own to a dummy class ``k + i``,
    so every cluster can be matched (to its dummy when it is left unmatched),
    and the weights are ``n_ij + 1`` (real cells) and 1 (dummies): every
    matching of all clusters then weighs ``r`` plus the instances it matches,
    so the heaviest one is a maximum matching. Integer weights: exact.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    r, k = table.shape
    own = np.arange(r)
    weights = csr_matrix(
        (np.concatenate([table.cell_count + 1.0, np.ones(r)]),
         (np.concatenate([table.cell_cluster, own]), np.concatenate([table.cell_class, k + own]))),
        shape=(r, k + r))
    rows, cols = min_weight_full_bipartite_matching(weights, maximize=True)
    real = cols < k                                  # (the others are dummies: unmatched)
    return sorted(zip(rows[real].tolist(), cols[real].tolist()))


def _counts_at(table: ContingencyTable, pairs) -> list[int]:
    """n_ij of each (cluster i, class j) in ``pairs`` (each cluster at most once), read
    from the non-empty cells; 0 where the cell is empty."""
    r = table.shape[0]
    matched_class = np.full(r, -1, dtype=np.int64)   # cluster -> its class in the pairs
    position = np.zeros(r, dtype=np.int64)           # cluster -> its place in the pairs
    for place, (i, j) in enumerate(pairs):
        matched_class[i], position[i] = j, place
    hit = matched_class[table.cell_cluster] == table.cell_class
    counts = np.zeros(len(pairs), dtype=np.int64)
    counts[position[table.cell_cluster[hit]]] = table.cell_count[hit]
    return counts.tolist()


def _py(v):
    """A NumPy scalar label as the plain Python value (for dict keys)."""
    return v.item() if isinstance(v, np.generic) else v


# ------------------------------------------------- precision / recall / F
class PrecisionRecallF(Result):
    """The matrices ``precision[i, j]``, ``recall[i, j]``, ``f[i, j]`` (cluster i, class j)."""

    def __init__(self, table: ContingencyTable, precision, recall, f):
        self.table, self.precision, self.recall, self.f = table, precision, recall, f

    def __iter__(self):
        return iter((self.precision, self.recall, self.f))

    def derivation(self) -> Derivation:
        t = self.table
        clusters, classes = _label_rows(t)
        d = Derivation("Precision, recall and F of every cluster against every class")
        d.formula(r"\text{precision}(i,j) = \frac{n_{ij}}{n_i},\quad "
                  r"\text{recall}(i,j) = \frac{n_{ij}}{m_j},\quad "
                  r"F(i,j) = \frac{2\,\text{precision}(i,j)\,\text{recall}(i,j)}"
                  r"{\text{precision}(i,j) + \text{recall}(i,j)}",
                  "precision(i,j) = n_ij / n_i ; recall(i,j) = n_ij / m_j ; "
                  "F(i,j) = 2 P R / (P + R)  (0 when n_ij = 0)")
        if t.shape[0] * t.shape[1] > 400:
            d.text("The tables are too large to print.")
            return d
        for name, mat in (("precision(i, j)", self.precision), ("recall(i, j)", self.recall),
                          ("F(i, j)", self.f)):
            d.table([f"{name}: clusters ↓ classes →"] + classes,
                    [[clusters[i]] + [float(v) for v in mat[i]] for i in range(len(clusters))])
        return d


def _prf(table: ContingencyTable):
    n = table.counts.astype(float)                  # n[i, j] = |C_i ∩ T_j|
    precision = n / table.cluster_sizes[:, None]    # n_ij / n_i
    recall = n / table.class_sizes[None, :]         # n_ij / m_j
    total = precision + recall
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(total > 0, 2 * precision * recall / np.where(total > 0, total, 1), 0.0)
    return precision, recall, f


@scikit_learn_names()
def precision_recall_f(truth, pred) -> PrecisionRecallF:
    """Precision, recall and F-measure of every cluster ``i`` against every class ``j``.

    .. math::
        \\text{precision}(i,j) = \\frac{n_{ij}}{n_i}, \\quad
        \\text{recall}(i,j) = \\frac{n_{ij}}{m_j}, \\quad
        F(i,j) = \\frac{2\\,\\text{precision}(i,j)\\,\\text{recall}(i,j)}
                      {\\text{precision}(i,j) + \\text{recall}(i,j)}

    with ``F(i, j) = 0`` where ``n_ij = 0``. Rows are clusters (``.table.clusters``),
    columns classes (``.table.classes``), the tutorial's ``(i, j)`` order.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    PrecisionRecallF
        ``.precision``, ``.recall``, ``.f`` (r x k arrays) and ``.table``;
        unpacks as ``precision, recall, f = precision_recall_f(...)``.

    References
    ----------
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.7.

    Examples
    --------
    >>> from prayatul_edu import precision_recall_f
    >>> prf = precision_recall_f(truth=[1, 3, 2, 1, 3, 3, 2, 2, 1, 2],
    ...                          pred=[1, 2, 3, 1, 2, 1, 2, 2, 3, 1])
    >>> [round(float(m[0, 2]), 4) for m in prf]  # precision, recall, F of (1, 3)
    [0.25, 0.3333, 0.2857]
    """
    table = contingency_table(truth, pred)
    r, k = table.shape
    if r * k > DENSE_TABLE_MAX_CELLS:
        raise MemoryError(f"precision_recall_f: the precision, recall and F matrices of {r} "
                          f"clusters x {k} classes would have {r * k:,} cells each; for many "
                          "labels f_measure, purity and maximum_matching read the non-empty "
                          "cells only")
    return PrecisionRecallF(table, *_prf(table))


class FMeasure(ScalarResult):
    """Overall F-measure; ``.per_cluster`` or ``.per_class`` holds the terms averaged."""

    def _repr_details(self) -> str:
        return f", average={self.average!r}"

    def derivation(self) -> Derivation:
        t = self.table
        clusters, classes = _label_rows(t)
        d = Derivation(f"F-measure ({self.average}) = {fmt(self)}")
        if self.average == "clusters":
            d.formula(r"j^* = \arg\max_j n_{ij},\ \ \text{prec}_i = \frac{n_{ij^*}}{n_i},\ \ "
                      r"\text{recall}_i = \frac{n_{ij^*}}{m_{j^*}},\ \ "
                      r"F_i = \frac{2\,\text{prec}_i\,\text{recall}_i}{\text{prec}_i + \text{recall}_i},"
                      r"\ \ F = \frac{1}{r}\sum_{i=1}^r F_i",
                      "j* = argmax_j n_ij ; prec_i = n_ij*/n_i ; recall_i = n_ij*/m_j* ; "
                      "F_i = 2 prec_i recall_i / (prec_i + recall_i) ; F = mean_i F_i")
            rows = [[clusters[i], classes[self.best[i]], float(self.precision[i]),
                     float(self.recall[i]), float(self.per_cluster[i])]
                    for i in range(len(clusters))]
            d.table(["cluster C_i", "j*", "prec_i", "recall_i", "F_i"], rows)
            terms = " + ".join(fmt(v) for v in self.per_cluster[:12])
            if len(clusters) > 12:
                terms += r" + \dots"
            d.step(rf"F = \frac{{1}}{{{len(clusters)}}}({terms}) = {fmt(self)}",
                   f"F = (1/{len(clusters)}) ({terms.replace(chr(92) + 'dots', '...')}) = {fmt(self)}")
            d.note("The lecture's macro average over clusters; ties in argmax_j n_ij go to "
                   "the first class.")
        else:
            d.formula(r"F(T_j) = \max_i F(i,j), \qquad "
                      r"F = \sum_j \frac{m_j}{n} F(T_j)",
                      "F(T_j) = max_i F(i, j) ; F = sum_j (m_j / n) F(T_j)")
            rows = [[classes[j], clusters[self.best[j]], int(t.class_sizes[j]),
                     float(self.per_class[j])] for j in range(len(classes))]
            d.table(["class T_j", "best-matching cluster", "m_j", "F(T_j)"], rows)
            d.step(rf"F = \frac{{1}}{{{t.n}}}\sum_j m_j F(T_j) = {fmt(self)}",
                   f"F = (1/{t.n}) sum_j m_j F(T_j) = {fmt(self)}")
            d.note("The full-reference notes' class-weighted F-score (each class takes "
                   "its best-matching cluster; a cluster may serve several classes).")
        return d


@scikit_learn_names()
def f_measure(truth, pred, average: str = "clusters") -> FMeasure:
    """Overall F-measure of a clustering, in one of the course's two conventions.

    ``average="clusters"`` (the lecture): every cluster ``C_i`` is matched to its
    majority class ``j* = argmax_j n_ij`` and the harmonic means are averaged
    over the ``r`` clusters,

    .. math:: F = \\frac{1}{r}\\sum_{i=1}^{r} F_i, \\quad
              F_i = \\frac{2\\,\\text{prec}_i\\,\\text{recall}_i}{\\text{prec}_i + \\text{recall}_i},
              \\ \\text{prec}_i = \\frac{n_{ij^*}}{n_i},
              \\ \\text{recall}_i = \\frac{n_{ij^*}}{m_{j^*}}.

    ``average="classes"`` (the full-reference notes): every class takes its
    best cluster, weighted by class size,

    .. math:: F = \\sum_{j} \\frac{m_j}{n} \\max_i F(i, j).

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    average : {"clusters", "classes"}, default "clusters"
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    FMeasure
        A float in (0, 1] with ``.per_cluster`` (``"clusters"``) or
        ``.per_class`` (``"classes"``), ``.best`` and ``.table``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.1;
    B. Larsen and C. Aone, "Fast and effective text mining using linear-time
    document clustering", KDD 1999 (the class-weighted F).

    Examples
    --------
    >>> from prayatul_edu import f_measure
    >>> round(float(f_measure([0, 0, 1, 1], [0, 0, 0, 1])), 4)
    0.7333
    >>> round(float(f_measure([0, 0, 1, 1], [0, 0, 0, 1], average="classes")), 4)
    0.7333
    """
    check_choice(average, "average", ("clusters", "classes"))
    table = contingency_table(truth, pred)
    if _read_cells(table):
        return _f_measure_from_cells(table, average)
    precision, recall, f = _prf(table)
    if average == "clusters":
        n = table.counts
        best = n.argmax(axis=1)                       # j* for each cluster
        rows = np.arange(n.shape[0])
        prec_i = precision[rows, best]
        recall_i = recall[rows, best]
        f_i = 2 * prec_i * recall_i / (prec_i + recall_i)
        return FMeasure(f_i.mean(), average=average, per_cluster=f_i, precision=prec_i,
                        recall=recall_i, best=best, table=table)
    best = f.argmax(axis=0)                           # best cluster for each class
    per_class = f.max(axis=0)                         # F(T_j) = max_i F(i, j)
    value = float((table.class_sizes * per_class).sum() / table.n)
    return FMeasure(value, average=average, per_class=per_class, best=best, table=table)


def _f_measure_from_cells(table: ContingencyTable, average: str) -> "FMeasure":
    """:func:`f_measure` from the non-empty cells (an empty cell has F = 0 and is never a
    cluster's or a class's best), the same numbers without the r x k matrices."""
    rows, cols, count = table.cell_cluster, table.cell_class, table.cell_count
    if average == "clusters":
        best_count, best = _largest_cell(rows, cols, count)
        prec_i = best_count / table.cluster_sizes.astype(float)
        recall_i = best_count / table.class_sizes[best].astype(float)
        f_i = 2 * prec_i * recall_i / (prec_i + recall_i)
        return FMeasure(f_i.mean(), average=average, per_cluster=f_i, precision=prec_i,
                        recall=recall_i, best=best, table=table)
    precision = count / table.cluster_sizes[rows].astype(float)
    recall = count / table.class_sizes[cols].astype(float)
    f = 2 * precision * recall / (precision + recall)
    per_class, best = _largest_cell(cols, rows, f)
    value = float((table.class_sizes * per_class).sum() / table.n)
    return FMeasure(value, average=average, per_class=per_class, best=best, table=table)


# ------------------------------------------- clustering ratio and clustering error
class ClusteringRatio(ScalarResult):
    """The clustering ratio eta = C / K, with ``.n_clusters`` (C) and ``.n_classes`` (K)."""

    def derivation(self) -> Derivation:
        c, k = self.n_clusters, self.n_classes
        d = Derivation(f"Clustering ratio = {fmt(self)}")
        d.formula(r"\eta = \frac{C}{K}", "eta = C / K")
        d.step(rf"\eta = \frac{{{c}}}{{{k}}} = {fmt(self)}", f"eta = {c} / {k} = {fmt(self)}")
        if c == k:
            d.text("The algorithm found as many clusters as there are classes (eta = 1).")
        else:
            word = "more" if c > k else "fewer"
            d.text(f"The algorithm found {word} clusters than there are classes "
                   f"(eta {'>' if c > k else '<'} 1): it "
                   f"{'over-segments' if c > k else 'merges classes'}.")
        return d


@scikit_learn_names()
def clustering_ratio(truth, pred) -> ClusteringRatio:
    """The clustering ratio: clusters found per true class.

    .. math:: \\eta = \\frac{C}{K}

    with ``C`` the number of clusters in ``pred`` and ``K`` the number of
    classes in ``truth``. ``eta = 1`` is necessary (not sufficient) for a
    perfect clustering; ``eta > 1`` means over-segmentation, ``eta < 1`` merged
    classes.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    ClusteringRatio
        A positive float with ``.n_clusters`` (C), ``.n_classes`` (K) and ``.table``.

    References
    ----------
    The full-reference notes (seed 002), sec. 17.8.1.

    Examples
    --------
    >>> from prayatul_edu import clustering_ratio
    >>> r = clustering_ratio(truth=[0, 0, 1, 1], pred=[0, 1, 2, 2])
    >>> float(r), r.n_clusters, r.n_classes
    (1.5, 3, 2)
    """
    table = contingency_table(truth, pred)
    c, k = table.shape                      # rows are clusters, columns classes
    return ClusteringRatio(c / k, n_clusters=c, n_classes=k, table=table)


class ClusteringError(ScalarResult):
    """The clustering error, with ``.matching``, ``.matched``, ``.accuracy`` and ``.table``."""

    def derivation(self) -> Derivation:
        t = self.table
        acc = self.accuracy
        d = Derivation(f"Clustering error = {fmt(self)}")
        d.formula(r"\text{error} = 1 - \max_{\pi} \frac{1}{n} \sum_i n_{i\,\pi(i)}"
                  r"\quad(\pi \text{ one-to-one between clusters and classes})",
                  "error = 1 - max over one-to-one mappings pi of (1/n) sum_i n_{i,pi(i)}")
        missed = t.n - acc.matched
        d.step(rf"\text{{error}} = 1 - \frac{{{acc.matched}}}{{{t.n}}} = "
               rf"\frac{{{missed}}}{{{t.n}}} = {fmt(self)}",
               f"error = 1 - {acc.matched} / {t.n} = {missed} / {t.n} = {fmt(self)}")
        c, k = t.shape
        if c != k:
            d.note(f"C = {c} clusters, K = {k} classes: a one-to-one mapping pairs only "
                   f"min(C, K) = {min(c, k)} of them; every instance of an unmatched "
                   f"{'cluster' if c > k else 'class'} counts as an error, because each "
                   "class has exactly one correct cluster.")
        d.text("Counting each cluster's majority class instead (several clusters "
               "sharing a class) would be 1 - purity, which rewards over-segmentation.")
        d.extend(acc.derivation())            # the mapping and the matched counts
        return d


@scikit_learn_names()
def clustering_error(truth, pred) -> ClusteringError:
    """The (subspace) clustering error: the fraction misclassified after the best mapping.

    .. math::
        \\text{error} = 1 - \\max_{\\pi} \\frac{1}{n} \\sum_{i} n_{i\\,\\pi(i)}

    where ``pi`` maps clusters one-to-one to classes (the Hungarian algorithm).
    It is the complement of :func:`maximum_matching`, the Hungarian-matched
    accuracy. When ``C != K`` the mapping pairs only ``min(C, K)`` clusters
    with classes; the instances of the clusters (``C > K``) or classes
    (``C < K``) left without a partner count as errors: a class has one
    correct cluster, so splitting or merging classes is a mistake.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    ClusteringError
        A float in [0, 1) with ``.accuracy`` (the :class:`MaximumMatching`),
        ``.matching`` (dict: cluster label -> class label), ``.matched`` and ``.table``.

    References
    ----------
    The full-reference notes (seed 002), sec. 17.8.1; E. Elhamifar and
    R. Vidal, "Sparse subspace clustering", IEEE TPAMI 35, 2013.

    Examples
    --------
    >>> from prayatul_edu import clustering_error
    >>> e = clustering_error(truth=[0, 0, 0, 1, 1, 1], pred=["a", "a", "b", "b", "b", "b"])
    >>> round(float(e), 4), e.matching, e.matched
    (0.1667, {'a': 0, 'b': 1}, 5)
    """
    acc = maximum_matching(truth, pred)
    return ClusteringError((acc.table.n - acc.matched) / acc.table.n, accuracy=acc,
                           matching=acc.matching, matched=acc.matched, table=acc.table)


# ------------------------------------- accuracy, precision, recall on the raw labels
# A cluster label read as a class name: right only when the two names are equal.
# These are the classification scores the Prayatul paper's Table II reports; a
# clustering with the right groups under other names scores 0 (maximum matching
# relabels first, the pair-counting measures never look at names).

#: The averages of :func:`raw_precision_recall` (``None`` gives the per-label arrays).
RAW_AVERAGES = ("macro", "weighted", "binary", "paper")


def _shared_labels(truth, pred):
    """Validate; codes of truth and prediction in one sorted label space, and its labels."""
    t, p = check_partitions(truth=truth, pred=pred)
    # the few distinct labels of both, as one labelling: equal names get equal codes
    both = check_labels(np.concatenate([np.asarray(t.values, dtype=object),
                                        np.asarray(p.values, dtype=object)]), "labels",
                        min_n=1)
    t_codes = both.codes[:t.k][t.codes]
    p_codes = both.codes[t.k:][p.codes]
    return t_codes, p_codes, [_py(v) for v in both.values]


class RawAccuracy(ScalarResult):
    """Accuracy on the raw labels, with ``.hits`` (instances with pred = truth) and ``.n``."""

    def derivation(self) -> Derivation:
        d = Derivation(f"Accuracy on the raw labels = {fmt(self)}")
        d.formula(r"\text{accuracy} = \frac{1}{N}\sum_{x=1}^{N} [\,p_x = g_x\,]",
                  "accuracy = (1/N) * #{points x with p_x = g_x}")
        d.step(rf"\text{{accuracy}} = \frac{{{self.hits}}}{{{self.n}}} = {fmt(self)}",
               f"accuracy = {frac(self.hits, self.n)}")
        d.text("A cluster counts as right only where its label is the class's name: the "
               "same clusters under other names score 0. Maximum matching relabels first.")
        return d


@scikit_learn_names()
def raw_accuracy(truth, pred) -> RawAccuracy:
    """Accuracy on the raw labels: the fraction of points whose cluster label *is* their class.

    .. math::
        \\text{accuracy} = \\frac{1}{N} \\sum_{x=1}^{N} [\\, p_x = g_x \\,]

    A clustering does not name its clusters after the classes, so this is a
    classification score misapplied (the paper's Table II shows why): it
    changes when the clusters are renamed. :func:`maximum_matching` is the
    accuracy after the best one-to-one renaming.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
        Ground-truth classes and predicted clusters; labels are compared by value.
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    RawAccuracy
        A float in [0, 1] with ``.hits`` (points with ``p_x = g_x``) and ``.n``;
        equals scikit-learn's ``accuracy_score(truth, pred)``.

    References
    ----------
    A. Biswas, "Prayatul matrix: a direct comparison approach to evaluate
    performance of supervised machine learning models", 2023, Table II;
    scikit-learn, ``sklearn.metrics.accuracy_score``.

    Examples
    --------
    >>> from prayatul_edu.matching import raw_accuracy
    >>> float(raw_accuracy([0, 0, 1, 1], [1, 1, 0, 0]))   # right groups, swapped names
    0.0
    >>> float(raw_accuracy([0, 0, 1, 1], [0, 1, 1, 1]))
    0.75
    """
    t_codes, p_codes, _ = _shared_labels(truth, pred)
    hits = int(np.count_nonzero(t_codes == p_codes))   # #{x : p_x = g_x}
    n = t_codes.shape[0]
    return RawAccuracy(hits / n, hits=hits, n=n)


class RawPrecisionRecall(tuple, Result):
    """``(precision, recall)`` on the raw labels, unpacking like a pair.

    ``.labels`` (sorted), ``.hits``, ``.predicted``, ``.actual`` (per label),
    ``.per_label_precision`` / ``.per_label_recall``, ``.average`` and
    ``.rule`` (how the average was taken).
    """

    def __new__(cls, precision, recall, **details):
        self = tuple.__new__(cls, (precision, recall))
        self.__dict__.update(details)
        return self

    @property
    def precision(self):
        return self[0]

    @property
    def recall(self):
        return self[1]

    __repr__ = Result.__repr__

    def derivation(self) -> Derivation:
        d = Derivation("Precision and recall on the raw labels"
                       + (f" ({self.average})" if self.average else ", per label"))
        d.formula(r"\text{precision}_l = \frac{|\{x: p_x = l,\ g_x = l\}|}{|\{x: p_x = l\}|},"
                  r"\qquad \text{recall}_l = \frac{|\{x: p_x = l,\ g_x = l\}|}"
                  r"{|\{x: g_x = l\}|}",
                  "precision_l = #{p_x = l and g_x = l} / #{p_x = l} ; "
                  "recall_l = #{p_x = l and g_x = l} / #{g_x = l}  (0 where 0/0)")
        rows = [[str(label), int(h), int(pr), int(ac), float(pl), float(rl)]
                for label, h, pr, ac, pl, rl in zip(self.labels, self.hits, self.predicted,
                                                    self.actual, self.per_label_precision,
                                                    self.per_label_recall)]
        d.table(["label l", "hits", "#{p_x = l}", "#{g_x = l}", "precision_l", "recall_l"],
                rows)
        if self.average:
            d.text(f"{self.rule}: precision = {fmt(self.precision)}, "
                   f"recall = {fmt(self.recall)}.")
        d.note("A label that never occurs as a prediction has precision 0, one that never "
               "occurs as a class has recall 0 (scikit-learn's zero_division=0).")
        return d


def _averaged(values: np.ndarray, actual: np.ndarray, how: str) -> float:
    if how == "macro":                       # (1/L) sum_l v_l
        return float(values.mean())
    return float((values * actual).sum() / actual.sum())   # sum_l (m_l / N) v_l


@scikit_learn_names()
def raw_precision_recall(truth, pred, average: str | None = "macro", *,
                         pos_label=1) -> RawPrecisionRecall:
    """Precision and recall on the raw labels, averaged over the labels as asked.

    Every label ``l`` of truth or prediction is read as "class ``l``":

    .. math::
        \\text{precision}_l = \\frac{|\\{x: p_x = l,\\ g_x = l\\}|}{|\\{x: p_x = l\\}|},
        \\qquad
        \\text{recall}_l = \\frac{|\\{x: p_x = l,\\ g_x = l\\}|}{|\\{x: g_x = l\\}|}

    (0 where the denominator is 0). Over the ``L`` labels, with ``m_l`` points
    of class ``l``:

    * ``"macro"``: the plain mean, :math:`\\frac{1}{L}\\sum_l \\text{precision}_l`;
    * ``"weighted"``: :math:`\\sum_l \\frac{m_l}{N} \\text{precision}_l` (weighted
      recall always equals :func:`raw_accuracy`);
    * ``"binary"``: the scores of ``pos_label`` alone (two labels at most);
    * ``"paper"``: what the Prayatul paper's Table II did: ``"binary"`` when every
      label is 0 or 1, otherwise macro precision and weighted recall;
    * ``None``: the per-label arrays (labels sorted).

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    average : {"macro", "weighted", "binary", "paper"} or None, default "macro"
    pos_label : label, default 1
        The positive class of ``average="binary"``.

    Returns
    -------
    RawPrecisionRecall
        Unpacks as ``precision, recall``; equals scikit-learn's
        ``precision_score`` / ``recall_score`` with the same ``average`` and
        ``zero_division=0`` (for ``"paper"``, the paper's combination of them).

    References
    ----------
    A. Biswas, "Prayatul matrix: a direct comparison approach to evaluate
    performance of supervised machine learning models", 2023, Table II;
    scikit-learn, ``sklearn.metrics.precision_score``.

    Examples
    --------
    >>> from prayatul_edu.matching import raw_precision_recall
    >>> tuple(raw_precision_recall([0, 0, 1, 1], [1, 1, 0, 0]))   # swapped names
    (0.0, 0.0)
    >>> tuple(raw_precision_recall([0, 0, 1, 1], [0, 1, 1, 1]))
    (0.8333333333333333, 0.75)
    >>> tuple(raw_precision_recall([0, 0, 1, 1], [0, 1, 1, 1], average="paper"))   # label 1
    (0.6666666666666666, 1.0)
    """
    if average is not None:
        check_choice(average, "average", RAW_AVERAGES)
    t_codes, p_codes, labels = _shared_labels(truth, pred)
    L = len(labels)
    hits = np.bincount(t_codes[t_codes == p_codes], minlength=L)   # #{p_x = g_x = l}
    predicted = np.bincount(p_codes, minlength=L)                  # #{p_x = l}
    actual = np.bincount(t_codes, minlength=L)                     # m_l = #{g_x = l}
    precision = np.divide(hits, predicted, out=np.zeros(L), where=predicted > 0)
    recall = np.divide(hits, actual, out=np.zeros(L), where=actual > 0)
    details = dict(labels=labels, hits=hits, predicted=predicted, actual=actual,
                   per_label_precision=precision, per_label_recall=recall, average=average)
    if average == "paper":
        average = "binary" if set(labels) <= {0, 1} else "paper"
    if average is None:
        return RawPrecisionRecall(precision, recall, rule="", **details)
    if average == "binary":
        if L > 2:
            raise ValueError(f"average: 'binary' needs at most two labels, but truth and pred "
                             f"have {L} ({', '.join(map(repr, labels))}); use 'macro' or "
                             "'weighted'")
        if L == 2 and pos_label not in labels:
            raise ValueError(f"pos_label: {pos_label!r} is not one of the labels "
                             f"{', '.join(map(repr, labels))}")
        j = labels.index(pos_label) if pos_label in labels else None
        rule = f"The positive label {pos_label!r} alone (binary)"
        if details["average"] == "paper":
            rule += ", as the paper does when every label is 0 or 1"
        p, r = (0.0, 0.0) if j is None else (float(precision[j]), float(recall[j]))
        return RawPrecisionRecall(p, r, rule=rule, **details)
    if average == "paper":
        return RawPrecisionRecall(
            _averaged(precision, actual, "macro"), _averaged(recall, actual, "weighted"),
            rule="As the paper does beyond two labels: precision macro (the plain mean over "
                 f"the {L} labels), recall weighted by class size (= the accuracy)", **details)
    how = (f"Macro average (the plain mean over the {L} labels)" if average == "macro"
           else "Weighted average (label l weighted by its class size m_l / N)")
    return RawPrecisionRecall(_averaged(precision, actual, average),
                              _averaged(recall, actual, average), rule=how, **details)
