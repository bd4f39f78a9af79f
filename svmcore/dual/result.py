"""The result of the dual SVM, built one way from every solver's record.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*) reads everything off the
optimal α of

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n ≤ C,   Q_nm = y_n y_m K(x_n, x_m):

b = y_s − Σ α_n y_n K(x_n, x_s) from a free support vector s (0 < α_s < C), the
hypothesis g(x) = sign(Σ α_n y_n K(x_n, x) + b), and the KKT conditions (complementary
slackness) that certify it. Each solver (:mod:`svmcore.dual.smo.fast`, :mod:`svmcore.dual.qp_path`,
:mod:`svmcore.dual.lowrank_ipm`) returns one small :class:`DualSolution`; :func:`build_result`
turns it into the :class:`DualSVMResult` the user sees. :func:`bias_from_v` is the b
rule every solver shares (libsvm's ``calculate_rho``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from svmcore._validation import check_X
from svmcore.kernels import Kernel
from svmcore.trace import Trace

__all__ = [
    "DualSVMResult",
    "DualSolution",
    "KKTCondition",
    "KKTReport",
    "LectureQP",
    "bias_from_v",
    "build_result",
    "gap_m_M",
    "kkt_residuals",
]


def bias_from_v(v, a, y, C) -> float:
    """b = −ρ by libsvm's ``calculate_rho`` (v = −yG, G = Qα − 1): mean over free, else midpoint.

    Seed 003's b = y_s − Σ α_n y_n K(x_n, x_s) is v_s for a free s; averaging over the
    free set is robust to rounding. Optimality needs v_t ≤ b for the points only in I_up
    and v_t ≥ b for those only in I_low; without free points b is the midpoint.
    """
    free = ((a > 0) & (a < C)).nonzero()[0]
    if free.shape[0]:
        return float(np.add.reduce(v[free]) / free.shape[0])  # the mean (as ndarray.mean)
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
    ypos, pos, below = y > 0, a > 0, a < C
    vu = np.where(np.where(ypos, below, pos), v, -np.inf)  # v on I_up, −∞ elsewhere
    vl = np.where(np.where(ypos, pos, below), v, np.inf)  # v on I_low, +∞ elsewhere
    m, M = float(vu[vu.argmax()]), float(vl[vl.argmin()])  # (argmax: no wrapper, NaN kept)
    return m - M if np.isfinite(m) and np.isfinite(M) else 0.0


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


class KKTCondition(NamedTuple):
    """One of Lin's KKT conditions (seed 003) and its largest violation over n.

    Attributes
    ----------
    name : str
        What the condition is: "primal feasibility", "dual feasibility", "∂ℒ/∂b = 0",
        "∂ℒ/∂w = 0" or "complementary slackness".
    condition : str
        The condition in the text's symbols, e.g. "y_n(wᵀz_n + b) ≥ 1 − ξ_n".
    violation : float
        The largest violation over n = 1..N, ≥ 0 (0: it holds exactly): for an
        inequality g_n ≥ 0 the largest max(0, −g_n), for an equality g = 0 the largest ``|g|``.
    """

    name: str
    condition: str
    violation: float


def _vec(a, name: str, n: int | None = None) -> np.ndarray:
    out = np.asarray(a, dtype=float)
    if out.ndim != 1 or (n is not None and out.shape[0] != n):
        want = f"shape ({n},)" if n is not None else "one dimension"
        raise ValueError(f"{name} must have {want}, got shape {out.shape}")
    return out


def kkt_residuals(y, alpha, yf, C=None, *, xi=None, w=None, w_alpha=None, bias=True):
    """Lin's KKT conditions of the SVM (seed 003), each with its largest violation.

    For the hard margin (``C=None``), with f(x_n) = wᵀz_n + b:

    * primal feasibility  y_n(wᵀz_n + b) ≥ 1;
    * dual feasibility  α_n ≥ 0;
    * ∂ℒ/∂b = 0:  Σ_n y_n α_n = 0 (only with a bias b, ``bias=True``);
    * ∂ℒ/∂w = 0:  w = Σ_n α_n y_n z_n (only when ``w`` and ``w_alpha`` are given);
    * complementary slackness  α_n(1 − y_n(wᵀz_n + b)) = 0.

    For the soft margin (C a number), from ℒ(b, w, ξ, α, β) with β_n = C − α_n:

    * primal feasibility  y_n(wᵀz_n + b) ≥ 1 − ξ_n  and  ξ_n ≥ 0;
    * dual feasibility  0 ≤ α_n ≤ C  (α_n ≥ 0 and β_n = C − α_n ≥ 0);
    * ∂ℒ/∂b = 0 and ∂ℒ/∂w = 0 as above;
    * complementary slackness  α_n(1 − ξ_n − y_n(wᵀz_n + b)) = 0  and
      (C − α_n) ξ_n = 0  (β_n ξ_n = 0).

    Parameters
    ----------
    y : array (n,) of ±1
    alpha : array (n,)
        The multipliers α_n of the margin constraints.
    yf : array (n,)
        y_n f(x_n) = y_n(wᵀz_n + b).
    C : float or None
        None: the hard margin.
    xi : array (n,) or None
        The slacks ξ_n (soft margin). None: ξ_n = max(0, 1 − y_n f(x_n)), the smallest
        slacks feasible for (b, w) (the optimal ξ for that (b, w)); with them the first
        primal feasibility holds by construction and the complementary slackness rows
        carry the test.
    w, w_alpha : array (d,) or None
        w and Σ_n α_n y_n z_n; both given adds ∂ℒ/∂w = 0 (largest ``|component|`` of the
        difference).
    bias : bool
        Whether the model has a bias b (adds Σ_n y_n α_n = 0).

    Returns
    -------
    tuple of KKTCondition
        In the order above.

    Raises
    ------
    ValueError
        An array of the wrong shape (named), or a C that is not positive.
    """
    y = _vec(y, "y")
    n = y.shape[0]
    alpha, yf = _vec(alpha, "alpha", n), _vec(yf, "yf", n)
    soft = C is not None
    if soft and not (np.isscalar(C) and float(C) > 0):
        raise ValueError(f"C must be a positive number or None, got {C!r}")
    if soft:
        xi = np.maximum(1.0 - yf, 0.0) if xi is None else _vec(xi, "xi", n)
    elif xi is not None:
        raise ValueError("xi is for the soft margin: pass C too (the hard margin has ξ = 0)")

    def largest(v) -> float:
        return max(0.0, float(np.max(v, initial=0.0)))  # 0.0, never −0.0

    out = []
    if soft:
        C = float(C)
        out += [
            KKTCondition("primal feasibility", "y_n(wᵀz_n + b) ≥ 1 − ξ_n", largest(1.0 - xi - yf)),
            KKTCondition("primal feasibility", "ξ_n ≥ 0", largest(-xi)),
            KKTCondition(
                "dual feasibility", "0 ≤ α_n ≤ C", max(largest(-alpha), largest(alpha - C))
            ),
        ]
    else:
        out += [
            KKTCondition("primal feasibility", "y_n(wᵀz_n + b) ≥ 1", largest(1.0 - yf)),
            KKTCondition("dual feasibility", "α_n ≥ 0", largest(-alpha)),
        ]
    if bias:
        out.append(KKTCondition("∂ℒ/∂b = 0", "Σ_n y_n α_n = 0", abs(float(y @ alpha))))
    if w is not None and w_alpha is not None:
        gap = _vec(w, "w") - _vec(w_alpha, "w_alpha", np.asarray(w).shape[0])
        out.append(KKTCondition("∂ℒ/∂w = 0", "w = Σ_n α_n y_n z_n", largest(np.abs(gap))))
    if soft:
        out += [
            KKTCondition(
                "complementary slackness",
                "α_n(1 − ξ_n − y_n(wᵀz_n + b)) = 0",
                largest(np.abs(alpha * (1.0 - xi - yf))),
            ),
            KKTCondition(
                "complementary slackness", "(C − α_n) ξ_n = 0", largest(np.abs((C - alpha) * xi))
            ),
        ]
    else:
        out.append(
            KKTCondition(
                "complementary slackness",
                "α_n(1 − y_n(wᵀz_n + b)) = 0",
                largest(np.abs(alpha * (1.0 - yf))),
            )
        )
    return tuple(out)


_KKT_STATUS = np.array(["zero", "free", "bound"])  # KKTReport.status by α's position


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
        # 0: α_n = 0 (needs y f ≥ 1), 1: free (y f = 1), 2: α_n = C (y f ≤ 1); C > 0
        code = (alpha > 0).view(np.int8) + (alpha >= C).view(np.int8)
        stat = _KKT_STATUS.take(code)
        r = yf - 1.0
        viol = np.abs(r)  # the one-sided conditions hold at r > 0 (α_n = 0), r < 0 (= C)
        viol[((code == 0) & (r > 0)) | ((code == 2) & (r < 0))] = 0.0
        return cls(margin=yf, status=stat, violation=viol)


@dataclass(frozen=True, eq=False)
class DualSVMResult:
    """Result of :func:`svmcore.dual.solver.dual_svm`.

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
        1/‖w‖ in the feature space (‖w‖² = αᵀQα; for the linear kernel ‖w‖ is computed
        from w itself, scaled, so that it does not underflow for tiny X). ``inf`` only
        when w = 0: the optimum is the constant f = b (no hyperplane; a soft margin on
        data whose classes cancel). When the kernel cannot tell the points apart in double
        precision (K(x, x′) the same number for every pair), or 1/‖w‖ overflows, the fit
        raises ``ValueError`` instead of reporting a margin that rounding made up.
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
        first ``n_steps``, see :mod:`svmcore.dual.smo.fast`): "t", "kind", "i", "j", "delta_i",
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

    def kkt_residuals(self) -> tuple[KKTCondition, ...]:
        """Lin's KKT list at this α (seed 003), each condition with its largest violation.

        y_n f(x_n) is evaluated afresh from α and b (:meth:`decision_function`); for the
        soft margin ξ_n = max(0, 1 − y_n f(x_n)). ∂ℒ/∂w = 0 (w = Σ α_n y_n z_n) is listed
        for the linear kernel, where w is kept (it is Σ α_n y_n x_n by construction); in
        another kernel's feature space f = Σ α_n y_n K(x_n, ·) + b is that sum already.
        See :func:`kkt_residuals` for the list.
        """
        yf = self.y * self.decision_function(self.X_fit)
        w_alpha = None if self.w is None else (self.alpha * self.y) @ self.X_fit
        return kkt_residuals(self.y, self.alpha, yf, self.C, w=self.w, w_alpha=w_alpha)


def build_result(X, y, kern, C, tol, solver, sol: DualSolution, info: dict, engine="fast"):
    """The :class:`DualSVMResult` of a solver's :class:`DualSolution` (the one way to build it).

    ``info`` (n, C, kernel, tol, solver, …) goes into the trace with the solver's own info.
    """
    Cval = np.inf if C is None else C
    alpha, G, b = sol.alpha, sol.G, sol.b
    w = (alpha * y) @ X if kern.name == "linear" else None
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
        support_=(alpha > 0).nonzero()[0],
        free_=((alpha > 0) & (alpha < Cval)).nonzero()[0],
        bounded_=(alpha >= Cval).nonzero()[0],
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
        margin=_margin(w, w2, kern, X, alpha * y),
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


def _margin(w, w2: float, kern: Kernel, X: np.ndarray, a: np.ndarray) -> float:
    """1/‖w‖ of :class:`DualSVMResult` (see its ``margin``): finite, inf for w = 0, or a
    ``ValueError`` where double precision cannot give it. ``a`` = α ∘ y."""
    if w is not None:  # linear: ‖w‖ = s ‖w/s‖ with s = max|w_k| (no underflow of w_k²)
        scale = float(np.max(np.abs(w))) if w.size else 0.0
        norm = scale * float(np.sqrt(np.sum((w / scale) ** 2))) if scale > 0 else 0.0
    elif w2 > _TINY_W2:
        norm = float(np.sqrt(w2))
    else:  # αᵀQα near underflow: ‖w‖ = s √(a′ᵀK a′) with a′ = a/s, s = max|a_n|
        norm = _scaled_kernel_norm(kern, X, a)
    if norm == 0.0:
        if w is None:
            row = kern(X[:1], X)[0]
            if np.all(row == row[0]) and np.all(kern.diag(X) == row[0]):
                raise ValueError(
                    f"kernel {kern} cannot tell the points of X apart in double precision: "
                    f"K(x, x′) = {row[0]:.17g} for every pair, so the feature space holds one "
                    f"point and the margin 1/‖w‖ is not defined; rescale X (its largest "
                    f"coordinate is {float(np.max(np.abs(X))):.3g}) or change the kernel's "
                    "parameters"
                )
        return float("inf")  # w = 0: f = b, no hyperplane (documented)
    margin = 1.0 / norm
    if not np.isfinite(margin):
        raise ValueError(
            f"X is too small for double precision: ‖w‖ = {norm:.3g}, so the margin 1/‖w‖ "
            f"overflows (X's largest coordinate is {float(np.max(np.abs(X))):.3g}); rescale X"
        )
    return margin


#: Below this αᵀQα the margin is recomputed with α scaled (products near underflow).
_TINY_W2 = 1e-280


def _scaled_kernel_norm(kern: Kernel, X: np.ndarray, a: np.ndarray) -> float:
    """‖w‖ = s √(a′ᵀ K a′), a′ = a/s, s = max|a_n|, over the support (in row blocks)."""
    sv = np.flatnonzero(a)
    if sv.size == 0:
        return 0.0
    s = float(np.max(np.abs(a[sv])))
    ap, Xs = a[sv] / s, X[sv]
    total = 0.0
    step = max(1, (1 << 21) // sv.size)
    for start in range(0, sv.size, step):
        total += float(ap[start : start + step] @ (kern(Xs[start : start + step], Xs) @ ap))
    return s * float(np.sqrt(total)) if total > 0 else 0.0
