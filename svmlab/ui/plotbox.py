"""A Plotly figure on a page that stays mounted across reruns (``assets/plot.js``).

``st.plotly_chart`` derives a chart's identity from its figure, so a chart whose figure
changes on every click (the curves under the plane) is re-created in the browser each
time: a fresh ``<div>`` and a full ``Plotly.newPlot``, on the main thread while the plane
is to be painted. :func:`plot` keeps one ``<div>`` per key and updates it with
``Plotly.react`` after the next paint. The figure arrives in the page's look (given where it
is built: :func:`svmlab.plot.look.theme.page_figure`).
"""

from __future__ import annotations

import streamlit as st

from svmlab.plot.look.theme import PageLook, page_figure
from svmlab.ui import access, keyboard, themes
from svmlab.ui.canvas import figure_json
from svmlab.ui.static_assets import component_module, ensure_plotly_js, static_url

__all__ = ["COMPONENT_NAME", "chart", "plane_chart", "plot"]

COMPONENT_NAME = "svmlab_plot"

_COMPONENT = st.components.v2.component(
    COMPONENT_NAME,
    html='<div class="svmlab-plot-mount"></div>',
    js=component_module("plot.js"),
    isolate_styles=False,
)


def plot(fig, *, key: str, config: dict | None = None, table=None) -> None:
    """Draw ``fig`` (a ``go.Figure``, figure dict or Plotly JSON text) under ``key``.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure, dict or str
        The figure; its ``layout.height`` sets the box's height (330 px if none).
    key : str
        The element's key: the same key keeps the same chart across reruns.
    config : dict, optional
        Plotly's config (mode bar buttons, …).
    table : callable or "rerun", optional
        Add the chart's "view as table" (:func:`svmlab.ui.access.figure_box`) under it,
        with this as its expander's ``on_change`` (a fragment's callback, or "rerun").
    """
    ensure_plotly_js()
    data = {
        "figure": figure_json(fig),
        "plotly_src": static_url(),
        "config": dict(config or {}),
    }
    _COMPONENT(key=key, data=data, height="content")
    if table is not None:
        access.figure_box(fig, key=f"{key}_table", on_change=table)


def _look(projector: bool = False) -> PageLook:
    return PageLook(theme=themes.current_name(), projector=projector)


def chart(fig, **kwargs):
    """``st.plotly_chart`` of a panel's chart in the page's theme
    (:func:`svmlab.plot.look.theme.page_figure` with ``roles=False``: its own trace colours
    kept), without Streamlit's chart theme (the figure's colours are the page's). ``kwargs``
    go to ``st.plotly_chart``; returns its value (the selection, with ``on_select``)."""
    return st.plotly_chart(page_figure(fig, _look(), roles=False), theme=None, **kwargs)


def plane_chart(fig, **kwargs):
    """``st.plotly_chart`` of a plane figure (shading, boundary, points) built without the
    page's look, given it here as the canvas's (the theme; the projector in presenter
    mode); as :func:`chart`."""
    look = _look(projector=keyboard.is_presenting())
    return st.plotly_chart(page_figure(fig, look, plane=True), theme=None, **kwargs)
