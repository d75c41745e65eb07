"""The judging plots: the null histogram counts what the p-value counts; one panel per
criterion with its preferred k marked."""
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import prayatul_edu as pe  # noqa: E402
from prayatul_edu.plots import plot_choose_k, plot_null_distribution  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_null_histogram_counts_what_the_p_value_counts():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 200)
    pred = np.where(rng.random(200) < 0.9, rng.integers(0, 3, 200), truth)
    pt = pe.permutation_test(truth, pred, n_permutations=299, seed=1)
    ax = plot_null_distribution(pt)
    heights = [sum(p.get_height() for p in container) for container in ax.containers]
    assert heights == [299 - pt.n_at_least, pt.n_at_least]
    assert ax.lines[0].get_xdata()[0] == pt.observed                # the observed line
    assert ax.get_title().endswith(f"p = {pe.steps.fmt(pt.p_value)}")
    # words, not the function's name, and text a projector shows: 10 pt and more
    assert ax.get_xlabel() == "adjusted Rand index (ARI)"
    assert min(t.get_fontsize() for t in ax.get_legend().get_texts()) >= 10
    assert ax.xaxis.label.get_fontsize() >= 11


def test_choose_k_panels_mark_the_preferred_k():
    X = np.r_[np.zeros((10, 2)), np.full((10, 2), 5.0), [[0, 5]] * 10]
    X += np.random.default_rng(0).normal(0, 0.3, X.shape)
    order = lambda Y, k: np.argsort(np.argsort(Y[:, 0] + 2 * Y[:, 1])) * k // len(Y)  # noqa
    ck = pe.choose_k(X, order, ks=[1, 2, 3, 4], criteria=["silhouette", "davies_bouldin",
                                                          "gap"], n_references=3, seed=0)
    fig = plot_choose_k(ck)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 3
    for ax, name in zip(visible, ck.table):
        assert ax.get_title().endswith(f"k = {ck.preferred[name]}")
        assert ax.get_ylabel() and "_" not in _words(ax.get_ylabel())   # says what, no code
        ring = [ln for ln in ax.lines if ln.get_markersize() == 11]
        assert len(ring) == 1 and ring[0].get_xdata()[0] == ck.preferred[name]


def _words(label: str) -> str:
    """A label without its mathtext ($...$) parts: what would show as plain text."""
    return re.sub(r"\$[^$]*\$", "", label)


def test_choose_k_symbols_are_mathtext_as_the_lectures_write_them():
    # a projector shows k, log2 W_k and Gap(k) typeset, as the lecture's own figures and
    # formulas do: no symbol in plain text (k, log2, W, Gap(k), s_k) outside $...$
    X = np.r_[np.zeros((10, 2)), np.full((10, 2), 5.0), [[0, 5]] * 10]
    X += np.random.default_rng(1).normal(0, 0.3, X.shape)
    order = lambda Y, k: np.argsort(np.argsort(Y[:, 0] + 2 * Y[:, 1])) * k // len(Y)  # noqa
    ck = pe.choose_k(X, order, ks=[1, 2, 3, 4], criteria=["elbow", "gap"], n_references=3,
                     seed=0)
    for ax in plot_choose_k(ck).axes:
        assert ax.get_xlabel() == "$k$"
        for label in (ax.get_ylabel(), ax.get_title()):
            plain = _words(label)
            assert not re.search(r"log2|\bW\b|Gap\(|\bs_k\b", plain), label
    assert plot_choose_k(ck).axes[1].get_ylabel().startswith(r"$\mathrm{Gap}(k)$")


def test_silhouette_plot_axis_is_mathtext():
    s = pe.silhouette(np.array([[0.0], [1.0], [5.0], [6.0]]), [0, 0, 1, 1])
    from prayatul_edu.plots import plot_silhouette
    ax = plot_silhouette(s)
    assert ax.get_xlabel() == "silhouette $s_i$" and _words(ax.get_xlabel()).strip() == "silhouette"


def test_plots_refuse_other_results():
    with pytest.raises(TypeError, match="result:"):
        plot_null_distribution(pe.purity([0, 1], [0, 1]))
    with pytest.raises(TypeError, match="result:"):
        plot_choose_k({"table": 1})


def test_choose_k_plots_the_elbow_and_an_undefined_criterion():
    X = np.r_[np.zeros((10, 2)), np.full((10, 2), 5.0), [[0, 5]] * 10]
    X += np.random.default_rng(1).normal(0, 0.3, X.shape)
    order = lambda Y, k: np.argsort(np.argsort(Y[:, 0] + 2 * Y[:, 1])) * k // len(Y)  # noqa
    ck = pe.choose_k(X, order, ks=[1, 2, 3, 4], criteria=["elbow"])
    fig = plot_choose_k(ck)
    assert fig.axes[0].get_title() == (r"elbow (bend of $\log_2 W_k$): "
                                       f"k = {ck.preferred['elbow']}")
    ck = pe.choose_k(X, order, ks=[2, 4], criteria=["elbow"])          # never defined
    assert plot_choose_k(ck).axes[0].get_title().endswith("k = None")
