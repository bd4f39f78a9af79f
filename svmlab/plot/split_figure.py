"""The figures of a train/test split: hollow test points on a plane, and the training and
test error against the iteration t. Pure: arrays in, Plotly figures out (no Streamlit).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import class_index
from svmlab.plot.plane_layout import TEMPLATE
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS, class_names

__all__ = ["TEST_META", "add_test_points", "error_curve_figure"]

#: ``meta`` of the test-point traces (not the plane's point tag: they are not the run's points).
TEST_META = "svmlab-test-points"


def add_test_points(fig: go.Figure, X_test, y_test, *, n_classes: int = 2) -> go.Figure:
    """``fig`` with the test points drawn hollow (the class's colour and open shape).

    One trace per class present, named "test: <class>", hover "test point"; the figure's
    axes are not changed. Returns ``fig`` (changed in place) for chaining.
    """
    X_test = np.asarray(X_test, dtype=float).reshape(-1, 2)
    c = class_index(np.asarray(y_test))
    names = class_names(n_classes) if n_classes == 2 else [f"class {j}" for j in range(6)]
    for j in np.unique(c).tolist():
        idx = np.flatnonzero(c == j)
        fig.add_trace(
            go.Scatter(
                x=X_test[idx, 0],
                y=X_test[idx, 1],
                mode="markers",
                name=f"test: {names[j]}",
                meta=TEST_META,
                marker=dict(
                    color=CLASS_COLORS[j],
                    symbol=CLASS_SYMBOLS[j] + "-open",
                    size=10,
                    line=dict(width=2),
                ),
                hovertemplate="test point (%{x:.3g}, %{y:.3g})<extra>" + names[j] + "</extra>",
            )
        )
    return fig


def error_curve_figure(t, train_error, test_error, *, height: int = 300) -> go.Figure:
    """Training and test error against the iteration t (log axis; t + 1 if t starts at 0)."""
    t = np.asarray(t, dtype=float)
    x_title = "iteration t"
    if t.size and t.min() < 1:  # solvers count from t = 0, which a log axis cannot show
        t, x_title = t + 1.0, "iteration t + 1"
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=t, y=train_error, name="training error", mode="lines"))
    fig.add_trace(
        go.Scatter(x=t, y=test_error, name="test error", mode="lines", line=dict(dash="dash"))
    )
    fig.update_xaxes(type="log", title_text=x_title)
    fig.update_yaxes(title_text="error rate", rangemode="tozero")
    fig.update_layout(
        height=height,
        template=TEMPLATE,
        title="Training and test error over the run",
        margin=dict(l=50, r=10, t=40, b=40),
        legend=dict(orientation="h", y=-0.3),
    )
    return fig
