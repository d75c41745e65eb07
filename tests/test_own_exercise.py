"""An instructor's own exercise, from its declaration to the term's gradebook (issue 38).

The exercise (``61_labels``: two labelings of ten items) is written here with the public
authoring API, in a folder of its own, beside a solutions notebook; it is assigned by
its path to 8 students, whose notebooks are prepared here (honest ones, named
mistakes, a blank one, a hint asked for, a key patched in the kernel, a write to the
grader's copy of the questions), graded once in the sandbox (a module-scoped fixture),
corrected by hand (``export --overrides``), judged late from an LMS's submission
times, reported and gathered into a gradebook with a second, partial grading that
carries the corrections over. Every expected value (answers, totals, the report's
counts, shares and correlations) is computed here, independently of the grader: the
answers with scikit-learn and brute force, the report's numbers from the students'
answers as this file built them.
"""
import csv
import itertools
import json
import re
import shutil
import textwrap
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grading_helpers import package_only
from prayatul_edu import cli, grading
from prayatul_edu.exercises import CORRECT, INCORRECT, NOT_ATTEMPTED, PARTLY
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.exercises._base import QUESTIONS
from prayatul_edu.grading import authored, late
from prayatul_edu.grading.class_report import question_stats
from prayatul_edu.grading.gradebook import gradebook
from prayatul_edu.grading.report import CELL_ERROR

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"
ROOT = Path(__file__).resolve().parents[1]
STUDENTS = [f"s{k:04d}" for k in range(1, 9)]

QUESTIONS_PY = '''
"""Two labelings of ten items (a test's own exercise)."""
import numpy as np

import prayatul_edu as pe
import prayatul_edu.exercises.authoring as pa

exercise = pa.Exercise("61_labels", title="Two labelings")


@exercise.dataset
def labels(rng):
    if rng is None:
        return {"truth": np.array([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]),
                "pred": np.array([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2])}  # purity 2/3, inverse 5/6
    return {"truth": rng.integers(1, 4, 10), "pred": rng.integers(1, 4, 10)}


def pairs(d):
    n = len(d["truth"])
    return round(n * (n - 1) / 2 * float(pe.rand_index(d["truth"], d["pred"])))


def shown(d):
    return f"Truth {list(map(int, d['truth']))}, clusters {list(map(int, d['pred']))}."


exercise.number(
    "purity", data=labels, points=2, prompt=lambda d: shown(d) + " The purity?",
    key=lambda d: float(pe.purity(d["truth"], d["pred"])),
    mistakes=[pa.mistake("inverse purity", lambda d: float(pe.purity(d["pred"], d["truth"])),
                         "That is the inverse purity: the majority cluster of each class.")],
    hints=["Take the largest class of each cluster."])

exercise.numbers(
    "Rand index and ARI", data=labels, parts=("RI", "ARI"),
    prompt=lambda d: [shown(d), "Give the Rand index and the ARI."],
    key=lambda d: [float(pe.rand_index(d["truth"], d["pred"])),
                   float(pe.adjusted_rand_index(d["truth"], d["pred"]))],
    mistakes=[pa.mistake("no chance correction",
                         lambda d: [float(pe.rand_index(d["truth"], d["pred"]))] * 2,
                         "Your ARI is the Rand index: subtract its expected value.")],
    hints=["45 pairs of ten items."])

exercise.integer(
    "pairs on which the labelings agree", data=labels, prompt=shown,
    key=lambda d: pairs(d),
    mistakes=[pa.mistake("ordered pairs", lambda d: 2 * pairs(d),
                         "You counted ordered pairs: each pair twice.")])

exercise.free_text(
    "why adjust for chance", points=2,
    prompt="In two sentences: why does the ARI subtract an expected value?",
    explain="A random labeling already agrees on many pairs; the ARI is 0 for it.")
'''

SOLUTIONS = {
    "61.1": "answer = float(pe.purity(q1.truth, q1.pred))  # SOLUTION",
    "61.2": ("answer = [float(pe.rand_index(q2.truth, q2.pred)), "
             "float(pe.adjusted_rand_index(q2.truth, q2.pred))]  # SOLUTION: RI, ARI"),
    "61.3": ("answer = round(len(q3.truth) * (len(q3.truth) - 1) / 2 "
             "* float(pe.rand_index(q3.truth, q3.pred)))  # SOLUTION"),
    "61.4": "answer = str(q4.title) + ': chance agreement is removed'  # SOLUTION",
}


def solutions_notebook(answers=SOLUTIONS):
    cells = [new_markdown_cell("# 61 Two labelings", id="intro"),
             new_code_cell("import prayatul_edu as pe\n"
                           "import prayatul_edu.exercises.authoring as pa\n\n"
                           "ex = pa.open_exercise('questions.py')\n"
                           "STUDENT_ID = None  # your student id\n"
                           "ex.setup(student_id=STUDENT_ID)", id="setup")]
    for k in range(1, 5):
        qid = f"61.{k}"
        cells += [new_code_cell(f"q{k} = ex.question('{qid}')\nq{k}", id=f"q61-{k}-prompt"),
                  new_code_cell(f"{answers[qid]}\nq{k}.check(answer)", id=f"q61-{k}-check")]
    return new_notebook(cells=cells, metadata={"kernelspec": {
        "display_name": "Python 3", "language": "python", "name": "python3"}})


def write_exercise(folder: Path, answers=SOLUTIONS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "questions.py").write_text(textwrap.dedent(QUESTIONS_PY), encoding="utf-8")
    nbformat.write(solutions_notebook(answers), folder / "solutions.ipynb")
    return folder


@pytest.fixture(scope="module", autouse=True)
def _leave_the_registries_as_found():
    with package_only():
        yield


@pytest.fixture
def fresh():
    with package_only():
        yield


# ------------------------------------------------- answers computed independently
def truth_pred(student):
    q = QUESTIONS["61.1"](seed=student)
    return np.asarray(q.truth), np.asarray(q.pred)


def honest(student):
    """The right answers, by brute force and scikit-learn (not the library)."""
    from sklearn.metrics import adjusted_rand_score

    t, p = truth_pred(student)
    pur = sum(np.bincount(t[p == c]).max() for c in np.unique(p)) / len(t)
    agree = sum((t[i] == t[j]) == (p[i] == p[j]) for i, j in itertools.combinations(range(10), 2))
    return {"61.1": float(pur), "61.2": [float(agree / 45), float(adjusted_rand_score(t, p))],
            "61.3": int(agree), "61.4": "A random labeling agrees on pairs by chance."}


def inverse_purity(student):
    t, p = truth_pred(student)
    return float(sum(np.bincount(p[t == c]).max() for c in np.unique(t)) / len(t))


# student -> (answers given, points per question expected, statuses, named mistakes)
def plan(student):
    h = honest(student)
    ri = h["61.2"][0]
    wrong = {
        "s0004": {"61.1": inverse_purity(student)},
        "s0005": {"61.1": inverse_purity(student), "61.2": [ri, ri]},
        "s0006": {"61.3": 2 * h["61.3"]},
        "s0007": {"61.1": ..., "61.2": [ri, ri], "61.3": ...},   # 61.1: patched in the kernel
    }.get(student, {})
    if student == "s0008":
        return {}
    return {q: wrong.get(q, h[q]) for q in h if wrong.get(q, h[q]) is not ...}


def expected_rows(student):
    """qid -> (points, status, named mistakes) the grader must give (before corrections)."""
    given, h = plan(student), honest(student)
    out = {}
    for q, pts in (("61.1", 2.0), ("61.2", 1.0), ("61.3", 1.0)):
        if q not in given:
            out[q] = (0.0, NOT_ATTEMPTED, [])
        elif np.allclose(np.ravel(given[q]), np.ravel(h[q]), atol=1e-6):
            out[q] = (pts, CORRECT, [])
        elif q == "61.2":
            out[q] = (0.5, PARTLY, ["no chance correction"])
        else:
            out[q] = (0.0, INCORRECT, ["inverse purity" if q == "61.1" else "ordered pairs"])
    out["61.4"] = (0.0, pa.HAND, []) if "61.4" in given else (0.0, NOT_ATTEMPTED, [])
    if student == "s0007":      # the key patched in the kernel: the grader is not fooled (a
        out["61.1"] = (0.0, CELL_ERROR, [])   # changed class is a sealed route: the check raises
    return out


def fill(nb, student):
    """The handout of ``student`` answered as planned (answers typed as values)."""
    given = plan(student)
    cells = []
    for cell in nb.cells:
        m = re.fullmatch(r"q61-(\d)-check", cell.get("id", ""))
        qid = f"61.{m.group(1)}" if m else None
        if qid in given:
            cell.source = re.sub(r"^answer = [^#\n]*", lambda _: f"answer = {given[qid]!r}  ",
                                 cell.source, count=1, flags=re.M)
        cells.append(cell)
        if student == "s0002" and cell.get("id") == "q61-1-check":
            cells.append(new_code_cell("q1.hint()", id="asks-hint"))
        if student == "s0007" and cell.get("id") == "setup":
            cells.append(new_code_cell(
                "import os\n"
                "open(os.environ['PRAYATUL_EDU_EXERCISE'], 'a').write('# changed')",
                id="attack"))
            cells.append(new_code_cell(
                "q = ex.question('61.1')\n"
                "type(q).compute_key = lambda self: 0.123\n"
                "print(q.check(0.123))",
                id="attack-patch"))
    nb.cells = cells
    return nb


# ---------------------------------------------------------------- the cycle
@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    d = tmp_path_factory.mktemp("own")
    folder = write_exercise(d / "my_exercise")
    pa.load(folder)       # the test's process knows the questions (for the answers)
    (d / "class.csv").write_text("student\n" + "\n".join(STUDENTS) + "\n", encoding="utf-8")
    assert cli.main(["assign", str(folder), "--roster", str(d / "class.csv"), "--out",
                     str(d / "hw"), "--due", "2026-12-01T23:59"]) == 0
    sub = d / "collected"
    sub.mkdir()
    for sid in STUDENTS:
        name = f"{sid}_61_labels.ipynb"
        nb = nbformat.read(d / "hw" / "notebooks" / name, as_version=4)
        nbformat.write(fill(nb, sid), sub / name)
    # the LMS's submission times: s0006 1.5 days late, s0007 on time, s0008 not listed
    (d / "times.csv").write_text("student,submitted_at\n"
                                 + "".join(f"{s},2026-12-01T20:00:00+00:00\n"
                                           for s in STUDENTS[:5])
                                 + "s0006,2026-12-03T11:59:00+00:00\n"
                                 "s0007,2026-12-01T23:58:59Z\n", encoding="utf-8")
    code = cli.main(["grade", str(sub), "--exercise", str(folder), "--roster",
                     str(d / "hw" / "roster.csv"), "--out", str(d / "g1"), "--format",
                     "canvas", "--format", "gradescope", "--assignment", "HW1", "--sandbox",
                     SANDBOX, "--jobs", "2", "--due", str(d / "hw" / "assignment.json"),
                     "--submissions", str(d / "times.csv"), "--late",
                     "penalty:10%/day,cap:50%"])
    assert code == 0
    shutil.copytree(d / "g1", d / "g1_graded")      # as grade wrote it, before corrections
    (d / "overrides.csv").write_text(
        "student,question,points,reason\n"
        "s0003,61.1,0.5,\"Regrade: the answer on paper, half credit\"\n"
        "s0001,61.4,2,clear <b>argument</b>\n"
        "s0002,61.4,1.5,half of it\n", encoding="utf-8")
    assert cli.main(["export", str(d / "g1"), "--overrides", str(d / "overrides.csv")]) == 0
    # a later grade of part of the class into a new folder carries the corrections over
    part = d / "part"
    part.mkdir()
    for sid in STUDENTS[:3]:
        shutil.copy(sub / f"{sid}_61_labels.ipynb", part)
    assert cli.main(["grade", str(part), "--exercise", str(folder), "--roster",
                     str(d / "hw" / "roster.csv"), "--out", str(d / "g2"), "--format", "canvas",
                     "--assignment", "HW2", "--sandbox", SANDBOX, "--jobs", "2",
                     "--overrides", str(d / "overrides.csv")]) == 0
    return d


def _grades(folder):
    return json.loads((folder / "grades.json").read_text())


def _student(folder, sid):
    return next(s for s in _grades(folder)["students"] if s["student"] == sid)


def test_the_handouts_hold_no_solution_and_the_questions_beside_them(cycle):
    notebooks = cycle / "hw" / "notebooks"
    assert sorted(p.name for p in notebooks.iterdir()) == sorted(
        [f"{s}_61_labels.ipynb" for s in STUDENTS] + ["questions.py"])
    for sid in STUDENTS:
        text = (notebooks / f"{sid}_61_labels.ipynb").read_text()
        assert "SOLUTION" not in text and "pe.purity(q1" not in text
        assert f"STUDENT_ID = '{sid}'" in text
    intro = nbformat.read(notebooks / "s0001_61_labels.ipynb", as_version=4).cells[1]
    assert intro.id == "handout" and "Keep `questions.py` beside this notebook" in intro.source
    record = json.loads((cycle / "hw" / "assignment.json").read_text())
    assert record == {"due": "2026-12-01T23:59", "due_at": "2026-12-01T23:59:00+00:00"}


def test_the_grader_gives_what_the_answers_earn(cycle):
    for sid in STUDENTS:
        s = _student(cycle / "g1_graded", sid)
        want = expected_rows(sid)
        got = {r["question"]: (r["points"], r["status"], r["diagnosed"]) for r in s["rows"]
               if r["question"] != "late"}
        assert got == {q: (p, st, m) for q, (p, st, m) in want.items()}, sid
    for sid in ("s0001", "s0003", "s0004", "s0008"):      # the published cells compared
        assert _student(cycle / "g1_graded", sid)["problems"] == [], sid
    blank = _student(cycle / "g1_graded", "s0008")
    assert blank["total"] == 0 and {r["status"] for r in blank["rows"]} == {NOT_ATTEMPTED}


def test_the_kernels_tricks_change_nothing(cycle):
    s = _student(cycle / "g1_graded", "s0007")
    if SANDBOX == "bwrap":   # the grader's copy of the questions is read-only inside
        # the attack's cell named as its author finds it: the code cells under the
        # nearest heading above it, counted here from the submitted notebook
        nb = nbformat.read(cycle / "collected" / "s0007_61_labels.ipynb", as_version=4)
        heading, k = None, 0
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                found = re.findall(r"^#+\s+(.+?)\s*$", cell.source, re.M)
                heading, k = (found[-1], 0) if found else (heading, k)
            elif cell.cell_type == "code":
                k += 1
                if cell.get("id") == "attack":
                    break
        name = f'code cell {k} under "{heading}"'
        assert any(p.startswith(name + " raised ") and re.search(
            r"raised (PermissionError|OSError): .*(Permission denied|Read-only file system)", p)
            for p in s["problems"]), (name, s["problems"])
    assert next(r for r in s["rows"] if r["question"] == "61.1")["points"] == 0.0


def test_late_work_from_the_lms_times(cycle):
    g = _grades(cycle / "g1_graded")
    by = {s["student"]: s for s in g["students"]}
    assert by["s0006"]["late"]["days"] == 2 and by["s0006"]["late"]["penalty"] == 0.2
    earned = sum(p for p, _, _ in expected_rows("s0006").values())
    assert by["s0006"]["total"] == pytest.approx(round(earned * 0.8, 2))
    assert by["s0007"]["late"]["late"] is False and by["s0007"]["late"]["penalty"] == 0
    assert by["s0008"]["late"]["source"] == "unknown" and by["s0008"]["late"]["late"] is None
    feedback = (cycle / "g1_graded" / "feedback" / "s0006_61_labels.md").read_text()
    assert "2 days late" in feedback and "20% of the points taken" in feedback


def test_export_applies_the_overrides_and_keeps_their_reasons(cycle):
    def canvas(folder):
        rows = list(csv.reader(open(folder / "canvas.csv", encoding="utf-8")))
        return {r[2]: float(r[5]) for r in rows[2:]}

    before, after = canvas(cycle / "g1_graded"), canvas(cycle / "g1")
    assert after["s0003"] == before["s0003"] - 2 + 0.5           # 61.1: 2 -> 0.5
    assert after["s0001"] == before["s0001"] + 2 and after["s0002"] == before["s0002"] + 1.5
    assert {k: v for k, v in after.items() if k not in ("s0001", "s0002", "s0003")} == {
        k: v for k, v in before.items() if k not in ("s0001", "s0002", "s0003")}
    s3 = _student(cycle / "g1", "s0003")
    [o] = s3["overrides"]
    assert (o["question"], o["points"], o["reason"], o["grader_points"]) == (
        "61.1", 0.5, "Regrade: the answer on paper, half credit", 2.0)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", o["time"])
    feedback = (cycle / "g1" / "feedback" / "s0003_61_labels.md").read_text()
    assert "Corrected by your instructor" in feedback and "half credit" in feedback
    s1 = (cycle / "g1" / "feedback" / "s0001_61_labels.md").read_text()
    # the reason escaped as Markdown would misread it: no tag opens (``<`` as ``&lt;``)
    assert "<b>" not in s1 and "</b>" not in s1 and "clear &lt;b>argument&lt;/b>" in s1
    # applied again: nothing changes, the time is kept
    assert cli.main(["export", str(cycle / "g1"), "--overrides",
                     str(cycle / "overrides.csv")]) == 0
    assert _student(cycle / "g1", "s0003")["overrides"] == [o]


def test_the_free_text_answers_wait_in_a_file_to_fill_in(cycle):
    waiting = list(csv.reader(open(cycle / "g1_graded" / "to_grade_by_hand.csv")))
    assert waiting[0] == ["student", "question", "points", "reason", "answer"]
    assert [r[:4] for r in waiting[1:]] == [[s, "61.4", "", ""] for s in STUDENTS[:7]]
    # the last column: what each student typed, as grades.json keeps it (issue 43)
    typed = {s["student"]: r["answer"] for s in _grades(cycle / "g1_graded")["students"]
             for r in s["rows"] if r["question"] == "61.4" and "answer" in r}
    assert {r[0]: r[4] for r in waiting[1:]} == typed
    assert typed["s0001"] == honest("s0001")["61.4"]
    after = list(csv.reader(open(cycle / "g1" / "to_grade_by_hand.csv")))
    assert [r[:4] for r in after[1:]] == [[s, "61.4", "", ""] for s in STUDENTS[2:7]]
    # filled in for one student, the unfilled rows skipped (s0001, s0002 are graded)
    filled = cycle / "filled.csv"
    with open(filled, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(after[:1] + [["s0003", "61.4", "2", "convincing"]]
                                 + after[2:])
    from prayatul_edu.grading.overrides import read_overrides
    assert read_overrides(filled) == [{"student": "s0003", "question": "61.4", "points": 2.0,
                                       "reason": "convincing", "line": 2}]


def test_a_later_grade_carries_the_overrides_over(cycle):
    s3 = _student(cycle / "g2", "s0003")
    assert [(o["question"], o["points"]) for o in s3["overrides"]] == [("61.1", 0.5)]
    assert _grades(cycle / "g2")["overrides_skipped"] == []
    assert [s["student"] for s in _grades(cycle / "g2")["students"]] == STUDENTS[:3]


def _expected_report(students_points):
    """The report's numbers computed here: per question the counts and item-rest r."""
    out = {}
    totals = {s: sum(p for p, _, _ in rows.values()) for s, rows in students_points.items()}
    for q in ("61.1", "61.2", "61.3", "61.4"):
        item = np.array([students_points[s][q][0] for s in STUDENTS])
        rest = np.array([totals[s] for s in STUDENTS]) - item
        r = (None if item.std() == 0 or rest.std() == 0
             else float(np.corrcoef(item, rest)[0, 1]))
        statuses = [students_points[s][q][1] for s in STUDENTS]
        bucket = {CORRECT: "correct", PARTLY: "partly", INCORRECT: "incorrect",
                  NOT_ATTEMPTED: "not attempted", CELL_ERROR: "error"}
        counts = {k: sum(bucket.get(x, "not graded") == k for x in statuses)
                  for k in ("correct", "partly", "incorrect", "not attempted", "error",
                            "not graded")}
        mistakes = {}
        for s in STUDENTS:
            for name in students_points[s][q][2]:
                mistakes[name] = mistakes.get(name, 0) + 1
        out[q] = (counts, mistakes, r, item.mean())
    return out


def test_the_class_report_recomputed(cycle):
    rows = {s: expected_rows(s) for s in STUDENTS}
    # the corrections as export applied them (61.4 of s0001 and s0002 graded by hand)
    rows["s0003"]["61.1"] = (0.5, PARTLY, [])
    rows["s0001"]["61.4"] = (2.0, CORRECT, [])
    rows["s0002"]["61.4"] = (1.5, PARTLY, [])
    expected = _expected_report(rows)
    md = (cycle / "g1" / "report.md").read_text()
    titles = {"61.1": "purity", "61.2": "Rand index and ARI",
              "61.3": "pairs on which the labelings agree", "61.4": "why adjust for chance"}
    for q, (counts, mistakes, r, mean) in expected.items():
        cells = " | ".join(f"{c} ({100 * c / 8:.0f}%)" for c in counts.values())
        maximum = {"61.1": 2, "61.4": 2}.get(q, 1)
        line = (f"| {q} {titles[q]} | {mean:.2f} / {maximum} | {cells} | "
                f"{'n/a' if r is None else f'{r:.2f}'} |")
        assert line in md, (line, md)
        for name, n in mistakes.items():
            assert f"| {name} | {n} ({100 * n / 8:.0f}%) |" in md
    assert "not attempted" in md and "item-rest correlation" in md
    assert "| named mistake | students |" in md
    # hints: s0002 asked for one hint of 61.1
    stats = {q["qid"]: q for q in question_stats(_grades(cycle / "g1")["students"])}
    assert stats["61.1"]["hints"] == (1, 1) and stats["61.2"]["hints"] == (0, 0)
    assert "Hints asked for by 1 student(s) (1 in all)" in md
    html = (cycle / "g1" / "report.html").read_text()
    assert html.count('src="data:image/png;base64,') == 5       # 4 questions + totals
    assert "<b>" not in html and "http" not in html.replace("http-equiv", "")
    totals = sorted(round(sum(p for p, _, _ in r.values()) - (
        0.2 * sum(p for p, _, _ in r.values()) if s == "s0006" else 0), 2)
        for s, r in rows.items())
    listed = sorted(float(m.group(1)) for m in re.finditer(r"^\| ([\d.]+) \| (\d+) \|$", md,
                                                           re.M)
                    for _ in range(int(m.group(2))))
    assert listed == pytest.approx(totals)


def test_the_gradebook_of_two_grade_folders(cycle):
    header, rows = gradebook([cycle / "g1", cycle / "g2"], weights=[1, 3])
    assert header == ["student", "HW1", "HW2", "total", "missing", "weighted %"]
    g1 = {s["student"]: s["total"] for s in _grades(cycle / "g1")["students"]}
    g2 = {s["student"]: s["total"] for s in _grades(cycle / "g2")["students"]}
    by = {r[0]: r for r in rows}
    assert sorted(by) == STUDENTS
    assert by["s0005"][2] == "" and by["s0005"][4] == "1"          # missing, not 0
    assert float(by["s0005"][3]) == pytest.approx(g1["s0005"])
    w = (1 * g1["s0001"] / 6 + 3 * g2["s0001"] / 6) / 4 * 100
    assert float(by["s0001"][5]) == pytest.approx(w, abs=0.01)
    assert float(by["s0005"][5]) == pytest.approx(100 * g1["s0005"] / 6, abs=0.01)
    _, zero = gradebook([cycle / "g1", cycle / "g2"], missing_as_zero=True)
    assert {r[0]: r[2] for r in zero}["s0005"] == "0"
    out = cycle / "book.csv"
    assert cli.main(["gradebook", str(cycle / "g1"), str(cycle / "g2"), "--out",
                     str(out)]) == 0
    assert out.read_text().splitlines()[0] == "student,HW1,HW2,total,missing"


# ------------------------------------------------- the generator's checks, quickly
def _problems(folder, work, variants):
    with package_only():       # each folder declares 61_labels anew
        return authored.check(authored.prepare(folder, work), variants)


def test_the_generators_checks_catch_a_typed_and_a_wrong_solution(tmp_path, fresh):
    ok = write_exercise(tmp_path / "ok")
    assert _problems(ok, tmp_path / "w0", ["a", "b", "c"]) == []
    typed = write_exercise(tmp_path / "typed", dict(SOLUTIONS, **{
        "61.3": "answer = 31  # SOLUTION"}))
    problems = _problems(typed, tmp_path / "w1", ["a"])
    assert any("'31' is typed, not computed" in p for p in problems)
    assert any("do not get full marks for variant a: 61.3" in p for p in problems)
    wrong = write_exercise(tmp_path / "wrong", dict(SOLUTIONS, **{
        "61.1": "answer = float(pe.purity(q1.pred, q1.truth))  # SOLUTION"}))
    problems = _problems(wrong, tmp_path / "w2", ["a", "b", "c", "d"])
    assert problems and all("61.1 (incorrect)" in p for p in problems)
    broken = write_exercise(tmp_path / "broken", dict(SOLUTIONS, **{
        "61.2": "answer = [float(pe.rand_index(q2.truth, q2.pred)),\n"
                "          float(pe.adjusted_rand_index(q2.truth, q2.pred))]  # SOLUTION"}))
    problems = _problems(broken, tmp_path / "w4", [])
    assert any("students' notebook, cell" in p and "does not run" in p for p in problems)
    twice = write_exercise(tmp_path / "twice", dict(SOLUTIONS, **{
        "61.1": "answer = float(pe.purity(q1.truth, q1.pred))  # SOLUTION\nanswer = 0.5"}))
    with pytest.raises(ValueError, match="assigns 'answer' again"):
        _problems(twice, tmp_path / "w3", [])


def test_the_shipped_example_passes_the_generators_checks(tmp_path, fresh):
    folder = ROOT / "examples" / "iris_exercise"
    prepared = authored.prepare(folder, tmp_path)
    exercise = pa.load(folder)
    kinds = {QUESTIONS[q].kind for q in exercise.qids}
    assert len(kinds) >= 3 and "choice" in kinds
    for q in exercise.qids:       # every question names at least one mistake
        assert QUESTIONS[q](seed="s0001").mistakes(), q
    assert authored.check(prepared, [f"v{k}" for k in range(12)]) == []


def test_assign_refuses_an_exercise_whose_solution_is_typed(tmp_path, fresh):
    typed = write_exercise(tmp_path / "typed", dict(SOLUTIONS, **{
        "61.3": "answer = 31  # SOLUTION"}))
    (tmp_path / "class.csv").write_text("student\ns1\n", encoding="utf-8")
    assert cli.main(["assign", str(typed), "--roster", str(tmp_path / "class.csv"), "--out",
                     str(tmp_path / "hw")]) == 2
    assert not (tmp_path / "hw" / "notebooks").exists()


# ------------------------------------------------------------------ the API
def test_authoring_refuses_bad_declarations(fresh):
    with pytest.raises(ValueError, match="two digits"):
        pa.Exercise("iris")
    with pytest.raises(ValueError, match="number of the course's exercise 03"):
        pa.Exercise("03_mine")
    ex = pa.Exercise("97_api", title="api")
    data = ex.dataset(lambda rng: {"x": 0.5 if rng is None else float(rng.uniform(0.2, 0.8))})
    with pytest.raises(ValueError, match="points: expected a positive number"):
        ex.number("t", key=lambda d: d["x"], prompt="p", data=data, points=0)
    with pytest.raises(TypeError, match="pa.mistake"):
        ex.number("t", key=lambda d: d["x"], prompt="p", data=data, mistakes=[("a", 1)])
    with pytest.raises(ValueError, match="not a data set"):
        ex.number("t", key=lambda d: d["x"], prompt="p", data="nothing")


def test_tolerance_choice_names_and_free_text(fresh):
    ex = pa.Exercise("98_tol", title="tolerance")
    data = ex.dataset(lambda rng: {"x": 0.5 if rng is None else float(rng.uniform(0.2, 0.8))})
    Wide = ex.number("wide", key=lambda d: d["x"], prompt="p", data=data, atol=0.01, rtol=0,
                     mistakes=[pa.mistake("doubled", lambda d: 2 * d["x"], "Twice it.")])
    q = Wide(seed=None)
    assert q.grade(0.509).status == CORRECT and q.grade(0.511).status == INCORRECT
    assert q.grade(1.0).diagnosed == ["doubled"]
    assert q.to_json(0.509) == 0.509                  # what was typed, not the key
    Text = ex.free_text("words", prompt="Say why.", points=3)
    t = Text(seed=None)
    assert t.grade("Because.").status == pa.HAND and t.grade(...).status == NOT_ATTEMPTED
    assert t.grade(12).status == "invalid answer"
    Pick = ex.choice("pick", data=data, prompt="Which?", statements=lambda d: [
        ("x is above 0.1", True, "It is.", "above"), ("x is above 0.9", False, "No.", "high"),
        ("x is a number", True, "Yes.", "number")])
    names = set()
    for seed in ("a", "b", "c", "d"):
        p = Pick(seed=seed)
        wrong = "".join(sorted(p.compute_key() ^ {next(letter for letter, text in
                                                        p.choices.items() if "0.9" in text)}))
        names.update(p.grade(wrong).diagnosed)
    assert names == {"misjudged: high"}     # the same name whatever its letter


def test_late_policy_syntax_and_verdicts():
    p = late.parse_policy("penalty:10%/day,cap:50%")
    assert (p.per_day, p.cap) == (0.1, 0.5)
    with pytest.raises(ValueError, match="late: expected none, flag"):
        late.parse_policy("10 percent")
    due = late.parse_due("2026-12-01T23:59")
    v = late.late_verdict("s1", "Smith_late_123_456_s1.ipynb", due, {}, p)
    assert (v["source"], v["late"], v["days"], v["penalty"]) == ("Canvas's late mark", True, 1,
                                                                 0.1)
    v = late.late_verdict("s1", "s1.ipynb", due, {}, late.parse_policy("flag"))
    assert v["source"] == "unknown" and v["penalty"] == 0
    assert late.late_verdict("s1", "s1.ipynb", due, {}, late.parse_policy("none")) is None


def test_release_by_the_path_hands_out_the_solutions_with_the_questions(cycle):
    folder, rel = cycle / "my_exercise", cycle / "released"
    assert cli.main(["release", str(folder), "--out", str(rel), "--roster",
                     str(cycle / "class.csv")]) == 0
    assert (rel / "61_labels_solutions.ipynb").read_bytes() == (
        folder / "solutions.ipynb").read_bytes()
    assert (rel / "questions.py").read_bytes() == (folder / "questions.py").read_bytes()
    assert (rel / "notebooks" / "questions.py").is_file()
    setup = nbformat.read(rel / "notebooks" / "s0004_61_labels.ipynb", as_version=4).cells[2]
    assert '"released": true' in setup.source and "STUDENT_ID = 's0004'" in setup.source


# ------------------------------------------------- corrections, report: by themselves
def _students():
    def row(q, pts, mx, status, diagnosed=()):
        return {"question": q, "title": f"<i>{q}</i>", "points": pts, "max_points": mx,
                "status": status, "feedback": "", "diagnosed": list(diagnosed)}
    return [{"student": f"x{k}", "file": f"x{k}.ipynb", "calls": {}, "rows": [
        row("1.1", float(k % 2), 1.0, CORRECT if k % 2 else INCORRECT,
            () if k % 2 else ("<script>alert(1)</script>",)),
        row("1.2", float(k % 3) / 2, 1.0, PARTLY if k % 3 == 1 else CORRECT)]}
        for k in range(7)]


def test_the_item_rest_correlation_is_the_point_biserial():
    from scipy.stats import pointbiserialr

    from prayatul_edu.grading.class_report import item_rest

    rng = np.random.default_rng(3)
    item = rng.integers(0, 2, 40)
    rest = rng.normal(5, 2, 40) + 2 * item
    assert item_rest(list(item), list(rest)) == pytest.approx(pointbiserialr(item, rest)[0])
    assert item_rest([1, 1, 1], [0, 2, 5]) is None


def test_the_report_escapes_every_name(tmp_path):
    from prayatul_edu.grading.class_report import write_class_report

    write_class_report(_students(), tmp_path, "<b>HW</b>")
    html = (tmp_path / "report.html").read_text()
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>HW" not in html
    md = (tmp_path / "report.md").read_text()
    # only what Markdown would misread is escaped: a tag's ``<``, not ``>`` or ``(``
    assert "<script>" not in md and "| &lt;script>alert(1)&lt;/script> | 4 (57%) |" in md


@pytest.mark.parametrize("text, message", [
    ("student,question,points\ns1,1.1,1\n", "columns student and question and points and reason"),
    ("student,question,points,reason\ns1,1.1,one,x\n", "line 2: points 'one' is not a number"),
    ("student,question,points,reason\ns1,1.1,-1,x\n", "line 2: points '-1' is negative"),
    ("student,question,points,reason\ns1,1.1,1,\n", "line 2: give a reason"),
    ("student,question,points,reason\n=cmd(),1.1,1,x\n", "line 2: '=cmd\\(\\)' is not a valid"),
    ("student,question,points,reason\ns1,1.1,1,x\ns1,1.1,0,y\n", "line 3: s1 1.1 is corrected "
     "twice"),
])
def test_bad_overrides_are_refused_naming_the_line(tmp_path, text, message):
    from prayatul_edu.grading.overrides import read_overrides

    (tmp_path / "o.csv").write_text(text)
    with pytest.raises(ValueError, match=f"^overrides: .*{message}"):
        read_overrides(tmp_path / "o.csv")


def test_overrides_above_the_maximum_or_of_no_question_change_nothing():
    from prayatul_edu.grading.overrides import apply_overrides

    students = _students()
    before = json.dumps(students)
    with pytest.raises(ValueError, match="2 points is more than the question's 1"):
        apply_overrides(students, [{"student": "x1", "question": "1.1", "points": 0.5,
                                    "reason": "r"},
                                   {"student": "x2", "question": "1.2", "points": 2,
                                    "reason": "r"}])
    with pytest.raises(ValueError, match="x2 has no question '9.9'"):
        apply_overrides(students, [{"student": "x2", "question": "9.9", "points": 1,
                                    "reason": "r"}])
    assert json.dumps(students) == before
    assert apply_overrides(students, [{"student": "nobody", "question": "1.1", "points": 1,
                                       "reason": "r"}]) == ["nobody"]


def test_export_and_gradebook_refuse_bad_input_clearly(tmp_path, capsys):
    assert cli.main(["export", str(tmp_path)]) == 2
    assert "grades: no readable grades.json" in capsys.readouterr().err
    (tmp_path / "grades.json").write_text(json.dumps({"students": _students()}))
    assert cli.main(["export", str(tmp_path), "--late", "10%"]) == 2
    assert "late: expected none, flag or penalty" in capsys.readouterr().err
    assert cli.main(["export", str(tmp_path), "--due", "next friday", "--late", "flag"]) == 2
    assert "due: expected a date and time" in capsys.readouterr().err
    assert not (tmp_path / "report.md").exists()           # nothing written
    assert cli.main(["gradebook", str(tmp_path), "--weights", "1,2", "--out",
                     str(tmp_path / "b.csv")]) == 2
    assert "weights: expected one positive number per grades folder (1)" in capsys.readouterr().err
