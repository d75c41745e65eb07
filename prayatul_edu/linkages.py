"""The seven linkages of agglomerative clustering, as one table.

A *linkage* says how far apart two clusters are. Every linkage here has a
Lance-Williams update: after clusters A and B merge, the distance from
``A u B`` to any other cluster C follows from ``d(A, C)``, ``d(B, C)``,
``d(A, B)`` and the three sizes alone,

.. math::
    d(A \\cup B, C) = \\alpha_A\\, d(A, C) + \\alpha_B\\, d(B, C)
    + \\beta\\, d(A, B) + \\gamma\\, |d(A, C) - d(B, C)|.

Ward, centroid and median linkage are defined on *squared Euclidean*
distances (the rule holds for ``d^2``, not for ``d``). SciPy, and this
library, keep plain distances in the matrix and heights in plain units:
each update squares the three inputs, applies the rule and takes the square
root. Given any distance matrix (not only a Euclidean one) that is what
happens, "as if" the distances were Euclidean.

``LINKAGES`` maps each name to its :class:`Linkage`; the algorithms and the
derivations read everything they need from it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .steps import fmt

__all__ = ["Linkage", "LINKAGES"]


@dataclass(frozen=True)
class Linkage:
    """One linkage: its definition, its Lance-Williams update and how to compute it.

    Attributes
    ----------
    name : str
        SciPy's name (``"single"``, ..., ``"ward"``).
    title : str
        How the lecture and the literature call it.
    definition : str
        What ``d(A, B)`` is, in words.
    coefficients : tuple of str
        ``alpha_A, alpha_B, beta, gamma`` of the Lance-Williams rule (sizes
        ``|A|, |B|, |C|``); applied to squared distances when ``squared``.
    rule : tuple of str
        The update ``d(A u B, C) = ...`` as (LaTeX, plain text).
    update : callable
        ``update(d_AC, d_BC, d_AB, n_A, n_B, n_C)`` -> ``d(A u B, C)``, with
        ``d_AC``, ``d_BC`` and ``n_C`` arrays over the clusters C; the same
        arithmetic, operation for operation, as SciPy.
    numbers : callable
        ``numbers(d_AC, d_BC, d_AB, n_A, n_B, n_C)`` -> (LaTeX, plain) of the
        update with the numbers put in (for derivations).
    squared : bool
        The rule is for squared Euclidean distances (Ward, centroid, median).
    monotone : bool
        Merge heights never go down. Centroid and median linkage can merge
        below an earlier merge: a dendrogram *inversion*.
    algorithm : str
        The fast algorithm: ``"mst"`` (Prim's minimum spanning tree),
        ``"nn_chain"`` (nearest-neighbour chain, for reducible linkages) or
        ``"generic"`` (Mullner's generic algorithm, which allows inversions).
    """

    name: str
    title: str
    definition: str
    coefficients: tuple[str, str, str, str]
    rule: tuple[str, str]
    update: Callable = None
    numbers: Callable = None
    squared: bool = False
    monotone: bool = True
    algorithm: str = "nn_chain"

    @property
    def needs_euclidean(self) -> bool:
        """Ward, centroid and median linkage mean what they say only for Euclidean distances."""
        return self.squared


# ------------------------------------------------------- the updates (as SciPy)
def _single(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    return np.minimum(d_AC, d_BC)


def _complete(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    return np.maximum(d_AC, d_BC)


def _average(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    # (n_A d_AC + n_B d_BC) / (n_A + n_B), in place (no temporaries)
    out = n_A * d_AC
    out += n_B * d_BC
    out /= n_A + n_B
    return out


def _weighted(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    return 0.5 * (d_AC + d_BC)


def _root(squared):
    """The square root of an updated squared distance. It is never negative: the merged
    pair is the closest (d(A, B) <= d(A, C), d(B, C)), which keeps each rule >= d(A, B)^2."""
    return np.sqrt(squared, out=squared if isinstance(squared, np.ndarray) else None)


def _centroid(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    # ((n_A d_AC^2 + n_B d_BC^2) - n_A n_B d_AB^2 / (n_A + n_B)) / (n_A + n_B), in place
    a = n_A * d_AC
    a *= d_AC
    b = n_B * d_BC
    b *= d_BC
    a += b
    a -= (n_A * n_B * d_AB * d_AB) / (n_A + n_B)
    a /= n_A + n_B
    return _root(a)


def _median(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    # 0.5 (d_AC^2 + d_BC^2) - 0.25 d_AB^2, in place
    a = d_AC * d_AC
    a += d_BC * d_BC
    a *= 0.5
    a -= 0.25 * d_AB * d_AB
    return _root(a)


def _ward(d_AC, d_BC, d_AB, n_A, n_B, n_C):
    # (n_C + n_A) t d_AC^2 + (n_C + n_B) t d_BC^2 - n_C t d_AB^2, t = 1 / (n_A + n_B + n_C),
    # multiplied left to right as SciPy does, in place (no temporaries)
    t = np.add(n_C, n_A + n_B, dtype=float)
    t = np.divide(1.0, t, out=t if isinstance(t, np.ndarray) else None)
    a = np.add(n_C, n_A, dtype=float)
    a *= t
    a *= d_AC
    a *= d_AC
    b = np.add(n_C, n_B, dtype=float)
    b *= t
    b *= d_BC
    b *= d_BC
    t *= n_C                              # c = n_C t d_AB^2, in t's memory
    t *= d_AB
    t *= d_AB
    a += b
    a -= t
    return _root(a)


# ------------------------------------------------- the updates with numbers
def _f(x) -> str:
    return fmt(float(x))


def _numbers_single(a, b, ab, nA, nB, nC):
    return rf"\min({_f(a)}, {_f(b)})", f"min({_f(a)}, {_f(b)})"


def _numbers_complete(a, b, ab, nA, nB, nC):
    return rf"\max({_f(a)}, {_f(b)})", f"max({_f(a)}, {_f(b)})"


def _numbers_average(a, b, ab, nA, nB, nC):
    return (rf"\frac{{{nA} \times {_f(a)} + {nB} \times {_f(b)}}}{{{nA + nB}}}",
            f"({nA} * {_f(a)} + {nB} * {_f(b)}) / {nA + nB}")


def _numbers_weighted(a, b, ab, nA, nB, nC):
    return rf"\frac{{{_f(a)} + {_f(b)}}}{{2}}", f"({_f(a)} + {_f(b)}) / 2"


def _numbers_centroid(a, b, ab, nA, nB, nC):
    n = nA + nB
    return (rf"\sqrt{{\frac{{{nA}}}{{{n}}} {_f(a)}^2 + \frac{{{nB}}}{{{n}}} {_f(b)}^2 "
            rf"- \frac{{{nA * nB}}}{{{n * n}}} {_f(ab)}^2}}",
            f"sqrt({nA}/{n} * {_f(a)}^2 + {nB}/{n} * {_f(b)}^2 - {nA * nB}/{n * n} * "
            f"{_f(ab)}^2)")


def _numbers_median(a, b, ab, nA, nB, nC):
    return (rf"\sqrt{{\tfrac12 {_f(a)}^2 + \tfrac12 {_f(b)}^2 - \tfrac14 {_f(ab)}^2}}",
            f"sqrt({_f(a)}^2 / 2 + {_f(b)}^2 / 2 - {_f(ab)}^2 / 4)")


def _numbers_ward(a, b, ab, nA, nB, nC):
    n = nA + nB + nC
    return (rf"\sqrt{{\frac{{{nA + nC}}}{{{n}}} {_f(a)}^2 + \frac{{{nB + nC}}}{{{n}}} "
            rf"{_f(b)}^2 - \frac{{{nC}}}{{{n}}} {_f(ab)}^2}}",
            f"sqrt({nA + nC}/{n} * {_f(a)}^2 + {nB + nC}/{n} * {_f(b)}^2 - {nC}/{n} * "
            f"{_f(ab)}^2)")


# ------------------------------------------------------------------ the table
_ENTRIES = [
    Linkage("single", "single linkage (nearest neighbour)",
            "the smallest distance between a member of A and a member of B",
            ("1/2", "1/2", "0", "-1/2"),
            (r"d(A \cup B, C) = \min\{d(A, C),\ d(B, C)\}",
             "d(A u B, C) = min(d(A, C), d(B, C))"),
            _single, _numbers_single, algorithm="mst"),
    Linkage("complete", "complete linkage (farthest neighbour)",
            "the largest distance between a member of A and a member of B",
            ("1/2", "1/2", "0", "1/2"),
            (r"d(A \cup B, C) = \max\{d(A, C),\ d(B, C)\}",
             "d(A u B, C) = max(d(A, C), d(B, C))"),
            _complete, _numbers_complete),
    Linkage("average", "average linkage (UPGMA)",
            "the mean distance over all pairs (a in A, b in B)",
            ("|A|/(|A|+|B|)", "|B|/(|A|+|B|)", "0", "0"),
            (r"d(A \cup B, C) = \frac{|A|\,d(A, C) + |B|\,d(B, C)}{|A| + |B|}",
             "d(A u B, C) = (|A| d(A, C) + |B| d(B, C)) / (|A| + |B|)"),
            _average, _numbers_average),
    Linkage("weighted", "weighted average linkage (WPGMA)",
            "set by its update: if A was made of A1 and A2, d(A, B) is the plain mean "
            "of d(A1, B) and d(A2, B) whatever their sizes (so it depends on the order "
            "of the merges)",
            ("1/2", "1/2", "0", "0"),
            (r"d(A \cup B, C) = \frac{d(A, C) + d(B, C)}{2}",
             "d(A u B, C) = (d(A, C) + d(B, C)) / 2"),
            _weighted, _numbers_weighted),
    Linkage("centroid", "centroid linkage (UPGMC)",
            "the Euclidean distance between the centroids (means) of A and B",
            ("|A|/(|A|+|B|)", "|B|/(|A|+|B|)", "-|A||B|/(|A|+|B|)^2", "0"),
            (r"d(A \cup B, C)^2 = \frac{|A|}{|A|+|B|} d(A, C)^2 + \frac{|B|}{|A|+|B|} "
             r"d(B, C)^2 - \frac{|A|\,|B|}{(|A|+|B|)^2} d(A, B)^2",
             "d(A u B, C)^2 = |A|/(|A|+|B|) d(A, C)^2 + |B|/(|A|+|B|) d(B, C)^2 "
             "- |A||B|/(|A|+|B|)^2 d(A, B)^2"),
            _centroid, _numbers_centroid, squared=True, monotone=False, algorithm="generic"),
    Linkage("median", "median linkage (WPGMC)",
            "the Euclidean distance between the clusters' midpoints, where a merged "
            "cluster's midpoint is halfway between its two parts' midpoints whatever "
            "their sizes",
            ("1/2", "1/2", "-1/4", "0"),
            (r"d(A \cup B, C)^2 = \tfrac12 d(A, C)^2 + \tfrac12 d(B, C)^2 "
             r"- \tfrac14 d(A, B)^2",
             "d(A u B, C)^2 = d(A, C)^2 / 2 + d(B, C)^2 / 2 - d(A, B)^2 / 4"),
            _median, _numbers_median, squared=True, monotone=False, algorithm="generic"),
    Linkage("ward", "Ward's minimum variance linkage",
            "sqrt(2 |A||B| / (|A|+|B|)) times the Euclidean distance between the "
            "centroids of A and B (so d(A, B)^2 / 2 is the growth of the within-cluster "
            "sum of squares when A and B merge)",
            ("(|A|+|C|)/(|A|+|B|+|C|)", "(|B|+|C|)/(|A|+|B|+|C|)",
             "-|C|/(|A|+|B|+|C|)", "0"),
            (r"d(A \cup B, C)^2 = \frac{(|A|+|C|)\,d(A, C)^2 + (|B|+|C|)\,d(B, C)^2 "
             r"- |C|\,d(A, B)^2}{|A|+|B|+|C|}",
             "d(A u B, C)^2 = ((|A|+|C|) d(A, C)^2 + (|B|+|C|) d(B, C)^2 - |C| d(A, B)^2) "
             "/ (|A|+|B|+|C|)"),
            _ward, _numbers_ward, squared=True),
]

#: Every linkage, by name, in SciPy's order of documentation.
LINKAGES: dict[str, Linkage] = {entry.name: entry for entry in _ENTRIES}
