"""SMO as a student writes it: one pair update per iteration on the full Q (``engine="textbook"``).

Seed 003 (Lin, *Soft-Margin SVM*) leaves the dual

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m)

to "QP(Q, p, A, c)"; SMO (libsvm) solves it two multipliers at a time. With the gradient
G = Qα − 1, v_t = −y_t G_t, and m(α), M(α) the largest v over I_up and the smallest over
I_low (see :mod:`svmcore.dual.smo.fast`):

    α = 0, G = −1
    while m(α) − M(α) > tol:
        (i, j) ← WSS3: i = argmax_{I_up} v,  j = argmax_{t ∈ I_low, v_t < m} (m − v_t)²/a_it
        α, G ← step(Q, y, α, G, C, i, j)
    b ← mean of v_s over the free s (0 < α_s < C)

:func:`step` is the loop body: the two-variable QP in (α_i, α_j) with y_iα_i + y_jα_j
fixed, solved in closed form and clipped to the box exactly as libsvm's
``Solver::Solve``. No kernel cache, no shrinking, no decomposition, no Newton steps: this
is the reference the fast engine (:mod:`svmcore.dual.smo.fast`) must agree with.

Pure NumPy. Deterministic.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.result import DualSolution, bias_from_v, gap_m_M
from svmcore.dual.smo.log import StepLog, Thinned, smo_solution
from svmcore.dual.smo.working_set import TAU, Diverged

__all__ = ["select_pair", "smo_textbook", "step"]


def select_pair(Q, y, alpha, G, C):
    """WSS3's pair (i, j) and m(α) − M(α); (−1, −1) when I_up or I_low is empty."""
    v = -y * G
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    if not up.any() or not low.any():
        return -1, -1, 0.0
    i = int(np.argmax(np.where(up, v, -np.inf)))
    m, M = v[i], np.min(v[low])
    Kd = np.diag(Q)  # K_tt = Q_tt (y_t² = 1)
    a_it = np.maximum(Kd[i] + Kd - 2.0 * y[i] * y * Q[i], TAU)  # K_ii + K_tt − 2K_it
    score = np.where(low & (v < m), (m - v) ** 2 / a_it, -np.inf)
    return i, int(np.argmax(score)), float(m - M)


def step(Q, y, alpha, G, C, i, j):
    """One SMO pair update: the new (α, G) and (Δα_i, Δα_j).

    Minimises the dual over (α_i, α_j) with y_iα_i + y_jα_j constant and 0 ≤ α ≤ C:
    along that line the objective is a parabola of curvature a_ij = K_ii + K_jj − 2K_ij
    (TAU if not positive); the unconstrained minimiser is clipped to the box.
    """
    ai, aj = alpha[i], alpha[j]
    Gi, Gj = G[i], G[j]
    quad = max(Q[i, i] + Q[j, j] - 2.0 * y[i] * y[j] * Q[i, j], TAU)
    if y[i] != y[j]:  # α_i − α_j stays fixed
        delta = (-Gi - Gj) / quad
        diff = ai - aj
        ni, nj = ai + delta, aj + delta
        if diff > 0 and nj < 0:
            nj, ni = 0.0, diff
        elif diff <= 0 and ni < 0:
            ni, nj = 0.0, -diff
        if diff > 0 and ni > C:
            ni, nj = C, C - diff
        elif diff <= 0 and nj > C:
            nj, ni = C, C + diff
    else:  # α_i + α_j stays fixed
        delta = (Gi - Gj) / quad
        s = ai + aj
        ni, nj = ai - delta, aj + delta
        if s > C and ni > C:
            ni, nj = C, s - C
        elif s <= C and nj < 0:
            nj, ni = 0.0, s
        if s > C and nj > C:
            nj, ni = C, s - C
        elif s <= C and ni < 0:
            ni, nj = 0.0, s
    di, dj = ni - ai, nj - aj
    alpha = alpha.copy()
    alpha[i], alpha[j] = ni, nj
    return alpha, G + Q[:, i] * di + Q[:, j] * dj, di, dj


def _values(alpha, G, y, C, i, j):
    """One snapshot: α, b, m(α) − M(α), the objectives (and the gap, soft margin)."""
    v = -y * G
    b = bias_from_v(v, alpha, y, C)
    w2 = float(alpha @ (G + 1.0))
    out = {"alpha": alpha, "dual_objective": 0.5 * w2 - float(alpha.sum()), "i": i, "j": j}
    out.update(b=b, max_violation=gap_m_M(v, alpha, y, C))
    if np.isfinite(C):
        primal = 0.5 * w2 + C * float(np.maximum(-(G + y * b), 0.0).sum())  # 1 − y f = −G − yb
        out.update(primal_objective=primal, duality_gap=primal + out["dual_objective"])
    return out


def smo_textbook(K, y, C, *, tol, max_iter, n_snapshots=100, n_steps=300) -> DualSolution:
    """Plain SMO on the Gram matrix ``K`` (n × n); ``C`` is a float or ``np.inf``.

    Raises :class:`~svmcore.dual.smo.working_set.Diverged` when a hard-margin Σα passes the bound
    that any margin ≥ 1e-5·max‖Φ(x)‖ allows (as the fast engine does).
    """
    n = y.shape[0]
    Q = (y[:, None] * y[None, :]) * K
    alpha_cap = 2e10 / float(max(np.diag(K).max(), 1e-300)) if not np.isfinite(C) else np.inf
    alpha, G = np.zeros(n), -np.ones(n)
    log = StepLog(Thinned(n_snapshots), n_steps)
    log.snaps.add(0, 0, _values(alpha, G, y, C, -1, -1))
    t, (i, j) = 0, (-1, -1)
    status = "max_iter"
    while True:
        i_next, j_next, gap = select_pair(Q, y, alpha, G, C)
        if gap <= tol:
            status = "optimal"
            break
        if t >= max_iter:
            break
        i, j = i_next, j_next
        alpha, G, di, dj = step(Q, y, alpha, G, C, i, j)
        t += 1
        f = 0.5 * float(alpha @ (G - 1.0))  # ½αᵀQα − 1ᵀα with Qα = G + 1
        if len(log.rows) < n_steps:
            log.rows.append((t, "pair", i, j, di, dj, f))
        if alpha.sum() > alpha_cap:
            raise Diverged(float(alpha.sum()))
        if log.snaps.wants(t):
            log.snaps.add(t, t, _values(alpha, G, y, C, i, j))
    if log.snaps.items[-1][1] == t and t > 0:
        log.snaps.items.pop()
    log.snaps.add(t, t, _values(alpha, G, y, C, i, j), final=True)
    info = {"method": "smo_textbook", "working_set_size": n, "n_outer": 1}
    return smo_solution(alpha, G, y, C, t, status, log, info)
