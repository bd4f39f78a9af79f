"""The result of the dual SVM, built one way from every solver's record.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*) reads everything off the
optimal α of

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m):

b = y_s − Σ α_n y_n K(x_n, x_s) from a free support vector s (0 < α_s < C), the
hypothesis g(x) = sign(Σ α_n y_n K(x_n, x) + b), and the KKT conditions (complementary
slackness) that certify it. Each solver (:mod:`svmcore.smo`, :mod:`svmcore.dual_qp`,
:mod:`svmcore.lowrank_ipm`) returns one small :class:`DualSolution`; :func:`build_result`
turns it into the :class:`DualSVMResult` the user sees. :func:`bias_from_v` is the b
rule every solver shares (libsvm's ``calculate_rho``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._validation import check_X
from svmcore.kernels import Kernel
from svmcore.trace import Trace

__all__ = [
    "DualSVMResult",
    "DualSolution",
    "KKTReport",
    "LectureQP",
    "bias_from_v",
    "build_result",
    "gap_m_M",
]


def bias_from_v(v, a, y, C) -> float:
    """b = −ρ by libsvm's ``calculate_rho`` (v = −yG, G = Qα − 1): mean over free, else midpoint.

    Seed 003's b = y_s − Σ α_n y_n K(x_n, x_s) is v_s for a free s; averaging over the
    free set is robust to rounding. Optimality needs v_t ≤ b for the points only in I_up
    and v_t ≥ b for those only in I_low; without free points b is the midpoint.
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


def gap_m_M(v, a, y, C) -> float:
    """m(α) − M(α): the largest violation of a pair (libsvm's stopping quantity).

    m(α) = max over I_up = {α_t < C, y_t = +1 or α_t > 0, y_t = −1} of v_t, M(α) = min
    over I_low = {α_t < C, y_t = −1 or α_t > 0, y_t = +1}; α is optimal iff m ≤ M.
    """
    ypos = y > 0
    up = np.where(ypos, a < C, a > 0)
    low = np.where(ypos, a > 0, a < C)
    m = v[up].max() if up.any() else -np.inf
    M = v[low].min() if low.any() else np.inf
    return float(m - M) if np.isfinite(m) and np.isfinite(M) else 0.0


@dataclass(frozen=True, eq=False)
class LectureQP:
    """Seed 003's QP(Q, p, A, c) of the dual and the generic solver's raw solution."""

    Q: np.ndarray
    p: np.ndarray
    A: np.ndarray
    c: np.ndarray
    solution: object  # svmcore.qp.QPSolution


@dataclass(frozen=True, eq=False)
class DualSolution:
    """What a dual solver hands back: α, G = Qα − 1, b, status and its trace parts.

    ``method`` names the trace's kind ("smo", "ipm", "lowrank_ipm"), ``t`` the iteration
    of each snapshot, ``snapshots`` a dict of per-snapshot lists, ``steps`` a dict of
    per-step lists (SMO only). ``w2`` is ‖w‖² = αᵀQα when the solver computed it more
    exactly than αᵀ(G + 1); ``message`` says why a status is not "optimal".
    """

    alpha: np.ndarray
    G: np.ndarray
    b: float
    status: str
    n_iter: int
    method: str
    t: list
    snapshots: dict
    steps: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)
    w2: float | None = None
    qp: LectureQP | None = None
    message: str = ""


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

    @classmethod
    def of(cls, alpha, yf, C) -> KKTReport:
        """The report for multipliers ``alpha`` with margins y_n f(x_n) = ``yf``."""
        zero, bound = alpha <= 0, alpha >= C
        stat = np.where(zero, "zero", np.where(bound, "bound", "free"))
        viol = np.where(
            zero,
            np.maximum(1.0 - yf, 0.0),
            np.where(bound, np.maximum(yf - 1.0, 0.0), np.abs(yf - 1.0)),
        )
        return cls(margin=yf, status=stat, violation=viol)


@dataclass(frozen=True, eq=False)
class DualSVMResult:
    """Result of :func:`svmcore.dual.dual_svm`.

    Attributes
    ----------
    alpha : ndarray (n,)
        The multipliers, 0 ≤ α ≤ C exactly, yᵀα = 0 to rounding.
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
        SMO pair updates or interior-point iterations (``solver="auto"``: the pair updates
        of its SMO, or its interior-point iterations plus any polishing pair updates; the
        active-set iterations are in ``trace.info["active_set_iterations"]``).
    status : {"optimal", "max_iter", "stalled", "inaccurate"}
        "optimal" only when the result's own KKT check passes (m(α) − M(α) ≤ ``tol``
        for SMO, ≤ max(tol, 1e-7) for the QP, max(tol, 1e-6) for lowrank); "inaccurate": the solver
        stopped but its α fails that check (see ``message``; try solver="smo").
    message : str
        Why the status is not "optimal", in words ("" when it is).
    solver : {"auto", "smo", "qp", "lowrank"}
        As requested; ``trace.info["auto_method"]`` says which path "auto" took.
    engine : {"fast", "textbook"}
    trace : Trace
        Snapshots "alpha" (S, n), "b", "dual_objective", "max_violation" (m(α) − M(α)),
        "i", "j" (the SMO pair, −1 when not applicable); with a soft margin, SMO and the
        QP also record "primal_objective" and "duality_gap". The interior points also
        record "ipm_residual" (the largest of their relative primal and dual residuals:
        what they stop on), "primal_residual", "dual_residual" and "mu". SMO steps (the
        first ``n_steps``, see :mod:`svmcore.smo`): "t", "kind", "i", "j", "delta_i",
        "delta_j", "objective". ``trace.info`` also says how the QP path got there:
        "ipm_status", "ipm_iterations", "ipm_max_violation" (m(α) − M(α) of the snapped
        interior point), "kkt_tol", "qp_scale", "polish_rounds", "polished".
    Q, p, A, c : ndarray or None
        The lecture's QP(Q, p, A, c) (``solver="qp"`` only).
    qp_solution : QPSolution or None
        The interior point's raw solution, of the QP with the objective divided by
        ``trace.info["qp_scale"]`` = max(1, max Q_nn) (the same minimiser; its
        multipliers are divided by that scale).
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
    qp_solution: object | None = None
    message: str = ""
    engine: str = "fast"

    @property
    def is_optimal(self) -> bool:
        """True when the result passed its own KKT check (status "optimal")."""
        return self.status == "optimal"

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


def build_result(X, y, kern, C, tol, solver, sol: DualSolution, info: dict, engine="fast"):
    """The :class:`DualSVMResult` of a solver's :class:`DualSolution` (the one way to build it).

    ``info`` (n, C, kernel, tol, solver, …) goes into the trace with the solver's own info.
    """
    Cval = np.inf if C is None else C
    alpha, G, b = sol.alpha, sol.G, sol.b
    yf = G + 1.0 + y * b  # y_n f(x_n) = y_n Σ α_m y_m K_nm + y_n b
    kkt = KKTReport.of(alpha, yf, Cval)
    w2 = float(alpha @ (G + 1.0)) if sol.w2 is None else sol.w2  # αᵀQα = ‖w‖²
    dual_obj = 0.5 * w2 - float(alpha.sum())
    primal = 0.5 * w2 + (C * float(np.maximum(1.0 - yf, 0.0).sum()) if C is not None else 0.0)
    info = {**info, **sol.info, "n_iter": sol.n_iter, "status": sol.status}
    if sol.message:
        info["message"] = sol.message
    trace = Trace.from_lists(sol.method, sol.t, sol.snapshots, sol.steps, info)
    qp = sol.qp
    return DualSVMResult(
        alpha=alpha,
        b=float(b),
        support_=np.flatnonzero(alpha > 0),
        free_=np.flatnonzero((alpha > 0) & (alpha < Cval)),
        bounded_=np.flatnonzero(alpha >= Cval),
        w=(alpha * y) @ X if kern.name == "linear" else None,
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
        n_iter=int(sol.n_iter),
        status=sol.status,
        solver=solver,
        tol=tol,
        trace=trace,
        Q=None if qp is None else qp.Q,
        p=None if qp is None else qp.p,
        A=None if qp is None else qp.A,
        c=None if qp is None else qp.c,
        qp_solution=None if qp is None else qp.solution,
        message=sol.message,
        engine=engine,
    )
