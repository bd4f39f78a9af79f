"""The figures of a hyperparameter sweep (:mod:`svmlab.study.sweep`): the validation-accuracy
heatmap (with one clickable marker per cell: Plotly selects no heatmap cells) and small
multiples of a few cells' boundaries, as scikit-learn's "RBF SVM parameters" example.
Pure: a :class:`svmlab.study.sweep.SweepResult` in, Plotly figures out (no Streamlit).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from svmlab.plot.figures import (
    boundary_trace,
    class_index,
    class_scatter,
    shading_trace,
    tint,
)
from svmlab.plot.plane_layout import TEMPLATE
from svmlab.state.classes import CLASS_COLORS

__all__ = ["CELLS_META", "SYMBOLS", "cell_label", "heatmap_figure", "multiples", "small_multiples"]

#: The parameters' symbols, as the texts write them.
SYMBOLS = {"lam": "λ", "C": "C", "gamma": "γ"}
#: ``meta`` of the clickable cell markers (point j = cell divmod(j, b)).
CELLS_META = "svmlab-sweep-cells"


def fmt(v: float) -> str:
    """A grid value: 3 significant digits."""
    return f"{v:.3g}"


def cell_label(res, i: int, j: int) -> str:
    """E.g. "λ = 0.01, γ = 1 — validation accuracy 93 %" (or why the run failed)."""
    params = ", ".join(f"{SYMBOLS.get(k, k)} = {fmt(v)}" for k, v in res.cell(i, j).items())
    acc = res.accuracy[i, j]
    return params + (" — run failed" if np.isnan(acc) else f" — validation accuracy {acc:.0%}")


def axis_labels(res) -> tuple[list[str], list[str], str, str]:
    """Tick labels and titles: rows (first name), columns (second name or one column)."""
    rows = [fmt(v) for v in res.values[0]]
    ytitle = SYMBOLS.get(res.names[0], res.names[0])
    if len(res.names) > 1:
        return [fmt(v) for v in res.values[1]], rows, SYMBOLS.get(res.names[1]), ytitle
    return ["—"], rows, "", ytitle


def heatmap_figure(res, *, height: int = 420) -> go.Figure:
    """Validation accuracy per cell (text in each cell) with a marker per cell to click.

    Rows are the first parameter (λ or C), columns the second (γ); categorical axes, so
    the log-spaced values sit on an even grid. The best cell is outlined.
    """
    cols, rows, xtitle, ytitle = axis_labels(res)
    acc = res.accuracy
    text = [["—" if np.isnan(v) else f"{v:.0%}" for v in row] for row in acc]
    fig = go.Figure(
        go.Heatmap(
            x=cols,
            y=rows,
            z=acc,
            zmin=0.5 if np.nanmin(acc, initial=1.0) >= 0.5 else 0.0,
            zmax=1.0,
            colorscale="Viridis",
            text=text,
            texttemplate="%{text}",
            colorbar=dict(title="val. acc."),
            hoverinfo="skip",
        )
    )
    a, b = acc.shape
    ii, jj = np.divmod(np.arange(a * b), b)
    fig.add_trace(
        go.Scatter(
            x=[cols[j] for j in jj],
            y=[rows[i] for i in ii],
            mode="markers",
            marker=dict(symbol="square", size=34, color="rgba(0,0,0,0.01)"),
            customdata=np.column_stack([ii, jj]),
            meta=CELLS_META,
            hovertext=[cell_label(res, i, j) for i, j in zip(ii, jj, strict=True)],
            hovertemplate="%{hovertext}<br>click to load<extra></extra>",
            showlegend=False,
        )
    )
    bi, bj = res.best()
    fig.add_trace(
        go.Scatter(
            x=[cols[bj]],
            y=[rows[bi]],
            mode="markers",
            marker=dict(symbol="square-open", size=40, color="black", line=dict(width=3)),
            name="best cell",
            showlegend=False,
            hoverinfo="skip",
        )
    )
    fig.update_xaxes(title_text=xtitle, type="category")
    fig.update_yaxes(title_text=ytitle, type="category")
    fig.update_layout(
        height=height,
        template=TEMPLATE,
        margin=dict(l=60, r=10, t=40, b=50),
        title=f"Validation accuracy ({res.n_train} training / {res.n_val} validation points)",
        clickmode="event+select",
        dragmode=False,
    )
    return fig


def multiples(res) -> list[tuple[int, int]]:
    """The cells drawn as small multiples: first, middle and last value of each axis."""
    a, b = res.shape
    return [(i, j) for i in spread(a) for j in spread(b)]


def spread(m: int) -> list[int]:
    """First, middle and last of m indices."""
    return sorted({0, (m - 1) // 2, m - 1})


def class_regions(xs, ys, Z, k: int) -> go.Heatmap:
    """Predicted class indices Z as flat tinted colours (a multiclass cell)."""
    colors = [tint(CLASS_COLORS[j], 0.7) for j in range(k)]
    scale = [[j / max(k - 1, 1), c] for j, c in enumerate(colors)] if k > 1 else [[0, colors[0]]]
    return go.Heatmap(
        x=xs,
        y=ys,
        z=Z,
        zmin=0,
        zmax=max(k - 1, 1),
        colorscale=scale,
        showscale=False,
        hoverinfo="skip",
    )


def small_multiples(res, X, y, *, cells=None, height: int = 620) -> go.Figure:
    """The boundary of a few cells (:func:`multiples`) over the training points.

    Binary cells: f(x) shaded (clipped) with the boundary f = 0; multiclass cells: the
    predicted regions. Each panel's title gives its parameters and validation accuracy.
    """
    cells = multiples(res) if cells is None else list(cells)
    rows = sorted({i for i, _ in cells})
    cols = sorted({j for _, j in cells})
    titles = [
        cell_label(res, i, j).replace(" — validation accuracy ", "<br>val. ")
        if (i, j) in cells
        else ""
        for i in rows
        for j in cols
    ]
    fig = make_subplots(
        rows=len(rows),
        cols=len(cols),
        subplot_titles=titles,
        horizontal_spacing=0.04,
        vertical_spacing=0.1,
    )
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    c = class_index(np.asarray(y))
    binary = bool(np.any(np.asarray(y) == -1))  # multiclass labels are 0..k−1
    r = len(res.xs)
    for i, j in cells:
        Z = res.Z[i, j].reshape(r, r)
        at = dict(row=rows.index(i) + 1, col=cols.index(j) + 1)
        if not np.all(np.isnan(Z)):
            if binary:
                fig.add_trace(shading_trace(res.xs, res.ys, Z), **at)
                fig.add_trace(boundary_trace(res.xs, res.ys, Z, showlegend=False), **at)
            else:
                fig.add_trace(class_regions(res.xs, res.ys, Z, int(c.max()) + 1), **at)
        for k in np.unique(c).tolist():
            idx = np.flatnonzero(c == k)
            pts = class_scatter(X, idx, k, name=f"class {k}", size=5, customdata=None, hover="")
            fig.add_trace(pts.update(showlegend=False, hoverinfo="skip"), **at)
    fig.update_xaxes(showticklabels=False, range=[res.xs[0], res.xs[-1]])
    fig.update_yaxes(showticklabels=False, range=[res.ys[0], res.ys[-1]])
    fig.update_annotations(font_size=11)
    fig.update_layout(height=height, template=TEMPLATE, margin=dict(l=10, r=10, t=50, b=10))
    return fig
