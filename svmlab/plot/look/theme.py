"""Screen themes of the plane: dark backgrounds and the projector (presenter mode).

Pure functions from a Plotly figure to a restyled copy (no Streamlit). The app's figures
are drawn for a white page; Streamlit's own theme switch turns the page chrome dark, and
:func:`dark_figure` makes the figures follow:

* the page colours are Streamlit's dark theme (:data:`DARK`);
* the shaded decision value fades each class colour into the dark background instead of
  into white (:func:`mix`), so the neutral f(x) = 0 is the background itself;
* the boundary, the margins and the support-vector rings, black on white, become light;
* the class colours stay Okabe & Ito's colour-blind-safe palette
  (:data:`svmlab.state.classes.CLASS_COLORS`): every one of them has a contrast ratio of at least
  3 : 1 (WCAG 2.1, 1.4.11 non-text contrast) against the dark background, and the points
  keep their marker shapes, outlined in white (dark on a light page).

:func:`projector_figure` is the presenter mode's look: the export module's ``slides``
preset (text ≥ 24 pt, lines × 2.4, markers × 1.8, no grid; :mod:`svmlab.plot.look.styles`)
sized by the page instead of 1280 × 720, light or dark. Traces are recognised by
:func:`svmlab.plot.look.roles.trace_role`, never by their order.

:func:`page_figure` is the one function that gives a figure the page's look
(:class:`PageLook`: the test points of a train/test split drawn hollow on a plane, then the
dark page or the projector): the runners call it where they build a figure, so that what
leaves them is what the page shows.

Contrast ratio (WCAG 2.1): ``(L1 + 0.05) / (L2 + 0.05)`` with ``L`` the relative luminance
of the sRGB colour, ``L1 ≥ L2`` (:func:`contrast_ratio`).
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.look.roles import trace_role
from svmlab.plot.look.styles import style_figure
from svmlab.plot.split_figure import add_test_points
from svmlab.state.classes import CLASS_COLORS

__all__ = [
    "DARK",
    "LIGHT",
    "PROJECTOR_MARGIN",
    "PageLook",
    "contrast_ratio",
    "dark_figure",
    "mix",
    "page_figure",
    "projector_figure",
    "relative_luminance",
]

#: Streamlit's dark theme: page, panels, text, grid lines, and the light "ink" that
#: replaces black lines (boundary, margins, rings).
DARK = {
    "background": "#0E1117",
    "panel": "#262730",
    "text": "#FAFAFA",
    "grid": "#31333F",
    "ink": "#F2F2F2",
}
#: The light page (``.streamlit/config.toml``'s ``[theme.light]``).
LIGHT = {"background": "#FFFFFF", "panel": "#F2F4F7", "text": "#1F2328", "ink": "#222222"}
#: How far the shading fades a class colour into the background (as the light
#: figures' tint into white, :func:`svmlab.plot.figures.shade_colorscale`).
SHADE_FADE = 0.65
REGION_FADE = 0.65
#: Plane margins (l, r, t, b) in pixels in presenter mode: room for 24 px tick labels.
PROJECTOR_MARGIN = (90, 20, 70, 80)


def _rgb(colour: str) -> tuple[int, int, int]:
    h = colour.strip().lstrip("#")
    if len(h) != 6:
        raise ValueError(f"colour must be '#rrggbb', got {colour!r}")
    try:
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    except ValueError:
        raise ValueError(f"colour must be '#rrggbb', got {colour!r}") from None


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of an sRGB ``'#rrggbb'`` colour, in [0, 1]."""

    def lin(v: int) -> float:
        c = v / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two colours, in [1, 21] (order does not matter)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def mix(colour: str, background: str, amount: float) -> str:
    """``colour`` faded towards ``background`` (amount 0 = colour, 1 = background)."""
    amount = float(amount)
    if not 0.0 <= amount <= 1.0:
        raise ValueError(f"amount must be in [0, 1], got {amount}")
    c, g = _rgb(colour), _rgb(background)
    out = [round(a + (b - a) * amount) for a, b in zip(c, g, strict=True)]
    return "#{:02x}{:02x}{:02x}".format(*out)


def _as_dict(fig) -> dict:
    if isinstance(fig, go.Figure):
        return fig.to_dict()
    if isinstance(fig, dict):
        return copy.deepcopy(fig)
    raise ValueError(f"fig must be a plotly Figure or a figure dict, got {type(fig).__name__}")


def _dark_layout(layout: dict) -> dict:
    """The layout changes for a dark page (``layout``: its title and axes, as dict keys)."""
    font = {"color": DARK["text"]}
    out = {
        "paper_bgcolor": DARK["background"],
        "plot_bgcolor": DARK["background"],
        "font": font,
        "legend": {"bgcolor": "rgba(0,0,0,0)", "font": font},
    }
    if isinstance(layout.get("title"), dict):
        out["title"] = {"font": font}
    for key, axis in layout.items():
        if (key.startswith("xaxis") or key.startswith("yaxis")) and isinstance(axis, dict):
            out[key] = dict(
                gridcolor=DARK["grid"],
                zerolinecolor=DARK["grid"],
                linecolor=DARK["text"],
                tickcolor=DARK["text"],
                tickfont=font,
            )
    return out


def _dark_lists(layout) -> None:
    """The play buttons, slider and shapes of a layout object, item by item (in place:
    re-setting the whole lists would validate every slider step again)."""
    for item in (*layout.updatemenus, *layout.sliders):
        item.update(bgcolor=DARK["panel"], font_color="#FFFFFF")
    for shape in layout.shapes:
        shape.update(line_color=DARK["ink"])


def _regions_scale(n_entries: int) -> list:
    """The multiclass regions' discrete scale (class j on [j/k, (j+1)/k)), faded into DARK."""
    k = max(n_entries // 2, 1)
    scale = []
    for j in range(k):
        col = mix(CLASS_COLORS[j % len(CLASS_COLORS)], DARK["background"], REGION_FADE)
        scale += [[j / k, col], [(j + 1) / k, col]]
    return scale


def _luminance_or_one(colour) -> float:
    """:func:`relative_luminance`, or 1.0 for anything that is not ``'#rrggbb'``."""
    try:
        return relative_luminance(colour)
    except (ValueError, AttributeError):
        return 1.0


def _dark_trace(tr: dict, role: str) -> dict:
    """The changes of one trace (given as a dict; not changed) for a dark page."""
    bg, ink = DARK["background"], DARK["ink"]
    if role == "shading":
        neg, pos = (mix(c, bg, SHADE_FADE) for c in CLASS_COLORS[:2])
        out: dict = {"colorscale": [[0.0, neg], [0.5, bg], [1.0, pos]]}
        if tr.get("type") == "contour":  # the animation's shading draws the margins too
            out["line"] = {"color": ink}
        return out
    if role == "regions":
        return {"colorscale": _regions_scale(len(tr.get("colorscale") or []))}
    if role == "ambiguity":
        grey, clear = "rgba(220,220,220,0.35)", "rgba(0,0,0,0)"  # z = 1 ambiguous, 0 not
        return {"colorscale": [[0, clear], [0.5, clear], [0.5, grey], [1, grey]]}
    if role in ("boundary", "margin"):
        return {"line": {"color": ink}}
    if role == "points":  # the outline that sets a point off the shading: white here
        return {"marker": {"line": {"color": "#FFFFFF"}}}
    if role == "support" and _luminance_or_one(tr.get("marker", {}).get("color")) < 0.2:
        return {"marker": {"color": ink, "line": {"color": ink}}}  # dark rings turn light
    if role == "bars":
        return {"marker": {"line": {"color": ink}}}
    return {}


def _trace_dict(tr) -> dict:
    """What :func:`trace_role` and :func:`_dark_trace` read of a trace object (no arrays)."""

    def value(obj, name):
        return obj[name] if name in obj and obj[name] is not None else None

    d = {k: value(tr, k) for k in ("type", "name", "zmin", "meta", "mode", "colorscale")}
    for part, names in (
        ("contours", ("coloring", "start", "end")),
        ("marker", ("symbol", "color")),
    ):
        sub = value(tr, part)
        if sub is not None:
            d[part] = {n: value(sub, n) for n in names if value(sub, n) is not None}
    return {k: v for k, v in d.items() if v is not None}


def dark_figure(fig, *, inplace: bool = False) -> go.Figure:
    """``fig`` for a dark page (see the module docstring); frames kept as they are.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        Any figure of :mod:`svmlab.plot.figures`, :mod:`svmlab.plot.regions` or
        :mod:`svmlab.plot.playback`.
    inplace : bool
        Restyle the ``go.Figure`` itself (fast: no copy of an animation's frames; for a
        figure the caller has just built) instead of a copy.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself with ``inplace=True``, else a new figure (``fig`` unchanged).
    """
    if not inplace or not isinstance(fig, go.Figure):
        fig = go.Figure(_as_dict(fig))
    axes = {k: {} for k in fig.layout if k.startswith(("xaxis", "yaxis"))}
    fig.update_layout(_dark_layout({"title": {}, **axes} if fig.layout.title.text else axes))
    _dark_lists(fig.layout)
    for tr in fig.data:
        changes = _dark_trace(_trace_dict(tr), trace_role(_trace_dict(tr)))
        if changes:
            tr.update(changes)
    return fig


def projector_figure(fig, *, dark: bool = False) -> go.Figure:
    """The presenter mode's plane: large text, thick lines and markers, high contrast.

    The export ``slides`` preset (:func:`svmlab.export.style_figure`) without its fixed
    1280 × 720 size (the page sizes the plane), with :data:`PROJECTOR_MARGIN`; dark with
    ``dark=True``. Always a new figure.
    """
    out = style_figure(fig if isinstance(fig, go.Figure) else go.Figure(_as_dict(fig)), "slides")
    ml, mr, mt, mb = PROJECTOR_MARGIN
    out.update_layout(width=None, height=None, margin=dict(l=ml, r=mr, t=mt, b=mb))
    if dark:
        return dark_figure(out, inplace=True)
    # the slides preset's dark grey text, made black: a projector washes grey out
    return out.update_layout(font_color="#000000")


@dataclass(frozen=True, eq=False)
class PageLook:
    """How the page shows its figures.

    Parameters
    ----------
    dark : bool
        The page is dark (Streamlit's theme switch): :func:`dark_figure`.
    projector : bool
        Presenter mode: :func:`projector_figure` (dark too when ``dark``).
    test_X, test_y : array_like, optional
        The test points of a train/test split (drawn hollow on planes), with their labels
        on a page of ``n_classes`` classes.
    n_classes : int
        The classes of the page the test labels belong to.
    """

    dark: bool = False
    projector: bool = False
    test_X: np.ndarray | None = None
    test_y: np.ndarray | None = None
    n_classes: int = 2

    @cached_property
    def key(self) -> str:
        """A short text naming this look (for the caches of the finished figures)."""
        h = hashlib.blake2b(digest_size=8)
        if self.test_X is not None:
            h.update(np.ascontiguousarray(self.test_X, dtype=float).tobytes())
            h.update(np.ascontiguousarray(self.test_y, dtype=float).tobytes())
        return f"d{int(self.dark)}p{int(self.projector)}k{self.n_classes}t{h.hexdigest()}"

    @property
    def plain(self) -> bool:
        """Whether figures leave unchanged (a light page, no projector, no test points)."""
        return not (self.dark or self.projector or self.test_X is not None)


def page_figure(fig, look: PageLook | None, *, plane: bool = False, inplace: bool = False):
    """``fig`` in the page's ``look``: the one place a figure gets it.

    On a plane (``plane=True``) the look's test points are drawn hollow
    (:func:`svmlab.plot.split_figure.add_test_points`); then the projector's style
    (:func:`projector_figure`) in presenter mode, else :func:`dark_figure` on a dark page.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        The figure as built (a plane, the α bars, the curves, an animation).
    look : PageLook or None
        The page's look; None: ``fig`` unchanged.
    plane : bool
        ``fig`` is a plane of the points (the test points go on it).
    inplace : bool
        Change the ``go.Figure`` itself (for a figure the caller has just built or copied)
        instead of a copy.

    Returns
    -------
    plotly.graph_objects.Figure or dict
        ``fig`` itself when the look changes nothing (or with ``inplace=True``), else a
        restyled copy.
    """
    if look is None or look.plain:
        return fig
    if look.test_X is not None and plane:
        if not (inplace and isinstance(fig, go.Figure)):
            fig = go.Figure(_as_dict(fig), _validate=False)
            inplace = True
        add_test_points(fig, look.test_X, look.test_y, n_classes=look.n_classes)
    if look.projector:
        return projector_figure(fig, dark=look.dark)
    if look.dark:
        return dark_figure(fig, inplace=inplace)
    return fig
