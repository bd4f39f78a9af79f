"""Figures of SVM Lab: pure functions from arrays, results and traces to Plotly figures.

No Streamlit here (the pages render what these return). Conventions:

* the plane figure shades the decision value f(x) on a grid, draws the boundary
  f = 0 (solid) and the margins f = ±1 (dashed) as lines traced on that grid
  (:func:`level_lines`), whatever the kernel;
* classes have a colour from a colour-blind-safe palette (Okabe–Ito) **and** a
  marker shape (the α bars: a pattern); binary labels −1 / +1 are classes 0 / 1; points
  are opaque with an outline that sets them off the shading (WCAG 1.4.11);
* support vectors are ringed (free and bounded distinguished for the dual SVM);
  α is shown as marker size and in a bar chart in point order (point n from 1, as the
  texts count, on the x axis and in both hovers; ``customdata[0]``: 0-based, for links);
* axes are fixed (:mod:`svmlab.plot.plane_layout`: ranges, grid, layout and template, names
  re-exported here).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.isolines import isolines, resample
from svmlab.plot.marks import (  # the marks on the plane, re-exported
    BOUNDED as _BOUNDED,
)
from svmlab.plot.marks import (
    POINT_OUTLINE,
    highlight_halo,
    highlight_trace,
    highlight_traces,
    ring_trace,
)
from svmlab.plot.marks import (
    RING as _RING,
)
from svmlab.plot.plane_layout import (
    PLANE_HEIGHT,
    grid,
    plane_layout,
    plane_of_traces,
    plane_range,
    stable_range,
    template_dict,
)
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS  # Okabe–Ito colours + shapes

__all__ = [
    "ALPHA_BARS_META",
    "BOUNDARY_META",
    "CLASS_COLORS",
    "CLASS_SYMBOLS",
    "MARGIN_META",
    "POINTS_META",
    "SHADE_RESOLUTION",
    "alpha_bar_figure",
    "class_index",
    "class_scatter",
    "grid",
    "highlight_halo",
    "highlight_trace",
    "highlight_traces",
    "level_lines",
    "marker_sizes",
    "plane_figure",
    "plane_layout",
    "plane_range",
    "point_traces",
    "ring_trace",
    "shade_colorscale",
    "stable_range",
    "tint",
]

#: Decision values are shaded on [−F_CLIP, F_CLIP] (beyond, the colour saturates).
F_CLIP = 2.0
#: The α bars' pattern per class, besides the colour (the binary pages' o / x): solid for
#: class 0, hatched for class 1, … (WCAG 1.4.1, use of colour).
CLASS_PATTERNS = ("", "x", ".", "/", "\\", "+")
_BOUNDARY_LINE = dict(color="black", width=2.5)  # f = 0, solid
_MARGIN_LINE = dict(color="black", width=1.2, dash="dash")  # f = ±1, dashed


def class_index(y) -> np.ndarray:
    """Class index 0..k−1 of each label: −1 → 0, +1 → 1 for binary ±1 labels."""
    y = np.asarray(y)
    if y.size and np.all((y == -1) | (y == 1)):
        return (y > 0).astype(np.int64)
    return y.astype(np.int64)


#: Grid points per axis of the plane's shading (the lines use the full grid): the browser
#: smooths it (``zsmooth="best"``), and it is a quarter of the fine grid's bytes.
SHADE_RESOLUTION = 60


def shade_colorscale(neg: str, pos: str):
    return [[0.0, tint(neg, 0.55)], [0.5, "#ffffff"], [1.0, tint(pos, 0.55)]]


def tint(hex_colour: str, amount: float) -> str:
    """Mix a colour with white (amount 0 = colour, 1 = white)."""
    h = hex_colour.lstrip("#")
    rgb = [int(h[i : i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(c + (255 - c) * amount) for c in rgb]
    return "#{:02x}{:02x}{:02x}".format(*mixed)


def shading_trace(xs, ys, Z, *, colors=CLASS_COLORS) -> go.Heatmap:
    """The shaded decision value f(x) (clipped to ±F_CLIP) as a heatmap."""
    return go.Heatmap(
        x=xs,
        y=ys,
        z=Z,
        zmin=-F_CLIP,
        zmax=F_CLIP,
        colorscale=shade_colorscale(colors[0], colors[1]),
        showscale=False,
        # The browser's own image smoothing: as smooth on screen as "best", and a third
        # less of plotly.js's drawing time per click (measured in Chromium).
        zsmooth="fast",
        hovertemplate="x₁=%{x:.2f}<br>x₂=%{y:.2f}<br>f(x)=%{z:.3f}<extra></extra>",
        name="f(x)",
    )


def boundary_trace(xs, ys, Z, *, showlegend: bool | None = True) -> go.Contour:
    """The boundary f(x) = 0 (solid); ``showlegend=None`` leaves Plotly's default."""
    return go.Contour(
        x=xs,
        y=ys,
        z=Z,
        contours=dict(start=0.0, end=0.0, size=1.0, coloring="none"),
        line=_BOUNDARY_LINE,
        showscale=False,
        hoverinfo="skip",
        name="f(x) = 0",
        showlegend=showlegend,
    )


#: ``meta`` of the plane's level lines: the boundary f = 0 and the margins f = ±1 (the
#: export's and the dark theme's roles, :mod:`svmlab.plot.look.roles`, find them by it).
BOUNDARY_META = "svmlab-boundary"
MARGIN_META = "svmlab-margin"


def level_lines(xs, ys, Z, levels, *, name: str, meta: str, line: dict) -> go.Scatter:
    """The lines f = each of ``levels`` on the grid, traced here (:func:`svmlab.plot.isolines`).

    A ``contour`` trace would send the whole grid again for the browser to trace the same
    lines; these are a few hundred vertices (float32: a screen needs no more).
    """
    x, y = isolines(xs, ys, Z, levels)
    return go.Scatter(
        x=x.astype(np.float32),
        y=y.astype(np.float32),
        mode="lines",
        line=line,
        connectgaps=False,
        hoverinfo="skip",
        name=name,
        meta=meta,
        showlegend=True,
    )


#: ``layout.meta`` of the α bar chart and ``meta`` of the plane's point traces: the data
#: canvas (assets/canvas.js) finds both by these tags and links their hover (bar j <-> the
#: point whose ``customdata[0]`` is j).
ALPHA_BARS_META = "svmlab-alpha-bars"
POINTS_META = "svmlab-points"


def marker_sizes(alpha, n: int, base: float = 9.0, extra: float = 13.0) -> np.ndarray:
    """Marker size per point: ``base`` plus up to ``extra`` growing with |α| (sqrt scale)."""
    if alpha is None:
        return np.full(n, base)
    a = np.abs(np.asarray(alpha, dtype=float))
    top = a.max() if a.size else 0.0
    if not np.isfinite(top) or top <= 0:
        return np.full(n, base)
    return base + extra * np.sqrt(a / top)


def point_traces(X, y, *, alpha=None, labels=None, colors=CLASS_COLORS, symbols=CLASS_SYMBOLS):
    """One scatter trace per class (colour + shape), marker size from |α| if given."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    c = class_index(y)
    sizes = marker_sizes(alpha, X.shape[0])
    k = max(int(c.max()) + 1, 2) if c.size else 2
    names = labels or (["y = −1", "y = +1"] if k == 2 else [f"class {j}" for j in range(k)])
    traces = []
    a = np.zeros(X.shape[0]) if alpha is None else np.asarray(alpha, dtype=float)
    for j in range(k):
        idx = np.flatnonzero(c == j)
        traces.append(
            class_scatter(
                X,
                idx,
                j,
                name=names[j],
                size=sizes[idx],
                customdata=np.column_stack([idx, a[idx], idx + 1]),  # link index, α, n
                hover="point %{customdata[2]}<br>α=%{customdata[1]:.4g}",
                meta=POINTS_META,
                colors=colors,
                symbols=symbols,
            )
        )
    return traces


def class_scatter(
    X,
    idx,
    j: int,
    *,
    name: str,
    size,
    customdata,
    hover: str,
    meta=None,
    colors=CLASS_COLORS,
    symbols=CLASS_SYMBOLS,
) -> go.Scatter:
    """Points ``idx`` of class ``j`` (its colour + shape); ``hover``: text before the name."""
    return go.Scatter(
        x=X[idx, 0],
        y=X[idx, 1],
        mode="markers",
        name=name,
        marker=dict(
            color=colors[j % len(colors)],
            symbol=symbols[j % len(symbols)],
            size=size,
            opacity=1.0,  # not plotly.js's 0.7 for sized ("bubble") markers
            line=POINT_OUTLINE,
        ),
        customdata=customdata,
        meta=meta,
        hovertemplate=hover + "<extra>" + name + "</extra>",
    )


def plane_figure(
    X,
    y,
    xs=None,
    ys=None,
    Z=None,
    *,
    alpha=None,
    support=None,
    free=None,
    bounded=None,
    highlight=None,
    xrange=None,
    yrange=None,
    title: str | None = None,
    height: int = PLANE_HEIGHT,
) -> go.Figure:
    """The main binary figure.

    Parameters
    ----------
    X : (n, 2) points; y : (n,) labels in ±1.
    xs, ys, Z : grid coordinates (r,), (r,) and decision values f on the grid (r, r);
        ``Z=None`` draws the points only (no model yet).
    alpha : (n,) or None
        Coefficients shown as marker size (absolute value).
    support : indices of support vectors (ringed), or ``free`` and ``bounded`` for
        the dual SVM (free rings round, bounded rings square and grey).
    highlight : int or None
        The sampled point of the current step.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if xrange is None or yrange is None:
        xrange, yrange = plane_range(X)
    traces = []
    if Z is not None:
        Z = np.asarray(Z, dtype=float)
        # On the wire (this figure is re-sent on every click): the shading on a coarser
        # grid, clipped (the colours are unchanged) and float32; the lines from the full grid.
        xs_s, ys_s, Zs = resample(xs, ys, Z, SHADE_RESOLUTION)
        Zs = np.clip(Zs, -F_CLIP * 1.5, F_CLIP * 1.5).astype(np.float32)
        traces.append(shading_trace(xs_s, ys_s, Zs))
        if np.nanmin(Z) < 0 < np.nanmax(Z):
            traces.append(
                level_lines(
                    xs, ys, Z, [0.0], name="f(x) = 0", meta=BOUNDARY_META, line=_BOUNDARY_LINE
                )
            )
        if np.nanmin(Z) < 1 or np.nanmax(Z) > -1:
            traces.append(
                level_lines(
                    xs, ys, Z, [-1.0, 1.0], name="f(x) = ±1", meta=MARGIN_META, line=_MARGIN_LINE
                )
            )
    traces += point_traces(X, y, alpha=alpha)
    if free is not None or bounded is not None:
        if free is not None and len(free):
            traces.append(ring_trace(X, free, name="free SV (0<α<C)"))
        if bounded is not None and len(bounded):
            traces.append(
                ring_trace(
                    X, bounded, name="bounded SV (α=C)", color=_BOUNDED, symbol="square-open"
                )
            )
    elif support is not None and len(support):
        traces.append(ring_trace(X, support, name="support vector"))
    if highlight is not None:
        traces += highlight_traces(X, highlight)
    return plane_of_traces(traces, xrange, yrange, title, height)


def alpha_bar_figure(alpha, y, *, highlight=None, C=None, height: int = 260) -> go.Figure:
    """α per point as bars at x = n = 1..N, in point order (n as in the plane's hover).

    Built as plain data (no validation: it is redrawn on every click of the pages with α).
    """
    a = np.asarray(alpha, dtype=float)
    c = class_index(y)
    k = max(int(c.max()) + 1, 2) if c.size else 2
    names = ["y = −1 ●", "y = +1 ✖"] if k == 2 else [f"class {j}" for j in range(k)]
    colors = [CLASS_COLORS[j % len(CLASS_COLORS)] for j in c]
    patterns = [CLASS_PATTERNS[j % len(CLASS_PATTERNS)] for j in c]
    line_w = np.zeros(a.size)
    for j in [] if highlight is None else np.atleast_1d(highlight):
        if 0 <= int(j) < a.size:
            line_w[int(j)] = 3.0
    bar = {
        "type": "bar",
        "x": np.arange(1, a.size + 1),  # point n = 1..N, as the texts count
        "y": a,
        "marker": {
            "color": colors,
            "line": {"color": _RING, "width": line_w},
            # the class as a pattern too: solid y = −1, hatched ✖ y = +1 (as the markers)
            "pattern": {"shape": patterns, "fgcolor": "#FFFFFF", "size": 5, "solidity": 0.35},
        },
        "customdata": np.arange(a.size),  # the 0-based index, for the hover link
        "text": [names[j] for j in c],
        "hovertemplate": "point %{x}<br>α=%{y:.4g}<br>%{text}<extra></extra>",
        "name": "α",
    }
    layout = {
        "height": height,
        "margin": {"l": 40, "r": 10, "t": 30, "b": 30},
        "template": template_dict(),
        "title": {"text": "α_n per point n = 1, …, N (as in the hover)", "font": {"size": 13}},
        "showlegend": False,
        "bargap": 0.1,
        # The whole column of bar j hovers it (zero bars too); the canvas links it to point j.
        "hovermode": "x",
        "meta": ALPHA_BARS_META,
        # A line across the hovered bar: visible even when that bar is thin or zero.
        "xaxis": {
            "title": {"text": None},
            "showspikes": True,
            "spikemode": "across",
            "spikesnap": "data",
            "spikethickness": 2,
            "spikedash": "solid",
            "spikecolor": _RING,
        },
    }
    if C is not None and np.isfinite(C):  # the box's top, as fig.add_hline would draw it
        C = float(C)
        layout["shapes"] = [
            {
                "type": "line",
                "line": {"color": _BOUNDED, "dash": "dot"},
                "x0": 0,
                "x1": 1,
                "xref": "x domain",
                "y0": C,
                "y1": C,
                "yref": "y",
            }
        ]
        layout["annotations"] = [
            {
                "text": "C",
                "showarrow": False,
                "x": 1,
                "xanchor": "right",
                "xref": "x domain",
                "y": C,
                "yanchor": "bottom",
                "yref": "y",
            }
        ]
    return go.Figure({"data": [bar], "layout": layout}, _validate=False)
