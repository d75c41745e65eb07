"""Relative validation: choosing the number of clusters k, and how the criteria disagree.

:func:`choose_k` runs a procedure ``cluster(X, k)`` for every k of a range and
scores each clustering with the internal criteria (silhouette,
Calinski-Harabasz, Davies-Bouldin, Dunn), its stability under resampling, the
elbow of the within-cluster scatter W_k and the gap statistic
(:func:`gap_statistic`). Each criterion prefers its own k; the table shows where
they agree and where they do not. ``cluster`` may also be a scikit-learn
estimator (``KMeans(n_init=10)``): it is cloned and its ``n_clusters`` set to k.
"""
from __future__ import annotations

import numpy as np

from ._validation import check_count, check_features, check_procedure, check_seed
from .labels import check_labels
from .internal import calinski_harabasz, davies_bouldin, dunn_index, within_dispersion
from .significance import stability
from .silhouette import silhouette
from .steps import Derivation, Result, fmt

__all__ = ["choose_k", "gap_statistic", "ChooseK", "GapStatistic", "CRITERIA"]

#: The criteria of :func:`choose_k`, and whether a higher value is better.
CRITERIA = {"silhouette": True, "calinski_harabasz": True, "davies_bouldin": False,
            "dunn": True, "stability": True, "elbow": True, "gap": True}

_NAMES = {"silhouette": "silhouette", "calinski_harabasz": "Calinski-Harabasz",
          "davies_bouldin": "Davies-Bouldin", "dunn": "Dunn", "stability": "stability",
          "elbow": "elbow", "gap": "gap"}


def _check_ks(ks) -> list[int]:
    try:
        values = list(ks)
    except TypeError:
        raise TypeError(f"ks: expected a sequence of numbers of clusters, got "
                        f"{type(ks).__name__}") from None
    if not values:
        raise ValueError("ks: is empty; give at least one number of clusters")
    out = [check_count(k, "ks") for k in values]
    if sorted(set(out)) != out:
        raise ValueError(f"ks: must increase without repeats, got {out}")
    return out


def _labels_for(cluster, X: np.ndarray, k: int, what: str = "cluster") -> np.ndarray:
    found = check_labels(cluster(X, k), what, min_n=1)
    if found.n != X.shape[0]:
        raise ValueError(f"{what}: returned {found.n} labels for {X.shape[0]} instances "
                         f"(k = {k}; one label per row)")
    return found.codes


# ----------------------------------------------------------------- gap statistic
class GapStatistic(Result):
    """``.ks``, ``.gap``, ``.se`` (s_k), ``.log_w`` (log2 W_k of the data),
    ``.log_w_reference`` (B x len(ks)), ``.best_k`` (the standard-error rule)."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)

    def derivation(self) -> Derivation:
        d = Derivation(f"Gap statistic: k = {self.best_k}")
        d.formula(r"W_k = \sum_{i=1}^{k} \sum_{x_j \in C_i} \lVert x_j - c_i \rVert^2, \quad "
                  r"\text{Gap}(k) = \frac{1}{B}\sum_{b=1}^{B} \log_2 W^*_{kb} - \log_2 W_k",
                  "W_k = sum_i sum_{x_j in C_i} ||x_j - c_i||^2 ;  "
                  "Gap(k) = (1/B) sum_b log2 W*_kb - log2 W_k")
        d.formula(r"s_k = \text{sd}_k \sqrt{1 + 1/B}, \quad \hat{k} = \text{smallest } k "
                  r"\text{ with } \text{Gap}(k) \ge \text{Gap}(k+1) - s_{k+1}",
                  "s_k = sd_k sqrt(1 + 1/B) ;  k = smallest k with Gap(k) >= Gap(k+1) - s_(k+1)")
        d.text(f"B = {self.n_references} reference data sets, each N = {self.n} points drawn "
               "uniformly in the bounding box of the data (no cluster structure), clustered "
               "by the same procedure. W shrinks as k grows on any data; the gap measures "
               "how much faster it shrinks on the data than on structureless data.")
        rows = []
        for i, k in enumerate(self.ks):
            nxt = (f"{fmt(self.gap[i + 1] - self.se[i + 1])}" if i + 1 < len(self.ks) else "")
            rows.append([str(k), float(self.log_w[i]),
                         float(self.log_w_reference[:, i].mean()), float(self.gap[i]),
                         float(self.se[i]), nxt])
        d.table(["k", "log2 W_k", "mean log2 W*_k", "Gap(k)", "s_k", "Gap(k+1) - s_(k+1)"],
                rows)
        d.text(f"The smallest k whose gap is within one standard error of the next one's: "
               f"k = {self.best_k}.")
        if not self.rule_met:
            d.note("No k of the range meets the rule (the gap still grows by more than a "
                   "standard error at the largest k): the k with the largest gap is given.")
        d.note("Logs are base 2, as everywhere in the course; the rule does not depend on "
               "the base (every gap and s_k scale alike).")
        return d


def _log_w(X: np.ndarray, codes: np.ndarray) -> float:
    return float(np.log2(within_dispersion(X, codes)))


def gap_statistic(X, cluster, ks=range(1, 9), *, n_references: int = 10,
                  seed=None, random_state=None) -> GapStatistic:
    """The gap statistic of Tibshirani, Walther and Hastie, with its standard-error rule.

    .. math::
        \\text{Gap}(k) = \\frac{1}{B}\\sum_{b=1}^{B} \\log_2 W^*_{kb} - \\log_2 W_k,
        \\qquad W_k = \\sum_{i=1}^{k} \\sum_{x_j \\in C_i} \\lVert x_j - c_i \\rVert^2

    ``W*_kb`` is the within-cluster scatter of the procedure's k clusters on
    reference data ``b``: N points uniform in the bounding box of ``X``. With
    ``sd_k`` the standard deviation of ``log2 W*_kb`` over b and ``s_k = sd_k
    sqrt(1 + 1/B)``, the chosen k is the smallest with ``Gap(k) >= Gap(k+1) -
    s_(k+1)`` (k+1 the next k of ``ks``); if none, the k of the largest gap.

    Parameters
    ----------
    X : array of shape (N, D)
    cluster : function ``cluster(X, k) -> labels``, or a scikit-learn estimator
        An estimator (e.g. ``KMeans(n_init=10, random_state=0)``) is cloned for
        every clustering, its ``n_clusters`` (``n_components``) set to k.
    ks : increasing whole numbers >= 1, default 1..8
    n_references : int, default 10
        B, the number of reference data sets.
    seed, random_state : None, int or numpy.random.Generator
        Randomness of the reference data (``random_state``: scikit-learn's name).

    Returns
    -------
    GapStatistic
        ``.ks``, ``.gap``, ``.se``, ``.log_w``, ``.log_w_reference``, ``.best_k``.

    References
    ----------
    R. Tibshirani, G. Walther and T. Hastie, "Estimating the number of clusters in a
    data set via the gap statistic", J. R. Statist. Soc. B 63 (2001) 411-423.

    Examples
    --------
    >>> import numpy as np
    >>> from prayatul_edu import gap_statistic
    >>> X = np.r_[np.zeros((20, 2)), np.full((20, 2), 10.0)]
    >>> X += np.random.default_rng(0).normal(0, 0.5, X.shape)
    >>> halves = lambda Y, k: np.argsort(np.argsort(Y[:, 0])) * k // len(Y)
    >>> gap_statistic(X, halves, ks=[1, 2, 3, 4], seed=0).best_k
    2
    """
    X = check_features(X, "X")
    cluster = check_procedure(cluster, takes_k=True)
    ks = _check_ks(ks)
    n_ref = check_count(n_references, "n_references", minimum=2)
    rng = check_seed(seed, random_state)
    low, high = X.min(axis=0), X.max(axis=0)
    log_w = np.array([_log_w(X, _labels_for(cluster, X, k)) for k in ks])
    ref = np.empty((n_ref, len(ks)))
    for b in range(n_ref):
        Z = rng.uniform(low, high, size=X.shape)              # no structure, same box
        ref[b] = [_log_w(Z, _labels_for(cluster, Z, k)) for k in ks]
    gap = ref.mean(axis=0) - log_w
    se = ref.std(axis=0) * np.sqrt(1 + 1 / n_ref)            # s_k
    best, met = None, False
    for i in range(len(ks) - 1):
        if gap[i] >= gap[i + 1] - se[i + 1]:
            best, met = ks[i], True
            break
    if best is None:
        best = ks[int(np.argmax(gap))]
    return GapStatistic(ks=ks, gap=gap, se=se, log_w=log_w, log_w_reference=ref,
                        best_k=best, rule_met=met, n=X.shape[0], n_references=n_ref)


# ------------------------------------------------------------------- choose_k
class ChooseK(Result):
    """``.ks``, ``.table`` (criterion -> values per k), ``.preferred`` (criterion -> k),
    ``.within`` (W_k per k), ``.labels`` (k -> the procedure's labels), ``.gap`` (a
    :class:`GapStatistic`)."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)

    def derivation(self) -> Derivation:
        d = Derivation("Choosing k: " + ", ".join(
            f"{_NAMES[c]} {self.preferred[c]}" for c in self.table))
        d.text(f"The procedure was run for k = {', '.join(map(str, self.ks))} on N = "
               f"{self.n} instances. Each criterion scores every clustering; its preferred "
               "k is where it is best (higher is better except for Davies-Bouldin; the gap "
               "by its standard-error rule; the elbow where log2(W_(k-1) / W_k) - "
               "log2(W_k / W_(k+1)), the bend of the within-cluster scatter W_k, is "
               "largest). A criterion undefined "
               "at a k (one cluster, or the elbow at the ends of the range) is nan there.")
        names = list(self.table)
        rows = [[str(k), float(self.within[i])] + [float(self.table[c][i]) for c in names]
                for i, k in enumerate(self.ks)]
        d.table(["k", "W_k"] + [_NAMES[c] + (" (lower)" if not CRITERIA[c] else "")
                                for c in names], rows)
        d.table(["criterion", "preferred k"], [[_NAMES[c], str(self.preferred[c])]
                                               for c in names])
        chosen = sorted(set(self.preferred.values()))
        if len(chosen) == 1:
            d.text(f"Every criterion prefers k = {chosen[0]}.")
        else:
            d.text(f"The criteria disagree (k = {', '.join(map(str, chosen))}): each "
                   "measures a different idea of a good cluster (compact, separated, "
                   "reproducible), so look at the data and the purpose before choosing.")
        if "gap" in self.table:
            d.extend(self.gap.derivation())
        return d


def _internal(name: str, X: np.ndarray, codes: np.ndarray) -> float:
    k = int(codes.max()) + 1
    if not 2 <= k <= X.shape[0] - 1:
        return np.nan                      # one cluster, or all singletons: undefined
    return float({"silhouette": silhouette, "calinski_harabasz": calinski_harabasz,
                  "davies_bouldin": davies_bouldin, "dunn": dunn_index}[name](X, codes))


def _elbow(ks: list[int], within: np.ndarray) -> np.ndarray:
    """The bend of W at each k: log2(W_(k-1) / W_k) - log2(W_k / W_(k+1)), how many
    halvings less W falls after k than it fell to k. NaN where k - 1 or k + 1 is not in
    ``ks``, or where W_k = 0 (every point on its centroid: W cannot fall further)."""
    bend = np.full(len(ks), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_w = np.log2(within)
    for i in range(1, len(ks) - 1):
        if ks[i - 1] == ks[i] - 1 and ks[i + 1] == ks[i] + 1 and within[i + 1] > 0:
            bend[i] = (log_w[i - 1] - log_w[i]) - (log_w[i] - log_w[i + 1])
    return bend


def choose_k(X, cluster, ks=range(1, 9), *, criteria=None, n_resamples: int = 10,
             n_references: int = 10, seed=None, random_state=None) -> ChooseK:
    """Run a procedure over a range of k and tabulate the criteria that choose k.

    For each k, ``labels = cluster(X, k)`` is scored with the silhouette,
    Calinski-Harabasz, Davies-Bouldin, Dunn (on ``X``, Euclidean), the
    stability of ``cluster(., k)`` over ``n_resamples`` subsamples, the elbow
    of the within-cluster scatter ``W_k`` and the gap statistic
    (:func:`gap_statistic`). Each criterion's preferred k:

    .. math::
        \\hat{k}_{\\text{sil, CH, Dunn, stab}} = \\arg\\max_k,\\quad
        \\hat{k}_{DB} = \\arg\\min_k,\\quad
        \\hat{k}_{elbow} = \\arg\\max_k \\Big[\\log_2\\frac{W_{k-1}}{W_k} -
        \\log_2\\frac{W_k}{W_{k+1}}\\Big],\\quad
        \\hat{k}_{gap} = \\min\\{k : \\text{Gap}(k) \\ge \\text{Gap}(k+1) - s_{k+1}\\}

    with ``W_k = sum_i sum_{x_j in C_i} ||x_j - c_i||^2``. The elbow is the k
    after which adding a cluster stops paying: W shrinks by a much larger
    factor up to k than after k (the largest second difference of log2 W_k, the
    curve the gap statistic uses too; on W itself the largest fall is nearly
    always the first one, so the plain second difference of W picks k = 2 on
    most data). Its caveats: it is defined only where k - 1 and k + 1 are in
    ``ks`` (never at the first or last k, so it can never answer k = 1, "no
    structure"); on data without clusters it still names a k; a smooth curve
    has no clear elbow, and a small change of the data can move it; eyes
    reading a plot of W may see another elbow than this rule. The gap statistic compares W with structureless data and can
    answer k = 1: that is why ``ks`` starts at 1 by default. The criteria
    undefined at k = 1 (silhouette, Calinski-Harabasz, Davies-Bouldin, Dunn,
    stability: one cluster always agrees with itself) are NaN there and skip it;
    so is any criterion on a clustering where it is undefined (all singletons).

    Parameters
    ----------
    X : array of shape (N, D)
    cluster : function ``cluster(X, k) -> labels``, or a scikit-learn estimator
        e.g. ``lambda X, k: KMeans(k, n_init=10, random_state=0).fit_predict(X)``,
        or ``KMeans(n_init=10, random_state=0)`` (cloned for every clustering, its
        ``n_clusters`` - ``n_components`` for a mixture - set to k).
    ks : increasing whole numbers >= 1, default 1..8
    criteria : sequence of names of ``CRITERIA``, default all
    n_resamples : int, default 10
        Resamples of the stability criterion.
    n_references : int, default 10
        Reference data sets of the gap statistic.
    seed, random_state : None, int or numpy.random.Generator
        Randomness of the resamples and the reference data (``random_state`` is
        scikit-learn's name for ``seed``).

    Returns
    -------
    ChooseK
        ``.ks``, ``.table`` (criterion -> value per k; for the elbow the second
        difference of log2 W_k), ``.preferred`` (criterion -> k, None if undefined at
        every k), ``.within`` (W_k per k), ``.labels``, ``.gap``.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, sec. 17.3
    (relative validation); P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to
    Data Mining*, sec. 8.5.5 (the knee of W); R. Tibshirani, G. Walther and T.
    Hastie (2001), see :func:`gap_statistic`; A. Ben-Hur, A. Elisseeff and I.
    Guyon (2002), see :func:`stability`.

    Examples
    --------
    >>> import numpy as np
    >>> from prayatul_edu import choose_k
    >>> X = np.r_[np.zeros((15, 2)), np.full((15, 2), 10.0), [[0, 10]] * 15]
    >>> X += np.random.default_rng(0).normal(0, 0.5, X.shape)
    >>> from sklearn.cluster import KMeans    # an estimator, or a function cluster(X, k)
    >>> ck = choose_k(X, KMeans(n_init=4, random_state=0), ks=range(1, 7),
    ...               criteria=["silhouette", "dunn", "elbow", "gap"], seed=0)
    >>> ck.preferred
    {'silhouette': 3, 'dunn': 3, 'elbow': 3, 'gap': 3}
    """
    X = check_features(X, "X")
    cluster = check_procedure(cluster, takes_k=True)
    ks = _check_ks(ks)
    if criteria is None:
        criteria = list(CRITERIA)
    elif isinstance(criteria, str):
        raise TypeError(f"criteria: expected a list of names, got the single str {criteria!r}")
    criteria = list(criteria)
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown or not criteria:
        raise ValueError(f"criteria: unknown {unknown or 'empty list'}; choose from "
                         f"{', '.join(CRITERIA)}")
    n_res = check_count(n_resamples, "n_resamples", minimum=2)
    rng = check_seed(seed, random_state)
    labels = {k: _labels_for(cluster, X, k) for k in ks}
    within = np.array([within_dispersion(X, labels[k]) for k in ks])       # W_k
    table = {}
    for c in criteria:
        if c == "stability":
            table[c] = np.array([np.nan if k == 1 else      # one cluster always agrees
                                 float(stability(X, lambda Y, k=k: cluster(Y, k), n_res, rng))
                                 for k in ks])
        elif c == "elbow":
            table[c] = _elbow(ks, within)
        elif c != "gap":
            table[c] = np.array([_internal(c, X, labels[k]) for k in ks])
    gap = None
    if "gap" in criteria:
        gap = gap_statistic(X, cluster, ks, n_references=n_references, seed=rng)
        table["gap"] = gap.gap
    table = {c: table[c] for c in criteria}
    preferred = {}
    for c, values in table.items():
        if c == "gap":
            preferred[c] = gap.best_k
        elif np.isnan(values).all():
            preferred[c] = None
        else:
            pick = np.nanargmax(values) if CRITERIA[c] else np.nanargmin(values)
            preferred[c] = ks[int(pick)]
    return ChooseK(ks=ks, table=table, preferred=preferred, labels=labels, gap=gap,
                   within=within, n=X.shape[0])
