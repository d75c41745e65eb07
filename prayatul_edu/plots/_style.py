"""One style for every plot of the course."""
from __future__ import annotations

import matplotlib

matplotlib.rcParams.setdefault("figure.dpi", 100)

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

#: The four cells of the Prayatul matrix.
CELL_COLORS = {
    "BR": "#4c9a2a",  # both right: green
    "RW": "#1f77b4",  # primary right, alternative wrong: blue (the primary's wins)
    "WR": "#d62728",  # primary wrong, alternative right: red (the primary's losses)
    "BW": "#7f7f7f",  # both wrong: grey
}

#: The four kinds of pairs of pair counting.
PAIR_COLORS = {
    "TP": "#4c9a2a",
    "FP": "#ff7f0e",
    "FN": "#9467bd",
    "TN": "#d9d9d9",
}

_PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
            "#e377c2", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31"]
NOISE_COLOR = "#000000"


def cluster_colors(labels) -> np.ndarray:
    """One colour per point: a palette colour per cluster, black for DBSCAN noise (-1)."""
    labels = np.asarray(labels)
    values = [v for v in dict.fromkeys(labels.tolist())]
    order = sorted(values, key=lambda v: (isinstance(v, str), v)) if _sortable(values) else values
    lookup = {}
    k = 0
    for v in order:
        if v == -1 and not isinstance(v, str):
            lookup[v] = NOISE_COLOR
        else:
            lookup[v] = _PALETTE[k % len(_PALETTE)]
            k += 1
    return np.array([lookup[v] for v in labels.tolist()])


def _sortable(values) -> bool:
    try:
        sorted(values)
        return True
    except TypeError:
        return False


def new_axes(ax=None, figsize=(4.5, 4.0)):
    """``ax`` itself, or the Axes of a new Figure of the course's default size."""
    if ax is not None:
        return ax
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def style_axes(ax, title: str | None = None, *, equal: bool = False, ticks: bool = True):
    """The course's look: a title, light spines, optional equal aspect and no ticks."""
    if title:
        ax.set_title(title, fontsize=11)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if equal:
        ax.set_aspect("equal", adjustable="datalim")
    if not ticks:
        ax.set_xticks([])
        ax.set_yticks([])
    return ax
