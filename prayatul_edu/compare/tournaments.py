"""Table I: the Prayatul matrix of every ordered pair of algorithms (a tournament)."""
from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ..labels import check_labels
from ..prayatul import PRAYATUL_MEASURES, PrayatulMatrix, prayatul_matrix
from ..steps import Derivation, Result, fixed

__all__ = ["Tournament", "tournament"]


class Tournament(Result):
    """The Prayatul matrix of ordered pairs of algorithms: ``t[primary, alternative]``.

    ``names`` are the algorithms; ``pairs`` the ordered pairs computed (all of
    them for a full tournament); :meth:`values` gives one measure as a k x k array.
    """

    def __init__(self, names: list[str], matrices: dict):
        self.names = list(names)
        self.matrices = matrices

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(self.matrices)

    def __getitem__(self, pair) -> PrayatulMatrix:
        return self.matrices[tuple(pair)]

    def __iter__(self):
        return iter(self.matrices.items())

    def __len__(self) -> int:
        return len(self.matrices)

    def values(self, measure: str = "effective_superiority") -> np.ndarray:
        """``out[i, j]`` = ``measure`` of ``names[i]`` vs ``names[j]`` (NaN where not computed)."""
        check_choice(measure, "measure", PRAYATUL_MEASURES)
        k = len(self.names)
        out = np.full((k, k), np.nan)
        for (p, q), m in self.matrices.items():
            out[self.names.index(p), self.names.index(q)] = getattr(m, measure)
        return out

    def rows(self) -> list[dict]:
        """Table I as a list of dicts: primary, alternative, BR, RW, WR, BW, the five measures."""
        return [{"primary": p, "alternative": q, "BR": m.br, "RW": m.rw, "WR": m.wr,
                 "BW": m.bw, **{k: float(v) for k, v in m.measures().items()}}
                for (p, q), m in self.matrices.items()]

    def add_table(self, d: Derivation) -> None:
        """Table I into the derivation ``d``."""
        rows = [[p, q, m.br, m.rw, m.wr, m.bw, *(fixed(v) for v in m.measures().values())]
                for (p, q), m in self]
        d.table(["primary", "alternative", "BR", "RW", "WR", "BW",
                 *(m.symbol for m in PRAYATUL_MEASURES.values())], rows,
                max_rows=len(rows),
                caption="Table I. Prayatul matrix of each ordered pair (pairs of instances: "
                        "BR both right, RW only the primary right, WR only the alternative, "
                        "BW both wrong) and its five measures")

    def derivation(self) -> Derivation:
        d = Derivation(f"Prayatul tournament of {len(self.names)} algorithms")
        self.add_table(d)
        return d


def tournament(truth, labelings: dict, pairs=None) -> Tournament:
    """The Prayatul matrix of every ordered pair of ``labelings`` (or of ``pairs``).

    Parameters
    ----------
    truth : sequence of hashable labels, length N
    labelings : dict
        Algorithm name -> its labels (length N each).
    pairs : list of (primary, alternative), optional
        The ordered pairs to compute; default every ordered pair of distinct names.

    Returns
    -------
    Tournament
        ``t[p, q]`` is :func:`~prayatul_edu.prayatul_matrix` ``(truth, labelings[p],
        labelings[q])``; swapping the pair swaps RW and WR.

    Examples
    --------
    >>> from prayatul_edu.compare import tournament
    >>> t = tournament([0, 0, 1, 1], {"A": [0, 0, 0, 0], "B": [5, 5, 7, 7]})
    >>> t.pairs
    [('A', 'B'), ('B', 'A')]
    >>> t["A", "B"].wr, t["B", "A"].rw, t["B", "A"].comparative_deviation
    (4, 4, 1.0)
    """
    if not isinstance(labelings, dict) or len(labelings) < 2:
        raise TypeError("labelings: expected a dict of at least two named labellings, got "
                        f"{type(labelings).__name__}" + (f" of {len(labelings)}"
                                                         if isinstance(labelings, dict) else ""))
    names = list(labelings)
    if pairs is None:
        pairs = [(p, q) for p in names for q in names if p != q]
    for p, q in pairs:
        for name in (p, q):
            if name not in labelings:
                raise ValueError(f"pairs: {name!r} is not one of the labelings {names}")
    checked = {"truth": check_labels(truth, "truth")}
    for n in names:
        checked[n] = check_labels(labelings[n], str(n))
        if checked[n].n != checked["truth"].n:
            raise ValueError(f"truth and {n} must label the same instances, but have lengths "
                             f"{checked['truth'].n} and {checked[n].n}")
    matrices = {(p, q): prayatul_matrix(checked["truth"], checked[p], checked[q])
                for p, q in pairs}
    return Tournament(names, matrices)
