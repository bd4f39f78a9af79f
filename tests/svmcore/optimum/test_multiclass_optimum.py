"""P* for the convergence panel: the multiclass (Crammer–Singer) optimum and the registry's
exact optima, against hand solutions, scikit-learn and an independent tight solve."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmcore
from svmcore import datasets
from svmcore.optimum.multiclass import multiclass_svm_optimum, project_simplex
from svmcore.optimum.soft_svm import soft_svm_optimum
from svmcore.sgd.multiclass_common import generalized_hinge, zero_one_delta
from svmlab.algorithms import ALGORITHMS
from svmlab.study.convergence import binary_optimum, multiclass_optimum

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-9  # two points by hand (P* = 1/16, W = ±1/4), absolute (solver tol 1e-12)
TOL_LIBLINEAR = 1e-6  # multiclass P* vs LinearSVC(crammer_singer), relative; ours ≤ theirs + gap
TOL_KERNEL_LINEAR = 1e-9  # kernel="linear" vs the explicit W, relative
TOL_SVC = 1e-6  # free bias, RBF, vs SVC(kernel="precomputed"), relative
TOL_FISTA = 1e-7  # homogeneous RBF vs projected-gradient solve, relative (20 000 FISTA steps)
TOL_SIMPLEX_SUM = 1e-12  # simplex projection: Σ μ = 1 (the sign μ ≥ 0 exactly)
TOL_SIMPLEX_KKT = 1e-9  # simplex projection: KKT, v − μ = τ on the support, ≤ τ off it
TOL_IPM_VS_CD = 1e-9  # interior point (linear) vs coordinate descent, absolute
# certified duality gap: 0 ≤ gap ≤ tol (the solver's; 1e-10 for the interior point)
# P* ≤ every multiclass Pegasos snapshot: up to the certified gap (P* is a minimum)


def cs_objective(X, y_idx, W, lam, bias=True, delta=None):
    """λ/2 ‖W‖² + mean generalized hinge, written out independently of the solver."""
    Xa = np.column_stack([X, np.ones(len(X))]) if bias else X
    D = zero_one_delta(W.shape[0]) if delta is None else np.asarray(delta)
    return 0.5 * lam * float(np.sum(W * W)) + float(np.mean(generalized_hinge(Xa @ W.T, y_idx, D)))


def test_two_points_by_hand():
    # x = ±2 (1-D), classes 1 and 0, no bias, λ = 1. By symmetry w₀ = −w₁ = −u/2, and both
    # losses are max(0, 1 − 2u): P(u) = u²/4 + max(0, 1 − 2u), minimised at the kink u = ½
    # (left slope u/2 − 2 < 0, right slope u/2 > 0): P* = 1/16, W = (−¼, ¼).
    r = multiclass_svm_optimum([[2.0], [-2.0]], [1, 0], lam=1.0, bias=False, tol=1e-12)
    assert r.status == "optimal"
    assert r.objective == pytest.approx(1 / 16, abs=TOL_HAND)
    np.testing.assert_allclose(r.W, [[-0.25], [0.25]], atol=TOL_HAND)


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("lam", [0.1, 0.01])
def test_matches_liblinear_crammer_singer(k, lam):
    from sklearn.svm import LinearSVC

    X, y = datasets.load("k_blobs", k=k, random_state=1)
    n = len(y)
    r = multiclass_svm_optimum(X, y, lam=lam, tol=1e-10)  # the app's tol
    ref = LinearSVC(C=1 / (lam * n), multi_class="crammer_singer", tol=1e-10, max_iter=10**6).fit(
        X, y
    )
    W_sk = np.column_stack([ref.coef_, ref.intercept_])
    y_idx = np.searchsorted(np.unique(y), y)
    p_sk = cs_objective(X, y_idx, W_sk, lam)
    assert r.objective == pytest.approx(p_sk, rel=TOL_LIBLINEAR)
    assert r.objective <= p_sk + r.duality_gap + 1e-12
    assert 0.0 <= r.duality_gap <= 1e-10
    assert r.objective == pytest.approx(cs_objective(X, y_idx, r.W, lam), rel=1e-12)


def test_optimum_below_every_multiclass_pegasos_snapshot():
    X, y = datasets.load("k_blobs", k=3, random_state=4)
    for kernel, kw in ((None, {}), ("rbf", {"gamma": 0.5})):
        spec_kw = {"lam": 0.02, "kernel": kernel, **kw}
        r = multiclass_optimum(X, y, spec_kw)
        for averaging in ("average", "last"):
            run = svmcore.multiclass_pegasos(
                X, y, lam=0.02, T=3000, kernel=kernel, averaging=averaging, random_state=2, **kw
            )
            assert np.min(run.trace.snapshots["objective"]) >= r.objective - r.duality_gap
        assert run.objective - r.objective < 0.05  # and Pegasos gets close


def test_linear_kernel_equals_explicit_weights():
    X, y = datasets.load("k_blobs", k=3, random_state=0)
    a = multiclass_svm_optimum(X, y, lam=0.05)
    b = multiclass_svm_optimum(X, y, lam=0.05, kernel="linear")
    assert b.W is None and b.kernel is not None
    assert a.objective == pytest.approx(b.objective, rel=TOL_KERNEL_LINEAR)


def test_cost_matrix_delta():
    X, y = datasets.load("k_blobs", k=3, random_state=2)
    D = np.array([[0.0, 1.0, 4.0], [1.0, 0.0, 1.0], [4.0, 1.0, 0.0]])
    r = multiclass_svm_optimum(X, y, lam=0.05, delta=D)
    y_idx = np.searchsorted(np.unique(y), y)
    assert r.objective == pytest.approx(cs_objective(X, y_idx, r.W, 0.05, delta=D), rel=1e-12)
    run = svmcore.multiclass_pegasos(X, y, lam=0.05, T=2000, delta=D, random_state=0)
    assert np.min(run.trace.snapshots["objective"]) >= r.objective - r.duality_gap


def test_max_iter_reports_status():
    X, y = datasets.load("k_blobs", k=3, random_state=0)
    r = multiclass_svm_optimum(X, y, lam=0.001, max_iter=5)
    assert r.status == "max_iter" and r.n_iter == 5 and "after 5 block updates" in r.solver


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"lam": 0.0}, "lam"),
        ({"lam": 0.1, "tol": -1.0}, "tol"),
        ({"lam": 0.1, "max_iter": 0}, "max_iter"),
        ({"lam": 0.1, "bias": "yes"}, "bias"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        multiclass_svm_optimum([[0.0, 1.0], [1.0, 0.0]], [0, 1], **kwargs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=8))
def test_project_simplex_is_the_euclidean_projection(v):
    v = np.asarray(v)
    mu = project_simplex(v)
    assert np.all(mu >= 0.0) and mu.sum() == pytest.approx(1.0, abs=TOL_SIMPLEX_SUM)
    # KKT of min ½‖μ − v‖² on the simplex: v − μ = τ on the support, ≤ τ off it
    support = mu > 0
    tau = np.mean((v - mu)[support])
    np.testing.assert_allclose((v - mu)[support], tau, atol=TOL_SIMPLEX_KKT)
    assert np.all((v - mu)[~support] <= tau + TOL_SIMPLEX_KKT)


def box_qp_fista(Q, upper, steps=20_000):
    """min ½αᵀQα − 1ᵀα on 0 ≤ α ≤ upper by accelerated projected gradient (independent)."""
    L = np.linalg.eigvalsh(Q)[-1]
    a = z = np.zeros(len(upper))
    s = 1.0
    for _ in range(steps):
        a_next = np.clip(z - (Q @ z - 1.0) / L, 0.0, upper)
        s_next = (1 + np.sqrt(1 + 4 * s * s)) / 2
        z = a_next + (s - 1) / s_next * (a_next - a)
        a, s = a_next, s_next
    return a


def test_homogeneous_rbf_against_a_tight_projected_gradient_solve():
    X, y = datasets.load("moons", n=60, random_state=0)
    lam, n = 0.05, len(y)
    k = svmcore.rbf(gamma=2.0)
    r = binary_optimum(X, y, {"lam": lam, "kernel": k})
    Q = (y[:, None] * y[None, :]) * k(X)
    a = box_qp_fista(Q, np.full(n, 1 / (lam * n)))
    dual = lam * (a.sum() - 0.5 * a @ Q @ a)
    assert r.objective == pytest.approx(dual, rel=TOL_FISTA)
    assert r.objective >= dual - 1e-12  # weak duality: any dual point is below P*


def test_free_bias_rbf_against_svc_precomputed():
    from sklearn.svm import SVC

    X, y = datasets.load("moons", n=80, random_state=1)
    lam, n = 0.02, len(y)
    k = svmcore.rbf(gamma=1.5)
    r = binary_optimum(X, y, {"lam": lam, "kernel": k, "bias": "free"})
    K = k(X)
    clf = SVC(kernel="precomputed", C=1 / (lam * n), tol=1e-10).fit(K, y)
    coef = np.zeros(n)
    coef[clf.support_] = clf.dual_coef_.ravel()
    f = K @ coef + clf.intercept_[0]
    p_sk = 0.5 * lam * coef @ K @ coef + np.mean(np.maximum(0, 1 - y * f))
    assert r.objective == pytest.approx(p_sk, rel=TOL_SVC)


def test_registry_optimum_follows_the_run_options():
    X, y = datasets.load("overlapping_blobs")
    spec = ALGORITHMS["pegasos"]
    params = dict(lam=0.01, T=2000, bias="augment", class_weight="balanced", random_state=0)
    opt = spec.optimum(X, y, spec.kwargs(params))
    run = spec.fit(X, y, params)
    assert np.min(run.trace.snapshots["objective"]) >= opt.objective - 1e-12
    with pytest.raises(ValueError, match="w_ref"):
        spec.optimum(X, y, {**params, "w_ref": (0.0, 0.0, 0.0)})
    kspec = ALGORITHMS["kernel_pegasos"]
    kparams = dict(kernel="rbf", gamma=2.0, lam=0.05, T=2000, random_state=0)
    kopt = kspec.optimum(X, y, kspec.kwargs(kparams))
    assert np.min(kspec.fit(X, y, kparams).trace.snapshots["objective"]) >= kopt.objective
    for key in ("perceptron", "multiclass_sgd"):  # SGD without P*: the reason is given
        assert ALGORITHMS[key].optimum is None and "P*" in ALGORITHMS[key].no_optimum


def test_lazy_exports():
    assert svmcore.multiclass_svm_optimum is multiclass_svm_optimum
    assert "MulticlassOptimumResult" in dir(svmcore)


@pytest.mark.parametrize("bias", ["none", "augment"])
@pytest.mark.parametrize("lam", [0.1, 1e-3, 1e-4])
def test_interior_point_equals_coordinate_descent(bias, lam):
    X, y = datasets.load("overlapping_blobs", n=120, random_state=3)
    cw = {1: 2.0}
    ipm = soft_svm_optimum(X, y, lam=lam, bias=bias, class_weight=cw, method="ipm")
    cd = soft_svm_optimum(X, y, lam=lam, bias=bias, class_weight=cw)
    assert ipm.status == "optimal" and 0.0 <= ipm.duality_gap <= 1e-10
    assert ipm.objective == pytest.approx(cd.objective, abs=TOL_IPM_VS_CD)
    assert "interior point" in ipm.solver
    with pytest.raises(ValueError, match="method"):
        soft_svm_optimum(X, y, lam=lam, kernel="rbf", method="ipm")
    with pytest.raises(ValueError, match="method"):
        soft_svm_optimum(X, y, lam=lam, bias="free", method="ipm")
