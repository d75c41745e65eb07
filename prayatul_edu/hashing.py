"""Factorising labels with a hash table built from NumPy operations, exactly.

Small-range integers are counted directly (:mod:`prayatul_edu.counting`); other
labels must first be turned into codes ``0..k-1``. Sorting N labels does it in
O(N log N); this module does it in a few O(N) passes while ``k`` is small
compared with N:

1. each label becomes one or more 64-bit *words* that identify it exactly
   (:class:`IntWords`: the integer itself; :class:`StringWords`: the bytes of a
   fixed-width string, eight at a time);
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
"""
from __future__ import annotations

import numpy as np

__all__ = ["hash_factorize", "table_bits", "IntWords", "StringWords", "MULTIPLIERS", "BLOCK"]

#: Odd 64-bit multipliers (Fibonacci hashing and other well-mixing constants),
#: one per round; the golden-ratio one first.
MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
               0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD)


#: Instances hashed per block: the block's words and slots stay in cache.
BLOCK = 1 << 15


class IntWords:
    """Integer labels as words: the 64 bits of each integer (one word per label)."""

    def __init__(self, arr: np.ndarray):
        self.arr, self.n = arr, arr.shape[0]
        wide = arr if arr.dtype.itemsize == 8 else arr.astype(np.int64)
        self.matrix = wide.view(np.uint64).reshape(self.n, 1)


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
            self.matrix = padded.view(np.uint64)
        else:
            self.matrix = self.arr.view(np.uint64).reshape(self.n, width)
        if width > 1:                                    # keep the words that vary
            keep = np.flatnonzero(np.bitwise_or.reduce(self.matrix, axis=0))
            self.matrix = self.matrix[:, keep] if keep.shape[0] else self.matrix[:, :1]


def _slots(words: np.ndarray, multiplier: int, bits: int) -> np.ndarray:
    """The slot ``0 .. 2**bits - 1`` of every row of words: a multiplicative hash."""
    a = np.uint64(multiplier)
    h = words[:, 0] * a
    for j in range(1, words.shape[1]):                   # fold further words in
        h ^= words[:, j]
        h *= a
    h >>= np.uint64(64 - bits)
    return h.view(np.intp)                               # < 2**63: a valid index


def _same(matrix: np.ndarray, rows: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Whether label ``rows[i]`` has the words ``words[i]`` (for every i)."""
    if matrix.shape[1] == 1:
        return matrix[:, 0][rows] == words[:, 0]
    return (matrix[rows] == words).all(axis=1)


def _rank(source, first: np.ndarray) -> np.ndarray:
    """The rank of the labels of instances ``first`` among them (in the labels' order)."""
    order = np.argsort(source.arr[first], kind="stable")
    rank = np.empty(order.shape[0], dtype=np.intp)
    rank[order] = np.arange(order.shape[0])
    return rank


def _first_round(source, bits: int, multiplier: int, block: int):
    """Round one, block by block: codes (ranked among the labels that own a slot),
    one instance of each such label, and the instances whose label lost its slot."""
    n, matrix = source.n, source.matrix
    owner = np.full(1 << bits, -1, dtype=np.intp)        # an instance of each slot's label
    for start in range(0, n, block):                     # every instance writes ...
        slot = _slots(matrix[start:start + block], multiplier, bits)
        owner[slot] = np.arange(start, start + slot.shape[0])
    used = owner >= 0
    first = owner[used]
    rank = _rank(source, first)
    slot_code = np.zeros(owner.shape[0], dtype=np.intp)
    slot_code[used] = rank
    codes = np.empty(n, dtype=np.intp)
    lost = []
    for start in range(0, n, block):                     # ... then reads back
        words = matrix[start:start + block]
        slot = _slots(words, multiplier, bits)
        np.take(slot_code, slot, out=codes[start:start + slot.shape[0]])
        won = _same(matrix, owner[slot], words)
        if not won.all():
            lost.append(np.flatnonzero(~won) + start)
    placed = np.empty_like(first)
    placed[rank] = first
    return codes, placed, lost


def _round(source, todo: np.ndarray, bits: int, multiplier: int):
    """A later round over the instances ``todo`` still without a code (all at once)."""
    words = source.matrix[todo]
    slot = _slots(words, multiplier, bits)
    owner = np.full(1 << bits, -1, dtype=np.intp)
    owner[slot] = todo
    won = _same(source.matrix, owner[slot], words)
    used = owner >= 0
    slot_code = np.cumsum(used, dtype=np.intp) - 1
    return slot_code[slot], won, owner[used]


def hash_factorize(source, bits: int, *, multipliers=MULTIPLIERS,
                   block: int = BLOCK) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``0..k-1`` and the sorted distinct labels of ``source``.

    ``source`` is an :class:`IntWords` or :class:`StringWords`; ``bits`` sets the
    table size ``2**bits`` (a few times k keeps collisions rare; too small costs
    rounds, not correctness). The same result as ``np.unique(labels,
    return_inverse=True)``, exact whatever the hash: see the module docstring.
    """
    block = max(256, block // source.matrix.shape[1])    # about the same bytes per block
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
        _, index, inverse = np.unique(source.matrix[todo], axis=0, return_index=True,
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


def table_bits(source) -> int | None:
    """Table size (bits) for :func:`hash_factorize`, from the labels of a sample.

    About 8 slots per distinct label of an evenly spread sample of
    :data:`SAMPLE` labels, four times that when the sample already shows many
    labels (so that many are unseen): a guess, too few slots costs rounds, not
    correctness. None when nearly every sampled label is new: with about as
    many labels as instances a sort is as fast as the table.
    """
    sample = source.matrix[::max(1, source.n // SAMPLE)]
    size = sample.shape[0]
    seen = (np.unique(sample[:, 0]) if sample.shape[1] == 1 else np.unique(sample, axis=0)).shape[0]
    if 10 * seen > 9 * size:
        return None
    if 4 * seen > size:
        seen *= 4
    return max(10, (8 * seen).bit_length())
