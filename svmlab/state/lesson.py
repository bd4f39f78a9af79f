"""Lesson files: a :class:`~svmlab.state.labstate.LabState` as JSON, for states above the
URL budget.

A lesson file holds what a share link holds, with the points at full precision::

    {"format": "svmlab-lesson", "v": 1, "page": "kernel_pegasos", "alg": "kernel_pegasos",
     "params": {"kernel": "rbf", "gamma": 1.0, "lam": 0.01, "T": 500},
     "classes": 2, "plane": [x0, x1, y0, y1], "snap": 499, "present": false,
     "theme": "light", "done": [],
     "points": [
      [x1, x2, class],
      ...
     ]}

:func:`read_lesson` checks it through :mod:`svmlab.state.statecheck`, as
:mod:`svmlab.state.urlstate` checks a link, with the same messages; it never raises. A file
with a bad point loads no points (a partial data set would be mistaken for the lesson's).
"""

from __future__ import annotations

import json
import math

import numpy as np

from svmlab.state.classes import MAX_CLASSES
from svmlab.state.labstate import FIELDS, DecodeResult, LabState, read_theme
from svmlab.state.points import MAX_POINTS, PointSet
from svmlab.state.statecheck import (
    COORD_BOUND,
    DEFAULT_SCHEMA,
    read_fields,
    show_value,
    version_problem,
)

__all__ = ["FORMAT", "MAX_LESSON_CHARS", "VERSION", "lesson_json", "read_lesson"]

FORMAT = "svmlab-lesson"
VERSION = 1
#: Largest lesson file read (characters): 2000 points take about 100 000.
MAX_LESSON_CHARS = 1_000_000


def lesson_json(state: LabState) -> str:
    """The lesson file of ``state`` (JSON text, one point per line)."""
    head = {
        "format": FORMAT,
        "v": VERSION,
        "page": state.page,
        "alg": state.alg,
        "params": dict(state.params),
        "classes": state.classes,
        "plane": None if state.plane is None else list(state.plane),
        "snap": state.snap,
        "present": state.present,
        "theme": state.theme,
        "done": sorted(state.done),
    }
    rows = ",\n".join(
        f"  [{json.dumps(float(x))}, {json.dumps(float(y))}, {int(c)}]"
        for (x, y), c in zip(state.points.X, state.points.c, strict=True)
    )
    body = f"[\n{rows}\n ]" if rows else "[]"
    return f'{json.dumps(head, ensure_ascii=False)[:-1]},\n "points": {body}}}\n'


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _point_rows(rows) -> PointSet:
    """The points of a lesson file's ``points`` list; ValueError naming the row."""
    if not isinstance(rows, list):
        raise ValueError("not a list of [x1, x2, class] rows")
    if len(rows) > MAX_POINTS:
        raise ValueError(f"{len(rows)} points, above the cap of {MAX_POINTS}")
    X = np.empty((len(rows), 2))
    c = np.empty(len(rows), dtype=np.int64)
    for i, row in enumerate(rows):
        ok = isinstance(row, list) and len(row) == 3
        ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
        # |v| first: a JSON integer of 400 digits is exact in Python but no float
        # (math.isfinite would raise OverflowError); the bound refuses it
        ok = ok and all(abs(v) <= COORD_BOUND and math.isfinite(v) for v in row[:2])
        if not ok:
            raise ValueError(
                f"row {i + 1} is not [x1, x2, class] with finite |x| ≤ {COORD_BOUND:g}"
            )
        if not (isinstance(row[2], int) and 0 <= row[2] < MAX_CLASSES):
            raise ValueError(
                f"row {i + 1}: class {show_value(row[2])} is not in 0..{MAX_CLASSES - 1}"
            )
        X[i], c[i] = row[:2], row[2]
    return PointSet(X, c)


def read_lesson(text, schema=DEFAULT_SCHEMA, *, pages=None) -> DecodeResult:
    """Read a lesson file, trusting nothing. Never raises.

    Parameters
    ----------
    text : str or bytes
        The file's content (UTF-8).
    schema, pages
        As for :func:`svmlab.state.urlstate.decode_state`.

    Returns
    -------
    DecodeResult
    """
    try:
        return _read_lesson(text, schema, pages)
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # a check missed
        why = " ".join(str(exc).split())[:80] or type(exc).__name__
        return DecodeResult.refused(
            "home", f"lesson: could not be read ({why}); opened with the defaults"
        )


def _read_lesson(text, schema, pages) -> DecodeResult:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str) or len(text) > MAX_LESSON_CHARS:
        size = len(text) if isinstance(text, str) else 0
        return DecodeResult.refused(
            "home",
            f"lesson: the file is {size} characters, above "
            f"the limit of {MAX_LESSON_CHARS}; opened with the defaults",
        )
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return DecodeResult.refused(
            "home",
            f"lesson: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "opened with the defaults",
        )
    except (ValueError, RecursionError) as exc:
        return DecodeResult.refused("home", f"lesson: not JSON ({exc}); opened with the defaults")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return DecodeResult.refused(
            "home",
            f'lesson: not an SVM Lab lesson file (no "format": "{FORMAT}"); '
            "opened with the defaults",
        )
    problem = version_problem(doc.get("v"), VERSION)
    if problem:
        return DecodeResult.refused("home", problem)
    messages = [
        f"{str(k)[:40]}: unknown field; ignored" for k in doc if k not in (*FIELDS, "format", "v")
    ]
    params = doc.get("params") or {}
    if not isinstance(params, dict):
        messages.append(f"params: {show_value(params)} is not an object; ignored")
        params = {}
    fields, msgs = read_fields(doc, params, schema, pages=pages)
    messages += msgs
    theme, msg = read_theme(doc.get("theme"))
    fields.update({"theme": theme} if theme else {})
    messages += [msg] if msg else []
    if doc.get("points") is not None:
        try:
            fields["points"] = _point_rows(doc["points"])
        except ValueError as exc:
            messages.append(f"points: {exc}; not loaded")
    return DecodeResult(LabState(**fields), tuple(messages), frozenset(fields))
