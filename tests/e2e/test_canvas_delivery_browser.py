"""Canvas events on a slow, throttled server: exactly one send per click, every click
applied once (no re-send storm).

The canvas used to re-send an unacknowledged event every 2 s as a new trigger value; each
re-send started a rerun that stopped the one in progress, so once a rerun took more than
2 s the server threw work away (one user on a slowed server: 5 clicks → 16 sends). Now
the component keeps its unacknowledged events in a state value and sets it once per event.

Set-up: a fresh server for ``tests/e2e/canvas_app.py?slow=3`` (every rerun sleeps 3 s)
whose process this test stops and continues on a duty cycle (SIGSTOP / SIGCONT: running
0.1 s of every 0.4 s), so every rerun takes well over 2 s. Five clicks 0.3 s apart. Sends
are counted twice: the component's counter (the event channel's, on the plot's
``data-sends``: one per setStateValue) and the websocket frames the browser sends (every
rerun request is one).

The numbers go to ``artifacts/canvas_delivery.json``.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest

from .canvas_js import TO_PAGE_JS
from .conftest import ARTIFACTS, AppServer, screenshot

# Tolerance table: none — counts are exact.

pytestmark = pytest.mark.browser

FIXTURE_APP = Path(__file__).with_name("canvas_app.py")
PLOT = ".svmlab-canvas-plot"
SLOW_S = 3.0
RUN_S, STOP_S = 0.1, 0.3  # the server runs 0.1 s of every 0.4 s
TIMEOUT_MS = 120_000
SPOTS = [(0.5, -2.5), (1.0, -2.5), (1.5, -2.5), (2.0, -2.5), (2.5, -2.5)]


ROW_JS = """() => {
  const d = document.querySelector('.svmlab-canvas-plot');
  if (!d || !d._fullData) return {n: -1, pending: -1, sends: -1, row: []};
  const xs = [];
  for (const t of d._fullData) if (t.meta === 'points')
    for (let i = 0; i < t.x.length; i++) if (t.y[i] < -2.4) xs.push(t.x[i]);
  return {n: Number(d.dataset.nPoints), pending: Number(d.dataset.pending || 0),
          sends: Number(d.dataset.sends || 0), row: xs};
}"""


class Throttle:
    """Stops and continues a process on a duty cycle until stopped (then leaves it running)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.done.is_set():
            os.kill(self.pid, signal.SIGSTOP)
            self.done.wait(STOP_S)
            os.kill(self.pid, signal.SIGCONT)
            self.done.wait(RUN_S)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        os.kill(self.pid, signal.SIGCONT)


def test_one_send_per_click_and_every_click_once_on_a_throttled_server(browser_context):
    server = AppServer(FIXTURE_APP)
    page = browser_context.new_page()
    errors: list[str] = []
    frames: list[float] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framesent", lambda _payload: frames.append(1)))
    try:
        page.goto(f"{server.url}?slow={SLOW_S}")
        page.wait_for_function(
            f"() => {{ const s = ({ROW_JS})(); return s.n === 100 && s.pending === 0; }}",
            timeout=TIMEOUT_MS,
        )
        page.wait_for_timeout(SLOW_S * 1000 + 500)  # the first runs are over
        pix = [page.evaluate(TO_PAGE_JS, list(xy))[:2] for xy in SPOTS]
        frames.clear()
        with Throttle(server.proc.pid):
            for px, py in pix:
                page.mouse.click(px, py)
                page.wait_for_timeout(300)
            page.wait_for_function(
                f"() => {{ const s = ({ROW_JS})(); return s.n === 105 && s.pending === 0; }}",
                timeout=TIMEOUT_MS,
            )
            page.wait_for_timeout(3000)  # a re-send timer (2 s) would have fired by now
        state = page.evaluate(ROW_JS)
        screenshot(page, "canvas_07_throttled_clicks")
    finally:
        page.close()
        server.stop()
    result = {
        "clicks": len(SPOTS),
        "component_sends": state["sends"],
        "websocket_frames_sent": len(frames),
        "points": state["n"],
        "slow_s": SLOW_S,
        "duty": f"{RUN_S} s running of every {RUN_S + STOP_S} s",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "canvas_delivery.json").write_text(json.dumps(result, indent=2))
    print("throttled server:", json.dumps(result))
    assert state["sends"] == len(SPOTS)  # exactly one send per click
    assert len(frames) == len(SPOTS)  # and one rerun request each, nothing else
    assert state["n"] == 105  # every click arrived ...
    assert sorted(round(x, 1) for x in state["row"]) == [0.5, 1.0, 1.5, 2.0, 2.5]  # ... once
    assert not errors, errors
