"""Follow a measure's labels through the package: the modules they pass and every turn back up.

A measure reads check -> code -> count -> formula: the data of its labels
should go *down* the core's layers, never back up. This tracer runs a measure
(by default ``adjusted_rand_index(truth, pred)``) under ``sys.setprofile`` and
records every call whose caller and callee are modules of the package and
differ (a *module change*). The core is ranked:

* 3: the measures (``pair_counting``, ``information``, ``contingency``, ...);
* 2: ``labels`` (labels become codes);
* 1: ``_validation``, ``hashing``, ``counting`` (argument checks, hash tables,
  counting of plain arrays);
* 0: ``steps``, ``dask_counts`` (results and derivations, Dask's merging).

A call from a module to one ranked above it is a *turn back up*. "Passes
through each module once" means: of the calls the measure makes into the
core (caller ranked 3, callee below; ``steps`` and ``dask_counts``, which
hold results and no stage of the data, left out), with consecutive calls
into the same module merged, no module appears twice, and they come in the
order check (``_validation``) -> code (``labels``, ``hashing``) -> count
(``counting``).

Run as a script (``python tests/walk.py``) it prints, per kind of labels, the
modules passed, the module changes and the turns back up, for whichever
``prayatul_edu`` is imported first (``PYTHONPATH=OTHER_TREE`` walks another tree).
"""
from __future__ import annotations

import sys

import numpy as np

RANK = {"labels": 2, "_validation": 1, "hashing": 1, "counting": 1, "steps": 0, "dask_counts": 0}
STAGE = {"_validation": 0, "labels": 1, "hashing": 1, "counting": 2}
N = 8192                       # at least labels.HASH_MIN_N: the word table is used


def _short(module: str) -> str | None:
    """``counting`` for ``prayatul_edu.counting``; None outside the package."""
    if module == "prayatul_edu" or not module.startswith("prayatul_edu."):
        return None
    return module.split(".", 1)[1]


def rank(short: str) -> int:
    """The layer of a module of the package: 3 for the measures (everything not in RANK)."""
    return RANK.get(short, 3)


def kinds(n: int = N) -> dict:
    """``{kind: (truth, pred)}``: the kinds of labels a user passes, ``n`` of each."""
    rng = np.random.default_rng(28)
    small_t, small_p = rng.integers(0, 10, n), rng.integers(0, 12, n)
    spread = rng.integers(-2**40, 2**40, 40)             # few labels on no grid
    many_t, many_p = rng.integers(0, n // 2, n), rng.integers(0, n // 2, n)
    wide = rng.integers(-2**40, 2**40, n // 2)          # many labels on no grid
    strings_t = np.array([f"class{v}" for v in small_t])
    strings_p = np.array([f"c{v}" for v in small_p])
    return {
        "small-range ints": (small_t, small_p),
        "ints on a grid": (small_t * 1000 + 7, small_p * 10**9),
        "ints on no grid": (spread[small_t], spread[small_p + 20]),
        "ints, many labels": (wide[many_t], wide[many_p]),
        "<U strings, few labels": (strings_t, strings_p),
        "<U strings, many labels": (np.array([f"s{v}" for v in many_t]),
                                    np.array([f"t{v}" for v in many_p])),
        "list of str": (strings_t.tolist(), strings_p.tolist()),
        "object array": (strings_t.astype(object), small_p.astype(object)),
    }


def walk(measure, *args) -> list[tuple[str, str]]:
    """``(caller, callee)`` of every call between two different modules of the package."""
    calls = []

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee = _short(frame.f_globals.get("__name__", ""))
        caller = _short(frame.f_back.f_globals.get("__name__", ""))
        if callee is not None and caller is not None and callee != caller:
            calls.append((caller, callee))

    sys.setprofile(profile)
    try:
        measure(*args)
    finally:
        sys.setprofile(None)
    return calls


def from_the_measure(calls) -> list[str]:
    """The core modules the measure calls into, in order, consecutive repeats merged."""
    seq = []
    for caller, callee in calls:
        if rank(caller) == 3 and callee in STAGE and (not seq or seq[-1] != callee):
            seq.append(callee)
    return seq


def summary(calls) -> dict:
    """Module changes, turns back up, the modules passed and the measure's sequence."""
    return {"changes": len(calls),
            "turns_up": sum(rank(callee) > rank(caller) for caller, callee in calls),
            "modules": sorted({m for call in calls for m in call}),
            "sequence": from_the_measure(calls)}


def passes_once(sequence) -> bool:
    """Each core module entered once, in the order check -> code -> count."""
    stages = [STAGE[m] for m in sequence]
    return len(set(sequence)) == len(sequence) and stages == sorted(stages)


def main() -> None:
    import prayatul_edu
    from prayatul_edu import adjusted_rand_index

    print(f"adjusted_rand_index(truth, pred), N = {N}, {prayatul_edu.__file__}")
    print(f"{'kind':26s} {'modules':>7s} {'changes':>7s} {'turns up':>8s}  measure calls into")
    for kind, (truth, pred) in kinds().items():
        s = summary(walk(adjusted_rand_index, truth, pred))
        print(f"{kind:26s} {len(s['modules']):7d} {s['changes']:7d} {s['turns_up']:8d}  "
              f"{' -> '.join(s['sequence'])}")


if __name__ == "__main__":
    main()
