"""``solver="auto"``: the dual of seed 003 solved by the method that suits the problem.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*):

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m).

SMO (:mod:`svmcore.dual.smo.fast`) pays a few microseconds of Python per pair update; libsvm pays
nanoseconds. On problems where SMO needs many thousands of pair updates (the linear
kernel at a large C is the classic case: Q has rank d and the pairs zig-zag) or where the
Gram matrix is small enough to hold, fewer and larger steps win. :func:`auto_solution`
picks, for a soft margin:

* **linear kernel with d ≤ n / 2** (Q = ZZᵀ of rank ≤ d, Z = diag(y) X):
  :func:`~svmcore.dual.linear_ipm.linear_ipm`, a primal–dual interior point (Mehrotra's
  predictor–corrector) whose Newton systems (D + ZZᵀ) Δα = r cost O(n d²) by the
  Sherman–Morrison–Woodbury identity; a few dozen iterations whatever C. Its last
  iterate is snapped onto the bounds whose constraints are active and checked against
  the stopping rule below;
* **n ≤ DENSE_MAX_N = 1500** (and n² doubles ≤ ``cache_size``): the whole K at once
  (:func:`gram`), SMO with WSS3 (libsvm's pair update, :func:`_smo`) until the pair
  violation m(α) − M(α) is below :data:`SWITCH_GAP`, then
  :func:`~svmcore.dual.active_set.active_set`, the primal–dual active-set method (a
  semismooth Newton method: guess which α_n sit at 0 or C, solve the equality-constrained
  QP on the others exactly, re-guess from the signs of the multipliers; Hintermüller, Ito
  & Kunisch, SIAM J. Optim. 13, 2003). From SMO's guess it ends in a few iterations on
  the exact optimum of the face;
* otherwise (large n, or the hard margin C = ∞): SMO with shrinking and the
  decomposition (:func:`svmcore.dual.smo.fast.smo`).

Whatever the path, the result is "optimal" only when the stopping rule of libsvm holds on
a gradient computed afresh: m(α) − M(α) ≤ tol (see :mod:`svmcore.dual.smo.fast`). When a
fast path does not get there (an ill-conditioned or singular Q_FF, a stalled interior
point) SMO takes over from where it stopped.

Pure NumPy. Deterministic.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmcore.dual.active_set import ACTIVE_SET_MAX_ITER, active_set
from svmcore.dual.linear_ipm import linear_ipm
from svmcore.dual.qp_path import repair_equality
from svmcore.dual.result import DualSolution, gap_m_M
from svmcore.dual.smo.fast import finish_snapshots, smo
from svmcore.dual.smo.log import StepLog, Thinned, smo_solution
from svmcore.dual.smo.working_set import TAU, pair_update

__all__ = ["SWITCH_GAP", "auto_method", "auto_solution", "default_max_iter", "gram"]

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
#: The fast paths take problems with C · max K(x, x) in [SCALE_MIN, SCALE_MAX].
SCALE_MIN, SCALE_MAX = 1e-8, 1e8
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
# the dense path: SMO, then the primal–dual active-set method on the exact face
# --------------------------------------------------------------------------------------
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
    """The linear kernel: :func:`~svmcore.dual.linear_ipm.linear_ipm`, snapped and checked;
    SMO from it if needed."""
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
