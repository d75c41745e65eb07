"""Label handling and counting: factorisation, contingency table, exact pair counts."""
import numpy as np
import pytest

from prayatul_edu import contingency_table, labels_from_table
from prayatul_edu._validation import check_labels
from prayatul_edu.counting import comb2, group_sizes, joint_codes, pairs_within

from conftest import random_labelings


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
    assert sorted(group_sizes(ga, gb).tolist()) == sorted(
        __import__("collections").Counter(zip(a.tolist(), b.tolist())).values())


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
    assert "Rows are the clusters" in repr(t)
    assert "| clusters ↓ classes → |" in t._repr_markdown_()
