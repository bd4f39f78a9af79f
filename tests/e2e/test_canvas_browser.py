"""The data canvas in a real browser (headless Debian Chromium through playwright).

Drives ``tests/e2e/canvas_app.py`` (the data panel + the canvas over a plain scatter
figure): six clicks (three per class, switching class in the panel) appear at the clicked
coordinates, erase / undo / move work, a malformed CSV upload is refused with the line
named and the points kept, and nothing is requested outside localhost. Screenshots go to
``artifacts/``; the click-to-point latency is written to ``artifacts/canvas_latency.json``.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from .canvas_js import TO_PAGE_JS
from .conftest import ARTIFACTS, ROOT, outside_requests, screenshot

pytestmark = pytest.mark.browser

FIXTURE_APP = Path(__file__).with_name("canvas_app.py")
# Tolerance table ------------------------------------------------------------------------
TOL_PIXEL = 1.5  # a click lands within this many pixels of where it was aimed (plotly reports the
# pointer position); in data units that is TOL_PIXEL / (pixels per unit)

TIMEOUT_MS = 20_000

PLOT = ".svmlab-canvas-plot"
SIDEBAR = '[data-testid="stSidebar"]'

STATE_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  if (!d || !d._fullLayout) return null;
  const per = {};
  for (const t of d._fullData) if (t.meta === 'points') per[t.name] = t.x ? t.x.length : 0;
  return {n: Number(d.dataset.nPoints), pending: Number(d.dataset.pending || 0),
          mode: d.dataset.mode, cls: d.dataset.cls, renders: Number(d.dataset.renders),
          per};
}"""


POINTS_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  const xs = [], ys = [], names = [];
  for (const t of d._fullData) if (t.meta === 'points')
    for (let i = 0; i < t.x.length; i++) { xs.push(t.x[i]); ys.push(t.y[i]); names.push(t.name); }
  return {x: xs, y: ys, name: names};
}"""

# Times a click: pointerdown -> the pending marker is in the overlay (and the next frame),
# and -> the figure re-rendered by Python shows the point.
ARM_LATENCY_JS = """() => {
  const lat = window.__svmlabLat = {down: null, drawn: null, painted: null};
  document.addEventListener('pointerdown', () => { lat.down = performance.now(); },
                            {capture: true, once: true});
  const ov = document.querySelector('.svmlab-canvas-overlay');
  const mo = new MutationObserver(() => {
    if (lat.drawn === null && ov.querySelector('.svmlab-pending-add')) {
      lat.drawn = performance.now();
      requestAnimationFrame(() => { lat.painted = performance.now(); });
      mo.disconnect();
    }
  });
  mo.observe(ov, {childList: true, subtree: true});
}"""


def _state(page):
    return page.evaluate(STATE_JS)


def _wait_points(page, n: int):
    page.wait_for_function(
        f"""() => {{ const s = ({STATE_JS})(); return s && s.n === {n} && s.pending === 0; }}""",
        timeout=TIMEOUT_MS,
    )


def _wait_dataset(page, name: str, value: str):
    page.wait_for_function(
        f"() => {{ const d = document.querySelector('{PLOT}'); "
        f"return d && d.dataset.{name} === '{value}'; }}",
        timeout=TIMEOUT_MS,
    )


def _set_mode(page, label: str, mode: str):
    page.locator(SIDEBAR).get_by_text(label, exact=True).click()
    _wait_dataset(page, "mode", mode)


def _set_class(page, label: str, index: int):
    page.locator(SIDEBAR).get_by_text(label).click()
    _wait_dataset(page, "cls", str(index))


def _page_xy(page, x: float, y: float):
    """Page pixels of data point (x, y), once the plot's layout is stable for two frames."""
    last = None
    for _ in range(50):
        now = page.evaluate(TO_PAGE_JS, [x, y])
        if now == last:
            return now
        last = now
        page.wait_for_timeout(32)
    return last


def _open_app(page, start_app):
    app = start_app(FIXTURE_APP)
    page.goto(app.url)
    page.wait_for_selector(f"{PLOT} .main-svg", timeout=TIMEOUT_MS * 3)
    page.wait_for_function(f"() => ({STATE_JS})() !== null", timeout=TIMEOUT_MS)
    return app


def test_draw_erase_undo_move_and_a_bad_upload(page, start_app):
    _open_app(page, start_app)
    assert _state(page)["n"] == 100  # the default data: the moons preset
    page.locator(SIDEBAR).get_by_role("button", name="Clear").click()
    _wait_points(page, 0)

    targets = {
        0: [(-2.0, 1.5), (-1.5, -1.0), (-2.2, -2.0)],  # class y = −1
        1: [(1.5, 2.0), (2.0, -0.5), (1.0, 0.8)],  # class y = +1
    }
    labels = {0: "y = −1 (blue)", 1: "y = +1 (vermillion)"}
    latencies = []
    n = 0
    for cls, pts in targets.items():
        _set_class(page, labels[cls], cls)
        for x, y in pts:
            px, py, _, _ = _page_xy(page, x, y)
            page.evaluate(ARM_LATENCY_JS)
            page.mouse.click(px, py)
            n += 1
            page.wait_for_function("() => window.__svmlabLat.painted !== null", timeout=5000)
            drawn = page.evaluate("() => window.__svmlabLat")
            _wait_points(page, n)
            confirmed = page.evaluate("() => performance.now()")
            latencies.append(
                {
                    "overlay_ms": drawn["drawn"] - drawn["down"],
                    "painted_ms": drawn["painted"] - drawn["down"],
                    "server_ms": confirmed - drawn["down"],
                }
            )
    state = _state(page)
    assert state["per"] == {"y = −1": 3, "y = +1": 3}
    screenshot(page, "canvas_01_six_points")

    # The points are where the clicks were (within a pixel and a half).
    drawn_pts = page.evaluate(POINTS_JS)
    _, _, mx, my = _page_xy(page, 0.0, 0.0)
    for cls, pts in targets.items():
        name = ["y = −1", "y = +1"][cls]
        got = [
            (gx, gy)
            for gx, gy, nm in zip(drawn_pts["x"], drawn_pts["y"], drawn_pts["name"], strict=True)
            if nm == name
        ]
        for (x, y), (gx, gy) in zip(pts, got, strict=True):
            assert abs(gx - x) * abs(mx) <= TOL_PIXEL
            assert abs(gy - y) * abs(my) <= TOL_PIXEL

    # Erase the first +1 point, then undo.
    _set_mode(page, "Erase", "erase")
    px, py, _, _ = _page_xy(page, 1.5, 2.0)
    page.mouse.click(px, py)
    _wait_points(page, 5)
    assert _state(page)["per"] == {"y = −1": 3, "y = +1": 2}
    screenshot(page, "canvas_02_erased")
    page.locator(SIDEBAR).get_by_role("button", name="Undo").click()
    _wait_points(page, 6)
    assert _state(page)["per"] == {"y = −1": 3, "y = +1": 3}

    # Drag the point at (−1.5, −1) to (0, −2).
    _set_mode(page, "Move (drag)", "move")
    x0, y0, _, _ = _page_xy(page, -1.5, -1.0)
    x1, y1, _, _ = _page_xy(page, 0.0, -2.0)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    page.wait_for_function(
        """() => { const d = document.querySelector('.svmlab-canvas-plot');
                   return d._fullData.some(t => t.meta === 'points' && Array.from(t.x).some(
                     (v, i) => Math.abs(v) < 0.05 && Math.abs(t.y[i] + 2) < 0.05)); }""",
        timeout=TIMEOUT_MS,
    )
    _wait_points(page, 6)
    screenshot(page, "canvas_03_moved")

    # A malformed CSV: refused with its line named; the six points stay.
    page.locator(SIDEBAR).get_by_text("Import / export").click()
    page.locator(f"{SIDEBAR} input[type=file]").set_input_files(
        files=[
            {
                "name": "bad.csv",
                "mimeType": "text/csv",
                "buffer": b"x1,x2,label\n0.5,0.5,1\n1.0,abc,-1\n",
            }
        ]
    )
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="line 3")
    alert.first.wait_for(timeout=TIMEOUT_MS)
    text = alert.first.inner_text()
    assert "bad.csv" in text and "line 3" in text and "'abc' is not a number" in text
    assert _state(page)["n"] == 6
    screenshot(page, "canvas_04_bad_upload")

    # The keyboard fallback: the points as an editable table.
    page.locator(SIDEBAR).get_by_text("Edit points as a table").click()
    page.locator(f'{SIDEBAR} [data-testid="stDataFrame"]').wait_for(timeout=TIMEOUT_MS)
    assert page.locator(SIDEBAR).get_by_role("button", name="Apply table").is_visible()
    table = page.locator(SIDEBAR).get_by_text("For keyboard users")
    table.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(SIDEBAR).screenshot(path=str(ARTIFACTS / "canvas_05_table_sidebar.png"))

    assert not page.js_errors, page.js_errors
    bad = outside_requests(page.requests)
    assert not bad, f"requests left localhost: {bad}"
    assert any(u.endswith("/app/static/plotly.min.js") for u in page.requests)

    summary = {
        key: {
            "median": statistics.median(v[key] for v in latencies),
            "max": max(v[key] for v in latencies),
        }
        for key in ("overlay_ms", "painted_ms", "server_ms")
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "canvas_latency.json").write_text(
        json.dumps({"clicks": latencies, "summary": summary}, indent=2)
    )
    print("click-to-point latency (ms):", json.dumps(summary))


def test_quick_clicks_are_not_lost(page, start_app):
    """Five clicks 40 ms apart (faster than a rerun): every point arrives, none twice."""
    _open_app(page, start_app)
    _wait_points(page, 100)
    spots = [(0.5, -2.5), (1.0, -2.5), (1.5, -2.5), (2.0, -2.5), (2.5, -2.5)]
    pix = [_page_xy(page, x, y) for x, y in spots]
    for px, py, _, _ in pix:
        page.mouse.click(px, py)
        page.wait_for_timeout(40)
    _wait_points(page, 105)
    pts = page.evaluate(POINTS_JS)
    row = sorted(round(x, 1) for x, y in zip(pts["x"], pts["y"], strict=True) if y < -2.4)
    assert row == [0.5, 1.0, 1.5, 2.0, 2.5]
    screenshot(page, "canvas_06_quick_clicks")
    assert not page.js_errors, page.js_errors


def _real_app_pages() -> bool:
    app = ROOT / "app.py"
    return (
        app.is_file()
        and "st.navigation" in app.read_text(errors="replace")
        and (ROOT / "pages" / "linear_pegasos.py").is_file()
        and (ROOT / "pages" / "kernel_pegasos.py").is_file()
    )


def _nav(page, title: str):
    page.locator(SIDEBAR).get_by_role("link", name=title).first.click()


def _n_points(page) -> int:
    return page.evaluate(f"() => Number(document.querySelector('{PLOT}').dataset.nPoints)")


@pytest.mark.skipif(not _real_app_pages(), reason="app.py and its pages have not landed yet")
def test_real_app_offline_canvas_and_points_shared_across_pages(page, start_app):
    """The README's app: home loads, a click on Linear Pegasos' canvas adds a point and a
    boundary is drawn, and Kernel Pegasos shows the same points (shared session data)."""
    app = start_app(ROOT / "app.py")
    page.goto(app.url)
    page.wait_for_selector('[data-testid="stSidebarNav"]', timeout=TIMEOUT_MS * 3)
    page.wait_for_selector('[data-testid="stMain"] .main-svg', timeout=TIMEOUT_MS * 3)
    screenshot(page, "real_app_home")
    assert not page.locator('[data-testid="stException"]').count()

    _nav(page, "Linear Pegasos")
    page.wait_for_selector(f"{PLOT} .main-svg", timeout=TIMEOUT_MS * 3)
    page.wait_for_function(f"() => ({STATE_JS})() !== null", timeout=TIMEOUT_MS)
    n0 = _n_points(page)
    assert n0 > 0
    box = page.locator(f"{PLOT} .nsewdrag").first.bounding_box()
    t0 = page.evaluate("() => performance.now()")
    page.mouse.click(box["x"] + box["width"] * 0.08, box["y"] + box["height"] * 0.1)
    _wait_points(page, n0 + 1)
    refit_ms = page.evaluate("() => performance.now()") - t0
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "real_app_click_refit_ms.json").write_text(json.dumps({"ms": refit_ms}))
    print(f"Linear Pegasos page: click -> refitted figure in {refit_ms:.0f} ms")
    page.wait_for_function(
        """() => document.querySelector('.svmlab-canvas-plot')._fullData
                   .some(t => t.type === 'contour' || t.type === 'heatmap')""",
        timeout=TIMEOUT_MS,
    )
    screenshot(page, "real_app_linear_pegasos_clicked")
    assert not page.locator('[data-testid="stException"]').count()

    _nav(page, "Kernel Pegasos")
    page.wait_for_function(
        f"""() => {{ const d = document.querySelector('{PLOT}');
                    return d && d.dataset.nPoints === '{n0 + 1}'
                      && location.pathname.includes('kernel'); }}""",
        timeout=TIMEOUT_MS * 3,
    )
    screenshot(page, "real_app_kernel_pegasos_shared_points")
    assert not page.locator('[data-testid="stException"]').count()
    assert not page.js_errors, page.js_errors
    bad = outside_requests(page.requests)
    assert not bad, f"requests left localhost: {bad}"
