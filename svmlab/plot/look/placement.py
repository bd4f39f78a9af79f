"""Where a figure's parts go in the export presets: the compact legend, the plane's height,
an animation's controls (pure: figure dicts in, placements out; no Streamlit).

* **The compact legend** (paper and print): inside the plane, in the corner that covers
  the fewest points (each) and line vertices (a quarter each) — :func:`legend_corner`;
  other figures and animations get it in one block of rows above the plot.
* **The plane's height** (paper and print): from its axes' ratio (equal scales), so that
  the plot area fills the column's width instead of leaving bands beside it
  (:func:`plane_height`), with margins that hold the axes and no more
  (:func:`axes_margins`).
* **An animation's controls**: the play buttons, then the slider, under the x axis, clear
  of its tick labels and title (:func:`place_controls`: pixel paddings from the plot
  area's bottom, so any figure size keeps them there); side by side when the plot is
  wide enough.
"""

from __future__ import annotations

import numpy as np

from svmlab.plot.look.roles import as_array, trace_role

__all__ = [
    "CORNERS",
    "PLANE_ASPECT_LIMITS",
    "TITLE_STANDOFF",
    "axes_margins",
    "axis_clearance",
    "compact_legend",
    "controls_margin",
    "is_plane",
    "legend_corner",
    "place_controls",
    "plane_height",
]

#: Pixels between a paper plane's tick labels and its axis titles.
TITLE_STANDOFF = 3
#: A plane's height in paper and print, as a multiple of its width: at most (a tall plane
#: would be taller than a column is wide), at least (a flat one keeps room for its text).
PLANE_ASPECT_LIMITS = (0.45, 1.3)


def axis_clearance(font_px: float, ticklen: float = 5.0) -> int:
    """Pixels under the plot area that the x axis takes: its ticks, tick labels and title."""
    return round(ticklen + 3.0 * font_px + 10)


def _buttons_height(font_px: float) -> int:
    return round(1.5 * font_px + 16)


def _buttons_width(font_px: float) -> int:
    """The four play buttons' row ("▶ slow", "▶ play", "▶▶ fast", "❙❙ pause")."""
    return round(14.5 * font_px + 128)


def _slider_height(font_px: float) -> int:
    return round(2.9 * font_px + 42)


def controls_margin(font_px: float, plot_width: float | None = None) -> int:
    """Pixels an animation's controls take under the x axis at this font: the row of play
    buttons and the slider (its "t = …" above the rail, the t labels under it) — side by
    side when the plot is wide enough (``plot_width`` px), else one under the other."""
    if _side_by_side(font_px, plot_width):
        return max(_buttons_height(font_px), _slider_height(font_px))
    return _buttons_height(font_px) + _slider_height(font_px)


def _side_by_side(font_px: float, plot_width: float | None) -> bool:
    """Whether the slider keeps at least 40 % of the plot's width beside the buttons."""
    return plot_width is not None and _buttons_width(font_px) + 10 <= 0.6 * plot_width


def place_controls(
    layout: dict, font_px: float, ticklen: float = 5.0, plot_width: float | None = None
) -> int:
    """Put an animation's play buttons and slider under the x axis (in place).

    Plotly places both in the plot area's coordinates (``y = 0`` is its bottom edge); the
    pixel paddings ``pad.t`` keep them below the x axis's tick labels and title at any
    figure size. The slider goes beside the buttons when the plot (``plot_width`` px) is
    wide enough, else under them. Returns the bottom margin they need with the axis
    (:func:`axis_clearance` + :func:`controls_margin`).
    """
    below = axis_clearance(font_px, ticklen)
    beside = _side_by_side(font_px, plot_width)
    for menu in layout.get("updatemenus") or []:
        menu.update(x=0.0, xanchor="left", y=0.0, yanchor="top")
        menu["pad"] = dict(t=below, r=0, b=0, l=0)
    for slider in layout.get("sliders") or []:
        x = (_buttons_width(font_px) + 10) / plot_width if beside else 0.0
        slider.update(x=x, xanchor="left", y=0.0, yanchor="top", len=1.0 - x)
        slider["pad"] = dict(t=below if beside else below + _buttons_height(font_px), r=0, b=0, l=0)
    return below + controls_margin(font_px, plot_width)


def is_plane(layout: dict) -> bool:
    """A single plane with equal axis scales and fixed ranges (the app's planes)."""
    x, y = layout.get("xaxis") or {}, layout.get("yaxis") or {}
    return (
        y.get("scaleanchor") == "x"
        and isinstance(x.get("range"), list | tuple)
        and isinstance(y.get("range"), list | tuple)
        and not any(k.startswith(("xaxis", "yaxis")) and k[5:] for k in layout)
    )


def _legend_entries(data: list) -> list[str]:
    """The names Plotly lists in the legend (scatter traces unless hidden; others only
    when they ask for an entry)."""
    names = []
    for tr in data:
        if tr.get("visible", True) is not True:
            continue
        shown = tr.get("showlegend")
        if shown is False or (
            tr.get("type", "scatter") not in ("scatter", "scattergl", "bar") and shown is not True
        ):
            continue
        names.append(str(tr.get("name") or ""))
    return names


def _xy(tr: dict) -> np.ndarray:
    x, y = tr.get("x"), tr.get("y")
    if x is None or y is None:
        return np.empty((0, 2))
    x, y = as_array(x).astype(float).ravel(), as_array(y).astype(float).ravel()
    n = min(x.size, y.size)
    xy = np.column_stack([x[:n], y[:n]])
    return xy[np.isfinite(xy).all(axis=1)]


#: Corners tried for the compact legend, in order of preference on a tie.
CORNERS = ("top right", "top left", "bottom right", "bottom left")


def legend_corner(data: list, xrange, yrange, box: tuple[float, float]) -> str:
    """The corner of the plane where a legend of ``box`` = (width, height) as fractions
    of the plot area covers the fewest points (each) and line vertices (a quarter each).

    Parameters
    ----------
    data : list of dict
        The figure's traces (points: roles points, support, highlight; lines: boundary,
        margin, line).
    xrange, yrange : (lo, hi)
        The axes' ranges.
    box : (float, float)
        The legend's size as fractions of the plot area's width and height.

    Returns
    -------
    str
        One of :data:`CORNERS`.
    """
    (x0, x1), (y0, y1) = (float(v) for v in xrange), (float(v) for v in yrange)
    w, h = (min(max(float(v), 0.0), 1.0) for v in box)
    weights = {"points": 1.0, "support": 1.0, "highlight": 1.0}
    weights.update(boundary=0.25, margin=0.25, line=0.25)
    clouds = []
    for tr in data:
        weight = weights.get(trace_role(tr))
        if weight:
            xy = _xy(tr)
            u = (xy[:, 0] - x0) / (x1 - x0)
            v = (xy[:, 1] - y0) / (y1 - y0)
            clouds.append((u, v, weight))
    best, best_cost = CORNERS[0], np.inf
    for corner in CORNERS:
        top, right = corner.startswith("top"), corner.endswith("right")
        cost = 0.0
        for u, v, weight in clouds:
            inside_u = u >= 1 - w if right else u <= w
            inside_v = v >= 1 - h if top else v <= h
            cost += weight * float(np.count_nonzero(inside_u & inside_v))
        if cost < best_cost:
            best, best_cost = corner, cost
    return best


def compact_legend(
    layout: dict, data: list, font: dict, plot_px: tuple[float, float], *, inside: bool = True
) -> None:
    """Paper and print: the legend (in place) inside the plane's emptiest corner (a plane,
    ``inside``), or in one block of rows above the plot (other figures, animations);
    ``font`` its font (family, size in px: smaller would not help, Plotly's rows are
    ≥ 19 px), ``plot_px`` the plot area's (width, height)."""
    px = float(font["size"])
    legend = layout.setdefault("legend", {})
    legend.update(
        font=dict(font),
        itemwidth=30,  # Plotly's smallest symbol column
        tracegroupgap=0,
        bgcolor="rgba(255,255,255,0.85)",
        bordercolor="#000000",
        borderwidth=0.5,
    )
    if not (inside and is_plane(layout)):
        legend.update(orientation="h", x=0.0, xanchor="left", y=1.0, yanchor="bottom")
        return
    names = _legend_entries(data)
    # Plotly's legend: rows of ~1.35 × the font, the symbol column, the text
    width = 30 + 8 + 0.56 * px * max((len(n) for n in names), default=0) + 6
    height = len(names) * (1.35 * px + 1) + 6
    corner = legend_corner(
        data,
        layout["xaxis"]["range"],
        layout["yaxis"]["range"],
        (width / max(plot_px[0], 1.0), height / max(plot_px[1], 1.0)),
    )
    top, right = corner.startswith("top"), corner.endswith("right")
    legend.update(
        orientation="v",
        x=1.0 if right else 0.0,
        xanchor="right" if right else "left",
        y=1.0 if top else 0.0,
        yanchor="top" if top else "bottom",
        xref="paper",
        yref="paper",
    )


def axes_margins(px: float, ticklen: float) -> tuple[int, int]:
    """Left and bottom margins (px) that a plane's axes take at font ``px``: ticks, tick
    labels (up to four characters, e.g. "−0.5") and the axis title
    (:data:`TITLE_STANDOFF` from the labels), with small gaps."""
    title = 1.25 * px
    left = ticklen + 3 + 4 * 0.58 * px + TITLE_STANDOFF + title + 3
    bottom = ticklen + 3 + 1.2 * px + TITLE_STANDOFF + title + 3
    return round(left), round(bottom)


def plane_height(layout: dict, w: float, margin: tuple[int, int, int, int]) -> float:
    """The height at which a plane of width ``w`` fills its plot area (equal scales)."""
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    ml, mr, mt, mb = margin
    plot_h = (w - ml - mr) * abs(float(y1) - float(y0)) / max(abs(float(x1) - float(x0)), 1e-300)
    lo, hi = PLANE_ASPECT_LIMITS
    return min(max(plot_h + mt + mb, lo * w), hi * w)
