"""Class weights for the multiclass algorithms: seed 002 §2.1's weighted hinge
c_{y_i} max{…} in SSBD §17.2's multiclass SGD, multiclass Pegasos (linear and kernelized)
and the exact optimum P* of the weighted Crammer–Singer objective.

The weighted loss of (x_i, y_i) is c_{y_i} ℓ_i, its subgradient c_{y_i} v_t, so every update
on point i is scaled by c_{y_i} and ŷ is unchanged. Repeating a point c times is *not* the
same run (each repeat is a step of its own, with its own argmax), so the first steps are
computed by hand; the objective and its minimum are, exactly, those of the data with every
point repeated c_{y_i} times at λ′ = λ n/n′ (n′ = Σ_i c_{y_i}).
"""

import numpy as np
import pytest

import svmcore
from svmcore.sgd import multiclass_pegasos as mp
from svmcore.sgd.kernel_multiclass_pegasos import kernel_step
from svmcore.sgd.multiclass_common import check_multiclass_class_weight, generalized_hinge

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-15  # the first steps computed by hand (dyadic numbers) vs the run: exact
TOL_TRANSCRIPTION = 1e-12  # the weighted box written out in the test vs the engine
TOL_OPTIMUM = 1e-7  # P* of the weighted objective vs P* of the repeated data (gap ≤ 1e-9 each)

ENGINES = ("fast", "textbook")
# three classes, integer points (SSBD's multiclass box runs exactly on them)
X3 = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
Y3 = np.array([0, 1, 2])
W3 = {0: 1.0, 1: 2.0, 2: 3.0}


def _data(seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b", "c"], [12, 6, 4])
    X = rng.normal(size=(22, 2)) + np.repeat([[0, 0], [2, 1], [0, 3]], [12, 6, 4], axis=0)
    return X, y


def test_balanced_weights_are_n_over_k_n_y_and_dict_keys_are_labels():
    classes, y_idx = np.array(["a", "b", "c"]), np.array([0] * 12 + [1] * 6 + [2] * 4)
    per_class, per_sample = check_multiclass_class_weight("balanced", classes, y_idx)
    np.testing.assert_array_equal(per_class, [22 / 36, 22 / 18, 22 / 12])
    np.testing.assert_array_equal(per_sample, per_class[y_idx])
    per_class, _ = check_multiclass_class_weight({"b": 4.0}, classes, y_idx)
    np.testing.assert_array_equal(per_class, [1.0, 4.0, 1.0])


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"z": 2.0}, "class_weight keys must be labels"),
        ({"a": 0.0}, "must be > 0"),
        ("even", "class_weight"),
        ([1.0, 2.0], "class_weight must be None, 'balanced' or a dict"),
    ],
)
def test_bad_class_weights_are_refused_naming_the_argument(bad, message):
    X, y = _data()
    with pytest.raises(ValueError, match=message):
        svmcore.multiclass_sgd(X, y, eta=0.1, T=5, class_weight=bad)
    with pytest.raises(ValueError, match=message):
        svmcore.multiclass_pegasos(X, y, lam=0.1, T=5, class_weight=bad)
    with pytest.raises(ValueError, match=message):
        svmcore.multiclass_svm_optimum(X, y, lam=0.1, class_weight=bad)


@pytest.mark.parametrize("engine", ENGINES)
def test_unit_weights_are_the_unweighted_run_bit_for_bit(engine):
    X, y = _data()
    ones = {"a": 1.0, "b": 1.0, "c": 1.0}
    runs = [
        (svmcore.multiclass_sgd, {"eta": 0.1}),
        (svmcore.multiclass_pegasos, {"lam": 0.1}),
        (svmcore.multiclass_pegasos, {"lam": 0.1, "kernel": "rbf", "averaging": "last"}),
    ]
    for fn, kw in runs:
        a = fn(X, y, T=200, random_state=0, engine=engine, n_steps=50, **kw)
        b = fn(X, y, T=200, random_state=0, engine=engine, n_steps=50, class_weight=ones, **kw)
        for name in a.trace.snapshots:
            np.testing.assert_array_equal(a.trace.snapshots[name], b.trace.snapshots[name])
        for name in a.trace.steps:
            np.testing.assert_array_equal(a.trace.steps[name], b.trace.steps[name])
    a = svmcore.multiclass_svm_optimum(X, y, lam=0.1)
    b = svmcore.multiclass_svm_optimum(X, y, lam=0.1, class_weight=ones)
    np.testing.assert_array_equal(a.alpha, b.alpha)
    assert a.objective == b.objective


@pytest.mark.parametrize("engine", ENGINES)
def test_the_first_weighted_sgd_steps_by_hand(engine):
    """η = 1/2, c = (1, 2, 3), points 1, 2, 3 in turn, x̃ = (x, 1):
    t = 1, y = 0: w = 0, scores Δ = (0, 1, 1), ŷ = 1; w_1 += η c_0 x̃_1, w_0 −= … (c_0 = 1);
    t = 2, y = 1: ⟨w_c, x̃_2⟩ = (1/2, −1/2, 0), scores (2, 0, 3/2), ŷ = 0, step η c_1 = 1;
    t = 3, y = 2: ⟨w_c, x̃_3⟩ = (0, 0, 0), scores (1, 1, 0), ŷ = 0 (the smallest), η c_2 = 3/2.
    The weighted objective of w(4): ℓ = (1, 0, 0), (1/3)(1·1 + 2·0 + 3·0) = 1/3."""
    run = svmcore.multiclass_sgd(
        X3,
        Y3,
        eta=0.5,
        T=3,
        indices=[0, 1, 2],
        class_weight=W3,
        averaging="last",
        engine=engine,
        n_steps=3,
    )
    assert list(run.trace.steps["y_hat"]) == [1, 0, 0]
    hand = np.array([[2.0, 0.5, -2.0], [-0.5, 1.0, 0.5], [-1.5, -1.5, 1.5]])
    np.testing.assert_allclose(run.W, hand, rtol=0, atol=TOL_HAND)
    np.testing.assert_allclose(run.trace.steps["scores"][1], [2.0, 0.0, 1.5], atol=TOL_HAND)
    assert abs(run.objective - 1 / 3) <= TOL_HAND
    unweighted = svmcore.multiclass_sgd(
        X3, Y3, eta=0.5, T=3, indices=[0, 1, 2], averaging="last", engine=engine
    )
    assert not np.allclose(unweighted.W, hand)  # the weights changed the run


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kernel", [None, "linear"])
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_weighted_pegasos_is_the_weighted_box(engine, kernel, schedule):
    """W(t+1) = (1 − η_t λ) W(t) − η_t c_{y_i} v_t, the box written out (``step`` with c)."""
    X, y = _data(1)
    T, lam = 60, 0.2
    idx = np.random.default_rng(2).integers(0, len(y), T)
    run = svmcore.multiclass_pegasos(
        X,
        y,
        lam=lam,
        T=T,
        indices=idx,
        kernel=kernel,
        class_weight="balanced",
        schedule=schedule,
        averaging="last",
        engine=engine,
        n_steps=T,
    )
    classes, y_idx = np.unique(y, return_inverse=True)
    _, c = check_multiclass_class_weight("balanced", classes, y_idx)
    Xa = np.hstack([X, np.ones((len(y), 1))])
    D = 1.0 - np.eye(3)
    W, alpha, K = np.zeros((3, 3)), np.zeros((len(y), 3)), Xa @ Xa.T
    hats = []
    for t, i in enumerate(idx, start=1):
        eta = 1.0 / (lam * (t if schedule == "pegasos" else t + 1))
        if kernel is None:
            W, _, yh = mp.step(W, Xa[i], y_idx[i], eta, lam, D, c[i])
        else:
            alpha, _, yh = kernel_step(alpha, K[i], i, y_idx[i], eta, lam, D, c[i])
        hats.append(yh)
    assert list(run.trace.steps["y_hat"]) == hats
    if kernel is None:
        np.testing.assert_allclose(run.W, W, rtol=0, atol=TOL_TRANSCRIPTION * np.abs(W).max())
    else:
        A = run.alpha
        np.testing.assert_allclose(A, alpha, rtol=0, atol=TOL_TRANSCRIPTION * np.abs(alpha).max())
    F = (Xa @ W.T) if kernel is None else K @ alpha
    norm2 = float(np.sum(W * W)) if kernel is None else float(np.sum(alpha * F))
    objective = 0.5 * lam * norm2 + float(np.mean(c * generalized_hinge(F, y_idx, D)))
    assert abs(run.objective - objective) <= TOL_TRANSCRIPTION * max(1.0, objective)


@pytest.mark.parametrize("kernel", [None, "rbf"])
def test_weighted_optimum_is_the_repeated_datas_optimum(kernel):
    """Σ_i c_{y_i} ℓ_i with integer c is the loss of the data with point i repeated c_{y_i}
    times: F_c(W; λ) = (n′/n) F_repeated(W; λ n/n′), so P* scales the same way."""
    X, y = _data(2)
    weights = {"a": 1.0, "b": 2.0, "c": 3.0}
    reps = np.array([int(weights[v]) for v in y])
    Xr, yr = np.repeat(X, reps, axis=0), np.repeat(y, reps)
    n, nr, lam = len(y), len(yr), 0.1
    weighted = svmcore.multiclass_svm_optimum(X, y, lam=lam, kernel=kernel, class_weight=weights)
    repeated = svmcore.multiclass_svm_optimum(Xr, yr, lam=lam * n / nr, kernel=kernel)
    assert weighted.status == repeated.status == "optimal"
    assert abs(weighted.objective - repeated.objective * nr / n) <= TOL_OPTIMUM
    if kernel is None:
        np.testing.assert_allclose(weighted.W, repeated.W, rtol=0, atol=TOL_OPTIMUM * 100)


@pytest.mark.parametrize("class_weight", ["balanced", {"a": 0.5, "c": 4.0}])
@pytest.mark.parametrize("kernel", [None, "rbf"])
def test_the_optimum_is_below_every_weighted_runs_objective(class_weight, kernel):
    X, y = _data(3)
    lam = 0.1
    opt = svmcore.multiclass_svm_optimum(X, y, lam=lam, kernel=kernel, class_weight=class_weight)
    unweighted = svmcore.multiclass_svm_optimum(X, y, lam=lam, kernel=kernel)
    assert opt.status == "optimal" and opt.duality_gap <= 1e-9
    assert abs(opt.objective - unweighted.objective) > 1e-3  # the weights move P*
    for engine in ENGINES:
        run = svmcore.multiclass_pegasos(
            X,
            y,
            lam=lam,
            T=20000,
            kernel=kernel,
            class_weight=class_weight,
            random_state=0,
            engine=engine,
        )
        objectives = np.asarray(run.trace.snapshots["objective"])
        assert np.all(objectives >= opt.objective - opt.duality_gap)
        assert objectives[-1] - opt.objective < 0.05  # and the run approaches it (O(log T/T))
