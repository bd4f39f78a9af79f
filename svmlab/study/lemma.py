"""Lemma 16.3 of SSBD (seed 000), live: kernel SGD with the linear kernel is linear SGD.

Seed 000's box runs SGD on the soft-SVM in the feature space ψ(x) without ever writing
ψ(x): it keeps α with w⁽ᵗ⁾ = Σ_j α_j⁽ᵗ⁾ ψ(x_j), and Lemma 16.3 says that the output
w̄ = Σ_j ᾱ_j ψ(x_j) is the w̄ that SGD on (16.5) in the feature space would output. With
the linear kernel ψ(x) = x, so w̄ = Σ_j ᾱ_j x_j must equal linear Pegasos' w̄ (no bias,
the same λ, schedule, averaging and T) when both runs see the same indices i_1, …, i_T.

The indices are drawn once, here, with ``np.random.default_rng(random_state)`` in the way
:class:`svmcore._sampling.IndexStream` draws them (so they are also the page's run's),
and passed as ``indices=`` to both :func:`svmcore.kernel_pegasos` and
:func:`svmcore.pegasos`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import svmcore

__all__ = ["LemmaCheck", "draw_indices", "lemma_16_3"]


def draw_indices(n: int, T: int, sampling: str = "uniform", random_state=None) -> np.ndarray:
    """The 0-based indices i_1, …, i_T (shape (T,)) of a run, drawn once and explicitly.

    Parameters
    ----------
    n : int >= 1
        Number of samples.
    T : int >= 1
        Number of steps.
    sampling : {"uniform", "cyclic", "shuffle"}
        As in every SGD function: the indices come from the same stream
        (``svmcore.sample_indices``), so they are the page run's own.
    random_state : int or None
        Seed of ``np.random.default_rng``.

    Returns
    -------
    ndarray of int64, shape (T,)
    """
    return svmcore.sample_indices(n, T, sampling, random_state)


@dataclass(frozen=True)
class LemmaCheck:
    """Both outputs of Lemma 16.3's comparison.

    Attributes
    ----------
    w_kernel : ndarray, shape (d,)
        Σ_j ᾱ_j x_j from kernel Pegasos with the linear kernel (ᾱ or α⁽ᵀ⁺¹⁾ by ``averaging``).
    w_linear : ndarray, shape (d,)
        w̄ (or the last iterate) of linear Pegasos, ``bias="none"``.
    indices : ndarray, shape (T,)
        The shared i_1, …, i_T (0-based).
    """

    w_kernel: np.ndarray
    w_linear: np.ndarray
    indices: np.ndarray

    @property
    def max_abs_difference(self) -> float:
        """max_k |w_kernel[k] − w_linear[k]|."""
        return float(np.max(np.abs(self.w_kernel - self.w_linear)))


def lemma_16_3(
    X,
    y,
    *,
    lam,
    T,
    schedule="ssbd",
    averaging="average",
    sampling="uniform",
    class_weight=None,
    random_state=None,
) -> LemmaCheck:
    """Run kernel Pegasos (linear kernel) and linear Pegasos on the same i_1, …, i_T.

    Parameters
    ----------
    X : array, shape (m, d)
    y : array, shape (m,)
        Labels in {−1, +1}.
    lam, T, schedule, averaging, class_weight :
        As in :func:`svmcore.kernel_pegasos`; passed unchanged to both runs.
    sampling, random_state :
        How the shared indices are drawn (see :func:`draw_indices`).

    Returns
    -------
    LemmaCheck
    """
    X = np.asarray(X, dtype=float)
    indices = draw_indices(X.shape[0], T, sampling, random_state)
    common = {
        "lam": lam,
        "T": T,
        "schedule": schedule,
        "averaging": averaging,
        "indices": indices,
        "class_weight": class_weight,
        "n_snapshots": 2,  # only the output is compared
        "n_steps": 0,
    }
    kern = svmcore.kernel_pegasos(X, y, kernel="linear", **common)
    lin = svmcore.pegasos(X, y, bias="none", **common)
    return LemmaCheck(w_kernel=kern.alpha @ X, w_linear=np.asarray(lin.w), indices=indices)
