"""The points drawn on the data canvas, as pure logic (NumPy only, no Streamlit).

A :class:`PointSet` is an immutable list of 2-D points with integer class indices 0..5
(see :mod:`svmlab.state.classes` for how binary labels −1/+1 map to classes 0/1). Every edit
returns a new set; :class:`History` keeps the earlier sets for undo and redo.
:func:`apply_event` turns a canvas event (a click in add / erase / move mode) into an edit.
Files and table cells are read in :mod:`svmlab.state.point_files`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from svmlab.state.classes import MAX_CLASSES, class_index

__all__ = [
    "COORD_LIMIT",
    "MAX_POINTS",
    "MAX_UNDO",
    "History",
    "PointSet",
    "PointsFormatError",
    "apply_event",
    "event_done",
    "is_finite_number",
]

#: Most points the canvas holds (clicks beyond are refused with a message).
MAX_POINTS = 2000
#: Undo depth.
MAX_UNDO = 100
#: Largest |coordinate| accepted from a file or the table (keeps the plot readable).
COORD_LIMIT = 1e6


class PointsFormatError(ValueError):
    """A malformed points file; ``line`` is the 1-based line (or table row) at fault."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class PointSet:
    """Immutable points ``X`` (n, 2) with class indices ``c`` (n,) in 0..5."""

    X: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    c: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))

    def __post_init__(self):
        X = np.asarray(self.X, dtype=np.float64).reshape(-1, 2)
        c = np.asarray(self.c, dtype=np.int64).reshape(-1)
        if X.shape[0] != c.shape[0]:
            raise ValueError(f"X has {X.shape[0]} points but c has {c.shape[0]} classes")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite (no NaN or infinity)")
        if c.size and (c.min() < 0 or c.max() >= MAX_CLASSES):
            raise ValueError(f"class indices must be in 0..{MAX_CLASSES - 1}")
        object.__setattr__(self, "X", _frozen(X))
        object.__setattr__(self, "c", _frozen(c))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_labels(cls, X, y) -> PointSet:
        """Points from labels: ±1 (binary), 0..5 with 0 (class indices) or up to 6 other
        integers (numbered in sorted order): :func:`labels_to_classes`."""

        return cls(X, labels_to_classes(y))

    # -- queries ------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def __len__(self) -> int:
        return self.n

    def __eq__(self, other) -> bool:
        if not isinstance(other, PointSet):
            return NotImplemented
        return np.array_equal(self.X, other.X) and np.array_equal(self.c, other.c)

    __hash__ = None  # type: ignore[assignment]

    def key(self) -> tuple:
        """A hashable fingerprint (for caches keyed by the data)."""
        return (self.n, self.X.tobytes(), self.c.tobytes())

    def nearest(self, x: float, y: float, *, rx: float = 1.0, ry: float = 1.0):
        """Index of the point nearest to (x, y) and its distance in units of (rx, ry).

        ``rx``, ``ry`` rescale the axes (e.g. data units per pixel), so that "near" means
        near on screen. Returns ``(None, inf)`` for an empty set.
        """
        if self.n == 0:
            return None, math.inf
        d = np.hypot((self.X[:, 0] - x) / rx, (self.X[:, 1] - y) / ry)
        i = int(np.argmin(d))
        return i, float(d[i])

    def labels(self, n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` for a page with ``n_classes`` classes.

        Binary (``n_classes == 2``): classes 0 / 1 become y = −1 / +1 (float). Multiclass:
        class j becomes label j (int). Points of classes ≥ ``n_classes`` are left out
        (:meth:`n_hidden` counts them).
        """
        keep = self.c < n_classes
        X = np.array(self.X[keep])
        if n_classes == 2:
            return X, np.where(self.c[keep] == 0, -1.0, 1.0)
        return X, np.array(self.c[keep], dtype=np.int64)

    def n_hidden(self, n_classes: int = 2) -> int:
        """Number of points whose class a page with ``n_classes`` classes does not show."""
        return int(np.sum(self.c >= n_classes))

    def counts(self) -> np.ndarray:
        """Points per class index (6,)."""
        return np.bincount(self.c, minlength=MAX_CLASSES)

    # -- edits (each returns a new set) ---------------------------------------------------
    def add(self, x: float, y: float, cls: int) -> PointSet:
        """Append the point (x, y) of class index ``cls``; refuses beyond :data:`MAX_POINTS`."""
        if self.n >= MAX_POINTS:
            raise ValueError(f"the canvas holds at most {MAX_POINTS} points")
        x, y = float(x), float(y)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"a point must have finite coordinates, got ({x}, {y})")
        cls = int(cls)
        if not 0 <= cls < MAX_CLASSES:
            raise ValueError(f"cls must be a class index in 0..{MAX_CLASSES - 1}, got {cls}")
        return PointSet(np.vstack([self.X, [[x, y]]]), np.append(self.c, cls))

    def remove(self, index: int) -> PointSet:
        """Drop point ``index``."""
        index = self._check_index(index)
        keep = np.arange(self.n) != index
        return PointSet(self.X[keep], self.c[keep])

    def move(self, index: int, x: float, y: float) -> PointSet:
        """Move point ``index`` to (x, y), keeping its class and its place in the order."""
        index = self._check_index(index)
        x, y = float(x), float(y)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"a point must have finite coordinates, got ({x}, {y})")
        X = np.array(self.X)
        X[index] = (x, y)
        return PointSet(X, self.c)

    def erase_nearest(self, x: float, y: float, radius: float, *, ry: float | None = None):
        """Erase the point nearest to (x, y) if it lies within ``radius`` (data units).

        With ``ry`` the radius is ``radius`` along x and ``ry`` along y (an ellipse: a
        circle on screen when the axes have different scales). Returns ``(new_set, index)``;
        ``index`` is None (and the set unchanged) when no point is close enough.
        """
        rx = float(radius)
        ry = rx if ry is None else float(ry)
        if not (rx > 0 and ry > 0):
            raise ValueError(f"radius must be > 0, got {radius}")
        i, d = self.nearest(x, y, rx=rx, ry=ry)
        if i is None or d > 1.0:
            return self, None
        return self.remove(i), i

    def _check_index(self, index) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise ValueError(f"index must be an integer, got {index!r}")
        if not 0 <= int(index) < self.n:
            raise ValueError(f"index must be in 0..{self.n - 1}, got {index}")
        return int(index)


@dataclass(frozen=True, eq=False)
class History:
    """The current :class:`PointSet`, the earlier ones (newest last) for undo and the undone
    ones (next first) for redo."""

    current: PointSet = field(default_factory=PointSet)
    past: tuple[PointSet, ...] = ()
    future: tuple[PointSet, ...] = ()

    def push(self, new: PointSet) -> History:
        """Make ``new`` current; the old set goes on the undo stack (no-op if equal).

        A new edit drops the redo stack.
        """
        if new == self.current:
            return self
        return History(new, (*self.past, self.current)[-MAX_UNDO:])

    def undo(self) -> History:
        """Back to the previous set (no-op if there is none)."""
        if not self.past:
            return self
        return History(self.past[-1], self.past[:-1], (self.current, *self.future))

    def redo(self) -> History:
        """Forward to the set the last undo left (no-op if there is none)."""
        if not self.future:
            return self
        return History(self.future[0], (*self.past, self.current)[-MAX_UNDO:], self.future[1:])

    def clear(self) -> History:
        """An empty canvas (undoable)."""
        return self.push(PointSet())

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)


# -- canvas events ------------------------------------------------------------------------
def is_finite_number(*values) -> bool:
    """True if every value converts to a finite float (False for None, text, NaN, ±inf)."""
    try:
        return all(math.isfinite(float(v)) for v in values)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int of 400 digits
        return False


def event_done(points: PointSet, event: Mapping, tol: tuple[float, float]) -> bool:
    """Whether ``points`` already show the effect of a canvas ``event`` (to within ``tol``
    per axis, e.g. a share link's quantization step): an added point of its class is
    there; an erased or moved point is no longer at its place.

    A new session (the browser reconnected to a restarted server, the points brought back by
    the URL) receives the events the browser sent to the old server with the first new
    ones: those done already are skipped, the others applied.
    """
    kind = event.get("type") if isinstance(event, Mapping) else None
    keys = {"add": ("x", "y"), "erase": ("x", "y"), "move": ("from_x", "from_y")}.get(kind)
    if keys is None or not is_finite_number(*(event.get(k) for k in keys)):
        return False
    x, y = (float(event[k]) for k in keys)
    near = (np.abs(points.X[:, 0] - x) <= tol[0]) & (np.abs(points.X[:, 1] - y) <= tol[1])
    if kind != "add":
        return not near.any()
    try:
        return bool((near & (points.c == class_index(event.get("cls", 1)))).any())
    except ValueError:
        return False


def apply_event(points: PointSet, event: Mapping) -> tuple[PointSet, str | None]:
    """Apply one canvas event; returns ``(new_points, message)``.

    Events (``x``, ``y`` in data units):

    * ``{"type": "add", "x", "y", "cls"}`` – ``cls`` a label (−1/+1 or 0..5); see
      :func:`svmlab.state.classes.class_index`;
    * ``{"type": "erase", "x", "y", "index"?, "rx"?, "ry"?}`` – erase point ``index`` if it
      is still within (rx, ry) of (x, y), else the point nearest to (x, y) within (rx, ry);
    * ``{"type": "move", "index", "x", "y", "from_x"?, "from_y"?, "rx"?, "ry"?}`` – move
      point ``index`` to (x, y); if (from_x, from_y) is given and point ``index`` is no
      longer there (stale index), the point nearest to it within (rx, ry) moves instead.

    ``message`` explains a refused event (None when the event applied or was a no-op).
    Malformed events never raise: they come from the browser.
    """
    if not isinstance(event, Mapping):
        return points, None
    kind, x, y = event.get("type"), event.get("x"), event.get("y")
    if kind not in ("add", "erase", "move") or not is_finite_number(x, y):
        return points, None
    x, y = float(x), float(y)
    rx = float(event.get("rx", 0) or 0) if is_finite_number(event.get("rx", 0) or 0) else 0.0
    ry = float(event.get("ry", 0) or 0) if is_finite_number(event.get("ry", 0) or 0) else 0.0
    if kind == "add":
        if points.n >= MAX_POINTS:
            return points, f"The canvas holds at most {MAX_POINTS} points: click ignored."
        try:
            cls = class_index(event.get("cls", 1))
        except ValueError as exc:
            return points, str(exc)
        return points.add(x, y, cls), None
    if kind == "erase":
        index = _resolve_index(points, event.get("index"), x, y, rx, ry)
        if index is None and rx > 0 and ry > 0:
            index, d = points.nearest(x, y, rx=rx, ry=ry)
            index = index if d <= 1.0 else None
        return (points.remove(index), None) if index is not None else (points, None)
    # move
    fx, fy = event.get("from_x"), event.get("from_y")
    index = event.get("index")
    if is_finite_number(fx, fy):
        index = _resolve_index(points, index, float(fx), float(fy), rx, ry)
        if index is None and rx > 0 and ry > 0:
            index, d = points.nearest(float(fx), float(fy), rx=rx, ry=ry)
            index = index if d <= 1.0 else None
    elif not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < points.n):
        index = None
    return (points.move(index, x, y), None) if index is not None else (points, None)


def _resolve_index(points: PointSet, index, x, y, rx, ry) -> int | None:
    """``index`` if it is a valid index whose point lies within (rx, ry) of (x, y)."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        return None
    if not 0 <= index < points.n:
        return None
    if rx > 0 and ry > 0:
        px, py = points.X[index]
        if math.hypot((px - x) / rx, (py - y) / ry) > 1.5:
            return None
    return int(index)


def labels_to_classes(labels, lines: Iterable[int] | None = None, *, indices: bool = False):
    """Class indices 0..5 of integer labels, as documented for files:

    * −1 / +1 → 0 / 1 (binary);
    * labels in 0..5 that include 0 are class indices already (kept);
    * any other set of at most six distinct integers is numbered in sorted order, e.g.
      LIBSVM's 1, 2, 3 → 0, 1, 2 and a binary 1, 2 → 0, 1 (i.e. −1, +1).

    ``indices=True`` (a file exported with
    :data:`svmlab.state.point_files.CLASS_INDEX_MARK`) keeps labels in 0..5
    as they are. ``lines`` (the file line of each label) lets errors name the line.
    """
    labels = np.asarray(labels, dtype=np.float64).reshape(-1)
    lines = list(lines) if lines is not None else [None] * labels.size
    for lab, line in zip(labels, lines, strict=True):
        if not math.isfinite(lab) or lab != round(lab):
            raise PointsFormatError(f"label {lab:g} is not an integer", line)
    values = set(labels.tolist())
    if values <= {-1.0, 1.0}:
        return np.where(labels < 0, 0, 1).astype(np.int64)
    if values <= set(range(MAX_CLASSES)) and (indices or 0.0 in values):
        return labels.astype(np.int64)
    seen: list[float] = []
    for lab, line in zip(labels, lines, strict=True):
        if lab not in seen:
            seen.append(lab)
            if len(seen) > MAX_CLASSES:
                raise PointsFormatError(
                    f"label {lab:g} is a 7th class; the canvas has at most {MAX_CLASSES} "
                    f"classes (found {', '.join(f'{v:g}' for v in seen)})",
                    line,
                )
    order = {v: j for j, v in enumerate(sorted(values))}
    return np.array([order[v] for v in labels.tolist()], dtype=np.int64)
