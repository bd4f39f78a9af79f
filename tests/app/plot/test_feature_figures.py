"""The feature-space page's figures (svmlab.plot.feature_figures)."""

import numpy as np

import svmcore
from svmlab.plot import feature_figures as ff
from svmlab.study import feature_space as fs

# Tolerance table ------------------------------------------------------------------------
TOL_PLANE = 1e-12  # plane surface points satisfy wᵀu + offset = 0 (and lie in the box), absolute
# Gram heatmap cells vs K: K rounded to float32 (the cells are float32), then exact;
# everything else (cells, hover data, traces): exact


def test_gram_figure_cells_and_hover_are_the_ordered_kernel():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0], [2.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    K = svmcore.linear()(X)
    order = fs.gram_order(y, [0.0, 1.0, 3.0, 2.0])  # [3, 1, 2, 0]
    fig = ff.gram_figure(K, y, order)
    heat = fig.data[0]
    Z = np.asarray(heat.z)
    np.testing.assert_array_equal(Z, K[np.ix_(order, order)].astype(np.float32))
    assert list(heat.x) == list(heat.y) == ["4", "2", "3", "1"]  # points counted from 1
    for a in range(4):
        for b in range(4):  # the cell in row a, column b is K(x_i, x_j) with i, j its labels
            assert Z[a, b] == np.float32(K[int(heat.y[a]) - 1, int(heat.x[b]) - 1])
    assert "i = %{y}, j = %{x}" in heat.hovertemplate and "K(x_i, x_j)" in heat.hovertemplate
    assert heat.zmid == 0.0, "a linear Gram matrix has negative entries: diverging colours"
    assert len(fig.layout.shapes) == 2, "the border of the class blocks"
    poly = ff.gram_figure(svmcore.polynomial(2, 1.0, 1.0)(X), y, order)
    assert poly.data[0].zmid is None


def test_plane_surface_lies_on_the_plane_inside_the_box():
    w, offset = np.array([0.5, -2.0, 1.0]), 0.3
    lo, hi = np.array([0.0, -1.0, 0.0]), np.array([2.0, 1.0, 3.0])
    s = ff.plane_surface(w, offset, lo, hi, name="p", color="#000000")
    U = np.stack([np.asarray(s.x), np.asarray(s.y), np.asarray(s.z)], axis=-1).reshape(-1, 3)
    U = U[np.all(np.isfinite(U), axis=1)]
    assert U.shape[0] > 100
    assert np.max(np.abs(U @ w + offset)) <= TOL_PLANE
    assert np.all((U >= lo - TOL_PLANE) & (U <= hi + TOL_PLANE))


def test_lift_figure_draws_points_plane_curve_and_seed004():
    X, y = svmcore.datasets.load("circle", n=30)
    U = np.column_stack([X[:, 0] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1] ** 2])
    support = np.zeros(30, dtype=bool)
    support[:3] = True
    curve = np.array([[1.0, 0.0, 0.0], [np.nan] * 3, [0.0, 0.0, 1.0]])
    fig = ff.lift_figure(
        U,
        y,
        support,
        w_u=[1.0, 0.0, 1.0],
        offset=-1.0,
        curve=curve,
        exact_plane=True,
        seed004_gamma=1.0,
    )
    names = [t.name for t in fig.data]
    assert names[:2] == ["wᵀΦ₂ + b = 0", "seed 004: w = (−1, 1, 1)"]
    assert [t.type for t in fig.data[:2]] == ["surface", "surface"]
    points = [t for t in fig.data if t.name in ("y = −1", "y = +1")]
    assert sum(len(t.x) for t in points) == 30
    assert len(next(t for t in fig.data if t.name == "support vectors").x) == 3
    assert any(t.name.startswith("f(x) = 0, exact") for t in fig.data)
    slice_fig = ff.lift_figure(U, y, support, w_u=[1.0, 0.0, 1.0], offset=-1.0, exact_plane=False)
    assert "linear terms left out" in slice_fig.data[0].name
    assert not any((t.name or "").startswith("seed 004") for t in slice_fig.data)
    flat = ff.lift_figure(U, y, support, w_u=[0.0, 0.0, 0.0], offset=1.0, exact_plane=True)
    assert not any(t.type == "surface" for t in flat.data), "no plane for w_u = 0"


def test_truncation_figure_marks_the_sliders_terms_on_a_log_axis():
    errors = np.array([0.5, 0.1, 1e-3, 0.0])
    fig = ff.truncation_figure(errors, 3)
    assert fig.layout.yaxis.type == "log"
    assert list(fig.data[0].x) == [1, 2, 3, 4]
    assert fig.data[0].y[-1] == 1e-17, "an exact 0 is drawn at the floor of the log axis"
    assert (fig.data[1].x[0], fig.data[1].y[0]) == (3, 1e-3)


def test_surface_figure_draws_f_and_the_points_at_their_height():
    xs, ys = np.linspace(-1, 1, 4), np.linspace(-2, 2, 5)
    Z = np.add.outer(ys, xs)
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    fig = ff.surface_figure(xs, ys, Z, X, [-1.0, 1.0], [0.25, -0.5], [False, True])
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), Z)
    assert fig.data[0].contours.z.start == 0.0 and fig.data[0].contours.z.size > 0.5
    by_name = {t.name: t for t in fig.data[1:]}
    assert list(by_name["y = −1"].z) == [0.25] and list(by_name["y = +1"].z) == [-0.5]
    assert list(by_name["support vectors"].customdata) == [2]  # point 2, counted from 1
