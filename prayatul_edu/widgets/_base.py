"""What every app shares: a model base class, an ipywidgets base class, caches, parsing.

An app is two objects:

* a **model** (pure Python, no ipywidgets): its parameters, ``set(**changes)``
  to change some and recompute, the results as attributes, ``summary()`` (the
  numbers as plain text), ``numbers_html()`` and ``figure()`` (a matplotlib
  Figure);
* a thin **app** (ipywidgets): one control per parameter, bound to the model
  by name, an ``Image`` showing the model's figure and an ``HTML`` showing its
  numbers. A bad value (e.g. unparsable labels) is shown as a message in the
  app, never as a traceback.

Tests and notebooks drive the model directly, or the app's controls
(``app.control("k").value = 4``) exactly as a person would.

Speed (one update at 1500 points well under 100 ms, ``benchmarks/bench_widgets.py``):
drawing the PNG costs more than the numbers, mostly text, so a model's
``redraw`` changes its figure in place and tells :func:`set_layers` which
artists it changed; :func:`figure_png` keeps the pixels of everything else and
draws only those over them. A test checks the result against a fresh figure.
"""
from __future__ import annotations

import functools
import html
import io
import re

import numpy as np

from .._validation import check_choice, check_real
from ..plots._style import NOISE_COLOR, cluster_colors
from ..steps import _aligned, fmt
from ..toydata import DATASETS, cluster, make_dataset

ERROR_COLOR = "#d55e00"     # Okabe-Ito vermillion: error messages in the apps

__all__ = ["Model", "App", "figure_png", "encode_png", "set_layers", "html_table", "html_pre",
           "parse_labels", "parse_counts", "dataset", "clustering", "distances"]


# ------------------------------------------------------------------ caches
@functools.lru_cache(maxsize=32)
def dataset(name: str, n_samples: int, noise: float, seed: int):
    """:func:`prayatul_edu.toydata.make_dataset`, cached (read-only arrays)."""
    X, y = make_dataset(name, n_samples=n_samples, noise=noise, random_state=seed)
    X.flags.writeable = False
    y.flags.writeable = False
    return X, y


@functools.lru_cache(maxsize=64)
def clustering(data: tuple, algorithm: str, n_clusters: int, eps: float) -> np.ndarray:
    """Labels of ``algorithm`` on ``dataset(*data)``, cached (read-only).

    Only the algorithm's main parameter is part of the key: DBSCAN ignores
    ``n_clusters`` and the others ignore ``eps``, so callers pass a neutral
    value for the unused one and changing it costs nothing.
    """
    X, _ = dataset(*data)
    # One thread: on a few thousand points threads gain little, and OpenMP threads
    # spin badly when the machine is busy (measured: 5 ms alone, up to 1 s when loaded).
    with _thread_pools().limit(limits=1):
        labels = cluster(X, algorithm, n_clusters=n_clusters, eps=eps, random_state=0)
    labels.flags.writeable = False
    return labels


@functools.lru_cache(maxsize=8)
def distances(data: tuple) -> np.ndarray:
    """The Euclidean distance matrix of ``dataset(*data)``, cached (read-only)."""
    from scipy.spatial.distance import cdist

    X, _ = dataset(*data)
    D = cdist(X, X)
    D.flags.writeable = False
    return D


@functools.lru_cache(maxsize=1)
def _thread_pools():
    """threadpoolctl's view of the loaded BLAS / OpenMP libraries, made once (a
    ``threadpool_limits`` call would search them again: 3 ms per clustering)."""
    import sklearn.cluster  # noqa: F401  (load the libraries the algorithms use first)
    import sklearn.mixture  # noqa: F401
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


# ----------------------------------------------------------------- parsing
_SPLIT = re.compile(r"[\s,;]+")


def _number_or_text(token: str):
    try:
        return int(token)
    except ValueError:
        return token


def parse_labels(text: str, name: str) -> np.ndarray:
    """``"1 3 2, 1"`` -> ``array([1, 3, 2, 1])``: labels separated by spaces or commas.

    Whole numbers become ints; anything else stays a string (``"a b a"``).

    >>> parse_labels("1 3 2, 1", "truth").tolist()
    [1, 3, 2, 1]
    >>> parse_labels("a, b a", "pred").tolist()
    ['a', 'b', 'a']
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the labels as text, got {type(text).__name__}")
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if len(tokens) < 2:
        raise ValueError(f"{name}: give at least two labels, separated by spaces or commas")
    values = [_number_or_text(t) for t in tokens]
    if all(isinstance(v, int) for v in values):
        return np.array(values, dtype=np.int64)
    return np.array([str(v) for v in values])


def parse_counts(text: str, name: str) -> np.ndarray:
    """A table typed as rows separated by ``;`` or new lines, cells by spaces or commas.

    >>> parse_counts("50 100 0; 10 1000 50", "counts").tolist()
    [[50, 100, 0], [10, 1000, 50]]
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the table as text, got {type(text).__name__}")
    rows = [r for r in re.split(r"[;\n]+", text.strip()) if r.strip()]
    table = [[t for t in re.split(r"[\s,]+", r.strip()) if t] for r in rows]
    if not table:
        raise ValueError(f"{name}: the table is empty")
    widths = {len(r) for r in table}
    if len(widths) != 1:
        raise ValueError(f"{name}: every row needs the same number of cells, got rows of "
                         f"{sorted(widths)} cells")
    try:
        counts = np.array([[int(c) for c in r] for r in table], dtype=np.int64)
    except ValueError:
        raise ValueError(f"{name}: every cell must be a whole number") from None
    if (counts < 0).any():
        raise ValueError(f"{name}: cells must be non-negative")
    if counts.sum() < 2:
        raise ValueError(f"{name}: the table needs at least two instances")
    return counts


# --------------------------------------------------------------- rendering
def figure_png(fig, dpi: int | None = None) -> bytes:
    """A matplotlib Figure as PNG bytes (what an ``ipywidgets.Image`` shows).

    Drawn on the figure's own Agg canvas, kept from one update to the next. If
    the app declared which artists change (:func:`set_layers`), only those are
    drawn, on top of the cached pixels of the rest. ``dpi`` other than the
    figure's own takes matplotlib's ``savefig`` instead.
    """
    if dpi is not None and dpi != fig.dpi:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi)
        return buffer.getvalue()
    canvas = _agg_canvas(fig)
    _draw_layers(fig, canvas)
    return encode_png(np.asarray(canvas.buffer_rgba()))


def encode_png(rgba: np.ndarray) -> bytes:
    """An H x W x 4 uint8 image as an RGB PNG: no row filters, zlib level 1.

    Plots are mostly flat colour, which plain deflate packs well; this takes
    half the time of the usual encoder (filters chosen row by row) and gives
    files no larger.

    >>> encode_png(np.zeros((2, 3, 4), np.uint8))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    import struct
    import zlib

    height, width = rgba.shape[:2]
    rows = np.empty((height, 1 + 3 * width), np.uint8)
    rows[:, 0] = 0                                    # filter type 0 (none) on every row
    rows[:, 1:] = rgba[:, :, :3].reshape(height, 3 * width)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)   # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + chunk(b"IEND", b""))


def _agg_canvas(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)


def set_layers(fig, key: tuple, dynamic) -> None:
    """Declare which artists of ``fig`` change from one update to the next.

    :func:`figure_png` draws everything else once per ``key`` and keeps those
    pixels; later calls with an equal key restore them and draw only the
    ``dynamic`` artists on top (in the order given). Keys are tuples compared
    element by element, by value for str, int, float and None, by identity
    for anything else (a cached array, a tree). A model's ``redraw`` calls
    this with the artists it updated; whatever else it changes must change
    ``key``.
    """
    dynamic = list(dynamic)
    keep = {id(a) for a in dynamic}
    old = getattr(fig, "_layers", None)
    fresh = False
    if old is not None:
        for artist in old[1]:
            if id(artist) not in keep and _attached(artist, fig):
                artist.set_animated(False)           # back in the cached layer:
                fresh = True                         # which must be drawn again
    for artist in dynamic:
        artist.set_animated(True)
    fig._layers = (tuple(key), dynamic, fresh)


def _attached(artist, fig) -> bool:
    """Whether ``artist`` is still drawn as part of ``fig`` (not removed or replaced)."""
    ax = getattr(artist, "axes", None)
    if ax is None or ax is artist:
        return artist in fig.get_children()
    return artist in ax.get_children()


def _same_key(a: tuple | None, b: tuple) -> bool:
    plain = (str, int, float, type(None))
    return a is not None and len(a) == len(b) and all(
        x == y if isinstance(x, plain) and isinstance(y, plain) else x is y
        for x, y in zip(a, b))


def _draw_layers(fig, canvas) -> None:
    layers = getattr(fig, "_layers", None)
    if layers is None:
        canvas.draw()
        return
    key, dynamic, fresh = layers
    renderer = canvas.get_renderer()
    cached = getattr(fig, "_cached_layer", None)
    if fresh or cached is None or cached[2] is not renderer or not _same_key(cached[0], key):
        canvas.draw()                                # everything but the dynamic artists
        fig._cached_layer = (key, canvas.copy_from_bbox(fig.bbox), renderer)
        fig._layers = (key, dynamic, False)
    else:
        canvas.restore_region(cached[1])
    for ax in dict.fromkeys(a.axes for a in dynamic if a.axes is not None):
        ax.apply_aspect()                            # what Axes.draw would do first
    for artist in dynamic:
        artist.draw(renderer)


def _cell(value) -> str:
    return html.escape(value if isinstance(value, str) else fmt(value))


def html_table(header, rows, caption: str | None = None) -> str:
    """A small HTML table; numbers formatted as in the derivations (``fmt``)."""
    out = ['<table style="border-collapse: collapse; font-size: 90%; margin: 4px 12px 4px 0">']
    if caption:
        out.append(f'<caption style="text-align: left; font-weight: bold">'
                   f'{html.escape(caption)}</caption>')
    out.append("<tr>" + "".join(f'<th style="padding: 1px 8px; border-bottom: 1px solid #999">'
                                f"{_cell(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="padding: 1px 8px; text-align: right">'
                                    f"{_cell(c)}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def html_pre(text: str) -> str:
    """Plain text (a derivation) in a scrollable preformatted block."""
    return ('<pre style="font-size: 85%; max-height: 360px; overflow: auto; '
            f'line-height: 1.25">{html.escape(text)}</pre>')


def text_table(header, rows) -> str:
    """The same table as plain text (for ``summary()``)."""
    cells = [[c if isinstance(c, str) else _fmt(c) for c in row] for row in rows]
    return "\n".join(_aligned([str(h) for h in header], cells))


def plural(count: int, noun: str) -> str:
    """``"1 cluster"``, ``"3 clusters"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _fmt(value) -> str:
    return fmt(value)


# ------------------------------------------------------------------- model
class Model:
    """Base of the apps' models: named parameters, validated, and a recompute.

    Subclasses set ``DEFAULTS`` (parameter -> default value), implement
    ``_check(name, value)`` (return the cleaned value or raise a ValueError /
    TypeError naming the parameter) and ``_compute()``; ``summary()``,
    ``numbers_html()`` and ``figure()`` show the results.
    """

    DEFAULTS: dict = {}
    title = "app"

    def __init__(self, **params):
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

    def redraw(self, fig):
        """The figure for the current results; ``fig`` is the previous one (apps reuse
        it where redrawing in place is faster than building a new one)."""
        return self.figure()

    def __repr__(self) -> str:
        return self.summary()


def check_int(value, name: str, low: int, high: int | None = None) -> int:
    """A whole number in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected a whole number, got {type(value).__name__} {value!r}")
    if value < low or (high is not None and value > high):
        where = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name}: must be {where}, got {value}")
    return int(value)


def check_float(value, name: str, low: float, high: float | None = None) -> float:
    """A real number in [low, high]."""
    value = check_real(value, name)
    if value < low or (high is not None and value > high):
        where = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name}: must be {where}, got {value}")
    return value


def new_figure(width: float, height: float, dpi: int = 80):
    """A Figure outside pyplot (apps redraw often; pyplot would keep every one alive),
    on an Agg canvas of its own (kept between updates, see :func:`figure_png`)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    _agg_canvas(fig)
    return fig


def _rescale(ax, X) -> None:
    """Fit the Axes' limits to the points ``X`` (after they moved)."""
    ax.ignore_existing_data_limits = True
    ax.update_datalim(np.asarray(X)[:, :2])
    ax.autoscale_view()


def update_scatter(ax, X, labels, title: str) -> None:
    """Redraw a :func:`~prayatul_edu.plots.plot_clustering` panel in place (fast).

    The points become one line of markers per colour (same size, colours and
    noise note as ``plot_clustering``): a marker is rasterised once per colour
    instead of once per point, ten times faster to draw at a thousand points.
    """
    from matplotlib.lines import Line2D


    size = None
    for points in [c for c in ax.collections if c.get_gid() is None]:
        size = float(np.sqrt(points.get_sizes()[0]))  # plot_clustering's (first update)
        points.remove()
    for line in [ln for ln in ax.lines if ln.get_gid() == "points"]:
        size = line.get_markersize()
        line.remove()
    X = np.asarray(X)
    colors = cluster_colors(labels)
    for color in dict.fromkeys(colors.tolist()):
        mine = colors == color
        ax.add_line(Line2D(X[mine, 0], X[mine, 1], linestyle="none", marker="o",
                           markersize=size, markeredgewidth=0, color=color, gid="points"))
    for text in list(ax.texts):
        text.remove()
    noise = colors == NOISE_COLOR
    if noise.any():                       # as plot_clustering marks DBSCAN's noise
        ax.text(0.01, 0.01, f"noise (-1): {int(noise.sum())} points", transform=ax.transAxes,
                fontsize=8, va="bottom")
    ax.set_title(title, fontsize=11)
    _rescale(ax, X)


def clear_artists(ax) -> None:
    """Remove what plot functions added to ``ax`` (points, lines, texts, legend) and
    forget its data limits: as ``ax.cla()`` for them, at a fraction of the cost
    (the axes, ticks and labels are kept; the plot function sets them again)."""
    for artist in [*ax.collections, *ax.lines, *ax.patches, *ax.texts, *ax.images]:
        artist.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    ax.ignore_existing_data_limits = True
    ax.set_autoscale_on(True)


def scatter_artists(ax) -> list:
    """What :func:`update_scatter` changes: the points, the noise note and the title."""
    return [*(ln for ln in ax.lines if ln.get_gid() == "points"), *ax.texts, ax.title]


# --------------------------------------------------------------------- app
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
        self.image.value = figure_png(self._figure)

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

        box = W.HBox([self._with_error(n) for n in self.controls], layout=W.Layout(flex_flow="row wrap"))
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


# ------------------------------------------------- apps on typed-in labels
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
            raise ValueError(f"pred: has {pred.shape[0]} labels but truth has "
                             f"{truth.shape[0]} (one label per instance in each)")
        self.results = {name: f(truth, pred) for name, f in self.MEASURES.items()}

    def values(self) -> dict:
        """The scalar results by display name."""
        return {k: float(v) for k, v in self.results.items() if isinstance(v, float)}

    def _head(self) -> str:
        return f"{self.title}: {self.truth_labels.shape[0]} instances"

    def _value_rows(self) -> list:
        """``[name, value]`` per scalar result; subclasses may say why a value is nan."""
        return [[k, v] for k, v in self.values().items()]

    def summary(self) -> str:
        rows = self._value_rows()
        return "\n".join([self._head(), "", text_table(["measure", "value"], rows)])

    def numbers_html(self) -> str:
        rows = self._value_rows()
        shown = self.results[self.params["show"]]
        return ('<div style="display: flex; flex-wrap: wrap; align-items: flex-start">'
                + html_table(["measure", "value"], rows, html.escape(self._head()))
                + f"<div>{html_pre(shown.explain())}</div></div>")


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
