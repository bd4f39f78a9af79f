"""Sequential minimal optimisation for the SVM dual (the solver behind ``dual_svm``).

Seed 003 (Lin, *Dual SVM* and *Soft-Margin SVM*) writes the dual as

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m),

with C = +∞ for the hard margin. This module solves it the way libsvm does (Fan, Chen &
Lin, "Working set selection using second order information for training SVM", JMLR 6,
2005): with G = Qα − 1 and v_t = −y_t G_t,

    I_up  = {t : α_t < C, y_t = +1  or  α_t > 0, y_t = −1},   m(α) = max_{I_up} v_t,
    I_low = {t : α_t < C, y_t = −1  or  α_t > 0, y_t = +1},   M(α) = min_{I_low} v_t,

stop when m(α) − M(α) ≤ tol; otherwise update the pair (i, j) with i = argmax_{I_up} v
and j the second-order choice (WSS3) j = argmin_{t ∈ I_low, v_t < m} −(m − v_t)²/a_it,
a_it = K_ii + K_tt − 2K_it, and clip the pair as libsvm's ``Solver::Solve`` does.

Two drivers share that pair update (:func:`_smo_block`):

* small problems (n ≤ 600, or n ≤ 2000 for the hard margin, and at most n rows fit the
  cache): plain SMO on the whole problem, one pair per iteration, every pair visible in
  the trace; kernel rows are computed when a pair first needs them (``LazyGram`` of
  :mod:`svmcore.kernel_cache`; up to 300 points the whole Gram matrix at once);
* large problems: a decomposition method (as SVMlight and ThunderSVM) — take a working
  set B of up to ``working_set_size`` maximal violators (1024, or 2048 from n = 10 000),
  solve the subproblem on B with the same SMO (to max(tol, 0.3 × the outer gap)), then
  update the gradient of all active points with matrix products over the kernel rows of
  the multipliers that changed. No |B|×|B| block is formed: the subproblem reads the
  rows of the pairs it updates from the cache (``LazyBlock``), and those are the
  rows the gradient update needs anyway. Kernel rows come from a bounded LRU cache
  (:mod:`svmcore.kernel_cache`, ``cache_size`` MB; like libsvm's, Gaussian rows are
  cached in single precision for n > 1000, while subproblems stay in double precision),
  and points that cannot take part in a violating pair are shrunk (libsvm's
  ``be_shrunk`` rule, applied when it removes at least half of the active points); the
  gradient of shrunk points is rebuilt before the final optimality check, so the
  stopping rule is libsvm's on the whole problem.

Every few pair updates the SMO also tries one projected Newton step on the free
multipliers (:func:`_newton_free`: the equality-constrained QP on F = {0 < α < C}
solved exactly, shortened to stay in the box, kept only if it lowers the objective).
Once SMO has found the free set this lands on the optimum at once; it cuts the pair
updates of hard-margin problems (large α) by an order of magnitude. The interval between
tries adapts: for the hard margin it halves while the steps are accepted (down to 2) and
doubles while they are refused; in soft-margin subproblems it halves while a Newton step
gains more than the pair updates since the last one, else doubles (16 to 256). The decomposition
also takes one such step on all free multipliers when it first meets the stopping rule
(:func:`_polish`), and then checks the rule again. Neither device changes what is solved
or the stopping rule.

Snapshots are kept with bounded memory: every k-th iteration (plain SMO) or outer
iteration (decomposition) is recorded, and k doubles whenever ``n_snapshots`` are held
(the first and the final state are always kept).

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from svmcore.exceptions import NotSeparableError
from svmcore.kernel_cache import (
    BLOCK_ELEMS,
    ConstRow,
    KernelRows,
    LazyBlock,
    LazyGram,
    RowCache,
)

__all__ = ["SMOOutput", "smo"]

TAU = 1e-12  # libsvm's replacement for a non-positive curvature a_ij
_INNER_FRAC = 0.3  # subproblems are solved to max(tol, _INNER_FRAC × outer gap)
_SHRINK_EVERY = 4  # outer iterations between shrinking checks
_SHRINK_MIN_FRAC = 0.5  # ... which shrink only when they remove more than this fraction
_FLOAT32_FROM = 1000  # decomposition problems with more points cache rows in float32
_DENSE_MAX, _DENSE_MAX_HARD = 600, 2000  # plain SMO up to this n (soft, hard margin)
_FULL_GRAM_MAX = 300  # plain SMO computes the whole Gram matrix up to this n
_NEWTON_EVERY = 8  # SMO steps between Newton steps on the free set (_newton_free)
_NEWTON_EVERY_SUB = 32  # ... inside the decomposition's subproblems
_NEWTON_EVERY_HARD = (4, 8)  # ... for the hard margin (plain SMO, subproblems)
_NEWTON_ADAPT = (2, 64)  # hard margin: bounds of the adapted interval (0: fixed)
_NEWTON_ADAPT_SOFT = (16, 256)  # soft-margin subproblems: the same (0: fixed)
_NEWTON_MAX_FREE = 300  # ... tried only while at most this many multipliers are free
_KEEP_ROWS = 1024  # cached rows carried over a shrink (the others are dropped)
_UPDATE_ELEMS = 1 << 18  # gradient updates read at most this many cached values at once
_Q_SMALL, _Q_LARGE, _Q_LARGE_FROM = 1024, 2048, 10_000  # default working-set sizes (by n)


# --------------------------------------------------------------------------------------
# snapshots with bounded memory
# --------------------------------------------------------------------------------------
class _Thinned:
    """Keep at most ``cap`` snapshots: record every k-th event, doubling k when full."""

    def __init__(self, cap: int):
        self.cap = max(cap, 2)
        self.k = 1
        self.items: list[tuple[int, int, dict]] = []  # (event, t, values)

    def wants(self, event: int) -> bool:
        return event % self.k == 0

    def _thin(self) -> None:
        self.k *= 2
        first = self.items[0]
        self.items = [first] + [it for it in self.items[1:] if it[0] % self.k == 0]

    def add(self, event: int, t: int, values: dict, *, final: bool = False) -> None:
        if final:  # make room first: the final state is never thinned away
            while len(self.items) >= self.cap:
                self._thin()
            self.items.append((event, t, values))
            return
        self.items.append((event, t, values))
        if len(self.items) >= self.cap:
            self._thin()


@dataclass
class _Log:
    """What the solver reports back to the trace: snapshots and the first steps."""

    snaps: _Thinned
    n_steps: int
    rows: list = field(default_factory=list)  # (t, i, j, delta_i, delta_j, objective)

    @property
    def steps(self) -> dict:
        names = ("t", "i", "j", "delta_i", "delta_j", "objective")
        if not self.rows:
            return {}
        cols = list(zip(*self.rows, strict=True))
        return {name: list(col) for name, col in zip(names, cols, strict=True)}


# --------------------------------------------------------------------------------------
# the pair update on a block (the inner SMO)
# --------------------------------------------------------------------------------------
def _bias_from_v(v, a, y, C):
    """b = −ρ by libsvm's ``calculate_rho`` (v = −yG): mean over free, else midpoint.

    Optimality needs v_t ≤ b for the points only in I_up and v_t ≥ b for those only in
    I_low; without free points b is the midpoint of that interval.
    """
    free = (a > 0) & (a < C)
    if free.any():
        return float(v[free].mean())
    up_only = np.where(y > 0, a <= 0, a >= C)
    low_only = ~up_only
    lo = v[up_only].max() if up_only.any() else np.inf
    hi = v[low_only].min() if low_only.any() else -np.inf
    if not np.isfinite(lo):
        lo = hi
    if not np.isfinite(hi):
        hi = lo
    return float(0.5 * (hi + lo))


def _bias_and_gap(V, A, y, C):
    """Row-wise :func:`_bias_from_v` and m − M for stacked states V, A of shape (S, n)."""
    ypos = y > 0
    pos, below = A > 0, A < C
    up = np.where(ypos, below, pos)
    low = np.where(ypos, pos, below)
    m = np.where(up, V, -np.inf).max(axis=1)
    M = np.where(low, V, np.inf).min(axis=1)
    free = pos & below  # = up & low
    nfree = free.sum(axis=1)
    b = np.where(free, V, 0.0).sum(axis=1) / np.maximum(nfree, 1)
    none = np.flatnonzero(nfree == 0)  # rows without free points (rare): the midpoint
    if none.shape[0]:
        Vn, un, ln = V[none], up[none], low[none]
        lo = np.where(un & ~ln, Vn, -np.inf).max(axis=1)  # only in I_up: v ≤ b
        hi = np.where(ln & ~un, Vn, np.inf).min(axis=1)  # only in I_low: v ≥ b
        lo, hi = np.where(np.isfinite(lo), lo, hi), np.where(np.isfinite(hi), hi, lo)
        b[none] = 0.5 * (hi + lo)
    return b, m - M


def _smo_block(
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
    log : _Log or None
        Receives the first steps.
    snap : callable(t, i, j, f, gap) or None
        Called when the log's snapshot schedule wants the state after step t.
    alpha_cap : float
        Hard margin: Σα beyond this proves that the data are not separable.
    newton_every : int or None
        Pair updates between :func:`_newton_free` steps (adapted for the hard margin).
    gaussian : bool
        The rows are Gaussian (K_it ≤ K_tt = 1): a_it needs one operation.

    Returns
    -------
    steps, f, gap, last_pair
    """
    newton_every = _NEWTON_EVERY if newton_every is None else newton_every
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
        if yi != yj:
            delta = (-Gi - Gj) / quad
            diff = ai - aj
            ni, nj = ai + delta, aj + delta
            if diff > 0:
                if nj < 0:
                    nj, ni = 0.0, diff
            elif ni < 0:
                ni, nj = 0.0, -diff
            if diff > 0:  # C_i − C_j = 0 (also for C = ∞)
                if ni > C:
                    ni, nj = C, C - diff
            elif nj > C:
                nj, ni = C, C + diff
        else:
            delta = (Gi - Gj) / quad
            s = ai + aj
            ni, nj = ai - delta, aj + delta
            if s > C:
                if ni > C:
                    ni, nj = C, s - C
            elif nj < 0:
                nj, ni = 0.0, s
            if s > C:
                if nj > C:
                    nj, ni = C, s - C
            elif ni < 0:
                ni, nj = 0.0, s
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
        if yi > 0:
            ui, wi = ni < C, ni > 0
        else:
            ui, wi = ni > 0, ni < C
        if ui != inul[i] or wi != inll[i]:
            set_status(i, ni)
        if yj > 0:
            ui, wi = nj < C, nj > 0
        else:
            ui, wi = nj > 0, nj < C
        if ui != inul[j] or wi != inll[j]:
            set_status(j, nj)
        steps += 1
        sum_a += di + dj
        li, lj = i, j
        if want_steps:
            last = (int(idx[i]), int(idx[j])) if idx is not None else (i, j)
            rows.append((t0 + steps, last[0], last[1], di, dj, f))
            want_steps = len(rows) < log.n_steps
        if sum_a > alpha_cap or not (sum_a < inf):
            sync_v()
            raise _Diverged(sum_a)
        if snaps is not None and (t0 + steps) % snaps.k == 0:
            pair = (int(idx[i]), int(idx[j])) if idx is not None else (i, j)
            snap(t0 + steps, pair[0], pair[1], f, gap, v_now=np.where(inu, vu, vl))
        if steps >= next_newton:
            sync_v()
            df, F = _newton_free(K, y, a, v, C)
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
                if want_steps:  # i = j = −1 marks a Newton step on the free multipliers
                    rows.append((t0 + steps, -1, -1, 0.0, 0.0, f))
                    want_steps = len(rows) < log.n_steps
    sync_v()
    if li < 0:
        last = (-1, -1)
    else:
        last = (int(idx[li]), int(idx[lj])) if idx is not None else (li, lj)
    return steps, f, gap, last


def _newton_free(K, y, a, v, C):
    """Projected Newton step on the free multipliers F = {0 < α < C}, others fixed.

    Solves the equality-constrained QP on F exactly ([Q_FF y_F; y_Fᵀ 0] [d; −λ] =
    [−g_F; 0]), shortens the step to stay in the box, and applies it (a, v in place) if it
    lowers the objective. Returns the objective change (0 when the step is rejected) and F.
    Once SMO has found the right free set this lands on the optimum at once, where SMO
    itself would need many pair updates.
    """
    F = np.flatnonzero((a > 0) & (a < C))
    nf = F.shape[0]
    if nf < 2 or nf > _NEWTON_MAX_FREE:
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


class _Diverged(Exception):
    def __init__(self, sum_alpha):
        super().__init__(sum_alpha)
        self.sum_alpha = sum_alpha


# --------------------------------------------------------------------------------------
# drivers
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SMOOutput:
    """Raw solver output (``dual_svm`` wraps it in a DualSVMResult)."""

    alpha: np.ndarray
    G: np.ndarray
    b: float
    dual_objective: float
    gap: float
    n_iter: int
    status: str
    snapshots: list
    steps: dict
    info: dict
    w2: float | None = None  # ‖w‖² = αᵀQα in double precision (float32 runs only)


def _violation(v, a, y, C):
    ypos = y > 0
    up = np.where(ypos, a < C, a > 0)
    low = np.where(ypos, a > 0, a < C)
    m = v[up].max() if up.any() else -np.inf
    M = v[low].min() if low.any() else np.inf
    return float(m), float(M), up, low


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
):
    """Solve the SVM dual by SMO (see the module docstring).

    ``C`` is a float or ``np.inf`` (hard margin). Raises :class:`NotSeparableError` when a
    hard-margin dual grows without bound. Returns an :class:`SMOOutput`.
    """
    n = X.shape[0]
    q = working_set_size
    # plain SMO when the rows it may touch fit the cache and n is small; the hard margin
    # (few support vectors, many pair updates among them) gains from it up to larger n
    dense_max = _DENSE_MAX_HARD if not np.isfinite(C) else _DENSE_MAX
    dense = q is None and n * n * 8 <= cache_size * 2**20 and n <= dense_max
    dense = dense or (q is not None and q >= n)
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
    log = _Log(_Thinned(n_snapshots), n_steps)
    try:
        if dense:
            out = _solve_dense(rows, y, C, tol, max_iter, log, alpha_cap)
        else:
            q = (_Q_SMALL if n < _Q_LARGE_FROM else _Q_LARGE) if q is None else int(q)
            out = _solve_decomposition(
                rows, y, C, tol, max_iter, log, alpha_cap, q, cache_floats, shrinking
            )
    except _Diverged as exc:
        raise NotSeparableError(
            f"the data are not separable in this kernel's feature space ({kernel}): the "
            f"hard-margin dual is unbounded (Σα reached {exc.sum_alpha:.3g}, beyond the "
            f"bound {alpha_cap:.3g} that any margin ≥ 1e-5·max‖Φ(x)‖ allows); use a soft "
            "margin (a finite C) instead"
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
        out = replace(out, w2=w2, dual_objective=0.5 * w2 - float(out.alpha.sum()))
    return out


def _solve_dense(rows, y, C, tol, max_iter, log, alpha_cap):
    n = y.shape[0]
    if n <= _FULL_GRAM_MAX:  # cheaper than the rows SMO would touch
        K = rows.block(np.arange(n), rows.X, rows.sq)
    else:  # rows of the n × n Gram on demand
        K = LazyGram(rows.rows_over(None), rows.diag)
    a = np.zeros(n)
    v = y.copy()  # G = −1  ⇒  v = −yG = y
    snaps = log.snaps

    def snap(t, i, j, f, gap, final=False, v_now=None):
        # raw state only; b and the violation are computed for the kept snapshots at the end
        v_now = v.copy() if v_now is None else v_now
        values = {"alpha": a.copy(), "v": v_now, "dual_objective": f, "i": i, "j": j}
        snaps.add(t, t, values, final=final)

    snap(0, -1, -1, 0.0, None)
    steps, f, gap, last = _smo_block(
        K,
        y,
        a,
        v,
        C,
        tol,
        max_iter,
        log=log,
        alpha_cap=alpha_cap,
        snap=snap,
        newton_every=_NEWTON_EVERY if np.isfinite(C) else _NEWTON_EVERY_HARD[0],
        gaussian=rows.kernel.name == "rbf",
    )
    if len(snaps.items) > 1 and snaps.items[-1][1] == steps:
        snaps.items.pop()  # a Newton step may have followed it: record the final state
    snap(steps, last[0], last[1], f, gap, final=True)
    Vs = np.stack([values.pop("v") for _, _, values in snaps.items])
    As = np.stack([values["alpha"] for _, _, values in snaps.items])
    bs, gaps = _bias_and_gap(Vs, As, y, C)
    if np.isfinite(C):
        # soft margin: primal ½‖w‖² + C Σ max(0, 1 − y f) at each snapshot, and the gap
        w2 = (As * (1.0 - y * Vs)).sum(axis=1)  # αᵀ(G + 1) = ‖w‖²
        hinge = np.maximum(y * (Vs - bs[:, None]), 0.0).sum(axis=1)  # 1 − y f = y(v − b)
        primal = 0.5 * w2 + C * hinge
        dual = 0.5 * w2 - As.sum(axis=1)
    for k, (_, _, values) in enumerate(snaps.items):
        values["b"] = float(bs[k])
        values["max_violation"] = float(gaps[k])
        if np.isfinite(C):
            values["primal_objective"] = float(primal[k])
            values["duality_gap"] = float(primal[k] + dual[k])
    status = "optimal" if gap <= tol else "max_iter"
    G = -y * v
    return SMOOutput(
        alpha=a,
        G=G,
        b=_bias_from_v(v, a, y, C),
        dual_objective=f,
        gap=gap,
        n_iter=steps,
        status=status,
        snapshots=snaps.items,
        steps=log.steps,
        info={"method": "smo", "working_set_size": n, "n_outer": 1},
    )


def _solve_decomposition(rows, y, C, tol, max_iter, log, alpha_cap, q, cache_floats, shrinking):
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
                    log.rows.append((t, -1, -1, 0.0, 0.0, f))
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
        steps, f, _, pair = _smo_block(
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
            newton_every=_NEWTON_EVERY_SUB if np.isfinite(C) else _NEWTON_EVERY_HARD[1],
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
            raise _Diverged(float(aa.sum()))
        if snaps.wants(outer):
            snapshot(gap)
    full_state()
    if len(snaps.items) > 1 and snaps.items[-1][1] == t:
        snaps.items.pop()
    snapshot(gap, final=True)
    _finish_snapshots(snaps.items, C)
    return SMOOutput(
        alpha=alpha,
        G=G,
        b=_bias_from_v(-y * G, alpha, y, C),
        dual_objective=f,
        gap=gap,
        n_iter=t,
        status=status,
        snapshots=snaps.items,
        steps=log.steps,
        info={
            "method": "decomposition",
            "working_set_size": q,
            "n_outer": outer,
            "n_shrink": n_shrink,
            "n_unshrink": n_unshrink,
        },
    )


def _finish_snapshots(items, C):
    """Assemble α, b and the violation (of the active set then) of the raw snapshots.

    One snapshot at a time: with the labels in random order the masks defeat branch
    prediction, and the 1-D selections below beat stacked ``np.where`` passes."""
    for _, _, values in items:
        b_alpha, b_act, b_aa, b_va, b_ya = values.pop("_raw")
        a_full = b_alpha.copy()
        a_full[b_act] = b_aa
        values["alpha"] = a_full
        values["b"] = _bias_from_v(b_va, b_aa, b_ya, C)
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
    """One :func:`_newton_free` step on all free multipliers of the active set (aa, va in
    place); returns the objective change (0 when there is no step)."""
    F = np.flatnonzero((aa > 0) & (aa < C))
    if F.shape[0] < 2 or F.shape[0] > _NEWTON_MAX_FREE:
        return 0.0
    KF = LazyBlock(cache, compute, act[F], F, diag[act[F]])
    aF, vF = aa[F], va[F]
    df, _ = _newton_free(KF, ya[F], aF, vF, C)
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
