"""Regularized multiclass Pegasos, linear and kernelized (seed 002 §2.3, SSBD §17.2).

Seed 002 §2.3 states the multiclass SVM (one weight vector and offset per class, one
slack per point, w_{y_j}ᵀx_j + b_{y_j} ≥ w_{y′}ᵀx_j + b_{y′} + 1 − ξ_j) and says "we could
derive a similar Pegasos algorithm". Written with SSBD's Ψ and Δ (seed 001), the
problem is the Crammer–Singer objective

    F(W) = λ/2 ‖W‖² + (1/n) Σ_i max_{y′} [Δ(y′, y_i) + ⟨w_{y′} − w_{y_i}, x̃_i⟩],

(Δ = 0-1 loss gives seed 002's constraints; x̃ = (x, 1) with ``bias=True``, which
regularizes the offsets too, as the binary Pegasos's ``bias="augment"``). Its stochastic
subgradient at (x_i, y_i) is λW + v_t with v_t = Ψ(x_i, ŷ) − Ψ(x_i, y_i) and ŷ the most
violating label, so Pegasos with η_t = 1/(λt) reads

    ``schedule="pegasos"``:  W(t+1) = (1 − η_t λ) W(t) − η_t v_t,     W(1) = 0,
    ``schedule="ssbd"``:     θ(t+1) = θ(t) − v_t,  W(t) = θ(t)/(λt)   (SSBD §15.5),

the same two conventions as the binary :func:`svmcore.pegasos` and
:func:`svmcore.kernel_pegasos`: both are W(t) = θ(t)/(λ s(t)) with θ(t) = −Σ_{s<t} v_s
and s(t) = t − 1 ("pegasos", W(1) = 0) or s(t) = t ("ssbd"). The output is the average
W̄ = (1/T) Σ_{t=1..T} W(t) or the last iterate W(T+1).

Kernelized (``kernel`` given): θ = Σ_j Σ_c β_{jc} Ψ(φ(x_j), c), i.e. the class-c weight
vector is Σ_j β_{jc} φ(x_j), and a step changes only β_{i,ŷ} (−1) and β_{i,y_i} (+1).
Coefficients α(t) = β(t)/(λ s(t)) of shape (n, k) give the scores
f_c(x) = Σ_j α_{jc} K̃(x_j, x), with K̃ = K + 1 when ``bias=True`` (the constant feature 1
appended to φ(x)); the output is ᾱ = (1/T) Σ_{t=1..T} α(t) as in kernel Pegasos. The Gram
matrix is computed once and the scores of all training points under θ are kept
(O(n) per update, O(1) per step without update).

Ties in the argmax go to the smallest class index (see :mod:`svmcore.multiclass`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._sampling import IndexStream
from svmcore._validation import check_bool, check_choice, check_positive, check_T, check_X
from svmcore.kernel_sgd import harmonic
from svmcore.kernels import Kernel, make_kernel
from svmcore.multiclass import (
    AVERAGINGS,
    StepScale,
    augment,
    average_and_last,
    check_delta,
    check_multiclass_y,
    linear_engine,
    linear_scores,
    run_steps,
    training_summary,
)
from svmcore.trace import Trace, TraceRecorder, freeze, snapshot_times

__all__ = ["MulticlassPegasosResult", "PegasosScale", "multiclass_pegasos"]

SCHEDULES = ("pegasos", "ssbd")
#: The kernelized version keeps the n × n Gram matrix in memory: at most this many points.
MAX_KERNEL_N = 5000


class PegasosScale(StepScale):
    """c_t = 1/(λ s(t)) (0 when s(t) = 0) and C_t = Σ_{τ≤t} c_τ = H_{s(t)}/λ."""

    def __init__(self, lam: float, schedule: str):
        self.lam = lam
        self.shift = 1 if schedule == "pegasos" else 0

    def c(self, t: int) -> float:
        s = t - self.shift
        return 1.0 / (self.lam * s) if s > 0 else 0.0

    def c_many(self, ts: np.ndarray):
        s = (ts - self.shift).astype(np.float64)
        with np.errstate(divide="ignore"):
            out = np.where(s > 0, 1.0 / (self.lam * s), 0.0)
        return out[:, None]

    def C(self, t: int) -> float:
        return harmonic(t - self.shift) / self.lam

    def eta(self, t: int) -> float:
        return self.c(t)


@dataclass(frozen=True, eq=False)
class MulticlassPegasosResult:
    """Output of :func:`multiclass_pegasos`.

    Attributes
    ----------
    W : ndarray (k, d′) or None
        Linear version: the output weights, row c = class c (last column = offset with
        ``bias``). None with a kernel.
    W_last : ndarray (k, d′) or None
        Linear version: the last iterate W(T+1).
    alpha : ndarray (n, k) or None
        Kernelized: output coefficients (ᾱ or α(T+1)); f_c(x) = Σ_j alpha[j, c] K̃(x_j, x).
    beta : ndarray (n, k) or None
        Kernelized: β(T+1) (per point and class: +1 for each step where it was the true
        class of a violated step, −1 where it was the chosen ŷ).
    X_fit : ndarray (n, d) or None
        Kernelized: the training inputs.
    kernel : Kernel or None
    support_ : ndarray of int or None
        Kernelized: indices j with a non-zero row alpha[j].
    classes_ : ndarray, shape (k,)
    bias, lam, T, schedule, averaging, delta : the run's settings.
    objective : float
        λ/2 ‖W‖² + mean generalized hinge loss (the Crammer–Singer objective).
    hinge : float
        The mean generalized hinge loss alone.
    train_error : float
    delta_risk : float
        Mean Δ(h(x_i), y_i) on the training set.
    trace : Trace
        snapshots: "W", "W_iterate" (S, k, d′) (linear) or "alpha", "beta" (S, n, k)
        and "n_support" (kernel); "objective", "hinge", "train_error", "delta_risk" (S,).
        steps: "t", "i", "y", "y_hat", "scores" (n_steps, k), "loss", "changed" (ŷ ≠ y:
        the loss term moved W; the shrinkage by (1 − η_t λ) acts on every step), "eta"
        (c_t with W(t) = c_t θ(t): 1/(λt) under "ssbd", 1/(λ(t−1)) under "pegasos").
    """

    W: np.ndarray | None
    W_last: np.ndarray | None
    alpha: np.ndarray | None
    beta: np.ndarray | None
    X_fit: np.ndarray | None
    kernel: Kernel | None
    support_: np.ndarray | None
    classes_: np.ndarray
    bias: bool
    lam: float
    T: int
    schedule: str
    averaging: str
    delta: np.ndarray
    objective: float
    hinge: float
    train_error: float
    delta_risk: float
    trace: Trace = field(repr=False)

    def decision_function(self, X) -> np.ndarray:
        """Scores ⟨w_c, x̃⟩ (or Σ_j α_jc K̃(x_j, x)) for every row of X, shape (n, k)."""
        if self.kernel is None:
            return linear_scores(self.W, X, self.bias)
        X = check_X(X)
        if X.shape[1] != self.X_fit.shape[1]:
            raise ValueError(
                f"X has {X.shape[1]} features but the model was fitted on {self.X_fit.shape[1]}"
            )
        sv = self.support_
        if sv.size == 0:
            return np.zeros((X.shape[0], self.alpha.shape[1]))
        Kx = self.kernel(X, self.X_fit[sv])
        if self.bias:
            Kx += 1.0
        return Kx @ self.alpha[sv]

    def predict(self, X) -> np.ndarray:
        """argmax of the scores as labels (ties: the smallest class)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


def multiclass_pegasos(
    X,
    y,
    *,
    lam,
    T,
    kernel=None,
    delta=None,
    bias=True,
    schedule="pegasos",
    averaging="average",
    sampling="uniform",
    indices=None,
    random_state=None,
    n_snapshots=100,
    snapshot_spacing="geometric",
    n_steps=300,
    progress=None,
    gamma=1.0,
    degree=3,
    coef0=1.0,
) -> MulticlassPegasosResult:
    """Multiclass Pegasos on the Crammer–Singer objective (seed 002 §2.3), optionally kernelized.

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels of any sortable values, at least two distinct.
    lam : float > 0
        λ, the regularization parameter (C = 1/(λn) in scikit-learn's terms).
    T : int >= 1
    kernel : None, Kernel or {"linear", "poly", "rbf"}
        None: the linear version with explicit W. Otherwise the kernelized version
        (``gamma``, ``degree``, ``coef0`` set a named kernel's parameters).
    delta : array (k, k) or None
        Cost matrix Δ[y′, y] (None: 0-1 loss).
    bias : bool
        Append a constant 1 to x (kernel: use K + 1); the offsets are regularized.
    schedule : {"pegasos", "ssbd"}
        W(t) = θ(t)/(λ(t−1)) (seed 002, Pegasos paper) or θ(t)/(λt) (SSBD).
    averaging : {"average", "last"}
        Output (1/T) Σ_{t=1..T} W(t) or W(T+1).
    sampling, indices, random_state, n_snapshots, snapshot_spacing, n_steps :
        As in :func:`svmcore.multiclass_sgd`.
    progress : callable, optional
        ``progress(t, T)``, called after each snapshot (for a progress bar).

    Returns
    -------
    MulticlassPegasosResult
    """
    X = check_X(X)
    n = X.shape[0]
    classes, y_idx = check_multiclass_y(y, n)
    k = classes.shape[0]
    D = check_delta(delta, k)
    lam = check_positive(lam, "lam")
    T = check_T(T)
    bias = check_bool(bias, "bias")
    check_choice(schedule, "schedule", SCHEDULES)
    check_choice(averaging, "averaging", AVERAGINGS)
    if kernel is not None:
        kernel = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        if n > MAX_KERNEL_N:
            raise ValueError(
                f"X has {n} rows; the kernelized multiclass Pegasos keeps the n × n Gram "
                f"matrix and accepts at most {MAX_KERNEL_N} rows"
            )
    stream = IndexStream(n, T, sampling, indices, random_state)
    times = snapshot_times(T, n_snapshots, snapshot_spacing)
    recorder = TraceRecorder(
        "multiclass_pegasos" if kernel is None else "kernel_multiclass_pegasos",
        times,
        n_steps=n_steps,
        progress=progress,
        info={"lam": lam, "T": T, "n": n, "k": k, "d": X.shape[1], "bias": bias,
              "schedule": schedule, "averaging": averaging, "sampling": stream.sampling,
              "kernel": None if kernel is None else str(kernel),
              "classes": classes.tolist(), "delta": D.tolist()},
    )  # fmt: skip
    scale = PegasosScale(lam, schedule)
    DT = np.ascontiguousarray(D.T)
    settings = dict(classes_=classes, bias=bias, lam=lam, T=T, schedule=schedule,
                    averaging=averaging, delta=D)  # fmt: skip
    if kernel is None:
        return _linear(X, y_idx, D, DT, scale, stream, times, recorder, averaging, settings)
    return _kernel(X, y_idx, D, DT, scale, kernel, stream, times, recorder, averaging, settings)


def _record(recorder, t, lam, norm2, scores, y_idx, D, **arrays):
    summary = training_summary(scores, y_idx, D)
    recorder.record(
        t, **arrays, objective=0.5 * lam * norm2 + summary["hinge"], hinge=summary["hinge"],
        train_error=summary["train_error"], delta_risk=summary["delta_risk"],
    )  # fmt: skip


def _finish(recorder, settings, **fields) -> MulticlassPegasosResult:
    trace = recorder.finish()
    last = {name: float(trace.snapshots[name][-1])
            for name in ("objective", "hinge", "train_error", "delta_risk")}  # fmt: skip
    return MulticlassPegasosResult(**fields, **settings, **last, trace=trace)


def _linear(X, y_idx, D, DT, scale, stream, times, recorder, averaging, settings):
    Xa = augment(X, settings["bias"])
    theta, snaps = linear_engine(
        Xa, y_idx, DT, scale=scale, stream=stream, times=times, recorder=recorder
    )
    W = None
    for t, th, Q in snaps:
        avg, last = average_and_last(scale, t, th, Q)
        W = last if averaging == "last" else avg
        _record(recorder, t, scale.lam, float(np.sum(W * W)), Xa @ W.T, y_idx, D,
                W=W, W_iterate=last)  # fmt: skip
    W_last = scale.c(settings["T"] + 1) * theta
    return _finish(recorder, settings, W=freeze(W), W_last=freeze(W_last), alpha=None, beta=None,
                   X_fit=None, kernel=None, support_=None)  # fmt: skip


def _kernel(X, y_idx, D, DT, scale, kernel, stream, times, recorder, averaging, settings):
    n, k = X.shape[0], DT.shape[0]
    K = kernel(X)
    if settings["bias"]:
        K += 1.0  # K̃ = K + 1: the feature map φ(x) with a constant 1 appended
    beta = np.zeros((n, k))  # β(t)
    Db = np.zeros((n, k))  # Σ_s C_s (per-step change of β), for the average
    F = np.zeros((k, n))  # F[c] = K̃ β[:, c]: class-c scores of all points under θ
    GD = np.zeros((k, n))  # K̃ Db, transposed
    out = {}

    def step_scores(i, t):
        f = F[:, i]
        yi = y_idx[i]
        return DT[yi] + scale.c(t) * (f - f[yi])

    def chunk_scores(I, ts):
        S = F[:, I].T  # (B, k), a copy
        yI = y_idx[I]
        S -= S[np.arange(I.shape[0]), yI][:, None]
        S *= scale.c_many(ts)
        S += DT[yI]
        return S

    def update(i, yh, yi, t):
        row = K[i]  # K̃ is symmetric: row i is column i, contiguous
        beta[i, yh] -= 1.0
        beta[i, yi] += 1.0
        F[yh] -= row
        F[yi] += row
        C = scale.C(t)
        Db[i, yh] += C
        Db[i, yi] -= C
        GD[yh] += C * row
        GD[yi] -= C * row

    def on_snapshot(t):
        if averaging == "last":
            c = scale.c(t + 1)
            alpha, f = c * beta, c * F
        else:
            C = scale.C(t)
            alpha, f = (C * beta + Db) / t, (C * F + GD) / t
        norm2 = float(np.sum(alpha.T * f))  # Σ_c α_cᵀ K̃ α_c
        _record(recorder, t, scale.lam, norm2, f.T, y_idx, D, alpha=alpha, beta=beta,
                n_support=int(np.count_nonzero(np.any(alpha != 0, axis=1))))  # fmt: skip
        out["alpha"] = alpha

    run_steps(
        stream=stream, times=times, y_idx=y_idx, recorder=recorder,
        step_scores=step_scores, chunk_scores=chunk_scores, update=update,
        on_snapshot=on_snapshot, eta_of=scale.eta,
    )  # fmt: skip
    alpha = freeze(out["alpha"])
    return _finish(recorder, settings, W=None, W_last=None, alpha=alpha, beta=freeze(beta),
                   X_fit=X, kernel=kernel,
                   support_=np.flatnonzero(np.any(alpha != 0, axis=1)))  # fmt: skip
