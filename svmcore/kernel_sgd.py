"""SGD for soft-SVM with kernels (kernel Pegasos).

Implements the algorithm box "SGD for Solving Soft-SVM with Kernels" of SSBD §16.3
(seed 000; also seed 004, Algorithm 1, and seed 002, Algorithm 2), which solves
Equation (16.5)

    min_α  λ/2 αᵀKα + (1/m) Σ_i max{0, 1 − y_i (Kα)_i}:

    β(1) = 0
    for t = 1, …, T
        α(t) = β(t) / (λt)
        choose i uniformly at random from [m]
        β(t+1) = β(t), except: if y_i Σ_j α_j(t) K(x_j, x_i) < 1 then β_i(t+1) = β_i(t) + y_i
    output ᾱ = (1/T) Σ_{t=1..T} α(t)

α is signed (SSBD's convention), f(x) = Σ_j α_j K(x_j, x), and the support vectors are
the j with α_j ≠ 0. There is no bias term (SSBD's soft-SVM is homogeneous).

Two step-size conventions differ by one index:

* ``schedule="ssbd"`` (default here): α(t) = β(t)/(λt), as in the box above;
* ``schedule="pegasos"``: α(t) = β(t)/(λ(t−1)) (α(1) = 0), seed 002's Algorithm 2 and
  the Pegasos paper's η_t = 1/(λt) applied to w_t = θ_t/(λ(t−1)).

``averaging="last"`` outputs α(T+1) (seed 002's α_i = β_i(T+1)/(λT) under "pegasos").

Implementation (exact, and fast): the Gram matrix is computed once (or its columns on
demand for large m); the vector g = Kβ is kept and changed only on accepted steps
(O(m) each, O(1) per rejected step, and rejected steps are skipped in vectorised
chunks); the average is accumulated in O(1) per step with harmonic sums:
ᾱ = (β(T+1)·H(T) − D)/(λT), where D_j = Σ_{updates u of j} y_u H(t_u) and
H(t) = Σ_{τ ≤ t} 1/s(τ) with s(τ) = τ ("ssbd") or τ − 1 ("pegasos").

With the linear kernel this is linear Pegasos in the feature space: SSBD's Lemma 16.3
(w̄ = Σ_j ᾱ_j x_j), which the tests check against :func:`svmcore.pegasos`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._sampling import IndexStream
from svmcore._validation import (
    check_binary_y,
    check_choice,
    check_int,
    check_positive,
    check_T,
    check_X,
)
from svmcore.kernels import Kernel, make_kernel
from svmcore.trace import Trace, TraceRecorder, snapshot_times

__all__ = ["KernelPegasosResult", "harmonic", "kernel_pegasos", "margin_rows", "sgd_engine"]

SCHEDULES = ("ssbd", "pegasos")
AVERAGINGS = ("average", "last")

# Gram matrices up to this many bytes are precomputed; larger ones give columns on demand.
_GRAM_BYTES = 128 * 2**20
_H_TABLE_SIZE = 1 << 16
_H_TABLE = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, _H_TABLE_SIZE + 1))])
_EULER_GAMMA = 0.57721566490153286061


def harmonic(n: int) -> float:
    """The harmonic number H_n = Σ_{k=1..n} 1/k (H_0 = 0), to full double precision."""
    if n <= _H_TABLE_SIZE:
        return float(_H_TABLE[n])
    # Euler–Maclaurin: accurate to ~1e-30 at n > 65536.
    n2 = 1.0 / (n * n)
    return float(
        np.log(n) + _EULER_GAMMA + 0.5 / n - n2 / 12.0 + n2 * n2 / 120.0 - n2 * n2 * n2 / 252.0
    )


def harmonic_array(n) -> np.ndarray:
    """:func:`harmonic` for an integer array."""
    n = np.asarray(n, dtype=np.int64)
    out = np.empty(n.shape)
    small = n <= _H_TABLE_SIZE
    out[small] = _H_TABLE[n[small]]
    if not np.all(small):
        big = n[~small].astype(np.float64)
        n2 = 1.0 / (big * big)
        out[~small] = (
            np.log(big) + _EULER_GAMMA + 0.5 / big - n2 / 12.0 + n2 * n2 / 120.0
            - n2 * n2 * n2 / 252.0
        )  # fmt: skip
    return out


def _schedule_s(schedule: str):
    """s(t) with α(t) = β(t)/(λ s(t)), and H(t) = Σ_{τ≤t} 1/s(τ) (terms with s = 0 skipped)."""
    table = _H_TABLE
    if schedule == "ssbd":
        return (lambda t: t), (lambda t: table[t] if t <= _H_TABLE_SIZE else harmonic(t))
    return (lambda t: t - 1), (
        lambda t: table[t - 1] if t <= _H_TABLE_SIZE + 1 else harmonic(t - 1)
    )


def sgd_engine(
    qrow, kmatvec, y, c, *, lam, T, schedule, averaging, stream, times, recorder, on_snapshot
):
    """Run the β/θ recursion shared by kernel Pegasos and linear Pegasos.

    Parameters
    ----------
    qrow : callable
        ``qrow(i)`` returns c_i y_i (y_j K(x_i, x_j))_j, shape (m,): the change of the
        margins y∘(Kβ) when β_i grows by c_i y_i.
    kmatvec : callable
        ``kmatvec(v)`` returns K v, shape (m,) (used at snapshots only).
    y : ndarray, shape (m,)
        Labels ±1.
    c : ndarray, shape (m,)
        Per-sample weights (1 for the plain algorithm): β_i grows by c_i y_i.
    lam, T, schedule, averaging : as in :func:`kernel_pegasos`.
    stream : IndexStream
        The sampled indices.
    times : ndarray of int
        Iterations after which ``on_snapshot`` is called.
    recorder : TraceRecorder
        Receives the first steps' details.
    on_snapshot : callable
        ``on_snapshot(t, coef, f, beta)``: coef (m,) are the output coefficients if the
        run stopped after t steps, f = K coef on the training points.

    Returns
    -------
    coef : ndarray, shape (m,)
        The output coefficients after T steps.
    beta : ndarray, shape (m,)
        β(T+1).
    """
    m = y.shape[0]
    s_of, H = _schedule_s(schedule)
    beta = np.zeros(m)  # β(t)
    D = np.zeros(m)  # D_j = Σ_u c y H(t_u) over the updates u of sample j
    yg = np.zeros(m)  # y ∘ (Kβ): λ s(t) times the margins y_i Σ_j α_j(t) K_ji
    cy = c * y

    def output(t):
        if averaging == "last":
            coef = beta / (lam * s_of(t + 1))
            return coef, y * yg / (lam * s_of(t + 1))
        coef = (beta * H(t) - D) / (lam * t)
        return coef, kmatvec(coef)

    def fold(acc_i, acc_t):
        """Add the queued accepted steps to β and D (then empty the queues)."""
        if acc_i:
            ai = np.asarray(acc_i, dtype=np.int64)
            steps = cy[ai]
            np.add.at(beta, ai, steps)
            np.add.at(D, ai, steps * harmonic_array(np.asarray(acc_t) - shift))
            acc_i.clear()
            acc_t.clear()

    shift = 1 if schedule == "pegasos" else 0  # s(t) = t − shift
    t = 1
    chunk = 256
    for stop in times:
        stop = int(stop)
        # -- the first steps one at a time, recording every detail ---------------------
        while t <= stop and (recorder.wants_steps or t == 1):
            i = int(stream.take(1)[0])
            s = s_of(t)
            margin = yg[i] / (lam * s) if s > 0 else 0.0
            accept = margin < 1.0
            if accept:
                beta[i] += cy[i]
                D[i] += cy[i] * H(t)
                yg += qrow(i)
            recorder.step(
                t=t, i=i, margin=margin, update=accept,
                eta=1.0 / (lam * s) if s > 0 else 0.0, beta_i=beta[i],
            )  # fmt: skip
            t += 1
        # -- then in chunks: a rejected step costs O(1), vectorised ----------------------
        # Accepted steps are queued (i, t) and folded into β and D at the snapshot.
        acc_i, acc_t = [], []
        while t <= stop:
            I = stream.take(min(chunk, stop - t + 1))
            B = I.shape[0]
            # y_i g_i < λ s(t)  ⇔  y_i Σ_j α_j(t) K_ji < 1   (t >= 2 here, so s(t) > 0)
            thresh = lam * np.arange(t - shift, t - shift + B, dtype=np.float64)
            viol = yg.take(I) < thresh
            offset = 0
            n_before = len(acc_i)
            while True:
                p = viol.argmax()
                if not viol[p]:
                    break
                pos = offset + int(p)
                i = I[pos]
                acc_i.append(i)
                acc_t.append(t + pos)
                yg += qrow(i)
                offset = pos + 1
                if offset >= B:
                    break
                viol = yg.take(I[offset:]) < thresh[offset:]
            t += B
            chunk = 64 if len(acc_i) - n_before > 8 else min(chunk * 2, 1 << 16)
            if len(acc_i) > 4096:
                fold(acc_i, acc_t)
        fold(acc_i, acc_t)
        coef, f = output(stop)
        on_snapshot(stop, coef, f, beta)
    coef, _ = output(T)
    return coef, beta.copy()


def hinge_objective(f, y, coef_norm2, lam, c=None):
    """λ/2 ‖w‖² + (1/m) Σ c_i max{0, 1 − y_i f_i} (c = 1 when None)."""
    loss = np.maximum(0.0, 1.0 - y * f)
    if c is not None:
        loss = c * loss
    return 0.5 * lam * coef_norm2 + float(np.mean(loss))


def predict_sign(f):
    """±1 labels from decision values: +1 where f > 0 (scikit-learn's rule)."""
    return np.where(f > 0, 1.0, -1.0)


@dataclass(frozen=True, eq=False)
class KernelPegasosResult:
    """Output of :func:`kernel_pegasos`.

    Attributes
    ----------
    alpha : ndarray, shape (m,)
        Signed coefficients ᾱ (or α(T+1)); f(x) = Σ_j alpha_j K(x_j, x).
    beta : ndarray, shape (m,)
        β(T+1): y_j times the number of accepted steps on sample j.
    X_fit, y : ndarray
        The training data.
    kernel : Kernel
    lam : float
    T : int
    support_ : ndarray of int
        Indices j with alpha_j ≠ 0.
    objective : float
        λ/2 αᵀKα + (1/m) Σ_i max{0, 1 − y_i (Kα)_i} (SSBD's Equation 16.5).
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


def margin_rows(kernel: Kernel, X: np.ndarray, y: np.ndarray, c: np.ndarray):
    """``qrow(i)`` = c_i y_i y ∘ K[:, i] and ``kmatvec(v)`` = K v.

    Precomputes Q = diag(cy) K diag(y) when it fits in memory (rows are then contiguous
    lookups), and computes rows on demand, with a bounded cache, otherwise.
    """
    m = X.shape[0]
    cy = c * y
    if m * m * 8 <= _GRAM_BYTES:
        Q = kernel(X)
        Q *= cy[:, None]
        Q *= y[None, :]
        # K v = y ∘ (Qᵀ (v / cy)), since Q = diag(cy) K diag(y) and y_j = ±1
        return (lambda i: Q[i]), (lambda v: y * (Q.T @ (v / cy)))
    cache: dict[int, np.ndarray] = {}

    def qrow(i):
        row = cache.get(i)
        if row is None:
            if len(cache) * m * 8 > _GRAM_BYTES:
                cache.clear()
            row = cache[i] = cy[i] * y * kernel(X, X[i : i + 1])[:, 0]
        return row

    def kmatvec(v):
        nz = np.flatnonzero(v)
        out = np.zeros(m)
        for start in range(0, nz.size, 1024):
            block = nz[start : start + 1024]
            out += kernel(X, X[block]) @ v[block]
        return out

    return qrow, kmatvec


def kernel_pegasos(
    X,
    y,
    *,
    kernel="rbf",
    lam,
    T,
    schedule="ssbd",
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
) -> KernelPegasosResult:
    """SGD for soft-SVM with kernels (SSBD §16.3; kernel Pegasos).

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
        Output ᾱ = (1/T) Σ_{t=1..T} α(t) (default, as in the texts) or α(T+1).
    sampling : {"uniform", "cyclic", "shuffle"}
        How i is chosen (see :class:`svmcore._sampling.IndexStream`).
    indices : array of T ints, optional
        Explicit 0-based sample indices (overrides ``sampling``).
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
    KernelPegasosResult
    """
    X = check_X(X)
    m = X.shape[0]
    y = check_binary_y(y, m)
    lam = check_positive(lam, "lam")
    T = check_T(T)
    check_choice(schedule, "schedule", SCHEDULES)
    check_choice(averaging, "averaging", AVERAGINGS)
    check_int(n_steps, "n_steps", low=0)
    kernel = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
    stream = IndexStream(m, T, sampling, indices, random_state)
    times = snapshot_times(T, n_snapshots, snapshot_spacing)
    qrow, kmatvec = margin_rows(kernel, X, y, np.ones(m))
    recorder = TraceRecorder(
        "kernel_pegasos",
        times,
        n_steps=n_steps,
        progress=progress,
        info={"lam": lam, "T": T, "schedule": schedule, "averaging": averaging,
              "sampling": stream.sampling, "kernel": str(kernel), "m": m},
    )  # fmt: skip

    def on_snapshot(t, coef, f, beta):
        recorder.record(
            t,
            alpha=coef,
            beta=beta,
            objective=hinge_objective(f, y, float(coef @ f), lam),
            train_error=float(np.mean(predict_sign(f) != y)),
            n_support=int(np.count_nonzero(coef)),
        )

    alpha, beta = sgd_engine(
        qrow, kmatvec, y, np.ones(m), lam=lam, T=T, schedule=schedule, averaging=averaging,
        stream=stream, times=times, recorder=recorder, on_snapshot=on_snapshot,
    )  # fmt: skip
    trace = recorder.finish()
    return KernelPegasosResult(
        alpha=alpha,
        beta=beta,
        X_fit=X,
        y=y,
        kernel=kernel,
        lam=lam,
        T=T,
        support_=np.flatnonzero(alpha),
        objective=float(trace.snapshots["objective"][-1]),
        train_error=float(trace.snapshots["train_error"][-1]),
        trace=trace,
    )
