"""AMI, homogeneity / completeness / V-measure and variation of information."""
import math
from fractions import Fraction

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from prayatul_edu import (adjusted_mutual_information, completeness, contingency_table, entropy,
                          homogeneity, information, mutual_information,
                          normalized_mutual_information, v_measure, variation_of_information)
from cases import EDGE_CASES, partitions, relabelings

sk_metrics = pytest.importorskip("sklearn.metrics")

AVERAGES = ("arithmetic", "geometric", "min", "max")


# ----------------------------------------------------------------- AMI
def _emi_exact_probabilities(a_sizes, b_sizes, n):
    """E[I] in bits with every hypergeometric probability as an exact fraction."""
    total = 0.0
    for a in a_sizes:
        for b in b_sizes:
            for k in range(max(1, a + b - n), min(a, b) + 1):
                p = Fraction(math.comb(b, k) * math.comb(n - b, a - k), math.comb(n, a))
                total += float(p) * (k / n) * math.log2(n * k / (a * b))
    return total


def test_emi_by_hand_for_three_pairs():
    # n = 6, clusters of 2, 2, 2, classes of 3, 3. A cell n_ij in {0, 1, 2} has
    # P(1) = C(3,1) C(3,1) / C(6,2) = 9/15 and P(2) = C(3,2) / 15 = 3/15.
    # n_ij = 1 gives log2(6 / 6) = 0; n_ij = 2 gives (2/6) log2 2 = 1/3 bit. Six cells:
    # E[I] = 6 * (3/15) * (1/3) = 2/5 bit.
    a = adjusted_mutual_information([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])
    assert a.emi == pytest.approx(0.4, abs=1e-15)
    text = a.explain()
    assert "0.2" in text and "P(n_ij)" in text        # the term-by-term table
    # I = H(C) - H(C | T): class 0 holds clusters (2, 1), so H(C | T) = log2 3 - 2/3
    # and I = 2/3 bit; H(C) = log2 3, H(T) = 1 bit.
    h_c, h_t = math.log2(3), 1.0
    mi = 2 / 3
    assert float(a.mi) == pytest.approx(mi, abs=1e-15)
    expected = (mi - 0.4) / ((h_c + h_t) / 2 - 0.4)
    assert float(a) == pytest.approx(expected, abs=1e-14)


@settings(max_examples=80, deadline=None)
@given(partitions(max_n=25, max_k=5))
def test_fast_emi_equals_the_term_by_term_sum_and_exact_probabilities(tp):
    truth, pred = tp
    a = adjusted_mutual_information(truth, pred)
    t = a.table
    plain = math.fsum(c for *_, c in a.emi_terms())
    if t.shape[0] in (1, t.n) or t.shape[1] in (1, t.n):
        # A single group or all singletons: E[I] is taken as I exactly; the sum agrees.
        assert a.emi == float(a.mi)
        assert plain == pytest.approx(float(a.mi), abs=1e-13)
        return
    exact = _emi_exact_probabilities([int(x) for x in t.cluster_sizes],
                                     [int(x) for x in t.class_sizes], t.n)
    assert a.emi == pytest.approx(plain, abs=1e-13)
    assert a.emi == pytest.approx(exact, abs=1e-13)


def test_probabilities_of_each_cell_sum_to_one():
    # Clusters of 3 and 4, classes of 2 and 5 (n = 7).
    a = adjusted_mutual_information([0, 0, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1])
    sizes_c, sizes_t = a.table.cluster_sizes.tolist(), a.table.class_sizes.tolist()
    assert (sorted(sizes_c), sorted(sizes_t)) == ([3, 4], [2, 5])
    rows = a.emi_terms()
    for i, size_i in enumerate(sizes_c):
        for j, size_j in enumerate(sizes_t):
            # n_ij = 0 is left out of the sum (it contributes 0), so add it back.
            p0 = math.comb(7 - size_j, size_i) / math.comb(7, size_i)
            assert math.fsum(p for ii, jj, _, p, _ in rows if (ii, jj) == (i, j)) + p0 == \
                pytest.approx(1.0, abs=1e-15)


@settings(max_examples=150, deadline=None)
@given(partitions(max_n=60, max_k=7))
def test_ami_agrees_with_sklearn(tp):
    truth, pred = tp
    for average in AVERAGES:
        ours = adjusted_mutual_information(truth, pred, average)
        if ours.case == "undefined":
            # Exactly 0/0 (see test_ami_zero_over_zero_is_reported_as_one): scikit-learn
            # divides two rounding residues there and returns 1, 2/3, ... by chance.
            assert float(ours) == 1.0
            continue
        theirs = sk_metrics.adjusted_mutual_info_score(truth, pred, average_method=average)
        assert float(ours) == pytest.approx(theirs, abs=1e-10), average


def test_ami_agrees_with_sklearn_on_many_labels():
    rng = np.random.default_rng(7)
    for n, k in ((3000, 40), (20000, 300)):
        truth, pred = rng.integers(0, k, n), rng.integers(0, k // 2 + 1, n)
        ours = float(adjusted_mutual_information(truth, pred))
        assert ours == pytest.approx(sk_metrics.adjusted_mutual_info_score(truth, pred),
                                     abs=1e-10)


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_ami_edge_cases_agree_with_sklearn(name):
    truth, pred = EDGE_CASES[name]
    for average in AVERAGES:
        ours = adjusted_mutual_information(truth, pred, average)
        if ours.case == "undefined":
            assert float(ours) == 1.0
            continue
        assert float(ours) == pytest.approx(
            sk_metrics.adjusted_mutual_info_score(truth, pred, average_method=average),
            abs=1e-10)


# ------------------------------------- E[I] summed only where P(n_ij) is not 0.0
def _emi_full_range(a_sizes, b_sizes, n):
    """E[I] over every possible n_ij (the sum before the windows), the same
    log-factorials (SciPy's gammaln, one at a time), terms summed exactly (math.fsum);
    and the sum of the terms' sizes (terms of both signs cancel: the scale of the
    rounding error of any other order of summation)."""
    from scipy.special import gammaln

    def lf(x):
        return float(gammaln(float(x) + 1))
    terms = []
    for a in a_sizes:
        for b in b_sizes:
            margins = lf(a) + lf(b) + lf(n - a) + lf(n - b) - lf(n)
            for k in range(max(1, a + b - n), min(a, b) + 1):
                log_p = margins - lf(k) - lf(a - k) - lf(b - k) - lf(n - a - b + k)
                terms.append(math.exp(log_p) * (k / n) * math.log(n * k / (a * b)))
    return math.fsum(terms), math.fsum(abs(t) for t in terms)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4000), st.lists(st.floats(0.01, 1), min_size=1, max_size=4),
       st.lists(st.floats(0.01, 1), min_size=1, max_size=4))
def test_emi_windows_give_the_full_range_sum(n, wa, wb):
    rng = np.random.default_rng(len(wa) * 7 + len(wb))
    a_sizes = np.bincount(rng.choice(len(wa), n, p=np.asarray(wa) / sum(wa)))
    b_sizes = np.bincount(rng.choice(len(wb), n, p=np.asarray(wb) / sum(wb)))
    a_sizes, b_sizes = a_sizes[a_sizes > 0], b_sizes[b_sizes > 0]
    ours = information._expected_mutual_information(a_sizes, b_sizes, n)
    full, scale = _emi_full_range(a_sizes.tolist(), b_sizes.tolist(), n)
    # each log-probability is a sum of nine log-factorials of at most log(n!) each, so it
    # carries an absolute rounding error of up to about 9 eps log(n!): so does each term,
    # relatively, whichever of two correct ways computes it (n = 687: 4e-14 of the scale;
    # the fixed 1e-13 of the scale held by luck and failed for n = 687, wa = [1, 0.125])
    bound = 9 * np.finfo(float).eps * math.lgamma(n + 1) + 1e-13
    assert abs(ours - full) <= bound * scale


@pytest.mark.parametrize("a, b, n", [(20000, 16667, 10**6), (3, 5, 10), (999, 999, 1000),
                                     (1, 1, 2), (500, 700, 1000), (10**6, 5, 10**6 + 7),
                                     (4 * 10**8, 5 * 10**8, 10**9)])
def test_emi_windows_hold_every_term_above_the_cut(a, b, n):
    log_fact = information._log_factorials(n)
    first, last = information._emi_windows(a, np.array([b]), n, log_fact)
    lo, hi = max(1, a + b - n), min(a, b)
    assert lo <= first[0] <= last[0] <= hi
    # outside the window, every log-probability is below the cut (log-concave: checked on
    # the whole range where it is short, else on the neighbours and a stretch beyond)
    ks = np.arange(lo, hi + 1) if hi - lo < 10**6 else np.concatenate(
        [np.arange(max(lo, first[0] - 1000), first[0]), np.arange(last[0] + 1,
                                                                min(hi, last[0] + 1000) + 1)])
    outside = ks[(ks < first[0]) | (ks > last[0])]
    log_p = information._log_p(a, np.full(outside.shape, b), outside, n, log_fact)
    assert (log_p < information.EMI_LOG_P_CUT).all()
    # and the window is not the whole range when the range is long
    if hi - lo > 10**4:
        assert last[0] - first[0] < (hi - lo) / 5


def test_emi_is_the_same_with_and_without_the_table_and_in_small_batches():
    rng = np.random.default_rng(3)
    a_sizes = np.bincount(rng.integers(0, 7, 30000))
    b_sizes = np.bincount(rng.integers(0, 9, 30000))
    table = information._expected_mutual_information(a_sizes, b_sizes, 30000)
    with mock.patch.object(information, "EMI_TABLE_MAX_N", 0):
        computed = information._expected_mutual_information(a_sizes, b_sizes, 30000)
    with mock.patch.object(information, "EMI_BATCH", 50):
        batched = information._expected_mutual_information(a_sizes, b_sizes, 30000)
    assert computed == table                      # the same log-factorials, the same sums
    assert batched == pytest.approx(table, rel=1e-13)


def test_emi_agrees_with_sklearn_at_a_million_instances():
    from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information
    rng = np.random.default_rng(11)
    truth, pred = rng.integers(0, 6, 10**6), rng.integers(0, 8, 10**6)
    t = contingency_table(truth, pred)
    ours = information._expected_mutual_information(t.cluster_sizes, t.class_sizes, t.n)
    theirs = expected_mutual_information(np.asarray(t).T, t.n)
    assert ours == pytest.approx(theirs, rel=1e-9)


def test_emi_at_a_billion_instances_is_the_chi_square_limit_in_bounded_memory():
    # For large n, 2 n E[I] tends to the mean of a chi-square with (R - 1)(C - 1) degrees
    # of freedom: E[I] ~ (R - 1)(C - 1) / (2 n). The full range would be 10^9 terms a cell.
    import tracemalloc
    n = 10**9
    a_sizes, b_sizes = [4 * 10**8, 6 * 10**8], [2 * 10**8, 3 * 10**8, 5 * 10**8]
    tracemalloc.start()
    emi = information._expected_mutual_information(a_sizes, b_sizes, n)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert emi == pytest.approx((2 - 1) * (3 - 1) / (2 * n), rel=1e-6)
    assert peak < 400 * 2**20


def test_ami_is_exactly_zero_where_sklearn_leaves_a_rounding_residue():
    # Clusters all singletons: every shuffle gives I = H(T), so E[I] = I and AMI = 0
    # exactly; scikit-learn sums E[I] and may return a residue of order 1e-16.
    a = adjusted_mutual_information([0, 1, 2], [0, 0, 1])
    assert float(a) == 0.0 and a.emi == float(a.mi)
    assert "E[I] = I exactly" in a.explain()


def test_ami_zero_over_zero_is_reported_as_one():
    # Clusters all singletons: I = E[I] = H(T) = min(H(C), H(T)), so with average="min"
    # AMI = 0 / 0 exactly. scikit-learn's answer there is a quotient of rounding residues
    # (1.0 for the first case, 2/3 for the second with scikit-learn 1.9.1).
    a = adjusted_mutual_information([0, 1, 2], [0, 0, 1], average="min")
    assert float(a) == 1.0 and "0/0" in a.explain()
    b = adjusted_mutual_information([0, 0, 1, 1], [0, 1, 2, 3], average="min")
    assert float(b) == 1.0 and b.emi == float(b.mi) == pytest.approx(1.0, abs=1e-15)  # 1 bit


def test_ami_identical_and_permuted_partitions_give_one():
    assert float(adjusted_mutual_information([0, 0, 1, 1, 2], ["b", "b", "a", "a", "c"])) \
        == pytest.approx(1.0, abs=1e-15)


def test_ami_is_chance_corrected_but_nmi_is_not():
    # Random labels with many clusters: NMI is clearly positive, AMI near 0.
    rng = np.random.default_rng(0)
    truth, pred = rng.integers(0, 3, 300), rng.integers(0, 60, 300)
    nmi = float(normalized_mutual_information(truth, pred))
    assert nmi > 0.05
    assert abs(float(adjusted_mutual_information(truth, pred))) < nmi / 2


# ------------------------------------------------------ homogeneity, completeness, V
def test_v_measure_hand_worked():
    # Clusters {x1, x2}, {x3}, {x4}; classes {x1, x2}, {x3, x4}: every cluster is pure
    # (h = 1); I = ln 2, H(C) = 1.5 ln 2, so c = 2/3 and V = 2 * 2/3 / (5/3) = 0.8.
    v = v_measure([0, 0, 1, 1], [0, 0, 1, 2])
    assert v.homogeneity == pytest.approx(1.0, abs=1e-15)
    assert v.completeness == pytest.approx(2 / 3, abs=1e-15)
    assert float(v) == pytest.approx(0.8, abs=1e-15)
    assert homogeneity([0, 0, 1, 1], [0, 0, 1, 2]) == v.homogeneity
    assert completeness([0, 0, 1, 1], [0, 0, 1, 2]) == v.completeness
    # beta = 2 weighs completeness more: 3 * (2/3) / (2 + 2/3) = 0.75.
    assert float(v_measure([0, 0, 1, 1], [0, 0, 1, 2], beta=2)) == pytest.approx(0.75, abs=1e-15)


@settings(max_examples=150, deadline=None)
@given(partitions(max_n=50, max_k=6))
def test_v_measure_agrees_with_sklearn(tp):
    truth, pred = tp
    for beta in (0.5, 1.0, 3.0):
        h, c, v = sk_metrics.homogeneity_completeness_v_measure(truth, pred, beta=beta)
        ours = v_measure(truth, pred, beta=beta)
        assert ours.homogeneity == pytest.approx(h, abs=1e-12)
        assert ours.completeness == pytest.approx(c, abs=1e-12)
        assert float(ours) == pytest.approx(v, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(partitions(max_n=50, max_k=6))
def test_v_measure_with_beta_1_is_arithmetic_nmi(tp):
    truth, pred = tp
    assert float(v_measure(truth, pred)) == pytest.approx(
        float(normalized_mutual_information(truth, pred, average="arithmetic")), abs=1e-12)


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_v_measure_edge_cases_agree_with_sklearn(name):
    truth, pred = EDGE_CASES[name]
    h, c, v = sk_metrics.homogeneity_completeness_v_measure(truth, pred)
    ours = v_measure(truth, pred)
    assert (ours.homogeneity, ours.completeness, float(ours)) == pytest.approx((h, c, v),
                                                                                abs=1e-12)


# ------------------------------------------------------------ VI
def test_vi_hand_worked_in_bits():
    # Independent halves: H(C) = H(T) = 1 bit, I = 0, VI = 2 bits; H(C, T) = 2 bits.
    assert float(variation_of_information([0, 0, 1, 1], [0, 1, 0, 1])) == 2.0
    assert float(variation_of_information([0, 0, 1, 1], [0, 1, 0, 1], base=math.e)) == \
        pytest.approx(2 * math.log(2), abs=1e-15)
    assert float(variation_of_information([0, 0, 1, 1], [0, 1, 0, 1],
                                          normalize="joint")) == pytest.approx(1.0, abs=1e-15)
    # Four points: VI / log2(4) = 2 / 2.
    assert float(variation_of_information([0, 0, 1, 1], [0, 1, 0, 1],
                                          normalize="log_n")) == pytest.approx(1.0, abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(partitions(max_n=40, max_k=6), partitions(max_n=40, max_k=6))
def test_vi_is_a_metric_and_equals_the_entropy_formula(tp, tq):
    truth, pred = tp
    vi = float(variation_of_information(truth, pred))
    h_c, h_t = float(entropy(pred)), float(entropy(truth))
    mi = float(mutual_information(truth, pred, base=2))
    assert vi == pytest.approx(h_c + h_t - 2 * mi, abs=1e-12)
    assert vi >= 0
    assert vi == pytest.approx(float(variation_of_information(pred, truth)), abs=1e-12)
    assert float(variation_of_information(truth, truth)) == 0.0
    # Triangle inequality on a third partition of the same points.
    third = (list(tq[0]) * len(truth))[:len(truth)]
    assert vi <= float(variation_of_information(truth, third)) + \
        float(variation_of_information(third, pred)) + 1e-12
    nvi = float(variation_of_information(truth, pred, normalize="joint"))
    assert 0 <= nvi <= 1 + 1e-12
    assert float(variation_of_information(truth, pred, normalize="log_n")) <= 1 + 1e-12


def test_vi_normalised_forms_do_not_depend_on_the_base():
    truth, pred = [0, 0, 1, 1, 2, 2, 2], [0, 1, 1, 1, 2, 2, 0]
    for normalize in ("joint", "log_n"):
        assert float(variation_of_information(truth, pred, base=2, normalize=normalize)) == \
            pytest.approx(float(variation_of_information(truth, pred, base=10,
                                                         normalize=normalize)), abs=1e-14)


@settings(max_examples=80, deadline=None)
@given(partitions(max_n=40, max_k=6), relabelings(), relabelings())
def test_ami_v_vi_are_symmetric_and_ignore_label_names(tp, rename_t, rename_p):
    truth, pred = tp
    named_t, named_p = [rename_t[x] for x in truth], [rename_p[x] for x in pred]
    ami = float(adjusted_mutual_information(truth, pred))
    assert float(adjusted_mutual_information(named_t, named_p)) == pytest.approx(ami, abs=1e-12)
    assert float(adjusted_mutual_information(pred, truth)) == pytest.approx(ami, abs=1e-12)
    assert ami <= 1 + 1e-12
    v = v_measure(truth, pred)
    swapped = v_measure(pred, truth)        # homogeneity and completeness trade places
    assert swapped.homogeneity == pytest.approx(v.completeness, abs=1e-12)
    assert swapped.completeness == pytest.approx(v.homogeneity, abs=1e-12)
    assert float(variation_of_information(named_t, named_p)) == pytest.approx(
        float(variation_of_information(truth, pred)), abs=1e-12)


def test_emi_of_one_instance_is_zero():
    assert information._expected_mutual_information([1], [1], 1) == 0.0


def _bits_printed(text, symbol):
    """The number printed after ``symbol = `` in a derivation's plain text."""
    import re
    return float(re.search(re.escape(symbol) + r" = (-?[0-9.]+)", text).group(1))


@pytest.mark.parametrize("measure", [adjusted_mutual_information, v_measure])
def test_ami_and_v_derivations_print_bits_like_entropy(measure):
    # The course's one base is bits: the H(C), H(T) and I an AMI or V derivation prints
    # are the numbers entropy() and mutual_information() print for the same labels.
    truth = [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2]
    pred = [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    text = measure(truth, pred).explain()
    assert "nats" not in text and "(bits)" in text and " ln" not in text
    assert _bits_printed(text, "H(C)") == pytest.approx(float(entropy(pred)), abs=1e-4)
    assert _bits_printed(text, "H(T)") == pytest.approx(float(entropy(truth)), abs=1e-4)
    assert _bits_printed(text, "I") == pytest.approx(float(mutual_information(truth, pred)),
                                                     abs=1e-4)


def test_emi_printed_in_bits_is_the_nats_sum_over_ln2():
    truth = [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2]
    pred = [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    a = adjusted_mutual_information(truth, pred)
    t = a.table
    nats = information._expected_mutual_information(t.cluster_sizes, t.class_sizes, t.n)
    assert a.emi == pytest.approx(nats / math.log(2), rel=1e-14)
    assert _bits_printed(a.explain(), "E[I]") == pytest.approx(a.emi, abs=1e-4)
    assert "log2(n n_ij / (n_i m_j))" in a.explain()
