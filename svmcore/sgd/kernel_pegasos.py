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

The fast engine keeps g = y ∘ (Kβ), changed only on accepted steps (O(m) each, O(1) per
rejected step, skipped in vectorised chunks), and the average in O(1) per update:
ᾱ = (β(T+1)·H(T) − D)/(λT), D_j = Σ_{updates u of j} c_j y_j H(t_u), H(t) = Σ_{τ≤t} 1/s(τ).
With the linear kernel this is linear Pegasos in the feature space: SSBD's Lemma 16.3
(w̄ = Σ_j ᾱ_j x_j), which the tests check against :func:`svmcore.pegasos`.

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
    QueuedUpdates,
    RunOptions,
    factor,
    harmonic,
    harmonic_array,
    predict_sign,
    prepare_run,
    schedule_shift,
)
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


_NOTHING_LEFT = np.zeros(1, dtype=bool)  # chunk_test's answer: no step of the chunk is left


class _BetaModel(QueuedUpdates):
    """The box for :func:`svmcore.sgd._engine.run_fast`: g = y ∘ (Kβ) = λ s(t) × margins.

    :meth:`chunk_test` runs the chunk's steps itself: the loop of
    :func:`svmcore.sgd._engine._scan` (test the rest of the chunk under the current g,
    accept the first step whose test fires, repeat) written out in place, without a
    Python call per accepted step, in windows sized by the engine's rule (``min_chunk``
    steps after a busy window, one where more than ``few`` of every ``min_chunk`` steps
    fired, else twice as many); it then tells the engine that no step of the chunk is left
    to accept. A window that follows a busy one (``step_below`` steps or fewer) runs
    ``step_window`` steps one at a time in Python instead, testing g_i (read through a
    memoryview, which follows the in-place updates) against λ s(t): with many steps
    accepted that costs less than re-scanning the window after each accepted step. The
    decisions and the order of the updates of g are those of the engine's loop either way,
    so the run is the same bit for bit. The accepted steps are marked in a byte per step
    and folded into β and D once per chunk (:meth:`fold`), in their order.

    Cost with many steps accepted: each accepted step adds a row of Q (m floats) to g,
    which at m = 2,000 (Q: 32 MB, about the size of the L3 cache) is most of the time —
    memory traffic of about 16 KB per accepted step.
    """

    min_chunk, few, dense_above = 64, 8, 1.0  # re-scanning a chunk is cheap: never dense
    _window = 64  # the current window of chunk_test (adapted as the engine adapts chunks)
    step_below = 64  # windows this short (many steps fired) run one step at a time
    step_window = 1024  # the steps of such a window (its loop's set-up paid once per window)

    def __init__(self, y, c, lam, schedule, averaging, Q, kmatvec, on_snapshot):
        m = y.shape[0]
        self.beta = np.zeros(m)  # β(t)
        self.D = np.zeros(m)  # D_j = Σ_u c_j y_j H(t_u) over the updates u of j
        self.g = np.zeros(m)  # y ∘ (Kβ)
        self.y, self.cy = y, c * y
        self.lam, self.averaging = lam, averaging
        self.shift = schedule_shift(schedule)
        self.Q, self.kmatvec, self.on_snapshot = Q, kmatvec, on_snapshot  # Q[i]: rows
        self.step_record = None  # set by kernel_pegasos: the recorded fields
        self.queue_i, self.queue_t = [], []  # accepted steps (i, t) not yet folded into β and D
        self._rows = list(Q) if isinstance(Q, np.ndarray) else Q  # Q[i] without a new view

    def recorded_step(self, i, t):
        s = t - self.shift
        margin = float(self.g[i]) / (self.lam * s) if s > 0 else 0.0
        fired = margin < 1.0
        if fired:
            self.accept(i, t, None)
            self.flush()
        return self.step_record(i, t, margin, float(self.beta[i]))

    def quick_step(self, i, t):
        fired = bool(self.g[i] < self.lam * (t - self.shift))
        if fired:
            self.accept(i, t, None)
        return fired

    def chunk_test(self, I, t):
        g, Q, lam = self.g, self.Q, self.lam
        take = g.take
        s0 = t - self.shift
        few, min_chunk = self.few, self.min_chunk
        W = self._window
        B = I.shape[0]
        fl = bytearray(B)  # fl[k] = 1: step t + k fired (folded into β and D at the end)
        flags = memoryview(fl)
        gv = None  # g as Python floats (a memoryview, which follows the updates in place)
        start = 0
        while start < B:
            if W <= self.step_below:
                # many steps fire: one step at a time in Python is cheaper than re-scanning
                # the window after each (the same test on the same g, so the same decisions)
                stop = min(B, start + max(W, self.step_window))
                if gv is None:
                    gv = memoryview(g)
                rows = self._rows
                # λ s(t) for the window's steps, as Python floats (the same products)
                thr = (lam * np.arange(s0 + start, s0 + stop, dtype=float)).tolist()
                marks = flags[start:stop]  # a view: marks[k] is fl[start + k]
                for k, i in enumerate(I[start:stop].tolist()):
                    if gv[i] < thr[k]:
                        g += rows[i]
                        marks[k] = 1
                fired = fl.count(1, start, stop)
            else:
                stop = min(B, start + W)
                Iw = I[start:stop]
                off, fired, nw = 0, 0, stop - start
                # y_i g_i < λ s(t)  ⇔  y_i Σ_j α_j(t) K_ji < 1   (t >= 2 here, so s(t) > 0)
                thresh = lam * np.arange(s0 + start, s0 + stop, dtype=float)
                while off < nw:
                    mask = take(Iw[off:]) < thresh[off:]
                    p = int(mask.argmax())
                    if not mask[p]:
                        break
                    pos = off + p
                    g += Q[int(Iw[pos])]  # the update of :meth:`accept`, in place
                    fl[start + pos] = 1
                    fired += 1
                    off = pos + 1
            # busy: more than `few` of every `min_chunk` steps fired
            W = min_chunk if fired * min_chunk > few * (stop - start) else min(2 * W, 1 << 16)
            start = stop
        self._window = W
        pos = np.flatnonzero(np.frombuffer(fl, dtype=np.uint8))
        if pos.shape[0]:
            self.flush()  # the steps accepted before this chunk's, in order
            self.fold(I[pos], harmonic_array(pos + s0))
        return (lambda off: _NOTHING_LEFT), None

    def accept(self, i, t, extra):
        self.g += self.Q[i]
        self.queue_i.append(i)
        self.queue_t.append(t)

    def fold(self, ai, H):
        """β_j += c_j y_j and D_j += c_j y_j H(t_u) for the queued steps."""
        steps = self.cy[ai]
        np.add.at(self.beta, ai, steps)
        np.add.at(self.D, ai, steps * H)

    def snapshot(self, t):
        self.flush()
        if self.averaging == "last":
            level = self.lam * (t + 1 - self.shift)
            coef, f = self.beta / level, self.y * self.g / level  # K α = y ∘ g/(λ s)
        else:
            coef = (self.beta * harmonic(t - self.shift) - self.D) / (self.lam * t)
            sv = np.flatnonzero(coef)
            if isinstance(self.Q, np.ndarray) and 2 * sv.shape[0] <= coef.shape[0]:
                # K ᾱ = y ∘ (Qᵀ (ᾱ / cy)) over the support only: its rows, not all of Q
                f = self.y * ((coef[sv] / self.cy[sv]) @ self.Q[sv])
            else:
                f = self.kmatvec(coef)
        self.on_snapshot(t, coef, f, self.beta)
