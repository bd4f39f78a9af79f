"""Static figure export (PNG, SVG, PDF) through one warm, offline headless Chromium.

The renderer is kaleido ≥ 1, which drives a local Chromium over the DevTools protocol
(choreographer). It is started once, on the first export, in a background thread with
its own asyncio loop, and kept warm: later exports reuse the same browser and tab
(≈ 0.2 s each instead of ≈ 3 s cold) until idle for :data:`IDLE_CLOSE_S` (then it stops,
its memory freed); GIF and MP4 frames are drawn without it (:mod:`svmlab.export.raster`).
Every export is offline:

* plotly.js is the copy inside the installed ``plotly`` package (a ``file://`` script);
* MathJax is off (``mathjax=False``) and titles are made plain Unicode by
  :func:`plain_text` (λ, γ, ξᵢ, α instead of ``$\\lambda$``);
* Chromium's proxy is a closed loopback port, so even a stray ``http(s)`` request fails
  at once on this machine instead of reaching a network.

The browser is ``$SVMLAB_CHROMIUM``, else ``$BROWSER_PATH``, else Debian's
``/usr/bin/chromium`` (``scripts/app.sh`` installs it), else whatever choreographer finds.
No Streamlit here: functions take a Plotly figure and return bytes.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import json
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

import plotly
import plotly.graph_objects as go
from plotly.utils import PlotlyJSONEncoder

from svmlab.plot.look.plain import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    figure_size,
    plain_figure,
    plain_text,
    plain_tree,
)
from svmlab.plot.look.roles import trace_role

__all__ = [
    "DEFAULT_HEIGHT",
    "DEFAULT_WIDTH",
    "browser_path",
    "close_renderer",
    "figure_size",
    "offline_page",
    "plain_figure",
    "plain_text",
    "png_frames",
    "release_renderer",
    "render",
    "renderer_running",
    "smooth_shading",
    "to_pdf",
    "to_png",
    "to_svg",
]

#: Seconds one render may take before it is abandoned (a hung browser never hangs the app).
RENDER_TIMEOUT_S = 60.0
#: Seconds without a render after which the browser stops (~600 MB freed; the next export
#: starts it again, ≈ 3 s). ``$SVMLAB_EXPORT_IDLE_S`` overrides it.
IDLE_CLOSE_S = float(os.environ.get("SVMLAB_EXPORT_IDLE_S", "120"))
#: kaleido's tabs (each export takes one; the page reloads after every figure).
TABS = 1
#: Where every http(s) request of the export browser goes: a closed port on this machine.
DEAD_PROXY = "http://127.0.0.1:9"


def browser_path() -> str | None:
    """The Chromium executable the renderer starts (see the module docstring), or None."""
    for candidate in (os.environ.get("SVMLAB_CHROMIUM"), os.environ.get("BROWSER_PATH")):
        if candidate:
            return candidate
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _plotly_js() -> Path:
    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise RuntimeError(f"plotly.js not found in the plotly package at {path}")
    return path


def offline_page():
    """kaleido's page generator with local plotly.js and no MathJax (the render page)."""
    from kaleido import PageGenerator

    return PageGenerator(plotly=_plotly_js().as_uri(), mathjax=False)


class _Renderer:
    """One kaleido browser in a daemon thread running its own event loop."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # re-entrant: a done callback may run at once
        self._loop: asyncio.AbstractEventLoop | None = None
        self._kaleido = None
        self._frame_tab = None  # a tab that keeps plotly.js loaded, for animation frames
        self._frame_dir: tempfile.TemporaryDirectory | None = None
        self._frame_lock: asyncio.Lock | None = None  # one frame at a time on that tab
        self._inflight, self._last_used = 0, 0.0  # renders in flight; when the last ended
        self._reaper: threading.Event | None = None  # set: stop the idle check

    def _track(self, future):
        """Count ``future`` as in flight until it is done (called under the lock)."""
        self._inflight += 1

        def done(_):
            with self._lock:
                self._inflight -= 1
                self._last_used = time.monotonic()

        future.add_done_callback(done)
        return future

    def _watch_idle(self, stop: threading.Event) -> None:
        """Close the browser once it has been idle for IDLE_CLOSE_S (its memory returns)."""
        while not stop.wait(min(IDLE_CLOSE_S, 5.0)):
            if self.close(only_if_idle_for=IDLE_CLOSE_S):
                return

    def _start(self) -> None:
        from kaleido import Kaleido

        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="svmlab-export", daemon=True)
        thread.start()
        kwargs = {"path": browser_path()} if browser_path() else {}
        try:
            k = Kaleido(
                n=TABS,
                timeout=RENDER_TIMEOUT_S,
                page_generator=offline_page(),
                proxy_server=DEAD_PROXY,
                **kwargs,
            )
            asyncio.run_coroutine_threadsafe(k.open(), loop).result(RENDER_TIMEOUT_S)
        except Exception as exc:
            loop.call_soon_threadsafe(loop.stop)
            raise RuntimeError(
                "figure export needs Chromium: install Debian's chromium (scripts/app.sh "
                f"does) or set SVMLAB_CHROMIUM to a Chromium executable ({exc})"
            ) from exc
        self._loop, self._kaleido = loop, k
        self._last_used = time.monotonic()
        self._reaper = threading.Event()
        threading.Thread(target=self._watch_idle, args=(self._reaper,), daemon=True).start()
        atexit.register(self.close)

    def submit(self, fig_dict: dict, opts: dict):
        """Queue one render on the browser's loop; a concurrent Future of its bytes."""
        with self._lock:
            if self._kaleido is None:
                self._start()
            coro = self._kaleido.calc_fig(fig_dict, opts=opts)
            return self._track(asyncio.run_coroutine_threadsafe(coro, self._loop))

    async def _open_frame_tab(self):
        # kaleido reloads its page (and re-parses plotly.js) after every figure; a run of
        # frames instead updates one plot in place with Plotly.react: about half the CPU.
        if self._frame_tab is None:
            self._frame_dir = tempfile.TemporaryDirectory(prefix="svmlab-frames-")
            page = Path(self._frame_dir.name) / "frames.html"
            page.write_text(
                f'<!DOCTYPE html><html><head><meta charset="utf-8"><script src="'
                f'{_plotly_js().as_uri()}"></script></head><body style="margin:0">'
                '<div id="gd"></div></body></html>',
                encoding="utf-8",
            )
            tab = await self._kaleido.create_tab(url=page.as_uri())
            for _ in range(int(RENDER_TIMEOUT_S / 0.05)):
                if await _evaluate(tab, "typeof Plotly") == "object":
                    break
                await asyncio.sleep(0.05)
            else:
                raise RuntimeError("plotly.js did not load in the frame tab")
            self._frame_tab = tab
        return self._frame_tab

    async def _png_frame(self, fig_dict: dict, width: int, height: int) -> bytes:
        spec = {"data": fig_dict.get("data", []), "layout": fig_dict["layout"]}
        spec = json.dumps(spec, cls=PlotlyJSONEncoder)
        if self._frame_lock is None:  # created in the renderer's loop (this coroutine's)
            self._frame_lock = asyncio.Lock()
        async with self._frame_lock:  # two sessions' exports must not interleave on one plot
            tab = await self._open_frame_tab()
            url = await _evaluate(tab, _REACT_TO_PNG % (spec, width, height))
        return base64.b64decode(url.split(",", 1)[1])

    def submit_frame(self, fig_dict: dict, width: int, height: int):
        """Queue one frame on the frame tab; a concurrent Future of its PNG bytes."""
        with self._lock:
            if self._kaleido is None:
                self._start()
            coro = self._png_frame(fig_dict, width, height)
            return self._track(asyncio.run_coroutine_threadsafe(coro, self._loop))

    def close(self, *, only_if_idle_for: float | None = None) -> bool:
        """Stop the browser (with ``only_if_idle_for``: if idle that long); True if so."""
        with self._lock:
            if self._kaleido is None:
                return False
            idle = time.monotonic() - self._last_used
            if only_if_idle_for is not None and (self._inflight or idle < only_if_idle_for):
                return False
            loop, k, frame_dir, reaper = self._loop, self._kaleido, self._frame_dir, self._reaper
            self._loop = self._kaleido = self._frame_tab = self._frame_dir = None
            self._frame_lock = self._reaper = None
        if reaper is not None:
            reaper.set()
        try:
            asyncio.run_coroutine_threadsafe(k.close(), loop).result(30)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            if frame_dir is not None:
                frame_dir.cleanup()
        return True


#: One frame: update the plot in place, then the PNG as a data URL (spec, width, height).
_REACT_TO_PNG = """(async () => {
  const f = %s, gd = document.getElementById("gd");
  await Plotly.react(gd, f.data, f.layout, {staticPlot: true});
  return await Plotly.toImage(gd, {format: "png", width: %d, height: %d, scale: 1});
})()"""


async def _evaluate(tab, expression: str):
    """The value of a JavaScript expression in ``tab`` (promises awaited)."""
    params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
    response = await tab.send_command("Runtime.evaluate", params=params)
    result = response.get("result", {})
    if "error" in response or "exceptionDetails" in result:
        detail = response.get("error") or result["exceptionDetails"].get("text")
        raise RuntimeError(f"the frame renderer failed: {detail}")
    return result.get("result", {}).get("value")


_RENDERER = _Renderer()


def close_renderer() -> None:
    """Stop the warm browser (the next export starts a new one). Safe to call twice."""
    _RENDERER.close()


def release_renderer() -> bool:
    """Stop the browser now unless a render is in flight; True if it was stopped."""
    return _RENDERER.close(only_if_idle_for=0.0)


def renderer_running() -> bool:
    """True while the export browser is started (its processes hold memory)."""
    return _RENDERER._kaleido is not None


def _prepare(fig, fmt: str, scale: float) -> tuple[dict, dict]:
    """The figure dict (plain text, no frames or controls) and kaleido's options."""
    if fmt not in ("png", "svg", "pdf"):
        raise ValueError(f"fmt must be 'png', 'svg' or 'pdf', got {fmt!r}")
    scale = float(scale)
    if not (0 < scale <= 20):
        raise ValueError(f"scale must be in (0, 20], got {scale}")
    d = plain_figure(fig) if isinstance(fig, go.Figure) else plain_tree(fig)
    d.pop("frames", None)
    layout = d.setdefault("layout", {})
    layout.pop("updatemenus", None)
    layout.pop("sliders", None)
    if fmt in VECTOR_FORMATS:
        smooth_shading(d)
    width, height = figure_size(d)
    return d, {"format": fmt, "width": width, "height": height, "scale": scale}


#: Formats whose heatmaps are embedded images that a viewer may not smooth.
VECTOR_FORMATS = ("svg", "pdf")


def smooth_shading(d: dict) -> dict:
    """The decision-value shading of a figure dict drawn at the plot's own resolution (in
    place; returned).

    The page's shading is a coarse grid that the browser smooths when it scales it up
    (``zsmooth="fast"``); in a PDF or an SVG that grid is embedded as a small image that
    many viewers (and printers) enlarge into visible blocks. ``zsmooth="best"`` makes
    plotly.js interpolate it bilinearly into an image of the plot area's pixel size.
    The class regions keep theirs (bilinear interpolation of class indices would pass
    through the classes in between).
    """
    for tr in d.get("data", []):
        if tr.get("type") == "heatmap" and tr.get("zsmooth") and trace_role(tr) == "shading":
            tr["zsmooth"] = "best"
    return d


def render(fig, fmt: str, *, scale: float = 1.0) -> bytes:
    """Render ``fig`` (a Figure or its dict) to ``fmt`` in {"png", "svg", "pdf"}.

    The size is the layout's ``width`` × ``height`` (:func:`figure_size`); ``scale``
    multiplies the pixels of a PNG. Frames, play buttons and sliders are not drawn.

    Raises
    ------
    ValueError
        If ``fmt`` is not png/svg/pdf or ``scale`` is not in (0, 20].
    """
    return _RENDERER.submit(*_prepare(fig, fmt, scale)).result(RENDER_TIMEOUT_S + 5)


def png_frames(figs, *, ahead: int = 2):
    """Yield the PNG bytes (scale 1) of each still figure of ``figs``, in order.

    For animation frames: one plot is updated in place (``Plotly.react``) in a tab that
    keeps plotly.js loaded, instead of kaleido's fresh page per figure. Up to ``ahead``
    frames are queued, so that Chromium draws the next frame while the caller encodes.
    """
    pending: deque = deque()
    try:
        for fig in figs:
            d, opts = _prepare(fig, "png", 1.0)
            pending.append(_RENDERER.submit_frame(d, opts["width"], opts["height"]))
            if len(pending) > ahead:
                yield pending.popleft().result(RENDER_TIMEOUT_S)
        while pending:
            yield pending.popleft().result(RENDER_TIMEOUT_S)
    finally:
        for future in pending:
            future.cancel()


def to_png(fig, scale: float = 3) -> bytes:
    """PNG bytes of ``fig``: ``width·scale`` × ``height·scale`` pixels (default scale 3)."""
    return render(fig, "png", scale=scale)


def to_svg(fig) -> bytes:
    """SVG bytes of ``fig`` (vector; a heatmap is embedded as an image, see ``paper``)."""
    return render(fig, "svg")


def to_pdf(fig) -> bytes:
    """PDF bytes of ``fig``, one page of ``width`` × ``height`` CSS pixels (96 per inch)."""
    return render(fig, "pdf")
