"""Changing the panels of an app's figure in place (faster than drawing them anew).

The plot functions of :mod:`prayatul_edu.plots` draw a panel once; these
helpers update what a new result changes (points, colours, titles) and name
the artists they changed, for :class:`~prayatul_edu.widgets.rendering.FigureLayers`.
"""
from __future__ import annotations

import numpy as np

from ..plots._style import NOISE_COLOR, cluster_colors, cluster_markers

__all__ = ["update_scatter", "scatter_artists", "rescale"]


def rescale(ax, X) -> None:
    """Fit the Axes' limits to the points ``X`` (after they moved)."""
    ax.ignore_existing_data_limits = True
    ax.update_datalim(np.asarray(X)[:, :2])
    ax.autoscale_view()


def update_scatter(ax, X, labels, title: str) -> None:
    """Redraw a :func:`~prayatul_edu.plots.plot_clustering` panel in place (fast).

    The points become one line of markers per colour and shape (same size, colours,
    shapes and noise note as ``plot_clustering``): a marker is rasterised once per
    line instead of once per point, ten times faster to draw at a thousand points.
    """
    from matplotlib.lines import Line2D

    size = None
    for points in [c for c in ax.collections if c.get_gid() is None]:
        size = float(np.sqrt(points.get_sizes()[0]))  # plot_clustering's (first update)
        points.remove()
    for line in [ln for ln in ax.lines if ln.get_gid() == "points"]:
        size = line.get_markersize()
        line.remove()
    X = np.asarray(X)
    colors, markers = cluster_colors(labels), cluster_markers(labels)
    for color, marker in dict.fromkeys(zip(colors.tolist(), markers.tolist())):
        mine = (colors == color) & (markers == marker)
        ax.add_line(Line2D(X[mine, 0], X[mine, 1], linestyle="none", marker=marker,
                           markersize=size, markeredgewidth=0, color=color, gid="points"))
    for text in list(ax.texts):
        text.remove()
    noise = colors == NOISE_COLOR
    if noise.any():                       # as plot_clustering marks DBSCAN's noise
        ax.text(0.01, 0.01, f"noise (-1): {int(noise.sum())} points", transform=ax.transAxes,
                fontsize=8, va="bottom")
    ax.set_title(title, fontsize=11)
    rescale(ax, X)


def scatter_artists(ax) -> list:
    """What :func:`update_scatter` changes: the points, the noise note and the title."""
    return [*(ln for ln in ax.lines if ln.get_gid() == "points"), *ax.texts, ax.title]
