"""The points drawn on the data canvas, as pure logic (NumPy only, no Streamlit).

A :class:`PointSet` is an immutable list of 2-D points with integer class indices 0..5
(see :mod:`svmlab.style` for how binary labels −1/+1 map to classes 0/1). Every edit
returns a new set; :class:`History` keeps the earlier sets for undo. :func:`apply_event`
turns a canvas event (a click in add / erase / move mode) into an edit.

Import and export: CSV (``x1,x2,label`` with an optional header) and LIBSVM's sparse text
format (``label 1:x1 2:x2``). A malformed file raises :class:`PointsFormatError`, whose
message names the line and what is wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from svmlab.style import MAX_CLASSES, class_index

__all__ = [
    "COORD_LIMIT",
    "MAX_POINTS",
    "MAX_UNDO",
    "History",
    "PointSet",
    "PointsFormatError",
    "apply_event",
    "export_csv",
    "export_labels",
    "export_libsvm",
    "labels_to_classes",
    "parse_csv",
    "parse_libsvm",
    "parse_points",
    "points_from_rows",
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
        """Points from labels: ±1 (binary), 0..5 (multiclass) or up to 6 other integers."""
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
    """The current :class:`PointSet` and the earlier ones (newest last) for undo."""

    current: PointSet = field(default_factory=PointSet)
    past: tuple[PointSet, ...] = ()

    def push(self, new: PointSet) -> History:
        """Make ``new`` current; the old set goes on the undo stack (no-op if equal)."""
        if new == self.current:
            return self
        return History(new, (*self.past, self.current)[-MAX_UNDO:])

    def undo(self) -> History:
        """Back to the previous set (no-op if there is none)."""
        if not self.past:
            return self
        return History(self.past[-1], self.past[:-1])

    def clear(self) -> History:
        """An empty canvas (undoable)."""
        return self.push(PointSet())

    @property
    def can_undo(self) -> bool:
        return bool(self.past)


# -- canvas events ------------------------------------------------------------------------
def _finite(*values) -> bool:
    try:
        return all(math.isfinite(float(v)) for v in values)
    except (TypeError, ValueError):
        return False


def apply_event(points: PointSet, event: Mapping) -> tuple[PointSet, str | None]:
    """Apply one canvas event; returns ``(new_points, message)``.

    Events (``x``, ``y`` in data units):

    * ``{"type": "add", "x", "y", "cls"}`` – ``cls`` a label (−1/+1 or 0..5); see
      :func:`svmlab.style.class_index`;
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
    if kind not in ("add", "erase", "move") or not _finite(x, y):
        return points, None
    x, y = float(x), float(y)
    rx = float(event.get("rx", 0) or 0) if _finite(event.get("rx", 0) or 0) else 0.0
    ry = float(event.get("ry", 0) or 0) if _finite(event.get("ry", 0) or 0) else 0.0
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
    if _finite(fx, fy):
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


# -- labels -------------------------------------------------------------------------------
def labels_to_classes(labels, lines: Iterable[int] | None = None) -> np.ndarray:
    """Class indices 0..5 of integer labels.

    ±1 → 0 / 1; labels within 0..5 are kept as they are; any other set of at most six
    distinct integers is numbered in sorted order (e.g. LIBSVM's 1, 2, 3 → 0, 1, 2).
    ``lines`` (the file line of each label) lets errors name the line.
    """
    labels = np.asarray(labels, dtype=np.float64).reshape(-1)
    lines = list(lines) if lines is not None else [None] * labels.size
    for lab, line in zip(labels, lines, strict=True):
        if not math.isfinite(lab) or lab != round(lab):
            raise PointsFormatError(f"label {lab:g} is not an integer", line)
    values = set(labels.tolist())
    if values <= {-1.0, 1.0}:
        return np.where(labels < 0, 0, 1).astype(np.int64)
    if values <= set(range(MAX_CLASSES)):
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


def export_labels(points: PointSet, n_classes: int = 2) -> np.ndarray:
    """Labels written on export: ±1 on a binary page (if only classes 0/1 exist), else 0..5."""
    if n_classes == 2 and np.all(points.c < 2):
        return np.where(points.c == 0, -1, 1)
    return np.array(points.c, dtype=np.int64)


# -- parsing ------------------------------------------------------------------------------
_LABEL_NAMES = ("label", "class", "target", "y")


def _number(token: str, what: str, line: int) -> float:
    try:
        value = float(token)
    except ValueError:
        raise PointsFormatError(f"{what} {token.strip()!r} is not a number", line) from None
    if not math.isfinite(value):
        raise PointsFormatError(f"{what} {token.strip()!r} is not finite", line)
    if abs(value) > COORD_LIMIT and what != "label":
        raise PointsFormatError(f"{what} {value:g} is beyond ±{COORD_LIMIT:g}", line)
    return value


def _data_lines(text: str):
    """(line number, stripped text) of the non-blank lines without '#' comments."""
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip().lstrip("\ufeff")
        if body:
            yield number, body


def _is_header(tokens: list[str]) -> bool:
    """A header line has no number in it (a row with a typo is data, reported as such)."""
    for t in tokens:
        try:
            float(t)
        except ValueError:
            continue
        return False
    return True


def _split(body: str, sep: str | None) -> list[str]:
    return [t.strip() for t in body.split(sep)] if sep else body.split()


def parse_csv(text: str) -> PointSet:
    """Points from CSV text: ``x1,x2,label`` per line, with an optional header line.

    Separators ``,`` ``;`` tab or spaces; blank lines and ``#`` comments are skipped. A
    header names the columns (``x1,x2,label``, ``x,y,label``, ``x1,x2,y``…, any order).
    """
    rows = list(_data_lines(text))
    if not rows:
        raise PointsFormatError("the file has no data lines (expected x1,x2,label per line)")
    first = rows[0][1]
    sep = "," if "," in first else ";" if ";" in first else "\t" if "\t" in first else None
    cols = (0, 1, 2)
    tokens = _split(first, sep)
    if _is_header(tokens):
        names = [t.strip().strip("\"'").lower() for t in tokens]
        if len(names) != 3:
            raise PointsFormatError(
                f"the header has {len(names)} columns; expected 3 (x1, x2, label)", rows[0][0]
            )
        label_col = next((names.index(n) for n in _LABEL_NAMES if n in names), None)
        if label_col is None:
            raise PointsFormatError(
                f"the header {', '.join(names)} names no label column "
                "(call it label, class, target or y)",
                rows[0][0],
            )
        others = [j for j in range(3) if j != label_col]
        cols = (others[0], others[1], label_col)
        rows = rows[1:]
        if not rows:
            raise PointsFormatError("the file has a header but no data lines")
    X, labels, lines = [], [], []
    for number, body in rows:
        tokens = _split(body, sep)
        if len(tokens) != 3:
            raise PointsFormatError(
                f"expected 3 values (x1, x2, label), got {len(tokens)}: {body[:60]!r}", number
            )
        x1 = _number(tokens[cols[0]], "x1", number)
        x2 = _number(tokens[cols[1]], "x2", number)
        lab = _number(tokens[cols[2]], "label", number)
        if len(X) >= MAX_POINTS:
            raise PointsFormatError(f"more than {MAX_POINTS} points (the canvas's cap)", number)
        X.append((x1, x2))
        labels.append(lab)
        lines.append(number)
    return PointSet(np.array(X, dtype=np.float64), labels_to_classes(labels, lines))


_FEATURE = re.compile(r"^(\d+):(.+)$")


def parse_libsvm(text: str) -> PointSet:
    """Points from LIBSVM text: ``label 1:x1 2:x2`` per line (a missing feature is 0)."""
    X, labels, lines = [], [], []
    for number, body in _data_lines(text):
        tokens = body.split()
        lab = _number(tokens[0], "label", number)
        x = [0.0, 0.0]
        last = 0
        for tok in tokens[1:]:
            m = _FEATURE.match(tok)
            if m is None:
                raise PointsFormatError(f"{tok!r} is not of the form index:value", number)
            idx = int(m.group(1))
            if idx not in (1, 2):
                raise PointsFormatError(
                    f"feature index {idx} is out of range (the canvas is 2-D: use 1 and 2)",
                    number,
                )
            if idx <= last:
                raise PointsFormatError(
                    f"feature indices must increase (got {idx} after {last})", number
                )
            last = idx
            x[idx - 1] = _number(m.group(2), f"feature {idx}", number)
        if len(X) >= MAX_POINTS:
            raise PointsFormatError(f"more than {MAX_POINTS} points (the canvas's cap)", number)
        X.append(x)
        labels.append(lab)
        lines.append(number)
    if not X:
        raise PointsFormatError("the file has no data lines (expected label 1:x1 2:x2)")
    return PointSet(np.array(X, dtype=np.float64), labels_to_classes(labels, lines))


def parse_points(text: str, fmt: str = "auto") -> PointSet:
    """Parse CSV or LIBSVM text; ``fmt`` in {"auto", "csv", "libsvm"}.

    "auto" reads LIBSVM if the first data line has an ``index:value`` token, else CSV.
    """
    if fmt not in ("auto", "csv", "libsvm"):
        raise ValueError(f"fmt must be one of 'auto', 'csv', 'libsvm', got {fmt!r}")
    if fmt == "auto":
        first = next(_data_lines(text), (0, ""))[1]
        fmt = "libsvm" if any(_FEATURE.match(t) for t in first.split()) else "csv"
    return parse_libsvm(text) if fmt == "libsvm" else parse_csv(text)


def points_from_rows(x1, x2, labels) -> PointSet:
    """Points from table columns (the numeric fallback editor); errors name the row (1-based).

    Rows whose three cells are all empty are dropped; labels go through
    :func:`svmlab.style.class_index` (−1 → class 0, j → class j).
    """
    X, c = [], []
    for row, (a, b, lab) in enumerate(zip(x1, x2, labels, strict=True), start=1):
        cells = [a, b, lab]
        missing = [v is None or (isinstance(v, float) and math.isnan(v)) for v in cells]
        if all(missing):
            continue
        for name, v, miss in zip(("x1", "x2", "label"), cells, missing, strict=True):
            if miss:
                raise PointsFormatError(f"{name} is empty", row)
            if not _finite(v):
                raise PointsFormatError(f"{name} {v!r} is not a finite number", row)
        if abs(float(a)) > COORD_LIMIT or abs(float(b)) > COORD_LIMIT:
            raise PointsFormatError(f"a coordinate is beyond ±{COORD_LIMIT:g}", row)
        try:
            c.append(class_index(lab))
        except ValueError as exc:
            raise PointsFormatError(str(exc), row) from None
        X.append((float(a), float(b)))
    if len(X) > MAX_POINTS:
        raise PointsFormatError(f"more than {MAX_POINTS} points (the canvas's cap)")
    return PointSet(np.array(X, dtype=np.float64).reshape(-1, 2), np.array(c, dtype=np.int64))


# -- export -------------------------------------------------------------------------------
def export_csv(points: PointSet, n_classes: int = 2) -> str:
    """CSV text with the header ``x1,x2,label`` (coordinates round-trip exactly)."""
    labels = export_labels(points, n_classes)
    lines = ["x1,x2,label"]
    lines += [
        f"{x1!r},{x2!r},{lab}"
        for (x1, x2), lab in zip(points.X.tolist(), labels.tolist(), strict=True)
    ]
    return "\n".join(lines) + "\n"


def export_libsvm(points: PointSet, n_classes: int = 2) -> str:
    """LIBSVM text ``label 1:x1 2:x2`` (binary labels written as +1 / -1)."""
    labels = export_labels(points, n_classes)
    binary = n_classes == 2 and np.all(points.c < 2)
    out = []
    for (x1, x2), lab in zip(points.X.tolist(), labels.tolist(), strict=True):
        tag = f"{lab:+d}" if binary else f"{lab:d}"
        out.append(f"{tag} 1:{x1!r} 2:{x2!r}")
    return "\n".join(out) + ("\n" if out else "")
