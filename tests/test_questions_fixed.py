"""Questions fixed at hand-out: ``assign`` records each question (points, tolerance, the
keys of every student's variant, a choice's truths by statement) and ``grade`` refuses a
question changed since, naming it, what changed and for whom; a choice answer is recorded
and re-checked by its statements' text, so a reordered list never reshuffles it."""
import json

import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import authoring as pa
from prayatul_edu.grading import handout

from grading_helpers import package_only

KEY = b"0123456789abcdef-a-course-key-for-questions"
STUDENTS = ["s0001", "s0002", "s0003"]


def _statements(flip=False, reorder=False, edit=False):
    def statements(d):
        st = [("x is below 0.45", bool(d["x"] < 0.45) != flip, "It is.", "below"),
              ("x is above 0.9" + (" (strictly)" if edit else ""), False, "No.", "high"),
              ("x is a number", True, "Yes.", "number"),
              ("x is positive", True, "Yes.", "positive")]
        return st[::-1] if reorder else st
    return statements


@pytest.fixture
def mine():
    with package_only():
        exercise = pa.Exercise("93_fixed", title="fixed")
        data = exercise.dataset(lambda rng: {"x": 0.3 if rng is None
                                             else float(rng.uniform(0.2, 0.4))})
        exercise.number("n", data=data, prompt="x?", key=lambda d: d["x"] * 2 + 0.001)
        exercise.choice("c", data=data, prompt="Which?", statements=_statements())
        yield exercise


def _record(exercise):
    variants = {s: handout.student_variant(KEY, s) for s in STUDENTS}
    return handout.question_record(exercise.name, variants)


def _changed(tmp_path, exercise, record):
    (tmp_path / handout.QUESTIONS_RECORD).write_text(json.dumps(record))
    return handout.questions_changed(tmp_path, exercise.name, KEY)


def test_unchanged_questions_pass(tmp_path, mine):
    assert _changed(tmp_path, mine, _record(mine)) == {}


def test_no_record_is_not_a_change(tmp_path, mine):
    assert handout.questions_changed(tmp_path, mine.name, KEY) is None


@pytest.mark.parametrize("how, what", [
    (dict(flip=True), "a statement's truth"),
    (dict(edit=True), "a statement's text")])
def test_an_edited_statement_is_named_with_every_student_it_changes(tmp_path, mine, how, what):
    record = _record(mine)
    cls = ex.QUESTIONS["93.2"]
    pa._SPECS[cls]["statements"] = _statements(**how)
    assert _changed(tmp_path, mine, record) == {"93.2": {what: STUDENTS}}
    line = handout.describe_changes({"93.2": {what: STUDENTS}})[0]
    assert line == f"93.2: {what} (for s0001, s0002, s0003)"


def test_a_reordered_list_is_no_change_and_keeps_every_answer(tmp_path, mine):
    seed = handout.student_variant(KEY, "s0001")
    q = ex.QUESTIONS["93.2"](seed)
    picked = q.letters_for({"below": True, "above": False, "number": True,
                            "positive": True})
    recorded, shown = q.to_json(picked), q.choices
    assert recorded["statements"] == [q.choices[letter] for letter in sorted(picked)]
    record = _record(mine)
    pa._SPECS[type(q)]["statements"] = _statements(reorder=True)
    assert _changed(tmp_path, mine, record) == {}
    again = ex.QUESTIONS["93.2"](seed)
    assert again.choices != shown                           # the letters moved...
    assert again.grade(recorded).status == ex.CORRECT       # ...the answer did not
    assert again.grade(recorded["letters"]).status != ex.CORRECT   # (by letter: it would)


def test_points_tolerance_and_keys_are_named(tmp_path, mine):
    record = _record(mine)
    cls = ex.QUESTIONS["93.1"]
    cls.points = 2.0
    pa._SPECS[cls]["rtol"] = 0.01
    pa._SPECS[cls]["key"] = lambda d: d["x"] * 2 + 0.002
    changed = _changed(tmp_path, mine, record)
    assert changed == {"93.1": {"points 1 -> 2": [], "tolerance": [], "its key": STUDENTS}}


def test_a_question_added_or_removed_is_named(tmp_path, mine):
    record = _record(mine)
    record["questions"]["93.9"] = record["questions"].pop("93.2")
    assert _changed(tmp_path, mine, record) == {"93.2": {"added since hand-out": []},
                                                "93.9": {"removed since hand-out": []}}


def test_a_broken_record_is_refused_naming_the_file(tmp_path, mine):
    (tmp_path / handout.QUESTIONS_RECORD).write_text("[1, 2]")
    with pytest.raises(ValueError, match="questions: .*questions.json is not what assign"):
        handout.questions_changed(tmp_path, mine.name, KEY)


def test_a_course_exercise_records_every_question_for_every_student():
    record = handout.question_record("01_matching", {"a": "a", "b": "b"})
    assert sorted(record["questions"]) == sorted(ex.topic_questions("01"))
    q8 = record["questions"]["01.8"]
    assert q8["kind"] == "choice" and set(q8["students"]) == {"a", "b"}
    truths = list(q8["students"]["a"]["statements"].values())
    assert truths.count(True) >= 2 and False in truths
    assert np.isclose(q8["tolerance"][0], ex.ATOL)


@pytest.mark.parametrize("forged", [{"statements": "AB"}, {"statements": [1, 2]},
                                    {"statements": ["x"] * 101}, {"statements": ["nope"]}])
def test_a_forged_statements_record_is_an_invalid_answer(forged):
    q = ex.question("01.8", seed="s1")
    assert q.grade(forged).status == ex.INVALID
