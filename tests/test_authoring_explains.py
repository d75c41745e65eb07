"""Authoring that explains itself (issue 43): what an instructor's exercise gets wrong is
named when it is loaded, by question and mistake, never as a traceback or a wrong
answer later."""
import pytest

from grading_helpers import package_only
from prayatul_edu.exercises import NOT_ATTEMPTED
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.exercises._base import QUESTIONS
from prayatul_edu.exercises.generator import strip_source
from prayatul_edu.grading.authored import declared_problems


@pytest.fixture
def fresh():
    with package_only():
        yield


def test_an_unfilled_region_assigning_answer_leaves_a_placeholder():
    """The previous question's ``answer`` never reaches this check (it was: 'expected
    letters, got [0, 13, 0]')."""
    solution = ("# BEGIN SOLUTION\njudged = {'a': True}\nanswer = q5.letters_for(judged)\n"
                "# END SOLUTION\nq5.check(answer)")
    assert strip_source(solution) == ("# your code here\nanswer = ...  # your answer here\n"
                                      "q5.check(answer)")
    # the cell after the region sets answer itself: no second answer line
    later = "# BEGIN SOLUTION\nanswer = 1\n# END SOLUTION\nanswer = 2  # SOLUTION\nq.check(answer)"
    assert strip_source(later) == ("# your code here\nanswer = ...  # your answer here\n"
                                   "q.check(answer)")
    # a region inside a function, or computing other names, is left as it was
    inner = "def f():\n    # BEGIN SOLUTION\n    answer = 1\n    # END SOLUTION\n    return 0"
    assert strip_source(inner) == "def f():\n    pass  # your code here\n    return 0"


def test_the_placeholder_of_an_unfilled_region_checks_not_attempted(fresh):
    ex = pa.Exercise("97_leak", title="leak")
    Q = ex.number("a number", key=lambda d: 0.5, prompt="Say 0.5.")
    namespace = {"q": Q(seed=None)}
    exec(strip_source("# BEGIN SOLUTION\nanswer = 0.5\n# END SOLUTION\n"
                      "outcome = q.grade(answer)"), namespace)
    assert namespace["outcome"].status == NOT_ATTEMPTED


def test_a_reserved_data_name_is_refused_by_name(fresh):
    ex = pa.Exercise("96_reserved", title="reserved")
    data = ex.dataset(lambda rng: {"seed": 3, "labels": [1, 2]})
    Q = ex.integer("the seed", key=lambda d: d["seed"], prompt="Which seed?", data=data)
    problems = declared_problems([Q.qid])
    assert len(problems) == 1
    assert problems[0].startswith("96.1 the seed: dataset <lambda>: the data name 'seed' "
                                  "belongs to the question itself (q.seed is its variant, "
                                  "q.data its data, ...): rename it; reserved: ")
    assert "points" in problems[0].split("reserved: ")[1].split(", ")


def test_a_reserved_data_name_is_said_once_for_the_questions_on_its_data_set(fresh):
    """Its data set's problem, not each question's: said once, with the questions on it
    (it was the same sentence, with its list of 40 reserved names, once per question)."""
    ex = pa.Exercise("94_reserved", title="reserved")
    data = ex.dataset(lambda rng: {"seed": 3, "title": "x", "labels": [1, 2]})
    Qs = [ex.integer(f"q{k}", key=lambda d: d["seed"], prompt="?", data=data)
          for k in range(3)]
    problems = declared_problems([Q.qid for Q in Qs])
    assert len(problems) == 1
    assert problems[0].startswith("94.1 q0, 94.2 q1, 94.3 q2: dataset <lambda>: the data "
                                  "names 'seed', 'title' belong to the question itself")


def test_a_raising_mistake_and_a_wrong_shape_are_named(fresh):
    ex = pa.Exercise("95_named", title="named")
    data = ex.dataset(lambda rng: {"x": 0.25})
    Q1 = ex.number("a quarter", data=data, key=lambda d: d["x"], prompt="x?",
                   mistakes=[pa.mistake("divided by zero", lambda d: d["x"] / 0, "No.")])
    Q2 = ex.numbers("two parts", data=data, parts=("a", "b"), prompt="a and b?",
                    key=lambda d: [d["x"], 2 * d["x"]],
                    mistakes=[pa.mistake("one part", lambda d: d["x"], "Give both.")])
    Q3 = ex.table("a table", data=data, prompt="The table?", key=lambda d: [[1, 2], [3, 4]],
                  mistakes=[pa.mistake("a row short", lambda d: [[1, 2]], "Both rows.")])
    assert declared_problems([Q1.qid, Q2.qid, Q3.qid]) == [
        "95.1 a quarter: its mistake 'divided by zero' raises ZeroDivisionError (float "
        "division by zero) for the exercise's own data",
        "95.2 two parts: the named mistake 'one part' gives one number, the key 2 numbers: "
        "a mistake must have the key's shape (one value per part, the table's rows and "
        "columns)",
        "95.3 a table: the named mistake 'a row short' gives a table of 1 row and 2 columns, "
        "the key a table of 2 rows and 2 columns: a mistake must have the key's shape (one "
        "value per part, the table's rows and columns)"]
    assert QUESTIONS[Q1.qid] is Q1


def test_check_cells_are_found_by_position_and_question_not_only_by_id():
    """JupyterLab gives new cells random ids: a free-text check cell is still known as
    the check of its question (its typed answer is no 'typed, not computed' problem)."""
    import nbformat

    from prayatul_edu.exercises.generator import checked_questions, literal_answers

    cell = nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("## 61.1 Purity"),
        cell('q1 = ex.question("61.1")\nq1'),
        cell("answer = 0.5  # SOLUTION\nq1.check(answer)"),                   # bound name
        nbformat.v4.new_markdown_cell("## 61.2 Why"),
        cell('answer = "Chance agrees too."  # SOLUTION\nex.question("61.2").check(answer)'),
        nbformat.v4.new_markdown_cell("## 61.3 In words"),
        cell('answer = "By position."  # SOLUTION\nq.check(answer)'),          # the heading
        cell("q9.check(1)"),                                                   # unbound, id
    ])
    nb.cells[-1]["id"] = "q61-4-check"
    assert all(not c.get("id", "").startswith("q61") for c in nb.cells[:-1])
    assert checked_questions(nb) == {2: "61.1", 4: "61.2", 6: "61.3", 7: "61.4"}
    free = {k for k, q in checked_questions(nb).items() if q in ("61.2", "61.3")}
    assert literal_answers(nb, "solutions.ipynb", exempt=free) == [
        "solutions.ipynb, cell 3: the solution '0.5' is typed, not computed from the data "
        "(a variant has other data)"]


def test_no_fair_variant_names_the_question_and_mistake_before_any_search(fresh):
    """The search would redraw each variant 500 times (minutes) and then say only 'no
    fair variant ... for seed ...'; judged on 40 draws first, the fault is named."""
    from prayatul_edu.grading.authored import FAIRNESS_DRAWS, fairness_problems

    ex = pa.Exercise("94_unfair", title="unfair")
    data = ex.dataset(lambda rng: {"x": 0.3 if rng is None else float(rng.uniform(0.1, 0.9))})
    Fine = ex.number("x itself", data=data, key=lambda d: d["x"], prompt="x?",
                     mistakes=[pa.mistake("doubled", lambda d: 2 * d["x"], "Twice.")])
    Bad = ex.number("x again", data=data, key=lambda d: d["x"], prompt="x?",
                    mistakes=[pa.mistake("rounded", lambda d: round(d["x"], 6), "Rounded."),
                              pa.mistake("halved", lambda d: d["x"] / 2, "Half.")])
    assert fairness_problems([Fine.qid]) == []
    assert fairness_problems([Fine.qid, Bad.qid]) == [
        f"no fair variant: none of {FAIRNESS_DRAWS} draws of the data set <lambda> is fair "
        f"for every question on it; 94.2 x again: the named mistake 'rounded' gives the key "
        f"in {FAIRNESS_DRAWS} of {FAIRNESS_DRAWS} draws: change the data's draw or the mistake"]


def test_the_guide_shows_the_whole_example_module_inline():
    """docs/authoring.md holds the example's questions.py itself (an include is
    invisible where the Markdown is read as it is), and stays the file."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    guide = (root / "docs" / "authoring.md").read_text(encoding="utf-8")
    shown = guide.split("## The example's questions in full", 1)[1]
    shown = shown.split("```python\n", 1)[1].rsplit("```", 1)[0]
    assert shown == (root / "examples" / "iris_exercise" / "questions.py").read_text(
        encoding="utf-8")
    assert "literalinclude" not in guide


def _lab_notebook():
    """A graded authored notebook as JupyterLab saves it: random cell ids, the question
    found by its heading and its ``q2 = ex.question("61.2")`` cell; the check cell of
    61.2 raised before checking."""
    import nbformat

    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    raised = code("answer = undefined_table[0]\nq2.check(answer)")
    raised.outputs = [nbformat.v4.new_output("error", ename="NameError",
                                             evalue="name 'undefined_table' is not defined",
                                             traceback=[])]
    cells = [code("ex = pa.open_exercise('questions.py')"),
             md("## 61.1 ARI of KMeans"), code('q1 = ex.question("61.1")\nq1'),
             code("answer = 0.5\nq1.check(answer)"),
             md("## 61.2 Contingency table of Ward"), code('q2 = ex.question("61.2")\nq2'),
             raised, code("q2._memo"),
             code('q3 = ex.question("61.3")\nq3'), code("answer = q3.__closure__")]
    for cell, cid in zip(cells, ("978825de-5e0f", "36078013", "0a7c9547", "8fa5e037",
                                 "31b8a30e", "e6bce6a9", "4494932e", "5a5e7cae",
                                 "02736d44", "1aa72aaa")):
        cell.id = cid
    return nbformat.v4.new_notebook(cells=cells)


def test_a_raising_cell_is_found_by_heading_whatever_id_jupyterlab_gave_it():
    """A check cell that raised under ``## 61.2`` is 61.2's error (it was 'not
    attempted': the grader looked for the ids ``q61-2-...`` only), and the calls asking
    for answers count for the question of their part of the notebook; a question
    without a heading starts at the cell binding it (61.3)."""
    from prayatul_edu.grading.notebook import (asked_for_answers, cut_questions,
                                               raised_questions)

    nb = _lab_notebook()
    qids = ("61.1", "61.2", "61.3")
    raised = raised_questions(nb, qids, {6: "code cell 2 under \"61.2\""})
    assert list(raised) == ["61.2"]
    assert raised["61.2"].startswith("Error: code cell 2 under \"61.2\" raised NameError: "
                                     "name 'undefined_table' is not defined")
    assert cut_questions(nb, qids, [7], {7: "cell 8"}) == {
        "61.2": "No answer was recorded: its cell (cell 8) was cut or not run (see the "
                "problems with the notebook)."}
    assert asked_for_answers(nb, qids) == {"61.2": ["_memo"], "61.3": ["__closure__"]}


def test_a_choice_with_one_true_statement_is_named_as_such_not_as_a_tolerance(fresh):
    """A choice needs two true statements (one misjudged true statement is then still an
    answer). A draw where only one is true was blamed on 'a named mistake ... within
    the question's tolerance of the key', which a choice has none of."""
    from prayatul_edu.grading.authored import FAIRNESS_DRAWS, fairness_problems

    ex = pa.Exercise("93_choice", title="choice")
    data = ex.dataset(lambda rng: {"x": 0.3 if rng is None else float(rng.uniform(0.1, 0.9))})
    Q = ex.choice("true statements", data=data, prompt="Which?",
                  statements=lambda d: [("x is above 2.", d["x"] > 2, "No.", "above 2"),
                                        ("x is below 1.", True, "Yes.", "below 1"),
                                        ("x is negative.", False, "No.", "negative")])
    assert fairness_problems([Q.qid]) == [
        f"no fair variant: none of {FAIRNESS_DRAWS} draws of the data set <lambda> is fair "
        f"for every question on it; 93.1 true statements: only 1 statement is true (a "
        f"choice needs 2: a student who misjudges one still gives letters) in "
        f"{FAIRNESS_DRAWS} of {FAIRNESS_DRAWS} draws: change the data's draw or the "
        "mistake"]


def test_a_choice_with_one_true_statement_on_the_own_data_is_named_as_such(fresh):
    """The exercise's own data are taken as they are: there too, a choice with one true
    statement is said so (it was 'the key is not a finite number')."""
    from prayatul_edu.grading.authored import _ambiguous_on_own_data

    ex = pa.Exercise("92_choice", title="choice")
    data = ex.dataset(lambda rng: {"x": 0.3})
    Q = ex.choice("true statements", data=data, prompt="Which?",
                  statements=lambda d: [("x is above 2.", d["x"] > 2, "No.", "above 2"),
                                        ("x is below 1.", True, "Yes.", "below 1")])
    assert _ambiguous_on_own_data([Q.qid]) == [
        "92.1 true statements: on the exercise's own data only 1 statement is true (a "
        "choice needs 2: a student who misjudges one still gives letters): a student's "
        "answer would be ambiguous; change the data or the mistake"]


def test_a_hand_graded_answer_reads_graded_not_still_waiting_after_its_points():
    """The student read 'Recorded: your instructor reads this answer and gives its points
    by hand. [Corrected by your instructor: 1 points. ...]' and '1 points (the grader
    gave 0)': waiting and graded at once, and a plural for one point."""
    from prayatul_edu.grading.finish import student_feedback
    from prayatul_edu.grading.overrides import apply_overrides

    row = {"question": "61.4", "points": 0.0, "max_points": 2.0, "status": pa.HAND,
           "feedback": "Recorded: your instructor reads this answer and gives its points "
                       "by hand.", "help": {}}
    other = {"question": "61.1", "points": 2.0, "max_points": 2.0, "status": "correct",
             "feedback": "Correct.", "help": {}}
    s = {"student": "cobrien", "variant": "v", "file": "cobrien_61_wine.ipynb",
         "rows": [dict(other), row], "problems": [], "total": 2.0, "max_total": 4.0}
    apply_overrides([s], [{"student": "cobrien", "question": "61.4", "points": 1.0,
                           "reason": "Units, yes."},
                          {"student": "cobrien", "question": "61.1", "points": 1.0,
                           "reason": "Regrade."}])
    assert row["feedback"] == "Graded by your instructor: 1 point of 2. Units, yes."
    assert s["rows"][0]["feedback"] == ("Correct. [Corrected by your instructor: 1 point. "
                                        "Regrade.]")
    text = student_feedback(s)
    assert "* 61.4: 1 point (the grader gave 0)" in text


def test_a_notebook_with_the_section_ids_is_read_by_them_alone():
    """The course's notebooks name their parts by id (``q61-2-...``): a heading a student
    adds there moves nothing."""
    import nbformat

    from prayatul_edu.grading.notebook import raised_questions

    nb = _lab_notebook()
    nb.cells[4].id = "q61-2-text"
    nb.cells.insert(6, nbformat.v4.new_markdown_cell("## 61.1 again", id="added"))
    raised = raised_questions(nb, ("61.1", "61.2", "61.3"), {})
    assert list(raised) == ["61.2"]
