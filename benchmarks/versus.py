#!/usr/bin/env python3
"""This tree against another (e.g. the previous main), side by side: new / old time ratios.

    git worktree add ../oldmain main                   # any checkout of the other version
    python benchmarks/versus.py ../oldmain             # every row (a few minutes)
    python benchmarks/versus.py ../oldmain --quick     # fewer rows and repeats
    python benchmarks/versus.py ../oldmain --only ARI,strings --repeats 15

Three worker processes run the same rows: one imports ``prayatul_edu`` from this
tree ("new"), two from the other tree ("old" and "old again"). Each row is timed
in rounds, one call per worker per round, the workers' order rotating from round
to round, so a busy machine slows all three alike. The table gives the medians,
``new / old`` and ``old again / old``: the second is the run-to-run noise of the
same code, against which the first is read (a row is slower only when its
ratio is above 1 by more than the noise). Times are the CPU time of the worker
(``time.process_time``: the library runs on one thread), which other programs
on a shared machine disturb far less than the wall-clock time (``--wall``).
Each worker makes the row's labels from
a seed, so all three count the same labels; the workers check that they agree on
the result. Nothing here is a unit test: timings depend on the machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run import machine, ms  # noqa: E402  (the side-by-side benchmark's formatting)

KINDS = ["small ints", "grid ids", "spread ints", "<U strings", "list of str", "object array"]
MEASURES = {
    "ARI": "adjusted_rand_index",
    "NMI": "normalized_mutual_information",
    "contingency_table": "contingency_table",
    "purity": "purity",
    "prayatul_matrix": "prayatul_matrix",           # of three labellings
}


def rows(quick: bool) -> list[tuple[str, str, int, int]]:
    """``(measure, kind, N, k)``: what grows is swept one thing at a time around N = 10^6."""
    n = 10**6
    out = [("ARI", kind, n, k) for k in (10, 1000, 10**5) for kind in KINDS]
    out += [("ARI", "small ints", m, 10) for m in (10**4, 10**7)]
    out += [("ARI", "<U strings", m, 10) for m in (10**4, 10**7)]
    out += [(measure, kind, n, k) for measure in ("NMI", "contingency_table", "purity",
                                                  "prayatul_matrix")
            for kind, k in (("small ints", 10), ("<U strings", 1000), ("spread ints", 10**5))]
    out += [("prayatul_matrix", "small ints", n, k) for k in (1000, 10**5)]   # issue 37
    if quick:
        out = [row for row in out if row[2] <= n and row[3] != 1000]
    return out


def name(row) -> str:
    measure, kind, n, k = row
    return f"{measure}, {kind}, N = 10^{round(np.log10(n))}, k = {k}"


def make_labels(kind: str, n: int, k: int, seed: int):
    """``n`` labels of about ``k`` distinct values, of the kind a user passes."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    if kind == "small ints":
        return codes
    if kind == "grid ids":                               # ids in steps of 1000
        return codes * 1000 + 10**6
    if kind == "spread ints":                            # on no grid
        return np.random.default_rng(k).integers(-2**40, 2**40, k)[codes]
    strings = np.array([f"label{i}" for i in range(k)])[codes]
    if kind == "<U strings":
        return strings
    if kind == "list of str":
        return strings.tolist()
    if kind == "object array":
        return strings.astype(object)
    raise ValueError(kind)


# ------------------------------------------------------------------- one worker per tree
def worker(clock) -> None:
    """Answers requests ``[measure, kind, n, k]`` on stdin with ``[seconds, result]``."""
    import prayatul_edu

    print(json.dumps(prayatul_edu.__file__), flush=True)
    current, args = None, None
    for line in sys.stdin:
        row = tuple(json.loads(line))
        measure, kind, n, k = row
        f = getattr(prayatul_edu, MEASURES[measure])
        if row != current:                                # the row's labels, made once
            current, args = row, None
            count = 3 if measure == "prayatul_matrix" else 2
            args = [make_labels(kind, n, k, seed) for seed in range(1, count + 1)]
            f(*args)                                      # warm-up
        start = clock()
        result = f(*args)
        seconds = clock() - start
        if measure == "contingency_table":
            result = int(result.cell_count.sum()) + len(result.clusters)
        elif measure == "prayatul_matrix":
            result = [result.br, result.rw, result.wr, result.bw]
        else:
            result = float(result)
        print(json.dumps([seconds, result]), flush=True)


class Worker:
    def __init__(self, tree: str, wall: bool):
        env = dict(os.environ, PYTHONPATH=tree, OMP_NUM_THREADS="1")
        command = [sys.executable, os.path.abspath(__file__), "--worker"] + ["--wall"] * wall
        self.proc = subprocess.Popen(command,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env, cwd=tree)
        self.module = json.loads(self.proc.stdout.readline())
        if not os.path.realpath(self.module).startswith(os.path.realpath(tree) + os.sep):
            raise SystemExit(f"the worker for {tree} imported {self.module}")

    def time(self, row) -> tuple[float, object]:
        self.proc.stdin.write(json.dumps(list(row)) + "\n")
        self.proc.stdin.flush()
        seconds, result = json.loads(self.proc.stdout.readline())
        return seconds, result

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_tree", help="a checkout of the version to compare with")
    parser.add_argument("--quick", action="store_true", help="fewer rows, 5 rounds")
    parser.add_argument("--repeats", type=int, default=None, help="rounds per row (default 9)")
    parser.add_argument("--only", default="", help="rows whose name contains every word "
                        "(comma-separated)")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    given = argv if argv is not None else sys.argv[1:]
    if "--worker" in given:
        worker(time.perf_counter if "--wall" in given else time.process_time)
        return 0
    args = parser.parse_args(argv)
    old_tree = os.path.abspath(args.old_tree)
    if not os.path.isdir(os.path.join(old_tree, "prayatul_edu")):
        parser.error(f"{args.old_tree}: no prayatul_edu package in it")
    repeats = args.repeats or (5 if args.quick else 9)
    words = [w.strip() for w in args.only.split(",") if w.strip()]
    todo = [row for row in rows(args.quick) if all(w in name(row) for w in words)]
    workers = {side: Worker(tree, args.wall) for side, tree in
               (("new", ROOT), ("old", old_tree), ("old again", old_tree))}
    order = list(workers)
    print(f"# {machine()}\n# new: {workers['new'].module}\n# old: {workers['old'].module}\n"
          f"# {repeats} rounds a row, medians of the {'wall-clock' if args.wall else 'CPU'} "
          "time; noise = old again / old\n")
    print("| row | new | old | new / old | noise |\n| --- | ---: | ---: | ---: | ---: |")
    try:
        for row in todo:
            times = {side: [] for side in workers}
            results = {}
            for r in range(repeats):
                for side in order[r % 3:] + order[:r % 3]:   # rotate who goes first
                    seconds, results[side] = workers[side].time(row)
                    times[side].append(seconds)
            if len({json.dumps(v) for v in results.values()}) != 1:
                raise SystemExit(f"{name(row)}: the trees disagree: {results}")
            med = {side: statistics.median(t) for side, t in times.items()}
            print(f"| {name(row)} | {ms(med['new'])} | {ms(med['old'])} | "
                  f"{med['new'] / med['old']:.2f} | {med['old again'] / med['old']:.2f} |",
                  flush=True)
    finally:
        for w in workers.values():
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
