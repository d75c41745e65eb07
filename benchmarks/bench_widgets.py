#!/usr/bin/env python3
"""How long one update of each app takes at 1500 points (target: median under 100 ms).

    python benchmarks/bench_widgets.py            # 1500 points, 7 updates per row
    python benchmarks/bench_widgets.py --n 3000 --repeat 11

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


def _time_changes(control, values) -> list[float]:
    times = []
    for v in values:
        start = time.perf_counter()
        control.value = v
        times.append(time.perf_counter() - start)
    return times


def _labels_text(labels) -> str:
    return " ".join(str(v) for v in labels.tolist())


def cases(n: int):
    """(app name, what changes, a factory of the app, control, warm-up values, timed values)."""
    from prayatul_edu.toydata import cluster, make_dataset
    from prayatul_edu import widgets as w

    X, y = make_dataset("blobs", n_samples=n, random_state=0)
    pred = {k: _labels_text(cluster(X, "KMeans", n_clusters=k)) for k in (2, 3, 4, 5)}
    truth = _labels_text(y)
    eps_new = [0.21 + 0.01 * i for i in range(7)]
    k_new = [2, 3, 4, 5, 6, 7, 8]
    return [
        ("Prayatul explorer", "alternative eps (DBSCAN, new values)",
         lambda: w.PrayatulExplorer(n_samples=n), "alternative eps", [0.5], eps_new),
        ("Prayatul explorer", "primary k (KMeans, new values)",
         lambda: w.PrayatulExplorer(n_samples=n), "primary k", [], k_new),
        ("Prayatul explorer", "alternative (BIRCH, Agglomerative, GaussianMixture, new)",
         lambda: w.PrayatulExplorer(n_samples=n, alternative_k=2), "alternative", [],
         ["BIRCH", "Agglomerative", "GaussianMixture"]),
        ("Prayatul explorer", "data set (new; both sides recomputed)",
         lambda: w.PrayatulExplorer(n_samples=n), "data set", [],
         ["noisy_circles", "aniso", "varied", "blobs"]),
        ("Prayatul explorer", "primary k (cached values)",
         lambda: w.PrayatulExplorer(n_samples=n), "primary k", [2, 3, 4, 2, 3, 4, 2],
         [3, 4, 2, 3, 4, 2, 3]),
        ("Prayatul explorer (Spectral)", "primary k (not in the target)",
         lambda: w.PrayatulExplorer(n_samples=n, primary="Spectral"), "primary k", [],
         [3, 4, 5]),
        ("Contingency explorer", "clusters (typed labels)",
         lambda: w.ContingencyExplorer(truth=truth, pred=pred[3]), "clusters", [],
         [pred[2], pred[4], pred[5], pred[3], pred[2], pred[4], pred[5]]),
        ("Silhouette explorer", "k (new values)",
         lambda: w.SilhouetteExplorer(n_samples=n), "k (KMeans)", [], [2, 4, 5, 6, 7, 8, 9]),
        ("Silhouette explorer", "point i",
         lambda: w.SilhouetteExplorer(n_samples=n), "point i", [],
         [10, 200, 400, 800, 1000, 1200, n - 1]),
        ("Dendrogram explorer", "cut height",
         lambda: w.DendrogramExplorer(n_samples=n), "cut height", [],
         None),   # filled in from the tree's heights
        ("Dendrogram explorer", "linkage (new)",
         lambda: w.DendrogramExplorer(n_samples=n), "linkage", [], ["single", "complete"]),
        ("Pair-counting explorer", "clusters (typed labels)",
         lambda: w.PairCountingExplorer(truth=truth, pred=pred[3]), "clusters", [],
         [pred[2], pred[4], pred[5], pred[3], pred[2], pred[4], pred[5]]),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1500, help="number of points (default 1500)")
    args = parser.parse_args(argv)
    rows = []
    for app_name, what, make, description, warm, values in cases(args.n):
        app = make()
        control = app.control(description)
        if values is None:                       # cut heights spread over the tree
            top = float(app.model.tree.heights[-1])
            values = [top * f for f in (0.2, 0.35, 0.5, 0.65, 0.8, 0.3, 0.6)]
        _time_changes(control, warm)
        gc.collect()
        times = _time_changes(control, values)
        if app.model.params and app.message.value:
            print(f"warning: {app_name}: {app.message.value}", file=sys.stderr)
        rows.append((app_name, what, len(times), 1000 * statistics.median(times),
                     1000 * max(times)))
    width = max(len(r[0]) + len(r[1]) for r in rows) + 3
    print(f"One update of each app at N = {args.n} points (model + numbers + figure PNG)\n")
    print(f"{'app: control changed':<{width}}  {'n':>2}  {'median ms':>9}  {'max ms':>7}")
    print("-" * (width + 25))
    for app_name, what, count, median, worst in rows:
        print(f"{app_name + ': ' + what:<{width}}  {count:>2}  {median:>9.1f}  {worst:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
