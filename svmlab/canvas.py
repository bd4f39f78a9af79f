"""The data canvas: a Plotly figure you can click on, as a Streamlit components-v2 component.

The component (``st.components.v2.component``, mounted without style isolation so that
Plotly's layers stack) runs ``assets/canvas.js``: it renders the figure with the plotly.js
of the installed plotly package (served from ``static/`` by Streamlit, see
:mod:`svmlab.static_assets`) and reports clicks as one-shot trigger values. A new point is
drawn by the browser at once; Python applies the event and re-renders the figure.

Events (``x``, ``y`` in data units; ``nonce`` increases in each browser tab)::

    {"type": "add", "x", "y", "cls", "cls_index", "nonce", "events": [...]}
    {"type": "erase", "index", "x", "y", "rx", "ry", "nonce", "events": [...]}
    {"type": "move", "index", "x", "y", "from_x", "from_y", "rx", "ry", "nonce", "events"}

``events`` lists every event the browser has sent that Python had not yet acknowledged
(quick clicks can share one rerun); :func:`svmlab.data_panel.handle_event` applies each
nonce once.

Hover link with the α bars: the canvas also finds, in the same document, the bar chart of
:func:`svmlab.figures.alpha_bar_figure` (``layout.meta`` =
:data:`svmlab.figures.ALPHA_BARS_META`) and links hovering bar j with hovering the plane's
point j (point traces tagged :data:`svmlab.figures.POINTS_META`, ``customdata[0]`` = j):
bar j rings point j (``circle.svmlab-linked[data-index=j]`` in the overlay) and shows its
label; point j shows bar j's label and spike line. Nothing goes through Python.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import plotly.io as pio
import streamlit as st

from svmlab.static_assets import ensure_plotly_js, static_url
from svmlab.style import CLASS_COLORS, CLASS_SYMBOLS, class_index

__all__ = ["ACK_KEY", "COMPONENT_NAME", "MODES", "figure_json", "plot_canvas"]

COMPONENT_NAME = "svmlab_canvas"
MODES = ("add", "erase", "move")
#: Session-state key of the newest event nonce Python has applied (shared by all canvases:
#: nonces are monotonic per browser tab).
ACK_KEY = "_svmlab_canvas_ack"
_SEEN_KEY = "_svmlab_canvas_seen"

_ASSETS = Path(__file__).resolve().parent.parent / "assets"
_HTML = '<div class="svmlab-canvas-mount"></div>'


def _read_asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


_COMPONENT = st.components.v2.component(
    COMPONENT_NAME,
    html=_HTML,
    js=_read_asset("canvas.js"),
    css=_read_asset("canvas.css"),
    isolate_styles=False,
)


def figure_json(fig) -> str:
    """The figure as Plotly JSON text (NumPy arrays become typed-array specs).

    Accepts a ``go.Figure``, a figure dict (e.g. ``fig.to_plotly_json()``) or JSON text.
    """
    if isinstance(fig, str):
        return fig
    if fig is None:
        return json.dumps({"data": [], "layout": {}})
    return pio.to_json(fig, validate=False, remove_uids=True)


def _points_payload(points) -> dict[str, list] | None:
    """``points`` = (X (n,2), class indices (n,)[, indices (n,)]) for browser hit-testing.

    The optional third array gives each shown point's index in the full point list (when
    a page shows a subset); events then carry that index.
    """
    if points is None:
        return None
    X, c = points[0], points[1]
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    c = np.asarray(c, dtype=np.int64).reshape(-1)
    out = {"x": X[:, 0].tolist(), "y": X[:, 1].tolist(), "c": c.tolist()}
    if len(points) > 2 and points[2] is not None:
        out["i"] = np.asarray(points[2], dtype=np.int64).reshape(-1).tolist()
    return out


def _noop() -> None:
    """Trigger values are only returned for events with an ``on_<name>_change`` callback."""


def plot_canvas(
    fig,
    *,
    mode: str = "add",
    new_class=1,
    key: str = "canvas",
    height: int = 520,
    points=None,
    on_event: Callable[[], None] | None = None,
) -> dict | None:
    """Show ``fig`` as a clickable canvas; return the latest click event (each one once).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure, dict or str
        The figure (its axes should have fixed ranges so that clicks do not move them).
    mode : {"add", "erase", "move"}
        What a click does.
    new_class : int
        Label of the class a click adds (−1/+1 on binary pages, 0..5 on the multiclass
        page); its colour and shape draw the point at once.
    key : str
        Streamlit key of the component (one per canvas on a page).
    height : int
        Height in pixels.
    points : tuple (X (n, 2), class indices (n,)[, indices (n,)]), optional
        The points as drawn, for erase / move hit-testing in the browser (the optional
        indices map shown points to the full list). Without them erase and move clicks
        find nothing.
    on_event : callable, optional
        Called (as a Streamlit widget callback, before the script reruns) when an event
        arrives; read it from ``st.session_state[key]["event"]``.

    Returns
    -------
    dict or None
        The newest event not returned before (see the module docstring), else None.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    height = int(height)
    if not 100 <= height <= 4000:
        raise ValueError(f"height must be in 100..4000 pixels, got {height}")
    cls_index = class_index(new_class)
    ensure_plotly_js()
    data: dict[str, Any] = {
        "figure": figure_json(fig),
        "mode": mode,
        "cls": new_class if isinstance(new_class, int) else float(new_class),
        "cls_index": cls_index,
        "styles": [
            {"color": col, "symbol": sym}
            for col, sym in zip(CLASS_COLORS, CLASS_SYMBOLS, strict=True)
        ],
        "points": _points_payload(points),
        "ack": int(st.session_state.get(ACK_KEY, 0)),
        "plotly_src": static_url(),
        "height": height,
    }
    result = _COMPONENT(key=key, data=data, height="content", on_event_change=on_event or _noop)
    event = getattr(result, "event", None)
    return _once(key, event)


def _once(key: str, event) -> dict | None:
    """Return ``event`` unless its nonce was returned before for this key."""
    if not isinstance(event, Mapping):
        return None
    nonce = event.get("nonce")
    seen = st.session_state.setdefault(_SEEN_KEY, {})
    if isinstance(nonce, (int, float)):
        if nonce <= seen.get(key, 0):
            return None
        seen[key] = nonce
    return dict(event)
