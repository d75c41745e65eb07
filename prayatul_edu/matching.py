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

from ._validation import check_choice, check_labels, check_partitions
from .counting import ContingencyTable, contingency_table
from .steps import Derivation, Result, ScalarResult, fmt, frac

__all__ = ["purity", "maximum_matching", "precision_recall_f", "f_measure",
           "clustering_ratio", "clustering_error",
           "raw_accuracy", "raw_precision_recall", "paper_precision_recall"]


def _label_rows(table: ContingencyTable):
    return [str(c) for c in table.clusters], [str(c) for c in table.classes]


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
    n = table.counts                      # n[i, j] = |C_i ∩ T_j|
    best_class = n.argmax(axis=1)         # j* for every cluster
    best_count = n.max(axis=1)            # max_j n_ij
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
        rows = [[str(t.clusters[i]), str(t.classes[j]), int(t.counts[i, j]),
                 int(t.cluster_sizes[i])] for i, j in self.pairs]
        d.table(["cluster C_i", "matched class", "n_i,pi(i)", "n_i"], rows)
        d.step(rf"\text{{match}} = \frac{{{self.matched}}}{{{t.n}}} = {fmt(self)}",
               f"match = {self.matched} / {t.n} = {fmt(self)}")
        unmatched = t.shape[0] - len(self.matching)
        if unmatched:
            d.note(f"{unmatched} cluster(s) have no class left to match (more clusters "
                   "than classes); their instances count as errors.")
        d.text(f"Found by {self.solver}. Unlike purity, two clusters cannot share a class.")
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


def maximum_matching(truth, pred) -> MaximumMatching:
    """Maximum matching: the best one-to-one pairing of clusters with classes.

    .. math::
        \\text{match} = \\max_{\\pi} \\frac{1}{n} \\sum_{i} n_{i\\,\\pi(i)}

    where ``pi`` maps clusters to distinct classes. This is the accuracy of the
    clustering after the best relabelling, so it is immune to permuted cluster
    labels (unlike raw accuracy). Solved with the Hungarian algorithm
    (``scipy.optimize.linear_sum_assignment``); for small tables the brute
    force over all matchings gives the same value.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N

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
    n = table.counts
    if n.shape[0] * n.shape[1] <= 64 and min(n.shape) <= 6:
        pairs = _best_assignment_brute_force(n)
        solver = "brute force over every one-to-one matching"
    else:
        from scipy.optimize import linear_sum_assignment

        rows, cols = linear_sum_assignment(n, maximize=True)
        pairs = list(zip(rows.tolist(), cols.tolist()))
        solver = "the Hungarian algorithm (scipy.optimize.linear_sum_assignment)"
    matched = int(sum(int(n[i, j]) for i, j in pairs))
    matching = {_py(table.clusters[i]): _py(table.classes[j]) for i, j in pairs}
    return MaximumMatching(matched / table.n, matching=matching, matched=matched,
                           pairs=pairs, table=table, solver=solver)


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


def precision_recall_f(truth, pred) -> PrecisionRecallF:
    """Precision, recall and F-measure of every cluster ``i`` against every class ``j``.

    .. math::
        \\text{precision}(i,j) = \\frac{n_{ij}}{n_i}, \\quad
        \\text{recall}(i,j) = \\frac{n_{ij}}{m_j}, \\quad
        F(i,j) = \\frac{2\\,\\text{precision}(i,j)\\,\\text{recall}(i,j)}
                      {\\text{precision}(i,j) + \\text{recall}(i,j)}

    with ``F(i, j) = 0`` where ``n_ij = 0``. Rows are clusters (``.table.clusters``),
    columns classes (``.table.classes``), the tutorial's ``(i, j)`` order.

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
    return PrecisionRecallF(table, *_prf(table))


class FMeasure(ScalarResult):
    """Overall F-measure; ``.per_cluster`` or ``.per_class`` holds the terms averaged."""

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


# ------------------------------------------------ on the raw labels (no relabelling)
def _common_codes(truth, pred) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes of truth and prediction in one label space (1 in both means the same label)."""
    t = np.asarray(truth, dtype=object) if not isinstance(truth, np.ndarray) else truth
    p = np.asarray(pred, dtype=object) if not isinstance(pred, np.ndarray) else pred
    both = check_labels(np.concatenate([t.astype(object), p.astype(object)]), "labels")
    codes = both.codes
    return codes[:t.shape[0]], codes[t.shape[0]:], both.k


def raw_precision_recall(truth, pred, average: str | None = "macro"):
    """Precision and recall on the raw labels, as scikit-learn's ``precision_score``.

    Label ``l`` of the prediction is read as "class ``l``": precision_l =
    |pred = l and truth = l| / |pred = l|, recall_l = the same over |truth = l|,
    for every label of truth or prediction (0 where the denominator is 0, as
    ``zero_division=0``). ``average="macro"`` takes the plain mean over the
    labels, ``"weighted"`` weights by the class sizes (weighted recall equals
    the accuracy), ``"paper"`` averages as the Prayatul paper's Table II
    (:func:`paper_precision_recall`), ``None`` returns the per-label arrays
    (sorted labels).

    >>> from prayatul_edu.matching import raw_precision_recall
    >>> raw_precision_recall([0, 0, 1, 1], [1, 1, 0, 0])   # right clusters, swapped names
    (0.0, 0.0)
    >>> raw_precision_recall([0, 0, 1, 1], [0, 1, 1, 1])
    (0.8333333333333333, 0.75)
    """
    if average is not None:
        check_choice(average, "average", ("macro", "weighted", "paper"))
    if average == "paper":
        return paper_precision_recall(truth, pred)
    check_partitions(truth=truth, pred=pred)   # the errors name truth / pred
    t_codes, p_codes, k = _common_codes(truth, pred)
    hits = np.bincount(t_codes[t_codes == p_codes], minlength=k).astype(float)
    predicted = np.bincount(p_codes, minlength=k).astype(float)
    actual = np.bincount(t_codes, minlength=k).astype(float)
    precision = np.divide(hits, predicted, out=np.zeros(k), where=predicted > 0)
    recall = np.divide(hits, actual, out=np.zeros(k), where=actual > 0)
    if average is None:
        return precision, recall
    if average == "macro":
        return float(precision.mean()), float(recall.mean())
    return (float(np.average(precision, weights=actual)),
            float(np.average(recall, weights=actual)))


def raw_accuracy(truth, pred) -> float:
    """Accuracy on the raw labels: the share of instances whose label equals their class.

    .. math:: \\mathrm{acc} = \\frac{1}{n} \\left|\\{x : \\mathrm{pred}(x) = \\mathrm{truth}(x)\\}\\right|

    This is scikit-learn's ``accuracy_score``. It reads cluster label ``l`` as
    "class ``l``", so a perfect clustering whose clusters are named differently
    scores 0: compare :func:`maximum_matching`, which relabels first.

    >>> from prayatul_edu.matching import raw_accuracy
    >>> raw_accuracy([0, 0, 1, 1], [1, 1, 0, 0]), raw_accuracy([0, 0, 1, 1], [0, 1, 1, 1])
    (0.0, 0.75)
    """
    check_partitions(truth=truth, pred=pred)   # the errors name truth / pred
    t_codes, p_codes, _ = _common_codes(truth, pred)
    return float(np.mean(t_codes == p_codes))


def paper_precision_recall(truth, pred) -> tuple[float, float]:
    """Precision and recall on the raw labels, averaged as the paper's Table II.

    Matching every entry of Table II pins down the recipe: on the two-class data
    sets, scikit-learn's default ``average="binary"`` (label 1 is the positive
    class); on Aniso, ``precision_score(average="macro")`` over the labels of
    truth and prediction together (DBSCAN's 0.2 is 1/5: labels -1, 0, 1, 2, 3)
    and ``recall_score(average="weighted")``, which always equals the accuracy.
    With ``zero_division=0`` throughout.

    >>> from prayatul_edu.paper import paper_precision_recall
    >>> paper_precision_recall([0, 0, 1, 1], [0, 1, 1, 1])   # binary: label 1
    (0.6666666666666666, 1.0)
    """
    truth, pred = np.asarray(truth), np.asarray(pred)
    labels = set(np.unique(truth).tolist()) | set(np.unique(pred).tolist())
    if labels <= {0, 1}:
        p, r = raw_precision_recall(truth, pred, average=None)
        return float(p[-1]), float(r[-1])
    precision, _ = raw_precision_recall(truth, pred, average="macro")
    _, recall = raw_precision_recall(truth, pred, average="weighted")
    return precision, recall
