"""SGD for multiclass learning (SSBD §17.2, seed 001).

The algorithm box "SGD for Multiclass Learning", with a class-sensitive feature map
Ψ : X × Y → R^{k d′} and a loss Δ : Y × Y → R₊::

    w(1) = 0
    for t = 1, …, T
        sample (x, y)
        find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩ )
        v_t = Ψ(x, ŷ) − Ψ(x, y)
        w(t+1) = w(t) − η v_t
    output w̄ = (1/T) Σ_{t=1..T} w(t)

is SGD on the generalized hinge loss (Equation 17.3); v_t is its subgradient
(Claim 14.6). With class weights (seed 002 §2.1, ``class_weight``) the loss of (x_i, y_i)
is c_{y_i} ℓ(w, (x_i, y_i)), its subgradient c_{y_i} v_t, and the update
w(t+1) = w(t) − η c_{y_i} v_t (ŷ is unchanged: c_{y_i} > 0 scales every score's max).
For an integer c_y this is *not* the same as repeating the point c_y times: the repeats
would be c_y separate steps, each with its own argmax. The prediction is
h_w(x) = argmax_y ⟨w, Ψ(x, y)⟩. :func:`step` is the loop
body; Ψ, Δ and the tie rule (smallest class index) are those of
:mod:`svmcore.sgd.multiclass_common`. At w = 0 every wrong class ties (with the 0-1 loss
each scores 1), so the first step always picks the first wrong class.

Engines: both keep w(t) = η θ(t) with θ(t) = −Σ_{s<t} v_s (a sum of the data) and score
η (⟨θ, Ψ(x, y′)⟩ − ⟨θ, Ψ(x, y)⟩) + Δ(y′, y), so that exact ties between classes (common
with integer-valued data) go the same way in both (:mod:`svmcore.sgd.common`, "The
margin test"). ``"textbook"`` loops :func:`theta_step` one iteration at a time and sums
the iterates; ``"fast"`` keeps the average in O(d′) per update
(Σ_{τ≤t} w(τ) = η(t θ(t+1) + Q_t), Q_t = Σ_{s≤t} s v_s), skipping the steps with ŷ = y in
vectorised chunks. :func:`step` is the box on w itself, w(t+1) = w(t) − η v_t.

Step records (``trace.steps``, the first ``n_steps`` steps):

* ``t``, ``i``: the iteration and the sampled index (0-based);
* ``y``: the true class index of x_i; ``y_hat``: ŷ;
* ``scores`` (k values per step): Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, …, k−1;
* ``loss``: their maximum, the generalized hinge loss of the step;
* ``changed``: ŷ ≠ y, i.e. v_t ≠ 0 and w changed;
* ``eta``: η (fixed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Unpack

import numpy as np

from svmcore._validation import check_overflow, check_positive, check_T, check_X
from svmcore.sgd._engine import run_fast, run_textbook
from svmcore.sgd.common import RunOptions, prepare_run
from svmcore.sgd.multiclass_common import (
    MulticlassData,
    StepScale,
    ThetaMulticlassModel,
    linear_scores,
    prepare_multiclass,
    psi,
    scaled_scores,
    step_fields,
    training_summary,
)
from svmcore.trace import Trace, freeze

__all__ = ["MulticlassSGDResult", "multiclass_sgd", "recommended_eta", "step", "theta_step"]


def step(W, x, y, eta, delta, c=1.0):
    """One iteration of the box on (x, y) (x = x̃, y a class index), W = w(t) as (k, d′).

    ``c`` = c_y, the class weight of the weighted hinge (seed 002 §2.1): the update is
    w(t+1) = w(t) − η c_y v_t (ŷ does not depend on c_y > 0).
    Returns w(t+1), the k scores Δ(y′, y) + ⟨w(t), Ψ(x, y′) − Ψ(x, y)⟩ and ŷ.
    """
    scores = delta[:, y] + W @ x - W[y] @ x
    y_hat = int(np.argmax(scores))  # ties: the smallest class index
    W_next = W.copy()
    if y_hat != y:  # w(t+1) = w(t) − η c_y (Ψ(x, ŷ) − Ψ(x, y))
        W_next[y_hat] -= eta * c * x
        W_next[y] += eta * c * x
    return W_next, scores, y_hat


def theta_step(theta, x, y, level, delta, cx=None):
    """:func:`step` on θ (k, d′), with w(t) = θ(t)/L (L = ``level``: 1/η here, λ s(t) for
    Pegasos, 0 for w(t) = 0).

    w(t+1) = w(t) − η c_y v_t is θ(t+1) = θ(t) − c_y v_t: ŷ's block loses c_y x̃, y's gains
    it (``cx`` = c_y x̃, the class-weighted increment; None: x̃, the unweighted box). The
    scores are :func:`~svmcore.sgd.multiclass_common.scaled_scores` of θ's, the order of
    operations the fast engine uses. Returns θ(t+1), the k scores and ŷ.
    """
    scores = scaled_scores(theta @ x, y, level, delta[:, y])
    y_hat = int(np.argmax(scores))  # ties: the smallest class index
    if y_hat != y:
        inc = x if cx is None else cx
        theta = theta.copy()
        theta[y_hat] -= inc
        theta[y] += inc
    return theta, scores, y_hat


def multiclass_textbook(data: MulticlassData, run, on_snapshot, scale):
    """Loop :func:`theta_step` (shared with linear multiclass Pegasos): w(t) = c_t θ(t),
    θ's increments weighted by the class weights c_{y_i} when given.

    ``scale`` gives c_t, its level 1/c_t and η_t
    (:class:`~svmcore.sgd.multiclass_common.StepScale`);
    ``on_snapshot(t, average, last)`` with the average (1/t) Σ_{τ≤t} w(τ) summed here
    iterate by iterate and last = w(t+1).
    """

    CX = None if data.c is None else data.c[:, None] * data.Xa  # as the fast engine's

    def one(state, I, t):
        i = int(I[0])
        yi = int(data.y_idx[i])
        cx = None if CX is None else CX[i]
        theta, scores, yh = theta_step(state[0], data.Xa[i], yi, scale.level(t), data.D, cx)
        return (theta,), step_fields(t, i, yi, yh, scores, scale.eta(t))

    run_textbook(
        one,
        (np.zeros((data.k, data.Xa.shape[1])),),
        iterate=lambda state, t: (scale.c(t) * state[0],),
        stream=run.stream,
        times=run.times,
        recorder=run.recorder,
        on_snapshot=lambda t, state, total: on_snapshot(t, total[0] / t, scale.c(t + 1) * state[0]),
    )


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
        Mean generalized hinge loss of W on the training set, L_S^{g-hinge}(w)
        ((1/n) Σ_i c_{y_i} ℓ_i with class weights).
    train_error : float
        Fraction of training points with h_w(x) ≠ y.
    delta_risk : float
        Mean Δ(h_w(x_i), y_i) on the training set, L_S^Δ(h_w).
    trace : Trace
        snapshots: "W" (S, k, d′) the output if the run stopped at t, "W_iterate"
        (S, k, d′) w(t+1), "objective", "train_error", "delta_risk" (S,); steps: see the
        module docstring.
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


def multiclass_sgd(
    X,
    y,
    *,
    eta,
    T,
    delta=None,
    bias=True,
    class_weight=None,
    averaging="average",
    sampling="uniform",
    indices=None,
    random_state=None,
    **options: Unpack[RunOptions],
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
    class_weight : None, "balanced" or dict
        Per-class weights c_y of the weighted hinge c_{y_i} ℓ_i (seed 002 §2.1):
        "balanced" gives c_y = n/(k n_y), a dict maps labels to weights (others: 1).
    averaging : {"average", "last"}
        Output w̄ = (1/T) Σ_{t=1..T} w(t) (the box) or the last iterate w(T+1).
    sampling : {"uniform", "cyclic", "shuffle"}
    indices : array of T ints, optional
        Explicit 0-based sample indices (overrides ``sampling``).
    random_state, **options :
        The seed of the sampling stream and the :class:`~svmcore.sgd.common.RunOptions`
        (engine, trace), as in :func:`svmcore.pegasos`; step fields: the module docstring.

    Returns
    -------
    MulticlassSGDResult
    """
    data = prepare_multiclass(X, y, delta, bias, class_weight)
    eta = check_positive(eta, "eta")
    info = {**data.info(), "eta": eta, "averaging": averaging}
    run = prepare_run("multiclass_sgd", data.X.shape[0], info, locals())
    # ‖θ(t)‖ ≤ √2 c R̃ t and ‖Q_t‖ ≤ √2 c R̃ t², so every score and sum is at most
    # ~ η n c² T² R̃² (c = max c_y); c R̃ bounds the weighted increments.
    R, T, dmax = data.radius * data.c_max, run.T, float(np.max(data.D)) * data.c_max
    check_overflow(
        eta,
        "eta",
        linear=4.0 * T * T * R * (1.0 + R) * data.X.shape[0],
        fixed=max(data.X.shape[0] * (1.0 + dmax), 2.0 * T * R * R),
        what="the iterate w = η θ or its scores",
        upper=True,
    )
    D, y_idx, recorder = data.D, data.y_idx, run.recorder
    outputs = []

    def on_snapshot(t, average, last):
        W_t = last if averaging == "last" else average
        outputs.append((W_t, last))
        summary = training_summary(data.Xa @ W_t.T, y_idx, D, data.c)
        recorder.record(
            t,
            W=W_t,
            W_iterate=last,
            objective=summary["hinge"],
            train_error=summary["train_error"],
            delta_risk=summary["delta_risk"],
        )

    scale = StepScale(eta)
    if run.textbook:
        multiclass_textbook(data, run, on_snapshot, scale)
    else:
        model = ThetaMulticlassModel(data, scale, on_snapshot)
        run_fast(model, run.stream, run.times, recorder)
    trace = recorder.finish()
    last = trace.snapshots
    return MulticlassSGDResult(
        W=freeze(outputs[-1][0]),
        W_last=freeze(outputs[-1][1]),
        classes_=data.classes,
        bias=data.bias,
        eta=eta,
        T=T,
        delta=D,
        averaging=averaging,
        objective=float(last["objective"][-1]),
        train_error=float(last["train_error"][-1]),
        delta_risk=float(last["delta_risk"][-1]),
        trace=trace,
    )
