"""The multiclass step inspector shows the text's plain step (SSBD §17.2, seed 002 §2.3): for
every averaging × sampling (× schedule for multiclass Pegasos), the scores, ŷ and the
update shown for each of the first steps equal an independent transcription of SSBD's
box (seed 001: ŷ ∈ argmax_y′ Δ(y′, y) + ⟨w⁽ᵗ⁾, Ψ(x, y′) − Ψ(x, y)⟩, v_t = Ψ(x, ŷ) − Ψ(x, y),
w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ − η v_t; Pegasos: w_{t+1} = (1 − η_t λ) w_t − η_t v_t with η_t = 1/(λt)).

Tolerance table: ŷ and the step sizes exactly; the scores as shown (``pseudocode.num``
rounds to 4 significant digits) against the plain loop's: rtol 1e-3, atol 1e-9.
"""

import re

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS, inspected_steps
from svmlab.plot.pseudocode import num

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
        np.testing.assert_allclose(got, scores, rtol=1e-3, atol=1e-9)


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
