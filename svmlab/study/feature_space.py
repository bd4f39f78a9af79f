"""The feature space of a kernel, computed: Gram matrix order, Lin's Φ₂ lift, explicit runs.

Pure (NumPy and svmcore, no Streamlit); the figures are in :mod:`svmlab.plot.feature_figures`,
the page is ``pages/feature_space.py``. What each view computes, after the texts:

* **Gram matrix** K_ij = K(x_i, x_j) (seed 004 §1.2: the SVM sees the data only through
  it), rows and columns ordered by class, and by |α| within a class (:func:`gram_order`).
* **Lin's Φ₂** (seed 003, *Kernel SVM*): for K₂(x, x′) = (ζ + γ xᵀx′)²,
  Φ₂(x) = (ζ, √(2γζ) x₁, √(2γζ) x₂, γx₁², √2 γx₁x₂, γx₂²) and a trained model
  f(x) = Σ_j c_j K(x_j, x) + b is the hyperplane w = Σ_j c_j Φ₂(x_j) in that space:
  f(x) = wᵀΦ₂(x) + b. In the three quadratic coordinates u = (γx₁², √2 γx₁x₂, γx₂²) the
  set f = 0 is the plane w_uᵀu + w₀ζ + b = 0 only where the linear part √(2γζ) w_xᵀx
  vanishes (always when ζ = 0); in general the boundary is the curve of the lifted plane
  where f = 0 (:func:`lifted_boundary`, exact: along each ray x = r·(cos θ, sin θ),
  f is the quadratic A r² + B r + C in r).
* **Seed 004's circle**: φ(x) = (1, x₁², x₂²) with w = (−1, 1, 1), i.e. x₁² + x₂² = 1,
  which is u₁ + u₃ = γ in the coordinates u (:func:`seed004_check`).
* **An explicit run** (SSBD's Lemma 16.3 for any Φ): :mod:`svmlab.study.feature_run`.
* **The Gaussian as an infinite Φ** (seed 003): the truncated Taylor map's Gram error
  per number of terms (:func:`truncation_errors`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import svmcore
from svmcore.feature_maps import phi2, rbf_taylor_features, seed004_circle_map
from svmlab.state.plane import grid

__all__ = [
    "CIRCLE_HELP",
    "MAX_N",
    "MAX_TERMS",
    "Phi2Lift",
    "TrainedModel",
    "describe_lift",
    "gram_order",
    "kernel_of",
    "lift_kernel",
    "lifted_boundary",
    "phi2_lift",
    "seed004_check",
    "surface_kernel",
    "surface_values",
    "taylor_dimension",
    "trained_model",
    "truncation_errors",
]

#: The Taylor terms the Gaussian views offer (C(d + 29, d) = 465 features in the plane).
MAX_TERMS = 30
#: Seed 004's hyperplane on φ(x) = (1, x₁², x₂²).
SEED004_W = np.array([-1.0, 1.0, 1.0])
#: What the circle button loads. K₂ at γ = 1, ζ = 0 is (xᵀx′)², whose map is
#: Φ₂(x) = (x₁², √2 x₁x₂, x₂²) — not seed 004's φ(x) = (1, x₁², x₂²), which is no kernel of
#: the page; seed 004's plane w = (−1, 1, 1) is w = (1, 0, 1) on Φ₂ with b = −1 (the
#: model's b plays φ's constant 1).
CIRCLE_HELP = (
    "Loads seed 004's unit-circle points and K₂ with γ = 1, ζ = 0, i.e. K(x, x′) = (xᵀx′)², "
    "whose map is Φ₂(x) = (x₁², √2x₁x₂, x₂²). Seed 004 maps to φ(x) = (1, x₁², x₂²) "
    "instead; its plane w = (−1, 1, 1), i.e. x₁² + x₂² = 1, is w = (1, 0, 1) on Φ₂ with "
    "b = −1: the model's b plays φ's constant 1."
)


@dataclass(frozen=True, eq=False)
class TrainedModel:
    """A binary kernel model f(x) = Σ_j c_j K(x_j, x) + b (the last snapshot of a run).

    Attributes
    ----------
    X : ndarray, shape (n, 2)
    coef : ndarray, shape (n,)
        c_j (the dual's α_j y_j, kernel Pegasos' signed α_j).
    b : float
        The bias (0 for SSBD's homogeneous soft-SVM).
    kernel : svmcore.Kernel
    alpha : ndarray, shape (n,)
        |α_j|, for ordering and marker sizes.
    support : ndarray of bool, shape (n,)
    """

    X: np.ndarray
    coef: np.ndarray
    b: float
    kernel: svmcore.Kernel
    alpha: np.ndarray
    support: np.ndarray

    def decision(self, Z) -> np.ndarray:
        """f(z) for each row of Z, shape (m,)."""
        return self.kernel(np.asarray(Z, dtype=float), self.X) @ self.coef + self.b


def trained_model(view) -> TrainedModel:
    """The last snapshot of a binary kernel view (:class:`svmlab.plot.views.BinaryView`)."""
    if view.kernel is None:
        raise ValueError("view must be a kernel model (a BinaryView with a kernel)")
    coef = np.asarray(view.coef[-1], dtype=float)
    alpha = np.abs(coef) if view.alpha is None else np.asarray(view.alpha[-1], dtype=float)
    b = 0.0 if view.b is None else float(view.b[-1])
    support = np.asarray(view.support[-1], dtype=bool)
    return TrainedModel(np.asarray(view.X, dtype=float), coef, b, view.kernel, alpha, support)


def gram_order(y, alpha=None) -> np.ndarray:
    """Point indices ordered by class (−1 first), then by |α| descending, then by index."""
    y = np.asarray(y, dtype=float)
    idx = np.arange(y.shape[0])
    a = np.zeros(y.shape[0]) if alpha is None else np.abs(np.asarray(alpha, dtype=float))
    return np.lexsort((idx, -a, y))


@dataclass(frozen=True, eq=False)
class Phi2Lift:
    """A poly-2 model as a hyperplane on Lin's Φ₂: f(x) = wᵀΦ₂(x) + b.

    Attributes
    ----------
    U : ndarray, shape (n, 3)
        The points' quadratic coordinates u = (γx₁², √2 γx₁x₂, γx₂²).
    w : ndarray, shape (6,)
        w = Σ_j c_j Φ₂(x_j), coordinates as :func:`svmcore.feature_maps.phi2`.
    b : float
    gamma, zeta : float
        The kernel's γ and ζ.
    linear_part : ndarray, shape (n,)
        √(2γζ) w_xᵀx_i, the part of f(x_i) the three coordinates u do not show.
    """

    U: np.ndarray
    w: np.ndarray
    b: float
    gamma: float
    zeta: float
    linear_part: np.ndarray

    @property
    def w_u(self) -> np.ndarray:
        """The weights of u, shape (3,)."""
        return self.w[3:]

    @property
    def offset(self) -> float:
        """w₀ζ + b: f(x) = w_uᵀu + offset + linear part."""
        return float(self.w[0] * self.zeta + self.b)

    @property
    def exact_plane(self) -> bool:
        """True when the linear part vanishes (ζ = 0 or w_x = 0): then f = 0 is the plane."""
        return self.zeta == 0.0 or not np.any(self.w[1:3])


def phi2_lift(model: TrainedModel) -> Phi2Lift:
    """The Φ₂ hyperplane of a model trained with the polynomial kernel of degree 2."""
    k = model.kernel
    if k.name != "poly" or k.degree != 2:
        raise ValueError(f"model.kernel must be polynomial of degree 2, got {k}")
    F = phi2(model.X, gamma=k.gamma, coef0=k.coef0)  # (n, 6)
    w = F.T @ model.coef
    return Phi2Lift(F[:, 3:], w, model.b, k.gamma, k.coef0, F[:, 1:3] @ w[1:3])


def describe_lift(lift: Phi2Lift, f_max: float) -> str:
    """What the Φ₂ view draws, in words: w, b, and whether the plane is the boundary.

    ``f_max`` is max |f(x_i)| on the points (the scale the linear terms are compared to).
    """
    tiny = 1e-12 * float(np.max(np.abs(lift.w)))  # rounding, e.g. w₀ = ζ yᵀα = 0 (dual)
    w = ", ".join(f"{0.0 if abs(v) <= tiny else v:.3g}" for v in lift.w)
    drawn = (
        "Drawn: each point at u = (γx₁², √2γx₁x₂, γx₂²), the support vectors ringed; the "
        f"trained w = Σ_j c_j Φ₂(x_j) = ({w}), b = {lift.b:.3g}; the plane "
        "w_uᵀu + w₀ζ + b = 0. "
    )
    if lift.zeta == 0:
        return drawn + "ζ = 0, so Φ₂ has no linear terms: the plane **is** the boundary."
    lin = float(np.max(np.abs(lift.linear_part))) if lift.linear_part.size else 0.0
    return drawn + (
        f"The linear terms √(2γζ) w_xᵀx reach {lin:.3g} on the points (|f| reaches "
        f"{f_max:.3g}); the plane leaves them out, so it is the boundary only where they "
        "vanish. The black curve is exact: the points x with f(x) = 0, lifted (set ζ = 0 "
        "for a plane that is exact)."
    )


def _ray_roots(A, B, C):
    """The two roots r ≥ 0 of A r² + B r + C = 0 per ray (NaN where none), shape (2, m)."""
    roots = np.full((2, A.shape[0]), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = B * B - 4.0 * A * C
        sq = np.sqrt(np.where(disc >= 0, disc, np.nan))
        # the stable pair: q = −(B + sign(B)√disc)/2, r = q/A and C/q
        q = -0.5 * (B + np.copysign(sq, B))
        r = np.sort(np.stack([q / A, C / q]), axis=0)
        flat = np.abs(A) <= 1e-14 * (np.abs(B) + np.abs(C) + 1e-300)
        r[:, flat] = np.stack([-C / B, np.full(B.shape, np.nan)])[:, flat]
    roots[r >= 0] = r[r >= 0]
    return roots


def lifted_boundary(lift: Phi2Lift, xrange, yrange, n_angles: int = 720):
    """The exact boundary f(x) = 0 in the plane and lifted to u, by rays from the origin.

    Along x = r·(cos θ, sin θ), f = (w_uᵀq(θ)) r² + (√(2γζ) w_xᵀd(θ)) r + (w₀ζ + b) with
    q(θ) = (γ cos²θ, √2 γ cos θ sin θ, γ sin²θ): its roots r ≥ 0 are boundary points.

    Returns
    -------
    P : ndarray, shape (m, 2)
        Boundary points in the plane (NaN rows break the line between branches), inside
        ``xrange`` × ``yrange``.
    U : ndarray, shape (m, 3)
        The same points lifted to u = (γx₁², √2 γx₁x₂, γx₂²).
    """
    theta = np.linspace(0.0, 2.0 * math.pi, n_angles + 1)  # closed: θ = 2π repeats θ = 0
    d = np.column_stack([np.cos(theta), np.sin(theta)])
    g = lift.gamma
    q = np.column_stack(
        [g * d[:, 0] ** 2, math.sqrt(2.0) * g * d[:, 0] * d[:, 1], g * d[:, 1] ** 2]
    )
    A = q @ lift.w_u
    B = math.sqrt(2.0 * g * lift.zeta) * (d @ lift.w[1:3])
    roots = _ray_roots(A, B, np.full(A.shape, lift.offset))
    branches = []
    for r in roots:  # the near and the far branch, NaN-separated
        P = r[:, None] * d
        inside = (P[:, 0] >= xrange[0]) & (P[:, 0] <= xrange[1])
        inside &= (P[:, 1] >= yrange[0]) & (P[:, 1] <= yrange[1])
        P[~inside] = np.nan
        branches += [P, np.full((1, 2), np.nan)]
    P = np.vstack(branches)
    U = np.column_stack(
        [g * P[:, 0] ** 2, math.sqrt(2.0) * g * P[:, 0] * P[:, 1], g * P[:, 1] ** 2]
    )
    return P, U


def seed004_check(X, y) -> int:
    """How many points seed 004's w = (−1, 1, 1) on φ(x) = (1, x₁², x₂²) classifies right."""
    f = seed004_circle_map(X) @ SEED004_W
    return int(np.sum(np.sign(f) == np.asarray(y, dtype=float)))


def surface_values(model: TrainedModel, xrange, yrange, resolution: int = 60):
    """f on a grid: ``xs`` (r,), ``ys`` (r,), ``Z`` (r, r) with Z[a, b] = f(xs[b], ys[a])."""
    xs, ys, G = grid(xrange, yrange, resolution)
    return xs, ys, model.decision(G).reshape(resolution, resolution)


def taylor_dimension(d: int, n_terms: int) -> int:
    """The number of features of the Gaussian map truncated to ``n_terms``: C(d + n − 1, d)."""
    return math.comb(d + n_terms - 1, d)


def truncation_errors(X, *, gamma, max_terms: int) -> np.ndarray:
    """max_ij |K_trunc(x_i, x_j) − K(x_i, x_j)| for 1, …, ``max_terms`` Taylor terms.

    One feature matrix of :func:`svmcore.feature_maps.rbf_taylor_features` (its columns
    come by increasing degree, C(d + k − 1, k) of degree k), its Gram summed degree by
    degree. Returns an array of shape (max_terms,): entry k − 1 is the error with k terms.
    """
    F = rbf_taylor_features(X, gamma=gamma, n_terms=max_terms)
    X = np.asarray(X, dtype=float)
    K = svmcore.rbf(gamma)(X)
    d = X.shape[1]
    G = np.zeros_like(K)
    errors = np.empty(max_terms)
    start = 0
    for k in range(max_terms):
        stop = start + math.comb(d + k - 1, k)
        G += F[:, start:stop] @ F[:, start:stop].T
        errors[k] = np.max(np.abs(G - K))
        start = stop
    return errors


#: The views are drawn for at most this many points (the Gram heatmap has n² cells).
MAX_N = 200


def kernel_of(params: dict) -> svmcore.Kernel:
    """The kernel of the page's kernel widgets' ``params`` (``widgets.kernel_controls``)."""
    return svmcore.make_kernel(
        params.get("kernel", "rbf"),
        gamma=params.get("gamma", 1.0),
        degree=params.get("degree", 3),
        coef0=params.get("coef0", 1.0),
    )


def lift_kernel(params: dict) -> tuple[dict, bool]:
    """The poly-2 kernel of the Φ₂ view, and whether it is the page's own: the page's if
    it is K₂, else K₂ with the page's γ and ζ (1 where the page's kernel has none)."""
    lift = {
        "kernel": "poly",
        "degree": 2,
        "gamma": float(params.get("gamma", 1.0)),
        "coef0": float(params.get("coef0", 1.0)),
    }
    return lift, all(params.get(k) == v for k, v in lift.items())


def surface_kernel(params: dict) -> dict:
    """The Gaussian kernel of the surface and Taylor views: the page's γ (1 if none)."""
    return {"kernel": "rbf", "gamma": float(params.get("gamma", 1.0))}
