"""The model in words (svmlab.study.describe): what it says is what the run's numbers are.

Each statement is checked against the view it describes: the linear boundary's equation
is w₁x₁ + w₂x₂ + b = 0 with the run's w and b (and its edge points lie on that line and on
the plane's border), the margin is Lin's 1/‖w‖ (seed 003), the support vectors are the
ringed points (free and bounded for the dual), the largest α names its point counted from
1 (as the texts count), and the training errors are the points with sign f(x) ≠ y.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.pseudocode import Line, active_lines
from svmlab.study.describe import alpha_table, describe_model, narrate_step, summary_line
from svmlab.study.plane_words import edge_crossings, equation, line_crossings, regions

# Tolerance table ------------------------------------------------------------------------
TOL_ON_LINE = 1e-9  # an edge crossing put into w₁x₁ + w₂x₂ + b (rounding only)
TOL_PRINTED = 2e-3  # the margin as printed (3 significant digits) vs 1/‖w‖, relative

PLANE = ((-3.0, 3.0), (-3.0, 3.0))
RES = 120


def _describe(key, X, y, params, k=None):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    view = spec.view(result, X, y)
    k = view.n_snapshots - 1 if k is None else k
    values = view.grid_values(*PLANE, RES, k)
    text = describe_model(view, X, y, k, values=values, xrange=PLANE[0], yrange=PLANE[1])
    return text, view, k


def _number(text, pattern):
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return float(m.group(1).replace("−", "-").replace(",", ""))


def test_linear_pegasos_states_its_equation_margin_support_vectors_and_errors():
    X, y = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    text, view, k = _describe("pegasos", X, y, dict(lam=0.01, T=1000, random_state=0))
    w, b = view.coef[k], float(view.b[k])
    assert equation(w, b) in text
    assert f"w = ({w[0]:.2f}, {w[1]:.2f})".replace("-", "−") in text
    margin = _number(text, r"1/‖w‖ = ([−\d.]+)")
    assert margin == pytest.approx(1 / np.linalg.norm(w), rel=TOL_PRINTED)
    assert f"Support vectors: {int(view.support[k].sum())} points with y f(x) ≤ 1" in text
    f = X @ w + b
    wrong = np.flatnonzero(np.where(f > 0, 1, -1) != y)
    assert f"Training errors: {wrong.size} of 100 points" in text
    assert f"points {wrong[0] + 1}, {wrong[1] + 1}," in text, "point numbers counted from 1"
    first = summary_line(text)
    assert first.startswith("Plane, the model at t = 1,000") and "\n" not in first


def test_line_crossings_lie_on_the_line_and_on_the_border():
    w, b = np.array([1.45, -2.38]), 0.3
    cross = line_crossings(w, b, *PLANE)
    assert len(cross) == 2
    for edge, x1, x2 in cross:
        assert w[0] * x1 + w[1] * x2 + b == pytest.approx(0, abs=TOL_ON_LINE)
        on = {"left": x1 == -3, "right": x1 == 3, "bottom": x2 == -3, "top": x2 == 3}
        assert on[edge]


def test_grid_crossings_find_a_vertical_boundary_on_the_top_and_bottom_edges():
    xs = ys = np.linspace(-3, 3, 61)
    Z = np.tile(xs - 0.5, (61, 1))  # f(x) = x₁ − 0.5: rows are x₂
    cross = edge_crossings(xs, ys, Z)
    assert sorted(c[0] for c in cross) == ["bottom", "top"]
    assert all(c[1] == pytest.approx(0.5) for c in cross)


def test_regions_finds_parts_and_whether_they_reach_the_edge():
    mask = np.zeros((10, 10), dtype=bool)
    mask[0:3, 0:3] = True  # a corner: reaches the edge
    mask[5:7, 5:7] = True  # an island
    parts = regions(mask)
    assert [p["size"] for p in parts] == [9, 4]
    assert [p["edge"] for p in parts] == [True, False]


def test_dual_svm_counts_free_and_bounded_and_names_the_largest_alpha_from_one():
    X, y = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    params = dict(C=1.0, kernel="rbf", gamma=1.0, solver="smo", tol=1e-3)
    text, view, k = _describe("dual_svm", X, y, params)
    rings = view.rings(k)
    nf, nb = len(rings["free"]), len(rings["bounded"])
    assert f"Support vectors (α_n > 0): {nf + nb} — {nf} free" in text
    assert f"and {nb} bounded (α_n = C = 1" in text
    j = int(np.argmax(view.alpha[k]))
    assert f"the first point {j + 1}," in text or f"point {j + 1}," in text
    assert "in the feature space" in text, "a kernel's margin is in its feature space"


def test_a_circle_is_described_as_a_closed_boundary_around_an_island():
    X, y = svmcore.datasets.load("circles", n=100, noise=0.05, random_state=0, factor=0.4)
    params = dict(C=10.0, kernel="rbf", gamma=2.0, solver="smo", tol=1e-3)
    text, _, _ = _describe("dual_svm", X, y, params)
    assert "closed curves inside the plane" in text
    assert "an island inside the plane around" in text


def test_multiclass_regions_and_edges_are_named_by_class():
    X, y = svmcore.datasets.load("k_blobs", k=3, random_state=0)
    params = dict(eta=0.1, bias=True, T=2000, averaging="average", random_state=0)
    text, view, k = _describe("multiclass_sgd", X, y, params)
    assert summary_line(text).endswith(" points.")
    for c in np.unique(y):
        assert f"Regions: class {c} (" in text
    assert "Along the edges: top edge (x₂ = 3.00), left to right: class" in text
    pred = view.classes[np.argmax(view.train_values(k), axis=1)]
    assert f"Training errors: {int(np.sum(pred != y))}" in text or "none" in text


def test_snapshot_out_of_range_is_refused():
    X, y = svmcore.datasets.load("moons", n=40, noise=0.15, random_state=0)
    spec = ALGORITHMS["pegasos"]
    view = spec.view(spec.fit(X, y, dict(lam=0.1, T=100, random_state=0)), X, y)
    values = view.grid_values(*PLANE, 20, 0)
    with pytest.raises(ValueError, match="k must be"):
        describe_model(view, X, y, view.n_snapshots, values=values, xrange=(-3, 3), yrange=(-3, 3))


def test_alpha_table_numbers_points_from_one_and_marks_free_and_bounded():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    table = alpha_table([0.0, 0.5, 1.0], [-1, 1, 1], X, C=1.0)
    assert table["point"] == [1, 2, 3]
    assert table["status"] == ["α = 0", "free (0 < α < C)", "bounded (α = C)"]
    assert "status" not in alpha_table([0.0, 0.5, 1.0], [-1, 1, 1], X)
    with pytest.raises(ValueError, match="one row per point"):
        alpha_table([0.0, 0.5], [-1, 1, 1], X)


def test_step_narration_says_the_rows_and_the_line_that_ran():
    lines = [
        Line("for t = 1, 2, …, T do", "step"),
        Line("    if y_i ⟨w_t, x_i⟩ < 1 then", "step"),
        Line("        w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i", "update"),
        Line("    else", "skip"),
        Line("        w_{t+1} = (1 − η_t λ) w_t", "skip"),
    ]
    rows = [("t", "12"), ("sampled i (1-based)", "86"), ("margin y_i f(x_i)", "0.4")]
    rows.append(("margin < 1 → update", "yes"))
    step = {"t": 12, "i": 85, "update": True}
    text = narrate_step(rows, lines, active_lines(lines, step))
    assert text.startswith("t = 12: sampled i (1-based) = 86, margin y_i f(x_i) = 0.4")
    assert "margin < 1 → update: yes" in text
    assert text.endswith("Ran: w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i.")
    skipped = narrate_step(rows, lines, active_lines(lines, {**step, "update": False}))
    assert skipped.endswith("Ran: else; w_{t+1} = (1 − η_t λ) w_t.")
    assert narrate_step([]) == ""
