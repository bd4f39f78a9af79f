"""An interior point for seed 003's dual with the linear kernel, O(n d²) per iteration.

Seed 003 (Lin, *Dual SVM*, *Soft-Margin SVM*) with K(x, x') = xᵀx':

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q = ZZᵀ,  Z = diag(y) X.

Q has rank ≤ d: :func:`linear_ipm` (Mehrotra's predictor–corrector) solves each Newton
system (D + ZZᵀ) Δα = r by the Sherman–Morrison–Woodbury identity, O(n d²), a few dozen
iterations whatever C; near the end it reads the optimum off the face an iterate points at
(:func:`_crossover`, :func:`_face_solve`). One of the paths of ``solver="auto"``
(:mod:`svmcore.dual.auto`, which snaps, checks and, if needed, hands over to SMO).

Pure NumPy. Deterministic.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.result import gap_m_M

__all__ = ["CROSSOVER_GAP", "IPM_REL_GAP", "linear_ipm"]

#: The interior point's α starts at min(C/2, IPM_START).
IPM_START = 10.0
#: The interior point stops when the complementarity 2nμ is below this relative to |f|.
IPM_REL_GAP = 1e-9
#: ... and tries each iterate's face once 2nμ is below this relative to |f|.
CROSSOVER_GAP = 1e-2
#: ... when the face has at most this many free multipliers, or 2(d + 1) + 10 (with the
#: linear kernel the optimum has, in general position, at most d + 1 free multipliers).
CROSSOVER_MAX_FREE = 500
#: ... and corrects the face it reads off an iterate at most this many times.
XOVER_REFINE = 3


def linear_ipm(X, y, C, *, tol=None, max_iter=100, rel_gap=IPM_REL_GAP):
    """Mehrotra's predictor–corrector on the dual with Q = ZZᵀ, Z = diag(y) X.

    With slacks s = C − α and multipliers z_l, z_u ≥ 0 of α ≥ 0 and α ≤ C, λ of yᵀα = 0,
    the KKT conditions are ZZᵀα − 1 − λy − z_l + z_u = 0, yᵀα = 0, α∘z_l = 0,
    s∘z_u = 0. Each Newton system (D + ZZᵀ) Δα − y Δλ = r, yᵀΔα = −yᵀα, with
    D = z_l/α + z_u/s, is solved through (D + ZZᵀ)⁻¹ = D⁻¹ − D⁻¹Z (I + ZᵀD⁻¹Z)⁻¹ ZᵀD⁻¹.

    Parameters
    ----------
    X : ndarray (n, d)
    y : ndarray (n,) of ±1
    C : float
    tol : float or None
        With a tol, once 2nμ ≤ :data:`CROSSOVER_GAP` · |f(α)| every iterate whose guess
        of the optimal face differs from the last one tried is tried (:func:`_crossover`):
        the run stops as soon as the α read off a face passes m(α) − M(α) ≤ tol (it is
        then the exact optimum).
    max_iter : int
    rel_gap : float
        Stop when 2nμ ≤ rel_gap · max(1, |f(α)|) and the residuals are that small.

    Returns
    -------
    alpha : ndarray (n,)
        The face's α (crossover), or the last iterate snapped onto the bound whose
        constraint is active (z > slack).
    n_iter : int
    how : {"crossover", "converged", "stopped"}
    history : dict of lists
        Per iterate: "alpha" (clipped to the box), "objective", "residual" (the largest
        absolute dual or primal residual), "mu"; after a crossover also "v", the face's
        v = −yG.
    """
    n, d = X.shape
    Z = y[:, None] * X
    Zt = np.ascontiguousarray(Z.T)
    # V = (α, C − α, z_l, z_u): P = V[:2] the slacks, W = V[2:] their multipliers. α starts
    # at min(C/2, IPM_START): inside the box, and for a large C not in the middle of it
    # (the optimal multipliers are 0, C or free ones far below a large C)
    V = np.empty((4, n))
    V[0] = min(0.5 * C, IPM_START)
    V[1] = C - V[0]
    V[2:] = 1.0
    P, W = V[:2], V[2:]
    dV = np.empty((4, n))
    dP, dW = dV[:2], dV[2:]
    da = dP[0]
    RHS = np.empty((n, 2))
    RHS[:, 0] = y
    rd = np.empty(n)
    lam = 0.0
    eye = np.eye(d)
    hist = {"alpha": [], "objective": [], "residual": [], "mu": []}
    converged = False
    it = 0
    two_n = 2.0 * n
    res_prev = np.inf
    tried = None  # the last face guess the crossover tried
    max_free = min(CROSSOVER_MAX_FREE, 2 * d + 12)
    solve = np.linalg.solve
    # scalars of the vector operations as 0-d arrays (a ufunc converts a Python float on
    # every call), sums by np.add.reduce and extremes by argmax (no Python wrappers): the
    # same arithmetic, less overhead per operation
    one0, lam0, s0 = np.ones(()), np.empty(()), np.empty(())
    _sum = np.add.reduce
    ly, Q = np.empty(n), np.empty((4, n))
    while True:
        a = P[0]
        w = Zt @ a
        Zw = Z @ w
        obj = 0.5 * float(w @ w) - float(_sum(a))
        np.subtract(Zw, W[0], out=rd)
        rd += W[1]
        rd -= one0
        if lam:
            lam0[()] = lam
            rd -= np.multiply(y, lam0, out=ly)
        rp = float(y @ a)
        PW = P * W
        mu = float(_sum(PW, axis=None)) / two_n
        res = max(float(rd[rd.argmax()]), -float(rd[rd.argmin()]), abs(rp))
        hist["alpha"].append(a.copy())
        hist["objective"].append(obj)
        hist["residual"].append(res)
        hist["mu"].append(mu)
        scale = max(1.0, abs(obj))
        if tol is not None and two_n * mu <= CROSSOVER_GAP * scale:
            # the face the iterate points at: L = {z_l > α}, U = {z_u > C − α}, F the rest
            U = W[1] > P[1]
            Fi = ((W[0] <= a) & ~U).nonzero()[0]
            guess = (Fi.tobytes(), U.tobytes())
            face = None
            if guess != tried and 0 < Fi.shape[0] <= max_free:
                tried = guess  # a failed guess is not tried again
                face = _crossover(Z, y, C, Fi, U, np.append(a[Fi], -lam), tol, X)
            if face is not None:
                hist["v"] = face[1]
                return face[0], it, "crossover", hist
        if two_n * mu <= rel_gap * scale and res <= 1e-6 * max(1.0, float(np.abs(Zw).max())):
            converged = True
            break
        # rounding in the Woodbury solves puts a floor under the residual: near the
        # optimum it may start to grow; stop there (the snapped α is checked anyway)
        stalled = res > 10.0 * res_prev and two_n * mu <= 1e-6 * scale
        if stalled or it >= max_iter or not np.isfinite(obj):
            break
        res_prev = res
        it += 1
        WP = W / P
        Dinv = WP[0] + WP[1]
        np.divide(one0, Dinv, out=Dinv)
        DZ = Dinv[:, None] * Z
        S = Zt @ DZ
        S += eye
        # predictor (affine scaling, targets 0): r = −r_d − z_l + z_u
        r = RHS[:, 1]
        np.subtract(W[1], W[0], out=r)
        r -= rd
        U = Dinv[:, None] * RHS
        try:
            MV = U - DZ @ solve(S, Zt @ U)  # (D + ZZᵀ)⁻¹ [y, r] by Woodbury
        except np.linalg.LinAlgError:
            break
        My, Mr = MV[:, 0], MV[:, 1]
        yMy = float(y @ My)
        dl = (-rp - float(y @ Mr)) / yMy
        s0[()] = dl
        np.multiply(My, s0, out=da)
        da += Mr
        np.negative(da, out=dP[1])
        np.multiply(WP, dP, out=dW)
        dW += W
        np.negative(dW, out=dW)  # ΔW = −W − W∘ΔP/P
        s0[()] = _step(V, dV, Q)
        Vn = dV * s0
        Vn += V
        mu_aff = float(_sum(Vn[:2] * Vn[2:], axis=None)) / two_n
        sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
        # corrector: targets T = σμ − ΔP_aff∘ΔW_aff; r = −r_d + (T/P − W)_l − (T/P − W)_u
        T = dP * dW
        s0[()] = sigma * mu
        np.subtract(s0, T, out=T)
        TP = T / P
        TP -= W
        r = TP[0] - TP[1]
        r -= rd
        u = Dinv * r
        Mr = u - DZ @ solve(S, Zt @ u)
        dl = (-rp - float(y @ Mr)) / yMy
        s0[()] = dl
        np.multiply(My, s0, out=da)
        da += Mr
        np.negative(da, out=dP[1])
        T -= PW
        np.multiply(WP, dP, out=dW)
        np.subtract(T / P, dW, out=dW)  # ΔW = (T − P∘W)/P − W∘ΔP/P
        step = 0.99 * _step(V, dV, Q)
        s0[()] = step
        dV *= s0
        V += dV
        lam += step * dl
    a = P[0]
    alpha = np.where(W[0] > a, 0.0, a)
    alpha = np.where(W[1] > P[1], C, alpha)
    return alpha, it, "converged" if converged else "stopped", hist


def _step(V, dV, Q) -> float:
    """The largest s ≤ 1 with V + s·ΔV ≥ 0 (V > 0); ``Q`` is work space of V's shape."""
    np.divide(dV, V, out=Q)
    m = float(Q.flat[Q.argmin()])  # the most negative rate
    return 1.0 if m >= -1.0 else -1.0 / m


def _crossover(Z, y, C, Fi, U, x0, tol, X):
    """The optimum on the face an interior-point iterate points at, or None.

    The iterate guesses the free set F (indices ``Fi``) and U (α = C; α = 0 elsewhere);
    :func:`_face_solve` reads α off that face (nearest ``x0`` = (α_F, b) where it is not
    unique). When α leaves the box or fails m(α) − M(α) ≤ tol, the guess is corrected as
    the primal–dual active-set method corrects it (see :func:`active_set`: the sides of
    α − μ with the face's bound multipliers μ = y(b − v)), at most :data:`XOVER_REFINE`
    times: near the optimum the interior point's guess is often off by a point or two.
    Returns (α, v) with v = −yG = y − X Xᵀ(y∘α), or None.
    """
    max_free = min(CROSSOVER_MAX_FREE, 2 * Z.shape[1] + 12)
    for _ in range(XOVER_REFINE + 1):
        nf = Fi.shape[0]
        if nf == 0 or nf > max_free:
            return None
        face = _face_solve(Z, y, C, Fi, U, x0)
        if face is None:
            return None
        alpha, b, in_box = face
        v = y - X @ ((alpha * y) @ X)
        if in_box and gap_m_M(v, alpha, y, C) <= tol:
            return alpha, v
        # α_F outside the box goes to its bound; μ = y(b − v) (0 on F) sorts the others
        s = alpha - y * (b - v)
        s[Fi] = alpha[Fi]
        U_new = s >= C
        Fi_new = ((s > 0.0) & ~U_new).nonzero()[0]
        if np.array_equal(Fi_new, Fi) and np.array_equal(U_new, U):
            return None  # the guess repeats: no better face from here
        U, Fi = U_new, Fi_new
        x0 = np.append(alpha[Fi], b)
    return None


def _face_solve(Z, y, C, Fi, U, x0):
    """α on the face (F free, U at C, the rest 0), its b and whether α_F lies in [0, C].

    On the face the dual's optimality conditions are linear,

        [Z_F Z_Fᵀ  y_F] [α_F]   [1 − Z_F (C Z_Uᵀ 1)]
        [y_Fᵀ      0  ] [ b ] = [     −C y_Uᵀ 1    ],

    solved by LU; when that fails (Z_F Z_Fᵀ is singular where F has more than d + 1
    points: with the linear kernel the dual optimum need not be unique) the solution
    nearest ``x0`` = (α_F, b) is taken (least squares on the correction). None when the
    system has no solution.
    """
    nf = Fi.shape[0]
    ZF, yF = Z[Fi], y[Fi]
    Uf = U.astype(np.float64)
    A = np.empty((nf + 1, nf + 1))
    np.matmul(ZF, ZF.T, out=A[:nf, :nf])
    A[:nf, nf] = yF
    A[nf, :nf] = yF
    A[nf, nf] = 0.0
    rhs = np.empty(nf + 1)
    np.subtract(1.0, ZF @ (C * (Uf @ Z)), out=rhs[:nf])
    rhs[nf] = -C * float(y @ Uf)
    scale = 1e-9 * (1.0 + float(np.abs(rhs).max()))
    x = None
    try:
        x = np.linalg.solve(A, rhs)
    except np.linalg.LinAlgError:
        pass
    if x is None or not _on_face(x[:nf], C) or not np.abs(A @ x - rhs).max() <= scale:
        # singular (or nearly): the solution nearest the start, if the system has one
        x_ls = x0 + np.linalg.lstsq(A, rhs - A @ x0, rcond=None)[0]
        if np.abs(A @ x_ls - rhs).max() <= scale:
            x = x_ls
        elif x is None or not np.abs(A @ x - rhs).max() <= scale:
            return None
    alpha = Uf * C
    alpha[Fi] = x[:nf]
    return alpha, float(x[nf]), _on_face(x[:nf], C)


def _on_face(aF, C) -> bool:
    """0 ≤ α_F ≤ C (False for NaN)."""
    return bool(aF.min() >= 0.0 and aF.max() <= C)
