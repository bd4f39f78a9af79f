"""Explicit feature maps (svmcore.feature_maps)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmcore
from svmcore import datasets
from svmcore.feature_maps import (
    phi2,
    rbf_taylor_features,
    rbf_truncation_error,
    seed004_circle_map,
)

# Tolerance table ------------------------------------------------------------------------
TOL_GRAM = 1e-12  # Φ₂Φ₂ᵀ vs svmcore.polynomial(degree=2) Gram, relative (to max |K|)
TOL_HAND = 1e-15  # Φ₂ worked example by hand, absolute
TOL_MANY_TERMS = 1e-10  # truncated Gaussian map: its error for many terms (17) stays below
TOL_TAIL = 1e-15  # truncated Gaussian map vs the closed-form tail, absolute
# seed 004 circle: sign(⟨w, φ(x)⟩) = y exactly


def test_phi2_by_hand():
    # x = (1, 2), γ = 2, ζ = 3: (ζ, √(2γζ)x₁, √(2γζ)x₂, γx₁², √2γx₁x₂, γx₂²)
    # = (3, √12, 2√12, 2, 4√2, 8); its square norm 9 + 12 + 48 + 4 + 32 + 64 = 169
    # = (ζ + γ‖x‖²)² = (3 + 10)².
    F = phi2([[1.0, 2.0]], gamma=2.0, coef0=3.0)
    s12 = math.sqrt(12.0)
    np.testing.assert_allclose(
        F, [[3.0, s12, 2 * s12, 2.0, 4 * math.sqrt(2.0), 8.0]], atol=TOL_HAND
    )
    assert F[0] @ F[0] == pytest.approx(169.0, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    d=st.integers(1, 4),
    gamma=st.floats(0.01, 10.0),
    coef0=st.floats(0.0, 5.0),
)
def test_phi2_gram_is_the_polynomial_kernel(seed, d, gamma, coef0):
    X = np.random.default_rng(seed).normal(size=(12, d))
    F = phi2(X, gamma=gamma, coef0=coef0)
    assert F.shape == (12, 1 + d + d * (d + 1) // 2)
    K = svmcore.polynomial(degree=2, gamma=gamma, coef0=coef0)(X)
    assert np.max(np.abs(F @ F.T - K)) <= TOL_GRAM * np.max(np.abs(K))


def test_phi2_is_not_the_primal_qp_map():
    # svmcore.phi2 (seed 003's (1, x, x⊗x)) is the kernel 1 + xᵀx′ + (xᵀx′)²; Lin's Φ₂ with
    # γ = ζ = 1 is (1 + xᵀx′)² = 1 + 2xᵀx′ + (xᵀx′)²: they differ by xᵀx′.
    X = np.array([[1.0, 2.0], [-0.5, 3.0]])
    A, B = svmcore.phi2(X), phi2(X, gamma=1.0, coef0=1.0)
    np.testing.assert_allclose(B @ B.T - A @ A.T, X @ X.T, atol=1e-12)


def test_seed004_circle_is_separated_by_w():
    X, y = datasets.load("circle", n=200, random_state=4)
    Phi = seed004_circle_map(X)
    np.testing.assert_array_equal(Phi[:, 0], 1.0)
    np.testing.assert_array_equal(np.sign(Phi @ np.array([-1.0, 1.0, 1.0])), y)
    # By hand: φ(½, −2) = (1, ¼, 4), ⟨w, φ⟩ = −1 + ¼ + 4 > 0, outside the circle.
    assert seed004_circle_map([[0.5, -2.0]]).tolist() == [[1.0, 0.25, 4.0]]


def test_rbf_taylor_error_decreases_to_zero():
    X = np.random.default_rng(0).uniform(-1.0, 1.0, (15, 2))
    errors = [rbf_truncation_error(X, gamma=0.5, n_terms=N) for N in range(1, 21)]
    assert np.all(np.diff(errors) < 0)  # strictly, down to ~1e-14 (then rounding)
    assert errors[16] < TOL_MANY_TERMS  # 17 terms (measured 2.9e-11)
    assert errors[0] > 0.1  # one term (the envelope alone) is far off


def test_rbf_truncation_error_closed_form_tail():
    # One point x = (1, 0), γ = ½, n_terms = 2: K(x, x) = 1 while the truncation keeps
    # e^{−2γ‖x‖²} (1 + 2γ‖x‖²) = e^{−1} · 2, so the error is 1 − 2/e.
    assert rbf_truncation_error([[1.0, 0.0]], gamma=0.5, n_terms=2) == pytest.approx(
        1.0 - 2.0 / math.e, abs=TOL_TAIL
    )
    # A pair x = (1, 0), x′ = (½, ½), γ = 1, three terms: xᵀx′ = ½, so
    # K_trunc = e^{−γ(1 + ½)} (1 + 1 + ½) and the tail is e^{−1.5} (e − 2.5).
    F = rbf_taylor_features([[1.0, 0.0], [0.5, 0.5]], gamma=1.0, n_terms=3)
    K = svmcore.rbf(1.0)([[1.0, 0.0]], [[0.5, 0.5]])[0, 0]
    assert K - F[0] @ F[1] == pytest.approx(math.exp(-1.5) * (math.e - 2.5), abs=TOL_TAIL)


def test_rbf_taylor_features_columns():
    # d = 2, n_terms = 3: degrees 0, 1, 2 give 1 + 2 + 3 = 6 monomials, C(4, 2) = 6;
    # column 0 is the envelope e^{−γ‖x‖²}.
    X = np.array([[0.3, -0.4]])
    F = rbf_taylor_features(X, gamma=2.0, n_terms=3)
    assert F.shape == (1, 6)
    assert F[0, 0] == pytest.approx(math.exp(-2.0 * 0.25), abs=1e-15)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: phi2([[1.0, 2.0]], gamma=0.0, coef0=1.0), "gamma"),
        (lambda: phi2([[1.0, 2.0]], gamma=1.0, coef0=-1.0), "coef0"),
        (lambda: seed004_circle_map([[1.0, 2.0, 3.0]]), "2 features"),
        (lambda: rbf_taylor_features([[1.0]], gamma=1.0, n_terms=0), "n_terms"),
        (lambda: rbf_taylor_features(np.ones((2, 10)), gamma=1.0, n_terms=30), "MAX_FEATURES"),
        (lambda: rbf_truncation_error([[np.nan, 1.0]], gamma=1.0, n_terms=3), "finite"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
