"""SGD for soft-SVM with kernels (kernel Pegasos).

The algorithm box "SGD for Solving Soft-SVM with Kernels" of SSBD §16.3 (seed 000; also
seed 004, Algorithm 1) solves Equation (16.5),
min_α λ/2 αᵀKα + (1/m) Σ_i max{0, 1 − y_i (Kα)_i}::

    β(1) = 0
    for t = 1, …, T
        α(t) = β(t) / (λt)
        choose i uniformly at random from [m]
        β(t+1) = β(t), except: if y_i Σ_j α_j(t) K(x_j, x_i) < 1 then β_i(t+1) = β_i(t) + y_i
    output ᾱ = (1/T) Σ_{t=1..T} α(t)

Seed 002's Algorithm 2 (kernelized Pegasos) is the same recursion one index earlier,
with unsigned counts β_j and the labels written out::

    β(1) = 0
    for t = 1, 2, …, T
        randomly choose (x(t), y(t)) = (x_j, y_j)
        if y_j (1/(λ(t−1))) Σ_i β_i(t) y_i K(x_i, x_j) < 1:  β_j(t+1) = β_j(t) + 1
        else:                                               β_j(t+1) = β_j(t)
    α_i = β_i(T+1) / (λT)

svmcore keeps SSBD's signed β (its β_j is seed 002's y_j β_j) and α, f(x) = Σ_j α_j K(x_j, x);
the support vectors are the j with α_j ≠ 0. :func:`step` is the loop body.

* ``schedule="ssbd"`` (default): α(t) = β(t)/(λt), the box above;
* ``schedule="pegasos"``: α(t) = β(t)/(λ(t−1)) (α(1) = 0: at t = 1 the factor
  1/(λ(t−1)) is undefined and the sum is empty), seed 002's Algorithm 2.
* ``averaging="last"`` outputs α(T+1) (seed 002's α_i = β_i(T+1)/(λT) under "pegasos").
* ``class_weight`` (seed 002 §2.1): the weighted hinge c_i max{0, 1 − y_i f(x_i)}, whose
  sub-gradient step is β_i += c_i y_i.

The fast engine (:mod:`svmcore.sgd.kernel_pegasos_engine`) keeps g = y ∘ (Kβ), changed
only on accepted steps (O(m) each, O(1) per rejected step, skipped in vectorised chunks),
and the average in O(1) per update:
ᾱ = (β(T+1)·H(T) − D)/(λT), D_j = Σ_{updates u of j} c_j y_j H(t_u), H(t) = Σ_{τ≤t} 1/s(τ).
With the linear kernel this is linear Pegasos in the feature space: SSBD's Lemma 16.3
(w̄ = Σ_j ᾱ_j x_j), which the tests check against :func:`svmcore.pegasos`.

Memory: the Gram matrix Q (8m² bytes, 32 MB at m = 2,000) when it fits in
:data:`svmcore.sgd.kernel_rows.GRAM_BYTES`, else rows on demand; from m = 1,000 on also a
float32 copy on a grid (4m² bytes, 16 MB at m = 2,000) whose rows the steps add when many
fire — faster, with every decision still the one of the exact sum y_i Σ_j β_j K_ji
(a rigorous error band, and that sum itself inside it: ``_BetaModel``'s docstring).

Step records (``trace.steps``, the first ``n_steps`` steps):

* ``t``, ``i``: the iteration and the sampled index (0-based);
* ``margin``: y_i Σ_j α_j(t) K(x_j, x_i), with α(t) before the step;
* ``update``: the margin was < 1 (β changed);
* ``eta``: the factor 1/(λ s(t)) of α(t) = β(t)/(λ s(t)) (1/(λt) under "ssbd",
  1/(λ(t−1)) under "pegasos", where it is recorded as 0 at t = 1: α(1) = 0);
* ``beta_i``: SSBD's signed β_i(t+1) after the step.

Under ``schedule="pegasos"`` also seed 002's own quantities:

* ``j``: the sampled index j (the same as ``i``);
* ``beta_j``: the unsigned count β_j(t+1) = y_j β_i(t+1) (with class weights, c_j per
  accepted step);
* ``factor``: 1/(λ(t−1)), NaN at t = 1 where the text leaves it undefined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Unpack

import numpy as np

from svmcore._validation import (
    check_binary_y,
    check_class_weight,
    check_kernel_range,
    check_overflow,
    check_positive,
    check_X,
)
from svmcore.kernels import Kernel, make_kernel
from svmcore.losses import hinge_objective
from svmcore.sgd._engine import run_fast, run_textbook
from svmcore.sgd.common import (
    RunOptions,
    factor,
    harmonic,
    predict_sign,
    prepare_run,
    schedule_shift,
)
from svmcore.sgd.kernel_pegasos_engine import _BetaModel
from svmcore.sgd.kernel_rows import gram_columns, margin_rows
from svmcore.trace import Trace

__all__ = ["KernelPegasosResult", "kernel_pegasos", "step"]


def step(beta, K_i, y, i, lam, s, c_i=1.0):
    """One iteration of SSBD's box on the sampled i, with s = s(t) (t or t − 1).

    α(t) = β(t)/(λ s); if y_i Σ_j α_j(t) K(x_j, x_i) < 1 then β_i(t+1) = β_i(t) + c_i y_i.
    ``K_i`` is the column (K(x_j, x_i))_j. Returns β(t+1) and the margin.

    The margin is computed as y_i Σ_j β_j(t) K(x_j, x_i) / (λ s): the sum of the data first
    (exact for integer-valued K and β), one division after, as the fast engine does
    (:mod:`svmcore.sgd.common`, "The margin test"); α(t) = β(t)/(λ s) formed first would
    round every coefficient and decide the exact ties of the linear kernel by the last bit.
    """
    margin = y[i] * float(beta @ K_i) / (lam * s) if s > 0 else 0.0  # α(1) = 0 at s = 0
    beta = beta.copy()
    if margin < 1.0:
        beta[i] += c_i * y[i]
    return beta, margin


@dataclass(frozen=True, eq=False)
class KernelPegasosResult:
    """Output of :func:`kernel_pegasos`.

    Attributes
    ----------
    alpha : ndarray, shape (m,)
        Signed coefficients ᾱ (or α(T+1)); f(x) = Σ_j alpha_j K(x_j, x).
    beta : ndarray, shape (m,)
        β(T+1): c_j y_j times the number of accepted steps on sample j.
    X_fit, y : ndarray
        The training data.
    kernel : Kernel
    lam : float
    T : int
    support_ : ndarray of int
        Indices j with alpha_j ≠ 0.
    objective : float
        λ/2 αᵀKα + (1/m) Σ_i c_i max{0, 1 − y_i (Kα)_i} (SSBD's Equation 16.5; c = 1
        without class weights).
    train_error : float
        Fraction of training points with sign(f) ≠ y.
    trace : Trace
    """

    alpha: np.ndarray
    beta: np.ndarray
    X_fit: np.ndarray
    y: np.ndarray
    kernel: Kernel
    lam: float
    T: int
    support_: np.ndarray
    objective: float
    train_error: float
    trace: Trace = field(repr=False)

    def decision_function(self, X) -> np.ndarray:
        """f(x) = Σ_j α_j K(x_j, x) for each row of X, shape (n,)."""
        X = check_X(X)
        if X.shape[1] != self.X_fit.shape[1]:
            raise ValueError(
                f"X has {X.shape[1]} features but the model was fitted on {self.X_fit.shape[1]}"
            )
        sv = self.support_
        if sv.size == 0:
            return np.zeros(X.shape[0])
        return self.kernel(X, self.X_fit[sv]) @ self.alpha[sv]

    def predict(self, X) -> np.ndarray:
        """±1 predictions, sign(f(x)) (+1 where f > 0)."""
        return predict_sign(self.decision_function(X))

    @property
    def n_support(self) -> int:
        return int(self.support_.size)


def kernel_pegasos(
    X,
    y,
    *,
    kernel="rbf",
    gamma=1.0,
    degree=3,
    coef0=1.0,
    lam,
    T,
    schedule="ssbd",
    averaging="average",
    sampling="uniform",
    indices=None,
    class_weight=None,
    random_state=None,
    **options: Unpack[RunOptions],
) -> KernelPegasosResult:
    """SGD for soft-SVM with kernels (SSBD §16.3; kernel Pegasos, seed 002 Algorithm 2).

    Parameters
    ----------
    X : array, shape (m, d)
    y : array, shape (m,)
        Labels in {−1, +1}.
    kernel : Kernel or {"linear", "poly", "rbf"}
        The kernel; with a name, ``gamma``, ``degree`` and ``coef0`` set its parameters.
    lam : float > 0
        λ, the regularization parameter (not a learning rate).
    T : int >= 1
        Number of iterations.
    schedule : {"ssbd", "pegasos"}
        α(t) = β(t)/(λt) (SSBD, default) or β(t)/(λ(t−1)) (seed 002, Pegasos paper).
    averaging : {"average", "last"}
        Output ᾱ = (1/T) Σ_{t=1..T} α(t) (default, SSBD) or α(T+1) (seed 002).
    sampling : {"uniform", "cyclic", "shuffle"}
        How i is chosen (see :class:`svmcore._sampling.IndexStream`).
    indices : array of T ints, optional
        Explicit 0-based sample indices (overrides ``sampling``).
    class_weight : None, "balanced" or dict
        Per-class weights c_y on the hinge loss (seed 002 §2.1), as in :func:`pegasos`.
    random_state, **options :
        The seed of the sampling stream and the :class:`~svmcore.sgd.common.RunOptions`
        (engine, trace), as in :func:`svmcore.pegasos`; step fields: the module docstring.

    Returns
    -------
    KernelPegasosResult
    """
    X = check_X(X)
    m = X.shape[0]
    y = check_binary_y(y, m)
    lam = check_positive(lam, "lam")
    c = check_class_weight(class_weight, y)
    kernel = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
    info = {"lam": lam, "schedule": schedule, "averaging": averaging, "kernel": str(kernel), "m": m}
    run = prepare_run("kernel_pegasos", m, info, locals())
    # |α_j(t)| sums to at most 2 c_max/λ, so |f| ≤ 2 c_max K_max/λ and αᵀKα ≤ (2 c_max)² K_max/λ².
    k_max, cm = check_kernel_range(kernel, X), float(np.max(c))
    check_overflow(
        lam,
        "lam",
        quadratic=2.0 * cm * np.sqrt(k_max),
        linear=2.0 * m * cm * cm * k_max,
        fixed=run.T * cm * k_max * (1.0 + harmonic(run.T)),
        what="the coefficients α = β/(λt), αᵀKα or the objective",
    )
    recorder = run.recorder
    Q, kmatvec = margin_rows(kernel, X, y, c)

    def on_snapshot(t, coef, f, beta):
        recorder.record(
            t,
            alpha=coef,
            beta=beta,
            objective=hinge_objective(f, y, float(coef @ f), lam, c),
            train_error=float(np.mean(predict_sign(f) != y)),
            n_support=int(np.count_nonzero(coef)),
        )

    def step_record(i, t, margin, beta_i):
        """The recorded fields of step t (see the module docstring)."""
        s = t - schedule_shift(schedule)
        fields = {
            "t": t,
            "i": i,
            "margin": margin,
            "update": margin < 1.0,
            "eta": 1.0 / (lam * s) if s > 0 else 0.0,
            "beta_i": beta_i,
        }
        if schedule == "pegasos":
            fields.update(j=i, beta_j=float(y[i] * beta_i), factor=factor(t, lam, schedule))
        return fields

    if run.textbook:
        _textbook(X, y, c, kernel, lam, schedule, averaging, run, kmatvec, on_snapshot, step_record)
    else:
        model = _BetaModel(y, c, lam, schedule, averaging, Q, kmatvec, on_snapshot)
        model.step_record = step_record
        run_fast(model, run.stream, run.times, recorder)
    trace = recorder.finish()
    alpha = np.array(trace.snapshots["alpha"][-1])
    return KernelPegasosResult(
        alpha=alpha,
        beta=np.array(trace.snapshots["beta"][-1]),
        X_fit=X,
        y=y,
        kernel=kernel,
        lam=lam,
        T=run.T,
        support_=np.flatnonzero(alpha),
        objective=float(trace.snapshots["objective"][-1]),
        train_error=float(trace.snapshots["train_error"][-1]),
        trace=trace,
    )


def _textbook(X, y, c, kernel, lam, schedule, averaging, run, kmatvec, on_snapshot, step_record):
    """Loop :func:`step` with the Gram matrix's columns (O(m) per step, as the box)."""
    shift = schedule_shift(schedule)
    column = gram_columns(kernel, X)

    def alpha_at(beta, t):
        s = t - shift
        return beta / (lam * s) if s > 0 else np.zeros_like(beta)

    def one(state, I, t):
        (beta,) = state
        i = int(I[0])
        s = t - shift
        beta, margin = step(beta, column(i), y, i, lam, s, c[i])
        return (beta,), step_record(i, t, margin, float(beta[i]))

    def snapshot(t, state, total):
        if averaging == "last":  # α(t+1) = β/(λ s(t+1)), K α = (K β)/(λ s(t+1)): sums first
            level = lam * (t + 1 - shift)
            on_snapshot(t, state[0] / level, kmatvec(state[0]) / level, state[0])
        else:
            coef = total[0] / t
            on_snapshot(t, coef, kmatvec(coef), state[0])

    run_textbook(
        one,
        (np.zeros(X.shape[0]),),
        iterate=lambda s, t: (alpha_at(s[0], t),),
        stream=run.stream,
        times=run.times,
        recorder=run.recorder,
        on_snapshot=snapshot,
    )
