"""Notebook 09: choosing k.

The Hopkins statistic of clustering tendency by hand, the stability of a clustering on the instances two subsamples share, the
stability of each cluster (clusterboot's mean Jaccard), which k the internal
criteria support when they disagree, and which criterion disagrees and why.
"""
from __future__ import annotations

import numpy as np

from .. import (adjusted_mutual_information, adjusted_rand_index, calinski_harabasz,
                davies_bouldin, fowlkes_mallows_index, jaccard_index,
                normalized_mutual_information, purity, rand_index, silhouette)
from ..significance import stability_reading
from ..steps import fmt
from . import _data
from ._base import Mistake
from .kinds import ChoiceQuestion, DefensibleChoice, NumbersQuestion, NumberQuestion

__all__ = ["HopkinsByHand", "StabilityOnShared", "PerClusterStability", "WhichK", "WhyTheyDisagree",
           "CRITERIA", "jaccard_of_sets"]


# ---------------------------------------------------------------- tendency
def _distances(points, to, manhattan=False) -> np.ndarray:
    """Euclidean distances (``manhattan``: city-block ones), a row per point of ``points``, a
    column per row of ``to``."""
    diff = np.asarray(points, float)[:, None, :] - np.asarray(to, float)[None, :, :]
    return np.abs(diff).sum(-1) if manhattan else np.sqrt((diff ** 2).sum(-1))


class HopkinsByHand(NumberQuestion):
    qid, title, dataset = "09.1", "the Hopkins statistic by hand", "tendency"
    asked = "H"
    bounds = (0, 1)
    hints = ("u_i: from probe i to its nearest data point. w_i: from sampled point i to its "
             "nearest OTHER data point (not itself, at distance 0).",
             "Raise every distance to the power d, the number of features (here d = 2): "
             "H = sum u_i^d / (sum u_i^d + sum w_i^d).",
             "H near 1: the data points are much closer to each other than random points are "
             "to them (clusters); about 0.5: no more clumped than random points.")

    def describe(self, d):
        d.text("Twelve points in the plane (`q.X`, ids 0 ... 11):")
        d.table(["id", "x", "y"], [[i, float(x), float(y)] for i, (x, y) in enumerate(self.X)])
        d.text("Three probe points drawn uniformly in their bounding box (`q.probes`): "
               + "; ".join(f"({float(x)}, {float(y)})" for x, y in self.probes)
               + ". Three of the points sampled (`q.sample`): ids "
               + ", ".join(str(int(i)) for i in self.sample) + ".")
        d.text("What is the Hopkins statistic H, as `pe.hopkins_statistic` defines it (Euclidean "
               "distances, power d = 2, H near 1 for clustered data)?")

    def _u(self, manhattan=False):
        return _distances(self.probes, self.X, manhattan).min(axis=1)

    def _w(self, skip_self=True, manhattan=False):
        sample = np.asarray(self.sample)
        D = _distances(np.asarray(self.X)[sample], self.X, manhattan)
        if skip_self:                          # the point's own row, not another at 0
            D[np.arange(len(sample)), sample] = np.inf
        return D.min(axis=1)

    @staticmethod
    def _h(u, w, power=2):
        return float((u ** power).sum() / ((u ** power).sum() + (w ** power).sum()))

    def compute_key(self):
        return self._h(self._u(), self._w())

    def mistakes(self):
        u, w = self._u(), self._w()
        h = self._h(u, w)
        to_sample = _distances(self.probes, np.asarray(self.X)[np.asarray(self.sample)]).min(1)
        return [Mistake("1 - H", 1 - h,
                        "That is 1 - H, the convention of some texts (near 0 for clusters); "
                        "the course's H puts the probes' distances on top: near 1 for "
                        "clustered data."),
                Mistake("no power d", self._h(u, w, power=1),
                        "Raise the distances to the power d = 2 (the number of features): "
                        "then u^d and w^d have the same distribution for uniform data, and H "
                        "is 0.5 on average there."),
                Mistake("itself as neighbour", self._h(u, self._w(skip_self=False)),
                        "A sampled point's nearest neighbour is another data point, not the "
                        "point itself (at distance 0)."),
                Mistake("probe to the sample", self._h(to_sample, w),
                        "u_i is the distance from a probe to the nearest of ALL the data "
                        "points, not only the sampled ones."),
                Mistake("mean of ratios", float(np.mean(u ** 2 / (u ** 2 + w ** 2))),
                        "Sum first, then divide: H = sum u_i^d / (sum u_i^d + sum w_i^d), not "
                        "the mean of the ratios u_i^d / (u_i^d + w_i^d)."),
                Mistake("sums squared", float(u.sum() ** 2 / (u.sum() ** 2 + w.sum() ** 2)),
                        "Raise each distance to the power d before you add them, not the "
                        "sums."),
                Mistake("1 - H without the power", 1 - self._h(u, w, power=1),
                        "That is sum w_i / (sum u_i + sum w_i), the form of some textbooks "
                        "(Tan, Steinbach and Kumar): near 0 for clusters, and without the "
                        "power d. The course's H puts the probes' distances u_i on top and "
                        "raises every distance to the power d = 2."),
                Mistake("w within the sample", self._h(u, self._w_in_sample()),
                        "w_i is the distance from a sampled point to the nearest other point "
                        "of ALL the data, not only of the sampled ones."),
                Mistake("probes without the sample", self._h(self._u_without_sample(), w),
                        "u_i is the distance from a probe to the nearest of ALL the data "
                        "points: the sampled points stay in the data the probes search."),
                Mistake("w outside the sample", self._h(u, self._w_outside_sample()),
                        "w_i is the distance from a sampled point to its nearest other data "
                        "point: the other sampled points stay in the data it searches."),
                Mistake("power 3", self._h(u, w, power=3),
                        "You raised the distances to the power 3: the power is d, the number "
                        "of features (here d = 2), not the number of probes or sampled points "
                        "(m = 3)."),
                Mistake("power 4", self._h(u, w, power=4),
                        "You raised the distances to the power 4, squared twice: square each "
                        "Euclidean distance once (the power d = 2, the number of features)."),
                Mistake("Manhattan distance",
                        self._h(self._u(manhattan=True), self._w(manhattan=True)),
                        "You measured city-block (Manhattan) distances, |dx| + |dy|: the "
                        "course's H uses Euclidean ones, sqrt(dx^2 + dy^2), then raises them "
                        "to the power d = 2.")]

    def _u_without_sample(self):
        rest = np.delete(np.asarray(self.X), np.asarray(self.sample), axis=0)
        return _distances(self.probes, rest).min(axis=1)

    def _w_outside_sample(self):
        X, sample = np.asarray(self.X), np.asarray(self.sample)
        return _distances(X[sample], np.delete(X, sample, axis=0)).min(axis=1)

    def _w_in_sample(self):
        X = np.asarray(self.X)[np.asarray(self.sample)]
        D = _distances(X, X)
        np.fill_diagonal(D, np.inf)
        return D.min(axis=1)

    def acceptable(self):
        # probes away from the points, and an H that shows the groups (3 probes are noisy: a
        # draw of 0.2 on clustered data would teach the opposite of what H is for)
        return (super().acceptable() and bool(np.all(self._u() > 0) and np.all(self._w() > 0))
                and self.compute_key() > 0.7)

    def explain(self, d):
        u, w = self._u(), self._w()
        d.table(["i", "probe", "u_i (to the nearest point)", "sampled id",
                 "w_i (to its nearest other point)"],
                [[i + 1, f"({float(p[0])}, {float(p[1])})", float(a), int(s), float(b)]
                 for i, (p, a, s, b) in enumerate(zip(self.probes, u, self.sample, w))])
        su, sw = float((u ** 2).sum()), float((w ** 2).sum())
        h = self.compute_key()
        d.step(rf"H = \frac{{\sum u_i^2}}{{\sum u_i^2 + \sum w_i^2}} = \frac{{{fmt(su)}}}"
               rf"{{{fmt(su)} + {fmt(sw)}}} = {fmt(h)}",
               f"H = sum u_i^2 / (sum u_i^2 + sum w_i^2) = {fmt(su)} / ({fmt(su)} + {fmt(sw)}) "
               f"= {fmt(h)}")
        d.text("Near 1 the points are clumped: they are much closer to each other than random "
               "probes are to them. With 3 probes H varies a lot from draw to draw (under "
               "uniform data it follows Beta(3, 3)); `pe.hopkins_statistic(X)` takes "
               "m = max(10, N/10) of them and gives its p-value.")


# --------------------------------------------------------------- stability
class StabilityOnShared(NumberQuestion):
    qid, title, dataset = "09.2", "stability on the shared instances", "stability"
    bounds = (-1, 1)
    asked = "the ARI"
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
        other = ("the stability here uses the ARI, which is 0 for chance agreement and 1 only "
                 "for the same groups.")
        ari = adjusted_rand_index(a, b)
        tp, together_a, together_b = ari.pairs.tp, ari.pairs.tp + ari.pairs.fp, \
            ari.pairs.tp + ari.pairs.fn
        return [Mistake("ARI without Expected", float(tp / ((together_a + together_b) / 2)),
                        "That is Index / Max, the ARI without its expected term: subtract "
                        "Expected, the pairs a random labelling of these sizes shares, above "
                        "and below, (Index - Expected) / (Max - Expected)."),
                *(Mistake(f"ARI by the {name}",
                          float((tp - ari.expected) / (top - ari.expected)),
                          "Max is the mean of the two counts of pairs together, "
                          f"(sum_i C(n_i,2) + sum_j C(m_j,2)) / 2, not {what}.")
                  for name, top, what in (
                      ("larger count", max(together_a, together_b), "the larger of them"),
                      ("smaller count", min(together_a, together_b), "the smaller of them"),
                      ("geometric mean", np.sqrt(together_a * together_b),
                       "their geometric mean"))
                  if top != ari.expected),
                Mistake("by position", float(adjusted_rand_index(self.labels_a, self.labels_b)),
                        "You compared the labels position by position; the two subsamples hold "
                        "different instances: line them up by instance id."),
                Mistake("equal names", float(np.mean(a == b)),
                        "Cluster names are arbitrary in each run: count agreement up to renaming "
                        "(ARI), not equal labels."),
                Mistake("Rand", float(rand_index(a, b)), f"That is the Rand index; {other}"),
                Mistake("Jaccard", float(jaccard_index(a, b)),
                        f"That is the pair-counting Jaccard index; {other}"),
                Mistake("NMI", float(normalized_mutual_information(a, b)),
                        f"That is the NMI; {other}"),
                Mistake("NMI (arithmetic mean)",
                        float(normalized_mutual_information(a, b, average="arithmetic")),
                        "That is the NMI normalised by the arithmetic mean of the two "
                        f"entropies (scikit-learn's default); {other}"),
                Mistake("ARI with its sign flipped", -float(ari),
                        "That is minus the ARI: subtract Expected from the Index, not the "
                        "Index from Expected, (Index - Expected) / (Max - Expected): above 0 "
                        "for more agreement than chance."),
                Mistake("Fowlkes-Mallows", float(fowlkes_mallows_index(a, b)),
                        f"That is the Fowlkes-Mallows index; {other}"),
                Mistake("AMI", float(adjusted_mutual_information(a, b)),
                        "That is the AMI, adjusted for chance too but by information, not "
                        "pairs; the stability of Ben-Hur et al. compares the pairs: use the "
                        "ARI."),
                *(Mistake("purity", value, f"That is purity, which splitting a cluster "
                                           f"never lowers; {other}")
                  for value in sorted({round(float(purity(a, b)), 12),
                                       round(float(purity(b, a)), 12)}))]

    def acceptable(self):
        shared, a, b = self._shared()
        return (super().acceptable() and len(shared) >= 5 and len(set(a.tolist())) > 1
                and len(set(b.tolist())) > 1)

    def explain(self, d):
        shared, a, b = self._shared()
        d.table(["shared id", "label in A", "label in B"],
                [[int(i), int(x), int(y)] for i, x, y in zip(shared, a, b)])
        d.extend(adjusted_rand_index(a, b).derivation())


def jaccard_of_sets(a, b) -> float:
    """|a ∩ b| / |a ∪ b| of two sets of instance ids (0 for two empty sets)."""
    a, b = set(a), set(b)
    return len(a & b) / len(a | b) if a | b else 0.0


class PerClusterStability(NumbersQuestion):
    qid, title, dataset = "09.3", "the stability of each cluster", "per_cluster"
    parts = ("cluster 1", "cluster 2", "cluster 3")
    bounds = (0, 1)
    hints = ("Work cluster by cluster: a reference cluster C is only seen in a subsample "
             "through its instances the subsample holds, C ∩ S.",
             "Compare C ∩ S with every cluster D of the subsample's clustering by the Jaccard "
             "of the two sets, |C ∩ S ∩ D| / |(C ∩ S) ∪ D|, and keep the best: names do not "
             "matter.",
             "A cluster's stability is the mean of its best Jaccards over the subsamples "
             "(Hennig's clusterboot).")

    def describe(self, d):
        d.text("A clustering of 12 instances (ids 0 ... 11), the reference:")
        d.table(["instance id", *range(12)], [["cluster", *(int(v) for v in self.reference)]])
        d.text("The same procedure clustered two subsamples:")
        d.table(["subsample", "instance ids", "cluster labels"],
                [[r.upper(), " ".join(str(int(i)) for i in self.data[f"ids_{r}"]),
                  " ".join(str(int(v)) for v in self.data[f"labels_{r}"])] for r in "ab"])
        d.text("For each reference cluster, its stability as in Hennig's clusterboot: the mean, "
               "over the subsamples, of the best Jaccard between the cluster's instances in the "
               "subsample and a cluster of the subsample.")

    def _runs(self):
        """Per subsample: its ids as a set, and its clusters as sets of ids."""
        out = []
        for r in "ab":
            ids, labels = np.asarray(self.data[f"ids_{r}"]), np.asarray(self.data[f"labels_{r}"])
            out.append((set(ids.tolist()), {int(v): set(ids[labels == v].tolist())
                                            for v in np.unique(labels)}))
        return out

    def _members(self):
        ref = np.asarray(self.reference)
        return {c: set(np.flatnonzero(ref == c).tolist()) for c in range(1, 4)}

    def _per_run(self, score=jaccard_of_sets, restrict=True, best=max):
        """[cluster][run] -> the best score of the cluster (restricted to the run or not)."""
        return np.array([[best(score(members & seen if restrict else members, d)
                               for d in clusters.values())
                          for seen, clusters in self._runs()]
                         for members in self._members().values()])

    def compute_key(self):
        return self._per_run().mean(axis=1)

    def mistakes(self):
        runs = self._runs()

        def dice(a, b):
            return 2 * len(a & b) / (len(a) + len(b))

        same_name = np.array([[jaccard_of_sets(members & seen, clusters.get(c, set()))
                               for seen, clusters in runs]
                              for c, members in self._members().items()]).mean(axis=1)
        return [Mistake("whole cluster", self._per_run(restrict=False).mean(axis=1),
                        "Compare only the cluster's instances the subsample holds, C ∩ S: an "
                        "instance left out of the subsample could not be clustered there."),
                Mistake("same name", same_name,
                        "Cluster names are arbitrary in each run: compare the cluster with "
                        "every cluster of the subsample and keep the best Jaccard."),
                Mistake("Dice", self._per_run(dice).mean(axis=1),
                        "That is the Dice coefficient 2|A ∩ B| / (|A| + |B|); clusterboot's "
                        "Jaccard is |A ∩ B| / |A ∪ B|."),
                Mistake("share recovered",
                        self._per_run(lambda a, b: len(a & b) / len(a)).mean(axis=1),
                        "You divided by the cluster's size alone (how much of it is found): "
                        "the Jaccard divides by the union, so a cluster that swallows others "
                        "scores low too."),
                Mistake("precision",
                        self._per_run(lambda a, b: len(a & b) / len(b)).mean(axis=1),
                        "You divided by the subsample cluster's size alone: the Jaccard divides "
                        "by the union of the two sets."),
                Mistake("minimum", self._per_run().min(axis=1),
                        "That is the worst subsample; the stability of a cluster is the mean of "
                        "its best Jaccards over the subsamples."),
                Mistake("maximum", self._per_run().max(axis=1),
                        "That is the best subsample; the stability of a cluster is the mean of "
                        "its best Jaccards over the subsamples."),
                Mistake("reverse order", self._per_run().mean(axis=1)[::-1],
                        "Those are the clusters' stabilities in reverse order: give cluster 1 "
                        "first."),
                *(Mistake(f"{which} subsample only", self._per_run()[:, r],
                          f"Those are the best Jaccards in subsample {name} alone: the "
                          "stability of a cluster is the mean of its best Jaccards over all "
                          "the subsamples (here A and B).")
                  for r, (which, name) in enumerate([("first", "A"), ("second", "B")])),
                Mistake("pooled", self._pooled(),
                        "You added the intersections and the unions over the subsamples, then "
                        "divided once; take each subsample's best Jaccard first, then their "
                        "mean.")]

    def _pooled(self) -> np.ndarray:
        """sum |C ∩ S ∩ D| / sum |(C ∩ S) ∪ D| over the subsamples, D the best match each time."""
        out = []
        for members in self._members().values():
            num = den = 0
            for seen, clusters in self._runs():
                inside = members & seen
                best = max(clusters.values(), key=lambda d: jaccard_of_sets(inside, d))
                num, den = num + len(inside & best), den + len(inside | best)
            out.append(num / den)
        return np.array(out)

    def explain(self, d):
        per_run = self._per_run()
        for (c, members), js in zip(self._members().items(), per_run):
            parts = []
            for (seen, clusters), j, r in zip(self._runs(), js, "AB"):
                inside = sorted(members & seen)
                parts.append(f"in {r}: C ∩ S = {{{', '.join(map(str, inside))}}}, best "
                             f"Jaccard {fmt(j)}")
            d.text(f"Cluster {c} = {{{', '.join(map(str, sorted(members)))}}}: "
                   + "; ".join(parts) + f". Mean {fmt(js.mean())}: {stability_reading(js.mean())}.")
        d.text("Hennig's reading of the mean (Hennig 2007): 0.85 or more highly stable, 0.75 "
               "- 0.85 stable, 0.6 - 0.75 a pattern whose members are doubtful, below 0.6 not "
               "to be trusted (a cluster *dissolves* in one resample where its best Jaccard is "
               "0.5 or less). One unstable "
               "cluster can hide inside a good overall stability; `pe.stability(X, cluster)."
               "per_cluster` averages the same best Jaccards over many resamples.")


# ------------------------------------------------------------- choosing k
_DISAGREE = "the criteria disagree: no k is clearly supported"

#: The internal criteria of questions 09.4 and 09.5: name, function, whether higher is better.
CRITERIA = (("silhouette", silhouette, True), ("Calinski-Harabasz", calinski_harabasz, True),
            ("Davies-Bouldin", davies_bouldin, False))


def _cap(name: str) -> str:
    """A criterion's name at the start of a sentence."""
    return name[:1].upper() + name[1:]


#: The criteria of data already scored (content -> scores), so the two questions on one
#: variant, and each variant judged, score the clusterings once.
_SCORED: dict = {}


class _Criteria:
    """The criteria of the average-linkage cuts of ``X`` into k = 2 ... 6, each one's
    best k, and where they disagree (the data of notebook 09's case study)."""

    def _scores(self):
        """k -> the criteria of its clustering; computed once for these data (the key, each
        statement, option and mistake of both questions on them asks for them)."""
        X = np.asarray(self.X, dtype=float)
        cands = {k: np.asarray(lab) for k, lab in self.candidates.items()}
        key = (X.shape, X.tobytes(), tuple((k, lab.dtype.str, lab.tobytes())
                                           for k, lab in cands.items()))
        if key not in _SCORED:
            if len(_SCORED) >= 512:
                _SCORED.pop(next(iter(_SCORED)))
            _SCORED[key] = {k: [float(f(X, lab)) for _, f, _ in CRITERIA]
                            for k, lab in cands.items()}
        return _SCORED[key]

    def _best(self) -> list:
        """Each criterion's best k."""
        sc = self._scores()
        return [(max if higher else min)(sc, key=lambda k: sc[k][c])
                for c, (_, _, higher) in enumerate(CRITERIA)]

    def _worst(self) -> list:
        """Each criterion's best k read the wrong way round."""
        sc = self._scores()
        return [(min if higher else max)(sc, key=lambda k: sc[k][c])
                for c, (_, _, higher) in enumerate(CRITERIA)]

    def _split(self):
        """(the majority's k, its criteria, the odd criterion, its k), or None."""
        best = self._best()
        for k in set(best):
            names = [name for (name, _, _), b in zip(CRITERIA, best) if b == k]
            if len(names) == 2:
                (odd,) = [(name, b) for (name, _, _), b in zip(CRITERIA, best) if b != k]
                return k, names, *odd
        return None

    def _groups(self) -> np.ndarray:
        """The group each point was drawn in: the library's alone, never in the data a
        student reads (its count is 09.4's key; with ``q.candidates`` it decides 09.5)."""
        return np.asarray(_data.private(self.dataset, self.seed, self.data)["groups"])

    def _visible(self) -> int:
        return len(np.unique(self._groups()))

    def _merges_two_groups(self, k) -> bool:
        """Whether the k-cut is the groups with exactly two of them merged."""
        groups, cut = self._groups(), np.asarray(self.candidates[k])
        pure = all(len(np.unique(cut[groups == g])) == 1 for g in np.unique(groups))
        return pure and len(np.unique(cut)) == self._visible() - 1

    def _splits_one_group(self, k) -> bool:
        """Whether the k-cut is the groups with exactly one of them split in two."""
        groups, cut = self._groups(), np.asarray(self.candidates[k])
        pure = all(len(np.unique(groups[cut == c])) == 1 for c in np.unique(cut))
        return pure and len(np.unique(cut)) == self._visible() + 1

    def _ch_misled(self) -> bool:
        """Whether Calinski-Harabasz, the odd criterion, prefers a k other than the groups'
        (it splits a long group; the other two find the groups)."""
        return self._split()[3] != self._visible()

    def acceptable(self):
        """Only data on which one of the two case studies holds (:meth:`_clear`) are
        handed out."""
        return self._clear() and super().acceptable()

    def _each_best(self, d):
        """Each criterion's best k, said in ``d``; then :meth:`_split`."""
        for (name, _, higher), k in zip(CRITERIA, self._best()):
            d.text(f"{_cap(name)} is {'highest' if higher else 'lowest'} at k = {k}.")
        return self._split()

    def _clear(self) -> bool:
        """Each criterion has a clear best, two of them agree, Calinski-Harabasz is the odd
        one, the cut into the visible groups' number recovers them, and either

        * Calinski-Harabasz finds the groups and the majority merges two of them (the
          course's case: two close groups), or
        * the majority finds the groups and Calinski-Harabasz splits one of them in two
          (a long group: CH misled);

        Davies-Bouldin's worst k is neither, and Calinski-Harabasz falls after its best."""
        sc = self._scores()
        for c in range(len(CRITERIA)):
            values = sorted(v[c] for v in sc.values())
            gap = values[-1] - values[-2] if CRITERIA[c][2] else values[1] - values[0]
            if gap < 0.01 * max(1.0, abs(values[-1])):
                return False
        split = self._split()
        if split is None:
            return False
        k_maj, _, odd, k_odd = split
        vis = self._visible()
        if (odd != "Calinski-Harabasz" or vis not in self.candidates
                or float(adjusted_rand_index(self._groups(), self.candidates[vis])) != 1.0
                or k_odd >= max(self.candidates) or self._worst()[2] in (k_maj, k_odd)):
            return False
        if k_odd == vis:
            return self._merges_two_groups(k_maj)
        return k_maj == vis and self._splits_one_group(k_odd)

    def _table(self, d):
        d.table(["k", *(name for name, _, _ in CRITERIA)],
                [[k, *values] for k, values in self._scores().items()])


class WhichK(_Criteria, DefensibleChoice):
    qid, title, dataset = "09.4", "which k do these criteria support?", "criteria_k"
    hints = ("Silhouette and Calinski-Harabasz: higher is better. Davies-Bouldin: lower is "
             "better.",
             "Find each criterion's best k, and look at the points (`q.X`): how many groups do "
             "you see, and does the cut into that many recover them? Colour the points by "
             "each preferred cut: does it merge two groups you see, or split one?",
             "Where they disagree, no single number settles it, but the plot can: choose a k "
             "some criterion supports and say why (the groups you see, or the majority), "
             "never a k none of them prefers.")

    def describe(self, d):
        d.text(f"{len(self.X)} points in the plane (`q.X`) and average-linkage clusterings "
               "into k = 2 ... 6 (`q.candidates[k]`). Three internal criteria of each:")
        self._table(d)
        d.text("Which k do these criteria support? Plot the points too.")
        self.describe_options(d)

    def statements(self):
        vis = self._visible()
        return ([(f"k = {k}", k == vis, self._why_not(k)) for k in self.candidates]
                + [(_DISAGREE, False, self._why_not_disagree())])

    def _why_not_disagree(self) -> str:
        """Why "the criteria disagree" is not the answer once the points are plotted."""
        k_maj, names, odd, k_odd = self._split()
        return (f"The criteria do disagree ({odd} against {names[0]} and {names[1]}), but "
                "the prompt asks you to plot the points too: count the groups you see, and "
                "colour the points by each preferred cut (does it recover them?). A "
                "disagreement is where the plot decides, not where the question ends.")

    def _why_not(self, k) -> str:
        """Why k is not a defensible answer ('' for a k accepted)."""
        best, worst = self._best(), self._worst()
        k_maj, names, odd, k_odd = self._split()
        vis = self._visible()
        if k == vis or (k == k_maj and not self._ch_misled()):
            return ""
        if k == k_odd:                      # Calinski-Harabasz misled: it splits a group
            return (f"{_cap(odd)} is highest at k = {k}, but colour the points by its "
                    f"{k}-cluster cut: it splits a group you see in the plot (the long one) "
                    "in two. It weighs the spread within the clusters against the spread "
                    "between them, and cutting a long group in two lowers the spread within "
                    "a lot.")
        said = ", ".join(f"{name} at k = {b}" for (name, _, _), b in zip(CRITERIA, best))
        wrong_way = [(name, higher) for (name, _, higher), w in zip(CRITERIA, worst) if w == k]
        if wrong_way:                       # Davies-Bouldin's direction first: the usual slip
            name, higher = sorted(wrong_way, key=lambda nh: nh[1])[0]
            return (f"{_cap(name)} is {'lowest' if higher else 'highest'} at k = {k}, and for {name} "
                    f"{'higher' if higher else 'lower'} is better: k = {k} is its worst, not "
                    f"its best (their best: {said}).")
        return (f"No criterion prefers k = {k} (their best: {said}); choose a k that some "
                "criterion supports, and say why.")

    def defensible(self):
        letter = {text: letter for letter, text, _, _ in self.options()}
        k_maj, names, odd, k_odd = self._split()
        vis = self._visible()
        if self._ch_misled():
            return {letter[f"k = {vis}"]:
                    f"k = {vis} follows the structure you can see: {vis} groups in the plot, "
                    f"recovered exactly by the {vis}-cluster cut, and {names[0]} and "
                    f"{names[1]} prefer it; {odd}'s k = {k_odd} splits one of them."}
        return {letter[f"k = {k_odd}"]:
                f"k = {k_odd} follows the structure you can see: {k_odd} groups in the plot, "
                f"recovered exactly by the {k_odd}-cluster cut, and {odd} prefers it.",
                letter[f"k = {k_maj}"]:
                f"k = {k_maj} follows the majority: {names[0]} and {names[1]} prefer it. It "
                "merges two close groups into one cluster; defensible if they may be one "
                "group, but look at the plot before you trust a vote."}

    def explain_choice(self, d):
        k_maj, names, odd, k_odd = self._each_best(d)
        if self._ch_misled():
            d.text(f"They disagree: {names[0]} and {names[1]} prefer k = {k_maj}, the "
                   f"{k_maj} groups of the plot; {odd} prefers k = {k_odd}, a cut that splits "
                   "the long group in two. Calinski-Harabasz of the two cuts:")
            for k in (k_maj, k_odd):
                d.extend(calinski_harabasz(self.X, self.candidates[k]).derivation())
            return
        d.text(f"They disagree: {names[0]} and {names[1]} prefer k = {k_maj}, {odd} k = "
               f"{k_odd}, the {k_odd} groups of the plot.")
        d.extend(calinski_harabasz(self.X, self.candidates[k_odd]).derivation())


class WhyTheyDisagree(_Criteria, ChoiceQuestion):
    qid, title, dataset = "09.5", "which criterion disagrees, and why?", "criteria_k"
    hints = ("Find each criterion's best k (Davies-Bouldin: lower is better) and the one that "
             "stands alone.",
             "Colour the points by each preferred cut and compare it with the groups of the "
             "plot: does the cut merge two groups you see, or split one?",
             "The silhouette compares a point's own cluster with the nearest other cluster; "
             "Davies-Bouldin each cluster with its most similar one. Calinski-Harabasz weighs "
             "the spread between all clusters against the spread within them.")

    def describe(self, d):
        d.text(f"The same {len(self.X)} points (`q.X`) and average-linkage cuts as in 09.4:")
        self._table(d)
        d.text("Which statements are true? Plot the points too.")
        self.describe_options(d)

    def statements(self):
        k_maj, names, odd, k_odd = self._split()
        db_worst = self._worst()[2]
        sc = self._scores()
        misled = self._ch_misled()
        merges, splits = self._merges_two_groups(k_maj), self._splits_one_group(k_odd)
        cut_maj, cut_odd = f"q.candidates[{k_maj}]", f"q.candidates[{k_odd}]"
        return [
            (f"{_cap(odd)} is the criterion that disagrees: it prefers k = {k_odd}, the other two "
             f"k = {k_maj}.", True,
             f"Find each criterion's best k: {names[0]} and {names[1]} agree on k = {k_maj}."),
            (f"{_cap(names[0])} is the criterion that disagrees with the other two.", False,
             f"{_cap(names[0])} agrees with {names[1]}: both are best at k = {k_maj}."),
            (f"Davies-Bouldin prefers k = {db_worst}.", False,
             f"Davies-Bouldin is highest at k = {db_worst}, and for it lower is better (the "
             "mean over clusters of the worst ratio of spread to separation): that k is its "
             "worst."),
            (f"The {k_maj}-cluster cut, the one {names[0]} and {names[1]} prefer, merges two of "
             "the groups you see in the plot into one cluster.", merges,
             f"Colour the points by {cut_maj}: "
             + ("the two closest groups share a cluster." if merges else
                "it recovers the groups of the plot exactly, none merged.")),
            (f"The {k_odd}-cluster cut, the one {odd} prefers, splits one of the groups you see "
             "in the plot into two clusters.", splits,
             f"Colour the points by {cut_odd}: "
             + ("the long group is cut in two." if splits else
                "it recovers the groups of the plot exactly, none split.")),
            (self._reason() if misled else
             "The majority merges because two close groups make a pair of clusters that is "
             "hard to tell apart: a criterion that scores each cluster against its nearest or "
             "most similar other cluster improves when they become one.", True,
             "Calinski-Harabasz weighs the spread within the clusters against the spread "
             "between them: halving a long group lowers the spread within a lot." if misled
             else "The silhouette's b(x) is the distance to the nearest other cluster, "
             "Davies-Bouldin takes each cluster's most similar one: both are ruled by the "
             "closest pair."),
            ("Whichever k two of the three criteria prefer is the right number of clusters, "
             "whatever the plot shows.", False,
             "A vote of criteria proves nothing: each has its own idea of a good cluster, and "
             "a majority can merge groups you can see (or a lone criterion split one); the "
             "plot decides."),
            (f"Calinski-Harabasz prefers k = {k_odd} only because it always grows with k.",
             False,
             f"Read its column: it is {fmt(sc[k_odd][1])} at k = {k_odd} and lower at every "
             "larger k; it is not monotone here."),
        ]

    @staticmethod
    def _reason() -> str:
        return ("Calinski-Harabasz splits the long group because it weighs the spread within "
                "the clusters against the spread between them: cutting a long group in two "
                "lowers the spread within by more than the extra cluster costs.")

    def explain_choice(self, d):
        k_maj, names, odd, k_odd = self._each_best(d)
        if self._ch_misled():
            d.text(f"{_cap(odd)} stands alone at k = {k_odd}, a cut that splits the long group "
                   f"in two; the {k_maj}-cluster cut the other two prefer recovers the groups "
                   "of the plot.")
            return
        d.text(f"{_cap(odd)} stands alone at k = {k_odd}; the {k_maj}-cluster cut merges two close "
               "groups, which helps the criteria ruled by the closest pair of clusters.")
