"""Plots for the course: every function returns matplotlib objects (Figure / Axes).

All plots share one style (:mod:`prayatul_edu.plots._style`): the same colours
for the four Prayatul cells and the four pair types, the same cluster palette,
the same fonts. Each function takes an optional ``ax`` to draw into and
returns the Axes (or the Figure for multi-panel plots), as mglearn does.

matplotlib is imported only when this subpackage is imported, never by
``import prayatul_edu``.
"""
from ._style import CELL_COLORS, PAIR_COLORS, cluster_colors, new_axes, style_axes
from .clusterings import plot_clustering, plot_clusterings
from .prayatul import plot_instance_map, plot_prayatul_matrix, plot_tournament

__all__ = ["CELL_COLORS", "PAIR_COLORS", "cluster_colors", "new_axes", "style_axes",
           "plot_clustering", "plot_clusterings",
           "plot_prayatul_matrix", "plot_instance_map", "plot_tournament"]
