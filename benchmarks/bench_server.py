"""The server's work per user action, per page ("measure first").

Starts the real app (``python -m streamlit run app.py --server.port <free>
--server.headless true``, one BLAS thread, pinned to CPU 0 with ``taskset`` unless
``--no-pin``) and drives it with Debian's headless Chromium (playwright, on the other
CPUs). For each page — home, linear_pegasos, kernel_pegasos, dual_svm, multiclass, with the
default preset (two moons, n = 100 ≤ 200), it measures (loads with the page's default T:
10⁴ on kernel Pegasos, 10³ on linear Pegasos, 3·10³ on multiclass; the session then sets
T = 10⁴ before its clicks, scrubs and parameter changes):

* load (cold): the first load of the page on this server (its runs are trained);
* load (warm): a new session (fresh browser context) opening the same page;
* click: a point added on the canvas → refit → redraw (each click is a new data set);
* scrub: one step back on the plane (keyboard ←: the browser draws the frame at once; the
  snapshot it stopped at then goes to the server once, which redraws it in the report);
* param: one step of the page's main slider (λ; C on the dual page; η on multiclass).

For each action: the server's CPU seconds (utime + stime of the server process from
``/proc/<pid>/stat``, before and after), the bytes it sent over the websocket (the sizes of
playwright's ``framereceived`` frames; split into the canvas component, Plotly charts and
the rest by decoding each ``ForwardMsg``), and the wall time until ``script_finished``.
Medians over the repetitions.

Split by phase: with ``py-spy`` installed (``pip install py-spy``), the server is sampled
during each action (``py-spy record --nonblocking``) and every sample is put in the first
phase whose code is on its stack: serialization (``plotly.io`` JSON, ``json``, protobuf),
cache hashing (``st.cache_data`` keys), figures (``svmlab.plot.figures`` / ``playback`` /
``runners.plane_at`` and the grids, plotly's figure objects), run (``svmcore`` training,
scikit-learn), elements (Streamlit's element code: widgets, Arrow tables, deltas),
script (the rest of the page script), gc (Streamlit's ``gc.collect(2)`` after each rerun,
``runner.postScriptGC``),
server (Starlette / uvicorn / asyncio / websocket sends), other. The shares are of the
samples of that action (samples of waiting threads left out). Without py-spy the phase
columns are empty.

Targets (work per action): CPU ≤ 0.1 s per click (the run's playback frames included; it
was 0.15 s) and ≤ 0.5 s per page load (n ≤ 200, T = 10⁴).
Run: ``python benchmarks/bench_server.py`` (``--quick``: one repetition, fewer pages).
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import ARM_JS, CANVAS_JS, PARAM, TO_PAGE_JS  # noqa: E402
from loadclient import cpu_seconds, start_server  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PAGES = ("home", "linear_pegasos", "kernel_pegasos", "dual_svm", "multiclass")
TARGET_CPU = {"click": 0.10, "load (warm)": 0.5, "load (cold)": 0.5}
TIMEOUT_S = 120.0
#: Phases, first match wins: (name, substrings of a py-spy frame "function (file:line)").
PHASES = (
    ("serialize", ("plotly/io/_json", "json/encoder", "json/__init__", "/proto/", "orjson")),
    ("hashing", ("caching/hashing.py",)),
    (
        "figures",
        (
            "svmlab/plot/figures.py",
            "svmlab/plot/playback.py",
            "plane_at (",
            "run_frames (",
            "fine_values (",
            "mc_values (",
            "/plotly/",
        ),
    ),
    # py-spy names files relative to sys.path ("fn (svmcore/sgd/x.py:1)"): no leading "/"
    ("run", ("(svmcore/", "/svmcore/", "(sklearn/", "/sklearn/", "_run_uncached (", "fitpool")),
    (
        "elements",
        ("streamlit/elements", "dataframe_util", "pyarrow", "narwhals", "pandas", "/delta_gen"),
    ),
    ("script", ("scriptrunner", "/pages/", "/svmlab/", "exec_func")),
    ("server", ("starlette", "uvicorn", "asyncio", "websocket", "streamlit/web", "anyio")),
)
PHASE_NAMES = (*(p for p, _ in PHASES), "gc", "other")
#: Innermost frames of waiting threads (py-spy --nonblocking counts some of them as active):
#: the file watcher's sleep, thread pools and the event loop waiting. Left out of the shares.
IDLE = (
    "polling_path_watcher.py:90",
    "Condition.wait (",
    "concurrent/futures/thread.py:81",
    "inotify_c.py",
    "selectors.py",
)
SHOW: list = [None]  # the phase whose frames --show lists
SHOWN: Counter = Counter()  # the innermost frames of one phase, over the run (--show)


def phase_of(stack: str) -> str:
    if stack.rsplit(";", 1)[-1].startswith("ScriptRunner._on_script_finished ("):
        return "gc"  # runner.postScriptGC: gc.collect(2) after every rerun (C, no frame)
    for name, needles in PHASES:
        if any(n in stack for n in needles):
            return name
    return "other"


class Profiler:
    """``py-spy record`` on the server around one action (None if py-spy is missing)."""

    def __init__(self, pid: int, rate: int, show: str | None = None):
        self.pid, self.rate, self.show = pid, rate, show
        self.exe = shutil.which("py-spy")
        self.proc = None
        self.out = None

    def __enter__(self):
        if self.exe:
            fd, self.out = tempfile.mkstemp(prefix="svmlab-spy-", suffix=".txt")
            os.close(fd)
            cmd = [self.exe, "record", "--nonblocking", "-r", str(self.rate), "-f", "raw"]
            cmd += ["-o", self.out, "-p", str(self.pid), "-d", str(int(TIMEOUT_S * 3))]
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.3)  # attached
        return self

    def __exit__(self, *exc):
        self.samples = Counter()
        self.shown = Counter()  # the innermost frames of the samples of phase ``show``
        if self.proc is None:
            return False
        self.proc.send_signal(signal.SIGINT)  # py-spy writes its samples on Ctrl-C
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for line in Path(self.out).read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if count.isdigit() and not any(i in stack.rsplit(";", 1)[-1] for i in IDLE):
                phase = phase_of(stack)
                self.samples[phase] += int(count)
                if phase == self.show:
                    self.shown[stack.rsplit(";", 1)[-1]] += int(count)
        os.unlink(self.out)
        return False


class Frames:
    """Websocket bytes by kind, and finished reruns, of one browser page."""

    def __init__(self):
        self.finished = 0
        self.nbytes = Counter()

    def attach(self, ws):
        ws.on("framereceived", self.received)

    def received(self, payload):
        data = payload if isinstance(payload, bytes) else payload.encode()
        fm = ForwardMsg()
        try:
            fm.ParseFromString(data)
        except Exception:
            self.nbytes["other"] += len(data)
            return
        kind = "other"
        if fm.WhichOneof("type") == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element.WhichOneof("type")
            kind = {"bidi_component": "canvas", "plotly_chart": "plotly"}.get(el, "other")
        self.nbytes[kind] += len(data)
        early = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
        if fm.WhichOneof("type") == "script_finished" and fm.script_finished != early:
            self.finished += 1


def wait_rerun(pg, frames: Frames, before: int) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while frames.finished <= before:
        if time.monotonic() > deadline:
            raise TimeoutError("no rerun finished")
        pg.wait_for_timeout(20)
    pg.wait_for_timeout(150)  # the last frames of the rerun


def measure(server, pg, frames, rate, action, *args):
    """Run ``action(*args)`` (it returns when its rerun finished): CPU s, bytes, wall, phases."""
    pid = server.proc.pid
    pg.wait_for_timeout(300)
    frames.nbytes.clear()
    with Profiler(pid, rate, SHOW[0]) as prof:
        c0, t0 = cpu_seconds(pid), time.perf_counter()
        action(*args)
        wall = time.perf_counter() - t0
        cpu = cpu_seconds(pid) - c0
    SHOWN.update(prof.shown)
    return {"cpu": cpu, "wall": wall, "bytes": Counter(frames.nbytes), "phases": prof.samples}


def slider_input(pg, label: str):
    return (
        pg.locator('[data-testid="stSlider"]')
        .filter(has_text=label)
        .first.locator('input[type="range"]')
        .first
    )


def press(pg, frames, label: str, key: str) -> None:
    thumb = slider_input(pg, label)
    thumb.scroll_into_view_if_needed()
    thumb.focus()
    before = frames.finished
    thumb.press(key)
    wait_rerun(pg, frames, before)


def step_key(pg, frames, key: str) -> None:
    """A playback key on the page (no field focused): the canvas steps, then its snapshot
    reaches the server (one rerun)."""
    pg.evaluate("() => document.activeElement && document.activeElement.blur()")
    before = frames.finished
    pg.keyboard.press(key)
    wait_rerun(pg, frames, before)


def ensure_T(pg, frames, text: str = "10,000") -> None:
    """Move the page's T slider (if any) to ``text`` (setup, not measured)."""
    thumb = slider_input(pg, "T (iterations")
    if not thumb.count():
        return
    order = ["10", "30", "100", "300", "1,000", "3,000", "10,000", "30,000", "100,000"]
    for _ in range(len(order)):
        now = thumb.get_attribute("aria-valuetext")
        if now == text or now not in order:
            return
        press(pg, frames, "T (iterations", "ArrowRight" if order.index(now) < 6 else "ArrowLeft")


def click_once(pg, frames, j: int) -> None:
    state = pg.evaluate(CANVAS_JS)
    (x0, x1), (y0, y1) = state["xrange"], state["yrange"]
    u, v = 0.15 + 0.7 * ((j * 0.618034) % 1), 0.15 + 0.7 * ((j * 0.381966 + 0.3) % 1)
    px, py = pg.evaluate(TO_PAGE_JS, [x0 + u * (x1 - x0), y0 + v * (y1 - y0)])
    before = frames.finished
    pg.evaluate(ARM_JS, state["n"])
    pg.mouse.click(px, py)
    pg.wait_for_function("() => window.__lat.boundary !== null", timeout=TIMEOUT_S * 1000)
    wait_rerun(pg, frames, before)


def open_page(pg, frames, url: str) -> None:
    before = frames.finished
    pg.goto(url)
    wait_rerun(pg, frames, before)
    pg.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')""",
        timeout=TIMEOUT_S * 1000,
    )


def bench_page(browser, server, page, reps, rate):
    rows = []
    url = server.url + ("" if page == "home" else page)

    def fresh():
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        frames = Frames()
        pg.on("websocket", frames.attach)
        return ctx, pg, frames

    ctx, pg, frames = fresh()
    cold = measure(server, pg, frames, rate, open_page, pg, frames, url)
    rows.append(("load (cold)", [cold]))
    ctx.close()
    warm = []
    for _ in range(reps):
        ctx, pg, frames = fresh()
        warm.append(measure(server, pg, frames, rate, open_page, pg, frames, url))
        if len(warm) < reps:
            ctx.close()
    rows.append(("load (warm)", warm))
    if page == "home":
        ctx.close()
        return rows
    pg.wait_for_function(f"() => !!({CANVAS_JS})()", timeout=TIMEOUT_S * 1000)
    ensure_T(pg, frames)
    clicks = [measure(server, pg, frames, rate, click_once, pg, frames, j) for j in range(reps)]
    rows.append(("click", clicks))
    scrubs = [
        measure(server, pg, frames, rate, step_key, pg, frames, "ArrowLeft") for _ in range(reps)
    ]
    rows.append(("scrub", scrubs))
    label = PARAM[page][1]
    params = [
        measure(server, pg, frames, rate, press, pg, frames, label, "ArrowRight")
        for _ in range(reps)
    ]
    rows.append(("param", params))
    ctx.close()
    return rows


def summarize(samples):
    med = statistics.median
    b = Counter()
    for s in samples:
        b.update(s["bytes"])
    k = len(samples)
    phases = Counter()
    for s in samples:
        phases.update(s["phases"])
    total = sum(phases.values())
    return {
        "cpu": med(s["cpu"] for s in samples),
        "wall": med(s["wall"] for s in samples),
        "bytes": med(sum(s["bytes"].values()) for s in samples),
        "canvas": b["canvas"] / k,
        "plotly": b["plotly"] / k,
        "other": b["other"] / k,
        "phases": {p: phases[p] / total for p in PHASE_NAMES} if total else None,
    }


def print_table(results, pinned: bool, profiled: bool):
    print(
        "SVM Lab server work per action — preset two moons (n = 100), T = 10⁴ where the page "
        "has a T; medians; server pinned to CPU 0"
        if pinned
        else "SVM Lab server work per action (server unpinned); medians"
    )
    ph = " | ".join(f"{p[:6]:>6}" for p in PHASE_NAMES)
    head = (
        f"| {'page':<15} | {'action':<11} | CPU s  | target | wall s | sent KB | canvas KB "
        f"| plotly KB | other KB | {ph} |"
    )
    print(head)
    print("|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|")
    for page, rows in results:
        for action, samples in rows:
            s = summarize(samples)
            target = TARGET_CPU.get(action)
            tgt = f"{target:6.2f}" if target else "   -  "
            if s["phases"]:
                phases = " | ".join(f"{100 * s['phases'][p]:5.0f}%" for p in PHASE_NAMES)
            else:
                phases = " | ".join(f"{'-':>6}" for _ in PHASE_NAMES)
            print(
                f"| {page:<15} | {action:<11} | {s['cpu']:6.2f} | {tgt} | {s['wall']:6.2f} | "
                f"{s['bytes'] / 1e3:7.0f} | {s['canvas'] / 1e3:9.0f} | {s['plotly'] / 1e3:9.0f} "
                f"| {s['other'] / 1e3:8.0f} | {phases} |"
            )
    if not profiled:
        print("phases: py-spy not found (pip install py-spy) — no split by phase")
    else:
        print(
            "phases: share of py-spy samples of the server in the action (gc, then first match: "
            + ", ".join(p for p, _ in PHASES)
            + ", other)"
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="one repetition, two pages")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--rate", type=int, default=100, help="py-spy samples per second")
    ap.add_argument("--no-pin", dest="pin", action="store_false")
    ap.add_argument(
        "--flag",
        action="append",
        default=[],
        help="extra streamlit flag, e.g. runner.fastReruns=false",
    )
    ap.add_argument("--show", choices=PHASE_NAMES, help="list the top frames of a phase")
    args = ap.parse_args(argv)
    SHOW[0] = args.show
    pages = [p for p in args.pages.split(",") if p]
    if args.quick:
        args.reps, pages = 1, [p for p in pages if p in ("home", "kernel_pegasos")]
    if not set(pages) <= set(PAGES) or not 1 <= args.reps <= 20:
        ap.error(f"pages must be among {PAGES}; --reps in 1..20")
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} is missing: nothing to measure")
        return 2
    pinned = args.pin and (os.cpu_count() or 1) >= 2
    if pinned:
        os.sched_setaffinity(0, set(range(1, os.cpu_count())))
    from playwright.sync_api import sync_playwright

    server = start_server(cpus="0" if pinned else None, flags=args.flag)
    results = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for page in pages:
                results.append((page, bench_page(browser, server, page, args.reps, args.rate)))
                print(f"{page} done", flush=True)
            browser.close()
    finally:
        server.stop()
    if args.flag:
        print("server flags: " + " ".join(f"--{f}" for f in args.flag))
    print_table(results, pinned, shutil.which("py-spy") is not None)
    for frame, count in SHOWN.most_common(20):
        print(f"  {args.show}: {count:6d}  {frame}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
