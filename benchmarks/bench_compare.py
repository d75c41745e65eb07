#!/usr/bin/env python3
"""``prayatul-edu compare --no-figures`` on a researcher's file, side by side with pandas and
scikit-learn.

    python benchmarks/bench_compare.py                  # 10^6 rows x (truth + 6 algorithms)
    python benchmarks/bench_compare.py --rows 200000 --repeats 1

The file: a column ``truth`` of 50 classes and six algorithm columns of 50 clusters each
(the truth with a share of its rows relabelled at random, a different share per
algorithm, one of them with a noise label -1), written by pandas' ``to_csv(index=False)``.
Both sides run in fresh subprocesses, alternately, in the same run:

* **compare**: ``prayatul-edu compare FILE --truth truth --no-figures --quiet`` (Table I
  of all 30 ordered pairs, Tables II and III of the six algorithms, the verdicts);
* **pandas + scikit-learn**: ``pandas.read_csv`` and ``adjusted_rand_score`` and
  ``normalized_mutual_info_score`` of each algorithm against the truth.

Wall times are medians; peak memory is the child's maximum resident set size
(``resource.getrusage(RUSAGE_CHILDREN)``, the number ``/usr/bin/time -v`` reports). The
goal (issue 46): compare no slower than the other side, at most 400 MB. Nothing here is
a unit test: timings depend on the machine.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ALGORITHMS = 6
CLUSTERS = 50

#: The other side, run as a script in its own process (``sys.argv[1]``: the file).
PANDAS_SKLEARN = """
import sys
import pandas as pd
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score
frame = pd.read_csv(sys.argv[1])
truth = frame["truth"].to_numpy()
for name in frame.columns[1:]:
    pred = frame[name].to_numpy()
    print(name, adjusted_rand_score(truth, pred), normalized_mutual_info_score(truth, pred))
"""


def write_file(path: str, rows: int, seed: int = 46) -> None:
    """The benchmark's CSV: truth + six algorithms of 50 clusters (one with noise -1)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    truth = rng.integers(0, CLUSTERS, rows)
    columns = {"truth": truth}
    for a in range(ALGORITHMS):
        labels = truth.copy()
        moved = rng.random(rows) < 0.05 + 0.05 * a          # 5 % .. 30 % relabelled
        labels[moved] = rng.integers(0, CLUSTERS, int(moved.sum()))
        labels = rng.permutation(CLUSTERS)[labels]           # other names for the clusters
        if a == ALGORITHMS - 1:
            labels[rng.random(rows) < 0.02] = -1             # DBSCAN-like noise
        columns[f"algo{a + 1}"] = labels
    pd.DataFrame(columns).to_csv(path, index=False)


def run_child(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{argv[:3]} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def peak_of(argv: list[str]) -> float:
    """The peak resident MB of one process, measured alone (a fresh grandchild)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[-1]) / 1024


def measure(rows: int = 1_000_000, repeats: int = 3) -> dict:
    """Both sides on a file of ``rows`` rows: ``{side: (median wall s, median CPU s, peak
    MB)}``, the sides run alternately in fresh processes; and the agreement checked (the
    ARI of each algorithm in compare's JSON equals scikit-learn's to 1e-12)."""
    import json

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "runs.csv")
        write_file(path, rows)
        ours = [sys.executable, "-m", "prayatul_edu", "compare", path, "--truth", "truth",
                "--no-figures", "--quiet"]
        theirs = [sys.executable, "-c", PANDAS_SKLEARN, path]
        mine = json.loads(subprocess.run(ours + ["--format", "json"], capture_output=True,
                                         text=True, check=True).stdout)
        other = {line.split()[0]: float(line.split()[1]) for line in subprocess.run(
            theirs, capture_output=True, text=True, check=True).stdout.splitlines()}
        for row in mine["datasets"][0]["table_3"]:
            if abs(row["ari"] - other[row["algorithm"]]) > 1e-12:
                raise SystemExit(f"ARI of {row['algorithm']}: {row['ari']} != "
                                 f"{other[row['algorithm']]}")
        times = {"compare": [], "pandas + scikit-learn": []}
        for _ in range(repeats):                             # alternately
            times["compare"].append(run_child(ours))
            times["pandas + scikit-learn"].append(run_child(theirs))
        peaks = {"compare": peak_of(ours), "pandas + scikit-learn": peak_of(theirs)}
        size = os.path.getsize(path) / 1e6
    return {"size_mb": size, **{side: (statistics.median(t[0] for t in ts),
                                       statistics.median(t[1] for t in ts), peaks[side],
                                       [t[0] for t in ts]) for side, ts in times.items()}}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    result = measure(args.rows, args.repeats)
    print(f"{args.rows:,} rows x (truth + {ALGORITHMS} algorithms, {CLUSTERS} clusters), "
          f"{result['size_mb']:.0f} MB of CSV; medians of {args.repeats} alternate runs")
    for side in ("compare", "pandas + scikit-learn"):
        wall, cpu, peak, walls = result[side]
        print(f"  {side:<22} {wall:6.2f} s wall  {cpu:6.2f} s CPU   peak {peak:5.0f} MB   "
              f"(wall of each run: {', '.join(f'{t:.2f}' for t in walls)})")
    ours, other = result["compare"], result["pandas + scikit-learn"]
    print(f"  compare / (pandas + scikit-learn) = {ours[0] / other[0]:.2f} wall, "
          f"{ours[1] / other[1]:.2f} CPU (goal <= 1); compare's peak {ours[2]:.0f} MB "
          "(goal <= 400)")


if __name__ == "__main__":
    main()
