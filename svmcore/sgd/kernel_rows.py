"""The rows of the kernel Pegasos engine: y_i y_j K(x_i, x_j), from a precomputed Gram
matrix when it fits in memory, or column by column on demand (with a bounded cache)."""

from __future__ import annotations

import numpy as np

from svmcore.kernels import Kernel

__all__ = ["GRAM_BYTES", "gram_columns", "margin_rows"]

#: Gram matrices up to this many bytes are precomputed; larger ones give columns on demand.
GRAM_BYTES = 128 * 2**20


def margin_rows(kernel: Kernel, X: np.ndarray, y: np.ndarray, c: np.ndarray):
    """``Q`` with ``Q[i]`` = c_i y_i y ∘ K[:, i], and ``kmatvec(v)`` = K v.

    Q = diag(cy) K diag(y) is the precomputed matrix when it fits in :data:`GRAM_BYTES`
    (rows are then contiguous lookups), else an object computing rows on demand, with a
    bounded cache.
    """
    m = X.shape[0]
    cy = c * y
    if m * m * 8 <= GRAM_BYTES:
        Q = kernel(X)
        Q *= cy[:, None]
        Q *= y[None, :]
        # K v = y ∘ (Qᵀ (v / cy)), since Q = diag(cy) K diag(y) and y_j = ±1
        return Q, (lambda v: y * (Q.T @ (v / cy)))

    def kmatvec(v):
        nz = np.flatnonzero(v)
        out = np.zeros(m)
        for start in range(0, nz.size, 1024):
            block = nz[start : start + 1024]
            out += kernel(X, X[block]) @ v[block]
        return out

    return _RowsOnDemand(kernel, X, y, cy), kmatvec


class _RowsOnDemand:
    """``rows[i]`` = c_i y_i y ∘ K[:, i], computed on first use and cached (bounded)."""

    def __init__(self, kernel, X, y, cy):
        self.kernel, self.X, self.y, self.cy = kernel, X, y, cy
        self.cache: dict[int, np.ndarray] = {}

    def __getitem__(self, i):
        row = self.cache.get(i)
        if row is None:
            if len(self.cache) * self.X.shape[0] * 8 > GRAM_BYTES:
                self.cache.clear()
            X = self.X
            row = self.cache[i] = self.cy[i] * self.y * self.kernel(X, X[i : i + 1])[:, 0]
        return row


def gram_columns(kernel: Kernel, X: np.ndarray):
    """``column(i)`` = (K(x_j, x_i))_j, shape (m,): from the Gram matrix when it fits in
    :data:`GRAM_BYTES`, else evaluated on demand (the box's O(m) per step)."""
    m = X.shape[0]
    if m * m * 8 <= GRAM_BYTES:
        K = kernel(X)
        return lambda i: K[:, i]
    return lambda i: kernel(X, X[i : i + 1])[:, 0]
