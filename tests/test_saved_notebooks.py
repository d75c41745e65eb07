"""The saved notebooks are product: clean, complete and in order.

nbval checks that re-running a notebook reproduces its saved outputs; these
tests check what nbval does not: that the saved files were made the way
``scripts/execute_notebooks.py`` makes them (no widget state, execution counts
1, 2, 3 ... with no gaps, every code cell run) and that no figure was lost
(a kernel started with ``MPLBACKEND=Agg`` silently draws nothing).
"""
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


@pytest.mark.parametrize("path", SAVED, ids=IDS)
def test_saved_without_widget_state_and_in_order(path):
    nb = nbformat.read(path, as_version=4)
    assert "widgets" not in nb.metadata, "saved with widget state"
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
