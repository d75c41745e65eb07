#!/usr/bin/env python3
"""How fast `prayatul-edu grade` is, and what the sandbox costs.

    python benchmarks/bench_grading.py               # 40 notebooks at 1 and 2 jobs, sandbox cost
    python benchmarks/bench_grading.py --n 10 --cost 4

Rows:

* batch time for ``--n`` honest notebooks of exercise 03 (every answer right) at
  1 job and at 2 jobs, and the speed-up (target >= 1.7x on 2 cores);
* the sandbox's cost per notebook: the same ``--cost`` notebooks graded one at a
  time by two warm workers, one with ``--sandbox bwrap`` and one with ``--sandbox
  none``, alternating; the difference of the medians (target < 0.3 s); and the bare
  cost of starting and ending an empty bubblewrap sandbox;
* where the grader is root: the cost of a notebook's control group (made, a process
  run in it, removed) and of its in-memory work folder (mounted, unmounted). Both
  apply with ``--sandbox none`` too, so the sandbox-cost row does not include them.

Every batch is checked to give every notebook full marks before its time counts.
Timings depend on the machine (on a shared machine, on its load); no test
asserts them.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import nbformat  # noqa: E402

from grading_helpers import answers, notebook  # noqa: E402
from run import alone  # noqa: E402
from prayatul_edu import grading  # noqa: E402


def _write(folder: Path, n: int) -> list[Path]:
    paths = []
    for k in range(n):
        sid = f"b{k:03d}"
        p = folder / f"{sid}.ipynb"
        nbformat.write(notebook(sid, answers(sid)), p)
        paths.append(p)
    return paths


def _batch(paths, out, jobs, sandbox) -> float:
    start = time.perf_counter()
    reports = grading.grade_batch(paths, out, progress=False, jobs=jobs, sandbox=sandbox,
                                  exercise="03_pair_counting")
    seconds = time.perf_counter() - start
    assert all(r.total == 4 and not r.problems for r in reports), "a notebook lost marks"
    return seconds


def _one(worker, path, sandbox) -> float:
    """One notebook through a warm worker (as in a batch)."""
    opts = grading.Options(exercise="03_pair_counting", sandbox=sandbox)
    start = time.perf_counter()
    r = worker.grade(path.name, path.read_bytes(), asdict(opts))
    seconds = time.perf_counter() - start
    assert r["problems"] == [] and sum(x["points"] for x in r["rows"]) == 4
    return seconds


def _bare_bwrap(repeat: int = 9) -> float:
    from prayatul_edu.grading.sandbox import kernel_command

    with tempfile.TemporaryDirectory() as tmp:
        argv, _ = kernel_command("bwrap", Path(tmp), Path(tmp) / "k.json", grading.Limits(), {})
        argv = argv[:argv.index("--clearenv")] + ["--", "/bin/true"]
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(argv, check=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def _root_rows() -> None:
    """The control group's and the in-memory work folder's cost per notebook."""
    from prayatul_edu.grading.cgroup import NotebookGroup, cgroup_problem

    if cgroup_problem() is None:
        def group():
            g = NotebookGroup.create(grading.Limits())
            subprocess.run(g.prefix() + ["/bin/true"], check=True)
            g.remove()

        print(f"| a control group: made, a process run in it, removed | "
              f"{alone(group, 9):.3f} s | |")
    else:
        print(f"| a control group | not here: {cgroup_problem()} | |")
    code = ("import sys, tempfile, time, statistics\n"
            "sys.path[:0] = [sys.argv[1]]\n"
            "from prayatul_edu.grading import sandbox\n"
            "sandbox.may_mount(True)\nt = []\n"
            "with tempfile.TemporaryDirectory() as d:\n"
            "    for _ in range(9):\n        s = time.perf_counter()\n"
            "        with sandbox.work_folder(d, 2**28) as capped:\n"
            "            assert capped\n"
            "        t.append(time.perf_counter() - s)\n"
            "print(statistics.median(t))")
    if os.geteuid() == 0:
        res = subprocess.run(grading.limits.isolated([sys.executable, "-c", code,
                                                      str(HERE.parent)]),
                             capture_output=True, text=True)
        print(f"| an in-memory work folder: mounted, unmounted | "
              f"{float(res.stdout):.4f} s | |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=40, help="notebooks per batch (default 40)")
    parser.add_argument("--cost", type=int, default=6,
                        help="notebooks for the sandbox's cost (default 6)")
    parser.add_argument("--cost-only", action="store_true",
                        help="only the sandbox's cost rows (no batches)")
    args = parser.parse_args(argv)
    problem = grading.sandbox_problem("bwrap")
    if problem:
        sys.exit(f"bench_grading: {problem}")
    print(f"cores: {grading.default_jobs()}, load average: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "subs").mkdir()
        paths = _write(tmp / "subs", max(args.n, args.cost) if not args.cost_only
                       else args.cost)
        if not args.cost_only:
            one = _batch(paths, tmp / "out1", 1, "bwrap")
            two = _batch(paths, tmp / "out2", 2, "bwrap")
            print(f"| {args.n} notebooks, 1 job | {one:.1f} s | {args.n / one:.2f} "
                  "notebooks/s |")
            print(f"| {args.n} notebooks, 2 jobs | {two:.1f} s | {args.n / two:.2f} "
                  "notebooks/s |")
            print(f"| speed-up, 2 jobs over 1 | {one / two:.2f}x | target >= 1.7x: "
                  f"{'met' if one / two >= 1.7 else 'not met'} |")
        sand, none = [], []
        workers = {"bwrap": grading.Worker(), "none": grading.Worker()}
        try:
            for mode, worker in workers.items():  # warm-up: the workers' imports
                _one(worker, paths[0], mode)
            for p in paths[:args.cost]:
                sand.append(_one(workers["bwrap"], p, "bwrap"))
                none.append(_one(workers["none"], p, "none"))
        finally:
            for worker in workers.values():
                worker.close()
        cost = statistics.median(sand) - statistics.median(none)
        print(f"| one notebook, sandbox | {statistics.median(sand):.2f} s | median of "
              f"{args.cost} |")
        print(f"| one notebook, no sandbox | {statistics.median(none):.2f} s | median of "
              f"{args.cost} |")
        print(f"| sandbox cost per notebook | {cost:.3f} s | target < 0.3 s: "
              f"{'met' if cost < 0.3 else 'not met'} |")
        print(f"| an empty bubblewrap sandbox, start to end | {_bare_bwrap():.3f} s | |")
        _root_rows()


if __name__ == "__main__":
    main()
