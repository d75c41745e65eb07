"""Compare clusterings pair by pair with the Prayatul matrix: the paper's experiment or your data.

    prayatul-edu compare                       # the paper's experiment, run live
    prayatul-edu compare --paper               # the paper's own labels vs its published tables
    prayatul-edu compare data.csv --truth class --primary kmeans --alternative dbscan
    prayatul-edu compare data.csv --truth class          # every other column: a tournament
    prayatul-edu compare ... --bootstrap 200 --seed 0    # confidence intervals
    prayatul-edu compare ... --format json               # the same numbers for machines

For every ordered pair of algorithms (primary vs alternative) it prints Table I
(the four counts BR, RW, WR, BW and the five Prayatul measures), for every
algorithm Table II (accuracy, precision and recall on the raw labels - they
collapse when an algorithm names its clusters differently - and the maximum
matching accuracy, which does not) and Table III (NMI, ARI, AMI); figures go
to an output folder. The Python API behind it, used by notebook 07:

* :func:`tournament` - the Prayatul matrix of every ordered pair;
* :func:`label_scores` - Tables II and III;
* :func:`bootstrap` - percentile confidence intervals for the five measures;
* :func:`run_experiment` / :func:`compare_labelings` - all of it, as an
  :class:`Experiment` that renders as text (terminal), Markdown (Jupyter) or a dict.
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from ._validation import check_choice, check_labels, check_partitions
from .counting import comb2, joint_codes
from .prayatul import PrayatulMatrix, prayatul_matrix
from .steps import Derivation, Result

__all__ = ["tournament", "Tournament", "label_scores", "raw_precision_recall", "bootstrap",
           "Bootstrap", "Experiment", "DatasetResult", "run_experiment", "compare_labelings",
           "read_columns", "add_arguments", "run", "DEFAULT_OUT", "MEASURES"]

#: The five Prayatul measures (eqs. 5-9), in the paper's order, with short symbols.
MEASURES = {"comparative_deviation": "sigma_c", "polarization": "alpha",
            "comparative_rightness": "xi_c", "effective_rightness": "xi_e",
            "effective_superiority": "phi_e"}
#: Where figures go unless ``--out`` says otherwise.
DEFAULT_OUT = "prayatul-output"
_AVERAGES = ("macro", "weighted", "paper")
_TITLES = {"noisy_circles": "Noisy Circles", "noisy_moons": "Noisy Moons", "aniso": "Aniso"}


# ----------------------------------------------------------------- tournament
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
        check_choice(measure, "measure", MEASURES)
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

    def derivation(self) -> Derivation:
        d = Derivation(f"Prayatul tournament of {len(self.names)} algorithms")
        _table_i(d, self)
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


# ------------------------------------------------------- Tables II and III
def _common_codes(truth, pred) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes of truth and prediction in one label space (1 in both means the same label)."""
    t = np.asarray(truth, dtype=object) if not isinstance(truth, np.ndarray) else truth
    p = np.asarray(pred, dtype=object) if not isinstance(pred, np.ndarray) else pred
    both = check_labels(np.concatenate([t.astype(object), p.astype(object)]), "labels")
    codes = both.codes
    return codes[:t.shape[0]], codes[t.shape[0]:], both.k


def raw_precision_recall(truth, pred, average: str | None = "macro"):
    """Precision and recall on the raw labels, as scikit-learn's ``precision_score``.

    Label ``l`` of the prediction is read as "class ``l``": precision_l =
    |pred = l and truth = l| / |pred = l|, recall_l = the same over |truth = l|,
    for every label of truth or prediction (0 where the denominator is 0, as
    ``zero_division=0``). ``average="macro"`` takes the plain mean over the
    labels, ``"weighted"`` weights by the class sizes (weighted recall equals
    the accuracy), ``None`` returns the per-label arrays (sorted labels).

    >>> from prayatul_edu.compare import raw_precision_recall
    >>> raw_precision_recall([0, 0, 1, 1], [1, 1, 0, 0])   # right clusters, swapped names
    (0.0, 0.0)
    >>> raw_precision_recall([0, 0, 1, 1], [0, 1, 1, 1])
    (0.8333333333333333, 0.75)
    """
    if average is not None:
        check_choice(average, "average", ("macro", "weighted"))
    check_partitions(truth=truth, pred=pred)   # the errors name truth / pred
    t_codes, p_codes, k = _common_codes(truth, pred)
    hits = np.bincount(t_codes[t_codes == p_codes], minlength=k).astype(float)
    predicted = np.bincount(p_codes, minlength=k).astype(float)
    actual = np.bincount(t_codes, minlength=k).astype(float)
    precision = np.divide(hits, predicted, out=np.zeros(k), where=predicted > 0)
    recall = np.divide(hits, actual, out=np.zeros(k), where=actual > 0)
    if average is None:
        return precision, recall
    if average == "macro":
        return float(precision.mean()), float(recall.mean())
    return (float(np.average(precision, weights=actual)),
            float(np.average(recall, weights=actual)))


def label_scores(truth, labelings: dict, average: str = "macro") -> dict:
    """Tables II and III: label-based and permutation-invariant scores of each algorithm.

    For each algorithm: ``accuracy``, ``precision``, ``recall`` on the raw labels
    (``average`` "macro", "weighted" or "paper" - the paper's recipe, see
    :func:`prayatul_edu.paper.paper_precision_recall`), ``maximum_matching``
    (accuracy after the best one-to-one relabelling), ``nmi`` (arithmetic
    normalisation, scikit-learn's default), ``ari`` and ``ami`` (scikit-learn's
    ``adjusted_mutual_info_score``), ``n_clusters``.

    >>> from prayatul_edu.compare import label_scores
    >>> s = label_scores([0, 0, 1, 1], {"swapped": [1, 1, 0, 0]})["swapped"]
    >>> s["accuracy"], s["maximum_matching"], s["ari"]
    (0.0, 1.0, 1.0)
    """
    from sklearn.metrics import adjusted_mutual_info_score

    from .information import normalized_mutual_information
    from .matching import maximum_matching
    from .pair_counting import adjusted_rand_index

    check_choice(average, "average", _AVERAGES)
    g = check_labels(truth, "truth")
    out = {}
    for name, pred in labelings.items():
        p = check_partitions(truth=g, pred=pred)[1]
        t_codes, p_codes, _ = _common_codes(truth, pred)
        if average == "paper":
            from .paper import paper_precision_recall

            precision, recall = paper_precision_recall(truth, pred)
        else:
            precision, recall = raw_precision_recall(truth, pred, average)
        out[name] = {
            "n_clusters": p.k,
            "accuracy": float(np.mean(t_codes == p_codes)),
            "precision": precision, "recall": recall,
            "maximum_matching": float(maximum_matching(g, p)),
            "nmi": float(normalized_mutual_information(g, p, average="arithmetic")),
            "ari": float(adjusted_rand_index(g, p)),
            "ami": float(adjusted_mutual_info_score(g.codes, p.codes)),
        }
    return out


# ----------------------------------------------------------------- bootstrap
class Bootstrap(Result):
    """Bootstrap replicates of the five measures for each ordered pair, and their intervals.

    ``replicates[(p, q)]`` is a (B, 5) array (columns in :data:`MEASURES` order);
    ``counts[(p, q)]`` the (B, 4) BR, RW, WR, BW of each resample;
    :meth:`interval` gives the percentile interval of one measure.
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
        """The percentile interval ``(low, high)`` at :attr:`confidence`."""
        j = list(MEASURES).index(check_choice(measure, "measure", MEASURES))
        tail = (1 - self.confidence) / 2
        low, high = np.quantile(self.replicates[primary, alternative][:, j], [tail, 1 - tail])
        return float(low), float(high)

    def rows(self) -> list[dict]:
        out = []
        for (p, q), est in self.estimates.items():
            row = {"primary": p, "alternative": q}
            for j, measure in enumerate(MEASURES):
                low, high = self.interval(p, q, measure)
                row[measure] = {"estimate": est[j], "low": low, "high": high}
            out.append(row)
        return out

    def derivation(self) -> Derivation:
        d = Derivation(f"Bootstrap: {self.n_resamples} resamples, "
                       f"{self.confidence:.0%} percentile intervals")
        _bootstrap_table(d, self)
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
    truth, labelings, pairs : as :func:`tournament`
    n_resamples : int, default 200
    seed : int or None, default 0
    confidence : float in (0, 1), default 0.95

    Examples
    --------
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


# ---------------------------------------------------------------- experiment
class DatasetResult(Result):
    """One data set's comparison: labels, Table I (tournament), Tables II-III, bootstrap."""

    def __init__(self, name, truth, labelings, X=None, *, pairs=None, average="macro",
                 n_resamples=0, seed=0, confidence=0.95, title=None):
        self.name = name
        self.title = title or _TITLES.get(name, name)
        self.truth = np.asarray(truth)
        self.labelings = {k: np.asarray(v) for k, v in labelings.items()}
        self.X = None if X is None else np.asarray(X, dtype=float)
        self.tournament = tournament(truth, labelings, pairs)
        self.scores = label_scores(truth, labelings, average)
        self.average = average
        self.bootstrap = (bootstrap(truth, labelings, n_resamples, seed, confidence, pairs)
                          if n_resamples else None)

    @property
    def n(self) -> int:
        return int(self.truth.shape[0])

    def to_dict(self) -> dict:
        out = {"name": self.name, "n": self.n,
               "n_classes": int(check_labels(self.truth, "truth").k),
               "algorithms": list(self.labelings),
               "table_1": self.tournament.rows(),
               "table_2": [{"algorithm": a, "n_clusters": s["n_clusters"],
                            "accuracy": s["accuracy"], "precision": s["precision"],
                            "recall": s["recall"], "maximum_matching": s["maximum_matching"]}
                           for a, s in self.scores.items()],
               "table_3": [{"algorithm": a, "nmi": s["nmi"], "ari": s["ari"], "ami": s["ami"]}
                           for a, s in self.scores.items()],
               "average": self.average}
        if self.bootstrap is not None:
            out["bootstrap"] = {"n_resamples": self.bootstrap.n_resamples,
                                "seed": self.bootstrap.seed,
                                "confidence": self.bootstrap.confidence,
                                "intervals": self.bootstrap.rows()}
        return out

    def derivation(self, tables=("I", "II", "III")) -> Derivation:
        k = check_labels(self.truth, "truth").k
        d = Derivation(f"{self.title}: N = {self.n}, {k} classes in the truth")
        if "I" in tables:
            _table_i(d, self.tournament)
        if "II" in tables:
            how = {"macro": "macro-averaged over the labels",
                   "weighted": "weighted by class size",
                   "paper": "averaged as the paper does"}[self.average]
            d.table(["algorithm", "clusters", "accuracy", "precision", "recall",
                     "max. matching"],
                    [[a, s["n_clusters"], *(_f(s[x]) for x in
                                            ("accuracy", "precision", "recall",
                                             "maximum_matching"))]
                     for a, s in self.scores.items()],
                    caption=f"Table II. On the raw labels (precision and recall {how}): "
                            "a clustering with the right clusters under other names scores 0. "
                            "Maximum matching relabels first.")
        if "III" in tables:
            d.table(["algorithm", "NMI", "ARI", "AMI"],
                    [[a, _f(s["nmi"]), _f(s["ari"]), _f(s["ami"])]
                     for a, s in self.scores.items()],
                    caption="Table III. Permutation-invariant scores against the truth")
        if self.bootstrap is not None:
            _bootstrap_table(d, self.bootstrap)
        return d


def _f(x: float, digits: int = 4) -> str:
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _table_i(d: Derivation, t: Tournament) -> None:
    rows = [[p, q, m.br, m.rw, m.wr, m.bw, *(_f(v) for v in m.measures().values())]
            for (p, q), m in t]
    d.table(["primary", "alternative", "BR", "RW", "WR", "BW", *MEASURES.values()], rows,
            max_rows=len(rows),
            caption="Table I. Prayatul matrix of each ordered pair (pairs of instances: "
                    "BR both right, RW only the primary right, WR only the alternative, "
                    "BW both wrong) and its five measures")


def _bootstrap_table(d: Derivation, b: Bootstrap) -> None:
    rows = []
    for row in b.rows():
        cells = [row["primary"], row["alternative"]]
        for measure in MEASURES:
            r = row[measure]
            cells.append(f"{_f(r['estimate'], 3)} [{_f(r['low'], 3)}, {_f(r['high'], 3)}]")
        rows.append(cells)
    d.table(["primary", "alternative", *MEASURES.values()], rows, max_rows=len(rows),
            caption=f"Bootstrap: {b.n_resamples} resamples of the instances (seed {b.seed}); "
                    f"each measure with its {b.confidence:.0%} percentile interval")


class Experiment(Result):
    """Several data sets compared: renders every table (text, Markdown) or a dict for JSON."""

    def __init__(self, datasets: list[DatasetResult], source: str, versions: list[str]):
        self.datasets = datasets
        self.source = source
        self.versions = versions

    def __getitem__(self, name: str) -> DatasetResult:
        for ds in self.datasets:
            if ds.name == name:
                return ds
        raise KeyError(name)

    def to_dict(self) -> dict:
        return {"source": self.source, "versions": self.versions,
                "measures": dict(MEASURES),
                "datasets": [ds.to_dict() for ds in self.datasets]}

    def derivation(self, tables=("I", "II", "III")) -> Derivation:
        d = Derivation(f"Prayatul comparison: {self.source}")
        if self.versions:
            d.text("Labels from " + ", ".join(self.versions) + ".")
        for ds in self.datasets:
            d.extend(ds.derivation(tables))
        return d


def run_experiment(source: str = "live", *, datasets=None, n_resamples: int = 0, seed=0,
                   confidence: float = 0.95, average: str = "macro",
                   progress=None) -> Experiment:
    """The paper's experiment: three toy data sets, KMeans, DBSCAN, Spectral and BIRCH.

    ``source="live"`` runs the algorithms now with the installed scikit-learn
    (:func:`prayatul_edu.paper.generate_labels`: the paper's data, parameters and
    seeds); ``source="paper"`` uses the labels the paper got (scikit-learn
    1.1.3, shipped with the package). ``progress(data set, algorithm)`` is
    called before each algorithm runs. ``n_resamples > 0`` adds bootstrap
    intervals.
    """
    from . import paper

    check_choice(source, "source", ("live", "paper"))
    if source == "paper":
        labels = paper.load_labels()
        what = "the paper's labels (shipped with the package)"
    else:
        labels = paper._nest(paper.generate_labels(progress=progress))
        what = "the paper's experiment, run now"
    names = list(datasets) if datasets is not None else list(paper.DATASETS)
    for name in names:
        check_choice(name, "datasets", paper.DATASETS)
    results = [DatasetResult(name, labels[name]["truth"],
                             {a: labels[name][a] for a in paper.ALGORITHMS}, labels[name]["X"],
                             average=average, n_resamples=n_resamples, seed=seed,
                             confidence=confidence)
               for name in names]
    return Experiment(results, what, labels["versions"])


def compare_labelings(truth, labelings: dict, X=None, *, name: str = "data", pairs=None,
                      n_resamples: int = 0, seed=0, confidence: float = 0.95,
                      average: str = "macro") -> Experiment:
    """Your own clusterings compared: the :class:`Experiment` of one data set.

    >>> from prayatul_edu.compare import compare_labelings
    >>> e = compare_labelings([0, 0, 1, 1], {"A": [0, 0, 0, 1], "B": [1, 1, 0, 0]})
    >>> row = e.to_dict()["datasets"][0]["table_1"][0]
    >>> row["primary"], row["BR"], row["RW"], row["WR"], row["BW"]
    ('A', 3, 0, 3, 0)
    """
    ds = DatasetResult(name, truth, labelings, X, pairs=pairs, average=average,
                       n_resamples=n_resamples, seed=seed, confidence=confidence, title=name)
    return Experiment([ds], f"{name}", [])


# ---------------------------------------------------------------- reading files
_FORMATS = (".csv", ".tsv", ".txt", ".npy", ".npz")
_MISSING = {"", "nan", "NaN", "NAN", "NA", "N/A", "null", "None"}


def read_columns(path) -> dict:
    """The columns of a CSV/TSV (with a header row), .npy or .npz file: name -> 1-D array.

    CSV columns whose every value is an integer (or a number) become int (float)
    arrays, others stay strings. A 2-D .npy array gives columns "0", "1", ...; a
    .npz gives its arrays by name, and a 2-D array ``X`` gives "X:0", "X:1", ....
    Raises ``ValueError`` (unknown format, ragged rows, different lengths, no
    header) or ``OSError`` (missing or unreadable file).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise ValueError(f"FILE: unknown format {path.suffix or '(no extension)'!r} of "
                         f"{path.name}; expected one of {', '.join(_FORMATS)}")
    if not path.is_file():
        raise OSError(f"FILE: cannot read {path}: "
                      + ("not a file" if path.exists() else "no such file"))
    if suffix in (".npy", ".npz"):
        try:
            loaded = np.load(path, allow_pickle=False)
        except Exception as exc:  # noqa: BLE001 - any failure means "not a NumPy file"
            raise ValueError(f"FILE: cannot read {path.name} as {suffix}: "
                             f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        if suffix == ".npy":
            arrays = {"": loaded}
        else:
            with loaded:
                arrays = {k: loaded[k] for k in loaded.files}
        columns = {}
        for key, arr in arrays.items():
            if arr.dtype.names:
                columns.update({f: arr[f] for f in arr.dtype.names})
            elif arr.ndim == 1:
                columns[key or "0"] = arr
            elif arr.ndim == 2:
                columns.update({(f"{key}:{j}" if key else str(j)): arr[:, j]
                                for j in range(arr.shape[1])})
            else:
                raise ValueError(f"FILE: array {key or '(the .npy)'} has shape {arr.shape}; "
                                 "expected 1-D columns or a 2-D table")
        _same_length(columns, path.name)
        return columns
    return _read_csv(path, "\t" if suffix == ".tsv" else None)


def _read_csv(path: Path, delimiter) -> dict:
    import csv

    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise ValueError(f"FILE: {path.name} is not a UTF-8 text file") from None
    except OSError as exc:
        raise OSError(f"FILE: cannot read {path}: {exc.strerror or exc}") from None
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    rows = [r for r in csv.reader(text.splitlines(), delimiter=delimiter) if r]
    if len(rows) < 2:
        raise ValueError(f"FILE: {path.name} needs a header row and at least one data row")
    header = [h.strip() for h in rows[0]]
    if len(set(header)) != len(header) or "" in header:
        raise ValueError(f"FILE: the header of {path.name} must name every column once, "
                         f"got {header}")
    for line, row in enumerate(rows[1:], 2):
        if len(row) != len(header):
            raise ValueError(f"FILE: line {line} of {path.name} has {len(row)} fields, but the "
                             f"header has {len(header)}")
    return {h: _typed([r[j].strip() for r in rows[1:]]) for j, h in enumerate(header)}


def _typed(values: list[str]) -> np.ndarray:
    """Strings as ints if all are, else as floats (missing -> NaN) if all are, else strings."""
    try:
        return np.array([int(v) for v in values], dtype=np.int64)
    except ValueError:
        pass
    try:
        return np.array([math.nan if v in _MISSING else float(v) for v in values])
    except ValueError:
        return np.array([None if v in _MISSING else v for v in values], dtype=object)


def _same_length(columns: dict, where: str) -> None:
    lengths = {k: v.shape[0] for k, v in columns.items()}
    if len(set(lengths.values())) > 1:
        a, b = min(lengths, key=lengths.get), max(lengths, key=lengths.get)
        raise ValueError(f"FILE: columns {a!r} ({lengths[a]} values) and {b!r} "
                         f"({lengths[b]} values) of {where} have different lengths")


def _column(columns: dict, name: str, where: str, role: str) -> np.ndarray:
    if name not in columns:
        shown = ", ".join(list(columns)[:12]) + (" ..." if len(columns) > 12 else "")
        raise ValueError(f"{role}: no column {name!r} in {where} (columns: {shown})")
    col = columns[name]
    missing = None
    if col.dtype.kind == "f":
        bad = ~np.isfinite(col)
        missing = int(np.flatnonzero(bad)[0]) if bad.any() else None
    elif col.dtype.kind == "O":
        bad = np.array([v is None for v in col])
        missing = int(np.flatnonzero(bad)[0]) if bad.any() else None
    if missing is not None:
        raise ValueError(f"{role}: column {name!r} has a missing or NaN value in data row "
                         f"{missing + 1}")
    return col


# ---------------------------------------------------------------- the command
def add_arguments(parser) -> None:
    """The options of ``prayatul-edu compare``."""
    parser.epilog = (
        "examples:\n"
        "  prayatul-edu compare                  the paper's experiment (3 data sets, 4 algorithms)\n"
        "  prayatul-edu compare --paper          the paper's own labels next to its Tables I, II\n"
        "  prayatul-edu compare runs.csv --truth class --primary kmeans --alternative dbscan\n"
        "  prayatul-edu compare runs.csv --truth class --bootstrap 200\n"
        "\nPrayatul measures of a primary vs an alternative (each in [-1, 1], xi_c in [0, 1];\n"
        "positive favours the primary): sigma_c comparative deviation, alpha polarization,\n"
        "xi_c comparative rightness, xi_e effective rightness, phi_e effective superiority.")
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="your data: a CSV (header row; also .tsv), .npy or .npz file with "
                             "a column of true classes and one column of labels per "
                             "algorithm. Without FILE: the paper's experiment.")
    mine = parser.add_argument_group("your data (with FILE)")
    mine.add_argument("--truth", metavar="COL", help="the column of true classes")
    mine.add_argument("--primary", metavar="COL",
                      help="the algorithm being evaluated (rows of Table I)")
    mine.add_argument("--alternative", metavar="COL", nargs="+",
                      help="the algorithm(s) it is compared with")
    mine.add_argument("--algorithms", metavar="COL", nargs="+",
                      help="compare these columns in a full tournament (every ordered pair). "
                           "Default, without --primary: every column except truth and --xy")
    mine.add_argument("--xy", metavar="COL", nargs=2,
                      help="two coordinate columns, to draw the points in the figures")
    paper = parser.add_argument_group("the paper's experiment (without FILE)")
    paper.add_argument("--paper", action="store_true",
                       help="use the labels the paper got (scikit-learn 1.1.3, shipped) and "
                            "print every Table I and II value next to the published one")
    stats = parser.add_argument_group("statistics")
    stats.add_argument("--bootstrap", metavar="B", type=int, default=0,
                       help="resample the instances B times (e.g. 200) and give a confidence "
                            "interval for each measure")
    stats.add_argument("--seed", metavar="S", type=int, default=0,
                       help="seed of the resampling (default 0)")
    stats.add_argument("--confidence", metavar="C", type=float, default=0.95,
                       help="level of the intervals (default 0.95)")
    stats.add_argument("--average", choices=_AVERAGES, default="macro",
                       help="averaging of Table II's precision and recall over labels "
                            "(default macro; 'paper' = the paper's recipe)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text",
                     help="text tables (default) or JSON on stdout")
    out.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                     help=f"folder for the figures (default ./{DEFAULT_OUT}/)")
    out.add_argument("--no-figures", action="store_true", help="write no figures")
    out.add_argument("--quiet", action="store_true", help="no progress messages on stderr")


class _Progress:
    """Progress messages on stderr: '[3/12] noisy_circles: DBSCAN ...'."""

    def __init__(self, total: int, quiet: bool):
        self.total, self.done, self.quiet = total, 0, quiet
        self.start = time.perf_counter()

    def say(self, message: str) -> None:
        if not self.quiet:
            print(f"[{time.perf_counter() - self.start:5.1f} s] {message}", file=sys.stderr,
                  flush=True)

    def __call__(self, dataset: str, algorithm: str) -> None:
        self.done += 1
        self.say(f"running {algorithm} on {dataset} ({self.done}/{self.total})")


def _user_experiment(args) -> Experiment:
    if args.paper:
        raise ValueError("--paper: is for the paper's experiment, not with FILE")
    if not args.truth:
        raise ValueError("--truth: give the column of true classes (--truth COL) with FILE")
    columns = read_columns(args.file)
    where = Path(args.file).name
    truth = _column(columns, args.truth, where, "--truth")
    if args.primary and args.algorithms:
        raise ValueError("--algorithms: use either --primary/--alternative or --algorithms")
    if args.alternative and not args.primary:
        raise ValueError("--alternative: give --primary COL too")
    xy_cols = list(args.xy or [])
    if args.primary:
        if not args.alternative:
            raise ValueError("--primary: give --alternative COL too (or neither, for a tournament "
                             "of every column)")
        names = [args.primary, *[a for a in args.alternative if a != args.primary]]
        pairs = [(args.primary, a) for a in names[1:]]
        if not pairs:
            raise ValueError("--alternative: must differ from --primary")
    else:
        names = list(args.algorithms or [c for c in columns
                                         if c != args.truth and c not in xy_cols])
        pairs = None
    if len(names) < 2:
        raise ValueError(f"FILE: {where} has {len(names)} algorithm column(s) besides the truth; "
                         "at least two are needed")
    role = {n: "--primary" if n == args.primary else
            "--alternative" if args.alternative and n in args.alternative else "--algorithms"
            for n in names}
    labelings = {n: _column(columns, n, where, role[n]) for n in names}
    X = None
    if xy_cols:
        X = np.column_stack([_column(columns, c, where, "--xy").astype(float) for c in xy_cols])
    return compare_labelings(truth, labelings, X, name=where, pairs=pairs,
                             n_resamples=args.bootstrap, seed=args.seed,
                             confidence=args.confidence, average=args.average)


def _check_options(args) -> None:
    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap: must be 0 (none) or a number of resamples, got "
                         f"{args.bootstrap}")
    if not 0 < args.confidence < 1:
        raise ValueError(f"--confidence: must be between 0 and 1, got {args.confidence}")
    if args.file is None:
        for option in ("truth", "primary", "alternative", "algorithms", "xy"):
            if getattr(args, option):
                raise ValueError(f"--{option}: needs a FILE (prayatul-edu compare FILE --truth "
                                 "COL ...)")


def run(args) -> int:
    """``prayatul-edu compare``: tables on stdout, figures in ``--out``, progress on stderr."""
    progress = _Progress(12, args.quiet)
    try:
        _check_options(args)
        comparison = None
        if args.file is not None:
            progress.say(f"reading {args.file}")
            experiment = _user_experiment(args)
        elif args.paper:
            from .paper import compare_with_paper, load_labels

            progress.say("loading the paper's labels")
            experiment = run_experiment("paper", n_resamples=args.bootstrap, seed=args.seed,
                                        confidence=args.confidence, average="paper")
            comparison = compare_with_paper(load_labels())
        else:
            experiment = run_experiment("live", n_resamples=args.bootstrap, seed=args.seed,
                                        confidence=args.confidence, average=args.average,
                                        progress=progress)
    except (ValueError, TypeError, OSError) as exc:
        message = " ".join(str(exc).split())
        print(f"prayatul-edu compare: error: {message}", file=sys.stderr)
        return 2
    figures = []
    if not args.no_figures:
        from .plots.compare import save_figures

        progress.say(f"writing figures to {args.out}/")
        try:
            figures = [str(p) for p in save_figures(experiment, args.out)]
        except OSError as exc:
            print(f"prayatul-edu compare: error: cannot write figures to {args.out}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
    if args.format == "json":
        out = experiment.to_dict()
        out["figures"] = figures
        if comparison is not None:
            out["paper"] = comparison.to_dict()
        json.dump(_jsonable(out), sys.stdout, indent=1, allow_nan=False)
        print()
    else:
        if comparison is not None:
            print(comparison.explain())
            print()
            print(experiment.derivation(tables=("III",)).to_text())
        else:
            print(experiment.explain())
        if args.file is None and not args.paper:
            print("\nThe paper's own labels (scikit-learn 1.1.3) are shipped with the package: "
                  "'prayatul-edu compare --paper' prints every value of its Tables I and II "
                  "next to ours.")
        if figures:
            print(f"\nFigures ({len(figures)}) written to {Path(args.out).resolve()}")
    progress.say("done")
    return 0


def _jsonable(x):
    """Plain JSON types (NumPy scalars -> Python, NaN -> None)."""
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
