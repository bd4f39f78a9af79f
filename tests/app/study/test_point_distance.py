"""Lin's distance(x, b, w) = |wᵀx + b|/‖w‖ in the per-point table (seed 003, *Linear SVM*).

Hand computation on Lin's four points: the hard-margin optimum w = (1, −1), b = −1 gives
f = (−1, −1, 1, 2), distances (1, 1, 1, 2)/√2; the margin 1/√2 is the smallest.
"""

import math

import numpy as np

from svmlab.algorithms import ALGORITHMS
from svmlab.study.point_table import DISTANCE, table_columns, w_norm

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-9  # hand values vs the QP's α (absolute)
TOL_PRIMAL = 1e-7  # the primal solver's distances vs the dual's (absolute)
TOL_KERNEL = 1e-12  # kernel views vs |f|/√(cᵀKc) computed here (relative and absolute)


X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])


def _table(key, params, X=X, y=Y):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    view = spec.view(result, X, y)
    k = view.n_snapshots - 1
    return view, k, table_columns(view, y, k)


def test_distance_column_on_lins_four_points_by_hand():
    params = {"kernel": "linear", "C": None, "solver": "qp", "tol": 1e-12}
    view, k, cols = _table("dual_svm", params)
    assert list(cols)[4] == DISTANCE  # right after y f(x)
    np.testing.assert_allclose(cols[DISTANCE], np.array([1, 1, 1, 2]) / math.sqrt(2), atol=TOL_HAND)
    np.testing.assert_allclose(w_norm(view, k), math.sqrt(2), atol=TOL_HAND)
    _, _, primal = _table("primal_svm", {"C": None})
    np.testing.assert_allclose(primal[DISTANCE], cols[DISTANCE], atol=TOL_PRIMAL)


def test_distance_in_the_feature_space_of_a_kernel_run():
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(40, 2))
    yr = np.where(np.sum(Xr**2, axis=1) > 1.2, 1.0, -1.0)
    params = {
        "kernel": "rbf",
        "gamma": 1.0,
        "lam": 0.05,
        "T": 500,
        "schedule": "ssbd",
        "averaging": "average",
        "sampling": "uniform",
        "random_state": 0,
    }
    view, k, cols = _table("kernel_pegasos", params, Xr, yr)
    c = np.asarray(view.coef[k])
    K = view.kernel(Xr, Xr)
    np.testing.assert_allclose(
        cols[DISTANCE], np.abs(K @ c) / math.sqrt(c @ K @ c), rtol=TOL_KERNEL, atol=TOL_KERNEL
    )


def test_distance_is_nan_while_w_is_zero():
    params = {"T": 1, "sampling": "cyclic", "bias": "none", "random_state": 0}
    view, _, _ = _table("perceptron", params)
    cols = table_columns(view, Y, 0)  # w after one update by y_1 x_1 = 0
    assert np.all(np.isnan(cols[DISTANCE]))
