"""Export times and sizes: PNG/SVG/PDF per preset (cold and warm) and 50-frame GIF/MP4,
with the CPU seconds and memory of each export.

Run: ``python benchmarks/bench_export.py [--quick]``. Needs Chromium (``/usr/bin/chromium``).

* cold: the first export after :func:`svmlab.export.close_renderer` (starts Chromium and
  loads plotly.js), once per format;
* warm: the median of repeated exports with the browser kept running (target ≤ 1 s);
  PNG at scale 3, the figure styled by each preset (the styling time is included);
* the animation of a kernel Pegasos run (moons, 50 frames; ``--quick``: 12) exported as
  HTML per preset, and as GIF and MP4 at slide size (1280 × 720): wall time (target
  ≤ 20 s) and size (GIF ≤ 5 MB); every export goes through ``export.figure_bytes``, the
  call of the pages' Export section and of ``python -m svmlab render``;
* ``--render``: ``python -m svmlab render`` of a share link to each of the six formats,
  end to end (a fresh process: the page run headlessly, a cold Chromium);
* the bounded export (always): a 50-frame GIF and MP4 at slide size of a 500-point
  kernel Pegasos run, each export's CPU seconds (this process and its children: Chromium,
  ffmpeg), the peak resident memory of the process tree during it, and the tree's memory
  before and after (target: ≤ 5 CPU-s for the GIF, memory back within 100 MB), then a
  PNG through the warm Chromium and the tree's memory once the idle browser has stopped
  (``svmlab.export.render.IDLE_CLOSE_S``, set to 2 s here).

Targets are marked in the last column: ✓ met, ✗ missed (warm static ≤ 1 s, animation
≤ 20 s, GIF ≤ 5 MB; bounded: ≤ 5 CPU-s, memory back within 100 MB).

The machine is shared: the 1-minute load average is printed with the table, and the
CPU seconds of every export (Python + Chromium), which a busy machine inflates far less.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from svmlab import export
from svmlab.export.demo import demo_figures

ROOT = Path(__file__).resolve().parents[1]
STATIC = ("png", "svg", "pdf")
#: Targets: warm static export (s), 50-frame animation (s), GIF size (bytes).
WARM_S, ANIMATION_S, GIF_BYTES = 1.0, 20.0, 5_000_000


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and its live descendants (Chromium)."""
    tick, children = os.sysconf("SC_CLK_TCK"), {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append((int(pid), fields))
    with open("/proc/self/stat") as f:
        own = f.read().rsplit(")", 1)[1].split()
    total, stack = (int(own[11]) + int(own[12])) / tick, [os.getpid()]
    while stack:
        for pid, fields in children.get(stack.pop(), []):
            total += (int(fields[11]) + int(fields[12])) / tick
            stack.append(pid)
    return total


def tree_rss_mb() -> float:
    """Resident memory (MB) of this process and all its descendants (Chromium, ffmpeg)."""
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                parents[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, stack = {os.getpid()}, [os.getpid()]
    while stack:
        p = stack.pop()
        for child, parent in parents.items():
            if parent == p and child not in tree:
                tree.add(child)
                stack.append(child)
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024.0


class PeakRSS:
    """Samples :func:`tree_rss_mb` every 50 ms in a thread; ``peak`` after the block."""

    def __enter__(self):
        import threading

        self.peak, self._stop = tree_rss_mb(), threading.Event()

        def sample():
            while not self._stop.wait(0.05):
                self.peak = max(self.peak, tree_rss_mb())

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, tree_rss_mb())


def bench_bounded(n_points: int = 500, n_frames: int = 50) -> list[tuple]:
    """(what, CPU s, peak MB, before MB, after MB, bytes) of each bounded export."""
    import gc

    from svmlab.export import render

    fig = demo_figures(n=n_points, n_frames=n_frames)["animation"]
    export.close_renderer()
    gc.collect()
    rows = []
    for fmt in ("gif", "mp4"):
        before = tree_rss_mb()
        with PeakRSS() as mem:
            _, data = timed(lambda f=fmt: export.figure_bytes(fig, f, preset="slides", fps=5))
        gc.collect()
        rows.append(
            (f"{fmt} {n_frames} fr.", timed.cpu, mem.peak, before, tree_rss_mb(), len(data))
        )
    render.IDLE_CLOSE_S = 2.0
    before = tree_rss_mb()
    with PeakRSS() as mem:
        _, data = timed(lambda: export.figure_bytes(fig, "png", preset="slides"))
    deadline = time.monotonic() + 30
    running = getattr(render, "renderer_running", lambda: False)  # (older checkouts: none)
    while running() and time.monotonic() < deadline:
        time.sleep(0.2)
    gc.collect()
    rows.append(("png, idle browser", timed.cpu, mem.peak, before, tree_rss_mb(), len(data)))
    return rows


def timed(fn):
    """(wall seconds, output) of ``fn()``; the CPU seconds go to ``timed.cpu``."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    out = fn()
    timed.cpu = cpu_seconds() - c0
    return time.perf_counter() - t0, out


def bench_static(figs: dict, names: list[str], repeat: int) -> list[tuple]:
    rows = []
    for fmt in STATIC:
        export.close_renderer()
        dt, data = timed(lambda f=fmt: export.figure_bytes(figs["plane"], f))
        rows.append(("plane", "screen", fmt, "cold", dt, timed.cpu, len(data)))
    for name in names:
        for preset in export.PRESETS:
            for fmt in STATIC:
                times, cpus = [], []
                for _ in range(repeat):
                    dt, data = timed(
                        lambda f=fmt, p=preset, fig=figs[name]: export.figure_bytes(
                            fig, f, preset=p
                        )
                    )
                    times.append(dt)
                    cpus.append(timed.cpu)
                wall, cpu = statistics.median(times), statistics.median(cpus)
                rows.append((name, preset, fmt, "warm", wall, cpu, len(data)))
    return rows


def bench_animation(fig, n_frames: int) -> list[tuple]:
    name = f"animation ({n_frames} fr.)"
    rows = []
    for preset in export.PRESETS:
        dt, data = timed(lambda p=preset: export.figure_bytes(fig, "html", preset=p))
        rows.append((name, preset, "html", "warm", dt, timed.cpu, len(data)))
    for fmt in ("gif", "mp4"):
        dt, data = timed(lambda f=fmt: export.figure_bytes(fig, f, preset="slides", fps=5))
        rows.append((name, "slides", fmt, "warm", dt, timed.cpu, len(data)))
    return rows


def bench_render() -> list[tuple]:
    """``python -m svmlab render`` of a Kernel Pegasos link to each format (fresh process)."""
    from svmcore import datasets
    from svmlab.state.pointset import PointSet
    from svmlab.state.urlstate import encode_points

    X, y = datasets.moons(n=100, random_state=0)
    plane = (-2.0, 3.0, -1.5, 2.0)
    pts = encode_points(PointSet.from_labels(X, y), plane)
    link = f"http://localhost:8501/kernel_pegasos?v=1&plane={','.join(map(str, plane))}&pts={pts}"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in export.MIME:
            out = Path(tmp) / f"figure.{fmt}"
            cmd = [sys.executable, "-m", "svmlab", "render", link, "-o", str(out), "--style"]
            t0 = time.perf_counter()
            subprocess.run([*cmd, "slides"], cwd=ROOT, check=True, capture_output=True)
            dt = time.perf_counter() - t0
            rows.append(
                ("render command", "slides", fmt, "cold", dt, float("nan"), out.stat().st_size)
            )
    return rows


def verdict(name: str, fmt: str, state: str, dt: float, size: int) -> str:
    """✓ / ✗ against the export targets, or "" where there is none."""
    if name.startswith("animation") and fmt in ("gif", "mp4"):
        ok = dt <= ANIMATION_S and (fmt != "gif" or size <= GIF_BYTES)
        return "✓" if ok else "✗"
    if state == "warm" and fmt in STATIC:
        return "✓" if dt <= WARM_S else "✗"
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, 12 frames")
    parser.add_argument("--render", action="store_true", help="also time the render command")
    parser.add_argument(
        "--bounded-only", action="store_true", help="only the bounded export's CPU and memory"
    )
    args = parser.parse_args()
    bounded = bench_bounded()
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"{'bounded export':<20} {'cpu s':>6} {'peak MB':>8} {'before':>7} {'after':>7} "
        f"{'bytes':>10}  target"
    )
    for what, cpu, peak, before, after, size in bounded:
        ok = (cpu <= 5.0 or not what.startswith("gif")) and after - before <= 100.0
        print(
            f"{what:<20} {cpu:6.2f} {peak:8.0f} {before:7.0f} {after:7.0f} {size:10,d}  "
            f"{'✓' if ok else '✗'}"
        )
    if args.bounded_only:
        return
    n_frames = 12 if args.quick else 50
    figs = demo_figures(n=40, n_frames=n_frames)
    names = ["plane"] if args.quick else ["plane", "curves"]
    rows = bench_static(figs, names, 2 if args.quick else 5)
    rows += bench_animation(figs["animation"], n_frames)
    export.close_renderer()
    if args.render:
        rows += bench_render()
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = f"{'figure':<22} {'preset':<7} {'format':<6} {'state':<5} {'wall s':>7} {'cpu s':>6}"
    print(f"{head} {'bytes':>10}  target")
    for name, preset, fmt, state, dt, cpu, size in rows:
        mark = verdict(name, fmt, state, dt, size)
        line = f"{name:<22} {preset:<7} {fmt:<6} {state:<5} {dt:7.2f} {cpu:6.2f} {size:10,d}"
        print(f"{line}  {mark}")


if __name__ == "__main__":
    main()
