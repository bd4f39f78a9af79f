"""The page's themes: light, dark and a high-contrast projector theme, for the figures.

Pure functions from a Plotly figure to a restyled copy (no Streamlit). The app's figures
are drawn for the light page; :func:`themed_figure` gives them the look of the theme the
page shows (:data:`THEMES`, chosen in the app and kept in the share link: see
:mod:`svmlab.ui.themes`, which also gives the page itself the theme's colours):

* **light** — the figures as drawn (Streamlit's light colours, ``.streamlit/config.toml``);
* **dark** — Streamlit's dark colours (:data:`DARK`): the shaded decision value fades
  each class colour into the dark background instead of into white (:func:`mix`), so the
  neutral f(x) = 0 is the background itself; the boundary, the margins and the
  support-vector rings, black on white, become light, and the points' dark outline white;
* **contrast** — a projector in a lit room washes out greys and pale tints: black text on
  white, every text colour at least 7 : 1 against its background (WCAG 2.1 AAA, 1.4.6;
  ``tests/app/plot/test_theme_contrast.py`` computes the ratios), lines 1.5 × thicker
  and black, the points outlined in black, the shading less faded.

In every theme the class colours stay Okabe & Ito's colour-blind-safe palette
(:data:`svmlab.state.classes.CLASS_COLORS`) with their marker shapes; each has a contrast
ratio of at least 3 : 1 (WCAG 2.1, 1.4.11 non-text contrast) against the dark background.

:func:`projector_figure` is the presenter mode's look: the export module's ``slides``
preset (text ≥ 24 pt, lines × 2.4, markers × 1.8, no grid; :mod:`svmlab.plot.look.styles`)
sized by the page instead of 1280 × 720, in the page's theme. The restyling itself is
:mod:`svmlab.plot.look.restyle` (traces recognised by their roles, never by their order;
the panels' other charts keep their trace colours).

:func:`page_figure` is the one function that gives a figure the page's look
(:class:`PageLook`: the test points of a train/test split drawn hollow on a plane, then the
projector in presenter mode and the page's theme): the runners call it where they build a
figure, so that what leaves them is what the page shows.

Contrast ratio (WCAG 2.1): ``(L1 + 0.05) / (L2 + 0.05)`` with ``L`` the relative luminance
of the sRGB colour, ``L1 ≥ L2`` (:func:`contrast_ratio`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np
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
)
from svmlab.plot.look.restyle import as_figure_dict, themed_figure
from svmlab.plot.look.styles import style_figure
from svmlab.plot.split_figure import add_test_points

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
    "PageLook",
    "Theme",
    "contrast_ratio",
    "dark_figure",
    "get_theme",
    "mix",
    "page_figure",
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
    out = fig if isinstance(fig, go.Figure) else go.Figure(as_figure_dict(fig))
    out = style_figure(out, "slides")
    ml, mr, mt, mb = PROJECTOR_MARGIN
    out.update_layout(width=None, height=None, margin=dict(l=ml, r=mr, t=mt, b=mb))
    if not get_theme(name).dark:
        # the slides preset's dark grey text, made black: a projector washes grey out
        out.update_layout(font_color="#000000")
    return themed_figure(out, name, inplace=True)


def screen_figure(
    fig, *, dark: bool = False, projector: bool = False, theme: str | None = None, **kwargs
):
    """``fig`` in the theme ``theme`` (or dark with ``dark=True``): :func:`themed_figure`,
    or :func:`projector_figure` in presenter mode. ``kwargs`` (``inplace``, ``roles``) go to
    :func:`themed_figure`."""
    name = theme or ("dark" if dark else DEFAULT_THEME)
    if projector:
        return projector_figure(fig, theme=name)
    return themed_figure(fig, name, **kwargs)


@dataclass(frozen=True, eq=False)
class PageLook:
    """How the page shows its figures.

    Parameters
    ----------
    dark : bool
        A dark page (the theme "dark" unless ``theme`` says otherwise).
    projector : bool
        Presenter mode: :func:`projector_figure` in the page's theme.
    test_X, test_y : array_like, optional
        The test points of a train/test split (drawn hollow on planes), with their labels
        on a page of ``n_classes`` classes.
    n_classes : int
        The classes of the page the test labels belong to.
    theme : {"light", "dark", "contrast"}, optional
        The page's theme (:mod:`svmlab.ui.themes`); None: dark if ``dark``, else light.
    """

    dark: bool = False
    projector: bool = False
    test_X: np.ndarray | None = None
    test_y: np.ndarray | None = None
    n_classes: int = 2
    theme: str | None = None

    def __post_init__(self):
        if self.theme is not None:
            get_theme(self.theme)  # ValueError naming the themes

    @property
    def theme_name(self) -> str:
        """The theme the figures take."""
        return self.theme or ("dark" if self.dark else DEFAULT_THEME)

    @cached_property
    def key(self) -> str:
        """A short text naming this look (for the caches of the finished figures)."""
        h = hashlib.blake2b(digest_size=8)
        if self.test_X is not None:
            h.update(np.ascontiguousarray(self.test_X, dtype=float).tobytes())
            h.update(np.ascontiguousarray(self.test_y, dtype=float).tobytes())
        name = self.theme_name
        return f"{name}p{int(self.projector)}k{self.n_classes}t{h.hexdigest()}"

    @property
    def plain(self) -> bool:
        """Whether figures leave unchanged (a light page, no projector, no test points)."""
        light = self.theme_name == DEFAULT_THEME
        return light and not (self.projector or self.test_X is not None)


def page_figure(
    fig, look: PageLook | None, *, plane: bool = False, inplace: bool = False, roles=True
):
    """``fig`` in the page's ``look``: the one place a figure gets it.

    On a plane (``plane=True``) the look's test points are drawn hollow
    (:func:`svmlab.plot.split_figure.add_test_points`); then the projector's style
    (:func:`projector_figure`) in presenter mode, and the page's theme
    (:func:`themed_figure`).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
        The figure as built (a plane, the α bars, the curves, an animation, a chart).
    look : PageLook or None
        The page's look; None: ``fig`` unchanged.
    plane : bool
        ``fig`` is a plane of the points (the test points go on it).
    inplace : bool
        Change the ``go.Figure`` itself (for a figure the caller has just built or copied)
        instead of a copy.
    roles : bool
        SVM Lab's own figures (restyled by their traces' roles); False for the panels'
        other charts (their trace colours kept, :func:`themed_figure`; no projector).

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
            fig = go.Figure(as_figure_dict(fig), _validate=False)
            inplace = True
        add_test_points(fig, look.test_X, look.test_y, n_classes=look.n_classes)
    if look.projector and roles:
        return projector_figure(fig, theme=look.theme_name)
    if look.theme_name == DEFAULT_THEME:
        return fig
    return themed_figure(fig, look.theme_name, inplace=inplace, roles=roles)
