"""SSBD's Remark 17.3 (seed 001) with a run's numbers (pure).

Remark 17.3: the risk bounds of Corollary 17.1 (√(8ρ²B²/m)) and Corollary 17.2
(ε, reached once T ≥ B²ρ²/ε²) do not depend explicitly on the size of the label set Y;
they may depend on it implicitly, through the norm of Ψ(x, y) (ρ) and because they are
meaningful only when some u with ‖u‖ ≤ B has a small generalized hinge loss.

With the multivector Ψ (x̃ in block y, zeros elsewhere) ‖Ψ(x, y)‖ = ‖x̃‖ whatever k = |Y|,
so ρ = 2 max_i ‖x̃_i‖ does not grow with k; but w = (w_1, …, w_k) has k blocks, and
‖w‖² = Σ_c ‖w_c‖²: a ball ‖u‖ ≤ B shared by k classes leaves each about B/√k.
:func:`remark_17_3` takes a run's output W (k × d′) and returns the numbers the remark
speaks of: k, the dimension k d′ of Ψ, ρ, each class's ‖w_c‖, B = ‖W‖ (the smallest B
whose ball holds the run's W), its empirical generalized hinge, and both corollaries'
terms at that B — none of which has k in it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Remark173", "remark_17_3"]


@dataclass(frozen=True)
class Remark173:
    """The numbers of Remark 17.3 for one run (see the module docstring)."""

    k: int  # |Y|
    d_tilde: int  # d′: the length of x̃
    rho: float  # 2 max_i ‖x̃_i‖ = 2 max ‖Ψ(x_i, y)‖
    block_norms: np.ndarray  # ‖w_c‖, c = 1 … k
    hinge: float  # L_S^{g-hinge}(W), the mean generalized hinge on the training set
    m: int  # training points
    T: int | None  # SGD iterations (Corollary 17.2)

    @property
    def dim_psi(self) -> int:
        """k d′: the dimension of Ψ(x, y) and of w."""
        return self.k * self.d_tilde

    @property
    def B(self) -> float:
        """‖W‖ = √(Σ_c ‖w_c‖²): the smallest B with the run's W in the ball ‖u‖ ≤ B."""
        return float(np.sqrt(np.sum(self.block_norms**2)))

    @property
    def corollary_17_1(self) -> float:
        """√(8ρ²B²/m): Corollary 17.1's term above min_{‖u‖≤B} L_D^{g-hinge}(u)."""
        return float(np.sqrt(8.0 * self.rho**2 * self.B**2 / self.m))

    @property
    def corollary_17_2(self) -> float | None:
        """ε = Bρ/√T: the accuracy Corollary 17.2 gives after T ≥ B²ρ²/ε² iterations."""
        return None if self.T is None else float(self.B * self.rho / np.sqrt(self.T))


def remark_17_3(X, y_idx, W, *, delta=None, bias: bool = True, T: int | None = None) -> Remark173:
    """Remark 17.3's numbers for the linear multiclass output ``W`` (k, d′), d′ = d (+1
    with ``bias``: x̃ = (x, 1)), on the training set (X, y_idx) with the cost matrix
    ``delta`` Δ[y′, y] (None: 0-1)."""
    X = np.asarray(X, dtype=float)
    W = np.asarray(W, dtype=float)
    if X.ndim != 2 or X.shape[0] < 1:
        raise ValueError(f"X must be a non-empty (m, d) array, got shape {X.shape}")
    m, d = X.shape
    d_tilde = d + (1 if bias else 0)
    if W.ndim != 2 or W.shape[1] != d_tilde or W.shape[0] < 2:
        raise ValueError(f"W must be (k, {d_tilde}) with k ≥ 2 classes, got shape {W.shape}")
    k = W.shape[0]
    yi = np.asarray(y_idx)
    if yi.shape != (m,) or not np.all((yi >= 0) & (yi < k)):
        raise ValueError(f"y_idx must hold m = {m} class indices in 0..{k - 1}")
    yi = yi.astype(np.int64)
    D = 1.0 - np.eye(k) if delta is None else np.asarray(delta, dtype=float)
    if D.shape != (k, k):
        raise ValueError(f"delta must be (k, k) = ({k}, {k}), got {D.shape}")
    Xt = np.hstack([X, np.ones((m, 1))]) if bias else X
    S = Xt @ W.T  # ⟨w, Ψ(x_i, y′)⟩ = ⟨w_{y′}, x̃_i⟩
    rows = np.arange(m)
    hinge = np.max(D.T[yi] + S - S[rows, yi][:, None], axis=1)  # Equation (17.3)'s loss
    rho = 2.0 * float(np.sqrt(np.max(np.sum(Xt * Xt, axis=1))))
    return Remark173(
        k=k,
        d_tilde=d_tilde,
        rho=rho,
        block_norms=np.sqrt(np.sum(W * W, axis=1)),
        hinge=float(np.mean(hinge)),
        m=m,
        T=None if T is None else int(T),
    )
