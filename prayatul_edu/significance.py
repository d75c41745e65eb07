"""How sure, how stable: a permutation test of an external score, and stability.

:func:`permutation_test` asks whether a clustering agrees with the classes
better than chance would for the same N, the same cluster sizes and the same
class sizes: it recomputes the measure with ``pred`` shuffled many times (the
*null distribution*) and reports how often chance did at least as well.

:func:`stability` asks whether a clustering *procedure* gives the same answer on
resampled data: it clusters several resamples and compares every pair of them
on the instances they share.

Shuffling ``pred`` keeps both margins of the contingency table (the cluster
sizes and the class sizes); only the table's inside changes. So for a measure
computed from the table alone (the pair-counting scores and purity) the
shuffles need not be made at all: the table of a random shuffle can be drawn
directly, cluster by cluster, each cluster taking its members from the
instances not yet drawn (a multivariate hypergeometric draw). That costs
O(k^2) per shuffle instead of O(N) and gives the same null distribution
(``method="tables"``); ``method="codes"`` makes the very same shuffles as the
plain code (``method="plain"``), on the label codes, and counts each table with
one ``bincount``: tests check that plain and codes give the same numbers, and
that the tables' null distribution is the shuffles' one.
"""
from __future__ import annotations

import numbers
import sys

import numpy as np

from ._validation import (check_choice, check_count, check_features, check_measure,
                          check_procedure, check_real, check_seed)
from .contingency import scikit_learn_names
from .labels import check_labels, check_partitions
from .information import adjusted_mutual_information
from .matching import purity
from .pair_counting import (adjusted_rand_index, fowlkes_mallows_index, jaccard_index,
                            rand_index)
from .steps import Derivation, Result, ScalarResult, fmt

__all__ = ["permutation_test", "stability", "stability_reading", "PermutationTest", "Stability",
           "TABLE_MEASURES"]

#: Null values within this relative distance of the observed value count as ties (>=),
#: so that a shuffle giving the observed table is counted whatever the rounding.
TIE_RTOL = 1e-12

#: The tables of at most this many cells (int64) are held at once (32 MB).
_CHUNK_CELLS = 1 << 22

#: ``numpy``'s hypergeometric draws need fewer than this many instances.
_TABLES_MAX_N = 10**9 - 1


def _measure_name(measure) -> str:
    return getattr(measure, "__name__", type(measure).__name__)


# ------------------------------------------------- measures from the table alone
def _pair_counts(tables: np.ndarray, n: int):
    """TP and the fixed totals a = sum_i C(n_i, 2), b = sum_j C(m_j, 2), M = C(N, 2).

    ``tables`` is (B, clusters, classes); a, b and M are the same for every table.
    """
    t = tables.astype(np.int64, copy=False)
    tp = (t * (t - 1) // 2).sum(axis=(1, 2))                   # sum_ij C(n_ij, 2)
    rows, cols = t[0].sum(axis=1), t[0].sum(axis=0)
    a = int((rows * (rows - 1) // 2).sum())                     # same cluster: TP + FP
    b = int((cols * (cols - 1) // 2).sum())                     # same class: TP + FN
    return tp, a, b, n * (n - 1) // 2


def _ari_of_tables(tables, n):
    tp, a, b, m = _pair_counts(tables, n)
    expected = a * (b / m)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (tp - expected) / ((a + b) / 2 - expected)
    return np.where((tp == a) & (tp == b), 1.0, value)         # FP = FN = 0: identical


def _rand_of_tables(tables, n):
    tp, a, b, m = _pair_counts(tables, n)
    return (m - a - b + 2 * tp) / m                             # (TP + TN) / M


def _jaccard_of_tables(tables, n):
    tp, a, b, _ = _pair_counts(tables, n)
    together = a + b - tp                                       # TP + FP + FN
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(together == 0, 1.0, tp / together)


def _fowlkes_mallows_of_tables(tables, n):
    tp, a, b, _ = _pair_counts(tables, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tp == 0, 0.0, np.sqrt((tp / a) * (tp / b)))


def _purity_of_tables(tables, n):
    return tables.max(axis=2).sum(axis=1) / n                   # (1/N) sum_i max_j n_ij


#: The measures whose null distribution is computed from contingency tables alone.
TABLE_MEASURES = {adjusted_rand_index: _ari_of_tables, rand_index: _rand_of_tables,
                  jaccard_index: _jaccard_of_tables,
                  fowlkes_mallows_index: _fowlkes_mallows_of_tables, purity: _purity_of_tables}


def _entropies_and_mi_of_tables(tables, n):
    """H(C), H(T) (the same for every table: shuffles keep the margins) and I per table,
    in bits."""
    t = tables.astype(float)
    rows, cols = t[0].sum(axis=1), t[0].sum(axis=0)
    h_c = float(-(rows / n * np.log2(rows / n)).sum())
    h_t = float(-(cols / n * np.log2(cols / n)).sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = t / n * np.log2(n * t / np.outer(rows, cols))   # p_ij log2(p_ij / (p_i p_j))
    mi = np.where(t > 0, terms, 0.0).sum(axis=(1, 2))
    return h_c, h_t, np.maximum(mi, 0.0)


def _nmi_arithmetic_of_tables(tables, n):
    """scikit-learn's ``normalized_mutual_info_score`` (average_method="arithmetic")."""
    h_c, h_t, mi = _entropies_and_mi_of_tables(tables, n)
    if tables.shape[1] == tables.shape[2] == 1:
        return np.ones(tables.shape[0])                         # nothing split: 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(mi == 0, 0.0, mi / ((h_c + h_t) / 2))


def _v_measure_of_tables(tables, n):
    """scikit-learn's ``v_measure_score`` (beta = 1): 2 h c / (h + c)."""
    h_c, h_t, mi = _entropies_and_mi_of_tables(tables, n)
    h = mi / h_t if h_t else np.ones_like(mi)                   # homogeneity I / H(T)
    c = mi / h_c if h_c else np.ones_like(mi)                   # completeness I / H(C)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(h + c == 0, 0.0, 2 * h * c / (h + c))


def _ami_arithmetic_of_tables(tables, n):
    """scikit-learn's ``adjusted_mutual_info_score`` (average_method="arithmetic").

    E[I] depends on the margins alone, the same for every shuffle: computed once, by
    :func:`adjusted_mutual_information` of two labellings with these margins.
    """
    h_c, h_t, mi = _entropies_and_mi_of_tables(tables, n)
    if tables.shape[1] == tables.shape[2] == 1:
        return np.ones(tables.shape[0])
    rows, cols = tables[0].sum(axis=1), tables[0].sum(axis=0)
    emi = float(adjusted_mutual_information(np.repeat(np.arange(cols.shape[0]), cols),
                                            np.repeat(np.arange(rows.shape[0]), rows)).emi)
    eps = float(np.finfo(float).eps)
    denominator = (h_c + h_t) / 2 - emi
    denominator = min(denominator, -eps) if denominator < 0 else max(denominator, eps)
    return (mi - emi) / denominator


#: scikit-learn's metric functions (``sklearn.metrics`` names, their defaults) that
#: :func:`permutation_test` computes from contingency tables too.
SKLEARN_TABLE_MEASURES = {
    "adjusted_rand_score": _ari_of_tables, "rand_score": _rand_of_tables,
    "fowlkes_mallows_score": _fowlkes_mallows_of_tables,
    "normalized_mutual_info_score": _nmi_arithmetic_of_tables,
    "adjusted_mutual_info_score": _ami_arithmetic_of_tables,
    "v_measure_score": _v_measure_of_tables,
}


def _table_formula(measure):
    """The table formula of ``measure``: ours, or scikit-learn's metric functions (the
    very function objects of ``sklearn.metrics``; scikit-learn is not imported here: a
    measure from it means it is imported already)."""
    if measure in TABLE_MEASURES:
        return TABLE_MEASURES[measure]
    name = getattr(measure, "__name__", None)
    if name in SKLEARN_TABLE_MEASURES and str(getattr(measure, "__module__", "")).startswith(
            "sklearn."):
        metrics = sys.modules.get("sklearn.metrics")
        if metrics is not None and getattr(metrics, name, None) is measure:
            return SKLEARN_TABLE_MEASURES[name]
    return None


def _tables_of_shuffles(truth_codes, kt, pred_codes, kp, n_perm, rng) -> np.ndarray:
    """The contingency table (clusters x classes) of each shuffle: one bincount each.

    The shuffles are those of the plain code (``rng.permutation(N)`` each), applied
    to the label codes.
    """
    cell = truth_codes.astype(np.int64)                         # code the classes once
    tables = np.empty((n_perm, kp, kt), dtype=np.int64)
    n = cell.shape[0]
    for b in range(n_perm):
        perm = rng.permutation(n)
        tables[b] = np.bincount(pred_codes[perm] * kt + cell, minlength=kp * kt).reshape(kp, kt)
    return tables


def random_tables(cluster_sizes, class_sizes, size: int, rng) -> np.ndarray:
    """Contingency tables of ``size`` random shuffles, drawn without shuffling.

    Cluster i takes its ``n_i`` members at random from the instances not yet
    drawn: the number from class j is hypergeometric, given what the earlier
    classes took (a multivariate hypergeometric draw, one class at a time). The
    last cluster takes what is left. Returns (size, clusters, classes) int64.
    """
    rows = np.asarray(cluster_sizes, dtype=np.int64)
    cols = np.asarray(class_sizes, dtype=np.int64)
    kp, kt = rows.shape[0], cols.shape[0]
    left = np.tile(cols, (size, 1))                             # instances not drawn, per class
    tables = np.zeros((size, kp, kt), dtype=np.int64)
    for i in range(kp - 1):
        need = np.full(size, rows[i])                           # members cluster i still takes
        after = left.sum(axis=1)                                # not drawn, classes j.. on
        for j in range(kt - 1):
            after = after - left[:, j]                          # ... classes after j
            x = rng.hypergeometric(left[:, j], after, need) if need.any() else 0 * need
            tables[:, i, j] = x
            left[:, j] -= x
            need = need - x
        tables[:, i, kt - 1] = need
        left[:, kt - 1] -= need
    tables[:, kp - 1, :] = left
    return tables


# ------------------------------------------------------------------ the result
class PermutationTest(Result):
    """``.observed`` (float), ``.observed_result`` (the measure's own result), ``.null``
    (the measure on each shuffle of ``pred``), ``.p_value``, ``.n_at_least``."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)

    def derivation(self) -> Derivation:
        n = self.n_permutations
        d = Derivation(f"Permutation test of {self.measure_name}: p = {fmt(self.p_value)}")
        d.formula(r"p = \frac{1 + \#\{b : s_b \ge s_{obs}\}}{1 + B}",
                  "p = (1 + #{b : s_b >= s_obs}) / (1 + B)")
        d.text(f"The observed {self.measure_name} is s_obs = {fmt(self.observed)} "
               f"(N = {self.n} instances, {self.n_clusters} clusters, {self.n_classes} "
               f"classes). `pred` was shuffled B = {n} times: each shuffle keeps the "
               "cluster sizes and the class sizes and gives a score s_b a clustering gets "
               "by chance alone.")
        null = self.null
        q = np.quantile(null, [0.5, 0.95, 0.99])
        d.table(["chance scores s_b", "value"],
                [["mean", float(null.mean())], ["standard deviation", float(null.std())],
                 ["smallest", float(null.min())], ["median", float(q[0])],
                 ["95th percentile", float(q[1])], ["99th percentile", float(q[2])],
                 ["largest", float(null.max())]])
        d.step(rf"p = \frac{{1 + {self.n_at_least}}}{{1 + {n}}} = {fmt(self.p_value)}",
               f"p = (1 + {self.n_at_least}) / (1 + {n}) = {fmt(self.p_value)}")
        d.text(f"{self.n_at_least} of the {n} shuffles scored at least as high as the "
               "clustering. The +1 counts the observed clustering itself among the "
               f"possible outcomes, so p is never 0: the smallest p with {n} shuffles is "
               f"1/{n + 1} = {fmt(1 / (n + 1))}. A small p says the agreement is unlikely "
               "to be chance; it says nothing about how large the agreement is.")
        return d


@scikit_learn_names()
def permutation_test(truth, pred, measure=adjusted_rand_index, n_permutations: int = 999,
                     seed=None, *, method: str = "auto", random_state=None) -> PermutationTest:
    """Permutation test of an external score: is the agreement better than chance?

    The measure is computed on ``(truth, pred)`` (``s_obs``) and on ``B =
    n_permutations`` shuffles of ``pred`` (``s_1 .. s_B``, the null
    distribution: same N, same cluster sizes, same class sizes, no relation to
    the classes). The p-value counts the shuffles that did at least as well,
    plus one for the observed clustering itself:

    .. math::
        p = \\frac{1 + \\#\\{b : s_b \\ge s_{obs}\\}}{1 + B}

    so ``1/(B+1) <= p <= 1``, and under the null hypothesis ``P(p <= a) <= a``.
    Null values within ``TIE_RTOL`` (relative) of ``s_obs`` count as ties.

    Parameters
    ----------
    truth, pred : sequences of hashable labels, length N
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords.
    measure : function ``measure(truth, pred) -> float``, default adjusted_rand_index
        Higher must mean more agreement (for a distance such as variation of
        information, pass its negative). A measure that returns NaN (on the
        data or on a shuffle) is a ValueError: no p-value can be read from it.
        scikit-learn's own ``adjusted_rand_score``, ``rand_score``,
        ``fowlkes_mallows_score``, ``normalized_mutual_info_score``,
        ``adjusted_mutual_info_score`` and ``v_measure_score`` (the functions of
        ``sklearn.metrics``, their default arguments: arithmetic mean of the
        entropies, beta = 1) take the fast path like ours.
    n_permutations : int, default 999
        B, the number of shuffles.
    seed, random_state : None, int or numpy.random.Generator
        Randomness of the shuffles (an int gives the same null distribution each
        time); ``random_state`` is scikit-learn's name for ``seed``.
    method : {"auto", "plain", "codes", "tables"}, default "auto"
        ``"plain"`` calls ``measure`` on each shuffled ``pred``; ``"codes"`` makes
        the same shuffles of the label codes and counts each contingency table
        with a bincount; ``"tables"`` draws the tables of random shuffles
        directly (same distribution, O(k^2) per shuffle). The last two need a
        measure of ``TABLE_MEASURES`` (ARI, Rand, Jaccard, Fowlkes-Mallows,
        purity) or one of scikit-learn's above; ``"auto"`` takes ``"tables"`` for those (``"codes"`` when the
        table has more cells than there are instances) and ``"plain"`` otherwise.

    Returns
    -------
    PermutationTest
        ``.observed``, ``.observed_result``, ``.null`` (B values), ``.p_value``,
        ``.n_at_least``, ``.n_permutations``, ``.measure_name``, ``.method``.

    References
    ----------
    B. V. North, D. Curtis and P. C. Sham, "A note on the calculation of empirical
    P values from Monte Carlo procedures", Am. J. Hum. Genet. 71 (2002) 439-441;
    P.-N. Tan, M. Steinbach and V. Kumar, *Introduction to Data Mining*, sec. 8.5.8.

    Examples
    --------
    >>> from prayatul_edu import permutation_test
    >>> truth = [0] * 10 + [1] * 10
    >>> pt = permutation_test(truth, truth, n_permutations=99, seed=0)
    >>> pt.observed, pt.n_at_least, pt.p_value
    (1.0, 0, 0.01)
    """
    check_measure(measure)
    n_perm = check_count(n_permutations, "n_permutations")
    check_choice(method, "method", ("auto", "plain", "codes", "tables"))
    rng = check_seed(seed, random_state)
    truth_l, pred_l = check_partitions(truth=truth, pred=pred)
    n = truth_l.n
    from_tables = _table_formula(measure)
    cells = truth_l.k * pred_l.k
    if method == "auto":
        if from_tables is None:
            method = "plain"
        else:                          # a table costs O(cells) to draw, a shuffle O(N)
            method = "tables" if cells <= max(n, 1024) and n <= _TABLES_MAX_N else "codes"
    if method != "plain" and from_tables is None:
        raise ValueError(f"method: {method!r} needs a measure of the contingency table "
                         f"({', '.join(f.__name__ for f in TABLE_MEASURES)}), got "
                         f"{_measure_name(measure)}; use method='plain'")
    if method == "tables" and n > _TABLES_MAX_N:
        raise ValueError(f"method: 'tables' draws at most {_TABLES_MAX_N} instances, got "
                         f"N = {n}; use method='codes'")
    name = _measure_name(measure)
    if from_tables is not None and measure not in TABLE_MEASURES and method != "plain":
        # scikit-learn's function: its value from the same table formula as the null
        # (equal to its own to about 1e-16), without its second pass over the labels
        table = np.bincount(pred_l.codes.astype(np.int64) * truth_l.k + truth_l.codes,
                            minlength=cells)
        observed_result = float(from_tables(table.reshape(1, pred_l.k, truth_l.k), n)[0])
    else:
        observed_result = measure(truth, pred)
    observed = _score(observed_result, name, "on truth and pred")
    if method == "plain":
        null = _null_plain(truth, pred_l.values[pred_l.codes], measure, n_perm, rng, n, name)
    else:                              # tables of a chunk of shuffles at a time (32 MB)
        chunk = max(1, min(n_perm, _CHUNK_CELLS // cells))
        parts = []
        for done in range(0, n_perm, chunk):
            size = min(chunk, n_perm - done)
            if method == "codes":
                tables = _tables_of_shuffles(truth_l.codes, truth_l.k, pred_l.codes,
                                             pred_l.k, size, rng)
            else:
                tables = random_tables(pred_l.sizes(), truth_l.sizes(), size, rng)
            parts.append(from_tables(tables, n))
        null = np.concatenate(parts)
    null = np.asarray(null, dtype=float)
    if np.isnan(null).any():
        raise ValueError(f"measure: {name} is NaN on {int(np.isnan(null).sum())} of the "
                         f"{n_perm} shuffles; a p-value needs a number for every shuffle")
    at_least = int((null >= observed - TIE_RTOL * max(1.0, abs(observed))).sum())
    return PermutationTest(observed=observed, observed_result=observed_result, null=null,
                           p_value=(1 + at_least) / (1 + n_perm), n_at_least=at_least,
                           n_permutations=n_perm, measure_name=name,
                           method=method, n=n, n_clusters=pred_l.k, n_classes=truth_l.k)


def _score(value, name: str = "the measure", where: str = "") -> float:
    """The measure's value as a float: a number, never NaN (a NaN compares false with
    everything, so it would count as 'below the observed' and make p look small)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"measure: must return a number, returned {type(value).__name__}")
    value = float(value)
    if value != value:
        raise ValueError(f"measure: {name} returned NaN {where}".rstrip() + "; it is "
                         "undefined there, and no p-value or mean can be read from NaN")
    return value


def _null_plain(truth, pred: np.ndarray, measure, n_perm: int, rng, n: int,
                name: str) -> np.ndarray:
    """The lecture's definition: the measure on ``pred`` shuffled, B times.

    ``pred`` is the array of the labels (from the validated labels, so that labels
    such as tuples stay one label each).
    """
    null = np.empty(n_perm)
    for b in range(n_perm):
        shuffled = pred[rng.permutation(n)]             # the same labels, in a random order
        null[b] = _score(measure(truth, shuffled), name, f"on shuffle {b + 1}")
    return null


# ------------------------------------------------------------------ stability
class Stability(ScalarResult):
    """Mean agreement of pairs of resamples, with ``.scores`` (per pair), ``.spread``,
    ``.quantiles``, ``.pairs`` ((r, s) resample numbers), ``.shared`` (instances in
    both), ``.n_clusters``; per cluster of all the data ``.per_cluster`` (mean best
    Jaccard), ``.per_cluster_spread``, ``.jaccard`` (R x k); ``.baseline`` (or None)."""

    def derivation(self) -> Derivation:
        d = Derivation(f"Stability = {fmt(self)}")
        d.formula(r"\text{stability} = \frac{1}{|P|}\sum_{(r, s) \in P} "
                  r"m\big(L_r|_{S_r \cap S_s},\ L_s|_{S_r \cap S_s}\big)",
                  "stability = (1/|P|) sum_{(r, s) in P} m(L_r on S_r ∩ S_s, L_s on S_r ∩ S_s)")
        how = (f"a random {fmt(self.fraction)} of the instances (without replacement)"
               if self.method == "subsample" else "N instances drawn with replacement")
        d.text(f"{self.n_resamples} resamples S_1, S_2, ... of the N = {self.n} instances, "
               f"each {how}, were clustered by the procedure (labels L_r). Every pair of "
               f"resamples ({len(self.scores)} pairs P) is compared with "
               f"{self.measure_name} on the instances both contain.")
        rows = [[f"S{r + 1}, S{s + 1}", int(m), int(self.n_clusters[r]),
                 int(self.n_clusters[s]), float(v)]
                for (r, s), m, v in zip(self.pairs, self.shared, self.scores)]
        d.table(["pair", "shared instances", "clusters in S_r", "clusters in S_s",
                 self.measure_name], rows)
        d.step(rf"\text{{stability}} = \frac{{{fmt(float(np.sum(self.scores)))}}}"
               rf"{{{len(self.scores)}}} = {fmt(self)}",
               f"stability = {fmt(float(np.sum(self.scores)))} / {len(self.scores)} = "
               f"{fmt(self)}")
        d.text(f"The scores range from {fmt(float(np.min(self.scores)))} to "
               f"{fmt(float(np.max(self.scores)))}. A procedure that finds structure "
               "really in the data gives nearly the same clusters on every resample; "
               "one that cuts a blob arbitrarily does not.")
        d.text(f"Spread: standard deviation {fmt(self.spread)}; 5%, 50%, 95% of the pair "
               f"scores: {', '.join(fmt(float(q)) for q in self.quantiles)}.")
        d.note("The pairs share resamples, so their scores are not independent: their "
               "spread is not a standard error of the mean.")
        if self.baseline is not None:
            d.text(f"Random labeller (each resample's labels shuffled, same cluster sizes): "
                   f"{self.measure_name} {fmt(self.baseline)} on average.")
        d.formula(r"\gamma_i = \frac{1}{R_i}\sum_{r} \max_{B \in L_r} "
                  r"\frac{|C_i \cap S_r \cap B|}{|(C_i \cap S_r) \cup B|}",
                  "gamma_i = mean over resamples r of max_B |C_i ∩ S_r ∩ B| / "
                  "|(C_i ∩ S_r) ∪ B|")
        d.text("Per cluster (Hennig's clusterboot): each cluster C_i of the procedure's "
               "clustering of all the data, restricted to a resample, is matched with the "
               "resample's most similar cluster by the Jaccard coefficient; gamma_i is the "
               "mean over the resamples.")
        header = ["cluster C_i", "size", "gamma_i", "spread", "reading"]
        if self.baseline_per_cluster is not None:
            header.insert(4, "random labeller")
        rows = []
        sizes = {c: 0 for c in self.clusters}
        for v in self.reference:
            sizes[str(v)] += 1
        for i, c in enumerate(self.clusters):
            g = float(self.per_cluster[i])
            row = [c, sizes[c], g, float(self.per_cluster_spread[i]), stability_reading(g)]
            if self.baseline_per_cluster is not None:
                row.insert(4, float(self.baseline_per_cluster[i]))
            rows.append(row)
        d.table(header, rows)
        d.note("Hennig's reading: a resample where its Jaccard is at most 0.5 dissolves the "
               "cluster; a mean gamma_i below 0.6 is not to be trusted; 0.6 - 0.75 "
               "a pattern whose members are doubtful; above 0.75 valid and stable; above "
               "0.85 highly stable.")
        return d


def stability_reading(gamma: float) -> str:
    """Hennig's (2007) reading of a cluster's *mean* Jaccard over the resamples: below 0.6
    not to be trusted, 0.6 to 0.75 a pattern whose members are doubtful, from 0.75 valid
    and stable, from 0.85 highly stable. ("Dissolved" is said of one resample, where the
    cluster's best Jaccard is at most 0.5, not of the mean.)"""
    if gamma != gamma:
        return "never drawn"
    if gamma < 0.6:
        return "not to be trusted"
    if gamma < 0.75:
        return "a pattern, members doubtful"
    return "highly stable" if gamma >= 0.85 else "stable"


def _shared(ids_r, first_r, ids_s, first_s):
    """Positions, in resamples r and s, of the instances both contain (first copies)."""
    _, in_r, in_s = np.intersect1d(ids_r, ids_s, assume_unique=True, return_indices=True)
    return first_r[in_r], first_s[in_s]


def _max_jaccard(reference: np.ndarray, k: int, found: np.ndarray) -> np.ndarray:
    """Per reference cluster i (codes 0..k-1, as on the resample): max_j of the Jaccard
    |A_i ∩ B_j| / |A_i ∪ B_j| with the resample's clusters B_j; NaN where A_i is empty."""
    kf = int(found.max()) + 1
    n_ij = np.bincount(reference * kf + found, minlength=k * kf).reshape(k, kf)
    a, b = n_ij.sum(axis=1), n_ij.sum(axis=0)                  # |A_i|, |B_j|
    union = a[:, None] + b[None, :] - n_ij                     # |A_i ∪ B_j|
    with np.errstate(invalid="ignore", divide="ignore"):
        best = (n_ij / union).max(axis=1)
    return np.where(a > 0, best, np.nan)


def _clusterboot(reference, k, labels, uniques):
    """R x k: the best Jaccard of each reference cluster on each resample (first copies)."""
    return np.array([_max_jaccard(reference[ids], k, codes[first])
                     for codes, (ids, first) in zip(labels, uniques)])


def _pair_scores(labels, uniques, measure):
    pairs, scores, shared = [], [], []
    n_res = len(labels)
    for r in range(n_res):
        for s in range(r + 1, n_res):
            at_r, at_s = _shared(*uniques[r], *uniques[s])
            if at_r.shape[0] < 2:
                raise ValueError(f"fraction: resamples {r + 1} and {s + 1} share "
                                 f"{at_r.shape[0]} instance(s); use a larger fraction")
            pairs.append((r, s))
            shared.append(int(at_r.shape[0]))
            scores.append(_score(measure(labels[r][at_r], labels[s][at_s]),
                                 _measure_name(measure), f"on resamples {r + 1} and {s + 1}"))
    return pairs, np.asarray(scores), np.asarray(shared)


def stability(X, cluster, n_resamples: int = 20, seed=None, measure=adjusted_rand_index,
              method: str = "subsample", fraction: float = 0.8, *, baseline: bool = False,
              random_state=None) -> Stability:
    """Stability of a clustering procedure under resampling, overall and per cluster.

    The procedure ``cluster(X) -> labels`` is run on ``R = n_resamples``
    resamples ``S_1 .. S_R`` of the instances. Every pair of resamples is
    compared on the instances both contain, ``S_r ∩ S_s``, with ``measure``
    (labels of ``S_r`` as truth, of ``S_s`` as pred); the stability is the mean:

    .. math::
        \\text{stability} = \\frac{1}{|P|}\\sum_{(r, s) \\in P}
        m\\big(L_r|_{S_r \\cap S_s},\\ L_s|_{S_r \\cap S_s}\\big),
        \\qquad P = \\{(r, s) : r < s\\}

    Near 1 the procedure finds the same clusters whatever the sample; a wrong
    number of clusters often, not always, splits or merges differently each time
    (a wrong k that cuts the data the same way every time is stable too).

    Per cluster (Hennig's clusterboot): the procedure also clusters all of ``X``
    (clusters ``C_1 .. C_k``). On resample r, cluster ``C_i`` restricted to the
    resample, ``A = C_i ∩ S_r``, is matched with the resample's most similar
    cluster ``B``, by the Jaccard coefficient; the cluster's stability is the mean
    over the resamples that contain some of it:

    .. math::
        \\gamma_i = \\frac{1}{R_i}\\sum_{r} \\max_{B \\in L_r}
        \\frac{|C_i \\cap S_r \\cap B|}{|(C_i \\cap S_r) \\cup B|}

    Hennig's reading: a resample whose Jaccard is <= 0.5 dissolves the cluster;
    a mean below 0.6 is not to be trusted; 0.6 - 0.75 a
    pattern, its members doubtful; above 0.75 valid and stable; above 0.85
    highly stable.

    Parameters
    ----------
    X : array of shape (N, D)
        The instances.
    cluster : function ``cluster(X) -> labels``, or a scikit-learn estimator
        The procedure, e.g. ``lambda X: KMeans(3, n_init=10).fit_predict(X)`` or
        ``KMeans(3, n_init=10, random_state=0)`` (cloned for every resample).
    n_resamples : int, default 20
        R >= 2; ``R (R - 1) / 2`` pairs are compared.
    seed, random_state : None, int or numpy.random.Generator
        Randomness of the resamples (the procedure's own randomness is its own);
        ``random_state`` is scikit-learn's name for ``seed``.
    measure : function ``measure(truth, pred)``, default adjusted_rand_index
    method : {"subsample", "bootstrap"}, default "subsample"
        ``"subsample"`` draws ``round(fraction * N)`` instances without
        replacement (Ben-Hur et al.); ``"bootstrap"`` draws N with replacement
        (an instance drawn twice is compared once).
    fraction : float in (0, 1], default 0.8
        The share of instances in a subsample.
    baseline : bool, default False
        Also score a *random labeller* (Lange et al.): each resample's labels,
        and the clustering of all of ``X``, shuffled (the same cluster sizes, no
        relation to the data), compared exactly as above. A procedure's
        stability means something only well above its baseline.

    Returns
    -------
    Stability
        A float (the mean score) with ``.scores`` (per pair), ``.spread`` (their
        standard deviation), ``.quantiles`` (5%, 50%, 95% of the scores),
        ``.pairs``, ``.shared``, ``.n_clusters`` (per resample), ``.resamples``
        (the instances drawn); per cluster: ``.per_cluster`` (gamma_i),
        ``.per_cluster_spread`` (standard deviation over resamples), ``.jaccard``
        (R x k, NaN where a resample holds none of the cluster), ``.reference``
        (the labels of all of ``X``, as given), ``.clusters`` (their values);
        with ``baseline``: ``.baseline``, ``.baseline_scores`` and
        ``.baseline_per_cluster`` (else None).

    References
    ----------
    A. Ben-Hur, A. Elisseeff and I. Guyon, "A stability based method for discovering
    structure in clustered data", Pacific Symposium on Biocomputing 7 (2002) 6-17;
    T. Lange, V. Roth, M. L. Braun and J. M. Buhmann, "Stability-based validation of
    clustering solutions", Neural Computation 16 (2004) 1299-1323;
    C. Hennig, "Cluster-wise assessment of cluster stability", Computational
    Statistics and Data Analysis 52 (2007) 258-271 (R package fpc, ``clusterboot``).

    Examples
    --------
    Two far-apart groups, clustered by a threshold: the same clusters every time.

    >>> import numpy as np
    >>> from prayatul_edu import stability
    >>> X = np.r_[np.zeros((10, 1)), np.ones((10, 1))] + np.arange(20)[:, None] * 0.01
    >>> st = stability(X, lambda Y: (Y[:, 0] > 0.5).astype(int), n_resamples=5, seed=0)
    >>> float(st), len(st.scores), st.per_cluster.tolist()
    (1.0, 10, [1.0, 1.0])
    """
    cluster = check_procedure(cluster)
    check_measure(measure)
    n_res = check_count(n_resamples, "n_resamples", minimum=2)
    check_choice(method, "method", ("subsample", "bootstrap"))
    fraction = check_real(fraction, "fraction")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction: must be in (0, 1], got {fraction!r}")
    if not isinstance(baseline, (bool, np.bool_)):
        raise TypeError(f"baseline: expected True or False, got {type(baseline).__name__}")
    rng = check_seed(seed, random_state)
    X = check_features(X, "X")
    n = X.shape[0]
    size = n if method == "bootstrap" else int(round(fraction * n))
    if size < 2:
        raise ValueError(f"fraction: a subsample of {fraction!r} of N = {n} instances has "
                         f"{size} instance(s); at least 2 are needed")
    resamples, labels, uniques = [], [], []
    for _ in range(n_res):
        drawn = (rng.integers(0, n, n) if method == "bootstrap"
                 else np.sort(rng.choice(n, size, replace=False)))
        found = check_labels(cluster(X[drawn]), "cluster", min_n=1)
        if found.n != drawn.shape[0]:
            raise ValueError(f"cluster: returned {found.n} labels for {drawn.shape[0]} "
                             "instances (one label per row of its input)")
        resamples.append(drawn)
        labels.append(found.codes)
        uniques.append(np.unique(drawn, return_index=True))   # instance ids, first copies
    pairs, scores, shared = _pair_scores(labels, uniques, measure)
    whole = check_labels(cluster(X), "cluster", min_n=1)        # the clusters C_1 .. C_k
    if whole.n != n:
        raise ValueError(f"cluster: returned {whole.n} labels for {n} instances "
                         "(one label per row of its input)")
    jaccard = _clusterboot(whole.codes, whole.k, labels, uniques)
    with np.errstate(invalid="ignore"):
        per_cluster = np.nanmean(jaccard, axis=0)              # gamma_i
        per_cluster_spread = np.nanstd(jaccard, axis=0)
    base = base_scores = base_per_cluster = None
    if baseline:                                              # the random labeller
        shuffled = [rng.permutation(codes) for codes in labels]
        _, base_scores, _ = _pair_scores(shuffled, uniques, measure)
        base = float(base_scores.mean())
        with np.errstate(invalid="ignore"):
            base_per_cluster = np.nanmean(
                _clusterboot(rng.permutation(whole.codes), whole.k, shuffled, uniques), axis=0)
    return Stability(float(scores.mean()), scores=scores, pairs=pairs, shared=shared,
                     spread=float(scores.std()),
                     quantiles=np.quantile(scores, [0.05, 0.5, 0.95]),
                     n_clusters=np.asarray([int(c.max()) + 1 for c in labels]),
                     resamples=resamples, n=n, n_resamples=n_res, method=method,
                     fraction=fraction, measure_name=_measure_name(measure),
                     per_cluster=per_cluster, per_cluster_spread=per_cluster_spread,
                     jaccard=jaccard, reference=whole.values[whole.codes],
                     clusters=[str(v) for v in whole.values], baseline=base,
                     baseline_scores=base_scores, baseline_per_cluster=base_per_cluster)
