"""Many labels: the sorting fast paths give the same exact counts as the plain code.

Every path is reached on purpose: a dense table (few labels), one sort of a
32-bit cell index, one sort of a 64-bit index (more than 2**32 cells), and for
the pair sums a 64-bit index cut into pieces sorted as 32-bit, with
small-range integers, strings, huge and negative integers, and a noise label -1.
"""
import math
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import (adjusted_rand_index, contingency_table, mutual_information,
                          normalized_mutual_information, prayatul_matrix)
from prayatul_edu import contingency, counting
from prayatul_edu import prayatul as prayatul_module
from prayatul_edu.labels import check_partitions, dense_table
from prayatul_edu.contingency import table_of
from prayatul_edu.counting import (ContingencyTable, group_sizes, joint_counts, joint_key,
                                   joint_pairs_within, pairs_within)


def _labels(rng, n, k, kind):
    """n labels with about k distinct values, of the given kind."""
    return _as_kind(rng.integers(0, k, n), kind)


def _as_kind(codes, kind):
    """Integer codes 0..k-1 turned into labels of the given kind, one per code."""
    if kind == "ints":
        return codes
    if kind == "noise":
        return codes - 1                                 # -1 .. k - 2
    if kind == "spread":                                 # small range, but gaps in it
        return codes * 2 + 5
    if kind == "huge":                                   # not a small range: factorised
        return codes * 10**12 - 5 * 10**11
    if kind == "strings":
        return np.array([f"c{c}" for c in codes])
    raise ValueError(kind)


def _cells(table: ContingencyTable) -> dict:
    """The non-empty cells as {(cluster label, class label): count}."""
    return {(table.clusters[i].item(), table.classes[j].item()): int(c)
            for i, j, c in zip(table.cell_cluster, table.cell_class, table.cell_count)}


KINDS = ["ints", "noise", "spread", "huge", "strings"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("k", [1, 3, 40, 700, 5000])
def test_contingency_fast_paths_equal_plain_and_sklearn(kind, k):
    from sklearn.metrics.cluster import contingency_matrix

    rng = np.random.default_rng(k)
    n = 3000
    truth, pred = _labels(rng, n, k, kind), _labels(rng, n, max(1, k // 3), "ints")
    t, p = check_partitions(truth=truth, pred=pred)
    fast = table_of(t, p)
    plain = table_of(*check_partitions(truth=truth, pred=pred), plain=True)
    assert _cells(fast) == _cells(plain)
    assert fast.cluster_sizes.tolist() == plain.cluster_sizes.tolist()
    assert fast.class_sizes.tolist() == plain.class_sizes.tolist()
    assert (np.asarray(fast) == contingency_matrix(truth, pred).T).all()


@pytest.mark.parametrize("kind", KINDS)
def test_sorted_path_with_64_bit_cells(kind):
    # 100,000 distinct labels against about 70,000: more than 2**32 cells, so the
    # cell index is sorted as int64
    from sklearn.metrics import adjusted_rand_score, mutual_info_score

    rng = np.random.default_rng(7)
    n = 100_000
    truth = _as_kind(rng.permutation(n), kind)
    pred = truth.copy()
    moved = rng.random(n) < 0.3                          # 30 % take another instance's label
    pred[moved] = truth[rng.integers(0, n, int(moved.sum()))]
    g, p = check_partitions(truth=truth, pred=pred)
    assert g.dense_form()[2] * p.dense_form()[2] > 2**32
    fast = table_of(g, p)
    assert _cells(fast) == _cells(table_of(g, p, plain=True))
    assert abs(adjusted_rand_index(truth, pred) - adjusted_rand_score(truth, pred)) < 1e-12
    assert abs(mutual_information(truth, pred, base=math.e) - mutual_info_score(truth, pred)) < 1e-12


@pytest.mark.parametrize("kind", ["ints", "huge"])
def test_prayatul_with_more_than_2_to_the_32_cells_per_pair(kind):
    # about 100,000 labels in each labelling: the pair sums cut the int64 cell index
    # into pieces of a 32-bit range; pred and alt agree with the truth on most pairs
    from sklearn.metrics.cluster import pair_confusion_matrix

    rng = np.random.default_rng(5)
    n = 150_000
    truth = _as_kind(rng.integers(0, 100_000, n), kind)
    pred, alt = truth.copy(), _as_kind(rng.integers(0, 100_000, n), kind)
    moved = rng.random(n) < 0.3
    pred[moved] = truth[rng.integers(0, n, int(moved.sum()))]
    labs = check_partitions(truth=truth, primary=pred, alternative=alt)
    assert all(labs[i].dense_form()[2] * labs[j].dense_form()[2] > 2**32
               for i, j in ((0, 1), (0, 2), (1, 2)))
    plain = prayatul_module._from_group_sizes(*labs)
    assert prayatul_module._from_pair_sums(*labs) == plain
    m = prayatul_matrix(truth, pred, alt)
    assert (m.br, m.rw, m.wr, m.bw) == plain
    c = pair_confusion_matrix(truth, pred) // 2
    assert m.br + m.rw == int(c[0, 0] + c[1, 1])


@pytest.mark.parametrize("k", [2, 30, 300, 3000, 60_000])
@pytest.mark.parametrize("kind", ["ints", "huge", "strings"])
def test_joint_pairs_within_equals_group_sizes(k, kind):
    rng = np.random.default_rng(k + 1)
    n = 30_000
    arrays = {"a": _labels(rng, n, k, kind), "b": _labels(rng, n, k, "noise")}
    la, lb = check_partitions(**arrays)
    expected = pairs_within(group_sizes((la.codes, la.k), (lb.codes, lb.k)))
    a, b = (lab.dense_form() for lab in check_partitions(**arrays))
    assert joint_pairs_within(a, b) == expected
    cell, count = joint_counts(a, b)
    assert int(count.sum()) == n
    assert pairs_within(count) == expected
    assert (np.diff(cell) > 0).all()                      # one entry per cell, in order
    key, cells = joint_key(a, b)
    assert key.min() >= 0 and key.max() < cells


def test_joint_key_wraps_huge_offsets_exactly():
    # small range far from 0: the offset lo_a * span_b + lo_b does not fit int64
    base = 2**62
    a = np.array([base, base + 1, base + 2, base + 1], dtype=np.int64)
    b = np.array([-base, -base, -base + 3, -base + 3], dtype=np.int64)
    la, lb = check_partitions(a=a, b=b)
    key, cells = joint_key(la.dense_form(), lb.dense_form())
    assert cells == 3 * 4
    assert key.tolist() == [0 * 4 + 0, 1 * 4 + 0, 2 * 4 + 3, 1 * 4 + 3]


@pytest.mark.parametrize("k", [5, 40, 400, 4000, 40_000])
@pytest.mark.parametrize("kind", ["ints", "noise", "huge", "strings"])
def test_prayatul_pair_sums_equal_plain_and_sklearn(k, kind):
    from sklearn.metrics.cluster import pair_confusion_matrix

    rng = np.random.default_rng(k)
    n = 20_000
    g, p, q = (_labels(rng, n, k, kind) for _ in range(3))
    labs = check_partitions(truth=g, primary=p, alternative=q)
    plain = prayatul_module._from_group_sizes(*labs)
    assert prayatul_module._from_pair_sums(*labs) == plain
    m = prayatul_matrix(g, p, q)
    assert (m.br, m.rw, m.wr, m.bw) == plain
    assert all(type(v) is int for v in (m.br, m.rw, m.wr, m.bw))
    # the primary's right pairs (BR + RW) are the diagonal of scikit-learn's pair confusion
    c = pair_confusion_matrix(g, p) // 2
    assert m.br + m.rw == int(c[0, 0] + c[1, 1])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_path_agrees_on_random_labels(data):
    n = data.draw(st.integers(2, 60))
    ks = [data.draw(st.integers(1, n)) for _ in range(3)]
    arrays = [np.array(data.draw(st.lists(st.integers(-3, k), min_size=n, max_size=n)))
              for k in ks]
    labs = check_partitions(truth=arrays[0], primary=arrays[1], alternative=arrays[2])
    expected = prayatul_module._algorithm1(*(lab.codes for lab in labs))
    assert prayatul_module._from_group_sizes(*labs) == expected
    assert prayatul_module._from_pair_sums(*labs) == expected
    dense = prayatul_module._from_dense_table(*labs)
    assert dense is None or dense == expected
    plain = _cells(table_of(labs[0], labs[1], plain=True))
    assert _cells(table_of(labs[0], labs[1])) == plain
    # force the sorting paths on these small inputs
    with pytest.MonkeyPatch.context() as m:
        m.setattr(counting, "DENSE_MIN_CELLS", 1)
        m.setattr(contingency, "_DENSE_TABLE_CELLS", 0)
        fresh = check_partitions(truth=arrays[0], primary=arrays[1], alternative=arrays[2])
        assert prayatul_module._from_pair_sums(*fresh) == expected
        assert _cells(table_of(fresh[0], fresh[1])) == plain


@pytest.mark.parametrize("k", [10, 1000, 50_000])
def test_strings_and_huge_ints_give_the_numbers_of_small_ints(k):
    rng = np.random.default_rng(3)
    n = 50_000
    g, p = rng.integers(0, k, n), rng.integers(0, k, n)
    small = adjusted_rand_index(g, p), normalized_mutual_information(g, p)
    for f in (lambda x: x * 10**12 - 7, lambda x: np.char.add("s", x.astype(str))):
        assert adjusted_rand_index(f(g), f(p)) == small[0]
        assert normalized_mutual_information(f(g), f(p)) == pytest.approx(small[1], abs=1e-15)
    table = contingency_table(g, p)
    assert int(table.cell_count.sum()) == n


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("k", [3, 2000])
def test_value_cells_of_parts_merge_into_the_whole(kind, k):
    from collections import Counter

    rng = np.random.default_rng(k)
    n = 6000
    g, p = _labels(rng, n, k, kind), _labels(rng, n, 5, "noise")
    expected = Counter(zip(g.tolist(), p.tolist()))

    def as_counter(values, total):
        return Counter(dict(zip(zip(values["g"].tolist(), values["p"].tolist()),
                                total.tolist())))

    assert as_counter(*contingency.value_cells({"g": g, "p": p})) == expected
    cuts = [0, 1, 2500, 2501, n]
    parts = [contingency.value_cells({"g": g[a:b], "p": p[a:b]}) for a, b in zip(cuts, cuts[1:])]
    merged = contingency.value_cells(
        {name: np.concatenate([part[0][name] for part in parts]) for name in ("g", "p")},
        np.concatenate([part[1] for part in parts]))
    assert as_counter(*merged) == expected
    assert merged[1].dtype == np.int64


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint16, np.int8])
def test_blocked_min_max_finds_extremes_in_any_block(dtype):
    from prayatul_edu import labels as coding

    rng = np.random.default_rng(7)
    n = 5 * coding._MIN_MAX_BLOCK + 123              # read block by block
    info = np.iinfo(dtype)
    for where in (0, coding._MIN_MAX_BLOCK - 1, coding._MIN_MAX_BLOCK, n - 1):
        arr = rng.integers(max(info.min, -50), min(info.max, 50), n).astype(dtype)
        arr[where] = info.min
        arr[(where + n // 2) % n] = info.max
        assert coding._min_max(arr) == (int(arr.min()), int(arr.max())) == (info.min, info.max)
    labs = check_partitions(truth=arr, pred=arr)          # huge span: factorised, same k
    assert labs[0].k == np.unique(arr).shape[0]


def _owned(*labs):
    """The labels as if their arrays were the package's own (as a list's are), not the
    caller's: a table then lists its cells only when they are read."""
    for lab in labs:
        lab.borrowed = None
    return labs


def test_sorted_cells_counted_and_placed_only_when_read_and_then_equal_the_plain_path():
    rng = np.random.default_rng(11)
    truth, pred = rng.integers(0, 900, 4000) * 7 - 3, rng.integers(0, 800, 4000)
    t, p = _owned(*check_partitions(truth=truth, pred=pred))
    fast, plain = table_of(t, p), table_of(t, p, plain=True)
    assert fast._cells_unread                              # the sorted path, nothing counted yet
    from prayatul_edu.pair_counting import _pair_confusion
    assert _pair_confusion(fast).tp == pairs_within(plain.cell_count) > 0
    assert fast._cells_unread                              # pair counts did not need the cells
    assert sorted(fast.cell_count.tolist()) == sorted(plain.cell_count.tolist())
    assert not fast._cells_unread and fast._sorted_cells is not None   # counted, not placed
    assert _cells(fast) == _cells(plain)
    assert fast._sorted_cells is None


def _pairs_in_runs_by_counting(values) -> int:
    return sum(c * (c - 1) // 2 for c in np.unique(values, return_counts=True)[1].tolist())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=300), st.sampled_from([1, 2, 12]))
def test_pairs_in_runs_equal_pairs_of_equal_values(values, rounds):
    # few rounds force the run lengths to be read instead (long runs)
    ordered = np.sort(np.array(values, dtype=np.int64))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(counting, "_RUN_ROUNDS", rounds)
        assert counting._pairs_in_runs(ordered) == _pairs_in_runs_by_counting(ordered)
        assert counting._pairs_in_runs(ordered.astype(np.uint32)) == \
            _pairs_in_runs_by_counting(ordered)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=400),
       st.sampled_from([1, 2, 16, 64, 128, 200]),
       st.sampled_from([0, 1, 3, 8]), st.sampled_from([1, 2, 12]))
def test_pairs_of_equal_in_pieces_equal_pairs_of_equal_values(values, narrow_range, halvings,
                                                              rounds):
    # a small range per piece forces many cuts, groups of equal values across pieces, and
    # (few halvings) pieces sorted as int64
    key = np.array(values, dtype=np.int64)
    expected = _pairs_in_runs_by_counting(key)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(counting, "_NARROW_RANGE", narrow_range)
        m.setattr(counting, "_MAX_HALVINGS", halvings)
        m.setattr(counting, "_RUN_ROUNDS", rounds)
        n = key.shape[0]
        got = counting._pairs_of_equal(key, 301, np.empty(n, np.uint32), np.empty(n, bool))
    assert got == expected
    assert sorted(key.tolist()) == sorted(values)          # cut in place, values kept


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=400),
       st.sampled_from([1, 2, 16, 64, 128, 200]), st.sampled_from([0, 1, 3, 8]))
def test_sorting_in_pieces_equals_one_sort(values, narrow_range, halvings):
    # the same forced cuts, values equal to a cut in several pieces, pieces sorted as int64
    key = np.array(values, dtype=np.int64)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(counting, "_NARROW_RANGE", narrow_range)
        m.setattr(counting, "_MAX_HALVINGS", halvings)
        counting._sort_in_pieces(key, 301, np.empty(key.shape[0], np.uint32))
    assert key.tolist() == sorted(values)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_narrow_joint_key_equals_the_int64_one(data):
    # uint32 arithmetic wraps modulo 2**32: exact when every cell index is below 2**32
    n = data.draw(st.integers(2, 50))
    los = [data.draw(st.integers(-2**62, 2**62)) for _ in range(2)]
    spans = [data.draw(st.integers(1, 60_000)) for _ in range(2)]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    arrays = [lo + rng.integers(0, span, n) for lo, span in zip(los, spans)]
    for arr, lo, span in zip(arrays, los, spans):        # both ends occur: the span is exact
        arr[0], arr[-1] = lo, lo + span - 1
    a, b = (lab.dense_form() for lab in check_partitions(a=arrays[0], b=arrays[1]))
    wide, cells = joint_key(a, b)
    narrow, same_cells = joint_key(a, b, narrow=True)
    assert cells == same_cells
    assert narrow.dtype == (np.uint32 if cells <= 2**32 else np.int64)
    assert narrow.astype(np.int64).tolist() == wide.tolist()
    buffer = np.full(n + 3, -1, dtype=np.int64)
    into, _ = joint_key(a, b, narrow=True, out=buffer)
    assert np.shares_memory(into, buffer) and into.tolist() == narrow.tolist()


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_pair_measures_agree_with_sklearn_for_any_number_of_labels(data):
    # k from 1 to N, the sorted path and the dense one (an index beyond 2**32 cells needs
    # more labels than N <= 3000 gives: test_pairs_in_unread_cells_... forces its pieces)
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    n = data.draw(st.integers(2, 3000))
    ks = [data.draw(st.integers(1, n)) for _ in range(2)]
    scale = data.draw(st.sampled_from([1, 10**5, 10**9]))   # 10**9: far apart, coded
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    truth, pred = (rng.integers(0, k, n) * scale for k in ks)
    assert adjusted_rand_index(truth, pred) == pytest.approx(adjusted_rand_score(truth, pred),
                                                             abs=1e-12)
    assert normalized_mutual_information(truth, pred, average="arithmetic") == pytest.approx(
        normalized_mutual_info_score(truth, pred), abs=1e-12)
    t, p = check_partitions(truth=truth, pred=pred)
    plain = table_of(*check_partitions(truth=truth, pred=pred), plain=True)
    assert table_of(t, p).pairs_in_cells() == pairs_within(plain.cell_count)


def test_dense_tables_stay_small_enough_to_beat_a_sort():
    assert counting.dense_cell_limit(10) == counting.DENSE_MIN_CELLS
    assert counting.dense_cell_limit(300_000) == 300_000              # N cells, in cache
    assert counting.dense_cell_limit(10**6) == counting.DENSE_CACHE_CELLS < 10**6
    assert counting.dense_cell_limit(10**7) == 5 * 10**6               # N / 2 beyond
    assert counting.cells_fit_dense(10**6, 1000 * 500)
    assert not counting.cells_fit_dense(10**6, 1000 * 1000)


def test_tables_beyond_the_cache_are_still_dense_where_no_sort_replaces_them(monkeypatch):
    # a table of up to N cells stays O(N) (the per-instance rows need it); only the pair
    # sums and the contingency table sort instead once it outgrows the cache
    monkeypatch.setattr(counting, "DENSE_MIN_CELLS", 1)
    monkeypatch.setattr(counting, "DENSE_CACHE_CELLS", 100)
    monkeypatch.setattr(contingency, "_DENSE_TABLE_CELLS", 0)      # no table read cell by cell
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 30, 1000), rng.integers(0, 30, 1000)      # 900 cells > 1000 / 2
    la, lb = check_partitions(a=a, b=b)
    assert dense_table(la, lb) is not None
    assert not counting.cells_fit_dense(1000, 900)
    expected = pairs_within(group_sizes(*((lab.codes, lab.k) for lab in check_partitions(a=a, b=b))))
    assert joint_pairs_within(*(lab.dense_form() for lab in check_partitions(a=a, b=b))) == expected
    table = table_of(*_owned(*check_partitions(truth=a, pred=b)))
    assert table._cells_unread and table.pairs_in_cells() == expected


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_pair_tables_from_one_pass_equal_each_pair_alone(data):
    n = data.draw(st.integers(2, 400))
    spans = [data.draw(st.integers(1, 60)) for _ in range(3)]
    lows = [data.draw(st.integers(-5, 5)) for _ in range(3)]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    arrays = [rng.integers(lo, lo + span, n) for lo, span in zip(lows, spans)]
    block = data.draw(st.sampled_from([1, 7, 1 << 15]))
    monkey = counting._BLOCK
    counting._BLOCK = block
    try:
        labs = check_partitions(a=arrays[0], b=arrays[1], c=arrays[2])
        tables = counting.dense_pair_counts(*(lab.dense_form() for lab in labs))
        for (i, j), table in tables.items():
            fresh = check_partitions(a=arrays[i], b=arrays[j])  # (codes change dense_form)
            assert table.tolist() == dense_table(*fresh).tolist()
            assert pairs_within(table) == pairs_within(group_sizes(*((f.codes, f.k) for f in fresh)))
        for lab, arr in zip(labs, arrays):                 # margins adopted: the group sizes
            assert lab.sizes().tolist() == np.unique(arr, return_counts=True)[1].tolist()
    finally:
        counting._BLOCK = monkey


def _pairs_by_definition(truth, pred) -> tuple[int, int, int, int]:
    """(TP, FP, FN, TN) over the pairs a < b one by one, as the lecture defines them."""
    truth, pred = np.asarray(truth), np.asarray(pred)
    upper = np.triu(np.ones((truth.shape[0],) * 2, dtype=bool), k=1)
    same_class = (truth[:, None] == truth[None, :])[upper]
    same_cluster = (pred[:, None] == pred[None, :])[upper]
    return tuple(int(np.count_nonzero(c)) for c in (same_class & same_cluster,
                                                     ~same_class & same_cluster,
                                                     same_class & ~same_cluster,
                                                     ~same_class & ~same_cluster))


def _comb2_of_cells(truth, pred) -> int:
    """sum over the cells of C(n_ij, 2), each cell counted with a Python Counter."""
    from collections import Counter
    return sum(c * (c - 1) // 2 for c in Counter(zip(truth.tolist(), pred.tolist())).values())


class _Calls:
    """Wraps a function of :mod:`counting` and counts its calls."""

    def __init__(self, monkeypatch, name):
        self.calls, inner = 0, getattr(counting, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return inner(*args, **kwargs)

        monkeypatch.setattr(counting, name, counted)


@pytest.mark.parametrize("kind", ["ints", "noise", "huge", "strings"])
def test_pair_confusion_beyond_2_to_the_32_cells_from_32_bit_pieces(kind, monkeypatch):
    # about 70,000 labels a side: more than 2**32 cells; the pairs in the cells come from
    # the cell index cut into 32-bit pieces, and the cells are listed only when read
    from sklearn.metrics import adjusted_rand_score
    from sklearn.metrics.cluster import pair_confusion_matrix
    from prayatul_edu import pair_confusion
    from prayatul_edu.pair_counting import _pair_confusion

    rng = np.random.default_rng(32)
    n = 200_000
    truth = _as_kind(rng.integers(0, 70_000, n), kind)
    pred = truth.copy()
    moved = rng.random(n) < 0.3                          # 30 % take another instance's label
    pred[moved] = _as_kind(rng.integers(0, 70_000, int(moved.sum())), kind)
    t, p = _owned(*check_partitions(truth=truth, pred=pred))
    assert t.dense_form()[2] * p.dense_form()[2] > 2**32
    pairs, pieces = _Calls(monkeypatch, "_pairs_of_equal"), _Calls(monkeypatch, "_sorted_pieces")
    table = table_of(t, p)
    pc = _pair_confusion(table)
    assert (pairs.calls, pieces.calls) == (1, 1) and table._cells_unread
    expected_tp = _comb2_of_cells(truth, pred)
    assert pc.tp == expected_tp > 10**4
    assert (pc.to_sklearn() == pair_confusion_matrix(truth, pred)).all()
    plain = _pair_confusion(table_of(*check_partitions(truth=truth, pred=pred), plain=True))
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == (plain.tp, plain.fp, plain.fn, plain.tn)
    assert pair_confusion(truth, pred).tp == expected_tp
    assert adjusted_rand_index(truth, pred) == pytest.approx(adjusted_rand_score(truth, pred),
                                                             abs=1e-12)
    # reading the cells lists them (sorted in 32-bit pieces too) and they give the same pairs
    plain_cells = _cells(table_of(*check_partitions(truth=truth, pred=pred), plain=True))
    before = pieces.calls
    assert _cells(table) == plain_cells
    assert pieces.calls == before + 1
    assert not table._cells_unread and table.pairs_in_cells() == expected_tp


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_pairs_in_unread_cells_equal_the_definition_and_sklearn(data):
    # k from 1 to N on both sides; the dense table and both sorts (one 32-bit index, or one
    # cut into pieces: a short narrow range stands for 2**32) forced on small inputs
    from sklearn.metrics import adjusted_rand_score
    from sklearn.metrics.cluster import pair_confusion_matrix
    from prayatul_edu.pair_counting import _pair_confusion

    n = data.draw(st.integers(2, 250))
    ks = [data.draw(st.integers(1, n)) for _ in range(2)]
    kinds = [data.draw(st.sampled_from(["ints", "noise", "spread", "huge", "strings"]))
             for _ in range(2)]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    truth, pred = (_labels(rng, n, k, kind) for k, kind in zip(ks, kinds))
    expected = _pairs_by_definition(truth, pred)
    ari = adjusted_rand_index(truth, pred)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(counting, "DENSE_MIN_CELLS", 1)
        m.setattr(counting, "DENSE_CACHE_CELLS", 1)
        m.setattr(contingency, "_DENSE_TABLE_CELLS", 0)
        m.setattr(counting, "_NARROW_RANGE", data.draw(st.sampled_from([1, 3, 50, 2**32])))
        t, p = _owned(*check_partitions(truth=truth, pred=pred))
        table = table_of(t, p)
        pc = _pair_confusion(table)
        assert table._cells_unread                       # the pairs did not list the cells
        assert (pc.tp, pc.fp, pc.fn, pc.tn) == expected
        assert pc.tp == _comb2_of_cells(truth, pred)
        assert (pc.to_sklearn() == pair_confusion_matrix(truth, pred)).all()
        assert adjusted_rand_index(truth, pred) == ari   # identical to the unforced paths
        plain = table_of(*check_partitions(truth=truth, pred=pred), plain=True)
        assert _cells(table) == _cells(plain)
        assert table.pairs_in_cells() == pc.tp
    assert ari == pytest.approx(adjusted_rand_score(truth, pred), abs=1e-12)


def test_a_table_of_the_callers_arrays_keeps_its_cells_when_they_change():
    """Cells listed lazily are read from the labels later: labels that are the caller's
    arrays (not copies) are listed at once, so changing the arrays afterwards changes
    nothing (found by a review: the cells then contradicted the margins); labels that
    are the package's own (a list's array) stay lazy."""
    rng = np.random.default_rng(21)
    t, p = rng.integers(0, 100_000, 200_000), rng.integers(0, 100_000, 200_000)
    expected = contingency_table(t.copy(), p.copy())
    table = contingency_table(t, p)
    t[:], p[:] = 0, 7
    assert table.cell_count.tolist() == expected.cell_count.tolist()
    assert table.cell_cluster.tolist() == expected.cell_cluster.tolist()
    assert table.cell_count.sum() == table.cluster_sizes.sum() == 200_000
    from prayatul_edu import pair_confusion
    pairs = pair_confusion(t := rng.integers(0, 100_000, 200_000),
                           p := rng.integers(0, 100_000, 200_000))
    before = pairs.table.cell_count.tolist() if not pairs.table._cells_unread else None
    assert before is not None                            # listed at once: borrowed arrays
    lazy = contingency_table(t.tolist(), p.tolist())
    assert lazy._cells_unread                            # the package's own arrays
    assert lazy.cell_count.tolist() == pairs.table.cell_count.tolist()
