"""Kernels against scikit-learn's pairwise kernels and the lectures' formulas."""

import pickle

import numpy as np
import pytest
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

import svmcore
from svmcore.kernels import Kernel, make_kernel, squared_distances

# Tolerance table ------------------------------------------------------------------------
TOL_SKLEARN = 1e-12  # Gram matrices against sklearn.metrics.pairwise, absolute
TOL_FORMULA = 1e-14  # against the formula evaluated pair by pair, absolute

rng = np.random.default_rng(0)
X = rng.normal(size=(30, 3))
Z = rng.normal(size=(20, 3))


@pytest.mark.parametrize(
    ("kernel", "reference"),
    [
        (svmcore.linear(), lambda A, B: linear_kernel(A, B)),
        (svmcore.polynomial(3, 0.5, 1.0), lambda A, B: polynomial_kernel(A, B, 3, 0.5, 1.0)),
        (svmcore.polynomial(2, 2.0, 0.0), lambda A, B: polynomial_kernel(A, B, 2, 2.0, 0.0)),
        (svmcore.rbf(0.7), lambda A, B: rbf_kernel(A, B, gamma=0.7)),
        (svmcore.rbf_sigma(2.0), lambda A, B: rbf_kernel(A, B, gamma=0.5)),
    ],
)
def test_gram_matches_sklearn(kernel, reference):
    np.testing.assert_allclose(kernel(X, Z), reference(X, Z), rtol=0, atol=TOL_SKLEARN)
    np.testing.assert_allclose(kernel(X), reference(X, X), rtol=0, atol=TOL_SKLEARN)
    assert kernel(X, Z).shape == (30, 20)
    np.testing.assert_allclose(kernel.diag(X), np.diag(reference(X, X)), atol=TOL_SKLEARN)


def test_seed003_polynomial_formula_and_phi2():
    # K_Q(x, x') = (ζ + γ xᵀx')^Q; with ζ = 1, γ = 1, Q = 2 it is Φ₂'s inner product
    # 1 + 2xᵀx' + (xᵀx')² (seed 003, "General Poly-2 Kernel").
    k = svmcore.polynomial(degree=2, gamma=1.0, coef0=1.0)
    for a, b in zip(X[:5], Z[:5], strict=True):
        ip = a @ b
        assert abs(k(a[None], b[None])[0, 0] - (1 + 2 * ip + ip**2)) < 1e-12
    k3 = svmcore.polynomial(degree=3, gamma=0.3, coef0=2.0)
    assert abs(k3(X[:1], Z[:1])[0, 0] - (2.0 + 0.3 * X[0] @ Z[0]) ** 3) < TOL_FORMULA * 100


def test_rbf_forms_agree_and_distance_is_not_squared_twice():
    # exp(−γ‖x − x'‖²) with the *squared* distance once (a known bug squares it twice)
    a, b = np.array([[0.0, 0.0]]), np.array([[2.0, 0.0]])
    assert svmcore.rbf(0.5)(a, b)[0, 0] == pytest.approx(np.exp(-0.5 * 4.0), abs=TOL_FORMULA)
    assert svmcore.rbf_sigma(2.0)(a, b)[0, 0] == pytest.approx(np.exp(-4.0 / 2.0))
    assert svmcore.rbf_sigma(2.0) != svmcore.rbf(0.5)  # the σ-form is remembered for the UI
    assert svmcore.kernels.gaussian(2.0) == svmcore.rbf_sigma(2.0)
    assert "sigma" in svmcore.rbf_sigma(2.0).latex


def test_squared_distances_clipped_and_zero_diagonal():
    big = np.array([[1e8, 1e8], [1e8 + 1e-8, 1e8]])
    D = squared_distances(big, big, same=True)
    assert np.all(D >= 0) and np.all(np.diag(D) == 0)
    assert np.all(svmcore.rbf(1.0)(big) <= 1.0)


def test_kernel_is_hashable_comparable_pickleable():
    a, b = svmcore.rbf(0.5), svmcore.rbf(0.5)
    assert a == b and hash(a) == hash(b)
    assert svmcore.rbf(0.5) != svmcore.rbf(0.6)
    assert len({a, b, svmcore.linear()}) == 2
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.gamma = 2.0  # frozen
    assert isinstance(make_kernel("poly", gamma=1.0, degree=2, coef0=1.0), Kernel)
    assert make_kernel(a) is a


def test_descriptions_for_the_ui():
    k = svmcore.polynomial(degree=3, gamma=0.5, coef0=1.0)
    assert k.params == {"degree": 3, "gamma": 0.5, "coef0": 1.0}
    assert r"\zeta" in k.latex and "^{Q}" in k.latex
    assert "0.5" in k.latex_values and "^{3}" in k.latex_values
    assert svmcore.linear().params == {}


def test_polynomial_overflow_raises_instead_of_inf():
    Xbig = np.full((2, 2), 1e30)
    with pytest.raises(ValueError, match="overflow"):
        svmcore.polynomial(degree=20, gamma=1.0, coef0=1.0)(Xbig)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: svmcore.rbf(0.0), "gamma must be > 0"),
        (lambda: svmcore.rbf(-1.0), "gamma must be > 0"),
        (lambda: svmcore.rbf(float("nan")), "gamma must be finite"),
        (lambda: svmcore.rbf_sigma(0.0), "sigma must be > 0"),
        (lambda: svmcore.polynomial(degree=0), "degree must be >= 1"),
        (lambda: svmcore.polynomial(degree=2.5), "degree must be an integer"),
        (lambda: svmcore.polynomial(coef0=-1.0), "coef0 must be >= 0"),
        (lambda: make_kernel("sigmoid"), "kernel must be"),
        (lambda: svmcore.linear()(np.ones((2, 2)), np.ones((2, 3))), "same number of features"),
    ],
)
def test_bad_kernel_parameters(make, match):
    with pytest.raises(ValueError, match=match):
        make()
