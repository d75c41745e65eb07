"""Every route to a question's answer is on the record of help, and refused before the
solutions are released, whatever a cell names itself: the guard tells the library's own
calls from a student's by the calling code objects, never by ``__name__`` or a file
name. Cells are run here as a kernel runs them (code compiled as ``<ipython-input>``,
globals of ``__main__``), in assignment mode (the policy and channel the grader sets)."""
import json

import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import assignment

ROUTES = {
    "keys": "q.keys()[0]",
    "compute_key": 'getattr(q, "compute_" + "key")()',
    "key": 'globals()["__name__"] = "prayatul_edu.x"\nq.key.__call__()',
    "_once": "q.check(0.5)\nq._once('keys')",
    "mistakes": "q.mistakes()",
    "explain": "from prayatul_edu.steps import Derivation\nq.explain(Derivation('x'))",
    "diagnosable": "q.diagnosable()",
}
#: a file name a cell can give its code: the library's own, or a made-up module's
FORGED = {"a file of the library": "exec(compile('q.keys()', ex._base.__file__, 'exec'))",
          "__wrapped__": "q.key.__wrapped__(q)",
          "a subclass": "class Mine(type(q)):\n    qid = ''\n    def grade(self, a):\n"
                        "        return self._once('keys')\nMine('s1').grade(1)",
          "a thread": "import threading\nt = threading.Thread(target=q.keys)\nt.start()\n"
                      "t.join()"}


@pytest.fixture
def channel(tmp_path, monkeypatch):
    path = tmp_path / "channel.jsonl"
    path.touch()
    monkeypatch.setenv(assignment.POLICY_ENV, "{}")
    monkeypatch.setenv(assignment.CHANNEL_ENV, str(path))
    ex.setup("s1")
    yield path
    ex.setup(None)


def _cell(source: str, qid: str = "03.3"):
    """Run ``source`` as a notebook cell with ``q`` the question; its exception or None."""
    scope = {"__name__": "__main__", "ex": ex, "q": ex.question(qid)}
    try:
        exec(compile(source, "<ipython-input-1-a>", "exec"), scope)
    except Exception as exc:
        return exc
    return None


def _keys(path):
    return [r for r in map(json.loads, path.read_text().splitlines())
            if r.get("event") == "key"]


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_each_route_is_recorded_and_refused(channel, route):
    raised = _cell(ROUTES[route])
    assert isinstance(raised, assignment.NotReleased) and str(raised).startswith(route)
    assert _keys(channel) == [{"event": "key", "qid": "03.3", "seed": "s1", "shown": False,
                               "route": route}]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.parametrize("how", sorted(FORGED))
def test_a_forged_caller_is_still_the_student(channel, how):
    raised = _cell(FORGED[how])
    records = _keys(channel)
    assert len(records) == 1 and records[0]["shown"] is False
    if how != "a thread":   # (a thread's exception stays in the thread)
        assert isinstance(raised, assignment.NotReleased)


def test_the_library_own_calls_are_not_recorded(channel):
    """Checking (which computes the key), the prompt, hints, progress: nothing asked."""
    assert _cell("q.check([0.5, 0.5])\nq.check(...)\nrepr(q)\nq._repr_markdown_()\n"
                 "q.hint()\nex.progress('03')") is None
    assert _cell("q.check([[1] * 5] * 5)\nrepr(q)", qid="03.1") is None
    assert _keys(channel) == []


def test_released_routes_are_shown_and_recorded(channel, monkeypatch):
    monkeypatch.setenv(assignment.POLICY_ENV, '{"released": ["03"]}')
    scope = {"__name__": "__main__", "q": ex.question("03.3")}
    exec(compile("key = q.keys()[0]\nsolution = q.solution()", "<ipython-input-2-b>",
                 "exec"), scope)
    assert ex.question("03.3").grade(list(scope["key"])).status == ex.CORRECT
    assert _keys(channel) == [{"event": "key", "qid": "03.3", "seed": "s1", "shown": True,
                               "route": "keys"}]   # solution(): its own record, not a key


def test_self_study_is_open_and_unrecorded(tmp_path, monkeypatch):
    monkeypatch.delenv(assignment.POLICY_ENV, raising=False)
    monkeypatch.delenv(assignment.CHANNEL_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    ex.setup(None)
    assert _cell("q.keys()[0]\nq.compute_key()\nq.mistakes()") is None
