"""Purity, maximum matching, precision/recall/F: seed numbers, oracles, properties."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import (f_measure, labels_from_table, maximum_matching, precision_recall_f,
                          purity)
from prayatul_edu import tutorial
from prayatul_edu.matching import _best_assignment_brute_force

from cases import random_labelings

labelings = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 4), min_size=n, max_size=n),
    st.lists(st.integers(0, 4), min_size=n, max_size=n)))


# ------------------------------------------------------------- seed numbers
def test_tutorial_exercise_2_precision_recall_f(exercise2):
    classes, clusters = exercise2
    prf = precision_recall_f(classes, clusters)
    # Cluster 1 = {x1, x4, x6, x10} has classes 1, 1, 3, 2: one of its 4 is class 3,
    # and class 3 has 3 members, so precision(1,3) = 1/4, recall(1,3) = 1/3,
    # F(1,3) = 2 (1/4)(1/3) / (1/4 + 1/3) = 2/7.
    assert prf.precision[0, 2] == pytest.approx(1 / 4, abs=1e-15)
    assert prf.recall[0, 2] == pytest.approx(1 / 3, abs=1e-15)
    assert prf.f[0, 2] == pytest.approx(2 / 7, abs=1e-15)
    # The tutorial's confusion matrix has classes as rows: ours is its transpose.
    assert (prf.table.counts.T == np.array(tutorial.PUBLISHED["exercise_2"]["confusion"])).all()


def test_tutorial_exercise_2_purity(exercise2):
    p = purity(*exercise2)
    # p_2: cluster 2 = {x2, x5, x7, x8} has classes 3, 3, 2, 2 -> 2/4.
    assert p.per_cluster[1] == 0.5
    # Overall: majority counts 2 + 2 + 1 = 5 of 10 instances.
    assert float(p) == 0.5


def test_lecture_purity_and_maximum_matching():
    truth, pred = labels_from_table(tutorial.LECTURE_MATCHING_TABLE)
    p = purity(truth, pred)
    # Lecture: purity_1 = 100/150, purity_2 = 1000/1060, purity_3 = 150/340.
    assert p.per_cluster.tolist() == pytest.approx([100 / 150, 1000 / 1060, 150 / 340], abs=1e-15)
    assert float(p) == pytest.approx(1250 / 1550, abs=1e-15)
    m = maximum_matching(truth, pred)
    # One-to-one: C1-T1 (50), C2-T2 (1000), C3-T3 (150) -> 1200/1550.
    assert m.matching == {1: 1, 2: 2, 3: 3}
    assert m.matched == 1200
    assert float(m) == pytest.approx(1200 / 1550, abs=1e-15)


def test_lecture_f_of_cluster_1():
    # The lecture's second table: C_1 = (50, 10, 2, 100, 0), so j* = T_4, n_1 = 162,
    # Prec(C_1) = 100/162, Recall(C_1) = 100/1150 (|T_4| = 1150). The notes do not print
    # the other rows; any rows giving |T_4| = 1150 and other majorities will do.
    table = [[50, 10, 2, 100, 0],
             [0, 0, 0, 1050, 0],
             [0, 0, 500, 0, 10]]
    truth, pred = labels_from_table(table)
    f = f_measure(truth, pred)
    assert f.precision[0] == pytest.approx(100 / 162, abs=1e-15)
    assert f.recall[0] == pytest.approx(100 / 1150, abs=1e-15)
    assert f.per_cluster[0] == pytest.approx(200 / (162 + 1150), abs=1e-15)


# -------------------------------------------------------------- oracles
def _f_clusters_oracle(truth, pred):
    truth, pred = list(truth), list(pred)
    scores = []
    for c in sorted(set(pred)):
        members = [t for t, p in zip(truth, pred) if p == c]
        counts = {t: members.count(t) for t in sorted(set(members))}
        best = max(counts, key=lambda t: (counts[t], -sorted(counts).index(t)))
        prec = Fraction(counts[best], len(members))
        rec = Fraction(counts[best], truth.count(best))
        scores.append(2 * prec * rec / (prec + rec))
    return float(sum(scores) / len(scores))


def _f_classes_oracle(truth, pred):
    truth, pred = list(truth), list(pred)
    total = Fraction(0)
    for t in set(truth):
        best = Fraction(0)
        for c in set(pred):
            nij = sum(1 for a, b in zip(truth, pred) if a == t and b == c)
            if nij:
                p, r = Fraction(nij, pred.count(c)), Fraction(nij, truth.count(t))
                best = max(best, 2 * p * r / (p + r))
        total += truth.count(t) * best
    return float(total / len(truth))


@pytest.mark.parametrize("seed", range(25))
def test_f_measure_against_oracles(seed):
    truth, pred = random_labelings(seed, n=int(np.random.default_rng(seed).integers(2, 60)))
    assert float(f_measure(truth, pred)) == pytest.approx(_f_clusters_oracle(truth, pred), abs=1e-12)
    assert float(f_measure(truth, pred, average="classes")) == pytest.approx(
        _f_classes_oracle(truth, pred), abs=1e-12)


@pytest.mark.parametrize("seed", range(25))
def test_purity_against_oracle(seed):
    truth, pred = random_labelings(seed)
    expected = sum(max(list(truth[pred == c]).count(t) for t in set(truth[pred == c]))
                   for c in set(pred)) / len(truth)
    assert float(purity(truth, pred)) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("seed", range(40))
def test_hungarian_equals_brute_force(seed):
    from scipy.optimize import linear_sum_assignment

    rng = np.random.default_rng(seed)
    n = rng.integers(0, 30, size=(int(rng.integers(1, 6)), int(rng.integers(1, 6))))
    pairs = _best_assignment_brute_force(n)
    rows, cols = linear_sum_assignment(n, maximize=True)
    assert sum(n[i, j] for i, j in pairs) == n[rows, cols].sum()
    assert len({j for _, j in pairs}) == len(pairs) == min(n.shape)


def test_maximum_matching_large_table_uses_hungarian():
    rng = np.random.default_rng(3)
    truth, pred = rng.integers(0, 9, 2000), rng.integers(0, 9, 2000)
    m = maximum_matching(truth, pred)
    assert "Hungarian" in m.solver
    n = m.table.counts
    best = max(sum(n[i, p[i]] for i in range(9)) for p in
               [list(rng.permutation(9)) for _ in range(200)])
    assert m.matched >= best
    assert len(set(m.matching.values())) == len(m.matching) == 9


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 10**6), st.floats(0.0, 1.0))
def test_sparse_assignment_equals_the_hungarian_algorithm(r, k, seed, noise):
    # tables of every shape (more clusters or more classes), sparse or dense
    from unittest import mock

    from scipy.optimize import linear_sum_assignment

    from prayatul_edu import matching
    rng = np.random.default_rng(seed)
    n = int(rng.integers(max(r, k), 20 * max(r, k) + 2))
    truth = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < noise, rng.integers(0, r, n), truth % r)
    with mock.patch.object(matching, "READ_CELLS_BEYOND", 0):
        m = maximum_matching(truth, pred)
    counts = m.table.counts
    if counts.size > 64 or min(counts.shape) > 6:
        assert "sparse" in m.solver
    rows, cols = linear_sum_assignment(counts, maximize=True)
    assert m.matched == int(counts[rows, cols].sum())
    assert m.pair_counts == [int(counts[i, j]) for i, j in m.pairs]
    assert len({j for _, j in m.pairs}) == len({i for i, _ in m.pairs}) == len(m.pairs)
    assert float(m) == m.matched / n


def test_maximum_matching_of_many_clusters_never_makes_the_table_dense():
    # 30,000 x 30,000 cells would be 7 GB; the matching reads the non-empty cells only
    rng = np.random.default_rng(4)
    k, n = 30_000, 200_000
    truth = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.1, rng.integers(0, k, n), truth)
    m = maximum_matching(truth, pred)
    assert "sparse" in m.solver and m.table._dense is None
    # every cluster's largest class, matched where no two clusters want the same one:
    # a lower bound that a maximum matching must reach
    assert m.matched >= int((truth == pred).sum())
    assert len(set(m.matching.values())) == len(m.matching)
    assert m.explain()                                   # the derivation reads no dense table


def test_maximum_matching_with_more_clusters_than_classes():
    # Three clusters, two classes: the third cluster stays unmatched.
    truth = [0, 0, 0, 1, 1, 1]
    pred = ["a", "a", "b", "c", "c", "c"]
    m = maximum_matching(truth, pred)
    assert m.matched == 5 and len(m.matching) == 2
    assert "no class left" in m.explain()


# --------------------------------------------------------------- properties
@settings(max_examples=100, deadline=None)
@given(labelings)
def test_ranges_and_order(lab):
    truth, pred = lab
    p, m = purity(truth, pred), maximum_matching(truth, pred)
    assert 0 < float(m) <= float(p) <= 1  # one-to-one can only lose against many-to-one
    for avg in ("clusters", "classes"):
        assert 0 < float(f_measure(truth, pred, average=avg)) <= 1


@settings(max_examples=100, deadline=None)
@given(labelings, st.permutations(range(5)))
def test_invariant_under_relabelling(lab, perm):
    truth, pred = lab
    renamed = [f"c{perm[p]}" for p in pred]
    assert float(purity(truth, pred)) == float(purity(truth, renamed))
    assert float(maximum_matching(truth, pred)) == float(maximum_matching(truth, renamed))
    assert float(f_measure(truth, pred, average="classes")) == pytest.approx(
        float(f_measure(truth, renamed, average="classes")), abs=1e-15)


def test_perfect_clustering_with_swapped_labels_scores_one():
    truth = [0, 0, 1, 1, 2, 2]
    pred = [2, 2, 0, 0, 1, 1]
    assert float(purity(truth, pred)) == 1.0
    assert float(maximum_matching(truth, pred)) == 1.0
    assert float(f_measure(truth, pred)) == 1.0


def test_singletons_have_purity_one_but_low_matching():
    truth = [0, 0, 0, 1, 1, 1]
    pred = list(range(6))
    assert float(purity(truth, pred)) == 1.0
    assert float(maximum_matching(truth, pred)) == pytest.approx(2 / 6)


# ---------------------------------------------------------------- rendering
def test_derivations_show_their_numbers(exercise2):
    p = purity(*exercise2)
    text, md = p.explain(), p._repr_markdown_()
    assert "5 / 10" in text and "2/4 = 0.5" in text
    assert "\\frac{5}{10}" in md and "| cluster C_i |" in md
    prf = precision_recall_f(*exercise2)
    assert "0.2857" in prf.explain()  # F(1,3) = 2/7
    precision, recall, f = prf
    assert f is prf.f


def test_unknown_average_is_named():
    with pytest.raises(ValueError, match="average: unknown value 'micro'"):
        f_measure([0, 1], [0, 1], average="micro")


# ------------------------------------------------ raw labels (no relabelling)
@pytest.mark.parametrize("seed", range(20))
def test_raw_accuracy_and_precision_recall_agree_with_scikit_learn(seed):
    from sklearn.metrics import accuracy_score, precision_score, recall_score

    from prayatul_edu.matching import raw_accuracy, raw_precision_recall

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    truth, pred = rng.integers(0, 4, n), rng.integers(-1, 5, n)
    assert raw_accuracy(truth, pred) == pytest.approx(accuracy_score(truth, pred), abs=1e-12)
    for average in ("macro", "weighted"):
        p, r = raw_precision_recall(truth, pred, average=average)
        assert p == pytest.approx(precision_score(truth, pred, average=average,
                                                  zero_division=0), abs=1e-12)
        assert r == pytest.approx(recall_score(truth, pred, average=average,
                                               zero_division=0), abs=1e-12)


def test_raw_measures_punish_renamed_clusters_and_name_bad_arguments():
    from prayatul_edu.matching import raw_accuracy, raw_precision_recall

    assert raw_accuracy([0, 0, 1, 1], [1, 1, 0, 0]) == 0.0      # right clusters, other names
    assert maximum_matching([0, 0, 1, 1], [1, 1, 0, 0]) == 1.0
    with pytest.raises(ValueError, match="^truth and pred"):
        raw_accuracy([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="^average"):
        raw_precision_recall([0, 1], [0, 1], average="micro")


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 10**6), st.floats(0.0, 1.0))
def test_purity_and_f_measure_from_the_cells_equal_the_dense_table(r, k, seed, noise):
    # the same numbers, ties included (few instances: many ties), bit for bit
    from unittest import mock

    from prayatul_edu import matching
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 6 * max(r, k) + 2))
    truth = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < noise, rng.integers(0, r, n), truth % r)
    dense = [purity(truth, pred), f_measure(truth, pred, "clusters"),
             f_measure(truth, pred, "classes")]
    with mock.patch.object(matching, "READ_CELLS_BEYOND", 0):
        cells = [purity(truth, pred), f_measure(truth, pred, "clusters"),
                 f_measure(truth, pred, "classes")]
    for d, c in zip(dense, cells):
        assert float(d) == float(c)
    assert dense[0].best_class.tolist() == cells[0].best_class.tolist()
    assert dense[0].best_count.tolist() == cells[0].best_count.tolist()
    assert dense[0].per_cluster.tolist() == cells[0].per_cluster.tolist()
    assert dense[1].best.tolist() == cells[1].best.tolist()
    assert dense[1].per_cluster.tolist() == cells[1].per_cluster.tolist()
    assert dense[2].best.tolist() == cells[2].best.tolist()
    assert dense[2].per_class.tolist() == cells[2].per_class.tolist()


def test_many_labels_precision_recall_matrices_say_what_to_use_instead():
    rng = np.random.default_rng(9)
    truth = rng.integers(0, 9000, 60_000)
    pred = np.where(rng.random(60_000) < 0.2, rng.integers(0, 9000, 60_000), truth)
    with pytest.raises(MemoryError, match=r"^precision_recall_f: the precision, recall and F "
                                          r"matrices of \d+ clusters x \d+ classes"):
        precision_recall_f(truth, pred)
    assert 0.75 < float(purity(truth, pred)) < 0.85 and 0.5 < float(f_measure(truth, pred)) < 1
