"""Explicit feature maps Φ whose inner products are the lectures' kernels.

* Seed 003 (Lin, *Kernel SVM*), the degree-2 polynomial kernel
  K₂(x, x′) = (ζ + γ xᵀx′)² = Φ₂(x)ᵀΦ₂(x′) with, for d = 2,

      Φ₂(x) = (ζ, √(2γζ) x₁, √(2γζ) x₂, γ x₁², √2 γ x₁x₂, γ x₂²)

  (:func:`phi2`; the constant coordinate is ζ, so that its product is ζ²). For any d the
  quadratic block is γ x_i x_j over i ≤ j, times √2 off the diagonal. This is the
  kernel of :func:`svmcore.polynomial` with ``degree=2, gamma=γ, coef0=ζ``.
  Without γ and ζ, :func:`phi2` is seed 003's plain Φ₂(x) = (1, x, x ⊗ x) of the kernel
  1 + xᵀx′ + (xᵀx′)², which the primal QP's example uses.
* Seed 004 (kernels lecture): the circle example φ(x) = (1, x₁², x₂²), separated by
  w = (−1, 1, 1), i.e. sign(x₁² + x₂² − 1) (:func:`seed004_circle_map`).
* The Gaussian kernel exp(−γ‖x − x′‖²) = e^{−γ‖x‖²} e^{−γ‖x′‖²} Σ_k (2γ)^k (xᵀx′)^k / k!
  has an infinite-dimensional Φ: expanding (xᵀx′)^k = Σ_{|m| = k} k!/m! x^m x′^m over the
  multi-indices m gives the features e^{−γ‖x‖²} √((2γ)^{|m|} / m!) x^m. Truncating to
  total degree |m| < n_terms (:func:`rbf_taylor_features`) gives a kernel whose error
  (:func:`rbf_truncation_error`) is the Taylor tail e^{−γ(‖x‖²+‖x′‖²)} Σ_{k ≥ n_terms}
  (2γ xᵀx′)^k / k!.
* Any degree Q (seed 003's K_Q = (ζ + γ xᵀx′)^Q): the binomial and multinomial theorems
  give (ζ + γ xᵀx′)^Q = Σ_{|m| ≤ Q} C(Q, |m|) ζ^{Q−|m|} γ^{|m|} (|m|!/m!) x^m x′^m, so the
  features √(C(Q, |m|) ζ^{Q−|m|} γ^{|m|} |m|!/m!) x^m (:func:`poly_features`; for Q = 2
  the coordinates of :func:`phi2` in another order). :func:`kernel_features` picks the map
  of a :class:`~svmcore.kernels.Kernel`: x itself, the polynomial map, or the truncated
  Gaussian map.
"""

from __future__ import annotations

import math
from itertools import combinations_with_replacement

import numpy as np

from svmcore._validation import check_int, check_positive, check_X
from svmcore.kernels import Kernel, rbf

__all__ = [
    "MAX_FEATURES",
    "kernel_features",
    "phi2",
    "poly_features",
    "rbf_taylor_features",
    "rbf_truncation_error",
    "seed004_circle_map",
]

#: The largest number of explicit features built (beyond it a Gram matrix is cheaper).
MAX_FEATURES = 100_000


def phi2(X, *, gamma=None, coef0=None) -> np.ndarray:
    """Lin's degree-2 transform Φ₂ (seed 003), plain or as the kernel K₂'s compact lift.

    * ``phi2(X)``: Lin's Φ₂(x) = (1, x_1, …, x_d, x_1x_1, x_1x_2, …, x_dx_d), every ordered
      product, so that Φ₂(x)ᵀΦ₂(x′) = 1 + xᵀx′ + (xᵀx′)²; shape (n, 1 + d + d²). The
      primal SVM's "SVM with QP solver" example (:func:`svmcore.primal_svm`) uses it.
    * ``phi2(X, gamma=γ, coef0=ζ)``: the lift of Lin's K₂(x, x′) = (ζ + γ xᵀx′)², each
      unordered product once, so that Φ₂(x)ᵀΦ₂(x′) = K₂(x, x′).

    Parameters
    ----------
    X : array, shape (n, d)
    gamma : float > 0, optional
        γ of the polynomial kernel (give it with ``coef0``).
    coef0 : float >= 0, optional
        ζ of the polynomial kernel.

    Returns
    -------
    ndarray, shape (n, 1 + d + d²) for the plain Φ₂, (n, 1 + d + d(d+1)/2) for K₂'s lift
        Columns ζ, √(2γζ) x_1 … √(2γζ) x_d, then γ x_i x_j for i ≤ j in the order
        (1,1), (1,2), …, (1,d), (2,2), … with √2 on i ≠ j; for d = 2 that is
        (ζ, √(2γζ)x₁, √(2γζ)x₂, γx₁², √2γx₁x₂, γx₂²).
    """
    X = check_X(X)
    if gamma is None and coef0 is None:
        n, d = X.shape
        return np.hstack([np.ones((n, 1)), X, (X[:, :, None] * X[:, None, :]).reshape(n, d * d)])
    if gamma is None or coef0 is None:
        raise TypeError("phi2 takes gamma and coef0 together (or neither, for Lin's plain Φ₂)")
    gamma = check_positive(gamma, "gamma")
    zeta = check_positive(coef0, "coef0", allow_zero=True)
    n, d = X.shape
    pairs = list(combinations_with_replacement(range(d), 2))
    quad = np.empty((n, len(pairs)))
    for col, (i, j) in enumerate(pairs):
        quad[:, col] = gamma * (1.0 if i == j else math.sqrt(2.0)) * X[:, i] * X[:, j]
    linear = math.sqrt(2.0 * gamma * zeta) * X
    return np.hstack([np.full((n, 1), zeta), linear, quad])


def seed004_circle_map(X) -> np.ndarray:
    """Seed 004's φ(x) = (1, x₁², x₂²), shape (n, 3); w = (−1, 1, 1) separates the circle."""
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 features for φ(x) = (1, x₁², x₂²), got {X.shape[1]}")
    return np.column_stack([np.ones(X.shape[0]), X[:, 0] ** 2, X[:, 1] ** 2])


def _multi_indices(d: int, n_terms: int):
    """Exponent tuples m ∈ ℕ^d of total degree 0, 1, …, n_terms − 1."""
    for k in range(n_terms):
        for combo in combinations_with_replacement(range(d), k):
            yield np.bincount(np.array(combo, dtype=np.int64), minlength=d)


def _check_n_features(n_features: int, what: str) -> None:
    if n_features > MAX_FEATURES:
        raise ValueError(
            f"{what} needs {n_features} features, more than MAX_FEATURES = {MAX_FEATURES}; "
            "use fewer terms"
        )


def _monomial_columns(X: np.ndarray, n_terms: int, weight, log_weight, log_envelope=None):
    """Columns e(x) · weight(k, m!) · x^m over the multi-indices m of degree k < n_terms,
    shape (n, ·), with the envelope e(x) = exp(``log_envelope``) (1 when None).

    Computed directly (``weight`` in Python floats, x^m by powers); the rows where that
    overflows, or where the envelope underflows (below 1e-300, so that the product
    would lose the value), are recomputed in log space: log|F| = log e(x) + log_weight(m)
    + Σ_j m_j log|x_j|, with the sign of x^m (and 0 where some x_j = 0 has m_j > 0).
    So a feature whose true value is representable is returned finite; one that is not
    comes back as ±inf for the caller to refuse.
    """
    n, d = X.shape
    M = np.array(list(_multi_indices(d, n_terms)), dtype=np.int64).reshape(-1, d)
    out = np.empty((n, M.shape[0]))
    log_w = np.empty(M.shape[0])
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        for col, m in enumerate(M):
            k = int(m.sum())
            m_factorial = math.prod(math.factorial(int(e)) for e in m)
            try:
                w = weight(k, m_factorial)
            except OverflowError:
                w = math.inf
            log_w[col] = log_weight(k, m)
            out[:, col] = w * np.prod(X**m, axis=1)
        if log_envelope is None:
            redo = ~np.all(np.isfinite(out), axis=1)
        else:
            envelope = np.exp(log_envelope)
            out = envelope[:, None] * out
            redo = ~np.all(np.isfinite(out), axis=1) | (envelope < 1e-300)
        if np.any(redo):
            out[redo] = _log_space_columns(X[redo], M, log_w, log_envelope, redo)
    return out


def _log_space_columns(XR, M, log_w, log_envelope, redo):
    """The rows ``XR`` of :func:`_monomial_columns` computed from logarithms."""
    zero, neg = XR == 0.0, XR < 0.0
    L = np.log(np.abs(np.where(zero, 1.0, XR)))  # log|x_j| (0 where x_j = 0: masked below)
    log_abs = L @ M.T.astype(np.float64) + log_w[None, :]
    if log_envelope is not None:
        log_abs += log_envelope[redo][:, None]
    vanish = (zero.astype(np.float64) @ (M > 0).T.astype(np.float64)) > 0
    odd = (neg.astype(np.float64) @ M.T.astype(np.float64)) % 2.0 == 1.0
    values = np.exp(log_abs)
    values[odd] = -values[odd]
    values[vanish | np.isneginf(log_abs)] = 0.0
    return values + 0.0  # no −0.0 where exp underflows


def _log_factorials(m) -> float:
    """log m! = Σ_j log m_j! of a multi-index."""
    return float(sum(math.lgamma(int(e) + 1) for e in m))


def poly_features(X, *, degree, gamma, coef0) -> np.ndarray:
    """The explicit map of seed 003's K_Q(x, x′) = (ζ + γ xᵀx′)^Q, any degree Q.

    Parameters
    ----------
    X : array, shape (n, d)
    degree : int >= 1
        Q.
    gamma : float > 0
        γ.
    coef0 : float >= 0
        ζ.

    Returns
    -------
    ndarray, shape (n, C(d + Q, d))
        Column m (multi-indices by increasing degree ``|m| ≤ Q``):
        ``√(C(Q, |m|) ζ^{Q−|m|} γ^{|m|} |m|!/m!) x^m``; F Fᵀ is the kernel's Gram matrix.

    Raises
    ------
    ValueError
        For a feature beyond double precision (large X, γ or ζ): the message names X and
        the parameters (intermediate overflows are avoided by working in logarithms).
    """
    X = check_X(X)
    degree = check_int(degree, "degree", low=1, high=20)
    gamma = check_positive(gamma, "gamma")
    zeta = check_positive(coef0, "coef0", allow_zero=True)
    d = X.shape[1]
    _check_n_features(math.comb(d + degree, d), f"degree = {degree} in d = {d}")

    def weight(k, m_factorial):  # 0.0 ** 0 = 1: with ζ = 0 only the degree-Q block stays
        scale = math.comb(degree, k) * zeta ** (degree - k) * gamma**k
        return math.sqrt(scale * math.factorial(k) / m_factorial)

    def log_weight(k, m):
        if zeta == 0.0 and k < degree:
            return -math.inf
        log_zeta = (degree - k) * math.log(zeta) if k < degree else 0.0
        log_scale = math.log(math.comb(degree, k)) + log_zeta + k * math.log(gamma)
        return 0.5 * (log_scale + math.lgamma(k + 1) - _log_factorials(m))

    F = _monomial_columns(X, degree + 1, weight, log_weight)
    if not np.all(np.isfinite(F)):
        r, c = np.argwhere(~np.isfinite(F))[0]
        raise ValueError(
            f"X is too large for degree = {degree}, gamma = {gamma:.3g}, coef0 = {zeta:.3g}: "
            f"feature {c} of row {r} (√(C(Q, |m|) ζ^(Q−|m|) γ^|m| |m|!/m!) x^m) overflows "
            "double precision, and so would the kernel (ζ + γ xᵀx′)^Q; rescale X or lower "
            "gamma, coef0 or the degree"
        )
    return F


def kernel_features(X, kernel: Kernel, *, n_terms: int = 10) -> np.ndarray:
    """An explicit Φ(X) of ``kernel``: Φ(x)ᵀΦ(x′) = K(x, x′) (the Gaussian's truncated).

    Parameters
    ----------
    X : array, shape (n, d)
    kernel : Kernel
        Linear: Φ(x) = x (Lemma 16.3's ψ); polynomial: Lin's :func:`phi2` for Q = 2,
        else :func:`poly_features`; Gaussian:
        :func:`rbf_taylor_features` with ``n_terms`` Taylor terms (exact only in the limit).
    n_terms : int >= 1
        The Gaussian map's number of terms (unused by the other kernels).

    Returns
    -------
    ndarray, shape (n, D)
    """
    if not isinstance(kernel, Kernel):
        raise ValueError(f"kernel must be a svmcore Kernel, got {type(kernel).__name__}")
    if kernel.name == "linear":
        return check_X(X)
    if kernel.name == "poly" and kernel.degree == 2:
        return phi2(X, gamma=kernel.gamma, coef0=kernel.coef0)  # Lin's Φ₂, in its order
    if kernel.name == "poly":
        return poly_features(X, degree=kernel.degree, gamma=kernel.gamma, coef0=kernel.coef0)
    return rbf_taylor_features(X, gamma=kernel.gamma, n_terms=n_terms)


def rbf_taylor_features(X, *, gamma, n_terms) -> np.ndarray:
    """The Gaussian kernel's explicit features, truncated to total degree < n_terms.

    Parameters
    ----------
    X : array, shape (n, d)
    gamma : float > 0
        γ of K(x, x′) = exp(−γ‖x − x′‖²).
    n_terms : int >= 1
        Keep the Taylor terms k = 0, …, n_terms − 1 of Σ_k (2γ xᵀx′)^k / k!.

    Returns
    -------
    ndarray, shape (n, C(d + n_terms − 1, d))
        Column m: ``e^{−γ‖x‖²} √((2γ)^{|m|} / m!) x^m``, multi-indices by increasing degree.
        Every such feature lies in [−1, 1] (its square is one term of e^{−2γ‖x‖²}
        e^{2γ‖x‖²} = 1), so the result is finite for any γ, ``n_terms`` and X: where the
        direct products overflow or the envelope underflows, a row is computed from
        logarithms instead.
    """
    X = check_X(X)
    gamma = check_positive(gamma, "gamma")
    n_terms = check_int(n_terms, "n_terms", low=1)
    d = X.shape[1]
    _check_n_features(math.comb(d + n_terms - 1, d), f"n_terms = {n_terms} in d = {d}")
    with np.errstate(over="ignore"):
        log_envelope = -gamma * np.einsum("ij,ij->i", X, X)  # log e^{−γ‖x‖²}, (n,)
    log_2gamma = math.log(2.0) + math.log(gamma)
    return _monomial_columns(
        X,
        n_terms,
        lambda k, m_fact: math.sqrt((2.0 * gamma) ** k / m_fact),
        lambda k, m: 0.5 * (k * log_2gamma - _log_factorials(m)),
        log_envelope,
    )


def rbf_truncation_error(X, *, gamma, n_terms) -> float:
    """``max_{i,j} |K_trunc(x_i, x_j) − K(x_i, x_j)|`` for :func:`rbf_taylor_features`."""
    F = rbf_taylor_features(X, gamma=gamma, n_terms=n_terms)
    X = np.asarray(X, dtype=np.float64)
    return float(np.max(np.abs(F @ F.T - rbf(gamma)(X))))
