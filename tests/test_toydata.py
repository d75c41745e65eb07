"""Toy data sets and algorithms (prayatul_edu.toydata): determinism, shapes, errors."""
import numpy as np
import pytest

from prayatul_edu import adjusted_rand_index
from prayatul_edu.toydata import (ALGORITHMS, DATASETS, cluster, default_n_clusters,
                                  make_algorithm, make_dataset)


@pytest.mark.parametrize("name", list(DATASETS))
def test_every_data_set_is_deterministic_standardised_and_has_its_clusters(name):
    X, y = make_dataset(name, n_samples=120, random_state=3)
    X2, y2 = make_dataset(name, n_samples=120, random_state=3)
    assert X.shape == (120, 2) and y.shape == (120,) and y.dtype == np.int64
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    assert not np.array_equal(X, make_dataset(name, n_samples=120, random_state=4)[0])
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(axis=0), 1, atol=1e-12)
    assert len(set(y.tolist())) == DATASETS[name][1] == default_n_clusters(name)


def test_noise_moves_circles_and_moons_but_not_blobs():
    a, _ = make_dataset("noisy_moons", n_samples=50, noise=0.0)
    b, _ = make_dataset("noisy_moons", n_samples=50, noise=0.2)
    assert not np.allclose(a, b)
    c, _ = make_dataset("blobs", n_samples=50, noise=0.0)
    d, _ = make_dataset("blobs", n_samples=50, noise=0.2)
    assert np.array_equal(c, d)


@pytest.mark.parametrize("kwargs, argument, error", [
    ({"name": "spirals"}, "name", ValueError),
    ({"name": "blobs", "n_samples": 5}, "n_samples", ValueError),
    ({"name": "blobs", "n_samples": 20.0}, "n_samples", ValueError),
    ({"name": "blobs", "noise": -0.1}, "noise", ValueError),
    ({"name": "blobs", "noise": "a lot"}, "noise", TypeError),
])
def test_make_dataset_errors_name_the_argument(kwargs, argument, error):
    with pytest.raises(error, match=f"^{argument}:"):
        make_dataset(**kwargs)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_make_algorithm_sets_the_main_parameter(name):
    algorithm = make_algorithm(name, n_clusters=4, eps=0.7)
    params = algorithm.get_params()
    if name == "DBSCAN":
        assert params["eps"] == 0.7
    else:
        assert params.get("n_clusters", params.get("n_components")) == 4


@pytest.mark.parametrize("kwargs, argument, error", [
    ({"name": "KNN"}, "name", ValueError),
    ({"name": "KMeans", "n_clusters": 0}, "n_clusters", ValueError),
    ({"name": "BIRCH", "n_clusters": True}, "n_clusters", ValueError),
    ({"name": "DBSCAN", "eps": 0}, "eps", ValueError),
    ({"name": "DBSCAN", "eps": "small"}, "eps", TypeError),
])
def test_make_algorithm_errors_name_the_argument(kwargs, argument, error):
    with pytest.raises(error, match=f"^{argument}:"):
        make_algorithm(**kwargs)


@pytest.mark.parametrize("name", ["KMeans", "BIRCH", "Agglomerative", "GaussianMixture"])
def test_cluster_finds_well_separated_blobs_deterministically(name):
    X, y = make_dataset("blobs", n_samples=150, random_state=1)
    labels = cluster(X, name, n_clusters=3)
    assert labels.shape == (150,) and labels.dtype == np.int64
    assert len(set(labels.tolist())) == 3
    assert np.array_equal(labels, cluster(X, name, n_clusters=3))
    assert adjusted_rand_index(y, labels) > 0.6


def test_dbscan_recovers_the_moons_and_marks_noise_with_minus_one():
    X, y = make_dataset("noisy_moons", n_samples=300, random_state=0)
    assert adjusted_rand_index(y, cluster(X, "DBSCAN", eps=0.3)) == 1.0
    tiny = cluster(X, "DBSCAN", eps=0.01)
    assert (tiny == -1).all()                 # nobody has 5 neighbours that close


def test_the_blobs_are_not_called_well_separated_where_k_means_mixes_them():
    """Notebook 09 reads seed 0's blobs as overlapping; the data set's own words agree."""
    X, y = make_dataset("blobs", n_samples=300, random_state=0)
    assert adjusted_rand_index(y, cluster(X, "KMeans", n_clusters=3)) < 0.9
    assert "well separated" not in DATASETS["blobs"][0]
    assert "overlap" in DATASETS["blobs"][0]
