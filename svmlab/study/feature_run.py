"""SSBD's Lemma 16.3 for any explicit feature map: kernel SGD is linear SGD on Φ(x).

Seed 000's box runs SGD on the soft-SVM in the feature space without forming Φ: it keeps
α with w⁽ᵗ⁾ = Σ_j α_j⁽ᵗ⁾ Φ(x_j), and Lemma 16.3 says its output w̄ = Σ_j ᾱ_j Φ(x_j) is the
w̄ of SGD on (16.5) run on the vectors Φ(x_i). :mod:`svmlab.study.lemma` checks it for
ψ(x) = x; here Φ is any map with Φ(x)ᵀΦ(x′) = K(x, x′)
(:func:`svmcore.feature_maps.kernel_features`: x itself, Lin's Φ₂, the monomial map of
(ζ + γxᵀx′)^Q, or the Gaussian's Taylor map truncated, which is exact only in the limit).
Linear Pegasos (``bias="none"``) on Φ(X) and kernel Pegasos with K run on the same indices
i_1, …, i_T (:func:`svmcore.sample_indices`), and their outputs and f on the points are
compared. Pure: NumPy and svmcore.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import svmcore
from svmcore.feature_maps import kernel_features

__all__ = ["EXACT_RTOL", "ExplicitRun", "explicit_verdict", "explicit_vs_kernel"]

#: Agreement "up to rounding": relative to the scale of K or of f.
EXACT_RTOL = 1e-10


@dataclass(frozen=True, eq=False)
class ExplicitRun:
    """Linear Pegasos on Φ(X) beside kernel Pegasos with K, on the same indices.

    Attributes
    ----------
    n_features : int
        The dimension D of Φ.
    w_explicit : ndarray, shape (D,)
        w̄ of linear Pegasos on Φ(X) (no bias).
    w_kernel : ndarray, shape (D,)
        Σ_j ᾱ_j Φ(x_j) from kernel Pegasos.
    f_explicit, f_kernel : ndarray, shape (n,)
        w̄ᵀΦ(x_i) and Σ_j ᾱ_j K(x_j, x_i) on the training points.
    map_error : float
        max_ij |Φ(x_i)ᵀΦ(x_j) − K(x_i, x_j)| (0 up to rounding for an exact map).
    k_max : float
        max_ij |K(x_i, x_j)|, the scale of ``map_error``.
    indices : ndarray, shape (T,)
        The shared i_1, …, i_T (0-based).
    """

    n_features: int
    w_explicit: np.ndarray
    w_kernel: np.ndarray
    f_explicit: np.ndarray
    f_kernel: np.ndarray
    map_error: float
    k_max: float
    indices: np.ndarray

    @property
    def max_dw(self) -> float:
        """max_k |w̄_explicit[k] − w̄_kernel[k]|."""
        return float(np.max(np.abs(self.w_explicit - self.w_kernel)))

    @property
    def max_df(self) -> float:
        """max_i |f_explicit(x_i) − f_kernel(x_i)|."""
        return float(np.max(np.abs(self.f_explicit - self.f_kernel)))

    @property
    def exact_map(self) -> bool:
        """Φ(x)ᵀΦ(x′) = K(x, x′) up to rounding (1e-10 relative): not a truncated map."""
        return self.map_error <= EXACT_RTOL * max(self.k_max, 1.0)

    @property
    def agree(self) -> bool:
        """The two runs' f agree up to rounding (1e-10 relative to max |f|)."""
        return self.max_df <= EXACT_RTOL * max(float(np.max(np.abs(self.f_kernel))), 1.0)


def explicit_verdict(run: ExplicitRun) -> str:
    """One sentence on what the explicit run's numbers say."""
    if run.exact_map and run.agree:
        return (
            "Equal up to floating-point rounding: Lemma 16.3 holds for this Φ — kernel "
            "Pegasos is linear Pegasos in the feature space, without ever forming Φ."
        )
    if run.exact_map:
        return (
            "Φ is exact, yet the runs differ: some margin y_i f(x_i) came within rounding of "
            "1 and the two runs took different branches there (try another seed)."
        )
    if run.max_dw <= EXACT_RTOL * max(float(np.max(np.abs(run.w_kernel))), 1.0):
        return (
            f"Φ is truncated (its Gram matrix is off by up to {run.map_error:.2g}), yet both "
            "runs took the same steps (w̄ agrees to rounding): f differs only by the "
            "truncated kernel. With fewer terms a margin lands on the other side of 1 and "
            "the runs part."
        )
    return (
        f"Φ is truncated (its Gram matrix is off by up to {run.map_error:.2g}): the runs see "
        "slightly different kernels, some step went the other way, and they drift apart; "
        "more Taylor terms close the gap."
    )


def explicit_vs_kernel(
    X, y, kernel, *, sampling="uniform", random_state=None, n_terms=10, **settings
) -> ExplicitRun:
    """Run linear Pegasos on Φ(X) and kernel Pegasos with ``kernel`` on the same indices.

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels in {−1, +1}.
    kernel : svmcore.Kernel
        Its explicit Φ is :func:`svmcore.feature_maps.kernel_features` (the Gaussian's
        truncated to ``n_terms`` Taylor terms: then the runs differ by the truncation).
    sampling, random_state :
        How the shared indices i_1, …, i_T are drawn (:func:`svmcore.sample_indices`).
    n_terms : int
        The Gaussian map's number of Taylor terms.
    **settings :
        ``lam`` and ``T`` (required), ``schedule``, ``averaging``, ``class_weight``: as in
        :func:`svmcore.kernel_pegasos` (whose schedule "ssbd" is the default here too),
        passed unchanged to both runs.

    Returns
    -------
    ExplicitRun
    """
    X = np.asarray(X, dtype=float)
    F = kernel_features(X, kernel, n_terms=n_terms)
    if "T" not in settings or "lam" not in settings:
        raise ValueError("settings must give lam and T (as kernel_pegasos takes them)")
    indices = svmcore.sample_indices(X.shape[0], settings["T"], sampling, random_state)
    common = {"schedule": "ssbd", **settings, "indices": indices}
    common.update(n_snapshots=2, n_steps=0)  # only the outputs are compared
    kern = svmcore.kernel_pegasos(X, y, kernel=kernel, **common)
    lin = svmcore.pegasos(F, y, bias="none", **common)
    w_explicit = np.asarray(lin.w, dtype=float)
    K = kernel(X)
    return ExplicitRun(
        n_features=F.shape[1],
        w_explicit=w_explicit,
        w_kernel=F.T @ kern.alpha,
        f_explicit=F @ w_explicit,
        f_kernel=K @ kern.alpha,
        map_error=float(np.max(np.abs(F @ F.T - K))),
        k_max=float(np.max(np.abs(K))),
        indices=indices,
    )
