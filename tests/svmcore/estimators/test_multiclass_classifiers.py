"""scikit-learn contract of MulticlassSGDClassifier and MulticlassPegasosClassifier."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmcore.datasets import k_blobs
from svmcore.estimators.multiclass import MulticlassPegasosClassifier, MulticlassSGDClassifier
from svmcore.sgd.multiclass_pegasos import multiclass_pegasos
from svmcore.sgd.multiclass_sgd import multiclass_sgd

pytestmark = pytest.mark.slow  # a long sweep (fuzz or scikit-learn's estimator checks)

# Tolerance table ------------------------------------------------------------------------
TOL_SAME_AS_FUNCTION = 0.0  # the estimator runs the pure function: identical numbers


@parametrize_with_checks(
    [
        MulticlassSGDClassifier(random_state=0),
        MulticlassPegasosClassifier(random_state=0),
        MulticlassPegasosClassifier(kernel="rbf", random_state=0),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_sgd_estimator_wraps_the_function():
    X, y = k_blobs(n=90, noise=0.8, random_state=1, k=3)
    labels = np.array(["a", "b", "c"])[y]
    est = MulticlassSGDClassifier(eta=0.05, T=3000, random_state=2).fit(X, labels)
    r = multiclass_sgd(X, labels, eta=0.05, T=3000, random_state=2)
    np.testing.assert_array_equal(est.classes_, ["a", "b", "c"])
    np.testing.assert_allclose(
        est.decision_function(X), r.decision_function(X), atol=TOL_SAME_AS_FUNCTION
    )
    np.testing.assert_array_equal(est.coef_, r.W[:, :2])
    np.testing.assert_array_equal(est.intercept_, r.W[:, 2])
    np.testing.assert_array_equal(est.predict(X), r.predict(X))
    assert est.trace_ is est.result_.trace
    assert est.score(X, labels) == np.mean(r.predict(X) == labels)


def test_pegasos_estimator_kernel_and_linear():
    X, y = k_blobs(n=90, noise=0.5, random_state=1, k=3)
    lin = MulticlassPegasosClassifier(lam=1e-2, T=4000, random_state=0).fit(X, y)
    r = multiclass_pegasos(X, y, lam=1e-2, T=4000, random_state=0)
    np.testing.assert_array_equal(lin.decision_function(X), r.decision_function(X))
    assert lin.coef_.shape == (3, 2) and lin.intercept_.shape == (3,)
    ker = MulticlassPegasosClassifier(
        lam=1e-2, T=4000, kernel="rbf", gamma=0.5, random_state=0
    ).fit(X, y)
    assert ker.dual_coef_.shape == (90, 3)
    assert ker.score(X, y) == 1.0
    assert not hasattr(ker, "coef_")


def test_binary_decision_function_is_a_single_column():
    X, y = k_blobs(n=60, noise=0.5, random_state=0, k=2)
    est = MulticlassSGDClassifier(random_state=0).fit(X, y)
    f = est.decision_function(X)
    S = est.result_.decision_function(X)
    assert f.shape == (60,)
    np.testing.assert_array_equal(f, S[:, 1] - S[:, 0])
    np.testing.assert_array_equal(est.predict(X), np.where(f > 0, 1, 0))


def test_delta_is_passed_and_checked_in_fit():
    X, y = k_blobs(n=30, noise=0.5, random_state=0, k=3)
    est = MulticlassSGDClassifier(delta=np.ones((2, 2)) - np.eye(2))
    with pytest.raises(ValueError, match="delta must be a k × k matrix with k = 3"):
        est.fit(X, y)
    D = np.array([[0, 2.0, 1], [1, 0, 1], [1, 1, 0]])
    est = clone(MulticlassPegasosClassifier(delta=D, random_state=0)).fit(X, y)
    np.testing.assert_array_equal(est.result_.delta, D)


def test_single_class_is_refused():
    X = np.ones((5, 2))
    for est in (MulticlassSGDClassifier(), MulticlassPegasosClassifier()):
        with pytest.raises(ValueError, match="at least two classes"):
            est.fit(X, np.zeros(5))
