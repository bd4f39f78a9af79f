"""Kernel Pegasos (SSBD's SGD for soft-SVM with kernels) against the algorithm box."""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmcore.sgd.common import harmonic

# Tolerance table ------------------------------------------------------------------------
TOL_BOX = 1e-12  # against the plain transcription of the algorithm box, same indices, relative
TOL_LEMMA = 1e-12  # Lemma 16.3: Σ_j ᾱ_j x_j against linear Pegasos's w, relative
TOL_OBJECTIVE = 1e-12  # reported objective against its definition, relative


def algorithm_box(K, y, lam, idx, schedule, averaging):
    """SSBD §16.3's box (schedule "ssbd") and seed 002's Algorithm 2 ("pegasos"), literally."""
    m, T = len(y), len(idx)
    beta = np.zeros(m)
    alpha_sum = np.zeros(m)
    for t in range(1, T + 1):
        s = t if schedule == "ssbd" else t - 1
        alpha = beta / (lam * s) if s > 0 else np.zeros(m)
        alpha_sum += alpha
        i = idx[t - 1]
        if y[i] * np.sum(alpha * K[:, i]) < 1:
            beta[i] += y[i]
    if averaging == "average":
        return alpha_sum / T, beta
    return beta / (lam * (T + 1 if schedule == "ssbd" else T)), beta


@pytest.fixture(scope="module")
def moons():
    return datasets.moons(120, noise=0.2, random_state=0)


@pytest.fixture(params=["float64 rows", "float32 rows"])
def rows(request, monkeypatch):
    """The fast engine with float64 rows only, or with the float32 rows (the busy windows
    of a large m) forced on at small m."""
    import svmcore.sgd.kernel_pegasos as kp

    if request.param == "float32 rows":
        monkeypatch.setattr(kp._BetaModel, "f32_from", 0)
    return request.param


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("kernel", [svmcore.rbf(2.0), svmcore.polynomial(2, 1.0, 1.0)])
def test_equals_algorithm_box(moons, rows, schedule, averaging, kernel):
    X, y = moons
    idx = np.random.default_rng(2).integers(0, len(y), 3000)
    alpha, beta = algorithm_box(kernel(X), y, 0.02, idx, schedule, averaging)
    r = svmcore.kernel_pegasos(
        X, y, kernel=kernel, lam=0.02, T=3000, indices=idx, schedule=schedule, averaging=averaging
    )
    scale = np.abs(alpha).max()
    assert np.abs(r.alpha - alpha).max() <= TOL_BOX * scale
    np.testing.assert_array_equal(r.beta, beta)
    # no detail recording: the chunked fast path alone gives the same
    r0 = svmcore.kernel_pegasos(
        X,
        y,
        kernel=kernel,
        lam=0.02,
        T=3000,
        indices=idx,
        schedule=schedule,
        averaging=averaging,
        n_steps=0,
    )
    assert np.abs(r0.alpha - alpha).max() <= TOL_BOX * scale


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
def test_lemma_16_3_linear_kernel_equals_pegasos(schedule, averaging):
    X, y = datasets.overlapping_blobs(100, random_state=5)
    idx = np.random.default_rng(3).integers(0, 100, 5000)
    kp = svmcore.kernel_pegasos(
        X, y, kernel="linear", lam=0.05, T=5000, indices=idx, schedule=schedule, averaging=averaging
    )
    lp = svmcore.pegasos(
        X, y, lam=0.05, T=5000, indices=idx, schedule=schedule, averaging=averaging
    )
    w_bar = kp.alpha @ X  # w̄ = Σ_j ᾱ_j x_j
    np.testing.assert_allclose(w_bar, lp.w, rtol=TOL_LEMMA, atol=1e-14)
    assert kp.objective == pytest.approx(lp.objective, rel=1e-10)


def test_first_steps_by_hand():
    X = np.array([[0.0, 0.0], [1.0, 0.0]])
    y = np.array([-1.0, 1.0])
    # t = 1: α(1) = 0, margin 0 < 1, β_1 ← y_1 = +1; t = 2: α(2) = β(2)/(2λ) (SSBD),
    # margin y_1 α_1 K(x_1, x_1) = 1/(2λ) = 2.5 ≥ 1: no update.
    r = svmcore.kernel_pegasos(
        X, y, kernel="linear", lam=0.2, T=2, indices=[1, 1], averaging="last"
    )
    steps = r.trace.steps
    assert steps["update"].tolist() == [True, False]
    assert steps["margin"][1] == pytest.approx(2.5)
    assert steps["eta"][1] == pytest.approx(1 / (2 * 0.2))
    np.testing.assert_allclose(r.beta, [0.0, 1.0])
    np.testing.assert_allclose(r.alpha, [0.0, 1.0 / (3 * 0.2)])  # α(T+1) = β/(λ(T+1))


def test_learns_moons_with_rbf(moons):
    X, y = moons
    r = svmcore.kernel_pegasos(X, y, kernel=svmcore.rbf(2.0), lam=0.001, T=50_000, random_state=0)
    assert r.train_error <= 0.05
    assert 0 < r.support_.size < len(y)
    np.testing.assert_array_equal(r.support_, np.flatnonzero(r.alpha))
    assert r.predict(X).tolist() == np.where(r.decision_function(X) > 0, 1.0, -1.0).tolist()
    K = svmcore.rbf(2.0)(X)
    f = K @ r.alpha
    expected = 0.5 * 0.001 * r.alpha @ f + np.mean(np.maximum(0, 1 - y * f))
    assert r.objective == pytest.approx(expected, rel=TOL_OBJECTIVE)


def test_trace_contents(moons):
    X, y = moons
    r = svmcore.kernel_pegasos(
        X, y, kernel="rbf", gamma=1.0, lam=0.01, T=20_000, random_state=1, n_snapshots=40
    )
    tr = r.trace
    assert tr.t[0] == 1 and tr.t[-1] == 20_000
    assert tr.snapshots["alpha"].shape == (40, len(y))
    np.testing.assert_array_equal(tr.snapshots["alpha"][-1], r.alpha)
    np.testing.assert_array_equal(tr.snapshots["beta"][-1], r.beta)
    assert np.all(np.diff(np.abs(tr.snapshots["beta"]).sum(axis=1)) >= 0)  # β only grows
    assert set(tr.steps) >= {"t", "i", "margin", "update", "eta", "beta_i"}
    assert tr.n_steps == 300 and tr.steps["update"][0]  # t = 1 always updates
    for values in tr.snapshots.values():
        assert np.all(np.isfinite(values))


def test_same_seed_bit_identical(moons, rows):
    X, y = moons
    a = svmcore.kernel_pegasos(X, y, kernel="rbf", lam=0.01, T=5000, random_state=3)
    b = svmcore.kernel_pegasos(X, y, kernel="rbf", lam=0.01, T=5000, random_state=3)
    for key in a.trace.snapshots:
        assert np.array_equal(a.trace.snapshots[key], b.trace.snapshots[key])
    assert np.array_equal(a.trace.steps["i"], b.trace.steps["i"])


@pytest.mark.parametrize(
    ("on_demand", "f32_above"),
    [(False, None), (True, None), (False, 5), (False, 0), (False, 1 << 30)],
)
def test_step_at_a_time_windows_equal_the_scan(monkeypatch, on_demand, f32_above):
    """Windows where many steps fire run one step at a time in Python; windows where few
    fire are scanned in vectorised chunks. Both take the same decisions on the same g, so
    every split gives the same run bit for bit, and the box's β (SSBD §16.3). With the
    float32 rows forced on (``f32_above`` set: float32 rows after busy windows by the
    default rule, never, or always), every decision is the one of the exact sum, so the
    splits agree as well."""
    import svmcore.sgd.kernel_pegasos as kp
    import svmcore.sgd.kernel_rows as ks

    X, y = datasets.moons(150, noise=0.3, random_state=4)
    lam, T = 10.0 / 150, 20_000  # λ = 10/m: a large share of the steps fire
    idx = np.random.default_rng(5).integers(0, 150, T)
    if on_demand:
        monkeypatch.setattr(ks, "GRAM_BYTES", 1000)  # rows on demand
    if f32_above is not None:
        monkeypatch.setattr(kp._BetaModel, "f32_from", 0)
        monkeypatch.setattr(kp._BetaModel, "f32_above", f32_above)
        monkeypatch.setattr(kp._BetaModel, "resync_every", 4096)  # several resyncs
    runs = []
    default = kp._BetaModel.step_below
    # never, default, always; step-at-a-time windows of 1, 7 steps and the default length
    for step_below, window in ((0, 1024), (default, 1024), (1 << 20, 1024), (default, 1),
                               (default, 7), (1 << 20, 7)):  # fmt: skip
        monkeypatch.setattr(kp._BetaModel, "step_below", step_below)
        monkeypatch.setattr(kp._BetaModel, "step_window", window)
        runs.append(
            svmcore.kernel_pegasos(X, y, kernel="rbf", lam=lam, T=T, indices=idx, n_steps=0)
        )
    for r in runs[1:]:
        for key in runs[0].trace.snapshots:
            np.testing.assert_array_equal(r.trace.snapshots[key], runs[0].trace.snapshots[key])
    assert np.abs(runs[0].beta).sum() > 0.1 * T  # many steps fired
    _, beta = algorithm_box(svmcore.rbf(1.0)(X), y, lam, idx, "ssbd", "average")
    np.testing.assert_array_equal(runs[0].beta, beta)


def test_float32_rows_on_by_default_at_m_1000():
    """At m = 1000 the busy windows add float32 rows (the default ``f32_from``); with most
    steps fired (λ = 100/m) β is still the box's (SSBD §16.3), for both schedules."""
    import svmcore.sgd.kernel_pegasos as kp

    assert kp._BetaModel.f32_from <= 1000
    X, y = datasets.moons(1000, noise=0.2, random_state=7)
    lam, T = 0.1, 6000
    idx = np.random.default_rng(9).integers(0, 1000, T)
    kernel = svmcore.rbf(1.0)
    for schedule in ("ssbd", "pegasos"):
        _, beta = algorithm_box(kernel(X), y, lam, idx, schedule, "last")
        r = svmcore.kernel_pegasos(
            X, y, kernel=kernel, lam=lam, T=T, indices=idx, schedule=schedule, n_steps=0
        )
        np.testing.assert_array_equal(r.beta, beta)
        assert np.abs(beta).sum() > 0.5 * T  # most steps fired


def test_float32_rows_every_decision_by_the_exact_sum(monkeypatch, moons):
    """A band E as wide as the numbers themselves sends every step to the exact sum
    G_i = Σ_j n_j Q_{j i}: the run is still the box's (SSBD §16.3)."""
    import svmcore.sgd.kernel_pegasos as kp

    X, y = moons
    monkeypatch.setattr(kp._BetaModel, "f32_from", 0)
    monkeypatch.setattr(kp._BetaModel, "_band", lambda self, nw, s_max, f32rows: 1e300)
    calls = []
    exact_g = kp._BetaModel._exact_g
    monkeypatch.setattr(
        kp._BetaModel, "_exact_g", lambda self, i, n: calls.append(i) or exact_g(self, i, n)
    )
    idx = np.random.default_rng(2).integers(0, len(y), 1500)
    kernel = svmcore.rbf(2.0)
    for averaging in ("average", "last"):
        alpha, beta = algorithm_box(kernel(X), y, 0.02, idx, "ssbd", averaging)
        calls.clear()
        r = svmcore.kernel_pegasos(
            X, y, kernel=kernel, lam=0.02, T=1500, indices=idx, averaging=averaging, n_steps=0
        )
        np.testing.assert_array_equal(r.beta, beta)
        assert np.abs(r.alpha - alpha).max() <= TOL_BOX * np.abs(alpha).max()
        assert len(calls) == 1500  # every step went to the exact sum (t = 1: recorded)


@pytest.mark.parametrize("band", ["rigorous", "ignored"])
def test_float32_rows_near_tie_decided_by_the_exact_sum(monkeypatch, band):
    """A near tie that the float32 rows get wrong: Q_{01} = 0.3 is Q↑ = 0.30000305… on the
    grid h = 2⁻¹⁷, and λ s(3) = 0.600000015 lies between G_0 = 0.6 (the box: an update)
    and the float32 value 0.60000305… (no update). The band sends the step to the exact
    sum; without it (E = 0) the decision, and β, differ from the box's."""
    import svmcore.sgd.kernel_pegasos as kp

    X = np.array([[1.0], [0.3], [0.0]])
    y = np.array([1.0, 1.0, -1.0])  # x_3 (never sampled) only gives both classes
    idx = [1, 1, 0]  # t = 1 (recorded), then a one-step-at-a-time window: t = 2, 3
    lam = 0.200000005
    monkeypatch.setattr(kp._BetaModel, "f32_from", 0)
    if band == "ignored":
        monkeypatch.setattr(kp._BetaModel, "_band", lambda self, nw, s_max, f32rows: 0.0)
    _, beta = algorithm_box(X @ X.T, y, lam, idx, "ssbd", "last")
    np.testing.assert_array_equal(beta, [1.0, 2.0, 0.0])  # t = 3 updates: 0.6/(3λ) < 1
    r = svmcore.kernel_pegasos(X, y, kernel="linear", lam=lam, T=3, indices=idx, n_steps=0)
    if band == "rigorous":
        np.testing.assert_array_equal(r.beta, beta)
    else:
        np.testing.assert_array_equal(r.beta, [0.0, 2.0, 0.0])  # the float32 value decided


def test_large_n_uses_columns_on_demand(monkeypatch):
    import svmcore.sgd.kernel_rows as ks

    X, y = datasets.moons(150, random_state=1)
    idx = np.random.default_rng(0).integers(0, 150, 2000)
    full = svmcore.kernel_pegasos(X, y, kernel="rbf", lam=0.01, T=2000, indices=idx)
    monkeypatch.setattr(ks, "GRAM_BYTES", 1000)  # force on-demand rows
    lazy = svmcore.kernel_pegasos(X, y, kernel="rbf", lam=0.01, T=2000, indices=idx)
    np.testing.assert_allclose(lazy.alpha, full.alpha, rtol=1e-12, atol=1e-15)
    assert lazy.objective == pytest.approx(full.objective, rel=1e-12)


def test_harmonic_numbers():
    assert harmonic(0) == 0.0 and harmonic(1) == 1.0 and harmonic(4) == pytest.approx(25 / 12)
    n = 70_000  # past the table: the asymptotic formula continues it smoothly
    direct = np.sum(1.0 / np.arange(1, n + 1)[::-1])
    assert harmonic(n) == pytest.approx(direct, rel=1e-14)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"lam": 0}, "lam must be > 0"),
        ({"T": 0}, "T must be >= 1"),
        ({"kernel": "sigmoid"}, "kernel must be"),
        ({"gamma": -1.0}, "gamma must be > 0"),
        ({"indices": [0, 9]}, "indices must lie in"),
        ({"schedule": "x"}, "schedule must be one of"),
        ({"averaging": "x"}, "averaging must be one of"),
        ({"n_snapshots": 0}, "n_snapshots must be >= 1"),
    ],
)
def test_bad_input(kwargs, match):
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    y = np.array([-1.0, 1.0, 1.0])
    args = {"kernel": "rbf", "lam": 0.1, "T": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        svmcore.kernel_pegasos(X, y, **args)


def test_nan_and_one_class_rejected():
    with pytest.raises(ValueError, match="finite"):
        svmcore.kernel_pegasos([[0.0, np.inf], [1.0, 1.0]], [1, -1], lam=0.1, T=2)
    with pytest.raises(ValueError, match="both classes"):
        svmcore.kernel_pegasos([[0.0, 0.0], [1.0, 1.0]], [1, 1], lam=0.1, T=2)


# -- seed 002 §2.1 (class weights) and Algorithm 2's own quantities -------------------------
def weighted_box(K, y, c, lam, idx, schedule, averaging):
    """The box with the weighted hinge c_i max{0, 1 − y_i f(x_i)}: β_i += c_i y_i."""
    m, T = len(y), len(idx)
    beta = np.zeros(m)
    alpha_sum = np.zeros(m)
    for t in range(1, T + 1):
        s = t if schedule == "ssbd" else t - 1
        alpha = beta / (lam * s) if s > 0 else np.zeros(m)
        alpha_sum += alpha
        i = idx[t - 1]
        if y[i] * np.sum(alpha * K[:, i]) < 1:
            beta[i] += c[i] * y[i]
    if averaging == "average":
        return alpha_sum / T
    return beta / (lam * (T + 1 if schedule == "ssbd" else T))


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("class_weight", ["balanced", {-1: 0.3, 1: 2.5}])
def test_class_weight_equals_the_weighted_box(moons, schedule, averaging, class_weight):
    X, y = moons
    X, y = X[:90], y[:90].copy()
    y[:60] = -1.0  # imbalanced: 60 against 30 (less the −1 already there)
    idx = np.random.default_rng(4).integers(0, len(y), 2500)
    n_pos, n_neg = np.sum(y > 0), np.sum(y < 0)
    if class_weight == "balanced":
        c = np.where(y > 0, len(y) / (2 * n_pos), len(y) / (2 * n_neg))
    else:
        c = np.where(y > 0, 2.5, 0.3)
    kernel = svmcore.rbf(2.0)
    alpha = weighted_box(kernel(X), y, c, 0.02, idx, schedule, averaging)
    r = svmcore.kernel_pegasos(
        X,
        y,
        kernel=kernel,
        lam=0.02,
        T=2500,
        indices=idx,
        schedule=schedule,
        averaging=averaging,
        class_weight=class_weight,
    )
    assert np.abs(r.alpha - alpha).max() <= TOL_BOX * np.abs(alpha).max()
    f = kernel(X) @ r.alpha
    expected = 0.5 * 0.02 * r.alpha @ f + np.mean(c * np.maximum(0, 1 - y * f))
    assert r.objective == pytest.approx(expected, rel=TOL_OBJECTIVE)


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("class_weight", ["balanced", {-1: 4.0, 1: 0.5}])
def test_class_weight_lemma_16_3_equals_weighted_pegasos(schedule, averaging, class_weight):
    X, y = datasets.overlapping_blobs(100, random_state=6)
    y[:20] = -1.0
    idx = np.random.default_rng(8).integers(0, 100, 4000)
    common = dict(
        lam=0.05,
        T=4000,
        indices=idx,
        schedule=schedule,
        averaging=averaging,
        class_weight=class_weight,
    )
    kp = svmcore.kernel_pegasos(X, y, kernel="linear", **common)
    lp = svmcore.pegasos(X, y, **common)
    np.testing.assert_allclose(kp.alpha @ X, lp.w, rtol=TOL_LEMMA, atol=1e-14)
    assert kp.objective == pytest.approx(lp.objective, rel=1e-10)


def test_class_weight_changes_the_model(moons):
    X, y = moons
    plain = svmcore.kernel_pegasos(X, y, lam=0.02, T=2000, random_state=0)
    weighted = svmcore.kernel_pegasos(
        X, y, lam=0.02, T=2000, random_state=0, class_weight={-1: 5.0, 1: 1.0}
    )
    assert not np.allclose(plain.alpha, weighted.alpha)
    with pytest.raises(ValueError, match="class_weight keys must be the labels -1 and"):
        svmcore.kernel_pegasos(X, y, lam=0.02, T=10, class_weight={0: 1.0})


def test_seed_002_algorithm_2_records_its_own_quantities():
    # seed 002's Algorithm 2, literally: unsigned counts β_j, factor 1/(λ(t−1))
    X, y = datasets.moons(30, noise=0.2, random_state=3)
    K = svmcore.rbf(1.0)(X)
    lam, T = 0.1, 200
    idx = np.random.default_rng(1).integers(0, 30, T)
    beta = np.zeros(30)  # unsigned
    rows = []
    for t in range(1, T + 1):
        j = idx[t - 1]
        factor = 1 / (lam * (t - 1)) if t > 1 else np.nan
        total = 0.0 if t == 1 else factor * np.sum(beta * y * K[:, j])
        if y[j] * total < 1:
            beta[j] += 1
        rows.append((j, beta[j], factor))
    for engine in ("fast", "textbook"):
        r = svmcore.kernel_pegasos(
            X,
            y,
            kernel=svmcore.rbf(1.0),
            lam=lam,
            T=T,
            indices=idx,
            schedule="pegasos",
            averaging="last",
            engine=engine,
        )
        s = r.trace.steps
        np.testing.assert_array_equal(s["j"], [row[0] for row in rows])
        np.testing.assert_array_equal(s["beta_j"], [row[1] for row in rows])
        assert np.isnan(s["factor"][0])  # undefined at t = 1, never shown as 0
        np.testing.assert_allclose(s["factor"][1:], [row[2] for row in rows[1:]], rtol=1e-15)
        # α_i = β_i(T+1)/(λT), with signs: α = y ∘ β/(λT)
        np.testing.assert_allclose(r.alpha, y * beta / (lam * T), rtol=1e-15)
    # SSBD's schedule records SSBD's symbols only
    ssbd = svmcore.kernel_pegasos(X, y, lam=lam, T=10, indices=idx[:10], schedule="ssbd")
    assert not {"j", "beta_j", "factor"} & set(ssbd.trace.steps)
