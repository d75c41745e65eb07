"""What a person types or sets in an app, checked: labels, tables of counts, numbers.

Every error message starts with the parameter's name (the app shows it beside
the box it is about).
"""
from __future__ import annotations

import re

import numpy as np

from .._validation import check_real

__all__ = ["parse_labels", "parse_counts", "check_int", "check_float", "check_bool"]

_SPLIT = re.compile(r"[\s,;]+")


def _number_or_text(token: str):
    try:
        return int(token)
    except ValueError:
        return token


def parse_labels(text: str, name: str) -> np.ndarray:
    """``"1 3 2, 1"`` -> ``array([1, 3, 2, 1])``: labels separated by spaces or commas.

    Whole numbers become ints; anything else stays a string (``"a b a"``).

    >>> parse_labels("1 3 2, 1", "truth").tolist()
    [1, 3, 2, 1]
    >>> parse_labels("a, b a", "pred").tolist()
    ['a', 'b', 'a']
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the labels as text, got {type(text).__name__}")
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if len(tokens) < 2:
        raise ValueError(f"{name}: give at least two labels, separated by spaces or commas")
    values = [_number_or_text(t) for t in tokens]
    if all(isinstance(v, int) for v in values):
        return np.array(values, dtype=np.int64)
    return np.array([str(v) for v in values])


def parse_counts(text: str, name: str) -> np.ndarray:
    """A table typed as rows separated by ``;`` or new lines, cells by spaces or commas.

    >>> parse_counts("50 100 0; 10 1000 50", "counts").tolist()
    [[50, 100, 0], [10, 1000, 50]]
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the table as text, got {type(text).__name__}")
    rows = [r for r in re.split(r"[;\n]+", text.strip()) if r.strip()]
    table = [[t for t in re.split(r"[\s,]+", r.strip()) if t] for r in rows]
    if not table:
        raise ValueError(f"{name}: the table is empty")
    widths = {len(r) for r in table}
    if len(widths) != 1:
        raise ValueError(f"{name}: every row needs the same number of cells, got rows of "
                         f"{sorted(widths)} cells")
    try:
        counts = np.array([[int(c) for c in r] for r in table], dtype=np.int64)
    except ValueError:
        raise ValueError(f"{name}: every cell must be a whole number") from None
    if (counts < 0).any():
        raise ValueError(f"{name}: cells must be non-negative")
    if counts.sum() < 2:
        raise ValueError(f"{name}: the table needs at least two instances")
    return counts


def _check_range(value, name: str, low, high) -> None:
    if value < low or (high is not None and value > high):
        where = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name}: must be {where}, got {value}")


def check_int(value, name: str, low: int, high: int | None = None) -> int:
    """A whole number in [low, high].

    >>> check_int(3, "k", 2, 10)
    3
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected a whole number, got {type(value).__name__} {value!r}")
    _check_range(value, name, low, high)
    return int(value)


def check_point(value, name: str, high: int | None = None) -> int:
    """A point's number x1 ... xN, as a whole number or as typed in a box (``"12"``,
    ``"x12"``); anything else (``"12.5"``, ``"twelve"``) is refused, never rounded.

    >>> check_point(" x12 ", "point"), check_point(7, "point")
    (12, 7)
    >>> check_point("12.5", "point")
    Traceback (most recent call last):
    ...
    ValueError: point: '12.5' is not a point number; type a whole number such as 12 (for x12)
    """
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in ("x", "X") else text
        if not digits.isascii() or not digits.isdigit():
            raise ValueError(f"{name}: {value!r} is not a point number; type a whole number "
                             "such as 12 (for x12)")
        value = int(digits)
    return check_int(value, name, 1, high)


def check_float(value, name: str, low: float, high: float | None = None) -> float:
    """A real number in [low, high].

    >>> check_float(0.25, "eps", 0.01)
    0.25
    """
    value = check_real(value, name)
    _check_range(value, name, low, high)
    return value


def check_bool(value, name: str) -> bool:
    """True or False (not 0 or 1, not a string).

    >>> check_bool(True, "lecture")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected True or False, got {type(value).__name__} {value!r}")
    return bool(value)
