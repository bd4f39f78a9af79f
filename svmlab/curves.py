"""The curves under the plane: objective(s), training error (or KKT violation), #SV against t.

Pure: a trace in, a Plotly figure out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = ["curves_figure"]


#: The curves' names unless the caller names them (``labels``: snapshot field -> name).
LABELS = {
    "objective": "primal objective",
    "max_violation": "max KKT violation m(α) − M(α)",
}


def curves_figure(trace, *, dual: bool = False, labels=None, height: int = 330) -> go.Figure:
    """Objective(s) and training error against t (log axis), and #SV against t.

    Reads ``trace.t`` and the snapshots ``objective`` (or ``primal_objective``),
    ``dual_objective``/``duality_gap`` when present, ``train_error``, ``n_support``.
    ``labels`` renames the objective and the violation curve (see :data:`LABELS`): the
    multiclass SGD's objective is the mean generalized hinge, the QP solver's violation
    curve its interior-point residual.
    """
    names = {**LABELS, **(labels or {})}
    t = np.asarray(trace.t, dtype=float)
    x_title = "iteration t"
    if t.size and t.min() < 1:  # solvers count from t = 0, which a log axis cannot show
        t = t + 1.0
        x_title = "iteration t + 1"
    s = trace.snapshots
    n_sv = s.get("n_support")
    if n_sv is None and "alpha" in s:  # the dual: α_n > 0 (relative to the largest α)
        A = np.abs(np.asarray(s["alpha"], dtype=float))
        A = A.reshape(A.shape[0], -1)
        top = np.maximum(A.max(axis=1, keepdims=True), 1e-300)
        n_sv = np.count_nonzero(A > 1e-8 * top, axis=1)
    titles = [
        "objective" + (" (primal / dual)" if dual else ""),
        "training error" + (" / KKT violation" if dual else ""),
    ]
    if n_sv is not None:
        titles.append("number of support vectors")
    fig = make_subplots(rows=1, cols=len(titles), subplot_titles=titles, horizontal_spacing=0.08)
    primal = s.get("objective", s.get("primal_objective"))
    if primal is not None:
        fig.add_trace(go.Scatter(x=t, y=primal, name=names["objective"], mode="lines"), 1, 1)
    if dual and "dual_objective" in s:
        # The texts minimise ½αᵀQα − 1ᵀα; its negative is the Lagrange dual (≤ primal).
        fig.add_trace(
            go.Scatter(x=t, y=-np.asarray(s["dual_objective"]), name="dual objective −D(α)"),
            1,
            1,
        )
    if dual and "duality_gap" in s:
        fig.add_trace(go.Scatter(x=t, y=s["duality_gap"], name="duality gap"), 1, 1)
    if "train_error" in s:
        fig.add_trace(
            go.Scatter(x=t, y=s["train_error"], name="training error", mode="lines"), 1, 2
        )
    if "max_violation" in s:
        fig.add_trace(go.Scatter(x=t, y=s["max_violation"], name=names["max_violation"]), 1, 2)
        fig.update_yaxes(type="log", row=1, col=2)
    if n_sv is not None:
        fig.add_trace(go.Scatter(x=t, y=n_sv, name="# SV", mode="lines"), 1, 3)
        fig.update_yaxes(rangemode="tozero", row=1, col=3)
    fig.update_xaxes(type="log", title_text=x_title)
    if "max_violation" not in s:
        fig.update_yaxes(rangemode="tozero", row=1, col=2)
    fig.update_layout(
        height=height,
        template="plotly_white",
        margin=dict(l=40, r=10, t=40, b=40),
        legend=dict(orientation="h", y=-0.25),
    )
    return fig
