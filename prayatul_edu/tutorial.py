"""The seed documents' worked examples: their data, their printed answers, and a printout.

The course teaches from four documents (see the project README): the Prayatul
matrix paper, the lecture notes on clustering evaluation, the notes on
full-reference evaluation and the tutorial with worked exercises. Their data
live here once, for the main job, the notebooks, the exercises and the tests.

``PUBLISHED`` keeps the answers exactly as the documents print them. Where a
document truncates instead of rounding (the tutorial's s_2 = 0.8461 is
0.846153...) the library computes the exact value and :func:`worked_examples`
says so next to it.
"""
from __future__ import annotations

import numpy as np

from .contingency import contingency_table
from .counting import labels_from_table
from .hierarchy import agglomerative, cophenetic_correlation, cophenetic_matrix
from .information import cluster_entropy
from .matching import maximum_matching, precision_recall_f, purity
from .pair_counting import hubert_statistic, jaccard_index, pair_confusion, rand_index
from .silhouette import silhouette

__all__ = ["EXERCISE_1_D", "EXERCISE_1_LABELS", "EXERCISE_2_CLASSES", "EXERCISE_2_CLUSTERS",
           "EXERCISE_3_CLASSES", "EXERCISE_3_CLUSTERS", "EXERCISE_4_D",
           "LECTURE_MATCHING_TABLE", "PUBLISHED", "worked_examples", "print_worked_examples"]

# -- Tutorial, Exercise 1 (silhouette) ---------------------------------------
#: Distances between x1..x4; clusters C1 = {x1, x2}, C2 = {x3, x4}.
EXERCISE_1_D = np.array([
    [0.00, 0.10, 0.65, 0.55],
    [0.10, 0.00, 0.70, 0.60],
    [0.65, 0.70, 0.00, 0.90],
    [0.55, 0.60, 0.90, 0.00],
])
EXERCISE_1_LABELS = np.array([1, 1, 2, 2])

# -- Tutorial, Exercise 2 (confusion matrix, precision, recall, F, entropy, purity)
EXERCISE_2_CLASSES = np.array([1, 3, 2, 1, 3, 3, 2, 2, 1, 2])
EXERCISE_2_CLUSTERS = np.array([1, 2, 3, 1, 2, 1, 2, 2, 3, 1])

# -- Tutorial, Exercise 3 (ideal similarity matrices, Rand, Jaccard): first five examples
EXERCISE_3_CLASSES = EXERCISE_2_CLASSES[:5].copy()
EXERCISE_3_CLUSTERS = EXERCISE_2_CLUSTERS[:5].copy()

# -- Tutorial, Exercise 4 (single linkage, cophenetic matrix, CPCC) ----------
EXERCISE_4_D = np.array([
    [0.00, 0.90, 0.59, 0.45, 0.65],
    [0.90, 0.00, 0.36, 0.53, 1.02],
    [0.59, 0.36, 0.00, 0.56, 1.15],
    [0.45, 0.53, 0.56, 0.00, 1.24],
    [0.65, 1.02, 1.15, 1.24, 0.00],
])

# -- Lecture notes: the purity / maximum-matching example ---------------------
#: Rows are clusters C1..C3, columns classes T1..T3 (n = 1550).
LECTURE_MATCHING_TABLE = np.array([
    [50, 100, 0],
    [10, 1000, 50],
    [100, 90, 150],
])

#: The answers exactly as the documents print them.
PUBLISHED = {
    "exercise_1": {
        "a": [0.1, 0.1, 0.9, 0.9],
        "b": [0.6, 0.65, 0.675, 0.575],
        "s": [0.8333, 0.8461, -0.25, -0.3611],
        "s_clusters": [0.8397, -0.3055],
        "s_overall": 0.2670,
    },
    "exercise_2": {
        "confusion": [[2, 0, 1], [1, 2, 1], [1, 2, 0]],  # rows classes, columns clusters
        "precision_1_3": 1 / 4, "recall_1_3": 1 / 3, "f_1_3": 2 / 7, "e_2": 1.0, "p_2": 0.5,
    },
    "exercise_3": {"f00": 8, "f01": 0, "f10": 0, "f11": 2, "rand": 1.0, "jaccard": 1.0},
    "exercise_4": {
        "merges": [((2, 3), 0.36), ((1, 4), 0.45), ((1, 2, 3, 4), 0.53), ((1, 2, 3, 4, 5), 0.65)],
        "cophenetic": [[0, 0.53, 0.53, 0.45, 0.65], [0.53, 0, 0.36, 0.53, 0.65],
                       [0.53, 0.36, 0, 0.53, 0.65], [0.45, 0.53, 0.53, 0, 0.65],
                       [0.65, 0.65, 0.65, 0.65, 0]],
        "d": 0.745, "p": 0.553, "cpcc": 0.7978,
    },
    "lecture_matching": {"purity": 1250 / 1550, "maximum_matching": 1200 / 1550},
}


def _truncates(printed: float, exact: float, decimals: int = 4) -> bool:
    """True when ``printed`` is ``exact`` cut (not rounded) to ``decimals``."""
    scale = 10 ** decimals
    cut = np.trunc(exact * scale) / scale
    return round(printed, decimals) == round(cut, decimals) != round(exact, decimals)


def worked_examples():
    """The seed documents' worked examples, computed by the library.

    Returns a list of ``(title, result, remarks)``: each result renders its own
    derivation (``repr`` in a terminal, Markdown in Jupyter); ``remarks`` are
    sentences comparing with the printed answers.

    Examples
    --------
    >>> from prayatul_edu.tutorial import worked_examples
    >>> title, result, remarks = worked_examples()[0]
    >>> title
    'Tutorial, Exercise 1: silhouette coefficient'
    >>> round(float(result), 4)          # the tutorial prints s_C = 0.2670, cut, not rounded
    0.2671
    """
    out = []
    pub = PUBLISHED["exercise_1"]
    s = silhouette(EXERCISE_1_D, EXERCISE_1_LABELS, metric="precomputed")
    remarks = []
    for name, printed, exact in [("s_2", pub["s"][1], s.samples[1]),
                                 ("s_C2", pub["s_clusters"][1], s.per_cluster[1]),
                                 ("s_C", pub["s_overall"], float(s))]:
        if _truncates(printed, exact):
            remarks.append(f"The tutorial prints {name} = {printed:.4f}: the exact value "
                           f"{exact:.6f} cut after 4 decimals (rounding gives {exact:.4f}).")
    out.append(("Tutorial, Exercise 1: silhouette coefficient", s, remarks))

    t, c = EXERCISE_2_CLASSES, EXERCISE_2_CLUSTERS
    out.append(("Tutorial, Exercise 2: the confusion matrix", contingency_table(t, c),
                ["The tutorial prints the same table transposed: classes as rows."]))
    out.append(("Tutorial, Exercise 2: precision(i, j), recall(i, j), F(i, j)",
                precision_recall_f(t, c),
                ["precision(1, 3) = 1/4, recall(1, 3) = 1/3 and F(1, 3) = 2/7 are row 1, "
                 "column 3 of these tables."]))
    out.append(("Tutorial, Exercise 2: entropy", cluster_entropy(t, c),
                ["e_2 = 1 is the entropy of cluster 2 (two classes, two instances each)."]))
    out.append(("Tutorial, Exercise 2: purity", purity(t, c),
                ["p_2 = 1/2 is the purity of cluster 2."]))

    t3, c3 = EXERCISE_3_CLASSES, EXERCISE_3_CLUSTERS
    out.append(("Tutorial, Exercise 3: ideal similarity matrices and their correlation",
                hubert_statistic(t3, c3),
                ["The two ideal similarity matrices are equal here, so they correlate "
                 "perfectly (normalized Hubert statistic 1)."]))
    out.append(("Tutorial, Exercise 3: pair counts", pair_confusion(t3, c3), []))
    out.append(("Tutorial, Exercise 3: Rand statistic", rand_index(t3, c3), []))
    out.append(("Tutorial, Exercise 3: Jaccard coefficient", jaccard_index(t3, c3), []))

    tree = agglomerative(EXERCISE_4_D, linkage="single")
    out.append(("Tutorial, Exercise 4: single-linkage agglomerative clustering", tree, []))
    out.append(("Tutorial, Exercise 4: cophenetic distance matrix", cophenetic_matrix(tree), []))
    out.append(("Tutorial, Exercise 4: cophenetic correlation coefficient",
                cophenetic_correlation(EXERCISE_4_D, tree), []))

    truth, pred = labels_from_table(LECTURE_MATCHING_TABLE)
    out.append(("Lecture: purity", purity(truth, pred), []))
    out.append(("Lecture: maximum matching", maximum_matching(truth, pred),
                ["Purity lets C_1 take its majority class T_2 although C_2 also takes T_2; "
                 "maximum matching must give C_1 another class, so it is lower."]))
    return out


def print_worked_examples(file=None) -> None:
    """Print every worked example step by step (``prayatul-edu examples``), to ``file``
    (standard output by default).

    Examples
    --------
    >>> import io
    >>> from prayatul_edu.tutorial import print_worked_examples
    >>> out = io.StringIO()
    >>> print_worked_examples(out)
    >>> out.getvalue().splitlines()[3]
    '###  1. Tutorial, Exercise 1: silhouette coefficient'
    """
    import sys

    file = file or sys.stdout
    examples = worked_examples()
    print("prayatul-edu: the tutorial's and the lecture's worked examples, step by step\n",
          file=file)
    for k, (title, result, remarks) in enumerate(examples, 1):
        bar = "#" * (len(title) + 8)
        print(f"{bar}\n### {k:>2}. {title}\n{bar}", file=file)
        print(result.explain(), file=file)
        for r in remarks:
            print(f"  * {r}", file=file)
        print(file=file)
