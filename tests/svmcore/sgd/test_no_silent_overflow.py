"""No silent NaN or infinity from the SGD family: every call returns finite
numbers or raises a ValueError that names the argument and its limit.
"""

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
