"""The ideal class and cluster similarity matrices, every pair coloured TP/FP/FN/TN."""
from __future__ import annotations

import numpy as np

from ..labels import check_partitions
from ..pair_counting import pair_confusion
from ..steps import fmt_count
from ._matrix import show_rows, shown_rows, thinned
from ._style import PAIR_COLORS

__all__ = ["pair_types", "similarity_image", "panel_image", "plot_similarity_matrices",
           "set_similarity_matrices", "cell_colors"]

#: Up to this many instances the cells are a mesh (one quadrilateral each: drawn in
#: 1 ms where an image is resampled to the screen's pixels in 10-15 ms); above, an image.
MESH_MAX = 40

#: Pair type codes of :func:`pair_types`.
PAIR_TYPES = ("TP", "FP", "FN", "TN")


def pair_types(truth, pred) -> np.ndarray:
    """N x N codes: 0 TP, 1 FP, 2 FN, 3 TN for every pair (a, b); -1 on the diagonal.

    >>> pair_types([0, 0, 1], [0, 1, 1]).tolist()
    [[-1, 2, 3], [2, -1, 1], [3, 1, -1]]

    Examples
    --------
    >>> from prayatul_edu.plots import pair_types
    >>> pair_types([0, 0, 1], [0, 1, 1])
    array([[-1,  2,  3],
           [ 2, -1,  1],
           [ 3,  1, -1]], dtype=int8)
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


#: How much of its pair type's colour a 0-cell of T or C keeps (the 1-cells keep all of
#: it): the two panels then differ at any N, also where the 0/1 digits are not written.
FADED = 0.3
#: The pair types whose cells are 1 in each matrix: T for TP and FN, C for TP and FP.
ONES = {"T": ("TP", "FN"), "C": ("TP", "FP")}


def panel_image(image, matrix: str) -> np.ndarray:
    """The cells of matrix ``matrix`` ("T" or "C") from ``similarity_image``'s
    ``image``: the 1-cells in their pair type's colour, the 0-cells faded towards white
    (:data:`FADED`), the diagonal white.

    >>> image = similarity_image([0, 0, 1], [0, 1, 1])[0]
    >>> [panel_image(image, m)[0, 1, :3].tolist() for m in ("T", "C")]   # an FN pair
    [[0, 114, 178], [178, 213, 232]]
    """
    from matplotlib.colors import to_rgba

    if matrix not in ONES:
        raise ValueError(f"matrix: expected 'T' or 'C', got {matrix!r}")
    zero = [np.round(255 * np.array(to_rgba(PAIR_COLORS[k]))).astype(np.uint8)
            for k in PAIR_TYPES if k not in ONES[matrix]]
    out = image.copy()
    for color in zero:
        cells = (image == color).all(axis=-1)
        out[cells, :3] = np.round(255 - FADED * (255 - color[:3].astype(float)))
    return out


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
    Big N: every s-th instance is drawn (``similarity_image``).

    Examples
    --------
    >>> from prayatul_edu.plots import plot_similarity_matrices
    >>> fig = plot_similarity_matrices([0, 0, 1, 1], [0, 0, 0, 1])
    >>> len(fig.axes) >= 2
    True
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
        ones = _ones(truth, pred, shown)
    for ax, name, which in ((axes[0], "ideal class similarity T", "T"),
                            (axes[1], "ideal cluster similarity C", "C")):
        _show_cells(ax, panel_image(image, which), n)
        ax.set_title(name, fontsize=11)
        if show:
            at = thinned(n)                            # where each shown row is drawn
            for (a, b), one in zip(np.ndindex(len(at), len(at)), ones[which].ravel()):
                ax.text(at[b], at[a], str(int(one)), ha="center", va="center", fontsize=8)
            names = [f"x{i + 1}" for i in shown]
            ax.set_xticks(at, names, fontsize=8)
            ax.set_yticks(at, names, fontsize=8)
        else:
            ax.set_xticks([])
            ax.set_yticks([])
    handles = [Patch(color=PAIR_COLORS[k], label=label)
               for k, label in zip(PAIR_TYPES, _legend_labels(counts))]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, fontsize=9,
               frameon=False, title="pairs (a cell is pale where its matrix has 0)",
               title_fontsize=9)
    return fig


def _ones(truth, pred, shown) -> dict:
    """The 0/1 cells of T and C between the instances ``shown`` (written in the cells)."""
    types = pair_types(np.asarray(truth)[shown], np.asarray(pred)[shown])
    # the diagonal is 1 in both; T is 1 for TP and FN pairs, C for TP and FP pairs
    return {"T": np.isin(types, (-1, 0, 2)), "C": np.isin(types, (-1, 0, 1))}


def _legend_labels(counts) -> list:
    return [f"{k}: {fmt_count(count)}" for k, count in zip(PAIR_TYPES, counts)]


def set_similarity_matrices(fig, truth, pred, *, order: str | None = None) -> list:
    """Show other labels of as many instances in a Figure drawn by
    :func:`plot_similarity_matrices`, in place: both images, the 0/1 in the cells (if
    written) and the legend's counts. Returns the artists it changed.

    The instances drawn must be the same (their names label the rows): with
    ``order="class"`` new labels may reorder them, then draw the figure anew.
    """
    image, counts, shown = similarity_image(truth, pred, order=order)
    axes = fig.axes[:2]
    drawn = cell_colors(axes[0]).shape[:2]
    names = [t.get_text() for t in axes[0].get_yticklabels()]
    if drawn != image.shape[:2] or (names and names != [f"x{i + 1}" for i in shown]):
        raise ValueError("truth: the figure shows other instances (or in another order): "
                         "draw it anew instead")
    changed = []
    ones = _ones(truth, pred, shown) if axes[0].texts else None
    for ax, which in zip(axes, ("T", "C")):
        changed.append(_set_cells(ax, panel_image(image, which)))
        for text, one in zip(ax.texts, ones[which].ravel() if ones else []):
            text.set_text(str(int(one)))
        changed += [*ax.spines.values(), *ax.texts]   # drawn over the image, as Axes.draw
    legend = fig.legends[0]
    for text, label in zip(legend.get_texts(), _legend_labels(counts)):
        text.set_text(label)
    return [*changed, legend]


def _show_cells(ax, image, n: int):
    """The coloured cells (RGBA 0-255, one per pair shown), centred at 0 .. N-1."""
    m = image.shape[0]
    if m != n or n > MESH_MAX:
        return show_rows(ax, image, n, interpolation="nearest")
    edges = np.arange(n + 1) - 0.5
    mesh = ax.pcolormesh(edges, edges, np.zeros((n, n)))
    mesh.set_array(None)                               # coloured by facecolor, not a map
    mesh.set_facecolor(image.reshape(-1, 4) / 255)
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)                         # row 0 at the top, as an image
    ax.set_aspect("equal")
    return mesh


def _set_cells(ax, image):
    """Recolour the cells drawn by :func:`_show_cells` (as many); returns the artist."""
    if ax.images:
        ax.images[0].set_data(image)
        return ax.images[0]
    mesh = ax.collections[0]
    mesh.set_facecolor(image.reshape(-1, 4) / 255)
    return mesh


def cell_colors(ax) -> np.ndarray:
    """The RGBA colours (0-255) of the cells an Axes of :func:`plot_similarity_matrices`
    shows, one row per instance drawn."""
    if ax.images:
        return np.asarray(ax.images[0].get_array())
    colors = np.asarray(ax.collections[0].get_facecolor())
    n = int(round(np.sqrt(colors.shape[0])))
    return np.round(255 * colors).astype(np.uint8).reshape(n, n, 4)
