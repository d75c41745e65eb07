"""An app's model: its parameters, checked, the results they give, and how to show them.

A model is pure Python (no ipywidgets): ``set(**changes)`` changes some
parameters and recomputes, the results are attributes, ``summary()`` gives the
numbers as plain text, ``numbers_html()`` as HTML and ``figure()`` a matplotlib
Figure. Tests and notebooks drive a model directly; an
:class:`~prayatul_edu.widgets.app.App` binds controls to it.
"""
from __future__ import annotations

from .._validation import check_choice
from .inputs import parse_labels
from .rendering import LECTURE_DPI, FigureLayers, lecture_text, new_figure
from .tables import html_pre, html_table, text_table

__all__ = ["Model", "LabelsModel"]


class Model:
    """Base of the apps' models: named parameters, validated, and a recompute.

    Subclasses set ``DEFAULTS`` (parameter -> default value), implement
    ``_check(name, value)`` (return the cleaned value or raise a ValueError /
    TypeError naming the parameter) and ``_compute()``; ``summary()``,
    ``numbers_html()`` and ``figure()`` show the results. ``layers`` says which
    artists of the figure the last ``redraw`` changed (see
    :class:`~prayatul_edu.widgets.rendering.FigureLayers`).
    """

    DEFAULTS: dict = {}
    title = "app"
    #: Lecture mode (set by the app): figures for a projector, text >= 16 pt as shown.
    lecture = False

    def __init__(self, **params):
        self.layers = FigureLayers()
        self.params = dict(self.DEFAULTS)
        self.set(**params)

    def set(self, **changes) -> "Model":
        """Change some parameters and recompute; on a bad value nothing changes."""
        unknown = sorted(set(changes) - set(self.DEFAULTS))
        if unknown:
            raise TypeError(f"{unknown[0]}: not a parameter of the {self.title}; "
                            f"choose from {', '.join(self.DEFAULTS)}")
        new = dict(self.params)
        for name, value in changes.items():
            new[name] = self._check(name, value)
        old, self.params = self.params, new
        try:
            self._compute()
        except Exception:
            self.params = old
            self._compute()
            raise
        return self

    def __getattr__(self, name):
        params = self.__dict__.get("params")
        if params is not None and name in params:
            return params[name]
        raise AttributeError(name)

    def _check(self, name, value):  # pragma: no cover - overridden
        return value

    def _compute(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def summary(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def numbers_html(self) -> str:
        return html_pre(self.summary())

    def figure(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def new_figure(self, size: tuple, lecture_size: tuple):
        """An empty figure of ``size`` inches, or in lecture mode of ``lecture_size`` inches
        at twice the screen's density (the app shows it at its size in inches)."""
        if self.lecture:
            return new_figure(*lecture_size, dpi=LECTURE_DPI)
        return new_figure(*size)

    def fit_text(self, fig, pad: float = 0.4, passes: int = 1):
        """In lecture mode: every text of the new ``fig`` at least 16 pt, the panels
        rearranged once so that it fits (the updates keep that arrangement).

        ``passes=2`` arranges them twice: a colour bar's ticks and label are placed
        where the first arrangement put the bar, so only a second one leaves them room.
        """
        if self.lecture:
            lecture_text(fig)
            for _ in range(passes):
                fig.tight_layout(pad=pad)
        return fig

    def describe_figure(self) -> str:
        """What the figure shows, in words (the image's alternative text)."""
        return f"The {self.title}'s figure."

    def redraw(self, fig):
        """The figure for the current results; ``fig`` is the previous one (apps reuse
        it where redrawing in place is faster than building a new one, and declare
        what they changed in ``self.layers``)."""
        return self.figure()

    def png(self, fig) -> bytes:
        """``fig`` (from :meth:`redraw`) as the PNG the app shows."""
        if self.lecture:
            lecture_text(fig)         # what redraw wrote anew (titles, notes) at 16 pt too
        return self.layers.png(fig)

    def __repr__(self) -> str:
        return self.summary()


class LabelsModel(Model):
    """A model on two labellings typed as text (``truth``, ``pred``), showing several
    measures and the derivation of the one chosen in ``show``.

    Subclasses set ``MEASURES`` (display name -> function of ``(truth, pred)``) and
    may override :meth:`_inputs` (e.g. to read a table of counts instead).
    """

    MEASURES: dict = {}

    def _check(self, name, value):
        if name in ("truth", "pred"):
            parse_labels(value, name)               # a clear error now, not later
            return value
        if name == "show":
            return check_choice(value, name, self.MEASURES)
        return value

    def _inputs(self):
        return parse_labels(self.params["truth"], "truth"), parse_labels(self.params["pred"],
                                                                         "pred")

    def _compute(self) -> None:
        self.truth_labels, self.pred_labels = self._inputs()
        truth, pred = self.truth_labels, self.pred_labels
        if truth.shape[0] != pred.shape[0]:
            raise ValueError(f"pred: has {pred.shape[0]} labels but the classes (truth) have "
                             f"{truth.shape[0]} (one label per instance in each)")
        self.results = {name: f(truth, pred) for name, f in self.MEASURES.items()}

    def values(self) -> dict:
        """The scalar results by display name."""
        return {k: float(v) for k, v in self.results.items() if isinstance(v, float)}

    def _facts(self) -> str:
        """What the numbers are of: the numbers' caption (the app's title is above it)."""
        return f"{self.truth_labels.shape[0]} instances"

    def _head(self) -> str:
        """The summary's first line: the app's title, then :meth:`_facts`."""
        return f"{self.title}: {self._facts()}"

    def _value_rows(self) -> list:
        """``[name, value]`` per scalar result; subclasses may say why a value is nan."""
        return [[k, v] for k, v in self.values().items()]

    def summary(self) -> str:
        rows = self._value_rows()
        return "\n".join([self._head(), "", text_table(["measure", "value"], rows)])

    def numbers_html(self, derivation: bool = True) -> str:
        """The values and (unless ``derivation=False``) the derivation chosen in ``show``."""
        rows = self._value_rows()
        shown = self.results[self.params["show"]]
        return ('<div style="display: flex; flex-wrap: wrap; align-items: flex-start">'
                + html_table(["measure", "value"], rows, self._facts())
                + (f"<div>{html_pre(shown.explain())}</div>" if derivation else "")
                + "</div>")
