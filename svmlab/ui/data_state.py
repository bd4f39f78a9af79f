"""What the data panel's widgets tell the canvas, read before they are drawn.

The page's classes, the click mode and the class of new points are kept in the session's
:class:`~svmlab.state.canvas_session.CanvasSession`, where the canvas reads them. A page
that draws its canvas before the data widgets (:mod:`svmlab.ui.plane_first`) takes them
from the widgets' values first (:func:`panel_state`); the points themselves change in the
widgets' callbacks only, before the script runs. Streamlit only.
"""

from __future__ import annotations

import streamlit as st

from svmlab.state.canvas_session import MODES
from svmlab.state.classes import MAX_CLASSES
from svmlab.ui.preset_menu import seed_widget
from svmlab.ui.session import get_session

__all__ = ["panel_state"]


def panel_state(*, n_classes: int = 2, key: str = "data") -> None:
    """Give the session the page's ``n_classes`` and the values of the click-mode and
    class widgets (keys ``f"{key}_mode"``, ``f"{key}_class"``), seeding them where they
    have none (:func:`svmlab.ui.preset_menu.seed_widget`; a class beyond the page's, the
    session's).

    Raises
    ------
    ValueError
        If ``n_classes`` is not in 2..6.
    """
    n_classes = int(n_classes)
    if not 2 <= n_classes <= MAX_CLASSES:
        raise ValueError(f"n_classes must be in 2..{MAX_CLASSES}, got {n_classes}")
    s = get_session()
    s.n_classes = n_classes
    mkey, ckey = f"{key}_mode", f"{key}_class"
    seed_widget(mkey, s.mode if s.mode in MODES else "add")
    s.mode = st.session_state[mkey]
    if st.session_state.get(ckey) not in range(n_classes):
        st.session_state[ckey] = s.class_index(n_classes)
    s.cls = int(st.session_state[ckey])
