"""The run options every SGD function takes (``**options: Unpack[RunOptions]``)."""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms.spec import keywords

# Tolerance table: none — the checks are exact (the same seed gives a bit-identical trace).

SGD = [svmcore.pegasos, svmcore.kernel_pegasos, svmcore.perceptron]
MULTI = [svmcore.multiclass_sgd, svmcore.multiclass_pegasos]
RUN_OPTIONS = {"engine", "n_snapshots", "snapshot_spacing", "n_steps", "progress"}


def _data(k=2):
    X = np.random.default_rng(0).normal(size=(30, 2))
    y = (
        np.sign(X[:, 0] + 0.1)
        if k == 2
        else np.argmax(X @ np.ones((2, k)) + X[:, :1] * np.arange(k), 1)
    )
    return X, y


def _run(fn, **kw):
    X, y = _data(2 if fn in SGD else 3)
    rate = {"eta": 0.1} if fn is svmcore.multiclass_sgd else {}
    if fn not in (svmcore.perceptron, svmcore.multiclass_sgd):
        rate = {"lam": 0.1}
    return fn(X, y, T=40, random_state=3, **rate, **kw)


@pytest.mark.parametrize("fn", SGD + MULTI, ids=lambda f: f.__name__)
def test_every_run_option_is_taken_by_keyword_and_changes_what_it_says(fn):
    seen = []
    result = _run(
        fn,
        n_snapshots=4,
        snapshot_spacing="linear",
        n_steps=5,
        progress=lambda t, T: seen.append(t),
        engine="textbook",
    )
    assert result.trace.n_snapshots == 4
    assert len(result.trace.steps["t"]) == 5
    assert seen and seen[-1] == 40
    assert keywords(fn) >= RUN_OPTIONS | {"random_state", "indices", "sampling"}


@pytest.mark.parametrize("fn", SGD + MULTI, ids=lambda f: f.__name__)
def test_an_unknown_keyword_is_a_type_error_naming_it(fn):
    with pytest.raises(
        TypeError, match=rf"{fn.__name__}\(\) got an unexpected keyword argument 'n_snapshot'"
    ):
        _run(fn, n_snapshot=4)
