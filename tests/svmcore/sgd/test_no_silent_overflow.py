"""No silent NaN or infinity from the SGD family: every call returns finite
numbers or raises a ValueError that names the argument and its limit.
"""

import itertools
import warnings

import numpy as np
import pytest

import svmcore
from svmcore import datasets

# Tolerance table: none — the checks are finiteness and the kind of exception.

pytestmark = pytest.mark.slow  # a long sweep (fuzz or scikit-learn's estimator checks)


def finite(result) -> bool:
    """Every number of the result and of its trace is finite (Algorithm 2's factor is
    NaN at t = 1 on purpose: undefined in the text)."""
    if hasattr(result, "models"):
        return all(finite(m) for m in result.models)
    values = []
    for name in ("w", "b", "alpha", "beta", "W", "W_last", "objective", "train_error", "hinge"):
        if getattr(result, name, None) is not None:
            values.append(getattr(result, name))
    values += list(result.trace.snapshots.values())
    for name, v in result.trace.steps.items():
        values.append(v[1:] if name == "factor" else v)
    return all(np.all(np.isfinite(np.asarray(v, dtype=float))) for v in values)


def _call(rng):
    """One random call over scales 1e-300…1e153, λ and η 1e-300…1e300, T, kernels."""
    scale = 10.0 ** rng.uniform(-300, 153.5)
    lam = 10.0 ** rng.uniform(-300, 300)
    T = int(rng.choice([1, 3, 20, 300]))
    X, y = datasets.overlapping_blobs(20, random_state=int(rng.integers(1000)))
    X = X * scale
    y3 = np.arange(20) % 3
    engine = str(rng.choice(["fast", "textbook"]))
    kernel = str(rng.choice(["linear", "rbf", "poly"]))
    kparams = {"gamma": 10.0 ** rng.uniform(-3, 3), "degree": int(rng.integers(1, 8))}
    algorithm = rng.integers(6)
    if algorithm == 0:
        bias = str(rng.choice(["none", "augment", "free"]))
        return lambda: svmcore.pegasos(
            X,
            y,
            lam=lam,
            T=T,
            bias=bias,
            projection=bool(rng.integers(2)),
            schedule=str(rng.choice(["pegasos", "ssbd"])),
            engine=engine,
            random_state=0,
        )
    if algorithm == 1:
        return lambda: svmcore.kernel_pegasos(
            X,
            y,
            lam=lam,
            T=T,
            kernel=kernel,
            **kparams,
            engine=engine,
            random_state=0,
            schedule=str(rng.choice(["pegasos", "ssbd"])),
            class_weight="balanced",
        )
    if algorithm == 2:
        eta = 10.0 ** rng.uniform(-300, 300)
        return lambda: svmcore.multiclass_sgd(X, y3, eta=eta, T=T, engine=engine, random_state=0)
    if algorithm == 3:
        k = None if rng.integers(2) else kernel
        return lambda: svmcore.multiclass_pegasos(
            X, y3, lam=lam, T=T, kernel=k, **kparams, engine=engine, random_state=0
        )
    if algorithm == 4:
        return lambda: svmcore.one_vs_all(
            X, y3, learner="pegasos", lam=lam, T=T, engine=engine, random_state=0
        )
    return lambda: svmcore.perceptron(X, y, T=T, bias="augment", engine=engine, random_state=0)


def test_fuzz_finite_or_value_error():
    rng = np.random.default_rng(20261124)
    counts = {"finite": 0, "refused": 0}
    for _ in range(300):
        call = _call(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an overflow warning is a failure too
            try:
                result = call()
            except ValueError:
                counts["refused"] += 1
                continue
        assert finite(result)
        counts["finite"] += 1
    # both outcomes occur: the fuzz reaches the limits and the ordinary range
    assert counts["finite"] > 100 and counts["refused"] > 20


X, Y = datasets.overlapping_blobs(50, random_state=0)


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: svmcore.pegasos(X, Y, lam=1e-300, T=10),
            r"lam = 1e-300 is too small.*"
            r"lam must be at least",
        ),
        (lambda: svmcore.kernel_pegasos(X, Y, lam=1e-300, T=10), "lam must be at least"),
        (lambda: svmcore.multiclass_pegasos(X, Y, lam=1e-300, T=10), "lam must be at least"),
        (lambda: svmcore.multiclass_sgd(X, Y, eta=1e300, T=1000), "eta must be at most"),
        (
            lambda: svmcore.kernel_pegasos(
                X * 1e30, Y, lam=0.1, T=10, kernel="poly", degree=12, gamma=1.0
            ),
            "kernel poly.*overflows",
        ),
        (
            lambda: svmcore.multiclass_pegasos(
                X * 1e30, Y, lam=0.1, T=10, kernel="poly", degree=12
            ),
            "overflows double precision",
        ),
        (lambda: svmcore.perceptron(X * 1e153, Y, T=1000), "X is too large"),
    ],
)
def test_overflow_is_refused_with_the_limit(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_the_stated_limit_is_the_limit():
    # just above the limit the run is finite
    with pytest.raises(ValueError, match="at least") as info:
        svmcore.pegasos(X, Y, lam=1e-300, T=10)
    lam_min = float(str(info.value).split("at least ")[1].split()[0])
    assert finite(svmcore.pegasos(X, Y, lam=lam_min * 1.01, T=10))
    assert finite(svmcore.pegasos(X, Y, lam=lam_min * 1.01, T=10, engine="textbook"))


# -- hostile arguments (wrong types, NaN, limits) across the SGD family and the sampling --

XS, YS = datasets.overlapping_blobs(12, random_state=1)
Y3 = np.arange(12) % 3


def _sgd_calls():
    from tests.api_fuzz import HOSTILE_SEEDS, hostile_calls

    small = {"T": 30, "random_state": 0, "n_snapshots": 3}
    yield from hostile_calls(
        svmcore.pegasos,
        {"X": XS, "y": YS, "lam": 0.1, **small},
        ["lam", "T", "n_snapshots", "n_steps", "batch_size"],
    )
    yield from hostile_calls(
        svmcore.kernel_pegasos,
        {"X": XS, "y": YS, "lam": 0.1, "kernel": "poly", **small},
        ["lam", "gamma", "degree", "coef0"],
    )
    yield from hostile_calls(svmcore.perceptron, {"X": XS, "y": YS, **small}, ["T"])
    yield from hostile_calls(
        svmcore.multiclass_sgd, {"X": XS, "y": Y3, "eta": 0.1, **small}, ["eta", "T"]
    )
    yield from hostile_calls(
        svmcore.multiclass_pegasos, {"X": XS, "y": Y3, "lam": 0.1, **small}, ["lam", "T"]
    )
    yield from hostile_calls(
        svmcore.one_vs_all,
        {"X": XS, "y": Y3, "learner": "pegasos", "lam": 0.1, **small},
        ["lam", "T"],
    )
    yield from hostile_calls(svmcore.sample_indices, {"n": 5, "T": 7}, ["n", "T"])
    yield from hostile_calls(
        svmcore.datasets.moons, {"n": 20, "noise": 0.1, "random_state": 0}, ["n", "noise"]
    )
    for fn, base in [
        (svmcore.pegasos, {"X": XS, "y": YS, "lam": 0.1, **small}),
        (svmcore.kernel_pegasos, {"X": XS, "y": YS, "lam": 0.1, **small}),
        (svmcore.perceptron, {"X": XS, "y": YS, **small}),
        (svmcore.multiclass_sgd, {"X": XS, "y": Y3, "eta": 0.1, **small}),
        (svmcore.multiclass_pegasos, {"X": XS, "y": Y3, "lam": 0.1, **small}),
        (svmcore.sample_indices, {"n": 5, "T": 7}),
        (svmcore.datasets.moons, {"n": 20}),
        (lambda **kw: svmcore.PegasosClassifier(**kw).fit(XS, YS), {"T": 30}),
    ]:
        yield from hostile_calls(fn, base, ["random_state"], HOSTILE_SEEDS)


def test_hostile_arguments_are_refused_by_name_or_give_finite_results():
    """0 wrong exception types, 0 silent non-finite (ValueError/ArgumentTypeError naming
    the argument, or finite numbers)."""
    from tests.api_fuzz import sweep

    counts, failures = sweep(_sgd_calls())
    print("SGD hostile-argument outcomes:", counts)
    assert not failures, failures[:10]
    assert counts["refused"] > 100 and counts.get("finite", 0) > 20


@pytest.mark.parametrize("seed", ["a", 1.5, float("nan"), {}, object()])
def test_a_bad_seed_is_a_type_error_naming_random_state(seed):
    for call in (
        lambda: svmcore.pegasos(XS, YS, lam=0.1, T=5, random_state=seed),
        lambda: svmcore.sample_indices(5, 5, random_state=seed),
        lambda: svmcore.datasets.moons(random_state=seed),
    ):
        with pytest.raises(TypeError, match="random_state must be None, an integer"):
            call()
    with pytest.raises(ValueError, match="random_state must be >= 0"):
        svmcore.sample_indices(5, 5, random_state=-1)


def test_sample_indices_is_capped_like_the_algorithms_and_linear():
    import time

    from svmcore._validation import MAX_T

    for T in (MAX_T + 1, 10**12):
        with pytest.raises(ValueError, match=f"T must be <= {MAX_T}"):
            svmcore.sample_indices(5, T)
    start = time.process_time()
    idx = svmcore.sample_indices(50, 16_000_000)  # the quadratic version: ~6 CPU-s
    assert time.process_time() - start < 2.5
    assert idx.shape == (16_000_000,) and idx.dtype == np.int64


def _reference_stream(n, T, sampling, seed, chunks):
    """The stream as it was drawn before the linear rewrite: blocks of 2¹⁶ uniform draws,
    or ⌊2¹⁶/n⌋ successive permutations, or 0..n−1 repeated; served in ``chunks``."""
    rng = np.random.default_rng(seed)
    buf, out = np.empty(0, dtype=np.int64), []
    for m in chunks:
        while buf.shape[0] < m:
            if sampling == "uniform":
                block = rng.integers(0, n, size=1 << 16, dtype=np.int64)
            elif sampling == "shuffle":
                reps = max(1, (1 << 16) // n)
                block = np.concatenate([rng.permutation(n) for _ in range(reps)])
            else:
                block = np.arange(n, dtype=np.int64)
            buf = np.concatenate([buf, block])
        out.append(buf[:m])
        buf = buf[m:]
    return np.concatenate(out)[:T]


@pytest.mark.parametrize("sampling", ["uniform", "shuffle", "cyclic"])
@pytest.mark.parametrize("n", [1, 3, 50, 70_000])
def test_the_sampled_sequence_is_bit_identical_for_a_seed(sampling, n):
    from svmcore._sampling import IndexStream

    T = 200_000
    chunks = [1] * 5 + [256, 70_000, 3, 129_736]
    stream = IndexStream(n, T, sampling, None, 7)
    got = np.concatenate([stream.take(m) for m in chunks])
    np.testing.assert_array_equal(got, _reference_stream(n, T, sampling, 7, chunks))
    np.testing.assert_array_equal(
        svmcore.sample_indices(n, T, sampling, random_state=7),
        _reference_stream(n, T, sampling, 7, [T]),
    )


def test_algorithm_2_factor_is_nan_at_t_1_and_documented():
    r = svmcore.kernel_pegasos(XS, YS, lam=0.1, T=5, schedule="pegasos", random_state=0)
    factor = np.asarray(r.trace.steps["factor"])
    assert np.isnan(factor[0]) and np.all(np.isfinite(factor[1:]))
    assert "NaN at t = 1" in svmcore.sgd.kernel_pegasos.__doc__


@pytest.mark.parametrize("engine", ["fast", "textbook"])
def test_progress_reaches_a_long_run_between_snapshots_and_can_stop_it(monkeypatch, engine):
    import svmcore.sgd._engine as engine_module
    import svmcore.trace as trace_module

    monkeypatch.setattr(trace_module, "PROGRESS_EVERY", 64)
    monkeypatch.setattr(engine_module, "PROGRESS_EVERY", 64)
    seen = []
    svmcore.pegasos(
        XS,
        YS,
        lam=0.1,
        T=1000,
        n_snapshots=2,
        snapshot_spacing="linear",
        engine=engine,
        n_steps=0,
        random_state=0,
        progress=lambda t, T: seen.append(t),
    )
    # without the ticks: [1, 1000]; the fast engine ticks after the chunk that crosses a
    # multiple of PROGRESS_EVERY (chunks are at most MAX_CHUNK = 2¹⁶ ≪ 2²⁰ steps)
    assert seen[0] == 1 and seen[-1] == 1000 and len(seen) >= 10
    if engine == "textbook":
        assert seen[1:-1] == list(range(64, 1000, 64))
    assert all(b > a for a, b in itertools.pairwise(seen))

    class Stop(Exception):
        pass

    def stop_at_500(t, T):
        if t >= 500:
            raise Stop

    with pytest.raises(Stop):
        svmcore.pegasos(
            XS,
            YS,
            lam=0.1,
            T=1000,
            n_snapshots=2,
            engine=engine,
            random_state=0,
            progress=stop_at_500,
        )
