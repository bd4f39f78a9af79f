"""The Compare page in a real browser (Debian's headless Chromium through playwright).

On a cold deep link ``/compare``: the λ ↔ C ↔ alpha formula is typeset with its numbers,
the plane overlays the default boundaries (one legend entry each), a click on a legend
entry hides that boundary (Plotly's ``visible = "legendonly"``) and a second click shows
it again, the table is drawn, and there is no exception and no request off this machine.

Screenshot: ``artifacts/compare_page.png``.
"""

from __future__ import annotations

import pytest

from svmlab.study.compare import MODELS

from .conftest import ROOT, AppServer, outside_requests, screenshot

# Tolerance table: none — trace names and visibility are compared exactly.

pytestmark = pytest.mark.browser

LOAD_TIMEOUT_MS = 120_000  # a cold server: the page fits seven models
TIMEOUT_MS = 30_000
EXCEPTION = '[data-testid="stException"]'
PLOT = '[data-testid="stPlotlyChart"] .js-plotly-plot'
LINES_JS = """() => {
  const d = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  if (!d || !d._fullData) return null;
  return d._fullData.filter(t => t.type === 'contour')
    .map(t => [t.name, String(t.visible)]);
}"""
DEFAULT = ["sgd_kernel", "dual_bias", "dual_homogeneous", "sk_svc"]


@pytest.fixture(scope="module")
def app():
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


def test_compare_page_overlays_toggles_and_tabulates(page, app):
    tab = page  # the conftest's tab: every request URL and JavaScript error recorded
    tab.goto(app.url + "compare")
    tab.wait_for_function(f"() => ({LINES_JS})() !== null", timeout=LOAD_TIMEOUT_MS)
    lines = tab.evaluate(LINES_JS)
    assert lines == [[MODELS[k].label, "true"] for k in DEFAULT]
    math = tab.locator(".katex").all_inner_texts()
    assert any("0.01⋅100" in m.replace(" ", "") for m in math), math
    table = tab.locator('[data-testid="stMain"] [data-testid="stDataFrame"]')
    table.wait_for(timeout=TIMEOUT_MS)
    assert table.count() == 1
    label = MODELS["dual_bias"].label
    tab.locator(f"{PLOT} .legend .traces", has_text=label).first.click()
    tab.wait_for_function(
        f"() => ({LINES_JS})().some(l => l[0] === {label!r} && l[1] === 'legendonly')",
        timeout=TIMEOUT_MS,
    )
    tab.locator(f"{PLOT} .legend .traces", has_text=label).first.click()
    tab.wait_for_function(f"() => ({LINES_JS})().every(l => l[1] === 'true')", timeout=TIMEOUT_MS)
    screenshot(tab, "compare_page")
    assert tab.locator(EXCEPTION).count() == 0
    assert not outside_requests(tab.requests)
    assert not tab.js_errors, tab.js_errors
