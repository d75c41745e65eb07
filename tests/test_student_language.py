"""Student-facing text speaks the lecture's language.

A derivation, a saved notebook output and a notebook's prose are read by students:
they say what is computed and why, never how the library is built (its keywords, its
algorithms' complexity, SciPy's internal ids, attributes to poke at). The library's
docstrings may say more; they are not scanned here.
"""
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prayatul_edu as pe
from prayatul_edu import steps

ROOT = Path(__file__).resolve().parents[1]

#: Implementation talk: each entry is a phrase that has no place in a lecture.
IMPLEMENTATION_WORDS = (
    "fast path", "plain path", "method=", "method '", "Computed by '", "Computed with",
    "SciPy's Z", "linkage_matrix", ".steps[", " has id ", "O(N", "O(n", "inclusion-exclusion",
    "inclusion–exclusion", "h_clusters", "h_classes", ".derivation()", "float(p)",
    "brute force", "to_sklearn", "without a trace",
)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "notebooks" / "apps").glob("*.ipynb"))


def _found(text):
    return [w for w in IMPLEMENTATION_WORDS if w in text]


def _student_text(cell):
    """What a student reads of a cell: markdown prose, or a code cell's saved outputs."""
    if cell.cell_type == "markdown":
        yield cell.source
    for out in cell.get("outputs", []):
        yield out.get("text", "")
        for kind in ("text/plain", "text/markdown", "text/html"):
            value = out.get("data", {}).get(kind, "")
            yield "".join(value) if isinstance(value, list) else value


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_implementation_talk_in_a_notebook(path):
    nb = nbformat.read(path, as_version=4)
    for number, cell in enumerate(nb.cells):
        for text in _student_text(cell):
            assert not _found(text), f"{path.name} cell {number}: {_found(text)}"


def _every_public_result():
    """One or more results of every public measure, small (every step listed) and large
    (the branches that summarise), each way the library can compute it."""
    rng = np.random.default_rng(5)
    truth, pred, alt = ([0, 0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 1, 1, 2, 2, 0],
                        [1, 1, 1, 0, 0, 0, 2, 2])
    big_t, big_p, big_q = (rng.integers(0, 4, 400) for _ in range(3))
    X = rng.normal(size=(8, 2))
    big_X = rng.normal(size=(300, 2))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    big_D = np.sqrt(((big_X[:, None] - big_X[None]) ** 2).sum(-1))
    two = [(truth, pred), (big_t, big_p)]
    for t, p in two:
        for f in (pe.purity, pe.maximum_matching, pe.precision_recall_f, pe.f_measure,
                  pe.clustering_ratio, pe.clustering_error, pe.cluster_entropy,
                  pe.mutual_information, pe.normalized_mutual_information,
                  pe.adjusted_mutual_information, pe.v_measure, pe.variation_of_information,
                  pe.pair_confusion, pe.rand_index, pe.jaccard_index,
                  pe.fowlkes_mallows_index, pe.adjusted_rand_index, pe.hubert_statistic):
            yield f(t, p)
        yield pe.entropy(p)
        yield pe.contingency_table(t, p)
        yield pe.f_measure(t, p, average="classes")
        yield pe.variation_of_information(t, p, normalize="joint")
    yield pe.hubert_statistic(truth, pred, method="matrices")
    for method in ("pairs", "counts"):
        yield pe.prayatul_matrix(truth, pred, alt, method=method)
    yield pe.prayatul_matrix(big_t, big_p, big_q)
    for x, labels in ((X, pred), (big_X, rng.integers(0, 3, 300))):
        for method in ("plain", "fast"):
            yield pe.silhouette(x, labels, method=method)
    for d, labels in ((D, pred), (big_D, rng.integers(0, 3, 300))):
        for f in (pe.within_cluster_weight, pe.between_cluster_weight, pe.normalized_cut,
                  pe.beta_cv):
            yield f(d, labels)
    for d in (D, big_D):
        for linkage in ("single", "average", "ward", "centroid"):
            for method in ("plain", "fast"):
                if method == "plain" and len(d) > 50:
                    continue
                tree = pe.agglomerative(d, linkage=linkage, method=method)
                yield tree
                yield tree.steps[0]
        yield pe.cophenetic_matrix(pe.agglomerative(d))
        yield pe.cophenetic_correlation(d, pe.agglomerative(d))
    # judging a clustering: internal criteria, chance, stability and the choice of k
    for x, labels in ((X, pred), (big_X, rng.integers(0, 3, 300))):
        yield pe.calinski_harabasz(x, labels)
        yield pe.davies_bouldin(x, labels)
        yield pe.dunn_index(x, labels)
    for method in ("plain", "codes", "tables"):
        yield pe.permutation_test(big_t, big_p, n_permutations=19, seed=0, method=method)

    def kmeans(data, k=3):
        from sklearn.cluster import KMeans

        return KMeans(k, n_init=2, random_state=0).fit_predict(data)

    yield pe.stability(big_X, kmeans, n_resamples=3, seed=0)
    yield pe.choose_k(big_X, kmeans, ks=range(2, 4), n_resamples=2, n_references=2, seed=0)
    yield pe.gap_statistic(big_X, kmeans, ks=range(1, 4), n_references=2, seed=0)
    yield pe.stability(big_X, kmeans, n_resamples=3, seed=0, baseline=True)
    yield pe.choose_k(big_X, kmeans, ks=range(1, 5), criteria=["elbow", "gap"],
                      n_references=2, seed=0)
    yield pe.hopkins_statistic(big_X, seed=0)


def test_no_implementation_talk_in_a_derivation():
    covered = set()
    for result in _every_public_result():
        d = result.derivation()
        for text in (d.to_text(), d.to_markdown()):
            assert not _found(text), f"{type(result).__name__}: {_found(text)}"
        covered.add(type(result))
    # every result class of a measure module took part
    measures = {"prayatul_edu." + m for m in ("matching", "information", "pair_counting",
                                              "prayatul", "silhouette", "graph", "tree",
                                              "cophenetic", "counting", "internal",
                                              "significance", "relative", "tendency")}

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    expected = {c for c in subclasses(steps.Result) if c.__module__ in measures
                and not c.__name__.startswith("_") and c.__name__ not in (
                    "PairScore", "RawAccuracy", "RawPrecisionRecall")}
    assert expected - covered == set()
