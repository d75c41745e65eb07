"""Judging a clustering: a score against its chance distribution; the criteria over k."""
from __future__ import annotations

import math

import numpy as np

from ..steps import fmt
from ._style import NEGATIVE_COLOR, POSITIVE_COLOR, new_axes, style_axes

__all__ = ["plot_null_distribution", "plot_choose_k"]

_TITLES = {"silhouette": "silhouette", "calinski_harabasz": "Calinski-Harabasz",
           "davies_bouldin": "Davies-Bouldin (lowest)", "dunn": "Dunn",
           "stability": "stability", "elbow": r"elbow (bend of $\log_2 W_k$)",
           "gap": "gap statistic"}
#: The y-axis of each criterion's panel: what is plotted, and which way is better (symbols in
#: mathtext, as the lectures write them).
_YLABELS = {"silhouette": "mean silhouette (higher better)",
            "calinski_harabasz": "CH (higher better)",
            "davies_bouldin": "DB (lower better)", "dunn": "Dunn (higher better)",
            "stability": "mean ARI of pairs (higher better)",
            "elbow": r"bend: second difference of $\log_2 W_k$",
            "gap": r"$\mathrm{Gap}(k)$, bars: $s_k$"}
#: Measures' function names in words, for axis labels (a projector shows words, not code).
_WORDS = {"adjusted_rand_index": "adjusted Rand index (ARI)", "rand_index": "Rand index",
          "adjusted_mutual_information": "adjusted mutual information (AMI)",
          "normalized_mutual_information": "normalized mutual information (NMI)",
          "jaccard_index": "Jaccard index", "fowlkes_mallows_index": "Fowlkes-Mallows index",
          "f_measure": "F-measure", "maximum_matching": "maximum matching"}
#: Text sizes of the figures (points): readable on a projector.
LABEL_SIZE, LEGEND_SIZE = 11, 10


def measure_words(name: str) -> str:
    """A measure's function name as words (``adjusted_rand_index`` -> ``adjusted Rand index
    (ARI)``); a name not listed loses its underscores."""
    return _WORDS.get(name, name.replace("_", " "))


def plot_null_distribution(result, ax=None, title: str | None = None, *, bins: int = 30):
    """Histogram of the chance scores of a permutation test, the observed score marked.

    ``result`` is a :class:`~prayatul_edu.significance.PermutationTest` (from
    :func:`prayatul_edu.permutation_test`). The chance scores at least as high as
    the observed one (those the p-value counts) are drawn in the second colour;
    the observed score is a vertical line, labelled with p. Returns the Axes.

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_null_distribution
    >>> test = pe.permutation_test([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1], measure=pe.adjusted_rand_index, n_permutations=99, random_state=0)
    >>> ax = plot_null_distribution(test)
    >>> len(ax.patches) > 0
    True
    """
    if not hasattr(result, "null") or not hasattr(result, "p_value"):
        raise TypeError("result: expected the result of prayatul_edu.permutation_test, got "
                        f"{type(result).__name__}")
    null = np.asarray(result.null, dtype=float)
    observed = float(result.observed)
    ax = new_axes(ax, figsize=(5.0, 3.2))
    low, high = min(null.min(), observed), max(null.max(), observed)
    if high == low:
        high = low + 1e-9
    edges = np.linspace(low, high, bins + 1)
    below = null[null < observed - 1e-12 * max(1.0, abs(observed))]
    above = null[null >= observed - 1e-12 * max(1.0, abs(observed))]
    ax.hist([below, above], bins=edges, stacked=True, color=[POSITIVE_COLOR, NEGATIVE_COLOR],
            label=[f"chance scores ({below.size})", f"at least as high ({above.size})"])
    ax.axvline(observed, color="black", linestyle="--", linewidth=1.5,
               label=f"observed {fmt(observed)}")
    ax.set_xlabel(measure_words(result.measure_name), fontsize=LABEL_SIZE)
    ax.set_ylabel(f"shuffles (of {result.n_permutations})", fontsize=LABEL_SIZE)
    # where the bars and the observed line leave room, on a white box the line cannot cross
    ax.legend(fontsize=LEGEND_SIZE, loc="best", frameon=True, framealpha=0.95,
              edgecolor="none")
    return style_axes(ax, title if title is not None else
                      f"{measure_words(result.measure_name)} = {fmt(observed)}: "
                      f"p = {fmt(result.p_value)}")


def plot_choose_k(result, fig=None):
    """One panel per criterion of :func:`prayatul_edu.choose_k`: its value for every k,
    the preferred k marked (for the gap, with error bars s_k). Returns the Figure.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sklearn.cluster import KMeans
    >>> from prayatul_edu import choose_k
    >>> from prayatul_edu.plots import plot_choose_k
    >>> X = np.r_[np.zeros((10, 2)), np.full((10, 2), 10.0)]
    >>> X += np.random.default_rng(0).normal(0, 0.5, X.shape)
    >>> ck = choose_k(X, KMeans(n_init=2, random_state=0), ks=range(2, 5),
    ...               criteria=["silhouette", "elbow"], seed=0)
    >>> fig = plot_choose_k(ck)
    >>> [ax.get_title() for ax in fig.axes]     # each panel names the k it prefers
    ['silhouette: k = 2', 'elbow (bend of $\\\\log_2 W_k$): k = 3']
    >>> plt.close(fig)
    """
    if not hasattr(result, "table") or not hasattr(result, "preferred"):
        raise TypeError("result: expected the result of prayatul_edu.choose_k, got "
                        f"{type(result).__name__}")
    names = list(result.table)
    cols = min(3, len(names))
    rows = math.ceil(len(names) / cols)
    if fig is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(3.3 * cols, 2.6 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    ks = np.asarray(result.ks)
    for ax, name in zip(axes, names):
        values = np.asarray(result.table[name], dtype=float)
        if name == "gap" and result.gap is not None:
            ax.errorbar(ks, values, yerr=result.gap.se, color=POSITIVE_COLOR, marker="o",
                        markersize=4, capsize=3)
        else:
            ax.plot(ks, values, color=POSITIVE_COLOR, marker="o", markersize=4)
        best = result.preferred[name]
        if best is not None:
            i = list(ks).index(best)
            ax.plot([best], [values[i]], marker="o", markersize=11, markerfacecolor="none",
                    markeredgecolor=NEGATIVE_COLOR, markeredgewidth=2)
            ax.axvline(best, color=NEGATIVE_COLOR, linewidth=0.8, linestyle=":")
        ax.set_xticks(ks)
        ax.set_xlabel("$k$", fontsize=LABEL_SIZE)
        ax.set_ylabel(_YLABELS.get(name, name), fontsize=LABEL_SIZE - 1)
        style_axes(ax, f"{_TITLES[name]}: k = {best}")
    for ax in axes[len(names):]:
        ax.set_visible(False)
    return fig
