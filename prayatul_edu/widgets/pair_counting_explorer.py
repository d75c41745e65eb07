"""Pair-counting explorer: the ideal class and cluster similarity matrices side by side.

Every pair of instances is TP (same class, same cluster), FP, FN or TN; the
two ideal similarity matrices show them as coloured cells, and Rand, Jaccard,
Fowlkes-Mallows, ARI and the Hubert statistic follow from the four counts.

>>> from prayatul_edu.widgets import PairCountingModel
>>> m = PairCountingModel()                     # the tutorial's Exercise 3
>>> p = m.results["pair counts"]
>>> (p.tp, p.fp, p.fn, p.tn), m.values()["Rand"]
((2, 0, 0, 8), 1.0)
"""
from __future__ import annotations

from .. import (
    adjusted_rand_index,
    fowlkes_mallows_index,
    hubert_statistic,
    jaccard_index,
    pair_confusion,
    rand_index,
)
from .._validation import check_choice
from ..plots.pairs import plot_similarity_matrices, set_similarity_matrices
from ..steps import fmt
from .app import App, labels_controls
from .model import LabelsModel

__all__ = ["PairCountingModel", "PairCountingExplorer"]


def _measures() -> dict:
    return {"pair counts": pair_confusion, "Rand": rand_index, "Jaccard": jaccard_index,
            "Fowlkes-Mallows": fowlkes_mallows_index, "ARI": adjusted_rand_index,
            "Hubert": hubert_statistic}


class PairCountingModel(LabelsModel):
    """Pair counts and the pair-counting measures of typed-in labels.

    Parameters: ``truth``, ``pred`` (labels separated by spaces or commas),
    ``order`` ("as given" or "by class": the order of the matrices' rows),
    ``show`` (whose derivation to show).
    """

    title = "Pair-counting explorer"
    MEASURES = {name: None for name in ("pair counts", "Rand", "Jaccard", "Fowlkes-Mallows",
                                         "ARI", "Hubert")}
    DEFAULTS = {"truth": "1 3 2 1 3", "pred": "1 2 3 1 2",     # the tutorial's Exercise 3
                "order": "as given", "show": "pair counts"}

    def __init__(self, **params):
        self.MEASURES = _measures()
        super().__init__(**params)

    def _check(self, name, value):
        if name == "order":
            return check_choice(value, name, ("as given", "by class"))
        return super()._check(name, value)

    def _head(self) -> str:
        p = self.results["pair counts"]
        return (f"{self.title}: {p.n} instances, {p.n_pairs} pairs: TP = {p.tp}, "
                f"FP = {p.fp}, FN = {p.fn}, TN = {p.tn}")

    def _value_rows(self) -> list:
        """Hubert's Γ is the correlation of the two same-group indicators over the pairs:
        undefined (nan) when one of them is constant, and the row says which."""
        rows = super()._value_rows()
        p = self.results["pair counts"]
        why = []
        if p.tp + p.fn in (0, p.n_pairs):
            why.append("truth puts " + ("no pair" if p.tp + p.fn == 0 else "every pair")
                       + " together")
        if p.tp + p.fp in (0, p.n_pairs):
            why.append("clusters put " + ("no pair" if p.tp + p.fp == 0 else "every pair")
                       + " together")
        for row in rows:
            if row[0] == "Hubert" and why:
                row[1] = f"nan (undefined: {' and '.join(why)})"
        return rows

    def _order(self):
        return "class" if self.params["order"] == "by class" else None

    def figure(self):
        fig = self.new_figure((8.0, 4.4), (8.0, 5.4))
        axes = fig.subplots(1, 2)
        # lecture mode: room below the tick labels for the legend and its title at 16 pt
        fig.subplots_adjust(left=0.06, right=0.98, bottom=0.25 if self.lecture else 0.14,
                            top=0.92, wspace=0.2)
        plot_similarity_matrices(self.truth_labels, self.pred_labels, axes=axes,
                                 order=self._order())
        fig.shows = self.truth_labels.shape[0]
        return self.fit_text(fig)

    def describe_figure(self) -> str:
        p = self.results["pair counts"]
        order = "sorted by class" if self._order() else "in the order given"
        return (f"Two {p.n} by {p.n} pair matrices, instances {order}: left, which pairs "
                "share a class; right, which pairs share a cluster; each pair coloured by "
                f"its type: TP = {fmt(p.tp)}, FP = {fmt(p.fp)}, FN = {fmt(p.fn)}, "
                f"TN = {fmt(p.tn)}.")

    def redraw(self, fig):
        """As many instances, the same drawn (and named) in the same order: the two
        images, the 0/1 in the cells and the legend's counts change in place and only
        they are drawn again."""
        n = self.truth_labels.shape[0]
        if fig is None or getattr(fig, "shows", None) != n:
            return self.figure()
        try:
            changed = set_similarity_matrices(fig, self.truth_labels, self.pred_labels,
                                              order=self._order())
        except ValueError:          # other instances named (rows sorted by class anew)
            return self.figure()
        self.layers.declare(fig, ("pairs", n), changed)
        return fig


class PairCountingExplorer(App):
    """The pair-counting explorer's widgets, bound to a :class:`PairCountingModel`."""

    model_class = PairCountingModel

    def _build_controls(self) -> dict:
        import ipywidgets as W

        order = W.ToggleButtons(options=["as given", "by class"],
                                value=self.model.params["order"], description="rows",
                                style={"description_width": "110px"})
        return labels_controls(self.model, {"order": order})

    def _control_rows(self) -> list:
        return [self._with_error(n) for n in self.controls]
