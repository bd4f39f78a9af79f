"""Seed 004 §1.1–§1.2 with numbers (svmlab.study.kernel_alpha): objectives (4) and (5) in α,
the representer argument, Mercer's condition.

Hand computations on Lin's four points x = (0,0), (2,2), (2,0), (3,0), y = −1, −1, +1, +1
with the linear kernel, K = XXᵀ = [[0,0,0,0], [0,8,4,6], [0,4,4,6], [0,6,6,9]].
"""

import math

import numpy as np
import pytest

import svmcore
from svmlab.study.kernel_alpha import distance_gram, gram_spectrum, objective_5, representer

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-12  # hand values on Lin's integer data (absolute)
TOL_HAND_W = 1e-15  # the representer's w = Σ α_j x_j by hand: exact binary fractions
TOL_PEGASOS_REL = 1e-12  # (5) vs kernel Pegasos' own objective (16.5) (relative)
TOL_EXPLICIT_REL = 1e-10  # the explicit w vs the kernel form, relative to max(1, αᵀKα)
TOL_TRACE = 1e-10  # the eigenvalues of the distance matrix sum to its trace 0 (absolute)


X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])
K = X @ X.T
A = np.array([0.0, -0.25, 0.5, 0.0])  # w = Σ α_j x_j = −¼(2,2) + ½(2,0) = (½, −½)


def test_objective_5_by_hand():
    # Kα = (0, 0, 1, 1.5): y(Kα) = (0, 0, 1, 1.5), hinge mean (1 + 1 + 0 + 0)/4 = ½;
    # αᵀKα = ½; seed 004's λ = 0.05: (5) = ½ + 0.05·½
    ob = objective_5(K, Y, A, 0.05)
    assert ob.hinge == pytest.approx(0.5, abs=TOL_HAND)
    assert ob.quadratic_matrix == pytest.approx(0.5, abs=TOL_HAND)
    assert ob.quadratic_sum == pytest.approx(0.5, abs=TOL_HAND)
    assert ob.value == pytest.approx(0.525, abs=TOL_HAND) and ob.value_4 == ob.value
    # class weights c = (2, 2, 1, 1): hinge (2 + 2)/4 = 1
    assert objective_5(K, Y, A, 0.05, c=np.array([2.0, 2, 1, 1])).hinge == pytest.approx(1.0)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_objective_5_is_kernel_pegasos_objective_with_half_lambda(kernel, class_weight):
    kern = svmcore.make_kernel(kernel, gamma=0.5, degree=2, coef0=1.0)
    lam = 0.1
    res = svmcore.kernel_pegasos(
        X, Y, kernel=kern, lam=lam, T=200, random_state=0, class_weight=class_weight
    )
    c = np.where(Y > 0, 4 / (2 * 2), 4 / (2 * 2)) if class_weight else None  # N₊ = N₋ = 2
    ob = objective_5(kern(X), Y, res.alpha, lam / 2, c)
    assert ob.value == pytest.approx(
        res.objective, rel=TOL_PEGASOS_REL
    )  # seed 004's λ = SSBD's λ/2


def test_representer_by_hand_and_for_the_polynomial_kernel():
    rep = representer(X, A, svmcore.linear())
    np.testing.assert_allclose(rep.w, [0.5, -0.5], atol=TOL_HAND_W)
    np.testing.assert_allclose(rep.f_explicit, [0.0, 0.0, 1.0, 1.5], atol=TOL_HAND)
    assert rep.norm2_explicit == pytest.approx(0.5) and rep.max_difference < TOL_HAND
    rng = np.random.default_rng(0)
    Xr, a = rng.normal(size=(30, 2)), rng.normal(size=30)
    for Q in (2, 3):
        kern = svmcore.make_kernel("poly", degree=Q, gamma=0.7, coef0=1.0)
        rep = representer(Xr, a, kern)
        assert rep.max_difference < TOL_EXPLICIT_REL * max(1.0, rep.norm2_kernel)
    with pytest.raises(ValueError, match="infinite-dimensional"):
        representer(X, A, svmcore.rbf(1.0))


def test_gram_spectrum_of_lins_points_by_hand():
    # K = XXᵀ has rank 2; its non-zero eigenvalues are XᵀX's: trace 21, det 52
    spec = gram_spectrum(K)
    roots = sorted([(21 - math.sqrt(233)) / 2, (21 + math.sqrt(233)) / 2])
    np.testing.assert_allclose(spec.eigenvalues, [0.0, 0.0, *roots], atol=TOL_HAND)
    assert spec.psd and spec.n_negative == 0 and spec.smallest >= -spec.tol
    assert gram_spectrum(svmcore.rbf(1.0)(X)).psd


def test_the_distance_function_is_no_kernel():
    # −‖x − x′‖²: zero diagonal, eigenvalues summing to 0, one of them negative
    D = distance_gram(X)
    assert np.trace(D) == 0.0 and D[0, 1] == -8.0
    spec = gram_spectrum(D)
    assert not spec.psd and spec.n_negative >= 1
    assert float(np.sum(spec.eigenvalues)) == pytest.approx(0.0, abs=TOL_TRACE)
