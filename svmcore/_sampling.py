"""Which sample each SGD step draws: i.i.d. uniform, cyclic epochs, shuffled epochs or
an explicit list of indices. Shared by every stochastic algorithm so that the same
``indices`` (or the same ``random_state``) replays the same run in any of them."""

from __future__ import annotations

import numpy as np

from svmcore._validation import (
    check_choice,
    check_indices,
    check_int,
    check_random_state,
    check_T,
)

SAMPLINGS = ("uniform", "cyclic", "shuffle")
_BLOCK = 1 << 16


class IndexStream:
    """The sequence i_1, i_2, … of sampled indices, served in chunks of any size.

    Parameters
    ----------
    n : int
        Number of samples.
    T : int
        Number of steps.
    sampling : {"uniform", "cyclic", "shuffle"}
        ``"uniform"``: i.i.d. uniform on [n] (the Pegasos paper, SSBD).
        ``"cyclic"``: epochs over the data in their order 0, 1, …, n−1 (seed 002,
        Algorithm 1, which loops ``for j = 1, …, |data|``; no shuffling).
        ``"shuffle"``: epochs over the data, in a fresh random order every epoch.
    indices : array of T ints or None
        Explicit 0-based indices; overrides ``sampling``.
    random_state : None, int >= 0, sequence of ints, Generator, BitGenerator or SeedSequence
        Seed for ``np.random.default_rng`` (checked by
        :func:`svmcore._validation.check_random_state`).

    Notes
    -----
    Random indices are drawn in fixed blocks, so the stream for a given seed does not
    depend on how it is consumed: the same seed always gives the same run.
    """

    def __init__(self, n, T, sampling="uniform", indices=None, random_state=None):
        self.n = int(n)
        self.T = int(T)
        if indices is not None:
            self._all = check_indices(indices, self.n, self.T)
            self.sampling = "indices"
        else:
            self._all = None
            self.sampling = check_choice(sampling, "sampling", SAMPLINGS)
        self._rng = check_random_state(random_state)
        self._buf = np.empty(0, dtype=np.int64)
        self._pos = 0  # number of indices served so far

    def _block(self) -> np.ndarray:
        """The next block of random indices (uniform draws, or whole shuffled epochs)."""
        if self.sampling == "uniform":
            return self._rng.integers(0, self.n, size=_BLOCK, dtype=np.int64)
        # ``reps`` epochs, each a fresh permutation of 0..n−1: ``permuted`` along the rows
        # draws exactly what ``reps`` calls of ``permutation(n)`` draw (the same bits; the
        # tests compare the two), in one call instead of a Python loop over the epochs
        reps = max(1, _BLOCK // self.n)
        epochs = np.broadcast_to(np.arange(self.n, dtype=np.int64), (reps, self.n))
        return self._rng.permuted(epochs, axis=1).reshape(-1)

    def take(self, m: int) -> np.ndarray:
        """The next ``m`` indices (fewer only if the T steps are used up).

        Linear in ``m``: the output is allocated once and filled block by block (memory:
        the output and one block).
        """
        m = max(min(int(m), self.T - self._pos), 0)
        start = self._pos
        self._pos += m
        if self._all is not None:
            return self._all[start : start + m]
        if self.sampling == "cyclic":  # epochs 0, 1, …, n−1 in order: index p is p mod n
            return np.arange(start, start + m, dtype=np.int64) % self.n
        if self._buf.shape[0] >= m:
            out, self._buf = self._buf[:m], self._buf[m:]
            return out
        out = np.empty(m, dtype=np.int64)
        filled = self._buf.shape[0]
        out[:filled] = self._buf
        while filled < m:
            block = self._block()
            k = min(block.shape[0], m - filled)
            out[filled : filled + k] = block[:k]
            filled += k
            self._buf = block[k:]
        return out


def sample_indices(n, T, sampling="uniform", random_state=None) -> np.ndarray:
    """The 0-based indices i_1, …, i_T an SGD run with these settings samples, shape (T,).

    The same stream the algorithms draw from (:class:`IndexStream`), so passing the result
    as ``indices=`` to any SGD function replays the run with ``sampling`` and
    ``random_state`` exactly (Lemma 16.3's side-by-side runs use it).

    Parameters
    ----------
    n : int >= 1
        Number of samples.
    T : int in [1, MAX_T]
        Number of steps, capped like the algorithms' T
        (:data:`svmcore._validation.MAX_T` = 10⁸).
    sampling : {"uniform", "cyclic", "shuffle"}
    random_state : None, int >= 0, sequence of ints, or a NumPy Generator / BitGenerator /
        SeedSequence (:func:`svmcore._validation.check_random_state`).

    Returns
    -------
    ndarray of int64, shape (T,)
        Cost: linear in T (about 1 s and 8·T bytes at T = 10⁸).

    Raises
    ------
    ValueError
        For n < 1, T outside [1, MAX_T], an unknown ``sampling`` or a ``random_state``
        that is not a seed (the argument named in the message).
    """
    n = check_int(n, "n", low=1)
    T = check_T(T)
    out = IndexStream(n, T, sampling, None, random_state).take(T)
    return out if out.base is None else out.copy()
