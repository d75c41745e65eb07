"""An app's ipywidgets side: controls bound to a model by parameter name.

An app shows one control per parameter, an ``Image`` with the model's figure
and an ``HTML`` with its numbers. A bad value (e.g. unparsable labels) is shown
as a message beside the box it is about, never as a traceback. Tests drive
the controls exactly as a person would (``app.control("k").value = 4``).
"""
from __future__ import annotations

import functools
import html
import os

from ..toydata import DATASETS
from .inputs import check_bool
from .model import Model

__all__ = ["App", "ERROR_COLOR", "APP_STYLE", "LIVE_CLASS", "served_by_voila", "data_controls", "error_html",
           "in_lecture_words",
           "labels_controls"]

#: Error messages: a dark vermillion, 5.2:1 on white (WCAG AA asks 4.5:1 of text of
#: normal size; the Okabe-Ito vermillion #d55e00 of the figures is 3.9:1).
ERROR_COLOR = "#b84a00"
FOCUS_COLOR = "#0072b2"     # Okabe-Ito blue: the focus ring

#: The CSS every app brings along (once per app): a visible focus ring of 3 px on every
#: control (drawn inside toggle buttons, whose row clips what lies outside), and in lecture
#: mode (class ``pe-lecture``) an app as tall as the screen: the controls at 18 px, then the
#: figure scaled to the height left (never cut, never scrolled) with the numbers and the
#: reveal beside it, tables of about 20 px, derivations in a monospace font.
APP_STYLE = f"""<style>
.pe-app input:focus-visible, .pe-app select:focus-visible, .pe-app textarea:focus-visible,
.pe-app button:focus-visible, .pe-app .noUi-handle:focus-visible,
.pe-app [tabindex]:focus-visible, .pe-app [contenteditable]:focus {{
  outline: 3px solid {FOCUS_COLOR} !important; outline-offset: 2px; }}
.pe-app .noUi-handle:focus {{ outline: 3px solid {FOCUS_COLOR}; outline-offset: 2px; }}
.pe-app .widget-toggle-buttons button:focus-visible, .pe-app .widget-toggle-button:focus-visible
  {{ outline-offset: -4px !important; }}
.pe-app .widget-readout {{ overflow: visible; }}
.pe-derivation {{ font-family: var(--jp-code-font-family, monospace); white-space: pre-wrap;
  overflow-wrap: normal; word-break: normal; }}
.pe-lecture {{ --jp-widgets-font-size: 18px; --jp-widgets-inline-height: 34px;
  --jp-ui-font-size1: 18px; font-size: 18px;
  height: calc(100vh - var(--pe-page-margin, 0px)); box-sizing: border-box;
  flex-wrap: nowrap !important; }}
.pe-lecture .widget-label, .pe-lecture .widget-readout, .pe-lecture input,
.pe-lecture select, .pe-lecture textarea, .pe-lecture button, .pe-lecture .widget-html-content
  {{ font-size: 18px !important; }}
.pe-lecture .widget-label {{ line-height: 34px; }}
.pe-lecture .widget-inline-hbox > .widget-label {{ width: auto !important; max-width: none !important;
  overflow: visible; }}
.pe-lecture .jupyter-button {{ width: auto; min-width: 0; padding: 0 12px; }}
.pe-lecture .pe-live {{ min-width: 0; }}
.pe-lecture .pe-side .widget-hbox {{ flex-wrap: wrap; }}
.pe-lecture .pe-side .widget-hbox .widget-html-content {{ white-space: nowrap; }}
.pe-lecture > * {{ flex: 0 0 auto; }}
.pe-lecture > .pe-results {{ flex: 1 1 0 !important; min-height: 0; align-items: stretch;
  gap: 12px; }}
.pe-lecture .pe-figure {{ height: calc(100% - 2 * var(--jp-widgets-margin, 2px)) !important; width: auto !important; max-width: calc(100vw - 560px) !important;
  min-width: 0; object-fit: contain; object-position: left top; flex: 0 1 auto; }}
.pe-lecture .pe-side {{ flex: 1 1 360px; }}
.pe-lecture .pe-side > * {{ flex: 0 0 auto; }}
.pe-lecture .pe-table {{ font-size: 20px !important; }}
.pe-lecture .pe-table td, .pe-lecture .pe-table th {{ padding: 0 8px !important;
  line-height: 1.15; }}
.pe-lecture .pe-table {{ margin: 2px 12px 2px 0 !important; }}
.pe-lecture .pe-table caption {{ font-size: 20px; line-height: 1.25; }}
.pe-app .pe-pairs td, .pe-app .pe-pairs th {{ padding: 0 4px !important; text-align: center; }}
.pe-app .pe-pairs .pe-pair {{ font-weight: bold; }}
.pe-app .pe-pairs .pe-pairs-role {{ font-weight: normal; font-style: italic; text-align: right; }}
.pe-lecture .pe-derivation {{ font-size: 15px !important; max-height: none !important;
  overflow: visible !important; margin: 0; }}
.pe-lecture .pe-title {{ font-size: 20px; }}
</style>"""

#: Lecture mode: the width a control row may take.
LECTURE_SLIDER_WIDTH = "240px"
LECTURE_TEXT_WIDTH = "420px"

#: The class of the HTML widgets whose changes a screen reader announces (the Voila
#: template makes them ``aria-live`` regions): the numbers, and every error message.
LIVE_CLASS = "pe-live"


def in_lecture_words(text: str, names: dict) -> str:
    """An error message as a person reads it: the parameter it starts with (``"pred: ..."``)
    replaced by what the app calls that box (``"clusters: ..."``).

    >>> in_lecture_words("pred: has 4 labels, truth 5", {"pred": "clusters"})
    'clusters: has 4 labels, truth 5'
    """
    head, sep, rest = str(text).partition(":")
    return f"{names[head]}{sep}{rest}" if sep and head in names else str(text)


def error_html(exc, names: dict) -> str:
    """An error message for the page, in the lecture's words (:func:`in_lecture_words`)."""
    return (f'<span class="pe-error" style="color: {ERROR_COLOR}">'
            f"{html.escape(in_lecture_words(str(exc), names))}</span>")


@functools.cache
def _figure_image_class():
    """An ``ipywidgets.Image`` whose tooltip (the figure's alt text) the browser can show.

    ipywidgets' front end reads the ``description`` of any widget given a tooltip, and
    an Image has none: the view then fails to render ("Cannot read properties of
    undefined (reading 'length')" in updateTooltip) and the app shows no figure.
    An empty description makes the tooltip the image's title.
    """
    import ipywidgets as W
    from traitlets import Unicode

    class FigureImage(W.Image):
        description = Unicode("").tag(sync=True)

    return FigureImage


def served_by_voila() -> bool:
    """Whether this kernel was started by Voila (which sets ``SERVER_SOFTWARE`` to
    ``voila/<version>`` in the kernel's environment, as a CGI server would)."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


class App:
    """The ipywidgets side of an app: controls bound to a model by parameter name.

    Subclasses set ``model_class`` and implement ``_build_controls()``,
    returning ``{parameter: widget}``; every widget's ``description`` is the
    label a person sees (and what browser tests look for). ``_control_rows()``
    arranges them. Displaying the app shows the widget; its plain-text
    representation is the model's ``summary()``.

    ``lecture=True`` shows the app for a projector: figure text of at least 16 pt as
    displayed (drawn at twice the screen's density), tables of about 20 px, the numbers
    beside the figure, the whole app within 1280 x 720. ``lecture=None`` (the default)
    turns it on when the app runs under Voila.
    """

    model_class = Model
    #: Whether the numbers stand beside the figure also outside lecture mode.
    numbers_beside = False
    #: Lecture mode: the least width of the numbers beside the figure (a wide table: more).
    lecture_side_width = "340px"

    def __init__(self, model: Model | None = None, *, lecture: bool | None = None, **params):
        import ipywidgets as W

        self.lecture = served_by_voila() if lecture is None else check_bool(lecture,
                                                                            "lecture")
        self.model = model if model is not None else self.model_class(**params)
        if model is not None and params:
            self.model.set(**params)
        self.model.lecture = self.lecture
        self._syncing = False
        self.pending: dict = {}       # parameter -> typed value the model refused so far
        self.controls = self._build_controls()
        # an error message beside each text box (filled by _show_error)
        self.errors = {name: W.HTML() for name, c in self.controls.items()
                       if isinstance(c, (W.Text, W.Textarea))}
        self.image = _figure_image_class()(format="png",
                                           layout=W.Layout(max_width="100%", height="auto"))
        self.image.add_class("pe-figure")
        self.numbers = W.HTML()
        self.message = W.HTML()
        for live in (self.numbers, self.message, *self.errors.values()):
            live.add_class(LIVE_CLASS)
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
        names = {name: c.description for name, c in self.controls.items()
                 if getattr(c, "description", "")}
        names.setdefault("own", "own labels")
        self.message.value = error_html(text, names) if about not in self.errors else ""
        for name, error in self.errors.items():
            if name == about:
                error.value = error_html(text, names)
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
        self.numbers.value = self._numbers_html()
        self._figure = self.model.redraw(getattr(self, "_figure", None))
        self.image.value = self.model.png(self._figure)
        self.image.tooltip = self.model.describe_figure()     # the image's title: its alt text

    def _numbers_html(self) -> str:
        """The numbers beside (or below) the figure: the model's, unless the app shows
        part of them elsewhere."""
        return self.model.numbers_html()

    def _sync_controls(self) -> None:
        """Make every control show the model's value (ranges may depend on the model)."""
        for name, control in self.controls.items():
            if control.value != self._control_value(name):
                control.value = self._control_value(name)

    def _control_value(self, name: str):
        """What the control of parameter ``name`` shows for the model's value."""
        return self.model.params[name]

    def _with_error(self, name: str):
        """The control ``name``, with its error message beside it if it has one."""
        import ipywidgets as W

        if name not in self.errors:
            return self.controls[name]
        return W.HBox([self.controls[name], self.errors[name]])

    def _build_controls(self) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError

    def _control_rows(self) -> list:
        """The controls, arranged (a list of widgets, top to bottom)."""
        import ipywidgets as W

        return [W.HBox([self._with_error(n) for n in self.controls],
                       layout=W.Layout(flex_flow="row wrap"))]

    def _layout(self):
        """Title, controls, message, then the figure and the numbers: in lecture mode the
        numbers (and what comes below them otherwise, e.g. the reveal) beside the figure,
        which takes the height the controls leave (APP_STYLE); else the numbers below."""
        import ipywidgets as W

        title = W.HTML(f'<b class="pe-title">{html.escape(self.model.title)}</b>')
        below = self._extra_below()
        if self.lecture:
            for control in self.controls.values():
                if isinstance(control, (W.IntSlider, W.FloatSlider)):
                    control.layout.width = LECTURE_SLIDER_WIDTH
                elif isinstance(control, (W.Text, W.Textarea)):
                    control.layout.width = LECTURE_TEXT_WIDTH
            rows = [W.HBox([self._with_error(n) for n in self.controls],
                           layout=W.Layout(flex_flow="row wrap"))]
            side = W.VBox([self.numbers, *below],
                          layout=W.Layout(min_width=self.lecture_side_width))
            side.add_class("pe-side")
            results, below = W.HBox([self.image, side]), []
        else:
            rows = self._control_rows()
            results = (W.HBox([self.image, self.numbers]) if self.numbers_beside
                       else W.VBox([self.image, self.numbers]))
        results.add_class("pe-results")
        box = W.VBox([W.HTML(APP_STYLE), title, *rows, *self._extra_rows(), self.message,
                      results, *below])
        box.add_class("pe-app")
        if self.lecture:
            box.add_class("pe-lecture")
        return box

    def _show_results(self, shown: bool) -> None:
        """The figure, the numbers and what comes with them, or (``shown=False``: own labels
        chosen, none loaded yet) none of them: no figure of other data left standing."""
        for widget in (self.image, self.numbers, *self._extra_below()):
            widget.layout.display = None if shown else "none"

    def _extra_rows(self) -> list:
        """Widgets below the controls that are not bound to a parameter (a panel)."""
        return []

    def _extra_below(self) -> list:
        """Widgets below the figure and the numbers (a step-by-step derivation)."""
        return []

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
