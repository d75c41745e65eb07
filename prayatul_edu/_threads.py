"""The thread pools of the loaded native libraries (BLAS, OpenMP), seen by threadpoolctl.

Limiting a library's threads needs a view of the loaded libraries, and making one
searches every one of them (5 to 7 ms, as long as a 300-point silhouette): one view is
made and shared. A library loaded after the view was made is not in it, and limits
miss it: scikit-learn's OpenMP runtime, loaded with its clustering algorithms, is one,
so callers that limit scikit-learn ask for it (``scikit_learn=True``).
"""
from __future__ import annotations

import threading

__all__ = ["thread_pools"]

_LOCK = threading.Lock()
#: The shared view (None until first asked for), and whether it was made after
#: scikit-learn's libraries were loaded.
_made = {"pools": None, "with scikit-learn": False}


def thread_pools(*, scikit_learn: bool = False):
    """threadpoolctl's ``ThreadpoolController`` of the loaded libraries, made once.

    ``scikit_learn=True``: the view holds the libraries scikit-learn's clustering and
    mixture models use (its OpenMP runtime) too: they are loaded first, and a view made
    before them is made again (once). Every later call returns that view.

    >>> from prayatul_edu._threads import thread_pools
    >>> thread_pools() is thread_pools()
    True
    """
    with _LOCK:
        if scikit_learn and not _made["with scikit-learn"]:
            import sklearn.cluster  # noqa: F401  (loads scikit-learn's OpenMP runtime)
            import sklearn.mixture  # noqa: F401
            _made.update({"pools": None, "with scikit-learn": True})
        if _made["pools"] is None:
            from threadpoolctl import ThreadpoolController

            _made["pools"] = ThreadpoolController()
        return _made["pools"]
