"""Figures of SVM Lab: pure functions from arrays, results and traces to Plotly figures.

No Streamlit here (the pages render what these return). Conventions:

* the plane figure shades the decision value f(x) on a grid, draws the boundary
  f = 0 (solid) and the margins f = ±1 (dashed) as contours, whatever the kernel;
* classes have a colour from a colour-blind-safe palette (Okabe–Ito) **and** a
  marker shape; binary labels −1 / +1 are classes 0 / 1;
* support vectors are ringed (free and bounded distinguished for the dual SVM);
  α is shown as marker size and in a bar chart in the same point order (point
  index on the x axis, the same index in both hovers);
* axes are fixed: the caller passes ``xrange`` / ``yrange`` (the app keeps them in the
  session with :func:`stable_range`, so that a click never rescales them); without them
  :func:`plane_range` of the points is used.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.style import CLASS_COLORS, CLASS_SYMBOLS  # Okabe–Ito colours + shapes

__all__ = [
    "ALPHA_BARS_META",
    "CLASS_COLORS",
    "CLASS_SYMBOLS",
    "POINTS_META",
    "alpha_bar_figure",
    "class_index",
    "class_scatter",
    "grid",
    "highlight_trace",
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
PLANE_HEIGHT = 520
_RING = "#222222"
_BOUNDED = "#7f7f7f"
_HIGHLIGHT = "#F0E442"  # Okabe–Ito yellow: the sampled point of the current step


def class_index(y) -> np.ndarray:
    """Class index 0..k−1 of each label: −1 → 0, +1 → 1 for binary ±1 labels."""
    y = np.asarray(y)
    if y.size and np.all((y == -1) | (y == 1)):
        return (y > 0).astype(np.int64)
    return y.astype(np.int64)


def plane_range(X, pad: float = 0.15, min_span: float = 2.0):
    """Fixed axis ranges ``((x0, x1), (y0, y1))`` around the points, padded."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if X.shape[0] == 0:
        return (-3.0, 3.0), (-3.0, 3.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    centre, span = (lo + hi) / 2, np.maximum(hi - lo, min_span) * (1 + 2 * pad)
    r = [(float(c - s / 2), float(c + s / 2)) for c, s in zip(centre, span, strict=True)]
    return r[0], r[1]


def stable_range(X, current=None, *, pad: float = 0.15, min_span: float = 2.0):
    """The plane's axes after an edit: ``current`` kept unless a point lies outside it.

    ``current`` is the range shown so far (``((x0, x1), (y0, y1))`` or None). While every
    point of ``X`` lies inside it, it is returned unchanged — a click can only land inside
    the plot, so clicking never rescales the axes under the pointer. When points leave it
    (an import, a table edit, an undo), it grows to the union of ``current`` and
    :func:`plane_range` of ``X`` (which adds a ``pad`` margin around the points); it never
    shrinks. ``current=None`` (a fresh session, a preset load, a clear) gives
    :func:`plane_range`.
    """
    fresh = plane_range(X, pad=pad, min_span=min_span)
    if current is None:
        return fresh
    (x0, x1), (y0, y1) = (tuple(float(v) for v in r) for r in current)
    if not (x0 < x1 and y0 < y1 and np.isfinite([x0, x1, y0, y1]).all()):
        return fresh
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    X = X[np.isfinite(X).all(axis=1)]
    inside = ((X[:, 0] >= x0) & (X[:, 0] <= x1) & (X[:, 1] >= y0) & (X[:, 1] <= y1)).all()
    if inside:
        return (x0, x1), (y0, y1)
    (fx0, fx1), (fy0, fy1) = fresh
    return (min(x0, fx0), max(x1, fx1)), (min(y0, fy0), max(y1, fy1))


def grid(xrange, yrange, resolution: int):
    """Grid points: ``xs`` (r,), ``ys`` (r,), ``G`` (r·r, 2) in row-major order (y, x)."""
    xs = np.linspace(xrange[0], xrange[1], resolution)
    ys = np.linspace(yrange[0], yrange[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


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
        zsmooth="best",
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
        line=dict(color="black", width=2.5),
        showscale=False,
        hoverinfo="skip",
        name="f(x) = 0",
        showlegend=showlegend,
    )


def margin_trace(xs, ys, Z) -> go.Contour:
    """The margins f(x) = ±1 (dashed)."""
    return go.Contour(
        x=xs,
        y=ys,
        z=Z,
        contours=dict(start=-1.0, end=1.0, size=2.0, coloring="none"),
        line=dict(color="black", width=1.2, dash="dash"),
        showscale=False,
        hoverinfo="skip",
        name="f(x) = ±1",
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
                customdata=np.column_stack([idx, a[idx]]),
                hover="point %{customdata[0]}<br>α=%{customdata[1]:.4g}",
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
            line=dict(color="white", width=0.8),
        ),
        customdata=customdata,
        meta=meta,
        hovertemplate=hover + "<extra>" + name + "</extra>",
    )


def ring_trace(X, idx, *, name: str, color: str = _RING, symbol: str = "circle-open", size=22):
    """Rings around the points ``idx`` (support vectors)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    idx = np.asarray(idx, dtype=np.int64).reshape(-1)
    return go.Scatter(
        x=X[idx, 0],
        y=X[idx, 1],
        mode="markers",
        name=name,
        marker=dict(symbol=symbol, size=size, color=color, line=dict(width=2, color=color)),
        hoverinfo="skip",
    )


def highlight_trace(X, i) -> go.Scatter:
    """A yellow ring on the sampled point(s) of the current step (``i``: int, list or None)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    idx = [] if i is None else [int(j) for j in np.atleast_1d(i)]
    idx = [j for j in idx if 0 <= j < X.shape[0]]
    pts = X[idx] if idx else np.empty((0, 2))
    return go.Scatter(
        x=pts[:, 0],
        y=pts[:, 1],
        mode="markers",
        name="sampled xᵢ",
        marker=dict(
            symbol="circle-open", size=30, color=_HIGHLIGHT, line=dict(width=4, color=_HIGHLIGHT)
        ),
        hoverinfo="skip",
    )


def plane_layout(fig: go.Figure, xrange, yrange, title: str | None, height: int = PLANE_HEIGHT):
    fig.update_layout(
        title=dict(text=title, y=0.98, yanchor="top", font=dict(size=14)) if title else None,
        height=height,
        margin=dict(l=40, r=10, t=70 if title else 30, b=40),
        template="plotly_white",
        # Left-aligned: Plotly's mode bar (on hover, top right) would cover a right one.
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0.0),
        uirevision="plane",
    )
    # The axes' own uirevision is the range itself: a new range always replaces the one
    # drawn (with one uirevision for the whole figure plotly.js could keep the old x range
    # while taking the new y range, the two being tied by scaleanchor).
    axes_rev = repr([float(v) for v in (*xrange, *yrange)])
    # constrain="domain": keep the ranges (fixed axes) and shrink the plot area instead.
    axes = dict(autorange=False, zeroline=False, constrain="domain", uirevision=axes_rev)
    fig.update_xaxes(range=list(xrange), title="x₁", **axes)
    fig.update_yaxes(range=list(yrange), title="x₂", scaleanchor="x", scaleratio=1, **axes)
    return fig


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
    fig = go.Figure()
    if Z is not None:
        Z = np.asarray(Z, dtype=float)
        # On the wire: clipped (the levels 0, ±1 and the shading are unchanged) and float32,
        # half the bytes of float64 — this figure is re-sent on every click.
        Zw = np.clip(Z, -F_CLIP * 1.5, F_CLIP * 1.5).astype(np.float32)
        fig.add_trace(shading_trace(xs, ys, Zw))
        if np.nanmin(Z) < 0 < np.nanmax(Z):
            fig.add_trace(boundary_trace(xs, ys, Zw))
        if np.nanmin(Z) < 1 or np.nanmax(Z) > -1:
            fig.add_trace(margin_trace(xs, ys, Zw))
    for tr in point_traces(X, y, alpha=alpha):
        fig.add_trace(tr)
    if free is not None or bounded is not None:
        if free is not None and len(free):
            fig.add_trace(ring_trace(X, free, name="free SV (0<α<C)"))
        if bounded is not None and len(bounded):
            fig.add_trace(
                ring_trace(
                    X, bounded, name="bounded SV (α=C)", color=_BOUNDED, symbol="square-open"
                )
            )
    elif support is not None and len(support):
        fig.add_trace(ring_trace(X, support, name="support vector"))
    if highlight is not None:
        fig.add_trace(highlight_trace(X, highlight))
    return plane_layout(fig, xrange, yrange, title, height)


def alpha_bar_figure(alpha, y, *, highlight=None, C=None, height: int = 260) -> go.Figure:
    """α per point as bars, in point order (the index matches the plane's hover)."""
    a = np.asarray(alpha, dtype=float)
    c = class_index(y)
    colors = [CLASS_COLORS[j % len(CLASS_COLORS)] for j in c]
    line_w = np.zeros(a.size)
    for j in [] if highlight is None else np.atleast_1d(highlight):
        if 0 <= int(j) < a.size:
            line_w[int(j)] = 3.0
    fig = go.Figure(
        go.Bar(
            x=np.arange(a.size),
            y=a,
            marker=dict(color=colors, line=dict(color=_RING, width=line_w)),
            customdata=np.arange(a.size),  # the point index, for the hover link
            hovertemplate="point %{x}<br>α=%{y:.4g}<extra></extra>",
            name="α",
        )
    )
    if C is not None and np.isfinite(C):
        fig.add_hline(y=C, line_dash="dot", line_color=_BOUNDED, annotation_text="C")
    fig.update_layout(
        height=height,
        margin=dict(l=40, r=10, t=30, b=30),
        template="plotly_white",
        title=dict(text="α per point (index as in the hover)", font=dict(size=13)),
        showlegend=False,
        bargap=0.1,
        # The whole column of bar j hovers it (zero bars too); the canvas links it to point j.
        hovermode="x",
        meta=ALPHA_BARS_META,
    )
    # A line across the hovered bar: visible even when that bar is thin or zero.
    fig.update_xaxes(
        title=None,
        showspikes=True,
        spikemode="across",
        spikesnap="data",
        spikethickness=2,
        spikedash="solid",
        spikecolor=_RING,
    )
    return fig
