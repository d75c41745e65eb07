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
import pytest

import prayatul_edu.exercises as ex

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
        assert meta["questions"] == sorted(q for q in ex.QUESTIONS
                                           if q.startswith(path.stem[:2] + "."))
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
        "q.check(answer)",
    ])
    assert make.strip_source(src).split("\n") == [
        "x = ...  # the a_i",
        "# your code here",
        "def f():",
        "    pass  # your code here",
        "answer = ...  # your answer here",
        "pass  # your code here",
        "q.check(answer)",
    ]


@pytest.mark.parametrize("src, message", [
    ("# BEGIN SOLUTION\nx = 1", "without '# END SOLUTION'"),
    ("x = 1\n# END SOLUTION", "without '# BEGIN SOLUTION'"),
    ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside another region"),
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
