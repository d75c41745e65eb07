"""Every ``prayatul-edu`` command line of the README runs as written, from a copy of the
repository's ``examples/`` (the sample file the lines name), and prints what the README
says it prints: the numbers checked against scikit-learn on the same file."""
from __future__ import annotations

import csv
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The README's command lines that start with ``prayatul-edu`` (in a code block,
    fenced or indented), without their comments."""
    lines, fenced = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if (fenced or line.startswith("    ")) and line.strip().startswith("prayatul-edu "):
            lines.append(" ".join(shlex.split(line.strip(), comments=True)))
    return lines


COMMANDS = readme_commands()


def test_the_readme_shows_the_compare_examples():
    compare = [c for c in COMMANDS if c.startswith("prayatul-edu compare ")]
    assert len(compare) >= 3, COMMANDS
    assert all("examples/runs.csv" in c for c in compare)
    assert (ROOT / "examples" / "runs.csv").is_file() and \
        (ROOT / "examples" / "make_runs.py").is_file()


def _file_columns(path: Path) -> dict:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return {h: [r[j] for r in body] for j, h in enumerate(header)}


def _table_3(out: str) -> dict:
    """Table III of the output: algorithm -> (NMI, ARI, AMI) as printed."""
    section = out[out.index("Table III"):]
    rows = {}
    for line in section.splitlines()[3:]:
        cells = line.split()
        if len(cells) != 4 or not re.fullmatch(r"-?\d\.\d{4}", cells[1]):
            break
        rows[cells[0]] = tuple(cells[1:])
    return rows


@pytest.mark.parametrize("command", COMMANDS)
def test_every_readme_command_runs_as_written(command, tmp_path):
    from sklearn.metrics import (adjusted_mutual_info_score, adjusted_rand_score,
                                 normalized_mutual_info_score)

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    args = shlex.split(command)
    proc = subprocess.run([sys.executable, "-m", "prayatul_edu", *args[1:]], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    if args[1] != "compare":
        return
    out = proc.stdout
    columns = _file_columns(tmp_path / args[2])
    truth = columns[args[args.index("--truth") + 1]]
    # pandas' index: left out, and said so
    assert re.search(r"^  \(unnamed first column\)\s+left out: an unnamed first column, as "
                     r"pandas' DataFrame\.to_csv\(\) writes its index", out, re.M), out[:800]
    if "--algorithms" in args:
        algorithms = args[args.index("--algorithms") + 1:]
    elif "--primary" in args:
        algorithms = [args[args.index("--primary") + 1], args[args.index("--alternative") + 1]]
    else:
        algorithms = ["kmeans", "agglomerative", "gaussian_mixture", "dbscan"]
    table = _table_3(out)
    assert list(table) == algorithms
    for name in algorithms:
        labels = columns[name]
        expected = (normalized_mutual_info_score(truth, labels),   # arithmetic, as Table III
                    adjusted_rand_score(truth, labels), adjusted_mutual_info_score(truth, labels))
        assert table[name] == tuple(f"{x:.4f}" for x in expected), name
    if len(algorithms) == 1:
        assert "Table I needs two algorithms" in out
    else:
        pairs = len(algorithms) * (len(algorithms) - 1) // (2 if "--primary" in args else 1)
        assert out.count("right on ") == (1 if "--primary" in args else pairs // 2)
    if "--bootstrap" in args:
        assert f"Bootstrap: {args[args.index('--bootstrap') + 1]} resamples" in out
    assert (tmp_path / "prayatul-output").is_dir()
