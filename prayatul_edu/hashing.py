"""Factorising labels with a hash table built from NumPy operations, exactly.

Small-range integers are counted directly (:mod:`prayatul_edu.counting`); other
labels must first be turned into codes ``0..k-1``. Sorting N labels does it in
O(N log N); this module does it in a few O(N) passes while ``k`` is small
compared with N:

1. each label becomes one or more 64-bit *words* that identify it exactly
   (:class:`StringWords`: the bytes of a fixed-width string, eight at a time;
   labels of one word each have a faster table of their own, :func:`word_codes`);
2. a multiplicative hash ``h = (w * A mod 2**64) >> (64 - m)`` sends every label
   to one of ``2**m`` slots;
3. every instance writes its words into its slot (``table[h] = w``, the last
   write wins) and, once all have written, reads them back: where
   ``table[h] == w`` for every word, the label owns its slot. Two labels in one
   slot cannot both own it, so no two labels ever share a code, whatever the hash;
4. instances whose label lost its slot (a collision) go round again with
   another multiplier; after a few rounds the rest is sorted.

Steps 2-3 run a cache-sized block of instances at a time, so the only array of
length N they create is the codes. The result is exact for any input:
collisions cost time, never correctness.

With few labels (the usual case) :func:`sampled_codes` is faster: the labels of
a sample get a table without collisions first, then one pass codes every label
into one byte (up to 256 labels), and the few labels the sample missed are
sorted in at the end.

Labels that fit one 64-bit word each (integers, strings of up to 4 characters,
short bytes, and wider strings whose labels differ in at most four pairs of
neighbouring characters, packed: :func:`one_word`) need not even be coded
before they are counted: a :class:`WordTable` from a sample holds each sampled
label's word and code in one slot, and :func:`count_cells` turns one gather per
label into the cell of a dense table of counts, checking every label exactly
on the way. Many such labels are coded by :func:`word_codes`: a table of their
words in which one gather reads back both the word (checked) and the code.
"""
from __future__ import annotations

import numpy as np

__all__ = ["hash_factorize", "sampled_codes", "word_matrix", "code_dtype", "table_bits",
           "StringWords", "MULTIPLIERS", "BLOCK", "one_word", "WordTable", "count_cells",
           "word_codes", "sample_bits", "count_cells_size"]

#: Odd 64-bit multipliers (Fibonacci hashing and other well-mixing constants),
#: one per round; the golden-ratio one first.
MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
               0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD)


#: Instances hashed per block: the block's words and slots stay in cache.
BLOCK = 1 << 15


class StringWords:
    """Fixed-width strings or bytes (NumPy ``U``/``S``) as words: their bytes, 8 at a time.

    NumPy pads shorter strings with zero bytes, and so compares them (there
    ``"a" == "a\\0"``): equal strings have equal bytes, equal words. Words that
    are zero in every label (the padding of a too-wide dtype) are left out.
    """

    def __init__(self, arr: np.ndarray):
        self.arr = np.ascontiguousarray(arr)
        self.n = arr.shape[0]
        itemsize = arr.dtype.itemsize
        width = max(1, -(-itemsize // 8))
        if itemsize % 8 or not itemsize:                 # pad each label to whole words
            padded = np.zeros((self.n, 8 * width), dtype=np.uint8)
            padded[:, :itemsize] = self.arr.view(np.uint8).reshape(self.n, itemsize)
            matrix = padded.view(np.uint64)
        else:
            matrix = self.arr.view(np.uint64).reshape(self.n, width)
        keep = [0]
        if width > 1:                                    # keep the words that vary
            keep = np.flatnonzero(np.bitwise_or.reduce(matrix, axis=0)).tolist() or [0]
        #: word j of every label, one contiguous row per word
        self.columns = np.ascontiguousarray(matrix[:, keep].T)


def _slots(words: np.ndarray, multiplier: int, bits: int) -> np.ndarray:
    """The slot ``0 .. 2**bits - 1`` of every label (a column of words): a multiplicative hash
    of all its words (:func:`_fold`)."""
    return _fold(words, range(words.shape[0]), multiplier, bits)


def _same(columns: np.ndarray, rows: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Whether label ``rows[i]`` has the words ``words[:, i]`` (for every i)."""
    same = columns[0].take(rows) == words[0]
    for column, word in zip(columns[1:], words[1:]):
        same &= column.take(rows) == word
    return same


def _rank(source, first: np.ndarray) -> np.ndarray:
    """The rank of the labels of instances ``first`` among them (in the labels' order)."""
    order = np.argsort(source.arr[first], kind="stable")
    rank = np.empty(order.shape[0], dtype=np.intp)
    rank[order] = np.arange(order.shape[0])
    return rank


def _first_round(source, bits: int, multiplier: int, block: int):
    """Round one, block by block: codes (ranked among the labels that own a slot),
    one instance of each such label, and the instances whose label lost its slot."""
    n, columns = source.n, source.columns
    owner = np.full(1 << bits, -1, dtype=np.intp)        # an instance of each slot's label
    for start in range(0, n, block):                     # every instance writes ...
        slot = _slots(columns[:, start:start + block], multiplier, bits)
        owner[slot] = np.arange(start, start + slot.shape[0])
    used = owner >= 0
    first = owner[used]
    rank = _rank(source, first)
    slot_code = np.zeros(owner.shape[0], dtype=np.intp)
    slot_code[used] = rank
    codes = np.empty(n, dtype=np.intp)
    lost = []
    for start in range(0, n, block):                     # ... then reads back
        words = columns[:, start:start + block]
        slot = _slots(words, multiplier, bits)
        np.take(slot_code, slot, out=codes[start:start + slot.shape[0]])
        won = _same(columns, owner[slot], words)
        if not won.all():
            lost.append(np.flatnonzero(~won) + start)
    placed = np.empty_like(first)
    placed[rank] = first
    return codes, placed, lost


def _round(source, todo: np.ndarray, bits: int, multiplier: int):
    """A later round over the instances ``todo`` still without a code (all at once)."""
    words = source.columns[:, todo]
    slot = _slots(words, multiplier, bits)
    owner = np.full(1 << bits, -1, dtype=np.intp)
    owner[slot] = todo
    won = _same(source.columns, owner[slot], words)
    used = owner >= 0
    slot_code = np.cumsum(used, dtype=np.intp) - 1
    return slot_code[slot], won, owner[used]


def hash_factorize(source, bits: int, *, multipliers=MULTIPLIERS,
                   block: int = BLOCK) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``0..k-1`` and the sorted distinct labels of ``source``.

    ``source`` is a :class:`StringWords` (or anything with its ``arr``, ``n`` and
    ``columns``); ``bits`` sets the
    table size ``2**bits`` (a few times k keeps collisions rare; too small costs
    rounds, not correctness). The same result as ``np.unique(labels,
    return_inverse=True)``, exact whatever the hash: see the module docstring.
    """
    block = max(256, block // source.columns.shape[0])    # about the same bytes per block
    codes, first, lost = _first_round(source, bits, multipliers[0], block)
    if not lost:
        return codes, source.arr[first]
    todo = np.concatenate(lost)
    firsts = [first]
    k = first.shape[0]
    for multiplier in multipliers[1:]:
        if 2 * todo.shape[0] > source.n:                 # the table was far too small
            bits += 2
        code, won, first = _round(source, todo, bits, multiplier)
        codes[todo[won]] = code[won] + k
        firsts.append(first)
        k += first.shape[0]
        todo = todo[~won]
        if todo.shape[0] == 0:
            break
    else:   # a stubborn remainder: sort it (its labels own no slot: they are new labels)
        _, index, inverse = np.unique(source.columns[:, todo].T, axis=0, return_index=True,
                                      return_inverse=True)
        codes[todo] = inverse.ravel() + k
        firsts.append(todo[index])
    first = np.concatenate(firsts)
    rank = _rank(source, first)
    placed = np.empty_like(first)
    placed[rank] = first
    return rank[codes], source.arr[placed]


#: Labels looked at to guess how many distinct labels there are.
SAMPLE = 4096
#: The largest table of :func:`table_bits`: 2**22 slots (beyond, a sort is as fast).
MAX_TABLE_BITS = 22


def table_bits(source) -> int | None:
    """Table size (bits) for :func:`hash_factorize` or :func:`word_codes`, from the labels
    of a sample.

    About 8 slots per distinct label of an evenly spread sample of
    :data:`SAMPLE` labels, four times that when the sample already shows many
    labels (so that many are unseen). When nearly every sampled label differs,
    the number of labels ``k`` is estimated from the pairs of equal sampled
    labels (about ``SAMPLE**2 / (2 k)`` of them, the birthday problem) and
    the table gets about 4 slots a label. A guess either way: too few slots
    cost rounds, not correctness. None when the sample has too few repeats
    (labels beyond about half a million): a sort is then as fast as the table.
    """
    return sample_bits(source.columns[:, ::max(1, source.n // SAMPLE)])


def sample_bits(sample: np.ndarray) -> int | None:
    """:func:`table_bits` from the words of the sampled labels (one row per word)."""
    size = sample.shape[1]
    seen = (np.unique(sample[0]) if sample.shape[0] == 1 else np.unique(sample.T, axis=0)).shape[0]
    if 10 * seen > 9 * size:           # most sampled labels differ: k from the repeats
        repeats = size - seen            # (about size**2 / (2 k) pairs of equal labels)
        if repeats < 16:                 # k beyond ~size**2 / 32: a sort is as fast
            return None
        return min(MAX_TABLE_BITS, (4 * size * size // (2 * repeats)).bit_length())
    if 4 * seen > size:
        seen *= 4
    return max(10, (8 * seen).bit_length())


# ------------------------------------------------ few labels: a table from a sample
def word_matrix(arr: np.ndarray) -> np.ndarray:
    """The labels of a 1-D int, ``U`` or ``S`` array as rows of unsigned words, without a copy.

    The words are the widest of 8, 4, 2 or 1 bytes that divides the item size,
    so ``U`` strings (4 bytes a character) never need padding. Equal labels
    have equal rows (NumPy pads strings with zero bytes and compares them so).
    """
    itemsize = arr.dtype.itemsize
    width = next(w for w in (8, 4, 2, 1) if itemsize % w == 0)
    return np.ascontiguousarray(arr).view(f"u{width}").reshape(arr.shape[0], itemsize // width)


#: The sample of :func:`sampled_codes` stops at this many distinct labels (then the
#: rounds of :func:`hash_factorize` are faster than a table and a list of misses).
SAMPLED_MAX_K = 1024


def code_dtype(k: int):
    """The narrowest unsigned dtype for codes ``0 .. k - 1``."""
    return next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if k <= np.iinfo(t).max + 1)


def _zero_runs(positions: list) -> list:
    """``(first, last + 1)`` of each run of consecutive ``positions`` (ascending)."""
    runs = []
    for j in positions:
        if runs and runs[-1][1] == j:
            runs[-1] = (runs[-1][0], j + 1)
        else:
            runs.append((j, j + 1))
    return runs


def _perfect_slots(rows: np.ndarray, varying, bits: int):
    """A multiplier and the slot of each row with no two rows in one slot, or None."""
    for multiplier in MULTIPLIERS:
        slot = _fold(rows.T, varying, multiplier, bits)
        if np.unique(slot).shape[0] == rows.shape[0]:
            return multiplier, slot
    return None


def _fold(columns: np.ndarray, varying, multiplier: int, bits: int) -> np.ndarray:
    """Slots ``0 .. 2**bits - 1`` of labels given as word columns: a multiplicative hash
    of the ``varying`` words (the others are the same in every label)."""
    a = np.uint64(multiplier)
    if not varying:
        return np.zeros(columns.shape[1], dtype=np.intp)
    h = np.multiply(columns[varying[0]], a, dtype=np.uint64)
    for j in varying[1:]:                                # fold further words in
        h ^= columns[j]
        h *= a
    h >>= np.uint64(64 - bits)
    return h.view(np.intp)                               # < 2**63: a valid index


def sampled_codes(arr: np.ndarray, block: int = BLOCK) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes and sorted distinct labels of an int, ``U`` or ``S`` array with few labels, in one pass.

    1. The distinct labels of an evenly spread sample of :data:`SAMPLE` labels
       (as rows of words, :func:`word_matrix`) get a table with one slot each
       (a hash that puts no two of them in one slot) and their ranks; the
       words that are the same in every sampled label (e.g. the zero padding
       of long ``U`` strings) are not hashed, only checked.
    2. One pass over the labels, a cache-sized block at a time: the slot of
       each label, its words compared with the slot's (exact: a label matches
       only the label stored in its slot), and the code of the slot.
    3. Labels that match nothing (not in the sample) are few when there are
       few labels: they are sorted in with the others and their codes fixed.

    ``codes`` are of the narrowest unsigned dtype (one byte for up to 256
    labels), so writing them costs little. None when the sample already shows
    many labels (more than :data:`SAMPLED_MAX_K`), or when more than one
    label in 16 is missed: :func:`hash_factorize` then does it in rounds.
    The same result as ``np.unique(arr, return_inverse=True)``, whatever the hash.
    """
    n = arr.shape[0]
    words = word_matrix(arr)
    at = np.arange(0, n, max(1, n // SAMPLE))
    if words.shape[1] == 1:                              # one word a label: a plain sort
        rows, first = np.unique(words[at, 0], return_index=True)
        rows = rows[:, None]
    else:
        every = list(range(words.shape[1]))              # distinct hashes: at most k, fast
        if np.unique(_fold(words[at].T, every, MULTIPLIERS[0], 64)).shape[0] > SAMPLED_MAX_K:
            return None
        rows, first = np.unique(words[at], axis=0, return_index=True)
    k = rows.shape[0]
    if k > SAMPLED_MAX_K:
        return None
    varying = np.flatnonzero((rows != rows[0]).any(axis=0)).tolist()
    fixed = [j for j in range(words.shape[1]) if j not in varying]
    fixed_values = [j for j in fixed if rows[0, j]]
    zero_runs = _zero_runs([j for j in fixed if not rows[0, j]])
    found = None
    for bits in range(max(4, (4 * k).bit_length()), 25, 3):
        found = _perfect_slots(rows.astype(np.uint64), varying, bits)
        if found is not None:
            break
    if found is None:
        return None
    multiplier, slot = found
    sample_values = arr[at[first]]
    order = np.argsort(sample_values, kind="stable")
    rank = np.empty(k, dtype=np.intp)
    rank[order] = np.arange(k)
    slot_code = np.zeros(1 << bits, dtype=code_dtype(k))
    slot_code[slot] = rank
    # Unused slots hold the words of a sampled label that hashes elsewhere: no label
    # can match them (equal words, equal slots), not even one of zero words only.
    tables = {j: np.full(1 << bits, rows[0, j], dtype=words.dtype) for j in varying}
    for j in varying:
        tables[j][slot] = rows[:, j]
    codes = np.empty(n, dtype=slot_code.dtype)
    missed = []
    for start in range(0, n, block):
        part = words[start:start + block].T
        h = _fold(part, varying, multiplier, bits)
        same = None
        for j in varying:
            match = tables[j].take(h) == part[j]
            same = match if same is None else np.logical_and(same, match, out=same)
        for j0, j1 in zero_runs:                         # padding: one max of the run
            if words[start:start + block, j0:j1].max() != 0:
                match = ~words[start:start + block, j0:j1].any(axis=1)
                same = match if same is None else np.logical_and(same, match, out=same)
        for j in fixed_values:                           # other words all labels share
            match = part[j] == rows[0, j]
            if not match.all():
                same = match if same is None else np.logical_and(same, match, out=same)
        np.take(slot_code, h, out=codes[start:start + part.shape[1]])
        if same is not None and not same.all():
            missed.append(np.flatnonzero(~same) + start)
            if sum(map(len, missed)) > n // 16:
                return None
    values = sample_values[order]
    if not missed:
        return codes, values
    missed = np.concatenate(missed)
    values = np.unique(np.concatenate([values, arr[missed]]))
    new_rank = np.searchsorted(values, sample_values[order])
    codes = new_rank.astype(code_dtype(values.shape[0]))[codes]
    codes[missed] = np.searchsorted(values, arr[missed])
    return codes, values


# ------------------------- few labels of one word each: coded inside the counting pass
#: A :class:`WordTable` is made for at most this many distinct sampled labels.
WORD_TABLE_MAX_K = 256
#: Slots of a word table: at most 2**WORD_TABLE_MAX_BITS (its size is set when counting).
WORD_TABLE_MAX_BITS = 20

_CHARS_BEYOND_16_BITS = np.uint64(0xFFFF0000FFFF0000)


def one_word(arr: np.ndarray, sample: np.ndarray | None = None):
    """How to read each label of ``arr`` as one 64-bit word: a function of ``(start, stop)``
    giving those labels' words and None, or the words and a mask of the labels
    whose word may not tell them apart (to be coded another way); or None.

    Integers: their bits (narrower integers widened first). Strings of at most 2
    characters (``U``) or of 1, 2, 4 or 8 bytes (``S``): their bytes,
    zero-extended. ``U3``: 21 bits a character (:func:`_three_characters`).
    ``U4`` (two words): when the second word is zero in every label of
    ``sample`` (labels of at most 2 characters), the first word, and the
    labels whose second word is not zero are masked; otherwise the low 16 bits
    of each character, packed (character ``c`` goes to bits
    ``16 * (2 * (c % 2) + c // 2)``), and the labels with a character beyond
    ``2**16`` are masked. None for other dtypes.
    """
    kind, size = arr.dtype.kind, arr.dtype.itemsize
    if kind in "iu":
        if size == 8:
            return read_words(arr.view(np.uint64))
        return lambda start, stop: (arr[start:stop].astype(np.int64).view(np.uint64), None)
    if kind not in "US" or not arr.flags.c_contiguous or arr.ndim != 1:
        return None
    if size in (1, 2, 4, 8):
        narrow = arr.view(f"u{size}")
        if size == 8:
            return read_words(narrow)
        return lambda start, stop: (narrow[start:stop].astype(np.uint64), None)
    if kind == "U" and size == 12:
        return _three_characters(arr)
    if kind == "U" and size > 16 and sample is not None:
        return _packed_characters(arr, sample)
    if kind != "U" or size != 16:
        return None
    pairs = arr.view(np.uint64).reshape(arr.shape[0], 2)
    low, high = pairs[:, 0], pairs[:, 1]
    if sample is not None and not sample.view(np.uint64).reshape(-1, 2)[:, 1].any():
        def first_word(start, stop):                    # labels of at most 2 characters
            rest = high[start:stop]
            return low[start:stop], (rest != 0) if np.bitwise_or.reduce(rest) else None
        # characters 1 and 2 as one word: the first word shifted by 32 bits wherever the
        # second is zero (the others are masked), read without an operation
        first_word.upper = np.ndarray(arr.shape, dtype=np.intp, buffer=arr.view(np.uint8),
                                      offset=4, strides=(16,))
        return first_word

    def packed(start, stop):
        word = np.left_shift(high[start:stop], np.uint64(16))
        word |= low[start:stop]
        wide = np.bitwise_or.reduce(pairs[start:stop].reshape(-1)) & _CHARS_BEYOND_16_BITS
        return word, (np.bitwise_or(low[start:stop], high[start:stop]) & _CHARS_BEYOND_16_BITS
                      != 0) if wide else None
    return packed


def _pair_windows(varying: list, width: int) -> list:
    """Starts of the fewest windows of two neighbouring characters (8 bytes: one 64-bit
    word) that cover the ``varying`` positions of strings of ``width`` characters;
    among as few, those starting at even positions (whole words) first."""
    def cover(offset):
        starts = []
        for j in varying:
            if starts and j <= starts[-1] + 1:
                continue
            start = max(0, min(j - offset, width - 2))
            starts.append(start)
        return starts
    return min((cover(0), cover(1)), key=lambda starts: (len(starts), sum(x % 2 for x in starts)))


def _packed_characters(arr: np.ndarray, sample: np.ndarray):
    """:func:`one_word` for ``U`` strings of 5 characters or more whose labels in ``sample``
    differ only within at most four pairs of neighbouring characters: those pairs
    (64-bit windows onto the labels, read in place) packed into one word, or None.

    One pair is the word itself; two pairs are packed 16 bits a character,
    three or four 8 bits a character, and the labels with a wider character in
    them are masked. The positions outside the pairs, where every sampled
    label has the same character (a common prefix, the zero padding of a wide
    dtype), are checked: each run of zero positions with one count of non-zero
    characters, each other position with one comparison, and labels with
    another character there are masked too. Masked labels differ from every
    label that is not.
    """
    n, itemsize = arr.shape[0], arr.dtype.itemsize
    width = itemsize // 4
    chars = arr.view(np.uint32).reshape(n, width)
    seen = sample.view(np.uint32).reshape(sample.shape[0], width)
    first = seen[0]
    varying = np.flatnonzero((seen != first).any(axis=0)).tolist() or [0]
    starts = _pair_windows(varying, width)
    if len(starts) > 4:
        return None
    bits = 32 if len(starts) == 1 else 16 if len(starts) == 2 else 8
    windows = [np.ndarray((n,), dtype=np.uint64, buffer=arr.view(np.uint8), offset=4 * j,
                          strides=(itemsize,)) for j in starts]
    covered = {j + d for j in starts for d in (0, 1)}
    fixed = [j for j in range(width) if j not in covered]
    named = [(j, np.uint32(first[j])) for j in fixed if first[j]]   # e.g. a common prefix
    zero_runs = _zero_runs([j for j in fixed if not first[j]])
    # the characters of the windows must fit their bits
    beyond = np.uint64((((1 << 32) - 1) & ~((1 << bits) - 1)) * ((1 << 32) + 1))
    shifts = [np.uint64(bits * i) for i in range(len(starts))]

    def packed(start, stop):
        bad = None
        if len(windows) == 1:
            word = windows[0][start:stop]
        else:                                            # (copied first: faster to work on)
            parts = [w[start:stop].copy() for w in windows]
            word, wide = np.empty(stop - start, np.uint64), np.empty(stop - start, np.uint64)
            np.bitwise_or(parts[0], parts[1], out=wide)
            np.left_shift(parts[1], shifts[1], out=word)
            word |= parts[0]
            for part, shift in zip(parts[2:], shifts[2:]):
                wide |= part
                word |= part << shift
            if np.bitwise_or.reduce(wide) & beyond:
                bad = (wide & beyond) != 0
        block = chars[start:stop]
        for j, c in named:
            if not (block[:, j] == c).all():
                bad = _or(bad, block[:, j] != c)
        for j0, j1 in zero_runs:
            if np.count_nonzero(block[:, j0:j1]):
                bad = _or(bad, block[:, j0:j1].any(axis=1))
        return word, bad
    return packed


def _or(mask, other):
    return other if mask is None else mask | other


def _three_characters(arr: np.ndarray):
    """:func:`one_word` for ``U3``: characters ``c0, c1, c2`` as ``c0 | c1 << 21 | c2 << 42``,
    exact while every character is below ``2**21`` (every Unicode code point is); labels
    with a larger one are masked."""
    chars = arr.view(np.uint32).reshape(arr.shape[0], 3)

    def packed(start, stop):
        part = chars[start:stop]
        word = np.left_shift(part[:, 1], np.uint64(21), dtype=np.uint64)
        word |= np.left_shift(part[:, 2], np.uint64(42), dtype=np.uint64)
        word |= part[:, 0]
        if int(np.bitwise_or.reduce(part.reshape(-1))) >> 21:
            return word, (part >> np.uint32(21)).any(axis=1)
        return word, None
    return packed


class WordTable:
    """A table coding the labels of a sample, for :func:`count_cells`.

    The distinct labels of an evenly spread sample, sorted (``values``) with
    their words (``keys``, :func:`one_word`), and a window of bits
    ``[shift, shift + bits)`` of the word in which no two of them agree: the
    *slot* of a label. Made by :meth:`from_sample`; None when the sample shows
    more than :data:`WORD_TABLE_MAX_K` labels or no such window exists.
    """

    def __init__(self, arr, words, values, words_of_values, multiplier: int, shift: int,
                 bits: int):
        self.arr, self.n, self.words = arr, arr.shape[0], words
        self.values, self.words_of_values = values, words_of_values
        #: the words that are hashed: the labels' words times ``multiplier`` (mod 2**64)
        self.keys = words_of_values * np.uint64(multiplier)
        self.multiplier, self.shift, self.bits = multiplier, shift, bits

    def multiplied(self) -> "WordTable | None":
        """The same table with its window in the highest bits of the multiplied words
        (where every table can have it), or None."""
        if self.multiplier != 1:
            return self
        window = _distinct_window(self.words_of_values, multiplied=True)
        return None if window is None else WordTable(self.arr, self.words, self.values,
                                                     self.words_of_values, *window)

    @property
    def k(self) -> int:
        return int(self.values.shape[0])

    @classmethod
    def from_sample(cls, arr: np.ndarray) -> "WordTable | None":
        """The table of the distinct labels of an evenly spread sample of :data:`SAMPLE`
        labels of ``arr``, or None (labels not of one word, more than
        :data:`WORD_TABLE_MAX_K` of them, or no window: see :func:`_distinct_window`)."""
        n = arr.shape[0]
        at = np.arange(0, n, max(1, n // SAMPLE))
        sample = np.ascontiguousarray(arr[at])
        words = one_word(arr, sample)
        if words is None:
            return None
        sampled, masked = one_word(sample, sample)(0, at.shape[0])
        if masked is not None:                           # e.g. characters beyond 2**16
            return None
        order = np.argsort(sampled)
        ordered = sampled[order]
        new = np.empty(ordered.shape[0], dtype=bool)
        new[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
        keys = ordered[new]                              # the distinct words, once each
        if keys.shape[0] > WORD_TABLE_MAX_K:
            return None
        values = sample[order[new]]
        order = np.argsort(values, kind="stable")        # the labels' order, not the words'
        window = _distinct_window(keys)
        if window is None:
            return None
        return cls(arr, words, values[order], keys[order], *window)

    def table(self, window: tuple[int, int], field_at: int, marker: int, stride: int) -> np.ndarray:
        """The slots of a :func:`count_cells` pass: with the slot window ``window =
        (shift, bits)`` (containing this table's own window), slot ``s`` of key ``X``
        holds ``X ^ (code * stride << field_at)``; every other slot ``u`` holds
        ``(u << shift) ^ 2**marker``, whose window differs from every word of slot
        ``u`` at bit ``marker`` (a window bit outside the fields)."""
        shift, bits = window
        table = np.arange(1 << bits, dtype=np.uint64) << np.uint64(shift)
        table ^= np.uint64(1 << marker)
        slots = ((self.keys >> np.uint64(shift)) & np.uint64((1 << bits) - 1)).astype(np.intp)
        fields = np.arange(self.k, dtype=np.uint64) * np.uint64(stride) << np.uint64(field_at)
        table[slots] = self.keys ^ fields
        return table


def _distinct_window(keys: np.ndarray, multiplied: bool = False) -> tuple[int, int, int] | None:
    """``(multiplier, shift, bits)``: a window of at most :data:`WORD_TABLE_MAX_BITS` bits
    of the words ``keys * multiplier`` (modulo ``2**64``) in which they all differ,
    fewest bits first, or None when there is none.

    The words themselves come first (multiplier 1: no multiplication), with
    windows whose slot one operation finds: the lowest bits (a mask), or the
    bits just below the highest bit of any key (a shift: a word with a bit
    above is clipped to the last slot, which it cannot match). Two words differ
    in a window when it holds a bit of their XOR: the lowest window needs the
    lowest differing bit of every pair, the highest the highest. Else the
    highest bits of the words times an odd constant (a bijection, so the
    products tell the labels apart as well as the words do).
    """
    k = keys.shape[0]
    least = max(1, (k - 1).bit_length())
    best = None
    for multiplier in MULTIPLIERS if multiplied else (1,) + MULTIPLIERS:
        words = np.sort(keys * np.uint64(multiplier))
        top = int(words[-1]).bit_length() if multiplier == 1 else 64
        # the pair sharing the most highest bits is a pair of neighbours in sorted order
        high = max(least, top - int(_highest_bit(words[1:] ^ words[:-1]).min(initial=top)))
        windows = [(high, max(0, top - high))]
        if multiplier == 1 and k > 1:
            differ = words[:, None] ^ words[None, :]
            np.fill_diagonal(differ, 1)
            lowest = differ & (~differ + np.uint64(1))
            windows.append((max(least, int(_highest_bit(lowest).max()) + 1), 0))
        bits, shift = min(windows)
        if bits <= WORD_TABLE_MAX_BITS:
            best = multiplier, shift, bits
            break
    return best


def _highest_bit(words: np.ndarray) -> np.ndarray:
    """The index of the highest set bit of each (non-zero) word."""
    guess = np.floor(np.log2(words.astype(np.float64))).astype(np.int64)
    guess -= (words >> guess.astype(np.uint64)) == 0     # rounded up to a power of two
    return guess


def _windows(tables: list, field_bits: int) -> tuple[list, int] | None:
    """Slot windows for :func:`count_cells`, at least ``field_bits + 1`` bits wide, in
    which each table's keys differ, and one place ``field_at`` for the fields inside
    all of them; None when there is none. Tried in turn: the lowest bits of every
    word (no shift to find the cells), the highest, and each table's own window
    grown (it stays inside)."""
    bits = [max(field_bits + 1, t.bits) for t in tables]
    if max(bits) > WORD_TABLE_MAX_BITS:
        return None
    for shifts in ([0] * len(tables), [64 - b for b in bits],
                   [min(t.shift, 64 - b) for t, b in zip(tables, bits)]):
        windows = list(zip(shifts, bits))
        field_at = max(shifts)
        if (field_at + field_bits <= min(shift + b for shift, b in windows)
                and all(_distinct(t.keys, shift, b) for t, (shift, b) in zip(tables, windows))):
            return windows, field_at
    return None


def _distinct(keys: np.ndarray, shift: int, bits: int) -> bool:
    """Whether the words ``keys`` all differ in bits ``[shift, shift + bits)``."""
    slots = np.sort((keys >> np.uint64(shift)) & np.uint64((1 << bits) - 1))
    return bool((slots[1:] != slots[:-1]).all())


def _code_bits(table: "WordTable") -> int:
    """The bits of one labelling's codes in :func:`count_cells`' flat cell index."""
    return max(1, (table.k - 1).bit_length())


def count_cells_size(tables: list) -> int:
    """The cells of the table :func:`count_cells` fills for these word tables."""
    return 1 << sum(_code_bits(t) for t in tables)


def count_cells(tables: list, block: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Counts of every combination of codes of labellings given as :class:`WordTable` s.

    Returns ``(counts, missed)``: ``counts`` has shape ``(2**c_1, 2**c_2, ...)``
    (``c_i`` bits for the codes of labelling ``i``; codes beyond its ``k``
    count nothing), ``missed`` the instances with a label that is none of the
    sampled labels (left out of ``counts``). None when there are too many of
    those (more than one in 16) or no slot windows fit.

    How, per cache-sized block of instances: with ``B`` the bits of all the codes,
    each labelling's table has more than ``B`` slot bits and holds, in the slot
    of each sampled label, its word XOR its code's *field* (the code moved to its
    bits of the flat cell index) placed inside the slot window. For every word
    ``x`` of the block, ``d = x ^ table[slot(x)]`` is exactly the field when
    ``x`` is the word in its slot, and has a bit outside the field bits
    otherwise (a different word of the same slot differs outside the window;
    an empty slot sets a window bit beside the fields). So the OR of the
    labellings' ``d`` is the flat cell index (moved to the fields' place) of
    every instance whose labels all match, and one OR over the block tells
    whether they all do: one gather per label, exact whatever the hash.
    """
    code_bits = [_code_bits(t) for t in tables]
    total = sum(code_bits)
    placed = _windows(tables, total)
    if placed is None:                  # windows too far apart: the highest bits, multiplied
        tables = [t.multiplied() for t in tables]
        placed = None if None in tables else _windows(tables, total)
    if placed is None:
        return None
    windows, field_at = placed
    plans = []
    for axis, (t, (shift, bits)) in enumerate(zip(tables, windows)):
        marker = shift if field_at > shift else field_at + total
        table = t.table((shift, bits), field_at, marker, 1 << sum(code_bits[axis + 1:]))
        clipped = max(key.bit_length() for key in t.keys.tolist()) <= shift + bits
        how = ("as is" if clipped and not shift else "shift" if clipped or shift + bits == 64
               else "mask")
        if how == "shift" and shift == 32 and hasattr(t.words, "upper"):
            how = t.words.upper                          # the shifted word, as it is
        plans.append((t.words, t.multiplier, table, shift, how, np.uint64((1 << bits) - 1)))
    n = tables[0].n
    outside = np.uint64(~(((1 << total) - 1) << field_at) & (2**64 - 1))
    cells = 1 << total
    block = max(BLOCK if block is None else block, cells)
    counts = np.zeros(cells, dtype=np.int64)
    size = min(block, n)
    slot, got, acc = (np.empty(size, dtype=np.intp), np.empty(size, dtype=np.uint64),
                      np.empty(size, dtype=np.uint64))
    p = np.empty(size if any(t.multiplier != 1 for t in tables) else 0, dtype=np.uint64)
    missed = []
    n_missed = 0
    for start in range(0, n, block):
        stop = min(start + block, n)
        s, g, a = slot[:stop - start], got[:stop - start], acc[:stop - start]
        masked = None
        for axis, (words, multiplier, table, shift, how, mask) in enumerate(plans):
            x, unsure = words(start, stop)
            if multiplier != 1:
                x = np.multiply(x, np.uint64(multiplier), out=p[:stop - start])
            if unsure is not None:
                masked = unsure if masked is None else masked | unsure
            if isinstance(how, np.ndarray):
                index = how[start:stop]
            elif how == "as is":                         # clipped: see _distinct_window
                index = x.view(np.intp)
            else:
                index = s
                if shift:
                    np.right_shift(x, np.uint64(shift), out=s.view(np.uint64))
                if how == "mask":
                    np.bitwise_and(s.view(np.uint64) if shift else x, mask, out=s.view(np.uint64))
            np.take(table, index, out=g, mode="clip")
            if axis == 0:
                np.bitwise_xor(x, g, out=a)
            else:
                np.bitwise_xor(x, g, out=g)
                a |= g
        if masked is not None or np.bitwise_or.reduce(a) & outside:  # a label not in its slot
            bad = (a & outside) != 0
            if masked is not None:
                bad |= masked
            missed.append(np.flatnonzero(bad) + start)
            n_missed += missed[-1].shape[0]
            if n_missed > n // 16:
                return None
            a = a[~bad]
        if field_at:
            np.right_shift(a, np.uint64(field_at), out=a)
        counts += np.bincount(a.view(np.intp), minlength=cells)
    missed = np.concatenate(missed) if missed else np.empty(0, dtype=np.intp)
    return counts.reshape([1 << c for c in code_bits]), missed


# ------------------------------------------ many labels of one word each: a table of words
#: Instances per block of :func:`word_codes` (their words, slots and codes stay in cache).
WORD_BLOCK = 1 << 17


def _empty_word_table(bits: int) -> np.ndarray:
    """A table of ``2**bits`` words, none of which is in its own slot (a word's slot is its
    highest ``bits`` bits): slot ``u`` holds ``(u ^ (2**bits - 1)) << (64 - bits)``, whose
    slot bits XOR ``u``'s are all ones."""
    size = 1 << bits
    return (np.arange(size, dtype=np.uint64) ^ np.uint64(size - 1)) << np.uint64(64 - bits)


def _word_round(words, n: int, bits: int, multiplier: int, block: int, owners: bool, order_of,
                stride: int = 1):
    """One round of :func:`word_codes` over ``n`` instances read by ``words(start, stop)``.

    A label's *key* is its word times ``multiplier`` (mod 2**64: a bijection),
    its slot the key's highest ``bits`` bits. Every ``stride``-th instance not
    masked writes its key into its slot, the last write winning; the keys then
    found in their own slots are the labels of this round (an unwritten slot
    holds no key of its own: :func:`_empty_word_table`). Each such slot's key
    is then XORed with its code (the label's rank among this round's labels,
    ``order_of(keys, owners)`` sorts them) moved to the slot bits. A second
    pass reads back, one gather per instance: ``d = key ^ table[slot]``.
    Where the slot holds the instance's own key, ``d``'s lower ``64 - bits``
    bits are zero and its slot bits are the code. Where it holds another
    label's key, its lower bits are not zero (two keys of one slot share
    their slot bits, so they differ below them). Where the slot is free (its
    label lost it to another, or, with a stride, none of its instances
    wrote), its slot bits are all ones, which no code is: codes are below
    ``k``, and below ``2**(bits - 1)`` one OR over a block shows the highest
    bit is never set. Such instances lose, and go round again.

    Returns the codes of every instance (meaningless where lost), this round's
    labels' keys in code order and an instance of each (when ``owners``), and
    None or the instances that lost (their key is not in its slot, or they are
    masked), their words, and which of them are masked.
    """
    a, shift = np.uint64(multiplier), np.uint64(64 - bits)
    table = _empty_word_table(bits)
    owner = np.empty(1 << bits, dtype=np.intp) if owners else None
    size = min(block, n)
    key, slot = np.empty(size, dtype=np.uint64), np.empty(size, dtype=np.uint64)
    steps = np.arange(0, size, stride) if owners else None
    for start in range(0, n, block):                     # every instance writes ...
        stop = min(start + block, n)
        x, masked = words(start, stop)
        x = x[::stride]
        k = np.multiply(x, a, out=key[:x.shape[0]])
        s = np.right_shift(k, shift, out=slot[:x.shape[0]]).view(np.intp)
        if masked is not None:                           # their words do not tell them apart
            keep = ~masked[::stride]
            table[s[keep]] = k[keep]
            if owners:
                owner[s[keep]] = np.flatnonzero(keep) * stride + start
        else:
            table[s] = k
            if owners:
                owner[s] = steps[:x.shape[0]] + start
    taken = np.flatnonzero((table >> shift) == np.arange(table.shape[0], dtype=np.uint64))
    keys = table[taken]
    order = order_of(keys, owner[taken] if owners else None)
    taken, keys = taken[order], keys[order]
    table[taken] ^= np.arange(taken.shape[0], dtype=np.uint64) << shift
    codes = np.empty(n, dtype=code_dtype(max(1, taken.shape[0])))
    low = np.uint64((1 << (64 - bits)) - 1)
    labels = np.uint64(taken.shape[0])
    top = np.uint64(1 << 63)            # the highest slot bit: set by no code below 2**(bits-1)
    always = taken.shape[0] > 1 << (bits - 1)
    lost, lost_words, lost_masked = [], [], []
    for start in range(0, n, block):                     # ... then reads back
        stop = min(start + block, n)
        x, masked = words(start, stop)
        k = np.multiply(x, a, out=key[:stop - start])
        s = np.right_shift(k, shift, out=slot[:stop - start]).view(np.intp)
        d = np.take(table, s, mode="clip", out=slot[:stop - start])
        d ^= k
        np.right_shift(d, shift, out=codes[start:stop], casting="unsafe")
        seen = np.bitwise_or.reduce(d)
        free = always or seen & top                      # a key may have read a free slot
        if masked is not None or free or seen & low:
            unowned = np.right_shift(d, shift) >= labels if free else None  # (all ones)
            d &= low
            out = d != 0                                 # another label's slot
            if free:                                     # a free slot: not a code
                out |= unowned
            if masked is not None:
                out |= masked
            out = np.flatnonzero(out)
            lost.append(out + start)
            lost_words.append(x[out])
            lost_masked.append(masked[out] if masked is not None else np.zeros(out.shape[0], bool))
    first = owner[taken] if owners else None
    if not lost:
        return codes, keys, first, None
    return (codes, keys, first,
            (np.concatenate(lost), np.concatenate(lost_words), np.concatenate(lost_masked)))


def read_words(word: np.ndarray, masked: np.ndarray | None = None):
    """``words(start, stop)`` as :func:`one_word` gives it, for words already read: ``word``
    (and ``masked``, None when no label is masked) cut to the instances asked for."""
    return lambda start, stop: (word[start:stop], None if masked is None else masked[start:stop])


def integer_decoder(dtype: np.dtype):
    """``decode`` of :func:`word_codes` for native integers of ``dtype``: a word is the
    integer's bits."""
    return lambda words: words.view(np.int64).astype(dtype, copy=False)


def word_codes(arr: np.ndarray, words, bits: int, *, decode=None, block: int = WORD_BLOCK
               ) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``0 .. k - 1`` (of the narrowest unsigned dtype) and the sorted distinct
    labels of ``arr``, whose labels ``words(start, stop)`` reads as one 64-bit word
    each (:func:`one_word`), in rounds of a table of ``2**bits`` words.

    Each round (:func:`_word_round`) is two passes: the instances write their
    words into their slots of a multiplicative hash (in the first round only
    every ``stride``-th, when a label has many instances: at least one of
    them nearly always writes), then all read back; where the word an instance
    finds is its own, its label owns the slot and gets the slot's code.
    A label either owns its slot for all its instances or for none, so the
    instances that lost go round again with another multiplier, few of them
    (about ``k / 2**bits`` of the labels lose); a stubborn remainder, and the
    labels whose word does not tell them apart (masked), are sorted. Masked
    labels must differ from every label not masked (:func:`one_word`'s masks
    do: e.g. strings with a character beyond what the word holds).

    ``decode(words)`` gives the labels of words (integers: their bits as the
    integers); without it an instance of each label is kept while it writes.
    The same result as ``np.unique(arr, return_inverse=True)``, exact whatever
    the hash: collisions cost time, never correctness.
    """
    n = arr.shape[0]
    owners = decode is None

    def labels_of(keys, multiplier, first):
        if decode is None:
            return arr[first]
        return decode(keys * np.uint64(pow(multiplier, -1, 2**64)))   # the words

    def order_of(multiplier, instances=None):
        def order(keys, first):
            if first is not None and instances is not None:
                first = instances[first]
            return np.argsort(labels_of(keys, multiplier, first), kind="stable")
        return order

    multiplier = MULTIPLIERS[0]
    # with many instances a label (about n / 2**(bits - 3)), every stride-th writes
    stride = max(1, min(8, n >> (bits + 1)))
    codes, keys, first, lost = _word_round(words, n, bits, multiplier, block, owners,
                                           order_of(multiplier), stride)
    values = [labels_of(keys, multiplier, first)]
    if lost is None:
        return codes, values[0]
    later = []                                           # (instances, their codes in a round)
    todo, todo_words, masked = lost
    rest = [todo[masked]]
    todo, todo_words = todo[~masked], todo_words[~masked]
    for multiplier in MULTIPLIERS[1:]:
        if todo.shape[0] == 0:
            break
        round_bits = max(4, min(bits, int(todo.shape[0]).bit_length() + 1))
        code, keys, first, lost = _word_round(
            read_words(todo_words), todo.shape[0], round_bits,
            multiplier, block, owners, order_of(multiplier, todo))
        values.append(labels_of(keys, multiplier, None if first is None else todo[first]))
        if lost is None:
            later.append((todo, code))
            todo = todo[:0]
            break
        won = np.ones(todo.shape[0], dtype=bool)
        won[lost[0]] = False
        later.append((todo[won], code[won]))
        todo, todo_words = todo[lost[0]], lost[1]
    rest.append(todo)
    rest = np.concatenate(rest)
    if rest.shape[0]:                                    # sorted: masked and stubborn labels
        distinct, inverse = np.unique(arr[rest], return_inverse=True)
        values.append(distinct)
        later.append((rest, inverse.ravel()))
    everything = np.concatenate(values).astype(arr.dtype, copy=False)   # (keeps '>i8')
    order = np.argsort(everything, kind="stable")
    rank = np.empty(order.shape[0], dtype=code_dtype(order.shape[0]))
    rank[order] = np.arange(order.shape[0])
    offsets = np.cumsum([0] + [v.shape[0] for v in values])
    first_rank, coded = rank[:offsets[1]], codes
    if codes.dtype != rank.dtype:                        # (else in place: each code is
        codes = np.zeros(n, dtype=rank.dtype)            # read before it is written)
    if offsets[1]:                                       # (none when all lost)
        for start in range(0, n, block):                 # (a gather in blocks: faster)
            np.take(first_rank, coded[start:start + block], mode="clip",
                    out=codes[start:start + block])
    for (instances, code), offset in zip(later, offsets[1:]):
        codes[instances] = rank[offset:][code]
    return codes, everything[order]
