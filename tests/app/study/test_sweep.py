"""The hyperparameter sweep (svmlab.study.sweep) and its figures (svmlab.plot.sweep_figure)."""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.figures import grid
from svmlab.plot.sweep_figure import CELLS_META, heatmap_figure, multiples, small_multiples
from svmlab.study.split import train_test_split
from svmlab.study.sweep import cell_params, fit_cell, sweep, sweep_names

# Tolerance table ------------------------------------------------------------------------
TOL_CELL_F = 1e-12  # a cell's f on the grid vs the direct fit's f, absolute: the same sums
# a cell's accuracies vs a direct fit of the cell: exact (the same run, the same split);
# n_jobs = 2 vs n_jobs = 1: exact (seeded runs are bit-identical)

PLANE = ((-2.0, 3.0), (-2.0, 2.0))
KP = dict(kernel="rbf", gamma=1.0, lam=0.01, T=1000, schedule="ssbd", random_state=3)
DUAL = dict(kernel="rbf", gamma=1.0, C=1.0, solver="smo", tol=1e-3)


def data(n=120):
    return svmcore.datasets.load("moons", n=n, noise=0.25, random_state=1)


def test_sweep_names_follow_the_parameters():
    assert sweep_names(KP) == ("lam", "gamma")
    assert sweep_names(DUAL) == ("C", "gamma")
    assert sweep_names(dict(DUAL, C=None)) == ("gamma",)  # the hard margin: γ only
    assert sweep_names(dict(lam=0.1, T=10)) == ("lam",)  # linear Pegasos: λ only
    assert sweep_names(dict(T=10)) == ()  # the perceptron: nothing


def test_cell_params_are_row_major_and_keep_the_other_settings():
    cells = cell_params(KP, ("lam", "gamma"), ([0.1, 1.0], [2.0, 3.0, 4.0]))
    assert [(c["lam"], c["gamma"]) for c in cells] == [
        (0.1, 2.0),
        (0.1, 3.0),
        (0.1, 4.0),
        (1.0, 2.0),
        (1.0, 3.0),
        (1.0, 4.0),
    ]
    assert all(c["T"] == 1000 and c["random_state"] == 3 for c in cells)


@pytest.mark.parametrize(
    ("key", "params", "names", "values"),
    [
        ("kernel_pegasos", KP, ("lam", "gamma"), ([1e-3, 0.1], [0.3, 3.0])),
        ("dual_svm", DUAL, ("C", "gamma"), ([0.1, 10.0], [0.3, 3.0])),
    ],
)
def test_every_cell_equals_a_direct_fit_of_that_cell(key, params, names, values):
    spec = ALGORITHMS[key]
    X, y = data()
    res = sweep(
        spec.fn,
        params,
        names,
        values,
        X,
        y,
        kwargs_of=spec.kwargs,
        random_state=5,
        plane=PLANE,
        resolution=9,
        n_jobs=1,
    )
    part = train_test_split(y, test_fraction=0.3, random_state=5)
    Xt, yt, Xv, yv = X[part.train], y[part.train], X[part.test], y[part.test]
    assert (res.n_train, res.n_val) == (part.train.size, part.test.size)
    _, _, G = grid(*PLANE, 9)
    for i in range(2):
        for j in range(2):
            kernel = svmcore.make_kernel("rbf", gamma=values[1][j])
            kw = {k: v for k, v in params.items() if k not in ("kernel", "gamma")}
            kw[names[0]] = values[0][i]
            direct = spec.fn(Xt, yt, kernel=kernel, **kw)
            assert res.accuracy[i, j] == np.mean(direct.predict(Xv) == yv)
            assert res.train_accuracy[i, j] == np.mean(direct.predict(Xt) == yt)
            np.testing.assert_allclose(
                res.Z[i, j].ravel(), direct.decision_function(G), rtol=0, atol=TOL_CELL_F
            )
            assert res.cell(i, j) == {names[0]: values[0][i], "gamma": values[1][j]}
    # the sweep is not flat: the grid spans under- and overfitting
    assert np.nanmax(res.accuracy) > np.nanmin(res.accuracy)


def test_two_processes_give_the_same_grid_as_one():
    spec = ALGORITHMS["kernel_pegasos"]
    X, y = data(80)
    args = (spec.fn, KP, ("lam", "gamma"), ([1e-3, 1.0], [0.1, 1.0, 10.0]), X, y)
    one = sweep(*args, kwargs_of=spec.kwargs, resolution=5, n_jobs=1)
    two = sweep(*args, kwargs_of=spec.kwargs, resolution=5, n_jobs=2)
    assert np.array_equal(one.accuracy, two.accuracy)
    assert np.array_equal(one.Z, two.Z)
    assert one.shape == (2, 3)


def test_a_failed_cell_is_nan_with_its_reason():
    X, y = data(40)
    val, train, Z, why = fit_cell(svmcore.pegasos, dict(lam=-1.0, T=10), X, y, X, y, X)
    assert np.isnan(val) and np.isnan(train) and Z is None and "lam" in why
    # inside a sweep: the failed cell is NaN with its reason, the others are not
    res = sweep(
        svmcore.pegasos,
        dict(lam=0.1, T=200, random_state=0),
        ("lam",),
        ([-1.0, 0.1],),
        X,
        y,
        n_jobs=1,
    )
    assert res.shape == (2, 1)
    assert np.isnan(res.accuracy[0, 0]) and "lam" in res.errors[0][0]
    assert np.all(np.isnan(res.Z[0, 0]))
    assert res.accuracy[1, 0] > 0.5 and res.errors[1][0] == ""


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(names=("lam", "gamma", "C"), values=([1], [1], [1])), "names must be 1 or 2"),
        (dict(names=("lam",), values=([],)), "values must hold"),
        (dict(names=("lam",), values=([1.0],), n_jobs=0), "n_jobs must be >= 1"),
        (dict(names=("lam",), values=([1.0],), val_fraction=1.0), "test_fraction"),
    ],
)
def test_bad_arguments_are_refused(kwargs, match):
    X, y = data(30)
    with pytest.raises(ValueError, match=match):
        sweep(svmcore.pegasos, dict(lam=0.1, T=10), X=X, y=y, **kwargs)


def test_best_cell_and_figures():
    spec = ALGORITHMS["dual_svm"]
    X, y = data()
    res = sweep(
        spec.fn,
        DUAL,
        ("C", "gamma"),
        ([0.01, 1.0, 100.0], [0.1, 1.0, 10.0, 100.0]),
        X,
        y,
        kwargs_of=spec.kwargs,
        resolution=6,
        n_jobs=1,
    )
    bi, bj = res.best()
    assert res.accuracy[bi, bj] == np.nanmax(res.accuracy)
    fig = heatmap_figure(res)
    cells = next(tr for tr in fig.data if tr.meta == CELLS_META)
    assert len(cells.x) == 12 and cells.customdata.tolist()[7] == [1, 3]
    assert np.array_equal(np.asarray(fig.data[0].z), res.accuracy)
    best = next(tr for tr in fig.data if tr.name == "best cell")
    assert (best.y[0], best.x[0]) == (
        f"{[0.01, 1.0, 100.0][bi]:.3g}",
        f"{[0.1, 1, 10, 100][bj]:.3g}",
    )
    assert multiples(res) == [(i, j) for i in (0, 1, 2) for j in (0, 1, 3)]
    sm = small_multiples(res, X, y)
    titles = [a.text for a in sm.layout.annotations]
    assert len(titles) == 9 and titles[0].startswith("C = 0.01, γ = 0.1<br>val. ")


def test_a_click_event_names_its_cell_in_either_form():
    from svmlab.ui.panels.sweep import clicked_cell

    # customdata as Streamlit 1.67 sends a typed array, as a list, or only the point index
    typed = {
        "selection": {
            "points": [{"curve_number": 1, "point_index": 8, "customdata": {"0": 1, "1": 2}}]
        }
    }
    assert clicked_cell(typed, (6, 6)) == (1, 2)
    listed = {"selection": {"points": [{"customdata": [4, 5]}]}}
    assert clicked_cell(listed, (6, 6)) == (4, 5)
    bare = {"selection": {"points": [{"curve_number": 1, "point_index": 8}]}}
    assert clicked_cell(bare, (6, 6)) == (1, 2)
    assert clicked_cell({"selection": {"points": []}}, (6, 6)) is None
    assert clicked_cell(None, (6, 6)) is None


def test_the_sweep_workers_import_neither_plotly_nor_streamlit():
    # each loky worker imports svmlab.study.sweep to run fit_cell: keep its start-up light
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, svmlab.study.sweep; "
        "print(sorted(m for m in ('plotly', 'streamlit', 'sklearn') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
