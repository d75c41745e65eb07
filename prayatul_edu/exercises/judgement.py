"""Notebook 08: choosing a measure and trusting a score.

Questions of judgement rather than arithmetic: what a random labelling scores
(the expected pair count and Rand index), a permutation p-value, which measure
suits a scenario, whether a score is significant, which k the internal criteria
support, the stability of a clustering on the instances two subsamples share,
and the properties of the course's measures.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .. import (adjusted_rand_index, calinski_harabasz, davies_bouldin, rand_index,
               silhouette)
from ..counting import comb2
from ..steps import fmt
from ._base import Mistake
from .kinds import ChoiceQuestion, NumberQuestion, NumbersQuestion

__all__ = ["ExpectedAgreement", "PermutationPValue", "WhichMeasure", "IsItSignificant",
           "WhichK", "StabilityOnShared", "MeasureProperties"]


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
                        "two different instances.")]

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
               "average: far from 0, which is why the ARI subtracts Expected.")


class PermutationPValue(NumberQuestion):
    qid, title, dataset = "08.2", "a permutation p-value", "null_scores"
    hints = ("Count the shuffled labellings that score at least as high as the observed "
             "one (ties count: as good is not worse).",
             "Add 1 to that count and 1 to the number of shufflings: the observed labelling "
             "is one of the possible ones, so p is never 0.")

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
        n = len(self.null)
        below = int((np.asarray(self.null, dtype=float) <= self.observed).sum())
        return [Mistake("no +1", self._at_least() / n,
                        "Without the +1 a p-value can be 0, which no finite number of "
                        "shufflings can show: count the observed labelling as one of them."),
                Mistake("ties left out", (1 + self._at_least(strict=True)) / (1 + n),
                        "A shuffled labelling that scores exactly the observed value is as "
                        "good as it: count >=, not >."),
                Mistake("lower tail", (1 + below) / (1 + n),
                        "You counted the shufflings that score at most the observed value; "
                        "the p-value asks how often chance does at least as well.")]

    def explain(self, d):
        n, k = len(self.null), self._at_least()
        ties = int((np.asarray(self.null, dtype=float) == self.observed).sum())
        d.text(f"{k} of the {n} shuffled ARIs are >= {fmt(self.observed)} ({ties} of them "
               "equal to it).")
        d.step(rf"p = \frac{{1 + {k}}}{{1 + {n}}} = {fmt(self.compute_key())}",
               f"p = (1 + {k}) / (1 + {n}) = {fmt(self.compute_key())}")
        d.text("The smallest p-value 19 shufflings can give is 1/20 = 0.05: to show p < 0.01 "
               "you need at least 99 of them (the course's default is 999).")


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
        if scenario == 1:
            return ("For large reference clusters of equal size Romano et al. (2016) recommend "
                    "ARI; AMI is the choice for unbalanced references with small clusters.")
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


class WhichMeasure(ChoiceQuestion):
    qid, title, dataset, single = "08.3", "which measure for this scenario?", "scenario", True
    hints = ("First: is there a reference labelling at all? Without one, only internal "
             "criteria apply.",
             "Then: is a score of a random labelling 0 for this measure, whatever k? Only "
             "ARI and AMI are adjusted for chance.",
             "ARI or AMI (Romano et al. 2016): ARI for large, equal-sized reference clusters; "
             "AMI for unbalanced references with small clusters. A one-to-one pairing of "
             "classes and clusters asks for matching.")

    def _text(self):
        text, best = _SCENARIOS[self.scenario]
        return text.format(big=self.big, quarter=self.big // 4), best

    def describe(self, d):
        d.text(self._text()[0])
        d.text("Which measure suits this scenario best?")
        self.describe_options(d)

    def statements(self):
        best = self._text()[1]
        return [(o, o == best, _why(o, self.scenario)) for o in _OPTIONS]

    def explain_choice(self, d):
        d.text(f"Scenario: {self._text()[0]} Best: {self._text()[1]}.")


class IsItSignificant(ChoiceQuestion):
    qid, title, dataset = "08.4", "is this score significant?", "significance"
    hints = ("Compare each observed value with what shuffled labels score: the chance "
             "level and its 95th percentile.",
             "A p-value says how surprising the agreement is under chance, not how large it "
             "is.",
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
        return [
            (f"A Rand index of {fmt(r['observed'])} shows that the clustering agrees well "
             "with the classes.", False,
             f"Read it against chance: shuffled labels score {fmt(r['mean'])} on average."),
            (f"ARI's p-value of {fmt(a['p'])} is below 0.05: the clustering agrees with the "
             "classes better than random labellings of the same sizes.", a["p"] < 0.05,
             "Read the p-value against 0.05."),
            ("A p-value of 0.005 would mean that the clustering is close to the classes.",
             False, "A p-value measures surprise under chance, not the size of the agreement: "
                    "read the ARI itself for that."),
            (f"Rand's chance level here ({fmt(r['mean'])}) is far above 0, so a Rand index "
             "means little without it.", True,
             "What does a random labelling score on the Rand index?"),
            ("With ten times as many instances and the same share of them recovered, the "
             "p-value would be smaller.", True,
             "How does the spread of the chance distribution change as N grows?"),
            ("With the sizes kept, Rand and ARI rank the shuffled labellings the same way, so "
             "their p-values are equal.", True,
             "With n_i and m_j fixed, both are increasing functions of TP alone."),
        ]

    def acceptable(self):
        a = self.data["ARI"]
        # a clear verdict either way, and Rand far from 0 (the statement says so)
        return (super().acceptable() and abs(a["p"] - 0.05) > 0.02
                and self.data["Rand"]["mean"] > 0.3)

    def explain_choice(self, d):
        d.text("The numbers come from the library's Rand and ARI on each shuffled labelling; "
               f"the p-values are (1 + #{{null >= observed}}) / (1 + {self.n_permutations}). "
               "ARI of the clustering itself:")
        d.extend(adjusted_rand_index(self.truth, self.pred).derivation())


# ------------------------------------------------------------- choosing k
_DISAGREE = "the criteria disagree: no k is clearly supported"


#: The internal criteria of question 08.5: name, function, whether higher is better.
_CRITERIA = (("silhouette", silhouette, True), ("Calinski-Harabasz", calinski_harabasz, True),
             ("Davies-Bouldin", davies_bouldin, False))


class WhichK(ChoiceQuestion):
    qid, title, dataset, single = "08.5", "which k do these criteria support?", "criteria_k", True
    hints = ("Silhouette and Calinski-Harabasz: higher is better. Davies-Bouldin: lower is "
             "better.",
             "Find each criterion's best k; a k is well supported only when all of them agree.",
             "Where they disagree, no single number settles it: look at the data and at the "
             "stability of each k instead of picking the criterion you like.")

    def describe(self, d):
        d.text(f"{len(self.X)} points in the plane (`q.X`) and average-linkage clusterings "
               "into k = 2 ... 6 (`q.candidates[k]`). Three internal criteria of each:")
        d.table(["k", *(name for name, _, _ in _CRITERIA)],
                [[k, *values] for k, values in self._scores().items()])
        d.text("Which k do these criteria support?")
        self.describe_options(d)

    def _scores(self):
        """k -> the criteria of its clustering; computed once for these data (the key, each
        statement, option and mistake asks for them; the arrays are read-only)."""
        these = [self.X, *(x for item in self.candidates.items() for x in item)]
        seen = self.__dict__.get("_scored")
        if seen is None or len(seen[0]) != len(these) or any(
                a is not b for a, b in zip(seen[0], these)):
            seen = self._scored = (these, {k: [float(f(self.X, lab)) for _, f, _ in _CRITERIA]
                                           for k, lab in self.candidates.items()})
        return seen[1]

    def _best(self) -> list:
        """Each criterion's best k."""
        sc = self._scores()
        return [(max if higher else min)(sc, key=lambda k: sc[k][c])
                for c, (_, _, higher) in enumerate(_CRITERIA)]

    def _agreed(self):
        best = set(self._best())
        return best.pop() if len(best) == 1 else None

    def statements(self):
        agreed = self._agreed()
        why = ("Find the k each criterion prefers (highest silhouette and Calinski-Harabasz, "
               "lowest Davies-Bouldin), then compare them.")
        return ([(f"k = {k}", k == agreed, why) for k in self.candidates]
                + [(_DISAGREE, agreed is None,
                    "Check whether the three criteria prefer the same k.")])

    def acceptable(self):
        sc = self._scores()
        for c in range(len(_CRITERIA)):               # each criterion has a clear best
            values = sorted(v[c] for v in sc.values())
            gap = values[-1] - values[-2] if _CRITERIA[c][2] else values[1] - values[0]
            if gap < 0.01 * max(1.0, abs(values[-1])):
                return False
        return super().acceptable()

    def explain_choice(self, d):
        for (name, f, higher), k in zip(_CRITERIA, self._best()):
            d.text(f"{name} is {'highest' if higher else 'lowest'} at k = {k}.")
        agreed = self._agreed()
        d.text(f"They agree on k = {agreed}." if agreed is not None else
               "They disagree: each has its own idea of a good cluster (Calinski-Harabasz "
               "favours compact round clusters of similar spread; the silhouette a clear gap "
               "to the nearest cluster).")
        k = agreed if agreed is not None else self._best()[0]
        d.extend(calinski_harabasz(self.X, self.candidates[k]).derivation())


# --------------------------------------------------------------- stability
class StabilityOnShared(NumberQuestion):
    qid, title, dataset = "08.6", "stability on the shared instances", "stability"
    hints = ("Two subsamples of the same data were clustered; compare them only on the "
             "instances both contain.",
             "Line up the two labels of each shared instance by its id, not by position.",
             "Then the ARI of the two labellings of the shared instances: the names of the "
             "clusters do not matter.")

    def describe(self, d):
        d.text("The same procedure clustered two subsamples of 12 instances (ids 0 ... 11):")
        d.table(["subsample", "instance ids", "cluster labels"],
                [["A", " ".join(str(int(i)) for i in self.ids_a),
                  " ".join(str(int(v)) for v in self.labels_a)],
                 ["B", " ".join(str(int(i)) for i in self.ids_b),
                  " ".join(str(int(v)) for v in self.labels_b)]])
        d.text("What is the ARI of the two clusterings on the instances both subsamples "
               "share (one term of the stability of Ben-Hur, Elisseeff and Guyon 2002)?")

    def _shared(self):
        shared = np.intersect1d(self.ids_a, self.ids_b)
        a = np.asarray(self.labels_a)[np.searchsorted(self.ids_a, shared)]
        b = np.asarray(self.labels_b)[np.searchsorted(self.ids_b, shared)]
        return shared, a, b

    def compute_key(self):
        _, a, b = self._shared()
        return float(adjusted_rand_index(a, b))

    def mistakes(self):
        _, a, b = self._shared()
        return [Mistake("by position", float(adjusted_rand_index(self.labels_a, self.labels_b)),
                        "You compared the labels position by position; the two subsamples hold "
                        "different instances: line them up by instance id."),
                Mistake("equal names", float(np.mean(a == b)),
                        "Cluster names are arbitrary in each run: count agreement up to renaming "
                        "(ARI), not equal labels."),
                Mistake("Rand", float(rand_index(a, b)),
                        "That is the Rand index; the stability here uses the ARI, which is 0 "
                        "for chance agreement.")]

    def acceptable(self):
        shared, a, b = self._shared()
        return (super().acceptable() and len(shared) >= 5 and len(set(a.tolist())) > 1
                and len(set(b.tolist())) > 1)

    def explain(self, d):
        shared, a, b = self._shared()
        d.table(["shared id", "label in A", "label in B"],
                [[int(i), int(x), int(y)] for i, x, y in zip(shared, a, b)])
        d.extend(adjusted_rand_index(a, b).derivation())


# --------------------------------------------------------------- properties
class MeasureProperties(ChoiceQuestion):
    qid, title, dataset = "08.7", "properties of the course's measures", "none"
    hints = ("Adjusted for chance means: the expected value over random labellings with the "
             "same sizes is 0.",
             "Think of two extremes: N singleton clusters, and a random labelling with many "
             "clusters.",
             "Internal criteria see only the data and the clusters; external ones need the "
             "classes.")

    def describe(self, d):
        d.text("Which statements about the course's measures are true?")
        self.describe_options(d)

    def statements(self):
        return [
            ("ARI and AMI have expected value 0 for random labellings of fixed sizes.", True,
             "What do ARI and AMI subtract?"),
            ("NMI of a random labelling is 0.", False,
             "NMI is not adjusted: a random labelling scores above 0, more with more clusters."),
            ("Purity of N singleton clusters is 1, whatever the classes.", True,
             "What is the majority class of a cluster of one?"),
            ("The Rand index of a random labelling stays near 0.5 whatever k is.", False,
             "As k grows most pairs are apart in the clusters, and TN pushes Rand up."),
            ("The silhouette, Calinski-Harabasz and Davies-Bouldin need no reference "
             "labelling.", True, "What do internal criteria look at?"),
            ("Maximum matching is many-to-one: several clusters may be matched to one class.",
             False, "How many clusters does a matching pair with each class?"),
            ("Pair-counting measures weigh a cluster by its pairs, about its size squared, "
             "so large clusters dominate them.", True,
             "How many pairs does a cluster of n instances hold?"),
        ]
