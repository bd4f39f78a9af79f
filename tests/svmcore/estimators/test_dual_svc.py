"""Tests of svmcore.estimators.dual.DualSVC (scikit-learn contract, SVC's attributes)."""

import numpy as np
import pytest
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmcore import NotSeparableError, datasets
from svmcore.estimators.dual import DualSVC

pytestmark = pytest.mark.slow  # a long sweep (fuzz or scikit-learn's estimator checks)

# Tolerance table ------------------------------------------------------------------------
TOL_DECISION = 1e-4  # decision values and intercepts vs SVC at tight tolerances, absolute
TOL_DUAL_COEF = 1e-5  # dual_coef_ vs SVC's, absolute


@parametrize_with_checks(
    [
        DualSVC(),
        DualSVC(kernel="linear", C=None),
        DualSVC(kernel="poly", degree=2, coef0=1.0, solver="qp"),
    ]
)
def test_sklearn_compatible(estimator, check):
    try:
        check(estimator)
    except (NotSeparableError, AssertionError) as exc:
        # the hard-margin instance may rightly refuse a check's non-separable data
        if estimator.C is None and (
            isinstance(exc, NotSeparableError) or isinstance(exc.__cause__, NotSeparableError)
        ):
            pytest.skip("hard margin on a check's non-separable data")
        raise


def test_attributes_match_svc_binary_with_string_labels():
    X, y = datasets.moons(120, random_state=0)
    labels = np.where(y > 0, "yes", "no")
    ours = DualSVC(C=2.0, tol=1e-8).fit(X, labels)
    sk = SVC(C=2.0, tol=1e-8).fit(X, labels)
    np.testing.assert_array_equal(ours.classes_, sk.classes_)
    np.testing.assert_array_equal(ours.support_, np.sort(sk.support_))
    order = np.argsort(sk.support_)
    np.testing.assert_allclose(ours.dual_coef_, sk.dual_coef_[:, order], atol=TOL_DUAL_COEF)
    assert ours.dual_coef_.shape == (1, ours.support_.shape[0])
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, atol=TOL_DECISION)
    np.testing.assert_array_equal(ours.n_support_, sk.n_support_)
    np.testing.assert_allclose(
        ours.decision_function(X), sk.decision_function(X), atol=TOL_DECISION
    )
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    with pytest.raises(AttributeError, match="linear"):
        _ = ours.coef_


def test_linear_coef_and_hard_margin():
    X, y = datasets.lin_four_points()
    est = DualSVC(kernel="linear", C=None, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(est.coef_, [[1.0, -1.0]], atol=1e-6)
    np.testing.assert_allclose(est.intercept_, [-1.0], atol=1e-6)
    np.testing.assert_allclose(est.dual_coef_, [[-0.5, -0.5, 1.0]], atol=1e-6)
    Xo, yo = datasets.blobs_outlier(40, random_state=0)
    with pytest.raises(NotSeparableError):
        DualSVC(kernel="linear", C=None).fit(Xo, yo)


def test_one_vs_all_multiclass():
    X, y = datasets.k_blobs(150, k=3, random_state=0)
    est = DualSVC(kernel="rbf", C=1.0).fit(X, y)
    assert est.decision_function(X).shape == (150, 3)
    assert est.dual_coef_.shape == (3, est.support_.shape[0])
    assert est.intercept_.shape == (3,)
    assert est.n_support_.sum() == est.support_.shape[0]
    assert est.score(X, y) > 0.9
    lin = DualSVC(kernel="linear").fit(X, y)
    assert lin.coef_.shape == (3, 2)


def test_gamma_scale_matches_sklearn():
    X, y = datasets.circles(100, random_state=0)
    est = DualSVC().fit(X, y)
    assert est.gamma_ == pytest.approx(1.0 / (2 * X.var()))
    with pytest.raises(ValueError, match="gamma must be"):
        DualSVC(gamma="wide").fit(X, y)
