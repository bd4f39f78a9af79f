"""The train/test split and the sweep in a real browser (Debian's headless Chromium through
playwright), on the real app (``app.py``):

1. ``kernel_pegasos?split=holdout`` (the split's mode read from the share link): the
   canvas draws the 70 training points filled and the 30 test points hollow (open
   symbols, their own traces), and the page states the test error;
2. the sweep computes nothing until "Run sweep"; then the heatmap appears, and a click
   on cell (λ = 10⁻⁴, γ = 10⁻²) loads both values into the page's sliders (the λ caption
   and the γ kernel formula follow).

Screenshots: ``artifacts/gen_split.png``, ``artifacts/gen_sweep.png``.
"""

from __future__ import annotations

import pytest

from .conftest import screenshot

# Tolerance table: none — counts and shown text are compared exactly.

pytestmark = pytest.mark.browser

LOAD_TIMEOUT_MS = 120_000  # a first page load on a cold, busy server
TIMEOUT_MS = 90_000  # a rerun that trains (the sweep: 36 runs)
MAIN = '[data-testid="stMain"]'

POINTS_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  if (!d || !d._fullData) return null;
  const count = meta => d._fullData.filter(t => t.meta === meta)
    .reduce((s, t) => s + t.x.length, 0);
  const symbols = d._fullData.filter(t => t.meta === 'svmlab-test-points')
    .map(t => t.marker.symbol);
  return {train: count('svmlab-points'), test: count('svmlab-test-points'), symbols};
}"""

CELL_JS = """([i, j]) => {
  for (const d of document.querySelectorAll('.js-plotly-plot')) {
    if (!d._fullData) continue;
    const t = d._fullData.find(t => t.meta === 'svmlab-sweep-cells');
    if (!t) continue;
    const k = t.customdata.findIndex(c => c[0] === i && c[1] === j);
    const xa = d._fullLayout.xaxis, ya = d._fullLayout.yaxis;
    d.scrollIntoView({block: 'center'});  // a mouse click must land inside the viewport
    const box = d.getBoundingClientRect();
    return {x: box.left + xa._offset + xa.d2p(t.x[k]), y: box.top + ya._offset + ya.d2p(t.y[k])};
  }
  return null;
}"""


def test_split_from_the_link_draws_hollow_test_points_and_the_sweep_loads_a_cell(page, start_app):
    app = start_app("app.py")
    page.goto(app.url + "kernel_pegasos?split=holdout", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function(
        f"() => {{ const s = ({POINTS_JS})(); return s && s.test === 30; }}",
        timeout=LOAD_TIMEOUT_MS,
    )
    drawn = page.evaluate(POINTS_JS)
    assert drawn["train"] == 70 and drawn["test"] == 30
    assert drawn["symbols"] == ["circle-open", "x-open"]
    main = page.locator(MAIN)
    main.locator('[data-testid="stMetricLabel"]').get_by_text("test error", exact=True).wait_for(
        timeout=TIMEOUT_MS
    )
    screenshot(page, "gen_split")

    main.get_by_text("Hyperparameter sweep: validation accuracy over a grid").click()
    main.get_by_text("Press Run sweep to compute the grid").wait_for(timeout=TIMEOUT_MS)
    assert page.evaluate(CELL_JS, [0, 0]) is None  # nothing computed yet
    main.get_by_role("button", name="Run sweep").click()
    page.wait_for_function(f"() => ({CELL_JS})([0, 0]) !== null", timeout=TIMEOUT_MS)
    main.get_by_text("Best cell").wait_for(timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)  # the chart's layout settles before the click
    at = page.evaluate(CELL_JS, [0, 0])
    page.mouse.click(at["x"], at["y"])
    main.get_by_text("λ = 0.0001 ⇔ C = 1/(λn)").wait_for(timeout=TIMEOUT_MS)
    # γ = 0.01 in the kernel's formula with its values (KaTeX renders the number)
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stSliderThumbValue"]'))
             .some(e => e.textContent.trim() === '0.01')""",
        timeout=TIMEOUT_MS,
    )
    screenshot(page, "gen_sweep")
    assert not page.locator('[data-testid="stException"]').count()
