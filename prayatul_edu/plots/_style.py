"""One style for every plot of the course."""
from __future__ import annotations

import numpy as np

# matplotlib is imported by the functions that draw (as in every plotting module): a
# command that draws nothing (compare --no-figures) does not pay for importing it

# Colours: Okabe & Ito's colour-blind-safe set ("Color Universal Design", 2008) and a few
# of Paul Tol's, chosen so that every two colours of the cluster palette stay at least 20
# units apart in CIEDE2000 for normal vision and under deuteranopia and protanopia
# (Machado et al. 2009; tests/test_plots_palettes.py checks it). Where a palette's
# colours come closer (the Prayatul cells, the pair types), every element also carries
# its name as text, so no colour is the only way to tell two things apart.
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

#: One colour per cluster: six is as many as stay 20 units apart in CIEDE2000 from each
#: other, from black (noise) and from the white background, for normal vision and under
#: deuteranopia and protanopia (Machado et al. 2009; the nine-colour palette this
#: replaced had pairs 11-19 units apart, e.g. orange and light orange). Beyond six the
#: colours repeat with the next marker shape of :data:`CLUSTER_MARKERS`, and the
#: silhouette's bars carry their cluster's name: no two clusters are told apart by
#: colour alone.
CLUSTER_PALETTE = ["#0072b2", "#882255", "#009e73", "#f0e442", "#56b4e9", "#8c510a"]
NOISE_COLOR = OKABE_ITO["black"]
#: One marker shape per round through the palette: clusters 1-6 are circles, 7-12
#: squares, ... (noise keeps the circle: its black is in no round).
CLUSTER_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def _cluster_numbers(labels) -> tuple[list, dict]:
    """The labels' values, and each value's number k = 0, 1, ... in sorted order (None
    for DBSCAN's noise -1): the one order colours and markers follow."""
    labels = np.asarray(labels).tolist()
    values = list(dict.fromkeys(labels))
    order = sorted(values, key=lambda v: (isinstance(v, str), v)) if _sortable(values) else values
    number, k = {}, 0
    for v in order:
        if v == -1 and not isinstance(v, str):
            number[v] = None
        else:
            number[v], k = k, k + 1
    return labels, number


def cluster_colors(labels) -> np.ndarray:
    """One colour per point: a palette colour per cluster, black for DBSCAN noise (-1).

    Examples
    --------
    >>> from prayatul_edu.plots import cluster_colors
    >>> cluster_colors([0, 1, 1, -1]).tolist()           # noise in black
    ['#0072b2', '#882255', '#882255', '#000000']
    """
    labels, number = _cluster_numbers(labels)
    lookup = {v: NOISE_COLOR if k is None else CLUSTER_PALETTE[k % len(CLUSTER_PALETTE)]
              for v, k in number.items()}
    return np.array([lookup[v] for v in labels])


def cluster_markers(labels) -> np.ndarray:
    """One marker per point: the palette's round of its cluster (``"o"`` for the first
    six clusters and noise, then ``"s"``, ...), so that no two clusters share both
    colour and marker.

    Examples
    --------
    >>> from prayatul_edu.plots import cluster_markers
    >>> "".join(cluster_markers([0, 1, 0]))             # the first round: circles
    'ooo'
    """
    labels, number = _cluster_numbers(labels)
    lookup = {v: CLUSTER_MARKERS[0 if k is None else
                                 k // len(CLUSTER_PALETTE) % len(CLUSTER_MARKERS)]
              for v, k in number.items()}
    return np.array([lookup[v] for v in labels])


def _sortable(values) -> bool:
    try:
        sorted(values)
        return True
    except TypeError:
        return False


def relative_luminance(color) -> float:
    """WCAG 2 relative luminance of a colour (0 for black, 1 for white)."""
    from matplotlib.colors import to_rgb

    c = np.asarray(to_rgb(color), dtype=float)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours: 1 (the same) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_color_on(background) -> str:
    """``"black"`` or ``"white"``, whichever has the higher contrast on ``background``
    (at least 4.58:1 on any colour, since black and white together span 21:1).

    >>> text_color_on("#ffffff"), text_color_on("#000000"), text_color_on("#56b4e9")
    ('black', 'white', 'black')
    """
    return ("black" if contrast_ratio("black", background) >= contrast_ratio("white", background)
            else "white")


def new_axes(ax=None, figsize=(4.5, 4.0)):
    """``ax`` itself, or the Axes of a new Figure of the course's default size.

    Examples
    --------
    >>> from prayatul_edu.plots import new_axes
    >>> ax = new_axes()
    >>> tuple(ax.figure.get_size_inches().tolist())
    (4.5, 4.0)
    """
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def style_axes(ax, title: str | None = None, *, equal: bool = False, ticks: bool = True):
    """The course's look: a title, light spines, optional equal aspect and no ticks.

    Examples
    --------
    >>> from prayatul_edu.plots import new_axes, style_axes
    >>> ax = style_axes(new_axes(), "my data", equal=True)
    >>> ax.get_title()
    'my data'
    """
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


#: The middle of the instance map's balance scale (a point as often in RW as in WR pairs):
#: a mid grey, visible on white, not a pale tint that vanishes on the background.
NEUTRAL_COLOR = "#a0a0a0"
#: Edge of every instance-map point, so that even a neutral one has an outline.
POINT_EDGE_COLOR = "#404040"


def balance_colormap():
    """Vermillion (-1: mostly WR) through grey (0) to blue (+1: mostly RW)."""
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list(
        "prayatul balance", [NEGATIVE_COLOR, NEUTRAL_COLOR, POSITIVE_COLOR])


#: Every categorical palette of the figures (the colour-blindness test checks them all).
CATEGORICAL_PALETTES = {
    "clusters and noise": [*CLUSTER_PALETTE, NOISE_COLOR],
    "Prayatul cells": list(CELL_COLORS.values()),
    "pair types": list(PAIR_COLORS.values()),
    "positive and negative": [POSITIVE_COLOR, NEGATIVE_COLOR],
}
