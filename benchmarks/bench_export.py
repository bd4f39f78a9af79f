"""Export times and sizes: PNG/SVG/PDF per preset (cold and warm) and 50-frame GIF/MP4.

Run: ``python benchmarks/bench_export.py [--quick]``. Needs Chromium (``/usr/bin/chromium``).

* cold: the first export after :func:`svmlab.export.close_renderer` (starts Chromium and
  loads plotly.js), once per format;
* warm: the median of repeated exports with the browser kept running (target ≤ 1 s);
  PNG at scale 3, the figure styled by each preset (the styling time is included);
* the animation of a kernel Pegasos run (moons, 50 frames; ``--quick``: 12) exported as
  GIF and MP4 at slide size (1280 × 720): wall time (target ≤ 20 s) and size (GIF ≤ 5 MB).

The machine is shared: the 1-minute load average is printed with the table, and the
CPU seconds of every export (Python + Chromium), which a busy machine inflates far less.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from svmlab import export
from svmlab.export.demo import demo_figures

EXPORTERS = {
    "png": lambda fig: export.to_png(fig, scale=3),
    "svg": export.to_svg,
    "pdf": export.to_pdf,
}


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


def timed(fn):
    """(wall seconds, output) of ``fn()``; the CPU seconds go to ``timed.cpu``."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    out = fn()
    timed.cpu = cpu_seconds() - c0
    return time.perf_counter() - t0, out


def bench_static(figs: dict, names: list[str], repeat: int) -> list[tuple]:
    rows = []
    for fmt, exporter in EXPORTERS.items():
        export.close_renderer()
        dt, data = timed(lambda e=exporter: e(export.style_figure(figs["plane"], "screen")))
        rows.append(("plane", "screen", fmt, "cold", dt, timed.cpu, len(data)))
    for name in names:
        for preset in export.PRESETS:
            for fmt, exporter in EXPORTERS.items():
                times, cpus = [], []
                for _ in range(repeat):
                    dt, data = timed(
                        lambda e=exporter, p=preset, f=figs[name]: e(export.style_figure(f, p))
                    )
                    times.append(dt)
                    cpus.append(timed.cpu)
                wall, cpu = statistics.median(times), statistics.median(cpus)
                rows.append((name, preset, fmt, "warm", wall, cpu, len(data)))
    return rows


def bench_animation(fig, n_frames: int) -> list[tuple]:
    rows = []
    for fmt, fn in (("gif", export.animation_gif), ("mp4", export.animation_mp4)):
        dt, data = timed(lambda f=fn: f(fig, fps=5, preset="slides"))
        rows.append(
            (f"animation ({n_frames} fr.)", "slides", fmt, "warm", dt, timed.cpu, len(data))
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, 12 frames")
    args = parser.parse_args()
    n_frames = 12 if args.quick else 50
    figs = demo_figures(n=40, n_frames=n_frames)
    names = ["plane"] if args.quick else ["plane", "curves"]
    rows = bench_static(figs, names, 2 if args.quick else 5)
    rows += bench_animation(figs["animation"], n_frames)
    export.close_renderer()
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = f"{'figure':<22} {'preset':<7} {'format':<6} {'state':<5} {'wall s':>7} {'cpu s':>6}"
    print(f"{head} {'bytes':>10}")
    for name, preset, fmt, state, dt, cpu, size in rows:
        print(f"{name:<22} {preset:<7} {fmt:<6} {state:<5} {dt:7.2f} {cpu:6.2f} {size:10,d}")


if __name__ == "__main__":
    main()
