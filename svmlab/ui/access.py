"""Accessibility on every page (WCAG 2.2 AA): the app's CSS, the model in words, every chart
as a table, the inspector's step in words, and focus kept where the user was.

* :func:`chrome` (run before every page by :func:`svmlab.ui.presenter.chrome`) injects
  :func:`page_css` — a visible focus indicator on every control (3 px, ≥ 3 : 1 against the
  page in both themes: WCAG 2.4.7 / 2.4.13), captions at ≥ 4.5 : 1 (1.4.3), targets of at
  least 24 × 24 px (2.5.8), no transitions or animations under ``prefers-reduced-motion``
  (2.3.3), section headings (h2) the size of Streamlit's subheaders — and mounts the
  small ``assets/access.js`` component: it gives every slider an ``aria-valuetext`` (the
  value shown, not Streamlit's option index) and puts the focus back after a rerun that
  removed the focused control (the element :func:`focus_next` names, else the control
  with the same key or label).
* :func:`model_text` is :func:`svmlab.study.describe.describe_model` of a run at its
  snapshot (cached): the plane's accessible name and description (``svmlab.ui.canvas``),
  and :func:`describe_box`'s "Describe the model" text for everyone.
* :func:`table_box` is a chart's "view as table": a collapsed expander that builds its
  ``st.dataframe`` only when open.
* :func:`narrate` is the inspector's step as a sentence tied to the pseudo-code's line
  that ran, in a polite live region.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
import streamlit as st

from svmlab.plot import pseudocode
from svmlab.plot.look.theme import DARK, LIGHT
from svmlab.plot.tables import figure_table
from svmlab.state.run_context import RunContext
from svmlab.study.describe import alpha_table, describe_model, narrate_step, summary_line
from svmlab.ui import runners, themes
from svmlab.ui.fragment_state import mark_local
from svmlab.ui.session import FOCUS, PRESENT
from svmlab.ui.static_assets import component_module

__all__ = [
    "CAPTION",
    "FOCUS_RING",
    "MIN_TARGET_PX",
    "alpha_box",
    "chrome",
    "describe_box",
    "figure_box",
    "focus_next",
    "model_text",
    "narrate",
    "page_css",
    "step_table",
    "table_box",
    "under_plane",
]

#: The focus ring per theme: Okabe–Ito blue on light (5.2 : 1 on white, 4.7 : 1 on the
#: sidebar), its sky blue on dark (8.2 : 1 on the page, 6.4 : 1 on the sidebar).
FOCUS_RING = {"light": "#0072B2", "dark": "#56B4E9"}
#: Caption and secondary text per theme: ≥ 4.5 : 1 on the page and on the sidebar.
CAPTION = {"light": "#565B63", "dark": "#B4B8C2"}
#: The page backgrounds the colours above are checked against (tests/app/ui/test_access.py).
BACKGROUNDS = {
    "light": (LIGHT["background"], LIGHT["panel"]),
    "dark": (DARK["background"], DARK["panel"]),
}
#: WCAG 2.2's minimum target size (2.5.8), in CSS pixels.
MIN_TARGET_PX = 24

_FOCUSABLE = (
    "a, button, input, select, textarea, summary, [role='button'], [role='slider'], "
    "[role='tab'], [role='option'], [role='switch'], [role='checkbox'], [role='radio'], "
    "[role='application'][tabindex], [tabindex]:not([tabindex='-1'])"
)
_FOCUSABLE_VISIBLE = ", ".join(f"{s.strip()}:focus-visible" for s in _FOCUSABLE.split(","))


def page_css(theme: str = "light", caption: str | None = None) -> str:
    """The app's accessibility CSS for ``theme`` ("light" or "dark"), as a ``<style>``;
    ``caption`` overrides the captions' colour (the projector theme's, at ≥ 7 : 1)."""
    if theme not in FOCUS_RING:
        raise ValueError(f"theme must be 'light' or 'dark', got {theme!r}")
    ring, caption = FOCUS_RING[theme], caption or CAPTION[theme]
    t = MIN_TARGET_PX
    return f"""<style>
/* 2.4.7 / 2.4.13: a 3 px ring outside every focused control, >= 3:1 on the page */
{_FOCUSABLE_VISIBLE},
[data-testid="stRadioOption"]:has(input:focus-visible),
[data-testid="stCheckbox"] label:has(input:focus-visible),
[data-testid="stSlider"] [data-rac]:has(> div > input:focus-visible),
[data-testid="stSelectbox"] [role="group"]:has(input:focus-visible),
[data-testid="stMultiSelect"] [role="group"]:has(input:focus-visible),
[data-testid="stNumberInputContainer"]:focus-within,
[data-testid="stTextInputRootElement"]:focus-within,
[class*="st-key-"][tabindex="-1"]:focus {{
  outline: 3px solid {ring} !important;
  outline-offset: 2px !important;
  box-shadow: none !important;
}}
/* 1.4.3: captions and the canvas's caption at >= 4.5:1 in both themes (Streamlit draws a
   caption at opacity 0.6: 4.1:1 on the dark page, 2.7:1 with a grey on white) */
[data-testid="stCaptionContainer"] {{ opacity: 1 !important; }}
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
.svmlab-canvas-caption, [data-testid="stWidgetLabel"] [data-testid="stTooltipIcon"],
[data-testid="stSliderTickBarMin"], [data-testid="stSliderTickBarMax"],
[data-testid="stMarkdownContainer"] .stMarkdownColoredText {{
  color: {caption} !important;
}}
/* 2.5.8: targets of at least {t} x {t} px (help icons, radio options, a multiselect's
   remove icons, Plotly's mode bar) */
[data-testid="stTooltipHoverTarget"] button, [data-tag] button[aria-label^="Remove"],
[data-testid="stMultiSelect"] button, [data-testid="stSelectbox"] button {{
  min-width: {t}px; min-height: {t}px; display: inline-flex; align-items: center;
  justify-content: center;
}}
[data-testid="stRadioOption"], [data-testid="stCheckbox"] label {{ min-height: {t}px; }}
[data-testid="stSidebarNavLink"], [data-testid="stPageLink-NavLink"] {{ min-height: {t}px; }}
.js-plotly-plot .modebar-btn {{ min-height: {t}px; box-sizing: border-box; }}
/* one h1, then h2 sections: an h2 looks like Streamlit's subheader */
[data-testid="stMain"] h2 {{ font-size: 1.5rem; padding: 0.75rem 0 0.5rem; }}
/* the text of the plane's description, for screen readers only (svmlab.ui.canvas) */
.svmlab-sr-only {{
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0;
}}
/* 2.3.3: no motion for those who ask for none */
@media (prefers-reduced-motion: reduce) {{
  *, *::before, *::after {{
    animation-duration: 0.01ms !important; animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important; scroll-behavior: auto !important;
  }}
}}
</style>"""


_COMPONENT = st.components.v2.component(
    "svmlab_access",
    html='<div class="svmlab-access"></div>',
    js=component_module("access.js", preludes=()),  # loaded once per page
    isolate_styles=False,
)


def _theme_css() -> str:
    """:func:`page_css` for the page's theme as the app chose it (:mod:`svmlab.ui.themes`:
    the sidebar switch, ``t``, the link), not the system's; the high-contrast theme keeps
    its own caption colour (AAA)."""
    t = themes.current()
    return page_css("dark" if t.dark else "light", t.muted if t.name == "contrast" else None)


def focus_next(key: str) -> None:
    """After the next rerun, put the focus on the element of Streamlit key ``key``
    (a button, or a container made focusable): for a control that a rerun replaces."""
    st.session_state[FOCUS] = str(key)


def chrome() -> None:
    """Before every page: the CSS (:func:`page_css`) and ``assets/access.js``."""
    st.html(_theme_css())
    target = st.session_state.pop(FOCUS, None)
    with st.sidebar:
        _COMPONENT(key="svmlab_access", data={"focus": target or ""}, height="content")


# -- the model in words -------------------------------------------------------------------
@st.cache_data(show_spinner=False, max_entries=128, ttl=runners.CACHE_TTL_S)
def _model_text(key: str, k: int, _shown: RunContext) -> str:
    shown = runners.ran(_shown).at(k)
    values = runners.fine_values(shown)
    (xr, yr) = shown.plane
    view = runners.view(shown)
    return describe_model(view, shown.X, shown.y, k, values=values, xrange=xr, yrange=yr)


def model_text(shown: RunContext) -> str:
    """The plane of the run ``shown`` at its snapshot in words (:func:`describe_model`),
    cached by the run, the plane and the snapshot."""
    k = runners.view(shown).n_snapshots - 1 if shown.snapshot is None else int(shown.snapshot)
    return _model_text(shown.key, k, shown)


def describe_box(text: str) -> None:
    """The description for everyone: a collapsed "Describe the model" expander."""
    with st.expander("Describe the model (text)"):
        first, *rest = text.split("\n")
        st.markdown(f"**{first}**")
        st.markdown("\n".join(f"- {line}" for line in rest))


# -- charts as tables ---------------------------------------------------------------------
def table_box(label: str, build: Callable[[], dict], *, key: str, on_change="rerun") -> None:
    """A collapsed expander ``label`` whose ``st.dataframe`` (``build()``: columns) is built
    only while it is open (``on_change``: the expander's callback, e.g. a fragment's)."""
    box = st.expander(label, key=key, on_change=on_change)
    if box.open:
        with box:
            st.dataframe(build(), hide_index=True, key=f"{key}_df")


def figure_box(
    fig, *, key: str, label: str = "View the chart as a table", first=None, **kw
) -> None:
    """:func:`table_box` of a figure's numbers (:func:`svmlab.plot.tables.figure_table`;
    ``first``: its first column's name)."""
    table_box(label, lambda: figure_table(fig, first=first), key=key, **kw)


def alpha_box(shown: RunContext, *, on_change="rerun") -> None:
    """The α bars as a table: point n, x₁, x₂, y, α_n (and free / bounded with C)."""

    def build() -> dict:
        view = runners.view(shown)
        k = view.n_snapshots - 1 if shown.snapshot is None else int(shown.snapshot)
        C = shown.params.get("C")
        C = C if C is not None and np.isfinite(C) else None
        return alpha_table(view.alpha[k], shown.y, shown.X, C=C)

    key = f"{shown.algorithm}_alpha_table"
    table_box("View the α bars as a table", build, key=key, on_change=on_change)


def under_plane(shown: RunContext, *, bars: bool) -> None:
    """In the report, first (not in presenter mode, where the plane is alone): the model
    in words (:func:`describe_box`) and, with α bars, their table (:func:`alpha_box`)."""
    if st.session_state.get(PRESENT):
        return
    describe_box(model_text(shown))
    if bars:
        alpha_box(shown, on_change=mark_local)


# -- the inspector's step in words --------------------------------------------------------
def narrate(lines, step, rows) -> None:
    """The step as a sentence (:func:`svmlab.study.describe.narrate_step`) tied to the
    pseudo-code's ``lines`` that ``step`` ran, in a polite live region."""
    text = narrate_step(rows, lines, pseudocode.active_lines(lines, step))
    st.markdown(
        f'<p role="status" aria-live="polite" class="svmlab-narration">{html.escape(text)}</p>',
        unsafe_allow_html=True,
    )


def step_table(lines, step, rows) -> None:
    """The inspector's step: :func:`narrate`, then its rows as a (quantity, value) table."""
    narrate(lines, step, rows)
    st.table({"quantity": [r[0] for r in rows], "value": [r[1] for r in rows]})


def plane_label(text: str) -> str:
    """The plane's accessible name: the description's summary line."""
    return summary_line(text)
