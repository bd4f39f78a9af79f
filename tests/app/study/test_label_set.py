"""SSBD's Remark 17.3 (seed 001) with numbers (svmlab.study.label_set)."""

import math

import numpy as np
import pytest

import svmcore
from svmlab.study.label_set import remark_17_3

# Tolerance table ------------------------------------------------------------------------
TOL_NO_K = 1e-12  # the bounds with one more (zero) class block vs without it (absolute)
TOL_OBJECTIVE_REL = 1e-12  # hinge + λ/2 B² vs the run's recorded objective (relative)


X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])  # w_c = x of class c


def test_remark_17_3_by_hand():
    # scores S = X Wᵀ: the true class scores 1, the others ≤ 0, so the 0-1 generalized
    # hinge is max(0, 1 + 0 − 1) = 0 for every point; ρ = 2 max ‖x‖ = 2; ‖w_c‖ = 1, B = √3
    r = remark_17_3(X, [0, 1, 2], W, bias=False, T=100)
    assert (r.k, r.d_tilde, r.dim_psi, r.m) == (3, 2, 6, 3)
    assert r.rho == 2.0 and r.hinge == 0.0
    np.testing.assert_allclose(r.block_norms, [1.0, 1.0, 1.0])
    assert r.B == pytest.approx(math.sqrt(3))
    assert r.corollary_17_1 == pytest.approx(math.sqrt(8 * 4 * 3 / 3))  # √(8ρ²B²/m)
    assert r.corollary_17_2 == pytest.approx(math.sqrt(3) * 2 / 10)  # Bρ/√T


def test_the_bounds_have_no_explicit_k():
    # one more class, its block zero: Ψ's dimension grows, ρ, B, the loss and both terms do not
    r3 = remark_17_3(X, [0, 1, 2], W, bias=False, T=100)
    r4 = remark_17_3(X, [0, 1, 2], np.vstack([W, np.zeros(2)]), bias=False, T=100)
    assert (r3.dim_psi, r4.dim_psi) == (6, 8)
    for name in ("rho", "B", "hinge", "corollary_17_1", "corollary_17_2"):
        assert getattr(r4, name) == pytest.approx(getattr(r3, name), abs=TOL_NO_K), name


def test_the_runs_hinge_is_svmcores():
    rng = np.random.default_rng(0)
    Xr = np.vstack([rng.normal(c, 0.6, (15, 2)) for c in ([0, 0], [3, 0], [0, 3])])
    yr = np.repeat([0, 1, 2], 15)
    res = svmcore.multiclass_pegasos(Xr, yr, lam=0.01, T=2000, random_state=0)
    s = res.trace.snapshots
    r = remark_17_3(Xr, yr, s["W"][-1], delta=res.delta, bias=True)
    regularizer = 0.01 / 2 * r.B**2
    assert r.hinge + regularizer == pytest.approx(float(s["objective"][-1]), rel=TOL_OBJECTIVE_REL)
    assert r.rho == pytest.approx(2 * np.sqrt(np.max(np.sum(Xr**2, axis=1) + 1)))


def test_bad_shapes_say_which():
    with pytest.raises(ValueError, match="W must be"):
        remark_17_3(X, [0, 1, 2], W[:, :1], bias=False)
    with pytest.raises(ValueError, match="y_idx"):
        remark_17_3(X, [0, 1, 5], W, bias=False)
