"""Replayable traces of every run.

A run records up to ``n_snapshots`` *snapshots* (the model as it would be output if
the run stopped after t iterations, plus the algorithm's internal state at that t)
and, for the first ``n_steps`` iterations, every *step* (which sample was drawn, its
margin, whether the update fired, the step size...). The app replays a run from
its trace: snapshots for the animation and the scrubber, steps for the
step-by-step inspector beside the pseudo-code.

Traces are frozen dataclasses of NumPy arrays: pickleable (Streamlit caches them)
and bounded in memory (``n_snapshots × n`` at most, never ``T × n``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmcore._validation import check_choice, check_int

__all__ = ["MAX_SNAPSHOTS", "MAX_STEPS", "Trace", "TraceRecorder", "freeze", "snapshot_times"]

#: Upper bounds that keep a trace's memory small whatever T is.
MAX_SNAPSHOTS = 5000
MAX_STEPS = 10_000


def snapshot_times(T: int, n_snapshots: int = 100, spacing: str = "geometric") -> np.ndarray:
    """Iterations at which to take snapshots: sorted, unique, always 1 and T.

    Parameters
    ----------
    T : int
        Number of iterations of the run.
    n_snapshots : int
        How many snapshots at most (fewer when T is small).
    spacing : {"geometric", "linear"}
        Geometric spacing shows the fast early changes of SGD in detail; linear
        spacing gives frames evenly spaced in t.

    Returns
    -------
    ndarray of int64, shape (S,), with S <= n_snapshots
    """
    T = check_int(T, "T", low=1)
    n_snapshots = check_int(n_snapshots, "n_snapshots", low=1, high=MAX_SNAPSHOTS)
    check_choice(spacing, "spacing", ["geometric", "linear"])
    if T <= n_snapshots:
        return np.arange(1, T + 1, dtype=np.int64)
    if n_snapshots == 1:
        return np.array([T], dtype=np.int64)
    if spacing == "linear":
        t = np.rint(np.linspace(1, T, n_snapshots)).astype(np.int64)
        return np.unique(t)
    # Geometric spacing with as many distinct integers as asked: take every small t
    # while the geometric grid would repeat integers, then space the rest
    # geometrically (a repeated rounding would otherwise give fewer than asked).
    for k in range(n_snapshots):
        rest = n_snapshots - k
        start = k + 1
        grid = np.geomspace(start, T, rest)
        if rest < 2 or grid[1] - grid[0] >= 1.0:
            t = np.concatenate([np.arange(1, start), np.rint(grid)]).astype(np.int64)
            t[-1] = T
            return np.unique(t)
    return np.arange(1, n_snapshots + 1, dtype=np.int64)  # pragma: no cover


@dataclass(frozen=True, eq=False)
class Trace:
    """The recorded history of one run.

    Attributes
    ----------
    algorithm : str
        Which algorithm produced it ("pegasos", "kernel_pegasos", "smo", ...).
    t : ndarray of int64, shape (S,)
        The iteration of each snapshot (1-based, increasing, last one is T).
    snapshots : dict of str to ndarray
        Per-snapshot values, each of shape (S, ...): parameters (``w``, ``b``,
        ``alpha``, ``beta``...), ``objective``, ``train_error``, ``n_support``...
    steps : dict of str to ndarray
        Per-step details of the first iterations, each of shape (n_steps, ...): ``t``,
        ``i`` (the sampled index), ``margin``, ``update`` (bool), ``eta``... (a field
        may hold an array per step, such as the multiclass scores of shape (n_steps, k)).
    info : dict
        Scalars describing the run (T, n, λ, schedule, averaging...).
    """

    algorithm: str
    t: np.ndarray
    snapshots: dict = field(default_factory=dict)
    steps: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.t.shape[0])

    @property
    def n_snapshots(self) -> int:
        """Number of snapshots S."""
        return len(self)

    @property
    def n_steps(self) -> int:
        """Number of recorded steps."""
        if "t" in self.steps:
            return int(self.steps["t"].shape[0])
        return 0

    def snapshot(self, k: int) -> dict:
        """Every recorded value of snapshot ``k`` (0-based; negative counts from the end)."""
        k = range(len(self))[k]
        out = {"t": int(self.t[k])}
        out.update({name: values[k] for name, values in self.snapshots.items()})
        return out

    def step(self, k: int) -> dict:
        """The details of recorded step ``k`` (0-based)."""
        k = range(self.n_steps)[k]
        return {
            name: values[k].item() if values[k].ndim == 0 else values[k].copy()
            for name, values in self.steps.items()
        }

    @classmethod
    def from_lists(cls, algorithm: str, t, snapshots: dict, steps: dict, info: dict) -> Trace:
        """A read-only Trace from per-snapshot value lists and per-step field lists."""
        return cls(
            algorithm=algorithm,
            t=freeze(np.asarray(t, dtype=np.int64)),
            snapshots={name: freeze(_stack(values)) for name, values in snapshots.items()},
            steps={name: freeze(np.asarray(values)) for name, values in steps.items()},
            info=info,
        )

    def index_at(self, t: int) -> int:
        """Index of the last snapshot taken at or before iteration ``t`` (0 if none)."""
        return max(int(np.searchsorted(self.t, t, side="right")) - 1, 0)


#: Steps between two calls of a run's ``progress`` when no snapshot falls between them
#: (about 0.1–1 s of the fast engines), so a run of T = 10⁸ reports ~100 times more.
PROGRESS_EVERY = 1 << 20


class TraceRecorder:
    """Collects snapshots and steps during a run, then freezes them into a :class:`Trace`.

    Parameters
    ----------
    algorithm : str
        Name stored in the trace.
    times : array of int
        The iterations at which :meth:`record` will be called (see :func:`snapshot_times`).
    n_steps : int
        How many of the first steps to record in detail.
    info : dict
        Scalars stored in the trace.
    progress : callable, optional
        ``progress(t, T)`` is called after each snapshot (T = the last snapshot time), so
        that a user interface can show how far a long run has got, and — through
        :meth:`tick` — at least every :data:`PROGRESS_EVERY` steps between two snapshots
        (a long run's geometric snapshots can be far apart). An exception raised by
        ``progress`` stops the run: that is how a caller interrupts it.
    """

    def __init__(
        self, algorithm: str, times: np.ndarray, n_steps: int = 300, info=None, progress=None
    ):
        self.algorithm = algorithm
        self.times = np.asarray(times, dtype=np.int64)
        self.n_steps = check_int(n_steps, "n_steps", low=0, high=MAX_STEPS)
        self.info = dict(info or {})
        self._snap: dict[str, list] = {}
        self._recorded_t: list[int] = []
        self._steps: dict[str, list] = {}
        self._n_recorded_steps = 0
        if progress is not None and not callable(progress):
            raise ValueError(
                f"progress must be a callable progress(t, T) or None, got {progress!r}"
            )
        self._progress = progress
        self._last = int(self.times[-1]) if self.times.size else 0
        self._next_tick = PROGRESS_EVERY

    @property
    def wants_steps(self) -> bool:
        """True while further steps should be recorded."""
        return self._n_recorded_steps < self.n_steps

    def record(self, t: int, **values) -> None:
        """Store one snapshot at iteration ``t`` (copies the arrays)."""
        self._recorded_t.append(int(t))
        for name, value in values.items():
            self._snap.setdefault(name, []).append(np.array(value, dtype=None, copy=True))
        if self._progress is not None:
            self._progress(int(t), self._last)

    def tick(self, t: int) -> None:
        """Report ``progress(t, T)`` between snapshots, once per :data:`PROGRESS_EVERY`
        steps (the engines call it as they go; nothing happens without ``progress``)."""
        if self._progress is not None and t >= self._next_tick:
            self._next_tick = (t // PROGRESS_EVERY + 1) * PROGRESS_EVERY
            self._progress(int(t), self._last)

    def step(self, **fields) -> None:
        """Store the details of one step (ignored once ``n_steps`` are stored)."""
        if self._n_recorded_steps >= self.n_steps:
            return
        for name, value in fields.items():
            self._steps.setdefault(name, []).append(value)
        self._n_recorded_steps += 1

    def finish(self, **info) -> Trace:
        """Freeze into a :class:`Trace` (arrays made read-only)."""
        self.info.update(info)
        return Trace.from_lists(
            self.algorithm, self._recorded_t, self._snap, self._steps, self.info
        )


def _stack(values) -> np.ndarray:
    """``np.stack(values)``; a list of scalars, or of arrays of one shape, takes the faster
    ``np.array`` (the same result)."""
    first = values[0] if len(values) else None
    if type(first) is float:  # the common case first: a list of Python floats
        return np.array(values)
    if isinstance(first, np.ndarray) and first.ndim:
        shape = first.shape
        if all(type(v) is np.ndarray and v.shape == shape for v in values):
            return np.array(values)  # what np.stack gives, without its Python overhead
        return np.stack(values)
    if isinstance(first, (float, int, np.floating, np.integer)) and not isinstance(first, bool):
        return np.array(values)
    return np.stack(values)


def freeze(a) -> np.ndarray:
    """``a`` as an array made read-only (results and traces are not to be edited)."""
    if type(a) is not np.ndarray:
        a = np.asarray(a)
    a.setflags(write=False)
    return a
