"""Kernelized multiclass Pegasos: the ``kernel`` branch of :func:`svmcore.multiclass_pegasos`.

The class-c weight vector is Σ_j α_{jc} φ(x_j), so multiclass Pegasos's update
W(t+1) = (1 − η_t λ) W(t) − η_t (Ψ(x_i, ŷ) − Ψ(x_i, y_i)) reads, in the coefficients::

    α(t+1) = (1 − η_t λ) α(t);   then, if ŷ ≠ y_i:  α_{i,ŷ} −= η_t c,  α_{i,y_i} += η_t c

with the scores f_c(x) = Σ_j α_{jc} K̃(x_j, x) (K̃ = K + 1 when ``bias=True``: the constant
feature 1 appended to φ(x)) and c = c_{y_i} the class weight (seed 002 §2.1; 1 unweighted).
:func:`kernel_step` is that loop body on α. Both engines
keep the integer counts β instead (α(t) = β(t)/(λ s(t)), :func:`beta_step`) and score the
sums Σ_j β_jc K̃(x_j, x_i) before scaling them, so that exact ties go the same way in both
(:mod:`svmcore.sgd.common`, "The margin test"); the fast engine keeps the scores of all
training points (O(n) per update, O(1) per step without update). The step records are
those of :mod:`svmcore.sgd.multiclass_pegasos`.
"""

from __future__ import annotations

import numpy as np

from svmcore.sgd._engine import run_fast, run_textbook
from svmcore.sgd.multiclass_common import (
    MulticlassData,
    MulticlassModel,
    PegasosScale,
    scaled_scores,
    step_fields,
)

__all__ = ["beta_step", "kernel_step", "run_kernel"]


def kernel_step(alpha, K_i, i, y, eta, lam, delta, c=1.0):
    """:func:`step` in the coefficients α (n, k): K_i = (K̃(x_j, x_i))_j, c = c_y."""
    f = K_i @ alpha  # f_c(x_i) = Σ_j α_jc K̃(x_j, x_i), shape (k,)
    scores = delta[:, y] + f - f[y]
    y_hat = int(np.argmax(scores))
    alpha_next = (1.0 - eta * lam) * alpha
    if y_hat != y:
        alpha_next[i, y_hat] -= eta * c
        alpha_next[i, y] += eta * c
    return alpha_next, scores, y_hat


def run_kernel(data: MulticlassData, scale: PegasosScale, K, run, on_snapshot, *, last: bool):
    """Run the kernelized recursion on the Gram matrix K̃ (n, n) with the run's engine.

    ``on_snapshot(t, alpha, f, beta)`` receives the output coefficients α (n, k), the
    class scores of the training points f = (K̃ α)ᵀ (k, n) and the counts β (n, k).
    """
    if run.textbook:
        _kernel_textbook(data, scale, K, run, on_snapshot, last)
    else:
        model = _KernelModel(data, scale, K, on_snapshot, last)
        run_fast(model, run.stream, run.times, run.recorder)


def beta_step(beta, K_i, i, y, level, delta, c=1.0):
    """:func:`kernel_step` on the counts β (n, k), with α(t) = β(t)/L, L = ``level`` = λ s(t)
    (0 for α(t) = 0).

    α(t+1) = (1 − η_t λ) α(t) − η_t c (e_{i,ŷ} − e_{i,y}) is
    β(t+1) = β(t) − c e_{i,ŷ} + c e_{i,y} (c = c_y, 1 unweighted: β counts the updates).
    The scores are :func:`~svmcore.sgd.multiclass_common.scaled_scores` of the sums
    Σ_j β_jc K̃(x_j, x_i), the order of operations of the fast engine.
    Returns β(t+1), the k scores and ŷ.
    """
    scores = scaled_scores(K_i @ beta, y, level, delta[:, y])
    y_hat = int(np.argmax(scores))  # ties: the smallest class index
    if y_hat != y:
        beta = beta.copy()
        beta[i, y_hat] -= c
        beta[i, y] += c
    return beta, scores, y_hat


def _kernel_textbook(data, scale, K, run, on_snapshot, last: bool):
    """Loop :func:`beta_step`, one iteration at a time, summing α(t) = c_t β(t)."""
    y_idx, D, cw = data.y_idx, data.D, data.weights

    def one(state, I, t):
        i = int(I[0])
        yi = int(y_idx[i])
        beta, scores, yh = beta_step(state[0], K[i], i, yi, scale.level(t), D, float(cw[i]))
        return (beta,), step_fields(t, i, yi, yh, scores, scale.eta(t))

    def snapshot(t, state, total):
        if last:  # α(t+1) = β/L, K̃ α = (K̃ β)/L with L = λ s(t+1): the sums first
            level = scale.level(t + 1)
            on_snapshot(t, state[0] / level, (K @ state[0]).T / level, state[0].copy())
        else:
            alpha = total[0] / t
            on_snapshot(t, alpha, (K @ alpha).T, state[0].copy())

    run_textbook(
        one,
        (np.zeros((data.X.shape[0], data.k)),),
        iterate=lambda state, t: (scale.c(t) * state[0],),
        stream=run.stream,
        times=run.times,
        recorder=run.recorder,
        on_snapshot=snapshot,
    )


class _KernelModel(MulticlassModel):
    """Kernelized multiclass Pegasos for :func:`svmcore.sgd._engine.run_fast`.

    β (n, k) counts the updates; F[c] = K̃ β[:, c] are the class-c scores of every
    training point under θ; Db and GD = K̃ Db keep Σ_s C_s Δβ_s for the average.
    """

    def __init__(self, data: MulticlassData, scale: PegasosScale, K, on_snapshot, last: bool):
        super().__init__(data, scale, on_snapshot)
        n, k = data.X.shape[0], data.k
        self.K, self.last = K, last
        self.cw = data.weights.tolist()  # c_{y_i}
        self.beta = np.zeros((n, k))
        self.Db = np.zeros((n, k))
        self.F = np.zeros((k, n))
        self.GD = np.zeros((k, n))

    def raw(self, i):
        return self.F[:, i].copy()

    def raw_many(self, I):
        return self.F[:, I].T  # (B, k), a copy

    def accept(self, i, t, yh):
        yh, yi = int(yh), self.y_list[i]
        row = self.K[i]  # K̃ is symmetric: row i is column i, contiguous
        C, c = self.scale.C(t), self.cw[i]
        self.beta[i, yh] -= c
        self.beta[i, yi] += c
        if c != 1.0:
            row = c * row
        self.F[yh] -= row
        self.F[yi] += row
        self.Db[i, yh] += C * c
        self.Db[i, yi] -= C * c
        self.GD[yh] += C * row
        self.GD[yi] -= C * row

    def snapshot(self, t):
        if self.last:
            level = self.scale.level(t + 1)
            alpha, f = self.beta / level, self.F / level
        else:
            C = self.scale.C(t)
            alpha, f = (C * self.beta + self.Db) / t, (C * self.F + self.GD) / t
        self.on_snapshot(t, alpha, f, self.beta.copy())
