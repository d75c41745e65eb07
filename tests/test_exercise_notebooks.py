"""exercises/ is what scripts/make_exercises.py generates, and it runs blank.

The exercise notebooks are executed here with nbclient (a fresh kernel per
notebook, no output comparison): no cell may raise, every check must say "not
attempted", and the last cell must list every question as still open. The
solutions/ notebooks are checked by nbval with their outputs compared (the
lesson's numbers), from the README's test command.
"""
import importlib.util
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import generator
from prayatul_edu.exercises._base import numeric

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))


def _script():
    spec = importlib.util.spec_from_file_location("make_exercises",
                                                  ROOT / "scripts" / "make_exercises.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


make = _script()


def test_one_exercise_per_solution_numbered_like_the_topics():
    assert [p.name for p in SOLUTIONS] == [p.name for p in EXERCISES]
    assert [p.stem for p in SOLUTIONS] == [f"{k}_{v}" for k, v in ex.TOPICS.items()]


def test_exercises_are_exactly_what_the_command_generates():
    expected = make.expected_exercises()
    assert sorted(expected) == EXERCISES
    for path, text in expected.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"exercises/{path.name} is out of date: run python scripts/make_exercises.py")
    assert make.main(["--check"]) == 0


def test_exercises_hold_no_solution_and_no_output():
    for path in EXERCISES:
        nb = nbformat.read(path, as_version=4)
        meta = nb.metadata["prayatul_edu"]
        assert meta["exercise"] == path.stem
        assert meta["questions"] == sorted((q for q in ex.QUESTIONS       # 01.2 before 01.10
                                            if q.startswith(path.stem[:2] + ".")),
                                           key=lambda q: int(q.split(".")[1]))
        assert meta["cells"] == [c.id for c in nb.cells]
        for cell in nb.cells:
            assert "SOLUTION" not in cell.source
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None


def test_solutions_check_every_question_and_are_saved_with_outputs():
    for path in SOLUTIONS:
        nb = nbformat.read(path, as_version=4)
        topic = path.stem[:2]
        checks = [c for c in nb.cells if c.cell_type == "code" and c.id.endswith("-check")]
        assert len(checks) == len([q for q in ex.QUESTIONS if q.startswith(topic + ".")])
        for c in checks:
            text = c.outputs[-1]["data"]["text/plain"]
            assert ": correct (" in text, (path.name, c.id, text)


# ------------------------------------------------------- the stripping rules
def test_strip_source_markers():
    src = "\n".join([
        "x = ...  # the a_i",
        "# BEGIN SOLUTION",
        "x = [1, 2]",
        "y = 3",
        "# END SOLUTION",
        "def f():",
        "    # BEGIN SOLUTION",
        "    return 1",
        "    # END SOLUTION",
        "answer = compute(x)  # SOLUTION",
        "print(x)  # SOLUTION",
        "pair = [p, f(q, 2), (3, 4)]  # SOLUTION: p, r and a tuple",
        "q.check(answer)",
    ])
    assert make.strip_source(src).split("\n") == [
        "x = ...  # the a_i",
        "# your code here",
        "def f():",
        "    pass  # your code here",
        "answer = ...  # your answer here",
        "pass  # your code here",
        "pair = [..., ..., ...]  # p, r and a tuple",
        "q.check(answer)",
    ]


@pytest.mark.parametrize("src, message", [
    ("# BEGIN SOLUTION\nx = 1", "without '# END SOLUTION'"),
    ("x = 1\n# END SOLUTION", "without '# BEGIN SOLUTION'"),
    ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside another region"),
    # the bug of issue 16: the student's line, then the solution line turned into a second one
    ("answer = [..., ...]  # p, r\nanswer = [p, r]  # SOLUTION\nq.check(answer)",
     "line 2 assigns 'answer' again, after the answer line 1"),
    ("answer = ...\nanswer = 0.5\nq.check(answer)", "the student's answer would be thrown away"),
])
def test_strip_source_rejects_unbalanced_markers(src, message):
    with pytest.raises(ValueError, match=f"^nb, cell 3: .*{message}"):
        make.strip_source(src, "nb, cell 3")


def test_solution_tagged_cells_become_empty():
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    nb = new_notebook(cells=[
        new_code_cell("secret = 42", metadata={"tags": ["solution"]}, id="a"),
        new_markdown_cell("The answer is 42.", metadata={"tags": ["solution", "x"]}, id="b"),
        new_code_cell("q.check(1)", id="c", outputs=[{"output_type": "stream", "name":
                                                      "stdout", "text": "Correct"}],
                      execution_count=3),
    ])
    out = make.make_exercise(nb, "01_matching")
    assert [c.source for c in out.cells] == ["# your code here", "*Your answer here.*",
                                             "q.check(1)"]
    assert "tags" not in out.cells[0].metadata and out.cells[1].metadata["tags"] == ["x"]
    assert out.cells[2].outputs == [] and out.cells[2].execution_count is None
    assert out.metadata["prayatul_edu"]["cells"] == ["a", "b", "c"]
    assert nb.cells[0].source == "secret = 42"              # the solution is untouched


# ---------------------------------------------------- exercises run blank
@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.stem)
def test_exercise_runs_blank_and_says_what_is_open(path):
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    qids = nb.metadata["prayatul_edu"]["questions"]
    checks = [c for c in nb.cells if c.cell_type == "code" and c.id.endswith("-check")]
    assert len(checks) == len(qids)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", (path.name, cell.id, out.get("evalue"))
    for qid, cell in zip(qids, checks):
        text = cell.outputs[-1]["data"]["text/plain"]
        assert text.startswith(f"{qid} ") and ": not attempted (0/" in text
        assert "replace ... with your answer" in text
    progress = nb.cells[-1].outputs[-1]["data"]["text/plain"]
    assert f"0 of {len(qids)} questions correct" in progress
    assert "Still open: " + ", ".join(qids) + "." in progress


# ------------------------------------------ exercises answered as a student would
_PLACEHOLDER = generator.PLACEHOLDER


def _qid(cell_id):
    """``q01-2-check`` -> ``01.2``."""
    topic, number = cell_id[1:].split("-")[:2]
    return f"{topic}.{number}"


def _as_literal(key):
    """The key written as a student types it: numbers, nested lists, or letters."""
    if isinstance(key, frozenset):
        return repr("".join(sorted(key)))
    return repr(np.asarray(key).tolist())


def _execute(nb, folder):
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", (cell.id, out.get("evalue"))
    return nb


def _check_texts(nb):
    return {_qid(c.id): c.outputs[-1]["data"]["text/plain"]
            for c in nb.cells if c.cell_type == "code" and c.id.endswith("-check")}


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.stem)
def test_exercise_filled_on_its_one_answer_line_is_correct(path):
    nb = nbformat.read(path, as_version=4)
    qids = nb.metadata["prayatul_edu"]["questions"]
    solved = {c.id: c.source for c in nbformat.read(ROOT / "solutions" / path.name,
                                                    as_version=4).cells}
    for cell in nb.cells:
        if cell.cell_type != "code" or not cell.id.endswith("-check"):
            continue
        if issubclass(ex.QUESTIONS[_qid(cell.id)], ex.kinds.FunctionQuestion):
            # the answer is a function: the student writes its body, as the solution does
            assert cell.source.count("pass  # your code here") == 1, cell.source
            cell.source = solved[cell.id]
            continue
        lines = cell.source.split("\n")
        answer_lines = [k for k, line in enumerate(lines) if _PLACEHOLDER.match(line)]
        assert len(answer_lines) == 1, (cell.id, cell.source)      # one answer line
        k = answer_lines[0]
        name = _PLACEHOLDER.match(lines[k]).group(1)
        key = ex.question(_qid(cell.id), seed=None).key()
        lines[k] = f"{name} = {_as_literal(key)}  # filled in by the student"
        cell.source = "\n".join(lines)
    texts = _check_texts(_execute(nb, path.parent))
    assert sorted(texts) == sorted(qids)
    for qid, text in texts.items():
        assert text.startswith(f"{qid} ") and ": correct (" in text, (qid, text)
    progress = nb.cells[-1].outputs[-1]["data"]["text/plain"]
    assert f"{len(qids)} of {len(qids)} questions correct" in progress


# one variant per notebook (different ids, so the choice letters are shuffled differently)
_VARIANTS = {p.stem: f"s{1000 + 7 * k}" for k, p in enumerate(SOLUTIONS)}


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_computes_its_answers_from_the_variants_data(path):
    nb = nbformat.read(path, as_version=4)
    setup = next(c for c in nb.cells if c.id == "setup")
    assert "STUDENT_ID = None" in setup.source
    variant = _VARIANTS[path.stem]
    setup.source = setup.source.replace("STUDENT_ID = None", f"STUDENT_ID = {variant!r}")
    texts = _check_texts(_execute(nb, path.parent))
    assert sorted(texts) == sorted(nb.metadata.get("prayatul_edu", {}).get("questions", texts))
    assert len(texts) == len([q for q in ex.QUESTIONS if q.startswith(path.stem[:2] + ".")])
    for qid, text in texts.items():
        assert ": correct (" in text, (variant, qid, text)
        # the variant's key differs from the course's: the solution did not copy it
    changed = [qid for qid in texts
               if not _same(ex.question(qid, seed=variant).key(),
                            ex.question(qid, seed=None).key())]
    assert len(changed) >= len(texts) // 2, changed


def _same(a, b):
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        return a == b
    a, b = numeric(a), numeric(b)           # a letter part (03.4's) as its position
    return a.shape == b.shape and bool(np.allclose(a, b))
