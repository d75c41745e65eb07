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


import numpy as np

from ._validation import check_choice, check_labels, check_partitions
from .counting import comb2, joint_codes
from .prayatul import PrayatulMatrix, prayatul_matrix
from .steps import Derivation, Result
from .information import adjusted_mutual_information, normalized_mutual_information
from .label_files import read_columns  # re-exported: it lived here
from .matching import maximum_matching, raw_accuracy, raw_precision_recall  # re-exported
from .pair_counting import adjusted_rand_index
from .paper_setup import ALGORITHMS, DATASETS, generate_labels, load_labels, nest_labels

__all__ = ["tournament", "Tournament", "label_scores", "raw_precision_recall", "bootstrap",
           "Bootstrap", "Experiment", "DatasetResult", "run_experiment", "compare_labelings",
           "read_columns", "DEFAULT_OUT", "MEASURES"]

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
def label_scores(truth, labelings: dict, average: str = "macro") -> dict:
    """Tables II and III: label-based and permutation-invariant scores of each algorithm.

    For each algorithm: ``accuracy``, ``precision``, ``recall`` on the raw labels
    (``average`` "macro", "weighted" or "paper" - the paper's recipe, see
    :func:`prayatul_edu.paper.paper_precision_recall`), ``maximum_matching``
    (accuracy after the best one-to-one relabelling), ``nmi`` (arithmetic
    normalisation, scikit-learn's default), ``ari`` and ``ami`` (the library's
    exact :func:`prayatul_edu.adjusted_mutual_information`, arithmetic mean as
    scikit-learn), ``n_clusters``.

    >>> from prayatul_edu.compare import label_scores
    >>> s = label_scores([0, 0, 1, 1], {"swapped": [1, 1, 0, 0]})["swapped"]
    >>> s["accuracy"], s["maximum_matching"], s["ari"]
    (0.0, 1.0, 1.0)
    """
    check_choice(average, "average", _AVERAGES)
    g = check_labels(truth, "truth")
    out = {}
    for name, pred in labelings.items():
        p = check_partitions(truth=g, pred=pred)[1]
        precision, recall = raw_precision_recall(truth, pred, average)
        out[name] = {
            "n_clusters": p.k,
            "accuracy": float(raw_accuracy(truth, pred)),
            "precision": precision, "recall": recall,
            "maximum_matching": float(maximum_matching(g, p)),
            "nmi": float(normalized_mutual_information(g, p, average="arithmetic")),
            "ari": float(adjusted_rand_index(g, p)),
            "ami": float(adjusted_mutual_information(g, p)),
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
    check_choice(source, "source", ("live", "paper"))
    if source == "paper":
        labels = load_labels()
        what = "the paper's labels (shipped with the package)"
    else:
        labels = nest_labels(generate_labels(progress=progress))
        what = "the paper's experiment, run now"
    names = list(datasets) if datasets is not None else list(DATASETS)
    for name in names:
        check_choice(name, "datasets", DATASETS)
    results = [DatasetResult(name, labels[name]["truth"],
                             {a: labels[name][a] for a in ALGORITHMS}, labels[name]["X"],
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
