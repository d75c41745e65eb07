"""The contingency table as a heatmap, with purity's or maximum matching's cells marked."""
from __future__ import annotations

import numpy as np

from ..steps import fmt
from ._style import MARK_COLOR, new_axes

__all__ = ["plot_contingency_table"]


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
    ax.imshow(counts, cmap="Blues", vmin=0, vmax=max(int(counts.max()), 1), aspect="auto")
    if r * k <= max_cells:
        top = counts.max()
        for i in range(r):
            for j in range(k):
                ax.text(j, i, fmt(int(counts[i, j])), ha="center", va="center", fontsize=9,
                        color="white" if counts[i, j] > 0.6 * top else "black")
    if highlight == "purity":
        cells = [(i, int(np.argmax(counts[i]))) for i in range(r)]
    elif highlight == "matching":
        cells = [(int(i), int(j)) for i, j in matching]
    else:
        cells = []
    for i, j in cells:
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
