"""Bootstrap confidence intervals for the five Prayatul measures of every pair."""
from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ..labels import check_labels
from ..counting import comb2, joint_codes
from ..prayatul import PRAYATUL_MEASURES
from ..steps import Derivation, Result, fixed
from .tournaments import tournament

__all__ = ["Bootstrap", "bootstrap"]


class Bootstrap(Result):
    """Bootstrap replicates of the five measures for each ordered pair, and their intervals.

    ``replicates[(p, q)]`` is a (B, 5) array (columns in the order of
    :data:`~prayatul_edu.prayatul.PRAYATUL_MEASURES`); ``counts[(p, q)]`` the
    (B, 4) BR, RW, WR, BW of each resample; :meth:`interval` gives the
    percentile interval of one measure.
    """

    def __init__(self, estimates: dict, replicates: dict, counts: dict, n_resamples: int,
                 seed, confidence: float):
        self.estimates = estimates
        self.replicates = replicates
        self.counts = counts
        self.n_resamples = n_resamples
        self.seed = seed
        self.confidence = confidence

    def interval(self, primary: str, alternative: str, measure: str) -> tuple[float, float]:
        """The percentile interval ``(low, high)`` at ``confidence``."""
        j = list(PRAYATUL_MEASURES).index(check_choice(measure, "measure", PRAYATUL_MEASURES))
        tail = (1 - self.confidence) / 2
        low, high = np.quantile(self.replicates[primary, alternative][:, j], [tail, 1 - tail])
        return float(low), float(high)

    def rows(self) -> list[dict]:
        out = []
        for (p, q), est in self.estimates.items():
            row = {"primary": p, "alternative": q}
            for j, measure in enumerate(PRAYATUL_MEASURES):
                low, high = self.interval(p, q, measure)
                row[measure] = {"estimate": est[j], "low": low, "high": high}
            out.append(row)
        return out

    def add_table(self, d: Derivation) -> None:
        """Each pair's five estimates with their intervals, as a table into ``d``."""
        rows = []
        for row in self.rows():
            cells = [row["primary"], row["alternative"]]
            for measure in PRAYATUL_MEASURES:
                r = row[measure]
                cells.append(f"{fixed(r['estimate'], 3)} [{fixed(r['low'], 3)}, "
                             f"{fixed(r['high'], 3)}]")
            rows.append(cells)
        d.table(["primary", "alternative", *(m.symbol for m in PRAYATUL_MEASURES.values())],
                rows, max_rows=len(rows),
                caption=f"Bootstrap: {self.n_resamples} resamples of the instances (seed "
                        f"{self.seed}); each measure with its {self.confidence:.0%} "
                        "percentile interval")

    def derivation(self) -> Derivation:
        d = Derivation(f"Bootstrap: {self.n_resamples} resamples, "
                       f"{self.confidence:.0%} percentile intervals")
        self.add_table(d)
        return d


def _group_pairs(codes: np.ndarray, k: int, draws: np.ndarray) -> np.ndarray:
    """For each resample (row of ``draws``): pairs of draws that share a group of ``codes``."""
    B = draws.shape[0]
    flat = (np.arange(B, dtype=np.int64)[:, None] * k + codes[draws]).ravel()
    sizes = np.bincount(flat, minlength=B * k).reshape(B, k)
    return comb2(sizes).sum(axis=1)


def bootstrap(truth, labelings: dict, n_resamples: int = 200, seed=0, confidence: float = 0.95,
              pairs=None) -> Bootstrap:
    """Resample the instances with replacement and recompute every pair's Prayatul matrix.

    Each resample draws N instances with replacement (``numpy.random.default_rng(seed)``);
    its Prayatul matrix counts the pairs of *draws*, so a twice-drawn instance
    forms a pair with itself, right for everybody (BR). All resamples are
    counted at once in O(B N) from group sizes, as ``prayatul_matrix(...,
    method="counts")``: with ``S_X`` the pairs inside groups of labelling ``X``,
    RW = S_q + S_gp - S_gq - S_pq, WR = S_p + S_gq - S_gp - S_pq,
    BW = S_g + S_pq - S_gp - S_gq, BR = C(N, 2) - RW - WR - BW. The interval of
    a measure is the percentile interval of its B values.

    Parameters
    ----------
    truth, labelings, pairs : as :func:`~prayatul_edu.compare.tournament`
    n_resamples : int, default 200
    seed : int or None, default 0
    confidence : float in (0, 1), default 0.95

    Examples
    --------
    >>> import numpy as np
    >>> from prayatul_edu.compare import bootstrap
    >>> rng = np.random.default_rng(1)
    >>> truth = rng.integers(0, 2, 300)
    >>> good, bad = truth.copy(), rng.integers(0, 2, 300)
    >>> b = bootstrap(truth, {"good": good, "bad": bad}, n_resamples=50)
    >>> b.interval("good", "bad", "comparative_deviation")
    (1.0, 1.0)
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise ValueError(f"n_resamples: must be a whole number >= 1, got {n_resamples!r}")
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise ValueError(f"confidence: must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
    t = tournament(truth, labelings, pairs)        # validates, and the point estimates
    names = t.names
    g = check_labels(truth, "truth")
    coded = {n: check_labels(labelings[n], "labels") for n in names}
    N = g.n
    draws = np.random.default_rng(seed).integers(0, N, size=(int(n_resamples), N))
    S_g = _group_pairs(g.codes, g.k, draws)
    S, S_gx, S_xy = {}, {}, {}
    for n in names:
        c = coded[n]
        S[n] = _group_pairs(c.codes, c.k, draws)
        S_gx[n] = _group_pairs(*joint_codes(g.codes, g.k, c.codes, c.k), draws)
    T = comb2(N)
    estimates, replicates, counts = {}, {}, {}
    for p, q in t.pairs:
        key = frozenset((p, q))
        if key not in S_xy:
            S_xy[key] = _group_pairs(*joint_codes(coded[p].codes, coded[p].k,
                                                  coded[q].codes, coded[q].k), draws)
        S_pq = S_xy[key]
        rw = S[q] + S_gx[p] - S_gx[q] - S_pq
        wr = S[p] + S_gx[q] - S_gx[p] - S_pq
        bw = S_g + S_pq - S_gx[p] - S_gx[q]
        br = T - rw - wr - bw
        counts[p, q] = np.stack([br, rw, wr, bw], axis=1)
        replicates[p, q] = _measures(br, rw, wr, bw, T)
        estimates[p, q] = [float(v) for v in t[p, q].measures().values()]
    return Bootstrap(estimates, replicates, counts, int(n_resamples), seed, float(confidence))


def _measures(br, rw, wr, bw, total) -> np.ndarray:
    """The five measures of arrays of counts (0 where a denominator is 0, as the library)."""
    br, rw, wr, bw = (np.asarray(x, dtype=float) for x in (br, rw, wr, bw))

    def ratio(num, den):
        return np.divide(num, den, out=np.zeros_like(num), where=den != 0)

    some_right = br + rw + wr
    return np.stack([ratio(rw - wr, rw + wr), (br + rw - bw) / total,
                     ratio(br + rw, some_right), ratio(br + rw - wr, some_right),
                     (br + rw - wr) / total], axis=1)
