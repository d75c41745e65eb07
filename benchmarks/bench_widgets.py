#!/usr/bin/env python3
"""How long one update of each app takes at 1500 points (target: median under 100 ms).

    python benchmarks/bench_widgets.py            # 1500 points, 7 updates per row
    python benchmarks/bench_widgets.py --n 3000
    python benchmarks/bench_widgets.py --lecture  # the apps in lecture mode (2x density)
    python benchmarks/bench_widgets.py --app Dendrogram   # one app's rows only

One *update* is what happens when a person changes one control: the app's
model recomputes, the numbers are re-rendered as HTML and the figure is drawn
and encoded as the PNG the app shows. Each row changes one control through a
cycle of values, timing every change through the widget (``control.value = v``);
the first pass over the cycle is a warm-up (imports, first clustering), so
values already seen come from the caches exactly as they would in a lecture,
and rows marked "new" use values never seen before (nothing cached).
Spectral clustering is left out of the target (an eigen-decomposition per
update), and reported on its own row for reference. Garbage is collected
before each row, so that no row pays for a full collection of the objects
the rows before it left behind (with a dozen apps alive, Python's occasional
full collection takes 100 to 150 ms wherever it happens to fall).

Columns: the median and worst wall-clock time of an update, the median of its figure
part alone (the model's ``redraw`` and ``png``: what the browser waits for after the
numbers), the median CPU time of the process (what the update costs when other
programs share the machine) and of its figure part. A last table encodes the same figure as PNG side by side:
the apps' encoder against matplotlib's own output (why the apps keep theirs).

Timings depend on the machine; no test asserts them.
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402


def _time_changes(app, control, values) -> tuple[list, list, list, list]:
    """Wall time, figure time (redraw + PNG), CPU time and the figure's CPU time of each
    change."""
    model = app.model
    spent = [0.0, 0.0]

    def timed(method):
        def run(*args):
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                return method(*args)
            finally:
                spent[0] += time.perf_counter() - start
                spent[1] += time.process_time() - start_cpu
        return run

    model.redraw, model.png = timed(model.redraw), timed(model.png)
    times, figure, cpu, figure_cpu = [], [], [], []
    try:
        for v in values:
            spent[:] = [0.0, 0.0]
            start, start_cpu = time.perf_counter(), time.process_time()
            control.value = v
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            figure.append(spent[0])
            figure_cpu.append(spent[1])
    finally:
        del model.redraw, model.png
    return times, figure, cpu, figure_cpu


def _labels_text(labels) -> str:
    return " ".join(str(v) for v in labels.tolist())


def cases(n: int, lecture: bool = False):
    """(app name, what changes, a factory of the app, control, warm-up values, timed values)."""
    from prayatul_edu.toydata import cluster, make_dataset
    from prayatul_edu import widgets as w

    X, y = make_dataset("blobs", n_samples=n, random_state=0)
    pred = {k: _labels_text(cluster(X, "KMeans", n_clusters=k)) for k in (2, 3, 4, 5)}
    truth = _labels_text(y)
    eps_new = [0.21 + 0.01 * i for i in range(7)]
    k_new = [2, 3, 4, 5, 6, 7, 8]
    kw = {"lecture": lecture}
    return [
        ("Prayatul explorer", "alternative eps (DBSCAN, new values)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n), "alternative eps", [0.5], eps_new),
        ("Prayatul explorer", "primary k (KMeans, new values)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n), "primary k", [], k_new),
        ("Prayatul explorer", "alternative (BIRCH, Agglomerative, GaussianMixture, new)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n, alternative_k=2), "alternative", [],
         ["BIRCH", "Agglomerative", "GaussianMixture"]),
        ("Prayatul explorer", "data set (new; both sides recomputed)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n), "data set", [],
         ["noisy_circles", "aniso", "varied", "blobs"]),
        ("Prayatul explorer", "primary k (cached values)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n), "primary k", [2, 3, 4, 2, 3, 4, 2],
         [3, 4, 2, 3, 4, 2, 3]),
        ("Prayatul explorer (Spectral)", "primary k (not in the target)",
         lambda: w.PrayatulExplorer(**kw, n_samples=n, primary="Spectral"), "primary k", [],
         [3, 4, 5]),
        ("Contingency explorer", "clusters (typed labels)",
         lambda: w.ContingencyExplorer(**kw, truth=truth, pred=pred[3]), "clusters", [],
         [pred[2], pred[4], pred[5], pred[3], pred[2], pred[4], pred[5]]),
        ("Silhouette explorer", "k (new values)",
         lambda: w.SilhouetteExplorer(**kw, n_samples=n), "k (KMeans)", [], [2, 4, 5, 6, 7, 8, 9]),
        ("Silhouette explorer", "k (cached values)",
         lambda: w.SilhouetteExplorer(**kw, n_samples=n), "k (KMeans)", [2, 3, 4, 2, 3, 4, 2],
         [3, 4, 2, 3, 4, 2, 3]),
        ("Silhouette explorer", "point x_i",
         lambda: w.SilhouetteExplorer(**kw, n_samples=n), "point x_i", [],   # typed in a box
         [str(i) for i in (10, 200, 400, 800, 1000, 1200, n)]),
        ("Silhouette explorer", "seed (new values)",
         lambda: w.SilhouetteExplorer(**kw, n_samples=n), "seed", [], [1, 2, 3, 4, 5, 6, 7]),
        # the dendrogram app's own limit (its points slider stops at 300)
        ("Dendrogram explorer, 300 points", "linkage (cached trees)",
         lambda: w.DendrogramExplorer(**kw, n_samples=300), "linkage", ["single", "complete"],
         ["average", "single", "complete", "average", "single", "complete", "average"]),
        ("Dendrogram explorer, 300 points", "seed (new)",
         lambda: w.DendrogramExplorer(**kw, n_samples=300), "seed", [], [1, 2, 3, 4, 5, 6, 7]),
        ("Dendrogram explorer, 300 points", "cut height",
         lambda: w.DendrogramExplorer(**kw, n_samples=300), "cut height", [], None),
        ("Dendrogram explorer", "cut height",
         lambda: w.DendrogramExplorer(**kw, n_samples=n), "cut height", [],
         None),   # filled in from the tree's heights
        ("Dendrogram explorer", "linkage (new)",
         lambda: w.DendrogramExplorer(**kw, n_samples=n), "linkage", [], ["single", "complete"]),
        # its own sizes (N up to 2000 instances, 999 shuffled labelings per update)
        ("Chance explorer, N = 200", "k (new values)",
         lambda: w.ChanceExplorer(**kw, n_samples=200), "k (clusters)", [],
         [4, 5, 6, 7, 8, 9, 10]),
        ("Chance explorer, N = 2000", "agreement (new values)",
         lambda: w.ChanceExplorer(**kw, n_samples=2000), "agreement", [],
         [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45]),
        ("Chance explorer, N = 200", "measure (cached results)",
         lambda: w.ChanceExplorer(**kw, n_samples=200), "measure", ["AMI"],
         ["NMI", "Rand", "purity", "ARI", "AMI", "NMI", "Rand"]),
        ("Pair-counting explorer", "clusters (typed labels)",
         lambda: w.PairCountingExplorer(**kw, truth=truth, pred=pred[3]), "clusters", [],
         [pred[2], pred[4], pred[5], pred[3], pred[2], pred[4], pred[5]]),
    ]


def png_rows(n: int) -> list:
    """The Prayatul explorer's figure encoded by the apps' encoder and by matplotlib's own
    PNG output (Pillow), side by side, at the normal and the lecture density."""
    import io

    import matplotlib.image

    from prayatul_edu import widgets as w
    from prayatul_edu.widgets.rendering import LECTURE_DPI, encode_png

    rows = []
    for lecture in (False, True):
        fig = w.PrayatulExplorer(n_samples=n, lecture=lecture)._figure
        fig.canvas.draw()
        rgba = np.asarray(fig.canvas.buffer_rgba())
        size = f"{rgba.shape[1]} x {rgba.shape[0]} px" + (f" ({LECTURE_DPI} dpi)" if lecture
                                                          else "")

        def pillow(level):
            def run():
                buffer = io.BytesIO()
                matplotlib.image.imsave(buffer, rgba, format="png",
                                        pil_kwargs={"compress_level": level})
                return buffer.getvalue()
            return run

        for name, encode in [("apps' encode_png (no filter, zlib 1)", lambda: encode_png(rgba)),
                             ("matplotlib imsave, compress_level=1", pillow(1)),
                             ("matplotlib imsave, default level (6)", pillow(6))]:
            times = []
            for _ in range(9):
                start = time.perf_counter()
                data = encode()
                times.append(time.perf_counter() - start)
            rows.append((size, name, 1000 * statistics.median(times), len(data) / 1000))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1500, help="number of points (default 1500)")
    parser.add_argument("--lecture", action="store_true", help="the apps in lecture mode")
    parser.add_argument("--app", default="", help="only the rows of apps whose name "
                        "contains this (e.g. 'Silhouette'); no PNG table then")
    args = parser.parse_args(argv)
    rows = []
    for app_name, what, make, description, warm, values in cases(args.n, args.lecture):
        if args.app not in app_name:
            continue
        app = make()
        control = app.control(description)
        if values is None:                       # cut heights spread over the tree
            top = float(app.model.tree.heights[-1])
            values = [top * f for f in (0.2, 0.35, 0.5, 0.65, 0.8, 0.3, 0.6)]
        _time_changes(app, control, warm)
        gc.collect()
        times, figure, cpu, figure_cpu = _time_changes(app, control, values)
        if app.model.params and app.message.value:
            print(f"warning: {app_name}: {app.message.value}", file=sys.stderr)
        rows.append((app_name, what, len(times), 1000 * statistics.median(times),
                     1000 * max(times), 1000 * statistics.median(figure),
                     1000 * statistics.median(cpu), 1000 * statistics.median(figure_cpu)))
    width = max(len(r[0]) + len(r[1]) for r in rows) + 3
    mode = "lecture mode" if args.lecture else "normal mode"
    print(f"One update of each app at N = {args.n} points, {mode} "
          "(model + numbers + figure PNG)\n")
    print(f"{'app: control changed':<{width}}  {'n':>2}  {'median ms':>9}  {'max ms':>7}"
          f"  {'figure ms':>9}  {'CPU ms':>6}  {'figure CPU ms':>13}")
    print("-" * (width + 60))
    for app_name, what, count, median, worst, figure, cpu, figure_cpu in rows:
        print(f"{app_name + ': ' + what:<{width}}  {count:>2}  {median:>9.1f}  {worst:>7.1f}"
              f"  {figure:>9.1f}  {cpu:>6.1f}  {figure_cpu:>13.1f}")
    if args.app:
        return 0
    print("\nPNG encoding of the same figure (Prayatul explorer), median of 9\n")
    print(f"{'image':<28}  {'encoder':<38}  {'ms':>6}  {'kB':>6}")
    print("-" * 84)
    for size, name, ms, kb in png_rows(args.n):
        print(f"{size:<28}  {name:<38}  {ms:>6.1f}  {kb:>6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
