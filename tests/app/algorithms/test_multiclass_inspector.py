"""The multiclass step inspector shows the text's plain step (SSBD §17.2, seed 002 §2.3): for
every averaging × sampling (× schedule for multiclass Pegasos), the scores, ŷ and the
update shown for each of the first steps equal an independent transcription of SSBD's
box (seed 001: ŷ ∈ argmax_y′ Δ(y′, y) + ⟨w⁽ᵗ⁾, Ψ(x, y′) − Ψ(x, y)⟩, v_t = Ψ(x, ŷ) − Ψ(x, y),
w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ − η v_t; Pegasos: w_{t+1} = (1 − η_t λ) w_t − η_t v_t with η_t = 1/(λt)).

Multiclass Pegasos kernelized: the code shown is the update on the coefficients α (β
under SSBD's schedule) that the run executes — replayed as written, it gives the run's
α(T+1) — and under η_t = 1/(λt) the rows say that W (α) shrinks by 1 − η_tλ on every
step, the update line adding ±η_t only when ŷ ≠ y.
"""

import re

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS, inspected_steps
from svmlab.plot.pseudocode import num

# Tolerance table ------------------------------------------------------------------------
TOL_SCORES = 1e-3  # the scores as shown (``pseudocode.num`` rounds to 4 significant digits)
# against the plain loop's, relative (ŷ and the step sizes: exactly)
TOL_SCORES_ABS = 1e-9  # the same, absolute, for the scores near 0
TOL_REPLAY = 1e-12  # the replayed α(T+1), relative to its largest entry

X3, Y3 = svmcore.datasets.load("k_blobs", k=3)
N_CHECK = 40
SCORES = "Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, 1, …"
Y_HAT = "ŷ (argmax, ties → smallest)"


def _shown(key, params):
    spec = ALGORITHMS[key]
    result = spec.fit(X3, Y3, params)
    steps = inspected_steps(spec, X3, Y3, params, result.trace)
    per_step = [{k: v[s] for k, v in steps.items()} for s in range(N_CHECK)]
    return per_step, [dict(spec.rows(st, Y3, params)) for st in per_step]


def _plain(steps, *, eta_of, shrink_of):
    """SSBD's multiclass loop on the inspector's own sampled indices (x̃ = (x, 1))."""
    classes = np.unique(Y3)
    k = classes.shape[0]
    W = np.zeros((k, X3.shape[1] + 1))  # one block of Ψ per class
    shown = []
    for s, step in enumerate(steps):
        t = s + 1
        i = int(step["i"])
        x = np.append(X3[i], 1.0)
        y = int(np.searchsorted(classes, Y3[i]))
        scores = (1.0 - np.eye(k)[y]) + (W - W[y]) @ x  # Δ 0-1 plus ⟨w, Ψ(x, y′) − Ψ(x, y)⟩
        y_hat = int(np.argmax(scores))  # ties: the smallest class
        shown.append((scores, num(y_hat)))
        eta = eta_of(t)
        W *= shrink_of(t)
        if y_hat != y:
            W[y_hat] -= eta * x
            W[y] += eta * x
    return shown


def _same(rows, plain):
    assert [r[Y_HAT] for r in rows] == [y_hat for _, y_hat in plain]
    for r, (scores, _) in zip(rows, plain, strict=True):
        got = [float(v) for v in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?", r[SCORES])]
        np.testing.assert_allclose(got, scores, rtol=TOL_SCORES, atol=TOL_SCORES_ABS)


@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_multiclass_sgd_inspector_is_the_texts_step(averaging, sampling):
    params = dict(eta=0.1, T=200, bias=True, averaging=averaging, sampling=sampling)
    steps, rows = _shown("multiclass_sgd", {**params, "random_state": 3})
    plain = _plain(steps, eta_of=lambda t: 0.1, shrink_of=lambda t: 1.0)
    _same(rows, plain)


@pytest.mark.parametrize("averaging", ["average", "last"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_multiclass_pegasos_inspector_is_the_texts_step(averaging, sampling):
    lam = 0.1
    params = dict(lam=lam, T=200, bias=True, schedule="pegasos", averaging=averaging)
    steps, rows = _shown("multiclass_pegasos", {**params, "sampling": sampling, "random_state": 3})
    plain = _plain(steps, eta_of=lambda t: 1 / (lam * t), shrink_of=lambda t: 1 - 1 / t)
    _same(rows, plain)
    assert [r["η_t = 1/(λt)"] for r in rows] == [num(1 / (lam * t)) for t in range(1, N_CHECK + 1)]


# -- multiclass Pegasos: the code and rows are the update the run executes -------------------
def _kernel_run(schedule, bias, averaging="last"):
    params = dict(lam=0.1, T=60, bias=bias, schedule=schedule, averaging=averaging)
    params |= dict(sampling="uniform", random_state=2, kernel="rbf", gamma=0.5)
    return params, ALGORITHMS["multiclass_pegasos"].fit(X3, Y3, params)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_kernelized_code_is_the_alpha_update_the_run_executes(schedule, bias):
    spec = ALGORITHMS["multiclass_pegasos"]
    params, run = _kernel_run(schedule, bias)
    texts = [line.text.strip() for line in spec.code(params)]
    assert not any("x̃" in t or "w_{y_i}" in t for t in texts), texts  # no W, no x̃ is updated
    K = run.kernel(X3) + (1.0 if bias else 0.0)  # K̃ = K + 1 with the offsets
    assert any(t.startswith("K̃(x, x′) = K(x, x′) + 1") for t in texts) == bias
    classes = np.unique(Y3)
    y_idx = np.searchsorted(classes, Y3)
    delta = 1.0 - np.eye(len(classes))
    n, k, lam = len(Y3), len(classes), 0.1
    alpha = np.zeros((n, k))
    beta = np.zeros((n, k))
    for t, i in enumerate(run.trace.steps["i"], start=1):
        # the code as it reads
        if schedule == "pegasos":
            assert "η_t = 1/(λt)" in texts and "α⁽ᵗ⁺¹⁾ = (1 − η_t λ) α⁽ᵗ⁾" in texts
            assert "if ŷ ≠ y_i: α_{i,y_i}⁽ᵗ⁺¹⁾ += η_t,  α_{i,ŷ}⁽ᵗ⁺¹⁾ −= η_t" in texts
            a = alpha
        else:
            assert "let α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)" in texts
            assert "if ŷ ≠ y_i: β_{i,y_i} += 1,  β_{i,ŷ} −= 1" in texts
            a = beta / (lam * t)
        f = K[i] @ a  # f_c(x_i) = Σ_j α_{j,c} K̃(x_j, x_i)
        scores = delta[:, y_idx[i]] + f - f[y_idx[i]]
        y_hat = int(np.argmax(scores))
        eta = 1 / (lam * t)
        alpha = (1 - eta * lam) * alpha
        if y_hat != y_idx[i]:
            alpha[i, y_hat] -= eta
            alpha[i, y_idx[i]] += eta
            beta[i, y_hat] -= 1
            beta[i, y_idx[i]] += 1
    last = alpha if schedule == "pegasos" else beta / (lam * 61)
    assert len(run.trace.steps["i"]) == 60  # every step of the run, replayed above
    np.testing.assert_allclose(run.alpha, last, rtol=0, atol=TOL_REPLAY * np.abs(last).max())


@pytest.mark.parametrize("kernel", [False, True])
def test_multiclass_pegasos_rows_say_every_step_shrinks(kernel):
    spec = ALGORITHMS["multiclass_pegasos"]
    params = dict(lam=0.1, T=100, bias=True, schedule="pegasos", averaging="average")
    params |= dict(sampling="uniform", random_state=3)
    if kernel:
        params |= dict(kernel="rbf", gamma=0.5)
    result = spec.fit(X3, Y3, params)
    steps = inspected_steps(spec, X3, Y3, params, result.trace)
    M = "α" if kernel else "W"
    shrink = f"1 − η_t λ (every step: {M}⁽ᵗ⁺¹⁾ = (1 − η_t λ) {M}⁽ᵗ⁾ …)"
    unchanged = 0
    for s in range(N_CHECK):
        row = dict(spec.rows({name: v[s] for name, v in steps.items()}, Y3, params))
        assert row[shrink] == num(1 - 1 / (s + 1))  # 1 − η_tλ = 1 − 1/t, on every step
        assert not any("changed" in label for label in row)  # W (α) changes on every step
        unchanged += row[next(label for label in row if label.startswith("ŷ ≠ y →"))] == "no"
    assert unchanged > 0  # steps without the update line, whose W still shrank
    ssbd = dict(
        spec.rows({name: v[0] for name, v in steps.items()}, Y3, {**params, "schedule": "ssbd"})
    )
    assert (
        "ŷ ≠ y → β_{i,y_i}, β_{i,ŷ} changed" if kernel else "ŷ ≠ y → θ_{y_i}, θ_ŷ changed"
    ) in ssbd
