"""Checking the arguments users pass in, with errors that name the argument and the problem.

Every public function checks its arguments here (or, for labels, in
:mod:`prayatul_edu.labels`) first, so a mistake shows up as one clear
``ValueError``/``TypeError`` instead of a NumPy traceback or, worse, a
silently wrong number.

Matrices
    :func:`check_distance_matrix` for square, symmetric, non-negative, zero
    diagonal, finite matrices (distances or graph weights); :func:`check_features`
    for a matrix of points.
Choices and numbers
    :func:`check_choice` (one of a few names), :func:`check_real`.
Randomness and procedures
    :func:`check_seed` (``seed``, or scikit-learn's ``random_state`` as its alias),
    :func:`check_procedure` (a function, or a scikit-learn estimator, cloned per call).
"""
from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_distance_matrix",
    "check_features",
    "check_choice",
    "check_real",
    "check_count",
    "check_seed",
    "check_measure",
    "check_procedure",
    "describe",
    "first_bad",
]


def describe(x) -> str:
    """The type of ``x``, by name (for error messages)."""
    return type(x).__name__


def first_bad(mask: np.ndarray) -> int:
    """The position of the first True in ``mask`` (for error messages)."""
    return int(np.flatnonzero(mask)[0])


def check_distance_matrix(D, name: str = "D", *, allow_condensed: bool = False,
                          atol: float = 1e-12) -> np.ndarray:
    """Validate a square, symmetric, non-negative, zero-diagonal, finite matrix.

    With ``allow_condensed`` a 1-D vector of length N(N-1)/2 (SciPy's condensed
    form) is expanded to the square matrix. Returns a float64 array. The checks
    run in row blocks, so validating a large matrix needs little extra memory.
    """
    if D is None:
        raise TypeError(f"{name}: expected a square distance matrix, got None")
    try:
        arr = np.asarray(D, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a square matrix of numbers ({exc})") from None
    if arr.ndim == 1 and allow_condensed:
        return _expand_condensed(arr, name)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name}: must be a square N x N matrix, got shape {arr.shape}")
    n = arr.shape[0]
    if n < 2:
        raise ValueError(f"{name}: must be at least 2 x 2, got {arr.shape}")
    if _valid_by_tiles(arr, atol):
        return arr
    # Something is wrong: the checks one by one, to say what and where.
    diag = np.diagonal(arr)
    if not np.isfinite(diag).all():
        i = first_bad(~np.isfinite(diag))
        raise ValueError(f"{name}: contains NaN or infinite values (first at [{i}, {i}])")
    scale = 1.0
    block = max(1, (1 << 21) // n)
    for start in range(0, n, block):  # finiteness and sign, a block of rows at a time
        rows = arr[start:start + block]
        finite = np.isfinite(rows)
        if not finite.all():
            i, j = np.argwhere(~finite)[0]
            raise ValueError(f"{name}: contains NaN or infinite values (first at "
                             f"[{start + i}, {j}])")
        if (rows < 0).any():
            i, j = np.argwhere(rows < 0)[0]
            raise ValueError(f"{name}: distances must be non-negative, but "
                             f"{name}[{start + i}, {j}] = {rows[i, j]:g}")
        scale = max(scale, float(rows.max()))
    if (np.abs(diag) > atol).any():
        i = first_bad(np.abs(diag) > atol)
        raise ValueError(f"{name}: the diagonal must be zero (an instance is at distance "
                         f"0 from itself), but {name}[{i}, {i}] = {diag[i]:g}")
    for start in range(0, n, block):  # symmetry, comparing row blocks with column blocks
        rows = arr[start:start + block]
        asym = np.abs(rows - arr[:, start:start + block].T) > atol * scale
        if asym.any():
            i, j = np.argwhere(asym)[0]
            i += start
            raise ValueError(f"{name}: must be symmetric, but {name}[{i}, {j}] = "
                             f"{arr[i, j]:g} and {name}[{j}, {i}] = {arr[j, i]:g}")
    return arr


#: Side of the square tiles read by the one-pass check of a distance matrix (512 kB).
_TILE = 256


def _valid_by_tiles(arr: np.ndarray, atol: float) -> bool:
    """The fast path of :func:`check_distance_matrix`: True when every check passes.

    One pass over the matrix in square tiles: tile ``[I, J]`` (``I <= J``) and
    its mirror ``[J, I]`` are read once each for their minimum and maximum
    (NaN fails ``min >= 0``, infinity fails ``max < inf``) and for the largest
    asymmetry ``|D_ij - D_ji|``, which is compared with ``atol * scale`` at the
    end, ``scale`` being ``max(1, largest entry)`` as in the plain checks.
    """
    n = arr.shape[0]
    high, asym = 1.0, 0.0
    scratch = np.empty((_TILE, _TILE))
    for i in range(0, n, _TILE):
        for j in range(i, n, _TILE):
            upper, lower = arr[i:i + _TILE, j:j + _TILE], arr[j:j + _TILE, i:i + _TILE]
            for tile in (upper,) if i == j else (upper, lower):
                low, top = float(tile.min()), float(tile.max())
                if not (low >= 0 and top < np.inf):
                    return False
                high = max(high, top)
            diff = scratch[:upper.shape[0], :upper.shape[1]]
            np.subtract(upper, lower.T, out=diff)
            asym = max(asym, float(np.abs(diff, out=diff).max()))
    return asym <= atol * high and float(np.abs(np.diagonal(arr)).max()) <= atol


def _expand_condensed(vec: np.ndarray, name: str, fast: bool = True) -> np.ndarray:
    """SciPy's condensed distance vector -> the square matrix, O(N^2).

    The plain loop copies row slices and mirrors them; ``fast`` lets SciPy's
    ``squareform`` fill the same matrix (tests check that both agree).
    """
    m = vec.shape[0]
    n = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if m == 0 or n * (n - 1) // 2 != m:
        raise ValueError(f"{name}: a condensed distance vector must have length "
                         f"N(N-1)/2 for some N >= 2, got {m}")
    low, high = float(vec.min()), float(vec.max())
    if not (low >= 0 and high < np.inf):  # NaN fails both comparisons
        if not np.isfinite(vec).all():
            raise ValueError(f"{name}: contains NaN or infinite values (at condensed "
                             f"position {first_bad(~np.isfinite(vec))})")
        raise ValueError(f"{name}: distances must be non-negative (condensed position "
                         f"{first_bad(vec < 0)} is {vec[first_bad(vec < 0)]:g})")
    if fast:  # the same matrix, filled by SciPy's compiled loop
        from scipy.spatial.distance import squareform

        return squareform(vec, checks=False)
    full = np.zeros((n, n))
    pos = 0
    for i in range(n - 1):  # row i holds D[i, i+1:], then mirror it into column i
        length = n - 1 - i
        full[i, i + 1:] = vec[pos:pos + length]
        pos += length
    full += full.T
    return full


def check_features(X, name: str = "X") -> np.ndarray:
    """Validate a data matrix: 2-D (N instances x d features), real, finite."""
    if X is None:
        raise TypeError(f"{name}: expected a 2-D array of numbers (N instances x d "
                        "features), got None")
    arr = np.asarray(X)
    if arr.dtype.kind == "O":
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name}: expected a 2-D array of numbers ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected a 2-D array of real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        hint = f" (use {name}.reshape(-1, 1) for a single feature)" if arr.ndim == 1 else ""
        raise ValueError(f"{name}: must be a 2-D array (N instances x d features), got "
                         f"shape {arr.shape}{hint}")
    arr = np.ascontiguousarray(arr, dtype=float)
    if arr.shape[1] == 0:
        raise ValueError(f"{name}: has no features (shape {arr.shape})")
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(arr, axis=None)
    if np.isfinite(total):                           # a finite sum: every entry is finite
        return arr                                   # (one pass, no N x d mask)
    finite = np.isfinite(arr)
    if not finite.all():                             # (a sum may overflow: look entry by entry)
        i, j = np.argwhere(~finite)[0]
        raise ValueError(f"{name}: contains NaN or infinite values (first at "
                         f"{name}[{i}, {j}])")
    return arr


def check_choice(value, name: str, options) -> str:
    """``value`` must be one of ``options`` (strings)."""
    options = tuple(options)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name}: unknown value {value!r}; choose one of {listed}")
    return value


def check_real(value, name: str, *, allow_nan: bool = False, positive: bool = False) -> float:
    """A real number (not bool); optionally NaN is allowed, optionally > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number, got {describe(value)} {value!r}")
    value = float(value)
    if value != value and not allow_nan:
        raise ValueError(f"{name}: must not be NaN")
    if positive and not value > 0:
        raise ValueError(f"{name}: must be positive, got {value!r}")
    return value


def check_count(value, name: str, *, minimum: int = 1) -> int:
    """A whole number >= ``minimum`` (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected a whole number, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name}: must be at least {minimum}, got {value}")
    return int(value)


def check_seed(seed, random_state=None) -> np.random.Generator:
    """None, a whole number >= 0, a ``numpy.random.Generator`` (or a legacy
    ``numpy.random.RandomState``, which gives the Generator's seed).

    ``random_state`` is scikit-learn's name for the same thing: either may be
    given; both only if they are the same (the same number, the same object).
    """
    name = "seed"
    if random_state is not None:
        if seed is not None and not _same_seed(seed, random_state):
            raise ValueError(f"random_state: is another name for seed; got seed={seed!r} "
                             f"and random_state={random_state!r}: give one of them")
        seed, name = random_state, "random_state"
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(int(seed.randint(2**31 - 1)))
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{name}: expected None, a whole number or a numpy Generator, got "
                        f"{type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"{name}: must be >= 0, got {seed}")
    return np.random.default_rng(int(seed))


def _same_seed(a, b) -> bool:
    if a is b:
        return True
    integral = (isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral)
                and not isinstance(a, bool) and not isinstance(b, bool))
    return integral and int(a) == int(b)


def check_procedure(cluster, name: str = "cluster", *, takes_k: bool = False):
    """A clustering procedure as a function: ``cluster(X) -> labels`` (``cluster(X, k)``
    with ``takes_k``), or a scikit-learn estimator.

    An estimator (anything with ``fit_predict`` and ``get_params``, e.g. ``KMeans(3)``)
    is cloned (``sklearn.base.clone``) for every call, so no call sees another's fit;
    with ``takes_k`` its ``n_clusters`` (``n_components`` for a mixture) is set to k.
    """
    if hasattr(cluster, "fit_predict") and hasattr(cluster, "get_params"):
        params = cluster.get_params()
        size = next((p for p in ("n_clusters", "n_components") if p in params), None)
        if takes_k and size is None:
            raise ValueError(f"{name}: the estimator {type(cluster).__name__} has no "
                             "n_clusters (or n_components) parameter to set to k")
        estimator = cluster

        def fitted_labels(X, k=None):
            from sklearn.base import clone

            fresh = clone(estimator)
            if k is not None:
                fresh.set_params(**{size: k})
            return fresh.fit_predict(X)

        if takes_k:
            return lambda X, k: fitted_labels(X, k)
        return lambda X: fitted_labels(X)
    if not callable(cluster):
        call = "cluster(X, k)" if takes_k else "cluster(X)"
        raise TypeError(f"{name}: expected a function {call} -> labels or a scikit-learn "
                        f"estimator, got {type(cluster).__name__} {cluster!r}")
    return cluster


def check_measure(measure, name: str = "measure"):
    """A function ``measure(truth, pred)`` (anything callable)."""
    if not callable(measure):
        raise TypeError(f"{name}: expected a function measure(truth, pred), such as "
                        f"adjusted_rand_index, got {type(measure).__name__} {measure!r}")
    return measure
