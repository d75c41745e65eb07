"""Plots for the course: every function returns matplotlib objects (Figure / Axes).

All plots share one style (:mod:`prayatul_edu.plots._style`): the same colours
for the four Prayatul cells and the four pair types, the same cluster palette,
the same fonts. Each function takes an optional ``ax`` to draw into and
returns the Axes (or the Figure for multi-panel plots), as mglearn does.

matplotlib is imported only when this subpackage is imported, never by
``import prayatul_edu``.
"""
from ._style import (CELL_COLORS, PAIR_COLORS, cluster_colors, cluster_markers,
                     new_axes, style_axes)
from .clusterings import plot_clustering, plot_clusterings
from .compare import plot_bootstrap, plot_instance_maps, plot_prayatul_grid, save_figures
from .contingency import plot_contingency_table
from .display import figure_bundle, show_figure
from .hierarchy import plot_cophenetic_matrix, plot_dendrogram
from .judging import plot_choose_k, plot_null_distribution
from .measures import plot_measures
from .pairs import pair_types, plot_similarity_matrices
from .prayatul import (plot_instance_balance, plot_instance_map, plot_prayatul_matrix,
                       plot_tournament)
from .silhouette import plot_silhouette

__all__ = ["CELL_COLORS", "PAIR_COLORS", "cluster_colors", "cluster_markers",
           "new_axes", "style_axes",
           "plot_clustering", "plot_clusterings",
           "plot_prayatul_matrix", "plot_instance_map", "plot_instance_balance", "plot_tournament",
           "plot_prayatul_grid", "plot_instance_maps", "plot_bootstrap", "save_figures",
           "plot_contingency_table", "plot_dendrogram", "plot_cophenetic_matrix",
           "plot_measures", "pair_types", "plot_similarity_matrices", "plot_silhouette",
           "plot_null_distribution", "plot_choose_k",
           "show_figure", "figure_bundle"]
