"""An instructor's own exercise as its users meet it (issue 38, a second reading).

A new instructor writes a wine exercise of their own (a number, a choice, a whole
number and a free text) with the public API, and hands it out: the free-text answer of
the solutions is typed (it is words), the students see the statements of the choice,
and the students' notebook, in assignment mode before the solutions are released,
shows and checks every question while the answer routes stay refused.
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grading_helpers import package_only
from prayatul_edu.exercises import CORRECT
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.exercises.assignment import POLICY_ENV, VARIANT_ENV
from prayatul_edu.grading import authored

QUESTIONS_PY = '''
import numpy as np

import prayatul_edu as pe
import prayatul_edu.exercises.authoring as pa

exercise = pa.Exercise("62_wine", title="Wine cut by alcohol")


@exercise.dataset
def wines(rng):
    from sklearn.datasets import load_wine
    w = load_wine()
    rng = np.random.default_rng(5) if rng is None else rng
    index = np.sort(rng.choice(178, 24, replace=False))
    cut = round(float(rng.uniform(12.6, 13.2)), 2)
    return {"cultivar": w.target[index] + 1, "clusters": 1 + (w.data[index, 0] > cut)}


exercise.number(
    "purity", data=wines, points=2, prompt="Purity?",
    key=lambda d: float(pe.purity(d["cultivar"], d["clusters"])),
    mistakes=[pa.mistake("inverse purity",
                         lambda d: float(pe.purity(d["clusters"], d["cultivar"])),
                         "That is the inverse purity.")])

exercise.choice(
    "statements", data=wines, prompt="Which statements are true?",
    statements=lambda d: [("Purity is at most one.", True, "It is a share.", "bound"),
                          ("The ARI can be negative.", True, "Below chance.", "sign"),
                          ("An NMI of 1 means no agreement.", False, "1 is perfect.", "scale")])

exercise.integer(
    "wines in cluster 2", data=wines, prompt="How many wines in cluster 2?",
    key=lambda d: int((d["clusters"] == 2).sum()),
    mistakes=[pa.mistake("cluster 1", lambda d: int((d["clusters"] == 1).sum()),
                         "You counted cluster 1.")])

exercise.free_text("why purity misleads", prompt="Why can purity reward splitting?",
                   points=2)
'''

ANSWERS = {
    1: "answer = float(pe.purity(q1.cultivar, q1.clusters))  # SOLUTION",
    2: ('answer = q2.letters_for({"at most": True, "negative": True, '
        '"no agreement": False})  # SOLUTION'),
    3: "answer = int((q3.clusters == 2).sum())  # SOLUTION",
    4: 'answer = "A cluster of one wine is pure: splitting raises purity."  # SOLUTION',
}


def write_exercise(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "questions.py").write_text(textwrap.dedent(QUESTIONS_PY), encoding="utf-8")
    cells = [new_code_cell("import prayatul_edu as pe\n"
                           "import prayatul_edu.exercises.authoring as pa\n"
                           "ex = pa.open_exercise('questions.py')\n"
                           "STUDENT_ID = None  # your student id\n"
                           "ex.setup(student_id=STUDENT_ID)", id="setup")]
    for k, answer in ANSWERS.items():
        cells += [new_code_cell(f"q{k} = ex.question('62.{k}')\nq{k}", id=f"q62-{k}-prompt"),
                  new_code_cell(f"{answer}\nq{k}.check(answer)", id=f"q62-{k}-check")]
    nbformat.write(new_notebook(cells=cells), folder / "solutions.ipynb")
    return folder


@pytest.fixture
def wine(tmp_path):
    with package_only():
        yield write_exercise(tmp_path / "wine_ex")


def test_a_free_text_solution_is_typed_and_passes_the_checks(wine, tmp_path):
    problems = authored.check(authored.prepare(wine, tmp_path / "work"), ["a", "b"])
    assert problems == []
    # a typed number is still refused: right for one variant only
    nb = nbformat.read(wine / "solutions.ipynb", as_version=4)
    nb.cells[6].source = "answer = 12  # SOLUTION\nq3.check(answer)"
    nbformat.write(nb, wine / "solutions.ipynb")
    problems = authored.check(authored.prepare(wine, tmp_path / "work2"), [])
    assert any("cell 7: the solution '12' is typed" in p for p in problems)
    assert not any("cell 9" in p for p in problems)       # the free text's cell


def test_a_choice_question_shows_its_statements(wine):
    ex = pa.load(wine)
    for seed in (None, "a", "b"):
        q = ex.question("62.2").__class__(seed=seed)
        shown = q._repr_markdown_()
        for letter, text in q.choices.items():
            assert f"| {letter} | {text} |" in shown, (seed, shown)


STUDENT = """
import json, os
import prayatul_edu as pe
import prayatul_edu.exercises.authoring as pa
ex = pa.open_exercise("questions.py")
ex.setup(student_id="s0001")
out = {}
q1, q2, q3, q4 = (ex.question(k) for k in (1, 2, 3, 4))
out["shown"] = [bool(q._repr_markdown_()) for q in (q1, q2, q3, q4)]
out["checks"] = [q1.check(float(pe.purity(q1.cultivar, q1.clusters))).text.splitlines()[0],
                 q1.check(float(pe.purity(q1.clusters, q1.cultivar))).text,
                 q3.check(int((q3.clusters == 2).sum())).text.splitlines()[0],
                 q4.check("words").text.splitlines()[0]]
refused = []
for q in (q1, q2, q3):
    for route in ("compute_key", "keys", "mistakes", "_once", "grade"):
        try:
            getattr(q, route)(*(["keys"] if route in ("_once", "grade") else []))
        except pe.exercises.assignment.NotReleased:
            refused.append(route)
out["refused"] = refused
print(json.dumps(out))
"""


def test_the_students_notebook_works_before_the_solutions_are_released(wine):
    env = dict(os.environ, **{POLICY_ENV: json.dumps({"released": False,
                                                      "attempts_per_hint": 1}),
                              VARIANT_ENV: "0123456789abcdef"})
    run = subprocess.run([sys.executable, "-c", STUDENT], cwd=wine, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["shown"] == [True] * 4
    right, slip, count, hand = out["checks"]
    assert f": {CORRECT} (" in right and f": {CORRECT} (" in count
    assert "That is the inverse purity." in slip and f": {CORRECT} (" not in slip
    assert pa.HAND in hand
    # every route but check is sealed, the silent grade() too
    assert out["refused"] == ["compute_key", "keys", "mistakes", "_once", "grade"] * 3


def test_assign_by_path_keeps_the_class_rosters_columns(wine, tmp_path):
    """The names and Canvas ids of the class roster reach roster.csv (the exports read
    them): before, an own exercise's roster.csv held only file and student."""
    (tmp_path / "class.csv").write_text(
        "student,name,canvas_id\ns0001,Ann Lee,101\ns0002,Bo Chen,102\n", encoding="utf-8")
    authored.assign_authored(wine, tmp_path / "class.csv", tmp_path / "hw")
    rows = (tmp_path / "hw" / "roster.csv").read_text(encoding="utf-8").splitlines()
    assert rows == ["file,student,name,canvas_id", "s0001_62_wine.ipynb,s0001,Ann Lee,101",
                    "s0002_62_wine.ipynb,s0002,Bo Chen,102"]


def _edited(folder: Path, old: str, new: str) -> Path:
    text = (folder / "questions.py").read_text(encoding="utf-8")
    assert old in text
    (folder / "questions.py").write_text(text.replace(old, new), encoding="utf-8")
    return folder


def test_a_syntax_error_in_the_questions_is_named_with_its_line(wine, tmp_path):
    _edited(wine, 'exercise.integer(\n', 'exercise.integer((\n')
    line = 1 + (wine / "questions.py").read_text().splitlines().index("exercise.integer((")
    with pytest.raises(ValueError, match=rf"questions.py, line {line}: '\(' was never closed"):
        authored.prepare(wine, tmp_path / "work")
    assert "62_wine" not in pa.AUTHORED      # fixed, it loads anew


def test_a_key_that_raises_is_refused_naming_the_question_and_the_variant(wine, tmp_path):
    _edited(wine, 'key=lambda d: int((d["clusters"] == 2).sum()),',
            'key=lambda d: 1 // 0,')
    problems = authored.check(authored.prepare(wine, tmp_path / "work"), [])
    assert any("62.3 wines in cluster 2: its key raises ZeroDivisionError (integer division "
               "or modulo by zero) for the exercise's own data" in p for p in problems), problems


def test_a_mistake_giving_the_key_on_the_own_data_is_refused(wine, tmp_path):
    """A variant is redrawn until its mistakes are told apart; the exercise's own data are
    taken as they are, so the generator's checks look at them."""
    _edited(wine, 'lambda d: int((d["clusters"] == 1).sum())',
            'lambda d: int((d["clusters"] == 2).sum())')
    problems = authored.check(authored.prepare(wine, tmp_path / "work"), [])
    assert problems == ["62.3 wines in cluster 2: on the exercise's own data the named "
                        "mistake 'cluster 1' gives the key: a student's answer would be "
                        "ambiguous; change the data or the mistake"]


def test_two_data_sets_of_one_name_are_refused(wine, tmp_path):
    """The second ``def wines`` replaced the first, silently, for every question declared
    on it before."""
    _edited(wine, "\nexercise.number(", "\n@exercise.dataset\ndef wines(rng):\n"
            "    return {'cultivar': [1], 'clusters': [1]}\n\n\nexercise.number(")
    with pytest.raises(ValueError, match="dataset: 'wines' is declared twice in 62_wine"):
        pa.load(wine)
