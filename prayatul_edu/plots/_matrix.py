"""Big N x N images drawn at the resolution a screen can show."""
from __future__ import annotations

import numpy as np

#: Rows (and columns) an N x N heatmap keeps at most; a figure panel is 250 to 300
#: pixels wide, so more rows only cost drawing time (matplotlib then resamples the
#: image down, several times slower than drawing it as it is).
MAX_SHOWN = 256


def thinned(n: int, limit: int = MAX_SHOWN) -> np.ndarray:
    """Indices of the rows to draw: all of them up to ``limit``, else every s-th row.

    >>> thinned(5).tolist(), thinned(1000, limit=400).shape, thinned(1500).shape
    ([0, 1, 2, 3, 4], (334,), (250,))
    """
    step = max(1, int(np.ceil(n / limit)))
    return np.arange(0, n, step)


def shown_rows(n: int, order=None) -> np.ndarray:
    """The instances whose rows (and columns) an N x N heatmap draws, top to bottom:
    :func:`thinned` positions of ``order`` (default: 0 .. N-1 as they are)."""
    rows = thinned(n)
    return rows if order is None else np.asarray(order)[rows]


def show_rows(ax, shown, n: int, **kwargs):
    """``ax.imshow`` of the rows and columns :func:`shown_rows` picked out of an N x N
    image (``shown``), with pixel centres at their original positions 0 .. N-1."""
    return ax.imshow(shown, extent=(-0.5, n - 0.5, n - 0.5, -0.5), **kwargs)


def show_square(ax, image, order=None, **kwargs):
    """``ax.imshow`` of an N x N (x 3) image, rows and columns taken in ``order``
    (default: as they are), at most :data:`MAX_SHOWN` of them; pixel centres stay
    at the original positions 0 .. N-1."""
    n = image.shape[0]
    rows = shown_rows(n, order)
    shown = image if order is None and rows.shape[0] == n else image[np.ix_(rows, rows)]
    return show_rows(ax, shown, n, **kwargs)
