"""Counting: group sizes, pairs within groups, and the contingency table.

Almost every external measure is a function of one table: how many instances
fall in cluster ``C_i`` *and* class ``T_j``. This module counts it - and the
pairs inside groups - exactly and in O(N), with no N x N anything.

Fast path
    Labels with a small range (cluster numbers, ~10 classes ...) are counted
    straight into a *dense* table with one cell for every combination of values:
    the instance whose labels are ``(a, b)`` adds 1 to cell ``a * span_b + b``,
    i.e. one ``np.bincount`` of those flat indices (:func:`dense_counts`),
    computed a cache-sized block of instances at a time. Margins of that table
    give every group size, so no labels need factorising.

Many labels
    When a table of every combination would be larger than the data, the same
    flat index of a *pair* of labellings (:func:`joint_key`) is sorted once:
    equal indices end up next to each other, and the runs of equal values are
    the non-empty cells and their counts (:func:`joint_counts`), or directly the
    pairs inside them (:func:`joint_pairs_within`). One sort of N integers
    (32-bit when the index fits), no ``np.unique(return_inverse=True)`` (which
    sorts indices, not values, and then scatters them back).

Exactness
    ``comb2(n) = n (n - 1) / 2`` is computed in int64 while ``n`` is at most
    3,037,000,499 (so that ``n * (n - 1) < 2**63``) and with Python's unbounded
    integers beyond that, so pair counts are exact integers for any N that fits
    in memory (N = 10**8 gives about 5 * 10**15 pairs, far inside int64). Sums of
    pair counts are returned as Python ``int``.
"""
from __future__ import annotations

import math

import numpy as np

from . import dask_counts
from .hashing import count_cells
from ._validation import Labels, check_labels, check_partitions
from .steps import Derivation, Result

#: Derivations list every pair of instances, one row each, up to this many instances
#: (66 pairs): a student can check a hand count pair by pair.
PAIR_LIST_MAX_N = 12

__all__ = ["PAIR_LIST_MAX_N", "comb2", "contingency_table", "ContingencyTable", "joint_codes", "group_sizes",
           "dense_counts", "dense_pair_counts", "pairs_within", "labels_from_table", "joint_key",
           "joint_counts",
           "joint_pairs_within", "cells_fit_dense", "value_cells", "totals_by"]

_INT64_SAFE_N = 3_037_000_499  # largest n with n * (n - 1) < 2**63

#: A dense table is built when it has at most max(N, DENSE_MIN_CELLS) cells: then
#: filling and reading it is O(N) like the data.
DENSE_MIN_CELLS = 1 << 16
#: Instances coded per block by the dense counting: the block's buffers stay in cache.
_BLOCK = 1 << 16


def comb2(n):
    """n choose 2 = n (n - 1) / 2, exact; ``n`` may be an int or an int array.

    Arrays come back as int64 (or object arrays of Python ints for huge n).
    """
    if isinstance(n, (int, np.integer)):
        n = int(n)
        return n * (n - 1) // 2
    arr = np.asarray(n)
    if arr.size and int(arr.max()) > _INT64_SAFE_N:
        arr = arr.astype(object)
        return arr * (arr - 1) // 2
    arr = arr.astype(np.int64, copy=False)
    return arr * (arr - 1) // 2


def pairs_within(sizes) -> int:
    """Number of unordered pairs inside groups of the given sizes: sum C(n_g, 2)."""
    sizes = np.asarray(sizes)
    if sizes.dtype.kind in "iu" and sizes.size and int(sizes.sum()) <= _INT64_SAFE_N:
        # sum n_g (n_g - 1) <= N (N - 1) < 2**63: one exact int64 sum, halved once
        n_g = sizes.astype(np.int64, copy=False).ravel()
        return int(np.dot(n_g, n_g - 1)) // 2
    return int(comb2(sizes).sum())


def joint_codes(a: np.ndarray, ka: int, b: np.ndarray, kb: int) -> tuple[np.ndarray, int]:
    """Codes 0..k-1 of the pairs ``(a[i], b[i])`` - the groups of both labellings at once.

    ``a`` takes values in ``0..ka-1`` and ``b`` in ``0..kb-1``. Runs in O(N)
    (a counting sort) when ``ka * kb`` is small compared with N, and with a sort
    otherwise; only combinations that occur get a code.
    """
    n = a.shape[0]
    span = ka * kb
    combined = a.astype(np.int64, copy=False) * kb + b
    if span <= max(4 * n, 1 << 16):
        present = np.bincount(combined, minlength=span) > 0
        mapping = np.cumsum(present) - 1
        return mapping[combined].astype(np.intp, copy=False), int(present.sum())
    uniques, inverse = np.unique(combined, return_inverse=True)
    return inverse.astype(np.intp, copy=False).ravel(), int(uniques.shape[0])


def group_sizes(*labelings: Labels) -> np.ndarray:
    """Sizes of the non-empty groups of instances that agree on every labelling."""
    codes, k = labelings[0].codes, labelings[0].k
    for lab in labelings[1:]:
        codes, k = joint_codes(codes, k, lab.codes, lab.k)
    return np.bincount(codes, minlength=k)


def cells_fit_dense(n: int, cells: int) -> bool:
    """Whether a dense table of ``cells`` cells is worth filling for ``n`` instances (O(N))."""
    return cells <= max(n, DENSE_MIN_CELLS)


def joint_key(a: Labels, b: Labels) -> tuple[np.ndarray, int]:
    """The flat cell index ``(a - lo_a) * span_b + (b - lo_b)`` of every instance.

    Along :meth:`Labels.dense_form` of each labelling; returns the int64 index
    and the number of cells ``span_a * span_b`` (at most about 4 N**2, so it fits
    in int64 for any N that fits in memory).
    """
    arr_a, lo_a, span_a = a.dense_form()
    arr_b, lo_b, span_b = b.dense_form()
    key = np.multiply(arr_a, span_b, dtype=np.int64)
    key += arr_b
    offset = (lo_a * span_b + lo_b + 2**63) % 2**64 - 2**63   # as int64 arithmetic wraps
    if offset:
        key -= offset
    return key, span_a * span_b


def _sorted(key: np.ndarray, cells: int) -> np.ndarray:
    """``key`` sorted in place (as uint32 when the cells allow: that sort takes half the time)."""
    if cells <= 2**32:
        key = key.astype(np.uint32)
    key.sort()
    return key


def joint_counts(a: Labels, b: Labels) -> tuple[np.ndarray, np.ndarray]:
    """The non-empty cells of the joint labelling of ``a`` and ``b``, and their counts.

    Returns ``(cell, count)``, ``cell`` the flat index of :func:`joint_key`
    (int64, increasing) and ``count`` how many instances it holds. A
    ``np.bincount`` when the table of every combination is no larger than the
    data (its cost is O(N) like the sort's reading, without the sort), else one sort of
    the indices and their runs of equal values.
    """
    n = a.n
    key, cells = joint_key(a, b)
    if cells_fit_dense(n, cells):                     # a bincount beats a sort up to N cells
        counts = np.bincount(key, minlength=cells)
        cell = np.flatnonzero(counts)
        return cell, counts[cell]
    ordered = _sorted(key, cells)
    first = np.empty(n, dtype=bool)                     # the first instance of each cell
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return ordered[starts].astype(np.int64), np.diff(starts, append=n)


def joint_pairs_within(a: Labels, b: Labels) -> int:
    """Pairs of instances in one group of ``a`` *and* one group of ``b``: sum C(n_ab, 2).

    The same number as ``pairs_within(group_sizes(a, b))``, faster: a
    ``np.bincount`` of :func:`joint_key` when the table is small, else one sort
    of it. In the sorted index, a run of ``L`` equal neighbours is a group of
    ``L + 1`` instances; with many labels most groups are single instances, so
    only the positions that equal their neighbour are looked at.
    """
    table = dense_counts(a, b)            # None when the table would outgrow the data
    if table is not None:
        return pairs_within(table)
    key, cells = joint_key(a, b)
    ordered = _sorted(key, cells)
    joins = np.flatnonzero(ordered[1:] == ordered[:-1])   # j where instance j + 1 joins j's group
    if joins.size == 0:
        return 0
    breaks = np.flatnonzero(np.diff(joins) != 1) + 1      # a gap starts another group
    run = np.diff(np.concatenate(([0], breaks, [joins.size])))
    return pairs_within(run + 1)


def totals_by(codes: np.ndarray, k: int, counts: np.ndarray) -> np.ndarray:
    """``counts`` added up per code 0..k-1, exactly in int64 (``np.bincount`` weights are floats)."""
    out = np.zeros(k, dtype=np.int64)
    np.add.at(out, codes, counts)
    return out


def value_cells(arrays: dict, counts: np.ndarray | None = None):
    """The distinct combinations of labels and how many instances carry each.

    ``arrays`` maps a name to a 1-D array of labels (all of one length); each
    position is one instance, or ``counts[i]`` instances when ``counts`` is
    given. Returns ``(values, total)``: ``values[name]`` the label of each
    combination (cell) and ``total`` its count (int64, exact: the counts add
    up to N < 2**63). Mergeable: the cells of two parts of the data, put one
    after the other with their counts, give the cells of the whole (the Dask
    path counts each chunk on a worker and merges on the client this way).
    """
    labs = [check_labels(arr, name, min_n=1) for name, arr in arrays.items()]
    table = dense_counts(*labs) if counts is None else None
    if table is not None:                                # few labels: one pass, one table
        cell = np.nonzero(table)
        return ({lab.name: lab.value_of(at) for lab, at in zip(labs, cell)},
                table[cell].astype(np.int64))
    code, k = labs[0].codes, labs[0].k
    for lab in labs[1:]:
        code, k = joint_codes(code, k, lab.codes, lab.k)
    member = np.empty(k, dtype=np.intp)                  # one instance of each cell
    member[code] = np.arange(code.shape[0])
    if counts is None:
        total = np.bincount(code, minlength=k).astype(np.int64)
    else:
        total = totals_by(code, k, np.asarray(counts, dtype=np.int64))
    values = {lab.name: lab.values[lab.codes[member]] for lab in labs}
    return values, total


def _dense_shape(labelings, max_cells: int) -> tuple[int, ...] | None:
    """The shape of the dense table of ``labelings``, or None when it has more than ``max_cells``."""
    shape = tuple(lab.dense_form()[2] for lab in labelings)
    return None if math.prod(shape) > max_cells else shape


def _strides(shape) -> list[int]:
    """How far the flat (C-order) index moves per step along each axis of ``shape``."""
    return [math.prod(shape[axis + 1:]) for axis in range(len(shape))]


def _block_cells(parts, lows, strides, cell: np.ndarray, term: np.ndarray) -> np.ndarray:
    """``cell[i] = sum over axes of (parts[axis][i] - lows[axis]) * strides[axis]``.

    The flat index of each instance of a block in a dense table; ``cell`` and
    ``term`` are buffers of the block's length (written over).
    """
    for axis, (part, lo, stride) in enumerate(zip(parts, lows, strides)):
        if axis and not lo and stride == 1:    # the common last axis: add as it is
            np.add(cell, part, out=cell, dtype=np.intp)
            continue
        out = cell if axis == 0 else term
        if lo:
            np.subtract(part, lo, out=out, dtype=np.intp)     # 0 .. span - 1
            part = out
        if stride != 1:
            np.multiply(part, stride, out=out, dtype=np.intp)
        elif part is not out:
            np.copyto(out, part, casting="same_kind")
        if axis:
            cell += term
    return cell


def flat_cells(labelings, shape, block: int = _BLOCK):
    """Yield ``(start, stop, cell)`` over blocks of instances.

    ``cell[i - start]`` is the flat (C-order) index in a table of ``shape`` of
    instance ``i``'s combination of labels, e.g. ``(a - lo_a) * span_b + (b - lo_b)``
    for two labellings. The arrays are reused from block to block.
    """
    forms = [lab.dense_form() for lab in labelings]
    n = labelings[0].n
    strides = _strides(shape)
    lows = [lo for _, lo, _ in forms]
    size = min(block, n)
    cell_buffer = np.empty(size, dtype=np.intp)
    term_buffer = np.empty(size, dtype=np.intp)
    for start in range(0, n, block):
        stop = min(start + block, n)
        parts = [arr[start:stop] for arr, _, _ in forms]
        yield start, stop, _block_cells(parts, lows, strides, cell_buffer[:stop - start],
                                        term_buffer[:stop - start])


def _block_range(part: np.ndarray, quick: bool) -> tuple[int, int]:
    """A range ``(low, high)`` holding every label of a block.

    ``quick``: one bitwise OR of the block instead of a min and a max. When it
    is non-negative so is every label, and every label is below the next power
    of two (labels 0..9 give 0..15); a range that is too wide only adds empty
    cells to the table. Negative labels get their exact min and max.
    """
    if quick:
        bits = int(np.bitwise_or.reduce(part))
        if bits >= 0:
            return 0, (1 << bits.bit_length()) - 1
    return int(part.min()), int(part.max())


def _cropped(table: np.ndarray, lows: list, axes) -> tuple[np.ndarray, list]:
    """``table`` (with the ranges starting at ``lows``) without the empty ends of ``axes``."""
    cut = [slice(None)] * table.ndim
    lows = list(lows)
    for axis in axes:
        occupied = np.flatnonzero(table.sum(axis=tuple(a for a in range(table.ndim) if a != axis)))
        first, last = (int(occupied[0]), int(occupied[-1])) if occupied.size else (0, 0)
        cut[axis] = slice(first, last + 1)
        lows[axis] += first
    return np.ascontiguousarray(table[tuple(cut)]), lows


def _counts_finding_ranges(labelings, max_cells: int) -> np.ndarray | None:
    """:func:`dense_counts` for integer labels whose range is not known yet, in one pass.

    Each block's range of labels is found while the block is in cache, just
    before it is counted (:func:`_block_range`); when it falls outside the
    table so far, the table grows (its counts are copied into the larger one:
    rare, as every label usually shows up in the first block). Reading the
    labels once instead of once for the range and once for the counts is what
    makes this path close to the cost of reading the labels. At the end the
    table is cut to the labels that occur, which gives each labelling its
    exact smallest and largest label. Returns None (ranges still unknown) when
    the table would have more than ``max_cells`` cells.
    """
    n = labelings[0].n
    forms = [(lab.ints, None, None) if not lab.range_known else lab.dense_form()
             for lab in labelings]
    lows = [lo for _, lo, _ in forms]                   # the table's range along each axis
    spans = [span for _, _, span in forms]
    finding = [axis for axis, form in enumerate(forms) if form[1] is None]
    quick = True                                        # power-of-two ranges from an OR
    table = None
    cell_buffer = term_buffer = np.empty(0, dtype=np.intp)
    start = 0
    while start < n:
        stop = min(start + max(_BLOCK, 0 if table is None else table.size), n)
        parts = [arr[start:stop] for arr, _, _ in forms]
        while True:
            ranges = {axis: _block_range(parts[axis], quick) for axis in finding}
            if table is not None and all(lows[axis] <= low and high < lows[axis] + spans[axis]
                                         for axis, (low, high) in ranges.items()):
                break                                   # the block fits the table
            new_lows, new_spans = list(lows), list(spans)
            for axis, (low, high) in ranges.items():
                if table is not None:
                    low, high = min(low, lows[axis]), max(high, lows[axis] + spans[axis] - 1)
                new_lows[axis], new_spans[axis] = low, high - low + 1
            if math.prod(new_spans) <= max_cells:
                grown = np.zeros(new_spans, dtype=np.int64)
                if table is not None:                   # the counts so far, at their place
                    grown[tuple(slice(lo - new, lo - new + span) for lo, new, span
                                in zip(lows, new_lows, spans))] = table
                table, lows, spans = grown, new_lows, new_spans
                break
            if not quick:
                return None
            quick = False                               # too wide: exact ranges from now on
            if table is not None:
                table, lows = _cropped(table, lows, finding)
                spans = list(table.shape)
        size = stop - start
        if cell_buffer.shape[0] < size:
            cell_buffer, term_buffer = np.empty(size, dtype=np.intp), np.empty(size, dtype=np.intp)
        cell = _block_cells(parts, lows, _strides(spans), cell_buffer[:size], term_buffer[:size])
        table.reshape(-1)[:] += np.bincount(cell, minlength=table.size)
        start = stop
    table, lows = _cropped(table, lows, finding)
    for axis in finding:
        labelings[axis].settle_range(lows[axis], lows[axis] + table.shape[axis] - 1)
    return table


def _counts_coding(labelings, max_cells: int) -> np.ndarray | None:
    """:func:`dense_counts` of labellings that all wait for their word table, coding them
    while counting (:func:`hashing.count_cells`: one gather per label, no codes written).

    Instances with a label the tables' samples missed are counted afterwards, with
    exact codes among all the labels (the table grows by their labels). None when
    some labelling has no word table, the table would have more than
    ``max_cells`` cells, or :func:`hashing.count_cells` gives up.
    """
    tables = [lab.word_table if not lab.range_known else None for lab in labelings]
    if any(table is None for table in tables):
        return None
    if 1 << sum(max(1, (t.k - 1).bit_length()) for t in tables) > max_cells:
        return None
    found = count_cells(tables)
    if found is None:
        return None
    counts, missed = found
    counts = counts[tuple(slice(0, t.k) for t in tables)]
    values = [t.values for t in tables]
    if missed.shape[0]:                # labels no sample saw: sorted in with the others
        labels = [t.arr[missed] for t in tables]
        values = [np.unique(np.concatenate([v, x])) for v, x in zip(values, labels)]
        if math.prod(v.shape[0] for v in values) > max_cells:
            return None
        grown = np.zeros([v.shape[0] for v in values], dtype=np.int64)
        grown[np.ix_(*(np.searchsorted(v, t.values) for v, t in zip(values, tables)))] = counts
        np.add.at(grown, tuple(np.searchsorted(v, x) for v, x in zip(values, labels)), 1)
        counts = grown
    for lab, v in zip(labelings, values):
        lab.take_values(v)
    return counts


def dense_counts(*labelings: Labels, max_cells: int | None = None) -> np.ndarray | None:
    """How many instances carry each combination of labels, as a dense table.

    One axis per labelling, along its :meth:`Labels.dense_form` (raw small-range
    integers or codes; values that do not occur get count 0). Built by
    ``np.bincount`` of the flat cell indices, block by block, in O(N). Returns
    None when the table would have more than ``max(N, DENSE_MIN_CELLS)`` cells
    (or more than ``max_cells``). Integer labels whose range is not known yet
    have it found in the same pass (:func:`_counts_finding_ranges`). Each
    labelling takes its group sizes from the table's margins.
    """
    limit = max(labelings[0].n, DENSE_MIN_CELLS)
    if max_cells is not None:
        limit = min(limit, max_cells)
    for lab in labelings:              # spread-out integers: grid or word table, from a sample
        lab.look_at_sample()
    if any(lab.word_table is not None and not lab.range_known for lab in labelings):
        counts = _counts_coding(labelings, limit)
        if counts is None:             # the labels get codes first
            for lab in labelings:
                if lab.word_table is not None:
                    lab.dense_form()
            return dense_counts(*labelings, max_cells=max_cells)
    elif all(lab.range_known for lab in labelings):
        shape = _dense_shape(labelings, limit)
        if shape is None:
            return None
        cells = math.prod(shape)
        counts = np.zeros(cells, dtype=np.int64)
        # blocks at least as large as the table, so adding their counts stays O(N)
        for _, _, cell in flat_cells(labelings, shape, max(_BLOCK, cells)):
            counts += np.bincount(cell, minlength=cells)
        counts = counts.reshape(shape)
    else:
        counts = _counts_finding_ranges(labelings, limit)
        if counts is None:     # too wide: maybe spread-out integers, which get codes now
            for lab in labelings:
                lab.dense_form()
            return dense_counts(*labelings, max_cells=max_cells)
    for axis, lab in enumerate(labelings):
        lab.adopt_sizes(counts.sum(axis=tuple(a for a in range(counts.ndim) if a != axis)))
    return counts


def dense_pair_counts(*labelings: Labels) -> dict | None:
    """The dense tables of every pair of ``labelings``, from one pass over the labels.

    ``{(i, j): table}`` for ``i < j``, each as :func:`dense_counts` of
    ``labelings[i], labelings[j]`` would give it, but the labels are read once,
    a cache-sized block at a time, for all pairs (instead of once per pair).
    None when some pair's table would have more than ``max(N, DENSE_MIN_CELLS)``
    cells. Each labelling takes its group sizes from the margins.
    """
    n = labelings[0].n
    pairs = [(i, j) for i in range(len(labelings)) for j in range(i + 1, len(labelings))]
    spans = [lab.dense_form()[2] for lab in labelings]
    if not all(cells_fit_dense(n, spans[i] * spans[j]) for i, j in pairs):
        return None
    block = max(_BLOCK, max(spans[i] * spans[j] for i, j in pairs))
    tables = {pair: np.zeros(spans[pair[0]] * spans[pair[1]], dtype=np.int64) for pair in pairs}
    cells = {pair: flat_cells([labelings[i] for i in pair], (spans[pair[0]], spans[pair[1]]), block)
             for pair in pairs}
    for _ in range(0, n, block):                         # the pairs advance block by block
        for pair in pairs:
            _, _, cell = next(cells[pair])
            tables[pair] += np.bincount(cell, minlength=tables[pair].shape[0])
    out = {pair: tables[pair].reshape(spans[pair[0]], spans[pair[1]]) for pair in pairs}
    for (i, j), table in out.items():
        labelings[i].adopt_sizes(table.sum(axis=1))
        labelings[j].adopt_sizes(table.sum(axis=0))
    return out


#: Largest dense contingency table read cell by cell; beyond it, sorting the pairs is faster.
_DENSE_TABLE_CELLS = 1 << 18


def _rank_of_occurring(offsets: np.ndarray, span: int, k: int, ordered: bool = False) -> np.ndarray:
    """The codes 0..k-1 of a labelling from offsets along its :meth:`Labels.dense_form`.

    ``span`` is the length of that range and ``k`` the number of values that
    occur; the others get no code. Every value that occurs must be among
    ``offsets``; ``ordered`` says they are sorted.
    """
    if k == span:                          # every value occurs: the offset is the code
        return offsets.astype(np.intp, copy=False)
    if ordered:                            # the rank is the number of changes before
        code = np.empty(offsets.shape[0], dtype=np.intp)
        code[0] = 0
        np.cumsum(offsets[1:] != offsets[:-1], out=code[1:])
        return code
    present = np.zeros(span, dtype=bool)
    present[offsets] = True
    return (np.cumsum(present) - 1)[offsets]


def _placed_on_read(attribute: str, doc: str) -> property:
    """A property of :class:`ContingencyTable` that the sorted path fills when first read."""
    def get(table):
        if table._sorted_cells is not None:
            table._place_sorted_cells()
        return getattr(table, attribute)

    def put(table, value):
        setattr(table, attribute, value)

    return property(get, put, doc=doc)


class ContingencyTable(Result):
    """The contingency table ``n_ij = |C_i ∩ T_j|`` of a clustering against the truth.

    Orientation (as in the lecture): **rows are the clusters** ``C_i`` of
    ``pred``, **columns are the classes** ``T_j`` of ``truth``. scikit-learn's
    ``contingency_matrix(truth, pred)`` is the transpose.

    Attributes
    ----------
    counts : ndarray of shape (r, k)
        ``counts[i, j] = n_ij``.
    clusters, classes : ndarray
        The labels of the rows and of the columns.
    cluster_sizes : ndarray of shape (r,)
        Row margins ``n_i = |C_i|``.
    class_sizes : ndarray of shape (k,)
        Column margins ``m_j = |T_j|``.
    n : int
        Number of instances.
    """

    def __init__(self, truth: Labels, pred: Labels, *, plain: bool = False):
        self._truth, self._pred = truth, pred
        self.n = truth.n
        self._dense = None
        joint = None
        if not plain:                          # None when the labels have too many values
            joint = dense_counts(pred, truth, max_cells=_DENSE_TABLE_CELLS)
        if plain:                              # the plain code, which the fast paths must match
            self._count_cells(truth, pred)
        elif joint is None:
            self._read_sorted(truth, pred)
        else:
            self._read_dense(joint)
        self.clusters = pred.values
        self.classes = truth.values

    def _count_cells(self, truth: Labels, pred: Labels) -> None:
        """The plain path: code the (cluster, class) pairs, count each code."""
        self.cluster_sizes = pred.sizes()
        self.class_sizes = truth.sizes()
        cells, k = joint_codes(pred.codes, pred.k, truth.codes, truth.k)
        member = np.empty(k, dtype=np.intp)  # any one instance of each cell
        member[cells] = np.arange(cells.shape[0])
        #: Non-zero cells: row index, column index and count, one entry per cell.
        self.cell_cluster = pred.codes[member]
        self.cell_class = truth.codes[member]
        self.cell_count = np.bincount(cells, minlength=k)

    #: Row and column of each non-empty cell; the sorted path finds them when first read
    #: (the pair-counting measures need only the counts and the margins).
    _cell_cluster = _cell_class = None
    _sorted_cells = None

    def _read_sorted(self, truth: Labels, pred: Labels) -> None:
        """The fast path for many labels: the non-empty cells from one sort of the pairs."""
        self.cluster_sizes = pred.sizes()
        self.class_sizes = truth.sizes()
        self._sorted_cells, self.cell_count = joint_counts(pred, truth)  # by cluster, then class
        # the ranges the flat indices refer to (reading codes later changes dense_form)
        self._sorted_spans = ((pred.dense_form()[2], pred.k), (truth.dense_form()[2], truth.k))

    def _place_sorted_cells(self) -> None:
        """Row and column of the cells of :meth:`_read_sorted` from their flat indices."""
        (span_p, k_p), (span_t, k_t) = self._sorted_spans
        row, col = np.divmod(self._sorted_cells, span_t)
        self._cell_cluster = _rank_of_occurring(row, span_p, k_p, ordered=True)
        self._cell_class = _rank_of_occurring(col, span_t, k_t)
        self._sorted_cells = None

    cell_cluster = _placed_on_read("_cell_cluster", "The row (cluster code) of each non-empty cell.")
    cell_class = _placed_on_read("_cell_class", "The column (class code) of each non-empty cell.")

    def _read_dense(self, joint: np.ndarray) -> None:
        """The fast path: ``joint`` counts every (cluster value, class value) in range."""
        rows = joint.sum(axis=1) > 0           # values that occur: the clusters ...
        cols = joint.sum(axis=0) > 0           # ... and the classes
        counts = joint if rows.all() and cols.all() else joint[rows][:, cols]
        self.cluster_sizes = counts.sum(axis=1)
        self.class_sizes = counts.sum(axis=0)
        self.cell_cluster, self.cell_class = np.nonzero(counts)   # row-major, as the codes
        self.cell_count = counts[self.cell_cluster, self.cell_class]
        self._dense = np.ascontiguousarray(counts)

    @classmethod
    def from_cells(cls, truth_values, pred_values, cell_count) -> "ContingencyTable":
        """The table of non-empty cells given by value: ``cell_count[c]`` instances
        have class ``truth_values[c]`` and cluster ``pred_values[c]`` (each pair once)."""
        table = cls.__new__(cls)
        t = check_labels(truth_values, "truth", min_n=1)
        p = check_labels(pred_values, "pred", min_n=1)
        table._truth = table._pred = None
        table._dense = None
        order = np.lexsort((t.codes, p.codes))          # row-major, as the other paths
        table.cell_cluster, table.cell_class = p.codes[order], t.codes[order]
        table.cell_count = np.asarray(cell_count, dtype=np.int64)[order]
        table.cluster_sizes = totals_by(table.cell_cluster, p.k, table.cell_count)
        table.class_sizes = totals_by(table.cell_class, t.k, table.cell_count)
        table.n = int(table.cell_count.sum())
        table.clusters, table.classes = p.values, t.values
        return table

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.clusters.shape[0]), int(self.classes.shape[0]))

    @property
    def counts(self) -> np.ndarray:
        if self._dense is None:
            r, k = self.shape
            if r * k > 50_000_000:
                raise MemoryError(f"the contingency table would have {r} x {k} cells; "
                                  "use the non-zero cells (cell_cluster, cell_class, "
                                  "cell_count) instead")
            dense = np.zeros((r, k), dtype=np.int64)
            dense[self.cell_cluster, self.cell_class] = self.cell_count
            self._dense = dense
        return self._dense

    def __array__(self, dtype=None, copy=None):
        arr = self.counts
        return arr.astype(dtype) if dtype is not None else arr.copy()

    def __eq__(self, other):
        return NotImplemented

    __hash__ = None

    def derivation(self) -> Derivation:
        d = Derivation("Contingency table")
        d.text("Rows are the clusters $C_i$ (of `pred`), columns the classes $T_j$ "
               "(of `truth`); each cell counts the instances in both: "
               "$n_{ij} = |C_i \\cap T_j|$. Margins: $n_i = |C_i|$ (row sums), "
               "$m_j = |T_j|$ (column sums).")
        r, k = self.shape
        if r * k > 400:
            d.text(f"{r} clusters x {k} classes: too large to print; "
                   f"{int((self.cell_count > 0).sum())} cells are non-zero.")
            return d
        counts = self.counts
        header = ["clusters ↓ classes →"] + [str(c) for c in self.classes] + ["n_i"]
        rows = [[str(self.clusters[i])] + [int(v) for v in counts[i]] + [int(self.cluster_sizes[i])]
                for i in range(r)]
        rows.append(["m_j"] + [int(m) for m in self.class_sizes] + [self.n])
        d.table(header, rows, max_rows=max(len(rows), 21))
        return d


def contingency_table(truth, pred) -> ContingencyTable:
    """The contingency table of ``pred`` (rows, clusters) against ``truth`` (columns, classes).

    .. math:: n_{ij} = |C_i \\cap T_j|

    Parameters
    ----------
    truth : sequence of hashable labels, length N
        Ground-truth classes ``T_j``.
    pred : sequence of hashable labels, length N
        Clusters ``C_i`` found by an algorithm.

    Returns
    -------
    ContingencyTable
        ``np.asarray(table)`` is the r x k count matrix; ``.clusters``,
        ``.classes``, ``.cluster_sizes``, ``.class_sizes`` give labels and
        margins. Its display states the orientation.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, ch. 17
    (the lecture's notation).

    Examples
    --------
    >>> from prayatul_edu import contingency_table
    >>> t = contingency_table(truth=["a", "a", "b"], pred=[1, 2, 2])
    >>> t.counts.tolist()
    [[1, 0], [1, 1]]
    >>> t.cluster_sizes.tolist(), t.class_sizes.tolist()
    ([1, 2], [2, 1])

    Dask arrays (``pip install prayatul-edu[dask]``) are counted chunk by chunk
    on the workers and merged on the client (:mod:`prayatul_edu.dask_counts`).
    """
    # One instance is enough for a table (purity, entropy, ... are defined at N = 1);
    # the pair-counting measures check N >= 2 themselves.
    if dask_counts.is_dask(truth, pred):
        values, total = dask_counts.merged_cells(value_cells, truth=truth, pred=pred)
        return ContingencyTable.from_cells(values["truth"], values["pred"], total)
    truth_l, pred_l = check_partitions(truth=truth, pred=pred, min_n=1)
    return ContingencyTable(truth_l, pred_l)


def labels_from_table(counts, clusters=None, classes=None):
    """Expand a contingency table back into two label vectors.

    ``counts[i][j]`` instances get cluster ``clusters[i]`` and class
    ``classes[j]`` (defaults: 1..r and 1..k, as in the lecture's C_1.. and T_1..).
    Returns ``(truth, pred)``, ready for any measure of this package - handy
    for the lecture's examples, which are given as tables rather than labels.

    >>> truth, pred = labels_from_table([[2, 0], [1, 3]])
    >>> truth.tolist(), pred.tolist()
    ([1, 1, 1, 2, 2, 2], [1, 1, 2, 2, 2, 2])
    """
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.size == 0:
        raise ValueError(f"counts: expected a non-empty 2-D table, got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.integer):
        if not np.all(np.isfinite(counts)) or np.any(counts != np.round(counts)):
            raise ValueError("counts: every cell must be a whole number of instances")
        counts = counts.astype(np.int64)
    if (counts < 0).any():
        raise ValueError("counts: cells must be non-negative")
    r, k = counts.shape
    clusters = np.arange(1, r + 1) if clusters is None else np.asarray(clusters)
    classes = np.arange(1, k + 1) if classes is None else np.asarray(classes)
    if clusters.shape != (r,):
        raise ValueError(f"clusters: expected {r} labels (one per row), got {clusters.shape}")
    if classes.shape != (k,):
        raise ValueError(f"classes: expected {k} labels (one per column), got {classes.shape}")
    flat = counts.ravel()
    pred = np.repeat(np.repeat(clusters, k), flat)
    truth = np.repeat(np.tile(classes, r), flat)
    order = np.argsort(truth, kind="stable")
    return truth[order], pred[order]
