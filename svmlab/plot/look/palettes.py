"""The colours of the page's themes (light, dark, high contrast) and the WCAG colour maths.

A :class:`Theme` holds what the page (:mod:`svmlab.ui.themes`) and its figures
(:mod:`svmlab.plot.look.theme`) need: backgrounds, text, accents, the figures' grid and
ink. Light and dark are Streamlit's colours of ``.streamlit/config.toml``; the
high-contrast projector theme keeps every text colour at least 7 : 1 against its
backgrounds (WCAG 2.1 AAA, 1.4.6).

Contrast ratio (WCAG 2.1): ``(L1 + 0.05) / (L2 + 0.05)`` with ``L`` the relative luminance
of the sRGB colour, ``L1 ≥ L2`` (:func:`contrast_ratio`).
"""

from __future__ import annotations

from dataclasses import dataclass

from svmlab.state.labstate import THEMES

__all__ = [
    "CONTRAST_THEME",
    "DARK_THEME",
    "DEFAULT_THEME",
    "LIGHT_THEME",
    "THEMES",
    "THEME_BY_NAME",
    "Theme",
    "contrast_ratio",
    "get_theme",
    "mix",
    "relative_luminance",
    "rgb",
]


@dataclass(frozen=True)
class Theme:
    """The colours of one theme, for the page (:mod:`svmlab.ui.themes`) and its figures.

    Attributes
    ----------
    name, label : str
        The theme's key (in the share link) and its name in the app.
    dark : bool
        Light text on a dark background.
    background, panel, raised : str
        The page and the plots; the sidebar and input fields; buttons, code and
        expander headers.
    text, muted : str
        Body text; captions and help (both readable on all three backgrounds).
    border : str
        Input, button and table borders.
    primary, link, on_primary : str
        The accent (sliders, toggles, selected options), text in the accent colour
        (links, the slider's value), and text on an accent-coloured button.
    grid, ink : str
        The figures' grid lines, and their lines (boundary, margins, rings).
    shade_fade, region_fade : float
        How far the shading and the multiclass regions fade the class colours into the
        background (0: the colour, 1: the background).
    line_scale : float
        The figures' boundary, margin and ring widths, relative to the light figures.
    outline : str or None
        The points' outline (None: as drawn, dark on the light page).
    outline_width : float or None
        Its width in px (None: as drawn).
    alerts : dict of str to (str, str)
        Text and background of the info, success, warning and error boxes.
    """

    name: str
    label: str
    dark: bool
    background: str
    panel: str
    raised: str
    text: str
    muted: str
    border: str
    primary: str
    link: str
    on_primary: str
    grid: str
    ink: str
    shade_fade: float = 0.65
    region_fade: float = 0.65
    line_scale: float = 1.0
    outline: str | None = None
    outline_width: float | None = None
    alerts: tuple[tuple[str, str, str], ...] = ()

    def colours(self) -> dict[str, str]:
        """Every colour of the theme by its attribute name (alerts as ``<kind>_text``/``_bg``)."""
        out = {
            k: getattr(self, k)
            for k in (
                "background",
                "panel",
                "raised",
                "text",
                "muted",
                "border",
                "primary",
                "link",
                "on_primary",
                "grid",
                "ink",
            )
        }
        for kind, fg, bg in self.alerts:
            out[f"{kind}_text"], out[f"{kind}_bg"] = fg, bg
        return out


#: Streamlit's light theme (``.streamlit/config.toml``'s ``[theme.light]``).
LIGHT_THEME = Theme(
    "light",
    "Light",
    False,
    background="#FFFFFF",
    panel="#F2F4F7",
    raised="#F9FAFB",
    text="#1F2328",
    muted="#59636E",
    border="#C9CED6",
    primary="#0072B2",
    link="#0069A6",
    on_primary="#FFFFFF",
    grid="#EBF0F8",
    ink="#222222",
    shade_fade=0.55,
    region_fade=0.6,
    alerts=(
        ("info", "#244FB4", "#EDF5FF"),
        ("success", "#0C5A44", "#F1FBF6"),
        ("warning", "#7A5709", "#FFFAE5"),
        ("error", "#9E303B", "#FFF1F2"),
    ),
)
#: Streamlit's dark theme (``[theme.dark]``).
DARK_THEME = Theme(
    "dark",
    "Dark",
    True,
    background="#0E1117",
    panel="#262730",
    raised="#2B2C36",
    text="#FAFAFA",
    muted="#A6ACB8",
    border="#4A4D59",
    primary="#56B4E9",
    link="#56B4E9",
    on_primary="#0E1117",
    grid="#31333F",
    ink="#F2F2F2",
    outline="#FFFFFF",  # the points' outline: dark on a light page, white here
    alerts=(
        ("info", "#85B8F8", "#1E2A3D"),
        ("success", "#7ED5B0", "#0E2F24"),
        ("warning", "#FBD54F", "#302917"),
        ("error", "#F2919A", "#412023"),
    ),
)
#: The projector's high-contrast theme: black on white, a dark blue accent, no greys
#: under 7 : 1 for text.
CONTRAST_THEME = Theme(
    "contrast",
    "High contrast",
    False,
    background="#FFFFFF",
    panel="#F2F2F2",
    raised="#FFFFFF",
    text="#000000",
    muted="#222222",
    border="#000000",
    primary="#004A8C",
    link="#003D7A",
    on_primary="#FFFFFF",
    grid="#B0B0B0",
    ink="#000000",
    shade_fade=0.45,
    region_fade=0.5,
    line_scale=1.5,
    outline="#000000",
    outline_width=1.2,
    alerts=(
        ("info", "#000000", "#E3EEFF"),
        ("success", "#000000", "#E2F6EC"),
        ("warning", "#000000", "#FFF3C4"),
        ("error", "#000000", "#FFE3E6"),
    ),
)
#: The themes by name, in the share link's order (:data:`svmlab.state.labstate.THEMES`).
THEME_BY_NAME = {t.name: t for t in (LIGHT_THEME, DARK_THEME, CONTRAST_THEME)}
DEFAULT_THEME = THEMES[0]


def get_theme(name: str) -> Theme:
    """The :class:`Theme` called ``name`` (one of :data:`THEMES`).

    Raises
    ------
    ValueError
        If ``name`` is not a theme.
    """
    if name not in THEME_BY_NAME:
        raise ValueError(f"theme must be one of {THEMES}, got {name!r}")
    return THEME_BY_NAME[name]


def rgb(colour: str) -> tuple[int, int, int]:
    """The 0..255 channels of an sRGB ``'#rrggbb'`` colour (ValueError for anything else)."""
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

    r, g, b = (lin(v) for v in rgb(colour))
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
    c, g = rgb(colour), rgb(background)
    out = [round(a + (b - a) * amount) for a, b in zip(c, g, strict=True)]
    return "#{:02x}{:02x}{:02x}".format(*out)
