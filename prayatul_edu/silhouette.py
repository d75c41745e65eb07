"""The silhouette coefficient: how well each instance sits in its own cluster.

For an instance ``x_i`` in cluster ``C``, ``a_i`` is its average distance to the
other members of ``C`` (cohesion) and ``b_i`` its average distance to the
members of the nearest other cluster (separation). The silhouette
``s_i = (b_i - a_i) / max(a_i, b_i)`` lies in [-1, 1]: near 1 the instance is
well placed, near 0 it sits between two clusters, below 0 it is closer to
another cluster than to its own. Averages of ``s_i`` score a cluster and the
whole clustering.

Two implementations compute the same numbers:

* the plain one (:func:`_silhouette_plain`) builds the full N x N distance
  matrix and follows the tutorial's formulas point by point - the teaching code;
* the fast one (:func:`_silhouette_fast`) never holds N x N distances: it sorts
  the points by cluster and visits the (symmetric) distance matrix in square
  tiles on and above the diagonal, each tile adding its row sums to its rows and
  its column sums to its columns, per cluster; only the N x k sums, ``a_i``,
  ``b_i`` and the nearest cluster are kept (with very many clusters, blocks of
  whole rows instead). With Euclidean distances, a point's distances to a cluster
  that provably cannot be its nearest (bounds from the centroids, see
  :func:`_candidates`) are not computed at all, where that pays (256 or more
  coordinates, at most 32 clusters of 500 points or more on average). Distances come from
  ``scipy.spatial.distance.cdist``;
  Euclidean ones of 8 or more coordinates from one matrix product per tile
  (BLAS), with every near-duplicate pair recomputed from differences, so each
  distance keeps a relative error below ``(D + 2) 2**-53 / 2**-6`` (7e-12 at
  D = 1000; see :func:`_euclidean_gram`). Tiles run on a few threads, and their
  sums are added in one fixed order (the tasks'), so the same input gives the same
  bits whichever thread finishes first; memory stays near ``_BLOCK_BYTES`` per
  thread whatever N is.

Exactness
    Float32 input is converted to float64 first, and no distance comes from an
    uncorrected Gram matrix. scikit-learn's Euclidean ``silhouette_samples``
    computes every distance as ``sqrt(|x|^2 + |y|^2 - 2 x.y)``, which for
    duplicate or near-duplicate points is off by about 1e-8 (and more for
    float32 input); tests compare with an exact reference (``math.dist``,
    ``math.fsum``) there.

``silhouette(..., method="auto")`` takes the plain path up to
``PLAIN_MAX_N = 200`` instances and the fast one beyond.
"""
from __future__ import annotations

import os
import threading
from collections import deque
from functools import partial

import numpy as np

from ._threads import thread_pools
from ._validation import (check_choice, check_count, check_distance_matrix, check_features,
                          check_seed)
from .labels import check_labels_of
from .steps import MAX_TABLE_ROWS, Derivation, ScalarResult, fmt

__all__ = ["silhouette"]

#: ``method="auto"`` uses the plain (N x N) path up to this many instances.
PLAIN_MAX_N = 200

#: Bytes of distances one block of rows may hold in the fast path.
_BLOCK_BYTES = 4 * 2**20

#: At most this many threads (so at most this many blocks live at once).
_MAX_THREADS = 4

#: The symmetric tiles keep the sums of every point to every cluster (N x k floats)
#: when they fit in this many bytes; beyond, blocks of whole rows are reduced one by one.
_SUMS_BYTES = 64 * 2**20

#: Bytes of one tile of Gram-matrix distances: small enough for the CPU cache.
_GRAM_TILE_BYTES = 2**22

#: Bytes of the right sides ``[b, 1, |b|^2]`` made once for a panel of columns and
#: shared by every tile of the panel (each tile made its own before: 5-10% of the time
#: at D = 1000).
_PANEL_BYTES = 64 * 2**20

#: Euclidean distances from a point to a cluster are skipped when that cluster cannot
#: be the point's nearest (:func:`_candidates`), unless the distances still needed are
#: more than this fraction of all (then the regular tiles).
_PRUNE_MAX_AREA = 0.85

#: ... and only with at least this many points per cluster: the bounds cost about
#: 4 N k D operations, against N^2 D / 2 for the distances.
_PRUNE_POINTS_PER_CLUSTER = 500

#: ... and only where distances are dear and the pieces few: from this many coordinates
#: on, and up to this many clusters. Each skipped piece is a task of its own with a fixed
#: Python cost, which the saved arithmetic repays only then (measured: with 2,000 points
#: per cluster at D = 20, 40 to 300 clusters at D = 5 to 20, or 200 points per cluster at
#: D = 300, skipping was 1.4x to 16x slower than computing every distance).
_PRUNE_MIN_D = 256
_PRUNE_MAX_K = 32

#: A task of the symmetric tiles is a row of at most this many tiles: its row sums and
#: mirror sums wait, in the order of the tasks, to be added by the calling thread.
_TASK_TILES = 8

#: Euclidean distances come from a matrix product (BLAS) from this many coordinates on;
#: below, ``cdist`` of the differences is as fast.
_GRAM_MIN_D = 8

#: Pairs with d^2 below this fraction of |a|^2 + |b|^2 are recomputed from differences.
_GRAM_RTOL = 2.0**-6

#: Near-duplicate pairs recomputed per batch (bounds the memory of the differences).
_RECHECK_PAIRS = 1 << 14

#: Metric names accepted besides "precomputed": those of scipy.spatial.distance.cdist
#: (the same list in every SciPy >= 1.9 still supported by cdist in SciPy 1.17).
METRICS = ("braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine",
           "dice", "euclidean", "hamming", "jaccard", "jensenshannon", "mahalanobis",
           "minkowski", "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath",
           "sqeuclidean", "yule")


# ------------------------------------------------------------------ result
class Silhouette(ScalarResult):
    """The overall silhouette, with ``.a``, ``.b``, ``.samples`` (s_i),
    ``.nearest_cluster``, ``.per_cluster`` (aligned with ``.clusters``) and ``.labels``."""

    def derivation(self) -> Derivation:
        n, k = self.n, len(self.clusters)
        d = Derivation(f"Silhouette coefficient = {fmt(self)}")
        d.formula(r"a_i = \frac{1}{|C|-1}\sum_{x_j \in C,\ j \ne i} d(x_i, x_j), \quad "
                  r"b_i = \min_{C_k \ne C} \frac{1}{|C_k|}\sum_{x_j \in C_k} d(x_i, x_j), \quad "
                  r"s_i = \frac{b_i - a_i}{\max(a_i, b_i)}",
                  "a_i = (1/(|C|-1)) sum_{x_j in C, j != i} d(x_i, x_j) ;  "
                  "b_i = min_{C_k != C} (1/|C_k|) sum_{x_j in C_k} d(x_i, x_j) ;  "
                  "s_i = (b_i - a_i) / max(a_i, b_i)")
        d.formula(r"s_{C} = \frac{1}{|C|}\sum_{x_i \in C} s_i, \qquad "
                  r"s = \frac{1}{N}\sum_{i=1}^{N} s_i",
                  "s_C = (1/|C|) sum_{x_i in C} s_i ;  s = (1/N) sum_i s_i")
        if getattr(self, "sample", None) is not None:
            d.text(f"{n} instances in {k} clusters, distances: {self.metric}: a random "
                   f"sample (sample_size = {n}) of the rows of `X`; the points are x1, "
                   "x2, ... in the order drawn (`.sample` holds their rows).")
        else:
            d.text(f"{n} instances in {k} clusters, distances: {self.metric}. "
                   "The points are x1, x2, ... in the order of the rows of `X`.")
        self._worked_point(d)
        # Per-point table: only the first rows are shown, so only those are built.
        shown = min(n, MAX_TABLE_ROWS)
        rows = [[f"x{i + 1}", str(self.labels[i]), float(self.a[i]), float(self.b[i]),
                 str(self.nearest_cluster[i]), float(self.samples[i])] for i in range(shown)]
        d.table(["point x_i", "cluster", "a_i", "b_i", "nearest cluster", "s_i"], rows,
                total_rows=n)
        d.table(["cluster C", "|C|", "s_C"],
                [[str(c), int(m), float(v)]
                 for c, m, v in zip(self.clusters, self.sizes, self.per_cluster)])
        if n <= 12:
            terms = " + ".join(fmt(v) for v in self.samples).replace("+ -", "- ")
            d.step(rf"s = \frac{{1}}{{{n}}}({terms}) = {fmt(self)}",
                   f"s = (1/{n}) ({terms}) = {fmt(self)}")
        else:
            d.step(rf"s = \frac{{1}}{{{n}}}\sum_i s_i = \frac{{{fmt(self.samples.sum())}}}"
                   rf"{{{n}}} = {fmt(self)}",
                   f"s = (1/{n}) sum_i s_i = {fmt(self.samples.sum())} / {n} = {fmt(self)}")
        d.text("The overall value averages the points, not the clusters: "
               "s = sum_C (|C|/N) s_C, so a big cluster weighs more than a small one.")
        singletons = int((self.sizes == 1).sum())
        if singletons:
            d.note(f"{singletons} cluster(s) have a single member: a_i is undefined there "
                   "(no other member to average over, shown as nan) and s_i = 0 by "
                   "convention (Rousseeuw 1987; scikit-learn does the same).")
        if bool(((self.a == 0) & (self.b == 0)).any()):
            d.note("Some points have a_i = b_i = 0 (duplicate points): 0/0 is taken as s_i = 0.")
        return d

    def _worked_point(self, d: Derivation) -> None:
        """The formulas with the numbers of the first point, x1, plugged in."""
        avg, own = self._avg_point0, int(self._codes0)
        if self.sizes[own] > 1:
            d.step(rf"a_1 = \frac{{{fmt(self._sum_own0)}}}{{{int(self.sizes[own]) - 1}}} "
                   rf"= {fmt(self.a[0])}",
                   f"a_1 = {fmt(self._sum_own0)} / {int(self.sizes[own]) - 1} = {fmt(self.a[0])}")
        else:
            d.text("x1 is alone in its cluster, so a_1 is undefined and s_1 = 0.")
        # average distance from x1 to each other cluster, labelled by the cluster
        others = [f"{self.clusters[c]}: {fmt(avg[c])}" for c in range(len(avg)) if c != own]
        if len(others) > 8:
            others = others[:8] + ["..."]
        inner = ", ".join(others)
        d.step(rf"b_1 = \min(\text{{{inner}}}) = {fmt(self.b[0])}"
               rf"\ \text{{(cluster {self.nearest_cluster[0]})}}",
               f"b_1 = min({inner}) = {fmt(self.b[0])}  (cluster {self.nearest_cluster[0]})")
        if self.sizes[own] > 1:
            d.step(rf"s_1 = \frac{{{fmt(self.b[0])} - {fmt(self.a[0])}}}"
                   rf"{{\max({fmt(self.a[0])}, {fmt(self.b[0])})}} = {fmt(self.samples[0])}",
                   f"s_1 = ({fmt(self.b[0])} - {fmt(self.a[0])}) / max({fmt(self.a[0])}, "
                   f"{fmt(self.b[0])}) = {fmt(self.samples[0])}")


# ------------------------------------------------------------- validation
def _check_X(X, metric: str) -> np.ndarray:
    if metric == "precomputed":
        return check_distance_matrix(X, "X")
    return check_features(X, "X")


def _metric_params(X: np.ndarray, metric: str) -> dict:
    """Data-derived parameters, computed once from all of X (as scikit-learn does)."""
    if metric == "seuclidean":
        return {"V": np.var(X, axis=0, ddof=1)}
    if metric == "mahalanobis":
        try:
            return {"VI": np.linalg.inv(np.cov(X.T)).T}
        except np.linalg.LinAlgError:
            raise ValueError("X: the covariance matrix of X is singular, so the "
                             "mahalanobis distance is undefined") from None
    return {}


def _undefined_distance(metric: str, i: int) -> ValueError:
    return ValueError(f"X: the {metric} distance from x{i + 1} (row {i} of X) to some points "
                      "is NaN or infinite (e.g. an all-zero row with cosine or correlation)")


# --------------------------------------------------------------- the plain path
def _silhouette_plain(D: np.ndarray, codes: np.ndarray, k: int):
    """The tutorial's formulas, point by point, on the full distance matrix ``D``."""
    n = D.shape[0]
    a = np.empty(n)
    b = np.empty(n)
    nearest = np.empty(n, dtype=np.intp)
    for i in range(n):
        C = codes[i]                                     # x_i's own cluster
        mates = codes == C
        mates[i] = False                                 # the other members of C
        # a_i: average distance to the other members of C (undefined if |C| = 1)
        a[i] = D[i, mates].mean() if mates.any() else np.nan
        # average distance from x_i to every other cluster C_k
        avg_to = np.full(k, np.inf)
        for c in range(k):
            if c != C:
                avg_to[c] = D[i, codes == c].mean()
        nearest[i] = np.argmin(avg_to)                   # the nearest other cluster
        b[i] = avg_to[nearest[i]]                        # b_i = min_k avg distance to C_k
    return a, b, nearest


def _distances(X, metric, params):
    """The full N x N matrix (plain path) from features or as given."""
    if metric == "precomputed":
        return X
    from scipy.spatial.distance import cdist

    return cdist(X, X, metric, **params)


# ---------------------------------------------------------------- the fast path
def _n_threads(blocks: int) -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, _MAX_THREADS, blocks))


def _run_blocks(task, starts, then=None) -> None:
    """``task(start)`` for every start, on a few threads (NumPy, SciPy, BLAS release the GIL),
    and ``then(result)`` for each result on the calling thread, in the order of ``starts``
    whatever order the threads finish in (so sums built by ``then`` never depend on timing).

    At most two tasks per thread are ahead of the result handed to ``then``, so no more
    results than that are held at once. BLAS itself runs on one thread meanwhile: the
    products of a tile are small, and BLAS's own threads would wait for each other at
    every one of them.
    """
    threads = _n_threads(len(starts))
    then = then or (lambda result: None)
    with thread_pools().limit(limits=1, user_api="blas"):
        if threads == 1:
            for r0 in starts:
                then(task(r0))
            return
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=threads) as pool:
            ahead = deque()
            try:
                for r0 in starts:
                    ahead.append(pool.submit(task, r0))
                    if len(ahead) > 2 * threads:
                        then(ahead.popleft().result())
                while ahead:
                    then(ahead.popleft().result())
            except BaseException:
                for future in ahead:                     # not started: not run
                    future.cancel()
                raise


def _gram_side(P: np.ndarray, centre: np.ndarray, left: bool,
               rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One side of :func:`_euclidean_gram`: ``[-2a, |a|^2, 1]`` (left) or ``[b, 1, |b|^2]``
    (right) for the points ``P`` (or ``P[rows]``, gathered a chunk at a time, so no
    copy of them is made) shifted by ``centre``, and the squared norms."""
    n_rows = P.shape[0] if rows is None else rows.shape[0]
    dim = P.shape[1]
    M = np.empty((n_rows, dim + 2))
    if rows is None:
        np.subtract(P, centre, out=M[:, :dim])
    else:
        for c0 in range(0, n_rows, _GATHER_ROWS):
            np.subtract(np.asarray(P[rows[c0:c0 + _GATHER_ROWS]], dtype=float), centre,
                        out=M[c0:c0 + _GATHER_ROWS, :dim])
    norms = np.einsum("ij,ij->i", M[:, :dim], M[:, :dim])
    if left:
        M[:, :dim] *= -2.0
    M[:, dim] = norms if left else 1.0
    M[:, dim + 1] = 1.0 if left else norms
    return M, norms


#: Rows gathered at a time when a side is built from ``P[rows]``.
_GATHER_ROWS = 1024


def _euclidean_gram(XA, XB, centre, left=None, right=None, same=False,
                    out=None) -> np.ndarray:
    """Euclidean distances between the rows of ``XA`` and ``XB`` by one matrix product.

    Shifted by a common ``centre`` (no distance changes, the norms stay small),
    ``a = x - centre`` and ``b = y - centre`` give
    ``d^2 = |a|^2 + |b|^2 - 2 a.b``: the rows ``[-2a, |a|^2, 1]`` times the rows
    ``[b, 1, |b|^2]``, so BLAS returns ``d^2`` directly. Its rounding error is at
    most about ``2 (D + 2) u (|a|^2 + |b|^2)`` (u = 2**-53), large *relative* to
    ``d^2`` only for near-duplicate points, so every pair with
    ``d^2 < _GRAM_RTOL (|a|^2 + |b|^2)`` (and every negative one) is recomputed
    from the differences of the original points. Each distance then has a
    relative error below ``(D + 2) u / _GRAM_RTOL`` (7e-12 at D = 1000).
    ``left`` and ``right`` are the sides from :func:`_gram_side` when the caller
    already has them (a row of tiles shares its left side, a panel of columns its
    right sides); ``XA`` and ``XB`` may then be functions giving the points, called
    only if some pair is recomputed. ``same``: XA and XB are the same points, so the
    diagonal is 0 (set, not recomputed). ``out``: where to write the distances.
    """
    L, na = left if left is not None else _gram_side(XA, centre, True)
    R, nb = right if right is not None else _gram_side(XB, centre, False)
    d2 = np.matmul(L, R.T, out=out)
    if same:
        np.fill_diagonal(d2, np.inf)                     # not a near duplicate: itself
    # rows that may hold a near duplicate (a cheap bound first, then the exact test)
    maybe = np.flatnonzero(d2.min(axis=1) < _GRAM_RTOL * (na + nb.max()))
    if maybe.size:
        sub = d2[maybe]
        r, c = np.nonzero(sub < _GRAM_RTOL * np.add.outer(na[maybe], nb))
        r = maybe[r]
        if r.size:
            XA = XA() if callable(XA) else XA
            XB = XB() if callable(XB) else XB
        for c0 in range(0, r.shape[0], _RECHECK_PAIRS):
            rr, cc = r[c0:c0 + _RECHECK_PAIRS], c[c0:c0 + _RECHECK_PAIRS]
            diff = XA[rr] - XB[cc]
            d2[rr, cc] = np.einsum("ij,ij->i", diff, diff)
    np.sqrt(d2, out=d2)
    if same:
        np.fill_diagonal(d2, 0.0)
    return d2


def _segments(sorted_codes: np.ndarray, r0: int, r1: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each cluster starts inside rows ``r0:r1`` (offsets), and which cluster it is."""
    block = sorted_codes[r0:r1]
    first = np.flatnonzero(np.concatenate(([True], block[1:] != block[:-1])))
    return first, block[first]


def _segment_sums(D: np.ndarray, first: np.ndarray, axis: int) -> np.ndarray:
    """``np.add.reduceat(D, first, axis)``: one contiguous sum per segment (faster for few)."""
    if first.shape[0] > 16:
        return np.add.reduceat(D, first, axis=axis)
    bounds = np.append(first, D.shape[axis])
    parts = [(D[:, lo:hi] if axis == 1 else D[lo:hi]).sum(axis=axis)
             for lo, hi in zip(bounds[:-1], bounds[1:])]
    return np.stack(parts, axis=axis)


def _check_finite(sums, D, metric, idx) -> None:
    """Every distance in the rows of ``D`` (points ``idx``) is finite, checked on
    ``sums``, their sums per row and cluster (cheaper than the tile): the distances are
    >= 0, so a NaN or inf among them makes its sum NaN or inf."""
    if np.isfinite(sums).all():
        return
    bad = ~np.isfinite(D).all(axis=1)
    if bad.any():
        raise _undefined_distance(metric, int(idx[int(np.flatnonzero(bad)[0])]))


def _work_with_candidates(candidate: np.ndarray, sizes: np.ndarray, tile: int):
    """The distances to compute when only ``candidate`` (N x k, sorted rows) are needed.

    Tiles are cut at cluster boundaries. For each pair of clusters a < c, either every
    distance between them (one tile pass serves both sides: the mirror) or, when it is
    fewer, only the rows of a that need c and the rows of c that need a. Returns the
    cuts, ``full`` (k x k: pairs done whole), ``subsets`` ({(a, c): sorted positions of
    the rows of a that need c}) and ``complete`` (N x k: the sums that are whole), or
    None when the saving is small.
    """
    n, k = candidate.shape
    ends = np.cumsum(sizes)
    starts = ends - sizes
    # rows of cluster a needing c: counts per pair
    counts = np.add.reduceat(candidate, starts, axis=0, dtype=np.int64)
    full = np.zeros((k, k), dtype=bool)
    subsets = {}
    cost = float((sizes.astype(float) ** 2).sum()) / 2
    for a in range(k):
        for c in range(a + 1, k):
            need_a, need_c = int(counts[a, c]), int(counts[c, a])
            if not need_a and not need_c:
                continue
            whole = float(sizes[a]) * float(sizes[c])
            part = need_a * float(sizes[c]) + need_c * float(sizes[a])
            if whole <= part:
                full[a, c] = full[c, a] = True
                cost += whole
                continue
            cost += part
            for x, y, m in ((a, c, need_a), (c, a, need_c)):
                if m:
                    subsets[(x, y)] = starts[x] + np.flatnonzero(candidate[starts[x]:ends[x], y])
    if cost > _PRUNE_MAX_AREA * n * n / 2:
        return None
    np.fill_diagonal(full, True)
    codes = np.repeat(np.arange(k), sizes)
    complete = full[codes]
    for (x, y), pos in subsets.items():
        complete[pos, y] = True
    cuts = sorted({int(v) for s0, e in zip(starts, ends) for v in range(s0, e, tile)} | {n})
    return np.array(cuts), full, subsets, complete


def _centroid_bounds(Y, ny, mu, nm, err) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of ``|y - m|`` for the points ``Y`` (squared norms ``ny``,
    a column) and every centroid ``m`` (the rows of ``mu``, squared norms ``nm``): the
    Gram-matrix form, widened by its rounding error (as in :func:`_euclidean_gram`,
    doubled) and by ``err``, the centroids' own."""
    d2 = ny - 2 * (Y @ mu.T) + nm
    slack = 4 * (Y.shape[1] + 2) * 2.0**-53 * (ny + nm)
    lo = np.sqrt(np.maximum(d2 - slack, 0.0)) - err
    hi = np.sqrt(np.maximum(d2 + slack, 0.0, out=d2), out=d2) + err
    return lo, hi


def _candidates(X, codes, order, sizes, k) -> np.ndarray:
    r"""N x k booleans, rows in ``order``: the Euclidean distances from point i to the
    members of cluster c are needed.

    They are needed for i's own cluster (``a_i``) and where c may be i's nearest
    other cluster (``b_i``). With ``m`` the centroid
    of c' and ``r^2`` the mean squared distance of its members to ``m``, the mean
    distance from ``x`` to the members of c' lies between

    .. math::
        |x - m| \le \frac{1}{|C'|} \sum_{y \in C'} |x - y|
        \le \sqrt{|x - m|^2 + r^2}

    (the norm is convex; the mean square is exactly ``|x - m|^2 + r^2``). A cluster
    whose lower bound is above the smallest upper bound of another cannot give
    ``b_i``. The bounds are widened by every rounding error of their computation
    (the Gram-matrix bound of :func:`_euclidean_gram` and the centroids' own), so
    skipping never changes a result. The radii need every point's bound to its own
    centroid first: the bounds of a block of ``_GATHER_ROWS`` rows are made in a first
    pass for the radii (only the own one kept) and again in a second for the candidates,
    so no N x k bounds are held.
    """
    n, dim = X.shape
    onehot = np.zeros((n, k))
    onehot[np.arange(n), codes] = 1.0
    mu = onehot.T @ X                                   # sums per cluster, then centroids
    mu /= sizes[:, None]
    del onehot
    scale = max(abs(float(X.max())), abs(float(X.min())))
    # a bound on each centroid's error (sums of at most n terms of at most `scale`)
    err = 2 * (n + dim + 2) * 2.0**-53 * scale * np.sqrt(dim)
    nm = np.einsum("ij,ij->i", mu, mu)
    ny = np.empty(n)                                     # squared norms of the points

    def bounds(r0):
        """The rows of a block, their clusters and their bounds to every centroid."""
        own = codes[r0:r0 + _GATHER_ROWS]
        r1 = r0 + own.shape[0]
        return np.arange(own.shape[0]), own, *_centroid_bounds(X[r0:r1], ny[r0:r1, None],
                                                               mu, nm, err)

    r2 = np.zeros(k)                                     # mean squared radius, bounded
    for r0 in range(0, n, _GATHER_ROWS):
        Y = X[r0:r0 + _GATHER_ROWS]
        ny[r0:r0 + Y.shape[0]] = np.einsum("ij,ij->i", Y, Y)
        rows, own, _, hi = bounds(r0)
        r2 += np.bincount(own, weights=hi[rows, own] ** 2, minlength=k)
    r2 /= sizes
    candidate = np.empty((n, k), dtype=bool)
    for r0 in range(0, n, _GATHER_ROWS):
        rows, own, lo, hi = bounds(r0)
        upper = np.sqrt(hi * hi + r2) * (1 + 1e-9)
        upper[rows, own] = np.inf                        # b_i: the other clusters only
        block = lo * (1 - 1e-9) <= upper.min(axis=1)[:, None]
        block[rows, own] = True                          # a_i: always
        candidate[r0:r0 + own.shape[0]] = block
    return candidate[order]


def _silhouette_fast(X, codes, k, metric, params, block_rows: int | None = None):
    """Same numbers as :func:`_silhouette_plain`, in blocks, never N x N.

    Points are sorted by cluster, so the distances of a row to the members of
    cluster ``c`` are one contiguous slice and ``np.add.reduceat`` sums them.
    When the sums of every point to every cluster fit in ``_SUMS_BYTES``, the
    distance matrix is visited in square tiles on and above the diagonal only
    (it is symmetric): each tile adds its row sums to its rows and its column
    sums to its columns, half the distances of a row-by-row pass. Otherwise
    blocks of whole rows are summed and reduced one at a time. Euclidean
    distances of points with ``_GRAM_MIN_D`` or more coordinates come from a
    matrix product (:func:`_euclidean_gram`), the others from ``cdist``; with
    Euclidean tiles, the distances from a point to a cluster that cannot be its
    nearest (:func:`_candidates`) are skipped (their sums are never read).
    """
    from scipy.spatial.distance import cdist

    n = codes.shape[0]
    sizes = np.bincount(codes, minlength=k)
    order = np.argsort(codes, kind="stable")            # points grouped by cluster
    sorted_codes = codes[order]
    gram = metric == "euclidean" and X.shape[1] >= _GRAM_MIN_D

    def points(r0, r1):
        """Sorted points r0:r1 (gathered per block: X is never copied whole)."""
        return np.asarray(X[order[r0:r1]], dtype=float)

    centre = X.mean(axis=0) if gram else None

    def distances(idx, c0, c1, XA=None, left=None, right=None, same=False, out=None):
        """Distances of the points ``X[idx]`` to sorted points c0:c1. A tile passes what
        its row and column already prepared: the points ``XA`` (``cdist``) or the Gram
        sides ``left`` and ``right``, ``same`` (the same points) and ``out``, its
        thread's buffer for them; a block of whole rows passes none of them."""
        if metric == "precomputed":
            return X[np.ix_(idx, order[c0:c1])]
        if gram:
            if left is None:                             # a block: both sides made here
                return _euclidean_gram(np.asarray(X[idx], dtype=float), points(c0, c1),
                                       centre)
            # a tile: the points are gathered only if some pair is recomputed
            return _euclidean_gram(partial(np.take, X, idx, axis=0), partial(points, c0, c1),
                                   centre, left=left, right=right, same=same, out=out)
        XA = np.asarray(X[idx], dtype=float) if XA is None else XA
        return cdist(XA, points(c0, c1), metric, out=out, **params)

    intra = np.empty(n)                                  # sum of distances to own cluster
    b = np.empty(n)
    nearest = np.empty(n, dtype=np.intp)

    def reduce_rows(r0: int, sums: np.ndarray) -> None:
        """a, b and the nearest cluster of rows r0.. from their sums to every cluster."""
        rows = np.arange(sums.shape[0])
        own = sorted_codes[r0:r0 + sums.shape[0]]
        intra[r0:r0 + rows.shape[0]] = sums[rows, own]
        sums /= sizes                                    # average distance to each cluster
        sums[rows, own] = np.inf                         # b_i looks at other clusters only
        near = sums.argmin(axis=1)
        nearest[r0:r0 + rows.shape[0]] = near
        b[r0:r0 + rows.shape[0]] = sums[rows, near]

    if n * k * 8 <= _SUMS_BYTES:                         # symmetric tiles
        tile_bytes = _GRAM_TILE_BYTES if gram else _BLOCK_BYTES
        tile = block_rows or max(1, int((tile_bytes // 8) ** 0.5))
        tile = min(tile, n)
        sums = np.zeros((n, k))
        buffers = threading.local()

        def tile_buffer(rows: int, cols: int) -> np.ndarray | None:
            """The calling thread's buffer for the distances of a tile, made once: a
            fresh 4 MB array for every tile made the allocator hand its pages back to the
            system and fault them in again (1.3x the time at D = 2 on one thread)."""
            if metric == "precomputed":
                return None
            if getattr(buffers, "tile", None) is None:
                buffers.tile = np.empty(tile * tile)
            return buffers.tile[:rows * cols].reshape(rows, cols)
        # Euclidean: distances from a point to a cluster that cannot be its nearest are
        # skipped; tiles then never straddle two clusters (see _work_with_candidates)
        work = None
        if (metric == "euclidean" and 2 < k <= min(_PRUNE_MAX_K, n // _PRUNE_POINTS_PER_CLUSTER)
                and X.shape[1] >= _PRUNE_MIN_D):
            work = _work_with_candidates(_candidates(X, codes, order, sizes, k), sizes, tile)
        if work is None:
            cuts = np.array(list(range(0, n, tile)) + [n])
        else:
            cuts, full, subsets, complete = work

        # Gram: the right sides of a panel of columns (whole tiles) are made once, for
        # every row of tiles that meets the panel
        n_tiles = len(cuts) - 1
        panels = [0]
        for j in range(n_tiles):
            if gram and (cuts[j + 1] - cuts[panels[-1]]) * 8 * (X.shape[1] + 2) > _PANEL_BYTES \
                    and j > panels[-1]:
                panels.append(j)
        panels.append(n_tiles)
        tile_cluster = sorted_codes[cuts[:-1]]

        def tasks(j0: int, j1: int) -> list:
            """(rows, [(c0, c1, mirror), ...]) for the columns of tiles j0:j1, at most
            ``_TASK_TILES`` tiles a task; rows are a range (r0, r1) of sorted points, or an
            array of sorted positions."""
            out = []

            def chunked(rows, cols):
                out.extend((rows, cols[t:t + _TASK_TILES])
                           for t in range(0, len(cols), _TASK_TILES))

            for i in range(j1):
                a = tile_cluster[i]
                chunked((int(cuts[i]), int(cuts[i + 1])),
                        [(int(cuts[j]), int(cuts[j + 1]), j != i)
                         for j in range(max(i, j0), j1)
                         if work is None or tile_cluster[j] == a or full[a, tile_cluster[j]]])
            if work is not None:                         # rows that need a cluster alone
                for (a, c), pos in subsets.items():
                    cols = [(int(cuts[j]), int(cuts[j + 1]), False)
                            for j in range(j0, j1) if tile_cluster[j] == c]
                    if cols:
                        for p in range(0, pos.shape[0], tile):
                            chunked(pos[p:p + tile], cols)
            return out

        def run(task, p0: int, right) -> tuple:
            """The sums of a task's tiles: (rows, [(c0, c1, clusters of c0:c1, rows' sums
            to them, clusters of the rows, mirror: columns' sums to them or None), ...])."""
            rows, cols = task
            seg_r = clu_r = None
            if isinstance(rows, tuple):
                r0, r1 = rows
                idx = order[r0:r1]
                seg_r, clu_r = _segments(sorted_codes, r0, r1)
            else:
                idx = order[rows]
            # the rows' side, made once a task (Gram: straight from X, no copy of the points)
            XA = None if gram or metric == "precomputed" else np.asarray(X[idx], dtype=float)
            left = _gram_side(X, centre, True, idx) if gram else None
            out = []
            for c0, c1, mirror in cols:
                sides = (right[0][c0 - p0:c1 - p0], right[1][c0 - p0:c1 - p0]) if gram else None
                same = isinstance(rows, tuple) and c0 == r0 and c1 == r1
                D = distances(idx, c0, c1, XA, left, sides, same,
                              tile_buffer(idx.shape[0], c1 - c0))
                seg_c, clu_c = _segments(sorted_codes, c0, c1)
                to_cols = _segment_sums(D, seg_c, axis=1)         # rows -> clusters of c
                _check_finite(to_cols, D, metric, idx)
                to_rows = _segment_sums(D, seg_r, axis=0).T if mirror else None
                del D                                    # the next tile reuses its buffer
                out.append((c0, c1, clu_c, to_cols, clu_r, to_rows))
            return rows, out

        def add(result) -> None:
            """A task's sums into ``sums``, tile by tile: on the calling thread, in the
            order of the tasks (floating-point sums depend on their order)."""
            rows, out = result
            for c0, c1, clu_c, to_cols, clu_r, to_rows in out:
                if isinstance(rows, tuple):
                    sums[rows[0]:rows[1], clu_c] += to_cols
                else:
                    sums[rows[:, None], clu_c] += to_cols
                if to_rows is not None:                                # the mirror tile
                    sums[c0:c1, clu_r] += to_rows

        for j0, j1 in zip(panels[:-1], panels[1:]):
            todo = tasks(j0, j1)
            p0, p1 = int(cuts[j0]), int(cuts[j1])
            right = _gram_side(X, centre, False, order[p0:p1]) if gram else None
            _run_blocks(partial(run, p0=p0, right=right), todo, then=add)
            del right
        if work is not None:                             # sums not taken: not b_i
            sums[~complete] = np.inf
        reduce_rows(0, sums)
    else:                                                # blocks of whole rows
        if block_rows is None:
            block_rows = max(1, _BLOCK_BYTES // (8 * max(n, k)))
        block_rows = min(block_rows, n)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))  # first point of each cluster

        def block(r0: int) -> None:
            r1 = min(n, r0 + block_rows)
            D = distances(order[r0:r1], 0, n)
            sums = np.add.reduceat(D, starts, axis=1)
            _check_finite(sums, D, metric, order[r0:r1])
            del D
            reduce_rows(r0, sums)

        _run_blocks(block, range(0, n, block_rows))
    with np.errstate(invalid="ignore", divide="ignore"):
        a_sorted = np.where(sizes[sorted_codes] > 1,
                            intra / np.maximum(sizes[sorted_codes] - 1, 1), np.nan)
    # back to the caller's order
    a = np.empty(n)
    a[order] = a_sorted
    b_out = np.empty(n)
    b_out[order] = b
    near_out = np.empty(n, dtype=np.intp)
    near_out[order] = nearest
    return a, b_out, near_out


def _s_from_ab(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """s_i = (b_i - a_i) / max(a_i, b_i); 0 for singletons (a_i = nan) and for 0/0."""
    s = np.zeros(a.shape[0])
    denom = np.maximum(a, b)
    ok = ~np.isnan(a) & (denom > 0)
    s[ok] = (b[ok] - a[ok]) / denom[ok]
    return s


# ------------------------------------------------------------------ public
def _sample(n: int, sample_size, random_state) -> np.ndarray:
    """The rows of scikit-learn's ``silhouette_score(..., sample_size=, random_state=)``:
    the first ``sample_size`` of a random permutation of the N rows, drawn by
    ``numpy.random.RandomState(random_state)`` (or the Generator / RandomState given)."""
    m = check_count(sample_size, "sample_size", minimum=2)
    if m > n:
        raise ValueError(f"sample_size: at most the N = {n} rows of X, got {m}")
    if isinstance(random_state, np.random.Generator):
        return random_state.permutation(n)[:m]
    if not isinstance(random_state, np.random.RandomState):
        if random_state is not None:
            check_seed(None, random_state=random_state)    # a clear error for a bad seed
        random_state = np.random.RandomState(random_state)
    return random_state.permutation(n)[:m]


def silhouette(X, labels, *, metric: str = "euclidean", method: str = "auto",
               sample_size: int | None = None, random_state=None) -> Silhouette:
    """Silhouette coefficient of a clustering: per point, per cluster and overall.

    For ``x_i`` in cluster ``C``:

    .. math::
        a_i = \\frac{1}{|C| - 1} \\sum_{x_j \\in C,\\, j \\ne i} d(x_i, x_j), \\qquad
        b_i = \\min_{C_k \\ne C} \\frac{1}{|C_k|} \\sum_{x_j \\in C_k} d(x_i, x_j),

    .. math::
        s_i = \\frac{b_i - a_i}{\\max(a_i, b_i)}, \\qquad
        s_C = \\frac{1}{|C|} \\sum_{x_i \\in C} s_i, \\qquad
        s = \\frac{1}{N} \\sum_{i=1}^{N} s_i .

    A point alone in its cluster has no ``a_i`` (reported as NaN) and gets
    ``s_i = 0`` (Rousseeuw's convention, as in scikit-learn); so does a point
    with ``a_i = b_i = 0``. The same numbers as scikit-learn's
    ``silhouette_samples`` / ``silhouette_score`` (to 1e-12), except where its
    Euclidean distances lose digits: duplicate or near-duplicate points and
    float32 input, where it is off by about 1e-8 and this function stays
    within 1e-10 of an exact computation (Euclidean distances of 8 or more
    coordinates come from a Gram matrix, near duplicates redone from
    differences: each distance has a relative error below ``(D + 2) 2**-53 / 2**-6``).

    Parameters
    ----------
    X : array of shape (N, d), or (N, N) with ``metric="precomputed"``
        The instances (finite numbers), or their distance matrix (square,
        symmetric, non-negative, zero diagonal).
    labels : sequence of hashable labels, length N
        The clustering; it needs between 2 and N - 1 clusters.
    metric : str, default "euclidean"
        ``"precomputed"`` or a metric name of ``scipy.spatial.distance.cdist``
        (see ``METRICS``). ``seuclidean`` and ``mahalanobis`` take their variances
        / inverse covariance from all of ``X``, as scikit-learn does.
    method : {"auto", "plain", "fast"}, default "auto"
        ``"plain"`` builds the N x N distance matrix and follows the formulas
        point by point (the teaching code); ``"fast"`` works in blocks of rows,
        never holding N x N distances, on a few threads, and with Euclidean
        distances skips those from a point to clusters that cannot be its
        nearest (bounds from the centroids; no result changes) when D >= 256 and
        there are at most 32 clusters of 500 points or more on average. ``"auto"`` is
        plain up to ``PLAIN_MAX_N = 200`` instances, fast beyond.
    sample_size : int, optional
        Compute the silhouette of a random sample of this many rows only (scikit-learn's
        ``silhouette_score(..., sample_size=)``): the sample is the rest's data set
        (N below is the sample's size, ``.sample`` the rows drawn, in the order drawn).
    random_state : None, int, ``numpy.random.RandomState`` or ``numpy.random.Generator``
        Draws the sample; an int or a RandomState draws the same rows as scikit-learn.

    Returns
    -------
    Silhouette
        A float in [-1, 1] (the overall ``s``, also ``.score``) with ``.samples``
        (s_i), ``.a``, ``.b``, ``.nearest_cluster`` (label of the cluster giving
        b_i), ``.per_cluster`` (s_C, aligned with ``.clusters``), ``.sizes``,
        ``.labels`` (each point's label) and ``.sample`` (the rows drawn by
        ``sample_size``, else None).

    References
    ----------
    P. J. Rousseeuw, "Silhouettes: a graphical aid to the interpretation and
    validation of cluster analysis", J. Comput. Appl. Math. 20 (1987) 53-65;
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.2.

    Examples
    --------
    The tutorial's Exercise 1 (distances given, C1 = {x1, x2}, C2 = {x3, x4}):

    >>> from prayatul_edu import silhouette
    >>> D = [[0, .10, .65, .55], [.10, 0, .70, .60], [.65, .70, 0, .90], [.55, .60, .90, 0]]
    >>> s = silhouette(D, [1, 1, 2, 2], metric="precomputed")
    >>> s.a.round(4).tolist(), s.b.round(4).tolist()
    ([0.1, 0.1, 0.9, 0.9], [0.6, 0.65, 0.675, 0.575])
    >>> s.samples.round(4).tolist(), s.per_cluster.round(4).tolist(), round(float(s), 4)
    ([0.8333, 0.8462, -0.25, -0.3611], [0.8397, -0.3056], 0.2671)
    """
    if not isinstance(metric, str):
        raise TypeError(f"metric: expected a metric name (str), got {type(metric).__name__}")
    check_choice(metric, "metric", ("precomputed",) + METRICS)
    check_choice(method, "method", ("auto", "plain", "fast"))
    X = _check_X(X, metric)
    lab = check_labels_of(labels, X.shape[0], f"X has {X.shape[0]} rows")
    sample = None
    if sample_size is not None:
        sample = _sample(X.shape[0], sample_size, random_state)
        X = X[np.ix_(sample, sample)] if metric == "precomputed" else X[sample]
        lab = check_labels_of(lab.values[lab.codes[sample]], sample.shape[0],
                              f"the sample has {sample.shape[0]} rows")
    elif random_state is not None:
        raise ValueError("random_state: draws the rows of sample_size; give sample_size too")
    n, k = X.shape[0], lab.k
    if not 2 <= k <= n - 1:
        raise ValueError(f"labels: silhouette needs between 2 and N-1 clusters; got {k} "
                         f"cluster{'s' if k != 1 else ''} for N = {n} instances"
                         + (" of the sample (sample_size)" if sample is not None else ""))
    codes = lab.codes
    params = _metric_params(X, metric) if metric != "precomputed" else {}
    if method == "auto":
        method = "plain" if n <= PLAIN_MAX_N else "fast"
    if method == "plain":
        with np.errstate(invalid="ignore", divide="ignore"):
            D = _distances(X, metric, params)
        if not np.isfinite(D).all():
            raise _undefined_distance(metric, int(np.argwhere(~np.isfinite(D))[0][0]))
        a, b, nearest = _silhouette_plain(D, codes, k)
        row0 = D[0]
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            a, b, nearest = _silhouette_fast(X, codes, k, metric, params)
        if metric == "precomputed":
            row0 = X[0]
        else:
            from scipy.spatial.distance import cdist

            row0 = cdist(X[:1], X, metric, **params)[0]
    s = _s_from_ab(a, b)                                 # s_i
    sizes = lab.sizes()
    per_cluster = np.bincount(codes, weights=s, minlength=k) / sizes   # s_C
    value = float(s.mean())                              # s = (1/N) sum_i s_i
    # point 0 for the worked step of the derivation
    sum_to = np.bincount(codes, weights=row0, minlength=k)
    avg0 = sum_to / sizes
    avg0[codes[0]] = np.inf
    return Silhouette(value, score=value, samples=s, a=a, b=b,
                      nearest_cluster=lab.values[nearest], per_cluster=per_cluster,
                      clusters=lab.values, sizes=sizes, labels=lab.values[codes], n=n,
                      metric=metric, method=method, sample=sample, _codes0=codes[0],
                      _sum_own0=float(sum_to[codes[0]]), _avg_point0=avg0)
