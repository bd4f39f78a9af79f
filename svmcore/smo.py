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

Code layout: this module holds the entry point :func:`smo`, the plain-SMO driver and the
bounded snapshot log; the pair update (:func:`~svmcore.smo_wss3._smo_block`), the Newton
step (:func:`~svmcore.smo_wss3._newton_free`), the b rule and :class:`SMOOutput` live in
:mod:`svmcore.smo_wss3`; the decomposition driver (working set, subproblem, gradient update,
shrinking, :func:`~svmcore.smo_decomposition._polish`) in :mod:`svmcore.smo_decomposition`.

Pure NumPy. Deterministic: the same input gives a bit-identical trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from svmcore.exceptions import NotSeparableError
from svmcore.kernel_cache import BLOCK_ELEMS, KernelRows, LazyGram
from svmcore.smo_decomposition import _solve_decomposition
from svmcore.smo_wss3 import (
    _NEWTON_EVERY,
    _NEWTON_EVERY_HARD,
    SMOOutput,
    _bias_from_v,
    _Diverged,
    _smo_block,
)

__all__ = ["SMOOutput", "smo"]

_FLOAT32_FROM = 1000  # decomposition problems with more points cache rows in float32
_DENSE_MAX, _DENSE_MAX_HARD = 600, 2000  # plain SMO up to this n (soft, hard margin)
_FULL_GRAM_MAX = 300  # plain SMO computes the whole Gram matrix up to this n
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
# the b rule on stacked snapshots (plain SMO)
# --------------------------------------------------------------------------------------
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
