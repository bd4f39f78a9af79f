"""SSBD chapter 17's building blocks, shared by the multiclass algorithms.

* labels of any sortable values become class indices 0..k−1 (the sorted labels);
* Ψ is the *multivector* construction: Ψ(x, y) ∈ R^{k d′} is zero except block y,
  which holds x̃; x̃ = (x, 1) with ``bias=True`` (one offset per class), else x. So w is
  stored as the matrix W of shape (k, d′) whose row c is block c and
  ⟨w, Ψ(x, c)⟩ = W[c] · x̃;
* Δ is a k × k matrix, ``delta[y′, y]`` = the cost of predicting y′ when the truth is y
  (default: the 0-1 loss, 1 − I): finite, non-negative, zero diagonal;
* the generalized hinge loss (Equation 17.3)
  ℓ(w, (x, y)) = max_{y′} [Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩];
* ties in every argmax go to the **smallest class index** (NumPy's argmax);
* class weights (seed 002 §2.1, the weighted hinge c_{y_i} max{…}): c_y > 0 per class,
  the loss of point i is c_{y_i} ℓ(w, (x_i, y_i)), so its subgradient, and every update
  made on point i, is scaled by c_{y_i} (:func:`check_multiclass_class_weight`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore._validation import check_bool, check_choice, check_int, check_positive, check_X
from svmcore.sgd.common import harmonic, pegasos_eta, schedule_shift

__all__ = [
    "MulticlassData",
    "MulticlassModel",
    "PegasosScale",
    "StepScale",
    "ThetaMulticlassModel",
    "augment",
    "check_delta",
    "check_multiclass_class_weight",
    "check_multiclass_y",
    "generalized_hinge",
    "linear_scores",
    "prepare_multiclass",
    "psi",
    "scaled_scores",
    "step_fields",
    "training_summary",
    "zero_one_delta",
]


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


def check_multiclass_class_weight(class_weight, classes: np.ndarray, y_idx: np.ndarray):
    """Per-class weights c_y of the weighted hinge c_{y_i} ℓ_i (seed 002 §2.1).

    ``None`` gives 1 for every class; ``"balanced"`` gives c_y = n/(k n_y), so every class
    carries the same total weight n/k (scikit-learn's rule); a dict maps labels (values of
    ``classes``) to positive weights (missing labels get 1).

    Returns
    -------
    per_class : ndarray, shape (k,)
        c_y for the class indices 0..k−1.
    per_sample : ndarray, shape (n,)
        c_{y_i}.
    """
    k, n = classes.shape[0], y_idx.shape[0]
    per_class = np.ones(k)
    if class_weight is None:
        pass
    elif isinstance(class_weight, str):
        check_choice(class_weight, "class_weight", ["balanced"])
        per_class = n / (k * np.bincount(y_idx, minlength=k).astype(np.float64))
    elif isinstance(class_weight, dict):
        known = classes.tolist()
        for label, weight in class_weight.items():
            hits = [c for c, value in enumerate(known) if value == label]
            if not hits:
                raise ValueError(f"class_weight keys must be labels of y {known}, got {label!r}")
            per_class[hits[0]] = check_positive(weight, f"class_weight[{label!r}]")
    else:
        raise ValueError(
            "class_weight must be None, 'balanced' or a dict {label: c} of positive "
            f"weights, got {class_weight!r}"
        )
    per_class.setflags(write=False)
    return per_class, per_class[y_idx]


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


def training_summary(scores, y_idx, delta, c=None) -> dict:
    """Mean (weighted) generalized hinge (1/n) Σ_i c_{y_i} ℓ_i (c = 1 when None), 0-1
    training error and mean Δ of the predictions."""
    pred = np.argmax(scores, axis=1)
    loss = generalized_hinge(scores, y_idx, delta)
    if c is not None:
        loss = c * loss
    return {
        "hinge": float(np.mean(loss)),
        "train_error": float(np.mean(pred != y_idx)),
        "delta_risk": float(np.mean(delta[pred, y_idx])),
    }


@dataclass
class MulticlassData:
    """A multiclass training set, checked: X (n, d), x̃ rows, labels, classes, Δ and the
    class weights (``class_weights`` c_y per class, ``c`` = c_{y_i} per point; None when
    unweighted, so that every unweighted number is the unweighted code's)."""

    X: np.ndarray
    Xa: np.ndarray
    y_idx: np.ndarray
    classes: np.ndarray
    D: np.ndarray
    bias: bool
    class_weights: np.ndarray | None = None
    c: np.ndarray | None = None

    @property
    def weights(self) -> np.ndarray:
        """c_{y_i} for every point (ones when unweighted), shape (n,)."""
        return np.ones(self.X.shape[0]) if self.c is None else self.c

    @property
    def c_max(self) -> float:
        return 1.0 if self.class_weights is None else float(np.max(self.class_weights))

    @property
    def k(self) -> int:
        return int(self.classes.shape[0])

    @property
    def radius(self) -> float:
        """R̃ = max_i ‖x̃_i‖ (so ‖Ψ(x_i, y)‖ ≤ R̃ and ‖Ψ(x, ŷ) − Ψ(x, y)‖ ≤ √2 R̃)."""
        return float(np.sqrt(np.max(np.einsum("ij,ij->i", self.Xa, self.Xa))))

    def info(self) -> dict:
        n, d = self.X.shape
        out = {
            "n": n,
            "k": self.k,
            "d": d,
            "bias": self.bias,
            "classes": self.classes.tolist(),
            "delta": self.D.tolist(),
        }
        if self.class_weights is not None:
            out["class_weight"] = self.class_weights.tolist()
        return out


def prepare_multiclass(X, y, delta, bias, class_weight=None) -> MulticlassData:
    """Check X, the labels, Δ, ``bias`` and ``class_weight`` (the preamble of every
    multiclass function)."""
    X = check_X(X)
    classes, y_idx = check_multiclass_y(y, X.shape[0])
    D = check_delta(delta, classes.shape[0])
    bias = check_bool(bias, "bias")
    per_class = c = None
    if class_weight is not None:
        per_class, c = check_multiclass_class_weight(class_weight, classes, y_idx)
    return MulticlassData(X, augment(X, bias), y_idx, classes, D, bias, per_class, c)


# -- the linear multiclass recursion for the fast engine ---------------------------------
class StepScale:
    """W(t) = c_t θ(t), θ(t) = −Σ_{s<t} v_s; C_t = Σ_{τ≤t} c_τ; η_t the recorded step.

    ``level(t)`` = 1/c_t, the number the scores' sums are compared at
    (:func:`scaled_scores`; 0 where c_t = 0). SSBD's fixed step (this class): c_t = η,
    level 1/η, C_t = η t, η_t = η.
    """

    def __init__(self, eta: float):
        self._eta = float(eta)
        self._level = 1.0 / self._eta

    def c(self, t: int) -> float:
        return self._eta

    def level(self, t: int) -> float:
        return self._level

    def level_many(self, ts: np.ndarray) -> np.ndarray:
        return np.full((ts.shape[0], 1), self._level)

    def C(self, t: int) -> float:
        return self._eta * t

    def eta(self, t: int) -> float:
        """η_t of W(t+1) = (1 − η_t λ) W(t) − η_t v_t (λ = 0 for SSBD's SGD)."""
        return self._eta


class PegasosScale(StepScale):
    """c_t = 1/(λ s(t)) (0 when s(t) = 0), level λ s(t), C_t = Σ_{τ≤t} c_τ = H_{s(t)}/λ,
    η_t the step."""

    def __init__(self, lam: float, schedule: str):
        self.lam, self.schedule = lam, schedule
        self.shift = schedule_shift(schedule)

    def c(self, t: int) -> float:
        s = t - self.shift
        return 1.0 / (self.lam * s) if s > 0 else 0.0

    def level(self, t: int) -> float:
        return self.lam * max(t - self.shift, 0)

    def level_many(self, ts: np.ndarray) -> np.ndarray:
        return (self.lam * np.maximum(ts - self.shift, 0).astype(np.float64))[:, None]

    def C(self, t: int) -> float:
        return harmonic(t - self.shift) / self.lam

    def eta(self, t: int) -> float:
        return pegasos_eta(t, self.lam, self.schedule)


def scaled_scores(raw, yi, level, delta_y):
    """Δ(y′, y) + ⟨W(t), Ψ(x, y′) − Ψ(x, y)⟩ for every y′, from W(t) = θ(t)/L, L = ``level``.

    ``raw`` = (⟨θ(t), Ψ(x, y′)⟩)_{y′} (changed in place and returned), ``delta_y`` =
    (Δ(y′, y))_{y′}; L = λ s(t) (Pegasos) or 1/η (SSBD's SGD), L = 0 for W(t) = 0 (the
    scores are then Δ). Vectorised: ``raw`` (B, k), ``yi`` (B,), ``level`` (B, 1) and
    ``delta_y`` (B, k).

    Computed as (d_{y′} + L Δ(y′, y))/L with d_{y′} = ⟨θ, Ψ(x, y′) − Ψ(x, y)⟩, the data's
    sums: for integer-valued data d is exact, and so is L Δ whenever an exact tie between
    two classes is possible (Δ integer-valued and L = λ s(t) an integer, e.g. λ = 0.1,
    s = 20), so the argmax (ties: the smallest class) is exact arithmetic's; dividing by
    L > 0 keeps distinct integer sums distinct. Both engines use this one function
    (:mod:`svmcore.sgd.common`, "The margin test"); the texts' order Δ + ⟨W(t), …⟩ with
    W(t) = θ/(λ s) formed first is not exact (1/49 · 49 ≠ 1 in floating point).
    """
    if raw.ndim == 1:
        raw -= raw[yi]
        if level > 0:
            raw += level * delta_y
            raw /= level
        else:
            raw[:] = delta_y
        return raw
    raw -= raw[np.arange(raw.shape[0]), yi][:, None]
    raw += level * delta_y
    with np.errstate(invalid="ignore", divide="ignore"):
        raw /= level
    return np.where(level > 0, raw, delta_y)


def step_fields(t, i, yi, yh, scores, eta) -> dict:
    """The recorded fields of one multiclass step (see the algorithm modules)."""
    return {
        "t": t,
        "i": i,
        "y": yi,
        "y_hat": yh,
        "scores": scores,
        "loss": float(scores[yh]),
        "changed": yh != yi,
        "eta": eta,
    }


class MulticlassModel:
    """The multiclass loop "ŷ = argmax scores; update if ŷ ≠ y" for
    :func:`svmcore.sgd._engine.run_fast`, over a model W(t) = c_t θ(t).

    Subclasses keep θ in their own form and give ``raw(i)`` = (⟨θ, Ψ(x_i, y′)⟩)_{y′}
    (a fresh array), ``raw_many(I)`` (shape (B, k)), ``accept`` and ``snapshot``.
    """

    min_chunk, few, dense_above = 16, 2, 0.25  # one step's scores are cheap: go dense

    def __init__(self, data: MulticlassData, scale: StepScale, on_snapshot):
        self.y_idx, self.y_list = data.y_idx, data.y_idx.tolist()
        self.DT = np.ascontiguousarray(data.D.T)  # DT[y] = (Δ(y′, y))_{y′}
        self.scale, self.on_snapshot = scale, on_snapshot

    def scores(self, i, t):
        """Δ(y′, y_i) + ⟨W(t), Ψ(x_i, y′) − Ψ(x_i, y_i)⟩ for every y′, shape (k,)."""
        yi = self.y_list[i]
        return scaled_scores(self.raw(i), yi, self.scale.level(t), self.DT[yi])

    def recorded_step(self, i, t):
        yi = self.y_list[i]
        sc = self.scores(i, t)
        yh = int(sc.argmax())  # ties: the smallest class index
        if yh != yi:
            self.accept(i, t, yh)
        return step_fields(t, i, yi, yh, sc, self.scale.eta(t))

    def quick_step(self, i, t):
        yh = int(self.scores(i, t).argmax())
        if yh == self.y_list[i]:
            return False
        self.accept(i, t, yh)
        return True

    def chunk_test(self, I, t):
        ts = np.arange(t, t + I.shape[0])
        yI = self.y_idx[I]
        last = []  # ŷ of the steps tested last

        def test(off):
            y_off = yI[off:]
            S = scaled_scores(  # (B, k)
                self.raw_many(I[off:]), y_off, self.scale.level_many(ts[off:]), self.DT[y_off]
            )
            last[:] = [S.argmax(axis=1)]
            return last[0] != y_off

        return test, lambda p: last[0][p]


class ThetaMulticlassModel(MulticlassModel):
    """The linear multiclass recursion, θ(t) = −Σ_{s<t} c_{y_s} v_s as a (k, d′) matrix.

    With Q_t = Σ_{s≤t} C_s v_s, Σ_{τ=1..t} W(τ) = C_t θ(t+1) + Q_t (exact), so the average
    costs O(d′) per update and nothing on the other steps. ``on_snapshot(t, average,
    last)`` receives (1/t) Σ_{τ≤t} W(τ) and W(t+1).
    """

    def __init__(self, data: MulticlassData, scale: StepScale, on_snapshot):
        super().__init__(data, scale, on_snapshot)
        self.Xa = data.Xa
        # rows c_{y_i} x̃_i: the θ increments (x̃_i itself when unweighted)
        self.CX = data.Xa if data.c is None else data.c[:, None] * data.Xa
        self.theta = np.zeros((data.k, data.Xa.shape[1]))
        self.Q = np.zeros_like(self.theta)

    def raw(self, i):
        return self.theta @ self.Xa[i]

    def raw_many(self, I):
        return self.Xa[I] @ self.theta.T

    def accept(self, i, t, yh):
        x = self.CX[i]
        yi = self.y_list[i]
        self.theta[yh] -= x
        self.theta[yi] += x
        cx = self.scale.C(t) * x
        self.Q[int(yh)] += cx
        self.Q[yi] -= cx

    def snapshot(self, t):
        average = (self.scale.C(t) * self.theta + self.Q) / t
        self.on_snapshot(t, average, self.scale.c(t + 1) * self.theta)
