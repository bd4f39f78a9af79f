"""The plane: its axis ranges (fitted to the points, stable under clicks) and its grid.

Pure NumPy: the canvas session keeps the range, the figures evaluate models on the grid.
"""

from __future__ import annotations

import numpy as np

__all__ = ["grid", "plane_range", "stable_range"]


def plane_range(X, pad: float = 0.15, min_span: float = 2.0):
    """Fixed axis ranges ``((x0, x1), (y0, y1))`` around the points, padded."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if X.shape[0] == 0:
        return (-3.0, 3.0), (-3.0, 3.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    centre, span = (lo + hi) / 2, np.maximum(hi - lo, min_span) * (1 + 2 * pad)
    r = [(float(c - s / 2), float(c + s / 2)) for c, s in zip(centre, span, strict=True)]
    return r[0], r[1]


def stable_range(X, current=None, *, pad: float = 0.15, min_span: float = 2.0):
    """The plane's axes after an edit: ``current`` kept unless a point lies outside it.

    ``current`` is the range shown so far (``((x0, x1), (y0, y1))`` or None). While every
    point of ``X`` lies inside it, it is returned unchanged — a click can only land inside
    the plot, so clicking never rescales the axes under the pointer. When points leave it
    (an import, a table edit, an undo), it grows to the union of ``current`` and
    :func:`plane_range` of ``X`` (which adds a ``pad`` margin around the points); it never
    shrinks. ``current=None`` (a fresh session, a preset load, a clear) gives
    :func:`plane_range`.
    """
    fresh = plane_range(X, pad=pad, min_span=min_span)
    if current is None:
        return fresh
    (x0, x1), (y0, y1) = (tuple(float(v) for v in r) for r in current)
    if not (x0 < x1 and y0 < y1 and np.isfinite([x0, x1, y0, y1]).all()):
        return fresh
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    X = X[np.isfinite(X).all(axis=1)]
    inside = ((X[:, 0] >= x0) & (X[:, 0] <= x1) & (X[:, 1] >= y0) & (X[:, 1] <= y1)).all()
    if inside:
        return (x0, x1), (y0, y1)
    (fx0, fx1), (fy0, fy1) = fresh
    return (min(x0, fx0), max(x1, fx1)), (min(y0, fy0), max(y1, fy1))


def grid(xrange, yrange, resolution: int):
    """Grid points: ``xs`` (r,), ``ys`` (r,), ``G`` (r·r, 2) in row-major order (y, x)."""
    xs = np.linspace(xrange[0], xrange[1], resolution)
    ys = np.linspace(yrange[0], yrange[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])
