"""``engine="textbook"`` (the plain ``step`` in a loop) equals ``engine="fast"`` (the one
vectorised engine) for every SGD algorithm, option by option: same outputs, same
snapshots, same recorded steps.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmcore.sgd import kernel_pegasos as kp_module
from svmcore.sgd import multiclass_pegasos as mp_module
from svmcore.sgd import multiclass_sgd as ms_module
from svmcore.sgd import pegasos as p_module
from svmcore.sgd import perceptron as pc_module

# Tolerance table ------------------------------------------------------------------------
TOL_ENGINES = 1e-12  # relative to the largest magnitude of the compared array (both engines run the
# θ form; they sum the average in different orders: harmonic sums vs iterate by iterate);
# integer-valued records (t, i, update, y_hat, changed, counts) are equal exactly

LIN = (np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]]), np.array([-1.0, -1, 1, 1]))
SAMPLINGS = ["uniform", "cyclic", "shuffle", "indices"]


def _close(a, b, what, scale=0.0):
    """Equal to TOL_ENGINES times the largest magnitude of ``a`` (or ``scale``, for a bias b
    whose exact value 0 is a sum of terms of the size of w)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, what
    if a.dtype.kind in "biu" or b.dtype.kind in "biu":
        np.testing.assert_array_equal(a, b, err_msg=what)
        return
    scale = max(float(np.nanmax(np.abs(a), initial=0.0)), scale, 1e-300)
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL_ENGINES * scale, equal_nan=True, err_msg=what)


def assert_same_run(fast, book, *, skip=()):
    """Outputs, every snapshot and every recorded step agree (but the ``skip`` snapshots)."""
    tf, tb = fast.trace, book.trace
    np.testing.assert_array_equal(tf.t, tb.t)
    assert set(tf.snapshots) == set(tb.snapshots)
    w_scale = float(np.abs(tf.snapshots["w"]).max()) if "w" in tf.snapshots else 0.0
    for name in set(tf.snapshots) - set(skip):
        _close(tf.snapshots[name], tb.snapshots[name], f"snapshot {name}", w_scale)
    assert set(tf.steps) == set(tb.steps)
    for name in tf.steps:
        _close(tf.steps[name], tb.steps[name], f"step field {name}")
    assert tf.info.pop("engine", None) == "fast" and tb.info.pop("engine", None) == "textbook"
    assert tf.info == tb.info
    for name in ("w", "b", "alpha", "beta", "W", "W_last", "objective", "train_error"):
        if getattr(fast, name, None) is not None:
            _close(getattr(fast, name), getattr(book, name), name, w_scale)


def _sampling(kind, n, T, seed=0):
    if kind == "indices":
        return {"indices": np.random.default_rng(seed).integers(0, n, T)}
    return {"sampling": kind, "random_state": seed}


def both(fn, *args, **kwargs):
    return fn(*args, engine="fast", **kwargs), fn(*args, engine="textbook", **kwargs)


# -- linear Pegasos ------------------------------------------------------------------------
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", SAMPLINGS)
@pytest.mark.parametrize("bias", ["none", "augment"])
def test_pegasos_engines_agree(schedule, averaging, sampling, bias):
    X, y = datasets.overlapping_blobs(60, random_state=1)
    T = 1500
    fast, book = both(
        svmcore.pegasos,
        X,
        y,
        lam=0.05,
        T=T,
        schedule=schedule,
        averaging=averaging,
        bias=bias,
        n_steps=200,
        n_snapshots=30,
        **_sampling(sampling, len(y), T),
    )
    assert_same_run(fast, book)


@pytest.mark.parametrize(
    "options",
    [
        {"class_weight": "balanced"},
        {"class_weight": {-1: 3.0, 1: 0.5}, "bias": "augment"},
        {"batch_size": 4},
        {"projection": True},
        {"bias": "free"},
        {"w_ref": [0.3, -0.2]},
        {"w_ref": [0.3, -0.2], "projection": True, "batch_size": 3, "bias": "free"},
    ],
)
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_pegasos_engines_agree_with_options(options, schedule):
    X, y = datasets.overlapping_blobs(50, random_state=2)
    T = 800
    k = options.get("batch_size", 1)
    idx = np.random.default_rng(3).integers(0, len(y), T * k)
    fast, book = both(
        svmcore.pegasos, X, y, lam=0.1, T=T, schedule=schedule, indices=idx, n_steps=100, **options
    )
    assert_same_run(fast, book)


def test_pegasos_on_lins_four_points_seed_002_epochs():
    # seed 002's Algorithm 1 as printed: 20 epochs in data order, η_t = 1/(λt)
    X, y = LIN
    fast, book = both(svmcore.pegasos, X, y, lam=0.1, T=20 * 4, sampling="cyclic", averaging="last")
    # both engines compute w_81 = θ/(80λ) from the same integer sum θ: identical runs
    assert_same_run(fast, book)
    np.testing.assert_array_equal(fast.trace.steps["update"], book.trace.steps["update"])
    w = np.zeros(2)  # the box, written out
    for t in range(1, 81):
        j = (t - 1) % 4
        w, _, _ = p_module.step(w, 0.0, X[j : j + 1], y[j : j + 1], 1 / (0.1 * t), 0.1)
    np.testing.assert_allclose(book.w, w, rtol=0, atol=TOL_ENGINES * np.abs(w).max())


# -- kernel Pegasos ------------------------------------------------------------------------
KERNELS = [svmcore.rbf(2.0), svmcore.polynomial(2, 1.0, 1.0), svmcore.linear()]


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", SAMPLINGS)
@pytest.mark.parametrize("kernel", KERNELS, ids=str)
def test_kernel_pegasos_engines_agree(schedule, averaging, sampling, kernel):
    X, y = datasets.moons(50, noise=0.2, random_state=0)
    T = 1200
    fast, book = both(
        svmcore.kernel_pegasos,
        X,
        y,
        kernel=kernel,
        lam=0.02,
        T=T,
        schedule=schedule,
        averaging=averaging,
        n_steps=150,
        n_snapshots=25,
        **_sampling(sampling, len(y), T),
    )
    assert_same_run(fast, book)


@pytest.mark.parametrize("class_weight", ["balanced", {-1: 0.25, 1: 2.0}])
@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
def test_kernel_pegasos_engines_agree_with_class_weight(class_weight, schedule):
    X, y = datasets.moons(40, noise=0.2, random_state=1)
    fast, book = both(
        svmcore.kernel_pegasos,
        X,
        y,
        kernel="rbf",
        lam=0.05,
        T=900,
        schedule=schedule,
        class_weight=class_weight,
        random_state=2,
    )
    assert_same_run(fast, book)


# -- multiclass ----------------------------------------------------------------------------
DELTA = np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 1.0], [0.5, 2.0, 0.0]])


@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", SAMPLINGS)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("delta", [None, DELTA], ids=["zero-one", "costs"])
def test_multiclass_sgd_engines_agree(averaging, sampling, bias, delta):
    X, y = datasets.k_blobs(n=45, noise=0.8, random_state=0, k=3)
    T = 1000
    fast, book = both(
        svmcore.multiclass_sgd,
        X,
        y,
        eta=0.05,
        T=T,
        averaging=averaging,
        bias=bias,
        delta=delta,
        n_steps=120,
        **_sampling(sampling, len(y), T),
    )
    assert_same_run(fast, book)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", SAMPLINGS)
# γ = 0.3: with γ = 1 two far-apart points have K̃ = K + 1 = 1.0 exactly, and the first
# snapshots then hold exact ties between class scores, which rounding breaks either way.
@pytest.mark.parametrize("kernel", [None, svmcore.rbf(0.3)], ids=["linear", "rbf"])
def test_multiclass_pegasos_engines_agree(schedule, averaging, sampling, kernel):
    X, y = datasets.k_blobs(n=45, noise=0.8, random_state=1, k=3)
    T = 1000
    fast, book = both(
        svmcore.multiclass_pegasos,
        X,
        y,
        lam=0.05,
        T=T,
        kernel=kernel,
        schedule=schedule,
        averaging=averaging,
        delta=DELTA,
        n_steps=120,
        **_sampling(sampling, len(y), T),
    )
    assert_same_run(fast, book)


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_multiclass_pegasos_eta_is_the_step_the_run_takes(schedule):
    # the inspector's step: rebuild W(t+1) = (1 − η_t λ) W(t) − η_t v_t from the recorded η_t, ŷ, y
    X, y = datasets.k_blobs(n=30, noise=1.0, random_state=2, k=3)
    lam, T = 0.1, 60
    r = svmcore.multiclass_pegasos(
        X,
        y,
        lam=lam,
        T=T,
        schedule=schedule,
        averaging="last",
        random_state=0,
        bias=False,
        n_steps=T,
    )
    s = r.trace.steps
    expected = 1 / (lam * s["t"]) if schedule == "pegasos" else 1 / (lam * (s["t"] + 1))
    np.testing.assert_array_equal(s["eta"], expected)
    W = np.zeros((3, 2))
    for t in range(T):
        i, yi, yh, eta = s["i"][t], s["y"][t], s["y_hat"][t], s["eta"][t]
        W, scores, y_hat = mp_module.step(W, X[i], yi, eta, lam, r.delta)
        assert y_hat == yh
        _close(scores, s["scores"][t], "scores")
    _close(W, r.W_last, "W(T+1)")


# -- Perceptron and one-vs-all -------------------------------------------------------------
@pytest.mark.parametrize("sampling", SAMPLINGS)
@pytest.mark.parametrize("bias", ["none", "augment", "free"])
def test_perceptron_engines_agree(sampling, bias):
    X, y = datasets.overlapping_blobs(60, random_state=4)
    T = 1500
    fast, book = both(
        svmcore.perceptron, X, y, T=T, bias=bias, n_steps=200, **_sampling(sampling, len(y), T)
    )
    assert_same_run(fast, book)


@pytest.mark.parametrize("learner", ["pegasos", "kernel_pegasos", "perceptron"])
def test_one_vs_all_passes_the_engine_through(learner):
    X, y = datasets.k_blobs(n=45, noise=0.8, random_state=3, k=3)
    params = {"T": 600, "random_state": 0}
    if learner != "perceptron":
        params["lam"] = 0.05
    fast, book = both(svmcore.one_vs_all, X, y, learner=learner, **params)
    for mf, mb in zip(fast.models, book.models, strict=True):
        assert mf.trace.info["engine"] == "fast" and mb.trace.info["engine"] == "textbook"
        assert_same_run(mf, mb)


# -- the steps are the texts' -------------------------------------------------------------
def test_each_module_has_a_plain_step():
    for module in (p_module, kp_module, ms_module, mp_module, pc_module):
        assert callable(module.step)
        assert module.__doc__.lstrip()[:1].isupper()


@pytest.mark.parametrize(
    "call",
    [
        lambda X, y, e: svmcore.pegasos(X, y, lam=0.1, T=5, engine=e),
        lambda X, y, e: svmcore.kernel_pegasos(X, y, lam=0.1, T=5, engine=e),
        lambda X, y, e: svmcore.multiclass_sgd(X, y, eta=0.1, T=5, engine=e),
        lambda X, y, e: svmcore.multiclass_pegasos(X, y, lam=0.1, T=5, engine=e),
        lambda X, y, e: svmcore.one_vs_all(X, y, lam=0.1, T=5, engine=e),
        lambda X, y, e: svmcore.perceptron(X, y, T=5, engine=e),
    ],
)
def test_engine_is_validated(call):
    X, y = LIN
    with pytest.raises(ValueError, match=r"engine must be one of \['fast', 'textbook'\]"):
        call(X, y, "slow")


def test_kernel_pegasos_engines_agree_with_columns_on_demand(monkeypatch):
    import svmcore.sgd.kernel_rows as rows

    X, y = datasets.moons(60, noise=0.2, random_state=2)
    monkeypatch.setattr(rows, "GRAM_BYTES", 1000)  # neither engine may hold the Gram matrix
    fast, book = both(svmcore.kernel_pegasos, X, y, lam=0.02, T=800, random_state=1)
    assert_same_run(fast, book)


@pytest.mark.parametrize(
    "fn, kwargs",
    [
        (svmcore.pegasos, {"lam": 0.05, "schedule": "ssbd"}),
        (svmcore.kernel_pegasos, {"lam": 0.05, "schedule": "pegasos"}),
        (svmcore.multiclass_sgd, {"eta": 0.1}),
        (svmcore.multiclass_pegasos, {"lam": 0.05, "kernel": "rbf"}),
        (svmcore.perceptron, {"bias": "augment"}),
    ],
)
def test_the_inspector_replay_gives_the_recorded_steps(fn, kwargs):
    # the step inspector re-runs engine="textbook" on the first recorded indices
    X, y = datasets.k_blobs(n=40, noise=1.0, random_state=5, k=2)
    y = np.where(y == 0, -1.0, 1.0)
    run = fn(X, y, T=5000, random_state=3, n_steps=80, **kwargs)
    k = 50
    replay = fn(X, y, T=k, indices=run.trace.steps["i"][:k], engine="textbook", n_steps=k, **kwargs)
    for name, values in replay.trace.steps.items():
        _close(run.trace.steps[name][:k], values, f"step field {name}")
