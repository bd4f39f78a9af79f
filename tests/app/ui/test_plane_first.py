"""A click's new plane goes to the browser first, its frames after it (the lab as an
instrument: the refitted boundary is painted before the report is built).

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
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui import page as page_module
from svmlab.ui import plane as plane_module

# Tolerance table: none — element data, names and call order are compared exactly.

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
