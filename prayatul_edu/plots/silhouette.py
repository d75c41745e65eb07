"""The silhouette plot: every point's s_i as a bar, sorted within its cluster."""
from __future__ import annotations

import weakref

import numpy as np

from ..steps import fmt
from ._style import cluster_colors, new_axes, style_axes

__all__ = ["plot_silhouette", "update_silhouette", "set_silhouette_point"]

_BARS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _Bars:
    """Where the silhouette plot puts every point's bar (computed once per result)."""

    def __init__(self, result):
        s = np.asarray(result.samples, dtype=float)
        labels = np.asarray(result.labels)
        n = s.shape[0]
        y0, gap = 0, max(2, n // 50)
        self.s, self.where = s, np.empty(n)
        self.blocks = []                     # (cluster, points bottom to top, their y)
        for c in result.clusters:
            members = np.flatnonzero(labels == c)
            order = members[np.argsort(s[members], kind="stable")]
            ys = y0 + np.arange(order.shape[0])
            self.where[order] = ys
            self.blocks.append((c, order, ys))
            y0 += order.shape[0] + gap
        self.polygons = [np.column_stack([np.r_[0.0, s[order], 0.0], np.r_[ys[0], ys, ys[-1]]])
                         for _, order, ys in self.blocks]


def _bars(result) -> _Bars:
    try:
        bars = _BARS.get(result)
        if bars is None:
            bars = _BARS[result] = _Bars(result)
    except AttributeError:
        raise TypeError("result: expected the result of prayatul_edu.silhouette, got "
                        f"{type(result).__name__}") from None
    return bars


#: Where the key stands, in axes coordinates: two rows below the axis and its label.
KEY_Y, KEY_STEP = -0.24, 0.09
#: The key's text size in points: legible on a projector, as the other figures' labels.
KEY_SIZE = 11


def plot_silhouette(result, ax=None, title: str | None = None, *, point: int | None = None):
    """Bars of s_i, one block per cluster, sorted; a dashed line at the mean s.

    ``result`` is a :class:`~prayatul_edu.silhouette.Silhouette` (from
    :func:`prayatul_edu.silhouette`). Bars take the cluster colours of
    :func:`~prayatul_edu.plots.cluster_colors`, so they match a scatter plot of
    the same labels. ``point`` marks one instance's bar (a Python index into the data; the
    key below the axes names the point as the lecture does, index 0 as x1;
    ``set_silhouette_point`` moves the mark). Returns the Axes.

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_silhouette
    >>> from prayatul_edu.tutorial import EXERCISE_1_D, EXERCISE_1_LABELS
    >>> s = pe.silhouette(EXERCISE_1_D, EXERCISE_1_LABELS, metric="precomputed")
    >>> ax = plot_silhouette(s)
    >>> ax.get_xlabel()
    'silhouette $s_i$'
    """
    if not hasattr(result, "samples"):
        raise TypeError("result: expected the result of prayatul_edu.silhouette, got "
                        f"{type(result).__name__}")
    bars = _bars(result)
    _check_point(point, bars.s.shape[0])
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    ax = new_axes(ax, figsize=(4.0, 4.0))
    # one collection, one filled polygon per cluster: from 0 out to every s_i and back
    # (the area fill_betweenx(ys, 0, s_i) fills, without its per-cluster bookkeeping:
    # a tenth of the time, which an app pays on every new clustering)
    ax.add_collection(PolyCollection([], edgecolors="none", gid="silhouette bars"))
    ax.axvline(0, color="black", linestyle="--", linewidth=1, gid="silhouette mean")
    ax.axvline(0, color="#999999", linewidth=0.8)
    # the key, below the axes (not on the bars, where the mean line would run through it):
    # each line or marker with its text to its right (plain texts at fixed places, not a
    # legend: an update changes two texts, and drawing a legend lays it out anew every time)
    for name, y in (("mean", KEY_Y), ("point", KEY_Y - KEY_STEP)):
        ax.text(0.12, y, "", transform=ax.transAxes, ha="left", va="center",
                fontsize=KEY_SIZE, gid=f"silhouette {name} label", clip_on=False)
    ax.add_line(Line2D([0.0, 0.09], [KEY_Y, KEY_Y], transform=ax.transAxes, color="black",
                       linestyle="--", linewidth=1, gid="silhouette mean key", clip_on=False))
    ax.add_line(Line2D([0.045], [KEY_Y - KEY_STEP], transform=ax.transAxes, color="black",
                       linestyle="none", marker="<", markersize=60 ** 0.5, clip_on=False,
                       gid="silhouette point key"))      # as the marker (s = 60 pt^2)
    ax.set_ylabel("cluster")
    ax.set_xlabel("silhouette $s_i$")
    update_silhouette(ax, result, point=point)
    return style_axes(ax, title)


def update_silhouette(ax, result, *, point: int | None = None):
    """Show another ``result`` (and ``point``) in a plot drawn by :func:`plot_silhouette`,
    in place: its bars, mean line, cluster ticks, s_i axis and key texts change, the
    artists stay (an app redraws them, faster than a new plot). Returns the Axes."""
    bars = _bars(result)
    _check_point(point, bars.s.shape[0])
    blocks = _artist(ax.collections, "silhouette bars")
    mean = _artist(ax.lines, "silhouette mean")
    colors = cluster_colors(result.labels)
    blocks.set_verts(bars.polygons)
    blocks.set_facecolor([colors[order[0]] for _, order, _ in bars.blocks])
    mean.set_xdata([float(result)] * 2)
    _artist(ax.texts, "silhouette mean label").set_text(f"mean s = {fmt(float(result))}")
    ax.set_yticks([ys[0] + ys.shape[0] / 2 for _, _, ys in bars.blocks],
                  [str(c) for c, _, _ in bars.blocks])
    ax.ignore_existing_data_limits = True            # the y axis fits the new bars
    ax.update_datalim(np.concatenate(bars.polygons))
    ax.autoscale_view(scalex=False)
    ax.set_xlim(min(-0.1, float(bars.s.min()) - 0.05), 1.0)
    set_silhouette_point(ax, result, point)
    return ax


def _artist(artists, gid: str):
    """The one of ``artists`` (a list of an Axes) named ``gid``."""
    (artist,) = [a for a in artists if a.get_gid() == gid]
    return artist


def _check_point(point, n: int) -> None:
    if point is not None and not (isinstance(point, (int, np.integer)) and 0 <= point < n):
        raise ValueError(f"point: must be an index between 0 and {n - 1}, got {point!r}")


def set_silhouette_point(ax, result, point: int | None):
    """Mark ``point``'s bar (or none) in a plot drawn by :func:`plot_silhouette`, in
    place, and name it in the key (below the axes). Returns the marker (or None)."""
    bars = _bars(result)
    _check_point(point, bars.s.shape[0])
    marker = None
    for old in [c for c in ax.collections if c.get_gid() == "silhouette point"]:
        if point is None or marker is not None:
            old.remove()
        else:
            marker = old                                 # moved below
    label = _artist(ax.texts, "silhouette point label")
    _artist(ax.lines, "silhouette point key").set_visible(point is not None)
    label.set_text("")
    if point is not None:
        s = bars.s[point]
        if marker is None:
            marker = ax.scatter([s], [bars.where[point]], marker="<", s=60, color="black",
                                zorder=3, gid="silhouette point")
        marker.set_offsets([[s, bars.where[point]]])
        label.set_text(f"x{point + 1}: s = {fmt(s)}")
    return marker
