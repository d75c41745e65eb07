"""The documentation site, built once per test process, as ``python3 dev.py docs`` does.

Used by tests/test_docs.py (the site's pages and links) and the browser test (one page
in Chromium). The build runs Sphinx with dev.py's arguments: warnings are errors and
every cross-reference must resolve.
"""
from __future__ import annotations

import atexit
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_BUILT: dict[str, object] = {}


def dev_module():
    """dev.py (standard library only), imported for its constants."""
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build() -> tuple[Path, subprocess.CompletedProcess]:
    """The site's folder and Sphinx's run (built on the first call of the process)."""
    if "site" not in _BUILT:
        out = Path(tempfile.mkdtemp(prefix="prayatul-docs-"))
        atexit.register(shutil.rmtree, out, ignore_errors=True)
        args = [a for a in dev_module().DOCS_ARGS if a != "-q"]
        proc = subprocess.run([sys.executable, *args, str(out)], cwd=ROOT,
                              capture_output=True, text=True)
        _BUILT["site"] = (out, proc)
    return _BUILT["site"]
