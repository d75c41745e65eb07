"""`prayatul-edu compare` and its Python API: tournament, Tables II-III, bootstrap, files, errors."""
import json
import subprocess
import sys

import numpy as np
import pytest

import prayatul_edu as pe
from prayatul_edu import cli
from prayatul_edu.compare import (MEASURES, bootstrap, compare_labelings, label_scores,
                                  raw_precision_recall, read_columns, tournament)

from cases import random_labelings


def _labelings(seed, n=120, k=3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    return truth, {"A": np.where(rng.random(n) < 0.8, truth, rng.integers(0, k, n)),
                   "B": rng.integers(0, k + 1, n) - 1,      # with a noise label -1
                   "C": (truth + 1) % k}                    # right clusters, other names


# ------------------------------------------------------------------ the API
def test_tournament_is_every_ordered_pair_of_prayatul_matrices():
    truth, labs = _labelings(0)
    t = tournament(truth, labs)
    assert t.pairs == [(p, q) for p in "ABC" for q in "ABC" if p != q]
    for p, q in t.pairs:
        m = pe.prayatul_matrix(truth, labs[p], labs[q], method="pairs")
        assert (t[p, q].br, t[p, q].rw, t[p, q].wr, t[p, q].bw) == (m.br, m.rw, m.wr, m.bw)
        assert (t[q, p].rw, t[q, p].wr) == (m.wr, m.rw)
    v = t.values("comparative_deviation")
    assert np.isnan(np.diag(v)).all()
    assert v[0, 2] == t["A", "C"].comparative_deviation == -1.0   # C is always right
    assert np.allclose(v, -v.T, equal_nan=True)


def test_tournament_bad_input():
    with pytest.raises(TypeError, match="labelings: expected a dict of at least two"):
        tournament([0, 1], {"A": [0, 1]})
    with pytest.raises(ValueError, match="truth and B must label the same instances"):
        tournament([0, 1, 1], {"A": [0, 1, 1], "B": [0, 1]})
    with pytest.raises(ValueError, match="pairs: 'Z' is not one of"):
        tournament([0, 1], {"A": [0, 1], "B": [1, 0]}, pairs=[("A", "Z")])


@pytest.mark.parametrize("seed", range(8))
def test_raw_precision_recall_agrees_with_sklearn(seed):
    from sklearn.metrics import precision_score, recall_score

    truth, pred = random_labelings(seed)
    pred = pred + 1 if seed % 2 else pred          # labels the truth does not have
    for average in ("macro", "weighted", None):
        p, r = raw_precision_recall(truth, pred, average=average)
        assert np.allclose(p, precision_score(truth, pred, average=average, zero_division=0),
                           atol=1e-12)
        assert np.allclose(r, recall_score(truth, pred, average=average, zero_division=0),
                           atol=1e-12)


def test_label_scores_agree_with_sklearn_and_show_the_permutation_problem():
    from sklearn import metrics

    truth, labs = _labelings(1)
    scores = label_scores(truth, labs)
    for name, pred in labs.items():
        s = scores[name]
        assert s["accuracy"] == pytest.approx(metrics.accuracy_score(truth, pred))
        assert s["nmi"] == pytest.approx(metrics.normalized_mutual_info_score(truth, pred), abs=1e-12)
        assert s["ari"] == pytest.approx(metrics.adjusted_rand_score(truth, pred), abs=1e-12)
        assert s["ami"] == pytest.approx(metrics.adjusted_mutual_info_score(truth, pred), abs=1e-12)
    assert scores["C"]["accuracy"] == 0 and scores["C"]["precision"] == 0
    assert scores["C"]["maximum_matching"] == 1 and scores["C"]["ari"] == 1
    assert scores["B"]["n_clusters"] == 4
    # string labels against int labels: nothing shared, accuracy 0, the rest still works
    s = label_scores([0, 0, 1, 1], {"s": ["a", "a", "b", "b"]})["s"]
    assert (s["accuracy"], s["maximum_matching"], s["ari"]) == (0.0, 1.0, 1.0)


def test_bootstrap_replicates_are_the_prayatul_matrices_of_the_resamples():
    truth, labs = _labelings(2, n=90)
    b = bootstrap(truth, labs, n_resamples=25, seed=7)
    draws = np.random.default_rng(7).integers(0, 90, size=(25, 90))
    for r in (0, 13, 24):
        idx = draws[r]
        for p, q in [("A", "B"), ("B", "A"), ("C", "A")]:
            m = pe.prayatul_matrix(truth[idx], labs[p][idx], labs[q][idx], method="pairs")
            assert b.counts[p, q][r].tolist() == [m.br, m.rw, m.wr, m.bw]
            assert np.allclose(b.replicates[p, q][r], list(m.measures().values()), atol=1e-12)
    low, high = b.interval("A", "B", "comparative_deviation")
    reps = b.replicates["A", "B"][:, 0]
    assert low == pytest.approx(np.quantile(reps, 0.025)) and high == pytest.approx(np.quantile(reps, 0.975))
    assert low <= high
    assert b.estimates["A", "B"] == [float(v) for v in tournament(truth, labs)["A", "B"].measures().values()]
    again = bootstrap(truth, labs, n_resamples=25, seed=7)
    assert np.array_equal(again.replicates["A", "B"], b.replicates["A", "B"])
    assert not np.array_equal(bootstrap(truth, labs, 25, seed=8).replicates["A", "B"],
                              b.replicates["A", "B"])


def test_bootstrap_interval_narrows_with_more_data():
    rng = np.random.default_rng(3)
    widths = []
    for n in (100, 1600):
        truth = rng.integers(0, 2, n)
        a = np.where(rng.random(n) < 0.85, truth, 1 - truth)
        c = np.where(rng.random(n) < 0.80, truth, 1 - truth)
        low, high = bootstrap(truth, {"a": a, "c": c}, 100, seed=0).interval(
            "a", "c", "comparative_deviation")
        widths.append(high - low)
    assert widths[1] < widths[0] / 2


def test_bootstrap_bad_input():
    with pytest.raises(ValueError, match="n_resamples: must be a whole number >= 1"):
        bootstrap([0, 1], {"a": [0, 1], "b": [1, 1]}, n_resamples=0)
    with pytest.raises(ValueError, match="confidence: must be between 0 and 1"):
        bootstrap([0, 1], {"a": [0, 1], "b": [1, 1]}, confidence=95)
    with pytest.raises(ValueError, match="measure"):
        bootstrap([0, 1], {"a": [0, 1], "b": [1, 1]}, 3).interval("a", "b", "sigma")


def test_experiment_renders_text_markdown_and_dict():
    truth, labs = _labelings(4)
    e = compare_labelings(truth, labs, name="mine", n_resamples=20)
    text = e.explain()
    for caption in ("Table I.", "Table II.", "Table III.", "Bootstrap: 20 resamples"):
        assert caption in text
    assert "| primary | alternative | BR |" in e._repr_markdown_()
    d = e.to_dict()["datasets"][0]
    assert len(d["table_1"]) == 6 and d["n"] == 120 and d["n_classes"] == 3
    row = d["table_1"][0]
    assert row["BR"] + row["RW"] + row["WR"] + row["BW"] == 120 * 119 // 2
    assert set(d["bootstrap"]["intervals"][0]) == {"primary", "alternative", *MEASURES}


# ------------------------------------------------------------------ files
def _csv(tmp_path, text, name="runs.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


CSV = "x,y,truth,km,db,sp\n" + "\n".join(
    f"{i % 7},{i % 5},{t},{a},{b},{c}" for i, (t, a, b, c) in enumerate(
        zip([0, 0, 0, 1, 1, 1, 2, 2, 2, 2] * 3, [0, 0, 1, 1, 1, 2, 2, 2, 0, 2] * 3,
            [5, 5, 5, 6, 6, 6, 7, 7, 7, -1] * 3, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1] * 3))) + "\n"


def test_read_columns_csv_npy_npz(tmp_path):
    cols = read_columns(_csv(tmp_path, CSV))
    assert list(cols) == ["x", "y", "truth", "km", "db", "sp"]
    assert cols["db"].dtype == np.int64 and cols["db"][9] == -1
    cols = read_columns(_csv(tmp_path, "a;b\ncat;1.5\ndog;2\n", "semi.csv"))
    assert cols["a"].tolist() == ["cat", "dog"] and cols["b"].tolist() == [1.5, 2.0]
    np.save(tmp_path / "t.npy", np.array([[0, 1], [1, 1], [1, 0]]))
    assert read_columns(tmp_path / "t.npy")["1"].tolist() == [1, 1, 0]
    np.savez(tmp_path / "t.npz", truth=np.array([0, 1, 1]), X=np.zeros((3, 2)))
    assert sorted(read_columns(tmp_path / "t.npz")) == ["X:0", "X:1", "truth"]


def _run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_a_csv_primary_vs_alternative(tmp_path, capsys):
    path = _csv(tmp_path, CSV)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--primary", "km",
                          "--alternative", "db", "--no-figures")
    assert code == 0, err
    m = pe.prayatul_matrix(read_columns(path)["truth"], read_columns(path)["km"],
                           read_columns(path)["db"])
    line = next(s for s in out.splitlines() if s.split()[:2] == ["km", "db"])
    assert line.split()[:6] == ["km", "db", str(m.br), str(m.rw), str(m.wr), str(m.bw)]
    assert f"{m.comparative_deviation:.4f}" in line
    assert "db             km" not in out          # only the asked ordered pair
    assert "reading" in err


def test_json_has_the_same_numbers_as_the_text(tmp_path, capsys):
    path = _csv(tmp_path, CSV)
    args = ["compare", str(path), "--truth", "truth", "--xy", "x", "y", "--no-figures", "--quiet"]
    code, text, _ = _run(capsys, *args)
    code_j, out, err = _run(capsys, *args, "--format", "json")
    assert code == code_j == 0 and err == ""
    data = json.loads(out)                         # nothing but JSON on stdout
    ds = data["datasets"][0]
    assert ds["algorithms"] == ["km", "db", "sp"]  # every column but truth and --xy
    assert len(ds["table_1"]) == 6
    for row in ds["table_1"]:
        cells = [row["primary"], row["alternative"], row["BR"], row["RW"], row["WR"], row["BW"],
                 *(f"{row[m]:.4f}" for m in MEASURES)]
        assert "  ".join(str(c) for c in cells).split() in [l.split() for l in text.splitlines()]
    for row in ds["table_3"]:
        assert f"{row['ari']:.4f}" in text


def test_figures_are_written_and_named(tmp_path, capsys):
    path = _csv(tmp_path, CSV)
    out_dir = tmp_path / "figs"
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--xy", "x", "y",
                          "--out", str(out_dir), "--bootstrap", "30")
    assert code == 0, err
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == ["runs_csv_bootstrap.png", "runs_csv_clusterings.png",
                     "runs_csv_instance_maps.png", "runs_csv_prayatul_matrices.png",
                     "runs_csv_tournament.png"]
    assert f"Figures (5) written to {out_dir.resolve()}" in out
    assert "Bootstrap: 30 resamples" in out


@pytest.mark.parametrize("content, name, args, message", [
    (CSV, "runs.csv", ["--truth", "class"], "--truth: no column 'class' in runs.csv (columns: x, y"),
    (CSV, "runs.csv", ["--truth", "truth", "--primary", "km", "--alternative", "nope"],
     "--alternative: no column 'nope'"),
    ("a,b,c\n0,1,1\n1,,0\n", "nan.csv", ["--truth", "a"],
     "FILE: column 'b' has a missing or NaN value in data row 2"),
    ("a,b,c\n0,1,1\n1,,0\n", "nan.csv", ["--truth", "a", "--algorithms", "b", "c"],
     "--algorithms: column 'b' has a missing or NaN value in data row 2"),
    ("a,b,c\n0,1,1\n1,NA,0\n", "na.csv", ["--truth", "a", "--na", 'NA,""'],
     "FILE: column 'b' has a missing or NaN value in data row 2"),
    ("a,b,c\n0,1,1\nnan,1,0\n", "nan.csv", ["--truth", "a"],
     "--truth: column 'a' has a missing or NaN value in data row 2"),
    ("a,b,c\n0,1,1\n1,0\n", "ragged.csv", ["--truth", "a"],
     "FILE: line 3 of ragged.csv has 2 fields, but the header has 3"),
    (None, "absent.csv", ["--truth", "a"], "FILE: cannot read"),
    (b"\x89PNG\x00\xff\xfe", "garbage.npy", ["--truth", "0"], "FILE: cannot read garbage.npy"),
    (b"\xff\xfe\x00garbage", "binary.csv", ["--truth", "a"], "is not a UTF-8 text file"),
    ("a,b\n", "runs.xlsx", ["--truth", "a"], "FILE: unknown format '.xlsx'"),
    ("a,id\n" + "".join(f"{i % 2},{i}\n" for i in range(40)), "ids.csv", ["--truth", "a"],
     "has no algorithm column besides the truth; at least one is needed (left out as not "
     "clusterings: id; name them with --algorithms)"),
    ("a\n0\n1\n", "alone.csv", ["--truth", "a"],
     "has no algorithm column besides the truth; at least one is needed (hint: a column"),
    ("a,b,a\n0,1,1\n1,0,0\n", "twice.csv", ["--truth", "a"],
     "'a' more than once (hint: rename the repeated columns"),
    ("a,,b\n0,1,1\n1,0,0\n", "unnamed.csv", ["--truth", "a"],
     "column(s) 2 have no name (hint: write a name for each in the first row)"),
    ("a,b,c\n0,1,1\n1,0,0,1\n", "extra.csv", ["--truth", "a"],
     "has 4 fields, but the header has 3 (hint: a value holding the separator must be in"),
    ("0,1,2\n0,1,1\n1,0,0\n", "noheader.csv", ["--truth", "truth"],
     "so the file may lack a header row"),
    ("Truth,b,c\n0,1,1\n1,0,0\n", "case.csv", ["--truth", "truth"],
     "did you mean 'Truth'?"),
    (CSV, "runs.csv", ["--truth", "truth", "--primary", "km"], "--primary: give --alternative"),
    (CSV, "runs.csv", ["--truth", "truth", "--bootstrap", "-1"], "--bootstrap: must be 0"),
    (CSV, "runs.csv", [], "--truth: give the column of true classes"),
    (CSV, "runs.csv", ["--truth", "truth", "--paper"], "--paper: is for the paper's experiment"),
])
def test_errors_are_one_clear_line(tmp_path, capsys, content, name, args, message):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out, err = _run(capsys, "compare", str(path), *args, "--no-figures")
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if not line.startswith("[")]
    assert len(lines) == 1, err
    assert lines[0].startswith("prayatul-edu compare: error: ") and message in lines[0], err


def test_errors_for_npz_of_different_lengths(tmp_path, capsys):
    np.savez(tmp_path / "d.npz", truth=np.array([0, 1, 1]), a=np.array([0, 1]),
             b=np.array([1, 1, 0]))
    code, _, err = _run(capsys, "compare", str(tmp_path / "d.npz"), "--truth", "truth",
                        "--no-figures", "--quiet")
    assert code == 2
    assert err.strip() == ("prayatul-edu compare: error: FILE: columns 'a' (2 values) and "
                           "'truth' (3 values) of d.npz have different lengths")


def test_options_needing_a_file(capsys):
    code, _, err = _run(capsys, "compare", "--truth", "t", "--no-figures")
    assert code == 2 and "--truth: needs a FILE" in err


def test_no_traceback_from_the_real_process(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "prayatul_edu", "compare",
                           str(tmp_path / "missing.csv"), "--truth", "a"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("prayatul-edu compare: error: FILE")


# ------------------------------------------------------------ the main job
def test_main_job_is_compare_live_with_progress(capsys):
    code, out, err = _run(capsys, "--no-figures", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [d["name"] for d in data["datasets"]] == ["noisy_circles", "noisy_moons", "aniso"]
    assert data["versions"][0].startswith("scikit-learn ")
    nc = data["datasets"][0]
    assert len(nc["table_1"]) == 12
    row = next(r for r in nc["table_1"] if (r["primary"], r["alternative"]) == ("BIRCH", "DBSCAN"))
    # DBSCAN and BIRCH involve no randomness: the paper's counts in every version
    assert (row["BR"], row["RW"], row["WR"], row["BW"]) == (565231, 0, 559019, 0)
    assert err.count("running ") == 12 and "running Spectral on aniso (10/12)" in err


def test_paper_option_prints_every_published_value(capsys):
    code, out, err = _run(capsys, "compare", "--paper", "--no-figures", "--quiet")
    assert code == 0
    assert "216 published values: 208 match, 7 truncated, 1 typo." in out
    assert "Table III." in out and "scikit-learn 1.1.3" in out
    code, out, _ = _run(capsys, "compare", "--paper", "--no-figures", "--quiet", "--format", "json")
    data = json.loads(out)
    assert data["paper"]["counts"] == {"match": 208, "truncated": 7, "typo": 1}
    assert len(data["paper"]["entries"]) == 216
    assert data["datasets"][0]["table_2"][0]["precision"] == pytest.approx(0.541726, abs=1e-6)


def test_help_and_examples_still_work(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in ("--truth COL", "--primary COL", "--bootstrap B", "--paper", "--format",
                   "--out DIR", "effective superiority"):
        assert option in out
    code, out, _ = _run(capsys, "examples")
    assert code == 0 and "worked examples" in out


# ------------------------------------------------- a researcher's own file
def _researcher_csv(tmp_path, n=400):
    """ids, two coordinate columns, the truth and three clusterings (one with a label "NA")."""
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, n)
    good = np.where(rng.random(n) < 0.9, truth, rng.integers(0, 3, n))
    poor = np.where(rng.random(n) < 0.5, truth, rng.integers(0, 3, n))
    named = np.array(["NA", "c1", "c2"])[np.where(rng.random(n) < 0.7, truth,
                                                   rng.integers(0, 3, n))]
    x, y = rng.normal(size=n).round(5), rng.integers(0, 10**6, n)
    rows = [f"{i},{x[i]},{y[i]},{truth[i]},{good[i]},{poor[i]},{named[i]}" for i in range(n)]
    path = tmp_path / "runs.csv"
    path.write_text("id,x,y,class,good,poor,named\n" + "\n".join(rows) + "\n")
    return path, truth, {"good": good, "poor": poor, "named": named}


def test_columns_of_distinct_values_are_not_clusterings_unless_named(tmp_path, capsys):
    path, truth, labs = _researcher_csv(tmp_path)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                          "--quiet", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["datasets"][0]["algorithms"] == ["good", "poor", "named"]
    why = data["columns"]
    assert why["id"] == "left out: 400 distinct values in 400 rows (coordinates or ids?)"
    assert why["x"].startswith("left out: numbers with decimals")
    distinct_y = len(set(np.loadtxt(path, delimiter=",", skiprows=1, usecols=2).tolist()))
    assert why["y"] == f"left out: {distinct_y} distinct values in 400 rows (coordinates or ids?)"
    assert why["class"] == "the truth (--truth)" and why["good"] == "taken: 3 clusters"
    # the text says the same, in the file's order, and how to take a column anyway
    code, text, _ = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                         "--quiet")
    head = text.split("\n\n")[0].splitlines()
    assert head[0] == 'Columns of runs.csv (read as missing: ""):'
    assert [line.split()[0] for line in head[1:8]] == ["id", "x", "y", "class", "good", "poor",
                                                       "named"]
    assert "name a column left out with --algorithms" in text
    # named, a column of ids is compared (every instance its own cluster)
    code, out, _ = _run(capsys, "compare", str(path), "--truth", "class", "--algorithms", "id",
                        "good", "--no-figures", "--quiet", "--format", "json")
    data = json.loads(out)
    assert data["datasets"][0]["algorithms"] == ["id", "good"]
    assert data["columns"]["id"] == "taken: named with --algorithms"
    assert data["columns"]["poor"] == "not used"


def test_label_columns_thresholds():
    from prayatul_edu.label_files import label_columns

    n = 100
    cols = {"half": np.arange(n) % 50, "more": np.arange(n) % 51, "small": np.arange(10),
            "floats": np.arange(n) % 3 + 0.5, "whole": (np.arange(n) % 3).astype(float)}
    taken, why = label_columns(cols)
    assert taken == ["half", "small", "whole"]     # 50 of 100 distinct is still a clustering
    assert why["more"].startswith("left out: 51 distinct values in 100 rows")
    assert why["small"] == "taken: 10 clusters"      # 10 singletons: at most 20 is never left out


def test_legend_and_one_verdict_per_pair(tmp_path, capsys):
    path, truth, labs = _researcher_csv(tmp_path)
    code, text, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                           "--quiet")
    assert code == 0, err
    for symbol, direction in [("sigma_c comparative deviation", "> 0"),
                              ("phi_e effective superiority", "higher than in the swapped row")]:
        line = next(l for l in text.splitlines() if l.strip().startswith(symbol))
        assert direction in line
    verdicts = [l[2:] for l in text.splitlines() if l.startswith("- ")]
    assert len(verdicts) == 3                       # 3 algorithms: 3 pairs, one line each
    m = pe.prayatul_matrix(truth, labs["good"], labs["poor"])
    assert m.rw > m.wr
    assert verdicts[0] == (f"good better than poor: right on {m.rw:,} of the {m.rw + m.wr:,} "
                           f"pairs where exactly one is right ({m.rw / (m.rw + m.wr):.1%}, "
                           f"σ_c = {m.comparative_deviation:.4f})")
    assert "No interval: resample the instances" in text


def test_verdict_reads_the_bootstrap_interval():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 60)
    a = np.where(rng.random(60) < 0.7, truth, 1 - truth)
    b = np.where(rng.random(60) < 0.7, truth, 1 - truth)
    best = np.where(rng.random(60) < 0.98, truth, 1 - truth)
    labs = {"a": a, "b": b, "best": best}
    t, boot = tournament(truth, labs), bootstrap(truth, labs, 100, seed=1)
    verdicts = {tuple(sorted(v["pair"])): v for v in t.verdicts(boot)}
    for (p, q), v in verdicts.items():
        better, worse = v["pair"]
        low, high = boot.interval(better, worse, "comparative_deviation")
        assert v["interval"] == pytest.approx((low, high))
        assert v["crosses_zero"] == (low <= 0 <= high)
        assert v["comparative_deviation"] >= 0
        assert v["text"].endswith("crosses 0: no evidence of a difference" if v["crosses_zero"]
                                  else "excludes 0")
    assert verdicts["a", "best"]["better"] == "best" and not verdicts["a", "best"]["crosses_zero"]
    # only one order of a pair computed: the verdict turns it round
    one = tournament(truth, labs, pairs=[("a", "best")])
    (v,) = one.verdicts(bootstrap(truth, labs, 100, seed=1, pairs=[("a", "best")]))
    assert v["better"] == "best" and v["interval"] == pytest.approx(
        verdicts["a", "best"]["interval"])
    # a tie: the same labels under other names
    (tie,) = tournament(truth, {"p": truth, "q": 1 - truth}, [("p", "q")]).verdicts()
    assert tie["better"] is None and "neither is better" in tie["text"]


def test_na_tokens_are_stated_and_settable(tmp_path, capsys):
    from prayatul_edu.label_files import parse_na

    assert parse_na('NA,""') == ("NA", "") and parse_na("NA,") == ("NA", "")
    path, truth, labs = _researcher_csv(tmp_path)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                          "--quiet", "--format", "json")
    data = json.loads(out)
    assert data["na"] == [""]                         # the default: only the empty field
    n_na = int((labs["named"] == "NA").sum())
    assert data["columns"]["named"] == (f"taken: 3 clusters; {n_na} value(s) 'NA' read as a "
                                        "cluster's name (--na NA reads them as missing)")
    scores = {r["algorithm"]: r for r in data["datasets"][0]["table_3"]}
    assert scores["named"]["ari"] == pytest.approx(pe.adjusted_rand_index(truth, labs["named"]))
    cols = read_columns(path, na=("NA",))
    assert sum(v is None for v in cols["named"]) == n_na
    with pytest.raises(SystemExit):
        cli.main(["compare", "--help"])
    assert 'default: only the empty field, ""' in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["compare", "grade", "examples"])
def test_help_starts_with_a_plain_sentence(capsys, command):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]            # after the usage lines
    assert description[0].isupper() and description.rstrip().endswith(".")
    for markup in ("``", ":mod:", ":func:", "`"):
        assert markup not in description


# ------------------------------------------------------------------ researchers' files
def test_a_pandas_csv_with_its_index_is_read_and_the_index_said_left_out(tmp_path, capsys):
    """DataFrame.to_csv() with its default index: an empty first header cell. The index is
    left out (not taken as a clustering, though it has few distinct values here) and the
    columns table says so; the ARI printed is scikit-learn's."""
    pd = pytest.importorskip("pandas")
    from sklearn.metrics import adjusted_rand_score

    truth, labs = _labelings(3, n=60)
    frame = pd.DataFrame({"truth": truth, **labs}, index=np.arange(60) % 5)  # 5 index values
    path = tmp_path / "frame.csv"
    frame.to_csv(path)
    assert path.read_text().startswith(",truth,A,B,C\n")
    columns = read_columns(path)
    assert list(columns) == ["truth", "A", "B", "C"]
    assert list(columns.left_out) == ["(unnamed first column)"]
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures",
                          "--quiet")
    assert code == 0 and err == "", err
    index_line = next(line for line in out.splitlines() if "(unnamed first column)" in line)
    assert "left out" in index_line and "DataFrame.to_csv()" in index_line
    table_3 = out[out.index("Table III"):]
    for name, labels in labs.items():
        row = next(line.split() for line in table_3.splitlines() if line.split()[:1] == [name])
        assert row[2] == f"{adjusted_rand_score(truth, labels):.4f}"


def test_one_algorithm_is_scored_and_table_1_says_it_needs_two(tmp_path, capsys):
    from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score

    truth, labs = _labelings(4)
    path = tmp_path / "one.csv"
    path.write_text("truth,A\n" + "".join(f"{t},{a}\n" for t, a in zip(truth, labs["A"])))
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--quiet",
                          "--out", str(tmp_path / "figs"))
    assert code == 0 and err == "", err
    assert "Table I needs two algorithms" in out
    row = next(line.split() for line in out[out.index("Table III"):].splitlines()
               if line.split()[:1] == ["A"])
    assert row[2:] == [f"{adjusted_rand_score(truth, labs['A']):.4f}",
                       f"{adjusted_mutual_info_score(truth, labs['A']):.4f}"]
    assert "Verdicts" not in out and "BR" not in out
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--quiet",
                          "--no-figures", "--format", "json", "--bootstrap", "10")
    ds = json.loads(out)["datasets"][0]
    assert code == 0 and ds["table_1"] == [] and ds["verdicts"] == []
    assert ds["note"].startswith("Table I needs two algorithms") and "bootstrap" not in ds
    assert ds["table_3"][0]["ari"] == pytest.approx(adjusted_rand_score(truth, labs["A"]))
    assert err.strip() == ("prayatul-edu compare: warning: --bootstrap gives intervals of the "
                           "Prayatul measures of a pair; with one algorithm there is none")


@pytest.mark.parametrize("args, warning", [
    (["--truth", "b", "--algorithms", "a", "b"],
     "column 'b' is used as --truth and as --algorithms (compared with itself, it scores "
     "perfectly)"),
    (["--truth", "c", "--primary", "a", "--alternative", "b", "a"],
     "column 'a' is used as --primary and as --alternative"),
    (["--truth", "c", "--algorithms", "a", "b", "--xy", "a", "b"],
     "column 'a' is used as --algorithms and as --xy"),
])
def test_a_column_in_two_roles_is_a_warning(tmp_path, capsys, args, warning):
    path = tmp_path / "roles.csv"
    path.write_text("a,b,c\n" + "".join(f"{i % 3},{i % 2},{i % 4}\n" for i in range(12)))
    code, out, err = _run(capsys, "compare", str(path), *args, "--no-figures", "--quiet")
    assert code == 0, err
    assert f"prayatul-edu compare: warning: {warning}" in err.splitlines()
    assert len(err.splitlines()) == (2 if "--xy" in args else 1)
    listing = out[:out.index("\n\n")]       # the column listing names both roles too
    column, *roles = warning.split(" is used as ")[0][len("column '"):-1], \
        *warning.split(" is used as ")[1].split(" (")[0].split(" and as ")
    line = next(line for line in listing.splitlines() if line.split()[:1] == [column])
    assert all(role in line for role in roles), line


def test_no_warning_when_every_column_has_one_role(tmp_path, capsys):
    path = tmp_path / "roles.csv"
    path.write_text("a,b,c\n" + "".join(f"{i % 3},{i % 2},{i % 4}\n" for i in range(12)))
    code, _, err = _run(capsys, "compare", str(path), "--truth", "c", "--algorithms", "a", "b",
                        "--no-figures", "--quiet")
    assert code == 0 and err == ""


def test_dask_needs_two_algorithm_columns(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    path = tmp_path / "runs.parquet"
    pq.write_table(pa.table({"truth": [0, 1, 1, 0], "a": [1, 1, 0, 0]}), path)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--algorithms",
                          "a", "--dask", "--quiet")
    assert code == 2 and out == ""
    assert err.strip().startswith("prayatul-edu compare: error: --algorithms: --dask compares "
                                  "two or more algorithm columns")


def _iris_like(n=90, seed=5):
    """A researcher's table: classes as strings, two clusterings, one measurement."""
    rng = np.random.default_rng(seed)
    truth = np.array(["setosa", "versicolor", "virginica"])[np.arange(n) % 3]
    a = np.where(rng.random(n) < 0.8, np.arange(n) % 3, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.6, np.arange(n) % 3, rng.integers(0, 4, n))
    length = np.round(4 + 3 * rng.random(n), 1)
    return truth, {"a": a, "b": b}, length


def _table_3_ari(out: str) -> dict:
    return {cells[0]: cells[2] for cells in (line.split() for line in
                                              out[out.index("Table III"):].splitlines())
            if len(cells) == 4 and cells[0] in ("a", "b", "length")}


def test_european_excel_csv_semicolons_decimal_commas_bom_crlf(tmp_path, capsys):
    """Excel in a European locale: ';' between fields, ',' in decimals, a BOM, CRLF. The
    measurement with decimal commas is a number column (left out as one), not 30-odd
    'clusters' scored against the truth; the scores are scikit-learn's."""
    from sklearn.metrics import adjusted_rand_score

    truth, labs, length = _iris_like()
    lines = ["class;a;b;length"] + [f"{t};{a};{b};{str(x).replace('.', ',')}"
                                    for t, a, b, x in zip(truth, labs["a"], labs["b"], length)]
    path = tmp_path / "excel.csv"
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    columns = read_columns(path)
    assert columns["length"].tolist() == pytest.approx(length.tolist())
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                          "--quiet")
    assert code == 0 and err == "", err
    assert "length  left out: numbers with decimals" in out
    assert _table_3_ari(out) == {k: f"{adjusted_rand_score(truth, v):.4f}"
                                 for k, v in labs.items()}


def test_trailing_empty_columns_of_a_spreadsheet_are_left_out(tmp_path, capsys):
    """A spreadsheet's export with empty columns at the end of every row (and a last row of
    separators only) is read as its named columns, and the listing says what was left
    out."""
    from sklearn.metrics import adjusted_rand_score

    truth, labs, _ = _iris_like()
    body = "".join(f"{t},{a},{b},,\n" for t, a, b in zip(truth, labs["a"], labs["b"]))
    path = _csv(tmp_path, "class,a,b,,\n" + body + ",,,,\n", "sheet.csv")
    assert list(read_columns(path)) == ["class", "a", "b"]
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                          "--quiet")
    assert code == 0 and err == "", err
    assert "left out: 2 columns at the end with no name and no value" in out
    assert _table_3_ari(out) == {k: f"{adjusted_rand_score(truth, v):.4f}"
                                 for k, v in labs.items()}
    path = _csv(tmp_path, "class,a,b\n" + body, "rows_only.csv")    # empty fields past the header
    assert list(read_columns(path)) == ["class", "a", "b"]
    assert read_columns(path)["b"].tolist() == labs["b"].tolist()


def test_a_header_row_repeated_inside_the_file_is_named_not_read_as_labels(tmp_path, capsys):
    """Two exports pasted together: the second header is not a row of labels (it gave every
    column one more 'cluster' and wrong scores); one line says where it is and what to do."""
    truth, labs, _ = _iris_like()
    rows = [f"{t},{a},{b}" for t, a, b in zip(truth, labs["a"], labs["b"])]
    path = _csv(tmp_path, "\n".join(["class,a,b", *rows[:40], "class,a,b", *rows[40:]]) + "\n",
                "joined.csv")
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures")
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if not line.startswith("[")]
    assert lines == ["prayatul-edu compare: error: FILE: line 42 of joined.csv repeats the "
                     "header row (hint: files joined together? delete that line)"], err


def test_a_missing_label_says_how_to_fix_it(tmp_path, capsys):
    path = _csv(tmp_path, "class,a,b\n" + "".join(
        f"{i % 3},{'' if i == 4 else i % 2},{i % 4}\n" for i in range(12)), "gap.csv")
    code, out, err = _run(capsys, "compare", str(path), "--truth", "class", "--no-figures",
                          "--quiet")
    assert code == 2 and out == ""
    assert err.strip() == ("prayatul-edu compare: error: FILE: column 'a' has a missing or NaN "
                           "value in data row 5 (hint: --drop-missing leaves out the rows "
                           "without a label; or give them a label of their own, e.g. -1 for "
                           "noise)")
