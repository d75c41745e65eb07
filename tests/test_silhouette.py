"""Silhouette: the tutorial's Exercise 1, agreement with scikit-learn, plain == fast, errors."""
import sys
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from prayatul_edu import silhouette, tutorial

sil_module = sys.modules["prayatul_edu.silhouette"]  # the name `silhouette` is the function

sklearn_metrics = pytest.importorskip("sklearn.metrics")


# ------------------------------------------------------------- seed numbers
@pytest.mark.parametrize("method", ["plain", "fast"])
def test_tutorial_exercise_1(method):
    D = tutorial.EXERCISE_1_D
    s = silhouette(D, tutorial.EXERCISE_1_LABELS, metric="precomputed", method=method)
    # a_i: the one other member of the own cluster: d(x1,x2) = 0.1, d(x3,x4) = 0.9.
    assert s.a == pytest.approx([0.1, 0.1, 0.9, 0.9], abs=1e-15)
    # b_i: average distance to the other cluster: (0.65+0.55)/2, (0.70+0.60)/2,
    # (0.65+0.70)/2, (0.55+0.60)/2.
    assert s.b == pytest.approx([0.6, 0.65, 0.675, 0.575], abs=1e-15)
    assert s.nearest_cluster.tolist() == [2, 2, 1, 1]
    # s_1 = 0.5/0.6 = 5/6, s_2 = 0.55/0.65 = 11/13, s_3 = -0.225/0.9 = -1/4,
    # s_4 = -0.325/0.9 = -13/36.
    assert s.samples == pytest.approx([5 / 6, 11 / 13, -1 / 4, -13 / 36], abs=1e-15)
    # s_C1 = (5/6 + 11/13)/2 = 131/156, s_C2 = (-1/4 - 13/36)/2 = -11/36.
    assert s.clusters.tolist() == [1, 2]
    assert s.per_cluster == pytest.approx([131 / 156, -11 / 36], abs=1e-15)
    # s = (5/6 + 11/13 - 1/4 - 13/36)/4 = 125/468.
    assert float(s) == pytest.approx(125 / 468, abs=1e-15)
    assert s.score == float(s)
    assert s.labels.tolist() == [1, 1, 2, 2]


def test_tutorial_exercise_1_printed_answers_truncate():
    # The tutorial cuts after 4 decimals instead of rounding: s_2 = 0.8461 (11/13 =
    # 0.846153...), s_C2 = -0.3055 (-11/36 = -0.305555...), s_C = 0.2670 (125/468 =
    # 0.267094...). Rounded they are 0.8462, -0.3056 and 0.2671.
    s = silhouette(tutorial.EXERCISE_1_D, tutorial.EXERCISE_1_LABELS, metric="precomputed")
    pub = tutorial.PUBLISHED["exercise_1"]
    for printed, exact in [(pub["s"][1], s.samples[1]), (pub["s_clusters"][1], s.per_cluster[1]),
                           (pub["s_overall"], float(s))]:
        assert np.trunc(exact * 1e4) / 1e4 == pytest.approx(printed, abs=1e-12)
        assert round(exact, 4) != printed
    # the others are printed correctly rounded
    assert np.round(s.samples[[0, 2, 3]], 4).tolist() == [pub["s"][i] for i in (0, 2, 3)]
    assert round(s.per_cluster[0], 4) == pub["s_clusters"][0]


def test_exercise_1_derivation_shows_the_numbers():
    s = silhouette(tutorial.EXERCISE_1_D, tutorial.EXERCISE_1_LABELS, metric="precomputed")
    text = s.explain()
    assert text.splitlines()[0] == "Silhouette coefficient = 0.2671"
    # points numbered x1..xN, as in the tutorial, notebook 04 and exercises 04.1-04.3
    assert "a_1 = 0.1 / 1 = 0.1" in text
    assert "b_1 = min(2: 0.6) = 0.6" in text
    assert "s_1 = (0.6 - 0.1) / max(0.1, 0.6) = 0.8333" in text
    assert "a_0" not in text and "numbered from 0" not in text
    assert "s = (1/4) (0.8333 + 0.8462 - 0.25 - 0.3611) = 0.2671" in text
    md = s._repr_markdown_()
    assert "| x2 | 1 | 0.1 | 0.65 | 2 | 0.8462 |" in md
    assert "| 2 | 2 | -0.3056 |" in md


def test_derivation_cuts_the_point_table_for_large_n():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 2))
    labels = rng.integers(0, 4, 300)
    text = silhouette(X, labels).explain()
    assert "... 280 more rows" in text
    assert "s = (1/300) sum_i s_i" in text
    assert "method=" not in text and " path" not in text       # the lecture's language


# ------------------------------------------------------ scikit-learn agreement
def _random_case(seed, n=None, k=None, d=None):
    rng = np.random.default_rng(seed)
    n = n if n is not None else int(rng.integers(5, 400))
    k = k if k is not None else int(rng.integers(2, min(12, n - 1) + 1))
    d = d if d is not None else int(rng.integers(1, 5))
    X = rng.normal(size=(n, d)) + rng.integers(0, 3, size=(n, 1))
    labels = rng.integers(0, k, n)
    labels[0] = k + 5  # a cluster of size 1
    if len(set(labels.tolist())) >= n:  # keep between 2 and N - 1 clusters
        labels[1] = labels[2]
    return X, labels


def _agree(X, labels, metric, method, skl_labels=None):
    ours = silhouette(X, labels, metric=metric, method=method)
    skl_labels = labels if skl_labels is None else skl_labels
    ref = sklearn_metrics.silhouette_samples(X, skl_labels, metric=metric)
    np.testing.assert_allclose(ours.samples, ref, rtol=0, atol=1e-12)
    assert float(ours) == pytest.approx(
        sklearn_metrics.silhouette_score(X, skl_labels, metric=metric), abs=1e-12)
    return ours


@pytest.mark.parametrize("method", ["plain", "fast"])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", ["cityblock", "cosine", "seuclidean", "chebyshev"])
def test_agrees_with_sklearn(seed, metric, method):
    X, labels = _random_case(seed)
    _agree(X, labels, metric, method)


@pytest.mark.parametrize("method", ["plain", "fast"])
@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_sklearn_euclidean(seed, method):
    X, labels = _random_case(seed)
    ours = silhouette(X, labels, method=method)
    # Given the same (exact) distances, scikit-learn computes the same silhouettes.
    ref = sklearn_metrics.silhouette_samples(cdist(X, X), labels, metric="precomputed")
    np.testing.assert_allclose(ours.samples, ref, rtol=0, atol=1e-12)
    # scikit-learn's own euclidean uses |x|^2 + |y|^2 - 2 x.y, which loses digits for
    # close points (about 1e-12 here, see the next test); we compute distances exactly.
    ref = sklearn_metrics.silhouette_samples(X, labels)
    np.testing.assert_allclose(ours.samples, ref, rtol=0, atol=1e-10)
    assert float(ours) == pytest.approx(sklearn_metrics.silhouette_score(X, labels), abs=1e-12)


def test_euclidean_is_exact_where_sklearn_rounds():
    from decimal import Decimal, getcontext

    getcontext().prec = 40
    X, labels = _random_case(3)  # 1-D data with offsets: sklearn is 1e-12 off at point 187
    i = 187
    dist = [abs(Decimal(float(x[0])) - Decimal(float(X[i, 0]))) for x in X]
    groups = {}
    for j, c in enumerate(labels.tolist()):
        groups.setdefault(c, []).append(dist[j])
    own = labels[i]
    a = sum(groups[own]) / (len(groups[own]) - 1)
    b = min(sum(v) / len(v) for c, v in groups.items() if c != own)
    exact = float((b - a) / max(a, b))
    for method in ("plain", "fast"):
        assert silhouette(X, labels, method=method).samples[i] == pytest.approx(exact, abs=1e-15)
    # (scikit-learn 1.9 gives 0.02802337088934811 here, 1.0e-12 from the exact value.)


@pytest.mark.parametrize("method", ["plain", "fast"])
@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_sklearn_precomputed(seed, method):
    X, labels = _random_case(100 + seed)
    D = cdist(X, X, "chebyshev")
    _agree(D, labels, "precomputed", method)


@pytest.mark.parametrize("method", ["plain", "fast"])
def test_agrees_with_sklearn_mahalanobis(method):
    X, labels = _random_case(7, n=120, d=3)
    _agree(X, labels, "mahalanobis", method)


@pytest.mark.parametrize("method", ["plain", "fast"])
def test_string_labels_and_noise_label(method):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(90, 2))
    labels = rng.choice(["red", "green", "blue", "-1"], size=90)
    labels[5] = "solo"  # a singleton
    ours = _agree(X, labels, "euclidean", method)
    assert ours.clusters.tolist() == ["-1", "blue", "green", "red", "solo"]
    assert ours.samples[5] == 0.0 and np.isnan(ours.a[5])
    assert ours.labels.tolist() == labels.tolist()
    # DBSCAN-style integer noise label -1 is an ordinary cluster
    ints = np.where(labels == "-1", -1, np.searchsorted(["blue", "green", "red", "solo"], labels))
    ours_int = _agree(X, ints, "euclidean", method)
    np.testing.assert_allclose(ours_int.samples, ours.samples, rtol=0, atol=1e-15)
    assert -1 in ours_int.clusters.tolist()


def test_nearest_cluster_and_per_cluster_are_consistent():
    X, labels = _random_case(3, n=250, k=6)
    s = silhouette(X, labels)
    assert (s.nearest_cluster != s.labels).all()
    assert set(s.nearest_cluster.tolist()) <= set(s.clusters.tolist())
    for c, v, m in zip(s.clusters, s.per_cluster, s.sizes):
        assert v == pytest.approx(s.samples[s.labels == c].mean(), abs=1e-15)
        assert m == (s.labels == c).sum()
    # the overall value weighs clusters by size: s = sum_C (|C|/N) s_C
    assert float(s) == pytest.approx((s.sizes * s.per_cluster).sum() / len(labels), abs=1e-14)
    assert -1 <= s.samples.min() and s.samples.max() <= 1


def test_b_is_the_minimum_average_distance_to_another_cluster():
    # an oracle written from the definitions, on the full matrix
    X, labels = _random_case(21, n=60, k=4)
    D = cdist(X, X)
    s = silhouette(X, labels, method="fast")
    for i in range(len(labels)):
        own = labels == labels[i]
        if own.sum() > 1:
            assert s.a[i] == pytest.approx(D[i, own].sum() / (own.sum() - 1), abs=1e-13)
        avg = {c: D[i, labels == c].mean() for c in set(labels.tolist()) if c != labels[i]}
        assert s.b[i] == pytest.approx(min(avg.values()), abs=1e-13)
        assert avg[s.nearest_cluster[i]] == pytest.approx(s.b[i], abs=1e-13)


def test_duplicate_points_give_zero_not_nan():
    # all distances 0: a_i = b_i = 0 and 0/0 is taken as s_i = 0 (as scikit-learn)
    X = np.zeros((4, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("plain", "fast"):
            s = silhouette(X, [0, 0, 1, 1], method=method)
            assert s.samples.tolist() == [0.0, 0.0, 0.0, 0.0] and float(s) == 0.0
    assert "a_i = b_i = 0" in s.explain()


# ----------------------------------------------------------- plain == fast
@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("seed", range(5))
def test_plain_equals_fast_across_block_boundaries(seed, threads, monkeypatch):
    X, labels = _random_case(200 + seed)
    n = len(labels)
    monkeypatch.setattr(sil_module, "_MAX_THREADS", threads)
    monkeypatch.setattr(sil_module, "_BLOCK_BYTES", 8 * n * 7)  # 7 rows per block
    for metric, data in [("euclidean", X), ("precomputed", cdist(X, X, "cityblock"))]:
        plain = silhouette(data, labels, metric=metric, method="plain")
        fast = silhouette(data, labels, metric=metric, method="fast")
        assert (plain.method, fast.method) == ("plain", "fast")
        np.testing.assert_allclose(fast.samples, plain.samples, rtol=0, atol=1e-13)
        np.testing.assert_allclose(fast.a, plain.a, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(fast.b, plain.b, rtol=1e-13, atol=1e-13)
        assert (fast.nearest_cluster == plain.nearest_cluster).all()
        assert float(fast) == pytest.approx(float(plain), abs=1e-13)


def test_auto_switches_at_plain_max_n():
    X, labels = _random_case(9, n=sil_module.PLAIN_MAX_N + 1, k=3)
    assert silhouette(X, labels).method == "fast"
    assert silhouette(X[:-1], labels[:-1]).method == "plain"


def test_fast_path_never_holds_n_by_n():
    rng = np.random.default_rng(1)
    n = 3000
    X = rng.normal(size=(n, 2))
    labels = rng.integers(0, 10, n)
    silhouette(X[:300], labels[:300], method="fast")  # imports and thread start-up
    tracemalloc.start()
    try:
        silhouette(X, labels, method="fast")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < n * n * 8 / 4  # the full matrix would be 72 MB


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_invariant_under_permuting_instances_and_renaming_clusters(seed, rnd):
    X, labels = _random_case(seed, n=30)
    perm = list(range(len(labels)))
    rnd.shuffle(perm)
    names = {c: f"c{rnd.randrange(10**6)}-{c}" for c in set(labels.tolist())}
    s = silhouette(X, labels)
    t = silhouette(X[perm], [names[c] for c in labels[perm]])
    np.testing.assert_allclose(t.samples, s.samples[perm], rtol=0, atol=1e-14)
    assert float(t) == pytest.approx(float(s), abs=1e-14)


# ---------------------------------------------------------------- bad input
def test_X_with_nan():
    with pytest.raises(ValueError, match=r"^X: contains NaN .*X\[1, 0\]"):
        silhouette([[0.0, 1.0], [np.nan, 1.0], [2.0, 2.0]], [0, 0, 1])


def test_X_not_2d():
    with pytest.raises(ValueError, match=r"^X: must be a 2-D array.*reshape"):
        silhouette([0.0, 1.0, 2.0], [0, 0, 1])


def test_X_not_numbers():
    with pytest.raises(TypeError, match=r"^X: "):
        silhouette([["a", "b"], ["c", "d"], ["e", "f"]], [0, 0, 1])


@pytest.mark.parametrize("D, message", [
    ([[0, 1, 2], [1, 0, 3]], r"^X: must be a square"),
    ([[0, 1, 2], [1, 0, 3], [2, 4, 0]], r"^X: must be symmetric"),
    ([[0, -1, 2], [-1, 0, 3], [2, 3, 0]], r"^X: distances must be non-negative"),
    ([[0, 1, 2], [1, 0.5, 3], [2, 3, 0]], r"^X: the diagonal must be zero"),
    ([[0, np.nan, 2], [np.nan, 0, 3], [2, 3, 0]], r"^X: contains NaN"),
])
def test_bad_precomputed_matrix(D, message):
    with pytest.raises(ValueError, match=message):
        silhouette(D, [0, 0, 1], metric="precomputed")


def test_one_cluster():
    with pytest.raises(ValueError, match=r"^labels: silhouette needs between 2 and N-1 "
                                         r"clusters; got 1 cluster for N = 3"):
        silhouette([[0.0], [1.0], [2.0]], ["a", "a", "a"])


def test_n_clusters():
    with pytest.raises(ValueError, match=r"^labels: silhouette needs between 2 and N-1 "
                                         r"clusters; got 3 clusters for N = 3"):
        silhouette([[0.0], [1.0], [2.0]], [0, 1, 2])


def test_unknown_metric():
    with pytest.raises(ValueError, match=r"^metric: unknown value 'euclidian'"):
        silhouette([[0.0], [1.0], [2.0]], [0, 0, 1], metric="euclidian")
    with pytest.raises(TypeError, match=r"^metric: "):
        silhouette([[0.0], [1.0], [2.0]], [0, 0, 1], metric=len)


def test_unknown_method():
    with pytest.raises(ValueError, match=r"^method: unknown value 'slow'"):
        silhouette([[0.0], [1.0], [2.0]], [0, 0, 1], method="slow")


def test_length_mismatch():
    with pytest.raises(ValueError, match=r"^labels: has 4 labels but X has 3 rows"):
        silhouette([[0.0], [1.0], [2.0]], [0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"^labels: has 2 labels but X has 3 rows"):
        silhouette(tutorial.EXERCISE_1_D[:3, :3], [0, 1], metric="precomputed")


def test_bad_labels():
    with pytest.raises(ValueError, match=r"^labels: labels must not be NaN"):
        silhouette([[0.0], [1.0], [2.0]], [0.0, np.nan, 1.0])


@pytest.mark.parametrize("method", ["plain", "fast"])
def test_undefined_distance(method, monkeypatch):
    # the cosine distance to an all-zero vector is 0/0
    X = [[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    with pytest.raises(ValueError, match=r"^X: the cosine distance from x(\d+) \(row \d+ of X\) to some points is NaN"):
        silhouette(X, [0, 0, 1, 1], metric="cosine", method=method)
    # the error also comes out of the worker threads (one row per block)
    monkeypatch.setattr(sil_module, "_BLOCK_BYTES", 8 * 4)
    monkeypatch.setattr(sil_module, "_MAX_THREADS", 3)
    with pytest.raises(ValueError, match=r"^X: the cosine distance from x(\d+) \(row \d+ of X\) to some points is NaN"):
        silhouette(X, [0, 0, 1, 1], metric="cosine", method=method)
