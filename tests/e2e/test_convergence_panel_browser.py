"""The convergence panel and the per-point table in a real browser (Debian's headless
Chromium through playwright), on the Kernel Pegasos page of the real app.

1. Opening "Convergence to the optimum" draws a Plotly figure with log–log axes holding
   the averaged output, the last iterate and the guide line; the solver of P* is named.
2. Opening "Why each point matters" shows the table (a data grid) beside its plane;
   clicking a row's selection box rings that point on the plane (a "selected point"
   trace with one point, at that row's coordinates).

Screenshots: ``artifacts/conv_*.png``.
"""

from __future__ import annotations

import pytest

from .conftest import screenshot

# Tolerance table: none — the selected point's coordinates are compared with the drawn point's
# exactly.

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
LOAD_TIMEOUT_MS = 120_000
MAIN = '[data-testid="stMain"]'

LOG_LOG_JS = """() => {
  for (const d of document.querySelectorAll('.js-plotly-plot')) {
    const L = d._fullLayout;
    if (L && L.xaxis && L.yaxis && L.xaxis.type === 'log' && L.yaxis.type === 'log')
      return d._fullData.map(t => t.name);
  }
  return null;
}"""

SELECTED_JS = """() => {
  for (const d of document.querySelectorAll('.js-plotly-plot')) {
    if (!d._fullData) continue;
    const ring = d._fullData.find(t => t.name === 'selected point');
    if (!ring) continue;
    const pts = d._fullData.filter(t => t.meta === 'svmlab-points');
    const all = [];
    for (const t of pts) t.customdata.forEach((c, j) => all.push([c[0], t.x[j], t.y[j]]));
    return {ring: Array.from(ring.x).map((x, i) => [x, ring.y[i]]), points: all};
  }
  return null;
}"""


def _open_expander(page, label: str):
    summary = page.locator(f"{MAIN} summary", has_text=label).first
    summary.scroll_into_view_if_needed()
    summary.click()  # the panel is lazy: opening it reruns the script


def test_convergence_figure_and_linked_table(start_app, page):
    server = start_app("app.py")
    page.goto(server.url + "kernel_pegasos", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(f"{MAIN} .main-svg", timeout=LOAD_TIMEOUT_MS)

    _open_expander(page, "Convergence to the optimum")
    page.wait_for_function(LOG_LOG_JS, timeout=TIMEOUT_MS)
    names = page.evaluate(LOG_LOG_JS)
    assert "averaged w̄_t" in names and "last iterate" in names
    assert any(str(n).startswith("guide") for n in names)
    assert page.get_by_text("dual coordinate descent", exact=False).count() >= 1
    page.locator(f"{MAIN} summary", has_text="Convergence to the optimum").first.evaluate(
        "e => e.scrollIntoView()"
    )
    screenshot(page, "conv_loglog")

    _open_expander(page, "Why each point matters")
    grid = page.locator(f'{MAIN} [data-testid="stDataFrame"]').last
    grid.wait_for(timeout=TIMEOUT_MS)
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    box = grid.bounding_box()
    # the row-selection column is the grid's first (narrow) column; row 1 under the header
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 35 / 2)
    page.wait_for_function(
        f"() => {{ const s = ({SELECTED_JS})(); return s && s.ring.length; }}", timeout=TIMEOUT_MS
    )
    state = page.evaluate(SELECTED_JS)
    assert len(state["ring"]) == 1
    first = next(p for p in state["points"] if p[0] == 0)  # row 1 = point index 0
    assert state["ring"][0] == [first[1], first[2]]
    screenshot(page, "conv_point_table")
