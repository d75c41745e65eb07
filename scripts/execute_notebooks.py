#!/usr/bin/env python3
"""Re-execute notebooks top to bottom and save them, so saved outputs never go stale.

    python scripts/execute_notebooks.py                 # notebooks/ and solutions/
    python scripts/execute_notebooks.py notebooks/03_pair_counting.ipynb

Each notebook runs in a fresh kernel from its own folder. Before saving, the
execution noise is cleared so that a re-run changes nothing that does not matter:
no widget state in the notebook metadata, no per-cell timing metadata, execution
counts renumbered 1, 2, 3 ... in order. Outputs are kept: nbval compares them.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FOLDERS = ["notebooks", "solutions"]


def clean(nb) -> None:
    """Drop widget state and timing metadata; renumber execution counts."""
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
        if cell.get("execution_count") is not None or cell.outputs:
            count += 1
            cell.execution_count = count
            for out in cell.outputs:
                if "execution_count" in out:
                    out["execution_count"] = count
        else:
            cell.execution_count = None


def execute(path: Path, timeout: int = 600) -> float:
    import os

    import nbformat
    from nbclient import NotebookClient

    # The kernel must draw with the inline backend so the saved notebook keeps its
    # figures; an inherited MPLBACKEND=Agg would silently drop them.
    os.environ.pop("MPLBACKEND", None)

    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    clean(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="notebooks or folders (default: "
                        + ", ".join(DEFAULT_FOLDERS) + ")")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
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
        print(f"{execute(nb.resolve(), args.timeout):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
