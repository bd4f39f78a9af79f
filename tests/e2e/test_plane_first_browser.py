"""A click's refitted plane is painted first; the run's frames follow it (the lab as an
instrument: playback from the run's frames, on the main plane, ready when play is pressed).

The plane's message names the new run's frames (``frames_id``) and the feed's message,
right after it in the same script run, brings them (``svmlab.ui.plane.feed``;
``assets/canvas.js``: ``takeFrames``). Play pressed before they arrive plays once they do.
"""

from __future__ import annotations

import pytest

from .conftest import ROOT, AppServer, screenshot
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table: none — counts, names and states are compared exactly.

pytestmark = pytest.mark.browser
TIMEOUT_MS = 120_000

FRAMES_JS = """() => {
  const c = document.querySelector('.svmlab-canvas').__svmlabCanvas;
  const d = c.plot;
  return {id: c.frames ? c.frames.pb.id : null, due: c.data ? c.data.frames_id || null : null,
          nPoints: c.frames ? c.frames.pb.n_points : null, framesIn: d.dataset.framesIn || null,
          playing: d.dataset.playing === '1', drawnAt: Number(d.dataset.frameDrawnAt || 0)};
}"""


@pytest.fixture(scope="module")
def app():
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


def test_the_frames_follow_the_plane_and_play_pressed_at_once_plays_them(app, browser_context):
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = ctx.new_page()
        tab.goto(app.url + "kernel_pegasos")
        tab.wait_for_function(
            f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.boundary === 1; }}",
            timeout=TIMEOUT_MS,
        )
        tab.wait_for_function(f"() => ({FRAMES_JS})().id !== null", timeout=TIMEOUT_MS)
        first = tab.evaluate(FRAMES_JS)
        assert first["framesIn"] is None, "a session's first run has its frames inline"
        n = tab.evaluate(CANVAS_JS)["n"]
        px, py, _, _ = tab.evaluate(TO_PAGE_JS, [0.5, 0.25])
        tab.mouse.click(px, py)
        # play at once, before the new run's plane (and its frames) can have arrived: the
        # new run plays once its frames are here
        tab.keyboard.press(" ")
        tab.wait_for_function(
            f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.n === {n + 1} "
            "&& s.pending === 0; }",
            timeout=TIMEOUT_MS,
        )
        tab.wait_for_function(
            f"() => {{ const f = ({FRAMES_JS})(); return f.nPoints === {n + 1}; }}",
            timeout=TIMEOUT_MS,
        )
        got = tab.evaluate(FRAMES_JS)
        assert got["id"] == got["due"] and got["id"] != first["id"], got
        assert got["framesIn"] is not None, "the new run's frames came after its plane"
        tab.wait_for_function(
            f"() => {{ const f = ({FRAMES_JS})(); return f.drawnAt > Number(f.framesIn); }}",
            timeout=TIMEOUT_MS,
        )  # a frame of the new run drawn: Space played it
        assert tab.locator('[data-testid="stException"]').count() == 0
        screenshot(tab, "plane_first_after_click")
    finally:
        ctx.close()
