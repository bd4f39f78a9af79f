"""The page's themes: light, dark and a high-contrast projector theme, for the figures.

Pure functions from a Plotly figure to a restyled copy (no Streamlit). The app's figures
are drawn for the light page; :func:`themed_figure` gives them the look of the theme the
page shows (:data:`THEMES`, chosen in the app and kept in the share link: see
:mod:`svmlab.ui.themes`, which also gives the page itself the theme's colours):

* **light** — the figures as drawn (Streamlit's light colours, ``.streamlit/config.toml``);
* **dark** — Streamlit's dark colours (:data:`DARK`): the shaded decision value fades
  each class colour into the dark background instead of into white (:func:`mix`), so the
  neutral f(x) = 0 is the background itself; the boundary, the margins and the
  support-vector rings, black on white, become light;
* **contrast** — a projector in a lit room washes out greys and pale tints: black text on
  white, every text colour at least 7 : 1 against its background (WCAG 2.1 AAA, 1.4.6;
  ``tests/app/plot/test_theme_contrast.py`` computes the ratios), lines 1.5 × thicker
  and black, the points outlined in black, the shading less faded.

In every theme the class colours stay Okabe & Ito's colour-blind-safe palette
(:data:`svmlab.state.classes.CLASS_COLORS`) with their marker shapes; each has a contrast
ratio of at least 3 : 1 (WCAG 2.1, 1.4.11 non-text contrast) against the dark background.

:func:`projector_figure` is the presenter mode's look: the export module's ``slides``
preset (text ≥ 24 pt, lines × 2.4, markers × 1.8, no grid; :mod:`svmlab.plot.look.styles`)
sized by the page instead of 1280 × 720, in the page's theme. Traces are recognised by
:func:`svmlab.plot.look.roles.trace_role`, never by their order; figures that are not the
plane (curves, panels' charts: ``plane=False``) get the theme's page colours and their
black lines made the theme's ink, their other colours kept.

Contrast ratio (WCAG 2.1): ``(L1 + 0.05) / (L2 + 0.05)`` with ``L`` the relative luminance
of the sRGB colour, ``L1 ≥ L2`` (:func:`contrast_ratio`).
"""

from __future__ import annotations

import copy

import plotly.graph_objects as go

from svmlab.plot.look.palettes import (
    CONTRAST_THEME,
    DARK_THEME,
    DEFAULT_THEME,
    LIGHT_THEME,
    THEMES,
    Theme,
    contrast_ratio,
    get_theme,
    mix,
    relative_luminance,
    rgb,
)
from svmlab.plot.look.roles import trace_role
from svmlab.plot.look.styles import style_figure
from svmlab.state.classes import CLASS_COLORS

__all__ = [
    "CONTRAST",
    "CONTRAST_THEME",
    "DARK",
    "DARK_THEME",
    "DEFAULT_THEME",
    "LIGHT",
    "LIGHT_THEME",
    "PROJECTOR_MARGIN",
    "THEMES",
    "Theme",
    "contrast_ratio",
    "dark_figure",
    "get_theme",
    "mix",
    "projector_figure",
    "relative_luminance",
    "screen_figure",
    "themed_figure",
]


#: The dark theme's colours as a dict (page, panels, text, grid lines, and the light
#: "ink" that replaces black lines: boundary, margins, rings).
DARK = {
    "background": DARK_THEME.background,
    "panel": DARK_THEME.panel,
    "text": DARK_THEME.text,
    "grid": DARK_THEME.grid,
    "ink": DARK_THEME.ink,
}
#: The light page's.
LIGHT = {
    "background": LIGHT_THEME.background,
    "panel": LIGHT_THEME.panel,
    "text": LIGHT_THEME.text,
    "ink": LIGHT_THEME.ink,
}
#: The high-contrast theme's.
CONTRAST = {
    "background": CONTRAST_THEME.background,
    "panel": CONTRAST_THEME.panel,
    "text": CONTRAST_THEME.text,
    "grid": CONTRAST_THEME.grid,
    "ink": CONTRAST_THEME.ink,
}
#: How far the dark shading fades a class colour into the background (as the light
#: figures' tint into white, :func:`svmlab.plot.figures.shade_colorscale`).
SHADE_FADE = DARK_THEME.shade_fade
REGION_FADE = DARK_THEME.region_fade
#: Plane margins (l, r, t, b) in pixels in presenter mode: room for 24 px tick labels.
PROJECTOR_MARGIN = (90, 20, 70, 80)


def _as_dict(fig) -> dict:
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


def _regions_scale(n_entries: int, t: Theme = None) -> list:
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
        return {"colorscale": _regions_scale(len(tr.get("colorscale") or []), t)}
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
    if role == "points" and t.outline is not None:
        return {"marker": {"line": {"color": t.outline, "width": 1.2}}}
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


def themed_figure(fig, name: str = DEFAULT_THEME, *, inplace: bool = False, plane=True):
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
    plane : bool
        True for the plane's figures (shading, regions, boundary, points: the roles of
        :mod:`svmlab.plot.look.roles`); False for other charts, whose trace colours carry
        their own meaning (only black lines and markers take the theme's ink).

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
            return fig if isinstance(fig, go.Figure) else go.Figure(_as_dict(fig))
        raise ValueError(f"fig must be a plotly Figure or a figure dict, got {type(fig).__name__}")
    if not inplace or not isinstance(fig, go.Figure):
        fig = go.Figure(_as_dict(fig))
    keys = [k for k in fig.layout if k.startswith(("xaxis", "yaxis", "scene"))]
    axes = {k: {} for k in keys}
    fig.update_layout(_theme_layout({"title": {}, **axes} if fig.layout.title.text else axes, t))
    _theme_lists(fig.layout, t, plane)
    for tr in fig.data:
        d = _trace_dict(tr)
        changes = _plane_trace(d, trace_role(d), t) if plane else _chart_trace(d, t)
        if changes:
            tr.update(changes)
    return fig


def dark_figure(fig, *, inplace: bool = False) -> go.Figure:
    """``fig`` for the dark page: :func:`themed_figure` with ``"dark"``.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        Any figure of :mod:`svmlab.plot.figures`, :mod:`svmlab.plot.regions` or
        :mod:`svmlab.plot.playback`.
    inplace : bool
        Restyle the ``go.Figure`` itself instead of a copy.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself with ``inplace=True``, else a new figure (``fig`` unchanged).
    """
    return themed_figure(fig, "dark", inplace=inplace)


def projector_figure(fig, *, dark: bool = False, theme: str | None = None) -> go.Figure:
    """The presenter mode's plane: large text, thick lines and markers, high contrast.

    The export ``slides`` preset (:func:`svmlab.export.style_figure`) without its fixed
    1280 × 720 size (the page sizes the plane), with :data:`PROJECTOR_MARGIN`, in the
    theme ``theme`` (or dark with ``dark=True``, else light). Always a new figure.
    """
    name = theme or ("dark" if dark else DEFAULT_THEME)
    get_theme(name)  # a bad name is refused before any work
    out = style_figure(fig if isinstance(fig, go.Figure) else go.Figure(_as_dict(fig)), "slides")
    ml, mr, mt, mb = PROJECTOR_MARGIN
    out.update_layout(width=None, height=None, margin=dict(l=ml, r=mr, t=mt, b=mb))
    if get_theme(name).dark:
        return themed_figure(out, name, inplace=True)
    # the slides preset's dark grey text, made black: a projector washes grey out
    out.update_layout(font_color="#000000")
    return themed_figure(out, name, inplace=True) if name != DEFAULT_THEME else out


def screen_figure(
    fig, *, dark: bool = False, projector: bool = False, theme: str | None = None, **kwargs
):
    """``fig`` for the page's look: :func:`themed_figure` in ``theme`` (or dark with
    ``dark=True``), or :func:`projector_figure` in presenter mode. ``kwargs``
    (``inplace``, ``plane``) go to :func:`themed_figure`."""
    name = theme or ("dark" if dark else DEFAULT_THEME)
    if projector:
        return projector_figure(fig, theme=name)
    return themed_figure(fig, name, **kwargs)
