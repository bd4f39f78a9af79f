"""Linear Pegasos: stochastic sub-gradient descent for the soft-SVM primal.

Minimises (Shalev-Shwartz, Singer, Srebro & Cotter, *Pegasos*; seed 002 §1; SSBD §15.5)

    λ/2 ‖w‖² + (1/n) Σ_i max{0, 1 − y_i ⟨w, x_i⟩}.

Two step-size conventions, which differ by one index:

* ``schedule="pegasos"`` — the paper and seed 002's Algorithm 1: w_1 = 0,
  η_t = 1/(λt), w_{t+1} = (1 − η_tλ) w_t + η_t 1[y_i⟨w_t, x_i⟩ < 1] y_i x_i.
  Unrolled, w_{t+1} = θ_{t+1}/(λt), where θ accumulates y_i x_i on margin violations:
  the iterate at step t is w_t = θ_t/(λ(t−1)).
* ``schedule="ssbd"`` — SSBD §15.5: θ(1) = 0, w(t) = θ(t)/(λt), and
  θ(t+1) = θ(t) + y_i x_i if y_i⟨w(t), x_i⟩ < 1. The same recursion with η_t = 1/(λ(t+1)).

The first step shows the difference: from w_1 = 0 the sample is always a violation, and
w_2 = y x/λ under "pegasos" but w(2) = y x/(2λ) under "ssbd".

Outputs: ``averaging="average"`` gives w̄ = (1/T) Σ_{t=1..T} w_t (the iterates at which
the sub-gradients were taken, w_1 = 0; SSBD's output); ``"last"`` gives the iterate after
the T-th step, θ_{T+1}/(λT) ("pegasos") or θ(T+1)/(λ(T+1)) ("ssbd").

Options beyond the texts' homogeneous algorithm: mini-batches A_t of size k (the
paper), projection onto the ball of radius 1/√λ (the paper), a bias term, class weights
(seed 002 §2.1) and a reference vector w_ref (seed 002 §2.2, transfer learning).

The plain one-sample algorithm (no projection, no free bias, no w_ref) runs in the θ
form with vectorised skipping of rejected steps and an O(d) harmonic-sum average, and
equals a textbook loop to rounding; the other options run the explicit recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._sampling import IndexStream
from svmcore._validation import (
    check_binary_y,
    check_bool,
    check_choice,
    check_class_weight,
    check_int,
    check_positive,
    check_T,
    check_X,
)
from svmcore.kernel_sgd import AVERAGINGS, _schedule_s, harmonic_array, predict_sign
from svmcore.trace import Trace, TraceRecorder, snapshot_times

__all__ = ["PegasosResult", "pegasos"]

SCHEDULES = ("pegasos", "ssbd")
BIASES = ("none", "augment", "free")


@dataclass(frozen=True, eq=False)
class PegasosResult:
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

    def decision_function(self, X) -> np.ndarray:
        """f(x) = ⟨w, x⟩ + b for each row of X, shape (n,)."""
        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(
                f"X has {X.shape[1]} features but the model was fitted on {self.w.shape[0]}"
            )
        return X @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """±1 predictions, sign(f(x)) (+1 where f > 0)."""
        return predict_sign(self.decision_function(X))

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
    n_snapshots=100,
    snapshot_spacing="geometric",
    n_steps=300,
    progress=None,
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
    T : int >= 1
        Number of iterations.
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
    random_state : int, Generator or None
    n_snapshots : int
        Number of snapshots in the trace (t = 1 and t = T always among them).
    snapshot_spacing : {"geometric", "linear"}
    n_steps : int
        Number of first steps recorded in detail.
    progress : callable, optional
        ``progress(t, T)``, called after each snapshot (for a progress bar).

    Returns
    -------
    PegasosResult
    """
    X = check_X(X)
    n, d = X.shape
    y = check_binary_y(y, n)
    lam = check_positive(lam, "lam")
    T = check_T(T)
    check_choice(schedule, "schedule", SCHEDULES)
    check_choice(averaging, "averaging", AVERAGINGS)
    check_choice(bias, "bias", BIASES)
    k = check_int(batch_size, "batch_size", low=1)
    if k > n:
        raise ValueError(f"batch_size must be <= n = {n} (the number of samples), got {k}")
    projection = check_bool(projection, "projection")
    check_int(n_steps, "n_steps", low=0)
    c = check_class_weight(class_weight, y)
    Xa = np.hstack([X, np.ones((n, 1))]) if bias == "augment" else X
    da = Xa.shape[1]
    if w_ref is not None:
        w_ref = np.asarray(w_ref, dtype=np.float64)
        if w_ref.ndim != 1 or w_ref.shape[0] not in (d, da):
            raise ValueError(f"w_ref must have shape ({d},), got {w_ref.shape}")
        if not np.all(np.isfinite(w_ref)):
            raise ValueError("w_ref must be finite (no NaN or infinity)")
        if w_ref.shape[0] < da:
            w_ref = np.concatenate([w_ref, [0.0]])
    if indices is not None and k > 1:
        indices = np.asarray(indices)
        if indices.ndim != 1 or indices.shape[0] != T * k:
            raise ValueError(
                f"indices must have length T·batch_size = {T * k} with mini-batches, "
                f"got shape {indices.shape}"
            )
    stream = IndexStream(n, T * k, sampling, indices, random_state)
    times = snapshot_times(T, n_snapshots, snapshot_spacing)
    recorder = TraceRecorder(
        "pegasos",
        times,
        n_steps=n_steps,
        progress=progress,
        info={"lam": lam, "T": T, "schedule": schedule, "averaging": averaging,
              "sampling": stream.sampling, "batch_size": k, "projection": bool(projection),
              "bias": bias, "n": n, "d": d},
    )  # fmt: skip
    ref = np.zeros(da) if w_ref is None else w_ref

    def on_snapshot(t, wa, b):
        f = Xa @ wa + b
        recorder.record(
            t,
            w=wa[:d],
            b=float(wa[d]) if bias == "augment" else float(b),
            objective=_objective(f, y, c, wa - ref, lam),
            train_error=float(np.mean(predict_sign(f) != y)),
            n_support=int(np.count_nonzero(y * f <= 1.0)),
        )

    fast = k == 1 and not projection and bias != "free" and w_ref is None
    run = _run_theta if fast else _run_explicit
    wa, b = run(
        Xa, y, c, lam=lam, T=T, k=k, schedule=schedule, averaging=averaging,
        projection=bool(projection), free_bias=bias == "free", ref=ref, stream=stream,
        times=times, recorder=recorder, on_snapshot=on_snapshot,
    )  # fmt: skip
    trace = recorder.finish()
    snaps = trace.snapshots
    return PegasosResult(
        w=wa[:d].copy(),
        b=float(wa[d]) if bias == "augment" else float(b),
        lam=lam,
        T=T,
        objective=float(snaps["objective"][-1]),
        train_error=float(snaps["train_error"][-1]),
        n_support=int(snaps["n_support"][-1]),
        trace=trace,
    )


def _objective(f, y, c, w_minus_ref, lam) -> float:
    """λ/2 ‖w − w_ref‖² + (1/n) Σ c_i max{0, 1 − y_i f_i}."""
    return 0.5 * lam * float(w_minus_ref @ w_minus_ref) + float(
        np.mean(c * np.maximum(0.0, 1.0 - y * f))
    )


def _run_theta(Xa, y, c, *, lam, T, schedule, averaging, stream, times, recorder,
               on_snapshot, **_):  # fmt: skip
    """The one-sample algorithm in θ form: w_t = θ_t/(λ s(t)), s(t) = t − 1 or t.

    Rejected steps are skipped in vectorised chunks; the average uses
    Σ_{t=1..T} w_t = (θ_{T+1} H(T) − Φ)/λ with Φ = Σ_u c y x H(t_u) over updates u.
    """
    s_of, H = _schedule_s(schedule)
    YX = (c * y)[:, None] * Xa  # rows c_i y_i x_i: the θ increments, (n, da)
    MX = y[:, None] * Xa  # rows y_i x_i: margins y_i⟨θ, x_i⟩ = MX @ θ
    theta = np.zeros(Xa.shape[1])
    phi = np.zeros(Xa.shape[1])

    def output(t):
        if averaging == "last":
            return theta / (lam * s_of(t + 1))
        return (theta * H(t) - phi) / (lam * t)

    shift = 1 if schedule == "pegasos" else 0  # s(t) = t − shift
    t = 1
    chunk = 256
    for stop in times:
        stop = int(stop)
        while t <= stop and (recorder.wants_steps or t == 1):
            i = int(stream.take(1)[0])
            s = s_of(t)
            margin = float(MX[i] @ theta) / (lam * s) if s > 0 else 0.0
            accept = margin < 1.0
            if accept:
                theta += YX[i]
                phi += YX[i] * H(t)
            eta = 1.0 / (lam * t) if schedule == "pegasos" else 1.0 / (lam * (t + 1))
            recorder.step(t=t, i=i, margin=margin, update=accept, eta=eta)
            t += 1
        acc_i, acc_t = [], []  # accepted steps, folded into Φ at the snapshot
        while t <= stop:
            I = stream.take(min(chunk, stop - t + 1))
            B = I.shape[0]
            thresh = lam * np.arange(t - shift, t - shift + B, dtype=np.float64)
            M = MX.take(I, axis=0)  # (B, da)
            viol = M @ theta < thresh
            offset = 0
            n_before = len(acc_i)
            while True:
                p = viol.argmax()
                if not viol[p]:
                    break
                pos = offset + int(p)
                i = I[pos]
                theta += YX[i]
                acc_i.append(i)
                acc_t.append(t + pos)
                offset = pos + 1
                if offset >= B:
                    break
                viol = M[offset:] @ theta < thresh[offset:]
            t += B
            chunk = 64 if len(acc_i) - n_before > 8 else min(chunk * 2, 1 << 16)
        if acc_i:
            ai = np.asarray(acc_i, dtype=np.int64)
            phi += harmonic_array(np.asarray(acc_t) - shift) @ YX[ai]
        on_snapshot(stop, output(stop), 0.0)
    return output(T), 0.0


def _run_explicit(Xa, y, c, *, lam, T, k, schedule, averaging, projection, free_bias, ref,
                  stream, times, recorder, on_snapshot):  # fmt: skip
    """The explicit recursion, for mini-batches, projection, a free bias and w_ref:

    w_{t+1} = w_t − η_t (λ (w_t − w_ref) − (1/k) Σ_{i ∈ A_t, violated} c_i y_i x_i),
    b_{t+1} = b_t + η_t (1/k) Σ_{i ∈ A_t, violated} c_i y_i   (free bias only),
    then the optional projection of w − w_ref onto the ball of radius 1/√λ.
    """
    da = Xa.shape[1]
    MX = y[:, None] * Xa  # rows y_i x_i
    cy = c * y
    uniform_c = bool(np.all(c == 1.0))
    has_ref = bool(ref.any())
    snap_times = [int(t) for t in times]
    radius = 1.0 / np.sqrt(lam)
    w = np.zeros(da)
    b = 0.0
    w_sum = np.zeros(da)  # Σ_{τ ≤ t} w_τ
    b_sum = 0.0
    next_snap = 0
    for t in range(1, T + 1):
        eta = 1.0 / (lam * t) if schedule == "pegasos" else 1.0 / (lam * (t + 1))
        I = stream.take(k)
        w_sum += w
        b_sum += b
        M = MX.take(I, axis=0)  # (k, da)
        margins = M @ w
        if free_bias:
            margins += y.take(I) * b
        viol = margins < 1.0
        w *= 1.0 - eta * lam
        if has_ref:
            w += (eta * lam) * ref
        if viol.any():
            # Σ over violators of c_i y_i x_i, as a product instead of a second gather
            weights = viol.astype(np.float64) if uniform_c else viol * c.take(I)
            w += (eta / k) * (weights @ M)
            if free_bias:
                b += (eta / k) * float(viol @ cy.take(I))
        if projection:
            v = w - ref
            norm = float(np.sqrt(v @ v))
            if norm > radius:
                w = ref + v * (radius / norm)
        if recorder.wants_steps:
            recorder.step(
                t=t, i=int(I[0]), margin=float(margins[0]), update=bool(viol.any()), eta=eta,
                n_violations=int(np.count_nonzero(viol)),
            )  # fmt: skip
        if t == snap_times[next_snap]:
            if averaging == "average":
                on_snapshot(t, w_sum / t, b_sum / t)
            else:
                on_snapshot(t, w.copy(), b)
            next_snap += 1
    if averaging == "average":
        return w_sum / T, b_sum / T
    return w, b
