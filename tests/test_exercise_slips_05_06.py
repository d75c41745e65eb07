"""The slips of exercises 05.1-05.3 and 06.1-06.2 named since issue 47's second list.

Each slip's value is computed here from the question's data with NumPy and SciPy (never by
the question's own mistake) and answered on the course's data and on ten variants: it must
be rejected and named.
"""
from itertools import combinations

import numpy as np
import pytest
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import squareform
from scipy.stats import pearsonr

import prayatul_edu.exercises as ex

SEEDS = [None] + [f"s{k:04d}" for k in range(1, 11)]


def _named(q, name, value):
    out = q.grade(value)
    assert out.status != ex.CORRECT, (q.qid, q.seed, name)
    assert name in out.diagnosed, (q.qid, q.seed, name, out.feedback)


# ---------------------------------------------------------------- 05: the tree
def _Z(D, method="single"):
    return linkage(squareform(np.asarray(D, dtype=float), checks=False), method)


def _merges(D):
    """(members of A, members of B, height) of each single-linkage merge (SciPy's Z)."""
    n, Z = len(D), _Z(D)
    members = {i: [i] for i in range(n)}
    out = []
    for k, (a, b, h, _) in enumerate(Z):
        A, B = members[int(a)], members[int(b)]
        out.append((A, B, h))
        members[n + k] = A + B
    return out


def _table(D, value):
    """5 x 5: value(k, h) for the pairs merge k (0-based) joins, 0 on the diagonal."""
    P = np.zeros((len(D), len(D)))
    for k, (A, B, h) in enumerate(_merges(D)):
        for i in A:
            for j in B:
                P[i, j] = P[j, i] = value(k, A, B)
    return P


def _slips_05_1(D):
    D = np.asarray(D, dtype=float)
    out = {name: _Z(D, method)[:, 2] for name, method in
           (("Ward", "ward"), ("centroid linkage", "centroid"), ("median linkage", "median"))}
    out["grown from x1"] = _prim_from_x1(D)
    out["largest distance of the merged clusters"] = [D[np.ix_(A, B)].max()
                                                       for A, B, _ in _merges(D)]
    out["mean distance of the merged clusters"] = [D[np.ix_(A, B)].mean()
                                                    for A, B, _ in _merges(D)]
    return out


def _prim_from_x1(D):
    """Prim's minimum spanning tree grown from x1: each edge's length, in the order added."""
    n, seen, out = len(D), {0}, []
    while len(seen) < n:
        h, j = min((D[i, j], j) for i in seen for j in range(n) if j not in seen)
        seen.add(j)
        out.append(h)
    return out


def _slips_05_2(D):
    D = np.asarray(D, dtype=float)
    out = {name: squareform(cophenet(_Z(D, method))) for name, method in
           (("Ward", "ward"), ("centroid linkage", "centroid"), ("median linkage", "median"))}
    h = _Z(D)[:, 2]
    first = {}
    for A, B, height in _merges(D):
        for i in A + B:
            first.setdefault(i, height)
    out["the earlier first merge"] = _earlier(D, first)
    out["the previous merge's height"] = _table(D, lambda k, A, B: h[k - 1] if k else 0.0)
    out["the next merge's height"] = _table(D, lambda k, A, B: h[min(k + 1, len(h) - 1)])
    out["largest distance of the merged clusters"] = _table(
        D, lambda k, A, B: D[np.ix_(A, B)].max())
    out["mean distance of the merged clusters"] = _table(
        D, lambda k, A, B: D[np.ix_(A, B)].mean())
    out["cumulative heights"] = _table(D, lambda k, A, B: h[:k + 1].sum())
    out["half heights"] = squareform(cophenet(_Z(D))) / 2
    return out


def _earlier(D, first):
    """P_ij as the height where the earlier of x_i, x_j first merged with anything."""
    P = np.zeros((len(D), len(D)))
    for i, j in combinations(range(len(D)), 2):
        P[i, j] = P[j, i] = min(first[i], first[j])
    return P


def _slips_05_3(D):
    D = np.asarray(D, dtype=float)
    iu = np.triu_indices(len(D), 1)
    x, y = D[iu], squareform(cophenet(_Z(D)))[iu]
    d, p, r = x.mean(), y.mean(), pearsonr(x, y)[0]
    xc, yc = x - d, y - p
    w = squareform(cophenet(_Z(D, "weighted")))[iu]
    dm, pm = np.median(x), np.median(y)
    return {"d rounded early": [round(d, 2), p, r],
            "p rounded early": [d, round(p, 2), r],
            "CPCC rounded early": [d, p, round(r, 2)],
            "uncentred": [d, p, x @ y / np.sqrt((x @ x) * (y @ y))],
            "sums for means": [x.sum(), y.sum(), r],
            "sample covariance": [d, p, np.cov(x, y)[0, 1]],
            "n - 1 on top only": [d, p, np.cov(x, y)[0, 1] / (np.std(x) * np.std(y))],
            "no square root": [d, p, (xc @ yc) / ((xc @ xc) * (yc @ yc))],
            "weighted linkage": [d, w.mean(), pearsonr(x, w)[0]],
            "medians for means": [dm, pm, (x - dm) @ (y - pm) / np.sqrt(
                ((x - dm) ** 2).sum() * ((y - pm) ** 2).sum())],
            "means over N(N - 1)": [x.sum() / 20, y.sum() / 20, r]}


# ---------------------------------------------------------- 06: the pairs
def _counts(t, a, b, right):
    c = np.zeros(4)
    for i, j in combinations(range(len(t)), 2):
        ra, rb = right(t, a, i, j), right(t, b, i, j)
        c[[[3, 2], [1, 0]][ra][rb]] += 1
    return c


def _agrees(t, a, i, j):
    return int((a[i] == a[j]) == (t[i] == t[j]))


def _together(t, a, i, j):
    return int(a[i] == a[j] and t[i] == t[j])


def _measures(br, rw, wr, bw):
    t, r = br + rw + wr + bw, br + rw
    return [(rw - wr) / (rw + wr), (r - bw) / t, r / (r + wr), (r - wr) / (r + wr),
            (r - wr) / t]


def _slips_06_1(t, a, b):
    inst = np.zeros(4)
    for ti, ai, bi in zip(t, a, b):
        inst[[[3, 2], [1, 0]][int(ai == ti)][int(bi == ti)]] += 1
    br, rw, wr, bw = _counts(t, a, b, _agrees)
    return {"right and wrong exchanged": [bw, wr, rw, br],
            "right only when together": _counts(t, a, b, _together),
            "instances by raw labels": inst}


def _slips_06_2(t, a, b):
    br, rw, wr, bw = _counts(t, a, b, _agrees)
    key = _measures(br, rw, wr, bw)
    T = br + rw + wr + bw
    return {"BR and BW swapped": _measures(bw, rw, wr, br),
            "right only when together": _measures(*_counts(t, a, b, _together)),
            "together for right": _measures(*_counts(t, a, b, lambda t, a, i, j: int(
                a[i] == a[j]))),
            "alpha with WR for BW": [key[0], key[4], *key[2:]],
            "phi_e with BW for WR": [*key[:4], key[1]],
            "alpha with BR on top": [key[0], (br - bw) / T, *key[2:]],
            "right and wrong exchanged": _measures(bw, wr, rw, br),
            "xi_c with BR on top": [key[0], key[1], br / (br + rw + wr), *key[3:]],
            "phi_e without BR in T": [*key[:4], (br + rw - wr) / (rw + wr + bw)],
            "RW for BR + RW": [key[0], (rw - bw) / T, rw / (rw + wr), (rw - wr) / (rw + wr),
                               (rw - wr) / T]}


SLIPS = {"05.1": lambda q: _slips_05_1(q.D), "05.2": lambda q: _slips_05_2(q.D),
         "05.3": lambda q: _slips_05_3(q.D),
         "06.1": lambda q: _slips_06_1(q.truth, q.primary, q.alternative),
         "06.2": lambda q: _slips_06_2(q.truth, q.primary, q.alternative)}


@pytest.mark.parametrize("qid", sorted(SLIPS))
def test_new_slips_are_rejected_and_named(qid, questions):
    for seed in SEEDS:
        q = questions(qid, seed)
        for name, value in SLIPS[qid](q).items():
            _named(q, name, np.asarray(value, dtype=float))
