"""Pair-counting measures: TP/FP/FN/TN, Rand, Jaccard, Fowlkes-Mallows, ARI, Hubert.

Look at every unordered pair of instances ``{x_a, x_b}`` with ``a < b`` - there
are ``C(N, 2) = N (N - 1) / 2`` of them - and ask two questions: are they in
the same class (truth)? in the same cluster (pred)? As in the lecture,

=====  =================================  ==============
count  the pair is ...                    tutorial name
=====  =================================  ==============
TP     same class, same cluster           f11
FP     different class, same cluster      f01
FN     same class, different cluster      f10
TN     different class, different cluster f00
=====  =================================  ==============

Going through the pairs one by one takes O(N^2) time. The contingency table
gives the same four numbers in O(N): the pairs inside cell ``(i, j)`` are the
true positives, the pairs inside cluster ``C_i`` are TP + FP, those inside
class ``T_j`` are TP + FN, and the rest are TN:

    TP = sum_ij C(n_ij, 2),  TP + FP = sum_i C(n_i, 2),  TP + FN = sum_j C(m_j, 2),
    TN = C(N, 2) - TP - FP - FN.

All four are exact Python integers for any N.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._validation import check_choice
from .labels import check_partitions
from . import dask_counts
from .counting import PAIR_LIST_MAX_N, ContingencyTable, comb2, pairs_within
from .contingency import contingency_table, table_of, scikit_learn_names
from .steps import Derivation, Result, ScalarResult, fmt, frac

__all__ = ["pair_confusion", "rand_index", "jaccard_index", "fowlkes_mallows_index",
           "adjusted_rand_index", "hubert_statistic"]

#: ``hubert_statistic(..., method="matrices")`` builds N x N matrices: at most this N.
MAX_MATRIX_N = 2000
#: Derivations print the ideal similarity matrices up to this N (the tutorial's 5 x 5).
SHOW_MATRIX_N = 10


# ------------------------------------------------------------ pair counts
class PairConfusion(Result):
    """The four pair counts TP, FP, FN, TN (exact ints) and the table they come from.

    ``np.asarray(pc)`` is the lecture's 2 x 2 layout ``[[TP, FP], [FN, TN]]``:
    rows are *predicted* (same cluster = P, different cluster = N), columns are
    *true* (same class = P, different class = N). The tutorial's names are
    aliases: ``f11 = TP``, ``f01 = FP``, ``f10 = FN``, ``f00 = TN``.
    """

    def __init__(self, tp: int, fp: int, fn: int, tn: int, table: ContingencyTable,
                 labels: tuple | None = None):
        self.tp, self.fp, self.fn, self.tn = tp, fp, fn, tn
        self.table = table
        #: (truth, pred) as given, kept for N <= PAIR_LIST_MAX_N: the pair-by-pair listing
        self.labels = labels

    # the tutorial's names: first digit "same class", second digit "same cluster"
    f11 = property(lambda self: self.tp, doc="Same class, same cluster (TP).")
    f01 = property(lambda self: self.fp, doc="Different class, same cluster (FP).")
    f10 = property(lambda self: self.fn, doc="Same class, different cluster (FN).")
    f00 = property(lambda self: self.tn, doc="Different class, different cluster (TN).")

    @property
    def n(self) -> int:
        """Number of instances N."""
        return self.table.n

    @property
    def n_pairs(self) -> int:
        """C(N, 2) = TP + FP + FN + TN."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def same_cluster(self) -> int:
        """Pairs in the same cluster: TP + FP = sum_i C(n_i, 2)."""
        return self.tp + self.fp

    @property
    def same_class(self) -> int:
        """Pairs in the same class: TP + FN = sum_j C(m_j, 2)."""
        return self.tp + self.fn

    def __array__(self, dtype=None, copy=None):
        big = self.n_pairs >= 2**63
        arr = np.array([[self.tp, self.fp], [self.fn, self.tn]],
                       dtype=object if big else np.int64)
        return arr.astype(dtype) if dtype is not None else arr

    def to_sklearn(self) -> np.ndarray:
        """scikit-learn's ``pair_confusion_matrix``: ordered pairs, so twice the counts.

        ``[[2 TN, 2 FP], [2 FN, 2 TP]]`` (rows truth, columns pred, index 0 =
        "different", 1 = "same").
        """
        return 2 * np.array([[self.tn, self.fp], [self.fn, self.tp]],
                            dtype=object if self.n_pairs >= 2**62 else np.int64)

    def __eq__(self, other):
        return NotImplemented

    __hash__ = None

    def derivation(self) -> Derivation:
        d = Derivation(f"Pair counts: TP = {self.tp}, FP = {self.fp}, FN = {self.fn}, "
                       f"TN = {self.tn} ({self.n_pairs} pairs)")
        d.text("Every unordered pair of instances {x_a, x_b} with a < b is asked: same "
               "class (`truth`)? same cluster (`pred`)? TP: same class and same cluster; "
               "FP: different class, same cluster; FN: same class, different cluster; "
               "TN: different class, different cluster.")
        if self.labels is not None:
            _list_pairs(d, *self.labels)
            d.text("The same counts without visiting the pairs, from the contingency table:")
        _add_pair_counts(d, self)
        d.text("As a 2 x 2 table: [[TP, FP], [FN, TN]] (rows predicted, columns true).")
        d.note("scikit-learn's `pair_confusion_matrix` counts *ordered* pairs ((a, b) and "
               "(b, a) separately), so its entries are twice these, arranged "
               "`[[2 TN, 2 FP], [2 FN, 2 TP]]` (rows truth, columns pred, 0 = different, "
               "1 = same).")
        return d


_CELL = {(True, True): "TP (f11)", (False, True): "FP (f01)", (True, False): "FN (f10)",
         (False, False): "TN (f00)"}


def _list_pairs(d: Derivation, truth, pred) -> None:
    """Every unordered pair {x_a, x_b}: same class? same cluster? -> its cell."""
    n, rows = len(truth), []
    for a in range(n):
        for b in range(a + 1, n):
            same_class, same_cluster = truth[a] == truth[b], pred[a] == pred[b]
            rows.append([f"{{x{a + 1}, x{b + 1}}}", f"{truth[a]}, {truth[b]}",
                         "yes" if same_class else "no", f"{pred[a]}, {pred[b]}",
                         "yes" if same_cluster else "no",
                         _CELL[bool(same_class), bool(same_cluster)]])
    d.table(["pair", "classes", "same class?", "clusters", "same cluster?", "cell"], rows,
            caption=f"All {len(rows)} pairs, one by one:", max_rows=len(rows))


def _comb_terms(sizes, what: str) -> tuple[str, str]:
    """``C(2,2) + C(1,2) = 1 + 0`` for a few sizes; for many, just what is summed."""
    if len(sizes) > 12:
        return (rf"\text{{(sum over {len(sizes)} {what})}}",
                f"(sum over {len(sizes)} {what})")
    sizes = [int(s) for s in sizes]
    if len(sizes) == 1:
        return rf"\tbinom{{{sizes[0]}}}{{2}}", f"C({sizes[0]},2)"
    latex = " + ".join(rf"\tbinom{{{s}}}{{2}}" for s in sizes)
    plain = " + ".join(f"C({s},2)" for s in sizes)
    values = " + ".join(str(comb2(s)) for s in sizes)
    return f"{latex} = {values}", f"{plain} = {values}"


def _add_pair_counts(d: Derivation, pc: PairConfusion, detail: bool = True) -> None:
    """The O(N) counting from the contingency table, then the lecture's 2 x 2 table."""
    t = pc.table
    if detail:
        d.formula(r"TP = \sum_{i,j}\binom{n_{ij}}{2},\quad TP + FP = \sum_i \binom{n_i}{2},"
                  r"\quad TP + FN = \sum_j \binom{m_j}{2},\quad "
                  r"TN = \binom{N}{2} - TP - FP - FN",
                  "TP = sum_ij C(n_ij, 2) ; TP + FP = sum_i C(n_i, 2) ; "
                  "TP + FN = sum_j C(m_j, 2) ; TN = C(N, 2) - TP - FP - FN")
        for lhs, sizes, what, total, rest in (
                ("TP", t.cell_count, "non-empty cells n_ij", pc.tp, ""),
                ("TP + FP", t.cluster_sizes, "clusters n_i", pc.same_cluster, f"FP = {pc.fp}"),
                ("TP + FN", t.class_sizes, "classes m_j", pc.same_class, f"FN = {pc.fn}")):
            latex, plain = _comb_terms(sizes, what)
            d.step(f"{lhs} = {latex} = {total}" + (rf",\ \text{{so}}\ {rest}" if rest else ""),
                   f"{lhs} = {plain} = {total}" + (f", so {rest}" if rest else ""))
        d.step(rf"TN = \tbinom{{{t.n}}}{{2}} - TP - FP - FN = {pc.n_pairs} - {pc.tp} - "
               rf"{pc.fp} - {pc.fn} = {pc.tn}",
               f"TN = C({t.n},2) - TP - FP - FN = {pc.n_pairs} - {pc.tp} - {pc.fp} - "
               f"{pc.fn} = {pc.tn}")
    d.table(["predicted \\ true", "P (same class)", "N (different class)", "total"],
            [["P (same cluster)", pc.tp, pc.fp, pc.same_cluster],
             ["N (different cluster)", pc.fn, pc.tn, pc.fn + pc.tn],
             ["total", pc.same_class, pc.fp + pc.tn, pc.n_pairs]],
            caption="Pairs (the lecture's layout; tutorial: f11 = TP, f01 = FP, "
                    "f10 = FN, f00 = TN):")


def _pair_confusion(table: ContingencyTable) -> PairConfusion:
    tp = table.pairs_in_cells()                    # sum_ij C(n_ij, 2): same cell
    same_cluster = pairs_within(table.cluster_sizes)  # sum_i C(n_i, 2) = TP + FP
    same_class = pairs_within(table.class_sizes)      # sum_j C(m_j, 2) = TP + FN
    fp = same_cluster - tp                         # same cluster, different class
    fn = same_class - tp                           # same class, different cluster
    tn = comb2(table.n) - tp - fp - fn             # everything else
    return PairConfusion(tp, fp, fn, tn, table)


def _pairs_of(truth, pred) -> PairConfusion:
    if dask_counts.is_dask(truth, pred):                    # counted on the workers
        return _pair_confusion(contingency_table(truth, pred))
    truth_l, pred_l = check_partitions(truth=truth, pred=pred)
    listed = None                                           # small examples list their pairs
    if truth_l.n <= PAIR_LIST_MAX_N:
        listed = (truth_l.values[truth_l.codes].tolist(), pred_l.values[pred_l.codes].tolist())
    pc = _pair_confusion(table_of(truth_l, pred_l))
    if listed is not None:
        pc.labels = listed
    return pc


@scikit_learn_names()
def pair_confusion(truth, pred) -> PairConfusion:
    """The pair confusion table: TP, FP, FN, TN over all unordered pairs of instances.

    .. math::
        TP = \\sum_{i,j}\\binom{n_{ij}}{2}, \\quad
        TP + FP = \\sum_i \\binom{n_i}{2}, \\quad
        TP + FN = \\sum_j \\binom{m_j}{2}, \\quad
        TN = \\binom{N}{2} - TP - FP - FN

    A pair is *positive* for the truth when both instances share a class and
    *predicted positive* when they share a cluster. Computed in O(N) from the
    contingency table, with exact integers.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
        Ground-truth classes and predicted clusters.
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    PairConfusion
        ``.tp .fp .fn .tn`` (Python ints), the tutorial's aliases
        ``.f11 .f01 .f10 .f00``, ``.n_pairs`` (= C(N, 2)) and ``.table``.
        ``np.asarray(pc)`` is ``[[TP, FP], [FN, TN]]`` (rows predicted P/N,
        columns true P/N, as in the lecture). scikit-learn's
        ``pair_confusion_matrix`` counts ordered pairs: it equals
        ``pc.to_sklearn()`` = ``[[2 TN, 2 FP], [2 FN, 2 TP]]``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.3;
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.7.

    Examples
    --------
    The tutorial's Exercise 3 (the first five instances of Exercise 2):

    >>> from prayatul_edu import pair_confusion
    >>> pc = pair_confusion(truth=[1, 3, 2, 1, 3], pred=[1, 2, 3, 1, 2])
    >>> pc.f00, pc.f01, pc.f10, pc.f11, pc.n_pairs
    (8, 0, 0, 2, 10)
    >>> import numpy as np
    >>> np.asarray(pair_confusion([0, 0, 1, 2], [0, 0, 1, 1])).tolist()
    [[1, 1], [0, 4]]
    """
    return _pairs_of(truth, pred)


# -------------------------------------------------------- the pair scores
class PairScore(ScalarResult):
    """Base of the pair-counting scores: ``.pairs`` and the counts ``.tp .fp .fn .tn``."""

    tp = property(lambda self: self.pairs.tp, doc="TP: same class, same cluster.")
    fp = property(lambda self: self.pairs.fp, doc="FP: different class, same cluster.")
    fn = property(lambda self: self.pairs.fn, doc="FN: same class, different cluster.")
    tn = property(lambda self: self.pairs.tn, doc="TN: different class, different cluster.")
    n_pairs = property(lambda self: self.pairs.n_pairs, doc="C(N, 2).")

    def _start(self, title: str, latex: str, plain: str) -> Derivation:
        d = Derivation(f"{title} = {fmt(self)}")
        d.formula(latex, plain)
        _add_pair_counts(d, self.pairs)
        return d


class RandIndex(PairScore):
    """Rand index (the tutorial's Rand statistic)."""

    def derivation(self) -> Derivation:
        d = self._start("Rand index",
                        r"RI = \frac{TP + TN}{\binom{N}{2}} = "
                        r"\frac{f_{11} + f_{00}}{f_{00} + f_{01} + f_{10} + f_{11}}",
                        "RI = (TP + TN) / C(N, 2) = (f11 + f00) / (f00 + f01 + f10 + f11)")
        d.step(rf"RI = \frac{{{self.tp} + {self.tn}}}{{{self.n_pairs}}} = {fmt(self)}",
               f"RI = ({self.tp} + {self.tn}) / {self.n_pairs} = {fmt(self)}")
        d.text("The fraction of pairs on which truth and clustering agree. With many "
               "small groups most pairs are TN, so even a random clustering scores high; "
               "the adjusted Rand index corrects for that.")
        return d


@scikit_learn_names()
def rand_index(truth, pred) -> RandIndex:
    """Rand index: the fraction of pairs on which clusters and classes agree.

    .. math::
        RI = \\frac{TP + TN}{\\binom{N}{2}}
           = \\frac{f_{11} + f_{00}}{f_{00} + f_{01} + f_{10} + f_{11}}

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    RandIndex
        A float in [0, 1] with ``.pairs`` (:class:`PairConfusion`) and the
        counts ``.tp .fp .fn .tn``. Equals scikit-learn's ``rand_score``.

    References
    ----------
    W. M. Rand, "Objective criteria for the evaluation of clustering methods",
    JASA 66, 1971; P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data
    Mining*, sec. 8.5.7.

    Examples
    --------
    >>> from prayatul_edu import rand_index
    >>> float(rand_index(truth=[1, 3, 2, 1, 3], pred=[1, 2, 3, 1, 2]))
    1.0
    >>> ri = rand_index([0, 0, 1, 2], [0, 0, 1, 1])
    >>> ri.tp, ri.tn, ri.n_pairs, round(float(ri), 4)
    (1, 4, 6, 0.8333)
    """
    pc = _pairs_of(truth, pred)
    return RandIndex((pc.tp + pc.tn) / pc.n_pairs, pairs=pc)   # exact ints, one rounding


class JaccardIndex(PairScore):
    """Jaccard coefficient of the pairs."""

    def derivation(self) -> Derivation:
        d = self._start("Jaccard coefficient",
                        r"J = \frac{TP}{TP + FP + FN} = \frac{f_{11}}{f_{01} + f_{10} + f_{11}}",
                        "J = TP / (TP + FP + FN) = f11 / (f01 + f10 + f11)")
        below = self.tp + self.fp + self.fn
        if below == 0:
            d.step(r"J = \frac{0}{0}", "J = 0 / 0")
            d.note("No pair is together in either partition (both put every instance "
                   "alone), so the quotient is 0/0. The two partitions are identical, so "
                   "J = 1 by convention (like the Rand and adjusted Rand indices).")
        else:
            d.step(rf"J = \frac{{{self.tp}}}{{{self.tp} + {self.fp} + {self.fn}}} = {fmt(self)}",
                   f"J = {self.tp} / ({self.tp} + {self.fp} + {self.fn}) = {fmt(self)}")
        d.text("Unlike the Rand index, TN (pairs apart in both) are ignored.")
        return d


@scikit_learn_names()
def jaccard_index(truth, pred) -> JaccardIndex:
    """Jaccard coefficient of the pairs: agreement on the pairs put together.

    .. math::
        J = \\frac{TP}{TP + FP + FN} = \\frac{f_{11}}{f_{01} + f_{10} + f_{11}}

    When no pair is together in either partition (``TP + FP + FN = 0``: both
    put every instance in its own group) the quotient is 0/0; the partitions
    are then identical and ``J = 1`` by convention.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    JaccardIndex
        A float in [0, 1] with ``.pairs`` and ``.tp .fp .fn .tn``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.3;
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.7.

    Examples
    --------
    >>> from prayatul_edu import jaccard_index
    >>> float(jaccard_index(truth=[1, 3, 2, 1, 3], pred=[1, 2, 3, 1, 2]))
    1.0
    >>> float(jaccard_index([0, 0, 1, 2], [0, 0, 1, 1]))
    0.5
    """
    pc = _pairs_of(truth, pred)
    together = pc.tp + pc.fp + pc.fn                    # pairs together in either partition
    value = pc.tp / together if together else 1.0      # 0/0: both all singletons
    return JaccardIndex(value, pairs=pc)


class FowlkesMallows(PairScore):
    """Fowlkes-Mallows index, with the pair ``.precision`` and ``.recall``."""

    def derivation(self) -> Derivation:
        d = self._start("Fowlkes-Mallows index",
                        r"FM = \sqrt{\text{prec}\cdot\text{recall}},\quad "
                        r"\text{prec} = \frac{TP}{TP + FP},\quad "
                        r"\text{recall} = \frac{TP}{TP + FN}",
                        "FM = sqrt(prec * recall),  prec = TP / (TP + FP),  "
                        "recall = TP / (TP + FN)")
        if self.tp == 0:
            d.step("TP = 0, so FM = 0")
            d.note("With no true positive FM is 0 (precision or recall is 0, or both are "
                   "0/0 when a partition puts every instance alone); as scikit-learn's "
                   "`fowlkes_mallows_score`.")
        else:
            d.step(rf"\text{{prec}} = {frac(self.tp, self.tp + self.fp)},\quad "
                   rf"\text{{recall}} = {frac(self.tp, self.tp + self.fn)}",
                   f"prec = {frac(self.tp, self.tp + self.fp)}, "
                   f"recall = {frac(self.tp, self.tp + self.fn)}")
            d.step(rf"FM = \sqrt{{{fmt(self.precision)} \cdot {fmt(self.recall)}}} = {fmt(self)}",
                   f"FM = sqrt({fmt(self.precision)} * {fmt(self.recall)}) = {fmt(self)}")
        d.text("The geometric mean of the pair precision and recall (the F-measure "
               "would take their harmonic mean).")
        return d


@scikit_learn_names()
def fowlkes_mallows_index(truth, pred) -> FowlkesMallows:
    """Fowlkes-Mallows index: the geometric mean of pair precision and recall.

    .. math::
        FM = \\sqrt{\\frac{TP}{TP + FP} \\cdot \\frac{TP}{TP + FN}}
           = \\frac{TP}{\\sqrt{(TP + FP)(TP + FN)}}

    ``FM = 0`` when ``TP = 0`` (including the 0/0 cases), as scikit-learn.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    FowlkesMallows
        A float in [0, 1] with ``.precision``, ``.recall``, ``.pairs`` and
        ``.tp .fp .fn .tn``. Equals scikit-learn's ``fowlkes_mallows_score``.

    References
    ----------
    E. B. Fowlkes and C. L. Mallows, "A method for comparing two hierarchical
    clusterings", JASA 78, 1983; M. J. Zaki and W. Meira Jr., *Data Mining and
    Machine Learning*, sec. 17.1.3.

    Examples
    --------
    >>> from prayatul_edu import fowlkes_mallows_index
    >>> fm = fowlkes_mallows_index([0, 0, 1, 2], [0, 0, 1, 1])
    >>> fm.precision, fm.recall, round(float(fm), 4)
    (0.5, 1.0, 0.7071)
    """
    pc = _pairs_of(truth, pred)
    if pc.tp == 0:
        return FowlkesMallows(0.0, precision=0.0, recall=0.0, pairs=pc)
    precision = pc.tp / (pc.tp + pc.fp)      # of the pairs put together, the right ones
    recall = pc.tp / (pc.tp + pc.fn)         # of the pairs that belong together, found
    return FowlkesMallows(math.sqrt(precision * recall), precision=precision, recall=recall,
                          pairs=pc)


class AdjustedRandIndex(PairScore):
    """Adjusted Rand index, with ``.index``, ``.expected`` and ``.max_index`` (Fractions)."""

    def derivation(self) -> Derivation:
        d = self._start("Adjusted Rand index",
                        r"ARI = \frac{\text{Index} - \text{Expected}}"
                        r"{\text{Max} - \text{Expected}},"
                        r"\quad \text{Index} = \sum_{ij}\binom{n_{ij}}{2} = TP,\quad "
                        r"\text{Expected} = \frac{\sum_i\binom{n_i}{2}\sum_j\binom{m_j}{2}}"
                        r"{\binom{N}{2}},\quad \text{Max} = \tfrac12\Big(\sum_i\binom{n_i}{2}"
                        r" + \sum_j\binom{m_j}{2}\Big)",
                        "ARI = (Index - Expected) / (Max - Expected),  "
                        "Index = sum_ij C(n_ij,2) = TP, "
                        "Expected = sum_i C(n_i,2) * sum_j C(m_j,2) / C(N,2), "
                        "Max = (sum_i C(n_i,2) + sum_j C(m_j,2)) / 2")
        a, b, m = self.pairs.same_cluster, self.pairs.same_class, self.n_pairs
        e = fmt(self.expected)
        if self.expected.denominator != 1:
            e += f" = {fmt(float(self.expected))}"
        d.step(rf"\text{{Expected}} = \frac{{{a} \cdot {b}}}{{{m}}} = {e},\quad "
               rf"\text{{Max}} = \tfrac12({a} + {b}) = {fmt(self.max_index)}",
               f"Expected = {a} * {b} / {m} = {e},  Max = ({a} + {b}) / 2 = "
               f"{fmt(self.max_index)}")
        if self.max_index == self.expected:
            d.step(rf"ARI = \frac{{{self.tp} - {fmt(self.expected)}}}"
                   rf"{{{fmt(self.max_index)} - {fmt(self.expected)}}} = \frac{{0}}{{0}}",
                   f"ARI = ({self.tp} - {fmt(self.expected)}) / ({fmt(self.max_index)} - "
                   f"{fmt(self.expected)}) = 0 / 0")
            d.note("Both partitions are a single group, or both put every instance alone: "
                   "they are identical (FP = FN = 0) but the quotient is 0/0. ARI = 1 by "
                   "convention, as scikit-learn's `adjusted_rand_score` (which returns 1 "
                   "whenever FP = FN = 0).")
        else:
            d.step(rf"ARI = \frac{{{self.tp} - {fmt(self.expected)}}}"
                   rf"{{{fmt(self.max_index)} - {fmt(self.expected)}}} = {fmt(self)}",
                   f"ARI = ({self.tp} - {fmt(self.expected)}) / ({fmt(self.max_index)} - "
                   f"{fmt(self.expected)}) = {fmt(self)}")
        d.text("Equivalently ARI = 2 (TP TN - FN FP) / ((TP + FN)(FN + TN) + (TP + FP)(FP + TN)). "
               "Expected is the mean of TP over random labellings with the same group sizes, "
               "so a random clustering scores about 0 (it can go below 0); 1 is a perfect match.")
        return d


@scikit_learn_names()
def adjusted_rand_index(truth, pred) -> AdjustedRandIndex:
    """Adjusted Rand index: the Rand index corrected for chance (Hubert and Arabie).

    .. math::
        ARI = \\frac{\\text{Index} - \\text{Expected}}{\\text{Max} - \\text{Expected}}
            = \\frac{2\\,(TP \\cdot TN - FN \\cdot FP)}
                    {(TP + FN)(FN + TN) + (TP + FP)(FP + TN)}

    with ``Index = sum_ij C(n_ij, 2) = TP``, ``Expected = sum_i C(n_i, 2)
    sum_j C(m_j, 2) / C(N, 2)`` (its mean under random labellings with the
    same group sizes) and ``Max = (sum_i C(n_i, 2) + sum_j C(m_j, 2)) / 2``.
    Computed with exact fractions, so there is no overflow and a single
    rounding. When ``FP = FN = 0`` (identical partitions, including the 0/0
    cases "both one group" and "both all singletons") ``ARI = 1``, as
    scikit-learn's ``adjusted_rand_score``.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.

    Returns
    -------
    AdjustedRandIndex
        A float <= 1 (about 0 for random labels, may be negative) with
        ``.index``, ``.expected``, ``.max_index`` (exact ``Fraction``),
        ``.pairs`` and ``.tp .fp .fn .tn``.

    References
    ----------
    L. Hubert and P. Arabie, "Comparing partitions", Journal of Classification 2,
    1985; D. Steinley, "Properties of the Hubert-Arabie adjusted Rand index",
    Psychological Methods 9, 2004.

    Examples
    --------
    >>> from prayatul_edu import adjusted_rand_index
    >>> float(adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1]))
    -0.5
    >>> ari = adjusted_rand_index([0, 0, 1, 2], [0, 0, 1, 1])
    >>> ari.expected, round(float(ari), 4)
    (Fraction(1, 3), 0.5714)
    """
    pc = _pairs_of(truth, pred)
    index = Fraction(pc.tp)                                       # sum_ij C(n_ij, 2)
    expected = Fraction(pc.same_cluster * pc.same_class, pc.n_pairs)  # E[index]
    max_index = Fraction(pc.same_cluster + pc.same_class, 2)      # upper bound of index
    if pc.fp == 0 and pc.fn == 0:
        value = 1.0                                               # identical partitions
    else:
        value = float((index - expected) / (max_index - expected))  # exact, one rounding
    return AdjustedRandIndex(value, index=index, expected=expected, max_index=max_index,
                             pairs=pc)


# --------------------------------------------------------------- Hubert
class HubertStatistic(PairScore):
    """Normalized Hubert statistic Gamma_n: correlation of the ideal similarity matrices."""

    def derivation(self) -> Derivation:
        d = Derivation(f"Normalized Hubert statistic = {fmt(self)}")
        d.text("Ideal similarity matrices: T(a, b) = 1 if x_a and x_b share a class, "
               "C(a, b) = 1 if they share a cluster, 0 otherwise. Over the M = C(N, 2) "
               "pairs a < b they give two 0/1 vectors t and c. The raw Hubert statistic "
               "is Gamma = TP / M (the mean of t_ab c_ab over the pairs); the normalized "
               "one, Gamma_n, is their Pearson correlation.")
        truth_l, pred_l = self._labels
        if truth_l.n <= SHOW_MATRIX_N:
            names = [f"x{a + 1}" for a in range(truth_l.n)]
            for title, lab in (("Ideal class similarity matrix T:", truth_l),
                               ("Ideal cluster similarity matrix C:", pred_l)):
                mat = _ideal_similarity(lab.codes)
                d.table([""] + names, [[names[a]] + [int(v) for v in mat[a]]
                                       for a in range(lab.n)], caption=title)
        d.formula(r"\Gamma_n = \frac{\sum_{a<b}(t_{ab} - \bar t)(c_{ab} - \bar c)}"
                  r"{\sqrt{\sum_{a<b}(t_{ab} - \bar t)^2\,\sum_{a<b}(c_{ab} - \bar c)^2}}"
                  r" = \frac{M\,TP - m_1 m_2}{\sqrt{m_1 m_2 (M - m_1)(M - m_2)}},"
                  r"\quad m_1 = TP + FN,\ m_2 = TP + FP",
                  "Gamma_n = sum_{a<b} (t_ab - mean t)(c_ab - mean c) / "
                  "sqrt(sum (t_ab - mean t)^2 * sum (c_ab - mean c)^2) "
                  "= (M TP - m1 m2) / sqrt(m1 m2 (M - m1)(M - m2)),  "
                  "m1 = TP + FN, m2 = TP + FP")
        _add_pair_counts(d, self.pairs)
        m, m1, m2, tp = self.n_pairs, self.m1, self.m2, self.tp
        if math.isnan(self):
            d.step(rf"\Gamma_n = \frac{{{m}\cdot{tp} - {m1}\cdot{m2}}}"
                   rf"{{\sqrt{{{m1}\cdot{m2}\cdot{m - m1}\cdot{m - m2}}}}}"
                   rf" = \frac{{{self.numerator}}}{{0}}",
                   f"Gamma_n = ({m}*{tp} - {m1}*{m2}) / sqrt({m1}*{m2}*{m - m1}*{m - m2}) "
                   f"= {self.numerator} / 0")
            d.note(f"Gamma_n is undefined (nan): {self.reason}, so that vector is constant, "
                   "has variance 0, and a correlation with it divides by 0.")
        else:
            d.step(rf"\Gamma_n = \frac{{{m}\cdot{tp} - {m1}\cdot{m2}}}"
                   rf"{{\sqrt{{{m1}\cdot{m2}\cdot{m - m1}\cdot{m - m2}}}}} = {fmt(self)}",
                   f"Gamma_n = ({m}*{tp} - {m1}*{m2}) / sqrt({m1}*{m2}*{m - m1}*{m - m2}) "
                   f"= {fmt(self)}")
        d.text("The two N x N matrices were built and their upper triangles correlated."
               if self.method == "matrices" else
               "The correlation of two 0/1 vectors needs only their sums and their dot "
               "product, i.e. the pair counts (the lecture: 'compute using the 2 x 2 "
               "confusion matrix').")
        d.note("The lecture writes cos(theta) of t and c. The cosine of the raw 0/1 vectors "
               "is TP / sqrt(m1 m2), the Fowlkes-Mallows index; Gamma_n is the cosine after "
               "centring (subtracting the means), i.e. the Pearson (phi) correlation of "
               "the 2 x 2 pair table: (TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)).")
        return d


def _ideal_similarity(codes: np.ndarray) -> np.ndarray:
    """The ideal similarity matrix: S[a, b] = 1 when instances a and b share a label."""
    return (codes[:, None] == codes[None, :]).astype(np.int8)


def _hubert_matrices(truth_codes: np.ndarray, pred_codes: np.ndarray):
    """The teaching path: build both N x N matrices, correlate their upper triangles."""
    T = _ideal_similarity(truth_codes)                 # class similarity matrix
    C = _ideal_similarity(pred_codes)                  # cluster similarity matrix
    a, b = np.triu_indices(truth_codes.shape[0], k=1)  # every pair a < b once
    t = T[a, b].astype(float)
    c = C[a, b].astype(float)
    t_dev = t - t.mean()                               # centre both vectors
    c_dev = c - c.mean()
    var_t, var_c = float(t_dev @ t_dev), float(c_dev @ c_dev)
    if var_t == 0.0 or var_c == 0.0:                   # a constant vector: no correlation
        return math.nan, T, C
    return float(t_dev @ c_dev) / math.sqrt(var_t * var_c), T, C


def _hubert_pairs(pc: PairConfusion):
    """The fast path: the same correlation from the pair counts alone (exact ints)."""
    m = pc.n_pairs                      # number of pairs a < b (length of t and c)
    m1 = pc.tp + pc.fn                  # pairs in the same class: sum of t
    m2 = pc.tp + pc.fp                  # pairs in the same cluster: sum of c
    numerator = m * pc.tp - m1 * m2     # M^2 * covariance(t, c)
    var_t, var_c = m1 * (m - m1), m2 * (m - m2)   # M^2 * variances
    if var_t == 0 or var_c == 0:
        return math.nan, numerator
    return numerator / math.sqrt(var_t * var_c), numerator


def _undefined_reason(pc: PairConfusion) -> str:
    m, m1, m2 = pc.n_pairs, pc.tp + pc.fn, pc.tp + pc.fp
    reasons = []
    for count, what, kind in ((m1, "class", "t"), (m2, "cluster", "c")):
        if count == 0:
            reasons.append(f"no two instances share a {what} ({kind} is all 0)")
        elif count == m:
            reasons.append(f"every pair shares a {what} ({kind} is all 1)")
    return " and ".join(reasons)


@scikit_learn_names()
def hubert_statistic(truth, pred, method: str = "pairs") -> HubertStatistic:
    """Normalized Hubert statistic: correlation of the ideal class and cluster matrices.

    With ``t_ab = 1`` when instances ``a`` and ``b`` share a class and
    ``c_ab = 1`` when they share a cluster (the ideal similarity matrices of
    the tutorial), over the ``M = C(N, 2)`` pairs ``a < b``:

    .. math::
        \\Gamma = \\frac{\\sum_{a<b}(t_{ab} - \\bar t)(c_{ab} - \\bar c)}
                       {\\sqrt{\\sum_{a<b}(t_{ab} - \\bar t)^2 \\sum_{a<b}(c_{ab} - \\bar c)^2}}
                = \\frac{M \\cdot TP - m_1 m_2}{\\sqrt{m_1 m_2 (M - m_1)(M - m_2)}}

    with ``m_1 = TP + FN`` (pairs in the same class) and ``m_2 = TP + FP``
    (pairs in the same cluster). When one vector is constant - one partition
    is a single group or all singletons, or N = 2 - the correlation is
    undefined and the result is ``nan`` (the derivation says why).

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    method : {"pairs", "matrices"}, default "pairs"
        ``"pairs"`` computes Gamma from the pair counts in O(N) (exact integers
        up to the final division). ``"matrices"`` is the teaching path: it
        literally builds both N x N 0/1 matrices and correlates their upper
        triangles (N at most 2000); it gives the same number.

    Returns
    -------
    HubertStatistic
        A float in [-1, 1] (or nan) with ``.m1``, ``.m2``, ``.numerator``,
        ``.method``, ``.pairs`` and ``.tp .fp .fn .tn``; with
        ``method="matrices"`` also ``.class_matrix`` and ``.cluster_matrix``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.1.4;
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.7;
    L. Hubert and J. Schultz, "Quadratic assignment as a general data analysis
    strategy", Br. J. Math. Stat. Psychol. 29, 1976.

    Examples
    --------
    >>> from prayatul_edu import hubert_statistic
    >>> g = hubert_statistic([0, 0, 1, 2], [0, 0, 1, 1])
    >>> round(float(g), 4), round(float(hubert_statistic([0, 0, 1, 2], [0, 0, 1, 1],
    ...                                                  method="matrices")), 4)
    (0.6325, 0.6325)
    >>> h = hubert_statistic([0, 0, 1, 1], [7, 7, 7, 7])
    >>> h
    HubertStatistic(nan)
    >>> print(h.explain())   # doctest: +ELLIPSIS
    Normalized Hubert statistic = nan
    ...
    """
    check_choice(method, "method", ("pairs", "matrices"))
    truth_l, pred_l = check_partitions(truth=truth, pred=pred)
    if method == "matrices" and truth_l.n > MAX_MATRIX_N:
        raise ValueError(f"method: 'matrices' builds two N x N matrices and is meant for "
                         f"small examples (N <= {MAX_MATRIX_N}), got N = {truth_l.n}; "
                         "use method='pairs'")
    pc = _pair_confusion(table_of(truth_l, pred_l))
    value, numerator = _hubert_pairs(pc)
    extra = {}
    if method == "matrices":
        value, extra["class_matrix"], extra["cluster_matrix"] = _hubert_matrices(
            truth_l.codes, pred_l.codes)
    return HubertStatistic(value, m1=pc.same_class, m2=pc.same_cluster, numerator=numerator,
                           reason=_undefined_reason(pc), method=method, pairs=pc,
                           _labels=(truth_l, pred_l), **extra)
