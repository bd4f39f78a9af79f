"""The data panel's table editor: the points as rows, for keyboard users and exact numbers.

Coordinates are text columns read by :func:`svmlab.state.points.parse_cell`, so a number is
stored exactly as typed (``1e-3``, ``-2.5E+4``, a decimal comma ``0,5``) or refused with
a message naming the row and the column, and the cell keeps its previous value.
(``st.column_config.NumberColumn`` parses in the browser and drops what it does not
expect: ``1e-3`` became −13, ``1e308`` 1308, ``0,5`` 5, and ``nan``, ``inf``, ``abc`` or a
cleared cell were ignored without a word.)

Edits reach Python as they are typed (no form), and "Apply table" applies them. If the
points change before that (a click, an undo, an import), the table is re-drawn from the new
points and the panel says that the edits were not applied.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from svmlab.state.canvas_session import CanvasSession
from svmlab.state.classes import class_index, class_label
from svmlab.state.points import MAX_POINTS, PointSet, PointsFormatError, parse_cell
from svmlab.ui.session import get_session

__all__ = ["apply_table", "table_key", "table_widgets", "warn_unapplied"]

_COORDS = ("x1", "x2")
UNAPPLIED = "The points changed while the table was open; table edits were not applied."


def table_key(s: CanvasSession, key: str) -> str:
    """The table editor's widget key for the current points (a new table when they change)."""
    return f"{key}_table_{s.version}"


def _has_edits(state) -> bool:
    return isinstance(state, Mapping) and any(
        state.get(name) for name in ("edited_rows", "added_rows", "deleted_rows")
    )


def warn_unapplied(s: CanvasSession, key: str) -> None:
    """Say so if the table drawn last had edits and the points changed under it."""
    old = s.table_key
    if old and old != table_key(s, key) and _has_edits(st.session_state.get(old)):
        s.say("warning", UNAPPLIED)
    s.table_key = None


def _shown_rows(s: CanvasSession, n_classes: int) -> list[list]:
    p = s.points
    keep = p.c < n_classes
    return [
        [float(a), float(b), class_label(j, n_classes)]
        for (a, b), j in zip(p.X[keep].tolist(), p.c[keep].tolist(), strict=True)
    ]


def _edit_rows(rows: list[list], state: Mapping) -> tuple[list[list], list[str]]:
    """The rows after the edits in ``state``; refused cells keep their value (messages)."""
    errors: list[str] = []
    rows = [list(r) for r in rows]
    for i, change in (state.get("edited_rows") or {}).items():
        i = int(i)
        if not 0 <= i < len(rows):
            continue
        for col, val in change.items():
            try:
                if col in _COORDS:
                    rows[i][_COORDS.index(col)] = parse_cell(val, i + 1, col)
                elif col == "label":
                    if val is None:
                        raise PointsFormatError(f"row {i + 1}: label is empty")
                    rows[i][2] = val
            except PointsFormatError as exc:
                errors.append(f"{exc}; the previous value is kept")
    deleted = {int(i) for i in state.get("deleted_rows") or []}
    out = [r for i, r in enumerate(rows) if i not in deleted]
    for k, added in enumerate(state.get("added_rows") or []):
        row = len(rows) + k + 1
        if not any(added.get(c) not in (None, "") for c in (*_COORDS, "label")):
            continue  # an empty new row
        try:
            xy = [parse_cell(added.get(col), row, col) for col in _COORDS]
            if added.get("label") is None:
                raise PointsFormatError(f"row {row}: label is empty")
            out.append([*xy, added["label"]])
        except PointsFormatError as exc:
            errors.append(f"{exc}; the new row was not added")
    return out, errors


def apply_table(tkey: str, version: int, n_classes: int) -> None:
    """ "Apply table": store the table's edits (a widget callback)."""
    s = get_session()
    s.table_key = None  # these edits are dealt with now
    if s.version != version:
        s.say("warning", UNAPPLIED)
        return
    state = st.session_state.get(tkey) or {}
    rows, errors = _edit_rows(_shown_rows(s, n_classes), state)
    for text in errors:
        s.say("error", f"Table, {text}.")
    try:
        c = [class_index(lab) for _, _, lab in rows]
    except ValueError as exc:
        s.say("error", f"Table: {exc}")
        return
    if any(j >= n_classes for j in c):
        s.say("error", "Table: a label is not a class of this page")
        return
    p = s.points
    hidden = p.c >= n_classes
    X = np.vstack([np.array([r[:2] for r in rows], dtype=float).reshape(-1, 2), p.X[hidden]])
    new = PointSet(X, np.concatenate([np.array(c, dtype=np.int64), p.c[hidden]]))
    if new.n > MAX_POINTS:
        s.say("error", f"The canvas holds at most {MAX_POINTS} points.")
        return
    if s.commit(s.history.push(new)):
        s.say("success", f"Table applied: {new.n} points.")


def _text(v: float) -> str:
    """A coordinate as the table shows it: the shortest text that reads back exactly."""
    return repr(float(v))


def table_widgets(n_classes: int, key: str) -> None:
    """The expander with the table and its "Apply table" button (nothing while closed)."""
    box = st.expander("Edit points as a table", key=f"{key}_table_box", on_change="rerun")
    if not box.open:  # closed: no table built and sent with every click
        return
    s = get_session()
    tkey = table_key(s, key)
    rows = _shown_rows(s, n_classes)
    df = pd.DataFrame(
        {
            "x1": pd.Series([_text(r[0]) for r in rows], dtype="string"),
            "x2": pd.Series([_text(r[1]) for r in rows], dtype="string"),
            "label": [r[2] for r in rows],
        }
    )
    options = [-1, 1] if n_classes == 2 else list(range(n_classes))
    with box:
        st.caption(
            "For keyboard users and exact coordinates: edit, add or delete rows, then Apply. "
            "Numbers as typed: 1e-3, -2.5E+4, 0,5 (a decimal comma)."
        )
        st.data_editor(
            df,
            key=tkey,
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            column_config={
                "x1": st.column_config.TextColumn("x1"),
                "x2": st.column_config.TextColumn("x2"),
                "label": st.column_config.SelectboxColumn("label", options=options),
            },
        )
        st.button(
            "Apply table",
            key=f"{key}_table_apply",
            on_click=apply_table,
            args=(tkey, s.version, n_classes),
        )
    s.table_key = tkey
