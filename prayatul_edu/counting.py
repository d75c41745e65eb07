"""Counting: group sizes, pairs within groups, and the contingency table.

Almost every external measure is a function of one table: how many instances
fall in cluster ``C_i`` *and* class ``T_j``. This module counts it - and the
pairs inside groups - exactly and in O(N), with no N x N anything.

What it counts are plain NumPy arrays, never the labels a user passed: a
measure reads check -> code -> count -> formula, and :mod:`prayatul_edu.labels`
(which codes the labels, and may call the counting passes below while it does)
hands this module each labelling in its *dense form* ``(arr, lo, span)``:
``arr - lo`` lies in ``0 .. span - 1`` (small-range integers as the caller gave
them, or codes ``0 .. k - 1`` with ``lo = 0``), or codes with their number
``k`` (:func:`group_sizes`). This module imports no other module of the package
but :mod:`prayatul_edu.steps` (the :class:`ContingencyTable` is a result with a
derivation); :mod:`prayatul_edu.contingency` puts the pieces together for the
public :func:`~prayatul_edu.contingency.contingency_table`.

Fast path
    Labels with a small range (cluster numbers, ~10 classes ...) are counted
    straight into a *dense* table with one cell for every combination of values:
    the instance whose labels are ``(a, b)`` adds 1 to cell ``a * span_b + b``,
    i.e. one ``np.bincount`` of those flat indices (:func:`dense_counts`),
    computed a cache-sized block of instances at a time. Margins of that table
    give every group size, so no labels need factorising. Integers whose range
    nobody has looked for yet are counted while it is found, block by block
    (:func:`counts_finding_ranges`: one pass, not one for the range and one
    for the counts).

Many labels
    When a table of every combination would be larger than the data (or too
    large for the cache), the same flat index of a *pair* of labellings
    (:func:`joint_key`) is sorted once: equal indices end up next to each
    other, and the runs of equal values are the non-empty cells and their
    counts (:func:`joint_counts`), or directly the pairs inside them
    (:func:`joint_pairs_within`: round ``d`` counts the values equal to the one
    ``d`` places before, so short runs cost a few comparisons and no new
    arrays). One sort of N integers, as 32-bit integers when the index fits
    (twice as fast as 64-bit ones), and even beyond 2**32 cells: the index is
    first cut (``np.partition``) into pieces of a 32-bit range
    (:func:`_sorted_pieces`). No ``np.unique(return_inverse=True)`` (which
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

from .steps import Derivation, Result

#: Derivations list every pair of instances, one row each, up to this many instances
#: (66 pairs): a student can check a hand count pair by pair.
PAIR_LIST_MAX_N = 12

__all__ = ["PAIR_LIST_MAX_N", "comb2", "ContingencyTable", "joint_codes", "joint_codes_of", "group_sizes",
           "dense_counts", "counts_finding_ranges", "dense_pair_counts", "dense_sizes", "shifted",
           "pairs_within", "labels_from_table", "joint_key", "joint_counts",
           "joint_pairs_within", "joint_pairs_within_each", "cells_fit_dense",
           "dense_cell_limit", "table_limit", "totals_by", "DENSE_TABLE_MAX_CELLS"]

_INT64_SAFE_N = 3_037_000_499  # largest n with n * (n - 1) < 2**63

#: A dense table is built when it has at most max(N, DENSE_MIN_CELLS) cells: then
#: filling and reading it is O(N) like the data ...
DENSE_MIN_CELLS = 1 << 16
#: ... but beyond this many cells (int64 counts: 4 MB) the table no longer stays in
#: cache, and where a sort can do the same (:func:`cells_fit_dense`), filling it costs
#: more than sorting a 32-bit cell index unless it has at most N / 2 cells (measured
#: at N = 10**6 and 10**7: 10**6 cells take 19 ms to fill from 10**6 instances, their
#: sort 12 ms).
DENSE_CACHE_CELLS = 1 << 19
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


def joint_codes_of(*coded: tuple[np.ndarray, int]) -> tuple[np.ndarray, int]:
    """Codes ``0 .. k - 1`` of the groups of instances that agree on every labelling, and k.

    Each labelling is given as ``(codes, k)``; :func:`joint_codes` of the first two,
    then of that with the third, and so on.
    """
    codes, k = coded[0]
    for more, k_more in coded[1:]:
        codes, k = joint_codes(codes, k, more, k_more)
    return codes, k


def group_sizes(*coded: tuple[np.ndarray, int]) -> np.ndarray:
    """Sizes of the non-empty groups of instances that agree on every labelling.

    Each labelling is given as ``(codes, k)``: codes ``0 .. k - 1``, every one used.
    """
    codes, k = joint_codes_of(*coded)
    return np.bincount(codes, minlength=k)


def dense_sizes(form: tuple[np.ndarray, int, int]) -> np.ndarray:
    """How many instances carry each value along a dense form ``(arr, lo, span)`` (0 where none)."""
    arr, lo, span = form
    return np.bincount(shifted(arr, lo), minlength=span)


def shifted(arr: np.ndarray, lo: int) -> np.ndarray:
    """``arr - lo`` as non-negative intp offsets (no copy when ``lo`` is 0 and arr is intp)."""
    if lo:
        return np.subtract(arr, lo, dtype=np.intp)
    return arr.astype(np.intp, copy=False)


#: A contingency table's ``counts`` (dense r x k) are made up to this many cells (400 MB);
#: beyond, only its non-empty cells exist (measures that need more say so).
DENSE_TABLE_MAX_CELLS = 50_000_000


def dense_cell_limit(n: int) -> int:
    """The most cells a dense table may have for ``n`` instances: filling it is O(N)
    and faster than a sort (N cells while they fit in cache, N / 2 beyond)."""
    return max(DENSE_MIN_CELLS, min(n, DENSE_CACHE_CELLS), n // 2)


def cells_fit_dense(n: int, cells: int) -> bool:
    """Whether a dense table of ``cells`` cells is worth filling for ``n`` instances (O(N))."""
    return cells <= dense_cell_limit(n)


#: Values in a range this long are sorted as uint32 (:func:`joint_key` with ``narrow``; the
#: pieces of :func:`_sorted_pieces`).
_NARROW_RANGE = 2**32


def joint_key(a: tuple, b: tuple, narrow: bool = False,
              out: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """The flat cell index ``(a - lo_a) * span_b + (b - lo_b)`` of every instance.

    ``a`` and ``b`` are dense forms ``(arr, lo, span)``; returns the index and the
    number of cells ``span_a * span_b`` (at most about 4 N**2, so the index fits
    in int64 for any N that fits in memory). ``narrow``: as uint32 when every
    index is below 2**32 (sorting it then takes less than half the time).
    The arithmetic wraps around modulo 2**32 or 2**64, which gives the exact
    index when it fits, even for labels far from 0. ``out``: an int64 array of
    at least N entries to write the index into (uint32 into its first half).
    """
    arr_a, lo_a, span_a = a
    arr_b, lo_b, span_b = b
    cells = span_a * span_b
    dtype = np.dtype(np.uint32 if narrow and cells <= _NARROW_RANGE else np.int64)
    bits = 8 * dtype.itemsize

    def wrapped(value: int):                 # value modulo 2**bits, as a scalar of dtype
        value %= 2**bits
        return dtype.type(value - 2**bits if dtype.kind == "i" and value >= 2**(bits - 1)
                          else value)

    key = None if out is None else out.view(dtype)[:arr_a.shape[0]]
    key = np.multiply(arr_a, wrapped(span_b), out=key, dtype=dtype, casting="unsafe")
    np.add(key, arr_b, out=key, dtype=dtype, casting="unsafe")
    offset = wrapped(lo_a * span_b + lo_b)
    if offset:
        np.subtract(key, offset, out=key, dtype=dtype, casting="unsafe")
    return key, cells


#: Rounds of :func:`_pairs_in_runs` before it reads the run lengths instead.
_RUN_ROUNDS = 12


def _pairs_in_runs(ordered: np.ndarray, scratch: np.ndarray | None = None) -> int:
    """Pairs of equal values in the sorted array ``ordered``: sum C(L, 2) over its runs.

    A run of ``L`` equal values holds ``L - d`` pairs of values ``d`` places
    apart, for ``d = 1 .. L - 1``, and these add up to ``C(L, 2)``. So round
    ``d`` counts the values equal to the one ``d`` places before, until a round
    finds none. With many labels the runs are short: a few rounds, each one
    comparison of the array into ``scratch`` (a bool array of at least N - 1
    entries), and no large array is made. Longer runs are measured instead
    (:func:`_cells_of_sorted`).
    """
    n = ordered.shape[0]
    if scratch is None:
        scratch = np.empty(max(n - 1, 0), dtype=bool)
    total = 0
    for d in range(1, min(n, _RUN_ROUNDS + 1)):
        same = np.equal(ordered[d:], ordered[:-d], out=scratch[:n - d])
        found = int(np.count_nonzero(same))
        if found == 0:
            return total
        total += found
    if n <= _RUN_ROUNDS + 1:
        return total
    return pairs_within(_cells_of_sorted(ordered)[1])


def joint_counts(a: tuple, b: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The non-empty cells of the joint labelling of ``a`` and ``b``, and their counts.

    Returns ``(cell, count)``, ``cell`` the flat index of :func:`joint_key`
    (increasing; uint32 when every index fits in it, else int64) and ``count``
    how many instances it holds (int64). The one place that decides how the
    cells are listed (:class:`ContingencyTable` calls it when its cells are
    first read): a ``np.bincount`` when the table of every combination is
    small (:func:`cells_fit_dense`: its cost is O(N) like the sort's reading,
    without the sort), else one sort of the indices and their runs of equal
    values, as 32-bit integers even beyond 2**32 cells (:func:`_sort_in_pieces`).
    """
    n = a[0].shape[0]
    if cells_fit_dense(n, a[2] * b[2]):
        key, cells = joint_key(a, b)
        counts = np.bincount(key, minlength=cells)
        cell = np.flatnonzero(counts)
        return cell, counts[cell]
    key, cells = joint_key(a, b, narrow=True)
    if key.dtype == np.uint32:
        key.sort()
    else:
        _sort_in_pieces(key, cells, np.empty(n, dtype=np.uint32))
    return _cells_of_sorted(key)


def _cells_of_sorted(ordered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of the sorted array ``ordered`` (its dtype) and how often each occurs."""
    n = ordered.shape[0]
    first = np.empty(n, dtype=bool)                     # the first instance of each cell
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    count = np.empty(starts.shape[0], dtype=np.int64)   # the gaps between starts, and the last
    np.subtract(starts[1:], starts[:-1], out=count[:-1])
    count[-1] = n - starts[-1]
    return ordered[starts], count


def joint_pairs_within(a: tuple, b: tuple) -> int:
    """Pairs of instances in one group of ``a`` *and* one group of ``b``: sum C(n_ab, 2).

    ``a`` and ``b`` are dense forms ``(arr, lo, span)``.

    The same number as ``pairs_within(group_sizes(a, b))``, faster: see
    :func:`joint_pairs_within_each`.
    """
    return joint_pairs_within_each([(a, b)])[0]


def joint_pairs_within_each(pairs) -> list[int]:
    """:func:`joint_pairs_within` of each ``(a, b)`` in ``pairs`` (dense forms, all of N instances).

    A ``np.bincount`` of :func:`joint_key` when the table is small, else one
    sort of it and its runs of equal values (:func:`_pairs_in_runs`), as 32-bit
    integers even with more than 2**32 cells (:func:`_pairs_of_equal`). The
    pairs share their buffers: fresh memory costs a page fault per 4 kB when
    first written, which for N = 10**6 is a good part of a sort's time.
    """
    out, buffer, narrow, scratch = [], None, None, None
    for a, b in pairs:
        n = a[0].shape[0]
        table = dense_counts(a, b, max_cells=dense_cell_limit(n))   # None: sorting is faster
        if table is not None:
            out.append(pairs_within(table))
            continue
        if buffer is None:
            buffer = np.empty(n, dtype=np.int64)
            scratch = np.empty(n, dtype=bool)
        key, cells = joint_key(a, b, narrow=True, out=buffer)
        if key.dtype == np.uint32:
            key.sort()
            out.append(_pairs_in_runs(key, scratch))
            continue
        if narrow is None:
            narrow = np.empty(n, dtype=np.uint32)
        out.append(_pairs_of_equal(key, cells, narrow, scratch))
    return out


#: Cuts of :func:`_pairs_of_equal`, one within the other, before a piece is sorted as int64.
_MAX_HALVINGS = 8


def _sorted_pieces(key: np.ndarray, cells: int,
                   narrow: np.ndarray) -> list[tuple[int, np.ndarray, int]]:
    """``key`` (int64, ``0 <= key < cells``) sorted in pieces, most of them as 32-bit integers.

    Sorting 32-bit integers takes less than half the time of 64-bit ones, so
    ``key`` is cut (in place, by ``np.partition``, O(N)) into pieces until each
    piece's values lie in a range of fewer than 2**32: after cutting at the
    value ``v`` of some rank, the lower part lies in ``[lo, v]``, the upper in
    ``[v, hi]``. The rank is where ``lo + 2**32`` would fall if the values were
    spread evenly (10**5 labels a side: three pieces from two cuts). Each
    piece, minus its ``lo``, is sorted as uint32 in ``narrow`` (a uint32 array
    as long as ``key``). Returns ``(start, values, lo)`` of each piece, in
    order: ``values + lo`` is the sorted ``key`` from ``start`` on. A value
    equal to a cut can lie in several pieces, at the end of one and the start
    of the next.
    """
    pieces = []                                # (start, sorted values, what to add), in order
    todo = [(0, key.shape[0], 0, cells - 1, 0)]   # start, stop, lo, hi, cuts so far
    while todo:
        start, stop, lo, hi, depth = todo.pop()
        if stop - start <= 1:                   # nothing to sort
            pieces += [(start, key[start:stop], 0)] if stop > start else []
            continue
        if hi - lo < _NARROW_RANGE:
            piece = narrow[start:stop]
            np.subtract(key[start:stop], lo, out=piece, casting="unsafe")
            piece.sort()
            pieces.append((start, piece, lo))
        elif depth == _MAX_HALVINGS:           # values far apart at both ends: sort as they are
            key[start:stop].sort()
            pieces.append((start, key[start:stop], 0))
        else:
            # cut where a range of 2**32 would end if the values were spread evenly (a
            # little before), at most halfway; for ranges far wider, halve (fewer passes)
            share = 0.95 * _NARROW_RANGE / (hi - lo + 1)
            share = min(share, 0.5) if share >= 0.25 else 0.5
            mid = start + min(stop - start - 1, max(1, int((stop - start) * share)))
            key[start:stop].partition(mid - start)
            v = int(key[mid])
            todo += [(mid, stop, v, hi, depth + 1), (start, mid, lo, v, depth + 1)]  # lower first
    return pieces


def _pairs_of_equal(key: np.ndarray, cells: int, narrow: np.ndarray, scratch: np.ndarray) -> int:
    """Pairs of equal values in ``key`` (int64, ``0 <= key < cells``): sum C(L, 2) over its groups.

    From the pieces of :func:`_sorted_pieces` (``narrow`` a uint32 array as long
    as ``key``): the pairs inside each piece come from its runs
    (:func:`_pairs_in_runs`); a group of equal values across pieces has its
    pairs across them added where the pieces meet. ``scratch``: a bool array
    as long as ``key``.
    """
    total, last, tail = 0, None, 0              # tail: how many values so far equal the last
    for _, piece, lo in _sorted_pieces(key, cells, narrow):
        size = piece.shape[0]
        total += _pairs_in_runs(piece, scratch)
        head = int(np.searchsorted(piece, piece[0], side="right"))   # values equal to the first
        ends = size - int(np.searchsorted(piece, piece[-1], side="left"))   # ... to the last
        if int(piece[0]) + lo == last:          # a group of equal values across pieces
            total += tail * head
            tail = tail + size if head == size else ends
        else:
            tail = ends
        last = int(piece[-1]) + lo
    return total


def _sort_in_pieces(key: np.ndarray, cells: int, narrow: np.ndarray) -> None:
    """Sort ``key`` (int64, ``0 <= key < cells``) in place, 32-bit pieces at a time.

    The pieces of :func:`_sorted_pieces` (``narrow`` a uint32 array as long as
    ``key``), each plus its ``lo``, written back where they were cut.
    """
    for start, values, lo in _sorted_pieces(key, cells, narrow):
        if values.dtype == np.uint32:
            np.add(values, lo, out=key[start:start + values.shape[0]], dtype=np.int64)


def totals_by(codes: np.ndarray, k: int, counts: np.ndarray) -> np.ndarray:
    """``counts`` added up per code 0..k-1, exactly in int64 (``np.bincount`` weights are floats)."""
    out = np.zeros(k, dtype=np.int64)
    np.add.at(out, codes, counts)
    return out


def _dense_shape(forms, max_cells: int) -> tuple[int, ...] | None:
    """The shape of the dense table of ``forms``, or None when it has more than ``max_cells``."""
    shape = tuple(span for _, _, span in forms)
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


def flat_cells(forms, shape, block: int = _BLOCK):
    """Yield ``(start, stop, cell)`` over blocks of instances of the dense forms ``forms``.

    ``cell[i - start]`` is the flat (C-order) index in a table of ``shape`` of
    instance ``i``'s combination of labels, e.g. ``(a - lo_a) * span_b + (b - lo_b)``
    for two labellings. The arrays are reused from block to block.
    """
    n = forms[0][0].shape[0]
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


def counts_finding_ranges(forms, max_cells: int | None = None
                          ) -> tuple[np.ndarray, list[int]] | None:
    """:func:`dense_counts` for integer arrays whose range is not known yet, in one pass.

    ``forms`` are dense forms ``(arr, lo, span)``, with ``lo`` and ``span`` None
    for the integer arrays whose range is to be found. Returns ``(table, lows)``:
    the counts, cut to the values that occur along those axes, and the smallest
    value of each axis (``lows[axis] + table.shape[axis] - 1`` the largest); so
    the caller learns the exact range of each array from the counting pass.

    Each block's range of labels is found while the block is in cache, just
    before it is counted (:func:`_block_range`); when it falls outside the
    table so far, the table grows (its counts are copied into the larger one:
    rare, as every label usually shows up in the first block). Reading the
    labels once instead of once for the range and once for the counts is what
    makes this path close to the cost of reading the labels. At the end the
    table is cut to the labels that occur, which gives each labelling its
    exact smallest and largest label. Returns None (ranges still unknown) when
    the table would have more than :func:`table_limit` cells.
    """
    n = forms[0][0].shape[0]
    max_cells = table_limit(n, max_cells)
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
    return table, lows


def table_limit(n: int, max_cells: int | None = None) -> int:
    """The most cells a dense table of ``n`` instances may have: ``max(N, DENSE_MIN_CELLS)``
    (filling and reading it is then O(N) like the data), or ``max_cells`` if fewer."""
    limit = max(n, DENSE_MIN_CELLS)
    return limit if max_cells is None else min(limit, max_cells)


def dense_counts(*forms: tuple, max_cells: int | None = None) -> np.ndarray | None:
    """How many instances carry each combination of values, as a dense table.

    One axis per dense form ``(arr, lo, span)``, along ``arr - lo`` (values that
    do not occur get count 0). Built by ``np.bincount`` of the flat cell
    indices, block by block, in O(N). Returns None when the table would have
    more than :func:`table_limit` cells. (Integer arrays whose range is not
    known yet: :func:`counts_finding_ranges`.)
    """
    shape = _dense_shape(forms, table_limit(forms[0][0].shape[0], max_cells))
    if shape is None:
        return None
    cells = math.prod(shape)
    counts = np.zeros(cells, dtype=np.int64)
    # blocks at least as large as the table, so adding their counts stays O(N)
    for _, _, cell in flat_cells(forms, shape, max(_BLOCK, cells)):
        counts += np.bincount(cell, minlength=cells)
    return counts.reshape(shape)


def dense_pair_counts(*forms: tuple) -> dict | None:
    """The dense tables of every pair of dense ``forms``, from one pass over the labels.

    ``{(i, j): table}`` for ``i < j``, each as :func:`dense_counts` of
    ``forms[i], forms[j]`` would give it, but the labels are read once,
    a cache-sized block at a time, for all pairs (instead of once per pair).
    None when some pair's table would have more than ``dense_cell_limit(N)`` cells
    (:func:`cells_fit_dense`). The margins of the tables are the group sizes.
    """
    n = forms[0][0].shape[0]
    pairs = [(i, j) for i in range(len(forms)) for j in range(i + 1, len(forms))]
    spans = [span for _, _, span in forms]
    if not all(cells_fit_dense(n, spans[i] * spans[j]) for i, j in pairs):
        return None
    block = max(_BLOCK, max(spans[i] * spans[j] for i, j in pairs))
    tables = {pair: np.zeros(spans[pair[0]] * spans[pair[1]], dtype=np.int64) for pair in pairs}
    cells = {pair: flat_cells([forms[i] for i in pair], (spans[pair[0]], spans[pair[1]]), block)
             for pair in pairs}
    for _ in range(0, n, block):                         # the pairs advance block by block
        for pair in pairs:
            _, _, cell = next(cells[pair])
            tables[pair] += np.bincount(cell, minlength=tables[pair].shape[0])
    return {pair: tables[pair].reshape(spans[pair[0]], spans[pair[1]]) for pair in pairs}


def _rank_of_occurring(offsets: np.ndarray, span: int, k: int, ordered: bool = False) -> np.ndarray:
    """The codes 0..k-1 of a labelling from offsets along its dense form.

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
        if table._cells_unread:
            table._list_cells()
        if table._sorted_cells is not None and attribute != "_cell_count":
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

    def __init__(self, counts: np.ndarray, clusters: np.ndarray, classes: np.ndarray):
        """The table of ``counts[i, j]`` instances with cluster ``i`` and class ``j`` (a 2-D
        integer array).

        Rows and columns without an instance are left out (a dense table along
        two dense forms has one for every value of their ranges); ``clusters``
        and ``classes`` are the labels of the rows and columns that remain.
        """
        rows = counts.sum(axis=1) > 0          # values that occur: the clusters ...
        cols = counts.sum(axis=0) > 0          # ... and the classes
        counts = counts if rows.all() and cols.all() else counts[rows][:, cols]
        self.cluster_sizes = counts.sum(axis=1)
        self.class_sizes = counts.sum(axis=0)
        self.n = int(self.cluster_sizes.sum())
        self.cell_cluster, self.cell_class = np.nonzero(counts)   # row-major, as the codes
        self.cell_count = counts[self.cell_cluster, self.cell_class]
        self._dense = np.ascontiguousarray(counts)
        self.clusters, self.classes = clusters, classes

    @classmethod
    def _empty(cls, n: int, clusters, classes, cluster_sizes, class_sizes) -> "ContingencyTable":
        table = cls.__new__(cls)
        table.n, table._dense = n, None
        table.clusters, table.classes = clusters, classes
        table.cluster_sizes, table.class_sizes = cluster_sizes, class_sizes
        return table

    @classmethod
    def from_codes(cls, pred: tuple, truth: tuple) -> "ContingencyTable":
        """The plain path, which the fast paths must match: ``pred`` and ``truth`` are
        ``(codes, values)``; code the (cluster, class) pairs, count each code."""
        (pred_codes, clusters), (truth_codes, classes) = pred, truth
        k_p, k_t = clusters.shape[0], classes.shape[0]
        table = cls._empty(pred_codes.shape[0], clusters, classes,
                           np.bincount(pred_codes, minlength=k_p),
                           np.bincount(truth_codes, minlength=k_t))
        cells, k = joint_codes(pred_codes, k_p, truth_codes, k_t)
        member = np.empty(k, dtype=np.intp)  # any one instance of each cell
        member[cells] = np.arange(cells.shape[0])
        #: Non-zero cells: row index, column index and count, one entry per cell.
        table.cell_cluster = pred_codes[member]
        table.cell_class = truth_codes[member]
        table.cell_count = np.bincount(cells, minlength=k)
        return table

    #: Row, column and count of each non-empty cell; the sorted path lists them when first
    #: read (the pair-counting measures need only the pairs in the cells and the margins).
    _cell_cluster = _cell_class = _cell_count = None
    _sorted_cells = None
    #: The sorted path before any cell is read: nothing sorted or listed yet.
    _cells_unread = False

    @classmethod
    def from_sorted(cls, pred: tuple, truth: tuple, clusters, classes, cluster_sizes,
                    class_sizes, *, list_now: bool) -> "ContingencyTable":
        """The fast path for many labels: ``pred`` and ``truth`` are dense forms
        ``(arr, lo, span)``; ``clusters``, ``classes`` the values that occur along
        them, in order, and ``cluster_sizes``, ``class_sizes`` how many instances
        carry each. The cells are listed when first read (or now, with
        ``list_now``: when the arrays are the caller's, which may change after this)."""
        table = cls._empty(pred[0].shape[0], clusters, classes, cluster_sizes, class_sizes)
        table._pred, table._truth = pred, truth
        table._cells_unread = True
        if list_now:
            table._list_cells()
        return table

    def _list_cells(self) -> None:
        """The non-empty cells of :meth:`from_sorted` (by cluster, then class) and their counts."""
        pred, truth = self._pred, self._truth
        self._sorted_cells, self._cell_count = joint_counts(pred, truth)
        self._cells_unread = False

    def pairs_in_cells(self) -> int:
        """Pairs of instances in one cell: ``sum_ij C(n_ij, 2)``, exact.

        On the sorted path, before any cell is read, without listing the cells:
        from the runs of the sorted cell index, cut into pieces of a 32-bit
        range beyond 2**32 cells (:func:`joint_pairs_within`).
        """
        if self._cells_unread:
            return joint_pairs_within(self._pred, self._truth)
        return pairs_within(self.cell_count)

    def _place_sorted_cells(self) -> None:
        """Row and column of the cells of :meth:`from_sorted` from their flat indices."""
        span_p, k_p = self._pred[2], self.clusters.shape[0]
        span_t, k_t = self._truth[2], self.classes.shape[0]
        cells = self._sorted_cells
        row, col = np.empty(cells.shape[0], dtype=np.intp), np.empty(cells.shape[0], dtype=np.intp)
        np.divmod(cells, cells.dtype.type(span_t), out=(row, col))   # as codes: no copies
        self._cell_cluster = _rank_of_occurring(row, span_p, k_p, ordered=True)
        self._cell_class = _rank_of_occurring(col, span_t, k_t)
        self._sorted_cells = None

    cell_cluster = _placed_on_read("_cell_cluster", "The row (cluster code) of each non-empty cell.")
    cell_class = _placed_on_read("_cell_class", "The column (class code) of each non-empty cell.")
    cell_count = _placed_on_read("_cell_count", "The count n_ij of each non-empty cell.")

    @classmethod
    def from_cell_codes(cls, cell_cluster, cell_class, cell_count, clusters,
                        classes) -> "ContingencyTable":
        """The table of non-empty cells given by code: ``cell_count[c]`` instances have
        cluster ``clusters[cell_cluster[c]]`` and class ``classes[cell_class[c]]`` (each
        cell once)."""
        order = np.lexsort((cell_class, cell_cluster))   # row-major, as the other paths
        cell_cluster, cell_class = cell_cluster[order], cell_class[order]
        cell_count = np.asarray(cell_count, dtype=np.int64)[order]
        table = cls._empty(int(cell_count.sum()), clusters, classes,
                           totals_by(cell_cluster, clusters.shape[0], cell_count),
                           totals_by(cell_class, classes.shape[0], cell_count))
        table.cell_cluster, table.cell_class, table.cell_count = cell_cluster, cell_class, cell_count
        return table

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.clusters.shape[0]), int(self.classes.shape[0]))

    @property
    def counts(self) -> np.ndarray:
        if self._dense is None:
            r, k = self.shape
            if r * k > DENSE_TABLE_MAX_CELLS:
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


def labels_from_table(counts, clusters=None, classes=None):
    """Expand a contingency table back into two label vectors.

    ``counts[i][j]`` instances get cluster ``clusters[i]`` and class
    ``classes[j]`` (defaults: 1..r and 1..k, as in the lecture's C_1.. and T_1..).
    Returns ``(truth, pred)``, ready for any measure of this package - handy
    for the lecture's examples, which are given as tables rather than labels.

    Examples
    --------
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
