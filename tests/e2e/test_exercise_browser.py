"""An exercise end to end in a real browser (Debian's headless Chromium through playwright).

On ``/exercises``: "Open" on "Exactly one bounded SV" moves the browser to the Dual SVM
page (``st.switch_page``) with the exercise's five points and C = 100; the goal box says
"Not yet" with 0 bounded SVs. Four steps left on the C slider (100 → 10) give exactly one
bounded SV: the box says "Done ✓", and back on ``/exercises`` the exercise is marked done
and the progress reads "1 of 8". No exception and no request off this machine.

Screenshots: ``artifacts/compare_exercise_open.png``, ``artifacts/compare_exercise_done.png``.
"""

from __future__ import annotations

import pytest

from svmlab.study.exercises import EXERCISES

from .conftest import ROOT, AppServer, outside_requests, screenshot

# Tolerance table: none — texts are compared exactly.

pytestmark = pytest.mark.browser

LOAD_TIMEOUT_MS = 120_000
TIMEOUT_MS = 60_000
EXCEPTION = '[data-testid="stException"]'
MAIN = '[data-testid="stMain"]'


@pytest.fixture(scope="module")
def app():
    server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


def _idle(tab):
    tab.wait_for_timeout(300)
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')""",
        timeout=TIMEOUT_MS,
    )


def test_open_an_exercise_solve_it_and_see_it_done(page, app):
    tab = page  # the conftest's tab: every request URL and JavaScript error recorded
    tab.goto(app.url + "exercises")
    button = tab.locator(".st-key-exercise_open_one_bounded button")
    button.wait_for(timeout=LOAD_TIMEOUT_MS)
    button.click()
    tab.wait_for_function("() => location.pathname === '/dual_svm'", timeout=TIMEOUT_MS)
    box = tab.locator(MAIN).get_by_text("Not yet: C = 100: 0 bounded SVs")
    box.wait_for(timeout=LOAD_TIMEOUT_MS)
    assert tab.locator(MAIN).get_by_text("Exercise: Exactly one bounded SV").count() == 1
    screenshot(tab, "compare_exercise_open")
    thumb = tab.locator('.st-key-dual_svm_C input[type="range"]')
    thumb.focus()
    for _ in range(4):  # 100 → 56.2 → 31.6 → 17.8 → 10 (one option per key)
        thumb.press("ArrowLeft")
    tab.locator(MAIN).get_by_text("Done ✓ C = 10: 1 bounded SVs").wait_for(timeout=TIMEOUT_MS)
    _idle(tab)
    screenshot(tab, "compare_exercise_done")
    tab.locator('[data-testid="stSidebar"]').get_by_role("link", name="Exercises").click()
    tab.wait_for_function("() => location.pathname === '/exercises'", timeout=TIMEOUT_MS)
    done = tab.locator(MAIN).get_by_text("Exactly one bounded SV — done ✓")
    done.wait_for(timeout=TIMEOUT_MS)
    assert tab.locator(MAIN).get_by_text(f"1 of {len(EXERCISES)} done").count() == 1
    assert tab.locator(EXCEPTION).count() == 0
    assert not outside_requests(tab.requests)
    assert not tab.js_errors, tab.js_errors
