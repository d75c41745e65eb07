"""Shared test fixtures: the seed documents' data, and random labelings."""
import os

import numpy as np
import pytest
from hypothesis import settings

from prayatul_edu import tutorial

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


def random_labelings(seed, n=None, k_truth=None, k_pred=None):
    rng = np.random.default_rng(seed)
    n = n if n is not None else int(rng.integers(2, 300))
    k_truth = k_truth if k_truth is not None else int(rng.integers(1, 12))
    k_pred = k_pred if k_pred is not None else int(rng.integers(1, 12))
    return rng.integers(0, k_truth, n), rng.integers(0, k_pred, n)
