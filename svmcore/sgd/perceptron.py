"""The Perceptron (seed 002 starts from it: "The Pegasos Algorithm looks very similar to
the Perceptron Algorithm"; Rosenblatt)::

    w_1 = 0
    for t = 1, …, T
        choose i (uniformly at random, or in epochs: for iter …, for j = 1, …, |data|)
        if y_i ⟨w_t, x_i⟩ ≤ 0:  w_{t+1} = w_t + y_i x_i
        else:                   w_{t+1} = w_t
    output w_{T+1}

:func:`step` is the loop body. There is no step size and no regularizer; the output is
the last iterate. The perceptron convergence theorem: if some unit u separates the data
with y_i ⟨u, x_i⟩ ≥ γ > 0 and ‖x_i‖ ≤ R, the loop makes at most (R/γ)² updates, so a
separable set is separated after at most (R/γ)² + 1 epochs.

``bias``: "none" is the homogeneous f(x) = ⟨w, x⟩ of the text. "augment" appends the
constant feature 1 (x̃ = (x, 1), b is the last weight and is updated with w:
b ← b + y_i). "free" is accepted and is the same thing: with no regularizer, an
unregularized bias updated by the same sub-gradient step is exactly the augmented one.

Reported quantities: ``objective`` is the perceptron criterion
(1/n) Σ_i max{0, −y_i f(x_i)} (the loss whose sub-gradient the update follows);
``n_support`` counts the training points with y_i f(x_i) ≤ 0 (those on which the loop
would still update: misclassified or on the boundary).

Engines: ``"textbook"`` loops :func:`step`; ``"fast"`` runs the same recursion through
:mod:`svmcore.sgd._engine` (steps with y_i⟨w, x_i⟩ > 0 skipped in vectorised chunks).

Step records (``trace.steps``, the first ``n_steps`` steps): ``t``; ``i`` (the sampled
index, 0-based); ``margin`` = y_i ⟨w_t, x_i⟩ (with the bias: y_i (⟨w_t, x_i⟩ + b_t)) before
the step; ``update``: margin ≤ 0, w changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Unpack

import numpy as np

from svmcore._validation import check_binary_y, check_choice, check_overflow, check_X
from svmcore.sgd._engine import run_fast, run_textbook
from svmcore.sgd.common import LinearDecision, RunOptions, predict_sign, prepare_run
from svmcore.trace import Trace

__all__ = ["BIASES", "PerceptronResult", "perceptron", "step"]

BIASES = ("none", "augment", "free")


def step(w, x_i, y_i):
    """One iteration: if y_i ⟨w_t, x_i⟩ ≤ 0 then w_{t+1} = w_t + y_i x_i.

    Returns w_{t+1} and the margin y_i ⟨w_t, x_i⟩.
    """
    margin = y_i * float(w @ x_i)
    if margin <= 0.0:
        return w + y_i * x_i, margin
    return w, margin


@dataclass(frozen=True, eq=False)
class PerceptronResult(LinearDecision):
    """Output of :func:`perceptron`.

    Attributes
    ----------
    w : ndarray, shape (d,)
        The last iterate w_{T+1} (without the bias coordinate).
    b : float
        The bias (0 under ``bias="none"``).
    T : int
    objective : float
        The perceptron criterion (1/n) Σ_i max{0, −y_i (⟨w, x_i⟩ + b)}.
    train_error : float
        Fraction of training points with sign(f) ≠ y (f = 0 counts as +1).
    n_support : int
        Number of training points with y_i f(x_i) ≤ 0.
    trace : Trace
    """

    w: np.ndarray
    b: float
    T: int
    objective: float
    train_error: float
    n_support: int
    trace: Trace = field(repr=False)


def perceptron(
    X,
    y,
    *,
    T,
    sampling="uniform",
    indices=None,
    random_state=None,
    bias="none",
    **options: Unpack[RunOptions],
) -> PerceptronResult:
    """The Perceptron: w ← w + y_i x_i whenever y_i ⟨w, x_i⟩ ≤ 0; output the last w.

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels in {−1, +1}.
    T : int >= 1
        Number of iterations.
    sampling : {"uniform", "cyclic", "shuffle"}
        i.i.d. uniform, epochs in data order (seed 002's ``for j = 1, …, |data|``), or
        epochs in a fresh random order.
    indices : array of T ints, optional
        Explicit 0-based sample indices (overrides ``sampling``).
    bias : {"none", "augment", "free"}
        Homogeneous (the text), or a bias b updated with w ("free" = "augment"; see the
        module docstring).
    random_state, **options :
        The seed of the sampling stream and the :class:`~svmcore.sgd.common.RunOptions`
        (engine, trace), as in :func:`svmcore.pegasos`; step fields: the module docstring.

    Returns
    -------
    PerceptronResult
    """
    X = check_X(X)
    n, d = X.shape
    y = check_binary_y(y, n)
    check_choice(bias, "bias", BIASES)
    Xa = X if bias == "none" else np.hstack([X, np.ones((n, 1))])
    info = {"bias": bias, "n": n, "d": d}
    run = prepare_run("perceptron", n, info, locals())
    # ‖w_t‖ ≤ t R, so |f| ≤ T R² and the criterion's sum ≤ n T R².
    R2 = float(np.max(np.einsum("ij,ij->i", Xa, Xa)))
    check_overflow(1.0, "T", fixed=2.0 * n * run.T * R2, what="w = Σ y_i x_i or its scores")
    recorder = run.recorder

    def on_snapshot(t, wa):
        f = Xa @ wa
        recorder.record(
            t,
            w=wa[:d],
            b=float(wa[d]) if bias != "none" else 0.0,
            objective=float(np.mean(np.maximum(0.0, -y * f))),
            train_error=float(np.mean(predict_sign(f) != y)),
            n_support=int(np.count_nonzero(y * f <= 0.0)),
        )

    if run.textbook:

        def one(state, I, t):
            i = int(I[0])
            w, margin = step(state[0], Xa[i], y[i])
            return (w,), {"t": t, "i": i, "margin": margin, "update": margin <= 0.0}

        run_textbook(
            one,
            (np.zeros(Xa.shape[1]),),
            iterate=lambda s, t: s,
            stream=run.stream,
            times=run.times,
            recorder=recorder,
            on_snapshot=lambda t, state, total: on_snapshot(t, state[0]),
        )
    else:
        run_fast(_Model(Xa, y, on_snapshot), run.stream, run.times, recorder)
    trace = recorder.finish()
    snap = trace.snapshot(-1)
    return PerceptronResult(
        w=np.array(snap["w"]),
        b=float(snap["b"]),
        T=run.T,
        objective=float(snap["objective"]),
        train_error=float(snap["train_error"]),
        n_support=int(snap["n_support"]),
        trace=trace,
    )


class _Model:
    """The loop for :func:`svmcore.sgd._engine.run_fast`: a step fires when y_i⟨w, x_i⟩ ≤ 0."""

    min_chunk, few, dense_above = 64, 8, 1.0  # re-scanning a chunk is cheap: never dense

    def __init__(self, Xa, y, on_snapshot):
        self.YX = y[:, None] * Xa  # rows y_i x_i: the increments and the margins
        self.w = np.zeros(Xa.shape[1])
        self.on_snapshot = on_snapshot

    def recorded_step(self, i, t):
        margin = float(self.YX[i] @ self.w)
        if margin <= 0.0:
            self.accept(i, t, None)
        return {"t": t, "i": i, "margin": margin, "update": margin <= 0.0}

    def quick_step(self, i, t):
        fired = bool(self.YX[i] @ self.w <= 0.0)
        if fired:
            self.accept(i, t, None)
        return fired

    def chunk_test(self, I, t):
        M = self.YX.take(I, axis=0)
        return (lambda off: M[off:] @ self.w <= 0.0), None

    def accept(self, i, t, extra):
        self.w += self.YX[i]

    def snapshot(self, t):
        self.on_snapshot(t, self.w.copy())
