"""Kernel rows on demand and their bounded LRU cache (used by :mod:`svmcore.dual.smo.fast`).

libsvm's ``Cache`` (Chang & Lin, *LIBSVM: a library for support vector machines*, ACM
TIST 2011, §4.3 and §5.1) keeps the most recently used rows K(x_i, ·) of the kernel matrix
in a buffer of fixed size, so the SMO never allocates the n × n Gram matrix. This module
does the same with NumPy blocks instead of single rows:

* :class:`KernelRows` computes blocks K(X[I], Z) with one BLAS product, reusing the
  squared norms (for the Gaussian kernel exp(−γ(‖x‖² − 2xᵀz + ‖z‖²)));
* :class:`RowCache` stores rows over the current *active* columns (shrinking removes
  columns; :meth:`RowCache.compact` re-lays the kept rows out in place) and hands out
  one row (:meth:`RowCache.row`, the SMO's pair updates) or many at once
  (:meth:`RowCache.get`, the gradient update), computing only the missing ones;
* :class:`LazyGram` (all rows, plain SMO) and :class:`LazyBlock` (the rows of a
  working set restricted to it, from the cache) give the SMO ``K[i]`` without ever
  forming the matrix: only the rows of the pairs it updates are computed.

Pure NumPy.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "BLOCK_ELEMS",
    "ConstRow",
    "KernelRows",
    "LazyBlock",
    "LazyGram",
    "LazyRows",
    "RowCache",
    "stack_rows",
]

BLOCK_ELEMS = 1 << 21  # kernel blocks of at most ~16 MB


class KernelRows:
    """Kernel blocks K(X[I], Z) computed with BLAS, reusing squared norms.

    Parameters
    ----------
    kernel : Kernel
    X : ndarray (n, d)
    dtype : numpy float type
        Precision of the computed blocks (float32 for large Gaussian problems, as libsvm's
        ``Qfloat``).
    """

    def __init__(self, kernel, X: np.ndarray, dtype=np.float64):
        self.kernel = kernel
        self.X = X.astype(dtype, copy=False)  # rows are computed in ``dtype``
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        self.diag = kernel.diag(X)
        self.dtype = dtype
        self._Xa = None  # [X, 1, −γ‖x‖²] for single Gaussian rows (made on first use)

    def rows_over(self, cols: np.ndarray | None):
        """A function I ↦ K(X[I], X[cols]) (all columns when ``cols`` is None).

        Single rows (the SMO's usual request) take a shortcut: one matrix-vector product
        with the columns pre-scaled (and, for the Gaussian kernel, augmented), then at most
        two vector operations."""
        XZ = self.X if cols is None else self.X[cols]
        sqZ = self.sq if cols is None else self.sq[cols]
        k = self.kernel
        dt = self.dtype
        if k.name == "rbf":
            # −γ‖x_i − z‖² = [2γz, −γ‖z‖², 1]·[x_i, 1, −γ‖x_i‖²]: one product per row
            # (stored transposed, (d + 2, m): BLAS reads it row by row, several times faster)
            g = dt(k.gamma)
            d = XZ.shape[1]
            ZaT = np.empty((d + 2, XZ.shape[0]), dtype=dt)
            np.multiply(XZ.T, 2 * g, out=ZaT[:d])
            ZaT[d] = -g * sqZ
            ZaT[d + 1] = 1.0
            if self._Xa is None:
                self._Xa = np.empty((self.X.shape[0], d + 2), dtype=dt)
                self._Xa[:, :d] = self.X
                self._Xa[:, d] = 1.0
                self._Xa[:, d + 1] = -g * self.sq

            def one(i, out=None):
                D = np.dot(self._Xa[i], ZaT, out=out)
                np.minimum(D, 0.0, out=D)  # (rounding can leave it above 0 at z = x_i)
                return np.exp(D, out=D)

        else:
            XZT = np.ascontiguousarray(XZ.T)  # (d, m)

            def one(i, out=None):
                D = np.dot(self.X[i], XZT, out=out)
                if k.name == "linear":
                    return D
                D *= dt(k.gamma)
                D += dt(k.coef0)
                if k.degree != 1:
                    np.power(D, k.degree, out=D)
                return D

        def compute(I):
            if I.shape[0] == 1:
                return one(int(I[0]))[None, :]
            return self.block(I, XZ, sqZ)

        compute.one = one  # the single-row shortcut, for callers that know they want one
        return compute

    def block(self, I: np.ndarray, XZ: np.ndarray, sqZ: np.ndarray) -> np.ndarray:
        """K(X[I], Z) of shape (|I|, m) for Z = ``XZ`` with squared norms ``sqZ``."""
        XI = self.X[I]
        D = XI @ XZ.T  # (|I|, m)
        k = self.kernel
        if k.name == "linear":
            return D
        if k.name == "poly":
            D *= self.dtype(k.gamma)
            D += self.dtype(k.coef0)
            return D**k.degree if k.degree != 1 else D
        # rbf: exp(−γ(‖x‖² − 2xᵀz + ‖z‖²)), the exponent clipped at 0 against rounding
        g = self.dtype(k.gamma)
        D *= 2 * g
        D -= (g * self.sq[I])[:, None]
        D -= g * sqZ
        np.minimum(D, 0.0, out=D)
        np.exp(D, out=D)
        return D


class RowCache:
    """LRU cache of kernel rows over the current active columns, in a fixed buffer.

    The buffer holds ``cache_floats`` values (float64, or float32 for large Gaussian
    problems); with ``n_cols`` active columns it is viewed as
    ``n_slots = cache_floats // n_cols`` rows. Used slots are always 0..u−1, so shrinking
    the columns can re-lay the rows out in place.
    """

    def __init__(self, n: int, n_cols: int, cache_floats: int, dtype=np.float64):
        self.cache_floats = cache_floats
        self.buf = np.empty(cache_floats, dtype=dtype)
        self.slot_of = np.full(n, -1, dtype=np.int64)
        self._reshape(n_cols)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.used = 0
        self.clock = 0

    def _reshape(self, n_cols: int) -> None:
        self.n_cols = n_cols
        self.n_slots = self.cache_floats // max(n_cols, 1)

    def view(self) -> np.ndarray:
        return self.buf[: self.n_slots * self.n_cols].reshape(self.n_slots, self.n_cols)

    def clear(self, n_cols: int) -> None:
        self.slot_of[self.owner[: self.used]] = -1
        self._reshape(n_cols)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.used = 0

    def compact(self, keep_cols: np.ndarray, max_rows: int) -> None:
        """Keep the columns ``keep_cols`` (sorted positions) of the ``max_rows`` most
        recently used rows; the other rows are dropped."""
        old, new = self.n_cols, keep_cols.shape[0]
        u = self.used
        kept = np.sort(np.argsort(-self.stamp[:u], kind="stable")[:max_rows])
        k = kept.shape[0]
        dropped = np.ones(u, dtype=bool)
        dropped[kept] = False
        self.slot_of[self.owner[:u][dropped]] = -1
        V_old = self.buf[: u * old].reshape(u, old)
        chunk = max(1, BLOCK_ELEMS // max(old, 1))
        for r0 in range(0, k, chunk):
            r1 = min(k, r0 + chunk)
            # kept[r] ≥ r, so the new rows [r0·new, r1·new) never reach unread old rows
            tmp = V_old[np.ix_(kept[r0:r1], keep_cols)]
            self.buf[r0 * new : r1 * new] = tmp.reshape(-1)
        owner = self.owner[kept]
        stamp = self.stamp[kept]
        self._reshape(new)
        self.owner = np.full(self.n_slots, -1, dtype=np.int64)
        self.stamp = np.zeros(self.n_slots, dtype=np.int64)
        self.owner[:k] = owner
        self.stamp[:k] = stamp
        self.slot_of[owner] = np.arange(k)
        self.used = k

    def row(self, g: int, compute) -> np.ndarray:
        """The row of global index ``g`` (a view into the cache when held: copy what you
        keep before the next insertion)."""
        self.clock += 1
        slot = self.slot_of[g]
        if slot >= 0:
            self.stamp[slot] = self.clock
            return self.buf[slot * self.n_cols : (slot + 1) * self.n_cols]
        one = getattr(compute, "one", None)
        if self.n_slots == 0:
            return one(g) if one is not None else compute(np.array([g]))[0]
        if self.used < self.n_slots:
            slot = self.used
            self.used += 1
        else:
            slot = int(self.stamp.argmin())
            self.slot_of[self.owner[slot]] = -1
        self.owner[slot] = g
        self.slot_of[g] = slot
        self.stamp[slot] = self.clock
        r = self.buf[slot * self.n_cols : (slot + 1) * self.n_cols]
        if one is not None:
            one(g, out=r)  # straight into the cache slot
        else:
            r[:] = compute(np.array([g]))[0]
        return r

    def get(self, idx: np.ndarray, compute) -> tuple[np.ndarray, np.ndarray]:
        """Rows for global indices ``idx``: returns (rows, order) with ``rows[k]`` the row
        of ``idx[order[k]]`` (cached rows first, then the computed ones)."""
        self.clock += 1
        q = idx.shape[0]
        if q > self.n_slots:  # cache too small for one working set: no caching
            return compute(idx), np.arange(q)
        slots = self.slot_of[idx]
        miss = slots < 0
        hit_pos = np.flatnonzero(~miss)
        miss_pos = np.flatnonzero(miss)
        hit_slots = slots[hit_pos]
        self.stamp[hit_slots] = self.clock
        V = self.view()
        nh = hit_pos.shape[0]
        if miss_pos.shape[0] == 0:
            return V[hit_slots], hit_pos
        out = np.empty((q, self.n_cols), dtype=self.buf.dtype)
        if nh:
            np.take(V, hit_slots, axis=0, out=out[:nh])
        midx = idx[miss_pos]
        rows = compute(midx)
        out[nh:] = rows
        k = midx.shape[0]
        free = self.n_slots - self.used
        if free >= k:
            new_slots = np.arange(self.used, self.used + k)
            self.used += k
        else:
            take_free = np.arange(self.used, self.n_slots)
            k_evict = k - take_free.shape[0]
            victims = np.argpartition(self.stamp[: self.used], k_evict - 1)[:k_evict]
            self.used = self.n_slots
            old_owner = self.owner[victims]
            self.slot_of[old_owner[old_owner >= 0]] = -1
            new_slots = np.concatenate([take_free, victims])
        self.owner[new_slots] = midx
        self.slot_of[midx] = new_slots
        self.stamp[new_slots] = self.clock
        V[new_slots] = rows
        return out, np.concatenate([hit_pos, miss_pos])


def stack_rows(K, F):
    """K[F] for a lazy K: the rows of F stacked into one (|F|, q) array."""
    F = F.tolist()
    if not F:
        return np.empty((0, 0))
    first = K[F[0]]
    out = np.empty((len(F), first.shape[0]))
    out[0] = first
    for r, k in enumerate(F[1:], 1):
        out[r] = K[k]
    return out


class ConstRow:
    """A constant indexable (the kernel diagonal of the Gaussian kernel: K(x, x) = 1)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __getitem__(self, k):
        return self.value


class LazyRows:
    """Rows of a kernel block on demand: ``K[k]`` (an int) makes row k once with
    :meth:`make_row` and keeps it in ``rows``; ``K[F]`` (an array) stacks rows."""

    rows: dict[int, np.ndarray]

    def make_row(self, k: int) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def __getitem__(self, k):
        if not isinstance(k, int):
            return stack_rows(self, k)
        r = self.rows.get(k)
        if r is None:
            r = self.rows[k] = self.make_row(k)
        return r


class LazyGram(LazyRows):
    """Rows of the Gram matrix on demand (plain SMO on > 300 points): ``K[k]`` computes row k
    once (float64, shape (n,)); pairs that SMO never touches cost nothing."""

    def __init__(self, compute, diag):
        self.compute = compute
        self.diag = diag
        self.rows = {}

    def make_row(self, k: int) -> np.ndarray:
        return self.compute(np.array([k]))[0]


class LazyBlock(LazyRows):
    """Rows of the working-set block K_BB on demand, from the row cache.

    ``K[k]`` is row k of K_BB (float64, shape (q,)): the cached (or newly computed) kernel
    row of the k-th working-set point over all active columns, restricted to B. The inner
    SMO only ever needs the rows of the pairs it updates, and those full rows are the ones
    the outer gradient update needs anyway, so no |B| × |B| block is computed.
    """

    def __init__(self, cache, compute, gidx, cols, diag):
        self.cache, self.compute = cache, compute
        self.gidx, self.cols = gidx, cols  # global indices and active positions of B
        self.diag = diag
        self.rows = {}

    def make_row(self, k: int) -> np.ndarray:
        return self.cache.row(int(self.gidx[k]), self.compute)[self.cols].astype(np.float64)
