"""Chance explorer: what a measure gives a clustering that knows nothing of the classes.

Choose N instances, the number of classes and how unbalanced they are, the number
of clusters k and how much of the classes an observed clustering recovers. The
left panel shows the chosen measure on 999 random labelings with the observed
clustering's cluster sizes (its instances shuffled: the permutation null), the
observed value and its p-value; the right panel shows what every measure gives a
random labeling on average as k grows: Rand and purity climb, ARI and AMI stay at 0.

>>> from prayatul_edu.widgets import ChanceModel
>>> m = ChanceModel(n_samples=200, k=3, agreement=0.0)
>>> round(float(abs(m.null["ARI"].mean())), 2)      # random labelings: ARI about 0
0.0
>>> m.p_values["ARI"] > 0.05                         # a random clustering is not significant
True
"""
from __future__ import annotations

import functools

import numpy as np

from .. import (
    adjusted_mutual_information,
    adjusted_rand_index,
    normalized_mutual_information,
    purity,
    rand_index,
)
from .._validation import check_choice
from ..significance import TABLE_MEASURES, random_tables
from ..plots._style import MARK_COLOR, OKABE_ITO
from .app import App
from .inputs import check_float, check_int
from .model import Model
from .tables import format_number, html_table, text_table

__all__ = ["ChanceModel", "ChanceExplorer", "MEASURES", "null_values", "measures_of_tables"]

#: The measures the app compares, by the name it shows, with the library's function.
MEASURES = {"ARI": adjusted_rand_index, "AMI": adjusted_mutual_information,
            "NMI": normalized_mutual_information, "Rand": rand_index, "purity": purity}
#: Random labelings in the null distribution (p-values in steps of 1/1000).
N_PERMUTATIONS = 999
#: Random labelings per k in the right panel (each a permutation of k equal clusters).
N_PER_K = 100
#: The k of the right panel.
K_RANGE = range(2, 21)
#: Bars of the histogram.
_BINS = 40
_COLORS = {"ARI": OKABE_ITO["blue"], "AMI": OKABE_ITO["bluish green"],
           "NMI": OKABE_ITO["reddish purple"], "Rand": OKABE_ITO["orange"],
           "purity": OKABE_ITO["vermillion"]}


def _xlogx(x):
    """x log2 x, with 0 log 0 = 0 (arrays)."""
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    pos = x > 0
    out[pos] = x[pos] * np.log2(x[pos])
    return out


def null_values(truth, pred, n_permutations: int, rng) -> dict:
    """Every measure of :data:`MEASURES` on ``n_permutations`` random shufflings of
    ``pred`` (codes 0 ... k-1 against ``truth``, codes 0 ... c-1).

    A shuffling keeps every cluster's and class's size, so only the inside of the
    contingency table changes: the library draws the tables of random shufflings
    directly (:func:`~prayatul_edu.significance.random_tables`), and every measure
    is computed from the stack of tables (:func:`measures_of_tables`).
    """
    truth, pred = np.asarray(truth), np.asarray(pred)
    sizes_c = np.bincount(pred)                                        # n_i (kept)
    sizes_t = np.bincount(truth)                                       # m_j (kept)
    tables = random_tables(sizes_c, sizes_t, n_permutations, rng)
    emi = adjusted_mutual_information(truth, pred).emi               # E[I] (bits): sizes only
    return measures_of_tables(tables, truth.shape[0], emi)


def measures_of_tables(tables, n: int, emi: float) -> dict:
    """ARI, AMI, NMI, Rand and purity of each table of ``tables`` (B, clusters, classes),
    all of the same margins, whose expected mutual information is ``emi`` bits.

    The pair-counting measures and purity are the library's formulas for stacks of
    tables (``significance.TABLE_MEASURES``); the information ones are the lecture's,
    in bits: I = sum_ij (n_ij / N) log2(N n_ij / (n_i m_j)), NMI = I / sqrt(H(C) H(T)),
    AMI = (I - E[I]) / ((H(C) + H(T)) / 2 - E[I]) (``tests/test_widgets.py`` checks
    every value against the library's function on labels with that table).
    """
    tables = np.asarray(tables)
    sizes_c, sizes_t = tables[0].sum(axis=1), tables[0].sum(axis=0)
    h_c = np.log2(n) - _xlogx(sizes_c).sum() / n                       # H(C)
    h_t = np.log2(n) - _xlogx(sizes_t).sum() / n                       # H(T)
    mi = np.maximum(0.0, _xlogx(tables).sum(axis=(1, 2)) / n + np.log2(n)
                    - (_xlogx(sizes_c).sum() + _xlogx(sizes_t).sum()) / n)
    nmi = mi / np.sqrt(h_c * h_t) if h_c * h_t > 0 else np.ones_like(mi)
    ami = (mi - emi) / ((h_c + h_t) / 2 - emi)
    return {"ARI": TABLE_MEASURES[adjusted_rand_index](tables, n), "AMI": ami, "NMI": nmi,
            "Rand": TABLE_MEASURES[rand_index](tables, n),
            "purity": TABLE_MEASURES[purity](tables, n)}


def class_sizes(n: int, classes: int, imbalance: float) -> np.ndarray:
    """Class sizes: the largest holds 1/c + imbalance (1 - 1/c) of the instances, the
    others share the rest equally (imbalance 0: balanced).

    >>> class_sizes(100, 4, 0.0).tolist(), class_sizes(100, 4, 0.6).tolist()
    ([25, 25, 25, 25], [70, 10, 10, 10])
    """
    largest = int(round(n * (1 / classes + imbalance * (1 - 1 / classes))))
    largest = min(largest, n - (classes - 1))                  # every class keeps one
    rest = np.full(classes - 1, (n - largest) // (classes - 1))
    rest[: (n - largest) - rest.sum()] += 1
    return np.concatenate([[largest], rest]).astype(int)


def _set_ticks(axis, low: float, high: float, within: bool) -> None:
    """Limits ``low`` ... ``high`` (``within=False``: up to the next tick) and a few round
    ticks, only those inside (no tick label waits outside the Axes)."""
    from matplotlib.ticker import MaxNLocator

    ticks = MaxNLocator(4).tick_values(low, high)
    if not within:
        high = float(ticks[ticks >= high][0])
    ticks = [t for t in ticks if low - 1e-12 <= t <= high + 1e-12]
    axis.set_ticks(ticks)
    (axis.axes.set_xlim if axis.axis_name == "x" else axis.axes.set_ylim)(low, high)


@functools.lru_cache(maxsize=32)
def _climb(n: int, classes: int, imbalance: float, seed: int) -> dict:
    """Mean of every measure over :data:`N_PER_K` random labelings with k equal clusters,
    for each k of :data:`K_RANGE` (the right panel; cached per data)."""
    truth = np.repeat(np.arange(classes), class_sizes(n, classes, imbalance))
    rng = np.random.default_rng(seed + 1000)
    means = {name: [] for name in MEASURES}
    for k in K_RANGE:
        pred = np.arange(n) % k                                  # k clusters of equal size
        values = null_values(truth, pred, N_PER_K, rng)
        for name in MEASURES:
            means[name].append(float(values[name].mean()))
    return {name: np.array(v) for name, v in means.items()}


@functools.lru_cache(maxsize=64)
def _experiment(n: int, classes: int, imbalance: float, k: int, agreement: float,
                seed: int) -> tuple:
    """Truth, the observed clustering, the library's values on it and the null values."""
    rng = np.random.default_rng(seed)
    truth = np.repeat(np.arange(classes), class_sizes(n, classes, imbalance))
    # the observed clustering: a share `agreement` of the instances in the cluster of
    # their class (class j -> cluster j mod k), the others in a random cluster
    pred = rng.integers(0, k, n)
    kept = rng.permutation(n)[: int(round(agreement * n))]
    pred[kept] = truth[kept] % k
    pred = np.unique(pred, return_inverse=True)[1]                 # codes 0 ... k'-1
    observed = {name: f(truth, pred) for name, f in MEASURES.items()}
    null = null_values(truth, pred, N_PERMUTATIONS, rng)
    return truth, pred, observed, null


class ChanceModel(Model):
    """A measure's null distribution under random labelings, and an observed clustering's
    score against it.

    Parameters: ``n_samples`` (N, 20 ... 2000), ``classes`` (2 ... 10), ``imbalance``
    (0: equal classes ... 0.9: the largest class holds 1/c + 0.9 (1 - 1/c) of the
    instances), ``k`` (clusters, 2 ... 20), ``agreement`` (the share of instances the
    observed clustering puts in the cluster of their class; the rest at random),
    ``measure`` (the one whose null distribution is drawn), ``seed``.
    Results: ``truth``, ``pred`` (codes), ``observed`` (the library's results),
    ``null`` (measure -> the 999 values under shuffling), ``p_values``, ``climb``
    (measure -> mean over random labelings for each k of ``K_RANGE``).
    """

    title = "Chance explorer"
    DEFAULTS = {"n_samples": 100, "classes": 3, "imbalance": 0.0, "k": 3,
                "agreement": 0.1, "measure": "ARI", "seed": 0}

    def _check(self, name, value):
        if name == "measure":
            return check_choice(value, name, MEASURES)
        if name in ("imbalance", "agreement"):
            value = check_float(value, name, 0.0, 0.9 if name == "imbalance" else 1.0)
            return round(value, 4)
        limits = {"n_samples": (20, 2000), "classes": (2, 10), "k": (2, 20),
                  "seed": (0, None)}
        return check_int(value, name, *limits[name])

    def _compute(self) -> None:
        p = self.params
        data = (p["n_samples"], p["classes"], p["imbalance"])
        self.truth, self.pred, self.observed, self.null = _experiment(
            *data, p["k"], p["agreement"], p["seed"])
        self.p_values = {name: (1 + int(np.sum(self.null[name] >= float(v) - 1e-12)))
                         / (1 + N_PERMUTATIONS) for name, v in self.observed.items()}
        self.climb = _climb(*data, p["seed"])

    # -- numbers --------------------------------------------------------------
    def _rows(self) -> list:
        rows = []
        for name in MEASURES:
            null = self.null[name]
            rows.append([name, float(self.observed[name]), float(null.mean()),
                         float(np.quantile(null, 0.95)), self.p_values[name]])
        return rows

    HEADER = ["measure", "observed", "chance mean", "chance 95%", "p"]   # fits 520 px at 20 px

    def _head(self) -> str:
        p = self.params
        sizes = np.bincount(self.truth)
        return (f"N = {p['n_samples']}, {p['classes']} classes (largest "
                f"{format_number(sizes.max() / sizes.sum())} of N), k = {p['k']} clusters, "
                f"agreement {format_number(p['agreement'])}; {N_PERMUTATIONS} random "
                "labelings of the same cluster sizes")

    def summary(self) -> str:
        return "\n".join([f"{self.title}: {self._head()}", "",
                          text_table(self.HEADER, self._rows()), "",
                          "p = p-value = (1 + #{chance >= observed}) / (1 + "
                          f"{N_PERMUTATIONS})"])

    def numbers_html(self) -> str:
        return (html_table(self.HEADER, self._rows(), self._head())
                + "<div>p = p-value = (1 + #{chance &ge; observed}) / (1 + "
                f"{N_PERMUTATIONS})</div>")

    # -- figure -----------------------------------------------------------------
    def figure(self):
        fig = self.new_figure((9.5, 3.8), (8.0, 5.4))
        hist, climb = fig.subplots(1, 2)
        fig.subplots_adjust(left=0.08, right=0.98, bottom=0.15, top=0.88, wspace=0.3)
        edges = np.linspace(0.0, 1.0, _BINS + 1)
        hist.bar(edges[:-1], np.zeros(_BINS), width=edges[1] - edges[0], align="edge",
                 color=OKABE_ITO["sky blue"], edgecolor="white", linewidth=0.5)
        hist.axvline(0.0, color=MARK_COLOR, linewidth=2.5, gid="observed")
        hist.set_ylabel("random labelings")
        ks = list(K_RANGE)
        for m in MEASURES:
            climb.plot(ks, np.zeros(len(ks)), marker="o", markersize=3, color=_COLORS[m],
                       label=m, gid=m)
        climb.axvline(self.params["k"], color="#595959", linestyle=":", linewidth=1.2,
                      gid="k")
        climb.axhline(0, color="#999999", linewidth=0.8)
        climb.set_ylim(-0.05, 1.3)
        climb.set_yticks([0, 0.25, 0.5, 0.75, 1])
        climb.set_xticks([2, 5, 10, 15, 20])
        climb.set_xlabel("k (random clusters)")
        climb.set_title("chance level as k grows", fontsize=11)
        # 10 pt: read on a projector from the back of the room (8 pt was not)
        climb.legend(fontsize=10, loc="upper left", ncol=3, frameon=False, handlelength=1.2,
                     columnspacing=0.8, borderaxespad=0.2)
        self._update(hist, climb)
        fig.chance = True
        return self.fit_text(fig)

    def _update(self, hist, climb) -> list:
        """Both panels show the current results; returns the artists changed."""
        name = self.params["measure"]
        null, obs = self.null[name], float(self.observed[name])
        low, high = min(float(null.min()), obs), max(float(null.max()), obs)
        pad = max(0.01, 0.05 * (high - low))
        edges = np.linspace(low - pad, high + pad, _BINS + 1)
        counts = np.histogram(null, bins=edges)[0]
        for bar, left, count in zip(hist.patches, edges[:-1], counts):
            bar.set_x(left)
            bar.set_width(edges[1] - edges[0])
            bar.set_height(count)
        _set_ticks(hist.xaxis, edges[0], edges[-1], within=True)
        _set_ticks(hist.yaxis, 0, 1.05 * max(1, int(counts.max())), within=False)
        (line,) = [ln for ln in hist.lines if ln.get_gid() == "observed"]
        line.set_xdata([obs, obs])
        hist.set_title(f"{name}: observed {format_number(obs)}, "
                       f"p = {format_number(self.p_values[name])}", fontsize=11)
        hist.set_xlabel(f"{name} of a random labeling")
        curves = [ln for ln in climb.lines if ln.get_gid() in MEASURES]
        for ln in curves:
            ln.set_ydata(self.climb[ln.get_gid()])
            ln.set_linewidth(3.0 if ln.get_gid() == name else 1.2)
        (k,) = [ln for ln in climb.lines if ln.get_gid() == "k"]
        k.set_xdata([self.params["k"]] * 2)
        # in the order a full draw draws them: bars, lines, frame, axes; the right panel's
        # curves under its zero line, frame and legend
        zero = [ln for ln in climb.lines if ln.get_gid() is None]
        return [*hist.patches, line, *hist.spines.values(), hist.xaxis, hist.yaxis,
                hist.title, *curves, k, *zero, *climb.spines.values(), climb.get_legend()]

    def redraw(self, fig):
        """The same Axes: the bars, the observed line, the curves and the marked k change
        in place, and with the axes' ticks and the titles only they are drawn again over
        the kept pixels (frames, legend, the right panel's axes)."""
        if fig is None or not getattr(fig, "chance", False):
            return self.figure()
        hist, climb = fig.axes
        self.layers.declare(fig, ("chance",), self._update(hist, climb))
        return fig

    def describe_figure(self) -> str:
        name = self.params["measure"]
        null, obs = self.null[name], float(self.observed[name])
        at = {m: format_number(float(v[self.params["k"] - K_RANGE.start]))
              for m, v in self.climb.items()}
        return (f"Left: histogram of {name} over {N_PERMUTATIONS} random labelings with the "
                f"observed cluster sizes (mean {format_number(float(null.mean()))}), the "
                f"observed {name} = {format_number(obs)} marked by a vertical line, p-value "
                f"{format_number(self.p_values[name])}. Right: the mean of each measure over "
                f"random labelings for k = 2 to 20, at k = {self.params['k']}: "
                + ", ".join(f"{m} {v}" for m, v in at.items()) + ".")


class ChanceExplorer(App):
    """The chance explorer's widgets, bound to a :class:`ChanceModel`."""

    model_class = ChanceModel
    numbers_beside = False

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "initial"}
        return {
            "measure": W.Dropdown(options=list(MEASURES), value=p["measure"],
                                  description="measure", style=style,
                                  layout=W.Layout(width="180px")),
            "n_samples": W.IntSlider(value=p["n_samples"], min=20, max=2000, step=20,
                                     description="N (instances)", continuous_update=False,
                                     style=style),
            "classes": W.IntSlider(value=p["classes"], min=2, max=10,
                                   description="classes", continuous_update=False,
                                   style=style),
            "imbalance": W.FloatSlider(value=p["imbalance"], min=0.0, max=0.9, step=0.1,
                                       description="imbalance", continuous_update=False,
                                       style=style),
            "k": W.IntSlider(value=p["k"], min=2, max=20, description="k (clusters)",
                             continuous_update=False, style=style),
            "agreement": W.FloatSlider(value=p["agreement"], min=0.0, max=1.0, step=0.05,
                                       description="agreement", continuous_update=False,
                                       style=style),
            "seed": W.IntSlider(value=p["seed"], min=0, max=20, description="seed",
                                continuous_update=False, style=style),
        }
