"""Agglomerative (hierarchical) clustering: the tree, its merges and their derivation.

Agglomerative clustering starts with every instance in its own cluster and
repeatedly merges the two closest clusters until one is left. How "closest"
is measured between clusters is the *linkage* (seven of them, in
:mod:`prayatul_edu.linkages`). The merges, drawn as a tree, are the
dendrogram.

Up to a few hundred instances the tree is built by the lecture's loop
(:func:`prayatul_edu.agglomeration.merge_loop`), recording every merge with
the distance matrix after it; above, by SciPy's O(N^2) algorithms, and each
record is computed when asked for. Both give SciPy's tree, merge for merge.
"""
from __future__ import annotations

import numbers
import os
from collections.abc import Sequence

import numpy as np

from ._validation import check_choice, check_distance_matrix, check_real
from .agglomeration import fast_tree, merge_loop, replay
from .linkages import LINKAGES
from .steps import Derivation, Result, fmt

__all__ = ["agglomerative", "agglomerative_prechecked", "AgglomerativeResult", "MergeStep",
           "LazyMergeSteps"]

METHODS = ("auto", "plain", "fast")
#: Distances for points (``metric=``); ``"euclidean"`` is the one Ward, centroid and
#: median linkage need. Any other name SciPy's ``pdist`` knows is accepted too.
EUCLIDEAN_METRIC = "euclidean"

#: ``method="auto"`` runs the lecture's loop (full trace) up to this many instances.
PLAIN_MAX_N = 200
#: Derivations print every merge with its matrix up to this many instances.
FULL_TRACE_MAX_N = 10
#: Derivations list this many merges of a larger tree.
MERGES_SHOWN = 20


# ------------------------------------------------------------ display helpers
def default_names(n: int) -> list[str]:
    """``x1 ... xN``: the tutorial's 1-based names for instances 0 ... N-1."""
    return [f"x{i + 1}" for i in range(n)]


def _check_names(names, n: int) -> list[str]:
    if names is None:
        return default_names(n)
    if isinstance(names, (str, bytes)) or not hasattr(names, "__len__"):
        raise TypeError(f"names: expected a sequence of {n} instance names, got "
                        f"{type(names).__name__}")
    if len(names) != n:
        raise ValueError(f"names: expected {n} names (one per instance), got {len(names)}")
    return [str(v) for v in names]


def cluster_name(members, names, limit: int = FULL_TRACE_MAX_N) -> str:
    """``{x2, x3}``; long clusters are abbreviated."""
    shown = ", ".join(names[i] for i in members[:limit])
    if len(members) > limit:
        shown += f", ... ({len(members)} instances)"
    return "{" + shown + "}"


def _tex_cluster(members, names) -> str:
    return r"\{" + ", ".join(rf"\text{{{names[i]}}}" for i in members) + r"\}"


def _update_lines(link, A, B, C, d_AC: float, d_BC: float, d_AB: float, value: float,
                  names):
    """The Lance-Williams update of one entry, with its numbers (LaTeX, plain)."""
    left_tex = rf"d({_tex_cluster(tuple(sorted(A + B)), names)}, {_tex_cluster(C, names)})"
    left = f"d({cluster_name(tuple(sorted(A + B)), names)}, {cluster_name(C, names)})"
    tex, plain = link.numbers(d_AC, d_BC, d_AB, len(A), len(B), len(C))
    return (f"{left_tex} = {tex} = {fmt(value)}", f"{left} = {plain} = {fmt(value)}")


def matrix_table(d: Derivation, matrix, labels, caption: str) -> None:
    d.table([""] + labels, [[labels[i]] + [float(v) for v in matrix[i]]
                            for i in range(len(labels))], caption=caption,
            max_rows=max(len(labels), 1))


class MergeStep(Result):
    """One merge of agglomerative clustering.

    Attributes
    ----------
    number : int
        1 for the first merge, N - 1 for the last.
    a, b : tuple of int
        The two clusters merged, as sorted tuples of instance indices (0-based).
    id_a, id_b : int
        Their SciPy ids (``id_a < id_b``: the first two entries of the row of Z).
    height : float
        The linkage distance between ``a`` and ``b`` when they merge.
    new_id : int
        The merged cluster's id, ``N + number - 1``.
    members : tuple of int
        ``a + b``, sorted; ``size`` is its length.
    clusters : list of tuple of int
        Every cluster after the merge, ordered by smallest instance; they label
        the rows and columns of ``matrix``.
    ids : list of int
        The SciPy ids of ``clusters``.
    matrix : ndarray
        The linkage distances between ``clusters`` after the merge.
    """

    def __init__(self, number, a, b, id_a, id_b, height, clusters, ids, matrix,
                 linkage, names):
        self.number, self.a, self.b = number, a, b
        self.id_a, self.id_b, self.height = id_a, id_b, float(height)
        self.clusters, self.ids, self.matrix = clusters, ids, matrix
        self.linkage, self._names = linkage, names
        self.members = tuple(sorted(a + b))
        self.size = len(self.members)
        self.new_id = len(names) + number - 1

    @property
    def merged(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(a, b)``: the two clusters this step merges."""
        return self.a, self.b

    def describe(self) -> str:
        names = self._names
        return (f"Step {self.number}: the closest clusters are {cluster_name(self.a, names)} "
                f"and {cluster_name(self.b, names)}, at distance {fmt(self.height)}. They "
                f"merge into {cluster_name(self.members, names)}.")

    def derivation(self) -> Derivation:
        d = Derivation(f"Merge {self.number}: {cluster_name(self.a, self._names)} + "
                       f"{cluster_name(self.b, self._names)} at height {fmt(self.height)}")
        d.text(self.describe())
        if len(self.clusters) <= 12:
            labels = [cluster_name(c, self._names) for c in self.clusters]
            matrix_table(d, self.matrix, labels, f"{self.linkage.capitalize()}-linkage "
                         "distances between the clusters after the merge")
        else:
            d.text(f"{len(self.clusters)} clusters remain: too many to list their "
                   "distances.")
        return d


# --------------------------------------------------------------- tree layout
def leaf_layout(Z: np.ndarray, N: int):
    """Dendrogram order of the leaves: every cluster's members are contiguous.

    Returns ``order`` (leaves left to right), ``start`` and ``size`` (per
    cluster id: its members are ``order[start : start + size]``).
    """
    ids = Z[:, :2].astype(np.intp).tolist()
    size = [1] * N + Z[:, 3].astype(np.intp).tolist()
    start = [0] * (2 * N - 1)
    for k in range(N - 2, -1, -1):        # top-down: children split their parent's range
        a, b = ids[k]
        start[a] = start[N + k]
        start[b] = start[N + k] + size[a]
    order = np.empty(N, dtype=np.intp)
    order[start[:N]] = np.arange(N)
    return order, start, size


def cluster_members(cluster_id: int, layout) -> tuple[int, ...]:
    order, start, size = layout
    return tuple(sorted(order[start[cluster_id]:start[cluster_id] + size[cluster_id]].tolist()))


class LazyMergeSteps(Sequence):
    """The merge records of a tree built without a trace, each computed when asked for.

    ``steps[k]`` replays the merges of the tree up to merge ``k`` with the
    linkage's Lance-Williams update (O(N^2) per record), so nothing O(N^3) is
    ever stored.
    """

    def __init__(self, result: "AgglomerativeResult"):
        self._result = result

    def __len__(self) -> int:
        return self._result.n - 1

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not isinstance(k, numbers.Integral) or isinstance(k, bool):
            raise TypeError(f"steps: indices must be integers, not {type(k).__name__}")
        n_steps = len(self)
        if k < 0:
            k += n_steps
        if not 0 <= k < n_steps:
            raise IndexError(f"steps: index out of range (there are {n_steps} merges)")
        res = self._result
        Z, layout = res.linkage_matrix, res._layout()
        ids, matrix = replay(res.D, Z, LINKAGES[res.linkage], k + 1)
        members = [cluster_members(c, layout) for c in ids]
        order = sorted(range(len(ids)), key=members.__getitem__)   # by smallest instance
        id_a, id_b = int(Z[k, 0]), int(Z[k, 1])
        return MergeStep(k + 1, cluster_members(id_a, layout), cluster_members(id_b, layout),
                         id_a, id_b, Z[k, 2], [members[i] for i in order],
                         [ids[i] for i in order], matrix[np.ix_(order, order)],
                         res.linkage, res.names)

    def __repr__(self) -> str:
        return f"<{len(self)} merges, each computed on access>"


class AgglomerativeResult(Result):
    """The tree built by :func:`agglomerative`.

    Attributes
    ----------
    linkage_matrix : ndarray, shape (N - 1, 4)
        SciPy's Z: row k is ``id_a, id_b, height, size`` and creates cluster
        ``N + k`` (``np.asarray(result)`` gives it too). Also ``.Z``.
    steps : list of MergeStep (method "plain") or LazyMergeSteps (method "fast")
        One record per merge.
    n, linkage, method : int, str, str
        Number of instances, the linkage and ``"plain"`` or ``"fast"``.
    heights : ndarray
        The merge heights, ``linkage_matrix[:, 2]`` (non-decreasing except at the
        inversions of centroid and median linkage, see ``.inversions()``).
    D : ndarray
        The validated square distance matrix (a reference, not a copy).
    source : object
        The object passed as ``D`` (``None`` when points were given): passing it
        again to ``cophenetic_correlation`` skips validating it a second time.
    names : list of str
        The instance names used in derivations (``x1 ... xN`` by default).
    """

    def __init__(self, D, Z, linkage, method, steps, names, source):
        self.D, self.linkage_matrix, self.linkage, self.method = D, Z, linkage, method
        self.n = D.shape[0]
        self.names = names
        self._steps = steps
        self.source = source
        self._layout_cache = None

    @property
    def Z(self) -> np.ndarray:
        return self.linkage_matrix

    @property
    def heights(self) -> np.ndarray:
        return self.linkage_matrix[:, 2]

    @property
    def steps(self):
        if self._steps is None:
            self._steps = LazyMergeSteps(self)
        return self._steps

    def _layout(self):
        if self._layout_cache is None:
            self._layout_cache = leaf_layout(self.linkage_matrix, self.n)
        return self._layout_cache

    def __array__(self, dtype=None, copy=None):
        Z = self.linkage_matrix
        return Z.astype(dtype) if dtype is not None else (Z.copy() if copy else Z)

    def cut(self, height=None, *, n_clusters=None) -> np.ndarray:
        """Flat cluster labels: cut the dendrogram at ``height`` or into ``n_clusters``.

        ``height=t`` applies every merge of height <= t (SciPy's
        ``fcluster(Z, t, criterion="distance")``; with inversions, every merge
        whose subtree has no merge above t); ``n_clusters=k`` applies the
        first N - k merges, so exactly k clusters (SciPy's ``"maxclust"`` gives
        the same unless merge heights tie at the cut, where it may give fewer).
        Labels are 0, 1, ... in order of first appearance.
        """
        if (height is None) == (n_clusters is None):
            raise TypeError("cut: give exactly one of height= and n_clusters=")
        N = self.n
        if height is not None:
            t = check_real(height, "height")
            applied = self.subtree_heights() <= t
        else:
            if isinstance(n_clusters, bool) or not isinstance(n_clusters, numbers.Integral):
                raise TypeError(f"n_clusters: expected an integer, got "
                                f"{type(n_clusters).__name__} {n_clusters!r}")
            if not 1 <= n_clusters <= N:
                raise ValueError(f"n_clusters: must be between 1 and N = {N}, got {n_clusters}")
            applied = np.arange(N - 1) < N - int(n_clusters)
        cluster_of = list(range(2 * N - 1))         # each id points at its parent, then itself
        ids = self.linkage_matrix[:, :2].astype(np.intp).tolist()
        for k in np.flatnonzero(applied)[::-1].tolist():   # top-down: children inherit
            a, b = ids[k]
            cluster_of[a] = cluster_of[b] = cluster_of[N + k]
        roots = np.array(cluster_of[:N])
        _, first, codes = np.unique(roots, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.intp)   # number clusters by first appearance
        rank[np.argsort(first)] = np.arange(len(first))
        return rank[codes.ravel()]

    def subtree_heights(self) -> np.ndarray:
        """Per merge, the highest merge in its subtree: its own height unless the tree has
        inversions. A cut at height t keeps exactly the merges with this <= t."""
        heights = self.heights
        if not self.inversions():
            return heights
        N, top = self.n, heights.copy()
        for k, (a, b) in enumerate(self.linkage_matrix[:, :2].astype(np.intp).tolist()):
            for child in (a, b):
                if child >= N:
                    top[k] = max(top[k], top[child - N])
        return top

    def labels_at(self, height) -> np.ndarray:
        """``cut(height=height)``: the flat clustering at that height."""
        return self.cut(height=height)

    def dendrogram(self, ax=None, **kwargs):
        """Draw the dendrogram with SciPy (instance names as leaf labels)."""
        from scipy.cluster.hierarchy import dendrogram

        kwargs.setdefault("labels", self.names)
        return dendrogram(self.linkage_matrix, ax=ax, **kwargs)

    def _merge_rows(self, count: int):
        layout, Z, names = self._layout(), self.linkage_matrix, self.names
        return [[k + 1, cluster_name(cluster_members(int(Z[k, 0]), layout), names),
                 cluster_name(cluster_members(int(Z[k, 1]), layout), names),
                 float(Z[k, 2]), int(Z[k, 3])] for k in range(count)]

    def inversions(self) -> list[int]:
        """Merges (1-based numbers) lower than the merge before them: dendrogram inversions."""
        return (np.flatnonzero(np.diff(self.heights) < 0) + 2).tolist()

    def derivation(self) -> Derivation:
        N, names, link = self.n, self.names, LINKAGES[self.linkage]
        d = Derivation(f"{self.linkage.capitalize()}-linkage agglomerative clustering of "
                       f"{N} instances")
        d.text("Start with every instance in its own cluster. Then, N - 1 times: find the "
               "two closest clusters, merge them, and update the distances from the merged "
               f"cluster to the others. With {link.title} the distance between clusters A "
               f"and B is {link.definition}, so the update (Lance-Williams) is")
        d.formula(*link.rule)
        if link.squared:
            d.note("This rule holds for squared Euclidean distances. As SciPy, the matrix "
                   "keeps plain distances and each update squares them, applies the rule "
                   "and takes the square root; for distances that are not Euclidean the "
                   "result is computed as if they were.")
        if N <= FULL_TRACE_MAX_N:
            matrix_table(d, self.D, [cluster_name((i,), names) for i in range(N)],
                         "Distances between the singleton clusters")
            before, M = [(i,) for i in range(N)], self.D   # the clusters before each merge
            for s in self.steps:
                d.text(s.describe())
                ia, ib = before.index(s.a), before.index(s.b)
                new = s.clusters.index(s.members)
                for c, C in enumerate(before):
                    if c not in (ia, ib):
                        d.step(*_update_lines(link, s.a, s.b, C, M[ia, c], M[ib, c],
                                              M[ia, ib], s.matrix[new, s.clusters.index(C)],
                                              names))
                before, M = s.clusters, s.matrix
                matrix_table(d, s.matrix, [cluster_name(c, names) for c in s.clusters],
                             "Distances between the new clusters")
        else:
            shown = min(N - 1, MERGES_SHOWN)
            d.table(["merge", "cluster A", "cluster B", "height", "size"],
                    self._merge_rows(shown), caption=f"The first {shown} merges",
                    max_rows=shown)
            if N - 1 > shown:
                d.text(f"... and {N - 1 - shown} more merges.")
        inversions = self.inversions()
        if inversions:
            listed = ", ".join(str(k) for k in inversions[:10])
            d.note(f"Inversion: merge {listed} {'is' if len(inversions) == 1 else 'are'} "
                   "lower than the merge before. With centroid and median linkage a merged "
                   "cluster can be closer to a third cluster than its two parts were, so the "
                   "dendrogram has a link drawn below its children.")
        d.note("Ties: when several pairs are at the smallest distance, which one merges "
               "first is a convention; the one here is SciPy's, so the merges agree with "
               "SciPy's one for one.")
        return d


def _points_distances(X, metric, link) -> np.ndarray:
    """The N x N distances between the rows of X (points) under ``metric``."""
    from scipy.spatial.distance import pdist, squareform

    if not isinstance(metric, str):
        raise TypeError(f"metric: expected the name of a distance (e.g. 'euclidean'), got "
                        f"{type(metric).__name__} {metric!r}")
    if link.needs_euclidean and metric != EUCLIDEAN_METRIC:
        raise ValueError(f"metric: {link.name} linkage needs Euclidean distances (its "
                         f"update holds for squared Euclidean distances), got {metric!r}")
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"D: with metric= D holds points, an N x d array of numbers ({exc})"
                        ) from None
    if X.ndim != 2:
        raise ValueError(f"D: with metric= D holds points, one per row (an N x d array), "
                         f"got an array of shape {X.shape}")
    if X.shape[0] < 2:
        raise ValueError(f"D: at least 2 points are needed, got {X.shape[0]}")
    if not np.isfinite(X).all():
        raise ValueError("D: the points contain NaN or infinite values")
    _check_room_for_distances(X.shape[0])
    try:
        return squareform(pdist(X, metric))
    except ValueError as exc:
        raise ValueError(f"metric: {exc}") from None


def _physical_memory() -> int | None:
    """The machine's memory in bytes, where the system says (else None)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _check_room_for_distances(n: int) -> None:
    """A clear error, before NumPy's own, when the distances of ``n`` points cannot fit:
    the tree keeps all of them (the condensed vector, the N x N matrix and its working
    copy: about 2.5 N^2 doubles)."""
    need, have = 20 * n * n, _physical_memory()
    if have is not None and need > have:
        raise MemoryError(f"D: {n:,} points need about {need / 2**30:,.0f} GiB for their "
                          f"pairwise distances (agglomerative clustering keeps every one), "
                          f"and this machine has {have / 2**30:,.0f} GiB: cluster a sample "
                          "of the points")


def agglomerative(D, *, linkage: str = "single", method: str = "auto",
                  names=None, metric=None) -> AgglomerativeResult:
    """Agglomerative clustering: merge the two closest clusters until one is left.

    With the distance ``d(A, B)`` between clusters given by the linkage, e.g.

    .. math::
        d_\\text{single}(A, B) = \\min_{a \\in A, b \\in B} D_{ab}, \\quad
        d_\\text{complete}(A, B) = \\max_{a \\in A, b \\in B} D_{ab}, \\quad
        d_\\text{average}(A, B) = \\frac{1}{|A||B|} \\sum_{a \\in A, b \\in B} D_{ab},

    each merge of ``A`` and ``B`` updates the distances to every other cluster
    ``C`` by the linkage's Lance-Williams rule

    .. math::
        d(A \\cup B, C) = \\alpha_A\\, d(A, C) + \\alpha_B\\, d(B, C)
        + \\beta\\, d(A, B) + \\gamma\\, |d(A, C) - d(B, C)|

    (for Ward, centroid and median linkage on squared distances). Every
    linkage's coefficients, definition and rule are in
    :data:`prayatul_edu.linkages.LINKAGES`.

    Parameters
    ----------
    D : array_like
        Distances: an N x N matrix or SciPy's condensed vector of length
        N(N-1)/2 (symmetric, non-negative, zero diagonal, finite). With
        ``metric`` given, points instead: an N x d array, one point per row.
    linkage : {"single", "complete", "average", "weighted", "centroid", "median", "ward"}
    method : {"auto", "plain", "fast"}
        ``"plain"``: the lecture's loop, O(N^3) time, recording every merge
        with the distance matrix after it (O(N^3) memory: fine up to a few
        hundred instances). ``"fast"``: SciPy's algorithms, O(N^2) (Prim's
        minimum spanning tree for single, the nearest-neighbour chain for
        complete, average, weighted and Ward, Mullner's generic algorithm for
        centroid and median); ``.steps`` are computed on access.
        ``"auto"``: plain for N <= 200.
    names : sequence of N str, optional
        Instance names for the derivation (default ``x1 ... xN``, as the tutorial).
    metric : str, optional
        How D is read. ``None`` (default): D holds distances, so a square
        array is a distance matrix and a 1-D array a condensed one; any other
        shape is refused (a square array of points would be ambiguous, so
        points are never guessed). A name SciPy's ``pdist`` knows (e.g.
        ``"euclidean"``, ``"cityblock"``): D holds points, and their distances
        under that metric are clustered. Ward, centroid and median linkage
        need ``"euclidean"``.

    Returns
    -------
    AgglomerativeResult
        ``.linkage_matrix`` (SciPy's Z, for ``dendrogram``, ``cophenet``,
        ``fcluster``), ``.steps`` (one :class:`MergeStep` per merge: the clusters
        merged, the height, the clusters and distance matrix after it),
        ``.cut(height=...)`` / ``.cut(n_clusters=...)``, ``.dendrogram()``,
        ``.inversions()``.

    Notes
    -----
    Z equals SciPy's ``linkage(squareform(D), linkage)``, merge for merge,
    also on ties: the fast algorithms break ties as SciPy does, and the
    lecture's loop, among the pairs at the smallest distance, takes the one
    SciPy merges. Heights agree to rounding (the loop and SciPy may add the
    same numbers in another order).

    Ward, centroid and median linkage are defined for Euclidean distances:
    their rule updates *squared* distances. As SciPy, the matrix keeps plain
    distances (heights are in the units of D) and each update squares,
    applies the rule and takes the root. Distances beyond about 1e30 or
    below about 1e-30 are first multiplied by a power of two (exact), so the
    squares neither overflow nor underflow: the tree is the same at every
    scale and its heights scale exactly with D. Ward's height is
    :math:`\\sqrt{2|A||B|/(|A|+|B|)}` times the distance between the centroids.
    Centroid and median linkage can merge *below* an earlier merge
    (inversions; ``.inversions()`` lists them), single, complete, average,
    weighted and Ward never do.

    References
    ----------
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.3;
    G. N. Lance and W. T. Williams, "A general theory of classificatory sorting
    strategies: 1. Hierarchical systems", 1967; D. Mullner, "Modern hierarchical,
    agglomerative clustering algorithms", arXiv:1109.2378, 2011.

    Examples
    --------
    Tutorial Exercise 4:

    >>> from prayatul_edu import agglomerative
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> tree = agglomerative(EXERCISE_4_D, linkage="single")
    >>> [(s.a, s.b, s.height) for s in tree.steps]
    [((1,), (2,), 0.36), ((0,), (3,), 0.45), ((1, 2), (0, 3), 0.53), ((4,), (0, 1, 2, 3), 0.65)]
    >>> tree.steps[0].matrix[0].tolist()     # x1 to {x1}, {x2, x3}, {x4}, {x5}
    [0.0, 0.59, 0.45, 0.65]
    >>> tree.cut(n_clusters=2).tolist()
    [0, 0, 0, 0, 1]

    Points, with Ward linkage: the centroids of {x1, x2} and {x3, x4} are 3
    apart, so they merge at sqrt(2 * 2 * 2 / 4) * 3 = 3 sqrt(2):

    >>> X = [[0, 0], [0, 1], [3, 0], [3, 1]]
    >>> ward = agglomerative(X, linkage="ward", metric="euclidean")
    >>> [round(float(h), 4) for h in ward.heights]
    [1.0, 1.0, 4.2426]
    """
    source = D if metric is None else None    # points are not a D to skip checking later
    check_choice(linkage, "linkage", LINKAGES)
    check_choice(method, "method", METHODS)
    link = LINKAGES[linkage]
    # D expanded from a condensed vector (given, or from the points) is exactly symmetric
    symmetric = True
    if metric is not None:
        D = _points_distances(D, metric, link)
    else:
        try:
            shape = np.shape(D)
        except ValueError:                         # ragged: check_distance_matrix says so
            shape = ()
        if len(shape) == 2 and shape[0] != shape[1]:
            raise ValueError(f"D: got a {shape[0]} x {shape[1]} array, which is not a square "
                             "distance matrix; to cluster points (one per row) give their "
                             "metric, e.g. metric='euclidean'")
        symmetric = len(shape) == 1
        D = check_distance_matrix(D, "D", allow_condensed=True)
    return _build(D, link, method, _check_names(names, D.shape[0]), source, symmetric)


def agglomerative_prechecked(D: np.ndarray, *, linkage: str = "single") -> AgglomerativeResult:
    """:func:`agglomerative` of a distance matrix the library made itself, not checked again.

    For the package's own callers (the apps), whose ``D`` is known to be valid:
    a float64 N x N ndarray, finite, non-negative, with a zero diagonal and
    *exactly* symmetric (as ``squareform(pdist(X))`` is). Only the choice of
    linkage is checked; D's values are read as they are, so anything a user
    gives must go through :func:`agglomerative`, which validates it. The tree
    is the same (tests compare the two); ``.source`` is ``D``, so
    ``cophenetic_correlation(D, tree)`` does not validate D either.
    """
    check_choice(linkage, "linkage", LINKAGES)
    return _build(D, LINKAGES[linkage], "auto", default_names(D.shape[0]), D, True)


def _build(D, link, method: str, names, source, symmetric: bool) -> AgglomerativeResult:
    """The tree of a validated D (``symmetric``: exactly, so its upper triangle need
    not be copied over the lower one)."""
    N = D.shape[0]
    if method == "auto":
        method = "plain" if N <= PLAIN_MAX_N else "fast"
    Z = fast_tree(D, link, symmetric)
    steps = None
    if method == "plain":
        Z, after = merge_loop(D, link, prefer=Z)
        steps = _merge_steps(Z, after, link.name, names)
    return AgglomerativeResult(D, Z, link.name, method, steps, names, source)


def _merge_steps(Z, after, linkage: str, names) -> list[MergeStep]:
    """The loop's records as MergeSteps (members of each merged cluster from Z)."""
    N = Z.shape[0] + 1
    members = {i: (i,) for i in range(N)}
    steps = []
    for k, (clusters, ids, matrix) in enumerate(after):
        id_a, id_b = int(Z[k, 0]), int(Z[k, 1])
        a, b = members[id_a], members[id_b]
        members[N + k] = tuple(sorted(a + b))
        steps.append(MergeStep(k + 1, a, b, id_a, id_b, Z[k, 2], clusters, ids, matrix,
                               linkage, names))
    return steps


