"""Questions whose answer is a function (issue 44): ``q.check(fn)`` runs the student's
function on public cases under a time limit per call and names the misconception it
behaves like; the grader runs it in the sandbox on hidden cases drawn in its own process.

Every expected value is computed here by brute force (purity as the count of each
cluster's majority class), independently of the library.
"""
import json
import re
import textwrap
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import prayatul_edu.exercises as ex
from grading_helpers import package_only
from prayatul_edu import cli, grading
from prayatul_edu.exercises import CORRECT, INCORRECT, INVALID, NOT_ATTEMPTED, kinds
from prayatul_edu.exercises import authoring as pa

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
ROOT = Path(__file__).resolve().parents[1]


def brute_purity(truth, pred):
    """Purity by counting: each cluster's largest class, added up, over n."""
    truth, pred = list(np.ravel(truth)), list(np.ravel(pred))
    return sum(max(Counter(t for t, p in zip(truth, pred) if p == c).values())
               for c in set(pred)) / len(truth)


def right(truth, pred):
    return brute_purity(truth, pred)


def inverse(truth, pred):
    return brute_purity(pred, truth)


@pytest.fixture
def q():
    return ex.question("01.11", seed=None)


# ------------------------------------------------------------------ at home
def test_a_right_purity_is_correct_on_the_course_and_on_a_variant(q):
    out = q.check(right)
    assert out.text.startswith("01.11 write purity(truth, pred): correct (2/2)")
    assert q.grade(right).status == CORRECT
    assert ex.question("01.11", seed="s4411").grade(right).status == CORRECT


def test_an_inverse_purity_is_named_with_the_smallest_case_where_it_differs(q):
    outcome = q.grade(inverse)
    assert outcome.status == INCORRECT and outcome.points == 0
    assert "inverse purity" in outcome.diagnosed
    text = outcome.feedback
    assert "computes the inverse purity" in text
    # the smallest public case where it differs: 4 instances; its value and purity's
    small = min((c for _, kind, c in q.public_cases() if kind == "small"
                 and not np.isclose(inverse(**c), right(**c))), key=lambda c: len(c["truth"]))
    assert f"truth = {small['truth']}, pred = {small['pred']}" in text
    assert f"it returns {inverse(**small):g}; the purity is {right(**small):g}" in text
    assert "def purity" not in text and "np.unique" not in text   # never the right code


def test_the_largest_class_overall_is_named(q):
    def largest(truth, pred):
        return max(Counter(np.ravel(truth)).values()) / len(truth)

    assert "largest class overall" in q.grade(largest).diagnosed


def test_a_raising_function_has_its_exception_and_case_named(q):
    def purity(truth, pred):
        return 1 / (len(set(pred)) - len(set(pred)))

    outcome = q.grade(purity)
    assert outcome.status == INCORRECT
    assert "On your data it raised `ZeroDivisionError`: `division by zero`." in outcome.feedback
    assert "raises ZeroDivisionError" in outcome.diagnosed


def test_a_function_that_never_returns_is_stopped_and_the_time_limit_named(q):
    import time

    def purity(truth, pred):
        while True:
            pass

    start = time.monotonic()
    outcome = q.grade(purity)
    assert time.monotonic() - start < 30
    assert outcome.status == INCORRECT and "time limit" in outcome.diagnosed
    # the first call may take longer (its imports): a loop that never ends, there
    assert f"did not return within {kinds.FIRST_CALL_LIMIT:g} s (the time limit" in outcome.feedback


def test_the_time_limit_holds_outside_the_main_thread_too(q):
    import threading

    def purity(truth, pred):
        while True:
            pass

    got = {}
    worker = threading.Thread(target=lambda: got.update(outcome=q.grade(purity)))
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and "time limit" in got["outcome"].diagnosed


def test_a_time_limit_outside_the_main_thread_leaves_the_interpreter_as_it_was():
    """The limit in another thread used to clear its last exception with
    ``PyThreadState_SetAsyncExc(id, NULL)``: CPython 3.11 then keeps its eval breaker set
    for good, and the next call made under ``sys.setprofile`` (tests/walk.py) looped
    forever; the test run hung there. Run in a process of its own, with a time limit."""
    import subprocess
    import sys

    script = (
        "import sys, threading, time\n"
        "from prayatul_edu.exercises.kinds import _limited, _TimeLimit\n"
        "def spin(): \n    while True: pass\n"
        "def nap(): time.sleep(0.05)\n"
        "said = []\n"
        "def run():\n"
        "    for fn in [spin] + [nap] * 8:\n"
        "        try: _limited(fn, (), 0.05)\n"
        "        except _TimeLimit: said.append(fn.__name__)\n"
        "t = threading.Thread(target=run); t.start(); t.join()\n"
        "calls = []\n"
        "sys.setprofile(lambda f, e, a: calls.append(e))\n"
        "sum(x for x in range(3))\n"
        "sys.setprofile(None)\n"
        "time.sleep(0.3)\n"        # no late exception surfaces here either
        "print(said[0], len(calls) > 0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["spin", "True"]


def test_a_wrong_type_is_named(q):
    outcome = q.grade(lambda truth, pred: f"{right(truth, pred):.2f}")
    assert "it returned a `str` (`'0.50'`), not a number" in outcome.feedback
    assert "wrong type" in outcome.diagnosed
    assert "`NoneType`" in q.grade(lambda truth, pred: None).feedback


def test_the_blank_and_a_value_instead_of_a_function(q):
    assert q.grade(...).status == NOT_ATTEMPTED
    outcome = q.grade(0.5)
    assert outcome.status == INVALID and "expected your function `purity`" in outcome.feedback


def test_the_record_is_the_source_and_the_outputs_never_the_function(q):
    outcome_text = q.check(inverse)
    assert "not yet" in outcome_text.text.lower() or "incorrect" in outcome_text.text
    record = ex.submissions()["01.11"]["answer"]
    assert json.loads(json.dumps(record)) == record          # plain JSON data
    assert record["function"] == "inverse" and "brute_purity(pred, truth)" in record["source"]
    cases = [c for _, _, c in q.public_cases()]
    assert [o["value"] for o in record["outputs"]] == pytest.approx([inverse(**c) for c in cases])
    # the grader's verdict from the record alone equals the one at home
    assert q.grade(record).diagnosed == q.grade(inverse).diagnosed


def test_the_functions_text_is_escaped_in_the_feedback(q):
    markdown = pytest.importorskip("markdown_it").MarkdownIt("commonmark")

    def purity(truth, pred):
        raise ValueError("<script>alert(1)</script> **b** ``` [l](http://e)\n# h")

    html = markdown.render(q.grade(purity).render("t").markdown)
    assert "<script>" not in html and "<strong>b" not in html and "<a " not in html
    assert "&lt;script&gt;" in html and "<h1>" not in html
    html = markdown.render(q.grade(lambda t, p: "<img src=x onerror=alert(1)>" * 50)
                           .render("t").markdown)
    assert "<img" not in html and "…" in html                 # escaped, and cut short


def test_the_hidden_cases_decide_a_function_right_only_on_the_public_cases(q):
    table = {json.dumps(c): right(**c) for _, _, c in q.public_cases()}

    def purity(truth, pred):
        return table.get(json.dumps({"truth": list(map(int, truth)),
                                     "pred": list(map(int, pred))}), 0.5)

    assert q.grade(purity).status == CORRECT                  # at home: all public right
    cases = q.hidden_cases(np.random.default_rng(0))
    outputs = q._run(purity, cases)
    outcome = q.grade(q.record(purity), hidden=(cases, outputs))
    assert outcome.status == INCORRECT
    assert "right only on the public cases" in outcome.diagnosed
    assert q.grade(q.record(right), hidden=(cases, q._run(right, cases))).status == CORRECT
    missing = q.grade(q.record(right), hidden=(cases, "no function was checked"))
    assert missing.status == INCORRECT and "hidden cases not run" in missing.diagnosed


def test_graded_on_the_graded_variants_cases_whatever_variant_it_was_checked_on():
    """The grader runs the function again on the graded variant's public cases (and the
    hidden ones) and grades those outputs; a record of another variant's outputs alone
    is never graded as this variant's."""
    home, q = ex.question("01.11", seed="s14"), ex.question("01.11", seed=None)
    public, cases = q.graded_cases(np.random.default_rng(2))
    def as_json(case):
        return {a: np.asarray(v).tolist() for a, v in case.items()}

    assert public == [as_json(c) for _, _, c in q.public_cases()]    # the course's
    assert public[0] == as_json(q.shown_case()) != as_json(home.shown_case())
    for fn, status, named in ((right, CORRECT, []), (inverse, INCORRECT, ["inverse purity"])):
        ran = q._run(fn, public + cases)
        out = q.grade(home.record(fn), hidden=(cases, ran[len(public):]),
                      public=ran[:len(public)])
        assert (out.status, out.diagnosed) == (status, named), out.feedback
    # s14's outputs taken for the course's: the defect (a right function not right)
    assert q.grade(home.record(right)).status != CORRECT
    # not run again: s14's outputs are not graded as the course's, and the reason is said
    out = q.grade(home.record(right), hidden=(cases, "no function was checked"),
                  public="no function was checked")
    assert out.status == INCORRECT and out.diagnosed == ["hidden cases not run"]
    assert ("could not be run on your variant's public cases and the hidden cases (no "
            "function was checked)" in out.feedback)
    assert "your data" not in out.feedback.lower()


def test_built_in_function_questions():
    found = {qid for qid, cls in ex.QUESTIONS.items()
             if issubclass(cls, kinds.FunctionQuestion)}
    assert found >= {"01.11", "02.5", "03.5", "04.8"}       # four exercises


# ------------------------------------------------------------ graded in the sandbox
def _with_check(source: str | None, student_id=None) -> nbformat.NotebookNode:
    """The solutions notebook of exercise 01 with 01.11's function ``source`` (None: the
    solution's) and ``STUDENT_ID = student_id``."""
    nb = nbformat.read(ROOT / "solutions" / "01_matching.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.get("id") == "q01-11-check" and source is not None:
            cell.source = source + "\n\nq11.check(purity)"
        if cell.get("id") == "setup":
            cell.source = re.sub(r"^STUDENT_ID = [^#\n]*", f"STUDENT_ID = {student_id!r}  ",
                                 cell.source, count=1, flags=re.M)
    return nb


SPECIAL = '''
import json
_table = json.loads({table!r})

def purity(truth, pred):
    return _table.get(json.dumps({{"truth": list(map(int, truth)),
                                   "pred": list(map(int, pred))}}), 0.5)
'''

LOUD = '''
def purity(truth, pred):
    print("x" * 1_000_000)
    return 0.5
'''

INVERSE = '''
def purity(truth, pred):
    truth, pred = np.asarray(truth), np.asarray(pred)
    return sum(np.unique(pred[truth == t], return_counts=True)[1].max()
               for t in np.unique(truth)) / len(truth)
'''

LOOPS = '''
def purity(truth, pred):
    while True:
        pass
'''

FORKS = '''
import os, time

def purity(truth, pred):
    for _ in range(400):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
    return 0.5
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    d = tmp_path_factory.mktemp("functions")
    q = ex.question("01.11", seed=None)
    table = json.dumps({json.dumps(c): right(**c) for _, _, c in q.public_cases()})
    books = {"s1": nbformat.read(ROOT / "solutions" / "01_matching.ipynb", as_version=4),
             "s2": _with_check(SPECIAL.format(table=table)),
             "s3": _with_check(LOUD), "s4": _with_check(FORKS), "s5": _with_check(LOOPS),
             # checked on another variant's data (another id), graded on the course's
             "s6": _with_check(None, "s14"), "s7": _with_check(INVERSE, "u7")}
    for sid, nb in books.items():
        nbformat.write(nb, d / f"{sid}_01_matching.ipynb")
    reports = grading.grade_batch(sorted(d.glob("*.ipynb")), d / "out", variant="course",
                                  sandbox=SANDBOX, jobs=2, cell_timeout=30,
                                  limits=asdict(grading.Limits(output=50_000, processes=64)))
    return {r.student: r for r in reports}


def _row(report, qid):
    return next(r for r in report.rows if r["question"] == qid)


def test_graded_the_solutions_function_is_right_on_the_hidden_cases_too(graded):
    row = _row(graded["s1"], "01.11")
    assert (row["points"], row["status"]) == (2.0, CORRECT)
    assert "hidden ones included" in row["feedback"]


def test_graded_a_function_special_cased_to_the_shown_data_loses_the_points(graded):
    row = _row(graded["s2"], "01.11")
    assert row["points"] < row["max_points"] and row["status"] == INCORRECT
    assert "right only on the public cases" in row["diagnosed"]
    assert "hidden case" in row["feedback"]
    # the other questions of the notebook are untouched
    assert all(r["status"] == CORRECT for r in graded["s2"].rows if r["question"] != "01.11")


def test_graded_huge_output_is_cut_and_forking_is_stopped_by_the_sandbox(graded):
    loud = graded["s3"]
    assert any("output was cut" in p for p in loud.problems)
    assert _row(loud, "01.10")["status"] == CORRECT
    forks = graded["s4"]
    row = _row(forks, "01.11")
    # the sandbox's process limit refuses the forks (or the watch stops the notebook)
    assert ("`BlockingIOError`" in row["feedback"]
            or any("processes" in p for p in forks.problems)), (row, forks.problems)
    assert row["points"] == 0
    assert _row(forks, "01.10")["status"] == CORRECT          # answers before it kept


def test_graded_a_function_that_never_returns_is_stopped_in_the_kernel(graded):
    r = graded["s5"]
    row = _row(r, "01.11")
    assert row["status"] == INCORRECT and "time limit" in row["diagnosed"]
    assert not any("did not finish" in p for p in r.problems), r.problems   # no cell cut
    assert _row(r, "01.10")["status"] == CORRECT


def test_graded_a_right_function_checked_on_another_variants_data_keeps_its_points(graded):
    """A function is the same function on any data: the grader runs it again on the
    graded variant's public cases (and the hidden ones) and grades those, not the outputs
    recorded on the data the notebook worked on."""
    q = ex.question("01.11", seed=None)
    # on s14's data purity is not the course's: outputs recorded there are no answer here
    assert right(**ex.question("01.11", seed="s14").shown_case()) != right(**q.shown_case())
    r = graded["s6"]
    row = _row(r, "01.11")
    assert (row["points"], row["status"]) == (2.0, CORRECT), row["feedback"]
    assert f"Correct on all {len(q.public_cases()) + q.n_hidden} cases" in row["feedback"]
    assert ("(Checked in the notebook against variant s14; graded against the course's own "
            "data: your function was run again on its cases.)" in row["feedback"])
    assert "the notebook declared STUDENT_ID s14, but the file belongs to s6" in r.problems[0]
    # its value answers were the other variant's: not the course's (no function rescues
    # them)
    assert _row(r, "01.1")["status"] != CORRECT


def test_graded_a_wrong_function_checked_on_another_variants_data_is_still_named(graded):
    q = ex.question("01.11", seed=None)
    assert inverse(**ex.question("01.11", seed="u7").shown_case()) != inverse(**q.shown_case())
    row = _row(graded["s7"], "01.11")
    assert (row["points"], row["status"]) == (0.0, INCORRECT)
    assert "inverse purity" in row["diagnosed"] and "computes the inverse purity" in row[
        "feedback"]
    # the smallest case where it differs is one of the graded variant's public cases
    small = min((c for _, kind, c in q.public_cases() if kind == "small"
                 and not np.isclose(inverse(**c), right(**c))), key=lambda c: len(c["truth"]))
    assert f"truth = {small['truth']}, pred = {small['pred']}" in row["feedback"]
    assert ("(Checked in the notebook against variant u7; graded against the course's own "
            "data: your function was run again on its cases.)" in row["feedback"])


# ------------------------------------------------------------- an instructor's own
QUESTIONS_PY = '''
"""A function question of an instructor's own (a test's exercise)."""
import numpy as np

import prayatul_edu.exercises.authoring as pa

exercise = pa.Exercise("71_sizes", title="Cluster sizes")


@exercise.dataset
def labels(rng):
    if rng is None:
        return {"pred": np.array([1, 1, 1, 2, 2, 3])}
    return {"pred": rng.integers(1, 4, 8)}


def share(pred):
    _, sizes = np.unique(pred, return_counts=True)
    return sizes.max() / len(pred)


exercise.function(
    "the share of the largest cluster", data=labels, points=2,
    name="largest_share", signature="pred", reference=share,
    prompt="Write `largest_share(pred)`: the share of the instances in the largest cluster.",
    shown=lambda d: {"pred": d["pred"]},
    cases=[{"pred": [1, 2, 2]}, {"pred": [5, 5, 5, 5, 7]}, {"pred": [1, 2, 3, 4]}],
    hidden=lambda rng: {"pred": rng.integers(0, 3, int(rng.integers(4, 12)))},
    credit={"shown": 0.25, "small": 0.25, "hidden": 0.5},
    mistakes=[pa.mistake("count, not share",
                         lambda pred: float(np.unique(pred, return_counts=True)[1].max()),
                         "That is the size of the largest cluster: divide by n.")],
    asked="the share")
'''


def _own_notebook(source):
    return new_notebook(cells=[
        new_code_cell("import numpy as np\nimport prayatul_edu.exercises.authoring as pa\n"
                      "ex = pa.open_exercise('questions.py')\nSTUDENT_ID = None\n"
                      "ex.setup(student_id=STUDENT_ID)", id="setup"),
        new_code_cell("q1 = ex.question('71.1')\nq1", id="q71-1-prompt"),
        new_code_cell(source + "\nq1.check(largest_share)", id="q71-1-check")],
        metadata={"kernelspec": {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}})


def test_an_authored_function_question_works_end_to_end(tmp_path):
    folder = tmp_path / "sizes"
    folder.mkdir()
    (folder / "questions.py").write_text(textwrap.dedent(QUESTIONS_PY), encoding="utf-8")
    ok = ("def largest_share(pred):\n    _, n = np.unique(pred, return_counts=True)\n"
          "    return n.max() / len(pred)\n")
    nbformat.write(_own_notebook(ok), folder / "solutions.ipynb")
    with package_only():
        pa.load(folder)
        q = ex.question("71.1", seed=None)
        namespace = {"np": np}
        exec(ok, namespace)
        assert q.grade(namespace["largest_share"]).status == CORRECT
        outcome = q.grade(lambda pred: float(max(Counter(np.ravel(pred)).values())))
        assert outcome.diagnosed == ["count, not share"]
        assert "the share is 0.666" in outcome.feedback           # [1, 2, 2]: 2/3
        sub = tmp_path / "sub"
        sub.mkdir()
        shown = q.shown_case()["pred"]
        special = (f"def largest_share(pred):\n    if list(pred) == {shown}:\n"
                   "        return 0.5\n    _, n = np.unique(pred, return_counts=True)\n"
                   "    return n.max() / len(pred) if len(pred) < 6 else 1.0\n")
        nbformat.write(_own_notebook(ok), sub / "s1_71_sizes.ipynb")
        nbformat.write(_own_notebook(special), sub / "s2_71_sizes.ipynb")
        assert cli.main(["grade", str(sub), "--exercise", str(folder), "--variant", "course",
                         "--out", str(tmp_path / "out"), "--sandbox", SANDBOX,
                         "--jobs", "1"]) == 0
    students = json.loads((tmp_path / "out" / "grades.json").read_text())["students"]
    graded = {s["student"]: s["rows"] for s in students}
    assert students[0]["problems"] == []
    assert [(r["points"], r["status"]) for r in graded["s1"]] == [(2.0, CORRECT)]
    row = graded["s2"][0]
    # right on the shown data (3/6, typed) and the small cases (0.25 + 0.25 of 2 points),
    # wrong on the hidden cases of 6 instances or more (the chance that all six have fewer
    # is (2/8) ** 6): partial credit as declared
    assert (row["points"], row["status"]) == (1.0, "partly correct"), row
    assert "right only on the public cases" in row["diagnosed"]
    # the class report counts the function question's named mistakes like any other's
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert re.search(r"right only on the public cases</td><td>1\b", html), html[-2000:]


# ------------------------------------------------ the other built-in questions
def brute_mi(truth, pred, log=np.log2):
    """I(C, T) over the cells of the contingency table, counted pair by pair."""
    truth, pred = list(np.ravel(truth)), list(np.ravel(pred))
    n, cells = len(truth), Counter(zip(truth, pred))
    t, p = Counter(truth), Counter(pred)
    return sum(k / n * log((k / n) / (t[a] / n * p[b] / n)) for (a, b), k in cells.items())


def brute_silhouette(D, labels, i, self_in_a=False, nearest_point=False):
    """s_i from its definition, looping over the points."""
    D, labels = np.asarray(D, dtype=float), list(np.ravel(labels))
    own = [j for j in range(len(labels)) if labels[j] == labels[i] and (self_in_a or j != i)]
    if not own or (len(own) == 1 and self_in_a):
        return 0.0 if not self_in_a else 1.0
    a = sum(D[i, j] for j in own) / len(own)
    others = {labels[j] for j in range(len(labels)) if labels[j] != labels[i]}
    if nearest_point:
        b = min(D[i, j] for j in range(len(labels)) if labels[j] != labels[i])
    else:
        b = min(np.mean([D[i, j] for j in range(len(labels)) if labels[j] == c])
                for c in others)
    return (b - a) / max(a, b)


@pytest.mark.parametrize("seed", [None, "s1", "u42"])
def test_mutual_information_right_in_nats_and_without_weights(seed):
    q = ex.question("02.5", seed=seed)
    assert q.grade(brute_mi).status == CORRECT
    nats = q.grade(lambda t, p: brute_mi(t, p, np.log))
    assert nats.diagnosed == ["natural log"] and "in nats" in nats.feedback
    unweighted = q.grade(lambda t, p: sum(
        np.log2((k / len(t)) / (Counter(list(t))[a] / len(t) * Counter(list(p))[b] / len(t)))
        for (a, b), k in Counter(zip(list(t), list(p))).items()))
    assert unweighted.diagnosed == ["no p_ij weight"]


@pytest.mark.parametrize("seed", [None, "s1", "u42"])
def test_silhouette_of_a_point_names_both_slips(seed):
    q = ex.question("04.8", seed=seed)
    assert q.grade(brute_silhouette).status == CORRECT
    out = q.grade(lambda D, labels, i: brute_silhouette(D, labels, i, self_in_a=True))
    assert out.diagnosed == ["a_i includes the point itself"]
    assert "includes the point itself" in out.feedback
    out = q.grade(lambda D, labels, i: brute_silhouette(D, labels, i, nearest_point=True))
    assert out.diagnosed == ["b_i as the nearest point"]
    # the smallest small case where it differs is shown, with s_i there
    case = min((c for _, kind, c in q.public_cases() if kind == "small"
                and not np.isclose(brute_silhouette(**c, nearest_point=True),
                                   brute_silhouette(**c))), key=lambda c: len(c["labels"]))
    assert f"labels = {case['labels']}, i = {case['i']}" in out.feedback
    assert f"s_i is {brute_silhouette(**case):.4g}" in out.feedback


def brute_pair_counts(truth, pred, ordered=False, selves=False):
    """(TP, FP, FN, TN) by visiting the pairs (a, b): a < b (the lecture's), a != b
    (``ordered``), a <= b (``selves``), or all N^2 (both)."""
    n, counts = len(truth), Counter()
    for a in range(n):
        for b in range(n):
            if (a < b) or (ordered and a > b) or (selves and a == b):
                counts[(truth[a] == truth[b], pred[a] == pred[b])] += 1
    return (counts[True, True], counts[False, True], counts[True, False],
            counts[False, False])


@pytest.mark.parametrize("seed", [None, "s1", "u42"])
def test_pair_counts_right_and_its_three_ways_of_counting_the_wrong_pairs_named(seed):
    q = ex.question("03.5", seed=seed)
    out = q.grade(brute_pair_counts)
    assert out.status == CORRECT and out.points == q.points == 2.0
    assert q.check(brute_pair_counts).text.startswith(
        "03.5 write pair_counts(truth, pred): correct (2/2)")
    slips = {"ordered pairs": dict(ordered=True), "self-pairs": dict(selves=True),
             "N^2 pairs": dict(ordered=True, selves=True)}
    for name, how in slips.items():
        out = q.grade(lambda t, p: brute_pair_counts(t, p, **how))
        assert out.status == INCORRECT and out.diagnosed == [name], (name, out.feedback)
    assert "twice the lecture's" in q.grade(
        lambda t, p: brute_pair_counts(t, p, ordered=True)).feedback
    assert "inflate TP by N" in q.grade(
        lambda t, p: brute_pair_counts(t, p, selves=True)).feedback
    assert "add up to N^2" in q.grade(
        lambda t, p: brute_pair_counts(t, p, ordered=True, selves=True)).feedback
    # the classes and the clusters confused: FP and FN swapped
    out = q.grade(lambda t, p: brute_pair_counts(p, t))
    assert out.diagnosed == ["FP and FN swapped"]
    # the smallest small case where it differs, with its four counts and the right ones
    case = min((c for _, kind, c in q.public_cases() if kind == "small"
                and brute_pair_counts(c["pred"], c["truth"])
                != brute_pair_counts(c["truth"], c["pred"])), key=lambda c: len(c["truth"]))
    tp, fp, fn, tn = brute_pair_counts(case["truth"], case["pred"])
    assert (f"truth = {case['truth']}, pred = {case['pred']}, it returns "
            f"({tp}, {fn}, {fp}, {tn}); (TP, FP, FN, TN) is ({tp}, {fp}, {fn}, {tn})"
            in out.feedback)
    assert "range(a + 1" not in out.feedback          # never the right code


def test_pair_counts_key_agrees_with_the_pairs_visited_on_the_course_data_and_variants():
    """The key on every case (the shown data of the course and of variants, the small
    cases and hidden ones) equals the pairs counted one by one; the counts add up to
    N (N - 1) / 2."""
    rng = np.random.default_rng(44)
    for seed in (None, "s1", "u42", "s4411"):
        q = ex.question("03.5", seed=seed)
        shown = q.shown_case()
        assert (shown["truth"], shown["pred"]) == (q.classes.tolist(), q.clusters.tolist())
        cases = [c for _, _, c in q.public_cases()] + q.hidden_cases(rng)
        keys = q.compute_key(cases)
        for case, key in zip(cases, keys):
            want = brute_pair_counts(case["truth"], case["pred"])
            assert key == want
            n = len(case["truth"])
            assert sum(want) == n * (n - 1) // 2
    # the course's data: the ten examples of Exercise 2 (as in 03.4)
    q = ex.question("03.5", seed=None)
    assert q.classes.tolist() == ex.question("03.4", seed=None).classes.tolist()
    assert len(q.classes) == 10


def test_pair_counts_a_wrong_shape_and_a_special_case_of_the_shown_data():
    q = ex.question("03.5", seed=None)
    out = q.grade(lambda t, p: brute_pair_counts(t, p)[:3])
    assert "wrong type" in out.diagnosed and "not 4 numbers (TP, FP, FN, TN)" in out.feedback
    shown = q.shown_case()
    right_there = brute_pair_counts(shown["truth"], shown["pred"])
    public = {json.dumps(c): brute_pair_counts(c["truth"], c["pred"])
              for _, _, c in q.public_cases()}

    def special(truth, pred):
        return public.get(json.dumps({"truth": list(map(int, truth)),
                                      "pred": list(map(int, pred))}), right_there)

    assert q.grade(special).status == CORRECT          # at home: the public cases only
    cases = q.hidden_cases(np.random.default_rng(1))
    graded = q.grade(q.record(special), hidden=(cases, q._run(special, cases)))
    assert graded.status == INCORRECT and graded.points == 0
    assert "right only on the public cases" in graded.diagnosed


@pytest.mark.parametrize("qid", ["01.11", "02.5", "03.5", "04.8"])
def test_a_function_question_renders_its_prompt_hints_and_solution(qid):
    q = ex.question(qid, seed="s7")
    prompt = repr(q)
    assert f"def {q.signature}:" in prompt and "without the library" in prompt
    assert q.hint(1).text.startswith("Hint 1.")
    solution = q.solution().text
    assert f"A function {q.signature}" in solution and "small case 1" in solution
    assert len(q.hidden_cases(np.random.default_rng(3))) == q.n_hidden


# ------------------------------------------------ the record of help, as for the others
def test_a_function_questions_answer_routes_are_refused_and_recorded(tmp_path, monkeypatch):
    from prayatul_edu.exercises import assignment

    path = tmp_path / "channel.jsonl"
    path.touch()
    monkeypatch.setenv(assignment.POLICY_ENV, "{}")
    monkeypatch.setenv(assignment.CHANNEL_ENV, str(path))
    ex.setup("s1")
    try:
        scope = {"__name__": "__main__", "q": ex.question("01.11"), "right": right}
        for source in ("q.compute_key()", "q.mistakes([{'truth': [1], 'pred': [1]}])",
                       "q.solution()"):
            try:
                result = exec(compile(source, "<ipython-input-1-a>", "exec"), scope)
            except assignment.NotReleased:
                result = "refused"
            assert result in ("refused", None), source
        # the library's own checking still runs (and its verdict is recorded)
        exec(compile("print(q.check(right))", "<ipython-input-2-a>", "exec"), scope)
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert [r["route"] for r in records if r.get("event") == "key"] == [
            "compute_key", "mistakes"]
        assert any(r.get("event") == "solution" and r["shown"] is False for r in records)
        checked = [r for r in records if r.get("qid") == "01.11" and "answer" in r]
        assert checked[-1]["answer"]["function"] == "right"
    finally:
        ex.setup(None)


def test_graded_a_functions_message_never_names_a_folder():
    from prayatul_edu.grading.notebook import _grade_question

    q = ex.question("01.11", seed=None)

    def purity(truth, pred):
        raise FileNotFoundError("no /srv/grader/keys/course.key here")

    public, cases = q.graded_cases(np.random.default_rng(5))
    out = _grade_question("01.11", None, {"seed": None, "answer": q.record(purity)}, {},
                          "zero", hidden=(public, cases, q._run(purity, public + cases)))
    assert "`FileNotFoundError`: `no <path> here`" in out.feedback
    assert "/srv" not in out.feedback


def test_the_grading_fixture_is_exercise_03_as_it_is():
    """The grading tests read exercise 03's questions and marks from the exercise
    (grading_helpers): pinned here once, with the fixture's right function, which is right
    on a variant's public and hidden cases."""
    from grading_helpers import FULL, FUNCTIONS, PAIR_COUNTS, QIDS, TOTAL, answers

    assert QIDS == ["03.1", "03.2", "03.3", "03.4", "03.5"] and FUNCTIONS == ["03.5"]
    assert FULL[-1] == ("03.5", 2.0, CORRECT) and TOTAL == 6.0
    assert answers("s77")["03.5"] == PAIR_COUNTS
    scope = {}
    exec(PAIR_COUNTS, scope)
    fn = scope["pair_counts"]
    q = ex.question("03.5", seed="s77")
    cases = q.hidden_cases(np.random.default_rng(77))
    graded = q.grade(q.record(fn), hidden=(cases, q._run(fn, cases)))
    assert graded.status == CORRECT and graded.points == 2.0


# ------------------------------------------- a second reader's students (issue 44 review)
def brute_matching(truth, pred):
    """Maximum matching by trying every pairing of clusters with classes (the other
    matching measure exercise 01 teaches; not purity)."""
    from itertools import permutations

    truth, pred = list(np.ravel(truth)), list(np.ravel(pred))
    clusters, classes = sorted(set(pred)), sorted(set(truth))
    count = Counter(zip(pred, truth))
    if len(clusters) <= len(classes):
        best = max(sum(count[(c, t)] for c, t in zip(clusters, p))
                   for p in permutations(classes, len(clusters)))
    else:
        best = max(sum(count[(c, t)] for c, t in zip(p, classes))
                   for p in permutations(clusters, len(classes)))
    return best / len(truth)


@pytest.mark.parametrize("seed", [None, "s0001", "s0002"])
def test_a_maximum_matching_is_not_purity_on_the_public_cases(seed):
    # two clusters with the same majority class: purity counts it twice, a matching once
    outcome = ex.question("01.11", seed=seed).grade(brute_matching)
    assert outcome.status == INCORRECT, outcome.feedback


def _silhouette_with_a(D, labels, i, a_of):
    D, labels = np.asarray(D, dtype=float), np.asarray(labels)
    own = [j for j in range(len(labels)) if labels[j] == labels[i] and j != i]
    if not own:
        return 0.0
    a = a_of([D[i, j] for j in own])
    b = min(np.mean([D[i, j] for j in range(len(labels)) if labels[j] == c])
            for c in set(labels.tolist()) - {labels[i]})
    return (b - a) / max(a, b)


@pytest.mark.parametrize("seed", [None, "s0001"])
@pytest.mark.parametrize("a_of", [min, sum], ids=["a_i the nearest neighbour", "a_i a sum"])
def test_an_a_i_that_is_no_mean_is_not_the_silhouette_on_the_public_cases(seed, a_of):
    # each public case had one other point in the point's cluster: min, sum and mean agreed
    q = ex.question("04.8", seed=seed)
    assert q.grade(lambda D, labels, i: _silhouette_with_a(D, labels, i, np.mean)).status \
        == CORRECT
    outcome = q.grade(lambda D, labels, i: _silhouette_with_a(D, labels, i, a_of))
    assert outcome.status == INCORRECT, outcome.feedback


def test_a_first_call_that_imports_slowly_is_not_stopped(q):
    # a right function importing scikit-learn or pandas in its body pays the import on
    # its first call: on a busy machine more than the 2 s of a call (it was refused)
    import time

    calls = []

    def purity(truth, pred):
        if not calls:
            time.sleep(kinds.CALL_LIMIT + 1)   # stands for the import
        calls.append(1)
        return right(truth, pred)

    assert q.grade(purity).status == CORRECT


def test_a_fraction_is_a_number(q):
    from fractions import Fraction

    def purity(truth, pred):
        truth, pred = list(truth), list(pred)
        return Fraction(sum(max(Counter(t for t, p in zip(truth, pred) if p == c).values())
                            for c in set(pred)), len(truth))

    assert q.grade(purity).status == CORRECT


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message")


class _LyingFloat(float):
    def __float__(self):
        raise ValueError("no value")


class _EndlessInt(int):
    def __float__(self):
        while True:
            pass


class _Escape(BaseException):
    pass


@pytest.mark.parametrize("fn, said", [
    (lambda t, p: (_ for _ in ()).throw(_Unprintable()), "raises _Unprintable"),
    (lambda t, p: _LyingFloat(0.5), "raises ValueError"),
    (lambda t, p: (_ for _ in ()).throw(_Escape()), "raises _Escape"),
    (lambda t, p: _EndlessInt(1), "time limit")])
def test_a_function_whose_exception_or_value_misbehaves_is_named_not_raised(q, fn, said):
    # the check itself raised (or never came back): in the grader's hidden cell that cost
    # the hidden cases of every function question after it
    outcome = q.grade(fn)
    assert outcome.status == INCORRECT and said in outcome.diagnosed, outcome.diagnosed


def test_the_hidden_run_of_one_question_does_not_cost_anothers(tmp_path, monkeypatch):
    from prayatul_edu.exercises import assignment

    path = tmp_path / "channel.jsonl"
    monkeypatch.setenv(assignment.CHANNEL_ENV, str(path))
    monkeypatch.setitem(kinds._FUNCTIONS, "01.11",
                        lambda t, p: (_ for _ in ()).throw(KeyboardInterrupt()))
    monkeypatch.setitem(kinds._FUNCTIONS, "04.8", brute_silhouette)
    cases = {qid: ex.question(qid, seed=None).hidden_cases(np.random.default_rng(1))
             for qid in ("01.11", "04.8")}
    kinds.run_hidden(json.dumps(cases))
    records = {r["qid"]: r for r in map(json.loads, path.read_text().splitlines())}
    assert all("error" in o for o in records["01.11"]["outputs"])
    assert ex.question("04.8", seed=None).grade(
        ex.question("04.8", seed=None).record(brute_silhouette),
        hidden=(cases["04.8"], records["04.8"]["outputs"])).status == CORRECT


def test_control_characters_of_a_message_are_not_passed_on(q):
    def purity(truth, pred):
        raise ValueError("\x1b[31mred\x1b[0m\x07")

    assert "\x1b" not in q.grade(purity).feedback and "\x07" not in q.grade(purity).feedback


def test_a_hidden_record_without_outputs_says_so_not_none():
    # a kernel's record with neither outputs nor a reason read "... hidden cases (None)."
    from prayatul_edu.grading.notebook import _hidden_outputs

    assert _hidden_outputs({"outputs": "nope"}) == "no outputs were recorded"
    assert _hidden_outputs({"missing": 7}) == "no outputs were recorded"
    assert _hidden_outputs({"missing": "no function\x1b was checked"}) == \
        "no function\\x1b was checked"
    assert _hidden_outputs({"outputs": [{"value": 1.0}]}) == [{"value": 1.0}]
