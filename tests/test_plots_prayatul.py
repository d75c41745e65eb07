"""Smoke tests of the Prayatul and comparison plots: each draws what it promises."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import prayatul_edu as pe  # noqa: E402
from prayatul_edu import plots  # noqa: E402
from prayatul_edu.compare import bootstrap, tournament  # noqa: E402
from prayatul_edu.plots._style import POSITIVE_COLOR  # noqa: E402
from prayatul_edu.plots.prayatul import prayatul_cells  # noqa: E402
from prayatul_edu.steps import fmt  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.normal(size=(60, 2))
TRUTH = np.repeat([0, 1, 2], 20)
A = TRUTH.copy(); A[:5] = 1                       # primary: 5 mistakes
B = TRUTH.copy(); B[-8:] = -1                      # alternative: 8 points called noise


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_plot_clustering_colours_noise_black_and_notes_it():
    ax = plots.plot_clustering(X, B, title="B")
    assert isinstance(ax, Axes) and ax.get_title() == "B"
    colors = ax.collections[0].get_facecolors()
    black = np.all(np.isclose(colors[:, :3], 0), axis=1)
    assert black.sum() == 8
    assert any("noise (-1): 8 points" in t.get_text() for t in ax.texts)
    with pytest.raises(ValueError, match="X and labels"):
        plots.plot_clustering(X, B[:10])


def test_plot_clusterings_one_panel_each():
    fig = plots.plot_clusterings(X, {"truth": TRUTH, "A": A, "B": B}, ncols=2)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert isinstance(fig, Figure) and [ax.get_title() for ax in visible] == ["truth", "A", "B"]


def test_prayatul_heatmap_shows_the_four_counts():
    m = pe.prayatul_matrix(TRUTH, A, B)
    ax = plots.plot_prayatul_matrix(m, primary="A", alternative="B")
    texts = [t.get_text() for t in ax.texts]
    for name, value in zip(("BR", "RW", "WR", "BW"), (m.br, m.rw, m.wr, m.bw)):
        assert any(t.startswith(f"{name}\n{fmt(value)}\n") for t in texts)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A\nright", "A\nwrong"]
    image, _, _ = prayatul_cells(np.asarray(m))
    assert np.allclose(ax.images[0].get_array(), image)
    with pytest.raises(ValueError, match="2 x 2"):
        plots.plot_prayatul_matrix(np.zeros((3, 3)))


def test_instance_map_colours_by_balance():
    counts = pe.prayatul_by_instance(TRUTH, A, B)
    ax = plots.plot_instance_map(X, counts)
    values = np.sort(ax.collections[0].get_array())
    balance = (counts[:, 1] - counts[:, 2]) / counts.sum(axis=1)
    assert np.allclose(values, np.sort(balance))
    assert ax.collections[0].get_clim() == (-1.0, 1.0)      # one scale for every figure
    with pytest.raises(ValueError, match="by_instance"):
        plots.plot_instance_map(X, counts[:, :3])


@pytest.mark.parametrize("n", [12, 150])
def test_instance_balance_shows_each_instance_in_order_with_the_maps_balance(n):
    rng = np.random.default_rng(n)
    truth, a, b = rng.integers(0, 3, (3, n))
    counts = pe.prayatul_by_instance(truth, a, b)
    balance = (counts[:, 1] - counts[:, 2]) / (n - 1)
    ax = plots.plot_instance_balance(counts)
    if n <= 100:                                        # one bar per instance, x1 first
        assert np.allclose([bar.get_height() for bar in ax.patches], balance)
        assert [t.get_text() for t in ax.get_xticklabels()] == [f"x{i}" for i in range(1, n + 1)]
        blue = [bar.get_facecolor() for bar, v in zip(ax.patches, balance) if v >= 0]
        assert all(np.allclose(c[:3], to_rgb(POSITIVE_COLOR)) for c in blue)
    else:                                               # a profile: above and below zero
        above, below = ax.collections
        top = np.concatenate([p.vertices[:, 1] for p in above.get_paths()])
        bottom = np.concatenate([p.vertices[:, 1] for p in below.get_paths()])
        assert np.isclose(top.max(), balance.max()) and top.min() >= 0
        assert np.isclose(bottom.min(), balance.min()) and bottom.max() <= 0
    with pytest.raises(ValueError, match="^by_instance: expected an N x 4"):
        plots.plot_instance_balance(counts[:, :2])


def test_tournament_blank_diagonal_and_values():
    t = tournament(TRUTH, {"A": A, "B": B, "truth": TRUTH})
    values = t.values("effective_superiority")
    ax = plots.plot_tournament(values, t.names)
    shown = ax.images[0].get_array()
    assert np.isnan(np.diag(shown.filled(np.nan))).all()
    labels = {t_.get_text() for t_ in ax.texts}
    assert f"{values[0][1]:.3f}" in labels
    with pytest.raises(ValueError, match="values"):
        plots.plot_tournament(np.zeros((2, 2)), ["a", "b", "c"])


def test_comparison_figures():
    labelings = {"A": A, "B": B}
    t = tournament(TRUTH, labelings)
    fig = plots.plot_prayatul_grid(t, title="grid")
    assert sum(ax.get_visible() for ax in fig.axes) == 2
    fig = plots.plot_instance_maps(X, TRUTH, labelings)
    assert [ax.get_title() for ax in fig.axes if ax.get_title()] == ["A vs B"]
    boot = bootstrap(TRUTH, labelings, n_resamples=30, seed=1)
    ax = plots.plot_bootstrap(boot)
    assert len(ax.get_yticklabels()) == 2 and "30 resamples" in ax.get_xlabel()


# -------------------------------------------------------- text on coloured cells
def _text_on_cells(ax):
    """(text colour, colour of the cell under the text) for every text an image or mesh
    of ``ax`` holds, read from what matplotlib draws."""
    from matplotlib.colors import to_rgba

    fig = ax.figure
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())
    height = pixels.shape[0]
    out = []
    for text in ax.texts:
        if not text.get_text():
            continue
        x, y = ax.transData.transform(text.get_position())
        # the cell's colour a few pixels left of the text's box (the text itself not read)
        box = text.get_window_extent()
        px = pixels[int(round(height - y)), int(box.x0) - 3, :3] / 255
        out.append((to_rgba(text.get_color())[:3], px))
    return out


@pytest.mark.parametrize("counts", [[[1200, 30], [40, 2]], [[5, 400], [390, 5]],
                                    [[250, 250], [250, 250]], [[0, 0], [1, 1000]],
                                    [[10, 90000], [400, 3]]])
def test_prayatul_cell_texts_stand_out_from_their_cells(counts):
    from prayatul_edu.plots._style import contrast_ratio

    image, _, colors = prayatul_cells(counts)
    for (i, j), color in zip(np.ndindex(2, 2), colors):
        assert contrast_ratio(color, image[i, j]) >= 4.5, (counts, i, j)
    # the case (white on the light RW cell at 1.85:1) no longer happens
    ax = plots.plot_prayatul_matrix(counts)
    for text_color, cell in _text_on_cells(ax):
        assert contrast_ratio(text_color, cell) >= 4.5


def test_contingency_and_tournament_texts_stand_out_from_their_cells():
    from prayatul_edu.plots._style import contrast_ratio

    rng = np.random.default_rng(4)
    table = pe.contingency_table(rng.integers(0, 4, 300), rng.integers(0, 5, 300))
    ax = plots.plot_contingency_table(table)
    found = _text_on_cells(ax)
    assert len(found) == 20
    assert min(contrast_ratio(t, c) for t, c in found) >= 4.5
    values = rng.uniform(-1, 1, (4, 4))
    ax = plots.plot_tournament(values, list("ABCD"))
    found = _text_on_cells(ax)
    assert len(found) == 12 and min(contrast_ratio(t, c) for t, c in found) >= 4.5
