"""Several measures side by side as horizontal bars."""
from __future__ import annotations

import numpy as np

from ._style import NEGATIVE_COLOR, POSITIVE_COLOR, new_axes, style_axes

__all__ = ["plot_measures"]


def plot_measures(values: dict, ax=None, title: str | None = None, *,
                  vmin: float = -1.0, vmax: float = 1.0):
    """One horizontal bar per measure (``{name: value}``), its value written beside it.

    Positive values are blue, negative red, NaN shown as "nan" with no bar.
    Returns the Axes.

    Examples
    --------
    >>> from prayatul_edu.plots import plot_measures
    >>> ax = plot_measures({"ARI": 0.42, "NMI": 0.51})
    >>> len(ax.patches)
    2
    """
    if not isinstance(values, dict) or not values:
        raise TypeError("values: expected a non-empty dict {measure name: number}")
    names = list(values)
    v = np.array([float(values[k]) for k in names])
    ax = new_axes(ax, figsize=(4.0, 0.35 * len(names) + 0.8))
    y = np.arange(len(names))[::-1]
    shown = np.nan_to_num(v, nan=0.0)
    ax.barh(y, shown, color=np.where(shown >= 0, POSITIVE_COLOR, NEGATIVE_COLOR), height=0.6)
    for yi, vi in zip(y, v):
        ax.text(vi if np.isfinite(vi) else 0, yi, f" {vi:.3f} " if np.isfinite(vi) else " nan",
                va="center", ha="left" if not np.isfinite(vi) or vi >= 0 else "right",
                fontsize=8)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, names, fontsize=9)
    ax.set_xlim(vmin - 0.35 * (vmin < 0), vmax + 0.35)
    return style_axes(ax, title)
