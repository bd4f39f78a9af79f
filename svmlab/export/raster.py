"""Animation frames drawn with Pillow straight from the figure's data: no browser.

A GIF or MP4 of a run is 50 stills of the same plane that differ only in the model
(the shading, the level lines, the support-vector rings, the marker sizes, the title's
t). Rendering them through Chromium cost about 0.35 CPU-s a frame at slide size and kept
a ~600 MB renderer alive; here each frame is drawn by NumPy and Pillow in tens of
milliseconds, and nothing outlives the export.

What is drawn, from the still figure dict of :func:`svmlab.export.animation.frame_figure`:

* ``contour`` traces: the shading (``contours.coloring`` "heatmap": the grid bilinearly
  interpolated to pixels, then the colour scale; "fill": bands between the levels) and
  the level lines (:func:`svmlab.plot.isolines.isolines`, the marching squares of the plane
  itself) with the trace's colour, width and dash (plotly.js's dash lengths);
* ``heatmap`` traces (multiclass regions): cells, nearest value, the colour scale with
  its alpha;
* ``scatter`` traces: markers (circle, x, square, diamond, triangle-up, star and their
  ``-open`` forms; per-point sizes; an outline ``marker.line``) and lines (with gaps at
  NaN, dashes);
* the layout: size, margins, the equal-scaled axes over fixed ranges shrunk to their
  domain as plotly.js does (``scaleanchor`` + ``constrain="domain"``), axis lines,
  outside ticks at plotly.js's automatic steps (1, 2 or 5 × 10ᵏ) with their labels (the
  minus sign U+2212), axis titles, a horizontal legend and the title.

The plot area is drawn at twice the size and reduced (anti-aliased lines and markers);
everything that does not change between frames (axes, ticks, legend) is drawn once.
:func:`supported` says whether a figure uses only these; others go through Chromium.
Text uses Liberation Sans (the presets' first font), else DejaVu Sans, else Pillow's own.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from svmlab.export.raster_layout import PlotFrame
from svmlab.export.raster_marks import (
    colorscale_lut,
    dash_pattern,
    dashed,
    decode_array,
    draw_text,
    lookup,
    marker_sprite,
    pixel,
    rgba255,
    supported,
)
from svmlab.plot.isolines import isolines

__all__ = ["FrameRasterizer", "supported"]

#: Supersampling of the plot area (lines and markers are drawn at SS× and reduced).
SS = 2


class FrameRasterizer(PlotFrame):
    """Draws stills that share one layout (the frames of an animation) as RGB images:
    the frame (:class:`~svmlab.export.raster_layout.PlotFrame`) once, the plot area's
    shading, level lines and markers per frame."""

    # one frame
    def draw(self, fig: dict) -> Image.Image:
        """The still ``fig`` as an RGB image of the layout's size."""
        left, top, pw, ph = self.rect
        W, H = pw * SS, ph * SS
        layer = Image.new("RGB", (W, H), self.plot_bg[:3])
        data = fig.get("data", [])
        for tr in data:  # plotly.js draws heatmaps and contours below the scatter layer
            kind = tr.get("type", "scatter")
            if kind in ("contour", "heatmap"):
                self._shading(layer, tr)
        for tr in data:
            if tr.get("type", "scatter") == "contour":
                self._contour_lines(layer, tr)
        for tr in data:
            if tr.get("type", "scatter") == "scatter" and tr.get("visible", True) is True:
                self._scatter(layer, tr)
        out = self._background(fig).copy()
        out.paste(layer.reduce(SS), (left, top))
        draw = ImageDraw.Draw(out)
        for name in ("xaxis", "yaxis"):
            ax = self._axis(name)
            if ax.get("showline"):
                col = rgba255(ax.get("linecolor") or "#444")
                w = max(1, pixel(float(ax.get("linewidth", 1))))
                if name == "xaxis":
                    draw.line([(left, top + ph), (left + pw, top + ph)], col, w)
                else:
                    draw.line([(left, top), (left, top + ph)], col, w)
        title = lookup(fig, "layout", "title", "text")
        if title:
            tsize = float(
                lookup(fig, "layout", "title", "font", "size", default=self.font_size * 1.4)
            )
            tx = float(lookup(fig, "layout", "title", "x", default=0.05)) * self.width
            ty = float(lookup(fig, "layout", "title", "pad", "t", default=2))  # off the edge
            draw_text(draw, (tx, ty), title, tsize, self.font_color, "la")
        return out

    def _pixel_grid(self, W, H):
        (x0, x1), (y0, y1) = self.xr, self.yr
        px = x0 + (np.arange(W) + 0.5) / W * (x1 - x0)
        py = y1 - (np.arange(H) + 0.5) / H * (y1 - y0)
        return px, py

    def _shading(self, layer: Image.Image, tr: dict) -> None:
        kind = tr.get("type")
        coloring = lookup(tr, "contours", "coloring", default="fill")
        if kind == "contour" and coloring in ("none", "lines"):
            return
        if tr.get("showscale") is None and tr.get("visible", True) is not True:
            return
        Z = decode_array(tr.get("z"))
        if Z.ndim != 2 or Z.size == 0:
            return
        ry, rx = Z.shape
        xs = decode_array(tr.get("x")) if tr.get("x") is not None else np.arange(rx, dtype=float)
        ys = decode_array(tr.get("y")) if tr.get("y") is not None else np.arange(ry, dtype=float)
        # at 1×, then enlarged: the shading is smooth or piecewise constant
        _, _, pw, ph = self.rect
        px, py = self._pixel_grid(pw, ph)
        fx = np.interp(px, xs, np.arange(rx, dtype=float))
        fy = np.interp(py, ys, np.arange(ry, dtype=float))
        if kind == "heatmap":  # cells: the nearest grid value
            V = Z[np.rint(fy).astype(int)][:, np.rint(fx).astype(int)]
        else:  # bilinear
            ix = np.minimum(fx.astype(int), rx - 2)
            iy = np.minimum(fy.astype(int), ry - 2)
            wx, wy = fx - ix, fy - iy
            rows = Z[:, ix] * (1 - wx) + Z[:, ix + 1] * wx
            V = rows[iy] * (1 - wy)[:, None] + rows[iy + 1] * wy[:, None]
        zmin = tr.get("zmin")
        zmax = tr.get("zmax")
        zmin = float(np.nanmin(Z)) if zmin is None else float(zmin)
        zmax = float(np.nanmax(Z)) if zmax is None else float(zmax)
        if kind == "contour" and coloring == "fill":  # bands between the levels
            start = float(lookup(tr, "contours", "start", default=zmin))
            size = float(lookup(tr, "contours", "size", default=(zmax - zmin) / 10 or 1.0))
            band = np.floor((V - start) / size)
            V = start + (band + 0.5) * size
        scale = tr.get("colorscale") or [[0, "#000000"], [1, "#ffffff"]]
        if isinstance(scale, str):
            return
        lut = colorscale_lut(scale)
        t = np.clip((V - zmin) / ((zmax - zmin) or 1.0), 0.0, 1.0)
        idx = np.rint(np.nan_to_num(t) * (len(lut) - 1)).astype(np.intp)
        rgba = lut[idx]
        alpha = rgba[..., 3:4]
        base = np.asarray(layer.reduce(SS), dtype=float) if np.any(alpha < 1) else None
        rgb = rgba[..., :3] if base is None else rgba[..., :3] * alpha + base * (1 - alpha)
        small = Image.fromarray(np.clip(np.rint(rgb), 0, 255).astype(np.uint8), "RGB")
        layer.paste(small.resize(layer.size, Image.Resampling.NEAREST))

    def _contour_lines(self, layer: Image.Image, tr: dict) -> None:
        contours = tr.get("contours") or {}
        if contours.get("showlines") is False:
            return
        line = tr.get("line") or {}
        if line.get("width", 1) == 0:
            return
        Z = decode_array(tr.get("z"))
        if Z.ndim != 2 or min(Z.shape) < 2:
            return
        xs = decode_array(tr.get("x"))
        ys = decode_array(tr.get("y"))
        start = contours.get("start")
        end = contours.get("end")
        if start is None or end is None:
            return
        size = float(contours.get("size") or 1.0)
        levels = np.arange(float(start), float(end) + size / 2, size)
        lx, ly = isolines(xs, ys, Z, levels)
        self._polylines(layer, lx, ly, line)

    def _polylines(self, layer, lx, ly, line: dict) -> None:
        if lx.size == 0:
            return
        col = rgba255(line.get("color") or "#444")
        width = float(line.get("width", 2))
        pattern = dash_pattern(line.get("dash"), width)
        px, py = self.to_px(lx, ly, SS)
        draw = ImageDraw.Draw(layer)
        breaks = np.flatnonzero(~np.isfinite(px) | ~np.isfinite(py))
        starts = np.concatenate([[0], breaks + 1])
        ends = np.concatenate([breaks, [px.size]])
        w = max(1, pixel(width * SS))
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
            if e - s < 2:
                continue
            pts = np.column_stack([px[s:e], py[s:e]])
            pieces = dashed(pts, [p * SS for p in pattern]) if pattern else [pts]
            for piece in pieces:
                if len(piece) >= 2:
                    draw.line([tuple(p) for p in piece.tolist()], fill=col, width=w, joint="curve")

    def _scatter(self, layer: Image.Image, tr: dict) -> None:
        x, y = decode_array(tr.get("x")), decode_array(tr.get("y"))
        if x.size == 0 or y.size == 0:
            return
        mode = str(tr.get("mode", "markers"))
        if "lines" in mode:
            self._polylines(layer, x, y, tr.get("line") or {})
        if "markers" not in mode:
            return
        marker = tr.get("marker") or {}
        sizes = marker.get("size", 6)
        sizes = (
            np.full(x.shape, float(sizes))
            if isinstance(sizes, int | float)
            else np.broadcast_to(decode_array(sizes), x.shape)
        )
        colors = marker.get("color")
        per_point = isinstance(colors, list | tuple)
        px, py = self.to_px(x, y, SS)
        for k in range(x.size):
            if not (np.isfinite(px[k]) and np.isfinite(py[k]) and np.isfinite(sizes[k])):
                continue
            style = list(self._marker_style(tr, sizes[k] * SS))
            if per_point:
                style[2] = rgba255(colors[k])
            style[4] = style[4] * SS
            sprite = marker_sprite(*style)
            layer.paste(
                sprite,
                (pixel(px[k] - sprite.width / 2), pixel(py[k] - sprite.height / 2)),
                sprite,
            )
