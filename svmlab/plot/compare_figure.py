"""The Compare page's plane: the boundaries f = 0 of several models overlaid (pure Plotly).

One contour line per model, in its own colour and dash, over the points; each line is a
legend entry, so a click on the legend hides or shows it (the page's multiselect chooses
which are drawn at all).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import plane_layout, point_traces
from svmlab.study.compare import MODELS, grid_values

__all__ = ["boundary_line", "comparison_figure", "overlay_figure"]


def boundary_line(xs, ys, Z, *, name: str, color: str, dash: str = "solid") -> go.Contour:
    """The level f = 0 of Z (r, r) on the grid (xs, ys) as one coloured line."""
    return go.Contour(
        x=xs,
        y=ys,
        z=np.asarray(Z, dtype=np.float32),
        contours=dict(start=0.0, end=0.0, size=1.0, coloring="lines"),
        colorscale=[[0.0, color], [1.0, color]],
        line=dict(width=2.5, dash=dash),
        showscale=False,
        hoverinfo="skip",
        name=name,
        showlegend=True,
    )


def overlay_figure(X, y, lines, *, xrange, yrange, title: str | None = None) -> go.Figure:
    """The points and the boundary of each model.

    Parameters
    ----------
    X : (n, 2) points; y : (n,) labels in ±1.
    lines : list of dict
        One per model: ``name``, ``color``, ``dash`` and ``values`` = (xs, ys, Z).
    xrange, yrange : the plane's fixed axes.
    """
    fig = go.Figure()
    for line in lines:
        xs, ys, Z = line["values"]
        fig.add_trace(
            boundary_line(xs, ys, Z, name=line["name"], color=line["color"], dash=line["dash"])
        )
    for tr in point_traces(X, y):
        fig.add_trace(tr)
    plane_layout(fig, xrange, yrange, title)
    # Many legend entries: below the plot, where they do not squeeze the plane.
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.12, x=0.0))
    return fig


def comparison_figure(cmp, keys, *, xrange, yrange, resolution: int = 120) -> go.Figure:
    """The overlay of the models ``keys`` of a :class:`svmlab.study.compare.Comparison`."""
    values = grid_values(cmp, keys, xrange, yrange, resolution)
    lines = [
        dict(name=MODELS[k].label, color=MODELS[k].color, dash=MODELS[k].dash, values=values[k])
        for k in keys
    ]
    return overlay_figure(cmp.X, cmp.y, lines, xrange=xrange, yrange=yrange)
