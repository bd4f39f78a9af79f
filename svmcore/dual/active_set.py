"""The primal–dual active-set method on seed 003's dual, from SMO's guess of the face.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*):

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m).

:func:`active_set` (a semismooth Newton method; Hintermüller, Ito & Kunisch, SIAM J.
Optim. 13, 2003) guesses which α_n sit at 0 or C, solves the equality-constrained QP on
the others exactly, and re-guesses from the signs of the bound multipliers. The dense path
of ``solver="auto"`` (:mod:`svmcore.dual.auto`) runs it once SMO is near the optimum.

Pure NumPy. Deterministic.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.result import bias_from_v

__all__ = ["ACTIVE_SET_MAX_ITER", "active_set"]

#: The active-set method solves systems of at most this many free multipliers.
ACTIVE_SET_MAX_FREE = 1200
#: ... and takes at most this many iterations before SMO takes over again, or gives up
#: earlier when at its third guess more than n / ACTIVE_SET_SLOW multipliers change side.
ACTIVE_SET_MAX_ITER = 12
ACTIVE_SET_SLOW = 8


def active_set(K, y, C, a, v, *, max_iter=ACTIVE_SET_MAX_ITER, max_free=ACTIVE_SET_MAX_FREE):
    """The primal–dual active-set method from a feasible α (v = −yG = y − K(y∘α)).

    With b the bias of α (libsvm's rule) and the bound multipliers μ = G + b y (μ_n ≥ 0
    where α_n = 0, μ_n ≤ 0 where α_n = C, 0 on the free set at the optimum), each
    iteration guesses L = {α − μ ≤ 0} (α = 0), U = {α − μ ≥ C} (α = C), F = the rest, and
    solves seed 003's dual on that face exactly,

        [Q_FF  y_F] [α_F]   [1 − Q_FU C 1_U]
        [y_Fᵀ  0  ] [ b ] = [  −C y_Uᵀ 1_U ],

    (solved as [K_FF 1; 1ᵀ 0] [β_F; b] = [y_F − (K C y∘1_U)_F; −C y_Uᵀ1] in β_F = y_F∘α_F,
    the same rows multiplied by y_F, without forming Q_FF), then recomputes μ. When the
    guess repeats, α is in the box and every μ has its sign:
    the KKT conditions hold and α is the optimum. The method converges fast from a good
    guess but may cycle from a poor one (Q is not an M-matrix); it gives up when more
    multipliers change side than in the iteration before, or when the third guess still
    moves more than n / :data:`ACTIVE_SET_SLOW` of them (a poor start: SMO is cheaper
    there). Returns (α, v, iterations,
    converged); ``converged`` is False (α and v None) when the guess did not settle within
    ``max_iter`` iterations, it cycled, a face had more than ``max_free`` free multipliers
    or its system was singular.
    """
    n = y.shape[0]
    b = bias_from_v(v, a, y, C)
    mu = y * (b - v)
    side_prev = None
    hU = np.zeros(n)  # K (C y∘1_U), kept up to date as U changes
    U_in = np.zeros(n, dtype=bool)
    moved_prev = n + 1
    cap = 0  # the work arrays are reused across iterations (no fresh pages per iteration)
    Kflat = K.reshape(-1)
    # scalars as 0-d arrays (a ufunc converts a Python scalar on every call)
    zero0, C0, b0 = np.zeros(()), np.array(C), np.empty(())
    one8, two8 = np.ones((), dtype=np.int8), np.array(2, dtype=np.int8)
    for it in range(max_iter + 1):
        s = a - mu
        side = np.greater(s, zero0).view(np.int8) + np.greater_equal(s, C0).view(np.int8)
        # side 0: L (α = 0), 1: F (free), 2: U (α = C)
        if side_prev is not None:
            moved = np.count_nonzero(side != side_prev)
            if moved == 0:
                return a, v, it, True
            if moved > moved_prev:  # more multipliers change side than before: cycling
                break
            if it >= 2 and moved > max(4, n // ACTIVE_SET_SLOW):
                break  # still far from settled: SMO gets closer first
            moved_prev = moved
        if it == max_iter:
            break
        side_prev = side
        U = np.equal(side, two8)
        Fi = np.equal(side, one8).nonzero()[0]
        nf = Fi.shape[0]
        if nf == 0 or nf > max_free:
            break
        changed = (U != U_in).nonzero()[0]
        if changed.shape[0] > n // 8:  # many: one product with all of K
            hU = K @ np.where(U, C * y, 0.0)
            U_in = U
        elif changed.shape[0]:
            coef = np.where(U[changed], C, -C) * y[changed]
            hU += coef @ K[changed]
            U_in = U
        if nf + 1 > cap:
            cap = nf + 1 + max(16, nf // 4)
            A_buf, idx_buf = np.empty(cap * cap), np.empty(cap * cap, dtype=np.intp)
        A = A_buf[: (nf + 1) ** 2].reshape(nf + 1, nf + 1)
        idx = idx_buf[: nf * nf].reshape(nf, nf)
        np.add(np.multiply(Fi, n)[:, None], Fi, out=idx)  # flat positions of K_FF in K
        np.take(Kflat, idx, out=A[:nf, :nf])
        A[:nf, nf] = 1.0
        A[nf, :nf] = 1.0
        A[nf, nf] = 0.0
        yF = y[Fi]
        rhs = np.empty(nf + 1)
        np.subtract(yF, hU[Fi], out=rhs[:nf])
        rhs[nf] = -C * float(y[U].sum())
        try:  # in β_F = y_F∘α_F: [K_FF 1; 1ᵀ 0] [β_F; b] = [y_F − (K C y∘1_U)_F; −C y_Uᵀ1]
            sol = np.linalg.solve(A, rhs)
        except np.linalg.LinAlgError:
            break
        beta = sol[:nf]
        big = np.abs(beta)
        if not big[big.argmax()] <= 1e6 * C:  # NaN, or a (nearly) singular face
            break
        a = np.where(U, C0, zero0)
        a[Fi] = yF * beta
        b = float(sol[nf])
        if 4 * nf <= n:  # v = y − K(y∘α) = y − K(C y∘1_U) − K[:, F] β_F, F's rows
            v = y - hU
            v -= beta @ K[Fi]
        else:  # most rows: one product with K, no copy of its rows
            v = y - K @ (y * a)
        b0[()] = b
        mu = y * np.subtract(b0, v)
        mu[Fi] = 0.0
    return None, None, it, False
