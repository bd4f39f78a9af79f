"""Hovering an α bar highlights its point on the plane, and hovering a point highlights its
bar (issue 5 §3: "α shown per point … a bar chart beside the plot in the same point order,
hovering one highlights the other"), in the real app in a real browser (Debian's headless
Chromium driven by the ``playwright`` Python package).

One server and one tab for the module (tests run in file order):

1. Kernel Pegasos: the mouse over bar j rings point j on the plane (an overlay ring at the
   point's pixel position) and shows point j's hover label; leaving the bar removes both.
   The mouse over point k on the plane shows bar k's hover label and spike line; leaving
   the point removes them. Again after a rerun (Streamlit re-renders both plots).
2. Dual SVM: the same, both ways.
3. Linear Pegasos (no α bars): hovering a point raises nothing.
4. No JavaScript error on the way.

Screenshots go to ``artifacts/alpha_hover_*.png``.
"""

from __future__ import annotations

import pytest

from .conftest import ROOT, AppServer, screenshot

pytestmark = pytest.mark.browser

# Tolerances: the ring sits on the point within RING_TOL_PX pixels.
RING_TOL_PX = 1.0
TIMEOUT_MS = 30_000  # one Streamlit rerun
LOAD_TIMEOUT_MS = 90_000  # a first page load on a cold server (a run is trained and cached)
HOVER_MS = 5_000  # plotly's hover is throttled (tens of ms); generous for a busy machine

SIDEBAR = '[data-testid="stSidebar"]'
MAIN = '[data-testid="stMain"]'
EXCEPTION = '[data-testid="stException"]'
PLANE = ".svmlab-canvas-plot"
BARS = '.js-plotly-plot[data-svmlab-linked="1"]'
LINKED_RING = ".svmlab-canvas-overlay circle.svmlab-linked"

# State of both plots: the plane's linked ring / hover, the bar chart's hover.
STATE_JS = """() => {
  const c = document.querySelector('.svmlab-canvas-plot');
  const b = document.querySelector('.js-plotly-plot[data-svmlab-linked="1"]');
  const ring = document.querySelector('.svmlab-canvas-overlay circle.svmlab-linked');
  const texts = (gd) => gd ? Array.from(gd.querySelectorAll('.hoverlayer .hovertext'))
    .map(e => e.textContent) : [];
  return {
    path: location.pathname,
    nPoints: c ? Number(c.dataset.nPoints || 0) : null,
    renders: c ? Number(c.dataset.renders || 0) : null,
    linked: c ? (c.dataset.linked || '') : null,
    hoverIndex: c ? (c.dataset.hoverIndex || '') : null,
    ring: ring ? {index: ring.dataset.index, cx: Number(ring.getAttribute('cx')),
                  cy: Number(ring.getAttribute('cy'))} : null,
    planeLabels: texts(c),
    bars: b ? b._fullData[0].x.length : null,
    barHover: b ? (b._hoverdata || []).map(p => p.pointNumber) : null,
    barLabels: texts(b),
    barSpikes: b ? b.querySelectorAll('.spikeline').length : 0,
  };
}"""

# Client pixels of the middle of bar j (and the bar heights).
BAR_XY_JS = """(j) => {
  const b = document.querySelector('.js-plotly-plot[data-svmlab-linked="1"]');
  const t = b._fullData[0], xa = b._fullLayout.xaxis, ya = b._fullLayout.yaxis;
  const r = b.getBoundingClientRect();
  return [r.left + xa._offset + xa.d2p(j), r.top + ya._offset + ya.d2p(t.y[j] / 2)];
}"""

BAR_HEIGHTS_JS = """() => Array.from(
  document.querySelector('.js-plotly-plot[data-svmlab-linked="1"]')._fullData[0].y)"""

# Every drawn point: index (customdata[0]), plot pixels (relative to the plot div), client
# pixels, and the distance in pixels to its nearest neighbour.
POINTS_JS = """() => {
  const c = document.querySelector('.svmlab-canvas-plot');
  const xa = c._fullLayout.xaxis, ya = c._fullLayout.yaxis, r = c.getBoundingClientRect();
  const pts = [];
  for (const t of c._fullData) {
    if (t.meta !== 'svmlab-points') continue;
    for (let p = 0; p < t.x.length; p++) {
      const px = xa._offset + xa.d2p(t.x[p]), py = ya._offset + ya.d2p(t.y[p]);
      pts.push({index: Number(t.customdata[p][0]), px, py,
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
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def tab(browser_context, app):
    pg = browser_context.new_page()
    pg.js_errors = []
    pg.on("pageerror", lambda e: pg.js_errors.append(str(e)))
    pg.goto(app.url)
    pg.wait_for_selector('[data-testid="stSidebarNav"]', timeout=LOAD_TIMEOUT_MS)
    yield pg
    pg.close()


def _state(tab):
    return tab.evaluate(STATE_JS)


def _wait_state(tab, condition: str, timeout: int = HOVER_MS):
    """Until ``condition`` (JS on the state ``s``) holds; returns the state."""
    tab.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return ({condition}); }}", timeout=timeout
    )
    return _state(tab)


def _wait_idle(tab):
    tab.wait_for_timeout(150)
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')""",
        timeout=TIMEOUT_MS,
    )


def _nav(tab, title: str, path_part: str):
    tab.locator(SIDEBAR).get_by_role("link", name=title).first.click()
    tab.wait_for_function(
        f"() => location.pathname.includes('{path_part}')", timeout=LOAD_TIMEOUT_MS
    )


def _no_exception(tab):
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()


def _away(tab):
    """The mouse to the sidebar (over neither plot)."""
    tab.mouse.move(10, 10)


def _page_with_bars(tab, title: str, path_part: str):
    _nav(tab, title, path_part)
    state = _wait_state(
        tab,
        f"s.path.includes('{path_part}') && s.nPoints > 0 && s.bars === s.nPoints",
        LOAD_TIMEOUT_MS,
    )
    _wait_idle(tab)
    _no_exception(tab)
    return state


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
    assert any(f"point {j}α=" in t for t in s["planeLabels"]), s["planeLabels"]
    assert s["barHover"] == [j]  # the real hover on the bar chart itself
    # the ring sits on point j
    (pt,) = [p for p in tab.evaluate(POINTS_JS) if p["index"] == j]
    assert abs(s["ring"]["cx"] - pt["px"]) <= RING_TOL_PX
    assert abs(s["ring"]["cy"] - pt["py"]) <= RING_TOL_PX
    screenshot(tab, f"alpha_hover_{name}_bar_to_point")

    _away(tab)
    s = _wait_state(tab, "s.linked === '' && !s.ring && s.planeLabels.length === 0")
    return j


def _point_hover_shows_the_bar(tab, name: str) -> int:
    """Hover the most isolated visible point; the bar chart shows that bar's label."""
    _show_both(tab)
    k = _isolated_point(tab)
    tab.mouse.move(k["cx"], k["cy"])
    i = k["index"]
    s = _wait_state(tab, f"s.hoverIndex === '{i}' && s.barHover.length === 1")
    assert s["barHover"] == [i], s
    assert any(f"point {i}α=" in t for t in s["barLabels"]), s["barLabels"]
    assert s["barSpikes"] > 0  # the line across bar i
    assert s["linked"] == ""  # no echo back into the plane's ring
    screenshot(tab, f"alpha_hover_{name}_point_to_bar")

    _away(tab)
    _wait_state(tab, "s.barHover.length === 0 && s.barLabels.length === 0")
    return i


def test_kernel_pegasos_bar_and_point_hover_each_other(tab):
    _page_with_bars(tab, "Kernel Pegasos", "kernel")
    _bar_hover_rings_the_point(tab, "kernel")
    _point_hover_shows_the_bar(tab, "kernel")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors


def test_the_link_survives_a_rerun(tab):
    # "◀ step" reruns the page: Streamlit re-renders the bar chart, the canvas its figure.
    renders = _state(tab)["renders"]
    tab.locator(MAIN).get_by_role("button", name="◀ step").click()
    _wait_state(tab, f"s.renders > {renders} && s.bars === s.nPoints", TIMEOUT_MS)
    _wait_idle(tab)
    _bar_hover_rings_the_point(tab, "kernel_rerun")
    _point_hover_shows_the_bar(tab, "kernel_rerun")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors


def test_dual_svm_bar_and_point_hover_each_other(tab):
    _nav(tab, "Dual SVM (QP / SMO)", "dual")
    tab.wait_for_selector(f"{MAIN} h1", timeout=LOAD_TIMEOUT_MS)
    _wait_idle(tab)
    if tab.get_by_text("coming soon").count():
        pytest.skip("svmcore.dual has not landed: the dual page says so")
    _page_with_bars(tab, "Dual SVM (QP / SMO)", "dual")
    _bar_hover_rings_the_point(tab, "dual")
    _point_hover_shows_the_bar(tab, "dual")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors


def test_a_page_without_bars_hovers_without_errors(tab):
    _nav(tab, "Linear Pegasos", "linear")
    _wait_state(tab, "s.path.includes('linear') && s.nPoints > 0", LOAD_TIMEOUT_MS)
    _wait_idle(tab)
    assert tab.locator(BARS).count() == 0
    tab.locator(PLANE).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    tab.wait_for_timeout(100)
    k = _isolated_point(tab)
    tab.mouse.move(k["cx"], k["cy"])
    s = _wait_state(tab, f"s.hoverIndex === '{k['index']}'")
    assert s["linked"] == "" and s["ring"] is None
    _away(tab)
    _wait_state(tab, "s.hoverIndex === ''")
    _no_exception(tab)
    assert not tab.js_errors, tab.js_errors
