"""The dual SVM solved as the lecture does: one call to a generic QP solver (``solver="qp"``).

Seed 003 (Lin, *Kernel SVM*):

    Kernel Hard-Margin SVM Algorithm
    1. q_{n,m} = y_n y_m K(x_n, x_m);  p = −1_N;  (A, c) for equ./bound constraints
    2. α ← QP(Q_D, p, A, c)
    3. b ← y_s − Σ_n α_n y_n K(x_n, x_s) with SV (x_s, y_s)
    4. return SVs and their α_n as well as b: g_SVM(x) = sign(Σ_n α_n y_n K(x_n, x) + b)

with the rows a_≥ = y, a_≤ = −y (c = 0: yᵀα = 0), a_n = e_n (c_n = 0: α_n ≥ 0) and, for
the soft margin (*Soft-Margin SVM*), −e_n (c_n = −C: α_n ≤ C). Step 2 is
:func:`svmcore.qp.solve_qp` (an interior point; equality and bounds passed as such;
the objective divided by max(1, max Q_nn), which has the same minimiser).

An interior point ends *near* the optimum, with every α_n strictly inside (0, C) and a
stopping rule relative to the size of Q, so :func:`solve_dual_qp` then

* snaps each α_n onto the bound whose constraint is active (its multiplier exceeds its
  slack) and repairs yᵀα = 0 on the free multipliers (:func:`repair_equality`; the box
  is kept exactly);
* checks the result's own KKT conditions in the original units: m(α) − M(α) ≤
  max(tol, 1e-7) (the pair violation of :mod:`svmcore.dual.smo.fast`, i.e. every y_n f(x_n) within
  that of its condition);
* if the check fails (large or ill-conditioned Q: polynomial kernels of high degree and
  γ), polishes α by SMO warm-started from it, and checks again. Only a result that passes
  is "optimal"; otherwise the status is "inaccurate" and ``message`` says so.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.result import DualSolution, LectureQP, bias_from_v, gap_m_M
from svmcore.dual.separability import not_separable_error
from svmcore.dual.smo.fast import smo
from svmcore.qp import solve_qp

__all__ = [
    "KKT_TOL_MIN",
    "QP_MAX_N",
    "lecture_qp",
    "repair_equality",
    "snap_to_bounds",
    "solve_dual_qp",
]

#: Largest problem the dense interior-point path accepts (it stores n × n matrices).
QP_MAX_N = 1500
#: The KKT check accepts m(α) − M(α) ≤ max(tol, KKT_TOL_MIN).
KKT_TOL_MIN = 1e-7


def lecture_qp(Q, y, C):
    """Seed 003's (Q, p, A, c): a_≥ = y, a_≤ = −y (c = 0), a_n = e_n (c_n = 0), −e_n ≥ −C."""
    n = y.shape[0]
    rows = [y[None, :], -y[None, :], np.eye(n)]
    cs = [np.zeros(1), np.zeros(1), np.zeros(n)]
    if C is not None:
        rows.append(-np.eye(n))
        cs.append(np.full(n, -C))
    return Q, -np.ones(n), np.vstack(rows), np.concatenate(cs)


def snap_to_bounds(alpha, C, z_box):
    """Snap interior-point multipliers onto the bound whose constraint is active.

    A bound is active when its multiplier exceeds its slack (z > s): α_n ≥ 0 when
    z_box_n > α_n, α_n ≤ C when −z_box_n > C − α_n.
    """
    out = np.where(z_box > alpha, 0.0, alpha)
    if np.isfinite(C):
        out = np.where(-z_box > C - alpha, C, out)
    return np.clip(out, 0.0, C)


def repair_equality(alpha, y, C, *, rounds=50):
    """Move the free multipliers (then any with room) so that yᵀα = 0, keeping 0 ≤ α ≤ C.

    Each round spreads the residual r = yᵀα evenly over the multipliers that can absorb
    it (α_t − y_t r/k, clipped to the box); free ones are used first. Returns a copy.
    """
    a = alpha.copy()
    scale = max(float(np.abs(a).sum()), 1e-300)
    for _ in range(rounds):
        r = float(y @ a)
        if abs(r) <= 1e-15 * scale:
            break
        # moving α_t by −y_t·r·s (s > 0) lowers yᵀα by r·s: it needs room in direction −y_t r
        down = -y * np.sign(r)  # the sign of the move each α_t must make
        room = np.where(down > 0, C - a, a)
        free = (a > 0) & (a < C) & (room > 0)
        movable = free if free.any() else room > 0
        if not movable.any():
            break
        k = int(movable.sum())
        step = np.where(movable, -y * r / k, 0.0)
        a = np.clip(a + step, 0.0, C)
    return a


def solve_dual_qp(X, y, kern, C, *, tol, max_iter, progress=None) -> DualSolution:
    """Seed 003's kernel SVM algorithm with :func:`solve_qp`, snapped, checked, polished.

    ``C`` is None for the hard margin. Raises NotSeparableError when the interior point
    finds the hard-margin dual unbounded. ``progress(k, max_iter)`` is passed to
    :func:`solve_qp` (called after each interior-point iteration).
    """
    Cval = np.inf if C is None else C
    K = kern(X)
    Qm, p, A, c = lecture_qp((y[:, None] * y[None, :]) * K, y, C)
    # the same minimiser with the objective divided by s = max(1, max Q_nn): polynomial
    # kernels reach 10¹⁶ on the sliders' ranges, where the interior point's Newton systems
    # overflow; its multipliers come back divided by s
    scale = max(1.0, float(np.diag(Qm).max()))
    sol = solve_qp(
        Qm / scale,
        p / scale,
        A_eq=y,
        c_eq=[0.0],
        lb=0.0,
        ub=C,
        tol=min(tol, 1e-8),
        max_iter=max_iter,
        progress=progress,
    )
    if sol.status in ("unbounded", "infeasible"):
        raise not_separable_error(
            kern,
            "the hard-margin dual QP is unbounded (the interior point found a recession direction)",
        )
    raw = np.nan_to_num(sol.x, nan=0.0, posinf=0.0, neginf=0.0)
    alpha = repair_equality(snap_to_bounds(raw, Cval, sol.z_box * scale), y, Cval)
    G = Qm @ alpha - 1.0
    kkt_tol = max(tol, KKT_TOL_MIN)
    gap = gap_m_M(-y * G, alpha, y, Cval)
    info = {"ipm_status": sol.status, "ipm_iterations": sol.iterations, "kkt_tol": kkt_tol}
    info.update(ipm_max_violation=gap, qp_scale=scale)
    snaps, t = _ipm_snapshots(sol, Qm, y, C, scale)
    n_iter, rounds = sol.iterations, 0
    budget = 1000 * max_iter  # SMO pair updates for the polish (10⁵ by default)
    while not gap <= kkt_tol and rounds < 3 and budget > 0:
        # the interior point's answer fails its KKT check: SMO from it (same rule). SMO
        # updates G incrementally, which drifts when Q is huge: G afresh, again if needed
        polish = smo(X, y, kern, Cval, tol=0.1 * kkt_tol, max_iter=budget, n_steps=0, alpha0=alpha)
        alpha = repair_equality(polish.alpha, y, Cval)
        G = Qm @ alpha - 1.0
        gap = gap_m_M(-y * G, alpha, y, Cval)
        n_iter += polish.n_iter
        budget -= polish.n_iter
        rounds += 1
    info["polish_rounds"] = rounds
    b = bias_from_v(-y * G, alpha, y, Cval)
    _final_snapshot(snaps, t, alpha, b, Qm, y, C, n_iter)
    ok = gap <= kkt_tol
    message = "" if ok else _inaccurate(gap, kkt_tol)
    info["polished"] = rounds > 0
    return DualSolution(
        alpha=alpha,
        G=G,
        b=b,
        status="optimal" if ok else "inaccurate",
        n_iter=n_iter,
        method="ipm",
        t=t,
        snapshots=snaps,
        info=info,
        qp=LectureQP(Qm, p, A, c, sol),
        message=message,
    )


def _inaccurate(gap, kkt_tol):
    return (
        f"the interior point and the SMO polish from it stopped with m(α) − M(α) = {gap:.3g} "
        f"> {kkt_tol:.3g}: this α is not a trustworthy optimum (the QP is badly conditioned "
        "for this kernel); use solver='smo' or a smaller γ or degree"
    )


_IPM_FIELDS = ("primal_residual", "dual_residual", "mu")


def _snapshot(ak, bk, Qm, y, C, **extra):
    """One snapshot of the QP path: α, b, objectives, m(α) − M(α) and the IPM's numbers."""
    Gk = Qm @ ak - 1.0
    w2 = float(ak @ (Gk + 1.0))
    row = {"alpha": ak, "b": bk, "dual_objective": 0.5 * w2 - float(ak.sum()), "i": -1, "j": -1}
    row["max_violation"] = gap_m_M(-y * Gk, ak, y, np.inf if C is None else C)
    if C is not None:
        primal = 0.5 * w2 + C * float(np.maximum(-(Gk + y * bk), 0.0).sum())
        row.update(primal_objective=primal, duality_gap=primal + row["dual_objective"])
    row.update(extra)
    return row


def _ipm_snapshots(sol, Qm, y, C, scale):
    """The interior point's iterates (clipped to the box); b = −λ, λ of yᵀα = 0."""
    hist = sol.history
    Cval = np.inf if C is None else C
    rows = []
    for k, xk in enumerate(hist["x"]):
        ak = np.clip(np.nan_to_num(xk), 0.0, Cval)
        extra = {name: float(hist[name][k]) for name in _IPM_FIELDS}
        extra["ipm_residual"] = max(extra["primal_residual"], extra["dual_residual"])
        rows.append(_snapshot(ak, -scale * float(hist["y"][k][0]), Qm, y, C, **extra))
    names = list(rows[0])
    return {name: [r[name] for r in rows] for name in names}, list(range(len(rows)))


def _final_snapshot(snaps, t, alpha, b, Qm, y, C, n_iter):
    """Replace the last iterate by the returned α (snapped, repaired, maybe polished)."""
    extra = {name: snaps[name][-1] for name in (*_IPM_FIELDS, "ipm_residual")}
    for name, value in _snapshot(alpha, b, Qm, y, C, **extra).items():
        snaps[name][-1] = value
    t[-1] = n_iter
