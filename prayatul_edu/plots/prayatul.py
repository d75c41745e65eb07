"""Plots of the Prayatul matrix: the 2x2 heatmap, the instance map, the tournament."""
from __future__ import annotations

import numpy as np

from ..steps import fmt_count
from ._style import (CELL_COLORS, NEGATIVE_COLOR, POINT_EDGE_COLOR, POSITIVE_COLOR,
                     balance_colormap, new_axes, style_axes, text_color_on)

__all__ = ["plot_prayatul_matrix", "plot_instance_map", "plot_instance_balance", "plot_tournament",
           "prayatul_cells", "instance_balance"]

CELL_NAMES = ("BR", "RW", "WR", "BW")  # row by row: [[BR, RW], [WR, BW]]


def prayatul_cells(counts):
    """What the heatmap shows in each cell: ``(image, texts, text_colors)``.

    ``image`` is 2 x 2 x 3 RGB: each cell's colour (``CELL_COLORS``) tinted by its
    share of the pairs (never fully white, so a small cell stays visible);
    ``texts`` and ``text_colors`` list the four cells row by row.
    """
    from matplotlib.colors import to_rgb

    counts = np.asarray(counts, dtype=np.int64)
    share = counts / max(int(counts.sum()), 1)
    image = np.ones((2, 2, 3))
    texts, colors = [], []
    for (i, j), name in zip(np.ndindex(2, 2), CELL_NAMES):
        strength = 0.25 + 0.75 * np.sqrt(share[i, j])
        image[i, j] = 1 - strength * (1 - np.array(to_rgb(CELL_COLORS[name])))
        texts.append(f"{name}\n{fmt_count(counts[i, j])}\n{share[i, j]:.1%}")
        colors.append(text_color_on(image[i, j]))        # >= 4.5:1 on any tint
    return image, texts, colors


def plot_prayatul_matrix(matrix, ax=None, title: str | None = None,
                         primary: str = "primary", alternative: str = "alternative"):
    """The 2x2 Prayatul matrix as a heatmap with counts and shares. Returns the Axes.

    ``matrix`` is a :class:`~prayatul_edu.prayatul.PrayatulMatrix` (or anything
    ``np.asarray`` turns into ``[[BR, RW], [WR, BW]]``).

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_prayatul_matrix
    >>> m = pe.prayatul_matrix([0, 0, 1, 1], [0, 0, 1, 0], [0, 1, 1, 1])
    >>> ax = plot_prayatul_matrix(m, primary="A", alternative="B")
    >>> len(ax.texts) >= 4
    True
    """
    counts = np.asarray(matrix, dtype=np.int64)
    if counts.shape != (2, 2):
        raise ValueError(f"matrix: expected the 2 x 2 Prayatul matrix, got shape {counts.shape}")
    ax = new_axes(ax, figsize=(3.8, 3.4))
    image, texts, colors = prayatul_cells(counts)
    ax.imshow(image)
    for (i, j), text, color in zip(np.ndindex(2, 2), texts, colors):
        ax.text(j, i, text, ha="center", va="center", fontsize=10, color=color)
    ax.set_xticks([0, 1], [f"{alternative}\nright", f"{alternative}\nwrong"])
    ax.set_yticks([0, 1], [f"{primary}\nright", f"{primary}\nwrong"])
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    if title:
        ax.set_title(title, fontsize=11)
    return ax


def instance_balance(by_instance) -> np.ndarray:
    """Each point's RW - WR balance: a share of its pairs, in [-1, 1] (the colour scale
    of :func:`plot_instance_map` is that whole range, the same in every figure, so that
    a colour means the same balance whatever the algorithms compared).

    >>> instance_balance([[2, 3, 0, 0], [1, 0, 3, 1]]).tolist()
    [0.6, -0.6]
    """
    counts = np.asarray(by_instance, dtype=float)
    if counts.ndim != 2 or counts.shape[1] != 4:
        raise ValueError(f"by_instance: expected an N x 4 array, got shape {counts.shape}")
    pairs = counts.sum(axis=1)
    return (counts[:, 1] - counts[:, 2]) / np.where(pairs > 0, pairs, 1)


def plot_instance_map(X, by_instance, ax=None, title: str | None = None, size: float = 10.0):
    """Where the primary wins and loses: each point coloured by its pairs' RW - WR balance.

    ``by_instance`` is the (N, 4) array of :func:`prayatul_edu.prayatul_by_instance`
    (columns BR, RW, WR, BW). Blue points are mostly in RW pairs (primary right,
    alternative wrong), vermillion ones mostly in WR pairs; grey ones are on neither side
    (every point has a dark edge, so none vanishes on the white background).
    Returns the Axes (its colour bar reads the balance).

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_instance_map
    >>> from prayatul_edu.toydata import make_dataset, cluster
    >>> X, y = make_dataset("noisy_moons", n_samples=80)
    >>> by = pe.prayatul_by_instance(y, cluster(X, "KMeans"), cluster(X, "DBSCAN"))
    >>> ax = plot_instance_map(X, by)
    >>> len(ax.collections) >= 1
    True
    """
    X = np.asarray(X, dtype=float)
    counts = np.asarray(by_instance, dtype=float)
    if counts.ndim != 2 or counts.shape[1] != 4:
        raise ValueError(f"by_instance: expected an N x 4 array, got shape {counts.shape}")
    if X.ndim != 2 or X.shape[0] != counts.shape[0]:
        raise ValueError(f"X and by_instance must describe the same points, but have "
                         f"{X.shape[0]} and {counts.shape[0]} rows")
    ax = new_axes(ax)
    balance = instance_balance(counts)
    order = np.argsort(np.abs(balance))  # strongest points drawn last, on top
    sc = ax.scatter(X[order, 0], X[order, 1], c=balance[order], cmap=balance_colormap(),
                    vmin=-1.0, vmax=1.0, s=size, edgecolors=POINT_EDGE_COLOR, linewidths=0.3)
    ax.figure.colorbar(sc, ax=ax, shrink=0.8, label="(RW - WR) / pairs of the point")
    return style_axes(ax, title, equal=True, ticks=False)


def plot_instance_balance(by_instance, ax=None, title: str | None = None, max_bars: int = 100):
    """The instance map without points: each instance's RW - WR balance, x1 to xN in order.

    For labels that come without coordinates (a lecturer's own): a bar per
    instance, blue above zero (mostly in RW pairs: the primary right, the
    alternative wrong), vermillion below (mostly WR). Past ``max_bars``
    instances the bars become a filled profile (same colours). Returns the Axes.

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> from prayatul_edu.plots import plot_instance_balance
    >>> by = pe.prayatul_by_instance([0, 0, 1, 1], [0, 0, 1, 0], [0, 1, 1, 1])
    >>> ax = plot_instance_balance(by)
    >>> len(ax.patches)
    4
    """
    balance = instance_balance(by_instance)
    ax = new_axes(ax)
    x = np.arange(1, balance.shape[0] + 1)
    if balance.shape[0] <= max_bars:
        ax.bar(x, balance, width=0.8,
               color=np.where(balance >= 0, POSITIVE_COLOR, NEGATIVE_COLOR))
        if balance.shape[0] <= 20:
            ax.set_xticks(x, [f"x{i}" for i in x], fontsize=8)
    else:
        ax.fill_between(x, balance, where=balance >= 0, step="mid", color=POSITIVE_COLOR,
                        linewidth=0)
        ax.fill_between(x, balance, where=balance < 0, step="mid", color=NEGATIVE_COLOR,
                        linewidth=0)
    ax.axhline(0, color="0.3", linewidth=0.8)
    limit = max(float(np.abs(balance).max()), 1e-12)
    ax.set_ylim(-1.05 * limit, 1.05 * limit)
    ax.set_xlim(0.4, balance.shape[0] + 0.6)
    ax.set_xlabel("instance")
    ax.set_ylabel("(RW - WR) / pairs")
    return style_axes(ax, title)


def plot_tournament(values, names, ax=None, title: str | None = None,
                    measure: str = "effective superiority", vmin: float = -1.0, vmax: float = 1.0):
    """A measure for every ordered pair of algorithms: row = primary, column = alternative.

    ``values[i][j]`` is the measure of algorithm ``names[i]`` (primary) against
    ``names[j]`` (alternative); the diagonal is left blank. Returns the Axes.

    Examples
    --------
    >>> import numpy as np
    >>> from prayatul_edu.plots import plot_tournament
    >>> values = np.array([[np.nan, 0.4], [-0.4, np.nan]])
    >>> ax = plot_tournament(values, ["KMeans", "DBSCAN"])
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['KMeans', 'DBSCAN']
    """
    values = np.array(values, dtype=float)
    k = len(names)
    if values.shape != (k, k):
        raise ValueError(f"values: expected a {k} x {k} array (one row and column per name), "
                         f"got shape {values.shape}")
    shown = values.copy()
    np.fill_diagonal(shown, np.nan)
    ax = new_axes(ax, figsize=(1.2 * k + 2.2, 1.0 * k + 1.6))
    im = ax.imshow(shown, cmap="RdBu", vmin=vmin, vmax=vmax)
    for i in range(k):
        for j in range(k):
            if i != j and np.isfinite(shown[i, j]):
                ax.text(j, i, f"{shown[i, j]:.3f}", ha="center", va="center", fontsize=9,
                        color=text_color_on(im.cmap(im.norm(shown[i, j]))))
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("alternative")
    ax.set_ylabel("primary")
    ax.figure.colorbar(im, ax=ax, shrink=0.8, label=measure)
    return style_axes(ax, title)
