"""Linear Pegasos against hand computations, a textbook loop and scikit-learn."""

import pickle

import numpy as np
import pytest
from sklearn.svm import LinearSVC

import svmcore
from svmcore import datasets

# Tolerance table ------------------------------------------------------------------------
TOL_TEXTBOOK = 1e-12  # against the plain loop written below, same indices, relative
TOL_SUBOPT_LINEARSVC = 1e-2  # primal suboptimality after T = 50,000 against LinearSVC, absolute
TOL_HAND = 1e-15  # first step by hand, absolute


def textbook(X, y, lam, idx, schedule, averaging):
    """Seed 002's Algorithm 1 / the paper ("pegasos") and SSBD §15.5 ("ssbd"), literally."""
    T = len(idx)
    w_sum = np.zeros(X.shape[1])
    if schedule == "pegasos":
        w = np.zeros(X.shape[1])
        for t in range(1, T + 1):
            w_sum += w
            i = idx[t - 1]
            eta = 1.0 / (lam * t)
            if y[i] * (w @ X[i]) < 1:
                w = (1 - eta * lam) * w + eta * y[i] * X[i]
            else:
                w = (1 - eta * lam) * w
        return w_sum / T if averaging == "average" else w
    theta = np.zeros(X.shape[1])
    for t in range(1, T + 1):
        w = theta / (lam * t)
        w_sum += w
        i = idx[t - 1]
        if y[i] * (w @ X[i]) < 1:
            theta = theta + y[i] * X[i]
    return w_sum / T if averaging == "average" else theta / (lam * (T + 1))


@pytest.fixture(scope="module")
def blobs():
    return datasets.overlapping_blobs(150, random_state=3)


def test_first_step_by_hand():
    X = np.array([[1.0, 2.0], [-3.0, 0.5]])
    y = np.array([1.0, -1.0])
    lam = 0.25
    # From w_1 = 0 the margin is 0 < 1: w_2 = (1 − η_1λ)·0 + η_1 y x = y x / λ (η_1 = 1/λ).
    r = svmcore.pegasos(X, y, lam=lam, T=1, indices=[1], averaging="last")
    np.testing.assert_allclose(r.w, y[1] * X[1] / lam, atol=TOL_HAND)
    assert r.trace.step(0) == {"t": 1, "i": 1, "margin": 0.0, "update": True, "eta": 4.0}
    # SSBD: w(2) = θ(2)/(2λ), one index later.
    r = svmcore.pegasos(X, y, lam=lam, T=1, indices=[1], averaging="last", schedule="ssbd")
    np.testing.assert_allclose(r.w, y[1] * X[1] / (2 * lam), atol=TOL_HAND)
    # the average of the single iterate w_1 = 0 is 0
    assert np.all(svmcore.pegasos(X, y, lam=lam, T=1, indices=[1]).w == 0)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
def test_equals_textbook_loop(blobs, schedule, averaging):
    X, y = blobs
    idx = np.random.default_rng(1).integers(0, len(y), 4000)
    expected = textbook(X, y, 0.05, idx, schedule, averaging)
    r = svmcore.pegasos(X, y, lam=0.05, T=4000, indices=idx, schedule=schedule, averaging=averaging)
    np.testing.assert_allclose(r.w, expected, rtol=TOL_TEXTBOOK, atol=0)
    # the explicit recursion (taken when w_ref is given) agrees too
    r2 = svmcore.pegasos(
        X,
        y,
        lam=0.05,
        T=4000,
        indices=idx,
        schedule=schedule,
        averaging=averaging,
        w_ref=np.zeros(2),
    )
    np.testing.assert_allclose(r2.w, expected, rtol=TOL_TEXTBOOK, atol=1e-15)


def primal(w, b, X, y, lam):
    return 0.5 * lam * (w @ w) + np.mean(np.maximum(0, 1 - y * (X @ w + b)))


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_approaches_linearsvc_without_bias(blobs, schedule):
    X, y = blobs
    lam = 0.01
    ref = LinearSVC(
        loss="hinge", fit_intercept=False, C=1 / (lam * len(y)), tol=1e-10, max_iter=200_000
    ).fit(X, y)
    f_opt = primal(ref.coef_[0], 0.0, X, y, lam)
    r = svmcore.pegasos(X, y, lam=lam, T=50_000, random_state=0, schedule=schedule)
    assert r.objective == pytest.approx(primal(r.w, 0.0, X, y, lam))
    assert 0 <= r.objective - f_opt <= TOL_SUBOPT_LINEARSVC


def test_augment_matches_linearsvc_intercept():
    X, y = datasets.overlapping_blobs(150, random_state=4)
    X = X + np.array([3.0, 1.0])  # off-centre: a bias is needed
    lam = 0.01
    ref = LinearSVC(
        loss="hinge",
        fit_intercept=True,
        intercept_scaling=1.0,
        C=1 / (lam * len(y)),
        tol=1e-10,
        max_iter=200_000,
    ).fit(X, y)
    w_ref, b_ref = ref.coef_[0], ref.intercept_[0]
    # liblinear regularizes b like a weight of the constant feature 1: λ/2 (‖w‖² + b²)
    f_opt = primal(np.append(w_ref, b_ref), 0.0, np.hstack([X, np.ones((150, 1))]), y, lam)
    r = svmcore.pegasos(X, y, lam=lam, T=50_000, random_state=0, bias="augment")
    assert r.b != 0
    assert 0 <= r.objective - f_opt <= TOL_SUBOPT_LINEARSVC
    assert np.mean(r.predict(X) == ref.predict(X)) > 0.97


def test_free_bias_fits_offset_data():
    X, y = datasets.separable_blobs(80, random_state=0)
    X = X + 3.0  # off the origin: a homogeneous w cannot separate the blobs
    none = svmcore.pegasos(X, y, lam=0.01, T=20_000, random_state=0)
    free = svmcore.pegasos(X, y, lam=0.01, T=20_000, random_state=0, bias="free")
    assert free.train_error < none.train_error
    assert free.train_error <= 0.02


def test_projection_keeps_w_in_ball(blobs):
    X, y = blobs
    lam = 0.5
    r = svmcore.pegasos(
        X * 10,
        y,
        lam=lam,
        T=5000,
        random_state=0,
        projection=True,
        averaging="last",
        n_snapshots=200,
    )
    norms = np.linalg.norm(r.trace.snapshots["w"], axis=1)
    assert np.all(norms <= 1 / np.sqrt(lam) + 1e-12)
    unprojected = svmcore.pegasos(
        X * 10, y, lam=lam, T=5000, random_state=0, averaging="last", n_snapshots=200
    )
    assert np.linalg.norm(unprojected.trace.snapshots["w"], axis=1).max() > 1 / np.sqrt(lam)


def test_mini_batch_converges(blobs):
    X, y = blobs
    r1 = svmcore.pegasos(X, y, lam=0.01, T=20_000, random_state=0)
    r64 = svmcore.pegasos(X, y, lam=0.01, T=2_000, batch_size=64, random_state=0)
    assert r64.objective == pytest.approx(r1.objective, abs=5e-3)
    assert r64.trace.step(0)["n_violations"] == 64  # w_1 = 0: every sample violates


def test_class_weights_move_boundary_toward_majority():
    X, y = datasets.imbalanced_blobs(220, random_state=0)
    plain = svmcore.pegasos(X, y, lam=0.01, T=30_000, random_state=0, bias="free")
    balanced = svmcore.pegasos(
        X, y, lam=0.01, T=30_000, random_state=0, bias="free", class_weight="balanced"
    )
    # the minority (+1) class gains ground: more points predicted +1, better minority recall
    assert np.sum(balanced.predict(X) > 0) > np.sum(plain.predict(X) > 0)
    recall = lambda r: np.mean(r.predict(X)[y > 0] > 0)  # noqa: E731
    assert recall(balanced) > recall(plain)


def test_w_ref_pulls_toward_reference(blobs):
    X, y = blobs
    target = np.array([-3.0, 4.0])
    free = svmcore.pegasos(X, y, lam=1.0, T=5000, random_state=0)
    pulled = svmcore.pegasos(X, y, lam=1.0, T=5000, random_state=0, w_ref=target)
    assert np.linalg.norm(pulled.w - target) < np.linalg.norm(free.w - target)
    assert pulled.objective == pytest.approx(
        0.5 * (pulled.w - target) @ (pulled.w - target)
        + np.mean(np.maximum(0, 1 - y * (X @ pulled.w)))
    )


@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_same_seed_bit_identical_trace(blobs, sampling):
    X, y = blobs
    a = svmcore.pegasos(X, y, lam=0.01, T=3000, random_state=7, sampling=sampling)
    b = svmcore.pegasos(X, y, lam=0.01, T=3000, random_state=7, sampling=sampling)
    for key in a.trace.snapshots:
        assert np.array_equal(a.trace.snapshots[key], b.trace.snapshots[key])
    for key in a.trace.steps:
        assert np.array_equal(a.trace.steps[key], b.trace.steps[key])
    for values in a.trace.snapshots.values():
        assert np.all(np.isfinite(values))
    c = svmcore.pegasos(X, y, lam=0.01, T=3000, random_state=8, sampling=sampling)
    assert sampling == "cyclic" or not np.array_equal(a.w, c.w)


def test_cyclic_sampling_is_data_order(blobs):
    X, y = blobs
    r = svmcore.pegasos(X, y, lam=0.01, T=400, sampling="cyclic", n_steps=400)
    np.testing.assert_array_equal(r.trace.steps["i"], np.arange(400) % len(y))
    r = svmcore.pegasos(X, y, lam=0.01, T=300, sampling="shuffle", n_steps=300, random_state=0)
    assert sorted(r.trace.steps["i"][:150]) == list(range(150))  # one epoch = a permutation


def test_trace_shapes_and_final_snapshot(blobs):
    X, y = blobs
    r = svmcore.pegasos(X, y, lam=0.01, T=10_000, random_state=0, n_snapshots=50)
    tr = r.trace
    assert tr.t[0] == 1 and tr.t[-1] == 10_000 and len(tr) == 50
    assert tr.snapshots["w"].shape == (50, 2)
    np.testing.assert_array_equal(tr.snapshots["w"][-1], r.w)
    assert tr.n_steps == 300 and set(tr.steps) >= {"t", "i", "margin", "update", "eta"}
    assert r.objective == tr.snapshots["objective"][-1]
    assert pickle.loads(pickle.dumps(r)).trace.n_snapshots == 50


def test_decision_function_and_predict(blobs):
    X, y = blobs
    r = svmcore.pegasos(X, y, lam=0.01, T=5000, random_state=0, bias="free")
    np.testing.assert_allclose(r.decision_function(X), X @ r.w + r.b)
    assert set(np.unique(r.predict(X))) <= {-1.0, 1.0}
    assert r.train_error == np.mean(r.predict(X) != y)
    with pytest.raises(ValueError, match="features"):
        r.decision_function(np.ones((2, 3)))


X4 = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y4 = np.array([-1.0, -1.0, 1.0, 1.0])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"X": [[0.0, np.nan], [1, 1], [2, 2], [3, 3]]}, "X must be finite"),
        ({"X": [1.0, 2.0, 3.0, 4.0]}, "X must be 2-dimensional"),
        ({"y": [1, -1, 1]}, "y has 3 labels but X has 4 rows"),
        ({"y": [0, 1, 0, 1]}, "only the labels -1 and \\+1"),
        ({"y": [1, 1, 1, 1]}, "both classes"),
        ({"lam": 0.0}, "lam must be > 0"),
        ({"lam": -1}, "lam must be > 0"),
        ({"T": 0}, "T must be >= 1"),
        ({"T": 10**12}, "T must be <="),
        ({"batch_size": 5}, "batch_size must be <= n = 4"),
        ({"indices": [0, 1, 4]}, "indices must lie in \\[0, 3\\]"),
        ({"indices": [0, 1]}, "indices must have length T = 3"),
        ({"schedule": "adam"}, "schedule must be one of"),
        ({"averaging": "median"}, "averaging must be one of"),
        ({"sampling": "random"}, "sampling must be one of"),
        ({"bias": "yes"}, "bias must be one of"),
        ({"class_weight": {2: 1.0}}, "class_weight keys"),
        ({"class_weight": {1: -1.0}}, "class_weight\\[1\\] must be > 0"),
        ({"w_ref": [1.0]}, "w_ref must have shape"),
    ],
)
def test_bad_input_messages(kwargs, match):
    args = {"X": X4, "y": Y4, "lam": 0.1, "T": 3}
    args.update(kwargs)
    X, y = args.pop("X"), args.pop("y")
    with pytest.raises(ValueError, match=match):
        svmcore.pegasos(X, y, **args)
