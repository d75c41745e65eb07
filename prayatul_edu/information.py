"""Information-theoretic measures: entropy, cluster entropy, mutual information, NMI.

A partition is read as a random variable: pick an instance at random and ask
which group it is in. With ``n_i = |C_i|`` (rows, clusters), ``m_j = |T_j|``
(columns, classes) and ``n_ij = |C_i ∩ T_j|``, the probabilities are

    p_i = n_i / n,   p_j = m_j / n,   p_ij = n_ij / n.

*Entropy* measures how uncertain the group of a random instance is; *mutual
information* how much knowing the cluster tells about the class; *NMI*
rescales it to [0, 1]; the tutorial's *cluster entropy* averages how mixed the
classes inside each cluster are (it is the conditional entropy H(T | C)).

One log base for the whole family: **bits (base 2)** by default. The lecture,
the tutorial and the exercises compute in bits (a fair coin has entropy 1,
``k`` equal groups ``log2 k``), so a student following a notebook gets the
numbers the exercises expect. Every function takes ``base=`` (``math.e`` gives
nats, the unit of scikit-learn's ``mutual_info_score``); NMI and the other
normalised measures do not depend on the base, which cancels in the ratio.

The lecture notes write the mutual information with the factor ``p_ij`` lost:
the correct formula is ``I = sum_ij p_ij log(p_ij / (p_i p_j))`` (taught here).
Every sum runs over the non-empty cells only (the convention ``0 log 0 = 0``).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from . import dask_counts
from ._validation import check_choice, check_real
from .labels import check_labels
from .counting import ContingencyTable
from .contingency import contingency_table, value_cells, scikit_learn_names
from .steps import MAX_TABLE_ROWS, Derivation, ScalarResult, fmt, frac

__all__ = ["entropy", "cluster_entropy", "mutual_information", "normalized_mutual_information",
           "adjusted_mutual_information", "v_measure", "homogeneity", "completeness",
           "variation_of_information"]

_AVERAGES = ("geometric", "arithmetic", "min", "max")

_MI_TYPO_NOTE = ("The lecture notes print this sum without the factor `p_ij` in front of the "
                 "logarithm (each log is weighted by `p_ij / (p_i p_j)` there); that is a "
                 "transcription slip. Without `p_ij`, two identical partitions into `k` "
                 "equal groups would give `k^2 log k` instead of `H = log k`. The formula "
                 "above, weighting each log-ratio by the observed joint probability `p_ij`, "
                 "is the mutual information.")


# ---------------------------------------------------------------- helpers
def _check_base(base) -> float:
    """The base of the logarithm: a finite positive real number other than 1."""
    b = check_real(base, "base", positive=True)
    if b == 1.0 or math.isinf(b):
        raise ValueError(f"base: the logarithm's base must be a finite positive number "
                         f"other than 1, got {base!r}")
    return b


def _log(x, base: float):
    """log_base(x), using the exact library routine for the bases 2, e and 10."""
    if base == 2.0:
        return np.log2(x)
    if base == math.e:
        return np.log(x)
    if base == 10.0:
        return np.log10(x)
    return np.log(x) / math.log(base)


def _log_name(base: float) -> tuple[str, str]:
    """The logarithm's name in LaTeX and in plain text."""
    if base == 2.0:
        return r"\log_2", "log2"
    if base == math.e:
        return r"\ln", "ln"
    if base == 10.0:
        return r"\log_{10}", "log10"
    return rf"\log_{{{fmt(base)}}}", f"log_{fmt(base)}"


def _unit(base: float) -> str:
    if base == 2.0:
        return "bits"
    if base == math.e:
        return "nats"
    if base == 10.0:
        return "hartleys (decimal digits)"
    return f"units of log base {fmt(base)}"


def _sum_text(symbol: str, terms, value) -> str:
    """``'I = 0.2 - 0.1 + 0.3 = 0.4'``: a sum of signed terms (cut when long)."""
    if len(terms) > 12:
        shown = [fmt(t) for t in terms[:6]] + ["..."] + [fmt(t) for t in terms[-3:]]
    else:
        shown = [fmt(t) for t in terms]
    text = shown[0]
    for s in shown[1:]:
        text += f" - {s[1:]}" if s.startswith("-") else f" + {s}"
    return f"{symbol} = {fmt(value)}" if len(shown) == 1 else f"{symbol} = {text} = {fmt(value)}"


def _entropy_from_sizes(sizes: np.ndarray, n: int, base: float) -> tuple[np.ndarray, float]:
    """p_g = sizes / n and H = -sum_g p_g log p_g (every size is positive)."""
    p = sizes / n                                   # probabilities of the groups
    h = float(-(p * _log(p, base)).sum()) + 0.0     # + 0.0 turns -0.0 into 0.0
    return p, h


def _mi_terms(table: ContingencyTable, base: float) -> np.ndarray:
    """The terms p_ij log(p_ij / (p_i p_j)) of I(C, T), one per non-empty cell."""
    n = table.n
    n_ij = table.cell_count.astype(float)                       # non-empty cells only
    n_i = table.cluster_sizes[table.cell_cluster].astype(float)  # row margin of each cell
    m_j = table.class_sizes[table.cell_class].astype(float)      # column margin of each cell
    p_ij = n_ij / n
    ratio = (n * n_ij) / (n_i * m_j)                # p_ij / (p_i p_j) = n n_ij / (n_i m_j)
    return p_ij * _log(ratio, base)


#: Tables with more non-empty cells than this sum I(C, T) regrouped (:func:`_mi_regrouped`).
MI_REGROUPED_CELLS = 4096


def _sum_n_log_n(counts: np.ndarray) -> float:
    """sum_c n_c ln n_c of positive integer counts; one log per distinct count when the
    counts are many and small (a histogram of them), as with many labels."""
    if counts.shape[0] > 4 * int(counts.max(initial=0)):
        seen = np.bincount(counts)
        v = np.flatnonzero(seen)
        return float((seen[v] * (v * np.log(v))).sum())
    c = counts.astype(float)
    return float((c * np.log(c)).sum())


def _mi_regrouped(table: ContingencyTable) -> float:
    """I(C, T) in nats from the counts alone, without a term per cell.

    The sum over cells regrouped (the n_i and m_j parts of the log summed along
    rows and columns first):

        I = ln n + (sum_ij n_ij ln n_ij - sum_i n_i ln n_i - sum_j m_j ln m_j) / n

    The same number as the sum of :func:`_mi_terms` up to rounding (tested):
    each sum is about n ln n, so the result carries an absolute error of a
    few times 1e-16 * ln n, far below any difference that matters. (Two equal
    partitions do not come here: their I is their entropy, exactly.)
    """
    n = table.n
    inner = (_sum_n_log_n(table.cell_count) - _sum_n_log_n(table.cluster_sizes)
             - _sum_n_log_n(table.class_sizes))
    return math.log(n) + inner / n


def _mutual_information(table: ContingencyTable, base: float) -> float:
    """I(C, T) in the given base: the sum of the terms of :func:`_mi_terms`, regrouped
    (:func:`_mi_regrouped`) for tables of many non-empty cells."""
    cells = table.cell_count.shape[0]
    if cells > MI_REGROUPED_CELLS and cells == table.shape[0] == table.shape[1]:
        # one cell per cluster and per class: the same partition, so I = H(C) = H(T)
        # exactly (and NMI(x, x) is exactly 1, as the sum of the terms gives it)
        value = _entropy_from_sizes(table.cluster_sizes, table.n, base)[1]
    elif cells > MI_REGROUPED_CELLS:
        value = _mi_regrouped(table) / math.log(base)
    else:
        value = float(_mi_terms(table, base).sum())
    # I >= 0 in nats; rounding can leave -1e-17 for independent partitions: clip to 0.
    # (A base below 1 makes every log, and so I, change sign: clip the other way.)
    if value * (base - 1.0) < 0:
        value = 0.0
    return value


def _capped_table(d: Derivation, header, n_rows: int, make_row, caption=None) -> None:
    """A table of the first rows only: building a million rows would be slow."""
    shown = min(n_rows, MAX_TABLE_ROWS)
    d.table(header, [make_row(r) for r in range(shown)], caption=caption, total_rows=n_rows)


# ----------------------------------------------------------------- entropy
class Entropy(ScalarResult):
    """Entropy of a partition, with ``.probabilities``, ``.labels``, ``.counts``, ``.base``."""

    def _repr_details(self) -> str:
        return f", unit={_unit(self.base)!r}"

    def derivation(self) -> Derivation:
        log_tex, log_txt = _log_name(self.base)
        d = Derivation(f"Entropy {self.symbol} = {fmt(self)} {_unit(self.base)}")
        d.formula(rf"{self.symbol} = -\sum_g p_g {log_tex} p_g, \qquad p_g = \frac{{n_g}}{{n}}",
                  f"{self.symbol} = - sum_g p_g {log_txt}(p_g),  p_g = n_g / n")
        p = self.probabilities
        terms = -(p * _log(p, self.base)) + 0.0
        _capped_table(d, [f"group g of {self.of}", "n_g", "p_g", f"-p_g {log_txt}(p_g)"],
                      len(p), lambda g: [str(self.labels[g]), int(self.counts[g]),
                                         frac(self.counts[g], self.n), float(terms[g])])
        sum_text = _sum_text(self.symbol, terms, self)
        d.step(sum_text, sum_text)
        if len(p) == 1:
            d.note("A single group: a random instance's group is certain, so H = 0.")
        else:
            d.text(f"H ranges from 0 (one group) to {log_txt}({len(p)}) = "
                   f"{fmt(float(_log(len(p), self.base)))} ({len(p)} equal groups).")
        return d


def _entropy_result(sizes, labels, n: int, base: float, symbol: str = "H",
                    of: str = "the labels") -> Entropy:
    p, h = _entropy_from_sizes(sizes, n, base)
    return Entropy(h, probabilities=p, labels=labels, counts=sizes, n=n, base=base,
                   symbol=symbol, of=of)


def entropy(labels, base=2) -> Entropy:
    """Entropy of one partition: how uncertain the group of a random instance is.

    .. math::
        H = -\\sum_{g} p_g \\log p_g, \\qquad p_g = \\frac{n_g}{n}

    where ``n_g`` is the number of instances with label ``g``. Applied to the
    clusters it is the lecture's :math:`H(\\mathcal{C})`, to the classes
    :math:`H(\\mathcal{T})`.

    Parameters
    ----------
    labels : sequence of hashable labels, length N >= 1
    base : float, default 2
        Base of the logarithm: 2 gives bits, ``math.e`` nats (as
        scikit-learn), 10 hartleys. ``H_b = H_e / ln b``; any finite positive
        base other than 1 is accepted (a base below 1 flips the sign).

    Returns
    -------
    Entropy
        A float in ``[0, log_b(k)]`` with ``.probabilities`` (``p_g``),
        ``.labels`` (the distinct labels ``g``, aligned with ``p_g``),
        ``.counts`` (``n_g``), ``.n`` and ``.base``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.2;
    T. M. Cover and J. A. Thomas, *Elements of Information Theory*, ch. 2.

    Examples
    --------
    >>> from prayatul_edu import entropy
    >>> h = entropy(["a", "a", "b", "c"])
    >>> float(h), h.probabilities.tolist()
    (1.5, [0.5, 0.25, 0.25])
    >>> import math
    >>> round(float(entropy(["a", "a", "b", "c"], base=math.e)), 4)
    1.0397
    """
    base = _check_base(base)
    if dask_counts.is_dask(labels):                      # counted on the workers
        values, total = dask_counts.merged_cells(value_cells, labels=labels)
        return _entropy_result(total, values["labels"], int(total.sum()), base)
    lab = check_labels(labels, "labels", min_n=1)
    return _entropy_result(lab.sizes(), lab.values, lab.n, base)


# --------------------------------------------------------- cluster entropy
class ClusterEntropy(ScalarResult):
    """The tutorial's total entropy ``e``, with ``.per_cluster`` (``e_i``) and ``.table``."""

    def _repr_details(self) -> str:
        return f", unit={_unit(self.base)!r}"

    def derivation(self) -> Derivation:
        t = self.table
        log_tex, log_txt = _log_name(self.base)
        d = Derivation(f"Total entropy e = {fmt(self)} {_unit(self.base)}")
        d.formula(rf"e_i = -\sum_j \text{{precision}}(i,j)\,{log_tex}\,\text{{precision}}(i,j),"
                  r"\quad \text{precision}(i,j) = \frac{n_{ij}}{n_i}, \qquad "
                  r"e = \sum_i \frac{n_i}{n}\, e_i",
                  f"e_i = - sum_j precision(i,j) {log_txt} precision(i,j),  "
                  "precision(i,j) = n_ij / n_i ;  e = sum_i (n_i / n) e_i")

        def row(i):
            mine = t.cell_count[t.cell_cluster == i]          # the n_ij > 0 of cluster i
            shares = ", ".join(f"{c}/{t.cluster_sizes[i]}" for c in mine[:8])
            return [str(t.clusters[i]), int(t.cluster_sizes[i]),
                    shares + (", ..." if len(mine) > 8 else ""), float(self.per_cluster[i])]

        _capped_table(d, ["cluster C_i", "n_i", "precision(i, j) > 0", "e_i"],
                      t.shape[0], row)
        terms = [f"{fmt(n_i)}/{t.n}*{fmt(e_i)}"
                 for n_i, e_i in zip(t.cluster_sizes, self.per_cluster)]
        if len(terms) > 12:
            terms = terms[:6] + ["..."] + terms[-3:]
        d.step(f"e = {' + '.join(terms)} = {fmt(self)}".replace("*", r"\cdot "),
               f"e = {' + '.join(terms)} = {fmt(self)}")
        d.note("Cells with n_ij = 0 are left out of the sums (0 log 0 = 0). Low is good: "
               "e = 0 when every cluster holds a single class. e is the conditional "
               "entropy H(T | C) = H(T) - I(C, T).")
        return d


@scikit_learn_names()
def cluster_entropy(truth, pred, base=2) -> ClusterEntropy:
    """The tutorial's total entropy: how mixed the classes are inside the clusters.

    .. math::
        e_i = -\\sum_{j} \\text{precision}(i,j) \\log_2 \\text{precision}(i,j),
        \\qquad \\text{precision}(i,j) = \\frac{n_{ij}}{n_i},
        \\qquad e = \\sum_{i} \\frac{n_i}{n} e_i

    ``e`` is the conditional entropy :math:`H(\\mathcal{T} \\mid \\mathcal{C})
    = H(\\mathcal{T}) - I(\\mathcal{C}, \\mathcal{T})`; lower is better, 0 when
    every cluster is pure.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
        Ground-truth classes and predicted clusters.
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    base : float, default 2
        Base of the logarithm (the tutorial uses 2).

    Returns
    -------
    ClusterEntropy
        A float in ``[0, log_b(k)]`` with ``.per_cluster`` (``e_i``, aligned
        with ``.table.clusters``), ``.base`` and ``.table``.

    References
    ----------
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.7.

    Examples
    --------
    The tutorial's Exercise 2 (``e_2 = 1``):

    >>> from prayatul_edu import cluster_entropy
    >>> e = cluster_entropy(truth=[1, 3, 2, 1, 3, 3, 2, 2, 1, 2],
    ...                     pred=[1, 2, 3, 1, 2, 1, 2, 2, 3, 1])
    >>> round(float(e), 4), e.per_cluster.tolist()
    (1.2, [1.5, 1.0, 1.0])
    """
    base = _check_base(base)
    table = contingency_table(truth, pred)
    n_i = table.cluster_sizes
    precision = table.cell_count / n_i[table.cell_cluster]      # precision(i, j) > 0
    terms = -precision * _log(precision, base)                  # -prec log prec, per cell
    per_cluster = np.bincount(table.cell_cluster, weights=terms,
                              minlength=n_i.shape[0]) + 0.0     # e_i
    value = float(((n_i / table.n) * per_cluster).sum())        # sum_i (n_i / n) e_i
    return ClusterEntropy(value, per_cluster=per_cluster, base=base, table=table)


# ------------------------------------------------------ mutual information
class MutualInformation(ScalarResult):
    """I(C, T), with ``.joint`` (p_ij), ``.p_clusters``, ``.p_classes``, ``.base``, ``.table``."""

    def _repr_details(self) -> str:
        return f", unit={_unit(self.base)!r}"

    @property
    def joint(self) -> np.ndarray:
        """The matrix ``p_ij = n_ij / n`` (rows clusters, columns classes); built on demand."""
        return self.table.counts / self.table.n

    @functools.cached_property
    def terms(self) -> np.ndarray:
        """The terms ``p_ij log(p_ij / (p_i p_j))``, one per non-empty cell of ``.table``
        (in the order of its cells); computed when first read."""
        return _mi_terms(self.table, self.base)

    def derivation(self) -> Derivation:
        t = self.table
        log_tex, log_txt = _log_name(self.base)
        d = Derivation(f"Mutual information I(C, T) = {fmt(self)} {_unit(self.base)}")
        d.formula(rf"I(\mathcal{{C}}, \mathcal{{T}}) = \sum_{{i}}\sum_{{j}} p_{{ij}}\,"
                  rf"{log_tex} \frac{{p_{{ij}}}}{{p_i\, p_j}}, \qquad "
                  r"p_{ij} = \frac{n_{ij}}{n},"
                  r"\ p_i = \frac{n_i}{n},\ p_j = \frac{m_j}{n}",
                  f"I(C, T) = sum_i sum_j p_ij {log_txt}(p_ij / (p_i p_j)),  "
                  "p_ij = n_ij/n, p_i = n_i/n, p_j = m_j/n")

        def row(c):
            i, j = t.cell_cluster[c], t.cell_class[c]
            return [str(t.clusters[i]), str(t.classes[j]), int(t.cell_count[c]),
                    frac(t.cell_count[c], t.n), frac(t.cluster_sizes[i], t.n),
                    frac(t.class_sizes[j], t.n), float(self.terms[c])]

        _capped_table(d, ["cluster C_i", "class T_j", "n_ij", "p_ij", "p_i", "p_j",
                          f"p_ij {log_txt}(p_ij/(p_i p_j))"], t.cell_count.shape[0], row,
                      caption="One row per non-empty cell $n_{ij} > 0$:")
        sum_text = _sum_text("I", self.terms, self)
        d.step(sum_text, sum_text)
        d.note(_MI_TYPO_NOTE)
        d.text("I = 0 when clusters and classes are independent (p_ij = p_i p_j); "
               "I = H(C) = H(T) when they are the same partition.")
        return d


@scikit_learn_names()
def mutual_information(truth, pred, base=2) -> MutualInformation:
    """Mutual information of the clusters ``C`` and the classes ``T``.

    .. math::
        I(\\mathcal{C}, \\mathcal{T}) = \\sum_{i=1}^{r}\\sum_{j=1}^{k} p_{ij}
        \\log \\frac{p_{ij}}{p_i\\, p_j}, \\qquad
        p_{ij} = \\frac{n_{ij}}{n},\\ p_i = \\frac{n_i}{n},\\ p_j = \\frac{m_j}{n}

    It compares the observed joint probability ``p_ij`` with ``p_i p_j``, the
    joint probability if cluster and class were independent. (The lecture
    notes lost the factor ``p_ij`` in front of the logarithm; this is the
    correct formula.) Empty cells contribute 0; tiny negative rounding
    residues are clipped to 0.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    base : float, default 2
        Base of the logarithm: bits, as the lecture, the tutorial and
        :func:`entropy` (the module's one base); ``math.e`` gives nats, the unit
        of scikit-learn's ``mutual_info_score``.

    Returns
    -------
    MutualInformation
        A float in ``[0, min(H(C), H(T))]`` with ``.joint`` (the r x k matrix
        ``p_ij``), ``.p_clusters`` (``p_i``), ``.p_classes`` (``p_j``),
        ``.terms`` (one per non-empty cell of ``.table``), ``.base``, ``.table``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.2;
    T. M. Cover and J. A. Thomas, *Elements of Information Theory*, sec. 2.3.

    Examples
    --------
    >>> from prayatul_edu import mutual_information
    >>> mi = mutual_information(truth=[0, 0, 1, 1], pred=[0, 0, 0, 1])
    >>> round(float(mi), 6)      # 3/2 - (3/4) log2(3) bits
    0.311278
    >>> import math
    >>> round(float(mutual_information([0, 0, 1, 1], [0, 0, 0, 1], base=math.e)), 6)   # nats
    0.215762
    >>> mi.joint.tolist()
    [[0.5, 0.25], [0.0, 0.25]]
    """
    base = _check_base(base)
    table = contingency_table(truth, pred)
    value = _mutual_information(table, base)
    return MutualInformation(value, p_clusters=table.cluster_sizes / table.n,
                             p_classes=table.class_sizes / table.n, base=base, table=table)


def _entropies_and_mi(table: ContingencyTable, base: float = 2.0):
    """H(C), H(T) and I(C, T) as results: the ingredients of NMI, AMI and V.

    In bits, the course's one base (AMI and V do not depend on it).
    """
    h_c = _entropy_result(table.cluster_sizes, table.clusters, table.n, base,
                          symbol="H(C)", of="the clusters")
    h_t = _entropy_result(table.class_sizes, table.classes, table.n, base,
                          symbol="H(T)", of="the classes")
    value = _mutual_information(table, base)
    mi = MutualInformation(value, p_clusters=h_c.probabilities,
                           p_classes=h_t.probabilities, base=base, table=table)
    return h_c, h_t, mi


# ------------------------------------------------------------------- NMI
_NORMALIZERS = {
    "geometric": (r"\sqrt{H(\mathcal{C})\,H(\mathcal{T})}", "sqrt(H(C) H(T))"),
    "arithmetic": (r"\tfrac{1}{2}\left(H(\mathcal{C}) + H(\mathcal{T})\right)",
                   "(H(C) + H(T)) / 2"),
    "min": (r"\min\left(H(\mathcal{C}), H(\mathcal{T})\right)", "min(H(C), H(T))"),
    "max": (r"\max\left(H(\mathcal{C}), H(\mathcal{T})\right)", "max(H(C), H(T))"),
}


def _normalizer(h_c: float, h_t: float, average: str) -> float:
    if average == "geometric":
        return math.sqrt(h_c * h_t)
    if average == "arithmetic":
        return (h_c + h_t) / 2
    if average == "min":
        return min(h_c, h_t)
    return max(h_c, h_t)


class NormalizedMutualInformation(ScalarResult):
    """NMI, with ``.mi``, ``.h_clusters`` (H(C)), ``.h_classes`` (H(T)), ``.average``."""

    def _repr_details(self) -> str:
        return f", average={self.average!r}"

    def derivation(self) -> Derivation:
        tex, txt = _NORMALIZERS[self.average]
        d = Derivation(f"NMI ({self.average}) = {fmt(self)}")
        d.formula(rf"\text{{NMI}} = \frac{{I(\mathcal{{C}}, \mathcal{{T}})}}{{{tex}}}",
                  f"NMI = I(C, T) / {txt}")
        h_c, h_t, mi = self.h_clusters, self.h_classes, self.mi
        unit = _unit(mi.base)
        d.step(rf"H(\mathcal{{C}}) = {fmt(h_c)},\quad H(\mathcal{{T}}) = {fmt(h_t)},\quad "
               rf"I(\mathcal{{C}}, \mathcal{{T}}) = {fmt(mi)}\ \text{{({unit})}}",
               f"H(C) = {fmt(h_c)}, H(T) = {fmt(h_t)}, I(C, T) = {fmt(mi)} ({unit})")
        if self.case == "single":
            d.note("Both partitions are a single group: H(C) = H(T) = I = 0 and the "
                   "quotient is 0/0. Two identical (trivial) partitions agree perfectly, "
                   "so NMI = 1 by convention (as scikit-learn).")
        elif self.case == "independent":
            d.note("I(C, T) = 0: knowing the cluster tells nothing about the class, so "
                   "NMI = 0 whatever the normalizer (also when one partition is a "
                   "single group, where the quotient would be 0/0; as scikit-learn).")
        else:
            d.step(rf"\text{{NMI}} = \frac{{{fmt(mi)}}}{{{fmt(self.normalizer)}}} = {fmt(self)}",
                   f"NMI = {fmt(mi)} / {fmt(self.normalizer)} = {fmt(self)}")
        if self.average == "geometric":
            d.text("The lecture's NMI: the geometric mean of I/H(C) and I/H(T).")
        d.text(f"NMI does not depend on the base of the logarithm (it cancels); "
               f"the entropies above are in {unit}.")
        d.text("H(C), H(T) and I(C, T) are the entropy of the clusters, the entropy of "
               "the classes and their mutual information, each derived step by step on "
               "its own (the same numbers).")
        return d


@scikit_learn_names(average_method="average")
def normalized_mutual_information(truth, pred,
                                  average: str = "geometric") -> NormalizedMutualInformation:
    """Normalized mutual information: ``I(C, T)`` rescaled to [0, 1].

    .. math::
        \\text{NMI} = \\frac{I(\\mathcal{C}, \\mathcal{T})}
                           {\\sqrt{H(\\mathcal{C})\\, H(\\mathcal{T})}}
        = \\sqrt{\\frac{I(\\mathcal{C}, \\mathcal{T})}{H(\\mathcal{C})}
                 \\cdot \\frac{I(\\mathcal{C}, \\mathcal{T})}{H(\\mathcal{T})}}

    (the lecture's, ``average="geometric"``); ``"arithmetic"``, ``"min"`` and
    ``"max"`` divide by the arithmetic mean, the smaller or the larger of the
    two entropies. Conventions, as scikit-learn's
    ``normalized_mutual_info_score``: two single-group partitions give 1 (the
    quotient would be 0/0); otherwise ``I = 0`` gives 0. Rounding can push
    the quotient a hair above 1 for identical partitions; it is clipped to 1.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    average : {"geometric", "arithmetic", "min", "max"}, default "geometric"
        The mean of H(C) and H(T) that divides I. The default is the lecture's;
        scikit-learn's ``normalized_mutual_info_score`` defaults to
        ``"arithmetic"`` (since 0.22), so pass ``average="arithmetic"`` to get its
        number. Every displayed NMI names its mean.
    average_method : alias of ``average``
        scikit-learn's name, accepted as a keyword.

    Returns
    -------
    NormalizedMutualInformation
        A float in [0, 1] with ``.mi`` (a :class:`MutualInformation`, bits),
        ``.h_clusters`` (H(C)), ``.h_classes`` (H(T)), ``.normalizer``,
        ``.average`` and ``.table``.

    References
    ----------
    A. Strehl and J. Ghosh, "Cluster ensembles", JMLR 3, 2002 (the geometric NMI);
    N. X. Vinh, J. Epps and J. Bailey, "Information theoretic measures for
    clusterings comparison", JMLR 11, 2010 (the other normalizers);
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.2.

    Examples
    --------
    >>> from prayatul_edu import normalized_mutual_information as nmi
    >>> round(float(nmi([0, 0, 1, 1], [0, 0, 0, 1])), 6)
    0.345592
    >>> round(float(nmi([0, 0, 1, 1], [0, 0, 0, 1], average="max")), 6)
    0.311278
    >>> float(nmi([0, 0, 0], [5, 5, 5])), float(nmi([0, 0, 1, 1], [0, 1, 0, 1]))
    (1.0, 0.0)
    """
    check_choice(average, "average", _AVERAGES)
    table = contingency_table(truth, pred)
    h_c, h_t, mi = _entropies_and_mi(table, 2.0)
    mi_value = float(mi)
    r, k = table.shape
    normalizer = _normalizer(float(h_c), float(h_t), average)
    if r == 1 and k == 1:
        value, case = 1.0, "single"          # 0/0: identical trivial partitions
    elif mi_value == 0.0:
        value, case = 0.0, "independent"     # nothing shared, whatever the normalizer
    else:
        value, case = min(mi_value / normalizer, 1.0), "ratio"
    return NormalizedMutualInformation(value, mi=mi, h_clusters=h_c, h_classes=h_t,
                                       normalizer=normalizer, average=average, case=case,
                                       table=table)


# ------------------------------------------ adjusted mutual information (AMI)
def _emi_terms(cluster_sizes, class_sizes, n: int):
    """The teaching version of E[I]: one term per cluster i, class j and possible n_ij.

    Returns rows ``(i, j, n_ij, probability, contribution)`` in bits.
    """
    rows = []
    for i, a in enumerate(int(x) for x in cluster_sizes):
        for j, b in enumerate(int(x) for x in class_sizes):
            for n_ij in range(max(1, a + b - n), min(a, b) + 1):
                prob = math.comb(b, n_ij) * math.comb(n - b, a - n_ij) / math.comb(n, a)
                share = n_ij / n * math.log2(n * n_ij / (a * b))
                rows.append((i, j, n_ij, prob, prob * share))
    return rows


#: E[I] leaves out the n_ij whose log-probability is below this: their probability is
#: 0.0 in double precision (exp underflows to 0 below about -745.13), so the sum is the
#: same; the margin covers the rounding of the log-factorials.
EMI_LOG_P_CUT = -750.0
#: Terms of E[I] summed at once (bounds its memory, whatever n is).
EMI_BATCH = 1 << 20
#: Up to this n, E[I] looks its log-factorials up in a table of n + 1 (at most 32 MB).
EMI_TABLE_MAX_N = 1 << 22


def _log_factorials(n: int):
    """``ln x! = lgamma(x + 1)`` for integers ``0 <= x <= n`` (arrays of them): looked up
    in a table made once when n is at most :data:`EMI_TABLE_MAX_N`, else computed for
    the arguments given (the same numbers either way)."""
    from scipy.special import gammaln

    if n <= EMI_TABLE_MAX_N:
        table = gammaln(np.arange(n + 1, dtype=float) + 1)
        return lambda x: table[x]
    return lambda x: gammaln(np.asarray(x, dtype=float) + 1)


def _log_p(a: int, b: np.ndarray, k: np.ndarray, n: int, log_fact,
           margins: np.ndarray | None = None) -> np.ndarray:
    """ln P(n_ij = k) for a cluster of ``a`` and classes of ``b`` instances among ``n``:
    ln[a! b! (n-a)! (n-b)! / (n! k! (a-k)! (b-k)! (n-a-b+k)!)] (hypergeometric).
    ``margins``: the part that does not depend on k, ln[a! b! (n-a)! (n-b)! / n!],
    if already known."""
    if margins is None:
        margins = log_fact(a) + log_fact(b) + log_fact(n - a) + log_fact(n - b) - log_fact(n)
    return margins - log_fact(k) - log_fact(a - k) - log_fact(b - k) - log_fact(n - a - b + k)


def _emi_windows(a: int, b: np.ndarray, n: int, log_fact) -> tuple[np.ndarray, np.ndarray]:
    """For a cluster of ``a`` and classes of sizes ``b``: the smallest and largest n_ij
    whose probability is not below ``exp(EMI_LOG_P_CUT)``, or a little wider.

    The hypergeometric distribution is log-concave, so its probabilities fall on
    both sides of the mode: a window around the mode whose outside neighbours are
    below the cut holds every term above it. The window starts at 40 standard
    deviations each side (a normal density is e^-800 there) and doubles where a
    neighbour is still above the cut.
    """
    lo = np.maximum(1, a + b - n)                        # smallest possible n_ij
    hi = np.minimum(a, b)                                # largest possible n_ij
    mode = np.clip(np.floor((a + 1.0) * (b + 1.0) / (n + 2.0)).astype(np.int64), lo, hi)
    sd = np.sqrt(float(a) * b * (n - a) * (n - b.astype(float)) / (float(n) ** 2 * (n - 1)))
    width = np.ceil(40 * sd).astype(np.int64) + 8
    while True:
        first, last = np.maximum(lo, mode - width), np.minimum(hi, mode + width)
        below = np.maximum(first - 1, lo)                # (only read where first > lo)
        above = np.minimum(last + 1, hi)
        wider = (((first > lo) & (_log_p(a, b, below, n, log_fact) >= EMI_LOG_P_CUT))
                 | ((last < hi) & (_log_p(a, b, above, n, log_fact) >= EMI_LOG_P_CUT)))
        if not wider.any():
            return first, last
        width = np.where(wider, 2 * width, width)


def _expected_mutual_information(cluster_sizes, class_sizes, n: int) -> float:
    """E[I] in nats, in floating point, fast.

    Clusters of equal size contribute equally, so the sum runs over the
    *distinct* sizes (weighted by how often they occur), vectorised over the
    class sizes and the possible cell counts ``max(1, a + b - n) <= n_ij <=
    min(a, b)``. Of those, only the n_ij around the most likely one are summed:
    the others have a probability below ``exp(-750)``, which is 0.0 as a
    double (:func:`_emi_windows`). With large clusters that is a small part of
    the range (about 80 standard deviations, ``sqrt(a b / n)`` each, out of
    ``min(a, b)``): at n = 10**7 in 10 clusters, 0.3%. The log-factorials
    ``ln k! = lgamma(k + 1)`` come from a table for n up to 4 million
    (:func:`_log_factorials`), else are computed for the terms summed; the terms
    are summed in batches of at most :data:`EMI_BATCH`, so memory does not grow
    with n beyond that table.
    """
    if n < 2:                                            # one instance: I = 0 always
        return 0.0
    log_fact = _log_factorials(n)
    a_values, a_mult = np.unique(np.asarray(cluster_sizes, dtype=np.int64), return_counts=True)
    b_values, b_mult = np.unique(np.asarray(class_sizes, dtype=np.int64), return_counts=True)
    total = 0.0
    for a, mult in zip(a_values.tolist(), a_mult.tolist()):
        first, last = _emi_windows(a, b_values, n, log_fact)
        length = np.maximum(last - first + 1, 0)
        ends = np.cumsum(length)
        start = 0
        while start < b_values.shape[0]:                 # classes of at most EMI_BATCH terms
            before = ends[start] - length[start]
            stop = max(start + 1, int(np.searchsorted(ends, before + EMI_BATCH, "right")))
            part = slice(start, stop)
            total += mult * _emi_batch(a, b_values[part], b_mult[part], first[part],
                                       length[part], n, log_fact)
            start = stop
    return total


def _emi_batch(a: int, b_values, b_mult, first, length, n: int, log_fact) -> float:
    """sum_j m_j sum_{n_ij} P(n_ij) (n_ij/n) ln(n n_ij/(a b_j)) over the classes given
    (``b_mult`` of each size) and the ``length`` n_ij from ``first`` each."""
    which = np.repeat(np.arange(b_values.shape[0]), length)   # class size of each term
    offset = np.repeat(np.cumsum(length) - length, length)
    k = first[which] + np.arange(which.shape[0]) - offset    # n_ij of each term
    b = b_values[which]
    margins = (log_fact(a) + log_fact(b_values) + log_fact(n - a)       # once a class
               + log_fact(n - b_values) - log_fact(n))
    log_p = _log_p(a, b, k, n, log_fact, margins[which])
    kf = k.astype(float)
    log_ab = np.log(float(a) * b_values)
    share = kf / n * (np.log(n * kf) - log_ab[which])        # (n_ij/n) ln(n n_ij/(a b))
    terms = np.exp(log_p) * share
    terms *= b_mult[which]                                   # classes of this size
    return float(terms.sum())            # (not a BLAS dot: its threads cost more here)


class AdjustedMutualInformation(ScalarResult):
    """AMI, with ``.mi``, ``.emi`` (E[I]), ``.h_clusters``, ``.h_classes``, ``.average``."""

    def _repr_details(self) -> str:
        return f", average={self.average!r}"

    def emi_terms(self) -> list[tuple]:
        """E[I] term by term: ``(i, j, n_ij, P(n_ij), contribution)`` for every cluster
        ``i``, class ``j`` and possible count ``n_ij`` (bits). Small tables only: the
        number of rows grows with the product of the margins."""
        t = self.table
        return _emi_terms(t.cluster_sizes, t.class_sizes, t.n)

    def derivation(self) -> Derivation:
        tex, txt = _NORMALIZERS[self.average]
        t = self.table
        d = Derivation(f"AMI ({self.average}) = {fmt(self)}")
        d.formula(rf"\text{{AMI}} = \frac{{I(\mathcal{{C}}, \mathcal{{T}}) - E[I]}}"
                  rf"{{{tex} - E[I]}}", f"AMI = (I(C, T) - E[I]) / ({txt} - E[I])")
        d.formula(r"E[I] = \sum_i \sum_j \sum_{n_{ij}} \frac{n_{ij}}{n}"
                  r"\log_2\frac{n\,n_{ij}}{n_i m_j}\cdot"
                  r"\frac{\binom{m_j}{n_{ij}}\binom{n - m_j}{n_i - n_{ij}}}{\binom{n}{n_i}}",
                  "E[I] = sum_i sum_j sum_{n_ij = max(1, n_i + m_j - n)}^{min(n_i, m_j)} "
                  "(n_ij/n) log2(n n_ij / (n_i m_j)) "
                  "* C(m_j, n_ij) C(n - m_j, n_i - n_ij) / C(n, n_i)")
        d.text("E[I] is the mutual information expected when the instances are shuffled "
               "at random while every cluster and class keeps its size (the "
               "hypergeometric model): the agreement that chance alone would give.")
        if t.n <= 30 and t.shape[0] * t.shape[1] <= 16:
            rows = self.emi_terms()
            d.table(["cluster C_i", "class T_j", "n_ij", "P(n_ij)",
                     "(n_ij/n) log2(n n_ij/(n_i m_j)) P"],
                    [[str(t.clusters[i]), str(t.classes[j]), k, p, c]
                     for i, j, k, p, c in rows],
                    caption="Every possible cell count with its probability:")
        else:
            d.text("The table is too large to list every possible cell count.")
        mi, emi = float(self.mi), self.emi
        d.step(rf"H(\mathcal{{C}}) = {fmt(self.h_clusters)},\ H(\mathcal{{T}}) = "
               rf"{fmt(self.h_classes)},\ I = {fmt(mi)},\ E[I] = {fmt(emi)}\ \text{{(bits)}}",
               f"H(C) = {fmt(self.h_clusters)}, H(T) = {fmt(self.h_classes)}, "
               f"I = {fmt(mi)}, E[I] = {fmt(emi)} (bits)")
        if self.case == "single":
            d.note("Both partitions are a single group: nothing is split, the quotient "
                   "is 0/0, and two identical partitions give AMI = 1 (as scikit-learn).")
        elif self.case == "undefined":
            d.note("One partition is a single group or all singletons, so every shuffle "
                   "gives the same I: E[I] = I, and here the normalizer equals I as well. "
                   "AMI is 0/0; it is reported as 1, the value of NMI here. (scikit-learn "
                   "divides two rounding residues here: it may return 1, 2/3 or another "
                   "number by chance.)")
        elif self.case == "fixed":
            d.note("One partition is a single group or all singletons, so every shuffle "
                   "gives the same I: E[I] = I exactly and AMI = 0 (scikit-learn computes "
                   "E[I] by summation and may return a rounding residue instead of 0).")
        else:
            d.step(rf"\text{{AMI}} = \frac{{{fmt(mi)} - {fmt(emi)}}}"
                   rf"{{{fmt(self.normalizer)} - {fmt(emi)}}} = {fmt(self)}",
                   f"AMI = ({fmt(mi)} - {fmt(emi)}) / ({fmt(self.normalizer)} - {fmt(emi)}) "
                   f"= {fmt(self)}")
        d.text("AMI is 1 for identical partitions and about 0 (it can be negative) for "
               "independent ones, whatever the numbers of groups; NMI is not adjusted "
               "and grows with the number of clusters. The base of the logarithm cancels.")
        return d


@scikit_learn_names(average_method="average")
def adjusted_mutual_information(truth, pred,
                                average: str = "arithmetic") -> AdjustedMutualInformation:
    """Adjusted mutual information: NMI corrected for chance.

    .. math::
        \\text{AMI} = \\frac{I(\\mathcal{C}, \\mathcal{T}) - E[I]}
                           {\\text{mean}(H(\\mathcal{C}), H(\\mathcal{T})) - E[I]}

    with the expected mutual information under the hypergeometric model
    (margins ``n_i``, ``m_j`` fixed)

    .. math::
        E[I] = \\sum_{i}\\sum_{j}\\sum_{n_{ij}=\\max(1, n_i + m_j - n)}^{\\min(n_i, m_j)}
        \\frac{n_{ij}}{n} \\log_2\\frac{n\\, n_{ij}}{n_i m_j}
        \\frac{\\binom{m_j}{n_{ij}} \\binom{n - m_j}{n_i - n_{ij}}}{\\binom{n}{n_i}}.

    ``average`` is the mean of the two entropies (``"arithmetic"``, the
    default as in scikit-learn, ``"geometric"``, ``"min"`` or ``"max"``). E[I]
    is computed in floating point, as scikit-learn does: each probability
    comes from log-factorials (``ln k! = lgamma(k + 1)``) in double
    precision, so E[I] carries a relative error of about 1e-12 (measured
    against exact fractions: 5e-13 to 6e-12 for 10 to 1000 clusters of up to
    20,000 instances), which grows with the size of the factorials; AMI's
    printed digits do not see it. It is summed once per pair of
    distinct cluster and class sizes and only over the cell counts whose
    probability is not 0.0 as a double (about 80 standard deviations around
    the most likely count), so large N costs little time and memory. Conventions as scikit-learn's
    ``adjusted_mutual_info_score``: two single-group partitions give 1; a
    denominator that rounds to 0 is replaced by the machine epsilon (with its
    sign). When one partition is a
    single group or all singletons, every shuffle gives the same ``I``, so
    ``E[I] = I`` exactly and AMI is 0; with all singletons and the normalizer
    equal to ``I`` too (``average="min"``, or both all singletons) it is 0/0,
    reported as 1 (scikit-learn divides two rounding residues there and
    returns 1, 2/3, ... by chance).

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    average : {"arithmetic", "geometric", "min", "max"}, default "arithmetic"
    average_method : alias of ``average``
        scikit-learn's name, accepted as a keyword.

    Returns
    -------
    AdjustedMutualInformation
        A float at most 1 with ``.mi`` and ``.emi`` (E[I]), both in bits,
        ``.h_clusters``, ``.h_classes``, ``.normalizer``, ``.average`` and ``.table``.

    References
    ----------
    N. X. Vinh, J. Epps and J. Bailey, "Information theoretic measures for
    clusterings comparison: variants, properties, normalization and correction
    for chance", JMLR 11, 2010.

    Examples
    --------
    >>> from prayatul_edu import adjusted_mutual_information as ami
    >>> round(float(ami([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])), 6)
    0.298792
    >>> float(ami([0, 0, 1, 1], [5, 5, 7, 7]))
    1.0
    """
    check_choice(average, "average", _AVERAGES)
    table = contingency_table(truth, pred)
    h_c, h_t, mi = _entropies_and_mi(table)
    mi_value = float(mi)
    normalizer = _normalizer(float(h_c), float(h_t), average)
    r, k = table.shape
    parts = dict(mi=mi, h_clusters=h_c, h_classes=h_t, normalizer=normalizer,
                 average=average, table=table)
    if r == k == 1:                          # nothing is split: identical, AMI = 1
        return AdjustedMutualInformation(1.0, emi=mi_value, case="single", **parts)
    if r in (1, table.n) or k in (1, table.n):
        # One partition is a single group or all singletons: every shuffle gives the
        # same I, so E[I] = I exactly and the numerator is 0. With all singletons
        # the denominator mean(H) - I = mean(H) - min(H) is 0 too for "min" or r = k.
        # (A single group gives I = 0: AMI = 0, as scikit-learn, even if 0/0.)
        if 1 not in (r, k) and (average == "min" or r == k):
            return AdjustedMutualInformation(1.0, emi=mi_value, case="undefined", **parts)
        return AdjustedMutualInformation(0.0, emi=mi_value, case="fixed", **parts)
    emi = _expected_mutual_information(table.cluster_sizes, table.class_sizes,
                                       table.n) / math.log(2)                  # bits
    eps = float(np.finfo(float).eps)
    denominator = normalizer - emi
    denominator = min(denominator, -eps) if denominator < 0 else max(denominator, eps)
    return AdjustedMutualInformation((mi_value - emi) / denominator, emi=emi, case="ratio",
                                     **parts)


# ------------------------------------- homogeneity, completeness, V-measure
class VMeasure(ScalarResult):
    """V-measure, with ``.homogeneity``, ``.completeness``, ``.beta``, ``.mi`` and entropies."""

    def derivation(self) -> Derivation:
        h, c, beta = self.homogeneity, self.completeness, self.beta
        d = Derivation(f"V-measure (beta = {fmt(beta)}) = {fmt(self)}")
        d.formula(r"h = 1 - \frac{H(\mathcal{T}\mid\mathcal{C})}{H(\mathcal{T})}"
                  r" = \frac{I(\mathcal{C}, \mathcal{T})}{H(\mathcal{T})},\quad "
                  r"c = 1 - \frac{H(\mathcal{C}\mid\mathcal{T})}{H(\mathcal{C})}"
                  r" = \frac{I(\mathcal{C}, \mathcal{T})}{H(\mathcal{C})},\quad "
                  r"V_\beta = \frac{(1 + \beta)\,h\,c}{\beta\,h + c}",
                  "h = 1 - H(T|C)/H(T) = I/H(T) ; c = 1 - H(C|T)/H(C) = I/H(C) ; "
                  "V = (1 + beta) h c / (beta h + c)")
        mi, h_c, h_t = float(self.mi), float(self.h_clusters), float(self.h_classes)
        d.step(rf"H(\mathcal{{C}}) = {fmt(h_c)},\ H(\mathcal{{T}}) = {fmt(h_t)},\ "
               rf"I = {fmt(mi)}\ \text{{(bits)}}",
               f"H(C) = {fmt(h_c)}, H(T) = {fmt(h_t)}, I = {fmt(mi)} (bits)")
        d.step(rf"h = {fmt(h)},\quad c = {fmt(c)}", f"h = {fmt(h)}, c = {fmt(c)}")
        if h_t == 0:
            d.note("A single class: every cluster is trivially homogeneous, h = 1.")
        if h_c == 0:
            d.note("A single cluster: every class is trivially complete, c = 1.")
        if h + c == 0:
            d.note("h = c = 0: V is 0 (the quotient would be 0/0).")
        else:
            d.step(rf"V = \frac{{(1 + {fmt(beta)})\cdot {fmt(h)}\cdot {fmt(c)}}}"
                   rf"{{{fmt(beta)}\cdot {fmt(h)} + {fmt(c)}}} = {fmt(self)}",
                   f"V = (1 + {fmt(beta)}) * {fmt(h)} * {fmt(c)} / ({fmt(beta)} * {fmt(h)} "
                   f"+ {fmt(c)}) = {fmt(self)}")
        d.text("Homogeneity: each cluster holds one class. Completeness: each class sits "
               "in one cluster. beta > 1 weighs completeness more, beta < 1 homogeneity; "
               "with beta = 1, V equals NMI with the arithmetic mean.")
        return d


@scikit_learn_names()
def v_measure(truth, pred, beta: float = 1.0) -> VMeasure:
    """Homogeneity, completeness and their weighted harmonic mean, the V-measure.

    .. math::
        h = 1 - \\frac{H(\\mathcal{T} \\mid \\mathcal{C})}{H(\\mathcal{T})}, \\quad
        c = 1 - \\frac{H(\\mathcal{C} \\mid \\mathcal{T})}{H(\\mathcal{C})}, \\quad
        V_\\beta = \\frac{(1 + \\beta)\\, h\\, c}{\\beta\\, h + c}

    ``h = 1`` when ``H(T) = 0`` and ``c = 1`` when ``H(C) = 0``; ``V = 0``
    when ``h = c = 0`` (as scikit-learn's ``homogeneity_completeness_v_measure``).
    The base of the logarithm cancels.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    beta : float, default 1.0
        Weight of completeness relative to homogeneity (non-negative).

    Returns
    -------
    VMeasure
        A float in [0, 1] with ``.homogeneity``, ``.completeness``, ``.beta``,
        ``.mi``, ``.h_clusters``, ``.h_classes`` and ``.table``.

    References
    ----------
    A. Rosenberg and J. Hirschberg, "V-Measure: a conditional entropy-based
    external cluster evaluation measure", EMNLP-CoNLL 2007.

    Examples
    --------
    >>> from prayatul_edu import v_measure
    >>> v = v_measure([0, 0, 1, 1], [0, 0, 1, 2])
    >>> float(v.homogeneity), round(float(v.completeness), 6), round(float(v), 6)
    (1.0, 0.666667, 0.8)
    """
    b = check_real(beta, "beta")
    if b < 0:
        raise ValueError(f"beta: must be non-negative, got {beta!r}")
    table = contingency_table(truth, pred)
    h_c, h_t, mi_result = _entropies_and_mi(table)
    mi = float(mi_result)
    homogeneity = mi / float(h_t) if float(h_t) else 1.0       # 1 - H(T|C) / H(T)
    completeness = mi / float(h_c) if float(h_c) else 1.0      # 1 - H(C|T) / H(C)
    if homogeneity + completeness == 0:
        value = 0.0
    else:
        value = (1 + b) * homogeneity * completeness / (b * homogeneity + completeness)
    return VMeasure(value, homogeneity=homogeneity, completeness=completeness, beta=b,
                    mi=mi, h_clusters=h_c, h_classes=h_t, table=table)


@scikit_learn_names()
def homogeneity(truth, pred) -> float:
    """Homogeneity ``h = 1 - H(T | C) / H(T)``: each cluster holds a single class.

    The ``.homogeneity`` of :func:`v_measure` (see there for the conventions). ``labels_true``
    and ``labels_pred`` are accepted as aliases of ``truth`` and ``pred`` (scikit-learn's
    names).

    Examples
    --------
    >>> from prayatul_edu import homogeneity
    >>> homogeneity([0, 0, 1, 1], [0, 0, 1, 2])
    1.0
    """
    return v_measure(truth, pred).homogeneity


@scikit_learn_names()
def completeness(truth, pred) -> float:
    """Completeness ``c = 1 - H(C | T) / H(C)``: each class sits in a single cluster.

    The ``.completeness`` of :func:`v_measure` (see there for the conventions). ``labels_true``
    and ``labels_pred`` are accepted as aliases of ``truth`` and ``pred`` (scikit-learn's
    names).

    Examples
    --------
    >>> from prayatul_edu import completeness
    >>> round(completeness([0, 0, 1, 1], [0, 0, 1, 2]), 6)
    0.666667
    """
    return v_measure(truth, pred).completeness


# ------------------------------------------------- variation of information
_VI_NORMALIZE = (None, "joint", "log_n")


def _variation_of_information(table: ContingencyTable, base: float) -> float:
    """H(C|T) + H(T|C) = sum_ij p_ij log(p_i p_j / p_ij^2), cell by cell.

    Summed this way, identical partitions give exactly 0 (every log is log 1),
    where H(C) + H(T) - 2 I would leave a rounding residue.
    """
    n_ij = table.cell_count.astype(float)
    n_i = table.cluster_sizes[table.cell_cluster].astype(float)
    m_j = table.class_sizes[table.cell_class].astype(float)
    vi = float((n_ij / table.n * _log((n_i * m_j) / (n_ij * n_ij), base)).sum())
    return 0.0 if vi * (base - 1.0) < 0 else vi + 0.0


class VariationOfInformation(ScalarResult):
    """VI, with ``.h_clusters``, ``.h_classes``, ``.mi``, ``.base``, ``.normalize``."""

    def _repr_details(self) -> str:
        return f", normalize={self.normalize!r}" if self.normalize else \
            f", unit={_unit(self.base)!r}"

    def derivation(self) -> Derivation:
        _, log_txt = _log_name(self.base)
        unit = _unit(self.base)
        d = Derivation(f"Variation of information = {fmt(self)}"
                       + ("" if self.normalize else f" {unit}"))
        d.formula(r"VI = H(\mathcal{C}) + H(\mathcal{T}) - 2\,I(\mathcal{C}, \mathcal{T})"
                  r" = H(\mathcal{C}\mid\mathcal{T}) + H(\mathcal{T}\mid\mathcal{C})",
                  "VI = H(C) + H(T) - 2 I(C, T) = H(C|T) + H(T|C)")
        h_c, h_t, mi = float(self.h_clusters), float(self.h_classes), float(self.mi)
        d.step(rf"VI = {fmt(h_c)} + {fmt(h_t)} - 2\cdot {fmt(mi)} = {fmt(self.vi)}",
               f"VI = {fmt(h_c)} + {fmt(h_t)} - 2 * {fmt(mi)} = {fmt(self.vi)} ({unit})")
        if self.normalize == "joint":
            d.formula(r"NVI = \frac{VI}{H(\mathcal{C}, \mathcal{T})},\quad "
                      r"H(\mathcal{C}, \mathcal{T}) = H(\mathcal{C}) + H(\mathcal{T}) - I",
                      "NVI = VI / H(C, T),  H(C, T) = H(C) + H(T) - I")
            if self.divisor == 0:
                d.note("Both partitions are a single group: H(C, T) = 0 and VI = 0; "
                       "NVI = 0 (identical partitions).")
            else:
                d.step(rf"NVI = \frac{{{fmt(self.vi)}}}{{{fmt(self.divisor)}}} = {fmt(self)}",
                       f"NVI = {fmt(self.vi)} / {fmt(self.divisor)} = {fmt(self)}")
        elif self.normalize == "log_n":
            d.step(rf"VI / \log N = {fmt(self.vi)} / {fmt(self.divisor)} = {fmt(self)}",
                   f"VI / {log_txt}(N) = {fmt(self.vi)} / {fmt(self.divisor)} = {fmt(self)}")
        d.text("VI is a distance between partitions (0 only for identical ones, symmetric, "
               "triangle inequality): lower is better, unlike NMI and AMI.")
        return d


@scikit_learn_names()
def variation_of_information(truth, pred, base=2,
                             normalize=None) -> VariationOfInformation:
    """Variation of information: the information lost and gained between two partitions.

    .. math::
        VI = H(\\mathcal{C}) + H(\\mathcal{T}) - 2\\, I(\\mathcal{C}, \\mathcal{T})
           = H(\\mathcal{C} \\mid \\mathcal{T}) + H(\\mathcal{T} \\mid \\mathcal{C})

    A metric on partitions, in ``[0, log_b N]``. Normalised forms:
    ``normalize="joint"`` divides by the joint entropy
    ``H(C, T) = H(C) + H(T) - I`` (a metric in [0, 1]; 0 when both partitions
    are a single group), ``"log_n"`` by ``log_b N`` (Meila's bound; needs N >= 2).

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    base : float, default 2
        Base of the logarithm (bits by default); the normalised forms do not depend on it.
    normalize : {None, "joint", "log_n"}, default None

    Returns
    -------
    VariationOfInformation
        A non-negative float with ``.vi`` (unnormalised), ``.divisor``,
        ``.h_clusters``, ``.h_classes``, ``.mi``, ``.base`` and ``.table``.

    References
    ----------
    M. Meila, "Comparing clusterings - an information based distance", J.
    Multivariate Analysis 98, 2007; N. X. Vinh, J. Epps and J. Bailey, JMLR 11, 2010.

    Examples
    --------
    >>> from prayatul_edu import variation_of_information as vi
    >>> float(vi([0, 0, 1, 1], [0, 1, 0, 1]))
    2.0
    >>> float(vi([0, 0, 1, 1], [0, 1, 0, 1], normalize="joint"))
    1.0
    """
    base = _check_base(base)
    if normalize is not None:
        check_choice(normalize, "normalize", _VI_NORMALIZE[1:])
    table = contingency_table(truth, pred)
    h_c = _entropy_result(table.cluster_sizes, table.clusters, table.n, base,
                          symbol="H(C)", of="the clusters")
    h_t = _entropy_result(table.class_sizes, table.classes, table.n, base,
                          symbol="H(T)", of="the classes")
    mi = _mutual_information(table, base)
    vi = _variation_of_information(table, base)
    divisor, value = None, vi
    if normalize == "joint":
        divisor = float(h_c) + float(h_t) - mi               # H(C, T)
        value = vi / divisor if divisor else 0.0
    elif normalize == "log_n":
        if table.n < 2:
            raise ValueError("truth: normalize='log_n' divides by log N, which is 0 "
                             "for N = 1; use normalize=None or 'joint'")
        divisor = float(_log(table.n, base))
        value = vi / divisor
    return VariationOfInformation(value, vi=vi, divisor=divisor, h_clusters=h_c,
                                  h_classes=h_t, mi=mi, base=base, normalize=normalize,
                                  table=table)
