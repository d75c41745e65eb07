"""choose_k and the gap statistic: blobs, structureless data, the table's numbers."""
import numpy as np
import pytest

import prayatul_edu as pe
from prayatul_edu import choose_k, gap_statistic

pytest.importorskip("sklearn")


def _kmeans(X, k):
    from sklearn.cluster import KMeans

    return KMeans(k, n_init=3, random_state=0).fit_predict(X)


def _blobs(seed=0, per=50):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [10, 0], [0, 10]])
    y = np.repeat([0, 1, 2], per)
    return centres[y] + rng.normal(size=(3 * per, 2)), y


def test_every_criterion_finds_three_blobs():
    X, _ = _blobs()
    ck = choose_k(X, _kmeans, ks=range(2, 6), n_resamples=4, n_references=5, seed=0)
    assert ck.preferred == {c: 3 for c in pe.relative.CRITERIA}
    assert list(ck.table) == list(pe.relative.CRITERIA)
    assert all(v.shape == (4,) for v in ck.table.values())
    assert "Every criterion prefers k = 3" in ck.explain()


def test_table_holds_the_measures_of_the_procedures_labels():
    X, _ = _blobs(1)
    ck = choose_k(X, _kmeans, ks=[2, 3, 4], criteria=["davies_bouldin", "silhouette", "dunn",
                                                      "calinski_harabasz"])
    assert list(ck.table) == ["davies_bouldin", "silhouette", "dunn", "calinski_harabasz"]
    for i, k in enumerate([2, 3, 4]):
        labels = ck.labels[k]
        assert ck.table["silhouette"][i] == float(pe.silhouette(X, labels))
        assert ck.table["calinski_harabasz"][i] == float(pe.calinski_harabasz(X, labels))
        assert ck.table["davies_bouldin"][i] == float(pe.davies_bouldin(X, labels))
        assert ck.table["dunn"][i] == float(pe.dunn_index(X, labels))
    # Davies-Bouldin: lower is better; the others: higher
    assert ck.preferred["davies_bouldin"] == [2, 3, 4][int(np.argmin(ck.table["davies_bouldin"]))]
    assert ck.preferred["dunn"] == [2, 3, 4][int(np.argmax(ck.table["dunn"]))]


def test_one_cluster_is_undefined_for_the_internal_criteria():
    X, _ = _blobs(2)
    ck = choose_k(X, _kmeans, ks=[1, 2, 3], criteria=["silhouette", "stability", "gap"],
                  n_resamples=3, n_references=5, seed=0)
    assert np.isnan(ck.table["silhouette"][0]) and np.isnan(ck.table["stability"][0])
    assert ck.preferred == {"silhouette": 3, "stability": 3, "gap": 3}


def test_stability_column_is_the_stability_of_the_procedure():
    X, _ = _blobs(3)
    ck = choose_k(X, _kmeans, ks=[3, 6], criteria=["stability"], n_resamples=4, seed=5)
    assert ck.table["stability"][0] > 0.9 > ck.table["stability"][1]


def test_gap_prefers_one_cluster_on_structureless_data():
    X = np.random.default_rng(0).uniform(size=(200, 2))
    gap = gap_statistic(X, _kmeans, ks=[1, 2, 3, 4], n_references=10, seed=1)
    assert gap.best_k == 1 and gap.rule_met
    assert gap.gap[0] >= gap.gap[1] - gap.se[1]


def test_gap_rule_by_its_numbers():
    X, _ = _blobs(4)
    gap = gap_statistic(X, _kmeans, ks=range(1, 6), n_references=8, seed=2)
    i = gap.ks.index(gap.best_k)
    assert gap.best_k == 3
    assert gap.gap[i] >= gap.gap[i + 1] - gap.se[i + 1]            # the rule holds at k ...
    assert all(gap.gap[j] < gap.gap[j + 1] - gap.se[j + 1] for j in range(i))  # ... first
    # Gap(k) = mean_b log2 W*_kb - log2 W_k, s_k = sd_k sqrt(1 + 1/B)
    np.testing.assert_allclose(gap.gap, gap.log_w_reference.mean(axis=0) - gap.log_w,
                               atol=1e-12)
    np.testing.assert_allclose(gap.se, gap.log_w_reference.std(axis=0) * np.sqrt(1 + 1 / 8),
                               atol=1e-12)
    # log2 W_k of the data: the within-cluster scatter of the procedure's labels
    labels = _kmeans(X, 3)
    assert gap.log_w[2] == pytest.approx(np.log2(pe.calinski_harabasz(X, labels).within),
                                         rel=1e-12)


def test_gap_falls_back_to_the_largest_gap():
    X, _ = _blobs(5)
    gap = gap_statistic(X, _kmeans, ks=[1, 2], n_references=5, seed=0)   # k = 3 not tried
    assert not gap.rule_met and gap.best_k == 2
    assert "No k of the range meets the rule" in gap.explain()


def test_same_seed_same_table():
    X, _ = _blobs(6)
    a = choose_k(X, _kmeans, ks=[2, 3], criteria=["stability", "gap"], n_resamples=3,
                 n_references=3, seed=9)
    b = choose_k(X, _kmeans, ks=[2, 3], criteria=["stability", "gap"], n_resamples=3,
                 n_references=3, seed=9)
    for c in a.table:
        np.testing.assert_array_equal(a.table[c], b.table[c])


# ------------------------------------------------ the elbow, k = 1, estimators
def test_elbow_by_its_numbers():
    X, _ = _blobs(7)
    ck = choose_k(X, _kmeans, ks=range(1, 7), criteria=["elbow"])
    W = np.array([pe.calinski_harabasz(X, ck.labels[k]).within if k > 1 else
                  ((X - X.mean(axis=0)) ** 2).sum() for k in ck.ks])
    np.testing.assert_allclose(ck.within, W, rtol=1e-12)
    logw = np.log2(W)
    bend = [(logw[i - 1] - logw[i]) - (logw[i] - logw[i + 1]) for i in range(1, 5)]
    np.testing.assert_allclose(ck.table["elbow"][1:5], bend, rtol=1e-12)
    assert np.isnan(ck.table["elbow"][[0, 5]]).all()         # no neighbour on one side
    assert ck.preferred["elbow"] == 3


def test_elbow_needs_both_neighbours_in_ks():
    X, _ = _blobs(8)
    ck = choose_k(X, _kmeans, ks=[1, 2, 3, 5, 6], criteria=["elbow"])
    assert np.isnan(ck.table["elbow"][[0, 2, 3, 4]]).all() and ck.preferred["elbow"] == 2
    ck = choose_k(X, _kmeans, ks=[2, 4, 6], criteria=["elbow"])
    assert ck.preferred["elbow"] is None


def test_default_ks_start_at_one_and_gap_can_answer_one():
    from sklearn.cluster import KMeans

    G = np.random.default_rng(0).normal(size=(200, 2))        # one Gaussian: no clusters
    ck = choose_k(G, KMeans(n_init=2, random_state=0), criteria=["gap", "silhouette"],
                  n_references=10, random_state=0)
    assert ck.ks == list(range(1, 9))
    assert ck.preferred["gap"] == 1
    assert np.isnan(ck.table["silhouette"][0]) and ck.preferred["silhouette"] > 1
    X, _ = _blobs(9)
    ck = choose_k(X, KMeans(n_init=2, random_state=0), criteria=["gap", "elbow"],
                  n_references=10, random_state=0)
    assert ck.preferred == {"gap": 3, "elbow": 3}


def test_an_estimator_is_cloned_with_n_clusters_set():
    from sklearn.cluster import KMeans
    from sklearn.mixture import GaussianMixture

    X, _ = _blobs(10)
    est = KMeans(n_init=3, random_state=0)
    ck = choose_k(X, est, ks=[2, 3, 4], criteria=["silhouette", "stability"],
                  n_resamples=3, seed=1)
    by_function = choose_k(X, _kmeans, ks=[2, 3, 4], criteria=["silhouette", "stability"],
                           n_resamples=3, seed=1)
    for c in ck.table:
        np.testing.assert_array_equal(ck.table[c], by_function.table[c])
    assert est.n_clusters == 8 and not hasattr(est, "labels_")   # untouched
    gm = choose_k(X, GaussianMixture(random_state=0), ks=[2, 3], criteria=["silhouette"])
    assert [len(set(gm.labels[k].tolist())) for k in (2, 3)] == [2, 3]   # n_components
    gap = gap_statistic(X, est, ks=[1, 2, 3, 4], n_references=4, random_state=0)
    assert gap.best_k == 3


def test_an_estimator_without_a_number_of_clusters_is_refused():
    from sklearn.cluster import DBSCAN

    X, _ = _blobs(11)
    with pytest.raises(ValueError, match="^cluster: the estimator DBSCAN has no n_clusters"):
        choose_k(X, DBSCAN(), ks=[2, 3])
    with pytest.raises(ValueError, match="^random_state: is another name for seed"):
        choose_k(X, _kmeans, ks=[2, 3], seed=0, random_state=1)
