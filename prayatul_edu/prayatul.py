"""The Prayatul matrix: two clustering algorithms compared pair by pair against the truth.

Cluster labels are arbitrary, so an algorithm is not judged on the label it gives
an instance but on every *pair* of instances: the pair ``(i, j)`` is **Right**
for an algorithm when it agrees with the ground truth on whether ``i`` and
``j`` belong together,

.. math:: (p_i = p_j) \\iff (g_i = g_j),

and **Wrong** otherwise. Counting the N(N-1)/2 pairs by (primary right or
wrong) x (alternative right or wrong) gives the 2 x 2 Prayatul matrix

==================  ===================  ===================
primary \\ altern.   Right                Wrong
==================  ===================  ===================
Right               BR (both right)      RW (right, wrong)
Wrong               WR (wrong, right)    BW (both wrong)
==================  ===================  ===================

and five comparative measures (A. Biswas, 2023, eqs. 5-9): comparative
deviation, polarization, comparative rightness, effective rightness and
effective superiority.

Two ways to count, giving the same integers:

* ``method="pairs"``: the paper's Algorithm 1, every pair visited (O(N^2)
  work, vectorised in row blocks so the memory stays bounded);
* ``method="counts"``: O(N) from the sizes of the groups of the joint
  labellings, by inclusion-exclusion (no N x N anything); the default. The
  plain code (:func:`_from_group_sizes`) codes each joint labelling; the fast
  one (:func:`_from_dense_table`) reads every group size off one table of the
  three labellings, coded and counted in a single pass (``labels.dense_table``), and
  with many labels (:func:`_from_pair_sums`) counts only the three pairs of
  labellings, each with one ``np.bincount`` or one sort.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import dask_counts
from ._validation import check_choice, check_real
from .labels import Labels, check_labels, check_partitions, dense_table
from .counting import (PAIR_LIST_MAX_N, comb2, dense_pair_counts, flat_cells,
                       group_sizes, joint_codes, joint_codes_of, joint_pairs_within_each,
                       pairs_within, totals_by)
from .contingency import value_cells
from .steps import Derivation, Result, fmt, frac

__all__ = ["prayatul_matrix", "prayatul_by_instance", "PrayatulMatrix", "PRAYATUL_MEASURES",
           "PrayatulMeasure"]

#: Booleans per comparison array in ``method="pairs"`` (a block of rows x the later
#: columns). About 128 kB: memory stays bounded whatever N, the arrays stay in the CPU
#: cache, and little is wasted on the pairs j <= i inside a block (measured faster
#: than blocks of millions).
_BLOCK_ELEMENTS = 1 << 17

_METHODS = ("auto", "pairs", "counts")

#: The table of all three labellings is filled only while it stays in the CPU cache
#: (about 256 kB); larger, three two-way counts are faster than one scattered table.
_THREE_WAY_CELLS = 1 << 15

class PrayatulMeasure(NamedTuple):
    """One of the five measures (eqs. 5-9): how every module names, writes and bounds it."""

    name: str            # the PrayatulMatrix attribute, e.g. "comparative_deviation"
    title: str           # "Comparative deviation"
    symbol: str          # plain text, "sigma_c"
    latex: str           # r"\sigma_c"
    range: tuple         # (low, high) by Theorem 1
    latex_formula: str
    plain_formula: str


#: The five Prayatul measures in the paper's order (eqs. 5-9): name -> PrayatulMeasure.
#: The one list the comparison, the paper's tables, the plots and the apps read.
PRAYATUL_MEASURES = {m.name: m for m in (
    PrayatulMeasure("comparative_deviation", "Comparative deviation", "sigma_c", r"\sigma_c",
                    (-1, 1), r"\frac{RW - WR}{RW + WR}", "(RW - WR) / (RW + WR)"),
    PrayatulMeasure("polarization", "Polarization", "alpha", r"\alpha", (-1, 1),
                    r"\frac{BR + RW - BW}{BR + RW + WR + BW}",
                    "(BR + RW - BW) / (BR + RW + WR + BW)"),
    PrayatulMeasure("comparative_rightness", "Comparative rightness", "xi_c", r"\xi_c", (0, 1),
                    r"\frac{BR + RW}{BR + RW + WR}", "(BR + RW) / (BR + RW + WR)"),
    PrayatulMeasure("effective_rightness", "Effective rightness", "xi_e", r"\xi_e", (-1, 1),
                    r"\frac{BR + RW - WR}{BR + RW + WR}", "(BR + RW - WR) / (BR + RW + WR)"),
    PrayatulMeasure("effective_superiority", "Effective superiority", "phi_e", r"\phi_e",
                    (-1, 1), r"\frac{BR + RW - WR}{BR + RW + WR + BW}",
                    "(BR + RW - WR) / (BR + RW + WR + BW)"),
)}


# --------------------------------------------------------------- the result
def _measure(name: str, doc: str) -> property:
    """A read-only float property computing measure ``name`` (see ``_fractions``)."""
    return property(lambda self: self._value(name), doc=doc)


class PrayatulMatrix(Result):
    """The Prayatul matrix ``[[BR, RW], [WR, BW]]`` and its five measures.

    Rows are the primary algorithm (Right, Wrong), columns the alternative
    (Right, Wrong); ``np.asarray(m)`` is the 2 x 2 int64 matrix.

    Attributes
    ----------
    br, rw, wr, bw : int
        Pairs where both are right, only the primary is right, only the
        alternative is right, both are wrong (exact Python ints).
    n : int
        Number of instances N.
    n_pairs : int
        N(N-1)/2 = BR + RW + WR + BW.
    method : str
        ``"pairs"`` or ``"counts"``: the counting that actually ran.
    zero_division : float
        The value reported for a measure whose denominator is 0.
    """

    def __init__(self, br: int, rw: int, wr: int, bw: int, *, n: int, method: str,
                 zero_division: float, n_groups: tuple[int, int, int]):
        self.br, self.rw, self.wr, self.bw = int(br), int(rw), int(wr), int(bw)
        self.n = int(n)
        self.n_pairs = comb2(self.n)
        self.method = method
        self.zero_division = zero_division
        self.n_groups = n_groups  # distinct labels of truth, primary, alternative
        #: (truth, primary, alternative) as given, kept for N <= PAIR_LIST_MAX_N: the
        #: derivation then lists every pair
        self.labels: tuple | None = None

    # -- the matrix -------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        arr = np.array([[self.br, self.rw], [self.wr, self.bw]], dtype=np.int64)
        return arr.astype(dtype) if dtype is not None else arr

    @property
    def matrix(self) -> np.ndarray:
        """``[[BR, RW], [WR, BW]]`` as a 2 x 2 int64 array."""
        return self.__array__()

    def __eq__(self, other):
        return NotImplemented

    __hash__ = None

    # -- the five measures (eqs. 5-9) -----------------------------------
    def _value(self, name: str) -> float:
        numerator, denominator = self._fractions()[name][:2]
        # int / int is correctly rounded in Python, even beyond 2**53.
        return numerator / denominator if denominator else self.zero_division

    comparative_deviation = _measure(
        "comparative_deviation",
        "sigma_c = (RW - WR) / (RW + WR), in [-1, 1]; ``zero_division`` if RW = WR = 0.")
    polarization = _measure(
        "polarization", "alpha = (BR + RW - BW) / (BR + RW + WR + BW), in [-1, 1].")
    comparative_rightness = _measure(
        "comparative_rightness",
        "xi_c = (BR + RW) / (BR + RW + WR), in [0, 1]; ``zero_division`` if BR + RW + WR = 0.")
    effective_rightness = _measure(
        "effective_rightness",
        "xi_e = (BR + RW - WR) / (BR + RW + WR), in [-1, 1]; ``zero_division`` if "
        "BR + RW + WR = 0.")
    effective_superiority = _measure(
        "effective_superiority", "phi_e = (BR + RW - WR) / (BR + RW + WR + BW), in [-1, 1].")

    def measures(self) -> dict[str, float]:
        """The five measures by name, in the paper's order (eqs. 5-9)."""
        return {name: getattr(self, name) for name in PRAYATUL_MEASURES}

    def _fractions(self) -> dict[str, tuple[int, int, str, str]]:
        """name -> (numerator, denominator, numerator in symbols, denominator in symbols)."""
        br, rw, wr, bw = self.br, self.rw, self.wr, self.bw
        return {
            "comparative_deviation": (rw - wr, rw + wr, f"{rw} - {wr}", f"{rw} + {wr}"),
            "polarization": (br + rw - bw, self.n_pairs, f"{br} + {rw} - {bw}",
                             f"{br} + {rw} + {wr} + {bw}"),
            "comparative_rightness": (br + rw, br + rw + wr, f"{br} + {rw}",
                                      f"{br} + {rw} + {wr}"),
            "effective_rightness": (br + rw - wr, br + rw + wr, f"{br} + {rw} - {wr}",
                                    f"{br} + {rw} + {wr}"),
            "effective_superiority": (br + rw - wr, self.n_pairs, f"{br} + {rw} - {wr}",
                                      f"{br} + {rw} + {wr} + {bw}"),
        }

    def zero_division_used(self) -> list[str]:
        """Names of the measures whose denominator was 0 (reported as ``zero_division``)."""
        return [name for name, (_, den, _, _) in self._fractions().items() if den == 0]

    # -- the derivation ---------------------------------------------------
    def derivation(self) -> Derivation:
        d = self.counts_derivation()
        self._add_measures(d)
        return d

    def counts_derivation(self) -> Derivation:
        """How the four cells are counted (every pair listed for N <= 12), without the
        five measures."""
        br, rw, wr, bw, T = self.br, self.rw, self.wr, self.bw, self.n_pairs
        d = Derivation(f"Prayatul matrix: primary vs alternative, N = {self.n} "
                       f"({T} pairs)")
        d.text("A pair of instances $(i, j)$ is **Right** for an algorithm when it agrees "
               "with the ground truth on whether $i$ and $j$ belong together "
               "($p_i = p_j$ exactly when $g_i = g_j$), and **Wrong** otherwise. "
               "Every one of the $N(N-1)/2$ pairs falls in exactly one cell:")
        d.text("**BR** (both right): primary and alternative both right; "
               "**RW** (right-wrong): primary right, alternative wrong; "
               "**WR** (wrong-right): primary wrong, alternative right; "
               "**BW** (both wrong): both wrong.")
        d.table(["primary \\ alternative", "Right", "Wrong", "total"],
                [["Right", br, rw, br + rw],
                 ["Wrong", wr, bw, wr + bw],
                 ["total", br + wr, rw + bw, T]])
        d.text(f"Check: BR + RW + WR + BW = {br} + {rw} + {wr} + {bw} = {br + rw + wr + bw}"
               f" = N(N-1)/2 = {T}. The primary is right on BR + RW = {br + rw} pairs "
               f"and the alternative on BR + WR = {br + wr} (each one's Rand index "
               f"times {T}).")
        if self.labels is not None:
            _list_pairs(d, *self.labels)
        if self.method == "pairs":
            d.text("Counted by Algorithm 1 (the D-matrix algorithm): every pair visited once.")
        else:
            d.text("Counted from the sizes of the groups (a group of n instances holds "
                   "n(n-1)/2 pairs together) rather than pair by pair; Algorithm 1, which "
                   "visits every pair, gives the same integers.")
        return d

    def _add_measures(self, d: Derivation) -> None:
        zd = fmt(self.zero_division)
        summary = []
        for name, (num, den, num_s, den_s) in self._fractions().items():
            _, title, plain_sym, latex_sym, (low, high), latex_formula, plain_formula = \
                PRAYATUL_MEASURES[name]
            value = getattr(self, name)
            d.formula(f"{latex_sym} = {latex_formula}",
                      f"{title}: {plain_sym} = {plain_formula}")
            if den == 0:
                d.step(rf"{latex_sym} = \frac{{{num_s}}}{{{den_s}}} = \frac{{0}}{{0}}"
                       rf" \to {zd}",
                       f"{plain_sym} = ({num_s}) / ({den_s}) = 0/0 -> zero_division = {zd}")
            else:
                d.step(rf"{latex_sym} = \frac{{{num_s}}}{{{den_s}}} = \frac{{{num}}}{{{den}}}"
                       rf" = {fmt(value)}",
                       f"{plain_sym} = ({num_s}) / ({den_s}) = {frac(num, den)}")
            d.text(f"Reading: {_reading(name, self)}.")
            summary.append([title, plain_sym, value, f"[{low}, {high}]"])
        d.table(["measure", "symbol", "value", "range (Theorem 1)"], summary)
        used = self.zero_division_used()
        if used:
            why = []
            if "comparative_deviation" in used:
                why.append("RW + WR = 0 (the two algorithms are never right on different "
                           "pairs), so sigma_c = 0/0")
            if "comparative_rightness" in used:
                why.append("BR + RW + WR = 0 (neither algorithm is right on any pair), so "
                           "xi_c and xi_e = 0/0")
            d.note("; ".join(why) + f". Such a measure is reported as zero_division = {zd} "
                   "(the paper reports 0, e.g. sigma_c of DBSCAN vs Spectral, which "
                   "both recover the truth).")


_CELL = {(True, True): "BR", (True, False): "RW", (False, True): "WR", (False, False): "BW"}


def _list_pairs(d: Derivation, g, p, q) -> None:
    """Every unordered pair {x_i, x_j}: together in the truth? A right? B right? -> cell."""
    n, rows = len(g), []
    tally = dict.fromkeys(_CELL.values(), 0)
    for i in range(n):
        for j in range(i + 1, n):
            together = g[i] == g[j]
            a_right = (p[i] == p[j]) == together
            b_right = (q[i] == q[j]) == together
            cell = _CELL[bool(a_right), bool(b_right)]
            tally[cell] += 1
            rows.append([f"{{x{i + 1}, x{j + 1}}}", "together" if together else "apart",
                         "together" if p[i] == p[j] else "apart",
                         "right" if a_right else "wrong",
                         "together" if q[i] == q[j] else "apart",
                         "right" if b_right else "wrong", cell])
    d.table(["pair", "truth g", "primary A", "A is", "alternative B", "B is", "cell"], rows,
            caption=f"All {len(rows)} pairs, one by one:", max_rows=len(rows))
    d.text("Tally: " + ", ".join(f"{cell} = {count}" for cell, count in tally.items()) + ".")


def _by_sign(a: int, b: int, above: str, below: str, equal: str) -> str:
    return above if a > b else below if a < b else equal


def _reading(name: str, m: PrayatulMatrix) -> str:
    """A one-line reading of a measure's value (the paper's interpretation)."""
    br, rw, wr, bw = m.br, m.rw, m.wr, m.bw
    if name == "comparative_deviation":
        if rw + wr == 0:
            return "the two are never right on different pairs (RW = WR = 0): no deviation"
        return _by_sign(rw, wr,
                        "positive: when they disagree, the primary is more often right",
                        "negative: when they disagree, the alternative is more often right",
                        "0: when they disagree, each is right equally often")
    if name == "polarization":
        return _by_sign(br + rw, bw,
                        "positive: pairs the primary gets right (BR + RW) outnumber pairs "
                        "both get wrong (BW), polarized towards right decisions",
                        "negative: pairs both get wrong (BW) outnumber pairs the primary "
                        "gets right (BR + RW), polarized towards wrong decisions",
                        "0: pairs the primary gets right (BR + RW) balance pairs both get "
                        "wrong (BW)")
    if br + rw + wr == 0 and name in ("comparative_rightness", "effective_rightness"):
        return "neither algorithm is right on any pair (BR + RW + WR = 0)"
    if name == "comparative_rightness":
        return (f"of the pairs at least one algorithm gets right, the primary gets "
                f"{fmt(100 * (br + rw) / (br + rw + wr), 2)}% right")
    if name == "effective_rightness":
        return _by_sign(br + rw, wr,
                        "positive: among pairs at least one gets right, the primary's right "
                        "pairs (BR + RW) outnumber those only the alternative gets right (WR)",
                        "negative: among pairs at least one gets right, those only the "
                        "alternative gets right (WR) outnumber the primary's (BR + RW)",
                        "0: the primary's right pairs (BR + RW) just balance WR")
    # effective_superiority: the numerator of xi_e, over all pairs
    return _by_sign(br + rw, wr,
                    "positive: over all pairs the primary is superior (BR + RW > WR); pairs "
                    "both get wrong (BW) pull it towards 0",
                    "negative: over all pairs the alternative is superior (WR > BR + RW)",
                    "0: over all pairs, the primary's right pairs (BR + RW) just balance WR")


# ------------------------------------------------------------ the counting
def _algorithm1(g: np.ndarray, p: np.ndarray, q: np.ndarray) -> tuple[int, int, int, int]:
    """The paper's Algorithm 1 (D-matrix algorithm): visit every pair i < j once.

    ``g``, ``p``, ``q`` are integer label codes. The double loop ``for i, for j > i``
    runs a block of rows ``i`` at a time against all later ``j`` (vectorised), so at
    most about ``_BLOCK_ELEMENTS`` booleans exist per comparison.
    """
    N = g.shape[0]
    D11 = D12 = D21 = D22 = 0                           # D_ij <- 0
    rows_per_block = max(1, _BLOCK_ELEMENTS // N)
    for start in range(0, N - 1, rows_per_block):       # for i = 1 to N
        i = np.arange(start, min(start + rows_per_block, N - 1))
        j = np.arange(start + 1, N)                     # for j = i + 1 to N
        later = j[None, :] > i[:, None]                 # keep only j > i: each pair once
        g_eq = g[i, None] == g[None, j]                 # g_i = g_j
        p_eq = p[i, None] == p[None, j]                 # p_i = p_j
        q_eq = q[i, None] == q[None, j]                 # q_i = q_j
        g_ne, p_ne, q_ne = ~g_eq, ~p_eq, ~q_eq          # g_i != g_j, ...
        # line 6: (p= AND q= AND g=) OR (p!= AND q!= AND g!=)  -> D11 (BR)
        both_right = (p_eq & q_eq & g_eq) | (p_ne & q_ne & g_ne)
        # line 7: (p= AND q!= AND g=) OR (p!= AND q= AND g!=)  -> D12 (RW)
        right_wrong = (p_eq & q_ne & g_eq) | (p_ne & q_eq & g_ne)
        # line 8: (p!= AND q= AND g=) OR (p= AND q!= AND g!=)  -> D21 (WR)
        wrong_right = (p_ne & q_eq & g_eq) | (p_eq & q_ne & g_ne)
        # line 9: (p= AND q= AND g!=) OR (p!= AND q!= AND g=)  -> D22 (BW)
        both_wrong = (p_eq & q_eq & g_ne) | (p_ne & q_ne & g_eq)
        D11 += int(np.count_nonzero(both_right & later))
        D12 += int(np.count_nonzero(right_wrong & later))
        D21 += int(np.count_nonzero(wrong_right & later))
        D22 += int(np.count_nonzero(both_wrong & later))
    return D11, D12, D21, D22


def _from_group_sizes(g: Labels, p: Labels, q: Labels) -> tuple[int, int, int, int]:
    """BR, RW, WR, BW in O(N) by inclusion-exclusion over the joint labellings.

    ``S_X`` counts the pairs equal under labelling ``X`` (both in one group of
    ``X``); for a joint labelling such as ``gp`` that means equal in ``g`` *and*
    in ``p``. The eight patterns (bits: g, p, q equal) follow, then the cells.
    """
    g, p, q = ((lab.codes, lab.k) for lab in (g, p, q))   # codes 0..k-1 of each labelling
    S_g = pairs_within(group_sizes(g))                  # pairs with g_i = g_j
    S_p = pairs_within(group_sizes(p))
    S_q = pairs_within(group_sizes(q))
    S_gp = pairs_within(group_sizes(g, p))              # g_i = g_j and p_i = p_j
    S_gq = pairs_within(group_sizes(g, q))
    S_pq = pairs_within(group_sizes(p, q))
    S_gpq = pairs_within(group_sizes(g, p, q))          # all three equal
    return _cells(comb2(g[0].shape[0]), S_g, S_p, S_q, S_gp, S_gq, S_pq, S_gpq)


def _cells(T: int, S_g: int, S_p: int, S_q: int, S_gp: int, S_gq: int, S_pq: int,
           S_gpq: int) -> tuple[int, int, int, int]:
    """The eight equality patterns from the pair sums ``S_X``, then the four cells."""
    n111 = S_gpq
    n110 = S_gp - S_gpq                                 # g=, p=, q!=
    n101 = S_gq - S_gpq                                 # g=, p!=, q=
    n011 = S_pq - S_gpq                                 # g!=, p=, q=
    n100 = S_g - S_gp - S_gq + S_gpq                    # only g equal
    n010 = S_p - S_gp - S_pq + S_gpq                    # only p equal
    n001 = S_q - S_gq - S_pq + S_gpq                    # only q equal
    n000 = T - S_g - S_p - S_q + S_gp + S_gq + S_pq - S_gpq   # all different
    BR = n111 + n000      # Algorithm 1, line 6
    RW = n110 + n001      # line 7
    WR = n101 + n010      # line 8
    BW = n011 + n100      # line 9
    # S_gpq cancels in every cell (each cell is a parity of agreements), e.g.
    # RW = S_q + S_gp - S_gq - S_pq; prayatul_by_instance uses these short forms.
    return BR, RW, WR, BW


def _from_dense_table(g: Labels, p: Labels, q: Labels) -> tuple[int, int, int, int] | None:
    """The fast path of :func:`_from_group_sizes`: the same sums from one table.

    ``n[a, b, c]`` counts the instances with ``g = a``, ``p = b``, ``q = c``
    (:func:`labels.dense_table`, one pass over the labels); every group size
    is a margin of it, e.g. the ``gp`` groups are ``n.sum(axis=2)``. Returns
    None when the labels have too many values for a dense table.
    """
    n = dense_table(g, p, q, max_cells=_THREE_WAY_CELLS)
    if n is None:
        return None
    return _cells(comb2(g.n),
                  pairs_within(n.sum(axis=(1, 2))), pairs_within(n.sum(axis=(0, 2))),
                  pairs_within(n.sum(axis=(0, 1))), pairs_within(n.sum(axis=2)),
                  pairs_within(n.sum(axis=1)), pairs_within(n.sum(axis=0)), pairs_within(n))


def _from_pair_sums(g: Labels, p: Labels, q: Labels) -> tuple[int, int, int, int]:
    """The fast path for many labels: the cells from six pair sums, no three-way groups.

    ``S_gpq`` cancels in every cell (each cell is a parity of agreements), so
    the four cells need only ``S_g``, ``S_p``, ``S_q`` (group sizes of each
    labelling) and ``S_gp``, ``S_gq``, ``S_pq``, each counted by
    :func:`counting.joint_pairs_within_each` (a ``np.bincount`` or one sort), or all
    three from one pass over the labels when their tables are small
    (:func:`counting.dense_pair_counts`).
    """
    labs = g, p, q
    n, (g, p, q) = g.n, (lab.dense_form() for lab in labs)   # coded (or small-range ints)
    tables = dense_pair_counts(g, p, q)
    if tables is not None:
        S_gp, S_gq, S_pq = (pairs_within(tables[pair]) for pair in ((0, 1), (0, 2), (1, 2)))
        sizes = tables[0, 1].sum(axis=1), tables[0, 1].sum(axis=0), tables[0, 2].sum(axis=0)
    else:
        S_gp, S_gq, S_pq = joint_pairs_within_each([(g, p), (g, q), (p, q)])
        sizes = [lab.dense_sizes() for lab in labs]     # counted already when k was found
    S_g, S_p, S_q = (pairs_within(size) for size in sizes)   # the margins: group sizes
    return _cells_from_pairs(comb2(n), S_g, S_p, S_q, S_gp, S_gq, S_pq)


def _from_cells(values: dict, total: np.ndarray) -> tuple[tuple[int, int, int, int], tuple]:
    """BR, RW, WR, BW from the cells of the three labellings (the Dask path), and each k.

    ``total[c]`` instances have the labels ``values[name][c]``; the group sizes
    of a labelling or a pair of them are the totals of the cells per group.
    """
    g, p, q = (check_labels(values[name], name, min_n=1)
               for name in ("truth", "primary", "alternative"))

    def S(*labs):                                        # pairs inside the joint groups
        code, k = joint_codes_of(*((lab.codes, lab.k) for lab in labs))
        return pairs_within(totals_by(code, k, total))

    cells = _cells_from_pairs(comb2(int(total.sum())), S(g), S(p), S(q), S(g, p), S(g, q),
                              S(p, q))
    return cells, (g.k, p.k, q.k)


def _cells_from_pairs(T: int, S_g: int, S_p: int, S_q: int, S_gp: int, S_gq: int,
                      S_pq: int) -> tuple[int, int, int, int]:
    """The four cells from the pair sums, without S_gpq (it cancels, see :func:`_cells`)."""
    BR = T - S_g - S_p - S_q + S_gp + S_gq + S_pq
    RW = S_q + S_gp - S_gq - S_pq
    WR = S_p + S_gq - S_gp - S_pq
    BW = S_g + S_pq - S_gp - S_gq
    return BR, RW, WR, BW


# ------------------------------------------------------------ public API
def prayatul_matrix(truth, primary, alternative, *, method: str = "auto",
                    zero_division: float = 0.0) -> PrayatulMatrix:
    """The Prayatul matrix of a primary against an alternative clustering, and its measures.

    A pair of instances ``(i, j)`` is *Right* for an algorithm when
    ``(p_i = p_j) == (g_i = g_j)``. Over the N(N-1)/2 unordered pairs:

    * BR = pairs right for both, RW = right for the primary only,
    * WR = right for the alternative only, BW = wrong for both,

    and the matrix is ``[[BR, RW], [WR, BW]]`` (rows: primary Right / Wrong,
    columns: alternative Right / Wrong). The five measures (eqs. 5-9):

    .. math::
        \\sigma_c = \\frac{RW - WR}{RW + WR}, \\quad
        \\alpha = \\frac{BR + RW - BW}{BR + RW + WR + BW}, \\quad
        \\xi_c = \\frac{BR + RW}{BR + RW + WR},

    .. math::
        \\xi_e = \\frac{BR + RW - WR}{BR + RW + WR}, \\quad
        \\phi_e = \\frac{BR + RW - WR}{BR + RW + WR + BW}.

    By Theorem 1, ``sigma_c``, ``alpha``, ``xi_e`` and ``phi_e`` lie in
    [-1, 1] and ``xi_c`` in [0, 1]. Positive ``sigma_c`` means: when the two
    disagree, the primary is more often right.

    Parameters
    ----------
    truth : sequence of hashable labels, length N
        Ground truth ``G`` (N >= 2). Labels may be ints, strings, -1 for noise...
    primary : sequence of hashable labels, length N
        Clustering ``P`` of the primary algorithm (the one being evaluated).
    alternative : sequence of hashable labels, length N
        Clustering ``Q`` of the alternative algorithm it is compared with.
    method : {"auto", "pairs", "counts"}, default "auto"
        ``"pairs"`` runs the paper's Algorithm 1 over every pair (O(N^2) time,
        vectorised in row blocks of bounded memory; fine up to N ~ 10,000).
        ``"counts"`` gets the same integers in O(N) from the group sizes of the
        joint labellings: with ``S_X`` the number of pairs inside groups of
        ``X`` (``X`` in g, p, q, gp, gq, pq, gpq) and ``T = C(N, 2)``,
        inclusion-exclusion gives the 8 equality patterns, e.g.
        ``n(g=, p=, q!=) = S_gp - S_gpq``, and BR = n111 + n000,
        RW = n110 + n001, WR = n101 + n010, BW = n011 + n100. ``"auto"`` picks
        ``"counts"``: same exact integers, linear time and memory.
    zero_division : float, default 0.0
        Reported for a measure whose denominator is 0 (``sigma_c`` when
        RW = WR = 0; ``xi_c`` and ``xi_e`` when BR + RW + WR = 0). The paper
        reports 0; pass ``float("nan")`` to make such cases stand out.

    Returns
    -------
    PrayatulMatrix
        ``.br``, ``.rw``, ``.wr``, ``.bw``, ``.n_pairs`` (exact Python ints),
        ``np.asarray(m)`` (the 2 x 2 int64 matrix), the five measures as float
        properties ``.comparative_deviation``, ``.polarization``,
        ``.comparative_rightness``, ``.effective_rightness``,
        ``.effective_superiority``, ``.measures()`` (dict) and ``.method``.
        Echoing it shows the derivation.

    See Also
    --------
    prayatul_by_instance : the four counts for the pairs of each instance.

    References
    ----------
    A. Biswas, "Prayatul Matrix for Evaluating Clustering Algorithms: A Direct
    Comparison Approach", 2023 (section III: eqs. 1-9, Theorems 1-6, Algorithm 1).

    Examples
    --------
    Four instances, truth {0, 1} {2, 3}. The primary merges everything, the
    alternative recovers the truth (under other label names). Of the 6 pairs,
    (0, 1) and (2, 3) are together in the truth: both algorithms get them right
    (BR = 2). The other 4 pairs are apart in the truth: only the alternative
    gets them right (WR = 4).

    >>> from prayatul_edu import prayatul_matrix
    >>> m = prayatul_matrix(truth=[0, 0, 1, 1], primary=["a", "a", "a", "a"],
    ...                     alternative=[7, 7, -1, -1])
    >>> m.br, m.rw, m.wr, m.bw
    (2, 0, 4, 0)
    >>> m.comparative_deviation, round(m.comparative_rightness, 4)
    (-1.0, 0.3333)
    >>> print(m.explain().splitlines()[0])
    Prayatul matrix: primary vs alternative, N = 4 (6 pairs)
    """
    check_choice(method, "method", _METHODS)
    zero_division = check_real(zero_division, "zero_division", allow_nan=True)
    if dask_counts.is_dask(truth, primary, alternative):     # counted on the workers
        if method == "pairs":
            raise ValueError("method: 'pairs' visits every pair in memory; Dask arrays are "
                             "counted with method='counts' (or 'auto')")
        values, total = dask_counts.merged_cells(value_cells, truth=truth, primary=primary,
                                                 alternative=alternative)
        (br, rw, wr, bw), n_groups = _from_cells(values, total)
        return PrayatulMatrix(br, rw, wr, bw, n=int(total.sum()), method="counts",
                              zero_division=zero_division, n_groups=n_groups)
    g, p, q = check_partitions(truth=truth, primary=primary, alternative=alternative)
    if method == "auto":
        # Same integers as Algorithm 1, but O(N) time and memory instead of O(N^2).
        method = "counts"
    if method == "pairs":
        br, rw, wr, bw = _algorithm1(g.codes, p.codes, q.codes)
    else:
        br, rw, wr, bw = _from_dense_table(g, p, q) or _from_pair_sums(g, p, q)
    m = PrayatulMatrix(br, rw, wr, bw, n=g.n, method=method, zero_division=zero_division,
                       n_groups=(g.k, p.k, q.k))
    if g.n <= PAIR_LIST_MAX_N:
        m.labels = tuple(x.values[x.codes].tolist() for x in (g, p, q))
    return m


def prayatul_matrices(truth: Labels, labelings: dict, pairs) -> dict:
    """The Prayatul matrix of each ``(primary, alternative)`` of ``pairs``, the counting
    shared: the same integers as :func:`prayatul_matrix` of each pair.

    ``truth`` and the values of ``labelings`` are checked :class:`~prayatul_edu.labels.Labels`
    of N instances (coded once by the caller). The cells need only pair sums
    (:func:`_from_pair_sums`): of each labelling, of the truth with each labelling and of
    each unordered pair of labellings. Each is counted once, however many pairs use it,
    and ``(B, A)`` is ``(A, B)`` with RW and WR swapped: a tournament of k algorithms
    counts k + k (k - 1) / 2 joint tables instead of 3 k (k - 1).
    """
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    forms = {name: labelings[name].dense_form() for name in names}
    g = truth.dense_form()
    unordered = list(dict.fromkeys(tuple(sorted((p, q), key=names.index)) for p, q in pairs))
    joint = [(g, forms[name]) for name in names] + [(forms[p], forms[q]) for p, q in unordered]
    sums = joint_pairs_within_each(joint)
    S_g_with = dict(zip(names, sums[:len(names)]))              # S_gp for each p
    S_pair = dict(zip(unordered, sums[len(names):]))            # S_pq for each {p, q}
    S = {name: pairs_within(labelings[name].dense_sizes()) for name in names}
    S_g, T, n = pairs_within(truth.dense_sizes()), comb2(truth.n), truth.n
    out = {}
    for p, q in pairs:
        S_pq = S_pair[(p, q)] if (p, q) in S_pair else S_pair[(q, p)]
        br, rw, wr, bw = _cells_from_pairs(T, S_g, S[p], S[q], S_g_with[p], S_g_with[q], S_pq)
        m = PrayatulMatrix(br, rw, wr, bw, n=n, method="counts", zero_division=0.0,
                           n_groups=(truth.k, labelings[p].k, labelings[q].k))
        if n <= PAIR_LIST_MAX_N:
            m.labels = tuple(x.values[x.codes].tolist() for x in (truth, labelings[p],
                                                                  labelings[q]))
        out[p, q] = m
    return out


def _others_in_group(codes: np.ndarray, k: int) -> np.ndarray:
    """For every instance: how many *other* instances share its group (size - 1)."""
    return np.bincount(codes, minlength=k)[codes] - 1


def prayatul_by_instance(truth, primary, alternative) -> np.ndarray:
    """For each instance ``i``: its pairs ``(i, j)``, ``j != i``, in BR, RW, WR, BW.

    With ``s_X(i)`` the number of other instances in ``i``'s group of labelling
    ``X`` (its group size minus 1; ``X`` in g, p, q, gp, gq, pq) the same
    inclusion-exclusion as :func:`prayatul_matrix`, per instance, gives (the
    three-way term ``s_gpq`` cancels)

    .. math::
        BR_i &= (N - 1) - s_g - s_p - s_q + s_{gp} + s_{gq} + s_{pq} \\\\
        RW_i &= s_q + s_{gp} - s_{gq} - s_{pq} \\\\
        WR_i &= s_p + s_{gq} - s_{gp} - s_{pq} \\\\
        BW_i &= s_g + s_{pq} - s_{gp} - s_{gq}

    in O(N). Every pair is seen from both ends, so the column sums are twice
    the matrix entries; rows with a large ``WR_i`` point at the instances the
    primary gets wrong and the alternative right.

    Parameters
    ----------
    truth, primary, alternative : sequences of hashable labels, length N
        As in :func:`prayatul_matrix`.

    Returns
    -------
    ndarray of shape (N, 4), int64
        Columns BR, RW, WR, BW; each row sums to N - 1.

    References
    ----------
    A. Biswas, "Prayatul Matrix for Evaluating Clustering Algorithms: A Direct
    Comparison Approach", 2023 (section IV.C.2, instance level analysis).

    Examples
    --------
    The example of :func:`prayatul_matrix`: instance 0 is paired with 1 (both
    right), 2 and 3 (only the alternative right).

    >>> from prayatul_edu import prayatul_by_instance
    >>> prayatul_by_instance([0, 0, 1, 1], ["a", "a", "a", "a"], [7, 7, -1, -1]).tolist()
    [[1, 0, 2, 0], [1, 0, 2, 0], [1, 0, 2, 0], [1, 0, 2, 0]]
    """
    g, p, q = check_partitions(truth=truth, primary=primary, alternative=alternative)
    out = _by_instance_dense(g, p, q)
    return _by_instance_plain(g, p, q) if out is None else out


def _by_instance_plain(g: Labels, p: Labels, q: Labels) -> np.ndarray:
    """The formulas instance by instance, from the group codes of each labelling."""
    gp, k_gp = joint_codes(g.codes, g.k, p.codes, p.k)
    gq, k_gq = joint_codes(g.codes, g.k, q.codes, q.k)
    pq, k_pq = joint_codes(p.codes, p.k, q.codes, q.k)
    s_g = _others_in_group(g.codes, g.k)        # j != i with g_j = g_i
    s_p = _others_in_group(p.codes, p.k)
    s_q = _others_in_group(q.codes, q.k)
    s_gp = _others_in_group(gp, k_gp)           # j != i with g_j = g_i and p_j = p_i
    s_gq = _others_in_group(gq, k_gq)
    s_pq = _others_in_group(pq, k_pq)
    return _instance_rows(g.n, s_g, s_p, s_q, s_gp, s_gq, s_pq)


def _instance_rows(N: int, s_g, s_p, s_q, s_gp, s_gq, s_pq) -> np.ndarray:
    """BR_i, RW_i, WR_i, BW_i (last axis) from the counts of others in each group."""
    shape = np.broadcast_shapes(*(np.shape(s) for s in (s_g, s_p, s_q, s_gp, s_gq, s_pq)))
    out = np.empty(shape + (4,), dtype=np.int64)
    out[..., 0] = (N - 1) - s_g - s_p - s_q + s_gp + s_gq + s_pq   # BR_i
    out[..., 1] = s_q + s_gp - s_gq - s_pq                         # RW_i
    out[..., 2] = s_p + s_gq - s_gp - s_pq                         # WR_i
    out[..., 3] = s_g + s_pq - s_gp - s_gq                         # BW_i
    return out


def _by_instance_dense(g: Labels, p: Labels, q: Labels) -> np.ndarray | None:
    """The fast path: the same rows, computed once per cell of the dense table.

    Instances with the same labels ``(g, p, q)`` have the same row, so the rows
    are computed for every cell ``[a, b, c]`` of ``n = dense_table(g, p, q)``
    (group sizes are its margins) and then looked up, block by block, by each
    instance's cell. None when the labels have too many values for a dense table.
    """
    n = dense_table(g, p, q)
    if n is None:
        return None
    per_cell = _instance_rows(g.n,
                              n.sum(axis=(1, 2))[:, None, None] - 1,   # s_g of cell [a, b, c]
                              n.sum(axis=(0, 2))[None, :, None] - 1,   # s_p
                              n.sum(axis=(0, 1))[None, None, :] - 1,   # s_q
                              n.sum(axis=2)[:, :, None] - 1,           # s_gp
                              n.sum(axis=1)[:, None, :] - 1,           # s_gq
                              n.sum(axis=0)[None, :, :] - 1).reshape(-1, 4)   # s_pq
    out = np.empty((g.n, 4), dtype=np.int64)
    for start, stop, cell in flat_cells([lab.dense_form() for lab in (g, p, q)], n.shape):
        np.take(per_cell, cell, axis=0, out=out[start:stop])
    return out
