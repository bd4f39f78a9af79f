"""Lin's *Dual SVM* and *Linear SVM* (seed 003) with a run's numbers (pure).

**The Lagrange function** of the hard-margin SVM on z_n = Φ(x_n),

    ℒ(b, w, α) = ½ wᵀw + Σ_n α_n (1 − y_n(wᵀz_n + b)),

and of the soft margin, ℒ(b, w, ξ, α, β) = ½wᵀw + C Σ ξ_n + Σ α_n (1 − ξ_n − y_n(wᵀz_n + b))
+ Σ β_n(−ξ_n). Lin's claim: SVM ≡ min_{b,w} (max_{α ≥ 0} ℒ) — the inner max is ½wᵀw
(plus C Σ ξ_n) where (b, w) is feasible and ∞ where it is not; the Lagrange dual
max_{α ≥ 0} min_{b,w} ℒ is a lower bound ("max ≥ any"), and its inner min is −∞ unless
Σ y_nα_n = 0, and then, at w = Σ α_n y_n z_n, the dual objective
D(α) = Σ α_n − ½‖Σ α_n y_n z_n‖². Strong duality of the QP: at the optimum
P(b, w) = D(α) = ℒ(b, w, α). :func:`lagrangian_at` evaluates each of these at a run's
(α, b), with w = Σ α_n y_n z_n (in kernel form: wᵀz_n = Σ_m α_m y_m K(x_m, x_n),
‖w‖² = (α∘y)ᵀK(α∘y)); for the soft margin at ξ_n = max(0, 1 − y_n f(x_n)) (the smallest
feasible slacks) and β_n = C − α_n, where ℒ reduces to ½‖w‖² + Σ α_n (1 − y_n f(x_n)).

**Distance to the hyperplane** (*Linear SVM*): distance(x, b, w) = |wᵀx + b|/‖w‖;
margin(b, w) = min_n y_n(wᵀx_n + b)/‖w‖ (:func:`distances`).

**VC dimension of large-margin algorithms** (*Linear SVM*): when X lies in a hyperball
of radius R, d_VC(A_ρ) ≤ min(R²/ρ², d) + 1 ≤ d + 1 (:func:`large_margin_bound`, with R
from :func:`ball_radius` and d from :func:`feature_dimension`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "LagrangeCheck",
    "MarginBound",
    "ball_radius",
    "distances",
    "feature_dimension",
    "lagrangian_at",
    "large_margin_bound",
]


def _square(K, n: int | None = None) -> np.ndarray:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or (n is not None and K.shape[0] != n):
        raise ValueError(f"K must be a square (n, n) Gram matrix, got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("K must be finite")
    return K


@dataclass(frozen=True)
class LagrangeCheck:
    """Lin's Lagrange function, its two problems and strong duality at one (b, w, α).

    Attributes
    ----------
    f : ndarray (n,)
        wᵀz_n + b.
    xi : ndarray (n,)
        ξ_n = max(0, 1 − y_n f_n) (soft margin), zeros for the hard margin.
    w_norm2 : float
        ‖w‖² = ‖Σ α_n y_n z_n‖².
    primal : float
        P(b, w) = ½‖w‖² (+ C Σ ξ_n).
    violation : float
        The largest violation of the primal constraints y_n f_n ≥ 1 (hard margin; the
        soft margin's slacks make it 0).
    inner_max : float
        max_{α ≥ 0} ℒ(b, w, ·) = P where (b, w) is feasible, ∞ where it is not.
    sum_y_alpha : float
        Σ y_n α_n (the dual's inner min is −∞ unless it is 0).
    dual : float
        D(α) = Σ α_n − ½‖w‖² = min_{b,w} ℒ(b, w, α) when Σ y_n α_n = 0.
    lagrangian : float
        ℒ(b, w, α) (soft: ℒ(b, w, ξ, α, β) with β = C − α).
    slackness : float
        Σ_n α_n (1 − ξ_n − y_n f_n) = ℒ − P (0 by complementary slackness at the optimum).
    """

    f: np.ndarray
    xi: np.ndarray
    w_norm2: float
    primal: float
    violation: float
    inner_max: float
    sum_y_alpha: float
    dual: float
    lagrangian: float
    slackness: float
    C: float | None

    @property
    def gap(self) -> float:
        """P − D ≥ 0 (weak duality); 0 at the optimum (strong duality)."""
        return self.primal - self.dual


def lagrangian_at(K, y, alpha, b: float, C: float | None = None) -> LagrangeCheck:
    """Lin's ℒ, P, max_α ℒ, D and the gap at (α, b), with w = Σ α_n y_n z_n.

    Parameters
    ----------
    K : array (n, n)
        The Gram matrix z_nᵀz_m = K(x_n, x_m).
    y : array (n,)
        Labels ±1.
    alpha : array (n,)
        The multipliers α_n ≥ 0 (≤ C for the soft margin).
    b : float
    C : float > 0 or None
        The soft margin's C; None for the hard margin.
    """
    y = np.asarray(y, dtype=float)
    n = y.shape[0]
    if y.ndim != 1 or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must be a 1-D array of labels -1 and +1")
    K = _square(K, n)
    a = np.asarray(alpha, dtype=float)
    if a.shape != (n,) or not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError("alpha must hold n finite multipliers α_n ≥ 0")
    if C is not None and not (np.isscalar(C) and 0 < float(C) < np.inf):
        raise ValueError(f"C must be a finite number > 0 or None, got {C!r}")
    if not np.isfinite(b):
        raise ValueError("b must be finite")
    ay = a * y
    Ka = K @ ay
    f = Ka + float(b)  # wᵀz_n + b with w = Σ_m α_m y_m z_m
    yf = y * f
    w2 = float(ay @ Ka)
    half = 0.5 * w2
    if C is None:
        xi = np.zeros(n)
        violation = float(np.max(np.maximum(0.0, 1.0 - yf), initial=0.0))
        primal = half
        inner = primal if violation == 0.0 else math.inf
        lag = half + float(a @ (1.0 - yf))
    else:
        xi = np.maximum(0.0, 1.0 - yf)
        violation = 0.0
        primal = half + float(C) * float(xi.sum())
        inner = primal
        beta = float(C) - a
        lag = half + float(C) * float(xi.sum()) + float(a @ (1.0 - xi - yf)) - float(beta @ xi)
    return LagrangeCheck(
        f=f,
        xi=xi,
        w_norm2=w2,
        primal=primal,
        violation=violation,
        inner_max=inner,
        sum_y_alpha=float(a @ y),
        dual=float(a.sum()) - half,
        lagrangian=lag,
        slackness=float(a @ (1.0 - xi - yf)),
        C=None if C is None else float(C),
    )


def distances(f, y, w_norm: float) -> tuple[np.ndarray, float]:
    """Lin's distance(x_n, b, w) = |wᵀx_n + b|/‖w‖ per point, and
    margin(b, w) = min_n y_n(wᵀx_n + b)/‖w‖ (negative when a point is misclassified).

    ``f``: wᵀx_n + b (or wᵀz_n + b in a feature space, ‖w‖ there); ``w_norm`` > 0.
    """
    f = np.asarray(f, dtype=float)
    y = np.asarray(y, dtype=float)
    if f.shape != y.shape or f.ndim != 1:
        raise ValueError("f and y must be 1-D arrays of the same length")
    if not (np.isfinite(w_norm) and w_norm > 0):
        raise ValueError(f"w_norm must be a finite number > 0 (w ≠ 0), got {w_norm!r}")
    return np.abs(f) / w_norm, float(np.min(y * f)) / w_norm


def ball_radius(K) -> float:
    """R of a hyperball that holds every z_n: max_n ‖z_n − z̄‖ around their mean z̄, from
    the Gram matrix (‖z_n − z̄‖² = K_nn − 2 (K1)_n/N + 1ᵀK1/N²)."""
    K = _square(K)
    row = K.mean(axis=1)
    d2 = np.diag(K) - 2.0 * row + row.mean()
    return float(np.sqrt(max(0.0, float(np.max(d2)))))


def feature_dimension(kernel, d: int) -> float:
    """The dimension of z = Φ(x) for a kernel of svmcore on ℝᵈ: d (linear), the number of
    monomials of the polynomial kernel (ζ > 0: degree ≤ Q, C(d+Q, Q) with the constant;
    ζ = 0: degree Q, C(d+Q−1, Q)), ∞ for the Gaussian."""
    name = getattr(kernel, "name", kernel)
    if name == "linear":
        return float(d)
    if name == "poly":
        Q = int(kernel.degree)
        if float(kernel.coef0) > 0:
            return float(math.comb(d + Q, Q))
        return float(math.comb(d + Q - 1, Q))
    if name == "rbf":
        return math.inf
    raise ValueError(f"unknown kernel {name!r}")


@dataclass(frozen=True)
class MarginBound:
    """d_VC(A_ρ) ≤ min(R²/ρ², d) + 1 ≤ d + 1 with its numbers."""

    R: float
    rho: float
    d: float
    ratio: float  # R²/ρ²

    @property
    def bound(self) -> float:
        return min(self.ratio, self.d) + 1.0

    @property
    def perceptron(self) -> float:
        """d + 1, the perceptron's d_VC (the bound's right end)."""
        return self.d + 1.0


def large_margin_bound(R: float, rho: float, d: float) -> MarginBound:
    """Lin's bound on the VC dimension of the large-margin algorithm A_ρ."""
    if not (np.isfinite(R) and R >= 0):
        raise ValueError(f"R must be a finite number ≥ 0, got {R!r}")
    if not (np.isfinite(rho) and rho > 0):
        raise ValueError(
            f"ρ must be > 0: the bound is for a hyperplane that separates the points with "
            f"margin ρ (got ρ = {rho:.4g})"
        )
    if not d >= 1:
        raise ValueError(f"d must be ≥ 1, got {d!r}")
    return MarginBound(R=float(R), rho=float(rho), d=float(d), ratio=float(R) ** 2 / rho**2)
