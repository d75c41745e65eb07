"""Smoke tests of the plots added for the notebooks and apps: each draws, returns the
right type and carries the artists and labels it promises."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from scipy.cluster.hierarchy import dendrogram, leaves_list  # noqa: E402

import prayatul_edu as pe  # noqa: E402
from prayatul_edu import tutorial  # noqa: E402
from prayatul_edu.plots import PAIR_COLORS, cluster_colors  # noqa: E402
from prayatul_edu.plots._matrix import thinned  # noqa: E402
from prayatul_edu.plots.contingency import plot_contingency_table  # noqa: E402
from prayatul_edu.plots.hierarchy import (ABOVE_CUT_COLOR, cophenetic_rows,  # noqa: E402
                                          dendrogram_links, height_ticks, plot_cophenetic_matrix,
                                          plot_dendrogram, set_dendrogram_cut,
                                          set_dendrogram_tree)
from prayatul_edu.plots.measures import plot_measures  # noqa: E402
from prayatul_edu.plots.pairs import (cell_colors, pair_types,  # noqa: E402
                                      plot_similarity_matrices, set_similarity_matrices,
                                      similarity_image)
from prayatul_edu.plots.silhouette import (plot_silhouette, set_silhouette_point,  # noqa: E402
                                          update_silhouette)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _frames(ax):
    """(row, column) of every highlighted cell."""
    return sorted((int(round(r.get_y() + 0.5)), int(round(r.get_x() + 0.5)))
                  for r in ax.patches if isinstance(r, Rectangle) and not r.get_fill())


# ---------------------------------------------------------------- contingency
def test_contingency_heatmap_writes_counts_and_frames_each_rows_majority():
    table = pe.contingency_table(tutorial.EXERCISE_2_CLASSES, tutorial.EXERCISE_2_CLUSTERS)
    ax = plot_contingency_table(table, title="Exercise 2")
    assert isinstance(ax, Axes) and ax.get_title() == "Exercise 2"
    assert [t.get_text() for t in ax.texts] == [str(v) for v in np.asarray(table).ravel()]
    counts = np.asarray(table)
    assert _frames(ax) == [(i, int(np.argmax(counts[i]))) for i in range(3)]
    assert "cluster" in ax.get_ylabel() and "class" in ax.get_xlabel()


def test_contingency_heatmap_frames_the_matched_cells():
    truth, pred = pe.labels_from_table(tutorial.LECTURE_MATCHING_TABLE)
    matching = pe.maximum_matching(truth, pred)
    ax = plot_contingency_table(matching.table, highlight="matching", matching=matching.pairs)
    assert _frames(ax) == sorted((int(i), int(j)) for i, j in matching.pairs)
    assert (0, 1) not in _frames(ax)      # C_1's majority class T_2 went to C_2
    assert len(plot_contingency_table([[1, 2], [3, 4]], highlight=None).patches) == 0


@pytest.mark.parametrize("kwargs, argument", [({"highlight": "best"}, "highlight"),
                                              ({"highlight": "matching"}, "matching")])
def test_contingency_heatmap_errors_name_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=f"^{argument}:"):
        plot_contingency_table([[1, 2], [3, 4]], **kwargs)
    with pytest.raises(ValueError, match="^table:"):
        plot_contingency_table([1, 2, 3])


# ----------------------------------------------------------------- silhouette
def test_silhouette_plot_has_one_block_per_cluster_and_the_mean_line():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 0.3, (20, 2)), rng.normal(3, 0.3, (15, 2)), rng.normal(6, 0.3, (10, 2))]
    labels = np.repeat([5, 7, 9], [20, 15, 10])
    s = pe.silhouette(X, labels)
    ax = plot_silhouette(s, point=3, title="three blobs")
    (bars,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    blocks = bars.get_paths()
    assert len(blocks) == 3
    # each block takes its cluster's scatter colour, and reaches out to every s_i of it
    colors = cluster_colors(labels)
    for block, color, first, size in zip(blocks, bars.get_facecolor(), (0, 20, 35),
                                         (20, 15, 10)):
        assert np.allclose(color[:3], to_rgb(colors[first]))
        x = block.vertices[:, 0]
        assert sorted(x[1:size + 1]) == sorted(s.samples[first:first + size])
        assert x[0] == x[size + 1] == 0
    mean_line = [ln for ln in ax.lines if ln.get_linestyle() == "--"][0]
    assert mean_line.get_xdata()[0] == pytest.approx(float(s))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["5", "7", "9"]
    # the key names the mean and the point, index 3 as the lecture's x4
    assert [t.get_text() for t in ax.texts] == [f"mean s = {pe.steps.fmt(float(s))}",
                                               f"x4: s = {pe.steps.fmt(s.samples[3])}"]
    assert min(t.get_fontsize() for t in ax.texts) >= 11        # legible on a projector


def test_silhouette_point_moves_in_place():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    s = pe.silhouette(X, np.arange(60) % 3)
    ax = plot_silhouette(s, point=3)
    set_silhouette_point(ax, s, 41)
    (marker,) = [c for c in ax.collections if c.get_gid() == "silhouette point"]
    fresh = plot_silhouette(s, point=41)
    (expected,) = [c for c in fresh.collections if c.get_gid() == "silhouette point"]
    assert np.array_equal(marker.get_offsets(), expected.get_offsets())
    assert marker.get_offsets()[0, 0] == pytest.approx(s.samples[41])
    assert [t.get_text() for t in ax.texts] == [t.get_text() for t in fresh.texts]
    assert ax.texts[-1].get_text() == f"x42: s = {pe.steps.fmt(s.samples[41])}"
    set_silhouette_point(ax, s, None)
    assert not [c for c in ax.collections if c.get_gid() == "silhouette point"]
    assert ax.texts[-1].get_text() == ""
    assert [ln.get_visible() for ln in ax.lines if ln.get_gid() == "silhouette point key"] \
        == [False]


def test_silhouette_plot_updated_in_place_equals_a_fresh_plot():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 2))
    first = pe.silhouette(X, np.arange(80) % 2)
    second = pe.silhouette(X, np.arange(80) % 5)
    ax = plot_silhouette(first, point=7)
    update_silhouette(ax, second, point=60)
    fresh = plot_silhouette(second, point=60)
    for kind in ("collections", "lines", "texts"):
        assert len(getattr(ax, kind)) == len(getattr(fresh, kind)), kind
    (bars,), (expected,) = ([c for c in a.collections if isinstance(c, PolyCollection)]
                            for a in (ax, fresh))
    assert len(bars.get_paths()) == 5
    for got, want in zip(bars.get_paths(), expected.get_paths()):
        assert np.array_equal(got.vertices, want.vertices)
    assert np.array_equal(bars.get_facecolor(), expected.get_facecolor())
    assert [ln.get_xdata()[0] for ln in ax.lines] == [ln.get_xdata()[0] for ln in fresh.lines]
    assert [t.get_text() for t in ax.texts] == [t.get_text() for t in fresh.texts]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["0", "1", "2", "3", "4"]
    assert ax.get_ylim() == pytest.approx(fresh.get_ylim())
    assert ax.get_xlim() == pytest.approx(fresh.get_xlim())


def test_silhouette_plot_rejects_bad_input():
    s = pe.silhouette(tutorial.EXERCISE_1_D, tutorial.EXERCISE_1_LABELS, metric="precomputed")
    with pytest.raises(ValueError, match="^point:"):
        plot_silhouette(s, point=4)
    with pytest.raises(TypeError, match="^result:"):
        plot_silhouette(0.5)


# ------------------------------------------------------------------ hierarchy
def test_dendrogram_draws_every_merge_and_colours_below_the_cut():
    tree = pe.agglomerative(tutorial.EXERCISE_4_D, linkage="single")
    ax = plot_dendrogram(tree, cut=0.5)
    links = dendrogram_links(ax)
    assert len(links) == 4                                  # N - 1 merges
    tops = sorted(float(corners[:, 1].max()) for corners, _ in links)
    assert tops == pytest.approx([0.36, 0.45, 0.53, 0.65])
    above = [float(corners[:, 1].max()) for corners, color in links
             if color == ABOVE_CUT_COLOR]
    assert sorted(above) == [0.53, 0.65]                    # the merges above the cut
    # above the cut: dotted, a style no cluster's links have
    styles = {ln.get_color(): ln.get_linestyle() for ln in ax.lines
              if ln.get_gid() == "dendrogram links"}
    assert styles.pop(ABOVE_CUT_COLOR) == ":" and set(styles.values()) == {"-"}
    cut_line = [ln for ln in ax.lines if ln.get_linestyle() == "--"][0]
    assert cut_line.get_ydata()[0] == 0.5
    assert "3 clusters" in ax.get_legend().get_texts()[0].get_text()
    # x5 joins last, so it sits alone at one end; {x2, x3} and {x1, x4} are neighbours
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x5", "x2", "x3", "x1", "x4"]
    with pytest.raises(TypeError, match="^tree:"):
        plot_dendrogram(np.zeros((4, 4)))


def _random_tree(n, linkage, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    return pe.agglomerative(np.linalg.norm(X[:, None] - X[None], axis=2), linkage=linkage)


@pytest.mark.parametrize("linkage", ["single", "complete", "average", "weighted", "centroid",
                                     "median", "ward"])
def test_dendrogram_links_are_where_scipy_draws_them(linkage):
    tree = _random_tree(60, linkage)
    d = dendrogram(tree.linkage_matrix, no_plot=True)
    expected = sorted(tuple(np.column_stack([x, y]).ravel().round(12))
                      for x, y in zip(d["icoord"], d["dcoord"]))
    drawn = sorted(tuple(corners.ravel().round(12)) for corners, _ in
                   dendrogram_links(plot_dendrogram(tree)))
    assert drawn == expected


def test_dendrogram_cut_and_tree_change_in_place_as_drawn_anew():
    tree, other = _random_tree(60, "average"), _random_tree(60, "complete", seed=1)
    ax = plot_dendrogram(tree, cut=0.3)
    h = float(other.heights[-4])
    set_dendrogram_tree(ax, other, cut=h, title="other")
    fresh = plot_dendrogram(other, cut=h)

    def key(links):
        return sorted((tuple(c.ravel().round(12)), to_rgb(color)) for c, color in links)
    assert key(dendrogram_links(ax)) == key(dendrogram_links(fresh))
    assert ax.get_ylim() == fresh.get_ylim() and ax.get_title(loc="left") == "other"
    # every link below the cut has the colour of its cluster in a scatter plot
    colors = cluster_colors(other.cut(height=h))
    order = leaves_list(other.linkage_matrix)
    below = 0
    for corners, color in dendrogram_links(ax):
        # a leaf under the link: the first leaf right of the link's left leg
        leaf = order[int(np.ceil((corners[0, 0] - 5) / 10))]
        expected = colors[leaf] if corners[1, 1] <= h else ABOVE_CUT_COLOR
        assert to_rgb(color) == to_rgb(expected)
        below += corners[1, 1] <= h
    assert below == 60 - 4                                  # 4 clusters: 56 merges inside
    assert "4 clusters" in ax.get_legend().get_texts()[0].get_text()
    set_dendrogram_cut(ax, other, float(other.heights[-1]))
    assert {c for _, c in dendrogram_links(ax)} == {cluster_colors([0])[0]}
    with pytest.raises(ValueError, match="^tree:"):
        set_dendrogram_tree(ax, _random_tree(61, "single"))


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-3, max_value=1e4), st.sampled_from([0.0, 0.5]))
def test_height_ticks_are_what_a_default_matplotlib_axis_shows(high, low_fraction):
    """The heights and labels fixed per tree are the ticks matplotlib would choose and
    write (MaxNLocator with round steps, the default ScalarFormatter)."""
    from matplotlib.ticker import MaxNLocator

    low = low_fraction * high
    ax = Figure().subplots()
    ax.set_ylim(low, high)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))
    ax.figure.canvas.draw()
    shown = [(t.get_loc(), t.label1.get_text()) for t in ax.yaxis._update_ticks()]
    ticks, labels = height_ticks(low, high)
    assert [label for _, label in shown] == labels
    assert np.allclose([loc for loc, _ in shown], ticks, rtol=1e-12, atol=1e-12 * high)


def test_a_new_tree_draws_its_own_height_ticks():
    tree, other = _random_tree(30, "average"), _random_tree(30, "single", seed=3)
    ax = plot_dendrogram(tree, cut=0.3)
    set_dendrogram_tree(ax, other, cut=0.1)
    top = float(other.heights[-1])
    assert ax.get_ylim() == pytest.approx((0.0, 1.22 * top))
    heights = [float(t.get_text()) for t in ax.get_yticklabels()]
    assert np.allclose(heights, ax.get_yticks()) and ax.get_yticks()[-1] <= 1.22 * top
    assert [t.get_text() for t in ax.get_yticklabels()] == height_ticks(0.0, 1.22 * top)[1]


def test_a_new_tree_of_named_leaves_names_them_in_its_order():
    tree, other = _random_tree(20, "average"), _random_tree(20, "single", seed=2)
    ax = plot_dendrogram(tree, cut=0.3)
    ax.figure.canvas.draw()
    set_dendrogram_tree(ax, other, cut=0.3)
    shown = [t.get_text() for t in ax.get_xticklabels()]     # as set in place
    ax.figure.canvas.draw()                                 # and as the next draw has them
    fresh = plot_dendrogram(other, cut=0.3)
    fresh.figure.canvas.draw()
    expected = [t.get_text() for t in fresh.get_xticklabels()]
    assert shown == [t.get_text() for t in ax.get_xticklabels()] == expected
    assert expected != [f"x{i + 1}" for i in leaves_list(tree.linkage_matrix)]


def test_cophenetic_heatmap_shows_the_matrix_in_leaf_order():
    tree = pe.agglomerative(tutorial.EXERCISE_4_D, linkage="single")
    P = np.asarray(pe.cophenetic_matrix(tree))
    order = np.array([4, 0, 3, 1, 2])
    ax = plot_cophenetic_matrix(P, order=order)
    assert np.array_equal(ax.images[0].get_array(), P[np.ix_(order, order)])
    assert len(ax.texts) == 25 and ax.texts[1].get_text() == f"{P[4, 0]:.2f}"
    assert len(ax.figure.axes) == 2                         # the colour bar
    with pytest.raises(ValueError, match="^order:"):
        plot_cophenetic_matrix(P, order=[0, 0, 1, 2, 3])
    with pytest.raises(ValueError, match="^P:"):
        plot_cophenetic_matrix(np.zeros((2, 3)))


def test_big_matrices_are_thinned_to_what_a_screen_shows():
    assert thinned(256).shape == (256,) and thinned(1200).tolist()[:3] == [0, 5, 10]
    P = np.arange(1000 * 1000, dtype=float).reshape(1000, 1000)
    ax = plot_cophenetic_matrix(P, colorbar=False)
    shown = ax.images[0].get_array()
    assert shown.shape == (250, 250) and shown[1, 1] == P[4, 4]
    assert ax.images[0].get_extent() == [-0.5, 999.5, 999.5, -0.5]


@pytest.mark.parametrize("n, linkage", [(5, "single"), (300, "complete"), (700, "average")])
def test_cophenetic_rows_from_the_tree_equal_the_librarys_matrix(n, linkage):
    tree = _random_tree(n, linkage, seed=n)
    P = np.asarray(pe.cophenetic_matrix(tree))
    rows = np.random.default_rng(n).permutation(n)[:200]
    assert np.array_equal(cophenetic_rows(tree, rows), P[np.ix_(rows, rows)])
    order = leaves_list(tree.linkage_matrix)
    drawn = plot_cophenetic_matrix(tree, order=order, colorbar=False).images[0].get_array()
    kept = order[thinned(n)]
    assert np.array_equal(drawn, P[np.ix_(kept, kept)])     # the heatmap the app shows


# ---------------------------------------------------------------------- pairs
def test_pair_types_agree_with_the_pair_counts():
    rng = np.random.default_rng(2)
    truth, pred = rng.integers(0, 3, 30), rng.integers(0, 4, 30)
    types = pair_types(truth, pred)
    upper = types[np.triu_indices(30, 1)]
    pc = pe.pair_confusion(truth, pred)
    assert np.bincount(upper, minlength=4).tolist() == [pc.tp, pc.fp, pc.fn, pc.tn]
    assert (np.diagonal(types) == -1).all() and np.array_equal(types, types.T)


def test_similarity_matrices_colour_every_pair_and_count_them_in_the_legend():
    truth, pred = tutorial.EXERCISE_2_CLASSES, tutorial.EXERCISE_2_CLUSTERS
    fig = plot_similarity_matrices(truth, pred)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    types = pair_types(truth, pred)
    names = ("TP", "FP", "FN", "TN")
    for ax, ones in zip(fig.axes, (("TP", "FN"), ("TP", "FP"))):
        image = cell_colors(ax)
        for a, b in [(0, 3), (0, 1), (1, 2), (0, 8)]:
            name = names[types[a, b]]
            full = 255 * np.array(to_rgb(PAIR_COLORS[name]))
            # a 1 of this matrix in its pair type's colour; a 0 faded to 30% of it
            expected = np.round(full if name in ones else 255 - 0.3 * (255 - full))
            assert np.array_equal(image[a, b], [*expected, 255]), (a, b, name)
    # T and C differ wherever a pair is FP or FN: the panels never look alike
    fn_or_fp = np.isin(types, (1, 2))
    assert (cell_colors(fig.axes[0]) != cell_colors(fig.axes[1])).any(axis=-1)[fn_or_fp].all()
    pc = pe.pair_confusion(truth, pred)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == [f"TP: {pc.tp}", f"FP: {pc.fp}", f"FN: {pc.fn}", f"TN: {pc.tn}"]
    # the 0/1 entries: T is 1 for TP and FN pairs, C for TP and FP pairs
    t_text = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
              for t in fig.axes[0].texts}
    assert t_text[(0, 3)] == "1" and t_text[(0, 1)] == "0"


@pytest.mark.parametrize("n, order", [(6, None), (12, None), (60, "class"), (700, "class")])
def test_similarity_matrices_changed_in_place_show_what_they_show_drawn_anew(n, order):
    """Cells (a mesh up to 40 instances, an image above), the 0/1 written in them and the
    legend's counts become those of the new labels; new names refuse (draw anew)."""
    rng = np.random.default_rng(n)
    truth, pred, other = (rng.integers(0, 3, n) for _ in range(3))
    truth = np.sort(truth) if order else truth         # the same order by class for both
    fig = plot_similarity_matrices(truth, pred, order=order)
    set_similarity_matrices(fig, truth, other, order=order)
    fresh = plot_similarity_matrices(truth, other, order=order)
    for ax, new in zip(fig.axes, fresh.axes):
        assert np.array_equal(cell_colors(ax), cell_colors(new))
        assert [t.get_text() for t in ax.texts] == [t.get_text() for t in new.texts]
    assert ([t.get_text() for t in fig.legends[0].get_texts()]
            == [t.get_text() for t in fresh.legends[0].get_texts()])
    assert (len(fig.axes[0].texts) > 0) == (n <= 15)
    if n <= 15:                      # the rows named in another order: refused
        with pytest.raises(ValueError, match="^truth:"):
            set_similarity_matrices(fig, truth, other, order="class")


@pytest.mark.parametrize("order", [None, "class"])
def test_big_similarity_images_are_thinned_rows_of_the_pair_types(order):
    rng = np.random.default_rng(5)
    truth, pred = rng.integers(0, 3, 700), rng.integers(0, 4, 700)
    image, counts, shown = similarity_image(truth, pred, order=order)
    types = pair_types(truth, pred)[np.ix_(shown, shown)]
    palette = {k: np.round(255 * np.array(to_rgb(PAIR_COLORS[name])))
               for k, name in enumerate(("TP", "FP", "FN", "TN"))}
    assert image.shape == (234, 234, 4) and shown.shape == (234,)   # every 3rd of 700
    for a, b in rng.integers(0, 234, (40, 2)):
        expected = palette[types[a, b]] if a != b else [255, 255, 255]
        assert np.array_equal(image[a, b, :3], expected)
    pc = pe.pair_confusion(truth, pred)
    assert counts == [pc.tp, pc.fp, pc.fn, pc.tn]
    if order == "class":
        assert (np.diff(truth[shown]) >= 0).all()            # sorted by class


def test_similarity_matrices_sorted_by_class_show_blocks():
    truth = [1, 2, 1, 2]
    fig = plot_similarity_matrices(truth, [1, 1, 2, 2], order="class", annotate=False)
    names = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert names == [] and len(fig.axes[0].texts) == 0
    types_sorted = pair_types([1, 1, 2, 2], [1, 2, 1, 2])
    fn = 255 * np.array(to_rgb(PAIR_COLORS["FN"]))
    assert np.array_equal(cell_colors(fig.axes[0])[0, 1, :3], np.round(fn))     # 1 in T
    assert np.array_equal(cell_colors(fig.axes[1])[0, 1, :3],                   # 0 in C
                          np.round(255 - 0.3 * (255 - fn)))
    assert types_sorted[0, 1] == 2
    with pytest.raises(ValueError, match="^order:"):
        plot_similarity_matrices(truth, truth, order="size")


# ------------------------------------------------------------------- measures
def test_measure_bars_show_each_value():
    ax = plot_measures({"ARI": 0.5, "sigma_c": -1.0, "undefined": float("nan")})
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ARI", "sigma_c", "undefined"]
    widths = [p.get_width() for p in ax.patches]
    assert widths == [0.5, -1.0, 0.0]
    assert [t.get_text().strip() for t in ax.texts] == ["0.500", "-1.000", "nan"]
    with pytest.raises(TypeError, match="^values:"):
        plot_measures([0.5])


def test_show_figure_displays_the_png_with_its_alt_text(monkeypatch):
    import base64

    import IPython.display

    from prayatul_edu.plots import plot_clustering, show_figure

    shown = []
    monkeypatch.setattr(IPython.display, "display",
                        lambda *a, **kw: shown.append((a, kw)))
    ax = plot_clustering([[0, 0], [1, 0], [5, 5]], [0, 0, 1])
    number = ax.figure.number
    show_figure(ax, "Three points, two in cluster 0 at the left and one in cluster 1.")
    ((data,), kw), = shown
    assert kw["raw"] is True
    assert kw["metadata"] == {"image/png": {
        "alt": "Three points, two in cluster 0 at the left and one in cluster 1."}}
    assert base64.b64decode(data["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["text/plain"].startswith("Figure: Three points")
    assert not plt.fignum_exists(number), "shown once: the inline backend must not show it again"


def test_show_figure_refuses_what_is_not_a_figure_or_a_description():
    from prayatul_edu.plots import figure_bundle, plot_clustering

    ax = plot_clustering([[0, 0], [1, 0], [5, 5]], [0, 0, 1])
    with pytest.raises(TypeError, match="^figure: expected a matplotlib Figure or Axes"):
        figure_bundle([1, 2], "A description of a figure.")
    with pytest.raises(ValueError, match="^alt: describe what the figure shows"):
        figure_bundle(ax, "  plot ")
    with pytest.raises(TypeError, match="^alt: expected a description"):
        figure_bundle(ax, None)
    data, _ = figure_bundle(ax.figure, "Three   points\n in two clusters.")
    assert data["text/plain"] == "Figure: Three points in two clusters."
