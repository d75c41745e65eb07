"""`prayatul-edu grade` on fabricated submissions of exercise 03 (see grading_helpers).

Correct, partly wrong, blank, raising, an endless loop, megabytes of output, and
malformed files, graded in one batch; the files written (CSV, JSON, feedback,
Canvas, Gradescope) checked field by field; identity from the file name or a
roster; the command line. Attacks are in test_grading_hostile.py.
"""
import csv
import io
import json
import re
from dataclasses import asdict

import nbformat
import numpy as np
import pytest

import prayatul_edu.exercises as ex
from grading_helpers import FULL, POINTS, QIDS, TOTAL, answers, notebook, rows
from prayatul_edu import cli, grading
from prayatul_edu.grading import export, identity, report

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    d = tmp_path_factory.mktemp("submissions")
    right = {s: answers(s) for s in ("s77", "s78", "s80", "s81", "s83")}
    wrong = dict(right["s78"])
    wrong["03.2"] = [2 * x for x in right["s78"]["03.2"]]           # ordered pairs
    zero_diag = np.array(right["s78"]["03.1"])
    np.fill_diagonal(zero_diag, 0)
    wrong["03.1"] = zero_diag.tolist()
    del wrong["03.4"]
    books = {
        "s77": notebook("s77", right["s77"]),
        "s78": notebook("s78", wrong),
        "s79": notebook("s79"),
        "s80": notebook("s80", right["s80"], after={"q03-1-check": "1 / 0"}),
        "s81": notebook("s81", right["s81"], after={"q03-1-check": "while True:\n    pass"}),
        "s83": notebook("s83", right["s83"], after={"q03-1-check": "print('x' * 300_000)"}),
        # the check cell of 03.2 itself loops (saved as run: In [7])
        "s84": notebook("s84", answers("s84"), check_source={
            "03.2": "while True:\n    pass"}),
    }
    for cell in books["s84"].cells:
        if cell.id == "q03-2-check":
            cell.execution_count = 7
    paths = []
    for name, nb in books.items():
        p = d / f"{name}_03_pair_counting.ipynb"
        nbformat.write(nb, p)
        paths.append(p)
    (d / "s85_03_pair_counting.ipynb").write_text("{not json", encoding="utf-8")
    paths.append(d / "s85_03_pair_counting.ipynb")
    err = io.StringIO()
    out = d / "out"
    reports = grading.grade_batch(paths, out, progress=err, cell_timeout=4, jobs=2,
                                  notebook_timeout=30, sandbox=SANDBOX,
                                  limits=asdict(grading.Limits(output=20_000)),
                                  formats=("canvas", "gradescope"), assignment="HW3")
    return {r.student: r for r in reports}, out, err.getvalue(), d


def test_all_correct(graded):
    r = graded[0]["s77"]
    assert (r.student, r.variant, r.exercise) == ("s77", "s77", "03_pair_counting")
    assert rows(r) == FULL and r.problems == [] and (r.total, r.max_total) == (TOTAL, TOTAL)
    assert r.calls == {q: {"check": 1} for q in QIDS}


def test_partly_wrong_is_diagnosed_without_the_answer(graded):
    r = graded[0]["s78"]
    st = {q: s for q, _, s in rows(r)}
    assert st["03.1"] == ex.INCORRECT and st["03.3"] == ex.CORRECT
    assert st["03.4"] == ex.NOT_ATTEMPTED and st["03.2"] in (ex.INCORRECT, ex.PARTLY)
    fb = {x["question"]: x["feedback"] for x in r.rows}
    assert "unordered" in fb["03.2"] and "diagonal is 1" in fb["03.1"]
    assert str(answers("s78")["03.2"]) not in fb["03.2"]


def test_blank_raising_and_looping_notebooks(graded):
    reports = graded[0]
    assert rows(reports["s79"]) == [(q, 0.0, ex.NOT_ATTEMPTED) for q in QIDS]
    assert any("raised ZeroDivisionError" in p for p in reports["s80"].problems)
    assert rows(reports["s80"]) == FULL
    # the endless loop is cut; the questions after it run in a fresh kernel
    assert [p for p in reports["s81"].problems if "did not finish" in p] == [
        'code cell 3 under "03.1 The ideal cluster similarity matrix" did not finish '
        "within 4 s (the cell time limit: an endless loop?) and was "
        "cut; the cells after it ran in a fresh kernel, after the setup cell (what the cells "
        "before it defined was lost)"]
    assert rows(reports["s81"]) == FULL


def test_a_cut_cell_is_named_as_jupyter_shows_it_and_its_question_says_so(graded):
    r = graded[0]["s84"]
    name = 'code cell 2 under "03.2 Counting the pairs" (In [7])'
    assert rows(r) == [FULL[0], ("03.2", 0.0, ex.NOT_ATTEMPTED)] + FULL[2:]
    assert r.problems == [f"{name} did not finish within 4 s (the cell time limit: an "
                          "endless loop?) and was cut; the cells after it ran in a fresh "
                          "kernel, after the setup cell (what the cells before it defined "
                          "was lost)"]
    assert r.rows[1]["feedback"] == (f"No answer was recorded: its cell ({name}) was cut or "
                                     "not run (see the problems with the notebook).")
    md = (graded[1] / "feedback" / "s84_03_pair_counting.md").read_text()
    assert "Not attempted" not in md and f"its cell ({name}) was cut" in md
    assert "\\" not in md   # plain text: nothing here for Markdown to misread


def test_honest_feedback_reads_as_plain_text(graded):
    """The feedback of an honest student has no backslash (17 before: s0001\\_01...)."""
    md = (graded[1] / "feedback" / "s77_03_pair_counting.md").read_text()
    assert "s77_03_pair_counting.ipynb" in md and "\\" not in md


def test_megabytes_of_output_are_cut(graded):
    r = graded[0]["s83"]
    assert r.problems == ["the output was cut after 20000 characters"] and r.total == TOTAL


def test_malformed_file_is_reported(graded):
    r = graded[0]["s85"]
    assert r.problems[0].startswith("not a valid notebook")
    assert rows(r) == [(q, 0.0, grading.NOTEBOOK_ERROR) for q in QIDS]


def test_csv_json_feedback_and_progress(graded):
    reports, out, err, _ = graded
    table = list(csv.DictReader(open(out / "grades.csv", encoding="utf-8")))
    assert list(table[0]) == grading.CSV_COLUMNS
    assert len(table) == 8 * len(QIDS)
    s77 = [x for x in table if x["student"] == "s77"]
    assert [x["question"] for x in s77] == QIDS
    assert [x["points"] for x in s77] == [str(POINTS[q]) for q in QIDS]
    assert {x["variant"] for x in s77} == {"s77"}
    data = json.loads((out / "grades.json").read_text())
    assert data["tolerance"] == {"atol": 1e-4, "rtol": 1e-4}
    assert data["settings"]["sandbox"] == SANDBOX
    by = {s["student"]: s for s in data["students"]}
    assert by["s78"]["total"] == reports["s78"].total
    assert by["s81"]["problems"] == reports["s81"].problems
    md = (out / "feedback" / "s78_03_pair_counting.md").read_text()
    assert md.startswith("# Feedback for s78") and "03.2 f00, f01, f10, f11" in md
    assert len(list((out / "feedback").glob("*.md"))) == 8
    # first what holds for every notebook (the limits in force), then one line a notebook
    limits = [line for line in err.splitlines() if line.startswith("limits: ")]
    assert limits == [f"limits: {line}" for line in data["settings"]["enforced"]]
    lines = [line for line in err.splitlines() if not line.startswith("limits: ")]
    assert len(lines) == 8 and lines[-1].startswith("[8/8] ") and "done in" in lines[-1]
    assert all(f"[{k}/8]" in line for k, line in enumerate(lines, 1))
    assert sum("ETA " in line for line in lines) == 7
    assert any(f"s77_03_pair_counting.ipynb: s77 {TOTAL:g}/{TOTAL:g} (" in line for line in lines)


def test_canvas_csv_field_by_field(graded):
    reports, out, _, _ = graded
    table = list(csv.reader(open(out / "canvas.csv", encoding="utf-8")))
    # Canvas's gradebook import: identity columns, then one column per assignment;
    # the optional second row gives the points possible
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "HW3"]
    assert table[1] == ["Points Possible", "", "", "", "", f"{TOTAL:g}"]
    got = {row[2]: row for row in table[2:]}
    assert set(got) == set(reports)
    assert got["s77"] == ["", "", "s77", "", "", f"{TOTAL:g}"]
    assert got["s78"][5] == f"{reports['s78'].total:g}"
    # per question: a file of its own, without the total (no point counted twice)
    per_q = export.canvas_csv(list(reports.values()), "HW3", questions=True).splitlines()
    assert per_q[0].split(",")[5:] == [f"HW3 {q}" for q in QIDS]
    assert per_q[1].split(",") == ["Points Possible", "", "", "", ""] + [
        f"{POINTS[q]:g}" for q in QIDS]
    assert per_q[2:] == [",,%s,,,%s" % (r.student, ",".join(f"{x['points']:g}" for x in r.rows))
                         for r in reports.values()]


def test_gradescope_results_field_by_field(graded):
    reports, out, _, _ = graded
    data = json.loads((out / "gradescope" / "s78" / "results.json").read_text())
    r = reports["s78"]
    # Gradescope's autograder results.json: score, execution_time, output, visibility,
    # stdout_visibility, tests (name, number, score, max_score, status, output, visibility)
    assert set(data) == {"score", "execution_time", "output", "visibility",
                         "stdout_visibility", "tests"}
    assert data["score"] == r.total and isinstance(data["execution_time"], int)
    assert data["visibility"] in ("visible", "hidden", "after_due_date", "after_published")
    assert [t["number"] for t in data["tests"]] == QIDS
    for t, row in zip(data["tests"], r.rows):
        assert set(t) == {"name", "number", "score", "max_score", "status", "output",
                          "visibility"}
        assert (t["score"], t["max_score"]) == (row["points"], row["max_points"])
        assert t["status"] == ("passed" if row["status"] == ex.CORRECT else "failed")
        assert t["output"].startswith(row["status"]) and t["name"].startswith(row["question"])


def test_a_roster_names_the_students(graded, tmp_path):
    src = graded[3]
    roster = tmp_path / "roster.csv"
    roster.write_text("file,student\ns77_03_pair_counting.ipynb,s78\n", encoding="utf-8")
    ids = identity.read_roster(roster)
    assert ids == {"s77_03_pair_counting.ipynb": "s78"}
    # s77's answers graded as s78's variant: not full marks, and the declared id reported
    r = grading.StudentReport.from_dict(grading.grade_isolated(
        "s77_03_pair_counting.ipynb", (src / "s77_03_pair_counting.ipynb").read_bytes(),
        asdict(grading.Options(roster=ids, sandbox=SANDBOX, cell_timeout=30)), str(src)))
    assert (r.student, r.variant) == ("s78", "s78") and r.total < TOTAL
    assert any("declared STUDENT_ID s77, but the file belongs to s78" in p for p in r.problems)
    unlisted = grading.grade_source("s99.ipynb", b"{}", grading.Options(
        roster=ids, exercise="03_pair_counting", sandbox=SANDBOX))
    assert rows(unlisted) == [(q, 0.0, grading.NOTEBOOK_ERROR) for q in QIDS]
    assert unlisted.problems == ["the file s99.ipynb is not on the roster (neither its path "
                                 "nor its name)"]


@pytest.mark.parametrize("text, message", [
    ("student\ns1\n", "roster: expected a CSV with the columns file and student"),
    ("file,student\na.ipynb,=cmd\n", "roster: line 2: '=cmd' is not a valid student id"),
    ("file,student\na.ipynb,s1\na.ipynb,s2\n", "roster: line 3: 'a.ipynb' is listed twice"),
])
def test_bad_roster(tmp_path, text, message):
    p = tmp_path / "r.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        identity.read_roster(p)


@pytest.mark.parametrize("name, student, exercise", [
    ("s1234.ipynb", "s1234", None),
    ("s1234_03_pair_counting.ipynb", "s1234", "03_pair_counting"),
    ("03_pair_counting-ana.b@uni.ipynb", "ana.b@uni", "03_pair_counting"),
    ("s1_01_matching.ipynb", "s1", "01_matching"),
])
def test_identity_and_exercise_from_the_file_name(name, student, exercise):
    ident = identity.identify(name, exercise=None, roster=None)
    assert (ident.student, ident.variant, ident.exercise) == (student, student, exercise)
    assert ident.ok == (exercise is not None)


def test_identity_from_the_folder_and_for_the_course_data():
    ident = identity.identify("s5.ipynb", exercise=None, roster=None,
                              folder="hw/02_information", variant="course")
    assert (ident.student, ident.variant, ident.exercise) == ("s5", None, "02_information")


@pytest.mark.parametrize("value, safe", [
    ("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("s1", "s1"), (1.5, 1.5), ("a=b", "a=b"),
])
def test_csv_cells_are_neutralised(value, safe):
    assert report.csv_safe(value) == safe


@pytest.mark.parametrize("text, escaped", [
    # what Markdown would misread: escaped where it would
    ("<b>x</b> & [a](http://e) **y**\n# z", "&lt;b>x&lt;/b> & [a\\](http://e) \\*\\*y\\*\\* # z"),
    ("![i](http://e) [r]: http://e [a][r]", "![i\\](http://e) [r\\]: http://e [a\\][r]"),
    ("__init__ and _x_", "\\_\\_init\\_\\_ and \\_x\\_"),
    ("&amp; &#60;", "&amp;amp; &amp;#60;"), ("~~gone~~", "\\~\\~gone\\~\\~"),
    ("# title", "\\# title"), ("> quote", "\\> quote"), ("- item", "\\- item"),
    ("12. item", "12\\. item"), ("a \\* b", "a \\\\\\* b"),
    # what it reads as itself: left as it is (plain text reads well)
    ("s0001_01_matching.ipynb", "s0001_01_matching.ipynb"),
    ("cell 3 raised ValueError (1 < 2): f(x) + 1 - 2 # not a heading",
     "cell 3 raised ValueError (1 < 2): f(x) + 1 - 2 # not a heading"),
    ("a & b, 12.5 points, `hint()`", "a & b, 12.5 points, `hint()`"),
])
def test_markdown_is_escaped_only_where_it_would_be_misread(text, escaped):
    assert report.md_escape(text) == escaped


def test_markdown_of_a_table_cell_escapes_its_bars():
    assert report.md_escape("a | b_c", table=True) == "a \\| b_c"
    assert report.md_escape("a | b") == "a | b"


def test_markdown_renders_the_student_text_as_itself_and_no_html():
    markdown = pytest.importorskip("markdown_it").MarkdownIt("commonmark")
    for text in ["<img src=x onerror=alert(1)> **b** [l](http://e) __u__ s_1_2 &lt; # h",
                 "![i](http://e) <http://e> <!-- c --> `code` a\\*b ~~s~~ 1. x"]:
        html = markdown.renderInline(report.md_escape(text))
        assert "<img" not in html and "<a " not in html and "<em>" not in html
        assert "<strong>" not in html and "<!--" not in html
        import html as html_module
        assert html_module.unescape(re.sub(r"</?code>", "", html)).replace(
            "`", "") == re.sub(r"\s+", " ", text).replace("`", "")


@pytest.mark.parametrize("text, value", [("2G", 2 * 1024 ** 3), ("500M", 500 * 1024 ** 2),
                                         ("64k", 65536), ("1.5G", int(1.5 * 1024 ** 3)),
                                         (4096, 4096)])
def test_sizes(text, value):
    assert grading.parse_size(text, "memory") == value


@pytest.mark.parametrize("text, error, message", [
    ("lots", ValueError, "memory: expected a size such as 2G or 500M, got 'lots'"),
    ("0M", ValueError, "memory: must be positive"), (True, TypeError, "memory: expected a size"),
])
def test_bad_sizes(text, error, message):
    with pytest.raises(error, match=message):
        grading.parse_size(text, "memory")


def test_limits_are_checked():
    with pytest.raises(ValueError, match="processes: expected a positive whole number"):
        grading.Limits(processes=0)


def test_sandbox_modes():
    assert grading.sandbox_problem("none") is None
    assert grading.sandbox_problem("docker").startswith("sandbox: expected one of bwrap, none")


def test_cli_grade(tmp_path, capsys, graded):
    src = graded[3]
    out = tmp_path / "out"
    code = cli.main(["grade", str(src / "s79_03_pair_counting.ipynb"),
                     str(src / "s85_03_pair_counting.ipynb"), "--out", str(out),
                     "--sandbox", SANDBOX, "--jobs", "2", "--format", "canvas"])
    assert code == 0
    err = capsys.readouterr().err
    assert "[2/2] " in err and "graded 2 notebook(s), 1 with problems" in err
    table = list(csv.DictReader(open(out / "grades.csv", encoding="utf-8")))
    assert [(x["student"], x["status"]) for x in table] == (
        [("s79", ex.NOT_ATTEMPTED)] * len(QIDS) + [("s85", grading.NOTEBOOK_ERROR)] * len(QIDS))
    assert (out / "canvas.csv").is_file() and not (out / "gradescope").exists()


def test_cli_refuses_without_a_sandbox(tmp_path, capsys, monkeypatch):
    from prayatul_edu.grading import sandbox

    nb = tmp_path / "s1_03_pair_counting.ipynb"
    nb.write_text("{}")
    monkeypatch.setitem(sandbox._CHECKED, "bwrap", "no bubblewrap (test)")
    assert cli.main(["grade", str(nb), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.startswith("sandbox: no bubblewrap (test)")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("argv, message", [
    (["nowhere.ipynb"], "submissions: not found: nowhere.ipynb"),
    (["{nb}", "--exercise", "99_x"], "exercise: there is no exercise '99_x'; the exercises "
                                      "are 01_matching, 02_information, 03_pair_counting, "
                                      "04_silhouette_graph, 05_hierarchy, 06_prayatul"),
    (["{nb}", "--exercise", "03_matching"], "exercise: there is no exercise '03_matching'"),
    (["{nb}", "--cell-timeout", "0"], "cell-timeout: must be positive"),
    (["{nb}", "--memory", "lots"], "memory: expected a size such as 2G or 500M"),
    (["{nb}", "--jobs", "0"], "jobs: must be positive"),
])
def test_cli_bad_arguments(tmp_path, capsys, argv, message):
    nb = tmp_path / "a.ipynb"
    nb.write_text("{}")
    argv = [a.replace("{nb}", str(nb)) for a in argv]
    assert cli.main(["grade", *argv, "--out", str(tmp_path / "o")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("sig, problem", [
    ("SIGSTOP", "grading did not finish within 3 s, or the grader's worker was stopped"),
    ("SIGKILL", "grading did not finish within 3 s, or the grader's worker was stopped"),
])
def test_a_stopped_or_killed_worker_costs_one_row(graded, sig, problem):
    import os
    import signal
    import threading

    src = graded[3] / "s77_03_pair_counting.ipynb"
    opts = asdict(grading.Options(exercise="03", sandbox=SANDBOX, notebook_timeout=2))
    worker = grading.Worker()
    worker.margin = 1
    try:
        worker._start()
        threading.Timer(0.3, os.kill, (worker.proc.pid, getattr(signal, sig))).start()
        r = grading.StudentReport.from_dict(worker.grade(src.name, src.read_bytes(), opts))
        assert rows(r) == [(q, 0.0, grading.NOTEBOOK_ERROR) for q in QIDS]
        assert r.problems == [problem + "; it was ended"] and worker.proc is None
        opts["notebook_timeout"] = 60    # the next notebook gets a fresh worker
        again = grading.StudentReport.from_dict(worker.grade(src.name, src.read_bytes(), opts))
        assert rows(again) == FULL
    finally:
        worker.close()


@pytest.mark.parametrize("exercise", ["03", "03_pair_counting"])
def test_the_exercise_named_by_the_instructor_is_taken_out_of_the_id(exercise):
    ident = identity.identify("s1234_03_pair_counting.ipynb", exercise=exercise, roster=None)
    assert (ident.student, ident.exercise) == ("s1234", "03_pair_counting")
    with pytest.raises(ValueError, match="^exercise: there is no exercise '99'; the "
                                         "exercises are 01_matching, "):
        identity.identify("s1.ipynb", exercise="99", roster=None)


def test_a_crash_mid_batch_keeps_the_rows_already_graded(tmp_path, monkeypatch):
    from prayatul_edu.grading import batch

    for sid in ("c1", "c2"):
        (tmp_path / f"{sid}.ipynb").write_text("{not json", encoding="utf-8")

    def crash(*args, **kw):
        raise RuntimeError("disk full")

    monkeypatch.setattr(batch, "write_exports", crash)
    with pytest.raises(RuntimeError, match="disk full"):
        grading.grade_batch(sorted(tmp_path.glob("*.ipynb")), tmp_path / "out", progress=False,
                            exercise="03", sandbox=SANDBOX, jobs=1)
    kept = list(csv.DictReader(open(tmp_path / "out" / "grades.partial.csv", encoding="utf-8")))
    assert [(x["student"], x["question"], x["status"]) for x in kept] == [
        (sid, q, grading.NOTEBOOK_ERROR) for sid in ("c1", "c2") for q in QIDS]
    assert len(list((tmp_path / "out" / "feedback").glob("*.md"))) == 2


def test_the_worker_reads_notebooks_without_the_iri_checker():
    """The worker leaves out rfc3987_syntax (2 s of CPU at every worker start, for a
    format nbformat never checks): a notebook is still read and validated."""
    import subprocess
    import sys

    from prayatul_edu.grading.worker import UNUSED

    code = ("import sys\nfrom prayatul_edu.grading import worker\nworker.main()\n"
            "import nbformat\nnb = nbformat.reads(sys.argv[1], as_version=4)\n"
            "nbformat.validate(nb)\n"
            "print([sys.modules[m] for m in worker.UNUSED], len(nb.cells))")
    text = nbformat.writes(notebook("w1", answers("w1")))
    out = subprocess.run([sys.executable, "-I", "-c", code, text], input=b"",
                         capture_output=True, check=True).stdout.decode().split("\n")[0]
    assert UNUSED == ("rfc3987_syntax",)
    assert out == f"[None] {len(nbformat.reads(text, as_version=4).cells)}"
