"""Linear Pegasos: stochastic sub-gradient descent for the soft-SVM primal.

Seed 002, Algorithm 1 ("Perceptron to Pegasos"; the paper samples j at random)::

    initialize w_1 = 0, t = 0
    for iter = 1, 2, …, 20:
        for j = 1, 2, …, |data|:
            t = t + 1;  η_t = 1/(tλ)
            if y_j ⟨w_t, x_j⟩ < 1:  w_{t+1} = (1 − η_t λ) w_t + η_t y_j x_j
            else:                   w_{t+1} = (1 − η_t λ) w_t

minimises λ/2 ‖w‖² + (1/n) Σ_i max{0, 1 − y_i ⟨w, x_i⟩}. :func:`step` is the loop body.

Two step-size conventions, which differ by one index:

* ``schedule="pegasos"``: the box above, η_t = 1/(λt). Unrolled, w_t = θ_t/(λ(t−1))
  where θ accumulates y_j x_j on the margin violations.
* ``schedule="ssbd"``: SSBD §15.5, θ(1) = 0, w(t) = θ(t)/(λt), θ(t+1) = θ(t) + y_i x_i if
  y_i⟨w(t), x_i⟩ < 1: the same recursion with η_t = 1/(λ(t+1)).

Outputs: ``averaging="average"`` gives w̄ = (1/T) Σ_{t=1..T} w_t (SSBD's output);
``"last"`` gives the iterate after step T (seed 002's output).

Options beyond the texts' homogeneous algorithm: mini-batches A_t of size k (the paper),
projection onto the ball of radius 1/√λ (the paper), a bias term, class weights c_i
(seed 002 §2.1) and a reference vector w_ref (seed 002 §2.2, transfer learning).

:func:`step` is seed 002's box as printed (w carried by the (1 − η_tλ) recursion).
:func:`theta_step` is the same box in SSBD's scaled form, with every option:
w_t = θ_t/(kλ s(t)) (w_1 = 0), θ_{t+1} = θ_t + kλ w_ref + Σ_{j∈A_t⁺} c_j y_j x_j; it is
what both engines run, because its margin test y_j⟨θ_t, x_j⟩/(kλ s(t)) < 1 sums the data
first and so resolves the exact ties y_j f(x_j) = 1 of integer-valued data exactly (see
:mod:`svmcore.sgd.common`, "The margin test"; the (1 − η_tλ) recursion does not).

Engines: ``"textbook"`` loops :func:`theta_step`, one iteration at a time, summing the
iterates for the average. ``"fast"`` runs the one-sample algorithm (any schedule,
output, sampling, class weights, ``bias`` "none"/"augment") through
:mod:`svmcore.sgd._engine`, with the same test, vectorised chunks and an O(d)
harmonic-sum average Σ_{t≤T} w_t = (θ_{T+1} H(T) − Φ)/λ; with mini-batches, projection, a
free bias or w_ref the step is already O(kd) and both engines loop :func:`theta_step`.

Step records (``trace.steps``, the first ``n_steps`` steps, in the text's symbols):

* ``t``: the iteration t (1-based);
* ``i``: the sampled index j (0-based; the first of A_t with mini-batches);
* ``margin``: y_j (⟨w_t, x_j⟩ + b_t), with w_t the iterate *before* the step;
* ``update``: the test y_j ⟨w_t, x_j⟩ < 1 fired (some sample of A_t did);
* ``eta``: η_t, 1/(λt) under "pegasos" and 1/(λ(t+1)) under "ssbd";
* ``n_violations`` (mini-batches only): the number of violators in A_t.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Unpack

import numpy as np

from svmcore._validation import (
    check_binary_y,
    check_bool,
    check_choice,
    check_class_weight,
    check_int,
    check_overflow,
    check_positive,
    check_reference,
    check_T,
    check_X,
)
from svmcore.losses import hinge_objective
from svmcore.sgd._engine import run_fast, run_textbook
from svmcore.sgd.common import (
    LinearDecision,
    QueuedUpdates,
    RunOptions,
    harmonic,
    pegasos_eta,
    predict_sign,
    prepare_run,
    schedule_shift,
)
from svmcore.trace import Trace

__all__ = ["BIASES", "PegasosResult", "pegasos", "step", "theta_step"]

BIASES = ("none", "augment", "free")


def step(w, b, X_A, y_A, eta, lam, *, c_A=1.0, w_ref=0.0, free_bias=False, radius=None):
    """One iteration of seed 002's Algorithm 1, on the samples A_t (k = 1 in the text).

    w_{t+1} = (1 − η_t λ) w_t + η_t (1/k) Σ_{j ∈ A_t : y_j(⟨w_t, x_j⟩ + b_t) < 1} c_j y_j x_j
    (around w_ref: (1 − η_t λ)(w_t − w_ref) + w_ref + …); a free bias moves by
    η_t (1/k) Σ c_j y_j over the same violators; the optional projection maps w_{t+1} − w_ref
    onto the ball of radius 1/√λ.

    Returns
    -------
    w_next, b_next, margins
        margins = y_j (⟨w_t, x_j⟩ + b_t) for j ∈ A_t.
    """
    margins = y_A * (X_A @ w + b)
    g = c_A * y_A * (margins < 1.0) / y_A.shape[0]  # (1/k) c_j y_j on the violators
    w_next = (1.0 - eta * lam) * w + eta * lam * w_ref + eta * (g @ X_A)
    if radius is not None:
        v = w_next - w_ref
        norm = float(np.sqrt(v @ v))
        if norm > radius:
            w_next = w_ref + v * (radius / norm)
    b_next = b + eta * float(g.sum()) if free_bias else b
    return w_next, b_next, margins


def theta_step(theta, b, X_A, y_A, s, lam, *, c_A=1.0, w_ref=None, free_bias=False, radius=None):
    """:func:`step` in SSBD's scaled form (§15.5: w(t) = θ(t)/(λt)), on the k samples A_t.

    The iterate is w_t = θ_t/(kλ s) with s = s(t) (t − 1 under "pegasos", t under
    "ssbd"; w_1 = 0, θ_1 = 0). Multiplying seed 002's update
    w_{t+1} = (1 − η_tλ) w_t + η_tλ w_ref + η_t (1/k) Σ_{j∈A_t⁺} c_j y_j x_j
    by kλ s(t+1) = kλ(s + 1) = k/η_t gives

        θ_{t+1} = θ_t + kλ w_ref + Σ_{j ∈ A_t : y_j(⟨w_t, x_j⟩ + b_t) < 1} c_j y_j x_j,

    a plain sum of the data (kλ w_ref only with a reference). A free bias moves by
    η_t (1/k) Σ c_j y_j over the same violators; the optional projection maps
    w_{t+1} − w_ref onto the ball of radius 1/√λ (θ rescaled accordingly).

    The margins y_j(⟨w_t, x_j⟩ + b_t) are computed as y_j⟨θ_t, x_j⟩/(kλ s) + y_j b_t: the
    data's sum first, one division after (:mod:`svmcore.sgd.common`, "The margin test").

    Returns
    -------
    theta_next, b_next, margins
    """
    k = y_A.shape[0]
    if s > 0:
        margins = y_A * (X_A @ theta) / (lam * (k * s)) + y_A * b
    else:  # t = 1 under "pegasos": w_1 = 0 (θ_1 = 0 and the factor 1/(λ·0) is not used)
        margins = y_A * b
    violators = margins < 1.0
    g = c_A * y_A * violators  # c_j y_j on the violators
    theta_next = theta + g @ X_A
    if w_ref is not None:
        theta_next = theta_next + (k * lam) * w_ref
    if radius is not None:
        level = lam * (k * (s + 1))  # w_{t+1} = θ_{t+1}/(kλ s(t+1))
        ref = 0.0 if w_ref is None else w_ref
        v = theta_next / level - ref
        norm = float(np.sqrt(v @ v))
        if norm > radius:
            theta_next = level * (ref + v * (radius / norm))
    if free_bias:
        eta = 1.0 / (lam * (s + 1))
        b = b + eta * float((g / k).sum())
    return theta_next, b, margins


@dataclass(frozen=True, eq=False)
class PegasosResult(LinearDecision):
    """Output of :func:`pegasos`.

    Attributes
    ----------
    w : ndarray, shape (d,)
        The weight vector (without the bias coordinate under ``bias="augment"``).
    b : float
        The bias (0 under ``bias="none"``).
    lam : float
    T : int
    objective : float
        The objective that was minimised at the output: λ/2 ‖w − w_ref‖² (plus λ/2 b²
        under ``bias="augment"``) + (1/n) Σ_i c_i max{0, 1 − y_i (⟨w, x_i⟩ + b)}.
    train_error : float
        Fraction of training points with sign(f) ≠ y.
    n_support : int
        Number of training points with y_i f(x_i) <= 1 (on or inside the margin).
    trace : Trace
    """

    w: np.ndarray
    b: float
    lam: float
    T: int
    objective: float
    train_error: float
    n_support: int
    trace: Trace = field(repr=False)

    @property
    def margin(self) -> float:
        """Half the width of the margin band, 1/‖w‖ (inf when w = 0)."""
        norm = float(np.linalg.norm(self.w))
        return np.inf if norm == 0 else 1.0 / norm


def pegasos(
    X,
    y,
    *,
    lam,
    T,
    schedule="pegasos",
    averaging="average",
    sampling="uniform",
    indices=None,
    batch_size=1,
    projection=False,
    bias="none",
    class_weight=None,
    w_ref=None,
    random_state=None,
    **options: Unpack[RunOptions],
) -> PegasosResult:
    """Linear Pegasos (stochastic sub-gradient descent for the soft-SVM).

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels in {−1, +1}.
    lam : float > 0
        λ, the regularization parameter (C = 1/(λn) in scikit-learn's SVC/LinearSVC;
        scikit-learn's SGDClassifier calls it ``alpha``).
    T : int in [1, 10⁸]
        Number of iterations (capped at :data:`svmcore._validation.MAX_T`). Cost: linear
        in T, about 1 µs per step with the fast engine (T = 10⁸: about 90 s on one core;
        ``progress`` reports at least every 2²⁰ steps and can stop the run by raising).
    schedule : {"pegasos", "ssbd"}
        η_t = 1/(λt) on w_t = θ_t/(λ(t−1)) (the paper, seed 002), or w(t) = θ(t)/(λt)
        (SSBD §15.5); see the module docstring.
    averaging : {"average", "last"}
        Output w̄ = (1/T) Σ_{t=1..T} w_t, or the iterate after step T.
    sampling : {"uniform", "cyclic", "shuffle"}
        i.i.d. uniform (the paper), epochs in data order (seed 002's Algorithm 1, not
        shuffled), or epochs in a fresh random order each time.
    indices : array of ints, optional
        Explicit 0-based sample indices: T of them (T·k with mini-batches of size k,
        read batch by batch). Overrides ``sampling``.
    batch_size : int
        k, the size of the paper's mini-batch A_t (drawn as k consecutive samples of the
        sampling stream, i.e. with replacement under "uniform"); the sub-gradient is the
        average over A_t.
    projection : bool
        After each step, project w onto the ball of radius 1/√λ (the paper's optional
        step; around w_ref when one is given).
    bias : {"none", "augment", "free"}
        "none": homogeneous, f(x) = ⟨w, x⟩, as in the texts. "augment": a constant
        feature 1 is appended and its weight b is regularized with w (what liblinear's
        intercept does). "free": an unregularized b with its own sub-gradient step
        b ← b + η_t · mean over violations of y_i.
    class_weight : None, "balanced" or dict
        Per-class weights c_y on the hinge loss (seed 002 §2.1): "balanced" weights
        each class by n/(2 n_y), i.e. the C_N/(2N_±) of the note up to a constant.
    w_ref : array, shape (d,), optional
        Regularize λ/2 ‖w − w_ref‖² instead of λ/2 ‖w‖² (seed 002 §2.2, transfer
        learning). With ``bias="augment"`` a vector of length d + 1 may include b_ref.
    random_state : None, int >= 0 or Generator
        The seed of the sampling stream (:func:`svmcore._validation.check_random_state`).
    **options : RunOptions
        engine ("fast", or "textbook": :func:`theta_step` in a plain loop, same decisions),
        n_snapshots, snapshot_spacing, n_steps (the recorded step fields: see the module
        docstring), progress — see :class:`svmcore.sgd.common.RunOptions`.

    Returns
    -------
    PegasosResult
    """
    X = check_X(X)
    n, d = X.shape
    y = check_binary_y(y, n)
    lam = check_positive(lam, "lam")
    check_choice(bias, "bias", BIASES)
    batch_size = k = check_int(batch_size, "batch_size", low=1)
    if k > n:
        raise ValueError(f"batch_size must be <= n = {n} (the number of samples), got {k}")
    projection = check_bool(projection, "projection")
    c = check_class_weight(class_weight, y)
    Xa = np.hstack([X, np.ones((n, 1))]) if bias == "augment" else X
    ref = check_reference(w_ref, d, Xa.shape[1])
    if indices is not None and k > 1:
        T = check_T(T)
        indices = np.asarray(indices)
        if indices.ndim != 1 or indices.shape[0] != T * k:
            raise ValueError(
                f"indices must have length T·batch_size = {T * k} with mini-batches, "
                f"got shape {indices.shape}"
            )
    info = {
        "lam": lam,
        "schedule": schedule,
        "averaging": averaging,
        "batch_size": k,
        "projection": projection,
        "bias": bias,
        "n": n,
        "d": d,
    }
    run = prepare_run("pegasos", n, info, locals())
    _check_scale(lam, Xa, c, ref, run.T, n)
    recorder = run.recorder

    def on_snapshot(t, wa, b):
        f = Xa @ wa + b
        recorder.record(
            t,
            w=wa[:d],
            b=float(wa[d]) if bias == "augment" else float(b),
            objective=hinge_objective(f, y, float((wa - ref) @ (wa - ref)), lam, c),
            train_error=float(np.mean(predict_sign(f) != y)),
            n_support=int(np.count_nonzero(y * f <= 1.0)),
        )

    plain = k == 1 and not projection and bias != "free" and w_ref is None
    if plain and not run.textbook:
        model = _ThetaModel(Xa, y, c, lam, schedule, averaging, on_snapshot)
        run_fast(model, run.stream, run.times, recorder)
    else:
        _textbook(Xa, y, c, lam, k, schedule, averaging, projection, bias, ref, run, on_snapshot)
    trace = recorder.finish()
    snap = trace.snapshot(-1)
    return PegasosResult(
        w=np.array(snap["w"]),
        b=float(snap["b"]),
        lam=lam,
        T=run.T,
        objective=float(snap["objective"]),
        train_error=float(snap["train_error"]),
        n_support=int(snap["n_support"]),
        trace=trace,
    )


def _check_scale(lam, Xa, c, ref, T, n) -> None:
    """Refuse a λ so small that w = θ/(λt), its norm or the objective overflow.

    ‖w_t − w_ref‖ ≤ c R/λ (R = max ‖x_i‖), a free bias |b| ≤ c H(T)/λ, so |f| and the
    hinge sum are bounded by n c (c R² + c H(T))/λ plus terms free of λ.
    """
    R = float(np.sqrt(np.max(np.einsum("ij,ij->i", Xa, Xa))))
    cm = float(np.max(c))
    r_ref = float(np.sqrt(ref @ ref))
    check_overflow(
        lam,
        "lam",
        quadratic=cm * R,
        linear=n * cm * cm * (R * R + harmonic(T)),
        fixed=max(T * cm * R * R, n * cm * (1.0 + r_ref * R), r_ref * r_ref),
        what="the iterate w = θ/(λt), its squared norm or the objective",
    )


def _textbook(Xa, y, c, lam, k, schedule, averaging, projection, bias, ref, run, on_snapshot):
    """Loop :func:`theta_step` (both engines, for the options beyond the one-sample θ form)."""
    radius = 1.0 / np.sqrt(lam) if projection else None
    free = bias == "free"
    w_ref = ref if np.any(ref != 0.0) else None
    shift = schedule_shift(schedule)

    def w_at(theta, t):
        s = t - shift
        return theta / (lam * (k * s)) if s > 0 else np.zeros_like(theta)

    def one(state, I, t):
        theta, b = state
        options = {"c_A": c.take(I), "w_ref": w_ref, "free_bias": free, "radius": radius}
        y_A = y.take(I)
        theta, b, margins = theta_step(theta, b, Xa.take(I, axis=0), y_A, t - shift, lam, **options)
        fields = {
            "t": t,
            "i": int(I[0]),
            "margin": float(margins[0]),
            "update": bool(np.any(margins < 1.0)),
            "eta": pegasos_eta(t, lam, schedule),
        }
        if k > 1:
            fields["n_violations"] = int(np.count_nonzero(margins < 1.0))
        return (theta, b), fields

    def snapshot(t, state, total):
        if averaging == "average":
            on_snapshot(t, total[0] / t, float(total[1]) / t)
        else:
            on_snapshot(t, w_at(state[0], t + 1), state[1])

    run_textbook(
        one,
        (np.zeros(Xa.shape[1]), 0.0),
        iterate=lambda state, t: (w_at(state[0], t), state[1]),
        stream=run.stream,
        times=run.times,
        recorder=run.recorder,
        on_snapshot=snapshot,
        batch=k,
    )


class _ThetaModel(QueuedUpdates):
    """The one-sample algorithm in θ form for :func:`svmcore.sgd._engine.run_fast`.

    w_t = θ_t/(λ s(t)); a step on j fires when y_j⟨θ, x_j⟩ < λ s(t) and then θ += c_j y_j x_j
    and Φ += c_j y_j x_j H(t), so that Σ_{τ≤t} w_τ = (θ_{t+1} H(t) − Φ)/λ (the accepted
    steps are queued and folded into Φ at the snapshots, in one product).
    """

    min_chunk, few, dense_above = 64, 8, 1.0  # re-scanning a chunk is cheap: never dense

    def __init__(self, Xa, y, c, lam, schedule, averaging, on_snapshot):
        self.YX = (c * y)[:, None] * Xa  # rows c_j y_j x_j: the θ increments, (n, d)
        self.MX = y[:, None] * Xa  # rows y_j x_j: y_j⟨θ, x_j⟩ = MX @ θ
        self.theta = np.zeros(Xa.shape[1])
        self.phi = np.zeros(Xa.shape[1])
        self.queue_i, self.queue_t = [], []  # accepted steps (i, t) not yet folded into Φ
        self.lam, self.schedule, self.averaging = lam, schedule, averaging
        self.shift = schedule_shift(schedule)
        self.on_snapshot = on_snapshot

    def recorded_step(self, i, t):
        s = t - self.shift
        margin = float(self.MX[i] @ self.theta) / (self.lam * s) if s > 0 else 0.0
        fired = margin < 1.0
        if fired:
            self.accept(i, t, None)
        eta = pegasos_eta(t, self.lam, self.schedule)
        return {"t": t, "i": i, "margin": margin, "update": fired, "eta": eta}

    def quick_step(self, i, t):
        fired = bool(self.MX[i] @ self.theta < self.lam * (t - self.shift))
        if fired:
            self.accept(i, t, None)
        return fired

    def chunk_test(self, I, t):
        self.flush(4096)
        M = self.MX.take(I, axis=0)  # (B, d)
        thresh = self.lam * np.arange(t - self.shift, t - self.shift + I.shape[0], dtype=float)
        theta = self.theta  # changed in place by accept
        return (lambda off: M[off:] @ theta < thresh[off:]), None

    def accept(self, i, t, extra):
        self.theta += self.YX[i]
        self.queue_i.append(i)
        self.queue_t.append(t)

    def fold(self, ai, H):
        """Φ += Σ_queued c_j y_j x_j H(t_u), in one product."""
        self.phi += H @ self.YX[ai]

    def snapshot(self, t):
        self.flush()
        if self.averaging == "last":
            w = self.theta / (self.lam * (t + 1 - self.shift))
        else:
            w = (self.theta * harmonic(t - self.shift) - self.phi) / (self.lam * t)
        self.on_snapshot(t, w, 0.0)
