"""Figures: what a user sees in the plane, the α bars, the curves and the multiclass regions."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from svmcore.trace import TraceRecorder
from svmlab.plot import figures as fg
from svmlab.plot.curves import curves_figure
from svmlab.plot.regions import multiclass_figure

# Tolerance table ------------------------------------------------------------------------
TOL_RING = 1e-12  # the support-vector rings vs their points' coordinates, absolute


def _line_data(n=20, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    return X, y


def _grid_f(X, res=30):
    xr, yr = fg.plane_range(X)
    xs, ys, G = fg.grid(xr, yr, res)
    Z = G[:, 0].reshape(len(ys), len(xs))  # f(x) = x₁: boundary x₁ = 0, margins x₁ = ±1
    return xr, yr, xs, ys, Z


def _by_name(fig, name):
    return [t for t in fig.data if t.name == name]


def test_class_index_maps_binary_and_multiclass_labels():
    assert fg.class_index([-1, 1, 1]).tolist() == [0, 1, 1]
    assert fg.class_index([0, 2, 1]).tolist() == [0, 2, 1]


def test_plane_range_contains_every_point_with_padding():
    X, _ = _line_data()
    (x0, x1), (y0, y1) = fg.plane_range(X)
    assert x0 < X[:, 0].min() and x1 > X[:, 0].max()
    assert y0 < X[:, 1].min() and y1 > X[:, 1].max()
    assert fg.plane_range(np.empty((0, 2))) == ((-3.0, 3.0), (-3.0, 3.0))


def test_grid_is_row_major_over_y_then_x():
    _xs, _ys, G = fg.grid((0, 1), (10, 12), 3)
    assert G.shape == (9, 2)
    assert G[1].tolist() == [0.5, 10.0]  # second point: next x, same y
    assert G[3].tolist() == [0.0, 11.0]


def test_plane_figure_draws_boundary_and_margins_at_the_right_levels():
    X, y = _line_data()
    xr, yr, xs, ys, Z = _grid_f(X)  # f(x) = x₁
    fig = fg.plane_figure(X, y, xs, ys, Z, xrange=xr, yrange=yr)
    (boundary,) = _by_name(fig, "f(x) = 0")
    (margins,) = _by_name(fig, "f(x) = ±1")
    bx, by = np.asarray(boundary.x, float), np.asarray(boundary.y, float)
    mx = np.asarray(margins.x, float)
    ok = ~np.isnan(bx)
    assert np.abs(bx[ok]).max() <= 1e-6  # float32 on the wire
    assert by[ok].min() == pytest.approx(ys[0]) and by[ok].max() == pytest.approx(ys[-1])
    assert sorted({round(v, 5) for v in mx[~np.isnan(mx)]}) == [-1.0, 1.0]
    assert boundary.meta == fg.BOUNDARY_META and margins.meta == fg.MARGIN_META
    assert margins.line.dash == "dash" and boundary.line.dash is None
    (shade,) = [t for t in fig.data if isinstance(t, go.Heatmap)]
    assert shade.zmin == -fg.F_CLIP and shade.zmax == fg.F_CLIP


def test_plane_figure_sends_no_grid_but_the_coarse_shading():
    X, y = _line_data()
    xr, yr = fg.plane_range(X)
    xs, ys, G = fg.grid(xr, yr, 120)
    Z = (G[:, 0] ** 2 + G[:, 1] ** 2 - 1.0).reshape(120, 120)
    fig = fg.plane_figure(X, y, xs, ys, Z, xrange=xr, yrange=yr)
    assert not [t for t in fig.data if t.type == "contour"]
    (shade,) = [t for t in fig.data if t.type == "heatmap"]
    assert np.asarray(shade.z).shape == (fg.SHADE_RESOLUTION, fg.SHADE_RESOLUTION)
    assert (shade.x[0], shade.x[-1], shade.y[0], shade.y[-1]) == (xs[0], xs[-1], ys[0], ys[-1])
    assert len(fig.to_json()) < 60_000  # was ~340 KB with three 120 × 120 grids


def test_plane_figure_axes_are_fixed():
    X, y = _line_data()
    fig = fg.plane_figure(X, y)
    assert fig.layout.xaxis.autorange is False and fig.layout.yaxis.autorange is False
    assert tuple(fig.layout.xaxis.range) == fg.plane_range(X)[0]
    assert fig.layout.yaxis.scaleanchor == "x"


def test_no_boundary_is_drawn_when_f_has_one_sign():
    X, y = _line_data()
    _xr, _yr, xs, ys, Z = _grid_f(X)
    fig = fg.plane_figure(X, y, xs, ys, np.abs(Z) + 0.5)
    assert not _by_name(fig, "f(x) = 0")


def test_classes_have_distinct_colours_and_shapes_and_every_point_is_drawn():
    X, y = _line_data()
    fig = fg.plane_figure(X, y)
    neg, pos = _by_name(fig, "y = −1")[0], _by_name(fig, "y = +1")[0]
    assert neg.marker.color != pos.marker.color
    assert neg.marker.symbol != pos.marker.symbol
    assert len(neg.x) + len(pos.x) == len(X)
    assert len(neg.x) == np.count_nonzero(y < 0)


def test_marker_size_grows_with_alpha():
    X, _y = _line_data()
    alpha = np.zeros(len(X))
    alpha[3] = 2.0
    alpha[5] = 0.5
    sizes = fg.marker_sizes(alpha, len(X))
    assert sizes[3] > sizes[5] > sizes[0]
    assert np.all(fg.marker_sizes(None, 4) == sizes[0])


def test_support_vectors_are_ringed_at_their_points():
    X, y = _line_data()
    fig = fg.plane_figure(X, y, support=[1, 4])
    (ring,) = _by_name(fig, "support vector")
    assert np.allclose(np.column_stack([ring.x, ring.y]), X[[1, 4]], atol=TOL_RING)


def test_free_and_bounded_support_vectors_are_distinguished():
    X, y = _line_data()
    fig = fg.plane_figure(X, y, free=[0], bounded=[2, 3])
    (free,) = _by_name(fig, "free SV (0<α<C)")
    (bounded,) = _by_name(fig, "bounded SV (α=C)")
    assert free.marker.symbol != bounded.marker.symbol
    assert len(bounded.x) == 2 and len(free.x) == 1


def test_highlight_marks_the_sampled_point_or_pair():
    X, y = _line_data()
    fig = fg.plane_figure(X, y, highlight=7)
    (hl,) = _by_name(fig, "sampled xᵢ")
    assert (hl.x[0], hl.y[0]) == (X[7, 0], X[7, 1])
    fig2 = fg.plane_figure(X, y, highlight=[2, 9])
    (hl2,) = _by_name(fig2, "sampled xᵢ")
    assert len(hl2.x) == 2


def test_alpha_bars_follow_point_order_and_highlight():
    alpha = np.array([0.0, 1.5, 0.2, 0.0])
    y = np.array([-1.0, 1.0, -1.0, 1.0])
    fig = fg.alpha_bar_figure(alpha, y, highlight=1, C=2.0)
    bar = fig.data[0]
    assert list(bar.x) == [1, 2, 3, 4]  # points n = 1..N, as the texts count
    assert list(bar.y) == alpha.tolist()
    assert list(bar.marker.line.width) == [0, 3, 0, 0]
    assert bar.marker.color[0] != bar.marker.color[1]


def _trace(S=10, dual=False):
    rec = TraceRecorder("test", np.arange(1, S + 1), n_steps=0)
    for t in range(1, S + 1):
        vals = dict(objective=1.0 / t, train_error=0.5 / t, n_support=t)
        if dual:
            vals.update(
                dual_objective=-1.0 + 1.0 / t, duality_gap=1.0 / t**2, max_violation=1.0 / t
            )
        rec.record(t, **vals)
    return rec.finish()


def test_curves_use_log_x_and_show_objective_error_and_support_vectors():
    fig = curves_figure(_trace())
    names = {t.name for t in fig.data}
    assert {"primal objective", "training error", "# SV"} <= names
    assert all(fig.layout[f"xaxis{s}"].type == "log" for s in ("", "2", "3"))
    obj = next(t for t in fig.data if t.name == "primal objective")
    assert list(obj.y) == pytest.approx([1.0 / t for t in range(1, 11)])


def test_dual_curves_add_dual_objective_and_gap():
    fig = curves_figure(_trace(dual=True), dual=True)
    names = {t.name for t in fig.data}
    assert {"dual objective −D(α)", "duality gap", "max KKT violation m(α) − M(α)"} <= names


def test_multiclass_regions_are_the_argmax_and_ambiguity_is_shaded():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    y = np.array([0, 1, 2])
    xs, ys, G = fg.grid((-1, 3), (-1, 2), 12)
    scores = np.column_stack([-G[:, 0], G[:, 1] - 0.5, G[:, 0] - 1.5])
    amb = np.count_nonzero(scores > 0, axis=1) != 1
    fig = multiclass_figure(X, y, xs, ys, scores, ambiguity=amb)
    regions = fig.data[0]
    assert np.array_equal(np.asarray(regions.z).ravel(), scores.argmax(axis=1))
    assert _by_name(fig, "ambiguous (no class or several)")
    fig2 = multiclass_figure(X, y, xs, ys, scores, ambiguity=np.zeros(len(G), bool))
    assert not _by_name(fig2, "ambiguous (no class or several)")


def test_figures_module_does_not_import_streamlit():
    code = (
        "import sys, svmlab.plot.figures, svmlab.plot.playback; print('streamlit' in sys.modules)"
    )
    root = str(Path(__file__).resolve().parents[3])
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"


def test_curves_without_support_vectors_have_two_panels():
    rec = TraceRecorder("test", np.arange(1, 4), n_steps=0)
    for t in range(1, 4):
        rec.record(t, objective=1.0 / t, train_error=0.1)
    fig = curves_figure(rec.finish())
    assert len(fig.layout.annotations) == 2  # the two subplot titles
    assert "xaxis3" not in fig.layout


def test_alpha_bars_and_points_are_tagged_for_hover_linking():
    # assets/canvas.js links a hovered bar to its point through these tags
    import numpy as np

    from svmlab.plot import figures as fg

    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    y = np.array([-1.0, 1.0, 1.0])
    bars = fg.alpha_bar_figure(np.array([0.0, 0.5, 1.0]), y)
    assert bars.layout.meta == fg.ALPHA_BARS_META
    assert [int(c[0]) if np.ndim(c) else int(c) for c in bars.data[0].customdata] == [0, 1, 2]
    traces = fg.point_traces(X, y)
    tagged = [t for t in traces if getattr(t, "meta", None) == fg.POINTS_META]
    assert tagged, "the plane's point traces carry the tag"
