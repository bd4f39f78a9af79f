"""The plane's axes follow the points after an import, an undo and a redo (stable axes), in
a real browser (Debian's headless Chromium through playwright).

Drives ``tests/e2e/canvas_app.py?plane=1`` (the app's plane figure on the session's axes;
the page states the axes Python chose as JSON). Three rounds of: import 8 points at ±1e6,
undo, redo, undo. After each step the axes plotly.js draws are the ones Python chose (both
axes: one used to keep its old range), and they fit the points: every point inside, the
points spanning at least a third of the plane. After the last undo a click lands where it
was aimed (before the fix the user's points sat in one pixel of a ±1.3e6 plane and a new
click landed near 1e5).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .canvas_js import TO_PAGE_JS
from .conftest import screenshot

# Tolerance table ------------------------------------------------------------------------
TOL_RANGE = 1e-12  # drawn ranges vs the stated ones, relative (JSON round trip of the same
# doubles: exact in practice)
TOL_PIXEL = 1.5  # a click lands within this many pixels of where it was aimed

pytestmark = pytest.mark.browser

FIXTURE_APP = Path(__file__).with_name("canvas_app.py")
TIMEOUT_MS = 30_000
SIDEBAR = '[data-testid="stSidebar"]'
BIG = [(s * 1e6, t * 1e6, lab) for s in (-1, 1) for t in (-1, 1) for lab in (-1, 1)]
BIG_CSV = "x1,x2,label\n" + "".join(
    f"{x * (0.5 if lab < 0 else 1):.1f},{y:.1f},{lab}\n" for x, y, lab in BIG
)

DRAWN_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  const code = Array.from(document.querySelectorAll('[data-testid="stCode"] code'))
    .map(e => e.textContent).find(t => t.includes('"plane"'));
  if (!d || !d._fullLayout || !code) return null;
  const xs = [], ys = [];
  for (const t of d._fullData) if (t.meta === 'svmlab-points')
    for (let i = 0; i < t.x.length; i++) { xs.push(t.x[i]); ys.push(t.y[i]); }
  return {x: Array.from(d._fullLayout.xaxis.range), y: Array.from(d._fullLayout.yaxis.range),
          stated: JSON.parse(code), n: Number(d.dataset.nPoints),
          pending: Number(d.dataset.pending || 0), xs, ys};
}"""


def _settled(page, n: int) -> dict:
    """The drawn state once n points are drawn and the drawn axes are the stated ones."""
    page.wait_for_function(
        f"""() => {{ const s = ({DRAWN_JS})(); if (!s || s.n !== {n} || s.pending) return false;
            const p = s.stated.plane;
            const close = (a, b) => Math.abs(a - b) <= {TOL_RANGE} * Math.max(1, Math.abs(b));
            return s.stated.n === {n} && close(s.x[0], p[0]) && close(s.x[1], p[1])
              && close(s.y[0], p[2]) && close(s.y[1], p[3]); }}""",
        timeout=TIMEOUT_MS,
    )
    return page.evaluate(DRAWN_JS)


def _fits(s: dict) -> None:
    (x0, x1), (y0, y1) = s["x"], s["y"]
    assert all(x0 <= v <= x1 for v in s["xs"]) and all(y0 <= v <= y1 for v in s["ys"])
    span = max((max(s["xs"]) - min(s["xs"])) / (x1 - x0), (max(s["ys"]) - min(s["ys"])) / (y1 - y0))
    assert span >= 1 / 3, s


def _button(page, name: str):
    page.locator(SIDEBAR).get_by_role("button", name=name).click()


def test_axes_follow_import_undo_redo(page, start_app):
    app = start_app(FIXTURE_APP)
    page.goto(app.url + "?plane=1")
    first = _settled(page, 100)
    _fits(first)
    page.locator(SIDEBAR).get_by_text("Import / export").click()
    upload = page.locator(f"{SIDEBAR} input[type=file]")
    for round_ in range(3):
        upload.set_input_files(
            files=[{"name": f"big{round_}.csv", "mimeType": "text/csv", "buffer": BIG_CSV.encode()}]
        )
        big = _settled(page, 8)
        _fits(big)
        assert big["x"][1] > 1e6 and big["y"][1] > 1e6
        _button(page, "Undo")
        back = _settled(page, 100)
        _fits(back)
        assert (back["x"], back["y"]) == (first["x"], first["y"])  # the user's plane again
        _button(page, "Redo")
        _fits(_settled(page, 8))
        _button(page, "Undo")
        _fits(_settled(page, 100))
    screenshot(page, "plane_axes_after_undo")
    # A click after the undo lands where it was aimed, at the user's scale.
    px, py, mx, my = page.evaluate(TO_PAGE_JS, [0.5, 0.25])
    page.mouse.click(px, py)
    s = _settled(page, 101)
    hits = [(x, y) for x, y in zip(s["xs"], s["ys"], strict=True) if abs(x - 0.5) * mx <= TOL_PIXEL]
    assert any(abs(y - 0.25) * my <= TOL_PIXEL for _, y in hits), (hits, json.dumps(s["stated"]))
    assert not page.js_errors, page.js_errors
