"""Style presets for exported figures: screen, slides, paper and print (grayscale).

:func:`style_figure` returns a restyled copy of any figure the app builds (the plane,
the curves, the α bars, the multiclass regions, the playback animation with its frames);
the traces are recognised by :func:`svmlab.plot.look.roles.trace_role`. Sizes are CSS pixels
(96 per inch), so that a PDF page or an SVG of ``w`` px is ``w / 96`` inches wide and a
font of ``s`` px is ``s · 72 / 96`` pt: 24 pt = 32 px.

=========  ================  ==========  ====================================================
preset     size              text        what changes
=========  ================  ==========  ====================================================
screen     700 × figure's    10.5 pt     the app's look, fixed export size
slides     1280 × 720        ≥ 24 pt     lines × 2.4, markers × 1.8, no grid or zero lines
paper      3.5 in or 7 in    8 pt sans   thin lines, small markers, shading as filled
                                         contours (vector paths, no embedded image), a
                                         compact legend inside the plane
print      as paper          8 pt sans   paper + grayscale: classes by marker shape, lines
                                         by dash style, shading a light-to-dark grey ramp
=========  ================  ==========  ====================================================

Paper and print keep the plot large in a column: a compact legend inside the plane and a
plane's height from its axes' ratio; an animation's play buttons and slider go under the x
axis, clear of its tick labels and title (:mod:`svmlab.plot.look.placement`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.look.placement import (
    TITLE_STANDOFF,
    axes_margins,
    axis_clearance,
    compact_legend,
    controls_margin,
    is_plane,
    legend_corner,
    place_controls,
    plane_height,
)
from svmlab.plot.look.plain import DEFAULT_HEIGHT, DEFAULT_WIDTH, plain_figure
from svmlab.plot.look.roles import as_array, point_class, trace_role
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS

__all__ = [
    "COLUMN_WIDTHS_IN",
    "PRESETS",
    "PX_PER_IN",
    "PX_PER_PT",
    "Preset",
    "axis_clearance",
    "controls_margin",
    "legend_corner",
    "place_controls",
    "style_figure",
]

PX_PER_IN = 96.0
PX_PER_PT = PX_PER_IN / 72.0
#: Paper column widths in inches, for ``width="single"`` / ``"double"``.
COLUMN_WIDTHS_IN = {"single": 3.5, "double": 7.0}
SANS = "Liberation Sans, Arial, Helvetica, DejaVu Sans, sans-serif"
#: Grayscale markers: classes differ by shape (CLASS_SYMBOLS), these keep them dark.
GRAY_MARKERS = ("#000000", "#3c3c3c")
#: Dash styles of successive lines within one subplot (print preset).
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
#: The shading in grey: negative f light, positive f dark (the boundary marks f = 0).
GRAY_SHADE = [[0.0, "#ffffff"], [0.5, "#e0e0e0"], [1.0, "#a8a8a8"]]


@dataclass(frozen=True)
class Preset:
    """Sizes of one style preset (fonts in pt, sizes in px, scales relative to the app)."""

    name: str
    font_pt: float
    title_pt: float
    width: float
    height: float | None  # None: width × the figure's aspect ratio
    line_scale: float
    marker_scale: float
    margin: tuple[int, int, int, int]  # l, r, t, b in px
    grid: bool = True
    vector: bool = False  # shading as filled contours instead of a heatmap image
    grayscale: bool = False
    family: str = SANS
    compact_legend: bool = False  # the legend inside the plane, the plane's aspect kept


PRESETS: dict[str, Preset] = {
    "screen": Preset("screen", 10.5, 12, DEFAULT_WIDTH, None, 1.0, 1.0, (50, 10, 60, 45)),
    "slides": Preset("slides", 24, 28, 1280, 720, 2.4, 1.8, (110, 30, 110, 100), grid=False),
    "paper": Preset(
        "paper", 8, 9, 336, None, 0.6, 0.55, (38, 6, 30, 30), False, True, compact_legend=True
    ),
    "print": Preset(
        "print", 8, 9, 336, None, 0.7, 0.6, (38, 6, 30, 30), False, True, True, compact_legend=True
    ),
}


def _width_px(preset: Preset, width) -> float:
    if width is None:
        return preset.width
    if isinstance(width, str):
        if width not in COLUMN_WIDTHS_IN:
            raise ValueError(f"width must be 'single', 'double' or pixels > 0, got {width!r}")
        return COLUMN_WIDTHS_IN[width] * PX_PER_IN
    w = float(width)
    if not (np.isfinite(w) and 50 <= w <= 10000):
        raise ValueError(f"width must be 'single', 'double' or pixels in [50, 10000], got {w}")
    return w


def _scaled(value, factor: float, minimum: float = 0.0):
    if value is None:
        return None
    a = np.maximum(as_array(value).astype(float) * factor, minimum)
    return float(a) if a.ndim == 0 else a


def _tint_gray(hex_colour: str) -> str:
    """The luminance of a colour as a light grey (for bars and class regions)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    v = round(150 + (lum / 255) * 95)
    return f"#{v:02x}{v:02x}{v:02x}"


def _style_layout(
    layout: dict, p: Preset, width, *, legend: bool, ticks: bool, data: list | None = None
) -> None:
    w = _width_px(p, width)
    px, title_px = p.font_pt * PX_PER_PT, p.title_pt * PX_PER_PT
    title = layout.get("title")
    has_title = isinstance(title, dict) and bool(title.get("text"))
    ticklen = 3 * p.line_scale + 2
    ml, mr, mt, mb = p.margin
    compact = p.compact_legend and legend and layout.get("showlegend", True) is not False
    # inside the plane; an animation's legend stays above it, where its frames' renderer
    # without a browser (svmlab/export/raster.py) draws legends
    inside = p.compact_legend and is_plane(layout) and not layout.get("sliders")
    if inside:
        # the top margin holds the title only (or the half of the top tick label that
        # sticks out)
        mt = round(1.7 * title_px) if has_title else 8
    elif not (has_title or legend):
        mt = mt // 3
    if p.compact_legend and is_plane(layout):  # the margins the axes take, no more
        ml, mb = axes_margins(px, ticklen)
    controls = 0
    if layout.get("sliders"):
        controls = place_controls(layout, px, ticklen, plot_width=w - ml - mr)
    mb = max(mb, controls)
    if p.height is not None and width is None:
        h = p.height
    elif p.compact_legend and is_plane(layout):
        h = plane_height(layout, w, (ml, mr, mt, mb))
    else:
        aspect = (layout.get("height") or DEFAULT_HEIGHT) / (layout.get("width") or DEFAULT_WIDTH)
        h = w * (aspect if p.name == "screen" else min(max(aspect, 0.6), 1.0))
    font = dict(family=p.family, size=px, color="#000000" if p.grayscale else "#222222")
    layout.update(width=round(w), height=round(h), font=font, colorway=list(CLASS_COLORS))
    if has_title:
        title["font"] = dict(family=p.family, size=title_px)
    layout["margin"] = dict(l=ml, r=mr, t=mt, b=mb)
    layout["showlegend"] = bool(legend) and layout.get("showlegend", True) is not False
    layout.setdefault("legend", {})["font"] = dict(family=p.family, size=px)
    if compact:
        font = dict(family=p.family, size=px)
        compact_legend(layout, data or [], font, (w - ml - mr, h - mt - mb), inside=inside)
    for ann in layout.get("annotations", []):
        ann["font"] = dict(family=p.family, size=px)
    for menu in layout.get("updatemenus", []):
        menu["font"] = dict(family=p.family, size=px)
    for slider in layout.get("sliders", []):
        slider["font"] = dict(family=p.family, size=px)
        slider.setdefault("currentvalue", {})["font"] = dict(family=p.family, size=px)
    for key, axis in layout.items():
        if not (key.startswith("xaxis") or key.startswith("yaxis")) or not isinstance(axis, dict):
            continue
        axis["tickfont"] = dict(family=p.family, size=px)
        axis_title = axis.get("title")
        if isinstance(axis_title, str):
            axis["title"] = axis_title = {"text": axis_title}
        if isinstance(axis_title, dict):
            axis_title["font"] = dict(family=p.family, size=px)
            if p.compact_legend and is_plane(layout):
                axis_title["standoff"] = TITLE_STANDOFF
        if not p.grid:
            axis.update(showgrid=False, zeroline=False)
            if axis.get("type") == "log":  # decades only: the small 2/5 labels are clutter
                axis["dtick"] = 1
        axis.update(showline=True, linecolor="#000000", linewidth=max(1.0, p.line_scale * 0.8))
        if not ticks:
            axis.update(showticklabels=False, ticks="")
        else:
            axis.update(ticks="outside", ticklen=ticklen, tickwidth=p.line_scale)


def _shading(tr: dict, p: Preset, shading: bool) -> dict:
    if not shading:
        if tr["type"] == "contour":  # the animation's shading also draws the margins
            tr.setdefault("contours", {})["coloring"] = "none"
            tr["showscale"] = False
            return _lines(tr, p, 1.2, "dash")
        tr["visible"] = False
        return tr
    if p.grayscale:
        tr["colorscale"] = GRAY_SHADE
    if tr["type"] == "contour":
        return _lines(tr, p, 1.2, "dash")
    if p.vector:  # filled contour bands: vector paths in SVG/PDF, no embedded image
        lo, hi = tr.get("zmin", -2.0), tr.get("zmax", 2.0)
        tr = {k: v for k, v in tr.items() if k not in ("zsmooth", "hovertemplate")}
        tr.update(
            type="contour",
            contours=dict(start=lo, end=hi, size=(hi - lo) / 16, coloring="fill", showlines=False),
            line=dict(width=0),
            hoverinfo="skip",
        )
    return tr


def _get_dash(tr: dict) -> str | None:
    line = tr.get("line")
    return line.get("dash") if isinstance(line, dict) else None


def _lines(tr: dict, p: Preset, base_width: float, dash: str | None) -> dict:
    line = tr.setdefault("line", {})
    line["width"] = max(line.get("width", base_width), base_width) * p.line_scale
    if p.grayscale:
        line["color"] = "#000000"
    if dash is not None:
        line["dash"] = dash
    return tr


def _markers(tr: dict, p: Preset, minimum: float) -> dict:
    marker = tr.setdefault("marker", {})
    marker["size"] = _scaled(marker.get("size", 9.0), p.marker_scale, minimum)
    line = marker.setdefault("line", {})
    line["width"] = (line.get("width") or 1.0) * max(p.line_scale, 0.8)
    return tr


def _style_trace(tr: dict, role: str, cls: int | None, p: Preset, state: dict, shading: bool):
    if role == "shading":
        return _shading(tr, p, shading)
    if role in ("regions", "ambiguity"):
        if not shading:
            tr["visible"] = False
        elif p.grayscale and role == "regions":
            tr["colorscale"] = [[s, _tint_gray(c)] for s, c in tr.get("colorscale", [])]
        return tr
    if role == "boundary":  # another iterate's boundary (the convergence toggle) stays dashed
        return _lines(tr, p, 2.5, _get_dash(tr) or "solid")
    if role == "margin":
        return _lines(tr, p, 1.2, "dash")
    if role == "points":
        tr = _markers(tr, p, 4.0 if p.name != "slides" else 16.0)
        if p.grayscale:
            tr["marker"].update(
                color=GRAY_MARKERS[cls % 2], symbol=CLASS_SYMBOLS[cls % len(CLASS_SYMBOLS)]
            )
        return tr
    if role in ("support", "highlight"):
        tr = _markers(tr, p, 8.0)
        if p.grayscale and role == "highlight":
            tr["marker"].update(symbol="diamond-open", color="#000000")
            tr["marker"]["line"]["color"] = "#000000"
        return tr
    if role == "line":
        axes = (tr.get("xaxis", "x"), tr.get("yaxis", "y"))
        n = state.setdefault(axes, 0)
        state[axes] = n + 1
        tr = _lines(tr, p, 2.0, DASHES[n % len(DASHES)] if p.grayscale else None)
        if p.grayscale:
            tr["line"]["color"] = ("#000000", "#555555", "#888888")[n % 3]
        return tr
    if role == "bars" and p.grayscale:
        colors = np.atleast_1d(as_array(tr.get("marker", {}).get("color", CLASS_COLORS[0])))
        idx = [CLASS_COLORS.index(c) if c in CLASS_COLORS else 0 for c in colors]
        tr["marker"]["color"] = [_tint_gray(CLASS_COLORS[j]) for j in idx]
        tr["marker"]["pattern"] = dict(shape=[("", "/", "x", ".", "-", "+")[j] for j in idx])
        tr["marker"].setdefault("line", {})["color"] = "#000000"
    return tr


def style_figure(fig, preset: str = "screen", *, shading=True, legend=True, ticks=True, width=None):
    """A restyled copy of ``fig`` for one use: ``"screen"``, ``"slides"``, ``"paper"``, ``"print"``.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        Any figure of :mod:`svmlab.plot.figures` or :mod:`svmlab.plot.playback` (frames included).
    preset : {"screen", "slides", "paper", "print"}
        See the module docstring; ``print`` is grayscale.
    shading, legend, ticks : bool
        False hides the shaded decision values (heatmaps; the animation keeps its margin
        lines), the legend, or the axes' tick marks and labels.
    width : {"single", "double"}, float or None
        The figure's width: a paper column (3.5 in or 7 in) or pixels; None gives the
        preset's own (paper and print: single column). The height follows the figure's
        aspect ratio (slides: 720 px unless a width is given).

    Returns
    -------
    plotly.graph_objects.Figure
        A new figure (``fig`` is unchanged), its LaTeX text made plain Unicode.

    Raises
    ------
    ValueError
        If ``preset`` or ``width`` is not one of the values above.
    """
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {sorted(PRESETS)}, got {preset!r}")
    p = PRESETS[preset]
    d = plain_figure(fig)
    data = d.get("data", [])
    _style_layout(d.setdefault("layout", {}), p, width, legend=legend, ticks=ticks, data=data)
    roles = [trace_role(tr) for tr in data]
    classes, order = [], 0
    for tr, role in zip(data, roles, strict=True):
        classes.append(point_class(tr, order) if role == "points" else None)
        order += role == "points"
    state: dict = {}
    d["data"] = [
        _style_trace(tr, role, cls, p, state, shading)
        for tr, role, cls in zip(data, roles, classes, strict=True)
    ]
    min_size = 4.0 if p.name != "slides" else 16.0
    for frame in d.get("frames", []):
        ids = frame.get("traces") or range(len(frame.get("data", [])))
        for tid, ftr in zip(ids, frame.get("data", []), strict=False):
            size = ftr.get("marker", {}).get("size") if isinstance(ftr, dict) else None
            if tid < len(roles) and roles[tid] == "points" and size is not None:
                ftr["marker"]["size"] = _scaled(size, p.marker_scale, min_size)
    return go.Figure(d)
