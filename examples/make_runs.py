#!/usr/bin/env python3
"""Write ``examples/runs.csv``: the README's sample file for ``prayatul-edu compare``.

    python examples/make_runs.py

The iris data set that scikit-learn ships (150 flowers, 3 species; R. A. Fisher, 1936),
clustered by four algorithms on the standardized measurements. The file is written as a
researcher's pandas script writes it, ``DataFrame.to_csv()`` with its default index (an
unnamed first column), so the README's commands show what ``compare`` does with one:

* ``class``: the species, the truth (``--truth class``);
* ``kmeans``, ``agglomerative``, ``gaussian_mixture``, ``dbscan``: one clustering each
  (DBSCAN's noise is the label -1);
* ``petal_length``, ``petal_width``: two measurements in cm (left out as coordinates,
  or drawn with ``--xy petal_length petal_width``).

Fixed seeds: the same scikit-learn writes the same file.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.cluster import DBSCAN, AgglomerativeClustering, KMeans
from sklearn.datasets import load_iris
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import StandardScaler

OUT = Path(__file__).resolve().parent / "runs.csv"


def make_runs() -> pd.DataFrame:
    iris = load_iris()
    X = StandardScaler().fit_transform(iris.data)
    return pd.DataFrame({
        "class": iris.target_names[iris.target],
        "kmeans": KMeans(n_clusters=3, n_init=10, random_state=0).fit_predict(X),
        "agglomerative": AgglomerativeClustering(n_clusters=3).fit_predict(X),
        "gaussian_mixture": GaussianMixture(n_components=3, random_state=0).fit(X).predict(X),
        "dbscan": DBSCAN(eps=0.8, min_samples=5).fit_predict(X),
        "petal_length": iris.data[:, 2],
        "petal_width": iris.data[:, 3],
    })


if __name__ == "__main__":
    make_runs().to_csv(OUT)           # pandas' default: the index as an unnamed first column
    print(f"wrote {OUT.name}")
