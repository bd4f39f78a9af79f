"""Points in and out of the canvas: CSV and LIBSVM files, class labels, table cells.

Import and export: CSV (``x1,x2,label`` with an optional header) and LIBSVM's sparse text
format (``label 1:x1 2:x2``). A malformed file raises :class:`PointsFormatError`, whose
message names the line and what is wrong; :func:`read_points` also says how the file's
labels were mapped to the canvas's classes. :func:`parse_cell` reads one number typed in
the table editor exactly as typed, or refuses it naming the row and the column.
"""

from __future__ import annotations

import math
import re

import numpy as np

from svmlab.state.classes import class_index
from svmlab.state.pointset import (
    COORD_LIMIT,
    MAX_POINTS,
    PointSet,
    PointsFormatError,
    is_finite_number,
    labels_to_classes,
)

__all__ = [
    "CLASS_INDEX_MARK",
    "export_csv",
    "export_labels",
    "export_libsvm",
    "label_map_text",
    "labels_to_classes",
    "parse_cell",
    "parse_csv",
    "parse_libsvm",
    "parse_points",
    "points_from_rows",
    "read_points",
]

#: The comment an export starts with when its labels are class indices that would
#: otherwise be renumbered on import (a multiclass set without class 0).
CLASS_INDEX_MARK = "# svmlab: labels are class indices 0..5"


# -- labels -------------------------------------------------------------------------------
def label_map_text(labels, classes, n_classes: int = 2) -> str | None:
    """How file labels became the page's labels, e.g. "labels 1, 2 → classes −1, +1".

    ``classes`` are the class indices :func:`labels_to_classes` gave ``labels``; a binary
    page (``n_classes == 2``) names classes 0 / 1 as −1 / +1. None when every label is
    kept as it is.
    """
    pairs = sorted({(float(a), int(c)) for a, c in zip(labels, classes, strict=True)})

    def page(c: int) -> float:
        return (-1.0 if c == 0 else 1.0) if n_classes == 2 and c < 2 else float(c)

    if all(v == page(c) for v, c in pairs):
        return None
    sign = {-1.0: "−1", 1.0: "+1"} if n_classes == 2 else {}
    old = ", ".join(f"{v:g}".replace("-", "−") for v, _ in pairs)
    new = ", ".join(sign.get(page(c), f"{page(c):g}") for _, c in pairs)
    return f"labels {old} → classes {new}"


def export_labels(points: PointSet, n_classes: int = 2) -> np.ndarray:
    """Labels written on export: ±1 on a binary page (if only classes 0/1 exist), else 0..5."""
    if n_classes == 2 and np.all(points.c < 2):
        return np.where(points.c == 0, -1, 1)
    return np.array(points.c, dtype=np.int64)


def _mark(points: PointSet, labels: np.ndarray) -> list[str]:
    """The class-index comment, if the labels alone would be read back as other classes."""
    if labels.size and not np.array_equal(labels_to_classes(labels), points.c):
        return [CLASS_INDEX_MARK]
    return []


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
    return _build(_csv_rows(text), text)[0]


def _csv_rows(text: str):
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
    return X, labels, lines


_FEATURE = re.compile(r"^(\d+):(.+)$")


def parse_libsvm(text: str) -> PointSet:
    """Points from LIBSVM text: ``label 1:x1 2:x2`` per line (a missing feature is 0)."""
    return _build(_libsvm_rows(text), text)[0]


def _libsvm_rows(text: str):
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
    return X, labels, lines


def _build(rows, text: str) -> tuple[PointSet, list[float]]:
    """The points of parsed ``rows`` (X, labels, lines) and their labels as read."""
    X, labels, lines = rows
    marked = any(line.strip() == CLASS_INDEX_MARK for line in text.splitlines()[:3])
    c = labels_to_classes(labels, lines, indices=marked)
    return PointSet(np.array(X, dtype=np.float64).reshape(-1, 2), c), labels


def _format(text: str, fmt: str) -> str:
    """ "csv" or "libsvm": ``fmt``, or for "auto" LIBSVM if the first data line has an
    ``index:value`` token or holds only a label (a point whose features are all 0)."""
    if fmt not in ("auto", "csv", "libsvm"):
        raise ValueError(f"fmt must be one of 'auto', 'csv', 'libsvm', got {fmt!r}")
    if fmt != "auto":
        return fmt
    tokens = next(_data_lines(text), (0, ""))[1].split()
    if any(_FEATURE.match(t) for t in tokens):
        return "libsvm"
    lone_label = len(tokens) == 1 and not re.search("[,;]", tokens[0])
    return "libsvm" if lone_label and is_finite_number(tokens[0]) else "csv"


def parse_points(text: str, fmt: str = "auto") -> PointSet:
    """Parse CSV or LIBSVM text; ``fmt`` in {"auto", "csv", "libsvm"}.

    "auto" reads LIBSVM if the first data line has an ``index:value`` token or is a lone
    label (LIBSVM's line of a point at the origin), else CSV.
    """
    return read_points(text, fmt)[0]


def read_points(text: str, fmt: str = "auto", n_classes: int = 2):
    """Parse like :func:`parse_points`; returns ``(points, note)``.

    ``note`` says how the file's labels were mapped to the classes of a page with
    ``n_classes`` classes (:func:`label_map_text`, e.g. "labels 1, 2 → classes −1, +1"),
    or is None when the labels are kept as they are.
    """
    fmt = _format(text, fmt)
    rows = _libsvm_rows(text) if fmt == "libsvm" else _csv_rows(text)
    points, labels = _build(rows, text)
    return points, label_map_text(labels, points.c, n_classes)


_CELL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse_cell(text, row: int, column: str) -> float:
    """The number typed in table cell (``row``, ``column``), exactly as typed.

    Accepts decimal and scientific notation (``1e-3``, ``-2.5E+4``) and a decimal comma
    (``0,5`` = 0.5). Refuses, with a :class:`PointsFormatError` naming the row and the
    column ("row 3: x1 'abc' is not a number"), an empty cell, text that is not a number
    (``abc``, ``nan``, ``inf``, ``1,000.5``) and a value beyond ±:data:`COORD_LIMIT`.
    """
    raw = "" if text is None else str(text).strip()
    if not raw:
        raise PointsFormatError(f"row {row}: {column} is empty")
    body = raw.replace(",", ".", 1) if raw.count(",") == 1 and "." not in raw else raw
    if not _CELL.match(body):
        raise PointsFormatError(f"row {row}: {column} {raw!r} is not a number")
    value = float(body)
    if not abs(value) <= COORD_LIMIT:
        raise PointsFormatError(f"row {row}: {column} {raw} is beyond the limit ±{COORD_LIMIT:g}")
    return value


def points_from_rows(x1, x2, labels) -> PointSet:
    """Points from table columns (the numeric fallback editor); errors name the row (1-based).

    Rows whose three cells are all empty are dropped; labels go through
    :func:`svmlab.state.classes.class_index` (−1 → class 0, j → class j).
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
            if not is_finite_number(v):
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
    lines = [*_mark(points, labels), "x1,x2,label"]
    lines += [
        f"{x1!r},{x2!r},{lab}"
        for (x1, x2), lab in zip(points.X.tolist(), labels.tolist(), strict=True)
    ]
    return "\n".join(lines) + "\n"


def export_libsvm(points: PointSet, n_classes: int = 2) -> str:
    """LIBSVM text ``label 1:x1 2:x2`` (binary labels written as +1 / -1)."""
    labels = export_labels(points, n_classes)
    binary = n_classes == 2 and np.all(points.c < 2)
    out = _mark(points, labels)
    for (x1, x2), lab in zip(points.X.tolist(), labels.tolist(), strict=True):
        tag = f"{lab:+d}" if binary else f"{lab:d}"
        out.append(f"{tag} 1:{x1!r} 2:{x2!r}")
    return "\n".join(out) + ("\n" if out else "")
