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

* small problems (the Gram matrix fits the cache and n ≤ 600): plain SMO on the whole
  problem, one pair per iteration, every pair visible in the trace;
* large problems: a decomposition method (as SVMlight and ThunderSVM) — take a working
  set B of up to ``working_set_size`` (256) maximal violators, solve the subproblem on B
  with the same SMO on the |B|×|B| kernel block (to max(tol, 0.3 × the outer gap)), then
  update the gradient of all active points with one matrix product that uses only the
  kernel rows of the multipliers that changed. Kernel rows come on demand from a bounded
  LRU cache (``cache_size`` MB; like libsvm's, Gaussian rows are cached in single
  precision for n > 1000, while gradients and subproblems stay in double precision),
  and points that cannot take part in a violating pair are shrunk (libsvm's
  ``be_shrunk`` rule); the gradient of shrunk points is rebuilt before the final
  optimality check, so the stopping rule is libsvm's on the whole problem.

Every few pair updates the SMO also tries one projected Newton step on the free
multipliers (:func:`_newton_free`: the equality-constrained QP on F = {0 < α < C}
solved exactly, shortened to stay in the box, kept only if it lowers the objective).
Once SMO has found the free set this lands on the optimum at once; it cuts the pair
updates of hard-margin problems (large α) by an order of magnitude. Neither device
changes what is solved or the stopping rule.

Snapshots are kept with bounded memory: every k-th iteration (plain SMO) or outer
iteration (decomposition) is recorded, and k doubles whenever ``n_snapshots`` are held
(the first and the final state are always kept).

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from svmcore.exceptions import NotSeparableError

__all__ = ["SMOOutput", "smo"]

TAU = 1e-12  # libsvm's replacement for a non-positive curvature a_ij
_INNER_FRAC = 0.3  # subproblems are solved to max(tol, _INNER_FRAC × outer gap)
_SHRINK_EVERY = 4  # outer iterations between shrinking checks
_FLOAT32_FROM = 1000  # decomposition problems with more points cache rows in float32
_NEWTON_EVERY = 8  # SMO steps between Newton steps on the free set (_newton_free)
_NEWTON_EVERY_SUB = 32  # ... inside the decomposition's subproblems
_NEWTON_MAX_FREE = 300  # ... tried only while at most this many multipliers are free
_KEEP_ROWS = 64  # cached rows carried over a shrink (the others are dropped)
_BLOCK_ELEMS = 1 << 21  # kernel blocks of at most ~16 MB


# --------------------------------------------------------------------------------------
# kernel rows and their cache
# --------------------------------------------------------------------------------------
class _KernelRows:
    """Kernel blocks K(X[I], Z) computed with BLAS, reusing squared norms."""

    def __init__(self, kernel, X: np.ndarray, dtype=np.float64):
        self.kernel = kernel
        self.X = X.astype(dtype, copy=False)  # rows are computed in ``dtype``
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        self.diag = kernel.diag(X)
        self.dtype = dtype

    def block(self, I: np.ndarray, XZ: np.ndarray, sqZ: np.ndarray) -> np.ndarray:
        XI = self.X[I]
        D = XI @ XZ.T  # (|I|, m)
        k = self.kernel
        if k.name == "linear":
            return D
        if k.name == "poly":
            D *= self.dtype(k.gamma)
            D += self.dtype(k.coef0)
            return D**k.degree if k.degree != 1 else D
        # rbf: exp(−γ(‖x‖² − 2xᵀz + ‖z‖²)), the exponent clipped at 0 against rounding
        g = self.dtype(k.gamma)
        D *= 2 * g
        D -= (g * self.sq[I])[:, None]
        D -= g * sqZ
        np.minimum(D, 0.0, out=D)
        np.exp(D, out=D)
        return D


class _RowCache:
    """LRU cache of kernel rows over the current active columns, in a fixed buffer.

    The buffer holds ``cache_floats`` values (float64, or float32 for large Gaussian
    problems); with ``n_cols`` active columns it is
    viewed as ``n_slots = cache_floats // n_cols`` rows. Used slots are always 0..u−1, so
    shrinking the columns can re-lay the rows out in place.
    """

    def __init__(self, n: int, n_cols: int, cache_floats: int, dtype=np.float64):
        self.cache_floats = cache_floats
        self.buf = np.empty(cache_floats, dtype=dtype)
        self.slot_of = np.full(n, -1, dtype=np.int64)
        self._reshape(n_cols)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.used = 0
        self.clock = 0

    def _reshape(self, n_cols: int) -> None:
        self.n_cols = n_cols
        self.n_slots = self.cache_floats // max(n_cols, 1)

    def view(self) -> np.ndarray:
        return self.buf[: self.n_slots * self.n_cols].reshape(self.n_slots, self.n_cols)

    def clear(self, n_cols: int) -> None:
        self.slot_of[self.owner[: self.used]] = -1
        self._reshape(n_cols)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.used = 0

    def compact(self, keep_cols: np.ndarray, max_rows: int) -> None:
        """Keep the columns ``keep_cols`` (sorted positions) of the ``max_rows`` most
        recently used rows; the other rows are dropped (recomputing is cheaper than
        moving rows that will not be used again)."""
        old, new = self.n_cols, keep_cols.shape[0]
        u = self.used
        kept = np.sort(np.argsort(-self.stamp[:u], kind="stable")[:max_rows])
        k = kept.shape[0]
        dropped = np.ones(u, dtype=bool)
        dropped[kept] = False
        self.slot_of[self.owner[:u][dropped]] = -1
        V_old = self.buf[: u * old].reshape(u, old)
        chunk = max(1, _BLOCK_ELEMS // max(old, 1))
        for r0 in range(0, k, chunk):
            r1 = min(k, r0 + chunk)
            # kept[r] ≥ r, so the new rows [r0·new, r1·new) never reach unread old rows
            tmp = V_old[np.ix_(kept[r0:r1], keep_cols)]
            self.buf[r0 * new : r1 * new] = tmp.reshape(-1)
        owner = self.owner[kept]
        stamp = self.stamp[kept]
        self._reshape(new)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.owner[:k] = owner
        self.stamp[:k] = stamp
        self.slot_of[owner] = np.arange(k)
        self.used = k

    def get(self, idx: np.ndarray, compute) -> tuple[np.ndarray, np.ndarray]:
        """Rows for global indices ``idx``: returns (rows, order) with ``rows[k]`` the row
        of ``idx[order[k]]`` (cached rows first, then the computed ones)."""
        self.clock += 1
        q = idx.shape[0]
        if q > self.n_slots:  # cache too small for one working set: no caching
            return compute(idx), np.arange(q)
        slots = self.slot_of[idx]
        miss = slots < 0
        hit_pos = np.flatnonzero(~miss)
        miss_pos = np.flatnonzero(miss)
        hit_slots = slots[hit_pos]
        self.stamp[hit_slots] = self.clock
        V = self.view()
        nh = hit_pos.shape[0]
        out = np.empty((q, self.n_cols), dtype=self.buf.dtype)
        if nh:
            np.take(V, hit_slots, axis=0, out=out[:nh])
        if miss_pos.shape[0]:
            midx = idx[miss_pos]
            rows = compute(midx)
            out[nh:] = rows
            k = midx.shape[0]
            free = self.n_slots - self.used
            if free >= k:
                new_slots = np.arange(self.used, self.used + k)
                self.used += k
            else:
                take_free = np.arange(self.used, self.n_slots)
                k_evict = k - take_free.shape[0]
                victims = np.argpartition(self.stamp[: self.used], k_evict - 1)[:k_evict]
                self.used = self.n_slots
                old_owner = self.owner[victims]
                self.slot_of[old_owner[old_owner >= 0]] = -1
                new_slots = np.concatenate([take_free, victims])
            self.owner[new_slots] = midx
            self.slot_of[midx] = new_slots
            self.stamp[new_slots] = self.clock
            V[new_slots] = rows
        return out, np.concatenate([hit_pos, miss_pos])


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
    up = np.where(ypos, A < C, A > 0)
    low = np.where(ypos, A > 0, A < C)
    m = np.where(up, V, -np.inf).max(axis=1)
    M = np.where(low, V, np.inf).min(axis=1)
    free = up & low
    nfree = free.sum(axis=1)
    mean_free = np.where(free, V, 0.0).sum(axis=1) / np.maximum(nfree, 1)
    lo = np.where(up & ~low, V, -np.inf).max(axis=1)  # only in I_up: v ≤ b
    hi = np.where(low & ~up, V, np.inf).min(axis=1)  # only in I_low: v ≥ b
    lo, hi = np.where(np.isfinite(lo), lo, hi), np.where(np.isfinite(hi), hi, lo)
    with np.errstate(invalid="ignore"):  # ∞ − ∞ only in rows that have free points
        b = np.where(nfree > 0, mean_free, 0.5 * (hi + lo))
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
    newton_every=_NEWTON_EVERY,
):
    """Run SMO with WSS3 on one block until m − M ≤ eps or ``max_steps`` pair updates.

    Parameters
    ----------
    K : ndarray (q, q)
        Kernel block (unsigned).
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

    Returns
    -------
    steps, f, gap, last_pair
    """
    Kd = np.diagonal(K).copy()
    ypos = y > 0
    # penalties that hide points outside I_up (−∞) and outside I_low (+∞)
    pu = np.where(np.where(ypos, a < C, a > 0), 0.0, -np.inf)
    pl = np.where(np.where(ypos, a > 0, a < C), 0.0, np.inf)
    yl = y.tolist()
    al = a.tolist()
    Kdl = Kd.tolist()
    gl = idx.tolist() if idx is not None else None
    f = f0
    sum_a = float(sum(al))
    steps = 0
    gap = np.inf
    last = (-1, -1)
    rows = log.rows if log is not None else None
    want_steps = rows is not None and len(rows) < log.n_steps
    snaps = log.snaps if (log is not None and snap is not None) else None
    inf = np.inf
    vu = np.empty_like(v)
    vl = np.empty_like(v)
    bd = np.empty_like(v)
    tmp = np.empty_like(v)
    qrow = np.empty_like(v)  # a_it = K_ii + K_tt − 2K_it (≥ TAU) for the current i
    n_newton = 0
    while True:
        np.add(v, pu, out=vu)
        i = int(vu.argmax())
        m = float(vu[i])
        np.add(v, pl, out=vl)
        M = float(vl.min())
        gap = m - M
        if gap <= eps or steps >= max_steps:
            break
        # WSS3: j = argmax over I_low with v_j < m of (m − v_j)² / a_ij
        np.subtract(m, vl, out=bd)
        np.maximum(bd, 0.0, out=bd)
        np.multiply(bd, bd, out=bd)
        np.multiply(K[i], -2.0, out=qrow)
        qrow += Kd
        qrow += Kdl[i]
        np.maximum(qrow, TAU, out=qrow)
        np.divide(bd, qrow, out=bd)
        j = int(bd.argmax())
        # libsvm's analytic pair update, written in G = −y v
        yi, yj = yl[i], yl[j]
        ai, aj = al[i], al[j]
        Gi, Gj = -yi * m, -yj * float(v[j])
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
        f += (di * Gi + dj * Gj) + 0.5 * (
            Kdl[i] * di * di + Kdl[j] * dj * dj + 2.0 * yi * yj * float(K[i, j]) * di * dj
        )
        al[i] = ni
        al[j] = nj
        a[i] = ni
        a[j] = nj
        # v_t = −y_t G_t changes by −(y_i d_i K_ti + y_j d_j K_tj)
        np.multiply(K[i], yi * di, out=tmp)
        v -= tmp
        np.multiply(K[j], yj * dj, out=tmp)
        v -= tmp
        if yi > 0:
            pu[i] = 0.0 if ni < C else -inf
            pl[i] = 0.0 if ni > 0 else inf
        else:
            pu[i] = 0.0 if ni > 0 else -inf
            pl[i] = 0.0 if ni < C else inf
        if yj > 0:
            pu[j] = 0.0 if nj < C else -inf
            pl[j] = 0.0 if nj > 0 else inf
        else:
            pu[j] = 0.0 if nj > 0 else -inf
            pl[j] = 0.0 if nj < C else inf
        steps += 1
        sum_a += di + dj
        if gl is not None:
            last = (gl[i], gl[j])
        else:
            last = (i, j)
        if want_steps:
            rows.append((t0 + steps, last[0], last[1], di, dj, f))
            want_steps = len(rows) < log.n_steps
        if sum_a > alpha_cap or not (sum_a < inf):
            raise _Diverged(sum_a)
        if snaps is not None and (t0 + steps) % snaps.k == 0:
            snap(t0 + steps, last[0], last[1], f, gap)
        if steps % newton_every == 0:
            df, F = _newton_free(K, y, a, v, C)
            if df < 0.0:
                f += df
                aF = a[F]
                for k, val in zip(F.tolist(), aF.tolist(), strict=True):
                    al[k] = val
                sum_a = float(a.sum())
                yF = y[F] > 0
                pu[F] = np.where(np.where(yF, aF < C, aF > 0), 0.0, -np.inf)
                pl[F] = np.where(np.where(yF, aF > 0, aF < C), 0.0, np.inf)
                n_newton += 1
                if want_steps:  # i = j = −1 marks a Newton step on the free multipliers
                    rows.append((t0 + steps, -1, -1, 0.0, 0.0, f))
                    want_steps = len(rows) < log.n_steps
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
    gF = -yF * v[F]  # G_F
    QFF = (yF[:, None] * yF[None, :]) * K[np.ix_(F, F)]
    KKT = np.empty((nf + 1, nf + 1))
    KKT[:nf, :nf] = QFF
    KKT[:nf, nf] = yF
    KKT[nf, :nf] = yF
    KKT[nf, nf] = 0.0
    rhs = np.concatenate([-gF, [0.0]])
    try:
        d = np.linalg.solve(KKT, rhs)[:nf]
    except np.linalg.LinAlgError:
        d = np.linalg.lstsq(KKT, rhs, rcond=None)[0][:nf]
    if not np.all(np.isfinite(d)):
        return 0.0, F
    aF = a[F]
    with np.errstate(divide="ignore", invalid="ignore"):
        lim = np.where(d < 0, aF / -d, np.where(d > 0, (C - aF) / d, np.inf))
    tau = min(1.0, float(lim.min()))
    Qd = QFF @ d
    df = tau * float(gF @ d) + 0.5 * tau * tau * float(d @ Qd)
    if not df < -1e-15 * max(1.0, abs(float(gF @ aF))):
        return 0.0, F
    new = aF + tau * d
    new[lim <= tau] = np.where(d[lim <= tau] < 0, 0.0, C)  # blocking bounds exactly
    new = np.clip(new, 0.0, C)
    step = new - aF
    a[F] = new
    v -= (yF * step) @ K[F]
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
    dense = q is None and n * n * 8 <= cache_size * 2**20 and n <= 600
    dense = dense or (q is not None and q >= n)
    # Like libsvm's cache (Qfloat = float), large problems keep Gaussian kernel rows
    # (values in [0, 1]) in single precision; gradients and subproblems stay in double.
    # Linear and polynomial rows stay in double: their values are unbounded.
    single = not dense and n > _FLOAT32_FROM and kernel.name == "rbf"
    dtype = np.float32 if single else np.float64
    rows = _KernelRows(kernel, X, dtype)
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
            q = 256 if q is None else int(q)
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
        chunk = max(1, _BLOCK_ELEMS // max(sv.shape[0], 1))
        w2 = 0.0
        for s0 in range(0, sv.shape[0], chunk):
            Ks = kernel(X[sv[s0 : s0 + chunk]], X[sv])
            w2 += float(coef[s0 : s0 + chunk] @ (Ks @ coef))
        out = replace(out, w2=w2, dual_objective=0.5 * w2 - float(out.alpha.sum()))
    return out


def _solve_dense(rows, y, C, tol, max_iter, log, alpha_cap):
    n = y.shape[0]
    allidx = np.arange(n)
    K = rows.block(allidx, rows.X, rows.sq)
    a = np.zeros(n)
    v = y.copy()  # G = −1  ⇒  v = −yG = y
    snaps = log.snaps

    def snap(t, i, j, f, gap, final=False):
        # raw state only; b and the violation are computed for the kept snapshots at the end
        values = {"alpha": a.copy(), "v": v.copy(), "dual_objective": f, "i": i, "j": j}
        snaps.add(t, t, values, final=final)

    snap(0, -1, -1, 0.0, None)
    steps, f, gap, last = _smo_block(
        K, y, a, v, C, tol, max_iter, log=log, alpha_cap=alpha_cap, snap=snap
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
    X = rows.X
    alpha = np.zeros(n)
    G = -np.ones(n)
    act = np.arange(n)
    ya, aa, va = y.copy(), alpha.copy(), y.copy()
    Xa, sqa = X, rows.sq
    cache = _RowCache(n, n, cache_floats, rows.dtype)
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

    def compute(I):
        return rows.block(I, Xa, sqa)

    base = alpha.copy()  # α of the shrunk points (they do not move while shrunk)

    def snapshot(gap, final=False):
        # raw state (two copies of the active part); α and b are assembled at the end
        raw = (base, act, aa.copy(), va.copy(), ya)
        values = {"_raw": raw, "dual_objective": f, "max_violation": gap}
        values.update(i=last[0], j=last[1])
        snaps.add(outer, t, values, final=final)

    m, M, up, low = _violation(va, aa, ya, C)
    snapshot(m - M)
    while True:
        m, M, up, low = _violation(va, aa, ya, C)
        gap = m - M
        if gap <= tol or t >= max_iter:
            if act.shape[0] < n:
                # rebuild the gradient of the shrunk points, then check the whole problem
                full_state()
                _reconstruct(rows, y, alpha, G, act)
                act = np.arange(n)
                ya, aa, va = y, alpha.copy(), -y * G
                Xa, sqa = X, rows.sq
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
            if n_drop > 0.1 * act.shape[0] and act.shape[0] - n_drop > q:
                keep = np.flatnonzero(~drop)
                full_state()
                act = act[keep]
                ya, aa, va = ya[keep], aa[keep], va[keep]
                Xa, sqa = X[act], rows.sq[act]
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
        B = np.union1d(cu, cl)
        Kbb = rows.block(act[B], Xa[B], sqa[B])  # float32 for large rbf problems
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
            newton_every=_NEWTON_EVERY_SUB,
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
            R, order = cache.get(act[B[ch]], compute)  # (|ch|, n_active)
            va -= (yb[ch] * d[ch])[order] @ R.astype(np.float64, copy=False)
        if aa.sum() > alpha_cap:
            raise _Diverged(float(aa.sum()))
        if snaps.wants(outer):
            snapshot(gap)
    full_state()
    if len(snaps.items) > 1 and snaps.items[-1][1] == t:
        snaps.items.pop()
    snapshot(gap, final=True)
    for _, _, values in snaps.items:
        b_alpha, b_act, b_aa, b_va, b_ya = values.pop("_raw")
        a_full = b_alpha.copy()
        a_full[b_act] = b_aa
        values["alpha"] = a_full
        values["b"] = _bias_from_v(b_va, b_aa, b_ya, C)
        m_k, M_k, _, _ = _violation(b_va, b_aa, b_ya, C)
        values["max_violation"] = m_k - M_k  # of the active set at that moment
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
    chunk = max(1, _BLOCK_ELEMS // sv.shape[0])
    for s in range(0, inactive.shape[0], chunk):
        I = inactive[s : s + chunk]
        G[I] = y[I] * (rows.block(I, Xs, sqs) @ coef) - 1.0
