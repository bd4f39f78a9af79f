"""The convergence figure (P(w_t) − P* against t) and the last iterate's boundary (pure: Plotly).

:func:`convergence_figure` draws P(w_t) − P* of the averaged output and of the last iterate
against t on log–log axes, with the text's rate as a dashed guide
(:func:`svmlab.study.convergence.rate_guide`). Gaps at or below ``floor`` (the exact solver's
certified resolution) cannot be told from 0 and are left out, as the caption says.
:func:`last_boundary_trace` / :func:`last_regions_trace` draw the other iterate's boundary
over a plane figure (dashed), so that averaging's calming effect is visible.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.plane_layout import TEMPLATE

__all__ = [
    "AVERAGED_COLOR",
    "LAST_COLOR",
    "convergence_figure",
    "last_boundary_trace",
    "last_regions_trace",
]

AVERAGED_COLOR = "#1f4e99"
LAST_COLOR = "#d9822b"
_GUIDE_COLOR = "#777777"


def _line(t, gap, floor: float, *, name: str, color: str, dash: str | None = None):
    keep = np.asarray(gap) > floor
    return go.Scatter(
        x=np.asarray(t)[keep],
        y=np.asarray(gap)[keep],
        mode="lines+markers",
        name=name,
        line=dict(color=color, width=2.2, dash=dash),
        marker=dict(size=4),
        hovertemplate="t = %{x:,}<br>P − P* = %{y:.3e}<extra>" + name + "</extra>",
    )


def convergence_figure(
    t,
    averaged,
    last=None,
    *,
    guide=None,
    guide_label: str = "",
    floor: float = 0.0,
    title: str | None = None,
    height: int = 380,
) -> go.Figure:
    """P(w_t) − P* against t on log–log axes.

    Parameters
    ----------
    t : array (S,)
        Snapshot iterations (≥ 1).
    averaged, last : arrays (S,) or None
        The gaps of the averaged output w̄_t and of the last iterate w_{t+1}.
    guide : array (S,) or None
        The rate's guide line at ``t`` (dashed), named ``guide_label``.
    floor : float ≥ 0
        Gaps ≤ floor are not drawn (not distinguishable from 0 at the solver's tolerance).
    """
    fig = go.Figure()
    if averaged is not None:
        fig.add_trace(_line(t, averaged, floor, name="averaged w̄_t", color=AVERAGED_COLOR))
    if last is not None:
        fig.add_trace(_line(t, last, floor, name="last iterate", color=LAST_COLOR, dash="dot"))
    if guide is not None:
        g = np.asarray(guide, dtype=float)
        keep = g > 0
        fig.add_trace(
            go.Scatter(
                x=np.asarray(t)[keep],
                y=g[keep],
                mode="lines",
                name=guide_label or "rate guide",
                line=dict(color=_GUIDE_COLOR, width=1.5, dash="dash"),
                hoverinfo="skip",
            )
        )
    fig.update_layout(
        title=dict(text=title, font=dict(size=14)) if title else None,
        height=height,
        template=TEMPLATE,
        margin=dict(l=60, r=10, t=60 if title else 30, b=50),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0.0),
    )
    fig.update_xaxes(type="log", title="iteration t")
    fig.update_yaxes(type="log", title="P(w_t) − P*", exponentformat="power")
    return fig


def last_boundary_trace(xs, ys, Z, *, name: str = "last iterate: f = 0") -> go.Contour:
    """The boundary f(x) = 0 of another model on the same grid, dashed (binary views)."""
    return go.Contour(
        x=xs,
        y=ys,
        z=np.asarray(Z, dtype=np.float32),
        contours=dict(start=0.0, end=0.0, size=1.0, coloring="none"),
        line=dict(color=LAST_COLOR, width=2.5, dash="dash"),
        showscale=False,
        hoverinfo="skip",
        name=name,
        showlegend=True,
    )


def last_regions_trace(xs, ys, scores, *, name: str = "last iterate: boundaries"):
    """The boundaries between the predicted classes of another model (scores (G, k) on the
    grid ``xs`` × ``ys``), dashed: contours of the argmax at the half-integers."""
    scores = np.asarray(scores, dtype=float)
    k = scores.shape[1]
    Zc = scores.argmax(axis=1).astype(np.float32).reshape(len(ys), len(xs))
    return go.Contour(
        x=xs,
        y=ys,
        z=Zc,
        contours=dict(start=0.5, end=k - 1.5, size=1.0, coloring="none"),
        line=dict(color=LAST_COLOR, width=2.5, dash="dash"),
        showscale=False,
        hoverinfo="skip",
        name=name,
        showlegend=True,
    )
