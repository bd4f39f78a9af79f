"""A class on one server: N concurrent sessions doing a lecture script.

Each session opens a page (Kernel Pegasos by default: two moons, n = 100, RBF, T = 10⁴),
clicks 5 points on the canvas (each a new data set, so a new training run), changes the
page's main slider (λ; C on the dual page; η on the multiclass page) and scrubs 3 steps
through the run, with a think time between actions. Sessions start staggered over a few
seconds, as students do.

Two kinds of clients:

* ``browser``: real sessions — one headless Debian Chromium (``/usr/bin/chromium``) with a
  separate context per session, driven by async playwright; click → boundary is measured
  in the page, from the click's ``pointerdown`` to the painted frame of the refitted figure
  (as in ``bench_browser.py``). For N ≤ 10 by default. A page load costs Chromium ~4 CPU
  seconds (Streamlit's bundle and Plotly compiled afresh in every context, painted without
  a GPU) against ~0.1 s of the server. Chromium therefore runs on all CPUs (a small
  ``taskset`` launcher script, :func:`browser_launcher`), not on the load generator's: on
  CPU 1 alone, N renderers queued behind each other (at N = 5 page loads of 25 s, 60 s
  with other work on that CPU, while the server on CPU 0 was busy ~10 % of the time).
  Chromium sets its own processes' priorities (``nice`` is undone under root), so on CPU 0
  it competes with the server, which the students' own laptops would not do. The
  flags are the e2e tests' plus ``--disable-background-timer-throttling``,
  ``--disable-backgrounding-occluded-windows`` and ``--disable-renderer-backgrounding``
  (:data:`BROWSER_ARGS`; playwright passes them too), so every context's page keeps its
  timers and animation frames; waits in the page poll every 50 ms rather than every frame,
  and every playwright call may take ``--timeout`` (its default, 30 s, is shorter than a
  page load on a loaded machine).
* ``protocol``: :class:`loadclient.ProtocolSession`, Streamlit's own websocket messages
  without a browser (a few ms of CPU per rerun): click → boundary is from sending the
  click's event to receiving the canvas that acknowledges it (the refitted figure is in it;
  the browser would then paint it); the whole rerun is reported too. For N > 10.

The server runs ``python -m streamlit run app.py`` with one BLAS thread; ``--pin`` (default)
pins it to CPU 0 with ``taskset`` and the load generator (this process, playwright's
driver) to the other CPUs; Chromium runs on all CPUs (above). One page load before the
sessions warms the server (the lecturer opened the page before class).

Reported per N: click → boundary p50 / p95 / max, page load p50 / p95, slider and scrub
rerun p50, errors (exceptions on a page, reruns that did not finish, refused connections),
lost clicks (a click whose point is not on the canvas at the end), sends per click (the
browser's canvas re-sends; ``--resend-ms`` emulates them in protocol clients), server CPU
seconds and RSS before / after, and isolation: every point a session shows is a preset
point or one of its own clicks, never another session's (checked after every click and at
the end; "unexplained" counts final points that are neither). Traffic goes only to
127.0.0.1; every loop is bounded in count and time.

Run: ``python benchmarks/bench_load.py --n 5,10,20,30`` (``--quick``: N = 3, 2 clicks).
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import asyncio  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_browser import ARM_JS, TO_PAGE_JS  # noqa: E402
from loadclient import (  # noqa: E402
    ProtocolSession,
    cpu_seconds,
    rss_mb,
    start_server,
)

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.test_app_browser import CANVAS_JS  # noqa: E402  (points by class, n, ranges)

#: The slider a student changes on each page: its key and (browser) label.
#: Keys are ``f"{registry key}_{name}"`` of the page's first algorithm; its scrubber is
#: ``f"{registry key}_snap"`` (:func:`snap_key`).
PARAM = {
    "linear_pegasos": ("pegasos_lam", "λ (regularization)"),
    "kernel_pegasos": ("kernel_pegasos_lam", "λ (regularization)"),
    "dual_svm": ("dual_svm_C", "C (penalty"),
    "multiclass": ("multiclass_sgd_eta", "η (fixed step size)"),
}


def snap_key(page: str) -> str:
    """The scrubber's widget key on ``page`` (its first algorithm's)."""
    return PARAM[page][0].rsplit("_", 1)[0] + "_snap"


SCRUB_LABEL = "Scrub through the run"
#: Chromium's flags: the e2e tests' and, explicitly, the ones that keep every context's page
#: running as a foreground tab (playwright passes them too).
BROWSER_ARGS = [
    *CHROMIUM_ARGS,
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
]
#: How often the waits in the page evaluate their condition (ms; not every frame).
POLL_MS = 50
ISOLATION_TOL = 0.004  # of the plane's width: clicks are ≥ ~0.03 apart (an R2 sequence)
PRESET_TOL = 1e-6  # of the plane's width: a preset point, as drawn before any click


@dataclass
class SessionLog:
    """What one session measured."""

    index: int
    load_s: float = math.nan
    click_s: list = field(default_factory=list)  # click -> refitted boundary
    rerun_s: list = field(default_factory=list)  # click -> script_finished
    param_s: list = field(default_factory=list)
    scrub_s: list = field(default_factory=list)
    sends: int = 0
    errors: list = field(default_factory=list)
    clicks: list = field(default_factory=list)  # (x, y) data units
    initial: list = field(default_factory=list)
    final: list = field(default_factory=list)
    width: float = 1.0
    foreign: int = 0  # another session's click seen on this canvas


def click_target(session: int, j: int, per_session: int, plane) -> tuple[float, float]:
    """A distinct spot for click j of a session (an R2 low-discrepancy sequence)."""
    m = session * per_session + j + 1
    u = 0.1 + 0.8 * ((m * 0.7548776662) % 1.0)
    v = 0.1 + 0.8 * ((m * 0.5698402910) % 1.0)
    (x0, x1), (y0, y1) = plane
    return x0 + u * (x1 - x0), y0 + v * (y1 - y0)


def begin(log: SessionLog, initial, plane):
    """Record the points a session starts with and its plane; returns the plane."""
    log.initial = [tuple(p) for p in initial]
    plane = (tuple(plane[0]), tuple(plane[1]))
    log.width = plane[0][1] - plane[0][0]
    return plane


def next_click(log: SessionLog, registry: list, j: int, per_session: int, plane):
    """Where click j of the session goes (recorded in the session and in the registry)."""
    xy = click_target(log.index, j, per_session, plane)
    log.clicks.append(xy)
    registry.append(xy)
    return xy


def shown(state) -> list[tuple[float, float]]:
    """The points of the canvas probe ``CANVAS_JS`` (both classes)."""
    return [tuple(p) for pts in state["pts"].values() for p in pts]


def near(p, clicks, tol) -> bool:
    """Whether point p lies within tol (both coordinates) of one of ``clicks``."""
    return any(abs(c[0] - p[0]) <= tol and abs(c[1] - p[1]) <= tol for c in clicks)


def foreign_points(shown, log: SessionLog, all_clicks) -> int:
    """How many shown points sit on another session's click (and are neither one of the
    preset's points nor on one of the session's own clicks)."""
    tol = ISOLATION_TOL * log.width
    others = [c for c in all_clicks if c not in log.clicks]
    return sum(
        near(p, others, tol)
        and not near(p, log.clicks, tol)
        and not near(p, log.initial, PRESET_TOL * log.width)
        for p in shown
    )


# --- protocol sessions ----------------------------------------------------------------------


async def protocol_lecture(log, port, page, args, rng, registry) -> SessionLog:
    """One student's script over the Streamlit protocol; fills ``log`` as it goes (a session
    cut off by ``--max-seconds`` keeps what it measured)."""
    i = log.index
    await asyncio.sleep(rng.uniform(0, args.stagger))
    s = ProtocolSession(port, page, timeout=args.timeout)
    resend = args.resend_ms / 1000
    try:
        r = await s.open()
        log.load_s = r.seconds
        _check(log, r, "load")
        if s.canvas is None:
            log.errors.append("load: no canvas")
            return log
        plane = begin(log, s.points(), s.plane())
        for j in range(args.clicks):
            await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
            x, y = next_click(log, registry, j, args.clicks, plane)
            seq = int(time.time() * 1000) + j
            r = await s.click(x, y, seq, resend_s=resend)
            log.sends += r.sends
            _check(log, r, f"click {j}")
            log.click_s.append(r.canvas_s if r.canvas_s is not None else math.nan)
            log.rerun_s.append(r.seconds)
            log.final = s.points()
            log.foreign += foreign_points(log.final, log, list(registry))
        key = PARAM[page][0]
        await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
        opts = s.options(key)
        default = list(getattr(s.widgets[key].proto, "default", []) or [0])
        r = await s.set_widget(key, opts[(int(default[0]) + 1 + i % 3) % len(opts)])
        _check(log, r, "param")
        log.param_s.append(r.seconds)
        snap = snap_key(page)
        for step in range(args.scrubs):
            await asyncio.sleep(rng.uniform(0.2, 0.6) * args.think)
            opts = s.options(snap)
            r = await s.set_widget(snap, opts[max(0, len(opts) - 2 - step)])
            _check(log, r, f"scrub {step}")
            log.scrub_s.append(r.seconds)
        log.final = s.points()
    except Exception as exc:  # a refused connection, a missing widget: an error, not a crash
        log.errors.append(f"{type(exc).__name__}: {exc}"[:200])
    finally:
        await s.close()
    return log


def _check(log: SessionLog, r, what: str) -> None:
    if not r.status.startswith("FINISHED"):
        log.errors.append(f"{what}: {r.status}")
    for e in r.exceptions:
        log.errors.append(f"{what}: exception on the page: {e}")


# --- browser sessions -----------------------------------------------------------------------


class _Frames:
    """Counts a page's finished reruns (ForwardMsg ``script_finished``, not the runs cut
    short for a rerun) with their arrival times, and its canvas sends."""

    def __init__(self):
        self.times: list[float] = []  # perf_counter() at each finished rerun's message
        self.sends = 0

    @property
    def finished(self) -> int:
        """How many reruns finished so far."""
        return len(self.times)

    def attach(self, ws):
        """Listen to a page's websocket (playwright's ``page.on("websocket", …)``)."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        early = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN

        def received(payload):
            t = time.perf_counter()
            data = payload if isinstance(payload, bytes) else payload.encode()
            fm = ForwardMsg()
            try:
                fm.ParseFromString(data)
            except Exception:
                return
            if fm.WhichOneof("type") == "script_finished" and fm.script_finished != early:
                self.times.append(t)

        def sent(payload):
            data = payload if isinstance(payload, bytes) else payload.encode()
            if b"_canvas__events" in data:
                self.sends += 1

        ws.on("framereceived", received)
        ws.on("framesent", sent)

    async def next_rerun(self, before: int, timeout: float) -> float:
        """Wait for the first rerun that finishes after ``before`` had finished.

        Parameters
        ----------
        before : int
            :attr:`finished` before the action.
        timeout : float
            Seconds to wait at most.

        Returns
        -------
        float
            The ``perf_counter()`` time its ``script_finished`` arrived.
        """
        deadline = time.perf_counter() + timeout
        while self.finished <= before:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no rerun finished within {timeout:.0f} s")
            await asyncio.sleep(0.02)
        return self.times[before]


async def _key_rerun(frames, slider, key, args) -> float:
    """Press ``key`` on a slider's thumb; seconds until the rerun it starts finishes."""
    thumb = slider.locator('input[type="range"], [role="slider"]').first
    await thumb.scroll_into_view_if_needed()
    await thumb.focus()
    before = frames.finished
    t0 = time.perf_counter()
    await thumb.press(key)
    return await frames.next_rerun(before, args.timeout) - t0


READY_JS = f"""() => {{
  const s = ({CANVAS_JS})();
  return !!s && s.boundary > 0 && s.pending === 0;
}}"""


async def browser_lecture(log, browser, url, page, args, rng, registry) -> SessionLog:
    """One student's script in its own browser context; fills ``log`` as it goes.

    Every playwright call waits at most ``--timeout`` (playwright's default, 30 s, is
    shorter than a page load on a loaded machine)."""
    await asyncio.sleep(rng.uniform(0, args.stagger))
    ms = int(args.timeout * 1000)
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(ms)
    ctx.set_default_navigation_timeout(ms)
    pg = await ctx.new_page()
    frames = _Frames()
    pg.on("websocket", frames.attach)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        t0 = time.perf_counter()
        await pg.goto(url + page, wait_until="commit")
        await pg.wait_for_function(READY_JS, polling=POLL_MS)
        log.load_s = time.perf_counter() - t0
        await frames.next_rerun(0, args.timeout)
        state = await pg.evaluate(CANVAS_JS)
        plane = begin(log, shown(state), (state["xrange"], state["yrange"]))
        for j in range(args.clicks):
            await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
            x, y = next_click(log, registry, j, args.clicks, plane)
            await pg.wait_for_function(READY_JS, polling=POLL_MS)
            n = (await pg.evaluate(CANVAS_JS))["n"]
            px, py = await pg.evaluate(TO_PAGE_JS, [x, y])
            before = frames.finished
            await pg.evaluate(ARM_JS, n)
            t_click = time.perf_counter()
            await pg.mouse.click(px, py)
            await pg.wait_for_function("() => window.__lat.boundary !== null", polling=POLL_MS)
            lat = await pg.evaluate("() => window.__lat")
            log.click_s.append((lat["boundary"] - lat["down"]) / 1000)
            log.rerun_s.append(await frames.next_rerun(before, args.timeout) - t_click)
            log.final = shown(await pg.evaluate(CANVAS_JS))
            log.foreign += foreign_points(log.final, log, list(registry))
        main = pg.locator('[data-testid="stMain"]')
        await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
        slider = main.locator('[data-testid="stSlider"]').filter(has_text=PARAM[page][1]).first
        log.param_s.append(await _key_rerun(frames, slider, "ArrowRight", args))
        scrub = main.locator('[data-testid="stSlider"]').filter(has_text=SCRUB_LABEL).first
        for _ in range(args.scrubs):
            await asyncio.sleep(rng.uniform(0.2, 0.6) * args.think)
            log.scrub_s.append(await _key_rerun(frames, scrub, "ArrowLeft", args))
        await pg.wait_for_function(READY_JS, polling=POLL_MS)
        await pg.wait_for_timeout(300)
        n_exc = await pg.locator('[data-testid="stException"]').count()
        if n_exc:
            log.errors.append(f"{n_exc} exception(s) on the page")
        log.final = shown(await pg.evaluate(CANVAS_JS))
        # the canvas's event channel counts its sends (on the plot's data-sends)
        counted = await pg.evaluate(
            "() => { const d = document.querySelector('.svmlab-canvas-plot');"
            " return d && d.dataset.sends ? Number(d.dataset.sends) : null; }"
        )
        frames.sends = frames.sends if counted is None else int(counted)
    except Exception as exc:
        log.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}"[:200])
    finally:
        log.sends = frames.sends
        log.errors += [f"JS error: {e}"[:200] for e in errors if e != "undefined"]
        await ctx.close()
    return log


def browser_launcher(directory: Path) -> str:
    """Write a launcher that runs Debian's Chromium on all CPUs.

    The load generator is pinned to the CPUs the server does not use, and Chromium would
    inherit that; ``taskset`` execs, so playwright's pipe reaches Chromium itself.

    Parameters
    ----------
    directory : Path
        An existing directory (a temporary one); the launcher is ``directory/chromium``.

    Returns
    -------
    str
        The launcher's path, for playwright's ``executable_path``.
    """
    cpus = ",".join(str(c) for c in range(os.cpu_count() or 1))
    script = directory / "chromium"
    script.write_text(f'#!/bin/sh\nexec taskset -c {cpus} {shlex.quote(CHROMIUM)} "$@"\n')
    script.chmod(0o755)
    return str(script)


# --- one N ------------------------------------------------------------------------------


async def heavy_session(port, page, args, stop: asyncio.Event, out: dict) -> None:
    """One more session that sets T to the page's cap and keeps clicking (each click a new
    heavy fit) until ``stop``: its reruns' seconds go to ``out["heavy_s"]``."""
    s = ProtocolSession(port, page, timeout=args.timeout)
    try:
        await s.open()
        key = PARAM[page][0].rsplit("_", 1)[0] + "_T"
        r = await s.set_widget(key, s.options(key)[-1])
        out["heavy_T"] = s.options(key)[-1]
        out["heavy_s"].append(r.seconds)
        plane = (tuple(s.plane()[0]), tuple(s.plane()[1]))
        j = 0
        while not stop.is_set() and j < 200:
            x, y = click_target(10_000, j, 1, plane)
            r = await s.click(x, y, int(time.time() * 1000) + j)
            out["heavy_s"].append(r.seconds)
            j += 1
    except Exception as exc:
        out["heavy_errors"].append(f"{type(exc).__name__}: {exc}"[:200])
    finally:
        await s.close()


async def run_sessions(kind, n, port, page, args, extra=None):
    rng = random.Random(args.seed * 1000 + n)
    registry: list = []
    rngs = [random.Random(rng.random()) for _ in range(n)]
    logs = [SessionLog(i) for i in range(n)]
    if kind == "protocol":
        jobs = [protocol_lecture(logs[i], port, page, args, rngs[i], registry) for i in range(n)]
        if not args.heavy:
            return await _bounded(jobs, logs, args)
        stop = asyncio.Event()
        heavy = asyncio.create_task(heavy_session(port, page, args, stop, extra))
        await asyncio.sleep(2.0)  # the heavy session is busy before the class starts
        logs = await _bounded(jobs, logs, args)
        stop.set()
        await asyncio.wait([heavy], timeout=args.timeout)
        return logs
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory(prefix="svmlab-bench-") as tmp:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path=browser_launcher(Path(tmp)),
                headless=True,
                args=BROWSER_ARGS,
                timeout=args.timeout * 1000,
            )
            url = f"http://127.0.0.1:{port}/"
            jobs = [
                browser_lecture(logs[i], browser, url, page, args, rngs[i], registry)
                for i in range(n)
            ]
            try:
                logs = await _bounded(jobs, logs, args)
            finally:
                await browser.close()
    return logs


async def _bounded(jobs, logs, args):
    """Run the sessions for at most ``--max-seconds``; a session cut off keeps its log."""
    tasks = [asyncio.create_task(j) for j in jobs]
    done, pending = await asyncio.wait(tasks, timeout=args.max_seconds)
    for t in pending:
        t.cancel()
    if pending:
        await asyncio.wait(pending, timeout=30)  # their finally blocks close the sessions
    for log, t in zip(logs, tasks, strict=True):
        if t not in done:
            log.errors.append(f"did not finish within {args.max_seconds} s")
        elif t.exception() is not None:
            log.errors.append(f"{type(t.exception()).__name__}: {t.exception()}"[:200])
    return logs


def lost_clicks(log: SessionLog) -> int:
    """Own clicks whose point is not on the canvas at the end."""
    return sum(not near(c, log.final, ISOLATION_TOL * log.width) for c in log.clicks)


def leaks(log: SessionLog, registry) -> tuple[int, int]:
    """(points seen on another session's click, final points that are neither a preset
    point nor an own click). Isolation holds when both are 0."""
    tol = ISOLATION_TOL * log.width
    extra = [p for p in log.final if not near(p, log.initial, PRESET_TOL * log.width)]
    unexplained = sum(not near(p, log.clicks, tol) for p in extra)
    foreign = log.foreign + foreign_points(log.final, log, registry)
    return foreign, unexplained


def pct(values, q):
    v = sorted(x for x in values if not math.isnan(x))
    if not v:
        return math.nan
    return v[min(len(v) - 1, max(0, math.ceil(q / 100 * len(v)) - 1))]


def one_n(n, kind, page, args) -> dict:
    server = start_server(cpus="0" if args.pin else None, flags=args.flag)
    pid = server.proc.pid
    try:
        warm = ProtocolSession(server.port, page, timeout=args.timeout)

        async def warm_up():
            try:
                return await warm.open()
            finally:
                await warm.close()

        asyncio.run(warm_up())
        time.sleep(1.0)
        rss0, cpu0, t0 = rss_mb(pid), cpu_seconds(pid), time.perf_counter()
        extra = {"heavy_s": [], "heavy_errors": [], "heavy_T": None}
        logs = asyncio.run(run_sessions(kind, n, server.port, page, args, extra))
        wall = time.perf_counter() - t0
        cpu = cpu_seconds(pid) - cpu0
        time.sleep(2.0)
        rss1 = rss_mb(pid)
    finally:
        server.stop()
    registry = [c for log in logs for c in log.clicks]
    clicks = [x for log in logs for x in log.click_s]
    n_clicks = sum(len(log.clicks) for log in logs)
    return {
        "N": n,
        "kind": kind,
        "click_p50": pct(clicks, 50),
        "click_p95": pct(clicks, 95),
        "click_max": max((c for c in clicks if not math.isnan(c)), default=math.nan),
        "rerun_p50": pct([x for log in logs for x in log.rerun_s], 50),
        "load_p50": pct([log.load_s for log in logs], 50),
        "load_p95": pct([log.load_s for log in logs], 95),
        "param_p50": pct([x for log in logs for x in log.param_s], 50),
        "scrub_p50": pct([x for log in logs for x in log.scrub_s], 50),
        "errors": sum(len(log.errors) for log in logs),
        "error_samples": [e for log in logs for e in log.errors][:5],
        "lost": sum(lost_clicks(log) for log in logs),
        "clicks": n_clicks,
        "sends_per_click": sum(log.sends for log in logs) / max(1, n_clicks),
        "rss0": rss0,
        "rss1": rss1,
        "cpu": cpu,
        "wall": wall,
        "heavy": extra,
        "foreign": sum(leaks(log, registry)[0] for log in logs),
        "unexplained": sum(leaks(log, registry)[1] for log in logs),
    }


async def come_and_go(port, page, args, i: int) -> int:
    """One short session: open, two clicks, close; the errors it met."""
    s = ProtocolSession(port, page, timeout=args.timeout)
    errors = 0
    try:
        r = await s.open()
        errors += not r.status.startswith("FINISHED")
        plane = (tuple(s.plane()[0]), tuple(s.plane()[1]))
        for j in range(2):
            x, y = click_target(i, j, 2, plane)
            r = await s.click(x, y, int(time.time() * 1000) + j)
            errors += not r.status.startswith("FINISHED")
    except Exception:
        errors += 1
    finally:
        await s.close()
    return errors


def churn(args, page) -> None:
    """RSS of a fresh server, after ``--churn`` sessions came and went (10 at a time), and
    after their disconnected-session TTL (``--churn-ttl``) passed."""
    ttl = args.churn_ttl
    flags = [*args.flag, f"server.disconnectedSessionTTL={ttl}"]
    server = start_server(cpus="0" if args.pin else None, flags=flags)
    pid = server.proc.pid
    try:
        errors = asyncio.run(come_and_go(server.port, page, args, 0))
        time.sleep(2.0)
        fresh = rss_mb(pid)
        peak = fresh
        for start in range(0, args.churn, 10):

            async def batch(start=start):
                ids = range(start, min(start + 10, args.churn))
                return await asyncio.gather(*(come_and_go(server.port, page, args, i) for i in ids))

            errors += sum(asyncio.run(batch()))
            peak = max(peak, rss_mb(pid))
        right_after = rss_mb(pid)
        time.sleep(ttl + 5.0)
        errors += asyncio.run(come_and_go(server.port, page, args, args.churn + 1))  # evicts
        time.sleep(2.0)
        after = rss_mb(pid)
    finally:
        server.stop()
    print(
        f"churn: {args.churn} sessions came and went on {page} (open, 2 clicks, close; 10 at a "
        f"time; disconnectedSessionTTL = {ttl} s): RSS fresh {fresh:.0f} MB, peak {peak:.0f}, "
        f"right after {right_after:.0f}, after the TTL {after:.0f} MB "
        f"(+{after - fresh:.0f} MB; target ≤ +300); errors {errors}"
    )


def row_line(r) -> str:
    """One N's row of the table."""
    return (
        f"| {r['N']:>2} | {r['kind']:<8} | {r['click_p50']:>10.2f} / {r['click_p95']:5.2f} / "
        f"{r['click_max']:6.2f}       | {r['rerun_p50']:9.2f} | {r['load_p50']:8.2f} / "
        f"{r['load_p95']:5.2f}    | {r['param_p50']:6.2f} | {r['scrub_p50']:5.2f} | "
        f"{r['errors']:>6} | {r['lost']:>2}/{r['clicks']:<3}| {r['sends_per_click']:11.2f} | "
        f"{r['cpu']:5.0f} ({100 * r['cpu'] / r['wall']:3.0f}%) | "
        f"{r['rss0']:8.0f} → {r['rss1']:<8.0f}   | "
        f"{_isolation(r):^8} |"
    )


def _isolation(r) -> str:
    if not r["foreign"] and not r["unexplained"]:
        return "yes"
    return f"NO: {r['foreign']} foreign, {r['unexplained']} unexplained points"


def print_table(rows, args, page):
    cpus = os.sched_getaffinity(0)
    print(
        f"SVM Lab under load — page {page}, lecture script per session: open, "
        f"{args.clicks} clicks, 1 slider change, {args.scrubs} scrub steps; think time "
        f"~{args.think} s, start staggered over {args.stagger} s"
    )
    print(
        "server: python -m streamlit run app.py (1 BLAS thread)"
        + (" pinned to CPU 0 (taskset -c 0)" if args.pin else " unpinned")
        + f"; load generator on CPUs {sorted(cpus)}; machine: {os.cpu_count()} cores shared "
        "with other work, so the numbers are noisy"
    )
    if any(r["kind"] == "browser" for r in rows):
        print(
            f"browser clients: one headless {CHROMIUM} (a context per session) on CPUs "
            f"{list(range(os.cpu_count() or 1))}, flags "
            + " ".join(BROWSER_ARGS[len(CHROMIUM_ARGS) :])
            + " (and tests/e2e's)"
        )
    if args.flag:
        print("server flags: " + " ".join(f"--{f}" for f in args.flag))
    if args.resend_ms:
        print(f"protocol clients re-send an unacknowledged click after {args.resend_ms} ms")
    head = (
        "|  N | clients  | click→boundary p50 / p95 / max (s) | rerun p50 | load p50 / p95 (s) "
        "| slider | scrub | errors | lost | sends/click | CPU-s (share) | RSS before→after (MB) "
        "| isolated |"
    )
    print(head)
    print("|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|")
    for r in rows:
        print(row_line(r))
    for r in rows:
        if r["error_samples"]:
            print(f"N = {r['N']}: first errors: {r['error_samples']}")
        h = r["heavy"]
        if h["heavy_s"] or h["heavy_errors"]:
            print(
                f"N = {r['N']}: beside them one session clicked with T = {h['heavy_T']}: "
                f"{len(h['heavy_s'])} heavy reruns, p50 {pct(h['heavy_s'], 50):.2f} s, "
                f"errors {h['heavy_errors'][:2]}; worker process for fits above "
                f"{os.environ.get('SVMLAB_HEAVY_S', '1.0')} s (SVMLAB_HEAVY_S) on CPUs "
                f"{os.environ.get('SVMLAB_WORKER_CPUS') or 'as the server'}"
            )
    print(
        "click→boundary: browser = pointerdown → refitted figure painted; protocol = event "
        "sent → the canvas acknowledging it received. rerun = click → script_finished. "
        "CPU-s: the server's CPU seconds during the sessions (share: of one core over the "
        "wall time; far below 100 % means the server waited for a core, not for work)."
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="5,10,20,30", help="comma-separated session counts")
    ap.add_argument(
        "--clients",
        choices=("auto", "browser", "protocol"),
        default="auto",
        help="auto: browser for N ≤ --browser-max, protocol above",
    )
    ap.add_argument("--browser-max", type=int, default=10)
    ap.add_argument("--page", choices=sorted(PARAM), default="kernel_pegasos")
    ap.add_argument("--clicks", type=int, default=5)
    ap.add_argument("--scrubs", type=int, default=3)
    ap.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    ap.add_argument("--stagger", type=float, default=5.0, help="sessions start within (s)")
    ap.add_argument("--timeout", type=float, default=120.0, help="per rerun (s)")
    ap.add_argument("--max-seconds", type=float, default=900.0, help="per N (s)")
    ap.add_argument("--resend-ms", type=int, default=0, help="protocol: emulate re-sends")
    ap.add_argument("--no-pin", dest="pin", action="store_false")
    ap.add_argument(
        "--flag",
        action="append",
        default=[],
        help="extra streamlit flag, e.g. runner.fastReruns=false",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--heavy", action="store_true", help="protocol: one more session clicks with T at its cap"
    )
    ap.add_argument("--churn", type=int, default=0, help="then: K sessions come and go (RSS)")
    ap.add_argument("--churn-ttl", type=int, default=20, help="disconnectedSessionTTL (s)")
    ap.add_argument("--quick", action="store_true", help="N = 3, 2 clicks, 1 scrub")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.clicks, args.scrubs, args.stagger = "3", 2, 1, 1.0
    ns = [int(v) for v in args.n.split(",") if v.strip()]
    if not all(1 <= n <= 200 for n in ns) or not 1 <= args.clicks <= 50:
        ap.error("N must be in 1..200 and --clicks in 1..50")
    if args.pin and (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, set(range(1, os.cpu_count())))
    else:
        args.pin = False
    rows = []
    for n in ns:
        kind = args.clients
        if kind == "auto":
            kind = "browser" if n <= args.browser_max else "protocol"
        if kind == "browser" and not os.path.exists(CHROMIUM):
            print(f"{CHROMIUM} is missing: N = {n} runs protocol clients")
            kind = "protocol"
        rows.append(one_n(n, kind, args.page, args))
        print(f"N = {n} ({kind}) done in {rows[-1]['wall']:.0f} s:", row_line(rows[-1]), flush=True)
    if rows:
        print_table(rows, args, args.page)
    if args.churn:
        churn(args, args.page)
    bad = [r for r in rows if r["errors"] or r["lost"] or r["foreign"] or r["unexplained"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
