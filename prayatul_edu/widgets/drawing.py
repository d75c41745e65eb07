"""Changing the panels of an app's figure in place (faster than drawing them anew).

The plot functions of :mod:`prayatul_edu.plots` draw a panel once; these
helpers update what a new result changes (points, colours, titles) and name
the artists they changed, for :class:`~prayatul_edu.widgets.rendering.FigureLayers`,
and keep in place what should not move from one update to the next (an axis label).
"""
from __future__ import annotations

import numpy as np

from ..plots._style import NOISE_COLOR, cluster_colors, cluster_markers

__all__ = ["update_scatter", "scatter_artists", "rescale", "pin_axis_label"]


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


#: Pixel widths of the texts :func:`pin_axis_label` leaves room for, per font and dpi.
_WIDTHS: dict = {}


def pin_axis_label(axis, room_for: str | None = None) -> bool:
    """Fix the label of the y ``axis`` at a distance from its Axes, so that redraws neither
    move it nor measure the tick labels to place it (matplotlib measures every one of
    them at every draw: about 5 ms an axis at lecture density).

    ``room_for`` says where: beside tick labels as wide as the wider of this text and
    the axis' own tick labels, digits counted as "0" (the label stays put while the
    numbers change, and no draw is needed first); ``None``: where the figure's last draw
    put it (a label beside tick labels that keep their width).
    The distance (inches from the Axes' edge, and the transform made of it) is kept in
    ``axis.label_placed``. Returns whether the label moved: pixels kept from an earlier
    draw then show it where it was.
    """
    from matplotlib.transforms import ScaledTranslation

    ax, fig = axis.axes, axis.axes.figure
    right = axis.get_label_position() == "right"
    placed = getattr(axis, "label_placed", None)
    # an Axes cleared since it was pinned has its label's own transform back
    pinned = placed is not None and axis.label.get_transform() is placed[1]
    if room_for is None:
        if pinned:
            return False
        label = axis.label
        x = label.get_transform().transform(label.get_position())[0]    # pixels
        inches = (x - ax.bbox.x1 if right else ax.bbox.x0 - x) / fig.dpi
    else:
        inches = _room_for_ticks(axis, room_for)
        if pinned and placed[0] == inches:
            return False
    transform = ax.transAxes + ScaledTranslation(inches if right else -inches, 0.0,
                                                 fig.dpi_scale_trans)
    axis.set_label_coords(1.0 if right else 0.0, 0.5, transform=transform)
    axis.label_placed = (inches, axis.label.get_transform())
    return True


def _room_for_ticks(axis, room_for: str) -> float:
    """Inches from the Axes' edge to an axis label placed as matplotlib would beside tick
    labels as wide as the wider of ``room_for`` and the axis' own (digits as "0")."""
    fig = axis.axes.figure
    tick = axis.get_major_ticks()[0]
    label = tick.label2 if axis.get_label_position() == "right" else tick.label1
    shown = [axis.major.formatter(v, i) for i, v in enumerate(axis.get_majorticklocs())]
    widest = "".join("0" if c.isdigit() else c for c in max([room_for, *shown], key=len))
    prop = label.get_fontproperties()
    key = (widest, hash(prop), fig.dpi)
    if key not in _WIDTHS:
        _WIDTHS[key] = fig.canvas.get_renderer().get_text_width_height_descent(
            widest, prop, ismath=False)[0]
    # from the axis line to its tick labels, as the tick draws them (points)
    gap = tick.get_tick_padding() + tick.get_pad()
    return (gap + axis.labelpad) / 72 + _WIDTHS[key] / fig.dpi
