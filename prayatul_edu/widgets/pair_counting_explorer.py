"""Pair-counting explorer: the ideal class and cluster similarity matrices side by side.

Every pair of instances is TP (same class, same cluster), FP, FN or TN; the
two ideal similarity matrices show them as coloured cells, and Rand, Jaccard,
Fowlkes-Mallows, ARI and the Hubert statistic follow from the four counts.
On the projector (lecture mode) every pair {x_a, x_b} stands beside the figure as
one small cell of a triangle, named and coloured by its kind, with the class and
the cluster of x_a and x_b at its row and column: a hand count checked pair by pair
at a glance; "reveal step by step" shows the derivation instead.

>>> from prayatul_edu.widgets import PairCountingModel
>>> m = PairCountingModel()                     # the tutorial's Exercise 3
>>> p = m.results["pair counts"]
>>> (p.tp, p.fp, p.fn, p.tn), m.values()["Rand"]
((2, 0, 0, 8), 1.0)
"""
from __future__ import annotations

import html

from .. import (
    adjusted_rand_index,
    fowlkes_mallows_index,
    hubert_statistic,
    jaccard_index,
    pair_confusion,
    rand_index,
)
from .._validation import check_choice
from ..counting import PAIR_LIST_MAX_N
from ..pair_counting import PairConfusion
from ..plots._style import PAIR_COLORS, text_color_on
from ..plots.pairs import PAIR_TYPES, pair_types, plot_similarity_matrices, set_similarity_matrices
from ..steps import fmt
from .app import App, labels_controls
from .model import LabelsModel
from .reveal import RevealToggle

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

    def _facts(self) -> str:
        p = self.results["pair counts"]
        return (f"{p.n} instances, {p.n_pairs} pairs: TP = {p.tp}, FP = {p.fp}, "
                f"FN = {p.fn}, TN = {p.tn}")

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

    def pairs_html(self) -> str:
        """Every pair {x_a, x_b}, a < b, as one cell of a triangle: row x_a, column x_b,
        the cell named and coloured by the pair's kind (TP, FP, FN, TN; the figure's
        colours), the class and the cluster of each instance beside its row and above its
        column. Up to ``PAIR_LIST_MAX_N`` instances (the derivation's list of pairs);
        beyond, a sentence (the figure colours every pair)."""
        truth, pred = self.truth_labels, self.pred_labels
        n = truth.shape[0]
        if n > PAIR_LIST_MAX_N:
            return (f'<p class="pe-pairs-note">{n} instances: {n * (n - 1) // 2:,} pairs, '
                    "too many to show one by one here; the figure colours every pair by "
                    "its kind.</p>")
        kinds = pair_types(truth, pred)
        esc = lambda v: html.escape(str(v))          # noqa: E731 - a label as text
        def row(first: str, values) -> str:
            return (f'<tr><th></th><th></th><th class="pe-pairs-role">{first}</th>'
                    + "".join(f"<td>{esc(v)}</td>" for v in values) + "</tr>")

        rows = ['<tr><th></th><th class="pe-pairs-role">class</th>'
                '<th class="pe-pairs-role">cluster</th>'
                + "".join(f"<th>x{b + 1}</th>" for b in range(1, n)) + "</tr>",
                row("class", truth[1:]), row("cluster", pred[1:])]
        for a in range(n - 1):
            cells = []
            for b in range(1, n):
                if b <= a:
                    cells.append("<td></td>")
                    continue
                kind = PAIR_TYPES[kinds[a, b]]
                back = PAIR_COLORS[kind]
                cells.append(f'<td class="pe-pair" style="background: {back}; color: '
                             f'{text_color_on(back)}" title="{{x{a + 1}, x{b + 1}}}: '
                             f'{kind}">{kind}</td>')
            rows.append(f"<tr><th>x{a + 1}</th><td>{esc(truth[a])}</td>"
                        f"<td>{esc(pred[a])}</td>{''.join(cells)}</tr>")
        return ('<table class="pe-table pe-pairs"><caption style="text-align: left; '
                'font-weight: bold">Every pair {x_a, x_b}, a &lt; b</caption>'
                + "".join(rows) + "</table>")

    def shown_result(self):
        """The result whose derivation is shown: for the pair counts, the counting from
        the contingency table without the list of every pair (:meth:`pairs_html` shows
        the pairs)."""
        shown = self.results[self.params["show"]]
        if isinstance(shown, PairConfusion):
            return PairConfusion(shown.tp, shown.fp, shown.fn, shown.tn, shown.table)
        return shown

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
        self.steps = RevealToggle(lambda on: self.refresh())
        return labels_controls(self.model, {"order": order})

    def _numbers_html(self) -> str:
        """The values, then (lecture mode) every pair at a glance, or with the reveal on,
        nothing more: the derivation comes step by step below. Outside lecture mode, the
        derivation whole (with its list of every pair) unless the reveal is on."""
        if not self.lecture:
            return self.model.numbers_html(derivation=not self.steps.on)
        return (self.model.numbers_html(derivation=False)
                + ("" if self.steps.on else self.model.pairs_html()))

    def refresh(self) -> None:
        super().refresh()
        self.steps.show(self.model.shown_result() if self.lecture
                        else self.model.results[self.model.params["show"]])

    def _control_rows(self) -> list:
        return [self._with_error(n) for n in self.controls]

    def _extra_below(self) -> list:
        return [self.steps.widget]
