"""The curves under the plane: objective(s), training error (or KKT violation), #SV against t.

Pure: a trace in, a Plotly figure out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.plane_layout import template_dict

__all__ = ["curves_figure", "subplot_layout", "white_template"]


#: The curves' names unless the caller names them (``labels``: snapshot field -> name).
LABELS = {
    "objective": "primal objective",
    "max_violation": "max KKT violation m(α) − M(α)",
}


def subplot_layout(titles, spacing: float = 0.08) -> dict:
    """One row of ``len(titles)`` subplots: axes with their domains and the titles, as
    :func:`plotly.subplots.make_subplots` lays them out (built directly: it is 10 ms)."""
    cols = len(titles)
    width = (1.0 - spacing * (cols - 1)) / cols
    layout: dict = {"annotations": []}
    for c, title in enumerate(titles):
        s = "" if c == 0 else str(c + 1)
        x0 = c * (width + spacing)
        x1 = x0 + width
        layout[f"xaxis{s}"] = {"anchor": f"y{s}", "domain": [x0, x1]}
        layout[f"yaxis{s}"] = {"anchor": f"x{s}", "domain": [0.0, 1.0]}
        layout["annotations"].append(
            {
                "font": {"size": 16},
                "showarrow": False,
                "text": title,
                "x": (x0 + x1) / 2,
                "xanchor": "center",
                "xref": "paper",
                "y": 1.0,
                "yanchor": "bottom",
                "yref": "paper",
            }
        )
    return layout


def white_template() -> dict:
    """SVM Lab's white template (:data:`svmlab.plot.plane_layout.TEMPLATE`) as a dict (a figure
    built without validation gets no template by name)."""
    return template_dict()


def curves_figure(trace, *, dual: bool = False, labels=None, height: int = 330) -> go.Figure:
    """Objective(s) and training error against t (log axis), and #SV against t.

    Reads ``trace.t`` and the snapshots ``objective`` (or ``primal_objective``),
    ``dual_objective``/``duality_gap`` when present, ``train_error``, ``n_support``.
    ``labels`` renames the objective and the violation curve (see :data:`LABELS`): the
    multiclass SGD's objective is the mean generalized hinge, the QP solver's violation
    curve its interior-point residual. The figure is built as plain data (no validation
    of each array: this figure is redrawn on every click).
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
    layout = subplot_layout(titles)
    data = []

    def line(col: int, name: str, values, mode: str | None = "lines") -> None:
        axis = "" if col == 1 else str(col)
        trace_ = {"type": "scatter", "x": t, "y": np.asarray(values), "name": name}
        if mode:
            trace_["mode"] = mode
        data.append({**trace_, "xaxis": f"x{axis}", "yaxis": f"y{axis}"})

    primal = s.get("objective", s.get("primal_objective"))
    if primal is not None:
        line(1, names["objective"], primal)
    if dual and "dual_objective" in s:
        # The texts minimise ½αᵀQα − 1ᵀα; its negative is the Lagrange dual (≤ primal).
        line(1, "dual objective −D(α)", -np.asarray(s["dual_objective"]), None)
    if dual and "duality_gap" in s:
        line(1, "duality gap", s["duality_gap"], None)
    if "train_error" in s:
        line(2, "training error", s["train_error"])
    if "max_violation" in s:
        line(2, names["max_violation"], s["max_violation"], None)
        layout["yaxis2"]["type"] = "log"
    if n_sv is not None:
        line(3, "# SV", n_sv)
        layout["yaxis3"]["rangemode"] = "tozero"
    for c in range(len(titles)):
        layout["xaxis" + ("" if c == 0 else str(c + 1))].update(type="log", title={"text": x_title})
    if "max_violation" not in s:
        layout["yaxis2"]["rangemode"] = "tozero"
    layout.update(
        height=height,
        template=white_template(),
        margin={"l": 40, "r": 10, "t": 40, "b": 40},
        legend={"orientation": "h", "y": -0.25},
    )
    return go.Figure({"data": data, "layout": layout}, _validate=False)
