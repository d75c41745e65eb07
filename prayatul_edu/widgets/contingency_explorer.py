"""Contingency explorer: edit labels or counts; purity, matching, F, entropy, NMI,
clustering ratio and clustering error update.

Type the classes and the clusters of a few instances (or the contingency table
itself) and every measure of the contingency family updates, with the
derivation of the one chosen.

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
from ..plots.contingency import plot_contingency_table
from .app import App, labels_controls
from .inputs import parse_counts
from .model import LabelsModel
from .rendering import new_figure

__all__ = ["ContingencyModel", "ContingencyExplorer"]


def _measures() -> dict:
    return {"contingency table": contingency_table, "purity": purity,
            "maximum matching": maximum_matching, "F-measure": f_measure,
            "entropy": cluster_entropy,
            "NMI (geometric mean)": normalized_mutual_information,
            "clustering ratio": clustering_ratio, "clustering error": clustering_error}


class ContingencyModel(LabelsModel):
    """The contingency family on typed-in labels (``mode="labels"``) or a typed table.

    Parameters: ``mode`` ("labels" or "table"), ``truth`` and ``pred`` (labels
    separated by spaces or commas), ``table`` (rows = clusters separated by ``;``,
    columns = classes), ``show`` (whose derivation to show).
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
                "show": "purity"}

    def __init__(self, **params):
        self.MEASURES = _measures()
        super().__init__(**params)

    def _check(self, name, value):
        if name == "mode":
            return check_choice(value, name, ("labels", "table"))
        if name == "table":
            parse_counts(value, name)
            return value
        return super()._check(name, value)

    def _inputs(self):
        if self.params["mode"] == "table":
            return labels_from_table(parse_counts(self.params["table"], "table"))
        return super()._inputs()

    def _head(self) -> str:
        t = self.results["contingency table"]
        return (f"{self.title}: {t.n} instances, {t.shape[0]} clusters x {t.shape[1]} "
                "classes")

    def figure(self):
        t = self.results["contingency table"]
        r, k = t.shape
        fig = new_figure(min(1.6 + 0.75 * k, 9.0), min(1.3 + 0.5 * r, 6.0))
        ax = fig.subplots()
        if self.params["show"] == "maximum matching":
            plot_contingency_table(t, ax=ax, highlight="matching",
                                   matching=self.results["maximum matching"].pairs,
                                   title="matched cells")
        else:
            plot_contingency_table(t, ax=ax, highlight="purity", title="majority class per cluster")
        fig.subplots_adjust(left=0.22, bottom=0.22, right=0.97, top=0.88)
        return fig


class ContingencyExplorer(App):
    """The contingency explorer's widgets, bound to a :class:`ContingencyModel`."""

    model_class = ContingencyModel

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "110px"}
        mode = W.ToggleButtons(options=["labels", "table"], value=p["mode"],
                               description="edit", style=style)
        controls = labels_controls(self.model)
        table = W.Textarea(value=p["table"], description="counts n_ij",
                           placeholder="one row per cluster; rows separated by ;",
                           layout=W.Layout(width="520px", height="70px"), style=style,
                           continuous_update=False)
        return {"mode": mode, **{k: controls[k] for k in ("truth", "pred")}, "table": table,
                "show": controls["show"]}

    def _sync_controls(self) -> None:
        super()._sync_controls()
        table = self.model.params["mode"] == "table"
        for name in ("truth", "pred"):
            self.controls[name].layout.display = "none" if table else None
        self.controls["table"].layout.display = None if table else "none"

    def _layout(self):
        import ipywidgets as W

        return W.VBox([W.HTML(f"<b>{self.model.title}</b>"), *(self._with_error(n) for n in self.controls),
                       self.message, W.HBox([self.image, self.numbers])])
