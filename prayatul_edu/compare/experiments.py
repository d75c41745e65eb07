"""Whole comparisons: Tables I-III (and a bootstrap) per data set, as text, Markdown or a dict."""
from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ..labels import check_labels
from ..paper_labels import (ALGORITHMS, DATASETS, TITLES, generate_labels, load_labels,
                            nest_labels)
from ..prayatul import PRAYATUL_MEASURES
from ..steps import Derivation, Result, fixed
from .resampling import bootstrap
from .scores import NMI_AVERAGE, label_scores
from .tournaments import tournament

__all__ = ["DatasetResult", "Experiment", "run_experiment", "compare_labelings", "DEFAULT_OUT"]

#: Where ``prayatul-edu compare`` writes figures unless ``--out`` says otherwise.
DEFAULT_OUT = "prayatul-output"


#: What Table I says when there is one algorithm: the Prayatul matrix compares two.
ONE_ALGORITHM = ("Table I needs two algorithms: the Prayatul matrix compares a primary with "
                 "an alternative on the same instances. With one algorithm, Tables II and "
                 "III score it against the truth.")


class DatasetResult(Result):
    """One data set's comparison: labels, Table I (tournament), Tables II-III, bootstrap.

    With one algorithm there is no pair: ``tournament`` and ``bootstrap`` are None,
    Table I says why (``ONE_ALGORITHM``) and Tables II-III score it.
    """

    def __init__(self, name, truth, labelings, X=None, *, pairs=None, average="macro",
                 n_resamples=0, seed=0, confidence=0.95, title=None, progress=None,
                 notes=()):
        say = progress or (lambda message: None)
        self.name = name
        self.title = title or TITLES.get(name, name)
        self.truth = np.asarray(truth)
        self.labelings = {k: np.asarray(v) for k, v in labelings.items()}
        self.X = None if X is None else np.asarray(X, dtype=float)
        #: what the tables must say about the labels (noise, rows dropped), one line each
        self.notes = list(notes)
        pairwise = len(self.labelings) > 1
        k = len(self.labelings)
        if pairwise:
            say(f"Table I: the Prayatul matrix of {k * (k - 1) if pairs is None else len(pairs)}"
                f" ordered pairs of {k} algorithms, N = {self.n:,}")
        # every column checked and coded once, for Table I and Tables II-III alike
        coded_truth = check_labels(truth, "truth")
        coded = {name: check_labels(v, str(name)) for name, v in labelings.items()}
        self.tournament = tournament(coded_truth, coded, pairs) if pairwise else None
        say(f"Tables II and III: {k} algorithm{'s' * (k > 1)} against the truth")
        self.scores = label_scores(coded_truth, coded, average)
        self.average = average
        if n_resamples and pairwise:
            say(f"bootstrap: {n_resamples} resamples")
        self.bootstrap = (bootstrap(truth, labelings, n_resamples, seed, confidence, pairs)
                          if n_resamples and pairwise else None)

    @property
    def n(self) -> int:
        return int(self.truth.shape[0])

    def to_dict(self) -> dict:
        out = {"name": self.name, "n": self.n,
               "n_classes": int(check_labels(self.truth, "truth").k),
               "algorithms": list(self.labelings),
               "table_1": self.tournament.rows() if self.tournament else [],
               "table_2": [{"algorithm": a, "n_clusters": s["n_clusters"],
                            "accuracy": s["accuracy"], "precision": s["precision"],
                            "recall": s["recall"], "maximum_matching": s["maximum_matching"]}
                           for a, s in self.scores.items()],
               "table_3": [{"algorithm": a, "nmi": s["nmi"], "ari": s["ari"], "ami": s["ami"]}
                           for a, s in self.scores.items()],
               "nmi_average": NMI_AVERAGE,
               "notes": list(self.notes),
               "average": self.average,
               "verdicts": self.tournament.verdicts(self.bootstrap) if self.tournament else []}
        if self.tournament is None:
            out["note"] = ONE_ALGORITHM
        if self.bootstrap is not None:
            out["bootstrap"] = {"n_resamples": self.bootstrap.n_resamples,
                                "seed": self.bootstrap.seed,
                                "confidence": self.bootstrap.confidence,
                                "intervals": self.bootstrap.rows()}
        return out

    def derivation(self, tables=("I", "II", "III")) -> Derivation:
        k = check_labels(self.truth, "truth").k
        d = Derivation(f"{self.title}: N = {self.n:,}, {k} classes in the truth")
        said = "".join(f" {note}" for note in self.notes)     # in every table's caption
        if "I" in tables:
            if self.tournament is None:
                d.text(ONE_ALGORITHM)
            else:
                self.tournament.add_table(d, note=said)
        if "II" in tables:
            how = {"macro": "macro-averaged over the labels",
                   "weighted": "weighted by class size",
                   "paper": "averaged as the paper does"}[self.average]
            d.table(["algorithm", "clusters", "accuracy", "precision", "recall",
                     "max. matching"],
                    [[a, s["n_clusters"], *(fixed(s[x]) for x in
                                            ("accuracy", "precision", "recall",
                                             "maximum_matching"))]
                     for a, s in self.scores.items()],
                    caption=f"Table II. On the raw labels (precision and recall {how}): "
                            "a clustering with the right clusters under other names scores 0. "
                            "Maximum matching relabels first." + said)
        if "III" in tables:
            d.table(["algorithm", f"NMI ({NMI_AVERAGE})", "ARI", f"AMI ({NMI_AVERAGE})"],
                    [[a, fixed(s["nmi"]), fixed(s["ari"]), fixed(s["ami"])]
                     for a, s in self.scores.items()],
                    caption="Table III. Permutation-invariant scores against the truth (NMI "
                            f"and AMI divide by the {NMI_AVERAGE} mean of the two entropies, "
                            "as scikit-learn does; the library's "
                            "normalized_mutual_information defaults to the lecture's "
                            "geometric mean)." + said)
        if self.bootstrap is not None:
            self.bootstrap.add_table(d)
        if "I" in tables and self.tournament is not None:
            self.tournament.add_verdicts(d, self.bootstrap)
        return d


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
                "measures": {name: m.symbol for name, m in PRAYATUL_MEASURES.items()},
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
    (:func:`prayatul_edu.paper_labels.generate_labels`: the paper's data,
    parameters and seeds); ``source="paper"`` uses the labels the paper got
    (scikit-learn 1.1.3, shipped with the package). ``progress(data set,
    algorithm)`` is called before each algorithm runs. ``n_resamples > 0`` adds
    bootstrap intervals.

    Examples
    --------
    >>> from prayatul_edu.compare import run_experiment
    >>> e = run_experiment("paper", datasets=["noisy_moons"])   # the shipped labels
    >>> d = e.to_dict()["datasets"][0]
    >>> d["name"], len(d["table_1"])      # every ordered pair of the four algorithms
    ('noisy_moons', 12)
    """
    check_choice(source, "source", ("live", "paper"))
    names = list(datasets) if datasets is not None else list(DATASETS)
    for name in names:
        check_choice(name, "datasets", DATASETS)
    if source == "paper":
        labels = load_labels()
        what = "the paper's labels (shipped with the package)"
    else:
        labels = nest_labels(generate_labels(progress=progress))
        what = "the paper's experiment, run now"
    results = [DatasetResult(name, labels[name]["truth"],
                             {a: labels[name][a] for a in ALGORITHMS}, labels[name]["X"],
                             average=average, n_resamples=n_resamples, seed=seed,
                             confidence=confidence)
               for name in names]
    return Experiment(results, what, labels["versions"])


def compare_labelings(truth, labelings: dict, X=None, *, name: str = "data", pairs=None,
                      n_resamples: int = 0, seed=0, confidence: float = 0.95,
                      average: str = "macro", progress=None, notes=()) -> Experiment:
    """Your own clusterings compared: the :class:`Experiment` of one data set.

    ``progress(message)`` is called before each stage (Table I, Tables II-III, the
    bootstrap); ``notes`` are sentences every table of the data set carries (e.g. how a
    noise label was counted).

    Examples
    --------
    >>> from prayatul_edu.compare import compare_labelings
    >>> e = compare_labelings([0, 0, 1, 1], {"A": [0, 0, 0, 1], "B": [1, 1, 0, 0]})
    >>> row = e.to_dict()["datasets"][0]["table_1"][0]
    >>> row["primary"], row["BR"], row["RW"], row["WR"], row["BW"]
    ('A', 3, 0, 3, 0)
    """
    ds = DatasetResult(name, truth, labelings, X, pairs=pairs, average=average,
                       n_resamples=n_resamples, seed=seed, confidence=confidence, title=name,
                       progress=progress, notes=notes)
    return Experiment([ds], f"{name}", [])
