"""The train/test split, the fresh test set and the test error per snapshot (svmlab.study.split)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.figures import POINTS_META, grid
from svmlab.plot.split_figure import TEST_META, add_test_points, error_curve_figure
from svmlab.state.pointset import PointSet
from svmlab.study.split import (
    decision_values,
    drawn_from,
    fresh_test_set,
    predictions,
    snapshot_errors,
    train_test_split,
)

# Tolerance table ------------------------------------------------------------------------
TOL_F = 1e-10  # f at new points vs the view's own grid values (and vs a direct
# Σ_j α_j K(x_j, x)), absolute: same sums, another order
# split indices, class counts, error rates: exact (integers / means of booleans)


def moons(n=100, seed=0):
    return svmcore.datasets.load("moons", n=n, noise=0.2, random_state=seed)


# -- the split ----------------------------------------------------------------------------
def test_hand_example_counts_per_class():
    # 4 points of −1 and 6 of +1, half held out: round(2) = 2 and round(3) = 3 test points
    y = np.array([-1.0] * 4 + [1.0] * 6)
    s = train_test_split(y, test_fraction=0.5, random_state=3)
    assert np.sum(y[s.test] == -1) == 2 and np.sum(y[s.test] == 1) == 3
    assert np.sum(y[s.train] == -1) == 2 and np.sum(y[s.train] == 1) == 3
    # 0.3 of 4 = 1.2 -> 1; 0.3 of 6 = 1.8 -> 2
    s = train_test_split(y, test_fraction=0.3, random_state=3)
    assert (np.sum(y[s.test] == -1), np.sum(y[s.test] == 1)) == (1, 2)


def test_same_seed_same_split_other_seed_other_split():
    _, y = moons()
    a = train_test_split(y, test_fraction=0.3, random_state=7)
    b = train_test_split(y, test_fraction=0.3, random_state=7)
    c = train_test_split(y, test_fraction=0.3, random_state=8)
    assert np.array_equal(a.test, b.test) and np.array_equal(a.train, b.train)
    assert not np.array_equal(a.test, c.test)


def test_stratified_keeps_both_classes_in_both_parts_of_an_imbalanced_set():
    # 10:1 imbalance: a plain random 20 % split would often miss the small class
    y = np.array([-1.0] * 100 + [1.0] * 10)
    for seed in range(20):
        s = train_test_split(y, test_fraction=0.2, random_state=seed)
        assert set(y[s.test].tolist()) == {-1.0, 1.0}
        assert np.sum(y[s.test] == 1) == 2 and np.sum(y[s.test] == -1) == 20


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2, 1.5, float("nan")])
def test_refuses_a_fraction_outside_the_open_interval(bad):
    with pytest.raises(ValueError, match="test_fraction must be in"):
        train_test_split(np.array([-1, 1, -1, 1]), test_fraction=bad)


def test_refuses_when_a_class_would_vanish_from_the_training_part():
    y = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])  # one point of −1: half of it rounds to 1
    with pytest.raises(ValueError, match=r"all 1 point\(s\) of class -1 in the test part"):
        train_test_split(y, test_fraction=0.5)
    s = train_test_split(y, test_fraction=0.4)  # 0.4 of 1 rounds to 0: kept for training
    assert -1.0 in y[s.train] and y[s.test].tolist() == [1.0, 1.0]


def test_refuses_an_empty_test_part():
    with pytest.raises(ValueError, match="leaves the test part empty"):
        train_test_split(np.array([-1, 1, 1]), test_fraction=0.1)


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(1, 30), min_size=2, max_size=6),
    f=st.floats(0.05, 0.95),
    seed=st.integers(0, 2**31 - 1),
)
def test_property_a_split_is_a_partition_with_every_class_trained(counts, f, seed):
    y = np.repeat(np.arange(len(counts)), counts)
    y = y[np.random.default_rng(seed).permutation(y.size)]
    try:
        s = train_test_split(y, test_fraction=f, random_state=seed)
    except ValueError as exc:
        # refused only for the two stated reasons
        rounded = [int(np.floor(f * c + 0.5)) for c in counts]
        assert any(r >= c for r, c in zip(rounded, counts, strict=True)) or sum(rounded) == 0
        assert "test_fraction" in str(exc)
        return
    assert np.array_equal(np.sort(np.concatenate([s.train, s.test])), np.arange(y.size))
    assert set(y[s.train].tolist()) == set(range(len(counts)))
    for c, n_c in enumerate(counts):
        assert np.sum(y[s.test] == c) == int(np.floor(f * n_c + 0.5))


# -- the fresh test set -------------------------------------------------------------------
def test_fresh_test_set_is_deterministic_and_independent_of_the_training_draw():
    a = fresh_test_set("moons", n=100, noise=0.15, seed=0, test_seed=0)
    b = fresh_test_set("moons", n=100, noise=0.15, seed=0, test_seed=0)
    c = fresh_test_set("moons", n=100, noise=0.15, seed=0, test_seed=1)
    train = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.allclose(a[0], c[0]) and not np.allclose(a[0], train[0])
    # NumPy reads the seed (0, 0) as 0: the stream tag keeps (seed, 0) apart from seed
    assert np.array_equal(
        np.random.default_rng([0, 0]).random(3), np.random.default_rng(0).random(3)
    )
    assert np.array_equal(a[1], train[1])  # the same labels: moons' labels are not random


def test_fresh_test_set_follows_the_presets_distribution():
    # separable blobs: centres (−2, −2) and (2, 2); 2000 fresh points find them
    X, y = fresh_test_set("separable_blobs", n=2000, noise=0.5, seed=4, test_seed=9)
    assert np.allclose(X[y == -1].mean(axis=0), [-2, -2], atol=0.06)
    assert np.allclose(X[y == 1].mean(axis=0), [2, 2], atol=0.06)
    X, y = fresh_test_set("k_blobs", n=40, noise=0.5, seed=0, test_seed=1, k=4)
    assert sorted(set(y.tolist())) == [0, 1, 2, 3]


def test_fresh_test_set_refuses_worked_examples_and_unknown_names():
    with pytest.raises(ValueError, match="fixed worked example"):
        fresh_test_set("lin_four_points", n=4, noise=0.0, seed=0, test_seed=1)
    with pytest.raises(ValueError, match="name must be a preset"):
        fresh_test_set("nope", n=4, noise=0.0, seed=0, test_seed=1)


def test_drawn_from_finds_the_preset_that_drew_the_points():
    moons0 = dict(name="moons", n=100, noise=0.15, seed=0)
    blobs0 = dict(name="k_blobs", n=90, noise=0.5, seed=0)
    X, y = svmcore.datasets.load("k_blobs", n=90, noise=0.5, random_state=0, k=3)
    assert drawn_from(X, y, [moons0, blobs0], n_classes=3) == blobs0
    assert drawn_from(X[1:], y[1:], [moons0, blobs0], n_classes=3) is None  # one erased
    assert drawn_from(X, y, [dict(blobs0, seed=1)], n_classes=3) is None
    Xm, ym = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    assert drawn_from(Xm, ym, [blobs0, moons0]) == moons0
    Xk, yk = PointSet.from_labels(Xm, ym).labels(3)  # the multiclass page reads 0 / 1
    assert drawn_from(Xk, yk, [moons0], n_classes=3) == moons0
    assert drawn_from(Xm, -ym, [moons0]) is None  # labels count too


# -- test error per snapshot --------------------------------------------------------------
BINARY_RUNS = [
    ("kernel_pegasos", dict(kernel="rbf", gamma=2.0, lam=0.01, T=2000, random_state=1)),
    ("pegasos", dict(lam=0.01, T=2000, random_state=1)),
    ("dual_svm", dict(kernel="rbf", gamma=2.0, C=1.0, solver="smo", tol=1e-4)),
]


def fit(key, X, y, params):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    return result, spec.view(result, X, y)


@pytest.mark.parametrize(("key", "params"), BINARY_RUNS)
def test_last_snapshot_test_error_is_the_models_own_prediction(key, params):
    X, y = moons(160, seed=2)
    s = train_test_split(y, test_fraction=0.25, random_state=0)
    result, view = fit(key, X[s.train], y[s.train], params)
    errors = snapshot_errors(view, X[s.test], y[s.test])
    assert errors.shape == (view.n_snapshots,)
    direct = np.mean(result.predict(X[s.test]) != y[s.test])
    assert errors[-1] == direct


@pytest.mark.parametrize(("key", "params"), BINARY_RUNS)
def test_f_at_every_snapshot_equals_the_views_grid_values(key, params):
    # the view's grid values go through playback's frame builder: an independent path
    X, y = moons(80, seed=3)
    _, view = fit(key, X, y, params)
    G = grid((-2, 3), (-2, 2), 7)[2]
    F = decision_values(view, G)
    for k in {0, view.n_snapshots // 2, view.n_snapshots - 1}:
        np.testing.assert_allclose(
            F[k], view.grid_values((-2, 3), (-2, 2), 7, k)[2].ravel(), atol=TOL_F
        )


def test_kernel_pegasos_errors_at_a_middle_snapshot_by_hand():
    X, y = moons(120, seed=5)
    s = train_test_split(y, test_fraction=0.3, random_state=2)
    params = dict(kernel="rbf", gamma=1.0, lam=0.05, T=3000, random_state=0)
    result, view = fit("kernel_pegasos", X[s.train], y[s.train], params)
    k = view.n_snapshots // 3
    alpha = result.trace.snapshots["alpha"][k]
    f = svmcore.make_kernel("rbf", gamma=1.0)(X[s.test], X[s.train]) @ alpha
    direct = np.mean(np.where(f > 0, 1.0, -1.0) != y[s.test])
    assert snapshot_errors(view, X[s.test], y[s.test])[k] == direct


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("multiclass_sgd", dict(eta=0.1, T=2000, random_state=0)),
        ("one_vs_all", dict(lam=0.01, T=1000, random_state=0)),
    ],
)
def test_multiclass_test_error_is_the_models_own_prediction(key, params):
    X, y = svmcore.datasets.load("k_blobs", n=90, noise=1.0, random_state=0, k=3)
    s = train_test_split(y, test_fraction=0.3, random_state=1)
    result, view = fit(key, X[s.train], y[s.train], params)
    assert predictions(view, X[s.test]).shape == (view.n_snapshots, s.test.size)
    direct = np.mean(result.predict(X[s.test]) != y[s.test])
    assert snapshot_errors(view, X[s.test], y[s.test])[-1] == direct


def test_snapshot_errors_refuses_an_empty_test_set():
    X, y = moons(40)
    _, view = fit("pegasos", X, y, dict(lam=0.1, T=100))
    with pytest.raises(ValueError, match="y_new"):
        snapshot_errors(view, np.zeros((0, 2)), np.zeros(0))


# -- figures ------------------------------------------------------------------------------
def test_test_points_are_hollow_and_not_the_runs_points():
    import plotly.graph_objects as go

    fig = add_test_points(go.Figure(), np.array([[0, 0], [1, 1], [2, 2]]), np.array([-1, 1, 1]))
    assert [tr.name for tr in fig.data] == ["test: y = −1", "test: y = +1"]
    assert [tr.marker.symbol for tr in fig.data] == ["circle-open", "x-open"]
    assert [len(tr.x) for tr in fig.data] == [1, 2]
    assert all(tr.meta == TEST_META != POINTS_META for tr in fig.data)
    fig = add_test_points(go.Figure(), np.array([[0, 0], [1, 1]]), np.array([2, 0]), n_classes=3)
    assert [tr.name for tr in fig.data] == ["test: class 0", "test: class 2"]


def test_error_curve_figure_draws_both_errors_against_t():
    fig = error_curve_figure(np.array([0, 10, 100]), [0.5, 0.2, 0.1], [0.5, 0.3, 0.25])
    assert [tr.name for tr in fig.data] == ["training error", "test error"]
    assert list(fig.data[0].x) == [1.0, 11.0, 101.0]  # t + 1 on the log axis
    assert list(fig.data[1].y) == [0.5, 0.3, 0.25]
