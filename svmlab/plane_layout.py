"""The plane's frame: its axes and ranges, the grid its values are drawn on, the layout
and the white template of SVM Lab's 2-D figures (pure; no Streamlit).

The axes are fixed: the caller passes the ranges (the app keeps them in the session
with :func:`stable_range`, so that a click never rescales them); without them
:func:`plane_range` of the points is used. :mod:`svmlab.figures` draws the traces.
"""

from __future__ import annotations

import copy

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

__all__ = [
    "PLANE_HEIGHT",
    "TEMPLATE",
    "grid",
    "plane_layout",
    "plane_layout_dict",
    "plane_of_traces",
    "plane_range",
    "stable_range",
    "template_dict",
]

PLANE_HEIGHT = 520


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


def template_dict() -> dict:
    """:data:`TEMPLATE` as plain data (a fresh copy: figures may restyle their own)."""
    return copy.deepcopy(_TEMPLATE_DICT)


def _lean_white() -> go.layout.Template:
    """Plotly's "plotly_white" without what a 2-D figure never uses (polar, ternary, 3-D,
    maps, other trace types' defaults): the same look, a fraction of its bytes and of
    the time plotly.py spends copying it into every figure."""
    layout = pio.templates["plotly_white"].layout.to_plotly_json()
    for key in ("polar", "ternary", "scene", "geo", "mapbox", "coloraxis", "colorscale"):
        layout.pop(key, None)
    return go.layout.Template(layout=layout)


#: The template of SVM Lab's 2-D figures (registered with plotly.io by this name).
TEMPLATE = "svmlab_white"
pio.templates[TEMPLATE] = _lean_white()
_TEMPLATE_DICT = pio.templates[TEMPLATE].to_plotly_json()


def plane_layout_dict(xrange, yrange, title: str | None, height: int = PLANE_HEIGHT) -> dict:
    """The plane's layout as plain data: fixed, equal-scaled axes over the ranges."""
    # The axes' own uirevision is the range itself: a new range always replaces the one
    # drawn (with one uirevision for the whole figure plotly.js could keep the old x range
    # while taking the new y range, the two being tied by scaleanchor).
    axes_rev = repr([float(v) for v in (*xrange, *yrange)])
    # constrain="domain": keep the ranges (fixed axes) and shrink the plot area instead.
    axes = dict(autorange=False, zeroline=False, constrain="domain", uirevision=axes_rev)
    layout = dict(
        height=height,
        margin=dict(l=40, r=10, t=70 if title else 30, b=40),
        template=template_dict(),
        # Left-aligned: Plotly's mode bar (on hover, top right) would cover a right one.
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0.0),
        uirevision="plane",
        xaxis=dict(range=[float(v) for v in xrange], title=dict(text="x₁"), **axes),
        yaxis=dict(
            range=[float(v) for v in yrange],
            title=dict(text="x₂"),
            scaleanchor="x",
            scaleratio=1,
            **axes,
        ),
    )
    if title:
        layout["title"] = dict(text=title, y=0.98, yanchor="top", font=dict(size=14))
    return layout


def plane_layout(fig: go.Figure, xrange, yrange, title: str | None, height: int = PLANE_HEIGHT):
    """``fig`` with the plane's layout (:func:`plane_layout_dict`)."""
    fig.update_layout(plane_layout_dict(xrange, yrange, title, height))
    return fig


def plane_of_traces(traces, xrange, yrange, title: str | None, height: int = PLANE_HEIGHT):
    """A plane figure from built traces, assembled without validating them again (the
    plane is rebuilt on every click; plotly.py's checks cost more than the data)."""
    layout = plane_layout_dict(xrange, yrange, title, height)
    return go.Figure({"data": traces, "layout": layout}, _validate=False)
