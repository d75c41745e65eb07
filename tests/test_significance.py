"""Permutation test and stability: exact p-values, plain == codes, tables = shuffles in
distribution, uniform p-values under the null, stability of k-means on blobs."""
import itertools
import math
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import prayatul_edu as pe
from prayatul_edu import adjusted_rand_index, permutation_test, stability

significance = sys.modules["prayatul_edu.significance"]
MEASURES = list(significance.TABLE_MEASURES)


def _related(seed, n=120, k=4, noise=0.5):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < noise, rng.integers(0, k + 1, n), truth)
    return truth, pred


# ------------------------------------------------------------------ p-values
@pytest.mark.parametrize("method", ["auto", "plain", "codes", "tables"])
def test_identical_labelings_give_one_over_n_plus_one(method):
    truth = np.repeat(["a", "b", "c", "d"], 15)                 # N = 60, 4 classes of 15
    pt = permutation_test(truth, truth, n_permutations=199, seed=1, method=method)
    assert pt.observed == 1.0
    assert pt.n_at_least == 0 and pt.p_value == 1 / 200        # no shuffle recovers them
    assert pt.null.shape == (199,) and pt.null.max() < 0.5


def test_p_value_counts_the_null_at_least_as_high():
    truth, pred = _related(0, noise=0.97)                       # almost no relation
    pt = permutation_test(truth, pred, n_permutations=499, seed=2)
    at_least = int((pt.null >= pt.observed - 1e-12).sum())
    assert pt.n_at_least == at_least
    assert pt.p_value == (1 + at_least) / 500
    assert 0.002 < pt.p_value < 1                               # neither extreme here


def test_ties_with_the_observed_value_count():
    # N = 4, two pairs: only 3 distinct tables; the observed one comes back by chance.
    truth, pred = [0, 0, 1, 1], [0, 0, 1, 1]
    pt = permutation_test(truth, pred, n_permutations=300, seed=0, method="plain")
    # P(a shuffle of pred gives the same partition) = 8 / 24 = 1/3
    assert pt.n_at_least == int((pt.null == 1.0).sum()) > 60
    assert pt.p_value == (1 + pt.n_at_least) / 301


@pytest.mark.parametrize("measure", MEASURES, ids=lambda m: m.__name__)
def test_plain_and_codes_give_the_same_null(measure):
    """Same seed, same shuffles: the table formulas equal the measures to 1e-12."""
    truth, pred = _related(3, n=90, k=3)
    plain = permutation_test(truth, pred, measure, 60, seed=7, method="plain")
    codes = permutation_test(truth, pred, measure, 60, seed=7, method="codes")
    np.testing.assert_allclose(codes.null, plain.null, rtol=0, atol=1e-12)
    assert codes.p_value == plain.p_value and codes.observed == plain.observed


def test_plain_accepts_any_measure_and_string_labels():
    truth, pred = _related(4, n=50)
    names = np.array(list("vwxyz"))
    pt = permutation_test(names[truth].tolist(), names[pred].tolist(), pe.v_measure, 20,
                          seed=0)
    assert pt.method == "plain" and pt.measure_name == "v_measure"
    again = permutation_test(truth, pred, pe.v_measure, 20, seed=0)
    np.testing.assert_allclose(pt.null, again.null, atol=1e-12)   # labels' names don't matter


def _exact_null(truth, pred, measure):
    """The distribution of the measure over all N! orders of pred (exact): every order's
    contingency table, scored by the table formula (equal to the measure: tested above)."""
    truth, pred = np.asarray(truth), np.asarray(pred)
    kt, kp, n = truth.max() + 1, pred.max() + 1, len(pred)
    orders = np.array(list(itertools.permutations(range(n))))   # N! x N
    cells = pred[orders] * kt + truth + (np.arange(len(orders)) * kp * kt)[:, None]
    tables = np.bincount(cells.ravel(), minlength=len(orders) * kp * kt)
    values = significance.TABLE_MEASURES[measure](tables.reshape(-1, kp, kt), n)
    assert float(measure(truth, pred[orders[5]])) == pytest.approx(values[5], abs=1e-12)
    counts = Counter(np.round(values, 12).tolist())
    return {v: c / len(orders) for v, c in counts.items()}


@pytest.mark.parametrize("measure", [adjusted_rand_index, pe.purity], ids=lambda m: m.__name__)
def test_tables_have_the_distribution_of_shuffles(measure):
    """Drawing tables (multivariate hypergeometric) = shuffling pred, in distribution: a
    chi-square test against all 8! shuffles (fixed seed; the bound 1e-4 makes a false
    alarm unlikely)."""
    truth, pred = [0, 0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 1, 1, 1, 2, 3]
    exact = _exact_null(truth, pred, measure)
    pt = permutation_test(truth, pred, measure, 20_000, seed=11, method="tables")
    seen = Counter(np.round(pt.null, 12).tolist())
    assert set(seen) <= set(exact)                              # only possible values
    values = sorted(exact)
    observed = np.array([seen[v] for v in values])
    expected = np.array([exact[v] * 20_000 for v in values])
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_tables_keep_both_margins():
    rng = np.random.default_rng(0)
    tables = significance.random_tables([5, 0, 7, 3], [6, 6, 3], 500, rng)
    assert (tables.sum(axis=2) == [5, 0, 7, 3]).all()
    assert (tables.sum(axis=1) == [6, 6, 3]).all()
    assert (tables >= 0).all()
    # E[n_ij] = n_i m_j / N for a random shuffle
    mean = tables.mean(axis=0)
    expect = np.outer([5, 0, 7, 3], [6, 6, 3]) / 15
    assert np.abs(mean - expect).max() < 0.25


def test_ari_of_shuffles_averages_zero():
    """E[ARI] = 0 under shuffles (Hubert and Arabie): mean within 5 standard errors."""
    truth, pred = _related(5, n=400, k=6, noise=0.2)
    pt = permutation_test(truth, pred, n_permutations=4000, seed=3)
    assert abs(pt.null.mean()) < 5 * pt.null.std() / math.sqrt(4000)


@pytest.mark.parametrize("method", ["codes", "tables"])
def test_p_values_are_uniform_under_the_null(method):
    """Seed sweep: 400 independent (truth, pred) pairs, no relation between them, B = 99.
    With the +1 rule P(p <= a) <= a for every a, and nearly = a when ties are rare
    (N = 200, ARI takes many values). Each count is checked against the binomial
    quantiles 1e-6 and 1 - 1e-6: a fixed sweep, so not flaky, and a true failure."""
    trials, B = 400, 99
    p = np.empty(trials)
    for seed in range(trials):
        rng = np.random.default_rng(10_000 + seed)
        truth, pred = rng.integers(0, 4, 200), rng.integers(0, 3, 200)
        p[seed] = permutation_test(truth, pred, n_permutations=B, seed=seed,
                                   method=method).p_value
    assert set(np.round(p * (B + 1)).astype(int)) <= set(range(1, B + 2))
    for a in (0.05, 0.1, 0.25, 0.5, 0.75):
        count = int((p <= a + 1e-12).sum())
        low, high = stats.binom.ppf([1e-6, 1 - 1e-6], trials, a)
        assert low <= count <= high, (a, count, low, high)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tables_p_value_never_below_chance_floor(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 200))
    truth, pred = rng.integers(0, 3, n), rng.integers(0, 4, n)
    pt = permutation_test(truth, pred, n_permutations=49, seed=seed)
    assert 1 / 50 <= pt.p_value <= 1
    assert pt.p_value == (1 + pt.n_at_least) / 50
    assert np.all(pt.null <= 1 + 1e-12)


def test_derivation_shows_the_count():
    truth, pred = _related(6)
    pt = permutation_test(truth, pred, n_permutations=99, seed=0)
    text = pt.explain()
    assert f"p = (1 + {pt.n_at_least}) / (1 + 99)" in text
    assert "95th percentile" in text and "1/100" in text


# ------------------------------------------------------------------ stability
def _blobs(seed=0):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [12, 0], [0, 12]])
    y = np.repeat([0, 1, 2], 70)
    return centres[y] + rng.normal(size=(210, 2)), y


def _kmeans(k):
    from sklearn.cluster import KMeans

    return lambda Y: KMeans(k, n_init=3, random_state=0).fit_predict(Y)


@pytest.mark.parametrize("method", ["subsample", "bootstrap"])
def test_kmeans_stable_at_the_true_k_only(method):
    X, _ = _blobs()
    right = stability(X, _kmeans(3), n_resamples=8, seed=0, method=method)
    wrong = stability(X, _kmeans(7), n_resamples=8, seed=0, method=method)
    assert float(right) > 0.9
    assert float(wrong) < float(right) - 0.1
    assert len(right.scores) == 8 * 7 // 2
    assert float(right) == pytest.approx(right.scores.mean(), abs=1e-15)


def test_scores_are_on_the_shared_instances():
    X, _ = _blobs(1)
    seen = []

    def record(Y):                       # labels: the index of the nearest of 3 fixed points
        seen.append(Y.copy())
        return np.argmin(((Y[:, None] - [[0, 0], [12, 0], [0, 12]]) ** 2).sum(-1), axis=1)

    st_ = stability(X, record, n_resamples=4, seed=5, fraction=0.5)
    assert float(st_) == 1.0                                    # a fixed rule never changes
    for (r, s), shared in zip(st_.pairs, st_.shared):
        both = set(st_.resamples[r].tolist()) & set(st_.resamples[s].tolist())
        assert shared == len(both)
    assert all(len(Y) == 105 for Y in seen[:-1])                # round(0.5 * 210)
    assert len(seen) == 5 and (seen[-1] == X).all()            # then all of X, per cluster


def test_stability_compares_the_first_copy_in_a_bootstrap():
    X, _ = _blobs(2)
    calls = []

    def alternate(Y):                    # a procedure whose labels depend on the sample
        calls.append(len(Y))
        return np.arange(len(Y)) % 2

    st_ = stability(X, alternate, n_resamples=3, seed=0, method="bootstrap",
                    measure=pe.rand_index)
    assert calls == [210, 210, 210, 210]                        # 3 resamples, then all of X
    # by hand for the first pair: instance -> label of its first copy in each resample
    r, s = st_.resamples[0], st_.resamples[1]
    first_r = {i: p % 2 for p, i in reversed(list(enumerate(r.tolist())))}
    first_s = {i: p % 2 for p, i in reversed(list(enumerate(s.tolist())))}
    both = sorted(set(first_r) & set(first_s))
    expect = pe.rand_index([first_r[i] for i in both], [first_s[i] for i in both])
    assert st_.scores[0] == pytest.approx(float(expect), abs=1e-15)


def test_stability_derivation():
    X, _ = _blobs()
    text = stability(X, _kmeans(3), n_resamples=3, seed=0).explain()
    assert "S1, S2" in text and "stability = " in text and "not independent" in text


def test_auto_picks_the_codes_for_tables_bigger_than_the_data():
    rng = np.random.default_rng(0)
    truth, pred = rng.integers(0, 60, 1500), rng.integers(0, 60, 1500)  # 3600 cells > N
    auto = permutation_test(truth, pred, n_permutations=30, seed=4)
    assert auto.method == "codes"
    plain = permutation_test(truth, pred, n_permutations=30, seed=4, method="plain")
    np.testing.assert_allclose(auto.null, plain.null, atol=1e-12)
    assert permutation_test(truth[:100], pred[:100] % 3, n_permutations=5).method == "tables"


def test_chunks_of_shuffles_give_the_same_null(monkeypatch):
    truth, pred = _related(8, n=80, k=3)
    whole = permutation_test(truth, pred, n_permutations=50, seed=3, method="codes")
    monkeypatch.setattr(significance, "_CHUNK_CELLS", 3 * 4 * 7)          # 7 tables a chunk
    chunked = permutation_test(truth, pred, n_permutations=50, seed=3, method="codes")
    np.testing.assert_array_equal(chunked.null, whole.null)
    tables = permutation_test(truth, pred, n_permutations=50, seed=3, method="tables")
    assert tables.null.shape == (50,) and tables.p_value == (1 + tables.n_at_least) / 51


def test_labels_that_are_tuples_stay_one_label_each():
    truth = [("a", 1)] * 6 + [("b", 2)] * 6
    pred = [(0, 0)] * 5 + [(1, 1)] * 7
    plain = permutation_test(truth, pred, n_permutations=40, seed=2, method="plain")
    codes = permutation_test(truth, pred, n_permutations=40, seed=2, method="codes")
    np.testing.assert_allclose(plain.null, codes.null, atol=1e-12)
    assert plain.observed == pytest.approx(float(adjusted_rand_index(truth, pred)))


# ---------------------------------------------------- per-cluster stability (clusterboot)
def _direct_best_jaccard(reference, resample, labels):
    """Hennig's gamma per reference cluster on one resample, with Python sets."""
    first = {}
    for pos, i in enumerate(resample.tolist()):
        first.setdefault(i, labels[pos])                   # an instance's first copy
    found = {}
    for i, lab in first.items():
        found.setdefault(lab, set()).add(i)
    best = []
    for c in sorted(set(reference.tolist())):
        A = {i for i in first if reference[i] == c}         # C_i restricted to the resample
        best.append(max(len(A & B) / len(A | B) for B in found.values()) if A else np.nan)
    return best


@pytest.mark.parametrize("method", ["subsample", "bootstrap"])
def test_per_cluster_jaccard_equals_a_direct_computation(method):
    X, _ = _blobs(7)
    labelled = []

    def noisy(Y):                          # nearest centre, a random share relabelled
        rng = np.random.default_rng(len(labelled))
        lab = np.argmin(((Y[:, None] - [[0, 0], [12, 0], [0, 12]]) ** 2).sum(-1), axis=1)
        lab = np.where(rng.random(len(Y)) < 0.2, rng.integers(0, 4, len(Y)), lab)
        labelled.append(lab)
        return lab

    st_ = stability(X, noisy, n_resamples=5, seed=1, method=method)
    reference = labelled[-1]                                # all of X, clustered last
    assert (st_.reference == reference).all()
    expect = np.array([_direct_best_jaccard(reference, st_.resamples[r], labelled[r])
                       for r in range(5)])
    np.testing.assert_allclose(st_.jaccard, expect, rtol=1e-12)
    np.testing.assert_allclose(st_.per_cluster, np.nanmean(expect, axis=0), rtol=1e-12)
    np.testing.assert_allclose(st_.per_cluster_spread, np.nanstd(expect, axis=0), atol=1e-12)
    assert (0.3 < st_.per_cluster[:3]).all() and (st_.per_cluster[:3] < 0.95).all()
    assert st_.per_cluster[3] < 0.2                             # the noise label
    assert "not to be trusted" in st_.explain()


def test_a_cluster_missing_from_a_resample_is_left_out():
    X = np.arange(20.0)[:, None]
    st_ = stability(X, lambda Y: (Y[:, 0] > 18.5).astype(int), n_resamples=6, seed=3,
                    fraction=0.5)                           # the cluster {19}: often not drawn
    drawn = np.array([19 in r for r in st_.resamples])
    assert 0 < drawn.sum() < 6
    assert np.isnan(st_.jaccard[~drawn, 1]).all() and (st_.jaccard[drawn, 1] == 1).all()
    assert st_.per_cluster.tolist() == [1.0, 1.0]


def test_kmeans_estimator_per_cluster_at_least_0_85_on_blobs():
    from sklearn.cluster import KMeans

    X, _ = _blobs()
    st_ = stability(X, KMeans(3, n_init=3, random_state=0), n_resamples=8, random_state=0)
    assert st_.per_cluster.shape == (3,) and (st_.per_cluster >= 0.85).all()
    same = stability(X, _kmeans(3), n_resamples=8, seed=0)     # the function, same results
    np.testing.assert_array_equal(st_.scores, same.scores)
    np.testing.assert_array_equal(st_.per_cluster, same.per_cluster)


def test_an_estimator_is_cloned_for_every_call():
    from sklearn.cluster import KMeans

    X, _ = _blobs()
    est = KMeans(3, n_init=2, random_state=0)
    stability(X, est, n_resamples=3, seed=0)
    assert not hasattr(est, "labels_")                       # never fitted itself


def test_spread_and_quantiles_of_the_pair_scores():
    X, _ = _blobs(3)
    st_ = stability(X, _kmeans(4), n_resamples=6, seed=2)
    assert st_.spread == pytest.approx(float(np.std(st_.scores)), abs=1e-15)
    np.testing.assert_allclose(st_.quantiles, np.quantile(st_.scores, [0.05, 0.5, 0.95]))
    text = st_.explain()
    assert "standard deviation" in text and "gamma_i" in text and "highly stable" in text


def test_random_labeller_baseline():
    X, _ = _blobs()
    st_ = stability(X, _kmeans(3), n_resamples=6, seed=0, baseline=True)
    assert st_.baseline_scores.shape == st_.scores.shape
    assert abs(st_.baseline) < 0.05                          # ARI of random labels: about 0
    assert st_.baseline == pytest.approx(st_.baseline_scores.mean(), abs=1e-15)
    # a random third of the data against a random third: Jaccard about 1/5
    assert (0.15 < st_.baseline_per_cluster).all() and (st_.baseline_per_cluster < 0.4).all()
    assert (st_.per_cluster > st_.baseline_per_cluster + 0.5).all()
    plain = stability(X, _kmeans(3), n_resamples=6, seed=0)  # the baseline changes nothing
    np.testing.assert_array_equal(plain.scores, st_.scores)
    assert plain.baseline is None and "random labeller" in st_.explain()


def test_random_state_is_an_alias_of_seed():
    X, _ = _blobs()
    a = stability(X, _kmeans(3), n_resamples=3, random_state=4)
    b = stability(X, _kmeans(3), n_resamples=3, seed=4)
    np.testing.assert_array_equal(a.scores, b.scores)
    with pytest.raises(ValueError, match="^random_state: "):
        stability(X, _kmeans(3), n_resamples=3, seed=1, random_state=2)
    with pytest.raises(TypeError, match="^baseline: "):
        stability(X, _kmeans(3), n_resamples=3, baseline="yes")


# ------------------------------------------------ scikit-learn's metrics, NaN measures
SKLEARN_NAMES = ["adjusted_rand_score", "rand_score", "fowlkes_mallows_score",
                 "normalized_mutual_info_score", "adjusted_mutual_info_score",
                 "v_measure_score"]


@pytest.mark.parametrize("name", SKLEARN_NAMES)
@pytest.mark.parametrize("case", ["related", "unrelated", "one_cluster", "singletons"])
def test_sklearn_metrics_take_the_fast_path_with_the_same_null(name, case):
    """The very shuffles (method 'codes') scored by scikit-learn itself and by the table
    formula: the same null to 1e-12, the same observed value and p-value."""
    metrics = pytest.importorskip("sklearn.metrics")
    measure = getattr(metrics, name)
    truth, pred = _related(11, n=80, k=3, noise={"related": 0.4}.get(case, 1.0))
    if case == "one_cluster":
        pred = np.zeros_like(pred)
    elif case == "singletons":
        pred = np.arange(len(pred))
    plain = permutation_test(truth, pred, measure, 80, seed=5, method="plain")
    codes = permutation_test(truth, pred, measure, 80, seed=5, method="codes")
    np.testing.assert_allclose(codes.null, plain.null, rtol=0, atol=1e-12)
    assert codes.observed == pytest.approx(plain.observed, abs=1e-12)
    assert codes.p_value == plain.p_value
    auto = permutation_test(truth, pred, measure, 80, seed=5)
    assert auto.method in ("tables", "codes") and auto.measure_name == name


def test_sklearn_defaults_are_what_the_fast_path_computes():
    metrics = pytest.importorskip("sklearn.metrics")
    truth, pred = _related(12, n=60, k=4, noise=0.5)
    nmi = permutation_test(truth, pred, metrics.normalized_mutual_info_score, 30, seed=1)
    # arithmetic mean of the entropies (scikit-learn's default), not the lecture's geometric
    ours = pe.normalized_mutual_information(truth, pred, average="arithmetic")
    assert nmi.observed == pytest.approx(float(ours), abs=1e-12)
    v = permutation_test(truth, pred, metrics.v_measure_score, 30, seed=1)
    assert v.observed == pytest.approx(float(pe.v_measure(truth, pred)), abs=1e-12)
    np.testing.assert_allclose(v.null, nmi.null, atol=1e-12)       # V = NMI (arithmetic)


def test_a_wrapped_sklearn_metric_is_not_mistaken_for_it():
    metrics = pytest.importorskip("sklearn.metrics")
    truth, pred = _related(13, n=40)

    def adjusted_rand_score(t, p):                     # same name, not the same function
        return metrics.adjusted_rand_score(t, p)

    adjusted_rand_score.__module__ = "sklearn.metrics.cluster._supervised"
    assert permutation_test(truth, pred, adjusted_rand_score, 5, seed=0).method == "plain"
    gm = lambda t, p: metrics.normalized_mutual_info_score(t, p, average_method="geometric")
    assert permutation_test(truth, pred, gm, 5, seed=0).method == "plain"


def test_sklearn_ari_costs_about_what_ours_costs():
    metrics = pytest.importorskip("sklearn.metrics")
    truth, pred = _related(14, n=20000, k=5, noise=0.9)
    ours = permutation_test(truth, pred, adjusted_rand_index, 99, seed=0)
    theirs = permutation_test(truth, pred, metrics.adjusted_rand_score, 99, seed=0)
    assert theirs.method == ours.method == "tables"                  # no call per shuffle
    np.testing.assert_allclose(theirs.null, ours.null, atol=1e-12)  # same draws, same null


def test_a_measure_returning_nan_is_an_error_naming_it():
    truth, pred = _related(15, n=30)

    def sometimes_nan(t, p):
        return float("nan") if p[0] == pred[0] and p[1] != pred[1] else 0.5

    def always_nan(t, p):
        return float("nan")

    with pytest.raises(ValueError, match="^measure: always_nan returned NaN on truth and"):
        permutation_test(truth, pred, always_nan, 20, seed=0)
    with pytest.raises(ValueError, match="^measure: sometimes_nan returned NaN on shuffle"):
        permutation_test(truth, pred, sometimes_nan, 50, seed=0)
    X, _ = _blobs()
    with pytest.raises(ValueError, match="^measure: always_nan returned NaN on resamples 1"):
        stability(X, _kmeans(2), n_resamples=2, seed=0, measure=always_nan)


def test_permutation_test_random_state_is_seed():
    truth, pred = _related(16)
    a = permutation_test(truth, pred, n_permutations=30, random_state=3)
    b = permutation_test(truth, pred, n_permutations=30, seed=3)
    np.testing.assert_array_equal(a.null, b.null)


@pytest.mark.parametrize("gamma, reading", [
    (0.59, "not to be trusted"), (0.5, "not to be trusted"), (0.6, "a pattern, members doubtful"),
    (0.749, "a pattern, members doubtful"), (0.75, "stable"), (0.849, "stable"),
    (0.85, "highly stable"), (float("nan"), "never drawn")])
def test_hennigs_reading_of_a_mean_jaccard(gamma, reading):
    """Hennig (2007): a mean below 0.6 is not to be trusted, 0.6-0.75 a pattern, from 0.75
    stable, from 0.85 highly stable ('dissolved' is one resample's verdict, not the mean's)."""
    from prayatul_edu.significance import stability_reading
    assert stability_reading(gamma) == reading
