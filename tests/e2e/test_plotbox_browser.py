"""The curves under the plane stay mounted across clicks (the browser's work per click).

``st.plotly_chart`` gives a chart a new identity whenever its figure changes: every click
re-created the curves chart (a fresh ``<div>``, a full ``Plotly.newPlot``) while the plane
was to be painted. The curves now live in ``svmlab.ui.plotbox`` (``assets/plot.js``): one
``<div>`` updated with ``Plotly.react`` after the plane has been drawn.
"""

from __future__ import annotations

import pytest

from .conftest import ROOT, AppServer, screenshot
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table: none — element identity, counts and order are compared exactly.

pytestmark = pytest.mark.browser
TIMEOUT_MS = 120_000

PLOT_JS = """() => {
  const d = document.querySelector('.svmlab-plot');
  if (!d || !d._fullData) return null;
  return {renders: Number(d.dataset.renders), tag: d.__svmlabTag || null,
          names: d._fullData.map(t => t.name)};
}"""


@pytest.fixture(scope="module")
def app():
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


def test_a_click_updates_the_curves_in_place_after_the_plane(app, browser_context):
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = ctx.new_page()
        tab.goto(app.url + "kernel_pegasos")
        tab.wait_for_function(
            f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.boundary === 1; }}",
            timeout=TIMEOUT_MS,
        )
        tab.wait_for_function(f"() => ({PLOT_JS})() !== null", timeout=TIMEOUT_MS)
        before = tab.evaluate(PLOT_JS)
        assert "training error" in before["names"]
        n = tab.evaluate(CANVAS_JS)["n"]
        tab.evaluate("() => { document.querySelector('.svmlab-plot').__svmlabTag = 'same'; }")
        # Record which drew first after the click: the plane's canvas or the curves.
        tab.evaluate(
            """() => {
              window.__order = [];
              const plane = document.querySelector('.svmlab-canvas-plot');
              const curves = document.querySelector('.svmlab-plot');
              const watch = (el, name) => new MutationObserver(() =>
                  window.__order.push(name)).observe(el, {attributes: true,
                  attributeFilter: ['data-renders']});
              watch(plane, 'plane'); watch(curves, 'curves');
            }"""
        )
        x, y = 0.5, 0.25
        px, py, _, _ = tab.evaluate(TO_PAGE_JS, [x, y])
        tab.mouse.click(px, py)
        drawn = f"s.n === {n + 1} && s.pending === 0"
        tab.wait_for_function(
            f"() => {{ const s = ({CANVAS_JS})(); return !!s && {drawn}; }}", timeout=TIMEOUT_MS
        )
        tab.wait_for_function(
            f"() => {{ const p = ({PLOT_JS})(); return !!p && p.renders > {before['renders']}; }}",
            timeout=TIMEOUT_MS,
        )
        after = tab.evaluate(PLOT_JS)
        assert after["tag"] == "same", "the curves' <div> was re-created"
        order = tab.evaluate("() => window.__order")
        assert order.index("plane") < order.index("curves"), order
        assert tab.locator('[data-testid="stException"]').count() == 0
        screenshot(tab, "plotbox_after_click")
    finally:
        ctx.close()
