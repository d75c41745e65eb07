"""Clustering tendency: is there any cluster structure to find before clustering?

Every clustering procedure returns clusters, even on data without any. The
Hopkins statistic asks first whether the data are more clumped than points
spread uniformly over the same region: it compares how far *random probe
points* are from the data with how far *data points* are from each other.

* :func:`hopkins_statistic`: about 0.5 for uniformly spread data, near 1 for
  clustered data (and below 0.5 for data more regular than random, e.g. a grid).

Nearest-neighbour distances are found with a k-d tree (SciPy's ``cKDTree``):
O(N log N), never an N x N matrix.
"""
from __future__ import annotations

import math

import numpy as np

from ._validation import check_count, check_features, check_seed
from .steps import Derivation, ScalarResult, fmt

__all__ = ["hopkins_statistic", "Hopkins"]


class Hopkins(ScalarResult):
    """H, with ``.u`` (probe -> nearest data point), ``.w`` (sampled point -> nearest
    other data point), ``.probes`` (m x D, in X's units), ``.sample`` (row indices),
    ``.exponent`` (d), ``.n_probes`` (m), ``.p_value`` (one-sided, under Beta(m, m))."""

    def derivation(self) -> Derivation:
        sums = r"\sum_{i=1}^{m} u_i^{d}"
        d = Derivation(f"Hopkins statistic H = {fmt(self)}").formula(
            rf"H = \frac{{{sums}}}{{{sums} + \sum_{{i=1}}^{{m}} w_i^{{d}}}}",
            "H = sum_i u_i^d / (sum_i u_i^d + sum_i w_i^d)")
        d.text(f"m = {self.n_probes} probe points drawn uniformly in the bounding box of the "
               f"N = {self.n} data points; u_i is the distance from probe i to its nearest "
               f"data point. m = {self.n_probes} data points sampled without replacement; "
               "w_i is the distance from each to its nearest *other* data point. The "
               f"distances are raised to the power d = {self.exponent} (the number of features that "
               "vary), so that under uniformly spread data H follows about a Beta(m, m) "
               "distribution, whose mean is 0.5 (the box's edges widen its spread a little).")
        rows = [[str(i + 1), float(u), float(w)] for i, (u, w) in
                enumerate(zip(self.u, self.w))]
        d.table(["i", "u_i (probe -> data)", "w_i (data -> data)"], rows)
        d.step(rf"H = {fmt(self)}, \quad \text{{mean }} u = {fmt(float(np.mean(self.u)))}, "
               rf"\quad \text{{mean }} w = {fmt(float(np.mean(self.w)))}",
               f"H = {fmt(self)}  (mean u = {fmt(float(np.mean(self.u)))}, "
               f"mean w = {fmt(float(np.mean(self.w)))})")
        d.text(f"Near 0.5: no more clumped than random points. Near 1: data points are much "
               f"closer to each other than random points are to the data: clusters. "
               f"P(H >= {fmt(self)}) under uniform data (Beta({self.n_probes}, "
               f"{self.n_probes})) = {fmt(self.p_value)}.")
        d.note("Some texts define the statistic the other way round (1 - H: near 0 for "
               "clustered data), and some leave out the power d (then H is still near 0.5 "
               "for uniform data but no longer Beta(m, m)). Here H -> 1 means clustered.")
        return d


def _log_sum_pow(values: np.ndarray, d: int) -> float:
    """log(sum_i v_i^d), without overflow or underflow for large d (0 ** d = 0)."""
    with np.errstate(divide="ignore"):
        logs = d * np.log(values)                          # log v_i^d (-inf for 0)
    top = logs.max()
    if top == -np.inf:
        return -np.inf
    return float(top + np.log(np.exp(logs - top).sum()))


def hopkins_statistic(X, *, n_probes=None, seed=None, random_state=None) -> Hopkins:
    """Hopkins statistic of clustering tendency: about 0.5 for uniform data, near 1 for
    clustered data.

    .. math::
        H = \\frac{\\sum_{i=1}^{m} u_i^{d}}{\\sum_{i=1}^{m} u_i^{d} +
        \\sum_{i=1}^{m} w_i^{d}}

    ``u_i``: the Euclidean distance from probe point ``y_i``, drawn uniformly in
    the bounding box of ``X``, to its nearest data point; ``w_i``: the distance
    from data point ``x_i``, one of ``m`` sampled without replacement, to its
    nearest *other* data point; ``d``: the number of features that vary (D for
    most data). This is the convention of Hopkins and Skellam (1954) as Wright
    (2022) restates it: with the power ``d``, ``u_i^d`` and ``w_i^d`` have the
    same distribution when the data are spread uniformly (a Poisson process), and
    H follows a Beta(m, m) distribution, mean 0.5 and standard deviation
    ``1 / (2 sqrt(2m + 1))``, in the limit without edges: in a bounding box the
    nearest neighbours near its faces are farther, and the spread over fresh uniform
    data sets is about 10-20% wider at a few dozen probes, so ``p_value`` is a
    slightly optimistic approximation there. Clustered data put the data points close together
    (small ``w``) and leave room far from them (large ``u``): H -> 1. Data more
    regular than random (a grid) give H < 0.5. H tests against *uniform* data,
    not against one cluster: a single Gaussian blob also scores well above 0.5
    (its points crowd the middle of their box), so H near 1 says "not uniform",
    and the number of clusters is a separate question (the gap statistic can
    answer k = 1 for a blob). Some texts, and some software,
    report ``1 - H`` (near 0 for clustered data) or leave out the power ``d``.

    The features are shifted and scaled by one factor (the bounding box's
    largest side) before any distance is taken; H does not change, and data of
    any scale (1e-9 or 1e160) give the same H.

    Parameters
    ----------
    X : array of shape (N, D)
        The instances (N >= 2, finite numbers).
    n_probes : int, optional
        m, the number of probe points and of sampled data points (at most N);
        default ``ceil(N / 10)``, at least 10 (N if N < 10).
    seed, random_state : None, int or numpy.random.Generator
        Randomness of the probes and the sample (``random_state`` is
        scikit-learn's name for ``seed``).

    Returns
    -------
    Hopkins
        A float in [0, 1] with ``.u``, ``.w``, ``.probes``, ``.sample``,
        ``.exponent`` (d), ``.n_probes`` (m) and ``.p_value`` (P(H' >= H) for
        H' ~ Beta(m, m): small for clustered data).

    References
    ----------
    B. Hopkins and J. G. Skellam, "A new method for determining the type of
    distribution of plant individuals", Annals of Botany 18 (1954) 213-227;
    A. Banerjee and R. N. Davé, "Validating clusters using the Hopkins
    statistic", IEEE International Conference on Fuzzy Systems (2004) 149-153;
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, ch. 17
    (clustering tendency); K. Wright, "Will the real Hopkins statistic please
    stand up?", The R Journal 14 (2022) 282-292.

    Examples
    --------
    >>> import numpy as np
    >>> from prayatul_edu import hopkins_statistic
    >>> rng = np.random.default_rng(0)
    >>> uniform = rng.uniform(0, 1, (1000, 2))
    >>> blobs = np.r_[rng.normal(0, .1, (500, 2)), rng.normal(3, .1, (500, 2))]
    >>> round(float(hopkins_statistic(uniform, seed=1)), 2)
    0.5
    >>> round(float(hopkins_statistic(blobs, seed=1)), 2)
    1.0
    """
    X = check_features(X, "X")
    n = X.shape[0]
    if n < 2:
        raise ValueError(f"X: the Hopkins statistic needs at least 2 instances, got {n}")
    if n_probes is None:
        m = n if n < 10 else min(n, max(10, math.ceil(n / 10)))
    else:
        m = check_count(n_probes, "n_probes")
        if m > n:
            raise ValueError(f"n_probes: at most N = {n} data points can be sampled, got {m}")
    rng = check_seed(seed, random_state)
    low, high = X.min(axis=0), X.max(axis=0)
    side = high - low
    d = int((side > 0).sum())                                    # the features that vary
    if d == 0:
        raise ValueError("X: every instance is the same point; the Hopkins statistic "
                         "needs data that vary")
    scale = float(side.max())
    Z = (X - low) / scale                                        # in [0, 1]: any scale works
    probes = rng.uniform(0, side / scale, size=(m, X.shape[1]))  # uniform in the box
    sample = rng.choice(n, m, replace=False)                     # data points, no repeats
    from scipy.spatial import cKDTree

    tree = cKDTree(Z)
    u = tree.query(probes, k=1)[0]                               # probe -> nearest data point
    w = tree.query(Z[sample], k=2)[0][:, 1]                      # the nearest OTHER point
    log_u, log_w = _log_sum_pow(u, d), _log_sum_pow(w, d)
    if log_u == -np.inf and log_w == -np.inf:                    # pragma: no cover - d >= 1
        raise ValueError("X: every distance is 0; the Hopkins statistic is undefined")
    H = float(1 / (1 + np.exp(log_w - log_u)))                   # sum u^d / (sum u^d + sum w^d)
    from scipy.special import betainc

    p_value = float(betainc(m, m, 1 - H))                        # P(Beta(m, m) >= H), by symmetry
    return Hopkins(H, u=u * scale, w=w * scale, probes=low + probes * scale, sample=sample,
                   exponent=d, n_probes=m, n=n, p_value=p_value)
