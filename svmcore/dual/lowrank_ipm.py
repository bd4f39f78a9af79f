"""A low-rank interior-point solver for the linear-kernel dual SVM (large n, O(n d²) a step).

Seed 003's dual min_α ½αᵀQα − 1ᵀα, yᵀα = 0, 0 ≤ α ≤ C has, for the linear kernel,
Q = ZZᵀ with Z = diag(y) X of rank d. A primal-dual interior point (Mehrotra's
predictor–corrector, as :mod:`svmcore.qp`) then needs (D + ZZᵀ)⁻¹ with D diagonal,
which the Sherman–Morrison–Woodbury identity

    (D + ZZᵀ)⁻¹ = D⁻¹ − D⁻¹Z (I_d + ZᵀD⁻¹Z)⁻¹ ZᵀD⁻¹

gives in O(n d²) per iteration instead of O(n³): a few dozen iterations of vector
operations, whatever n. With multipliers z_l ≥ 0 for α ≥ 0, z_u ≥ 0 for α ≤ C and λ for
yᵀα = 0, the KKT conditions are

    ZZᵀα − 1 − λy − z_l + z_u = 0,   yᵀα = 0,   α∘z_l = 0,   (C − α)∘z_u = 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore.dual.qp_path import repair_equality
from svmcore.dual.result import DualSolution, bias_from_v, gap_m_M

__all__ = ["LowRankIPMOutput", "lowrank_ipm", "lowrank_solution"]


@dataclass(frozen=True)
class LowRankIPMOutput:
    """Raw output: α (snapped to its active bounds), the last iterate, history, status."""

    alpha: np.ndarray
    alpha_raw: np.ndarray
    iterations: int
    status: str
    history: dict


def _step(v, dv):
    neg = dv < 0
    return float(min(1.0, (-v[neg] / dv[neg]).min())) if neg.any() else 1.0


def lowrank_ipm(X, y, C, *, tol=1e-9, max_iter=100) -> LowRankIPMOutput:
    """Solve the linear-kernel dual SVM (C = np.inf for the hard margin) in O(n d²) per step.

    Parameters
    ----------
    X : ndarray (n, d)
    y : ndarray (n,) of ±1
    C : float or np.inf
    tol : float
        Relative tolerance on the residuals and the complementarity μ.
    max_iter : int

    Returns
    -------
    LowRankIPMOutput
    """
    n, d = X.shape
    Z = y[:, None] * X
    hard = not np.isfinite(C)
    scale = 1.0 + float(np.einsum("ij,ij->i", X, X).max())
    alpha = np.full(n, 1.0 / scale if hard else 0.5 * C)
    zl = np.ones(n)
    zu = np.zeros(n) if hard else np.ones(n)
    lam = 0.0
    m = n if hard else 2 * n
    hist = {"alpha": [], "objective": [], "residual": [], "mu": []}
    status, it = "max_iter", 0
    while True:
        w = Z.T @ alpha  # (d,)
        su = np.full(n, np.inf) if hard else C - alpha
        rd = Z @ w - 1.0 - lam * y - zl + zu
        rp = float(y @ alpha)
        mu = (float(alpha @ zl) + (0.0 if hard else float(su @ zu))) / m
        obj = 0.5 * float(w @ w) - float(alpha.sum())
        res = max(float(np.abs(rd).max()), abs(rp))
        for key, val in (
            ("alpha", alpha.copy()),
            ("objective", obj),
            ("residual", res),
            ("mu", mu),
        ):
            hist[key].append(val)
        if res <= tol * scale and mu <= tol * (1.0 + abs(obj)):
            status = "optimal"
            break
        if hard and alpha.max() > 1e12 * scale:
            status = "unbounded"
            break
        if it >= max_iter:
            break
        it += 1
        Dl = zl / alpha
        Du = np.zeros(n) if hard else zu / su
        Dinv = 1.0 / (Dl + Du)
        S = np.eye(d) + Z.T @ (Dinv[:, None] * Z)  # I + ZᵀD⁻¹Z, (d, d)
        S_inv = np.linalg.inv(S)

        def solve_M(v, Dinv=Dinv, S_inv=S_inv):
            """(D + ZZᵀ)⁻¹ v by Woodbury."""
            u = Dinv * v
            return u - Dinv * (Z @ (S_inv @ (Z.T @ u)))

        My = solve_M(y)
        yMy = float(y @ My)
        tl = np.zeros(n)
        tu = np.zeros(n)
        for corrector in (False, True):
            r = -rd + (tl / alpha - zl)
            if not hard:
                r -= tu / su - zu
            Mr = solve_M(r)
            dlam = (-rp - float(y @ Mr)) / yMy
            da = Mr + dlam * My
            dzl = (tl - alpha * zl - zl * da) / alpha
            dzu = np.zeros(n) if hard else (tu - su * zu + zu * da) / su
            a_p = _step(alpha, da) if hard else min(_step(alpha, da), _step(su, -da))
            a_d = _step(zl, dzl) if hard else min(_step(zl, dzl), _step(zu, dzu))
            if not corrector:
                a_aff = min(a_p, a_d)
                mu_aff = float((alpha + a_aff * da) @ (zl + a_aff * dzl))
                if not hard:
                    mu_aff += float((su - a_aff * da) @ (zu + a_aff * dzu))
                sigma = (mu_aff / m / mu) ** 3 if mu > 0 else 0.0
                tl = sigma * mu - da * dzl
                tu = sigma * mu + da * dzu
        step = 0.99 * min(a_p, a_d)
        alpha = alpha + step * da
        zl = zl + step * dzl
        zu = zu + step * dzu
        lam += step * dlam
    # snap each multiplier onto the bound whose constraint is active (z > slack)
    clean = np.where(zl > alpha, 0.0, alpha)
    if not hard:
        clean = np.where(zu > C - alpha, C, clean)
    history = {key: np.asarray(val) for key, val in hist.items()}
    return LowRankIPMOutput(
        alpha=clean, alpha_raw=alpha, iterations=it, status=status, history=history
    )


def lowrank_solution(X, y, C, *, tol, max_iter, n_snapshots) -> DualSolution | None:
    """:func:`lowrank_ipm` as a :class:`DualSolution` (None when the hard margin is unbounded).

    "optimal" only when the snapped α passes the KKT check m(α) − M(α) ≤ max(tol, 1e-6).
    """
    lr = lowrank_ipm(X, y, C, tol=min(tol, 1e-9), max_iter=max_iter)
    if lr.status == "unbounded":
        return None
    alpha = repair_equality(lr.alpha, y, C)

    def state(ak):
        Gk = y * (X @ ((ak * y) @ X)) - 1.0
        return Gk, bias_from_v(-y * Gk, ak, y, C), gap_m_M(-y * Gk, ak, y, C)

    G, b, gap = state(alpha)
    kkt_tol = max(tol, 1e-6)
    ok = lr.status == "optimal" and gap <= kkt_tol
    hist = lr.history
    n_iter = lr.iterations
    keep = np.unique(np.rint(np.linspace(0, n_iter, min(n_snapshots, n_iter + 1))).astype(int))
    names = ("alpha", "b", "dual_objective", "max_violation", "ipm_residual", "mu", "i", "j")
    snaps = {name: [] for name in names}
    for k in keep:
        ak = alpha if k == n_iter else np.clip(hist["alpha"][k], 0.0, C)
        _, bk, gk = state(ak)
        row = (ak, bk, hist["objective"][k], gk, hist["residual"][k], hist["mu"][k], -1, -1)
        for name, value in zip(names, row, strict=True):
            snaps[name].append(value)
    message = (
        ""
        if ok
        else (
            f"the low-rank interior point stopped ({lr.status}) with m(α) − M(α) = {gap:.3g} "
            f"(KKT check: ≤ {kkt_tol:.3g}); use solver='smo'"
        )
    )
    return DualSolution(
        alpha=alpha,
        G=G,
        b=b,
        status="optimal" if ok else ("max_iter" if lr.status == "max_iter" else "inaccurate"),
        n_iter=n_iter,
        method="lowrank_ipm",
        t=keep.tolist(),
        snapshots=snaps,
        info={"kkt_tol": kkt_tol},
        message=message,
    )
