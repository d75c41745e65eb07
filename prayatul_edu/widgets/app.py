"""An app's ipywidgets side: controls bound to a model by parameter name.

An app shows one control per parameter, an ``Image`` with the model's figure
and an ``HTML`` with its numbers. A bad value (e.g. unparsable labels) is shown
as a message beside the box it is about, never as a traceback. Tests drive
the controls exactly as a person would (``app.control("k").value = 4``).
"""
from __future__ import annotations

import html

from ..toydata import DATASETS
from .model import Model

__all__ = ["App", "ERROR_COLOR", "data_controls", "labels_controls"]

ERROR_COLOR = "#d55e00"     # Okabe-Ito vermillion: error messages in the apps


class App:
    """The ipywidgets side of an app: controls bound to a model by parameter name.

    Subclasses set ``model_class`` and implement ``_build_controls()``,
    returning ``{parameter: widget}``; every widget's ``description`` is the
    label a person sees (and what browser tests look for). ``_layout()``
    arranges them. Displaying the app shows the widget; its plain-text
    representation is the model's ``summary()``.
    """

    model_class = Model

    def __init__(self, model: Model | None = None, **params):
        import ipywidgets as W

        self.model = model if model is not None else self.model_class(**params)
        if model is not None and params:
            self.model.set(**params)
        self._syncing = False
        self.pending: dict = {}       # parameter -> typed value the model refused so far
        self.controls = self._build_controls()
        # an error message beside each text box (filled by _show_error)
        self.errors = {name: W.HTML() for name, c in self.controls.items()
                       if isinstance(c, (W.Text, W.Textarea))}
        self.image = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self.numbers = W.HTML()
        self.message = W.HTML()
        for name, control in self.controls.items():
            control.observe(self._on_change(name), names="value")
        self.widget = self._layout()
        self.refresh()

    # -- binding ------------------------------------------------------------
    def _on_change(self, name: str):
        def handler(change):
            if self._syncing:
                return
            # edits not applied yet (e.g. a new truth waiting for clusters of its length)
            # are tried again together with this one: never lost, never overwritten
            changes = {**self.pending, name: change["new"]}
            try:
                self.model.set(**changes)
            except (TypeError, ValueError) as exc:
                self.pending[name] = change["new"]
                self._show_error(exc)
                return
            self.pending.clear()
            self.refresh()
        return handler

    def _show_error(self, exc) -> None:
        """The error beside the box it is about (its message starts with the parameter's
        name), the boxes holding edits not yet applied marked as such, the figure and the
        numbers left as they were (they still show the last values that were valid)."""
        text = str(exc)
        about = text.split(":", 1)[0]
        self.message.value = (f'<span style="color: {ERROR_COLOR}">{html.escape(text)}'
                              "</span>" if about not in self.errors else "")
        for name, error in self.errors.items():
            if name == about:
                error.value = f'<span style="color: {ERROR_COLOR}">{html.escape(text)}</span>'
            elif name in self.pending:
                error.value = ('<span style="color: {0}">not applied yet: waiting for the '
                               "other box</span>".format(ERROR_COLOR))
            else:
                error.value = ""

    def control(self, description: str):
        """The control whose description (or parameter name) is ``description``."""
        for name, control in self.controls.items():
            if description in (name, control.description):
                return control
        raise KeyError(f"description: no control {description!r}; the controls are "
                       + ", ".join(repr(c.description) for c in self.controls.values()))

    def refresh(self) -> None:
        """Show the model's current numbers and figure; align the controls with it."""
        self.message.value = ""
        for error in self.errors.values():
            error.value = ""
        self._syncing = True
        try:
            self._sync_controls()
        finally:
            self._syncing = False
        self.numbers.value = self.model.numbers_html()
        self._figure = self.model.redraw(getattr(self, "_figure", None))
        self.image.value = self.model.png(self._figure)

    def _sync_controls(self) -> None:
        """Make every control show the model's value (ranges may depend on the model)."""
        for name, control in self.controls.items():
            if control.value != self.model.params[name]:
                control.value = self.model.params[name]

    def _with_error(self, name: str):
        """The control ``name``, with its error message beside it if it has one."""
        import ipywidgets as W

        if name not in self.errors:
            return self.controls[name]
        return W.HBox([self.controls[name], self.errors[name]])

    def _build_controls(self) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError

    def _layout(self):
        import ipywidgets as W

        box = W.HBox([self._with_error(n) for n in self.controls],
                     layout=W.Layout(flex_flow="row wrap"))
        return W.VBox([W.HTML(f"<b>{html.escape(self.model.title)}</b>"), box, self.message,
                       self.image, self.numbers])

    # -- display --------------------------------------------------------------
    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        bundle["text/plain"] = self.model.summary()
        return bundle

    def __repr__(self) -> str:
        return self.model.summary()


def data_controls(params: dict, n_min: int, n_max: int, n_step: int) -> dict:
    """The controls of a toy data set: ``dataset``, ``n_samples`` and ``seed``."""
    import ipywidgets as W

    style = {"description_width": "initial"}
    return {
        "dataset": W.Dropdown(options=list(DATASETS), value=params["dataset"],
                              description="data set", style=style,
                              layout=W.Layout(width="230px")),
        "n_samples": W.IntSlider(value=params["n_samples"], min=n_min, max=n_max, step=n_step,
                                 description="points", continuous_update=False, style=style),
        "seed": W.IntSlider(value=params["seed"], min=0, max=20, description="seed",
                            continuous_update=False, style=style),
    }


def labels_controls(model: Model, extra: dict | None = None) -> dict:
    """Text boxes for ``truth`` and ``pred`` and a dropdown for ``show``."""
    import ipywidgets as W

    p = model.params
    wide = W.Layout(width="520px")
    style = {"description_width": "110px"}
    controls = {
        "truth": W.Text(value=p["truth"], description="classes (truth)", layout=wide,
                        style=style, continuous_update=False),
        "pred": W.Text(value=p["pred"], description="clusters", layout=wide, style=style,
                       continuous_update=False),
    }
    controls.update(extra or {})
    controls["show"] = W.Dropdown(options=list(model.MEASURES), value=p["show"],
                                  description="derivation of", style=style)
    return controls
