"""Keyboard shortcuts (:mod:`svmlab.ui.keyboard`): the key table, and what each action does to
the session, through Streamlit's AppTest (a script that applies the events it is given).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui import keyboard

# Tolerance table: none — snapshot indices, classes and modes are exact.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120


def _script():
    """Register a scrubber of ``n`` snapshots (as controls.scrubber does), then apply the
    events queued in ``todo`` (as the component's callback does)."""
    import streamlit as st

    from svmlab.ui import keyboard
    from svmlab.ui.session import get_session

    s = get_session()
    s.n_classes = st.session_state.get("n_classes", 2)
    if "n" in st.session_state:
        keyboard.register_scrubber("snap", st.session_state["n"])
    st.session_state["applied"] = keyboard.apply_events(st.session_state.pop("todo", []))
    st.session_state["points"] = s.points.n


def _app(**state) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=TIMEOUT_S)
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    return at


def _press(at: AppTest, *actions: str, seq0: int | None = None) -> AppTest:
    start = seq0 if seq0 is not None else at.session_state["svmlab_keys_ack"].ack + 1
    at.session_state["todo"] = [
        {"action": a, "key": a, "seq": start + i} for i, a in enumerate(actions)
    ]
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_the_key_table_has_every_shortcut_of_the_brief():
    keys = keyboard.key_map()
    expected = {
        " ": "play",
        "ArrowRight": "next",
        "ArrowLeft": "prev",
        "PageDown": "next",  # clicker remotes
        "PageUp": "prev",
        "Home": "first",
        "End": "last",
        "1": "class:0",
        "2": "class:1",
        "3": "class:2",
        "u": "undo",
        "e": "erase",
        "p": "present",
        "?": "help",
    }
    assert {k: keys[k] for k in expected} == expected
    assert set(keys.values()) - {"help"} <= set(keyboard.ACTIONS)


def test_arrows_home_and_end_move_the_registered_scrubber_and_clip():
    at = _app(n=10, snap=9)
    _press(at, "prev", "prev")
    assert at.session_state["snap"] == 7
    _press(at, "first", "prev")
    assert at.session_state["snap"] == 0  # clipped at the first snapshot
    _press(at, "last", "next")
    assert at.session_state["snap"] == 9  # and at the last


def test_each_event_is_applied_once_and_old_or_unnumbered_events_are_ignored():
    at = _app(n=10, snap=5)
    _press(at, "next", seq0=100)
    assert at.session_state["snap"] == 6
    _press(at, "next", seq0=100)  # the same event again (a re-sent state value)
    assert at.session_state["snap"] == 6 and at.session_state["applied"] == 0
    _press(at, "prev", seq0=50)  # older than the last applied
    assert at.session_state["snap"] == 6
    at.session_state["todo"] = [{"action": "next"}, {"action": "shout", "seq": 200}]
    at.run()
    assert at.session_state["snap"] == 6 and at.session_state["applied"] == 0


def test_step_keys_do_nothing_on_a_page_without_a_scrubber():
    at = _app()
    _press(at, "next", seq0=1)
    assert "snap" not in at.session_state and at.session_state["applied"] == 1


def test_play_restarts_from_the_first_snapshot_and_ticks_stop_at_the_last():
    n = 120  # stride ⌈120 / 50⌉ = 3 snapshots per tick
    at = _app(n=n, snap=n - 1)
    _press(at, "play")
    assert at.session_state[keyboard.PLAY_KEY] and at.session_state["snap"] == 0
    _press(at, "tick")
    assert at.session_state["snap"] == 3
    ticks = 1
    while at.session_state[keyboard.PLAY_KEY]:
        _press(at, "tick")
        ticks += 1
        assert ticks <= keyboard.PLAY_FRAMES
    assert at.session_state["snap"] == n - 1 and ticks == 40  # ⌈119 / 3⌉
    _press(at, "tick")  # a late tick after the end changes nothing
    assert at.session_state["snap"] == n - 1


def test_pause_keeps_the_snapshot():
    at = _app(n=120, snap=0)
    _press(at, "play", "tick", "tick")
    assert at.session_state["snap"] == 6
    _press(at, "play", "tick")  # paused: the tick is ignored
    assert at.session_state["snap"] == 6 and not at.session_state[keyboard.PLAY_KEY]


def test_number_keys_choose_the_class_of_new_points_that_the_page_has():
    at = _app()
    _press(at, "class:0", seq0=1)
    assert at.session_state[keyboard.CLASS_KEY] == 0
    _press(at, "class:2")  # a binary page has no third class
    assert at.session_state[keyboard.CLASS_KEY] == 0
    at.session_state["n_classes"] = 3
    _press(at, "class:2")
    assert at.session_state[keyboard.CLASS_KEY] == 2


def test_e_toggles_erase_mode_and_u_undoes_the_last_edit():
    at = _app()
    _press(at, "erase", seq0=1)
    assert at.session_state[keyboard.MODE_KEY] == "erase"
    _press(at, "erase")
    assert at.session_state[keyboard.MODE_KEY] == "add"
    n0 = at.session_state["points"]
    # add a point as the canvas does (the session's apply_events), then undo it by key
    at.session_state["svmlab_session"].apply_events(  # the channel's fresh events
        [{"type": "add", "x": 0.1, "y": 0.2, "cls": 1, "cls_index": 1, "seq": 1}]
    )
    at.run()
    assert at.session_state["points"] == n0 + 1
    _press(at, "undo")
    assert at.session_state["points"] == n0


def test_p_toggles_presenter_mode_and_stops_playing():
    at = _app(n=10, snap=0)
    _press(at, "play", seq0=1)
    _press(at, "present")
    assert at.session_state[keyboard.PRESENT_KEY] is True
    assert at.session_state[keyboard.PLAY_KEY] is False
    _press(at, "present")
    assert at.session_state[keyboard.PRESENT_KEY] is False


def test_bad_actions_and_snapshot_counts_are_refused_by_name():
    with pytest.raises(ValueError, match="action must be one of"):
        keyboard.apply_action("shout")
    with pytest.raises(ValueError, match="n must be at least 1"):
        keyboard.move_snapshot("snap", 1, 0)


def test_the_data_panel_radios_are_the_keys_the_shortcuts_set():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/kernel_pegasos.py")
    at.run()
    assert at.radio(key=keyboard.CLASS_KEY).value in (0, 1)
    assert at.radio(key=keyboard.MODE_KEY).value == "add"
    # the scrubber registered itself for the arrow keys
    key, n = at.session_state[keyboard.TARGET_KEY]
    assert key == "kernel_pegasos_snap" and n == len(at.select_slider(key=key).options)
