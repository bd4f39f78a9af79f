"""One entry point from a figure to the bytes of a file: PNG, SVG, PDF, HTML, GIF or MP4.

:func:`figure_bytes` styles the figure with a preset and hands it to the exporter of the
format: a still figure (the plane, the curves) for PNG (scale 3), SVG and PDF; an
animation figure (with frames) for GIF and MP4; HTML takes either (an animation keeps its
play/pause buttons and slider). The export panel and the ``render`` command both use it.
"""

from __future__ import annotations

from svmlab.export.animation import animation_gif, animation_html, animation_mp4
from svmlab.export.render import render
from svmlab.plot.look.styles import style_figure

__all__ = ["ANIMATED", "MIME", "PNG_SCALE", "STILL", "figure_bytes"]

#: The MIME type of each format.
MIME = {
    "png": "image/png",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "html": "text/html",
    "gif": "image/gif",
    "mp4": "video/mp4",
}
STILL = ("png", "svg", "pdf")
ANIMATED = ("html", "gif", "mp4")
#: Pixels per CSS pixel of an exported PNG (a 1280-px slide figure is 3840 px wide).
PNG_SCALE = 3


def figure_bytes(fig, fmt: str, *, preset: str = "screen", progress=None, **style) -> bytes:
    """The file of ``fig`` in ``fmt``, styled by ``preset`` (options ``style``).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        A still figure for png/svg/pdf; an animation (frames) for gif/mp4; either for html.
    fmt : {"png", "svg", "pdf", "html", "gif", "mp4"}
    preset : {"screen", "slides", "paper", "print"}
    progress : callable or None
        ``progress(i, n)`` after each frame of a GIF or MP4.
    **style
        ``shading``, ``legend``, ``ticks``, ``width`` (:func:`~svmlab.export.style_figure`).

    Raises
    ------
    ValueError
        If ``fmt`` is not one of the six, or (GIF/MP4) ``fig`` has no frames.
    """
    if fmt not in MIME:
        raise ValueError(f"fmt must be one of {', '.join(MIME)}, got {fmt!r}")
    if fmt == "html":
        return animation_html(fig, preset=preset, **style)
    if fmt in ("gif", "mp4"):
        exporter = animation_gif if fmt == "gif" else animation_mp4
        return exporter(fig, preset=preset, progress=progress, **style)
    scale = PNG_SCALE if fmt == "png" else 1.0
    return render(style_figure(fig, preset, **style), fmt, scale=scale)
