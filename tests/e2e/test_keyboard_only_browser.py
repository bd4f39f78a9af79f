"""The lab with the keyboard alone, in a real browser (headless Debian Chromium).

No mouse event at all: the focus moves by Tab (and Shift+Tab) and keys are pressed.
On Kernel Pegasos (the app started as the README does): Tab reaches the plane; the arrows
move its crosshair (not the run: the plane keeps them), Enter adds a point of the selected
class there, N selects a point and M / arrows / Enter move it, Delete erases one — the app's
point count follows each edit and the polite live region reads it out with the refit's
counts ("Added point 101 at (…), class +1; 12 support vectors, training accuracy 99 %").
Space and PageDown / PageUp play and step the run from the plane (a clicker works there).
Tab from the plane reaches the model as a tree whose support vectors are listed by α,
largest first. On /exercises an exercise is opened and solved by keys (the C slider's
arrows). Screenshots: ``artifacts/keyboard_only_*.png``.
"""

from __future__ import annotations

import itertools
import re

import pytest

from .conftest import README_COMMAND, outside_requests, screenshot

pytestmark = pytest.mark.browser

# Tolerance table ------------------------------------------------------------------------
TOL_STEP = 1e-6  # a crosshair step is 1/20 of the axis range (float arithmetic only)

TIMEOUT_MS = 60_000  # one Streamlit rerun and refit on a busy 2-core machine
LOAD_TIMEOUT_MS = 120_000  # a first page load on a cold server
MAX_TABS = 400  # Tab presses to reach an element (the sidebar's links and controls first)

PLOT = ".svmlab-canvas-plot"
MAIN = '[data-testid="stMain"]'
EXCEPTION = '[data-testid="stException"]'

STATE_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  if (!d) return null;
  const live = document.querySelector('.svmlab-plane-live');
  return {n: Number(d.dataset.nPoints), pending: Number(d.dataset.pending || 0),
          ack: Number(d.dataset.ack || 0), cursor: d.dataset.cursor || '',
          said: Number(d.dataset.said || 0), live: live ? live.textContent : '',
          t: d.dataset.t || '', frame: d.dataset.frame || '', playing: d.dataset.playing === '1',
          selected: d.dataset.selected || '', focused: document.activeElement === d,
          arrows: d.getAttribute('data-svmlab-arrows'), renders: Number(d.dataset.renders)};
}"""

MOUSE_JS = """() => {
  window.__svmlabMouse = 0;
  const count = (e) => { if (e.isTrusted && e.detail !== 0) window.__svmlabMouse++; };
  for (const t of ['mousedown', 'mouseup', 'click', 'pointerdown', 'mousemove', 'wheel'])
    document.addEventListener(t, count, true);
}"""


@pytest.fixture(scope="module")
def server(start_app):
    return start_app("app.py", command=README_COMMAND)


def _state(page):
    return page.evaluate(STATE_JS)


def _wait(page, cond: str, timeout=TIMEOUT_MS):
    page.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return s && ({cond}); }}", timeout=timeout
    )
    return _state(page)


def _open(page, server, path="kernel_pegasos"):
    page.goto(server.url + path, timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(f"{PLOT} .main-svg", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".svmlab-keys-hint", timeout=TIMEOUT_MS)
    _wait(page, "s.t !== '' && s.renders > 0 && s.pending === 0", LOAD_TIMEOUT_MS)
    page.wait_for_selector('.svmlab-plane-tree [role="treeitem"]', state="attached")
    page.evaluate(MOUSE_JS)


def _tab_to(page, selector: str, *, back: bool = False) -> None:
    """Press Tab (Shift+Tab with ``back``) until the focused element matches ``selector``."""
    key = "Shift+Tab" if back else "Tab"
    js = f"() => {{ const a = document.activeElement; return !!a && a.matches({selector!r}); }}"
    for _ in range(MAX_TABS):
        if page.evaluate(js):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{selector} not reached with {MAX_TABS} × {key}")


def _cursor(page):
    x, y = (float(v) for v in _state(page)["cursor"].split(","))
    return x, y


def _ranges(page):
    return page.evaluate(
        """() => { const l = document.querySelector('.svmlab-canvas-plot').layout;
                   return [l.xaxis.range, l.yaxis.range]; }"""
    )


def _no_mouse(page):
    assert page.evaluate("() => window.__svmlabMouse") == 0


def test_add_move_and_erase_a_point_and_play_the_run_by_keyboard(page, server):
    _open(page, server)
    n0 = _state(page)["n"]
    _tab_to(page, PLOT)
    s = _wait(page, "s.focused && s.arrows === 'on' && s.cursor !== ''")
    (x0, x1), (y0, y1) = _ranges(page)
    cx, cy = _cursor(page)
    assert cx == pytest.approx((x0 + x1) / 2, abs=TOL_STEP)
    # the arrows move the crosshair, not the run
    t0 = s["t"]
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    x, y = _cursor(page)
    assert x == pytest.approx(cx + 2 * (x1 - x0) / 20, abs=TOL_STEP)
    assert y == pytest.approx(cy + (y1 - y0) / 20, abs=TOL_STEP)
    page.keyboard.press("Shift+ArrowLeft")
    x, _ = _cursor(page)
    assert x == pytest.approx(cx + 2 * (x1 - x0) / 20 - (x1 - x0) / 100, abs=TOL_STEP)
    assert _state(page)["t"] == t0
    live = _state(page)["live"]
    assert live.startswith("(x₁, x₂) = (") and "f ≈ " in live, live
    # Enter adds a point at the crosshair: announced with the refit's counts
    page.keyboard.press("Enter")
    s = _wait(page, f"s.n === {n0 + 1} && s.pending === 0 && s.live.startsWith('Added')")
    m = re.fullmatch(
        r"Added point (\d+) at \(([−\d.]+), ([−\d.]+)\), class ([+−]1); "
        r"(\d+) support vectors, training accuracy ([\d.]+) %\.",
        s["live"],
    )
    assert m, s["live"]
    assert int(m.group(1)) == n0 + 1
    assert float(m.group(2).replace("−", "-")) == pytest.approx(x, abs=0.006)
    screenshot(page, "keyboard_only_added")
    # N selects a point, M picks it up, the arrows carry it, Enter drops it
    page.keyboard.press("n")
    s = _wait(page, "s.selected !== '' && s.live.startsWith('Selected point')")
    chosen = int(s["selected"])
    page.keyboard.press("m")
    _wait(page, "s.live.startsWith('Picked up')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    s = _wait(page, f"s.pending === 0 && s.live.startsWith('Moved point {chosen + 1} to')")
    assert s["n"] == n0 + 1
    # Delete erases the selected point
    page.keyboard.press("Delete")
    s = _wait(page, f"s.n === {n0} && s.pending === 0 && s.live.startsWith('Erased point')")
    assert f"Erased point {chosen + 1} at (" in s["live"]
    # from the plane, the lab's playback keys still work (a clicker's PageUp / PageDown)
    t_last = s["t"]
    page.keyboard.press("PageUp")
    s = _wait(page, f"s.t !== {t_last!r}")
    page.keyboard.press("PageDown")
    _wait(page, f"s.t === {t_last!r}")
    page.keyboard.press("Home")
    _wait(page, f"s.t !== {t_last!r}")
    page.keyboard.press(" ")
    _wait(page, "s.playing || s.t === " + repr(t_last), TIMEOUT_MS)
    _wait(page, f"!s.playing && s.t === {t_last!r}", TIMEOUT_MS)
    assert _state(page)["focused"], "the plane keeps the focus through the reruns"
    # listen mode: L plays f along the row (a click at each boundary crossing)
    page.keyboard.press("l")
    page.wait_for_function(
        "() => document.querySelector('.svmlab-canvas-plot').dataset.listenPlays === '1'",
        timeout=TIMEOUT_MS,
    )
    page.keyboard.press("l")
    _no_mouse(page)
    assert page.locator(EXCEPTION).count() == 0
    assert not outside_requests(page.requests)
    assert not page.js_errors, page.js_errors


def test_the_tree_lists_support_vectors_by_alpha_and_selects_on_the_plane(page, server):
    _open(page, server)
    _tab_to(page, PLOT)
    page.keyboard.press("Tab")  # the tree's one node in the Tab order
    tree = page.locator('.svmlab-plane-tree [role="tree"]')
    model = tree.locator('[role="treeitem"][data-id="model"]')
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.dataset.id === 'model'",
        timeout=TIMEOUT_MS,
    )
    assert model.get_attribute("aria-expanded") == "true"
    assert tree.is_visible(), "the tree is drawn while it holds the focus"
    page.keyboard.press("ArrowDown")  # Boundary and margins
    page.keyboard.press("ArrowDown")  # the support vectors
    sv = tree.locator('[data-id="sv"]')
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.dataset.id === 'sv'",
        timeout=TIMEOUT_MS,
    )
    label = sv.locator(":scope > .svmlab-tree-label").inner_text()
    assert re.match(r"Support vectors by \|?α\|?, largest first \(", label), label
    page.keyboard.press("ArrowRight")  # open
    page.keyboard.press("ArrowRight")  # first child: the largest α
    focus = page.evaluate("() => document.activeElement.dataset.id")
    assert focus.startswith("sv:")
    alphas = [
        float(m.group(1).replace("−", "-"))
        for text in sv.locator('[role="treeitem"]').all_inner_texts()
        for m in [re.search(r"α = ([−\d.e+]+)", text)]
        if m
    ]
    n_sv = int(re.search(r"\((\d+)\)", label).group(1))
    assert len(alphas) == n_sv > 0
    assert all(abs(a) >= abs(b) for a, b in itertools.pairwise(alphas))
    first = sv.locator('[role="treeitem"]').first.inner_text()
    assert re.match(r"point \d+ at \(", first) and ("SV" in first), first
    j = int(focus.split(":")[1])
    ring = page.locator(f'.svmlab-canvas-overlay circle.svmlab-linked[data-index="{j}"]')
    ring.wait_for(state="attached", timeout=TIMEOUT_MS)
    page.keyboard.press("Enter")  # select it on the plane, the plane takes the focus
    s = _wait(page, f"s.focused && s.selected === '{j}'")
    assert s["live"].startswith(f"Selected point {j + 1} at (")
    _no_mouse(page)
    assert not page.js_errors, page.js_errors


def test_an_exercise_is_opened_and_solved_by_keyboard(page, server):
    page.goto(server.url + "exercises", timeout=LOAD_TIMEOUT_MS)
    button = page.locator(".st-key-exercise_open_one_bounded button")
    button.wait_for(timeout=LOAD_TIMEOUT_MS)
    page.evaluate(MOUSE_JS)
    _tab_to(page, ".st-key-exercise_open_one_bounded button")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.pathname === '/dual_svm'", timeout=TIMEOUT_MS)
    page.locator(MAIN).get_by_text("Not yet: C = 100: 0 bounded SVs").wait_for(
        timeout=LOAD_TIMEOUT_MS
    )
    page.evaluate(MOUSE_JS)
    thumb = '.st-key-dual_svm_C input[type="range"], .st-key-dual_svm_C [role="slider"]'
    _tab_to(page, thumb)
    for _ in range(4):  # 100 → 56.2 → 31.6 → 17.8 → 10 (one option per key)
        page.keyboard.press("ArrowLeft")
    page.locator(MAIN).get_by_text("Done ✓ C = 10: 1 bounded SVs").wait_for(timeout=TIMEOUT_MS)
    screenshot(page, "keyboard_only_exercise_done")
    _no_mouse(page)
    assert page.locator(EXCEPTION).count() == 0
    assert not page.js_errors, page.js_errors
