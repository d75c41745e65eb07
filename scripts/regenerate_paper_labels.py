#!/usr/bin/env python3
"""Regenerate the labels of the Prayatul paper's experiments (Tables I-III).

The paper clusters scikit-learn's "comparing different clustering algorithms on
toy datasets" data as that example stood in scikit-learn 1.1/1.2. Later
versions give other labels, so this script must run in a separate environment
with the old versions, which install on Python 3.11:

    python3 -m venv paper-env
    paper-env/bin/pip install "scikit-learn==1.1.3" "numpy==1.23.5" "scipy==1.9.3"
    paper-env/bin/python scripts/regenerate_paper_labels.py prayatul_edu/data/paper_labels.npz

What it reproduces (the example's order matters: every call below draws on
NumPy's global random state):

* ``np.random.seed(0)``, then the example's six data sets in its order - noisy
  circles, noisy moons, blobs, no structure, aniso, varied - with 1500 samples,
  each standardised;
* only noisy circles, noisy moons and aniso are clustered, in that order, with
  ``MiniBatchKMeans(n_clusters, n_init=3, batch_size=1024)`` fitted before
  ``SpectralClustering(n_clusters, eigen_solver="arpack",
  affinity="nearest_neighbors")``, ``DBSCAN(eps)`` with the default
  ``min_samples`` (eps 0.3, 0.3, 0.15) and ``Birch(n_clusters)``; n_clusters is
  2, 2, 3.
"""
from __future__ import annotations

import sys

import numpy as np


def main(out_path: str) -> None:
    import sklearn
    from sklearn import cluster, datasets
    from sklearn.preprocessing import StandardScaler

    np.random.seed(0)
    n_samples = 1500
    noisy_circles = datasets.make_circles(n_samples=n_samples, factor=0.5, noise=0.05)
    noisy_moons = datasets.make_moons(n_samples=n_samples, noise=0.05)
    blobs = datasets.make_blobs(n_samples=n_samples, random_state=8)  # noqa: F841 (kept for the order)
    no_structure = np.random.rand(n_samples, 2), None  # noqa: F841 (draws on the global state)
    X, y = datasets.make_blobs(n_samples=n_samples, random_state=170)
    aniso = (np.dot(X, [[0.6, -0.6], [-0.4, 0.8]]), y)
    varied = datasets.make_blobs(n_samples=n_samples, cluster_std=[1.0, 2.5, 0.5],  # noqa: F841
                                 random_state=170)

    runs = [("noisy_circles", noisy_circles, 2, 0.3),
            ("noisy_moons", noisy_moons, 2, 0.3),
            ("aniso", aniso, 3, 0.15)]
    arrays = {}
    for name, (X, y), n_clusters, eps in runs:
        X = StandardScaler().fit_transform(X)
        kmeans = cluster.MiniBatchKMeans(n_clusters=n_clusters, n_init=3, batch_size=1024)
        spectral = cluster.SpectralClustering(n_clusters=n_clusters, eigen_solver="arpack",
                                              affinity="nearest_neighbors")
        dbscan = cluster.DBSCAN(eps=eps)
        birch = cluster.Birch(n_clusters=n_clusters)
        labels = {}
        for algo_name, algo in [("KMeans", kmeans), ("Spectral", spectral),
                                ("DBSCAN", dbscan), ("BIRCH", birch)]:
            algo.fit(X)
            labels[algo_name] = algo.labels_.astype(np.int64)
        arrays[f"{name}/X"] = X
        arrays[f"{name}/truth"] = y.astype(np.int64)
        for algo_name, lab in labels.items():
            arrays[f"{name}/{algo_name}"] = lab
    arrays["versions"] = np.array([f"scikit-learn {sklearn.__version__}",
                                   f"numpy {np.__version__}",
                                   f"python {sys.version.split()[0]}"])
    np.savez_compressed(out_path, **arrays)
    print(f"wrote {out_path} with scikit-learn {sklearn.__version__}, numpy {np.__version__}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
