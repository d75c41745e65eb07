"""The data behind the questions: the course's own, and one variant per student.

Each data set has its ``original`` (seed ``None``: the tutorial's and the
lecture's data, so the seed documents' numbers come out) and a ``draw(rng)``
that makes new data of the same shape and difficulty. A variant is drawn from a
generator fixed by the seed (:func:`._base.rng_for`), and redrawn until every
question using the data set finds it fair (:meth:`Question.acceptable`: the key
is finite and every diagnosed mistake gives a different value), so the same
seed always gives the same data. Several questions share a data set (the
tutorial's Exercise 2 feeds five questions), as on the tutorial sheet.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import tutorial
from ._base import QUESTIONS, rng_for

__all__ = ["DATASETS", "get"]

#: Attempts before giving up on a fair variant (a few are usually enough).
MAX_DRAWS = 500


def _both_present(rng, n, k):
    while True:
        x = rng.integers(1, k + 1, n)
        if len(np.unique(x)) == k:
            return x


def _exercise_1(rng):
    d = rng.integers(5, 101, 6) / 100          # six distances, two decimals
    D = np.zeros((4, 4))
    D[np.triu_indices(4, 1)] = d
    return {"D": D + D.T, "labels": tutorial.EXERCISE_1_LABELS.copy()}


def _exercise_2(rng):
    return {"classes": _both_present(rng, 10, 3), "clusters": _both_present(rng, 10, 3)}


def _exercise_3(rng):
    return {"classes": rng.integers(1, 4, 5), "clusters": rng.integers(1, 4, 5)}


def _exercise_4(rng):
    d = rng.choice(np.arange(30, 131), size=10, replace=False) / 100   # distinct: no ties
    D = np.zeros((5, 5))
    D[np.triu_indices(5, 1)] = d
    return {"D": D + D.T}


def _lecture_table(rng):
    while True:
        table = rng.integers(0, 17, (3, 3)) * 10
        i, j = rng.integers(0, 3, 2)
        table[i, j] = rng.integers(60, 121) * 10      # one dominant cell, as in the lecture
        if table.sum(axis=0).all() and table.sum(axis=1).all():   # no empty cluster or class
            return {"table": table}


def _blobs(rng, n_blobs):
    while True:
        centres = rng.uniform(0, 10, (n_blobs, 2))
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
        if n_blobs == 1 or gaps[np.triu_indices(n_blobs, 1)].min() > 4:
            break
    which = np.arange(12) % n_blobs
    X = np.round(centres[which] + rng.normal(0, 0.6, (12, 2)), 1)
    return X


def _choose_k_from(X):
    from .. import agglomerative

    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    tree = agglomerative(D, linkage="average")
    candidates = {k: tree.cut(n_clusters=k) + 1 for k in range(2, 6)}
    return {"X": X, "candidates": candidates}


def _choose_k_original():
    return _choose_k_from(_blobs(np.random.default_rng(2023), 3))


def _choose_k(rng):
    return _choose_k_from(_blobs(rng, int(rng.integers(2, 5))))


def _permutation(rng):
    truth = np.sort(_both_present(rng, 8, 3))
    rename = rng.permutation([1, 2, 3])
    while np.any(rename == np.array([1, 2, 3])):      # every label renamed
        rename = rng.permutation([1, 2, 3])
    return {"truth": truth, "pred": rename[truth - 1]}


def _prayatul_small(rng):
    return {"truth": _both_present(rng, 6, 2), "primary": _both_present(rng, 6, 2),
            "alternative": _both_present(rng, 6, 3)}


#: name -> (original data, draw(rng) for a variant)
DATASETS: dict[str, tuple[Callable[[], dict], Callable[[Any], dict]]] = {
    "exercise_1": (lambda: {"D": tutorial.EXERCISE_1_D.copy(),
                            "labels": tutorial.EXERCISE_1_LABELS.copy()}, _exercise_1),
    "exercise_2": (lambda: {"classes": tutorial.EXERCISE_2_CLASSES.copy(),
                            "clusters": tutorial.EXERCISE_2_CLUSTERS.copy()}, _exercise_2),
    "exercise_3": (lambda: {"classes": tutorial.EXERCISE_3_CLASSES.copy(),
                            "clusters": tutorial.EXERCISE_3_CLUSTERS.copy()}, _exercise_3),
    "exercise_4": (lambda: {"D": tutorial.EXERCISE_4_D.copy()}, _exercise_4),
    "lecture_table": (lambda: {"table": tutorial.LECTURE_MATCHING_TABLE.copy()},
                      _lecture_table),
    "choose_k": (_choose_k_original, _choose_k),
    "permutation": (lambda: {"truth": np.array([1, 1, 1, 2, 2, 2, 3, 3]),
                             "pred": np.array([2, 2, 2, 3, 3, 3, 1, 1])}, _permutation),
    # A small example for the Prayatul matrix by hand: 6 instances, 15 pairs.
    "prayatul_small": (lambda: {"truth": np.array([1, 1, 1, 2, 2, 2]),
                                "primary": np.array([1, 1, 2, 2, 2, 2]),
                                "alternative": np.array([1, 2, 1, 3, 3, 3])},
                       _prayatul_small),
    "none": (dict, lambda rng: {}),
}

_CACHE: dict[tuple[str, Any], dict] = {}


def _frozen(data: dict) -> dict:
    for v in data.values():
        if isinstance(v, np.ndarray):
            v.setflags(write=False)
        elif isinstance(v, dict):
            _frozen(v)
    return data


def _fair(name: str, seed, data: dict) -> bool:
    for cls in QUESTIONS.values():
        if cls.dataset != name:
            continue
        q = object.__new__(cls)
        q.seed, q.data, q._hint_count = seed, data, 0
        if not q.acceptable():
            return False
    return True


def get(name: str, seed) -> dict:
    """The data set ``name`` for ``seed`` (``None``: the course's own data)."""
    if name not in DATASETS:
        raise ValueError(f"dataset: unknown {name!r}")
    cache_key = (name, seed)
    if cache_key not in _CACHE:
        original, draw = DATASETS[name]
        if seed is None:
            data = original()
        else:
            rng = rng_for(seed, name)
            for _ in range(MAX_DRAWS):
                data = draw(rng)
                if _fair(name, seed, data):
                    break
            else:  # pragma: no cover - the tests draw many seeds and never get here
                raise RuntimeError(f"no fair variant of {name!r} for seed {seed!r}")
        _CACHE[cache_key] = _frozen(data)
    return _CACHE[cache_key]
