"""Animation export: self-contained HTML, animated GIF and MP4 of a playback figure.

The input is the Plotly animation of :func:`svmlab.plot.playback.animation_figure` (or
``multiclass_animation_figure``): a base figure, ``frames`` that update some of its traces
(``frame.traces`` lists which), play/pause buttons and a slider whose step labels are the
iterations t. The HTML keeps all of it and plays in any browser offline (plotly.js
inlined, MathJax off). GIF and MP4 render every frame as a still figure
(:func:`frame_figure`) with Pillow (:mod:`svmlab.export.raster`: no browser, ~40 ms a
slide-size frame), or — for a figure with features the rasterizer does not draw —
through the renderer of :mod:`svmlab.export.render`, released afterwards; then

* GIF (Pillow): one shared palette of at most ``GIF_COLORS`` colours taken from the last
  frame, no dithering (flat areas compress well), and Pillow's frame differencing (each
  frame stores only the box that changed since the one before);
* MP4 (imageio-ffmpeg, whose wheel carries an ffmpeg binary): H.264, yuv420p (even
  pixel sizes), ``+faststart`` so that slide software can start it at once.
"""

from __future__ import annotations

import copy
import functools
import io
import os
import re
import tempfile

import numpy as np
import plotly.graph_objects as go

from svmlab.export.raster import FrameRasterizer, supported
from svmlab.export.render import figure_size, plain_figure, png_frames, release_renderer
from svmlab.plot.look.styles import controls_margin, style_figure

__all__ = [
    "GIF_COLORS",
    "animation_gif",
    "animation_html",
    "animation_mp4",
    "frame_count",
    "frame_figure",
    "title_pad",
]

_NO_EXTERNAL = re.compile(r'\b(src|href)="http')
#: Palette size of the GIF (shading bands, 2–6 class colours, rings, text).
GIF_COLORS = 96
#: A title's font relative to the figure's when the title sets none (Plotly's default).
TITLE_SCALE = 17 / 12


def title_pad(title_px: float) -> int:
    """Pixels between a still's top edge and its title's: 40 % of the title's font."""
    return max(4, round(0.4 * float(title_px)))


def _merge(base: dict, update: dict) -> None:
    """Deep-merge a frame's partial trace/layout ``update`` into ``base`` (in place)."""
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value


def _step_labels(layout: dict) -> tuple[str, dict[str, str]]:
    """The slider's value prefix ("t = ") and its step label per frame name."""
    sliders = layout.get("sliders") or []
    if not sliders:
        return "", {}
    prefix = (sliders[0].get("currentvalue") or {}).get("prefix", "")
    labels = {}
    for step in sliders[0].get("steps", []):
        args = step.get("args") or []
        if args and isinstance(args[0], list | tuple) and len(args[0]) == 1:
            labels[str(args[0][0])] = str(step.get("label", ""))
    return prefix, labels


def _frames_of(d: dict) -> list[dict]:
    """Still figure dicts, one per frame of the animation dict ``d`` (controls removed)."""
    frames = d.pop("frames", None) or []
    layout = d.setdefault("layout", {})
    prefix, labels = _step_labels(layout)
    font_px = (layout.get("font") or {}).get("size", 12)
    menus = layout.pop("updatemenus", None) or []
    if layout.pop("sliders", None) and isinstance(layout.get("margin"), dict):
        # no room for controls a still does not have: the x axis's room is what stays
        # (the play buttons were placed just under it, styles.place_controls)
        axis = (menus[0].get("pad") or {}).get("t") if menus else None
        if axis is None:
            axis = layout["margin"].get("b", 80) - controls_margin(font_px)
        layout["margin"]["b"] = max(axis, 30)
    title = layout.get("title") if isinstance(layout.get("title"), dict) else {}
    title_px = (title.get("font") or {}).get("size") or TITLE_SCALE * font_px
    out = []
    for frame in frames:
        still = copy.deepcopy(d)
        data = frame.get("data", [])
        ids = frame.get("traces") or range(len(data))
        for tid, tr in zip(ids, data, strict=False):
            if tid < len(still["data"]):
                _merge(still["data"][tid], {k: v for k, v in tr.items() if k != "type"})
        if frame.get("layout"):
            _merge(still["layout"], frame["layout"])
        label = labels.get(str(frame.get("name")))
        if label:
            text = f"{prefix}{label}".strip()
            base_text = title.get("text")
            still["layout"]["title"] = {
                **title,
                "text": f"{base_text} · {text}" if base_text else text,
                # at the top (the legend sits just above the plot), a margin above it
                "y": 1.0,
                "yref": "container",
                "yanchor": "top",
                "pad": {"t": title_pad(title_px)},
            }
        out.append(still)
    return out


def frame_count(fig) -> int:
    """Number of frames of an animation figure (0 for a still figure)."""
    return len(fig.frames or ())


def frame_figure(fig, index: int) -> go.Figure:
    """Frame ``index`` of an animation as a still figure (controls removed, "t = …" title).

    Raises
    ------
    ValueError
        If ``fig`` has no frames or ``index`` is out of range.
    """
    n = frame_count(fig)
    if n == 0:
        raise ValueError("fig must be an animation figure with frames (svmlab.plot.playback)")
    index = int(index)
    if not -n <= index < n:
        raise ValueError(f"index must be in [-{n}, {n}), got {index}")
    return go.Figure(_frames_of(plain_figure(fig))[index])


def animation_html(fig, *, preset: str | None = None, **style) -> bytes:
    """A self-contained HTML page (UTF-8 bytes) that plays, pauses and scrubs ``fig``.

    plotly.js is inlined (≈ 4.7 MB), MathJax is off and LaTeX text is made plain Unicode:
    the page makes no external request. ``preset`` and ``style`` (``shading``, ``legend``,
    ``ticks``, ``width``) restyle it first with :func:`~svmlab.plot.look.styles.style_figure`.
    """
    if preset is not None:
        fig = style_figure(fig, preset, **style)
    html = go.Figure(plain_figure(fig)).to_html(
        include_plotlyjs=True,
        include_mathjax=False,
        full_html=True,
        auto_play=False,
        config={"displaylogo": False, "responsive": True},
    )
    # The inlined plotly.js holds three link targets (its logo link, turned off here, and
    # two map attributions) written as href="https://…": anchors, never loaded. A space
    # after "=" (valid in JS and HTML alike) keeps a plain scan for external references
    # meaningful; <script> has no src and there is no <link> at all.
    return _NO_EXTERNAL.sub(r'\1= "http', html).encode("utf-8")


def _check(fig, fps: float) -> int:
    n = frame_count(fig)
    if n == 0:
        raise ValueError("fig must be an animation figure with frames (svmlab.plot.playback)")
    fps = float(fps)
    if not (np.isfinite(fps) and 0 < fps <= 50):
        raise ValueError(f"fps must be in (0, 50], got {fps}")
    return n


def _stills(styled) -> tuple[list[dict], object]:
    """The still frames of ``styled`` and how to draw one: Pillow's
    :class:`~svmlab.export.raster.FrameRasterizer` when every feature is supported there,
    else None (Chromium)."""
    stills = _frames_of(plain_figure(styled))
    if stills and supported(stills[0]) and supported(stills[-1]):
        return stills, FrameRasterizer(stills[0], stills).draw
    return stills, None


def _frame_images(stills, draw, progress):
    """Yield each frame as an RGB image, reporting ``progress(i, n)`` after each.

    With ``draw`` (Pillow) no browser is involved. Otherwise the frames go through the
    warm Chromium of :mod:`svmlab.export.render`, which is closed once the animation is
    done if no other export is using it (a browser's memory is not kept for frames).
    """
    n = len(stills)
    if draw is None:
        yield from (_rgb(png) for png in _chromium_pngs(stills, progress))
        return
    for i, still in enumerate(stills, start=1):
        yield draw(still)
        if progress is not None:
            progress(i, n)


def _return_memory() -> None:
    """Hand the heap freed by an export back to the system (glibc keeps freed blocks of
    a long-running process otherwise: a 50-frame GIF would leave ~130 MB behind)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass


def _rgb(png: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")


def _chromium_pngs(stills, progress):
    """The frames' PNG bytes from Chromium; the renderer is released when done."""
    try:
        for i, png in enumerate(png_frames(stills), start=1):
            yield png
            if progress is not None:
                progress(i, len(stills))
    finally:
        release_renderer()


def _gives_memory_back(export):
    """``export`` followed by :func:`_return_memory` (once its frames are freed)."""

    @functools.wraps(export)
    def wrapped(*args, **kwargs):
        try:
            return export(*args, **kwargs)
        finally:
            _return_memory()

    return wrapped


@_gives_memory_back
def animation_gif(fig, *, fps: float = 5, preset: str = "slides", progress=None, **style) -> bytes:
    """An animated GIF (bytes) of the frames of ``fig``, looping.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        An animation figure (with frames).
    fps : float in (0, 50]
        Frames per second (GIF delays are whole hundredths of a second).
    preset : {"screen", "slides", "paper", "print"}
        Style preset (:func:`~svmlab.plot.look.styles.style_figure`); ``style`` passes
        ``shading``, ``legend``, ``ticks`` and ``width`` on.
    progress : callable or None
        ``progress(i, n)`` after frame i of n is rendered (for a progress bar).

    Raises
    ------
    ValueError
        If ``fig`` has no frames or ``fps`` is out of range (or a style option is bad).
    """
    from PIL import Image

    _check(fig, fps)
    stills, draw = _stills(style_figure(fig, preset, **style))
    if draw is not None:  # the palette of the last frame (drawn first), then frame by frame
        palette = draw(stills[-1]).quantize(colors=GIF_COLORS, method=Image.Quantize.MEDIANCUT)
        frames = [
            im.quantize(palette=palette, dither=Image.Dither.NONE)
            for im in _frame_images(stills, draw, progress)
        ]
    else:  # Chromium: frames kept compressed until the last gives the palette
        pngs = list(_chromium_pngs(stills, progress))
        palette = _rgb(pngs[-1]).quantize(colors=GIF_COLORS, method=Image.Quantize.MEDIANCUT)
        frames = [_rgb(p).quantize(palette=palette, dither=Image.Dither.NONE) for p in pngs]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=max(20, round(1000 / fps)),
        loop=0,
        disposal=1,
        optimize=False,
    )
    return buf.getvalue()


@_gives_memory_back
def animation_mp4(fig, *, fps: float = 5, preset: str = "slides", progress=None, **style) -> bytes:
    """An H.264 MP4 (bytes) of the frames of ``fig``; arguments as :func:`animation_gif`."""
    import imageio_ffmpeg
    from PIL import Image

    _check(fig, fps)
    styled = style_figure(fig, preset, **style)
    width, height = figure_size(styled)
    size = (width + width % 2, height + height % 2)  # yuv420p needs even sizes
    fd, path = tempfile.mkstemp(suffix=".mp4")
    os.close(fd)
    try:
        writer = imageio_ffmpeg.write_frames(
            path,
            size,
            fps=float(fps),
            codec="libx264",
            pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p",
            macro_block_size=1,
            ffmpeg_log_level="error",
            output_params=["-movflags", "+faststart"],
        )
        writer.send(None)  # start ffmpeg
        for im in _frame_images(*_stills(styled), progress):
            if im.size != size:
                canvas = Image.new("RGB", size, "white")
                canvas.paste(im, (0, 0))
                im = canvas
            writer.send(im.tobytes())
        writer.close()
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)
