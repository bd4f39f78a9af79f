"""The multiclass figure: the regions of the predicted classes, one-vs-all's ambiguity.

Pure: arrays in, a Plotly figure out (the plane's layout and point conventions are
those of :mod:`svmlab.plot.figures`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import (
    CLASS_COLORS,
    PLANE_HEIGHT,
    class_scatter,
    highlight_traces,
    plane_of_traces,
    plane_range,
    tint,
)
from svmlab.plot.trace_meta import REGIONS_META

__all__ = ["multiclass_figure"]


def multiclass_figure(
    X,
    y,
    xs,
    ys,
    scores,
    *,
    ambiguity=None,
    highlight=None,
    xrange=None,
    yrange=None,
    labels=None,
    title: str | None = None,
    height: int = PLANE_HEIGHT,
    complete: bool = False,
) -> go.Figure:
    """Multiclass regions: argmax of the scores (G, k) coloured by class.

    ``ambiguity`` (G,) optionally marks grid points claimed by no class or by
    several (one-vs-all), drawn grey; the regions' edges are where the predicted class
    changes between grid points. ``complete``: the sampled point's trace also when there
    is none (empty, out of the legend), for the canvas's playback
    (:func:`svmlab.plot.figures.plane_figure`).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if xrange is None or yrange is None:
        xrange, yrange = plane_range(X)
    scores = np.asarray(scores, dtype=float)
    k = scores.shape[1]
    r_y, r_x = len(ys), len(xs)
    # Class indices as int8 on the wire: an eighth of float64's bytes (re-sent per click).
    Zc = scores.argmax(axis=1).astype(np.int8).reshape(r_y, r_x)
    # A discrete colourscale: class j on [j/k, (j+1)/k).
    cs = []
    for j in range(k):
        col = tint(CLASS_COLORS[j % len(CLASS_COLORS)], 0.6)
        cs += [[j / k, col], [(j + 1) / k, col]]
    traces = [
        go.Heatmap(
            x=xs,
            y=ys,
            z=Zc,
            zmin=-0.5,
            zmax=k - 0.5,
            colorscale=cs,
            showscale=False,
            hovertemplate="x₁=%{x:.2f}<br>x₂=%{y:.2f}<br>ŷ=%{z}<extra></extra>",
            name="ŷ(x)",
            meta=REGIONS_META,
        )
    ]
    if ambiguity is not None:
        amb = np.asarray(ambiguity, dtype=bool).reshape(r_y, r_x)
        if amb.any():
            traces.append(
                go.Heatmap(
                    x=xs,
                    y=ys,
                    z=amb.astype(np.int8),  # 0: transparent, 1: grey
                    zmin=0,
                    zmax=1,
                    colorscale=[
                        [0, "rgba(0,0,0,0)"],
                        [0.5, "rgba(0,0,0,0)"],
                        [0.5, "rgba(80,80,80,0.45)"],
                        [1, "rgba(80,80,80,0.45)"],
                    ],
                    showscale=False,
                    hoverinfo="skip",
                    name="ambiguous (no class or several)",
                    showlegend=True,
                )
            )
    c = np.asarray(y).astype(np.int64)
    names = labels or [f"class {j}" for j in range(k)]
    for j in range(k):
        idx = np.flatnonzero(c == j)
        traces.append(
            class_scatter(
                X,
                idx,
                j,
                name=names[j],
                size=10,
                # [0]: the 0-based index (the table's click link); [1]: the number shown
                customdata=np.column_stack([idx, idx + 1]),
                hover="point %{customdata[1]}",
            )
        )
    if highlight is not None or complete:
        for tr in highlight_traces(X, highlight):
            if not len(tr.x):
                tr.showlegend = False
            traces.append(tr)
    return plane_of_traces(traces, xrange, yrange, title, height)
