"""prayatul_edu: evaluating clustering algorithms, step by step.

Every measure of the course - the Prayatul matrix and its five measures,
purity, maximum matching, precision/recall/F, entropy, mutual information,
NMI, pair counting (Rand, Jaccard, Fowlkes-Mallows, ARI, Hubert), silhouette,
graph measures, agglomerative clustering and the cophenetic correlation -
computed exactly, each result showing its derivation.

Where each family lives:

=====================  ==================================================
``labels``             labels become codes (lists, arrays, columns, strings)
``counting``           counting codes: group sizes, pairs, the table's cells
``contingency``        the contingency table of two labellings
``prayatul``           the Prayatul matrix and its five measures
``matching``           purity, maximum matching, precision/recall/F,
                       clustering ratio and clustering error
``information``        entropy, cluster entropy, mutual information, NMI,
                       AMI, homogeneity/completeness/V-measure, VI
``pair_counting``      TP/FP/FN/TN, Rand, Jaccard, Fowlkes-Mallows, ARI, Hubert
``silhouette``         the silhouette coefficient
``graph``              W_in, W_out, normalized cut, BetaCV
``internal``           Calinski-Harabasz, Davies-Bouldin, Dunn
``significance``       permutation test of an external score, stability
``relative``           choosing k: the criteria over k, elbow, the gap statistic
``tendency``           clustering tendency: the Hopkins statistic
``hierarchy``          agglomerative clustering, cophenetic matrix, CPCC
``steps``              rendering derivations (Jupyter and terminal)
``_validation``        checking arguments, with errors that name them
=====================  ==================================================

Importing this package needs NumPy only; SciPy, scikit-learn, matplotlib and
ipywidgets are imported by the functions that use them.
"""
from .contingency import contingency_table
from .counting import ContingencyTable, labels_from_table
from .graph import beta_cv, between_cluster_weight, normalized_cut, within_cluster_weight
from .hierarchy import agglomerative, cophenetic_correlation, cophenetic_matrix
from .internal import calinski_harabasz, davies_bouldin, dunn_index
from .information import (adjusted_mutual_information, cluster_entropy, completeness, entropy,
                          homogeneity, mutual_information, normalized_mutual_information,
                          v_measure, variation_of_information)
from .matching import (clustering_error, clustering_ratio, f_measure, maximum_matching,
                       precision_recall_f, purity)
from .pair_counting import (adjusted_rand_index, fowlkes_mallows_index, hubert_statistic,
                            jaccard_index, pair_confusion, rand_index)
from .prayatul import prayatul_by_instance, prayatul_matrix
from .relative import choose_k, gap_statistic
from .significance import permutation_test, stability
from .silhouette import silhouette
from .tendency import hopkins_statistic

__version__ = "0.1.0"

__all__ = [
    "prayatul_matrix", "prayatul_by_instance",
    "contingency_table", "ContingencyTable", "labels_from_table",
    "purity", "maximum_matching", "precision_recall_f", "f_measure",
    "clustering_ratio", "clustering_error",
    "entropy", "cluster_entropy", "mutual_information", "normalized_mutual_information",
    "adjusted_mutual_information", "v_measure", "homogeneity", "completeness",
    "variation_of_information",
    "pair_confusion", "rand_index", "jaccard_index", "fowlkes_mallows_index",
    "adjusted_rand_index", "hubert_statistic",
    "silhouette",
    "within_cluster_weight", "between_cluster_weight", "normalized_cut", "beta_cv",
    "agglomerative", "cophenetic_matrix", "cophenetic_correlation",
    "calinski_harabasz", "davies_bouldin", "dunn_index",
    "permutation_test", "stability", "choose_k", "gap_statistic",
    "hopkins_statistic",
]
