"""The Hopkins statistic: a brute-force recomputation, 0.5 on uniform data, near 1 on
clusters, below 0.5 on a grid, the Beta(m, m) law, any scale, bad input."""
import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist

import prayatul_edu as pe
from prayatul_edu import hopkins_statistic


def _brute_force(X, probes, sample, d):
    """H from the definition, with the whole distance matrices."""
    u = cdist(probes, X).min(axis=1)                         # probe -> nearest data point
    D = cdist(X[sample], X)
    D[np.arange(len(sample)), sample] = np.inf               # not itself
    w = D.min(axis=1)                                        # -> nearest other point
    return (u ** d).sum() / ((u ** d).sum() + (w ** d).sum()), u, w


@pytest.mark.parametrize("shape", [(200, 2), (150, 5), (40, 1), (12, 3)])
def test_hopkins_equals_the_brute_force_definition(shape):
    rng = np.random.default_rng(shape[0])
    X = rng.normal(size=shape) * [3.0] + rng.integers(0, 3, shape[0])[:, None] * 4
    h = hopkins_statistic(X, seed=1)
    H, u, w = _brute_force(X, h.probes, h.sample, shape[1])
    assert h.exponent == shape[1]
    np.testing.assert_allclose(h.u, u, rtol=1e-9)
    np.testing.assert_allclose(h.w, w, rtol=1e-9)
    assert float(h) == pytest.approx(H, rel=1e-9)
    assert len(set(h.sample.tolist())) == h.n_probes         # sampled without repeats
    assert (h.probes >= X.min(axis=0)).all() and (h.probes <= X.max(axis=0)).all()


def test_default_number_of_probes():
    rng = np.random.default_rng(0)
    assert hopkins_statistic(rng.normal(size=(1000, 2)), seed=0).n_probes == 100
    assert hopkins_statistic(rng.normal(size=(50, 2)), seed=0).n_probes == 10
    assert hopkins_statistic(rng.normal(size=(7, 2)), seed=0).n_probes == 7
    assert hopkins_statistic(rng.normal(size=(50, 2)), n_probes=3, seed=0).n_probes == 3


def test_uniform_data_give_about_one_half():
    values = [float(hopkins_statistic(np.random.default_rng(100 + s).uniform(size=(1000, 2)),
                                      seed=s)) for s in range(40)]
    # Beta(100, 100): mean 0.5, sd 0.035 (edge effects: 0.04 measured); 40 draws: the
    # mean within 0.5 +- 0.03 (about 4.7 standard errors)
    assert abs(np.mean(values) - 0.5) < 0.03
    assert all(0.3 < v < 0.7 for v in values)


def test_blobs_give_more_than_0_8():
    from sklearn.datasets import make_blobs

    X, _ = make_blobs(600, centers=3, random_state=0)
    h = hopkins_statistic(X, seed=0)
    assert h > 0.8
    assert h.p_value < 1e-6                                  # far in Beta(60, 60)'s tail


def test_a_grid_is_more_regular_than_random():
    g = np.arange(30.0)
    X = np.array([(a, b) for a in g for b in g])
    assert hopkins_statistic(X, seed=0) < 0.3


def test_p_value_is_beta_m_m_upper_tail():
    X = np.random.default_rng(3).uniform(size=(300, 2))
    h = hopkins_statistic(X, n_probes=25, seed=4)
    assert h.p_value == pytest.approx(stats.beta.sf(float(h), 25, 25), rel=1e-9)


def test_constant_features_do_not_count_in_the_power():
    rng = np.random.default_rng(5)
    X = np.c_[rng.normal(size=(100, 2)), np.full(100, 7.0)]
    h = hopkins_statistic(X, seed=0)
    assert h.exponent == 2
    assert float(h) == pytest.approx(_brute_force(X, h.probes, h.sample, 2)[0], rel=1e-9)
    assert (h.probes[:, 2] == 7.0).all()                     # the box is flat there


@pytest.mark.parametrize("factor", [1e160, 1e-9, 1e-300])
def test_any_scale_gives_the_same_value(factor):
    X = np.random.default_rng(6).normal(size=(200, 3))
    assert float(hopkins_statistic(X * factor, seed=2)) == pytest.approx(
        float(hopkins_statistic(X, seed=2)), rel=1e-9)


def test_high_dimension_neither_overflows_nor_underflows():
    rng = np.random.default_rng(7)
    X = np.r_[rng.normal(0, 0.01, (100, 300)), rng.normal(1, 0.01, (100, 300))]
    h = hopkins_statistic(X, seed=0)                         # u^300, w^300 out of float range
    assert 0.99 < h <= 1.0


def test_duplicates_give_w_zero():
    X = np.repeat(np.random.default_rng(8).normal(size=(20, 2)), 2, axis=0)
    h = hopkins_statistic(X, n_probes=40, seed=0)
    assert (h.w == 0).all() and float(h) == 1.0


def test_random_state_is_seed():
    X = np.random.default_rng(9).normal(size=(100, 2))
    a, b = hopkins_statistic(X, seed=3), hopkins_statistic(X, random_state=3)
    assert float(a) == float(b) and (a.sample == b.sample).all()
    assert float(hopkins_statistic(X, seed=3, random_state=3)) == float(a)
    with pytest.raises(ValueError, match="^random_state: is another name for seed"):
        hopkins_statistic(X, seed=3, random_state=4)


def test_derivation_names_the_convention():
    h = hopkins_statistic(np.random.default_rng(0).normal(size=(30, 2)), seed=0)
    text = h.explain()
    assert "1 - H" in text and "Beta(10, 10)" in text and f"H = {float(h):.4f}"[:8] in text


@pytest.mark.parametrize("call, error, start", [
    (lambda: hopkins_statistic([[1.0, 2.0]]), ValueError, "X:"),
    (lambda: hopkins_statistic(np.ones((5, 2))), ValueError, "X:"),
    (lambda: hopkins_statistic(np.eye(5), n_probes=6), ValueError, "n_probes:"),
    (lambda: hopkins_statistic(np.eye(5), n_probes=0), ValueError, "n_probes:"),
    (lambda: hopkins_statistic(np.eye(5), n_probes=2.5), TypeError, "n_probes:"),
    (lambda: hopkins_statistic(np.eye(5), seed="a"), TypeError, "seed:"),
    (lambda: hopkins_statistic(np.eye(5), random_state=-1), ValueError, "random_state:"),
])
def test_bad_input(call, error, start):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).startswith(start), str(info.value)


def test_exported():
    assert pe.hopkins_statistic is hopkins_statistic and "hopkins_statistic" in pe.__all__
