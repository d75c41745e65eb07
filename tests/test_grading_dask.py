"""`prayatul-edu grade --dask SCHEDULER`: the same grades from a Dask cluster as locally."""
import json

import nbformat
import pytest

from grading_helpers import POINTS, TOTAL, answers, notebook
from prayatul_edu import cli, grading

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"


def _without_times(data: dict) -> dict:
    for s in data["students"]:
        s.pop("seconds")
    return data


def test_a_cluster_grades_exactly_like_a_local_run(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    wrong = answers("d2")
    wrong["03.3"] = [0.123, 0.456]
    for sid, nb in {"d1": notebook("d1", answers("d1")), "d2": notebook("d2", wrong),
                    "d3": notebook("d3", after={"setup": "1 / 0"})}.items():
        nbformat.write(nb, subs / f"{sid}.ipynb")
    (subs / "d4.ipynb").write_text("{not json")
    common = [str(subs), "--exercise", "03", "--sandbox", SANDBOX, "--format", "canvas"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert cli.main(["grade", *common, "--out", str(tmp_path / "dask"),
                         "--dask", cluster.scheduler_address]) == 0
    assert cli.main(["grade", *common, "--out", str(tmp_path / "local"), "--jobs", "2"]) == 0
    local, dask = tmp_path / "local", tmp_path / "dask"
    for name in ["grades.csv", "canvas.csv"] + [f"feedback/d{k}_03_pair_counting.md"
                                                for k in range(1, 5)]:
        assert (dask / name).read_text() == (local / name).read_text(), name
    assert _without_times(json.loads((dask / "grades.json").read_text())) == \
        _without_times(json.loads((local / "grades.json").read_text()))
    totals = [s["total"] for s in json.loads((dask / "grades.json").read_text())["students"]]
    assert totals == [TOTAL, TOTAL - POINTS["03.3"], 0.0, 0.0]


def test_dask_needs_the_extra(tmp_path, capsys, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_distributed(name, *args, **kw):
        if name == "distributed":
            raise ImportError(name)
        return real(name, *args, **kw)

    nb = tmp_path / "s1.ipynb"
    nb.write_text("{}")
    monkeypatch.setattr(builtins, "__import__", no_distributed)
    assert cli.main(["grade", str(nb), "--exercise", "03", "--sandbox", "none", "--out",
                     str(tmp_path / "o"), "--dask", "tcp://nowhere:8786"]) == 2
    assert "dask: grading on a cluster needs the dask extra" in capsys.readouterr().err
