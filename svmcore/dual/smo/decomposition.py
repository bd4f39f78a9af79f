"""Decomposition method for large SVM duals (the large-n driver of :mod:`svmcore.dual.smo.fast`).

Solves the dual of seed 003 (Lin, *Dual SVM* and *Soft-Margin SVM*),
min_α ½ αᵀQα − 1ᵀα subject to yᵀα = 0, 0 ≤ α_n ≤ C, as SVMlight and ThunderSVM do, with
libsvm's SMO (second-order working-set selection, Fan, Chen & Lin, JMLR 6, 2005;
:func:`svmcore.dual.smo.working_set.smo_block`) as the subproblem solver:

* working set: B = up to q/2 maximal violators of each side, the points of I_up with
  v_t > M(α) of largest v and those of I_low with v_t < m(α) of smallest v (v = −yG);
* inner block solve: SMO with WSS3 on B to max(tol, 0.3 × the outer gap m − M), reading
  the kernel rows of the pairs it updates from the LRU cache (``LazyBlock``; no |B|×|B|
  block is formed);
* gradient update: v of all active points changes by −Σ_k y_k Δα_k K(x_k, ·) over the
  multipliers that changed (:func:`_update_gradient`, the same cached rows);
* shrinking: libsvm's ``be_shrunk`` rule, applied when it removes at least half of the
  active points; the gradient of shrunk points is rebuilt (:func:`_reconstruct`) before the
  final check, so the stopping rule m(α) − M(α) ≤ tol (:func:`_violation`) is libsvm's on
  the whole problem;
* when the rule is first met, one projected Newton step on all free multipliers
  (:func:`_polish`), then the rule is checked again.

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

import numpy as np

from svmcore.dual.result import bias_from_v
from svmcore.dual.smo.kernel_cache import BLOCK_ELEMS, LazyBlock, RowCache
from svmcore.dual.smo.log import smo_solution
from svmcore.dual.smo.working_set import (
    NEWTON_EVERY_HARD,
    NEWTON_EVERY_SUB,
    NEWTON_MAX_FREE,
    Diverged,
    newton_free,
    smo_block,
)

__all__ = ["solve_decomposition"]

_INNER_FRAC = 0.3  # subproblems are solved to max(tol, _INNER_FRAC × outer gap)
_SHRINK_EVERY = 4  # outer iterations between shrinking checks
_SHRINK_MIN_FRAC = 0.5  # ... which shrink only when they remove more than this fraction
_KEEP_ROWS = 1024  # cached rows carried over a shrink (the others are dropped)
_UPDATE_ELEMS = 1 << 18  # gradient updates read at most this many cached values at once


# --------------------------------------------------------------------------------------
# the stopping rule
# --------------------------------------------------------------------------------------
def _violation(v, a, y, C):
    """m(α) = max_{I_up} v, M(α) = min_{I_low} v (stop when m − M ≤ tol), and the masks."""
    ypos = y > 0
    up = np.where(ypos, a < C, a > 0)
    low = np.where(ypos, a > 0, a < C)
    m = v[up].max() if up.any() else -np.inf
    M = v[low].min() if low.any() else np.inf
    return float(m), float(M), up, low


# --------------------------------------------------------------------------------------
# the decomposition driver
# --------------------------------------------------------------------------------------
def solve_decomposition(rows, y, C, tol, max_iter, log, alpha_cap, q, cache_floats, shrinking):
    n = y.shape[0]
    alpha = np.zeros(n)
    G = -np.ones(n)
    act = np.arange(n)
    ya, aa, va = y.copy(), alpha.copy(), y.copy()
    compute = rows.rows_over(None)  # I ↦ K(X[I], X[act]) (global I)
    cache = RowCache(n, n, cache_floats, rows.dtype)
    snaps = log.snaps
    half = max(q // 2, 1)
    t = 0
    f = 0.0
    outer = 0
    n_shrink = n_unshrink = 0
    status = "optimal"
    last = (-1, -1)

    def full_state():
        alpha[act] = aa
        G[act] = -ya * va
        return alpha

    base = alpha.copy()  # α of the shrunk points (they do not move while shrunk)

    def snapshot(gap, final=False):
        # raw state (two copies of the active part); α and b are assembled at the end
        raw = (base, act, aa.copy(), va.copy(), ya)
        values = {"_raw": raw, "dual_objective": f, "max_violation": gap}
        values.update(i=last[0], j=last[1])
        snaps.add(outer, t, values, final=final)

    m, M, up, low = _violation(va, aa, ya, C)
    snapshot(m - M)
    polished = False
    while True:
        m, M, up, low = _violation(va, aa, ya, C)
        gap = m - M
        if gap <= tol and not polished:
            # once: a Newton step on all free multipliers lands on the optimum of their face
            polished = True
            df = _polish(cache, compute, rows.diag, act, ya, aa, va, C)
            if df < 0.0:
                f += df
                if len(log.rows) < log.n_steps:
                    log.rows.append((t, "polish", -1, -1, 0.0, 0.0, f))
                continue
        if gap <= tol or t >= max_iter:
            if act.shape[0] < n:
                # rebuild the gradient of the shrunk points, then check the whole problem
                full_state()
                _reconstruct(rows, y, alpha, G, act)
                act = np.arange(n)
                ya, aa, va = y, alpha.copy(), -y * G
                compute = rows.rows_over(None)
                cache.clear(n)
                base = alpha.copy()
                n_unshrink += 1
                if t < max_iter:
                    continue
                m, M, up, low = _violation(va, aa, ya, C)
                gap = m - M
            if gap > tol:
                status = "max_iter"
            break
        outer += 1
        # shrinking (libsvm's be_shrunk): bound points that cannot join a violating pair
        if shrinking and outer % _SHRINK_EVERY == 0:
            only_up = up & ~low
            only_low = low & ~up
            drop = (only_up & (va < M)) | (only_low & (va > m))
            n_drop = int(drop.sum())
            if n_drop > _SHRINK_MIN_FRAC * act.shape[0] and act.shape[0] - n_drop > q:
                keep = np.flatnonzero(~drop)
                full_state()
                act = act[keep]
                ya, aa, va = ya[keep], aa[keep], va[keep]
                compute = rows.rows_over(act)
                cache.compact(keep, _KEEP_ROWS)
                up, low = up[keep], low[keep]
                base = alpha.copy()
                n_shrink += 1
        # working set: the maximal violators of each side
        cu = np.flatnonzero(up & (va > M))
        cl = np.flatnonzero(low & (va < m))
        if cu.shape[0] > half:
            cu = cu[np.argpartition(-va[cu], half - 1)[:half]]
        if cl.shape[0] > half:
            cl = cl[np.argpartition(va[cl], half - 1)[:half]]
        mark = np.zeros(va.shape[0], dtype=bool)  # B = cu ∪ cl, sorted (no np.union1d sort)
        mark[cu] = True
        mark[cl] = True
        B = np.flatnonzero(mark)
        # rows of K_BB on demand: the cached rows of the pairs SMO updates, restricted to B
        Kbb = LazyBlock(cache, compute, act[B], B, rows.diag[act[B]])
        yb, ab, vb = ya[B], aa[B].copy(), va[B].copy()
        a_old = ab.copy()
        eps_in = max(tol, _INNER_FRAC * gap)
        steps, f, _, pair = smo_block(
            Kbb,
            yb,
            ab,
            vb,
            C,
            eps_in,
            min(max(20 * B.shape[0], 200), max_iter - t),
            idx=act[B],
            log=log,
            t0=t,
            f0=f,
            alpha_cap=alpha_cap,
            newton_every=NEWTON_EVERY_SUB if np.isfinite(C) else NEWTON_EVERY_HARD[1],
            gaussian=rows.kernel.name == "rbf",
        )
        if steps == 0:  # cannot happen while gap > tol; guard against a stall
            status = "stalled"
            break
        t += steps
        last = pair
        d = ab - a_old
        ch = np.flatnonzero(d)
        aa[B] = ab
        if ch.shape[0]:
            _update_gradient(cache, compute, act[B[ch]], yb[ch] * d[ch], va)
        if aa.sum() > alpha_cap:
            raise Diverged(float(aa.sum()))
        if snaps.wants(outer):
            snapshot(gap)
    full_state()
    if len(snaps.items) > 1 and snaps.items[-1][1] == t:
        snaps.items.pop()
    snapshot(gap, final=True)
    _finish_snapshots(snaps.items, C)
    info = {"method": "decomposition", "working_set_size": q, "n_outer": outer}
    info.update(n_shrink=n_shrink, n_unshrink=n_unshrink)
    return smo_solution(alpha, G, y, C, t, status, log, info)


def _finish_snapshots(items, C):
    """Assemble α, b and the violation (of the active set then) of the raw snapshots.

    One snapshot at a time: with the labels in random order the masks defeat branch
    prediction, and the 1-D selections below beat stacked ``np.where`` passes."""
    for _, _, values in items:
        b_alpha, b_act, b_aa, b_va, b_ya = values.pop("_raw")
        a_full = b_alpha.copy()
        a_full[b_act] = b_aa
        values["alpha"] = a_full
        values["b"] = bias_from_v(b_va, b_aa, b_ya, C)
        m_k, M_k, _, _ = _violation(b_va, b_aa, b_ya, C)
        values["max_violation"] = m_k - M_k  # of the active set at that moment


def _update_gradient(cache, compute, gidx, coef, va):
    """v −= Σ_k coef_k K(x_gidx[k], X_active) (v = −yG), with the rows from the cache, in
    chunks of about ``_UPDATE_ELEMS`` values (no |gidx| × n copy)."""
    slots = cache.slot_of[gidx]
    k = gidx.shape[0]
    if k and slots.min() >= 0:
        lo, hi = int(slots.min()), int(slots.max()) + 1
        if hi - lo <= 2 * k:
            # the rows sit close together in the cache (rows computed in one outer
            # iteration take consecutive slots): one product over that range, no copy
            w = np.zeros(hi - lo, dtype=cache.buf.dtype)
            w[slots - lo] = coef
            va -= w @ cache.view()[lo:hi]
            cache.clock += 1
            cache.stamp[slots] = cache.clock
            return
    chunk = max(1, _UPDATE_ELEMS // max(va.shape[0], 1))
    for c0 in range(0, gidx.shape[0], chunk):
        R, order = cache.get(gidx[c0 : c0 + chunk], compute)  # (chunk, n_active)
        # in the rows' precision (float32 rows: sgemv; their rounding dominates anyway)
        va -= coef[c0 : c0 + chunk][order].astype(R.dtype) @ R


def _polish(cache, compute, diag, act, ya, aa, va, C):
    """One :func:`newton_free` step on all free multipliers of the active set (aa, va in
    place); returns the objective change (0 when there is no step)."""
    F = np.flatnonzero((aa > 0) & (aa < C))
    if F.shape[0] < 2 or F.shape[0] > NEWTON_MAX_FREE:
        return 0.0
    KF = LazyBlock(cache, compute, act[F], F, diag[act[F]])
    aF, vF = aa[F], va[F]
    df, _ = newton_free(KF, ya[F], aF, vF, C)
    if df < 0.0:
        d = aF - aa[F]
        ch = np.flatnonzero(d)
        aa[F] = aF
        _update_gradient(cache, compute, act[F[ch]], ya[F[ch]] * d[ch], va)
    return df


def _reconstruct(rows, y, alpha, G, act):
    """G_t = y_t Σ_s y_s α_s K(x_t, x_s) − 1 for the shrunk points t, in blocks."""
    inactive = np.setdiff1d(np.arange(y.shape[0]), act, assume_unique=True)
    sv = np.flatnonzero(alpha > 0)
    if inactive.shape[0] == 0:
        return
    if sv.shape[0] == 0:
        G[inactive] = -1.0
        return
    coef = (y[sv] * alpha[sv]).astype(rows.dtype)
    Xs, sqs = rows.X[sv], rows.sq[sv]
    chunk = max(1, BLOCK_ELEMS // sv.shape[0])
    for s in range(0, inactive.shape[0], chunk):
        I = inactive[s : s + chunk]
        G[I] = y[I] * (rows.block(I, Xs, sqs) @ coef) - 1.0
