"""The plane's frame: its axes and ranges, the grid its values are drawn on, the layout
and the white template of SVM Lab's 2-D figures (pure; no Streamlit).

The axes are fixed: the caller passes the ranges (the app keeps them in the session
with :func:`stable_range`, so that a click never rescales them); without them
:func:`plane_range` of the points is used. :mod:`svmlab.plot.figures` draws the traces.
"""

from __future__ import annotations

import copy

import plotly.graph_objects as go
import plotly.io as pio

from svmlab.state.plane import grid, plane_range, stable_range

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
