"""Dendrogram with a cut line, and the cophenetic matrix as a heatmap."""
from __future__ import annotations

import weakref

import numpy as np

from ..steps import fmt
from ._matrix import show_rows, shown_rows, thinned
from ._style import (MARK_COLOR, POSITIVE_COLOR, cluster_colors, new_axes, style_axes,
                     text_color_on)

__all__ = ["plot_dendrogram", "set_dendrogram_cut", "set_dendrogram_tree", "dendrogram_links",
           "plot_cophenetic_matrix", "cophenetic_rows", "height_ticks"]

#: Above this many leaves the leaf names are not written.
LEAF_NAMES_MAX = 40
#: Links above the cut: thin, dotted and dark, a style no cluster's links use (a grey
#: of their weight was as close as 10 CIEDE2000 units to a cluster's green under
#: deuteranopia).
ABOVE_CUT_COLOR = "#303030"
ABOVE_CUT_STYLE = {"linestyle": ":", "linewidth": 1.2}
LINK_STYLE = {"linestyle": "-", "linewidth": 1.2}
LINK_COLOR = POSITIVE_COLOR

_LAYOUTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _Layout:
    """Where a tree's dendrogram puts everything (computed once per tree).

    ``order``: the leaves left to right (SciPy's ``leaves_list``, the order of
    ``scipy.cluster.hierarchy.dendrogram``); ``segments[k]``: the four corners
    of the upside-down U of merge k, from the left child's top to the right
    child's, as SciPy draws it (leaf i at x = 5 + 10 * its position, a cluster
    above the middle of its two children); ``path[k]``: the same and a NaN
    corner, so that many U's make one line;
    ``first_leaf[c]``: a leaf of cluster id c; ``gap[t]``: the height of the merge
    that joins the leaves at positions t and t + 1; ``position[i]``: where leaf i sits.
    """

    def __init__(self, Z: np.ndarray, N: int):
        from scipy.cluster.hierarchy import leaves_list

        self.order = leaves_list(Z)
        self.position = np.empty(N, dtype=np.intp)
        self.position[self.order] = np.arange(N)
        ids = Z[:, :2].astype(np.intp)
        heights = Z[:, 2].tolist()
        x = (5.0 + 10.0 * self.position).tolist() + [0.0] * (N - 1)
        start = self.position.tolist() + [0] * (N - 1)
        first = list(range(N)) + [0] * (N - 1)
        gap = [0.0] * (N - 1)
        for k, (a, b) in enumerate(ids.tolist()):
            x[N + k] = (x[a] + x[b]) / 2                 # a cluster sits above the middle
            start[N + k] = min(start[a], start[b])
            first[N + k] = first[a]
            gap[max(start[a], start[b]) - 1] = heights[k]   # after the left block's last leaf
        x = np.array(x)
        top = np.r_[np.zeros(N), Z[:, 2]]             # a leaf's top is 0, a cluster's its merge
        a, b, h = ids[:, 0], ids[:, 1], Z[:, 2]
        self.segments = np.stack([np.column_stack([x[a], top[a]]), np.column_stack([x[a], h]),
                                  np.column_stack([x[b], h]), np.column_stack([x[b], top[b]])],
                                 axis=1)
        self.path = np.concatenate([self.segments, np.full((N - 1, 1, 2), np.nan)], axis=1)
        self.first_leaf = np.asarray(first, dtype=np.intp)
        self.gap = np.array(gap)


def _layout(tree) -> _Layout:
    try:
        Z, N = np.asarray(tree.linkage_matrix), int(tree.n)
    except AttributeError:
        raise TypeError("tree: expected the result of prayatul_edu.agglomerative, got "
                        f"{type(tree).__name__}") from None
    layout = _LAYOUTS.get(tree)
    if layout is None:
        layout = _LAYOUTS[tree] = _Layout(Z, N)
    return layout


def plot_dendrogram(tree, ax=None, title: str | None = None, *, cut: float | None = None):
    """The dendrogram of an :func:`~prayatul_edu.agglomerative` tree. Returns the Axes.

    The links are drawn as SciPy's ``dendrogram`` places them, one line per
    colour (fast for thousands of leaves; ``dendrogram_links`` reads them
    back). With ``cut`` (a height), the links below the cut take the colours
    of the clusters of ``tree.cut(height=cut)`` (the same colours as a scatter
    plot of those labels) and a dashed line marks the cut; links above it are
    dark and dotted. ``set_dendrogram_cut`` and ``set_dendrogram_tree`` change a
    drawn dendrogram in place (what an app does on every update).

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_dendrogram
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> tree = pe.agglomerative(EXERCISE_4_D, linkage="single")
    >>> ax = plot_dendrogram(tree, cut=0.5)
    >>> ax.get_ylabel()
    'merge height'
    """
    layout = _layout(tree)
    N, names = int(tree.n), list(tree.names)
    ax = new_axes(ax, figsize=(5.0, 3.5))
    _set_links(ax, layout, np.zeros(N - 1, dtype=np.intp), [LINK_COLOR])
    ax.set_xlim(0, 10 * N)
    _set_top(ax, tree)
    if N <= LEAF_NAMES_MAX:
        ax.set_xticks(5 + 10 * np.arange(N), [names[i] for i in layout.order], fontsize=8,
                      rotation=0 if N <= 12 else 90)
    else:
        ax.set_xticks([])
        ax.set_xlabel(f"{N} instances")
    ax.set_ylabel("merge height")
    if cut is not None:
        set_dendrogram_cut(ax, tree, cut)
    style_axes(ax)
    if title:           # left: the cut's legend stands above the axes on the right
        ax.set_title(title, fontsize=11, loc="left")
    return ax


def height_ticks(low: float, high: float) -> tuple[np.ndarray, list]:
    """A few round heights from ``low`` to ``high`` and their labels, all with as many
    decimals as the finest of them needs (what matplotlib's default axis would show).

    Fixed per tree rather than left to the axis: redrawing the axis of a new tree then
    only writes the labels (no locator or formatter to run at every draw).

    >>> height_ticks(0.0, 1.22)
    (array([0. , 0.5, 1. ]), ['0.0', '0.5', '1.0'])
    >>> height_ticks(0.0, 3.5)[1], height_ticks(0.0, 0.0061)[1]
    (['0', '1', '2', '3'], ['0.000', '0.002', '0.004', '0.006'])

    Heights of a tree whose merges are all at one height, or far from 1 (short labels):

    >>> height_ticks(0.5, 0.5), height_ticks(0.0, 4e-9)[1]
    ((array([0.5]), ['0.5']), ['0', '1e-09', '2e-09', '3e-09', '4e-09'])
    """
    from matplotlib.ticker import MaxNLocator

    ticks = (MaxNLocator(nbins=5, steps=[1, 2, 5, 10]).tick_values(low, high)
             if high > low else np.array([float(low)]))
    span = max(abs(high - low), abs(high), 1e-300)
    ticks = ticks[(ticks >= low - 1e-9 * span) & (ticks <= high + 1e-9 * span)]
    ticks = np.where(np.abs(ticks) < 1e-9 * span, 0.0, ticks)          # no "-0.0"
    decimals = next((d for d in range(7)
                     if np.allclose(np.round(ticks, d), ticks, rtol=0, atol=1e-9 * span)), None)
    if decimals is None or np.abs(ticks).max() >= 1e6:
        return ticks, [f"{t:.3g}" for t in ticks]
    return ticks, [f"{t:.{decimals}f}" for t in ticks]


def _set_top(ax, tree) -> None:
    top = float(np.max(tree.linkage_matrix[:, 2]))      # an inversion may top the last merge
    # a fifth of the height above the top merge: the cut's legend sits there, clear of
    # the highest links (at 16 pt in lecture mode too)
    high = top * 1.22 if top > 0 else 1.0
    ax.set_ylim(0, high)
    ax.set_yticks(*height_ticks(0.0, high))              # a few heights


def _link_lines(ax) -> list:
    return [ln for ln in ax.lines if ln.get_gid() == "dendrogram links"]


def _set_links(ax, layout: _Layout, which: np.ndarray, colors) -> None:
    """Draw merge k in ``colors[which[k]]``: one line per colour, reusing the lines there."""
    from matplotlib.lines import Line2D

    lines = _link_lines(ax)
    used = np.unique(which)
    for i, g in enumerate(used.tolist()):
        xy = layout.path[which == g].reshape(-1, 2)
        style = ABOVE_CUT_STYLE if colors[g] == ABOVE_CUT_COLOR else LINK_STYLE
        if i < len(lines):
            lines[i].set_data(xy[:, 0], xy[:, 1])
            lines[i].set_color(colors[g])
            lines[i].set(**style)
        else:
            ax.add_line(Line2D(xy[:, 0], xy[:, 1], color=colors[g], gid="dendrogram links",
                               **style))
    for line in lines[used.shape[0]:]:
        line.remove()


def dendrogram_links(ax) -> list:
    """The links of a dendrogram drawn by :func:`plot_dendrogram`: one ``(corners, colour)``
    per merge, ``corners`` its 4 x 2 upside-down U (in no particular order)."""
    links = []
    for line in _link_lines(ax):
        xy = np.asarray(line.get_xydata()).reshape(-1, 5, 2)[:, :4]
        links += [(corners, line.get_color()) for corners in xy]
    return links


def set_dendrogram_tree(ax, tree, *, cut: float | None = None, title: str | None = None):
    """Show another tree of as many leaves in an Axes drawn by :func:`plot_dendrogram`,
    in place (the leaf names, if shown, in the new tree's order). Returns the Axes."""
    from matplotlib.ticker import FixedFormatter

    N = int(tree.n)
    shown = ax.get_xlim()[1] / 10
    if shown != N:
        raise ValueError(f"tree: has {N} leaves; the Axes shows a dendrogram of {shown:g}: "
                         "draw it anew instead")
    if N <= LEAF_NAMES_MAX:         # same places, same font: only the names move
        names = list(tree.names)
        names = [names[i] for i in _layout(tree).order]
        ax.xaxis.set_major_formatter(FixedFormatter(names))
        for tick, name in zip(ax.xaxis.get_major_ticks(N), names):
            tick.label1.set_text(name)      # as the next draw would (redrawn alone)
    _set_top(ax, tree)
    if cut is None:
        _set_links(ax, _layout(tree), np.zeros(N - 1, dtype=np.intp), [LINK_COLOR])
    else:
        set_dendrogram_cut(ax, tree, cut)
    if title is not None:
        ax.set_title(title, fontsize=11, loc="left")
    return ax


def set_dendrogram_cut(ax, tree, cut: float) -> np.ndarray:
    """Move the cut of a dendrogram drawn by :func:`plot_dendrogram` to height ``cut``:
    recolour the links, move the dashed line and its legend. Returns the labels at the cut.
    """
    labels = tree.cut(height=cut)      # raises a ValueError naming height on bad input
    layout = _layout(tree)
    # a merge kept by the cut (it and its whole subtree below the line: an inversion's
    # lower link is not) lies inside one cluster: it takes that cluster's colour
    colors, which = np.unique(cluster_colors(labels)[layout.first_leaf[int(tree.n):]],
                              return_inverse=True)
    colors = [*colors.tolist(), ABOVE_CUT_COLOR]
    kept = tree.subtree_heights() <= cut
    _set_links(ax, layout, np.where(kept, which.ravel(), len(colors) - 1), colors)
    k = len(np.unique(labels))
    text = f"cut at {fmt(float(cut))}: {k} cluster{'' if k == 1 else 's'}"  # as in the tables
    lines = [ln for ln in ax.lines if ln.get_gid() == "dendrogram cut"]
    if lines:
        lines[0].set_ydata([cut, cut])
        lines[0].set_label(text)
    else:
        ax.axhline(cut, color=MARK_COLOR, linestyle="--", linewidth=1.2, label=text,
                   gid="dendrogram cut")
    # above the axes, right: the cut line never runs through its own legend
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), borderaxespad=0.2, fontsize=8,
              frameon=False)
    return labels


def cophenetic_rows(tree, rows) -> np.ndarray:
    """``P[np.ix_(rows, rows)]`` of the tree's cophenetic matrix P, without forming P.

    In the dendrogram's leaf order two leaves first meet at the highest merge
    between them: P between the leaves at positions u < v is the largest of the
    heights joining neighbours u, u+1, ..., v. O(N + len(rows)^2): what a
    heatmap of a few hundred rows needs from a tree of thousands of leaves.

    >>> from prayatul_edu import agglomerative, cophenetic_matrix
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> tree, rows = agglomerative(EXERCISE_4_D), [4, 0, 2]
    >>> cophenetic_rows(tree, rows).tolist()
    [[0.0, 0.65, 0.65], [0.65, 0.0, 0.53], [0.65, 0.53, 0.0]]
    >>> bool((cophenetic_rows(tree, rows) == cophenetic_matrix(tree)[rows][:, rows]).all())
    True
    """
    layout = _layout(tree)
    rows = np.asarray(rows, dtype=np.intp)
    where = layout.position[rows]
    by_position = np.argsort(where, kind="stable")
    q = where[by_position]                                 # positions, left to right
    m = q.shape[0]
    # the highest join between each shown leaf and the next shown one
    step = np.maximum.reduceat(np.r_[layout.gap, 0.0], q)[:-1] if m > 1 else np.zeros(0)
    sub = np.zeros((m, m))
    for i in range(m - 1):
        sub[i, i + 1:] = np.maximum.accumulate(step[i:])
    sub += sub.T
    back = np.empty(m, dtype=np.intp)
    back[by_position] = np.arange(m)
    return sub[np.ix_(back, back)]


def plot_cophenetic_matrix(P, ax=None, title: str | None = None, *, order=None,
                           colorbar: bool = True, annotate: bool | None = None):
    """The cophenetic (or any distance) matrix as a heatmap. Returns the Axes.

    ``P`` is an N x N matrix, or an :func:`~prayatul_edu.agglomerative` tree
    (then only the rows drawn are computed, by ``cophenetic_rows``: a big
    heatmap shows a few hundred of them). ``order`` (e.g. the dendrogram's leaf
    order) permutes rows and columns so the blocks of the tree line up on the
    diagonal. Values are written in the cells when ``annotate`` (default: N <= 12).

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_cophenetic_matrix
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> P = pe.cophenetic_matrix(pe.agglomerative(EXERCISE_4_D, linkage="single"))
    >>> ax = plot_cophenetic_matrix(P)
    >>> len(ax.images)
    1
    """
    tree = P if hasattr(P, "linkage_matrix") else None
    if tree is not None:
        n = int(tree.n)
    else:
        M = np.asarray(P, dtype=float)
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError(f"P: expected a square matrix, got shape {M.shape}")
        n = M.shape[0]
    if order is not None:
        order = np.asarray(order, dtype=np.intp)
        if order.shape != (n,) or not np.array_equal(np.sort(order), np.arange(n)):
            raise ValueError(f"order: must be a permutation of 0 .. {n - 1}")
    rows = shown_rows(n, order)
    shown = cophenetic_rows(tree, rows) if tree is not None else M[np.ix_(rows, rows)]
    ax = new_axes(ax, figsize=(4.2, 3.6))
    im = show_rows(ax, shown, n, cmap="viridis", interpolation="nearest")
    if annotate if annotate is not None else n <= 12:
        at = thinned(n)                                # where each shown row is drawn
        shade = im.cmap(im.norm(shown))                # each cell's colour, for its text
        for i, y in enumerate(at):
            for j, x in enumerate(at):
                ax.text(x, y, f"{shown[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color=text_color_on(shade[i, j]))
    if colorbar:
        ax.figure.colorbar(im, ax=ax, shrink=0.8, label="height of first common merge")
    if n <= 12:
        names = [f"x{i + 1}" for i in rows]
        ax.set_xticks(range(n), names, fontsize=8)
        ax.set_yticks(range(n), names, fontsize=8)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=11)
    return ax
