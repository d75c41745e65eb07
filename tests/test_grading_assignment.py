"""Assignment mode: answers are not one call away, and every call is on the record."""
import json
from dataclasses import asdict

import pytest

import prayatul_edu.exercises as ex
from grading_helpers import POINTS, QIDS, TOTAL, answers, notebook, rows
from prayatul_edu import grading
from prayatul_edu.exercises import assignment
from prayatul_edu.exercises.assignment import CHANNEL_ENV, POLICY_ENV, Policy

SANDBOX = "bwrap" if grading.sandbox_problem("bwrap") is None else "none"


@pytest.fixture
def channel(tmp_path, monkeypatch):
    path = tmp_path / "answers.jsonl"
    monkeypatch.setenv(CHANNEL_ENV, str(path))
    monkeypatch.setenv(POLICY_ENV, Policy(attempts_per_hint=1).to_json())
    monkeypatch.setattr(assignment, "_ATTEMPTS", {})
    yield lambda: [json.loads(x) for x in path.read_text().splitlines()]


def test_a_variant_gets_no_solution_or_key_before_release(channel):
    q = ex.question("03.2", seed="s1")
    assert "not available yet: your instructor has not released" in q.solution().text
    with pytest.raises(assignment.NotReleased, match="^key: the answer of 03.2 for variant s1"):
        q.key()
    assert q.check([50, 50, 50, 50]).text.startswith("03.2 f00, f01, f10, f11: incorrect")
    assert ": correct" in q.check(answers("s1")["03.2"]).text   # the library's own calls
    with pytest.raises(assignment.NotReleased, match="^grade: "):   # a silent check: sealed
        q.grade(answers("s1")["03.2"])
    events = [(e["event"], e["shown"], e["route"]) for e in channel() if "event" in e]
    assert events == [("solution", False, "solution"), ("key", False, "key"),
                      ("key", False, "grade")]


def test_hints_open_with_attempts(channel):
    q = ex.question("03.3", seed="s2")
    assert "hint 1 opens after 1 checked attempt of this question (you have made 0)" in \
        q.hint().text
    q.check([0.5, 0.5])
    assert q.hint().text.startswith("Hint 1.")
    assert "hint 2 opens after 2 checked attempts" in q.hint().text
    q.check([0.5, 0.25])
    assert q.hint().text.startswith("Hint 2.")
    shown = [(e["n"], e["shown"]) for e in channel() if e.get("event") == "hint"]
    assert shown == [(1, False), (1, True), (2, False), (2, True)]


def test_self_study_keeps_everything_open(channel):
    q = ex.question("03.2", seed=None)
    assert q.solution().text.startswith("Solution of Question 03.2")
    assert list(q.key()) == [8, 0, 0, 2] and q.hint().text.startswith("Hint 1.")


def test_released_solutions(channel, monkeypatch):
    monkeypatch.setenv(POLICY_ENV, json.dumps({"released": ["03.2"]}))
    assert ex.question("03.2", seed="s1").solution().text.startswith("Solution of")
    assert "not available" in ex.question("03.3", seed="s1").solution().text


def test_without_an_assignment_nothing_is_gated_or_recorded(tmp_path, monkeypatch):
    monkeypatch.delenv(POLICY_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert assignment.policy() is assignment.OPEN
    (tmp_path / assignment.COURSE_FILE).write_text('{"released": false}')
    assert assignment.policy() == Policy(released=False)
    (tmp_path / assignment.COURSE_FILE).write_text('{"released": "yes"}')
    assert assignment.policy() == Policy()          # a broken file opens nothing


@pytest.mark.parametrize("data, error, message", [
    ({"released": "yes"}, TypeError, "released: expected true, false or a list"),
    ({"attempts_per_hint": -1}, ValueError, "attempts_per_hint: expected a whole number"),
    ({"solutions": True}, ValueError, "policy: unknown setting"),
])
def test_bad_policy(data, error, message):
    with pytest.raises(error, match=message):
        Policy.from_json(json.dumps(data))


@pytest.mark.parametrize("rule, points, note", [
    ("zero", 0.0, "was shown in the graded run: 0 points (the instructor's policy)"),
    ("flag", 1.0, "was shown in the graded run."),
])
def test_a_solution_shown_in_the_graded_run(tmp_path, rule, points, note):
    nb = notebook("s5", answers("s5"), after={"q03-1-prompt": "q1.solution()"})
    path = tmp_path / "s5.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    opts = grading.Options(exercise="03_pair_counting", sandbox=SANDBOX, solution_shown=rule,
                           policy=Policy(released=True).to_json())
    r = grading.StudentReport.from_dict(
        grading.grade_isolated(path.name, path.read_bytes(), asdict(opts)))
    assert rows(r)[0] == ("03.1", points, ex.CORRECT)
    assert r.total == TOTAL - POINTS["03.1"] + points
    assert r.rows[0]["feedback"].endswith(note) or r.rows[0]["feedback"].endswith(note + ".")
    assert r.calls["03.1"] == {"solution": 1, "solution_shown": 1, "check": 1}
    assert all(r.calls[q] == {"check": 1} for q in QIDS[1:])
