"""One view of the native libraries' thread pools (prayatul_edu._threads), shared by the
silhouette (BLAS on one thread meanwhile) and the apps' clusterings (everything on one
thread), which must see scikit-learn's OpenMP runtime to limit it."""
import subprocess
import sys

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

import prayatul_edu  # noqa: F401
from prayatul_edu._threads import thread_pools
from prayatul_edu.widgets import data

sil_module = sys.modules["prayatul_edu.silhouette"]


def _threads_now() -> list:
    """(user API, threads) of every loaded pool, as a fresh search finds them now."""
    return [(pool["user_api"], pool["num_threads"]) for pool in threadpool_info()]


def test_one_view_is_made_and_shared():
    first = thread_pools()
    assert thread_pools() is first
    with_sklearn = thread_pools(scikit_learn=True)
    assert thread_pools() is with_sklearn is thread_pools(scikit_learn=True)
    assert "openmp" in {pool.user_api for pool in with_sklearn.lib_controllers}


def test_a_view_made_before_scikit_learn_is_made_again_for_it():
    """In a fresh interpreter the silhouette makes the view before scikit-learn is loaded
    (so without its OpenMP runtime); the apps' clusterings then get a view that has it,
    and the silhouette uses that one from then on."""
    code = """
import sys
import numpy as np
import prayatul_edu as pe
from prayatul_edu._threads import thread_pools
rng = np.random.default_rng(0)
pe.silhouette(rng.normal(size=(300, 2)), rng.integers(0, 3, 300), method="fast")
assert "sklearn" not in sys.modules
before = thread_pools()
from prayatul_edu.widgets.data import clustering
labels = clustering(("blobs", 60, 0.05, 0), "KMeans", 3, 0.3)
after = thread_pools()
assert thread_pools(scikit_learn=True) is after is not before
def openmp(view):
    return {pool.filepath for pool in view.lib_controllers if pool.user_api == "openmp"}
print(len(openmp(after) - openmp(before)))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) >= 1                 # scikit-learn's runtime: only in the new view


def test_the_apps_clusterings_run_every_pool_on_one_thread(monkeypatch):
    """Inside an app's clustering every BLAS and OpenMP pool runs one thread, OpenMP's
    too (4 around it: a view without scikit-learn's runtime would leave it at 4)."""
    seen, real = [], data.cluster

    def cluster(X, algorithm, **params):
        seen.extend(_threads_now())
        return real(X, algorithm, **params)

    monkeypatch.setattr(data, "cluster", cluster)
    with threadpool_limits(limits=4, user_api="openmp"):
        labels = data.clustering.__wrapped__(("blobs", 50, 0.05, 7), "KMeans", 3, 0.3)
        assert {n for api, n in _threads_now() if api == "openmp"} == {4}   # restored
    assert labels.shape == (50,) and not labels.flags.writeable
    assert ("openmp", 1) in seen and {n for _, n in seen} == {1}


def test_the_silhouette_runs_blas_on_one_thread_meanwhile(monkeypatch):
    """The silhouette's tiles (their products are BLAS's) run with BLAS on one thread,
    limited through the shared view."""
    seen, real = [], sil_module._segment_sums

    def segment_sums(*args, **kwargs):
        seen.extend(_threads_now())
        return real(*args, **kwargs)

    monkeypatch.setattr(sil_module, "_segment_sums", segment_sums)
    rng = np.random.default_rng(1)
    with threadpool_limits(limits=2, user_api="blas"):
        sil_module.silhouette(rng.normal(size=(300, 10)), rng.integers(0, 3, 300),
                              method="fast")
        assert {n for api, n in _threads_now() if api == "blas"} == {2}     # restored
    assert seen and {n for api, n in seen if api == "blas"} == {1}


def test_import_prayatul_edu_loads_no_thread_library():
    """``import prayatul_edu`` needs NumPy only: threadpoolctl (and through it nothing of
    scikit-learn) is loaded when a view is first asked for, not before."""
    code = ("import sys, prayatul_edu, prayatul_edu._threads; "
            "print(sorted(m for m in ('threadpoolctl', 'sklearn', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
