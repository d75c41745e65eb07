"""Sealed against writes too: a cell that changes a question so that the library's checking
runs the cell's code (a method set on the object or its class, a subclass, data of the
cell's own objects) is handed nothing. The checking hands the key to ``matches``,
``compare``, ``_behaves_like`` and the data to an instructor's functions; a changed
question's ``check``, ``prompt``, ``solution`` or ``choices`` is a sealed route: on the
record, naming what was changed, and refused before release. Self-study stays open."""
import json
from pathlib import Path

import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import assignment, authoring as pa
from prayatul_edu.exercises.coursekey import variant_token

from grading_helpers import package_only

ROOT = Path(__file__).resolve().parents[1]
STUDENT = "s0001"
SEED = variant_token(bytes(range(32)), STUDENT)


@pytest.fixture
def handed_out(tmp_path, monkeypatch):
    """Assignment mode as a handed-out notebook sets it; the grader's channel."""
    channel = tmp_path / "channel.jsonl"
    channel.touch()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(assignment.POLICY_ENV, "{}")
    monkeypatch.setenv(assignment.VARIANT_ENV, SEED)
    monkeypatch.setenv(assignment.CHANNEL_ENV, str(channel))
    ex.setup(STUDENT)
    yield lambda: [json.loads(line) for line in channel.read_text().splitlines()]
    monkeypatch.delenv(assignment.POLICY_ENV, raising=False)
    monkeypatch.delenv(assignment.CHANNEL_ENV, raising=False)
    monkeypatch.delenv(assignment.VARIANT_ENV, raising=False)
    ex.setup(None)


def _refused(records, qid, what):
    """The records of the changed question's checking: refused, naming ``what``."""
    keys = [r for r in records() if r.get("event") == "key"]
    assert keys, "the changed question's checking left no record"
    assert all(r["qid"] == qid and r["shown"] is False for r in keys), keys
    assert any(r["route"].startswith("changed question") and what in r["route"]
               for r in keys), keys


def _spy(box):
    def matches(*args):
        box.append(args)
        return False
    return matches


@pytest.mark.parametrize("how", ["attribute", "__dict__", "object.__setattr__"])
def test_a_method_set_on_the_question_is_handed_no_key(handed_out, how):
    box = []
    q = ex.question("01.3")
    spy = _spy(box)
    {"attribute": lambda: setattr(q, "matches", spy),
     "__dict__": lambda: q.__dict__.__setitem__("matches", spy),
     "object.__setattr__": lambda: object.__setattr__(q, "matches", spy)}[how]()
    with pytest.raises(assignment.NotReleased):
        q.check(0.5)
    assert box == []          # the key was never handed to the cell's function
    _refused(handed_out, "01.3", "q.matches")


def test_a_method_replaced_on_the_class_is_handed_no_key(handed_out):
    box = []
    cls = type(ex.question("01.3"))
    cls.matches = _spy(box)
    try:
        with pytest.raises(assignment.NotReleased):
            ex.question("01.3").check(0.5)
    finally:
        del cls.matches
    assert box == []
    _refused(handed_out, "01.3", "its class")
    # put back as it was, the class checks again
    assert "01.3" in ex.question("01.3").check(0.5).text


def test_a_subclass_overriding_what_the_checking_calls_is_handed_no_key(handed_out):
    box = []
    base = type(ex.question("01.3"))

    class Mine(base):
        qid = ""           # not registered: no 'defined twice'
        matches = _spy(box)

    with pytest.raises(assignment.NotReleased):
        Mine(SEED).check(0.5)
    assert box == []
    _refused(handed_out, "01.3", "a cell's class")    # judged as the question it is


def test_a_subclass_with_no_qid_is_recorded_as_its_question(handed_out):
    """``qid = ""`` made the record of a subclass's shown key name no question: the
    grader never saw it (a key read unrecorded)."""
    base = type(ex.question("01.3"))

    class Mine(base):
        qid = ""

    Mine(None, data=ex.question("01.3").data).keys()   # seed None: shown, and recorded
    keys = [r for r in handed_out() if r.get("event") == "key"]
    assert [(r["qid"], r["shown"]) for r in keys] == [("01.3", True)]


def test_a_mixin_of_the_cells_own_is_handed_no_key(handed_out):
    box = []

    class Spy:
        matches = _spy(box)

    Mine = type("Mine", (Spy, type(ex.question("01.3"))), {"qid": ""})
    with pytest.raises(assignment.NotReleased):
        Mine(SEED).check(0.5)
    assert box == []


def _tracer(box):
    class Tracer(np.ndarray):
        def __array_ufunc__(self, ufunc, method, *inputs, **kw):
            args = [np.asarray(i) if isinstance(i, Tracer) else i for i in inputs]
            out = getattr(ufunc, method)(*args, **kw)
            box.append(out)
            return out.view(Tracer) if isinstance(out, np.ndarray) else out
    return Tracer


@pytest.mark.parametrize("how", ["replaced", "built on"])
def test_data_of_the_cells_own_objects_see_no_key(handed_out, how):
    """An array of the cell's class in the data watches every step of the key's
    computation (``__array_ufunc__``): the checking is refused before it starts."""
    box = []
    q = ex.question("01.3")
    traced = {k: v.view(_tracer(box)) if isinstance(v, np.ndarray) else v
              for k, v in q.data.items()}
    if how == "replaced":
        q.data = traced
    else:
        q = type(q)(q.seed, data=traced)
    with pytest.raises(assignment.NotReleased):
        q.check(0.5)
    assert box == []
    _refused(handed_out, "01.3", "its data")


def test_a_question_of_seed_none_on_the_variants_data_is_not_checked(handed_out):
    q = ex.question("01.3")
    course = type(q)(None, data=q.data)
    with pytest.raises(assignment.NotReleased):
        course.check(0.5)
    _refused(handed_out, "01.3", "its data")


def test_a_choice_question_changed_shows_no_truth(handed_out):
    box = []
    q = ex.question("01.8")
    q.matches = _spy(box)
    with pytest.raises(assignment.NotReleased):
        q.check("A")
    with pytest.raises(assignment.NotReleased):
        q.choices
    assert box == []
    _refused(handed_out, "01.8", "q.matches")


def test_a_function_questions_reference_outputs_stay_hidden(handed_out):
    """01.11's checking hands the reference's outputs (on the variant's data: another
    question's answer) to ``_behaves_like``."""
    box = []
    q = ex.question("01.11")
    q._behaves_like = lambda *args: box.append(args)
    with pytest.raises(assignment.NotReleased):
        q.check(lambda truth, pred: 0.5)
    assert box == []
    _refused(handed_out, "01.11", "_behaves_like")


def test_an_instructors_function_is_never_run_on_a_cells_objects(handed_out):
    """The iris example's prompt and cases are the instructor's functions of the data: a
    data dict of the cell's class would see them called (and reach them from its frame)."""
    seen = []

    class Watch(dict):
        def __getitem__(self, name):
            import sys
            seen.append(sys._getframe(1).f_code)
            return super().__getitem__(name)

    with package_only():
        exercise = pa.load(ROOT / "examples" / "iris_exercise")
        for qid in exercise.qids:
            q = ex.question(qid)
            q.data = Watch(q.data)
            for call in (q.prompt, lambda: q.check(0.5)):
                with pytest.raises(assignment.NotReleased):
                    call()
    assert seen == []


def test_an_unchanged_question_checks_as_before(handed_out):
    """The seal of writes costs an honest student nothing: the right answer is correct,
    the prompt and the choices are shown, and nothing is on the record but the checks."""
    twin_key = {qid: ex.QUESTIONS[qid](SEED) for qid in ("01.3", "01.8")}
    secret = {}
    import os
    policy = os.environ.pop(assignment.POLICY_ENV)
    try:
        secret = {qid: q.keys()[0] for qid, q in twin_key.items()}
    finally:
        os.environ[assignment.POLICY_ENV] = policy
    q3, q8 = ex.question("01.3"), ex.question("01.8")
    q3.note = "mine"                      # a name of the student's own changes nothing
    assert ": correct" in q3.check(secret["01.3"]).text
    assert ": correct" in q8.check("".join(sorted(secret["01.8"]))).text
    assert len(q8.choices) >= 3 and "Question 01.8" in q8.prompt().text
    assert [r for r in handed_out() if r.get("event") == "key"] == []


def test_self_study_is_open_to_changes():
    q = ex.question("01.3", seed=None)
    box = []
    q.matches = _spy(box)
    assert ": correct" not in q.check(0.5).text
    assert box and len(box[0]) == 2       # without an assignment, nothing is sealed


def test_the_memo_beside_the_question_is_not_reached_through_its_weak_references(handed_out):
    """The memo was a WeakKeyDictionary: its weak reference to the question carries a
    callback whose default is a reference to the memo itself, so
    ``weakref.getweakrefs(q8)[0].__callback__.__defaults__[0]()[q8]["options"]`` gave
    01.8's statements with their truths once the prompt had listed them, unrecorded."""
    import weakref

    q = ex.question("01.8")
    assert len(q.choices) >= 3            # what showing the prompt does
    q.check("A")
    found = []
    for ref in weakref.getweakrefs(q):
        callback = ref.__callback__
        near = [callback, getattr(callback, "__self__", None),
                *(getattr(callback, "__defaults__", None) or ()),
                *(c.cell_contents for c in getattr(callback, "__closure__", None) or ())]
        for obj in near:
            obj = obj() if isinstance(obj, weakref.ref) else obj
            try:
                memo = obj[q]
            except Exception:
                continue
            found.append(sorted(memo))
    assert found == []


def test_a_question_given_a_class_of_the_cells_own_is_handed_no_key(handed_out):
    box = []
    q = ex.question("01.3")

    class Mine(type(q)):
        qid = ""
        matches = _spy(box)

    q.__class__ = Mine
    with pytest.raises(assignment.NotReleased):
        q.check(0.5)
    assert box == []
    _refused(handed_out, "01.3", "a cell's class")


def test_an_instructors_declaration_is_not_one_module_call_away(handed_out):
    """``authoring._spec_of(type(q))["key"](q.data)`` answered every question of the
    iris example, unrecorded; from a cell it is a sealed route now."""
    with package_only():
        exercise = pa.load(ROOT / "examples" / "iris_exercise")
        q = ex.question(exercise.qids[0])
        with pytest.raises(assignment.NotReleased):
            pa._spec_of(type(q))
        assert pa.tolerance(type(q)) == [ex.ATOL, ex.RTOL] or len(pa.tolerance(type(q))) == 2
    keys = [r for r in handed_out() if r.get("event") == "key"]
    assert [(r["qid"], r["route"], r["shown"]) for r in keys] == [
        (exercise.qids[0], "_spec_of", False)]
