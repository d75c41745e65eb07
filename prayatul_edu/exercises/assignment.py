"""Assignment mode: what a student may see of a graded variant, and the record of it.

Self-study (``STUDENT_ID = None``, the course's own data) keeps everything open.
For a student's variant (``STUDENT_ID = "s1234"``) in an assignment, the instructor's
policy applies (the grader always sets one; at home, a course file does):

* ``solution()`` and ``key()`` are refused until the instructor releases them;
* hint ``n`` opens after ``n * attempts_per_hint`` checks of that question;
* every ``check``, ``hint``, ``solution`` and ``key`` call is written to the
  grader's channel (when it is grading), so that grades.json and the feedback
  say, per question, what help was used.

The policy is JSON, taken from the environment variable :data:`POLICY_ENV` (the
grader sets it; a notebook handed out by ``prayatul-edu assign`` sets it in its
first code cell, whatever folder it is opened from) or else from a course file
``prayatul-course.json`` in the working folder (the instructor ships it with the
assignment, and ships a new one to release the solutions). Without either, nothing is gated (the library
used outside an assignment). ``{}`` is the default assignment policy::

    {"released": false, "attempts_per_hint": 1}
    {"released": ["01", "03.2"]}          # the solutions of notebook 01 and of 03.2

>>> p = Policy(released=["01"], attempts_per_hint=2)
>>> p.solution_open("01.3", seed="s1"), p.solution_open("02.1", seed="s1")
(True, False)
>>> p.solution_open("02.1", seed=None)          # self-study: always open
True
>>> p.hint_open(2, attempts=3, seed="s1"), p.hint_open(2, attempts=4, seed="s1")
(False, True)

This stops answers being *one call away*; it does not stop a determined student
(the library is theirs: its measure functions compute any answer). See the
instructor's guide (docs/instructor_guide.md) for how to set work that still tests
understanding.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

__all__ = ["Policy", "policy", "OPEN", "emit", "note_check", "gate", "guard_key",
           "seal_class", "configure", "CHANNEL_ENV", "POLICY_ENV", "COURSE_FILE", "VARIANT_ENV",
           "NotReleased", "OPEN_TO_STUDENTS", "UNKNOWN", "seal", "changed", "refuse_changed",
           "judge", "from_student", "INSTANCE_NAMES"]

#: The grader sets this to a file; every check/hint/solution/key call appends a JSON line.
CHANNEL_ENV = "PRAYATUL_EDU_SUBMISSIONS"
#: The grader (or an instructor's setup) puts the policy's JSON here.
POLICY_ENV = "PRAYATUL_EDU_ASSIGNMENT"
#: Else the policy is read from this file in the working folder.
COURSE_FILE = "prayatul-course.json"
#: A handed-out notebook (``prayatul-edu assign``) puts its student's variant here: the
#: seed of every question after ``setup(student_id)`` (without it: the id itself).
VARIANT_ENV = "PRAYATUL_EDU_VARIANT"

_ATTEMPTS: dict[tuple, int] = {}


class NotReleased(PermissionError):
    """``key()`` of a variant whose solutions are not released yet."""


@dataclass(frozen=True)
class Policy:
    """``released``: True, False, or the notebooks ("01") and questions ("01.2") whose
    solutions are open; ``attempts_per_hint``: checks needed before each next hint."""

    released: bool | tuple = False
    attempts_per_hint: int = 1
    problems: tuple = field(default=(), compare=False)

    def __post_init__(self):
        if isinstance(self.released, (list, tuple)):
            object.__setattr__(self, "released", tuple(str(r) for r in self.released))
        elif not isinstance(self.released, bool):
            raise TypeError(f"released: expected true, false or a list of notebooks and "
                            f"questions, got {self.released!r}")
        if (isinstance(self.attempts_per_hint, bool) or not isinstance(self.attempts_per_hint, int)
                or self.attempts_per_hint < 0):
            raise ValueError("attempts_per_hint: expected a whole number >= 0, got "
                             f"{self.attempts_per_hint!r}")

    def solution_open(self, qid: str, seed) -> bool:
        if seed is None or self.released is True:
            return True
        if self.released is False:
            return False
        return qid in self.released or qid.split(".")[0] in self.released

    def hint_open(self, n: int, attempts: int, seed) -> bool:
        return seed is None or attempts >= n * self.attempts_per_hint

    def to_json(self) -> str:
        released = self.released if isinstance(self.released, bool) else list(self.released)
        return json.dumps({"released": released, "attempts_per_hint": self.attempts_per_hint})

    @classmethod
    def from_json(cls, text: str) -> "Policy":
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("policy: expected a JSON object")
        unknown = set(data) - {"released", "attempts_per_hint"}
        if unknown:
            raise ValueError(f"policy: unknown setting(s) {', '.join(sorted(unknown))}")
        return cls(**data)


#: Without a course file or the grader's setting, nothing is gated.
OPEN = Policy(released=True, attempts_per_hint=0)


def policy() -> Policy:
    """The policy in force (environment, else the course file, else the default)."""
    text = os.environ.get(POLICY_ENV)
    if not text and os.path.isfile(COURSE_FILE):
        try:
            with open(COURSE_FILE, encoding="utf-8") as fh:
                text = fh.read(100_000)
        except OSError:
            text = None
    if not text:  # no assignment: the library, the course's notebooks, an instructor's script
        return OPEN
    try:
        return Policy.from_json(text)
    except (ValueError, TypeError):  # a broken course file must not open everything
        return Policy()


def emit(record: dict) -> None:
    """Append ``record`` to the grader's channel file, if the grader set one."""
    path = os.environ.get(CHANNEL_ENV)
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
    except (OSError, TypeError, ValueError):  # the channel is the grader's business
        pass


def note_check(q) -> None:
    """Count one check of ``q`` (hints open with attempts)."""
    key = (q.qid, q.seed)
    _ATTEMPTS[key] = _ATTEMPTS.get(key, 0) + 1


def gate(what: str, q, n: int | None = None):
    """Report a ``hint`` (number ``n``) or ``solution`` call of ``q``; return None when it
    may be shown, else the sentence saying why not."""
    p = policy()
    if what == "solution":
        shown = p.solution_open(q.qid, q.seed)
        why = ("your instructor has not released the solutions of this assignment. "
               "`hint()` and `check()` help meanwhile.")
    else:
        attempts = _ATTEMPTS.get((q.qid, q.seed), 0)
        n = n or min(getattr(q, "_hint_count", 0) + 1, max(1, len(q.hints)))
        shown = p.hint_open(n, attempts, q.seed)
        need = n * p.attempts_per_hint
        why = (f"hint {n} opens after {need} checked attempt{'s' if need != 1 else ''} "
               f"of this question (you have made {attempts}).")
    if p is not OPEN:  # in an assignment, every call is on the record
        emit({"event": what, "qid": q.qid, "seed": q.seed, "n": n, "shown": shown,
              "route": what})
    return None if shown else f"{q.qid}: the {what} is not available yet: {why}"


#: What a student may call on a question: the prompt, ``check``, ``hint`` and ``solution``
#: (gated by :func:`gate`), the options as text (``choices``, ``letters_for``), creating one
#: and reading its data. Everything else a question class defines - whatever its name,
#: public or private, defined now or by a kind added later - is sealed by
#: :func:`seal_class`: the key, the statements' truths, the mistakes, the judging of an
#: answer and an instructor's functions are reached only through the one sealed accessor
#: (:func:`_sealed`), which records the call and refuses it before release.
OPEN_TO_STUDENTS = frozenset({"__init__", "__init_subclass__", "__getattr__", "__repr__",
                              "_repr_markdown_", "prompt", "check", "hint", "solution",
                              "choices", "letters_for"})

#: The code objects of the library's own functions (:func:`seal`), and of the answer
#: routes and their guard. Code objects, by identity: a cell can set ``__name__``, a
#: module's or a function's name, a file name given to ``compile``; it cannot make its
#: code one of these.
_OWN: set = set()
_ROUTES: set = set()
_GUARDS: set = set()
_SEALED: list = []


def _collect(obj, found: set, seen: set, module: str) -> None:
    """Every code object of ``obj`` (a module's dict value, a class of that module, a
    function), nested ones (comprehensions, lambdas, inner functions) included."""
    if isinstance(obj, type) and obj.__module__ != module:
        return    # another module's class, imported: sealed with its own module, whatever
        #           the order of the modules (never marked seen here, or it would not be)
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        for f in (obj.fget, obj.fset, obj.fdel):
            if f is not None:
                _collect(f, found, seen, module)
        return
    if isinstance(obj, type):
        for value in list(vars(obj).values()):
            _collect(value, found, seen, module)
        return
    code = getattr(obj, "__code__", None)
    todo = [code] if isinstance(code, type(_collect.__code__)) else []
    while todo:
        c = todo.pop()
        if c not in found:
            found.add(c)
            todo += [k for k in c.co_consts if isinstance(k, type(c))]


def seal(modules) -> None:
    """Record the code of ``modules`` (the exercises' own, as the package imports them,
    before any cell of a student runs) as the library's; called once."""
    if _SEALED:
        return
    seen: set = set()
    for module in modules:
        for value in list(vars(module).values()):
            _collect(value, _OWN, seen, module.__name__)
    for klass in _SEALED_CLASSES:     # the library's classes, as its modules left them
        _AS_SEALED[klass] = _as_is(klass)
    _SEALED.append(True)


def _asked_by_outsider() -> bool:
    """Whether the answer route running now was called from outside the library: the
    first frame above the routes (and their guard) is not the library's own code. Only
    the outermost guarded route of a call answers yes (``keys()`` calling
    ``compute_key()`` is one call on the record, not two)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code in _ROUTES:
        if frame.f_code in _GUARDS:   # an outer guard has judged this call already
            return False
        frame = frame.f_back
    return frame is None or frame.f_code not in _OWN


def _codes(code) -> set:
    """``code`` and every code object nested in it (comprehensions, lambdas, inner
    functions)."""
    found, todo = set(), [code]
    while todo:
        c = todo.pop()
        if c not in found:
            found.add(c)
            todo += [k for k in c.co_consts if isinstance(k, type(c))]
    return found


#: The originals of the sealed methods, by index: a sealed method holds its index (a
#: number) and its name, never the original (no ``__wrapped__``, nothing in a closure).
_VAULT: list = []
#: The classes sealed already (each once: its own methods, never its bases' again).
_SEALED_CLASSES: set = set()


def _seals(cls) -> bool:
    """Whether ``cls`` is sealed with a question class deriving from it: a question class,
    or a class of this package (the kinds' and authoring's mixins). A student's own mixin
    is not changed: what it asks of the library's methods is judged as the student's."""
    base = _CONFIG.get("base")
    return cls is not object and ((base is not None and issubclass(cls, base))
                                  or (not _SEALED and cls.__module__.startswith(_PACKAGE)))


def seal_class(cls) -> None:
    """Seal every method, static or class method and property of ``cls`` and of its bases
    (:func:`_seals`) but :data:`OPEN_TO_STUDENTS`: each becomes the sealed accessor
    (:func:`_sealed`) in front of its original. A new kind of question is sealed by
    deriving from :class:`~prayatul_edu.exercises.Question`, without being named anywhere."""
    ours = _SEALED and _made_by_library()
    for klass in reversed(cls.__mro__):
        if klass in _SEALED_CLASSES or not _seals(klass):
            continue
        _SEALED_CLASSES.add(klass)
        for name, value in list(vars(klass).items()):
            if name in OPEN_TO_STUDENTS:
                continue
            sealed = _sealed_attribute(value, name, klass)
            if sealed is not None:
                setattr(klass, name, sealed)
        if ours:       # made by the library's own code (an instructor's declared question)
            _AS_SEALED[klass] = _as_is(klass)


#: class -> its attributes and bases as the library made and sealed it (:func:`changed`).
#: A class not here was made by a cell (a student's subclass or mixin).
_AS_SEALED: dict = {}
#: The names a question object holds itself (everything else it reaches is its class's).
INSTANCE_NAMES = frozenset({"seed", "data", "_hint_count"})


#: Names Python itself adds to a class (``copy`` and ``pickle`` cache its slots' names;
#: reading ``__annotations__`` of a class without any makes an empty one).
_PYTHONS = frozenset({"__slotnames__", "__annotations__"})


def _as_is(klass) -> tuple:
    return klass.__mro__, {k: v for k, v in vars(klass).items() if k not in _PYTHONS}


def _made_by_library() -> bool:
    """Whether the class being sealed now was made by the library's own code (authoring
    declaring an instructor's question), not by a cell: the first frame above the
    sealing (and the ``__init_subclass__`` hooks calling it) is the library's."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_name in ("seal_class", "guard_key",
                                                          "__init_subclass__",
                                                          "_made_by_library"):
        if frame.f_code not in _OWN:
            return False          # a hook of a cell's own class
        frame = frame.f_back
    return frame is not None and frame.f_code in _OWN


def changed(q) -> str | None:
    """What a cell changed of the question ``q`` that the library's checking would run
    (None: nothing): its class or a base made by a cell (a subclass overriding a method
    the checking calls with the key), a method of a class replaced, added or removed, a
    method set on the object itself (``q.matches = ...``), or ``q.__class__`` changed. The
    library's open methods (``check``, ``prompt``, ``solution``, ``choices``) ask this
    first: the checking hands the key to ``matches``, ``compare`` and the like, so code of
    a cell in their place would be handed the key."""
    cls = type(q)
    for klass in cls.__mro__[:-1]:
        made = _AS_SEALED.get(klass)
        if made is None:
            return "a cell's class"
        mro, attributes = made
        now = vars(klass)
        if (klass.__mro__ != mro or len(now) - len(_PYTHONS & now.keys()) != len(attributes)
                or any(now.get(k, _AS_SEALED) is not v for k, v in attributes.items())):
            return "its class"
    own = set(vars(q)) - INSTANCE_NAMES
    names = sorted(n for n in own if any(n in vars(k) for k in cls.__mro__))
    if names:
        return f"q.{names[0][:20]}"
    return None


def from_student() -> bool:
    """Whether the student's method running now (``check``, ``prompt``, ``choices``...)
    was called by a cell, not by the library itself (its checking reads ``choices``, a
    variant being drawn is judged on data not yet the variant's): the first frame above
    the student's methods calling each other is not the library's."""
    if not _SEALED:      # the package importing itself
        return False
    frame = sys._getframe(2)
    while (frame is not None and frame.f_code in _OWN
           and frame.f_code.co_name in OPEN_TO_STUDENTS):
        frame = frame.f_back
    # the library's code: its functions, and the originals behind its sealed methods
    return frame is None or (frame.f_code not in _OWN and frame.f_code not in _ROUTES)


def judge(asked, route: str) -> None:
    """A cell's use of ``route`` (a function of the library that reads what the seal
    keeps, asked for ``asked``: a question or its class) judged as a sealed method's
    call: recorded, refused before release."""
    _judge(asked, route, asked if isinstance(asked, type) else type(asked))


def refuse_changed(q, what: str) -> None:
    """Record (and refuse before release) the checking of a question a cell changed
    (``what``, from :func:`changed` or the data's check): judged as a call of a sealed
    route, its variant unknown (a changed question's seed and data are not the
    variant's)."""
    _judge(q, f"changed question: {what}", type(q), seed=UNKNOWN)


def guard_key(cls) -> None:
    """:func:`seal_class` (the name of earlier versions)."""
    seal_class(cls)


def _sealed_attribute(value, name: str, owner):
    """``value`` (an attribute of a class) sealed, or None when it is no code."""
    if isinstance(value, staticmethod):
        return staticmethod(_sealed(value.__func__, name, owner))
    if isinstance(value, classmethod):
        return classmethod(_sealed(value.__func__, name, owner))
    if isinstance(value, property):
        return property(*(None if f is None else _sealed(f, name, owner)
                          for f in (value.fget, value.fset, value.fdel)), value.__doc__)
    if isinstance(value, type(_codes)):
        return _sealed(value, name, owner)
    return None


def _sealed(route, name: str, owner):
    """The sealed accessor in front of ``route`` (see :func:`seal_class`): a call from
    outside the library (a student's cell, however it reaches the method: ``q.keys()``,
    ``getattr(q, "compute_" + "key")()``, ``q.key.__call__()``, ``type(q).options(q)``)
    is reported, and refused for an unreleased variant; the library's own calls pass. Who
    called is told by the calling code object (:func:`seal`), never by a name a cell can
    set."""
    if route.__code__ in _GUARDS:
        return route
    index = len(_VAULT)
    _VAULT.append(route)
    if not _SEALED:   # the library's own methods; a class made later (a student's
        #               subclass) is sealed too, but its code is never taken as a route
        _ROUTES.update(_codes(route.__code__))

    def sealed(*args, **kw):
        if _SEALED and _asked_by_outsider():
            _judge(args[0] if args else owner, name, owner)
        return _VAULT[index](*args, **kw)

    sealed.__name__, sealed.__qualname__ = route.__name__, route.__qualname__
    sealed.__doc__, sealed.__module__ = route.__doc__, route.__module__
    _ROUTES.add(sealed.__code__)
    _GUARDS.add(sealed.__code__)
    return sealed


#: What the questions' module tells this one, once, at its import (:func:`configure`).
_CONFIG: dict = {}
_PACKAGE = __name__.rpartition(".")[0].rpartition(".")[0] + "."   # "prayatul_edu."
#: The variant of a call on something that is not a question built from its variant (a
#: class, an object made up to look like a question, a question on data of its own).
UNKNOWN = "?"


def configure(base) -> None:
    """Called once by the questions' module: ``base`` is the class of every question (its
    subclasses are sealed, and a call on one of them is judged for its variant). Later
    calls change nothing."""
    if not _CONFIG:
        _CONFIG["base"] = base


def _library_qid(cls) -> str:
    """The qid of the library's own class nearest ``cls`` (a cell's subclass that sets
    ``qid = ""`` or another qid is judged as the question it derives from)."""
    if not isinstance(cls, type):
        return ""
    return next((k.__dict__["qid"] for k in cls.__mro__ if k in _AS_SEALED
                 and isinstance(k.__dict__.get("qid"), str) and k.__dict__["qid"]), "")


def _judge(asked, route: str, owner, seed=None) -> None:
    """Record a student's call of the sealed ``route`` of ``asked`` (a question, or its
    class); NotReleased unless its solutions are released. ``seed``: the variant to judge
    by (default: the question's own)."""
    qid = getattr(owner, "qid", "") or ""
    base = _CONFIG.get("base")
    if base is not None and isinstance(asked, base):
        qid = _library_qid(type(asked)) or qid
        # (a question given seed None and a variant's data is shown the answer, and the
        # record of it costs the question as any shown answer does)
        seed = asked.__dict__.get("seed", UNKNOWN) if seed is None else seed
    else:   # a class, or an object made up to look like a question: no variant is known
        qid = (_library_qid(asked) or getattr(asked, "qid", qid)) if isinstance(
            asked, type) else qid
        seed = UNKNOWN
    qid = qid if isinstance(qid, str) else UNKNOWN
    p = policy()
    shown = p.solution_open(str(qid), seed)
    if p is not OPEN:
        emit({"event": "key", "qid": qid, "seed": seed, "shown": shown, "route": route})
    if not shown:
        raise NotReleased(f"{route}: the answer of {qid} for variant {seed} is not available "
                          "before your instructor releases the solutions")
