"""Sequential minimal optimisation for the SVM dual (the solver behind ``dual_svm``).

Seed 003 (Lin, *Dual SVM* and *Soft-Margin SVM*) writes the soft-margin dual as

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m),

with C = +∞ for the hard margin. SMO (libsvm; Fan, Chen & Lin, "Working set selection
using second order information for training SVM", JMLR 6, 2005) solves it two
multipliers at a time. With G = Qα − 1 (the gradient) and v_t = −y_t G_t,

    I_up  = {t : α_t < C, y_t = +1  or  α_t > 0, y_t = −1},   m(α) = max_{I_up} v_t,
    I_low = {t : α_t < C, y_t = −1  or  α_t > 0, y_t = +1},   M(α) = min_{I_low} v_t,

    repeat
        if m(α) − M(α) ≤ tol: stop                                   (libsvm's rule)
        i = argmax_{I_up} v_t;  j = argmax_{t ∈ I_low, v_t < m} (m − v_t)² / a_it  (WSS3)
        solve the 2-variable QP in (α_i, α_j), the others fixed, y_iα_i + y_jα_j kept,
        clipped to the box                                            (the pair update)
    b = mean of v_s over the free s (0 < α_s < C), i.e. y_s − Σ α_n y_n K(x_n, x_s)

with a_it = K_ii + K_tt − 2K_it. :func:`svmcore.dual.smo.textbook.step` is that loop body;
``engine="textbook"`` (:func:`svmcore.dual.smo.textbook.smo_textbook`) runs it one pair at a
time on the full Q. This module is the fast run (``engine="fast"``):

* small problems (n ≤ 600, or n ≤ 2000 for the hard margin, and at most n rows fit the
  cache): plain SMO on the whole problem, one pair per iteration (:func:`_solve_dense`);
  kernel rows are computed when a pair first needs them (``LazyGram`` of
  :mod:`svmcore.dual.smo.kernel_cache`; up to 300 points the whole Gram matrix at once);
* large problems: a decomposition method (:mod:`svmcore.dual.smo.decomposition`: working sets
  of up to ``working_set_size`` maximal violators, solved by the same SMO, a bounded LRU
  kernel cache, libsvm's shrinking).

Every few pair updates the fast SMO also tries one projected Newton step on the free
multipliers (:func:`svmcore.dual.smo.working_set.newton_free`: the equality-constrained QP on
F = {0 < α < C} solved exactly, shortened to stay in the box, kept only if it lowers the
objective); the decomposition takes one such step on all free multipliers when it first
meets the stopping rule (its "polish"). Neither changes what is solved or the stopping
rule, but they change the path: the fast and textbook runs end at the same optimum to
within the tolerance, not step for step.

The trace's steps (the first ``n_steps``), in Lin's symbols:

* ``t``: the number of pair updates so far (a Newton step keeps the t of the pair before);
* ``kind``: "pair" (one pair update), "newton" (a Newton step on the free multipliers)
  or "polish" (the decomposition's final Newton step); the last two update many α at once
  and have no pair;
* ``i``, ``j``: the pair (0-based; −1 for "newton"/"polish");
* ``delta_i``, ``delta_j``: Δα_i, Δα_j of the pair update (0 for the other kinds);
* ``objective``: ½αᵀQα − 1ᵀα after the step.

The snapshots hold α, b, the dual objective, "max_violation" = m(α) − M(α), the pair
(i, j) last updated and, for the soft margin, the primal objective and the duality gap.
Snapshots are kept with bounded memory (:class:`svmcore.dual.smo.log.Thinned`).

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmcore.dual.result import gap_m_M
from svmcore.dual.smo.decomposition import solve_decomposition
from svmcore.dual.smo.kernel_cache import BLOCK_ELEMS, KernelRows, LazyGram
from svmcore.dual.smo.log import StepLog, Thinned, smo_solution
from svmcore.dual.smo.working_set import NEWTON_EVERY, NEWTON_EVERY_HARD, Diverged, smo_block
from svmcore.exceptions import NotSeparableError

__all__ = ["smo"]

_FLOAT32_FROM = 1000  # decomposition problems with more points cache rows in float32
_DENSE_MAX, _DENSE_MAX_HARD = 600, 2000  # plain SMO up to this n (soft, hard margin)
_FULL_GRAM_MAX = 300  # plain SMO computes the whole Gram matrix up to this n
_REFRESHES = 3  # plain SMO: restarts from a freshly computed gradient at most this often
_Q_SMALL, _Q_LARGE, _Q_LARGE_FROM = 1024, 2048, 10_000  # default working-set sizes (by n)


# --------------------------------------------------------------------------------------
# the b rule on stacked snapshots (plain SMO)
# --------------------------------------------------------------------------------------
def _bias_and_gap(V, A, y, C):
    """Row-wise :func:`~svmcore.dual.result.bias_from_v` and m − M for states V, A (S, n)."""
    # with y = ±1: t ∈ I_up ⇔ y_t α_t < (C if y_t = +1 else 0), t ∈ I_low ⇔ y_t α_t >
    # (0 if y_t = +1 else −C) (C = ∞ for the hard margin: the bound never binds)
    ypos = y > 0
    yA = A * y
    up = yA < np.where(ypos, C, 0.0)
    low = yA > np.where(ypos, 0.0, -C)
    m = np.where(up, V, -np.inf).max(axis=1)
    M = np.where(low, V, np.inf).min(axis=1)
    free = up & low  # 0 < α < C
    nfree = np.count_nonzero(free, axis=1)
    b = np.where(free, V, 0.0).sum(axis=1) / np.maximum(nfree, 1)
    if not nfree.all():  # rows without free points (rare but for α = 0): the midpoint
        none = np.flatnonzero(nfree == 0)
        Vn, un, ln = V[none], up[none], low[none]
        lo = np.where(un & ~ln, Vn, -np.inf).max(axis=1)  # only in I_up: v ≤ b
        hi = np.where(ln & ~un, Vn, np.inf).min(axis=1)  # only in I_low: v ≥ b
        lo, hi = np.where(np.isfinite(lo), lo, hi), np.where(np.isfinite(hi), hi, lo)
        b[none] = 0.5 * (hi + lo)
    return b, m - M


def finish_snapshots(items, y, C):
    """Give the raw snapshots (values with "alpha" and "v") their b, m − M and, for the
    soft margin, the primal objective and the duality gap ("v" is dropped)."""
    Vs = np.array([values.pop("v") for _, _, values in items])  # (S, n), as np.stack
    As = np.array([values["alpha"] for _, _, values in items])
    bs, gaps = _bias_and_gap(Vs, As, y, C)
    cols = {"b": bs.tolist(), "max_violation": gaps.tolist()}
    if np.isfinite(C):
        # soft margin: primal ½‖w‖² + C Σ max(0, 1 − y f) at each snapshot, and the gap
        w2 = (As * (1.0 - y * Vs)).sum(axis=1)  # αᵀ(G + 1) = ‖w‖²
        hinge = np.maximum(y * (Vs - bs[:, None]), 0.0).sum(axis=1)  # 1 − y f = y(v − b)
        primal = 0.5 * w2 + C * hinge
        dual = 0.5 * w2 - As.sum(axis=1)
        cols["primal_objective"] = primal.tolist()
        cols["duality_gap"] = (primal + dual).tolist()
    for k, (_, _, values) in enumerate(items):
        for name, col in cols.items():
            values[name] = col[k]


# --------------------------------------------------------------------------------------
# drivers
# --------------------------------------------------------------------------------------
def smo(
    X,
    y,
    kernel,
    C,
    *,
    tol=1e-3,
    max_iter=1_000_000,
    cache_size=64.0,
    shrinking=True,
    working_set_size=None,
    n_snapshots=100,
    n_steps=300,
    alpha0=None,
):
    """Solve the SVM dual by SMO (see the module docstring).

    ``C`` is a float or ``np.inf`` (hard margin). ``alpha0`` (feasible: 0 ≤ α ≤ C,
    yᵀα = 0) warm-starts plain SMO from it (the QP path's polish). Raises
    :class:`NotSeparableError` when a hard-margin dual grows without bound. Returns a
    :class:`~svmcore.dual.result.DualSolution`.
    """
    n = X.shape[0]
    q = working_set_size
    # plain SMO when the rows it may touch fit the cache and n is small; the hard margin
    # (few support vectors, many pair updates among them) gains from it up to larger n
    dense_max = _DENSE_MAX_HARD if not np.isfinite(C) else _DENSE_MAX
    dense = q is None and n * n * 8 <= cache_size * 2**20 and n <= dense_max
    dense = dense or (q is not None and q >= n) or alpha0 is not None
    # Like libsvm's cache (Qfloat = float), large problems keep Gaussian kernel rows
    # (values in [0, 1]) in single precision; gradients and subproblems stay in double.
    # Linear and polynomial rows stay in double: their values are unbounded.
    single = not dense and n > _FLOAT32_FROM and kernel.name == "rbf"
    dtype = np.float32 if single else np.float64
    rows = KernelRows(kernel, X, dtype)
    cache_floats = max(int(cache_size * 2**20) // np.dtype(dtype).itemsize, 1)
    cache_floats = min(cache_floats, n * n)  # never more than the whole Gram matrix
    # Hard margin: for data separable with margin ρ every SMO iterate has Σα ≤ 2/ρ²
    # (f(α) ≤ 0 and Σα ≤ w*ᵀw_α); beyond ρ < 1e-5·R (R² = max K(x, x)) we call the data
    # not separable — numerically they are not.
    R2 = float(max(rows.diag.max(), 1e-300))
    alpha_cap = 2e10 / R2 if not np.isfinite(C) else np.inf
    log = StepLog(Thinned(n_snapshots), n_steps)
    try:
        if dense:
            out = _solve_dense(rows, y, C, tol, max_iter, log, alpha_cap, alpha0)
        else:
            q = (_Q_SMALL if n < _Q_LARGE_FROM else _Q_LARGE) if q is None else int(q)
            out = solve_decomposition(
                rows, y, C, tol, max_iter, log, alpha_cap, q, cache_floats, shrinking
            )
    except Diverged as exc:
        raise NotSeparableError(
            f"no hard margin of at least 1e-5·max‖Φ(x)‖ exists in this kernel's feature "
            f"space ({kernel}): the hard-margin dual grows without bound (Σα reached "
            f"{exc.sum_alpha:.3g}, beyond the bound {alpha_cap:.3g} that such a margin "
            "allows). Either the data are not separable there, or only by a margin too thin "
            "for double precision (a polynomial kernel on coordinates near 1e6 is dominated "
            "by its top degree: rescale X); use a soft margin (a finite C) instead"
        ) from None
    if rows.dtype != np.float64:
        # the rows were single precision: evaluate ‖w‖² = αᵀQα exactly on the SVs
        sv = np.flatnonzero(out.alpha > 0)
        coef = y[sv] * out.alpha[sv]
        chunk = max(1, BLOCK_ELEMS // max(sv.shape[0], 1))
        w2 = 0.0
        for s0 in range(0, sv.shape[0], chunk):
            Ks = kernel(X[sv[s0 : s0 + chunk]], X[sv])
            w2 += float(coef[s0 : s0 + chunk] @ (Ks @ coef))
        out = replace(out, w2=w2)
    return out


def _solve_dense(rows, y, C, tol, max_iter, log, alpha_cap, alpha0=None):
    n = y.shape[0]
    if n <= _FULL_GRAM_MAX:  # cheaper than the rows SMO would touch
        K = rows.block(np.arange(n), rows.X, rows.sq)
    else:  # rows of the n × n Gram on demand
        K = LazyGram(rows.rows_over(None), rows.diag)

    def fresh(a):
        """v_t = y_t − Σ_s y_s α_s K_ts over the support vectors s, and ½αᵀ(G + 1) − 1ᵀα."""
        v = y.copy()
        sv = np.flatnonzero(a > 0)
        if sv.shape[0]:
            v -= (y[sv] * a[sv]) @ K[sv]
        return v, 0.5 * float(a @ (1.0 - y * v)) - float(a.sum())

    a = np.zeros(n) if alpha0 is None else alpha0.astype(np.float64, copy=True)
    v, f0 = fresh(a)
    snaps = log.snaps

    def snap(t, i, j, f, gap, final=False, v_now=None):
        # raw state only; b and the violation are computed for the kept snapshots at the end
        v_now = v.copy() if v_now is None else v_now
        values = {"alpha": a.copy(), "v": v_now, "dual_objective": f, "i": i, "j": j}
        snaps.add(t, t, values, final=final)

    snap(0, -1, -1, f0, None)
    steps, f, refreshed = 0, f0, 0
    every = NEWTON_EVERY if np.isfinite(C) else NEWTON_EVERY_HARD[0]
    opts = {"log": log, "alpha_cap": alpha_cap, "snap": snap, "newton_every": every}
    opts["gaussian"] = rows.kernel.name == "rbf"
    while True:
        done, f, gap, last = smo_block(K, y, a, v, C, tol, max_iter - steps, t0=steps, f0=f, **opts)
        steps += done
        if gap > tol:  # out of pair updates
            break
        # the rule held on v updated pair by pair; check it on v computed afresh (with
        # huge Q the updates' rounding drifts) and go on from there if it fails
        v_new, f = fresh(a)
        gap = gap_m_M(v_new, a, y, C)
        v[:] = v_new
        if gap <= tol or refreshed == _REFRESHES or steps >= max_iter:
            break
        refreshed += 1
    if len(snaps.items) > 1 and snaps.items[-1][1] == steps:
        snaps.items.pop()  # a Newton step may have followed it: record the final state
    snap(steps, last[0], last[1], f, gap, final=True)
    finish_snapshots(snaps.items, y, C)
    status = "optimal" if gap <= tol else ("max_iter" if steps >= max_iter else "inaccurate")
    info = {"method": "smo", "working_set_size": n, "n_outer": 1, "refreshed": refreshed}
    return smo_solution(a, -y * v, y, C, steps, status, log, info)
