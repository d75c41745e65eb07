"""`prayatul-edu compare` with noise and missing labels by choice, R's files, and the tables'
words: which mean the NMI uses, thousands separators, progress on stderr."""
import json

import numpy as np
import pytest

import prayatul_edu as pe
from prayatul_edu import cli
from prayatul_edu.label_files import origin_of, parse_table, read_columns

sk_metrics = pytest.importorskip("sklearn.metrics")


def _run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _data(seed=46, n=90):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    km = np.where(rng.random(n) < 0.8, truth, rng.integers(0, 3, n))
    db = np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n))
    db[rng.random(n) < 0.2] = -1                             # DBSCAN's noise
    return truth, km, db


def _write(tmp_path, truth, km, db, name="runs.csv"):
    path = tmp_path / name
    path.write_text("truth,km,db\n" + "".join(f"{t},{a},{b}\n" for t, a, b in
                                             zip(truth, km, db)))
    return path


def _json(capsys, *argv):
    code, out, err = _run(capsys, "compare", *argv, "--no-figures", "--quiet", "--format",
                          "json")
    assert code == 0, err
    return json.loads(out)["datasets"][0]


def _ari(ds, name):
    return next(r["ari"] for r in ds["table_3"] if r["algorithm"] == name)


def test_noise_as_a_cluster_singletons_or_dropped_gives_scikit_learns_numbers(tmp_path, capsys):
    truth, km, db = _data()
    path = _write(tmp_path, truth, km, db)
    noise = db == -1
    assert 5 < noise.sum() < 40
    # as a cluster: the labels as they are
    ds = _json(capsys, str(path), "--truth", "truth", "--noise", "-1")
    assert _ari(ds, "db") == pytest.approx(sk_metrics.adjusted_rand_score(truth, db), abs=1e-12)
    assert ds["notes"] == [f"Noise: the label -1 of db ({noise.sum()} rows) is counted as one "
                           "cluster (--noise-as cluster)."]
    # singletons: each noise point a cluster of its own
    alone = db.copy()
    alone[noise] = 100 + np.arange(noise.sum())
    ds = _json(capsys, str(path), "--truth", "truth", "--noise", "-1", "--noise-as", "singletons")
    assert _ari(ds, "db") == pytest.approx(sk_metrics.adjusted_rand_score(truth, alone),
                                           abs=1e-12)
    assert _ari(ds, "db") != pytest.approx(sk_metrics.adjusted_rand_score(truth, db), abs=1e-6)
    assert ds["table_2"][1]["n_clusters"] == 3 + int(noise.sum())
    m = pe.prayatul_matrix(truth, km, alone)
    row = ds["table_1"][0]
    assert (row["BR"], row["RW"], row["WR"], row["BW"]) == (m.br, m.rw, m.wr, m.bw)
    # drop: the noise rows left out for both algorithms
    ds = _json(capsys, str(path), "--truth", "truth", "--noise", "-1", "--noise-as", "drop")
    keep = ~noise
    assert ds["n"] == int(keep.sum())
    for name, labels in (("km", km), ("db", db)):
        assert _ari(ds, name) == pytest.approx(
            sk_metrics.adjusted_rand_score(truth[keep], labels[keep]), abs=1e-12)
    assert f"the {noise.sum()} rows labelled -1 by some algorithm" in ds["notes"][0]


def test_every_table_says_how_noise_was_counted(tmp_path, capsys):
    truth, km, db = _data()
    path = _write(tmp_path, truth, km, db)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--noise", "-1",
                          "--noise-as", "singletons", "--no-figures", "--quiet")
    assert code == 0, err
    captions = [line for line in out.splitlines() if line.startswith("Table ")]
    assert [c[:9] for c in captions] == ["Table I. ", "Table II.", "Table III"]
    assert all("(--noise-as singletons)" in c for c in captions)
    # without --noise, a -1 is named, with what to do
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures",
                          "--quiet")
    assert code == 0 and out.count("The label -1 of db") == 3
    assert "if it marks noise (as DBSCAN's does), say so with --noise -1" in out
    # no -1 anywhere: no word of noise
    code, out, err = _run(capsys, "compare", str(_write(tmp_path, truth, km, km, "clean.csv")),
                          "--truth", "truth", "--no-figures", "--quiet")
    assert code == 0 and "noise" not in out.lower()


def test_noise_drop_of_every_row_is_refused(tmp_path, capsys):
    path = tmp_path / "all.csv"
    path.write_text("t,a,b\n0,-1,0\n1,0,-1\n0,-1,1\n")
    code, out, err = _run(capsys, "compare", str(path), "--truth", "t", "--noise", "-1",
                          "--noise-as", "drop", "--no-figures", "--quiet")
    assert code == 2 and "--noise-as: drop would leave out every row" in err


def test_drop_missing_leaves_out_rows_with_a_missing_label_and_says_how_many(tmp_path, capsys):
    truth, km, db = _data()
    text = ["truth,km,db"] + [f"{t},{a},{b}" for t, a, b in zip(truth, km, db)]
    text[4] = f"{truth[3]},,{db[3]}"                    # data row 4: km missing
    text[10] = f",{km[9]},{db[9]}"                      # data row 10: truth missing
    path = tmp_path / "gaps.csv"
    path.write_text("\n".join(text) + "\n")
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures",
                          "--quiet")
    assert code == 2 and "has a missing or NaN value in data row" in err and "--drop-missing" in err
    ds = _json(capsys, str(path), "--truth", "truth", "--drop-missing")
    keep = np.ones(len(truth), bool)
    keep[[3, 9]] = False
    assert ds["n"] == len(truth) - 2
    assert ds["notes"][0] == f"2 of {len(truth)} rows were left out for a missing value " \
                             "(--drop-missing)."
    assert _ari(ds, "km") == pytest.approx(
        sk_metrics.adjusted_rand_score(truth[keep], km[keep]), abs=1e-12)


def test_an_r_file_reads_na_as_missing_and_is_told_of_row_names(tmp_path, capsys):
    """R's write.csv: every name quoted, row names under "", NA for a missing value."""
    truth, km, db = _data(n=40)
    lines = ['"","truth","km","db"'] + [f'"{i + 1}",{t},{"NA" if i == 6 else a},{b}'
                                       for i, (t, a, b) in enumerate(zip(truth, km, db))]
    path = tmp_path / "from_r.csv"
    path.write_text("\n".join(lines) + "\n")
    cols = read_columns(path)
    assert cols.origin == "R" and cols.na == ("", "NA") and list(cols) == ["truth", "km", "db"]
    assert np.isnan(cols["km"][6]) and cols["km"][7] == km[7]
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures",
                          "--quiet")
    assert code == 2 and "column 'km' has a missing or NaN value in data row 7" in err
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures",
                          "--quiet", "--drop-missing")
    assert code == 0, err
    assert "written by R's write.csv, whose NA is a missing value" in out
    index_line = next(line for line in out.splitlines() if "(unnamed first column)" in line)
    assert "row.names = FALSE" in index_line and "pandas" not in index_line
    # --na given: the user's choice, NA is then a label like any other
    assert read_columns(path, na=("",))["km"].dtype == object


def test_origin_of_a_header():
    assert origin_of('"truth","km"\n0,1\n') == "R"
    assert origin_of(",truth,km\n0,0,1\n") == "pandas"
    assert origin_of("truth,km\n0,1\n") is None
    assert origin_of('"truth";"km"\n', ";") == "R"
    assert parse_table(',truth,km\n0,1,2\n1,1,3\n', "x.csv").left_out[
        "(unnamed first column)"].startswith("left out: an unnamed first column, as pandas'")


def test_tables_name_the_nmi_mean_and_separate_thousands(tmp_path, capsys):
    rng = np.random.default_rng(3)
    n = 300
    truth = rng.integers(0, 4, n)
    a = np.where(rng.random(n) < 0.7, truth, rng.integers(0, 4, n))
    b = rng.integers(0, 4, n)
    path = _write(tmp_path, truth, a, b)
    code, out, err = _run(capsys, "compare", str(path), "--truth", "truth", "--no-figures")
    assert code == 0
    head = next(line for line in out.splitlines() if line.strip().startswith("algorithm  NMI"))
    assert head.split()[1:] == ["NMI", "(arithmetic)", "ARI", "AMI", "(arithmetic)"]
    row = next(line.split() for line in out[out.index("Table III"):].splitlines()
               if line.split()[:1] == ["km"])
    assert row[1] == f"{sk_metrics.normalized_mutual_info_score(truth, a):.4f}"
    m = pe.prayatul_matrix(truth, a, b)
    assert m.br >= 10_000                                # 44,850 pairs in all
    table_1 = next(line.split() for line in out.splitlines() if line.split()[:2] == ["km", "db"])
    # separated from 10,000 on, as everywhere in the course (4413 stays as it is)
    assert table_1[2:6] == [f"{c:,}" if c >= 10_000 else str(c) for c in (m.br, m.rw, m.wr, m.bw)]
    assert "," in table_1[2]
    assert "N = 300," in out
    # progress on stderr: each stage named before it runs
    stages = [line.split("] ", 1)[1] for line in err.splitlines() if line.startswith("[")]
    assert stages[:4] == [f"reading {path}", "read 300 rows x 3 columns",
                          "Table I: the Prayatul matrix of 2 ordered pairs of 2 algorithms, "
                          "N = 300", "Tables II and III: 2 algorithms against the truth"]
