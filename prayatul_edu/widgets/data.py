"""The apps' data, cached: toy data sets, their clusterings and distance matrices.

Every array returned is read-only, so that one cached result can be shared by
every app (and every update) that asks for it.
"""
from __future__ import annotations

import functools

import numpy as np

from .._threads import thread_pools
from ..toydata import cluster, make_dataset

__all__ = ["dataset", "clustering", "distances"]


@functools.lru_cache(maxsize=32)
def dataset(name: str, n_samples: int, noise: float, seed: int):
    """:func:`prayatul_edu.toydata.make_dataset`, cached (read-only arrays)."""
    X, y = make_dataset(name, n_samples=n_samples, noise=noise, random_state=seed)
    X.flags.writeable = False
    y.flags.writeable = False
    return X, y


@functools.lru_cache(maxsize=64)
def clustering(data: tuple, algorithm: str, n_clusters: int, eps: float) -> np.ndarray:
    """Labels of ``algorithm`` on ``dataset(*data)``, cached (read-only).

    Only the algorithm's main parameter is part of the key: DBSCAN ignores
    ``n_clusters`` and the others ignore ``eps``, so callers pass a neutral
    value for the unused one and changing it costs nothing.
    """
    X, _ = dataset(*data)
    # One thread: on a few thousand points threads gain little, and OpenMP threads
    # spin badly when the machine is busy (measured: 5 ms alone, up to 1 s when loaded).
    with thread_pools(scikit_learn=True).limit(limits=1):
        labels = cluster(X, algorithm, n_clusters=n_clusters, eps=eps, random_state=0)
    labels.flags.writeable = False
    return labels


@functools.lru_cache(maxsize=8)
def distances(data: tuple) -> np.ndarray:
    """The Euclidean distance matrix of ``dataset(*data)``, cached (read-only).

    Expanded from SciPy's condensed vector, so it is exactly symmetric with a zero
    diagonal: the apps may build trees of it without validating it
    (:func:`prayatul_edu.tree.agglomerative_prechecked`)."""
    from scipy.spatial.distance import pdist, squareform

    X, _ = dataset(*data)
    D = squareform(pdist(X))
    D.flags.writeable = False
    return D
