"""Tests of svmcore.primal.primal_svm (seed 003's "SVM with QP solver")."""

import numpy as np
import pytest

from svmcore import NotSeparableError, datasets
from svmcore.primal import phi2, primal_svm

# tolerance table
W_TOL = 1e-6  # (w, b) of worked examples
SK_OBJ_RTOL = 1e-6  # soft-margin objective vs scikit-learn


def test_seed003_four_points_hard_margin():
    X, y = datasets.lin_four_points()
    r = primal_svm(X, y)
    np.testing.assert_allclose(r.w, [1, -1], atol=W_TOL)
    assert r.b == pytest.approx(-1, abs=W_TOL)
    assert r.margin == pytest.approx(1 / np.sqrt(2), abs=W_TOL)
    np.testing.assert_allclose(r.alpha, [0.5, 0.5, 1, 0], atol=W_TOL)
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
    assert r.objective == pytest.approx(obj_sk, rel=SK_OBJ_RTOL)
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
