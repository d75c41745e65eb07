"""Shared test fixtures: the seed documents' data; how a parallel run hands out the files.

Helpers that tests import live in ``cases.py``, never here: ``tests/e2e`` has a conftest too,
and whichever a worker loads first is the module ``conftest``."""
import os

# One thread per native pool (BLAS, scikit-learn's OpenMP) in every test process and in
# what it starts (notebook kernels, the command line): the run is parallel already, one
# worker per core (pytest-xdist). Several threads per worker on a busy 2-core machine made
# scikit-learn's KMeans 40 times slower (notebook 08's choose_k: 105 s, one thread 2.4 s).
# Set before NumPy loads; tests/test_threads.py sets its own limits around what it checks.
for _pool in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_pool, "1")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from prayatul_edu import tutorial  # noqa: E402

# In CI (.ci/run sets CI) the property tests draw the same examples on every run, so a red
# build means a change broke something, not that this run drew a new example; run locally,
# they explore new examples every time (which is how bugs are found: fix them, then add a
# plain test of the case).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def exercise2():
    """Tutorial Exercise 2: 10 examples, 3 classes, 3 clusters."""
    return tutorial.EXERCISE_2_CLASSES, tutorial.EXERCISE_2_CLUSTERS


@pytest.fixture(scope="module")
def questions():
    """``questions(qid, seed)``: one exercise question per (qid, seed), shared by the tests
    of a module (a question keeps its slips once computed; a class of 40 is costly)."""
    import prayatul_edu.exercises as ex

    made = {}

    def get(qid, seed=None):
        if (qid, seed) not in made:
            made[qid, seed] = ex.question(qid, seed=seed)
        return made[qid, seed]
    return get


# -------------------------------------------------- how a parallel run hands out files
#: The files that keep one worker longest, longest first (seconds of one worker in a
#: whole run, --durations=0, on a busy 2-core machine). A parallel run (pytest-xdist,
#: ``--dist loadfile``) hands whole files out in this order, then the others as
#: collected: started last, a long file would keep one worker busy while the other idles.
FIRST = (
    "tests/e2e/",                       # the browser tests: several minutes
    "tests/test_widgets.py",            # 156
    "tests/test_grading_hostile.py",    # 104 (one batch of 57 notebooks, each in a sandbox)
    "tests/test_exercises.py",          # 67
    "tests/test_grading.py",            # 64
    "tests/test_function_questions.py",  # 60 (eight notebooks graded, each in a sandbox)
    "tests/test_exercise_notebooks.py",  # 55
    "tests/test_many_labels.py",        # 43
    "tests/test_docs.py",               # 39 (a Sphinx build)
    "tests/test_dask.py",               # 39
    "tests/test_assignment_cycle.py",   # 34
    "tests/test_exercise_slips.py",     # about 30 (every slip of 01-06 on a class of 40)
    "tests/test_grading_dask.py",       # 30
    "tests/test_exercise_feedback.py",  # 30
    "tests/test_grading_sandbox.py",    # 24
    "tests/test_hierarchy.py",          # 22
    "tests/test_adjusted_information.py",  # 19
)


def pytest_configure(config):
    # xdist would hand out the files with the most tests first, whatever they cost
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items):
    def rank(item):
        path = item.nodeid.split("::", 1)[0]
        return next((k for k, first in enumerate(FIRST) if path.startswith(first)), len(FIRST))

    items.sort(key=rank)   # stable: each file's tests (a notebook's cells) keep their order
