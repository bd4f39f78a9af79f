"""A chart's numbers as a table (svmlab.plot.tables.figure_table): the "view as table" of
every chart — curves against t (one column per curve), a heatmap (the Gram matrix: one row
per point i, one column per point j), and traces on different x (one row per point)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.curves import curves_figure
from svmlab.plot.feature_figures import gram_figure
from svmlab.plot.tables import figure_table

# Tolerance table ------------------------------------------------------------------------
TOL_FLOAT32 = 1e-6  # the Gram figure's K (stored as float32) vs the float64 matrix


class _Trace:
    def __init__(self):
        self.t = np.array([0, 10, 100])
        self.snapshots = {
            "objective": np.array([1.0, 0.5, 0.4]),
            "train_error": np.array([0.5, 0.2, 0.1]),
            "n_support": np.array([3, 5, 4]),
        }


def test_curves_share_t_and_give_one_column_per_curve():
    table = figure_table(curves_figure(_Trace()))
    assert list(table) == ["iteration t + 1", "primal objective", "training error", "# SV"]
    assert table["iteration t + 1"] == [1.0, 11.0, 101.0]
    assert table["# SV"] == [3, 5, 4]


def test_the_gram_matrix_is_a_point_by_point_table_in_the_figures_order():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    K = X @ X.T
    order = np.array([2, 0, 1])
    table = figure_table(gram_figure(K, np.array([-1, 1, -1]), order), first="point i")
    assert table["point i"] == ["3", "1", "2"]
    assert np.allclose(table["3"], K[order, 2], atol=TOL_FLOAT32)


def test_traces_on_different_x_are_stacked_by_series_and_a_dict_figure_works():
    fig = go.Figure([go.Scatter(x=[1, 2], y=[3, 4], name="a"), go.Scatter(x=[5], y=[6], name="b")])
    table = figure_table(fig.to_dict())
    assert table == {"series": ["a", "a", "b"], "x": [1, 2, 5], "value": [3, 4, 6]}
    assert figure_table(go.Figure()) == {"x": []}
