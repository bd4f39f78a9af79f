"""The per-point reasoning table: why each point matters, at the snapshot shown.

Every training point with its label, f(x) (or the k class scores), y f(x) (or the
multiclass margin), ξ, α and its status (:func:`svmlab.study.point_table.table_columns`),
sortable, and linked both ways with a plane beside it: rows selected in the table are
ringed on the plane (``runners.plane_at(highlight=…)``), and points clicked on the plane
(or typed as "point i") are marked in the table. Lazy: nothing is computed while the
expander is closed.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from svmlab.state.run_context import RunContext
from svmlab.study.point_table import table_columns
from svmlab.ui import plotbox, runners

__all__ = ["clicked_points", "panel", "selected_rows"]

_MARK = "background-color: #fff3b0"
TOLERANCES = [1e-9, 1e-6, 1e-4, 1e-3, 1e-2]


def selected_rows(state) -> list[int]:
    """The row positions selected in an ``st.dataframe`` (its session state), 0-based."""
    try:
        return [int(r) for r in state["selection"]["rows"]]
    except (KeyError, TypeError):
        return []


def clicked_points(state) -> list[int]:
    """The data indices of the points clicked on a plane chart (its session state): the
    points traces carry the index as ``customdata[0]``; other traces are ignored."""
    try:
        points = state["selection"]["points"]
    except (KeyError, TypeError):
        return []
    out = []
    for p in points:
        data = p.get("customdata") if isinstance(p, dict) else None
        if isinstance(data, list | tuple) and data:
            out.append(round(float(data[0])))
    return out


def panel(shown: RunContext) -> None:
    """The expander with the table and its plane, at the snapshot of ``shown``."""
    algorithm, X, y, k = shown.algorithm, shown.X, shown.y, shown.snapshot
    box = st.expander(
        "Why each point matters: the per-point table (linked with a plane)",
        key=f"{algorithm}_points",
        on_change="rerun",
    )
    if not box.open or len(X) == 0:
        return
    with box:
        table_key, plane_key = f"{algorithm}_points_table", f"{algorithm}_points_plane"
        view = runners.view(shown)
        c1, c2 = st.columns([2, 1])
        tol = c2.select_slider(
            "tolerance of y f = 1 (the position; the SGD runs' status)",
            TOLERANCES,
            value=1e-6,
            format_func=lambda v: f"{v:.0e}",
            key=f"{algorithm}_points_tol",
        )
        chosen = c1.number_input(
            "point i (1-based; 0: none) — marks its row, as a click on the plane does",
            0,
            len(X),
            0,
            key=f"{algorithm}_points_i",
        )
        cols = table_columns(view, y, k, tol=float(tol))
        marked = set(clicked_points(st.session_state.get(plane_key)))
        if chosen:
            marked.add(int(chosen) - 1)
        rows = set(selected_rows(st.session_state.get(table_key)))
        left, right = st.columns([1, 1.25])
        with left:
            t_k = int(view.t[k])
            fig = runners.plane_at(shown, highlight=sorted(rows | marked) or None)
            fig.update_traces(name="selected point", selector=dict(name="sampled xᵢ"))
            st.caption(
                f"t = {t_k:,}: selected rows ringed (yellow); click a point to mark its row."
            )
            plotbox.plane_chart(
                fig,
                key=plane_key,
                on_select="rerun",
                selection_mode="points",
                config={"displaylogo": False},
            )
        with right:
            frame = pd.DataFrame(cols)
            styled = frame.style.apply(
                lambda row: [_MARK if row.name in marked else ""] * len(row), axis=1
            ).format(precision=4, na_rep="—")
            st.dataframe(
                styled,
                key=table_key,
                on_select="rerun",
                selection_mode="multi-row",
                hide_index=True,
            )
        counts = pd.Series(cols["status"]).value_counts()
        st.caption(
            "Position: misclassified (wrong sign / argmax), inside the margin (right side, "
            "y f < 1, 0 < ξ < 1), on the margin (y f = 1), beyond the margin (y f > 1). "
            "Status — the support vectors as the plane rings them: with the dual's α, free "
            "SV (0 < α < C: on the margin), bounded SV (α = C: on or inside the margin, "
            "y f ≤ 1, possibly misclassified) or non-SV (α = 0), as the metrics count them; "
            "kernel Pegasos: SV where SSBD's α_j ≠ 0 (β_j ≠ 0: an update at j), else non-SV; "
            "the linear SGD runs have no α: their status follows y f alone (free SV on the "
            "margin, margin violator inside it, misclassified, non-SV beyond it). "
            f"At t = {t_k:,}: " + ", ".join(f"{n} {s}" for s, n in counts.items()) + ". "
            "Select rows (click their left edge) to ring the points; sort by any column. "
            "Marked rows (yellow) are the points clicked on the plane or typed as point i "
            "(numbered from 1, as on the plane's hover)."
        )
        if marked:
            shown = sorted(j + 1 for j in marked if 0 <= j < len(X))
            st.caption(f"Marked: point(s) {', '.join(map(str, shown))}.")
        if rows:
            st.caption(f"Selected rows: {', '.join(str(r + 1) for r in sorted(rows))}.")
