"""The API reference has an example for every public function: each function in the
``__all__`` of a module docs/api.md documents has a numpydoc "Examples" section with at
least one ``>>>`` line (the doctests run them). No Sphinx build needed: the docstrings
are read from the modules themselves."""
from __future__ import annotations

import importlib
import inspect
import re

from docs_site import PUBLIC_MODULES

_SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}[ \t]*$", re.M)


def examples_of(doc: str | None) -> str | None:
    """The text of a numpydoc docstring's "Examples" section, None if it has none."""
    doc = inspect.cleandoc(doc or "")
    heads = list(_SECTION.finditer(doc))
    for i, head in enumerate(heads):
        if head.group(1).strip() == "Examples":
            end = heads[i + 1].start() if i + 1 < len(heads) else len(doc)
            return doc[head.end():end]
    return None


def has_example(doc: str | None) -> bool:
    """Whether a docstring's "Examples" section has a ``>>>`` line."""
    section = examples_of(doc)
    return section is not None and any(line.lstrip().startswith(">>>")
                                       for line in section.splitlines())


def public_functions() -> dict[str, object]:
    """Every public function (not class, constant or module) of the documented modules,
    by its dotted name, each once (where it is public first)."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(inspect.unwrap(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                found[f"{module_name}.{name}"] = obj
    return found


def test_the_check_tells_a_docstring_with_an_example_from_one_without():
    with_one = """Sum.

    Parameters
    ----------
    a : int

    Examples
    --------
    >>> 1 + 1
    2
    """
    prose_only = """Sum.

    Examples
    --------
    Call it with two numbers.

    Notes
    -----
    >>> 1 + 1
    2
    """
    assert has_example(with_one)
    assert not has_example(prose_only)            # the >>> belongs to Notes
    assert not has_example("Sum.\n\n>>> 1 + 1\n2\n")   # no Examples section
    assert not has_example(None)


def test_the_documented_modules_have_public_functions():
    functions = public_functions()
    # one from each kind of module, so an empty or wrong list cannot pass the test below
    for name in ("prayatul_edu.adjusted_rand_index", "prayatul_edu.compare.tournament",
                 "prayatul_edu.exercises.question", "prayatul_edu.plots.plot_prayatul_grid",
                 "prayatul_edu.grading.grade_batch", "prayatul_edu.widgets.reveal"):
        assert name in functions, name
    assert not any(inspect.isclass(f) for f in functions.values())


def test_every_public_function_has_an_example():
    missing = [name for name, function in public_functions().items()
               if not has_example(function.__doc__)]
    assert not missing, "public functions without an Examples section with >>>: " \
                        + ", ".join(missing)
