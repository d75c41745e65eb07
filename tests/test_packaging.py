"""The project's promises about itself: dependencies in sync, a light import, the CLI."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ ;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _without_extras(requirement: str) -> str:
    """conda has no extras: conda-forge's ``dask`` is pip's ``dask[dataframe,distributed]``."""
    return re.sub(r"\[[^\]]*\]", "", requirement)


def _pyproject_requirements():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    reqs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        reqs += extra
    return {_name(r): _without_extras(r).replace(" ", "") for r in reqs}


#: conda-forge's names of packages that pip knows by another name
_PIP_NAMES = {"python-isal": "isal"}


def _environment_requirements():
    deps, in_deps = {}, False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
            continue
        m = re.match(r"^  - (\S.*)$", line)  # top-level entries only, not pip's
        if in_deps and m and not m.group(1).endswith(":"):
            name, requirement = _name(m.group(1)), m.group(1).replace(" ", "")
            if name in _PIP_NAMES:
                name, requirement = _PIP_NAMES[name], _PIP_NAMES[name] + requirement[len(name):]
            deps[name] = requirement
    deps.pop("python", None)
    deps.pop("pip", None)
    return deps


def test_environment_yml_matches_pyproject():
    """conda and pip users must get the same dependencies, with the same bounds."""
    assert _environment_requirements() == _pyproject_requirements()


def test_python_requirement_agrees():
    text = (ROOT / "environment.yml").read_text()
    assert "python>=3.10" in text
    assert 'requires-python = ">=3.10"' in (ROOT / "pyproject.toml").read_text()


def test_import_is_light():
    """`import prayatul_edu` pulls in NumPy only - not SciPy, scikit-learn, matplotlib, widgets."""
    code = ("import sys, prayatul_edu; "
            "heavy = [m for m in ('matplotlib', 'ipywidgets', 'sklearn', 'scipy', 'pandas') "
            "if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_api_names():
    """Every name in ``__all__`` exists; every public function is documented with an example
    (found from ``__all__``, so a newly added measure is checked without editing this test)."""
    import inspect

    import prayatul_edu

    assert len(prayatul_edu.__all__) == len(set(prayatul_edu.__all__))
    for name in prayatul_edu.__all__:
        obj = getattr(prayatul_edu, name)
        if inspect.isfunction(obj):
            doc = inspect.getdoc(obj) or ""
            assert ">>> " in doc, f"{name}: its docstring has no runnable example"
            assert obj.__module__.startswith("prayatul_edu."), name
    # the measures of the course, by name (a rename would break notebooks and exercises)
    assert {"prayatul_matrix", "purity", "normalized_mutual_information",
            "adjusted_rand_index", "silhouette", "agglomerative",
            "cophenetic_correlation"} <= set(prayatul_edu.__all__)


def test_examples_print_the_worked_examples():
    out = subprocess.run([sys.executable, "-m", "prayatul_edu", "examples"], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    text = out.stdout
    # Tutorial Exercise 1 (silhouette) with the exact value the seed truncates.
    assert "Exercise 1" in text and "0.8462" in text and "cut after 4 decimals" in text
    # Exercise 3: f00 = 8, f11 = 2, Rand = Jaccard = 1; Exercise 4: CPCC 0.7978.
    assert "Exercise 3" in text and "Exercise 4" in text and "0.7978" in text
    # Lecture: purity 1250/1550 and maximum matching 1200/1550.
    assert "1250 / 1550" in text and "1200 / 1550" in text
    assert out.stderr == ""


def test_cli_help_and_unknown_command():
    ok = subprocess.run([sys.executable, "-m", "prayatul_edu", "--help"], capture_output=True,
                        text=True, cwd=ROOT)
    assert ok.returncode == 0 and "examples" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "prayatul_edu", "frobnicate"],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_readme_commands_are_the_ones_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 dev.py test" in readme and "python3 dev.py test" in ci
    assert "python3 dev.py start" in readme


def test_license_in_todays_form():
    """project.license as an SPDX expression with license-files (PEP 639), which
    setuptools reads from version 77 on (a TOML table is deprecated): the build
    requirement says so, and the licence file exists and is the MIT text."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"
    files = data["project"]["license-files"]
    assert files and all((ROOT / f).is_file() for f in files)
    assert "Permission is hereby granted, free of charge" in (ROOT / files[0]).read_text()
    setuptools = [r for r in data["build-system"]["requires"] if _name(r) == "setuptools"]
    bound = re.search(r">=\s*(\d+)", setuptools[0])
    assert bound and int(bound.group(1)) >= 77, setuptools
