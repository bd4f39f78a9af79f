"""SGD for multiclass learning (SSBD §17.2, seed 001).

Implements the algorithm box "SGD for Multiclass Learning" with a class-sensitive feature
map Ψ : X × Y → R^{k d′} and a loss Δ : Y × Y → R₊::

    w(1) = 0
    for t = 1, …, T
        sample (x, y)
        find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩ )
        v_t = Ψ(x, ŷ) − Ψ(x, y)
        w(t+1) = w(t) − η v_t
    output w̄ = (1/T) Σ_{t=1..T} w(t)

which is SGD on the generalized hinge loss (Equation 17.3)
ℓ(w, (x, y)) = max_{y′} [Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩] (v_t is its subgradient,
Claim 14.6). The prediction is h_w(x) = argmax_y ⟨w, Ψ(x, y)⟩.

Conventions
-----------
* Ψ is the *multivector* construction: with classes 0, …, k−1 (the sorted labels),
  Ψ(x, y) ∈ R^{k d′} is zero except block y, which holds x̃; x̃ = (x, 1) when
  ``bias=True`` (each class gets its own offset), x̃ = x otherwise. So w is stored as
  the matrix W of shape (k, d′) whose row c is block c, and ⟨w, Ψ(x, c)⟩ = W[c] · x̃.
  ‖Ψ(x, y)‖ = ‖x̃‖, so Corollary 17.2's ρ is 2 max_i ‖x̃_i‖ (:func:`recommended_eta`).
* Δ is a k × k matrix, ``delta[y′, y]`` = the cost of predicting y′ when the truth is y
  (default: the 0-1 loss, 1 − I). It must be finite, non-negative, with a zero diagonal.
* Ties in the argmax go to the **smallest class index** (NumPy's argmax). At w = 0
  every wrong class ties (with the 0-1 loss each scores 1), so the first step always
  picks the first wrong class; predictions at w = 0 are class 0.

Implementation: w(t) = η θ(t) with θ(t) = −Σ_{s<t} v_s, and the average is kept in
O(d′) per step without touching all of w: with Q_t = Σ_{s≤t} s v_s,
Σ_{τ=1..t} w(τ) = η (t θ(t+1) + Q_t) (exact; see :func:`linear_engine`). Steps whose
ŷ is y (no change) are skipped in vectorised chunks once the first ``n_steps`` steps
have been recorded one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from svmcore._sampling import IndexStream
from svmcore._validation import (
    check_bool,
    check_choice,
    check_int,
    check_positive,
    check_T,
    check_X,
)
from svmcore.trace import Trace, TraceRecorder, freeze, snapshot_times

__all__ = [
    "MulticlassSGDResult",
    "check_delta",
    "check_multiclass_y",
    "generalized_hinge",
    "multiclass_sgd",
    "psi",
    "recommended_eta",
    "zero_one_delta",
]

AVERAGINGS = ("average", "last")
_MIN_CHUNK = 16
_MAX_CHUNK = 1 << 14
_DENSE_CHUNK = 256


# -- labels, Ψ and Δ ---------------------------------------------------------------------
def check_multiclass_y(y, n: int, *, name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Encode labels of any values as class indices 0..k−1 (classes sorted).

    Returns
    -------
    classes : ndarray, shape (k,)
        The sorted distinct labels (``np.unique``), k >= 2.
    y_idx : ndarray of int64, shape (n,)
        ``classes[y_idx] == y``.
    """
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {y_arr.shape}")
    if y_arr.shape[0] != n:
        raise ValueError(f"{name} has {y_arr.shape[0]} labels but X has {n} rows")
    if y_arr.dtype.kind in "fc" and not np.all(np.isfinite(y_arr)):
        raise ValueError(f"{name} must not contain NaN or infinity")
    try:
        classes, y_idx = np.unique(y_arr, return_inverse=True)
    except TypeError:
        raise ValueError(f"{name} must contain labels of one sortable type") from None
    if classes.shape[0] < 2:
        shown = classes[0] if classes.size else "none"
        raise ValueError(
            f"{name} must contain at least two classes, got {classes.shape[0]} class "
            f"(label {shown}); a multiclass classifier needs k >= 2"
        )
    return classes, y_idx.reshape(-1).astype(np.int64)


def zero_one_delta(k: int) -> np.ndarray:
    """The 0-1 loss as a k × k matrix: Δ(y′, y) = 1 if y′ ≠ y else 0."""
    k = check_int(k, "k", low=2)
    return 1.0 - np.eye(k)


def check_delta(delta, k: int, *, name: str = "delta") -> np.ndarray:
    """Validate a cost matrix Δ[y′, y] (predict y′, truth y); ``None`` gives the 0-1 loss.

    Rules: shape (k, k) for the k classes, finite, non-negative, zero diagonal.
    """
    if delta is None:
        return zero_one_delta(k)
    try:
        D = np.array(delta, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric k × k matrix (k = {k} classes)") from None
    if D.shape != (k, k):
        raise ValueError(f"{name} must be a k × k matrix with k = {k} classes, got shape {D.shape}")
    if not np.all(np.isfinite(D)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    if np.any(D < 0):
        r, c = np.argwhere(D < 0)[0]
        raise ValueError(f"{name} must be non-negative; {name}[{r}, {c}] = {D[r, c]}")
    if np.any(np.diag(D) != 0):
        c = int(np.flatnonzero(np.diag(D) != 0)[0])
        raise ValueError(
            f"{name} must have a zero diagonal (Δ(y, y) = 0); {name}[{c}, {c}] = {D[c, c]}"
        )
    D.setflags(write=False)
    return D


def augment(X: np.ndarray, bias: bool) -> np.ndarray:
    """x̃ = (x, 1) for each row when ``bias`` (shape (n, d+1)), else X itself."""
    if not bias:
        return np.ascontiguousarray(X)
    return np.hstack([X, np.ones((X.shape[0], 1))])


def psi(x, y: int, k: int, *, bias: bool = True) -> np.ndarray:
    """The multivector feature map Ψ(x, y) ∈ R^{k d′}: x̃ in block y, zeros elsewhere.

    Parameters
    ----------
    x : array, shape (d,)
    y : int
        The class *index* in 0..k−1.
    k : int
        Number of classes.
    bias : bool
        Append the constant 1 to x (d′ = d + 1).
    """
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    xt = np.append(x, 1.0) if bias else x
    y = check_int(y, "y", low=0, high=k - 1)
    out = np.zeros((k, xt.shape[0]))
    out[y] = xt
    return out.reshape(-1)


def generalized_hinge(scores: np.ndarray, y_idx: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """ℓ_i = max_{y′} [Δ(y′, y_i) + s_{i y′} − s_{i y_i}] (>= 0) from scores s = ⟨w, Ψ(x_i, ·)⟩.

    ``scores`` has shape (n, k); returns shape (n,).
    """
    rows = np.arange(scores.shape[0])
    margins = delta.T[y_idx] + scores - scores[rows, y_idx][:, None]
    return margins.max(axis=1)


def recommended_eta(X, T, B, *, bias: bool = True) -> float:
    """Corollary 17.2's step size η = √(B² / (ρ² T)) for a norm bound B on the comparator.

    ρ is taken from the data as 2 max_i ‖Ψ(x_i, y)‖ = 2 max_i ‖x̃_i‖ (so ‖Ψ‖ ≤ ρ/2 holds
    on the training set). With T >= B²ρ²/ε², the averaged output is then within ε of the
    best u with ‖u‖ <= B in expected generalized hinge loss.
    """
    X = check_X(X)
    T = check_T(T)
    B = check_positive(B, "B")
    rho = 2.0 * float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X)) + (1.0 if bias else 0.0)))
    if rho == 0.0:
        raise ValueError("X must have a non-zero row when bias=False (ρ = 0 gives no η)")
    return float(np.sqrt(B * B / (rho * rho * T)))


# -- the engine shared with multiclass Pegasos -------------------------------------------
def run_steps(
    *,
    stream: IndexStream,
    times: np.ndarray,
    y_idx: np.ndarray,
    recorder: TraceRecorder,
    step_scores: Callable[[int, int], np.ndarray],
    chunk_scores: Callable[[np.ndarray, np.ndarray], np.ndarray],
    update: Callable[[int, int, int, int], None],
    on_snapshot: Callable[[int], None],
    eta_of: Callable[[int], float] | None = None,
) -> None:
    """Drive the loop "sample i, pick ŷ = argmax scores, update if ŷ ≠ y_i".

    ``step_scores(i, t)`` gives the k values Δ(y′, y_i) + ⟨w(t), Ψ(x_i, y′) − Ψ(x_i, y_i)⟩;
    ``chunk_scores(I, ts)`` the same for many steps at once *assuming no update happens
    in between* (shape (B, k)); ``update(i, y_hat, y, t)`` applies v_t; ``on_snapshot(t)``
    is called after each t in ``times``. The first ``recorder.n_steps`` steps run one by
    one and are recorded; later steps are scored in chunks and the chunk is re-scored
    after each update, so that steps with ŷ = y cost O(1) NumPy work each (while more
    than a quarter of the steps update, steps run one by one again, which is cheaper).
    The choice between the two depends only on the run itself: same seed, same path.
    """
    y_list = y_idx.tolist()
    t = 1
    chunk = _MIN_CHUNK
    dense = False
    for stop in times.tolist():
        while t <= stop and recorder.wants_steps:
            i = int(stream.take(1)[0])
            yi = y_list[i]
            sc = np.array(step_scores(i, t), dtype=np.float64)
            yh = int(sc.argmax())  # ties: smallest class index
            changed = yh != yi
            if changed:
                update(i, yh, yi, t)
            fields = {"t": t, "i": i, "y": yi, "y_hat": yh, "scores": sc,
                      "loss": float(sc[yh]), "changed": changed}  # fmt: skip
            if eta_of is not None:
                fields["eta"] = eta_of(t)
            recorder.step(**fields)
            t += 1
        while t <= stop:
            I = stream.take(min(chunk, stop - t + 1))
            m = I.shape[0]
            if dense:  # most steps update: plain one-by-one steps are cheapest
                n_updates = 0
                for offset, i in enumerate(I.tolist()):
                    yi = y_list[i]
                    yh = int(step_scores(i, t + offset).argmax())
                    if yh != yi:
                        update(i, yh, yi, t + offset)
                        n_updates += 1
                t += m
                dense = 4 * n_updates > m
                chunk = _DENSE_CHUNK if dense else _MIN_CHUNK
                continue
            ts = np.arange(t, t + m)
            yI = y_idx[I]
            offset = 0
            n_updates = 0
            while offset < m:
                sc = chunk_scores(I[offset:], ts[offset:])
                viol = sc.argmax(axis=1) != yI[offset:]
                p = int(np.argmax(viol))
                if not viol[p]:
                    break
                i = int(I[offset + p])
                update(i, int(sc[p].argmax()), y_list[i], int(ts[offset + p]))
                n_updates += 1
                offset += p + 1
            t += m
            # Many updates: re-scoring long remainders is wasted work, so shrink the
            # chunk, or go one by one when more than a quarter of the steps update.
            dense = 4 * n_updates > m
            if dense:
                chunk = _DENSE_CHUNK
            else:
                chunk = _MIN_CHUNK if n_updates > 2 else min(2 * chunk, _MAX_CHUNK)
        on_snapshot(stop)


def linear_engine(Xa, y_idx, DT, *, scale, stream, times, recorder):
    """θ-recursion for a linear multiclass model W(t) = c_t θ(t), θ(t) = −Σ_{s<t} v_s.

    Parameters
    ----------
    Xa : ndarray, shape (n, d′)
        The (augmented) inputs x̃.
    y_idx : ndarray of int, shape (n,)
    DT : ndarray, shape (k, k)
        Δ transposed: ``DT[y]`` = (Δ(y′, y))_{y′}.
    scale : StepScale
        c_t (η for SSBD's SGD, 1/(λ s(t)) for Pegasos) and C_t = Σ_{τ≤t} c_τ. Then
        Σ_{τ=1..t} W(τ) = C_t θ(t+1) + Q_t with Q_t = Σ_{s≤t} C_s v_s (exact), so the
        average costs O(d′) per update and nothing on the other steps.
    stream, times, recorder : as in :func:`run_steps`.

    Returns
    -------
    theta : ndarray, shape (k, d′)
        θ(T+1).
    snaps : list of (t, θ(t+1), Q_t)
        Copies at each snapshot time t.
    """
    k = DT.shape[0]
    theta = np.zeros((k, Xa.shape[1]))
    Q = np.zeros_like(theta)
    snaps = []

    y_list = y_idx.tolist()

    def step_scores(i, t):
        yi = y_list[i]
        s = theta @ Xa[i]  # (k,), a fresh array: modified in place below
        s -= s[yi]
        s *= scale.c(t)
        s += DT[yi]
        return s

    def chunk_scores(I, ts):
        S = Xa[I] @ theta.T  # (B, k)
        yI = y_idx[I]
        S -= S[np.arange(I.shape[0]), yI][:, None]
        S *= scale.c_many(ts)
        S += DT[yI]
        return S

    def update(i, yh, yi, t):
        x = Xa[i]
        theta[yh] -= x
        theta[yi] += x
        cx = scale.C(t) * x
        Q[yh] += cx
        Q[yi] -= cx

    def on_snapshot(t):
        snaps.append((t, theta.copy(), Q.copy()))

    run_steps(
        stream=stream, times=times, y_idx=y_idx, recorder=recorder,
        step_scores=step_scores, chunk_scores=chunk_scores, update=update,
        on_snapshot=on_snapshot, eta_of=scale.eta,
    )  # fmt: skip
    return theta, snaps


class StepScale:
    """The factor c_t in W(t) = c_t θ(t) and its partial sums C_t = Σ_{τ≤t} c_τ.

    The base class is SSBD's fixed step: c_t = η, C_t = η t.
    """

    def __init__(self, eta: float):
        self._eta = float(eta)

    def c(self, t: int) -> float:
        return self._eta

    def c_many(self, ts: np.ndarray):
        return self._eta

    def C(self, t: int) -> float:
        return self._eta * t

    def eta(self, t: int) -> float:
        """The step size of step t (recorded in the trace)."""
        return self._eta


def average_and_last(scale: StepScale, t: int, theta: np.ndarray, Q: np.ndarray):
    """(1/t) Σ_{τ≤t} c_τ θ(τ) and c_{t+1} θ(t+1) from the engine's state after step t."""
    return (scale.C(t) * theta + Q) / t, scale.c(t + 1) * theta


# -- result ------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class MulticlassSGDResult:
    """Output of :func:`multiclass_sgd`.

    Attributes
    ----------
    W : ndarray, shape (k, d′)
        The output w (w̄ or the last iterate) as a matrix: row c is the block of class c
        (d′ = d + 1 with ``bias``: the last column is the class offset).
    W_last : ndarray, shape (k, d′)
        The last iterate w(T+1).
    classes_ : ndarray, shape (k,)
        The sorted labels; class index c means label ``classes_[c]``.
    bias : bool
    eta : float
    T : int
    delta : ndarray, shape (k, k)
        Δ[y′, y].
    averaging : str
    objective : float
        Mean generalized hinge loss of W on the training set, L_S^{g-hinge}(w).
    train_error : float
        Fraction of training points with h_w(x) ≠ y.
    delta_risk : float
        Mean Δ(h_w(x_i), y_i) on the training set, L_S^Δ(h_w).
    trace : Trace
        snapshots: "W" (S, k, d′) the output if the run stopped at t, "W_iterate"
        (S, k, d′) w(t+1), "objective", "train_error", "delta_risk" (S,);
        steps (first ``n_steps``): "t", "i", "y" (true class index), "y_hat", "scores"
        (n_steps, k) the values Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩ that chose ŷ,
        "loss" (the maximum, the generalized hinge loss of the step), "changed" (ŷ ≠ y,
        i.e. w changed).
    """

    W: np.ndarray
    W_last: np.ndarray
    classes_: np.ndarray
    bias: bool
    eta: float
    T: int
    delta: np.ndarray
    averaging: str
    objective: float
    train_error: float
    delta_risk: float
    trace: Trace = field(repr=False)

    @property
    def w(self) -> np.ndarray:
        """w as the flat vector of R^{k d′} (blocks in class order)."""
        return self.W.reshape(-1)

    @property
    def coef(self) -> np.ndarray:
        """Per-class weights without the offset, shape (k, d)."""
        return self.W[:, :-1] if self.bias else self.W

    @property
    def intercept(self) -> np.ndarray:
        """Per-class offsets, shape (k,) (zeros without ``bias``)."""
        return self.W[:, -1].copy() if self.bias else np.zeros(self.W.shape[0])

    def psi(self, x, y) -> np.ndarray:
        """Ψ(x, y) for a label value ``y`` (one of ``classes_``), shape (k d′,)."""
        c = np.flatnonzero(self.classes_ == y)
        if c.size == 0:
            raise ValueError(f"y must be one of the classes {self.classes_.tolist()}, got {y!r}")
        return psi(x, int(c[0]), self.W.shape[0], bias=self.bias)

    def decision_function(self, X) -> np.ndarray:
        """Scores ⟨w, Ψ(x, y′)⟩ for every row x of X and class y′, shape (n, k)."""
        return linear_scores(self.W, X, self.bias)

    def predict(self, X) -> np.ndarray:
        """h_w(x) = argmax_y ⟨w, Ψ(x, y)⟩ as labels (ties: the smallest class)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


def linear_scores(W: np.ndarray, X, bias: bool) -> np.ndarray:
    """X̃ Wᵀ with X checked against W's number of features; shape (n, k)."""
    X = check_X(X)
    d = W.shape[1] - (1 if bias else 0)
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} features but the model was fitted on {d}")
    S = X @ W[:, :d].T
    if bias:
        S += W[:, d]
    return S


def training_summary(scores, y_idx, delta) -> dict:
    """Objective (mean generalized hinge), 0-1 training error and mean Δ of the predictions."""
    pred = np.argmax(scores, axis=1)
    return {
        "hinge": float(np.mean(generalized_hinge(scores, y_idx, delta))),
        "train_error": float(np.mean(pred != y_idx)),
        "delta_risk": float(np.mean(delta[pred, y_idx])),
    }


# -- the algorithm -----------------------------------------------------------------------
def multiclass_sgd(
    X,
    y,
    *,
    eta,
    T,
    delta=None,
    bias=True,
    averaging="average",
    sampling="uniform",
    indices=None,
    random_state=None,
    n_snapshots=100,
    snapshot_spacing="geometric",
    n_steps=300,
    progress=None,
) -> MulticlassSGDResult:
    """SGD for multiclass learning (SSBD §17.2, seed 001).

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels of any (sortable) values, at least two distinct.
    eta : float > 0
        The fixed step size η (see :func:`recommended_eta` for Corollary 17.2's choice).
    T : int >= 1
        Number of iterations.
    delta : array (k, k) or None
        Cost matrix Δ[y′, y] over the sorted classes (None: the 0-1 loss).
    bias : bool
        Augment x with a constant 1 so that every class has its own offset.
    averaging : {"average", "last"}
        Output w̄ = (1/T) Σ_{t=1..T} w(t) (the box) or the last iterate w(T+1).
    sampling : {"uniform", "cyclic", "shuffle"}
    indices : array of T ints, optional
        Explicit 0-based sample indices (overrides ``sampling``).
    random_state : int, Generator or None
    n_snapshots : int
    snapshot_spacing : {"geometric", "linear"}
    n_steps : int
        Number of first steps recorded in detail.
    progress : callable, optional
        ``progress(t, T)``, called after each snapshot (for a progress bar).

    Returns
    -------
    MulticlassSGDResult
    """
    X = check_X(X)
    n = X.shape[0]
    classes, y_idx = check_multiclass_y(y, n)
    k = classes.shape[0]
    D = check_delta(delta, k)
    eta = check_positive(eta, "eta")
    T = check_T(T)
    bias = check_bool(bias, "bias")
    check_choice(averaging, "averaging", AVERAGINGS)
    stream = IndexStream(n, T, sampling, indices, random_state)
    times = snapshot_times(T, n_snapshots, snapshot_spacing)
    Xa = augment(X, bias)
    DT = np.ascontiguousarray(D.T)
    recorder = TraceRecorder(
        "multiclass_sgd",
        times,
        n_steps=n_steps,
        progress=progress,
        info={"eta": eta, "T": T, "n": n, "k": k, "d": X.shape[1], "bias": bias,
              "averaging": averaging, "sampling": stream.sampling,
              "classes": classes.tolist(), "delta": D.tolist()},
    )  # fmt: skip
    scale = StepScale(eta)
    theta, snaps = linear_engine(
        Xa, y_idx, DT, scale=scale, stream=stream, times=times, recorder=recorder
    )
    outputs = []
    for t, th, Q in snaps:
        avg, last = average_and_last(scale, t, th, Q)
        W_t = last if averaging == "last" else avg
        outputs.append(W_t)
        summary = training_summary(Xa @ W_t.T, y_idx, D)
        recorder.record(
            t, W=W_t, W_iterate=last, objective=summary["hinge"],
            train_error=summary["train_error"], delta_risk=summary["delta_risk"],
        )  # fmt: skip
    trace = recorder.finish()
    W = freeze(outputs[-1])
    last = trace.snapshots
    return MulticlassSGDResult(
        W=W,
        W_last=freeze(eta * theta),
        classes_=classes,
        bias=bias,
        eta=eta,
        T=T,
        delta=D,
        averaging=averaging,
        objective=float(last["objective"][-1]),
        train_error=float(last["train_error"][-1]),
        delta_risk=float(last["delta_risk"][-1]),
        trace=trace,
    )
