"""W_in, W_out, normalized cut, BetaCV: a hand example, a brute-force oracle, identities."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import beta_cv, between_cluster_weight, normalized_cut, within_cluster_weight

# A hand example: 5 instances, clusters A = {0, 1}, B = {2, 3}, C = {4} (a singleton).
#
#        0  1  2  3  4
#   0 [  0  1  4  5  6 ]
#   1 [  1  0  3  4  7 ]
#   2 [  4  3  0  2  8 ]
#   3 [  5  4  2  0  9 ]
#   4 [  6  7  8  9  0 ]
#
# W(A, A) = w01 + w10 = 2,  W(B, B) = 2 + 2 = 4,  W(C, C) = 0     -> W_in = (2+4+0)/2 = 3
# W(A, not A) = (4+5+6) + (3+4+7) = 29
# W(B, not B) = (4+3+8) + (5+4+9) = 33
# W(C, not C) = 6+7+8+9 = 30                                      -> W_out = 92/2 = 46
# check: all pairs i<j add up to 1+4+5+6+3+4+7+2+8+9 = 49 = W_in + W_out
# W(A, V) = 2+29 = 31, W(B, V) = 4+33 = 37, W(C, V) = 0+30 = 30
# NC = 29/31 + 33/37 + 30/30 = (1073 + 1023)/1147 + 1 = 3243/1147 = 2.82737...
# N_in = C(2,2) + C(2,2) + C(1,2) = 2, N_out = 2*2 + 2*1 + 2*1 = 8 = C(5,2) - 2
# BetaCV = (3/2) / (46/8) = 6/23
HAND_W = np.array([[0, 1, 4, 5, 6],
                   [1, 0, 3, 4, 7],
                   [4, 3, 0, 2, 8],
                   [5, 4, 2, 0, 9],
                   [6, 7, 8, 9, 0]], dtype=float)
HAND_LABELS = ["A", "A", "B", "B", "C"]


def test_hand_example_within():
    w = within_cluster_weight(HAND_W, HAND_LABELS)
    assert float(w) == 3.0
    assert w.per_cluster.tolist() == [2.0, 4.0, 0.0]
    assert w.clusters.tolist() == ["A", "B", "C"]
    assert w.sizes.tolist() == [2, 2, 1]


def test_hand_example_between():
    w = between_cluster_weight(HAND_W, HAND_LABELS)
    assert float(w) == 46.0
    assert w.per_cluster.tolist() == [29.0, 33.0, 30.0]


def test_hand_example_normalized_cut():
    nc = normalized_cut(HAND_W, HAND_LABELS)
    assert Fraction(29, 31) + Fraction(33, 37) + 1 == Fraction(3243, 1147)
    assert float(nc) == pytest.approx(3243 / 1147, abs=1e-15)
    assert nc.per_cluster == pytest.approx([29 / 31, 33 / 37, 1.0], abs=1e-15)
    assert nc.cut.tolist() == [29.0, 33.0, 30.0]
    assert nc.volume.tolist() == [31.0, 37.0, 30.0]


def test_hand_example_beta_cv():
    b = beta_cv(HAND_W, HAND_LABELS)
    assert (b.w_in, b.w_out) == (3.0, 46.0)
    assert (b.n_in, b.n_out) == (2, 8)
    assert type(b.n_in) is int and type(b.n_out) is int
    assert float(b) == pytest.approx(6 / 23, abs=1e-15)


def test_hand_example_derivations():
    text = within_cluster_weight(HAND_W, HAND_LABELS).explain()
    assert "W_in = (1/2) (2 + 4 + 0) = 3" in text
    text = between_cluster_weight(HAND_W, HAND_LABELS).explain()
    assert "W_out = (1/2) (29 + 33 + 30) = 46" in text
    text = normalized_cut(HAND_W, HAND_LABELS).explain()
    assert "NC = 0.9355 + 0.8919 + 1 = 2.8274" in text
    assert "W(C_i, V)" in text and "garbled" in text
    text = beta_cv(HAND_W, HAND_LABELS).explain()
    assert "N_in = 2 ;  N_out = C(5, 2) - N_in = 8" in text
    assert "BetaCV = (3 / 2) / (46 / 8) = 1.5 / 5.75 = 0.2609" in text


# --------------------------------------------------------------- the oracle
def _random_W(rng, n):
    A = rng.random((n, n)) * rng.integers(1, 10)
    W = np.triu(A, 1)
    return W + W.T


def _oracle(W, labels):
    """Every quantity straight from its definition, with double loops over instances."""
    n = len(labels)
    clusters = sorted(set(labels))
    within = {c: 0.0 for c in clusters}
    cut = {c: 0.0 for c in clusters}
    volume = {c: 0.0 for c in clusters}
    for i in range(n):
        for j in range(n):
            c = labels[i]
            volume[c] += W[i, j]                       # W(C, V)
            if labels[j] == c:
                within[c] += W[i, j]                   # W(C, C)
            else:
                cut[c] += W[i, j]                      # W(C, not C)
    w_in = sum(W[i, j] for i in range(n) for j in range(i + 1, n) if labels[i] == labels[j])
    w_out = sum(W[i, j] for i in range(n) for j in range(i + 1, n) if labels[i] != labels[j])
    n_in = sum(1 for i in range(n) for j in range(i + 1, n) if labels[i] == labels[j])
    n_out = sum(1 for i in range(n) for j in range(i + 1, n) if labels[i] != labels[j])
    nc = sum(cut[c] / volume[c] for c in clusters)
    return dict(clusters=clusters, within=[within[c] for c in clusters],
                cut=[cut[c] for c in clusters], volume=[volume[c] for c in clusters],
                w_in=w_in, w_out=w_out, n_in=n_in, n_out=n_out, nc=nc,
                beta=(w_in / n_in) / (w_out / n_out))


@pytest.mark.parametrize("seed", range(8))
def test_against_brute_force_oracle(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    W = _random_W(rng, n)
    pool = ["x", "y", "z", "-1", "w"]
    labels = [pool[v] for v in rng.integers(0, int(rng.integers(2, 6)), n)]
    labels[0] = "solo"  # a singleton cluster
    labels[1] = labels[2] = "pair"  # and a cluster with a pair, so N_in > 0
    ref = _oracle(W, labels)
    wi, wo = within_cluster_weight(W, labels), between_cluster_weight(W, labels)
    nc, b = normalized_cut(W, labels), beta_cv(W, labels)
    assert wi.clusters.tolist() == ref["clusters"]
    np.testing.assert_allclose(wi.per_cluster, ref["within"], rtol=1e-12)
    np.testing.assert_allclose(wo.per_cluster, ref["cut"], rtol=1e-12)
    np.testing.assert_allclose(nc.volume, ref["volume"], rtol=1e-12)
    assert float(wi) == pytest.approx(ref["w_in"], rel=1e-12)
    assert float(wo) == pytest.approx(ref["w_out"], rel=1e-12)
    assert float(nc) == pytest.approx(ref["nc"], rel=1e-12)
    assert (b.n_in, b.n_out) == (ref["n_in"], ref["n_out"])
    assert float(b) == pytest.approx(ref["beta"], rel=1e-12)


# ------------------------------------------------------------- identities
@pytest.mark.parametrize("seed", range(5))
def test_identities(seed):
    rng = np.random.default_rng(50 + seed)
    n = int(rng.integers(3, 60))
    W = _random_W(rng, n)
    labels = rng.integers(0, int(rng.integers(2, 7)), n)
    labels[:2] = 99  # at least one pair inside a cluster
    labels[2] = 98   # and two clusters
    wi, wo = within_cluster_weight(W, labels), between_cluster_weight(W, labels)
    nc, b = normalized_cut(W, labels), beta_cv(W, labels)
    total = W[np.triu_indices(n, 1)].sum()
    # every pair is either inside a cluster or between two
    assert float(wi) + float(wo) == pytest.approx(total, rel=1e-12)
    # W(C_i, C_i) + W(C_i, not C_i) = W(C_i, V), and the volumes add up to twice the total
    np.testing.assert_allclose(wi.per_cluster + wo.per_cluster, nc.volume, rtol=1e-12)
    assert nc.volume.sum() == pytest.approx(2 * total, rel=1e-12)
    # each NC term is a fraction of the cluster's weight: 0 <= NC <= k
    assert ((0 <= nc.per_cluster) & (nc.per_cluster <= 1)).all()
    assert 0 <= float(nc) <= len(nc.clusters)
    # pair counts: N_in + N_out = C(N, 2) and N_out = sum_{i<j} n_i n_j
    sizes = b.sizes.tolist()
    assert b.n_in + b.n_out == n * (n - 1) // 2
    assert b.n_out == sum(sizes[i] * sizes[j] for i in range(len(sizes))
                          for j in range(i + 1, len(sizes)))
    assert float(b) == pytest.approx((float(wi) / b.n_in) / (float(wo) / b.n_out), rel=1e-12)


def test_single_cluster():
    W = _random_W(np.random.default_rng(1), 6)
    labels = ["only"] * 6
    assert float(within_cluster_weight(W, labels)) == pytest.approx(W.sum() / 2, rel=1e-12)
    assert float(between_cluster_weight(W, labels)) == 0.0
    nc = normalized_cut(W, labels)       # nothing leaves the one cluster
    assert float(nc) == 0.0 and nc.per_cluster.tolist() == [0.0]
    with pytest.raises(ValueError, match=r"^labels: BetaCV needs at least 2 clusters"):
        beta_cv(W, labels)


def test_all_singletons():
    W = _random_W(np.random.default_rng(2), 5)
    labels = list(range(5))
    assert float(within_cluster_weight(W, labels)) == 0.0
    assert float(between_cluster_weight(W, labels)) == pytest.approx(W.sum() / 2, rel=1e-12)
    # each singleton's weight all leaves it: every term is 1, NC = N
    assert float(normalized_cut(W, labels)) == pytest.approx(5.0, abs=1e-14)
    with pytest.raises(ValueError, match=r"^labels: BetaCV needs a cluster with at least 2"):
        beta_cv(W, labels)


def test_zero_volume_cluster_contributes_zero():
    # instance 3 has weight 0 to everyone and is alone: its term is 0/0, taken as 0
    W = np.array([[0, 1, 2, 0], [1, 0, 3, 0], [2, 3, 0, 0], [0, 0, 0, 0]], dtype=float)
    nc = normalized_cut(W, [0, 0, 1, 2])
    # cluster 0: W(C, not C) = 2 + 3 = 5, W(C, V) = 2 + 5 = 7; cluster 1: 5/5
    assert nc.per_cluster == pytest.approx([5 / 7, 1.0, 0.0], abs=1e-15)
    assert float(nc) == pytest.approx(5 / 7 + 1, abs=1e-15)
    assert "W(C_i, V) = 0" in nc.explain()


def test_beta_cv_with_zero_between_weight():
    # all weights between clusters are 0: W_out / N_out = 0
    W = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 2, 0]], dtype=float)
    b = beta_cv(W, [0, 0, 1, 1])
    assert float(b) == np.inf and b.w_out == 0.0
    assert "W_out = 0" in b.explain()
    assert np.isnan(float(beta_cv(np.zeros((4, 4)), [0, 0, 1, 1])))


def test_graph_measures_on_the_tutorial_distances():
    from prayatul_edu import tutorial

    D, labels = tutorial.EXERCISE_1_D, tutorial.EXERCISE_1_LABELS
    # inside: 0.10 and 0.90; between: 0.65 + 0.55 + 0.70 + 0.60 = 2.5
    assert float(within_cluster_weight(D, labels)) == pytest.approx(1.0, abs=1e-15)
    assert float(between_cluster_weight(D, labels)) == pytest.approx(2.5, abs=1e-15)
    # BetaCV = (1.0 / 2) / (2.5 / 4) = 0.8
    assert float(beta_cv(D, labels)) == pytest.approx(0.8, abs=1e-15)
    # NC = 2.5 / (0.2 + 2.5) + 2.5 / (1.8 + 2.5)
    assert float(normalized_cut(D, labels)) == pytest.approx(2.5 / 2.7 + 2.5 / 4.3, abs=1e-15)


# ------------------------------------------------------- property tests
@st.composite
def weighted_clusterings(draw):
    n = draw(st.integers(3, 12))
    upper = draw(st.lists(st.integers(0, 20), min_size=n * (n - 1) // 2,
                          max_size=n * (n - 1) // 2))
    W = np.zeros((n, n))
    W[np.triu_indices(n, 1)] = upper
    W = W + W.T
    labels = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    perm = draw(st.permutations(list(range(n))))
    return W, labels, perm


def _measures(W, labels):
    out = {"w_in": within_cluster_weight(W, labels), "w_out": between_cluster_weight(W, labels),
           "nc": normalized_cut(W, labels)}
    if len(set(labels)) > 1 and len(set(labels)) < len(labels):
        out["beta"] = beta_cv(W, labels)
    return out


@settings(max_examples=60, deadline=None)
@given(weighted_clusterings())
def test_invariant_under_relabeling_and_permuting_instances(case):
    W, labels, perm = case
    base = _measures(W, labels)
    # relabel: cluster c becomes the string "k<3-c>" (an order-reversing renaming)
    renamed = [f"k{3 - c}" for c in labels]
    # permute instances: rows and columns of W together, and the labels
    p = np.array(perm)
    moved = _measures(W[np.ix_(p, p)], [labels[i] for i in perm])
    for other, name_of in [(_measures(W, renamed), lambda c: f"k{3 - c}"),
                           (moved, lambda c: c)]:
        assert other.keys() == base.keys()
        for key, result in base.items():
            assert float(other[key]) == pytest.approx(float(result), rel=1e-12, abs=1e-12) or (
                np.isnan(float(result)) and np.isnan(float(other[key])))
            if hasattr(result, "per_cluster"):
                mine = dict(zip(result.clusters.tolist(), result.per_cluster.tolist()))
                theirs = dict(zip(other[key].clusters.tolist(), other[key].per_cluster.tolist()))
                assert {name_of(c): v for c, v in mine.items()} == pytest.approx(theirs,
                                                                                 abs=1e-12)


# ---------------------------------------------------------------- bad input
FUNCTIONS = [within_cluster_weight, between_cluster_weight, normalized_cut, beta_cv]


@pytest.mark.parametrize("f", FUNCTIONS)
@pytest.mark.parametrize("W, message", [
    ([[0, 1, 2], [1, 0, 3]], r"^W: must be a square"),
    ([[0, 1, 2], [1, 0, 3], [2, 4, 0]], r"^W: must be symmetric"),
    ([[0, -1, 2], [-1, 0, 3], [2, 3, 0]], r"^W: distances must be non-negative"),
    ([[0, 1, 2], [1, 1, 3], [2, 3, 0]], r"^W: the diagonal must be zero"),
    ([[0, np.nan, 2], [np.nan, 0, 3], [2, 3, 0]], r"^W: contains NaN"),
    ([[0, np.inf, 2], [np.inf, 0, 3], [2, 3, 0]], r"^W: contains NaN or infinite"),
])
def test_bad_W(f, W, message):
    with pytest.raises(ValueError, match=message):
        f(W, [0, 0, 1])


@pytest.mark.parametrize("f", FUNCTIONS)
def test_W_none(f):
    with pytest.raises(TypeError, match=r"^W: "):
        f(None, [0, 0, 1])


@pytest.mark.parametrize("f", FUNCTIONS)
def test_length_mismatch(f):
    with pytest.raises(ValueError, match=r"^labels: has 3 labels but W is 4 x 4"):
        f(HAND_W[:4, :4], [0, 0, 1])


@pytest.mark.parametrize("f", FUNCTIONS)
def test_bad_labels(f):
    with pytest.raises(ValueError, match=r"^labels: labels must not be None"):
        f(HAND_W, ["A", None, "B", "B", "C"])
