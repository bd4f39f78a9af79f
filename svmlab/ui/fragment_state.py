"""What the plane fragment (:func:`svmlab.ui.page.plane_and_report`) knows of the page.

A fragment reruns alone when one of its own widgets changes. It must rerun the whole page
when the change shows outside it: a canvas edit (the points the sidebar counts, their
version) or a parameter a callback set (e.g. "use a soft margin instead"). Streamlit only.
"""

from __future__ import annotations

import streamlit as st

from svmlab.ui.session import get_session

__all__ = [
    "LOCAL_KEY",
    "PAGE_RUN_KEY",
    "PAGE_STATE_KEY",
    "mark_local",
    "page_changed",
    "page_state",
    "points_version",
]

#: Set by every run of a whole page; the fragment's own reruns find it unset.
PAGE_RUN_KEY = "svmlab_page_run"
#: Set by the callbacks of the fragment's own widgets (:func:`mark_local`).
LOCAL_KEY = "svmlab_fragment_local"
#: The page's state as the fragment's last run left it (:func:`page_state`).
PAGE_STATE_KEY = "svmlab_page_state"


def points_version() -> int:
    """The version of the session's points (it increases with every edit)."""
    return get_session().version


def page_state(algorithm: str, page: str) -> dict:
    """The values (by ``repr``) of the session-state keys ``f"{algorithm}_…"`` and
    ``f"{page}_…"`` that can be read now, buttons and toggles (booleans) left out.

    A callback of a widget in the fragment that sets a parameter (e.g. "use a soft margin
    instead" sets the margin radio) changes one of them; a button without a callback
    (e.g. "Prepare GIF") changes none, so its action runs in the fragment.
    """
    out = {}
    for name in list(st.session_state.keys()):
        if isinstance(name, str) and name.startswith((f"{algorithm}_", f"{page}_")):
            value = st.session_state[name]
            if not isinstance(value, bool):
                out[name] = repr(value)
    return out


def page_changed(algorithm: str, page: str) -> bool:
    """Whether a key of :func:`page_state` that can be read now differs from (or was not in)
    the state the fragment's last run left."""
    before = st.session_state.get(PAGE_STATE_KEY) or {}
    return any(before.get(k) != v for k, v in page_state(algorithm, page).items())


def mark_local() -> None:
    """The callback of a widget that only the fragment reads (scrubber, step buttons,
    inspector, animation, check): its change reruns the fragment alone
    (:func:`svmlab.ui.page.plane_and_report`)."""
    st.session_state[LOCAL_KEY] = True
