"""The feature-space page in a real browser (Debian's headless Chromium via playwright).

A cold deep link to ``/feature_space`` on a fresh ``streamlit run app.py`` must show, with
no exception and no request leaving localhost: the Gram matrix as a Plotly heatmap (one
cell per pair of points), Lin's Φ₂ lift as a 3-D scatter with the trained plane drawn as a
surface (rendered by WebGL: a canvas with pixels), and the f(x) surface; hovering a Gram
cell names i, j and K(x_i, x_j). The seed 004
example button then loads the circle, and the lift draws seed 004's plane too.

Screenshots go to ``artifacts/feature_space_*.png``.
"""

from __future__ import annotations

import re

import pytest

from .conftest import AppServer, outside_requests, screenshot

# Tolerance table: none — the checks are on what is drawn (traces, cells), not on numbers.

pytestmark = pytest.mark.browser

LOAD_TIMEOUT_MS = 90_000  # a first page load on a cold server (the page trains its models)
TIMEOUT_MS = 30_000  # one rerun
EXCEPTION = '[data-testid="stException"]'

#: Every Plotly figure on the page: its layout ``meta`` and its traces' types and names.
FIGURES_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter(d => d._fullLayout && d._fullData)
  .map(d => ({
    meta: d.layout.meta || null,
    types: d._fullData.map(t => t.type),
    names: d._fullData.map(t => t.name),
    cells: d._fullData.filter(t => t.type === 'heatmap').map(t => t.z.length * t.z[0].length),
    gl: d.querySelectorAll('canvas').length,
  }))"""


def figures(tab) -> dict:
    return {f["meta"]: f for f in tab.evaluate(FIGURES_JS) if f["meta"]}


def wait_idle(tab, timeout: int = TIMEOUT_MS) -> None:
    tab.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )


@pytest.fixture(scope="module")
def server():
    app = AppServer("app.py")
    yield app
    app.stop()


def test_the_page_shows_the_gram_heatmap_and_the_3d_lift(server, page):
    page.goto(server.url + "feature_space", timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("heading", name="The feature space").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function(
        "() => ['gram', 'lift', 'surface'].every(m => Array.from("
        "document.querySelectorAll('.js-plotly-plot')).some(d => d.layout && d.layout.meta === m))",
        timeout=LOAD_TIMEOUT_MS,
    )
    wait_idle(page, LOAD_TIMEOUT_MS)
    figs = figures(page)
    assert figs["gram"]["types"] == ["heatmap"]
    assert figs["gram"]["cells"] == [100 * 100], "one cell per pair of the 100 default points"
    lift = figs["lift"]
    assert "surface" in lift["types"] and "scatter3d" in lift["types"]
    assert any(name.startswith("f(x) = 0") for name in lift["names"]), "the exact boundary"
    assert lift["gl"] > 0, "the 3-D scene is drawn (WebGL canvas)"
    assert "surface" in figs["surface"]["types"]
    assert page.locator(EXCEPTION).count() == 0
    # hovering a cell names the pair and its kernel value
    gram = page.locator(".js-plotly-plot").filter(has=page.locator(".heatmaplayer")).first
    gram.scroll_into_view_if_needed()
    box = gram.locator(".nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6)
    hover = page.locator(".hoverlayer .hovertext").first
    hover.wait_for(timeout=TIMEOUT_MS)
    said = hover.text_content()  # SVG text: no inner_text
    assert re.search(r"i = \d+, j = \d+\s*K\(x_i, x_j\) = ", said), said
    screenshot(page, "feature_space_gram")
    page.locator(".js-plotly-plot").nth(1).scroll_into_view_if_needed()
    screenshot(page, "feature_space_default")
    assert not outside_requests(page.requests)


def test_the_seed004_example_draws_its_plane(server, page):
    page.goto(server.url + "feature_space", timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("heading", name="The feature space").wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page, LOAD_TIMEOUT_MS)
    page.get_by_role("button", name="Seed 004's circle example").click()
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(d => d.layout && "
        "d.layout.meta === 'lift' && d._fullData.some(t => (t.name || '').startsWith('seed 004')))",
        timeout=TIMEOUT_MS,
    )
    wait_idle(page)
    assert "ζ = 0, so Φ₂ has no linear terms" in page.locator("body").inner_text()
    assert "classifies 60 of 60 points right" in page.locator("body").inner_text()
    assert page.locator(EXCEPTION).count() == 0
    page.locator(".js-plotly-plot").nth(1).scroll_into_view_if_needed()  # the lift
    screenshot(page, "feature_space_circle")
