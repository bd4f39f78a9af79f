"""Every number a student reads counts from 1, as the texts do: the plane's hover
("point n"), the α bars, the Gram heatmap, the 3-D lift and the multiclass regions — like
the inspector, the per-point table, the SMO pair and Ψ. The 0-based index stays only in
``customdata[0]``, the link between the plots and the table (never shown).
"""

import numpy as np

import svmcore
from svmlab.plot import feature_figures as ff
from svmlab.plot import figures as fg
from svmlab.plot.regions import multiclass_figure

# Tolerance table: none — labels and integer arrays are compared exactly.

X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 1.0], [0.5, 2.0]])
Y = np.array([-1.0, 1.0, 1.0, -1.0, 1.0])


def _hover_number(trace, j: int) -> str:
    """The text the hover shows for the trace's j-th marker ("point …")."""
    cd = np.asarray(trace.customdata).reshape(len(trace.x), -1)
    template = trace.hovertemplate
    for col in range(cd.shape[1]):
        template = template.replace(f"%{{customdata[{col}]}}", str(int(cd[j, col])))
    template = template.replace("%{customdata}", str(int(cd[j, 0])))
    return template.split("<br>")[0].split("<extra>")[0]


def test_plane_hover_says_point_n_from_1_and_links_by_the_0_based_index():
    alpha = np.array([0.5, 0.0, 1.0, 0.25, 0.0])
    traces = [t for t in fg.point_traces(X, Y, alpha=alpha) if t.meta == fg.POINTS_META]
    seen = {}
    for t in traces:
        cd = np.asarray(t.customdata)
        for j in range(len(t.x)):
            index = int(cd[j, 0])  # the link: 0-based
            assert (t.x[j], t.y[j]) == tuple(X[index])
            seen[index] = _hover_number(t, j)
    assert seen == {i: f"point {i + 1}" for i in range(len(X))}


def test_alpha_bars_stand_at_n_from_1():
    bars = fg.alpha_bar_figure(np.array([0.0, 0.5, 1.0, 0.25, 0.0]), Y)
    bar = bars.data[0]
    assert list(bar.x) == [1, 2, 3, 4, 5]
    assert bar.hovertemplate.startswith("point %{x}")
    assert list(bar.customdata) == [0, 1, 2, 3, 4]  # the canvas' link stays 0-based


def test_canvas_outlines_bar_j_at_its_1_based_position():
    # assets/canvas.js outlines the bar of 0-based point j; the bar stands at x = j + 1
    js = open(fg.__file__.replace("svmlab/plot/figures.py", "assets/canvas.js")).read()
    assert "x0: j + 0.5" in js and "x1: j + 1.5" in js


def test_gram_heatmap_names_points_from_1():
    K = svmcore.linear()(X)
    fig = ff.gram_figure(K, Y, np.array([0, 3, 1, 2, 4]))
    heat = fig.data[0]
    assert list(heat.x) == ["1", "4", "2", "3", "5"]
    assert np.asarray(heat.z)[1, 0] == np.float32(K[3, 0])  # K(x_4, x_1)


def test_3d_lift_and_surface_hover_from_1():
    fig = ff.surface_figure(
        np.linspace(0, 3, 4),
        np.linspace(0, 2, 3),
        np.zeros((3, 4)),
        X,
        Y,
        np.zeros(5),
        np.array([True, False, False, False, True]),
    )
    points = [t for t in fig.data if t.name in ("y = −1", "y = +1")]
    numbers = sorted(int(c) for t in points for c in t.customdata)
    assert numbers == [1, 2, 3, 4, 5]
    sv = next(t for t in fig.data if t.name == "support vectors")
    assert list(sv.customdata) == [1, 5]
    assert "point %{customdata}" in sv.hovertemplate


def test_multiclass_regions_hover_from_1():
    xs, ys, G = fg.grid((-1, 4), (-1, 3), 8)
    scores = np.column_stack([-G[:, 0], G[:, 0] - 1.5, G[:, 1] - 1.0])
    y3 = np.array([0, 1, 1, 2, 2])
    fig = multiclass_figure(X, y3, xs, ys, scores)
    shown = {}
    for t in fig.data:
        if t.type == "scatter" and str(t.name or "").startswith("class"):
            for row in np.asarray(t.customdata):
                shown[int(row[0])] = int(row[1])
            assert "point %{customdata[1]}" in t.hovertemplate
    assert shown == {i: i + 1 for i in range(5)}
