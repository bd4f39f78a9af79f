"""Figures restyled for a theme of the page (pure: Plotly figures in, figures out).

:func:`themed_figure` gives any figure of :mod:`svmlab.plot` the colours of a
:class:`~svmlab.plot.look.palettes.Theme`: the page's background and text, the axes and
grid, and — by trace role (:func:`svmlab.plot.look.roles.trace_role`, never by order) —
the shading and regions faded into the background, the boundary, margins and rings in the
theme's ink (thicker in the high-contrast theme), the points outlined where the theme asks.
Other charts (``roles=False``) keep their trace colours; only their black lines and
markers take the ink. :mod:`svmlab.plot.look.theme` builds the page's look on it.
"""

from __future__ import annotations

import copy

import plotly.graph_objects as go

from svmlab.plot.look.palettes import (
    DARK_THEME,
    DEFAULT_THEME,
    Theme,
    get_theme,
    mix,
    relative_luminance,
    rgb,
)
from svmlab.plot.look.roles import trace_role
from svmlab.state.classes import CLASS_COLORS

__all__ = ["as_figure_dict", "regions_scale", "themed_figure"]


def as_figure_dict(fig) -> dict:
    """A figure dict of ``fig`` (a ``go.Figure`` or a dict, deep-copied); ValueError otherwise."""
    if isinstance(fig, go.Figure):
        return fig.to_dict()
    if isinstance(fig, dict):
        return copy.deepcopy(fig)
    raise ValueError(f"fig must be a plotly Figure or a figure dict, got {type(fig).__name__}")


def _axis_changes(t: Theme) -> dict:
    font = {"color": t.text}
    return dict(
        gridcolor=t.grid,
        zerolinecolor=t.grid,
        linecolor=t.text,
        tickcolor=t.text,
        tickfont=font,
    )


def _theme_layout(layout: dict, t: Theme) -> dict:
    """The layout changes for the theme ``t`` (``layout``: its title, axes and scenes, as
    dict keys)."""
    font = {"color": t.text}
    out = {
        "paper_bgcolor": t.background,
        "plot_bgcolor": t.background,
        "font": font,
        "legend": {"bgcolor": "rgba(0,0,0,0)", "font": font},
    }
    if isinstance(layout.get("title"), dict):
        out["title"] = {"font": font}
    for key, axis in layout.items():
        if (key.startswith("xaxis") or key.startswith("yaxis")) and isinstance(axis, dict):
            out[key] = _axis_changes(t)
        elif key.startswith("scene") and isinstance(axis, dict):  # 3-D: the feature space
            a = dict(_axis_changes(t), backgroundcolor=t.background, color=t.text)
            a.pop("tickcolor")
            out[key] = {"xaxis": a, "yaxis": a, "zaxis": a, "bgcolor": t.background}
    return out


def _near_black(colour) -> bool:
    """Black, or a grey nearly as dark (luminance < 0.2, channels within 32 of each other);
    a colour (a dark blue) is not. Text other than '#rrggbb': named black only."""
    if isinstance(colour, str) and colour.strip().lower() == "black":
        return True
    try:
        channels = rgb(colour)
        return max(channels) - min(channels) <= 32 and relative_luminance(colour) < 0.2
    except (ValueError, AttributeError):
        return False


def _theme_lists(layout, t: Theme, plane: bool) -> None:
    """The play buttons, slider and shapes of a layout object, item by item (in place:
    re-setting the whole lists would validate every slider step again)."""
    for item in (*layout.updatemenus, *layout.sliders):
        item.update(bgcolor=t.panel, font_color=t.text)
    for shape in layout.shapes:
        if plane or _near_black(shape.line.color):
            shape.update(line_color=t.ink)


def regions_scale(n_entries: int, t: Theme = None) -> list:
    """The multiclass regions' discrete scale (class j on [j/k, (j+1)/k)), faded into the
    background of ``t`` (default: dark)."""
    t = DARK_THEME if t is None else t
    k = max(n_entries // 2, 1)
    scale = []
    for j in range(k):
        col = mix(CLASS_COLORS[j % len(CLASS_COLORS)], t.background, t.region_fade)
        scale += [[j / k, col], [(j + 1) / k, col]]
    return scale


def _luminance_or_one(colour) -> float:
    """:func:`relative_luminance`, or 1.0 for anything that is not ``'#rrggbb'``."""
    try:
        return relative_luminance(colour)
    except (ValueError, AttributeError):
        return 1.0


def _width(tr: dict, default: float) -> float:
    width = (tr.get("line") or {}).get("width")
    return float(width) if width is not None else default


def _plane_trace(tr: dict, role: str, t: Theme) -> dict:
    """The changes of one plane trace (given as a dict; not changed) for the theme ``t``."""
    bg, ink, scale = t.background, t.ink, t.line_scale
    if role == "shading":
        neg, pos = (mix(c, bg, t.shade_fade) for c in CLASS_COLORS[:2])
        out: dict = {"colorscale": [[0.0, neg], [0.5, bg], [1.0, pos]]}
        if tr.get("type") == "contour":  # the animation's shading draws the margins too
            out["line"] = {"color": ink, "width": _width(tr, 1.2) * scale}
        return out
    if role == "regions":
        return {"colorscale": regions_scale(len(tr.get("colorscale") or []), t)}
    if role == "ambiguity":
        if not t.dark:
            return {}
        grey, clear = "rgba(220,220,220,0.35)", "rgba(0,0,0,0)"  # z = 1 ambiguous, 0 not
        return {"colorscale": [[0, clear], [0.5, clear], [0.5, grey], [1, grey]]}
    if role in ("boundary", "margin"):
        base = 2.5 if role == "boundary" else 1.2
        return {"line": {"color": ink, "width": _width(tr, base) * scale}}
    if role == "support" and _luminance_or_one(tr.get("marker", {}).get("color")) < 0.2:
        return {"marker": {"color": ink, "line": {"color": ink}}}  # dark rings follow the ink
    if role == "points" and t.outline is not None:  # the outline that sets a point off
        width = {} if t.outline_width is None else {"width": t.outline_width}
        return {"marker": {"line": {"color": t.outline, **width}}}
    if role == "highlight" and t.name == "contrast":  # yellow is lost on white
        return {"marker": {"symbol": "diamond-open", "color": ink, "line": {"color": ink}}}
    if role == "bars":
        return {"marker": {"line": {"color": ink}}}
    return {}


def _chart_trace(tr: dict, t: Theme) -> dict:
    """A chart's trace (not the plane): its black lines and markers in the theme's ink."""
    out: dict = {}
    if _near_black((tr.get("line") or {}).get("color")):
        out["line"] = {"color": t.ink}
    marker = tr.get("marker") or {}
    if _near_black(marker.get("color")):
        out["marker"] = {"color": t.ink}
    if _near_black((marker.get("line") or {}).get("color")):
        out.setdefault("marker", {})["line"] = {"color": t.ink}
    return out


def _trace_dict(tr) -> dict:
    """What :func:`trace_role` and the restyles read of a trace object (no arrays)."""

    def value(obj, name):
        return obj[name] if name in obj and obj[name] is not None else None

    d = {k: value(tr, k) for k in ("type", "name", "zmin", "meta", "mode", "colorscale")}
    for part, names in (
        ("contours", ("coloring", "start", "end")),
        ("marker", ("symbol", "color")),
        ("line", ("color", "width")),
    ):
        sub = value(tr, part) if part in tr else None
        if sub is not None:
            d[part] = {n: value(sub, n) for n in names if value(sub, n) is not None}
    marker = value(tr, "marker") if "marker" in tr else None
    if marker is not None and "line" in marker:
        mline = value(marker, "line")
        if mline is not None and value(mline, "color") is not None:
            d.setdefault("marker", {})["line"] = {"color": value(mline, "color")}
    return {k: v for k, v in d.items() if v is not None}


def themed_figure(fig, name: str = DEFAULT_THEME, *, inplace: bool = False, roles=True):
    """``fig`` in the theme ``name`` (see the module docstring); frames kept as they are.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        Any figure of :mod:`svmlab.plot` (the plane, its regions, the playback, the
        curves, the panels' charts).
    name : {"light", "dark", "contrast"}
        The theme. Light returns ``fig`` itself: the figures are drawn for it.
    inplace : bool
        Restyle the ``go.Figure`` itself (fast: no copy of an animation's frames; for a
        figure the caller has just built) instead of a copy.
    roles : bool
        True for SVM Lab's own figures (the plane's shading, regions, boundary, points,
        the α bars, the curves: restyled by their roles, :mod:`svmlab.plot.look.roles`);
        False for other charts, whose trace colours carry their own meaning (only black
        lines and markers take the theme's ink).

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself with ``inplace=True`` (or the light theme), else a new figure.

    Raises
    ------
    ValueError
        If ``name`` is not a theme or ``fig`` is not a figure.
    """
    t = get_theme(name)
    if t.name == DEFAULT_THEME:
        if isinstance(fig, go.Figure | dict):
            return fig if isinstance(fig, go.Figure) else go.Figure(as_figure_dict(fig))
        raise ValueError(f"fig must be a plotly Figure or a figure dict, got {type(fig).__name__}")
    if not inplace or not isinstance(fig, go.Figure):
        fig = go.Figure(as_figure_dict(fig))
    keys = [k for k in fig.layout if k.startswith(("xaxis", "yaxis", "scene"))]
    axes = {k: {} for k in keys}
    fig.update_layout(_theme_layout({"title": {}, **axes} if fig.layout.title.text else axes, t))
    _theme_lists(fig.layout, t, roles)
    for tr in fig.data:
        d = _trace_dict(tr)
        changes = _plane_trace(d, trace_role(d), t) if roles else _chart_trace(d, t)
        if changes:
            tr.update(changes)
    return fig
