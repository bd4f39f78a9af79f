"""P*, the exact minimum of the SGD objective (svmcore.optimum.soft_svm)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmcore
from svmcore import datasets
from svmcore.optimum.soft_svm import coordinate_descent, soft_svm_optimum, suboptimality_curve

# Tolerance table ------------------------------------------------------------------------
TOL_LIBLINEAR = 1e-6  # P* vs scikit-learn LinearSVC (bias none), relative
TOL_HAND = 1e-12  # P* vs the hand-solved two-point problems, absolute
TOL_BELOW_PEGASOS = 1e-12  # P* ≤ any Pegasos objective, absolute (P* is a minimum)
TOL_GAP_BELOW = 1e-14  # duality gap P* − D(α) ≥ −this, relative (rounding)
TOL_GAP = 1e-8  # duality gap P* − D(α) ≤ this, relative (solver tol 1e-10)
TOL_SVC = 1e-6  # "free" vs scikit-learn SVC (same C), relative
# KKT: projected gradient / SMO gap within the solver's tol
# Pegasos O(log T/(λT)) slope: in [−1.3, −0.6] (5 seeds, one preset)

TWO_X, TWO_Y = [[2.0, 0.0], [-2.0, 0.0]], [1.0, -1.0]


def objective(X, y, w, b, lam, bias="none", c=None):
    """λ/2 ‖w‖² (+ λ/2 b² under augment) + (1/n) Σ c_i max{0, 1 − y_i (⟨w, x_i⟩ + b)}."""
    c = np.ones(len(y)) if c is None else c
    reg = w @ w + (b * b if bias == "augment" else 0.0)
    return 0.5 * lam * reg + np.mean(c * np.maximum(0.0, 1.0 - y * (X @ w + b)))


def test_two_points_by_hand():
    # x = (±2, 0), y = ±1, λ = 1: both hinges are max(0, 1 − 2w₁), so
    # P(w) = ½‖w‖² + max(0, 1 − 2w₁), minimised where w₁ − 2 · [hinge active] ∋ 0 with
    # 2w₁ ≤ 1: w = (½, 0), the hinge exactly 0, P* = ⅛. w = Σ α_i y_i x_i = 2(α₁ + α₂),
    # so α₁ + α₂ = ¼ (Q is singular: the split is not unique), inside the box [0, ½]².
    r = soft_svm_optimum(TWO_X, TWO_Y, lam=1.0)
    assert r.objective == pytest.approx(0.125, abs=TOL_HAND)
    np.testing.assert_allclose(r.w, [0.5, 0.0], atol=TOL_HAND)
    assert r.alpha.sum() == pytest.approx(0.25, abs=TOL_HAND)
    assert r.b == 0.0 and r.status == "optimal"


def test_box_bound_by_hand():
    # Same points, λ = 8: α₁ + α₂ = ¼ is out of reach of the box 0 ≤ α_i ≤ 1/(λn) = 1/16,
    # so α = (1/16, 1/16), w = (¼, 0), both hinges 1 − 2 · ¼ = ½ and
    # P* = (8/2) · (1/16) + ½ = ¾.
    r = soft_svm_optimum(TWO_X, TWO_Y, lam=8.0)
    np.testing.assert_allclose(r.alpha, [1 / 16, 1 / 16], atol=1e-15)
    assert r.objective == pytest.approx(0.75, abs=TOL_HAND)


@pytest.mark.parametrize("name", ["overlapping_blobs", "separable_blobs", "moons"])
@pytest.mark.parametrize("lam", [0.1, 0.01])
def test_matches_liblinear_without_intercept(name, lam):
    from sklearn.svm import LinearSVC

    X, y = datasets.load(name)
    n = len(y)
    r = soft_svm_optimum(X, y, lam=lam)
    clf = LinearSVC(
        loss="hinge", dual=True, fit_intercept=False, C=1 / (lam * n), tol=1e-12, max_iter=10**6
    ).fit(X, y)
    p_sk = objective(X, y, clf.coef_.ravel(), 0.0, lam)
    assert r.objective == pytest.approx(p_sk, rel=TOL_LIBLINEAR)
    assert r.dual_objective <= p_sk * (1 + 1e-14)  # weak duality: D(α) ≤ P(any w)
    np.testing.assert_allclose(r.w, clf.coef_.ravel(), rtol=1e-4, atol=1e-6)
    assert r.objective == pytest.approx(objective(X, y, r.w, r.b, lam), rel=1e-12)


@pytest.mark.parametrize("bias", ["none", "augment", "free"])
def test_kkt_and_duality_gap(bias):
    X, y = datasets.load("overlapping_blobs")
    lam, n = 0.05, len(y)
    r = soft_svm_optimum(X, y, lam=lam, bias=bias)
    assert r.status == "optimal"
    assert r.kkt_violation <= 1e-10
    assert -TOL_GAP_BELOW <= r.duality_gap / r.objective <= TOL_GAP  # ≥ 0 up to rounding
    assert np.all(r.alpha >= 0.0) and np.all(r.alpha <= 1.0 / (lam * n) * (1 + 1e-12))
    if bias == "free":
        assert abs(r.alpha @ y) <= 1e-10 * np.sum(r.alpha)
    if bias == "augment":
        assert r.b == pytest.approx(r.alpha @ y, abs=1e-15)
    # KKT by hand: α_i = 0 ⇒ y f ≥ 1, α_i = U ⇒ y f ≤ 1, in between y f = 1 (to 1e-6).
    yf = y * r.decision_function(X)
    U = 1.0 / (lam * n)
    zero, full = r.alpha <= 1e-12 * U, r.alpha >= U * (1 - 1e-12)
    assert np.all(yf[zero] >= 1 - 1e-6)
    assert np.all(yf[full] <= 1 + 1e-6)
    np.testing.assert_allclose(yf[~zero & ~full], 1.0, atol=1e-6)


def test_free_bias_matches_svc():
    from sklearn.svm import SVC

    X, y = datasets.load("overlapping_blobs")
    lam, n = 0.05, len(y)
    r = soft_svm_optimum(X, y, lam=lam, bias="free")
    clf = SVC(kernel="linear", C=1 / (lam * n), tol=1e-10).fit(X, y)
    p_sk = objective(X, y, clf.coef_.ravel(), float(clf.intercept_[0]), lam)
    assert r.objective == pytest.approx(p_sk, rel=TOL_SVC)
    assert "SMO" in r.solver and "svmcore.dual_svm" in r.solver


def test_augment_is_the_appended_constant_feature():
    # bias="augment" must be "none" on X with a column of ones appended.
    X, y = datasets.load("moons")
    r = soft_svm_optimum(X, y, lam=0.02, bias="augment")
    ra = soft_svm_optimum(np.hstack([X, np.ones((len(y), 1))]), y, lam=0.02)
    assert r.objective == pytest.approx(ra.objective, rel=1e-12)
    np.testing.assert_allclose(np.append(r.w, r.b), ra.w, atol=1e-9)


def test_kernel_optimum_below_kernel_pegasos():
    X, y = datasets.load("moons")
    k = svmcore.rbf(gamma=2.0)
    r = soft_svm_optimum(X, y, lam=0.05, kernel=k)
    assert r.w is None and r.kernel == k
    kp = svmcore.kernel_pegasos(X, y, kernel=k, lam=0.05, T=5000, random_state=3)
    assert r.objective <= kp.objective + TOL_BELOW_PEGASOS
    assert kp.objective - r.objective < 0.05  # and Pegasos gets close
    # f of the optimum is the kernel expansion of its coefficients
    np.testing.assert_allclose(r.decision_function(X[:5]), k(X[:5], X) @ r.coef, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    lam=st.sampled_from([0.3, 0.03, 0.003]),
    bias=st.sampled_from(["none", "augment", "free"]),
    weighted=st.booleans(),
)
def test_optimum_below_every_pegasos_run(seed, lam, bias, weighted):
    X, y = datasets.overlapping_blobs(n=30, random_state=seed % 100)
    cw = {1: 3.0} if weighted and bias != "free" else None
    r = soft_svm_optimum(X, y, lam=lam, bias=bias, class_weight=cw)
    for averaging in ("average", "last"):
        p = svmcore.pegasos(
            X, y, lam=lam, T=300, bias=bias, class_weight=cw, averaging=averaging, random_state=seed
        )
        assert r.objective <= p.objective + TOL_BELOW_PEGASOS
        t, gap = suboptimality_curve(p, X, y, r)
        assert np.all(gap >= -TOL_BELOW_PEGASOS) and t[-1] == 300


def test_averaged_pegasos_rate():
    # SSBD: E[P(w̄_T)] − P* = O(log T/(λT)); on one preset, averaged over 5 seeds the
    # log–log slope over T = 10², …, 10⁵ is about −1 (measured −0.95).
    X, y = datasets.load("overlapping_blobs")
    lam = 0.1
    p_star = soft_svm_optimum(X, y, lam=lam).objective
    Ts = np.array([10**2, 10**3, 10**4, 10**5])
    gaps = (
        np.mean(
            [
                [
                    svmcore.pegasos(X, y, lam=lam, T=T, random_state=s, n_snapshots=1).objective
                    for T in Ts
                ]
                for s in range(5)
            ],
            axis=0,
        )
        - p_star
    )
    assert np.all(gaps > 0)
    slope = np.polyfit(np.log(Ts), np.log(gaps), 1)[0]
    assert -1.3 <= slope <= -0.6


def test_suboptimality_curve_reads_the_trace():
    X, y = datasets.load("separable_blobs")
    p = svmcore.pegasos(X, y, lam=0.1, T=2000, random_state=0, n_snapshots=20)
    r = soft_svm_optimum(X, y, lam=0.1)
    t, gap = suboptimality_curve(p, X, y, r.objective)
    np.testing.assert_array_equal(t, p.trace.t)
    np.testing.assert_allclose(gap, p.trace.snapshots["objective"] - r.objective, rtol=0, atol=0)
    assert gap[-1] == pytest.approx(p.objective - r.objective, abs=1e-15)
    # P* of another λ lies above some of the run's objectives: refused.
    with pytest.raises(ValueError, match="not the minimum"):
        suboptimality_curve(p, X, y, soft_svm_optimum(X, y, lam=10.0))
    with pytest.raises(ValueError, match="samples"):
        suboptimality_curve(p, X[:-1], y[:-1], r)
    with pytest.raises(ValueError, match="trace"):
        suboptimality_curve(r, X, y, r)


def test_coordinate_descent_zero_diagonal_goes_to_the_bound():
    # x = 0 gives Q_ii = 0: the coordinate's objective is −α_i, minimised at U_i.
    alpha, _, viol = coordinate_descent(np.zeros((1, 1)), np.array([0.5]), tol=1e-12, max_iter=5)
    np.testing.assert_array_equal(alpha, [0.5])
    assert viol == 0.0


@pytest.mark.parametrize("kernel", [None, "rbf"])
def test_polish_reaches_the_same_optimum(kernel):
    # The exact solve on the free coordinates only shortens the run: plain coordinate
    # descent (no polish) ends at the same α to 1e-8 (α ≤ 1/(λn) = 0.2).
    X, y = datasets.load("moons")
    k = svmcore.rbf(3.0) if kernel else svmcore.linear()
    Q = (y[:, None] * y[None, :]) * k(X)
    upper = np.full(len(y), 1.0 / (0.05 * len(y)))
    a1, n1, v1 = coordinate_descent(Q, upper, tol=1e-10, max_iter=10**5)
    a2, n2, v2 = coordinate_descent(Q, upper, tol=1e-10, max_iter=10**5, polish_every=10**9)
    assert v1 <= 1e-10 and v2 <= 1e-10 and n1 <= n2
    np.testing.assert_allclose(a1, a2, atol=1e-8)


def test_max_iter_reports_status():
    X, y = datasets.load("overlapping_blobs")
    r = soft_svm_optimum(X, y, lam=0.001, max_iter=1)
    assert r.status == "max_iter" and r.n_iter == 1 and r.kkt_violation > 1e-10
    assert "stopped after 1 sweeps" in r.solver


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"lam": 0.0}, "lam"),
        ({"lam": 0.1, "bias": "both"}, "bias"),
        ({"lam": 0.1, "tol": -1.0}, "tol"),
        ({"lam": 0.1, "max_iter": 0}, "max_iter"),
        ({"lam": 0.1, "bias": "free", "class_weight": "balanced"}, "class_weight"),
        ({"lam": 0.1, "kernel": "sigmoid"}, "kernel"),
    ],
)
def test_bad_input(kwargs, match):
    X, y = datasets.load("lin_four_points")
    with pytest.raises(ValueError, match=match):
        soft_svm_optimum(X, y, **kwargs)


def test_too_many_points_refused():
    from svmcore.optimum.soft_svm import MAX_N

    X = np.zeros((MAX_N + 1, 1))
    y = np.where(np.arange(MAX_N + 1) % 2, 1.0, -1.0)
    with pytest.raises(ValueError, match="MAX_N"):
        soft_svm_optimum(X, y, lam=0.1)


def test_lazy_exports():
    assert svmcore.soft_svm_optimum is soft_svm_optimum
    assert svmcore.suboptimality_curve is suboptimality_curve
    assert "OptimumResult" in dir(svmcore)
