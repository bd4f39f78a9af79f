"""The polynomial kernel's explicit map and the map of a kernel (svmcore.feature_maps)."""

import math

import numpy as np
import pytest

import svmcore
from svmcore.feature_maps import (
    kernel_features,
    phi2,
    poly_features,
    rbf_taylor_features,
)

# Tolerance table ------------------------------------------------------------------------
TOL_GRAM = 1e-12  # poly_features Gram vs svmcore.polynomial Gram, relative (to max |K|)
TOL_HAND = 1e-15  # poly_features by hand (Q = 1, 2) and against Lin's Φ₂, absolute
# kernel_features vs the maps it picks: exact (the same function's output)


@pytest.mark.parametrize("degree", [1, 2, 3, 5])
@pytest.mark.parametrize("coef0", [0.0, 0.5, 3.0])
def test_poly_features_gram_is_the_polynomial_kernel(degree, coef0):
    rng = np.random.default_rng(17 * degree + int(2 * coef0))  # seeded: a fixed check
    for d in (1, 2, 3):
        X = rng.normal(size=(10, d))
        gamma = float(rng.uniform(0.05, 5.0))
        F = poly_features(X, degree=degree, gamma=gamma, coef0=coef0)
        assert F.shape == (10, math.comb(d + degree, d))
        K = svmcore.polynomial(degree=degree, gamma=gamma, coef0=coef0)(X)
        assert np.max(np.abs(F @ F.T - K)) <= TOL_GRAM * np.max(np.abs(K))


def test_poly_features_degree_2_is_lins_phi2_column_for_column():
    # x = (1, 2), γ = 2, ζ = 3: √(C(2,|m|) ζ^{2−|m|} γ^{|m|} |m|!/m!) x^m over m = (0,0),
    # (1,0), (0,1), (2,0), (1,1), (0,2) is (3, √12, 2√12, 2, 4√2, 8), Lin's Φ₂ by hand.
    F = poly_features([[1.0, 2.0]], degree=2, gamma=2.0, coef0=3.0)
    s12 = math.sqrt(12.0)
    np.testing.assert_allclose(
        F, [[3.0, s12, 2 * s12, 2.0, 4 * math.sqrt(2.0), 8.0]], atol=TOL_HAND
    )
    X = np.random.default_rng(1).normal(size=(7, 2))
    np.testing.assert_allclose(
        poly_features(X, degree=2, gamma=0.7, coef0=1.5),
        phi2(X, gamma=0.7, coef0=1.5),
        atol=TOL_HAND,
    )


def test_poly_features_degree_1_and_zeta_zero_by_hand():
    # Q = 1: (ζ + γ xᵀx′) = (√ζ, √γ x)ᵀ(√ζ, √γ x′).
    F = poly_features([[1.0, -2.0]], degree=1, gamma=4.0, coef0=9.0)
    np.testing.assert_allclose(F, [[3.0, 2.0, -4.0]], atol=TOL_HAND)
    # ζ = 0 keeps only the degree-Q block: (γ xᵀx′)³ has no lower-degree features.
    F = poly_features(np.random.default_rng(2).normal(size=(5, 2)), degree=3, gamma=1.0, coef0=0.0)
    assert np.all(F[:, :6] == 0.0)  # degrees 0, 1, 2: 1 + 2 + 3 columns
    assert np.all(np.any(F[:, 6:] != 0.0, axis=0))


def test_kernel_features_picks_the_map_of_the_kernel():
    X = np.random.default_rng(3).normal(size=(6, 2))
    np.testing.assert_array_equal(kernel_features(X, svmcore.linear()), X)
    np.testing.assert_array_equal(
        kernel_features(X, svmcore.polynomial(2, 0.5, 2.0)), phi2(X, gamma=0.5, coef0=2.0)
    )
    np.testing.assert_array_equal(
        kernel_features(X, svmcore.polynomial(3, 0.5, 2.0)),
        poly_features(X, degree=3, gamma=0.5, coef0=2.0),
    )
    np.testing.assert_array_equal(
        kernel_features(X, svmcore.rbf(0.3), n_terms=7),
        rbf_taylor_features(X, gamma=0.3, n_terms=7),
    )


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: poly_features([[1.0, 2.0]], degree=0, gamma=1.0, coef0=1.0), "degree"),
        (lambda: poly_features([[1.0, 2.0]], degree=2, gamma=-1.0, coef0=1.0), "gamma"),
        (lambda: poly_features([[1.0, 2.0]], degree=2, gamma=1.0, coef0=-1.0), "coef0"),
        (lambda: poly_features(np.ones((2, 10)), degree=20, gamma=1.0, coef0=1.0), "MAX_FEATURES"),
        (lambda: kernel_features([[1.0, 2.0]], "rbf"), "kernel must be a svmcore Kernel"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
