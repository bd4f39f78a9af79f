"""The per-point table through the model views: multiclass rows by hand, and the table of
every view kind against the run's own decision function and the dual's α.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmlab.algorithms import ALGORITHMS
from svmlab.study.point_table import STATUSES, multiclass_point_rows, table_columns

# Tolerance table ------------------------------------------------------------------------
TOL_TRAIN_VALUES = 1e-10  # train_values vs the result's decision_function, absolute
TOL_STATUS = 1e-6  # statuses: the dual at the optimum (KKT), the table's tol (solver tol 1e-8)
# multiclass margins / ξ by hand: exact (small integers)


def test_multiclass_rows_by_hand():
    S = np.array(
        [
            [3.0, 0.0, 1.0],  # y = 0: m = 3 − 1 = 2, beyond the margin
            [0.0, 1.0, 0.5],  # y = 1: m = 0.5, a margin violator (ξ = 0.5)
            [2.0, 1.0, 0.0],  # y = 2: m = 0 − 2 = −2, misclassified (ξ = 3)
            [1.0, 1.0, 0.0],  # y = 0: a tie won by class 0 (smallest): m = 0, violator
            [1.0, 1.0, 0.0],  # y = 1: the same tie lost: misclassified
            [0.0, 2.0, 1.0],  # y = 1: m = 1 exactly, on the margin
        ]
    )
    r = multiclass_point_rows(S, [0, 1, 2, 0, 1, 1])
    np.testing.assert_array_equal(r["margin"], [2, 0.5, -2, 0, 0, 1])
    np.testing.assert_array_equal(r["xi"], [0, 0.5, 3, 1, 1, 0])
    assert r["status"].tolist() == [
        "non-SV",
        "margin violator",
        "misclassified",
        "margin violator",
        "misclassified",
        "free SV",
    ]
    np.testing.assert_array_equal(r["index"], np.arange(1, 7))


@pytest.mark.parametrize(
    ("scores", "y_idx", "match"),
    [
        (np.ones(3), [0, 1, 0], "shape"),
        (np.ones((2, 2)), [0, 2], "class indices"),
        (np.array([[np.nan, 1.0], [0.0, 1.0]]), [0, 1], "finite"),
        (np.ones((2, 2)), [0], "y_idx"),
    ],
)
def test_multiclass_bad_input(scores, y_idx, match):
    with pytest.raises(ValueError, match=match):
        multiclass_point_rows(scores, y_idx)


def _view(key, X, y, params):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    return result, spec.view(result, X, y)


def test_linear_pegasos_table_has_no_alpha_and_follows_the_run():
    X, y = datasets.load("overlapping_blobs")
    result, view = _view("pegasos", X, y, dict(lam=0.05, T=2000, bias="free", random_state=0))
    k = view.n_snapshots - 1
    cols = table_columns(view, y, k)
    np.testing.assert_allclose(cols["f(x)"], result.decision_function(X), atol=TOL_TRAIN_VALUES)
    np.testing.assert_allclose(cols["y f(x)"], y * cols["f(x)"])
    assert np.all(np.isnan(cols["α"]))  # linear SGD: no dual α
    assert set(cols["status"]) <= set(STATUSES) and "bounded SV" not in set(cols["status"])
    wrong = np.sign(cols["f(x)"]) != y
    assert np.all(cols["status"][wrong] == "misclassified")
    # an earlier snapshot gives that snapshot's f
    w0, b0 = result.trace.snapshots["w"][3], result.trace.snapshots["b"][3]
    np.testing.assert_allclose(
        table_columns(view, y, 3)["f(x)"], X @ w0 + b0, atol=TOL_TRAIN_VALUES
    )


def test_kernel_pegasos_table_shows_ssbd_alpha():
    X, y = datasets.load("moons", n=60)
    params = dict(kernel="rbf", gamma=2.0, lam=0.05, T=2000, random_state=0)
    result, view = _view("kernel_pegasos", X, y, params)
    k = view.n_snapshots - 1
    cols = table_columns(view, y, k)
    np.testing.assert_allclose(cols["f(x)"], result.decision_function(X), atol=TOL_TRAIN_VALUES)
    np.testing.assert_allclose(cols["α"], result.trace.snapshots["alpha"][k])


def test_dual_table_statuses_are_the_kkt_conditions():
    X, y = datasets.load("overlapping_blobs")
    params = dict(C=0.5, kernel="linear", solver="smo", tol=1e-8)
    result, view = _view("dual_svm", X, y, params)
    k = view.n_snapshots - 1
    cols = table_columns(view, y, k)
    np.testing.assert_allclose(cols["f(x)"], result.decision_function(X), atol=1e-8)
    a, yf, status = cols["α"], cols["y f(x)"], cols["status"]
    C = 0.5
    assert np.all(yf[status == "non-SV"] >= 1 - TOL_STATUS)
    assert np.all(a[status == "non-SV"] <= TOL_STATUS * C)
    np.testing.assert_allclose(yf[status == "free SV"], 1.0, atol=1e-5)
    assert np.all(yf[a >= C * (1 - 1e-6)] <= 1 + 1e-5)  # bounded: on or inside the margin
    assert {"free SV"} <= set(status)


@pytest.mark.parametrize("key", ["multiclass_pegasos", "multiclass_sgd", "one_vs_all"])
def test_multiclass_tables(key):
    X, y = datasets.load("k_blobs", k=3, random_state=0)
    params = {
        "multiclass_pegasos": dict(lam=0.05, T=2000, random_state=0),
        "multiclass_sgd": dict(eta=0.1, T=2000, random_state=0),
        "one_vs_all": dict(lam=0.05, T=2000, random_state=0),
    }[key]
    result, view = _view(key, X, y, params)
    k = view.n_snapshots - 1
    cols = table_columns(view, y, k)
    S = np.column_stack([cols[f"s_{c}(x)"] for c in np.unique(y)])
    np.testing.assert_allclose(S, result.decision_function(X), atol=TOL_TRAIN_VALUES)
    pred = np.unique(y)[S.argmax(axis=1)]
    np.testing.assert_array_equal(cols["status"] == "misclassified", pred != y)
    np.testing.assert_array_equal(cols["y"], y)


def test_train_values_equal_a_direct_evaluation():
    X, y = datasets.load("k_blobs", k=3, random_state=0)
    result = svmcore.multiclass_pegasos(X, y, lam=0.05, T=500, kernel="rbf", random_state=0)
    view = ALGORITHMS["multiclass_pegasos"].view(result, X, y)
    A = result.trace.snapshots["alpha"][5]
    np.testing.assert_allclose(
        view.train_values(5), (result.kernel(X, X) + 1.0) @ A, atol=TOL_TRAIN_VALUES
    )
