"""The data canvas: a Plotly figure you can click on, as a Streamlit components-v2 component.

The component (``st.components.v2.component``, mounted without style isolation so that
Plotly's layers stack) runs ``assets/canvas.js``: it renders the figure with the plotly.js
of the installed plotly package (served from ``static/`` by Streamlit, see
:mod:`svmlab.ui.static_assets`) and reports clicks. A new point is drawn by the browser at
once; Python applies the event and re-renders the figure.

Events (``x``, ``y`` in data units; ``seq`` increases in each browser tab)::

    {"type": "add", "x", "y", "cls", "cls_index", "seq"}
    {"type": "erase", "index", "x", "y", "rx", "ry", "seq"}
    {"type": "move", "index", "x", "y", "from_x", "from_y", "cls_index", "rx", "ry", "seq"}

Delivery: the acknowledged-event channel (:mod:`svmlab.ui.event_channel`, the browser's side
``assets/event_channel.js``): the component's state value ``events`` lists the events Python
has not acknowledged (``seq > ack``); each new event sets it once (one rerun request). The
caller applies each ``seq`` once (``receive``) and passes the highest applied back as
``ack``.

α bars: with ``bars`` (the figure of :func:`svmlab.plot.figures.alpha_bar_figure`, bar j = point
j) the component draws the bar chart below the plane and links the two: hovering bar j
rings point j (``circle.svmlab-linked[data-index=j]`` in the overlay) and shows its label;
hovering point j (point traces tagged :data:`svmlab.plot.figures.POINTS_META`,
``customdata[0]`` = j) outlines bar j (``.svmlab-canvas-bars[data-lit=j]``). Nothing goes
through Python.

Accessible name: the plane's div is ``role="application"`` (a screen reader's browse mode
passes the arrow keys of the keyboard cursor to it; announced as "plane") named by
``description``'s first line (its summary) and described by the whole text, kept in a
visually hidden node.

Keyboard (``assets/plane_cursor.js``, ``assets/plane_tree.js``, ``assets/listen.js``, served
as one static script, :func:`svmlab.ui.static_assets.ensure_plane_js`, loaded once by the
browser rather than sent with every rerun): the plane is focusable; its arrows move a
crosshair (Shift: fine steps), Enter adds a point there, Delete erases the nearest, N /
Shift+N (or . / ,) select a point and M picks it up and drops it — the same events as the
mouse's; each change is announced in a polite live region with the counts of the
description's summary once the refit figure arrives. A ``role="tree"`` under the plane
walks the model (the description, the α of the points' customdata, the support-vector
rings, f from the shading); L plays f along the crosshair's row as pitch.

Feed: a fragment that does not redraw the canvas (a scrub: :mod:`svmlab.ui.plane`) sends it a
new figure with :func:`feed_canvas`, a small component of its own (``assets/canvas_feed.js``)
that finds the canvas of its key on the page and hands it the figure; every figure carries a
``stamp``, so the canvas never goes back to an older one (its own data included). A second
feed (``part="frames"``, at the end of the script run) brings a new run's frames
(``playback``) to a canvas drawn without them (``frames_id``): the plane's message is then
small and goes first, and the browser paints the new boundary before it receives and
decodes the frames.

Look: the figures arrive finished (the page's look is given where they are built,
:func:`svmlab.plot.look.theme.page_figure`); with ``fill`` (an algorithm page, and presenter
mode, which drops the α bars) the plane is as tall as the window allows, its transport and
readout under it on the same screen; the legend goes above or beside the plot, whichever
leaves the larger plot.

Playback: with the run's frames (``playback``, :mod:`svmlab.plot.plane_frames`) the canvas
plays, steps and scrubs the run on the plane itself (``assets/playback.js``: a transport and
a readout under the plane; the keys of :mod:`svmlab.ui.keyboard` act on it) and sends the
snapshot it stops at as one ``"snap"`` event (:func:`svmlab.ui.keyboard.apply_snapshot`), so
that the server's scrubber, the report and the share link follow t.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import plotly.io as pio
import streamlit as st

from svmlab.plot.figures import POINTS_META
from svmlab.plot.look.roles import as_array
from svmlab.state.canvas_session import MODES
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS, class_index
from svmlab.ui import event_channel, keyboard
from svmlab.ui.static_assets import (
    PRELUDES,
    component_css,
    component_js,
    component_module,
    ensure_plane_js,
    ensure_plotly_js,
    static_url,
)

__all__ = [
    "COMPONENT_NAME",
    "MODES",
    "feed_canvas",
    "figure_json",
    "plot_canvas",
    "point_links",
]

COMPONENT_NAME = "svmlab_canvas"
FEED_NAME = "svmlab_canvas_feed"
#: The most unacknowledged events one state value carries (the newest).
MAX_BATCH = 200

_HTML = '<div class="svmlab-canvas-mount"></div>'


_COMPONENT = st.components.v2.component(
    COMPONENT_NAME,
    html=_HTML,
    js=component_module("canvas.js", preludes=PRELUDES),  # loaded once, not per click
    css=component_css("canvas.css"),
    isolate_styles=False,
)
_FEED = st.components.v2.component(
    FEED_NAME,
    html='<div class="svmlab-canvas-feed"></div>',
    js=component_js("canvas_feed.js", preludes=()),
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


def _traces(fig) -> list:
    """The traces of a figure given as ``go.Figure``, dict or JSON text."""
    if isinstance(fig, str):
        fig = json.loads(fig)
    if isinstance(fig, dict):
        return list(fig.get("data") or [])
    return list(getattr(fig, "data", None) or [])


def point_links(fig, n: int) -> list:
    """For point j = 0..n−1: ``[curve number, point number, x, y]`` of its marker in ``fig``.

    Points are the markers of traces tagged :data:`svmlab.plot.figures.POINTS_META` whose
    ``customdata[:, 0]`` holds the point index (None for a point not drawn).
    """
    links: list = [None] * int(n)
    for curve, tr in enumerate(_traces(fig)):
        get = tr.get if isinstance(tr, dict) else lambda name, tr=tr: getattr(tr, name, None)
        if get("meta") != POINTS_META or get("customdata") is None:
            continue
        cd = as_array(get("customdata")).astype(float)
        cd = cd.reshape(cd.shape[0], -1)
        xs, ys = as_array(get("x")).astype(float), as_array(get("y")).astype(float)
        for p, j in enumerate(cd[:, 0].tolist()):
            if j == int(j) and 0 <= j < n:
                links[int(j)] = [curve, p, float(xs[p]), float(ys[p])]
    return links


def plot_canvas(
    fig,
    *,
    mode: str = "add",
    new_class=1,
    key: str = "canvas",
    height: int = 520,
    points=None,
    receive: Callable[[list], None] | None = None,
    ack: int = 0,
    bars=None,
    bars_height: int = 260,
    bars_caption: str = "",
    description: str = "",
    stamp: list | None = None,
    playback: dict | None = None,
    frames_id: str | None = None,
    snapshot: int | None = None,
    fill: bool = False,
    kept: bool = False,
) -> list:
    """Show ``fig`` as a clickable canvas; return the events of its state (see the module
    docstring: the caller applies each ``seq`` above ``ack`` once).

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
    receive : callable, optional
        ``receive(events)``: the events of the component's state, called as a Streamlit
        widget callback (before the script reruns) when they change
        (:func:`svmlab.ui.event_channel.listen`).
    ack : int
        The highest event ``seq`` applied so far (the browser stops showing those as
        pending and leaves them out of its next list).
    bars : plotly.graph_objects.Figure, dict or str, optional
        The α bar chart (bar j = point j) drawn below the plane and linked to it.
    bars_height : int
        Height of the bar chart in pixels.
    bars_caption : str
        A line of text under the bar chart.
    description : str
        The model in words (:func:`svmlab.study.describe.describe_model`): its first line
        is the plane's accessible name, the whole text its accessible description (the
        plane is ``role="application"``).
    stamp : [str, int], optional
        The figure's stamp, ``[session epoch, number]`` (:func:`feed_canvas`); None: always
        drawn.
    playback : dict, optional
        The run's frames (:func:`svmlab.ui.plane.playback_of`): the canvas plays, steps and
        scrubs them on the plane itself, with a transport and a readout under it, and sends
        the snapshot it stops at as ``{"type": "snap", "key", "sig", "k"}``.
    frames_id : str, optional
        Instead of ``playback``: the name (``playback["id"]``) of the run's frames that a
        feed brings after this figure (:func:`feed_canvas`), so that the new plane is
        painted first; the transport waits for them (an action pressed meanwhile runs when
        they arrive).
    snapshot : int, optional
        The snapshot ``fig`` shows (the transport starts there).
    fill : bool
        The plane as tall as the window allows below its top, less its transport and
        readout (an algorithm page: one screen, plane first); presenter mode always fills.
    kept : bool
        The canvas shows ``fig`` (and ``bars``, and ``playback``'s frames) already, under
        the same ``stamp``: they are not sent again (the plane's fragment drew them just
        before this script run, :mod:`svmlab.ui.plane_cell`); the rest of the data is.

    Returns
    -------
    list of dict
        The events in the component's state (already applied ones included).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    height = int(height)
    if not 100 <= height <= 4000:
        raise ValueError(f"height must be in 100..4000 pixels, got {height}")
    cls_index = class_index(new_class)
    ensure_plotly_js()
    plane_src = ensure_plane_js()
    presenting = keyboard.is_presenting()
    # presenter mode: the plane alone, as tall as the window allows
    bars = None if presenting else bars
    payload = _points_payload(points)
    data: dict[str, Any] = {
        "key": key,
        "stamp": stamp,
        "figure": None if kept else figure_json(fig),
        "kept": bool(kept),
        "mode": mode,
        "cls": new_class if isinstance(new_class, int) else float(new_class),
        "cls_index": cls_index,
        "styles": [
            {"color": col, "symbol": sym}
            for col, sym in zip(CLASS_COLORS, CLASS_SYMBOLS, strict=True)
        ],
        "points": payload,
        "plotly_src": static_url(),
        "plane_src": plane_src,
        "height": height,
        "fill": bool(fill or presenting),
        "presenting": presenting,
        "playback": None if kept else playback,
        "frames_id": None if playback is not None else frames_id,
        "snapshot": None if snapshot is None else int(snapshot),
    }
    if description:
        data["label"] = description.split("\n", 1)[0]
        data["description"] = description
    if bars is not None:
        if not kept:
            data.update(_bars_data(fig, bars, len(payload["x"]) if payload else 0))
        data["bars_height"] = int(bars_height)
        data["bars_caption"] = bars_caption
    return event_channel.listen(
        _COMPONENT,
        key=key,
        data=data,
        ack=ack,
        batch=MAX_BATCH,
        receive=receive or (lambda events: None),
        height="content",
    )


def _bars_data(fig, bars, n: int) -> dict:
    return {"bars": figure_json(bars), "links": point_links(fig, n)}


def feed_canvas(
    key: str,
    fig=None,
    *,
    bars=None,
    n_points: int = 0,
    stamp=None,
    description: str = "",
    snapshot=None,
    playback: dict | None = None,
    part: str = "plane",
) -> None:
    """Send the canvas ``key`` (drawn outside the calling fragment) the figure ``fig``.

    A small component (key ``f"{key}_plane_feed"``, hidden; ``assets/canvas_feed.js``) whose
    browser side finds the canvas of ``key`` on the page and draws ``fig`` (and the α
    ``bars``, linked to its ``n_points`` points) there, unless the canvas shows a figure of
    a later ``stamp`` (``[session epoch, number]``: numbers compare within a session).
    ``fig`` None: nothing to draw (the element stays, so that the elements after it keep
    their place). ``description``: the model in words of ``fig`` (see :func:`plot_canvas`).
    ``snapshot``: the snapshot ``fig`` shows (the transport follows it). ``playback``: the
    run's frames for a canvas that named them (``frames_id`` of :func:`plot_canvas`) and was
    drawn without them, earlier in the same script run. ``part``: which of the canvas's
    feeds (one element each, key ``f"{key}_{part}_feed"``): ``"plane"`` for its figures,
    ``"frames"`` for the frames, at the end of the script run.
    """
    data: dict[str, Any] = {"feed_for": key, "stamp": stamp}
    if playback is not None:
        data["playback"] = playback
    if snapshot is not None:
        data["snapshot"] = int(snapshot)
    if fig is not None:
        data["figure"] = figure_json(fig)
        presenting = keyboard.is_presenting()
        if bars is not None and not presenting:
            data.update(_bars_data(fig, bars, int(n_points)))
        if description:
            data["label"] = description.split("\n", 1)[0]
            data["description"] = description
    _FEED(key=f"{key}_{part}_feed", data=data, height="content")
