"""Agglomerative (hierarchical) clustering, the cophenetic matrix and the CPCC.

One import for the hierarchy topic; the pieces live in small modules:

* :mod:`prayatul_edu.linkages`: the seven linkages as one table, ``LINKAGES``;
* :mod:`prayatul_edu.agglomeration`: the merge algorithms (the lecture's loop,
  SciPy's O(N^2) algorithms, replaying a tree);
* :mod:`prayatul_edu.tree`: :func:`agglomerative` and its result;
* :mod:`prayatul_edu.cophenetic`: :func:`cophenetic_matrix` and
  :func:`cophenetic_correlation`.
"""
from .cophenetic import (CopheneticCorrelation, CopheneticMatrix,  # noqa: F401 (re-exported)
                         cophenetic_correlation, cophenetic_matrix)
from .linkages import LINKAGES, Linkage  # noqa: F401 (re-exported)
from .tree import (AgglomerativeResult, LazyMergeSteps, MergeStep,  # noqa: F401 (re-exported)
                   agglomerative)

__all__ = ["agglomerative", "cophenetic_matrix", "cophenetic_correlation"]
