"""Scatter plots of clusterings."""
from __future__ import annotations

import numpy as np

from ._style import NOISE_COLOR, cluster_colors, cluster_markers, new_axes, style_axes

__all__ = ["plot_clustering", "plot_clusterings"]


def plot_clustering(X, labels, ax=None, title: str | None = None, *, size: float = 8.0):
    """Scatter the 2-D points ``X`` coloured by ``labels`` (noise -1 in black). Returns the Axes.

    Beyond the palette's nine colours the colours repeat with another marker shape
    (squares for clusters 10-18, ...), so no two clusters look the same.

    Examples
    --------
    >>> from prayatul_edu.plots import plot_clustering
    >>> from prayatul_edu.toydata import make_dataset
    >>> X, y = make_dataset("noisy_moons", n_samples=100)
    >>> ax = plot_clustering(X, y, title="the truth")
    >>> ax.get_title()
    'the truth'
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X: expected an N x 2 array of points, got shape {X.shape}")
    labels = np.asarray(labels)
    if labels.shape[0] != X.shape[0]:
        raise ValueError(f"X and labels must describe the same points, but have lengths "
                         f"{X.shape[0]} and {labels.shape[0]}")
    ax = new_axes(ax)
    colors, markers = cluster_colors(labels), cluster_markers(labels)
    for marker in dict.fromkeys(markers.tolist()):    # one call up to nine clusters
        mine = markers == marker
        ax.scatter(X[mine, 0], X[mine, 1], c=colors[mine], marker=marker, s=size,
                   linewidths=0)
    noise = colors == NOISE_COLOR
    if noise.any():
        ax.text(0.01, 0.01, f"noise (-1): {int(noise.sum())} points", transform=ax.transAxes,
                fontsize=8, va="bottom")
    return style_axes(ax, title, equal=True, ticks=False)


def plot_clusterings(X, labelings: dict, ncols: int | None = None, size: float = 6.0):
    """Several clusterings of the same points side by side. Returns the Figure.

    Examples
    --------
    >>> from prayatul_edu.plots import plot_clusterings
    >>> from prayatul_edu.toydata import make_dataset, cluster
    >>> X, y = make_dataset("blobs", n_samples=60)
    >>> fig = plot_clusterings(X, {"truth": y, "KMeans": cluster(X, "KMeans", n_clusters=3)})
    >>> [ax.get_title() for ax in fig.axes]
    ['truth', 'KMeans']
    """
    import matplotlib.pyplot as plt

    names = list(labelings)
    ncols = ncols or len(names)
    nrows = int(np.ceil(len(names) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.0 * ncols, 3.0 * nrows),
                             layout="constrained", squeeze=False)
    for ax, name in zip(axes.ravel(), names):
        plot_clustering(X, labelings[name], ax=ax, title=name, size=size)
    for ax in axes.ravel()[len(names):]:
        ax.set_visible(False)
    return fig
