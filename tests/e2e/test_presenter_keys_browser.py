"""Keyboard shortcuts and presenter mode in a real browser (headless Debian Chromium).

On Kernel Pegasos (the app started as the README does): ← / → / Home / End / PageUp step the
run on the plane and the server's scrubber follows (its label "t = …" changes and comes
back), 1 / 2 choose the class of new points, e toggles erase mode, u undoes a click, ? opens
the shortcut overlay and Escape closes it, a key typed into a field is not a shortcut; p
turns presenter mode on (the sidebar is hidden, the plane is wider) and off, Space plays
and pauses the run on the plane, in presenter mode and in the normal layout.
Screenshots go to ``artifacts/present_*.png``.
"""

from __future__ import annotations

import time

import pytest

from svmlab.plot.look import theme

from .canvas_js import TO_PAGE_JS
from .conftest import README_COMMAND, outside_requests, screenshot

pytestmark = pytest.mark.browser

# Tolerance table: none — labels, classes and counts are exact; waits are bounded by the
# timeouts below.

TIMEOUT_MS = 30_000  # one Streamlit rerun
LOAD_TIMEOUT_MS = 90_000  # a first page load on a cold server

PLOT = ".svmlab-canvas-plot"
SIDEBAR = '[data-testid="stSidebar"]'
DARK_BG = theme.DARK["background"]

SNAP_JS = """() => {
  const s = Array.from(document.querySelectorAll('[data-testid="stSlider"]'))
    .find(e => e.innerText.includes('Scrub through'));
  const v = s && s.querySelector('[data-testid="stSliderThumbValue"]');
  return v ? v.innerText.trim() : null;
}"""

# The canvas's playback (assets/canvas.js): the frame shown, playing, the transport shown.
FRAME_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  return {frame: d ? d.dataset.frame || null : null, playing: !!d && d.dataset.playing === '1',
          transport: !!document.querySelector('.svmlab-transport:not([hidden])')};
}"""

PLOT_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  if (!d) return null;
  const r = d.getBoundingClientRect();
  return {n: Number(d.dataset.nPoints), pending: Number(d.dataset.pending || 0),
          cls: d.dataset.cls, mode: d.dataset.mode, height: r.height, width: r.width};
}"""


@pytest.fixture(scope="module")
def server(start_app):
    return start_app("app.py", command=README_COMMAND)


def _open(page, server, path="kernel_pegasos"):
    page.goto(server.url + path, timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(f"{PLOT} .main-svg", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function(f"() => ({SNAP_JS})() !== null", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".svmlab-keys-hint", timeout=TIMEOUT_MS)
    time.sleep(0.5)


def _snap(page):
    return page.evaluate(SNAP_JS)


def _wait_snap(page, *, equal=None, differ=None):
    cond = f"v === {equal!r}" if equal is not None else f"v !== null && v !== {differ!r}"
    js = f"() => {{ const v = ({SNAP_JS})(); return {cond}; }}"
    page.wait_for_function(js, timeout=TIMEOUT_MS)
    return _snap(page)


def _wait_plot(page, cond: str):
    page.wait_for_function(
        f"() => {{ const s = ({PLOT_JS})(); return s && s.pending === 0 && ({cond}); }}",
        timeout=TIMEOUT_MS,
    )
    return page.evaluate(PLOT_JS)


def _press(page, key):
    page.keyboard.press(key)


def test_arrow_keys_home_end_and_pageup_step_the_scrubber(page, server):
    _open(page, server)
    last = _snap(page)
    assert last.startswith("t = ")
    _press(page, "ArrowLeft")
    before = _wait_snap(page, differ=last)
    _press(page, "ArrowRight")
    _wait_snap(page, equal=last)
    _press(page, "Home")
    first = _wait_snap(page, differ=last)
    assert int(first[4:].replace(",", "")) < int(before[4:].replace(",", ""))
    _press(page, "End")
    _wait_snap(page, equal=last)
    _press(page, "PageUp")  # a clicker remote's "back"
    _wait_snap(page, equal=before)
    _press(page, "PageDown")
    _wait_snap(page, equal=last)
    assert not outside_requests(page.requests)


def test_number_keys_erase_undo_and_the_overlay(page, server):
    _open(page, server)
    _press(page, "1")
    _wait_plot(page, "s.cls === '0'")
    _press(page, "2")
    _wait_plot(page, "s.cls === '1'")
    _press(page, "e")
    _wait_plot(page, "s.mode === 'erase'")
    _press(page, "e")
    s = _wait_plot(page, "s.mode === 'add'")
    n0 = s["n"]
    x, y, _, _ = page.evaluate(TO_PAGE_JS, [0.0, 0.0])
    page.mouse.click(x, y)
    _wait_plot(page, f"s.n === {n0 + 1}")
    _press(page, "u")
    _wait_plot(page, f"s.n === {n0}")
    overlay = page.locator(".svmlab-keys-overlay")
    assert overlay.is_hidden()
    _press(page, "?")
    overlay.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "presenter mode" in overlay.inner_text() and "PageDown" in overlay.inner_text()
    screenshot(page, "present_overlay")
    _press(page, "Escape")
    overlay.wait_for(state="hidden", timeout=TIMEOUT_MS)
    assert not page.js_errors, page.js_errors


def test_a_key_typed_into_a_field_is_not_a_shortcut(page, server):
    _open(page, server)
    field = page.locator('[data-testid="stMain"] input[type="number"]').first
    field.click()
    _press(page, "p")
    _press(page, "Home")
    time.sleep(1.5)
    assert page.locator(SIDEBAR).is_visible()
    assert page.locator(".svmlab-keys-overlay").is_hidden()
    assert page.evaluate("() => document.documentElement.dataset.svmlabKeysSent || '0'") == "0"
    # the data editor's grid keeps its arrows (they move between cells)
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("Edit points as a table").click()
    grid = sidebar.locator('[data-testid="stDataFrame"]')
    grid.wait_for(timeout=TIMEOUT_MS)
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 60, box["y"] + 50)  # a cell of the first row
    page.wait_for_timeout(300)
    _press(page, "ArrowRight")
    _press(page, "ArrowDown")
    page.wait_for_timeout(1000)
    assert page.evaluate("() => document.documentElement.dataset.svmlabKeysSent || '0'") == "0"


def test_p_toggles_presenter_mode_and_space_plays_the_run(page, server):
    _open(page, server)
    normal = page.evaluate(PLOT_JS)
    assert page.locator(SIDEBAR).is_visible()
    screenshot(page, "present_normal")
    _press(page, "p")
    page.get_by_role("button", name="✕ presenter off (p)").wait_for(timeout=TIMEOUT_MS)
    page.locator(SIDEBAR).wait_for(state="hidden", timeout=TIMEOUT_MS)
    # both layouts fill the window's height; presenter mode's plane also takes its width
    big = _wait_plot(
        page, f"s.width > {normal['width'] + 100} && s.height >= 0.7 * window.innerHeight"
    )
    tick_px = page.evaluate(
        "() => parseFloat(document.querySelector('.svmlab-canvas-plot .xtick text').style.fontSize)"
    )
    assert tick_px >= 24, "projector text"
    last = _snap(page)
    screenshot(page, "present_on")
    _press(page, " ")  # play on the plane, from the first snapshot
    page.wait_for_function(f"() => ({FRAME_JS})().playing", timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => Number(({FRAME_JS})().frame) >= 2", timeout=TIMEOUT_MS)
    _press(page, " ")  # pause: the snapshot goes back to the server once
    page.wait_for_function(f"() => !({FRAME_JS})().playing", timeout=TIMEOUT_MS)
    time.sleep(1.0)
    frame = page.evaluate(FRAME_JS)["frame"]
    held = _wait_snap(page, differ=last)
    time.sleep(1.5)
    assert _snap(page) == held and page.evaluate(FRAME_JS)["frame"] == frame, "paused"
    _press(page, "ArrowRight")
    _wait_snap(page, differ=held)
    _press(page, "p")
    page.locator(SIDEBAR).wait_for(state="visible", timeout=TIMEOUT_MS)
    _wait_plot(page, f"s.width < {big['width'] - 100}")
    # and the sidebar's button turns it on again
    page.get_by_role("button", name="Presenter mode (p)").click()
    page.locator(SIDEBAR).wait_for(state="hidden", timeout=TIMEOUT_MS)
    page.get_by_role("button", name="✕ presenter off (p)").click()
    page.locator(SIDEBAR).wait_for(state="visible", timeout=TIMEOUT_MS)
    assert not outside_requests(page.requests)


def test_a_dark_system_theme_gives_a_dark_plane(browser_context, server):
    # the app's theme (svmlab.ui.themes) draws the plane: a dark one since the link says so
    # (a link without a theme opens in light, whatever the system: tests/e2e/test_theme_browser)
    page = browser_context.new_page()
    try:
        page.emulate_media(color_scheme="dark")
        _open(page, server, "linear_pegasos?theme=dark")
        page.wait_for_function(
            f"() => document.querySelector('{PLOT}').layout.paper_bgcolor === '{DARK_BG}'",
            timeout=TIMEOUT_MS,
        )
        screenshot(page, "present_dark")
    finally:
        page.close()


def test_space_plays_and_pauses_the_run_on_the_plane_in_normal_mode(page, server):
    _open(page, server)
    page.wait_for_function(f"() => ({FRAME_JS})().transport", timeout=TIMEOUT_MS)
    last = _snap(page)
    _press(page, " ")
    page.wait_for_function(f"() => ({FRAME_JS})().playing", timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => Number(({FRAME_JS})().frame) >= 2", timeout=TIMEOUT_MS)
    sent = page.evaluate("() => document.documentElement.dataset.svmlabKeysSent || '0'")
    assert sent == "0", "played in the browser: no key event went to Python"
    assert page.locator("g.updatemenu-button").count() == 0, "no second animation plane"
    _press(page, " ")
    page.wait_for_function(f"() => !({FRAME_JS})().playing", timeout=TIMEOUT_MS)
    held = page.evaluate(FRAME_JS)["frame"]
    _wait_snap(page, differ=last)  # the snapshot it stopped at, on the server
    page.wait_for_timeout(1200)
    assert page.evaluate(FRAME_JS)["frame"] == held, "paused"
    assert not page.js_errors, page.js_errors
