"""Agglomerative (hierarchical) clustering, the cophenetic matrix and the CPCC.

Agglomerative clustering starts with every instance in its own cluster and
repeatedly merges the two closest clusters until one is left. How "closest"
is measured between clusters is the *linkage*: single (nearest pair),
complete (farthest pair) or average (mean over all pairs). The merges, drawn
as a tree, are the dendrogram; the height at which two instances first share
a cluster is their *cophenetic distance*, and the cophenetic correlation
coefficient (CPCC) says how faithfully those heights reproduce the original
distances.

Two ways to cluster sit side by side, as everywhere in the library:

* the **plain path** reads like the tutorial: a matrix of distances between
  the current clusters, find its smallest entry, merge, update the distances
  with the linkage rule, record the step (O(N^3), fine up to a few hundred
  instances);
* the **fast path** gives the same tree in O(N^2): Prim's minimum spanning
  tree for single linkage, the nearest-neighbour chain for complete and
  average linkage (the algorithms SciPy uses). It keeps no trace; its
  ``.steps`` are computed on access from the tree and the distances.
"""
from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ._validation import check_choice, check_distance_matrix, check_real
from .counting import comb2
from .steps import Derivation, Result, ScalarResult, fmt

__all__ = ["agglomerative", "cophenetic_matrix", "cophenetic_correlation"]

LINKAGES = ("single", "complete", "average")
METHODS = ("auto", "plain", "fast")

#: ``method="auto"`` takes the plain path (full trace) up to this many instances.
PLAIN_MAX_N = 200
#: Derivations print every merge with its matrix up to this many instances.
FULL_TRACE_MAX_N = 10
#: Derivations list this many merges of a larger tree.
MERGES_SHOWN = 20
#: Above this many instances cophenetic_correlation sums merge by merge (given a tree)
#: or over whole matrices (given P) instead of over an explicit list of pairs.
CPCC_PAIRS_MAX_N = 1000
EPS = np.finfo(float).eps


# ------------------------------------------------------------ display helpers
def _default_names(n: int) -> list[str]:
    """``x1 ... xN``: the tutorial's 1-based names for instances 0 ... N-1."""
    return [f"x{i + 1}" for i in range(n)]


def _check_names(names, n: int) -> list[str]:
    if names is None:
        return _default_names(n)
    if isinstance(names, (str, bytes)) or not hasattr(names, "__len__"):
        raise TypeError(f"names: expected a sequence of {n} instance names, got "
                        f"{type(names).__name__}")
    if len(names) != n:
        raise ValueError(f"names: expected {n} names (one per instance), got {len(names)}")
    return [str(v) for v in names]


def _cluster_name(members, names, limit: int = FULL_TRACE_MAX_N) -> str:
    """``{x2, x3}``; long clusters are abbreviated."""
    shown = ", ".join(names[i] for i in members[:limit])
    if len(members) > limit:
        shown += f", ... ({len(members)} instances)"
    return "{" + shown + "}"


def _linkage_rule(linkage: str) -> tuple[str, str]:
    """The Lance-Williams update of ``linkage`` (LaTeX, plain)."""
    if linkage == "single":
        return (r"d(A \cup B, C) = \min\{d(A, C),\ d(B, C)\}",
                "d(A u B, C) = min(d(A, C), d(B, C))")
    if linkage == "complete":
        return (r"d(A \cup B, C) = \max\{d(A, C),\ d(B, C)\}",
                "d(A u B, C) = max(d(A, C), d(B, C))")
    return (r"d(A \cup B, C) = \frac{|A|\,d(A, C) + |B|\,d(B, C)}{|A| + |B|}",
            "d(A u B, C) = (|A| d(A, C) + |B| d(B, C)) / (|A| + |B|)")


def _linkage_definition(linkage: str) -> str:
    return {"single": "the smallest distance between a member of A and a member of B",
            "complete": "the largest distance between a member of A and a member of B",
            "average": "the mean distance over all pairs (a in A, b in B)"}[linkage]


def _tex_cluster(members, names) -> str:
    return r"\{" + ", ".join(rf"\text{{{names[i]}}}" for i in members) + r"\}"


def _update_lines(linkage: str, A, B, C, d_AC: float, d_BC: float, value: float, names):
    """The Lance-Williams update of one entry, with its numbers (LaTeX, plain)."""
    left_tex = rf"d({_tex_cluster(tuple(sorted(A + B)), names)}, {_tex_cluster(C, names)})"
    left = f"d({_cluster_name(tuple(sorted(A + B)), names)}, {_cluster_name(C, names)})"
    if linkage == "average":
        nA, nB = len(A), len(B)
        tex = (rf"\frac{{{nA} \times {fmt(d_AC)} + {nB} \times {fmt(d_BC)}}}{{{nA + nB}}}")
        plain = f"({nA} * {fmt(d_AC)} + {nB} * {fmt(d_BC)}) / {nA + nB}"
    else:
        op = "min" if linkage == "single" else "max"
        tex = rf"\{op}({fmt(d_AC)}, {fmt(d_BC)})"
        plain = f"{op}({fmt(d_AC)}, {fmt(d_BC)})"
    return (f"{left_tex} = {tex} = {fmt(value)}", f"{left} = {plain} = {fmt(value)}")


def _matrix_table(d: Derivation, matrix, labels, caption: str) -> None:
    d.table([""] + labels, [[labels[i]] + [float(v) for v in matrix[i]]
                            for i in range(len(labels))], caption=caption,
            max_rows=max(len(labels), 1))


# ---------------------------------------------------------------- the merges
def _lance_williams(linkage: str, d_A, d_B, n_A, n_B):
    """Distances from the merged cluster A u B to every other cluster C.

    ``d_A[c] = d(A, C)``, ``d_B[c] = d(B, C)``; ``n_A = |A|``, ``n_B = |B|``.
    """
    if linkage == "single":
        return np.minimum(d_A, d_B)                    # min(d(A,C), d(B,C))
    if linkage == "complete":
        return np.maximum(d_A, d_B)                    # max(d(A,C), d(B,C))
    return (n_A * d_A + n_B * d_B) / (n_A + n_B)       # size-weighted mean


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
        return (f"Step {self.number}: the closest clusters are {_cluster_name(self.a, names)} "
                f"and {_cluster_name(self.b, names)} (ids {self.id_a} and {self.id_b}), at "
                f"distance {fmt(self.height)}. They merge into "
                f"{_cluster_name(self.members, names)} (id {self.new_id}).")

    def derivation(self) -> Derivation:
        d = Derivation(f"Merge {self.number}: {_cluster_name(self.a, self._names)} + "
                       f"{_cluster_name(self.b, self._names)} at height {fmt(self.height)}")
        d.text(self.describe())
        if len(self.clusters) <= 12:
            labels = [_cluster_name(c, self._names) for c in self.clusters]
            _matrix_table(d, self.matrix, labels, f"{self.linkage.capitalize()}-linkage "
                          "distances between the clusters after the merge")
        else:
            d.text(f"{len(self.clusters)} clusters remain; `.matrix` holds their distances.")
        return d


def _plain(D: np.ndarray, linkage: str, names: list[str]):
    """The teaching path: the tutorial's loop, recording every merge."""
    N = D.shape[0]
    M = (D + D.T) / 2                     # distances between the current clusters
    np.fill_diagonal(M, np.inf)           # a cluster is never its own closest cluster
    clusters = [(i,) for i in range(N)]   # every instance starts alone, rows in this order
    ids = list(range(N))                  # SciPy id of each current cluster
    Z = np.empty((N - 1, 4))
    steps = []
    for k in range(N - 1):
        # 1. The closest pair: the smallest entry (first in row-major order, so i < j).
        i, j = np.unravel_index(int(np.argmin(M)), M.shape)
        # Heights never go down (exactly); rounding in the average update can put a
        # merge one ulp below the previous one, so keep the larger.
        height = max(M[i, j], Z[k - 1, 2]) if k else M[i, j]
        A, B = clusters[i], clusters[j]
        # 2. Distances from A u B to every other cluster (Lance-Williams).
        new = _lance_williams(linkage, M[i], M[j], len(A), len(B))
        M[i, :] = new
        M[:, i] = new
        M[i, i] = np.inf
        M = np.delete(np.delete(M, j, axis=0), j, axis=1)   # B is gone
        # 3. A u B takes A's row: rows stay ordered by smallest instance.
        (id_a, a), (id_b, b) = sorted([(ids[i], A), (ids[j], B)])
        clusters[i] = tuple(sorted(A + B))
        ids[i] = N + k
        del clusters[j], ids[j]
        Z[k] = id_a, id_b, height, len(A) + len(B)
        after = M.copy()
        np.fill_diagonal(after, 0.0)
        steps.append(MergeStep(k + 1, a, b, id_a, id_b, height, list(clusters), list(ids),
                               after, linkage, names))
    return Z, steps


# -------------------------------------------------------------- the fast path
def _label(x, y, heights, N: int) -> np.ndarray:
    """SciPy's Z from merges given as (leaf in A, leaf in B, height), in any order.

    Sort the merges by height (stably), then a union-find over the leaves
    names each merged cluster: the k-th merge creates cluster ``N + k``.
    """
    order = np.argsort(heights, kind="mergesort")
    parent = list(range(2 * N - 1))
    size = [1] * N + [0] * (N - 1)

    def find(v):
        root = v
        while parent[root] != root:
            root = parent[root]
        while parent[v] != root:                  # path compression
            parent[v], v = root, parent[v]
        return root

    Z = np.empty((N - 1, 4))
    xs = np.asarray(x)[order].tolist()
    ys = np.asarray(y)[order].tolist()
    hs = np.asarray(heights, dtype=float)[order].tolist()
    for k in range(N - 1):
        ra, rb = find(xs[k]), find(ys[k])
        if ra > rb:
            ra, rb = rb, ra
        new = N + k
        parent[ra] = parent[rb] = new
        size[new] = size[ra] + size[rb]
        Z[k] = ra, rb, hs[k], size[new]
    return Z


def _single_mst(D: np.ndarray) -> np.ndarray:
    """Single linkage from Prim's minimum spanning tree, O(N^2) time, O(N) extra memory.

    The single-linkage merges are the edges of a minimum spanning tree of the
    complete graph with weights D, taken in order of weight (Kruskal's view).
    """
    N = D.shape[0]
    outside = np.ones(N, dtype=bool)      # not yet in the tree
    outside[0] = False
    dist = D[0].astype(float)             # distance from each vertex to the tree
    dist[0] = np.inf
    parent = np.zeros(N, dtype=np.intp)   # its nearest vertex in the tree
    a = np.empty(N - 1, dtype=np.intp)
    b = np.empty(N - 1, dtype=np.intp)
    w = np.empty(N - 1)
    closer = np.empty(N, dtype=bool)
    for k in range(N - 1):
        v = int(np.argmin(dist))          # the closest vertex outside the tree
        a[k], b[k], w[k] = parent[v], v, dist[v]
        outside[v] = False
        dist[v] = np.inf
        row = D[v]
        np.less(row, dist, out=closer)    # is v closer than the old tree?
        closer &= outside
        np.copyto(dist, row, where=closer)
        np.copyto(parent, v, where=closer)
    return _label(a, b, w, N)


def _nn_chain(D: np.ndarray, linkage: str) -> np.ndarray:
    """Complete / average linkage by the nearest-neighbour chain, O(N^2) time and memory.

    Follow nearest neighbours from any cluster until two clusters are each
    other's nearest neighbours (reciprocal nearest neighbours); merging them
    is safe for these linkages, so the merges found (in another order) are
    those of the plain loop. The working matrix has ``inf`` for merged rows.
    """
    N = D.shape[0]
    M = (D + D.T) / 2
    np.fill_diagonal(M, np.inf)
    size = [1] * N
    alive = list(range(N - 1, -1, -1))    # candidates to start a chain (a stack)
    merged = np.zeros(N, dtype=bool)
    xs, ys, hs = [], [], []
    chain: list[int] = []
    for _ in range(N - 1):
        if not chain:
            while merged[alive[-1]]:
                alive.pop()
            chain.append(alive[-1])
        while True:
            x = chain[-1]
            row = M[x]
            y = int(np.argmin(row))
            if len(chain) > 1 and not row[y] < row[chain[-2]]:
                y = chain[-2]                  # ties keep the previous link
                break
            chain.append(y)
        chain.pop()
        chain.pop()
        # merge x into y: y's row and column become A u B
        new = _lance_williams(linkage, M[x], M[y], size[x], size[y])
        xs.append(x)
        ys.append(y)
        hs.append(M[x, y])
        M[y, :] = new
        M[:, y] = new
        M[y, y] = np.inf
        M[x, :] = np.inf
        M[:, x] = np.inf
        size[y] += size[x]
        merged[x] = True
    return _label(xs, ys, hs, N)


# --------------------------------------------------------------- tree layout
def _layout(Z: np.ndarray, N: int):
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


def _members(cluster_id: int, layout) -> tuple[int, ...]:
    order, start, size = layout
    return tuple(sorted(order[start[cluster_id]:start[cluster_id] + size[cluster_id]].tolist()))


def _linkage_between(D: np.ndarray, clusters, linkage: str) -> np.ndarray:
    """The linkage distances between ``clusters`` straight from the definition.

    min / max / mean of D over every pair (a in A, b in B), in O(N^2).
    """
    groups = np.concatenate([np.asarray(c, dtype=np.intp) for c in clusters])
    sizes = np.array([len(c) for c in clusters])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    Dg = D[np.ix_(groups, groups)]        # every cluster's rows/columns together
    if linkage == "single":
        out = np.minimum.reduceat(np.minimum.reduceat(Dg, starts, axis=0), starts, axis=1)
    elif linkage == "complete":
        out = np.maximum.reduceat(np.maximum.reduceat(Dg, starts, axis=0), starts, axis=1)
    else:
        out = np.add.reduceat(np.add.reduceat(Dg, starts, axis=0), starts, axis=1)
        out = out / np.outer(sizes, sizes)
    np.fill_diagonal(out, 0.0)
    return out


class LazyMergeSteps(Sequence):
    """The merge records of a fast-path result, each computed when asked for.

    ``steps[k]`` replays the tree up to merge ``k`` (who is in which cluster)
    and takes the distances between the clusters from the definition of the
    linkage (O(N^2) per record), so nothing O(N^3) is ever stored.
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
        Z, N, layout = res.linkage_matrix, res.n, res._layout()
        gone = set(Z[:k + 1, :2].astype(np.intp).ravel().tolist())
        alive = [c for c in range(N + k + 1) if c not in gone]
        clusters = sorted((_members(c, layout), c) for c in alive)
        id_a, id_b = int(Z[k, 0]), int(Z[k, 1])
        matrix = _linkage_between(res.D, [c for c, _ in clusters], res.linkage)
        return MergeStep(k + 1, _members(id_a, layout), _members(id_b, layout), id_a, id_b,
                         Z[k, 2], [c for c, _ in clusters], [i for _, i in clusters], matrix,
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
    steps : list of MergeStep (plain path) or LazyMergeSteps (fast path)
        One record per merge.
    n, linkage, method : int, str, str
        Number of instances, the linkage and ``"plain"`` or ``"fast"``.
    heights : ndarray
        The merge heights, ``linkage_matrix[:, 2]`` (non-decreasing).
    D : ndarray
        The validated square distance matrix (a reference, not a copy).
    names : list of str
        The instance names used in derivations (``x1 ... xN`` by default).
    """

    def __init__(self, D, Z, linkage, method, steps, names, source):
        self.D, self.linkage_matrix, self.linkage, self.method = D, Z, linkage, method
        self.n = D.shape[0]
        self.names = names
        self._steps = steps
        self._source = source             # the object the user passed (see cophenetic_correlation)
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
            self._layout_cache = _layout(self.linkage_matrix, self.n)
        return self._layout_cache

    def __array__(self, dtype=None, copy=None):
        Z = self.linkage_matrix
        return Z.astype(dtype) if dtype is not None else (Z.copy() if copy else Z)

    def cut(self, height=None, *, n_clusters=None) -> np.ndarray:
        """Flat cluster labels: cut the dendrogram at ``height`` or into ``n_clusters``.

        ``height=t`` applies every merge of height <= t (SciPy's
        ``fcluster(Z, t, criterion="distance")``); ``n_clusters=k`` applies the
        first N - k merges, so exactly k clusters (SciPy's ``"maxclust"`` gives
        the same unless merge heights tie at the cut, where it may give fewer).
        Labels are 0, 1, ... in order of first appearance.
        """
        if (height is None) == (n_clusters is None):
            raise TypeError("cut: give exactly one of height= and n_clusters=")
        N = self.n
        if height is not None:
            t = check_real(height, "height")
            n_merges = int(np.searchsorted(self.heights, t, side="right"))
        else:
            if isinstance(n_clusters, bool) or not isinstance(n_clusters, numbers.Integral):
                raise TypeError(f"n_clusters: expected an integer, got "
                                f"{type(n_clusters).__name__} {n_clusters!r}")
            if not 1 <= n_clusters <= N:
                raise ValueError(f"n_clusters: must be between 1 and N = {N}, got {n_clusters}")
            n_merges = N - int(n_clusters)
        cluster_of = np.arange(2 * N - 1)           # each id points at its parent, then itself
        ids = self.linkage_matrix[:n_merges, :2].astype(np.intp)
        for k in range(n_merges - 1, -1, -1):       # top-down: children inherit the root's id
            top = cluster_of[N + k]
            cluster_of[ids[k, 0]] = top
            cluster_of[ids[k, 1]] = top
        roots = cluster_of[:N]
        _, first, codes = np.unique(roots, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.intp)   # number clusters by first appearance
        rank[np.argsort(first)] = np.arange(len(first))
        return rank[codes.ravel()]

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
        rows = []
        for k in range(count):
            id_a, id_b = int(Z[k, 0]), int(Z[k, 1])
            rows.append([k + 1, _cluster_name(_members(id_a, layout), names),
                         _cluster_name(_members(id_b, layout), names),
                         f"{id_a}, {id_b}", float(Z[k, 2]), int(Z[k, 3])])
        return rows

    def derivation(self) -> Derivation:
        N, names, link = self.n, self.names, self.linkage
        d = Derivation(f"{link.capitalize()}-linkage agglomerative clustering of {N} instances")
        d.text("Start with every instance in its own cluster. Then, N - 1 times: find the "
               "two closest clusters, merge them, and update the distances from the merged "
               f"cluster to the others. With {link} linkage the distance between clusters A "
               f"and B is {_linkage_definition(link)}, so the update is")
        d.formula(*_linkage_rule(link))
        if N <= FULL_TRACE_MAX_N:
            _matrix_table(d, self.D, [_cluster_name((i,), names) for i in range(N)],
                          "Distances between the singleton clusters")
            before, M = [(i,) for i in range(N)], self.D   # the clusters before each merge
            for s in self.steps:
                d.text(s.describe())
                ia, ib = before.index(s.a), before.index(s.b)
                new = s.clusters.index(s.members)
                for c, C in enumerate(before):
                    if c not in (ia, ib):
                        d.step(*_update_lines(link, s.a, s.b, C, M[ia, c], M[ib, c],
                                              s.matrix[new, s.clusters.index(C)], names))
                before, M = s.clusters, s.matrix
                _matrix_table(d, s.matrix, [_cluster_name(c, names) for c in s.clusters],
                              "Distances between the new clusters")
        else:
            shown = min(N - 1, MERGES_SHOWN)
            d.table(["merge", "cluster A", "cluster B", "ids", "height", "size"],
                    self._merge_rows(shown), caption=f"The first {shown} merges",
                    max_rows=shown)
            if N - 1 > shown:
                d.text(f"... and {N - 1 - shown} more merges (all in `.linkage_matrix`; "
                       "`.steps[k]` shows the distances after merge k).")
        if N <= 3 * FULL_TRACE_MAX_N:
            Z = self.linkage_matrix
            d.table(["row k", "id_a", "id_b", "height", "size", "new id"],
                    [[k, int(Z[k, 0]), int(Z[k, 1]), float(Z[k, 2]), int(Z[k, 3]), N + k]
                     for k in range(N - 1)],
                    caption="The dendrogram as SciPy's linkage matrix Z (ids 0 .. N-1 are "
                            "the instances in order; draw it with `.dendrogram()`)",
                    max_rows=N)
        d.note(f"Instances are named {names[0]}, ..., {names[-1]} but indexed from 0 in "
               "`.steps` and Z. Ties: the plain loop merges the pair found first reading the "
               "matrix row by row (rows ordered by each cluster's smallest instance); the fast "
               "path (minimum spanning tree / nearest-neighbour chain, as SciPy) may merge "
               "tied pairs in another order. For single linkage the heights and the "
               "cophenetic matrix are the same either way; for complete and average linkage "
               "a tie can lead to a different tree.")
        if self.method == "fast":
            d.note("Built by the fast path: each `.steps[k]` is computed on access from the "
                   "tree, with distances taken from the linkage's definition.")
        return d


def agglomerative(D, *, linkage: str = "single", method: str = "auto",
                  names=None) -> AgglomerativeResult:
    """Agglomerative clustering: merge the two closest clusters until one is left.

    With the distance ``d(A, B)`` between clusters given by the linkage,

    .. math::
        d_\\text{single}(A, B) = \\min_{a \\in A, b \\in B} D_{ab}, \\quad
        d_\\text{complete}(A, B) = \\max_{a \\in A, b \\in B} D_{ab}, \\quad
        d_\\text{average}(A, B) = \\frac{1}{|A||B|} \\sum_{a \\in A, b \\in B} D_{ab},

    each merge of ``A`` and ``B`` updates the distances to every other cluster
    ``C`` by the Lance-Williams rule

    .. math::
        d(A \\cup B, C) = \\min\\{d(A,C), d(B,C)\\},\\ \\max\\{d(A,C), d(B,C)\\}
        \\ \\text{or}\\ \\frac{|A|\\,d(A,C) + |B|\\,d(B,C)}{|A| + |B|}.

    Parameters
    ----------
    D : array_like, N x N (or SciPy's condensed vector of length N(N-1)/2)
        Distances: symmetric, non-negative, zero diagonal, finite.
    linkage : {"single", "complete", "average"}
    method : {"auto", "plain", "fast"}
        ``"plain"``: the tutorial's loop, O(N^3) time, recording every merge
        with the distance matrix after it (O(N^3) memory: fine up to a few
        hundred instances). ``"fast"``: Prim's minimum spanning tree (single)
        or the nearest-neighbour chain (complete, average), O(N^2); its
        ``.steps`` are computed on access. ``"auto"``: plain for N <= 200.
    names : sequence of N str, optional
        Instance names for the derivation (default ``x1 ... xN``, as the tutorial).

    Returns
    -------
    AgglomerativeResult
        ``.linkage_matrix`` (SciPy's Z, for ``dendrogram``, ``cophenet``,
        ``fcluster``), ``.steps`` (one :class:`MergeStep` per merge: the clusters
        merged, their ids, the height, the clusters and distance matrix after
        it), ``.cut(height=...)`` / ``.cut(n_clusters=...)``, ``.dendrogram()``.

    Notes
    -----
    Ties: the plain loop merges the pair it finds first reading the current
    matrix row by row (rows ordered by each cluster's smallest instance). The
    fast path breaks ties as SciPy does, so tied pairs may merge in another
    order: for single linkage the heights and the cophenetic matrix are the
    same either way, for complete and average linkage a tie can change the
    tree. Without ties, Z equals SciPy's ``linkage(squareform(D), linkage)``
    (each row's two ids sorted, as SciPy does) and the two paths agree.

    The fast path keeps a reference to D (no copy) and computes ``.steps[k]``
    on access: who is in which cluster comes from Z, the distances between
    the clusters from the linkage's definition (min / max / mean of D over
    the blocks), O(N^2) per record.

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
    """
    source = D
    D = check_distance_matrix(D, "D", allow_condensed=True)
    check_choice(linkage, "linkage", LINKAGES)
    check_choice(method, "method", METHODS)
    N = D.shape[0]
    names = _check_names(names, N)
    if method == "auto":
        method = "plain" if N <= PLAIN_MAX_N else "fast"
    if method == "plain":
        Z, steps = _plain(D, linkage, names)
    else:
        Z = _single_mst(D) if linkage == "single" else _nn_chain(D, linkage)
        steps = None
    return AgglomerativeResult(D, Z, linkage, method, steps, names, source)


# ------------------------------------------------------- cophenetic matrix
def _check_linkage_matrix(Z, name: str) -> np.ndarray:
    """A SciPy linkage matrix: N-1 rows (id_a, id_b, height, size), heights non-decreasing."""
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
    if (np.diff(heights) < 0).any():
        k = int(np.flatnonzero(np.diff(heights) < 0)[0]) + 1
        raise ValueError(f"{name}: heights must be non-decreasing (single, complete and "
                         f"average linkage never go down), but row {k} has {heights[k]:g} "
                         f"after {heights[k - 1]:g}")
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


def _cophenetic(Z: np.ndarray, N: int) -> np.ndarray:
    """P[i, j] = the height of the merge that first puts i and j in one cluster.

    As the merges happen, the block between the two merged clusters' members
    gets the merge height. Done in dendrogram leaf order (where the two
    blocks are contiguous slices), then put back in instance order: O(N^2).
    """
    order, start, size = _layout(Z, N)
    heights = Z[:, 2].tolist()
    P_leaf = np.zeros((N, N))
    for k, (a, b) in enumerate(Z[:, :2].astype(np.intp).tolist()):
        A = slice(start[a], start[a] + size[a])      # members of a ...
        B = slice(start[b], start[b] + size[b])      # ... and of b, side by side
        P_leaf[A, B] = heights[k]
        P_leaf[B, A] = heights[k]
    position = np.asarray(start[:N])                 # where instance i sits in leaf order
    return P_leaf[position][:, position]


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
        layout = _layout(Z, N)
        shown = min(N - 1, MERGES_SHOWN)
        rows = []
        for k in range(shown):
            A, B = _members(int(Z[k, 0]), layout), _members(int(Z[k, 1]), layout)
            rows.append([k + 1, _cluster_name(A, names), _cluster_name(B, names),
                         float(Z[k, 2]), len(A) * len(B)])
        d.table(["merge", "cluster A", "cluster B", "height = P_ij for i in A, j in B",
                 "pairs set"], rows, caption="Reading the dendrogram, merge by merge",
                max_rows=shown)
        if N - 1 > shown:
            d.text(f"... and {N - 1 - shown} more merges.")
        if N <= 12:
            _matrix_table(d, self.P, names, "The cophenetic distance matrix P")
        d.note("P is an ultrametric: P_ik <= max(P_ij, P_jk) for every i, j, k (the merge "
               "joining i and k comes no later than the later of the two merges joining i "
               "with j and j with k), so it also satisfies the triangle inequality and is "
               "a metric when all heights are positive.")
        return d


def cophenetic_matrix(result_or_Z) -> CopheneticMatrix:
    """The cophenetic distance matrix: the height at which each pair first merges.

    .. math::
        P_{ij} = h_k, \\quad k = \\text{the merge that first puts } x_i
        \\text{ and } x_j \\text{ in one cluster}, \\qquad P_{ii} = 0.

    It is an *ultrametric*: :math:`P_{ik} \\le \\max(P_{ij}, P_{jk})`.

    Parameters
    ----------
    result_or_Z : AgglomerativeResult or array_like, shape (N - 1, 4)
        A tree from :func:`agglomerative` or a SciPy linkage matrix (ids,
        non-decreasing heights, sizes).

    Returns
    -------
    CopheneticMatrix
        Array-like (``np.asarray``, indexing, ``.shape``); ``.P`` is the N x N
        ndarray, ``.condensed()`` equals ``scipy.cluster.hierarchy.cophenet(Z)``.

    References
    ----------
    R. R. Sokal and F. J. Rohlf, "The comparison of dendrograms by objective
    methods", *Taxon* 11, 1962.

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
        names = _default_names(Z.shape[0] + 1)
    return CopheneticMatrix(_cophenetic(Z, Z.shape[0] + 1), Z, names)


# ---------------------------------------------------- cophenetic correlation
def _cpcc_sums_pairs(D: np.ndarray, P: np.ndarray):
    """The plain version: the formula over the pairs i < j."""
    pairs = np.triu_indices(D.shape[0], 1)          # every pair i < j once
    D_ij, P_ij = D[pairs], P[pairs]
    d, p = D_ij.mean(), P_ij.mean()                 # means over the pairs
    cross = np.sum((D_ij - d) * (P_ij - p))         # sum (D_ij - d)(P_ij - p)
    ss_d = np.sum((D_ij - d) ** 2)                  # sum (D_ij - d)^2
    ss_p = np.sum((P_ij - p) ** 2)                  # sum (P_ij - p)^2
    return d, p, cross, ss_d, ss_p


#: Rows per block when summing over whole N x N matrices (a few MB of temporaries).
_ROWS_BYTES = 4 * 2**20


def _half_offdiagonal_dot(X: np.ndarray, x0: float, Y: np.ndarray, y0: float) -> float:
    """sum_{i<j} (X_ij - x0)(Y_ij - y0) for symmetric matrices: (whole sum - diagonal) / 2.

    Centred a block of rows at a time, so no N x N temporary is made.
    """
    N = X.shape[0]
    rows = max(1, _ROWS_BYTES // (8 * N))
    whole = 0.0
    for start in range(0, N, rows):
        Xc = X[start:start + rows] - x0
        Yc = Xc if Y is X and y0 == x0 else Y[start:start + rows] - y0
        whole += float(np.einsum("ij,ij->", Xc, Yc))
    diagonal = float(np.dot(np.diagonal(X) - x0, np.diagonal(Y) - y0))
    return (whole - diagonal) / 2


def _pair_mean(X: np.ndarray) -> float:
    """Mean of a symmetric X over the pairs i < j: (whole sum - trace) / (N(N-1))."""
    N = X.shape[0]
    return float(X.sum() - np.trace(X)) / (N * (N - 1))


def _cpcc_sums_matrix(D: np.ndarray, P: np.ndarray):
    """The same sums from whole symmetric matrices, without a pair index (large N)."""
    d, p = _pair_mean(D), _pair_mean(P)
    return (d, p, _half_offdiagonal_dot(D, d, P, p), _half_offdiagonal_dot(D, d, D, d),
            _half_offdiagonal_dot(P, p, P, p))


def _merge_pairs(Z: np.ndarray) -> np.ndarray:
    """|A| |B|: how many pairs each merge joins (they sum to N(N-1)/2)."""
    N = Z.shape[0] + 1
    size = np.ones(2 * N - 1)
    size[N:] = Z[:, 3]
    return size[Z[:, 0].astype(np.intp)] * size[Z[:, 1].astype(np.intp)]


def _cpcc_sums_tree(D: np.ndarray, Z: np.ndarray):
    """The same sums straight from the tree, never forming P (large N).

    Merge k of clusters A and B at height h_k sets P_ij = h_k on its
    |A||B| pairs, so p and sum (P_ij - p)^2 come from the merges alone, and
    sum (D_ij - d)(P_ij - p) = sum_k (h_k - p) S_k with
    S_k = sum_{i in A, j in B} (D_ij - d). S_k is read off the row sums
    R_A = sum_{i in A} (D_i - d), which merging just adds: O(N^2) in all.
    """
    N = D.shape[0]
    m = N * (N - 1) / 2
    ids = Z[:, :2].astype(np.intp).tolist()
    heights = Z[:, 2]
    pairs = _merge_pairs(Z)                           # |A| |B| for every merge
    p = float(np.dot(pairs, heights) / m)
    ss_p = float(np.dot(pairs, (heights - p) ** 2))
    d = _pair_mean(D)
    ss_d = _half_offdiagonal_dot(D, d, D, d) if N > 1 else 0.0
    members: dict[int, list[int]] = {}                # the clusters built so far ...
    rows: dict[int, np.ndarray] = {}                  # ... and their R_A
    S = np.empty(N - 1)
    for k, (a, b) in enumerate(ids):
        A = members.pop(a) if a >= N else [a]
        B = members.pop(b) if b >= N else [b]
        if len(A) < len(B):                           # read R on the smaller side
            a, b, A, B = b, a, B, A
        R_A = rows.pop(a) if a >= N else D[a] - d
        S[k] = R_A[B[0]] if len(B) == 1 else R_A[B].sum()   # sum_{A x B} (D_ij - d)
        if k < N - 2:                                 # the root's row is never needed
            if b >= N:
                R_A += rows.pop(b)
            else:
                R_A += D[b]
                R_A -= d
            rows[N + k] = R_A
            A += B
            members[N + k] = A
    cross = float(np.dot(heights - p, S))
    return d, p, cross, ss_d, ss_p


class CopheneticCorrelation(ScalarResult):
    """CPCC, with ``.d_mean``, ``.p_mean`` (means over pairs i < j), ``.cross``,
    ``.ss_d``, ``.ss_p`` (the three sums), ``.n_pairs``, ``.D`` and ``.P``."""

    @property
    def P(self) -> np.ndarray:
        """The cophenetic matrix (built from the tree on first access if it was not needed)."""
        if self._P is None:
            self._P = _cophenetic(self._Z, self.n)
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


def cophenetic_correlation(D, cophenetic) -> CopheneticCorrelation:
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
    ``D`` is the very object the tree was built from, it is not validated a
    second time. The value equals the first output of SciPy's ``cophenet(Z, Y)``.

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
    if tree is not None and D is tree._source:
        D = tree.D                                    # validated when the tree was built
    else:
        D = check_distance_matrix(D, "D", allow_condensed=True)
    N = D.shape[0]
    P = Z = None
    if tree is not None:
        if tree.n != N:
            raise ValueError(f"D and cophenetic must describe the same instances, but D is "
                             f"{N} x {N} and the tree has {tree.n} leaves")
        Z, names = tree.linkage_matrix, tree.names
        if N <= CPCC_PAIRS_MAX_N:
            P = _cophenetic(Z, N)
    elif isinstance(cophenetic, CopheneticMatrix):
        P, Z, names = cophenetic.P, cophenetic.Z, cophenetic.names
    else:
        P = check_distance_matrix(cophenetic, "cophenetic", allow_condensed=True)
        names = _default_names(P.shape[0])
    if P is not None and P.shape != D.shape:
        raise ValueError(f"D and cophenetic must describe the same instances, but have "
                         f"shapes {D.shape} and {P.shape}")
    if P is None:
        d, p, cross, ss_d, ss_p = _cpcc_sums_tree(D, Z)
    elif N <= CPCC_PAIRS_MAX_N:
        d, p, cross, ss_d, ss_p = _cpcc_sums_pairs(D, P)
    else:
        d, p, cross, ss_d, ss_p = _cpcc_sums_matrix(D, P)
    # 0/0 when D or P is constant over the pairs (up to the rounding of their means)
    M = comb2(N)                                      # the number of pairs i < j
    constant = ss_d <= M * (64 * EPS * d) ** 2 or ss_p <= M * (64 * EPS * p) ** 2
    value = np.nan if constant else cross / (np.sqrt(ss_d) * np.sqrt(ss_p))
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
