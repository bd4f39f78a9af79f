"""Tests of svmcore.dual.primal.primal_svm (seed 003's "SVM with QP solver")."""

import numpy as np
import pytest

from svmcore import NotSeparableError, datasets
from svmcore.dual.primal import primal_svm
from svmcore.feature_maps import phi2

# Tolerance table ------------------------------------------------------------------------
TOL_W = 1e-6  # (w, b), α: worked examples and primal vs dual QP multipliers, absolute
TOL_SKLEARN_OBJECTIVE = 1e-6  # soft-margin objective vs scikit-learn, relative


def test_seed003_four_points_hard_margin():
    X, y = datasets.lin_four_points()
    r = primal_svm(X, y)
    np.testing.assert_allclose(r.w, [1, -1], atol=TOL_W)
    assert r.b == pytest.approx(-1, abs=TOL_W)
    assert r.margin == pytest.approx(1 / np.sqrt(2), abs=TOL_W)
    np.testing.assert_allclose(r.alpha, [0.5, 0.5, 1, 0], atol=TOL_W)
    np.testing.assert_array_equal(r.support_, [0, 1, 2])
    # the lecture's QP(Q, p, A, c)
    np.testing.assert_array_equal(r.Q, np.diag([0.0, 1, 1]))
    np.testing.assert_array_equal(r.A[1], [-1, -2, -2])
    np.testing.assert_array_equal(r.c, np.ones(4))
    np.testing.assert_array_equal(r.predict(X), y)


def test_soft_margin_matches_sklearn():
    from sklearn.svm import SVC

    X, y = datasets.overlapping_blobs(80, random_state=3)
    r = primal_svm(X, y, C=0.5)
    sk = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X, y)
    w_sk = sk.coef_[0]
    hinge = np.maximum(0, 1 - y * (X @ w_sk + sk.intercept_[0])).sum()
    obj_sk = 0.5 * w_sk @ w_sk + 0.5 * hinge
    assert r.objective == pytest.approx(obj_sk, rel=TOL_SKLEARN_OBJECTIVE)
    np.testing.assert_allclose(r.w, w_sk, atol=1e-4)
    assert r.A.shape == (160, 3 + 80) and r.c.shape == (160,)
    assert np.all(r.xi >= 0)


def test_transform_phi2_separates_circle():
    X, y = datasets.circles(60, noise=0.02, random_state=0)
    with pytest.raises(NotSeparableError, match="soft margin"):
        primal_svm(X, y)
    r = primal_svm(X, y, transform=phi2)
    assert r.w.shape == (1 + 2 + 4,)
    assert np.all(y * r.decision_function(X) >= 1 - 1e-6)


def test_not_separable_raises():
    X, y = datasets.blobs_outlier(30, random_state=0)
    with pytest.raises(NotSeparableError, match="not linearly separable"):
        primal_svm(X, y)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"C": -1.0}, "C must be > 0"),
        ({"transform": 3}, "transform must be a callable"),
        ({"transform": lambda X: X[:2]}, "transform must return"),
    ],
)
def test_bad_input(kwargs, match):
    X, y = datasets.lin_four_points()
    with pytest.raises(ValueError, match=match):
        primal_svm(X, y, **kwargs)


def test_bad_labels():
    X, _ = datasets.lin_four_points()
    with pytest.raises(ValueError, match="y must contain only the labels"):
        primal_svm(X, [0, 0, 1, 1])


# -- the QP's multipliers are the dual α (Lin's KKT); primal = dual at every accepted C ---
def test_multipliers_equal_dual_alpha_linear_and_phi2():
    from svmcore.dual.solver import dual_svm

    X, y = datasets.lin_four_points()
    # at C = 1 the lecture's α_3 = 1 = C sits on its bound while x_3 is on the margin (a
    # degenerate vertex): the interior point's multipliers approach it only as √μ, so the
    # QP runs to tol = 1e-11 there (1e-9 leaves α 5e-5 off, with the objective 1e-9 off)
    for C, tol in ((None, 1e-9), (1.0, 1e-11), (0.3, 1e-9)):
        p = primal_svm(X, y, C=C, tol=tol)
        d = dual_svm(X, y, kernel="linear", C=C, solver="qp", tol=1e-10)
        np.testing.assert_allclose(p.alpha, d.alpha, atol=TOL_W)
        assert p.status == "optimal"
        if C != 0.3:  # seed 003's worked example
            np.testing.assert_allclose(p.alpha, [0.5, 0.5, 1.0, 0.0], atol=TOL_W)
            np.testing.assert_allclose(p.w, [1.0, -1.0], atol=TOL_W)
            assert p.b == pytest.approx(-1.0, abs=TOL_W)
    Xc, yc = datasets.circles(40, noise=0.02, random_state=0)
    p = primal_svm(Xc, yc, C=10.0, transform=phi2)
    d = dual_svm(phi2(Xc), yc, kernel="linear", C=10.0, solver="qp", tol=1e-10)
    np.testing.assert_allclose(p.alpha, d.alpha, atol=1e-5)  # α up to C = 10
    # the lecture's QP(Q, p, A, c) on u = (b, w, ξ) with w in Φ₂'s 7 dimensions
    m = 1 + 7 + 40
    assert p.Q.shape == (m, m) and p.p.shape == (m,)
    assert p.A.shape == (2 * 40, m) and p.c.shape == (2 * 40,)


@pytest.mark.parametrize("name", ["separable_blobs", "moons", "overlapping_blobs"])
def test_soft_margin_agrees_with_the_dual_over_a_log_grid_of_C(name):
    from svmcore.dual.solver import dual_svm

    # C·‖x‖² up to 10⁹: the interior point alone loses ½‖w‖² against C Σξ beyond ~10⁴
    # (it once gave max_iter and 50 % error at C = 10⁴); the result must still agree
    X, y = datasets.load(name, n=50, random_state=0)
    for C in 10.0 ** np.arange(-6, 9, 2):
        p = primal_svm(X, y, C=C)
        d = dual_svm(X, y, kernel="linear", C=C, solver="qp", tol=1e-10)
        assert p.status == "optimal", (C, p.status)
        # P* = −(½αᵀQα − 1ᵀα) at the optimum; the dual's own primal objective is only as
        # exact as C·Σ(KKT slack), too loose at large C to compare with
        assert p.objective == pytest.approx(-d.dual_objective, rel=1e-6), C
        assert abs(p.duality_gap) <= 1e-6 * max(1.0, p.objective)
        if name == "separable_blobs" and C >= 1:
            assert np.all(p.predict(X) == y)


def test_c_beyond_double_precision_is_refused_by_name():
    X, y = datasets.moons()
    for C in (1e11, 1e300):
        with pytest.raises(ValueError, match=r"^C must be at most 1e\+10") as err:
            primal_svm(X, y, C=C)
        assert not isinstance(err.value, NotSeparableError)
