"""PegasosClassifier and KernelPegasosClassifier follow scikit-learn's contract."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmcore import datasets
from svmcore.estimators.pegasos import KernelPegasosClassifier, PegasosClassifier

pytestmark = pytest.mark.slow  # a long sweep (fuzz or scikit-learn's estimator checks)

# Tolerance table: none — labels and shapes are compared exactly; accuracies against the
# thresholds below.
MIN_ACCURACY_MOONS = 0.95  # kernel Pegasos, RBF, on two moons
MIN_ACCURACY_BLOBS = 0.97  # one-vs-all on three well-separated blobs


@parametrize_with_checks(
    [PegasosClassifier(random_state=0), KernelPegasosClassifier(random_state=0)]
)
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_any_two_labels_and_decision_sign():
    X, y = datasets.moons(120, random_state=0)
    labels = np.where(y > 0, "cat", "dog")
    clf = KernelPegasosClassifier(gamma=2.0, T=20_000, random_state=0).fit(X, labels)
    assert clf.classes_.tolist() == ["cat", "dog"]
    f = clf.decision_function(X)
    assert f.shape == (120,)
    np.testing.assert_array_equal(clf.predict(X), np.where(f > 0, "dog", "cat"))
    assert clf.score(X, labels) >= MIN_ACCURACY_MOONS
    assert clf.dual_coef_.shape == (1, clf.support_.size)


def test_one_vs_all_for_three_classes():
    X, y = datasets.k_blobs(90, k=3, random_state=0)
    for clf in (PegasosClassifier(random_state=0), KernelPegasosClassifier(random_state=0)):
        clf.fit(X, y)
        assert clf.decision_function(X).shape == (90, 3)
        assert clf.score(X, y) >= MIN_ACCURACY_BLOBS
        assert len(clf.results_) == 3


def test_parameters_stored_unchanged_and_validated_in_fit():
    clf = PegasosClassifier(lam=-1.0)  # no validation in __init__
    assert clf.get_params()["lam"] == -1.0
    with pytest.raises(ValueError, match="lam must be > 0"):
        clf.fit(*datasets.moons(20))
    with pytest.raises(ValueError, match="gamma must be"):
        KernelPegasosClassifier(gamma="auto").fit(*datasets.moons(20))
