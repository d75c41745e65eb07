"""The saved notebooks are product: clean, complete and in order.

nbval checks that re-running a notebook reproduces its saved outputs; these
tests check what nbval does not: that the saved files were made the way
``scripts/execute_notebooks.py`` makes them (the state of every widget an output
shows, so the documentation site draws the apps; execution counts 1, 2, 3 ... with
no gaps, every code cell run) and that no figure was lost (a kernel started with
``MPLBACKEND=Agg`` silently draws nothing).
"""
import base64
import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAVED = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
IDS = [f"{p.parent.name}/{p.name}" for p in SAVED]


def _code_cells(path):
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def test_there_are_notebooks():
    names = {p.name for p in SAVED}
    for n in range(10):                 # 00_start_here to 09_choosing_k
        assert any(name.startswith(f"0{n}_") for name in names if name in
                   {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}), f"notebook 0{n}_ missing"


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _views(nb) -> list:
    return [out["data"][WIDGET_VIEW]["model_id"] for cell in nb.cells
            for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]


def _references(state: dict) -> set:
    text = json.dumps(state)
    return set(re.findall(r'"IPY_MODEL_([0-9a-f]+)"', text))


@pytest.mark.parametrize("path", SAVED, ids=IDS)
def test_saved_with_the_state_of_the_widgets_it_shows(path):
    """Every widget an output shows is in the saved state, with every widget it refers
    to (a box's children, a layout), and nothing else; an app's figure is an Image
    model with its PNG (what the site's widget manager draws)."""
    nb = nbformat.read(path, as_version=4)
    views = _views(nb)
    if not views:
        assert "widgets" not in nb.metadata, "widget state saved, but no output shows one"
        return
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    assert set(views) <= set(state), "an output shows a widget whose state was not saved"
    for model_id, model in state.items():
        assert _references(model["state"]) <= set(state), f"{model_id} refers to a missing one"
    reachable, todo = set(), list(views)
    while todo:
        model_id = todo.pop()
        if model_id not in reachable:
            reachable.add(model_id)
            todo += _references(state[model_id]["state"])
    assert reachable == set(state), "saved state of widgets no output shows"
    if any("Explorer(" in c.source for c in nb.cells if c.cell_type == "code"):
        images = [m for m in state.values() if m["model_name"] == "ImageModel"]
        assert images, "an app saved without its figure"
        for image in images:
            png = base64.b64decode(image["buffers"][0]["data"])
            assert image["buffers"][0]["path"] == ["value"] and png.startswith(b"\x89PNG")
            assert image["state"]["format"] == "png" and len(png) > 2000


@pytest.mark.parametrize("path", SAVED, ids=IDS)
def test_saved_in_order(path):
    nb = nbformat.read(path, as_version=4)
    counts = [c.execution_count for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert counts == list(range(1, len(counts) + 1)), "not run top to bottom in one go"
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", "a saved cell raised"


@pytest.mark.parametrize("path", SAVED, ids=IDS)
def test_figures_are_saved(path):
    for cell in _code_cells(path):
        # A cell that calls one of the course's plot functions, or pyplot, draws a figure.
        shows = "plt.show()" in cell.source or "plot_" in cell.source.replace("import plot_", "")
        if shows:
            kinds = {k for out in cell.outputs for k in out.get("data", {})}
            assert "image/png" in kinds, f"cell {cell.source[:60]!r} draws but saved no image"


def _figures(path):
    for cell in _code_cells(path):
        for out in cell.outputs:
            if "image/png" in out.get("data", {}):
                yield cell, out


@pytest.mark.parametrize("path", SAVED, ids=IDS)
def test_every_saved_figure_has_alt_text(path):
    """A figure a screen reader can read: its description is in the output's metadata
    (nbconvert writes it as the image's alt attribute) and in its plain text."""
    for cell, out in _figures(path):
        alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
        assert len(alt) >= 60, f"cell {cell.source[:60]!r}: a figure without alt text"
        assert out["data"]["text/plain"] == f"Figure: {alt}"
        assert "<Figure size" not in alt


def test_alt_text_reaches_the_published_html():
    """The course's HTML export (nbconvert, classic template: the one that reads the alt
    metadata) gives each figure its description as alt."""
    import html

    nbconvert = pytest.importorskip("nbconvert")
    path = ROOT / "notebooks" / "05_hierarchy.ipynb"
    alts = [out["metadata"]["image/png"]["alt"] for _, out in _figures(path)]
    assert len(alts) == 2
    body, _ = nbconvert.HTMLExporter(template_name="classic").from_filename(str(path))
    for alt in alts:
        assert f'alt="{html.escape(alt)}"' in body or f'alt="{alt}"' in body


def test_execute_script_keeps_the_shown_widgets_state_by_default():
    """scripts/execute_notebooks.py saves widget state unless told not to, keeping the
    widgets an output shows and those they refer to, and no other; a layout without its
    unset properties; a stream's consecutive prints as one output."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "execute_notebooks", ROOT / "scripts" / "execute_notebooks.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    def model(name, **state):
        return {"model_name": name, "model_module": "@jupyter-widgets/controls",
                "model_module_version": "2.0.0", "state": state}

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("app", execution_count=7, outputs=[
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "box"}}),
        nbformat.v4.new_output("stream", name="stdout", text="a\n"),
        nbformat.v4.new_output("stream", name="stdout", text="b\n"),
        nbformat.v4.new_output("stream", name="stderr", text="c\n")])]
    nb.metadata["widgets"] = {WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": {
        "box": model("VBoxModel", children=["IPY_MODEL_img"], layout="IPY_MODEL_lay"),
        "img": model("ImageModel", format="png", layout="IPY_MODEL_lay2"),
        "lay": model("LayoutModel", width="10px", height=None),
        "lay2": model("LayoutModel", width=None),
        "old": model("ImageModel", format="png")}}}   # replaced while the notebook ran
    nb.metadata["widgets"][WIDGET_STATE]["state"]["box"]["state"]["children"].append(
        "IPY_MODEL_out")
    nb.metadata["widgets"][WIDGET_STATE]["state"]["out"] = model("OutputModel", outputs=[
        {"output_type": "display_data", "metadata": {},
         "data": {"text/markdown": "**Purity** = $5/10$", "text/plain": "Purity = 5/10"}}])
    script.clean(nb)
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    assert set(state) == {"box", "img", "lay", "lay2", "out"}
    # a reveal's Markdown also as HTML (the site's widget manager renders no Markdown)
    html = state["out"]["state"]["outputs"][0]["data"]["text/html"]
    assert "<strong>Purity</strong>" in html and "\\(5/10\\)" in html
    assert state["lay"]["state"] == {"width": "10px"} and state["lay2"]["state"] == {}
    outputs = nb.cells[0].outputs
    assert [o.get("text") for o in outputs[1:]] == ["a\nb\n", "c\n"]
    assert nb.cells[0].execution_count == 1
    script.clean(nb, widget_state=False)
    assert "widgets" not in nb.metadata
    # the command line: state by default, none with --no-widget-state
    asked = []
    script.execute = lambda path, timeout, widget_state: asked.append(widget_state) or 0.0
    target = str(SAVED[0])
    assert script.main([target]) == 0 and script.main(["--no-widget-state", target]) == 0
    assert asked == [True, False]


def test_execute_script_runs_the_kernel_with_one_thread_per_pool(tmp_path, monkeypatch):
    """A re-executed notebook's kernel has one thread per native pool (as the tests have),
    unless the caller set another number."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "execute_notebooks", ROOT / "scripts" / "execute_notebooks.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for pool in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(pool, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    path = tmp_path / "threads.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import os\nprint([os.environ.get(p) for p in "
        "('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS')])")]
    nbformat.write(nb, path)
    script.execute(path, timeout=60, widget_state=False)
    out = nbformat.read(path, as_version=4).cells[0].outputs[0]["text"]
    assert out.strip() == "['1', '1', '3']"
