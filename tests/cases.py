"""Cases shared by the tests of several modules: edge-case labelings, hypothesis strategies."""
import numpy as np
from hypothesis import strategies as st


def random_labelings(seed, n=None, k_truth=None, k_pred=None):
    rng = np.random.default_rng(seed)
    n = n if n is not None else int(rng.integers(2, 300))
    k_truth = k_truth if k_truth is not None else int(rng.integers(1, 12))
    k_pred = k_pred if k_pred is not None else int(rng.integers(1, 12))
    return rng.integers(0, k_truth, n), rng.integers(0, k_pred, n)


@st.composite
def partitions(draw, max_n=40, max_k=6):
    n = draw(st.integers(2, max_n))
    label = st.integers(0, max_k - 1)
    truth = draw(st.lists(label, min_size=n, max_size=n))
    pred = draw(st.lists(label, min_size=n, max_size=n))
    return truth, pred


@st.composite
def relabelings(draw, max_k=6):
    """A bijection of 0..max_k-1 onto arbitrary distinct hashable labels."""
    perm = draw(st.permutations(range(max_k)))
    style = draw(st.sampled_from(["int", "str", "shifted"]))
    if style == "str":
        return {i: f"L{perm[i]}" for i in range(max_k)}
    if style == "shifted":
        return {i: 100 * perm[i] - 1 for i in range(max_k)}
    return {i: perm[i] for i in range(max_k)}


#: Edge cases on which the library must agree with scikit-learn.
EDGE_CASES = {
    "one cluster": ([0, 0, 1, 1, 2, 2, 2], [5] * 7),
    "one class": ([9] * 6, [0, 1, 1, 2, 2, 2]),
    "both one group": (["a"] * 4, [3] * 4),
    "all singletons": ([0, 0, 1, 1, 2], [10, 11, 12, 13, 14]),
    "both all singletons": ([0, 1, 2, 3], ["d", "c", "b", "a"]),
    "string labels": (["cat", "dog", "dog", "cat", "eel", "eel"],
                      ["x", "x", "y", "y", "y", "z"]),
    "noise label -1": ([0, 0, 0, 1, 1, 1, 2, 2], [-1, 0, 0, 1, 1, -1, -1, 2]),
    "identical": ([1, 1, 2, 2, 3], [1, 1, 2, 2, 3]),
    "two instances": ([0, 1], [0, 0]),
}
