#!/usr/bin/env python3
"""One entry point for people and CI: set up a local environment, then run.

    python3 dev.py start    # set up .venv and run the main job
    python3 dev.py test     # set up .venv and run every test (unit, property, notebook)

Only the standard library is used here, so this works on a fresh machine that
has nothing but Python and pip. The virtual environment lives in ``.venv``
next to this file; it is (re)installed only when ``pyproject.toml`` changed.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".prayatul-edu-installed"

# Every test: unit and property tests in tests/, notebooks checked by nbval.
# Doctests: every docstring Example in the library runs too.
# In parallel (pytest-xdist), one worker per core, each taking whole files: a notebook's
# cells run in order in one kernel (nbval), a module's fixtures (the graded batch, the
# Dask cluster) are made once, and each browser test starts its own server on a free port.
TEST_ARGS = ["-m", "pytest", "-n", "auto", "--dist", "loadfile",
             "--nbval", "--nbval-current-env", "--doctest-modules",
             "-p", "no:cacheprovider", "prayatul_edu", "tests", "notebooks", "solutions"]
TEST_PATHS = {"prayatul_edu", "tests", "notebooks", "solutions"}


def _say(message: str) -> None:
    print(f"[dev.py] {message}", flush=True)


def _wanted_stamp() -> str:
    text = (ROOT / "pyproject.toml").read_bytes()
    return hashlib.sha256(text + sys.version.encode()).hexdigest()


def setup() -> None:
    """Create .venv and install the package with its test extras (idempotent)."""
    if not PYTHON.exists():
        _say(f"creating a virtual environment in {VENV.name}/")
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except Exception as exc:  # pragma: no cover - depends on the machine
            sys.exit(f"[dev.py] could not create a virtual environment ({exc}); "
                     "on Debian/Ubuntu install the python3-venv package first")
    _install_templates()
    if STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return
    _say("installing prayatul-edu and its dependencies (first run takes a minute)")
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                   check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", ".[test]"],
                   check=True, cwd=ROOT)
    STAMP.write_text(_wanted_stamp())


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
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["PYTHONHASHSEED"] = "0"
    return subprocess.run([str(PYTHON), *args], cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "start"
    rest = argv[1:]
    if command not in {"start", "test", "setup"}:
        print(__doc__)
        return 2
    setup()
    if command == "setup":
        return 0
    if command == "start":
        return run(["-m", "prayatul_edu", *rest])
    # Notebook folders are tested once they exist (git keeps no empty folder).
    args = [a for a in TEST_ARGS if a not in TEST_PATHS or (ROOT / a).exists()]
    return run([*args, *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
