"""Heavy fits in the worker process (many sessions on one server): same result, light fits stay."""

import numpy as np
import pytest

from svmcore.exceptions import NotSeparableError
from svmlab.algorithms import ALGORITHMS, CapError
from svmlab.state.run_context import RunContext
from svmlab.ui import fitpool, runners

# Tolerance table: none — a fit in the worker runs the same code on the same arrays, so its
# trace must be bit-identical to the one run here; the cost model's thresholds are exact
# comparisons.

pytestmark = pytest.mark.slow  # starts worker processes


@pytest.fixture(scope="module", autouse=True)
def worker():
    yield
    fitpool.shutdown()


def test_the_pages_defaults_stay_in_the_server_and_caps_go_to_the_worker():
    assert not fitpool.is_heavy(100, dict(T=10_000))  # kernel Pegasos' default
    assert not fitpool.is_heavy(100, dict(C=1.0, solver="smo"))  # the dual's default
    assert not fitpool.is_heavy(300, dict(C=1.0, solver="qp"))  # 0.27 s: stays
    assert fitpool.is_heavy(2000, dict(T=1_000_000))  # linear Pegasos at its caps: ~3 s
    assert fitpool.is_heavy(500, dict(T=100_000), threshold=0.25)  # kernel Pegasos' caps
    assert fitpool.estimated_seconds(10, dict(T=0)) == 0.0
    assert fitpool.estimated_seconds(100, {}) == pytest.approx(fitpool.PER_CUBE_S * 1e6)


def test_a_fit_in_the_worker_is_bit_identical_to_one_here():
    X, y = runners.preset_data("moons", n=60, noise=0.15, random_state=1)
    params = dict(kernel="rbf", gamma=1.0, lam=0.01, T=2_000, random_state=3)
    here = ALGORITHMS["kernel_pegasos"].fit(X, y, params)
    seen = []
    there = fitpool.fit("kernel_pegasos", X, y, params, on_wait=seen.append)
    assert np.array_equal(there.alpha, here.alpha)
    assert np.array_equal(there.trace.t, here.trace.t)
    for name, values in here.trace.snapshots.items():
        assert np.array_equal(there.trace.snapshots[name], values), name
    assert seen == sorted(seen), "elapsed grows"


def test_the_workers_errors_arrive_as_the_same_exceptions():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]])
    y = np.array([1.0, 1.0, -1.0])  # the middle point sits between two of the other class
    params = dict(kernel="linear", C=None, solver="qp", tol=1e-9)
    with pytest.raises(NotSeparableError):
        ALGORITHMS["dual_svm"].fit(X, y, params)
    with pytest.raises(NotSeparableError):
        fitpool.fit("dual_svm", X, y, params)
    with pytest.raises(CapError):
        fitpool.fit("kernel_pegasos", X, y, dict(kernel="rbf", gamma=1.0, lam=0.1, T=10**7))


def test_any_picklable_call_runs_in_the_worker():
    import os

    assert fitpool.call(os.getpid) != os.getpid(), "in the worker, not a silent fallback"
    assert fitpool.call(divmod, 17, 5) == (3, 2)
    with pytest.raises(ZeroDivisionError):
        fitpool.call(divmod, 1, 0)


def test_a_heavy_run_through_the_runner_goes_to_the_worker(monkeypatch):
    X, y = runners.preset_data("moons", n=40, noise=0.15, random_state=2)
    params = dict(kernel="rbf", gamma=1.0, lam=0.01, T=1_000, random_state=0)
    sent = []
    real = fitpool.fit

    def spy(*args, **kwargs):
        sent.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(fitpool, "HEAVY_S", 0.0)
    monkeypatch.setattr(fitpool, "fit", spy)
    monkeypatch.setattr(fitpool, "is_heavy", lambda n, p: True)
    result = runners.run(RunContext("kernel_pegasos", X, y, params))
    assert sent == ["kernel_pegasos"]
    here = ALGORITHMS["kernel_pegasos"].fit(X, y, params)
    assert np.array_equal(result.alpha, here.alpha)


def test_the_worker_runs_on_the_cpus_it_is_given(monkeypatch):
    import os

    fitpool.shutdown()
    monkeypatch.setattr(fitpool, "WORKER_CPUS", "0")
    try:
        assert fitpool.call(os.sched_getaffinity, 0) == {0}
    finally:
        fitpool.shutdown()  # the next call spawns a worker with the inherited CPUs
    monkeypatch.setattr(fitpool, "WORKER_CPUS", "")
    assert fitpool.call(os.sched_getaffinity, 0) == os.sched_getaffinity(0)
