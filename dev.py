#!/usr/bin/env python3
"""One entry point for people and CI: set up a local environment, then run.

    python3 dev.py start    # set up .venv and run the main job
    python3 dev.py test     # set up .venv and run every test (unit, property, notebook)
    python3 dev.py docs     # set up .venv and build the documentation site (build/docs/)
    python3 dev.py setup    # only set up .venv (install, or reinstall if pyproject.toml changed)

Only the standard library is used here, so this works on a fresh machine that
has nothing but Python and pip. The virtual environment lives in ``.venv``
next to this file; it is (re)installed only when ``pyproject.toml`` changed.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".prayatul-edu-installed"

# Every test: unit and property tests in tests/, notebooks checked by nbval.
# Doctests: every docstring Example in the library runs too.
# In parallel (pytest-xdist), one worker more than there are cores, each taking whole
# files, the longest first (FIRST in tests/conftest.py): a notebook's cells run in order in
# one kernel (nbval), a module's fixtures (the graded batch, the Dask cluster) are made
# once, and each browser test starts its own server on a free port.
# A test that hangs is stopped after TEST_LIMIT seconds (pytest-timeout; its stack and
# every thread's are printed, its worker replaced), so a run always ends with a report
# naming it; the slowest tests are listed at the end (--durations), since a run's time
# is what a clean machine's CI allows (the longest test here: about 110 s).
TEST_LIMIT = 1200
TEST_ARGS = ["-m", "pytest", "-n", "WORKERS", "--dist", "loadfile",
             "--nbval", "--nbval-current-env", "--doctest-modules",
             f"--timeout={TEST_LIMIT}", "--durations=25",
             "-p", "no:cacheprovider", "prayatul_edu", "tests", "notebooks", "solutions"]
TEST_PATHS = {"prayatul_edu", "tests", "notebooks", "solutions"}


def workers_for_tests() -> int:
    """Cores + 1. The suite keeps every core busy but also waits: for kernels to start,
    for a cell to overrun its time limit, for Voila's culler, for a page to load. One
    worker more fills those waits. Measured on 2 cores, runs in the order 3, 2, 2, 3:
    3 workers 3:50 and 4:15, 2 workers 4:33 and 4:43, the machine's CPU time no higher."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1

# The documentation site: Sphinx reads docs/conf.py; the source is the repository (the
# Markdown pages in docs/ and the notebooks); warnings are errors, every reference must
# resolve. tests/test_docs.py builds it with the same arguments.
DOCS_OUT = Path("build") / "docs"
DOCS_ARGS = ["-m", "sphinx", "-W", "-n", "--keep-going", "-q", "-b", "html", "-c", "docs",
             "."]

#: What the first run installs, for the message (pyproject.toml is the list itself)
INSTALLING = ("prayatul-edu with NumPy, SciPy, scikit-learn, matplotlib, JupyterLab, "
              "ipywidgets and nbclient; for the tests pytest, hypothesis, nbval, Voila, "
              "Playwright (it drives the system's Chromium), Dask and pyarrow; for the "
              "documentation Sphinx, myst-nb, numpydoc and sphinx-book-theme")


def _say(message: str) -> None:
    print(f"[dev.py] {message}", flush=True)


def _wanted_stamp() -> str:
    text = (ROOT / "pyproject.toml").read_bytes()
    return hashlib.sha256(text + sys.version.encode()).hexdigest()


def _took(start: float) -> str:
    seconds = round(time.monotonic() - start)
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def setup() -> None:
    """Create .venv and install the package with its test extras (idempotent)."""
    start = time.monotonic()
    if not PYTHON.exists():
        _say(f"step 1/3: creating a virtual environment in {VENV.name}/")
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except Exception as exc:  # pragma: no cover - depends on the machine
            sys.exit(f"[dev.py] could not create a virtual environment ({exc}); "
                     "on Debian/Ubuntu install the python3-venv package first")
    _install_templates()
    if STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return
    _say(f"installing {INSTALLING}. This is done once (again only when pyproject.toml "
         "changes): a few minutes with a warm pip cache, longer on a slow network or a "
         "busy machine (4-5 min on a loaded 2-core machine). pip's progress follows.")
    _say("step 2/3: upgrading pip")
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                   check=True)
    _say("step 3/3: installing the package and its dependencies (pip install -e .[test])")
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--progress-bar", "off", "-e",
                    ".[test]"], check=True, cwd=ROOT)
    STAMP.write_text(_wanted_stamp())
    _say(f"set up in {_took(start)}; later runs reuse {VENV.name}/")


def _install_templates() -> None:
    """Copy share/jupyter (the lecture apps' Voila template) into .venv/share/jupyter.

    pyproject.toml lists it as data files, but an editable install (``pip install
    -e``) leaves data files out; Voila finds templates only under share/jupyter.
    """
    source = ROOT / "share" / "jupyter"
    for path in source.rglob("*"):
        if path.is_file():
            target = VENV / "share" / "jupyter" / path.relative_to(source)
            if not target.exists() or target.read_bytes() != path.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())


def run(args: list[str]) -> int:
    # No MPLBACKEND here: notebook kernels must use the inline backend (as when the
    # saved outputs were made); matplotlib picks a non-GUI backend on its own elsewhere.
    # No PYTHONDONTWRITEBYTECODE (some machines set it): Python keeps its bytecode cache,
    # as it does by default. The tests start about 150 processes that import the package
    # (kernels, grading workers, servers); without the cache each compiles it again
    # (0.45 s of CPU), and pytest rewrites the asserts of every test module in every
    # worker: a worker's collection takes 16 s without the cache, 8 s with it. (The
    # grader's sandbox turns the cache off itself, and its kernels can only read it.)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MPLBACKEND", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONHASHSEED"] = "0"
    return subprocess.run([str(PYTHON), *args], cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "start"
    rest = argv[1:]
    if command not in {"start", "test", "setup", "docs"}:
        print(__doc__)
        return 2
    setup()
    if command == "setup":
        return 0
    if command == "start":
        return run(["-m", "prayatul_edu", *rest])
    if command == "docs":
        start = time.monotonic()
        _say(f"building the documentation site into {DOCS_OUT}/ (Sphinx, offline)")
        code = run([*DOCS_ARGS, str(DOCS_OUT), *rest])
        if code == 0:
            _say(f"built in {_took(start)}: open {DOCS_OUT / 'docs' / 'index.html'}")
        return code
    # Notebook folders are tested once they exist (git keeps no empty folder).
    args = [str(workers_for_tests()) if a == "WORKERS" else a for a in TEST_ARGS
            if a not in TEST_PATHS or (ROOT / a).exists()]
    return run([*args, *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
