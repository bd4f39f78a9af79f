"""The primal SVM as a quadratic program: seed 003's "SVM with QP solver".

Seed 003 (Lin, *Linear SVM*) solves the hard-margin SVM

    min_{b,w} ½ wᵀw   subject to  y_n (wᵀz_n + b) ≥ 1,  n = 1..N,

as QP(Q, p, A, c) on u = (b, w): Q = [[0, 0ᵀ_d], [0_d, I_d]], p = 0_{d+1},
a_nᵀ = y_n [1, z_nᵀ], c_n = 1. The soft margin (*Soft-Margin SVM*) adds slacks ξ:

    min_{b,w,ξ} ½ wᵀw + C Σ ξ_n   subject to  y_n (wᵀz_n + b) ≥ 1 − ξ_n,  ξ_n ≥ 0,

on u = (b, w, ξ). Here z_n = x_n, or z_n = Φ(x_n) for a feature transform Φ (for example
seed 003's :func:`svmcore.feature_maps.phi2`). The QP's multipliers of the margin
constraints are the dual α_n of the same problem.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore._validation import (
    check_binary_y,
    check_int,
    check_penalty,
    check_positive,
    check_progress,
    check_X,
)
from svmcore.dual.qp_path import QP_MAX_N, repair_equality, solve_dual_qp
from svmcore.dual.result import KKTCondition, kkt_residuals
from svmcore.exceptions import NotSeparableError
from svmcore.kernels import linear
from svmcore.qp import QPSolution, solve_qp

__all__ = ["MAX_FEATURE", "PrimalSVMResult", "primal_svm"]

#: Largest |z| (a coordinate of x, or of Φ(x)) the primal QP accepts.
MAX_FEATURE = 1e50


@dataclass(frozen=True, eq=False)
class PrimalSVMResult:
    """Result of :func:`primal_svm`.

    Attributes
    ----------
    w : ndarray (d̃,)
        Weights in the (transformed) feature space.
    b : float
    xi : ndarray (n,)
        Slacks ξ_n (zeros for the hard margin).
    alpha : ndarray (n,)
        Multipliers of the margin constraints (the dual α).
    support_ : ndarray of int
        Points whose margin constraint is active with α_n > 0.
    margin : float
        1/‖w‖ (‖w‖ computed scaled, so tiny X gives a finite margin); ``inf`` only when
        w = 0 (the soft-margin optimum is the constant f = b).
    objective : float
        ½‖w‖² + C Σξ.
    Q, p, A, c : ndarray
        The lecture's QP(Q, p, A, c), with every constraint as a row a_mᵀu ≥ c_m
        (for the soft margin also the rows ξ_n ≥ 0). u = (b, w) or (b, w, ξ).
    C : float or None
    status : {"optimal", "inaccurate", "max_iter"}
        "optimal" only when the result certifies itself: the primal objective minus the
        dual objective of its multipliers, 1ᵀα − ½‖Σ α_n y_n z_n‖², is ≤ 1e-6 (relative),
        w = Σ α_n y_n z_n to 1e-7 (relative), and for the hard margin every
        y_n f(x_n) ≥ 1 − 1e-7. "max_iter" when the QP
        solver ran out of iterations without that, "inaccurate" otherwise.
    duality_gap : float
        That primal − dual difference (≥ 0 up to rounding).
    polished : bool
        True when the interior point's answer failed that check and (b, w, α) come from
        the dual QP of the same problem (:func:`svmcore.dual.qp_path.solve_dual_qp`), as happens
        for large C·‖z‖².
    solution : QPSolution
    transform : callable or None
    """

    w: np.ndarray
    b: float
    xi: np.ndarray
    alpha: np.ndarray
    support_: np.ndarray
    margin: float
    objective: float
    Q: np.ndarray
    p: np.ndarray
    A: np.ndarray
    c: np.ndarray
    C: float | None
    status: str
    solution: QPSolution
    transform: object = None
    duality_gap: float = 0.0
    polished: bool = False

    def _features(self, X):
        X = check_X(X)
        return _apply(self.transform, X) if self.transform is not None else X

    def decision_function(self, X) -> np.ndarray:
        """wᵀΦ(x) + b for each row of X."""
        Z = self._features(X)
        if Z.shape[1] != self.w.shape[0]:
            raise ValueError(
                f"X has {Z.shape[1]} features after the transform, expected {self.w.shape[0]}"
            )
        return Z @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """sign(wᵀΦ(x) + b) as ±1 floats (+1 on the boundary)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)

    def training_features(self) -> tuple[np.ndarray, np.ndarray]:
        """(Z, y): the rows z_n = Φ(x_n) (n, d̃) and labels y_n (n,) the QP was built on,
        read back exactly from its rows a_nᵀ = y_n [1, z_nᵀ, …] (y_n = ±1)."""
        n, d = self.alpha.shape[0], self.w.shape[0]
        A = np.asarray(self.A, dtype=float)
        y = A[:n, 0]
        return A[:n, 1 : d + 1] * y[:, None], y

    def kkt_residuals(self) -> tuple[KKTCondition, ...]:
        """Lin's KKT list (seed 003) of (b, w, ξ) with the QP's multipliers α, each
        condition with its largest violation.

        Here w and the multipliers α come from the QP separately, so ∂ℒ/∂w = 0
        (w = Σ α_n y_n z_n) and Σ y_n α_n = 0 are real tests; ξ is :attr:`xi`, the
        smallest slacks feasible for (b, w). See
        :func:`svmcore.dual.result.kkt_residuals` for the list.
        """
        Z, y = self.training_features()
        yf = y * (Z @ self.w + self.b)
        xi = self.xi if self.C is not None else None
        return kkt_residuals(
            y, self.alpha, yf, self.C, xi=xi, w=self.w, w_alpha=Z.T @ (self.alpha * y)
        )


def _apply(transform, X):
    if not callable(transform):
        raise ValueError(f"transform must be a callable Φ(X) -> Z, got {transform!r}")
    Z = np.asarray(transform(X), dtype=np.float64)
    if Z.ndim != 2 or Z.shape[0] != X.shape[0] or not np.all(np.isfinite(Z)):
        raise ValueError(
            f"transform must return a finite array of shape ({X.shape[0]}, d̃), got shape {Z.shape}"
        )
    return Z


def primal_svm(
    X, y, *, C=None, transform=None, tol=1e-9, max_iter=100, progress=None
) -> PrimalSVMResult:
    """Seed 003's primal SVM through the generic QP solver.

    Parameters
    ----------
    X : array (n, d)
    y : array (n,) of ±1
    C : float > 0 or None
        None is the hard margin; a number the soft margin with penalty C Σξ, in
        [1e-12, 1e10] (:func:`svmcore._validation.check_penalty`). The QP is solved with
        its objective divided by max(1, C); if the answer fails its certificate (large
        C‖z‖²), (b, w, α) come from the dual QP of the same problem (``polished``).
    transform : callable or None
        A feature transform Φ applied to X (rows z_n = Φ(x_n)), e.g. :func:`phi2`.
    tol, max_iter :
        Passed to :func:`svmcore.qp.solve_qp`.
    progress : callable or None
        ``progress(k, max_iter)`` after each interior-point iteration k (of the primal QP,
        then of the dual QP if it polishes); raise an exception inside it to stop the run.

    Returns
    -------
    PrimalSVMResult

    Notes
    -----
    Cost: the soft-margin QP has N = d + 1 + n variables (b, w, ξ) and each interior-point
    iteration inverts a dense N × N matrix, O(N³) time and about ten N × N arrays of
    memory; with the usual 20–40 iterations n = 1,000 takes seconds, n = 5,000 minutes
    (139 s measured) and about 2 GB. The hard margin has N = d + 1 but n rows. For large
    n use :func:`svmcore.dual_svm` (SMO).

    Raises
    ------
    NotSeparableError
        Hard margin on data that no hyperplane (in Φ's space) separates.
    ValueError
        C outside [1e-12, 1e10], or ``|z|`` beyond :data:`MAX_FEATURE`, named in the message.
    """
    X = check_X(X)
    y = check_binary_y(y, X.shape[0])
    if C is not None:
        C = check_penalty(C)
    max_iter = check_int(max_iter, "max_iter", low=1, high=100_000)
    tol = check_positive(tol, "tol")
    progress = check_progress(progress)
    Z = _apply(transform, X) if transform is not None else X
    n, d = Z.shape
    big = float(np.abs(Z).max())
    if big > MAX_FEATURE:
        raise ValueError(
            f"X{' after the transform' if transform is not None else ''} has a value of "
            f"magnitude {big:.3g}; the primal QP needs |z| ≤ {MAX_FEATURE:.0e} (its rows "
            "y_n[1, z_nᵀ] are multiplied together in double precision): rescale X"
        )
    rows = y[:, None] * np.hstack([np.ones((n, 1)), Z])  # y_n [1, z_nᵀ]
    if C is None:
        Q = np.zeros((d + 1, d + 1))
        Q[1:, 1:] = np.eye(d)
        p = np.zeros(d + 1)
        A, c = rows, np.ones(n)
        sol = solve_qp(Q, p, A, c, tol=tol, max_iter=max_iter, progress=progress)
        A_show, c_show = A, c
    else:
        m = d + 1 + n
        Q = np.zeros((m, m))
        Q[1 : d + 1, 1 : d + 1] = np.eye(d)
        p = np.concatenate([np.zeros(d + 1), np.full(n, C)])
        A = np.hstack([rows, np.eye(n)])  # y_n(wᵀz_n + b) + ξ_n ≥ 1
        c = np.ones(n)
        lb = np.concatenate([np.full(d + 1, -np.inf), np.zeros(n)])  # ξ ≥ 0 as bounds
        # the same minimiser with the objective divided by max(1, C): the solver then sees
        # ξ costs of 1 and multipliers in [0, 1] whatever C (α = scale × its multipliers)
        scale = max(1.0, C)
        tol_s = max(tol / scale, 1e-16)  # ½‖w‖² is ~1/scale of the scaled objective
        sol = solve_qp(
            Q / scale, p / scale, A, c, lb=lb, tol=tol_s, max_iter=max_iter, progress=progress
        )
        A_show = np.vstack([A, np.hstack([np.zeros((n, d + 1)), np.eye(n)])])
        c_show = np.concatenate([c, np.zeros(n)])
    if C is None and (
        sol.status == "infeasible" or (sol.status != "optimal" and sol.primal_residual > 1e-6)
    ):
        raise NotSeparableError(
            "the data are not linearly separable"
            + (" in the feature space of the transform" if transform is not None else "")
            + ": the hard-margin primal QP has no feasible (b, w) (the interior-point "
            "method found a certificate of infeasibility); use a soft margin (a finite C)"
        )
    u = sol.x
    Cval = np.inf if C is None else C
    alpha = repair_equality(np.clip(np.nan_to_num(sol.z) * max(1.0, C or 1.0), 0.0, Cval), y, Cval)
    w, b = np.nan_to_num(u[1 : d + 1]), float(np.nan_to_num(u[0]))
    xi, objective, gap, ok = _certify(Z, y, C, w, b, alpha)
    polished = False
    if not ok and n <= QP_MAX_N:
        # the interior point could not resolve ½‖w‖² against C Σξ (large C‖z‖²): the dual
        # QP of the same problem (snapped, checked, SMO-polished) gives α, then w = Σ α y z
        dual = solve_dual_qp(Z, y, linear(), C, tol=1e-9, max_iter=100, progress=progress)
        alpha, w, b = dual.alpha, (dual.alpha * y) @ Z, dual.b
        xi, objective, gap, ok = _certify(Z, y, C, w, b, alpha)
        polished = True
    status = "optimal" if ok else ("max_iter" if sol.status == "max_iter" else "inaccurate")
    support = np.flatnonzero(alpha > 1e-6 * max(alpha.max(initial=0.0), 1e-300))
    scale = float(np.max(np.abs(w), initial=0.0))  # ‖w‖ = s‖w/s‖: no underflow of w_k²
    norm = scale * float(np.sqrt(np.sum((w / scale) ** 2))) if scale > 0 else 0.0
    if norm > 0 and not np.isfinite(1.0 / norm):
        raise ValueError(
            f"X is too small for double precision: ‖w‖ = {norm:.3g}, so the margin 1/‖w‖ "
            f"overflows (X's largest coordinate is {float(np.abs(X).max()):.3g}); rescale X"
        )
    return PrimalSVMResult(
        w=w,
        b=b,
        xi=xi,
        alpha=alpha,
        support_=support,
        margin=1.0 / norm if norm > 0 else np.inf,
        objective=objective,
        Q=Q,
        p=p,
        A=A_show,
        c=c_show,
        C=C,
        status=status,
        solution=sol,
        duality_gap=gap,
        transform=transform,
        polished=polished,
    )


def _certify(Z, y, C, w, b, alpha):
    """(ξ, primal objective, gap, passed) of (b, w) with multipliers α.

    ξ_n = max(0, 1 − y_n f(x_n)) are the smallest feasible slacks of (b, w); the dual
    objective of α, D(α) = 1ᵀα − ½‖Σ α_n y_n z_n‖², is below every primal objective, so a
    relative gap ≤ 1e-6 proves both optimal (hard margin: also y_n f(x_n) ≥ 1 − 1e-7), and
    w = Σ α_n y_n z_n to 1e-7 (relative) makes α the dual's multipliers.
    """
    yf = y * (Z @ w + b)
    xi = np.maximum(1.0 - yf, 0.0) if C is not None else np.zeros(y.shape[0])
    objective = 0.5 * float(w @ w) + (C * float(xi.sum()) if C is not None else 0.0)
    wa = (alpha * y) @ Z
    gap = objective - (float(alpha.sum()) - 0.5 * float(wa @ wa))
    feasible = C is not None or float(yf.min()) >= 1.0 - 1e-7
    # seed 003's stationarity w = Σ α_n y_n z_n: the multipliers must be the dual α too
    stationary = float(np.abs(w - wa).max(initial=0.0)) <= 1e-7 * (1.0 + np.abs(w).max(initial=0.0))
    ok = feasible and stationary and np.isfinite(gap)
    return xi, objective, gap, bool(ok and abs(gap) <= 1e-6 * max(1.0, abs(objective)))
