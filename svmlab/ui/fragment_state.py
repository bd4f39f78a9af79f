"""What the plane fragment (:func:`svmlab.ui.page.plane_and_report`) knows of the page.

A fragment reruns alone when one of its own widgets changes. It must rerun the whole page
when the change shows outside it: a canvas edit (the points the sidebar counts, their
version) or a parameter a callback set (e.g. "use a soft margin instead"). Streamlit only.
"""

from __future__ import annotations

import streamlit as st

from svmlab.ui import session
from svmlab.ui.session import get_session

__all__ = [
    "mark_local",
    "page_changed",
    "page_run",
    "page_state",
    "points_version",
    "remember_page_state",
    "take_local",
    "take_page_run",
]


def page_run() -> None:
    """Mark this run as a whole page's (the fragment's own reruns find it unset)."""
    st.session_state[session.PAGE_RUN] = True


def take_page_run() -> bool:
    """Whether this run is a whole page's (:func:`page_run`); the mark is taken."""
    return bool(st.session_state.pop(session.PAGE_RUN, False))


def take_local() -> bool:
    """Whether a widget only the fragment reads started this run (:func:`mark_local`);
    the mark is taken."""
    return bool(st.session_state.pop(session.FRAGMENT_LOCAL, False))


def remember_page_state(algorithm: str, page: str) -> None:
    """Keep the page's state as this run leaves it (:func:`page_changed` compares)."""
    st.session_state[session.PAGE_STATE] = page_state(algorithm, page)


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
    before = st.session_state.get(session.PAGE_STATE) or {}
    return any(before.get(k) != v for k, v in page_state(algorithm, page).items())


def mark_local() -> None:
    """The callback of a widget that only the fragment reads (scrubber, step buttons,
    inspector, animation, check): its change reruns the fragment alone
    (:func:`svmlab.ui.page.plane_and_report`)."""
    st.session_state[session.FRAGMENT_LOCAL] = True
