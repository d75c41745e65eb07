"""Labels become codes: one home for turning what a user passes into integer codes.

A labelling arrives as a list, a NumPy array, a pandas or Dask column, strings,
ids ...; :func:`check_labels` checks it (errors name the argument) and returns a
:class:`Labels`: integer *codes* ``0 .. k - 1`` and the *values* they stand for.
:mod:`prayatul_edu.counting` counts plain arrays (the codes, or small-range
integers with their offset and span: :meth:`Labels.dense_form`); the measures
apply their formula to the counts. A measure reads: check -> code (here) ->
count -> formula, and the data goes down only: this module calls ``counting``'s
passes over plain arrays where coding and counting share a pass
(:func:`dense_table`), never the other way round.

How labels are coded, tried one after the other (cheapest first), all chosen
in one place, :func:`_choose`:

1. **Small range** - integers from ``lo`` to ``hi`` with ``hi - lo`` at most
   about 2N: the label minus ``lo`` *is* its position in a dense table, so
   nothing is coded; the range is found by one min/max pass or during the
   counting pass (:func:`counting.counts_finding_ranges`, driven by
   :func:`dense_table`, which then calls :meth:`Labels.settle_range`;
   :func:`_small_int_range`).
2. **Grid** - spread-out integers ``origin + step * j`` with few grid points
   (ids 1000, 2000, ...): the small offsets ``j`` are the codes
   (:func:`_on_a_grid`, :func:`_sampled_step`).
3. **Word table from a sample** - few distinct labels (strings, or ids on no
   grid) that fit one 64-bit word each, with at least ``HASH_MIN_N``
   instances: a table made from a sample codes them *while they are counted*
   (:class:`hashing.WordTable`, :func:`count_while_coding`); few labels of any
   kind: the sample's labels code all (:func:`_by_sample`, the first step of
   :func:`_coded`).
4. **Hash rounds** - many distinct labels: the rounds of a hash table over their
   words (:func:`_factorize_strings`, :func:`_hashed_or_sorted`,
   :mod:`prayatul_edu.hashing`).
5. **Sort** - what none of the above takes (too few instances, floats, Python
   objects): one sort, ``np.unique``-like (:func:`_factorize`,
   :func:`_factorize_objects`).

Integers are decided lazily (:func:`_choose` runs when counting first reads
them, :meth:`Labels.look_at_sample`, and again once their range is known), strings
when checked. A new kind of label gets its test in :func:`check_labels` and a
step in this list and in :func:`_choose`; nothing outside this module chooses how
labels are coded, and only this module imports :mod:`prayatul_edu.hashing`.
"""
from __future__ import annotations

import collections
import math

import numpy as np

from . import counting
from ._validation import describe, first_bad
from .hashing import (SAMPLE, StringWords, WordTable, code_dtype, count_cells, count_cells_size,
                      hash_factorize, integer_decoder, one_word, read_words, sample_bits,
                      sampled_codes, table_bits, word_codes, BLOCK)

__all__ = ["Labels", "check_labels", "check_labels_of", "check_partitions", "dense_table",
           "count_while_coding"]


class Labels:
    """A validated labelling: integer codes plus the original label values.

    ``codes[i]`` is the index of instance ``i``'s label in ``values``;
    ``values`` are the distinct labels, sorted when they can be sorted and in
    order of first appearance otherwise.

    Integer labels in a small range ``lo .. lo + span - 1`` (the usual case:
    cluster numbers, -1 for noise) are kept as given in ``ints`` (the caller's
    array, not copied) and factorised only when ``codes``, ``values`` or
    ``sizes()`` is first read. The counting fast paths read ``ints`` directly
    (:meth:`dense_form`), so validating such labels costs one min and one max.

    Integer labels need no checking at all, so :func:`check_labels` does not
    even look for their range: it is found when first needed (``range_known``
    is False until then), either by one min/max pass or by a counting pass
    that finds it block by block while it counts (:func:`dense_table`,
    which then calls :meth:`settle_range`). Integers too spread out for a
    counting sort are factorised at that moment, unless they lie on a grid
    ``origin + step * j`` with few grid points: then ``ints`` holds the small
    offsets ``j`` (a new array of the narrowest unsigned dtype) and ``grid``
    is ``(origin, step, dtype)``, the map back to the labels. Few labels of
    other kinds (strings, ids on no grid) that fit one 64-bit word each
    (:func:`hashing.one_word`) wait for a ``word_table`` made from a sample
    (found without a min/max pass for integers, :meth:`look_at_sample`): the
    counting pass codes them as it counts (:func:`dense_table`,
    :func:`hashing.count_cells`) and leaves ``values``; ``ints`` become small
    codes (and ``lookup`` the sorted labels they stand for) only when read
    (:meth:`_code_all`, :func:`_coded`: :func:`hashing.sampled_codes` for up to 1024 labels,
    else the rounds of :func:`hashing.word_codes` or a sort). Integers on no
    grid with more labels than a word table holds are coded as soon as the
    sample shows it, again without a min/max pass. Until then
    the word table, and with it the caller's array, stays attached; a pickle
    codes them first. Which of these happens is decided by :func:`_choose`
    alone; the methods apply its answer (:meth:`_take`).
    """

    def __init__(self, name: str, codes: np.ndarray | None = None,
                 values: np.ndarray | None = None, *, ints: np.ndarray | None = None,
                 lo: int = 0, span: int | None = None, word_table: WordTable | None = None):
        if ((codes is None) == (ints is None)) == (word_table is None):
            raise TypeError("Labels: give either codes and values, or ints (with lo and span "
                            "when their range is known), or a word table")
        self.name = name
        #: few labels, coded while they are counted (hashing.count_cells), else when needed
        self.word_table = word_table
        self._looked = False      # look_at_sample done
        self._n = int(next(x for x in (codes, ints, word_table and word_table.arr)
                           if x is not None).shape[0])
        self.ints, self.lo, self.span = ints, lo, span
        self._codes, self._values = codes, values
        self._range_sizes = None  # counts of every value lo .. lo + span - 1 (ints only)
        self.grid = None          # (origin, step, dtype): label = origin + step * int
        # ints that are codes into a table of the labels (given with the ints, as values)
        self.lookup = values if ints is not None else None

    @property
    def ints(self) -> np.ndarray | None:
        """The integer labels (or small codes standing for them: see ``grid``, ``lookup``)."""
        if self._ints is None and self.word_table is not None:
            self._code_all()                 # waiting for (or counted by) a word table
        return self._ints

    @ints.setter
    def ints(self, value) -> None:
        self._ints = value
        if value is not self.borrowed:       # (the caller's array is no longer read)
            self.borrowed = None

    @property
    def range_known(self) -> bool:
        """False for integer labels whose range has not been looked for yet (and for
        labels waiting for a word table to code them)."""
        return self.span is not None or (self._ints is None and self.word_table is None)

    def settle_range(self, lo: int, hi: int) -> None:
        """Record the smallest and largest label, found by a pass that read them all, and
        code the labels as :func:`_choose` says for that range."""
        self._take(_choose(self._ints, int(lo), int(hi)))

    def look_at_sample(self) -> None:
        """For integer labels whose range is unknown: what :func:`_choose` makes of a sample
        (wait for the counting pass to find the range; a grid; a word table that codes
        them while they are counted; codes now), without a min/max pass."""
        if self.range_known or self.word_table is not None or self._looked:
            return
        self._looked = True
        self._take(_choose(self._ints))

    def _take(self, plan: tuple) -> None:
        """Apply what :func:`_choose` decided."""
        how = plan[0]
        if how == "range":                     # 1. the labels minus lo are their positions
            self.lo, self.span = plan[1:]
        elif how == "grid":                    # 2. the small offsets j of origin + step * j
            offsets, step, span, origin = plan[1:]
            self.grid = (origin, step, self.ints.dtype)
            self.ints, self.lo, self.span = offsets, 0, span
        elif how == "word table":              # 3. coded while counted (or when first read)
            self.word_table = plan[1]
        elif how == "codes":                   # 3-5. small codes; ``lookup`` the labels
            codes, values = plan[1:]
            self.word_table = None
            self.ints, self.lo, self.span = codes, 0, values.shape[0]
            self._values = self.lookup = values
        # "wait": integers whose range the counting pass finds

    def take_values(self, values: np.ndarray) -> None:
        """The sorted labels, found by counting with the word table: the dense form becomes
        codes ``0 .. k - 1`` (found when first read, by a pass over the caller's array,
        which the word table keeps until then)."""
        self.ints, self.lo, self.span = None, 0, values.shape[0]
        self._values = self.lookup = values

    def _code_all(self) -> None:
        """Code labels waiting for their word table now (:func:`_coded`: 3-5 of the list)."""
        self._take(("codes", *_coded(self.word_table.arr)))

    def value_of(self, offsets: np.ndarray) -> np.ndarray:
        """The labels at these offsets along :meth:`dense_form` (``values`` of all that occur)."""
        self._find_range()
        if self._codes is not None:                      # the dense form is the codes
            return self.values[offsets]
        return self._value_in_range(offsets)

    def _value_in_range(self, offsets: np.ndarray) -> np.ndarray:
        """The integer labels ``lo + offsets`` (mapped back from the grid, if on one)."""
        if self.lookup is not None:
            return self.lookup[offsets + self.lo]
        if self.grid is None:
            return (offsets + self.lo).astype(self.ints.dtype)
        return _grid_values(offsets + self.lo, *self.grid)

    def _find_range(self) -> None:
        """Look for the range of integer labels (one min/max pass), if not done yet;
        code the labels waiting for a word table.

        When a sample already shows labels too spread out for a counting sort, a
        grid or a word table is tried first (:meth:`look_at_sample`): they need no
        min/max pass."""
        if self.range_known:
            return
        self.look_at_sample()
        if self.word_table is not None:
            self._code_all()
        elif not self.range_known:
            self.settle_range(*_min_max(self._ints))

    def __getstate__(self) -> dict:
        # labels waiting for (or counted by) a word table are coded first: a pickle holds
        # their small codes, not the caller's array the table reads
        if self.word_table is not None:
            self._code_all()
        return dict(self.__dict__)

    def __repr__(self) -> str:
        return f"Labels({self.name!r}, n={self.n}, k={self.k})"

    @property
    def n(self) -> int:
        return self._n

    @property
    def k(self) -> int:
        self._find_range()
        if self._values is None:  # small-range ints: the values that occur, not listed
            return int(np.count_nonzero(self._sizes_in_range()))
        return int(self.values.shape[0])

    @property
    def codes(self) -> np.ndarray:
        self._find_range()
        if self._codes is None:
            self._codes = _codes_from_range(self.ints, self.lo, self._sizes_in_range())
        return self._codes

    @property
    def values(self) -> np.ndarray:
        self._find_range()
        if self._values is None:
            self._values = self._value_in_range(np.flatnonzero(self._sizes_in_range()))
        return self._values

    def sizes(self) -> np.ndarray:
        """How many instances carry each label (aligned with ``values``)."""
        self._find_range()
        if self._codes is None:
            in_range = self._sizes_in_range()
            return in_range[in_range > 0]
        return np.bincount(self._codes, minlength=self.k)

    def dense_sizes(self) -> np.ndarray:
        """How many instances carry each value along :meth:`dense_form` (0 where none)."""
        self._find_range()
        return self.sizes() if self._codes is not None else self._sizes_in_range()

    def _sizes_in_range(self) -> np.ndarray:
        if self._range_sizes is None:
            self._range_sizes = counting.dense_sizes((self.ints, self.lo, self.span))
        return self._range_sizes

    #: The caller's array when ``ints`` is it (not a copy): the caller may still change it.
    borrowed = None

    @property
    def borrows(self) -> bool:
        """Whether :meth:`dense_form` reads the caller's array: a result that reads it
        later (not while it is made) must not rely on it staying the same."""
        return self._codes is None and self.borrowed is not None and self._ints is self.borrowed

    def dense_form(self) -> tuple[np.ndarray, int, int]:
        """``(array, offset, span)`` with ``array - offset`` in ``0 .. span - 1``.

        The raw integers when the labels are small-range ints (no factorising
        needed), the codes otherwise. Values of the range that do not occur
        simply get count 0 in a table built from it.
        """
        self._find_range()
        if self._codes is None:
            return self.ints, self.lo, self.span
        return self._codes, 0, self.k

    def adopt_sizes(self, in_range: np.ndarray) -> None:
        """Take the counts along the axis of :meth:`dense_form` from a table that has them."""
        if self._codes is None and self._range_sizes is None:
            self._range_sizes = in_range


def _codes_from_range(arr: np.ndarray, lo: int, in_range: np.ndarray) -> np.ndarray:
    """Counting sort: codes 0..k-1 of ints in ``lo .. lo + span - 1`` from their counts."""
    shifted = counting.shifted(arr, lo)
    present = in_range > 0
    if present.all():  # every value of the range occurs: the code is the offset
        return shifted.copy() if shifted is arr else shifted  # never the caller's array
    mapping = np.cumsum(present) - 1
    return mapping[shifted].astype(np.intp, copy=False)


#: Instances per block when finding the smallest and largest label: the block read
#: for the minimum is still in cache for the maximum (one pass over memory, not two).
_MIN_MAX_BLOCK = 1 << 16


def _min_max(arr: np.ndarray) -> tuple[int, int]:
    """The smallest and largest value of a non-empty 1-D array, reading it once."""
    if arr.shape[0] <= 4 * _MIN_MAX_BLOCK:
        return int(arr.min()), int(arr.max())
    lows, highs = [], []
    for start in range(0, arr.shape[0], _MIN_MAX_BLOCK):
        block = arr[start:start + _MIN_MAX_BLOCK]
        lows.append(block.min())
        highs.append(block.max())
    return int(min(lows)), int(max(highs))


def _small_int_range(arr: np.ndarray, lo: int, hi: int) -> tuple[int, int] | None:
    """``(lo, span)`` of integers from ``lo`` to ``hi`` when they fit a counting sort, else None."""
    span = hi - lo + 1
    if not _fits_counting(span, arr.shape[0]) or hi >= 2**63:  # offsets must fit int64
        return None
    return lo, span


def _fits_counting(span: int, n: int) -> bool:
    """Whether ``n`` integer labels spread over ``span`` values are counted by a counting sort."""
    return span <= max(2 * n, 1 << 16)


def _as_label_array(labels, name: str) -> np.ndarray:
    """What the user passed, as a 1-D NumPy array (lists, tuples, pandas and Dask columns,
    arrays); errors for None, a single string, sets and dicts (no order), scalars, 2-D."""
    if labels is None:
        raise TypeError(f"{name}: expected a 1-D sequence of labels, got None")
    if isinstance(labels, (str, bytes)):
        raise TypeError(f"{name}: expected a 1-D sequence of labels, got a single "
                        f"{describe(labels)} {labels!r}")
    if isinstance(labels, (set, frozenset, dict)):
        raise TypeError(f"{name}: expected an ordered 1-D sequence of labels, got a "
                        f"{describe(labels)} (its order is arbitrary)")
    if np.isscalar(labels):
        raise TypeError(f"{name}: expected a 1-D sequence of labels, got the scalar "
                        f"{labels!r}")
    if isinstance(labels, np.ndarray):
        arr = labels
    else:
        if not hasattr(labels, "__len__"):
            labels = list(labels)
        try:
            arr = np.asarray(labels)
        except ValueError:  # ragged: e.g. tuples mixed with scalars; checked per item below
            arr = np.empty(len(labels), dtype=object)
            arr[:] = list(labels)
        # Tuples are hashable labels, but np.asarray would make a 2-D array of them.
        if arr.ndim > 1 and all(isinstance(v, tuple) for v in labels):
            arr = np.empty(len(labels), dtype=object)
            arr[:] = list(labels)
        # np.asarray turns [1, "a"] into ["1", "a"], which would merge 1 and "1".
        # np.asarray also drops trailing NUL characters ("a\x00" would become "a"):
        # such strings keep their own identity as Python objects. (A NUL is looked for in
        # the joined labels first: one pass in C, and most labels have none.)
        if arr.dtype.kind in "US" and (not set(map(type, labels)) <= {str, np.str_}
                                       or ("\x00" in "".join(labels)
                                           and any(v.endswith("\x00") for v in labels))):
            arr = np.empty(len(labels), dtype=object)
            arr[:] = list(labels)
    if arr.ndim != 1:
        if arr.ndim == 0:
            raise TypeError(f"{name}: expected a 1-D sequence of labels, got a 0-D array")
        raise ValueError(f"{name}: expected a 1-D sequence of labels, got an array of "
                         f"shape {arr.shape}")
    return arr


def _factorize(arr: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes 0..k-1 and the distinct values (fixed-width strings and bytes are
    coded by :func:`check_labels` before this is reached; the costs below include them).

    What it costs, per labelling of N instances: small-range ints, one
    counting pass (they are usually not even factorised: see :class:`Labels`);
    ints on a grid ``min + step * j`` (ids in steps), one exact pass that finds
    ``j`` (:func:`_on_a_grid`, from a sample's guess, else after a min/max
    pass); other ints and fixed-width strings or bytes with few distinct
    labels, one pass of a collision-free table built from a sample (counted
    directly when each label fits one 64-bit word: :func:`hashing.count_cells`;
    else :func:`hashing.sampled_codes`), with many labels the two passes of
    :func:`hashing.word_codes` over one word a label (other strings: the rounds
    of :func:`hashing.hash_factorize`), and a sort when the sample suggests
    more than about half a million labels; floats, a sort; object arrays
    (Python ``str``, tuples, mixed types), one dict lookup per label, run by the
    interpreter in C (:func:`_factorize_objects`).

    Strings cost in proportion to their width: a ``<U22`` label is 88 bytes
    against 8 for an int64, so just reading three such labellings takes longer
    than counting three small-int labellings. Strings are read as one word
    each where they can be: up to 2 characters (``<U2``, bytes up to ``S8``)
    as they are, ``U3``/``U4`` packed, and wider ones from the pairs of
    characters in which a sample's labels differ (``"c0"``..``"c9999"``: the
    four digits, 16 bits each), the other characters checked; each then pays
    one gather besides reading its bytes (two passes with many labels). An
    object array of Python ``str`` (what a list of strings becomes only when
    mixed with other types, or when passed so, e.g. a pandas column) costs one
    dict lookup per label: about 10x a fixed-width array for 10**6 labels like
    ``"c7"``, 3.4x with 10,000 such labels. ``np.asarray(labels)`` (dtype
    ``U``) is faster when the labels are all strings and will be used more
    than once.
    """
    kind = arr.dtype.kind
    if kind == "b":
        arr = arr.astype(np.int8)
        kind = "i"
    if kind in "iu":  # one home for integers: the lazy labels (see Labels)
        labels = Labels(name, ints=arr)
        return labels.codes, labels.values
    if kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            raise ValueError(f"{name}: labels must not be NaN (found NaN at position "
                             f"{first_bad(nan)})")
        values, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.intp, copy=False).ravel(), values
    if kind == "c":
        raise TypeError(f"{name}: complex numbers are not usable as labels")
    if kind == "O":
        return _factorize_objects(arr.tolist(), name)
    raise TypeError(f"{name}: labels of dtype {arr.dtype} are not supported")


def _factorize_objects(items: list, name: str, *, fixed_width: bool = False
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Codes and distinct values of labels given as Python objects (an object array's
    ``tolist()``: Python ``str``, tuples, mixed types; or a list of ``str``): the
    labels as dict keys, so labels that Python finds equal (``1``, ``1.0``,
    ``True``) are one label.

    Each label is looked up in a dict whose missing keys get the dict's size so
    far: the code of a label is the number of distinct labels seen before it,
    one pass that the interpreter runs in C. Only the distinct labels are then
    checked for None and NaN. The values come back sorted when they can be
    sorted (for stable displays), else first seen first; with ``fixed_width``,
    as a ``U`` array when they are all plain strings that one keeps (``str`` or
    ``np.str_``, no trailing NUL), as ``np.asarray`` would make them (a ``str``
    subclass such as a ``(str, Enum)`` member stays the object it is).
    """
    first_seen = collections.defaultdict()
    first_seen.default_factory = first_seen.__len__   # a new label: the next code
    try:
        codes = np.fromiter(map(first_seen.__getitem__, items), dtype=np.intp,
                            count=len(items))
    except Exception:                # e.g. unhashable: look for the first bad label (so an
        codes = None                 # earlier None or NaN is named first)
    first_seen.default_factory = None                 # (no cycle left behind)
    if codes is None or any(v is None or (isinstance(v, float) and v != v)
                            for v in first_seen):
        _raise_bad_object_label(items, name)
    if fixed_width and all(type(v) in (str, np.str_) and not v.endswith("\x00")
                           for v in first_seen):              # (a str subclass stays itself)
        values = np.array(list(first_seen), dtype=str)
    else:
        values = np.empty(len(first_seen), dtype=object)
        values[:] = list(first_seen)
    try:
        order = (np.argsort(values, kind="stable") if values.dtype.kind == "U"
                 else sorted(range(len(values)), key=lambda j: values[j]))
    except TypeError:
        return codes, values
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return rank[codes], values[order]


def _raise_bad_object_label(items: list, name: str) -> None:
    """The error for the first None, NaN or unhashable label among ``items`` (read as
    :func:`_factorize_objects` reads them, so a label that failed there fails here)."""
    seen: dict = {}
    for i, v in enumerate(items):
        if v is None:
            raise ValueError(f"{name}: labels must not be None (found None at position {i})")
        if isinstance(v, float) and v != v:
            raise ValueError(f"{name}: labels must not be NaN (found NaN at position {i})")
        try:
            seen.setdefault(v)
        except TypeError:
            raise TypeError(f"{name}: labels must be hashable, but position {i} "
                            f"holds a {describe(v)}") from None
    raise TypeError(f"{name}: labels must be hashable and comparable with each other")


#: Fewer instances than this are factorised by sorting: the hash table's set-up
#: would cost more than it saves.
HASH_MIN_N = 1 << 12


def _by_sample(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Small codes (one byte for up to 256 labels) and the sorted labels from
    :func:`hashing.sampled_codes`, or None when there are too few instances or
    too many labels for it."""
    return None if arr.shape[0] < HASH_MIN_N else sampled_codes(arr)


def _by_hash(source) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes and sorted distinct values from :func:`hashing.hash_factorize`, or None
    when sorting is better: too few instances to pay for the table, or nearly
    every label distinct."""
    if source.n < HASH_MIN_N:
        return None
    bits = table_bits(source)
    return None if bits is None else hash_factorize(source, bits)


def _hashed_or_sorted(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and sorted distinct values of many integer labels: the rounds of a table
    of their words (:func:`hashing.word_codes`), or one sort when there are too few
    instances to pay for the table or nearly every label is distinct."""
    bits = None
    if arr.shape[0] >= HASH_MIN_N:
        sample = arr[::max(1, arr.shape[0] // SAMPLE)].astype(np.int64)
        bits = sample_bits(sample.view(np.uint64)[None, :])
    if bits is not None:
        # a word is the integer's bits (else an instance of each label is kept)
        decode = integer_decoder(arr.dtype) if arr.dtype.isnative else None
        return word_codes(arr, one_word(arr), bits, decode=decode)
    values, codes = np.unique(arr, return_inverse=True)
    return codes.astype(np.intp, copy=False).ravel(), values


def _choose(arr: np.ndarray, lo: int | None = None, hi: int | None = None) -> tuple:
    """How labels are coded: the module docstring's list, tried in its order. The one
    place that chooses a strategy.

    ``arr`` holds integers or fixed-width strings (or bytes); ``lo`` and ``hi``
    the smallest and largest integer label, when a pass that read them all has
    found them (else a sample decides, and no min/max pass is made). Returns
    the first strategy that takes the labels:

    1. ``("range", lo, span)``: small range, ``arr - lo`` are positions in a
       dense table; or ``("wait",)``: a sample suggests a small range, which
       the counting pass will find (:func:`dense_table`) or a min/max pass
       when something reads the labels first;
    2. ``("grid", offsets, step, span, origin)``: spread-out integers on a grid;
    3. ``("word table", table)``: few labels of one word each, at least
       ``HASH_MIN_N`` of them, not read yet: coded while they are counted;
    3-5. ``("codes", codes, values)`` from :func:`_coded`.
    """
    n = arr.shape[0]
    if arr.dtype.kind in "iu":
        if lo is None:                                   # only a sample seen so far
            sample = arr[::max(1, n // SAMPLE)]
            lo = int(sample.min())
            if _fits_counting(int(sample.max()) - lo + 1, n):
                return ("wait",)                                          # 1.
            sampled = _sampled_step(arr, lo)
            if sampled[0] > 1:
                grid = _on_a_grid(arr, lo, sampled=sampled)
                if grid is not None:
                    return ("grid", *grid, lo)                            # 2.
                return _choose(arr, *_min_max(arr))      # the sample misled: the true range
            lo = None                                    # (still no pass over the labels)
        else:
            small = _small_int_range(arr, lo, hi)
            if small is not None:
                return ("range", *small)                                  # 1.
            grid = _on_a_grid(arr, lo, hi)
            if grid is not None:
                return ("grid", *grid, lo)                                # 2.
    if lo is None and n >= HASH_MIN_N:
        table = WordTable.from_sample(arr)
        if table is not None:
            return ("word table", table)                                  # 3.
    return ("codes", *_coded(arr))                                        # 3-5.


def _coded(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and sorted values of labels that 1-3 of :func:`_choose` did not take (or that
    wait for their word table and must be coded now): the rest of the list, in order.

    3. few labels of any kind (one byte a code for up to 256): the sample's labels
       code all (:func:`_by_sample`);
    4. many labels: the rounds of a hash table (:func:`_factorize_strings`,
       :func:`_hashed_or_sorted`);
    5. a sort, when there are too few instances to pay for a table or nearly every
       label is distinct (inside the two functions of 4).
    """
    sampled = _by_sample(arr)
    if sampled is not None:
        return sampled
    if arr.dtype.kind in "US":
        return _factorize_strings(arr)
    return _hashed_or_sorted(arr)


def _above(part: np.ndarray, lo: int, out: np.ndarray | None = None) -> np.ndarray:
    """``part - lo`` as int64, for integers of any dtype at most 2**63 - 1 above ``lo``."""
    if part.dtype.kind == "u" and part.dtype.itemsize == 8:   # also '>u8': lo may not fit
        # int64, so wrap instead
        return np.subtract(part, np.uint64(lo), out=None if out is None else out.view(np.uint64)
                           ).view(np.int64)
    return np.subtract(part, lo, out=out, dtype=np.int64)


def _grid_values(j: np.ndarray, origin: int, step: int, dtype) -> np.ndarray:
    """The labels ``origin + step * j`` (each within the dtype, so the arithmetic is exact)."""
    return (j * step).astype(dtype) + np.array(origin, dtype=dtype)


def _sampled_step(arr: np.ndarray, lo: int) -> tuple[int, np.ndarray]:
    """The greatest common divisor of ``label - lo`` over an evenly spread sample (the
    step of any grid ``lo + step * j`` that holds the labels divides it), and those
    ``label - lo``."""
    sample = _above(arr[::max(1, arr.shape[0] // SAMPLE)], lo)
    if np.gcd.reduce(sample[:64]) == 1:                  # (most labels on no grid: soon 1)
        return 1, sample
    return int(np.gcd.reduce(sample)), sample


def _on_a_grid(arr: np.ndarray, lo: int, hi: int | None = None, *,
               sampled: tuple[int, np.ndarray] | None = None
               ) -> tuple[np.ndarray, int, int] | None:
    """``(offsets, step, span)`` of integer labels that all lie on ``lo + step * j``, ``j`` small.

    ``offsets[i]`` is ``j`` of label ``i`` (``0 <= j < span``, in the narrowest
    unsigned dtype). The step is the greatest common divisor of ``label - lo``
    over an evenly spread sample. Every label is then checked and divided block
    by block, without a division: with ``step = 2**t * m`` (``m`` odd) and
    ``inv`` the inverse of ``m`` modulo 2**64, ``x = (label - lo) * inv mod
    2**64`` equals ``2**t * j`` exactly when ``label - lo = step * j``; so the
    labels are on the grid when every ``x`` is at most ``(span - 1) * 2**t`` and
    has its low ``t`` bits zero, and then ``j = x >> t``. None when they are not
    on such a grid (a sampled step that some label does not fit, or too many
    grid points): then the hash table takes over. Exact either way.

    ``hi`` (the largest label) may be unknown: then ``lo`` is only a guess (the
    smallest sampled label), the offsets get the dtype the sample asks for, and
    any label below ``lo`` or beyond that dtype also gives None. ``sampled`` is
    :func:`_sampled_step`'s answer, when the caller already has it.
    """
    n = arr.shape[0]
    if n < 2 or (hi is not None and hi - lo >= 2**63):
        return None
    step, sample = sampled if sampled is not None else _sampled_step(arr, lo)
    if step <= 1:
        return None
    if hi is None:                     # room for the grid points the sample suggests, twice
        top = np.iinfo(arr.dtype).max
        span = min(np.iinfo(code_dtype(2 * (int(sample.max()) // step + 1))).max + 1,
                   max(2 * n, 1 << 16), (top - lo) // step + 1)  # (the grid within the dtype)
    else:
        span = (hi - lo) // step + 1
    if not _fits_counting(span, n):
        return None
    shift = (step & -step).bit_length() - 1              # step = 2**shift * odd
    inverse = np.uint64(pow(step >> shift, -1, 2**64))
    limit, low_bits = (span - 1) << shift, (1 << shift) - 1
    offsets = np.empty(n, dtype=code_dtype(span))
    x = np.empty(min(n, _MIN_MAX_BLOCK), dtype=np.uint64)
    largest = 0
    for start in range(0, n, _MIN_MAX_BLOCK):
        part = arr[start:start + _MIN_MAX_BLOCK]
        xb = x[:part.shape[0]]
        _above(part, lo, out=xb.view(np.int64))
        xb *= inverse
        top_x = int(xb.max())
        if top_x > limit or int(np.bitwise_or.reduce(xb)) & low_bits:
            return None                                  # some label is off the grid
        largest = max(largest, top_x >> shift)
        np.right_shift(xb, shift, out=offsets[start:start + part.shape[0]], casting="unsafe")
    return offsets, step, largest + 1


def _factorize_strings(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and sorted distinct values of a fixed-width string (or bytes) array.

    The same as ``np.unique(arr, return_inverse=True)``, faster for few distinct
    values (after a table from a sample, :func:`_by_sample`, was tried by the
    caller): labels that one word holds (:func:`hashing.one_word`, e.g. up to
    four pairs of characters where a sample's labels differ) are read into
    words once and coded by :func:`hashing.word_codes`; other strings, their
    characters as several words, go through the rounds of a hash table of
    :mod:`prayatul_edu.hashing` (a few passes over N words, no sorting of N
    strings). With nearly as many labels as instances, NumPy >= 2.3 finds them
    with its own hash table (``np.unique_values``) and a binary search codes
    each label, O(N log k).
    """
    n = arr.shape[0]
    if n >= HASH_MIN_N:                # one word a label (e.g. up to 8 varying characters)
        sample = np.ascontiguousarray(arr[::max(1, n // SAMPLE)])
        words = one_word(arr, sample)
        if words is not None:
            sampled, masked = one_word(sample, sample)(0, sample.shape[0])
            bits = sample_bits((sampled if masked is None else sampled[~masked])[None, :])
            if bits is not None:       # read once (the rounds read them twice), in blocks
                read = [words(start, min(n, start + BLOCK))   # whose labels stay in cache
                        for start in range(0, n, BLOCK)]
                word = np.concatenate([w for w, _ in read])
                masked = None
                if any(m is not None for _, m in read):
                    masked = np.concatenate([np.zeros(w.shape[0], bool) if m is None else m
                                             for w, m in read])
                return word_codes(arr, read_words(word, masked), bits)
    hashed = _by_hash(StringWords(arr))
    if hashed is not None:
        return hashed
    unique_values = getattr(np, "unique_values", None)
    if unique_values is None:  # NumPy < 2.0
        values, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.intp, copy=False).ravel(), values
    values = np.sort(unique_values(arr))
    return np.searchsorted(values, arr).astype(np.intp, copy=False), values


def _check_length(n: int, name: str, min_n: int) -> None:
    """At least ``min_n`` instances (an error naming ``name`` otherwise)."""
    if n == 0:
        needed = "1 instance is" if min_n == 1 else f"{min_n} instances are"
        raise ValueError(f"{name}: is empty; at least {needed} needed")
    if n < min_n:
        raise ValueError(f"{name}: has {n} instance; at least {min_n} are "
                         f"needed (a clustering of one instance has no pairs to compare)")


def check_labels_of(labels, n: int, data: str, name: str = "labels") -> Labels:
    """:func:`check_labels` of the labels of ``n`` instances, one per row of the data
    (``data`` says what the data has, e.g. ``"X has 5 rows"``, for the message)."""
    lab = check_labels(labels, name)
    if lab.n != n:
        raise ValueError(f"{name}: has {lab.n} labels but {data} (one label per instance)")
    return lab


def check_labels(labels, name: str = "labels", *, min_n: int = 2) -> Labels:
    """Validate one labelling and factorise it.

    Raises ``TypeError`` for things that are not sequences of hashable labels
    and ``ValueError`` for empty input, fewer than ``min_n`` instances, 2-D
    input, NaN or None labels.
    """
    if isinstance(labels, Labels):
        return labels
    if type(labels) is list and labels and isinstance(labels[0], str):
        # a list of strings (a list itself: its length and items are what they say): coded
        # as it is (np.asarray would cost more than the coding)
        _check_length(len(labels), name, min_n)
        codes, values = _factorize_objects(labels, name, fixed_width=True)
        return Labels(name=name, codes=codes, values=values)
    original = labels
    arr = _as_label_array(labels, name)
    _check_length(arr.shape[0], name, min_n)
    if arr.dtype.kind in "iu":  # nothing to check: the range is found when needed (see Labels)
        labels = Labels(name, ints=arr)
        if arr is original or not arr.flags.owndata:           # the caller's memory
            labels.borrowed = arr
        if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:   # may not fit int64 offsets
            labels.settle_range(*_min_max(arr))
        return labels
    if arr.dtype.kind in "US":         # strings are coded now (or wait for their word table)
        plan = _choose(arr)
        if plan[0] == "word table":
            return Labels(name, word_table=plan[1])
        codes, values = plan[1:]       # small codes, counted like small ints
        return Labels(name, ints=codes, lo=0, span=values.shape[0], values=values)
    codes, values = _factorize(arr, name)
    return Labels(name=name, codes=codes, values=values)


def check_partitions(*, min_n: int = 2, **named) -> list[Labels]:
    """Validate several labellings of the same instances (same length).

    Keyword order is kept: ``check_partitions(truth=a, pred=b)`` returns
    ``[Labels(truth), Labels(pred)]``. ``min_n=1`` admits a single instance
    (for measures defined without pairs: contingency-table measures).
    """
    out = [check_labels(v, k, min_n=min_n) for k, v in named.items()]
    first = out[0]
    for other in out[1:]:
        if other.n != first.n:
            raise ValueError(f"{first.name} and {other.name} must label the same "
                             f"instances, but have lengths {first.n} and {other.n}")
    return out


def dense_table(*labelings: Labels, max_cells: int | None = None) -> np.ndarray | None:
    """Code the labellings and count them into one dense table (one axis per labelling).

    Along each labelling's :meth:`Labels.dense_form` (raw small-range integers or
    codes; values that do not occur get count 0), by the counting passes of
    :mod:`prayatul_edu.counting`; None when the table would have more than
    :func:`counting.table_limit` cells (then every labelling has its dense form).
    Coding and counting share their passes where that was measured to pay:

    * integers whose range nobody has looked for are counted while it is found
      (:func:`counting.counts_finding_ranges`), which then settles their range;
    * spread-out integers are first looked at in a sample (a grid, or a word
      table: :meth:`Labels.look_at_sample`);
    * few labels waiting for a word table are coded while they are counted
      (:func:`count_while_coding`);
    * everything else is coded first, then counted (:func:`counting.dense_counts`).

    Each labelling takes its group sizes from the table's margins.
    """
    for lab in labelings:              # spread-out integers: grid or word table, from a sample
        lab.look_at_sample()
    if any(lab.word_table is not None and not lab.range_known for lab in labelings):
        counts = count_while_coding(labelings, counting.table_limit(labelings[0].n, max_cells))
        if counts is None:             # the labels get codes first
            for lab in labelings:
                if lab.word_table is not None:
                    lab.dense_form()
            return dense_table(*labelings, max_cells=max_cells)
    elif all(lab.range_known for lab in labelings):
        counts = counting.dense_counts(*(lab.dense_form() for lab in labelings),
                                       max_cells=max_cells)
        if counts is None:
            return None
    else:
        forms = [lab.dense_form() if lab.range_known else (lab.ints, None, None)
                 for lab in labelings]
        found = counting.counts_finding_ranges(forms, max_cells)
        if found is None:      # too wide: maybe spread-out integers, which get codes now
            for lab in labelings:
                lab.dense_form()
            return dense_table(*labelings, max_cells=max_cells)
        counts, lows = found
        for axis, (lab, form) in enumerate(zip(labelings, forms)):
            if form[1] is None:
                lab.settle_range(lows[axis], lows[axis] + counts.shape[axis] - 1)
    for axis, lab in enumerate(labelings):
        lab.adopt_sizes(counts.sum(axis=tuple(a for a in range(counts.ndim) if a != axis)))
    return counts


def count_while_coding(labelings, max_cells: int) -> np.ndarray | None:
    """:func:`dense_table` of labellings that all wait for their word table, coding them
    while counting (:func:`hashing.count_cells`: one gather per label, no codes written).

    Instances with a label the tables' samples missed are counted afterwards, with
    exact codes among all the labels (the table grows by their labels). None when
    some labelling has no word table, the table would have more than
    ``max_cells`` cells, or :func:`hashing.count_cells` gives up.
    """
    tables = [lab.word_table if not lab.range_known else None for lab in labelings]
    if any(table is None for table in tables):
        return None
    if count_cells_size(tables) > max_cells:
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
