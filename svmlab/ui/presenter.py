"""Presenter mode: the plane as large as the window allows, for a projector.

The session key :data:`svmlab.ui.session.PRESENT` switches it:
the sidebar's "Presenter mode" button, the ``p`` key, or ``?present=1`` in the URL when a
session starts. :func:`chrome` runs before every page (:mod:`svmlab.ui.router`): it mounts
the keyboard listener and, in presenter mode, hides Streamlit's sidebar and header and
pins a "presenter off" button to the window's corner. On an algorithm page,
:func:`presenter_page` replaces the usual layout (:func:`svmlab.ui.page.algorithm_page` branches
to it): a compact toolbar (class of new points, erase mode), then the canvas in the
projector theme (:func:`svmlab.plot.look.theme.projector_figure`, drawn by
:mod:`svmlab.ui.canvas`): the plane at least 70 % of the window's height, the legend beside
it, with the transport (play / pause, steps, the scrubber, the speed) and the readout under
it, every text at 24 px or more. On a phone the plane comes first, full width, the toolbar
after it. The parameter widgets are still drawn, in a hidden container, so their values
(and the run) stay what they were; the objective, the prose and the report are left out.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from svmlab.algorithms import ALGORITHMS, on_page, widgets
from svmlab.state.classes import CLASS_GLYPHS, class_names
from svmlab.state.run_context import RunContext
from svmlab.ui import access, keyboard
from svmlab.ui.session import get_session

__all__ = [
    "HIDDEN_KEY",
    "PRESENTER_CSS",
    "TOOLBAR_KEY",
    "TOOLS",
    "chrome",
    "is_on",
    "presenter_page",
    "toolbar",
]

#: The hidden container of the parameter widgets (its CSS class is ``st-key-<key>``).
HIDDEN_KEY = "svmlab_present_params"
OFF_KEY = "svmlab_present_off"
ON_KEY = "svmlab_present_on"
#: The toolbar's container (CSS: its texts at 24 px; after the plane on a phone).
TOOLBAR_KEY = "svmlab_present_toolbar"
#: Presenter mode's page CSS (Streamlit's test ids; the page's own h1 title goes too).
PRESENTER_CSS = f"""<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], header[data-testid="stHeader"] {{
  display: none !important;
}}
[data-testid="stMainBlockContainer"] {{
  padding: 0.5rem 1.5rem 0 1.5rem !important; max-width: 100% !important;
}}
[data-testid="stMainBlockContainer"] h1,
[data-testid="stMainBlockContainer"] [data-testid="stCaptionContainer"] {{ display: none; }}
.svmlab-keys-hint {{ display: none !important; }}
.st-key-{HIDDEN_KEY} {{ display: none !important; }}
[class*="st-key-svmlab_present_"] p, [class*="st-key-svmlab_present_"] label,
[class*="st-key-svmlab_present_"] button {{ font-size: 24px !important; line-height: 1.3; }}
.st-key-{OFF_KEY} {{ position: fixed; top: 0.5rem; right: 1.5rem; z-index: 999980; width: auto; }}
[data-testid="stMainBlockContainer"] [data-testid="stAlert"] p {{ font-size: 24px; }}
@media (max-width: 640px) {{
  [data-testid="stLayoutWrapper"]:has(> .st-key-{TOOLBAR_KEY}) {{ order: 2; }}
  .st-key-{OFF_KEY} {{ position: static; order: 3; }}
}}
</style>"""


def is_on() -> bool:
    """Whether presenter mode is on (:func:`svmlab.ui.keyboard.is_presenting`)."""
    return keyboard.is_presenting()


def switch() -> None:
    """The presenter buttons' callback: :func:`svmlab.ui.keyboard.toggle_presenter`, and the
    focus to the button that turns it back (the rerun replaces the one pressed)."""
    keyboard.toggle_presenter()
    access.focus_next(OFF_KEY if keyboard.is_presenting() else ON_KEY)


def chrome() -> None:
    """Before every page: the accessibility CSS and helper (:func:`svmlab.ui.access.chrome`),
    the keyboard listener, and the presenter switch.

    Off: a "Presenter mode" button in the sidebar. On: the page CSS
    (:data:`PRESENTER_CSS`) and a "presenter off" button in the window's corner.
    """
    access.chrome()  # focus ring, contrast, targets, motion; focus kept after a rerun
    keyboard.listen()
    if not is_on():
        st.sidebar.button(
            "Presenter mode (p)",
            key=ON_KEY,
            on_click=switch,
            help="The plane full screen for a projector: large text, thick lines; "
            "press ? for the keyboard shortcuts.",
            width="stretch",
        )
        return
    st.html(PRESENTER_CSS)
    st.button("✕ presenter off (p)", key=OFF_KEY, on_click=switch, type="secondary")


def _set_class(wkey: str) -> None:
    keyboard.set_class(int(st.session_state[wkey]))


#: The toolbar's buttons (widget key ``f"svmlab_present_{name}"``): (label when off, label
#: when on, callback, help). Play / pause is the canvas's own (its transport, under the
#: plane: it plays in the browser at once).
TOOLS = {
    "erase": ("⌫ erase points", "✎ add points", keyboard.toggle_erase, "e"),
}


def _tool(col, name: str, on: bool) -> None:
    off_label, on_label, fn, key = TOOLS[name]
    col.button(
        on_label if on else off_label,
        key=f"svmlab_present_{name}",
        on_click=fn,
        help=f"key: {key}",
        width="stretch",
    )


def toolbar(n_classes: int) -> None:
    """The class of new points and erase mode, in one row (a container of its own)."""
    s = get_session()
    with st.container(key=TOOLBAR_KEY):
        # the third column stays empty: the "presenter off" button sits above it
        c2, c3, _ = st.columns([4, 1.6, 1.5], vertical_alignment="center")
    ckey = "svmlab_present_class"
    st.session_state[ckey] = s.class_index(n_classes)
    names = class_names(n_classes)
    c2.radio(
        "New points",
        list(range(n_classes)),
        format_func=lambda j: f"{CLASS_GLYPHS[j]} {names[j]}",
        horizontal=True,
        key=ckey,
        on_change=_set_class,
        args=(ckey,),
        label_visibility="collapsed",
    )
    _tool(c3, "erase", st.session_state.get(keyboard.MODE_KEY, s.mode) == "erase")


def presenter_page(page: str, X, y, *, plane, draw: Callable) -> None:
    """An algorithm page in presenter mode (see the module docstring).

    Parameters
    ----------
    page : str
        The page's key in the registry (its algorithms are ``on_page(page)``).
    X, y : ndarray
        The page's points (n, 2) and labels (n,).
    plane : tuple
        The plane's axis ranges ``((x0, x1), (y0, y1))``.
    draw : callable
        ``draw(ctx, page=page)`` runs the algorithm of the run context ``ctx`` and draws
        the canvas with its scrubber (:func:`svmlab.ui.plane_cell.presenter_plane`).
    """
    titles = {s.key: s.title for s in on_page(page)}
    with st.container(key=HIDDEN_KEY):  # drawn, hidden: the widgets keep their values
        key = next(iter(titles))
        if len(titles) > 1:
            key = widgets.radio("Algorithm", titles, key=f"{page}_algo")
        params = ALGORITHMS[key].controls(key, X, y)
    toolbar(get_session().n_classes)
    draw(RunContext(key, X, y, params, plane), page=page)
