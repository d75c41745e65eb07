"""Dask arrays on a distributed.LocalCluster give exactly the in-memory results.

Per-chunk cells are counted on the workers and merged on the client; every
integer must be identical and every float bit-for-bit equal to the in-memory
path, whatever the chunking. Also: Parquet files and directories, and
``prayatul-edu compare --dask``.
"""
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from prayatul_edu import (adjusted_mutual_information, adjusted_rand_index,  # noqa: E402
                          cluster_entropy, contingency_table, entropy,
                          fowlkes_mallows_index, jaccard_index, mutual_information,
                          normalized_mutual_information, pair_confusion, prayatul_matrix,
                          rand_index)
from prayatul_edu.label_files import read_columns, read_parquet  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _labels(rng, n, k, kind):
    codes = rng.integers(0, k, n)
    if kind == "ints":
        return codes
    if kind == "noise":
        return codes - 1
    if kind == "huge":
        return codes * 10**12 - 3
    return np.array([f"c{c}" for c in codes])


PAIR_MEASURES = [adjusted_rand_index, rand_index, jaccard_index, fowlkes_mallows_index,
                 mutual_information, cluster_entropy,
                 lambda t, p: normalized_mutual_information(t, p, average="arithmetic"),
                 normalized_mutual_information, adjusted_mutual_information]


@pytest.mark.parametrize("kind", ["ints", "noise", "huge", "strings"])
@pytest.mark.parametrize("k", [1, 7, 300])
def test_identical_to_in_memory(client, kind, k):
    rng = np.random.default_rng(k)
    n = 5000
    g, p, q = (_labels(rng, n, k, kind) for _ in range(3))
    chunks = (1000, 37, 2000, 1963)                      # uneven, one tiny
    G, P, Q = (da.from_array(x, chunks=(chunks,)) for x in (g, p, q))
    m, ref = prayatul_matrix(G, P, Q), prayatul_matrix(g, p, q)
    assert (m.br, m.rw, m.wr, m.bw, m.n) == (ref.br, ref.rw, ref.wr, ref.bw, ref.n)
    assert all(type(v) is int for v in (m.br, m.rw, m.wr, m.bw))
    assert m.measures() == ref.measures()
    table, ref_table = contingency_table(G, P), contingency_table(g, p)
    assert (np.asarray(table) == np.asarray(ref_table)).all()
    assert table.clusters.tolist() == ref_table.clusters.tolist()
    assert table.classes.tolist() == ref_table.classes.tolist()
    assert np.asarray(pair_confusion(G, P)).tolist() == np.asarray(pair_confusion(g, p)).tolist()
    for measure in PAIR_MEASURES:
        assert float(measure(G, P)) == float(measure(g, p))
    h, ref_h = entropy(G), entropy(g)
    assert float(h) == float(ref_h) and h.counts.tolist() == ref_h.counts.tolist()
    assert h.labels.tolist() == ref_h.labels.tolist()


def test_mixed_dask_and_numpy_and_dask_series(client):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    g, p, q = (rng.integers(0, 5, 3000) for _ in range(3))
    frame = dd.from_pandas(pd.DataFrame({"g": g, "p": p, "q": q}), npartitions=4)
    ref = prayatul_matrix(g, p, q)
    mixed = prayatul_matrix(frame["g"], p, da.from_array(q, chunks=700))
    assert (mixed.br, mixed.rw, mixed.wr, mixed.bw) == (ref.br, ref.rw, ref.wr, ref.bw)
    assert float(adjusted_rand_index(frame["g"], frame["p"])) == float(adjusted_rand_index(g, p))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_chunking_gives_the_same_counts(client, data):
    n = data.draw(st.integers(2, 80))
    arrays = [np.array(data.draw(st.lists(st.integers(-2, 6), min_size=n, max_size=n)))
              for _ in range(3)]
    cuts = sorted(set(data.draw(st.lists(st.integers(1, n - 1), max_size=4)))) if n > 2 else []
    chunks = tuple(np.diff([0, *cuts, n]).tolist())
    dask_arrays = [da.from_array(a, chunks=(chunks,)) for a in arrays]
    m, ref = prayatul_matrix(*dask_arrays), prayatul_matrix(*arrays)
    assert (m.br, m.rw, m.wr, m.bw) == (ref.br, ref.rw, ref.wr, ref.bw)
    assert float(adjusted_rand_index(*dask_arrays[:2])) == float(adjusted_rand_index(*arrays[:2]))


def test_bad_input_is_reported_by_name(client):
    g = da.from_array(np.array([0.0, 1.0, np.nan, 1.0, 0.0, 1.0]), chunks=3)
    p = da.from_array(np.array([0, 0, 1, 1, 0, 1]), chunks=3)
    with pytest.raises(ValueError, match=r"^truth: labels must not be NaN"):
        adjusted_rand_index(g, p)
    with pytest.raises(ValueError, match=r"^truth and pred must label the same instances"):
        adjusted_rand_index(p, p[:5])
    with pytest.raises(ValueError, match=r"^truth: has 1 instance"):
        contingency_table(p[:1], p[:1])
    with pytest.raises(ValueError, match=r"^method: 'pairs'"):
        prayatul_matrix(p, p, p, method="pairs")


def test_import_does_not_import_dask():
    code = "import sys, prayatul_edu; print(any(m.split('.')[0] == 'dask' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ Parquet
def _write_runs(tmp_path, n=4000, parts=3):
    rng = np.random.default_rng(2)
    runs = {"truth": rng.integers(0, 4, n), "kmeans": rng.integers(0, 5, n),
            "dbscan": rng.integers(-1, 3, n),
            "names": np.array([f"c{v}" for v in rng.integers(0, 3, n)])}
    folder = tmp_path / "runs"
    folder.mkdir()
    bounds = np.linspace(0, n, parts + 1).astype(int)
    for i in range(parts):
        pq.write_table(pa.table({k: v[bounds[i]:bounds[i + 1]] for k, v in runs.items()}),
                       folder / f"part-{i}.parquet")
    single = tmp_path / "runs.parquet"
    pq.write_table(pa.table(runs), single)
    return runs, folder, single


def test_read_parquet_file_directory_and_lazily(tmp_path, client):
    runs, folder, single = _write_runs(tmp_path)
    for path in (folder, single):
        columns = read_columns(path)
        assert set(columns) == set(runs)
        for name, values in runs.items():
            assert columns[name].tolist() == values.tolist()
        lazy = read_parquet(path, dask=True)
        assert lazy["kmeans"].compute().tolist() == runs["kmeans"].tolist()
    with pytest.raises(OSError, match=r"^FILE: cannot read"):
        read_parquet(tmp_path / "missing.parquet")
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(ValueError, match=r"^FILE: cannot read bad.parquet as Parquet"):
        read_columns(tmp_path / "bad.parquet")


def test_compare_dask_on_a_local_cluster(tmp_path):
    runs, folder, _ = _write_runs(tmp_path)
    out = subprocess.run(
        [sys.executable, "-m", "prayatul_edu", "compare", str(folder), "--truth", "truth",
         "--algorithms", "kmeans", "dbscan", "names", "--dask", "--format", "json", "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["n"] == 4000
    g = runs["truth"]
    for name in ("kmeans", "dbscan", "names"):
        assert report["algorithms"][name]["adjusted_rand_index"] == float(
            adjusted_rand_index(g, runs[name]))
        # the same NMI as Table III: the arithmetic mean, said in the report
        assert report["algorithms"][name]["normalized_mutual_information"] == float(
            normalized_mutual_information(g, runs[name], average="arithmetic"))
    assert report["nmi_average"] == "arithmetic"
    first = report["pairs"][0]
    m = prayatul_matrix(g, runs[first["primary"]], runs[first["alternative"]])
    assert [first[c] for c in ("BR", "RW", "WR", "BW")] == [m.br, m.rw, m.wr, m.bw]
    assert len(report["pairs"]) == 3                      # every unordered pair once


def test_compare_dask_refuses_what_needs_memory(tmp_path, capsys):
    from prayatul_edu import cli

    runs, folder, _ = _write_runs(tmp_path)
    csv = tmp_path / "runs.csv"
    csv.write_text("truth,a,b\n0,0,1\n1,1,0\n")
    for extra, message in [(["--bootstrap", "5"], "--bootstrap: not with --dask"),
                           (["--noise", "-1"], "--noise: not with --dask"),
                           (["--drop-missing"], "--drop-missing: not with --dask"),
                           ([], "FILE: --dask reads a Parquet file")]:
        target = str(folder) if extra else str(csv)
        code = cli.main(["compare", target, "--truth", "truth", "--dask", "tcp://127.0.0.1:1",
                         *extra])
        assert code == 2 and message in capsys.readouterr().err
