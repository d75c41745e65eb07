"""``prayatul-edu compare``: the command line of :mod:`prayatul_edu.compare`.

Options, reading the user's file, progress on stderr, text or JSON on stdout,
figures in ``--out``; the analysis itself is :mod:`prayatul_edu.compare`.
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from ..compare import AVERAGES, DEFAULT_OUT, Experiment, compare_labelings, run_experiment
from ..label_files import column as _column, read_columns
from ..paper import compare_with_paper, load_labels
from ..plots.compare import save_figures

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``prayatul-edu compare``."""
    parser.epilog = (
        "examples:\n"
        "  prayatul-edu compare                  the paper's experiment (3 data sets, 4 algorithms)\n"
        "  prayatul-edu compare --paper          the paper's own labels next to its Tables I, II\n"
        "  prayatul-edu compare runs.csv --truth class --primary kmeans --alternative dbscan\n"
        "  prayatul-edu compare runs.csv --truth class --bootstrap 200\n"
        "\nPrayatul measures of a primary vs an alternative (each in [-1, 1], xi_c in [0, 1];\n"
        "positive favours the primary): sigma_c comparative deviation, alpha polarization,\n"
        "xi_c comparative rightness, xi_e effective rightness, phi_e effective superiority.")
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="your data: a CSV (header row; also .tsv), .npy or .npz file with "
                             "a column of true classes and one column of labels per "
                             "algorithm. Without FILE: the paper's experiment.")
    mine = parser.add_argument_group("your data (with FILE)")
    mine.add_argument("--truth", metavar="COL", help="the column of true classes")
    mine.add_argument("--primary", metavar="COL",
                      help="the algorithm being evaluated (rows of Table I)")
    mine.add_argument("--alternative", metavar="COL", nargs="+",
                      help="the algorithm(s) it is compared with")
    mine.add_argument("--algorithms", metavar="COL", nargs="+",
                      help="compare these columns in a full tournament (every ordered pair). "
                           "Default, without --primary: every column except truth and --xy")
    mine.add_argument("--xy", metavar="COL", nargs=2,
                      help="two coordinate columns, to draw the points in the figures")
    paper = parser.add_argument_group("the paper's experiment (without FILE)")
    paper.add_argument("--paper", action="store_true",
                       help="use the labels the paper got (scikit-learn 1.1.3, shipped) and "
                            "print every Table I and II value next to the published one")
    stats = parser.add_argument_group("statistics")
    stats.add_argument("--bootstrap", metavar="B", type=int, default=0,
                       help="resample the instances B times (e.g. 200) and give a confidence "
                            "interval for each measure")
    stats.add_argument("--seed", metavar="S", type=int, default=0,
                       help="seed of the resampling (default 0)")
    stats.add_argument("--confidence", metavar="C", type=float, default=0.95,
                       help="level of the intervals (default 0.95)")
    stats.add_argument("--average", choices=AVERAGES, default="macro",
                       help="averaging of Table II's precision and recall over labels "
                            "(default macro; 'paper' = the paper's recipe)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text",
                     help="text tables (default) or JSON on stdout")
    out.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                     help=f"folder for the figures (default ./{DEFAULT_OUT}/)")
    out.add_argument("--no-figures", action="store_true", help="write no figures")
    out.add_argument("--quiet", action="store_true", help="no progress messages on stderr")


class _Progress:
    """Progress messages on stderr: '[3/12] noisy_circles: DBSCAN ...'."""

    def __init__(self, total: int, quiet: bool):
        self.total, self.done, self.quiet = total, 0, quiet
        self.start = time.perf_counter()

    def say(self, message: str) -> None:
        if not self.quiet:
            print(f"[{time.perf_counter() - self.start:5.1f} s] {message}", file=sys.stderr,
                  flush=True)

    def __call__(self, dataset: str, algorithm: str) -> None:
        self.done += 1
        self.say(f"running {algorithm} on {dataset} ({self.done}/{self.total})")


def _user_experiment(args) -> Experiment:
    if args.paper:
        raise ValueError("--paper: is for the paper's experiment, not with FILE")
    if not args.truth:
        raise ValueError("--truth: give the column of true classes (--truth COL) with FILE")
    columns = read_columns(args.file)
    where = Path(args.file).name
    truth = _column(columns, args.truth, where, "--truth")
    if args.primary and args.algorithms:
        raise ValueError("--algorithms: use either --primary/--alternative or --algorithms")
    if args.alternative and not args.primary:
        raise ValueError("--alternative: give --primary COL too")
    xy_cols = list(args.xy or [])
    if args.primary:
        if not args.alternative:
            raise ValueError("--primary: give --alternative COL too (or neither, for a tournament "
                             "of every column)")
        names = [args.primary, *[a for a in args.alternative if a != args.primary]]
        pairs = [(args.primary, a) for a in names[1:]]
        if not pairs:
            raise ValueError("--alternative: must differ from --primary")
    else:
        names = list(args.algorithms or [c for c in columns
                                         if c != args.truth and c not in xy_cols])
        pairs = None
    if len(names) < 2:
        raise ValueError(f"FILE: {where} has {len(names)} algorithm column(s) besides the truth; "
                         "at least two are needed")
    role = {n: "--primary" if n == args.primary else
            "--alternative" if args.alternative and n in args.alternative else "--algorithms"
            for n in names}
    labelings = {n: _column(columns, n, where, role[n]) for n in names}
    X = None
    if xy_cols:
        X = np.column_stack([_column(columns, c, where, "--xy").astype(float) for c in xy_cols])
    return compare_labelings(truth, labelings, X, name=where, pairs=pairs,
                             n_resamples=args.bootstrap, seed=args.seed,
                             confidence=args.confidence, average=args.average)


def _check_options(args) -> None:
    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap: must be 0 (none) or a number of resamples, got "
                         f"{args.bootstrap}")
    if not 0 < args.confidence < 1:
        raise ValueError(f"--confidence: must be between 0 and 1, got {args.confidence}")
    if args.file is None:
        for option in ("truth", "primary", "alternative", "algorithms", "xy"):
            if getattr(args, option):
                raise ValueError(f"--{option}: needs a FILE (prayatul-edu compare FILE --truth "
                                 "COL ...)")


def run(args) -> int:
    """``prayatul-edu compare``: tables on stdout, figures in ``--out``, progress on stderr."""
    progress = _Progress(12, args.quiet)
    try:
        _check_options(args)
        comparison = None
        if args.file is not None:
            progress.say(f"reading {args.file}")
            experiment = _user_experiment(args)
        elif args.paper:
            progress.say("loading the paper's labels")
            experiment = run_experiment("paper", n_resamples=args.bootstrap, seed=args.seed,
                                        confidence=args.confidence, average="paper")
            comparison = compare_with_paper(load_labels())
        else:
            experiment = run_experiment("live", n_resamples=args.bootstrap, seed=args.seed,
                                        confidence=args.confidence, average=args.average,
                                        progress=progress)
    except (ValueError, TypeError, OSError) as exc:
        message = " ".join(str(exc).split())
        print(f"prayatul-edu compare: error: {message}", file=sys.stderr)
        return 2
    figures = []
    if not args.no_figures:
        progress.say(f"writing figures to {args.out}/")
        try:
            figures = [str(p) for p in save_figures(experiment, args.out)]
        except OSError as exc:
            print(f"prayatul-edu compare: error: cannot write figures to {args.out}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
    if args.format == "json":
        out = experiment.to_dict()
        out["figures"] = figures
        if comparison is not None:
            out["paper"] = comparison.to_dict()
        json.dump(_jsonable(out), sys.stdout, indent=1, allow_nan=False)
        print()
    else:
        if comparison is not None:
            print(comparison.explain())
            print()
            print(experiment.derivation(tables=("III",)).to_text())
        else:
            print(experiment.explain())
        if args.file is None and not args.paper:
            print("\nThe paper's own labels (scikit-learn 1.1.3) are shipped with the package: "
                  "'prayatul-edu compare --paper' prints every value of its Tables I and II "
                  "next to ours.")
        if figures:
            print(f"\nFigures ({len(figures)}) written to {Path(args.out).resolve()}")
    progress.say("done")
    return 0


def _jsonable(x):
    """Plain JSON types (NumPy scalars -> Python, NaN -> None)."""
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
