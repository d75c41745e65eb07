"""The documentation site, built once per test run, as ``python3 dev.py docs`` does.

Used by tests/test_docs.py (the site's pages and links) and the browser test (one page
in Chromium), which a parallel run gives to different processes: the first to ask
builds the site in the run's temporary folder, under a lock, and the other reads it
(one Sphinx build of about 20 s CPU, not two). The build runs Sphinx with dev.py's
arguments: warnings are errors and every cross-reference must resolve.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

try:
    import fcntl
except ImportError:          # Windows: each test process builds its own
    fcntl = None

ROOT = Path(__file__).resolve().parents[1]

#: The modules whose names a page of the documentation or the README tells a user to call
#: (docs/api.md documents each one's ``__all__``)
PUBLIC_MODULES = ["prayatul_edu", "prayatul_edu.compare", "prayatul_edu.exercises",
                  "prayatul_edu.widgets", "prayatul_edu.grading",
                  # the modules the lecture notebooks import
                  "prayatul_edu.toydata", "prayatul_edu.plots", "prayatul_edu.tutorial",
                  "prayatul_edu.paper"]
_BUILT: dict[str, object] = {}


def dev_module():
    """dev.py (standard library only), imported for its constants."""
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The site's folder and Sphinx's run, built once per run in pytest's temporary
    folder (``tmp_path_factory``): that of the whole run when pytest-xdist runs the
    tests in several processes, whose workers each have a folder inside it."""
    if "site" not in _BUILT:
        folder = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
            folder = folder.parent
        folder = folder / "docs-site"
        folder.mkdir(exist_ok=True)
        with open(folder / "build.lock", "w") as lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            record = folder / "sphinx.json"
            if not record.exists():
                args = [a for a in dev_module().DOCS_ARGS if a != "-q"]
                proc = subprocess.run([sys.executable, *args, str(folder / "html")],
                                      cwd=ROOT, capture_output=True, text=True)
                record.write_text(json.dumps({"args": proc.args, "returncode": proc.returncode,
                                              "stdout": proc.stdout, "stderr": proc.stderr}))
            ran = json.loads(record.read_text())
        _BUILT["site"] = (folder / "html", subprocess.CompletedProcess(**ran))
    return _BUILT["site"]
