"""Snapshot schedules and the Trace container."""

import pickle

import numpy as np
import pytest

from svmcore.trace import MAX_SNAPSHOTS, TraceRecorder, snapshot_times

# Tolerance table: none — snapshot times and recorded values are compared exactly.


@pytest.mark.parametrize("spacing", ["geometric", "linear"])
@pytest.mark.parametrize(("T", "n"), [(1, 100), (5, 100), (100, 100), (10_000, 100), (10**8, 50)])
def test_snapshot_times_contain_first_and_last(T, n, spacing):
    t = snapshot_times(T, n, spacing)
    assert t[0] == 1 and t[-1] == T
    assert np.all(np.diff(t) > 0)
    assert len(t) == min(T, n)  # as many snapshots as asked, never more


def test_geometric_spacing_is_dense_early():
    t = snapshot_times(100_000, 50, "geometric")
    assert np.sum(t <= 100) > 10  # SGD's fast early changes are visible
    lin = snapshot_times(100_000, 50, "linear")
    assert np.sum(lin <= 100) == 1


def test_snapshot_times_bad_input():
    with pytest.raises(ValueError, match="n_snapshots must be <="):
        snapshot_times(10, MAX_SNAPSHOTS + 1)
    with pytest.raises(ValueError, match="spacing must be one of"):
        snapshot_times(10, 5, "log")
    with pytest.raises(ValueError, match="T must be >= 1"):
        snapshot_times(0, 5)


def test_recorder_builds_frozen_pickleable_trace():
    rec = TraceRecorder("demo", [1, 5], n_steps=2, info={"lam": 0.1})
    for t in range(1, 4):
        rec.step(t=t, i=t, update=t % 2 == 0)
    rec.record(1, w=np.zeros(2), objective=1.0)
    rec.record(5, w=np.ones(2), objective=0.5)
    tr = rec.finish(extra=3)
    assert tr.n_snapshots == 2 and tr.n_steps == 2  # the third step was not kept
    assert tr.snapshot(-1)["t"] == 5 and np.all(tr.snapshot(1)["w"] == 1)
    assert tr.step(1) == {"t": 2, "i": 2, "update": True}
    assert tr.index_at(4) == 0 and tr.index_at(5) == 1 and tr.index_at(99) == 1
    assert tr.info == {"lam": 0.1, "extra": 3}
    with pytest.raises(ValueError):
        tr.snapshots["w"][0, 0] = 3.0  # read-only
    back = pickle.loads(pickle.dumps(tr))
    np.testing.assert_array_equal(back.snapshots["w"], tr.snapshots["w"])


def test_progress_is_reported_at_every_snapshot():
    import svmcore
    from svmcore import datasets

    X, y = datasets.moons(60, random_state=0)
    seen = []
    r = svmcore.kernel_pegasos(
        X, y, lam=0.01, T=5000, n_snapshots=20, progress=lambda t, T: seen.append((t, T))
    )
    assert seen == [(int(t), 5000) for t in r.trace.t]
    seen.clear()
    svmcore.pegasos(X, y, lam=0.01, T=100, n_snapshots=5, progress=lambda t, T: seen.append(t))
    assert seen[-1] == 100 and len(seen) == 5
    with pytest.raises(ValueError, match="progress must be a callable"):
        svmcore.pegasos(X, y, lam=0.01, T=10, progress=3)
