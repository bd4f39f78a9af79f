"""Keyboard shortcuts on every page, and the session's presenter / play state.

A tiny components-v2 component (``assets/keys.js``, mounted by :func:`listen` on every
page, declared like the data canvas in :mod:`svmlab.ui.canvas`) listens for key presses on
the page's document and sends one event per press. Keys typed into an input, a text area
or a select are ignored, and so are presses with Ctrl, Alt or Meta. ``?`` opens an overlay
listing :data:`SHORTCUTS` (the browser draws it; Escape or ``?`` closes it), and a
"⌨ shortcuts" hint in the page's corner opens it too.

Delivery, as the canvas's clicks: the acknowledged-event channel
(:mod:`svmlab.ui.event_channel`, ``assets/event_channel.js`` in the browser); every event
carries a sequence number ``seq``, and :func:`apply_events` applies each ``seq`` once (in the
widget callback, before the page script reruns); :func:`listen` passes the highest back as
``ack``.

Python applies a key through the same functions as the buttons: :func:`move_snapshot`
(the scrubber's step buttons), the session's undo (the data panel's Undo), the click
mode and class radios' session values, :func:`toggle_presenter` (the presenter toggle).
Space plays the run: in the browser, the Plotly animation of the page if it shows one;
otherwise (presenter mode) Python steps the scrubber while :data:`PLAY_KEY` is set, one
``tick`` event from the browser at a time (the next one only after the rerun of the last),
:data:`PLAY_FRAMES` steps over the whole run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from svmlab.ui import event_channel, session, themes
from svmlab.ui.session import get_session, session_object
from svmlab.ui.static_assets import component_module

__all__ = [
    "ACTIONS",
    "CLASS_KEY",
    "COMPONENT_NAME",
    "MODE_KEY",
    "PLANE_SHORTCUTS",
    "PLAY_FRAMES",
    "PLAY_KEY",
    "PRESENT_KEY",
    "SHORTCUTS",
    "TARGET_KEY",
    "apply_action",
    "apply_events",
    "apply_snapshot",
    "dark_page",
    "is_presenting",
    "key_map",
    "listen",
    "move_snapshot",
    "register_scrubber",
    "set_class",
    "toggle_erase",
    "toggle_play",
    "toggle_presenter",
]

COMPONENT_NAME = "svmlab_keys"
#: Session keys: presenter mode (bool), playing (bool), the page's scrubber ``(key, n)``.
PRESENT_KEY = session.PRESENT
PLAY_KEY = session.PLAYING
TARGET_KEY = session.KEYS_TARGET
#: The data panel's click-mode and class radios (``svmlab.ui.data_panel.data_controls`` with
#: its default ``key="data"``); ``tests/app/ui/test_keyboard.py`` checks they exist.
MODE_KEY = "data_mode"
CLASS_KEY = "data_class"
#: The component's widget key (its state holds the unacknowledged events), and the
#: session key of the highest event applied (a :class:`KeyInbox`).
WIDGET_KEY = session.KEYS
ACK_KEY = session.KEYS_ACK
#: The most unacknowledged key events one state value carries (the newest).
MAX_BATCH = 50
#: Playing steps through the run in about this many frames.
PLAY_FRAMES = 50
#: Milliseconds between two play steps (after the previous one has been drawn).
PLAY_INTERVAL_MS = 350

#: (keys as the browser's ``KeyboardEvent.key``, shown as, action, what it does).
SHORTCUTS: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    ((" ",), "Space", "play", "play / pause the run"),
    (("ArrowRight", "PageDown"), "→  PageDown", "next", "next snapshot (step ▶)"),
    (("ArrowLeft", "PageUp"), "←  PageUp", "prev", "previous snapshot (◀ step)"),
    (("Home",), "Home", "first", "first snapshot"),
    (("End",), "End", "last", "last snapshot"),
    (("1",), "1", "class:0", "new points: class 1 (y = −1 / class 0)"),
    (("2",), "2", "class:1", "new points: class 2 (y = +1 / class 1)"),
    (("3",), "3", "class:2", "new points: class 3 (multiclass: class 2)"),
    (("u", "U"), "u", "undo", "undo the last edit of the points"),
    (("e", "E"), "e", "erase", "erase mode on / off (click a point to remove it)"),
    (("p", "P"), "p", "present", "presenter mode on / off"),
    (("t", "T"), "t", "theme", "theme: light → dark → high contrast"),
    (("?",), "?", "help", "show / hide this list"),
)
#: The plane's own keys while it has the focus from the keyboard (``assets/plane_cursor.js``;
#: shown in the overlay, sent as the mouse's canvas events, not as actions).
PLANE_SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Tab", "to the plane, then to the model as a tree (↑ ↓ ← →, Enter selects a point)"),
    ("←  →  ↑  ↓", "on the plane: move the crosshair (Shift: fine steps)"),
    ("Enter", "on the plane: add a point of the selected class at the crosshair"),
    ("Delete", "on the plane: erase the selected point, else the nearest one"),
    ("n  N", "on the plane: select the next / previous point"),
    ("m", "on the plane: pick the selected point up; Enter drops it, Esc puts it back"),
    ("l  o", "on the plane: listen mode (f along the crosshair's row); the objective"),
)
#: Every action Python applies (``help`` is the browser's; ``tick`` is a play step).
ACTIONS = ("play", "tick", "next", "prev", "first", "last", "undo", "erase", "present", "theme")
ACTIONS += tuple(f"class:{j}" for j in range(3))

_COMPONENT = st.components.v2.component(
    COMPONENT_NAME,
    html='<div class="svmlab-keys"></div>',
    js=component_module("keys.js", preludes=("event_channel.js",)),  # loaded once per page
    isolate_styles=False,
)


@dataclass
class KeyInbox:
    """The keyboard's end of the event channel: the highest key event applied."""

    ack: int = 0

    def apply_events(self, events: list) -> int:
        """Apply the actions of ``events`` (the channel's: each ``seq`` once, in order);
        the number applied."""
        applied = 0
        for ev in events:
            if ev.get("action") in ACTIONS:
                apply_action(ev["action"])
                applied += 1
        return applied


def inbox() -> KeyInbox:
    """This session's :class:`KeyInbox`."""
    return session_object(ACK_KEY, KeyInbox)


def key_map() -> dict[str, str]:
    """``KeyboardEvent.key`` → action, from :data:`SHORTCUTS`."""
    return {k: action for keys, _, action, _ in SHORTCUTS for k in keys}


def is_presenting() -> bool:
    """Whether presenter mode is on (session key :data:`svmlab.ui.session.PRESENT`).

    Until the session has a value, ``?present=1`` in the URL turns it on (the share
    link's mapping of the parameter belongs to :mod:`svmlab.ui.linkstate`; this is the
    fallback for a session that starts from such a URL).
    """
    if PRESENT_KEY not in st.session_state:
        st.session_state[PRESENT_KEY] = st.query_params.get("present") in ("1", "true")
    return bool(st.session_state[PRESENT_KEY])


def dark_page() -> bool:
    """Whether the page's theme is dark (the app's theme switch, :mod:`svmlab.ui.themes`)."""
    return themes.current().dark


def toggle_presenter() -> None:
    """Presenter mode on ↔ off (the toolbar's button, the sidebar toggle, the ``p`` key)."""
    st.session_state[PRESENT_KEY] = not is_presenting()
    st.session_state[PLAY_KEY] = False


def register_scrubber(key: str, n: int) -> None:
    """The page's scrubber: its session key and its number of snapshots ``n``.

    The scrubber calls this on every run; :func:`listen` forgets it at the start of the
    next, so that a page without a scrubber ignores the step keys.
    """
    st.session_state[TARGET_KEY] = (str(key), int(n))


def move_snapshot(key: str, delta: int, n: int) -> None:
    """Move the scrubber ``key`` by ``delta`` snapshots, clipped to 0..n−1.

    The step buttons' callback and the arrow keys (Home / End: ``delta = ∓n``).
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"n must be at least 1 snapshot, got {n}")
    current = st.session_state.get(key, n - 1)
    st.session_state[key] = int(np.clip(int(current) + int(delta), 0, n - 1))


def apply_snapshot(event) -> bool:
    """The snapshot the canvas's transport stopped at (``{"type": "snap", "key", "sig",
    "k"}``: the scrubber's key, the run's signature, the snapshot index) applied to the
    page's scrubber, so that the report, the inspector and the share link follow t.

    Only to the scrubber of the last run (:func:`register_scrubber`) and only while it shows
    the same run (its signature): a snapshot of an older run is dropped. A widget
    callback's (before the page draws the scrubber). True if the scrubber moved.
    """
    target = st.session_state.get(TARGET_KEY)
    k = event.get("k") if isinstance(event, dict) else None
    if target is None or not isinstance(k, int | float) or isinstance(k, bool):
        return False
    key, n = target
    if event.get("key") != key or event.get("sig") != st.session_state.get(f"{key}__sig"):
        return False
    if not np.isfinite(k):
        return False
    new = int(np.clip(int(k), 0, n - 1))
    moved = st.session_state.get(key, n - 1) != new
    st.session_state[key] = new
    return moved


def toggle_play() -> None:
    """Play ↔ pause the presenter's run (from the last snapshot, play starts over)."""
    playing = not st.session_state.get(PLAY_KEY, False)
    st.session_state[PLAY_KEY] = playing
    target = st.session_state.get(TARGET_KEY)
    if playing and target is not None:
        key, n = target
        if st.session_state.get(key, n - 1) >= n - 1:
            st.session_state[key] = 0


def _tick() -> None:
    target = st.session_state.get(TARGET_KEY)
    if not st.session_state.get(PLAY_KEY) or target is None:
        st.session_state[PLAY_KEY] = False
        return
    key, n = target
    move_snapshot(key, max(1, -(-n // PLAY_FRAMES)), n)
    if st.session_state[key] >= n - 1:
        st.session_state[PLAY_KEY] = False


def set_class(j: int) -> None:
    """Class index ``j`` for new points (the data panel's class radio), if the page has it."""
    s = get_session()
    if j < s.n_classes:
        st.session_state[CLASS_KEY] = j
        s.cls = j


def toggle_erase() -> None:
    """Click mode erase ↔ add (the data panel's click-mode radio)."""
    s = get_session()
    mode = "add" if st.session_state.get(MODE_KEY, s.mode) == "erase" else "erase"
    st.session_state[MODE_KEY] = mode
    s.mode = mode


def apply_action(action: str) -> bool:
    """Apply one shortcut's action (see :data:`ACTIONS`); False if it does nothing here."""
    if action not in ACTIONS:
        raise ValueError(f"action must be one of {ACTIONS}, got {action!r}")
    target = st.session_state.get(TARGET_KEY)
    steps = {"next": 1, "prev": -1, "first": -(10**9), "last": 10**9}
    if action in steps:
        if target is None:
            return False
        move_snapshot(target[0], steps[action], target[1])
    elif action == "play":
        toggle_play()
    elif action == "tick":
        _tick()
    elif action.startswith("class:"):
        set_class(int(action.split(":")[1]))
    elif action == "undo":
        get_session().undo()  # what the data panel's Undo button calls
    elif action == "erase":
        toggle_erase()
    elif action == "theme":
        themes.cycle()
    else:
        toggle_presenter()
    return True


def apply_events(events) -> int:
    """Apply key events through the event channel (each ``seq`` above the session's ack
    once, in order); the number applied."""
    evs = [e for e in events or () if isinstance(e, dict) and event_channel.event_seq(e)]
    return int(event_channel.deliver(inbox(), evs))


def listen() -> None:
    """Mount the keyboard listener (once per run, before the page: :mod:`svmlab.ui.router`)."""
    data = {
        "keys": key_map(),
        "shortcuts": [[shown, text] for _, shown, _, text in SHORTCUTS]
        + [list(row) for row in PLANE_SHORTCUTS],
        "playing": bool(st.session_state.get(PLAY_KEY, False)),
        "presenting": is_presenting(),
        "interval": PLAY_INTERVAL_MS,
    }
    with st.sidebar:
        events = event_channel.listen(
            _COMPONENT,
            key=WIDGET_KEY,
            data=data,
            ack=inbox().ack,
            batch=MAX_BATCH,
            receive=apply_events,
            height="content",
        )
    # the callback applied them already; this applies any it did not see (each seq once)
    apply_events(events)
    st.session_state.pop(TARGET_KEY, None)  # the page registers its scrubber again
