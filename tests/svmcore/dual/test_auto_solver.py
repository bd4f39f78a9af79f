"""dual_svm's default solver="auto" (svmcore.dual.auto) on seed 003's dual.

Whatever path it takes (the O(n d²) interior point for the linear kernel, SMO then the
primal-dual active-set method on the whole Gram matrix, SMO with shrinking), the result
must be the optimum of Lin's dual — checked here against an independent KKT certificate
(the gradient Qα − 1 computed from the kernel) and against the other solvers — and a run
that stops short must say so (status, message, scikit-learn's ConvergenceWarning).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning

from svmcore import datasets
from svmcore.dual.active_set import active_set
from svmcore.dual.auto import auto_method, default_max_iter, gram
from svmcore.dual.linear_ipm import linear_ipm
from svmcore.dual.result import gap_m_M
from svmcore.dual.solver import dual_svm
from svmcore.estimators.dual import DualSVC
from svmcore.kernels import make_kernel

# Tolerance table ------------------------------------------------------------------------
TOL_KKT = 1e-3  # m(α) − M(α) from the kernel itself: the solver's own tol, by definition
TOL_EQ = 1e-9  # |yᵀα| relative to Σα (the face solves and the equality repair)
TOL_OBJECTIVE = 1e-6  # dual objective vs SMO run to tol 1e-8, relative
TOL_DENSE = 1e-7  # the same on digits, where the active set ends on the exact optimum
TOL_B = 1e-4  # b vs SMO run to tol 1e-8, absolute
TOL_EXACT = 1e-10  # the active set's and the crossover's KKT gap: exact faces, rounding only
TOL_GRAM = 1e-14  # the blocked Gaussian Gram matrix vs Kernel.__call__, absolute


def certificate(r, X, y):
    """m(α) − M(α) and |yᵀα| from the kernel itself (not from the solver's gradient)."""
    K = r.kernel(X, X)
    v = y - K @ (y * r.alpha)  # v = −yG, G = Qα − 1
    C = np.inf if r.C is None else r.C
    return gap_m_M(v, r.alpha, y, C), abs(float(y @ r.alpha))


def digits_binary(n=None):
    X, t = load_digits(return_X_y=True)
    X = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)
    y = np.where(t < 5, 1.0, -1.0)
    return (X, y) if n is None else (X[:n], y[:n])


# -- the optimum, certified ---------------------------------------------------------------
@pytest.mark.parametrize("C", [0.1, 1.0, 100.0])
@pytest.mark.parametrize(
    ("name", "kernel", "kw"),
    [
        ("moons", "rbf", {"gamma": 2.0}),
        ("overlapping_blobs", "rbf", {"gamma": 0.5}),
        ("xor", "poly", {"degree": 2, "gamma": 1.0, "coef0": 1.0}),
        ("overlapping_blobs", "linear", {}),
        ("moons", "linear", {}),
    ],
)
def test_auto_reaches_the_optimum(name, kernel, kw, C):
    X, y = datasets.load(name, n=300, random_state=1)
    r = dual_svm(X, y, kernel=kernel, C=C, tol=1e-3, **kw)
    assert r.status == "optimal" and r.solver == "auto"
    gap, eq = certificate(r, X, y)
    assert gap <= TOL_KKT and eq <= TOL_EQ * max(1.0, r.alpha.sum())
    assert r.alpha.min() >= 0.0 and r.alpha.max() <= C
    ref = dual_svm(X, y, kernel=kernel, C=C, solver="smo", tol=1e-8, **kw)
    assert r.dual_objective <= ref.dual_objective + TOL_OBJECTIVE * abs(ref.dual_objective)
    assert r.dual_objective == pytest.approx(ref.dual_objective, rel=TOL_OBJECTIVE)


def test_auto_takes_the_expected_path():
    assert auto_method(400, 30, "linear", False, 64.0) == "ipm"
    assert auto_method(400, 300, "linear", False, 64.0) == "dense"  # d > n/2: Q has full rank
    assert auto_method(400, 30, "rbf", False, 64.0) == "dense"
    assert auto_method(400, 30, "rbf", True, 64.0) == "smo"  # hard margin
    assert auto_method(5000, 2, "rbf", False, 64.0) == "smo"  # beyond the dense path
    assert auto_method(1000, 2, "rbf", False, 1.0) == "smo"  # K does not fit the cache
    X, y = datasets.load("moons", n=120, random_state=0)
    for kw, method in [
        ({"kernel": "rbf"}, "dense"),
        ({"kernel": "linear"}, "ipm"),
        ({"kernel": "rbf", "C": None, "gamma": 20.0}, None),  # hard margin: plain SMO
    ]:
        r = dual_svm(X, y, **{"C": 1.0, **kw})
        assert r.trace.info.get("auto_method") == method
    # SMO's own options mean SMO
    r = dual_svm(X, y, kernel="rbf", C=1.0, working_set_size=16)
    assert r.trace.info.get("auto_method") is None and r.trace.info["method"] == "decomposition"
    r = dual_svm(X, y, kernel="rbf", C=1.0, engine="textbook")
    assert r.engine == "textbook" and set(r.trace.steps["kind"].tolist()) == {"pair"}


def test_issue_case_digits_linear_large_C_converges():
    """libsvm needs 2.8 million pair updates here; SMO stopped at max_iter 39 % off."""
    X, y = digits_binary()
    r = dual_svm(X, y, kernel="linear", C=100.0, tol=1e-3)
    assert r.status == "optimal" and r.trace.info["auto_method"] == "ipm"
    gap, eq = certificate(r, X, y)
    assert gap <= TOL_KKT and eq <= TOL_EQ * r.alpha.sum()
    assert r.n_iter <= 100


def test_dense_path_matches_smo_on_real_data():
    X, y = digits_binary(500)
    g = 1.0 / (X.shape[1] * X.var())
    for C in (1.0, 100.0):
        r = dual_svm(X, y, kernel="rbf", gamma=g, C=C)
        ref = dual_svm(X, y, kernel="rbf", gamma=g, C=C, solver="smo", tol=1e-8)
        assert r.trace.info["auto_method"] == "dense" and r.status == "optimal"
        assert r.dual_objective == pytest.approx(ref.dual_objective, rel=TOL_DENSE)
        assert r.b == pytest.approx(ref.b, abs=TOL_B)
        np.testing.assert_array_equal(r.predict(X), ref.predict(X))


def test_duplicate_points_singular_faces():
    """Repeated points make Q_FF singular; the active set then gives way to SMO."""
    X, y = datasets.load("overlapping_blobs", n=100, random_state=2)
    X, y = np.vstack([X, X, X]), np.concatenate([y, y, y])
    for kernel in ("rbf", "linear", "poly"):
        r = dual_svm(X, y, kernel=kernel, C=10.0, gamma=1.0, degree=2)
        assert r.status == "optimal"
        assert certificate(r, X, y)[0] <= TOL_KKT


# -- the pieces ---------------------------------------------------------------------------
def test_active_set_from_a_good_guess_is_exact():
    X, y = datasets.load("moons", n=200, random_state=3)
    K = gram(X, make_kernel("rbf", gamma=2.0))
    ref = dual_svm(X, y, kernel="rbf", gamma=2.0, C=1.0, solver="smo", tol=0.05)
    v = y - K @ (y * ref.alpha)
    a, v2, its, ok = active_set(K, y, 1.0, ref.alpha.copy(), v)
    assert ok and its <= 6
    assert gap_m_M(v2, a, y, 1.0) <= TOL_EXACT  # the exact optimum (not only tol)
    np.testing.assert_allclose(v2, y - K @ (y * a), atol=TOL_EXACT)


def test_gram_is_the_kernel():
    X, _ = datasets.load("moons", n=600, random_state=0)
    k = make_kernel("rbf", gamma=0.7)
    K = gram(X, k)
    np.testing.assert_allclose(K, k(X, X), rtol=0, atol=TOL_GRAM)
    np.testing.assert_allclose(K, K.T, rtol=0, atol=TOL_GRAM)
    assert np.all(np.diag(K) == 1.0)


def test_linear_ipm_crossover_is_exact():
    X, y = datasets.load("overlapping_blobs", n=400, random_state=4)
    alpha, its, how, hist = linear_ipm(X, y, 10.0, tol=1e-3)
    assert how == "crossover" and its < 40
    v = y - X @ ((alpha * y) @ X)
    assert gap_m_M(v, alpha, y, 10.0) <= TOL_EXACT and abs(y @ alpha) <= TOL_EQ * alpha.sum()
    assert len(hist["mu"]) == its + 1


# -- the trace ----------------------------------------------------------------------------
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_auto_trace(kernel):
    X, y = datasets.moons(80, random_state=0)
    kw = {"kernel": kernel, "C": 1.0, "n_snapshots": 20, "n_steps": 50}
    r1, r2 = dual_svm(X, y, **kw), dual_svm(X, y, **kw)
    tr = r1.trace
    assert tr.n_snapshots <= 20 and tr.t[0] == 0 and tr.t[-1] == r1.n_iter
    np.testing.assert_array_equal(tr.snapshots["alpha"][-1], r1.alpha)
    assert tr.snapshots["b"][-1] == pytest.approx(r1.b, abs=TOL_EXACT)
    assert tr.snapshots["dual_objective"][-1] == pytest.approx(r1.dual_objective, abs=TOL_EXACT)
    assert tr.snapshots["max_violation"][-1] <= TOL_KKT
    for name, values in tr.snapshots.items():  # deterministic
        np.testing.assert_array_equal(values, r2.trace.snapshots[name])
    if kernel == "rbf":  # SMO, then one Newton step onto the face the active set found
        assert np.all(np.diff(tr.snapshots["dual_objective"]) <= TOL_EXACT)
        assert set(tr.steps["kind"].tolist()) <= {"pair", "newton"}
        assert min(50, r1.n_iter) <= tr.n_steps <= 50
    else:  # the interior point's iterates
        assert tr.algorithm == "lowrank_ipm" and "ipm_residual" in tr.snapshots


# -- stopping short: status, message, warning ---------------------------------------------
def test_max_iter_scales_and_says_how_to_raise_it():
    assert default_max_iter(10) == 100_000 and default_max_iter(5000) == 500_000
    X, y = datasets.load("overlapping_blobs", n=300, random_state=0)
    for solver in ("auto", "smo"):
        r = dual_svm(X, y, kernel="rbf", C=10.0, solver=solver, max_iter=7)
        assert r.status == "max_iter" and r.n_iter == 7
        assert "max_iter = 7 " in r.message and "max_iter=70" in r.message
        assert "m(α) − M(α) = " in r.message
        assert ("solver='auto'" in r.message) == (solver == "smo")
    r = dual_svm(X, y, kernel="rbf", C=10.0, solver="smo", max_iter=7, working_set_size=32)
    assert r.status == "max_iter" and "max_iter = 7 " in r.message


def test_dualsvc_warns_when_it_stops_short():
    X, y = datasets.load("overlapping_blobs", n=200, random_state=0)
    with pytest.warns(ConvergenceWarning, match="did not converge: status 'max_iter'"):
        est = DualSVC(C=10.0, max_iter=5).fit(X, y)
    assert est.status_ == ["max_iter"]
    labels = np.repeat([0, 1, 2], 20)
    X3 = np.random.default_rng(0).normal(size=(60, 2)) + labels[:, None]
    with pytest.warns(ConvergenceWarning) as caught:
        DualSVC(C=10.0, max_iter=3).fit(X3, labels)
    assert [f"class {c} vs the rest" in str(w.message) for c, w in enumerate(caught)] == [True] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = DualSVC(C=10.0).fit(X, y)  # converges: no warning
    assert est.status_ == ["optimal"] and est.get_params()["solver"] == "auto"
