"""An instructor's own exercise: clusters of iris flowers cut by petal length.

The questions of ``solutions.ipynb``, declared with the package's public authoring API
(``prayatul_edu.exercises.authoring``). Each student gets their own 30 flowers and
their own two cuts; the exercise's own data (``STUDENT_ID = None``) are one fixed
draw of them (``OWN_SEED``). The flowers are Fisher's iris data
as scikit-learn ships them (``sklearn.datasets.load_iris``, no download).
"""
import functools

import numpy as np

import prayatul_edu as pe
import prayatul_edu.exercises.authoring as pa

exercise = pa.Exercise("51_iris", title="Iris flowers cut by petal length")

SPECIES = ("setosa", "versicolor", "virginica")
#: The draw of the exercise's own data (one where every named mistake is told apart).
OWN_SEED = 17


@functools.cache
def _iris():
    from sklearn.datasets import load_iris

    return load_iris()


@exercise.dataset
def flowers(rng):
    """30 flowers (their number in the data set, petal length, species 1-3) and the
    clustering of two cuts of petal length (clusters 1-3)."""
    iris = _iris()
    if rng is None:     # the exercise's own data: a fixed draw
        rng = np.random.default_rng(OWN_SEED)
    index = np.sort(rng.choice(150, 30, replace=False))
    cuts = (round(float(rng.uniform(2.0, 3.0)), 1), round(float(rng.uniform(4.4, 5.3)), 1))
    petal = iris.data[index, 2]
    return {"flower": index + 1, "petal": petal, "species": iris.target[index] + 1,
            "cuts": cuts, "clusters": 1 + (petal > cuts[0]) + (petal > cuts[1])}


def show(d):
    """The prompt's data: the two cuts and a table of the 30 flowers."""
    return [f"Petal length cut at {d['cuts'][0]} cm and {d['cuts'][1]} cm makes three "
            "clusters (1: short, 2: middle, 3: long petals). Your 30 flowers:",
            (["flower", "petal length (cm)", "species", "cluster"],
             [[str(f), f"{p:.1f}", SPECIES[s - 1], str(c)] for f, p, s, c in
              zip(d["flower"], d["petal"], d["species"], d["clusters"])])]


def table(d):
    """The contingency table: rows clusters 1-3, columns species 1-3."""
    return np.array([[np.sum((d["clusters"] == i) & (d["species"] == j)) for j in (1, 2, 3)]
                     for i in (1, 2, 3)], dtype=float)


exercise.table(
    "the contingency table of clusters and species", data=flowers,
    prompt=lambda d: show(d) + ["Give the contingency table: one row per cluster (1, 2, 3), "
                                "one column per species (setosa, versicolor, virginica)."],
    key=table,
    mistakes=[pa.mistake("transposed", lambda d: table(d).T,
                         "Your rows are the species and your columns the clusters: the "
                         "course puts the clusters in the rows.")],
    hints=["Count, for each cluster and each species, the flowers that are in both.",
           "The 9 counts add up to 30."],
    explain=lambda d: ["Count the flowers of each (cluster, species) pair:",
                       (["cluster", *SPECIES], [[str(i + 1), *[f"{v:g}" for v in row]]
                                                for i, row in enumerate(table(d))])])

exercise.number(
    "the purity of the clustering", data=flowers, points=2, asked="purity",
    prompt=lambda d: show(d) + ["What is the purity of the clustering (the species are the "
                                "classes)?"],
    key=lambda d: float(pe.purity(d["species"], d["clusters"])),
    mistakes=[pa.mistake("inverse purity",
                         lambda d: float(pe.purity(d["clusters"], d["species"])),
                         "You took the largest cluster of each species: that is the inverse "
                         "purity. Purity takes the largest species of each cluster."),
              pa.mistake("share of the largest species",
                         lambda d: float(np.bincount(d["species"]).max() / len(d["species"])),
                         "That is the share of the most common species overall; purity adds "
                         "up the majority species of each cluster.")],
    hints=["In each cluster (a row of the contingency table), find the largest count.",
           "Add the three largest counts and divide by the number of flowers."],
    explain=lambda d: [f"Row maxima {', '.join(f'{v:g}' for v in table(d).max(axis=1))} add "
                       f"up to {table(d).max(axis=1).sum():g}; divided by 30."])

exercise.numbers(
    "ARI and NMI", data=flowers, parts=("ARI", "NMI"),
    prompt=lambda d: show(d) + ["Give the adjusted Rand index and the normalized mutual "
                                "information (geometric mean) of clusters against species."],
    key=lambda d: [float(pe.adjusted_rand_index(d["species"], d["clusters"])),
                   float(pe.normalized_mutual_information(d["species"], d["clusters"]))],
    mistakes=[pa.mistake("Rand index, not adjusted",
                         lambda d: [float(pe.rand_index(d["species"], d["clusters"])),
                                    float(pe.normalized_mutual_information(
                                        d["species"], d["clusters"]))],
                         "That is the Rand index: the ARI subtracts its expected value under "
                         "chance and rescales."),
              pa.mistake("arithmetic mean in NMI",
                         lambda d: [float(pe.adjusted_rand_index(d["species"], d["clusters"])),
                                    float(pe.normalized_mutual_information(
                                        d["species"], d["clusters"], average="arithmetic"))],
                         "Your NMI divides by the arithmetic mean of the entropies; the course "
                         "uses the geometric mean sqrt(H(C) H(T)).")],
    hints=["pe.adjusted_rand_index and pe.normalized_mutual_information take the species, "
           "then the clusters."])

exercise.integer(
    "flowers outside their cluster's majority species", data=flowers,
    prompt=lambda d: show(d) + ["How many flowers are not of the majority species of their "
                                "cluster?"],
    key=lambda d: int(len(d["species"]) - table(d).max(axis=1).sum()),
    mistakes=[pa.mistake("counted the well-placed ones",
                         lambda d: int(table(d).max(axis=1).sum()),
                         "You counted the flowers that ARE of their cluster's majority "
                         "species."),
              pa.mistake("majority cluster of each species",
                         lambda d: int(len(d["species"]) - table(d).max(axis=0).sum()),
                         "You took the majority cluster of each species (the columns); the "
                         "question asks about the majority species of each cluster (the "
                         "rows).")],
    hints=["It is 30 minus the sum of the row maxima of the contingency table."])


def statements(d):
    pur = float(pe.purity(d["species"], d["clusters"]))
    one = all(np.count_nonzero(row) <= 1 for row in table(d))
    return [("The purity of this clustering is above 0.9.", pur > 0.9,
             f"The purity is {pur:.4f}.", "purity above 0.9"),
            ("Every cluster holds flowers of one species only.", one,
             "Look for a row of the contingency table with two counts above 0.",
             "pure clusters"),
            ("The ARI corrects the Rand index for agreement by chance.", True,
             "ARI = (RI - E[RI]) / (max RI - E[RI]).", "ARI corrects for chance"),
            ("Putting every flower in its own cluster gives purity 1.", True,
             "A cluster of one flower is pure: purity rewards over-splitting.",
             "over-splitting"),
            ("An NMI of 0 means a perfect clustering.", False,
             "NMI is 1 for a perfect clustering and 0 when clusters say nothing of species.",
             "NMI scale")]


exercise.choice(
    "true statements about the clustering", data=flowers, statements=statements,
    prompt=lambda d: show(d) + ["Which statements are true?"],
    hints=["Compute the purity first, then look at the rows of the contingency table."])
