"""Load-generator helpers: a Streamlit protocol client, a pinned app server, /proc readings.

:class:`ProtocolSession` speaks Streamlit's own websocket protocol, as the browser does, but
without a browser: it connects to ``ws://127.0.0.1:<port>/_stcore/stream``, sends
``BackMsg.rerun_script`` messages with widget states, and reads ``ForwardMsg`` messages
until ``script_finished``. It learns the widgets' ids from the deltas (an element's ``id``
is ``$$ID-<hash>-<key>``), so actions name widgets by their Streamlit key. One such client
costs the load generator a few milliseconds per rerun, so 30 of them leave the server's
cores to the server.

The canvas click is encoded in ONE function, :func:`canvas_event_state`: the state value of
the acknowledged-event channel (``svmlab/ui/event_channel.py``, ``assets/event_channel.js``),
``{"events": [...]}`` with each event's ``seq``; the canvas acknowledges it in its data
(``data["channel"]["ack"]``).

Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from tests.e2e.conftest import AppServer  # noqa: E402

__all__ = [
    "ProtocolSession",
    "RerunResult",
    "canvas_ack",
    "canvas_event_state",
    "cpu_seconds",
    "rss_mb",
    "start_server",
]

FINISHED = ForwardMsg.ScriptFinishedStatus
_ID = re.compile(r"^\$\$ID-[0-9a-f]{32}-(.+)$")
#: Clicks of all pages: the page's key prefix (its ``PAGE`` constant) and its canvas key.
PAGE_PREFIX = {
    "linear_pegasos": "lin",
    "kernel_pegasos": "ker",
    "dual_svm": "dual",
    "multiclass": "mc",
}


# --- the server -------------------------------------------------------------------------


def start_server(*, cpus: str | None = None, flags=()) -> AppServer:
    """``python -m streamlit run app.py`` on a free port (one BLAS thread), pinned with
    ``taskset -c <cpus>`` when ``cpus`` is given, with extra ``flags`` ("name=value");
    its ``proc.pid`` is the server's pid."""
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[v] = "1"
    head = [sys.executable, "-m", "streamlit", "run", "app.py", *(f"--{f}" for f in flags)]
    if cpus is not None:
        head = ["taskset", "-c", cpus, *head]  # taskset execs: the pid stays the server's
    return AppServer(ROOT / "app.py", command=head)


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` (all its threads), from ``/proc/<pid>/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MB, from ``/proc/<pid>/status``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- the canvas event (the one place that knows its format) --------------------------------


def canvas_event_state(
    canvas_id: str, x: float, y: float, cls, cls_index: int, seq: int, *, pending=()
) -> WidgetState:
    """The widget state one canvas click ("add a point at (x, y)") sends.

    The component's *state* value ``events`` (a ``json_value`` on the component's own id):
    the events not acknowledged yet — ``pending`` (earlier events, e.g. made while the
    server was down) and this one — each with its sequence number ``seq``. A client that
    waits for each acknowledgement sends the one new event.
    """
    ev = {"type": "add", "x": float(x), "y": float(y), "cls": cls, "cls_index": int(cls_index)}
    ev["seq"] = int(seq)
    state = WidgetState(id=canvas_id)
    state.json_value = json.dumps({"events": [*pending, ev]})
    return state


def canvas_ack(data: dict | None) -> int:
    """The highest event the canvas's data acknowledge (``data["channel"]["ack"]``)."""
    channel = (data or {}).get("channel") or {}
    return int(channel.get("ack", 0))


# --- the protocol client ------------------------------------------------------------------


@dataclass
class RerunResult:
    """What one rerun cost and showed, as seen by the client."""

    seconds: float  # request sent -> script_finished
    nbytes: int  # websocket bytes received for it
    status: str  # the final script_finished status (or "timeout" / "error: …")
    canvas_s: float | None = None  # request -> the canvas delta acknowledging the event
    sends: int = 1  # rerun requests sent (> 1 when re-sends are emulated)
    early: int = 0  # reruns superseded by a later request (FINISHED_EARLY_FOR_RERUN)
    exceptions: list[str] = field(default_factory=list)


@dataclass
class Widget:
    id: str
    kind: str  # the element type: slider, selectbox, number_input, bidi_component, …
    proto: object
    fragment_id: str = ""


class ProtocolSession:
    """One browser tab's worth of Streamlit session, driven over the websocket.

    Parameters
    ----------
    port : int
        The app's port on 127.0.0.1.
    page : str
        The page's URL path (``"kernel_pegasos"``, ``""`` for home).
    timeout : float
        Seconds one rerun may take before it counts as an error.
    query : str
        The address bar's query string (without ``?``), sent with every rerun as a
        browser does.
    """

    def __init__(self, port: int, page: str, *, timeout: float = 120.0, query: str = ""):
        self.port, self.page, self.timeout = port, page, float(timeout)
        self.query = query  # the address bar's query string (without "?"), sent each rerun
        self.alerts: list[str] = []  # the bodies of st.warning / st.error / … received
        self.widgets: dict[str, Widget] = {}
        self.canvas: dict | None = None  # the canvas component's newest data
        self.page_hash = ""
        self.ws = None
        self.nbytes_total = 0
        self._queue: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None

    # connection

    async def open(self) -> RerunResult:
        """Connect and run the page once (what a browser does on load)."""
        import websockets

        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream",
            subprotocols=["streamlit"],
            origin=f"http://127.0.0.1:{self.port}",
            max_size=None,
            open_timeout=self.timeout,
            ping_interval=None,
        )
        self._reader = asyncio.create_task(self._read())
        return await self.rerun()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                await self._queue.put((time.perf_counter(), raw))
        except Exception as exc:  # the connection closed: wake whoever waits
            await self._queue.put((time.perf_counter(), exc))

    # messages

    def _client_state(self, states=(), fragment_id: str = "") -> BackMsg:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.page_name = self.page
        if self.page_hash:
            cs.page_script_hash = self.page_hash
        if fragment_id:
            cs.fragment_id = fragment_id
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"http://127.0.0.1:{self.port}/{self.page}"
        cs.query_string = self.query
        for s in states:
            cs.widget_states.widgets.append(s)
        return msg

    def _absorb(self, fm: ForwardMsg, result: RerunResult, seq, t0: float, t: float) -> None:
        kind = fm.WhichOneof("type")
        if kind == "new_session" and fm.new_session.page_script_hash:
            self.page_hash = fm.new_session.page_script_hash
        if kind == "navigation" and fm.navigation.page_script_hash:
            # st.navigation names the page it runs: a rerun the app requests (st.rerun)
            # keeps that page, as the browser's requests do
            self.page_hash = fm.navigation.page_script_hash
            self.nav_hash = fm.navigation.page_script_hash
        if kind != "delta":
            return
        if fm.metadata.active_script_hash and not getattr(self, "nav_hash", ""):
            self.page_hash = fm.metadata.active_script_hash
        if fm.delta.WhichOneof("type") != "new_element":
            return
        el = fm.delta.new_element
        etype = el.WhichOneof("type")
        inner = getattr(el, etype) if etype else None
        if etype == "exception":
            result.exceptions.append(f"{inner.type}: {inner.message}"[:200])
            return
        if etype == "alert":
            self.alerts.append(inner.body)
        wid = getattr(inner, "id", "") if inner is not None else ""
        m = _ID.match(wid) if isinstance(wid, str) else None
        if not m:
            return
        self.widgets[m.group(1)] = Widget(wid, etype, inner, fm.delta.fragment_id)
        # the canvas (the other components: plot boxes, keys)
        canvas = etype == "bidi_component" and m.group(1).endswith("canvas")
        if canvas and inner.json:
            data = json.loads(inner.json)
            if isinstance(data, dict) and "figure" in data:
                if data.get("kept") and self.canvas is not None:
                    # as assets/canvas.js: the figure shown is kept (the plane's fragment
                    # sent it just before the page's run)
                    data = {**data, **{k: self.canvas.get(k) for k in ("figure", "bars", "links")}}
                self.canvas = data
                if seq is not None and result.canvas_s is None and canvas_ack(data) >= seq:
                    result.canvas_s = t - t0

    async def rerun(self, states=(), *, fragment_id: str = "", seq=None, resend_s=0.0):
        """Send one ``rerun_script`` and read until its ``script_finished``.

        ``seq``: the canvas event's number; the result's ``canvas_s`` is when the canvas
        acknowledging it arrived. ``resend_s`` > 0 re-sends the request while the event is
        not acknowledged after that many seconds (an emulation: the browser's channel sends
        each event once).
        """
        states = list(states)
        msg = self._client_state(states, fragment_id)
        result = RerunResult(seconds=float("nan"), nbytes=0, status="timeout")
        t0 = last_send = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        deadline = t0 + self.timeout
        while True:
            now = time.perf_counter()
            if now >= deadline:
                return result
            wait = deadline - now
            if resend_s > 0 and seq is not None and result.canvas_s is None:
                wait = min(wait, max(0.0, last_send + resend_s - now))
            try:
                t, raw = await asyncio.wait_for(self._queue.get(), timeout=wait)
            except TimeoutError:
                if resend_s > 0 and result.canvas_s is None and time.perf_counter() < deadline:
                    last_send = time.perf_counter()
                    result.sends += 1
                    await self.ws.send(msg.SerializeToString())
                continue
            if isinstance(raw, Exception):
                result.status = f"error: {type(raw).__name__}"
                return result
            data = raw if isinstance(raw, bytes) else raw.encode()
            result.nbytes += len(data)
            self.nbytes_total += len(data)
            fm = ForwardMsg()
            fm.ParseFromString(data)
            self._absorb(fm, result, seq, t0, t)
            if fm.WhichOneof("type") == "script_finished":
                status = FINISHED.Name(fm.script_finished)
                if fm.script_finished == FINISHED.FINISHED_EARLY_FOR_RERUN:
                    result.early += 1
                    continue
                if seq is not None and result.canvas_s is None and resend_s > 0:
                    continue  # the emulated canvas waits for its acknowledgement
                result.status, result.seconds = status, t - t0
                return result

    # actions

    def widget_state(self, key: str, value) -> tuple[WidgetState, str]:
        """The state that sets widget ``key`` to ``value`` (an option label for select
        sliders / selectboxes / radios, a number for sliders and number inputs)."""
        w = self.widgets[key]
        s = WidgetState(id=w.id)
        options = list(getattr(w.proto, "options", []) or [])
        if w.kind == "slider" and options:  # st.select_slider: the option's label
            s.string_array_value.data.append(str(value))
        elif w.kind == "slider":
            s.double_array_value.data.append(float(value))
        elif w.kind in ("selectbox", "radio"):
            s.string_value = str(value)
        elif w.kind == "number_input":
            if isinstance(value, int):
                s.int_value = value
            else:
                s.double_value = float(value)
        elif w.kind == "checkbox":
            s.bool_value = bool(value)
        elif w.kind == "button":
            s.trigger_value = bool(value)
        else:
            raise ValueError(f"widget {key!r} of kind {w.kind!r} is not supported")
        return s, w.fragment_id

    def options(self, key: str) -> list[str]:
        return list(getattr(self.widgets[key].proto, "options", []) or [])

    async def set_widget(self, key: str, value) -> RerunResult:
        state, fragment = self.widget_state(key, value)
        return await self.rerun([state], fragment_id=fragment)

    def canvas_key(self) -> str | None:
        """The data canvas's key (``f"{page}_canvas"``; other components, e.g. the
        keyboard's, are not it)."""
        keys = [k for k, w in self.widgets.items() if w.kind == "bidi_component"]
        canvases = [k for k in keys if k.endswith("canvas")]
        return (canvases or keys or [None])[0]

    def plane(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The canvas figure's fixed axis ranges (data units)."""
        layout = json.loads(self.canvas["figure"]).get("layout", {})
        return tuple(layout["xaxis"]["range"]), tuple(layout["yaxis"]["range"])

    def points(self) -> list[tuple[float, float]]:
        """The points the canvas shows (its hit-testing payload)."""
        p = (self.canvas or {}).get("points") or {"x": [], "y": []}
        return list(zip(p["x"], p["y"], strict=True))

    async def click(self, x: float, y: float, seq: int, *, pending=(), resend_s: float = 0.0):
        """Add a point at (x, y) with the canvas's current class, as a click does.

        ``seq``: the event's number, above every earlier one; ``pending``: earlier events
        still unacknowledged, sent along (as the browser's channel does)."""
        key = self.canvas_key()
        w = self.widgets[key]
        cls, cls_index = self.canvas.get("cls", 1), self.canvas.get("cls_index", 1)
        state = canvas_event_state(w.id, x, y, cls, cls_index, seq, pending=pending)
        return await self.rerun([state], fragment_id=w.fragment_id, seq=seq, resend_s=resend_s)
