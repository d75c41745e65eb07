"""Toy data sets and clustering algorithms for the demos, apps and experiments.

The data sets are those of scikit-learn's "comparing different clustering
algorithms on toy datasets" example, which the Prayatul paper uses: noisy
circles, noisy moons, anisotropic blobs and blobs of varied variance, each
standardised. Everything is generated here (nothing is downloaded) and
deterministic for a given ``random_state``.

scikit-learn is imported inside the functions, so ``import prayatul_edu``
stays light.
"""
from __future__ import annotations

import numpy as np

from ._validation import check_choice, check_real

__all__ = ["DATASETS", "ALGORITHMS", "make_dataset", "make_algorithm", "cluster",
           "default_n_clusters"]

#: Data set name -> (description, natural number of clusters).
DATASETS = {
    "noisy_circles": ("two concentric noisy circles", 2),
    "noisy_moons": ("two interleaving noisy half moons", 2),
    "aniso": ("three anisotropic (sheared) Gaussian blobs", 3),
    "varied": ("three Gaussian blobs of varied variance", 3),
    "blobs": ("three Gaussian blobs of equal spread; whether they overlap depends on the seed", 3),
}

#: Algorithm name -> (description, name of its main parameter).
ALGORITHMS = {
    "KMeans": ("k-means (mini-batch, as in the paper)", "n_clusters"),
    "DBSCAN": ("density-based; noise gets label -1", "eps"),
    "Spectral": ("spectral clustering on a nearest-neighbour graph", "n_clusters"),
    "BIRCH": ("balanced iterative reducing and clustering using hierarchies", "n_clusters"),
    "Agglomerative": ("agglomerative clustering, average linkage", "n_clusters"),
    "GaussianMixture": ("Gaussian mixture model, full covariance", "n_clusters"),
}


def default_n_clusters(dataset: str) -> int:
    """The number of clusters the data set was generated with.

    Examples
    --------
    >>> from prayatul_edu.toydata import default_n_clusters
    >>> default_n_clusters("noisy_moons"), default_n_clusters("aniso")
    (2, 3)
    """
    check_choice(dataset, "dataset", DATASETS)
    return DATASETS[dataset][1]


def make_dataset(name: str, n_samples: int = 1500, noise: float = 0.05,
                 random_state: int = 0):
    """Generate a standardised toy data set: ``(X, y)`` with X of shape (n_samples, 2).

    Parameters
    ----------
    name : {"noisy_circles", "noisy_moons", "aniso", "varied", "blobs"}
    n_samples : int
        Number of points (at least 10).
    noise : float
        Standard deviation of the Gaussian noise of circles and moons (ignored
        by the blob data sets, whose spread is fixed as in scikit-learn's example).
        The ``"blobs"`` are scikit-learn's ``make_blobs`` defaults: three centres drawn
        at random, so two blobs may touch (with ``random_state=0`` two of them overlap,
        and k-means recovers them only in part: notebook 09).
    random_state : int
        Seed: the same seed always gives the same data.

    Examples
    --------
    >>> from prayatul_edu.toydata import make_dataset
    >>> X, y = make_dataset("noisy_moons", n_samples=100, random_state=1)
    >>> X.shape, sorted(set(y.tolist()))
    ((100, 2), [0, 1])
    """
    check_choice(name, "name", DATASETS)
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 10:
        raise ValueError(f"n_samples: must be a whole number >= 10, got {n_samples!r}")
    noise = check_real(noise, "noise")
    if noise < 0:
        raise ValueError(f"noise: must be >= 0, got {noise}")
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    n = int(n_samples)
    if name == "noisy_circles":
        X, y = datasets.make_circles(n_samples=n, factor=0.5, noise=noise, random_state=random_state)
    elif name == "noisy_moons":
        X, y = datasets.make_moons(n_samples=n, noise=noise, random_state=random_state)
    elif name == "aniso":
        X, y = datasets.make_blobs(n_samples=n, random_state=random_state)
        X = X @ np.array([[0.6, -0.6], [-0.4, 0.8]])
    elif name == "varied":
        X, y = datasets.make_blobs(n_samples=n, cluster_std=[1.0, 2.5, 0.5],
                                   random_state=random_state)
    else:
        X, y = datasets.make_blobs(n_samples=n, random_state=random_state)
    return StandardScaler().fit_transform(X), y.astype(np.int64)


def make_algorithm(name: str, *, n_clusters: int = 2, eps: float = 0.3,
                   random_state: int | None = 0):
    """A scikit-learn estimator configured as in the paper's experiments.

    ``name`` is one of :data:`ALGORITHMS`. ``n_clusters`` is the main parameter
    of all but DBSCAN, whose main parameter is ``eps``.

    Examples
    --------
    >>> from prayatul_edu.toydata import make_algorithm
    >>> make_algorithm("DBSCAN", eps=0.25)
    DBSCAN(eps=0.25)
    >>> type(make_algorithm("KMeans", n_clusters=3)).__name__   # mini-batch, as the paper
    'MiniBatchKMeans'
    """
    check_choice(name, "name", ALGORITHMS)
    from sklearn import cluster, mixture

    if name == "DBSCAN":
        eps = check_real(eps, "eps", positive=True)
        return cluster.DBSCAN(eps=eps)
    if isinstance(n_clusters, bool) or not isinstance(n_clusters, (int, np.integer)) or n_clusters < 1:
        raise ValueError(f"n_clusters: must be a whole number >= 1, got {n_clusters!r}")
    k = int(n_clusters)
    if name == "KMeans":
        return cluster.MiniBatchKMeans(n_clusters=k, n_init=3, batch_size=1024,
                                       random_state=random_state)
    if name == "Spectral":
        return cluster.SpectralClustering(n_clusters=k, eigen_solver="arpack",
                                          affinity="nearest_neighbors",
                                          random_state=random_state)
    if name == "BIRCH":
        return cluster.Birch(n_clusters=k)
    if name == "Agglomerative":
        return cluster.AgglomerativeClustering(n_clusters=k, linkage="average")
    return mixture.GaussianMixture(n_components=k, covariance_type="full",
                                   random_state=random_state)


def cluster(X, name: str, *, n_clusters: int = 2, eps: float = 0.3,
            random_state: int | None = 0) -> np.ndarray:
    """Run algorithm ``name`` on ``X`` and return its labels (DBSCAN noise is -1).

    Examples
    --------
    >>> from prayatul_edu.toydata import make_dataset, cluster
    >>> X, y = make_dataset("blobs", n_samples=60, random_state=0)
    >>> labels = cluster(X, "KMeans", n_clusters=3)
    >>> labels.shape
    (60,)
    """
    import warnings

    algorithm = make_algorithm(name, n_clusters=n_clusters, eps=eps, random_state=random_state)
    with warnings.catch_warnings():
        # Spectral clustering warns when the k-NN graph is not connected; the
        # clustering is still well defined and the apps show the result.
        warnings.simplefilter("ignore", UserWarning)
        if name == "GaussianMixture":
            return algorithm.fit(X).predict(X).astype(np.int64)
        return algorithm.fit(X).labels_.astype(np.int64)
