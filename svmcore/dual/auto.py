"""``solver="auto"``: the dual of seed 003 solved by the method that suits the problem.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*):

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m).

SMO (:mod:`svmcore.dual.smo.fast`) pays a few microseconds of Python per pair update; libsvm pays
nanoseconds. On problems where SMO needs many thousands of pair updates (the linear
kernel at a large C is the classic case: Q has rank d and the pairs zig-zag) or where the
Gram matrix is small enough to hold, fewer and larger steps win. :func:`auto_solution`
picks, for a soft margin:

* **linear kernel with d ≤ n / 2** (Q = ZZᵀ of rank ≤ d, Z = diag(y) X):
  :func:`linear_ipm`, a primal–dual interior point (Mehrotra's predictor–corrector) whose
  Newton systems (D + ZZᵀ) Δα = r cost O(n d²) by the Sherman–Morrison–Woodbury identity;
  a few dozen iterations whatever C. Its last iterate is snapped onto the bounds whose
  constraints are active and checked against the stopping rule below;
* **n ≤ DENSE_MAX_N = 1500** (and n² doubles ≤ ``cache_size``): the whole K at once
  (:func:`gram`), SMO with WSS3 (libsvm's pair update, :func:`_smo`) until the pair
  violation m(α) − M(α) is below :data:`SWITCH_GAP`, then :func:`active_set`, the
  primal–dual active-set method (a semismooth Newton method: guess which α_n sit at 0 or
  C, solve the equality-constrained QP on the others exactly, re-guess from the signs of
  the multipliers; Hintermüller, Ito & Kunisch, SIAM J. Optim. 13, 2003). From SMO's
  guess it ends in a few iterations on the exact optimum of the face;
* otherwise (large n, or the hard margin C = ∞): SMO with shrinking and the
  decomposition (:func:`svmcore.dual.smo.fast.smo`).

Whatever the path, the result is "optimal" only when the stopping rule of libsvm holds on
a gradient computed afresh: m(α) − M(α) ≤ tol (see :mod:`svmcore.dual.smo.fast`). When a fast path
does not get there (an ill-conditioned or singular Q_FF, a stalled interior point) SMO
takes over from where it stopped.

Pure NumPy. Deterministic.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmcore.dual.qp_path import repair_equality
from svmcore.dual.result import DualSolution, bias_from_v, gap_m_M
from svmcore.dual.smo.fast import finish_snapshots, smo
from svmcore.dual.smo.log import StepLog, Thinned, smo_solution
from svmcore.dual.smo.working_set import TAU, pair_update

__all__ = ["SWITCH_GAP", "active_set", "auto_method", "auto_solution", "linear_ipm"]

#: Dense path: SMO hands over to the active-set method once m(α) − M(α) ≤ SWITCH_GAP, or
#: already at SWITCH_EARLY when n ≤ EARLY_MAX_N (small problems: an active-set iteration
#: then costs about as much as a few pair updates); a first try that has not settled
#: after EARLY_MAX_ITER iterations gives way to SMO again.
SWITCH_GAP = 0.1
SWITCH_EARLY = 1.0
EARLY_MAX_N = 600
EARLY_MAX_ITER = 6
#: The dense path (the whole Gram matrix) up to this n; beyond it, SMO computes only the
#: kernel rows it needs (most of them, where few points are support vectors).
DENSE_MAX_N = 1500
#: The active-set method solves systems of at most this many free multipliers.
ACTIVE_SET_MAX_FREE = 1200
#: ... and takes at most this many iterations before SMO takes over again, or gives up
#: earlier when at its third guess more than n / ACTIVE_SET_SLOW multipliers change side.
ACTIVE_SET_MAX_ITER = 12
ACTIVE_SET_SLOW = 8
#: The fast paths take problems with C · max K(x, x) in [SCALE_MIN, SCALE_MAX].
SCALE_MIN, SCALE_MAX = 1e-8, 1e8
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
_NEVER = 1 << 62  # smo_block's Newton interval when it should take no Newton steps


def auto_method(
    n: int, d: int, kernel_name: str, hard: bool, cache_size: float, scale: float = 1.0
) -> str:
    """The path ``solver="auto"`` takes: "ipm", "dense" or "smo" (see the module docstring).

    ``scale`` is C · max K(x, x): outside [SCALE_MIN, SCALE_MAX] (data or C at the edges of
    double precision) the fast paths' linear algebra could overflow or lose all precision,
    and SMO, hardened for those ranges, solves the problem.
    """
    if hard or not SCALE_MIN <= scale <= SCALE_MAX:
        return "smo"
    if kernel_name == "linear" and 2 * d <= n:
        return "ipm"
    if n <= DENSE_MAX_N and n * n * 8 <= cache_size * 2**20:
        return "dense"
    return "smo"


def default_max_iter(n: int) -> int:
    """The default budget of pair updates (and Newton / IPM iterations): max(10⁵, 100 n)."""
    return max(100_000, 100 * n)


# --------------------------------------------------------------------------------------
# the linear kernel: an interior point in O(n d²) per iteration
# --------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------
# the dense path: SMO, then the primal–dual active-set method on the exact face
# --------------------------------------------------------------------------------------
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


_GRAM_BLOCK = 256  # rows per block of the Gaussian Gram matrix


def gram(X, kern) -> np.ndarray:
    """The whole Gram matrix K(X, X).

    Gaussian kernel: for each block of rows one BLAS product with the augmented rows
    [2γx, −γ‖x‖², 1] and [x, 1, −γ‖x′‖²], whose product is −γ‖x − x′‖² (clipped at 0
    against rounding), on and above the diagonal only, written straight into K (the
    exponential, the costly part, is taken once per pair); the block below is its mirror
    image. K(x, x) = 1 exactly.
    """
    if kern.name != "rbf":
        return kern(X)
    n, d = X.shape
    g = kern.gamma
    sq = np.einsum("ij,ij->i", X, X)
    A = np.empty((n, d + 2))
    np.multiply(X, 2.0 * g, out=A[:, :d])
    A[:, d] = -g * sq
    A[:, d + 1] = 1.0
    Bt = np.empty((d + 2, n))
    Bt[:d] = X.T
    Bt[d] = 1.0
    Bt[d + 1] = -g * sq
    K = np.empty((n, n))
    for i0 in range(0, n, _GRAM_BLOCK):
        i1 = min(n, i0 + _GRAM_BLOCK)
        E = K[i0:i1, i0:]
        np.matmul(A[i0:i1], Bt[:, i0:], out=E)
        np.minimum(E, 0.0, out=E)
        np.exp(E, out=E)
        K[i1:, i0:i1] = E[:, i1 - i0 :].T
    K.ravel()[:: n + 1] = 1.0
    return K


def _objective(a, v, y) -> float:
    """½αᵀQα − 1ᵀα from v = −yG: αᵀQα = αᵀ(G + 1) = Σ α (1 − y v)."""
    return 0.5 * float(a @ (1.0 - y * v)) - float(a.sum())


def _smo(K, y, a, v, C, eps, max_steps, *, log, t0, f0, snap, gauss):
    """SMO with WSS3 (libsvm's pair update, as
    :func:`svmcore.dual.smo.working_set.smo_block`) on the whole soft-margin problem until
    m − M ≤ eps or ``max_steps`` pair updates.

    ``a`` and ``v`` are updated in place. ``gauss``: K is Gaussian (K_tt = 1).
    Returns (steps, f, gap, last_pair).
    """
    n = y.shape[0]
    if not gauss:
        Kd = np.diagonal(K).copy()
    ypos = y > 0
    inu = np.where(ypos, a < C, a > 0)
    inl = np.where(ypos, a > 0, a < C)
    vu = np.where(inu, v, -np.inf)
    vl = np.where(inl, v, np.inf)
    inul, inll, yl, al = inu.tolist(), inl.tolist(), y.tolist(), a.tolist()
    bd, tmp, qrow = np.empty(n), np.empty(n), np.empty(n)
    rows = log.rows
    want_steps = len(rows) < log.n_steps
    snaps = log.snaps
    f, steps, gap = f0, 0, np.inf
    li = lj = -1
    inf = np.inf
    _subtract, _multiply, _divide, _maximum = np.subtract, np.multiply, np.divide, np.maximum
    # the scalars of the vector operations as 0-d arrays: a ufunc takes those faster than
    # Python floats (no conversion per call)
    m0, zero0, ci0, cj0 = np.empty(()), np.zeros(()), np.empty(()), np.empty(())
    qc0 = np.array(1.0 + 0.5 * TAU)

    while True:
        i = int(vu.argmax())
        m = float(vu[i])
        M = float(vl[vl.argmin()])
        gap = m - M
        if gap <= eps or steps >= max_steps:
            break
        # WSS3: j = argmax over I_low with v_j < m of (m − v_j)² / a_ij
        m0[()] = m
        _subtract(m0, vl, out=bd)
        _maximum(bd, zero0, out=bd)
        _multiply(bd, bd, out=bd)
        Ki = K[i]
        if gauss:  # a_it / 2 = 1 − K_it (K_tt = 1), + TAU / 2 > 0
            _subtract(qc0, Ki, out=qrow)
        else:
            _multiply(Ki, -2.0, out=qrow)
            qrow += Kd
            qrow += Kd[i]
            _maximum(qrow, TAU, out=qrow)
        _divide(bd, qrow, out=bd)
        j = int(bd.argmax())
        yi, yj = yl[i], yl[j]
        ai, aj = al[i], al[j]
        Gi, Gj = -yi * m, -yj * float(vl[j])
        Kij = float(Ki[j])
        quad = max(2.0 * (1.0 - Kij), TAU) if gauss else float(qrow[j])
        ni, nj = pair_update(yi, yj, ai, aj, Gi, Gj, quad, C)
        di, dj = ni - ai, nj - aj
        kii = 1.0 if gauss else float(Kd[i])
        kjj = 1.0 if gauss else float(Kd[j])
        f += (di * Gi + dj * Gj) + 0.5 * (
            kii * di * di + kjj * dj * dj + 2.0 * yi * yj * Kij * di * dj
        )
        al[i], al[j] = ni, nj
        a[i], a[j] = ni, nj
        # v_t = −y_t G_t changes by −(y_i Δα_i K_ti + y_j Δα_j K_tj)
        ci0[()] = yi * di
        cj0[()] = yj * dj
        _multiply(Ki, ci0, out=tmp)
        _multiply(K[j], cj0, out=bd)
        tmp += bd
        vu -= tmp
        vl -= tmp
        for k, nk in ((i, ni), (j, nj)):
            up, low = (nk < C, nk > 0) if yl[k] > 0 else (nk > 0, nk < C)
            if up != inul[k] or low != inll[k]:
                vk = float(vu[k]) if inul[k] else float(vl[k])
                if up != inul[k]:
                    inul[k] = up
                    inu[k] = up
                    vu[k] = vk if up else -inf
                if low != inll[k]:
                    inll[k] = low
                    inl[k] = low
                    vl[k] = vk if low else inf
        steps += 1
        li, lj = i, j
        if want_steps:
            rows.append((t0 + steps, "pair", i, j, di, dj, f))
            want_steps = len(rows) < log.n_steps
        if (t0 + steps) % snaps.k == 0:
            snap(t0 + steps, i, j, f, gap, v_now=np.where(inu, vu, vl))
    np.copyto(v, vl)
    np.copyto(v, vu, where=inu)
    return steps, f, gap, (li, lj)


def _dense_solution(X, y, kern, C, tol, max_iter, log: StepLog) -> DualSolution:
    """The dense path: the whole Gram matrix, SMO to :data:`SWITCH_GAP` (or
    :data:`SWITCH_EARLY`), then the active-set method."""
    n = y.shape[0]
    K = gram(X, kern)
    gauss = kern.name == "rbf"
    a = np.zeros(n)
    v = y.copy()
    snaps = log.snaps

    def snap(t, i, j, f, gap, final=False, v_now=None):
        # raw state; b and m − M of the kept snapshots are computed at the end
        v_now = v.copy() if v_now is None else v_now
        values = {"alpha": a.copy(), "v": v_now, "dual_objective": f, "i": i, "j": j}
        snaps.add(t, t, values, final=final)
        snaps.k = max(snaps.k, t)  # geometric: the next snapshot at t = 2t

    def fresh():
        v_new = y - K @ (y * a)
        return v_new, gap_m_M(v_new, a, y, C)

    snap(0, -1, -1, 0.0, None)
    steps, f, refreshed, n_active = 0, 0.0, 0, 0
    switch = SWITCH_EARLY if n <= EARLY_MAX_N else SWITCH_GAP
    last = (-1, -1)
    gap = np.inf
    while steps < max_iter:
        eps = max(tol, switch)
        done, f, gap, pair = _smo(
            K, y, a, v, C, eps, max_iter - steps, log=log, t0=steps, f0=f, snap=snap, gauss=gauss
        )
        steps += done
        if pair[0] >= 0:
            last = pair
        if gap > eps:  # out of iterations
            break
        if gap <= tol:
            # the rule held on v updated pair by pair: check it on v computed afresh
            v_new, gap = fresh()
            v[:] = v_new
            f = _objective(a, v, y)
            if gap <= tol or refreshed == 3:
                break
            refreshed += 1
            continue
        cap = EARLY_MAX_ITER if switch > SWITCH_GAP else ACTIVE_SET_MAX_ITER
        a2, v2, its, ok = active_set(K, y, C, a, v, max_iter=cap)
        n_active += its
        if ok:  # α2 is in the box; v2 = y − K(y∘α2) was computed from it, not updated
            gap2 = gap_m_M(v2, a2, y, C)
            if gap2 <= tol:
                a[:] = a2
                v[:] = v2
                gap = gap2
                f = _objective(a, v, y)
                last = (-1, -1)
                if len(log.rows) < log.n_steps:  # a Newton step onto the face found, no pair
                    log.rows.append((steps, "newton", -1, -1, 0.0, 0.0, f))
                break
        switch = min(SWITCH_GAP, 0.1 * switch)  # SMO further before the next try
    if len(snaps.items) > 1 and snaps.items[-1][1] == steps:
        snaps.items.pop()
    snap(steps, last[0], last[1], f, gap, final=True)
    finish_snapshots(snaps.items, y, C)
    status = "optimal" if gap <= tol else ("max_iter" if steps >= max_iter else "inaccurate")
    info = {"method": "smo+active_set", "working_set_size": n, "n_outer": 1}
    info.update(refreshed=refreshed, active_set_iterations=n_active)
    return smo_solution(a, -y * v, y, C, steps, status, log, info)


def _ipm_solution(X, y, kern, C, tol, max_iter, log: StepLog) -> DualSolution:
    """The linear kernel: :func:`linear_ipm`, snapped and checked; SMO from it if needed."""
    ipm_iter = min(max_iter, 200)
    alpha, its, how, hist = linear_ipm(X, y, C, tol=tol, max_iter=ipm_iter)

    def v_of(A):
        """v = −yG = y − X w with w = Xᵀ(y∘α), for α of shape (n,) or (S, n)."""
        return y - ((A * y) @ X) @ X.T

    if how == "crossover":
        v = hist.pop("v")
    else:
        alpha = repair_equality(alpha, y, C)
        v = v_of(alpha)
    gap = gap_m_M(v, alpha, y, C)
    n_iter = its
    polish = None
    if gap > tol and n_iter < max_iter:
        polish = smo(
            X,
            y,
            kern,
            C,
            tol=tol,
            max_iter=max_iter - n_iter,
            n_snapshots=2,
            n_steps=0,
            alpha0=alpha,
        )
        alpha, v = polish.alpha, -y * polish.G
        gap = gap_m_M(v, alpha, y, C)
        n_iter += polish.n_iter
    # snapshots: the interior point's iterates (clipped to the box), then the result
    n_hist = len(hist["alpha"])
    if n_hist <= log.snaps.cap:  # every iterate (what the thinning below keeps then)
        keep = np.arange(n_hist)
    else:
        keep = np.unique(np.rint(np.linspace(0, n_hist - 1, log.snaps.cap)).astype(int))
    keep = keep[:-1] if keep.shape[0] > 1 else keep
    A = np.empty((keep.shape[0] + 1, alpha.shape[0]))
    np.clip(np.array([hist["alpha"][k] for k in keep]), 0.0, C, out=A[:-1])
    A[-1] = alpha
    V = np.empty_like(A)
    V[:-1] = v_of(A[:-1])
    V[-1] = v
    items = []
    for row, k in enumerate(keep.tolist()):
        values = {"alpha": A[row], "v": V[row], "ipm_residual": hist["residual"][k]}
        values.update(mu=hist["mu"][k], i=-1, j=-1)
        items.append((k, k, values))
    final = {"alpha": alpha, "v": V[-1], "ipm_residual": hist["residual"][-1]}
    final.update(mu=hist["mu"][-1], i=-1, j=-1)
    items.append((n_iter, n_iter, final))
    dual = (0.5 * (A * (1.0 - y * V)).sum(axis=1) - A.sum(axis=1)).tolist()
    for row, (_, _, values) in enumerate(items):
        values["dual_objective"] = dual[row]
    finish_snapshots(items, y, C)
    log.snaps.items = items
    if gap <= tol:
        status = "optimal"
    elif polish is not None:
        status = polish.status
    else:
        status = "max_iter" if n_iter >= max_iter else "inaccurate"
    info = {"method": "ipm", "ipm_iterations": its, "ipm_end": how}
    info["polished"] = polish is not None
    sol = smo_solution(alpha, -y * v, y, C, n_iter, status, log, info)
    return replace(sol, method="lowrank_ipm")


def _max_diag(X, kern) -> float:
    """max K(x, x) (X and the kernel already checked: it is finite)."""
    if kern.name == "rbf":
        return 1.0
    s = float(np.einsum("ij,ij->i", X, X).max())
    if kern.name == "linear":
        return s
    with np.errstate(over="ignore"):
        return float(np.power(kern.coef0 + kern.gamma * s, kern.degree))


def auto_solution(X, y, kern, C, *, tol, max_iter, cache_size, n_snapshots, n_steps):
    """Solve the soft-margin dual (C finite) by :func:`auto_method`'s path.

    Returns the :class:`~svmcore.dual.result.DualSolution` and the path's name.
    """
    n, d = X.shape
    hard = not np.isfinite(C)
    scale = 1.0 if hard else C * _max_diag(X, kern)
    method = auto_method(n, d, kern.name, hard, cache_size, scale)
    log = StepLog(Thinned(n_snapshots), n_steps)
    if method == "ipm":
        return _ipm_solution(X, y, kern, C, tol, max_iter, log), method
    if method == "dense":
        return _dense_solution(X, y, kern, C, tol, max_iter, log), method
    sol = smo(
        X,
        y,
        kern,
        C,
        tol=tol,
        max_iter=max_iter,
        cache_size=cache_size,
        n_snapshots=n_snapshots,
        n_steps=n_steps,
    )
    return sol, method
