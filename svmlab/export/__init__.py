"""Export of SVM Lab's figures: style presets, PNG/SVG/PDF, and animations (HTML/GIF/MP4).

Pure functions from Plotly figures to figures or bytes (no Streamlit): a page offers a
download with, for example::

    from svmlab import export
    st.download_button("PNG", export.to_png(export.style_figure(fig, "slides")), "plane.png")

Modules: :mod:`~svmlab.plot.look.styles` (presets), :mod:`~svmlab.plot.look.roles` (which
trace is what), :mod:`~svmlab.export.render` (the warm offline Chromium renderer),
:mod:`~svmlab.export.animation` (HTML, GIF, MP4), :mod:`~svmlab.export.files` (one call
from a figure to the bytes of any of the six formats).

Rule: pure — Plotly figures in, bytes out; it may import the registry and every folder
below it, never Streamlit (``svmlab.ui.export_panel`` puts it on the page).
"""

from svmlab.export.animation import (
    animation_gif,
    animation_html,
    animation_mp4,
    frame_count,
    frame_figure,
)
from svmlab.export.files import MIME, figure_bytes
from svmlab.export.render import (
    browser_path,
    close_renderer,
    plain_text,
    to_pdf,
    to_png,
    to_svg,
)
from svmlab.plot.look.styles import PRESETS, style_figure

__all__ = [
    "MIME",
    "PRESETS",
    "animation_gif",
    "animation_html",
    "animation_mp4",
    "browser_path",
    "close_renderer",
    "figure_bytes",
    "frame_count",
    "frame_figure",
    "plain_text",
    "style_figure",
    "to_pdf",
    "to_png",
    "to_svg",
]
