"""The data behind the questions: the course's own, and one variant per student.

Each data set has its ``original`` (seed ``None``: the tutorial's and the
lecture's data, so the seed documents' numbers come out) and a ``draw(rng)``
that makes new data of the same shape and difficulty. A variant is drawn from a
generator fixed by the seed (:func:`rng_for`), and redrawn until the caller's
``fair(data)`` accepts it (the questions using the data set: the key is finite
and every diagnosed mistake gives a value of its own), so the same seed always
gives the same data. Several questions share a data set (the tutorial's
Exercise 2 feeds five questions), as on the tutorial sheet.

Distance matrices of variants are the Euclidean distances of points in the
plane (rounded to two decimals, as on the sheet, and checked to stay a metric).

This module knows nothing about questions: it imports no other exercise module.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

import numpy as np

from .. import tutorial
from ..hierarchy import agglomerative

__all__ = ["DATASETS", "get", "rng_for", "is_metric"]

#: Attempts before giving up on a fair variant (a few are usually enough).
MAX_DRAWS = 500


def rng_for(seed: Any, salt: str) -> np.random.Generator:
    """A generator fixed by ``(seed, salt)``: the same student always gets the same data."""
    digest = hashlib.sha256(f"prayatul-edu|{seed}|{salt}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def is_metric(D, tol: float = 1e-9) -> bool:
    """Symmetric, zero diagonal, positive off the diagonal, triangle inequality."""
    D = np.asarray(D, dtype=float)
    off = ~np.eye(len(D), dtype=bool)
    triangle = D[:, None, :] <= D[:, :, None] + D[None, :, :] + tol   # d_ik <= d_ij + d_jk
    return bool(np.allclose(D, D.T) and np.all(np.diag(D) == 0) and np.all(D[off] > 0)
                and triangle.all())


def _distances_of_points(rng, n, low, high, distinct=False):
    """Rounded Euclidean distances of ``n`` random points, all in [low, high], a metric."""
    iu = np.triu_indices(n, 1)
    while True:
        X = rng.uniform(0, high, (n, 2))
        D = np.round(np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)), 2)
        d = D[iu]
        if d.min() < low or d.max() > high or not is_metric(D):
            continue
        if distinct and len(np.unique(d)) < len(d):            # no ties in the merges
            continue
        return D


def _both_present(rng, n, k):
    while True:
        x = rng.integers(1, k + 1, n)
        if len(np.unique(x)) == k:
            return x


def _exercise_1(rng):
    return {"D": _distances_of_points(rng, 4, 0.05, 1.0),
            "labels": tutorial.EXERCISE_1_LABELS.copy()}


def _exercise_2(rng):
    return {"classes": _both_present(rng, 10, 3), "clusters": _both_present(rng, 10, 3)}


def _exercise_3(rng):
    return {"classes": rng.integers(1, 4, 5), "clusters": rng.integers(1, 4, 5)}


def _exercise_4(rng):
    return {"D": _distances_of_points(rng, 5, 0.3, 1.3, distinct=True)}


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


def _ratio_error(rng):
    k = 3
    c = int(rng.choice([2, 4]))                 # never as many clusters as classes
    return {"classes": np.sort(_both_present(rng, 12, k)), "clusters": _both_present(rng, 12, c)}


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
    # 12 examples, 3 classes, 4 clusters (one class split in two): C != K on purpose.
    "ratio_error": (lambda: {"classes": np.array([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]),
                             "clusters": np.array([3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 4, 4])},
                    _ratio_error),
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


def get(name: str, seed, fair: Callable[[dict], bool] = lambda data: True) -> dict:
    """The data set ``name`` for ``seed`` (``None``: the course's own data).

    A variant is redrawn until ``fair(data)`` holds (the course's data are taken as
    they are). The result is cached per ``(name, seed)`` and read-only.
    """
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
                if fair(data):
                    break
            else:  # pragma: no cover - the tests draw many seeds and never get here
                raise RuntimeError(f"no fair variant of {name!r} for seed {seed!r}")
        _CACHE[cache_key] = _frozen(data)
    return _CACHE[cache_key]
