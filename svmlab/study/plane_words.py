"""The plane's geometry in words, for :mod:`svmlab.study.describe`: numbers with true minus
signs, point numbers counted from 1, where a point lies (the plane in thirds), the parts
of a class's region (4-connected, on a coarse grid), where f = 0 crosses the plane's
edges, a line's equation and the side its normal vector points to. Pure: NumPy and
:mod:`svmlab.state`.
"""

from __future__ import annotations

import numpy as np

from svmlab.state.classes import CLASS_NAMES, CLASS_SHAPE_NAMES

__all__ = [
    "EDGES",
    "MAX_CROSSINGS",
    "MAX_LISTED",
    "REGION_GRID",
    "class_words",
    "coarse",
    "compass",
    "crossing_text",
    "direction",
    "edge_crossings",
    "edge_runs",
    "equation",
    "fmt",
    "gfmt",
    "line_crossings",
    "numbers",
    "point",
    "region_sentence",
    "regions",
]

#: Most point numbers listed in a sentence (training errors); more are counted.
MAX_LISTED = 10
#: Most boundary crossings of the edges listed.
MAX_CROSSINGS = 8
#: The region analysis runs on at most this many grid points per axis.
REGION_GRID = 60


def fmt(v: float, digits: int = 2) -> str:
    """A number with ``digits`` decimals and a true minus sign (−0 shows as 0)."""
    v = float(v) + 0.0
    text = f"{v:.{digits}f}"
    if float(text) == 0:
        text = f"{0:.{digits}f}"
    return text.replace("-", "−")


def gfmt(v: float) -> str:
    """A number with 3 significant digits and a true minus sign."""
    return f"{float(v) + 0.0:.3g}".replace("-", "−")


def point(x1: float, x2: float) -> str:
    return f"({fmt(x1)}, {fmt(x2)})"


def numbers(idx) -> str:
    """Point numbers counted from 1: "4, 17 and 55" (at most :data:`MAX_LISTED`)."""
    idx = [int(i) + 1 for i in np.asarray(idx).reshape(-1)]
    if len(idx) > MAX_LISTED:
        return ", ".join(map(str, idx[:MAX_LISTED])) + f" and {len(idx) - MAX_LISTED} more"
    if len(idx) <= 1:
        return "".join(map(str, idx))
    return ", ".join(map(str, idx[:-1])) + " and " + str(idx[-1])


def class_words(label: str, index: int) -> str:
    """A class as the plane draws it: ``"y = +1 (vermillion crosses)"``."""
    j = int(index) % len(CLASS_NAMES)
    return f"{label} ({CLASS_NAMES[j]} {CLASS_SHAPE_NAMES[j]})"


def compass(cx: float, cy: float, xrange, yrange) -> str:
    """Where (cx, cy) lies in the plane, in words: "the upper left", "the centre", …
    (the plane cut in thirds along each axis)."""
    (x0, x1), (y0, y1) = xrange, yrange
    u = (cx - x0) / (x1 - x0) if x1 > x0 else 0.5
    v = (cy - y0) / (y1 - y0) if y1 > y0 else 0.5
    col = 0 if u < 1 / 3 else (2 if u > 2 / 3 else 1)
    row = 0 if v < 1 / 3 else (2 if v > 2 / 3 else 1)
    names = {
        (2, 0): "the upper left",
        (2, 1): "the top",
        (2, 2): "the upper right",
        (1, 0): "the left",
        (1, 1): "the centre",
        (1, 2): "the right",
        (0, 0): "the lower left",
        (0, 1): "the bottom",
        (0, 2): "the lower right",
    }
    return names[(row, col)]


def regions(mask: np.ndarray) -> list[dict]:
    """The 4-connected parts of a boolean grid ``mask`` (rows = x₂, columns = x₁).

    Returns one dict per part, largest first (equal sizes in the order of their first
    grid point, row by row): ``size`` (grid points), ``rows`` and ``cols`` (mean row and
    column index) and ``edge`` (whether it touches the border).

    The parts are joined from the runs of True in each row (a run meets a run of the next
    row where their columns overlap): a few operations per run, not per grid point, so a
    plane's description costs little on every click.
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 2:
        raise ValueError(f"mask must be a 2-D grid, got shape {mask.shape}")
    ny, nx = mask.shape
    if not mask.any():
        return []
    # the runs of True, row by row: (row, first column, last column)
    pad = np.zeros((ny, 1), dtype=np.int8)
    d = np.diff(np.hstack([pad, mask.astype(np.int8), pad]), axis=1)
    r0, c0 = np.nonzero(d == 1)  # row-major: runs in the order of their first point
    _, c1 = np.nonzero(d == -1)
    c1 = c1 - 1
    m = len(r0)
    parent = list(range(m))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    rows_of = np.searchsorted(r0, np.arange(ny + 1))  # row r: runs rows_of[r]…rows_of[r+1]
    starts, ends = c0.tolist(), c1.tolist()
    for r in range(ny - 1):
        a, a_end = int(rows_of[r]), int(rows_of[r + 1])
        b, b_end = a_end, int(rows_of[r + 2])
        while a < a_end and b < b_end:  # two sorted lists of runs: overlaps in one pass
            if starts[a] <= ends[b] and starts[b] <= ends[a]:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)  # a part is named by its first run
            if ends[a] < ends[b]:
                a += 1
            else:
                b += 1
    root = np.asarray([find(j) for j in range(m)], dtype=np.int64)
    length = (c1 - c0 + 1).astype(np.int64)
    col_sum = (c0 + c1) * length // 2  # c0 + … + c1
    size = np.bincount(root, weights=length, minlength=m)
    row_sum = np.bincount(root, weights=r0 * length, minlength=m)
    col_total = np.bincount(root, weights=col_sum, minlength=m)
    touches = (r0 == 0) | (r0 == ny - 1) | (c0 == 0) | (c1 == nx - 1)
    edge = np.bincount(root, weights=touches.astype(float), minlength=m) > 0
    parts = [
        {
            "size": int(size[j]),
            "rows": float(row_sum[j] / size[j]),
            "cols": float(col_total[j] / size[j]),
            "edge": bool(edge[j]),
        }
        for j in np.unique(root).tolist()  # the parts in the order of their first run
    ]
    return sorted(parts, key=lambda p: -p["size"])


def coarse(xs, ys, Z, n: int = REGION_GRID):
    """Every s-th grid point so that at most ``n`` remain per axis (xs, ys, Z)."""
    s = max(1, int(np.ceil(max(len(xs), len(ys)) / n)))
    return np.asarray(xs)[::s], np.asarray(ys)[::s], np.asarray(Z)[::s, ::s]


def region_sentence(words: str, mask, xs, ys, xrange, yrange) -> str:
    """ "y = +1 (…): 48 % of the plane, one region in the upper right reaching the edges"."""
    share = 100.0 * float(np.mean(mask))
    if share == 0:
        return f"{words}: nowhere in the plane."
    parts = regions(mask)
    where = []
    for p in parts[:3]:
        cx = float(np.interp(p["cols"], np.arange(len(xs)), xs))
        cy = float(np.interp(p["rows"], np.arange(len(ys)), ys))
        if p["edge"]:
            where.append(f"mostly towards {compass(cx, cy, xrange, yrange)}, reaching the edges")
        else:
            where.append(f"an island inside the plane around {point(cx, cy)}")
    count = "one region" if len(parts) == 1 else f"{len(parts)} regions"
    more = "" if len(parts) <= 3 else f", and {len(parts) - 3} smaller ones"
    return f"{words}: {share:.0f} % of the plane, {count}: " + "; ".join(where) + more + "."


#: The plane's edges: name, which grid line, and the coordinate that varies along it.
EDGES = ("bottom", "top", "left", "right")


def edge_crossings(xs, ys, Z) -> list[tuple[str, float, float]]:
    """Where f = 0 crosses the plane's border: ``(edge, x₁, x₂)`` per sign change of ``Z``
    (rows = x₂, columns = x₁) along the border, linearly interpolated."""
    xs, ys, Z = np.asarray(xs, float), np.asarray(ys, float), np.asarray(Z, float)
    lines = {
        "bottom": (xs, Z[0, :], lambda s: (s, ys[0])),
        "top": (xs, Z[-1, :], lambda s: (s, ys[-1])),
        "left": (ys, Z[:, 0], lambda s: (xs[0], s)),
        "right": (ys, Z[:, -1], lambda s: (xs[-1], s)),
    }
    out = []
    for name in EDGES:
        pos, f, at = lines[name]
        side = f > 0  # the predicted class: f = 0 counts as the negative side
        for a in np.flatnonzero(side[:-1] != side[1:]):
            s = pos[a] + (pos[a + 1] - pos[a]) * f[a] / (f[a] - f[a + 1])
            out.append((name, *at(float(s))))
    return out


def line_crossings(w, b: float, xrange, yrange) -> list[tuple[str, float, float]]:
    """Where the line w₁x₁ + w₂x₂ + b = 0 meets the border of the plane (edge, x₁, x₂)."""
    (x0, x1), (y0, y1) = xrange, yrange
    w1, w2 = float(w[0]), float(w[1])
    out = []
    if w1 != 0:
        for name, yv in (("bottom", y0), ("top", y1)):
            xv = -(w2 * yv + b) / w1
            if x0 <= xv <= x1:
                out.append((name, xv, yv))
    if w2 != 0:
        for name, xv in (("left", x0), ("right", x1)):
            yv = -(w1 * xv + b) / w2
            if y0 < yv < y1:
                out.append((name, xv, yv))
    return out


def crossing_text(cross) -> str:
    shown = cross[:MAX_CROSSINGS]
    parts = [f"{point(x1, x2)} on the {edge} edge" for edge, x1, x2 in shown]
    more = f" and {len(cross) - MAX_CROSSINGS} more" if len(cross) > MAX_CROSSINGS else ""
    if len(parts) == 1:
        return parts[0] + more
    return ", ".join(parts[:-1]) + " and " + parts[-1] + more


def equation(w, b: float) -> str:
    """ "1.23 x₁ − 0.45 x₂ + 0.10 = 0"."""
    w1, w2 = float(w[0]), float(w[1])
    text = f"{fmt(w1)} x₁ {'−' if w2 < 0 else '+'} {fmt(abs(w2))} x₂"
    return text + f" {'−' if b < 0 else '+'} {fmt(abs(b))} = 0"


def direction(w) -> str:
    """The direction the normal vector w points to, in words ("the upper right")."""
    angle = np.degrees(np.arctan2(float(w[1]), float(w[0]))) % 360
    names = ("right", "upper right", "top", "upper left", "left", "lower left", "bottom")
    names += ("lower right",)
    return "the " + names[int(((angle + 22.5) % 360) // 45)]


def edge_runs(xs, ys, C, names) -> list[str]:
    """For each edge, the classes met along it: "top edge (x₂ = 3.00), left to right:
    class 0 up to x₁ = −0.41, then class 2"."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    edges = (
        ("top", f"x₂ = {fmt(ys[-1])}", "left to right", "x₁", xs, C[-1, :]),
        ("right", f"x₁ = {fmt(xs[-1])}", "top to bottom", "x₂", ys[::-1], C[::-1, -1]),
        ("bottom", f"x₂ = {fmt(ys[0])}", "left to right", "x₁", xs, C[0, :]),
        ("left", f"x₁ = {fmt(xs[0])}", "top to bottom", "x₂", ys[::-1], C[::-1, 0]),
    )
    out = []
    for name, fixed, order, coord, pos, c in edges:
        change = np.flatnonzero(c[1:] != c[:-1])
        text = names[int(c[0])]
        for a in change:
            mid = (pos[a] + pos[a + 1]) / 2
            text += f" up to {coord} ≈ {fmt(mid)}, then {names[int(c[a + 1])]}"
        out.append(f"{name} edge ({fixed}), {order}: {text}")
    return out
