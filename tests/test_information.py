"""Tests of prayatul_edu.information: entropy, cluster entropy, MI and NMI."""
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import (cluster_entropy, entropy, mutual_information,
                          normalized_mutual_information)
from cases import EDGE_CASES, partitions, relabelings
from prayatul_edu.information import MI_REGROUPED_CELLS

sk_metrics = pytest.importorskip("sklearn.metrics")
scipy_stats = pytest.importorskip("scipy.stats")

# Tutorial, Exercise 2: classes and clusters of x(1) .. x(10).
EX2_CLASS = [1, 3, 2, 1, 3, 3, 2, 2, 1, 2]
EX2_CLUSTER = [1, 2, 3, 1, 2, 1, 2, 2, 3, 1]

AVERAGES = ("geometric", "arithmetic", "min", "max")
LOG2_3 = math.log2(3)


# ------------------------------------------------------------ seed numbers
def test_tutorial_exercise_2_cluster_entropy():
    e = cluster_entropy(truth=EX2_CLASS, pred=EX2_CLUSTER)
    clusters = e.table.clusters.tolist()
    assert clusters == [1, 2, 3]
    # Cluster 2 = {x2, x5, x7, x8} has classes 3, 3, 2, 2: precisions 1/2, 1/2, so
    # e_2 = -(1/2 log2 1/2) * 2 = 1 (the tutorial's answer).
    assert e.per_cluster[clusters.index(2)] == 1.0
    # Cluster 1 = {x1, x4, x6, x10}: classes 1, 1, 3, 2 -> 2/4, 1/4, 1/4:
    # e_1 = 1/2 * 1 + 1/4 * 2 + 1/4 * 2 = 1.5.  Cluster 3 = {x3, x9}: classes 2, 1 -> e_3 = 1.
    assert e.per_cluster.tolist() == [1.5, 1.0, 1.0]
    # Total entropy e = 4/10 * 1.5 + 4/10 * 1 + 2/10 * 1 = 0.6 + 0.4 + 0.2 = 1.2 bits.
    assert float(e) == pytest.approx(1.2, abs=1e-15)
    assert e.base == 2.0


def test_cluster_entropy_is_conditional_entropy():
    # e = H(T | C) = H(T) - I(C, T), in any base.
    for base in (2, math.e, 10):
        e = cluster_entropy(EX2_CLASS, EX2_CLUSTER, base=base)
        h_t = entropy(EX2_CLASS, base=base)
        mi = mutual_information(EX2_CLASS, EX2_CLUSTER, base=base)
        assert float(e) == pytest.approx(float(h_t) - float(mi), abs=1e-12)


def test_cluster_entropy_against_sklearn_homogeneity():
    # sklearn: homogeneity = 1 - H(T|C) / H(T), in nats.
    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 4, 300), rng.integers(0, 5, 300)
    h_t = float(entropy(t, base=math.e))
    expected = (1 - sk_metrics.homogeneity_score(t, p)) * h_t
    assert float(cluster_entropy(t, p, base=math.e)) == pytest.approx(expected, abs=1e-12)


def test_pure_clusters_have_zero_entropy():
    e = cluster_entropy(truth=["a", "a", "b", "b", "b"], pred=[0, 0, 1, 2, 2])
    assert float(e) == 0.0
    assert not math.copysign(1.0, float(e)) < 0  # +0.0, not -0.0


def test_hand_worked_mi_and_nmi():
    # truth = [0, 0, 1, 1], pred = [0, 0, 0, 1]. Contingency (rows clusters, cols classes):
    #   C_0: n_00 = 2, n_01 = 1 (n_0 = 3);   C_1: n_11 = 1 (n_1 = 1);   m_0 = m_1 = 2, n = 4.
    # I = 2/4 log((2/4)/(3/4*2/4)) + 1/4 log((1/4)/(3/4*2/4)) + 1/4 log((1/4)/(1/4*2/4))
    #   = 1/2 log(4/3) + 1/4 log(2/3) + 1/4 log 2 = 3/2 log 2 - 3/4 log 3
    #   = 1.5 - 0.75 log2(3) = 0.311278 bits = 0.215762 nats.
    truth, pred = [0, 0, 1, 1], [0, 0, 0, 1]
    mi_bits = 1.5 - 0.75 * LOG2_3
    mi = mutual_information(truth, pred, base=2)
    assert float(mi) == pytest.approx(mi_bits, abs=1e-15)
    assert float(mutual_information(truth, pred)) == pytest.approx(mi_bits, abs=1e-15)
    assert float(mutual_information(truth, pred, base=math.e)) == pytest.approx(
        1.5 * math.log(2) - 0.75 * math.log(3), abs=1e-15)
    assert mi.joint.tolist() == [[0.5, 0.25], [0.0, 0.25]]   # rows clusters, cols classes
    assert mi.p_clusters.tolist() == [0.75, 0.25]
    assert mi.p_classes.tolist() == [0.5, 0.5]
    # H(C) = -(3/4 log2 3/4 + 1/4 log2 1/4) = 2 - 0.75 log2 3 = 0.811278 bits; H(T) = 1 bit.
    h_c, h_t = 2 - 0.75 * LOG2_3, 1.0
    assert float(entropy(pred)) == pytest.approx(h_c, abs=1e-15)
    # NMI: geometric 0.311278 / sqrt(0.811278) = 0.345592; arithmetic / 0.905639 = 0.343711;
    # min / 0.811278 = 0.383689; max / 1 = 0.311278.
    expected = {"geometric": mi_bits / math.sqrt(h_c * h_t),
                "arithmetic": mi_bits / ((h_c + h_t) / 2),
                "min": mi_bits / h_c, "max": mi_bits / h_t}
    assert expected["geometric"] == pytest.approx(0.345592, abs=1e-6)
    for average, value in expected.items():
        nmi = normalized_mutual_information(truth, pred, average=average)
        assert float(nmi) == pytest.approx(value, abs=1e-14)
        assert nmi.average == average
        assert float(nmi.h_clusters) == pytest.approx(h_c, abs=1e-15)     # bits, one base
        assert float(nmi.h_classes) == pytest.approx(1.0, abs=1e-15)
        assert float(nmi.mi) == pytest.approx(mi_bits, abs=1e-15)
        assert "(bits)" in nmi.explain() and "nats" not in nmi.explain()


def test_garbled_lecture_formula_is_not_used():
    # Two identical partitions into k = 4 equal groups: I = H = log 4. The lecture's
    # garbled sum (without p_ij) would give k^2 log k = 16 log 4.
    labels = [0, 0, 1, 1, 2, 2, 3, 3]
    mi = mutual_information(labels, labels)
    assert float(mi) == pytest.approx(2.0, abs=1e-15)                 # log2 4 bits
    text = mi.explain()
    assert "without the factor p_ij" in text
    assert "sum_i sum_j p_ij log2(p_ij / (p_i p_j))" in text


def test_one_log_base_for_the_information_family():
    # entropy, cluster entropy and mutual information all default to bits, so that
    # I = H(T) - H(T | C) holds with the defaults and NMI's intermediates are in bits
    t, c = [1, 1, 2, 2, 3, 3, 3, 1], [1, 2, 2, 2, 3, 3, 1, 1]
    assert float(mutual_information(t, c)) == pytest.approx(
        float(entropy(t)) - float(cluster_entropy(t, c)), abs=1e-14)
    assert float(mutual_information(t, c)) == pytest.approx(
        float(mutual_information(t, c, base=math.e)) / math.log(2), abs=1e-14)
    nmi = normalized_mutual_information(t, c)
    assert nmi.mi.base == nmi.h_clusters.base == nmi.h_classes.base == 2.0


# --------------------------------------------------------------- entropy
@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("base", [2, math.e, 10, 3.7, 0.5])
def test_entropy_matches_scipy(seed, base):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 12))
    labels = rng.integers(0, k, int(rng.integers(2, 400)))
    counts = np.bincount(labels)
    counts = counts[counts > 0]
    h = entropy(labels, base=base)
    assert float(h) == pytest.approx(scipy_stats.entropy(counts, base=base), abs=1e-12)
    assert h.probabilities.sum() == pytest.approx(1.0, abs=1e-15)
    assert h.counts.tolist() == counts.tolist()


def test_entropy_bits_are_nats_over_ln2():
    labels = ["x", "y", "y", "z", "z", "z", "w"]
    nats = float(entropy(labels, base=math.e))
    assert float(entropy(labels)) == pytest.approx(nats / math.log(2), abs=1e-15)
    assert float(entropy(labels, base=10)) == pytest.approx(nats / math.log(10), abs=1e-15)
    assert float(entropy(labels, base=np.float64(2.0))) == float(entropy(labels))
    assert entropy(labels).base == 2.0


def test_entropy_values_and_attributes():
    h = entropy(["b", "a", "a", "c"])
    assert float(h) == 1.5                      # 1/2*1 + 1/4*2 + 1/4*2
    assert h.labels.tolist() == ["a", "b", "c"]
    assert h.probabilities.tolist() == [0.5, 0.25, 0.25]
    assert float(entropy([7, 7, 7])) == 0.0
    assert float(entropy(np.arange(16))) == 4.0   # 16 equal groups: log2 16


# ------------------------------------------------ agreement with sklearn
def _random_pair(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([2, 3, 5, 17, 100, 1000, 5000]))
    kt, kp = int(rng.integers(1, 30)), int(rng.integers(1, 30))
    return rng.integers(0, kt, n), rng.integers(0, kp, n)


@pytest.mark.parametrize("seed", range(60))
def test_mi_and_nmi_match_sklearn(seed):
    truth, pred = _random_pair(seed)
    mi = mutual_information(truth, pred, base=math.e)             # scikit-learn: nats
    assert float(mi) == pytest.approx(sk_metrics.mutual_info_score(truth, pred), abs=1e-12)
    for average in AVERAGES:
        ours = normalized_mutual_information(truth, pred, average=average)
        theirs = sk_metrics.normalized_mutual_info_score(truth, pred, average_method=average)
        assert float(ours) == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_mi_of_many_cells_is_the_sum_of_its_terms_and_sklearns(seed):
    # Beyond MI_REGROUPED_CELLS non-empty cells I is summed regrouped (no term per cell);
    # it must be the plain sum of the terms and scikit-learn's number, related or not.
    rng = np.random.default_rng(seed)
    n, kt, kp = int(rng.integers(20_000, 120_000)), int(rng.integers(300, 900)), int(rng.integers(300, 900))
    truth = rng.integers(0, kt, n)
    pred = rng.integers(0, kp, n) if seed % 3 else (truth * 7 + rng.integers(0, 30, n)) % kp
    base = [2, math.e, 10, 3.7][seed % 4]
    mi = mutual_information(truth, pred, base=base)
    assert mi.table.cell_count.shape[0] > MI_REGROUPED_CELLS
    assert float(mi) == pytest.approx(float(mi.terms.sum()), rel=1e-12, abs=1e-13)
    nats = sk_metrics.mutual_info_score(truth, pred)
    assert float(mi) * math.log(base) == pytest.approx(nats, rel=1e-12, abs=1e-13)
    for average in AVERAGES:
        ours = normalized_mutual_information(truth, pred, average=average)
        theirs = sk_metrics.normalized_mutual_info_score(truth, pred, average_method=average)
        assert float(ours) == pytest.approx(theirs, abs=1e-12)


def test_nmi_of_a_partition_with_itself_is_exactly_one_with_many_cells():
    rng = np.random.default_rng(5)
    x = rng.permutation(30_000) % (MI_REGROUPED_CELLS * 4)
    renamed = x * 3 + 7
    for pred in (x, renamed):
        assert float(normalized_mutual_information(x, pred)) == 1.0
        assert float(mutual_information(x, pred)) == float(entropy(x))


EDGE_CASES = {**EDGE_CASES, "independent": ([0, 0, 1, 1], [0, 1, 0, 1])}


@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_edge_cases_match_sklearn(case):
    truth, pred = EDGE_CASES[case]
    assert float(mutual_information(truth, pred, base=math.e)) == pytest.approx(
        sk_metrics.mutual_info_score(truth, pred), abs=1e-12)
    for average in AVERAGES:
        assert float(normalized_mutual_information(truth, pred, average=average)) == \
            pytest.approx(sk_metrics.normalized_mutual_info_score(
                truth, pred, average_method=average), abs=1e-12)


def test_nmi_conventions():
    both_single = normalized_mutual_information(["a"] * 4, [3] * 4)
    assert float(both_single) == 1.0 and both_single.case == "single"
    assert "0/0" in both_single.explain()
    one_single = normalized_mutual_information([0, 0, 1, 2], [5] * 4)
    assert float(one_single) == 0.0 and one_single.case == "independent"
    independent = normalized_mutual_information([0, 0, 1, 1], [0, 1, 0, 1])
    assert float(independent) == 0.0 and float(independent.mi) == 0.0
    identical = normalized_mutual_information(*EDGE_CASES["identical"], average="min")
    assert float(identical) == 1.0                   # clipped: never 1.0000000000000002
    assert "geometric mean" in normalized_mutual_information([0, 1, 1], [0, 0, 1]).explain()


def test_mi_nonnegative_for_independent_partitions():
    # p_ij = p_i p_j exactly: every log term is log 1 = 0.
    truth = [0, 0, 0, 1, 1, 1] * 5
    pred = [0, 1, 2, 0, 1, 2] * 5
    assert float(mutual_information(truth, pred)) == 0.0


# ------------------------------------------------------- property tests


@settings(max_examples=150, deadline=None)
@given(partitions(), relabelings(), relabelings())
def test_invariant_under_relabeling(tp, f, g):
    truth, pred = tp
    truth2 = [f[v] for v in truth]
    pred2 = [g[v] for v in pred]
    assert float(entropy(truth2)) == pytest.approx(float(entropy(truth)), abs=1e-12)
    assert float(cluster_entropy(truth2, pred2)) == pytest.approx(
        float(cluster_entropy(truth, pred)), abs=1e-12)
    assert float(mutual_information(truth2, pred2)) == pytest.approx(
        float(mutual_information(truth, pred)), abs=1e-12)
    for average in AVERAGES:
        assert float(normalized_mutual_information(truth2, pred2, average)) == pytest.approx(
            float(normalized_mutual_information(truth, pred, average)), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(partitions())
def test_symmetry_and_ranges(tp):
    truth, pred = tp
    mi = float(mutual_information(truth, pred))
    assert mi == pytest.approx(float(mutual_information(pred, truth)), abs=1e-12)
    h_c, h_t = float(entropy(pred)), float(entropy(truth))          # bits, as the MI
    assert mi >= 0.0
    assert mi <= min(h_c, h_t) + 1e-12
    for average in AVERAGES:
        nmi = float(normalized_mutual_information(truth, pred, average))
        assert 0.0 <= nmi <= 1.0
        assert nmi == pytest.approx(
            float(normalized_mutual_information(pred, truth, average)), abs=1e-12)
    # the geometric mean lies between min and max, so NMI orders the other way round
    g = float(normalized_mutual_information(truth, pred, "geometric"))
    assert float(normalized_mutual_information(truth, pred, "max")) <= g + 1e-12
    assert g <= float(normalized_mutual_information(truth, pred, "min")) + 1e-12
    k = len(set(truth))
    assert 0.0 <= float(entropy(truth)) <= math.log2(k) + 1e-12
    e = float(cluster_entropy(truth, pred))
    assert 0.0 <= e <= float(entropy(truth)) + 1e-12          # conditioning reduces entropy


@settings(max_examples=100, deadline=None)
@given(partitions(), st.sampled_from([2, math.e, 10, 1.5, 0.25]))
def test_base_only_rescales(tp, base):
    truth, pred = tp
    for measure, args in ((entropy, (truth,)), (cluster_entropy, (truth, pred)),
                          (mutual_information, (truth, pred))):
        nats = float(measure(*args, base=math.e))
        assert float(measure(*args, base=base)) == pytest.approx(nats / math.log(base),
                                                                 abs=1e-12)


# ------------------------------------------------------------ the results
def test_results_render_and_pickle():
    mi = mutual_information(EX2_CLASS, EX2_CLUSTER)
    assert "Mutual information" in mi.explain()
    assert "$$" in mi._repr_markdown_()
    back = pickle.loads(pickle.dumps(mi))
    assert float(back) == float(mi) and back.joint.shape == (3, 3)
    nmi = normalized_mutual_information(EX2_CLASS, EX2_CLUSTER, average="arithmetic")
    assert "(H(C) + H(T)) / 2" in nmi.explain()
    assert "e_i" in cluster_entropy(EX2_CLASS, EX2_CLUSTER).explain()
    assert "bits" in entropy(EX2_CLASS).explain()


def test_large_label_counts_render_quickly():
    n = 200_000
    truth, pred = np.arange(n) % 7, np.arange(n)          # n singleton clusters
    for result in (entropy(pred), cluster_entropy(truth, pred),
                   mutual_information(truth, pred), normalized_mutual_information(truth, pred).mi):
        text = result.explain()
        assert "more rows" in text
        assert len(text) < 20_000


# ------------------------------------------------------------- bad input
@pytest.mark.parametrize("call", [
    lambda: mutual_information([0, 1, 1], [0, 1]),
    lambda: normalized_mutual_information([0, 1], [0, 1, 1]),
    lambda: cluster_entropy([0, 1, 1], [0, 1]),
])
def test_different_lengths(call):
    with pytest.raises(ValueError, match="^truth and pred must label the same instances"):
        call()


@pytest.mark.parametrize("bad, error, name", [
    ([], ValueError, "labels"),
    ([[0, 1], [1, 0]], ValueError, "labels"),
    ([0.0, float("nan"), 1.0], ValueError, "labels"),
    ([0, None, 1], ValueError, "labels"),
    (None, TypeError, "labels"),
    ("aab", TypeError, "labels"),
])
def test_bad_labels_entropy(bad, error, name):
    with pytest.raises(error, match=f"^{name}:"):
        entropy(bad)


@pytest.mark.parametrize("function", [mutual_information, normalized_mutual_information,
                                      cluster_entropy])
@pytest.mark.parametrize("bad, error", [
    ([], ValueError), ([[0, 1], [1, 0]], ValueError),
    ([0.5, float("nan")], ValueError), (["a", None], ValueError), (None, TypeError),
])
def test_bad_labels_two_partitions(function, bad, error):
    with pytest.raises(error, match="^pred:"):
        function([0, 1], bad)
    with pytest.raises(error, match="^truth:"):
        function(bad, [0, 1])


def test_unknown_average():
    with pytest.raises(ValueError, match="^average: unknown value 'harmonic'"):
        normalized_mutual_information([0, 1], [0, 1], average="harmonic")
    with pytest.raises(ValueError, match="^average:"):
        normalized_mutual_information([0, 1], [0, 1], average=None)


@pytest.mark.parametrize("function, args", [
    (entropy, ([0, 1, 1],)), (cluster_entropy, ([0, 1, 1], [1, 1, 0])),
    (mutual_information, ([0, 1, 1], [1, 1, 0])),
])
@pytest.mark.parametrize("base, error", [
    (1, ValueError), (1.0, ValueError), (0, ValueError), (-2, ValueError),
    (float("nan"), ValueError), (float("inf"), ValueError),
    ("2", TypeError), (True, TypeError), (None, TypeError),
])
def test_bad_base(function, args, base, error):
    with pytest.raises(error, match="^base:"):
        function(*args, base=base)
