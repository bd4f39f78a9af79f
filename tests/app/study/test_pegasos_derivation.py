"""Seed 002's derivations replayed on a run's indices (svmlab.study.pegasos_derivation).

Hand computations on Lin's four points (seed 003's worked example): x = (0,0), (2,2),
(2,0), (3,0), y = −1, −1, +1, +1, drawn in seed 002's cyclic order.
"""

import numpy as np
import pytest

import svmcore
from svmlab.study.pegasos_derivation import (
    perceptron_counts,
    perceptron_to_pegasos,
    sample_weights,
    telescoping,
)

# Tolerance table ------------------------------------------------------------------------
TOL_HAND_LAST = 1e-15  # w_last by hand on Lin's points: one division by λ s (absolute)
TOL_HAND_AVG = 1e-14  # w̄ by hand and svmcore's 4-step run vs the sum (absolute)
TOL_INTEGER = 1e-12  # the telescoped sum vs the run on integer data: exact decisions, only
# the division by λ s and the harmonic sums round (absolute)
TOL_RANDOM_REL = 1e-9  # random float data: θ summed in another grouping (relative)
TOL_RANDOM_W = 1e-12  # the same, w's absolute floor
TOL_RANDOM_THETA = 1e-9  # the same, θ's absolute floor
TOL_COUNTS = 1e-12  # the Perceptron's Σ β_n y_n x_n vs the run's w (relative and absolute)


X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])


def test_telescoping_by_hand_on_lins_four_points():
    # λ = 0.1, η_t = 1/(λt), cyclic i = 1, 2, 3, 4:
    # t=1: w_1 = 0, fires, θ_2 = −(0,0) = 0;   t=2: w_2 = 0, fires, θ_3 = −(2,2)
    # t=3: w_3 = θ_3/(0.1·2) = (−10,−10), y⟨w,x⟩ = −20 < 1, θ_4 = (0,−2)
    # t=4: w_4 = θ_4/(0.1·3) = (0,−20/3), margin 0 < 1, θ_5 = (3,−2), w_5 = θ_5/0.4
    tr = telescoping(X, Y, lam=0.1, indices=np.arange(4))
    np.testing.assert_array_equal(tr.theta, [3.0, -2.0])
    np.testing.assert_array_equal(tr.counts, [1, 1, 1, 1])
    np.testing.assert_array_equal(tr.theta_from_counts, [3.0, -2.0])
    np.testing.assert_allclose(tr.w_last, [7.5, -5.0], rtol=0, atol=TOL_HAND_LAST)
    # w̄ = (w_1 + w_2 + w_3 + w_4)/4 = ((−10,−10) + (0,−20/3))/4
    np.testing.assert_allclose(tr.w_average, [-2.5, -(10 + 20 / 3) / 4], rtol=0, atol=TOL_HAND_AVG)
    # the first lines of the sum: s(k+1) w_{k+1} − s(k) w_k = (1/λ) 1[…] y x
    assert [r["fired"] for r in tr.first] == [True, True, True]
    for r in tr.first:
        np.testing.assert_allclose(r["lhs"], r["rhs"], rtol=0, atol=TOL_INTEGER)
    np.testing.assert_allclose(tr.first[1]["rhs"], [-20.0, -20.0])
    for averaging, ours in (("last", tr.w_last), ("average", tr.w_average)):
        run = svmcore.pegasos(X, Y, lam=0.1, T=4, sampling="cyclic", averaging=averaging)
        np.testing.assert_allclose(run.w, ours, rtol=0, atol=TOL_HAND_AVG)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
@pytest.mark.parametrize("bias", ["none", "augment"])
@pytest.mark.parametrize("class_weight", [None, "balanced", {-1: 1.0, 1: 3.0}])
def test_telescoped_sum_is_the_run_on_lins_points(schedule, sampling, bias, class_weight):
    T = 300
    idx = svmcore.sample_indices(4, T, sampling, 7)
    tr = telescoping(
        X, Y, lam=0.1, indices=idx, schedule=schedule, bias=bias, class_weight=class_weight
    )
    for averaging, ours in (("last", tr.w_last), ("average", tr.w_average)):
        run = svmcore.pegasos(
            X,
            Y,
            lam=0.1,
            T=T,
            schedule=schedule,
            averaging=averaging,
            sampling=sampling,
            bias=bias,
            class_weight=class_weight,
            random_state=7,
        )
        w = np.append(run.w, run.b) if bias == "augment" else run.w
        np.testing.assert_allclose(ours, w, rtol=0, atol=TOL_INTEGER)
    c = sample_weights(Y, class_weight)
    Xa = np.hstack([X, np.ones((4, 1))]) if bias == "augment" else X
    np.testing.assert_allclose(tr.theta, (tr.counts * c * Y) @ Xa, rtol=0, atol=TOL_INTEGER)


def test_telescoped_sum_is_the_run_on_random_data():
    rng = np.random.default_rng(3)
    Xr = rng.normal(size=(300, 3))
    yr = np.where(Xr @ [1.0, -0.5, 0.2] + 0.3 * rng.normal(size=300) > 0, 1.0, -1.0)
    T = 20_000
    tr = telescoping(Xr, yr, lam=0.01, indices=svmcore.sample_indices(300, T, "uniform", 5))
    run = svmcore.pegasos(Xr, yr, lam=0.01, T=T, averaging="last", random_state=5)
    np.testing.assert_allclose(tr.w_last, run.w, rtol=TOL_RANDOM_REL, atol=TOL_RANDOM_W)
    np.testing.assert_allclose(
        tr.theta, tr.theta_from_counts, rtol=TOL_RANDOM_REL, atol=TOL_RANDOM_THETA
    )
    assert tr.n_fired == int(tr.counts.sum()) and 0 < tr.n_fired <= T


def test_perceptron_counts_by_hand_on_lins_four_points():
    # cyclic, no bias: t=1 (0,0) margin 0 ≤ 0: update by 0; t=2 w = (−2,−2); t=3 margin −4:
    # w = (0,−2); t=4 margin 0: w = (3,−2); t=5 the origin again (margin 0, always);
    # t=6 (2,2): margin −2, w = (1,−4); t=7 (2,0): 2 > 0; t=8 (3,0): 3 > 0.
    pc = perceptron_counts(X, Y, indices=np.arange(8) % 4)
    np.testing.assert_array_equal(pc.counts, [2, 2, 1, 1])
    np.testing.assert_array_equal(pc.w, [1.0, -4.0])
    np.testing.assert_array_equal(pc.w_from_counts, [1.0, -4.0])  # Σ β_n y_n x_n
    run = svmcore.perceptron(X, Y, T=8, sampling="cyclic")
    np.testing.assert_array_equal(run.w, pc.w)


@pytest.mark.parametrize("bias", ["none", "augment", "free"])
def test_perceptron_counts_give_the_runs_w(bias):
    rng = np.random.default_rng(1)
    Xr = rng.normal(size=(200, 2))
    yr = np.where(Xr[:, 0] - Xr[:, 1] > 0.1, 1.0, -1.0)
    T = 5_000
    pc = perceptron_counts(Xr, yr, indices=svmcore.sample_indices(200, T, "uniform", 2), bias=bias)
    run = svmcore.perceptron(Xr, yr, T=T, bias=bias, random_state=2)
    w = run.w if bias == "none" else np.append(run.w, run.b)
    np.testing.assert_array_equal(pc.w, w)
    np.testing.assert_allclose(pc.w_from_counts, w, rtol=TOL_COUNTS, atol=TOL_COUNTS)


def test_perceptron_to_pegasos_changes_the_step_the_test_and_both_updates():
    pairs = perceptron_to_pegasos()
    changed = [p.pegasos for p in pairs if p.changed]
    assert changed == [
        "    t = t + 1;  η_t = 1/(tλ)",
        "    if y_j (w_tᵀ x_j) < 1 then",
        "      w_{t+1} = (1 − η_t λ) w_t + η_t y_j x_j",
        "      w_{t+1} = (1 − η_t λ) w_t",
    ]
    assert [p.perceptron for p in pairs if p.changed][1] == "    if y_j (w_tᵀ x_j) ≤ 0 then"


def test_sample_weights_are_seed_002s_by_hand():
    y = np.array([-1.0, -1.0, 1.0, 1.0, 1.0])  # N = 5, N₊ = 3, N₋ = 2
    np.testing.assert_allclose(sample_weights(y, "balanced"), [5 / 4, 5 / 4, 5 / 6, 5 / 6, 5 / 6])
    np.testing.assert_allclose(sample_weights(y, {1: 2.0}), [1, 1, 2, 2, 2])
    np.testing.assert_allclose(sample_weights(y, None), np.ones(5))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"lam": 0.0}, "lam"),
        ({"lam": 0.1, "schedule": "sgd"}, "schedule"),
        ({"lam": 0.1, "bias": "free"}, "bias"),
        ({"lam": 0.1, "indices": np.array([0, 9])}, "indices"),
    ],
)
def test_bad_arguments_say_which(kwargs, match):
    kw = {"indices": np.arange(4), **kwargs}
    with pytest.raises(ValueError, match=match):
        telescoping(X, Y, **kw)
