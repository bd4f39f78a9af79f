"""A click's refitted plane is painted first; the run's frames follow it (the lab as an
instrument: playback from the run's frames, on the main plane, ready when play is pressed).

The plane's message names the new run's frames (``frames_id``) and the feed's message,
right after it in the same script run, brings them (``svmlab.ui.plane.feed``;
``assets/canvas.js``: ``takeFrames``). Play pressed before they arrive plays once they do.
"""

from __future__ import annotations

import json

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

RENDERS_JS = "() => Number(document.querySelector('.svmlab-canvas-plot').dataset.renders)"
KEPT_MISS_JS = "() => document.querySelector('.svmlab-canvas-plot').dataset.keptMiss || null"


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


def _messages(frames) -> list:
    """The websocket's binary frames as Streamlit's ForwardMsg protobufs."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    return [ForwardMsg.FromString(bytes(f)) for f in frames if not isinstance(f, str)]


def _canvas_data(msg) -> dict | None:
    """The data of the canvas (not its feed) if ``msg`` draws it, else None."""
    if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
        return None
    el = msg.delta.new_element
    if el.WhichOneof("type") != "bidi_component":
        return None
    if not el.bidi_component.component_name.endswith("svmlab_canvas"):
        return None
    return json.loads(el.bidi_component.json)


def _page_run_done(msgs) -> bool:
    """Whether the messages hold two canvases and a finished script run after the second."""
    drawn = [k for k, m in enumerate(msgs) if _canvas_data(m) is not None]
    ends = [k for k, m in enumerate(msgs) if m.WhichOneof("type") == "script_finished"]
    return len(drawn) >= 2 and any(k > drawn[1] for k in ends)


@pytest.mark.parametrize("view", ["", "?present=1"], ids=["normal", "presenter"])
def test_a_click_reruns_the_plane_s_fragment_first_then_the_whole_page(app, browser_context, view):
    """The canvas is in a fragment of its own (``svmlab.ui.plane_cell``): a click's first
    script run is that fragment's, and the new figure is its first element — before the
    router's messages (navigation, theme, shortcuts) and the widgets; then the whole page
    runs and sends the canvas again at the same place without its figure (kept: the
    browser has it, and does not draw it twice), the widgets and the report. In presenter
    mode too (no report: the run's frames come with the fragment's canvas, and are kept)."""
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = ctx.new_page()
        frames: list = []
        tab.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
        tab.goto(app.url + "kernel_pegasos" + view)
        tab.wait_for_function(
            f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.boundary === 1; }}",
            timeout=TIMEOUT_MS,
        )
        tab.wait_for_function(f"() => ({FRAMES_JS})().id !== null", timeout=TIMEOUT_MS)
        tab.wait_for_timeout(500)
        n = tab.evaluate(CANVAS_JS)["n"]
        renders = tab.evaluate(RENDERS_JS)
        px, py, _, _ = tab.evaluate(TO_PAGE_JS, [0.5, 0.25])
        frames.clear()
        tab.mouse.click(px, py)
        tab.wait_for_function(
            f"() => {{ const f = ({FRAMES_JS})(); return f.nPoints === {n + 1}; }}",
            timeout=TIMEOUT_MS,
        )  # the new run's frames are in
        for _ in range(TIMEOUT_MS // 100):
            if _page_run_done(_messages(frames)):
                break
            tab.wait_for_timeout(100)
        msgs = _messages(frames)
        kinds = [m.WhichOneof("type") for m in msgs]
        drawn = [(k, d) for k, m in enumerate(msgs) if (d := _canvas_data(m)) is not None]
        assert len(drawn) == 2, f"the fragment's canvas and the page's: {len(drawn)}"
        (first, early), (second, again) = drawn
        assert "navigation" not in kinds[:first], "the router's messages came before the plane"
        assert "navigation" in kinds[first:second], "the whole page ran after the fragment"
        assert len(early["points"]["x"]) == n + 1, "the fragment's canvas has the new point"
        path = list(msgs[first].metadata.delta_path)
        assert list(msgs[second].metadata.delta_path) == path, "the canvas kept its element"
        assert again["kept"] and again["figure"] is None, "the page's run keeps the figure"
        assert again["stamp"] == early["stamp"], "... of the fragment's stamp"
        assert again["playback"] is None, "... and the run's frames"
        for m in msgs[:first]:
            if m.WhichOneof("type") == "delta":
                inside = list(m.metadata.delta_path)[: len(path) - 2]
                assert inside == path[: len(path) - 2], "only the fragment's elements first"
        assert tab.evaluate(RENDERS_JS) == renders + 1, "the plane drawn once for the click"
        assert tab.evaluate(KEPT_MISS_JS) is None, "the canvas had the figure it kept"
        assert tab.evaluate(CANVAS_JS)["boundary"] == 1
        tab.keyboard.press("End")  # the kept frames play: the transport steps on the plane
        tab.keyboard.press("Home")
        tab.wait_for_function(
            f"() => ({FRAMES_JS})().drawnAt > 0", timeout=TIMEOUT_MS
        )  # a frame of the new run drawn
        assert tab.locator('[data-testid="stException"]').count() == 0
    finally:
        ctx.close()
