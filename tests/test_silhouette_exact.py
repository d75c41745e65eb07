"""The silhouette against an exact reference: high dimensions, near duplicates, float32.

The reference takes every distance from Python's ``math.dist`` (the differences
of the coordinates, accurate to about one rounding) and sums with ``math.fsum``.
The fast path computes Euclidean distances of many coordinates from a Gram
matrix, which loses digits for near-duplicate points unless they are redone;
scikit-learn's ``silhouette_samples`` does not redo them and is off by about
1e-8 on such inputs, which is why these tests compare with the reference.
"""
import math
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import silhouette

sil_module = sys.modules["prayatul_edu.silhouette"]


def exact_silhouette(X, labels):
    """s_i from math.dist and math.fsum, point by point (O(N^2 D) in Python)."""
    points = [[float(v) for v in row] for row in np.asarray(X)]
    labels = list(labels)
    clusters = sorted(set(labels))
    members = {c: [j for j, l in enumerate(labels) if l == c] for c in clusters}
    s = []
    for i, x in enumerate(points):
        own = labels[i]
        mates = [j for j in members[own] if j != i]
        if not mates:
            s.append(0.0)
            continue
        a = math.fsum(math.dist(x, points[j]) for j in mates) / len(mates)
        b = min(math.fsum(math.dist(x, points[j]) for j in members[c]) / len(members[c])
                for c in clusters if c != own)
        s.append((b - a) / max(a, b) if max(a, b) > 0 else 0.0)
    return np.array(s)


def _blobs(seed, n, dim, k, spread=1.0, offset=0.0):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-10, 10, (k, dim))
    labels = rng.integers(0, k, n)
    return offset + centres[labels] + spread * rng.standard_normal((n, dim)), labels


@pytest.fixture
def small_tiles(monkeypatch):
    """Tiles of 37 rows: many tiles, diagonal and not, cut through clusters."""
    monkeypatch.setattr(sil_module, "_GRAM_TILE_BYTES", 8 * 37 * 37)
    monkeypatch.setattr(sil_module, "_BLOCK_BYTES", 8 * 37 * 37)


@pytest.mark.parametrize("dim", [2, 9, 50, 300])
def test_fast_path_equals_exact_reference(dim, small_tiles):
    X, labels = _blobs(dim, 150, dim, 4)
    s = silhouette(X, labels, method="fast")
    np.testing.assert_allclose(s.samples, exact_silhouette(X, labels), rtol=0, atol=1e-12)


@pytest.mark.parametrize("rows_path", [False, True])
def test_near_duplicates_far_from_the_origin(rows_path, small_tiles, monkeypatch):
    # pairs 1e-7 apart at 1e4 from the origin, in 40 dimensions: d^2 from the Gram
    # matrix alone would be pure rounding (|x|^2 is about 4e9)
    if rows_path:                                        # blocks of whole rows
        monkeypatch.setattr(sil_module, "_SUMS_BYTES", 0)
    rng = np.random.default_rng(5)
    X, labels = _blobs(5, 60, 40, 3, offset=1e4)
    X = np.concatenate([X, X + 1e-7 * rng.standard_normal(X.shape), X[:10]])   # + exact copies
    labels = np.concatenate([labels, labels, labels[:10]])
    s = silhouette(X, labels, method="fast")
    np.testing.assert_allclose(s.samples, exact_silhouette(X, labels), rtol=0, atol=1e-10)
    np.testing.assert_allclose(s.samples, silhouette(X, labels, method="plain").samples,
                               rtol=0, atol=1e-10)


@pytest.mark.parametrize("rows_path", [False, True])
def test_gram_tiles_gather_their_points_only_for_near_duplicates(rows_path, small_tiles,
                                                                 monkeypatch):
    # a tile gets its row's and its panel's sides made once, and its points as
    # functions, called only when a near-duplicate pair is recomputed; a block of whole
    # rows makes its sides itself, from its points; a tile writes into its thread's
    # buffer, a block into a new array
    if rows_path:
        monkeypatch.setattr(sil_module, "_SUMS_BYTES", 0)
    calls, buffers, real = [], set(), sil_module._euclidean_gram

    def spy(XA, XB, centre, left=None, right=None, same=False, out=None):
        calls.append((callable(XA), callable(XB), left is None, right is None, out is None))
        if out is not None:
            buffers.add(id(out.base))
        return real(XA, XB, centre, left=left, right=right, same=same, out=out)

    monkeypatch.setattr(sil_module, "_euclidean_gram", spy)
    rng = np.random.default_rng(3)
    X, labels = _blobs(3, 90, 16, 3, offset=1e3)
    X = np.concatenate([X, X[:20] + 1e-7 * rng.standard_normal((20, 16))])
    labels = np.concatenate([labels, labels[:20]])
    s = silhouette(X, labels, method="fast")
    np.testing.assert_allclose(s.samples, exact_silhouette(X, labels), rtol=0, atol=1e-10)
    assert len(calls) > 1
    assert set(calls) == ({(False, False, True, True, True)} if rows_path else
                          {(True, True, False, False, False)})
    assert len(buffers) <= (0 if rows_path else sil_module._MAX_THREADS) < len(calls)


@pytest.mark.parametrize("tiles_per_panel", [1, 2, 3])
def test_panels_of_columns_give_the_exact_numbers(tiles_per_panel, small_tiles, monkeypatch):
    # The right sides of the Gram products are made a panel of columns at a time: with
    # panels of 1 to 3 tiles (of 37 points) the rows meet several panels, partly.
    dim = 30
    monkeypatch.setattr(sil_module, "_PANEL_BYTES", 8 * (dim + 2) * 37 * tiles_per_panel)
    rng = np.random.default_rng(tiles_per_panel)
    X, labels = _blobs(9, 80, dim, 4, offset=1e3)
    X = np.concatenate([X, X[:40] + 1e-7 * rng.standard_normal((40, dim))])
    labels = np.concatenate([labels, labels[:40]])
    s = silhouette(X, labels, method="fast")
    np.testing.assert_allclose(s.samples, exact_silhouette(X, labels), rtol=0, atol=1e-10)
    assert (s.nearest_cluster == silhouette(X, labels, method="plain").nearest_cluster).all()


# ------------------------------------------- clusters that cannot be the nearest
@st.composite
def clustered_points(draw):
    """Blobs from well apart to overlapping, at any offset, with exact duplicates."""
    seed = draw(st.integers(0, 10_000))
    k = draw(st.integers(3, 6))
    dim = draw(st.sampled_from([2, 5, 12, 40]))
    spread = draw(st.sampled_from([0.01, 0.3, 1.0, 5.0]))
    offset = draw(st.sampled_from([0.0, 1e3, -1e6]))
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-10, 10, (k, dim))
    labels = np.concatenate([np.arange(k), rng.integers(0, k, 40)])   # no empty cluster
    X = offset + centres[labels] + spread * rng.standard_normal((labels.shape[0], dim))
    X = np.concatenate([X, X[:6]])                                     # exact copies
    return X, np.concatenate([labels, labels[:6]])


def _candidates_in_order(X, labels) -> np.ndarray:
    """``_candidates`` of labels 0 ... k-1, its rows back in the points' order."""
    k = int(labels.max()) + 1
    order = np.argsort(labels, kind="stable")
    candidate = np.empty((len(labels), k), dtype=bool)
    candidate[order] = sil_module._candidates(X, labels, order,
                                              np.bincount(labels, minlength=k), k)
    return candidate


@settings(max_examples=60, deadline=None)
@given(clustered_points())
def test_candidates_hold_the_nearest_cluster_and_skip_what_the_bounds_skip(data):
    # the bounds may only skip clusters that are provably not the nearest
    from scipy.spatial.distance import cdist

    X, labels = data
    candidate = _candidates_in_order(X, labels)
    k, rows = candidate.shape[1], np.arange(len(labels))
    assert candidate[rows, labels].all()
    mean = np.stack([cdist(X, X[labels == c]).mean(axis=1) for c in range(k)], axis=1)
    mean[rows, labels] = np.inf
    best = mean.min(axis=1)
    tied = mean <= best[:, None] * (1 + 1e-12)          # every cluster at the minimum
    assert candidate[tied].all()
    # and they do skip: the docstring's bounds, computed directly - a cluster whose lower
    # bound is clearly above another's upper bound is skipped, one clearly below every
    # upper bound is kept (the rounding margins the code adds are far smaller)
    centroids = np.stack([X[labels == c].mean(axis=0) for c in range(k)])
    to_centroid = np.linalg.norm(X[:, None, :] - centroids[None], axis=2)     # |x - m|
    r2 = np.array([(to_centroid[labels == c, c] ** 2).mean() for c in range(k)])
    upper = np.sqrt(to_centroid**2 + r2)
    upper[rows, labels] = np.inf                           # b_i: the other clusters
    least_upper = upper.min(axis=1)[:, None]
    scale = 1e-6 * (1 + np.abs(X).max())
    skipped = to_centroid > least_upper + scale
    kept = to_centroid < least_upper - scale
    skipped[rows, labels], kept[rows, labels] = False, True    # a_i: always
    assert not candidate[skipped].any()
    assert candidate[kept].all()


def test_the_bounds_are_made_a_block_at_a_time_twice(monkeypatch):
    # the radii need every point's bound to its own centroid before any point's
    # candidates: the bounds of a block are made for the radii, then again for the
    # candidates, so no N x k bounds are held
    calls, real = [], sil_module._centroid_bounds

    def spy(Y, *args):
        lo, hi = real(Y, *args)
        calls.append(hi.shape)
        return lo, hi

    monkeypatch.setattr(sil_module, "_centroid_bounds", spy)
    monkeypatch.setattr(sil_module, "_GATHER_ROWS", 64)
    X, labels = _blobs(4, 300, 12, 5, spread=0.5)
    sizes = np.bincount(labels, minlength=5)
    order = np.argsort(labels, kind="stable")
    candidate = sil_module._candidates(X, labels, order, sizes, 5)
    blocks = [64, 64, 64, 64, 44]
    assert calls == [(m, 5) for m in blocks] * 2
    assert candidate.shape == (300, 5) and not candidate.all()  # far clusters skipped


def test_the_candidates_hold_no_n_by_k_bounds(monkeypatch):
    # peak memory of _candidates: the N x k one-hot labels giving the centroids (freed
    # first), then its N x k booleans (and their sorted copy) and blocks of 256 rows;
    # not the two N x k arrays of bounds (16 N k bytes) of before
    monkeypatch.setattr(sil_module, "_GATHER_ROWS", 256)
    n, k = 40_000, 8
    X, labels = _blobs(5, n, 3, k, spread=0.5)
    sizes = np.bincount(labels, minlength=k)
    order = np.argsort(labels, kind="stable")
    tracemalloc.start()
    candidate = sil_module._candidates(X, labels, order, sizes, k)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert candidate.shape == (n, k) and not candidate.all()
    assert peak < 8 * n * k * 1.25


@settings(max_examples=40, deadline=None)
@given(clustered_points(), st.sampled_from([1, 2, 5]))
def test_skipping_far_clusters_keeps_the_plain_numbers(data, per_cluster):
    X, labels = data
    with pytest.MonkeyPatch.context() as mp:               # tiles of 7 points
        mp.setattr(sil_module, "_PRUNE_POINTS_PER_CLUSTER", per_cluster)
        mp.setattr(sil_module, "_PRUNE_MIN_D", 1)
        mp.setattr(sil_module, "_GRAM_TILE_BYTES", 8 * 7 * 7)
        mp.setattr(sil_module, "_BLOCK_BYTES", 8 * 7 * 7)
        fast = silhouette(X, labels, method="fast")
    plain = silhouette(X, labels, method="plain")
    np.testing.assert_allclose(fast.samples, plain.samples, rtol=0, atol=1e-10)
    np.testing.assert_allclose(fast.b, plain.b, rtol=1e-12)
    np.testing.assert_allclose(fast.a, plain.a, rtol=1e-12)
    assert (fast.nearest_cluster == plain.nearest_cluster).all()


def test_far_clusters_are_skipped_and_the_numbers_are_exact(small_tiles, monkeypatch):
    # 6 blobs far apart, near duplicates at 1e3 from the origin: most pairs of clusters
    # are skipped (whole or for most rows), and s_i is the exact reference's
    monkeypatch.setattr(sil_module, "_PRUNE_POINTS_PER_CLUSTER", 4)
    monkeypatch.setattr(sil_module, "_PRUNE_MIN_D", 1)
    seen = []
    work = sil_module._work_with_candidates

    def spy(candidate, sizes, tile):
        seen.append(candidate.mean())
        return work(candidate, sizes, tile)

    monkeypatch.setattr(sil_module, "_work_with_candidates", spy)
    rng = np.random.default_rng(11)
    X, labels = _blobs(11, 120, 20, 6, spread=0.5, offset=1e3)
    X = np.concatenate([X, X[:30] + 1e-7 * rng.standard_normal((30, 20))])
    labels = np.concatenate([labels, labels[:30]])
    s = silhouette(X, labels, method="fast")
    assert seen and seen[0] < 0.5                      # fewer than half the distances
    np.testing.assert_allclose(s.samples, exact_silhouette(X, labels), rtol=0, atol=1e-10)
    plain = silhouette(X, labels, method="plain")
    assert (s.nearest_cluster == plain.nearest_cluster).all()


def test_float32_input_is_taken_exactly(small_tiles):
    X, labels = _blobs(3, 120, 30, 3, spread=1e-3)
    X32 = X.astype(np.float32)
    s = silhouette(X32, labels, method="fast")
    np.testing.assert_allclose(s.samples, exact_silhouette(X32.astype(np.float64), labels),
                               rtol=0, atol=1e-10)


def test_rows_path_equals_tiles(small_tiles, monkeypatch):
    X, labels = _blobs(8, 160, 20, 6)
    tiles = silhouette(X, labels, method="fast")
    monkeypatch.setattr(sil_module, "_SUMS_BYTES", 0)
    rows = silhouette(X, labels, method="fast")
    np.testing.assert_allclose(rows.samples, tiles.samples, rtol=0, atol=1e-13)
    assert (rows.nearest_cluster == tiles.nearest_cluster).all()


@pytest.mark.parametrize("metric", ["cityblock", "cosine", "chebyshev", "sqeuclidean"])
def test_other_metrics_equal_plain_with_tiles(metric, small_tiles):
    X, labels = _blobs(2, 130, 12, 5)
    fast = silhouette(X, labels, metric=metric, method="fast")
    plain = silhouette(X, labels, metric=metric, method="plain")
    np.testing.assert_allclose(fast.samples, plain.samples, rtol=0, atol=1e-12)
    assert (fast.nearest_cluster == plain.nearest_cluster).all()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(8, 60), st.sampled_from([0.0, 1e3, -1e6]))
def test_gram_distances_within_their_bound(seed, dim, offset):
    rng = np.random.default_rng(seed)
    XA = offset + rng.standard_normal((20, dim))
    XB = np.concatenate([XA[:5] + 1e-9 * rng.standard_normal((5, dim)),
                         offset + rng.standard_normal((15, dim))])
    centre = (XA.mean(axis=0) + XB.mean(axis=0)) / 2
    D = sil_module._euclidean_gram(XA, XB, centre)
    exact = np.array([[math.dist(x, y) for y in XB] for x in XA])
    bound = (dim + 2) * 2.0**-53 / sil_module._GRAM_RTOL     # the docstring's relative bound
    assert (np.abs(D - exact) <= bound * exact + 1e-300).all()
