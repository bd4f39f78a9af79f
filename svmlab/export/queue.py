"""The queue of animation exports: one at a time per session, a few at a time per server.

A GIF or MP4 is the most expensive thing a student can ask the server for (a few CPU
seconds even drawn without a browser, :mod:`svmlab.export.raster`); a class clicking
"Prepare" at once must not slow every other session's clicks. :data:`EXPORTS` admits
:data:`SLOTS` exports at a time (``$SVMLAB_EXPORT_SLOTS``, default 1: the server has few
cores) in the order they were asked for, at most :data:`MAX_WAITING` waiting, and one
export per session (the owner key) — waiting or running.

Use::

    with EXPORTS.turn(session_id, on_wait=lambda position: ...):
        data = make_the_gif()

``on_wait(position)`` is called while waiting (1 = next), at least every :data:`POLL_S`
seconds; an exception raised in it (a Streamlit rerun stopping the script) leaves the
queue cleanly, as does one raised by the export. Pure Python: no Streamlit.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Hashable
from contextlib import contextmanager

__all__ = [
    "EXPORTS",
    "MAX_WAITING",
    "POLL_S",
    "SLOTS",
    "ExportBusy",
    "ExportQueue",
]

#: Exports running at once on one server (``$SVMLAB_EXPORT_SLOTS`` overrides it).
SLOTS = max(1, int(os.environ.get("SVMLAB_EXPORT_SLOTS", "1")))
#: Exports waiting at most (beyond: "the queue is full").
MAX_WAITING = 20
#: Seconds between two ``on_wait`` reports while waiting.
POLL_S = 0.5


class ExportBusy(RuntimeError):
    """This session already has an export waiting or running, or the queue is full."""


class ExportQueue:
    """First come, first served admission of at most ``slots`` exports at a time.

    Parameters
    ----------
    slots : int >= 1
        Exports running at once.
    max_waiting : int >= 0
        Exports allowed to wait; one more raises :class:`ExportBusy`.
    """

    def __init__(self, slots: int = SLOTS, max_waiting: int = MAX_WAITING):
        if int(slots) < 1:
            raise ValueError(f"slots must be >= 1, got {slots}")
        self.slots = int(slots)
        self.max_waiting = int(max_waiting)
        self._cond = threading.Condition()
        self._running: set = set()
        self._waiting: deque = deque()  # owners, in arrival order

    def position(self, owner: Hashable) -> int | None:
        """0 while ``owner``'s export runs, 1.. its place in the line, None if absent."""
        with self._cond:
            if owner in self._running:
                return 0
            try:
                return self._waiting.index(owner) + 1
            except ValueError:
                return None

    @property
    def running(self) -> int:
        """Exports running now."""
        with self._cond:
            return len(self._running)

    @property
    def waiting(self) -> int:
        """Exports waiting now."""
        with self._cond:
            return len(self._waiting)

    def _enter(self, owner: Hashable) -> None:
        if owner in self._running or owner in self._waiting:
            raise ExportBusy(
                "an export of this session is already being prepared: wait for it to finish"
            )
        if len(self._running) >= self.slots and len(self._waiting) >= self.max_waiting:
            raise ExportBusy(
                f"the export queue is full ({len(self._waiting)} waiting): try again in a minute"
            )
        self._waiting.append(owner)

    def _may_start(self, owner: Hashable) -> bool:
        return len(self._running) < self.slots and self._waiting[0] == owner

    @contextmanager
    def turn(self, owner: Hashable, *, on_wait: Callable[[int], None] | None = None):
        """Wait for ``owner``'s turn, run the body, then hand the slot on.

        Raises
        ------
        ExportBusy
            If ``owner`` already waits or runs, or :data:`MAX_WAITING` exports wait.
        """
        with self._cond:
            self._enter(owner)
        started = False
        try:
            while True:
                with self._cond:
                    if self._may_start(owner):
                        self._waiting.popleft()
                        self._running.add(owner)
                        started = True
                        break
                    position = self._waiting.index(owner) + 1
                if on_wait is not None:  # outside the lock: it may draw (and be stopped)
                    on_wait(position)
                with self._cond:
                    if not self._may_start(owner):
                        self._cond.wait(POLL_S)
            yield
        finally:
            with self._cond:
                if started:
                    self._running.discard(owner)
                else:
                    try:
                        self._waiting.remove(owner)
                    except ValueError:
                        pass
                self._cond.notify_all()


#: The server's one queue of animation exports.
EXPORTS = ExportQueue()
