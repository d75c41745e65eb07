"""Bad input gets a clear error naming the argument - for every public function.

Each module's own tests check its specific errors; this file checks that the
whole API behaves the same way on the common mistakes.
"""
import numpy as np
import pytest

import prayatul_edu as pe

TWO_LABELINGS = ["contingency_table", "purity", "maximum_matching", "precision_recall_f",
                 "f_measure", "cluster_entropy", "mutual_information",
                 "normalized_mutual_information", "pair_confusion", "rand_index",
                 "jaccard_index", "fowlkes_mallows_index", "adjusted_rand_index",
                 "hubert_statistic", "clustering_ratio", "clustering_error",
                 "adjusted_mutual_information", "v_measure", "homogeneity", "completeness",
                 "variation_of_information"]
# Defined for a single instance (a 1 x 1 contingency table); the rest need pairs.
DEFINED_AT_N1 = {"contingency_table", "purity", "maximum_matching", "precision_recall_f",
                 "f_measure", "cluster_entropy", "mutual_information",
                 "normalized_mutual_information", "clustering_ratio", "clustering_error",
                 "adjusted_mutual_information", "v_measure", "homogeneity", "completeness",
                 "variation_of_information"}
THREE_LABELINGS = ["prayatul_matrix", "prayatul_by_instance"]

GOOD = [0, 0, 1, 1, 2]


def _call(name, bad, position):
    """Call function `name` with `bad` in argument `position`, good labels elsewhere."""
    fn = getattr(pe, name)
    n_args = 3 if name in THREE_LABELINGS else 2
    args = [list(GOOD) for _ in range(n_args)]
    args[position] = bad
    return fn(*args)


def _arg_name(name, position):
    return (["truth", "primary", "alternative"] if name in THREE_LABELINGS
            else ["truth", "pred"])[position]


CASES = [
    ("different lengths", [0, 1, 0], ValueError, "must label the same instances"),
    ("empty", [], ValueError, "is empty"),
    ("single instance", [3], ValueError, "at least 2"),
    ("2-D", [[0, 1], [1, 0], [0, 0], [1, 1], [0, 1]], ValueError, "1-D"),
    ("NaN", [0.0, np.nan, 1.0, 1.0, 2.0], ValueError, "NaN"),
    ("None", [0, None, 1, 1, 2], ValueError, "None"),
    ("not a sequence", None, TypeError, "got None"),
    ("a string", "00112", TypeError, "single str"),
    ("unhashable", np.array([[0], [1], 0, 1, 2], dtype=object), TypeError, "hashable"),
]


# Every (function, case) pair, except N = 1 where the measure is defined (tested below).
LABEL_CASES = [pytest.param(name, *case, id=f"{name}-{case[0]}")
               for name in TWO_LABELINGS + THREE_LABELINGS for case in CASES
               if not (case[0] == "single instance" and name in DEFINED_AT_N1)]


@pytest.mark.parametrize("name, case, bad, error, match", LABEL_CASES)
def test_label_errors_name_the_argument(name, case, bad, error, match):
    n_args = 3 if name in THREE_LABELINGS else 2
    for position in range(n_args):
        with pytest.raises(error, match=match) as info:
            _call(name, bad, position)
        message = str(info.value)
        if case == "different lengths":
            assert _arg_name(name, position) in message
        else:
            assert message.startswith(_arg_name(name, position) + ":"), message


@pytest.mark.parametrize("name", sorted(DEFINED_AT_N1))
def test_single_instance_where_defined(name):
    """N = 1: one cluster, one class, a perfect (trivial) clustering."""
    result = getattr(pe, name)(["x"], [7])
    if name == "contingency_table":
        assert result.counts.tolist() == [[1]]
    elif name == "precision_recall_f":
        assert [m.tolist() for m in result] == [[[1.0]], [[1.0]], [[1.0]]]
    elif name in ("cluster_entropy", "mutual_information", "variation_of_information",
                  "clustering_error"):
        assert float(result) == 0.0
    else:
        assert float(result) == 1.0


def test_single_instance_entropy_is_zero():
    assert float(pe.entropy(["only"])) == 0.0


@pytest.mark.parametrize("name", sorted(set(TWO_LABELINGS) - DEFINED_AT_N1))
def test_pair_measures_refuse_one_instance_with_a_pair_reason(name):
    with pytest.raises(ValueError, match="no pairs") as info:
        getattr(pe, name)([0], [0])
    assert str(info.value).startswith("truth:")


ENTROPY_CASES = [c for c in CASES[1:] if c[0] != "single instance"]   # N = 1: defined


@pytest.mark.parametrize("case, bad, error, match", ENTROPY_CASES,
                         ids=[c[0] for c in ENTROPY_CASES])
def test_entropy_errors_name_labels(case, bad, error, match):
    with pytest.raises(error, match=match) as info:
        pe.entropy(bad)
    assert str(info.value).startswith("labels:")


def _square(k=5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.random((k, 2))
    return np.sqrt(((x[:, None] - x[None]) ** 2).sum(-1))


def _bad_matrices():
    d = _square()
    not_square = d[:, :4]
    asym = d.copy(); asym[0, 1] += 0.5
    neg = d.copy(); neg[0, 1] = neg[1, 0] = -0.2
    diag = d.copy(); diag[2, 2] = 0.3
    nan = d.copy(); nan[1, 3] = nan[3, 1] = np.nan
    return [("not square", not_square, "square"), ("not symmetric", asym, "symmetric"),
            ("negative", neg, "non-negative"), ("non-zero diagonal", diag, "diagonal"),
            ("NaN", nan, "NaN")]


MATRIX_FUNCTIONS = [
    ("silhouette", lambda M: pe.silhouette(M, [0, 0, 1, 1, 2], metric="precomputed"), "X"),
    ("agglomerative", lambda M: pe.agglomerative(M), "D"),
    ("cophenetic_correlation", lambda M: pe.cophenetic_correlation(M, pe.agglomerative(_square())), "D"),
    ("within_cluster_weight", lambda M: pe.within_cluster_weight(M, [0, 0, 1, 1, 2]), "W"),
    ("between_cluster_weight", lambda M: pe.between_cluster_weight(M, [0, 0, 1, 1, 2]), "W"),
    ("normalized_cut", lambda M: pe.normalized_cut(M, [0, 0, 1, 1, 2]), "W"),
    ("beta_cv", lambda M: pe.beta_cv(M, [0, 0, 1, 1, 2]), "W"),
    ("dunn_index", lambda M: pe.dunn_index(M, [0, 0, 1, 1, 2], metric="precomputed"), "X"),
]


@pytest.mark.parametrize("fname, call, argname", MATRIX_FUNCTIONS, ids=[m[0] for m in MATRIX_FUNCTIONS])
@pytest.mark.parametrize("case, matrix, match", _bad_matrices(), ids=[b[0] for b in _bad_matrices()])
def test_matrix_errors_name_the_argument(fname, call, argname, case, matrix, match):
    with pytest.raises(ValueError, match=match) as info:
        call(matrix)
    assert str(info.value).startswith(argname + ":"), str(info.value)


@pytest.mark.parametrize("call, argname", [
    (lambda: pe.normalized_mutual_information(GOOD, GOOD, average="harmonic"), "average"),
    (lambda: pe.f_measure(GOOD, GOOD, average="macro"), "average"),
    (lambda: pe.adjusted_mutual_information(GOOD, GOOD, average="harmonic"), "average"),
    (lambda: pe.variation_of_information(GOOD, GOOD, normalize="sum"), "normalize"),
    (lambda: pe.variation_of_information(GOOD, GOOD, base=1), "base"),
    (lambda: pe.variation_of_information([0], [0], normalize="log_n"), "truth"),
    (lambda: pe.v_measure(GOOD, GOOD, beta=-1), "beta"),
    (lambda: pe.v_measure(GOOD, GOOD, beta=float("nan")), "beta"),
    (lambda: pe.prayatul_matrix(GOOD, GOOD, GOOD, method="fast"), "method"),
    (lambda: pe.agglomerative(_square(), linkage="ward-ish"), "linkage"),
    (lambda: pe.silhouette(np.random.default_rng(0).random((5, 2)), GOOD, metric="manhattanish"),
     "metric"),
])
def test_unknown_names_are_rejected(call, argname):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(argname + ":"), str(info.value)


@pytest.mark.parametrize("labels, match", [([0, 0, 0, 0, 0], "clusters"),
                                           ([0, 1, 2, 3, 4], "clusters")])
def test_silhouette_needs_2_to_n_minus_1_clusters(labels, match):
    with pytest.raises(ValueError, match=match) as info:
        pe.silhouette(_square(), labels, metric="precomputed")
    assert str(info.value).startswith("labels:")


# ------------------------------------------------ the rest, and none forgotten
def _X():
    """Six points in the plane: two groups of three."""
    return [[0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]]


OTHER_CASES = [
    ("labels_from_table", lambda: pe.labels_from_table([[1, -2]]), ValueError, "counts:"),
    ("labels_from_table", lambda: pe.labels_from_table([[1.5]]), ValueError, "counts:"),
    ("cophenetic_matrix", lambda: pe.cophenetic_matrix("x"), TypeError, "result_or_Z:"),
    ("cophenetic_matrix", lambda: pe.cophenetic_matrix([[0, 1], [1, 0]]), ValueError,
     "result_or_Z:"),
    # internal validation: the data, the labels, the metric
    ("calinski_harabasz", lambda: pe.calinski_harabasz([1, 2, 3, 4], [0, 0, 1, 1]),
     ValueError, "X:"),
    ("calinski_harabasz", lambda: pe.calinski_harabasz(_X(), [0, 0, 1]), ValueError,
     "labels:"),
    ("calinski_harabasz", lambda: pe.calinski_harabasz(_X(), [0] * 6), ValueError, "labels:"),
    ("davies_bouldin", lambda: pe.davies_bouldin([[0, np.nan]] * 6, [0, 0, 0, 1, 1, 1]),
     ValueError, "X:"),
    ("davies_bouldin", lambda: pe.davies_bouldin(_X(), list(range(6))), ValueError, "labels:"),
    ("davies_bouldin", lambda: pe.davies_bouldin(_X(), [0, None, 1, 1, 0, 1]), ValueError,
     "labels:"),
    ("dunn_index", lambda: pe.dunn_index(_X(), [0, 0, 0, 1, 1, 1], metric="manhatan"),
     ValueError, "metric:"),
    ("dunn_index", lambda: pe.dunn_index(_X(), [0, 0, 0, 1, 1, 1], metric=2), TypeError,
     "metric:"),
    ("dunn_index", lambda: pe.dunn_index(_X(), [0, 0, 0, 1, 1], metric="euclidean"),
     ValueError, "labels:"),
    ("dunn_index", lambda: pe.dunn_index("abc", [0, 1, 1]), TypeError, "X:"),
    # significance: the measure, the counts, the seed, the procedure
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, measure="ari"), TypeError,
     "measure:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, n_permutations=0),
     ValueError, "n_permutations:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, n_permutations=9.5),
     TypeError, "n_permutations:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, seed="x"), TypeError,
     "seed:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, seed=-1), ValueError,
     "seed:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, [0, 1]), ValueError, "truth"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, measure=lambda t, p: "high"),
     TypeError, "measure:"),
    ("permutation_test", lambda: pe.permutation_test(GOOD, GOOD, measure=pe.v_measure,
                                                     method="tables"), ValueError, "method:"),
    ("stability", lambda: pe.stability(_X(), "kmeans"), TypeError, "cluster:"),
    ("stability", lambda: pe.stability(_X(), lambda Y: [0, 1]), ValueError, "cluster:"),
    ("stability", lambda: pe.stability(_X(), lambda Y: [0] * len(Y), n_resamples=1),
     ValueError, "n_resamples:"),
    ("stability", lambda: pe.stability(_X(), lambda Y: [0] * len(Y), fraction=1.5),
     ValueError, "fraction:"),
    ("stability", lambda: pe.stability(_X(), lambda Y: [0] * len(Y), method="jackknife"),
     ValueError, "method:"),
    # relative validation
    ("choose_k", lambda: pe.choose_k(_X(), lambda Y, k: [0] * len(Y), ks=[]), ValueError,
     "ks:"),
    ("choose_k", lambda: pe.choose_k(_X(), lambda Y, k: [0] * len(Y), ks=[3, 2]),
     ValueError, "ks:"),
    ("choose_k", lambda: pe.choose_k(_X(), lambda Y, k: [0] * len(Y), criteria=["knee"]),
     ValueError, "criteria:"),
    ("choose_k", lambda: pe.choose_k(_X(), lambda Y, k: [0] * len(Y), criteria="gap"),
     TypeError, "criteria:"),
    ("choose_k", lambda: pe.choose_k(_X(), lambda Y, k: [0], ks=[2]), ValueError, "cluster:"),
    ("gap_statistic", lambda: pe.gap_statistic(_X(), lambda Y, k: [0] * len(Y),
                                               n_references=1), ValueError, "n_references:"),
    ("gap_statistic", lambda: pe.gap_statistic(_X(), None), TypeError, "cluster:"),
    # clustering tendency
    ("hopkins_statistic", lambda: pe.hopkins_statistic(_X(), n_probes=100), ValueError,
     "n_probes:"),
    ("hopkins_statistic", lambda: pe.hopkins_statistic(_X(), seed=1, random_state=2),
     ValueError, "random_state:"),
    ("hopkins_statistic", lambda: pe.hopkins_statistic(np.zeros((4, 2))), ValueError, "X:"),
    ("gap_statistic", lambda: pe.gap_statistic(_X(), lambda Y, k: [0] * len(Y), ks=[0, 1]),
     ValueError, "ks:"),
]


@pytest.mark.parametrize("fname, call, error, start", OTHER_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(OTHER_CASES)])
def test_other_errors_name_the_argument(fname, call, error, start):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).startswith(start), str(info.value)


def test_every_public_function_has_a_bad_input_case():
    """Found from ``prayatul_edu.__all__``: a new measure without a case here fails."""
    import inspect

    public = {n for n in pe.__all__ if inspect.isfunction(getattr(pe, n))}
    covered = (set(TWO_LABELINGS) | set(THREE_LABELINGS) | {"entropy"}
               | {m[0] for m in MATRIX_FUNCTIONS} | {c[0] for c in OTHER_CASES})
    assert public - covered == set(), f"no bad-input case for {sorted(public - covered)}"
    assert len(public) >= 30

