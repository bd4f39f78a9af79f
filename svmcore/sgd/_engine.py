"""The one fast engine of the SGD family, and the textbook loop beside it.

Every SGD algorithm of the texts has the same loop: sample i_t, test the current model
on it (a margin below 1, a wrong sign, an argmax ŷ ≠ y), and change the model only when
the test fires. Most late steps do not fire, so :func:`run_fast` tests whole chunks of
sampled indices at once, assuming no update in between, and jumps to the first step
whose test fires (``argmax`` of the boolean mask), applies it, and tests the rest of the
chunk again. When more than a quarter of a chunk's steps fire, the next chunk runs one
step at a time, which is then cheaper (for the multiclass models, whose one-step scores
are cheap relative to re-scoring a chunk). The first ``n_steps`` steps (and t = 1) always run
one at a time and are recorded. Chunk sizes depend only on the run itself, so the same
seed gives a bit-identical run.

An algorithm plugs in as a *model* with five methods (see :class:`FastModel`).

:func:`run_textbook` loops an algorithm's plain step one iteration at a time (its test
computed as the fast model computes it: :mod:`svmcore.sgd.common`, "The margin test") and
keeps the sum of the iterates for the average: the reference the fast engine must
equal, and the source of the step inspector's values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from svmcore.trace import PROGRESS_EVERY

__all__ = ["FastModel", "run_fast", "run_textbook"]

DENSE_CHUNK = 256
MAX_CHUNK = 1 << 16


class FastModel(Protocol):
    """What :func:`run_fast` needs from an algorithm (t is the 1-based iteration).

    Tuning (attributes): after a chunk in which more than ``few`` steps fired the next
    chunk has ``min_chunk`` steps (else twice as many as before, up to MAX_CHUNK); when
    more than the fraction ``dense_above`` of a chunk fired, the next one runs one step at
    a time.
    """

    min_chunk: int
    few: int
    dense_above: float

    def recorded_step(self, i: int, t: int) -> dict:
        """Run step t on sample i, apply its update, return the fields to record."""

    def quick_step(self, i: int, t: int) -> bool:
        """Run step t on sample i (t >= 2), apply its update; True if it fired."""

    def chunk_test(self, I: np.ndarray, t: int) -> tuple[Callable, Callable | None]:
        """For steps t, t+1, … on samples I: ``test(offset)`` returns the mask of the
        steps I[offset:] whose test fires under the current model; ``extra(p)`` (or None)
        the value :meth:`accept` needs for the p-th of them (the multiclass ŷ)."""

    def accept(self, i: int, t: int, extra) -> None:
        """Apply the update of step t on sample i (``extra``: its row of the test)."""

    def snapshot(self, t: int) -> None:
        """Record the model as output after t steps."""


def run_fast(model: FastModel, stream, times, recorder) -> None:
    """Run the T = times[-1] steps of ``model`` on the indices of ``stream``."""
    t = 1
    chunk = 4 * model.min_chunk
    dense = False
    for stop in times.tolist():
        while t <= stop and (recorder.wants_steps or t == 1):
            recorder.step(**model.recorded_step(int(stream.take(1)[0]), t))
            t += 1
        while t <= stop:
            I = stream.take(min(chunk, stop - t + 1))
            B = I.shape[0]
            if dense:
                fired = sum(model.quick_step(i, t + k) for k, i in enumerate(I.tolist()))
            else:
                fired = _scan(model, I, t)
            t += B
            recorder.tick(t - 1)
            dense = fired > model.dense_above * B
            if dense:
                chunk = DENSE_CHUNK
            else:
                chunk = model.min_chunk if fired > model.few else min(2 * chunk, MAX_CHUNK)
        model.snapshot(stop)


def _scan(model: FastModel, I: np.ndarray, t: int) -> int:
    """Accept, in order, every step of the chunk whose test fires; return their number."""
    (test, extra), accept = model.chunk_test(I, t), model.accept
    B = I.shape[0]
    offset = 0
    fired = 0
    while offset < B:
        mask = test(offset)
        p = int(mask.argmax())
        if not mask[p]:
            break
        pos = offset + p
        accept(int(I[pos]), t + pos, extra and extra(p))
        fired += 1
        offset = pos + 1
    return fired


def run_textbook(step, state, *, iterate, stream, times, recorder, on_snapshot, batch=1):
    """Loop ``step`` one iteration at a time, as the algorithm box does.

    Parameters
    ----------
    step : callable
        ``step(state, I, t) -> (state, fields)``: iteration t on the sampled indices I
        (``batch`` of them), returning the next state and the fields to record.
    state : tuple
        The initial state (w_1 = 0, β(1) = 0, …).
    iterate : callable
        ``iterate(state, t)`` is the model w_t at which step t is taken (a tuple of
        arrays or floats): what the average (1/T) Σ_{t=1..T} w_t sums.
    stream, times, recorder : the run's sampled indices, snapshot times and recorder.
    on_snapshot : callable
        ``on_snapshot(t, state, total)`` after each t in ``times``: ``state`` is the
        state after step t, ``total`` = Σ_{τ≤t} iterate_τ.

    Returns
    -------
    state, total
    """
    total = [np.zeros_like(np.asarray(v, dtype=np.float64)) for v in iterate(state, 1)]
    snaps = set(times.tolist())
    for t in range(1, int(times[-1]) + 1):
        for acc, v in zip(total, iterate(state, t), strict=True):
            acc += v
        state, fields = step(state, stream.take(batch), t)
        recorder.step(**fields)
        if t in snaps:
            on_snapshot(t, state, total)
        elif t % PROGRESS_EVERY == 0:
            recorder.tick(t)
    return state, total
