"""The table editor never changes a number the user typed, and an edit that a
click overtakes is not dropped without a word, in a real browser (Debian's
headless Chromium through playwright).

Drives ``tests/e2e/canvas_app.py?plane=1`` (the page states its first eight points as
JSON). In the sidebar table, column x1 of rows 1–8 gets: ``1e-3``, ``1e308``, ``0,5``,
``nan``, ``inf``, ``abc``, a cleared cell, ``-2.5e-1``; then "Apply table". Stored exactly:
0.001, 0.5, −0.25; refused, each with a message naming the row and the column, the cell
keeping its value: the rest (``1e308`` beyond the limit ±1e6, named). Then an edit left
unapplied while a click adds a point: the panel says the edit was not applied.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import screenshot

# Tolerance table: none — stored values are compared exactly.

pytestmark = pytest.mark.browser

FIXTURE_APP = Path(__file__).with_name("canvas_app.py")
TIMEOUT_MS = 30_000
SIDEBAR = '[data-testid="stSidebar"]'
ROW_PX, HEADER_PX, X1_PX = 35, 35, 80  # the grid's row / header height, x1's middle
TYPED = ["1e-3", "1e308", "0,5", "nan", "inf", "abc", None, "-2.5e-1"]  # None: clear it
STORED = {0: 0.001, 2: 0.5, 7: -0.25}
REFUSED = {
    1: "row 2: x1 1e308 is beyond the limit ±1e+06",
    3: "row 4: x1 'nan' is not a number",
    4: "row 5: x1 'inf' is not a number",
    5: "row 6: x1 'abc' is not a number",
    6: "row 7: x1 is empty",
}

STATE_JS = """() => {
  const code = Array.from(document.querySelectorAll('[data-testid="stCode"] code'))
    .map(e => e.textContent).find(t => t.includes('"head"'));
  const d = document.querySelector('.svmlab-canvas-plot');
  return code && d ? Object.assign(JSON.parse(code), {pending: Number(d.dataset.pending || 0)})
    : null;
}"""


def _idle(page):
    """Until the script has run (an edit reruns it: a click meanwhile would be lost)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        """() => { const a = document.querySelector('[data-test-script-state]');
                   return a && a.getAttribute('data-test-script-state') !== 'running'; }""",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_timeout(100)


def _state(page) -> dict:
    return page.evaluate(STATE_JS)


def _select(page, grid, row: int):
    """Select the x1 cell of ``row`` (0-based) with a click."""
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    box = grid.bounding_box()
    page.mouse.click(box["x"] + X1_PX, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX / 2)
    page.wait_for_timeout(150)


def _type(page, text: str | None):
    """Replace the selected cell's text by ``text`` (None: clear it); the selection then
    moves one row down (Enter commits and moves down; after a clear, the arrow key)."""
    if text is None:
        page.keyboard.press("Delete")
        _idle(page)
        page.keyboard.press("ArrowDown")
        return
    page.keyboard.press("Enter")  # open the cell's editor with its text
    page.wait_for_timeout(200)
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type(text, delay=40)
    page.wait_for_timeout(100)
    page.keyboard.press("Enter")
    _idle(page)


def test_typed_numbers_are_stored_exactly_or_refused_by_row_and_column(page, start_app):
    app = start_app(FIXTURE_APP)
    page.goto(app.url + "?plane=1")
    page.wait_for_function(f"() => !!({STATE_JS})()", timeout=TIMEOUT_MS * 3)
    _idle(page)
    before = _state(page)["head"]
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("Edit points as a table").click()
    grid = sidebar.locator('[data-testid="stDataFrame"]')
    grid.wait_for(timeout=TIMEOUT_MS)
    _idle(page)
    _select(page, grid, 0)
    for text in TYPED:
        _type(page, text)
    sidebar.get_by_role("button", name="Apply table").click()
    page.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return s && s.head[0][0] === 0.001; }}",
        timeout=TIMEOUT_MS,
    )
    _idle(page)
    after = _state(page)["head"]
    for row in range(len(TYPED)):
        want = STORED.get(row, before[row][0])
        assert after[row][0] == want, (row, after[row], before[row])
        assert after[row][1] == before[row][1]  # x2 untouched
    errors = [e.inner_text() for e in sidebar.locator('[data-testid="stAlert"]').all()]
    for words in REFUSED.values():
        hits = [e for e in errors if words in e]
        assert len(hits) == 1, (words, errors)
        assert "the previous value is kept" in hits[0]
    screenshot(page, "table_01_typed_numbers")

    # An edit left unapplied while a click changes the points: the panel says so.
    _select(page, grid, 0)
    _type(page, "5")
    box = page.locator(".svmlab-canvas-plot .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    page.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return s && s.n === 101 && !s.pending; }}",
        timeout=TIMEOUT_MS,
    )
    warning = sidebar.locator('[data-testid="stAlert"]').filter(
        has_text="The points changed while the table was open"
    )
    warning.first.wait_for(timeout=TIMEOUT_MS)
    assert "table edits were not applied" in warning.first.inner_text()
    assert _state(page)["head"][0][0] == 0.001  # the unapplied 5 was not stored
    screenshot(page, "table_02_unapplied_edit")
    assert not page.js_errors, page.js_errors
    print("table:", json.dumps({"stored": STORED, "refused": list(REFUSED.values())}))
