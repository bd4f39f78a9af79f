"""Every key SVM Lab keeps in ``st.session_state``, with what it holds, and their accessors.

One place for the session's state: a module that keeps something in the session takes its
key from here (``tests/test_layering.py`` checks that no ``"svmlab_…"`` session key is
spelled elsewhere). Widget and component keys (``key=`` of a widget) are not session state
of ours and stay beside their widgets.
"""

from __future__ import annotations

import streamlit as st

from svmlab.state.canvas_session import SESSION_KEY, CanvasSession

__all__ = [
    "CANVAS",
    "EXERCISE",
    "EXERCISES_DONE",
    "EXPORT_ERROR",
    "FRAGMENT_LOCAL",
    "IN_PAGE",
    "IN_ROUTER",
    "KEYS",
    "KEYS_ACK",
    "KEYS_TARGET",
    "LINK",
    "LINK_DISMISS",
    "PAGE_RUN",
    "PAGE_STATE",
    "PLAYING",
    "PRESENT",
    "PRESENT_CLASS",
    "PRESENT_PARAMS",
    "SHARE_SLOT",
    "SHOWN",
    "SPLIT",
    "SPLIT_OPTIONS",
    "get_session",
    "session_object",
]

#: The :class:`~svmlab.state.canvas_session.CanvasSession`: points, history, class, axes.
CANVAS = SESSION_KEY
#: The :class:`~svmlab.ui.run_context.RunContext` of the run the page shows (algorithm,
#: points, params, plane, result, snapshot): read by export, exercises and render.
SHOWN = "svmlab_shown"
#: The exercise opened on the exercises page (its id), and the set of exercises done.
EXERCISE = "svmlab_exercise"
EXERCISES_DONE = "svmlab_exercises_done"
#: The export panel's last error message (shown once).
EXPORT_ERROR = "svmlab_export_error"
#: Fragment bookkeeping: the widget keys changed inside the plane's fragment, the page
#: run counter and the state the fragment last drew.
FRAGMENT_LOCAL = "svmlab_fragment_local"
PAGE_RUN = "svmlab_page_run"
PAGE_STATE = "svmlab_page_state"
#: True while the router (or a page inside it) runs: deep links run once.
IN_ROUTER = "svmlab_in_router"
IN_PAGE = "svmlab_in_page"
#: The keyboard component's events, the highest one applied, and the widget it drives.
KEYS = "svmlab_keys"
KEYS_ACK = "svmlab_keys_ack"
KEYS_TARGET = "svmlab_keys_target"
#: Whether the browser animation plays.
PLAYING = "svmlab_playing"
#: The share link read at the session's start, and whether its message was dismissed.
LINK = "svmlab_link"
LINK_DISMISS = "svmlab_link_dismiss"
#: The share link's slot of the current script run.
SHARE_SLOT = "svmlab_share_slot"
#: Presenter mode: on/off, the class of new points, the parameters shown on the toolbar.
PRESENT = "svmlab_present"
PRESENT_CLASS = "svmlab_present_class"
PRESENT_PARAMS = "svmlab_present_params"
#: The train/test split panel: its split and its options.
SPLIT = "svmlab_split"
SPLIT_OPTIONS = "svmlab_split_options"


def session_object(key: str, cls):
    """The ``cls`` instance under ``st.session_state[key]`` (a new ``cls()`` on first use)."""
    obj = st.session_state.get(key)
    if not isinstance(obj, cls):
        obj = cls()
        st.session_state[key] = obj
    return obj


def get_session() -> CanvasSession:
    """The session's :class:`CanvasSession` (created with the default data on first use)."""
    return session_object(CANVAS, CanvasSession)
