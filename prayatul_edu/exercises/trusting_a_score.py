"""Notebook 08: trusting a score.

What a random labelling scores (the expected pair count and Rand index), the
properties of the course's measures read from their values on extreme and
random clusterings, which measure suits a scenario, a permutation p-value, and
whether a score is significant.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .. import (adjusted_mutual_information, adjusted_rand_index, normalized_mutual_information,
               permutation_test, purity, rand_index)
from ..counting import comb2
from ..steps import fmt
from ._base import Mistake
from ._data import SIGNIFICANCE_PERMUTATIONS
from .kinds import ChoiceQuestion, DefensibleChoice, NumberQuestion, NumbersQuestion

__all__ = ["ExpectedAgreement", "MeasureProperties", "WhichMeasure", "PermutationPValue",
           "IsItSignificant", "VERDICT_MARGIN"]


# --------------------------------------------------------------- chance level
def _labels_of(sizes) -> np.ndarray:
    """Labels 1, 1, ..., 2, 2, ...: one group per size (only the sizes matter here)."""
    return np.repeat(np.arange(1, len(sizes) + 1), np.asarray(sizes))


class ExpectedAgreement(NumbersQuestion):
    qid, title, dataset = "08.1", "what a random labelling scores", "chance_sizes"
    parts = ("Expected", "E[Rand]")
    hints = ("Only the sizes matter: shuffle the instances and every class and cluster keeps "
             "its size.",
             "Expected = sum_i C(n_i, 2) * sum_j C(m_j, 2) / C(N, 2): the pairs together in a "
             "cluster times the chance that a pair shares a class.",
             "Rand = (TP + TN) / C(N, 2) with TN = C(N, 2) - (pairs in a cluster) - "
             "(pairs in a class) + TP: put Expected in place of TP.")

    def describe(self, d):
        n = int(np.sum(self.class_sizes))
        d.text(f"N = {n} instances in classes of sizes m_j = "
               f"{', '.join(str(int(s)) for s in self.class_sizes)} and a clustering into "
               f"clusters of sizes n_i = {', '.join(str(int(s)) for s in self.cluster_sizes)}."
               " Shuffle the instances at random (every class and cluster keeps its size).")
        d.text("Give the expected number of pairs together in both (Expected, the ARI's "
               "correction) and the expected Rand index E[Rand] of such a random clustering.")

    def _counts(self):
        a = sum(comb2(int(s)) for s in self.cluster_sizes)         # pairs in a cluster
        b = sum(comb2(int(s)) for s in self.class_sizes)           # pairs in a class
        return a, b, comb2(int(np.sum(self.class_sizes)))

    def _ari(self):
        return adjusted_rand_index(_labels_of(self.class_sizes), _labels_of(self.cluster_sizes))

    def compute_key(self):
        a, b, m = self._counts()
        expected = self._ari().expected
        return np.array([float(expected), float((m - a - b + 2 * expected) / Fraction(m))])

    def mistakes(self):
        a, b, m = self._counts()
        expected, rand = self.compute_key()
        sq_c = sum(int(s) ** 2 for s in self.cluster_sizes)
        sq_t = sum(int(s) ** 2 for s in self.class_sizes)
        n = int(np.sum(self.class_sizes))
        return [Mistake("Max instead of Expected", np.array([(a + b) / 2, rand]),
                        "(sum_i C(n_i,2) + sum_j C(m_j,2)) / 2 is the ARI's Max, the most "
                        "pairs two labellings of these sizes can share; Expected multiplies "
                        "the two counts and divides by C(N, 2)."),
                Mistake("Rand without TN", np.array([expected, expected / m]),
                        "The Rand index counts the pairs apart in both too: TN = C(N,2) - "
                        "sum_i C(n_i,2) - sum_j C(m_j,2) + TP."),
                Mistake("sizes squared", np.array([sq_c * sq_t / n ** 2, rand]),
                        "Count pairs, C(n, 2) = n (n - 1) / 2, not squared sizes: a pair is "
                        "two different instances."),
                Mistake("ordered pairs", np.array([2 * expected, rand]),
                        "You counted ordered pairs, n (n - 1) instead of C(n, 2) = n (n - 1) / "
                        "2: Expected counts each pair once."),
                Mistake("total pairs not halved", np.array([expected / 2, rand]),
                        "You divided by N (N - 1), the ordered pairs, while the sizes' pairs "
                        "are unordered: the total is C(N, 2) = N (N - 1) / 2."),
                Mistake("E[Rand] = 0.5", np.array([expected, 0.5]),
                        "A random labelling does not score 0.5 on the Rand index: the pairs "
                        "apart in both (TN) count as agreement, so its chance level depends on "
                        "the sizes. Put Expected in place of TP."),
                Mistake("E[Rand] = 0", np.array([expected, 0.0]),
                        "0 is the chance level of the ARI, which subtracts Expected; the Rand "
                        "index is not adjusted, and its chance level is far above 0."),
                Mistake("Expected = 0", np.array([0.0, rand]),
                        "0 is what the ARI of a random labelling is on average; Expected is the "
                        "number of pairs such a labelling still shares with the classes."),
                Mistake("TP counted once", np.array([expected, (m - a - b + expected) / m]),
                        "TP counts twice in the Rand index: once as agreement and once in TN = "
                        "C(N,2) - sum_i C(n_i,2) - sum_j C(m_j,2) + TP."),
                Mistake("1 - E[Rand]", np.array([expected, 1 - rand]),
                        "That is 1 - E[Rand], the expected share of pairs on which the two "
                        "labellings disagree (FP + FN); the Rand index counts the pairs they "
                        "agree on, TP + TN."),
                Mistake("Expected as a share", np.array([expected / m, rand]),
                        "That is Expected / C(N, 2), the chance that one pair is together in "
                        "both; Expected is a number of pairs, as TP is.")]

    def explain(self, d):
        a, b, m = self._counts()
        key = self.compute_key()
        d.text("The ARI of any labelling with these sizes has the same Expected (the "
               "Index of this particular labelling does not matter here):")
        d.extend(self._ari().derivation())
        d.step(rf"E[\text{{Rand}}] = \frac{{\binom{{N}}{{2}} - {a} - {b} + 2\cdot"
               rf"\text{{Expected}}}}{{\binom{{N}}{{2}}}} = \frac{{{m} - {a} - {b} + 2 \cdot "
               rf"{fmt(key[0])}}}{{{m}}} = {fmt(key[1])}",
               f"E[Rand] = (C(N,2) - {a} - {b} + 2 Expected) / C(N,2) = ({m} - {a} - {b} + "
               f"2 * {fmt(key[0])}) / {m} = {fmt(key[1])}")
        d.text("A clustering that knows nothing of the classes scores this Rand index on "
               "average: far from 0, and not 0.5 either, which is why the ARI subtracts "
               "Expected.")


# --------------------------------------------------------------- properties
#: The measures of question 08.2's table, and the random labellings' numbers of clusters.
_MEASURES = (("purity", purity), ("Rand", rand_index), ("NMI", normalized_mutual_information),
             ("ARI", adjusted_rand_index))
_RANDOM_KS = (2, 5, 15)
#: Shuffles behind purity's mean in each random row of 08.2's table.
_SHUFFLES = 100


class MeasureProperties(ChoiceQuestion):
    qid, title, dataset = "08.2", "the measures' properties, computed", "extremes"
    hints = ("Read the rows of random labellings down a column: a measure adjusted for chance "
             "stays near 0 whatever k.",
             "Compute the two extremes yourself: N singleton clusters share no pair and every "
             "cluster is pure; one cluster holds every pair.",
             "The Rand index of one cluster: TP = the pairs in a class, TN = 0, so Rand = "
             "sum_j C(m_j, 2) / C(N, 2).")

    def describe(self, d):
        d.text(f"A reference labelling of N = {int(np.sum(self.class_sizes))} instances has "
               f"classes of sizes {', '.join(str(int(s)) for s in self.class_sizes)}. The "
               "course's measures of some clusterings of it (a random row: the expected value "
               "over random labellings into k clusters of about equal size; purity's is the "
               f"mean of {_SHUFFLES}):")
        d.table(["clustering", *(name for name, _ in _MEASURES)],
                [[row, *values] for row, values in self._table().items()])
        d.text("Which statements are true? Check them against the table, and compute what it "
               "does not show.")
        self.describe_options(d)

    def _table(self) -> dict:
        """Row name -> the measures' values; computed once for these data (kept beside
        the question, never in it: a name a cell could set)."""
        return self._once("_table_rows")

    def _table_rows(self) -> dict:
        truth = _labels_of(self.class_sizes)
        n = len(truth)
        rows = {"N singletons": [float(f(truth, np.arange(n))) for _, f in _MEASURES],
                "one cluster": [float(f(truth, np.zeros(n, int))) for _, f in _MEASURES]}
        for k in _RANDOM_KS:
            rows[f"random, k = {k}"] = self._expected(truth, np.arange(n) % k)
        return rows

    def _expected(self, truth, pred) -> list:
        """The measures' expected values over random labellings of ``pred``'s sizes: exact
        for Rand (TP's mean is the ARI's Expected), NMI (the entropies are fixed, so
        E[NMI] = E[I] / sqrt(H(C) H(T))) and ARI (0); purity's from shuffles."""
        ari = adjusted_rand_index(truth, pred)
        pc = ari.pairs
        a, b, m = pc.tp + pc.fp, pc.tp + pc.fn, ari.n_pairs
        ami = adjusted_mutual_information(truth, pred)
        shuffled = permutation_test(truth, pred, measure=purity, n_permutations=_SHUFFLES,
                                    seed=int(self.shuffle_seed))
        return [float(shuffled.null.mean()), float(1 - (a + b) / m + 2 * ari.expected / m),
                float(ami.emi / np.sqrt(ami.h_classes * ami.h_clusters)), 0.0]

    def _column(self, name):
        c = [m for m, _ in _MEASURES].index(name)
        return {row: values[c] for row, values in self._table().items()}

    def _pair_share(self) -> float:
        n = int(np.sum(self.class_sizes))
        return sum(comb2(int(s)) for s in self.class_sizes) / comb2(n)

    def statements(self):
        rand, nmi, ari, pur = (self._column(m) for m in ("Rand", "NMI", "ARI", "purity"))
        lo, hi = (f"random, k = {k}" for k in (_RANDOM_KS[0], _RANDOM_KS[-1]))
        return [
            ("Purity of N singleton clusters is 1 whatever the classes: purity rewards "
             "splitting.", pur["N singletons"] == 1.0,
             "Purity counts each cluster's majority class: what is it for a cluster of one?"),
            ("NMI of a random labelling is about 0, so NMI needs no chance correction.",
             nmi[hi] < 0.05,
             f"Read the NMI column: random labellings into {_RANDOM_KS[-1]} clusters score "
             "well above 0; NMI is not adjusted for chance, and grows with k."),
            ("The Rand index of a random labelling stays near 0.5 whatever k.",
             abs(rand[hi] - rand[lo]) < 0.05 and abs(rand[lo] - 0.5) < 0.05,
             "Read the Rand column: with more clusters most pairs are apart in the clustering, "
             "TN grows, and a random labelling's Rand climbs."),
            ("The ARI of N singletons, and the mean ARI of random labellings at every k, are "
             "near 0.", abs(ari["N singletons"]) < 0.02 and all(
                 abs(ari[f"random, k = {k}"]) < 0.05 for k in _RANDOM_KS),
             "The ARI subtracts the pairs a random labelling shares by chance: read its "
             "column, and compute TP and Expected for N singletons (both 0)."),
            ("The Rand index of one cluster equals the share of all pairs that lie in one "
             "class.", abs(rand["one cluster"] - self._pair_share()) < 1e-12,
             "One cluster: every pair is together in it, so TN = 0 and TP = the pairs in a "
             "class; Rand = sum_j C(m_j, 2) / C(N, 2)."),
            (f"A random labelling into {_RANDOM_KS[-1]} clusters has a higher NMI than one "
             f"into {_RANDOM_KS[0]}, though neither knows anything of the classes.",
             nmi[hi] > nmi[lo] + 0.05,
             "Compare the NMI of the random rows: an unadjusted measure rewards more "
             "clusters even when they mean nothing."),
            ("The ARI of N singletons is 1: every pair apart in the clustering is a correct "
             "decision.", abs(ari["N singletons"] - 1) < 0.01,
             "The ARI counts pairs together in both (TP); N singletons have none, and "
             "Expected is 0 too: their ARI is 0."),
        ]

    def acceptable(self):
        nmi, rand, ari = (self._column(m) for m in ("NMI", "Rand", "ARI"))
        hi, lo = f"random, k = {_RANDOM_KS[-1]}", f"random, k = {_RANDOM_KS[0]}"
        # every verdict clear by a margin the shuffles cannot cross
        return (super().acceptable() and nmi[hi] > 0.15 and nmi[hi] > nmi[lo] + 0.1
                and rand[hi] - rand[lo] > 0.1
                and all(abs(ari[f"random, k = {k}"]) < 0.03 for k in _RANDOM_KS))

    def explain_choice(self, d):
        n = int(np.sum(self.class_sizes))
        b = sum(comb2(int(s)) for s in self.class_sizes)
        d.text(f"One cluster: TP = sum_j C(m_j, 2) = {b} of the C({n}, 2) = {comb2(n)} pairs, "
               f"TN = 0, so Rand = {b}/{comb2(n)} = {fmt(self._pair_share())}.")
        d.text("N singletons: every cluster is pure (purity 1) and no pair is together "
               "(TP = Expected = 0, ARI 0). Random labellings: only the ARI's mean stays at 0; "
               "NMI, purity and Rand climb with k.")


# ----------------------------------------------------------- which measure
_OPTIONS = ("ARI", "AMI", "purity", "the Rand index", "NMI",
            "an internal criterion (silhouette, Calinski-Harabasz, Davies-Bouldin)",
            "maximum matching (one class to one cluster)")

_SCENARIOS = [
    ("A reference labelling is very unbalanced: one class holds {big} instances and 30 "
     "small classes hold 10 each. The algorithms you compare make many small clusters.",
     "AMI"),
    ("The reference has 4 large classes of about {quarter} instances each, and the "
     "clusterings you compare have 3 to 5 large clusters.", "ARI"),
    ("There is no reference labelling: you must choose between KMeans runs with k = 2 ... 10 "
     "on {big} customer records.", _OPTIONS[5]),
    ("The clustering of {big} documents will label them: each class must be paired with "
     "exactly one cluster, and you report how many documents get their class's cluster.",
     _OPTIONS[6]),
]

#: Why the best measure of each scenario is right (what a correct answer is told).
_RIGHT = ("AMI: with an unbalanced reference and small clusters the ARI's pairs are ruled by "
          "the large class; Romano et al. (2016) recommend AMI there.",
          "ARI: Romano et al. (2016) recommend it for large reference clusters of equal size.",
          "Without a reference labelling only an internal criterion can judge the clustering.",
          "A one-to-one pairing of classes with clusters, and the instances it gets right, is "
          "what maximum matching measures.")

#: The balanced scenario: ARI and AMI agree closely there (Romano et al. 2016), both accepted.
_BALANCED = 1
_BALANCED_AMI = ("AMI is right too: with large, balanced clusters ARI and AMI agree closely "
                 "and are both adjusted for chance (Romano et al. 2016 lean to ARI here).")


def _why(option: str, scenario: int) -> str:
    """Why ``option`` is not the best answer to ``scenario`` (the usual wrong reasoning)."""
    if scenario == 2 and option != _OPTIONS[5]:
        return (f"{option} compares the clustering with a reference labelling, and here there "
                "is none: only an internal criterion can judge it.")
    if option == "ARI":
        if scenario == 0:
            return ("ARI counts pairs, and the pairs are dominated by the large class: with an "
                    "unbalanced reference and small clusters Romano et al. (2016) recommend AMI.")
        return ("ARI scores pairs, not a pairing of classes with clusters: it does not say how "
                "many instances get their class's cluster.")
    if option == "AMI":
        return ("AMI measures shared information, not a pairing of classes with clusters: it "
                "does not say how many instances get their class's cluster.")
    if option == "purity":
        return ("Purity is many-to-one and not adjusted for chance: N singleton clusters score 1, "
                "and more clusters always look better.")
    if option == "the Rand index":
        return ("The Rand index is not adjusted for chance: the pairs apart in both dominate, and "
                "a random labelling's Rand climbs with k.")
    if option == "NMI":
        return ("NMI is not adjusted for chance: a random labelling with many clusters scores "
                "above 0, the more clusters the higher.")
    if option == _OPTIONS[5]:
        return ("There is a reference labelling here: an internal criterion ignores it and "
                "judges the geometry alone.")
    return ("Maximum matching pairs each class with one cluster: it ignores the clusters left "
            "unmatched and is not adjusted for chance; use it when that pairing is the question.")


class WhichMeasure(DefensibleChoice):
    qid, title, dataset = "08.3", "which measure for this scenario?", "scenario"
    hints = ("First: is there a reference labelling at all? Without one, only internal "
             "criteria apply.",
             "Then: is a score of a random labelling 0 for this measure, whatever k? Only "
             "ARI and AMI are adjusted for chance.",
             "ARI or AMI (Romano et al. 2016): ARI for large, equal-sized reference clusters "
             "(where the two agree closely); AMI for unbalanced references with small "
             "clusters. A one-to-one pairing of classes and clusters asks for matching.")

    def _text(self):
        text, best = _SCENARIOS[self.scenario]
        return text.format(big=self.big, quarter=self.big // 4), best

    def describe(self, d):
        d.text(self._text()[0])
        d.text("Which measure suits this scenario best?")
        self.describe_options(d)

    def statements(self):
        best = self._text()[1]
        # an accepted option's "why" is its reason (the solution's table shows it)
        return [(o, o == best, _RIGHT[self.scenario] if o == best else
                 _BALANCED_AMI if (o, self.scenario) == ("AMI", _BALANCED) else
                 _why(o, self.scenario)) for o in _OPTIONS]

    def defensible(self):
        letter = {text: letter for letter, text, _, _ in self.options()}
        best = self._text()[1]
        why = {letter[best]: _RIGHT[self.scenario]}
        if self.scenario == _BALANCED:
            why[letter["AMI"]] = _BALANCED_AMI
        return why

    def explain_choice(self, d):
        d.text(f"Scenario: {self._text()[0]} Best: {self._text()[1]}"
               + (" (AMI is accepted too: the two agree in the balanced case)."
                  if self.scenario == _BALANCED else "."))


# --------------------------------------------------------------- p-values
class PermutationPValue(NumberQuestion):
    qid, title, dataset = "08.4", "a permutation p-value", "null_scores"
    bounds = (0, 1)
    asked = "the p-value"
    hints = ("Count the shuffled labellings that score at least as high as the observed "
             "one (ties count: as good is not worse).",
             "Add 1 to that count and 1 to the number of shufflings: the observed labelling "
             "is one of the possible ones, so p is never 0.",
             "The p-value is a probability between 0 and 1 (not a percentage), of the upper "
             "tail only: a better clustering has a higher ARI.")

    def describe(self, d):
        d.text(f"A clustering has ARI = {fmt(self.observed)} against the classes. Shuffling "
               f"the cluster labels {len(self.null)} times (sizes kept) gave these ARIs:")
        d.table(["shuffle", "ARI"], [[i + 1, float(v)] for i, v in enumerate(self.null)],
                max_rows=50)
        d.text("What is the permutation p-value, p = (1 + #{null >= observed}) / (1 + n)?")

    def _at_least(self, strict=False):
        null = np.asarray(self.null, dtype=float)
        return int((null > self.observed).sum() if strict else (null >= self.observed).sum())

    def compute_key(self):
        return (1 + self._at_least()) / (1 + len(self.null))

    def mistakes(self):
        n, k = len(self.null), self._at_least()
        p = self.compute_key()
        below = int((np.asarray(self.null, dtype=float) <= self.observed).sum())
        return [Mistake("no +1", k / n,
                        "Without the +1 a p-value can be 0, which no finite number of "
                        "shufflings can show: count the observed labelling as one of them."),
                Mistake("+1 above only", (1 + k) / n,
                        "The observed labelling is one more labelling in the count and one more "
                        "in the total: add 1 to both, (1 + count) / (1 + n)."),
                Mistake("+1 below only", k / (1 + n),
                        "You added 1 to the number of shufflings but not to the count: the "
                        "observed labelling is one more labelling in both, (1 + count) / "
                        "(1 + n)."),
                Mistake("ties left out", (1 + self._at_least(strict=True)) / (1 + n),
                        "A shuffled labelling that scores exactly the observed value is as "
                        "good as it: count >=, not >."),
                Mistake("lower tail", (1 + below) / (1 + n),
                        "You counted the shufflings that score at most the observed value; "
                        "the p-value asks how often chance does at least as well."),
                Mistake("1 - p", 1 - p,
                        "That is 1 - p, the share of shufflings that did worse: the p-value "
                        "is the share that did at least as well."),
                Mistake("two-sided", min(1.0, 2 * p),
                        "A two-sided p-value doubles the tail; agreement only counts in one "
                        "direction (a higher ARI is better), so the test is one-sided."),
                Mistake("two-sided by size", (1 + int((np.abs(np.asarray(self.null, float))
                                                       >= abs(self.observed)).sum())) / (1 + n),
                        "You counted the shufflings whose ARI is as large in absolute value; "
                        "an ARI below 0 is less agreement than chance, not more: count the "
                        "shufflings with an ARI >= the observed one (one-sided)."),
                Mistake("ties left out and no +1", self._at_least(strict=True) / n,
                        "You counted only the shufflings that score above the observed value "
                        "and left out the +1: count >=, not > (a tie is as good), and add 1 "
                        "to the count and to the number of shufflings, (1 + count) / (1 + n)."),
                *(Mistake(name, self._normal_tail(ddof),
                          "That is a normal approximation, the upper tail beyond z = (observed "
                          "- mean of the null) / its standard deviation: a permutation p-value "
                          "counts the shufflings instead, (1 + #{null >= observed}) / (1 + n), "
                          "and assumes nothing about the null's shape.")
                  for name, ddof in (("normal approximation", 1),
                                     ("normal approximation (population sd)", 0))),
                Mistake("percent", 100 * p,
                        "That is the p-value in percent: give it as a probability between 0 "
                        "and 1.")]

    def _normal_tail(self, ddof: int) -> float:
        """P(Z >= z), z the observed value standardised by the null's mean and standard
        deviation (``ddof`` 1: the sample's, 0: the population's)."""
        null = np.asarray(self.null, dtype=float)
        spread = float(null.std(ddof=ddof))
        if spread == 0:
            return float("nan")
        return 0.5 * math.erfc((self.observed - float(null.mean())) / spread / math.sqrt(2))

    def explain(self, d):
        n, k = len(self.null), self._at_least()
        ties = int((np.asarray(self.null, dtype=float) == self.observed).sum())
        d.text(f"{k} of the {n} shuffled ARIs are >= {fmt(self.observed)} ({ties} of them "
               "equal to it).")
        d.step(rf"p = \frac{{1 + {k}}}{{1 + {n}}} = {fmt(self.compute_key())}",
               f"p = (1 + {k}) / (1 + {n}) = {fmt(self.compute_key())}")
        d.text("The smallest p-value 19 shufflings can give is 1/20 = 0.05: to show p < 0.01 "
               "you need at least 99 of them (the course's default is 999).")


def verdict_margin(n_permutations: int) -> float:
    """How far a p-value must be from 0.05 for its verdict to stand: four standard errors
    of a Monte-Carlo p-value at 0.05, ``4 sqrt(0.05 * 0.95 / (B + 1))``."""
    return 4 * float(np.sqrt(0.05 * 0.95 / (n_permutations + 1)))


#: The margin for the course's 999 shuffles (0.0276).
VERDICT_MARGIN = verdict_margin(SIGNIFICANCE_PERMUTATIONS)


class IsItSignificant(ChoiceQuestion):
    qid, title, dataset = "08.5", "is this score significant?", "significance"
    hints = ("Compare each observed value with what shuffled labels score: the chance "
             "level and its 95th percentile.",
             "A p-value says how surprising the agreement is under chance, not how large it "
             "is, nor the probability that the clustering is right.",
             "With the cluster and class sizes kept, Rand and ARI are both increasing "
             "functions of TP, the pairs together in both.")

    def describe(self, d):
        n = len(self.truth)
        d.text(f"N = {n} instances in 3 classes of {n // 3}, a clustering into {self.k} "
               f"clusters. Shuffling its labels {self.n_permutations} times (sizes kept):")
        d.table(["measure", "observed", "chance: mean", "chance: 95%", "p-value"],
                [[m, self.data[m]["observed"], self.data[m]["mean"], self.data[m]["q95"],
                  self.data[m]["p"]] for m in ("Rand", "ARI")])
        d.text("Which statements are true?")
        self.describe_options(d)

    def statements(self):
        r, a = self.data["Rand"], self.data["ARI"]
        below = a["p"] < 0.05
        above = a["observed"] > a["mean"]          # more agreement than chance, or less
        return [
            (f"A Rand index of {fmt(r['observed'])} shows that the clustering agrees well "
             "with the classes.", False,
             f"Read the Rand index against its chance level: shuffled labels score "
             f"{fmt(r['mean'])} on average, and the ARI shows how much of the agreement is "
             "more than chance."),
            (f"ARI's p-value of {fmt(a['p'])} is below 0.05: the clustering agrees with the "
             "classes better than random labellings of the same sizes.", below,
             ("The p-value is below 0.05: chance rarely does as well, so the agreement is "
              "significant at the 5% level." if below else
              "The p-value is above 0.05: random labellings of these sizes do as well often "
              "enough, so the agreement is not significant at the 5% level.")),
            ("A p-value of 0.005 would mean that the clustering is close to the classes.",
             False, "A p-value measures surprise under chance, not the size of the agreement: "
                    "read the ARI itself for that."),
            (f"1 - p = {fmt(1 - a['p'])} is the probability that the clustering is right.",
             False, "A p-value is computed assuming chance alone: P(a score this good | no "
                    "relation), not the probability of any hypothesis; 1 - p is no such "
                    "probability either."),
            (f"Rand's chance level here ({fmt(r['mean'])}) is far above 0, so a Rand index "
             "means little without it.", True,
             "What does a random labelling score on the Rand index? Read the chance column."),
            ("With ten times as many instances and the same share of them recovered, the "
             "exact p-value (over all shufflings, not only these) would be smaller.", above,
             ("The chance distribution narrows as N grows (its spread shrinks like 1/N for "
              "the ARI), while the agreement stays: the same ARI becomes more surprising."
              if above else
              "Here the ARI is below its chance level: as N grows the chance distribution "
              "narrows around that level, the same ARI lies deeper in its lower tail, and "
              "the p-value grows towards 1.")),
            ("With the sizes kept, Rand and ARI rank the shuffled labellings the same way, so "
             "their p-values are equal.", True,
             "With n_i and m_j fixed, both are increasing functions of TP alone."),
        ]

    def acceptable(self):
        a = self.data["ARI"]
        # a verdict the Monte-Carlo error cannot flip, and Rand far from 0 (a statement says so)
        # and an ARI clearly above or below its chance level (the statement on ten times as
        # many instances turns on it: the p-value falls towards 0 above it, rises to 1 below)
        return (super().acceptable()
                and abs(a["p"] - 0.05) > verdict_margin(self.n_permutations)
                and abs(a["p"] - 0.5) > 0.1
                and (a["observed"] > a["mean"]) == (a["p"] < 0.5)
                and self.data["Rand"]["mean"] > 0.3)

    def explain_choice(self, d):
        d.text("The numbers come from the library's Rand and ARI on each shuffled labelling; "
               f"the p-values are (1 + #{{null >= observed}}) / (1 + {self.n_permutations}). "
               f"A verdict at 0.05 stands when p is more than {fmt(VERDICT_MARGIN)} from it "
               "(four Monte-Carlo standard errors). ARI of the clustering itself:")
        d.extend(adjusted_rand_index(self.truth, self.pred).derivation())
