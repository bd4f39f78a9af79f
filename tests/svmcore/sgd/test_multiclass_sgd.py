"""SSBD §17.2's SGD for multiclass learning (svmcore.sgd.multiclass_sgd, seed 001)."""

import numpy as np
import pytest

from svmcore.datasets import k_blobs
from svmcore.sgd.multiclass_common import check_delta, generalized_hinge, psi, zero_one_delta
from svmcore.sgd.multiclass_sgd import multiclass_sgd, recommended_eta

# Tolerance table ------------------------------------------------------------------------
TOL_TRANSCRIPTION = 1e-12  # the algorithm box written out in the test vs the engine
TOL_HAND = 1e-15  # first steps worked by hand (exact small multiples of x)
TOL_SAME_RUN = 1e-12  # the same run with/without the per-step recording path
TOL_ETA = 1e-15  # Corollary 17.2's η from its formula


# -- a plain transcription of seed 001's box ---------------------------------------------
def box_sgd(X, y_idx, k, eta, indices, delta, bias=True, averaging="average"):
    """w(1) = 0; ŷ ∈ argmax Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩; w ← w − η v; w̄ = mean w(t)."""
    d = X.shape[1] + (1 if bias else 0)
    w = np.zeros(k * d)
    total = np.zeros(k * d)
    for i in indices:
        x, y = X[i], y_idx[i]
        total += w
        values = [
            delta[yp, y] + w @ (psi(x, yp, k, bias=bias) - psi(x, y, k, bias=bias))
            for yp in range(k)
        ]
        y_hat = int(np.argmax(values))  # first maximum: the smallest class index
        v = psi(x, y_hat, k, bias=bias) - psi(x, y, k, bias=bias)
        w = w - eta * v
    return total / len(indices) if averaging == "average" else w


def box_scores(w, X, k, bias=True):
    """⟨w, Ψ(x, y)⟩ for every x and y, shape (n, k)."""
    return np.array([[w @ psi(x, c, k, bias=bias) for c in range(k)] for x in X])


@pytest.fixture
def small3():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(25, 2))
    y = rng.integers(0, 3, 25)
    y[:3] = [0, 1, 2]
    return X, y


# -- worked by hand -----------------------------------------------------------------------
def test_first_steps_by_hand():
    # Seed 001 at w(1) = 0 with the 0-1 loss: every wrong class scores Δ = 1, the true
    # class 0; the tie goes to the smallest index. Sample x = (1, 2) of class 1:
    # ŷ = 0, v_1 = Ψ(x, 0) − Ψ(x, 1), w(2) = −η v_1: block 0 = −η x̃, block 1 = +η x̃.
    X = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.0]])
    y = np.array([1, 0, 2])
    eta = 0.5
    r = multiclass_sgd(X, y, eta=eta, T=2, indices=[0, 1], averaging="last")
    steps = r.trace.steps
    s0 = tuple(steps[name][0].item() for name in ("t", "i", "y", "y_hat", "changed"))
    assert s0 == (1, 0, 1, 0, True)
    np.testing.assert_array_equal(r.trace.steps["scores"][0], [1.0, 0.0, 1.0])
    # Step 2: x = (0, −1), class 0. w(2) blocks: 0 = (−.5, −1, −.5), 1 = (.5, 1, .5), 2 = 0.
    # ⟨w_c − w_0, x̃⟩: class 1: (1, 2, 1)·(0, −1, 1) = −1, class 2: (.5, 1, .5)·x̃ = −.5
    # scores = (0, 1 − 1, 1 − 0.5) = (0, 0, 0.5): ŷ = 2.
    np.testing.assert_allclose(r.trace.steps["scores"][1], [0.0, 0.0, 0.5], atol=TOL_HAND)
    assert steps["y_hat"][1] == 2
    expected = np.array([[-0.5, -1.0, -0.5], [0.5, 1.0, 0.5], [0.0, 0.0, 0.0]])
    expected[0] += eta * np.array([0.0, -1.0, 1.0])  # w(3) = w(2) − η(Ψ(x, 2) − Ψ(x, 0))
    expected[2] -= eta * np.array([0.0, -1.0, 1.0])
    np.testing.assert_allclose(r.W, expected, atol=TOL_HAND)
    np.testing.assert_allclose(r.W_last, expected, atol=TOL_HAND)
    # the average of w(1) = 0 and w(2)
    r_avg = multiclass_sgd(X, y, eta=eta, T=2, indices=[0, 1])
    np.testing.assert_allclose(
        r_avg.W, 0.5 * np.array([[-0.5, -1, -0.5], [0.5, 1, 0.5], [0, 0, 0]]), atol=TOL_HAND
    )


def test_psi_is_the_multivector_construction():
    x = np.array([2.0, -1.0])
    np.testing.assert_array_equal(psi(x, 1, 3), [0, 0, 0, 2, -1, 1, 0, 0, 0])
    np.testing.assert_array_equal(psi(x, 2, 3, bias=False), [0, 0, 0, 0, 2, -1])
    with pytest.raises(ValueError, match="y must be <= 2"):
        psi(x, 3, 3)


@pytest.mark.parametrize(
    "bias, averaging, delta, labels",
    [
        (True, "average", None, None),
        (False, "average", None, None),
        (True, "last", None, None),
        (True, "average", [[0, 2, 0.5], [1, 0, 3], [0.25, 1, 0]], None),
        (True, "average", None, np.array(["cat", "dog", "emu"])),
    ],
)
def test_equals_the_algorithm_box(small3, bias, averaging, delta, labels):
    X, y = small3
    k, eta, T = 3, 0.3, 400
    indices = np.random.default_rng(1).integers(0, X.shape[0], T)
    D = zero_one_delta(k) if delta is None else np.asarray(delta, dtype=float)
    labels_y = y if labels is None else labels[y]
    r = multiclass_sgd(
        X,
        labels_y,
        eta=eta,
        T=T,
        indices=indices,
        delta=delta,
        bias=bias,
        averaging=averaging,
        n_steps=50,
    )
    w = box_sgd(X, y, k, eta, indices, D, bias=bias, averaging=averaging)
    np.testing.assert_allclose(
        r.decision_function(X), box_scores(w, X, k, bias=bias), rtol=0, atol=TOL_TRANSCRIPTION
    )
    np.testing.assert_allclose(r.w, w, rtol=0, atol=TOL_TRANSCRIPTION)
    names = np.arange(3) if labels is None else labels
    expected_labels = names[np.argmax(box_scores(w, X, k, bias), axis=1)]
    np.testing.assert_array_equal(r.predict(X), expected_labels)


def test_result_psi_and_decision_values_agree(small3):
    X, y = small3
    r = multiclass_sgd(X, y, eta=0.1, T=200, random_state=0)
    S = r.decision_function(X)
    for c, label in enumerate(r.classes_):
        np.testing.assert_allclose(S[:, c], [r.w @ r.psi(x, label) for x in X], atol=1e-13)
    with pytest.raises(ValueError, match="y must be one of the classes"):
        r.psi(X[0], 99)


def test_recording_path_and_fast_path_agree(small3):
    X, y = small3
    a = multiclass_sgd(X, y, eta=0.2, T=3000, random_state=3, n_steps=0)
    b = multiclass_sgd(X, y, eta=0.2, T=3000, random_state=3, n_steps=3000)
    np.testing.assert_allclose(a.W, b.W, rtol=0, atol=TOL_SAME_RUN)
    assert b.trace.n_steps == 3000 and a.trace.n_steps == 0


# -- learning -----------------------------------------------------------------------------
@pytest.mark.parametrize("k", [3, 4, 5])
def test_separated_blobs_are_learned_perfectly(k):
    X, y = k_blobs(n=60 * k, noise=0.4, random_state=k, k=k)
    r = multiclass_sgd(X, y, eta=0.1, T=20_000, random_state=0)
    assert r.train_error == 0.0
    np.testing.assert_array_equal(r.predict(X), y)


def test_nonuniform_delta_moves_the_boundary_as_the_costs_say():
    # Classes 0 (around x₁ = −1) and 1 (around x₁ = +1) overlap; class 2 is far above.
    # Δ[0, 1] = 5: calling a 1 a 0 is expensive, so the 0/1 boundary moves towards
    # class 0 and the origin becomes class 1; the mirrored Δ[1, 0] = 5 does the opposite.
    rng = np.random.default_rng(0)
    m = 60
    X = np.vstack(
        [
            rng.normal([-1, 0], 0.8, (m, 2)),
            rng.normal([1, 0], 0.8, (m, 2)),
            rng.normal([0, 6], 0.5, (m, 2)),
        ]
    )
    y = np.repeat([0, 1, 2], m)
    costly_0_for_1 = np.array([[0, 5, 1], [1, 0, 1], [1, 1, 0]], dtype=float)
    costly_1_for_0 = costly_0_for_1.T.copy()
    fits = {
        name: multiclass_sgd(X, y, eta=0.05, T=20_000, delta=D, random_state=0)
        for name, D in [("01", None), ("0for1", costly_0_for_1), ("1for0", costly_1_for_0)]
    }
    origin = np.zeros((1, 2))
    assert fits["0for1"].predict(origin)[0] == 1
    assert fits["1for0"].predict(origin)[0] == 0

    def n_errors(name, true, pred):
        return int(np.sum((y == true) & (fits[name].predict(X) == pred)))

    # the expensive mistake becomes rarer than under the 0-1 loss
    assert n_errors("0for1", 1, 0) < n_errors("01", 1, 0)
    assert n_errors("1for0", 0, 1) < n_errors("01", 0, 1)
    # and the model trained with a cost matrix has the lower risk under that matrix
    for name, D in [("0for1", costly_0_for_1), ("1for0", costly_1_for_0)]:
        risk = {
            f: np.mean(D[np.searchsorted([0, 1, 2], fits[f].predict(X)), y]) for f in ("01", name)
        }
        assert risk[name] < risk["01"]
        assert fits[name].delta_risk == pytest.approx(risk[name])


def test_objective_falls_from_the_loss_at_zero():
    X, y = k_blobs(n=150, noise=1.0, random_state=2, k=3)
    r = multiclass_sgd(X, y, eta=recommended_eta(X, 20_000, 5.0), T=20_000, random_state=0)
    obj = r.trace.snapshots["objective"]
    assert obj[0] == pytest.approx(1.0)  # w̄ after one step is w(1) = 0: every loss is Δ = 1
    assert obj[-1] < 0.5
    assert r.train_error < 0.2


def test_hinge_bounds_the_delta_risk():
    # L^Δ(h_w) <= L^{g-hinge}(w) for every w (SSBD, Equation 17.3 ff.): seeded random W.
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 3))
    y = rng.integers(0, 4, 200)
    D = rng.uniform(0.1, 3.0, (4, 4))
    np.fill_diagonal(D, 0.0)
    for _ in range(20):
        W = rng.normal(scale=rng.uniform(0.01, 3.0), size=(4, 3))
        S = X @ W.T
        hinge = generalized_hinge(S, y, D)
        assert np.all(hinge >= 0)
        assert np.all(D[np.argmax(S, axis=1), y] <= hinge + 1e-12)


def test_recommended_eta_is_corollary_17_2():
    X = np.array([[3.0, 4.0], [1.0, 0.0]])
    # ρ = 2 max ‖x̃‖ = 2 √(9 + 16 + 1) ; η = √(B² / (ρ² T))
    rho = 2.0 * np.sqrt(26.0)
    assert recommended_eta(X, 100, 2.0) == pytest.approx(2.0 / (rho * 10.0), abs=TOL_ETA)
    assert recommended_eta(X, 100, 2.0, bias=False) == pytest.approx(2.0 / (10.0 * 10.0))
    with pytest.raises(ValueError, match="B must be > 0"):
        recommended_eta(X, 100, 0.0)
    with pytest.raises(ValueError, match="ρ = 0"):
        recommended_eta(np.zeros((2, 2)), 10, 1.0, bias=False)


# -- trace --------------------------------------------------------------------------------
def test_trace_contents(small3):
    X, y = small3
    T = 500
    r = multiclass_sgd(X, y, eta=0.1, T=T, random_state=5, n_snapshots=20, n_steps=40)
    tr = r.trace
    k, dp = 3, 3
    assert tr.snapshots["W"].shape == (len(tr), k, dp)
    assert tr.snapshots["W_iterate"].shape == (len(tr), k, dp)
    assert tr.t[0] == 1 and tr.t[-1] == T
    np.testing.assert_array_equal(tr.snapshots["W"][-1], r.W)
    np.testing.assert_array_equal(tr.snapshots["W_iterate"][-1], r.W_last)
    assert tr.steps["scores"].shape == (40, k)
    np.testing.assert_array_equal(tr.steps["y_hat"], np.argmax(tr.steps["scores"], axis=1))
    np.testing.assert_array_equal(tr.steps["changed"], tr.steps["y_hat"] != tr.steps["y"])
    np.testing.assert_array_equal(tr.steps["y"], np.searchsorted(r.classes_, y[tr.steps["i"]]))
    np.testing.assert_array_equal(tr.steps["t"], np.arange(1, 41))
    # the step's loss is the generalized hinge: the score of ŷ, never below 0 (y′ = y)
    np.testing.assert_array_equal(tr.steps["loss"], tr.steps["scores"].max(axis=1))
    assert np.all(tr.steps["loss"] >= 0)
    assert r.objective == tr.snapshots["objective"][-1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_recorded_steps_rebuild_the_last_iterate(seed):
    # Seeded property: with every step recorded, w(T+1) = −η Σ_t v_t from the trace's
    # (i, y, ŷ) alone, and each ŷ is the first maximum of the recorded scores.
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    X = rng.normal(size=(40, 3))
    y = rng.integers(0, k, 40)
    y[:k] = np.arange(k)
    D = rng.uniform(0.0, 2.0, (k, k))
    np.fill_diagonal(D, 0.0)
    eta, T = float(rng.uniform(0.01, 1.0)), 700
    r = multiclass_sgd(X, y, eta=eta, T=T, delta=D, random_state=seed, n_steps=T)
    st = r.trace.steps
    np.testing.assert_array_equal(st["y_hat"], np.argmax(st["scores"], axis=1))
    W = np.zeros((k, 4))
    Xa = np.hstack([X, np.ones((40, 1))])
    for i, yi, yh in zip(st["i"], st["y"], st["y_hat"], strict=True):
        W[yh] -= eta * Xa[i]
        W[yi] += eta * Xa[i]
    np.testing.assert_allclose(r.W_last, W, rtol=0, atol=1e-12)


def test_same_seed_same_trace_bit_for_bit(small3):
    X, y = small3
    a = multiclass_sgd(X, y, eta=0.1, T=2000, random_state=42, sampling="shuffle")
    b = multiclass_sgd(X, y, eta=0.1, T=2000, random_state=42, sampling="shuffle")
    c = multiclass_sgd(X, y, eta=0.1, T=2000, random_state=43, sampling="shuffle")
    for name in a.trace.snapshots:
        np.testing.assert_array_equal(a.trace.snapshots[name], b.trace.snapshots[name])
    for name in a.trace.steps:
        np.testing.assert_array_equal(a.trace.steps[name], b.trace.steps[name])
    assert not np.array_equal(a.trace.steps["i"], c.trace.steps["i"])


def test_cyclic_sampling_visits_in_order(small3):
    X, y = small3
    r = multiclass_sgd(X, y, eta=0.1, T=60, sampling="cyclic", n_steps=60)
    np.testing.assert_array_equal(r.trace.steps["i"], np.arange(60) % 25)


# -- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"y": np.zeros(6)}, "y must contain at least two classes"),
        ({"eta": 0.0}, "eta must be > 0"),
        ({"eta": -1.0}, "eta must be > 0"),
        ({"T": 0}, "T must be >= 1"),
        ({"delta": np.ones((2, 2)) - np.eye(2)}, "delta must be a k × k matrix with k = 3"),
        ({"delta": [[0, -1, 1], [1, 0, 1], [1, 1, 0]]}, "delta must be non-negative"),
        ({"delta": np.ones((3, 3))}, "delta must have a zero diagonal"),
        ({"delta": [[0, np.nan, 1], [1, 0, 1], [1, 1, 0]]}, "delta must be finite"),
        ({"indices": [0, 1]}, "indices must have length T = 4"),
        ({"indices": [0, 1, 2, 6]}, "indices must lie in"),
        ({"averaging": "mean"}, "averaging must be one of"),
        ({"sampling": "random"}, "sampling must be one of"),
        ({"bias": "yes"}, "bias must be True or False"),
        ({"X": np.ones((5, 2))}, "y has 6 labels but X has 5 rows"),
        ({"y": np.array([0, 1, 2, 0, 1, np.nan])}, "y must not contain NaN"),
    ],
)
def test_bad_input_names_argument_and_rule(kwargs, match):
    args = {
        "X": np.arange(12.0).reshape(6, 2),
        "y": np.array([0, 1, 2, 0, 1, 2]),
        "eta": 0.1,
        "T": 4,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        multiclass_sgd(**args)


def test_check_delta_default_is_zero_one():
    np.testing.assert_array_equal(check_delta(None, 3), 1 - np.eye(3))
