"""The Prayatul matrix: a hand example, Algorithm 1 as an oracle, the paper's theorems."""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import prayatul as prayatul_module
from prayatul_edu import prayatul_by_instance, prayatul_matrix
from prayatul_edu.labels import check_partitions

MEASURES = ["comparative_deviation", "polarization", "comparative_rightness",
            "effective_rightness", "effective_superiority"]
LOWER = {"comparative_deviation": -1, "polarization": -1, "comparative_rightness": 0,
         "effective_rightness": -1, "effective_superiority": -1}


# ------------------------------------------------------------------ oracle
def algorithm1(G, P, Q):
    """The paper's Algorithm 1 (D-matrix algorithm), literally: a double loop over pairs."""
    G, P, Q = list(G), list(P), list(Q)
    D = [[0, 0], [0, 0]]
    N = len(G)
    for i in range(N):
        for j in range(i + 1, N):
            p, q, g = P[i] == P[j], Q[i] == Q[j], G[i] == G[j]
            if (p and q and g) or (not p and not q and not g):
                D[0][0] += 1
            elif (p and not q and g) or (not p and q and not g):
                D[0][1] += 1
            elif (not p and q and g) or (p and not q and not g):
                D[1][0] += 1
            elif (p and q and not g) or (not p and not q and g):
                D[1][1] += 1
    return D


def by_instance_oracle(G, P, Q):
    """Row i: the cells of the pairs (i, j), j != i, by a double loop."""
    N = len(G)
    out = [[0, 0, 0, 0] for _ in range(N)]
    for i in range(N):
        for j in range(N):
            if i == j:
                continue
            g = G[i] == G[j]
            p_right = (P[i] == P[j]) == g
            q_right = (Q[i] == Q[j]) == g
            out[i][2 * (not p_right) + (not q_right)] += 1
    return out


def cells(m):
    return [m.br, m.rw, m.wr, m.bw]


@st.composite
def labelling(draw, n, strings=False):
    k = draw(st.integers(1, 5))
    values = draw(st.lists(st.integers(-1, k - 1), min_size=n, max_size=n))
    return [f"c{v}" for v in values] if strings else values


@st.composite
def triples(draw, max_n=30):
    n = draw(st.integers(2, max_n))
    return tuple(draw(labelling(n, strings=draw(st.booleans()))) for _ in range(3))


PROPERTY = settings(max_examples=100, deadline=None)


# -------------------------------------------------------------- hand example
# N = 5 instances, 10 pairs. truth = a a a b b, primary = 1 1 2 2 2,
# alternative = x x y x y. For each pair: g= ?, primary right?, alternative right?
#   (0,1) g=  p=  R   q=  R  -> BR        (1,3) g!= p!= R   q=  W  -> RW
#   (0,2) g=  p!= W   q!= W  -> BW        (1,4) g!= p!= R   q!= R  -> BR
#   (0,3) g!= p!= R   q=  W  -> RW        (2,3) g!= p=  W   q!= R  -> WR
#   (0,4) g!= p!= R   q!= R  -> BR        (2,4) g!= p=  W   q=  W  -> BW
#   (1,2) g=  p!= W   q!= W  -> BW        (3,4) g=  p=  R   q!= W  -> RW
# BR = 3, RW = 3, WR = 1, BW = 3.
HAND = (["a", "a", "a", "b", "b"], [1, 1, 2, 2, 2], ["x", "x", "y", "x", "y"])


@pytest.mark.parametrize("method", ["auto", "pairs", "counts"])
def test_hand_example(method):
    m = prayatul_matrix(*HAND, method=method)
    assert cells(m) == [3, 3, 1, 3]
    assert np.asarray(m).tolist() == [[3, 3], [1, 3]]
    assert np.asarray(m).dtype == np.int64
    assert m.n_pairs == 10 and type(m.n_pairs) is int
    assert all(type(c) is int for c in cells(m))
    assert m.method == ("counts" if method == "auto" else method)
    # sigma_c = (3-1)/(3+1), alpha = (3+3-3)/10, xi_c = 6/7, xi_e = 5/7, phi_e = 5/10
    assert m.comparative_deviation == 0.5
    assert m.polarization == 0.3
    assert m.comparative_rightness == 6 / 7
    assert m.effective_rightness == 5 / 7
    assert m.effective_superiority == 0.5
    assert m.measures() == {"comparative_deviation": 0.5, "polarization": 0.3,
                            "comparative_rightness": 6 / 7, "effective_rightness": 5 / 7,
                            "effective_superiority": 0.5}


def test_hand_example_by_instance():
    # Instance 0: (0,1) BR, (0,2) BW, (0,3) RW, (0,4) BR; instance 2: (0,2) BW, (1,2) BW,
    # (2,3) WR, (2,4) BW; instance 3: (0,3) RW, (1,3) RW, (2,3) WR, (3,4) RW.
    B = prayatul_by_instance(*HAND)
    assert B.dtype == np.int64 and B.shape == (5, 4)
    assert B.tolist() == [[2, 1, 0, 1], [2, 1, 0, 1], [0, 0, 1, 3], [0, 3, 1, 0],
                          [2, 1, 0, 1]]


def test_hand_example_derivation():
    m = prayatul_matrix(*HAND)
    text, md = m.explain(), m._repr_markdown_()
    assert text.splitlines()[0] == "Prayatul matrix: primary vs alternative, N = 5 (10 pairs)"
    assert "| Right | 3 | 3 | 6 |" in md and "| Wrong | 1 | 3 | 4 |" in md
    assert "sigma_c = (3 - 1) / (3 + 1) = 2/4 = 0.5" in text
    assert "alpha = (3 + 3 - 3) / (3 + 3 + 1 + 3) = 3/10 = 0.3" in text
    assert "xi_c = (3 + 3) / (3 + 3 + 1) = 6/7 = 0.8571" in text
    assert "xi_e = (3 + 3 - 1) / (3 + 3 + 1) = 5/7 = 0.7143" in text
    assert "phi_e = (3 + 3 - 1) / (3 + 3 + 1 + 3) = 5/10 = 0.5" in text
    assert r"\frac{3 - 1}{3 + 1}" in md
    assert "when they disagree, the primary is more often right" in text
    # Theorem 1's ranges in the summary table: four in [-1, 1], xi_c in [0, 1].
    assert text.count("[-1, 1]") == 4 and text.count("[0, 1]") == 1
    assert "zero_division" not in text and "zero_division" not in md


# ------------------------------------------------------ Algorithm 1 oracle
@pytest.mark.parametrize("seed", range(12))
def test_counts_and_pairs_match_the_double_loop(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    ks = rng.integers(1, 9, 3)
    G, P, Q = (rng.integers(-1, k, n) for k in ks)  # -1: DBSCAN's noise, a label like any
    if seed % 3 == 1:  # string labels
        G = np.array([f"class-{v}" for v in G])
    if seed % 3 == 2:  # mixed hashables: 1 and "1" are different labels
        Q = [str(v) if v % 2 else int(v) for v in Q]
        P = [int(v) if v % 2 else str(v) for v in P]
    want = algorithm1(G, P, Q)
    for method in ("pairs", "counts", "auto"):
        assert np.asarray(prayatul_matrix(G, P, Q, method=method)).tolist() == want
    assert prayatul_by_instance(G, P, Q).tolist() == by_instance_oracle(list(G), list(P),
                                                                        list(Q))


def test_pairs_blocks_cover_every_pair_once(monkeypatch):
    # Tiny blocks force many row blocks, the triangle inside each block and an N - 1
    # boundary that is not a multiple of the block height.
    rng = np.random.default_rng(7)
    G, P, Q = (rng.integers(0, 3, 61) for _ in range(3))
    want = algorithm1(G, P, Q)
    for block in (1, 7, 61 * 5, 61 * 60, 10**6):
        monkeypatch.setattr(prayatul_module, "_BLOCK_ELEMENTS", block)
        assert np.asarray(prayatul_matrix(G, P, Q, method="pairs")).tolist() == want


def test_rand_index_margins_match_scikit_learn():
    from sklearn.metrics.cluster import pair_confusion_matrix

    rng = np.random.default_rng(3)
    G, P, Q = (rng.integers(0, 4, 200) for _ in range(3))
    m = prayatul_matrix(G, P, Q)
    # pair_confusion_matrix counts ordered pairs: its diagonal / 2 = pairs agreeing with G.
    agree_p = int(np.trace(pair_confusion_matrix(G, P))) // 2
    agree_q = int(np.trace(pair_confusion_matrix(G, Q))) // 2
    assert m.br + m.rw == agree_p
    assert m.br + m.wr == agree_q


# ----------------------------------------------- properties (the theorems)
@PROPERTY
@given(triples())
def test_counts_sum_to_all_pairs_and_methods_agree(t):
    G, P, Q = t
    n = len(G)
    a = prayatul_matrix(G, P, Q, method="counts")
    b = prayatul_matrix(G, P, Q, method="pairs")
    assert cells(a) == cells(b)
    assert sum(cells(a)) == a.n_pairs == n * (n - 1) // 2
    B = prayatul_by_instance(G, P, Q)
    assert B.sum(axis=0).tolist() == [2 * c for c in cells(a)]
    assert (B.sum(axis=1) == n - 1).all()
    assert (B >= 0).all()


@PROPERTY
@given(triples())
def test_measures_are_the_formulas_and_in_theorem_1_ranges(t):
    m = prayatul_matrix(*t)
    BR, RW, WR, BW = cells(m)
    T = m.n_pairs

    def ratio(a, b):
        return float(Fraction(a, b)) if b else 0.0

    assert m.comparative_deviation == ratio(RW - WR, RW + WR)
    assert m.polarization == ratio(BR + RW - BW, T)
    assert m.comparative_rightness == ratio(BR + RW, BR + RW + WR)
    assert m.effective_rightness == ratio(BR + RW - WR, BR + RW + WR)
    assert m.effective_superiority == ratio(BR + RW - WR, T)
    for name, value in m.measures().items():
        assert type(value) is float
        assert LOWER[name] <= value <= 1, name


@PROPERTY
@given(st.data())
def test_permutation_invariance_under_relabelling(data):
    # Theorem 4: any injective renaming of the labels of G, P or Q changes nothing.
    G, P, Q = data.draw(triples())
    which = data.draw(st.integers(0, 2))
    labels = [G, P, Q]
    old = sorted(set(labels[which]), key=repr)
    new = data.draw(st.lists(st.one_of(st.integers(-50, 50), st.text(max_size=3)),
                             min_size=len(old), max_size=len(old), unique=True))
    rename = dict(zip(old, new))
    labels[which] = [rename[v] for v in labels[which]]
    before = prayatul_matrix(G, P, Q)
    after = prayatul_matrix(*labels)
    assert cells(after) == cells(before)
    assert after.measures() == before.measures()


@PROPERTY
@given(st.data())
def test_invariance_under_reordering_the_instances(data):
    # Theorem 3: the order in which instances come has no effect.
    G, P, Q = data.draw(triples())
    order = data.draw(st.permutations(range(len(G))))
    shuffled = [[x[i] for i in order] for x in (G, P, Q)]
    assert cells(prayatul_matrix(*shuffled)) == cells(prayatul_matrix(G, P, Q))
    rows = prayatul_by_instance(*shuffled)
    assert rows.tolist() == prayatul_by_instance(G, P, Q)[list(order)].tolist()


@PROPERTY
@given(triples())
def test_swapping_primary_and_alternative_transposes(t):
    G, P, Q = t
    m = prayatul_matrix(G, P, Q)
    s = prayatul_matrix(G, Q, P)
    assert (np.asarray(s) == np.asarray(m).T).all()
    assert s.comparative_deviation == -m.comparative_deviation
    by = prayatul_by_instance(G, P, Q)
    assert prayatul_by_instance(G, Q, P).tolist() == by[:, [0, 2, 1, 3]].tolist()


@PROPERTY
@given(triples())
def test_an_algorithm_that_recovers_the_truth(t):
    G, P, Q = t
    truth_renamed = [f"renamed-{v}" for v in G]
    # DBSCAN vs BIRCH in the paper's Table I: the primary finds the true clusters
    # (under other label names), so it is never wrong: WR = BW = 0 and xi_c = 1.
    m = prayatul_matrix(G, truth_renamed, Q)
    assert m.wr == 0 and m.bw == 0
    assert m.br + m.rw == m.n_pairs
    assert m.comparative_rightness == 1.0
    assert m.polarization == m.effective_rightness == m.effective_superiority == 1.0
    assert m.comparative_deviation == (1.0 if m.rw else 0.0)
    # BIRCH vs DBSCAN: now the alternative is never wrong, so RW = BW = 0,
    # sigma_c = -1 as soon as the primary errs, alpha = xi_c (both BR / T, the
    # primary's Rand index) and xi_e = phi_e (0.5028, 0.5028, 0.0055, 0.0055 for NC).
    m = prayatul_matrix(G, P, truth_renamed)
    assert m.rw == 0 and m.bw == 0
    assert m.br + m.wr == m.n_pairs
    assert m.comparative_deviation == (-1.0 if m.wr else 0.0)
    assert m.polarization == m.comparative_rightness == m.br / m.n_pairs
    assert m.effective_rightness == m.effective_superiority == (m.br - m.wr) / m.n_pairs


@PROPERTY
@given(st.data())
def test_identical_algorithms_never_deviate(data):
    # DBSCAN vs Spectral: same clusters (different names) -> RW = WR = 0.
    G, P, _ = data.draw(triples())
    Q = [str(v) + "!" for v in P]
    m = prayatul_matrix(G, P, Q, zero_division=0.25)
    assert m.rw == 0 and m.wr == 0
    assert m.comparative_deviation == 0.25
    assert m.polarization == (m.br - m.bw) / m.n_pairs


@PROPERTY
@given(triples())
def test_theorem_5_improving_the_primary_never_lowers_a_measure(t):
    # Replacing the primary by the truth turns all its wrong pairs right: a consistent
    # improvement, so no measure may decrease.
    G, P, Q = t
    before = prayatul_matrix(G, P, Q).measures()
    after = prayatul_matrix(G, G, Q).measures()
    for name in MEASURES:
        assert after[name] >= before[name], name


def test_extreme_cases_reach_the_ends_of_the_ranges():
    # Truth one group; both algorithms put every instance alone: every pair is wrong
    # for both (BW = T), alpha = -1, and BR + RW + WR = 0 makes xi_c, xi_e 0/0.
    m = prayatul_matrix([5] * 6, range(6), list("abcdef"))
    assert cells(m) == [0, 0, 0, 15]
    assert m.polarization == -1.0
    assert m.effective_superiority == 0.0
    assert m.comparative_rightness == m.effective_rightness == m.comparative_deviation == 0.0
    # Truth all singletons, primary = truth (right on every pair), alternative one
    # group (wrong on every pair): RW = T and every measure is 1.
    G, one = [0, 1, 2, 3], ["x"] * 4
    m = prayatul_matrix(G, G, one)
    assert cells(m) == [0, 6, 0, 0]
    assert list(m.measures().values()) == [1.0] * 5
    # The other way round: WR = T, so sigma_c = xi_e = phi_e = -1 and xi_c = 0.
    m = prayatul_matrix(G, one, G)
    assert cells(m) == [0, 0, 6, 0]
    assert m.comparative_deviation == m.effective_rightness == -1.0
    assert m.effective_superiority == -1.0 and m.comparative_rightness == 0.0
    assert m.polarization == 0.0
    assert "alternative is more often right" in m.explain()


def test_noise_label_is_an_ordinary_label():
    G, P = [0, 0, 1, 1, 2], [0, 0, 1, 1, 1]
    noisy = prayatul_matrix(G, P, [-1, -1, -1, 4, 4])
    plain = prayatul_matrix(G, P, [9, 9, 9, 4, 4])
    D = algorithm1(G, P, [9, 9, 9, 4, 4])
    assert cells(noisy) == cells(plain) == D[0] + D[1]
    # (0,1) and the 4 pairs across {0,1} x {3,4}: both right; (0,2), (1,2), (2,3):
    # P right, Q wrong; (2,4): P wrong, Q right; (3,4): both wrong.
    assert cells(noisy) == [5, 3, 1, 1]


# ----------------------------------------------------------- zero division
def test_zero_division_default_nan_and_note():
    G, P = [0, 0, 1, 1, 2], [1, 1, 0, 0, 0]
    m = prayatul_matrix(G, P, P)           # identical algorithms: RW = WR = 0
    assert m.rw == m.wr == 0
    assert m.comparative_deviation == 0.0  # the paper reports 0
    assert m.zero_division_used() == ["comparative_deviation"]
    for shown in (m.explain(), m._repr_markdown_()):
        assert "zero_division = 0" in shown and "RW + WR = 0" in shown
    m = prayatul_matrix(G, P, P, zero_division=float("nan"))
    assert math.isnan(m.comparative_deviation)
    assert not math.isnan(m.polarization)
    assert "zero_division = nan" in m.explain() and "zero_division = nan" in m._repr_markdown_()
    # BR + RW + WR = 0 also hits xi_c and xi_e.
    m = prayatul_matrix([1, 1, 1], [1, 2, 3], [1, 2, 3], zero_division=-0.5)
    assert m.comparative_rightness == m.effective_rightness == -0.5
    assert "BR + RW + WR = 0" in m.explain()


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, kwargs, error, match", [
    (([0, 1, 2], [0, 1], [0, 1, 2]), {}, ValueError, "truth and primary"),
    (([0, 1, 2], [0, 1, 2], [0, 1]), {}, ValueError, "truth and alternative"),
    (([], [], []), {}, ValueError, "truth: is empty"),
    (([0], [0], [0]), {}, ValueError, "truth: has 1 instance"),
    (([0, 1], [[0, 1], [1, 0]], [0, 1]), {}, ValueError, "primary: expected a 1-D"),
    (([0, 1], [0, 1], [0.0, float("nan")]), {}, ValueError, "alternative: labels must not be NaN"),
    ((None, [0, 1], [0, 1]), {}, TypeError, "truth: expected"),
    (([0, 1], [0, None], [0, 1]), {}, ValueError, "primary: labels must not be None"),
    (([0, 1], [0, 1], "ab"), {}, TypeError, "alternative"),
    (([0, 1], [0, 1], [0, 1]), {"method": "fast"}, ValueError, "method: unknown value 'fast'"),
    (([0, 1], [0, 1], [0, 1]), {"method": None}, ValueError, "method"),
    (([0, 1], [0, 1], [0, 1]), {"zero_division": "0"}, TypeError, "zero_division"),
    (([0, 1], [0, 1], [0, 1]), {"zero_division": None}, TypeError, "zero_division"),
    (([0, 1], [0, 1], [0, 1]), {"zero_division": True}, TypeError, "zero_division"),
])
def test_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        prayatul_matrix(*args, **kwargs)


@pytest.mark.parametrize("args, error, match", [
    (([0, 1, 2], [0, 1, 2], [0, 1]), ValueError, "truth and alternative"),
    (([0], [0], [0]), ValueError, "truth: has 1 instance"),
    (([0, 1], [0, 1], [[0], [1]]), ValueError, "alternative: expected a 1-D"),
])
def test_bad_input_by_instance(args, error, match):
    with pytest.raises(error, match=match):
        prayatul_by_instance(*args)


# ------------------------------------------------------------ large N, exact
def test_large_n_is_exact():
    N = 10**7
    zeros = np.zeros(N, dtype=np.int8)
    parity = (np.arange(N) % 2).astype(np.int8)
    half = N // 2
    # G and P: one group. Q splits by parity: together (right) inside each half,
    # apart (wrong) across the halves.
    m = prayatul_matrix(zeros, zeros, parity)
    assert m.method == "counts"
    assert cells(m) == [2 * (half * (half - 1) // 2), half * half, 0, 0]
    assert m.n_pairs == N * (N - 1) // 2 == 49_999_995_000_000
    assert all(type(c) is int for c in cells(m))
    assert m.comparative_deviation == 1.0
    assert m.polarization == 1.0
    # Everything in one group everywhere: BR = C(N, 2).
    m = prayatul_matrix(zeros, zeros, zeros)
    assert cells(m) == [N * (N - 1) // 2, 0, 0, 0]


def test_large_n_by_instance():
    N = 10**6
    zeros = np.zeros(N, dtype=np.int8)
    parity = np.arange(N) % 2
    B = prayatul_by_instance(zeros, parity, zeros)
    # Each instance: the N/2 - 1 others of its parity are BR, the N/2 others are WR.
    assert (B[:, 0] == N // 2 - 1).all() and (B[:, 2] == N // 2).all()
    assert (B[:, [1, 3]] == 0).all()


# -------------------------------------- the dense fast paths equal the plain ones
def _labels_of_kind(rng, kind, n, k):
    values = rng.integers(0, k, n)
    if kind == "ints":
        return values
    if kind == "noise":
        return values - 1                                 # -1 .. k-2
    if kind == "huge":
        return values * 10 ** 15 - 10 ** 17               # too wide for a dense range
    return np.array([f"label {v}" for v in values])       # strings: codes, then dense


@pytest.mark.parametrize("kinds", [("ints", "ints", "ints"), ("noise", "ints", "strings"),
                                   ("huge", "noise", "ints"), ("strings", "huge", "huge")])
@pytest.mark.parametrize("n", [2, 3, 40, 2500])
def test_dense_counts_equal_group_sizes_and_algorithm1(kinds, n):
    rng = np.random.default_rng(n)
    G, P, Q = (_labels_of_kind(rng, kind, n, int(rng.integers(1, 9))) for kind in kinds)
    g, p, q = check_partitions(truth=G, primary=P, alternative=Q)
    fast = prayatul_module._from_dense_table(g, p, q)
    plain = prayatul_module._from_group_sizes(g, p, q)
    assert fast == plain and all(type(c) is int for c in fast)
    assert list(fast) == list(prayatul_module._algorithm1(g.codes, p.codes, q.codes))
    by_fast = prayatul_module._by_instance_dense(g, p, q)
    by_plain = prayatul_module._by_instance_plain(g, p, q)
    assert by_fast.dtype == by_plain.dtype == np.int64
    assert (by_fast == by_plain).all()
    assert (prayatul_by_instance(G, P, Q) == by_plain).all()


def test_too_many_values_for_a_dense_table_take_the_plain_path(monkeypatch):
    from prayatul_edu import counting

    rng = np.random.default_rng(3)
    G, P, Q = (rng.integers(0, 30, 200) for _ in range(3))   # 30^3 cells > max(200, 64)
    expected = prayatul_matrix(G, P, Q, method="pairs")
    by_expected = prayatul_by_instance(G, P, Q)
    monkeypatch.setattr(counting, "DENSE_MIN_CELLS", 64)
    assert prayatul_module._from_dense_table(*check_partitions(g=G, p=P, q=Q)) is None
    assert cells(prayatul_matrix(G, P, Q)) == cells(expected)
    assert (prayatul_by_instance(G, P, Q) == by_expected).all()


@pytest.mark.parametrize("seed", range(10))
def test_small_derivations_list_every_pair_with_both_methods(seed):
    # issue 16: the Prayatul matrix by hand, pair by pair, for N <= 12 (also method="pairs")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 13))
    g, p, q = (rng.integers(0, 3, n) for _ in range(3))
    for method in ("pairs", "counts"):
        m = prayatul_matrix(g, p, q, method=method)
        lines = [line.split() for line in m.explain().splitlines()
                 if line.strip().startswith("{x")]
        assert len(lines) == n * (n - 1) // 2
        cells = [row[-1] for row in lines]
        assert [cells.count(c) for c in ("BR", "RW", "WR", "BW")] == [m.br, m.rw, m.wr, m.bw]
        assert f"Tally: BR = {m.br}, RW = {m.rw}, WR = {m.wr}, BW = {m.bw}." in m.explain()
        first = lines[0]                                 # {x1, x2}
        together = g[0] == g[1]
        assert first[2] == ("together" if together else "apart")
        assert first[4] == ("right" if (p[0] == p[1]) == together else "wrong")
    big = prayatul_matrix(*(rng.integers(0, 3, 13) for _ in range(3)))
    assert "one by one" not in big.explain()


# ------------------------------------------------- a tournament's shared counting
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60).flatmap(lambda n: st.lists(
    st.lists(st.integers(-1, 6), min_size=n, max_size=n), min_size=4, max_size=4)),
    st.sampled_from(["ints", "strings", "spread"]))
def test_shared_counting_gives_each_pairs_own_matrix(columns, kind):
    """prayatul_matrices (every joint count once, (B, A) from (A, B)) = prayatul_matrix of
    each ordered pair, for small-range ints, strings and ints on no grid."""
    if kind == "strings":
        columns = [[f"c{v}" for v in col] for col in columns]
    elif kind == "spread":
        columns = [[v * 2**40 + 7 for v in col] for col in columns]
    truth, *algos = columns
    names = ["A", "B", "C"]
    checked = dict(zip(names, check_partitions(**{n: a for n, a in zip(names, algos)})))
    g = check_partitions(truth=truth)[0]
    pairs = [(p, q) for p in names for q in names if p != q]
    shared = prayatul_module.prayatul_matrices(g, checked, pairs)
    assert list(shared) == pairs
    for (p, q), m in shared.items():
        alone = prayatul_matrix(truth, algos[names.index(p)], algos[names.index(q)])
        assert (m.br, m.rw, m.wr, m.bw) == (alone.br, alone.rw, alone.wr, alone.bw)
        assert m.n_groups == alone.n_groups and m.measures() == alone.measures()
        assert (m.rw, m.wr) == (shared[q, p].wr, shared[q, p].rw)


def test_shared_counting_at_a_million_rows_many_labels():
    """The sort path (too many labels for a table) gives each pair's own integers too."""
    rng = np.random.default_rng(46)
    n = 200_000
    truth = rng.integers(0, 5000, n)
    algos = {n_: np.where(rng.random(n) < 0.3, rng.integers(0, 5000, n), truth)
             for n_ in ("A", "B")}
    checked = dict(zip(algos, check_partitions(**algos)))
    shared = prayatul_module.prayatul_matrices(check_partitions(truth=truth)[0], checked,
                                               [("A", "B"), ("B", "A")])
    alone = prayatul_matrix(truth, algos["A"], algos["B"])
    assert (shared["A", "B"].br, shared["A", "B"].rw, shared["A", "B"].wr,
            shared["A", "B"].bw) == (alone.br, alone.rw, alone.wr, alone.bw)
    assert shared["B", "A"].rw == alone.wr and alone.rw != alone.wr
