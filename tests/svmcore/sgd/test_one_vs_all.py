"""One-vs-all over svmcore's binary learners and its ambiguity regions (seed 002 §2.3)."""

import importlib.util

import numpy as np
import pytest
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC

from svmcore.datasets import k_blobs
from svmcore.sgd.one_vs_all import ambiguity_regions, one_vs_all

# Tolerance table ------------------------------------------------------------------------
TOL_SKLEARN_OVR = 1e-10  # our wiring vs OneVsRestClassifier with the same binary learner
TOL_SVC_OVR = 1e-2  # dual SVM (SMO, tol 1e-4) vs OneVsRestClassifier(SVC) decision values
TOL_SCORES = 0.0  # decision_function columns are the binary models' values, exactly

MIN_AMBIGUOUS_FRACTION = 0.02  # the plane between three linear one-vs-rest classifiers

HAS_PEGASOS = importlib.util.find_spec("svmcore.sgd.pegasos") is not None
HAS_KERNEL_PEGASOS = importlib.util.find_spec("svmcore.sgd.kernel_pegasos") is not None
needs_pegasos = pytest.mark.skipif(not HAS_PEGASOS, reason="svmcore.pegasos not there yet")
needs_kernel_pegasos = pytest.mark.skipif(
    not HAS_KERNEL_PEGASOS, reason="svmcore.kernel_pegasos not there yet"
)


@pytest.fixture
def blobs3():
    return k_blobs(n=90, noise=0.5, random_state=0, k=3)


def plane_grid(lim=5.0, m=61):
    g = np.linspace(-lim, lim, m)
    return np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)


class _LinearSVCLearner:
    """A callable learner: fit(X, y_pm) -> model with decision_function (records labels)."""

    __name__ = "linear_svc"

    def __init__(self):
        self.seen = []

    def __call__(self, X, y_pm, **params):
        self.seen.append(np.array(y_pm))
        return LinearSVC(**params).fit(X, y_pm)


# -- ambiguity by hand -------------------------------------------------------------------
def test_ambiguity_regions_by_hand():
    scores = np.array(
        [
            [1.0, -1.0, -1.0],  # claimed by class 0 only
            [-1.0, -2.0, -3.0],  # by none
            [1.0, 2.0, -1.0],  # by classes 0 and 1
            [0.0, 0.0, 0.0],  # f = 0 is not a claim (sign rule: +1 iff f > 0)
            [3.0, 2.0, 1.0],
        ]
    )
    a = ambiguity_regions(scores)
    np.testing.assert_array_equal(a.n_claims, [1, 0, 2, 0, 3])
    np.testing.assert_array_equal(a.none, [False, True, False, True, False])
    np.testing.assert_array_equal(a.several, [False, False, True, False, True])
    np.testing.assert_array_equal(a.unique, [True, False, False, False, False])
    np.testing.assert_array_equal(a.ambiguous, ~a.unique)
    assert a.fraction == pytest.approx(0.8)
    with pytest.raises(ValueError, match="scores must have shape"):
        ambiguity_regions(np.ones(4))


# -- wiring, checked with a callable learner and scikit-learn ----------------------------
def test_callable_learner_matches_sklearn_one_vs_rest(blobs3):
    X, y = blobs3
    labels = np.array(["red", "green", "blue"])[y]  # any labels; classes_ sorted
    learner = _LinearSVCLearner()
    r = one_vs_all(X, labels, learner=learner, C=1.0, tol=1e-10, max_iter=100_000)
    np.testing.assert_array_equal(r.classes_, ["blue", "green", "red"])
    assert r.learner == "linear_svc" and len(r.models) == 3
    for c, y_pm in enumerate(learner.seen):  # class c → +1, the rest → −1
        np.testing.assert_array_equal(y_pm, np.where(labels == r.classes_[c], 1.0, -1.0))
    ref = OneVsRestClassifier(LinearSVC(C=1.0, tol=1e-10, max_iter=100_000)).fit(X, labels)
    np.testing.assert_allclose(
        r.decision_function(X), ref.decision_function(X), atol=TOL_SKLEARN_OVR
    )
    np.testing.assert_array_equal(r.predict(X), ref.predict(X))


# -- with svmcore's learners -------------------------------------------------------------
@needs_pegasos
def test_pegasos_one_vs_all_marks_ambiguous_regions(blobs3):
    X, y = blobs3
    r = one_vs_all(X, y, learner="pegasos", lam=0.01, T=5000, bias="augment", random_state=0)
    assert r.learner == "pegasos"
    assert r.train_error == 0.0
    np.testing.assert_array_equal(r.predict(X), y)
    G = plane_grid()
    S = r.decision_function(G)
    for c, model in enumerate(r.models):
        np.testing.assert_allclose(S[:, c], model.decision_function(G), atol=TOL_SCORES)
    a = r.ambiguity(G)
    # the plane holds points no classifier claims and points several claim: the argmax
    # decides there, not the binary classifiers
    assert a.none.any() or a.several.any()
    assert a.fraction >= MIN_AMBIGUOUS_FRACTION
    # where claimed by exactly one class, argmax agrees with that claim
    claimed = np.argmax(S > 0, axis=1)
    np.testing.assert_array_equal(np.argmax(S, axis=1)[a.unique], claimed[a.unique])
    # the blob centres themselves are unambiguous
    angle = 2 * np.pi * np.arange(3) / 3 + np.pi / 2
    centres = 3.0 * np.column_stack([np.cos(angle), np.sin(angle)])
    assert r.ambiguity(centres).unique.all()


@needs_pegasos
def test_same_seed_same_models(blobs3):
    X, y = blobs3
    a, b = (one_vs_all(X, y, lam=0.01, T=1000, random_state=3) for _ in range(2))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@needs_kernel_pegasos
def test_kernel_pegasos_one_vs_all_on_rings():
    rng = np.random.default_rng(0)
    angle = rng.uniform(0, 2 * np.pi, 150)
    radius = np.repeat([1.0, 2.0, 3.0], 50) + rng.normal(0, 0.1, 150)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    y = np.repeat([0, 1, 2], 50)
    r = one_vs_all(
        X, y, learner="kernel_pegasos", kernel="rbf", gamma=1.0, lam=1e-3, T=20_000, random_state=0
    )
    assert np.mean(r.predict(X) == y) >= 0.95


def test_dual_svm_one_vs_all_matches_sklearn_svc():
    pytest.importorskip("svmcore.dual.solver")
    from sklearn.svm import SVC

    X, y = k_blobs(n=90, noise=1.0, random_state=0, k=3)
    r = one_vs_all(X, y, learner="dual_svm", kernel="rbf", gamma=0.5, C=1.0, tol=1e-4)
    ref = OneVsRestClassifier(SVC(kernel="rbf", gamma=0.5, C=1.0, tol=1e-8)).fit(X, y)
    np.testing.assert_allclose(r.decision_function(X), ref.decision_function(X), atol=TOL_SVC_OVR)
    np.testing.assert_array_equal(r.predict(X), ref.predict(X))


# -- bad input ----------------------------------------------------------------------------
def test_bad_input(blobs3):
    X, y = blobs3
    with pytest.raises(ValueError, match="learner must be one of"):
        one_vs_all(X, y, learner="adaline")  # not a learner of svmcore
    with pytest.raises(ValueError, match="y must contain at least two classes"):
        one_vs_all(X, np.zeros(len(y)), learner=_LinearSVCLearner())
    with pytest.raises(ValueError, match="must return an object with decision_function"):
        one_vs_all(X, y, learner=lambda X, y_pm: object())


def test_package_export_is_callable_after_the_submodule_import(blobs3):
    import svmcore

    X, y = blobs3
    r = svmcore.one_vs_all(X, y, learner=_LinearSVCLearner())
    assert r.predict(X).shape == (90,)
