#!/usr/bin/env python3
"""Re-execute notebooks top to bottom and save them, so saved outputs never go stale.

    python scripts/execute_notebooks.py                 # notebooks/ and solutions/
    python scripts/execute_notebooks.py notebooks/03_pair_counting.ipynb

Each notebook runs in a fresh kernel from its own folder. The widgets' state is
saved with it (nbclient's ``store_widget_state``, the default; ``--no-widget-state``
leaves it out): the state of every app and ``reveal`` as it stands after its cell
ran, figure included, which the documentation site draws with the HTML widget
manager (myst-nb, no kernel), so a page shows each app where the lecture does.
Before saving, the execution noise is cleared so that a re-run changes nothing that
does not matter: no per-cell timing metadata, execution counts renumbered 1, 2, 3 ...
in order, a stream's consecutive prints as one output, only the widgets a saved
output shows (with the widgets they use; a layout without its unset properties).
Outputs are kept: nbval compares them (not the notebook's metadata, where the widget
state is).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FOLDERS = ["notebooks", "solutions"]


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def keep_shown_widgets(nb) -> None:
    """Keep in the saved widget state only the widgets an output shows, and those they
    refer to (children, layouts, styles): a widget that was replaced or closed while the
    notebook ran is drawn nowhere and would only make the file bigger."""
    saved = nb.metadata.get("widgets", {}).get(WIDGET_STATE)
    if not saved:
        nb.metadata.pop("widgets", None)
        return
    state = saved.get("state", {})
    todo = [out["data"][WIDGET_VIEW]["model_id"] for cell in nb.cells
            for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]
    keep = set()
    while todo:
        model_id = todo.pop()
        if model_id in keep or model_id not in state:
            continue
        keep.add(model_id)
        todo += _references(state[model_id].get("state", {}))
    saved["state"] = {k: v for k, v in state.items() if k in keep}
    for model in saved["state"].values():
        if model.get("model_name") == "LayoutModel":     # unset CSS properties: null
            model["state"] = {k: v for k, v in model["state"].items() if v is not None}
        if model.get("model_name") == "OutputModel":
            _markdown_as_html(model["state"].get("outputs", []))
    if not saved["state"]:
        nb.metadata.pop("widgets", None)


def _markdown_as_html(outputs: list) -> None:
    """Give an Output widget's Markdown (a reveal's steps) an HTML rendering too: the
    site's widget manager has no Markdown renderer and would show the source. Formulas
    stay LaTeX, between \\( \\) or \\[ \\], for MathJax. Needs markdown-it-py (the
    documentation extra); without it nothing is added."""
    try:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.dollarmath import dollarmath_plugin
    except ImportError:
        return
    import html

    def math(content, options):
        if options.get("display_mode"):
            return f'<div class="math">\\[{html.escape(content)}\\]</div>'
        return f'<span class="math">\\({html.escape(content)}\\)</span>'

    md = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin, renderer=math)
    for out in outputs:
        data = out.get("data", {})
        if "text/markdown" in data and "text/html" not in data:
            source = data["text/markdown"]
            data["text/html"] = md.render("".join(source) if isinstance(source, list)
                                          else source)


def _references(value) -> list:
    """The model ids a widget's state refers to ("IPY_MODEL_<id>"), at any depth."""
    if isinstance(value, str):
        return [value[len("IPY_MODEL_"):]] if value.startswith("IPY_MODEL_") else []
    if isinstance(value, dict):
        return [r for v in value.values() for r in _references(v)]
    if isinstance(value, (list, tuple)):
        return [r for v in value for r in _references(v)]
    return []


def clean(nb, widget_state: bool = True) -> None:
    """Keep the shown widgets' state (or none); drop timing metadata; renumber counts."""
    if widget_state:
        keep_shown_widgets(nb)
    else:
        nb.metadata.pop("widgets", None)
    nb.metadata.get("kernelspec", {}).update({"name": "python3", "display_name": "Python 3"})
    lang = nb.metadata.get("language_info", {})
    lang.pop("version", None)  # the Python patch version is noise between machines
    count = 0
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("ExecuteTime", None)
        if cell.cell_type != "code":
            continue
        cell.outputs = _merge_streams(cell.outputs)
        if cell.get("execution_count") is not None or cell.outputs:
            count += 1
            cell.execution_count = count
            for out in cell.outputs:
                if "execution_count" in out:
                    out["execution_count"] = count
        else:
            cell.execution_count = None


def _merge_streams(outputs: list) -> list:
    """Consecutive prints to one stream as one output: where the kernel cut its stdout
    in two depends on timing, not on the notebook."""
    merged = []
    for out in outputs:
        last = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and last is not None
                and last.get("output_type") == "stream" and last.get("name") == out.get("name")):
            text = lambda o: "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
            last["text"] = text(last) + text(out)
        else:
            merged.append(out)
    return merged


def execute(path: Path, timeout: int = 600, widget_state: bool = True) -> float:
    import os

    import nbformat
    from nbclient import NotebookClient

    # The kernel must draw with the inline backend so the saved notebook keeps its
    # figures; an inherited MPLBACKEND=Agg would silently drop them.
    os.environ.pop("MPLBACKEND", None)
    # One thread per native pool in the kernel, as in the tests (tests/conftest.py): a
    # saved output does not depend on how many threads added up a BLAS sum, and a busy
    # machine is not oversubscribed (notebook 09 took 461 s beside a test run, 10 s alone).
    for pool in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(pool, "1")

    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            store_widget_state=widget_state,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    clean(nb, widget_state)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="notebooks or folders (default: "
                        + ", ".join(DEFAULT_FOLDERS) + ")")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    parser.add_argument("--no-widget-state", dest="widget_state", action="store_false",
                        help="save no widget state (by default the state of the widgets "
                             "the outputs show is saved, for the documentation site)")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.paths] or [ROOT / f for f in DEFAULT_FOLDERS]
    notebooks = []
    for p in paths:
        if p.is_dir():
            notebooks += sorted(q for q in p.glob("*.ipynb") if ".ipynb_checkpoints" not in q.parts)
        elif p.suffix == ".ipynb" and p.exists():
            notebooks.append(p)
        else:
            print(f"not a notebook or folder: {p}", file=sys.stderr)
            return 2
    for k, nb in enumerate(notebooks, 1):
        print(f"[{k}/{len(notebooks)}] {nb.relative_to(ROOT) if nb.is_absolute() else nb} ...",
              end=" ", flush=True)
        print(f"{execute(nb.resolve(), args.timeout, args.widget_state):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
