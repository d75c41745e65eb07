"""Dendrogram explorer: linkage and cut height; the clusters at the cut, the cophenetic
matrix and the cophenetic correlation (CPCC).

>>> from prayatul_edu.widgets import DendrogramModel
>>> m = DendrogramModel(n_samples=30, linkage="single")
>>> len(set(m.labels.tolist())) == m.n_clusters
True
>>> m.set(cut=m.tree.heights[-1]).n_clusters     # at the top merge: one cluster
1
"""
from __future__ import annotations

import functools

import numpy as np

from .. import adjusted_rand_index, cophenetic_correlation, cophenetic_matrix
from .._validation import check_choice
from ..cophenetic import DistanceSums
from ..hierarchy import LINKAGES
from ..plots import plot_clustering
from ..plots._matrix import shown_rows
from ..plots.hierarchy import (
    LEAF_NAMES_MAX,
    cophenetic_rows,
    height_ticks,
    plot_cophenetic_matrix,
    plot_dendrogram,
    set_dendrogram_cut,
    set_dendrogram_tree,
)
from ..toydata import DATASETS
from ..tree import agglomerative_prechecked
from .app import App, data_controls
from .data import dataset, distances
from .drawing import pin_axis_label, rescale, scatter_artists, update_scatter
from .inputs import check_float, check_int
from .model import Model
from .rendering import TextGroup, lecture_text
from .tables import format_number, html_table, plural, text_table

__all__ = ["DendrogramModel", "DendrogramExplorer"]

_NOISE = 0.05


@functools.lru_cache(maxsize=16)
def _tree(data: tuple, linkage: str):
    """Tree, CPCC and leaf order of a cached data set."""
    from scipy.cluster.hierarchy import leaves_list

    d_sums = _distance_sums(data)
    D = d_sums.D                         # valid by construction: not checked again
    tree = agglomerative_prechecked(D, linkage=linkage)
    return (tree, cophenetic_correlation(D, tree, d_sums=d_sums),
            leaves_list(tree.linkage_matrix))


@functools.lru_cache(maxsize=4)
def _distance_sums(data: tuple) -> DistanceSums:
    """The data set's distances with the CPCC's sums over them, shared by the trees of
    every linkage (made on first use)."""
    return DistanceSums(distances(data))


@functools.lru_cache(maxsize=4)
def _cophenetic(data: tuple, linkage: str):
    """The cophenetic matrix of a cached tree (N x N: made only when asked for)."""
    return cophenetic_matrix(_tree(data, linkage)[0])


def default_cut(heights) -> float:
    """Half-way between the merges that leave 3 and 2 clusters (or the top, if fewer)."""
    h = np.asarray(heights, dtype=float)
    if h.shape[0] < 3:
        return float(h[-1])
    return float((h[-3] + h[-2]) / 2)


def cut_for_clusters(tree, k: int) -> float:
    """A height that cuts ``tree`` into ``k`` clusters: half-way between the merges that
    leave k and k - 1 clusters (the top merge's height for one cluster, half the lowest
    for every point alone). Merges are taken in the order a cut applies them (a merge
    with an inversion below it counts at its subtree's height), so inversions too give k.
    Where ties make k impossible, the nearest count below that height.

    >>> from prayatul_edu import agglomerative
    >>> from prayatul_edu.tutorial import EXERCISE_4_D
    >>> tree = agglomerative(EXERCISE_4_D)
    >>> [int(tree.cut(height=cut_for_clusters(tree, k)).max()) + 1 for k in (1, 2, 3, 5)]
    [1, 2, 3, 5]
    """
    h = np.sort(np.asarray(tree.subtree_heights(), dtype=float))
    n = h.shape[0] + 1
    k = min(max(int(k), 1), n)
    if k == 1:
        return float(h[-1])
    if k == n:
        return float(h[0] / 2)
    return float((h[n - k - 1] + h[n - k]) / 2)


#: The parameters that make a new tree: changing one keeps the number of clusters.
TREE_PARAMS = ("dataset", "n_samples", "seed", "linkage")


class DendrogramModel(Model):
    """Agglomerative clustering of a small toy data set, cut at a height.

    Parameters: ``dataset`` (default "blobs"), ``n_samples`` (default 30),
    ``seed``, ``linkage`` ("single", "complete", "average"), ``cut`` (a height;
    ``None`` = half-way between the merges that leave 3 and 2 clusters).
    Results: ``tree``, ``cophenetic`` (matrix, made on first access), ``cpcc``,
    ``cut_height`` (the height used: ``cut``, lowered to ``cut_max`` = 1.05 x the top
    merge if above it), ``labels`` (the clusters at the cut),
    ``n_clusters``, ``ari`` (the cut against the data set's truth). Trees are
    cached per data set and linkage, so moving the cut only re-cuts; the figure
    then redraws only what the cut moves.

    A new tree (another data set, size, seed or linkage) keeps the number of clusters
    the cut last gave when it was moved, not its height (heights of different linkages
    are not comparable): the cut moves to :func:`cut_for_clusters` of the new tree (where
    two merges at one height make that number impossible, the nearest below the tie).
    """

    _keep_clusters = None
    #: The number of clusters the cut gave when it was last moved (None: never moved).
    wanted_clusters = None

    def set(self, **changes) -> "DendrogramModel":
        new_tree = any(name in changes and changes[name] != self.params.get(name)
                       for name in TREE_PARAMS)
        if new_tree and "cut" not in changes and self.params.get("cut") is not None:
            self._keep_clusters = self.wanted_clusters or self.n_clusters
        try:
            super().set(**changes)
        finally:
            self._keep_clusters = None
        if "cut" in changes:
            self.wanted_clusters = None if changes["cut"] is None else self.n_clusters
        return self

    title = "Dendrogram explorer"
    DEFAULTS = {"dataset": "blobs", "n_samples": 30, "seed": 0, "linkage": "average",
                "cut": None}

    def _check(self, name, value):
        if name == "dataset":
            return check_choice(value, name, DATASETS)
        if name == "linkage":
            return check_choice(value, name, LINKAGES)
        if name == "n_samples":
            return check_int(value, name, 10, 5000)
        if name == "seed":
            return check_int(value, name, 0)
        return None if value is None else check_float(value, name, 0.0)

    def _compute(self) -> None:
        p = self.params
        data = (p["dataset"], p["n_samples"], _NOISE, p["seed"])
        self.X, self.truth = dataset(*data)
        self.tree, self.cpcc, self.leaf_order = _tree(data, p["linkage"])
        # the cut slider's range; a cut above it (kept from a taller tree) is lowered to it,
        # so the slider can always show the height the numbers use
        self.top_height = float(np.max(self.tree.heights))   # an inversion's link may top it
        self.cut_max = 1.05 * self.top_height
        if self._keep_clusters is not None:
            p["cut"] = cut_for_clusters(self.tree, self._keep_clusters)
        self.cut_height = (default_cut(self.tree.heights) if p["cut"] is None
                           else min(p["cut"], self.cut_max))
        self.labels = self.tree.cut(height=self.cut_height)
        self.n_clusters = int(self.labels.max()) + 1
        self.ari = float(adjusted_rand_index(self.truth, self.labels))

    @property
    def cophenetic(self):
        """The cophenetic matrix of the tree (:func:`prayatul_edu.cophenetic_matrix`)."""
        p = self.params
        return _cophenetic((p["dataset"], p["n_samples"], _NOISE, p["seed"]), p["linkage"])

    def _rows(self):
        c = self.cpcc
        sizes = np.bincount(self.labels).tolist()
        return [["linkage", self.params["linkage"]], ["cut height", self.cut_height],
                ["clusters at the cut", self.n_clusters],
                ["cluster sizes", " ".join(map(str, sizes[:12])) + (" ..." if len(sizes) > 12
                                                                      else "")],
                ["ARI of the cut vs truth", self.ari],
                ["top merge height", self.top_height],
                ["CPCC", float(c)], ["mean distance d̄", c.d_mean],
                ["mean cophenetic distance p̄", c.p_mean], *self._why_equal_means()]

    def _why_equal_means(self) -> list:
        """With average linkage d̄ = p̄ always: say why, or a student suspects a bug."""
        if self.params["linkage"] != "average":
            return []
        return [["why d̄ = p̄", "average linkage: each merge height is the mean of the "
                 "distances it joins, so the cophenetic distances keep their sum"]]

    def summary(self) -> str:
        p = self.params
        return "\n".join([f"{self.title}: {p['dataset']}, {p['n_samples']} points, seed "
                          f"{p['seed']}", "", text_table(["", "value"], self._rows())])

    def numbers_html(self) -> str:
        return html_table(["", "value"], self._rows(), "At the cut, and the whole tree")

    def figure(self):
        fig = self.new_figure((13.5, 3.8), (8.0, 5.8))
        if self.lecture:            # the tree along the top, scatter and heatmap below
            grid = fig.add_gridspec(2, 3, width_ratios=[1, 1, 0.06])
            axes = [fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]),
                    fig.add_subplot(grid[1, 1]), fig.add_subplot(grid[1, 2])]
        else:
            axes = fig.subplots(1, 4, gridspec_kw={"width_ratios": [1.5, 1, 1.1, 0.05]})
            fig.subplots_adjust(left=0.05, right=0.95, bottom=0.12, top=0.9, wspace=0.25)
        self._draw_tree(axes[0], axes[2], axes[3])
        plot_clustering(self.X, self.labels, ax=axes[1], title=self._scatter_title(),
                        size=12 if self.X.shape[0] <= 200 else 5)
        update_scatter(axes[1], self.X, self.labels, self._scatter_title())
        self.fit_text(fig, passes=2)            # the colour bar's label inside the figure
        rescale(axes[1], self.X)    # fitted to the panel's final place, as every update does
        return fig

    def describe_figure(self) -> str:
        return (f"The dendrogram of {self.X.shape[0]} points of the {self.params['dataset']} "
                f"data under {self.params['linkage']} linkage, cut at height "
                f"{format_number(self.cut_height)} into "
                f"{plural(self.n_clusters, 'cluster')}; the points coloured by those clusters; "
                "the cophenetic matrix (merge heights between leaves, in the dendrogram's "
                f"order), CPCC = {format_number(float(self.cpcc))}.")

    def _scatter_title(self) -> str:
        return f"{plural(self.n_clusters, 'cluster')} at the cut"

    def _cophenetic_title(self) -> str:
        cpcc = format_number(float(self.cpcc))
        # lecture mode: short enough to leave a gap to the scatter plot's title at 16 pt
        return f"cophenetic, CPCC = {cpcc}" if self.lecture else (f"cophenetic matrix "
                                                                   f"(CPCC = {cpcc})")

    def _draw_tree(self, tree_ax, coph_ax, colorbar_ax) -> None:
        """The panels that change only with the tree: dendrogram, cophenetic matrix and
        its colour bar."""
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize

        plot_dendrogram(self.tree, ax=tree_ax, cut=self.cut_height,
                        title=f"{self.params['linkage']} linkage")
        # from the tree: only the rows the heatmap draws (same numbers as self.cophenetic)
        plot_cophenetic_matrix(self.tree, ax=coph_ax, order=self.leaf_order,
                               title=self._cophenetic_title(), annotate=False, colorbar=False)
        image = coph_ax.images[0]
        # the bar shows the colour map from the lowest to the highest height shown, for
        # every tree alike: only its tick labels follow the tree (set_colorbar_heights)
        coph_ax.figure.colorbar(ScalarMappable(Normalize(0.0, 1.0), image.get_cmap()),
                                cax=colorbar_ax, label="merge height" if self.lecture
                                else "cophenetic distance (merge height)")
        _set_colorbar_heights(colorbar_ax, image)
        if self.lecture:
            lecture_text(tree_ax.figure)    # the tick labels at their size, to be measured
        for axis in (tree_ax.yaxis, colorbar_ax.yaxis):    # kept from tree to tree
            pin_axis_label(axis, _HEIGHT_TEMPLATE)
        tree_ax.shows = self.tree                   # what these panels show (see redraw)

    def redraw(self, fig):
        """Reuse the Axes. A new cut recolours the links and moves the line: only those,
        the legend and the scatter plot are drawn again, over the rest kept as pixels.
        A new tree of as many leaves (linkage, seed) replaces the links and the heatmap's
        pixels in place; its heights, titles and the colour bar's height labels are drawn
        again too, over the kept frames and leaf axis (the colour bar itself shows the
        colour map from the lowest to the highest height for every tree alike)."""
        if fig is None or len(fig.axes) != 4:
            # its first PNG keeps the pixels a new tree draws over (the first new tree
            # then draws only what it changes)
            fig = self.figure()
            self._declare_new_tree(fig)
            return fig
        tree_ax, points, coph, colorbar_ax = fig.axes
        shown = getattr(tree_ax, "shows", None)
        N = self.tree.n
        if shown is self.tree:
            set_dendrogram_cut(tree_ax, self.tree, self.cut_height)
        elif shown is not None and shown.n == N:
            set_dendrogram_tree(tree_ax, self.tree, cut=self.cut_height,
                                title=f"{self.params['linkage']} linkage")
            image = coph.images[0]
            image.set_data(cophenetic_rows(self.tree, shown_rows(N, self.leaf_order)))
            image.autoscale()
            _set_colorbar_heights(colorbar_ax, image)
            for axis in (tree_ax.yaxis, colorbar_ax.yaxis):
                if pin_axis_label(axis, _HEIGHT_TEMPLATE):   # moved: not where the kept
                    self.layers.stale = True                 # pixels have it
            coph.set_title(self._cophenetic_title(), fontsize=11)
            tree_ax.shows = self.tree
        else:
            tree_ax.cla()
            coph.cla()
            colorbar_ax.cla()
            self._draw_tree(tree_ax, coph, colorbar_ax)
        update_scatter(points, self.X, self.labels, self._scatter_title())
        if shown is self.tree:      # a new cut: the links' colours, the line, the points
            self.layers.declare(fig, ("cut", self.tree),
                                [*_cut_artists(tree_ax), *scatter_artists(points)])
        else:
            self._declare_new_tree(fig)
        return fig

    def _declare_new_tree(self, fig) -> None:
        """What a new tree changes: the links, the cut, the heights, the leaf names, the
        titles, the heatmap and the colour bar's heights, and the points. Kept: the
        panels' backgrounds, the leaf axis, the heights axes' labels and the colour bar
        (the same for every tree); the scatter plot has no ticks, so new points show
        nowhere else."""
        tree_ax, points, coph, colorbar_ax = fig.axes
        N = self.tree.n
        # the leaf names in the new order: only their texts (the axis stays as it was)
        names = ([TextGroup([t.label1 for t in tree_ax.xaxis.get_major_ticks(N)])]
                 if N <= LEAF_NAMES_MAX else [])
        self.layers.declare(fig, ("tree", N),
                            [*_cut_artists(tree_ax), _tree_title(tree_ax),
                             *_height_ticks(tree_ax.yaxis), *names, *coph.images,
                             *coph.spines.values(), coph.title,
                             *_height_ticks(colorbar_ax.yaxis), *scatter_artists(points)])


def _tree_title(tree_ax):
    """The dendrogram's title: on the left (the cut's legend stands on the right)."""
    return tree_ax._left_title


def _cut_artists(tree_ax) -> list:
    """What a new cut changes in the dendrogram: the links' colours, the cut line and its
    legend, and the frames drawn over them."""
    cut = sorted((a for a in tree_ax.lines
                  if a.get_gid() in ("dendrogram links", "dendrogram cut")),
                 key=lambda a: a.get_zorder())              # as Axes.draw orders them
    # the frames are drawn over the links and the heatmap, as Axes.draw does
    return [*cut, *tree_ax.spines.values(), tree_ax.get_legend()]


#: The height labels an axis label keeps clear of at least (digits are as wide as each
#: other): the labels of the toy data sets' trees are at most as wide ("0.5", "2").
_HEIGHT_TEMPLATE = "0.0"


def _height_ticks(axis) -> list:
    """The tick marks of a heights axis and, as one group, their labels, placed and
    written for the axis' fixed ticks as its next draw would: what a new tree changes on
    the axis (its label stays where
    :func:`~prayatul_edu.widgets.drawing.pin_axis_label` put it)."""
    locs = axis.get_majorticklocs()
    ticks = axis.get_major_ticks(len(locs))
    for tick, loc, label in zip(ticks, locs, axis.major.formatter.format_ticks(locs)):
        tick.update_position(loc)
        tick.label1.set_text(label)
        tick.label2.set_text(label)
    marks = [a for t in ticks for a in (t.gridline, t.tick1line, t.tick2line)
             if a.get_visible()]
    return [*marks, TextGroup([a for t in ticks for a in (t.label1, t.label2)
                               if a.get_visible()])]


def _set_colorbar_heights(colorbar_ax, image) -> None:
    """Label the colour bar (drawn for colours 0 to 1) with the heights of ``image``'s
    colour scale: tick positions are the heights' fractions of the scale."""
    low, high = image.get_clim()
    heights, labels = height_ticks(low, high)
    colorbar_ax.set_yticks((heights - low) / (high - low) if high > low else heights * 0,
                           labels)


#: Keyboard steps of the cut-height slider from 0 to the top merge (an arrow key moves
#: the cut by one step: fifty presses cross the whole tree).
CUT_STEPS = 50


class DendrogramExplorer(App):
    """The dendrogram explorer's widgets, bound to a :class:`DendrogramModel`."""

    model_class = DendrogramModel

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "initial"}
        top = self.model.cut_max / 1.05
        return {
            **data_controls(p, 10, 300, 5),
            "linkage": W.Dropdown(options=list(LINKAGES), value=p["linkage"],
                                  description="linkage", style=style,
                                  layout=W.Layout(width="200px")),
            "cut": W.FloatSlider(value=self.model.cut_height, min=0.0, max=self.model.cut_max,
                                 step=top / CUT_STEPS, description="cut height",
                                 readout_format=".4f",      # as the numbers show it
                                 continuous_update=False, style=style),
        }

    def _sync_controls(self) -> None:
        # limits before the value: a lower maximum clamps the old value, a higher one
        # would otherwise clamp the new value
        cut = self.controls["cut"]
        cut.max = self.model.cut_max
        cut.step = self.model.cut_max / 1.05 / CUT_STEPS
        cut.value = self.model.cut_height
        for name in ("dataset", "n_samples", "seed", "linkage"):
            self.controls[name].value = self.model.params[name]
