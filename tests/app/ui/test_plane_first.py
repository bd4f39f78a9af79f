"""A click's new plane goes to the browser first, its frames after it (the lab as an
instrument: the refitted boundary is painted before the report is built), and before the
parameter widgets and the sidebar's data panel (``svmlab.ui.plane_first``).

On a new run (a click, a parameter) the page draws the canvas at the run's last snapshot
before the fragment of the scrubber and the report (``svmlab.ui.page.algorithm_page``), and
without the run's frames: it names them (``frames_id``) and a feed at the end of the
fragment brings them (``svmlab.ui.plane.feed_frames``), so the plane's message is small and
the first of the run's big ones, and the browser draws it before the frames arrive. A
session's first run keeps the frames in the canvas's own data (the scrubber, which may hold
a share link's snapshot, chooses the snapshot first).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.testing.v1 import AppTest

from svmlab.ui import page as page_module
from svmlab.ui import plane as plane_module
from svmlab.ui import plane_first

# Tolerance table ------------------------------------------------------------------------
TOL_EARLY_S = 0.05  # a paint wait cut short by a new run (s), against 0.1 s in full
# (element data, names and call order are compared exactly)

ROOT = Path(__file__).resolve().parents[3]


def _component(at: AppTest, name: str) -> list[dict]:
    return [
        json.loads(n.proto.json)
        for n in at.get("bidi_component")
        if n.proto.component_name.endswith(name)
    ]


@pytest.fixture
def order(monkeypatch):
    """The order in which a script run draws the canvas and builds the report."""
    calls: list[str] = []

    def logged(module, name, label):
        real = getattr(module, name)

        def call(*args, **kwargs):
            calls.append(label)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, call)

    logged(plane_module, "canvas", "canvas")
    logged(page_module, "run_report", "report")
    logged(page_module, "feed_frames", "frames")
    return calls


def _kernel_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/kernel_pegasos.py")
    return at.run()


def _click(at: AppTest, x: float, y: float, seq: int) -> AppTest:
    """A point added as the canvas's channel adds it (the session's apply_events)."""
    at.session_state["svmlab_session"].apply_events(
        [{"type": "add", "x": x, "y": y, "cls": 1, "cls_index": 1, "seq": seq}]
    )
    return at.run()


def test_a_click_draws_the_plane_before_the_report_and_its_frames_follow(order):
    at = _kernel_page()
    assert not at.exception
    # the session's first run: the scrubber chose the snapshot, the frames are inline
    assert order[-3:] == ["report", "frames", "canvas"]
    (first,) = _component(at, "svmlab_canvas")
    assert first["playback"]["n"] == 100 and first["frames_id"] is None
    order.clear()
    _click(at, 0.4, 0.3, seq=1)
    assert not at.exception
    assert order == ["canvas", "report", "frames"], "the new plane first, its frames last"
    (canvas,) = _component(at, "svmlab_canvas")
    plane_feed, feed = _component(at, "svmlab_canvas_feed")
    assert "playback" not in plane_feed, "the plane's feed (a scrub's figures) has no frames"
    assert canvas["playback"] is None, "no frames in the plane's message"
    assert canvas["frames_id"] and canvas["frames_id"] == feed["playback"]["id"]
    assert (
        feed["playback"]["n"] == 100
        and feed["playback"]["n_points"] == first["playback"]["n_points"] + 1
    )
    assert "figure" not in feed, "the canvas has the figure already"
    assert canvas["snapshot"] == feed["playback"]["index"][-1], "the run's last snapshot"


def test_a_run_the_page_shows_again_keeps_its_frames_in_the_canvas(order):
    at = _kernel_page()
    _click(at, 0.4, 0.3, seq=1)
    order.clear()
    at.run()  # the same run again (e.g. a theme or a panel): nothing new to send first
    assert not at.exception
    assert order == ["report", "frames", "canvas"]
    (canvas,) = _component(at, "svmlab_canvas")
    feeds = _component(at, "svmlab_canvas_feed")
    assert canvas["playback"]["n"] == 100 and not [f for f in feeds if "playback" in f]


# -- a click's canvas before the widgets (svmlab.ui.plane_first) --------------------------


@pytest.fixture
def sent(monkeypatch):
    """What a script run sends, in the order Streamlit sends it: "canvas" for the canvas's
    element, "widget:<key>" for a widget's (by its key)."""
    out: list[str] = []

    def record(msg):
        if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        kind = el.WhichOneof("type")
        if kind == "bidi_component":
            name = el.bidi_component.component_name
            if name.endswith("svmlab_canvas"):
                out.append("canvas")
            return
        wid = getattr(getattr(el, kind), "id", "")
        if isinstance(wid, str) and "-" in wid:
            out.append("widget:" + wid.rsplit("-", 1)[1])

    monkeypatch.setattr(ForwardMsgQueue, "_before_enqueue_msg", record)
    return out


def _first(sent: list[str], label: str) -> int:
    assert label in sent, f"{label} not sent: {sent}"
    return sent.index(label)


def _runs(monkeypatch) -> list[str]:
    """The page's parameter widgets drawn, once per script run of the page."""
    calls: list[str] = []
    real = page_module.parameters

    def counted(page, *args, **kwargs):
        calls.append(page)
        return real(page, *args, **kwargs)

    monkeypatch.setattr(page_module, "parameters", counted)
    return calls


def test_a_click_sends_the_canvas_before_the_parameter_widgets_and_the_data_panel(
    sent, monkeypatch
):
    runs = _runs(monkeypatch)
    at = _kernel_page()
    # the session's first run: the widgets decide the run, so they come first
    assert _first(sent, "widget:kernel_pegasos_lam") < _first(sent, "canvas")
    assert _first(sent, "widget:data_mode") < _first(sent, "canvas")
    for seq, (x, y) in enumerate([(0.4, 0.3), (-0.5, 0.9), (1.6, -0.4)], start=1):
        sent.clear()
        runs.clear()
        _click(at, x, y, seq=seq)
        assert not at.exception
        canvas = _first(sent, "canvas")
        assert canvas < _first(sent, "widget:kernel_pegasos_lam"), sent[: canvas + 3]
        assert canvas < _first(sent, "widget:kernel_pegasos_kernel")
        assert canvas < _first(sent, "widget:data_mode"), "the sidebar's data widgets after it"
        assert runs == ["kernel"], "one script run per click"
        (drawn,) = _component(at, "svmlab_canvas")
        assert drawn["playback"] is None and drawn["frames_id"], "the frames follow"
        assert len(drawn["points"]["x"]) == 100 + seq


def test_the_widgets_keep_their_places_when_the_canvas_goes_first():
    at = _kernel_page()
    before = _layout(at)
    _click(at, 0.4, 0.3, seq=1)
    assert _layout(at) == before
    assert at.sidebar.markdown[0].value.startswith("**Data**")
    assert at.radio(key="data_mode").value == "add"
    assert at.select_slider(key="kernel_pegasos_lam").value == 0.01


def _layout(at: AppTest) -> tuple:
    """The labels of the sidebar's and the parameters' widgets, in page order."""
    side = tuple(w.label for w in at.sidebar if hasattr(w, "label"))
    main = tuple(getattr(w, "key", None) for w in at.main if getattr(w, "key", None))
    return side, main


def test_a_parameter_change_draws_the_widgets_first_in_one_run(sent, monkeypatch):
    runs = _runs(monkeypatch)
    at = _kernel_page()
    _click(at, 0.4, 0.3, seq=1)
    sent.clear()
    runs.clear()
    at.select_slider(key="kernel_pegasos_lam").set_value(0.1).run()
    assert not at.exception
    assert runs == ["kernel"], "one script run"
    assert _first(sent, "widget:kernel_pegasos_lam") < _first(sent, "canvas")
    (drawn,) = _component(at, "svmlab_canvas")
    assert at.session_state["svmlab_shown"].params["lam"] == 0.1
    assert drawn["frames_id"], "a new run, drawn at its last snapshot before the report"


def test_the_click_mode_changed_in_the_sidebar_reaches_a_canvas_drawn_first(sent):
    at = _kernel_page()
    _click(at, 0.4, 0.3, seq=1)
    at.radio(key="data_mode").set_value("erase").run()
    assert not at.exception
    (drawn,) = _component(at, "svmlab_canvas")
    assert drawn["mode"] == "erase"
    sent.clear()
    at.session_state["svmlab_session"].apply_events(
        [{"type": "erase", "index": 0, "x": 0.0, "y": 0.0, "rx": 9.0, "ry": 9.0, "seq": 2}]
    )
    at.run()
    assert not at.exception
    assert _first(sent, "canvas") < _first(sent, "widget:data_mode")
    (drawn,) = _component(at, "svmlab_canvas")
    assert drawn["mode"] == "erase" and len(drawn["points"]["x"]) == 100


def test_parameters_computed_from_the_points_rerun_once_then_draw_the_widgets_first(
    sent, monkeypatch
):
    """Corollary 17.2's η (SSBD, seed 001) depends on ρ = 2 max_i ‖x̃_i‖: a click far out
    changes it, so the canvas drawn with the last run's η is replaced at once by the run
    of the widgets' η, and the widgets go first from then on (their values unchanged)."""
    runs = _runs(monkeypatch)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/multiclass.py")
    at.run()
    at.checkbox(key="multiclass_sgd_use_rec").check().run()
    assert not at.exception
    eta = at.session_state["svmlab_shown"].params["eta"]
    runs.clear()
    sent.clear()
    _click(at, 9.0, 9.0, seq=1)  # ρ grows
    assert not at.exception
    assert runs == ["multiclass", "multiclass"], "one rerun with the widgets' η"
    assert at.session_state["svmlab_shown"].params["eta"] < eta
    assert sent.count("canvas") == 2
    runs.clear()
    sent.clear()
    _click(at, -9.0, 9.5, seq=2)
    assert not at.exception
    assert runs == ["multiclass"], "no second run: the widgets went first"
    assert _first(sent, "widget:multiclass_sgd_eta") < _first(sent, "canvas")


def test_the_wait_for_the_plane_s_paint_ends_when_the_browser_asks_for_a_new_run(monkeypatch):
    t0 = time.perf_counter()
    plane_first.let_it_paint()
    assert time.perf_counter() - t0 >= plane_first.PAINT_WINDOW_S
    monkeypatch.setattr(plane_first, "_rerun_requested", lambda: True)  # another click
    t0 = time.perf_counter()
    plane_first.let_it_paint()
    assert time.perf_counter() - t0 < TOL_EARLY_S
