"""dev.py's first run says what it installs, shows pip's progress and how long it took."""
from __future__ import annotations

import subprocess

from docs_site import ROOT, dev_module


def test_setup_says_what_it_installs_and_shows_progress(tmp_path, monkeypatch, capsys):
    dev = dev_module()
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")            # an existing environment
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "PYTHON", venv / "bin" / "python")
    monkeypatch.setattr(dev, "STAMP", venv / "stamp")   # no stamp: must install
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: calls.append(args))
    dev.setup()
    out = capsys.readouterr().out
    assert "installing prayatul-edu with NumPy, SciPy, scikit-learn" in out
    assert "a few minutes" in out and "pip's progress follows" in out
    assert "step 3/3: installing the package" in out and "set up in " in out
    install = calls[-1]
    assert install[-2:] == ["-e", ".[test]"] and "--quiet" not in install
    assert (venv / "stamp").read_text() == dev._wanted_stamp()
    # the second run installs nothing and says nothing
    calls.clear()
    dev.setup()
    assert calls == [] and capsys.readouterr().out == ""


def test_docs_command_builds_with_warnings_as_errors():
    dev = dev_module()
    assert {"-W", "-n"} <= set(dev.DOCS_ARGS) and dev.DOCS_ARGS[:2] == ["-m", "sphinx"]
    assert "docs" in dev.__doc__


def test_tests_run_with_pythons_bytecode_cache_and_a_fixed_hash_seed(monkeypatch):
    # some machines set PYTHONDONTWRITEBYTECODE: then every kernel the tests start would
    # compile the package again; and notebook kernels must pick the inline backend
    dev = dev_module()
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.setenv("PRAYATUL_PASSED_ON", "yes")
    seen = {}

    class Done:
        returncode = 0

    def run(args, **kw):
        seen.update(kw["env"])
        return Done()

    monkeypatch.setattr(subprocess, "run", run)
    assert dev.run(["-c", "pass"]) == 0
    assert "PYTHONDONTWRITEBYTECODE" not in seen and "MPLBACKEND" not in seen
    assert seen["PYTHONHASHSEED"] == "0" and seen["PRAYATUL_PASSED_ON"] == "yes"


def test_tests_run_on_one_worker_more_than_there_are_cores(monkeypatch):
    dev = dev_module()
    monkeypatch.setattr(dev.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert dev.workers_for_tests() == 3
    seen = []
    monkeypatch.setattr(dev, "setup", lambda: None)
    monkeypatch.setattr(dev, "run", lambda args: seen.append(args) or 0)
    assert dev.main(["test"]) == 0
    args = seen[0]
    assert args[args.index("-n") + 1] == "3" and "WORKERS" not in args


def test_every_command_is_in_the_usage_and_the_readme(capsys):
    """dev.py's commands, as its main() accepts them, are each in its usage (printed for
    an unknown command) and in the README."""
    import re

    dev = dev_module()
    source = (ROOT / "dev.py").read_text(encoding="utf-8")
    commands = set(re.search(r"if command not in (\{[^}]*\})", source).group(1)
                   .strip("{}").replace('"', "").replace(" ", "").split(","))
    assert commands == {"start", "test", "setup", "docs"}
    assert dev.main(["nonsense"]) == 2
    usage = capsys.readouterr().out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in commands:
        assert f"python3 dev.py {command}" in usage, command
        assert f"python3 dev.py {command}" in readme, command


def test_contributing_scripts_answer_help_without_writing_a_file(tmp_path):
    """CONTRIBUTING names the scripts of scripts/; ``--help`` says how each is used and
    writes nothing (regenerate_paper_labels.py took it for its output and wrote
    ``--help.npz``)."""
    import sys

    for script in sorted((ROOT / "scripts").glob("*.py")):
        proc = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (script.name, proc.stderr[-500:])
        assert len(proc.stdout.strip().splitlines()) >= 2, script.name     # what it does
        assert list(tmp_path.iterdir()) == [], (script.name, list(tmp_path.iterdir()))
