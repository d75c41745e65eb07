"""The package's imports run one way: cli -> paper -> compare -> measures -> core.

``plots`` and ``widgets`` depend on the measures, never the reverse; nothing imports
the command line; there is no import cycle; and an import of the package's own code
never hides inside a function (only heavy third-party libraries - scikit-learn, SciPy,
matplotlib, ipywidgets, nbclient, dask - are imported where they are used).
The graph is read from the source (every import statement, also those in functions).
"""
import ast
import functools
from pathlib import Path

import pytest
import walk  # tests/walk.py: the run-time walk of a measure's labels

PACKAGE = Path(__file__).resolve().parents[1] / "prayatul_edu"

# The upper layers, and which of them each may use. Everything else is a measure or the
# core (validation, counting, derivations), which may use none of them.
UPPER = {"cli", "paper", "compare", "plots", "widgets", "exercises", "grading"}
MAY_USE = {
    "cli": UPPER - {"cli"},
    "paper": {"compare"},
    "compare": set(),
    "plots": {"compare"},              # the comparison figures draw compare's results
    "widgets": {"plots"},
    "exercises": set(),
    "grading": {"exercises"},
}


def _modules() -> dict:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _targets(module: str, node) -> list:
    is_package = MODULES[module].name == "__init__.py"
    package = module if is_package else module.rsplit(".", 1)[0]
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        names = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target
                 for a in node.names]
    return [n for n in names if n in MODULES and n != module]


@functools.cache
def _graph():
    """(module -> modules it imports, imports made inside functions): read when a test
    first asks, not at collection (every test worker collects every file)."""
    imports, nested = {}, []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_function = {id(n) for f in ast.walk(tree)
                       if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                       for n in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, node):
                    imports.setdefault(module, set()).add(target)
                    if id(node) in in_function:
                        nested.append(f"{module} -> {target} (line {node.lineno})")
    return imports, nested


def edges() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    return _graph()[0]


def inside() -> list[str]:
    """The package's imports made inside a function."""
    return _graph()[1]


def _layer(module: str) -> str:
    part = module.split(".")[1] if "." in module else ""
    if part == "__main__":                 # python -m prayatul_edu: the command line
        return "cli"
    return part if part in UPPER else "measures"


def test_the_graph_is_read():
    # A few edges everyone can check by opening the files.
    assert "prayatul_edu.counting" in edges()["prayatul_edu.prayatul"]
    assert "prayatul_edu.compare" in edges()["prayatul_edu.paper"]
    assert len(MODULES) > 40


def test_no_import_cycle():
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges().get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in MODULES:
        if v not in index:
            visit(v)
    assert cycles == [], f"import cycles: {cycles}"


def test_no_internal_import_inside_a_function():
    assert inside() == [], \
        "imports of the package inside functions:\n" + "\n".join(inside())


def test_layers_run_one_way():
    wrong = []
    for module, targets in edges().items():
        mine = _layer(module)
        for target in targets:
            theirs = _layer(target)
            if theirs == mine or theirs == "measures":
                continue
            if theirs not in MAY_USE.get(mine, set()):
                wrong.append(f"{module} ({mine}) -> {target} ({theirs})")
    assert wrong == [], "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_import_prayatul_edu_loads_no_upper_layer_and_no_heavy_library():
    import subprocess
    import sys

    code = ("import sys, prayatul_edu; print(sorted({m.split('.')[0] if not "
            "m.startswith('prayatul_edu') else m for m in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    for heavy in ("scipy", "sklearn", "matplotlib", "ipywidgets", "dask", "nbclient"):
        assert f"'{heavy}'" not in out
    for upper in ("cli", "paper", "compare", "plots", "widgets", "exercises", "grading"):
        assert f"'prayatul_edu.{upper}'" not in out


@pytest.mark.parametrize("module", ["prayatul_edu.tutorial", "prayatul_edu.compare",
                                    "prayatul_edu.grading", "prayatul_edu.paper"])
def test_library_modules_parse_no_arguments(module):
    source = MODULES[module].read_text(encoding="utf-8")
    assert "argparse" not in source and "add_argument(" not in source


def _private_names_imported() -> list:
    """``from <package module> import _name`` where ``_name`` is not a module (a private
    module such as ``_validation`` or ``exercises._base`` is a shared home, imported by
    design; a private function or constant belongs to the module that defines it)."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not _targets(module, node):
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and not any(t.endswith("." + alias.name)
                                       for t in _targets(module, node)):
                    found.append(f"{module} imports {alias.name} (line {node.lineno})")
    return found


def test_no_private_name_imported_from_another_module():
    assert _private_names_imported() == []


# The core, bottom up: what a measure does with its arguments, in this order.
#   check (_validation: argument checks) -> code (labels, with hashing and counting's
#   passes over plain arrays beneath it) -> count (counting) -> formula (the measure)
# Each core module may import only the core modules listed for it (below it), so data
# goes down once and nothing turns back up (tests/walk.py follows it at run time).
# A new kind of label goes into labels.py; counting sees plain arrays only.
CORE_MAY_USE = {
    "_validation": set(),
    "hashing": set(),
    "steps": set(),
    "dask_counts": set(),
    "counting": {"steps", "dask_counts"},
    "labels": {"_validation", "hashing", "counting"},
    "contingency": {"labels", "counting", "dask_counts"},
}


def test_the_core_runs_check_code_count():
    wrong = []
    for short, allowed in CORE_MAY_USE.items():
        for target in edges().get(f"prayatul_edu.{short}", ()):
            if target.split(".", 1)[1] not in allowed:
                wrong.append(f"prayatul_edu.{short} -> {target}")
    assert wrong == [], "imports against check -> code -> count:\n" + "\n".join(sorted(wrong))


def test_only_labels_codes_labels():
    # the coding strategies (and the hash tables beneath them) have one home
    users = sorted(m for m, targets in edges().items() if "prayatul_edu.hashing" in targets)
    assert users == ["prayatul_edu.labels"]
    source = MODULES["prayatul_edu._validation"].read_text(encoding="utf-8")
    assert "class Labels" not in source and "def check_labels" not in source


def test_counting_counts_plain_arrays():
    # counting takes codes (or small-range integers with their offset and span), never Labels
    tree = ast.parse(MODULES["prayatul_edu.counting"].read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not names & {"Labels", "check_labels", "check_partitions", "dense_form", "range_known"}
    assert "prayatul_edu.labels" not in edges()["prayatul_edu.counting"]


@pytest.mark.parametrize("kind", list(walk.kinds()))
def test_the_labels_of_a_measure_go_down_once(kind):
    """Follow ``truth`` and ``pred`` of ``adjusted_rand_index`` at run time (tests/walk.py):
    no call turns back up a layer, and the measure enters labels, then counting, once each."""
    from prayatul_edu import adjusted_rand_index

    truth, pred = walk.kinds()[kind]
    calls = walk.walk(adjusted_rand_index, truth, pred)
    s = walk.summary(calls)
    up = [call for call in calls if walk.rank(call[1]) > walk.rank(call[0])]
    assert up == [] and s["turns_up"] == 0
    assert s["sequence"] == ["labels", "counting"] and walk.passes_once(s["sequence"])
    assert {"pair_counting", "contingency", "labels", "counting"} <= set(s["modules"])


@pytest.mark.parametrize("measure", ["normalized_mutual_information", "purity",
                                     "contingency_table"])
@pytest.mark.parametrize("kind", ["small-range ints", "<U strings, many labels", "list of str"])
def test_other_measures_of_the_table_go_down_once_too(measure, kind):
    import prayatul_edu

    s = walk.summary(walk.walk(getattr(prayatul_edu, measure), *walk.kinds()[kind]))
    assert s["turns_up"] == 0 and walk.passes_once(s["sequence"])
    assert s["sequence"][-2:] == ["labels", "counting"]


def test_the_walk_sees_a_turn_back_up():
    # the tracer itself: a call from counting into labels is a turn back up, and a measure
    # that goes back to labels after counting does not pass through each module once
    assert walk.rank("counting") < walk.rank("labels") < walk.rank("pair_counting")
    assert walk.summary([("pair_counting", "labels"), ("counting", "labels")])["turns_up"] == 1
    assert not walk.passes_once(["labels", "counting", "labels"])
    assert not walk.passes_once(["counting", "labels"])
    assert walk.passes_once(["_validation", "labels", "counting"])
