"""Fabricated submissions of exercise 03 for the grading tests (answers computed here,
independently of the library's keys).

The grading tests take exercise 03's question list and marks from the exercise itself
(``QIDS``, ``POINTS``, ``FULL``, ``TOTAL``): a question added to the exercise takes part
in every grading test without a number to edit in each file, and
``tests/test_function_questions.py`` pins the list and the total in one place.
"""
import contextlib
import json
import re
from pathlib import Path

import nbformat

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import _data
from prayatul_edu.exercises import authoring as pa

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "exercises" / "03_pair_counting.ipynb"
#: The questions of exercise 03 in the notebook's order (03.5's answer is a function).
QIDS = ex.topic_questions("03")
#: What each is worth, full marks of a right notebook (its rows), and their sum.
POINTS = {q: float(ex.QUESTIONS[q].points) for q in QIDS}
FULL = [(q, POINTS[q], ex.CORRECT) for q in QIDS]
TOTAL = sum(POINTS.values())
#: The questions whose answer is a function: their answer is its source (``answers``).
FUNCTIONS = [q for q in QIDS if issubclass(ex.QUESTIONS[q], ex.kinds.FunctionQuestion)]

#: A right ``pair_counts`` (03.5), as a student writes it: each unordered pair once.
PAIR_COUNTS = """def pair_counts(truth, pred):
    f = {"11": 0, "01": 0, "10": 0, "00": 0}
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            f[f"{int(truth[i] == truth[j])}{int(pred[i] == pred[j])}"] += 1
    return f["11"], f["01"], f["10"], f["00"]
"""


def answers(student):
    """The right answers of notebook 03 for ``student``, computed by hand (03.5's: the
    source of a right function)."""
    from sklearn.metrics import adjusted_rand_score, rand_score

    q = ex.question("03.1", seed=student)
    t, c = q.classes, q.clusters
    ideal = [[int(c[i] == c[j]) for j in range(5)] for i in range(5)]
    f = {"00": 0, "01": 0, "10": 0, "11": 0}
    for i in range(5):
        for j in range(i + 1, 5):
            f[f"{int(t[i] == t[j])}{int(c[i] == c[j])}"] += 1
    counts = [f["00"], f["01"], f["10"], f["11"]]
    rand = (f["00"] + f["11"]) / 10
    jac = f["11"] / (f["01"] + f["10"] + f["11"])
    q4 = ex.question("03.4", seed=student)
    return {"03.1": ideal, "03.2": counts, "03.3": [rand, jac],
            "03.4": [rand_score(q4.classes, q4.clusters),
                     adjusted_rand_score(q4.classes, q4.clusters),
                     "B"],          # the statement "The ARI: a random clustering ... scores 0"
            "03.5": PAIR_COUNTS}


def notebook(student, answered=None, after=None, drop=(), check_source=None, template=None):
    """The exercise (or the notebook ``template``, e.g. a handout) with ``STUDENT_ID =
    student``, some answers filled in, extra cells after some cells (``after``: cell id ->
    source), cells dropped, and optionally the source of every check cell given
    (``check_source``: qid -> source)."""
    nb = nbformat.read(template or TEMPLATE, as_version=4)
    cells = []
    for cell in nb.cells:
        if cell.id in drop:
            continue
        if cell.id == "setup":
            cell.source = re.sub(r"^STUDENT_ID = [^#\n]*", f"STUDENT_ID = {student!r}  ",
                                 cell.source, count=1, flags=re.M)
        qid = (cell.id[1:].removesuffix("-check").replace("-", ".")
               if cell.id.endswith("-check") else None)
        if qid and check_source and qid in check_source:
            cell.source = check_source[qid]
        elif qid and answered and qid in FUNCTIONS and qid in answered:
            # a function's source in place of the template's stub, the function the answer
            head, sep, tail = cell.source.partition("\nanswer = ")
            name = ex.QUESTIONS[qid].function_name()
            cell.source = answered[qid] + "\n\n" + sep.lstrip("\n") + re.sub(
                r"^\.\.\.", name, tail, count=1)
        elif qid and answered and qid in answered:
            # As a student would: the template's one answer line filled, its comment kept.
            cell.source = re.sub(r"^answer = [^#\n]*", f"answer = {json.dumps(answered[qid])}  ",
                                 cell.source, count=1, flags=re.M)
        cells.append(cell)
        if after and cell.id in after:
            cells.append(nbformat.v4.new_code_cell(after[cell.id], id=f"extra-{cell.id}"))
    nb.cells = cells
    return nb


def rows(report):
    """(question, points, status) of every row."""
    return [(r["question"], r["points"], r["status"]) for r in report.rows]


# The registries an exercise's declaration fills, as the package alone fills them: each
# test declaring exercises works on a copy, and the module leaves them as it found them.
_REGISTRIES = (ex.QUESTIONS, pa.AUTHORED, pa._LOADED, _data.DATASETS, _data._CACHE)
_PACKAGE_ONLY = [dict(r) for r in _REGISTRIES]   # at import: before any declaration


@contextlib.contextmanager
def package_only():
    saved = [dict(r) for r in _REGISTRIES]
    for r, base in zip(_REGISTRIES, _PACKAGE_ONLY):
        r.clear()
        r.update(base)
    try:
        yield
    finally:
        for r, before in zip(_REGISTRIES, saved):
            r.clear()
            r.update(before)
