"""P*, the exact minimum of the objective that the SGD algorithms minimise.

SSBD §15.5 / §16.3 and seed 002 (Pegasos) minimise the soft-SVM objective

    P(w) = λ/2 ‖w‖² + (1/n) Σ_i c_i max{0, 1 − y_i f(x_i)},   f(x) = ⟨w, φ(x)⟩ (+ b),

with the bias options of :func:`svmcore.pegasos`: ``"none"`` (homogeneous, as in the
texts), ``"augment"`` (a constant feature 1 whose weight b is regularized with w, i.e.
the kernel K + 1) and ``"free"`` (an unregularized b). Its Lagrange dual, with
w = Σ_i α_i y_i φ(x_i), is

    D(α) = λ (Σ_i α_i − ½ αᵀQα),   0 ≤ α_i ≤ c_i/(λn),   Q_ij = y_i y_j K(x_i, x_j),

and P* = max D (strong duality). Without a free bias there is no yᵀα = 0 constraint,
so the box-constrained dual is solved exactly by dual coordinate descent (Hsieh et al.
2008, liblinear's solver for the L1-loss SVM without intercept): each α_i in turn is
set to the minimiser of ½αᵀQα − Σα over its box with the others fixed,

    α_i ← clip(α_i − G_i/Q_ii, 0, U_i),   G = Qα − 1,

sweeping until the projected gradient (G_i where 0 < α_i < U_i, min(G_i, 0) at 0,
max(G_i, 0) at U_i) is at most ``tol`` in absolute value; every few sweeps an exact
solve on the free coordinates (the others fixed) finishes the run once the bounds
are identified. With a free bias the dual
gains yᵀα = 0, which is seed 003's soft-margin dual with C = 1/(λn): it is solved by
:func:`svmcore.dual.solver.dual_svm` (SMO) and P* = λ × its primal objective.

:func:`suboptimality_curve` gives P(w_t) − P* along a run's snapshots (the output if
the run stopped at t), for the convergence panel's P(w_t) − P* against t.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore._validation import (
    check_binary_y,
    check_choice,
    check_class_weight,
    check_int,
    check_positive,
    check_progress,
    check_X,
)
from svmcore.kernels import Kernel, make_kernel
from svmcore.losses import hinge_objective
from svmcore.optimum.box_ipm import linear_box_optimum
from svmcore.sgd.pegasos import BIASES

#: The largest n solved here: coordinate descent holds the n × n matrices K and Q.
MAX_N = 4000

__all__ = [
    "MAX_N",
    "ExactOptimum",
    "OptimumResult",
    "coordinate_descent",
    "projected_gradient_norm",
    "soft_svm_optimum",
    "suboptimality_curve",
]


@dataclass(frozen=True, eq=False)
class ExactOptimum:
    """What every exact optimum of an SGD objective reports (the convergence view's
    contract, ``AlgorithmSpec.optimum``).

    Attributes
    ----------
    objective : float
        P*, the objective evaluated at the returned solution (primal value).
    dual_objective : float
        The dual objective at the returned dual variables: P* − D ≥ 0 certifies P*.
    duality_gap : float
    status : {"optimal", "max_iter"}
    solver : str
        The exact solver and its tolerance, in words, for the screen.
    """

    objective: float
    dual_objective: float
    duality_gap: float
    status: str
    solver: str


@dataclass(frozen=True, eq=False)
class OptimumResult(ExactOptimum):
    """Result of :func:`soft_svm_optimum`: the fields of :class:`ExactOptimum` (P* is the
    minimum of λ/2 ‖w‖² (+ λ/2 b² under "augment") + (1/n) Σ c_i ξ_i, D(α) =
    λ (Σα − ½αᵀQα)) and:

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        The dual variables, 0 ≤ α_i ≤ c_i/(λn).
    coef : ndarray, shape (n,)
        Signed expansion coefficients y_i α_i: f(x) = Σ_i coef_i K(x_i, x) + b (the
        same convention as :class:`svmcore.sgd.kernel_pegasos.KernelPegasosResult`).
    w : ndarray, shape (d,) or None
        Σ_i α_i y_i x_i for the linear kernel, else None.
    b : float
        0 under "none"; Σ α_i y_i under "augment"; the SMO threshold under "free".
    X_fit, y : ndarray
    kernel : Kernel
    lam : float
    bias : {"none", "augment", "free"}
    n_iter : int
        Coordinate-descent sweeps, or SMO pair updates under "free".
    kkt_violation : float
        The largest absolute projected gradient (coordinate descent) or the maximal violating
        pair gap m(α) − M(α) (SMO), in the dual's α units.
    """

    alpha: np.ndarray
    coef: np.ndarray
    w: np.ndarray | None
    b: float
    X_fit: np.ndarray
    y: np.ndarray
    kernel: Kernel
    lam: float
    bias: str
    n_iter: int
    kkt_violation: float

    def decision_function(self, X) -> np.ndarray:
        """f(x) = Σ_i coef_i K(x_i, x) + b for each row of X, shape (m,)."""
        # The kernel refuses X with another number of features than X_fit.
        return self.kernel(check_X(X), self.X_fit) @ self.coef + self.b


def projected_gradient_norm(alpha, grad, upper) -> float:
    """max_i |projected gradient_i| of ½αᵀQα − 1ᵀα on the box 0 ≤ α ≤ upper (G = Qα − 1)."""
    pg = np.where(alpha <= 0.0, np.minimum(grad, 0.0), grad)
    pg = np.where(alpha >= upper, np.maximum(grad, 0.0), pg)
    return float(np.max(np.abs(pg)))


def coordinate_descent(Q, upper, *, tol, max_iter, polish_every=10, progress=None):
    """Minimise ½αᵀQα − 1ᵀα over 0 ≤ α ≤ upper by exact coordinate minimisation.

    Every ``polish_every`` sweeps, the free coordinates F = {0 < α_i < U_i} are solved
    for exactly with the others fixed (Q_FF α_F = 1 − Q_FB α_B, least squares); the
    step is kept when it stays in the box and lowers both the objective and the KKT
    violation. Once the sweeps
    have found which α sit at the bounds this ends the run (coordinate descent alone
    converges only linearly on an ill-conditioned Q).

    Parameters
    ----------
    Q : ndarray, shape (n, n)
        Positive semi-definite.
    upper : ndarray, shape (n,)
        The box's upper ends U_i > 0.
    tol : float
        Stop when max_i |projected gradient_i| ≤ tol.
    max_iter : int
        At most this many sweeps over the coordinates (in index order).
    polish_every : int
        Sweeps between two attempts of the exact solve on the free coordinates.
    progress : callable or None
        ``progress(sweep, max_iter)`` after each sweep (an exception raised in it stops
        the run).

    Returns
    -------
    alpha, n_sweeps, violation
    """
    n = Q.shape[0]
    alpha = np.zeros(n)
    grad = -np.ones(n)  # G = Qα − 1 at α = 0
    diag = np.diag(Q).copy()
    sweeps = 0
    while sweeps < max_iter:
        sweeps += 1
        for i in range(n):
            g, a = grad[i], alpha[i]
            if (a <= 0.0 and g >= 0.0) or (a >= upper[i] and g <= 0.0):
                continue  # already optimal in this coordinate
            # Q_ii = 0 (a zero feature vector): G_i = −1 everywhere, the minimiser is U_i.
            new = upper[i] if diag[i] <= 0.0 else min(max(a - g / diag[i], 0.0), upper[i])
            if new != a:
                alpha[i] = new
                grad += (new - a) * Q[:, i]
        grad = Q @ alpha - 1.0  # refresh: no drift from the rank-one updates
        violation = projected_gradient_norm(alpha, grad, upper)
        if violation > tol and sweeps % polish_every == 0:
            alpha, grad, violation = _polish(Q, alpha, grad, upper, violation)
        if violation <= tol:
            break
        if progress is not None:
            progress(sweeps, max_iter)
    return alpha, sweeps, projected_gradient_norm(alpha, grad, upper)


def _polish(Q, alpha, grad, upper, violation):
    """The exact solve on the free coordinates, kept only when it helps."""
    F = (alpha > 0.0) & (alpha < upper)
    if not np.any(F):
        return alpha, grad, violation
    rhs = 1.0 - Q[np.ix_(F, ~F)] @ alpha[~F]
    sol = np.linalg.lstsq(Q[np.ix_(F, F)], rhs, rcond=None)[0]
    if np.any(sol < 0.0) or np.any(sol > upper[F]):
        return alpha, grad, violation
    trial = alpha.copy()
    trial[F] = sol
    trial_grad = Q @ trial - 1.0
    trial_violation = projected_gradient_norm(trial, trial_grad, upper)
    # ½αᵀQα − 1ᵀα = ½ αᵀ(G − 1): keep the solve only if it is also no worse there
    # (a singular Q_FF makes the least-squares step inexact).
    better = trial @ (trial_grad - 1.0) <= alpha @ (grad - 1.0)
    if better and trial_violation < violation:
        return trial, trial_grad, trial_violation
    return alpha, grad, violation


def soft_svm_optimum(
    X,
    y,
    *,
    lam,
    kernel=None,
    bias="none",
    class_weight=None,
    tol=1e-10,
    max_iter=100_000,
    method="cd",
    progress=None,
) -> OptimumResult:
    """The exact minimiser of the soft-SVM objective of :func:`svmcore.pegasos` /
    :func:`svmcore.kernel_pegasos`.

    Parameters
    ----------
    X, y : arrays, shapes (n, d) and (n,)
        The run's training data, labels in {−1, +1}.
    lam : float > 0
        λ of the objective (C = 1/(λn) in scikit-learn's terms).
    kernel : None, Kernel or {"linear", "poly", "rbf"}
        None: the linear kernel (linear Pegasos). A name uses scikit-learn's defaults
        (:func:`svmcore.kernels.make_kernel`); pass a :class:`Kernel` to set parameters.
    bias : {"none", "augment", "free"}
        As in :func:`svmcore.pegasos` (kernel Pegasos is "none").
    class_weight : None, "balanced" or dict
        Per-class weights c_y on the hinge loss; not available with ``bias="free"``
        (:func:`svmcore.dual_svm` has one C for all points).
    tol : float > 0
        Coordinate descent: the largest absolute projected gradient allowed; SMO ("free"):
        the maximal violating pair gap; interior point: the certified duality gap.
    max_iter : int
        Sweeps of coordinate descent, SMO pair updates under "free", or interior-point
        steps.
    method : {"cd", "ipm"}
        The box-constrained dual (bias "none" / "augment") by coordinate descent, or — for
        the linear kernel only — by the low-rank interior point of :mod:`svmcore.optimum.box_ipm`
        (O(n d²) per step: much faster when λ is small and n large).
    progress : callable or None
        ``progress(k, max_iter)`` after each coordinate-descent sweep or interior-point
        step k (not called under ``bias="free"``, whose SMO reports nothing); an
        exception raised in it stops the run.

    Returns
    -------
    OptimumResult

    Notes
    -----
    Cost: the n × n Gram matrix (n ≤ :data:`MAX_N` = 4000; n = 3,000 holds ~150 MB)
    and, for coordinate descent, O(n²) per sweep in a Python loop over the n coordinates
    (tens of milliseconds per sweep at n = 3,000); small λ (a large box c/(λn)) needs
    many sweeps — up to ``max_iter`` = 100,000 sweeps, i.e. minutes to hours at n = 3,000.
    ``method="ipm"`` (linear kernel) takes O(n d²) per step and a few dozen steps.
    """
    lam = check_positive(lam, "lam")
    check_choice(bias, "bias", BIASES)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1)
    progress = check_progress(progress)
    X = check_X(X)
    n = X.shape[0]
    y = check_binary_y(y, n)
    if n > MAX_N:
        raise ValueError(
            f"X has n = {n} samples, more than MAX_N = {MAX_N}: the exact optimum holds "
            "n × n matrices; subsample the data"
        )
    kern = make_kernel("linear" if kernel is None else kernel)
    if bias == "free" and class_weight is not None:
        raise ValueError(
            "class_weight must be None with bias='free': the exact solver there is "
            "svmcore.dual_svm, which has one C = 1/(λn) for every point"
        )
    c = check_class_weight(class_weight, y)
    check_choice(method, "method", ("cd", "ipm"))
    if method == "ipm" and (kern.name != "linear" or bias == "free"):
        raise ValueError(
            "method='ipm' needs the linear kernel and bias 'none' or 'augment' (the dual's "
            f"Q = ZZᵀ of rank d); got kernel {kern.name!r}, bias {bias!r}"
        )
    K = None if method == "ipm" else kern(X)
    if method == "ipm":
        alpha, n_iter, violation, status, solver = linear_box_optimum(
            X, y, c, lam, bias, tol=tol, max_iter=max_iter, progress=progress
        )
        b = float(alpha @ y) if bias == "augment" else 0.0
    elif bias == "free":
        alpha, b, n_iter, violation, status, solver = _free_bias(X, y, kern, lam, n, tol, max_iter)
    else:
        Ka = K + 1.0 if bias == "augment" else K
        upper = c / (lam * n)
        alpha, n_iter, violation = coordinate_descent(
            (y[:, None] * y[None, :]) * Ka, upper, tol=tol, max_iter=max_iter, progress=progress
        )
        b = float(alpha @ y) if bias == "augment" else 0.0
        status = "optimal" if violation <= tol else "max_iter"
        solver = (
            f"dual coordinate descent (box 0 ≤ α ≤ c/(λn), no yᵀα = 0), "
            f"stopped at max |projected gradient| = {violation:.1e} ≤ tol = {tol:.0e}"
            if status == "optimal"
            else f"dual coordinate descent, stopped after {n_iter} sweeps at max |projected "
            f"gradient| = {violation:.1e} > tol = {tol:.0e}"
        )
    coef = y * alpha
    Kc = X @ (X.T @ coef) if K is None else K @ coef
    f = Kc + b
    norm2 = float(coef @ Kc) + (b * b if bias == "augment" else 0.0)
    objective = hinge_objective(f, y, norm2, lam, c)
    dual = lam * (float(alpha.sum()) - 0.5 * norm2)  # αᵀQα = ‖w‖² (+ b² under "augment")
    return OptimumResult(
        objective=objective,
        dual_objective=dual,
        duality_gap=objective - dual,
        alpha=alpha,
        coef=coef,
        w=X.T @ coef if kern.name == "linear" else None,
        b=float(b),
        X_fit=X,
        y=y,
        kernel=kern,
        lam=lam,
        bias=bias,
        n_iter=int(n_iter),
        kkt_violation=float(violation),
        status=status,
        solver=solver,
    )


def _free_bias(X, y, kern, lam, n, tol, max_iter):
    """Seed 003's soft-margin dual (with yᵀα = 0) by SMO, at C = 1/(λn)."""
    from svmcore.dual.solver import dual_svm  # dual imports the solvers: only when needed

    res = dual_svm(X, y, kernel=kern, C=1.0 / (lam * n), solver="smo", tol=tol, max_iter=max_iter)
    status = "optimal" if res.status == "optimal" else "max_iter"
    solver = (
        f"SMO on the dual with yᵀα = 0 (svmcore.dual_svm, C = 1/(λn)), maximal violating "
        f"pair gap {res.max_kkt_violation:.1e} (tol = {tol:.0e}, status {res.status})"
    )
    return res.alpha, res.b, res.n_iter, res.max_kkt_violation, status, solver


def suboptimality_curve(result, X, y, P_star):
    """P(w_t) − P* along a run's snapshots.

    Parameters
    ----------
    result : PegasosResult or KernelPegasosResult (anything with a ``trace`` whose
        snapshots hold ``objective``: the objective of the output-if-stopped-at-t)
    X, y : arrays
        The run's training data (checked against the trace's n).
    P_star : float or OptimumResult
        The exact minimum of the same objective (same λ, bias, class weights).

    Returns
    -------
    t : ndarray of int64, shape (S,)
        The snapshot iterations.
    gap : ndarray, shape (S,)
        P(w_t) − P* (≥ 0 up to the solver's tolerance).

    Raises
    ------
    ValueError
        If the data do not match the run, or some P(w_t) lies below P* by more than
        1e-9 (relative): then P* is not the minimum of this run's objective.
    """
    trace = getattr(result, "trace", None)
    if trace is None or "objective" not in trace.snapshots:
        raise ValueError("result must have a trace whose snapshots record 'objective'")
    X = check_X(X)
    y = check_binary_y(y, X.shape[0])
    n_run = trace.info.get("n", trace.info.get("m"))
    if n_run is not None and int(n_run) != y.shape[0]:
        raise ValueError(f"X, y have {y.shape[0]} samples but the run had n = {n_run}")
    if isinstance(P_star, OptimumResult):
        P_star = P_star.objective
    P_star = check_positive(P_star, "P_star", allow_zero=True)
    gap = np.asarray(trace.snapshots["objective"], dtype=float) - P_star
    if np.min(gap) < -1e-9 * max(1.0, P_star):
        raise ValueError(
            f"P_star = {P_star:.12g} is above the run's objective {P_star + np.min(gap):.12g}: "
            "it is not the minimum of this run's objective (different λ, bias, class "
            "weights or data?)"
        )
    return np.array(trace.t, dtype=np.int64), gap
