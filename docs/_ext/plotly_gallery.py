"""sphinx-gallery's images for Plotly figures: what an example shows, written to PNG.

An example calls ``fig.show()`` as in a notebook; while the docs are built Plotly's
default renderer is :class:`GalleryRenderer`, which keeps the figure, and
:func:`plotly_scraper` writes each kept figure with SVM Lab's offline exporter (the
``screen`` preset, Kaleido on the system Chromium) where sphinx-gallery wants its image.
"""

from __future__ import annotations

import logging
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio
from plotly.io.base_renderers import ExternalRenderer

#: Pixels per CSS pixel of the gallery's PNGs.
SCALE = 1.5
#: The figures an example has shown and the scraper has not yet written.
SHOWN: list[go.Figure] = []


class GalleryRenderer(ExternalRenderer):
    """``fig.show()`` in a gallery example: keep the figure for :func:`plotly_scraper`."""

    def render(self, fig_dict):
        SHOWN.append(go.Figure(fig_dict))


def use_gallery_renderer() -> None:
    """Make ``fig.show()`` keep figures for the scraper (called by ``conf.py``)."""
    pio.renderers["svmlab_gallery"] = GalleryRenderer()
    pio.renderers.default = "svmlab_gallery"
    for name in ("kaleido", "choreographer"):  # their INFO lines would bury Sphinx's output
        logging.getLogger(name).setLevel(logging.WARNING)


def plotly_scraper(block, block_vars, gallery_conf, **kwargs):
    """Write the figures a code block showed as PNG; their reST for the example's page."""
    from sphinx_gallery.scrapers import figure_rst

    from svmlab.export import style_figure
    from svmlab.export.render import render

    paths = []
    for fig, path in zip(list(SHOWN), block_vars["image_path_iterator"], strict=False):
        Path(path).write_bytes(render(style_figure(fig, "screen"), "png", scale=SCALE))
        paths.append(path)
    SHOWN.clear()
    return figure_rst(paths, gallery_conf["src_dir"])


def reset_shown(gallery_conf, fname, when=None):
    """Forget figures an earlier example showed but did not let the scraper write."""
    SHOWN.clear()
