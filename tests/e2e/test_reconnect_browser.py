"""A server restart keeps the user's points: the browser reconnects to a fresh server (a
fresh session) and the URL brings the points back (the lab in the URL: any replica can serve).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from svmlab.state.urlstate import decode_points

from . import conftest
from .conftest import ROOT, AppServer, screenshot
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table ------------------------------------------------------------------------
TOL_STEP = 6.0 / 65535  # the points read back vs those drawn before the restart: one quantization
# step of the plane, (x1 − x0)/65535, on the default plane (−3, 3)

pytestmark = pytest.mark.browser

TIMEOUT_MS = 180_000  # a server restart on a busy machine, then the client's retry


def _canvas(tab, condition: str):
    tab.wait_for_function(
        f"() => {{ const s = ({CANVAS_JS})(); return !!s && s.pending === 0 && ({condition}); }}",
        timeout=TIMEOUT_MS,
    )
    return tab.evaluate(CANVAS_JS)


def _url_with_points(tab, n: int) -> str:
    """The tab's URL once its ``pts`` token holds ``n`` points (the URL follows the run)."""
    for _ in range(200):
        q = parse_qs(urlsplit(tab.url).query)
        if "pts" in q and "plane" in q:
            plane = tuple(float(v) for v in q["plane"][0].split(","))
            if decode_points(q["pts"][0], plane).n == n:
                return tab.url
        tab.wait_for_timeout(100)
    raise AssertionError(f"the URL never held {n} points: {tab.url}")


def test_a_server_restart_keeps_the_points(monkeypatch, browser_context):
    first = AppServer(ROOT / "app.py")
    second = None
    # One Playwright per process: a new context of the harness's Chromium.
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = ctx.new_page()
        sockets = []
        tab.on("websocket", lambda ws: sockets.append(ws))
        tab.goto(first.url + "kernel_pegasos")
        _canvas(tab, "s.n === 100")
        tab.locator('[data-testid="stSidebar"]').get_by_role("button", name="Clear").click()
        _canvas(tab, "s.n === 0")
        for n, (x, y) in enumerate([(-1.0, 1.0), (1.0, -1.0)], start=1):
            px, py, _, _ = tab.evaluate(TO_PAGE_JS, [x, y])
            tab.mouse.click(px, py)
            _canvas(tab, f"s.n === {n}")
        before = _canvas(tab, "s.n === 2")
        url = _url_with_points(tab, 2)

        first.stop()  # the server goes away; the tab keeps its URL and reconnects
        monkeypatch.setattr(conftest, "free_port", lambda: first.port)
        second = AppServer(ROOT / "app.py")
        assert second.port == first.port
        # The old figure stays on screen while the tab reconnects (Streamlit's client drops
        # a rerun request made while disconnected; the canvas keeps such a click pending and
        # sends it with the next one). Once the tab is connected to the new server, draw a
        # third point: only the new server's session can apply it, to the points the URL
        # brought back (2 + 1; a session without them would show 100 default points + 1).
        opened = len(sockets)
        tab.wait_for_function("() => true", timeout=1000)
        deadline = TIMEOUT_MS / 1000
        while len(sockets) == opened and deadline > 0:
            tab.wait_for_timeout(500)
            deadline -= 0.5
        assert len(sockets) > opened, "the tab never reconnected"
        tab.wait_for_timeout(1000)
        px, py, _, _ = tab.evaluate(TO_PAGE_JS, [0.5, 0.5])
        tab.mouse.click(px, py)
        after = _canvas(tab, "s.n === 3 || s.n === 101")
        assert after["n"] == 3, after["n"]
        _url_with_points(tab, 3)
        assert tab.url.split("&pts=")[0] == url.split("&pts=")[0]  # the same plane
        for name, pts in before["pts"].items():
            got = np.array(sorted(after["pts"][name]))
            for x, y in pts:  # every point drawn before the restart is still there
                assert np.abs(got - [x, y]).max(axis=1).min() <= TOL_STEP
        assert tab.locator('[data-testid="stException"]').count() == 0
        screenshot(tab, "url_03_after_restart")
        assert "Traceback" not in second.output()
    finally:
        ctx.close()
        first.stop()
        if second is not None:
            second.stop()
