"""A scikit-learn user at home: its keyword names, its NMI mean, the silhouette of a sample,
and results whose ``repr`` is one short line (the derivation in Jupyter and ``.explain()``)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings

import prayatul_edu
from prayatul_edu import (adjusted_mutual_information, adjusted_rand_index, contingency_table,
                          entropy, f_measure, mutual_information, normalized_mutual_information,
                          prayatul_matrix, purity, silhouette, variation_of_information)
from prayatul_edu.steps import MAX_REPR
from cases import partitions

sk_metrics = pytest.importorskip("sklearn.metrics")

#: Every public measure of two labellings (truth, pred), found by its signature.
EXTERNAL = sorted(name for name in prayatul_edu.__all__
                  if callable(getattr(prayatul_edu, name))
                  and not isinstance(getattr(prayatul_edu, name), type)
                  and list(__import__("inspect").signature(getattr(prayatul_edu, name))
                           .parameters)[:2] == ["truth", "pred"])


def test_every_external_measure_is_found():
    assert {"adjusted_rand_index", "normalized_mutual_information", "purity", "rand_index",
            "contingency_table", "v_measure", "homogeneity", "permutation_test"} <= set(EXTERNAL)
    assert len(EXTERNAL) >= 20


def _numbers(result) -> np.ndarray:
    """A result's numbers: the value, a table's counts, the matrices of precision_recall_f."""
    if hasattr(result, "p_value"):
        return np.array([result.p_value, result.observed])
    try:
        return np.asarray(result, dtype=float)
    except TypeError:
        return np.concatenate([np.asarray(part, dtype=float).ravel() for part in result])


@pytest.mark.parametrize("name", EXTERNAL)
def test_every_external_measure_takes_scikit_learns_names(name):
    f = getattr(prayatul_edu, name)
    truth, pred = [0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1]
    extra = {"n_permutations": 9, "seed": 1} if name == "permutation_test" else {}
    ours = f(truth, pred, **extra)
    theirs = f(labels_true=truth, labels_pred=pred, **extra)
    mixed = f(truth, labels_pred=pred, **extra)
    expect = _numbers(ours)
    assert expect.size >= 1 and np.isfinite(expect).all()
    for other in (theirs, mixed):
        assert np.array_equal(_numbers(other), expect)
    assert "labels_true" in f.__doc__ or "labels_true" in (f.__doc__ or "")


def test_an_alias_and_its_argument_together_are_refused_by_name():
    with pytest.raises(TypeError, match=r"^labels_true: is scikit-learn's name for truth"):
        adjusted_rand_index([0, 1], labels_true=[0, 1], pred=[0, 1])
    with pytest.raises(TypeError, match=r"^labels_pred: .* give one of them"):
        adjusted_rand_index([0, 1], [1, 0], labels_pred=[0, 1])
    with pytest.raises(TypeError, match=r"^average_method: is scikit-learn's name for average"):
        normalized_mutual_information([0, 1], [1, 0], average="max", average_method="min")


@settings(max_examples=60, deadline=None)
@given(partitions())
def test_ari_by_scikit_learns_names_equals_scikit_learn(tp):
    truth, pred = tp
    ours = adjusted_rand_index(labels_true=truth, labels_pred=pred)
    assert float(ours) == pytest.approx(sk_metrics.adjusted_rand_score(truth, pred),
                                        abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(partitions())
def test_nmi_with_average_method_equals_scikit_learn(tp):
    truth, pred = tp
    for mean in ("arithmetic", "geometric", "min", "max"):
        ours = normalized_mutual_information(truth, pred, average_method=mean)
        theirs = sk_metrics.normalized_mutual_info_score(truth, pred, average_method=mean)
        assert float(ours) == pytest.approx(theirs, abs=1e-12)
        assert ours.average == mean
    ami = adjusted_mutual_information(labels_true=truth, labels_pred=pred,
                                      average_method="max")
    assert float(ami) == pytest.approx(
        sk_metrics.adjusted_mutual_info_score(truth, pred, average_method="max"), abs=1e-10)


def test_the_nmi_default_is_the_lectures_and_says_so():
    # The lecture's mean is the geometric one; scikit-learn's default is the arithmetic:
    # on these labels they differ, and every display names the mean used.
    truth, pred = [0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2]
    nmi = normalized_mutual_information(truth, pred)
    assert nmi.average == "geometric"
    assert float(nmi) != pytest.approx(sk_metrics.normalized_mutual_info_score(truth, pred))
    assert repr(nmi) == f"NormalizedMutualInformation({float(nmi):.4f}, average='geometric')"
    assert "NMI (geometric)" in nmi.explain() and "NMI (geometric)" in nmi._repr_markdown_()


def test_mutual_information_says_its_unit_bits_where_printed():
    mi = mutual_information([0, 0, 1, 1], [0, 0, 0, 1])
    # I = H(T) - H(T | C) = 1 - 3/4 * H(1/3) bits = 0.3113 bits (scikit-learn: nats)
    expected = 1 - 0.75 * (-(1 / 3) * math.log2(1 / 3) - (2 / 3) * math.log2(2 / 3))
    assert float(mi) == pytest.approx(expected, abs=1e-15)
    assert float(mi) * math.log(2) == pytest.approx(
        sk_metrics.mutual_info_score([0, 0, 1, 1], [0, 0, 0, 1]), abs=1e-12)
    assert repr(mi) == "MutualInformation(0.3113, unit='bits')"
    assert mi.explain().splitlines()[0].endswith("0.3113 bits")
    assert repr(entropy([0, 0, 1, 1])) == "Entropy(1.0, unit='bits')"
    assert repr(entropy([0, 0, 1, 1], base=math.e)).endswith("unit='nats')")
    vi = variation_of_information([0, 0, 1, 1], [0, 1, 0, 1])
    assert repr(vi) == "VariationOfInformation(2.0, unit='bits')"


# ------------------------------------------------------ silhouette of a sample
def _blobs(n=300, seed=5):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, n)
    return rng.normal(size=(n, 2)) + 3 * np.eye(3)[labels][:, :2], labels


@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "precomputed"])
def test_silhouette_of_a_sample_equals_scikit_learns(metric):
    X, labels = _blobs()
    if metric == "precomputed":
        from scipy.spatial.distance import cdist
        X = cdist(X, X)
    for seed in (0, 7):
        ours = silhouette(X, labels, metric=metric, sample_size=80, random_state=seed)
        theirs = sk_metrics.silhouette_score(X, labels, metric=metric, sample_size=80,
                                             random_state=seed)
        assert float(ours) == pytest.approx(theirs, abs=1e-12)
        assert ours.n == 80 and ours.samples.shape == (80,)
        assert ours.sample.tolist() == np.random.RandomState(seed).permutation(300)[:80].tolist()
        assert "random sample (sample_size = 80)" in ours.explain()
    whole = silhouette(X, labels, metric=metric)
    assert whole.sample is None and whole.n == 300
    # a sample of the whole data set in another order gives the whole silhouette
    everything = silhouette(X, labels, metric=metric, sample_size=300, random_state=3)
    assert float(everything) == pytest.approx(float(whole), abs=1e-12)


def test_silhouette_sample_with_a_generator_and_bad_sizes():
    X, labels = _blobs()
    rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
    a = silhouette(X, labels, sample_size=50, random_state=rng_a)
    assert a.sample.tolist() == rng_b.permutation(300)[:50].tolist()
    with pytest.raises(ValueError, match=r"^sample_size: at most the N = 300 rows of X, got 301"):
        silhouette(X, labels, sample_size=301)
    with pytest.raises(ValueError, match=r"^sample_size: must be at least 2"):
        silhouette(X, labels, sample_size=1)
    with pytest.raises(TypeError, match=r"^sample_size: expected a whole number"):
        silhouette(X, labels, sample_size=0.5)
    with pytest.raises(ValueError, match=r"^random_state: .*give sample_size too"):
        silhouette(X, labels, random_state=0)
    with pytest.raises(ValueError, match=r"^labels: .* of the sample \(sample_size\)"):
        silhouette(X, np.r_[np.zeros(299, int), 1], sample_size=2, random_state=0)


# ------------------------------------------------------------ short reprs
def _results():
    truth = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2] * 30
    pred = [0, 0, 1, 1, 1, 2, 2, 2, 0, 0] * 30
    X, labels = _blobs()
    return {
        "ari": adjusted_rand_index(truth, pred),
        "nmi": normalized_mutual_information(truth, pred),
        "purity": purity(truth, pred),
        "f": f_measure(truth, pred),
        "silhouette": silhouette(X, labels),
        "table": contingency_table(truth, pred),
        "prayatul": prayatul_matrix(truth, pred, pred[::-1]),
    }


@pytest.mark.parametrize("name", list(_results()))
def test_a_results_repr_is_short_and_its_derivation_is_in_jupyter_and_explain(name):
    r = _results()[name]
    assert len(repr(r)) <= MAX_REPR == 100
    assert len(r._repr_markdown_()) > 200 and len(r.explain()) > 200
    assert "\n" not in repr(r)
    if isinstance(r, float):
        assert str(r) == repr(float(r))                 # str: the bare number
        assert repr(r).startswith(type(r).__name__ + "(")
    else:
        assert str(r) == r.explain()                    # print(result): the derivation


def test_repr_of_a_scalar_is_its_name_and_number():
    ari = adjusted_rand_index([0, 0, 1, 1], [0, 0, 1, 2])
    # TP = 1, C(4, 2) = 6, sum_i C(n_i, 2) = 1, sum_j C(m_j, 2) = 2: expected 1*2/6 = 1/3,
    # ARI = (1 - 1/3) / ((1 + 2)/2 - 1/3) = (2/3) / (7/6) = 4/7
    assert float(ari) == pytest.approx(4 / 7, abs=1e-15)
    assert repr(ari) == "AdjustedRandIndex(0.5714)"
    assert repr({"ari": ari}) == "{'ari': AdjustedRandIndex(0.5714)}"
    assert repr(purity([0, 1], [0, 1])) == "Purity(1.0)"
    assert repr(f_measure([0, 0, 1, 1], [0, 0, 0, 1])) == "FMeasure(0.7333, average='clusters')"
    assert repr(adjusted_mutual_information([0, 0, 1, 1], [0, 0, 1, 1])) == \
        "AdjustedMutualInformation(1.0, average='arithmetic')"
    t = contingency_table([0, 1], [0, 1])
    assert repr(t) == "<ContingencyTable; .explain() shows how it was computed>"
