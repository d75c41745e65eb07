"""Prayatul explorer: two algorithms on a toy data set, compared pair by pair.

Choose a data set (noisy circles, noisy moons, anisotropic blobs, blobs of
varied variance, plain blobs), its size, noise and seed, then a primary and an
alternative algorithm with their main parameter (k, or eps for DBSCAN). The
app shows both clusterings side by side, the instance-level map (points
mostly in RW pairs blue, mostly in WR pairs red), the 2 x 2 Prayatul matrix
as a heatmap, and the five measures next to ARI, NMI and raw-label accuracy.

Or paste / upload your own labels (truth, primary, alternative: ``source="own
labels"``). Those come without coordinates, so the app draws no clusterings
and no instance map (a scatter would have to invent positions for the
points); it shows instead each instance's RW - WR balance as a bar, x1 to xN
in the order given (:func:`~prayatul_edu.plots.plot_instance_balance`: the
instance map's colour, without the map), beside the Prayatul matrix. "reveal
step by step" builds up the matrix's derivation one step at a time.

>>> from prayatul_edu.widgets import PrayatulModel
>>> m = PrayatulModel(dataset="blobs", n_samples=60, primary="KMeans", primary_k=3,
...                   alternative="KMeans", alternative_k=2)
>>> m.matrix.br + m.matrix.rw + m.matrix.wr + m.matrix.bw == 60 * 59 // 2
True
>>> m.set(alternative_k=3).matrix.rw + m.matrix.wr    # same algorithm, same k: no deviation
0
"""
from __future__ import annotations

import numpy as np

from .. import adjusted_rand_index, normalized_mutual_information
from .._validation import check_choice
from ..matching import raw_accuracy as raw_label_accuracy  # re-exported: raw-label accuracy
from ..plots import (plot_clustering, plot_instance_balance, plot_instance_map,
                     plot_prayatul_matrix)
from ..plots.prayatul import instance_balance, prayatul_cells
from ..prayatul import prayatul_by_instance, prayatul_matrix
from ..steps import fmt
from ..toydata import ALGORITHMS, DATASETS
from .app import App, data_controls
from .data import clustering, dataset
from .drawing import rescale, scatter_artists, update_scatter
from .inputs import check_float, check_int
from .label_source import LabelSourcePanel, check_own, own_inputs
from .model import Model
from .reveal import RevealToggle
from .tables import html_table, text_table

__all__ = ["PrayatulModel", "PrayatulExplorer", "raw_label_accuracy"]

#: The data sets whose shape the ``noise`` parameter changes (the others ignore it).
NOISY_DATASETS = ("noisy_circles", "noisy_moons")

#: How the scores against the truth are labelled: which NMI, which accuracy.
SCORE_LABELS = {"ARI": "ARI", "NMI": "NMI (geometric mean)",
                "accuracy": "raw-label accuracy"}

#: The neutral value passed for the parameter an algorithm does not use (cache key).
_UNUSED_K, _UNUSED_EPS = 2, 0.3


class PrayatulModel(Model):
    """What the Prayatul explorer shows, computed from its parameters (no widgets).

    Parameters (all keyword; ``set(**changes)`` changes them later):
    ``dataset``, ``n_samples``, ``noise``, ``seed``; ``primary`` and
    ``alternative`` (names of :data:`prayatul_edu.toydata.ALGORITHMS`) with
    ``primary_k`` / ``primary_eps`` and ``alternative_k`` / ``alternative_eps``;
    ``source`` ("toy data" or "own labels") and ``own`` (a lecturer's labels:
    :class:`~prayatul_edu.widgets.label_source.OwnLabels` with ``truth``,
    ``primary`` and ``alternative``; then ``X`` is None).

    Results: ``X``, ``truth``, ``labels`` (``{"primary": ..., "alternative": ...}``),
    ``matrix`` (:class:`~prayatul_edu.prayatul.PrayatulMatrix`), ``by_instance``
    (N x 4), ``scores`` (``{"primary": {"ARI": ..., "NMI": ..., "accuracy": ...}, ...}``).
    Data sets and clusterings are cached, so changing one side recomputes only that side.
    """

    title = "Prayatul explorer"
    DEFAULTS = {"dataset": "noisy_moons", "n_samples": 500, "noise": 0.05, "seed": 0,
                "primary": "KMeans", "primary_k": 2, "primary_eps": 0.3,
                "alternative": "DBSCAN", "alternative_k": 2, "alternative_eps": 0.3,
                "source": "toy data", "own": None}
    ROLES = ("truth", "primary", "alternative")

    def _check(self, name, value):
        if name == "dataset":
            return check_choice(value, name, DATASETS)
        if name == "source":
            return check_choice(value, name, ("toy data", "own labels"))
        if name == "own":
            return check_own(value, self.ROLES)
        if name in ("primary", "alternative"):
            return check_choice(value, name, ALGORITHMS)
        if name == "n_samples":
            return check_int(value, name, 10, 20000)
        if name == "seed":
            return check_int(value, name, 0)
        if name.endswith("_k"):
            return check_int(value, name, 1, 50)
        if name == "noise":
            return check_float(value, name, 0.0, 1.0)
        return check_float(value, name, 1e-6)           # eps

    def _labels_of(self, side: str) -> np.ndarray:
        p = self.params
        name = p[side]
        data = (p["dataset"], p["n_samples"], p["noise"], p["seed"])
        if name == "DBSCAN":
            return clustering(data, name, _UNUSED_K, p[f"{side}_eps"])
        return clustering(data, name, p[f"{side}_k"], _UNUSED_EPS)

    def _compute(self) -> None:
        p = self.params
        if p["source"] == "own labels":
            self.X = None
            self.truth, *sides = own_inputs(p["own"], self.ROLES)
            self.labels = dict(zip(("primary", "alternative"), sides))
        else:
            self.X, self.truth = dataset(p["dataset"], p["n_samples"], p["noise"], p["seed"])
            self.labels = {side: self._labels_of(side) for side in ("primary", "alternative")}
        g, P, Q = self.truth, self.labels["primary"], self.labels["alternative"]
        self.matrix = prayatul_matrix(g, P, Q)
        self.by_instance = prayatul_by_instance(g, P, Q)
        # ACCURACY: the one call site of raw-label accuracy (switch to
        # matching.raw_accuracy when it exists)
        self.scores = {side: {"ARI": float(adjusted_rand_index(g, lab)),
                              "NMI": float(normalized_mutual_information(g, lab)),
                              "accuracy": raw_label_accuracy(g, lab)}
                       for side, lab in self.labels.items()}

    def name(self, side: str) -> str:
        """``"KMeans (k=2)"``: an algorithm with its main parameter."""
        p = self.params
        if p["source"] == "own labels":
            return f"column {p['own'].columns[side]}"
        algorithm = p[side]
        if algorithm == "DBSCAN":
            return f"DBSCAN (eps={p[side + '_eps']:g})"
        return f"{algorithm} (k={p[side + '_k']})"

    def measures(self) -> dict:
        """The five measures, named as in the paper, with the symbols of its formulas."""
        return {"comparative deviation σ_c": self.matrix.comparative_deviation,
                "polarization α": self.matrix.polarization,
                "comparative rightness ξ_c": self.matrix.comparative_rightness,
                "effective rightness ξ_e": self.matrix.effective_rightness,
                "effective superiority φ_e": self.matrix.effective_superiority}

    def _rows(self):
        m = self.matrix
        cells = [["BR (both right)", m.br], ["RW (primary right only)", m.rw],
                 ["WR (alternative right only)", m.wr], ["BW (both wrong)", m.bw]]
        measures = [[k, v] for k, v in self.measures().items()]
        scores = [[label, self.scores["primary"][k], self.scores["alternative"][k]]
                  for k, label in SCORE_LABELS.items()]
        return cells, measures, scores

    def summary(self) -> str:
        p = self.params
        cells, measures, scores = self._rows()
        data = (f"own labels from {p['own'].where} (truth: column {p['own'].columns['truth']}),"
                f" {p['own'].n} instances" if p["source"] == "own labels" else
                f"{p['dataset']}, {p['n_samples']} points, noise {p['noise']:g}, seed {p['seed']}")
        head = (f"{self.title}: {data}; primary {self.name('primary')} vs "
                f"alternative {self.name('alternative')} ({self.matrix.n_pairs:,} pairs)")
        return "\n".join([head, "", text_table(["Prayatul matrix", "pairs"], cells), "",
                          text_table(["measure (primary vs alternative)", "value"], measures),
                          "", text_table(["against the truth", "primary", "alternative"],
                                         scores)])

    def numbers_html(self, measures: bool = True) -> str:
        """The numbers' tables; ``measures=False`` leaves the five measures out (the
        reveal derives them step by step: the projector does not give the steps away)."""
        cells, rows, scores = self._rows()
        return ('<div style="display: flex; flex-wrap: wrap">'
                # lecture mode: the four cells are the heatmap's, digit for digit
                + ("" if self.lecture else html_table(["cell", "pairs"], cells,
                                                      "Prayatul matrix"))
                + (html_table(["measure", "value"], rows, "The five measures")
                   if measures else "")
                + html_table(["", self.name("primary"), self.name("alternative")], scores,
                             "Each against the truth")
                + "</div>")

    def figure(self):
        from matplotlib.ticker import MaxNLocator


        if self.X is None:                  # own labels: no points to draw
            fig = self.new_figure((11.0, 3.5), (8.0, 5.4))
            if self.lecture:                # one above the other: 16 pt text fits
                axes = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 1.3]})
            else:
                axes = fig.subplots(1, 2, gridspec_kw={"width_ratios": [2.4, 1]})
                fig.subplots_adjust(left=0.08, right=0.98, bottom=0.16, top=0.88, wspace=0.3)
            plot_instance_balance(self.by_instance, ax=axes[0],
                                  title="RW (blue) vs WR (vermillion) per instance")
            plot_prayatul_matrix(self.matrix, ax=axes[1], title="Prayatul matrix")
            if self.lecture:
                _short_matrix_labels(axes[1])
            return self.fit_text(fig)
        fig = self.new_figure((14.0, 3.5), (8.0, 5.4))
        if self.lecture:                            # two rows of two: 16 pt text fits
            axes = fig.subplots(2, 2).ravel()
        else:
            axes = fig.subplots(1, 4, gridspec_kw={"width_ratios": [1, 1, 1.2, 1]})
            fig.subplots_adjust(left=0.02, right=0.98, bottom=0.14, top=0.88, wspace=0.45)
        for ax, side in zip(axes, ("primary", "alternative")):
            plot_clustering(self.X, self.labels[side], ax=ax,
                            title=f"{side}: {self.name(side)}", size=5)
            update_scatter(ax, self.X, self.labels[side], f"{side}: {self.name(side)}")
        plot_instance_map(self.X, self.by_instance, ax=axes[2], title="RW (blue) vs WR (red)",
                          size=5)
        # five ticks on the colour bar (redrawn on every update) read as well as nine
        axes[2].collections[0].colorbar.locator = MaxNLocator(nbins=4)
        plot_prayatul_matrix(self.matrix, ax=axes[3], title="Prayatul matrix")
        if self.lecture:                # shorter labels, which fit at 16 pt
            axes[2].collections[0].colorbar.set_label("(RW - WR) / pairs")
            _short_matrix_labels(axes[3])
        return self.fit_text(fig)

    def describe_figure(self) -> str:
        m, p = self.matrix, self.params
        if self.X is None:
            return (f"Two panels on the lecturer's own labels ({p['own'].n} instances). Left: a "
                    "bar per instance, x1 to xN, above zero (blue) where the primary, "
                    f"{self.name('primary')}, is more often right about the instance's pairs, "
                    f"below zero (vermillion) where the alternative, {self.name('alternative')},"
                    " is. Right: the Prayatul matrix of the pairs: "
                    f"BR = {fmt(m.br)}, RW = {fmt(m.rw)}, WR = {fmt(m.wr)}, BW = {fmt(m.bw)}.")
        return (f"Four panels on the {p['dataset']} data ({p['n_samples']} points). Left: the "
                f"points coloured by the primary clustering, {self.name('primary')}, and by "
                f"the alternative, {self.name('alternative')}. Then a map of the points, "
                "blue where the primary is more often right about a point's pairs, red where "
                "the alternative is. Right: the Prayatul matrix of the pairs: "
                f"BR = {fmt(m.br)}, RW = {fmt(m.rw)}, WR = {fmt(m.wr)}, BW = {fmt(m.bw)}.")

    def redraw(self, fig):
        """Show the current results in ``fig`` (made by :meth:`figure`), reusing its Axes.

        Building four Axes costs more than drawing them, so the app updates the
        points' positions and colours, the heatmap's colours and counts in place,
        and only those (with the titles and the colour bar) are drawn again, over
        the rest of the figure kept as pixels.
        """
        if fig is None or len(fig.axes) != 5 or self.X is None:   # 4 panels + colour bar
            return self.figure()
        axes = fig.axes
        for ax, side in zip(axes[:2], ("primary", "alternative")):
            title = f"{side}: {self.name(side)}"
            shows = getattr(ax, "shows", (None, None, None))
            if shows[0] is not self.labels[side] or shows[1] is not self.X or shows[2] != title:
                update_scatter(ax, self.X, self.labels[side], title)   # only a side that changed
                ax.shows = (self.labels[side], self.X, title)
        balance = instance_balance(self.by_instance)
        order = np.argsort(np.abs(balance))
        points = axes[2].collections[0]
        points.set_offsets(self.X[order])
        points.set_array(balance[order])    # on the fixed scale [-1, 1]: colour bar kept
        rescale(axes[2], self.X)
        _update_matrix(axes[3], self.matrix)
        self.layers.declare(fig, ("Prayatul explorer",),
                            [*scatter_artists(axes[0]), *scatter_artists(axes[1]), points,
                             *axes[3].images, *axes[3].texts])
        return fig


def _short_matrix_labels(ax) -> None:
    """The heatmap's axis labels short enough for 16 pt text (lecture mode)."""
    ax.set_xticks([0, 1], ["right", "wrong"])
    ax.set_yticks([0, 1], ["right", "wrong"])
    ax.set_xlabel("alternative")
    ax.set_ylabel("primary")


def _update_matrix(ax, matrix) -> None:
    """Make a :func:`~prayatul_edu.plots.plot_prayatul_matrix` heatmap show ``matrix``,
    in place: its four cells' colours and texts (a test checks they equal a fresh plot's)."""
    image, texts, colors = prayatul_cells(matrix)
    for artist, text, color in zip(ax.texts, texts, colors):
        artist.set_text(text)
        artist.set_color(color)
    ax.images[0].set_data(image)


class PrayatulExplorer(App):
    """The Prayatul explorer's widgets, bound to a :class:`PrayatulModel`.

    >>> from prayatul_edu.widgets import PrayatulExplorer
    >>> app = PrayatulExplorer(n_samples=100)
    >>> app.control("alternative").value = "KMeans"
    >>> app.model.params["alternative"], app.control("alternative eps").layout.display
    ('KMeans', 'none')
    """

    model_class = PrayatulModel

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "initial"}
        narrow = W.Layout(width="230px")
        controls = {"source": W.ToggleButtons(options=["toy data", "own labels"],
                                              value=p["source"], description="labels from",
                                              style={**style, "button_width": "auto"})}
        controls.update(data_controls(p, 50, 3000, 50))
        self.own = LabelSourcePanel(self.model.ROLES, self._use_own)
        controls["source"].observe(lambda change: self._show_source(change["new"]),
                                   names="value")
        self.steps = RevealToggle(lambda on: self.refresh())
        controls["noise"] = W.FloatSlider(value=p["noise"], min=0.0, max=0.3, step=0.01,
                                          description="noise", continuous_update=False,
                                          style=style,
                                          tooltip="only the noisy circles and moons have noise")
        for side in ("primary", "alternative"):
            controls[side] = W.Dropdown(options=list(ALGORITHMS), value=p[side],
                                        description=side, style=style, layout=narrow)
            controls[f"{side}_k"] = W.IntSlider(value=p[f"{side}_k"], min=1, max=10,
                                                description=f"{side} k",
                                                continuous_update=False, style=style)
            controls[f"{side}_eps"] = W.FloatSlider(value=p[f"{side}_eps"], min=0.05, max=1.0,
                                                    step=0.01, description=f"{side} eps",
                                                    continuous_update=False, style=style)
        return controls

    def _use_own(self, own) -> None:
        """The lecturer's labels chosen in the panel (an error there if refused)."""
        self.model.set(**{**self.pending, "source": "own labels", "own": own})
        self.pending.clear()
        self.refresh()

    def _show_source(self, source: str) -> None:
        """Own labels: the panel to load them, no data set or algorithm controls. Toy data:
        those controls, each algorithm with only its main parameter (k, or eps for DBSCAN)."""
        own = source == "own labels"
        self.own.widget.layout.display = None if own else "none"
        # own labels chosen, none loaded: no toy figure (the message says what to do)
        self._show_results(not own or self.model.params["source"] == "own labels")
        p = self.model.params
        for name, control in self.controls.items():
            side = name.rsplit("_", 1)[0]
            hidden = own and name != "source" or (
                name.endswith("_k") and p[side] == "DBSCAN"
                or name.endswith("_eps") and p[side] != "DBSCAN")
            control.layout.display = "none" if hidden else None

    def refresh(self) -> None:
        super().refresh()
        self.steps.show(self.model.matrix)

    def _numbers_html(self) -> str:
        return self.model.numbers_html(measures=not self.steps.on)

    def _sync_controls(self) -> None:
        super()._sync_controls()
        self.controls["noise"].disabled = self.model.params["dataset"] not in NOISY_DATASETS
        self._show_source(self.model.params["source"])

    def _extra_rows(self) -> list:
        return [self.own.widget]

    def _extra_below(self) -> list:
        return [self.steps.widget]

    def _control_rows(self) -> list:
        import ipywidgets as W

        c = self.controls
        data = W.HBox([c["dataset"], c["n_samples"], c["noise"], c["seed"]],
                      layout=W.Layout(flex_flow="row wrap"))
        sides = W.HBox([W.VBox([c[s], c[f"{s}_k"], c[f"{s}_eps"]])
                        for s in ("primary", "alternative")])
        return [c["source"], data, sides]
