"""Regularized multiclass Pegasos, linear and kernelized (seed 002 §2.3, SSBD §17.2).

Seed 002 §2.3 states the multiclass SVM (one weight vector and offset per class, one
slack per point, w_{y_j}ᵀx_j + b_{y_j} ≥ w_{y′}ᵀx_j + b_{y′} + 1 − ξ_j) and says "we could
derive a similar Pegasos algorithm". Written with SSBD's Ψ and Δ (seed 001), the
problem is the Crammer–Singer objective

    F(W) = λ/2 ‖W‖² + (1/n) Σ_i max_{y′} [Δ(y′, y_i) + ⟨w_{y′} − w_{y_i}, x̃_i⟩]

(Δ = 0-1 loss gives seed 002's constraints; with ``class_weight`` (seed 002 §2.1) the
hinge of point i is weighted, (1/n) Σ_i c_{y_i} max_{y′} […], its subgradient λW + c_{y_i} v_t
and the update W(t+1) = (1 − η_t λ) W(t) − η_t c_{y_i} v_t; x̃ = (x, 1) with ``bias=True``, which
regularizes the offsets too). Its stochastic subgradient at (x_i, y_i) is λW + v_t with
v_t = Ψ(x_i, ŷ) − Ψ(x_i, y_i) and ŷ the most violating label, so Pegasos reads::

    W(1) = 0
    for t = 1, …, T
        sample i;  ŷ ∈ argmax_{y′} Δ(y′, y_i) + ⟨W(t), Ψ(x_i, y′) − Ψ(x_i, y_i)⟩
        W(t+1) = (1 − η_t λ) W(t) − η_t v_t
    output W̄ = (1/T) Σ_{t=1..T} W(t)   (or W(T+1))

with η_t = 1/(λt) (``schedule="pegasos"``) or η_t = 1/(λ(t+1)) (``schedule="ssbd"``,
which is SSBD §15.5's θ(t+1) = θ(t) − v_t, W(t) = θ(t)/(λt)). Both are
W(t) = θ(t)/(λ s(t)) with s(t) = t − 1 or t, and both engines run that θ form (θ a sum
of the data; scores (⟨θ, Ψ(x, y′) − Ψ(x, y)⟩)/(λ s(t)) + Δ(y′, y) computed in one order, so
that exact ties between classes go the same way in both: :mod:`svmcore.sgd.common`, "The
margin test"): ``"textbook"`` loops :func:`svmcore.sgd.multiclass_sgd.theta_step` one
iteration at a time. :func:`step` (linear) and :func:`kernel_step` are the box itself,
on W and on α.

Kernelized (``kernel`` given, in :mod:`svmcore.sgd.kernel_multiclass_pegasos`): the
class-c weight vector is Σ_j α_{jc} φ(x_j), so W(t+1) = (1 − η_t λ) W(t) − η_t v_t reads
α(t+1) = (1 − η_t λ) α(t), then α_{i,ŷ} −= η_t and α_{i,y_i} += η_t, with the scores
f_c(x) = Σ_j α_{jc} K̃(x_j, x) and K̃ = K + 1 when ``bias=True``.

Step records (``trace.steps``, the first ``n_steps`` steps): ``t``, ``i``, ``y``,
``y_hat``, ``scores`` (the k values Δ(y′, y_i) + ⟨W(t), Ψ(x_i, y′) − Ψ(x_i, y_i)⟩ that chose
ŷ), ``loss`` (their maximum), ``changed`` (ŷ ≠ y: v_t moved W; the shrinkage by
(1 − η_t λ) acts on every step) and ``eta``: η_t exactly as in the update above,
1/(λt) under "pegasos" and 1/(λ(t+1)) under "ssbd".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Unpack

import numpy as np

from svmcore._validation import check_kernel_range, check_overflow, check_positive, check_X
from svmcore.kernels import Kernel, make_kernel
from svmcore.sgd._engine import run_fast
from svmcore.sgd.common import RunOptions, harmonic, prepare_run
from svmcore.sgd.kernel_multiclass_pegasos import kernel_step, run_kernel
from svmcore.sgd.multiclass_common import (
    MulticlassData,
    PegasosScale,
    ThetaMulticlassModel,
    linear_scores,
    prepare_multiclass,
    training_summary,
)
from svmcore.sgd.multiclass_sgd import multiclass_textbook
from svmcore.trace import Trace, freeze

__all__ = ["MAX_KERNEL_N", "MulticlassPegasosResult", "kernel_step", "multiclass_pegasos", "step"]

#: The kernelized version keeps the n × n Gram matrix in memory: at most this many points.
MAX_KERNEL_N = 5000


def step(W, x, y, eta, lam, delta, c=1.0):
    """One iteration on (x̃, y): W(t+1) = (1 − η_t λ) W(t) − η_t c_y (Ψ(x, ŷ) − Ψ(x, y)),
    c_y = ``c`` the class weight (seed 002 §2.1; 1 for the unweighted box).

    Returns W(t+1), the k scores Δ(y′, y) + ⟨W(t), Ψ(x, y′) − Ψ(x, y)⟩ and ŷ.
    """
    scores = delta[:, y] + W @ x - W[y] @ x
    y_hat = int(np.argmax(scores))  # ties: the smallest class index
    W_next = (1.0 - eta * lam) * W
    if y_hat != y:
        W_next[y_hat] -= eta * c * x
        W_next[y] += eta * c * x
    return W_next, scores, y_hat


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
        λ/2 ‖W‖² + mean generalized hinge loss (the Crammer–Singer objective), each point's
        loss weighted by c_{y_i} with class weights.
    hinge : float
        The mean (weighted) generalized hinge loss alone.
    train_error : float
    delta_risk : float
        Mean Δ(h(x_i), y_i) on the training set.
    trace : Trace
        snapshots: "W", "W_iterate" (S, k, d′) (linear) or "alpha", "beta" (S, n, k)
        and "n_support" (kernel); "objective", "hinge", "train_error", "delta_risk" (S,).
        steps: see the module docstring.
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
    gamma=1.0,
    degree=3,
    coef0=1.0,
    delta=None,
    bias=True,
    class_weight=None,
    schedule="pegasos",
    averaging="average",
    sampling="uniform",
    indices=None,
    random_state=None,
    **options: Unpack[RunOptions],
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
    class_weight : None, "balanced" or dict
        Per-class weights c_y of the weighted hinge c_{y_i} max_{y′}[…] (seed 002 §2.1):
        "balanced" gives c_y = n/(k n_y), a dict maps labels to weights (others: 1).
    schedule : {"pegasos", "ssbd"}
        η_t = 1/(λt), W(t) = θ(t)/(λ(t−1)) (seed 002, Pegasos paper) or θ(t)/(λt) (SSBD).
    averaging : {"average", "last"}
        Output (1/T) Σ_{t=1..T} W(t) or W(T+1).
    sampling, indices : as in :func:`svmcore.multiclass_sgd`.
    random_state : int, Generator or None
        The seed of the sampling stream.
    **options : RunOptions
        engine, n_snapshots, snapshot_spacing, n_steps, progress:
        The run's options, as in :func:`svmcore.pegasos` (the recorded step fields: see
        the module docstring; the textbook engine loops the θ form of :func:`step`
        or of :func:`kernel_step`, one iteration at a time).

    Returns
    -------
    MulticlassPegasosResult
    """
    data = prepare_multiclass(X, y, delta, bias, class_weight)
    n = data.X.shape[0]
    lam = check_positive(lam, "lam")
    if kernel is not None:
        kernel = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        if n > MAX_KERNEL_N:
            raise ValueError(
                f"X has {n} rows; the kernelized multiclass Pegasos keeps the n × n Gram "
                f"matrix and accepts at most {MAX_KERNEL_N} rows"
            )
    info = {
        **data.info(),
        "lam": lam,
        "schedule": schedule,
        "averaging": averaging,
        "kernel": None if kernel is None else str(kernel),
    }
    name = "multiclass_pegasos" if kernel is None else "kernel_multiclass_pegasos"
    run = prepare_run(name, n, info, locals())
    # ‖x̃‖² (or K̃(x, x)) ≤ r2: ‖W(t)‖ ≤ 2√r2/λ, scores ≤ 4 r2/λ, the average's
    # accumulators ≤ 2 T H(T) √r2/λ.
    r2 = data.radius**2 if kernel is None else check_kernel_range(kernel, data.X) + data.bias
    # class weights scale every increment by at most c = max c_y: bound with r·c
    T, r = run.T, float(np.sqrt(r2)) * data.c_max
    r2 = r * r if data.c is not None else r2
    check_overflow(
        lam,
        "lam",
        quadratic=2.0 * r,
        linear=4.0 * n * (r2 + r * T * (1.0 + harmonic(T))),
        fixed=max(n * (1.0 + float(np.max(data.D))) * data.c_max, 2.0 * T * r2),
        what="the iterate W = θ/(λt), its squared norm or the objective",
    )
    scale = PegasosScale(lam, schedule)
    settings = {
        "classes_": data.classes,
        "bias": data.bias,
        "lam": lam,
        "T": T,
        "schedule": schedule,
        "averaging": averaging,
        "delta": data.D,
    }
    if kernel is None:
        return _linear(data, scale, run, settings)
    return _kernel(data, scale, kernel, run, settings)


def _record(recorder, t, lam, norm2, scores, data, **arrays):
    summary = training_summary(scores, data.y_idx, data.D, data.c)
    recorder.record(
        t,
        **arrays,
        objective=0.5 * lam * norm2 + summary["hinge"],
        hinge=summary["hinge"],
        train_error=summary["train_error"],
        delta_risk=summary["delta_risk"],
    )


def _finish(run, settings, **fields) -> MulticlassPegasosResult:
    trace = run.recorder.finish()
    last = {
        name: float(trace.snapshots[name][-1])
        for name in ("objective", "hinge", "train_error", "delta_risk")
    }
    return MulticlassPegasosResult(**fields, **settings, **last, trace=trace)


def _linear(data: MulticlassData, scale: PegasosScale, run, settings):
    out = {}

    def on_snapshot(t, average, last):
        W = last if settings["averaging"] == "last" else average
        out["W"], out["last"] = W, last
        _record(
            run.recorder,
            t,
            scale.lam,
            float(np.sum(W * W)),
            data.Xa @ W.T,
            data,
            W=W,
            W_iterate=last,
        )

    if run.textbook:
        multiclass_textbook(data, run, on_snapshot, scale)
    else:
        run_fast(
            ThetaMulticlassModel(data, scale, on_snapshot), run.stream, run.times, run.recorder
        )
    return _finish(
        run,
        settings,
        W=freeze(out["W"]),
        W_last=freeze(out["last"]),
        alpha=None,
        beta=None,
        X_fit=None,
        kernel=None,
        support_=None,
    )


def _kernel(data: MulticlassData, scale: PegasosScale, kernel, run, settings):
    K = kernel(data.X)
    if data.bias:
        K += 1.0  # K̃ = K + 1: the feature map φ(x) with a constant 1 appended
    out = {}

    def on_snapshot(t, alpha, f, beta):
        norm2 = float(np.sum(alpha.T * f))  # Σ_c α_cᵀ K̃ α_c
        _record(
            run.recorder,
            t,
            scale.lam,
            norm2,
            f.T,
            data,
            alpha=alpha,
            beta=beta,
            n_support=int(np.count_nonzero(np.any(alpha != 0, axis=1))),
        )
        out["alpha"], out["beta"] = alpha, beta

    run_kernel(data, scale, K, run, on_snapshot, last=settings["averaging"] == "last")
    alpha = freeze(np.array(out["alpha"]))
    return _finish(
        run,
        settings,
        W=None,
        W_last=None,
        alpha=alpha,
        beta=freeze(np.array(out["beta"])),
        X_fit=data.X,
        kernel=kernel,
        support_=np.flatnonzero(np.any(alpha != 0, axis=1)),
    )
