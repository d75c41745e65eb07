"""The slips of exercises 02.1-02.4 and 03.1-03.4 named by issue 47's second round.

Each slip's value is computed here from the question's data with NumPy, SciPy and
scikit-learn (never by the question's own mistake), and must be rejected and named on the
course's data and on ten variants; a membership matrix is told what the similarity
matrix should be.
"""
import itertools
import math

import numpy as np
import pytest
from scipy.special import comb
from scipy.stats import entropy
from sklearn.metrics import (adjusted_mutual_info_score, adjusted_rand_score,
                             completeness_score, fowlkes_mallows_score, homogeneity_score,
                             mutual_info_score, normalized_mutual_info_score, rand_score)
from sklearn.metrics.cluster import contingency_matrix, pair_confusion_matrix

import prayatul_edu.exercises as ex

SEEDS = [None] + [f"s{k:04d}" for k in range(1, 11)]

#: slips that give the key on the course's data (the first five examples' clustering is
#: their classes renamed): checked on the variants only
COURSE_TIES = {("03.1", "together in both"), ("03.1", "together in either"),
               ("03.2", "f00 as all pairs but f11"), ("03.3", "ARI for Rand")}


def bits(counts):
    return float(entropy(np.asarray(counts, dtype=float).ravel(), base=2))


def table(data):
    """n_ij: rows clusters, columns classes (the lecture's orientation)."""
    return contingency_matrix(data["classes"], data["clusters"]).T.astype(float)


def mi_bits(n):
    return mutual_info_score(None, None, contingency=n.astype(np.int64)) / math.log(2)


def s02_1(d):
    n = table(d)
    p_i, p_j = n.sum(1) / n.sum(), n.sum(0) / n.sum()
    e = sum(p * bits(row) for p, row in zip(p_i, n))          # sum_i (n_i / n) e_i
    ht = bits(p_j)
    return {"H(C) as the clustering's entropy e": [e, ht],
            "counts for p_i": [n.sum() * bits(p_i), n.sum() * ht],
            "counts in the log": [-np.sum(p_i * np.log2(n.sum(1))),
                                  -np.sum(p_j * np.log2(n.sum(0)))],
            "no p_i weight": [-np.sum(np.log2(p_i)), -np.sum(np.log2(p_j))],
            "Gini impurity": [1 - np.sum(p_i ** 2), 1 - np.sum(p_j ** 2)]}


def s02_2(d):
    n = table(d)
    total = n.sum()
    p = n / total
    p_i, p_j = p.sum(1, keepdims=True), p.sum(0, keepdims=True)
    cells = n > 0
    hc, ht = bits(p_i), bits(p_j)
    t_given_c = sum(pi * bits(row) for pi, row in zip(p_i.ravel(), n))
    c_given_t = sum(pj * bits(col) for pj, col in zip(p_j.ravel(), n.T))
    return {"counts in the log": np.sum(p[cells] * np.log2(
                (n / (n.sum(1, keepdims=True) * n.sum(0, keepdims=True)))[cells])),
            "p_j missing in the log": np.sum(p[cells] * np.log2((p / p_i)[cells])),
            "p_i missing in the log": np.sum(p[cells] * np.log2((p / p_j)[cells])),
            "H(C) - H(T | C)": hc - t_given_c,
            "H(T) - H(C | T)": ht - c_given_t,
            "unweighted conditional entropy of the classes": hc - np.mean(
                [bits(col) for col in n.T]),
            "arithmetic NMI": normalized_mutual_info_score(d["classes"], d["clusters"],
                                                           average_method="arithmetic"),
            "the bound min(H(C), H(T))": min(hc, ht),
            "homogeneity": homogeneity_score(d["classes"], d["clusters"]),
            "completeness": completeness_score(d["classes"], d["clusters"]),
            "AMI": adjusted_mutual_info_score(d["classes"], d["clusters"]),
            # row i's cluster share and column j's class share exchanged (a square table)
            "marginals exchanged": np.sum(p[cells] * np.log2(
                (p / (p_j.T * p_i.T))[cells]))}


def s02_3(d):
    n = d["table"].astype(float)
    p = n / n.sum()
    p_i, p_j = p.sum(1, keepdims=True), p.sum(0, keepdims=True)
    cells = n > 0
    hc, ht, i = bits(p_i), bits(p_j), mi_bits(n)
    g = math.sqrt(hc * ht)
    r = (p / (p_i * p_j))[cells]
    return {"lecture's garbled formula": np.sum(r * np.log2(r)) / g,
            "square root of the whole": math.sqrt(i / g),
            "log10 over bits": mutual_info_score(None, None, contingency=n.astype(np.int64))
            / math.log(10) / g,
            "bits over nats": i / math.sqrt(entropy(n.sum(1)) * entropy(n.sum(0))),
            "mean of I/H(C) and I/H(T)": (i / hc + i / ht) / 2,
            "I / (H(C) + H(T))": i / (hc + ht),
            "normalised variation of information": (hc + ht - 2 * i) / bits(n),
            "counts in the log": np.sum(p[cells] * np.log2(
                (n / (n.sum(1, keepdims=True) * n.sum(0, keepdims=True)))[cells])) / g}


def s02_4(d):
    t = d["classes"]
    ht, hc = bits(np.unique(t, return_counts=True)[1]), math.log2(len(t))
    return {"AMI for NMI": [1, adjusted_mutual_info_score(t, np.arange(len(t)))],
            "I = H(C)": [1, hc / math.sqrt(hc * ht)],
            "no square root": [1, ht / (hc * ht)],
            "H(C) of the given clustering": [1, ht / math.sqrt(
                bits(np.unique(d["clusters"], return_counts=True)[1]) * ht)],
            "H(T) as log2 of the number of classes": [1, math.sqrt(
                math.log2(len(set(t.tolist()))) / hc)],
            "H(C) as log2 of the number of classes": [1, ht / math.sqrt(
                math.log2(len(set(t.tolist()))) * ht)]}


def same(labels):
    labels = np.asarray(labels)
    return np.equal.outer(labels, labels).astype(int)


def s03_1(d):
    c = same(d["clusters"])
    return {"together in both": c & same(d["classes"]),
            "together in either": c | same(d["classes"]),
            "upper triangle only": np.triu(c), "strict upper triangle": np.triu(c, 1),
            "lower triangle only": np.tril(c), "strict lower triangle": np.tril(c, -1),
            "identity": np.identity(len(c), dtype=int)}


def f_counts(d):
    """f00, f01, f10, f11 over the unordered pairs (first index the class)."""
    f = {(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 0}
    t, c = d["classes"], d["clusters"]
    for a, b in itertools.combinations(range(len(t)), 2):
        f[int(t[a] == t[b]), int(c[a] == c[b])] += 1
    return f[0, 0], f[0, 1], f[1, 0], f[1, 1]


def s03_2(d):
    f00, f01, f10, f11 = f_counts(d)
    t, c = d["classes"], d["clusters"]
    pairs = list(itertools.combinations(range(len(t)), 2))
    same_cluster = sum(c[a] == c[b] for a, b in pairs)
    same_class = sum(t[a] == t[b] for a, b in pairs)
    return {"reversed order": [f11, f10, f01, f00],
            "f00 and f10 swapped": [f10, f01, f00, f11],
            # scikit-learn's ordered pairs, the clusters passed as the truth
            "ordered pairs, f01 and f10 swapped": pair_confusion_matrix(c, t).ravel(),
            "f00 as all pairs but f11": [len(pairs) - f11, f01, f10, f11],
            "f01 and f10 with f11 in them": [f00, same_cluster, same_class, f11]}


def s03_3(d):
    f00, f01, f10, f11 = f_counts(d)
    rand, jac = rand_score(d["classes"], d["clusters"]), f11 / (f01 + f10 + f11)
    same_cluster, same_class = f01 + f11, f10 + f11       # as 03.2's slip counts them
    total = f00 + same_cluster + same_class + f11
    return {"1 - Rand": [1 - rand, jac], "1 - Jaccard": [rand, 1 - jac],
            "Rand without f11": [f00 / (f00 + f01 + f10 + f11), jac],
            "f01 and f10 with f11 in them": [(f00 + f11) / total,
                                             f11 / (same_cluster + same_class + f11)],
            "ARI for Rand": [adjusted_rand_score(d["classes"], d["clusters"]), jac]}


def s03_4(d):
    t, c = d["classes"], d["clusters"]
    n = contingency_matrix(t, c).astype(float)
    index, a, b = comb(n, 2).sum(), comb(n.sum(1), 2).sum(), comb(n.sum(0), 2).sum()
    pairs = comb(n.sum(), 2)
    e = a * b / pairs
    sq_e = (n.sum(1) ** 2).sum() * (n.sum(0) ** 2).sum() / n.sum() ** 2
    aris = {"ARI normalised by the larger": (index - e) / (max(a, b) - e),
            "ARI normalised by the smaller": (index - e) / (min(a, b) - e),
            "ARI on ordered pairs with self-pairs": ((n ** 2).sum() - sq_e) / (
                ((n.sum(1) ** 2).sum() + (n.sum(0) ** 2).sum()) / 2 - sq_e),
            "ARI without the expected index": index / ((a + b) / 2),
            "E over n (n - 1)": (index - a * b / (2 * pairs)) / ((a + b) / 2
                                                                - a * b / (2 * pairs)),
            "E not divided by C(n, 2)": (index - a * b) / ((a + b) / 2 - a * b),
            "max index as all pairs": (index - e) / (pairs - e)}
    rand = rand_score(t, c)
    out = {name: [rand, value, "B"] for name, value in aris.items()}
    out["Fowlkes-Mallows for ARI"] = [rand, fowlkes_mallows_score(t, c), "B"]
    out["first five examples"] = [rand_score(t[:5], c[:5]), adjusted_rand_score(t[:5], c[:5]),
                                  "B"]
    return out


SLIPS = {"02.1": s02_1, "02.2": s02_2, "02.3": s02_3, "02.4": s02_4, "03.1": s03_1,
         "03.2": s03_2, "03.3": s03_3, "03.4": s03_4}


@pytest.mark.parametrize("qid", sorted(SLIPS))
def test_each_new_slip_is_rejected_and_named_on_the_course_and_ten_variants(qid, questions):
    listed = {m.name for m in questions(qid, None).mistakes()}
    for seed in SEEDS:
        q = questions(qid, seed)
        for name, value in SLIPS[qid](q.data).items():
            assert name in listed, name
            if seed is None and (qid, name) in COURSE_TIES:
                assert q.grade(value).status == ex.CORRECT, name   # the key itself there
                continue
            out = q.grade(value)
            assert out.status != ex.CORRECT, (seed, name)
            assert name in out.diagnosed, (seed, name, out.feedback)


@pytest.mark.parametrize("seed", [None, "s0001", "s0002"])
def test_a_membership_matrix_is_told_what_the_similarity_matrix_is(seed, questions):
    q = questions("03.1", seed)
    clusters = q.data["clusters"]
    membership = np.equal.outer(np.unique(clusters), clusters).astype(int)
    n = len(clusters)
    for answer, per in ((membership, "row"), (membership.T, "column")):
        out = q.grade(answer.tolist())
        assert out.status == ex.INVALID
        assert f"one {per} per cluster" in out.feedback
        assert f"the similarity matrix is {n} x {n}" in out.feedback
        assert "totals" not in out.feedback


def test_rand_of_one_half_is_no_variant_of_03_3(questions):
    # 1 - Rand was accepted where Rand = 0.5 (4 of 10 variants): those are redrawn now
    for seed in [f"s{k:04d}" for k in range(1, 41)]:
        rand, jac = questions("03.3", seed).key()
        assert abs(rand - 0.5) > 1e-3 and abs(jac - 0.5) > 1e-3, seed
