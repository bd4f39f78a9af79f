"""The lecture's generic quadratic program QP(Q, p, A, c), by a primal-dual interior point.

Seed 003 (Lin, *Linear SVM*, "Quadratic Programming") writes

    optimal u ← QP(Q, p, A, c):   min_u ½ uᵀQu + pᵀu   subject to  a_mᵀu ≥ c_m,  m = 1..M,

and notes that "many solvers treat equality & bound constraints specially for numerical
stability". :func:`solve_qp` does: it takes the rows a_mᵀu ≥ c_m (``A``, ``c``), equalities
``A_eq u = c_eq`` and bounds ``lb ≤ u ≤ ub`` separately (bounds enter the Newton system as
diagonals), in the manner of qpsolvers.

Algorithm: Mehrotra's predictor–corrector primal-dual interior-point method with an
infeasible start (Nocedal & Wright, *Numerical Optimization*, §16.6). With every
inequality written Gu − s = h, s ≥ 0, multipliers z ≥ 0, the KKT conditions are

    Qu + p − Gᵀz − A_eqᵀy = 0,   Gu − s = h,   A_eq u = c_eq,   s ∘ z = 0.

Each iteration solves one symmetric (n + k) × (n + k) system twice (predictor and
corrector), so the method suits dense problems up to about a thousand variables.
Infeasibility and unboundedness are reported from certificates read off diverging
iterates (a Farkas vector (z, y) for an infeasible problem, a recession direction d with
Qd = 0, pᵀd < 0 for an unbounded one); ``max_iter`` bounds the work in every case.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._validation import check_int, check_positive, check_progress

__all__ = ["QPProblem", "QPSolution", "solve_qp"]

_BIG = 1e6  # iterates beyond this (relative to the data) are tested for a certificate


@dataclass(frozen=True, eq=False)
class QPProblem:
    """min ½uᵀQu + pᵀu  s.t.  A u ≥ c,  A_eq u = c_eq,  lb ≤ u ≤ ub (validated arrays)."""

    Q: np.ndarray
    p: np.ndarray
    A: np.ndarray
    c: np.ndarray
    A_eq: np.ndarray
    c_eq: np.ndarray
    lb: np.ndarray
    ub: np.ndarray

    def residuals(self, x, z, y, z_box) -> tuple[float, float, float]:
        """Primal residual, dual residual and complementarity gap of a candidate point.

        Stationarity is ``Qx + p = Aᵀz + A_eqᵀy + z_box`` (z ≥ 0; z_box ≥ 0 at an active
        lower bound and ≤ 0 at an active upper bound).
        """
        rd = self.Q @ x + self.p - self.A.T @ z - self.A_eq.T @ y - z_box
        viol = [
            np.maximum(self.c - self.A @ x, 0.0),
            np.abs(self.A_eq @ x - self.c_eq),
            np.maximum(self.lb - x, 0.0),
            np.maximum(x - self.ub, 0.0),
        ]
        primal = max((float(v.max()) for v in viol if v.size), default=0.0)
        dual = float(np.abs(rd).max()) if rd.size else 0.0
        if z.size:
            dual = max(dual, float(np.maximum(-z, 0.0).max()))
        zl, zu = np.maximum(z_box, 0.0), np.maximum(-z_box, 0.0)
        gap = float(np.abs(z @ (self.A @ x - self.c)))
        fl, fu = np.isfinite(self.lb), np.isfinite(self.ub)
        gap += float(
            np.abs(zl[fl] @ (x[fl] - self.lb[fl])) + np.abs(zu[fu] @ (self.ub[fu] - x[fu]))
        )
        return primal, dual, gap


@dataclass(frozen=True, eq=False)
class QPSolution:
    """Solution of :func:`solve_qp` (fields in the manner of qpsolvers' ``Solution``).

    Attributes
    ----------
    x : ndarray (n,)
        The minimiser (the last iterate unless ``status == "optimal"``).
    z : ndarray (M,)
        Multipliers of A u ≥ c (≥ 0).
    y : ndarray (k,)
        Multipliers of A_eq u = c_eq.
    z_box : ndarray (n,)
        Multipliers of the bounds: ≥ 0 at an active lower bound, ≤ 0 at an active upper one.
    objective : float
        ½xᵀQx + pᵀx.
    primal_residual, dual_residual, duality_gap : float
        Largest constraint violation, largest stationarity residual, and sᵀz.
    iterations : int
    status : {"optimal", "infeasible", "unbounded", "max_iter"}
    certificate : ndarray or None
        For "unbounded" a direction d (Qd ≈ 0, pᵀd < 0, feasible recession); for
        "infeasible" the stacked Farkas multipliers (z, y, z_box).
    history : dict of str to ndarray
        Per iterate (row 0 is the starting point): "x" (k+1, n), "y" (k+1, k_eq),
        "objective",
        "primal_residual", "dual_residual", "mu", "step".
    problem : QPProblem
    """

    x: np.ndarray
    z: np.ndarray
    y: np.ndarray
    z_box: np.ndarray
    objective: float
    primal_residual: float
    dual_residual: float
    duality_gap: float
    iterations: int
    status: str
    certificate: np.ndarray | None = None
    history: dict = field(default_factory=dict)
    problem: QPProblem | None = None

    @property
    def found(self) -> bool:
        """True when the status is "optimal"."""
        return self.status == "optimal"

    def kkt_residuals(self) -> tuple[float, float, float]:
        """Recompute (primal residual, dual residual, complementarity) from x and multipliers."""
        return self.problem.residuals(self.x, self.z, self.y, self.z_box)

    def is_optimal(self, tol: float = 1e-6) -> bool:
        """Whether the recomputed KKT residuals are all ≤ tol (relative to the data)."""
        prob = self.problem
        scale = 1.0 + max(np.abs(prob.p).max(initial=0.0), np.abs(prob.Q).max(initial=0.0))
        return all(r <= tol * scale * (1 + abs(self.objective)) for r in self.kkt_residuals())


#: Largest magnitude of any QP datum (products of them must stay finite).
MAX_ENTRY = 1e100


def _check_size(a, name):
    big = float(np.abs(a[np.isfinite(a)]).max(initial=0.0))
    if big > MAX_ENTRY:
        raise ValueError(
            f"{name} has an entry of magnitude {big:.3g}; entries must be at most "
            f"{MAX_ENTRY:.0e} in absolute value (the interior point multiplies them, which "
            "would overflow double precision): rescale the problem"
        )


def _matrix(a, name, shape1):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1 and shape1 is not None and a.shape[0] == shape1:
        a = a[None, :]
    if a.ndim != 2 or (shape1 is not None and a.shape[1] != shape1):
        raise ValueError(f"{name} must be a 2-D array with {shape1} columns, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    _check_size(a, name)
    return a


def _vector(v, name, n, *, allow_inf=None, default=0.0):
    if v is None:
        return np.full(n, default)
    v = np.asarray(v, dtype=np.float64)
    if v.ndim == 0:
        v = np.full(n, float(v))
    if v.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {v.shape}")
    if np.any(np.isnan(v)) or (allow_inf is None and not np.all(np.isfinite(v))):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    if allow_inf is not None and np.any(v == -allow_inf):
        raise ValueError(f"{name} must not contain {-allow_inf}")
    _check_size(v, name)
    return v


def _problem(Q, p, A, c, A_eq, c_eq, lb, ub) -> QPProblem:
    Q = _matrix(Q, "Q", None)
    n = Q.shape[0]
    if Q.shape != (n, n):
        raise ValueError(f"Q must be square, got shape {Q.shape}")
    if not np.allclose(Q, Q.T, rtol=1e-10, atol=1e-12 * (1 + np.abs(Q).max(initial=0))):
        raise ValueError("Q must be symmetric")
    p = _vector(p, "p", n)
    if (A is None) != (c is None):
        raise ValueError("A and c must be given together (rows a_mᵀu ≥ c_m)")
    A = np.zeros((0, n)) if A is None else _matrix(A, "A", n)
    c = _vector(c, "c", A.shape[0]) if A.shape[0] else np.zeros(0)
    if (A_eq is None) != (c_eq is None):
        raise ValueError("A_eq and c_eq must be given together (A_eq u = c_eq)")
    A_eq = np.zeros((0, n)) if A_eq is None else _matrix(A_eq, "A_eq", n)
    c_eq = _vector(c_eq, "c_eq", A_eq.shape[0]) if A_eq.shape[0] else np.zeros(0)
    lb = _vector(lb, "lb", n, allow_inf=-np.inf, default=-np.inf)
    ub = _vector(ub, "ub", n, allow_inf=np.inf, default=np.inf)
    if np.any(lb > ub):
        k = int(np.argmax(lb > ub))
        raise ValueError(f"lb must be <= ub; lb[{k}] = {lb[k]} > ub[{k}] = {ub[k]}")
    return QPProblem(Q, p, A, c, A_eq, c_eq, lb, ub)


def solve_qp(
    Q,
    p,
    A=None,
    c=None,
    *,
    A_eq=None,
    c_eq=None,
    lb=None,
    ub=None,
    tol=1e-9,
    max_iter=100,
    progress=None,
) -> QPSolution:
    """Solve min ½uᵀQu + pᵀu  s.t.  A u ≥ c,  A_eq u = c_eq,  lb ≤ u ≤ ub.

    Parameters
    ----------
    Q : array (n, n)
        Symmetric positive semi-definite.
    p : array (n,)
    A, c : array (M, n), (M,), optional
        Lin's rows a_mᵀu ≥ c_m.
    A_eq, c_eq : array (k, n), (k,), optional
        Equality constraints.
    lb, ub : array (n,) or scalar, optional
        Bounds (±inf for none).
    tol : float
        Relative tolerance on the primal and dual residuals and on the gap.
    max_iter : int
        At most this many interior-point iterations (status "max_iter" beyond).
    progress : callable or None
        ``progress(k, max_iter)`` after each iteration k = 0, 1, …; an exception raised
        in it stops the solve (it propagates).

    Returns
    -------
    QPSolution

    Notes
    -----
    Cost per iteration: one dense (N + k) × (N + k) inverse for N variables and k
    equalities, O((N + k)³) time and a few (N + k)² doubles of memory.
    """
    prob = _problem(Q, p, A, c, A_eq, c_eq, lb, ub)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1, high=100_000)
    progress = check_progress(progress)
    # diverging iterates overflow on purpose: the status reports them, not warnings
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _interior_point(prob, tol, max_iter, progress)


def _interior_point(prob: QPProblem, tol: float, max_iter: int, progress=None) -> QPSolution:
    """Mehrotra's predictor–corrector on a validated problem (see :func:`solve_qp`)."""
    Q, p, A, c, A_eq, c_eq = prob.Q, prob.p, prob.A, prob.c, prob.A_eq, prob.c_eq
    n, m, k = Q.shape[0], A.shape[0], A_eq.shape[0]
    L = np.flatnonzero(np.isfinite(prob.lb))
    U = np.flatnonzero(np.isfinite(prob.ub))
    nL = L.shape[0]
    M = m + nL + U.shape[0]
    h = np.concatenate([c, prob.lb[L], -prob.ub[U]])

    def Gx(x):  # stacked inequality operator: [A x; x_L; −x_U]
        return np.concatenate([A @ x, x[L], -x[U]])

    def GTz(z):
        out = A.T @ z[:m]
        out[L] += z[m : m + nL]
        out[U] -= z[m + nL :]
        return out

    scale_p = 1.0 + max(
        np.abs(p).max(initial=0.0), np.abs(h).max(initial=0.0), np.abs(c_eq).max(initial=0.0)
    )
    scale_d = 1.0 + np.abs(p).max(initial=0.0) + np.abs(Q).max(initial=0.0)
    data_scale = (
        1.0
        + np.abs(Q).max(initial=0)
        + np.abs(p).max(initial=0)
        + np.abs(h).max(initial=0)
        + np.abs(A).max(initial=0)
    )

    # start: u inside finite bounds, s ≥ 1 away from the boundary, z = 1
    x = np.clip(np.zeros(n), prob.lb, prob.ub)
    both = np.isfinite(prob.lb) & np.isfinite(prob.ub)
    x[both] = 0.5 * (prob.lb[both] + prob.ub[both])
    s = np.maximum(Gx(x) - h, 1.0)
    z = np.ones(M)
    y = np.zeros(k)
    hist = {
        "x": [],
        "y": [],
        "objective": [],
        "primal_residual": [],
        "dual_residual": [],
        "mu": [],
        "step": [],
    }
    status, certificate, it = "max_iter", None, 0
    step = 0.0
    reg = 1e-12 * scale_d

    def residuals():
        rd = Q @ x + p - GTz(z) - A_eq.T @ y
        rp = Gx(x) - s - h
        re = A_eq @ x - c_eq
        return rd, rp, re

    while True:
        if progress is not None:
            progress(it, max_iter)
        rd, rp, re = residuals()
        mu = float(s @ z) / M if M else 0.0
        obj = float(0.5 * x @ Q @ x + p @ x)
        pres = max(np.abs(rp).max(initial=0.0), np.abs(re).max(initial=0.0)) / scale_p
        dres = np.abs(rd).max(initial=0.0) / scale_d
        for key, val in (
            ("x", x.copy()),
            ("y", y.copy()),
            ("objective", obj),
            ("primal_residual", pres),
            ("dual_residual", dres),
            ("mu", mu),
            ("step", step),
        ):
            hist[key].append(val)
        if pres <= tol and dres <= tol and mu <= tol * (1.0 + abs(obj)):
            status = "optimal"
            break
        # certificates once the iterates diverge
        xn = np.abs(x).max(initial=0.0)
        if xn > _BIG * data_scale:
            d = x / xn
            if (
                p @ d < -1e-9
                and np.abs(Q @ d).max(initial=0) <= 1e-6 * scale_d
                and Gx(d).min(initial=0.0) >= -1e-6
                and np.abs(A_eq @ d).max(initial=0) <= 1e-6
            ):
                status, certificate = "unbounded", d
                break
        zn = max(np.abs(z).max(initial=0.0), np.abs(y).max(initial=0.0))
        if zn > _BIG * data_scale:
            zz, yy = z / zn, y / zn
            ray = GTz(zz) + A_eq.T @ yy
            if h @ zz + c_eq @ yy > 1e-9 and np.abs(ray).max(initial=0.0) <= 1e-6 * data_scale:
                status, certificate = "infeasible", np.concatenate([zz, yy])
                break
        if it >= max_iter:
            break
        it += 1
        # Newton system  [H  A_eqᵀ; A_eq  0] [dx; −dy] = [r1; −re],  H = Q + GᵀWG
        w = z / s
        H = Q + (A.T * w[:m]) @ A
        H[L, L] += w[m : m + nL]
        H[U, U] += w[m + nL :]
        H[np.diag_indices(n)] += reg
        KKT = np.zeros((n + k, n + k))
        KKT[:n, :n] = H
        KKT[:n, n:] = A_eq.T
        KKT[n:, :n] = A_eq
        KKT[n:, n:] -= reg * np.eye(k)
        try:
            Kinv = np.linalg.inv(KKT)
        except np.linalg.LinAlgError:
            Kinv = np.linalg.pinv(KKT)

        # predictor (affine scaling, rc = s∘z), then Mehrotra's corrector with
        # σ = (μ_aff/μ)³ and the second-order term ds_aff∘dz_aff
        rc = s * z
        for corrector in (False, True):
            rhs = np.concatenate([-rd - GTz((rc + z * rp) / s), -re])
            sol = Kinv @ rhs
            for _ in range(2):  # iterative refinement: the system grows ill-conditioned
                sol += Kinv @ (rhs - KKT @ sol)
            dx, dy = sol[:n], -sol[n:]
            Gdx = Gx(dx)
            dz = -(rc + z * rp) / s - w * Gdx
            ds = Gdx + rp
            if not corrector:
                a_aff = min(_max_step(s, ds), _max_step(z, dz))
                mu_aff = float((s + a_aff * ds) @ (z + a_aff * dz)) / M if M else 0.0
                sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
                rc = s * z + ds * dz - sigma * mu
        step = min(1.0, 0.99 * min(_max_step(s, ds), _max_step(z, dz)))
        new = (x + step * dx, y + step * dy, z + step * dz, s + step * ds)
        if not all(np.all(np.isfinite(v)) for v in new):
            status = "max_iter"  # the Newton step overflowed: keep the last finite iterate
            break
        x, y, z, s = new

    zbox = np.zeros(n)
    zbox[L] += z[m : m + nL]
    zbox[U] -= z[m + nL :]
    rd, rp, re = residuals()
    history = {key: np.asarray(val) for key, val in hist.items()}
    return QPSolution(
        x=x,
        z=z[:m].copy(),
        y=y,
        z_box=zbox,
        objective=float(0.5 * x @ Q @ x + p @ x),
        primal_residual=float(max(np.abs(rp).max(initial=0.0), np.abs(re).max(initial=0.0))),
        dual_residual=float(np.abs(rd).max(initial=0.0)),
        duality_gap=float(s @ z),
        iterations=it,
        status=status,
        certificate=certificate,
        history=history,
        problem=prob,
    )


def _max_step(v, dv) -> float:
    """Largest a in (0, 1] with v + a·dv ≥ 0."""
    neg = dv < 0
    if not neg.any():
        return 1.0
    return float(min(1.0, (-v[neg] / dv[neg]).min()))
