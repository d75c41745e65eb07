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
          "the class's method": "type(q).keys(q)",
          "a subclass": "class Mine(type(q)):\n    qid = ''\n    def grade(self, a):\n"
                        "        return self._once('keys')\nMine('s1').grade(1)",
          "a thread": "import threading\nt = threading.Thread(target=q.keys)\nt.start()\n"
                      "t.join()",
          # the seal is made once, at import: a cell cannot add its own code to it
          "a second seal": "import sys\nfrom prayatul_edu.exercises import assignment as a\n"
                           "a.seal([sys.modules['__main__']])\n"
                           "def mine():\n    return q.keys()\na.seal([type('M', (), "
                           "{'mine': staticmethod(mine)})])\nmine()"}


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
    assert ": correct" in ex.question("03.3").check(list(scope["key"])).text
    assert _keys(channel) == [{"event": "key", "qid": "03.3", "seed": "s1", "shown": True,
                               "route": "keys"}]   # solution(): its own record, not a key


def test_self_study_is_open_and_unrecorded(tmp_path, monkeypatch):
    monkeypatch.delenv(assignment.POLICY_ENV, raising=False)
    monkeypatch.delenv(assignment.CHANNEL_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    ex.setup(None)
    assert _cell("q.keys()[0]\nq.compute_key()\nq.mistakes()") is None


def test_every_class_of_a_sealed_module_is_the_librarys_whatever_imports_it_first():
    """A class imported by a module sealed before its own (``authoring`` imports the kinds
    and is sealed before ``kinds``) is still sealed with its own module: every function of
    every class of the exercises' modules is the library's code (a route, its guard, or
    own). Before, ``ChoiceQuestion.acceptable`` was not, and its own call of
    ``compute_key`` (judging a variant fair) was refused as a student's."""
    import inspect

    from prayatul_edu.exercises import authoring, kinds

    assert authoring.ChoiceQuestion is kinds.ChoiceQuestion   # imported: the case in hand
    missing = []
    for module in (ex._base, ex._data, kinds, authoring, ex.hierarchy, ex.choosing_k):
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and cls.__module__ == module.__name__):
                continue
            for name, value in vars(cls).items():
                value = getattr(value, "__func__", getattr(value, "fget", value))
                code = getattr(value, "__code__", None)
                if code is not None and code not in assignment._OWN | assignment._ROUTES:
                    missing.append(f"{cls.__qualname__}.{name}")
    assert missing == []
    assert kinds.ChoiceQuestion.acceptable.__code__ in assignment._OWN


def test_an_instructors_questions_answered_honestly_ask_for_nothing(channel):
    """An authored exercise in assignment mode: a free-text question (on the data set
    ``none`` that course questions share, a choice among them) and a choice are opened,
    shown and checked from a cell without a record of help; the cell's own ``keys()`` and
    ``_once`` of the same questions stay recorded and refused."""
    from grading_helpers import package_only

    from prayatul_edu.exercises import authoring as pa

    with package_only():
        mine = pa.Exercise("96_routes", title="routes")
        data = mine.dataset(lambda rng: {"x": 0.5 if rng is None else float(rng.uniform(0.2,
                                                                                         0.4))})
        mine.choice("pick", data=data, prompt="Which?", statements=lambda d: [
            ("x is below 0.45", d["x"] < 0.45, "It is.", "below"),
            ("x is above 0.9", False, "No.", "high"), ("x is a number", True, "Yes.", "num")])
        mine.free_text("words", prompt="Say why.", points=2)
        scope = {"__name__": "__main__", "mine": mine}
        exec(compile("t = mine.question('96.2')\nrepr(t)\nhand = t.check('Because.')\n"
                     "c = mine.question('96.1')\nrepr(c)\n"
                     "letters = c.letters_for({'below': c.x < 0.45, 'above': False, "
                     "'number': True})\nright = c.check(letters)",
                     "<ipython-input-3-c>", "exec"), scope)
        assert "to be graded by hand" in scope["hand"].text
        assert ": correct (1/1)" in scope["right"].text
        assert _keys(channel) == []
        for source, route in (("c.keys()", "keys"), ("t._once('mistakes')", "_once")):
            scope_ = dict(scope)
            try:
                exec(compile(source, "<ipython-input-4-d>", "exec"), scope_)
                raised = None
            except Exception as exc:
                raised = exc
            assert isinstance(raised, assignment.NotReleased) and str(raised).startswith(route)
        assert [(r["qid"], r["route"], r["shown"]) for r in _keys(channel)] == [
            ("96.1", "keys", False), ("96.2", "_once", False)]
