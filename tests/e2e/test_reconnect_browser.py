"""A server restart keeps the user's points and their clicks: the browser reconnects to a
fresh server (a fresh session), the URL brings the points back, and the clicks made while
the server was down are applied once, in order (any replica can serve).

Every wait is on state the page shows (no sleep that races the reconnect): the websocket
closed, the canvas's pending clicks, a new websocket, the canvas drawn by the new server's
session (its figure's stamp names the session), the points the canvas and the URL hold.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from svmlab.state.urlstate import decode_points

from . import conftest
from .conftest import ROOT, AppServer, screenshot
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table ------------------------------------------------------------------------
TOL_STEP = 6.0 / 65535  # the points read back vs those drawn (before the restart, or clicked
# while it was down): one quantization step of the plane, (x1 − x0)/65535, on (−3, 3)

pytestmark = pytest.mark.browser

TIMEOUT_MS = 180_000  # a server restart on a busy machine, then the client's retry
STAMP_JS = "() => (document.querySelector('.svmlab-canvas-plot') || {dataset: {}}).dataset.stamp"
SENDS_JS = "() => Number(document.querySelector('.svmlab-canvas-plot').dataset.sends || 0)"


def _canvas(tab, condition: str, *, settled: bool = True):
    pending = "s.pending === 0 && " if settled else ""
    tab.wait_for_function(
        f"() => {{ const s = ({CANVAS_JS})(); return !!s && {pending}({condition}); }}",
        timeout=TIMEOUT_MS,
    )
    return tab.evaluate(CANVAS_JS)


def _until(tab, check, what: str):
    """Poll ``check()`` (state read from the test's side) until it holds."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        tab.wait_for_timeout(100)


def _url_points(tab, n: int) -> np.ndarray:
    """The points of the tab's URL once its ``pts`` token holds ``n`` (in their order)."""
    found = []

    def holds() -> bool:
        q = parse_qs(urlsplit(tab.url).query)
        if "pts" not in q or "plane" not in q:
            return False
        plane = tuple(float(v) for v in q["plane"][0].split(","))
        pts = decode_points(q["pts"][0], plane)
        found[:] = [pts]
        return pts.n == n

    _until(tab, holds, f"the URL to hold {n} points ({tab.url})")
    return np.asarray(found[0].X)


def _click(tab, x: float, y: float) -> None:
    px, py, _, _ = tab.evaluate(TO_PAGE_JS, [x, y])
    tab.mouse.click(px, py)


class Tab:
    """A tab on the page with its websockets recorded."""

    def __init__(self, ctx, url: str):
        self.page = ctx.new_page()
        self.sockets: list = []
        self.page.on("websocket", lambda ws: self.sockets.append(ws))
        self.page.goto(url)

    def disconnected(self) -> bool:
        return bool(self.sockets) and self.sockets[-1].is_closed()


def _two_points(tab) -> np.ndarray:
    """Clear the default points, click two: the URL holds them."""
    _canvas(tab, "s.n === 100")
    tab.locator('[data-testid="stSidebar"]').get_by_role("button", name="Clear").click()
    _canvas(tab, "s.n === 0")
    for n, (x, y) in enumerate([(-1.0, 1.0), (1.0, -1.0)], start=1):
        _click(tab, x, y)
        _canvas(tab, f"s.n === {n}")
    return _url_points(tab, 2)


def _restart(first: AppServer, tab: Tab, monkeypatch, clicks=()) -> AppServer:
    """Stop ``first``; once the tab has lost its connection, click ``clicks`` (they stay
    pending); start a new server on the same port. Returns it."""
    first.stop()  # the server goes away; the tab keeps its URL and reconnects
    _until(tab.page, tab.disconnected, "the tab to lose its websocket")
    for i, (x, y) in enumerate(clicks, start=1):
        sends = tab.page.evaluate(SENDS_JS)
        _click(tab.page, x, y)
        _canvas(tab.page, f"s.pending === {i}", settled=False)  # drawn at once, pending
        assert tab.page.evaluate(SENDS_JS) == sends + 1, "one send per click, none later"
    monkeypatch.setattr(conftest, "free_port", lambda: first.port)
    second = AppServer(ROOT / "app.py")
    assert second.port == first.port
    return second


def _reconnected(tab: Tab, opened: int, stamp: str) -> None:
    """Wait for a new websocket and the canvas drawn by the new server's session."""
    _until(tab.page, lambda: len(tab.sockets) > opened, "the tab to reconnect")
    epoch = stamp.split(":")[0]
    tab.page.wait_for_function(
        f"() => {{ const s = ({STAMP_JS})(); return !!s && s.split(':')[0] !== '{epoch}'; }}",
        timeout=TIMEOUT_MS,
    )


def _near(got: np.ndarray, want) -> bool:
    return bool(np.abs(np.asarray(got) - np.asarray(want)).max() <= TOL_STEP)


def test_a_server_restart_keeps_the_points(monkeypatch, browser_context):
    first = AppServer(ROOT / "app.py")
    second = None
    # One Playwright per process: a new context of the harness's Chromium.
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = Tab(ctx, first.url + "kernel_pegasos")
        before = _two_points(tab.page)
        url, stamp, opened = tab.page.url, tab.page.evaluate(STAMP_JS), len(tab.sockets)
        drawn = tab.page.evaluate(CANVAS_JS)
        second = _restart(first, tab, monkeypatch)
        # The old figure stays on screen while the tab reconnects; the new server's session
        # reruns the page from its URL (the router's reconnect guard) and draws the canvas.
        # Then a third click: only that session can apply it, to the points the URL brought
        # back (2 + 1; a session without them would show 100 default points + 1).
        _reconnected(tab, opened, stamp)
        _click(tab.page, 0.5, 0.5)
        after = _canvas(tab.page, "s.n === 3 || s.n === 101")
        assert after["n"] == 3, after["n"]
        got = _url_points(tab.page, 3)
        assert tab.page.url.split("&pts=")[0] == url.split("&pts=")[0]  # the same plane
        assert _near(got[:2], before) and _near(got[2], [0.5, 0.5])
        for name, pts in drawn["pts"].items():
            shown = np.array(sorted(after["pts"][name]))
            for x, y in pts:  # every point drawn before the restart is still drawn
                assert np.abs(shown - [x, y]).max(axis=1).min() <= TOL_STEP
        assert tab.page.locator('[data-testid="stException"]').count() == 0
        screenshot(tab.page, "url_03_after_restart")
        assert "Traceback" not in second.output()
    finally:
        ctx.close()
        first.stop()
        if second is not None:
            second.stop()


def test_clicks_made_while_the_server_is_down_are_applied_once_in_order(
    monkeypatch, browser_context
):
    # Stop the server and click twice, then once more the moment the tab has reconnected,
    # before the new server's session has run the page. The clicks stay pending in the
    # canvas's event channel (each sent once; requests are dropped while disconnected, the
    # state value keeps them) and reach the new session with the next request, as a run of
    # the whole page: each is applied once, in the order made. Before, the canvas sat in
    # the plane's fragment, and a click's request named a fragment the new session did not
    # know: a click was lost (or left pending for good).
    first = AppServer(ROOT / "app.py")
    second = None
    ctx = browser_context.browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = Tab(ctx, first.url + "kernel_pegasos")
        before = _two_points(tab.page)
        opened = len(tab.sockets)
        down = [(0.5, 0.5), (-0.5, -1.5)]
        second = _restart(first, tab, monkeypatch, clicks=down)
        _until(tab.page, lambda: len(tab.sockets) > opened, "the tab to reconnect")
        _click(tab.page, 1.5, 1.5)  # reconnected; the page not rerun yet
        after = _canvas(tab.page, "s.n >= 5")
        assert after["n"] == 5, "each click applied once"
        got = _url_points(tab.page, 5)
        assert _near(got[:2], before), "the points from before the restart come first"
        assert _near(got[2:], [*down, (1.5, 1.5)]), f"the clicks, in the order made: {got[2:]}"
        _click(tab.page, 2.0, -2.0)  # the session goes on as usual
        assert _canvas(tab.page, "s.n >= 6")["n"] == 6
        assert _near(_url_points(tab.page, 6)[5], [2.0, -2.0])
        assert tab.page.locator('[data-testid="stException"]').count() == 0
        screenshot(tab.page, "url_04_clicks_while_down")
        assert "Traceback" not in second.output()
    finally:
        ctx.close()
        first.stop()
        if second is not None:
            second.stop()
