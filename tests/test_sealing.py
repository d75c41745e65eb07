"""Sealed by construction: in assignment mode, nothing a student's code reaches from a
question object yields its key, a statement's truth or an instructor's function, except
through the one sealed accessor, which records the call and refuses it before release.

The test does not list the routes: it walks everything reachable from each question
object as a handed-out notebook has it (every built-in question, the shipped iris
example, and a freshly authored question of every kind): the attributes of the instance
and of its class and bases, public and private (``dir``), containers, functions and bound
methods with their ``__wrapped__``, ``__closure__`` cells, ``__func__``, ``__self__``,
``__defaults__``, properties, and whatever a call without arguments returns, to a bounded
depth. It does not follow a function's ``__globals__`` or a module (module internals are
not promised: see docs/instructor_guide.md), nor ``object``, the root of every class."""
import inspect
import json
import types
from pathlib import Path

import numpy as np
import pytest

import prayatul_edu.exercises as ex
from prayatul_edu.exercises import assignment, authoring as pa
from prayatul_edu.exercises.coursekey import variant_token

from grading_helpers import package_only

ROOT = Path(__file__).resolve().parents[1]
COURSE_KEY = bytes(range(32))
STUDENT = "s0001"
DEPTH = 6
_LEAVES = (str, bytes, int, float, complex, bool, type(None), np.ndarray, np.generic,
           types.ModuleType, types.CodeType, range, type(Ellipsis))


def _secrets(q) -> dict:
    """What must not be reachable from ``q``: computed outside assignment mode, on a
    question object of its own (never the one walked)."""
    twin = type(q)(q.seed)
    keys = twin.keys()
    out = {"keys": keys, "truths": [], "texts": set(), "functions": []}
    if q.kind == "choice":
        options = twin.options()
        out["truths"] = [[t for _, _, t, _ in options], [t for _, t, _ in twin.statements()]]
        out["texts"] = {text for _, text, _, _ in options}
    spec = pa._spec_of(type(q))
    for value in spec.values():
        for f in (value if isinstance(value, list) else [value]):
            f = getattr(f, "compute", f)
            if callable(f):
                out["functions"].append(f)
    return out


def _numbers(value) -> np.ndarray | None:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return arr if arr.dtype == float and arr.size else None


def _yields(value, secret) -> str | None:
    """What of the secret ``value`` is (None: nothing)."""
    if any(value is f for f in secret["functions"]):
        return "an instructor's function"
    if isinstance(value, (types.FunctionType, types.MethodType)) and any(
            getattr(value, "__code__", None) is f.__code__ for f in secret["functions"]
            if hasattr(f, "__code__")):
        return "an instructor's function"
    if secret["truths"]:
        if isinstance(value, (list, tuple)) and len(value) >= 2 and all(
                isinstance(v, (bool, np.bool_)) for v in value) and any(
                list(map(bool, value)) == t for t in secret["truths"]):
            return "the statements' truths"
        if isinstance(value, (list, tuple)) and any(isinstance(v, (bool, np.bool_))
                                                    for v in value) and any(
                isinstance(v, str) and v in secret["texts"] for v in value):
            return "a statement with its truth"
        if isinstance(value, dict) and value and all(isinstance(v, (bool, np.bool_))
                                                     for v in value.values()):
            return "statements judged"
    for key in secret["keys"]:
        if isinstance(key, frozenset):
            if isinstance(value, (set, frozenset)) and value == key:
                return "the key's letters"
            if len(key) >= 2 and isinstance(value, str) and sorted(value) == sorted(key):
                return "the key's letters"
            continue
        want = None if key is None else _numbers(key)
        if want is None or isinstance(value, (bool, str)):
            continue
        got = _numbers(value) if isinstance(value, (list, tuple, np.ndarray, float,
                                                    np.floating)) else None
        if got is None:
            continue
        if want.size >= 2 and got.shape == want.shape and np.allclose(got, want, atol=1e-12):
            return "the key"
        fractional = [k for k in want.ravel() if np.isfinite(k) and abs(k - round(k)) > 1e-9]
        if got.size == 1 and any(abs(float(got.ravel()[0]) - k) < 1e-12 for k in fractional):
            return "a number of the key"
    return None


def _zero_arg(obj) -> bool:
    """Whether to call ``obj`` without arguments: Python code (functions, methods, the
    library's classes) or a method of the question or its class implemented in C
    (``__reduce__``, ``__subclasses__``...); never a container's mutator."""
    if isinstance(obj, type):
        return _ours(obj)
    if isinstance(obj, types.BuiltinMethodType):
        owner = getattr(obj, "__self__", None)
        return isinstance(owner, ex.Question) or (isinstance(owner, type)
                                                  and issubclass(owner, ex.Question))
    if not isinstance(obj, (types.FunctionType, types.MethodType)):
        return False
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in sig.parameters.values())


def _ours(cls) -> bool:
    """A class of the library, or an instructor's question class."""
    return isinstance(cls, type) and (cls.__module__.startswith("prayatul_edu")
                                      or issubclass(cls, ex.Question))


#: What :func:`_children` yields for an attribute whose reading was refused (a sealed
#: property, such as 04.1-04.3's ``parts``, which follow the variant's number of points).
REFUSED = object()


def _children(obj):
    if isinstance(obj, dict):
        for k, v in list(obj.items()):
            yield f"[{k!r}]", k
            yield f"[{k!r}]", v
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        for i, v in enumerate(list(obj)):
            yield f"[{i}]", v
        return
    if isinstance(obj, types.CellType):
        try:
            yield ".cell_contents", obj.cell_contents
        except ValueError:
            pass
        return
    if isinstance(obj, (types.FunctionType,)):
        for name in ("__wrapped__", "__closure__", "__defaults__", "__kwdefaults__",
                     "__dict__"):
            if hasattr(obj, name):
                yield f".{name}", getattr(obj, name)
        return
    if isinstance(obj, types.MethodType):
        yield ".__func__", obj.__func__
        yield ".__self__", obj.__self__
        return
    if isinstance(obj, (staticmethod, classmethod)):
        yield ".__func__", obj.__func__
        return
    if isinstance(obj, property):
        for name in ("fget", "fset", "fdel"):
            yield f".{name}", getattr(obj, name)
        return
    if isinstance(obj, type):
        yield ".__dict__", dict(vars(obj))
    elif not _ours(type(obj)):
        return      # C methods, descriptors, objects of other libraries: nothing of ours
    for name in dir(obj):
        if name in ("__globals__", "__builtins__"):
            continue
        try:
            value = getattr(obj, name)
        except assignment.NotReleased:   # a sealed property refused: counted by walk()
            value = REFUSED
        except Exception:
            continue
        yield f".{name}", value


def walk(q, secret, finds=None):
    """Every object reachable from ``q``: (what it yields, the path) for each secret
    found, and the number of calls the sealed accessor refused. ``finds(obj, secret)``
    says what an object yields (by default :func:`_yields`)."""
    finds = finds or _yields
    found, refused, seen, keep = [], [0], set(), []
    stack = [(q, 0, "q")]
    while stack:
        obj, depth, path = stack.pop()
        if id(obj) in seen or obj is object or obj is type or depth > DEPTH:
            continue
        seen.add(id(obj))
        keep.append(obj)
        what = finds(obj, secret)
        if what:
            found.append((what, path))
        if isinstance(obj, _LEAVES) or (isinstance(obj, type) and not _ours(obj)):
            continue
        if _zero_arg(obj):
            try:
                stack.append((obj(), depth + 1, f"{path}()"))
            except assignment.NotReleased:
                refused[0] += 1
            except Exception:
                pass
        for name, child in _children(obj):
            if child is REFUSED:
                refused[0] += 1
                continue
            stack.append((child, depth + 1, path + name))
    return found, refused[0]


@pytest.fixture
def handed_out(tmp_path, monkeypatch):
    """Assignment mode as a handed-out notebook sets it: the policy, the student's
    variant under a course key, ``setup(STUDENT_ID)``; the grader's channel."""
    channel = tmp_path / "channel.jsonl"
    channel.touch()
    monkeypatch.chdir(tmp_path)

    def turn_on():
        monkeypatch.setenv(assignment.POLICY_ENV, "{}")
        monkeypatch.setenv(assignment.VARIANT_ENV, variant_token(COURSE_KEY, STUDENT))
        monkeypatch.setenv(assignment.CHANNEL_ENV, str(channel))
        ex.setup(STUDENT)

    yield turn_on, channel
    monkeypatch.delenv(assignment.POLICY_ENV, raising=False)
    monkeypatch.delenv(assignment.CHANNEL_ENV, raising=False)
    monkeypatch.delenv(assignment.VARIANT_ENV, raising=False)
    ex.setup(None)


def _records(channel: Path) -> list[dict]:
    return [json.loads(line) for line in channel.read_text().splitlines()]


def _prove_sealed(qids, handed_out, question=ex.question):
    turn_on, channel = handed_out
    seed = variant_token(COURSE_KEY, STUDENT)
    secrets = {qid: _secrets(ex.QUESTIONS[qid](seed)) for qid in qids}   # not in assignment
    turn_on()
    leaks, refusals = [], 0
    for qid in qids:
        before = len(_records(channel))
        q = question(qid)
        assert q.seed == seed
        found, refused = walk(q, secrets[qid])
        leaks += [(qid, what, path) for what, path in found]
        new = [r for r in _records(channel)[before:] if r.get("event") == "key"]
        # every refusal is on the record, naming its route; nothing was shown
        assert len(new) == refused and all(r["shown"] is False and r["route"] for r in new)
        refusals += refused
    assert leaks == []
    return refusals


def test_no_builtin_question_yields_its_key_or_truths_but_through_the_record(handed_out):
    assert _prove_sealed(sorted(ex.QUESTIONS, key=lambda q: (q.split(".")[0],
                                                             int(q.split(".")[1]))),
                         handed_out) > 100


def test_the_iris_example_yields_no_instructors_function(handed_out):
    with package_only():
        exercise = pa.load(ROOT / "examples" / "iris_exercise")
        assert _prove_sealed(exercise.qids, handed_out) > 10


def test_a_fresh_question_of_every_kind_is_sealed_without_being_listed(handed_out):
    """An instructor's exercise declared now, one question of each kind (the kinds are
    not named to the seal: deriving from Question seals them)."""
    with package_only():
        mine = pa.Exercise("97_sealed", title="sealed")
        data = mine.dataset(lambda rng: {"x": 0.3 if rng is None
                                         else float(rng.uniform(0.2, 0.4)),
                                         "m": np.array([[1.0, 2.0], [3.0, 4.5]])})
        mine.number("n", data=data, prompt="x?", key=lambda d: d["x"] * 1.5 + 0.01,
                    mistakes=[pa.mistake("half", lambda d: d["x"] * 0.75, "Half.")])
        mine.numbers("v", data=data, parts=["a", "b"], prompt="a, b?",
                     key=lambda d: [d["x"] + 0.123, d["x"] / 7])
        mine.table("t", data=data, prompt="m + x?", key=lambda d: d["m"] + d["x"])
        mine.integer("i", data=data, prompt="round(10 x)?", key=lambda d: round(10 * d["x"]))
        mine.choice("c", data=data, prompt="Which?", explain="Because.",
                    statements=lambda d: [("x is below 0.45", d["x"] < 0.45, "It is."),
                                          ("x is above 0.9", False, "No."),
                                          ("x is a number", True, "Yes.")])
        mine.free_text("w", data=data, prompt="Why?", explain="The model answer.")
        assert _prove_sealed(mine.qids, handed_out) > 10
        for qid in mine.qids:     # the kinds' classes were never named to the seal
            assert all(c in assignment._SEALED_CLASSES for c in ex.QUESTIONS[qid].__mro__[:-1])


def test_a_sealed_method_holds_no_original(handed_out):
    """The accessor in front of each method holds a number and a name, never the
    function: no ``__wrapped__``, nothing callable in its closure."""
    q = ex.question("01.8", seed="x")
    for name in ("keys", "options", "statements", "compute_key", "grade", "_once"):
        f = getattr(type(q), name)
        assert not hasattr(f, "__wrapped__")
        assert not any(callable(c.cell_contents) and not isinstance(c.cell_contents, type)
                       for c in f.__closure__ or ())


def test_self_study_still_says_correct_and_incorrect():
    q = ex.question("01.8", seed=None)
    letters = "".join(sorted(q.compute_key()))
    assert ": correct" in q.check(letters).text
    wrong = "".join(sorted(set("ABCDE"[:len(q.choices)]) - set(letters)))
    assert ": correct" not in q.check(wrong).text


@pytest.mark.parametrize("plant", ["truths", "statement", "letters", "key", "function"])
def test_the_walk_finds_what_is_planted(handed_out, plant):
    """The walk is no formality: a secret left in an instance attribute, a container, a
    closure or a class attribute is found."""
    seed = variant_token(COURSE_KEY, STUDENT)
    with package_only():
        mine = pa.Exercise("98_planted", title="planted")
        data = mine.dataset(lambda rng: {"x": 0.3 if rng is None else float(rng.uniform(0.2,
                                                                                        0.4))})
        mine.number("n", data=data, prompt="x?", key=lambda d: d["x"] * 1.5 + 0.01)
        mine.choice("c", data=data, prompt="Which?", statements=lambda d: [
            ("x is below 0.45", True, "It is."), ("x is above 0.9", False, "No."),
            ("x is a number", True, "Yes.")])
        qid = "98.2" if plant != "key" and plant != "function" else "98.1"
        secret = _secrets(ex.QUESTIONS[qid](seed))
        twin = ex.QUESTIONS[qid](seed)
        planted = {"truths": lambda: {"notes": [secret["truths"][0]]},
                   "statement": lambda: {"deep": {"x": [tuple(twin.options()[0])]}},
                   "letters": lambda: {"cached": "".join(sorted(secret["keys"][0]))},
                   "key": lambda: {"k": (lambda v=secret["keys"][0]: v)},
                   "function": lambda: {"f": secret["functions"][0]}}[plant]()
        turn_on, _ = handed_out
        turn_on()
        q = ex.question(qid)
        q.__dict__.update(planted)
        found, _ = walk(q, secret)
        assert found, plant


def _groups_in(value, secret) -> bool:
    """Whether ``value`` gives the points' groups: a labelling of the points that is the
    groups' partition (whatever its names) other than one of the question's public cuts
    (the cut into the groups' number is one of them: which one is the key), or a text
    with their labels written out."""
    groups = secret["groups"]
    if isinstance(value, str):
        forms = {sep.join(map(str, groups.tolist())) for sep in (" ", ", ", "")}
        return any(form in value for form in forms | {str(groups)})
    if id(value) in secret["public"] or not isinstance(value, (list, tuple, np.ndarray)):
        return False
    try:
        labels = np.asarray(value)
    except (TypeError, ValueError):
        return False
    if labels.shape != groups.shape or labels.dtype.kind not in "iuf":
        return False
    same = labels[:, None] == labels[None, :]
    return bool(np.array_equal(same, groups[:, None] == groups[None, :]))


def _walk_for_groups(q, groups):
    """The paths from ``q`` to the groups' labels (the sealed accessor's calls refused)."""
    secret = {"keys": [], "truths": [], "texts": set(), "functions": [], "groups": groups,
              "public": {id(c) for c in q.data["candidates"].values()}}
    found, _ = walk(q, secret, finds=_groups_in)
    return [path for _, path in found]


@pytest.mark.parametrize("plant", [None, "renamed", "text"])
def test_no_route_gives_the_groups_of_09_4_and_09_5(handed_out, plant):
    """09.4's key is the number of groups the points were drawn in, and with the cuts the
    groups decide 09.5's merge and split statements: a student finds them by plotting
    ``q.X``, never by reading them. Nothing reachable from the question (its attributes,
    its data dict, its repr and prompt, whatever a call without arguments returns) gives
    their labels; the library's own accessor is sealed (its call is on the record). The
    walk finds them where they are planted (renamed, or written out in a text)."""
    seed = variant_token(COURSE_KEY, STUDENT)
    groups = {qid: np.asarray(ex.QUESTIONS[qid](seed)._groups()) for qid in ("09.4", "09.5")}
    turn_on, channel = handed_out
    turn_on()
    for qid in ("09.4", "09.5"):
        q = ex.question(qid)
        assert q.seed == seed and len(np.unique(groups[qid])) in (3, 4)
        assert "groups" not in q.data and not any(k.startswith("_") for k in q.data)
        with pytest.raises(AttributeError, match="groups"):
            q.groups
        if plant == "renamed":
            q.__dict__["mine"] = [(g % 4) + 7 for g in groups[qid].tolist()]
        elif plant == "text":
            q.__dict__["mine"] = {"notes": "drawn in " + ", ".join(map(str, groups[qid]))}
        found = _walk_for_groups(q, groups[qid])
        if plant is None:
            assert found == [], (qid, found)
        else:
            assert found and all("mine" in path for path in found), (qid, plant, found)
        q.__dict__.pop("mine", None)
    assert any(r.get("event") == "key" and "_groups" in r["route"]
               for r in _records(channel))
