"""The convergence view's numbers: the last iterate beside the average, the gap curves,
the rate guide, the slope fit, and the figures (pure modules, no Streamlit).
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.convergence_figure import (
    convergence_figure,
    last_boundary_trace,
    last_regions_trace,
)
from svmlab.study.convergence import (
    binary_optimum,
    companion_params,
    fit_slope,
    gap_curves,
    objective_params,
    rate_guide,
)

# Tolerance table ------------------------------------------------------------------------
TOL_AVERAGE = 1e-12  # w̄_T from the last-iterate run's per-step w, relative (the same iterates)
TOL_SLOPE = 1e-12  # slope of an exact power law, absolute
TOL_GUIDE = 1e-12  # guide above every gap (exact up to this), touching one, relative
TOL_FINAL_GAP = 1e-2  # final averaged gap (T = 20 000), relative to P*'s scale, two presets
# mean gap over 5 seeds decreasing in t: strictly, at t = T/100, T/10, T
# measured slopes, averaged output: in [−1.4, −0.7] (two presets, 5 seeds)


def test_companion_is_the_same_run_with_the_other_output():
    assert companion_params({"lam": 0.1, "averaging": "average", "random_state": 3}) == {
        "lam": 0.1,
        "averaging": "last",
        "random_state": 3,
    }
    assert companion_params({"averaging": "last"}) == {"averaging": "average"}
    assert companion_params({"C": 1.0}) is None  # no output option: no companion


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_last_iterate_run_has_the_averaged_runs_iterates(schedule):
    # Record w_{t+1} after every step t with averaging="last"; the averaged run's output
    # w̄_T = (1/T) Σ_{t=1..T} w_t = (1/T)(w_1 + Σ_{t=1..T−1} w_{t+1}), w_1 = 0.
    X, y = datasets.load("overlapping_blobs")
    T = 400
    kw = dict(lam=0.05, T=T, schedule=schedule, random_state=7, n_snapshots=T)
    kw["snapshot_spacing"] = "linear"
    last = svmcore.pegasos(X, y, averaging="last", **kw)
    avg = svmcore.pegasos(X, y, averaging="average", **kw)
    assert np.array_equal(last.trace.t, np.arange(1, T + 1))
    W = np.asarray(last.trace.snapshots["w"])  # row t−1: w_{t+1}
    np.testing.assert_allclose(avg.w, W[:-1].sum(axis=0) / T, rtol=TOL_AVERAGE, atol=1e-15)


def test_gap_curves_read_both_traces():
    X, y = datasets.load("overlapping_blobs")
    params = dict(lam=0.05, T=3000, averaging="average", random_state=1)
    spec = ALGORITHMS["pegasos"]
    a = spec.fit(X, y, params)
    b = spec.fit(X, y, companion_params(params))
    P = binary_optimum(X, y, spec.kwargs(params)).objective
    c = gap_curves(a.trace, b.trace, P)
    np.testing.assert_array_equal(c.t, a.trace.t)
    np.testing.assert_allclose(c.averaged, np.asarray(a.trace.snapshots["objective"]) - P)
    np.testing.assert_allclose(c.last, np.asarray(b.trace.snapshots["objective"]) - P)
    assert np.all(c.averaged >= -1e-12) and np.all(c.last >= -1e-12)
    short = spec.fit(X, y, {**params, "T": 100})
    with pytest.raises(ValueError, match="snapshot times"):
        gap_curves(a.trace, short.trace, P)


def test_rate_guide_is_the_smallest_envelope():
    t = np.array([1, 10, 100, 1000])
    gap = np.array([0.5, 0.2, 0.0, 0.004])  # a zero gap is ignored
    g, c = rate_guide(t, gap, 0.1, "log")
    shape = (1 + np.log(t)) / (0.1 * t)
    np.testing.assert_allclose(g, c * shape, rtol=TOL_GUIDE)
    ok = gap > 0
    assert np.all(g[ok] >= gap[ok] * (1 - TOL_GUIDE))
    assert np.any(np.isclose(g[ok], gap[ok], rtol=TOL_GUIDE))  # it touches: c is the smallest
    g2, c2 = rate_guide(t, gap, None, "sqrt")
    np.testing.assert_allclose(g2, c2 / np.sqrt(t))
    with pytest.raises(ValueError, match="lam"):
        rate_guide(t, gap, None, "log")
    with pytest.raises(ValueError, match="rate"):
        rate_guide(t, gap, 0.1, "linear")


def test_slope_of_a_power_law_and_its_window():
    t = np.unique(np.geomspace(1, 10**5, 60).astype(int))
    assert fit_slope(t, 3.0 * t**-1.0) == pytest.approx(-1.0, abs=TOL_SLOPE)
    # only the last two decades count: a different early slope does not matter
    gap = np.where(t < 1000, 50.0 * t**-0.2, 50.0 * 1000**0.3 * t**-0.5)
    assert fit_slope(t, gap, decades=2) == pytest.approx(-0.5, abs=1e-9)
    assert np.isnan(fit_slope(t, np.zeros_like(t, dtype=float)))  # nothing above the floor


def _mean_gaps(name, lam, seeds, T=20_000):
    X, y = datasets.load(name)
    P = binary_optimum(X, y, {"lam": lam}).objective
    runs = [svmcore.pegasos(X, y, lam=lam, T=T, random_state=s) for s in seeds]
    t = runs[0].trace.t
    return t, np.mean([np.asarray(r.trace.snapshots["objective"]) - P for r in runs], axis=0), P


@pytest.mark.parametrize(("name", "lam"), [("overlapping_blobs", 0.01), ("moons", 0.01)])
def test_averaged_gap_decreases_in_expectation_and_ends_small(name, lam):
    t, gap, P = _mean_gaps(name, lam, range(5))
    at = [np.searchsorted(t, v) for v in (200, 2000, 20_000)]
    assert gap[at[0]] > gap[at[1]] > gap[at[2]] > 0
    assert gap[-1] < TOL_FINAL_GAP * max(1.0, P)


@pytest.mark.parametrize(("name", "lam"), [("overlapping_blobs", 0.01), ("moons", 0.01)])
def test_measured_slope_is_near_the_texts_rate(name, lam):
    # (1 + ln t)/(λt) has local slope −1 + 1/(1 + ln t) ≈ −0.9 over t ∈ [10³, 10⁵]; earlier
    # windows still hold the fast transient of the first ~1/λ steps (slope ≈ −2 on [200,
    # 2·10⁴]). Measured (5 seeds, mean curve): −1.02 (blobs), −1.10 (moons).
    t, gap, _ = _mean_gaps(name, lam, range(5), T=100_000)
    assert -1.4 <= fit_slope(t, gap) <= -0.7


def test_convergence_figure_is_log_log_and_drops_the_floor():
    t = np.array([1, 10, 100])
    fig = convergence_figure(
        t, np.array([1.0, 0.1, 1e-13]), np.array([2.0, 0.3, 0.05]), guide=3.0 / t, floor=1e-12
    )
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    names = [tr.name for tr in fig.data]
    assert names[:2] == ["averaged w̄_t", "last iterate"] and len(fig.data) == 3
    assert list(fig.data[0].x) == [1, 10]  # 1e-13 ≤ floor: not drawn
    assert list(fig.data[1].y) == [2.0, 0.3, 0.05]


def test_last_iterate_traces():
    xs = ys = np.linspace(-1, 1, 5)
    Z = np.add.outer(ys, xs)  # f = x₁ + x₂
    tr = last_boundary_trace(xs, ys, Z)
    assert tr.contours.start == tr.contours.end == 0.0 and tr.line.dash == "dash"
    G = np.array(np.meshgrid(xs, ys)).reshape(2, -1).T
    scores = np.column_stack([G[:, 0], -G[:, 0], G[:, 1]])
    rt = last_regions_trace(xs, ys, scores)
    assert rt.contours.start == 0.5 and rt.contours.end == 1.5
    np.testing.assert_array_equal(np.asarray(rt.z).ravel(), scores.argmax(axis=1))


def test_objective_params_keep_what_the_objective_depends_on():
    params = dict(lam=0.1, T=500, random_state=2, averaging="last", schedule="ssbd")
    params.update(sampling="cyclic", batch_size=4, projection=True, bias="augment")
    params.update(class_weight="balanced", kernel="rbf", gamma=2.0)
    assert objective_params(params) == dict(
        lam=0.1, bias="augment", class_weight="balanced", kernel="rbf", gamma=2.0
    )
    # and P* indeed ignores the dropped options: the projection keeps the minimiser
    X, y = datasets.load("overlapping_blobs")
    spec = ALGORITHMS["pegasos"]
    run = spec.fit(X, y, dict(lam=0.1, T=4000, projection=True, random_state=0))
    P = binary_optimum(X, y, spec.kwargs(objective_params({"lam": 0.1, "projection": True})))
    assert np.min(run.trace.snapshots["objective"]) >= P.objective - 1e-12
