"""The feature-space page's computations (svmlab.study.feature_space)."""

import math

import numpy as np
import pytest

import svmcore
from svmcore.feature_maps import phi2, rbf_taylor_features, rbf_truncation_error
from svmlab.algorithms import ALGORITHMS
from svmlab.study import feature_space as fs

# Tolerance table ------------------------------------------------------------------------
TOL_LIFT = 1e-12  # Φ₂ lift: wᵀΦ₂(x) + b vs Σ_j c_j K(x_j, x) + b, relative (to max |f|)
TOL_BOUNDARY = 1e-9  # lifted boundary: f at the boundary points, relative (to the terms of f)
TOL_CIRCLE = 1e-12  # seed 004's circle by hand: on the unit circle, absolute
TOL_DIRECT = 1e-12  # truncated Gaussian error vs direct computation, absolute
TOL_TAIL = 1e-12  # truncated Gaussian error vs the closed-form tail, absolute
# gram order, seed 004 counts, shapes: exact

PLANE = ((-3.0, 3.0), (-3.0, 3.0))


def model_of(key, X, y, **params):
    """A registry run's last snapshot as a TrainedModel."""
    spec = ALGORITHMS[key]
    return fs.trained_model(spec.view(spec.fit(X, y, params), X, y))


def test_gram_order_by_hand():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    assert fs.gram_order(y).tolist() == [1, 3, 0, 2]
    # class −1: |α| = 0 (point 1), 3 (point 3); class +1: 0.5 (point 0), 2 (point 2)
    assert fs.gram_order(y, [0.5, 0.0, -2.0, 3.0]).tolist() == [3, 1, 2, 0]


def test_trained_model_reads_the_views_coefficients():
    X, y = svmcore.datasets.load("circles", n=40)
    dual = model_of("dual_svm", X, y, kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=10.0)
    res = svmcore.dual_svm(X, y, kernel=svmcore.polynomial(2, 1.0, 1.0), C=10.0)
    np.testing.assert_allclose(dual.coef, res.alpha * y, rtol=0, atol=1e-12)
    assert dual.b == pytest.approx(res.b, abs=1e-12)
    np.testing.assert_allclose(dual.decision(X), res.decision_function(X), atol=1e-9)
    sgd = model_of("kernel_pegasos", X, y, kernel="rbf", gamma=1.0, lam=0.1, T=500, random_state=0)
    run = svmcore.kernel_pegasos(X, y, kernel="rbf", gamma=1.0, lam=0.1, T=500, random_state=0)
    np.testing.assert_array_equal(sgd.coef, run.alpha)
    assert sgd.b == 0.0
    np.testing.assert_array_equal(sgd.support, run.alpha != 0)


@pytest.mark.parametrize(("name", "coef0"), [("moons", 1.0), ("circle", 0.0), ("xor", 2.5)])
def test_phi2_lift_is_the_trained_model_to_1e12(name, coef0):
    X, y = svmcore.datasets.load(name)
    m = model_of("dual_svm", X, y, kernel="poly", degree=2, gamma=0.8, coef0=coef0, C=10.0)
    lift = fs.phi2_lift(m)
    F = phi2(X, gamma=0.8, coef0=coef0)
    np.testing.assert_array_equal(lift.U, F[:, 3:])
    Z = np.random.default_rng(0).uniform(-3, 3, size=(50, 2))
    f_model = m.decision(np.vstack([X, Z]))
    f_lift = phi2(np.vstack([X, Z]), gamma=0.8, coef0=coef0) @ lift.w + lift.b
    assert np.max(np.abs(f_lift - f_model)) <= TOL_LIFT * np.max(np.abs(f_model))
    # the decomposition the page draws: f = w_uᵀu + (w₀ζ + b) + linear part
    parts = lift.U @ lift.w_u + lift.offset + lift.linear_part
    assert np.max(np.abs(parts - m.decision(X))) <= TOL_LIFT * np.max(np.abs(f_model))
    assert lift.exact_plane == (coef0 == 0.0)
    if coef0 == 0.0:
        assert np.all(lift.linear_part == 0.0)


def test_phi2_lift_refuses_other_kernels():
    X, y = svmcore.datasets.load("moons", n=20)
    m = model_of("dual_svm", X, y, kernel="poly", degree=3, gamma=1.0, coef0=1.0, C=1.0)
    with pytest.raises(ValueError, match=r"model\.kernel must be polynomial of degree 2"):
        fs.phi2_lift(m)


def hand_lift(w, b=0.0, gamma=1.0, zeta=0.0):
    w = np.asarray(w, dtype=float)
    return fs.Phi2Lift(np.zeros((0, 3)), w, b, gamma, zeta, np.zeros(0))


def test_describe_lift_says_whether_the_plane_is_the_boundary():
    exact = fs.Phi2Lift(
        np.zeros((1, 3)), np.array([1e-20, 0, 0, 1, 0, 1.0]), -1.0, 1.0, 0.0, np.zeros(1)
    )
    text = fs.describe_lift(exact, 2.0)
    assert "= (0, 0, 0, 1, 0, 1), b = -1" in text, "rounding-sized weights are shown as 0"
    assert "the plane **is** the boundary" in text
    sliced = fs.Phi2Lift(np.zeros((2, 3)), np.ones(6), 0.0, 1.0, 1.0, np.array([0.5, -1.5]))
    assert "The linear terms √(2γζ) w_xᵀx reach 1.5" in fs.describe_lift(sliced, 3.0)


def test_lifted_boundary_of_seed004s_circle_is_the_unit_circle():
    # f(x) = x₁² + x₂² − 1: w_u = (1, 0, 1) with γ = 1, ζ = 0, and b = −1.
    P, U = fs.lifted_boundary(hand_lift([0, 0, 0, 1, 0, 1], b=-1.0), *PLANE, n_angles=360)
    finite = np.all(np.isfinite(P), axis=1)
    assert finite.sum() == 361, "one root per ray, θ = 0 … 2π"
    assert np.max(np.abs(np.hypot(P[finite, 0], P[finite, 1]) - 1.0)) <= TOL_CIRCLE
    np.testing.assert_allclose(U[finite], phi2(P[finite], gamma=1.0, coef0=0.0)[:, 3:], atol=1e-15)


def test_lifted_boundary_with_no_quadratic_term_is_a_line():
    # f = √(2γζ) w₁ x₁ + b with w₁ = 1, γ = ζ = 1, b = −√2: the line x₁ = 1.
    P, _ = fs.lifted_boundary(hand_lift([0, 1, 0, 0, 0, 0], b=-math.sqrt(2), zeta=1.0), *PLANE)
    P = P[np.all(np.isfinite(P), axis=1)]
    assert P.shape[0] > 100
    np.testing.assert_allclose(P[:, 0], 1.0, atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_lifted_boundary_points_have_f_zero(seed):
    X, y = svmcore.datasets.load("moons", random_state=seed)
    m = model_of("dual_svm", X, y, kernel="poly", degree=2, gamma=0.5, coef0=1.0, C=1.0)
    lift = fs.phi2_lift(m)
    P, U = fs.lifted_boundary(lift, *PLANE)
    finite = np.all(np.isfinite(P), axis=1)
    assert finite.sum() > 50
    scale = np.max(np.abs(m.kernel(P[finite], X)) @ np.abs(m.coef)) + abs(m.b)
    assert np.max(np.abs(m.decision(P[finite]))) <= TOL_BOUNDARY * scale
    assert np.all((P[finite] >= -3.0) & (P[finite] <= 3.0))
    np.testing.assert_array_equal(np.isfinite(U[:, 0]), finite)


def test_seed004_check_by_hand_and_on_the_preset():
    # x = (0, 0): ⟨(−1, 1, 1), (1, 0, 0)⟩ = −1; x = (2, 0): ⟨w, (1, 4, 0)⟩ = 3.
    assert fs.seed004_check([[0.0, 0.0], [2.0, 0.0]], [-1.0, 1.0]) == 2
    assert fs.seed004_check([[0.0, 0.0], [2.0, 0.0]], [1.0, 1.0]) == 1
    X, y = svmcore.datasets.load("circle")
    assert fs.seed004_check(X, y) == len(X)
    assert fs.seed004_check(X, -y) == 0


def test_surface_values_are_f_on_the_grid():
    X, y = svmcore.datasets.load("moons", n=30)
    m = model_of("kernel_pegasos", X, y, kernel="rbf", gamma=2.0, lam=0.05, T=300, random_state=1)
    xs, ys, Z = fs.surface_values(m, *PLANE, resolution=7)
    assert Z.shape == (7, 7)
    assert Z[2, 5] == pytest.approx(m.decision([[xs[5], ys[2]]])[0], abs=1e-12)


def test_truncation_errors_match_the_direct_computation_and_the_closed_form_tail():
    X = np.random.default_rng(4).uniform(-1.5, 1.5, size=(25, 2))
    gamma = 0.7
    errors = fs.truncation_errors(X, gamma=gamma, max_terms=12)
    assert errors.shape == (12,)
    K = svmcore.rbf(gamma)(X)
    sq = np.sum(X**2, axis=1)
    envelope = np.exp(-gamma * (sq[:, None] + sq[None, :]))
    G = 2.0 * gamma * (X @ X.T)
    for n_terms in (1, 2, 5, 12):
        direct = rbf_truncation_error(X, gamma=gamma, n_terms=n_terms)
        assert errors[n_terms - 1] == pytest.approx(direct, abs=TOL_DIRECT)
        partial = envelope * sum(G**k / math.factorial(k) for k in range(n_terms))
        assert errors[n_terms - 1] == pytest.approx(np.max(np.abs(K - partial)), abs=TOL_TAIL)
    assert fs.truncation_errors(X, gamma=gamma, max_terms=30)[-1] < 1e-10


def test_taylor_dimension_is_the_maps_width():
    for d, n_terms in [(2, 1), (2, 10), (3, 4)]:
        X = np.ones((1, d))
        width = rbf_taylor_features(X, gamma=1.0, n_terms=n_terms).shape[1]
        assert fs.taylor_dimension(d, n_terms) == width


def test_the_views_kernels_from_the_pages_params():
    poly = {"kernel": "poly", "gamma": 0.5, "degree": 3, "coef0": 2.0}
    assert fs.kernel_of(poly) == svmcore.polynomial(3, 0.5, 2.0)
    assert fs.kernel_of({"kernel": "linear"}) == svmcore.linear()
    lift = {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 2.0}
    assert fs.lift_kernel(poly) == (lift, False)
    assert fs.lift_kernel({**poly, "degree": 2}) == (lift, True)
    assert fs.lift_kernel({"kernel": "linear"}) == (
        {"kernel": "poly", "degree": 2, "gamma": 1.0, "coef0": 1.0},
        False,
    )
    assert fs.surface_kernel({"kernel": "rbf", "gamma": 4.0}) == {"kernel": "rbf", "gamma": 4.0}
    assert fs.surface_kernel({"kernel": "linear"}) == {"kernel": "rbf", "gamma": 1.0}


def test_trained_model_refuses_a_linear_view():
    X, y = svmcore.datasets.load("separable_blobs", n=10)
    spec = ALGORITHMS["pegasos"]
    view = spec.view(spec.fit(X, y, {"lam": 0.1, "T": 100}), X, y)
    with pytest.raises(ValueError, match="view must be a kernel model"):
        fs.trained_model(view)
