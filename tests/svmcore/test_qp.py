"""Tests of svmcore.qp.solve_qp (seed 003's QP(Q, p, A, c))."""

import numpy as np
import pytest

from svmcore import datasets
from svmcore.qp import solve_qp

# Tolerance table ------------------------------------------------------------------------
TOL_X = 1e-6  # solution vs a worked example, absolute
TOL_KKT = 1e-6  # recomputed KKT residuals


def test_seed003_four_points_primal_qp():
    # seed 003: u = (b, w), Q = diag(0, 1, 1), p = 0, a_n = y_n [1, x_nᵀ], c_n = 1
    X = np.array([[0, 0], [2, 2], [2, 0], [3, 0.0]])
    y = np.array([-1, -1, 1, 1.0])
    Q = np.diag([0.0, 1.0, 1.0])
    A = y[:, None] * np.c_[np.ones(4), X]
    sol = solve_qp(Q, np.zeros(3), A, np.ones(4))
    assert sol.status == "optimal"
    np.testing.assert_allclose(sol.x, [-1, 1, -1], atol=TOL_X)
    np.testing.assert_allclose(sol.z, [0.5, 0.5, 1.0, 0.0], atol=TOL_X)
    assert sol.objective == pytest.approx(1.0, abs=TOL_X)
    assert max(sol.kkt_residuals()) <= TOL_KKT
    assert sol.is_optimal()


def test_equality_and_bounds_against_closed_form():
    # min ½‖u‖² − 1ᵀu s.t. u_0 + u_1 = 1, 0 ≤ u ≤ 0.3 on u_2 only -> u = (½, ½, 0.3)
    Q = np.eye(3)
    sol = solve_qp(
        Q,
        -np.ones(3),
        A_eq=[[1, 1, 0.0]],
        c_eq=[1.0],
        lb=[-np.inf, -np.inf, 0.0],
        ub=[np.inf, np.inf, 0.3],
    )
    assert sol.status == "optimal"
    np.testing.assert_allclose(sol.x, [0.5, 0.5, 0.3], atol=TOL_X)
    assert sol.y[0] == pytest.approx(-0.5, abs=TOL_X)
    assert sol.z_box[2] == pytest.approx(-0.7, abs=TOL_X)  # active upper bound: ≤ 0
    assert max(sol.kkt_residuals()) <= TOL_KKT


def test_random_convex_qps_satisfy_kkt():
    rng = np.random.default_rng(0)
    for _ in range(5):
        n, m = 8, 5
        R = rng.normal(size=(n, n))
        Q = R @ R.T
        sol = solve_qp(
            Q, rng.normal(size=n), rng.normal(size=(m, n)), rng.normal(size=m), lb=-2.0, ub=2.0
        )
        assert sol.status == "optimal"
        assert max(sol.kkt_residuals()) <= TOL_KKT * (1 + abs(sol.objective))
        assert sol.history["x"].shape == (sol.iterations + 1, n)


def test_infeasible_is_detected():
    # u ≥ 1 and −u ≥ 0 cannot both hold
    sol = solve_qp(np.eye(1), np.zeros(1), [[1.0], [-1.0]], [1.0, 0.0])
    assert sol.status == "infeasible"
    assert sol.certificate is not None


def test_unbounded_is_detected():
    # hard-margin dual on non-separable data is unbounded below
    X, y = datasets.blobs_outlier(30, random_state=0)
    Q = (y[:, None] * y[None, :]) * (X @ X.T)
    sol = solve_qp(Q, -np.ones(30), A_eq=y, c_eq=[0.0], lb=0.0)
    assert sol.status == "unbounded"
    d = sol.certificate
    assert d @ -np.ones(30) < 0 and np.all(d >= -1e-9)


def test_max_iter_is_reported():
    X, y = datasets.overlapping_blobs(40, random_state=0)
    Q = (y[:, None] * y[None, :]) * (X @ X.T)
    sol = solve_qp(Q, -np.ones(40), A_eq=y, c_eq=[0.0], lb=0.0, ub=1.0, max_iter=2)
    assert sol.status == "max_iter" and sol.iterations == 2


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"Q": np.ones((2, 3)), "p": np.zeros(2)}, "Q must be square"),
        ({"Q": np.array([[1, 2], [0, 1.0]]), "p": np.zeros(2)}, "symmetric"),
        ({"Q": np.eye(2), "p": np.zeros(3)}, "p must have shape"),
        ({"Q": np.eye(2), "p": np.zeros(2), "A": np.ones((1, 2))}, "A and c"),
        ({"Q": np.eye(2), "p": np.zeros(2), "lb": 1.0, "ub": 0.0}, "lb must be <= ub"),
        ({"Q": np.eye(2), "p": [np.nan, 0]}, "finite"),
        ({"Q": np.eye(2), "p": np.zeros(2), "tol": -1}, "tol"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        solve_qp(**kwargs)
