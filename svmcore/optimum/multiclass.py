"""P*, the exact minimum of multiclass Pegasos' objective (Crammer–Singer, seed 002 §2.3).

:func:`svmcore.multiclass_pegasos` minimises (SSBD §17.2 with Ψ and Δ)

    F(W) = λ/2 ‖W‖² + (1/n) Σ_i max_{y′} [Δ(y′, y_i) + ⟨w_{y′} − w_{y_i}, φ̃(x_i)⟩],

φ̃(x) = (x, 1) with ``bias=True`` (kernelized: K̃ = K + 1). Writing each max as a maximum
over the simplex, max_{y′} z_{y′} = max_{μ_i ∈ Δ_k} Σ_{y′} μ_{iy′} z_{y′}, and minimising over W
gives w_c = Σ_j α_{jc} φ̃(x_j) with α_{jc} = ([c = y_j] − μ_{jc})/(λn), and the dual

    D(μ) = (1/n) Σ_i Σ_c μ_{ic} Δ(c, y_i) − λ/2 ‖W(μ)‖²,   μ_i ∈ simplex,

with F* = max D (strong duality). The duality gap splits into one term per point,

    F(W(μ)) − D(μ) = (1/n) Σ_i [max_c G_{ic} − Σ_c μ_{ic} G_{ic}],   G_{ic} = Δ(c, y_i) + F_{ic},

where F_{ic} = ⟨w_c, φ̃(x_i)⟩ are the scores, so it is zero exactly when every μ_i sits on
the argmax of its G_i. The solver is exact block coordinate ascent (Crammer & Singer
2001; Keerthi et al. 2008's sequential dual method): D is quadratic in the block μ_i with
Hessian −K̃_ii/(λn²) I, so its maximiser over the simplex is the Euclidean projection

    μ_i ← Π_simplex(μ_i + (λn/K̃_ii) G_i),

taken in turn for the points whose own gap term is largest, until the certified gap
F − D is at most ``tol``.

Class weights (seed 002 §2.1, the run's ``class_weight``): the loss of point i is
c_i max_{y′} z_{iy′} with c_i = c_{y_i} > 0, the maximum over the *scaled* simplex
{μ_i ≥ 0, Σ_c μ_{ic} = c_i} (the per-example bound of the weighted hinge's dual, as the
box 0 ≤ α_i ≤ c_i C of the binary soft-SVM). Then α_{jc} = (c_j [c = y_j] − μ_{jc})/(λn),
D(μ) is as above, the gap terms are c_i max_c G_{ic} − Σ_c μ_{ic} G_{ic} and the block step
projects onto the scaled simplex, c_i Π_simplex((μ_i + (λn/K̃_ii) G_i)/c_i).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore._validation import check_int, check_positive
from svmcore.kernels import Kernel, make_kernel
from svmcore.optimum.soft_svm import ExactOptimum
from svmcore.sgd.multiclass_common import generalized_hinge, prepare_multiclass

__all__ = [
    "MAX_N",
    "MulticlassOptimumResult",
    "dual_gap",
    "face_solve",
    "multiclass_svm_optimum",
    "project_simplex",
]

#: The largest n solved here: the solver holds the n × n matrix K̃.
MAX_N = 4000


@dataclass(frozen=True, eq=False)
class MulticlassOptimumResult(ExactOptimum):
    """Result of :func:`multiclass_svm_optimum`: the fields of
    :class:`svmcore.optimum.soft_svm.ExactOptimum` (P* = F(W(μ)), D(μ) as in the module docstring)
    and:

    Attributes
    ----------
    alpha : ndarray, shape (n, k)
        w_c = Σ_j alpha[j, c] φ̃(x_j) (the convention of
        :class:`svmcore.sgd.multiclass_pegasos.MulticlassPegasosResult`).
    W : ndarray, shape (k, d′) or None
        The linear version's weights (last column the offset with ``bias``); None with a kernel.
    classes_ : ndarray, shape (k,)
    lam : float
    bias : bool
    kernel : Kernel or None
    n_iter : int
        Block updates made.
    """

    alpha: np.ndarray
    W: np.ndarray | None
    classes_: np.ndarray
    lam: float
    bias: bool
    kernel: Kernel | None
    n_iter: int


def project_simplex(v) -> np.ndarray:
    """The Euclidean projection of ``v`` (shape (k,)) onto {μ ≥ 0, Σ μ = 1} (sort-based).

    The largest r with u_r − (Σ_{s≤r} u_s − 1)/r > 0 (u sorted decreasingly) always exists
    (r = 1 qualifies: u_1 − (u_1 − 1) = 1); when |v| is so large that the 1 is lost to
    rounding, the same projection is taken of v − max v (the projection is invariant
    under adding a constant to every entry), where it cannot be lost.
    """
    v = np.asarray(v, dtype=float)
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    ks = np.arange(1, v.shape[0] + 1)
    found = np.flatnonzero(u - css / ks > 0)
    if found.size == 0 or not np.all(np.isfinite(css)):
        v = v - u[0]
        u = u - u[0]
        css = np.cumsum(u) - 1.0
        found = np.flatnonzero(u - css / ks > 0)
    r = int(found[-1])
    return np.maximum(v - css[r] / (r + 1), 0.0)


def multiclass_svm_optimum(
    X,
    y,
    *,
    lam,
    kernel=None,
    delta=None,
    bias=True,
    class_weight=None,
    tol=1e-9,
    max_iter=1_000_000,
) -> MulticlassOptimumResult:
    """The exact minimiser of :func:`svmcore.multiclass_pegasos`' objective.

    Parameters
    ----------
    X, y : arrays, shapes (n, d) and (n,)
        The run's training data (labels of any sortable values, at least two distinct).
    lam : float > 0
        λ of the objective (C = 1/(λn) in scikit-learn's LinearSVC(multi_class=
        "crammer_singer") with the 0-1 Δ).
    kernel : None, Kernel or {"linear", "poly", "rbf"}
        None: the linear version (W returned). Otherwise K̃ = K + ``bias``.
    delta : array (k, k) or None
        Δ[y′, y] (None: the 0-1 loss).
    bias : bool
        Append a constant 1 to x (the offsets are regularized), as the run does.
    class_weight : None, "balanced" or dict
        The run's class weights c_y (seed 002 §2.1): the weighted hinge c_{y_i} max[…].
    tol : float > 0
        Stop when the certified duality gap F − D is at most ``tol`` (objective units).
    max_iter : int
        At most this many block updates.

    Returns
    -------
    MulticlassOptimumResult
    """
    data = prepare_multiclass(X, y, delta, bias, class_weight)
    lam = check_positive(lam, "lam")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1)
    n, k = data.X.shape[0], data.k
    if n > MAX_N:
        raise ValueError(
            f"X has n = {n} samples, more than MAX_N = {MAX_N}: the exact optimum holds "
            "the n × n matrix K̃; subsample the data"
        )
    kern = None if kernel is None else make_kernel(kernel)
    Dy = data.D.T[data.y_idx]  # (n, k): Δ(c, y_i)
    cw = data.weights  # c_i = c_{y_i} (ones when unweighted)
    mu = np.zeros((n, k))
    mu[np.arange(n), data.y_idx] = cw  # μ_i = c_i e_{y_i}: α = 0, W = 0
    alpha = np.zeros((n, k))
    if kern is None:  # scores from W (k, d′): O(k d′) per block update
        Z, W = data.Xa, np.zeros((k, data.Xa.shape[1]))
        diag = np.einsum("ij,ij->i", Z, Z)
    else:  # scores F = K̃ α kept for all points: O(n k) per block update
        K = kern(data.X) + float(data.bias)
        F = np.zeros((n, k))
        diag = np.diag(K).copy()
    Y = np.zeros((n, k))
    Y[np.arange(n), data.y_idx] = cw
    n_iter, n_pass, gap = 0, 0, np.inf
    while n_iter < max_iter:
        G = Dy + (Z @ W.T if kern is None else F)
        per_point = cw * G.max(axis=1) - np.einsum("ic,ic->i", mu, G)  # ≥ 0, n × the gap
        gap = float(per_point.sum()) / n
        n_pass += 1
        # once the faces settle, solve on them exactly (tried at passes 4, 8, 16, …)
        if gap > tol and n_pass >= 4 and n_pass & (n_pass - 1) == 0:
            Kf = Z @ Z.T if kern is None else K
            trial = face_solve(mu, Dy, Kf, lam, Y, cw)
            trial_gap = np.inf if trial is None else dual_gap(trial, Dy, Kf, lam, Y, cw)
            if trial_gap < gap:
                mu, gap = trial, trial_gap
                alpha = (Y - mu) / (lam * n)
                if kern is None:
                    W = alpha.T @ Z
                else:
                    F = K @ alpha
                G = Dy + (Z @ W.T if kern is None else F)
                per_point = cw * G.max(axis=1) - np.einsum("ic,ic->i", mu, G)
        if gap <= tol:
            break
        # one pass over the points that still contribute, the worst first
        order = np.argsort(-per_point)
        order = order[per_point[order] > 1e-3 * tol]
        for i in order[: max_iter - n_iter].tolist():
            g = Dy[i] + (W @ Z[i] if kern is None else F[i])
            c_i = cw[i]
            if diag[i] > 0.0:
                v = mu[i] + (lam * n / diag[i]) * g
                new = project_simplex(v) if c_i == 1.0 else c_i * project_simplex(v / c_i)
            else:  # φ̃(x_i) = 0: D is linear in μ_i, the maximiser is a vertex
                new = np.zeros(k)
                new[int(np.argmax(g))] = c_i
            step = new - mu[i]
            if np.any(step != 0.0):
                mu[i] = new
                d_alpha = -step / (lam * n)
                alpha[i] += d_alpha
                if kern is None:
                    W += np.outer(d_alpha, Z[i])
                else:
                    F += np.outer(K[:, i], d_alpha)
            n_iter += 1
    # fresh scores: no drift from the rank-one updates
    F = data.Xa @ (alpha.T @ data.Xa).T if kern is None else K @ alpha
    norm2 = float(np.sum(alpha * F))
    objective = 0.5 * lam * norm2 + float(np.mean(cw * generalized_hinge(F, data.y_idx, data.D)))
    dual = float(np.sum(mu * Dy)) / n - 0.5 * lam * norm2
    gap = objective - dual
    status = "optimal" if gap <= tol else "max_iter"
    solver = (
        "block coordinate ascent on the Crammer–Singer dual (one simplex per point), "
        f"certified duality gap {gap:.1e} " + ("≤" if status == "optimal" else ">") + f" tol = "
        f"{tol:.0e}" + ("" if status == "optimal" else f" after {n_iter} block updates")
    )
    return MulticlassOptimumResult(
        objective=objective,
        dual_objective=dual,
        duality_gap=gap,
        alpha=alpha,
        W=alpha.T @ data.Xa if kern is None else None,
        classes_=data.classes,
        lam=lam,
        bias=data.bias,
        kernel=kern,
        n_iter=n_iter,
        status=status,
        solver=solver,
    )


def dual_gap(mu, Dy, K, lam, Y, cw=None) -> float:
    """F(W(μ)) − D(μ) = (1/n) Σ_i [c_i max_c G_ic − Σ_c μ_ic G_ic], computed afresh
    (``cw`` = the weights c_i, ones when None)."""
    n = mu.shape[0]
    G = Dy + K @ ((Y - mu) / (lam * n))
    top = G.max(axis=1) if cw is None else cw * G.max(axis=1)
    return float(np.sum(top - np.einsum("ic,ic->i", mu, G))) / n


def face_solve(mu, Dy, K, lam, Y, cw=None, *, eps=1e-12, max_size=400):
    """μ with its faces (the supports of the rows μ_i) kept and optimal on them, or None.

    On the face, every point i with two or more classes in its support S_i has equal
    G_ic (c ∈ S_i) = τ_i and Σ_{c∈S_i} μ_ic = c_i (``cw``; 1 when None): a linear system
    in those μ_ic and τ_i
    (the rows at a vertex stay fixed). Solved by least squares; None if the solution
    leaves the face (some μ_ic < 0) or the system has more than ``max_size`` unknowns.
    """
    n = mu.shape[0]
    supp = mu > eps
    P = np.flatnonzero(supp.sum(axis=1) >= 2)
    if P.size == 0:
        return None
    fixed = mu.copy()
    fixed[P] = 0.0
    a, c = np.nonzero(supp[P])  # the unknowns μ_{P[a], c}, in row order
    m, p = a.size, P.size
    if m + p > max_size:
        return None  # the faces are not settled yet: too many rows between two vertices
    F0 = K[P] @ ((Y - fixed) / (lam * n))  # the scores without the unknowns, (p, k)
    A = np.zeros((m + p, m + p))
    A[:m, :m] = -K[np.ix_(P[a], P[a])] * (c[:, None] == c[None, :]) / (lam * n)
    A[np.arange(m), m + a] = -1.0  # − τ_a
    A[m + a, np.arange(m)] = 1.0  # Σ_c μ_ac = 1
    total = np.ones(p) if cw is None else cw[P]
    rhs = np.concatenate([-(Dy[P[a], c] + F0[a, c]), total])
    sol = np.linalg.lstsq(A, rhs, rcond=None)[0][:m]
    if np.any(sol < -1e-12):
        return None
    out = fixed
    out[P[a], c] = np.maximum(sol, 0.0)
    out[P] /= out[P].sum(axis=1, keepdims=True)
    if cw is not None:
        out[P] *= cw[P][:, None]
    return out
