"""Table I: the Prayatul matrix of every ordered pair of algorithms (a tournament)."""
from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ..labels import check_labels
from ..prayatul import PRAYATUL_MEASURES, PrayatulMatrix, prayatul_matrices
from ..steps import Derivation, Result, fixed, fmt_count

__all__ = ["Tournament", "tournament"]

#: When each measure favours the primary (the legend under Table I)
_DIRECTION = {
    "comparative_deviation": "> 0 (0: even where they disagree)",
    "polarization": "higher than in the swapped row",
    "comparative_rightness": "higher than in the swapped row",
    "effective_rightness": "higher than in the swapped row",
    "effective_superiority": "higher than in the swapped row",
}


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

    def add_table(self, d: Derivation, note: str = "") -> None:
        """Table I into the derivation ``d`` (``note`` ends its caption)."""
        rows = [[p, q, *(fmt_count(c) for c in (m.br, m.rw, m.wr, m.bw)),
                 *(fixed(v) for v in m.measures().values())] for (p, q), m in self]
        d.table(["primary", "alternative", "BR", "RW", "WR", "BW",
                 *(m.symbol for m in PRAYATUL_MEASURES.values())], rows,
                max_rows=len(rows),
                caption="Table I. Prayatul matrix of each ordered pair (pairs of instances: "
                        "BR both right, RW only the primary right, WR only the alternative, "
                        "BW both wrong) and its five measures" + ("." + note if note else ""))
        d.table(["measure", "formula", "range", "favours the primary when"],
                [[f"{m.symbol} {m.title.lower()}", m.plain_formula,
                  f"[{m.range[0]}, {m.range[1]}]", _DIRECTION[name]]
                 for name, m in PRAYATUL_MEASURES.items()],
                caption="The five measures: each is higher when the primary is right more "
                        "often; swapping primary and alternative swaps RW and WR")

    def verdicts(self, bootstrap=None) -> list[dict]:
        """One verdict per pair of algorithms: who is right more often where they disagree.

        Of the pairs of instances on which exactly one of the two algorithms is
        right (RW + WR of the Prayatul matrix), the better one is right on more.
        With a :class:`~prayatul_edu.compare.Bootstrap` of the same pairs, the
        verdict says whether the percentile interval of σ_c crosses 0 (then the
        data are no evidence of a difference). Each dict: ``better``, ``worse``
        (None for a tie), ``right_better``, ``disagreements``,
        ``comparative_deviation`` (σ_c of better vs worse), ``interval`` and
        ``crosses_zero`` (None without a bootstrap), ``text``.

        >>> from prayatul_edu.compare import tournament
        >>> t = tournament([0, 0, 1, 1], {"A": [0, 0, 0, 1], "B": [1, 1, 0, 0]})
        >>> t.verdicts()[0]["text"]
        'B better than A: right on 3 of the 3 pairs where exactly one is right (100.0%, σ_c = 1.0000)'
        """
        out, seen = [], set()
        for p, q in self.pairs:
            if frozenset((p, q)) in seen:
                continue
            seen.add(frozenset((p, q)))
            m = self[p, q]
            if m.wr > m.rw:                    # the alternative is the better one
                p, q, right = q, p, (m.wr, m.rw)
            else:
                right = (m.rw, m.wr)
            disagree = right[0] + right[1]
            sigma = (right[0] - right[1]) / disagree if disagree else 0.0
            interval = crosses = None
            if bootstrap is not None:
                if (p, q) in bootstrap.replicates:
                    interval = bootstrap.interval(p, q, "comparative_deviation")
                else:
                    low, high = bootstrap.interval(q, p, "comparative_deviation")
                    interval = (-high, -low)
                crosses = bool(interval[0] <= 0 <= interval[1])
            if not disagree:
                text = f"{p} and {q}: right on the same pairs of instances, neither is better"
            elif right[0] == right[1]:
                text = (f"{p} and {q}: each right on {right[0]:,} of the {disagree:,} pairs "
                        "where exactly one is right, neither is better")
            else:
                text = (f"{p} better than {q}: right on {right[0]:,} of the {disagree:,} pairs "
                        f"where exactly one is right ({right[0] / disagree:.1%}, "
                        f"σ_c = {sigma:.4f})")
            if interval is not None:
                text += (f"; {bootstrap.confidence:.0%} interval of σ_c "
                         f"[{interval[0]:.3f}, {interval[1]:.3f}] "
                         + ("crosses 0: no evidence of a difference" if crosses
                            else "excludes 0"))
            tie = right[0] == right[1]
            out.append({"better": None if tie else p, "worse": None if tie else q,
                        "pair": [p, q], "right_better": right[0], "disagreements": disagree,
                        "comparative_deviation": sigma, "interval": interval,
                        "crosses_zero": crosses, "text": text})
        return out

    def add_verdicts(self, d: Derivation, bootstrap=None) -> None:
        """The verdicts of :meth:`verdicts` into ``d``, one line per pair."""
        d.text("Verdicts, one per pair of algorithms: who is right more often on the pairs "
               "of instances where the two disagree (RW against WR):")
        d.text("\n".join(f"- {v['text']}" for v in self.verdicts(bootstrap)))
        if bootstrap is None:
            d.text("No interval: resample the instances (e.g. --bootstrap 200) to see whether "
                   "a difference is more than chance.")

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
    # every column coded once (above), every joint count shared by the pairs that need it
    matrices = prayatul_matrices(checked["truth"], checked, list(pairs))
    return Tournament(names, matrices)
