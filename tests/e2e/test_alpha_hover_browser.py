"""Hovering an α bar highlights its point on the plane, and hovering a point highlights its
bar (α shown per point as a bar chart beside the plot, in the same point order; hovering
one highlights the other; the canvas component draws the bars itself
and links them locally, with plotly's public API only), in a real browser (Debian's
headless Chromium driven by the ``playwright`` Python package).

Drives ``tests/e2e/canvas_app.py?bars=1`` (the app's plane figure with α as marker size and
``data_canvas(..., bars=alpha_bar_figure(...))``). One server and one tab for the module
(tests run in file order):

1. The mouse over bar j rings point j on the plane (an overlay ring at the point's pixel
   position) and shows point j's hover label; leaving the bar removes both. The mouse over
   point k on the plane outlines bar k (a layout shape) and shows bar k's label; leaving
   the point removes them.
2. The same after a rerun that re-renders both plots (a point added by a click).
3. A canvas without bars: hovering a point raises nothing and no bar chart is drawn.
4. No JavaScript error on the way.

Screenshots go to ``artifacts/alpha_hover_*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import AppServer, screenshot

pytestmark = pytest.mark.browser

# Tolerance table ------------------------------------------------------------------------
TOL_RING_PX = 1.0  # the linked ring vs its point's position, in pixels

TIMEOUT_MS = 30_000  # one Streamlit rerun
LOAD_TIMEOUT_MS = 90_000
HOVER_MS = 5_000  # plotly's hover is throttled (tens of ms); generous for a busy machine

FIXTURE_APP = Path(__file__).with_name("canvas_app.py")
SIDEBAR = '[data-testid="stSidebar"]'
EXCEPTION = '[data-testid="stException"]'
PLANE = ".svmlab-canvas-plot"
BARS = ".svmlab-canvas-bars"

# State of both plots: the plane's linked ring / hover, the bar chart's outline / hover.
STATE_JS = """() => {
  const c = document.querySelector('.svmlab-canvas-plot');
  const b = document.querySelector('.svmlab-canvas-bars');
  const ring = document.querySelector('.svmlab-canvas-overlay circle.svmlab-linked');
  const texts = (gd) => gd ? Array.from(gd.querySelectorAll('.hoverlayer .hovertext'))
    .map(e => e.textContent) : [];
  const drawn = b && b.offsetHeight > 0 && b.data;
  return {
    nPoints: c ? Number(c.dataset.nPoints || 0) : null,
    pending: c ? Number(c.dataset.pending || 0) : null,
    renders: c ? Number(c.dataset.renders || 0) : null,
    linked: c ? (c.dataset.linked || '') : null,
    hoverIndex: c ? (c.dataset.hoverIndex || '') : null,
    ring: ring ? {index: ring.dataset.index, cx: Number(ring.getAttribute('cx')),
                  cy: Number(ring.getAttribute('cy'))} : null,
    planeLabels: texts(c),
    bars: drawn ? b._fullData[0].x.length : null,
    lit: b ? (b.dataset.lit || '') : null,
    litShapes: drawn ? (b.layout.shapes || []).filter(s => s.name === 'svmlab-lit')
      .map(s => (s.x0 + s.x1) / 2) : [],
    barLabels: texts(b),
  };
}"""

# Client pixels of the middle of bar j (0-based; it stands at x = j + 1: point j + 1).
BAR_XY_JS = """(j) => {
  const b = document.querySelector('.svmlab-canvas-bars');
  const t = b._fullData[0], xa = b._fullLayout.xaxis, ya = b._fullLayout.yaxis;
  const r = b.getBoundingClientRect();
  return [r.left + xa._offset + xa.d2p(t.x[j]), r.top + ya._offset + ya.d2p(t.y[j] / 2)];
}"""

BAR_HEIGHTS_JS = """() => Array.from(
  document.querySelector('.svmlab-canvas-bars')._fullData[0].y)"""

# Every drawn point: index (customdata[0]), plot pixels (relative to the plot div), client
# pixels, and the distance in pixels to its nearest neighbour.
POINTS_JS = """() => {
  const c = document.querySelector('.svmlab-canvas-plot');
  const xa = c._fullLayout.xaxis, ya = c._fullLayout.yaxis, r = c.getBoundingClientRect();
  const pts = [];
  for (const t of c._fullData) {
    if (t.meta !== 'svmlab-points' && t.meta !== 'points') continue;
    for (let p = 0; p < t.x.length; p++) {
      const cd = t.customdata[p];
      const px = xa._offset + xa.d2p(t.x[p]), py = ya._offset + ya.d2p(t.y[p]);
      pts.push({index: Number(cd.length === undefined ? cd : cd[0]), px, py,
                cx: r.left + px, cy: r.top + py});
    }
  }
  for (const a of pts) {
    a.gap = Infinity;
    for (const b of pts) if (b !== a) a.gap = Math.min(a.gap, Math.hypot(a.px - b.px, a.py - b.py));
  }
  return pts;
}"""


@pytest.fixture(scope="module")
def app():
    server = AppServer(FIXTURE_APP)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def tab(browser_context, app):
    pg = browser_context.new_page()
    pg.js_errors = []
    pg.on("pageerror", lambda e: pg.js_errors.append(str(e)))
    pg.goto(app.url + "?bars=1")
    _wait_state(pg, "s.nPoints > 0 && s.bars === s.nPoints", LOAD_TIMEOUT_MS)
    yield pg
    pg.close()


def _state(tab):
    return tab.evaluate(STATE_JS)


def _wait_state(tab, condition: str, timeout: int = HOVER_MS):
    """Until ``condition`` (JS on the state ``s``) holds; returns the state."""
    tab.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return !!s.renders && ({condition}); }}",
        timeout=timeout,
    )
    return _state(tab)


def _no_exception(tab):
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()


def _away(tab):
    """The mouse to the sidebar (over neither plot)."""
    tab.mouse.move(10, 10)


def _show_both(tab):
    """Scroll the bar chart to the bottom of the window (the plane is above it, on screen)."""
    tab.locator(BARS).first.evaluate("b => b.scrollIntoView({block: 'end'})")
    tab.wait_for_timeout(100)


def _isolated_point(tab) -> dict:
    """The on-screen point farthest from its nearest neighbour (the mouse finds only it)."""
    height = tab.evaluate("() => window.innerHeight")
    pts = [p for p in tab.evaluate(POINTS_JS) if 20 < p["cy"] < height - 20]
    assert pts, "no point of the plane is on screen"
    return max(pts, key=lambda p: p["gap"])


def _bar_hover_rings_the_point(tab, name: str) -> int:
    """Hover the tallest bar; the plane rings that point and shows its label."""
    heights = tab.evaluate(BAR_HEIGHTS_JS)
    j = max(range(len(heights)), key=lambda k: heights[k])
    _show_both(tab)
    bx, by = tab.evaluate(BAR_XY_JS, j)
    tab.mouse.move(bx, by)
    s = _wait_state(tab, f"s.linked === '{j}' && s.ring && s.planeLabels.length > 0")
    assert s["ring"]["index"] == str(j)
    # the labels count from 1, as the texts do: data index j is "point j + 1"
    assert any(f"point {j + 1}α=" in t for t in s["planeLabels"]), s["planeLabels"]
    assert any(f"point {j + 1}α=" in t for t in s["barLabels"]), s["barLabels"]  # its own
    # the ring sits on point j
    (pt,) = [p for p in tab.evaluate(POINTS_JS) if p["index"] == j]
    assert abs(s["ring"]["cx"] - pt["px"]) <= TOL_RING_PX
    assert abs(s["ring"]["cy"] - pt["py"]) <= TOL_RING_PX
    screenshot(tab, f"alpha_hover_{name}_bar_to_point")

    _away(tab)
    _wait_state(tab, "s.linked === '' && !s.ring && s.planeLabels.length === 0")
    return j


def _point_hover_lights_the_bar(tab, name: str) -> int:
    """Hover the most isolated visible point; its bar is outlined and shows its label."""
    _show_both(tab)
    k = _isolated_point(tab)
    tab.mouse.move(k["cx"], k["cy"])
    i = k["index"]
    s = _wait_state(tab, f"s.hoverIndex === '{i}' && s.lit === '{i}' && s.barLabels.length > 0")
    assert s["litShapes"] == [i + 1]  # one outline, round bar i (at x = i + 1)
    assert any(f"point {i + 1}α=" in t for t in s["barLabels"]), s["barLabels"]
    assert s["linked"] == ""  # no echo back into the plane's ring
    screenshot(tab, f"alpha_hover_{name}_point_to_bar")

    _away(tab)
    s = _wait_state(tab, "s.lit === '' && s.barLabels.length === 0")
    assert s["litShapes"] == []
    return i


def test_bar_and_point_hover_each_other(tab):
    _bar_hover_rings_the_point(tab, "canvas")
    _point_hover_lights_the_bar(tab, "canvas")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors


def test_the_link_survives_a_rerun(tab):
    # A click adds a point: Python re-renders the plane and the bars (one bar more).
    s0 = _state(tab)
    tab.locator(PLANE).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    box = tab.locator(f"{PLANE} .nsewdrag").first.bounding_box()
    tab.mouse.click(box["x"] + box["width"] * 0.05, box["y"] + box["height"] * 0.95)
    n = s0["nPoints"] + 1
    _wait_state(
        tab,
        f"s.nPoints === {n} && s.bars === {n} && s.pending === 0 && s.renders > {s0['renders']}",
        TIMEOUT_MS,
    )
    _bar_hover_rings_the_point(tab, "rerun")
    _point_hover_lights_the_bar(tab, "rerun")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors


def test_a_canvas_without_bars_hovers_without_errors(tab, app):
    tab.goto(app.url)
    _wait_state(tab, "s.nPoints > 0", LOAD_TIMEOUT_MS)
    assert _state(tab)["bars"] is None
    assert tab.locator(BARS).first.evaluate("b => b.offsetHeight") == 0
    tab.locator(PLANE).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    tab.wait_for_timeout(100)
    k = _isolated_point(tab)
    tab.mouse.move(k["cx"], k["cy"])
    s = _wait_state(tab, f"s.hoverIndex === '' || s.hoverIndex === '{k['index']}'")
    assert s["linked"] == "" and s["ring"] is None and s["lit"] == ""
    _away(tab)
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors
