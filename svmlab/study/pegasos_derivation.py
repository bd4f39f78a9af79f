"""Seed 002's derivations, replayed on a run's own sampled indices (pure).

**Algorithm 1 → Algorithm 2** (seed 002 §3). With η_t = 1/(λt) the update of Algorithm 1,
w_{t+1} = (1 − 1/t) w_t + (1/(λt)) 1[y⁽ᵗ⁾ w_tᵀx⁽ᵗ⁾ < 1] y⁽ᵗ⁾ x⁽ᵗ⁾, multiplied by t is

    t w_{t+1} − (t − 1) w_t = (1/λ) 1[y⁽ᵗ⁾ w_tᵀx⁽ᵗ⁾ < 1] y⁽ᵗ⁾ x⁽ᵗ⁾,

and the t equations telescope: w_{t+1} = θ_{t+1}/(λt) with θ_{t+1} the sum of y⁽ᵏ⁾x⁽ᵏ⁾
over the steps k ≤ t whose test fired. Grouped by point, θ_{t+1} = Σ_i β_i y_i x_i where
β_i = λ t α_i⁽ᵗ⁺¹⁾ counts the steps that drew i and fired — Algorithm 2's counter. Under
SSBD's schedule (§15.5) the same sum is w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt), one index later: in general
w_t = θ_t/(λ s(t)) with s(t) = t − 1 ("pegasos") or t ("ssbd"), and
s(t+1) w_{t+1} − s(t) w_t = (1/λ) 1[…] c_{y} y x (class weights c_y of §2.1 scale each
term). :func:`telescoping` replays the run's test on its indices and returns θ, the
counts, the last iterate θ_{t+1}/(λ s(t+1)) and the average (1/t) Σ_{τ≤t} w_τ =
(θ_{t+1} H(s(t)) − Σ_u v_u H(s(u)))/(λt) (v_u: the fired steps' c y x, H: harmonic
numbers).

**The Perceptron's mistake counts** (seed 003, "Representation of Fattest Hyperplane"):
w_PLA = Σ_n β_n y_n z_n with β_n the number of mistake corrections at point n;
:func:`perceptron_counts` replays the Perceptron's test on the run's indices.

**Perceptron → Pegasos** (seed 002 §1, "just by changing a few lines of code"):
:func:`perceptron_to_pegasos` gives Algorithm 1 line by line beside the Perceptron's.

Both replays test as svmcore's fast engine does (y_j⟨θ, x_j⟩ < λ s(t), the data's sum
first: exact on integer-valued data such as the seeds' worked examples), in vectorised
chunks, so a replay of T = 10⁶ steps takes about a second.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore.sgd.common import SCHEDULES, harmonic, harmonic_array, schedule_shift

__all__ = [
    "CodePair",
    "PerceptronCounts",
    "TelescopedRun",
    "perceptron_counts",
    "perceptron_to_pegasos",
    "sample_weights",
    "telescoping",
]

_MIN_CHUNK, _MAX_CHUNK, _FEW = 64, 1 << 16, 8


def _data(X, y, bias: str, class_weight) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x̃_i, y_i, c_i): x̃ = (x, 1) under an augmented bias; c_i seed 002 §2.1's weights."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, d) and y (n,), got {X.shape} and {y.shape}")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must hold the labels -1 and +1 only")
    if bias not in ("none", "augment"):
        raise ValueError(f"bias must be 'none' or 'augment' for the replay, got {bias!r}")
    Xa = np.hstack([X, np.ones((X.shape[0], 1))]) if bias == "augment" else X
    c = sample_weights(y, class_weight)
    return Xa, y, c


def sample_weights(y, class_weight) -> np.ndarray:
    """Seed 002 §2.1's weight c_{y_i} of each point, as svmcore's SGD runs weigh the hinge:
    None → 1, "balanced" → N/(2N_±), a dict {−1: c₋, +1: c₊} (a missing label: 1)."""
    y = np.asarray(y, dtype=float)
    n = y.shape[0]
    if class_weight is None:
        return np.ones(n)
    if isinstance(class_weight, str) and class_weight == "balanced":
        n_pos, n_neg = np.count_nonzero(y > 0), np.count_nonzero(y < 0)
        if not (n_pos and n_neg):
            raise ValueError('"balanced" class weights need points of both classes')
        return np.where(y > 0, n / (2.0 * n_pos), n / (2.0 * n_neg))
    if isinstance(class_weight, dict):
        return np.where(y > 0, float(class_weight.get(1, 1.0)), float(class_weight.get(-1, 1.0)))
    raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")


def _indices(indices, n: int) -> np.ndarray:
    idx = np.asarray(indices)
    if idx.ndim != 1 or idx.shape[0] < 1 or not np.issubdtype(idx.dtype, np.integer):
        raise ValueError("indices must be a non-empty 1-D array of integers (0-based)")
    if idx.min() < 0 or idx.max() >= n:
        raise ValueError(f"indices must lie in [0, {n - 1}] (0-based)")
    return idx.astype(np.int64)


def _scan(M, incr, indices, fires):
    """Replay ``v ← v + incr[i]`` on the steps whose test fires, in order; returns the final
    v and the fired steps' (t, i) (t 1-based, i 0-based).

    ``fires(products, t)``: the mask of the steps t (1-based) whose test fires, from
    ``products`` = M[i_t] @ v under the current v (one chunk at a time, re-tested after
    every update, as svmcore's fast engine does).
    """
    v = np.zeros(M.shape[1])
    fired_t: list[int] = []
    fired_i: list[int] = []
    T = indices.shape[0]
    pos, chunk = 0, _MIN_CHUNK
    while pos < T:
        I = indices[pos : pos + chunk]
        B = I.shape[0]
        rows = M.take(I, axis=0)
        steps = np.arange(pos + 1, pos + 1 + B)
        off, n_fired = 0, 0
        while off < B:
            mask = fires(rows[off:] @ v, steps[off:])
            p = int(mask.argmax())
            if not mask[p]:
                break
            k = off + p
            v += incr[I[k]]
            fired_t.append(pos + 1 + k)
            fired_i.append(int(I[k]))
            n_fired += 1
            off = k + 1
        pos += B
        chunk = _MIN_CHUNK if n_fired > _FEW else min(2 * chunk, _MAX_CHUNK)
    return v, np.asarray(fired_t, dtype=np.int64), np.asarray(fired_i, dtype=np.int64)


@dataclass(frozen=True)
class TelescopedRun:
    """Seed 002's telescoped sum after the first ``t`` steps of a run (see the module).

    Attributes
    ----------
    t, lam, shift : the steps replayed, λ, and s(t) = t − shift (1 "pegasos", 0 "ssbd").
    theta : ndarray (d′,)
        θ_{t+1} = Σ over the fired steps k ≤ t of c_{y⁽ᵏ⁾} y⁽ᵏ⁾ x̃⁽ᵏ⁾.
    counts : ndarray of int (n,)
        β_i: how many of those steps drew point i (λ t α_i⁽ᵗ⁺¹⁾ of Algorithm 2).
    theta_from_counts : ndarray (d′,)
        Σ_i β_i c_i y_i x̃_i, the same θ grouped by point.
    w_last : ndarray (d′,)
        θ_{t+1}/(λ s(t+1)), the iterate after step t.
    w_average : ndarray (d′,)
        (1/t) Σ_{τ=1..t} w_τ from the harmonic sums.
    first : list of dict
        The first steps' equations s(k+1) w_{k+1} − s(k) w_k = (1/λ) 1[…] c y x:
        ``k``, ``i`` (0-based), ``fired``, ``w_k``, ``w_next``, ``lhs``, ``rhs``.
    """

    t: int
    lam: float
    shift: int
    theta: np.ndarray
    counts: np.ndarray
    theta_from_counts: np.ndarray
    w_last: np.ndarray
    w_average: np.ndarray
    first: list

    @property
    def n_fired(self) -> int:
        """Steps whose test fired (Σ_i β_i)."""
        return int(self.counts.sum())


def telescoping(
    X,
    y,
    *,
    lam: float,
    indices,
    schedule: str = "pegasos",
    bias: str = "none",
    class_weight=None,
    n_first: int = 3,
) -> TelescopedRun:
    """Replay seed 002's Algorithm 1 on ``indices`` (the run's i_1 … i_t, 0-based) in the
    telescoped form θ_{t+1} = Σ 1[…] c y x and return :class:`TelescopedRun`.

    The one-sample algorithm only (no mini-batch, projection, free bias or w_r: their
    updates do not telescope into one sum of the data); ``bias`` "none" or "augment".
    """
    if not (np.isscalar(lam) and float(lam) > 0 and np.isfinite(lam)):
        raise ValueError(f"lam must be a finite number > 0, got {lam!r}")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be 'pegasos' or 'ssbd', got {schedule!r}")
    lam = float(lam)
    Xa, y, c = _data(X, y, bias, class_weight)
    idx = _indices(indices, Xa.shape[0])
    shift = schedule_shift(schedule)  # s(t) = t − 1 ("pegasos") or t ("ssbd")
    MX = y[:, None] * Xa  # y_j x̃_j: the test y_j⟨θ, x̃_j⟩ < λ s(t)
    YX = (c * y)[:, None] * Xa  # c_j y_j x̃_j: the increments of θ

    def fires(products, steps):  # s(t) = 0 (t = 1, "pegasos"): w_1 = 0, margin 0 < 1
        s = steps - shift
        return (products < lam * s.astype(float)) | (s == 0)

    theta, fired_t, fired_i = _scan(MX, YX, idx, fires)
    t = idx.shape[0]
    counts = np.bincount(fired_i, minlength=Xa.shape[0])
    s_next = t + 1 - shift
    w_last = theta / (lam * s_next)
    phi = harmonic_array(fired_t - shift) @ YX[fired_i] if fired_t.size else np.zeros_like(theta)
    w_average = (theta * harmonic(t - shift) - phi) / (lam * t)

    def w_at(k):  # w_k = θ_k/(λ s(k)), w = 0 while s(k) = 0
        s = k - shift
        th = YX[fired_i[fired_t < k]].sum(axis=0) if fired_t.size else np.zeros_like(theta)
        return th / (lam * s) if s > 0 else np.zeros_like(theta)

    first = []
    fired_set = set(fired_t[fired_t <= n_first].tolist())
    for k in range(1, min(n_first, t) + 1):
        i = int(idx[k - 1])
        fired = k in fired_set
        w_k, w_next = w_at(k), w_at(k + 1)
        first.append(
            {
                "k": k,
                "i": i,
                "fired": fired,
                "w_k": w_k,
                "w_next": w_next,
                "lhs": (k + 1 - shift) * w_next - (k - shift) * w_k,
                "rhs": YX[i] / lam if fired else np.zeros_like(theta),
            }
        )
    return TelescopedRun(
        t=t,
        lam=lam,
        shift=shift,
        theta=theta,
        counts=counts,
        theta_from_counts=counts @ YX,
        w_last=w_last,
        w_average=w_average,
        first=first,
    )


@dataclass(frozen=True)
class PerceptronCounts:
    """The Perceptron after ``t`` steps, as seed 003 writes it: w_PLA = Σ_n β_n y_n z_n.

    ``counts`` β_n (mistake corrections at point n), ``w`` the replayed iterate (x̃ with
    the bias), ``w_from_counts`` Σ_n β_n y_n x̃_n.
    """

    t: int
    counts: np.ndarray
    w: np.ndarray
    w_from_counts: np.ndarray

    @property
    def n_fired(self) -> int:
        return int(self.counts.sum())


def perceptron_counts(X, y, *, indices, bias: str = "none") -> PerceptronCounts:
    """Replay the Perceptron (w += y_i x̃_i when y_i⟨w, x̃_i⟩ ≤ 0) on ``indices`` and count
    its mistake corrections β_n per point. ``bias`` "augment" (or "free", the same thing
    for the Perceptron) appends x̃ = (x, 1)."""
    Xa, y, _ = _data(X, y, "augment" if bias in ("augment", "free") else bias, None)
    idx = _indices(indices, Xa.shape[0])
    YX = y[:, None] * Xa
    w, _, fired_i = _scan(YX, YX, idx, lambda products, steps: products <= 0.0)
    counts = np.bincount(fired_i, minlength=Xa.shape[0])
    return PerceptronCounts(t=idx.shape[0], counts=counts, w=w, w_from_counts=counts @ YX)


@dataclass(frozen=True)
class CodePair:
    """One line of the Perceptron beside the line of seed 002's Algorithm 1 it becomes."""

    perceptron: str
    pegasos: str

    @property
    def changed(self) -> bool:
        return self.perceptron != self.pegasos


def perceptron_to_pegasos() -> list[CodePair]:
    """Seed 002's Algorithm 1 ("Perceptron to Pegasos") line by line beside the
    Perceptron it changes: the same loop, a step size, the test y w ᵀx < 1 instead of
    ≤ 0, and the shrink (1 − η_tλ) on every step."""
    return [
        CodePair("initialize w₁ = 0, t = 0", "initialize w₁ = 0, t = 0"),
        CodePair("for iter = 1, 2, …, 20 do", "for iter = 1, 2, …, 20 do"),
        CodePair("  for j = 1, 2, …, |data| do", "  for j = 1, 2, …, |data| do"),
        CodePair("    t = t + 1", "    t = t + 1;  η_t = 1/(tλ)"),
        CodePair("    if y_j (w_tᵀ x_j) ≤ 0 then", "    if y_j (w_tᵀ x_j) < 1 then"),
        CodePair("      w_{t+1} = w_t + y_j x_j", "      w_{t+1} = (1 − η_t λ) w_t + η_t y_j x_j"),
        CodePair("    else", "    else"),
        CodePair("      w_{t+1} = w_t", "      w_{t+1} = (1 − η_t λ) w_t"),
        CodePair("    end", "    end"),
        CodePair("  end", "  end"),
        CodePair("end", "end"),
    ]
