"""The hash-table factorisation gives exactly np.unique's codes and values.

Whatever the hash does: tiny tables force collisions (several rounds, and the
sort of a stubborn remainder); negative, huge and unsigned integers, empty and
non-ASCII strings, bytes, and dtypes wider than the labels are all checked.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import _validation, adjusted_rand_index, prayatul_matrix
from prayatul_edu.hashing import IntWords, StringWords, hash_factorize, table_bits


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


@pytest.mark.parametrize("kind", ["huge", "strings", "bytes", "unicode"])
def test_measures_use_the_table_and_agree_with_small_ints(monkeypatch, kind):
    from sklearn.metrics import adjusted_rand_score

    monkeypatch.setattr(_validation, "HASH_MIN_N", 0)
    rng = np.random.default_rng(5)
    g, p, q = (rng.integers(0, k, 3000) for k in (7, 40, 300))
    as_kind = {"huge": lambda x: x * 10**15 - 2**62,
               "strings": lambda x: np.array([f"c{v}" if v else "" for v in x]),
               "bytes": lambda x: np.array([b"b%d" % v for v in x]),
               "unicode": lambda x: np.array([f"é{v}ü" * (1 + v % 3) for v in x])}[kind]
    G, P, Q = as_kind(g), as_kind(p), as_kind(q)
    lab = _validation.check_labels(P, "p")
    _assert_like_unique(P, lab.codes, lab.values)
    assert prayatul_matrix(G, P, Q).matrix.tolist() == prayatul_matrix(g, p, q).matrix.tolist()
    assert adjusted_rand_index(G, P) == pytest.approx(adjusted_rand_score(g, p), abs=1e-12)
