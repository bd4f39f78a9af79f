"""The registry: the code shown follows the options, and the inspector shows the text's step.

Every value the step inspector shows is compared, as the string on screen, with a plain
transcription of the text's loop run on the same sampled indices (seed 002 Algorithms 1
and 2, SSBD's boxes of seeds 000 and 001, seed 003's dual).
"""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS, inspected_steps, on_page
from svmlab.plot.pseudocode import active_lines, num, render_html

# Tolerance table: none — the shown strings (4 significant digits) must be equal; the plain
# loops and svmcore agree to rounding far below the 4th digit.

X2, Y2 = svmcore.datasets.load("moons", n=30, noise=0.2, random_state=1)
X3, Y3 = svmcore.datasets.load("k_blobs", k=3)
N_CHECK = 25  # steps compared per run


def _shown(spec, params, X, y):
    """(kwargs, result, steps, rows per step) of a run as the inspector shows it."""
    result = spec.fit(X, y, params)
    steps = inspected_steps(spec, X, y, params, result.trace)
    n = min(N_CHECK, len(steps["t"]))
    per_step = [{k: v[s] for k, v in steps.items()} for s in range(n)]
    return result, per_step, [dict(spec.rows(st, y, params)) for st in per_step]


def _texts(spec, params):
    return [ln.text for ln in spec.code(params)]


def test_every_page_has_its_algorithms_and_one_key_each():
    assert on_page("linear")[0].key == "pegasos"
    assert {s.key for s in on_page("multiclass")} == {
        "multiclass_sgd",
        "multiclass_pegasos",
        "one_vs_all",
    }
    for key, spec in ALGORITHMS.items():
        assert spec.key == key and spec.fn.__name__ == key


# -- linear Pegasos ----------------------------------------------------------------------
def plain_pegasos(X, y, lam, idx, schedule):
    """Seed 002, Algorithm 1 ("pegasos") or SSBD §15.5 ("ssbd"), on the indices ``idx``."""
    w, theta, out = np.zeros(X.shape[1]), np.zeros(X.shape[1]), []
    for t, i in enumerate(idx, start=1):
        if schedule == "pegasos":
            eta = 1 / (lam * t)
            margin = y[i] * w @ X[i]
            w = (1 - eta * lam) * w + (eta * y[i] * X[i] if margin < 1 else 0)
            out.append({"eta": eta, "margin": margin, "update": margin < 1})
        else:
            wt = theta / (lam * t)
            margin = y[i] * wt @ X[i]
            theta = theta + (y[i] * X[i] if margin < 1 else 0)
            out.append({"eta": 1 / (lam * t), "margin": margin, "update": margin < 1})
    return out


@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_pegasos_inspector_shows_the_texts_step(schedule, averaging, sampling):
    spec = ALGORITHMS["pegasos"]
    params = dict(
        lam=0.1,
        T=200,
        schedule=schedule,
        averaging=averaging,
        sampling=sampling,
        bias="none",
        batch_size=1,
        projection=False,
        class_weight=None,
        random_state=3,
    )
    _, steps, rows = _shown(spec, params, X2, Y2)
    idx = [int(s["i"]) for s in steps]
    plain = plain_pegasos(X2, Y2, 0.1, idx, schedule)
    i = "j" if sampling == "cyclic" else "i"
    eta_label = "η_t = 1/(λt)" if schedule == "pegasos" else "1/(λt) in w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)"
    for s, (row, ref) in enumerate(zip(rows, plain, strict=True)):
        assert row["t"] == str(s + 1)
        assert row[f"sampled {i} (1-based)"] == str(idx[s] + 1)
        assert row[f"y_{i}"] == num(int(Y2[idx[s]]))
        assert row[eta_label] == num(ref["eta"])
        assert row[f"margin y_{i} f(x_{i})"] == num(ref["margin"])
        assert row["margin < 1 → update"] == num(ref["update"])
    texts = _texts(spec, params)
    assert any(("for iter" in t) for t in texts) == (sampling == "cyclic")
    assert any("uniformly at random" in t for t in texts) == (sampling == "uniform")
    assert any(t.startswith("output w̄") for t in texts) == (averaging == "average")
    if sampling == "uniform" and schedule == "pegasos":
        assert idx == list(np.asarray(spec.fit(X2, Y2, params).trace.steps["i"][:N_CHECK]))


def test_pegasos_code_and_objective_follow_the_options():
    spec = ALGORITHMS["pegasos"]
    base = dict(
        lam=0.1,
        schedule="pegasos",
        averaging="last",
        sampling="uniform",
        bias="none",
        batch_size=1,
        projection=False,
        class_weight=None,
    )
    plain = "\n".join(_texts(spec, base))
    assert "w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i" in plain and "c_{" not in plain
    assert "output w_{T+1}" in plain and "w̄" not in plain
    weighted = "\n".join(_texts(spec, {**base, "class_weight": "balanced"}))
    assert "η_t c_{y_i} y_i x_i" in weighted
    assert "c_{y_i}" in spec.objective({**base, "class_weight": "balanced"})
    assert "c_{y_i}" not in spec.objective(base)
    free = "\n".join(_texts(spec, {**base, "bias": "free"}))
    assert "b_{t+1} = b_t + η_t y_i" in free and "+ b_t" in free
    assert "b^2" in spec.objective({**base, "bias": "augment"})
    batch = "\n".join(_texts(spec, {**base, "batch_size": 8}))
    assert "A_t" in batch and "(η_t/k) Σ_{i∈A_t⁺}" in batch
    proj = _texts(spec, {**base, "projection": True})
    assert any("min{1, (1/√λ)/‖w_{t+1}‖}" in t for t in proj)
    assert r"1/\sqrt{\lambda}" in spec.objective({**base, "projection": True})


def test_active_lines_follow_the_steps_update_flag():
    spec = ALGORITHMS["pegasos"]
    params = dict(
        lam=0.1,
        schedule="pegasos",
        averaging="average",
        sampling="uniform",
        bias="none",
        batch_size=1,
        projection=False,
        class_weight=None,
    )
    lines = spec.code(params)
    fired = [lines[n].text.strip() for n in active_lines(lines, {"update": True})]
    skipped = [lines[n].text.strip() for n in active_lines(lines, {"update": False})]
    assert "w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i" in fired and "else" not in fired
    assert "w_{t+1} = (1 − η_t λ) w_t" in skipped and "else" in skipped
    assert not any(t.startswith(("initialize", "output")) for t in fired + skipped)
    assert render_html(lines, {"update": True}).count("▶") == len(fired)


# -- kernel Pegasos ----------------------------------------------------------------------
def plain_kernel(K, y, lam, idx, schedule):
    """SSBD's box (signed β, α = β/(λt)) or seed 002's Algorithm 2 (β counts updates)."""
    beta, out = np.zeros(len(y)), []
    for t, j in enumerate(idx, start=1):
        if schedule == "ssbd":
            margin = y[j] * (beta / (lam * t)) @ K[:, j]
            upd = margin < 1
            beta[j] += y[j] if upd else 0
        else:
            s = (beta * y) @ K[:, j]  # Σ_i β_i y_i K(x_i, x_j), β counts
            margin = y[j] * s / (lam * (t - 1)) if t > 1 else 0.0
            upd = margin < 1
            beta[j] += 1 if upd else 0
        out.append({"margin": margin, "update": upd, "beta": beta[j]})
    return out


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_kernel_inspector_shows_the_texts_step(schedule, averaging, sampling):
    spec = ALGORITHMS["kernel_pegasos"]
    params = dict(
        kernel="rbf",
        gamma=1.0,
        lam=0.1,
        T=200,
        schedule=schedule,
        averaging=averaging,
        sampling=sampling,
        random_state=2,
    )
    result, steps, rows = _shown(spec, params, X2, Y2)
    idx = [int(s["i"]) for s in steps]
    plain = plain_kernel(result.kernel(X2), Y2, 0.1, idx, schedule)
    for s, (row, ref) in enumerate(zip(rows, plain, strict=True)):
        t = s + 1
        if schedule == "ssbd":
            i = "j" if sampling == "cyclic" else "i"
            assert row[f"sampled {i} (1-based)"] == str(idx[s] + 1)
            assert row["1/(λt) in α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)"] == num(1 / (0.1 * t))
            assert row[f"margin y_{i} Σ_j α_j⁽ᵗ⁾ K(x_j, x_{i})"] == num(ref["margin"])
            assert row[f"β_{i}⁽ᵗ⁺¹⁾ (signed: += y_{i})"] == num(ref["beta"])
        else:
            assert row["sampled j (1-based)"] == str(idx[s] + 1)
            factor = row["1/(λ(t−1))"]
            assert factor.startswith("undefined") if t == 1 else factor == num(1 / (0.1 * (t - 1)))
            assert row["y_j (1/(λ(t−1))) Σ_i β_i⁽ᵗ⁾ y_i K(x_i, x_j)"] == num(ref["margin"])
            assert row["< 1 → β_j += 1"] == num(ref["update"])
            assert row["β_j⁽ᵗ⁺¹⁾ (count of updates of j)"] == num(ref["beta"])
    texts = _texts(spec, params)
    assert any("for iter" in t for t in texts) == (sampling == "cyclic")
    if schedule == "pegasos":
        assert any("β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾ + 1" in t for t in texts)
        assert any(t.startswith("α_i = β_i⁽ᵀ⁺¹⁾/(λT)") for t in texts) == (averaging == "last")
    else:
        assert any("ᾱ = (1/T)" in t for t in texts) == (averaging == "average")


# -- multiclass --------------------------------------------------------------------------
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_multiclass_pegasos_inspector_shows_the_codes_step_size(schedule):
    spec = ALGORITHMS["multiclass_pegasos"]
    params = dict(
        lam=0.1,
        T=100,
        bias=True,
        schedule=schedule,
        averaging="average",
        sampling="uniform",
        random_state=0,
    )
    _, steps, rows = _shown(spec, params, X3, Y3)
    label = "η_t = 1/(λt)" if schedule == "pegasos" else "1/(λt) in W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)"
    code = "\n".join(_texts(spec, params))
    assert ("η_t = 1/(λt)" in code) == (schedule == "pegasos")
    for s, row in enumerate(rows):
        assert row[label] == num(1 / (0.1 * (s + 1)))  # η_1 = 10, never 0
        assert row["sampled i (1-based)"] == str(int(steps[s]["i"]) + 1)


# -- dual --------------------------------------------------------------------------------
def test_smo_newton_steps_are_shown_as_newton_steps_not_pairs():
    spec = ALGORITHMS["dual_svm"]
    X, y = svmcore.datasets.load("moons", n=60, noise=0.15, random_state=0)
    params = dict(kernel="rbf", gamma=1.0, C=1.0, solver="smo", tol=1e-3)
    result = spec.fit(X, y, params)
    steps = result.trace.steps
    lines = spec.code(params)
    newton = [s for s in range(len(steps["t"])) if steps["i"][s] < 0]
    pairs = [s for s in range(len(steps["t"])) if steps["i"][s] >= 0]
    assert newton and pairs
    for s in newton + pairs[:3]:
        step = {k: v[s] for k, v in steps.items()}
        row = dict(spec.rows(step, y, params))
        active = [lines[n].text for n in active_lines(lines, step)]
        if s in newton:
            assert "pair" not in " ".join(row) and "Newton" in row["step"]
            assert any("Newton" in a for a in active) and not any("2-variable" in a for a in active)
        else:
            i, j = int(step["i"]), int(step["j"])
            assert row["SMO pair (i, j) (1-based)"] == f"({i + 1}, {j + 1})"
            assert any("2-variable" in a for a in active) and not any("Newton" in a for a in active)
    assert any("WSS3" in ln.text for ln in lines)


def test_curves_are_named_for_what_they_plot():
    from svmlab.plot.curves import curves_figure

    X, y = svmcore.datasets.load("lin_four_points")
    dual = ALGORITHMS["dual_svm"]
    for solver, name in (("smo", "m(α) − M(α)"), ("qp", "interior-point residual")):
        params = dict(kernel="linear", C=None, solver=solver, tol=1e-9)
        result = dual.fit(X, y, params)
        fig = curves_figure(result.trace, dual=True, labels=dual.curve_labels(params))
        names = [tr.name for tr in fig.data]
        assert any(n.startswith(("max KKT", "interior")) and name in n for n in names), names
    mc = ALGORITHMS["multiclass_sgd"]
    params = dict(eta=0.1, T=50, bias=True, averaging="average", sampling="uniform")
    fig = curves_figure(mc.fit(X3, Y3, params).trace, labels=mc.curve_labels(params))
    assert "primal objective" not in [tr.name for tr in fig.data]
    assert fig.data[0].name.startswith("mean generalized hinge")


def test_dual_metrics_show_lins_worked_example():
    spec = ALGORITHMS["dual_svm"]
    X, y = svmcore.datasets.load("lin_four_points")
    params = dict(kernel="linear", C=None, solver="qp", tol=1e-10)
    result = spec.fit(X, y, params)
    shown = spec.metrics(result, X, y, result.trace.n_snapshots - 1)
    assert shown["w = Σ αₙyₙxₙ"] == "(1, -1)" and shown["b"] == "-1"
    assert shown["margin 1/‖w‖"] == num(2**-0.5) and shown["band width 2/‖w‖"] == num(2**0.5)
    assert shown["training accuracy"] == "100.0 %"
    kkt_rule_hard = spec.objective(params)
    assert r"\alpha_n\ge 0" in kkt_rule_hard and "C" not in kkt_rule_hard.replace(r"\cdot", "")


# -- Perceptron --------------------------------------------------------------------------
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_perceptron_inspector_shows_the_texts_step(sampling):
    spec = ALGORITHMS["perceptron"]
    params = dict(T=200, sampling=sampling, bias="none", random_state=5)
    _, steps, rows = _shown(spec, params, X2, Y2)
    w, i = np.zeros(2), "j" if sampling == "cyclic" else "i"
    for s, row in enumerate(rows):
        j = int(steps[s]["i"])
        margin = Y2[j] * w @ X2[j]  # seed 002's starting point: w ← w + y x when y⟨w, x⟩ ≤ 0
        if margin <= 0:
            w = w + Y2[j] * X2[j]
        assert row[f"sampled {i} (1-based)"] == str(j + 1)
        assert row[f"y_{i} ⟨w_t, x_{i}⟩"] == num(margin)
        assert row["≤ 0 → w += y x"] == num(margin <= 0)
    texts = _texts(spec, params)
    assert any("for iter" in t for t in texts) == (sampling == "cyclic")
    assert texts[-1] == "output w_{T+1}"


@pytest.mark.parametrize("schedule", ["ssbd", "pegasos"])
def test_kernel_class_weights_change_the_code_the_objective_and_the_count(schedule):
    spec = ALGORITHMS["kernel_pegasos"]
    params = dict(
        kernel="rbf",
        gamma=1.0,
        lam=0.1,
        T=200,
        schedule=schedule,
        averaging="last",
        sampling="uniform",
        class_weight={-1: 1.0, 1: 3.0},
        random_state=4,
    )
    texts = "\n".join(_texts(spec, params))
    assert ("c_{y_i} y_i" in texts) == (schedule == "ssbd")
    assert ("β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾ + c_{y_j}" in texts) == (schedule == "pegasos")
    # the scikit-learn check solves the same weighted problem (SVC's class_weight)
    assert "c_{y_i}" in spec.objective(params) and spec.check_applies(params)
    _, steps, rows = _shown(spec, params, X2, Y2)
    counts = np.zeros(len(Y2))
    updates = np.zeros(len(Y2))
    for step, row in zip(steps, rows, strict=True):
        j = int(step["i"])
        if step["update"]:
            counts[j] += 3.0 if Y2[j] > 0 else 1.0  # β_j += c_{y_j} (signed: c y_j)
            updates[j] += 1
        # the rows say what the code says: β_j += c_{y_j}, and count the updates apart
        if schedule == "pegasos":
            assert row["< 1 → β_j += c_{y_j}"] == num(bool(step["update"]))
            assert row["β_j⁽ᵗ⁺¹⁾ (c_{y_j} × the updates of j)"] == num(counts[j])
            assert row["updates of j so far (β_j/c_{y_j})"] == num(updates[j])
        else:
            assert row["β_i⁽ᵗ⁺¹⁾ (signed: += c_{y_i} y_i)"] == num(counts[j] * Y2[j])
            assert row["updates of i so far (|β_i|/c_{y_i})"] == num(updates[j])
        assert not any("count of updates" in label or "+= 1" in label for label in row)
