"""The slips of exercises 01.1-01.10 named in issue 47's second round, each computed here
from the question's data with NumPy, SciPy and scikit-learn (not by the question's own
mistakes), rejected and named on the course's data and on ten variants.

A slip that gives the key on the course's data (tests/test_exercise_slips.py's
``COURSE_TIES``) is checked on the variants only.
"""
import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment
from scipy.stats import entropy, gmean, hmean
from sklearn.metrics import jaccard_score
from sklearn.metrics.cluster import contingency_matrix

import prayatul_edu.exercises as ex
from test_exercise_slips import COURSE_TIES
from test_exercise_slips import _cluster_by_cluster as in_order  # row by row, greedy

SEEDS = [None] + [f"s{k:04d}" for k in range(1, 11)]


def table(d):
    """Rows clusters, columns classes (scikit-learn puts the classes in rows)."""
    if "table" in d:
        return np.asarray(d["table"], dtype=float)
    return contingency_matrix(d["classes"], d["clusters"]).T.astype(float)


def harmonic(p, r):
    return hmean([p, r]) if p > 0 and r > 0 else 0.0


def one_cell(M, cell, step):
    out = M.copy()
    out[cell] += step
    return out


def prf(M, i, j):
    p, r = M[i, j] / M[i].sum(), M[i, j] / M[:, j].sum()
    return p, r, harmonic(p, r)


def paired(M, weights):
    """The counts of the one-to-one pairing with the largest total weight."""
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return M[rows, cols].sum()


def f_table(M):
    return np.array([[harmonic(M[i, j] / M[i].sum(), M[i, j] / M[:, j].sum())
                      for j in range(M.shape[1])] for i in range(M.shape[0])])


def majority(M):
    """prec_i, recall_i and F_i of each cluster against its majority class."""
    j = M.argmax(axis=1)
    p = M.max(axis=1) / M.sum(axis=1)
    r = M.max(axis=1) / M.sum(axis=0)[j]
    return p, r, np.array([harmonic(a, b) for a, b in zip(p, r)])


def ex2_01_2(d):
    M = table(d)
    p, r, _ = prf(M, 0, 2)
    ins, cls = np.asarray(d["clusters"]) == 1, np.asarray(d["classes"]) == 3
    pt, rt = M.T[0, 2] / M.T[0].sum(), M.T[0, 2] / M.T[:, 2].sum()
    return {"rounded before F": [round(p, 2), round(r, 2), harmonic(round(p, 2), round(r, 2))],
            "table transposed": [pt, rt, harmonic(pt, rt)],
            "recall over the cluster size": [p, p, p],
            "precision over the class size": [r, r, r],
            "F upside down": [p, r, (p + r) / (2 * p * r)],
            "Jaccard for F": [p, r, jaccard_score(cls, ins)]}


def ex2_01_1(d):
    M = table(d)
    last = (d["clusters"][-1] - 1, d["classes"][-1] - 1)
    first = (d["clusters"][0] - 1, d["classes"][0] - 1)
    return {"percentages": 100 * M / M.sum(),
            "one example left out": one_cell(M, last, -1),
            "one example counted twice": one_cell(M, first, 1)}


def bits(counts, base=2):
    return entropy(counts[counts > 0], base=base)


def ex2_01_3(d):
    M = table(d)
    return {"purity of cluster 2": M[1].max() / M[1].sum(),
            "log2 of the classes present": np.log2(np.count_nonzero(M[1])),
            "entropy of the whole table": bits(M.ravel())}


def ex2_01_4(d):
    M = table(d)
    n = M.sum()
    pi = M.max(axis=1) / M.sum(axis=1)
    p = M.max(axis=1).sum() / n
    return {"p_2 over n": [M[1].max() / n, p],
            "p_2 over the class size": [M[1].max() / M[:, M[1].argmax()].sum(), p],
            "p_2 as precision(2, 2)": [M[1, 1] / M[1].sum(), p],
            "p_2 of class 2": [M[:, 1].max() / M[:, 1].sum(), p],
            "overall: largest cell": [pi[1], M.max() / n],
            "overall: diagonal": [pi[1], np.trace(M) / n],
            "overall: sum of the p_i": [pi[1], pi.sum()],
            "overall: median of the p_i": [pi[1], np.median(pi)]}


def lecture_01_5(d):
    M = table(d)
    pi = M.max(axis=1) / M.sum(axis=1)
    return {"the F-measure": majority(M)[2].mean(),
            "sum of the purity_i": pi.sum(),
            "median of the purity_i": np.median(pi),
            "the largest cluster only": pi[M.sum(axis=1).argmax()]}


def matching_01_6(d):
    M = table(d)
    n = M.sum()
    return {"class by class": in_order(M.T) / n,
            "paired by F-scores": paired(M, f_table(M)) / n,
            "paired by row shares": paired(M, M / M.sum(axis=1, keepdims=True)) / n,
            "paired by column shares": paired(M, M / M.sum(axis=0, keepdims=True)) / n,
            "divided by the number of clusters": paired(M, M) / M.shape[0]}


def lecture_01_7(d):
    M = table(d)
    p, r, F = majority(M)
    Fij = f_table(M)
    return {"F_i as the recall": r.mean(),
            "best F of each cluster, weighted by size":
                (Fij.max(axis=1) * M.sum(axis=1)).sum() / M.sum(),
            "F of the mean precision and recall": harmonic(p.mean(), r.mean()),
            "median of the F_i": np.median(F),
            "geometric mean": np.mean([gmean([a, b]) for a, b in zip(p, r)]),
            "F_i without the 2": np.mean(F / 2),
            "best F of each class": Fij.max(axis=0).mean(),
            "mean of every F_ij": Fij.mean()}


def ratio_01_9(d):
    C, K, n = len(set(d["clusters"])), len(set(d["classes"])), len(d["classes"])
    return {"C - K": C - K, "K / n": K / n, "1 - C / K": 1 - C / K,
            "every label counted": n / K}


def error_01_10(d):
    M = table(d)
    n, K = M.sum(), M.shape[1]
    rows, cols = linear_sum_assignment(M, maximize=True)
    best = M[rows, cols].sum()
    low_rows, low_cols = linear_sum_assignment(M)          # scipy's default: minimise
    kept = M[rows].sum()                 # the matched clusters' examples (C > K here)
    return {"divided by K": (n - best) / n / K,
            "smallest total": 1 - M[low_rows, low_cols].sum() / n,
            "only the unmatched counted": (n - kept) / n,
            "only the matched clusters' errors": (kept - best) / n}


SLIPS = {"01.1": ex2_01_1, "01.2": ex2_01_2, "01.3": ex2_01_3, "01.4": ex2_01_4,
         "01.5": lecture_01_5, "01.6": matching_01_6, "01.7": lecture_01_7, "01.9": ratio_01_9,
         "01.10": error_01_10}
CASES = [(qid, name) for qid, slips in SLIPS.items()
         for name in slips(ex.question(qid, seed=None).data)]


@pytest.mark.parametrize("qid, name", CASES)
def test_slip_is_rejected_and_named_on_the_course_and_ten_variants(qid, name, questions):
    checked = 0
    for seed in SEEDS:
        if seed is None and (qid, name) in COURSE_TIES:
            continue                             # the course's numbers give the key there
        q = questions(qid, seed)
        value = SLIPS[qid](q.data)[name]
        value = np.asarray(value, dtype=float).tolist()
        out = q.grade(value)
        assert out.status != ex.CORRECT, (seed, name, value)
        assert name in out.diagnosed, (seed, name, out.diagnosed, out.feedback)
        checked += 1
    assert checked >= 10


def test_course_ties_of_these_slips_are_the_key_on_the_course_data(questions):
    # a slip listed as a course tie must really give the key there (or it was named)
    for qid, name in CASES:
        if (qid, name) in COURSE_TIES:
            q = questions(qid, None)
            out = q.grade(np.asarray(SLIPS[qid](q.data)[name], dtype=float).tolist())
            assert out.status == ex.CORRECT, (qid, name)


def test_the_f_score_pairing_differs_from_the_best_on_every_variant_of_01_6(questions):
    # on the lecture's kind of table (one dominant cell) the F-scores' pairing was the best
    # matching on every variant: a student who paired by F-scores had the key
    for seed in SEEDS[1:]:
        M = table(questions("01.6", seed).data)
        assert paired(M, f_table(M)) < paired(M, M)
        assert paired(M, M / M.sum(axis=1, keepdims=True)) < paired(M, M)
        assert paired(M, M / M.sum(axis=0, keepdims=True)) < paired(M, M)


def test_the_rand_index_of_exercise_2_has_more_than_two_decimals_on_every_variant(questions):
    # 03.4 shares the ten examples: where Rand = k / 5, Rand rounded to 2 decimals is the key
    from sklearn.metrics import rand_score
    for seed in SEEDS[1:]:
        d = questions("01.1", seed).data
        rand = rand_score(d["classes"], d["clusters"])
        assert abs(round(rand, 2) - rand) > 1e-3, (seed, rand)
