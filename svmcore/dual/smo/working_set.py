"""The inner SMO of :mod:`svmcore.dual.smo.fast`: libsvm's pair update with second-order working-set
selection (Fan, Chen & Lin, "Working set selection using second order information for
training SVM", JMLR 6, 2005), on one block of the dual of seed 003 (Lin, *Dual SVM* and
*Soft-Margin SVM*)

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m).

With G = Qα − 1 and v_t = −y_t G_t,

    I_up  = {t : α_t < C, y_t = +1  or  α_t > 0, y_t = −1},   m(α) = max_{I_up} v_t,
    I_low = {t : α_t < C, y_t = −1  or  α_t > 0, y_t = +1},   M(α) = min_{I_low} v_t,

:func:`smo_block` stops when m(α) − M(α) ≤ eps; otherwise it updates the pair (i, j) with
i = argmax_{I_up} v and j the second-order choice (WSS3)
j = argmin_{t ∈ I_low, v_t < m} −(m − v_t)²/a_it, a_it = K_ii + K_tt − 2K_it, clipped as
libsvm's ``Solver::Solve`` does. The block is the whole problem (plain SMO) or a working set
of the decomposition (:mod:`svmcore.dual.smo.decomposition`). Every few pair updates it tries
one projected Newton step on the free multipliers (:func:`newton_free`).

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.smo.kernel_cache import ConstRow

TAU = 1e-12  # libsvm's replacement for a non-positive curvature a_ij
NEWTON_EVERY = 8  # SMO steps between Newton steps on the free set (newton_free)
NEWTON_EVERY_SUB = 32  # ... inside the decomposition's subproblems
NEWTON_EVERY_HARD = (4, 8)  # ... for the hard margin (plain SMO, subproblems)
_NEWTON_ADAPT = (2, 64)  # hard margin: bounds of the adapted interval (0: fixed)
_NEWTON_ADAPT_SOFT = (16, 256)  # soft-margin subproblems: the same (0: fixed)
NEWTON_MAX_FREE = 300  # ... tried only while at most this many multipliers are free


class Diverged(Exception):
    """Hard margin: Σα exceeded the cap, so the data are not separable (``sum_alpha``)."""

    def __init__(self, sum_alpha):
        super().__init__(sum_alpha)
        self.sum_alpha = sum_alpha


# --------------------------------------------------------------------------------------
# the pair update on a block (the inner SMO)
# --------------------------------------------------------------------------------------
def smo_block(
    K,
    y,
    a,
    v,
    C,
    eps,
    max_steps,
    *,
    idx=None,
    log=None,
    t0=0,
    f0=0.0,
    alpha_cap=np.inf,
    snap=None,
    newton_every=None,
    gaussian=False,
):
    """Run SMO with WSS3 on one block until m − M ≤ eps or ``max_steps`` pair updates.

    Parameters
    ----------
    K : ndarray (q, q) or LazyBlock
        Kernel block (unsigned), or its rows on demand (``K[i]``, ``K[F]``, ``K.diag``).
    y, a, v : ndarray (q,)
        Labels, multipliers and v = −yG of the block; ``a`` and ``v`` are updated in place.
    idx : ndarray (q,) or None
        Global indices (for the trace).
    log : StepLog or None
        Receives the first steps.
    snap : callable(t, i, j, f, gap) or None
        Called when the log's snapshot schedule wants the state after step t.
    alpha_cap : float
        Hard margin: Σα beyond this proves that the data are not separable.
    newton_every : int or None
        Pair updates between :func:`newton_free` steps (adapted for the hard margin).
    gaussian : bool
        The rows are Gaussian (K_it ≤ K_tt = 1): a_it needs one operation.

    Returns
    -------
    steps, f, gap, last_pair
    """
    newton_every = NEWTON_EVERY if newton_every is None else newton_every
    every = next_newton = newton_every
    adapt = _NEWTON_ADAPT[0] > 0 and not C < np.inf  # hard margin only
    kget = None if isinstance(K, np.ndarray) else K.rows.get  # lazy rows: hits inline
    f_mark = f0  # the objective at the last Newton step (to compare progress with)
    adapt_soft = _NEWTON_ADAPT_SOFT[0] > 0 and idx is not None  # (subproblems only)
    Kd = np.diagonal(K).copy() if isinstance(K, np.ndarray) else K.diag
    ypos = y > 0
    # vu = v on I_up, −∞ elsewhere; vl = v on I_low, +∞ elsewhere (kept up to date
    # instead of v, which is rebuilt from them when needed: every t is in I_up or I_low)
    inu = np.where(ypos, a < C, a > 0)
    inl = np.where(ypos, a > 0, a < C)
    vu = np.where(inu, v, -np.inf)
    vl = np.where(inl, v, np.inf)
    inul = inu.tolist()
    inll = inl.tolist()
    yl = y.tolist()
    al = a.tolist()
    kd0 = float(Kd[0]) if Kd.shape[0] else 0.0
    const_diag = bool(np.all(Kd == kd0))  # Gaussian kernel: K_tt = 1
    gauss = gaussian and const_diag and kd0 == 1.0
    Kdl = ConstRow(kd0) if const_diag else Kd.tolist()
    f = f0
    sum_a = float(sum(al))
    steps = 0
    gap = np.inf
    li = lj = -1  # the last pair (block positions)
    rows = log.rows if log is not None else None
    want_steps = rows is not None and len(rows) < log.n_steps
    snaps = log.snaps if (log is not None and snap is not None) else None
    inf = np.inf
    bd = np.empty_like(v)
    tmp = np.empty_like(v)
    qrow = np.empty_like(v)  # a_it = K_ii + K_tt − 2K_it (≥ TAU) for the current i

    def sync_v():
        np.copyto(v, vl)
        np.copyto(v, vu, where=inu)

    def set_status(k, ak):
        up = (ak < C) if yl[k] > 0 else (ak > 0)
        low = (ak > 0) if yl[k] > 0 else (ak < C)
        if up == inul[k] and low == inll[k]:
            return
        vk = vu[k] if inul[k] else vl[k]  # v_k (after the update)
        if up != inul[k]:
            inul[k] = up
            inu[k] = up
            vu[k] = vk if up else -inf
        if low != inll[k]:
            inll[k] = low
            inl[k] = low
            vl[k] = vk if low else inf

    _subtract, _maximum, _multiply, _divide = np.subtract, np.maximum, np.multiply, np.divide
    while True:
        i = int(vu.argmax())
        m = float(vu[i])
        M = float(vl[vl.argmin()])  # (argmin + index: cheaper than min())
        gap = m - M
        if gap <= eps or steps >= max_steps:
            break
        # WSS3: j = argmax over I_low with v_j < m of (m − v_j)² / a_ij
        # (m − v_t)·|m − v_t|: the square where v_t < m, negative (never the max) elsewhere
        _subtract(m, vl, out=bd)
        np.absolute(bd, out=tmp)
        _multiply(bd, tmp, out=bd)
        Ki = K[i] if kget is None else (kget(i) if i in K.rows else K[i])
        if gauss:  # K_it ≤ K_tt = 1: a_it / 2 + TAU / 2 > 0 in one operation
            _subtract(kd0 + 0.5 * TAU, Ki, out=qrow)
        elif const_diag:  # a_it / 2 = K_tt − K_it (the argmax ignores the factor 2)
            _subtract(kd0, Ki, out=qrow)
            _maximum(qrow, 0.5 * TAU, out=qrow)
        else:
            _multiply(Ki, -2.0, out=qrow)
            qrow += Kd
            qrow += Kdl[i]
            _maximum(qrow, TAU, out=qrow)
        _divide(bd, qrow, out=bd)
        j = int(bd.argmax())
        # libsvm's analytic pair update, written in G = −y v
        yi, yj = yl[i], yl[j]
        ai, aj = al[i], al[j]
        vj = float(vl[j])
        Gi, Gj = -yi * m, -yj * vj
        if const_diag:
            quad = max(2.0 * (kd0 - float(Ki[j])), TAU)
        else:
            quad = float(qrow[j])
        ni, nj = pair_update(yi, yj, ai, aj, Gi, Gj, quad, C)
        di, dj = ni - ai, nj - aj
        # f changes by dᵀG + ½ dᵀQd on the pair (Q_ij = y_i y_j K_ij)
        Kij = float(Ki[j])
        f += (di * Gi + dj * Gj) + 0.5 * (
            Kdl[i] * di * di + Kdl[j] * dj * dj + 2.0 * yi * yj * Kij * di * dj
        )
        al[i] = ni
        al[j] = nj
        a[i] = ni
        a[j] = nj
        # v_t = −y_t G_t changes by −(y_i d_i K_ti + y_j d_j K_tj)
        ci, cj = yi * di, yj * dj
        _multiply(Ki, ci, out=tmp)
        Kj = K[j] if kget is None else (kget(j) if j in K.rows else K[j])
        _multiply(Kj, cj, out=bd)
        tmp += bd
        vu -= tmp
        vl -= tmp
        # the status flags change only when a multiplier reaches or leaves a bound
        for k, nk in ((i, ni), (j, nj)):
            up, low = (nk < C, nk > 0) if yl[k] > 0 else (nk > 0, nk < C)
            if up != inul[k] or low != inll[k]:
                set_status(k, nk)
        steps += 1
        sum_a += di + dj
        li, lj = i, j
        if want_steps:
            last = (int(idx[i]), int(idx[j])) if idx is not None else (i, j)
            rows.append((t0 + steps, "pair", last[0], last[1], di, dj, f))
            want_steps = len(rows) < log.n_steps
        if sum_a > alpha_cap or not (sum_a < inf):
            sync_v()
            raise Diverged(sum_a)
        if snaps is not None and (t0 + steps) % snaps.k == 0:
            pair = (int(idx[i]), int(idx[j])) if idx is not None else (i, j)
            snap(t0 + steps, pair[0], pair[1], f, gap, v_now=np.where(inu, vu, vl))
        if steps >= next_newton:
            sync_v()
            df, F = newton_free(K, y, a, v, C)
            if adapt:  # hard margin: more often while the steps are taken
                every = max(_NEWTON_ADAPT[0], every // 2) if df < 0.0 else every * 2
                every = min(every, _NEWTON_ADAPT[1])
            elif adapt_soft:  # soft: more often while it gains more than the SMO steps
                useful = -df > f_mark - f
                every = every // 2 if useful else every * 2
                every = min(max(every, _NEWTON_ADAPT_SOFT[0]), _NEWTON_ADAPT_SOFT[1])
            next_newton = steps + every
            f_mark = f if df >= 0.0 else f + df
            if df < 0.0:
                f += df
                aF = a[F]
                # the step moved v everywhere, and the status of points in F
                np.copyto(vu, v, where=inu)
                np.copyto(vl, v, where=inl)
                for k, ak in zip(F.tolist(), aF.tolist(), strict=True):
                    al[k] = ak
                    set_status(k, ak)
                sum_a = float(a.sum())
                if want_steps:  # kind "newton": a step on all free multipliers, no pair
                    rows.append((t0 + steps, "newton", -1, -1, 0.0, 0.0, f))
                    want_steps = len(rows) < log.n_steps
    sync_v()
    if li < 0:
        last = (-1, -1)
    else:
        last = (int(idx[li]), int(idx[lj])) if idx is not None else (li, lj)
    return steps, f, gap, last


def pair_update(yi, yj, ai, aj, Gi, Gj, quad, C):
    """libsvm's analytic update of the pair (i, j), clipped to the box [0, C].

    The step along the line y_i α_i + y_j α_j = const that minimizes the dual on it,
    ``quad`` = a_ij = K_ii + K_jj − 2 K_ij (at least TAU), then clipped so that both α
    stay in [0, C] (Fan, Chen and Lin 2005, the update of libsvm's ``Solver::Solve``).

    Parameters
    ----------
    yi, yj : float
        The labels, ±1.
    ai, aj : float
        α_i and α_j before the step.
    Gi, Gj : float
        The dual's gradient at i and j, G_t = (Q α)_t − 1.
    quad : float
        a_ij, positive.
    C : float
        The box's upper bound (``np.inf`` for the hard margin).

    Returns
    -------
    (float, float)
        α_i and α_j after the step.
    """
    if yi != yj:
        delta = (-Gi - Gj) / quad
        diff = ai - aj
        ni, nj = ai + delta, aj + delta
        if diff > 0:
            if nj < 0:
                nj, ni = 0.0, diff
            if ni > C:  # C_i − C_j = 0 (also for C = ∞)
                ni, nj = C, C - diff
        else:
            if ni < 0:
                ni, nj = 0.0, -diff
            if nj > C:
                nj, ni = C, C + diff
        return ni, nj
    delta = (Gi - Gj) / quad
    s = ai + aj
    ni, nj = ai - delta, aj + delta
    if s > C:
        if ni > C:
            ni, nj = C, s - C
        if nj > C:
            nj, ni = C, s - C
    else:
        if nj < 0:
            nj, ni = 0.0, s
        if ni < 0:
            ni, nj = 0.0, s
    return ni, nj


def newton_free(K, y, a, v, C):
    """Projected Newton step on the free multipliers F = {0 < α < C}, others fixed.

    Solves the equality-constrained QP on F exactly ([Q_FF y_F; y_Fᵀ 0] [d; −λ] =
    [−g_F; 0]), shortens the step to stay in the box, and applies it (a, v in place) if it
    lowers the objective. Returns the objective change (0 when the step is rejected) and F.
    Once SMO has found the right free set this lands on the optimum at once, where SMO
    itself would need many pair updates.
    """
    F = np.flatnonzero((a > 0) & (a < C))
    nf = F.shape[0]
    if nf < 2 or nf > NEWTON_MAX_FREE:
        return 0.0, F
    yF = y[F]
    aF = a[F]
    gF = -yF * v[F]  # G_F
    KF = K[F]  # (|F|, q)
    KKT = np.zeros((nf + 1, nf + 1))
    QFF = KKT[:nf, :nf]  # a view: Q_FF = y_F y_Fᵀ ∘ K_FF
    np.multiply(KF[:, F], np.multiply.outer(yF, yF), out=QFF)
    KKT[:nf, nf] = yF
    KKT[nf, :nf] = yF
    rhs = np.zeros(nf + 1)
    np.negative(gF, out=rhs[:nf])
    try:
        d = np.linalg.solve(KKT, rhs)[:nf]
    except np.linalg.LinAlgError:
        d = np.linalg.lstsq(KKT, rhs, rcond=None)[0][:nf]
    if not np.isfinite(d).all():
        return 0.0, F
    d -= yF * (float(yF @ d) / nf)  # y_Fᵀd = 0 exactly (the solve has the KKT's rounding)
    # longest τ ≤ 1 with α_F + τd in the box: room to the bound d heads for, over |d|
    room = np.where(d < 0, aF, C - aF)
    lim = np.divide(room, np.abs(d), out=np.full(nf, np.inf), where=d != 0)
    tau = min(1.0, float(lim.min()))
    Qd = QFF @ d
    df = tau * float(gF @ d) + 0.5 * tau * tau * float(d @ Qd)
    if not df < -1e-15 * max(1.0, abs(float(gF @ aF))):
        return 0.0, F
    new = aF + tau * d
    blk = lim <= tau
    if blk.any():
        new[blk] = np.where(d[blk] < 0, 0.0, C)  # blocking bounds exactly
    np.maximum(new, 0.0, out=new)
    np.minimum(new, C, out=new)
    step = new - aF
    a[F] = new
    v -= (yF * step) @ KF
    return float(gF @ step + 0.5 * step @ (QFF @ step)), F
