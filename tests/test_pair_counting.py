"""Tests of prayatul_edu.pair_counting: TP/FP/FN/TN, Rand, Jaccard, FM, ARI, Hubert."""
import math
import pickle
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import (adjusted_rand_index, fowlkes_mallows_index, hubert_statistic,
                          jaccard_index, pair_confusion, rand_index)
from cases import EDGE_CASES, partitions, relabelings
from prayatul_edu.pair_counting import MAX_MATRIX_N

sk_metrics = pytest.importorskip("sklearn.metrics")
sk_cluster = pytest.importorskip("sklearn.metrics.cluster")

# Tutorial, Exercise 2 (x1 .. x10) and Exercise 3 (its first five examples).
EX2_CLASS = [1, 3, 2, 1, 3, 3, 2, 2, 1, 2]
EX2_CLUSTER = [1, 2, 3, 1, 2, 1, 2, 2, 3, 1]
EX3_CLASS, EX3_CLUSTER = EX2_CLASS[:5], EX2_CLUSTER[:5]


def brute_force_pairs(truth, pred):
    """The lecture's definition, pair by pair: (TP, FP, FN, TN)."""
    tp = fp = fn = tn = 0
    for a, b in combinations(range(len(truth)), 2):
        same_class, same_cluster = truth[a] == truth[b], pred[a] == pred[b]
        tp += same_class and same_cluster
        fp += (not same_class) and same_cluster
        fn += same_class and not same_cluster
        tn += (not same_class) and not same_cluster
    return tp, fp, fn, tn


# ------------------------------------------------------------ seed numbers
def test_tutorial_exercise_3():
    pc = pair_confusion(truth=EX3_CLASS, pred=EX3_CLUSTER)
    # Tutorial: f00 = 8, f01 = 0, f10 = 0, f11 = 2 (pairs {x1, x4} and {x2, x5}).
    assert (pc.f00, pc.f01, pc.f10, pc.f11) == (8, 0, 0, 2)
    assert (pc.tn, pc.fp, pc.fn, pc.tp) == (8, 0, 0, 2)
    assert pc.n_pairs == 10
    assert float(rand_index(EX3_CLASS, EX3_CLUSTER)) == 1.0       # Rand statistic = 1
    assert float(jaccard_index(EX3_CLASS, EX3_CLUSTER)) == 1.0    # Jaccard = 1


def test_exercise_2_pairs_by_hand():
    # Contingency (rows clusters 1..3, columns classes 1..3):
    #   C1: 2 1 1 (n_1 = 4)   C2: 0 2 2 (n_2 = 4)   C3: 1 1 0 (n_3 = 2);  m = 3, 4, 3.
    # TP = C(2,2) + C(2,2) + C(2,2) = 3;  TP + FP = 6 + 6 + 1 = 13 -> FP = 10;
    # TP + FN = 3 + 6 + 3 = 12 -> FN = 9;  TN = C(10,2) - 3 - 10 - 9 = 45 - 22 = 23.
    pc = pair_confusion(EX2_CLASS, EX2_CLUSTER)
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == (3, 10, 9, 23)
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == brute_force_pairs(EX2_CLASS, EX2_CLUSTER)
    assert float(rand_index(EX2_CLASS, EX2_CLUSTER)) == 26 / 45          # (3 + 23) / 45
    assert float(jaccard_index(EX2_CLASS, EX2_CLUSTER)) == 3 / 22        # 3 / (3 + 10 + 9)
    fm = fowlkes_mallows_index(EX2_CLASS, EX2_CLUSTER)                   # sqrt(3/13 * 3/12)
    assert (fm.precision, fm.recall) == (3 / 13, 3 / 12)
    assert float(fm) == pytest.approx(math.sqrt(9 / 156), abs=1e-15)
    # ARI: Expected = 13 * 12 / 45 = 52/15, Max = 25/2; (3 - 52/15) / (25/2 - 52/15) = -14/271.
    ari = adjusted_rand_index(EX2_CLASS, EX2_CLUSTER)
    assert ari.expected == Fraction(52, 15) and ari.max_index == Fraction(25, 2)
    assert float(ari) == -14 / 271


def test_pair_counts_are_exact_python_ints():
    pc = pair_confusion(EX2_CLASS, EX2_CLUSTER)
    assert all(type(v) is int for v in (pc.tp, pc.fp, pc.fn, pc.tn, pc.n_pairs))
    for score in (rand_index, jaccard_index, fowlkes_mallows_index, adjusted_rand_index,
                  hubert_statistic):
        r = score(EX2_CLASS, EX2_CLUSTER)
        assert (r.tp, r.fp, r.fn, r.tn) == (3, 10, 9, 23)
        assert r.pairs.n_pairs == 45


def test_array_layout_and_sklearn_orientation():
    pc = pair_confusion([0, 0, 1, 2], [0, 0, 1, 1])     # TP 1, FP 1, FN 0, TN 4
    assert np.asarray(pc).tolist() == [[1, 1], [0, 4]]   # [[TP, FP], [FN, TN]]
    sk = sk_cluster.pair_confusion_matrix([0, 0, 1, 2], [0, 0, 1, 1])
    assert sk.tolist() == [[8, 2], [0, 2]]               # ordered pairs: twice ours
    assert pc.to_sklearn().tolist() == sk.tolist()
    text = pc.explain()
    assert "[[TP, FP], [FN, TN]]" in text and "[[2 TN, 2 FP], [2 FN, 2 TP]]" in text
    assert "predicted \\ true" in text and "P (same class)" in text


def test_large_n_is_exact():
    # N = 3 * 10**6 in two classes and three clusters: counts near 4.5e12, products near
    # 1e25 (beyond int64) - the ARI must equal the exact fraction.
    n = 3_000_000
    truth = np.repeat([0, 1], n // 2)
    pred = np.repeat([0, 1, 2], n // 3)
    pc = pair_confusion(truth, pred)
    half, third = n // 2, n // 3
    tp = 2 * (third * (third - 1) // 2) + 2 * ((half - third) * (half - third - 1) // 2)
    assert pc.tp == tp
    assert pc.n_pairs == n * (n - 1) // 2
    a, b, m = pc.tp + pc.fp, pc.tp + pc.fn, pc.n_pairs
    exact = (Fraction(pc.tp) - Fraction(a * b, m)) / (Fraction(a + b, 2) - Fraction(a * b, m))
    assert float(adjusted_rand_index(truth, pred)) == float(exact)
    assert float(adjusted_rand_index(truth, pred)) == pytest.approx(
        sk_metrics.adjusted_rand_score(truth, pred), abs=1e-12)


# ------------------------------------------------ agreement with sklearn
def _random_pair(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([2, 3, 4, 7, 30, 200, 3000, 20000]))
    kt, kp = int(rng.integers(1, 25)), int(rng.integers(1, 25))
    truth, pred = rng.integers(0, kt, n), rng.integers(0, kp, n)
    if seed % 5 == 0:                               # noise label -1 in pred
        pred[rng.random(n) < 0.2] = -1
    return truth, pred


@pytest.mark.parametrize("seed", range(80))
def test_matches_sklearn(seed):
    truth, pred = _random_pair(seed)
    pc = pair_confusion(truth, pred)
    sk = sk_cluster.pair_confusion_matrix(truth, pred)
    assert (sk[1, 1], sk[0, 1], sk[1, 0], sk[0, 0]) == (2 * pc.tp, 2 * pc.fp, 2 * pc.fn,
                                                        2 * pc.tn)
    assert float(rand_index(truth, pred)) == pytest.approx(
        sk_metrics.rand_score(truth, pred), abs=1e-12)
    assert float(adjusted_rand_index(truth, pred)) == pytest.approx(
        sk_metrics.adjusted_rand_score(truth, pred), abs=1e-12)
    assert float(fowlkes_mallows_index(truth, pred)) == pytest.approx(
        sk_metrics.fowlkes_mallows_score(truth, pred), abs=1e-12)


@pytest.mark.parametrize("seed", range(25))
def test_counts_match_brute_force(seed):
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(2, 60))
    truth = rng.integers(0, int(rng.integers(1, 6)), n).tolist()
    pred = rng.choice(["a", "b", "c", "d"][: int(rng.integers(1, 5))], n).tolist()
    pc = pair_confusion(truth, pred)
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == brute_force_pairs(truth, pred)




@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_edge_cases_match_sklearn(case):
    truth, pred = EDGE_CASES[case]
    pc = pair_confusion(truth, pred)
    assert pc.to_sklearn().tolist() == sk_cluster.pair_confusion_matrix(truth, pred).tolist()
    for ours, theirs in ((rand_index, sk_metrics.rand_score),
                         (adjusted_rand_index, sk_metrics.adjusted_rand_score),
                         (fowlkes_mallows_index, sk_metrics.fowlkes_mallows_score)):
        assert float(ours(truth, pred)) == pytest.approx(theirs(truth, pred), abs=1e-12)


def test_special_values():
    # sklearn's conventions: identical trivial partitions score 1, no TP gives FM 0.
    assert float(adjusted_rand_index(["a"] * 4, [3] * 4)) == 1.0
    assert float(adjusted_rand_index([0, 1, 2, 3], [7, 6, 5, 4])) == 1.0
    assert float(adjusted_rand_index([0, 0, 0, 0], [0, 1, 2, 3])) == 0.0
    assert float(adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1])) == -0.5
    assert float(fowlkes_mallows_index([0, 1, 2, 3], [7, 6, 5, 4])) == 0.0
    # Jaccard 0/0 (no pair together anywhere) is defined as 1, with a note.
    j = jaccard_index([0, 1, 2, 3], [7, 6, 5, 4])
    assert float(j) == 1.0 and "0/0" in j.explain()
    assert float(jaccard_index([0, 0, 1, 1], [0, 1, 2, 3])) == 0.0   # TP = 0, FN = 2
    assert "0/0" in adjusted_rand_index([0, 1, 2], [3, 4, 5]).explain()


# ------------------------------------------------------------------ Hubert
@pytest.mark.parametrize("seed", range(40))
def test_hubert_plain_equals_fast(seed):
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(3, 150))
    truth = rng.integers(0, int(rng.integers(2, 8)), n)
    pred = rng.integers(0, int(rng.integers(2, 8)), n)
    fast = hubert_statistic(truth, pred)
    plain = hubert_statistic(truth, pred, method="matrices")
    if math.isnan(fast):
        assert math.isnan(plain)
    else:
        assert float(plain) == pytest.approx(float(fast), abs=1e-12)
    assert fast.method == "pairs" and plain.method == "matrices"
    assert plain.class_matrix.shape == (n, n)


def test_hubert_against_pearson_on_upper_triangles():
    scipy_stats = pytest.importorskip("scipy.stats")
    truth, pred = EX2_CLASS, EX2_CLUSTER
    a, b = np.triu_indices(len(truth), k=1)
    t = (np.asarray(truth)[a] == np.asarray(truth)[b]).astype(float)
    c = (np.asarray(pred)[a] == np.asarray(pred)[b]).astype(float)
    r = scipy_stats.pearsonr(t, c)[0]
    g = hubert_statistic(truth, pred)
    assert float(g) == pytest.approx(r, abs=1e-12)
    # By hand: M = 45, TP = 3, m1 = TP + FN = 12, m2 = TP + FP = 13:
    # (45*3 - 12*13) / sqrt(12 * 13 * 33 * 32) = -21 / sqrt(164736) = -0.05174
    assert float(g) == pytest.approx(-21 / math.sqrt(164736), abs=1e-15)
    assert (g.m1, g.m2, g.numerator) == (12, 13, -21)
    # phi coefficient of the 2 x 2 pair table
    tp, fp, fn, tn = 3, 10, 9, 23
    phi = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert float(g) == pytest.approx(phi, abs=1e-15)


def test_hubert_exercise_3_matrices():
    g = hubert_statistic(EX3_CLASS, EX3_CLUSTER, method="matrices")
    # Both ideal similarity matrices are the tutorial's 5 x 5 matrix.
    expected = [[1, 0, 0, 1, 0], [0, 1, 0, 0, 1], [0, 0, 1, 0, 0], [1, 0, 0, 1, 0],
                [0, 1, 0, 0, 1]]
    assert g.class_matrix.tolist() == expected
    assert g.cluster_matrix.tolist() == expected
    assert float(g) == pytest.approx(1.0, abs=1e-15)      # identical: correlation 1
    text = g.explain()
    assert "Ideal class similarity matrix T" in text and "x5" in text


@pytest.mark.parametrize("truth, pred, why", [
    ([0, 0, 1, 1, 2], [4] * 5, "every pair shares a cluster"),
    ([0, 0, 1, 1, 2], [0, 1, 2, 3, 4], "no two instances share a cluster"),
    ([3] * 4, [0, 0, 1, 1], "every pair shares a class"),
    ([0, 1], [0, 1], "no two instances share a class"),
])
def test_hubert_undefined_is_nan_with_a_reason(truth, pred, why):
    for method in ("pairs", "matrices"):
        g = hubert_statistic(truth, pred, method=method)
        assert math.isnan(g)
        assert why in g.explain() and "nan" in g.explain()


# ------------------------------------------------------- property tests


SCORES = (rand_index, jaccard_index, fowlkes_mallows_index, adjusted_rand_index)


@settings(max_examples=150, deadline=None)
@given(partitions(), relabelings(), relabelings())
def test_invariant_under_relabeling(tp, f, g):
    truth, pred = tp
    truth2, pred2 = [f[v] for v in truth], [g[v] for v in pred]
    pc, pc2 = pair_confusion(truth, pred), pair_confusion(truth2, pred2)
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == (pc2.tp, pc2.fp, pc2.fn, pc2.tn)
    for score in SCORES + (hubert_statistic,):
        a, b = float(score(truth, pred)), float(score(truth2, pred2))
        assert a == b or (math.isnan(a) and math.isnan(b))


@settings(max_examples=150, deadline=None)
@given(partitions())
def test_symmetry_ranges_and_total(tp):
    truth, pred = tp
    n = len(truth)
    pc, swapped = pair_confusion(truth, pred), pair_confusion(pred, truth)
    assert pc.tp + pc.fp + pc.fn + pc.tn == n * (n - 1) // 2 == pc.n_pairs
    assert min(pc.tp, pc.fp, pc.fn, pc.tn) >= 0
    assert (swapped.tp, swapped.fp, swapped.fn, swapped.tn) == (pc.tp, pc.fn, pc.fp, pc.tn)
    for score in SCORES:
        assert float(score(truth, pred)) == pytest.approx(float(score(pred, truth)),
                                                          abs=1e-12)
    for score in (rand_index, jaccard_index, fowlkes_mallows_index):
        assert 0.0 <= float(score(truth, pred)) <= 1.0
    assert float(adjusted_rand_index(truth, pred)) <= 1.0
    g = hubert_statistic(truth, pred)
    assert math.isnan(g) or -1.0 - 1e-12 <= float(g) <= 1.0 + 1e-12
    h = float(hubert_statistic(pred, truth))
    assert (math.isnan(g) and math.isnan(h)) or float(g) == pytest.approx(h, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(partitions(max_n=30))
def test_hubert_plain_equals_fast_property(tp):
    truth, pred = tp
    fast = float(hubert_statistic(truth, pred))
    plain = float(hubert_statistic(truth, pred, method="matrices"))
    assert (math.isnan(fast) and math.isnan(plain)) or plain == pytest.approx(fast, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(partitions(max_n=25))
def test_counts_equal_brute_force_property(tp):
    truth, pred = tp
    pc = pair_confusion(truth, pred)
    assert (pc.tp, pc.fp, pc.fn, pc.tn) == brute_force_pairs(truth, pred)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 30), st.integers(1, 6))
def test_identical_partitions_score_one(n, k):
    labels = [i % k for i in range(n)]
    for score in SCORES:
        if score is fowlkes_mallows_index and k >= n:
            continue                                 # all singletons: TP = 0 -> FM = 0
        assert float(score(labels, labels)) == 1.0


# ------------------------------------------------------------ the results
def test_derivations_show_the_numbers():
    ri = rand_index(EX2_CLASS, EX2_CLUSTER)
    text = ri.explain()
    assert "RI = (3 + 23) / 45 = 0.5778" in text
    assert "TN = C(10,2) - TP - FP - FN = 45 - 3 - 10 - 9 = 23" in text
    assert "f11 = TP, f01 = FP, f10 = FN, f00 = TN" in text
    assert "J = 3 / (3 + 10 + 9) = 0.1364" in jaccard_index(EX2_CLASS, EX2_CLUSTER).explain()
    assert "ARI = (3 - 52/15) / (25/2 - 52/15)" in adjusted_rand_index(
        EX2_CLASS, EX2_CLUSTER).explain()
    assert "Fowlkes-Mallows index" in fowlkes_mallows_index(EX2_CLASS, EX2_CLUSTER).explain()
    assert "$$" in ri._repr_markdown_()
    back = pickle.loads(pickle.dumps(ri))
    assert float(back) == float(ri) and back.tp == 3


def test_large_inputs_render_quickly():
    n = 100_000
    truth, pred = np.arange(n) % 13, np.arange(n)
    for score in SCORES + (hubert_statistic, pair_confusion):
        text = score(truth, pred).explain()
        assert "sum over" in text and len(text) < 20_000


# ------------------------------------------------------------- bad input
ALL = (pair_confusion,) + SCORES + (hubert_statistic,)


@pytest.mark.parametrize("function", ALL)
def test_different_lengths(function):
    with pytest.raises(ValueError, match="^truth and pred must label the same instances"):
        function([0, 1, 1], [0, 1])


@pytest.mark.parametrize("function", ALL)
@pytest.mark.parametrize("bad, error", [
    ([], ValueError), ([1], ValueError), ([[0, 1], [1, 0]], ValueError),
    ([0.5, float("nan")], ValueError), (["a", None], ValueError), (None, TypeError),
    ({0, 1}, TypeError),
])
def test_bad_labels(function, bad, error):
    with pytest.raises(error, match="^pred:"):
        function([0, 1], bad)
    with pytest.raises(error, match="^truth:"):
        function(bad, [0, 1])


def test_bad_method():
    with pytest.raises(ValueError, match="^method: unknown value 'cosine'"):
        hubert_statistic([0, 1, 1], [0, 0, 1], method="cosine")
    n = MAX_MATRIX_N + 1
    with pytest.raises(ValueError, match="^method: 'matrices' builds two N x N matrices"):
        hubert_statistic(np.zeros(n, int), np.arange(n) % 2, method="matrices")


@pytest.mark.parametrize("seed", range(10))
def test_small_derivations_list_every_pair_and_the_list_adds_up(seed):
    # issue 16: for N <= 12 a student checks a hand count pair by pair
    from prayatul_edu.counting import PAIR_LIST_MAX_N

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, PAIR_LIST_MAX_N + 1))
    truth, pred = rng.integers(0, 3, n), rng.integers(0, 3, n)
    pc = pair_confusion(truth, pred)
    lines = [line for line in pc.explain().splitlines() if line.strip().startswith("{x")]
    assert len(lines) == n * (n - 1) // 2
    cells = [line.split()[-2] for line in lines]          # "TP (f11)" -> "TP"
    assert (cells.count("TP"), cells.count("FP"), cells.count("FN"), cells.count("TN")) == \
        (pc.tp, pc.fp, pc.fn, pc.tn)
    row = next(line for line in lines if line.split()[:2] == ["{x1,", f"x{n}}}"]).split()
    assert row[4] == ("yes" if truth[0] == truth[n - 1] else "no")
    assert row[7] == ("yes" if pred[0] == pred[n - 1] else "no")
    big = pair_confusion(np.arange(PAIR_LIST_MAX_N + 1) % 2, np.arange(PAIR_LIST_MAX_N + 1) % 3)
    assert "one by one" not in big.explain() and "one by one" in pc.explain()
