"""The cophenetic matrix of a dendrogram and the cophenetic correlation (CPCC).

The height at which two instances first share a cluster is their
*cophenetic distance*; the cophenetic correlation coefficient (CPCC) says how
faithfully those heights reproduce the original distances.
"""
from __future__ import annotations

import math

import numpy as np

from ._validation import check_distance_matrix
from .counting import comb2
from .steps import Derivation, Result, ScalarResult, fmt
from .tree import (FULL_TRACE_MAX_N, MERGES_SHOWN, AgglomerativeResult, cluster_members,
                   cluster_name, default_names, leaf_layout, matrix_table)

__all__ = ["cophenetic_matrix", "cophenetic_correlation", "CopheneticMatrix",
           "CopheneticCorrelation", "cophenetic_distances", "DistanceSums"]

#: Above this many instances cophenetic_correlation sums merge by merge (given a tree)
#: or over whole matrices (given P) instead of over an explicit list of pairs.
CPCC_PAIRS_MAX_N = 1000


def _check_linkage_matrix(Z, name: str) -> np.ndarray:
    """A SciPy linkage matrix: N-1 rows (id_a, id_b, height, size) in merge order.

    Heights may go down (inversions of centroid and median linkage)."""
    try:
        Z = np.asarray(Z, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected an agglomerative result or a SciPy linkage "
                        f"matrix of numbers ({exc})") from None
    if Z.ndim != 2 or Z.shape[1] != 4 or Z.shape[0] < 1:
        raise ValueError(f"{name}: a linkage matrix has N - 1 >= 1 rows and 4 columns "
                         f"(id_a, id_b, height, size), got shape {Z.shape}")
    if not np.isfinite(Z).all():
        raise ValueError(f"{name}: contains NaN or infinite values")
    N = Z.shape[0] + 1
    ids, heights, sizes = Z[:, :2], Z[:, 2], Z[:, 3]
    if (ids != np.round(ids)).any() or (sizes != np.round(sizes)).any():
        raise ValueError(f"{name}: cluster ids (columns 0, 1) and sizes (column 3) must "
                         "be whole numbers")
    if (heights < 0).any():
        k = int(np.flatnonzero(heights < 0)[0])
        raise ValueError(f"{name}: heights must be non-negative, but row {k} has "
                         f"{heights[k]:g}")
    size = [1] * N + [0] * (N - 1)
    used = [False] * (2 * N - 1)
    for k, (a, b) in enumerate(ids.astype(np.int64).tolist()):
        if a == b:
            raise ValueError(f"{name}: row {k} merges cluster {a} with itself")
        for c in (a, b):
            if not 0 <= c < N + k:
                raise ValueError(f"{name}: row {k} merges cluster {c}, which does not exist "
                                 f"yet (ids must be in 0 .. {N + k - 1})")
            if used[c]:
                raise ValueError(f"{name}: cluster {c} is merged twice (again in row {k})")
            used[c] = True
        size[N + k] = size[a] + size[b]
        if sizes[k] != size[N + k]:
            raise ValueError(f"{name}: row {k} gives size {sizes[k]:g}, but clusters {a} "
                             f"and {b} hold {size[N + k]} instances")
    return Z


def cophenetic_distances(Z: np.ndarray, N: int) -> np.ndarray:
    """P[i, j] = the height of the merge that first puts i and j in one cluster.

    As the merges happen, the block between the two merged clusters' members
    gets the merge height. Done in dendrogram leaf order (where the two
    blocks are contiguous slices), then put back in instance order: O(N^2).
    """
    order, start, size = leaf_layout(Z, N)
    heights = Z[:, 2].tolist()
    P_leaf = np.zeros((N, N))
    for k, (a, b) in enumerate(Z[:, :2].astype(np.intp).tolist()):
        A = slice(start[a], start[a] + size[a])      # members of a ...
        B = slice(start[b], start[b] + size[b])      # ... and of b, side by side
        P_leaf[A, B] = heights[k]
        P_leaf[B, A] = heights[k]
    position = np.asarray(start[:N])                 # where instance i sits in leaf order
    return P_leaf[np.ix_(position, position)]        # C order: rows are summed pairwise


class CopheneticMatrix(Result):
    """The N x N cophenetic distance matrix; behaves like an array.

    ``np.asarray(P)``, ``P[i, j]``, ``P.shape`` and ``len(P)`` work; ``.P`` is
    the ndarray, ``.Z`` the linkage matrix it came from, ``.condensed()`` the
    pairs i < j in SciPy's order (what ``scipy.cluster.hierarchy.cophenet(Z)`` returns).
    """

    def __init__(self, P, Z, names):
        self.P, self.Z, self.names = P, Z, names
        self.n = P.shape[0]

    @property
    def shape(self):
        return self.P.shape

    def __array__(self, dtype=None, copy=None):
        P = self.P
        return P.astype(dtype) if dtype is not None else (P.copy() if copy else P)

    def __getitem__(self, index):
        return self.P[index]

    def __len__(self) -> int:
        return self.n

    def __iter__(self):
        return iter(self.P)

    def condensed(self) -> np.ndarray:
        return self.P[np.triu_indices(self.n, 1)]

    def derivation(self) -> Derivation:
        N, names, Z = self.n, self.names, self.Z
        d = Derivation(f"Cophenetic distance matrix of {N} instances")
        d.formula(r"P_{ij} = \text{the height at which } x_i \text{ and } x_j "
                  r"\text{ first share a cluster}",
                  "P_ij = the height of the merge that first puts x_i and x_j together")
        layout = leaf_layout(Z, N)
        shown = min(N - 1, MERGES_SHOWN)
        rows = []
        for k in range(shown):
            A, B = cluster_members(int(Z[k, 0]), layout), cluster_members(int(Z[k, 1]), layout)
            rows.append([k + 1, cluster_name(A, names), cluster_name(B, names),
                         float(Z[k, 2]), len(A) * len(B)])
        d.table(["merge", "cluster A", "cluster B", "height = P_ij for i in A, j in B",
                 "pairs set"], rows, caption="Reading the dendrogram, merge by merge",
                max_rows=shown)
        if N - 1 > shown:
            d.text(f"... and {N - 1 - shown} more merges.")
        if N <= 12:
            matrix_table(d, self.P, names, "The cophenetic distance matrix P")
        if (np.diff(Z[:, 2]) < 0).any():
            d.note("The tree has inversions (a merge lower than an earlier one, as centroid "
                   "and median linkage can give), so P need not be an ultrametric.")
        else:
            d.note("P is an ultrametric: P_ik <= max(P_ij, P_jk) for every i, j, k (the "
                   "merge joining i and k comes no later than the later of the two merges "
                   "joining i with j and j with k), so it also satisfies the triangle "
                   "inequality and is a metric when all heights are positive.")
        return d


def cophenetic_matrix(result_or_Z) -> CopheneticMatrix:
    """The cophenetic distance matrix: the height at which each pair first merges.

    .. math::
        P_{ij} = h_k, \\quad k = \\text{the merge that first puts } x_i
        \\text{ and } x_j \\text{ in one cluster}, \\qquad P_{ii} = 0.

    Without inversions (heights that never go down, as every linkage but
    centroid and median gives) it is an *ultrametric*:
    :math:`P_{ik} \\le \\max(P_{ij}, P_{jk})`.

    Parameters
    ----------
    result_or_Z : AgglomerativeResult or array_like, shape (N - 1, 4)
        A tree from :func:`agglomerative` or a SciPy linkage matrix (ids,
        heights, sizes; rows in merge order).

    Returns
    -------
    CopheneticMatrix
        Array-like (``np.asarray``, indexing, ``.shape``); ``.P`` is the N x N
        ndarray, ``.condensed()`` equals ``scipy.cluster.hierarchy.cophenet(Z)``.

    References
    ----------
    Sokal and Rohlf (*Taxon* 11, 1962), who compared dendrograms through P.

    Examples
    --------
    >>> from prayatul_edu import agglomerative, cophenetic_matrix
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> P = cophenetic_matrix(agglomerative(EXERCISE_4_D))
    >>> P[0].tolist(), P.shape
    ([0.0, 0.53, 0.53, 0.45, 0.65], (5, 5))
    """
    if isinstance(result_or_Z, AgglomerativeResult):
        Z, names = result_or_Z.linkage_matrix, result_or_Z.names
    else:
        Z = _check_linkage_matrix(result_or_Z, "result_or_Z")
        names = default_names(Z.shape[0] + 1)
    return CopheneticMatrix(cophenetic_distances(Z, Z.shape[0] + 1), Z, names)


# ---------------------------------------------------- cophenetic correlation
# The three sums are taken over *centred and scaled* values, so that nearly equal
# distances and distances near 1e-300 keep their correlation:
#   centring twice: c = x - mean(x) is exact for x close to the mean; the mean's own
#     rounding error is then removed by subtracting mean(c) (a second pass);
#   scaling by a power of two (exact) brings the largest |c| near 1, so the squares
#     neither underflow (scale 1e-300) nor lose the small differences; between 2^-100
#     and 2^100 no square can over- or underflow enough to matter, so no scaling
#     (scale 1, a pass saved) gives the same sums.
# CPCC is unchanged by both; the sums are reported back in the units of D and P.
class Centring:
    """How one variable is centred and scaled: ``(x - first - second) * scale``."""

    def __init__(self, first: float, second: float, scale: float):
        self.first, self.second, self.scale = first, second, scale

    @property
    def mean(self) -> float:
        return self.first + self.second

    def apply(self, x):
        out = np.subtract(x, self.first, order="C")   # a new array (rows contiguous: see
                                                       # _exact_total): the rest in place
        out -= self.second
        if self.scale != 1.0:
            out *= self.scale
        return out


#: Largest |c| in [2^-UNSCALED_EXPONENT, 2^UNSCALED_EXPONENT]: the values are not scaled.
UNSCALED_EXPONENT = 100


def _power_of_two_scale(largest: float) -> float:
    """2^-e with 2^(e-1) <= largest < 2^e: brings ``largest`` into [0.5, 1), exactly.
    1 when ``largest`` is far from both ends of the float range: squares of values up
    to 2^100 cannot overflow, and those that underflow below 2^-200 are too small to
    change a sum whose largest term is at least 2^-200 (every product is exact up to
    rounding, so scaling by a power of two changes nothing else)."""
    if not largest > 0:
        return 1.0
    exponent = int(np.frexp(largest)[1])
    if -UNSCALED_EXPONENT <= exponent <= UNSCALED_EXPONENT:
        return 1.0
    return float(np.ldexp(1.0, -exponent))


def _centring(values, weights=None) -> Centring:
    """The centring of ``values`` (each counted ``weights`` times, if given)."""
    total = len(values) if weights is None else float(np.sum(weights))
    first = float(np.average(values, weights=weights))
    c = values - first
    second = float(np.dot(c, weights) / total if weights is not None else c.mean())
    return Centring(first, second, _power_of_two_scale(float(np.abs(c - second).max())))


def _cpcc_sums_pairs(D: np.ndarray, P: np.ndarray):
    """The formula over the pairs i < j, on centred and scaled values."""
    pairs = np.triu_indices(D.shape[0], 1)          # every pair i < j once
    D_ij, P_ij = D[pairs], P[pairs]
    cd, cp = _centring(D_ij), _centring(P_ij)       # d, p: the means over the pairs
    dev_d, dev_p = cd.apply(D_ij), cp.apply(P_ij)   # (D_ij - d), (P_ij - p), scaled
    cross = np.sum(dev_d * dev_p)                   # sum (D_ij - d)(P_ij - p)
    ss_d = np.sum(dev_d ** 2)                       # sum (D_ij - d)^2
    ss_p = np.sum(dev_p ** 2)                       # sum (P_ij - p)^2
    return cd, cp, cross, ss_d, ss_p


#: Rows per block when summing over whole N x N matrices (a few MB of temporaries).
ROWS_BYTES = 4 * 2**20


def _blocks(N: int):
    rows = max(1, ROWS_BYTES // (8 * N))
    return range(0, N, rows), rows


def half_offdiagonal_dot(X: np.ndarray, cx: Centring, Y: np.ndarray, cy: Centring) -> float:
    """sum_{i<j} cx(X_ij) cy(Y_ij) for symmetric matrices: the sum over i != j, halved.

    Centred a block of rows at a time, so no N x N temporary is made. The diagonal
    is left out of the sum (not subtracted from it: its centred values, about
    -mean, would swamp the sum of values that all nearly equal the mean).
    """
    starts, rows = _blocks(X.shape[0])
    row_sums = []
    for start in starts:
        Xc = cx.apply(X[start:start + rows])
        Xc[np.arange(Xc.shape[0]), np.arange(start, start + Xc.shape[0])] = 0.0
        Yc = Xc if Y is X and cy is cx else cy.apply(Y[start:start + rows])
        np.multiply(Xc, Yc, out=Xc)               # Xc is a new array: its own to overwrite
        row_sums.append(Xc.sum(axis=1))           # pairwise along each row
    return _exact_total(row_sums) / 2


def _exact_total(parts) -> float:
    """The sum of the arrays ``parts`` (rows' totals), correctly rounded (``math.fsum``).

    A running total of millions of terms (``einsum``) is off by up to 2e-14 relative
    (N = 2000); NumPy sums each row of a C-ordered array pairwise (off by about
    1e-16; a transposed one in a running total again), and the rows' totals then add
    up without a further rounding error."""
    return math.fsum(np.concatenate(parts).tolist()) if parts else 0.0


def _pair_mean(X: np.ndarray) -> float:
    """Mean of a symmetric X over the pairs i < j: (whole sum - trace) / (N(N-1))."""
    N = X.shape[0]
    return float(X.sum() - np.trace(X)) / (N * (N - 1))


def _matrix_centring(X: np.ndarray, squares: bool = False):
    """The centring of a symmetric X's pairs i < j, a block of rows at a time.

    With ``squares`` also sum_{i<j} of the centred, scaled values squared, from the
    same pass: sum (c - second)^2 = sum c^2 - M second^2 over the M pairs, as
    ``second`` is the mean of the c = X - first (only at extreme scales, where the
    values are scaled, the squares are summed again in a second pass).
    """
    N = X.shape[0]
    first = _pair_mean(X)
    starts, rows = _blocks(N)
    totals, largest, squares_by_row = [], 0.0, []
    for start in starts:
        c = np.subtract(X[start:start + rows], first, order="C")
        c[np.arange(c.shape[0]), np.arange(start, start + c.shape[0])] = 0.0  # no diagonal
        totals.append(c.sum(axis=1))
        largest = max(largest, float(c.max()))
        if squares:
            with np.errstate(over="ignore"):      # at extreme scales: summed again below
                squares_by_row.append(np.multiply(c, c, out=c).sum(axis=1))  # by row
    total, sum_c2 = _exact_total(totals), _exact_total(squares_by_row)
    # X >= 0, so every c >= -first: the largest |c| is at most max(largest, first)
    # (a bound is enough: the scale only keeps the squares in range)
    second = total / (N * (N - 1))
    centring = Centring(first, second, _power_of_two_scale(max(largest, first) + abs(second)))
    if not squares:
        return centring
    if centring.scale != 1.0:
        return centring, half_offdiagonal_dot(X, centring, X, centring)
    return centring, (sum_c2 - N * (N - 1) * second * second) / 2


def _cpcc_sums_matrix(D: np.ndarray, P: np.ndarray):
    """The same sums from whole symmetric matrices, without a pair index (large N)."""
    cd, ss_d = _matrix_centring(D, squares=True)
    cp, ss_p = _matrix_centring(P, squares=True)
    return cd, cp, half_offdiagonal_dot(D, cd, P, cp), ss_d, ss_p


def _merge_pairs(Z: np.ndarray) -> np.ndarray:
    """|A| |B|: how many pairs each merge joins (they sum to N(N-1)/2)."""
    N = Z.shape[0] + 1
    size = np.ones(2 * N - 1)
    size[N:] = Z[:, 3]
    return size[Z[:, 0].astype(np.intp)] * size[Z[:, 1].astype(np.intp)]


class DistanceSums:
    """What the CPCC needs of D alone: the centring of its pairs and their sum of squares.

    The same for every tree of one D: an app comparing linkages of one data set
    makes it once and passes it to :func:`cophenetic_correlation` (``d_sums``)
    with that very D. Computed on first use (only trees of more than
    ``CPCC_PAIRS_MAX_N`` instances use it).
    """

    def __init__(self, D: np.ndarray):
        self.D = D
        self._sums = None

    def sums(self):
        """``(centring, sum_{i<j} of the centred, scaled D_ij squared)``."""
        if self._sums is None:
            self._sums = _matrix_centring(self.D, squares=True)
        return self._sums


def _cpcc_sums_tree(D: np.ndarray, Z: np.ndarray, d_sums: DistanceSums | None = None):
    """The same sums straight from the tree, never forming P (large N).

    Merge k of clusters A and B at height h_k sets P_ij = h_k on its
    |A||B| pairs, so p and sum (P_ij - p)^2 come from the merges alone, and
    sum (D_ij - d)(P_ij - p) = sum_k (h_k - p) S_k with
    S_k = sum_{i in A, j in B} (D_ij - d). S_k is read off the row sums
    R_A = sum_{i in A} (D_i - d), which merging just adds: O(N^2) in all.
    The rows are centred by the first pass's mean alone, when their leaf
    merges (one subtraction); the second pass's tiny correction is taken off
    each S_k at the end, |A||B| times. sum (D_ij - d)^2 comes with the centring.
    """
    N = D.shape[0]
    ids = Z[:, :2].astype(np.intp).tolist()
    heights = Z[:, 2]
    pairs = _merge_pairs(Z)                           # |A| |B| for every merge
    cp = _centring(heights, pairs)
    dev_p = cp.apply(heights)                         # (h_k - p), scaled
    ss_p = math.fsum((pairs * dev_p ** 2).tolist())
    cd, ss_d = (d_sums or DistanceSums(D)).sums()
    first, scale = cd.first, cd.scale

    def leaf_row(i: int) -> np.ndarray:               # (D_i - first), scaled
        row = D[i] - first
        if scale != 1.0:
            row *= scale
        return row

    members: list = [[i] for i in range(N)] + [None] * (N - 1)   # the clusters ...
    rows: list = [None] * (2 * N - 1)                 # ... and their R_A (leaves: when used)
    S = np.empty(N - 1)
    for k, (a, b) in enumerate(ids):
        A, B = members[a], members[b]
        if len(A) < len(B):                           # read R on the smaller side
            a, b, A, B = b, a, B, A
        R_A = rows[a] if a >= N else leaf_row(a)
        S[k] = R_A[B[0]] if len(B) == 1 else R_A[B].sum()   # sum_{A x B} (D_ij - first)
        if k < N - 2:                                 # the root's row is never needed
            R_A += rows[b] if b >= N else leaf_row(b)
            A += B
            members[N + k], rows[N + k] = A, R_A
            members[a] = members[b] = rows[a] = rows[b] = None
    S -= cd.second * scale * pairs                    # sum_{A x B} (D_ij - d)
    cross = math.fsum((dev_p * S).tolist())
    return cd, cp, cross, ss_d, ss_p


class CopheneticCorrelation(ScalarResult):
    """CPCC, with ``.d_mean``, ``.p_mean`` (means over pairs i < j), ``.cross``,
    ``.ss_d``, ``.ss_p`` (the three sums), ``.n_pairs``, ``.D`` and ``.P``."""

    @property
    def P(self) -> np.ndarray:
        """The cophenetic matrix (built from the tree on first access if it was not needed)."""
        if self._P is None:
            self._P = cophenetic_distances(self._Z, self.n)
        return self._P

    def derivation(self) -> Derivation:
        N, D = self.n, self.D
        d = Derivation(f"Cophenetic correlation coefficient CPCC = {fmt(self)}")
        d.formula(r"\text{CPCC} = \frac{\sum_{i<j} (D_{ij} - d)(P_{ij} - p)}"
                  r"{\sqrt{\sum_{i<j} (D_{ij} - d)^2 \,\sum_{i<j} (P_{ij} - p)^2}}, \quad "
                  r"d = \frac{1}{M}\sum_{i<j} D_{ij},\ p = \frac{1}{M}\sum_{i<j} P_{ij}",
                  "CPCC = sum_{i<j} (D_ij - d)(P_ij - p) / sqrt(sum_{i<j} (D_ij - d)^2 "
                  "* sum_{i<j} (P_ij - p)^2),  d, p = means over the M pairs i < j")
        dm, pm = self.d_mean, self.p_mean
        d.step(rf"M = {self.n_pairs},\quad d = {fmt(dm)},\quad p = {fmt(pm)}",
               f"M = {self.n_pairs} pairs,  d = {fmt(dm)},  p = {fmt(pm)}")
        if N <= FULL_TRACE_MAX_N:
            P, names = self.P, self.names
            rows = [[f"{names[i]}, {names[j]}", float(D[i, j]), float(P[i, j]),
                     float(D[i, j] - dm), float(P[i, j] - pm),
                     float((D[i, j] - dm) * (P[i, j] - pm))]
                    for i in range(N) for j in range(i + 1, N)]
            d.table(["pair i < j", "D_ij", "P_ij", "D_ij - d", "P_ij - p", "product"],
                    rows, caption="Every pair", max_rows=len(rows))
        d.step(rf"\sum (D_{{ij}} - d)(P_{{ij}} - p) = {fmt(self.cross)},\ "
               rf"\sum (D_{{ij}} - d)^2 = {fmt(self.ss_d)},\ "
               rf"\sum (P_{{ij}} - p)^2 = {fmt(self.ss_p)}",
               f"sum (D_ij - d)(P_ij - p) = {fmt(self.cross)},  sum (D_ij - d)^2 = "
               f"{fmt(self.ss_d)},  sum (P_ij - p)^2 = {fmt(self.ss_p)}")
        if np.isnan(self):
            d.note("CPCC is undefined (0/0): all distances, or all cophenetic distances, "
                   "are equal over the pairs.")
        else:
            d.step(rf"\text{{CPCC}} = \frac{{{fmt(self.cross)}}}{{\sqrt{{{fmt(self.ss_d)} "
                   rf"\times {fmt(self.ss_p)}}}}} = {fmt(self)}",
                   f"CPCC = {fmt(self.cross)} / sqrt({fmt(self.ss_d)} * {fmt(self.ss_p)}) "
                   f"= {fmt(self)}")
        note = ("The tutorial defines d and p as the averages of the non-zero entries of D "
                "and P; the correlation needs the means over the pairs i < j, as here. The "
                "two agree unless some pair is at distance 0.")
        M = self.n_pairs
        if self.zero_d or self.zero_p:
            d_nz = dm * M / (M - self.zero_d) if self.zero_d < M else float("nan")
            p_nz = pm * M / (M - self.zero_p) if self.zero_p < M else float("nan")
            note += (f" Here {self.zero_d} pair(s) have D_ij = 0 and {self.zero_p} have "
                     f"P_ij = 0, so the non-zero averages ({fmt(d_nz)} and {fmt(p_nz)}) "
                     "would be wrong.")
        d.note(note)
        return d


def _zero_pairs(X: np.ndarray) -> int:
    """How many pairs i < j have X_ij = 0."""
    return (int(np.count_nonzero(X == 0)) - int(np.count_nonzero(np.diagonal(X) == 0))) // 2


def cophenetic_correlation(D, cophenetic, *, d_sums: DistanceSums | None = None
                           ) -> CopheneticCorrelation:
    """Cophenetic correlation coefficient: Pearson's r between D and P over the pairs.

    .. math::
        \\text{CPCC} = \\frac{\\sum_{i<j} (D_{ij} - d)(P_{ij} - p)}
        {\\sqrt{\\sum_{i<j} (D_{ij} - d)^2 \\sum_{i<j} (P_{ij} - p)^2}}

    where ``d`` and ``p`` are the means of ``D_ij`` and ``P_ij`` over the
    ``M = N(N-1)/2`` pairs ``i < j``. (The tutorial says "the average of the
    non-zero elements", which is the same unless some off-diagonal entry is 0.)

    Parameters
    ----------
    D : array_like, N x N (or condensed)
        The original distances.
    cophenetic : AgglomerativeResult, CopheneticMatrix or array_like N x N (or condensed)
        The cophenetic distances, or a tree to compute them from.
    d_sums : DistanceSums, optional
        ``DistanceSums(D)`` of this very ``D`` (the tree's ``.D``), made once
        for several trees of one D so that the sums over D are not taken again
        for each (as the dendrogram app does when the linkage changes).

    Returns
    -------
    CopheneticCorrelation
        A float in [-1, 1] (NaN when D or P is constant over the pairs) with
        ``.d_mean``, ``.p_mean``, ``.cross``, ``.ss_d``, ``.ss_p``, ``.n_pairs``,
        ``.zero_d``, ``.zero_p`` (pairs at 0), ``.D`` and ``.P``.

    Notes
    -----
    Up to N = 1000 the sums run over the pairs i < j exactly as written. Above,
    a tree's sums are taken merge by merge without forming P (``.P`` is then
    built on first access), and a given P is summed as whole matrices. When
    ``D`` is the very object the tree was built from, or the tree's own
    ``.D``, it is not validated a second time. The value equals the first
    output of SciPy's ``cophenet(Z, Y)``.

    Exactness: the sums are taken over values centred twice (the second pass
    removes the rounding error of the mean) and scaled by a power of two, so
    distances that differ by a few ulp of their mean, or that are as small as
    1e-300, keep their correlation (SciPy, summing the raw values, gives NaN
    or 0/0 there). The result is NaN only when D or P is exactly constant over
    the pairs; no tolerance remains. Each sum is taken a row at a time
    (NumPy's pairwise summation) and the rows' totals are added exactly
    (``math.fsum``), so the CPCC is within 2 ulp of the exact value of the
    given floats, also for millions of pairs (one running total over them
    drifts to about 1e-14 relative). Heights that are equal in exact arithmetic
    but differ by an ulp after rounding (e.g. average linkage of a constant D)
    are not constant, but D then is, so the result is NaN as it should be.

    References
    ----------
    R. R. Sokal and F. J. Rohlf, "The comparison of dendrograms by objective
    methods", *Taxon* 11, 1962.

    Examples
    --------
    >>> from prayatul_edu import agglomerative, cophenetic_correlation
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> c = cophenetic_correlation(EXERCISE_4_D, agglomerative(EXERCISE_4_D))
    >>> round(float(c), 4), round(c.d_mean, 3), round(c.p_mean, 3)
    (0.7978, 0.745, 0.553)
    """
    tree = cophenetic if isinstance(cophenetic, AgglomerativeResult) else None
    if tree is not None and (D is tree.source or D is tree.D):
        D = tree.D                                    # validated when the tree was built
    else:
        D = check_distance_matrix(D, "D", allow_condensed=True)
    if d_sums is not None:
        if not isinstance(d_sums, DistanceSums):
            raise TypeError(f"d_sums: expected DistanceSums(D), got {type(d_sums).__name__}")
        if d_sums.D is not D:
            raise ValueError("d_sums: made for another D (give DistanceSums of this very D; "
                             "for a tree of a condensed D, DistanceSums(tree.D))")
    N = D.shape[0]
    P = Z = None
    if tree is not None:
        if tree.n != N:
            raise ValueError(f"D and cophenetic must describe the same instances, but D is "
                             f"{N} x {N} and the tree has {tree.n} leaves")
        Z, names = tree.linkage_matrix, tree.names
        if N <= CPCC_PAIRS_MAX_N:
            P = cophenetic_distances(Z, N)
    elif isinstance(cophenetic, CopheneticMatrix):
        P, Z, names = cophenetic.P, cophenetic.Z, cophenetic.names
    else:
        P = check_distance_matrix(cophenetic, "cophenetic", allow_condensed=True)
        names = default_names(P.shape[0])
    if P is not None and P.shape != D.shape:
        raise ValueError(f"D and cophenetic must describe the same instances, but have "
                         f"shapes {D.shape} and {P.shape}")
    if P is None:
        cd, cp, cross, ss_d, ss_p = _cpcc_sums_tree(D, Z, d_sums)
    elif N <= CPCC_PAIRS_MAX_N:
        cd, cp, cross, ss_d, ss_p = _cpcc_sums_pairs(D, P)
    else:
        cd, cp, cross, ss_d, ss_p = _cpcc_sums_matrix(D, P)
    M = comb2(N)                                      # the number of pairs i < j
    # 0/0 exactly when D or P is constant over the pairs (then every centred value is 0)
    constant = ss_d == 0 or ss_p == 0
    value = np.nan if constant else min(1.0, max(-1.0, cross / np.sqrt(ss_d * ss_p)))
    d, p = cd.mean, cp.mean
    # the sums in the units of D and P (the scaled ones above give the same CPCC; these
    # may overflow to inf or underflow to 0 at extreme scales, the CPCC does not)
    with np.errstate(over="ignore", under="ignore"):
        cross = float(np.float64(cross) / cd.scale / cp.scale)
        ss_d = float(np.float64(ss_d) / cd.scale / cd.scale)
        ss_p = float(np.float64(ss_p) / cp.scale / cp.scale)
    # pairs at distance 0 (the tutorial's "non-zero averages" would leave them out)
    if tree is not None and D is tree.D:
        zero_d = 0 if Z[0, 2] > 0 else _zero_pairs(D)   # Z[0, 2] is the smallest D_ij
    else:
        zero_d = _zero_pairs(D)
    if P is None:
        zero_p = int(_merge_pairs(Z)[Z[:, 2] == 0].sum())   # pairs set by merges at height 0
    else:
        zero_p = _zero_pairs(P)
    return CopheneticCorrelation(value, d_mean=float(d), p_mean=float(p), cross=float(cross),
                                 ss_d=float(ss_d), ss_p=float(ss_p), n_pairs=M,
                                 n=N, D=D, _P=P, _Z=Z, zero_d=zero_d, zero_p=zero_p,
                                 names=names)
