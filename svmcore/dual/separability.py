"""Is a hard margin possible? Seed 003's hard-margin SVM needs data that a hyperplane in
the kernel's feature space separates:

    min_{b,w} ½ wᵀw   subject to  y_n (wᵀΦ(x_n) + b) ≥ 1,  n = 1..N,

is feasible exactly when they are, and its dual (max over α ≥ 0, yᵀα = 0) is unbounded
when they are not. :func:`check_separable` decides it cheaply before a solver runs:
for the linear and (small) polynomial kernels the primal QP on explicit features
(:func:`poly_features`, the multinomial expansion of (ζ + γxᵀx')^Q) has a Farkas
certificate of infeasibility; the Gaussian kernel's Gram matrix is positive definite on
distinct points, so only a point repeated with both labels is not separable.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from svmcore.exceptions import NotSeparableError
from svmcore.qp import solve_qp

__all__ = ["check_separable", "not_separable_error", "poly_features"]

_MAX_TEST = 1e50  # the cheap tests run on features / Gram entries up to this magnitude


def not_separable_error(kernel, how) -> NotSeparableError:
    """The error for a hard margin on data this kernel cannot separate, saying ``how`` we know."""
    return NotSeparableError(
        f"the data are not separable in this kernel's feature space ({kernel}): {how}; "
        "use a soft margin (a finite C) instead"
    )


def poly_features(X, kern):
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
        coef *= np.float64(kern.coef0) ** int(k[0]) * np.float64(kern.gamma) ** int(Q - k[0])
        cols.append(np.sqrt(coef) * np.prod(Xe[:, list(combo)], axis=1))
    return np.column_stack(cols)


def check_separable(X, y, kern):
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
                raise not_separable_error(kern, "the same point appears with both labels")
        return
    with np.errstate(over="ignore", invalid="ignore"):
        Z = X if kern.name == "linear" else poly_features(X, kern)
    if Z is not None and not np.abs(Z).max() <= _MAX_TEST:
        return  # beyond the QP solver's range: the solvers' own divergence test decides
    if Z is None:  # feature space too large to write out: the dual QP's certificate
        if X.shape[0] <= 1000:
            Qd = (y[:, None] * y[None, :]) * kern(X)
            if not np.abs(Qd).max() <= _MAX_TEST:
                return
            sol = solve_qp(Qd, -np.ones(X.shape[0]), A_eq=y, c_eq=[0.0], lb=0.0, max_iter=60)
            if sol.status == "unbounded":
                raise not_separable_error(kern, "the hard-margin dual QP is unbounded")
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
        raise not_separable_error(
            kern,
            "the hard-margin primal has no feasible (b, w) (the "
            "interior point found a certificate of infeasibility)",
        )
