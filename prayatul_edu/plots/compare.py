"""Figures of ``prayatul-edu compare``: clusterings, Prayatul matrices, tournament, instance maps."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..prayatul import PRAYATUL_MEASURES, prayatul_by_instance
from ._style import POSITIVE_COLOR, new_axes
from .clusterings import plot_clusterings
from .prayatul import plot_instance_map, plot_prayatul_matrix, plot_tournament

__all__ = ["plot_prayatul_grid", "plot_instance_maps", "plot_bootstrap", "save_figures"]


def plot_prayatul_grid(tournament, title: str | None = None):
    """Every computed pair's Prayatul matrix: row = primary, column = alternative. The Figure.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from prayatul_edu.compare import tournament
    >>> from prayatul_edu.plots import plot_prayatul_grid
    >>> t = tournament([0, 0, 1, 1], {"A": [0, 0, 0, 1], "B": [1, 1, 0, 0]})
    >>> fig = plot_prayatul_grid(t, title="two algorithms")
    >>> sum(ax.get_visible() for ax in fig.axes)    # A vs B and B vs A; the diagonal blank
    2
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    names = tournament.names
    k = len(names)
    fig, axes = plt.subplots(k, k, figsize=(2.9 * k, 2.7 * k), layout="constrained",
                             squeeze=False)
    for i, p in enumerate(names):
        for j, q in enumerate(names):
            ax = axes[i, j]
            if (p, q) in tournament.matrices:
                plot_prayatul_matrix(tournament[p, q], ax=ax, primary=p, alternative=q,
                                     title=f"{p} vs {q}")
            else:
                ax.set_visible(False)
    if title:
        fig.suptitle(title)
    return fig


def plot_instance_maps(X, truth, labelings: dict, pairs=None, title: str | None = None):
    """Where each primary is right and its alternative wrong, one panel per pair. The Figure.

    ``pairs`` defaults to each unordered pair once (the reversed pair is the same map
    with the colours swapped).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from prayatul_edu.plots import plot_instance_maps
    >>> from prayatul_edu.toydata import make_dataset, cluster
    >>> X, y = make_dataset("noisy_moons", n_samples=80)
    >>> runs = {a: cluster(X, a) for a in ("KMeans", "DBSCAN", "BIRCH")}
    >>> fig = plot_instance_maps(X, y, runs)
    >>> [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.get_title()]
    ['KMeans vs DBSCAN', 'KMeans vs BIRCH', 'DBSCAN vs BIRCH']
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    names = list(labelings)
    if pairs is None:
        pairs = [(p, q) for i, p in enumerate(names) for q in names[i + 1:]]
    ncols = min(3, len(pairs))
    nrows = int(np.ceil(len(pairs) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.6 * nrows),
                             layout="constrained", squeeze=False)
    for ax, (p, q) in zip(axes.ravel(), pairs):
        counts = prayatul_by_instance(truth, labelings[p], labelings[q])
        plot_instance_map(X, counts, ax=ax, title=f"{p} vs {q}", size=5)
    for ax in axes.ravel()[len(pairs):]:
        ax.set_visible(False)
    fig.suptitle((title + "\n" if title else "") + "blue: the first of the pair right, the "
                 "second wrong; red: the reverse", fontsize=11)
    return fig


def plot_bootstrap(boot, measure: str = "comparative_deviation", ax=None,
                   title: str | None = None):
    """Each pair's estimate with its bootstrap interval (a horizontal bar). The Axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from prayatul_edu.compare import bootstrap
    >>> from prayatul_edu.plots import plot_bootstrap
    >>> truth = np.random.default_rng(1).integers(0, 2, 100)
    >>> b = bootstrap(truth, {"good": truth, "bad": 1 - truth}, n_resamples=20)
    >>> ax = plot_bootstrap(b)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['good vs bad', 'bad vs good']
    >>> plt.close(ax.figure)
    """
    rows = boot.rows()
    ax = new_axes(ax, figsize=(5.5, 0.35 * len(rows) + 1.2))
    y = np.arange(len(rows))[::-1]
    est = np.array([r[measure]["estimate"] for r in rows])
    low = np.array([r[measure]["low"] for r in rows])
    high = np.array([r[measure]["high"] for r in rows])
    ax.hlines(y, low, high, color=POSITIVE_COLOR, linewidth=3)
    ax.plot(est, y, "o", color="black", markersize=4)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, [f"{r['primary']} vs {r['alternative']}" for r in rows])
    ax.set_xlabel(f"{PRAYATUL_MEASURES[measure].symbol} ({boot.confidence:.0%} interval, "
                  f"{boot.n_resamples} resamples)")
    if title:
        ax.set_title(title, fontsize=11)
    return ax


def save_figures(experiment, out_dir) -> list[Path]:
    """Write each data set's figures as PNG into ``out_dir`` (created); the paths written.

    Examples
    --------
    >>> import tempfile
    >>> from prayatul_edu.compare import compare_labelings
    >>> from prayatul_edu.plots import save_figures
    >>> from prayatul_edu.toydata import make_dataset, cluster
    >>> X, y = make_dataset("noisy_moons", n_samples=80)
    >>> e = compare_labelings(y, {a: cluster(X, a) for a in ("KMeans", "DBSCAN")}, X,
    ...                       name="moons")
    >>> for path in save_figures(e, tempfile.mkdtemp()):
    ...     print(path.name)
    moons_clusterings.png
    moons_prayatul_matrices.png
    moons_tournament.png
    moons_instance_maps.png
    """
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def save(fig, name):
        path = out / name
        fig.savefig(path, dpi=80)
        plt.close(fig)
        written.append(path)

    for ds in experiment.datasets:
        stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in ds.name)
        if ds.X is not None:
            save(plot_clusterings(ds.X, {"truth": ds.truth, **ds.labelings}),
                 f"{stem}_clusterings.png")
        if ds.tournament is None:       # one algorithm: no pair to compare
            continue
        save(plot_prayatul_grid(ds.tournament, title=f"{ds.title}: Prayatul matrices"),
             f"{stem}_prayatul_matrices.png")
        ax = plot_tournament(ds.tournament.values("effective_superiority"), ds.tournament.names,
                             title=f"{ds.title}: effective superiority")
        save(ax.figure, f"{stem}_tournament.png")
        if ds.X is not None:
            pairs = [(p, q) for p, q in ds.tournament.pairs
                     if (q, p) not in ds.tournament.matrices
                     or ds.tournament.names.index(p) < ds.tournament.names.index(q)]
            save(plot_instance_maps(ds.X, ds.truth, ds.labelings, pairs,
                                    title=f"{ds.title}: where one is right and the other wrong"),
                 f"{stem}_instance_maps.png")
        if ds.bootstrap is not None:
            ax = plot_bootstrap(ds.bootstrap, title=f"{ds.title}: comparative deviation")
            save(ax.figure, f"{stem}_bootstrap.png")
    return written
