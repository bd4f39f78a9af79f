"""The dual SVM of seed 003, hard and soft margin, with any kernel.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*) derives the dual

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n (≤ C for the soft margin),
    Q_nm = y_n y_m K(x_n, x_m),

then recovers w = Σ α_n y_n z_n, b = y_s − Σ α_n y_n K(x_n, x_s) from a free support
vector s (0 < α_s < C), and classifies by g(x) = sign(Σ α_n y_n K(x_n, x) + b).

:func:`dual_svm` solves it either as the lecture does, with the generic QP of
:mod:`svmcore.qp` (``solver="qp"``; the result shows the lecture's Q, p, A, c with
a_≥ = y, a_≤ = −y, a_n = e_n (and −e_n ≥ −C)), or with libsvm's SMO
(``solver="smo"``, :mod:`svmcore.smo`). b is averaged over the free support vectors
(libsvm's midpoint rule when none is free). A hard margin (C=None) on data that no
hyperplane separates in the kernel's feature space has an unbounded dual: both solvers
detect it and raise :class:`~svmcore.exceptions.NotSeparableError`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from svmcore._validation import check_binary_y, check_choice, check_int, check_positive, check_X
from svmcore.exceptions import NotSeparableError
from svmcore.kernels import Kernel, make_kernel
from svmcore.lowrank_ipm import lowrank_ipm
from svmcore.qp import QPSolution, solve_qp
from svmcore.smo import _bias_from_v, smo
from svmcore.trace import MAX_SNAPSHOTS, MAX_STEPS, Trace

__all__ = ["DualSVMResult", "KKTReport", "dual_svm"]

#: Largest problem the dense interior-point path accepts (it stores n × n matrices).
QP_MAX_N = 1500


@dataclass(frozen=True, eq=False)
class KKTReport:
    """Per-point KKT check of a dual solution (seed 003's complementary slackness).

    Attributes
    ----------
    margin : ndarray (n,)
        y_n f(x_n) with f(x) = Σ α_m y_m K(x_m, x) + b.
    status : ndarray of str (n,)
        "zero" (α_n = 0: needs y f ≥ 1), "free" (0 < α_n < C: y f = 1) or "bound"
        (α_n = C: y f ≤ 1).
    violation : ndarray (n,)
        How far each point is from its condition (0 when it holds).
    """

    margin: np.ndarray
    status: np.ndarray
    violation: np.ndarray

    @property
    def max_violation(self) -> float:
        return float(self.violation.max(initial=0.0))


@dataclass(frozen=True, eq=False)
class DualSVMResult:
    """Result of :func:`dual_svm`.

    Attributes
    ----------
    alpha : ndarray (n,)
        The multipliers, 0 ≤ α ≤ C.
    b : float
    support_, free_, bounded_ : ndarray of int
        Indices with α > 0, 0 < α < C, α = C (``bounded_`` empty for the hard margin).
    w : ndarray (d,) or None
        Σ α_n y_n x_n for the linear kernel, else None.
    X_fit, y : ndarray
        The training data.
    kernel : Kernel
    C : float or None
        None for the hard margin.
    dual_objective : float
        ½αᵀQα − 1ᵀα (minimised, as in seed 003).
    primal_objective : float
        ½‖w‖² + C Σ max(0, 1 − y_n f(x_n)) (½‖w‖² for the hard margin).
    duality_gap : float
        primal_objective + dual_objective (≥ 0, → 0 at the optimum).
    kkt : KKTReport
    max_kkt_violation : float
    margin : float
        1/‖w‖ in the feature space (‖w‖² = αᵀQα).
    n_iter : int
        SMO pair updates or interior-point iterations.
    status : {"optimal", "max_iter", "stalled"}
    solver : {"smo", "qp", "lowrank"}
    trace : Trace
        Snapshots "alpha" (S, n), "b", "dual_objective", "max_violation", "i", "j"
        (the SMO pair, −1 when not applicable); with a soft margin, plain SMO and the
        QP also record "primal_objective" and "duality_gap"; the QP also
        "primal_residual", "dual_residual", "mu" (its b is −λ, λ the multiplier of
        yᵀα = 0). SMO steps (first ``n_steps`` pair updates): "t", "i", "j", "delta_i",
        "delta_j", "objective" (i = j = −1 marks a Newton step on all free
        multipliers, see :mod:`svmcore.smo`).
    Q, p, A, c : ndarray or None
        The lecture's QP(Q, p, A, c) (``solver="qp"`` only).
    qp_solution : QPSolution or None
    """

    alpha: np.ndarray
    b: float
    support_: np.ndarray
    free_: np.ndarray
    bounded_: np.ndarray
    w: np.ndarray | None
    X_fit: np.ndarray
    y: np.ndarray
    kernel: Kernel
    C: float | None
    dual_objective: float
    primal_objective: float
    duality_gap: float
    kkt: KKTReport
    max_kkt_violation: float
    margin: float
    n_iter: int
    status: str
    solver: str
    tol: float
    trace: Trace
    Q: np.ndarray | None = None
    p: np.ndarray | None = None
    A: np.ndarray | None = None
    c: np.ndarray | None = None
    qp_solution: QPSolution | None = None

    @property
    def dual_coef(self) -> np.ndarray:
        """y_n α_n of the support vectors (scikit-learn's ``dual_coef_[0]``)."""
        return self.y[self.support_] * self.alpha[self.support_]

    def decision_function(self, X) -> np.ndarray:
        """f(x) = Σ α_n y_n K(x_n, x) + b for each row of X (support vectors only)."""
        X = check_X(X)
        if X.shape[1] != self.X_fit.shape[1]:
            raise ValueError(f"X has {X.shape[1]} features, expected {self.X_fit.shape[1]}")
        if self.w is not None:
            return X @ self.w + self.b
        sv = self.support_
        out = np.empty(X.shape[0])
        step = max(1, (1 << 21) // max(sv.shape[0], 1))
        for s in range(0, X.shape[0], step):
            out[s : s + step] = self.kernel(X[s : s + step], self.X_fit[sv]) @ self.dual_coef
        return out + self.b

    def predict(self, X) -> np.ndarray:
        """sign(f(x)) as ±1 floats (+1 on the boundary)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)


def _lecture_qp(Q, y, C):
    """Seed 003's (A, c): a_≥ = y, a_≤ = −y (c = 0), a_n = e_n (c_n = 0), and −e_n ≥ −C."""
    n = y.shape[0]
    rows = [y[None, :], -y[None, :], np.eye(n)]
    cs = [np.zeros(1), np.zeros(1), np.zeros(n)]
    if C is not None:
        rows.append(-np.eye(n))
        cs.append(np.full(n, -C))
    return Q, -np.ones(n), np.vstack(rows), np.concatenate(cs)


def _not_separable(kernel, how):
    return NotSeparableError(
        f"the data are not separable in this kernel's feature space ({kernel}): {how}; "
        "use a soft margin (a finite C) instead"
    )


def _poly_features(X, kern):
    """Explicit Φ with Φ(x)ᵀΦ(x') = (ζ + γxᵀx')^Q (multinomial expansion), or None if big."""
    n, d = X.shape
    Q = kern.degree
    if math.comb(d + Q, Q) > 300:
        return None
    Xe = np.hstack([np.ones((n, 1)), X])
    cols = []
    for combo in itertools.combinations_with_replacement(range(d + 1), Q):
        k = np.bincount(combo, minlength=d + 1)
        coef = math.factorial(Q) / math.prod(math.factorial(int(v)) for v in k)
        coef *= kern.coef0 ** int(k[0]) * kern.gamma ** int(Q - k[0])
        cols.append(np.sqrt(coef) * np.prod(Xe[:, list(combo)], axis=1))
    return np.column_stack(cols)


def _check_separable(X, y, kern):
    """Raise NotSeparableError if a cheap exact test shows the hard margin is infeasible.

    Linear and (small) polynomial kernels: the primal QP on explicit features has no
    feasible (b, w) (the interior point's Farkas certificate). Gaussian kernel: its Gram
    matrix is positive definite on distinct points, so only a point repeated with both
    labels makes the data non-separable.
    """
    if kern.name == "rbf":
        # equal rows have equal projections: sort one projection, then compare the rows
        # whose projection is repeated exactly (usually none) after sorting them fully
        proj = X @ np.sqrt(np.arange(2.0, X.shape[1] + 2.0))
        order = np.argsort(proj)
        ps = proj[order]
        rep = np.zeros(ps.shape[0], dtype=bool)
        rep[1:] = ps[1:] == ps[:-1]
        rep[:-1] |= rep[1:]
        if rep.any():
            sub = order[rep]
            sub = sub[np.lexsort(X[sub].T[::-1])]
            Xs, ys = X[sub], y[sub]
            if np.any(np.all(Xs[1:] == Xs[:-1], axis=1) & (ys[1:] != ys[:-1])):
                raise _not_separable(kern, "the same point appears with both labels")
        return
    Z = X if kern.name == "linear" else _poly_features(X, kern)
    if Z is None:  # feature space too large to write out: the dual QP's certificate
        if X.shape[0] <= 1000:
            Qd = (y[:, None] * y[None, :]) * kern(X)
            sol = solve_qp(Qd, -np.ones(X.shape[0]), A_eq=y, c_eq=[0.0], lb=0.0, max_iter=60)
            if sol.status == "unbounded":
                raise _not_separable(kern, "the hard-margin dual QP is unbounded")
        return
    n, d = Z.shape
    Qm = np.zeros((d + 1, d + 1))
    Qm[1:, 1:] = np.eye(d)
    sol = solve_qp(
        Qm,
        np.zeros(d + 1),
        y[:, None] * np.hstack([np.ones((n, 1)), Z]),
        np.ones(n),
        tol=1e-8,
        max_iter=60,
    )
    if sol.status == "infeasible":
        raise _not_separable(
            kern,
            "the hard-margin primal has no feasible (b, w) (the "
            "interior point found a certificate of infeasibility)",
        )


def dual_svm(
    X,
    y,
    *,
    kernel,
    C=None,
    gamma=1.0,
    degree=3,
    coef0=1.0,
    solver="smo",
    tol=1e-3,
    max_iter=None,
    cache_size=64.0,
    shrinking=True,
    working_set_size=None,
    n_snapshots=100,
    n_steps=300,
) -> DualSVMResult:
    """Solve seed 003's dual SVM.

    Parameters
    ----------
    X : array (n, d)
    y : array (n,) of ±1
    kernel : Kernel or {"linear", "poly", "rbf"}
        With a name, ``gamma``, ``degree`` and ``coef0`` build it
        (:func:`svmcore.kernels.make_kernel`).
    C : float > 0 or None
        None: hard margin (α ≥ 0). A number: soft margin (0 ≤ α ≤ C).
    solver : {"smo", "qp", "lowrank"}
        libsvm's SMO (WSS3, kernel cache, shrinking), the lecture's generic QP, or (linear
        kernel only) the low-rank interior point of :mod:`svmcore.lowrank_ipm`, O(n d²)
        per iteration.
    tol : float
        SMO: stop when the maximal violating pair gap m(α) − M(α) ≤ tol (libsvm's eps).
        QP: the interior point runs to the relative residual min(tol, 1e-8).
    max_iter : int or None
        SMO pair updates (default max(100 000, 100 n)) or IPM iterations (default 100).
    cache_size : float
        Kernel-row cache in MB (SMO).
    shrinking : bool
        libsvm's shrinking heuristic (SMO, large problems).
    working_set_size : int or None
        None: plain SMO on the whole problem when its Gram matrix fits the cache and
        n ≤ 600 (n ≤ 2000 for the hard margin), else the decomposition with working sets
        of 1024 (2048 from n = 10 000). An int forces the decomposition with that many
        variables per subproblem (≥ n: plain SMO).
    n_snapshots, n_steps : int
        Trace size: at most ``n_snapshots`` snapshots (thinned geometrically, always the
        first and the last state) and the first ``n_steps`` SMO pair updates.

    Returns
    -------
    DualSVMResult

    Raises
    ------
    NotSeparableError
        C=None on data not separable in the kernel's feature space.
    """
    X = check_X(X)
    n = X.shape[0]
    y = check_binary_y(y, n)
    kern = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
    if C is not None:
        C = check_positive(C, "C")
    check_choice(solver, "solver", ["smo", "qp", "lowrank"])
    if solver == "lowrank" and kern.name != "linear":
        raise ValueError(
            f"solver='lowrank' needs the linear kernel (Q = ZZᵀ of rank d), got {kern}; "
            "use solver='smo'"
        )
    tol = check_positive(tol, "tol")
    cache_size = check_positive(cache_size, "cache_size")
    n_snapshots = check_int(n_snapshots, "n_snapshots", low=2, high=MAX_SNAPSHOTS)
    n_steps = check_int(n_steps, "n_steps", low=0, high=MAX_STEPS)
    if working_set_size is not None:
        working_set_size = check_int(working_set_size, "working_set_size", low=2)
    if not isinstance(shrinking, bool | np.bool_):
        raise ValueError(f"shrinking must be True or False, got {shrinking!r}")
    Cval = np.inf if C is None else C
    info = {"n": n, "C": C, "kernel": str(kern), "tol": tol, "solver": solver}
    Qm = p = A = c = sol = w2 = None
    if solver == "smo":
        if C is None:
            _check_separable(X, y, kern)
        max_iter = (
            max(100_000, 100 * n)
            if max_iter is None
            else check_int(max_iter, "max_iter", low=1, high=10**9)
        )
        out = smo(
            X,
            y,
            kern,
            Cval,
            tol=tol,
            max_iter=max_iter,
            cache_size=cache_size,
            shrinking=shrinking,
            working_set_size=working_set_size,
            n_snapshots=n_snapshots,
            n_steps=n_steps,
        )
        alpha, G, b, status, n_iter = out.alpha, out.G, out.b, out.status, out.n_iter
        w2 = out.w2
        info.update(out.info)
        names = list(out.snapshots[0][2])
        snaps = {name: [values[name] for _, _, values in out.snapshots] for name in names}
        parts = ("smo", [it[1] for it in out.snapshots], snaps, out.steps)
    elif solver == "lowrank":
        if C is None:
            _check_separable(X, y, kern)
        max_iter = 100 if max_iter is None else check_int(max_iter, "max_iter", low=1, high=10_000)
        lr = lowrank_ipm(X, y, Cval, tol=min(tol, 1e-9), max_iter=max_iter)
        if lr.status == "unbounded":
            raise _not_separable(kern, "the hard-margin dual is unbounded")
        status = "optimal" if lr.status == "optimal" else "max_iter"
        n_iter = lr.iterations
        alpha = lr.alpha
        G = y * (X @ ((alpha * y) @ X)) - 1.0
        b = _bias_from_v(-y * G, alpha, y, Cval)
        hist = lr.history
        keep = np.unique(np.rint(np.linspace(0, n_iter, min(n_snapshots, n_iter + 1))).astype(int))
        snaps = {name: [] for name in ("alpha", "b", "dual_objective", "max_violation", "mu")}
        for k in keep:
            ak = np.clip(hist["alpha"][k], 0.0, Cval)
            Gk = y * (X @ ((ak * y) @ X)) - 1.0
            snaps["alpha"].append(ak)
            snaps["b"].append(_bias_from_v(-y * Gk, ak, y, Cval))
            snaps["dual_objective"].append(hist["objective"][k])
            snaps["max_violation"].append(hist["residual"][k])
            snaps["mu"].append(hist["mu"][k])
        snaps["i"] = snaps["j"] = [-1] * keep.shape[0]
        parts = ("lowrank_ipm", keep.tolist(), snaps, {})
    else:
        if n > QP_MAX_N:
            raise ValueError(
                f"solver='qp' stores n × n matrices and accepts n <= {QP_MAX_N}, "
                f"got n = {n}; use solver='smo'"
            )
        max_iter = 100 if max_iter is None else check_int(max_iter, "max_iter", low=1, high=100_000)
        K = kern(X)
        Qm = (y[:, None] * y[None, :]) * K
        Qm, p, A, c = _lecture_qp(Qm, y, C)
        sol = solve_qp(
            Qm,
            p,
            A_eq=y,
            c_eq=[0.0],
            lb=0.0,
            ub=None if C is None else C,
            tol=min(tol, 1e-8),
            max_iter=max_iter,
        )
        if sol.status in ("unbounded", "infeasible"):
            raise _not_separable(
                kern,
                "the hard-margin dual QP is unbounded (the interior "
                "point found a recession direction)",
            )
        status = "optimal" if sol.status == "optimal" else "max_iter"
        n_iter = sol.iterations
        alpha = _clean(sol.x, Cval, sol.z_box)
        G = Qm @ alpha - 1.0
        b = _bias_from_v(-y * G, alpha, y, Cval)
        hist = sol.history
        snaps = {
            name: []
            for name in (
                "alpha",
                "b",
                "dual_objective",
                "max_violation",
                "i",
                "j",
                "primal_residual",
                "dual_residual",
                "mu",
            )
        }
        if C is not None:
            snaps["primal_objective"], snaps["duality_gap"] = [], []
        last = len(hist["x"]) - 1
        for k, ak in enumerate(hist["x"]):
            ak = alpha if k == last else np.clip(ak, 0.0, Cval)
            Gk = Qm @ ak - 1.0
            # an interior iterate has every α_n inside (0, C): b = −λ, not a free average
            bk = b if k == last else -float(hist["y"][k][0])
            if C is not None:
                w2k = float(ak @ (Gk + 1.0))
                pk = 0.5 * w2k + C * float(np.maximum(-(Gk + y * bk), 0.0).sum())
                snaps["primal_objective"].append(pk)
                snaps["duality_gap"].append(pk + 0.5 * w2k - float(ak.sum()))
            row = {
                "alpha": ak,
                "b": bk,
                "dual_objective": float(0.5 * ak @ (Gk - 1.0)),
                "max_violation": max(hist["primal_residual"][k], hist["dual_residual"][k]),
                "i": -1,
                "j": -1,
                "primal_residual": hist["primal_residual"][k],
                "dual_residual": hist["dual_residual"][k],
                "mu": hist["mu"][k],
            }
            for name, value in row.items():
                snaps[name].append(value)
        parts = ("ipm", list(range(hist["x"].shape[0])), snaps, {})
    if C is None and status != "optimal" and alpha.sum() > 1e8:
        raise _not_separable(
            kern, f"the multipliers grew to Σα = {alpha.sum():.3g} without converging"
        )
    info.update(n_iter=n_iter, status=status)
    trace = Trace.from_lists(*parts, info)
    return _result(
        X, y, kern, C, alpha, G, b, status, n_iter, solver, tol, trace, Qm, p, A, c, sol, w2
    )


def _clean(alpha, C, z_box):
    """Snap interior-point multipliers onto the bound whose constraint is active.

    A bound is active when its multiplier exceeds its slack (z > s): α_n ≥ 0 when
    z_box_n > α_n, α_n ≤ C when −z_box_n > C − α_n.
    """
    out = np.where(z_box > alpha, 0.0, alpha)
    if np.isfinite(C):
        out = np.where(-z_box > C - alpha, C, out)
    return np.clip(out, 0.0, C)


def _result(
    X, y, kern, C, alpha, G, b, status, n_iter, solver, tol, trace, Qm, p, A, c, sol, w2=None
):
    Cval = np.inf if C is None else C
    support = np.flatnonzero(alpha > 0)
    bounded = np.flatnonzero(alpha >= Cval)
    free = np.flatnonzero((alpha > 0) & (alpha < Cval))
    yf = G + 1.0 + y * b  # y_n f(x_n) = y_n Σ α_m y_m K_nm + y_n b
    stat = np.where(alpha <= 0, "zero", np.where(alpha >= Cval, "bound", "free"))
    viol = np.where(
        alpha <= 0,
        np.maximum(1.0 - yf, 0.0),
        np.where(alpha >= Cval, np.maximum(yf - 1.0, 0.0), np.abs(yf - 1.0)),
    )
    kkt = KKTReport(margin=yf, status=stat, violation=viol)
    if w2 is None:
        w2 = float(alpha @ (G + 1.0))  # αᵀQα = ‖w‖²
    dual_obj = 0.5 * w2 - float(alpha.sum())
    primal = 0.5 * w2 + (C * float(np.maximum(1.0 - yf, 0.0).sum()) if C is not None else 0.0)
    w = (alpha * y) @ X if kern.name == "linear" else None
    return DualSVMResult(
        alpha=alpha,
        b=float(b),
        support_=support,
        free_=free,
        bounded_=bounded,
        w=w,
        X_fit=X,
        y=y,
        kernel=kern,
        C=C,
        dual_objective=dual_obj,
        primal_objective=primal,
        duality_gap=primal + dual_obj,
        kkt=kkt,
        max_kkt_violation=kkt.max_violation,
        margin=1.0 / np.sqrt(w2) if w2 > 0 else np.inf,
        n_iter=int(n_iter),
        status=status,
        solver=solver,
        tol=tol,
        trace=trace,
        Q=Qm,
        p=p,
        A=A,
        c=c,
        qp_solution=sol,
    )
