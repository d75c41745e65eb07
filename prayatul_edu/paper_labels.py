"""The Prayatul paper's experiment: its setup, and the labels it produced.

A. Biswas (2023) compares KMeans, DBSCAN, Spectral and BIRCH on three of
scikit-learn's toy data sets (Noisy Circles, Noisy Moons, Aniso) with 1500
points each. Re-running the setup established what the paper actually ran -
its text garbles several parameters:

* the data and algorithms are scikit-learn's example "comparing different
  clustering algorithms on toy datasets" as it stood in scikit-learn 1.1/1.2:
  ``np.random.seed(0)``, then the example's six data sets in its order (noisy
  circles, noisy moons, blobs, no structure, aniso, varied), each standardised;
  only circles, moons and aniso are clustered, in that order;
* "KMeans" is ``MiniBatchKMeans(n_clusters, n_init=3, batch_size=1024)``, fitted
  before ``SpectralClustering(n_clusters, eigen_solver="arpack",
  affinity="nearest_neighbors")`` (both draw on the global random state);
  ``DBSCAN(eps)`` keeps its default ``min_samples`` (5), with eps 0.3 for circles
  and moons and 0.15 for aniso; ``Birch(n_clusters)``; n_clusters is 2, 2, 3;
  DBSCAN's noise label -1 is one more cluster;
* scikit-learn 1.1.x and 1.2.x give the paper's labels, later versions others.

The labels of that run (scikit-learn 1.1.3, NumPy 1.23.5, SciPy 1.9.3) ship with
the package (``data/paper_labels.npz``, made by
``scripts/regenerate_paper_labels.py``): :func:`load_labels` reads them;
:func:`generate_labels` runs the same setup with the installed scikit-learn
(the lesson in reproducibility of notebook 07). The published tables and the
check of ours against them are in :mod:`prayatul_edu.paper`.
"""
from __future__ import annotations

import sys
import warnings
from importlib import resources

import numpy as np

from ._threads import thread_pools

__all__ = ["DATASETS", "ALGORITHMS", "SETUP", "TITLES", "load_labels", "nest_labels",
           "generate_labels"]

#: The clustered data sets, in the order the example generates and clusters them.
DATASETS = ("noisy_circles", "noisy_moons", "aniso")
#: Their titles in tables and figures.
TITLES = {"noisy_circles": "Noisy Circles", "noisy_moons": "Noisy Moons", "aniso": "Aniso"}
#: The algorithms in the paper's table order.
ALGORITHMS = ("BIRCH", "DBSCAN", "KMeans", "Spectral")
#: What really ran: data set -> (n_clusters, DBSCAN's eps).
SETUP = {"noisy_circles": (2, 0.3), "noisy_moons": (2, 0.3), "aniso": (3, 0.15)}


def load_labels() -> dict:
    """The paper's labels as shipped: ``{data set: {"X", "truth", algorithm...}}``.

    Also ``["versions"]``: the library versions that produced them.

    Examples
    --------
    >>> from prayatul_edu.paper_labels import load_labels
    >>> labels = load_labels()
    >>> labels["aniso"]["X"].shape, sorted(set(labels["aniso"]["DBSCAN"].tolist()))
    ((1500, 2), [-1, 0, 1, 2, 3])
    >>> str(labels["versions"][0])
    'scikit-learn 1.1.3'
    """
    with resources.files("prayatul_edu").joinpath("data/paper_labels.npz").open("rb") as f:
        with np.load(f) as npz:
            arrays = {k: npz[k] for k in npz.files}
    return nest_labels(arrays)


def nest_labels(arrays: dict) -> dict:
    """The npz layout (``"aniso/X"``, ...) nested as ``{data set: {"X", "truth", ...}}``."""
    out: dict = {"versions": [str(v) for v in arrays.get("versions", [])]}
    for key, value in arrays.items():
        if "/" in key:
            dataset, name = key.split("/", 1)
            out.setdefault(dataset, {})[name] = value
    return out


def generate_labels(n_samples: int = 1500, *, progress=None) -> dict:
    """Run the paper's experiment with the *installed* scikit-learn; the npz layout.

    Returns ``{"noisy_circles/X": ..., "noisy_circles/truth": ...,
    "noisy_circles/KMeans": ..., ..., "versions": ...}``. The calls, their order
    and NumPy's global seed are those of the scikit-learn example (see the module
    docstring); the global random state is restored afterwards. ``progress``, if
    given, is called as ``progress(data set, algorithm)`` before each fit.
    ``scripts/regenerate_paper_labels.py`` runs this with scikit-learn 1.1.3.

    Examples
    --------
    Twelve clusterings (a few seconds; the shipped labels are :func:`load_labels`'s):

    >>> from prayatul_edu.paper import generate_labels
    >>> labels = generate_labels(n_samples=150)          # doctest: +SKIP
    >>> labels["noisy_moons/KMeans"].shape               # doctest: +SKIP
    (150,)
    """
    import scipy
    import sklearn
    from sklearn import cluster, datasets
    from sklearn.preprocessing import StandardScaler

    saved = np.random.get_state()
    # One thread: on 1,500 points the OpenMP and BLAS pools only wait for each other
    # (measured side by side on a busy 2-core machine: 12-19 s of wall time, 3.2-4.1 s
    # of CPU, with the default pools; 0.8-1.1 s and 0.2-0.3 s with one thread; the same
    # labels)
    limit = thread_pools(scikit_learn=True).limit(limits=1)
    try:
        np.random.seed(0)
        n = n_samples
        made = {"noisy_circles": datasets.make_circles(n_samples=n, factor=0.5, noise=0.05),
                "noisy_moons": datasets.make_moons(n_samples=n, noise=0.05)}
        datasets.make_blobs(n_samples=n, random_state=8)      # blobs: kept for the order
        np.random.rand(n, 2)                                  # no structure: draws globally
        X, y = datasets.make_blobs(n_samples=n, random_state=170)
        made["aniso"] = (np.dot(X, [[0.6, -0.6], [-0.4, 0.8]]), y)
        # (varied comes last and draws nothing global: not needed)
        arrays = {}
        for name in DATASETS:
            X, y = made[name]
            X = StandardScaler().fit_transform(X)
            n_clusters, eps = SETUP[name]
            algorithms = [   # constructed in the example's order, fitted in this order
                ("KMeans", cluster.MiniBatchKMeans(n_clusters=n_clusters, n_init=3,
                                                   batch_size=1024)),
                ("Spectral", cluster.SpectralClustering(n_clusters=n_clusters,
                                                        eigen_solver="arpack",
                                                        affinity="nearest_neighbors")),
                ("DBSCAN", cluster.DBSCAN(eps=eps)),
                ("BIRCH", cluster.Birch(n_clusters=n_clusters))]
            arrays[f"{name}/X"] = X
            arrays[f"{name}/truth"] = np.asarray(y, dtype=np.int64)
            for algorithm, estimator in algorithms:
                if progress is not None:
                    progress(name, algorithm)
                with warnings.catch_warnings():
                    # "Graph is not fully connected": the example shows the result anyway.
                    warnings.simplefilter("ignore", UserWarning)
                    estimator.fit(X)
                arrays[f"{name}/{algorithm}"] = estimator.labels_.astype(np.int64)
    finally:
        limit.restore_original_limits()
        np.random.set_state(saved)
    arrays["versions"] = np.array([f"scikit-learn {sklearn.__version__}",
                                   f"numpy {np.__version__}", f"scipy {scipy.__version__}",
                                   f"python {sys.version.split()[0]}"])
    return arrays
