"""Regularized multiclass Pegasos, linear and kernelized (svmcore.sgd.multiclass_pegasos)."""

import numpy as np
import pytest
from sklearn.svm import LinearSVC

from svmcore.datasets import k_blobs
from svmcore.kernels import rbf
from svmcore.sgd.common import harmonic
from svmcore.sgd.multiclass_common import generalized_hinge, zero_one_delta
from svmcore.sgd.multiclass_pegasos import multiclass_pegasos

# Tolerance table ------------------------------------------------------------------------
TOL_TRANSCRIPTION = 1e-12  # the update written out in the test vs the θ-engine
TOL_KERNEL_VS_LINEAR = 1e-10  # kernel="linear" vs explicit W (SSBD Lemma 16.3)
TOL_SKLEARN_OBJECTIVE = 1e-2  # Pegasos (large T) vs LinearSVC(crammer_singer) objective
TOL_SKLEARN_FLOOR = 1e-6  # how far Pegasos may sit *below* liblinear's (inexact) optimum
TOL_OBJECTIVE = 1e-12  # reported objective vs recomputed

MIN_AGREEMENT = 0.97  # share of points where Pegasos and LinearSVC predict alike
MIN_RING_ACCURACY = 1.0  # RBF multiclass Pegasos on three rings


def box_pegasos(X, y, k, lam, indices, delta, *, schedule, averaging, bias=True):
    """Plain loop: "pegasos": W ← (1 − η_tλ) W − η_t v_t, η_t = 1/(λt);
    "ssbd": θ ← θ − v_t, W(t) = θ(t)/(λt). Output mean of W(1..T) or W(T+1)."""
    Xa = np.hstack([X, np.ones((len(X), 1))]) if bias else X
    W = np.zeros((k, Xa.shape[1]))
    theta = np.zeros_like(W)
    total = np.zeros_like(W)
    T = len(indices)
    for t, i in enumerate(indices, start=1):
        if schedule == "ssbd":
            W = theta / (lam * t)
        total += W
        x, yi = Xa[i], y[i]
        scores = [delta[c, yi] + W[c] @ x - W[yi] @ x for c in range(k)]
        y_hat = int(np.argmax(scores))
        v = np.zeros_like(W)
        if y_hat != yi:
            v[y_hat] += x
            v[yi] -= x
        if schedule == "pegasos":
            eta = 1.0 / (lam * t)
            W = (1.0 - eta * lam) * W - eta * v
        else:
            theta = theta - v
    if averaging == "average":
        return total / T
    return W if schedule == "pegasos" else theta / (lam * (T + 1))


@pytest.fixture
def small3():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 2))
    y = rng.integers(0, 3, 30)
    y[:3] = [0, 1, 2]
    return X, y


def rings(m=50, noise=0.1, seed=0):
    """Three concentric rings of radii 1, 2, 3: classes 0, 1, 2."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi, 3 * m)
    radius = np.repeat([1.0, 2.0, 3.0], m) + rng.normal(0, noise, 3 * m)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]), np.repeat(
        [0, 1, 2], m
    )


# -- the update rule ---------------------------------------------------------------------
def test_first_step_by_hand():
    # t = 1, "pegasos": W(1) = 0, η_1 = 1/λ; x = (1, 2) of class 1, ŷ = 0 (tie at W = 0)
    # W(2) = (1 − 1) W(1) − (1/λ)(Ψ(x, 0) − Ψ(x, 1)): row 0 = −x̃/λ, row 1 = +x̃/λ.
    X = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.0]])
    y = np.array([1, 0, 2])
    r = multiclass_pegasos(X, y, lam=0.5, T=1, indices=[0], averaging="last")
    np.testing.assert_array_equal(r.W_last, [[-2.0, -4.0, -2.0], [2.0, 4.0, 2.0], [0, 0, 0]])
    s = multiclass_pegasos(X, y, lam=0.5, T=1, indices=[0], averaging="last", schedule="ssbd")
    np.testing.assert_array_equal(s.W_last, [[-1.0, -2.0, -1.0], [1.0, 2.0, 1.0], [0, 0, 0]])
    # the inspector's step: the recorded η_t is the step the shown update takes,
    # W(t+1) = (1 − η_t λ) W(t) − η_t v_t: 1/(λt) ("pegasos"), 1/(λ(t+1)) ("ssbd").
    assert r.trace.steps["eta"][0] == 2.0  # η_1 = 1/(0.5·1)
    assert s.trace.steps["eta"][0] == 1.0  # η_1 = 1/(0.5·2): W(2) = −v_1/(2λ)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("bias", [True, False])
def test_equals_the_plain_update(small3, schedule, averaging, bias):
    X, y = small3
    T, lam = 500, 0.05
    indices = np.random.default_rng(9).integers(0, len(y), T)
    D = np.array([[0, 2, 0.5], [1, 0, 3], [0.25, 1, 0]])
    r = multiclass_pegasos(
        X,
        y,
        lam=lam,
        T=T,
        indices=indices,
        delta=D,
        bias=bias,
        schedule=schedule,
        averaging=averaging,
        n_steps=100,
    )
    W = box_pegasos(X, y, 3, lam, indices, D, schedule=schedule, averaging=averaging, bias=bias)
    np.testing.assert_allclose(r.W, W, rtol=0, atol=TOL_TRANSCRIPTION)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
def test_linear_kernel_equals_explicit_weights(small3, schedule, averaging):
    X, y = small3
    common = dict(lam=0.1, T=800, random_state=4, schedule=schedule, averaging=averaging)
    lin = multiclass_pegasos(X, y, **common)
    ker = multiclass_pegasos(X, y, kernel="linear", **common)
    Z = np.random.default_rng(0).normal(size=(20, 2))
    np.testing.assert_allclose(
        ker.decision_function(Z), lin.decision_function(Z), rtol=0, atol=TOL_KERNEL_VS_LINEAR
    )
    assert ker.objective == pytest.approx(lin.objective, abs=TOL_KERNEL_VS_LINEAR)
    # W = Σ_j α_j x̃_j class by class
    Xa = np.hstack([X, np.ones((len(X), 1))])
    np.testing.assert_allclose(ker.alpha.T @ Xa, lin.W, atol=TOL_KERNEL_VS_LINEAR)


def test_harmonic_numbers():
    assert harmonic(0) == 0.0
    assert harmonic(4) == pytest.approx(1 + 1 / 2 + 1 / 3 + 1 / 4, abs=1e-15)
    m = 100_000
    assert harmonic(m) == pytest.approx(np.sum(1.0 / np.arange(1, m + 1)), rel=1e-14)


# -- against scikit-learn ----------------------------------------------------------------
def test_approaches_liblinear_crammer_singer():
    # LinearSVC(crammer_singer) minimises ½‖W‖² + C Σ_i ξ_i; divided by Cn this is
    # λ/2‖W‖² + mean generalized hinge (0-1 Δ) with λ = 1/(Cn). No intercept on either side.
    X, y = k_blobs(n=150, noise=1.2, random_state=1, k=3)
    n, lam = len(y), 0.05
    svc = LinearSVC(
        multi_class="crammer_singer",
        C=1.0 / (lam * n),
        fit_intercept=False,
        tol=1e-8,
        max_iter=100_000,
    ).fit(X, y)
    W_svc = svc.coef_
    f_svc = 0.5 * lam * np.sum(W_svc**2) + np.mean(
        generalized_hinge(X @ W_svc.T, y, zero_one_delta(3))
    )
    r = multiclass_pegasos(X, y, lam=lam, T=100_000, bias=False, random_state=0)
    assert r.objective - f_svc < TOL_SKLEARN_OBJECTIVE
    assert r.objective - f_svc > -TOL_SKLEARN_FLOOR
    assert np.mean(r.predict(X) == svc.predict(X)) >= MIN_AGREEMENT
    # a short run is visibly worse: the test can tell convergence from luck
    short = multiclass_pegasos(X, y, lam=lam, T=30, bias=False, random_state=0)
    assert short.objective - f_svc > TOL_SKLEARN_OBJECTIVE


def test_reported_objective_is_the_crammer_singer_objective(small3):
    X, y = small3
    for kernel in (None, rbf(0.7)):
        r = multiclass_pegasos(X, y, lam=0.1, T=300, kernel=kernel, random_state=1)
        S = r.decision_function(X)
        if kernel is None:
            norm2 = np.sum(r.W**2)
        else:
            K = kernel(X) + 1.0
            norm2 = np.einsum("jc,jl,lc->", r.alpha, K, r.alpha)
        hinge = np.mean(generalized_hinge(S, y, zero_one_delta(3)))
        assert r.objective == pytest.approx(0.05 * norm2 + hinge, abs=TOL_OBJECTIVE)
        assert r.hinge == pytest.approx(hinge, abs=TOL_OBJECTIVE)
        assert r.train_error == np.mean(r.predict(X) != y)


# -- the kernelized version --------------------------------------------------------------
def test_rbf_separates_concentric_rings():
    X, y = rings()
    r = multiclass_pegasos(X, y, lam=1e-3, T=20_000, kernel="rbf", gamma=1.0, random_state=0)
    assert np.mean(r.predict(X) == y) >= MIN_RING_ACCURACY
    Xt, yt = rings(seed=1)
    assert np.mean(r.predict(Xt) == yt) >= 0.95
    # no line separates rings: the linear version cannot do it
    lin = multiclass_pegasos(X, y, lam=1e-3, T=20_000, random_state=0)
    assert lin.train_error > 0.3


def test_kernel_coefficients_and_trace(small3):
    X, y = small3
    T, lam = 600, 0.2
    r = multiclass_pegasos(
        X,
        y,
        lam=lam,
        T=T,
        kernel="rbf",
        random_state=2,
        averaging="last",
        n_snapshots=15,
        n_steps=T,
    )
    n, k = len(y), 3
    # each violated step adds +1 to β[i, y_i] and −1 to β[i, ŷ]: integer rows summing to 0
    np.testing.assert_array_equal(r.beta, np.round(r.beta))
    np.testing.assert_array_equal(r.beta.sum(axis=1), 0.0)
    # and one such pair per step with ŷ ≠ y (all T steps recorded here)
    assert np.sum(np.abs(r.beta)) / 2 == np.sum(r.trace.steps["changed"])
    # "last" under "pegasos": α(T+1) = β(T+1)/(λT)
    np.testing.assert_allclose(r.alpha, r.beta / (lam * T), rtol=1e-15)
    tr = r.trace
    assert tr.snapshots["alpha"].shape == (len(tr), n, k)
    assert tr.snapshots["beta"].shape == (len(tr), n, k)
    np.testing.assert_array_equal(tr.snapshots["alpha"][-1], r.alpha)
    assert tr.steps["scores"].shape == (T, k)
    np.testing.assert_array_equal(tr.steps["changed"], tr.steps["y_hat"] != tr.steps["y"])
    support = np.flatnonzero(np.any(r.alpha != 0, axis=1))
    np.testing.assert_array_equal(r.support_, support)


def test_same_seed_same_trace_bit_for_bit(small3):
    X, y = small3
    for kernel in (None, "rbf"):
        a, b = (
            multiclass_pegasos(X, y, lam=0.05, T=3000, kernel=kernel, random_state=8)
            for _ in range(2)
        )
        for name in a.trace.snapshots:
            np.testing.assert_array_equal(a.trace.snapshots[name], b.trace.snapshots[name])
        for name in a.trace.steps:
            np.testing.assert_array_equal(a.trace.steps[name], b.trace.steps[name])


def test_well_separated_blobs_are_learned():
    X, y = k_blobs(n=200, noise=0.4, random_state=0, k=4)
    for kernel in (None, "rbf"):
        r = multiclass_pegasos(X, y, lam=1e-3, T=10_000, kernel=kernel, random_state=0)
        assert r.train_error == 0.0


# -- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"lam": 0.0}, "lam must be > 0"),
        ({"T": 0}, "T must be >= 1"),
        ({"y": np.ones(6)}, "y must contain at least two classes"),
        ({"schedule": "sgd"}, "schedule must be one of"),
        ({"averaging": "median"}, "averaging must be one of"),
        ({"kernel": "sigmoid"}, "kernel must be"),
        ({"kernel": "rbf", "gamma": -1.0}, "gamma must be > 0"),
        ({"delta": np.eye(3)}, "delta must have a zero diagonal"),
        ({"delta": np.zeros((4, 4))}, "delta must be a k × k matrix with k = 3"),
        ({"indices": [0, 1, 2, -1]}, "indices must lie in"),
    ],
)
def test_bad_input_names_argument_and_rule(kwargs, match):
    args = {
        "X": np.arange(12.0).reshape(6, 2),
        "y": np.array([0, 1, 2, 0, 1, 2]),
        "lam": 0.1,
        "T": 4,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        multiclass_pegasos(**args)


def test_kernel_version_refuses_huge_gram_matrices():
    from svmcore.sgd.multiclass_pegasos import MAX_KERNEL_N

    n = MAX_KERNEL_N + 1
    X = np.zeros((n, 1))
    y = np.arange(n) % 2
    with pytest.raises(ValueError, match=f"accepts at most {MAX_KERNEL_N} rows"):
        multiclass_pegasos(X, y, lam=0.1, T=1, kernel="rbf")


def test_package_export_is_callable_after_the_submodule_import(small3):
    import svmcore

    X, y = small3
    a = svmcore.multiclass_pegasos(X, y, lam=0.1, T=50, random_state=0)
    b = multiclass_pegasos(X, y, lam=0.1, T=50, random_state=0)
    np.testing.assert_array_equal(a.W, b.W)
