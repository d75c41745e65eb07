"""Exercises 08 and 09: the slips a student's own wrong answers showed (issue 45: they were
told "not one of the usual slips"), computed here from the data, are named on the course's
data and on 20 variants, and never equal the key there. (Every listed slip of every value
question is checked on 50 and 100 variants in tests/test_exercises.py.)"""
import math

import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import _base

VARIANTS = [f"v{k}" for k in range(20)]


def q_(qid, seed=None):
    return ex.question(qid, seed=seed)


# ------------------------------------------------ the slips, computed from the data
def _distances(P, X, manhattan=False):
    diff = np.asarray(P, float)[:, None] - np.asarray(X, float)[None]
    return np.abs(diff).sum(-1) if manhattan else np.sqrt((diff ** 2).sum(-1))


def _hopkins(q, power=2, manhattan=False):
    X, P, S = np.asarray(q.X, float), np.asarray(q.probes, float), np.asarray(q.sample)
    u = _distances(P, X, manhattan).min(1)
    D = _distances(X[S], X, manhattan)
    D[np.arange(len(S)), S] = np.inf                       # not the point itself
    w = D.min(1)
    return float((u ** power).sum() / ((u ** power).sum() + (w ** power).sum()))


def _normal_p(q, ddof):
    null = np.asarray(q.null, float)
    z = (q.observed - null.mean()) / null.std(ddof=ddof)
    return 0.5 * math.erfc(z / math.sqrt(2))               # P(Z >= z)


def _shared(q):
    a = dict(zip(q.ids_a.tolist(), q.labels_a.tolist()))
    b = dict(zip(q.ids_b.tolist(), q.labels_b.tolist()))
    ids = sorted(set(a) & set(b))
    return [a[i] for i in ids], [b[i] for i in ids]


def _nmi_arithmetic(x, y):
    from sklearn.metrics import normalized_mutual_info_score
    return normalized_mutual_info_score(x, y, average_method="arithmetic")


def _minus_ari(x, y):
    from sklearn.metrics import adjusted_rand_score
    return -adjusted_rand_score(x, y)


def _one_subsample(q, run="a"):
    ref = np.asarray(q.reference)
    ids, lab = np.asarray(q.data[f"ids_{run}"]), np.asarray(q.data[f"labels_{run}"])
    clusters = [set(ids[lab == v].tolist()) for v in np.unique(lab)]
    out = []
    for c in (1, 2, 3):
        seen = set(np.flatnonzero(ref == c).tolist()) & set(ids.tolist())
        out.append(max(len(seen & d) / len(seen | d) for d in clusters))
    return out


def _expected_over_ordered_total(q):
    """08.1 with the sizes' pairs counted right but divided by N (N - 1), not C(N, 2)."""
    pairs = lambda sizes: sum(int(n) * (int(n) - 1) / 2 for n in sizes)  # noqa: E731
    a, b, n = pairs(q.cluster_sizes), pairs(q.class_sizes), int(np.sum(q.class_sizes))
    total = n * (n - 1) / 2
    expected = a * b / total
    return [a * b / (n * (n - 1)), (total - a - b + 2 * expected) / total]


#: (question, the slip as a student computes it, the name the feedback gives it)
SLIPS = [
    ("08.1", _expected_over_ordered_total, "total pairs not halved"),
    ("08.4", lambda q: int((np.asarray(q.null) > q.observed).sum()) / len(q.null),
     "ties left out and no +1"),                           # the course's 1/19
    ("08.4", lambda q: _normal_p(q, 1), "normal approximation"),
    ("08.4", lambda q: _normal_p(q, 0), "normal approximation (population sd)"),
    ("09.1", lambda q: _hopkins(q, power=3), "power 3"),
    ("09.1", lambda q: _hopkins(q, power=4), "power 4"),
    ("09.1", lambda q: _hopkins(q, manhattan=True), "Manhattan distance"),
    ("09.2", lambda q: _nmi_arithmetic(*_shared(q)), "NMI (arithmetic mean)"),
    ("09.2", lambda q: _minus_ari(*_shared(q)), "ARI with its sign flipped"),
    ("09.3", _one_subsample, "first subsample only"),
    ("09.3", lambda q: _one_subsample(q, "b"), "second subsample only"),
]


@pytest.mark.parametrize("qid, slip, name", SLIPS, ids=[s[2] for s in SLIPS])
def test_a_students_own_slip_is_named_on_the_course_data_and_20_variants(qid, slip, name):
    for seed in [None] + VARIANTS:
        q = q_(qid, seed)
        value = slip(q)
        assert _base.apart(value, q.key()), (seed, value)    # never the key: screened
        typed = np.round(value, 4).tolist()                  # as a student types it
        out = q.grade(typed)
        assert out.status != ex.CORRECT and name in out.diagnosed, (seed, out.messages)


def test_the_course_answers_of_issue_45_read_as_typed():
    out = q_("08.4").grade("1/19")                          # 0.0526: > and no +1
    assert out.diagnosed == ["ties left out and no +1"]
    assert "count >=, not >" in out.feedback and "add 1" in out.feedback
    out = q_("09.1").grade(0.9697)                          # power 3 on the course's data
    assert out.diagnosed == ["power 3"] and "not the number of probes" in out.feedback
    out = q_("09.3").grade([0.6, 0.3333, 1.0])              # subsample A's best Jaccards
    assert out.diagnosed == ["first subsample only"]


def test_a_wrong_k_on_09_4_is_not_told_the_groups_the_plot_shows():
    # a failed check names what was wrong, never the answer: the count of the groups in the
    # plot is the key (the accepted k), so the feedback on a wrong option asks the student
    # to count them and never counts them itself
    import re
    for seed in [None] + VARIANTS:
        q = q_("09.4", seed)
        keyed = {letter for key in q.keys() for letter in key}
        answers = {int(t[4:]) for letter, t in q.choices.items()
                   if letter in keyed and t.startswith("k = ")}
        for letter in set(q.choices) - keyed:
            out = q.grade(letter)
            told = {int(a or b) for a, b in re.findall(
                r"(\d+) groups|(\d+)-cluster cut recovers", out.feedback)}
            assert out.status != ex.CORRECT and not told & answers, (seed, out.feedback)
