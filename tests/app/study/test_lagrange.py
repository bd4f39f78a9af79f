"""Lin's Lagrange function, strong duality, distance and large-margin bound (seed 003) with
numbers (svmlab.study.lagrange).

Hand computations on Lin's four points x = (0,0), (2,2), (2,0), (3,0), y = −1, −1, +1, +1:
the optimum α = (½, ½, 1, 0), w = (1, −1), b = −1, margin 1/√2.
"""

import math

import numpy as np
import pytest

import svmcore
from svmlab.study.lagrange import (
    ball_radius,
    distances,
    feature_dimension,
    lagrangian_at,
    large_margin_bound,
)

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-12  # hand values on Lin's integer data (absolute)
TOL_SVMCORE_REL = 1e-9  # P, D and the gap vs svmcore's (the same formulas, another order)
TOL_QP = 1e-4  # the QP's accuracy: the duality gap ≈ 0 and ℒ ≈ P (relative to P)


X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])
K = X @ X.T
ALPHA = np.array([0.5, 0.5, 1.0, 0.0])


def test_hard_margin_optimum_p_equals_d_equals_l_by_hand():
    chk = lagrangian_at(K, Y, ALPHA, -1.0)
    # w = ½(−1)(0,0) + ½(−1)(2,2) + 1·(2,0) = (1, −1): ‖w‖² = 2, P = 1
    assert chk.w_norm2 == pytest.approx(2.0, abs=TOL_HAND)
    np.testing.assert_allclose(chk.f, [-1.0, -1.0, 1.0, 2.0], atol=TOL_HAND)
    assert chk.primal == pytest.approx(1.0, abs=TOL_HAND)
    assert chk.dual == pytest.approx(2.0 - 1.0, abs=TOL_HAND)  # Σα − ½‖w‖²
    assert chk.lagrangian == pytest.approx(1.0, abs=TOL_HAND)
    assert chk.inner_max == pytest.approx(1.0, abs=TOL_HAND)
    assert chk.violation == 0.0 and chk.sum_y_alpha == 0.0
    assert chk.slackness == pytest.approx(0.0, abs=TOL_HAND) and chk.gap == pytest.approx(0.0)


def test_away_from_the_optimum_weak_duality_and_the_hidden_constraints():
    # α = (1, 1, 2, 0), b = −1: w = −(2,2) + 2(2,0) = (2,−2), P = 4, f = (−1,−1,3,5),
    # feasible; D = 4 − 4 = 0; ℒ = 4 + Σ α(1 − y f) = 4 + 2·(1 − 3) = 0
    chk = lagrangian_at(K, Y, np.array([1.0, 1.0, 2.0, 0.0]), -1.0)
    assert (chk.primal, chk.dual, chk.lagrangian) == pytest.approx((4.0, 0.0, 0.0), abs=TOL_HAND)
    assert chk.inner_max == pytest.approx(4.0) and chk.gap == pytest.approx(4.0)
    # the optimal α with b = 0: y f = (0, 0, 2, 3) violates y f ≥ 1 by 1, max over α is ∞
    bad = lagrangian_at(K, Y, ALPHA, 0.0)
    assert bad.violation == pytest.approx(1.0) and bad.inner_max == math.inf
    assert bad.dual <= bad.primal  # D ≤ P whatever b


def test_soft_margin_lagrangian_by_hand():
    # C = ½, α = (¼, ¼, ½, 0), b = −½: w = (½, −½), ‖w‖² = ½, f = (−½, −½, ½, 1),
    # ξ = (½, ½, ½, 0): P = ¼ + ½·1.5 = 1, D = 1 − ¼ = ¾, ℒ (β = C − α) = ¼ + Σα(1 − yf) = ¾
    chk = lagrangian_at(K, Y, np.array([0.25, 0.25, 0.5, 0.0]), -0.5, C=0.5)
    np.testing.assert_allclose(chk.xi, [0.5, 0.5, 0.5, 0.0], atol=TOL_HAND)
    assert (chk.primal, chk.dual, chk.lagrangian) == pytest.approx((1.0, 0.75, 0.75), abs=TOL_HAND)
    assert chk.slackness == pytest.approx(0.0, abs=TOL_HAND) and chk.violation == 0.0
    # C = 1: the hard-margin optimum is the soft one (α_3 = C, bounded): P = D = ℒ = 1
    opt = lagrangian_at(K, Y, ALPHA, -1.0, C=1.0)
    assert (opt.primal, opt.dual, opt.lagrangian) == pytest.approx((1.0, 1.0, 1.0), abs=TOL_HAND)


@pytest.mark.parametrize("C", [None, 0.562, 10.0])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_the_dual_solvers_numbers_are_p_and_minus_its_objective(C, kernel):
    rng = np.random.default_rng(0)
    Xr = np.vstack([rng.normal(-2, 0.7, (15, 2)), rng.normal(2, 0.7, (15, 2))])
    yr = np.repeat([-1.0, 1.0], 15)
    kern = svmcore.make_kernel(kernel, gamma=0.5)
    res = svmcore.dual_svm(Xr, yr, kernel=kern, C=C, solver="qp", tol=1e-10)
    chk = lagrangian_at(kern(Xr), yr, res.alpha, res.b, C)
    assert chk.primal == pytest.approx(res.primal_objective, rel=TOL_SVMCORE_REL)
    assert chk.dual == pytest.approx(
        -res.dual_objective, rel=TOL_SVMCORE_REL
    )  # svmcore minimises −D
    assert chk.gap == pytest.approx(res.duality_gap, abs=TOL_SVMCORE_REL * chk.primal)
    assert chk.gap == pytest.approx(0.0, abs=TOL_QP * chk.primal)  # the QP's accuracy
    assert chk.lagrangian == pytest.approx(chk.primal, rel=TOL_QP)


def test_distances_and_margin_by_hand():
    f = X @ np.array([1.0, -1.0]) - 1.0  # (−1, −1, 1, 2)
    dist, margin = distances(f, Y, math.sqrt(2.0))
    np.testing.assert_allclose(dist, np.array([1.0, 1.0, 1.0, 2.0]) / math.sqrt(2.0))
    assert margin == pytest.approx(1.0 / math.sqrt(2.0))
    with pytest.raises(ValueError, match="w_norm"):
        distances(f, Y, 0.0)


def test_large_margin_bound_by_hand():
    # the ball around the mean (7/4, 1/2): the farthest point (0,0) at R² = 49/16 + 1/4 = 53/16
    R = ball_radius(K)
    assert R**2 == pytest.approx(53 / 16, abs=TOL_HAND)
    mb = large_margin_bound(R, 1.0 / math.sqrt(2.0), feature_dimension(svmcore.linear(), 2))
    assert mb.ratio == pytest.approx(53 / 8)  # R²/ρ² = (53/16)/(1/2)
    assert mb.bound == 3.0 and mb.perceptron == 3.0  # min(6.625, 2) + 1 = d + 1
    # a fatter margin than R: R²/ρ² < d bounds below the perceptron's d + 1
    assert large_margin_bound(1.0, 2.0, 5).bound == pytest.approx(1.25)
    with pytest.raises(ValueError, match="ρ must be > 0"):
        large_margin_bound(R, -0.1, 2)


def test_feature_dimensions():
    assert feature_dimension(svmcore.linear(), 2) == 2
    poly = svmcore.make_kernel("poly", degree=2, gamma=1.0, coef0=1.0)
    assert feature_dimension(poly, 2) == 6  # 1, x₁, x₂, x₁², x₁x₂, x₂²
    homog = svmcore.make_kernel("poly", degree=2, gamma=1.0, coef0=0.0)
    assert feature_dimension(homog, 2) == 3  # x₁², x₁x₂, x₂²
    generic = np.random.default_rng(0).normal(size=(40, 2))
    for Q, zeta in ((2, 1.0), (2, 0.0), (3, 1.0), (3, 0.0), (4, 0.5)):
        kern = svmcore.make_kernel("poly", degree=Q, gamma=1.0, coef0=zeta)
        Phi = svmcore.kernel_features(generic, kern)  # its columns not identically zero
        assert feature_dimension(kern, 2) == np.count_nonzero(np.abs(Phi).max(axis=0) > 0)
    assert feature_dimension(svmcore.rbf(1.0), 2) == math.inf
