"""The fast silhouette gives the same bits whatever order its threads finish in.

Its tiles run on a few threads, and every point's sums to each cluster gather the
contributions of many tiles. Floating-point addition is not associative, so the
order of those additions must not follow the threads' timing: these tests run the
tasks in other orders (last first, shuffled, on 1 or 4 threads) on points whose
distances span many orders of magnitude, where a different order of the same
additions does change the last bits, and ask for identical arrays.
"""
import sys

import numpy as np
import pytest

from prayatul_edu import silhouette

sil_module = sys.modules["prayatul_edu.silhouette"]


def _spread_points(seed, n, dim, k, apart=False):
    """Blobs whose points sit at scales from 1e-6 to 1e6: sums of very unequal terms.
    ``apart``: their points 1e-6 to 8 from the centre instead, so that distances to far
    clusters can be skipped (for whole clusters, and for some rows only)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, n)
    centres = rng.uniform(-10, 10, (k, dim))
    if apart:
        return centres[labels] + (rng.standard_normal((n, dim))
                                  * 10.0 ** rng.uniform(-6, 0.9, (n, 1))), labels
    scale = 10.0 ** rng.uniform(-6, 6, (n, 1))
    return (centres[labels] + rng.standard_normal((n, dim))) * scale, labels


def _runner(order):
    """A stand-in for ``_run_blocks`` running the tasks in ``order(n)`` (as threads may
    finish) and handing their results on in the order of the tasks (as ``pool.map``)."""

    def run(task, starts, then=None):
        starts = list(starts)
        results = [None] * len(starts)
        for i in order(len(starts)):
            results[i] = task(starts[i])
        if then is not None:
            for result in results:
                then(result)

    return run


_LAST_FIRST = _runner(lambda n: range(n - 1, -1, -1))
_SHUFFLED = _runner(lambda n: np.random.default_rng(n).permutation(n))


def _summed_as_finished(task, starts, then=None):
    """Last first, each result handed on as soon as it is there: what summing in the
    order the threads finish would do."""
    for start in reversed(list(starts)):
        result = task(start)
        if then is not None:
            then(result)

CASES = {                                        # metric, dimension, pruning
    "gram": ("euclidean", 12, False),
    "gram, far clusters skipped": ("euclidean", 12, True),
    "cdist": ("euclidean", 3, False),
    "cityblock": ("cityblock", 5, False),
    "precomputed": ("precomputed", 4, False),
}


def _data(case):
    metric, dim, prune = CASES[case]
    X, labels = _spread_points(len(case), 240, dim, 6 if prune else 4, apart=prune)
    if metric == "precomputed":
        from scipy.spatial.distance import cdist

        X = cdist(X, X)
    return X, labels, metric, prune


def _with_tiles(monkeypatch, prune):
    monkeypatch.setattr(sil_module, "_GRAM_TILE_BYTES", 8 * 11 * 11)
    monkeypatch.setattr(sil_module, "_BLOCK_BYTES", 8 * 11 * 11)
    if prune:
        monkeypatch.setattr(sil_module, "_PRUNE_POINTS_PER_CLUSTER", 4)
        monkeypatch.setattr(sil_module, "_PRUNE_MIN_D", 1)


def _same_bits(s, t):
    assert np.array_equal(s.a, t.a, equal_nan=True)
    assert np.array_equal(s.b, t.b)
    assert np.array_equal(s.samples, t.samples)
    assert (s.nearest_cluster == t.nearest_cluster).all()


@pytest.mark.parametrize("runner", [_LAST_FIRST, _SHUFFLED], ids=["last first", "shuffled"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_order_the_tasks_finish_in_changes_no_bit(case, runner, monkeypatch):
    X, labels, metric, prune = _data(case)

    def fast(run=None):
        _with_tiles(monkeypatch, prune)
        if run is not None:
            monkeypatch.setattr(sil_module, "_run_blocks", run)
        s = silhouette(X, labels, metric=metric, method="fast")
        monkeypatch.undo()
        return s

    if prune:                    # whole pairs of clusters skipped, and rows of some
        k, order = 6, np.argsort(labels, kind="stable")
        sizes = np.bincount(labels, minlength=k)
        work = sil_module._work_with_candidates(
            sil_module._candidates(X, labels, order, sizes, k), sizes, 11)
        assert not work[1].all() and work[2]
    in_order = fast(_runner(range))
    _same_bits(fast(runner), in_order)
    _same_bits(fast(), in_order)                         # the module's own threads
    # and the inputs are ones where the order of the same additions shows in the bits
    as_finished = fast(_summed_as_finished)
    assert not np.array_equal(as_finished.a, in_order.a, equal_nan=True)
    np.testing.assert_allclose(as_finished.a, in_order.a, rtol=1e-13)


@pytest.mark.parametrize("threads", [2, 4])
def test_one_thread_or_several_give_the_same_bits(threads, monkeypatch):
    X, labels, metric, prune = _data("gram")

    def fast(n_threads):
        _with_tiles(monkeypatch, prune)
        monkeypatch.setattr(sil_module, "_MAX_THREADS", n_threads)
        monkeypatch.setattr(sil_module, "_n_threads", lambda blocks: min(n_threads, blocks))
        s = silhouette(X, labels, metric=metric, method="fast")
        monkeypatch.undo()
        return s

    one = fast(1)
    for _ in range(3):
        _same_bits(fast(threads), one)
