"""Exact ties y_i f(x_i) = 1: ``engine="textbook"`` and ``engine="fast"`` take the same
decision on every step, and it is exact arithmetic's.

Integer-valued data — Lin's four points (seed 003), seed 002's epochs over them, small
integer grids — put points exactly on the margin again and again (y_i⟨θ_t, x_i⟩ = λ s(t)
whenever λ s(t) is an integer). Both engines compute the texts' test y_i⟨w_t, x_i⟩ < 1 as
the data's sum first, one division after (svmcore.sgd.common, "The margin test"), so
every SGD algorithm (linear and kernel Pegasos, the Perceptron, SSBD's multiclass SGD,
multiclass Pegasos linear and kernelized, one-vs-all) under every option (both
schedules, both outputs, every sampling, the bias options, class weights, w_r,
mini-batches, projection) gives the same decision sequence in both engines, and — where
the floating-point form is exact (no projection, no free b, no w_r) — the decisions of
the box run in exact rational arithmetic (``fractions.Fraction``, λ read as its decimal).
"""

from fractions import Fraction

import numpy as np
import pytest

import svmcore
from svmcore._validation import check_class_weight
from svmlab.algorithms import ALGORITHMS
from svmlab.algorithms.spec import inspected_steps

# Tolerance table ------------------------------------------------------------------------
TOL_ENGINES = 1e-12  # relative to the largest magnitude of the array compared: every recorded
# number and the result (w, b, α, W, objective, …) between the engines (they sum the average
# in different orders), and the margins against exact arithmetic (the engines' one rounding
# of λ s(t)); decisions (update / changed / ŷ), indices and counts are equal exactly

T = 150

LIN = (np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]]), np.array([-1.0, -1, 1, 1]))
# 4 against 2: "balanced" weights are 6/8 and 6/4, dyadic, so exact in floating point
GRID = (
    np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 2.0], [3.0, 2.0]]),
    np.array([-1.0, -1, -1, -1, 1, 1]),
)
BINARY = {"lin": LIN, "grid": GRID}
K3 = (
    np.array([[0, 0], [1, 0], [0, 1], [2, 2], [3, 2], [2, 3], [0, 3], [1, 3], [0, 4]], float),
    np.array([0, 0, 0, 1, 1, 1, 2, 2, 2]),
)
DELTA = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
SAMPLINGS = ("uniform", "cyclic", "shuffle", "indices")


def _sampling(kind, n, count, seed=0):
    if kind == "indices":
        return {"indices": np.random.default_rng(seed).integers(0, n, count)}
    return {"sampling": kind, "random_state": seed}


def _close(a, b, what, scale=0.0):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, what
    if a.dtype.kind in "biu" or b.dtype.kind in "biu":
        np.testing.assert_array_equal(a, b, err_msg=what)
        return
    scale = max(float(np.nanmax(np.abs(a), initial=0.0)), scale, 1e-300)
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL_ENGINES * scale, equal_nan=True, err_msg=what)


DECISIONS = ("i", "update", "changed", "y_hat", "y", "n_violations")
#: Counts read off the *output* at a threshold (y f ≤ 1, sign f, argmax): see _output_ties.
OUTPUT_COUNTS = ("n_support", "train_error", "delta_risk")


def _output_ties(result, X, y) -> np.ndarray:
    """Per snapshot: does some training point sit on a threshold of the output (within
    1e-9 of its scale)? The averaged outputs w̄ = (1/t) Σ w_τ of integer data put points
    exactly on the margin (y f = 1), on the boundary (f = 0) or on a tie between two
    classes now and then; both engines agree on w̄ to 1e-12, and the count there is
    decided by its last bit, in either engine (no step decision depends on it)."""
    s = result.trace.snapshots
    if "w" in s:  # linear binary: f = ⟨w, x⟩ + b; thresholds f = 0 and y f = 1
        F = np.asarray(s["w"]) @ X.T + np.asarray(s["b"])[:, None]
        tol = 1e-9 * (1.0 + np.abs(F).max(axis=1))
        near = (np.abs(F) <= tol[:, None]) | (np.abs(y * F - 1.0) <= tol[:, None])
        return near.any(axis=1)
    if "W" in s:  # linear multiclass: scores ⟨w_c, x̃⟩
        Xa = np.hstack([X, np.ones((len(X), 1))]) if result.bias else X
        S = np.einsum("nd,skd->snk", Xa, np.asarray(s["W"]))
    else:  # kernels: f = K α (binary) or K̃ α (multiclass)
        K = result.kernel(X) + (1.0 if getattr(result, "bias", False) else 0.0)
        A = np.asarray(s["alpha"])
        if A.ndim == 2:
            F = A @ K
            tol = 1e-9 * (1.0 + np.abs(F).max(axis=1))
            return (np.abs(F) <= tol[:, None]).any(axis=1)
        S = np.einsum("nm,smk->snk", K, A)
    top = np.sort(S, axis=2)
    tol = 1e-9 * (1.0 + np.abs(S).max(axis=(1, 2)))
    return ((top[..., -1] - top[..., -2]) <= tol[:, None]).any(axis=1)


def assert_same_decisions_and_results(fast, book, X, y):
    """Every step's decision equal; every recorded number and the result within 1e-12 (the
    counts read off the output: equal wherever the output has no exact tie)."""
    tf, tb = fast.trace, book.trace
    assert set(tf.steps) == set(tb.steps)
    assert len(tf.steps["t"]) == len(tb.steps["t"]) > 0
    for name in DECISIONS:
        if name in tf.steps:
            np.testing.assert_array_equal(tf.steps[name], tb.steps[name], err_msg=name)
    for name in tf.steps:
        _close(tf.steps[name], tb.steps[name], f"step field {name}")
    np.testing.assert_array_equal(tf.t, tb.t)
    untied = ~(_output_ties(fast, X, y) | _output_ties(book, X, y))
    w_scale = float(np.abs(tf.snapshots["w"]).max()) if "w" in tf.snapshots else 0.0
    for name in tf.snapshots:
        a, b = np.asarray(tf.snapshots[name]), np.asarray(tb.snapshots[name])
        if name in OUTPUT_COUNTS:
            a, b = a[untied], b[untied]
        _close(a, b, f"snapshot {name}", w_scale)
    for name in ("w", "b", "alpha", "beta", "W", "W_last", "objective"):
        if getattr(fast, name, None) is not None:
            _close(getattr(fast, name), getattr(book, name), name, w_scale)
    if untied[-1]:
        for name in OUTPUT_COUNTS:
            if getattr(fast, name, None) is not None:
                assert getattr(fast, name) == getattr(book, name), name


def both(fn, *args, **kwargs):
    """The run in both engines (every step recorded; 40 snapshots: t = 1, T and between)."""
    kwargs.setdefault("n_snapshots", 40)
    return fn(*args, engine="fast", **kwargs), fn(*args, engine="textbook", **kwargs)


# -- exact arithmetic: the boxes in Fractions ----------------------------------------------
def _q(v) -> Fraction:
    """A float of the data or a setting as the rational it stands for (0.1 → 1/10)."""
    return Fraction(repr(float(v)))


def exact_pegasos(X, y, lam, idx, schedule, k=1, c=None, augment=False):
    """Seed 002's Algorithm 1 (mini-batch A_t, class weights c_j) in exact arithmetic:
    w_{t+1} = (1 − η_tλ) w_t + η_t (1/k) Σ_{j∈A_t : y_j⟨w_t, x_j⟩ < 1} c_j y_j x_j."""
    rows = [[_q(v) for v in x] + ([Fraction(1)] if augment else []) for x in X]
    lam = _q(lam)
    w = [Fraction(0)] * len(rows[0])
    out = []
    for t in range(1, len(idx) // k + 1):
        A = idx[(t - 1) * k : t * k]
        eta = 1 / (lam * (t if schedule == "pegasos" else t + 1))
        margins = [int(y[j]) * sum(a * b for a, b in zip(w, rows[j], strict=True)) for j in A]
        g = [Fraction(0)] * len(w)
        for j, m in zip(A, margins, strict=True):
            if m < 1:
                cj = _q(1.0 if c is None else c[j]) * int(y[j])
                g = [gv + cj * xv for gv, xv in zip(g, rows[j], strict=True)]
        w = [(1 - eta * lam) * wv + eta * gv / k for wv, gv in zip(w, g, strict=True)]
        update = any(m < 1 for m in margins)
        out.append({"margin": margins[0], "update": update, "tie": 1 in margins})
    return out, w


def exact_kernel(K, y, lam, idx, schedule, c=None):
    """SSBD's box (α(t) = β(t)/(λ s(t)), signed β) in exact arithmetic, K integer."""
    lam, shift = _q(lam), 1 if schedule == "pegasos" else 0
    beta = [Fraction(0)] * len(y)
    out = []
    for t, i in enumerate(idx, start=1):
        s = t - shift
        total = sum(b * int(K[j, i]) for j, b in enumerate(beta))
        margin = int(y[i]) * total / (lam * s) if s > 0 else Fraction(0)
        if margin < 1:
            beta[i] += _q(1.0 if c is None else c[i]) * int(y[i])
        out.append({"margin": margin, "update": margin < 1, "tie": margin == 1})
    return out


def exact_multiclass(Xa, y, idx, delta, level, weights=None):
    """SSBD's multiclass box on θ, w(t) = θ(t)/L(t), in exact arithmetic: ŷ = the smallest
    argmax of Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩; ``level(t)`` the exact L(t) (0: w = 0);
    ``weights`` the class weights c_y (seed 002 §2.1: θ moves by c_y x̃)."""
    k = delta.shape[0]
    theta = [[Fraction(0)] * Xa.shape[1] for _ in range(k)]
    rows = [[_q(v) for v in x] for x in Xa]
    out = []
    for t, i in enumerate(idx, start=1):
        yi, x = int(y[i]), rows[i]
        raw = [sum(a * b for a, b in zip(th, x, strict=True)) for th in theta]
        L = level(t)
        scores = [_q(delta[c, yi]) + ((raw[c] - raw[yi]) / L if L else 0) for c in range(k)]
        best = max(scores)
        yh = scores.index(best)
        if yh != yi:
            c = _q(1.0 if weights is None else weights[yi])
            theta[yh] = [a - c * b for a, b in zip(theta[yh], x, strict=True)]
            theta[yi] = [a + c * b for a, b in zip(theta[yi], x, strict=True)]
        out.append({"y_hat": yh, "tie": scores.count(best) > 1})
    return out


# -- linear Pegasos --------------------------------------------------------------------------
PEGASOS_OPTIONS = [
    {},
    {"bias": "augment"},
    {"bias": "free"},
    {"class_weight": {-1: 1.0, 1: 3.0}},
    {"class_weight": "balanced"},
    {"batch_size": 2},
    {"batch_size": 3},
    {"projection": True},
    {"w_ref": (1.0, -1.0)},
    {"w_ref": (0.5, 0.0), "bias": "augment", "projection": True},
    {"bias": "augment", "class_weight": {-1: 2.0, 1: 1.0}, "batch_size": 2},
    {"w_ref": (1.0, 0.0), "projection": True, "batch_size": 2, "bias": "free"},
]


@pytest.mark.slow  # a contract sweep: every option × schedule × output × sampling
@pytest.mark.parametrize("options", PEGASOS_OPTIONS, ids=str)
@pytest.mark.parametrize("lam", [0.1, 0.5])
@pytest.mark.parametrize("data", list(BINARY))
def test_pegasos_engines_take_the_same_decisions(data, lam, options):
    X, y = BINARY[data]
    k = options.get("batch_size", 1)
    for schedule in ("pegasos", "ssbd"):
        for averaging in ("average", "last"):
            for sampling in SAMPLINGS:
                fast, book = both(
                    svmcore.pegasos,
                    X,
                    y,
                    lam=lam,
                    T=T,
                    schedule=schedule,
                    averaging=averaging,
                    n_steps=T,
                    **options,
                    **_sampling(sampling, len(y), T * k),
                )
                assert_same_decisions_and_results(fast, book, X, y)


EXACT_OPTIONS = [
    {},
    {"bias": "augment"},
    {"class_weight": {-1: 1.0, 1: 3.0}},
    {"class_weight": "balanced"},
    {"batch_size": 2},
    {"batch_size": 3, "bias": "augment", "class_weight": {-1: 2.0, 1: 1.0}},
]


@pytest.mark.parametrize("options", EXACT_OPTIONS, ids=str)
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_pegasos_decisions_are_exact_arithmetics(schedule, options):
    k = options.get("batch_size", 1)
    ties = 0
    for X, y in BINARY.values():
        weights = options.get("class_weight")
        c = None if weights is None else check_class_weight(weights, y)
        for lam in (0.1, 0.2, 0.5, 1.0):
            idx = np.random.default_rng(7).integers(0, len(y), T * k)
            augment = options.get("bias") == "augment"
            exact, _ = exact_pegasos(X, y, lam, idx, schedule, k, c, augment)
            ties += sum(e["tie"] for e in exact)
            for engine in ("fast", "textbook"):
                steps = svmcore.pegasos(
                    X,
                    y,
                    lam=lam,
                    T=T,
                    schedule=schedule,
                    indices=idx,
                    engine=engine,
                    n_steps=T,
                    **options,
                ).trace.steps
                assert list(steps["update"]) == [e["update"] for e in exact], (engine, lam)
                margins = np.array([float(e["margin"]) for e in exact])
                _close(margins, steps["margin"], f"{engine} margins")
    assert ties > 0  # the data do put points exactly on the margin


# λ = 0.2: steps exactly on the margin; λ = 1 under "ssbd": w_81 puts (3, 0) on it
@pytest.mark.parametrize("lam, schedule", [(0.1, "pegasos"), (0.2, "pegasos"), (1.0, "ssbd")])
def test_seed_002_epochs_on_lins_points_end_on_exact_arithmetics_w(lam, schedule):
    # seed 002's Algorithm 1 as printed: 20 epochs in data order, last w
    X, y = LIN
    exact, w = exact_pegasos(X, y, lam, [t % 4 for t in range(80)], schedule)
    fast, book = both(
        svmcore.pegasos,
        X,
        y,
        lam=lam,
        T=80,
        schedule=schedule,
        sampling="cyclic",
        averaging="last",
    )
    assert_same_decisions_and_results(fast, book, X, y)
    assert list(book.trace.steps["update"]) == [e["update"] for e in exact]
    if lam == 0.2:
        assert any(e["tie"] for e in exact)
    _close(np.array([float(v) for v in w]), book.w, "w_81")
    # the points on or inside the margin of w_81 (y f ≤ 1), counted as exact arithmetic does
    on = [int(y[j]) * sum(a * _q(b) for a, b in zip(w, X[j], strict=True)) for j in range(4)]
    assert (1 in on) == (lam == 1.0)
    assert fast.n_support == book.n_support == sum(m <= 1 for m in on)


# -- kernel Pegasos --------------------------------------------------------------------------
KERNELS = {"linear": {"kernel": "linear"}, "poly": {"kernel": "poly", "degree": 2, "gamma": 1.0}}
KERNEL_WEIGHTS = [None, {-1: 1.0, 1: 3.0}, "balanced"]


@pytest.mark.slow  # a contract sweep: every option × schedule × output × sampling
@pytest.mark.parametrize("class_weight", KERNEL_WEIGHTS, ids=str)
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("lam", [0.1, 0.5])
@pytest.mark.parametrize("data", list(BINARY))
def test_kernel_pegasos_engines_take_the_same_decisions(data, lam, kernel, class_weight):
    X, y = BINARY[data]
    for schedule in ("ssbd", "pegasos"):
        for averaging in ("average", "last"):
            for sampling in SAMPLINGS:
                fast, book = both(
                    svmcore.kernel_pegasos,
                    X,
                    y,
                    lam=lam,
                    T=T,
                    schedule=schedule,
                    averaging=averaging,
                    class_weight=class_weight,
                    coef0=1.0,
                    n_steps=T,
                    **KERNELS[kernel],
                    **_sampling(sampling, len(y), T),
                )
                assert_same_decisions_and_results(fast, book, X, y)


@pytest.mark.parametrize("class_weight", KERNEL_WEIGHTS, ids=str)
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
def test_kernel_pegasos_decisions_are_exact_arithmetics(schedule, kernel, class_weight):
    ties = 0
    for X, y in BINARY.values():
        c = None if class_weight is None else check_class_weight(class_weight, y)
        K = svmcore.make_kernel(KERNELS[kernel]["kernel"], gamma=1.0, degree=2, coef0=1.0)(X)
        assert np.array_equal(K, np.round(K))  # integer Gram matrices
        for lam in (0.1, 0.2, 0.5, 1.0):
            idx = np.random.default_rng(11).integers(0, len(y), T)
            exact = exact_kernel(K, y, lam, idx, schedule, c)
            ties += sum(e["tie"] for e in exact)
            for engine in ("fast", "textbook"):
                steps = svmcore.kernel_pegasos(
                    X,
                    y,
                    lam=lam,
                    T=T,
                    schedule=schedule,
                    indices=idx,
                    engine=engine,
                    class_weight=class_weight,
                    n_steps=T,
                    coef0=1.0,
                    **KERNELS[kernel],
                ).trace.steps
                assert list(steps["update"]) == [e["update"] for e in exact], (engine, lam)
                _close(np.array([float(e["margin"]) for e in exact]), steps["margin"], engine)
    assert ties > 0


# -- the Perceptron --------------------------------------------------------------------------
@pytest.mark.parametrize("bias", ["none", "augment", "free"])
@pytest.mark.parametrize("data", list(BINARY))
def test_perceptron_engines_take_the_same_decisions(data, bias):
    X, y = BINARY[data]
    for sampling in SAMPLINGS:
        fast, book = both(
            svmcore.perceptron, X, y, T=T, bias=bias, n_steps=T, **_sampling(sampling, len(y), T)
        )
        assert_same_decisions_and_results(fast, book, X, y)
        margins = np.asarray(book.trace.steps["margin"])
        assert np.array_equal(margins, np.round(margins))  # integer sums: exact


# -- multiclass ------------------------------------------------------------------------------
#: Multiclass class weights (seed 002 §2.1): dyadic, so θ stays exact for integer data.
MC_WEIGHTS = [None, {0: 1.0, 1: 3.0, 2: 0.5}]


@pytest.mark.parametrize("class_weight", MC_WEIGHTS, ids=["unweighted", "weighted"])
@pytest.mark.parametrize("delta", [None, DELTA], ids=["zero-one", "costs"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("eta", [0.05, 0.25, 1.0])
def test_multiclass_sgd_engines_take_the_same_decisions(eta, bias, delta, class_weight):
    X, y = K3
    for averaging in ("average", "last"):
        for sampling in SAMPLINGS:
            fast, book = both(
                svmcore.multiclass_sgd,
                X,
                y,
                eta=eta,
                T=T,
                bias=bias,
                delta=delta,
                class_weight=class_weight,
                averaging=averaging,
                n_steps=T,
                **_sampling(sampling, len(y), T),
            )
            assert_same_decisions_and_results(fast, book, X, y)


MC_KERNELS = {"linear Ψ": {}, "linear K": {"kernel": "linear"}, "poly K": KERNELS["poly"]}


@pytest.mark.slow  # a contract sweep: every option × schedule × output × sampling
@pytest.mark.parametrize("class_weight", MC_WEIGHTS, ids=["unweighted", "weighted"])
@pytest.mark.parametrize("delta", [None, DELTA], ids=["zero-one", "costs"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("kernel", list(MC_KERNELS))
@pytest.mark.parametrize("lam", [0.1, 0.5])
def test_multiclass_pegasos_engines_take_the_same_decisions(lam, kernel, bias, delta, class_weight):
    X, y = K3
    for schedule in ("pegasos", "ssbd"):
        for averaging in ("average", "last"):
            for sampling in SAMPLINGS:
                fast, book = both(
                    svmcore.multiclass_pegasos,
                    X,
                    y,
                    lam=lam,
                    T=T,
                    bias=bias,
                    delta=delta,
                    class_weight=class_weight,
                    schedule=schedule,
                    averaging=averaging,
                    coef0=1.0,
                    n_steps=T,
                    **MC_KERNELS[kernel],
                    **_sampling(sampling, len(y), T),
                )
                assert_same_decisions_and_results(fast, book, X, y)


@pytest.mark.parametrize("class_weight", MC_WEIGHTS, ids=["unweighted", "weighted"])
@pytest.mark.parametrize("delta", [None, DELTA], ids=["zero-one", "costs"])
@pytest.mark.parametrize("bias", [True, False])
def test_multiclass_decisions_are_exact_arithmetics(bias, delta, class_weight):
    X, y = K3
    D = np.asarray(1.0 - np.eye(3) if delta is None else delta)
    Xa = np.hstack([X, np.ones((len(y), 1))]) if bias else X
    idx = np.random.default_rng(5).integers(0, len(y), T)
    ties = 0
    runs = [
        (svmcore.multiclass_sgd, {"eta": eta}, lambda t, e=eta: 1 / _q(e)) for eta in (0.05, 0.25)
    ]
    for lam in (0.1, 0.5):
        for schedule, shift in (("pegasos", 1), ("ssbd", 0)):
            runs.append(
                (
                    svmcore.multiclass_pegasos,
                    {"lam": lam, "schedule": schedule},
                    lambda t, lam=lam, shift=shift: _q(lam) * (t - shift),
                )
            )
    for fn, kw, level in runs:
        exact = exact_multiclass(Xa, y, idx, D, level, class_weight)
        ties += sum(e["tie"] for e in exact)
        for engine in ("fast", "textbook"):
            kw = {**kw, "class_weight": class_weight, "indices": idx, "n_steps": T}
            run = fn(X, y, T=T, bias=bias, delta=delta, engine=engine, **kw)
            assert list(run.trace.steps["y_hat"]) == [e["y_hat"] for e in exact], (kw, engine)
    assert ties > 0


@pytest.mark.parametrize(
    "learner, params",
    [
        ("pegasos", {"lam": 0.1, "bias": "augment"}),
        ("pegasos", {"lam": 0.5, "schedule": "ssbd", "averaging": "last", "batch_size": 2}),
        ("pegasos", {"lam": 0.1, "class_weight": "balanced", "sampling": "cyclic"}),
        ("kernel_pegasos", {"lam": 0.1, "kernel": "linear"}),
        ("kernel_pegasos", {"lam": 0.5, "kernel": "poly", "degree": 2, "schedule": "pegasos"}),
        ("perceptron", {"bias": "augment"}),
    ],
)
def test_one_vs_all_learners_take_the_same_decisions(learner, params):
    X, y = K3
    fast, book = both(
        svmcore.one_vs_all, X, y, learner=learner, T=T, n_steps=T, random_state=0, **params
    )
    for c, (mf, mb) in enumerate(zip(fast.models, book.models, strict=True)):
        assert_same_decisions_and_results(mf, mb, X, np.where(y == c, 1.0, -1.0))
    np.testing.assert_array_equal(fast.predict(X), book.predict(X))


# -- what the app shows: the inspector is the plotted run -----------------------------------
def _page_params(**kw):
    p = {"lam": 0.1, "T": 1000, "schedule": "pegasos", "averaging": "average"}
    p |= {"sampling": "uniform", "bias": "none", "batch_size": 1, "projection": False}
    p |= {"class_weight": None, "random_state": 0}
    return p | kw


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_linear_page_inspector_agrees_with_the_run_on_lins_points(schedule):
    # the linear page, preset "Lin's four points", λ = 0.1, seed 0: every one of the first
    # 300 steps the inspector shows is the plotted run's (step 21 used to read "update: yes")
    spec = ALGORITHMS["pegasos"]
    X, y = svmcore.datasets.load("lin_four_points")
    params = _page_params(schedule=schedule)
    run = spec.fit(X, y, params)
    shown = inspected_steps(spec, X, y, params, run.trace)
    assert len(shown["t"]) == 300
    for name in ("i", "update"):
        np.testing.assert_array_equal(shown[name], run.trace.steps[name][:300], err_msg=name)
    _close(run.trace.steps["margin"][:300], shown["margin"], "margin")
    if schedule == "pegasos":
        row = dict(spec.rows({k: v[20] for k, v in shown.items()}, y, params))
        assert row["margin y_i f(x_i)"] == "1" and row["margin < 1 → update"] == "no"


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
def test_kernel_page_inspector_agrees_with_the_run_with_the_linear_kernel(schedule):
    spec = ALGORITHMS["kernel_pegasos"]
    X, y = svmcore.datasets.load("lin_four_points")
    params = {"kernel": "linear", "lam": 0.1, "T": 1000, "schedule": schedule}
    params |= {"averaging": "average", "sampling": "uniform", "random_state": 0}
    run = spec.fit(X, y, params)
    shown = inspected_steps(spec, X, y, params, run.trace)
    assert len(shown["t"]) == 300
    for name in ("i", "update", "beta_i"):
        np.testing.assert_array_equal(shown[name], run.trace.steps[name][:300], err_msg=name)
