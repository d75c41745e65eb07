"""The hash-table factorisation gives exactly np.unique's codes and values.

Whatever the hash does: tiny tables force collisions (several rounds, and the
sort of a stubborn remainder); negative, huge and unsigned integers, empty and
non-ASCII strings, bytes, and dtypes wider than the labels are all checked.
"""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import adjusted_rand_index, hashing, prayatul_matrix
from prayatul_edu import labels as coding
from prayatul_edu.hashing import StringWords, hash_factorize, sampled_codes, table_bits


class IntWords:
    """Integers as a source of :func:`hash_factorize` (the package codes them with
    word_codes; the rounds are tested on them too, one word a label)."""

    def __init__(self, arr):
        self.arr, self.n = arr, arr.shape[0]
        self.columns = arr.astype(np.int64).view(np.uint64).reshape(1, self.n)


def _assert_like_unique(arr, codes, values):
    expected_values, expected_codes = np.unique(arr, return_inverse=True)
    assert values.dtype == arr.dtype
    assert values.tolist() == expected_values.tolist()
    assert codes.tolist() == expected_codes.ravel().tolist()


INT64 = st.integers(-2**63, 2**63 - 1)


@settings(max_examples=60, deadline=None)
@given(pool=st.lists(INT64, min_size=1, max_size=40), picks=st.lists(st.integers(0, 10**6),
       min_size=1, max_size=300), bits=st.integers(1, 12), block=st.integers(1, 64))
def test_ints_equal_unique_even_with_tiny_tables(pool, picks, bits, block):
    arr = np.array([pool[i % len(pool)] for i in picks], dtype=np.int64)
    codes, values = hash_factorize(IntWords(arr), bits, block=block)
    _assert_like_unique(arr, codes, values)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64])
def test_other_integer_dtypes(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    pool = np.array([info.min, info.max, 0, 1, info.max // 3], dtype=dtype)
    arr = pool[rng.integers(0, pool.shape[0], 5000)]
    for bits in (1, 3, 10):
        codes, values = hash_factorize(IntWords(arr), bits)
        _assert_like_unique(arr, codes, values)


def test_one_multiplier_leaves_collisions_to_the_sort():
    arr = np.arange(200, dtype=np.int64) * 10**12 - 7      # 200 labels in 2 slots
    codes, values = hash_factorize(IntWords(arr[::-1].copy()), 1, multipliers=(3,))
    _assert_like_unique(arr[::-1], codes, values)


TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(pool=st.lists(TEXT, min_size=1, max_size=30), picks=st.lists(st.integers(0, 10**6),
       min_size=1, max_size=300), bits=st.integers(1, 12), as_bytes=st.booleans(),
       pad=st.integers(0, 9))
def test_strings_equal_unique_even_with_tiny_tables(pool, picks, bits, as_bytes, pad):
    labels = [pool[i % len(pool)] for i in picks]
    if as_bytes:
        labels = [s.encode("utf-8") for s in labels]
        width = max(map(len, labels)) + pad
        arr = np.array(labels, dtype=f"S{max(width, 1)}")
    else:
        width = max(map(len, labels)) + pad                 # wider than the labels
        arr = np.array(labels, dtype=f"U{max(width, 1)}")
    codes, values = hash_factorize(StringWords(arr), bits, block=max(1, bits * 7))
    _assert_like_unique(arr, codes, values)


def test_table_bits_grows_with_labels_and_declines_when_all_differ():
    rng = np.random.default_rng(0)
    few = table_bits(IntWords(rng.integers(0, 10, 10**5) * 10**12))
    many = table_bits(IntWords(rng.integers(0, 10**4, 10**5) * 10**12))
    assert few == 10 and many > few
    assert table_bits(IntWords(rng.permutation(10**5) * 10**12)) is None


@pytest.mark.parametrize("rounds", [True, False])
@pytest.mark.parametrize("kind", ["huge", "strings", "bytes", "unicode"])
def test_measures_use_the_table_and_agree_with_small_ints(monkeypatch, kind, rounds):
    from sklearn.metrics import adjusted_rand_score

    monkeypatch.setattr(coding, "HASH_MIN_N", 0)
    if rounds:                                           # no table from a sample: rounds
        monkeypatch.setattr(hashing, "SAMPLED_MAX_K", 0)
    rng = np.random.default_rng(5)
    g, p, q = (rng.integers(0, k, 3000) for k in (7, 40, 300))
    as_kind = {"huge": lambda x: x * 10**15 - 2**62 + x % 7,      # on no grid: hashed
               "strings": lambda x: np.array([f"c{v}" if v else "" for v in x]),
               "bytes": lambda x: np.array([b"b%d" % v for v in x]),
               "unicode": lambda x: np.array([f"é{v}ü" * (1 + v % 3) for v in x])}[kind]
    G, P, Q = as_kind(g), as_kind(p), as_kind(q)
    lab = coding.check_labels(P, "p")
    assert lab.values is not None and lab.grid is None   # really the hash table
    _assert_like_unique(P, lab.codes, lab.values)
    assert prayatul_matrix(G, P, Q).matrix.tolist() == prayatul_matrix(g, p, q).matrix.tolist()
    assert adjusted_rand_index(G, P) == pytest.approx(adjusted_rand_score(g, p), abs=1e-12)


# ------------------------------------------- integer labels on a grid (no hashing)
_DTYPES = [np.int64, np.uint64, np.int32, np.int16, np.uint32]


@st.composite
def _grid_labels(draw):
    """Labels ``origin + step * j`` within a dtype (often near its ends), maybe one off the grid."""
    dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
    info = np.iinfo(dtype)
    step = draw(st.one_of(st.integers(2, 10**6), st.sampled_from([2**40, 10**12, 3 * 2**50])))
    span = draw(st.integers(1, 60))
    if step * (span - 1) > info.max - info.min:
        step = max(2, (info.max - info.min) // max(1, span - 1))
    lowest = draw(st.sampled_from(["min", "max", "any"]))
    room = info.max - step * (span - 1)
    origin = {"min": info.min, "max": room, "any": draw(st.integers(info.min, room))}[lowest]
    picks = draw(st.lists(st.integers(0, span - 1), min_size=2, max_size=400))
    values = [origin + step * j for j in picks]
    off = draw(st.sampled_from([None, "first", "last"]))
    if off is not None and len(values) > 2:              # one label off the grid
        at = 0 if off == "first" else len(values) - 1
        values[at] += 1 if values[at] < info.max else -1
    return np.array(values, dtype=dtype)


@settings(max_examples=150, deadline=None)
@given(_grid_labels())
def test_labels_on_a_grid_equal_unique(arr):
    """Labels on a grid (or one label off it: then hashed) give np.unique's codes and values,
    through the lazy labels (counting afterwards) and through the eager factorisation."""
    lab = coding.check_labels(arr, "x")
    _assert_like_unique(arr, lab.codes, lab.values)
    assert lab.sizes().tolist() == np.unique(arr, return_counts=True)[1].tolist()
    _assert_like_unique(arr, *coding._factorize(arr, "x"))


def test_grid_labels_are_counted_as_small_offsets_and_agree():
    """Ids 10**12 apart: counted along their grid offsets, the same numbers as small ints."""
    from prayatul_edu import contingency_table

    rng = np.random.default_rng(11)
    g, p, q = (rng.integers(0, k, 5000) for k in (5, 9, 3))
    G, P, Q = (x * 10**12 - 7 for x in (g, p, q))
    assert prayatul_matrix(G, P, Q).matrix.tolist() == prayatul_matrix(g, p, q).matrix.tolist()
    lab = coding.check_labels(P, "p")
    assert lab.dense_form()[2] == 9 and lab.grid == (-7, 10**12, P.dtype)
    assert lab.ints.dtype == np.uint8 and lab.ints.tolist() == p.tolist()
    t = contingency_table(G, P)
    assert t.clusters.tolist() == sorted(set(P.tolist())) and t.counts.sum() == 5000
    assert t.counts.tolist() == contingency_table(g, p).counts.tolist()
    late = P.copy()
    late[-1] += 5                                        # off the grid after the sample
    lab = coding.check_labels(late, "p")
    _assert_like_unique(late, lab.codes, lab.values)
    assert lab.grid is None


# ------------------------------- few labels: a table from a sample, one pass, misses
@settings(max_examples=120, deadline=None)
@given(kind=st.sampled_from(["ints", "U", "S", "U prefix"]),
       pool=st.lists(st.one_of(INT64, TEXT), min_size=1, max_size=40, unique=True),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=400),
       sample=st.sampled_from([1, 3, 64, 4096]), block=st.sampled_from([1, 5, 1 << 15]),
       rare=st.booleans())
def test_sampled_codes_equal_unique(kind, pool, picks, sample, block, rare):
    """Whatever the sample sees: labels it misses (rare ones, a sample of one label) are
    sorted in afterwards; strings sharing words, empty strings, bytes, int64's ends."""
    if kind == "ints":
        pool = [v if isinstance(v, int) else len(v) for v in pool] + [-2**63, 2**63 - 1]
    else:
        pool = [str(v) for v in pool] + [""]
        if kind == "U prefix":
            pool = ["ab" + v for v in pool]              # words every label shares
    labels = [pool[i % len(pool)] for i in picks]
    if rare:                                             # a label seen once, late
        labels.append(pool[-1])
    if kind == "S":
        labels = [v.encode("utf-8") for v in labels]
    arr = np.array(labels)
    if kind == "ints":
        arr = arr.astype(np.int64)
    old = hashing.SAMPLE
    hashing.SAMPLE = sample
    try:
        found = sampled_codes(arr, block=block)
    finally:
        hashing.SAMPLE = old
    if found is None:                                    # too many misses: rounds instead
        assert len(set(labels)) > 1
        return
    codes, values = found
    assert codes.dtype.kind == "u" and codes.dtype.itemsize <= max(1, (len(values) > 256) * 2)
    _assert_like_unique(arr, codes.astype(np.intp), values)


def test_sampled_labels_are_counted_like_small_ints():
    """Strings with few labels become one-byte codes that the counting reads directly."""
    rng = np.random.default_rng(21)
    g, p, q = (rng.integers(0, k, 20000) for k in (4, 12, 7))
    G, P, Q = (np.char.add("c", x.astype(str)).astype("<U4") for x in (g, p, q))
    lab = coding.check_labels(P, "p")
    assert lab.ints.dtype == np.uint8 and lab.dense_form()[1:] == (0, 12)
    assert lab.values.tolist() == sorted(set(P.tolist())) and lab.lookup is not None
    assert prayatul_matrix(G, P, Q).matrix.tolist() == prayatul_matrix(g, p, q).matrix.tolist()
    ids = rng.integers(-2**63, 2**63 - 1, 12, dtype=np.int64)[p]   # on no grid: sampled
    lab = coding.check_labels(ids, "ids")
    _assert_like_unique(ids, lab.codes, lab.values)
    assert lab.lookup is not None and lab.ints.dtype == np.uint8


@pytest.mark.parametrize("where", ["below", "beyond a byte", "off the grid", "none"])
def test_grid_from_a_sample_falls_back_when_the_sample_misleads(monkeypatch, where):
    """The grid tried from a sample (no min/max pass) meets a label the sample missed:
    one below its smallest label, one beyond what its dtype holds, one off the grid;
    the labels are still coded exactly (by the min/max path)."""
    monkeypatch.setattr(coding, "SAMPLE", 8)
    rng = np.random.default_rng(4)
    j = rng.integers(3, 9, 5001)
    j[0] = 3                                             # index 0 is always sampled
    extra = {"below": 0, "beyond a byte": 300, "off the grid": 5, "none": 4}[where]
    labels = j * 10**12 + 11
    labels[2501 + 7] = extra * 10**12 + 11 + (where == "off the grid")  # not sampled
    lab = coding.check_labels(labels, "x")
    _assert_like_unique(labels, lab.codes, lab.values)
    assert lab.sizes().tolist() == np.unique(labels, return_counts=True)[1].tolist()
    if where != "off the grid":
        assert lab.grid is not None and lab.grid[1] == 10**12


# ------------------ few labels of one word each: coded inside the counting pass
def _occupied(table):
    """``table`` without the values (of a range of small ints) that no instance has."""
    axes = range(table.ndim)
    keep = [table.sum(axis=tuple(b for b in axes if b != a)) > 0 for a in axes]
    return table[np.ix_(*keep)]


def _table_by_unique(*arrays):
    """The dense table of codes 0..k-1 (np.unique's), counted one instance at a time."""
    coded = [np.unique(a, return_inverse=True) for a in arrays]
    table = np.zeros([len(values) for values, _ in coded], dtype=np.int64)
    np.add.at(table, tuple(codes.ravel() for _, codes in coded), 1)
    return table, [values for values, _ in coded]


_SHORT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"), max_size=4)
_WIDE = st.sampled_from(["\U0001F600", "a\U00010000", "\uffff\uffff", "\U0010FFFF" * 4])


@st.composite
def _one_word_labels(draw):
    """A labelling whose labels fit one word: 64-bit ids (int64's ends, negatives),
    narrow ints, short strings (empty, mixed lengths, characters beyond 2**16 that
    must not be packed), bytes."""
    kind = draw(st.sampled_from(["ids", "int32", "U4", "U4 wide", "U3", "U2", "S8", "S2"]))
    if kind == "ids":
        pool = draw(st.lists(INT64, min_size=1, max_size=20)) + draw(
            st.sampled_from([[], [-2**63, 2**63 - 1], [-1, 0]]))
    elif kind == "int32":
        pool = draw(st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=20))
    elif kind.startswith("U"):
        pool = draw(st.lists(_SHORT, min_size=1, max_size=20)) + [""]
        if kind == "U4 wide":
            pool += draw(st.lists(_WIDE, min_size=1, max_size=2))
        if kind in ("U2", "U3"):
            pool = [v[:int(kind[1])] for v in pool]
    else:
        pool = draw(st.lists(st.binary(max_size=int(kind[1:])), min_size=1, max_size=20))
        pool = [v.rstrip(b"\0") for v in pool]
    picks = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
    return kind, pool, picks


def _materialise(kind, pool, picks, n, rng):
    labels = [pool[i % len(pool)] for i in picks]
    labels = [labels[i] for i in rng.integers(0, len(labels), n)]
    dtype = {"ids": np.int64, "int32": np.int32, "U4": "<U4", "U4 wide": "<U4", "U3": "<U3",
             "U2": "<U2",
             "S8": "S8", "S2": "S2"}[kind]
    return np.array(labels, dtype=dtype)


@settings(max_examples=80, deadline=None)
@given(columns=st.lists(_one_word_labels(), min_size=2, max_size=3),
       sample=st.sampled_from([1, 3, 64, 4096]), block=st.sampled_from([7, 1 << 15]),
       rare=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_counting_with_word_tables_equals_unique(columns, sample, block, rare, seed):
    """Labels coded by a word table while they are counted give np.unique's table, values,
    sizes and (read afterwards) codes: labels the sample missed (a sample of one label,
    a label seen once at the end), characters beyond 2**16, int64's ends, bytes."""
    with mock.patch.object(coding, "HASH_MIN_N", 0), \
            mock.patch.object(hashing, "SAMPLE", sample), \
            mock.patch.object(hashing, "BLOCK", block):
        _check_word_tables(columns, rare, np.random.default_rng(seed))


def _check_word_tables(columns, rare, rng):
    n = 300
    arrays = [_materialise(*column, n, rng) for column in columns]
    if rare:                                             # one label, once, late
        for arr, (kind, pool, _) in zip(arrays, columns):
            arr[-1] = pool[-1]
    labs = [coding.check_labels(arr, f"x{i}") for i, arr in enumerate(arrays)]
    table = coding.dense_table(*labs)
    expected, values = _table_by_unique(*arrays)
    if table is None:                                    # small ints spread over > N cells
        assert all(lab.word_table is None for lab in labs) and expected.size < 300
    else:
        assert (_occupied(table) == expected).all()
    for lab, arr, v in zip(labs, arrays, values):
        assert lab.values.tolist() == v.tolist() and lab.values.dtype == arr.dtype
        assert lab.sizes().tolist() == np.unique(arr, return_counts=True)[1].tolist()
        _assert_like_unique(arr, lab.codes, lab.values)


def test_word_tables_skip_the_range_pass_and_code_lazily(monkeypatch):
    """Random ids and short strings: a word table from the sample (no min/max pass, no
    codes written while counting), the Prayatul matrix of the same labels as small ints;
    a label the sample missed is counted exactly; labels all equal; the codes come when
    read."""
    rng = np.random.default_rng(31)
    g, p, q = (rng.integers(0, k, 20000) for k in (4, 12, 7))
    ids = rng.integers(-2**63, 2**63 - 1, 12, dtype=np.int64)
    G, P = ids[g], np.char.add("c", p.astype(str)).astype("<U4")
    Q = np.char.add("x", q.astype(str)).astype("<U4")    # at most 2 characters: one word
    P[12345] = "zz9"                                     # never sampled
    Q[7777] = "x\U0001F600z"                            # never sampled, 3 characters
    labs = [coding.check_labels(x, name) for x, name in ((G, "g"), (P, "p"), (Q, "q"))]
    assert labs[1].word_table is not None and labs[2].word_table is not None
    assert hasattr(labs[2].word_table.words, "upper")    # characters 1, 2 read as a word
    monkeypatch.setattr(coding, "_min_max", None)    # a range pass would fail
    p[12345], q[7777] = 12, 7                            # the same, as small ints
    assert prayatul_matrix(*labs).matrix.tolist() == prayatul_matrix(g, p, q).matrix.tolist()
    table, _ = _table_by_unique(G, P, Q)
    assert (coding.dense_table(*[coding.check_labels(x, "x") for x in (G, P, Q)])
            == table).all()
    assert all(lab._ints is None for lab in labs[1:])    # no codes written for the strings
    assert labs[1].k == 13 and labs[1].values[-1] == "zz9"
    _assert_like_unique(P, labs[1].codes, labs[1].values)
    same = coding.check_labels(np.full(5000, -2**63, dtype=np.int64), "same")
    other = coding.check_labels(G[:5000], "other")
    table, _ = _table_by_unique(np.zeros(5000), G[:5000])
    assert coding.dense_table(same, other).tolist() == table.tolist()
    assert same.values.tolist() == [-2**63] and same.codes.tolist() == [0] * 5000


def test_word_windows_fall_back_to_a_multiplied_word():
    """Packed 3-character strings whose distinguishing bits lie far apart: the window is
    found in the words times an odd constant; exact either way."""
    keys = np.array([0x63 | (0x31 << 32), 0x63 | (0x31 << 32) | (0x30 << 16),
                     0x63 | (0x31 << 32) | (0x31 << 16)], dtype=np.uint64)
    multiplier, shift, bits = hashing._distinct_window(keys)
    assert bits <= 4 and (multiplier == 1 or shift + bits == 64)
    products = keys * np.uint64(multiplier)
    assert len({int(x) >> shift & ((1 << bits) - 1) for x in products}) == 3
    rng = np.random.default_rng(5)
    arr = np.array(["c1", "c10", "c11", "c2"], dtype="<U4")[rng.integers(0, 4, 9000)]
    lab = coding.check_labels(arr, "x")
    assert lab.word_table is not None
    table, _ = _table_by_unique(arr, arr)
    assert (coding.dense_table(lab, coding.check_labels(arr, "y")) == table).all()


def test_two_character_strings_are_read_from_their_second_character():
    """Labels of at most 2 characters told apart by their second one: the slot is read
    straight from the bytes of characters 1 and 2 (no shift); a longer label, a
    character beyond 2**16 or a non-zero third character is still counted exactly."""
    rng = np.random.default_rng(8)
    a, b = rng.integers(0, 10, 30000), rng.integers(0, 6, 30000)
    A = np.char.add("c", a.astype(str)).astype("<U4")
    B = np.char.add("k", b.astype(str)).astype("<U4")
    A[30001 // 2] = "c\U0001F600"                           # never sampled (odd index)
    B[4001], B[4003] = "k1\0x", "k10"                    # third character not zero
    tables = [hashing.WordTable.from_sample(x) for x in (A, B)]
    windows, field_at = hashing._windows(tables, 4 + 3)
    assert field_at == 32 and all(shift == 32 for shift, _ in windows)
    labs = [coding.check_labels(x, name) for x, name in ((A, "a"), (B, "b"))]
    table, values = _table_by_unique(A, B)
    assert (coding.dense_table(*labs) == table).all()
    assert [lab.values.tolist() for lab in labs] == [v.tolist() for v in values]


def test_three_characters_pack_into_21_bits_each():
    """``U3`` labels: 21 bits a character (every code point fits), exact; a stored value
    beyond 2**21 (no code point, but NumPy holds it) is masked and counted exactly."""
    rng = np.random.default_rng(12)
    pool = np.array(["c10", "c1", "", "\U0010FFFF\U0010FFFE!", "c11", "c01"], dtype="<U3")
    arr = pool[rng.integers(0, 6, 20000)]
    arr.view(np.uint32)[3 * 4321 + 1] = 2**21 + 99           # label 4321: never sampled
    other = pool[rng.integers(0, 6, 20000)]
    labs = [coding.check_labels(x, name) for x, name in ((arr, "a"), (other, "b"))]
    assert all(lab.word_table is not None for lab in labs)
    table, values = _table_by_unique(arr, other)
    assert (coding.dense_table(*labs) == table).all()
    assert labs[0].values.tolist() == values[0].tolist() and labs[0].k == 7
    _assert_like_unique(arr, labs[0].codes, labs[0].values)


@pytest.mark.parametrize("dtype", ["<U4", "<U3", "ids"])
def test_labels_with_word_tables_pickle(dtype):
    """Results keep their labels (and so a word table, for codes read later): they pickle,
    and labels pickled before counting count the same afterwards."""
    import pickle

    from prayatul_edu import contingency_table

    rng = np.random.default_rng(2)
    x = rng.integers(0, 10, 20000)
    ids = rng.integers(-2**63, 2**63 - 1, 10, dtype=np.int64)
    X = ids[x] if dtype == "ids" else np.char.add("c", x.astype(str)).astype(dtype)
    if dtype == "<U4":
        X[2001] = "c\U0001F600"                          # never sampled
    y = rng.integers(0, 7, 20000)
    table = contingency_table(y, X)
    back = pickle.loads(pickle.dumps(table))
    assert back.counts.tolist() == table.counts.tolist()
    assert back.clusters.tolist() == table.clusters.tolist()
    labs = [coding.check_labels(v, name) for v, name in ((X, "x"), (X[::-1].copy(), "y"))]
    for lab in labs:
        lab.look_at_sample()                             # ids: the table comes from a sample
    assert labs[0].word_table is not None
    again = pickle.loads(pickle.dumps(labs))
    assert (coding.dense_table(*again) == coding.dense_table(*labs)).all()
    _assert_like_unique(X, again[0].codes, again[0].values)


# ------------------------------------------------ many labels of one word: word_codes
def _int_words(arr):
    bits = arr.view(np.uint64)
    return lambda start, stop: (bits[start:stop], None)


@settings(max_examples=80, deadline=None)
@given(pool=st.lists(INT64, min_size=1, max_size=60), picks=st.lists(st.integers(0, 10**6),
       min_size=1, max_size=400), bits=st.integers(4, 12), block=st.integers(1, 64),
       decode=st.booleans(), mask_odd=st.booleans())
def test_word_codes_equal_unique_even_with_tiny_tables(pool, picks, bits, block, decode,
                                                       mask_odd):
    """Rounds of a table of words: np.unique's codes and values whatever the table size
    (tiny tables: most labels lose their slot, several rounds, then a sort), block size,
    with labels decoded from their words or kept from an instance, and with masked labels
    (here the odd ones: a mask must be a property of the label)."""
    arr = np.array([pool[i % len(pool)] for i in picks], dtype=np.int64)
    bits64 = arr.view(np.uint64)

    def words(start, stop):
        return bits64[start:stop], ((arr[start:stop] % 2) == 1 if mask_odd else None)
    codes, values = hashing.word_codes(arr, words, bits, block=block,
                                       decode=(lambda w: w.view(np.int64)) if decode else None)
    _assert_like_unique(arr, codes, values)
    assert codes.dtype == hashing.code_dtype(values.shape[0])


def test_word_codes_when_no_label_keeps_a_slot():
    """Every label masked (none in the table), a single label, labels all colliding in a
    table of 16 slots: still exact."""
    arr = np.arange(300, dtype=np.int64)[::-1] * 2**40 + 5
    everything = lambda start, stop: (arr.view(np.uint64)[start:stop],  # noqa: E731
                                      np.ones(stop - start, dtype=bool))
    _assert_like_unique(arr, *hashing.word_codes(arr, everything, 4))
    one = np.full(1000, -7, dtype=np.int64)
    _assert_like_unique(one, *hashing.word_codes(one, _int_words(one), 4))
    _assert_like_unique(arr, *hashing.word_codes(arr, _int_words(arr), 4, block=7))


def test_table_bits_estimates_many_labels_from_repeats():
    """With nearly every sampled label new, k comes from the repeats (birthday problem):
    about 4 slots a label up to a few hundred thousand labels, then a sort."""
    rng = np.random.default_rng(4)
    n = 10**6
    for k, low, high in ((10**5, 18, 20), (3 * 10**5, 20, 22)):
        bits = table_bits(IntWords(rng.integers(0, k, n) * 10**9))
        assert bits is not None and low <= bits <= high, (k, bits)
    assert table_bits(IntWords(rng.permutation(n).astype(np.int64) * 10**9)) is None


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, ">i8", ">u8", np.int32, np.uint32])
def test_many_integer_labels_are_coded_by_word_codes_without_a_range_pass(monkeypatch, dtype):
    """Integers on no grid with many labels: coded from the sample's verdict (no min/max
    pass), by word_codes, exactly, for every integer dtype (byte-swapped ones keep an
    instance of each label instead of decoding words); the dtype's ends included."""
    rng = np.random.default_rng(9)
    info = np.iinfo(np.dtype(dtype))
    pool = np.unique(rng.integers(info.min, info.max, 3000, endpoint=True,
                                  dtype=np.dtype(dtype).newbyteorder("=")))
    pool[:2] = info.min, info.max
    arr = pool[rng.integers(0, pool.shape[0], 60000)].astype(dtype)
    called = []
    real = hashing.word_codes
    monkeypatch.setattr(coding, "word_codes",
                        lambda *a, **kw: called.append(1) or real(*a, **kw))
    if info.bits < 64 or info.min:                       # (uint64: checked for offsets)
        monkeypatch.setattr(coding, "_min_max", None)  # a range pass would fail
    lab = coding.check_labels(arr, "ids")
    y = rng.integers(0, 5, arr.shape[0])
    table = coding.dense_table(coding.check_labels(y, "y"), lab)
    expected, _ = _table_by_unique(y, arr)
    assert called and (table == expected).all()
    _assert_like_unique(arr, lab.codes, lab.values)


# --------------------------------------------- wide strings packed into one word each
def test_pair_windows_cover_the_varying_characters_with_fewest_words():
    assert hashing._pair_windows([1], 22) == [0]          # one word: characters 0 and 1
    assert hashing._pair_windows([1, 2, 3, 4], 22) == [1, 3]
    assert hashing._pair_windows([4], 5) == [3]           # the last pair of a 5-wide dtype
    assert hashing._pair_windows([0, 2, 4, 6, 8], 22) == [0, 2, 4, 6, 8]
    assert len(hashing._pair_windows(list(range(1, 10)), 22)) == 5


WIDE_TEXT = st.text(alphabet=st.sampled_from("c01x\u00e9\u4e00\U0001F600"), max_size=9)


@settings(max_examples=80, deadline=None)
@given(pool=st.lists(WIDE_TEXT, min_size=1, max_size=40), picks=st.lists(
       st.integers(0, 10**6), min_size=2, max_size=400), width=st.integers(5, 24),
       prefix=st.sampled_from(["", "cluster_", "\u4e00"]), sample=st.sampled_from([1, 7, 4096]),
       odd=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 30),
                              st.sampled_from([1, 0x30, 0xFF, 0x100, 0xFFFF, 0x10000,
                                               0x10FFFF, 0xFFFFFFFF])), max_size=4),
       route=st.sampled_from(["word table", "word codes"]))
def test_packed_strings_equal_unique(pool, picks, width, prefix, sample, odd, route):
    """Wide ``U`` labels packed into one word from the characters where a sample's labels
    differ: codes and values equal np.unique's, and the counts equal those of the codes,
    whatever the sample missed: labels differing at a position the sample thought fixed,
    characters too wide for the packed bits (up to 0xFFFFFFFF, which NumPy holds),
    labels of one character or empty, a common prefix."""
    labels = [prefix + pool[i % len(pool)] for i in picks]
    arr = np.array(labels, dtype=f"<U{max(width, max(map(len, labels)))}")
    if arr.dtype.itemsize < 20:
        arr = arr.astype("<U5")
    chars = arr.view(np.uint32).reshape(arr.shape[0], -1)
    for row, col, value in odd:                          # labels no sample foresaw
        chars[row % arr.shape[0], col % chars.shape[1]] = value
    few = 0 if route == "word codes" else hashing.WORD_TABLE_MAX_K   # (else: many labels)
    with mock.patch.object(coding, "HASH_MIN_N", 0), \
            mock.patch.object(hashing, "SAMPLE", sample), \
            mock.patch.object(hashing, "WORD_TABLE_MAX_K", few), \
            mock.patch.object(hashing, "SAMPLED_MAX_K", few):
        lab = coding.check_labels(arr, "x")
        expected_values, expected_codes = np.unique(arr, return_inverse=True)
        assert lab.values.dtype == arr.dtype               # (raw characters: beyond
        assert (lab.values.view(np.uint32).tolist()        # 0x10FFFF, tolist() fails)
                == expected_values.view(np.uint32).tolist())
        assert lab.codes.tolist() == expected_codes.ravel().tolist()
        y = np.arange(arr.shape[0]) % 3
        other = coding.check_labels(arr[::-1].copy(), "z")
        expected, _ = _table_by_unique(y, arr, arr[::-1])
        assert (coding.dense_table(coding.check_labels(y, "y"),
                                      coding.check_labels(arr, "x"), other)
                == expected).all()


def test_packed_words_tell_labels_apart_exactly():
    """Where a packed word is not masked it identifies its label: equal words, equal labels;
    two or more pairs of characters are packed 16 or 8 bits a character and a wider
    character is masked."""
    rng = np.random.default_rng(6)
    base = np.asarray([f"c{i}" for i in range(5000)])                  # <U5: pairs 1 and 3
    arr = base[rng.integers(0, 5000, 40000)]
    arr[17] = "c\u4e00\u4e00\u4e00\u4e00"               # CJK: beyond 8 bits, within 16
    arr[18] = "c\U0001F600"                              # beyond 16 bits: masked
    sample = arr[::10].copy()
    words = hashing.one_word(arr, sample)
    word, masked = words(0, arr.shape[0])
    assert masked is not None and masked[18] and masked.sum() == 1
    keep = ~masked
    pairs = set(zip(word[keep].tolist(), arr[keep].tolist()))
    assert len(pairs) == len({w for w, _ in pairs}) == len({a for _, a in pairs})
    assert len(hashing._pair_windows([1, 2, 3, 4], 5)) == 2


def test_many_wide_strings_are_coded_by_word_codes(monkeypatch):
    """5,000 labels like "c4711" (``<U5``) and the same as ``<U22`` (what ``astype(str)``
    makes): packed into one word each and coded by word_codes, the same Prayatul matrix
    as the small ints they stand for; labels no sample foresaw are counted exactly."""
    rng = np.random.default_rng(10)
    g, p, q = (rng.integers(0, k, 50000) for k in (5000, 4000, 7))
    called = []
    real = hashing.word_codes
    monkeypatch.setattr(coding, "word_codes",
                        lambda *a, **kw: called.append(1) or real(*a, **kw))
    for make in (lambda x: np.asarray([f"c{i}" for i in range(5000)])[x],
                 lambda x: np.char.add("c", x.astype(str))):
        G, P = make(g), make(p)
        P[33] = "c\U0001F600z"                           # beyond 16 bits: masked
        P[35] = "d" + P[35][1:]                          # another first character
        p2 = p.copy()
        p2[33], p2[35] = 4000, 4001                       # two more labels
        called.clear()
        assert prayatul_matrix(G, P, q).matrix.tolist() == \
            prayatul_matrix(g, p2, q).matrix.tolist()
        assert len(called) == 2


@pytest.mark.parametrize("shape", ["periodic", "sorted", "rare"])
def test_word_codes_writing_every_stride_th_instance_misses_nothing(shape):
    """With many instances a label only every 8th writes in the first round: labels whose
    instances all sit between the writers (a period of 8, labels seen once) lose and
    are coded in the next rounds, exactly."""
    rng = np.random.default_rng(11)
    n = 1 << 16
    ids = rng.integers(-2**63, 2**63 - 1, 600, dtype=np.int64)
    if shape == "periodic":                              # writers see 1 label of 8
        arr = ids[np.arange(n) % 8]
    elif shape == "sorted":
        arr = np.sort(ids[rng.integers(0, 600, n)])
    else:                                                # 500 labels seen once
        arr = ids[rng.integers(0, 100, n)]
        arr[rng.choice(n, 500, replace=False)] = rng.integers(-2**63, 2**63 - 1, 500)
    assert max(1, min(8, n >> (10 + 1))) == 8            # the stride word_codes takes
    for decode in (None, lambda w: w.view(np.int64)):
        _assert_like_unique(arr, *hashing.word_codes(arr, _int_words(arr), 10, decode=decode))


@pytest.mark.parametrize("kind", ["zero", "multiple", "empty string"])
def test_word_codes_a_label_without_a_writer_is_not_read_from_a_free_slot(kind):
    """A label none of whose instances writes (only every stride-th does) reads a free slot
    back; a word whose key has its lower bits zero (the integer 0, the empty string, any
    multiple of 2**(64 - bits)) must not pass for a code there (found by a review: its
    instances were merged into another label)."""
    n = 9000
    y = np.arange(n) % 2
    if kind == "empty string":
        x = np.empty(n, "<U4")
        x[0::2] = np.array(["ab", "cd", "ef"])[np.arange(n // 2) % 3]
        x[1::2] = ""                                      # only at odd positions
    else:
        x = np.empty(n, np.int64)
        x[0::2] = np.array([10**12 + 1, 10**12 + 7, 3 * 10**12 + 5])[np.arange(n // 2) % 3]
        x[1::2] = 0 if kind == "zero" else 5 << 52       # a key with its lower bits zero
    lab = coding.check_labels(x, "x")
    _assert_like_unique(x, lab.codes, lab.values)
    from sklearn.metrics import adjusted_rand_score
    assert adjusted_rand_index(y, x) == pytest.approx(adjusted_rand_score(y, x), abs=1e-12)
    for bits in (4, 8, 11):                              # stride 8 for bits up to 9
        _assert_like_unique(x, *hashing.word_codes(x, hashing.one_word(x, x[::7].copy()), bits))


def test_word_codes_with_a_table_more_than_half_full():
    """More labels than half the slots: every block checks for free slots, exactly."""
    rng = np.random.default_rng(13)
    arr = rng.integers(-2**63, 2**63 - 1, 200, dtype=np.int64)[rng.integers(0, 200, 50000)]
    arr[::9] = 0
    for bits in (8, 9):
        _assert_like_unique(arr, *hashing.word_codes(arr, _int_words(arr), bits))


# ------------------------------- labels.py: its list of strategies, each taken
def test_the_labels_module_lists_real_strategies():
    # The module docstring is the map of how labels become codes: every function it
    # names must exist (a renamed strategy must be renamed there too).
    import re

    named = re.findall(r":(?:func|class|meth):`([^`]+)`", coding.__doc__)
    assert len(named) >= 10
    for name in named:
        obj = hashing if name.startswith("hashing.") else coding
        for part in name.removeprefix("hashing.").split("."):
            obj = getattr(obj, part)
        assert callable(obj) and obj.__doc__, name


def _route(lab):
    """Which strategy coded a Labels (read before its codes are asked for)."""
    if lab.word_table is not None:
        return "word table"
    lab.look_at_sample()
    if lab.word_table is not None:
        return "word table"
    if lab.grid is not None:
        return "grid"
    if lab.ints is not None and lab.lookup is None:
        lab.dense_form()
        return "grid" if lab.grid is not None else "small range"
    return "codes"


@pytest.mark.parametrize("route, make", [
    ("small range", lambda rng: rng.integers(-1, 9, 6000)),
    ("grid", lambda rng: rng.integers(0, 40, 6000) * 1_000_003 + 7),
    ("word table", lambda rng: np.array(["ab", "cd", "xyz", "q"])[rng.integers(0, 4, 6000)]),
    ("codes", lambda rng: np.array([f"w{i}" for i in range(3000)])[rng.integers(0, 3000, 6000)]),
    ("codes", lambda rng: rng.integers(0, 20, 6000) / 4),
])
def test_each_strategy_codes_like_unique(route, make):
    arr = make(np.random.default_rng(len(route)))
    lab = coding.check_labels(arr, "x")
    assert _route(lab) == route
    _assert_like_unique(arr, lab.codes, lab.values)


def _decoded(arr, plan):
    """The labels a plan of labels._choose stands for, one per instance."""
    how = plan[0]
    if how == "range":
        return arr                                        # (the labels themselves)
    if how == "grid":
        offsets, step, span, origin = plan[1:]
        assert int(offsets.max()) < span
        return origin + step * offsets.astype(np.int64)
    if how == "word table":
        return plan[1].arr                                # codes come while counting
    codes, values = plan[1:]
    return values[codes]


@pytest.mark.parametrize("how, make, known", [
    ("wait", lambda rng: rng.integers(-1, 9, 6000), False),
    ("range", lambda rng: rng.integers(-1, 9, 6000), True),
    ("grid", lambda rng: rng.integers(0, 40, 6000) * 1_000_003 + 7, False),
    ("grid", lambda rng: rng.integers(0, 40, 6000) * 1_000_003 + 7, True),
    ("word table", lambda rng: rng.integers(-2**40, 2**40, 30)[rng.integers(0, 30, 6000)], False),
    ("codes", lambda rng: rng.integers(-2**40, 2**40, 30)[rng.integers(0, 30, 6000)], True),
    ("codes", lambda rng: rng.integers(-2**40, 2**40, 6000), False),
    ("word table", lambda rng: np.array(["ab", "cd", "xyz", "q"])[rng.integers(0, 4, 6000)], False),
    ("codes", lambda rng: np.array(["ab", "cd", "xyz", "q"])[rng.integers(0, 4, 600)], False),
    ("codes", lambda rng: np.array([f"w{i}" for i in range(3000)])[rng.integers(0, 3000, 6000)],
     False),
])
def test_choose_takes_the_first_strategy_of_the_list_that_fits(how, make, known):
    """labels._choose, the one place that chooses: small range (or wait for the counting
    pass to find it), grid, word table (only while no pass has read the labels), then
    codes; every plan stands for exactly the labels it was given."""
    arr = make(np.random.default_rng(len(how) + known))
    plan = coding._choose(arr, *((int(arr.min()), int(arr.max())) if known else ()))
    assert plan[0] == how
    if how != "wait":
        assert (np.asarray(_decoded(arr, plan)) == arr).all()
    if how == "range":
        assert plan[1:] == (int(arr.min()), int(arr.max()) - int(arr.min()) + 1)
    if how == "codes":
        _assert_like_unique(arr, plan[1].astype(np.intp), plan[2])


def test_the_strategies_are_listed_in_the_order_choose_tries_them():
    # the module docstring's numbered list and _choose's steps name the same strategies
    import inspect
    import re

    listed = re.findall(r"^(\d)\. \*\*([^*]+)\*\*", coding.__doc__, flags=re.M)
    assert [name.lower() for _, name in listed] == [
        "small range", "grid", "word table from a sample", "hash rounds", "sort"]
    source = inspect.getsource(coding._choose)
    steps = [source.index(f'"{how}"') for how in ("wait", "grid", "word table", "codes")]
    assert steps == sorted(steps)
