"""The scikit-learn check with seed 002 §2.1's class weights: both sides weighted.

A run with class weights c_{y_i} minimises λ/2‖w‖² + (1/n) Σ c_{y_i} max{0, 1 − y_i f(x_i)};
scikit-learn's LinearSVC / SVC with ``class_weight`` minimise ½‖w‖² + C Σ c_{y_i} hinge,
the same problem at C = 1/(λn). The check must compare those weighted objectives.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmlab.algorithms import ALGORITHMS
from svmlab.study.sklearn_check import check_kernel_pegasos, check_pegasos, class_weights

# Tolerance table ------------------------------------------------------------------------
TOL_OURS = 1e-6  # our side of the check vs the run's own weighted objective, absolute: the same
# sum, shown to 6 decimals
TOL_LIBLINEAR = 1e-4  # LinearSVC at tol 1e-8 vs the exact weighted minimum P* (svmcore's
# soft_svm_optimum), absolute (liblinear's dual coordinate descent)
TOL_PEGASOS = 1e-3  # Pegasos at T = 10⁵ above P*, absolute


def _lines(lines) -> dict:
    return {line.label: line for line in lines}


@pytest.fixture(scope="module")
def imbalanced():
    return datasets.load("imbalanced_blobs")


def test_class_weights_are_svmcores_per_point_weights(imbalanced):
    _, y = imbalanced
    n, n_pos = len(y), int(np.sum(y == 1))
    c, per_class = class_weights("balanced", y)
    assert per_class == {-1: n / (2 * (n - n_pos)), 1: n / (2 * n_pos)}
    np.testing.assert_array_equal(c, np.where(y > 0, per_class[1], per_class[-1]))
    c, per_class = class_weights({-1: 1.0, 1: 3.0}, y)
    assert per_class == {-1: 1.0, 1: 3.0}
    assert class_weights(None, y) == (None, None)


def test_linear_check_compares_the_weighted_objectives(imbalanced):
    X, y = imbalanced
    lam = 0.01
    r = svmcore.pegasos(X, y, lam=lam, T=100_000, class_weight="balanced", random_state=0)
    lines = _lines(check_pegasos(X, y, r, lam=lam, bias="none", class_weight="balanced"))
    obj = lines["objective λ/2‖w‖² + mean c_{y_i}·hinge"]
    # ours: the run's own (weighted) objective, not the unweighted 0.1239
    assert float(obj.ours) == pytest.approx(r.objective, abs=TOL_OURS)
    # scikit-learn's: the exact weighted minimum
    P_star = svmcore.soft_svm_optimum(X, y, lam=lam, class_weight="balanced").objective
    assert float(obj.sklearn) == pytest.approx(P_star, abs=TOL_LIBLINEAR)
    assert obj.ok and float(obj.ours) - P_star <= TOL_PEGASOS
    assert "c₊ = 5.5" in lines["class weights (seed 002 §2.1)"].sklearn


def test_the_linear_page_check_passes_the_runs_class_weights(imbalanced):
    X, y = imbalanced
    spec = ALGORITHMS["pegasos"]
    params = dict(lam=0.01, T=10_000, bias="none", class_weight={-1: 1.0, 1: 4.0}, random_state=0)
    r = spec.fit(X, y, params)
    lines = _lines(spec.check(X, y, r, params))
    assert lines["class weights (seed 002 §2.1)"].ours == "c₋ = 1, c₊ = 4"
    c = np.where(y > 0, 4.0, 1.0)
    hinge = np.maximum(0.0, 1.0 - y * (X @ r.w))
    ours = 0.005 * r.w @ r.w + np.mean(c * hinge)
    assert float(lines["objective λ/2‖w‖² + mean c_{y_i}·hinge"].ours) == pytest.approx(
        ours, abs=TOL_OURS
    )


def test_kernel_check_uses_the_weights_too(imbalanced):
    X, y = imbalanced
    lam = 0.01
    r = svmcore.kernel_pegasos(
        X, y, kernel="linear", lam=lam, T=20_000, class_weight="balanced", random_state=0
    )
    lines = _lines(check_kernel_pegasos(X, y, r, lam=lam, class_weight="balanced"))
    obj = lines["objective λ/2 αᵀKα + mean c_{y_i}·hinge (SVC adds a bias b)"]
    assert float(obj.ours) == pytest.approx(r.objective, abs=TOL_OURS)
    assert "c₊ = 5.5" in lines["class weights (seed 002 §2.1)"].sklearn
    assert ALGORITHMS["kernel_pegasos"].check_applies({"class_weight": "balanced"})
