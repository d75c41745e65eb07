"""The merge algorithms of agglomerative clustering, for every linkage of the table.

* :func:`merge_loop` is the lecture's loop: find the smallest entry of the
  matrix of distances between the current clusters, merge, update with the
  linkage's Lance-Williams rule, record. O(N^3).
* :func:`fast_tree` gives the same tree in O(N^2) with the algorithm the
  linkage's table entry names, as SciPy does: Prim's minimum spanning tree
  (single), the nearest-neighbour chain (complete, average, weighted, Ward)
  or Mullner's generic algorithm (centroid, median). Ties are broken as
  SciPy breaks them, so the trees agree merge for merge.
* :func:`replay` re-applies the merges of a tree to the distances, to show
  the distance matrix after any merge without having stored it.

Trees are SciPy linkage matrices Z: row k is ``id_a, id_b, height, size``
and creates cluster ``N + k``.
"""
from __future__ import annotations

import numpy as np

from .linkages import Linkage

__all__ = ["merge_loop", "fast_tree", "label_merges", "replay", "working_matrix",
           "squares_scale"]


#: Ward, centroid and median square the distances: when the largest distance is beyond
#: 2^SQUARES_SAFE_EXPONENT (or below its inverse) the distances are first scaled.
SQUARES_SAFE_EXPONENT = 100


def squares_scale(D: np.ndarray, link: Linkage) -> float:
    """The power of two (exact) that the distances are multiplied by before merging.

    Ward, centroid and median linkage update *squared* distances: from about
    1e154 on they overflow to inf, below about 1e-160 they underflow to 0 and
    the tree goes wrong. Far from both ends (the largest distance between
    2^-100 and 2^100) and for the other linkages it is 1; otherwise it brings
    the largest distance into [0.5, 1). Multiplying by a power of two is
    exact, so the heights (divided back) scale exactly with the input and the
    tree is the same at every scale.
    """
    if not link.squared or D.size == 0:
        return 1.0
    largest = float(np.max(D))
    if not largest > 0:
        return 1.0
    exponent = int(np.frexp(largest)[1])
    if -SQUARES_SAFE_EXPONENT <= exponent <= SQUARES_SAFE_EXPONENT:
        return 1.0
    return float(np.ldexp(1.0, -max(exponent, -1000)))   # 2^1074 is not a float

#: Relative difference below which two cluster distances count as tied (rounding).
TIE_RTOL = 1e-12


# ------------------------------------------------------------- the lecture's loop
def merge_loop(D: np.ndarray, link: Linkage, prefer=None):
    """The lecture's loop; returns Z and, per merge, the clusters and matrix after it.

    ``prefer`` (a linkage matrix, optional) breaks ties: when several pairs are
    at the smallest distance, the pair that ``prefer`` merges next is taken (so
    the trace follows SciPy's tree); otherwise the first smallest entry reading
    row by row. Distances within ``TIE_RTOL`` (relative) count as tied: the same
    average of the same numbers, summed in another order, can differ by an ulp.
    """
    N = D.shape[0]
    M = working_matrix(D)                 # distances between the current clusters; inf on
                                          # the diagonal: never its own closest cluster
    scale = squares_scale(D, link)        # 1 unless squares would over- or underflow
    if scale != 1.0:
        M *= scale
    clusters = [(i,) for i in range(N)]   # every instance starts alone, rows in this order
    ids = list(range(N))                  # SciPy id of each current cluster
    Z = np.empty((N - 1, 4))
    after = []
    for k in range(N - 1):
        # 1. The closest pair: the smallest entry (first reading row by row, so i < j) ...
        i, j = np.unravel_index(int(np.argmin(M)), M.shape)
        if prefer is not None:            # ... or the tied pair SciPy merges
            wanted = [ids.index(int(c)) for c in prefer[k, :2] if int(c) in ids]
            if len(wanted) == 2 and M[wanted[0], wanted[1]] <= M[i, j] * (1 + TIE_RTOL):
                i, j = sorted(wanted)
        height = M[i, j]
        if link.monotone and k:
            # Heights never go down (exactly); rounding in an update can put a merge one
            # ulp below the previous one, so keep the larger.
            height = max(height, Z[k - 1, 2] * scale)
        A, B = clusters[i], clusters[j]
        # 2. Distances from A u B to every other cluster (the Lance-Williams update).
        sizes = np.array([len(c) for c in clusters])
        new = link.update(M[i], M[j], M[i, j], len(A), len(B), sizes)
        M[i, :] = new
        M[:, i] = new
        M[i, i] = np.inf
        M = np.delete(np.delete(M, j, axis=0), j, axis=1)   # B is gone
        # 3. A u B takes A's row: rows stay ordered by smallest instance.
        id_a, id_b = sorted((ids[i], ids[j]))
        clusters[i] = tuple(sorted(A + B))
        ids[i] = N + k
        del clusters[j], ids[j]
        Z[k] = id_a, id_b, height / scale, len(A) + len(B)
        shown = M / scale
        np.fill_diagonal(shown, 0.0)
        after.append((list(clusters), list(ids), shown))
    return Z, after


# ------------------------------------------------------------ labelling merges
def label_merges(x, y, heights, N: int, *, sort: bool = True) -> np.ndarray:
    """SciPy's Z from merges given as (member of A, member of B, height).

    With ``sort`` the merges are first sorted by height (stably); then a
    union-find over the leaves names each merged cluster: the k-th merge
    creates cluster ``N + k``.
    """
    order = np.argsort(heights, kind="mergesort") if sort else np.arange(len(heights))
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


# ------------------------------------------------------------- the algorithms
def _mst(D: np.ndarray, link: Linkage, symmetric: bool = False) -> np.ndarray:
    """Single linkage from Prim's minimum spanning tree, O(N^2) time, O(N) extra memory.

    The single-linkage merges are the edges of a minimum spanning tree taken
    in order of weight. As SciPy, each new vertex is recorded with the vertex
    added just before it (same components, same tree after sorting).
    """
    N = D.shape[0]
    inside = np.zeros(N)                  # inf for the vertices already in the tree
    dist = np.full(N, np.inf)             # distance from each vertex to the tree
    row = np.empty(N)
    a, b, w = [], [], []
    x = 0
    for _ in range(N - 1):
        inside[x] = np.inf
        dist[x] = np.inf
        np.add(D[x], inside, out=row)     # x's distances to the vertices outside
        np.minimum(dist, row, out=dist)   # is x closer than the old tree?
        y = int(dist.argmin())            # the closest vertex outside the tree
        a.append(x)
        b.append(y)
        w.append(dist[y])
        x = y
    return label_merges(a, b, w, N)


#: Tile side for the blocked transpose of :func:`working_matrix`.
_TILE = 256


def working_matrix(D: np.ndarray, symmetric: bool = False) -> np.ndarray:
    """A copy of D made exactly symmetric from its upper triangle (as SciPy reads it),
    with ``inf`` on the diagonal. Transposed a tile at a time (cache-friendly), unless
    D is known to be exactly ``symmetric`` already (expanded from a condensed vector)."""
    N = D.shape[0]
    M = np.array(D, dtype=float)
    if symmetric:
        np.fill_diagonal(M, np.inf)
        return M
    for i in range(0, N, _TILE):
        for j in range(i, N, _TILE):
            M[j:j + _TILE, i:i + _TILE] = M[i:i + _TILE, j:j + _TILE].T
    for i in range(0, N, _TILE):          # the diagonal tiles: keep their upper half
        block = M[i:i + _TILE, i:i + _TILE]
        lower = np.tril_indices(block.shape[0], -1)
        block[lower] = block.T[lower]
    np.fill_diagonal(M, np.inf)
    return M


def _merge_into(M, size, gone, x: int, y: int, d_xy: float, link: Linkage,
                hide: bool = True) -> None:
    """Cluster x merges into slot y (x < y, as SciPy): update row and column y, drop x.

    ``gone`` is 0 for a live slot and inf for a merged-away one. Added to a row
    as it is read, it hides the dropped slots, so their columns are never
    rewritten (a column of a large matrix is slow to write: one cache line per row).
    With ``hide`` the update reads rows with the dropped slots hidden (inf stays
    inf), so row and column y hold inf there; without, they hold whatever the
    update makes of the stale entries, for a reader that hides them itself.
    """
    gone[x] = np.inf
    if hide:
        new = link.update(M[x] + gone, M[y] + gone, d_xy, size[x], size[y], size)
    else:
        new = link.update(M[x], M[y], d_xy, size[x], size[y], size)
    size[y] += size[x]
    size[x] = 0
    new[y] = np.inf
    M[y, :] = new
    M[:, y] = new


#: The working matrix is compacted (merged clusters dropped) when at most this fraction
#: of its rows is alive, and it has more than COMPACT_MIN rows: later merges then touch
#: half the memory. Slots keep their order, so ties break as before.
COMPACT_FRACTION = 0.5
COMPACT_MIN = 256


class _Slots:
    """The working matrix with its slots' sizes and original indices, compacted as it empties."""

    def __init__(self, D: np.ndarray, symmetric: bool, hide: bool = True):
        self.hide = hide                          # see _merge_into
        self.M = working_matrix(D, symmetric)
        self.size = np.ones(D.shape[0])            # float: the updates run faster
        self.gone = np.zeros(D.shape[0])          # inf for the slots merged away
        self.orig = np.arange(D.shape[0])         # slot -> the instance it started with
        self.alive = D.shape[0]
        self._row = np.empty(D.shape[0])          # the buffer row() reads into

    def row(self, x: int, start: int = 0) -> np.ndarray:
        """The distances from slot x to the slots from ``start`` on (inf for those gone),
        in a buffer that the next call overwrites."""
        return np.add(self.M[x, start:], self.gone[start:], out=self._row[start:])

    def merge(self, x: int, y: int, d_xy: float, link: Linkage) -> None:
        _merge_into(self.M, self.size, self.gone, x, y, d_xy, link, self.hide)
        self.alive -= 1

    def should_compact(self) -> bool:
        """Few slots are alive: time to drop the others."""
        m = len(self.size)
        return m > COMPACT_MIN and self.alive <= COMPACT_FRACTION * m

    def compact(self) -> np.ndarray:
        """Drop the merged slots; returns the old -> new slot map (-1 for those dropped)."""
        m = len(self.size)
        keep = np.flatnonzero(self.size > 0)
        self.M = self.M[np.ix_(keep, keep)]
        self.size, self.orig = self.size[keep], self.orig[keep]
        self.gone = np.zeros(len(keep))
        self._row = np.empty(len(keep))
        new = np.full(m, -1, dtype=np.intp)
        new[keep] = np.arange(len(keep))
        return new


def _nn_chain(D: np.ndarray, link: Linkage, symmetric: bool = False) -> np.ndarray:
    """The nearest-neighbour chain, O(N^2) time and memory (reducible linkages).

    Follow nearest neighbours from the first cluster left until two clusters
    are each other's nearest neighbours; merging them is safe for reducible
    linkages, so the merges found (in another order) are the loop's. Ties
    keep the previous link of the chain and otherwise take the lowest slot;
    the merged cluster takes slot max(x, y): SciPy's conventions.
    """
    N = D.shape[0]
    # Rows are only read through slots.row(), which hides the dropped slots, and the
    # updates keep stale entries finite (min, max and means of finite numbers; Ward's
    # rule with |C| = 0 is a mean of squares, >= 0): the update need not hide them.
    slots = _Slots(D, symmetric, hide=False)
    xs, ys, hs = [], [], []
    chain: list[int] = []
    for _ in range(N - 1):
        if not chain:
            chain.append(int(slots.gone.argmin()))     # the first cluster left
        while True:
            x = chain[-1]
            row = slots.row(x)
            y = int(row.argmin())
            if len(chain) > 1 and not row[y] < row[chain[-2]]:
                y = chain[-2]                  # ties keep the previous link
                break
            chain.append(y)
        del chain[-2:]
        d_xy = float(row[y])                   # row is x's
        if x > y:
            x, y = y, x
        xs.append(slots.orig[x])
        ys.append(slots.orig[y])
        hs.append(d_xy)
        slots.merge(x, y, d_xy, link)
        if slots.should_compact():
            chain = slots.compact()[chain].tolist()
    return label_merges(xs, ys, hs, N)


class _Heap:
    """A binary min-heap of values keyed 0 .. n-1 whose values can change (as SciPy's)."""

    def __init__(self, values):
        self.values = list(values)
        self.size = len(self.values)
        self.key_at = list(range(self.size))
        self.index_of = list(range(self.size))
        for i in reversed(range(self.size // 2)):
            self._down(i)

    def top(self):
        return self.key_at[0], self.values[0]

    def pop(self) -> None:
        self._swap(0, self.size - 1)
        self.size -= 1
        self._down(0)

    def change(self, key: int, value: float) -> None:
        i = self.index_of[key]
        old = self.values[i]
        self.values[i] = value
        if value < old:
            self._up(i)
        else:
            self._down(i)

    # Sifting moves a hole instead of swapping: the same moves, fewer writes.
    def _up(self, i: int) -> None:
        values, key_at, index_of = self.values, self.key_at, self.index_of
        value, key = values[i], key_at[i]
        while i > 0 and values[(i - 1) >> 1] > value:
            parent = (i - 1) >> 1
            values[i] = values[parent]
            key_at[i] = key_at[parent]
            index_of[key_at[i]] = i
            i = parent
        values[i], key_at[i] = value, key
        index_of[key] = i

    def _down(self, i: int) -> None:
        values, key_at, index_of, size = self.values, self.key_at, self.index_of, self.size
        value, key = values[i], key_at[i]
        child = 2 * i + 1
        while child < size:
            if child + 1 < size and values[child + 1] < values[child]:
                child += 1
            if not value > values[child]:
                break
            values[i] = values[child]
            key_at[i] = key_at[child]
            index_of[key_at[i]] = i
            i, child = child, 2 * child + 1
        values[i], key_at[i] = value, key
        index_of[key] = i

    def _swap(self, i: int, j: int) -> None:
        values, key_at, index_of = self.values, self.key_at, self.index_of
        values[i], values[j] = values[j], values[i]
        ki, kj = key_at[i], key_at[j]
        key_at[i], key_at[j] = kj, ki
        index_of[ki], index_of[kj] = j, i


def _generic(D: np.ndarray, link: Linkage, symmetric: bool = False) -> np.ndarray:
    """Mullner's generic algorithm: the loop's merges, in the loop's order, in ~O(N^2).

    Each cluster x keeps a candidate nearest neighbour among the clusters in
    higher slots and a lower bound of its distance, in a heap. The smallest
    bound is checked against the true distance; if it is stale, x's nearest
    neighbour is searched again. Works for every linkage, including those
    with inversions (centroid, median), since it never reorders merges.
    """
    N = D.shape[0]
    slots = _Slots(D, symmetric)          # inf on the diagonal; merged slots masked
    pos = np.arange(N)                    # instance -> its slot (while its cluster lives)
    cluster_id = list(range(N))           # by the instance a cluster started with

    def nearest_above(p: int):
        """The nearest neighbour of slot p among the higher slots (the first on ties)."""
        row = slots.row(p, p + 1)
        z = int(row.argmin())
        return int(slots.orig[p + 1 + z]), float(row[z])

    # neighbour, bound and the heap are keyed by the instance each cluster started with
    neighbour = np.empty(N - 1, dtype=np.intp)
    bound = np.empty(N - 1)
    for x in range(N - 1):
        neighbour[x], bound[x] = nearest_above(x)
    heap = _Heap(bound.tolist())
    Z = []
    for k in range(N - 1):
        M = slots.M
        for _ in range(N - k):
            x, dist = heap.top()
            y = int(neighbour[x])
            if dist == M[pos[x], pos[y]]:
                break
            y, dist = nearest_above(pos[x])           # the bound was stale: search again
            neighbour[x], bound[x] = y, dist
            heap.change(x, dist)
        heap.pop()
        px, py = int(pos[x]), int(pos[y])
        id_x, id_y = cluster_id[x], cluster_id[y]
        slots.merge(px, py, dist, link)
        Z.append((min(id_x, id_y), max(id_x, id_y), dist, slots.size[py]))
        cluster_id[y] = N + k
        # Candidates pointing at x now point at y (a guess, checked when used).
        neighbour[:x][neighbour[:x] == x] = y
        # Lower bounds: y may now be closer to a lower cluster than its bound.
        column = slots.M[py, :py]                     # = the column: M is symmetric
        lower = slots.orig[:py]
        for z in (column < bound[lower]).nonzero()[0].tolist():
            neighbour[lower[z]], bound[lower[z]] = y, column[z]
            heap.change(int(lower[z]), float(column[z]))
        if y < N - 1 and py + 1 < len(slots.size):
            z, dist = nearest_above(py)
            if dist < np.inf:
                neighbour[y], bound[y] = z, dist
                heap.change(y, dist)
        if slots.should_compact():
            slots.compact()
            pos[slots.orig] = np.arange(len(slots.orig))
    return np.array(Z, dtype=float)


_ALGORITHMS = {"mst": _mst, "nn_chain": _nn_chain, "generic": _generic}


def fast_tree(D: np.ndarray, link: Linkage, symmetric: bool = False) -> np.ndarray:
    """SciPy's linkage matrix for ``link``, by the algorithm its table entry names.

    ``symmetric``: D is exactly symmetric (as a matrix expanded from SciPy's
    condensed vector is), so it need not be made so from its upper triangle.
    Squared-distance linkages run on D scaled by :func:`squares_scale` where needed."""
    scale = squares_scale(D, link)
    if scale == 1.0:
        return _ALGORITHMS[link.algorithm](D, link, symmetric)
    Z = _ALGORITHMS[link.algorithm](D * scale, link, symmetric)
    Z[:, 2] /= scale
    return Z


# -------------------------------------------------------------------- replay
def replay(D: np.ndarray, Z: np.ndarray, link: Linkage, n_merges: int):
    """The distances between the clusters after the first ``n_merges`` merges of Z.

    Applies the Lance-Williams update merge by merge (O(N^2) in all). Returns
    the cluster ids alive (in slot order) and their distance matrix.
    """
    N = D.shape[0]
    M = working_matrix(D)
    scale = squares_scale(D, link)        # 1 unless squares would over- or underflow
    if scale != 1.0:
        M *= scale
    size = np.ones(N)
    gone = np.zeros(N)
    slot = {i: i for i in range(N)}
    for k in range(n_merges):
        a, b = slot.pop(int(Z[k, 0])), slot.pop(int(Z[k, 1]))
        x, y = min(a, b), max(a, b)
        _merge_into(M, size, gone, x, y, M[x, y], link)
        slot[N + k] = y
    ids = sorted(slot, key=slot.get)
    rows = [slot[c] for c in ids]
    out = M[np.ix_(rows, rows)] / scale
    np.fill_diagonal(out, 0.0)
    return ids, out
