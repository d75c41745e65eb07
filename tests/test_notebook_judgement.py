"""The two judgement lectures (08 trusting a score, 09 choosing k) say what they compute.

Each test reads a saved notebook, parses the numbers it printed and recomputes them here
(with the library, scikit-learn or a direct computation), then checks that the prose
draws the conclusion those numbers support: the corrections a lecturer asked for.
"""
import itertools
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prayatul_edu as pe

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LECTURES = ("08_trusting_a_score.ipynb", "09_choosing_k.ipynb")


def _nb(name):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def _markdown(name):
    return "\n".join(c.source for c in _nb(name).cells if c.cell_type == "markdown")


def _text(cell):
    parts = []
    for out in cell.get("outputs", []):
        parts.append(out.get("text", ""))
        value = out.get("data", {}).get("text/plain", "")
        parts.append("".join(value) if isinstance(value, list) else value)
    return "\n".join(parts)


def _output(name, marker):
    """The printed output of the one code cell whose output contains ``marker``."""
    found = [_text(c) for c in _nb(name).cells if c.cell_type == "code" and marker in _text(c)]
    assert len(found) == 1, f"{name}: {len(found)} cells print {marker!r}"
    return found[0]


def _numbers(text):
    return [float(v) for v in re.findall(r"[-+]?\d+\.\d+|[-+]?\d+", text)]


def _sentences(md):
    return [s for s in re.split(r"(?<=[.!?])\s+|\n\s*\n|\n\s*[*\d]+[.)]?\s", md) if s.strip()]


# ------------------------------------------------------------------- both lectures
@pytest.mark.parametrize("name", LECTURES)
def test_each_lecture_is_at_most_1700_words_of_markdown(name):
    words = len(_markdown(name).split())
    assert 600 < words <= 1700, words


@pytest.mark.parametrize("name", LECTURES)
def test_each_lecture_shows_a_figure_and_ends_with_questions_and_its_exercise(name):
    nb = _nb(name)
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if "image/png" in o.get("data", {})]
    assert images, f"{name} saves no figure"
    assert nb.cells[0].source.startswith(f"# {name[:2]} · ")
    last = nb.cells[-1].source
    assert "<details><summary>Answer</summary>" in _markdown(name)
    assert f"`exercises/{name}`" in last
    headings = re.findall(r"^## (\d+) · ", _markdown(name), flags=re.M)
    assert headings == [str(i) for i in range(1, len(headings) + 1)] and len(headings) >= 5


def test_the_old_lecture_is_gone_and_no_notebook_points_to_it():
    assert not (NOTEBOOKS / "08_choosing_and_trusting.ipynb").exists()
    for path in NOTEBOOKS.glob("*.ipynb"):
        assert "08_choosing_and_trusting" not in path.read_text(encoding="utf-8"), path.name


# ------------------------------------------------------------------- 08
def test_08_shows_the_f_measure_is_not_one_to_one():
    md = _markdown("08_trusting_a_score.ipynb")
    for sentence in _sentences(md):
        if "one-to-one" in sentence and re.search(r"F-measure|\bF\b", sentence):
            assert re.search(r"\bnot\b|many-to-one", sentence), sentence
    assert "Only maximum matching and the clustering error" in md
    out = _output("08_trusting_a_score.ipynb", "majority class of each cluster")
    # Recomputed directly: 6 x T1 + 2 x T2; clusters {0, 1, 2} and {3, ..., 7}
    truth = np.array([0] * 6 + [1] * 2)
    pred = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    n = np.array([[np.sum((pred == i) & (truth == j)) for j in range(2)] for i in range(2)])
    majority = n.argmax(axis=1)
    assert majority.tolist() == [0, 0]                   # both clusters take class T1
    f = np.mean([2 * n[i, majority[i]] / (n[i].sum() + n[:, majority[i]].sum())
                 for i in range(2)])
    mm = max(sum(n[i, q[i]] for i in range(2)) for q in itertools.permutations(range(2))) / 8
    assert round(f, 4) == 0.6061 and mm == 0.625
    assert "majority class of each cluster: ['T1', 'T1']" in out
    assert (f"F-measure = {f:.4f}; maximum matching = {mm:.4f}; "
            f"clustering error = {1 - mm:.4f}") in out
    assert float(pe.f_measure(truth, pred)) == pytest.approx(f, abs=1e-12)
    assert f"({f:.3f})" in md and f"({mm:.3f})" in md


def test_08_names_exactly_the_adjusted_measures_of_its_own_table():
    md = _markdown("08_trusting_a_score.ipynb")
    out = _output("08_trusting_a_score.ipynb", "adjusted for chance:")
    adjusted = re.search(r"adjusted for chance: (.*)", out).group(1).split(", ")
    assert sorted(adjusted) == ["AMI", "ARI", "Hubert"]
    table = {line.split()[0]: line.split()[2] for line in out.splitlines()[1:]
             if line.strip() and not line.startswith("adjusted")}
    assert {m for m, flag in table.items() if flag == "yes"} == set(adjusted)
    checklist = md[md.index("## 6 · Checklist"):]
    first = checklist[checklist.index("1. "):checklist.index("2. ")]
    assert "ARI, AMI and Hubert's $\\Gamma_n$" in first
    assert "Only ARI and AMI" not in md
    # Hubert's Gamma_n is affine in TP with the sizes fixed: its mean over shuffles is 0
    rng = np.random.default_rng(0)
    truth = np.repeat([0, 1, 2], [240, 30, 30])
    pred = rng.integers(0, 4, 300)
    values = [float(pe.hubert_statistic(truth, rng.permutation(pred))) for _ in range(400)]
    spread = np.std(values) / np.sqrt(len(values))
    assert abs(np.mean(values)) < 4 * spread


def test_08_says_a_permutation_p_value_is_valid_and_how_noisy_it_is():
    md = _markdown("08_trusting_a_score.ipynb")
    assert "P(p \\le \\alpha) \\le \\alpha" in md
    assert "fooled 5% of the time, not more" not in md
    out = _output("08_trusting_a_score.ipynb", "share of p <= 0.05")
    for alpha in (0.05, 0.5):
        line = re.search(rf"share of p <= {alpha}: ([0-9.]+); expected {alpha} \+- ([0-9.]+) "
                         r"\(binomial standard error of (\d+) tests\); ([-+][0-9.]+) standard", out)
        share, se, tests, z = float(line[1]), float(line[2]), int(line[3]), float(line[4])
        exact = np.sqrt(alpha * (1 - alpha) / tests)
        assert se == round(exact, 3)
        assert abs((share - alpha) / exact - z) < 0.1 and abs(z) < 2
    share = float(re.search(r"share of p <= 0.05: ([0-9.]+)", out)[1])
    assert f"{share:.3f} is half a standard error above 0.05" in md
    # the same clustering, tested with five seeds: recomputed here for B = 999, seed 0
    noisy = _output("08_trusting_a_score.ipynb", "B = 9999")
    ps = {int(b): [float(v) for v in vals.split(", ")]
          for b, vals in re.findall(r"B = +(\d+): p = ([0-9., ]+);", noisy)}
    assert sorted(ps) == [99, 999, 9999]
    for b in (99, 999):
        assert min(ps[b]) <= 0.05 < max(ps[b])            # the verdict depends on the seed
    assert max(ps[9999]) < 0.05 and max(ps[9999]) - min(ps[9999]) <= 0.006
    yn = np.arange(100) % 2
    cn = np.random.default_rng(3).integers(0, 2, 100)
    kept = np.random.default_rng(103).random(100) < 0.2
    cn[kept] = yn[kept]
    assert pe.permutation_test(yn, cn, n_permutations=999, seed=0).p_value == ps[999][0]
    assert "within 0.006 of each other, all below 0.05" in md
