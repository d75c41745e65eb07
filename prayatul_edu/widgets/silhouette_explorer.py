"""Silhouette explorer: k for KMeans on blobs; silhouette plot, a_i and b_i of a point.

The silhouette plot (every point's s_i, sorted within its cluster) sits beside
the scatter plot; choose a point x_i (numbered x1 ... xN, as in the lecture) to
see its a_i (mean distance to its own cluster) and b_i (mean distance to the
nearest other cluster) worked out. The
graph measures W_in, W_out and the normalized cut of the same clustering, on
the Euclidean distances, are listed too.

>>> from prayatul_edu.widgets import SilhouetteModel
>>> m = SilhouetteModel(n_samples=60, k=3, point=6)     # x6, the sixth point
>>> row = m.point_table()
>>> own = [r for r in row if r["role"] == "own cluster: a_i"][0]
>>> bool(abs(own["mean"] - m.silhouette.a[5]) < 1e-12)   # index 5 in Python
True
"""
from __future__ import annotations

import functools

import numpy as np

from .. import between_cluster_weight, normalized_cut, silhouette, within_cluster_weight
from .._validation import check_choice
from ..plots import plot_clustering
from ..plots.silhouette import plot_silhouette, set_silhouette_point, update_silhouette
from ..toydata import DATASETS
from .app import App, data_controls
from .data import clustering, dataset, distances
from .drawing import pin_axis_label, rescale, scatter_artists, update_scatter
from .inputs import check_int, check_point
from .model import Model
from .tables import format_number, html_table, text_table

__all__ = ["SilhouetteModel", "SilhouetteExplorer"]

_NOISE = 0.05
#: The graph measures need the N x N distance matrix (validated by each measure);
#: above this many points the app leaves them out to stay interactive.
GRAPH_MAX_N = 1000


@functools.lru_cache(maxsize=64)
def _measures(data: tuple, k: int) -> tuple:
    """KMeans' labels with ``k`` clusters on ``dataset(*data)``, their silhouette and
    their graph measures (none above ``GRAPH_MAX_N`` points), cached as the clusterings
    are (what an app shows for a k or seed it showed before is at hand)."""
    X, _ = dataset(*data)
    labels = clustering(data, "KMeans", k, 0.3)
    graph = {}
    if X.shape[0] <= GRAPH_MAX_N:
        D = distances(data)
        graph = {"W_in": within_cluster_weight(D, labels),
                 "W_out": between_cluster_weight(D, labels),
                 "normalized cut": normalized_cut(D, labels)}
    return labels, silhouette(X, labels), graph


class SilhouetteModel(Model):
    """Silhouette of KMeans with ``k`` clusters on a toy data set, and one point's terms.

    Parameters: ``dataset`` (default "blobs"), ``n_samples``, ``seed``, ``k``
    (2 ... 10), ``point`` (which point x_i, numbered 1 ... n_samples as in the
    lecture; ``point - 1`` indexes the arrays).
    Results: ``X``, ``labels``, ``silhouette`` (the library's result),
    ``graph`` (``{"W_in": ..., "W_out": ..., "normalized cut": ...}``, empty above
    ``GRAPH_MAX_N`` points) and
    :meth:`point_table` (the chosen point's mean distance to every cluster).
    """

    title = "Silhouette explorer"
    DEFAULTS = {"dataset": "blobs", "n_samples": 300, "seed": 0, "k": 3, "point": 1}

    def set(self, **changes) -> "SilhouetteModel":
        """As :meth:`Model.set`; fewer points than the chosen number moves the point to the last."""
        n = changes.get("n_samples")
        if "point" not in changes and isinstance(n, int) and 1 <= n < self.params["point"]:
            changes["point"] = n
        return super().set(**changes)

    def _check(self, name, value):
        if name == "dataset":
            return check_choice(value, name, DATASETS)
        if name == "n_samples":
            return check_int(value, name, 10, 20000)
        if name == "seed":
            return check_int(value, name, 0)
        if name == "k":
            return check_int(value, name, 2, 10)
        return check_point(value, name)             # typed in a box: "12" or "x12"

    @property
    def index(self) -> int:
        """The chosen point's index into the arrays (``point - 1``: x1 is index 0)."""
        return self.params["point"] - 1

    def _compute(self) -> None:
        p = self.params
        if p["point"] > p["n_samples"]:
            raise ValueError(f"point: must be a point number from 1 to n_samples = "
                             f"{p['n_samples']} (x1 ... x{p['n_samples']}), got {p['point']}")
        data = (p["dataset"], p["n_samples"], _NOISE, p["seed"])
        self.X, self.truth = dataset(*data)
        # cached: a point change, or a k or seed shown before, computes nothing
        self.labels, self.silhouette, self.graph = _measures(data, p["k"])

    def point_table(self) -> list[dict]:
        """The chosen point's mean distance to each cluster: which gives a_i, which b_i."""
        i = self.index
        s = self.silhouette
        d = np.linalg.norm(self.X - self.X[i], axis=1)      # distances from x_i
        own = self.labels[i]
        rows = []
        for c, size in zip(s.clusters, s.sizes):
            members = self.labels == c
            total = float(d[members].sum())                 # d(x_i, x_i) = 0 adds nothing
            others = int(size) - 1 if c == own else int(size)
            mean = total / others if others else float("nan")
            role = ("own cluster: a_i" if c == own else
                    "nearest other: b_i" if c == s.nearest_cluster[i] else "other")
            rows.append({"cluster": c, "points": others, "sum": total, "mean": mean,
                         "role": role})
        return rows

    def _point_lines(self):
        i, n = self.index, self.params["point"]
        s = self.silhouette
        a, b, si = float(s.a[i]), float(s.b[i]), float(s.samples[i])
        a, b, si = (format_number(v) for v in (a, b, si))
        formula = (f"s_{n} = (b_{n} - a_{n}) / max(a_{n}, b_{n}) "
                   f"= ({b} - {a}) / max({a}, {b}) = {si}")
        rows = [[str(r["cluster"]), r["points"], r["sum"], r["mean"], r["role"]]
                for r in self.point_table()]
        return formula, rows

    def _tables(self):
        s = self.silhouette
        clusters = [[str(c), int(n), float(v)] for c, n, v in
                    zip(s.clusters, s.sizes, s.per_cluster)]
        overall = [["silhouette s", float(s)]] + [[k, float(v)] for k, v in self.graph.items()]
        if not self.graph:
            overall.append(["W_in, W_out, NC", f"shown up to {GRAPH_MAX_N} points"])
        return clusters, overall

    def summary(self) -> str:
        p = self.params
        clusters, overall = self._tables()
        formula, rows = self._point_lines()
        return "\n".join([
            f"{self.title}: KMeans with k = {p['k']} on {p['dataset']}, {p['n_samples']} "
            f"points, seed {p['seed']}", "",
            text_table(["cluster", "size", "s_C"], clusters), "",
            text_table(["measure", "value"], overall), "",
            f"point x{p['point']} (cluster {self.labels[self.index]}):",
            text_table(["to cluster", "points", "sum of distances", "mean", "role"], rows),
            formula])

    def numbers_html(self) -> str:
        import html

        clusters, overall = self._tables()
        formula, rows = self._point_lines()
        n = self.params["point"]
        return ('<div style="display: flex; flex-wrap: wrap; align-items: flex-start">'
                + html_table(["measure", "value"], overall, "The clustering")
                + html_table(["cluster", "size", "s_C"], clusters, "Per cluster")
                + html_table(["to cluster", "points", "sum of distances", "mean", "role"],
                             rows, f"Point x{n} (cluster {self.labels[n - 1]})")
                + f"</div><code>{html.escape(formula)}</code>")

    def figure(self):
        fig = self.new_figure((9.5, 4.0), (8.0, 5.2))
        scatter, bars = fig.subplots(1, 2)
        fig.subplots_adjust(left=0.02, right=0.98, bottom=0.13, top=0.9, wspace=0.2)
        plot_clustering(self.X, self.labels, ax=scatter, title=self._scatter_title(), size=7)
        self._draw_clustering(scatter, bars)
        self.fit_text(fig)
        rescale(scatter, self.X)    # fitted to the panel's final place, as every update does
        return fig

    def describe_figure(self) -> str:
        n, s = self.params["point"], self.silhouette
        return (f"Left: {self.X.shape[0]} points of the {self.params['dataset']} data coloured "
                f"by KMeans with k = {self.params['k']}, point x{n} marked by a star. Right: "
                "the silhouette plot, every point's s_i as a bar, sorted within its cluster; "
                f"mean silhouette s = {format_number(float(s))}, point x{n} has "
                f"s_{n} = {format_number(float(s.samples[n - 1]))}.")

    def _scatter_title(self) -> str:
        return f"KMeans, k = {self.params['k']}"

    def _draw_clustering(self, scatter, bars) -> None:
        """Both panels (made by :meth:`figure`), for the current clustering and point."""
        update_scatter(scatter, self.X, self.labels, self._scatter_title())
        self._mark_point(scatter)
        if getattr(bars, "shows", None) is None:
            plot_silhouette(self.silhouette, ax=bars, point=self.index,
                            title="silhouette plot")
        else:                          # the same artists, showing the new clustering
            update_silhouette(bars, self.silhouette, point=self.index)
        # s_i axis from a multiple of 0.25: most new clusterings keep it, and its tick
        # labels stay in the kept pixels (see redraw)
        low = min(-0.25, float(np.floor((float(self.silhouette.samples.min()) - 0.05) * 4) / 4))
        bars.set_xlim(low, 1.0)
        scatter.shows = bars.shows = self.silhouette     # what the panels show (see redraw)

    def _mark_point(self, ax) -> None:
        x = self.X[self.index]
        for star in [c for c in ax.collections if c.get_gid() == "chosen point"]:
            star.set_offsets([x[:2]])                    # moved in place
            return
        ax.scatter([x[0]], [x[1]], marker="*", s=220, color="black", edgecolor="white",
                   zorder=3, gid="chosen point")

    def redraw(self, fig):
        """Reuse the Axes and their artists. A new point moves its two marks; a new
        clustering (k, seed) changes the points' colours, the bars, the mean line and the
        cluster ticks in place. Only those, the titles and the key's texts are drawn again,
        over the rest kept as pixels (frames, the s_i axis: the scatter plot has no ticks,
        so its limits show nowhere else)."""
        if fig is None or len(fig.axes) != 2:
            return self.figure()
        scatter, bars = fig.axes
        (marker,) = [c for c in bars.collections if c.get_gid() == "silhouette point"]
        if getattr(scatter, "shows", None) is not self.silhouette:
            # the axis label where the first (full) draw put it: the cluster ticks are one
            # digit each (k <= 10), so matplotlib would move it by less than a pixel
            pin_axis_label(bars.yaxis)
            self._draw_clustering(scatter, bars)
            xlim = tuple(map(float, bars.get_xlim()))
            self.layers.declare(fig, ("clustering", *xlim),
                                [*scatter_artists(scatter), *scatter.collections,
                                 *(c for c in bars.collections if c is not marker),
                                 *bars.lines, marker, bars.yaxis, *bars.texts])
        else:                       # a new point: its two marks and its text in the key
            self._mark_point(scatter)
            set_silhouette_point(bars, self.silhouette, self.index)
            label = [t for t in bars.texts if t.get_gid() == "silhouette point label"]
            self.layers.declare(fig, ("point", self.silhouette),
                                [*scatter.collections, marker, *label])
        return fig


class SilhouetteExplorer(App):
    """The silhouette explorer's widgets, bound to a :class:`SilhouetteModel`."""

    model_class = SilhouetteModel
    lecture_side_width = "600px"     # the point's table on one line a row

    def _build_controls(self) -> dict:
        import ipywidgets as W

        p = self.model.params
        style = {"description_width": "initial"}
        return {
            **data_controls(p, 20, 2000, 20),
            "k": W.IntSlider(value=p["k"], min=2, max=10, description="k (KMeans)",
                             continuous_update=False, style=style),
            # a text box, not a number box: a number box turns 12.5 into 125 without a word
            "point": W.Text(value=str(p["point"]), description="point x_i", style=style,
                            continuous_update=False, layout=W.Layout(width="190px"),
                            placeholder=f"1 to {p['n_samples']}"),
        }

    def _sync_controls(self) -> None:
        self.controls["point"].placeholder = f"1 to {self.model.params['n_samples']}"
        super()._sync_controls()

    def _control_value(self, name: str):
        value = self.model.params[name]
        return str(value) if name == "point" else value      # the box shows text
