"""Share links in a real browser: the address bar holds the lab (points, parameters, snapshot).

Three clicks on the kernel Pegasos page, a changed λ and a snapshot stepped back; the
page's URL opened in a NEW browser context (a fresh session) shows the same points, the
same boundary, λ and snapshot; a reload keeps the points; a page switch keeps them in the
URL; tampered links (bad checksum, truncated, bad value, unknown parameter, another
version, oversized) open with one message naming what was wrong, no exception on the page
and none in the server log.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

import numpy as np
import pytest

from .conftest import ROOT, AppServer, screenshot
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table ------------------------------------------------------------------------
TOL_STEP = 6.0 / 65535  # a point read back from a link vs where it was drawn: one quantization step
# of the plane, (x1 − x0)/65535 (:mod:`svmlab.state.urlstate`), on the default plane (−3, 3)
TOL_Z = 1e-3  # the boundary's decision values, relative to their range (the points moved by
# 1e-4 of a unit); everything else (λ, the snapshot label, the axes, the point counts): exact

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
SIDEBAR = '[data-testid="stSidebar"]'
MAIN = '[data-testid="stMain"]'
EXCEPTION = '[data-testid="stException"]'
ALERT = '[data-testid="stAlert"]'
CLICKS = [(0, -1.0, 1.0), (0, 1.2, -1.3), (1, 0.5, 0.5)]  # (class, x, y)
CLASS_LABELS = ("y = −1 (blue)", "y = +1 (vermillion)")

# The decision values of the shading (its z grid) and the scrubber's label.
Z_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  const t = d._fullData.find(t => t.type === 'heatmap' && t.name === 'f(x)');
  return t ? Array.from(t.z, row => Array.from(row)) : null;
}"""
SCRUB = '[data-testid="stSlider"]'


@pytest.fixture(scope="module")
def app():
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser(browser_context):
    """The harness's Chromium (one Playwright per process): new contexts come from it."""
    return browser_context.browser


def _new_tab(browser):
    """A tab in a NEW browser context: nothing shared with the other tabs (a fresh user)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    return ctx.new_page()


def _idle(tab):
    tab.wait_for_timeout(300)
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')""", timeout=TIMEOUT_MS
    )


def _canvas(tab, condition: str = "true"):
    tab.wait_for_function(
        f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.pending === 0 && ({condition}); }}",
        timeout=TIMEOUT_MS,
    )
    _idle(tab)
    return tab.evaluate(CANVAS_JS)


def _scrub_label(tab) -> str:
    scrub = tab.locator(MAIN).locator(SCRUB).filter(has_text="Scrub")
    return scrub.locator('[data-testid="stSliderThumbValue"]').inner_text()


def _clean(tab):
    """No exception element and no traceback text on the page."""
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
    assert "Traceback" not in tab.locator("body").inner_text()


def _same_points(a: dict, b: dict):
    assert {k: len(v) for k, v in a.items()} == {k: len(v) for k, v in b.items()}
    for name in a:
        pa, pb = np.array(sorted(a[name])), np.array(sorted(b[name]))
        assert np.abs(pa - pb).max(initial=0.0) <= TOL_STEP


@pytest.fixture(scope="module")
def drawn(app, browser):
    """The kernel Pegasos page after Clear, three clicks, λ = 0.1 and one step back."""
    tab = _new_tab(browser)
    tab.goto(app.url + "kernel_pegasos")
    _canvas(tab, "s.n === 100")
    tab.locator(SIDEBAR).get_by_role("button", name="Clear").click()
    _canvas(tab, "s.n === 0")
    for n, (cls, x, y) in enumerate(CLICKS, start=1):
        tab.locator(SIDEBAR).get_by_text(CLASS_LABELS[cls]).click()
        _canvas(tab, f"s.cls === '{cls}'")
        px, py, _, _ = tab.evaluate(TO_PAGE_JS, [x, y])
        tab.mouse.click(px, py)
        _canvas(tab, f"s.n === {n}")
    lam = tab.locator(MAIN).locator(SCRUB).filter(has_text="λ (regularization)")
    lam.get_by_role("slider").focus()
    tab.keyboard.press("ArrowRight")  # 0.01 → 0.0178: a non-default λ in the URL
    _canvas(tab, "s.boundary === 1")
    tab.locator(MAIN).get_by_role("button", name="◀ step").click()
    state = _canvas(tab, "s.boundary === 1")
    tab.wait_for_function("() => location.search.includes('pts=')", timeout=TIMEOUT_MS)
    screenshot(tab, "url_01_drawn")
    return tab, state


def test_the_url_holds_points_parameters_and_snapshot(drawn):
    tab, _ = drawn
    url = tab.url
    assert "/kernel_pegasos?" in url
    for key in ("v=1", "plane=", "pts=", "kernel_pegasos_lam=0.0178", "kernel_pegasos_snap="):
        assert key in url, (key, url)
    # The copy-link box in the data panel holds the same link.
    tab.locator(SIDEBAR).get_by_text("Import / export").click()
    code = tab.locator(SIDEBAR).locator('[data-testid="stCode"]').first.inner_text().strip()
    assert urlsplit(code).path == urlsplit(url).path
    assert parse_qs(urlsplit(code).query) == parse_qs(urlsplit(url).query)
    tab.locator(SIDEBAR).get_by_text("Import / export").click()
    _clean(tab)


def test_a_new_context_shows_the_same_points_boundary_and_snapshot(drawn, browser, app):
    tab, before = drawn
    other = _new_tab(browser)
    other.goto(tab.url)
    after = _canvas(other, "s.n === 3 && s.boundary === 1")
    _same_points(before["pts"], after["pts"])
    assert (after["xrange"], after["yrange"]) == (before["xrange"], before["yrange"])
    assert _scrub_label(other) == _scrub_label(tab)
    za, zb = np.array(tab.evaluate(Z_JS)), np.array(other.evaluate(Z_JS))
    assert za.shape == zb.shape and np.abs(za - zb).max() <= TOL_Z * np.ptp(za)
    assert other.url == tab.url  # nothing refused, nothing rewritten
    assert other.locator(ALERT).filter(has_text="link").count() == 0
    _clean(other)
    screenshot(other, "url_02_new_context")
    other.context.close()


def test_a_reload_keeps_the_points(drawn):
    tab, before = drawn
    url = tab.url
    tab.reload()
    after = _canvas(tab, "s.n === 3 && s.boundary === 1")
    _same_points(before["pts"], after["pts"])
    assert tab.url == url
    _clean(tab)


def test_a_page_switch_keeps_the_points_in_the_url(drawn):
    tab, before = drawn
    token = tab.url.split("pts=")[1].split("&")[0]
    tab.locator(SIDEBAR).get_by_role("link", name="Linear Pegasos").first.click()
    tab.wait_for_function("() => location.pathname.includes('linear')", timeout=TIMEOUT_MS)
    after = _canvas(tab, "s.path.includes('linear') && s.n === 3")
    tab.wait_for_function(f"() => location.search.includes('pts={token}')", timeout=TIMEOUT_MS)
    assert "kernel_pegasos_lam" not in tab.url  # another page's settings leave the URL
    _same_points(before["pts"], after["pts"])
    _clean(tab)


def _tampered(app, browser, query: str, expect: str):
    tab = _new_tab(browser)
    tab.goto(app.url + "kernel_pegasos?" + query)
    _canvas(tab)
    alert = tab.locator(ALERT).filter(has_text="This link could not be read in full")
    assert alert.count() == 1, tab.locator(ALERT).all_inner_texts()
    assert expect in alert.inner_text(), alert.inner_text()
    _clean(tab)
    return tab


def test_tampered_links_open_with_one_message(drawn, app, browser):
    good = drawn[0].url.split("?", 1)[1]
    token = good.split("pts=")[1].split("&")[0]
    flipped = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    cases = [
        (good.replace(token, flipped), "the link's points could not be read"),
        (good.replace(token, token[:-6]), "the link's points could not be read"),
        ("kernel_pegasos_lam=abc", "kernel_pegasos_lam='abc' is not a valid value"),
        ("kernel_pegasos_kernel=cubic", "kernel_pegasos_kernel='cubic' is not a valid value"),
        ("kernel_pegasos_seed=1e309", "kernel_pegasos_seed='1e309' is not a finite number"),
        ("kernel_pegasos_lam=**b**_c_", "kernel_pegasos_lam='**b**_c_' is not a valid value"),
        ("nonsense=1", "'nonsense': not a setting of this page"),
        ("v=2&kernel_pegasos_lam=0.1", "version 2 is not supported"),
        ("pts=" + "A" * 17000, "above the limit of 16384 characters"),
    ]
    for query, expect in cases:
        tab = _tampered(app, browser, query, expect)
        state = tab.evaluate(CANVAS_JS)
        if "points" in expect or "limit" in expect or "version" in expect:
            assert state["n"] == 100  # the default points
        # what was refused leaves the URL (a valid λ of the first links stays)
        for refused in ("=abc", "=cubic", "nonsense", "1e309", "**b**"):
            assert refused not in unquote(tab.url), (query, tab.url)
        tab.context.close()
    log = app.output()
    assert "Traceback" not in log and "Exception" not in log, log


def test_above_the_budget_a_lesson_file_carries_the_points(app, browser, tmp_path):
    rng = np.random.default_rng(3)
    X, c = rng.uniform(-3, 3, (1600, 2)), rng.integers(0, 2, 1600)
    rows = [f"{float(a)!r},{float(b)!r},{2 * int(k) - 1}\n" for (a, b), k in zip(X, c, strict=True)]
    csv = "x1,x2,label\n" + "".join(rows)
    tab = _new_tab(browser)
    tab.goto(app.url + "kernel_pegasos")
    _canvas(tab, "s.n === 100")
    side = tab.locator(SIDEBAR)
    side.get_by_text("Import / export").click()
    importer = side.locator('[data-testid="stFileUploader"]').filter(has_text="Import points")
    importer.locator("input[type=file]").set_input_files(
        files=[{"name": "many.csv", "mimeType": "text/csv", "buffer": csv.encode()}]
    )
    _canvas(tab, "s.n === 1600")
    assert side.locator(ALERT).filter(has_text="above the budget of 8,192").count() == 1
    assert "pts=" not in tab.url
    with tab.expect_download() as info:
        side.get_by_role("button", name="Download lesson file (points + settings)").click()
    path = tmp_path / "lesson.json"
    info.value.save_as(path)
    text = path.read_text()
    assert '"format": "svmlab-lesson"' in text and text.count("\n  [") == 1600
    _clean(tab)
    tab.context.close()

    fresh = _new_tab(browser)
    fresh.goto(app.url + "kernel_pegasos")
    _canvas(fresh, "s.n === 100")
    fresh.locator(SIDEBAR).get_by_text("Import / export").click()
    fresh.locator(f"{SIDEBAR} input[type=file]").set_input_files(str(path))  # the importer
    state = _canvas(fresh, "s.n === 1600")
    got = np.array(sorted(state["pts"]["y = −1"] + state["pts"]["y = +1"]))
    assert np.array_equal(got, np.array(sorted(X.tolist())))  # full precision
    _clean(fresh)
    fresh.context.close()
