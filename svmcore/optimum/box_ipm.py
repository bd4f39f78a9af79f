"""The box-constrained soft-SVM dual with a low-rank Q, by a primal–dual interior point.

For a linear kernel (x̃ = (x, 1) under bias "augment") the dual of SSBD's homogeneous
soft-SVM (:mod:`svmcore.optimum.soft_svm`) is

    min_α ½αᵀQα − 1ᵀα,   0 ≤ α ≤ U,   Q = ZZᵀ,  Z = diag(y) X̃  (rank ≤ d),

without the yᵀα = 0 of seed 003's dual. With multipliers z_l, z_u ≥ 0 of the two bounds
the KKT conditions are Qα − 1 − z_l + z_u = 0, α∘z_l = 0, (U − α)∘z_u = 0. A path-following
interior point replaces the zeros of the complementarity by σμ and takes Newton steps;
eliminating Δz_l and Δz_u leaves

    (D + ZZᵀ) Δα = 1 − Qα + σμ (1/α − 1/(U − α)),   D = z_l/α + z_u/(U − α),

solved by the Sherman–Morrison–Woodbury identity in O(n d²) (as
:mod:`svmcore.dual.lowrank_ipm` does for the dual with yᵀα = 0). Coordinate descent needs
thousands of sweeps when λ is small (U large); these few dozen O(n d²) steps do not.
The run stops when the certified duality gap P(Zᵀα) − D(α) is at most ``tol``.
"""

from __future__ import annotations

import numpy as np

from svmcore.losses import hinge_objective

__all__ = ["box_dual_ipm", "linear_box_optimum"]


def _max_step(v, dv) -> float:
    """The largest step s ≤ 1 keeping v + s·dv ≥ 0."""
    neg = dv < 0
    return float(min(1.0, (-v[neg] / dv[neg]).min())) if neg.any() else 1.0


def box_dual_ipm(Z, upper, gap_of, *, tol, max_iter=200, progress=None):
    """Minimise ½‖Zᵀα‖² − 1ᵀα over 0 ≤ α ≤ upper.

    Parameters
    ----------
    Z : ndarray, shape (n, d)
        Rows y_i x̃_i (Q = ZZᵀ).
    upper : ndarray, shape (n,)
        U_i > 0.
    gap_of : callable
        ``gap_of(alpha)`` → the certified duality gap P(w(α)) − D(α) ≥ 0 at ``alpha``.
    tol : float > 0
        Stop when ``gap_of(alpha) <= tol``.
    max_iter : int
    progress : callable or None
        ``progress(k, max_iter)`` after each step k.

    Returns
    -------
    alpha, n_iter, mu, gap
        The last iterate (strictly inside the box), the steps taken, the complementarity
        μ = mean(α∘z_l + (U − α)∘z_u)/2 and the certified gap there.
    """
    n, d = Z.shape
    alpha = 0.5 * upper
    zl = np.ones(n)
    zu = np.ones(n)
    eye = np.eye(d)
    gap = gap_of(alpha)
    it = 0
    mu = float("inf")
    while it < max_iter and gap > tol:
        it += 1
        s = upper - alpha
        mu = float((alpha @ zl + s @ zu) / (2 * n))
        Dg = zl / alpha + zu / s
        rhs = 1.0 - Z @ (Z.T @ alpha) + 0.1 * mu * (1.0 / alpha - 1.0 / s)
        # (D + ZZᵀ)⁻¹ r = D⁻¹r − D⁻¹Z (I + ZᵀD⁻¹Z)⁻¹ ZᵀD⁻¹r
        Dr, DZ = rhs / Dg, Z / Dg[:, None]
        da = Dr - DZ @ np.linalg.solve(eye + Z.T @ DZ, Z.T @ Dr)
        dzl = (0.1 * mu - alpha * zl - zl * da) / alpha
        dzu = (0.1 * mu - s * zu + zu * da) / s
        step = 0.99 * min(
            _max_step(alpha, da), _max_step(s, -da), _max_step(zl, dzl), _max_step(zu, dzu)
        )
        alpha = alpha + step * da
        zl = zl + step * dzl
        zu = zu + step * dzu
        gap = gap_of(alpha)
        if progress is not None:
            progress(it, max_iter)
    return alpha, it, mu, gap


def linear_box_optimum(X, y, c, lam, bias, *, tol, max_iter, progress=None):
    """The box dual of :func:`svmcore.optimum.soft_svm_optimum` for the linear kernel
    (bias "none" or "augment"; ``c`` the per-point weights) by :func:`box_dual_ipm`.

    Returns
    -------
    alpha, n_iter, mu, status, solver
    """
    Xa = np.column_stack([X, np.ones(X.shape[0])]) if bias == "augment" else X
    Z = y[:, None] * Xa
    upper = c / (lam * X.shape[0])

    def gap_of(alpha):  # P(w) − D(α) at w = Zᵀα (w̃ = (w, b) under "augment")
        w = Z.T @ alpha
        norm2 = float(w @ w)
        return hinge_objective(Xa @ w, y, norm2, lam, c) - lam * (alpha.sum() - 0.5 * norm2)

    alpha, n_iter, mu, gap = box_dual_ipm(
        Z, upper, gap_of, tol=tol, max_iter=max_iter, progress=progress
    )
    status = "optimal" if gap <= tol else "max_iter"
    solver = (
        "primal–dual interior point on the box-constrained dual (0 ≤ α ≤ c/(λn), no yᵀα = 0; "
        f"Q = ZZᵀ of rank d by Woodbury), certified duality gap {gap:.1e} "
        + ("≤" if status == "optimal" else ">")
        + f" tol = {tol:.0e} after {n_iter} steps"
    )
    return alpha, n_iter, mu, status, solver
