"""Every key SVM Lab keeps in ``st.session_state``, with what it holds, and their accessors.

One place for the session's state: a module that keeps something in the session takes its
key from here (``tests/test_layering.py`` checks that no ``"svmlab_…"`` session key is
spelled elsewhere in the app). Widget, container and component keys (the ``key=`` of an
element, whose value Streamlit keeps under it) are not listed: they stay beside their
elements.
"""

from __future__ import annotations

import streamlit as st

from svmlab.state.canvas_session import CanvasSession

__all__ = [
    "CANVAS",
    "EXERCISE",
    "EXERCISES_DONE",
    "EXERCISE_GO",
    "EXERCISE_START",
    "EXPORT_ERROR",
    "FOCUS",
    "FRAGMENT_LOCAL",
    "INSPECT_FOLLOWS",
    "KEYS",
    "KEYS_ACK",
    "KEYS_TARGET",
    "LINK",
    "PAGE_RUN",
    "PAGE_STATE",
    "PLANE",
    "PLANE_FIRST",
    "PLANE_PAINTED",
    "PLAYING",
    "PRESENT",
    "SHOWN",
    "SPLIT",
    "SPLIT_OPTIONS",
    "THEME",
    "get_session",
    "session_object",
]

#: The :class:`~svmlab.state.canvas_session.CanvasSession`: points, history, class, axes,
#: the highest canvas event applied.
CANVAS = "svmlab_session"
#: The :class:`~svmlab.state.run_context.RunContext` of the run the page drew (algorithm,
#: points, params, plane, result, snapshot): read by export, the exercises' goal box and
#: the headless renderer.
SHOWN = "svmlab_shown"
#: What the canvas shows (:class:`svmlab.ui.plane.PlaneShown`): the stamp and the key of
#: the newest figure sent to it, so that a fragment run sends a new one only when it differs.
PLANE = "svmlab_plane"
#: Per page, the parameters of its last run and the widgets' values that gave them
#: (:class:`svmlab.ui.plane_first.Expected`): a click's canvas is drawn before the widgets.
PLANE_FIRST = "svmlab_plane_first"
#: The run whose canvas the plane's fragment painted just before the page's run
#: (:mod:`svmlab.ui.plane_cell`): the page's run does not wait for its paint again.
PLANE_PAINTED = "svmlab_plane_painted"
#: The exercise opened (its id, or None), the set of ids solved, the quantities recorded
#: when the exercise opened, and the exercise whose page "Open" switches to on this run.
EXERCISE = "svmlab_exercise"
EXERCISES_DONE = "svmlab_exercises_done"
#: The Streamlit key of the element to focus after the next rerun (svmlab.ui.access).
FOCUS = "svmlab_focus"
EXERCISE_START = "svmlab_exercise_start"
EXERCISE_GO = "svmlab_exercise_go"
#: The export panel's last deferred-download error, ``{"text": …}`` (shown once).
EXPORT_ERROR = "svmlab_export_error"
#: The plane's fragment (:func:`svmlab.ui.page.plane_and_report`): set by the callbacks of
#: its own widgets, set by every whole-page run, and the page's state its last run left.
FRAGMENT_LOCAL = "svmlab_fragment_local"
PAGE_RUN = "svmlab_page_run"
PAGE_STATE = "svmlab_page_state"
#: The step inspector: the (run, snapshot) whose iteration it last moved to (it follows the
#: plane's t; the user's own step stays until the snapshot changes).
INSPECT_FOLLOWS = "svmlab_inspect_follows"
#: The keyboard component (its key: its state holds the unacknowledged key events), the
#: highest key event applied, and the scrubber the keys drive, ``(widget key, n)``.
KEYS = "svmlab_keys"
KEYS_ACK = "svmlab_keys_ack"
KEYS_TARGET = "svmlab_keys_target"
#: Presenter mode on (bool), and whether it plays the run (bool).
PRESENT = "svmlab_present"
#: The page's theme: "light", "dark" or "contrast" (:mod:`svmlab.ui.themes`).
THEME = "svmlab_theme"
PLAYING = "svmlab_playing"
#: The share link's :class:`~svmlab.ui.linkstate.LinkSession` (read once per session).
LINK = "svmlab_link"
#: The train/test split: the test set of this run (a ``TestSet`` or None), and the split's
#: options kept across pages ({widget key: value}).
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
