"""The theme switch: light, dark and a high-contrast projector theme, chosen in the app.

Streamlit's own theme (``.streamlit/config.toml``: light and dark, following the
system) cannot be switched from a script, and its settings menu is hidden by the minimal
toolbar. So the app keeps its own choice:

* the session key :data:`THEME_KEY` holds the theme's name (:data:`THEMES`); the share
  link carries it as ``theme=dark`` / ``theme=contrast`` (:mod:`svmlab.ui.linkstate`; a
  link without it opens in light);
* :func:`control` — a segmented control at the top of the sidebar — and the ``t`` key
  (:mod:`svmlab.ui.keyboard`, for presenter mode, whose sidebar is hidden) change it;
* :func:`apply` (before every page, :mod:`svmlab.ui.router`) injects the page's CSS
  (:func:`page_css`): the theme's colours as CSS variables, which the keyboard
  shortcuts' overlay and the canvas's captions read, and — when Streamlit's own theme is
  not already the chosen one (``st.context.theme.type``) or the theme is the
  high-contrast one — overrides of Streamlit's colours by its test ids;
* the figures follow through :func:`svmlab.ui.keyboard.page_figure` (the one function
  that gives a figure the page's look), which reads :func:`current`.
"""

from __future__ import annotations

import streamlit as st

from svmlab.plot.look.theme import DEFAULT_THEME, THEMES, Theme, get_theme
from svmlab.ui import session

__all__ = [
    "LABELS",
    "THEME_KEY",
    "WIDGET_KEY",
    "apply",
    "control",
    "current",
    "current_name",
    "cycle",
    "from_link",
    "link_value",
    "page_css",
    "set_theme",
    "streamlit_dark",
]

#: Session key of the page's theme (a name of :data:`THEMES`).
THEME_KEY = session.THEME
#: The sidebar control's widget key.
WIDGET_KEY = "svmlab_theme_pick"
#: The control's labels (short: the three fit one row of the sidebar).
LABELS = {"light": "Light", "dark": "Dark", "contrast": "Contrast"}


def current_name() -> str:
    """The session's theme name (the default, light, until one is chosen or linked)."""
    name = st.session_state.get(THEME_KEY)
    return name if name in THEMES else DEFAULT_THEME


def current() -> Theme:
    """The session's :class:`~svmlab.plot.look.theme.Theme`."""
    return get_theme(current_name())


def set_theme(name: str) -> None:
    """Choose the theme ``name`` for this session (the share link follows).

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`THEMES`.
    """
    st.session_state[THEME_KEY] = get_theme(name).name


def link_value() -> str | None:
    """The share link's ``theme`` value: the theme's name, None for light (left out)."""
    name = current_name()
    return None if name == DEFAULT_THEME else name


def from_link(result) -> None:
    """Take the theme a share link or a lesson file held (a ``DecodeResult``), if any."""
    if "theme" in result.read:
        set_theme(result.state.theme)


def cycle() -> None:
    """The next theme: light → dark → contrast → light (the ``t`` key)."""
    names = list(THEMES)
    set_theme(names[(names.index(current_name()) + 1) % len(names)])


def _picked() -> None:
    value = st.session_state.get(WIDGET_KEY)
    if value in THEMES:  # None: the selected segment clicked again; keep the theme
        set_theme(value)


def control() -> None:
    """The theme's segmented control, at the top of the sidebar."""
    st.session_state[WIDGET_KEY] = current_name()  # a link or the t key may have changed it
    st.sidebar.segmented_control(
        "Theme",
        THEMES,
        format_func=LABELS.get,
        key=WIDGET_KEY,
        on_change=_picked,
        help="Light, dark, or high contrast for a projector (key: t). The share link keeps it.",
        width="stretch",
    )


def streamlit_dark() -> bool | None:
    """Whether Streamlit's own theme is dark (None: not known outside a browser session)."""
    try:
        kind = st.context.theme.type
    except Exception:  # no browser context (a script run outside a session)
        return None
    return None if kind is None else kind == "dark"


def _variables(t: Theme) -> str:
    names = {
        "bg": t.background,
        "panel": t.panel,
        "raised": t.raised,
        "text": t.text,
        "muted": t.muted,
        "border": t.border,
        "primary": t.primary,
        "link": t.link,
        "on-primary": t.on_primary,
    }
    for kind, fg, bg in t.alerts:
        names[f"{kind}-text"], names[f"{kind}-bg"] = fg, bg
    body = "".join(f"--svmlab-{k}: {v}; " for k, v in names.items())
    return f":root {{ {body}color-scheme: {'dark' if t.dark else 'light'}; }}\n"


#: Always: what SVM Lab draws itself (assets/keys.js's overlay and hint, the canvas's
#: caption and status line) in the theme's colours, and the texts Streamlit's own colours
#: leave under 4.5 : 1 (white on the sky-blue primary button of the dark theme, the primary
#: blue of a selected segment on its tint, captions faded to 60 %): the captions' colour
#: is the theme's (more specific than svmlab.ui.access's per light/dark, so that the
#: high-contrast theme's reaches 7 : 1).
_OWN = """
html .svmlab-keys-hint { color: var(--svmlab-text); background: var(--svmlab-panel);
  border-color: var(--svmlab-border); }
html .svmlab-keys-panel { color: var(--svmlab-text); background: var(--svmlab-bg);
  border: 1px solid var(--svmlab-border); }
html .svmlab-keys-panel kbd { color: var(--svmlab-text); background: var(--svmlab-panel);
  border-color: var(--svmlab-border); }
html .svmlab-keys-panel p { color: var(--svmlab-muted); }
html .svmlab-canvas-caption { color: var(--svmlab-muted); }
html .svmlab-canvas-status { color: var(--svmlab-warning-text); }
[data-testid='stBaseButton-primary'], [data-testid='stBaseButton-primary'] * {
  color: var(--svmlab-on-primary) !important; }
[data-testid='stButtonGroup'] button[aria-checked='true'],
[data-testid='stButtonGroup'] button[aria-checked='true'] * {
  color: var(--svmlab-link) !important; }
[data-testid='stCaptionContainer'] { opacity: 1 !important; }
html body .stApp :is([data-testid='stCaptionContainer'], [data-testid='stCaptionContainer'] *,
.svmlab-canvas-caption, .stMarkdownColoredText, [data-testid='stSliderTickBarMin'],
[data-testid='stSliderTickBarMax']) { color: var(--svmlab-muted) !important; }
"""

# Text: every element of the app (and of Streamlit's portals: menus, tooltips) takes the
# theme's text colour, except the charts (Plotly's own), SVM Lab's canvas, elements that
# carry an inline colour (the pseudo-code box) and their content. That rule has no
# specificity (:where), so that each later rule for what Streamlit colours otherwise
# (captions, links, buttons, alerts, selected options) wins over it. Markdown's coloured
# text (its colour inline; the app uses ``:gray[…]`` only, the presenter's key hint) is
# muted.
_APP = ":is(.stApp, [data-testid='portal'])"
_TEXT_ELEMENTS = (
    ":where(.stApp, [data-testid='portal']) :where(*:not(.js-plotly-plot *)"
    ":not(.svmlab-canvas *):not([style*='color']):not([style*='color'] *))"
)
_PRIMARY_BOX = (
    "[data-testid='stCheckbox'] label[data-selected='true'] > div:not([data-testid]), "
    "[data-testid='stRadioOption'][data-selected='true'] > div > div:first-child, "
    "[data-testid='stProgressBarTrack'] > div, "
    "[data-testid='stSlider'] [role='group'] > div > div[style], "
    "[data-testid='stTab'] > .react-aria-SelectionIndicator, "
    "[data-testid='stMultiSelectTagsContainer'] span[role='group'] > span"
)
_OVERRIDES = f"""
html, body, .stApp, [data-testid='stAppViewContainer'], [data-testid='stMain'],
header[data-testid='stHeader'], [data-testid='stBottom'], [data-testid='stBottom'] > div {{
  background-color: var(--svmlab-bg) !important; color: var(--svmlab-text) !important; }}
[data-testid='stSidebar'], [data-testid='stSidebarContent'], [data-testid='stSidebarHeader'] {{
  background-color: var(--svmlab-panel) !important; }}
[data-testid='stSidebarContent'], [data-testid='stSidebarHeader'], [data-testid='stMain'],
[data-testid='stAppViewContainer'], header[data-testid='stHeader'] {{
  background-color: transparent !important; }}
{_TEXT_ELEMENTS} {{ color: var(--svmlab-text) !important; caret-color: var(--svmlab-text); }}
{_APP} :is(button, [data-testid='stIconMaterial']) svg:not([fill='none']):not(.js-plotly-plot *) {{
  fill: currentColor; }}
[data-testid='stCaptionContainer'], [data-testid='stCaptionContainer'] *,
[data-testid='stRadioCaption'], [data-testid='stRadioCaption'] *,
[data-testid='stTooltipHoverTarget'] > button[aria-label^='Help'],
[data-testid='stFileUploaderDropzoneInstructions'] *,
[data-testid='stHeaderActionElements'] * {{ color: var(--svmlab-muted) !important; }}
{_APP} svg[stroke='currentColor']:not(.js-plotly-plot *):not(.svmlab-canvas *) {{
  stroke: currentColor !important; }}
[data-testid='stHeaderActionElements'] svg, [data-testid='stHeaderActionElements'] svg *,
[data-testid='stTooltipHoverTarget'] > button[aria-label^='Help'] svg {{
  stroke: var(--svmlab-muted) !important; }}
{_APP} a:not([data-testid*='Nav']):not([data-testid*='Nav'] *),
{_APP} a:not([data-testid*='Nav']) *,
[data-testid='stSliderThumbValue'], [data-testid='stSliderThumbValue'] *,
[data-testid='stButtonGroup'] button[aria-checked='true'],
[data-testid='stButtonGroup'] button[aria-checked='true'] *,
[data-testid='stTab'][aria-selected='true'], [data-testid='stTab'][aria-selected='true'] * {{
  color: var(--svmlab-link) !important; }}
[data-testid='stBaseButton-primary'], [data-testid='stBaseButton-primary'] *,
[data-testid='stMultiSelectTagsContainer'] span[role='group'] > span,
[data-testid='stMultiSelectTagsContainer'] span[role='group'] > span * {{
  color: var(--svmlab-on-primary) !important; }}
[data-testid='stBaseButton-primary'] {{ background-color: var(--svmlab-primary) !important;
  border-color: var(--svmlab-primary) !important; }}
{_PRIMARY_BOX} {{ background-color: var(--svmlab-primary) !important;
  border-color: var(--svmlab-primary) !important; }}
[data-testid='stCheckbox'] label:not([data-selected='true']) > div:not([data-testid]) {{
  background-color: var(--svmlab-panel) !important;
  border-color: var(--svmlab-border) !important; }}
[data-testid='stCheckbox'] label:not([data-selected='true']):has(input[role='switch'])
  > div:not([data-testid]) {{ background-color: var(--svmlab-border) !important; }}
[data-testid='stSidebarNavSeparator'], [data-testid='stSidebarNavItems'] {{
  border-color: var(--svmlab-border) !important; }}
[data-testid='stRadioOption']:not([data-selected='true']) > div > div:first-child {{
  background-color: var(--svmlab-panel) !important;
  border-color: var(--svmlab-border) !important; }}
[data-testid^='stBaseButton-secondary'], [data-testid='stBaseButton-tertiary'],
[data-testid='stPopoverButton'],
[data-testid='stDownloadButton'] button:not([data-testid='stBaseButton-primary']) {{
  background-color: var(--svmlab-raised) !important;
  border: 1px solid var(--svmlab-border) !important; }}
[data-testid^='stBaseButton-header'], [data-testid='stBaseButton-elementToolbar'] {{
  background-color: transparent !important; }}
[data-testid='stElementToolbarButtonContainer'], [data-testid='stCode'] > div > div {{
  background-color: var(--svmlab-bg) !important; }}
[data-testid='stButtonGroup'] button[role='radio'] {{ background-color: transparent !important;
  border-color: var(--svmlab-border) !important; }}
[data-testid='stButtonGroup'] button[aria-checked='true'] {{
  background-color: color-mix(in srgb, var(--svmlab-primary) 14%, var(--svmlab-panel)) !important;
  border-color: var(--svmlab-primary) !important; }}
[data-testid='stNumberInputContainer'], [data-testid='stTextInputRootElement'],
[data-testid='stTextAreaRootElement'], [data-testid='stSelectbox'] [role='group'],
[data-testid='stMultiSelect'] [role='group'], [data-testid='stFileUploaderDropzone'],
[data-testid='stProgressBarTrack'] {{ background-color: var(--svmlab-panel) !important;
  border-color: var(--svmlab-border) !important; }}
{_APP} input, {_APP} textarea {{ background-color: transparent !important;
  color: var(--svmlab-text) !important; -webkit-text-fill-color: var(--svmlab-text); }}
{_APP} input::placeholder {{ color: var(--svmlab-muted) !important;
  -webkit-text-fill-color: var(--svmlab-muted); }}
[data-testid='stExpander'] details, [data-testid='stExpanderDetails'] {{
  border-color: var(--svmlab-border) !important; }}
[data-testid='stExpander'] summary, [data-testid='stCode'] pre,
{_APP} code:not([style*='background']) {{
  background-color: color-mix(in srgb, var(--svmlab-text) 5%, var(--svmlab-bg)) !important; }}
[data-testid='stTable'] table, [data-testid='stTable'] th, [data-testid='stTable'] td,
[data-testid='stTable'] > div, [data-testid='stDataFrameResizable'] {{
  border-color: var(--svmlab-border) !important; }}
[data-testid='stSidebarNavLink'][aria-current='page'], [data-testid='stSidebarNavLink']:hover {{
  background-color: color-mix(in srgb, var(--svmlab-text) 12%, transparent) !important; }}
[data-testid='portal'] [role='listbox'], [data-testid='portal'] [role='dialog'],
[data-testid='portal'] [role='menu'], [data-testid='portal'] [role='tooltip'],
[data-testid='stTooltipContent'] {{ background-color: var(--svmlab-panel) !important; }}
[data-testid='portal'] [role='option'][aria-selected='true'],
[data-testid='portal'] [role='option']:hover,
[data-testid='portal'] [role='option'][data-focused] {{ background-color:
  color-mix(in srgb, var(--svmlab-primary) 18%, var(--svmlab-panel)) !important; }}
hr {{ border-color: var(--svmlab-border) !important; }}
.stMarkdownColoredText {{ color: var(--svmlab-muted) !important; }}
"""
_ALERTS = "".join(
    f"""
[data-testid='stAlertContainer']:has([data-testid='stAlertContent{kind.title()}']) {{
  background-color: var(--svmlab-{kind}-bg) !important;
  color: var(--svmlab-{kind}-text) !important; }}
[data-testid='stAlertContent{kind.title()}'], [data-testid='stAlertContent{kind.title()}'] * {{
  color: var(--svmlab-{kind}-text) !important; }}"""
    for kind in ("info", "success", "warning", "error")
)
#: Streamlit's data grid draws on a canvas in Streamlit's own colours: inverted (its hues
#: kept) when the page's brightness is the other one.
_GRID_INVERTED = """
[data-testid='stDataFrame'] canvas, [data-testid='stDataFrameResizable'] canvas {
  filter: invert(1) hue-rotate(180deg); }
"""
#: The high-contrast theme: no faded text, visible borders, underlined links, a thick focus.
_CONTRAST = """
[data-testid='stNumberInputContainer'], [data-testid='stTextInputRootElement'],
[data-testid='stSelectbox'] [role='group'], [data-testid='stMultiSelect'] [role='group'],
[data-testid='stExpander'] details, [data-testid='stButtonGroup'] button[role='radio'],
[data-testid^='stBaseButton-secondary'], [data-testid='stPopoverButton'] {
  border: 1px solid var(--svmlab-border) !important; }
.stApp a:not([data-testid*='Nav']) { text-decoration: underline !important; }
.stApp *:focus-visible { outline: 3px solid var(--svmlab-primary) !important;
  outline-offset: 2px; }
"""


def page_css(t: Theme, *, streamlit_is_dark: bool | None = None) -> str:
    """The page's CSS for the theme ``t`` (a ``<style>`` element's text, without the tag).

    Parameters
    ----------
    t : Theme
        The chosen theme.
    streamlit_is_dark : bool or None
        Whether Streamlit's own theme is dark (``st.context.theme.type``; None: unknown).
        When it is the chosen theme's (light on light, dark on dark), Streamlit's colours
        are kept and only the variables and SVM Lab's own elements are set; otherwise —
        and always for the high-contrast theme — Streamlit's colours are overridden.
    """
    css = _variables(t) + _OWN
    native = streamlit_is_dark is not None and streamlit_is_dark == t.dark
    if native and t.name != "contrast":
        return css
    css += _OVERRIDES + _ALERTS
    if streamlit_is_dark is not None and streamlit_is_dark != t.dark:
        css += _GRID_INVERTED
    if t.name == "contrast":
        css += _CONTRAST
    return css


def apply() -> None:
    """Before every page: the theme's control in the sidebar, and the page's CSS."""
    control()
    css = page_css(current(), streamlit_is_dark=streamlit_dark())
    st.html(f"<style>{css}</style>")  # style only: no element in the page's layout
