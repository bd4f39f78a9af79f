"""Level lines of a function sampled on a grid (marching squares), as polylines.

The plane figure draws the boundary f(x) = 0 and the margins f(x) = ±1 as lines
computed here rather than as Plotly ``contour`` traces: a contour trace carries the whole
grid (r × r values) to the browser, which then traces the same lines itself; the lines
are a few hundred vertices. The crossings are where Plotly's contour puts them (linear
interpolation along each cell edge); Plotly then smooths its path, which at the plane's
120² grid moves it by less than a pixel.

Cells are squares of four grid values; a level crossing on an edge is placed by linear
interpolation; a saddle cell (diagonal corners on the same side) is resolved by the
mean of its four corners, the value at the cell's centre of the bilinear interpolant.
Cells with a NaN corner draw nothing. Segments that share an edge crossing are joined
into polylines, so that a dashed line keeps its dash pattern along the curve.
:func:`resample` puts a grid function on a coarser grid of the same extent (the plane's
shading needs fewer values than its lines).
"""

from __future__ import annotations

import numpy as np

__all__ = ["isolines", "resample"]

# Cell case (bit 1 bottom-left, 2 bottom-right, 4 top-right, 8 top-left above the level)
# -> segments between cell edges (0 bottom, 1 right, 2 top, 3 left). Saddles 5 and 10 are
# listed for a centre below the level; _SADDLE_ABOVE gives them for a centre above it.
_CASES = {
    1: ((3, 0),),
    2: ((0, 1),),
    3: ((3, 1),),
    4: ((1, 2),),
    5: ((3, 0), (1, 2)),
    6: ((0, 2),),
    7: ((3, 2),),
    8: ((2, 3),),
    9: ((0, 2),),
    10: ((0, 1), (2, 3)),
    11: ((1, 2),),
    12: ((3, 1),),
    13: ((0, 1),),
    14: ((3, 0),),
}
_SADDLE_ABOVE = {5: ((0, 1), (2, 3)), 10: ((3, 0), (1, 2))}


def _edge_table() -> np.ndarray:
    """(32, 2, 2): the sides of a cell's segments by ``2 · case + (centre above)``."""
    table = np.full((32, 2, 2), -1, dtype=np.int64)
    for c, segs in _CASES.items():
        for up in (0, 1):
            chosen = _SADDLE_ABOVE[c] if up and c in _SADDLE_ABOVE else segs
            table[2 * c + up, : len(chosen)] = chosen
    return table


_EDGES = _edge_table()


def _segments(Z: np.ndarray, level: float):
    """Edge-id pairs ``(a, b)`` (m,) of the level's segments, and each edge id's point."""
    ry, rx = Z.shape
    above = Z > level
    ok = np.isfinite(Z)
    # Crossing positions on the horizontal edges (i, j)-(i, j+1) and the vertical edges
    # (i, j)-(i+1, j), as a fraction of the edge from its first end.
    with np.errstate(divide="ignore", invalid="ignore"):
        th = (level - Z[:, :-1]) / (Z[:, 1:] - Z[:, :-1])
        tv = (level - Z[:-1, :]) / (Z[1:, :] - Z[:-1, :])
    n_h = ry * (rx - 1)
    cell_ok = ok[:-1, :-1] & ok[:-1, 1:] & ok[1:, :-1] & ok[1:, 1:]
    case = (
        above[:-1, :-1] * 1 + above[:-1, 1:] * 2 + above[1:, 1:] * 4 + above[1:, :-1] * 8
    ) * cell_ok
    centre_above = (Z[:-1, :-1] + Z[:-1, 1:] + Z[1:, 1:] + Z[1:, :-1]) / 4 > level
    i, j = np.nonzero((case > 0) & (case < 15))
    edge_ids = np.stack(
        [
            i * (rx - 1) + j,  # bottom: horizontal edge (i, j)
            n_h + i * rx + j + 1,  # right: vertical edge (i, j + 1)
            (i + 1) * (rx - 1) + j,  # top: horizontal edge (i + 1, j)
            n_h + i * rx + j,  # left: vertical edge (i, j)
        ],
        axis=1,
    )
    # each cell's one or two segments (by its case and, for a saddle, its centre), in the
    # order of the cells and then of their segments: whole arrays, no loop over the cells
    e = _EDGES[case[i, j] * 2 + centre_above[i, j]]  # (m, 2, 2) sides; −1: no 2nd segment
    rows = np.arange(len(i))[:, None]
    a = edge_ids[rows, np.maximum(e[:, :, 0], 0)]
    b = edge_ids[rows, np.maximum(e[:, :, 1], 0)]
    has = e[:, :, 0] >= 0
    return a[has].astype(np.int64), b[has].astype(np.int64), th, tv, n_h


def _points(ids: np.ndarray, xs, ys, th, tv, n_h: int, rx: int):
    """The crossing point of each edge id (horizontal ids first, then vertical)."""
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    px = np.empty(ids.size)
    py = np.empty(ids.size)
    h = ids < n_h
    i, j = np.divmod(ids[h], rx - 1)
    t = th[i, j]
    px[h] = xs[j] + t * (xs[j + 1] - xs[j])
    py[h] = ys[i]
    i, j = np.divmod(ids[~h] - n_h, rx)
    t = tv[i, j]
    px[~h] = xs[j]
    py[~h] = ys[i] + t * (ys[i + 1] - ys[i])
    return px, py


def _chains(a: np.ndarray, b: np.ndarray) -> list[list[int]]:
    """Join segments (a[s], b[s]) that share an end into chains of edge ids."""
    a, b = a.tolist(), b.tolist()  # Python ints: the walk reads them one at a time
    ends: dict[int, list[int]] = {}
    for s, (u, v) in enumerate(zip(a, b, strict=True)):
        ends.setdefault(u, []).append(s)
        ends.setdefault(v, []).append(s)
    used = [False] * len(a)
    chains = []

    def walk(start: int, s: int) -> list[int]:
        chain = [start]
        node = start
        while True:
            used[s] = True
            node = b[s] if a[s] == node else a[s]
            chain.append(node)
            nxt = [t for t in ends[node] if not used[t]]
            if not nxt:
                return chain
            s = nxt[0]

    # Open chains first (they start at the grid's edge or at a NaN cell), then loops.
    for node, segs in ends.items():
        if len(segs) == 1 and not used[segs[0]]:
            chains.append(walk(node, segs[0]))
    for s in range(len(a)):
        if not used[s]:
            chains.append(walk(a[s], s))
    return chains


def isolines(xs, ys, Z, levels) -> tuple[np.ndarray, np.ndarray]:
    """The lines where the grid function ``Z`` equals each of ``levels``.

    Parameters
    ----------
    xs : (rx,) increasing grid coordinates along x.
    ys : (ry,) increasing grid coordinates along y.
    Z : (ry, rx) values, ``Z[i, j]`` at ``(xs[j], ys[i])``; NaN cells draw nothing.
    levels : float or sequence of floats.

    Returns
    -------
    x, y : (m,) float arrays
        The polylines one after the other, each followed by a NaN (Plotly draws a gap
        there); empty if no level is crossed.
    """
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape != (len(ys), len(xs)):
        raise ValueError(f"Z must have shape (len(ys), len(xs)), got {Z.shape}")
    if min(Z.shape) < 2:
        return np.empty(0), np.empty(0)
    out_x, out_y = [], []
    for level in np.atleast_1d(np.asarray(levels, dtype=float)):
        a, b, th, tv, n_h = _segments(Z, float(level))
        if a.size == 0:
            continue
        for chain in _chains(a, b):
            px, py = _points(np.asarray(chain), xs, ys, th, tv, n_h, Z.shape[1])
            out_x += [px, [np.nan]]
            out_y += [py, [np.nan]]
    if not out_x:
        return np.empty(0), np.empty(0)
    return np.concatenate(out_x), np.concatenate(out_y)


def resample(xs, ys, Z, resolution: int):
    """``Z`` on a grid of ``resolution`` points per axis over the same extent (bilinear).

    Returns ``xs, ys, Z`` unchanged when the grid is no finer than that.
    """
    Z = np.asarray(Z, dtype=float)
    if max(Z.shape) <= resolution or min(Z.shape) < 2:
        return xs, ys, Z

    def axis(n: int):  # source positions of the new samples: index i and weight w of i + 1
        p = np.linspace(0.0, n - 1.0, resolution)
        i = np.minimum(p.astype(np.int64), n - 2)
        return i, p - i

    iy, wy = axis(Z.shape[0])
    ix, wx = axis(Z.shape[1])
    rows = Z[iy] * (1 - wy)[:, None] + Z[iy + 1] * wy[:, None]
    Zr = rows[:, ix] * (1 - wx) + rows[:, ix + 1] * wx
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    return (
        np.linspace(xs[0], xs[-1], resolution),
        np.linspace(ys[0], ys[-1], resolution),
        Zr,
    )
