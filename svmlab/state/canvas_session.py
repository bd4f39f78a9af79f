"""The data canvas's session: one object under one session key.

:class:`CanvasSession` holds everything the data panel and the canvas keep between reruns:
the points with their undo / redo history, the plane's axis ranges, the click mode, the
class of new points, the highest canvas event applied (``ack``), the messages to show and
the preset menu's values. The pages share it (one point list per browser session).

Two rules live here:

* **Events are applied exactly once.** Every canvas event carries a sequence number
  ``seq`` (increasing in the browser tab); the event channel
  (:func:`svmlab.ui.event_channel.deliver`) hands :meth:`CanvasSession.apply_events` each
  ``seq`` above ``ack`` once, in order, and raises ``ack`` to the last: the browser drops
  the events up to ``ack`` from its list.
* **The plane follows the points.** A click or a drag inside the plane keeps the axes (they
  must not move under the pointer; :func:`svmlab.state.plane.stable_range`). Any other change
  (import, preset, table, undo, redo, clear) fits the axes to the new points when they leave
  the plane or fill less than :data:`FILL` of it (:func:`follow_range`).

The dataclass is plain Python (testable without Streamlit);
:func:`svmlab.ui.session.get_session` stores it in ``st.session_state``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from svmcore.datasets import REGISTRY
from svmlab.state.plane import plane_range, stable_range
from svmlab.state.pointset import History, PointSet, apply_event, event_done

__all__ = [
    "DEFAULT_PRESET",
    "FILL",
    "MODES",
    "CanvasSession",
    "follow_range",
]

#: The data every session starts with: (preset name, n, noise, seed).
DEFAULT_PRESET = ("moons", 100, 0.15, 0)
PRESET_FIELDS = ("name", "n", "noise", "seed")
MODES = ("add", "erase", "move")
#: After a change other than a click, the axes are refitted when the points' padded box
#: spans less than this fraction of the plane along both axes.
FILL = 1 / 3

Range = tuple[tuple[float, float], tuple[float, float]]


def follow_range(X, current: Range | None) -> Range:
    """The plane's axes after a change that is not a click (import, table, undo, redo).

    ``current`` is kept while every point lies inside it and the points fill it (their
    :func:`svmlab.state.plane.plane_range` spans at least :data:`FILL` of it along one axis);
    otherwise the axes are fitted to the points afresh — they never stay on points that
    have gone (an import at ±1e6 undone) nor miss points that came.
    """
    fitted = plane_range(X)
    kept = stable_range(X, current)
    if current is None or kept != tuple(tuple(float(v) for v in r) for r in current):
        return fitted  # no range yet, a broken one, or points outside it
    spans = [(hi - lo) / (k1 - k0) for (lo, hi), (k0, k1) in zip(fitted, kept, strict=True)]
    return kept if max(spans) >= FILL else fitted


def _default_history() -> History:
    name, n, noise, seed = DEFAULT_PRESET
    X, y = REGISTRY[name].generator(n=n, noise=noise, random_state=seed)
    return History(PointSet.from_labels(X, y))


@dataclass
class CanvasSession:
    """The canvas's state of one browser session (see the module docstring)."""

    history: History = field(default_factory=_default_history)
    plane: Range | None = None
    mode: str = "add"
    cls: int = 1  # class index 0..5 of new points
    n_classes: int = 2  # of the page that drew the panel last
    version: int = 0  # increases whenever the current points change
    ack: int = 0  # highest event seq applied
    canvas_seen: bool = False  # a canvas was drawn in this session
    messages: list[tuple[str, str]] = field(default_factory=list)  # (kind, text), shown once
    import_error: tuple[str, str] | None = None  # (file id, text)
    table_key: str | None = None  # the table editor's widget key on the last run
    preset: dict = field(
        default_factory=lambda: dict(zip(PRESET_FIELDS, DEFAULT_PRESET, strict=True))
    )

    @property
    def points(self) -> PointSet:
        return self.history.current

    def say(self, kind: str, text: str) -> None:
        """Queue a message ("success", "warning", "error") for the data panel."""
        self.messages.append((kind, text))

    # -- changes --------------------------------------------------------------------------
    def commit(self, history: History, *, how: str = "follow") -> bool:
        """Make ``history`` current; True if the points changed.

        ``how`` sets the axes: "click" keeps them (growing only for a point outside),
        "follow" applies :func:`follow_range`, "fresh" fits them to the points.
        """
        if how not in ("click", "follow", "fresh"):
            raise ValueError(f"how must be 'click', 'follow' or 'fresh', got {how!r}")
        changed = history.current is not self.history.current
        self.history = history
        X = history.current.X
        if how == "fresh":
            self.plane = plane_range(X)
        elif changed:
            self.plane = (
                stable_range(X, self.plane) if how == "click" else follow_range(X, self.plane)
            )
        if changed:
            self.version += 1
        return changed

    def replace(self, points: PointSet, plane: Range | None = None) -> bool:
        """New data (import, preset, lesson file): undoable; the axes fit them, or are
        ``plane`` (a lesson's) widened to hold them."""
        changed = self.commit(self.history.push(points), how="fresh")
        if plane is not None:
            old, self.plane = self.plane, stable_range(points.X, plane)
            if self.plane != old and not changed:
                self.version += 1  # the same points on other axes: the link changes
        return changed

    def restore(self, points: PointSet, plane: Range | None = None) -> None:
        """Start from a share link's or a lesson's points (the first entry of the undo
        history: nothing to undo back to the default data), on the link's axes."""
        self.commit(History(points), how="fresh")
        if plane is not None:
            self.plane = stable_range(points.X, plane)
        self.version += 1  # a change even when the points equal the default data

    def undo(self) -> bool:
        return self.commit(self.history.undo())

    def redo(self) -> bool:
        return self.commit(self.history.redo())

    def clear(self) -> bool:
        """Remove every point (undoable); the axes go back to the default plane."""
        return self.commit(self.history.clear(), how="fresh")

    def apply_events(self, events: Iterable) -> bool:
        """Apply canvas events in the order given (the channel's: each ``seq`` once, in
        order; :func:`svmlab.ui.event_channel.deliver` keeps ``ack``), as one click edit.

        Returns True if the points changed; a refused event (e.g. beyond the point cap)
        leaves a message.
        """
        h = self.history
        for ev in events:
            if not isinstance(ev, Mapping):
                continue
            new, message = apply_event(h.current, ev)
            if message:
                self.say("warning", message)
            h = h.push(new)
        return self.commit(h, how="click")

    def apply_resent(self, events: Iterable) -> bool:
        """A new session's first events: apply, in the order given, those the points do not
        show yet.

        After a reconnect to a restarted server the browser sends again the events the old
        server applied (their points came back with the link) together with any new ones,
        made while the server was down; :func:`~svmlab.state.pointset.event_done` tells
        them apart, to within the link's quantization step (1/65535 of the plane): none is
        applied twice, every new one once, in order.
        """
        (x0, x1), (y0, y1) = self.ranges()
        tol = (2 * (x1 - x0) / 65535, 2 * (y1 - y0) / 65535)
        changed = False
        for ev in events:  # one at a time: an add, then the erase of the point it added
            if isinstance(ev, Mapping) and not event_done(self.points, ev, tol):
                changed = self.apply_events([ev]) or changed
        return changed

    def ranges(self) -> Range:
        """The plane's axes for the current points (kept stable; see the module docstring)."""
        self.plane = stable_range(self.points.X, self.plane)
        return self.plane

    def class_index(self, n_classes: int | None = None) -> int:
        """The class index of new points on a page with ``n_classes`` classes."""
        k = self.n_classes if n_classes is None else int(n_classes)
        return self.cls if 0 <= self.cls < k else min(1, k - 1)
