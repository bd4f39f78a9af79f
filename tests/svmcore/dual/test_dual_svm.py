"""Tests of svmcore.dual.solver.dual_svm (seed 003's hard/soft-margin dual, SMO and QP)."""

import numpy as np
import pytest
from sklearn.svm import SVC

from svmcore import NotSeparableError, datasets, polynomial, rbf
from svmcore.dual.primal import primal_svm
from svmcore.dual.solver import dual_svm

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-6  # worked examples, absolute (SMO and QP run at tight tolerance)
TOL_OBJECTIVE = 1e-6  # dual objective vs libsvm, relative
TOL_B = 1e-4  # intercept vs libsvm, absolute
TOL_EQ = 1e-10  # |yᵀα|
TOL_W = 1e-5  # primal vs dual (w, b), absolute

TIGHT = 1e-8  # our solver's tol when compared with libsvm

SOLVERS = ["smo", "qp"]


@pytest.mark.parametrize("solver", SOLVERS)
def test_seed003_four_points(solver):
    X, y = datasets.lin_four_points()
    r = dual_svm(X, y, kernel="linear", solver=solver, tol=TIGHT)
    np.testing.assert_allclose(r.alpha, [0.5, 0.5, 1.0, 0.0], atol=TOL_HAND)
    np.testing.assert_allclose(r.w, [1.0, -1.0], atol=TOL_HAND)
    assert r.b == pytest.approx(-1.0, abs=TOL_HAND)
    assert r.margin == pytest.approx(1 / np.sqrt(2), abs=TOL_HAND)
    np.testing.assert_array_equal(r.support_, [0, 1, 2])
    assert r.bounded_.size == 0 and r.C is None
    np.testing.assert_array_equal(r.predict(X), y)


def test_four_points_lecture_qp_matrices():
    X, y = datasets.lin_four_points()
    r = dual_svm(X, y, kernel="linear", solver="qp")
    Q = (y[:, None] * y[None, :]) * (X @ X.T)
    np.testing.assert_array_equal(r.Q, Q)
    np.testing.assert_array_equal(r.p, -np.ones(4))
    np.testing.assert_array_equal(r.A[0], y)  # a_≥ = y
    np.testing.assert_array_equal(r.A[1], -y)  # a_≤ = −y
    np.testing.assert_array_equal(r.A[2:], np.eye(4))  # α_n ≥ 0
    np.testing.assert_array_equal(r.c, np.zeros(6))
    soft = dual_svm(X, y, kernel="linear", solver="qp", C=2.0)
    assert soft.A.shape == (10, 4) and np.all(soft.c[6:] == -2.0)


@pytest.mark.parametrize("solver", SOLVERS)
def test_sklearn_toy_set(solver):
    X = np.array([[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1.0]])
    y = np.array([-1, -1, -1, 1, 1, 1.0])
    r = dual_svm(X, y, kernel="linear", solver=solver, tol=TIGHT)
    np.testing.assert_allclose(r.alpha, [0, 0.25, 0, 0.25, 0, 0], atol=TOL_HAND)
    np.testing.assert_allclose(r.w, [0.5, 0.5], atol=TOL_HAND)
    assert r.b == pytest.approx(0.0, abs=TOL_HAND)


CASES = [
    ("separable_blobs", "linear", 1.0),
    ("overlapping_blobs", "linear", 0.1),
    ("overlapping_blobs", "rbf", 0.001),  # every SV at the bound: libsvm's midpoint b
    ("overlapping_blobs", "rbf", 10.0),
    ("moons", "poly", 1.0),
    ("moons", "rbf", 1.0),
    ("circles", "rbf", 100.0),
    ("circles", "poly", 0.5),
]


def _sk(kernel_name, C, X, y):
    g = 1.0 / (X.shape[1] * X.var())
    kw = {"gamma": g, "degree": 3, "coef0": 1.0}
    sk = SVC(kernel=kernel_name, C=C, tol=1e-8, **kw).fit(X, y)
    return sk, kw


@pytest.mark.parametrize(("data", "kernel_name", "C"), CASES)
@pytest.mark.parametrize("working_set_size", [None, 16])
def test_against_libsvm(data, kernel_name, C, working_set_size):
    X, y = datasets.load(data, n=150, random_state=1)
    sk, kw = _sk(kernel_name, C, X, y)
    r = dual_svm(X, y, kernel=kernel_name, C=C, tol=TIGHT, working_set_size=working_set_size, **kw)
    K = r.kernel(X[sk.support_])
    dc = sk.dual_coef_[0]
    obj_sk = 0.5 * dc @ K @ dc - np.abs(dc).sum()
    assert r.dual_objective == pytest.approx(obj_sk, rel=TOL_OBJECTIVE)
    assert r.b == pytest.approx(sk.intercept_[0], abs=TOL_B)
    np.testing.assert_array_equal(r.support_, np.sort(sk.support_))
    assert r.status == "optimal"


@pytest.mark.parametrize("seed", range(4))
def test_kkt_properties(seed):
    rng = np.random.default_rng(seed)
    data = ["overlapping_blobs", "moons", "circles", "xor"][seed]
    X, y = datasets.load(data, n=int(rng.integers(40, 200)), random_state=seed)
    C = float(rng.choice([0.1, 1.0, 10.0]))
    tol = 1e-3
    r = dual_svm(X, y, kernel=rbf(float(rng.uniform(0.3, 3.0))), C=C, tol=tol)
    a = r.alpha
    assert np.all(a >= 0) and np.all(a <= C)
    assert abs(y @ a) <= TOL_EQ
    yf = y * r.decision_function(X)
    free = (a > 0) & (a < C)
    assert np.all(np.abs(yf[free] - 1) <= tol)
    assert np.all(yf[a == 0] >= 1 - tol)
    assert np.all(yf[a == C] <= 1 + tol)
    assert r.max_kkt_violation <= tol
    np.testing.assert_allclose(r.kkt.margin, yf, atol=1e-9)
    assert r.duality_gap >= -1e-9


def test_primal_and_dual_agree():
    X, y = datasets.overlapping_blobs(60, random_state=2)
    for C in (0.05, 1.0):
        p = primal_svm(X, y, C=C)
        for solver in SOLVERS:
            d = dual_svm(X, y, kernel="linear", C=C, solver=solver, tol=TIGHT)
            np.testing.assert_allclose(d.w, p.w, atol=TOL_W)
            if d.free_.size:  # b is unique only when some 0 < α < C
                assert d.b == pytest.approx(p.b, abs=TOL_W)
            assert d.primal_objective == pytest.approx(p.objective, rel=1e-6)
    X, y = datasets.separable_blobs(40, random_state=0)
    p = primal_svm(X, y)
    d = dual_svm(X, y, kernel="linear", tol=TIGHT)
    np.testing.assert_allclose(d.w, p.w, atol=TOL_W)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("kernel", ["linear", polynomial(degree=2, gamma=1.0, coef0=0.0)])
def test_hard_margin_not_separable(solver, kernel):
    X, y = datasets.blobs_outlier(40, random_state=0)
    with pytest.raises(NotSeparableError, match=r"not separable.*soft margin"):
        dual_svm(X, y, kernel=kernel, solver=solver)


def test_hard_margin_rbf_duplicate_point():
    X, y = datasets.moons(30, random_state=0)
    X = np.vstack([X, X[:1]])
    y = np.concatenate([y, -y[:1]])
    with pytest.raises(NotSeparableError):
        dual_svm(X, y, kernel="rbf")


def test_hard_margin_rbf_separates():
    X, y = datasets.xor(60, random_state=0)
    r = dual_svm(X, y, kernel="rbf", gamma=2.0, tol=1e-6)
    assert r.bounded_.size == 0 and np.all(y * r.decision_function(X) >= 1 - 1e-5)


def test_max_iter_reported():
    X, y = datasets.overlapping_blobs(200, random_state=0)
    r = dual_svm(X, y, kernel="rbf", C=10.0, max_iter=5)
    assert r.status == "max_iter" and r.n_iter == 5
    r = dual_svm(X, y, kernel="rbf", C=10.0, max_iter=3, working_set_size=8)
    assert r.status == "max_iter"


def test_decomposition_with_shrinking_and_small_cache():
    X, y = datasets.overlapping_blobs(1500, random_state=4)
    kw = {"kernel": "rbf", "gamma": 0.5, "C": 1.0}
    a = dual_svm(X, y, tol=1e-5, cache_size=0.5, working_set_size=64, **kw)
    b = dual_svm(X, y, tol=1e-5, shrinking=False, working_set_size=64, **kw)
    assert a.trace.info["method"] == "decomposition"
    assert a.dual_objective == pytest.approx(b.dual_objective, rel=1e-7)
    assert a.max_kkt_violation <= 1e-5 + 1e-6  # rows cached in float32 (as libsvm)
    sk = SVC(C=1.0, gamma=0.5, tol=1e-5).fit(X, y)
    dc = sk.dual_coef_[0]
    obj_sk = 0.5 * dc @ a.kernel(sk.support_vectors_) @ dc - np.abs(dc).sum()
    assert a.dual_objective == pytest.approx(obj_sk, rel=TOL_OBJECTIVE)
    assert a.b == pytest.approx(sk.intercept_[0], abs=TOL_B)
    # the default (working set 256, float32 rows) agrees too
    c = dual_svm(X, y, tol=1e-5, **kw)
    assert c.dual_objective == pytest.approx(obj_sk, rel=TOL_OBJECTIVE)


def test_trace_contents_and_determinism():
    X, y = datasets.moons(80, random_state=0)
    kw = {"kernel": "rbf", "C": 1.0, "n_snapshots": 20, "n_steps": 50, "solver": "smo"}
    r1 = dual_svm(X, y, **kw)
    r2 = dual_svm(X, y, **kw)
    tr = r1.trace
    assert tr.n_snapshots <= 20 and tr.t[0] == 0 and tr.t[-1] == r1.n_iter
    np.testing.assert_array_equal(tr.snapshots["alpha"][0], 0)
    np.testing.assert_array_equal(tr.snapshots["alpha"][-1], r1.alpha)
    assert tr.snapshots["b"][-1] == pytest.approx(r1.b, abs=1e-12)
    assert tr.snapshots["duality_gap"][-1] == pytest.approx(r1.duality_gap, abs=1e-9)
    assert tr.snapshots["duality_gap"][0] > 10 * r1.duality_gap >= 0
    assert np.all(np.diff(tr.snapshots["dual_objective"]) <= 1e-12)  # SMO descends
    assert min(50, r1.n_iter) <= tr.n_steps <= 50  # pair updates (+ Newton steps, i = -1)
    assert np.all(np.diff(tr.steps["t"]) >= 0)
    s0 = tr.step(0)
    assert {"t", "i", "j", "delta_i", "delta_j", "objective"} <= set(s0)
    for name, values in tr.snapshots.items():
        np.testing.assert_array_equal(values, r2.trace.snapshots[name])
    for name, values in tr.steps.items():
        np.testing.assert_array_equal(values, r2.trace.steps[name])
    big = dual_svm(
        *datasets.overlapping_blobs(1200, random_state=0),
        kernel="rbf",
        C=1.0,
        working_set_size=32,
        n_snapshots=10,
    )
    assert big.trace.n_snapshots <= 10
    np.testing.assert_array_equal(big.trace.snapshots["alpha"][-1], big.alpha)


@pytest.mark.parametrize("C", [None, 0.05, 1.0])
def test_lowrank_ipm_matches_smo(C):
    X, y = datasets.overlapping_blobs(300, random_state=5)
    if C is None:
        X, y = datasets.separable_blobs(300, random_state=5)
    lr = dual_svm(X, y, kernel="linear", C=C, solver="lowrank")
    sm = dual_svm(X, y, kernel="linear", C=C, tol=TIGHT)
    assert lr.status == "optimal" and lr.trace.algorithm == "lowrank_ipm"
    assert lr.dual_objective == pytest.approx(sm.dual_objective, rel=TOL_OBJECTIVE)
    np.testing.assert_allclose(lr.w, sm.w, atol=TOL_W)
    np.testing.assert_array_equal(lr.support_, sm.support_)
    if sm.free_.size:
        assert lr.b == pytest.approx(sm.b, abs=TOL_B)


def test_lowrank_worked_example_and_errors():
    X, y = datasets.lin_four_points()
    r = dual_svm(X, y, kernel="linear", solver="lowrank")
    np.testing.assert_allclose(r.alpha, [0.5, 0.5, 1.0, 0.0], atol=TOL_HAND)
    assert r.b == pytest.approx(-1.0, abs=TOL_HAND)
    with pytest.raises(ValueError, match="solver='lowrank' needs the linear kernel"):
        dual_svm(X, y, kernel="rbf", solver="lowrank")
    Xo, yo = datasets.blobs_outlier(40, random_state=0)
    with pytest.raises(NotSeparableError):
        dual_svm(Xo, yo, kernel="linear", solver="lowrank")


def test_qp_trace_has_residuals():
    X, y = datasets.lin_four_points()
    r = dual_svm(X, y, kernel="linear", solver="qp")
    assert {"primal_residual", "dual_residual", "mu"} <= set(r.trace.snapshots)
    assert r.trace.algorithm == "ipm"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"kernel": "sigmoid"}, "kernel must be"),
        ({"kernel": "rbf", "C": 0.0}, "C must be > 0"),
        ({"kernel": "rbf", "solver": "newton"}, "solver must be one of"),
        ({"kernel": "rbf", "tol": -1.0}, "tol must be > 0"),
        ({"kernel": "rbf", "gamma": -1.0}, "gamma must be > 0"),
        ({"kernel": "poly", "coef0": -1.0}, "coef0 must be >= 0"),
        ({"kernel": "rbf", "max_iter": 0}, "max_iter must be >= 1"),
        ({"kernel": "rbf", "cache_size": 0}, "cache_size must be > 0"),
        ({"kernel": "rbf", "working_set_size": 1}, "working_set_size must be >= 2"),
    ],
)
def test_bad_input(kwargs, match):
    X, y = datasets.moons(20, random_state=0)
    with pytest.raises(ValueError, match=match):
        dual_svm(X, y, **kwargs)


def test_bad_labels_and_X():
    X, y = datasets.moons(20, random_state=0)
    with pytest.raises(ValueError, match="y must contain only the labels"):
        dual_svm(X, (y > 0).astype(int), kernel="rbf")
    with pytest.raises(ValueError, match="X must be finite"):
        dual_svm(np.where(X > 0.5, np.nan, X), y, kernel="rbf")


@pytest.mark.parametrize("n_snapshots", [2, 3, 7])
def test_final_state_always_in_trace(n_snapshots):
    X, y = datasets.circles(120, random_state=2)
    for ws in (None, 16):
        r = dual_svm(X, y, kernel="rbf", C=1.0, n_snapshots=n_snapshots, working_set_size=ws)
        tr = r.trace
        assert 2 <= tr.n_snapshots <= n_snapshots
        assert tr.t[0] == 0 and tr.t[-1] == r.n_iter
        np.testing.assert_array_equal(tr.snapshots["alpha"][-1], r.alpha)
