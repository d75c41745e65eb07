"""Calinski-Harabasz, Davies-Bouldin, Dunn: hand-worked numbers, scikit-learn, brute force."""
import math
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from prayatul_edu import calinski_harabasz, davies_bouldin, dunn_index, tutorial

internal = sys.modules["prayatul_edu.internal"]
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def _data(seed, n=None, d=None, k=None, offset=3.0):
    """Random points with a scale and an offset (``offset`` times the scale), and labels
    with at least two members in every cluster (a singleton's centroid is the point itself,
    where scikit-learn's Gram-matrix distance is about 1e-5 instead of 0: tested apart)."""
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(6, 400))
    d = d or int(rng.integers(1, 12))
    k = k or int(rng.integers(2, min(n // 2, 15) + 1))
    scale = rng.uniform(0.01, 100)
    X = (rng.normal(size=(n, d)) + rng.normal(0, offset, d)) * scale
    y = np.r_[np.arange(k), np.arange(k), rng.integers(0, k, n - 2 * k)]
    rng.shuffle(y)
    return X, y


# ------------------------------------------------------------- hand-worked numbers
def test_calinski_harabasz_by_hand():
    # centroids 1 and 11, mean 6: B = 2 * 25 + 2 * 25 = 100; W = 1 + 1 + 1 + 1 = 4;
    # CH = (100 / 1) / (4 / 2) = 50.
    ch = calinski_harabasz([[0], [2], [10], [12]], [0, 0, 1, 1])
    assert (ch.between, ch.within, float(ch)) == (100.0, 4.0, 50.0)
    assert ch.centroids.ravel().tolist() == [1.0, 11.0] and ch.mean.tolist() == [6.0]
    assert ch.within_per_cluster.tolist() == [2.0, 2.0]


def test_davies_bouldin_by_hand():
    # s = (1, 2), ||c_0 - c_1|| = 11, R_01 = 3/11 for both clusters: DB = 3/11.
    db = davies_bouldin([[0], [2], [10], [14]], [0, 0, 1, 1])
    assert db.spread.tolist() == [1.0, 2.0]
    assert float(db) == pytest.approx(3 / 11, abs=1e-15)
    assert db.partner.tolist() == [1, 0]


def test_dunn_tutorial_distances():
    # closest pair between clusters: d(x1, x4) = 0.55; widest pair inside: d(x3, x4) = 0.9.
    dn = dunn_index(tutorial.EXERCISE_1_D, tutorial.EXERCISE_1_LABELS, metric="precomputed")
    assert (dn.separation, dn.diameter) == (0.55, 0.9)
    assert float(dn) == pytest.approx(0.55 / 0.9, abs=1e-15)
    assert dn.closest_pair == (0, 3) and dn.widest_pair == (2, 3)
    assert dn.diameters.tolist() == [0.1, 0.9]


# ------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize("seed", range(25))
def test_agree_with_scikit_learn_on_random_inputs(seed):
    X, y = _data(seed)
    ch, db = calinski_harabasz(X, y), davies_bouldin(X, y)
    assert float(ch) == pytest.approx(sklearn_metrics.calinski_harabasz_score(X, y), rel=1e-9)
    assert float(db) == pytest.approx(sklearn_metrics.davies_bouldin_score(X, y), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["ints", "strings", "noise"]))
def test_agree_with_scikit_learn_any_labels(seed, kind):
    X, y = _data(seed)
    labels = {"ints": y, "strings": np.array([f"c{v}" for v in y]), "noise": y - 1}[kind]
    assert float(calinski_harabasz(X, labels)) == pytest.approx(
        sklearn_metrics.calinski_harabasz_score(X, labels), rel=1e-9)
    assert float(davies_bouldin(X, labels)) == pytest.approx(
        sklearn_metrics.davies_bouldin_score(X, labels), rel=1e-9)


def _davies_bouldin_exact(X, y):
    """The formulas with math.fsum and math.dist: a reference without cancellation."""
    k = max(y) + 1
    C = [[math.fsum(X[y == c][:, j]) / (y == c).sum() for j in range(X.shape[1])]
         for c in range(k)]
    s = [math.fsum(math.dist(x, C[c]) for x in X[y == c]) / (y == c).sum() for c in range(k)]
    return math.fsum(max((s[i] + s[j]) / math.dist(C[i], C[j]) for j in range(k) if j != i)
                     for i in range(k)) / k


@pytest.mark.parametrize("seed", [44830, 1, 2])
def test_far_from_the_origin_stays_exact(seed):
    """Points far from the origin compared with their spread: scikit-learn's distances
    (from |x|^2 - 2 x.c + |c|^2) lose digits there (2.5e-8 relative at seed 44830); ours
    come from differences and stay within 1e-10 of an exact reference."""
    X, y = _data(seed, offset=30.0)
    assert float(davies_bouldin(X, y)) == pytest.approx(_davies_bouldin_exact(X, y), rel=1e-10)


def test_singleton_cluster_stays_exact():
    """A cluster of one point: its s_i is exactly 0 (scikit-learn: about 1e-5 here)."""
    X, y = _data(9999999, n=15, d=4, k=4)
    y = np.where(np.arange(15) == 0, 4, y)                      # x1 alone in cluster 4
    assert davies_bouldin(X, y).spread[4] == 0.0
    assert float(davies_bouldin(X, y)) == pytest.approx(_davies_bouldin_exact(X, y), rel=1e-10)


def test_conventions_as_scikit_learn():
    # W = 0 (every point on its centroid): CH = 1.
    X = [[0, 0], [0, 0], [3, 4], [3, 4]]
    assert float(calinski_harabasz(X, [0, 0, 1, 1])) == 1.0
    assert sklearn_metrics.calinski_harabasz_score(X, [0, 0, 1, 1]) == 1.0
    # every s_i = 0: DB = 0
    db = davies_bouldin(X, [0, 0, 1, 1])
    assert float(db) == 0.0 == sklearn_metrics.davies_bouldin_score(X, [0, 0, 1, 1])
    assert "by convention" in db.explain()
    # two clusters with the same centroid: their R_ij is 0 (scikit-learn's choice)
    X = [[-1, 0], [1, 0], [0, -1], [0, 1], [10, 0], [12, 0]]
    y = [0, 0, 1, 1, 2, 2]
    db = davies_bouldin(X, y)
    assert db.coincide and float(db) == pytest.approx(
        sklearn_metrics.davies_bouldin_score(X, y), rel=1e-12)
    assert db.partner.tolist() == [2, 2, 0]


def test_order_of_the_rows_does_not_matter():
    X, y = _data(3, n=300, d=4, k=80)
    order = np.argsort(y, kind="stable")                        # clusters already in order
    for f in (calinski_harabasz, davies_bouldin):
        assert float(f(X[order], y[order])) == pytest.approx(float(f(X, y)), rel=1e-12)
    assert float(calinski_harabasz(X, y)) == pytest.approx(
        sklearn_metrics.calinski_harabasz_score(X, y), rel=1e-9)


# ------------------------------------------------------------- Dunn: brute force
def _dunn_brute(D, y):
    y = np.asarray(y)
    same = y[:, None] == y[None, :]
    return D[~same].min() / D[same].max()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["euclidean", "cityblock", "cosine"]))
def test_dunn_against_brute_force(seed, metric):
    rng = np.random.default_rng(seed)                 # 2 or more coordinates: with one,
    X, y = _data(seed, n=int(rng.integers(5, 120)), d=int(rng.integers(2, 8)))  # cosine is 0/2
    D = cdist(X, X, metric)
    dn = dunn_index(X, y, metric=metric)
    assert float(dn) == pytest.approx(_dunn_brute(D, y), rel=1e-12)
    a, b = dn.closest_pair
    assert y[a] != y[b] and D[a, b] == pytest.approx(dn.separation, rel=1e-12)
    a, b = dn.widest_pair
    assert y[a] == y[b] and D[a, b] == pytest.approx(dn.diameter, rel=1e-12)
    for c in range(y.max() + 1):                                # per-cluster diameters
        assert dn.diameters[c] == pytest.approx(D[np.ix_(y == c, y == c)].max(), rel=1e-12)
    assert float(dunn_index(D, y, metric="precomputed")) == pytest.approx(float(dn), rel=1e-12)


@pytest.mark.parametrize("rows", [1, 3, 17])
def test_dunn_blocks_of_any_size_agree(monkeypatch, rows):
    X, y = _data(7, n=60, d=2, k=4)
    whole = dunn_index(X, y)
    monkeypatch.setattr(internal, "BLOCK_BYTES", 8 * 60 * rows)
    small = dunn_index(X, y)
    assert (float(small), small.closest_pair, small.widest_pair) == (
        float(whole), whole.closest_pair, whole.widest_pair)


def test_dunn_coinciding_members_is_inf():
    dn = dunn_index([[0, 0], [0, 0], [1, 1], [1, 1], [1, 1]], [0, 0, 1, 1, 1])
    assert float(dn) == np.inf and dn.diameter == 0.0
    assert "divides by 0" in dn.explain()


def test_dunn_at_20000_never_holds_n_by_n():
    """N = 20,000: an N x N float matrix is 3.2 GB; the blocks keep the peak near 4 MB."""
    n = 20_000
    assert internal._rows_per_block(n) * n * 8 <= internal.BLOCK_BYTES
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, n)
    X = rng.normal(size=(5, 2))[y] * 8 + rng.normal(size=(n, 2))
    tracemalloc.start()
    dn = dunn_index(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.0f} MB"
    assert dn.separation > 0 and dn.diameter > 0
    # the deciding pairs, checked directly
    a, b = dn.closest_pair
    assert y[a] != y[b] and np.linalg.norm(X[a] - X[b]) == pytest.approx(dn.separation)
    # no pair between clusters is closer than the separation (checked per cluster pair)
    for c in range(5):
        others = cdist(X[y == c], X[y != c])
        assert others.min() >= dn.separation - 1e-12


def test_derivations_show_the_steps():
    X, y = _data(1, n=30, d=2, k=3)
    text = calinski_harabasz(X, y).explain()
    assert "B = " in text and "W = " in text and "CH = (" in text
    text = davies_bouldin(X, y).explain()
    assert "worst partner" in text and "DB = (1/3)" in text
    text = dunn_index(X, y).explain()
    assert "min delta = d(x" in text and "max Delta = d(x" in text


def test_finite_check_by_a_sum_still_names_the_bad_entry():
    """check_features first adds every entry (finite sum: all finite); a sum that
    overflows falls back to looking entry by entry."""
    from prayatul_edu._validation import check_features

    huge = np.full((3, 2), 1e308)                               # sum overflows, all finite
    assert check_features(huge, "X") is not None
    bad = np.zeros((4, 3))
    bad[2, 1] = -np.inf
    with pytest.raises(ValueError, match=r"X: contains NaN or infinite values \(first at "
                                         r"X\[2, 1\]\)"):
        calinski_harabasz(bad, [0, 0, 1, 1])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.01, 100), st.floats(-1e3, 1e3))
def test_invariant_under_moving_and_rescaling_the_data(seed, scale, shift):
    """CH, DB and Dunn are ratios of distances: a translation and a uniform scaling of X
    change none of them; and B + W is the total scatter whatever the clustering."""
    X, y = _data(seed, n=int(np.random.default_rng(seed).integers(6, 80)))
    Y = X * scale + shift
    for f in (calinski_harabasz, davies_bouldin, dunn_index):
        assert float(f(Y, y)) == pytest.approx(float(f(X, y)), rel=1e-8)
    ch = calinski_harabasz(X, y)
    total = ((X - X.mean(axis=0)) ** 2).sum()
    assert ch.between + ch.within == pytest.approx(total, rel=1e-10)


# ------------------------------------------------ any scale, memory, the row to blame
@pytest.mark.parametrize("factor", [1e160, 1e300, 1e-9, 1e-300])
def test_ch_and_db_at_any_scale(factor):
    """X is divided by a power of two first: X * 1e160 (squares of 1e320) and X * 1e-9
    (spreads below scikit-learn's absolute 1e-8) give the value of X, never NaN or 0."""
    import warnings

    X, y = _data(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # no RuntimeWarning either
        ch, db = calinski_harabasz(X * factor, y), davies_bouldin(X * factor, y)
    assert float(ch) == pytest.approx(float(calinski_harabasz(X, y)), rel=1e-12)
    assert float(db) == pytest.approx(float(davies_bouldin(X, y)), rel=1e-12)
    assert not db.degenerate
    np.testing.assert_allclose(db.spread, davies_bouldin(X, y).spread * factor, rtol=1e-12)


def test_davies_bouldin_zero_is_relative():
    X = np.array([[0.0], [1e-12], [1.0], [1.0 + 1e-12]])      # spreads 5e-13 << 1 apart
    db = davies_bouldin(X, [0, 0, 1, 1])
    assert float(db) == 0.0 and "within 1e-08 of the largest" in db.explain()
    small = np.array([[0.0], [2.0], [10.0], [14.0]]) * 1e-9   # the docstring's example, small
    assert float(davies_bouldin(small, [0, 0, 1, 1])) == pytest.approx(3 / 11, rel=1e-12)
    assert sklearn_metrics.davies_bouldin_score(small, [0, 0, 1, 1]) == 0.0   # its 1e-8


def test_davies_bouldin_memory_is_k_squared_not_k_squared_d():
    """N = 20,000, D = 50, k = 1000: a k x k x D array would be 400 MB; the k x k
    distances are 8 MB (and X's rescaled copy 8 MB)."""
    rng = np.random.default_rng(1)
    n, d, k = 20_000, 50, 1000
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    X = rng.normal(size=(k, d))[y] * 5 + rng.normal(size=(n, d))
    tracemalloc.start()
    db = davies_bouldin(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.0f} MB"
    assert float(db) == pytest.approx(sklearn_metrics.davies_bouldin_score(X, y), rel=1e-7)


def test_dunn_names_the_zero_vector_for_the_cosine_metric():
    X, y = _data(4, n=30, d=3, k=3)
    X[4] = 0.0                                                 # no direction: cosine is NaN
    with pytest.raises(ValueError, match=r"^X: the cosine distance from x5 \(row 4 of X\) "
                                         "to every point"):
        dunn_index(X, y, metric="cosine")
    X, y = _data(5, n=20, d=2, k=2)
    with pytest.raises(ValueError, match=r"^X: the euclidean distance from x\d+ \(row \d+ of "
                                         r"X\) to x\d+ \(row \d+\) is NaN or infinite"):
        dunn_index(X * 1e300, y)                               # the square overflows
