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
  the points by cluster, computes the distances of a block of rows to all
  points (``scipy.spatial.distance.cdist``, exact, no dot-product shortcut),
  adds them up per cluster with ``np.add.reduceat`` and keeps only ``a_i``,
  ``b_i`` and the nearest cluster of each row. Blocks run on a few threads
  (SciPy and NumPy release the GIL); memory stays near ``_BLOCK_BYTES`` per
  thread whatever N is.

``silhouette(..., method="auto")`` takes the plain path up to
``PLAIN_MAX_N = 200`` instances and the fast one beyond.
"""
from __future__ import annotations

import os
import threading

import numpy as np

from ._validation import check_choice, check_distance_matrix, check_features, check_labels
from .steps import MAX_TABLE_ROWS, Derivation, ScalarResult, fmt

__all__ = ["silhouette"]

#: ``method="auto"`` uses the plain (N x N) path up to this many instances.
PLAIN_MAX_N = 200

#: Bytes of distances one block of rows may hold in the fast path.
_BLOCK_BYTES = 4 * 2**20

#: At most this many threads (so at most this many blocks live at once).
_MAX_THREADS = 4

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
        d.note(f"Computed with method={self.method!r}.")
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
    return ValueError(f"X: the {metric} distance from point {i} to some points is NaN or "
                      "infinite (e.g. an all-zero row with cosine or correlation)")


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


def _silhouette_fast(X, codes, k, metric, params, block_rows: int | None = None):
    """Same numbers as :func:`_silhouette_plain`, in blocks of rows, never N x N.

    Points are sorted by cluster, so the distances of a row to the members of
    cluster ``c`` are one contiguous slice and ``np.add.reduceat`` sums them all
    in one pass. Each block keeps only ``a_i``, ``b_i`` and the nearest cluster.
    """
    from scipy.spatial.distance import cdist

    n = codes.shape[0]
    sizes = np.bincount(codes, minlength=k)
    order = np.argsort(codes, kind="stable")            # points grouped by cluster
    sorted_codes = codes[order]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))  # first point of each cluster
    if metric == "precomputed":
        Xs = None
    else:
        Xs = np.ascontiguousarray(X[order])
    if block_rows is None:
        block_rows = max(1, _BLOCK_BYTES // (8 * max(n, k)))
    block_rows = min(block_rows, n)
    intra = np.empty(n)                                  # sum of distances to own cluster
    b = np.empty(n)
    nearest = np.empty(n, dtype=np.intp)

    local = threading.local()                            # one distance buffer per thread

    def block(r0: int) -> None:
        r1 = min(n, r0 + block_rows)
        if Xs is None:
            D = X[np.ix_(order[r0:r1], order)]          # rows and columns in cluster order
        else:
            if not hasattr(local, "buf"):
                local.buf = np.empty((block_rows, n))
            D = cdist(Xs[r0:r1], Xs, metric, out=local.buf[:r1 - r0], **params)
        sums = np.add.reduceat(D, starts, axis=1)       # sums[r, c] = sum over C_c
        if not np.isfinite(sums).all():
            bad = r0 + int(np.flatnonzero(~np.isfinite(sums).all(axis=1))[0])
            raise _undefined_distance(metric, int(order[bad]))
        rows = np.arange(r1 - r0)
        own = sorted_codes[r0:r1]
        intra[r0:r1] = sums[rows, own]
        sums /= sizes                                    # average distance to each cluster
        sums[rows, own] = np.inf                         # b_i looks at other clusters only
        near = sums.argmin(axis=1)
        nearest[r0:r1] = near
        b[r0:r1] = sums[rows, near]

    starts_of_blocks = range(0, n, block_rows)
    threads = _n_threads(len(starts_of_blocks))
    if threads == 1:
        for r0 in starts_of_blocks:
            block(r0)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=threads) as pool:
            for _ in pool.map(block, starts_of_blocks):
                pass
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
def silhouette(X, labels, *, metric: str = "euclidean", method: str = "auto") -> Silhouette:
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
    ``silhouette_samples`` / ``silhouette_score``.

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
        never holding N x N distances, on a few threads. ``"auto"`` is plain
        up to ``PLAIN_MAX_N = 200`` instances, fast beyond.

    Returns
    -------
    Silhouette
        A float in [-1, 1] (the overall ``s``, also ``.score``) with ``.samples``
        (s_i), ``.a``, ``.b``, ``.nearest_cluster`` (label of the cluster giving
        b_i), ``.per_cluster`` (s_C, aligned with ``.clusters``), ``.sizes`` and
        ``.labels`` (each point's label).

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
    lab = check_labels(labels, "labels")
    n, k = X.shape[0], lab.k
    if lab.n != n:
        raise ValueError(f"labels: has {lab.n} labels but X has {n} rows "
                         "(one label per instance)")
    if not 2 <= k <= n - 1:
        raise ValueError(f"labels: silhouette needs between 2 and N-1 clusters; got {k} "
                         f"cluster{'s' if k != 1 else ''} for N = {n} instances")
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
                      metric=metric, method=method, _codes0=codes[0],
                      _sum_own0=float(sum_to[codes[0]]), _avg_point0=avg0)
