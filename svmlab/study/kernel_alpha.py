"""Seed 004 §1.1–§1.2 with a run's numbers (pure): the problem in α, the representer
argument and Mercer's condition.

**(3)–(5).** An optimal w of objective (1), (1/n) Σ max{0, 1 − y_i⟨w, φ(x_i)⟩} + λ‖w‖²,
lies in the span of the φ(x_j) (the orthogonal part only adds to ‖w‖), so
w = Σ_j α_j φ(x_j) and (1) becomes

    (4)  (1/n) Σ_i max{0, 1 − y_i Σ_j α_j K_ij} + λ Σ_{i,j} α_i α_j K_ij
    (5)  (1/n) Σ_i max{0, 1 − y_i (Kα)_i} + λ αᵀKα.

Seed 004 writes λ‖w‖² (no ½): its λ is half of SSBD's (16.5), λ/2 αᵀKα, which the kernel
page's runs minimise — :func:`objective_5` takes seed 004's λ. With class weights (seed
002 §2.1) each hinge term is weighted by c_{y_i}.

**The representer argument** (:func:`representer`): where φ is finite (the linear and
polynomial kernels, :func:`svmcore.kernel_features`), w = Σ_j α_j φ(x_j) built explicitly
gives the same decision values ⟨w, φ(x_i)⟩ = (Kα)_i, the same ‖w‖² = αᵀKα and so the
same objective (1) = (5).

**Mercer** (§1.2, :func:`gram_spectrum`): K comes from some φ when it is positive
semidefinite on every x_1, …, x_n; its smallest eigenvalue is ≥ 0 up to rounding.
:func:`distance_gram` is a function that fails: −‖x − x′‖² has a zero diagonal, so its
eigenvalues sum to 0 and one is negative as soon as two points differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import svmcore

__all__ = [
    "GramSpectrum",
    "Objective5",
    "Representer",
    "distance_gram",
    "gram_spectrum",
    "objective_5",
    "representer",
]


def _gram(K) -> np.ndarray:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] < 1:
        raise ValueError(f"K must be a square (n, n) Gram matrix, got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("K must be finite")
    return K


@dataclass(frozen=True)
class Objective5:
    """Seed 004's (4) and (5) at one α (λ: seed 004's, half of SSBD's)."""

    hinge: float  # (1/n) Σ c_i max{0, 1 − y_i (Kα)_i}
    quadratic_sum: float  # Σ_{i,j} α_i α_j K_ij, (4)'s form
    quadratic_matrix: float  # αᵀKα, (5)'s form
    lam: float

    @property
    def value(self) -> float:
        """(5): the hinge mean plus λ αᵀKα."""
        return self.hinge + self.lam * self.quadratic_matrix

    @property
    def value_4(self) -> float:
        """(4): the same with the double sum."""
        return self.hinge + self.lam * self.quadratic_sum


def objective_5(K, y, alpha, lam: float, c=None) -> Objective5:
    """Seed 004's objective (5) in α — and (4) with its double sum — at ``alpha``.

    ``lam`` is seed 004's λ (its λ‖w‖²); ``c`` optional per-point weights c_{y_i}.
    """
    K = _gram(K)
    n = K.shape[0]
    y = np.asarray(y, dtype=float)
    a = np.asarray(alpha, dtype=float)
    if y.shape != (n,) or a.shape != (n,):
        raise ValueError(f"y and alpha must have length n = {n}")
    if not (np.isscalar(lam) and float(lam) > 0):
        raise ValueError(f"lam must be > 0, got {lam!r}")
    c = np.ones(n) if c is None else np.asarray(c, dtype=float)
    Ka = K @ a
    hinge = float(np.mean(c * np.maximum(0.0, 1.0 - y * Ka)))
    double = float(np.einsum("i,j,ij->", a, a, K))  # Σ_{i,j} α_i α_j K_ij, term by term
    return Objective5(hinge, double, float(a @ Ka), float(lam))


@dataclass(frozen=True)
class Representer:
    """w = Σ_j α_j φ(x_j) built explicitly, against the kernel form."""

    w: np.ndarray  # Σ_j α_j φ(x_j), shape (D,)
    f_explicit: np.ndarray  # ⟨w, φ(x_i)⟩
    f_kernel: np.ndarray  # (Kα)_i
    norm2_explicit: float  # ‖w‖²
    norm2_kernel: float  # αᵀKα

    @property
    def max_difference(self) -> float:
        """The largest |difference| of the decision values and of ‖w‖²."""
        return max(
            float(np.max(np.abs(self.f_explicit - self.f_kernel))),
            abs(self.norm2_explicit - self.norm2_kernel),
        )


def representer(X, alpha, kernel) -> Representer:
    """Seed 004's span argument with numbers: w = Σ_j α_j φ(x_j) from an explicit φ
    (:func:`svmcore.kernel_features`, exact for the linear and polynomial kernels).

    Raises ValueError for the Gaussian kernel, whose φ is infinite-dimensional.
    """
    if getattr(kernel, "name", None) == "rbf":
        raise ValueError(
            "the Gaussian kernel's φ(x) is infinite-dimensional: w = Σ_j α_j φ(x_j) cannot "
            "be written out, only used through K (the feature page truncates its Taylor "
            "series)"
        )
    X = np.asarray(X, dtype=float)
    a = np.asarray(alpha, dtype=float)
    if a.shape != (X.shape[0],):
        raise ValueError(f"alpha must have length n = {X.shape[0]}")
    Phi = svmcore.kernel_features(X, kernel)
    w = Phi.T @ a
    K = kernel(X)
    Ka = K @ a
    return Representer(
        w=w,
        f_explicit=Phi @ w,
        f_kernel=Ka,
        norm2_explicit=float(w @ w),
        norm2_kernel=float(a @ Ka),
    )


@dataclass(frozen=True)
class GramSpectrum:
    """The eigenvalues of a Gram matrix (ascending) and seed 004's PSD test."""

    eigenvalues: np.ndarray
    tol: float  # rounding allowance: n · eps · max(1, |λ|_max)

    @property
    def smallest(self) -> float:
        return float(self.eigenvalues[0])

    @property
    def largest(self) -> float:
        return float(self.eigenvalues[-1])

    @property
    def psd(self) -> bool:
        """λ_min ≥ −tol: positive semidefinite up to rounding."""
        return self.smallest >= -self.tol

    @property
    def n_negative(self) -> int:
        """Eigenvalues below −tol."""
        return int(np.count_nonzero(self.eigenvalues < -self.tol))


def gram_spectrum(K) -> GramSpectrum:
    """The eigenvalues of the symmetric matrix K and whether it is PSD (Mercer)."""
    K = _gram(K)
    if not np.allclose(K, K.T, rtol=1e-12, atol=1e-12):
        raise ValueError("K must be symmetric (a Gram matrix K_ij = ⟨φ(x_i), φ(x_j)⟩ is)")
    ev = np.linalg.eigvalsh(0.5 * (K + K.T))
    scale = max(1.0, float(np.max(np.abs(ev))))
    return GramSpectrum(ev, K.shape[0] * np.finfo(float).eps * scale)


def distance_gram(X) -> np.ndarray:
    """−‖x_i − x_j‖²: symmetric, but not a Gram matrix (no φ; see the module docstring)."""
    X = np.asarray(X, dtype=float)
    sq = np.sum(X * X, axis=1)
    return -np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
