"""Graph-based internal measures: W_in, W_out, the normalized cut and BetaCV.

Read the N x N matrix ``W`` (distances, or weights of a graph) as a complete
graph on the instances; a clustering ``C_1, ..., C_k`` is then a k-way cut of
that graph. Everything is built from one quantity, the total weight between
two sets of instances,

.. math:: W(S, R) = \\sum_{i \\in S} \\sum_{j \\in R} w_{ij},

evaluated for each cluster ``C_i`` against itself, against its complement
``\\bar C_i`` and against all instances ``V``. ``W(C_i, C_i)`` counts every
pair inside ``C_i`` twice (as ``(x, y)`` and ``(y, x)``), hence the 1/2 in
``W_in`` and ``W_out``.

For a distance matrix, good clusterings have a small ``W_in`` and a large
``W_out``: a large normalized cut and a small BetaCV. For a similarity (kernel)
matrix the directions flip.

Reference: M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*,
ch. 17 (sec. 17.2, internal measures).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import check_distance_matrix
from .labels import Labels, check_labels_of
from .counting import comb2, pairs_within
from .steps import Derivation, ScalarResult, fmt, fmt_counts

__all__ = ["within_cluster_weight", "between_cluster_weight", "normalized_cut", "beta_cv"]


# ---------------------------------------------------------------- W(S, R)
def _weight(W: np.ndarray, S: np.ndarray, R: np.ndarray) -> float:
    """W(S, R) = sum_{i in S} sum_{j in R} w_ij, for index arrays S and R."""
    return float(W[np.ix_(S, R)].sum())


@dataclass
class _Cut:
    """W(C_i, C_i), W(C_i, not C_i) and W(C_i, V) of every cluster."""

    labels: Labels
    n: int
    sizes: np.ndarray
    within: np.ndarray      # W(C_i, C_i): ordered pairs inside C_i
    cut: np.ndarray         # W(C_i, not C_i): weight leaving C_i
    volume: np.ndarray      # W(C_i, V) = W(C_i, C_i) + W(C_i, not C_i)


def _cut(W, labels) -> _Cut:
    """Validate, then evaluate W(S, R) for every cluster (one cluster at a time)."""
    W = check_distance_matrix(W, "W")
    n = W.shape[0]
    lab = check_labels_of(labels, n, f"W is {n} x {n}")
    k = lab.k
    within, cut = np.empty(k), np.empty(k)
    for i in range(k):
        C_i = np.flatnonzero(lab.codes == i)             # members of cluster i
        not_C_i = np.flatnonzero(lab.codes != i)         # its complement
        within[i] = _weight(W, C_i, C_i)                 # W(C_i, C_i)
        cut[i] = _weight(W, C_i, not_C_i)                # W(C_i, not C_i)
    # W(C_i, V) = W(C_i, C_i) + W(C_i, not C_i), since V is C_i plus its complement.
    # (Summed this way, cut <= volume holds in floating point too: NC terms stay <= 1.)
    volume = within + cut
    return _Cut(lab, n, lab.sizes(), within, cut, volume)


def _begin(result, title: str, latex: str, plain: str, columns: list[str],
           terms=None) -> Derivation:
    """A derivation's common start: the title, the formula and the per-cluster table."""
    c = result._cut
    d = Derivation(f"{title} = {fmt(result)}")
    d.formula(latex, plain)
    header = ["cluster C_i", "n_i"] + columns + ([] if terms is None else ["term"])
    rows = []
    for i, label in enumerate(c.labels.values):
        values = {"W(C_i, C_i)": float(c.within[i]), "W(C_i, not C_i)": float(c.cut[i]),
                  "W(C_i, V)": float(c.volume[i])}
        rows.append([str(label), int(c.sizes[i])] + [values[name] for name in columns]
                    + ([] if terms is None else [float(terms[i])]))
    d.table(header, rows)
    return d


# ------------------------------------------------------------ W_in, W_out
class _HalfSum(ScalarResult):
    """(1/2) sum_i of one per-cluster quantity: shared by W_in and W_out."""

    _name = _latex = _term = _term_latex = _why_half = ""

    def derivation(self) -> Derivation:
        d = _begin(self, self._name,
                   r"W(S, R) = \sum_{i \in S}\sum_{j \in R} w_{ij}, \qquad "
                   rf"{self._latex} = \frac{{1}}{{2}}\sum_{{i=1}}^{{k}} {self._term_latex}",
                   "W(S, R) = sum_{i in S} sum_{j in R} w_ij ;  "
                   f"{self._name} = (1/2) sum_i {self._term}", [self._term])
        terms = fmt_counts(self.per_cluster)
        d.step(rf"{self._latex} = \frac{{1}}{{2}}({terms}) = {fmt(self)}",
               f"{self._name} = (1/2) ({terms}) = {fmt(self)}")
        d.text(self._why_half)
        return d


class WithinClusterWeight(_HalfSum):
    """W_in, with ``.per_cluster`` = W(C_i, C_i) (aligned with ``.clusters``)."""

    _name, _latex = "W_in", "W_{in}"
    _term, _term_latex = "W(C_i, C_i)", "W(C_i, C_i)"
    _why_half = ("W(C_i, C_i) counts each pair inside C_i twice (w_xy and w_yx); the 1/2 "
                 "counts each pair once.")


class BetweenClusterWeight(_HalfSum):
    """W_out, with ``.per_cluster`` = W(C_i, not C_i) (aligned with ``.clusters``)."""

    _name, _latex = "W_out", "W_{out}"
    _term, _term_latex = "W(C_i, not C_i)", r"W(C_i, \overline{C_i})"
    _why_half = ("A pair x in C_i, y in C_j is counted in W(C_i, not C_i) and again in "
                 "W(C_j, not C_j); the 1/2 counts it once. With a single cluster there is "
                 "no pair between clusters and W_out = 0.")


def within_cluster_weight(W, labels) -> WithinClusterWeight:
    """Total weight (distance) inside clusters, each pair counted once.

    .. math::
        W_{in} = \\frac{1}{2} \\sum_{i=1}^{k} W(C_i, C_i), \\qquad
        W(S, R) = \\sum_{i \\in S} \\sum_{j \\in R} w_{ij}

    Parameters
    ----------
    W : array of shape (N, N)
        Symmetric, non-negative, zero diagonal: distances, or graph weights.
    labels : sequence of hashable labels, length N

    Returns
    -------
    WithinClusterWeight
        A float >= 0 with ``.per_cluster`` (``W(C_i, C_i)``, so that
        ``W_in = per_cluster.sum() / 2``), ``.clusters`` and ``.sizes``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.2.

    Examples
    --------
    >>> from prayatul_edu import within_cluster_weight
    >>> W = [[0, 1, 4, 5], [1, 0, 3, 4], [4, 3, 0, 2], [5, 4, 2, 0]]
    >>> w = within_cluster_weight(W, ["a", "a", "b", "b"])
    >>> float(w), w.per_cluster.tolist()
    (3.0, [2.0, 4.0])
    """
    c = _cut(W, labels)
    value = c.within.sum() / 2                          # (1/2) sum_i W(C_i, C_i)
    return WithinClusterWeight(value, per_cluster=c.within, clusters=c.labels.values,
                               sizes=c.sizes, _cut=c)


def between_cluster_weight(W, labels) -> BetweenClusterWeight:
    """Total weight (distance) between clusters, each pair counted once.

    .. math::
        W_{out} = \\frac{1}{2} \\sum_{i=1}^{k} W(C_i, \\overline{C_i})

    Same arguments and reference as :func:`within_cluster_weight`.
    ``W_in + W_out`` is the weight of all pairs, ``sum_{i<j} w_ij``, whatever
    the clustering: moving an instance shifts weight from one to the other.

    Returns
    -------
    BetweenClusterWeight
        A float >= 0 with ``.per_cluster`` (``W(C_i, not C_i)``, the weight of
        the edges leaving ``C_i``; ``W_out = per_cluster.sum() / 2``),
        ``.clusters`` and ``.sizes``.

    Examples
    --------
    Every pair between {0, 1} and {2, 3} (4 + 5 + 3 + 4 = 16) is cut twice:

    >>> from prayatul_edu import between_cluster_weight
    >>> W = [[0, 1, 4, 5], [1, 0, 3, 4], [4, 3, 0, 2], [5, 4, 2, 0]]
    >>> w_out = between_cluster_weight(W, labels=["a", "a", "b", "b"])
    >>> w_out.per_cluster.tolist(), float(w_out)
    ([16.0, 16.0], 16.0)
    """
    c = _cut(W, labels)
    value = c.cut.sum() / 2                             # (1/2) sum_i W(C_i, not C_i)
    return BetweenClusterWeight(value, per_cluster=c.cut, clusters=c.labels.values,
                                sizes=c.sizes, _cut=c)


# ------------------------------------------------------- normalized cut
class NormalizedCut(ScalarResult):
    """Normalized cut, with ``.per_cluster`` = W(C_i, not C_i) / W(C_i, V)."""

    def derivation(self) -> Derivation:
        d = _begin(self, "Normalized cut",
                   r"NC = \sum_{i=1}^{k} \frac{W(C_i, \overline{C_i})}{W(C_i, V)}, \qquad "
                   r"W(C_i, V) = W(C_i, C_i) + W(C_i, \overline{C_i})",
                   "NC = sum_i W(C_i, not C_i) / W(C_i, V) ;  "
                   "W(C_i, V) = W(C_i, C_i) + W(C_i, not C_i)",
                   ["W(C_i, not C_i)", "W(C_i, V)"], terms=self.per_cluster)
        terms = fmt_counts(self.per_cluster)
        d.step(rf"NC = {terms} = {fmt(self)}", f"NC = {terms} = {fmt(self)}")
        d.note("The lecture notes' normalized-cut lines are garbled (one divides by n, "
               "another by w(c_i)); the correct denominator is W(C_i, V), the total "
               "weight from C_i to all instances V (its volume).")
        d.text("For a distance matrix a larger NC is better (clusters far from the rest, "
               "at most k); for a similarity (kernel) matrix a smaller one.")
        zero = int((self.volume == 0).sum())
        if zero:
            d.note(f"{zero} cluster(s) have W(C_i, V) = 0 (every weight from them is 0, so "
                   "W(C_i, not C_i) = 0 too): their term 0/0 is taken as 0.")
        return d


def normalized_cut(W, labels) -> NormalizedCut:
    """Normalized cut: each cluster's outgoing weight relative to its total weight.

    .. math::
        NC = \\sum_{i=1}^{k} \\frac{W(C_i, \\overline{C_i})}{W(C_i, V)}

    where ``V`` is the set of all instances, so ``W(C_i, V)`` (the *volume*
    of ``C_i``) is the total weight from ``C_i`` to everyone. The lecture
    notes' lines for NC are garbled; this is the form of Zaki & Meira. Each
    term lies in [0, 1], so ``0 <= NC <= k``. A cluster whose weights are all
    zero has ``W(C_i, V) = 0``: its term is 0/0 and is taken as 0 (the
    cluster cuts nothing).

    Parameters
    ----------
    W : array of shape (N, N)
        Symmetric, non-negative, zero diagonal.
    labels : sequence of hashable labels, length N

    Returns
    -------
    NormalizedCut
        A float in [0, k] with ``.per_cluster`` (the terms), ``.cut``
        (``W(C_i, not C_i)``), ``.volume`` (``W(C_i, V)``), ``.clusters``, ``.sizes``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.2;
    J. Shi and J. Malik, "Normalized cuts and image segmentation", IEEE TPAMI 22 (2000).

    Examples
    --------
    >>> from prayatul_edu import normalized_cut
    >>> W = [[0, 1, 4, 5], [1, 0, 3, 4], [4, 3, 0, 2], [5, 4, 2, 0]]
    >>> nc = normalized_cut(W, ["a", "a", "b", "b"])
    >>> nc.per_cluster.round(4).tolist(), round(float(nc), 4)
    ([0.8889, 0.8], 1.6889)
    """
    c = _cut(W, labels)
    has_volume = c.volume > 0
    # W(C_i, not C_i) / W(C_i, V); a cluster with zero volume contributes 0
    terms = np.zeros(c.cut.shape[0])
    terms[has_volume] = c.cut[has_volume] / c.volume[has_volume]
    return NormalizedCut(terms.sum(), per_cluster=terms, cut=c.cut, volume=c.volume,
                         clusters=c.labels.values, sizes=c.sizes, _cut=c)


# --------------------------------------------------------------- BetaCV
class BetaCV(ScalarResult):
    """BetaCV, with ``.w_in``, ``.w_out``, ``.n_in``, ``.n_out`` (exact ints)."""

    def derivation(self) -> Derivation:
        d = _begin(self, "BetaCV",
                   r"\text{BetaCV} = \frac{W_{in} / N_{in}}{W_{out} / N_{out}}, \quad "
                   r"N_{in} = \sum_i \binom{n_i}{2}, \quad N_{out} = \sum_{i<j} n_i n_j",
                   "BetaCV = (W_in / N_in) / (W_out / N_out) ;  N_in = sum_i C(n_i, 2) ;  "
                   "N_out = sum_{i<j} n_i n_j", ["W(C_i, C_i)", "W(C_i, not C_i)"])
        d.step(rf"W_{{in}} = \frac{{1}}{{2}}\sum_i W(C_i, C_i) = {fmt(self.w_in)}, \quad "
               rf"W_{{out}} = \frac{{1}}{{2}}\sum_i W(C_i, \overline{{C_i}}) = {fmt(self.w_out)}",
               f"W_in = (1/2) sum_i W(C_i, C_i) = {fmt(self.w_in)} ;  "
               f"W_out = (1/2) sum_i W(C_i, not C_i) = {fmt(self.w_out)}")
        n = self._cut.n
        d.step(rf"N_{{in}} = {self.n_in}, \quad N_{{out}} = \binom{{{n}}}{{2}} - N_{{in}} "
               rf"= {self.n_out}",
               f"N_in = {self.n_in} ;  N_out = C({n}, 2) - N_in = {self.n_out}")
        d.step(rf"\text{{BetaCV}} = \frac{{{fmt(self.w_in)} / {self.n_in}}}"
               rf"{{{fmt(self.w_out)} / {self.n_out}}} = \frac{{{fmt(self.mean_in)}}}"
               rf"{{{fmt(self.mean_out)}}} = {fmt(self)}",
               f"BetaCV = ({fmt(self.w_in)} / {self.n_in}) / ({fmt(self.w_out)} / "
               f"{self.n_out}) = {fmt(self.mean_in)} / {fmt(self.mean_out)} = {fmt(self)}")
        d.text("The mean distance inside clusters over the mean distance between them: "
               "smaller is better for a distance matrix.")
        if self.w_out == 0:
            d.note("W_out = 0: every weight between clusters is 0, so the ratio divides by "
                   "0 (inf when W_in > 0, nan when W_in = 0 too).")
        return d


def beta_cv(W, labels) -> BetaCV:
    """BetaCV: mean intra-cluster weight over mean inter-cluster weight.

    .. math::
        \\text{BetaCV} = \\frac{W_{in} / N_{in}}{W_{out} / N_{out}}, \\qquad
        N_{in} = \\sum_{i=1}^{k} \\binom{n_i}{2}, \\quad
        N_{out} = \\sum_{i<j} n_i n_j = \\binom{N}{2} - N_{in}

    ``N_in`` and ``N_out`` count the pairs inside and between clusters (exact
    integers). BetaCV needs both kinds of pair: a single cluster (no pair
    between clusters, so ``W_out / N_out`` is 0/0) or only singletons (no pair
    inside, ``W_in / N_in`` is 0/0) raise ``ValueError``. If every weight
    between clusters is 0 the ratio divides by zero: ``inf`` (``nan`` if
    ``W_in = 0`` too), explained in the derivation.

    Parameters
    ----------
    W, labels
        As for :func:`within_cluster_weight`; ``labels`` must have at least two
        clusters and at least one cluster with two members.

    Returns
    -------
    BetaCV
        A float >= 0 with ``.w_in``, ``.w_out``, ``.n_in``, ``.n_out``,
        ``.mean_in`` (= W_in / N_in), ``.mean_out``, ``.clusters``, ``.sizes``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.2
    (BetaCV is listed there with W_in, W_out and the normalized cut).

    Examples
    --------
    The tutorial's Exercise 1 distances, C1 = {x1, x2}, C2 = {x3, x4}: the two
    pairs inside weigh 0.1 + 0.9, the four between 2.5, so (1/2) / (2.5/4) = 0.8.

    >>> from prayatul_edu import beta_cv
    >>> D = [[0, .10, .65, .55], [.10, 0, .70, .60], [.65, .70, 0, .90], [.55, .60, .90, 0]]
    >>> b = beta_cv(D, [1, 1, 2, 2])
    >>> b.n_in, b.n_out, round(b.w_in, 12), round(b.w_out, 12), round(float(b), 12)
    (2, 4, 1.0, 2.5, 0.8)
    """
    c = _cut(W, labels)
    k = c.sizes.shape[0]
    n_in = pairs_within(c.sizes)                       # sum_i C(n_i, 2)
    n_out = comb2(c.n) - n_in                          # sum_{i<j} n_i n_j
    if k == 1:
        raise ValueError("labels: BetaCV needs at least 2 clusters (with one cluster there "
                         "is no pair between clusters, so W_out / N_out is 0/0)")
    if n_in == 0:
        raise ValueError("labels: BetaCV needs a cluster with at least 2 members (with "
                         "only singletons there is no pair inside a cluster, so W_in / N_in "
                         "is 0/0)")
    w_in = float(c.within.sum() / 2)                   # W_in
    w_out = float(c.cut.sum() / 2)                     # W_out
    mean_in = w_in / n_in                              # average weight of a pair inside
    mean_out = w_out / n_out                           # average weight of a pair between
    if mean_out > 0:
        value = mean_in / mean_out
    else:
        value = np.inf if mean_in > 0 else np.nan
    return BetaCV(value, w_in=w_in, w_out=w_out, n_in=n_in, n_out=n_out, mean_in=mean_in,
                  mean_out=mean_out, clusters=c.labels.values, sizes=c.sizes, _cut=c)
