"""What each trace of an SVM Lab figure shows, read from its type, name, meta and marker.

The figures of :mod:`svmlab.plot.figures` and :mod:`svmlab.plot.playback` are identified without
relying on trace order, so that a restyled or restructured figure module keeps working:

============  ==========================================================================
role          how it is recognised
============  ==========================================================================
shading       a ``heatmap`` whose ``zmin < 0 < zmax`` (f(x) clipped to ±F), or a
              ``contour`` with ``contours.coloring`` "heatmap"/"fill" (the animation's
              shading, which also draws the margins f = ±1 as its lines)
regions       a ``heatmap`` of class indices (``zmin = −0.5``: the multiclass regions)
ambiguity     a ``heatmap`` whose name starts with "ambiguous"
boundary      a ``contour`` without fill whose only level is 0 (``start == end == 0``),
              or a ``scatter`` with ``meta == BOUNDARY_META`` (the plane's traced line)
margin        a ``contour`` without fill and other levels (f = ±1), or a ``scatter``
              with ``meta == MARGIN_META``
points        a ``scatter`` with ``meta == POINTS_META``, or markers of a filled class
              symbol from :data:`svmlab.state.classes.CLASS_SYMBOLS`
support       a ``scatter`` of open markers (``circle-open``, ``square-open``) whose name
              names support vectors ("SV", "support")
highlight     a ``scatter`` of open markers named "sampled …" (the current step's point)
line          any other ``scatter`` drawn with lines (the curves figure)
bars          a ``bar`` trace (α per point)
other         anything else (left alone)
============  ==========================================================================

The class of a ``points`` trace (0..5) is the index of its marker symbol in
:data:`~svmlab.state.classes.CLASS_SYMBOLS`, else of its colour in
:data:`~svmlab.state.classes.CLASS_COLORS`, else its order among the point traces.
"""

from __future__ import annotations

import base64

import numpy as np

from svmlab.plot.figures import BOUNDARY_META, MARGIN_META, POINTS_META
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS

__all__ = ["ROLES", "as_array", "point_class", "trace_role"]

ROLES = (
    "shading",
    "regions",
    "ambiguity",
    "boundary",
    "margin",
    "points",
    "support",
    "highlight",
    "line",
    "bars",
    "other",
)


def as_array(value) -> np.ndarray:
    """A figure dict's array as NumPy: lists, scalars, or Plotly's typed arrays.

    ``Figure.to_dict()`` stores NumPy arrays as ``{"dtype": "f4", "bdata": <base64>,
    "shape": "r, c"}``; this decodes them (shape kept).
    """
    if isinstance(value, dict) and "bdata" in value:
        a = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return a.reshape([int(s) for s in str(shape).split(",")]) if shape else a.copy()
    return np.asarray(value)


def _get(d: dict, *keys, default=None):
    for key in keys:
        if not isinstance(d, dict) or key not in d:
            return default
        d = d[key]
    return d


def trace_role(trace: dict) -> str:
    """The role (one of :data:`ROLES`) of one trace given as a dict (``trace.to_plotly_json()``)."""
    kind = trace.get("type", "scatter")
    name = str(trace.get("name") or "")
    if kind == "heatmap":
        if name.startswith("ambiguous"):
            return "ambiguity"
        zmin = trace.get("zmin")
        return "regions" if zmin is not None and zmin >= -0.5 else "shading"
    if kind == "contour":
        coloring = _get(trace, "contours", "coloring", default="fill")
        if coloring in ("heatmap", "fill"):
            return "shading"
        start = _get(trace, "contours", "start")
        end = _get(trace, "contours", "end")
        return "boundary" if start == 0 and end == 0 else "margin"
    if kind == "bar":
        return "bars"
    if kind not in ("scatter", "scattergl"):
        return "other"
    symbol = _get(trace, "marker", "symbol")
    mode = str(trace.get("mode") or "lines+markers")
    meta = trace.get("meta")
    if meta == POINTS_META:
        return "points"
    if meta in (BOUNDARY_META, MARGIN_META):
        return "boundary" if meta == BOUNDARY_META else "margin"
    if isinstance(symbol, str) and symbol.endswith("-open"):
        if name.lower().startswith("sampled"):
            return "highlight"
        if "SV" in name or "support" in name.lower():
            return "support"
    if mode == "markers" and symbol in CLASS_SYMBOLS:
        return "points"
    if "lines" in mode:
        return "line"
    return "other"


def point_class(trace: dict, order: int) -> int:
    """The class index (0..5) of a ``points`` trace; ``order`` is its rank among them."""
    symbol = _get(trace, "marker", "symbol")
    if isinstance(symbol, str) and symbol in CLASS_SYMBOLS:
        return CLASS_SYMBOLS.index(symbol)
    color = _get(trace, "marker", "color")
    if isinstance(color, str) and color.upper() in CLASS_COLORS:
        return CLASS_COLORS.index(color.upper())
    return order % len(CLASS_SYMBOLS)
