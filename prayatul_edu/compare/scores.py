"""Tables II and III: each algorithm scored against the truth on its own."""
from __future__ import annotations

from .._validation import check_choice
from ..labels import check_labels, check_partitions
from ..information import adjusted_mutual_information, normalized_mutual_information
from ..matching import maximum_matching, raw_accuracy, raw_precision_recall
from ..pair_counting import adjusted_rand_index

__all__ = ["label_scores", "AVERAGES", "NMI_AVERAGE"]

#: The mean of the entropies that Table III's NMI divides by: scikit-learn's default (the
#: library's ``normalized_mutual_information`` defaults to the lecture's geometric mean);
#: every table that prints it says so.
NMI_AVERAGE = "arithmetic"

#: How Table II averages precision and recall over the labels (see
#: :func:`prayatul_edu.matching.raw_precision_recall`).
AVERAGES = ("macro", "weighted", "paper")


def label_scores(truth, labelings: dict, average: str = "macro") -> dict:
    """Tables II and III: label-based and permutation-invariant scores of each algorithm.

    For each algorithm: ``accuracy``, ``precision``, ``recall`` on the raw labels
    (:func:`~prayatul_edu.matching.raw_accuracy`,
    :func:`~prayatul_edu.matching.raw_precision_recall` with ``average`` "macro",
    "weighted" or "paper" - the paper's recipe), ``maximum_matching`` (accuracy
    after the best one-to-one relabelling), ``nmi`` (arithmetic normalisation,
    scikit-learn's default), ``ari`` and ``ami`` (the library's exact
    :func:`~prayatul_edu.adjusted_mutual_information`, arithmetic mean as scikit-learn),
    ``n_clusters``.

    Examples
    --------
    >>> from prayatul_edu.compare import label_scores
    >>> s = label_scores([0, 0, 1, 1], {"swapped": [1, 1, 0, 0]})["swapped"]
    >>> s["accuracy"], s["maximum_matching"], s["ari"]
    (0.0, 1.0, 1.0)
    """
    check_choice(average, "average", AVERAGES)
    g = check_labels(truth, "truth")
    out = {}
    for name, pred in labelings.items():
        p = check_partitions(truth=g, pred=pred)[1]
        precision, recall = raw_precision_recall(g, p, average)
        out[name] = {
            "n_clusters": p.k,
            "accuracy": float(raw_accuracy(g, p)),
            "precision": precision, "recall": recall,
            "maximum_matching": float(maximum_matching(g, p)),
            "nmi": float(normalized_mutual_information(g, p, average=NMI_AVERAGE)),
            "ari": float(adjusted_rand_index(g, p)),
            "ami": float(adjusted_mutual_information(g, p)),
        }
    return out
