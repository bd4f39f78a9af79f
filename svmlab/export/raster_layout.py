"""The frame of a rasterized plane (:mod:`svmlab.export.raster`): where plotly.js puts the
plot area (margins grown for tick labels, axis titles and a wrapped legend, then the
equal-scaled axes shrunk to their domain: ``scaleanchor`` + ``constrain="domain"``), the
axes with their ticks and titles, and the legend — drawn once per animation (the legend
once per set of items shown).
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from svmlab.export.raster_marks import (
    axis_ticks,
    dash_pattern,
    dashed,
    decode_array,
    draw_text,
    lookup,
    marker_sprite,
    pixel,
    rgba255,
    text_size,
    tick_label,
)

__all__ = ["LEGEND_PAD", "PlotFrame"]

#: Room kept above a legend that pushes the plot down (px).
LEGEND_PAD = 12.0


class PlotFrame:
    """Draws stills that share one layout (the frames of an animation) as RGB images.

    ``draw(fig)`` takes a still figure dict; the layout's axes and ticks are drawn once,
    from ``first``, and each legend (its items can differ between frames) once. The plot
    area leaves room for the legend of every figure of ``frames``.
    """

    def __init__(self, first: dict, frames=None):
        layout = first.get("layout", {})
        template = lookup(layout, "template", "layout", default={}) or {}
        self.layout = layout
        self.width = pixel(float(layout.get("width") or 700))
        self.height = pixel(float(layout.get("height") or 520))
        font = {**(lookup(template, "font", default={}) or {}), **(layout.get("font") or {})}
        self.font_size = float(font.get("size") or 12)
        self.font_color = rgba255(font.get("color") or "#444444")
        self.paper = rgba255(
            layout.get("paper_bgcolor") or template.get("paper_bgcolor") or "white"
        )
        self.plot_bg = rgba255(
            layout.get("plot_bgcolor") or template.get("plot_bgcolor") or "white"
        )
        self.template = template
        union: dict = {}
        for still in [first, *(frames or [])]:
            for tr in self._legend_items(still):
                union.setdefault(tr["name"], tr)
        self._geometry(list(union.values()))
        self._axes = self._static_layer()
        self._backgrounds: dict = {}

    # geometry of the plot area, as plotly.js lays out scaleanchor + constrain="domain"
    def _geometry(self, legend_items: list[dict]) -> None:
        m = {"l": 80, "r": 80, "t": 100, "b": 80, **(self.layout.get("margin") or {})}
        x0, x1 = (float(v) for v in self.layout["xaxis"]["range"])
        y0, y1 = (float(v) for v in self.layout["yaxis"]["range"])
        # plotly.js's automargin: the axes' tick labels and titles must fit in the margins
        m["l"] = max(float(m["l"]), self._axis_depth("yaxis", (y0, y1)))
        m["b"] = max(float(m["b"]), self._axis_depth("xaxis", (x0, x1)))
        left, top = float(m["l"]), float(m["t"])
        aw = max(self.width - m["l"] - m["r"], 1.0)
        ah = max(self.height - m["t"] - m["b"], 1.0)
        # and: a legend above the plot that does not fit in the top
        # margin pushes the plot down (sized for every item any frame shows: no jumps)
        leg = self.layout.get("legend") or {}
        rows = self._legend_rows(legend_items, left + float(leg.get("x", 0.0)) * aw)
        if rows and leg.get("yanchor", "bottom") == "bottom" and float(leg.get("y", 1.02)) >= 1:
            need = len(rows) * self._row_h() + LEGEND_PAD
            gap = (float(leg.get("y", 1.02)) - 1.0) * ah
            if need + gap > top:
                extra = need + gap - top
                top += extra
                ah = max(ah - extra, 1.0)
        self.area = (left, top, aw, ah)
        pw, ph = aw, ah
        ya = self.layout["yaxis"]
        if ya.get("scaleanchor") == "x":
            ratio = float(ya.get("scaleratio", 1.0))
            sx, sy = aw / (x1 - x0), ah / ((y1 - y0) * ratio)
            s = min(sx, sy)
            pw, ph = s * (x1 - x0), s * (y1 - y0) * ratio
        self.rect = (
            pixel(left + (aw - pw) / 2),
            pixel(top + (ah - ph) / 2),
            max(pixel(pw), 1),
            max(pixel(ph), 1),
        )
        self.xr, self.yr = (x0, x1), (y0, y1)

    def _axis_depth(self, name: str, span) -> float:
        """Pixels from the plot's edge to the far side of the axis title (ticks, labels)."""
        ax = self._axis(name)
        tick_font = float(lookup(ax, "tickfont", "size", default=self.font_size))
        ticklen = float(ax.get("ticklen", 5)) if ax.get("ticks") else 0.0
        title = lookup(ax, "title", "text")
        tsize = float(lookup(ax, "title", "font", "size", default=self.font_size))
        title_h = 1.3 * tsize + 0.2 * tsize if title else 0.0
        if name == "xaxis":
            return ticklen + 2 + 1.35 * tick_font + title_h + 4
        ticks = axis_ticks(span[0], span[1], self.height / 2, "y")
        step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
        labels = max((text_size(tick_label(v, step), tick_font)[0] for v in ticks), default=0)
        return ticklen + 3 + labels + 6 + title_h + 4

    def _legend_size(self) -> float:
        return float(lookup(self.layout, "legend", "font", "size", default=self.font_size))

    def _row_h(self) -> float:
        """Height of a legend row: the text's line height and plotly.js's 5 px gap."""
        return 1.3 * self._legend_size() + 5.0

    def _legend_rows(self, items: list[dict], x: float) -> list[list[tuple[dict, float]]]:
        """Items in rows from ``x`` to the figure's right edge: one row if all fit, else
        columns as wide as the widest item (plotly.js's wrapped horizontal legend)."""
        if not items:
            return []
        size = self._legend_size()
        widths = [40 + text_size(tr["name"], size)[0] + 10 for tr in items]
        avail = max(self.width - x, 1.0)
        if sum(widths) <= avail:
            return [list(zip(items, widths, strict=True))]
        col = max(widths)
        per_row = max(1, int(avail // col))
        return [[(tr, col) for tr in items[i : i + per_row]] for i in range(0, len(items), per_row)]

    def _axis(self, name: str) -> dict:
        t = lookup(self.template, name, default={}) or {}
        return {**t, **(self.layout.get(name) or {})}

    def to_px(self, x, y, scale: float = 1.0):
        """Data → pixel coordinates inside the plot area (origin at its top left)."""
        (x0, x1), (y0, y1) = self.xr, self.yr
        _, _, pw, ph = self.rect
        px = (np.asarray(x, dtype=float) - x0) / (x1 - x0) * pw * scale
        py = (y1 - np.asarray(y, dtype=float)) / (y1 - y0) * ph * scale
        return px, py

    # the layer drawn once: paper, axes' ticks, labels, titles, legend
    def _background(self, fig: dict) -> Image.Image:
        """The axes with ``fig``'s legend (its items can change between frames: an empty
        trace is not listed), cached by the items shown."""
        items = tuple(tr.get("name") for tr in self._legend_items(fig))
        if items not in self._backgrounds:
            im = self._axes.copy()
            self._legend(im, fig)
            self._backgrounds[items] = im
        return self._backgrounds[items]

    def _static_layer(self) -> Image.Image:
        im = Image.new("RGB", (self.width, self.height), self.paper[:3])
        draw = ImageDraw.Draw(im)
        left, top, pw, ph = self.rect
        for name in ("xaxis", "yaxis"):
            ax = self._axis(name)
            axis = name[0]
            lo, hi = self.xr if axis == "x" else self.yr
            length = pw if axis == "x" else ph
            ticks = axis_ticks(lo, hi, length, axis)
            step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
            tick_font = float(lookup(ax, "tickfont", "size", default=self.font_size))
            ticklen = float(ax.get("ticklen", 5)) if ax.get("ticks") else 0.0
            tickw = max(1, pixel(float(ax.get("tickwidth", 1))))
            tick_col = rgba255(ax.get("tickcolor") or ax.get("linecolor") or "#444")
            label_col = rgba255(lookup(ax, "tickfont", "color") or self.font_color)
            for v in ticks:
                if axis == "x":
                    px = left + (v - lo) / (hi - lo) * pw
                    if ticklen:
                        draw.line([(px, top + ph), (px, top + ph + ticklen)], tick_col, tickw)
                    if ax.get("showticklabels", True):
                        draw_text(
                            draw, (px, top + ph + ticklen + 2), tick_label(v, step),
                            tick_font, label_col, "ma",
                        )  # fmt: skip
                else:
                    py = top + (hi - v) / (hi - lo) * ph
                    if ticklen:
                        draw.line([(left - ticklen, py), (left, py)], tick_col, tickw)
                    if ax.get("showticklabels", True):
                        draw_text(
                            draw, (left - ticklen - 3, py), tick_label(v, step),
                            tick_font, label_col, "rm",
                        )  # fmt: skip
            title = lookup(ax, "title", "text")
            tsize = float(lookup(ax, "title", "font", "size", default=self.font_size))
            if title:
                if axis == "x":
                    y_t = top + ph + ticklen + 1.35 * tick_font + 0.2 * tsize
                    draw_text(draw, (left + pw / 2, y_t), title, tsize, self.font_color, "ma")
                else:
                    w_labels = max(
                        (text_size(tick_label(v, step), tick_font)[0] for v in ticks), default=0
                    )
                    x_t = left - ticklen - 9 - w_labels - 0.65 * tsize
                    tw, th = text_size(title, tsize)
                    pad = int(tsize)
                    tmp = Image.new("RGBA", (tw + 2 * pad, th + 2 * pad), (0, 0, 0, 0))
                    draw_text(
                        ImageDraw.Draw(tmp), (pad + tw / 2, pad + th / 2), title, tsize,
                        self.font_color, "mm",
                    )  # fmt: skip
                    rot = tmp.rotate(90, expand=True)
                    im.paste(
                        rot, (int(x_t - rot.width / 2), int(top + ph / 2 - rot.height / 2)), rot
                    )
        return im

    def _legend_items(self, fig: dict) -> list[dict]:
        if self.layout.get("showlegend") is False:
            return []
        items = []
        for tr in fig.get("data", []):
            kind = tr.get("type", "scatter")
            shown = tr.get("showlegend", kind != "heatmap")  # heatmaps: off unless asked
            if kind == "scatter" and decode_array(tr.get("x")).size == 0:
                shown = False  # plotly.js lists no trace without points
            if shown and tr.get("name"):
                items.append(tr)
        if len(items) == 1 and self.layout.get("showlegend") is None:
            return []  # plotly.js shows a legend for one trace only when asked
        return items

    def _legend(self, im: Image.Image, fig: dict) -> None:
        items = self._legend_items(fig)
        if not items:
            return
        draw = ImageDraw.Draw(im)
        leg = self.layout.get("legend") or {}
        size = self._legend_size()
        left, top, aw, ah = self.area
        x = left + float(leg.get("x", 0.0)) * aw
        row_h = self._row_h()
        rows = self._legend_rows(items, x)
        y_anchor = top + (1.0 - float(leg.get("y", 1.02))) * ah  # paper y → pixels
        bottom = leg.get("yanchor", "bottom") == "bottom"
        y_top = y_anchor - len(rows) * row_h if bottom else y_anchor
        for r, row in enumerate(rows):
            cy = y_top + (r + 0.5) * row_h
            cx = x
            for tr, w in row:
                self._legend_glyph(im, draw, tr, cx + 20, cy, size)
                draw_text(draw, (cx + 40, cy), tr["name"], size, self.font_color, "lm")
                cx += w

    def _legend_glyph(self, im, draw, tr, cx, cy, size) -> None:
        kind = tr.get("type", "scatter")
        line = tr.get("line") or {}
        if kind in ("contour", "heatmap") or "lines" in str(tr.get("mode", "")):
            col = rgba255(line.get("color") or "#444")
            width = min(float(line.get("width", 2)), 5.0)  # plotly.js's legend cap
            pts = np.array([[cx - 15, cy], [cx + 15, cy]])
            pattern = dash_pattern(line.get("dash"), width)
            for piece in dashed(pts, pattern) if pattern else [pts]:
                draw.line([tuple(p) for p in piece], fill=col, width=max(1, pixel(width)))
            if kind == "heatmap":
                scale = tr.get("colorscale") or []
                if scale:
                    c = rgba255(scale[len(scale) // 2][1])
                    draw.rectangle([cx - 15, cy - size / 3, cx + 15, cy + size / 3], fill=c)
        if "markers" in str(tr.get("mode", "markers")) and kind == "scatter":
            marker = tr.get("marker") or {}
            sz = marker.get("size", 6)
            sz = float(np.nanmean(decode_array(sz))) if not isinstance(sz, int | float) else sz
            sz = min(max(float(sz) if np.isfinite(sz) else 6.0, 2.0), 16.0)  # plotly.js's
            sprite = marker_sprite(*self._marker_style(tr, sz, legend=True))
            im.paste(sprite, (int(cx - sprite.width / 2), int(cy - sprite.height / 2)), sprite)

    def _marker_style(self, tr, size, *, legend: bool = False):
        """The :func:`_sprite` arguments of ``tr``'s markers at ``size`` px."""
        marker = tr.get("marker") or {}
        symbol = marker.get("symbol", "circle")
        fill = rgba255(marker.get("color") if isinstance(marker.get("color"), str) else "#1f77b4")
        mline = marker.get("line") or {}
        edge = rgba255(mline.get("color") or "#444")
        ew = float(mline.get("width", 0) or 0)
        if symbol.endswith("-open"):
            ew = ew if ew > 0 else max(1.0, size / 10)
            edge = fill
        if legend:
            ew = min(ew, 5.0)  # plotly.js's legend bounds the outline to [0, 5]
        bubble = not isinstance(marker.get("size", 6), int | float)
        opacity = float(marker.get("opacity", 0.7 if bubble else 1.0)) * float(
            tr.get("opacity", 1.0)
        )
        return symbol, round(float(size) * 2) / 2, fill, edge, round(ew * 4) / 4, opacity
