"""Label handling and counting: factorisation, contingency table, exact pair counts."""
import pickle

import numpy as np
import pytest

from prayatul_edu import contingency_table, labels_from_table, prayatul_matrix
from prayatul_edu.labels import check_labels
from prayatul_edu.counting import comb2, group_sizes, joint_codes, joint_codes_of, pairs_within

from cases import random_labelings


@pytest.mark.parametrize("seed", range(30))
def test_contingency_is_sklearn_transposed(seed):
    from sklearn.metrics.cluster import contingency_matrix

    truth, pred = random_labelings(seed)
    ours = contingency_table(truth, pred)
    assert (np.asarray(ours) == contingency_matrix(truth, pred).T).all()
    assert ours.cluster_sizes.tolist() == np.bincount(np.unique(pred, return_inverse=True)[1]).tolist()
    assert int(ours.class_sizes.sum()) == len(truth) == ours.n


def test_contingency_edge_cases_match_sklearn():
    from sklearn.metrics.cluster import contingency_matrix

    cases = [
        ([0] * 7, [0] * 7),                                     # one cluster
        (list(range(9)), list(range(9))[::-1]),                 # all singletons
        (["a", "b", "a", "c"], ["x", "x", "y", "y"]),           # strings
        ([0, 0, 1, 1, 2], [-1, 0, 0, -1, 1]),                   # noise label
        ([10 ** 12, -5, 10 ** 12, 7], [3, 3, 4, 4]),            # huge / negative ints
    ]
    for truth, pred in cases:
        assert (np.asarray(contingency_table(truth, pred)) ==
                contingency_matrix(truth, pred).T).all()


def test_factorisation_keeps_distinct_types_apart():
    lab = check_labels([1, "1", 1, "1", 2.5], "x")
    assert lab.k == 3
    assert lab.codes[0] == lab.codes[2] != lab.codes[1] == lab.codes[3]


def test_factorisation_paths_agree():
    rng = np.random.default_rng(0)
    small = rng.integers(-3, 5, 1000)                  # counting-sort path
    wide = small.astype(np.int64) * 10 ** 9            # sort path
    as_str = small.astype(str)
    as_obj = np.empty(len(small), dtype=object)
    as_obj[:] = [("t", int(v)) for v in small]
    codes = [check_labels(x, "x").codes for x in (small, wide, as_str)]
    assert (codes[0] == codes[1]).all()
    same = (codes[0][:, None] == codes[0][None, :])
    for c in codes[1:] + [check_labels(list(map(tuple, [(v,) for v in small])), "x").codes]:
        assert ((c[:, None] == c[None, :]) == same).all()
    assert check_labels(as_obj, "x").k == len(set(small.tolist()))


def test_booleans_and_floats_are_labels():
    assert check_labels([True, False, True], "x").k == 2
    assert check_labels([0.5, 1.5, 0.5], "x").codes.tolist() == [0, 1, 0]


def test_comb2_is_exact_beyond_int64():
    assert comb2(10 ** 8) == 10 ** 8 * (10 ** 8 - 1) // 2
    big = 5 * 10 ** 9  # n (n - 1) > 2**63: must switch to Python ints
    assert comb2(np.array([big]))[0] == big * (big - 1) // 2
    assert pairs_within([3, 4, 1]) == 3 + 6 + 0


def test_joint_codes_both_paths():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 5, 200), rng.integers(0, 7, 200)
    small, k1 = joint_codes(a, 5, b, 7)
    big, k2 = joint_codes(a, 5 * 10 ** 6, b, 10 ** 6)  # forces the sort path
    assert k1 == k2 == len(set(zip(a.tolist(), b.tolist())))
    assert ((small[:, None] == small[None, :]) == (big[:, None] == big[None, :])).all()
    ga = check_labels(a, "a")
    gb = check_labels(b, "b")
    assert sorted(group_sizes((ga.codes, ga.k), (gb.codes, gb.k)).tolist()) == sorted(
        __import__("collections").Counter(zip(a.tolist(), b.tolist())).values())


def test_joint_codes_of_three_labellings_are_the_groups_of_their_triples():
    rng = np.random.default_rng(2)
    a, b, c = rng.integers(0, 4, 300), rng.integers(0, 3, 300), rng.integers(0, 5, 300)
    codes, k = joint_codes_of((a, 4), (b, 3), (c, 5))
    triples = list(zip(a.tolist(), b.tolist(), c.tolist()))
    assert k == len(set(triples)) and sorted(set(codes.tolist())) == list(range(k))
    # same code exactly when same triple
    same_code = codes[:, None] == codes[None, :]
    same_triple = np.array([[s == t for t in triples] for s in triples])
    assert (same_code == same_triple).all()


def test_labels_from_table_round_trip():
    table = np.array([[50, 100, 0], [10, 1000, 50], [100, 90, 150]])
    truth, pred = labels_from_table(table)
    assert len(truth) == 1550
    assert (contingency_table(truth, pred).counts == table).all()
    t2, p2 = labels_from_table([[1, 2]], clusters=["x"], classes=["a", "b"])
    assert t2.tolist() == ["a", "b", "b"] and p2.tolist() == ["x", "x", "x"]


def test_labels_from_table_rejects_bad_tables():
    with pytest.raises(ValueError, match="counts"):
        labels_from_table([[1, -2]])
    with pytest.raises(ValueError, match="counts: every cell must be a whole number"):
        labels_from_table([[1.5, 2]])
    with pytest.raises(ValueError, match="clusters: expected 1 labels"):
        labels_from_table([[1, 2]], clusters=["a", "b"])


def test_contingency_display_states_orientation():
    t = contingency_table(["a", "b", "b"], [1, 1, 2])
    assert "Rows are the clusters" in t.explain()
    assert "| clusters ↓ classes → |" in t._repr_markdown_()


# ------------------------------------------- fast paths agree with the plain ones
from prayatul_edu import counting  # noqa: E402
from prayatul_edu import contingency  # noqa: E402
from prayatul_edu.labels import Labels, _factorize, dense_table  # noqa: E402

LABEL_KINDS = {
    "small ints": lambda rng, n, k: rng.integers(0, k, n),
    "negative, gaps": lambda rng, n, k: rng.choice(np.arange(-3, 3 * k, 3), n),
    "int8": lambda rng, n, k: rng.integers(-k, k, n).astype(np.int8),
    "uint16": lambda rng, n, k: (rng.integers(0, k, n) + 60000).astype(np.uint16),
    "huge ints": lambda rng, n, k: rng.integers(0, k, n) * 10 ** 12 - 7,
    "strings": lambda rng, n, k: np.array([f"c{v}" for v in rng.integers(0, k, n)]),
    "bools": lambda rng, n, k: rng.integers(0, 2, n).astype(bool),
}


def _plain_table(truth, pred, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(contingency, "dense_table", lambda *labelings, **limits: None)
        return contingency_table(truth, pred)


@pytest.mark.parametrize("kind_t", sorted(LABEL_KINDS))
@pytest.mark.parametrize("kind_p", ["small ints", "negative, gaps", "huge ints", "strings"])
def test_dense_contingency_equals_the_plain_one(kind_t, kind_p, monkeypatch):
    rng = np.random.default_rng(len(kind_t) * 31 + len(kind_p))
    for n, k in ((2, 3), (57, 4), (3000, 11)):
        truth, pred = LABEL_KINDS[kind_t](rng, n, k), LABEL_KINDS[kind_p](rng, n, k + 2)
        fast, plain = contingency_table(truth, pred), _plain_table(truth, pred, monkeypatch)
        assert plain._dense is None                      # really the plain path
        for attr in ("cell_cluster", "cell_class", "cell_count", "cluster_sizes",
                     "class_sizes", "clusters", "classes", "counts"):
            a, b = getattr(fast, attr), getattr(plain, attr)
            assert a.dtype == b.dtype and a.tolist() == b.tolist(), attr
        assert fast.n == plain.n == n


def test_dense_counts_blocks_and_limits(monkeypatch):
    rng = np.random.default_rng(5)
    a, b, c = rng.integers(-2, 3, 1001), rng.integers(0, 4, 1001), rng.integers(7, 9, 1001)
    labs = [check_labels(x, "x") for x in (a, b, c)]
    expected = np.zeros((5, 4, 2), dtype=np.int64)
    np.add.at(expected, (a + 2, b, c - 7), 1)
    monkeypatch.setattr(counting, "_BLOCK", 64)          # many blocks, a short last one
    assert (dense_table(*labs) == expected).all()
    assert [lab.sizes().tolist() for lab in labs] == [
        np.bincount(a + 2).tolist(), np.bincount(b).tolist(), np.bincount(c - 7).tolist()]
    # too many cells for a dense table: None, and the plain path takes over
    from sklearn.metrics.cluster import contingency_matrix

    monkeypatch.setattr(counting, "DENSE_MIN_CELLS", 10)
    x, y = np.array([0, 4, 1, 4, 0, 2]), np.array([0, 0, 2, 1, 2, 0])   # spans 5 and 3
    assert dense_table(check_labels(x[:2], "x"), check_labels(y[:2], "y")) is not None
    assert dense_table(check_labels(x, "x"), check_labels(y, "y")) is None  # 15 > 10
    t = contingency_table(y, x)
    assert t._dense is None and (t.counts == contingency_matrix(y, x).T).all()


def test_lazy_integer_labels_equal_the_factorised_ones():
    rng = np.random.default_rng(8)
    for arr in (rng.integers(0, 6, 500), rng.choice([-1, 4, 9], 500),
                rng.integers(0, 200, 500).astype(np.uint8), np.arange(10)):
        lazy = check_labels(arr, "x")
        assert lazy.ints is arr                           # validated without factorising
        codes, values = _factorize(arr, "x")
        assert lazy.codes.tolist() == codes.tolist()
        assert lazy.values.tolist() == values.tolist() and lazy.values.dtype == arr.dtype
        assert lazy.sizes().tolist() == np.bincount(codes).tolist()
        assert lazy.k == len(set(arr.tolist())) and lazy.n == len(arr)
        assert not np.shares_memory(lazy.codes, arr)       # never the caller's array
    eager = Labels("x", codes=np.array([0, 1, 1]), values=np.array(["a", "b"]))
    assert eager.dense_form()[1:] == (0, 2) and eager.sizes().tolist() == [1, 2]
    with pytest.raises(TypeError, match="Labels"):
        Labels("x")


def test_string_factorisation_equals_np_unique():
    rng = np.random.default_rng(9)
    arr = np.array(["b", "a", "ä", "", "a b", "Z"])[rng.integers(0, 6, 400)]
    labels = check_labels(arr, "x")
    codes, values = labels.codes, labels.values
    ref_values, ref_codes = np.unique(arr, return_inverse=True)
    assert values.tolist() == ref_values.tolist() and codes.tolist() == ref_codes.tolist()


# ------------- integer labels whose range is found while counting (one pass)
from hypothesis import given, settings, strategies as st  # noqa: E402

_INT64 = np.iinfo(np.int64)


@st.composite
def _int_columns(draw):
    """Two or three integer labellings of one length, of various ranges and dtypes."""
    n = draw(st.integers(1, 300))
    columns = []
    for _ in range(draw(st.integers(2, 3))):
        kind = draw(st.sampled_from(["small", "negative", "late", "extreme", "uint8", "wide"]))
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        if kind == "small":
            col = rng.integers(0, draw(st.integers(1, 12)), n)
        elif kind == "negative":
            col = rng.integers(-5, 4, n)
        elif kind == "late":                              # the range widens block after block
            col = np.sort(rng.integers(-40, 60, n))[::draw(st.sampled_from([1, -1]))].copy()
        elif kind == "extreme":                           # int64's ends: never a dense range
            col = rng.choice(np.array([_INT64.min, _INT64.max, 0, -1]), n)
        elif kind == "uint8":
            col = rng.integers(200, 256, n).astype(np.uint8)
        else:                                             # large powers of two for the OR
            col = rng.choice(np.array([0, 2**40, 2**40 + 1]), n)
        columns.append(col)
    return columns


@settings(max_examples=150, deadline=None)
@given(_int_columns(), st.sampled_from([1, 7, 64]), st.sampled_from([None, 50, 1 << 15]))
def test_counting_while_finding_ranges_equals_counting_known_ranges(columns, block, max_cells):
    """One pass that finds each range while it counts gives the table (and the ranges,
    codes, values and sizes) of validating first and counting afterwards."""
    import unittest.mock

    found = [check_labels(col, f"x{i}", min_n=1) for i, col in enumerate(columns)]
    known = [check_labels(col, f"x{i}", min_n=1) for i, col in enumerate(columns)]
    assert not any(lab.range_known for lab in found)
    for lab in known:
        lab.dense_form()                                  # a min/max pass first
    with unittest.mock.patch.object(counting, "_BLOCK", block):
        table = dense_table(*found, max_cells=max_cells)
    expected = dense_table(*known, max_cells=max_cells)
    assert (table is None) == (expected is None)
    if table is not None:
        assert table.shape == expected.shape and (table == expected).all()
        assert int(table.sum()) == len(columns[0])
    for lab, ref, col in zip(found, known, columns):
        assert lab.dense_form()[1:] == ref.dense_form()[1:]
        assert lab.codes.tolist() == ref.codes.tolist()
        assert lab.values.tolist() == sorted(set(col.tolist())) and lab.values.dtype == col.dtype
        assert lab.sizes().tolist() == np.unique(col, return_counts=True)[1].tolist()


def test_range_found_while_counting_is_exact():
    """Labels 3..9 give the quick power-of-two range 0..15; the table is cut back to 3..9."""
    a = np.array([3, 9, 4, 4, 9])
    b = np.array([-2, 0, 0, 1, -2])
    la, lb = check_labels(a, "a"), check_labels(b, "b")
    table = dense_table(la, lb)
    assert (la.lo, la.span, lb.lo, lb.span) == (3, 7, -2, 4)
    assert table.shape == (7, 4) and table[0, 0] == 1 and table[6].tolist() == [1, 0, 1, 0]
    assert la.sizes().tolist() == [1, 2, 2] and lb.sizes().tolist() == [2, 2, 1]


def test_strings_differing_only_by_trailing_nul_stay_distinct():
    # np.asarray(["a", "a\x00"]) makes both "a"; labels that differ must never merge.
    truth = ["", "\x00", "", "\x00", "a", "a\x00"]
    pred = [0, 1, 0, 1, 2, 3]
    table = contingency_table(truth, pred)
    assert table.shape == (4, 4)
    assert sorted(np.asarray(table).max(axis=1).tolist()) == [1, 1, 2, 2]
    assert prayatul_matrix(truth, pred, pred).br == len(truth) * (len(truth) - 1) // 2


@pytest.mark.parametrize("dtype", ["<u8", ">u8"])
def test_uint64_labels_above_int64_in_either_byte_order(dtype):
    labels = np.array([2**64 - 1, 2**64 - 2, 2**63, 2**64 - 1], dtype=dtype)
    table = contingency_table(labels, [0, 1, 1, 0])
    assert table.classes.tolist() == [2**63, 2**64 - 2, 2**64 - 1]
    assert np.asarray(table).tolist() == [[0, 0, 2], [1, 1, 0]]


def test_a_pickled_table_holds_codes_not_the_callers_labels():
    # labels counted through a word table keep it (and the caller's array) until coded;
    # a pickle codes them first, so it holds one byte a label, not eight
    rng = np.random.default_rng(3)
    ids = rng.integers(-2**63, 2**63 - 1, 10, dtype=np.int64)
    n = 100_000
    table = contingency_table(ids[rng.integers(0, 10, n)], ids[rng.integers(0, 5, n)])
    blob = pickle.dumps(table)
    assert len(blob) < 3 * n
    back = pickle.loads(blob)
    assert np.array_equal(back.counts, table.counts)
    assert back.classes.tolist() == np.sort(ids).tolist()


# ----------------------------------------------- object arrays: one dict lookup a label
def _objects(items) -> np.ndarray:
    arr = np.empty(len(items), dtype=object)
    arr[:] = items
    return arr


def _dict_codes(items):
    """The definition: a label's code is the number of distinct labels (as dict keys)
    seen before its first instance; then ranked by the sorted values when they sort."""
    seen: dict = {}
    first = [seen.setdefault(v, len(seen)) for v in items]
    keys = list(seen)
    try:
        order = sorted(range(len(keys)), key=lambda j: keys[j])
    except TypeError:
        return first, keys
    rank = {j: r for r, j in enumerate(order)}
    return [rank[c] for c in first], [keys[j] for j in order]


_OBJECT_LABEL = st.one_of(st.integers(-3, 3), st.sampled_from([1.0, 0.0, 2.5, True, False]),
                          st.sampled_from(["a", "b", "1", "", "é"]),
                          st.tuples(st.integers(0, 2), st.sampled_from(["x", "y"])))


@settings(max_examples=300, deadline=None)
@given(st.lists(_OBJECT_LABEL, min_size=2, max_size=60))
def test_object_labels_match_the_dict_definition(items):
    codes, values = _dict_codes(items)
    lab = check_labels(_objects(items), "x")
    assert lab.codes.tolist() == codes
    assert lab.values.tolist() == values
    assert [type(v) for v in lab.values.tolist()] == [type(v) for v in values]


def test_object_labels_equal_in_python_are_one_label():
    lab = check_labels(_objects([1, 1.0, True, "1", (1,), 0, False]), "x")
    assert lab.k == 4                                  # 1 == 1.0 == True; 0 == False
    assert lab.codes[0] == lab.codes[1] == lab.codes[2] != lab.codes[3]
    assert lab.codes[5] == lab.codes[6]


@pytest.mark.parametrize("items, error, message", [
    ([0, "a", None, float("nan"), [1]], ValueError, "x: labels must not be None "
                                                    r"\(found None at position 2\)"),
    ([0, "a", float("nan"), None], ValueError, r"x: labels must not be NaN \(found NaN at "
                                               r"position 2\)"),
    ([0, np.float64("nan"), "a"], ValueError, r"x: labels must not be NaN \(found NaN at "
                                              r"position 1\)"),
    (["a", "b", {"c": 1}, None], TypeError, "x: labels must be hashable, but position 2 "
                                            "holds a dict"),
    (["a", ("b", [1]), None], TypeError, "x: labels must be hashable, but position 1 holds "
                                         "a tuple"),
])
def test_object_labels_report_the_first_bad_position(items, error, message):
    with pytest.raises(error, match="^" + message):
        check_labels(_objects(items), "x")


def test_object_labels_at_scale_agree_with_fixed_width_strings():
    rng = np.random.default_rng(5)
    names = np.array([f"c{i}" for i in range(3000)], dtype=object)
    x = rng.integers(0, 3000, 200_000)
    obj, fixed = check_labels(names[x], "x"), check_labels(names[x].astype(str), "x")
    assert (obj.codes == fixed.codes).all()
    assert obj.values.tolist() == fixed.values.tolist()


def test_lists_of_strings_keep_trailing_nul_apart():
    # np.asarray drops a trailing NUL: such lists stay Python objects, "a\x00" != "a"
    lab = check_labels(["a", "a\x00", "b", "a"] * 50, "x")
    assert lab.k == 3
    assert check_labels(["a\x00b", "a", "a\x00b"], "x").k == 2    # a NUL inside is kept
    assert check_labels(["ab", "a", "ab"] * 10, "x").values.dtype.kind == "U"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="ab\x00é", max_size=3), st.integers(0, 2)),
                min_size=2, max_size=40).filter(lambda xs: isinstance(xs[0], str)))
def test_a_list_of_strings_is_coded_as_its_array_would_be(items):
    # a list starting with a str is coded as it is; the definition is the array's coding
    # (np.asarray, or an object array where np.asarray would change a label)
    if all(isinstance(v, str) and not v.endswith("\x00") for v in items):
        reference = check_labels(np.asarray(items), "x")
    else:
        reference = check_labels(_objects(items), "x")
    lab = check_labels(items, "x")
    assert lab.codes.tolist() == reference.codes.tolist()
    assert lab.values.tolist() == reference.values.tolist()
    assert lab.values.dtype.kind == reference.values.dtype.kind


def test_a_list_of_strings_at_scale():
    rng = np.random.default_rng(8)
    names = [f"cluster {i}" for i in range(5000)]
    items = [names[j] for j in rng.integers(0, 5000, 100_000)]
    lab, reference = check_labels(items, "x"), check_labels(np.asarray(items), "x")
    assert (lab.codes == reference.codes).all()
    assert lab.values.dtype == reference.values.dtype
    assert (lab.values == reference.values).all()


def test_a_list_subclass_is_read_as_a_sequence():
    class Labelled(list):                      # e.g. a list that reports its own length
        def __len__(self):
            return super().__len__()
    items = ["b", "a", "b", "c"] * 300
    lab = check_labels(Labelled(items), "x")
    assert lab.codes.tolist() == check_labels(items, "x").codes.tolist()
    assert lab.values.tolist() == ["a", "b", "c"]


def test_str_subclasses_in_a_list_stay_themselves():
    import enum

    class Color(str, enum.Enum):               # str(Color.RED) is not "red"
        RED = "red"
        BLUE = "blue"
    lab = check_labels([Color.RED, Color.BLUE, Color.RED], "x")
    assert lab.values.tolist() == [Color.BLUE, Color.RED] and lab.codes.tolist() == [1, 0, 1]
    mixed = check_labels(["red", Color.RED, Color.BLUE, "blue"], "x")
    assert mixed.k == 2                        # a (str, Enum) member equals its value
    from prayatul_edu.matching import raw_accuracy
    R, B = Color.RED, Color.BLUE
    assert float(raw_accuracy([R, R, B, B], [B, R, R, B])) == 0.5


def test_an_error_raised_by_a_label_does_not_hide_an_earlier_none():
    class Touchy:
        def __hash__(self):
            raise ValueError("do not hash me")
    with pytest.raises(ValueError, match=r"^x: labels must not be None \(found None at "
                                         r"position 1\)"):
        check_labels(["a", None, Touchy()], "x")
    with pytest.raises(ValueError, match="do not hash me"):
        check_labels(["a", Touchy()], "x")
