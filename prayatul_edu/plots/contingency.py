"""The contingency table as a heatmap, with purity's or maximum matching's cells marked."""
from __future__ import annotations

import numpy as np

from ..steps import fmt
from ._style import MARK_COLOR, new_axes, text_color_on

__all__ = ["plot_contingency_table", "set_contingency_counts"]


def plot_contingency_table(table, ax=None, title: str | None = None, *,
                           highlight: str | None = "purity", matching=None,
                           max_cells: int = 400):
    """Heatmap of ``n_ij`` (rows: clusters C_i, columns: classes T_j). Returns the Axes.

    ``table`` is a :class:`~prayatul_edu.ContingencyTable` (or a 2-D array of
    counts, then rows and columns are numbered from 1). ``highlight="purity"``
    frames each row's largest cell (the majority class purity counts);
    ``highlight="matching"`` frames the cells of ``matching``, a list of
    ``(row, column)`` index pairs (``MaximumMatching.pairs``); ``None`` frames
    nothing. The numbers are written in the cells up to ``max_cells`` cells.

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_contingency_table
    >>> table = pe.contingency_table([1, 1, 2, 2, 3], [1, 1, 1, 2, 2])
    >>> ax = plot_contingency_table(table)
    >>> ax.get_ylabel()
    'cluster C_i (prediction)'
    """
    from matplotlib.patches import Rectangle

    if hasattr(table, "counts"):
        counts = np.asarray(table.counts)
        rows = [str(c) for c in table.clusters]
        cols = [str(c) for c in table.classes]
    else:
        counts = np.asarray(table)
        rows = [str(i + 1) for i in range(counts.shape[0])] if counts.ndim == 2 else []
        cols = [str(j + 1) for j in range(counts.shape[1])] if counts.ndim == 2 else []
    if counts.ndim != 2 or counts.size == 0:
        raise ValueError(f"table: expected a non-empty 2-D table of counts, got shape "
                         f"{counts.shape}")
    if highlight not in (None, "purity", "matching"):
        raise ValueError(f"highlight: expected 'purity', 'matching' or None, got {highlight!r}")
    if highlight == "matching" and matching is None:
        raise ValueError("matching: give the matched (row, column) pairs to highlight them")
    r, k = counts.shape
    ax = new_axes(ax, figsize=(1.0 + 0.7 * k, 0.9 + 0.55 * r))
    # one quadrilateral per cell (drawn in 1 ms; an image is resampled to the screen's
    # pixels, 15-25 ms at lecture size), row 0 at the top as in the table
    ax.pcolormesh(np.arange(k + 1) - 0.5, np.arange(r + 1) - 0.5, counts, cmap="Blues",
                  vmin=0, vmax=_top(counts))
    ax.set_xlim(-0.5, k - 0.5)
    ax.set_ylim(r - 0.5, -0.5)
    if r * k <= max_cells:
        for (i, j), (text, color) in zip(np.ndindex(r, k), _cell_texts(counts)):
            ax.text(j, i, text, ha="center", va="center", fontsize=9, color=color)
    for i, j in _marked_cells(counts, highlight, matching):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=MARK_COLOR,
                               linewidth=2.0, label=highlight))
    ax.set_xticks(range(k), cols if k <= 30 else [""] * k)
    ax.set_yticks(range(r), rows if r <= 30 else [""] * r)
    ax.set_xlabel("class T_j (truth)")
    ax.set_ylabel("cluster C_i (prediction)")
    ax.tick_params(length=0)
    if title:
        ax.set_title(title, fontsize=11)
    return ax


def _top(counts) -> int:
    """The count at the colour scale's darkest blue."""
    return max(int(counts.max()), 1)


def _cell_texts(counts) -> list:
    """``(text, colour)`` of every cell, row by row: black or white, whichever stands out
    more on the cell's blue (at least 4.5:1)."""
    from matplotlib import colormaps

    shade = colormaps["Blues"](np.asarray(counts, dtype=float).ravel() / _top(counts))
    return [(fmt(int(n)), text_color_on(c)) for n, c in zip(counts.ravel(), shade)]


def _marked_cells(counts, highlight, matching) -> list:
    """The ``(row, column)`` cells framed: each row's largest, or the matching's."""
    if highlight == "purity":
        return [(i, int(np.argmax(row))) for i, row in enumerate(counts)]
    if highlight == "matching":
        return [(int(i), int(j)) for i, j in matching]
    return []


def set_contingency_counts(ax, table, *, highlight: str | None = "purity", matching=None):
    """Show other counts of the same shape in an Axes drawn by
    :func:`plot_contingency_table` (with the same ``highlight``), in place: the colours,
    the numbers in the cells and the framed cells. Returns the artists it changed."""
    counts = np.asarray(table.counts if hasattr(table, "counts") else table)
    mesh = ax.collections[0]
    if mesh.get_array().shape != counts.shape:
        raise ValueError(f"table: has shape {counts.shape}; the Axes shows "
                         f"{mesh.get_array().shape}: draw it anew instead")
    mesh.set_array(counts)
    mesh.set_clim(0, _top(counts))
    texts = list(ax.texts)
    for text, (value, color) in zip(texts, _cell_texts(counts) if texts else []):
        text.set_text(value)
        text.set_color(color)
    frames = [p for p in ax.patches if p.get_label() == highlight]
    cells = _marked_cells(counts, highlight, matching)
    if len(frames) != len(cells):
        raise ValueError(f"matching: frames {len(cells)} cells; the Axes {len(frames)}")
    for frame, (i, j) in zip(frames, cells):
        frame.set_xy((j - 0.5, i - 0.5))
    return [mesh, *texts, *frames]
