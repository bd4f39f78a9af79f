"""The parts of a region on the plane's grid, as the model in words names them
(svmlab.study.plane_words.regions): found from the runs of each row, they are the parts a
grid-point flood fill finds — same sizes, centres, border contact and order."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from svmlab.study.plane_words import REGION_GRID, regions

# Tolerance table ------------------------------------------------------------------------
TOL_MEAN = 1e-12  # a part's mean row / column: sums of integers divided once (rounding only)


def flood_fill_parts(mask: np.ndarray) -> list[dict]:
    """Reference: a breadth-first flood fill from each new grid point, row by row."""
    ny, nx = mask.shape
    seen = np.zeros_like(mask)
    parts = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        queue, cells = deque([start]), []
        while queue:
            r, c = queue.popleft()
            cells.append((r, c))
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < ny and 0 <= cc < nx and mask[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    queue.append((rr, cc))
        a = np.asarray(cells)
        edge = bool(
            (a[:, 0] == 0).any() or (a[:, 0] == ny - 1).any() or (a[:, 1] == 0).any()
            or (a[:, 1] == nx - 1).any()
        )  # fmt: skip
        parts.append({"size": len(cells), "rows": a[:, 0].mean(), "cols": a[:, 1].mean(),
                      "edge": edge})  # fmt: skip
    return sorted(parts, key=lambda p: -p["size"])


def _same(got, want):
    assert [p["size"] for p in got] == [p["size"] for p in want]
    assert [p["edge"] for p in got] == [p["edge"] for p in want]
    for g, w in zip(got, want, strict=True):
        assert g["rows"] == pytest.approx(w["rows"], abs=TOL_MEAN)
        assert g["cols"] == pytest.approx(w["cols"], abs=TOL_MEAN)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("density", [0.3, 0.5, 0.6])
def test_the_parts_are_the_flood_fills(seed, density):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 30)), int(rng.integers(1, 30)))
    mask = rng.random(shape) < density
    _same(regions(mask), flood_fill_parts(mask))


def test_u_shapes_spirals_and_touching_corners():
    u = np.zeros((6, 7), dtype=bool)
    u[1:5, 1] = u[1:5, 5] = True
    u[4, 1:6] = True  # a U: its arms join only in the last row
    diag = np.eye(5, dtype=bool)  # corners touch: 4-connected, five parts
    spiral = np.zeros((9, 9), dtype=bool)
    spiral[0, :] = spiral[:, 8] = spiral[8, :] = spiral[2:, 0] = True
    spiral[2, 0:7] = spiral[2:7, 6] = spiral[6, 2:7] = spiral[4:7, 2] = True
    for mask in (u, diag, spiral, np.ones((4, 4), bool), np.zeros((3, 3), bool)):
        _same(regions(mask), flood_fill_parts(mask))
    assert [p["size"] for p in regions(diag)] == [1] * 5


def test_a_planes_grid():
    xs = np.linspace(-3, 3, REGION_GRID)
    X1, X2 = np.meshgrid(xs, xs)
    for mask in (np.sin(2 * X1) * np.cos(2 * X2) > 0.2, X1 + 0.3 * X2 > 0.1):  # islands; halves
        _same(regions(mask), flood_fill_parts(mask))


def test_a_mask_must_be_a_grid():
    with pytest.raises(ValueError, match="mask"):
        regions(np.zeros(5, dtype=bool))
