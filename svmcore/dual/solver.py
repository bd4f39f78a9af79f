"""The dual SVM of seed 003, hard and soft margin, with any kernel.

Seed 003 (Lin, *Dual SVM*, *Kernel SVM*, *Soft-Margin SVM*) derives the dual

    min_α ½ αᵀQα − 1ᵀα   subject to  yᵀα = 0,  0 ≤ α_n (≤ C for the soft margin),
    Q_nm = y_n y_m K(x_n, x_m),

then recovers w = Σ α_n y_n z_n, b = y_s − Σ α_n y_n K(x_n, x_s) from a free support
vector s (0 < α_s < C), and classifies by g(x) = sign(Σ α_n y_n K(x_n, x) + b).

:func:`dual_svm` solves it with one of four solvers, each returning a
:class:`~svmcore.dual.result.DualSolution` from which
:func:`~svmcore.dual.result.build_result` builds the :class:`DualSVMResult`:

* ``solver="auto"`` (the default): the method that suits the problem
  (:mod:`svmcore.dual.auto`: an O(n d²) interior point for the linear kernel with d ≤ n/2,
  SMO then an exact active-set method on the whole Gram matrix when it fits the cache,
  SMO with shrinking otherwise and for the hard margin);
* ``solver="smo"``: libsvm's SMO (:mod:`svmcore.dual.smo.fast`, ``engine="fast"``) or the plain
  loop of the text (:mod:`svmcore.dual.smo.textbook`, ``engine="textbook"``);
* ``solver="qp"``: the lecture's generic QP(Q, p, A, c) (:mod:`svmcore.dual.qp_path`);
* ``solver="lowrank"``: a low-rank interior point for the linear kernel
  (:mod:`svmcore.dual.lowrank_ipm`).

b is averaged over the free support vectors (libsvm's midpoint rule when none is free).
A hard margin (C=None) on data that no hyperplane separates in the kernel's feature space
has an unbounded dual: the solvers detect it and raise
:class:`~svmcore.exceptions.NotSeparableError`. A result is "optimal" only when it passes
its own KKT check (see :class:`DualSVMResult`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmcore._validation import (
    check_binary_y,
    check_bool,
    check_choice,
    check_int,
    check_penalty,
    check_positive,
    check_X,
)
from svmcore.dual.auto import auto_solution, default_max_iter
from svmcore.dual.lowrank_ipm import lowrank_solution
from svmcore.dual.qp_path import QP_MAX_N, solve_dual_qp
from svmcore.dual.result import DualSVMResult, KKTReport, build_result, gap_m_M
from svmcore.dual.separability import check_separable, not_separable_error
from svmcore.dual.smo.fast import smo
from svmcore.dual.smo.textbook import smo_textbook
from svmcore.dual.smo.working_set import Diverged
from svmcore.kernels import make_kernel
from svmcore.trace import MAX_SNAPSHOTS, MAX_STEPS

__all__ = ["QP_MAX_N", "DualSVMResult", "KKTReport", "dual_svm"]

#: Largest problem the textbook SMO accepts (it forms the n × n matrix Q).
TEXTBOOK_MAX_N = 3000

#: Largest ``tol`` :func:`dual_svm` accepts (m(α) − M(α) = 2 at α = 0).
MAX_TOL = 1.0


def dual_svm(
    X,
    y,
    *,
    kernel,
    C=None,
    gamma=1.0,
    degree=3,
    coef0=1.0,
    solver="auto",
    tol=1e-3,
    max_iter=None,
    cache_size=64.0,
    shrinking=True,
    working_set_size=None,
    n_snapshots=100,
    n_steps=300,
    engine="fast",
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
        None: hard margin (α ≥ 0). A number: soft margin (0 ≤ α ≤ C), at most
        :data:`svmcore._validation.MAX_C` (beyond it C Σξ overflows double precision).
    solver : {"auto", "smo", "qp", "lowrank"}
        "auto" (the default) picks by the problem (:mod:`svmcore.dual.auto`); it is "smo"
        whenever ``engine="textbook"`` or ``working_set_size`` is given. "smo" is libsvm's
        SMO, "qp" the lecture's generic QP, "lowrank" (linear kernel only) the low-rank
        interior point of :mod:`svmcore.dual.lowrank_ipm`, O(n d²) per iteration.
    tol : float in (0, 1]
        SMO and "auto": stop when the maximal violating pair gap m(α) − M(α) ≤ tol
        (libsvm's eps), checked on the gradient Qα − 1 computed afresh.
        QP / lowrank: the interior point runs to the relative residual min(tol, 1e-8), and
        the result must pass m(α) − M(α) ≤ max(tol, 1e-7) (lowrank: 1e-6) to be "optimal".
    max_iter : int or None
        SMO pair updates, default max(100 000, 100 n) (for "auto" the same default, for
        its SMO's pair updates or its interior-point iterations and any polishing pair
        updates), or IPM iterations (default 100; the QP's SMO polish then gets up to
        1000 × max_iter pair updates).
        A run that stops at it has status "max_iter", and its message says how far it got
        and how to go on.
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
        first and the last state) and the first ``n_steps`` SMO steps.
    engine : {"fast", "textbook"}
        SMO only: ``"textbook"`` runs the plain loop of :mod:`svmcore.dual.smo.textbook` (one
        pair per iteration on the full Q, no cache, shrinking, decomposition or Newton
        steps; n ≤ 3000); it ends at the same optimum as ``"fast"``.

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
        C = check_penalty(C)
    check_choice(solver, "solver", ["auto", "smo", "qp", "lowrank"])
    check_choice(engine, "engine", ["fast", "textbook"])
    requested = solver
    if solver == "auto" and (engine == "textbook" or working_set_size is not None or C is None):
        solver = "smo"  # SMO's own options, and the hard margin: SMO (svmcore.dual.auto)
    if solver == "lowrank" and kern.name != "linear":
        raise ValueError(
            f"solver='lowrank' needs the linear kernel (Q = ZZᵀ of rank d), got {kern}; "
            "use solver='smo'"
        )
    if engine == "textbook" and (solver != "smo" or n > TEXTBOOK_MAX_N):
        raise ValueError(
            f"engine='textbook' is plain SMO on the full n × n Q: it needs solver='smo' and "
            f"n <= {TEXTBOOK_MAX_N}, got solver={solver!r}, n = {n}"
        )
    tol = check_positive(tol, "tol")
    if tol > MAX_TOL:
        raise ValueError(
            f"tol must be at most {MAX_TOL:g}, got {tol:.3g}: m(α) − M(α) is 2 at the start "
            "α = 0, so a larger tol stops before the first step (w = 0, no classifier)"
        )
    cache_size = check_positive(cache_size, "cache_size")
    n_snapshots = check_int(n_snapshots, "n_snapshots", low=2, high=MAX_SNAPSHOTS)
    n_steps = check_int(n_steps, "n_steps", low=0, high=MAX_STEPS)
    if working_set_size is not None:
        working_set_size = check_int(working_set_size, "working_set_size", low=2)
    check_bool(shrinking, "shrinking")
    Cval = np.inf if C is None else C
    _check_kernel_range(X, kern, C)
    if C is None:
        check_separable(X, y, kern)
    auto_method = None
    if solver == "auto":
        max_iter = default_max_iter(n) if max_iter is None else max_iter
        max_iter = check_int(max_iter, "max_iter", low=1, high=10**9)
        sol, auto_method = auto_solution(
            X,
            y,
            kern,
            Cval,
            tol=tol,
            max_iter=max_iter,
            cache_size=cache_size,
            n_snapshots=n_snapshots,
            n_steps=n_steps,
        )
    elif solver == "smo":
        if max_iter is None:
            max_iter = default_max_iter(n)
        max_iter = check_int(max_iter, "max_iter", low=1, high=10**9)
        try:
            if engine == "textbook":
                sol = smo_textbook(
                    kern(X),
                    y,
                    Cval,
                    tol=tol,
                    max_iter=max_iter,
                    n_snapshots=n_snapshots,
                    n_steps=n_steps,
                )
            else:
                sol = smo(
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
        except Diverged as exc:
            raise not_separable_error(
                kern, f"the hard-margin dual is unbounded (Σα reached {exc.sum_alpha:.3g})"
            ) from None
    elif solver == "lowrank":
        max_iter = 100 if max_iter is None else check_int(max_iter, "max_iter", low=1, high=10_000)
        sol = lowrank_solution(X, y, Cval, tol=tol, max_iter=max_iter, n_snapshots=n_snapshots)
        if sol is None:
            raise not_separable_error(kern, "the hard-margin dual is unbounded")
    else:
        if n > QP_MAX_N:
            raise ValueError(
                f"solver='qp' stores n × n matrices and accepts n <= {QP_MAX_N}, "
                f"got n = {n}; use solver='smo'"
            )
        max_iter = 100 if max_iter is None else check_int(max_iter, "max_iter", low=1, high=100_000)
        sol = solve_dual_qp(X, y, kern, C, tol=tol, max_iter=max_iter)
    if C is None and sol.status != "optimal" and sol.alpha.sum() > 1e8:
        raise not_separable_error(
            kern, f"the multipliers grew to Σα = {sol.alpha.sum():.3g} without converging"
        )
    if sol.status == "max_iter" and solver in ("auto", "smo"):
        sol = replace(sol, message=_max_iter_message(sol, y, Cval, tol, max_iter, n, requested))
    if sol.status != "optimal":
        sol = replace(sol, message=(sol.message + _precision_note(X, kern)).strip())
    info = {"n": n, "C": C, "kernel": str(kern), "tol": tol, "solver": requested, "engine": engine}
    if auto_method is not None:
        info["auto_method"] = auto_method
    return build_result(X, y, kern, C, tol, requested, sol, info, engine=engine)


def _max_iter_message(sol, y, C, tol, max_iter, n, solver) -> str:
    """Why a run stopped short, how far it got and how to go on."""
    gap = gap_m_M(-y * sol.G, sol.alpha, y, C)
    default = default_max_iter(n)
    which = "the default max(100 000, 100 n)" if max_iter == default else "the max_iter given"
    return (
        f"stopped at max_iter = {max_iter:,} iterations ({which}) with m(α) − M(α) = "
        f"{gap:.3g} > tol = {tol:g}: α is not optimal. Pass a larger max_iter (e.g. "
        f"max_iter={10 * max_iter}) or a larger tol"
        + (", or solver='auto'" if solver != "auto" else "")
    )


def _precision_note(X, kern) -> str:
    """Why a polynomial kernel may defeat double precision: ζ lost beside γxᵀx'."""
    if kern.name != "poly":
        return ""
    big = kern.gamma * float(np.einsum("ij,ij->i", X, X).max())
    if kern.coef0 > 1e-8 * big:
        return ""
    return (
        f" The polynomial kernel's γxᵀx' reaches {big:.3g} beside ζ = {kern.coef0:.3g}: "
        f"(ζ + γxᵀx')^{kern.degree} loses ζ in double precision (entries up to "
        f"{big**kern.degree:.3g}); rescale X (e.g. to [−1, 1]) or lower γ."
    )


def _check_kernel_range(X, kern, C) -> None:
    """Refuse kernels whose values, or C times them, overflow double precision.

    The solvers form Qα with 0 ≤ α ≤ C: |Qα| ≤ C · n · max K(x, x) must stay finite.
    """
    sq = np.einsum("ij,ij->i", X, X)  # ‖x‖² (X is checked: finite)
    if kern.name == "rbf":
        diag_max = 1.0  # K(x, x) = 1
        # the solvers expand −γ‖x − z‖² = −γ‖x‖² + 2γxᵀz − γ‖z‖²: each term must be finite
        big_sq = 4.0 * float(sq.max())
        if kern.gamma * big_sq > 1e300:
            raise ValueError(
                f"gamma must be at most {1e300 / big_sq:.3g} for these data (gamma = "
                f"{kern.gamma:.3g}): γ‖x − x′‖² would overflow double precision"
            )
    else:
        if kern.name == "linear":
            diag = sq
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                diag = kern.diag(X)
        if not np.all(np.isfinite(diag)):
            row = int(np.argmax(~np.isfinite(diag)))
            raise ValueError(
                f"the kernel {kern} overflows double precision: K(x, x) is not finite at row "
                f"{row}; rescale X or lower gamma or the degree"
            )
        diag_max = float(diag.max())
    if C is not None:
        big = diag_max * X.shape[0]
        if C * big > 1e300:
            raise ValueError(
                f"C must be at most {1e300 / big:.3g} for these data and kernel (C = {C:.3g}): "
                f"Qα reaches C · n · max K(x, x) = C · {big:.3g}, beyond double precision"
            )
