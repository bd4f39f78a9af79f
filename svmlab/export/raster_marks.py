"""The marks of :mod:`svmlab.export.raster`: Plotly's arrays and colours decoded, text in
Liberation Sans (else DejaVu Sans), plotly.js's automatic ticks and dash lengths, and
marker sprites (circle, x, square, diamond, triangle-up, star, open or filled), drawn
4× and reduced so that they are anti-aliased; :func:`supported` says which figures the
rasterizer draws.
"""

from __future__ import annotations

import base64
import math
import re
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "SYMBOLS",
    "axis_ticks",
    "color",
    "colorscale_lut",
    "dash_pattern",
    "dashed",
    "decode_array",
    "draw_text",
    "lookup",
    "marker_sprite",
    "pixel",
    "rgba255",
    "supported",
    "text_size",
    "tick_label",
]

SYMBOLS = ("circle", "x", "square", "diamond", "triangle-up", "star")
_FONT_FILES = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
_FALLBACK_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_MINUS = "\u2212"


# -- data ---------------------------------------------------------------------------------


def decode_array(value) -> np.ndarray:
    """A Plotly array: a list, an ndarray or plotly's typed-array dict (dtype, bdata, shape)."""
    if isinstance(value, dict) and "bdata" in value:
        raw = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if shape:
            dims = [int(s) for s in str(shape).split(",")]
            raw = raw.reshape(dims)
        return raw.astype(float)
    if value is None:
        return np.empty(0)
    arr = np.asarray(value)
    if arr.dtype == object:
        arr = np.asarray([np.nan if v is None else v for v in arr.ravel()]).reshape(arr.shape)
    return arr.astype(float)


_RGBA = re.compile(r"rgba?\(([^)]*)\)")
_NAMED = {"black": (0, 0, 0), "white": (255, 255, 255), "transparent": (0, 0, 0)}


@lru_cache(maxsize=512)
def color(value, default=(0, 0, 0, 1.0)) -> tuple[int, int, int, float]:
    """(r, g, b, alpha) of a CSS colour as Plotly writes them (#rgb, #rrggbb, rgb(), rgba())."""
    if not isinstance(value, str):
        return default
    v = value.strip().lower()
    if v == "transparent":
        return (0, 0, 0, 0.0)
    if v in _NAMED:
        return (*_NAMED[v], 1.0)
    m = _RGBA.fullmatch(v)
    if m:
        parts = [p.strip() for p in m.group(1).split(",")]
        rgb = tuple(pixel(float(p.rstrip("%"))) for p in parts[:3])
        alpha = float(parts[3]) if len(parts) > 3 else 1.0
        return (*rgb, alpha)
    try:
        from PIL import ImageColor

        return (*ImageColor.getrgb(v)[:3], 1.0)
    except ValueError:
        return default


def lookup(d, *keys, default=None):
    for key in keys:
        if not isinstance(d, dict) or key not in d:
            return default
        d = d[key]
    return d


def colorscale_lut(scale, n: int = 256) -> np.ndarray:
    """(n, 4) float RGBA of a Plotly colour scale [[t, colour], …] sampled at t = i/(n−1)
    (linear between stops; a repeated stop is a step, as in a discrete scale)."""
    stops = np.array([float(s[0]) for s in scale])
    cols = np.array([color(s[1]) for s in scale], dtype=float)
    t = np.linspace(0.0, 1.0, n)
    out = np.empty((n, 4))
    for c in range(4):
        out[:, c] = np.interp(t, stops, cols[:, c])
    return out


# -- fonts and text -------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(size: float, path: str | None = None):
    px = max(1, pixel(size))
    for candidate in (path,) if path else _FONT_FILES:
        try:
            return ImageFont.truetype(candidate, px)
        except OSError:
            continue
    return ImageFont.load_default(px)


def _ink(font, ch: str) -> bytes:
    im = Image.new("L", (font.size * 2, font.size * 2), 0)
    ImageDraw.Draw(im).text((0, 0), ch, font=font, fill=255)
    return im.tobytes()


@lru_cache(maxsize=2048)
def _has_glyph(size: int, ch: str) -> bool:
    """Whether Liberation Sans (or the first font found) draws ``ch`` (not its .notdef)."""
    font = _font(size)
    return ch.isspace() or _ink(font, ch) != _ink(font, "\uffff")


def text_font(text: str, size: float):
    """The first font with every glyph of ``text`` (Liberation Sans, else DejaVu Sans)."""
    px = max(1, pixel(size))
    if all(_has_glyph(px, ch) for ch in text):
        return _font(size)
    return _font(size, _FALLBACK_FONT)


def text_size(text: str, size: float) -> tuple[int, int]:
    left, top, right, bottom = text_font(text, size).getbbox(text)
    return right - left, bottom - top


def draw_text(draw, xy, text, size, fill, anchor="la"):
    if text:
        draw.text(xy, text, font=text_font(text, size), fill=fill, anchor=anchor)


# -- geometry -------------------------------------------------------------------------------


def nice_step(rough: float) -> float:
    """plotly.js's automatic tick step: the smallest of 1, 2, 5 × 10ᵏ at least ``rough``."""
    if not rough > 0:
        return 1.0
    base = 10.0 ** math.floor(math.log10(rough))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * base >= rough * (1 - 1e-9):
            return m * base
    return 10.0 * base


def axis_ticks(lo: float, hi: float, length_px: float, axis: str) -> list[float]:
    """Tick values in [lo, hi] as plotly.js picks them (4–9 intervals by the axis length)."""
    min_px = 40.0 if axis == "y" else 80.0
    n = min(max(length_px / min_px, 4.0), 9.0) + 1.0
    step = nice_step((hi - lo) / n)
    first = math.ceil(lo / step - 1e-9)
    out = []
    k = first
    while k * step <= hi + 1e-9 * step:
        out.append(k * step)
        k += 1
    return out


def tick_label(v: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    text = f"{v:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "0"):
        return "0"
    return text.replace("-", _MINUS)


# -- dashes and markers ---------------------------------------------------------------------


def dash_pattern(dash, width: float) -> list[float] | None:
    """plotly.js's dash lengths (Drawing.dashStyle) for a line of ``width`` px."""
    if dash in (None, "solid"):
        return None
    w = max(width, 3.0)
    patterns = {
        "dot": [w, w],
        "dash": [3 * w, 3 * w],
        "longdash": [5 * w, 5 * w],
        "dashdot": [3 * w, w, w, w],
        "longdashdot": [5 * w, 2 * w, w, 2 * w],
    }
    if dash in patterns:
        return patterns[dash]
    try:  # "5px,10px" or "5,10"
        return [float(p.strip().rstrip("px")) for p in str(dash).split(",") if p.strip()]
    except ValueError:
        return None


def dashed(points: np.ndarray, pattern: list[float]) -> list[np.ndarray]:
    """The "on" pieces of the polyline ``points`` (m, 2) under a dash ``pattern`` (px)."""
    seg = np.diff(points, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    cum = np.concatenate([[0.0], np.cumsum(lengths)])
    total = cum[-1]
    period = sum(pattern)
    if total <= 0 or period <= 0:
        return [points]
    pieces = []
    start, on, k = 0.0, True, 0
    while start < total:
        end = min(start + pattern[k % len(pattern)], total)
        if on:
            s = np.linspace(start, end, max(2, int((end - start) // 4) + 2))
            xs = np.interp(s, cum, points[:, 0])
            ys = np.interp(s, cum, points[:, 1])
            # keep the vertices inside the dash so that it follows the curve
            inner = np.flatnonzero((cum > start) & (cum < end))
            if inner.size:
                s_all = np.concatenate([s, cum[inner]])
                order = np.argsort(s_all)
                xs = np.concatenate([xs, points[inner, 0]])[order]
                ys = np.concatenate([ys, points[inner, 1]])[order]
            pieces.append(np.column_stack([xs, ys]))
        start, on, k = end, not on, k + 1
    return pieces


def marker_polygon(symbol: str, r: float) -> list[tuple[float, float]] | None:
    """Vertices of a marker of radius ``r`` around (0, 0) (plotly.js's shapes), or None
    for a circle."""
    if symbol == "circle":
        return None
    if symbol == "square":
        return [(-r, -r), (r, -r), (r, r), (-r, r)]
    if symbol == "diamond":
        d = r * 1.3
        return [(0, -d), (d, 0), (0, d), (-d, 0)]
    if symbol == "triangle-up":
        t = r * 2 / math.sqrt(3)
        return [(-t, r / 2), (t, r / 2), (0, -r)]
    if symbol == "star":
        pts = []
        for i in range(10):
            rad = r * 1.2 if i % 2 == 0 else r * 0.5
            ang = -math.pi / 2 + i * math.pi / 5
            pts.append((rad * math.cos(ang), rad * math.sin(ang)))
        return pts
    if symbol == "x":  # plotly.js's "x": a cross through points rx = 0.8 r/√2 off-centre
        q = r * 0.8 / math.sqrt(2)
        return [
            (0, q), (q, 2 * q), (2 * q, q), (q, 0), (2 * q, -q), (q, -2 * q),
            (0, -q), (-q, -2 * q), (-2 * q, -q), (-q, 0), (-2 * q, q), (-q, 2 * q),
        ]  # fmt: skip
    return None


@lru_cache(maxsize=4096)
def marker_sprite(
    symbol: str, size: float, fill, edge, edge_width: float, opacity: float = 1.0
) -> Image.Image:
    """An RGBA marker of diameter ``size`` px (drawn 4× and reduced: anti-aliased), with
    its ``opacity`` (plotly.js: 0.7 for markers whose sizes vary, "bubbles")."""
    k = 4
    open_ = symbol.endswith("-open")
    shape = symbol[: -len("-open")] if open_ else symbol
    r = size / 2 * k
    ew = edge_width * k
    half = math.ceil(r * 1.35 + ew + 2 * k)
    im = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    poly = marker_polygon(shape, r)
    if open_:  # outline only, in the marker's colour (plotly.js: line width = marker's)
        width = max(1, pixel(ew if ew > 0 else k))
        if poly is None:
            draw.ellipse([half - r, half - r, half + r, half + r], outline=fill, width=width)
        else:
            pts = [(half + x, half + y) for x, y in poly]
            draw.line([*pts, pts[0]], fill=fill, width=width, joint="curve")
    else:
        outline = edge if ew > 0 else None
        width = max(1, pixel(ew)) if ew > 0 else 0
        if poly is None:
            draw.ellipse(
                [half - r, half - r, half + r, half + r], fill=fill, outline=outline, width=width
            )
        else:
            pts = [(half + x, half + y) for x, y in poly]
            draw.polygon(pts, fill=fill, outline=outline, width=width)
    im = im.reduce(k)
    if opacity < 1.0:
        im.putalpha(im.getchannel("A").point(lambda a: int(a * opacity)))
    return im


def pixel(v) -> int:
    """``v`` rounded to the nearest integer (pixels)."""
    return int(np.rint(v))


def rgba255(c) -> tuple[int, int, int, int]:
    r, g, b, a = color(c) if isinstance(c, str) else c
    return (int(r), int(g), int(b), pixel(255 * a))


# -- support --------------------------------------------------------------------------------


def supported(fig: dict) -> bool:
    """True when every trace and layout feature of the still ``fig`` is drawn here."""
    layout = fig.get("layout", {})
    if any(layout.get(k) for k in ("annotations", "shapes", "images")):
        return False
    if any(key.startswith(("xaxis", "yaxis")) and key not in ("xaxis", "yaxis") for key in layout):
        return False
    for ax in ("xaxis", "yaxis"):
        a = layout.get(ax) or {}
        if a.get("type") not in (None, "linear", "-") or not a.get("range"):
            return False
    for tr in fig.get("data", []):
        kind = tr.get("type", "scatter")
        if kind not in ("scatter", "contour", "heatmap"):
            return False
        if tr.get("xaxis", "x") != "x" or tr.get("yaxis", "y") != "y":
            return False
        if kind == "scatter":
            mode = tr.get("mode", "markers")
            if any(part not in ("markers", "lines") for part in str(mode).split("+")):
                return False
            symbol = lookup(tr, "marker", "symbol", default="circle")
            if not isinstance(symbol, str):
                return False
            if symbol.removesuffix("-open") not in SYMBOLS:
                return False
            if tr.get("fill") not in (None, "none") or tr.get("text") is not None:
                return False
        else:
            if kind == "contour" and lookup(tr, "contours", "coloring", default="fill") not in (
                "heatmap",
                "fill",
                "none",
                "lines",
            ):
                return False
            if tr.get("zsmooth") not in (None, False):
                return False
    return True
