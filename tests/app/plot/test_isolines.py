"""Level lines on a grid (svmlab.plot.isolines): the plane's boundary f = 0 and margins f = ±1.

On a linear f the traced line is exact; on a circle the vertices lie within the grid's
interpolation error of the radius; consecutive vertices of one polyline lie in one cell.
"""

import numpy as np
import pytest

from svmlab.plot.figures import grid
from svmlab.plot.isolines import isolines, resample

# Tolerance table ------------------------------------------------------------------------
TOL_LINEAR = 1e-12  # linear f: each crossing is exact up to rounding (linear interpolation
# along the cell edges is exact)
TOL_CIRCLE = 5e-3  # radius error of a 120-point grid over [−3, 3] (h = 0.05): the grid's
# interpolation error, h²-order of the radius


def _field(fn, res=120, extent=((-3.0, 3.0), (-3.0, 3.0))):
    xs, ys, G = grid(*extent, res)
    return xs, ys, fn(G[:, 0], G[:, 1]).reshape(len(ys), len(xs))


def _polylines(x, y):
    """The polylines of an isolines() answer (split at the NaN after each)."""
    cuts = np.flatnonzero(np.isnan(x))
    assert cuts.size and cuts[-1] == x.size - 1, "every polyline ends with a NaN"
    starts = np.r_[0, cuts[:-1] + 1]
    return [np.column_stack([x[a:b], y[a:b]]) for a, b in zip(starts, cuts, strict=True)]


@pytest.mark.parametrize("level", [-1.0, 0.0, 1.0, 0.37])
def test_a_linear_function_gives_its_exact_line_across_the_plane(level):
    xs, ys, Z = _field(lambda a, b: 0.7 * a - 1.3 * b + 0.2)
    (line,) = _polylines(*isolines(xs, ys, Z, level))
    assert np.abs(0.7 * line[:, 0] - 1.3 * line[:, 1] + 0.2 - level).max() <= TOL_LINEAR
    ends = line[[0, -1]]  # an open line: both ends on the plane's edge
    on_edge = np.isclose(ends[:, 0], [[-3], [3]]).any(0) | np.isclose(ends[:, 1], [[-3], [3]]).any(
        0
    )
    assert on_edge.all()


def test_a_circle_is_one_closed_line_of_the_right_radius():
    xs, ys, Z = _field(lambda a, b: np.hypot(a, b) - 1.5)
    (loop,) = _polylines(*isolines(xs, ys, Z, 0.0))
    assert np.array_equal(loop[0], loop[-1])  # closed
    assert np.abs(np.hypot(loop[:, 0], loop[:, 1]) - 1.5).max() <= TOL_CIRCLE
    h = xs[1] - xs[0]
    assert np.hypot(*np.diff(loop, axis=0).T).max() <= h * np.sqrt(2) + 1e-12  # one cell apart
    angles = np.unwrap(np.arctan2(loop[:, 1], loop[:, 0]))
    assert abs(angles[-1] - angles[0]) == pytest.approx(2 * np.pi)  # goes round once


def test_several_levels_and_separate_components():
    # two bumps: each level set near the top is two loops
    xs, ys, Z = _field(
        lambda a, b: np.exp(-((a - 1.5) ** 2 + b**2)) + np.exp(-((a + 1.5) ** 2 + b**2))
    )
    assert len(_polylines(*isolines(xs, ys, Z, 0.5))) == 2
    x, y = isolines(xs, ys, Z, [0.3, 0.5])
    assert len(_polylines(x, y)) == 4


def test_a_saddle_gives_two_crossing_lines():
    xs, ys, Z = _field(lambda a, b: a * b, res=121)  # the axes are grid lines
    x, y = isolines(xs, ys, Z, 0.0)
    pts = np.column_stack([x, y])[~np.isnan(x)]
    assert np.minimum(np.abs(pts[:, 0]), np.abs(pts[:, 1])).max() <= TOL_LINEAR


def test_no_crossing_nan_cells_and_bad_shapes():
    xs, ys, Z = _field(lambda a, b: a + 10.0)
    x, y = isolines(xs, ys, Z, 0.0)
    assert x.size == 0 and y.size == 0
    xs, ys, Z = _field(lambda a, b: a)
    Z[:, :60] = np.nan  # the left half unknown: the line x = 0 lies there
    x, _ = isolines(xs, ys, Z, 0.0)
    assert x.size == 0
    with pytest.raises(ValueError, match="shape"):
        isolines(xs, ys[:-1], Z, 0.0)


def test_resample_keeps_the_extent_and_is_exact_on_linear_fields():
    xs, ys, Z = _field(lambda a, b: 2 * a - b + 0.5, extent=((-3.0, 3.0), (-1.0, 2.0)))
    xr, yr, Zr = resample(xs, ys, Z, 60)
    A, B = np.meshgrid(xr, yr)
    assert Zr.shape == (60, 60) and (xr[0], xr[-1], yr[0], yr[-1]) == (-3.0, 3.0, -1.0, 2.0)
    assert np.abs(Zr - (2 * A - B + 0.5)).max() <= TOL_LINEAR
    assert resample(xs[:30], ys[:30], Z[:30, :30], 60)[2].shape == (30, 30)  # not finer


def _cell_by_cell_segments(Z, level):
    """Reference: each crossed cell's segments from the case table, one cell at a time."""
    from svmlab.plot.isolines import _CASES, _SADDLE_ABOVE

    ry, rx = Z.shape
    n_h = ry * (rx - 1)
    a, b = [], []
    for i in range(ry - 1):
        for j in range(rx - 1):
            corners = (Z[i, j], Z[i, j + 1], Z[i + 1, j + 1], Z[i + 1, j])
            if not all(np.isfinite(corners)):
                continue
            c = sum(1 << k for k, v in enumerate(corners) if v > level)
            if c in (0, 15):
                continue
            up = sum(corners) / 4 > level
            ids = (i * (rx - 1) + j, n_h + i * rx + j + 1, (i + 1) * (rx - 1) + j, n_h + i * rx + j)
            for e0, e1 in _SADDLE_ABOVE[c] if up and c in _SADDLE_ABOVE else _CASES[c]:
                a.append(ids[e0])
                b.append(ids[e1])
    return a, b


@pytest.mark.parametrize("seed", range(6))
def test_the_segments_are_the_case_tables_cell_by_cell(seed):
    # whole-array segments (no loop over the cells): the same segments in the same order,
    # saddles and cells with a NaN corner included
    from svmlab.plot.isolines import _segments

    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(int(rng.integers(2, 25)), int(rng.integers(2, 25))))
    Z[rng.random(Z.shape) < 0.05] = np.nan
    for level in (-0.5, 0.0, 0.7):
        a, b, *_ = _segments(Z, level)
        ra, rb = _cell_by_cell_segments(Z, level)
        assert a.tolist() == ra and b.tolist() == rb
