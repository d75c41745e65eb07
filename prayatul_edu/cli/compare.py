"""Compare clusterings pair by pair with the Prayatul matrix (and ARI, NMI, AMI, accuracy).

The command line of :mod:`prayatul_edu.compare`. Options, reading the user's file, progress on stderr, text or JSON on stdout,
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
from ..compare.scores import NMI_AVERAGE
from ..information import normalized_mutual_information
from ..label_files import column as _column
from ..label_files import (DEFAULT_NA, EMPTY_COLUMNS, INDEX_COLUMN, is_parquet, label_columns,
                           missing_mask, parse_na, read_columns, read_parquet)
from ..pair_counting import adjusted_rand_index
from ..paper import compare_with_paper, load_labels
from ..plots.compare import save_figures
from ..prayatul import prayatul_matrix

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``prayatul-edu compare``."""
    parser.epilog = (
        "examples:\n"
        "  prayatul-edu compare                  the paper's experiment (3 data sets, 4 algorithms)\n"
        "  prayatul-edu compare --paper          the paper's own labels next to its Tables I, II\n"
        "  prayatul-edu compare examples/runs.csv --truth class --primary kmeans --alternative dbscan\n"
        "  prayatul-edu compare examples/runs.csv --truth class --bootstrap 200\n"
        "  prayatul-edu compare runs/ --truth class --dask tcp://10.0.0.5:8786   (Parquet on a cluster)\n"
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
                           "Default, without --primary: every column except truth and --xy "
                           "that looks like a clustering (columns with decimals, or with more "
                           "than half of their rows distinct, such as coordinates and ids, are "
                           "left out: name them here to compare them)")
    mine.add_argument("--xy", metavar="COL", nargs=2,
                      help="two coordinate columns, to draw the points in the figures")
    mine.add_argument("--na", metavar="TOKENS", default=None,
                      help='CSV fields read as missing values, comma-separated (default: only '
                           'the empty field, "", and in a file written by R\'s write.csv its '
                           'NA too); e.g. --na NA,"" reads NA as missing. A column of true '
                           "classes or labels with a missing value is refused unless "
                           "--drop-missing")
    mine.add_argument("--drop-missing", action="store_true",
                      help="leave out every row with a missing value in a column compared "
                           "(the truth or an algorithm), and say how many")
    mine.add_argument("--noise", metavar="LABEL",
                      help="the label an algorithm gives to noise, e.g. -1 (DBSCAN, HDBSCAN); "
                           "counted as --noise-as says, and said in every table")
    mine.add_argument("--noise-as", choices=NOISE_POLICIES, default="cluster",
                      help="how the --noise label counts: as one cluster (default, as "
                           "scikit-learn's scores count it), each noise point a cluster of "
                           "its own (singletons), or its rows left out for every algorithm "
                           "(drop)")
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
    big = parser.add_argument_group("labels beyond memory")
    big.add_argument("--dask", metavar="SCHEDULER", nargs="?", const="local", default=None,
                     help="count on a Dask cluster: FILE is a Parquet file or directory, read "
                          "chunk by chunk on the workers; SCHEDULER is the address of a "
                          "running scheduler (e.g. tcp://10.0.0.5:8786), without it a local "
                          "cluster is started. Prints the Prayatul matrix and measures of each "
                          "pair and ARI / NMI of each algorithm (no figures, no bootstrap). "
                          "Needs pip install 'prayatul-edu[dask]'")
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


def _check_file_args(args) -> None:
    if args.paper:
        raise ValueError("--paper: is for the paper's experiment, not with FILE")
    if not args.truth:
        raise ValueError("--truth: give the column of true classes (--truth COL) with FILE")


def _role(args, name: str) -> str:
    """The option that named column ``name``, or FILE for a column taken by default."""
    if name == args.primary:
        return "--primary"
    if args.alternative and name in args.alternative:
        return "--alternative"
    return "--algorithms" if args.algorithms else "FILE"


def _user_experiment(args, progress) -> tuple[Experiment, dict, tuple]:
    """The comparison of the user's file, what each column was used for (and why), and the
    fields read as missing."""
    _check_file_args(args)
    for warning in _two_roles(args):
        print(f"prayatul-edu compare: warning: {warning}", file=sys.stderr, flush=True)
    columns = read_columns(args.file, na=None if args.na is None else parse_na(args.na))
    na = (getattr(columns, "na", DEFAULT_NA), getattr(columns, "origin", None))
    where = Path(args.file).name
    n_rows = len(next(iter(columns.values()))) if columns else 0
    progress.say(f"read {n_rows:,} rows x {len(columns)} columns")
    if args.truth not in columns:
        _column(columns, args.truth, where, "--truth")   # the error lists the columns
    names, pairs, reasons = _algorithm_columns(args, columns, where)
    left_out = getattr(columns, "left_out", {})       # in the file's order: first, last
    reasons = {**{c: r for c, r in left_out.items() if c != EMPTY_COLUMNS}, **reasons,
               **{c: r for c, r in left_out.items() if c == EMPTY_COLUMNS}}
    used = [args.truth, *names, *(args.xy or [])]
    for name in used:                                    # unknown names: the error lists them
        if name not in columns:
            _column(columns, name, where, "--truth" if name == args.truth else
                    "--xy" if name in (args.xy or []) else _role(args, name))
    notes = []
    if args.drop_missing:
        columns, note = _drop_missing(columns, used)
        notes += [note] if note else []
    truth = _column(columns, args.truth, where, "--truth")
    labelings = {n: _column(columns, n, where, _role(args, n)) for n in names}
    labelings, X_rows, note = _noise(args, labelings)
    notes += [note] if note else []
    if X_rows is not None:
        truth = truth[X_rows]
        columns = {c: columns[c][X_rows] for c in args.xy or []}
    if len(names) == 1 and args.bootstrap:
        print("prayatul-edu compare: warning: --bootstrap gives intervals of the Prayatul "
              "measures of a pair; with one algorithm there is none", file=sys.stderr)
    X = None
    if args.xy:
        X = np.column_stack([_column(columns, c, where, "--xy").astype(float) for c in args.xy])
    experiment = compare_labelings(truth, labelings, X, name=where, pairs=pairs,
                                   n_resamples=args.bootstrap, seed=args.seed,
                                   confidence=args.confidence, average=args.average,
                                   progress=progress.say, notes=notes)
    return experiment, reasons, na


#: How ``--noise-as`` counts the noise label: one cluster, a cluster per point, rows left out.
NOISE_POLICIES = ("cluster", "singletons", "drop")


def _drop_missing(columns: dict, used: list) -> tuple[dict, str | None]:
    """``--drop-missing``: the columns without the rows missing a value in a used column."""
    missing = np.zeros(len(columns[used[0]]), dtype=bool)
    for name in dict.fromkeys(used):
        missing |= missing_mask(np.asarray(columns[name]))
    if not missing.any():
        return columns, None
    n, dropped = missing.shape[0], int(missing.sum())
    if dropped == n:
        raise ValueError(f"--drop-missing: every one of the {n:,} rows misses a value in "
                         f"{', '.join(dict.fromkeys(used))}")
    keep = ~missing
    kept = {c: np.asarray(col)[keep] for c, col in columns.items()}
    return kept, (f"{dropped:,} of {n:,} rows were left out for a missing value "
                  "(--drop-missing).")


def _is_label(col: np.ndarray, label: str) -> np.ndarray:
    """Where a column holds ``label`` as given on the command line (``-1`` matches the
    number -1 in a column of numbers and the text '-1' in a column of text)."""
    if col.dtype.kind in "iuf":
        try:
            return col == float(label)
        except ValueError:
            return np.zeros(col.shape[0], dtype=bool)
    return col == label


def _noise(args, labelings: dict):
    """``--noise LABEL --noise-as POLICY`` on the algorithm columns: ``(labelings, rows kept
    or None, the note the tables carry)``. Without ``--noise``, a -1 is pointed out."""
    if args.noise is None:
        said = {n: int(_is_label(col, "-1").sum()) for n, col in labelings.items()}
        said = {n: c for n, c in said.items() if c}
        if not said:
            return labelings, None, None
        where = ", ".join(f"{n} ({c:,} rows)" for n, c in said.items())
        return labelings, None, (f"The label -1 of {where} is counted as a cluster like any "
                                 "other; if it marks noise (as DBSCAN's does), say so with "
                                 "--noise -1 and --noise-as cluster, singletons or drop.")
    marks = {n: _is_label(col, args.noise) for n, col in labelings.items()}
    counts = {n: int(m.sum()) for n, m in marks.items()}
    where = ", ".join(f"{n} ({c:,} rows)" for n, c in counts.items() if c) or "no algorithm"
    label = args.noise
    if args.noise_as == "cluster":
        return labelings, None, (f"Noise: the label {label} of {where} is counted as one "
                                 "cluster (--noise-as cluster).")
    if args.noise_as == "singletons":
        out = {}
        for n, col in labelings.items():
            m = marks[n]
            if not m.any():
                out[n] = col
                continue
            col = col.astype(float) if col.dtype.kind == "f" else col.copy()
            if col.dtype.kind in "iuf":
                start = np.max(col[~m], initial=0) + 1
                col[m] = start + np.arange(counts[n])          # a new label per point
            else:
                col = col.astype(object)
                col[m] = [f"{label} #{i}" for i in range(counts[n])]
            out[n] = col
        return out, None, (f"Noise: each point labelled {label} in {where} is a cluster of "
                           "its own (--noise-as singletons): it is together with no other.")
    rows = ~np.logical_or.reduce(list(marks.values()))
    if not rows.any():
        raise ValueError(f"--noise-as: drop would leave out every row: each has the label "
                         f"{label} in some algorithm")
    dropped = int((~rows).sum())
    out = {n: col[rows] for n, col in labelings.items()}
    return out, rows, (f"Noise: the {dropped:,} rows labelled {label} by some algorithm "
                       f"({where}) are left out for every algorithm (--noise-as drop): all "
                       "are scored on the same rows.")


def _print_columns(where: str, reasons: dict, na: tuple, origin: str | None = None) -> None:
    shown = ", ".join('""' if not t else t for t in na)
    written = (" - written by R's write.csv, whose NA is a missing value"
               if origin == "R" and "NA" in na else "")
    print(f"Columns of {where} (read as missing: {shown}{written}):")
    width = max(len(c) for c in reasons)
    for name, reason in reasons.items():
        print(f"  {name:<{width}}  {reason}")
    if any(r.startswith("left out") for c, r in reasons.items() if c not in (INDEX_COLUMN, EMPTY_COLUMNS)):
        print("  (name a column left out with --algorithms to compare it)")
    print()


def _algorithm_columns(args, columns, where: str):
    """The algorithm columns, the (primary, alternative) pairs (None: all), and for every
    column of the file what it is used for and why."""
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
        names = list(args.algorithms or [])
        pairs = None
    reasons = {args.truth: "the truth (--truth)", **{c: "coordinates (--xy)" for c in xy_cols}}
    if names:
        for n in names:         # a column in two roles says both (and is warned of)
            named = [o for o, cols in (("--primary", [args.primary]),
                                       ("--alternative", args.alternative or []),
                                       ("--algorithms", args.algorithms or [])) if n in cols]
            reasons[n] = ", and ".join([*([reasons[n]] if n in reasons else []),
                                        f"taken: named with {' and '.join(named)}"])
        reasons.update({c: "not used" for c in columns if c not in reasons})
    else:
        names, found = label_columns(columns, exclude=reasons)
        reasons.update(found)
    reasons = {c: reasons[c] for c in [*columns, *reasons] if c in reasons}   # the file's order
    if not names:
        left = [c for c, r in reasons.items() if r.startswith("left out")]
        raise ValueError(f"FILE: {where} has no algorithm column besides the truth; at least "
                         "one is needed" + (
                             f" (left out as not clusterings: {', '.join(left)}; name them "
                             "with --algorithms)" if left else
                             " (hint: a column of labels per algorithm, beside --truth)"))
    return names, pairs, reasons


def _two_roles(args) -> list[str]:
    """Warnings for a column named in two roles (``--truth b --algorithms a b``)."""
    roles = {}
    for option, cols in (("--truth", [args.truth]), ("--primary", [args.primary]),
                         ("--alternative", args.alternative or []),
                         ("--algorithms", args.algorithms or []), ("--xy", args.xy or [])):
        for col in cols:
            if col is not None and option not in roles.setdefault(col, []):
                roles[col].append(option)
    return [f"column {col!r} is used as {' and as '.join(options)}"
            + (" (compared with itself, it scores perfectly)" if "--truth" in options else "")
            for col, options in roles.items() if len(options) > 1]


def _connect(scheduler: str):
    """A distributed client: to the scheduler at this address, or to a new local cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--dask: needs Dask's distributed scheduler: "
                         "pip install 'prayatul-edu[dask]'") from None
    if scheduler == "local":
        return Client(LocalCluster(dashboard_address=":0"))
    try:
        return Client(scheduler, timeout=20)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(f"--dask: cannot reach the scheduler at {scheduler}: {exc}") from None


def _dask_report(args, progress) -> dict:
    """Prayatul matrices of the pairs and ARI / NMI of each algorithm, counted on the cluster."""
    _check_file_args(args)
    if args.bootstrap or args.xy:
        raise ValueError(f"--{'bootstrap' if args.bootstrap else 'xy'}: not with --dask "
                         "(resampling and figures need the labels in memory)")
    if args.noise is not None or args.drop_missing:
        raise ValueError(f"--{'noise' if args.noise is not None else 'drop-missing'}: not "
                         "with --dask (the rows are read on the workers, as they are)")
    if not is_parquet(args.file):
        raise ValueError(f"FILE: --dask reads a Parquet file or directory, not "
                         f"{Path(args.file).name}")
    columns = read_parquet(args.file, dask=True)
    where = Path(args.file).name
    if args.truth not in columns:
        _column(columns, args.truth, where, "--truth")   # the error names the columns
    if args.primary or args.algorithms:
        names, pairs, _ = _algorithm_columns(args, columns, where)
        if len(names) < 2:
            raise ValueError("--algorithms: --dask compares two or more algorithm columns "
                             "(the Prayatul matrix of each pair); without --dask one is "
                             "scored against the truth")
    else:           # counting distinct values would cost a pass over the data: every column
        names, pairs = [c for c in columns if c != args.truth], None
        if len(names) < 2:
            raise ValueError(f"FILE: {where} has {len(names)} algorithm column(s) besides the "
                             "truth; at least two are needed")
    for name in names:
        if name not in columns:
            _column(columns, name, where, _role(args, name))
    pairs = pairs or [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    truth = columns[args.truth]
    progress.say(f"connecting to {'a local cluster' if args.dask == 'local' else args.dask}")
    with _connect(args.dask) as client:
        progress.say(f"counting on {len(client.scheduler_info()['workers'])} worker(s)")
        report = {"file": where, "scheduler": args.dask, "algorithms": {}, "pairs": [],
                  "nmi_average": NMI_AVERAGE}
        for name in names:
            progress.say(f"ARI and NMI of {name}")
            report["algorithms"][name] = {
                "adjusted_rand_index": float(adjusted_rand_index(truth, columns[name])),
                "normalized_mutual_information":
                    float(normalized_mutual_information(truth, columns[name],
                                                        average=NMI_AVERAGE))}
        for primary, alternative in pairs:
            progress.say(f"Prayatul matrix of {primary} vs {alternative}")
            m = prayatul_matrix(truth, columns[primary], columns[alternative])
            report["n"] = m.n
            report["pairs"].append({"primary": primary, "alternative": alternative,
                                    "BR": m.br, "RW": m.rw, "WR": m.wr, "BW": m.bw,
                                    **m.measures()})
    return report


def _print_dask_report(report: dict) -> None:
    print(f"{report['file']}: N = {report['n']:,} instances, counted with Dask "
          f"({report['scheduler']})\n")
    print(f"{'algorithm':<20} {'ARI':>10} {'NMI (' + NMI_AVERAGE + ')':>18}")
    for name, row in report["algorithms"].items():
        print(f"{name:<20} {row['adjusted_rand_index']:>10.6f} "
              f"{row['normalized_mutual_information']:>18.6f}")
    print()
    head = ("primary", "alternative", "BR", "RW", "WR", "BW", "sigma_c", "alpha", "xi_c",
            "xi_e", "phi_e")
    print(" ".join(f"{h:>12}" for h in head))
    for row in report["pairs"]:
        cells = [row["primary"], row["alternative"], *(f"{row[c]:,}" for c in
                                                       ("BR", "RW", "WR", "BW"))]
        cells += [f"{row[m]:.6f}" for m in ("comparative_deviation", "polarization",
                                            "comparative_rightness", "effective_rightness",
                                            "effective_superiority")]
        print(" ".join(f"{c:>12}" for c in cells))


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
    if args.dask is not None:
        try:
            if args.file is None:
                raise ValueError("--dask: needs a FILE (a Parquet file or directory)")
            report = _dask_report(args, progress)
        except (ValueError, TypeError, OSError) as exc:
            print(f"prayatul-edu compare: error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 2
        if args.format == "json":
            json.dump(_jsonable(report), sys.stdout, indent=1, allow_nan=False)
            print()
        else:
            _print_dask_report(report)
        progress.say("done")
        return 0
    try:
        _check_options(args)
        comparison = columns = None
        if args.file is not None:
            progress.say(f"reading {args.file}")
            experiment, columns, na = _user_experiment(args, progress)
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
        if columns is not None:
            out["columns"] = columns
            out["na"] = list(na[0])
        json.dump(_jsonable(out), sys.stdout, indent=1, allow_nan=False)
        print()
    else:
        if comparison is not None:
            print(comparison.explain())
            print()
            print(experiment.derivation(tables=("III",)).to_text())
        else:
            if columns is not None:
                _print_columns(Path(args.file).name, columns, *na)
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
