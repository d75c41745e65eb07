"""The ideal class and cluster similarity matrices, every pair coloured TP/FP/FN/TN."""
from __future__ import annotations

import numpy as np

from .._validation import check_partitions
from ..pair_counting import pair_confusion
from ..steps import fmt
from ._matrix import show_rows, shown_rows, thinned
from ._style import PAIR_COLORS

__all__ = ["pair_types", "similarity_image", "plot_similarity_matrices"]

#: Pair type codes of :func:`pair_types`.
PAIR_TYPES = ("TP", "FP", "FN", "TN")


def pair_types(truth, pred) -> np.ndarray:
    """N x N codes: 0 TP, 1 FP, 2 FN, 3 TN for every pair (a, b); -1 on the diagonal.

    >>> pair_types([0, 0, 1], [0, 1, 1]).tolist()
    [[-1, 2, 3], [2, -1, 1], [3, 1, -1]]
    """
    t, c = check_partitions(truth=truth, pred=pred)
    return _types(t.codes, c.codes)


def _types(t_codes: np.ndarray, c_codes: np.ndarray) -> np.ndarray:
    t, c = t_codes, c_codes
    same_class = t[:, None] == t[None, :]
    same_cluster = c[:, None] == c[None, :]
    # TP: same class, same cluster; FP: different class, same cluster; FN: the reverse
    types = np.where(same_cluster, np.where(same_class, 0, 1), np.where(same_class, 2, 3))
    np.fill_diagonal(types, -1)
    return types.astype(np.int8)


def similarity_image(truth, pred, *, order: str | None = None):
    """What :func:`plot_similarity_matrices` draws: ``(image, counts, shown)``.

    ``shown``: the instances drawn, top to bottom (all of them up to
    :data:`~prayatul_edu.plots._matrix.MAX_SHOWN`, else every s-th; sorted by
    class then cluster for ``order="class"``); ``image``: their rows and columns,
    each cell the RGBA colour (0-255) of its pair's kind, white on the diagonal (made
    without the N x N matrix); ``counts``: TP, FP, FN, TN over all pairs a < b,
    from :func:`prayatul_edu.pair_confusion`.
    """
    from matplotlib.colors import to_rgba

    if order not in (None, "class"):
        raise ValueError(f"order: expected None or 'class', got {order!r}")
    t, c = check_partitions(truth=truth, pred=pred)
    perm = np.lexsort((c.codes, t.codes)) if order == "class" else None
    shown = shown_rows(t.codes.shape[0], perm)
    palette = np.array([to_rgba(PAIR_COLORS[k]) for k in PAIR_TYPES] + [(1.0, 1.0, 1.0, 1.0)])
    palette = np.round(255 * palette).astype(np.uint8)       # RGBA: drawn 2x faster than RGB
    image = palette[_types(t.codes[shown], c.codes[shown])]   # code -1 (diagonal): white
    pc = pair_confusion(truth, pred)
    return image, [pc.tp, pc.fp, pc.fn, pc.tn], shown


def plot_similarity_matrices(truth, pred, axes=None, *, order: str | None = None,
                             annotate: bool | None = None):
    """The ideal class matrix T and cluster matrix C side by side. Returns the Figure.

    ``T[a, b] = 1`` when instances a and b share a class, ``C[a, b] = 1`` when
    they share a cluster. Every off-diagonal cell is coloured by the kind of
    its pair (:data:`~prayatul_edu.plots.PAIR_COLORS`): TP (1 in both), FP
    (1 in C only), FN (1 in T only), TN (0 in both); the legend counts each
    kind over the pairs a < b. ``order="class"`` sorts the instances by class
    then cluster, so the blocks show; the 0/1 values are written in the cells
    when ``annotate`` (default: N <= 15). ``axes``: two Axes to draw into.
    Big N: every s-th instance is drawn (:func:`similarity_image`).
    """
    from matplotlib.patches import Patch

    image, counts, shown = similarity_image(truth, pred, order=order)
    n = np.asarray(truth).shape[0]
    if axes is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(8.0, 4.2), layout="constrained")
        axes = fig.subplots(1, 2)
    fig = axes[0].figure
    show = annotate if annotate is not None else n <= 15
    if show:
        types = pair_types(np.asarray(truth)[shown], np.asarray(pred)[shown])
        # the diagonal is 1 in both; T is 1 for TP and FN pairs, C for TP and FP pairs
        ones = {"T": np.isin(types, (-1, 0, 2)), "C": np.isin(types, (-1, 0, 1))}
    for ax, name, which in ((axes[0], "ideal class similarity T", "T"),
                            (axes[1], "ideal cluster similarity C", "C")):
        show_rows(ax, image, n, interpolation="nearest")
        ax.set_title(name, fontsize=11)
        if show:
            at = thinned(n)                            # where each shown row is drawn
            for a, y in enumerate(at):
                for b, x in enumerate(at):
                    ax.text(x, y, str(int(ones[which][a, b])), ha="center", va="center",
                            fontsize=8)
            names = [f"x{i + 1}" for i in shown]
            ax.set_xticks(at, names, fontsize=8)
            ax.set_yticks(at, names, fontsize=8)
        else:
            ax.set_xticks([])
            ax.set_yticks([])
    handles = [Patch(color=PAIR_COLORS[k], label=f"{k}: {fmt(int(counts[i]))}")
               for i, k in enumerate(PAIR_TYPES)]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, fontsize=9,
               frameon=False)
    return fig
