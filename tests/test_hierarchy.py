"""Agglomerative clustering, cophenetic matrix, CPCC: the tutorial, SciPy, properties."""
from fractions import Fraction
from math import sqrt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import (cophenet, dendrogram, fcluster, is_valid_linkage,
                                     linkage as scipy_linkage)
from scipy.spatial.distance import pdist, squareform

from prayatul_edu import agglomerative, cophenetic_correlation, cophenetic_matrix, tutorial
from prayatul_edu.cophenetic import (_cpcc_sums_matrix, _cpcc_sums_pairs, _cpcc_sums_tree,
                                     cophenetic_distances as _cophenetic)
from prayatul_edu.hierarchy import AgglomerativeResult, CopheneticMatrix, LazyMergeSteps
from prayatul_edu.linkages import LINKAGES as LINKAGE_TABLE

LINKAGES = ["single", "complete", "average"]
D4 = tutorial.EXERCISE_4_D


def random_D(seed, n, dim=3):
    """Euclidean distances between random points (no ties, almost surely)."""
    X = np.random.default_rng(seed).normal(size=(n, dim))
    return squareform(pdist(X))


def canon(labels):
    """Relabel a partition 0, 1, ... by first appearance (to compare partitions)."""
    seen = {}
    return [seen.setdefault(v, len(seen)) for v in np.asarray(labels).tolist()]


# ------------------------------------------------- Tutorial Exercise 4
# The tutorial's tables after each merge: (row labels, matrix), instances 0-based.
EXERCISE_4_AFTER = [
    ([(0,), (1, 2), (3,), (4,)], [[0, 0.59, 0.45, 0.65],
                                  [0.59, 0, 0.53, 1.02],
                                  [0.45, 0.53, 0, 1.24],
                                  [0.65, 1.02, 1.24, 0]]),
    ([(0, 3), (1, 2), (4,)], [[0, 0.53, 0.65],
                              [0.53, 0, 1.02],
                              [0.65, 1.02, 0]]),
    ([(0, 1, 2, 3), (4,)], [[0, 0.65],
                            [0.65, 0]]),
    ([(0, 1, 2, 3, 4)], [[0]]),
]


@pytest.mark.parametrize("method", ["plain", "fast"])
def test_tutorial_exercise_4_merges(method):
    tree = agglomerative(D4, linkage="single", method=method)
    # {x2,x3} at 0.36, {x1,x4} at 0.45, {x1,x4}+{x2,x3} at 0.53, +{x5} at 0.65.
    merged = [({s.a, s.b}, s.members, s.height) for s in tree.steps]
    assert merged == [({(1,), (2,)}, (1, 2), 0.36),
                      ({(0,), (3,)}, (0, 3), 0.45),
                      ({(0, 3), (1, 2)}, (0, 1, 2, 3), 0.53),
                      ({(0, 1, 2, 3), (4,)}, (0, 1, 2, 3, 4), 0.65)]
    # The same merges in the seed's own (1-based) record.
    published = tutorial.PUBLISHED["exercise_4"]["merges"]
    assert [(tuple(i + 1 for i in s.members), s.height) for s in tree.steps] == published
    # The distance matrix after each merge, rows as the tutorial prints them.
    for step, (clusters, matrix) in zip(tree.steps, EXERCISE_4_AFTER):
        assert step.clusters == clusters
        np.testing.assert_allclose(step.matrix, matrix, rtol=0, atol=1e-15)
    # SciPy ids: x2 = 1 and x3 = 2 make cluster 5, x1 = 0 and x4 = 3 cluster 6, ...
    assert [(s.id_a, s.id_b, s.new_id) for s in tree.steps] == [(1, 2, 5), (0, 3, 6),
                                                                 (5, 6, 7), (4, 7, 8)]
    np.testing.assert_array_equal(tree.linkage_matrix, [[1, 2, 0.36, 2], [0, 3, 0.45, 2],
                                                        [5, 6, 0.53, 4], [4, 7, 0.65, 5]])
    assert tree.n == 5 and tree.linkage == "single" and tree.method == method


def test_tutorial_exercise_4_cophenetic_matrix():
    P = cophenetic_matrix(agglomerative(D4))
    np.testing.assert_array_equal(np.asarray(P), tutorial.PUBLISHED["exercise_4"]["cophenetic"])


def test_tutorial_exercise_4_cpcc():
    c = cophenetic_correlation(D4, agglomerative(D4))
    # Exact, with fractions over the 10 pairs i < j.
    P = tutorial.PUBLISHED["exercise_4"]["cophenetic"]
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    Dq = [Fraction(str(D4[i, j])) for i, j in pairs]
    Pq = [Fraction(str(P[i][j])) for i, j in pairs]
    d, p = sum(Dq) / 10, sum(Pq) / 10
    assert (d, p) == (Fraction("0.745"), Fraction("0.553"))       # the seed's d and p
    cross = sum((x - d) * (y - p) for x, y in zip(Dq, Pq))
    ss_d = sum((x - d) ** 2 for x in Dq)
    ss_p = sum((y - p) ** 2 for y in Pq)
    exact = float(cross) / sqrt(float(ss_d * ss_p))
    assert c.d_mean == pytest.approx(0.745, abs=1e-15)
    assert c.p_mean == pytest.approx(0.553, abs=1e-15)
    assert float(c) == pytest.approx(exact, abs=1e-14)
    assert c.cross == pytest.approx(float(cross), abs=1e-15)
    # The seed prints 0.7978: the exact 0.797752... rounded (not cut) to 4 decimals.
    assert round(float(c), 4) == tutorial.PUBLISHED["exercise_4"]["cpcc"]
    assert abs(float(c) - 0.7977526199688687) < 1e-14
    assert c.n_pairs == 10 and c.zero_d == 0 and c.zero_p == 0


def test_tutorial_exercise_4_derivations_show_the_steps():
    tree = agglomerative(D4)
    text = tree.explain()
    assert "Step 1: the closest clusters are {x2} and {x3}" in text
    # The single-linkage update with its numbers, as in the tutorial's second table.
    assert "d({x2, x3}, {x1}) = min(0.9, 0.59) = 0.59" in text
    assert "d({x1, x2, x3, x4}, {x5}) = min(1.02, 0.65) = 0.65" in text
    assert "$$d(A \\cup B, C) = \\min" in tree._repr_markdown_()
    ctext = cophenetic_correlation(D4, tree).explain()
    assert "d = 0.745" in ctext and "p = 0.553" in ctext and "= 0.7978" in ctext
    assert "non-zero" in ctext                       # the note on the tutorial's d and p
    ptext = cophenetic_matrix(tree).explain()
    assert "ultrametric" in ptext and "0.53" in ptext
    # A single step renders too.
    assert tree.steps[2].explain().startswith("Merge 3: {x2, x3} + {x1, x4} at height 0.53")


def test_average_and_complete_updates_in_the_derivation():
    text = agglomerative(D4, linkage="average").explain()
    # {x2,x3} to {x1}: (1 * 0.9 + 1 * 0.59) / 2; later sizes 2 and 2.
    assert "d({x2, x3}, {x1}) = (1 * 0.9 + 1 * 0.59) / 2 = 0.745" in text
    assert "d({x1, x2, x3, x4}, {x5}) = (2 * 1.085 + 2 * 0.945) / 4 = 1.015" in text
    text = agglomerative(D4, linkage="complete").explain()
    assert "d({x2, x3}, {x1}) = max(0.9, 0.59) = 0.9" in text


# ------------------------------------------------------- agreement with SciPy
CASES = [(0, 2), (1, 3), (2, 5), (3, 17), (4, 60), (5, 140), (6, 260)]   # (seed, N)


@pytest.mark.parametrize("link", LINKAGES)
@pytest.mark.parametrize("seed, n", CASES)
def test_linkage_matches_scipy(seed, n, link):
    D = random_D(seed, n)
    y = squareform(D)
    Z_ref = scipy_linkage(y, method=link)
    methods = ["plain", "fast"] if n <= 200 else ["fast"]
    for method in methods:
        res = agglomerative(D, linkage=link, method=method)
        Z = res.linkage_matrix
        assert is_valid_linkage(Z)
        # ids (each row's two ids sorted, as SciPy does) and sizes exactly; heights to 1e-12
        np.testing.assert_array_equal(np.sort(Z[:, :2], axis=1), np.sort(Z_ref[:, :2], axis=1))
        np.testing.assert_array_equal(Z[:, 3], Z_ref[:, 3])
        np.testing.assert_allclose(Z[:, 2], Z_ref[:, 2], rtol=0, atol=1e-12)
        # the cophenetic matrix and the CPCC
        with np.errstate(invalid="ignore"):      # SciPy divides 0 by 0 when N = 2
            c_ref, P_ref = cophenet(Z_ref, y)
        P = cophenetic_matrix(res)
        np.testing.assert_allclose(P.condensed(), P_ref, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.asarray(P), squareform(P_ref), rtol=0, atol=1e-12)
        c = cophenetic_correlation(D, res)
        if n == 2:                       # one pair: the correlation is 0/0
            assert np.isnan(c) and np.isnan(c_ref)
        else:
            assert abs(float(c) - c_ref) < 1e-12
            assert abs(float(cophenetic_correlation(y, P)) - c_ref) < 1e-12


@pytest.mark.parametrize("link", LINKAGES)
def test_condensed_input_and_scipy_linkage_matrix(link):
    D = random_D(11, 23)
    y = squareform(D)
    res = agglomerative(y, linkage=link)              # SciPy's condensed form works too
    np.testing.assert_array_equal(res.D, D)
    Z_ref = scipy_linkage(y, method=link)
    # cophenetic_matrix accepts SciPy's Z (array or nested lists) as well as a result.
    for Z in (Z_ref, Z_ref.tolist()):
        P = cophenetic_matrix(Z)
        np.testing.assert_allclose(np.asarray(P), np.asarray(cophenetic_matrix(res)),
                                   rtol=0, atol=1e-12)
    # dendrogram accepts the result's Z (and np.asarray(result) is Z).
    np.testing.assert_array_equal(np.asarray(res), res.linkage_matrix)
    ours = dendrogram(np.asarray(res), no_plot=True)["leaves"]
    assert ours == dendrogram(Z_ref, no_plot=True)["leaves"]
    assert res.dendrogram(no_plot=True)["ivl"] == [f"x{i + 1}" for i in ours]


@pytest.mark.parametrize("link", LINKAGES)
@pytest.mark.parametrize("seed, n", [(20, 9), (21, 40), (22, 230)])
def test_cuts_match_fcluster(seed, n, link):
    D = random_D(seed, n)
    res = agglomerative(D, linkage=link)
    Z = res.linkage_matrix
    for k in sorted({1, 2, 3, n // 2, n - 1, n}):
        labels = res.cut(n_clusters=k)
        assert len(set(labels.tolist())) == k
        assert canon(labels) == canon(fcluster(Z, k, criterion="maxclust"))
    heights = Z[:, 2]
    for t in [0.0, heights[0], heights[n // 3], (heights[n // 2] + heights[-1]) / 2,
              heights[-1], heights[-1] + 1]:
        assert canon(res.labels_at(t)) == canon(fcluster(Z, t, criterion="distance"))
        assert canon(res.cut(height=t)) == canon(res.labels_at(t))
    # labels are numbered by first appearance
    assert res.cut(n_clusters=min(3, n)).tolist()[0] == 0


@pytest.mark.parametrize("link", LINKAGES)
def test_large_n_cpcc_paths_match_scipy(link):
    # N = 1100 > 1000: the tree sums (without P) and the whole-matrix sums take over.
    D = random_D(7, 1100, dim=4)
    y = squareform(D)
    res = agglomerative(D, linkage=link)
    assert res.method == "fast" and isinstance(res.steps, LazyMergeSteps)
    Z_ref = scipy_linkage(y, method=link)
    np.testing.assert_allclose(res.heights, Z_ref[:, 2], rtol=0, atol=1e-12)
    c_ref, P_ref = cophenet(Z_ref, y)
    c_tree = cophenetic_correlation(D, res)
    assert c_tree._P is None                         # P was not needed ...
    c_matrix = cophenetic_correlation(D, cophenetic_matrix(res))
    assert abs(float(c_tree) - c_ref) < 1e-12
    assert abs(float(c_matrix) - c_ref) < 1e-12
    np.testing.assert_allclose(squareform(c_tree.P, checks=False), P_ref, rtol=0, atol=1e-12)
    assert c_tree.d_mean == pytest.approx(y.mean(), rel=1e-13)
    assert c_tree.p_mean == pytest.approx(P_ref.mean(), rel=1e-13)


def in_units(sums):
    """The CPCC sums (taken on centred, scaled values) back in the units of D and P."""
    cd, cp, cross, ss_d, ss_p = sums
    return [cd.mean, cp.mean, cross / cd.scale / cp.scale, ss_d / cd.scale ** 2,
            ss_p / cp.scale ** 2]


@pytest.mark.parametrize("seed, n", [(29, 2), (30, 3), (31, 12), (32, 70)])
def test_the_three_cpcc_sums_agree(seed, n):
    D = random_D(seed, n)
    for link in LINKAGES:
        Z = agglomerative(D, linkage=link).linkage_matrix
        P = _cophenetic(Z, n)
        plain = in_units(_cpcc_sums_pairs(D, P))
        iu = np.triu_indices(n, 1)
        dev_d, dev_p = D[iu] - D[iu].mean(), P[iu] - P[iu].mean()
        np.testing.assert_allclose(plain, [D[iu].mean(), P[iu].mean(), np.sum(dev_d * dev_p),
                                           np.sum(dev_d ** 2), np.sum(dev_p ** 2)],
                                   rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(in_units(_cpcc_sums_matrix(D, P)), plain, rtol=1e-12,
                                   atol=1e-15)
        np.testing.assert_allclose(in_units(_cpcc_sums_tree(D, Z)), plain, rtol=1e-12,
                                   atol=1e-15)


# ---------------------------------------------------------- plain == fast
@pytest.mark.parametrize("link", LINKAGES)
@pytest.mark.parametrize("seed, n", [(40, 2), (41, 4), (42, 11), (43, 35)])
def test_plain_and_fast_paths_agree_step_by_step(seed, n, link):
    D = random_D(seed, n)
    plain = agglomerative(D, linkage=link, method="plain")
    fast = agglomerative(D, linkage=link, method="fast")
    assert isinstance(plain.steps, list) and isinstance(fast.steps, LazyMergeSteps)
    np.testing.assert_array_equal(plain.linkage_matrix[:, [0, 1, 3]],
                                  fast.linkage_matrix[:, [0, 1, 3]])
    np.testing.assert_allclose(plain.heights, fast.heights, rtol=0, atol=1e-12)
    assert len(fast.steps) == n - 1
    for s, f in zip(plain.steps, fast.steps):
        assert (s.number, s.a, s.b, s.id_a, s.id_b, s.new_id, s.size) == \
               (f.number, f.a, f.b, f.id_a, f.id_b, f.new_id, f.size)
        assert s.clusters == f.clusters and s.ids == f.ids
        # the Lance-Williams updates (plain) equal the linkage's definition (fast)
        np.testing.assert_allclose(s.matrix, f.matrix, rtol=0, atol=1e-12)
    # negative indices and slices of the lazy steps
    assert fast.steps[-1].number == n - 1
    assert [s.number for s in fast.steps[1:3]] == list(range(2, min(n, 4)))
    with pytest.raises(IndexError):
        fast.steps[n - 1]


def test_matrix_after_merge_is_the_linkage_definition():
    # Average linkage after the 3rd merge on random data: mean of D over the blocks.
    D = random_D(50, 8)
    step = agglomerative(D, linkage="average").steps[2]
    for r, A in enumerate(step.clusters):
        for c, B in enumerate(step.clusters):
            expected = 0.0 if r == c else D[np.ix_(A, B)].mean()
            assert step.matrix[r, c] == pytest.approx(expected, abs=1e-12)


def test_full_trace_at_n_200():
    # Its time (target: under 1 s) is measured by benchmarks/run.py, not asserted here.
    D = random_D(60, 200)
    for link in LINKAGES:
        res = agglomerative(D, linkage=link)
        steps = list(res.steps)
        assert res.method == "plain" and len(steps) == 199
        assert steps[0].matrix.shape == (199, 199) and steps[-1].matrix.shape == (1, 1)


# ------------------------------------------------------------------- ties
def test_ties_plain_path_takes_the_first_pair_row_by_row():
    D = np.ones((5, 5)) - np.eye(5)                 # every distance is 1
    res = agglomerative(D, method="plain")
    assert [(s.a, s.b) for s in res.steps] == [((0,), (1,)), ((2,), (0, 1)),
                                              ((3,), (0, 1, 2)), ((4,), (0, 1, 2, 3))]
    assert res.heights.tolist() == [1, 1, 1, 1]
    assert "Ties" in res.explain()


@pytest.mark.parametrize("seed", range(4))
def test_ties_single_linkage_heights_and_cophenetic_are_unique(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(1, 4, size=45).astype(float)  # N = 10, many ties
    D = squareform(y)
    Z_ref = scipy_linkage(y, "single")
    P_ref = squareform(cophenet(Z_ref))
    for method in ("plain", "fast"):
        res = agglomerative(D, method=method)
        assert is_valid_linkage(res.linkage_matrix)
        np.testing.assert_array_equal(res.heights, Z_ref[:, 2])
        np.testing.assert_array_equal(np.asarray(cophenetic_matrix(res)), P_ref)
    for link in ("complete", "average"):
        for method in ("plain", "fast"):
            Z = agglomerative(D, linkage=link, method=method).linkage_matrix
            assert is_valid_linkage(Z) and (np.diff(Z[:, 2]) >= 0).all()


def test_zero_distances_and_the_tutorials_non_zero_averages():
    # x1 and x2 coincide: the tutorial's "average of the non-zero elements" would skip
    # the pair (1, 2); the CPCC uses all 6 pairs.
    D = np.array([[0, 0, 2, 3], [0, 0, 2, 3], [2, 2, 0, 1], [3, 3, 1, 0]], dtype=float)
    tree = agglomerative(D)
    c = cophenetic_correlation(D, tree)
    assert c.d_mean == pytest.approx(11 / 6, abs=1e-15)       # not 11 / 5
    assert c.zero_d == 1 and c.zero_p == 1
    P = np.asarray(cophenetic_matrix(tree))
    assert P[0, 1] == 0 and P.max() == 2
    assert float(c) == pytest.approx(cophenet(tree.linkage_matrix, squareform(D))[0], abs=1e-12)
    assert "2.2" in c.explain()                                      # the wrong average, 11 / 5


def test_degenerate_cpcc_is_nan_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = cophenetic_correlation([[0, 1], [1, 0]], agglomerative([[0, 1], [1, 0]]))
        assert np.isnan(c)
        assert "undefined" in c.explain()
        D = np.ones((4, 4)) - np.eye(4)
        assert np.isnan(cophenetic_correlation(D, agglomerative(D)))


# --------------------------------------------------------- derivations, API
def test_large_tree_derivation_shows_the_first_merges_only():
    res = agglomerative(random_D(70, 300), linkage="complete")
    text = res.explain()
    assert "The first 20 merges" in text and "... and 279 more merges" in text
    assert "fast path" not in text and ".steps[" not in text     # the lecture's language
    res_md = res._repr_markdown_()
    assert "| merge | cluster A |" in res_md
    assert repr(res.steps) == "<299 merges, each computed on access>"


def test_cophenetic_matrix_is_array_like():
    P = cophenetic_matrix(agglomerative(D4))
    assert isinstance(P, CopheneticMatrix)
    assert P.shape == (5, 5) and len(P) == 5
    assert P[1, 2] == 0.36 and P[4].tolist() == [0.65] * 4 + [0.0]
    assert (P == np.asarray(P)).all()
    assert np.asarray(P, dtype=np.float32).dtype == np.float32


def test_names_label_the_derivation():
    tree = agglomerative(D4, names=["a", "b", "c", "d", "e"])
    assert "{b, c}" in tree.explain()
    assert "b, c" in cophenetic_correlation(D4, tree).explain()


def test_result_types():
    tree = agglomerative(D4)
    assert isinstance(tree, AgglomerativeResult)
    assert tree.Z is tree.linkage_matrix
    assert tree.steps[0].merged == ((1,), (2,))


# ------------------------------------------------------------ properties
@st.composite
def distance_vectors(draw, max_n=12):
    n = draw(st.integers(2, max_n))
    # distances of 0 and many ties included; no tiny (subnormal-squared) values
    value = st.one_of(st.just(0.0), st.integers(1, 5).map(float), st.floats(1e-6, 100))
    y = draw(st.lists(value, min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2))
    return np.array(y)


@settings(max_examples=80, deadline=None)
@given(distance_vectors(), st.sampled_from(LINKAGES), st.sampled_from(["plain", "fast"]))
def test_cophenetic_is_an_ultrametric(y, link, method):
    res = agglomerative(y, linkage=link, method=method)
    P = np.asarray(cophenetic_matrix(res))
    D = squareform(y)
    assert (P == P.T).all() and (np.diagonal(P) == 0).all() and (P >= 0).all()
    # P_ik <= max(P_ij, P_jk) for every i, j, k (the optional exercise, strengthened)
    assert (P[:, None, :] <= np.maximum(P[:, :, None], P[None, :, :]) + 1e-12).all()
    if link == "single":
        assert (P <= D + 1e-12).all()
    if link == "complete":
        assert (P >= D - 1e-12).all()
    if link == "average":        # between the other two
        assert (P >= squareform(cophenet(scipy_linkage(y, "single"))) - 1e-9).all()


@settings(max_examples=80, deadline=None)
@given(distance_vectors(), st.sampled_from(LINKAGES), st.sampled_from(["plain", "fast"]))
def test_linkage_matrix_is_consistent(y, link, method):
    n = int(round((1 + sqrt(1 + 8 * len(y))) / 2))
    Z = agglomerative(y, linkage=link, method=method).linkage_matrix
    assert Z.shape == (n - 1, 4) and is_valid_linkage(Z)
    assert (np.diff(Z[:, 2]) >= 0).all()                           # heights never go down
    size = [1] * n + [0] * (n - 1)
    for k, (a, b, _, s) in enumerate(Z.tolist()):
        size[n + k] = size[int(a)] + size[int(b)]
        assert s == size[n + k]
    assert Z[-1, 3] == n
    ids = Z[:, :2].ravel()
    assert len(set(ids.tolist())) == len(ids)                      # merged once each
    # the heights are SciPy's (heights do not depend on the order of tied merges
    # for single linkage; for the others compare only when there are no ties)
    ref = scipy_linkage(y, link)[:, 2]
    if link == "single" or len(set(y.tolist())) == len(y):
        np.testing.assert_allclose(Z[:, 2], ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(distance_vectors(), st.sampled_from(LINKAGES), st.data())
def test_cut_at_height_is_the_cophenetic_threshold(y, link, data):
    res = agglomerative(y, linkage=link)
    P = np.asarray(cophenetic_matrix(res))
    t = data.draw(st.sampled_from(sorted(set(res.heights.tolist())) + [-1.0, 200.0]))
    labels = res.cut(height=t)
    same = labels[:, None] == labels[None, :]
    off = ~np.eye(res.n, dtype=bool)
    assert (same == (P <= t))[off].all()        # i, j together iff P_ij <= t
    k = data.draw(st.integers(1, res.n))
    assert len(set(res.cut(n_clusters=k).tolist())) == k


@settings(max_examples=60, deadline=None)
@given(distance_vectors(), st.sampled_from(LINKAGES),
       st.floats(0.01, 100, allow_nan=False))
def test_cpcc_is_a_correlation(y, link, scale):
    res = agglomerative(y, linkage=link)
    c = cophenetic_correlation(y, res)
    P = cophenetic_matrix(res)
    assert np.isnan(c) or -1 - 1e-12 <= c <= 1 + 1e-12
    same = cophenetic_correlation(squareform(y), P)
    assert (np.isnan(c) and np.isnan(same)) or abs(c - same) < 1e-12
    # invariant to the unit of distance
    scaled = cophenetic_correlation(scale * y, scale * np.asarray(P))
    assert (np.isnan(c) and np.isnan(scaled)) or abs(c - scaled) < 1e-9


# --------------------------------------------------------------- bad input
def _bad_matrices():
    d = random_D(0, 5)
    asym = d.copy(); asym[0, 1] += 0.5
    neg = d.copy(); neg[0, 1] = neg[1, 0] = -0.2
    diag = d.copy(); diag[2, 2] = 0.3
    nan = d.copy(); nan[1, 3] = nan[3, 1] = np.nan
    return [("not square", d[:, :4], "square"), ("not symmetric", asym, "symmetric"),
            ("negative", neg, "non-negative"), ("non-zero diagonal", diag, "diagonal"),
            ("NaN", nan, "NaN"), ("bad condensed length", np.ones(7), "N\\(N-1\\)/2")]


@pytest.mark.parametrize("case, M, match", _bad_matrices(), ids=[b[0] for b in _bad_matrices()])
def test_bad_distance_matrices(case, M, match):
    with pytest.raises(ValueError, match=match) as info:
        agglomerative(M)
    assert str(info.value).startswith("D:")
    with pytest.raises(ValueError, match=match) as info:
        cophenetic_correlation(M, agglomerative(D4))
    assert str(info.value).startswith("D:")
    with pytest.raises(ValueError, match=match) as info:
        cophenetic_correlation(D4, M)
    assert str(info.value).startswith("cophenetic:")


@pytest.mark.parametrize("kwargs, name", [({"linkage": "wards"}, "linkage"),
                                          ({"linkage": None}, "linkage"),
                                          ({"method": "quick"}, "method")])
def test_unknown_choices(kwargs, name):
    with pytest.raises(ValueError) as info:
        agglomerative(D4, **kwargs)
    assert str(info.value).startswith(name + ":")


def _Z():
    return [[1, 2, 0.36, 2], [0, 3, 0.45, 2], [5, 6, 0.53, 4], [4, 7, 0.65, 5]]


def _malformed():
    Z = np.array(_Z())
    out = [("3 columns", Z[:, :3], "4 columns"), ("1-D", Z[0], "4 columns"),
           ("no rows", np.zeros((0, 4)), "4 columns")]
    for name, (r, c, v), match in [
            ("NaN", (0, 2, np.nan), "NaN"),
            ("future cluster", (1, 1, 6), "does not exist yet"),
            ("negative id", (0, 0, -1), "does not exist yet"),
            ("merged twice", (1, 0, 1), "merged twice"),
            ("fractional id", (0, 0, 1.5), "whole numbers"),
            ("negative height", (0, 2, -0.1), "non-negative"),
            ("wrong size", (2, 3, 3), "hold 4 instances")]:
        bad = Z.copy()
        bad[r, c] = v
        out.append((name, bad, match))
    self_merge = Z.copy()
    self_merge[0, :2] = 1
    out.append(("self merge", self_merge, "with itself"))
    return out


@pytest.mark.parametrize("case, Z, match", _malformed(), ids=[m[0] for m in _malformed()])
def test_malformed_linkage_matrix(case, Z, match):
    with pytest.raises(ValueError, match=match) as info:
        cophenetic_matrix(Z)
    assert str(info.value).startswith("result_or_Z:")


def test_linkage_matrix_of_strings_is_a_type_error():
    with pytest.raises(TypeError) as info:
        cophenetic_matrix([["a", "b", "c", "d"]])
    assert str(info.value).startswith("result_or_Z:")


def test_d_and_cophenetic_of_different_sizes():
    six = random_D(1, 6)
    with pytest.raises(ValueError, match="same instances") as info:
        cophenetic_correlation(six, agglomerative(D4))
    assert "D" in str(info.value) and "cophenetic" in str(info.value)
    with pytest.raises(ValueError, match="same instances"):
        cophenetic_correlation(six, cophenetic_matrix(agglomerative(D4)))
    with pytest.raises(ValueError, match="shapes \\(6, 6\\) and \\(5, 5\\)"):
        cophenetic_correlation(six, np.asarray(cophenetic_matrix(agglomerative(D4))))


def test_bad_cuts_and_names():
    tree = agglomerative(D4)
    with pytest.raises(TypeError, match="exactly one"):
        tree.cut()
    with pytest.raises(TypeError, match="exactly one"):
        tree.cut(height=0.5, n_clusters=2)
    for k in (0, 6):
        with pytest.raises(ValueError) as info:
            tree.cut(n_clusters=k)
        assert str(info.value).startswith("n_clusters:")
    with pytest.raises(TypeError) as info:
        tree.cut(n_clusters=2.5)
    assert str(info.value).startswith("n_clusters:")
    with pytest.raises(ValueError) as info:
        tree.cut(height=float("nan"))
    assert str(info.value).startswith("height:")
    with pytest.raises(TypeError) as info:
        tree.labels_at("0.5")
    assert str(info.value).startswith("height:")
    with pytest.raises(ValueError) as info:
        agglomerative(D4, names=["a", "b"])
    assert str(info.value).startswith("names:")
    with pytest.raises(TypeError) as info:
        agglomerative(D4, names="abcde")
    assert str(info.value).startswith("names:")


# ------------------------------------------- fast checks and sums == plain ones
def _outcome(M, **kwargs):
    from prayatul_edu._validation import check_distance_matrix

    try:
        return check_distance_matrix(M, "D", **kwargs).tolist()
    except ValueError as exc:
        return str(exc)


def _defective_matrices(n):
    rng = np.random.default_rng(n)
    D = random_D(n, n) * 1000                          # scale > 1: the tolerance scales
    i, j = sorted(rng.choice(n, 2, replace=False))    # a pair in a later tile, usually
    cases = [D]
    for value in (np.nan, np.inf, -np.inf, -1e-9, 0.0):
        M = D.copy(); M[i, j] = M[j, i] = value; cases.append(M)
    for delta in (1e-3, 1e-10, -1e-3):                # above and within atol * scale
        M = D.copy(); M[j, i] += delta; cases.append(M)
    for delta in (1e-13, 1e-6):                       # a diagonal within and above atol
        M = D.copy(); M[i, i] = delta; cases.append(M)
    return cases


@pytest.mark.parametrize("n", [2, 9, 30, 61])
def test_one_pass_distance_check_equals_the_plain_checks(n, monkeypatch):
    from prayatul_edu import _validation

    monkeypatch.setattr(_validation, "_TILE", 7)       # many tiles, ragged last ones
    for M in _defective_matrices(n):
        fast = _outcome(M)
        assert _validation._valid_by_tiles(M, 1e-12) == isinstance(fast, list)
        with monkeypatch.context() as m:
            m.setattr(_validation, "_valid_by_tiles", lambda arr, atol: False)
            assert _outcome(M) == fast                   # the same matrix or message


@pytest.mark.parametrize("n", [2, 3, 40])
def test_condensed_expansion_fast_equals_plain(n):
    from prayatul_edu._validation import _expand_condensed

    y = pdist(np.random.default_rng(n).normal(size=(n, 2)))
    plain = _expand_condensed(y, "D", fast=False)
    assert (_expand_condensed(y, "D") == plain).all() and (plain == squareform(y)).all()
    for value, match in ((np.nan, "NaN"), (-1.0, "non-negative")):
        bad = y.copy(); bad[-1] = value
        for fast in (True, False):
            with pytest.raises(ValueError, match=match):
                _expand_condensed(bad, "D", fast=fast)


def test_blocked_pair_sums_equal_the_pair_formula(monkeypatch):
    from prayatul_edu import cophenetic
    from prayatul_edu.cophenetic import Centring

    D = random_D(7, 23)
    P = _cophenetic(agglomerative(D, linkage="average").linkage_matrix, 23)
    iu = np.triu_indices(23, 1)
    d, p = D[iu].mean(), P[iu].mean()
    expected = np.sum((D[iu] - d) * (P[iu] - p))
    for rows_bytes in (8 * 23, 8 * 23 * 5, 2**22):     # one row, five rows, all rows per block
        monkeypatch.setattr(cophenetic, "ROWS_BYTES", rows_bytes)
        cd, cp = Centring(d, 0.0, 1.0), Centring(p, 0.0, 1.0)
        assert cophenetic.half_offdiagonal_dot(D, cd, P, cp) == pytest.approx(expected,
                                                                            rel=1e-13)
        assert cophenetic.half_offdiagonal_dot(D, cd, D, cd) == pytest.approx(
            np.sum((D[iu] - d) ** 2), rel=1e-13)


# ------------------------------------------------------ all seven linkages
ALL = list(LINKAGE_TABLE)
SQUARED = [name for name, link in LINKAGE_TABLE.items() if link.squared]


def random_points(seed, n, dim=3):
    return np.random.default_rng(seed).normal(size=(n, dim))


def assert_same_tree(Z, Z_ref, atol=1e-12):
    """Merge for merge: the same ids and sizes in every row, heights to ``atol``."""
    np.testing.assert_array_equal(Z[:, [0, 1, 3]], Z_ref[:, [0, 1, 3]])
    np.testing.assert_allclose(Z[:, 2], Z_ref[:, 2], rtol=0, atol=atol)


def test_the_table_has_scipys_seven_linkages():
    assert ALL == ["single", "complete", "average", "weighted", "centroid", "median", "ward"]
    assert SQUARED == ["centroid", "median", "ward"]
    assert [n for n, link in LINKAGE_TABLE.items() if not link.monotone] == ["centroid",
                                                                             "median"]
    for name, link in LINKAGE_TABLE.items():
        assert link.name == name and link.definition and link.rule[0] and link.rule[1]


def _coefficient(expr: str, nA: int, nB: int, nC: int) -> Fraction:
    """Evaluate a coefficient as the table writes it, e.g. ``-|A||B|/(|A|+|B|)^2``."""
    code = (expr.replace("|A||B|", "(nA*nB)").replace("|A|", "nA").replace("|B|", "nB")
            .replace("|C|", "nC").replace("^", "**"))
    return Fraction(eval(code, {}, {"nA": Fraction(nA), "nB": Fraction(nB),  # noqa: S307
                                    "nC": Fraction(nC)}))


@pytest.mark.parametrize("name", ALL)
def test_update_is_the_lance_williams_rule_of_the_table(name):
    # The update each algorithm runs equals alpha_A d_AC + alpha_B d_BC + beta d_AB
    # + gamma |d_AC - d_BC| with the coefficients the table shows (on d^2 if squared).
    link = LINKAGE_TABLE[name]
    rng = np.random.default_rng(5)
    for _ in range(50):
        nA, nB, nC = (int(v) for v in rng.integers(1, 6, size=3))
        a, b, c = rng.normal(size=(3, 2))            # a triangle: every rule applies
        # d(A, B) the smallest, as for every merge (A and B are the closest pair)
        d_AB, d_AC, d_BC = sorted([np.linalg.norm(a - b), np.linalg.norm(a - c),
                                   np.linalg.norm(b - c)])
        value = float(link.update(np.array([d_AC]), np.array([d_BC]), d_AB, nA, nB,
                                  np.array([nC]))[0])
        a_A, a_B, beta, gamma = (_coefficient(e, nA, nB, nC) for e in link.coefficients)
        p = 2 if link.squared else 1
        expected = (a_A * Fraction(d_AC) ** p + a_B * Fraction(d_BC) ** p
                    + beta * Fraction(d_AB) ** p + gamma * abs(Fraction(d_AC) ** p
                                                               - Fraction(d_BC) ** p))
        assert value == pytest.approx(float(expected) ** (1 / p), rel=1e-12)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed, n", [(0, 2), (1, 3), (2, 6), (3, 17), (4, 60), (6, 260)])
def test_every_linkage_matches_scipy(seed, n, name):
    X = random_points(seed, n)
    y = pdist(X)
    Z_ref = scipy_linkage(y, method=name)
    for method in (["plain", "fast"] if n <= 200 else ["fast"]):
        res = agglomerative(squareform(y), linkage=name, method=method)
        assert_same_tree(res.linkage_matrix, Z_ref)
        with np.errstate(invalid="ignore"):      # SciPy divides 0 by 0 when N = 2
            c_ref, P_ref = cophenet(Z_ref, y)
        np.testing.assert_allclose(cophenetic_matrix(res).condensed(), P_ref, rtol=0,
                                   atol=1e-12)
        c = cophenetic_correlation(y, res)
        assert (np.isnan(c) and n == 2) or abs(float(c) - c_ref) < 1e-12
    # points given directly (SciPy's and scikit-learn's way) give the same tree
    assert_same_tree(agglomerative(X, linkage=name, metric="euclidean").linkage_matrix,
                     Z_ref)


@pytest.mark.parametrize("name", ALL)
def test_every_linkage_matches_scipy_at_n_1100_with_cpcc(name):
    X = random_points(8, 1100, dim=2)
    y = pdist(X)
    Z_ref = scipy_linkage(y, method=name)
    res = agglomerative(squareform(y), linkage=name)
    assert res.method == "fast"
    assert_same_tree(res.linkage_matrix, Z_ref)
    assert abs(float(cophenetic_correlation(res.D, res)) - cophenet(Z_ref, y)[0]) < 1e-12


@pytest.mark.parametrize("name", ["centroid", "ward"])
def test_heights_are_the_definition_on_points(name):
    # Centroid: the distance between the centroids; Ward: sqrt(2|A||B|/(|A|+|B|)) times it.
    X = random_points(12, 25, dim=2)
    res = agglomerative(X, linkage=name, metric="euclidean")
    for k in range(res.n - 1):
        step = res.steps[k]
        gap = np.linalg.norm(X[list(step.a)].mean(0) - X[list(step.b)].mean(0))
        nA, nB = len(step.a), len(step.b)
        expected = gap if name == "centroid" else np.sqrt(2 * nA * nB / (nA + nB)) * gap
        assert step.height == pytest.approx(expected, rel=1e-9)


def test_lazy_steps_replay_the_loops_matrices_for_every_linkage():
    D = squareform(pdist(random_points(13, 12)))
    for name in ALL:
        plain = agglomerative(D, linkage=name, method="plain")
        fast = agglomerative(D, linkage=name, method="fast")
        for s, f in zip(plain.steps, fast.steps):
            assert (s.a, s.b, s.clusters) == (f.a, f.b, f.clusters)
            np.testing.assert_allclose(s.matrix, f.matrix, rtol=1e-12, atol=1e-12)


# ------------------------------------------- ties, merge for merge, every linkage
@st.composite
def grid_points(draw, max_n=12):
    """Points on a small integer grid: many equal distances, and Euclidean."""
    n = draw(st.integers(2, max_n))
    coords = st.lists(st.integers(0, 3), min_size=2, max_size=2)
    return np.array(draw(st.lists(coords, min_size=n, max_size=n)), dtype=float)


@settings(max_examples=120, deadline=None)
@given(grid_points(), st.sampled_from(ALL), st.sampled_from(["plain", "fast"]))
def test_ties_on_points_agree_with_scipy_merge_for_merge(X, name, method):
    y = pdist(X)
    res = agglomerative(squareform(y), linkage=name, method=method)
    assert_same_tree(res.linkage_matrix, scipy_linkage(y, name))


@st.composite
def integer_distances(draw, max_n=11):
    """Small integer distances (1 to 3): ties everywhere; not always Euclidean."""
    n = draw(st.integers(2, max_n))
    values = st.integers(1, 3).map(float)
    return np.array(draw(st.lists(values, min_size=n * (n - 1) // 2,
                                  max_size=n * (n - 1) // 2)))


@settings(max_examples=150, deadline=None)
@given(integer_distances(), st.sampled_from(ALL), st.sampled_from(["plain", "fast"]))
def test_ties_on_integer_distances_agree_with_scipy_merge_for_merge(y, name, method):
    # (not Euclidean, yet the squared rules stay >= 0: the merged pair is the closest)
    res = agglomerative(y, linkage=name, method=method)
    assert_same_tree(res.linkage_matrix, scipy_linkage(y, name))


# --------------------------------------------------------------- inversions
def test_centroid_inversion():
    # x1 and x2 merge at 2; their centroid (1, 0) is only 1.8 from x3.
    X = [[0, 0], [2, 0], [1, 1.8]]
    for name in ("centroid", "median"):
        res = agglomerative(X, linkage=name, metric="euclidean")
        assert res.heights.tolist() == pytest.approx([2.0, 1.8])
        assert res.inversions() == [2]
        assert "Inversion: merge 2 is lower" in res.explain()
        assert_same_tree(res.linkage_matrix, scipy_linkage(pdist(X), name))
        P = cophenetic_matrix(res)                # the merge joining them, even if lower
        assert P[0, 2] == pytest.approx(1.8) and P[0, 1] == pytest.approx(2.0)
        assert "need not be an ultrametric" in P.explain()
    assert agglomerative(X, linkage="ward", metric="euclidean").inversions() == []


@pytest.mark.parametrize("name", ["centroid", "median"])
@pytest.mark.parametrize("seed", range(3))
def test_cuts_with_inversions_match_fcluster(name, seed):
    X = random_points(seed, 40, dim=2)
    res = agglomerative(X, linkage=name, metric="euclidean")
    Z = res.linkage_matrix
    for t in sorted(set(Z[:, 2].tolist()))[::3] + [0.0, Z[:, 2].max() + 1]:
        assert canon(res.cut(height=t)) == canon(fcluster(Z, t, criterion="distance"))


# ------------------------------------------------------------ points input
def test_points_with_a_metric():
    X = random_points(14, 15)
    for metric in ("euclidean", "cityblock", "cosine"):
        res = agglomerative(X, linkage="average", metric=metric)
        assert_same_tree(res.linkage_matrix, scipy_linkage(X, "average", metric=metric))
    square = random_points(15, 4, dim=4)      # 4 points in 4-D: a square array of points
    as_points = agglomerative(square, linkage="single", metric="euclidean")
    assert_same_tree(as_points.linkage_matrix, scipy_linkage(square, "single"))
    # without a metric a square array is a distance matrix, never points: refused here
    with pytest.raises(ValueError, match="^D: "):
        agglomerative(square)
    # the points are not taken for the distances they were clustered by
    with pytest.raises(ValueError, match="^D:"):
        cophenetic_correlation(square, as_points)
    c = cophenetic_correlation(pdist(square), as_points)
    assert abs(float(c) - cophenet(scipy_linkage(square, "single"), pdist(square))[0]) < 1e-12


@pytest.mark.parametrize("kwargs, match", [
    ({"D": np.ones((5, 2))}, "^D: got a 5 x 2 array.*metric='euclidean'"),
    ({"D": [[0, 1], [1, 0], [2, 2]]}, "^D: got a 3 x 2 array.*metric='euclidean'"),
    ({"D": np.ones((5, 2)), "linkage": "ward", "metric": "cityblock"},
     "^metric: ward linkage needs Euclidean"),
    ({"D": np.ones((5, 2)), "linkage": "centroid", "metric": "cosine"},
     "^metric: centroid linkage needs Euclidean"),
    ({"D": np.ones(5), "metric": "euclidean"}, "^D: with metric= D holds points"),
    ({"D": np.ones((1, 3)), "metric": "euclidean"}, "^D: at least 2 points"),
    ({"D": [[0, np.nan], [1, 1]], "metric": "euclidean"}, "^D: the points contain NaN"),
    ({"D": np.ones((5, 2)), "metric": "no such metric"}, "^metric:"),
])
def test_points_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        agglomerative(**kwargs)
    with pytest.raises(TypeError, match="^metric: expected the name"):
        agglomerative(np.ones((5, 2)), metric=2)


# --------------------------------------------------- CPCC exact at the edges
def _exact_cpcc(D, P):
    iu = np.triu_indices(D.shape[0], 1)
    x = [Fraction(v) for v in D[iu]]
    y = [Fraction(v) for v in P[iu]]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    cross = sum((a - mx) * (b - my) for a, b in zip(x, y))
    ss = sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)
    return float(cross) / sqrt(float(ss))


@pytest.mark.parametrize("seed", range(4))
def test_cpcc_of_nearly_equal_distances(seed):
    # Distances 1 + k ulp (k = 0 .. 7): well defined, though SciPy's sums cancel.
    rng = np.random.default_rng(seed)
    n = 9
    y = 1.0 + rng.integers(0, 8, size=n * (n - 1) // 2) * np.finfo(float).eps
    res = agglomerative(y, linkage="average")
    D, P = res.D, np.asarray(cophenetic_matrix(res))
    c = cophenetic_correlation(y, res)
    assert not np.isnan(c)
    assert float(c) == pytest.approx(_exact_cpcc(D, P), abs=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e300])
def test_cpcc_at_extreme_scales(scale):
    D = random_D(3, 12)
    res = agglomerative(D, linkage="average")
    reference = float(cophenetic_correlation(D, res))
    P = np.asarray(cophenetic_matrix(res))
    c = cophenetic_correlation(D * scale, P * scale)
    assert float(c) == pytest.approx(reference, abs=1e-12)
    big = random_D(3, 1100, dim=2)           # the whole-matrix and tree sums too
    tree = agglomerative(big, linkage="single")
    reference = float(cophenetic_correlation(big, tree))
    scaled_tree = agglomerative(big * scale, linkage="single")
    assert float(cophenetic_correlation(big * scale, scaled_tree)) == pytest.approx(
        reference, abs=1e-12)
    assert float(cophenetic_correlation(big * scale, cophenetic_matrix(scaled_tree))
                 ) == pytest.approx(reference, abs=1e-12)


def test_cpcc_is_nan_only_for_exactly_constant_distances():
    D = np.full((6, 6), 0.1) - 0.1 * np.eye(6)       # 0.1 is not exact in binary
    assert np.isnan(cophenetic_correlation(D, agglomerative(D, linkage="average")))
    D[0, 1] = D[1, 0] = np.nextafter(0.1, 1)          # one pair one ulp apart: defined
    res = agglomerative(D, linkage="complete")        # max() is exact: so is P
    c = cophenetic_correlation(D, res)
    assert float(c) == pytest.approx(_exact_cpcc(D, np.asarray(cophenetic_matrix(res))),
                                     abs=1e-12)
    assert abs(float(c)) > 0.1


@pytest.mark.parametrize("seed", range(2))
def test_compacting_the_working_matrix_keeps_scipys_merges(seed, monkeypatch):
    # The fast algorithms drop merged rows as the matrix empties; with ties everywhere
    # (a 5 x 5 grid, duplicates included) the merges must still be SciPy's.
    from prayatul_edu import agglomeration

    monkeypatch.setattr(agglomeration, "COMPACT_MIN", 4)
    X = np.random.default_rng(seed).integers(0, 5, size=(90, 2)).astype(float)
    y = pdist(X)
    for name in ALL:
        res = agglomerative(y, linkage=name, method="fast")
        assert_same_tree(res.linkage_matrix, scipy_linkage(y, name))


@pytest.mark.parametrize("seed", range(3))
def test_the_chain_updates_merged_slots_without_nan_or_overflow(seed, monkeypatch):
    # The nearest-neighbour chain updates every slot, the merged-away ones included
    # (their stale entries are hidden when a row is read). With integer distances that
    # are not Euclidean, ties everywhere and compaction late, those updates must stay
    # finite and >= 0 under the square root (Ward: |C| = 0 there), never NaN.
    from prayatul_edu import agglomeration

    monkeypatch.setattr(agglomeration, "COMPACT_MIN", 10**6)   # never compact
    y = np.random.default_rng(seed).integers(1, 4, size=120 * 119 // 2).astype(float)
    for name in ("complete", "average", "weighted", "ward"):
        with np.errstate(invalid="raise", over="raise", divide="raise"):
            res = agglomerative(y, linkage=name, method="fast")
        assert_same_tree(res.linkage_matrix, scipy_linkage(y, name))
        if name == "ward":
            np.testing.assert_array_equal(res.heights, scipy_linkage(y, name)[:, 2])


def test_a_cut_through_an_inversion_colours_only_the_kept_merges():
    import matplotlib
    matplotlib.use("Agg")
    from prayatul_edu.plots.hierarchy import ABOVE_CUT_COLOR, dendrogram_links, plot_dendrogram

    # merges: {x4, x5} at 0.5, {x1, x2} at 2, then x3 joins them *lower*, at 1.8
    X = [[0, 0], [2, 0], [1, 1.8], [6, 5], [6.5, 5]]
    tree = agglomerative(X, linkage="centroid", metric="euclidean")
    assert tree.subtree_heights().tolist() == pytest.approx([0.5, 2.0, 2.0,
                                                             tree.heights[-1]])
    ax = plot_dendrogram(tree, cut=1.9)          # above the 1.8 link, below its child's 2
    above = sorted(round(float(c[1:3, 1].max()), 6) for c, color in dendrogram_links(ax)
                   if color == ABOVE_CUT_COLOR)
    assert above == [1.8, 2.0, round(float(tree.heights[-1]), 6)]
    assert canon(tree.cut(height=1.9)) == [0, 1, 2, 3, 3]


def test_the_trees_own_D_is_not_validated_again(monkeypatch):
    from prayatul_edu import cophenetic

    y = pdist(random_points(4, 60))
    tree = agglomerative(y, linkage="average", method="fast")

    def refuse(*args, **kwargs):
        raise AssertionError("validated a second time")

    monkeypatch.setattr(cophenetic, "check_distance_matrix", refuse)
    c = cophenetic_correlation(tree.D, tree)
    assert float(c) == pytest.approx(cophenet(scipy_linkage(y, "average"), y)[0], abs=1e-12)
    with pytest.raises(AssertionError, match="second time"):   # a copy is checked
        cophenetic_correlation(tree.D.copy(), tree)


@pytest.mark.parametrize("seed", range(3))
def test_a_condensed_D_gives_the_square_ds_tree_without_symmetrising(seed):
    # Integer distances: ties everywhere, so any difference between the two working
    # matrices (from the condensed vector, or symmetrised from the square) would show.
    from prayatul_edu.agglomeration import working_matrix

    y = pdist(np.random.default_rng(seed).integers(0, 4, size=(70, 2)).astype(float))
    D = squareform(y)
    np.testing.assert_array_equal(working_matrix(D, symmetric=True), working_matrix(D))
    for name in ALL:
        from_y = agglomerative(y, linkage=name, method="fast").linkage_matrix
        np.testing.assert_array_equal(from_y, agglomerative(D, linkage=name,
                                                            method="fast").linkage_matrix)
        assert_same_tree(from_y, scipy_linkage(y, name))


@pytest.mark.parametrize("name", ALL)
def test_an_update_leaves_its_inputs_alone_and_is_the_rule(name):
    # The updates work in place on their own temporaries: the rows they read (rows of
    # the working matrix) must not change, and the result is the rule's value.
    rng = np.random.default_rng(7)
    d_AC, d_BC, n_C = rng.random(50) + 0.5, rng.random(50) + 0.5, rng.integers(1, 9, 50)
    before = d_AC.copy(), d_BC.copy()
    new = LINKAGE_TABLE[name].update(d_AC, d_BC, 0.25, 3.0, 5.0, n_C.astype(float))
    np.testing.assert_array_equal(d_AC, before[0])
    np.testing.assert_array_equal(d_BC, before[1])
    a, b, ab, nA, nB = d_AC, d_BC, 0.25, 3, 5
    rule = {"single": np.minimum(a, b), "complete": np.maximum(a, b),
            "average": (nA * a + nB * b) / (nA + nB), "weighted": (a + b) / 2,
            "centroid": np.sqrt((nA * a**2 + nB * b**2) / (nA + nB)
                                - nA * nB * ab**2 / (nA + nB) ** 2),
            "median": np.sqrt(a**2 / 2 + b**2 / 2 - ab**2 / 4),
            "ward": np.sqrt(((nA + n_C) * a**2 + (nB + n_C) * b**2 - n_C * ab**2)
                            / (nA + nB + n_C))}[name]
    np.testing.assert_allclose(new, rule, rtol=1e-13)


@settings(max_examples=60, deadline=None)
@given(grid_points(max_n=40), st.sampled_from(ALL))
def test_a_prechecked_D_gives_the_validated_trees_tree(X, name):
    # The apps build trees of matrices they made (exactly symmetric, zero diagonal)
    # without validating them; the tree must be the validated one's, and SciPy's.
    from prayatul_edu.tree import agglomerative_prechecked

    y = pdist(X)
    D = squareform(y)
    tree = agglomerative_prechecked(D, linkage=name)
    checked = agglomerative(D, linkage=name)
    np.testing.assert_array_equal(tree.linkage_matrix, checked.linkage_matrix)
    assert_same_tree(tree.linkage_matrix, scipy_linkage(y, name))
    assert tree.source is D and tree.D is D and tree.names == checked.names
    assert tree.method == checked.method and tree.linkage == name


def test_a_prechecked_D_is_not_validated_and_its_cpcc_neither(monkeypatch):
    from prayatul_edu import cophenetic, tree as tree_module

    def refuse(*args, **kwargs):
        raise AssertionError("validated")

    monkeypatch.setattr(tree_module, "check_distance_matrix", refuse)
    monkeypatch.setattr(cophenetic, "check_distance_matrix", refuse)
    y = pdist(random_points(5, 1100))          # above CPCC_PAIRS_MAX_N: the tree's sums
    D = squareform(y)
    tree = tree_module.agglomerative_prechecked(D, linkage="complete")
    Z = scipy_linkage(y, "complete")
    assert_same_tree(tree.linkage_matrix, Z)
    assert float(cophenetic_correlation(D, tree)) == pytest.approx(cophenet(Z, y)[0],
                                                                    abs=1e-12)
    with pytest.raises(ValueError, match="^linkage"):     # the choice is still checked
        tree_module.agglomerative_prechecked(D, linkage="nearest")
    with pytest.raises(AssertionError, match="validated"):  # agglomerative validates
        agglomerative(D, linkage="complete")


def _cpcc_of(sums) -> float:
    cd, cp, cross, ss_d, ss_p = sums
    return cross / sqrt(ss_d * ss_p)


@settings(max_examples=80, deadline=None)
@given(distance_vectors(max_n=30), st.sampled_from(ALL))
def test_the_tree_and_matrix_sums_equal_the_pair_formula(y, name):
    # The tree's sums centre rows once (the second pass's correction taken off each
    # merge's sum) and take sum (D_ij - d)^2 from the centring pass; the matrix sums
    # take both squares from the centring passes. All must be the formula's sums.
    D = squareform(y)
    Z = agglomerative(y, linkage=name, method="fast").linkage_matrix
    P = _cophenetic(Z, D.shape[0])
    plain = in_units(_cpcc_sums_pairs(D, P))
    scale = max(1.0, float(D.max())) ** 2 * len(y)
    for sums in (_cpcc_sums_tree(D, Z), _cpcc_sums_matrix(D, P)):
        np.testing.assert_allclose(in_units(sums), plain, rtol=1e-12, atol=1e-13 * scale)


@pytest.mark.parametrize("seed", range(3))
def test_tree_and_matrix_cpcc_of_nearly_equal_distances(seed):
    # Distances 1 + k ulp: the tree's and the matrix sums are as exact as the pairs'.
    rng = np.random.default_rng(seed)
    n = 40
    y = 1.0 + rng.integers(0, 8, size=n * (n - 1) // 2) * np.finfo(float).eps
    D = squareform(y)
    Z = agglomerative(y, linkage="complete", method="fast").linkage_matrix
    P = _cophenetic(Z, n)
    exact = _exact_cpcc(D, P)
    assert _cpcc_of(_cpcc_sums_tree(D, Z)) == pytest.approx(exact, abs=1e-12)
    assert _cpcc_of(_cpcc_sums_matrix(D, P)) == pytest.approx(exact, abs=1e-12)


def test_distance_sums_made_once_serve_every_tree_of_that_D():
    from prayatul_edu.cophenetic import DistanceSums

    y = pdist(random_points(6, 1100))          # the tree's sums (N > CPCC_PAIRS_MAX_N)
    D = squareform(y)
    d_sums = DistanceSums(D)
    for name in ("single", "complete", "ward"):
        tree = agglomerative(D, linkage=name)
        alone = cophenetic_correlation(D, tree)
        shared = cophenetic_correlation(D, tree, d_sums=d_sums)
        assert float(shared) == float(alone)
        assert (shared.cross, shared.ss_d, shared.ss_p) == (alone.cross, alone.ss_d,
                                                          alone.ss_p)
        assert float(shared) == pytest.approx(cophenet(scipy_linkage(y, name), y)[0],
                                              abs=1e-12)
    with pytest.raises(ValueError, match="^d_sums: made for another D"):
        cophenetic_correlation(D.copy(), tree, d_sums=d_sums)
    with pytest.raises(TypeError, match="^d_sums: expected DistanceSums"):
        cophenetic_correlation(D, tree, d_sums=(1.0, 2.0))


def test_too_many_points_for_their_distances_is_said_before_numpy_fails():
    from unittest import mock

    from prayatul_edu import tree
    X = np.random.default_rng(0).normal(size=(300, 2))
    with mock.patch.object(tree, "_physical_memory", lambda: 20 * 299 * 299):
        with pytest.raises(MemoryError, match=r"^D: 300 points need about 0 GiB for their "
                                              r"pairwise distances .* cluster a sample"):
            agglomerative(X, linkage="single", metric="euclidean")
    with mock.patch.object(tree, "_physical_memory", lambda: 20 * 300 * 300):
        assert agglomerative(X, linkage="single", metric="euclidean").linkage_matrix.shape \
            == (299, 4)
    with mock.patch.object(tree, "_physical_memory", lambda: None):    # unknown: no guard
        assert agglomerative(X, linkage="single", metric="euclidean").n == 300


# ------------------------------------- CPCC to the last bits (exact fractions)
def _exact_cpcc_decimal(x, y):
    """Pearson's r of the pairs' values x, y (exact Fractions), to 40 digits."""
    from decimal import Decimal, localcontext

    M = len(x)
    sx, sy = sum(x), sum(y)
    cross = M * sum(a * b for a, b in zip(x, y)) - sx * sy
    ss = (M * sum(a * a for a in x) - sx * sx) * (M * sum(b * b for b in y) - sy * sy)
    with localcontext() as ctx:
        ctx.prec = 40
        return (Decimal(cross.numerator) / Decimal(cross.denominator)
                / (Decimal(ss.numerator) / Decimal(ss.denominator)).sqrt())


def _ulps_off(value: float, exact) -> float:
    from decimal import Decimal

    return float(abs(Decimal(value) - exact)) / np.spacing(abs(float(exact)))


@pytest.mark.parametrize("link", ["single", "average", "ward", "centroid"])
@pytest.mark.parametrize("seed", range(3))
def test_cpcc_to_the_last_bits_on_random_floats(seed, link):
    # Every path (pairs, whole matrices, merge by merge) against exact fractions of the
    # very floats summed: at most 2 ulp off (the division and square root round too).
    D = random_D(50 + seed, 45)
    res = agglomerative(D, linkage=link)
    P = np.asarray(cophenetic_matrix(res))
    iu = np.triu_indices(45, 1)
    exact = _exact_cpcc_decimal([Fraction(v) for v in D[iu]], [Fraction(v) for v in P[iu]])
    assert _ulps_off(float(cophenetic_correlation(D, res)), exact) <= 2
    for cd, cp, cross, ss_d, ss_p in (_cpcc_sums_matrix(D, P), _cpcc_sums_tree(D, res.Z)):
        assert _ulps_off(cross / sqrt(ss_d * ss_p), exact) <= 2


def test_cpcc_above_1000_instances_to_the_last_bits():
    # The case: N = 2000, complete linkage of small integer distances. The
    # exact value is 0.0566820301424297379...; summing a million squares in one running
    # total gave 0.05668203014243027 (78 ulp off). Integers: the exact sums are ints.
    from decimal import Decimal, localcontext

    N = 2000
    rng = np.random.default_rng(11)
    y = rng.integers(1, 6, N * (N - 1) // 2).astype(float)
    res = agglomerative(y, linkage="complete")
    p = squareform(np.asarray(cophenetic_matrix(res)), checks=False)
    x, q = [int(v) for v in y], [int(v) for v in p]
    assert np.array_equal(np.array(q, dtype=float), p)      # complete: heights are D_ij
    M, sx, sq = len(x), sum(x), sum(q)
    cross = M * sum(a * b for a, b in zip(x, q)) - sx * sq
    ss = (M * sum(a * a for a in x) - sx * sx) * (M * sum(b * b for b in q) - sq * sq)
    with localcontext() as ctx:
        ctx.prec = 40
        exact = Decimal(cross) / Decimal(ss).sqrt()
    assert str(exact).startswith("0.0566820301424297379")
    by_tree = cophenetic_correlation(res.D, res)
    by_matrix = cophenetic_correlation(res.D, cophenetic_matrix(res))
    assert _ulps_off(float(by_tree), exact) <= 2     # the division and square root
    assert _ulps_off(float(by_matrix), exact) <= 2   # round too


# ------------------------- Ward, centroid, median: heights scale with the input
@pytest.mark.parametrize("link", ["ward", "centroid", "median"])
def test_squared_linkages_scale_exactly_with_the_distances(link):
    # Their rules square the distances: from about 1e154 on the squares overflowed (inf
    # heights), below about 1e-160 they underflowed (wrong trees). Scaled by a power of
    # two first, the tree is the same and its heights scale exactly, at every scale.
    D = random_D(60, 40)
    base = agglomerative(D, linkage=link)
    base_fast = agglomerative(D, linkage=link, method="fast")
    for k in (-1000, -600, -540, -300, -100, 100, 300, 509, 520, 1000):
        for tree, reference in ((agglomerative(D * 2.0 ** k, linkage=link), base),
                                (agglomerative(D * 2.0 ** k, linkage=link, method="fast"),
                                 base_fast)):
            Z, Z_ref = tree.linkage_matrix, reference.linkage_matrix
            np.testing.assert_array_equal(Z[:, [0, 1, 3]], Z_ref[:, [0, 1, 3]])
            np.testing.assert_array_equal(Z[:, 2], Z_ref[:, 2] * 2.0 ** k)
        step = tree.steps[20]                  # a distance matrix shown mid-way, replayed
        np.testing.assert_array_equal(step.matrix, base_fast.steps[20].matrix * 2.0 ** k)
    plain = base.steps[5].matrix
    np.testing.assert_array_equal(
        agglomerative(D * 2.0 ** 700, linkage=link).steps[5].matrix, plain * 2.0 ** 700)
