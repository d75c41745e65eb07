"""One style for every plot of the course."""
from __future__ import annotations

import matplotlib

matplotlib.rcParams.setdefault("figure.dpi", 100)

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Colours: Okabe & Ito's colour-blind-safe set ("Color Universal Design", 2008) and a few
# of tableau-colorblind10's, chosen so that every two colours of a palette stay at least
# 20 CIELAB units apart for normal vision and under deuteranopia and protanopia
# (Machado et al. 2009; tests/test_plots_palettes.py checks it). Figures keep their text
# labels, so no colour is the only way to tell two things apart.
OKABE_ITO = {"blue": "#0072b2", "orange": "#e69f00", "bluish green": "#009e73",
             "sky blue": "#56b4e9", "vermillion": "#d55e00", "reddish purple": "#cc79a7",
             "yellow": "#f0e442", "black": "#000000"}

#: The four cells of the Prayatul matrix.
CELL_COLORS = {
    "BR": OKABE_ITO["bluish green"],  # both right
    "RW": OKABE_ITO["sky blue"],      # primary right, alternative wrong (the primary's wins)
    "WR": OKABE_ITO["vermillion"],    # primary wrong, alternative right (the primary's losses)
    "BW": "#595959",                  # both wrong: dark grey
}

#: The four kinds of pairs of pair counting.
PAIR_COLORS = {
    "TP": OKABE_ITO["bluish green"],
    "FP": OKABE_ITO["orange"],
    "FN": OKABE_ITO["blue"],
    "TN": "#dddddd",
}

#: Good / bad, above / below zero, a marked line or cell over a figure.
POSITIVE_COLOR = OKABE_ITO["blue"]
NEGATIVE_COLOR = OKABE_ITO["vermillion"]
MARK_COLOR = OKABE_ITO["vermillion"]

#: One colour per cluster (repeated after the ninth): nine is as many as stay 20 CIELAB
#: units apart from each other, from black (noise) and from the white background under
#: both simulations.
CLUSTER_PALETTE = ["#0072b2", "#e69f00", "#009e73", "#56b4e9", "#595959", "#c85200",
                   "#ffbc79", "#332288", "#661100"]
NOISE_COLOR = OKABE_ITO["black"]


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
            lookup[v] = CLUSTER_PALETTE[k % len(CLUSTER_PALETTE)]
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


#: Every categorical palette of the figures (the colour-blindness test checks them all).
CATEGORICAL_PALETTES = {
    "clusters and noise": [*CLUSTER_PALETTE, NOISE_COLOR],
    "Prayatul cells": list(CELL_COLORS.values()),
    "pair types": list(PAIR_COLORS.values()),
    "positive and negative": [POSITIVE_COLOR, NEGATIVE_COLOR],
}
