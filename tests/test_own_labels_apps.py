"""The contingency and Prayatul explorers on a lecturer's own labels (pasted or uploaded,
columns chosen in the app), and their "reveal step by step" toggle."""
import matplotlib

matplotlib.use("Agg")

from datetime import datetime, timezone  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn import metrics  # noqa: E402

import prayatul_edu as pe  # noqa: E402
from prayatul_edu.widgets import ContingencyExplorer, PrayatulExplorer, PrayatulModel  # noqa: E402
from prayatul_edu.widgets.label_source import LabelSource  # noqa: E402


def _table(seed: int, n: int = 40) -> tuple[str, dict]:
    rng = np.random.default_rng(seed)
    cols = {"class": rng.choice(["setosa", "virginica", "versicolor"], n),
            "kmeans": rng.integers(0, 4, n), "dbscan": rng.integers(-1, 3, n),
            "agglo": rng.integers(0, 3, n)}
    lines = [",".join(cols)] + [",".join(str(cols[c][i]) for c in cols) for i in range(n)]
    return "\n".join(lines) + "\n", cols


def _upload(text: str, name: str):
    return ({"name": name, "type": "text/csv", "size": len(text), "content": text.encode(),
             "last_modified": datetime(2026, 1, 5, tzinfo=timezone.utc)},)


# ------------------------------------------------------ contingency explorer
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_contingency_explorer_on_pasted_labels_equals_the_library(seed):
    text, cols = _table(seed)
    app = ContingencyExplorer()
    app.control("edit").value = "own labels"
    assert app.own.widget.layout.display is None
    assert app.control("classes (truth)").layout.display == "none"
    app.own.text.value = text
    app.own.dropdowns["truth"].value = "class"
    app.own.dropdowns["pred"].value = "agglo"
    truth, pred = cols["class"], cols["agglo"]
    values = app.model.values()
    assert values["purity"] == pe.purity(truth, pred)
    assert values["F-measure"] == pe.f_measure(truth, pred)
    assert values["clustering error"] == pe.clustering_error(truth, pred)
    assert np.isclose(values["NMI (geometric mean)"], metrics.normalized_mutual_info_score(
        truth, pred, average_method="geometric"))
    np.testing.assert_array_equal(app.model.results["contingency table"].counts,
                                  pe.contingency_table(truth, pred).counts)
    assert f"{len(truth)} instances" in app.numbers.value and app.message.value == ""


def test_contingency_explorer_reads_an_uploaded_file_and_keeps_the_typed_boxes():
    text, cols = _table(5)
    app = ContingencyExplorer()
    typed = app.model.params["truth"]
    app.control("edit").value = "own labels"
    app.own.file.value = _upload(text.replace(",", "\t"), "course.tsv")
    app.own.dropdowns["pred"].value = "dbscan"
    assert app.model.params["own"].where == "course.tsv"
    assert app.model.values()["purity"] == pe.purity(cols["class"], cols["dbscan"])
    assert "N = 40 instances from course.tsv; truth (class): 3 labels, pred (dbscan): " \
           f"{len(set(cols['dbscan']))} labels" == app.own.info.value
    app.control("edit").value = "labels"                  # back to the typed labels
    assert app.model.params["truth"] == typed
    assert app.model.values()["purity"] == 0.5 and app.own.widget.layout.display == "none"


def test_contingency_explorer_says_what_is_missing_before_labels_are_loaded():
    app = ContingencyExplorer()
    app.control("edit").value = "own labels"
    # in the page's words: the panel is called "own labels", the box "paste labels" (above)
    assert "own labels: no labels yet; paste a table into the box" in app.message.value
    assert "below" not in app.message.value
    assert app.own.widget.layout.display is None           # the panel to do it is shown
    app.own.text.value = "truth: a a b b\npred: 1 2 2"
    assert "&#x27;pred&#x27; has 3 labels but &#x27;truth&#x27; has 4" in app.own.error.value
    assert app.model.params["mode"] == "labels"            # nothing changed
    app.own.text.value = "truth: a a b b\npred: 1 2 2 2"
    assert app.model.params["mode"] == "own labels" and app.message.value == ""
    assert app.model.values()["purity"] == 0.75


@pytest.mark.parametrize("cls, control, rows", [
    (PrayatulExplorer, "labels from", "truth: 0 0 1 1 2\nkm: 0 1 1 1 2\ndb: 0 0 1 2 2"),
    (ContingencyExplorer, "edit", "truth: 0 0 1 1 2\nkm: 0 1 1 1 2")])
def test_own_labels_chosen_before_loading_show_no_figure_of_other_data(cls, control, rows):
    """Choosing "own labels" with none loaded left the toy figure and its numbers on the
    screen, as if they were the lecturer's: now neither shows until labels are loaded,
    and the message says what to do; going back shows the figure again."""
    app = cls(lecture=True)
    shown = [app.image, app.numbers, app.steps.widget]
    app.control(control).value = "own labels"
    assert [w.layout.display for w in shown] == ["none"] * 3
    assert "own labels: no labels yet" in app.message.value
    app.own.text.value = rows                             # loaded: the figure is theirs
    assert [w.layout.display for w in shown] == [None] * 3
    assert app.message.value == "" and "5 instances" in app.image.tooltip
    app.control(control).value = app.control(control).options[0]
    assert [w.layout.display for w in shown] == [None] * 3
    fresh = cls(lecture=True)
    fresh.control(control).value = "own labels"
    fresh.control(control).value = fresh.control(control).options[0]   # back, none loaded
    assert [w.layout.display for w in (fresh.image, fresh.numbers, fresh.steps.widget)] \
        == [None] * 3 and fresh.message.value == ""


def test_contingency_reveal_shows_the_chosen_derivation_step_by_step():
    app = ContingencyExplorer()
    assert "<pre" in app.numbers.value                     # the whole derivation, as before
    app.steps.toggle.value = True
    assert "<pre" not in app.numbers.value                 # not given away beside the table
    shown = app.steps.reveal.state
    assert shown.full.to_text() == app.model.results["purity"].explain()
    assert shown.counter() == f"step 1 of {shown.total}"
    app.steps.reveal.press("next")
    app.control("derivation of").value = "maximum matching"
    shown = app.steps.reveal.state
    assert shown.full.to_text() == app.model.results["maximum matching"].explain()
    assert shown.shown == 1                                # another measure starts again
    app.steps.toggle.value = False
    assert "<pre" in app.numbers.value


# --------------------------------------------------------- Prayatul explorer
@pytest.mark.parametrize("seed", [0, 3])
def test_prayatul_explorer_on_own_labels_equals_the_library(seed):
    text, cols = _table(seed, n=30)
    app = PrayatulExplorer(n_samples=100)
    app.control("labels from").value = "own labels"
    hidden = [n for n, c in app.controls.items() if c.layout.display == "none"]
    assert hidden == [n for n in app.controls if n != "source"]
    app.own.text.value = text
    for role, name in (("truth", "class"), ("primary", "kmeans"), ("alternative", "dbscan")):
        app.own.dropdowns[role].value = name
    m = app.model
    truth, a, b = cols["class"], cols["kmeans"], cols["dbscan"]
    expected = pe.prayatul_matrix(truth, a, b)
    assert (m.matrix.br, m.matrix.rw, m.matrix.wr, m.matrix.bw) == (
        expected.br, expected.rw, expected.wr, expected.bw)
    assert m.matrix.comparative_deviation == expected.comparative_deviation
    np.testing.assert_array_equal(m.by_instance, pe.prayatul_by_instance(truth, a, b))
    assert np.isclose(m.scores["primary"]["ARI"], metrics.adjusted_rand_score(truth, a))
    assert np.isclose(m.scores["alternative"]["NMI"], metrics.normalized_mutual_info_score(
        truth, b, average_method="geometric"))
    assert m.X is None and m.name("primary") == "column kmeans"
    assert m.summary().startswith("Prayatul explorer: own labels from the pasted text "
                                  "(truth: column class), 30 instances; primary column kmeans")
    # no points to scatter: the balance of each instance beside the matrix
    balance_ax, matrix_ax = app._figure.axes
    counts = m.by_instance
    assert np.allclose([bar.get_height() for bar in balance_ax.patches],
                       (counts[:, 1] - counts[:, 2]) / 29)
    assert matrix_ax.texts[0].get_text().split("\n")[:2] == ["BR", str(expected.br)]
    assert app.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    app.control("labels from").value = "toy data"         # back to the points
    assert len(app._figure.axes) == 5 and app.model.X.shape == (100, 2)
    assert app.control("points").layout.display is None
    assert app.control("primary k").layout.display is None          # KMeans: k, not eps
    assert app.control("alternative k").layout.display == "none"    # DBSCAN: eps, not k
    assert app.control("alternative eps").layout.display is None


def test_prayatul_model_refuses_own_labels_of_the_wrong_shape_by_name():
    own2 = LabelSource(("truth", "pred")).paste("truth: 1 1 2\npred: 1 2 2").chosen()
    with pytest.raises(ValueError, match="^own: expected the labellings truth, primary, "
                                         "alternative, got truth, pred"):
        PrayatulModel(source="own labels", own=own2)
    with pytest.raises(TypeError, match="^own: expected the labels of a LabelSource"):
        PrayatulModel(own={"truth": [1, 2]})
    with pytest.raises(ValueError, match="^own: no labels yet"):
        PrayatulModel(source="own labels")
    with pytest.raises(ValueError, match="^source: "):
        PrayatulModel(source="my file")


def test_prayatul_reveal_builds_up_the_matrix_derivation():
    app = PrayatulExplorer(n_samples=60)
    app.steps.toggle.value = True
    state = app.steps.reveal.state
    assert state.full.to_text() == app.model.matrix.explain()
    app.steps.reveal.press("all")
    (out,) = app.steps.reveal.output.outputs
    assert out["data"]["text/markdown"] == app.model.matrix.derivation().to_markdown()


def test_prayatul_reveal_does_not_give_the_measures_away_beside_it():
    """With the reveal on, the five measures come step by step in the reveal, not all at
    once beside it (as the contingency explorer does with its derivation); the scores
    against the truth stay."""
    app = PrayatulExplorer(n_samples=60)
    assert "The five measures" in app.numbers.value
    app.steps.toggle.value = True
    assert "The five measures" not in app.numbers.value
    assert "Each against the truth" in app.numbers.value
    app.steps.toggle.value = False
    assert "The five measures" in app.numbers.value


@pytest.mark.parametrize("cls, roles", [(PrayatulExplorer, "truth: 0 0 1 1 2\nkm: 0 1 1 1 2\ndb: 0 0 1 2 2"),
                                        (ContingencyExplorer, "truth: 0 0 1 1 2\nkm: 0 1 1 1 2")])
def test_own_labels_in_lecture_mode_keep_16_pt_text(cls, roles):
    app = cls(lecture=True)
    app.control("labels from" if cls is PrayatulExplorer else "edit").value = "own labels"
    app.own.text.value = roles
    assert app.own.error.value == "" and app.message.value == ""
    texts = [t for ax in app._figure.axes
             for t in (*ax.texts, ax.title, ax.xaxis.label, ax.yaxis.label,
                       *ax.get_xticklabels(), *ax.get_yticklabels()) if t.get_text()]
    assert texts and min(t.get_fontsize() for t in texts) >= 16
    if cls is PrayatulExplorer:
        assert len(app._figure.axes) == 2 and app.model.matrix.n_pairs == 10
        assert app.image.tooltip.startswith("Two panels on the lecturer's own labels (5 instances)")
