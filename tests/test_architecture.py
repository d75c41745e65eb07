"""The package's internal imports run one way, without cycles, and sit at module top.

The import graph is read from the source (AST, every ``import`` statement, also
those inside functions), so a cycle hidden by a function-level import is still
a cycle. Layers, from the top down::

    cli -> paper -> compare -> measures -> core
    grading -> exercises -> tutorial -> measures
    widgets -> plots -> measures
    widgets, exercises, compare -> data (toydata, paper_labels) -> core

Run as a script to print the graph as an adjacency list (with ``--root DIR`` for
another checkout's ``prayatul_edu`` folder).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = "prayatul_edu"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE

#: module (or package prefix) -> its layer. The longest matching prefix wins.
LAYER_OF = {
    "prayatul_edu._validation": "core", "prayatul_edu.counting": "core",
    "prayatul_edu.steps": "core", "prayatul_edu.label_files": "core",
    "prayatul_edu": "measures",          # the package's __init__ re-exports the measures
    "prayatul_edu.matching": "measures", "prayatul_edu.information": "measures",
    "prayatul_edu.pair_counting": "measures", "prayatul_edu.prayatul": "measures",
    "prayatul_edu.silhouette": "measures", "prayatul_edu.graph": "measures",
    "prayatul_edu.hierarchy": "measures",
    "prayatul_edu.toydata": "data", "prayatul_edu.paper_labels": "data",
    "prayatul_edu.tutorial": "tutorial",
    "prayatul_edu.plots": "plots",
    "prayatul_edu.widgets": "widgets",
    "prayatul_edu.compare": "compare",
    "prayatul_edu.paper": "paper",
    "prayatul_edu.exercises": "exercises",
    "prayatul_edu.grading": "grading",
    "prayatul_edu.cli": "cli",
    "prayatul_edu.__main__": "cli",
}
#: layer -> the layers it may import (besides itself).
MAY_IMPORT = {
    "core": set(),
    "measures": {"core"},
    "data": {"core"},
    "tutorial": {"measures", "core"},
    "plots": {"measures", "core"},
    "widgets": {"plots", "data", "measures", "core"},
    "compare": {"data", "measures", "core"},
    "paper": {"compare", "data", "measures", "core"},
    "exercises": {"tutorial", "data", "measures", "core"},
    "grading": {"exercises", "core"},
    "cli": {"grading", "paper", "compare", "plots", "tutorial", "exercises", "measures", "core",
            "data"},
}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _targets(node, here: str, is_package: bool, known) -> list[str]:
    """The internal modules an import statement loads (empty for third-party imports)."""
    if isinstance(node, ast.Import):
        candidates = [[a.name] for a in node.names]
    else:
        if node.level == 0:
            base = node.module or ""
        else:
            parts = here.split(".") if is_package else here.split(".")[:-1]
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + (node.module.split(".") if node.module else []))
        # ``from .. import purity``: purity is no module, so the package is imported
        candidates = [[f"{base}.{a.name}", base] for a in node.names]
    out = []
    for names in candidates:
        for name in names:
            if not (name == PACKAGE or name.startswith(PACKAGE + ".")):
                break
            while name not in known and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in known:
                if name not in out:
                    out.append(name)
                break
    return out


def import_graph(root: Path = ROOT) -> tuple[dict[str, set[str]], list[tuple[str, str, int]]]:
    """``(graph, inside)``: module -> modules it imports; internal imports inside functions."""
    known = modules(root)
    graph, inside = {m: set() for m in known}, []
    for mod, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"

        def visit(node, in_function):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in _targets(child, mod, is_package, known):
                        if target != mod:
                            graph[mod].add(target)
                            if in_function:
                                inside.append((mod, target, child.lineno))
                visit(child, in_function or isinstance(
                    child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(tree, False)
    return graph, inside


def layer(module: str) -> str:
    while module not in LAYER_OF:
        module = module.rsplit(".", 1)[0]
    return LAYER_OF[module]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def violations(graph: dict[str, set[str]]) -> list[str]:
    return [f"{a} ({layer(a)}) imports {b} ({layer(b)})"
            for a in sorted(graph) for b in sorted(graph[a])
            if layer(b) != layer(a) and layer(b) not in MAY_IMPORT[layer(a)]]


GRAPH, INSIDE = import_graph()

#: Modules whose owners are untangling them in parallel (issue 12: question kinds as
#: classes, widgets/_base.py split). Their findings are reported by
#: test_pending_modules_still_need_work, not failed on; the lead empties this when the
#: fixes are merged (that test then says which entries to drop).
PENDING = {"prayatul_edu.exercises._base", "prayatul_edu.exercises._data",
           "prayatul_edu.exercises.information", "prayatul_edu.exercises.pair_counting",
           "prayatul_edu.plots.pairs", "prayatul_edu.widgets._base",
           "prayatul_edu.widgets.contingency_explorer", "prayatul_edu.widgets.dendrogram_explorer",
           "prayatul_edu.widgets.pair_counting_explorer",
           "prayatul_edu.widgets.prayatul_explorer", "prayatul_edu.widgets.silhouette_explorer"}


def _findings(graph, inside) -> dict[str, list[str]]:
    """Every problem, keyed by the module that has to change."""
    out: dict[str, list[str]] = {}
    for component in cycles(graph):
        for m in component:
            out.setdefault(m, []).append("in the cycle " + " <-> ".join(component))
    for a in graph:
        for b in graph[a]:
            if layer(b) != layer(a) and layer(b) not in MAY_IMPORT[layer(a)]:
                out.setdefault(a, []).append(f"({layer(a)}) imports {b} ({layer(b)})")
    for a, b, line in inside:
        out.setdefault(a, []).append(f"line {line}: imports {b} inside a function")
    return out


FINDINGS = _findings(GRAPH, INSIDE)


# -- the checker checks (on small made-up packages) ---------------------------------
def _fake_package(tmp_path, files: dict[str, str]) -> Path:
    root = tmp_path / PACKAGE
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_checker_finds_a_cycle_hidden_in_a_function(tmp_path):
    root = _fake_package(tmp_path, {
        "compare.py": "from . import paper\n",
        "paper.py": "def f():\n    from .compare import tournament\n    return tournament\n",
        "steps.py": "import numpy\n"})
    graph, inside = import_graph(root)
    assert cycles(graph) == [["prayatul_edu.compare", "prayatul_edu.paper"]]
    assert inside == [("prayatul_edu.paper", "prayatul_edu.compare", 2)]
    assert graph["prayatul_edu.steps"] == set()      # third-party imports are not edges


def test_the_checker_flags_function_level_imports_but_not_third_party_ones(tmp_path):
    root = _fake_package(tmp_path, {
        "matching.py": "def f():\n    import scipy\n    from .counting import comb2\n",
        "counting.py": "class C:\n    def m(self):\n        from . import steps\n",
        "steps.py": ""})
    graph, inside = import_graph(root)
    assert sorted(inside) == [("prayatul_edu.counting", "prayatul_edu.steps", 3),
                              ("prayatul_edu.matching", "prayatul_edu.counting", 3)]
    assert set(_findings(graph, inside)) == {"prayatul_edu.counting", "prayatul_edu.matching"}


def test_the_checker_resolves_names_modules_and_layers(tmp_path):
    root = _fake_package(tmp_path, {
        "__init__.py": "from .matching import purity\n",
        "matching.py": "from ._validation import check_labels\nfrom .plots import x\n",
        "_validation.py": "", "plots/__init__.py": "from .. import purity\n",
        "plots/pairs.py": "from .._validation import check_labels\nfrom . import _style\n",
        "plots/_style.py": ""})
    graph, _ = import_graph(root)
    assert graph["prayatul_edu.plots"] == {"prayatul_edu"}                 # a name, not a module
    assert graph["prayatul_edu.plots.pairs"] == {"prayatul_edu._validation",
                                                 "prayatul_edu.plots._style"}
    assert violations(graph) == ["prayatul_edu.matching (measures) imports "
                                 "prayatul_edu.plots (plots)"]
    assert cycles(graph) == [["prayatul_edu", "prayatul_edu.matching", "prayatul_edu.plots"]]


# -- the package -------------------------------------------------------------------
def test_every_module_has_a_layer():
    assert {layer(m) for m in GRAPH} <= set(MAY_IMPORT)
    assert len(GRAPH) > 40   # the walk found the package


def _report(problems) -> str:
    return "\n".join(f"{m}: {p}" for m, ps in sorted(problems.items()) for p in ps)


def test_no_import_cycles():
    found = {m: [p for p in ps if p.startswith("in the cycle")]
             for m, ps in FINDINGS.items() if m not in PENDING}
    found = {m: ps for m, ps in found.items() if ps}
    assert not found, "import cycles:\n" + _report(found)


def test_imports_run_one_way():
    found = {m: [p for p in ps if p.startswith("(")]
             for m, ps in FINDINGS.items() if m not in PENDING}
    found = {m: ps for m, ps in found.items() if ps}
    assert not found, "imports against the layers:\n" + _report(found)


def test_no_internal_import_inside_a_function():
    """Imports inside functions are for heavy third-party libraries only."""
    found = {m: [p for p in ps if "inside a function" in p]
             for m, ps in FINDINGS.items() if m not in PENDING}
    found = {m: ps for m, ps in found.items() if ps}
    assert not found, "internal imports inside functions:\n" + _report(found)


def test_pending_modules_still_need_work():
    """A pending module that is clean now must leave PENDING (so it stays clean)."""
    assert PENDING <= set(GRAPH)
    clean = sorted(PENDING - set(FINDINGS))
    assert not clean, f"clean now, remove from PENDING: {clean}"


@pytest.mark.parametrize("layer_name", ["core", "measures"])
def test_the_core_and_measures_import_no_upper_layer(layer_name):
    above = {layer(b) for a, targets in GRAPH.items() if layer(a) == layer_name
             for b in targets}
    assert above <= {"core", layer_name}


def main(argv: list[str]) -> None:
    root = Path(argv[argv.index("--root") + 1]) if "--root" in argv else ROOT
    graph, inside = import_graph(root)
    short = lambda m: m[len(PACKAGE) + 1:] or "__init__"  # noqa: E731
    for mod in sorted(graph):
        print(f"{short(mod)} -> {', '.join(sorted(short(t) for t in graph[mod])) or '-'}")
    print(f"\n{len(graph)} modules, {sum(map(len, graph.values()))} arrows, "
          f"{len(inside)} internal imports inside functions")
    for c in cycles(graph):
        print("cycle:", " <-> ".join(short(m) for m in c))
    for v in violations(graph):
        print("layer:", v.replace(PACKAGE + ".", ""))


if __name__ == "__main__":
    main(sys.argv[1:])
