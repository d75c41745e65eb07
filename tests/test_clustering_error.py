"""Clustering ratio and clustering error (the full-reference notes, seed 002)."""
import numpy as np
import pytest
from hypothesis import given, settings

from prayatul_edu import (clustering_error, clustering_ratio, contingency_table,
                          maximum_matching, purity)
from cases import partitions, relabelings

scipy_optimize = pytest.importorskip("scipy.optimize")


# ---------------------------------------------------------- clustering ratio
@pytest.mark.parametrize("truth, pred, c, k", [
    ([0, 0, 1, 1], [0, 0, 1, 1], 2, 2),
    ([0, 0, 1, 1], [0, 1, 2, 2], 3, 2),       # over-segmented: eta = 3/2
    ([0, 1, 2, 3], [5, 5, 5, 6], 2, 4),       # merged classes: eta = 1/2
    (["a"], [1], 1, 1),                       # N = 1
])
def test_clustering_ratio_is_c_over_k(truth, pred, c, k):
    r = clustering_ratio(truth, pred)
    assert (r.n_clusters, r.n_classes) == (c, k)
    assert float(r) == c / k
    assert f"eta = {c} / {k}" in r.explain()


@settings(max_examples=60, deadline=None)
@given(partitions())
def test_clustering_ratio_counts_distinct_labels(tp):
    truth, pred = tp
    assert float(clustering_ratio(truth, pred)) == len(set(pred)) / len(set(truth))


# ---------------------------------------------------------- clustering error
def test_hand_worked_equal_numbers():
    # Classes {x1, x2, x3} and {x4, x5, x6}; clusters a = {x1, x2}, b = {x3, ..., x6}.
    # Best mapping a -> 0, b -> 1 matches 2 + 3 = 5 points: error = 1/6.
    e = clustering_error([0, 0, 0, 1, 1, 1], ["a", "a", "b", "b", "b", "b"])
    assert e.matching == {"a": 0, "b": 1}
    assert e.matched == 5
    assert float(e) == pytest.approx(1 / 6, abs=1e-15)
    text = e.explain()
    assert "error = 1 - 5 / 6 = 1 / 6" in text


def test_more_clusters_than_classes_counts_the_unmatched_cluster_as_errors():
    # Classes: 0 = {x1..x4}, 1 = {x5, x6}. Clusters: A = {x1, x2}, B = {x3, x4}, C = {x5, x6}.
    # Purity is 1 (every cluster is pure) but only one of A, B can be mapped to class 0:
    # 2 + 2 = 4 of 6 matched, error 1/3.
    truth, pred = [0, 0, 0, 0, 1, 1], ["A", "A", "B", "B", "C", "C"]
    e = clustering_error(truth, pred)
    assert float(purity(truth, pred)) == 1.0
    assert e.matched == 4 and float(e) == pytest.approx(1 / 3, abs=1e-15)
    assert "C = 3 clusters, K = 2 classes" in e.explain()
    assert "unmatched cluster" in e.explain()


def test_fewer_clusters_than_classes():
    # Three classes of 2, one cluster holding classes 1 and 2: at most 2 + 2 matched.
    e = clustering_error([0, 0, 1, 1, 2, 2], [7, 7, 8, 8, 8, 8])
    assert e.matched == 4 and float(e) == pytest.approx(1 / 3, abs=1e-15)
    assert "unmatched class" in e.explain()


def test_the_mistake_of_matching_without_one_to_one_is_purity():
    # Counting each cluster's majority class (no one-to-one mapping) gives 1 - purity,
    # which is 0 for singletons; the clustering error is not fooled.
    truth = [0, 0, 0, 1, 1, 1]
    pred = [0, 1, 2, 3, 4, 5]
    assert 1 - float(purity(truth, pred)) == 0.0
    assert float(clustering_error(truth, pred)) == pytest.approx(4 / 6, abs=1e-15)


def test_permuted_labels_do_not_matter():
    assert float(clustering_error([0, 0, 1, 1, 2], [2, 2, 0, 0, 1])) == 0.0


def _error_by_scipy(truth, pred):
    n = contingency_table(truth, pred).counts
    rows, cols = scipy_optimize.linear_sum_assignment(n, maximize=True)
    return 1 - n[rows, cols].sum() / len(truth)


@settings(max_examples=120, deadline=None)
@given(partitions(max_n=40, max_k=7))
def test_agrees_with_scipy_assignment_and_maximum_matching(tp):
    truth, pred = tp
    e = clustering_error(truth, pred)
    assert float(e) == pytest.approx(_error_by_scipy(truth, pred), abs=1e-12)
    assert float(e) == pytest.approx(1 - float(maximum_matching(truth, pred)), abs=1e-15)
    # The mapping is one-to-one and its counts add up to .matched.
    assert len(set(e.matching.values())) == len(e.matching)
    t = e.table
    ci = {c: i for i, c in enumerate(t.clusters.tolist())}
    cj = {c: j for j, c in enumerate(t.classes.tolist())}
    assert sum(int(t.counts[ci[a], cj[b]]) for a, b in e.matching.items()) == e.matched


def test_large_table_uses_the_hungarian_algorithm_and_agrees():
    rng = np.random.default_rng(3)
    truth, pred = rng.integers(0, 12, 500), rng.integers(0, 15, 500)
    e = clustering_error(truth, pred)
    # 15! one-to-one mappings: the derivation names the best one, it lists none of the others
    assert "best of all one-to-one matchings" in e.explain()
    assert e.explain().count("\n") < 60
    assert float(e) == pytest.approx(_error_by_scipy(truth, pred), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(partitions(max_n=30, max_k=6), relabelings())
def test_clustering_error_is_symmetric_and_ignores_label_names(tp, rename):
    truth, pred = tp
    e = float(clustering_error(truth, pred))
    assert float(clustering_error(pred, truth)) == pytest.approx(e, abs=1e-15)
    assert float(clustering_error(truth, [rename[x] for x in pred])) == pytest.approx(e, abs=1e-15)
    # Never below 1 - purity: a one-to-one mapping can only match fewer points.
    assert e >= 1 - float(purity(truth, pred)) - 1e-15
