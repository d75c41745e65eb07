"""Contingency explorer: edit labels or counts; purity, matching, F, entropy, NMI,
clustering ratio and clustering error update.

Type the classes and the clusters of a few instances (or the contingency table
itself, or paste / upload your own labels and choose the columns) and every
measure of the contingency family updates, with the derivation of the one
chosen (whole, or step by step with "reveal step by step").

>>> from prayatul_edu.widgets import ContingencyModel
>>> m = ContingencyModel()                      # the tutorial's Exercise 2
>>> m.values()["purity"]
0.5
>>> m.set(mode="table", table="50 100 0; 10 1000 50; 100 90 150").values()["purity"] == 1250 / 1550
True
"""
from __future__ import annotations

from .. import (
    cluster_entropy,
    clustering_error,
    clustering_ratio,
    contingency_table,
    f_measure,
    labels_from_table,
    maximum_matching,
    normalized_mutual_information,
    purity,
)
from .._validation import check_choice
from ..plots.contingency import plot_contingency_table, set_contingency_counts
from .app import App, labels_controls
from .inputs import parse_counts
from .label_source import LabelSourcePanel, check_own, own_inputs
from .model import LabelsModel
from .reveal import RevealToggle

__all__ = ["ContingencyModel", "ContingencyExplorer"]


def _measures() -> dict:
    return {"contingency table": contingency_table, "purity": purity,
            "maximum matching": maximum_matching, "F-measure": f_measure,
            "entropy": cluster_entropy,
            "NMI (geometric mean)": normalized_mutual_information,
            "clustering ratio": clustering_ratio, "clustering error": clustering_error}


class ContingencyModel(LabelsModel):
    """The contingency family on typed-in labels (``mode="labels"``) or a typed table.

    Parameters: ``mode`` ("labels", "table" or "own labels"), ``truth`` and ``pred``
    (labels separated by spaces or commas), ``table`` (rows = clusters separated by
    ``;``, columns = classes), ``own`` (a lecturer's labels:
    :class:`~prayatul_edu.widgets.label_source.OwnLabels` with ``truth`` and ``pred``),
    ``show`` (whose derivation to show).
    Results: ``results`` (name -> the library's result), ``values()``.
    """

    title = "Contingency explorer"
    MEASURES = {name: None for name in ("contingency table", "purity", "maximum matching",
                                         "F-measure", "entropy", "NMI (geometric mean)",
                                         "clustering ratio", "clustering error")}
    DEFAULTS = {"mode": "labels",
                "truth": "1 3 2 1 3 3 2 2 1 2",        # the tutorial's Exercise 2
                "pred": "1 2 3 1 2 1 2 2 3 1",
                "table": "50 100 0; 10 1000 50; 100 90 150",   # the lecture's example
                "show": "purity", "own": None}
    ROLES = ("truth", "pred")

    def __init__(self, **params):
        self.MEASURES = _measures()
        super().__init__(**params)

    def _check(self, name, value):
        if name == "mode":
            return check_choice(value, name, ("labels", "table", "own labels"))
        if name == "own":
            return check_own(value, self.ROLES)
        if name == "table":
            parse_counts(value, name)
            return value
        return super()._check(name, value)

    def _inputs(self):
        if self.params["mode"] == "table":
            return labels_from_table(parse_counts(self.params["table"], "table"))
        if self.params["mode"] == "own labels":
            return own_inputs(self.params["own"], self.ROLES)
        return super()._inputs()

    def _facts(self) -> str:
        t = self.results["contingency table"]
        return f"{t.n} instances, {t.shape[0]} clusters x {t.shape[1]} classes"

    def _highlight(self) -> dict:
        """What the figure frames: each cluster's majority class, or the matched cells."""
        if self.params["show"] == "maximum matching":
            return {"highlight": "matching",
                    "matching": self.results["maximum matching"].pairs}
        return {"highlight": "purity", "matching": None}

    def _layout_key(self) -> str:
        """What fixes the figure's layout: shape, row and column names, what is framed and
        how many cells (an update that keeps them changes the figure in place)."""
        t, marks = self.results["contingency table"], self._highlight()
        frames = t.shape[0] if marks["matching"] is None else len(marks["matching"])
        return repr((t.shape, [str(c) for c in t.clusters], [str(c) for c in t.classes],
                     marks["highlight"], frames))

    def figure(self):
        t = self.results["contingency table"]
        r, k = t.shape
        fig = self.new_figure((min(1.6 + 0.75 * k, 9.0), min(1.3 + 0.5 * r, 6.0)),
                              (min(2.6 + 1.1 * k, 8.0), min(2.2 + 0.8 * r, 5.6)))
        ax = fig.subplots()
        marks = self._highlight()
        plot_contingency_table(t, ax=ax, **marks, title="matched cells" if marks["matching"]
                               is not None else "majority class per cluster")
        fig.subplots_adjust(left=0.22, bottom=0.22, right=0.97, top=0.88)
        fig.shows = self._layout_key()
        return self.fit_text(fig)

    def redraw(self, fig):
        """The same layout (shape, names, what is framed): the colours, the counts in the
        cells and the frames change in place and only they are drawn again."""
        key = self._layout_key()
        if fig is None or getattr(fig, "shows", None) != key:
            return self.figure()
        ax = fig.axes[0]
        mesh, *rest = set_contingency_counts(ax, self.results["contingency table"],
                                             **self._highlight())
        frames = [a for a in rest if a not in ax.texts]
        # in the order Axes.draw draws them: heatmap, frames, axes' edges, counts
        self.layers.declare(fig, ("table", key), [mesh, *frames, *ax.spines.values(),
                                                  *ax.texts])
        return fig

    def describe_figure(self) -> str:
        t = self.results["contingency table"]
        marked = ("the cells of the maximum matching" if self.params["show"] ==
                  "maximum matching" else "each cluster's majority class")
        return (f"The contingency table of {t.n} instances as a heatmap: {t.shape[0]} clusters "
                f"(rows) by {t.shape[1]} classes (columns), each cell's count written in it, "
                f"{marked} outlined.")


class ContingencyExplorer(App):
    """The contingency explorer's widgets, bound to a :class:`ContingencyModel`."""

    model_class = ContingencyModel

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "110px"}
        mode = W.ToggleButtons(options=["labels", "table", "own labels"], value=p["mode"],
                               description="edit", style=style)
        self.own = LabelSourcePanel(self.model.ROLES, self._use_own,
                                    {"truth": "classes (truth)", "pred": "clusters"})
        mode.observe(lambda change: self._show_mode(change["new"]), names="value")
        self.steps = RevealToggle(lambda on: self.refresh())
        controls = labels_controls(self.model)
        table = W.Textarea(value=p["table"], description="counts n_ij",
                           placeholder="one row per cluster; rows separated by ;",
                           layout=W.Layout(width="520px", height="70px"), style=style,
                           continuous_update=False)
        return {"mode": mode, **{k: controls[k] for k in ("truth", "pred")}, "table": table,
                "show": controls["show"]}

    def _use_own(self, own) -> None:
        """The lecturer's labels chosen in the panel (an error there if refused)."""
        self.model.set(**{**self.pending, "mode": "own labels", "own": own})
        self.pending.clear()
        self.refresh()

    def _show_mode(self, mode: str) -> None:
        """The boxes of ``mode`` shown, the others hidden (also while it waits for labels)."""
        for name in ("truth", "pred"):
            self.controls[name].layout.display = None if mode == "labels" else "none"
        self.controls["table"].layout.display = None if mode == "table" else "none"
        self.own.widget.layout.display = None if mode == "own labels" else "none"
        # own labels chosen, none loaded: no figure of the other labels (the message says
        # what to do)
        self._show_results(mode != "own labels" or self.model.params["mode"] == "own labels")

    def _sync_controls(self) -> None:
        super()._sync_controls()
        self._show_mode(self.model.params["mode"])

    def _numbers_html(self) -> str:
        # with the reveal on, the derivation comes step by step below, not all at once here
        return self.model.numbers_html(derivation=not self.steps.on)

    def refresh(self) -> None:
        super().refresh()
        self.steps.show(self.model.results[self.model.params["show"]])

    numbers_beside = True

    def _control_rows(self) -> list:
        return [self._with_error(n) for n in self.controls]

    def _extra_rows(self) -> list:
        return [self.own.widget]

    def _extra_below(self) -> list:
        return [self.steps.widget]
