"""The apps (prayatul_edu.widgets): models driven from Python, and the widgets driven the
way a person would (setting a control's value), without a browser."""
import matplotlib

matplotlib.use("Agg")

import html  # noqa: E402
import io  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from scipy.cluster.hierarchy import cophenet  # noqa: E402
from scipy.spatial.distance import cdist, pdist  # noqa: E402

import prayatul_edu as pe  # noqa: E402
from prayatul_edu import tutorial  # noqa: E402
from prayatul_edu.steps import fmt  # noqa: E402
from prayatul_edu.toydata import DATASETS, cluster, make_dataset  # noqa: E402
from prayatul_edu.widgets import (ChanceExplorer, ChanceModel,  # noqa: E402
                                  ContingencyExplorer, ContingencyModel,
                                  DendrogramExplorer, DendrogramModel, PairCountingExplorer,
                                  PairCountingModel, PrayatulExplorer, PrayatulModel,
                                  SilhouetteExplorer, SilhouetteModel, raw_label_accuracy)
from prayatul_edu.widgets.inputs import parse_counts, parse_labels  # noqa: E402
from prayatul_edu.widgets.silhouette_explorer import GRAPH_MAX_N  # noqa: E402

APPS = [(PrayatulExplorer, {"n_samples": 120}), (ContingencyExplorer, {}),
        (SilhouetteExplorer, {"n_samples": 80}), (DendrogramExplorer, {"n_samples": 20}),
        (PairCountingExplorer, {}), (ChanceExplorer, {})]


def _shown(app):
    return app.numbers.value, app.image.value


# ------------------------------------------------------------- every app
@pytest.mark.parametrize("cls, params", APPS)
def test_every_app_displays_as_a_widget_with_its_numbers_as_text(cls, params):
    app = cls(**params)
    bundle = app._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == app.widget.model_id
    assert bundle["text/plain"] == app.model.summary() == repr(app)
    assert app.image.value[:8] == b"\x89PNG\r\n\x1a\n" and app.numbers.value
    descriptions = [c.description for c in app.controls.values()]
    assert len(set(descriptions)) == len(descriptions) and all(descriptions)
    with pytest.raises(KeyError, match="no control 'nonsense'"):
        app.control("nonsense")


@pytest.mark.parametrize("cls, params", APPS)
def test_models_reject_unknown_parameters_by_name(cls, params):
    model = cls.model_class(**params)
    with pytest.raises(TypeError, match="^colour: not a parameter"):
        model.set(colour="red")


# ------------------------------------------------------- Prayatul explorer
def test_prayatul_model_shows_the_library_numbers_for_its_data():
    m = PrayatulModel(dataset="noisy_moons", n_samples=200, noise=0.05, seed=2,
                      primary="KMeans", primary_k=2, alternative="DBSCAN", alternative_eps=0.3)
    X, y = make_dataset("noisy_moons", n_samples=200, noise=0.05, random_state=2)
    P, Q = cluster(X, "KMeans", n_clusters=2), cluster(X, "DBSCAN", eps=0.3)
    expected = pe.prayatul_matrix(y, P, Q)
    assert np.array_equal(m.X, X) and np.array_equal(m.labels["primary"], P)
    assert (m.matrix.br, m.matrix.rw, m.matrix.wr, m.matrix.bw) == \
        (expected.br, expected.rw, expected.wr, expected.bw)
    assert np.array_equal(m.by_instance, pe.prayatul_by_instance(y, P, Q))
    assert m.scores["alternative"]["ARI"] == pytest.approx(pe.adjusted_rand_index(y, Q))
    assert m.measures()["effective superiority φ_e"] == expected.effective_superiority
    assert f"{expected.br}" in m.summary().replace(",", "")


def test_prayatul_model_same_algorithm_twice_never_deviates():
    m = PrayatulModel(n_samples=100, primary="BIRCH", alternative="BIRCH")
    assert m.matrix.rw == m.matrix.wr == 0 and m.matrix.comparative_deviation == 0
    m.set(alternative="Agglomerative", alternative_k=4)
    assert m.matrix.rw + m.matrix.wr > 0


def test_prayatul_model_bad_values_name_the_parameter_and_change_nothing():
    m = PrayatulModel(n_samples=100)
    before = m.matrix.br
    for change, error in [({"primary": "KNN"}, ValueError), ({"n_samples": 3}, ValueError),
                          ({"alternative_eps": -1.0}, ValueError), ({"seed": "x"}, TypeError)]:
        with pytest.raises(error, match=f"^{next(iter(change))}:"):
            m.set(**change)
    assert m.params["n_samples"] == 100 and m.matrix.br == before


def test_raw_label_accuracy_is_zero_for_the_truth_renamed():
    assert raw_label_accuracy([0, 0, 1, 1], [1, 1, 0, 0]) == 0.0
    assert raw_label_accuracy([0, 0, 1, 1], [0, 1, 1, 1]) == 0.75
    with pytest.raises(ValueError, match="pred"):
        raw_label_accuracy([0, 1], [0, 1, 1])


def test_prayatul_app_controls_change_what_is_shown():
    app = PrayatulExplorer(n_samples=150)
    numbers, image = _shown(app)
    app.control("alternative eps").value = 0.12
    assert app.model.params["alternative_eps"] == 0.12
    assert "eps=0.12" in app.numbers.value and _shown(app) != (numbers, image)
    fresh = pe.prayatul_matrix(app.model.truth, app.model.labels["primary"],
                               cluster(app.model.X, "DBSCAN", eps=0.12))
    assert (app.model.matrix.br, app.model.matrix.wr) == (fresh.br, fresh.wr)
    app.control("alternative").value = "KMeans"              # k replaces eps
    assert app.control("alternative eps").layout.display == "none"
    assert app.control("alternative k").layout.display is None
    app.control("data set").value = "aniso"
    assert app.model.X.shape == (150, 2) and "aniso" in app.model.summary()


def test_prayatul_app_redraws_in_place_and_matches_a_fresh_figure():
    from prayatul_edu.plots import cluster_colors, plot_prayatul_matrix

    app = PrayatulExplorer(n_samples=100)
    fig = app._figure
    app.control("primary k").value = 3
    app.control("alternative").value = "BIRCH"
    assert app._figure is fig                             # the Axes were reused
    shown = {to_hex(ln.get_color()): len(ln.get_xdata()) for ln in fig.axes[0].lines}
    colors, counts = np.unique(cluster_colors(app.model.labels["primary"]), return_counts=True)
    assert shown == dict(zip(colors.tolist(), counts.tolist()))
    assert fig.axes[0].get_title() == "primary: KMeans (k=3)"
    fresh = plot_prayatul_matrix(app.model.matrix, ax=Figure().subplots())
    heatmap = fig.axes[3]
    assert np.array_equal(heatmap.images[0].get_array(), fresh.images[0].get_array())
    assert [(t.get_text(), t.get_color()) for t in heatmap.texts] == \
        [(t.get_text(), t.get_color()) for t in fresh.texts]
    # counts written as the tables write them (one formatter: steps.fmt)
    assert f"\n{fmt(app.model.matrix.rw)}\n" in heatmap.texts[1].get_text()
    cell = f"<td style=\"padding: 1px 8px; text-align: right\">{fmt(app.model.matrix.rw)}</td>"
    assert cell in app.numbers.value


def _pixels(png: bytes) -> np.ndarray:
    """A PNG's RGB pixels, as int16: a difference of two images fits, and comparing two
    lecture-mode figures moves a quarter of int64's bytes (measured: 4.9 s of the two
    redraw tests' 75 s were these reductions)."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def _full_render(fig, apps_text: bool = True) -> np.ndarray:
    """``fig`` drawn in full by a renderer of its own, placing text as the apps do (at
    whole pixels, :func:`~prayatul_edu.widgets.rendering.keep_glyphs`) unless
    ``apps_text=False``; the figure's canvas (and the app's kept pixels) stay as they
    were."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from prayatul_edu.widgets.rendering import keep_glyphs

    canvas = fig.canvas
    # saving draws an Axes' animated artists (an app's redrawn ones), not a Figure's
    animated = [a for a in fig.get_children() if a.get_animated()]
    try:
        agg = FigureCanvasAgg(fig)
        if apps_text:
            keep_glyphs(agg.get_renderer())
        for artist in animated:
            artist.set_animated(False)
        # saved as raw RGBA, not as a PNG that would be encoded only to be decoded
        fig.savefig(io.BytesIO(), format="rgba", dpi=fig.dpi)
        pixels = np.asarray(agg.buffer_rgba())[:, :, :3].astype(np.int16)
    finally:
        fig.set_canvas(canvas)
        for artist in animated:
            artist.set_animated(True)
    return pixels


@pytest.mark.parametrize("cls, params, changes", [
    (PrayatulExplorer, {"n_samples": 300},
     [("alternative eps", 0.2), ("primary k", 3), ("data set", "aniso"),
      ("alternative", "KMeans")]),
    # bars, the observed line, the curves and both axes of the histogram change in place
    (ChanceExplorer, {},
     [("k (clusters)", 9), ("measure", "AMI"), ("agreement", 0.0), ("classes", 5),
      ("seed", 3), ("imbalance", 0.8)]),
    (SilhouetteExplorer, {"n_samples": 300},
     [("point x_i", "7"), ("k (KMeans)", 4), ("point x_i", "250"), ("points", 200), ("seed", 2),
      ("k (KMeans)", 7), ("k (KMeans)", 2)]),
    # lecture mode: the kept s_i axis and cluster ticks at 16 pt, twice the density
    (SilhouetteExplorer, {"n_samples": 300, "lecture": True},
     [("k (KMeans)", 5), ("seed", 2), ("point x_i", "20"), ("k (KMeans)", 2)]),
    (DendrogramExplorer, {"n_samples": 120},
     [("cut height", 0.3), ("linkage", "single"), ("cut height", 0.1), ("seed", 3),
      ("linkage", "complete"), ("seed", 4), ("cut height", 0.5)]),
    # few enough leaves to be named: a new tree of as many moves only the names' texts
    (DendrogramExplorer, {"n_samples": 30},
     [("linkage", "single"), ("seed", 3), ("cut height", 0.3), ("linkage", "complete"),
      ("seed", 4)]),
    # the same shape: counts, colours and frames change in place; then a new shape
    (ContingencyExplorer, {},
     [("clusters", "2 3 1 2 3 2 3 3 1 2"), ("derivation of", "maximum matching"),
      ("clusters", "1 1 3 1 2 1 2 2 3 1"), ("clusters", "1 2 3 4 2 1 2 2 3 1"),
      ("clusters", "4 4 3 1 2 1 2 2 3 1")]),
    # few instances: the 0/1 cells and the mesh change in place; by class, new names
    (PairCountingExplorer, {},
     [("clusters", "2 2 1 2 3"), ("clusters", "1 3 3 1 2"), ("rows", "by class"),
      ("clusters", "3 1 2 2 1"), ("classes (truth)", "1 1 2 2 3")]),
    (PairCountingExplorer, {"truth": " ".join("0123"[i % 4] for i in range(300)),
                            "pred": " ".join("012"[i % 3] for i in range(300))},
     [("clusters", " ".join("01"[i % 2] for i in range(300))), ("rows", "by class")]),
])
def test_apps_redraw_only_what_changed_and_show_what_a_fresh_figure_shows(cls, params,
                                                                           changes):
    """The app keeps the pixels of what did not change and draws the rest over them:
    after every change its image must be what a fresh figure of the model shows."""
    app = cls(**params)
    for description, value in changes:
        before = app.image.value
        app.control(description).value = value
        assert app.message.value == "" and app.image.value != before
        shown, fresh = _pixels(app.image.value), _full_render(app.model.figure())
        assert shown.shape == fresh.shape
        # the same pixels, but where a redrawn link crosses a kept axis line (0.02 %)
        assert (np.abs(shown - fresh).max(axis=2) > 40).mean() < 0.0005, description


@pytest.mark.parametrize("cls, params, changes", [
    # more leaves than are named: a new tree keeps the leaf axis and draws heights,
    # heatmap and colour bar over it; a cut after a new tree, a new tree after a cut
    (DendrogramExplorer, {"n_samples": 300, "lecture": True},
     [("linkage", "single"), ("seed", 2), ("cut height", 0.4), ("linkage", "complete"),
      ("seed", 5), ("points", 200)]),
    (ContingencyExplorer, {"lecture": True},
     [("clusters", "2 3 1 2 3 2 3 3 1 2"), ("derivation of", "maximum matching"),
      ("clusters", "1 1 3 1 2 1 2 2 3 1")]),
    (PairCountingExplorer, {"lecture": True},
     [("clusters", "2 2 1 2 3"), ("clusters", "1 3 3 1 2"), ("rows", "by class"),
      ("clusters", "3 1 2 2 1")]),
    (DendrogramExplorer, {"n_samples": 30, "lecture": True},
     [("linkage", "single"), ("seed", 2), ("linkage", "complete"), ("seed", 0)]),
    (SilhouetteExplorer, {"n_samples": 400, "lecture": True},
     [("k (KMeans)", 6), ("seed", 3), ("point x_i", "99"), ("k (KMeans)", 2)]),
    (ChanceExplorer, {"lecture": True},
     [("k (clusters)", 7), ("measure", "Rand"), ("agreement", 0.5), ("N (instances)", 400),
      ("imbalance", 0.6), ("measure", "purity")]),
])
def test_lecture_mode_updates_show_what_a_full_draw_of_their_figure_shows(cls, params,
                                                                          changes):
    """Lecture mode lays a figure out once (tight_layout depends on the text, so a fresh
    figure may place its panels a few pixels apart): the kept pixels plus the redrawn
    artists must be what drawing that same figure in full shows."""
    app = cls(**params)
    for description, value in changes:
        before = app.image.value
        app.control(description).value = value
        assert app.message.value == "" and app.image.value != before
        shown, full = _pixels(app.image.value), _full_render(app._figure)
        assert shown.shape == full.shape
        assert (np.abs(shown - full).max(axis=2) > 40).mean() < 0.0005, description


@pytest.mark.parametrize("cls", [PrayatulExplorer, SilhouetteExplorer, DendrogramExplorer,
                                 ContingencyExplorer, PairCountingExplorer, ChanceExplorer])
def test_lecture_mode_figures_keep_every_text_inside(cls):
    """No title, label, tick label or legend of a lecture-mode figure is cut off at its
    edge (the dendrogram's colour bar label was: placed after the layout was made)."""
    from matplotlib.text import Text

    fig = cls(lecture=True)._figure
    fig.canvas.draw()
    renderer, box = fig.canvas.get_renderer(), fig.bbox
    shown = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    extents = {t.get_text(): t.get_window_extent(renderer) for t in shown}
    outside = [text for text, e in extents.items() if e.x0 < box.x0 - 1 or
               e.x1 > box.x1 + 1 or e.y0 < box.y0 - 1 or e.y1 > box.y1 + 1]
    assert len(extents) > 5 and outside == []


def test_texts_drawn_from_kept_glyphs_are_the_texts_drawn_anew(monkeypatch):
    """An app's renderer draws a text it drew before (same string, font and angle) from
    the glyph images it kept: the pixels must be those of drawing it anew, also where the
    text moved or changed places with another; and matplotlib's own but where a glyph's
    edge moved by less than half a pixel (texts are placed at whole pixels)."""
    from prayatul_edu.widgets.rendering import LECTURE_DPI, FigureLayers, new_figure

    fig = new_figure(4.0, 2.0, dpi=LECTURE_DPI)
    ax = fig.add_subplot()
    names = ["x1", "x12", "Wy", "0.25"]
    texts = [ax.text(0.1 + 0.21 * i, 0.3, name, rotation=90 * (i % 2), fontsize=16)
             for i, name in enumerate(names)]
    layers = FigureLayers()
    layers.png(fig)                                       # drawn anew, glyphs kept
    for text, name in zip(texts, names[2:] + names[:2]):  # the same texts at other places
        text.set_text(name)
    layers.png(fig)
    for i, text in enumerate(texts):                      # moved by 8.3 pixels
        text.set_text(names[i])
        text.set_position((0.1 + 0.21 * i + 8.3 / (4.0 * LECTURE_DPI), 0.3))
    shown = _pixels(layers.png(fig))
    plain = _full_render(fig, apps_text=False)            # matplotlib's own drawing
    monkeypatch.setattr("prayatul_edu.widgets.rendering._GLYPHS", {})   # nothing kept
    anew = _full_render(fig)
    assert (shown != 255).any() and shown.shape == anew.shape == plain.shape
    assert np.array_equal(shown, anew)
    inked = (plain != 255).any(axis=2)
    assert (np.abs(shown - plain).max(axis=2) > 40).sum() < 0.4 * inked.sum()
    assert abs(int((shown != 255).any(axis=2).sum()) - int(inked.sum())) < 0.05 * inked.sum()


def test_texts_never_drawn_before_are_made_of_kept_glyphs_exactly(monkeypatch):
    """A new string (a new number in a title) is laid out and made of glyph images kept
    from other texts: the pixels must be matplotlib's own drawing of it at that place,
    upright and turned, whether its glyphs were kept or rasterised now."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.font_manager import FontProperties

    from prayatul_edu.widgets import rendering
    from prayatul_edu.widgets.rendering import LECTURE_DPI, keep_glyphs, new_figure

    monkeypatch.setattr(rendering, "_GLYPHS", {})
    monkeypatch.setattr(rendering, "_GLYPH_IMAGES", {})

    def draw(strings, kept: bool):
        renderer = FigureCanvasAgg(new_figure(4.0, 2.0, dpi=LECTURE_DPI)).get_renderer()
        if kept:
            keep_glyphs(renderer)
        for i, (text, angle, size) in enumerate(strings):
            gc = renderer.new_gc()
            gc.set_foreground((0.1, 0.2, 0.6, 1.0), isRGBA=True)
            renderer.draw_text(gc, 40 + 97 * i, 150 + 61 * (i % 3), text,
                               FontProperties(size=size), angle)
            gc.restore()
        return np.asarray(renderer.buffer_rgba()).copy()

    first = [("cut at 0.3571: 4 clusters", 0.0, 16), ("x17", 90.0, 16), ("Wy, 0.25", 0.0, 11)]
    second = [("CPCC = 0.7153", 0.0, 16), ("x71", 90.0, 16), ("0.57 yW", 0.0, 11),
              ("cut at 0.3571: 4 clusters", 0.0, 16)]
    for strings in (first, second):            # glyphs rasterised now, then mostly kept
        shown, plain = draw(strings, kept=True), draw(strings, kept=False)
        assert (shown[:, :, :3] != 255).any()
        assert np.array_equal(shown, plain), [t for t, _, _ in strings]
    assert len(rendering._GLYPH_IMAGES) > 20 and len(rendering._GLYPHS) == 6


def test_a_text_group_draws_what_its_texts_draw_one_by_one():
    """Texts drawn as a group (one graphics context, layouts kept by string) are the
    pixels of drawing each text itself: turned, aligned, coloured, the same string
    twice, an empty one, a hidden one, and one with a box (drawn by its own draw)."""
    from prayatul_edu.widgets.rendering import LECTURE_DPI, FigureLayers, TextGroup, new_figure

    def figure():
        fig = new_figure(4.0, 2.0, dpi=LECTURE_DPI)
        ax = fig.add_subplot()
        texts = [ax.text(0.05 + 0.1 * i, 0.4, name, rotation=rot, ha=ha, va=va, color=c,
                         fontsize=16)
                 for i, (name, rot, ha, va, c) in enumerate([
                     ("x12", 90, "center", "top", "black"), ("x3", 90, "center", "top", "k"),
                     ("x12", 0, "right", "baseline", "#d55e00"), ("", 0, "left", "bottom", "k"),
                     ("Wy 0.25", 30, "left", "center", "tab:blue"),
                     ("hidden", 0, "left", "bottom", "k"), ("boxed", 0, "left", "bottom", "k")])]
        texts[5].set_visible(False)
        texts[6].set_bbox({"facecolor": "yellow"})
        return fig, texts

    fig, texts = figure()
    layers = FigureLayers()
    layers.declare(fig, ("texts",), [TextGroup(texts)])
    layers.png(fig)                             # kept layer without them, then the group
    grouped = _pixels(layers.png(fig))
    assert [t.get_visible() for t in texts] == [True] * 5 + [False, True]
    plain_fig, _ = figure()
    plain = _full_render(plain_fig)
    assert (grouped != 255).any() and np.array_equal(grouped, plain)


def test_png_encoding_is_lossless():
    from prayatul_edu.widgets.rendering import encode_png

    from PIL import Image

    rgba = np.random.default_rng(0).integers(0, 256, (7, 5, 4), dtype=np.uint8)
    png = encode_png(rgba)
    assert np.array_equal(_pixels(png), rgba[:, :, :3])
    # the alpha channel too (an app's figure is opaque; a transparent one stays so)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png))), rgba)


@pytest.mark.parametrize("isal", [True, False])
def test_png_encoding_with_and_without_isal_gives_the_same_image(isal, monkeypatch):
    """ISA-L deflates where installed, zlib where not: the same pixels either way."""
    import sys
    import zlib

    from prayatul_edu.widgets import rendering
    from prayatul_edu.widgets.rendering import encode_png

    if isal:
        pytest.importorskip("isal")
    else:
        monkeypatch.setitem(sys.modules, "isal", None)       # as if not installed
    rendering._compressor.cache_clear()                      # looked for once: anew here
    assert (rendering._compressor() is zlib.compress) is not isal
    app = DendrogramExplorer(n_samples=30)
    rgba = np.asarray(app._figure.canvas.buffer_rgba())
    png = encode_png(rgba)
    assert np.array_equal(_pixels(png), rgba[:, :, :3])
    assert len(png) < rgba.nbytes / 10                       # a plot packs tightly
    rendering._compressor.cache_clear()                      # (the next test looks again)


# ----------------------------------------------------- contingency explorer
def test_contingency_model_on_exercise_2_equals_the_library():
    m = ContingencyModel()
    c, k = tutorial.EXERCISE_2_CLASSES, tutorial.EXERCISE_2_CLUSTERS
    v = m.values()
    assert v["purity"] == pe.purity(c, k) == 0.5
    assert v["maximum matching"] == pe.maximum_matching(c, k)
    assert v["F-measure"] == pe.f_measure(c, k)
    assert v["entropy"] == pe.cluster_entropy(c, k)
    assert v["NMI (geometric mean)"] == pe.normalized_mutual_information(c, k)
    assert "Purity = 0.5" in m.numbers_html()              # the derivation shown


def test_contingency_model_reads_a_typed_table():
    m = ContingencyModel(mode="table", show="maximum matching")
    assert m.values()["purity"] == pytest.approx(1250 / 1550)
    assert m.values()["maximum matching"] == pytest.approx(1200 / 1550)
    assert "Maximum matching" in m.numbers_html()


def test_contingency_app_shows_an_error_instead_of_a_traceback():
    app = ContingencyExplorer()
    shown = _shown(app)
    app.control("clusters").value = "1 2 3"                   # 3 labels for 10 classes
    # in the page's words: the box is called "clusters", not by its parameter "pred"
    assert "clusters: has 3 labels but the classes (truth) have 10" in app.errors["pred"].value
    assert app.model.params["pred"] == ContingencyModel.DEFAULTS["pred"] and _shown(app) == shown
    app.control("clusters").value = "1 1 1 1 1 1 1 1 1 2"
    assert app.errors["pred"].value == "" and app.model.values()["purity"] == pytest.approx(0.4)
    app.control("derivation of").value = "entropy"
    assert "entropy" in app.numbers.value.lower()
    app.control("edit").value = "table"
    assert app.control("clusters").layout.display == "none"
    assert app.model.values()["purity"] == pytest.approx(1250 / 1550)


def test_parsing_typed_input():
    assert parse_labels("a b,a", "truth").tolist() == ["a", "b", "a"]
    assert parse_counts("1 2\n3 4", "table").tolist() == [[1, 2], [3, 4]]
    for text, pattern in [("1 2; 3", "same number of cells"), ("1 x", "whole number"),
                          ("1 -2", "non-negative"), ("1 0", "at least two")]:
        with pytest.raises(ValueError, match=f"^table: .*{pattern}"):
            parse_counts(text, "table")
    with pytest.raises(ValueError, match="^truth: give at least two labels"):
        parse_labels("7", "truth")


# ------------------------------------------------------ silhouette explorer
def test_silhouette_model_point_table_gives_a_i_and_b_i():
    m = SilhouetteModel(n_samples=90, k=3)
    s = pe.silhouette(m.X, m.labels)
    assert float(m.silhouette) == float(s)
    for n in (1, 18, 90):                       # x1, x18, x90: indices 0, 17, 89
        m.set(point=n)
        rows = {r["role"]: r for r in m.point_table()}
        assert rows["own cluster: a_i"]["mean"] == pytest.approx(s.a[n - 1], abs=1e-12)
        assert rows["nearest other: b_i"]["mean"] == pytest.approx(s.b[n - 1], abs=1e-12)
        assert f"s_{n} = (b_{n} - a_{n})" in m.summary()
        assert f"= {pe.steps.fmt(s.samples[n - 1])}" in m.summary()
        assert f"point x{n} (cluster {m.labels[n - 1]})" in m.summary()


def test_silhouette_explorer_numbers_points_from_x1_everywhere():
    """What a student sees (tables, formula, the plot's key, alt text) says x1 ... xN,
    never x0."""
    app = SilhouetteExplorer(n_samples=30)
    assert app.model.params["point"] == 1 and app.control("point x_i").value == "1"
    assert "Point x1 (" in app.numbers.value and "s_1 = " in app.numbers.value
    assert "x0" not in app.numbers.value and "s_0" not in app.numbers.value
    key = [t.get_text() for t in app.model.figure().axes[1].texts]
    assert any(t.startswith("x1: s = ") for t in key), key
    assert "point x1 marked" in app.model.describe_figure()
    app.control("point x_i").value = "30"               # the last point, x30 = index 29
    assert app.model.index == 29
    assert f"= {pe.steps.fmt(app.model.silhouette.samples[29])}" in app.numbers.value


def test_silhouette_model_graph_measures_equal_the_library():
    m = SilhouetteModel(n_samples=60, k=4)
    D = cdist(m.X, m.X)
    assert float(m.graph["W_in"]) == pytest.approx(pe.within_cluster_weight(D, m.labels))
    assert float(m.graph["normalized cut"]) == pytest.approx(pe.normalized_cut(D, m.labels))
    assert SilhouetteModel(n_samples=GRAPH_MAX_N + 20).graph == {}


def test_silhouette_model_keeps_the_point_inside_the_data():
    m = SilhouetteModel(n_samples=100, point=80)
    m.set(n_samples=50)
    assert m.params["point"] == 50 and m.index == 49         # x50, the last point
    m.set(point=50)                                         # x50 exists
    with pytest.raises(ValueError, match=r"^point: must be a point number from 1 to "
                                         r"n_samples = 50 \(x1 ... x50\), got 51"):
        m.set(point=51)
    with pytest.raises(ValueError, match="^point: "):
        m.set(point=0)
    with pytest.raises(ValueError, match="^k:"):
        m.set(k=1)


def test_silhouette_app_point_and_k_controls():
    app = SilhouetteExplorer(n_samples=80)
    s_before, shown = float(app.model.silhouette), _shown(app)
    app.control("point x_i").value = "7"
    assert float(app.model.silhouette) == s_before and _shown(app) != shown
    assert "Point x7" in app.numbers.value
    app.control("k (KMeans)").value = 5
    assert float(app.model.silhouette) != s_before
    assert len(app.model.silhouette.clusters) == 5
    app.control("points").value = 40
    assert app.control("point x_i").placeholder == "1 to 40"


@pytest.mark.parametrize("typed, error", [
    ("12.5", "'12.5' is not a point number"), ("twelve", "'twelve' is not a point number"),
    ("-3", "'-3' is not a point number"), ("1e2", "'1e2' is not a point number"),
    ("", "'' is not a point number"), ("٣", "'٣' is not a point number"),
    ("0", "must be >= 1, got 0"), ("81", "must be a point number from 1 to n_samples = 80")])
def test_silhouette_app_refuses_a_point_number_it_cannot_read_with_a_message(typed, error):
    """A number box turned 12.5 into x125 without a word: the text box refuses it, says
    why beside the box, and the figure and numbers keep the point shown before."""
    app = SilhouetteExplorer(n_samples=80)
    app.control("point x_i").value = "7"
    shown, numbers = _shown(app), app.numbers.value
    app.control("point x_i").value = typed
    assert app.model.params["point"] == 7 and _shown(app) == shown
    assert app.numbers.value == numbers
    assert "point x_i: " in app.errors["point"].value and error in html.unescape(
        app.errors["point"].value)
    app.control("point x_i").value = " x12 "              # as the lecture names it
    assert app.model.params["point"] == 12 and app.errors["point"].value == ""
    assert app.control("point x_i").value == "12" and "Point x12" in app.numbers.value


def test_silhouette_model_returns_to_a_k_shown_before_without_computing_it_again():
    m = SilhouetteModel(n_samples=70, k=3, seed=4)
    first = m.silhouette
    m.set(k=5)
    assert len(m.silhouette.clusters) == 5
    m.set(k=3)
    assert m.silhouette is first                     # cached, and still the right one
    fresh = pe.silhouette(m.X, m.labels)
    assert np.array_equal(m.silhouette.samples, fresh.samples)
    assert float(m.graph["W_in"]) == pytest.approx(
        float(pe.within_cluster_weight(cdist(m.X, m.X), m.labels)))


def test_silhouette_app_names_the_point_and_the_mean_in_the_key():
    app = SilhouetteExplorer(n_samples=60, lecture=True)
    bars = app._figure.axes[1]
    texts = list(bars.texts)
    for name, value in (("point x_i", "9"), ("k (KMeans)", 5), ("point x_i", "31")):
        app.control(name).value = value
        s = app.model.silhouette
        assert list(bars.texts) == texts                 # the same texts, changed in place
        n = app.model.params["point"]
        assert [t.get_text() for t in texts] == [f"mean s = {pe.steps.fmt(float(s))}",
                                                 f"x{n}: s = {pe.steps.fmt(s.samples[n - 1])}"]


# ------------------------------------------------------ dendrogram explorer
def test_dendrogram_model_cut_cpcc_and_cophenetic_agree_with_scipy():
    m = DendrogramModel(n_samples=25, linkage="complete")
    c, coph = cophenet(m.tree.linkage_matrix, pdist(m.X))
    assert float(m.cpcc) == pytest.approx(c, abs=1e-12)
    assert np.allclose(m.cophenetic.condensed(), coph)
    assert m.n_clusters == 3                                  # the default cut
    counts = [m.set(cut=h).n_clusters for h in np.linspace(0, m.tree.heights[-1], 6)]
    assert counts == sorted(counts, reverse=True) and counts[0] == 25 and counts[-1] == 1
    assert np.array_equal(m.labels, m.tree.cut(height=m.cut_height))
    with pytest.raises(ValueError, match="^linkage:"):
        m.set(linkage="wards")


def test_dendrogram_app_heatmap_is_the_librarys_cophenetic_matrix():
    from scipy.cluster.hierarchy import leaves_list

    from prayatul_edu.plots._matrix import thinned

    app = DendrogramExplorer(n_samples=300)
    for linkage in ("average", "single"):                   # drawn anew, then in place
        app.control("linkage").value = linkage
        m = app.model
        order = leaves_list(m.tree.linkage_matrix)[thinned(300)]
        P = np.asarray(pe.cophenetic_matrix(pe.agglomerative(cdist(m.X, m.X),
                                                             linkage=linkage)))
        assert np.array_equal(app._figure.axes[2].images[0].get_array(),
                              P[np.ix_(order, order)])
        assert np.array_equal(np.asarray(m.cophenetic), P)
        assert f"CPCC = {fmt(float(m.cpcc))})" in app._figure.axes[2].get_title()


def test_dendrogram_app_slider_follows_the_tree():
    app = DendrogramExplorer(n_samples=20)
    shown = _shown(app)
    app.control("cut height").value = 0.0
    assert app.model.n_clusters == 20 and _shown(app) != shown
    app.control("linkage").value = "single"
    top = float(app.model.tree.heights[-1])
    assert app.control("cut height").max == pytest.approx(1.05 * top)
    assert app.model.params["linkage"] == "single" and "single" in app.numbers.value


@pytest.mark.parametrize("lecture", [False, True])
@pytest.mark.parametrize("linkage", ["single", "average", "ward"])
def test_dendrogram_cut_legend_stays_clear_of_the_links(lecture, linkage):
    """The cut's legend sits in the room above the top merge, never over a link."""
    app = DendrogramExplorer(n_samples=30, linkage=linkage, lecture=lecture)
    fig = app._figure
    fig.canvas.draw()
    tree_ax = fig.axes[0]
    legend = tree_ax.get_legend().get_window_extent()
    top = float(app.model.tree.heights[-1])
    top_px = tree_ax.transData.transform([(0.0, top)])[0][1]
    assert legend.y0 > top_px, (legend.y0, top_px)


# --------------------------------------------------- pair-counting explorer
def test_pair_counting_model_exercise_3_and_beyond():
    m = PairCountingModel()
    pc = m.results["pair counts"]
    pub = tutorial.PUBLISHED["exercise_3"]
    assert (pc.f00, pc.f01, pc.f10, pc.f11) == (pub["f00"], pub["f01"], pub["f10"], pub["f11"])
    m.set(pred="1 1 1 1 1")
    assert m.results["pair counts"].fp == 8 and m.values()["Rand"] == 0.2
    assert m.values()["ARI"] == pe.adjusted_rand_index(tutorial.EXERCISE_3_CLASSES, [1] * 5)


def test_pair_counting_app_legend_counts_the_librarys_pairs():
    rng = np.random.default_rng(3)
    truth, pred = rng.integers(0, 3, 400), rng.integers(0, 4, 400)
    app = PairCountingExplorer(truth=" ".join(map(str, truth)), pred=" ".join(map(str, pred)))
    pred[:100] = 0
    app.control("clusters").value = " ".join(map(str, pred))
    pc = pe.pair_confusion(truth, pred)
    legend = [t.get_text() for t in app._figure.legends[0].get_texts()]
    # thousands separated from 10,000 on (37,302), read at a glance
    assert legend == ["TP: 7866", "FP: 16,017", "FN: 18,615", "TN: 37,302"]
    assert [pc.tp, pc.fp, pc.fn, pc.tn] == [7866, 16017, 18615, 37302]
    assert f"TP = {pc.tp}" in app.numbers.value


def test_pair_counting_app_row_order_changes_the_picture_not_the_numbers():
    app = PairCountingExplorer(truth="1 2 1 2 1", pred="1 1 2 2 1")
    numbers, image = _shown(app)
    app.control("rows").value = "by class"
    assert app.numbers.value == numbers and app.image.value != image
    app.control("derivation of").value = "Jaccard"
    assert "Jaccard" in app.numbers.value


def test_pair_counting_lecture_mode_shows_every_pair_as_a_cell_of_its_kind():
    """On the projector every pair {x_a, x_b} is one cell (row a, column b > a), named
    and coloured by its kind as the figure colours it, with each instance's class and
    cluster at its row and column; the reveal shows the derivation instead, without the
    list of pairs (the cells are that list); beyond 12 instances, a sentence."""
    import re

    from prayatul_edu.plots import PAIR_COLORS

    truth, pred = "1 3 2 1 3 2 2", "1 2 3 1 2 2 1"
    t, c = truth.split(), pred.split()
    app = PairCountingExplorer(truth=truth, pred=pred, lecture=True)
    cells = re.findall(r'<td class="pe-pair" style="background: (#\w+); color: \w+" '
                       r'title="\{x(\d+), x(\d+)\}: (\w\w)">(\w\w)</td>', app.numbers.value)
    by_hand = {(a + 1, b + 1): ("T" if (t[a] == t[b]) == (c[a] == c[b]) else "F")
               + ("P" if c[a] == c[b] else "N") for a in range(7) for b in range(a + 1, 7)}
    assert {(int(a), int(b)): kind for _, a, b, kind, _ in cells} == by_hand
    assert all(shown == kind and colour == PAIR_COLORS[kind] for colour, _, _, kind, shown in cells)
    pc = app.model.results["pair counts"]
    kinds = [kind for *_, kind in cells]
    assert [kinds.count(k) for k in ("TP", "FP", "FN", "TN")] == [pc.tp, pc.fp, pc.fn, pc.tn]
    assert "one by one" not in app.numbers.value and "Pair-counting explorer" not in \
        app.numbers.value                                 # the title is above the app
    # each instance's class and cluster: x1 (1, 1) at its row, x7 (2, 1) above its column
    assert "<tr><th>x1</th><td>1</td><td>1</td>" in app.numbers.value
    assert app.numbers.value.count("<td>2</td>") >= 2
    app.steps.toggle.value = True
    assert "pe-pair" not in app.numbers.value and app.steps.on
    full = app.steps.reveal.state.full.to_text()
    assert "one by one" not in full and f"TP = {pc.tp}, FP = {pc.fp}" in full
    app.steps.toggle.value = False
    assert "pe-pairs" in app.numbers.value
    # outside lecture mode: the derivation whole, listing every pair
    assert "All 21 pairs, one by one" in PairCountingExplorer(truth=truth, pred=pred,
                                                              lecture=False).numbers.value
    many = " ".join(str(i % 3) for i in range(13))
    big = PairCountingExplorer(truth=many, pred=many, lecture=True).numbers.value
    assert "78 pairs, too many to show one by one" in big and "pe-pair\"" not in big


def test_contingency_numbers_are_captioned_without_the_apps_title():
    app = ContingencyExplorer(lecture=True)
    assert "10 instances, 3 clusters x 3 classes" in app.numbers.value
    assert "Contingency explorer" not in app.numbers.value
    assert app.model.summary().startswith("Contingency explorer: 10 instances, 3 clusters")


def test_contingency_app_changes_the_number_of_labels_one_box_at_a_time():
    app = ContingencyExplorer()
    shown = _shown(app)
    truth, pred = "1 1 2 2 3", "1 1 2 3 3"
    app.control("classes (truth)").value = truth            # 5 labels, clusters still 10
    assert "clusters: has 10 labels but the classes (truth) have 5" in app.errors["pred"].value
    assert "not applied yet" in app.errors["truth"].value
    assert app.control("classes (truth)").value == truth     # what was typed stays
    assert app.model.params["truth"] == ContingencyModel.DEFAULTS["truth"] and _shown(app) == shown
    app.control("clusters").value = pred                     # now both have 5
    assert app.errors["pred"].value == app.errors["truth"].value == app.message.value == ""
    assert app.model.params["truth"] == truth and app.model.params["pred"] == pred
    assert app.model.values()["purity"] == pytest.approx(
        pe.purity(truth.split(), pred.split()))
    assert app.control("classes (truth)").value == truth and app.control("clusters").value == pred
    app.control("derivation of").value = "entropy"           # a later change keeps both
    assert app.model.params["truth"] == truth and app.control("clusters").value == pred


def test_pair_counting_app_changes_the_number_of_labels_in_either_order():
    app = PairCountingExplorer()
    truth, pred = "a a b b c c d", "1 1 1 2 2 3 3"
    app.control("clusters").value = pred                     # the clusters first this time
    assert "has 7 labels but the classes (truth) have 5" in app.errors["pred"].value
    assert app.control("clusters").value == pred and app.model.params["pred"] == "1 2 3 1 2"
    app.control("classes (truth)").value = truth
    assert app.errors["pred"].value == ""
    p = app.model.results["pair counts"]
    expected = pe.pair_confusion(truth.split(), pred.split())
    assert (p.tp, p.fp, p.fn, p.tn) == (expected.tp, expected.fp, expected.fn, expected.tn)
    app.control("clusters").value = "1 2 x"                  # a wrong length again: refused
    assert app.model.params["pred"] == pred and app.control("clusters").value == "1 2 x"


def _slider_agrees(app):
    cut, m = app.control("cut height"), app.model
    assert cut.min <= m.cut_height <= cut.max == pytest.approx(m.cut_max)
    assert cut.value == pytest.approx(m.cut_height)
    assert m.n_clusters == len(set(m.tree.cut(height=cut.value).tolist()))
    assert f"{m.n_clusters} cluster" in app._figure.axes[1].get_title()


@pytest.mark.parametrize("change", [("seed", 1), ("linkage", "single"), ("n_samples", 45),
                                    ("dataset", "noisy_moons"), ("seed", 3)])
def test_dendrogram_slider_and_model_agree_after_every_kind_of_change(change):
    app = DendrogramExplorer(n_samples=20)
    app.control("cut height").value = app.control("cut height").max     # the top of the range
    _slider_agrees(app)
    name, value = change
    app.controls[name].value = value
    _slider_agrees(app)
    app.control("cut height").value = app.control("cut height").max * 0.999
    _slider_agrees(app)
    app.controls[name].value = app.model.DEFAULTS[name]                # and back
    _slider_agrees(app)


def test_dendrogram_a_lower_tree_lowers_the_cut_with_the_slider():
    app = DendrogramExplorer()                               # the report: 30 points
    tops = {}
    for seed in range(6):
        app.control("seed").value = seed
        tops[seed] = app.model.cut_max
    tall, low = max(tops, key=tops.get), min(tops, key=tops.get)
    app.control("seed").value = tall
    app.control("cut height").value = app.control("cut height").max
    app.control("seed").value = low      # one cluster is kept: the cut at the new top merge
    _slider_agrees(app)
    assert app.model.cut_height == pytest.approx(app.model.top_height)
    assert app.model.cut_max == pytest.approx(tops[low]) and tops[low] < tops[tall]
    assert app.model.n_clusters == 1
    assert "1 cluster at the cut" == app._figure.axes[1].get_title()
    legend = [t.get_text() for t in app._figure.axes[0].get_legend().get_texts()]
    assert f"cut at {fmt(app.model.cut_height)}: 1 cluster" in legend   # as in the table
    assert ["cut height", app.model.cut_height] in app.model._rows()


@pytest.mark.parametrize("k", [2, 4, 6])
def test_dendrogram_a_new_linkage_or_data_set_keeps_the_number_of_clusters(k):
    # the issue: after the cut was moved, a new linkage kept the height (ward 6 clusters,
    # single 1, complete 4); heights of different linkages are not comparable
    from prayatul_edu.widgets.dendrogram_explorer import cut_for_clusters

    app = DendrogramExplorer()
    app.control("cut height").value = cut_for_clusters(app.model.tree, k)
    assert app.model.n_clusters == k
    for name, value in [("linkage", "ward"), ("linkage", "single"), ("linkage", "centroid"),
                        ("linkage", "complete"), ("seed", 3), ("dataset", "noisy_moons")]:
        app.controls[name].value = value
        _slider_agrees(app)
        h = np.sort(app.model.tree.subtree_heights())
        n = h.shape[0] + 1
        if h[n - k - 1] == h[n - k]:        # two merges at one height: k cannot be had
            assert app.model.n_clusters in (k - 1, k + 1), (name, value)
            continue
        assert app.model.n_clusters == k, (name, value)
        assert app.model.labels.max() + 1 == k
    # the top merge height is the tallest link drawn, inversions included
    app.controls["linkage"].value = "centroid"
    assert app.model.top_height == max(app.model.tree.heights)
    assert ["top merge height", app.model.top_height] in app.model._rows()


def test_apps_name_which_nmi_and_which_accuracy_and_show_the_measure_symbols():
    m = PrayatulModel(n_samples=100)
    shown = m.numbers_html()
    for label in ("NMI (geometric mean)", "raw-label accuracy", "σ_c", "α", "ξ_c", "ξ_e",
                  "φ_e"):
        assert label in shown
    assert m.measures()["polarization α"] == m.matrix.polarization
    c = ContingencyModel()
    from sklearn.metrics import normalized_mutual_info_score as nmi

    t, p = c.truth_labels, c.pred_labels
    assert c.values()["NMI (geometric mean)"] == pytest.approx(
        nmi(t, p, average_method="geometric"))
    assert nmi(t, p, average_method="geometric") != pytest.approx(nmi(t, p))


def test_prayatul_noise_slider_is_disabled_where_noise_changes_nothing():
    app = PrayatulExplorer(n_samples=100)
    assert app.model.params["dataset"] == "noisy_moons" and not app.control("noise").disabled
    app.control("data set").value = "blobs"
    assert app.control("noise").disabled
    app.control("data set").value = "noisy_circles"
    assert not app.control("noise").disabled


@pytest.mark.parametrize("truth, pred, reason", [
    ("1 1 1", "1 2 3", "truth puts every pair together and clusters put no pair together"),
    ("1 2 3", "1 1 2", "truth puts no pair together"),
    ("1 1 2", "4 4 4", "clusters put every pair together")])
def test_pair_counting_hubert_nan_says_why(truth, pred, reason):
    m = PairCountingModel(truth=truth, pred=pred)
    assert np.isnan(m.results["Hubert"])
    assert f"nan (undefined: {reason})" in m.summary() and reason in m.numbers_html()
    assert "undefined" not in PairCountingModel().summary()


def test_dendrogram_explains_equal_means_only_for_average_linkage():
    m = DendrogramModel(n_samples=20, linkage="average")
    assert m.cpcc.d_mean == pytest.approx(m.cpcc.p_mean)
    assert "why d̄ = p̄" in m.summary()
    m.set(linkage="single")
    assert "why d̄ = p̄" not in m.summary() and m.cpcc.d_mean != pytest.approx(m.cpcc.p_mean)


@pytest.mark.parametrize("lecture", [False, True])
def test_dendrogram_height_labels_stay_clear_of_the_heights_and_in_place(lecture):
    """The two heights axes' labels ("merge height") sit beside their tick labels,
    never over them, and do not move from tree to tree (0..3 and 0.0..0.8 alike)."""
    app = DendrogramExplorer(n_samples=30, lecture=lecture)
    places, widths = set(), set()
    for name, value in [("linkage", "single"), ("seed", 3), ("linkage", "complete"),
                        ("seed", 1), ("linkage", "average")]:
        app.control(name).value = value
        app.image.value  # noqa: B018 - the figure was drawn
        fig = app._figure
        renderer = fig.canvas.get_renderer()
        for ax, right in ((fig.axes[0], False), (fig.axes[3], True)):
            label = ax.yaxis.label.get_window_extent(renderer)
            ticks = [t.get_window_extent(renderer) for t in ax.get_yticklabels()
                     if t.get_text() and 0 <= t.get_position()[1] <= ax.get_ylim()[1]]
            assert len(ticks) >= 2
            if right:
                assert label.x0 > max(t.x1 for t in ticks) + 1
            else:
                assert label.x1 < min(t.x0 for t in ticks) - 1
            places.add((right, round(label.x0, 3)))
            widths.add(max(len(t.get_text()) for t in ax.get_yticklabels()))
    assert widths == {1, 3}                                # "2" and "0.5": both seen
    assert len(places) == 2                                # one place per axis


def test_a_dendrogram_height_label_that_moves_is_drawn_anew(monkeypatch):
    """Tick labels wider than the room kept for them move the axis label out; the kept
    pixels (which have the label where it was) are then drawn again, not reused."""
    from prayatul_edu.widgets import dendrogram_explorer

    monkeypatch.setattr(dendrogram_explorer, "_HEIGHT_TEMPLATE", "0")   # "0.5" is wider
    app = DendrogramExplorer(n_samples=30, lecture=True)
    places = set()
    for name, value in [("linkage", "single"), ("seed", 3), ("linkage", "complete"),
                        ("seed", 1), ("linkage", "average")]:
        app.control(name).value = value
        shown, full = _pixels(app.image.value), _full_render(app._figure)
        assert (np.abs(shown - full).max(axis=2) > 40).mean() < 0.0005, (name, value)
        places.add(app._figure.axes[0].yaxis.label_placed[0])
    assert len(places) == 2                                 # it moved, and moved back


def _label_x(axis) -> float:
    """Where ``axis``'s label is (its left edge, pixels) when the figure is drawn."""
    return axis.label.get_window_extent(axis.axes.figure.canvas.get_renderer()).x0


def _ticked_pair(side: str):
    """A figure of two Axes with a y label on ``side`` and their tick labels there too."""
    from prayatul_edu.widgets.rendering import new_figure

    fig = new_figure(6.0, 3.0, dpi=100)
    axes = fig.subplots(1, 2)
    fig.subplots_adjust(wspace=0.8)
    for ax in axes:
        if side == "right":
            ax.yaxis.tick_right()
            ax.yaxis.set_label_position("right")
        ax.set_ylabel("cluster")
    return fig, axes


@pytest.mark.parametrize("side", ["left", "right"])
def test_a_pinned_axis_label_stays_where_the_last_draw_put_it(side):
    """``pin_axis_label(axis)`` fixes the label where matplotlib placed it: wider tick
    labels then leave it there (matplotlib alone moves it out), pinning again changes
    nothing, and an Axes cleared since is pinned anew."""
    from prayatul_edu.widgets.drawing import pin_axis_label

    fig, (pinned, free) = _ticked_pair(side)
    for ax in (pinned, free):
        ax.set_yticks([0, 1], ["0", "1"])
    fig.canvas.draw()
    first = {ax: _label_x(ax.yaxis) for ax in (pinned, free)}
    assert pin_axis_label(pinned.yaxis) is True
    assert _label_x(pinned.yaxis) == pytest.approx(first[pinned], abs=1e-9)
    assert pin_axis_label(pinned.yaxis) is False
    for ax in (pinned, free):
        ax.set_yticks([0, 1], ["0", "1000"])
    fig.canvas.draw()
    assert _label_x(pinned.yaxis) == pytest.approx(first[pinned], abs=1e-9)
    moved = _label_x(free.yaxis) - first[free]                  # the 1000's width
    assert moved > 15 if side == "right" else moved < -15
    pinned.cla()                                                # its label's own again
    assert pin_axis_label(pinned.yaxis) is True


@pytest.mark.parametrize("side", ["left", "right"])
def test_an_axis_label_pinned_with_room_for_tick_labels_is_where_matplotlib_puts_it(side):
    """``pin_axis_label(axis, "0.0")`` puts the label, with no draw first, where
    matplotlib puts it beside tick labels as wide as "0.0" or the axis' own (digits
    counted as "0"); it moves (and says so) only when the widest of those changes."""
    from prayatul_edu.widgets.drawing import pin_axis_label

    fig, (pinned, free) = _ticked_pair(side)
    for ticks, moves in [(["0", "0.0"], True), (["2", "0.5"], False),
                         (["0.0", "00.0"], True), (["0", "0.0"], True)]:
        for ax in (pinned, free):
            ax.set_yticks([0, 1], ticks)
        assert pin_axis_label(pinned.yaxis, "0.0") is moves, ticks
        fig.canvas.draw()
        if "2" not in ticks:               # free: beside the widest of its own ("0.0")
            assert _label_x(pinned.yaxis) - pinned.bbox.x0 == pytest.approx(
                _label_x(free.yaxis) - free.bbox.x0, abs=1e-6)


@pytest.mark.parametrize("lecture", [False, True])
def test_the_silhouette_cluster_label_stays_where_the_first_draw_put_it(lecture):
    """A new clustering keeps the silhouette plot's axis label in place (its pixels are
    kept), where matplotlib put it beside the cluster numbers of the first draw."""
    app = SilhouetteExplorer(n_samples=150, lecture=lecture)
    fig = app._figure
    bars = fig.axes[1]
    first = _label_x(bars.yaxis)
    for k in (6, 10, 2):
        app.control("k (KMeans)").value = k
        app.image.value  # noqa: B018 - the figure was drawn
        assert app._figure is fig and bars.yaxis.label_placed is not None
        assert _label_x(bars.yaxis) == pytest.approx(first, abs=1e-9)
        # one digit a cluster: matplotlib's own placement in a fresh figure (at its
        # distance from the panel, as lecture mode's layout may move the panel) differs
        # by less than a pixel
        fresh = app.model.figure()
        fresh.canvas.draw()
        ours, its = bars.bbox.x0 - first, fresh.axes[1].bbox.x0 - _label_x(fresh.axes[1].yaxis)
        assert abs(ours - its) < 1.0


@pytest.mark.parametrize("lecture", [False, True])
def test_the_first_dendrogram_image_keeps_what_the_first_new_tree_draws_over(lecture):
    """The app's first image is its figure drawn in full, from layers: the pixels a new
    tree keeps are there already, so the first new tree draws only what it changes."""
    app = DendrogramExplorer(n_samples=30, lecture=lecture)
    shown, full = _pixels(app.image.value), _full_render(app._figure)
    assert (np.abs(shown - full).max(axis=2) > 40).mean() < 0.0005
    model = app.model
    model.set(seed=5)
    fig = model.redraw(app._figure)
    assert fig is app._figure and not model.layers.draws_all(fig)
    shown, full = _pixels(model.png(fig)), _full_render(fig)
    assert (np.abs(shown - full).max(axis=2) > 40).mean() < 0.0005


def test_dendrogram_cophenetic_heatmap_has_a_colour_bar_that_follows_the_tree():
    app = DendrogramExplorer(n_samples=20)
    for change in ({}, {"seed": 2}, {"n_samples": 25}, {"linkage": "complete"}):
        for name, value in change.items():
            app.controls[name].value = value
        app.image.value  # noqa: B018 - the figure was drawn
        heatmap, bar = app._figure.axes[2], app._figure.axes[3]
        image = heatmap.images[0]
        assert "cophenetic distance" in bar.get_ylabel()
        low, high = image.get_clim()
        assert high == pytest.approx(float(np.max(np.asarray(app.model.cophenetic))))
        # the bar shows the colour map from 0 to 1; each label is the height whose colour
        # it sits beside (the image's colour of height h is cmap((h - low) / (high - low)))
        assert bar.get_ylim() == pytest.approx((0.0, 1.0))
        ticks = bar.yaxis.get_major_ticks(len(bar.get_yticks()))
        heights = [float(t.label1.get_text()) for t in ticks]
        assert len(heights) >= 3 and heights[0] == low == 0.0
        for tick, h in zip(ticks, heights):
            assert low + tick.get_loc() * (high - low) == pytest.approx(h)


def test_contingency_explorer_shows_clustering_ratio_and_error():
    m = ContingencyModel(truth="1 1 1 2 2 2 3 3", pred="a a b b b c c c")
    t, c = m.truth_labels, m.pred_labels
    assert m.values()["clustering ratio"] == float(pe.clustering_ratio(t, c)) == 1.0
    assert m.values()["clustering error"] == float(pe.clustering_error(t, c))
    assert m.values()["clustering error"] == pytest.approx(1 - 6 / 8)    # 2 + 2 + 2 matched
    m.set(show="clustering error")
    assert "error" in m.numbers_html().lower()



def test_figure_layers_draw_the_declared_artists_over_the_kept_pixels():
    """The layer cache lives in its own object, not on the figure: a figure it was not
    told about is drawn in full; a declared artist that changes is drawn over the kept
    pixels and the image equals a full drawing; a new key draws everything again."""
    from prayatul_edu.widgets.rendering import FigureLayers, new_figure

    fig = new_figure(3, 2)
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], color="black")
    dot, = ax.plot([0.2], [0.8], "o", color="red", markersize=12)
    layers = FigureLayers()
    assert np.array_equal(_pixels(layers.png(fig)), _full_render(fig))
    assert not any(name.startswith("_layer") or name.startswith("_cached")
                   for name in vars(fig))
    layers.declare(fig, ("a",), [dot])
    first = _pixels(layers.png(fig))
    dot.set_data([0.8], [0.2])
    moved = _pixels(layers.png(fig))
    assert not np.array_equal(first, moved)
    dot.set_animated(False)
    assert np.array_equal(moved, _full_render(fig))
    dot.set_animated(True)
    ax.set_facecolor("yellow")                 # not declared: the key must change
    layers.declare(fig, ("b",), [dot])
    dot.set_animated(False)
    full = _full_render(fig)
    dot.set_animated(True)
    assert np.array_equal(_pixels(layers.png(fig)), full)


# ------------------------------------------------------------- lecture mode
#: one change per app that redraws part of the figure (titles and notes set anew)
LECTURE_CHANGES = {PrayatulExplorer: ("primary k", 3), ContingencyExplorer: ("show", "F-measure"),
                   SilhouetteExplorer: ("k (KMeans)", 4), DendrogramExplorer: ("linkage", "single"),
                   PairCountingExplorer: ("rows", "by class"), ChanceExplorer: ("k (clusters)", 6)}


def _texts(fig) -> list:
    from matplotlib.text import Text

    fig.canvas.draw()                        # the tick labels matplotlib makes when drawing
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize("cls, params", APPS)
def test_lecture_mode_figure_text_is_16_pt_as_displayed(cls, params):
    """Drawn at 192 dpi and shown at its size in inches (96 CSS px per inch), every text
    of the figure is at least 16 pt on the screen: also after an update."""
    from prayatul_edu.widgets.rendering import CSS_DPI, LECTURE_DPI

    app = cls(lecture=True, **params)
    description, value = LECTURE_CHANGES[cls]
    if description == "show":
        value = [v for v in app.control("show").options if v != app.model.params["show"]][0]
    for step in range(2):
        fig = app._figure
        assert fig.dpi == LECTURE_DPI == 2 * CSS_DPI
        css = round(fig.get_figwidth() * CSS_DPI)       # its size in inches, in CSS px
        assert _pixels(app.image.value).shape[1] == 2 * css   # two pixels per CSS pixel
        sizes = {t.get_text(): t.get_fontsize() for t in _texts(fig)}
        assert len(sizes) >= 3 and min(sizes.values()) >= 16, \
            {k: v for k, v in sizes.items() if v < 16}
        if step == 0:
            app.control(description).value = value
            assert app.message.value == ""


def _results_box(app):
    """The box holding the figure and the numbers (a reveal toggle may come after it)."""
    return next(c for c in app.widget.children if app.image in getattr(c, "children", ()))


@pytest.mark.parametrize("cls, params", APPS)
def test_normal_mode_stays_as_it_was(cls, params):
    app = cls(lecture=False, **params)
    assert app._figure.dpi == 80 and app.image.layout.width is None
    assert min(t.get_fontsize() for t in _texts(app._figure)) < 16
    assert "pe-lecture" not in app.widget._dom_classes and "pe-app" in app.widget._dom_classes
    results = _results_box(app)
    assert list(results.children) == [app.image, app.numbers]
    beside = cls is ContingencyExplorer                 # the one app that always had it so
    assert type(results).__name__ == ("HBox" if beside else "VBox")


@pytest.mark.parametrize("cls, params", APPS)
def test_lecture_mode_puts_the_numbers_and_the_reveal_beside_a_figure_the_screen_sizes(
        cls, params):
    """Lecture mode: the figure left, the numbers (and the reveal, if the app has one)
    right of it, in a row that takes the height the controls leave; no box of its own
    that scrolls (the browser test measures what a projector shows)."""
    import ipywidgets as W

    app = cls(lecture=True, **params)
    results = _results_box(app)
    assert type(results).__name__ == "HBox" and "pe-results" in results._dom_classes
    image, side = results.children
    assert image is app.image and "pe-figure" in image._dom_classes
    assert side.children[0] is app.numbers and "pe-side" in side._dom_classes
    reveal = getattr(app, "steps", None)
    assert list(side.children[1:]) == ([reveal.widget] if reveal else [])
    assert app.widget.children[-1] is results               # nothing below the row
    assert app.numbers.layout.overflow is None and app.numbers.layout.max_height is None
    assert app.image.layout.width is None                   # the CSS sizes it
    css = app.widget.children[0].value
    assert "height: calc(100vh" in css and "object-fit: contain" in css
    assert "flex: 1 1 0 !important; min-height: 0" in css   # the row takes what is left
    assert "font-size: 18px" in css and "font-size: 20px" in css   # controls, tables
    sliders = [c for c in app.controls.values() if isinstance(c, (W.IntSlider, W.FloatSlider))]
    assert all(s.layout.width == "240px" for s in sliders)
    assert "pe-lecture" in app.widget._dom_classes


@pytest.mark.parametrize("cls, params", APPS)
def test_numbers_and_messages_are_marked_for_a_screen_reader_to_announce(cls, params):
    """The numbers and every message carry the class the Voila template makes an
    aria-live region of; after a change the numbers widget is the same (a region that
    is replaced is not announced)."""
    from prayatul_edu.widgets.app import LIVE_CLASS

    app = cls(lecture=True, **params)
    live = [app.numbers, app.message, *app.errors.values()]
    assert all(LIVE_CLASS in w._dom_classes for w in live)
    numbers = app.numbers
    description, value = LECTURE_CHANGES[cls]
    if description == "show":
        value = [v for v in app.control("show").options if v != app.model.params["show"]][0]
    app.control(description).value = value
    assert app.numbers is numbers and app.widget.children[-1].children[1].children[0] is numbers


@pytest.mark.parametrize("cls, params", APPS)
def test_every_app_brings_one_style_block_with_a_focus_ring(cls, params):
    app = cls(lecture=False, **params)
    styles = [c for c in app.widget.children
              if type(c).__name__ == "HTML" and "<style>" in c.value]
    assert len(styles) == 1
    css = styles[0].value
    for selector in ("select:focus-visible", "input:focus-visible", ".noUi-handle:focus",
                     "button:focus-visible", "[contenteditable]:focus"):   # slider readouts
        assert selector in css
    assert "outline: 3px solid" in css
    # toggle buttons: the ring drawn inside (their row clips what lies outside)
    assert ".widget-toggle-buttons button:focus-visible" in css and "outline-offset: -4px" in css


@pytest.mark.parametrize("cls, params", APPS)
def test_figure_has_alt_text_that_follows_the_figure(cls, params):
    app = cls(**params)
    before = app.image.tooltip
    assert before == app.model.describe_figure() and len(before) > 60
    description, value = LECTURE_CHANGES[cls]
    if description == "show":
        value = "maximum matching"
        assert app.model.params["show"] != value
    app.control(description).value = value
    assert app.image.tooltip == app.model.describe_figure() != before


def test_alt_text_gives_the_numbers_of_the_figure():
    app = PrayatulExplorer(n_samples=120)
    m = app.model.matrix
    for name, value in (("BR", m.br), ("RW", m.rw), ("WR", m.wr), ("BW", m.bw)):
        assert f"{name} = {fmt(value)}" in app.image.tooltip
    d = DendrogramExplorer(n_samples=20)
    assert f"cut at height {fmt(d.model.cut_height)} into" in d.image.tooltip
    assert f"CPCC = {fmt(float(d.model.cpcc))}" in d.image.tooltip


def test_lecture_mode_is_on_by_default_under_voila_only(monkeypatch):
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")      # what Voila 0.5 sets
    assert SilhouetteExplorer(n_samples=40).lecture is True
    assert SilhouetteExplorer(n_samples=40, lecture=False).lecture is False
    monkeypatch.setenv("SERVER_SOFTWARE", "gunicorn/21")
    assert SilhouetteExplorer(n_samples=40).lecture is False
    monkeypatch.delenv("SERVER_SOFTWARE")
    app = SilhouetteExplorer(n_samples=40)
    assert app.lecture is False and app.model.lecture is False
    with pytest.raises(TypeError, match="^lecture: expected True or False"):
        SilhouetteExplorer(lecture="yes")


@pytest.mark.parametrize("cls, params", APPS)
def test_sliders_take_at_most_a_hundred_keyboard_steps(cls, params):
    import ipywidgets as W

    app = cls(**params)
    for control in app.controls.values():
        if isinstance(control, (W.IntSlider, W.FloatSlider)):
            assert (control.max - control.min) / control.step <= 100, control.description


@pytest.mark.parametrize("change", [("seed", 3), ("linkage", "complete"), ("n_samples", 60)])
def test_cut_height_moves_a_fiftieth_of_the_tree_per_key(change):
    app = DendrogramExplorer(n_samples=30)
    app.control(change[0]).value = change[1]
    cut = app.control("cut height")
    top = float(app.model.tree.heights[-1])
    assert cut.step == pytest.approx(top / 50)
    assert cut.max >= top


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_the_apps_distances_are_exactly_symmetric_euclidean(name):
    # The dendrogram explorer builds its trees of them without validating them.
    from prayatul_edu.widgets.data import dataset, distances

    data = (name, 120, 0.05, 3)
    D = distances(data)
    X, _ = dataset(*data)
    np.testing.assert_array_equal(D, D.T)
    assert not np.diagonal(D).any() and not D.flags.writeable
    np.testing.assert_allclose(D, cdist(X, X), rtol=1e-14, atol=1e-14)


# ------------------------------------------------------------ chance explorer
def test_chance_null_values_are_the_librarys_measures_on_the_shuffled_labels():
    from prayatul_edu.significance import random_tables
    from prayatul_edu.widgets.chance_explorer import MEASURES, measures_of_tables, null_values

    rng = np.random.default_rng(5)
    truth, pred = rng.integers(0, 3, 60), rng.integers(0, 4, 60)
    tables = random_tables(np.bincount(pred), np.bincount(truth), 25, np.random.default_rng(11))
    emi = pe.adjusted_mutual_information(truth, pred).emi          # E[I], in bits
    values = measures_of_tables(tables, 60, emi)
    for b, table in enumerate(tables):
        t, p = pe.labels_from_table(table)                # labels with exactly this table
        assert sorted(np.bincount(p)[np.bincount(p) > 0]) == sorted(np.bincount(pred))
        for name, f in MEASURES.items():
            assert abs(values[name][b] - float(f(t, p))) < 1e-9, (name, b)
    again = null_values(truth, pred, 25, np.random.default_rng(11))
    assert all(np.array_equal(again[name], values[name]) for name in MEASURES)


def test_chance_model_p_values_and_chance_levels():
    m = ChanceModel(n_samples=100, classes=3, k=3, agreement=1.0)
    # the clustering is the classes: no shuffling does as well, p = 1 / (1 + 999)
    assert float(m.observed["ARI"]) == 1.0 and m.p_values["ARI"] == 1 / 1000
    assert m.p_values["Rand"] == 1 / 1000
    m.set(agreement=0.0, seed=4)
    assert m.p_values["ARI"] > 0.05 and abs(float(m.null["ARI"].mean())) < 0.01
    # as k grows a random labeling's Rand and purity climb, its ARI and AMI stay at 0
    climb = m.climb
    assert climb["Rand"][-1] > climb["Rand"][0] + 0.1
    assert climb["purity"][-1] > climb["purity"][0] + 0.1
    assert np.abs(climb["ARI"]).max() < 0.02 and np.abs(climb["AMI"]).max() < 0.02
    assert climb["NMI"][-1] > climb["NMI"][0] + 0.05
    # the p-value counts the shufflings at least as good as the observed value
    for name, null in m.null.items():
        observed = float(m.observed[name])
        assert m.p_values[name] == (1 + int((null >= observed - 1e-12).sum())) / 1000
    assert "p-value" in m.summary() and m.describe_figure().startswith("Left: histogram of ARI")


def test_chance_figure_legend_reads_on_a_projector():
    """The right panel's legend names every measure in 10 pt or more, inside the figure."""
    from prayatul_edu.widgets.chance_explorer import MEASURES

    m = ChanceModel()
    fig = m.figure()
    legend = fig.axes[1].get_legend()
    texts = legend.get_texts()
    assert sorted(t.get_text() for t in texts) == sorted(MEASURES)
    assert min(t.get_fontsize() for t in texts) >= 10
    fig.canvas.draw()
    box, frame = legend.get_window_extent(), fig.bbox
    assert box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y1 <= frame.y1


def test_chance_model_class_sizes_follow_the_imbalance():
    m = ChanceModel(n_samples=200, classes=4, imbalance=0.6)
    sizes = np.bincount(m.truth)
    assert sizes.tolist() == [140, 20, 20, 20] and sizes.sum() == 200
    m.set(imbalance=0.0)
    assert np.bincount(m.truth).tolist() == [50, 50, 50, 50]


@pytest.mark.parametrize("change, message", [
    ({"k": 1}, "^k: must be between 2 and 20"), ({"imbalance": 0.95}, "^imbalance: must be"),
    ({"agreement": "half"}, "^agreement: "), ({"measure": "F"}, "^measure: "),
    ({"n_samples": 10}, "^n_samples: must be between 20 and 2000")])
def test_chance_model_bad_values_name_the_parameter_and_change_nothing(change, message):
    m = ChanceModel()
    before = m.summary()
    with pytest.raises((TypeError, ValueError), match=message):
        m.set(**change)
    assert m.summary() == before
