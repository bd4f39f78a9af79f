"""The Perceptron (seed 002 starts from it) against a plain transcription of its loop
and the perceptron convergence theorem.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets

# Tolerance table ------------------------------------------------------------------------
TOL_TRANSCRIPTION = 0.0  # the loop adds ±x_i exactly as the transcription does (same order of
# the same additions): bit-for-bit equal
TOL_HAND = 0.0  # first steps by hand on integers


def transcription(X, y, idx, bias=False):
    """w_1 = 0; if y_i ⟨w_t, x_i⟩ ≤ 0 then w_{t+1} = w_t + y_i x_i; output the last w."""
    if bias:
        X = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(X.shape[1])
    updates = []
    for i in idx:
        if y[i] * (w @ X[i]) <= 0:
            w = w + y[i] * X[i]
            updates.append(True)
        else:
            updates.append(False)
    return w, updates


@pytest.mark.parametrize("bias", ["none", "augment", "free"])
@pytest.mark.parametrize("engine", ["fast", "textbook"])
def test_equals_the_plain_loop_with_explicit_indices(bias, engine):
    X, y = datasets.overlapping_blobs(80, random_state=2)
    idx = np.random.default_rng(5).integers(0, 80, 3000)
    w, updates = transcription(X, y, idx, bias=bias != "none")
    r = svmcore.perceptron(X, y, T=3000, indices=idx, bias=bias, engine=engine, n_steps=3000)
    np.testing.assert_allclose(r.w, w[:2], rtol=0, atol=TOL_TRANSCRIPTION)
    assert r.b == (w[2] if bias != "none" else 0.0)
    assert r.trace.steps["update"].tolist() == updates
    np.testing.assert_array_equal(r.trace.steps["i"], idx)


def test_first_steps_by_hand():
    X = np.array([[1.0, 2.0], [2.0, -1.0]])
    y = np.array([1.0, -1.0])
    # t = 1: w = 0, margin 0 ≤ 0 → w_2 = x_1 = (1, 2); t = 2 on x_2: margin −(2 − 2) = 0 ≤ 0
    # → w_3 = (1, 2) − (2, −1) = (−1, 3); t = 3 on x_1: margin −1 + 6 = 5 > 0, no update.
    r = svmcore.perceptron(X, y, T=3, indices=[0, 1, 0])
    np.testing.assert_allclose(r.w, [-1.0, 3.0], atol=TOL_HAND)
    assert r.trace.steps["margin"].tolist() == [0.0, 0.0, 5.0]
    assert r.trace.steps["update"].tolist() == [True, True, False]
    assert r.b == 0.0 and r.T == 3
    # f = (5, −5): both correct, criterion 0, no point with y f ≤ 0
    assert r.objective == 0.0 and r.train_error == 0.0 and r.n_support == 0


def test_objective_is_the_perceptron_criterion():
    X, y = datasets.overlapping_blobs(60, random_state=1)
    r = svmcore.perceptron(X, y, T=200, random_state=0)
    f = r.decision_function(X)
    assert r.objective == pytest.approx(np.mean(np.maximum(0.0, -y * f)), rel=1e-15)
    assert r.n_support == np.count_nonzero(y * f <= 0)
    assert r.train_error == np.mean(r.predict(X) != y)
    snap = r.trace.snapshot(-1)
    np.testing.assert_array_equal(snap["w"], r.w)
    assert set(r.trace.snapshots) == {"w", "b", "objective", "train_error", "n_support"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_convergence_theorem_separable_data(seed):
    # points with |⟨u, x⟩| ≥ γ for a unit u: at most (R/γ)² updates, then separated
    rng = np.random.default_rng(seed)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    X = rng.uniform(-1, 1, size=(300, 3))
    X = X[np.abs(X @ u) >= 0.1]
    y = np.sign(X @ u)
    R = np.max(np.linalg.norm(X, axis=1))
    gamma = np.min(y * (X @ u))
    bound = int(np.floor((R / gamma) ** 2))
    epochs = bound + 1
    T = min(epochs * len(y), 10_000)
    r = svmcore.perceptron(X, y, T=T, sampling="cyclic", n_steps=T)
    n_updates = int(np.sum(r.trace.steps["update"]))
    assert n_updates <= bound
    assert r.train_error == 0.0 and r.n_support == 0
    assert np.all(y * r.decision_function(X) > 0)
    # an epoch without any update has happened: the loop stopped changing w
    assert not r.trace.steps["update"][-len(y) :].any()


def test_non_separable_data_keeps_updating():
    X, y = datasets.overlapping_blobs(100, random_state=0)
    r = svmcore.perceptron(X, y, T=2000, sampling="cyclic", n_steps=2000)
    assert r.trace.steps["update"][-100:].any()
    assert r.train_error > 0


def test_same_seed_same_trace():
    X, y = datasets.overlapping_blobs(50, random_state=0)
    a = svmcore.perceptron(X, y, T=500, sampling="shuffle", random_state=4)
    b = svmcore.perceptron(X, y, T=500, sampling="shuffle", random_state=4)
    for name in a.trace.snapshots:
        np.testing.assert_array_equal(a.trace.snapshots[name], b.trace.snapshots[name])
    np.testing.assert_array_equal(a.trace.steps["i"], b.trace.steps["i"])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"T": 0}, "T must be >= 1"),
        ({"T": 5, "bias": "yes"}, "bias must be one of"),
        ({"T": 5, "sampling": "random"}, "sampling must be one of"),
        ({"T": 3, "indices": [0, 1]}, "indices must have length T = 3"),
        ({"T": 5, "engine": "slow"}, "engine must be one of"),
    ],
)
def test_bad_input_names_argument_and_rule(kwargs, match):
    X, y = datasets.overlapping_blobs(20, random_state=0)
    with pytest.raises(ValueError, match=match):
        svmcore.perceptron(X, y, **kwargs)


def test_prediction_checks_the_number_of_features():
    X, y = datasets.overlapping_blobs(20, random_state=0)
    r = svmcore.perceptron(X, y, T=10)
    with pytest.raises(ValueError, match="X has 3 features but the model was fitted on 2"):
        r.predict(np.zeros((2, 3)))
