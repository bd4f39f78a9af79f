"""Presenter mode (:mod:`svmlab.ui.presenter`) through Streamlit's AppTest on the real app.

``?present=1`` opens a page in presenter mode: the parameter widgets are drawn only inside
the hidden container (so their values survive), the objective, the prose and the report
are gone, the toolbar and the scrubber stay; turning it off brings the page back with the
same parameters and snapshot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui import keyboard, presenter

# Tolerance table: none — widget values and element counts are exact.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120


def _open(page: str, *, present: bool) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    if present:
        at.query_params["present"] = "1"
    at.run()
    if page != "home":
        at.switch_page(f"pages/{page}.py")
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _hidden_block(at: AppTest):
    blocks = [
        node
        for node in _walk(at.main)
        if type(node).__name__ == "Block" and presenter.HIDDEN_KEY in str(node.proto.id)
    ]
    assert len(blocks) == 1, "one hidden parameter container"
    return blocks[0]


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _keys(node) -> set[str]:
    return {getattr(n, "key", None) for n in _walk(node)} - {None}


@pytest.mark.parametrize("page", ["kernel_pegasos", "linear_pegasos", "dual_svm", "multiclass"])
def test_present_1_hides_the_parameters_and_report_and_keeps_the_toolbar(page):
    at = _open(page, present=True)
    assert at.session_state[keyboard.PRESENT_KEY] is True
    hidden = _keys(_hidden_block(at))
    shown = _keys(at.main) - hidden
    params = {k for k in hidden if not k.startswith("svmlab_")}
    assert params, "the parameter widgets are drawn (hidden)"
    assert not any(k in shown for k in params), "no parameter widget outside the hidden box"
    assert {"svmlab_present_off", "svmlab_present_play", "svmlab_present_erase"} <= shown
    assert any(k.endswith("_snap") for k in shown), "the scrubber stays"
    assert not at.metric, "no report"
    assert not at.latex or all(_inside(at, el, _hidden_block(at)) for el in at.latex)
    assert not at.exception and not at.error
    css = [e.proto.body for e in at.get("html")]
    assert any('[data-testid="stSidebar"]' in c and "display: none" in c for c in css)


def _inside(at, element, block) -> bool:
    return any(node is element for node in _walk(block))


def test_normal_mode_shows_the_parameters_the_report_and_the_presenter_button():
    at = _open("kernel_pegasos", present=False)
    assert at.session_state[keyboard.PRESENT_KEY] is False
    assert at.metric and at.select_slider(key="kernel_pegasos_gamma")
    assert at.sidebar.button(key="svmlab_present_on")
    assert not [n for n in _walk(at.main) if presenter.HIDDEN_KEY in str(getattr(n, "proto", ""))]


def test_presenter_round_trip_keeps_parameters_and_snapshot():
    at = _open("kernel_pegasos", present=False)
    at.select_slider(key="kernel_pegasos_gamma").set_value(10.0).run()
    at.button(key="kernel_pegasos_snap_back").click().run()
    at.button(key="kernel_pegasos_snap_back").click().run()
    snap = at.select_slider(key="kernel_pegasos_snap").value
    metrics = [m.value for m in at.metric]
    at.sidebar.button(key="svmlab_present_on").click().run()
    assert at.session_state[keyboard.PRESENT_KEY] is True and not at.metric
    assert at.select_slider(key="kernel_pegasos_snap").value == snap
    at.button(key="svmlab_present_off").click().run()
    assert at.session_state[keyboard.PRESENT_KEY] is False
    assert at.select_slider(key="kernel_pegasos_gamma").value == 10.0
    assert at.select_slider(key="kernel_pegasos_snap").value == snap
    assert [m.value for m in at.metric] == metrics


def test_toolbar_class_play_and_erase_act_on_the_session():
    at = _open("kernel_pegasos", present=True)
    at.radio(key="svmlab_present_class").set_value(0).run()
    assert at.session_state[keyboard.CLASS_KEY] == 0
    at.button(key="svmlab_present_erase").click().run()
    assert at.session_state[keyboard.MODE_KEY] == "erase"
    assert at.button(key="svmlab_present_erase").label.startswith("✎ add")
    at.button(key="svmlab_present_play").click().run()
    assert at.session_state[keyboard.PLAY_KEY] is True
    assert at.select_slider(key="kernel_pegasos_snap").value == 0  # from the start
    assert at.button(key="svmlab_present_play").label == "❙❙ pause"


def test_home_in_presenter_mode_runs_clean_with_the_off_button():
    at = _open("home", present=True)
    assert not at.exception and not at.error
    assert at.button(key="svmlab_present_off")
