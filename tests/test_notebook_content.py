"""What the lecture notebooks teach: the corrections a lecturer asked for are there.

Each test reads the saved notebooks (with their outputs) and checks a statement against
numbers the library computes here, in the test: a counterexample the notebook must show,
an inconsistency of a seed it must name, a claim it must no longer make.
"""
import itertools
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prayatul_edu as pe
from prayatul_edu import tutorial
from prayatul_edu.paper import TABLE_I, load_labels

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _nb(name):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def _markdown(name):
    return "\n".join(c.source for c in _nb(name).cells if c.cell_type == "markdown")


def _outputs(cell):
    parts = []
    for out in cell.get("outputs", []):
        parts.append(out.get("text", ""))
        for kind in ("text/plain", "text/markdown"):
            value = out.get("data", {}).get(kind, "")
            parts.append("".join(value) if isinstance(value, list) else value)
    return "\n".join(parts)


def _all_outputs(name):
    return "\n".join(_outputs(c) for c in _nb(name).cells if c.cell_type == "code")


# ------------------------------------------------------------------------- 06
def test_06_teaches_that_theorem_3_is_false_with_the_counterexample():
    md, out = _markdown("06_prayatul.ipynb"), _all_outputs("06_prayatul.ipynb")
    assert "Data invariance is true in this sense" not in md
    assert re.search(r"\*\*Theorem 3 \(data invariance\)\*\*[^\n]*\n?[^\n]*\*\*false\*\*", md)
    # N = 100 in two classes; the primary puts everything together, the alternative is the truth
    for sizes in ((50, 50), (95, 5)):
        g = np.repeat([0, 1], sizes)
        one = np.zeros(len(g), dtype=int)
        m = pe.prayatul_matrix(g, one, g)
        assert float(pe.adjusted_rand_index(g, one)) == 0.0
        shown = (f"classes {sizes[0]}/{sizes[1]}: BR = {m.br}, RW = {m.rw}, WR = {m.wr}, "
                 f"BW = {m.bw}; xi_c = {m.comparative_rightness:.3f}, "
                 f"alpha = {m.polarization:.3f}, phi_e = {m.effective_superiority:.3f}; "
                 f"ARI of the primary = 0.000")
        assert shown in out
        # the prose states the same numbers
        assert f"{m.polarization:.3f}" in md and f"{m.effective_superiority:.3f}" in md
    assert "0.495" in md and "-0.010" in md and "0.904" in md and "0.808" in md


def test_06_teaches_that_the_five_measures_are_about_three_numbers():
    md, out = _markdown("06_prayatul.ipynb"), _all_outputs("06_prayatul.ipynb")
    assert r"= 2\,\xi_c - 1" in md
    assert r"\frac{WR - BW}{T}" in md
    assert "Rand index of the primary" in md
    # the identities hold on all 36 rows of Table I, computed here from the shipped labels
    rows = sorted({key[:3] for key in TABLE_I})
    assert len(rows) == 36
    labels, perfect = load_labels(), 0
    for data, p, q in rows:
        lab = labels[data]
        m = pe.prayatul_matrix(lab["truth"], lab[p], lab[q])
        assert m.effective_rightness == pytest.approx(2 * m.comparative_rightness - 1, abs=1e-12)
        assert m.polarization - m.effective_superiority == pytest.approx(
            (m.wr - m.bw) / m.n_pairs, abs=1e-12)
        if float(pe.adjusted_rand_index(lab["truth"], lab[q])) == 1:
            perfect += 1
            rand = float(pe.rand_index(lab["truth"], lab[p]))
            assert m.polarization == pytest.approx(rand, abs=1e-12)
    gap = max(abs(float(TABLE_I[r + ("effective_rightness",)])
                  - (2 * float(TABLE_I[r + ("comparative_rightness",)]) - 1)) for r in rows)
    assert f"largest |xi_e - (2 xi_c - 1)| in the printed values = {gap:.4f}" in out
    assert ("xi_e = 2 xi_c - 1 and alpha - phi_e = (WR - BW)/T to 1e-12: True" in out)
    assert f"{perfect} rows with a perfect alternative: alpha = xi_c = Rand(primary) to 1e-12: True" \
        in out


# ------------------------------------------------------------------------- 07
def test_07_reads_polarization_as_pairs_against_a_random_split():
    md, out = _markdown("07_paper.ipynb"), _all_outputs("07_paper.ipynb")
    assert "α counts pairs, not instances" in md
    circles = load_labels()["noisy_circles"]
    g, dbscan = circles["truth"], circles["DBSCAN"]
    rng = np.random.default_rng(0)
    alphas, aris = [], []
    for _ in range(20):
        split = rng.integers(0, 2, len(g))
        alphas.append(pe.prayatul_matrix(g, split, dbscan).polarization)
        aris.append(float(pe.adjusted_rand_index(g, split)))
    assert abs(np.mean(alphas) - 0.5) < 0.002 and abs(np.mean(aris)) < 0.002
    assert (f"random 2-way splits vs DBSCAN: alpha = {np.mean(alphas):.3f} on average "
            f"(from {min(alphas):.3f} to {max(alphas):.3f}), ARI = {np.mean(aris):+.4f}") in out
    # BIRCH's "almost 50%" is its Rand index, against a perfect alternative
    birch = pe.prayatul_matrix(g, circles["BIRCH"], dbscan)
    assert f"alpha = {birch.polarization:.4f} = Rand {float(pe.rand_index(g, circles['BIRCH'])):.4f}" \
        in out
    assert "chance" in md and "notebook 03" in md and "08_trusting_a_score" in md


def test_07_forensics_are_an_optional_appendix():
    main, appendix = _markdown("07_paper.ipynb"), _markdown("07a_appendix_reproducing.ipynb")
    assert "## 1. What the paper ran" not in main and "## 1. What the paper ran" in appendix
    assert "Running it again" in appendix and "Running it again, now" not in main
    assert "07a_appendix_reproducing.ipynb" in main
    assert "Appendix (optional)" in _nb("07a_appendix_reproducing.ipynb").cells[0].source


# ------------------------------------------------------------------------- 05
def _ultrametric(P):
    P = np.asarray(P)
    return bool((P[:, None, :] <= np.maximum(P[:, :, None], P[None, :, :]) + 1e-12).all())


def test_05_restricts_no_later_so_no_higher_to_trees_without_inversions():
    nb = _nb("05_hierarchy.ipynb")
    md, out = _markdown("05_hierarchy.ipynb"), _all_outputs("05_hierarchy.ipynb")
    question = next(c.source for c in nb.cells if c.source.startswith("## Quick questions"))
    answer = question[question.index("**1.**"):question.index("**2.**")]
    assert "no inversions" in answer and "centroid or median" in answer
    assert "need not be an ultrametric" in answer
    X3 = np.array([[0, 0], [2, 0], [1, 1.8], [6, 5], [6.5, 5]])
    for name in ("centroid", "median", "average"):
        tree = pe.agglomerative(X3, linkage=name, metric="euclidean")
        ultra = _ultrametric(pe.cophenetic_matrix(tree))
        assert ultra == (not tree.inversions())
        assert f"{name:>8}: cophenetic matrix an ultrametric? {ultra}" in out
    assert "fails" in md


def test_05_keeps_evaluation_and_moves_the_mechanics_to_an_appendix():
    main = _nb("05_hierarchy.ipynb")
    sources = "\n".join(c.source for c in main.cells)
    for mechanics in ("LINKAGES", "def cell(text)", "def sse(", "## Seven linkages",
                      "Lance and\nWilliams"):
        assert mechanics not in sources
    for evaluation in ("pe.cophenetic_matrix(tree)", "pe.cophenetic_correlation(D, tree)",
                       "## Inversions", "plot_dendrogram"):
        assert evaluation in sources
    appendix = _nb("05a_appendix_linkages.ipynb")
    text = "\n".join(c.source for c in appendix.cells)
    assert "Appendix (optional)" in appendix.cells[0].source
    assert "## Seven linkages" in text and "def sse(" in text and "LINKAGES" in text
    # every linkage's row of the Lance-Williams table is shown there
    table = _all_outputs("05a_appendix_linkages.ipynb")
    from prayatul_edu.hierarchy import LINKAGES
    for name in LINKAGES:
        assert f"| {name} |" in table


# ------------------------------------------------------------------------- 01
def test_01_names_the_seeds_inconsistent_table_and_the_assumption():
    md, out = _markdown("01_matching.ipynb"), _all_outputs("01_matching.ipynb")
    assert "writes only $C_1$'s row" not in md
    assert "100 + 100 + 50 = 250" in md and "Our assumption:" in md
    completed = np.array([[50, 10, 2, 100, 0], [0, 0, 0, 1000, 0], [0, 0, 0, 50, 0]])
    printed = completed.copy()
    printed[1, 3] = 100
    for table, m4 in ((completed, 1150), (printed, 250)):
        f = pe.f_measure(*pe.labels_from_table(table))
        assert table[:, 3].sum() == m4
        assert f.recall[0] == pytest.approx(100 / m4)
    f_printed = pe.f_measure(*pe.labels_from_table(printed))
    assert f"with the printed 100: m_4 = 250, Recall(C1) = {f_printed.recall[0]:.4f}" in out


def test_01_says_recall_divides_by_the_class_size():
    md = _markdown("01_matching.ipynb")
    note = md[md.index("The notes write the recall's denominator"):][:300]
    assert "$n_{j^*}$" in note and "$m_{j^*}$" in note


def test_01_shows_f_score_mapping_disagreeing_with_maximum_matching():
    md, out = _markdown("01_matching.ipynb"), _all_outputs("01_matching.ipynb")
    assert "do not print\n> its formula" in md
    truth, pred = ["T1", "T2", "T2", "T2", "T2"], ["C1", "C1", "C1", "C1", "C2"]
    counts = np.asarray(pe.contingency_table(truth, pred))
    _, _, F = pe.precision_recall_f(truth, pred)
    F = np.asarray(F)
    perms = list(itertools.permutations(range(2)))
    by_f = max(perms, key=lambda q: sum(F[i, q[i]] for i in range(2)))
    by_n = max(perms, key=lambda q: sum(counts[i, q[i]] for i in range(2)))
    wrong_f = 5 - sum(counts[i, by_f[i]] for i in range(2))
    wrong_n = 5 - sum(counts[i, by_n[i]] for i in range(2))
    assert wrong_f > wrong_n
    assert float(pe.clustering_error(truth, pred)) == pytest.approx(wrong_n / 5)
    assert f"error {wrong_f / 5:.1f}" in out and f"error {wrong_n / 5:.1f}" in out
    assert f"clustering_error: {wrong_n / 5:.1f}" in out


# ------------------------------------------------------------------------- 02
def test_no_notebook_leaves_the_lectures_mi_range_uncorrected():
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in _nb(path.name).cells:
            if "[0, \\infty]" in cell.source or "[0, ∞]" in cell.source:
                assert "\\min(H(C), H(T))" in cell.source, path.name
    assert "0 \\le I(C, T) \\le \\min(H(C), H(T))" in _markdown("02_information.ipynb")


def test_02_shows_one_nmi_per_random_clustering():
    cells = [c for c in _nb("02_information.ipynb").cells if c.cell_type == "code"]
    nmi_only = next(_outputs(c) for c in cells if "random clusters: NMI" in _outputs(c)
                    and "AMI" not in _outputs(c))
    with_ami = next(_outputs(c) for c in cells if "random clusters: NMI" in _outputs(c)
                    and "AMI = " in _outputs(c))
    first = dict(re.findall(r"(\d+) random clusters: NMI = ([0-9.]+)\n", nmi_only))
    second = dict(re.findall(r"(\d+) random clusters: NMI = ([0-9.]+),", with_ami))
    assert first and first == second


def test_02_ami_and_v_derivations_print_bits():
    classes, clusters = tutorial.EXERCISE_2_CLASSES, tutorial.EXERCISE_2_CLUSTERS
    out = _all_outputs("02_information.ipynb")
    h_c = pe.steps.fmt(float(pe.entropy(clusters)))             # 1.5219 bits
    ami = out.split("**AMI (arithmetic)")[1].split("AMI is 1 for identical")[0]
    v = out.split("**V-measure (beta = 1)")[1].split("Homogeneity: each cluster")[0]
    for derivation in (ami, v):
        assert "(nats)" not in derivation and "(bits)" in derivation
        assert f"H(\\mathcal{{C}}) = {h_c}," in derivation
    emi = pe.adjusted_mutual_information(classes, clusters).emi
    assert f"E[I] = {pe.steps.fmt(emi)}" in ami
    assert "\\ln" not in _markdown("02_information.ipynb").split("## Adjusted mutual information")[1]


# ------------------------------------------------------------------- 00, 03, 04
def test_00_serves_the_apps_and_maps_the_whole_course():
    md = _markdown("00_start_here.ipynb")
    assert "voila notebooks/06_prayatul.ipynb" not in md
    for command in re.findall(r"`voila ([^`]+)`", md):
        assert (ROOT / command).exists(), command
    assert "voila notebooks/apps/prayatul.ipynb" in md
    for path in NOTEBOOKS.glob("*.ipynb"):
        if not path.name.startswith("00_"):
            assert f"]({path.name})" in md, f"00's map does not link {path.name}"
    assert "](08_trusting_a_score.ipynb)" in md and "](09_choosing_k.ipynb)" in md
    # the map names 08's parts and the kinds of validation 08 and 09 teach (issue 45)
    row08 = next(line for line in md.splitlines() if line.startswith("| [08]"))
    for part in ("three kinds of validation", "permutation test", "Prayatul", "chance app"):
        assert part in row08, part
    flat = " ".join(md.split())
    assert "internal ones (04, 05, 09)" in flat and "(01-03, 06, 08)" in flat
    assert "short enough for one lecture" not in md


def test_03_calls_the_normalized_statistic_gamma_n():
    md = _markdown("03_pair_counting.ipynb")
    assert "**normalized** Hubert statistic $\\Gamma_n$" in md
    assert "\\frac{TP}{M}" in md
    text = pe.hubert_statistic([0, 0, 1, 1, 2], [0, 0, 1, 2, 2]).explain()
    assert "Gamma_n =" in text and "Gamma =" not in text.replace("raw Hubert statistic is Gamma =", "")


def test_04_teaches_beta_cv_on_the_apps_sums():
    from prayatul_edu.widgets.silhouette_explorer import SilhouetteModel

    md, out = _markdown("04_silhouette_graph.ipynb"), _all_outputs("04_silhouette_graph.ipynb")
    assert "\\text{BetaCV} = \\frac{W_{in} / N_{in}}{W_{out} / N_{out}}" in md
    model = SilhouetteModel()
    X = model.X
    b = pe.beta_cv(np.linalg.norm(X[:, None] - X[None], axis=-1), model.labels)
    assert round(b.w_in) == 14080 and round(b.w_out) == 66202
    assert f"W_in = {b.w_in:.0f} over N_in = {b.n_in} pairs" in out
    assert f"BetaCV = {b.mean_in:.4f} / {b.mean_out:.4f} = {float(b):.4f}" in out
    assert f"BetaCV = {float(b):.2f}" in md


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_every_notebook_says_what_to_take_away(path):
    first = _nb(path.name).cells[0].source
    assert "**Learning goals" in first or "**What to take away" in first
