"""Which sample each SGD step draws: i.i.d. uniform, cyclic epochs, shuffled epochs or
an explicit list of indices. Shared by every stochastic algorithm so that the same
``indices`` (or the same ``random_state``) replays the same run in any of them."""

from __future__ import annotations

import numpy as np

from svmcore._validation import check_choice, check_indices, check_int

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
    random_state : int, Generator or None
        Seed for ``np.random.default_rng``.

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
        self._rng = np.random.default_rng(random_state)
        self._buf = np.empty(0, dtype=np.int64)
        self._pos = 0  # number of indices served so far

    def _block(self) -> np.ndarray:
        if self.sampling == "uniform":
            return self._rng.integers(0, self.n, size=_BLOCK, dtype=np.int64)
        if self.sampling == "shuffle":
            reps = max(1, _BLOCK // self.n)
            return np.concatenate([self._rng.permutation(self.n) for _ in range(reps)])
        return np.arange(self.n, dtype=np.int64)  # cyclic

    def take(self, m: int) -> np.ndarray:
        """The next ``m`` indices (fewer only if the T steps are used up)."""
        m = min(int(m), self.T - self._pos)
        if self._all is not None:
            out = self._all[self._pos : self._pos + m]
            self._pos += m
            return out
        while self._buf.shape[0] < m:
            self._buf = np.concatenate([self._buf, self._block()])
        out, self._buf = self._buf[:m], self._buf[m:]
        self._pos += m
        return out


def sample_indices(n, T, sampling="uniform", random_state=None) -> np.ndarray:
    """The 0-based indices i_1, …, i_T an SGD run with these settings samples, shape (T,).

    The same stream the algorithms draw from (:class:`IndexStream`), so passing the result
    as ``indices=`` to any SGD function replays the run with ``sampling`` and
    ``random_state`` exactly (Lemma 16.3's side-by-side runs use it).
    """
    n = check_int(n, "n", low=1)
    T = check_int(T, "T", low=1)
    return IndexStream(n, T, sampling, None, random_state).take(T).copy()
