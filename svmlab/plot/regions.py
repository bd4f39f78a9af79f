"""The multiclass figure: the regions of the predicted classes, one-vs-all's ambiguity.

Pure: arrays in, a Plotly figure out (the plane's layout and point conventions are
those of :mod:`svmlab.plot.figures`).

The prediction is ŷ(x) = argmax_y s_y(x) (SSBD §17.2: the class of the largest score). Its
regions are shaded from the argmax on the grid (a heatmap the browser smooths), and the
edges between them are drawn as lines (:func:`class_boundaries`): the region of class a
is where the score difference ``s_a(x) − max_{c≠a} s_c(x)`` is positive, so its edge is
that difference's zero level, traced by :func:`svmlab.plot.isolines.isolines` with linear
interpolation between grid points — smooth, where the argmax alone gives cell-sized steps.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import (
    BOUNDARY_META,
    CLASS_COLORS,
    PLANE_HEIGHT,
    class_scatter,
    highlight_traces,
    plane_of_traces,
    plane_range,
    tint,
)
from svmlab.plot.isolines import isolines

__all__ = ["BOUNDARY_LINE", "class_boundaries", "multiclass_figure"]

#: The lines between the predicted classes (the binary plane's f = 0 is 2.5 px wide).
BOUNDARY_LINE = dict(color="black", width=2.0)


def class_boundaries(xs, ys, scores) -> tuple[np.ndarray, np.ndarray]:
    """The edges between the regions of ŷ(x) = argmax_y s_y(x), as polylines.

    For each class a, the zero level of the score difference
    ``d_a(x) = s_a(x) − max_{c≠a} s_c(x)`` (positive exactly where a wins). Each edge
    between two classes is the zero level of both of their differences; the last class
    is left out, since every edge it has is also another class's.

    Parameters
    ----------
    xs : (rx,) and ys : (ry,) increasing grid coordinates.
    scores : (ry·rx, k) the k scores at the grid points (row-major: y rows, x columns,
        as :func:`svmlab.plot.figures.grid` orders them).

    Returns
    -------
    x, y : (m,) float arrays
        The polylines, each followed by a NaN (empty if one class wins everywhere).
    """
    scores = np.asarray(scores, dtype=float)
    r_y, r_x = len(ys), len(xs)
    if scores.ndim != 2 or scores.shape[0] != r_y * r_x:
        raise ValueError(f"scores must have shape (len(ys)·len(xs), k), got {scores.shape}")
    k = scores.shape[1]
    out_x, out_y = [], []
    for a in range(k - 1):
        others = np.delete(scores, a, axis=1).max(axis=1) if k > 1 else -np.inf
        d = (scores[:, a] - others).reshape(r_y, r_x)
        x, y = isolines(xs, ys, d, [0.0])
        out_x.append(x)
        out_y.append(y)
    if not out_x:
        return np.empty(0), np.empty(0)
    return np.concatenate(out_x), np.concatenate(out_y)


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
    boundaries: bool = True,
) -> go.Figure:
    """Multiclass regions: argmax of the scores (G, k) coloured by class.

    ``ambiguity`` (G,) optionally marks grid points claimed by no class or by
    several (one-vs-all), drawn grey. With ``boundaries`` the edges between the regions
    are drawn as lines (:func:`class_boundaries`; tagged ``BOUNDARY_META``, so the
    themes and export presets style them as the binary plane's boundary).
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
            # With the edge lines: the browser's image smoothing blends neighbouring cells'
            # colours (never through a third class's), so the edges are not cell-sized
            # steps; the lines mark where they are. (The animation's frames stay cells.)
            zsmooth="fast" if boundaries else False,
            hovertemplate="x₁=%{x:.2f}<br>x₂=%{y:.2f}<br>ŷ=%{z}<extra></extra>",
            name="ŷ(x)",
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
    if boundaries:
        bx, by = class_boundaries(xs, ys, scores)
        traces.append(
            go.Scatter(
                x=bx.astype(np.float32),  # a few hundred vertices; a screen needs no more
                y=by.astype(np.float32),
                mode="lines",
                line=BOUNDARY_LINE,
                connectgaps=False,
                hoverinfo="skip",
                name="edges between the classes",
                meta=BOUNDARY_META,
                showlegend=False,
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
    if highlight is not None:
        traces += highlight_traces(X, highlight)
    return plane_of_traces(traces, xrange, yrange, title, height)
