"""The feature-space page's figures: pure functions from arrays to Plotly figures.

The Gram matrix as a heatmap, Lin's Φ₂ lift as a rotatable 3-D scatter with the trained
hyperplane, the truncated Gaussian map's error against the number of terms, and f(x) as
a 3-D surface. The quantities come from :mod:`svmlab.study.feature_space`; no Streamlit here.
Class colours and shapes are the app's (:mod:`svmlab.state.classes`); points are numbered from 1,
as the texts count and every plane's hover shows them ("point n").
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import F_CLIP, class_index, shade_colorscale
from svmlab.state.classes import CLASS_COLORS

__all__ = [
    "gram_figure",
    "lift_figure",
    "plane_surface",
    "surface_figure",
    "truncation_figure",
]

HEIGHT_3D = 560
_SV = "#222222"
_PLANE = "#7f7f7f"
_LABELS = ("y = −1", "y = +1")
#: Plotly's 3-D scatter knows fewer symbols than the plane (its "x" draws as a box in
#: WebGL): the classes' shapes there.
_SYMBOLS_3D = ("circle", "diamond")


def gram_figure(K, y, order, *, title: str | None = None, height: int = 520) -> go.Figure:
    """K[order][:, order] as a heatmap; hover gives i, j (1-based, as the texts count)
    and K(x_i, x_j).

    The axes are categorical, labelled by the point numbers in ``order`` (hidden ticks;
    the hover reads them), so the figure carries no per-cell hover data.

    Parameters
    ----------
    K : array, shape (n, n)
    y : array, shape (n,)
        ±1 labels (the class blocks are marked).
    order : array of int, shape (n,)
        The row and column order (:func:`svmlab.study.feature_space.gram_order`).
    """
    K = np.asarray(K, dtype=float)
    order = np.asarray(order)
    n = order.shape[0]
    labels = [str(int(i) + 1) for i in order]  # categorical axes: hover names points 1..n
    Z = K[np.ix_(order, order)].astype(np.float32)  # 7 digits: the hover shows 4; half the bytes
    signed = bool(np.min(Z) < 0) if n else False
    heat = go.Heatmap(
        z=Z,
        x=labels,
        y=labels,
        colorscale="RdBu_r" if signed else "Viridis",
        zmid=0.0 if signed else None,
        colorbar=dict(title="K"),
        hovertemplate="i = %{y}, j = %{x}<br>K(x_i, x_j) = %{z:.4g}<extra></extra>",
        name="K",
    )
    fig = go.Figure(heat)
    c = class_index(np.asarray(y)[order])
    n_neg = int(np.sum(c == 0))
    for lo, hi, label in ((0, n_neg, _LABELS[0]), (n_neg, n, _LABELS[1])):
        if hi > lo:  # the class block's name above its columns and left of its rows
            mid = (lo + hi - 1) / 2
            top = dict(x=mid, y=1.0, yref="paper", yanchor="bottom")
            fig.add_annotation(**top, text=label, showarrow=False)
            fig.add_annotation(
                y=mid, x=0.0, xref="paper", xanchor="right", text=label, showarrow=False
            )
    if 0 < n_neg < n:
        edge = n_neg - 0.5  # the class blocks' border
        line = dict(color="white", width=2)
        fig.add_shape(type="line", x0=edge, x1=edge, y0=-0.5, y1=n - 0.5, line=line)
        fig.add_shape(type="line", x0=-0.5, x1=n - 0.5, y0=edge, y1=edge, line=line)
    axis = dict(type="category", showticklabels=False, ticks="", showgrid=False, zeroline=False)
    fig.update_layout(
        title=title,
        height=height,
        margin=dict(l=50, r=10, t=70 if title else 50, b=10),
        xaxis=dict(**axis, constrain="domain"),
        yaxis=dict(**axis, autorange="reversed", scaleanchor="x"),
        meta="gram",
    )
    return fig


def plane_surface(w, offset: float, lo, hi, *, name: str, color: str, n: int = 60) -> go.Surface:
    """The plane wᵀu + offset = 0 inside the box [lo, hi] ⊂ ℝ³, as a one-colour surface.

    The plane is solved for the coordinate with the largest |w_a| over a grid of the other
    two; points outside the box (along that coordinate) are left out.
    """
    w = np.asarray(w, dtype=float)
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    a = int(np.argmax(np.abs(w)))
    p, q = [k for k in range(3) if k != a]
    P, Q = np.meshgrid(np.linspace(lo[p], hi[p], n), np.linspace(lo[q], hi[q], n))
    A = -(offset + w[p] * P + w[q] * Q) / w[a]
    A[(A < lo[a]) | (A > hi[a])] = np.nan
    coords = {a: A, p: P, q: Q}
    return go.Surface(
        x=coords[0],
        y=coords[1],
        z=coords[2],
        colorscale=[[0, color], [1, color]],
        showscale=False,
        opacity=0.45,
        name=name,
        showlegend=True,
        hoverinfo="name",
    )


def _class_points_3d(P, y, *, hover: str) -> list[go.Scatter3d]:
    """One 3-D scatter per class at the rows of P (n, 3)."""
    c = class_index(y)
    traces = []
    for j in range(2):
        idx = np.flatnonzero(c == j)
        traces.append(
            go.Scatter3d(
                x=P[idx, 0],
                y=P[idx, 1],
                z=P[idx, 2],
                mode="markers",
                name=_LABELS[j],
                marker=dict(color=CLASS_COLORS[j], symbol=_SYMBOLS_3D[j], size=4),
                customdata=idx + 1,  # the point's number, counted from 1
                hovertemplate=hover + f"<extra>{_LABELS[j]}</extra>",
            )
        )
    return traces


def _support_3d(P, support, name: str = "support vectors") -> go.Scatter3d:
    idx = np.flatnonzero(support)
    return go.Scatter3d(
        x=P[idx, 0],
        y=P[idx, 1],
        z=P[idx, 2],
        mode="markers",
        name=name,
        marker=dict(color=_SV, symbol="circle-open", size=8),
        customdata=idx + 1,  # the point's number, counted from 1
        hovertemplate="support vector: point %{customdata}<extra></extra>",
    )


def _scene(titles, height: int, title: str | None) -> dict:
    return dict(
        title=title,
        height=height,
        margin=dict(l=0, r=0, t=40 if title else 10, b=0),
        scene=dict(
            xaxis_title=titles[0],
            yaxis_title=titles[1],
            zaxis_title=titles[2],
            aspectmode="cube",
        ),
        legend=dict(orientation="h", yanchor="bottom", y=0.0, x=0.0),
        uirevision="keep",  # a rerun keeps the camera the student rotated to
    )


def lift_figure(
    U,
    y,
    support,
    *,
    w_u,
    offset: float,
    curve=None,
    exact_plane: bool,
    seed004_gamma: float | None = None,
    title: str | None = None,
    height: int = HEIGHT_3D,
) -> go.Figure:
    """The points' quadratic coordinates u = (γx₁², √2 γx₁x₂, γx₂²) in 3-D, the trained
    model's plane w_uᵀu + offset = 0, the exact boundary curve, and seed 004's plane.

    Parameters
    ----------
    U : array, shape (n, 3)
    y, support : arrays, shape (n,)
    w_u, offset :
        The plane (:class:`svmlab.study.feature_space.Phi2Lift`).
    curve : array, shape (m, 3) or None
        The exact boundary f = 0 lifted to u (NaN rows break the line).
    exact_plane : bool
        Whether the plane is the boundary itself (the legend says which it is).
    seed004_gamma : float or None
        Draw seed 004's x₁² + x₂² = 1, i.e. u₁ + u₃ = γ, for this γ.
    """
    U = np.asarray(U, dtype=float)
    lo, hi = U.min(axis=0), U.max(axis=0)
    pad = 0.08 * np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad, hi + pad
    fig = go.Figure()
    if np.any(np.asarray(w_u) != 0):
        name = "wᵀΦ₂ + b = 0" if exact_plane else "w_uᵀu + w₀ζ + b = 0 (linear terms left out)"
        fig.add_trace(plane_surface(w_u, offset, lo, hi, name=name, color=CLASS_COLORS[2]))
    if seed004_gamma is not None:
        fig.add_trace(
            plane_surface(
                [1.0, 0.0, 1.0],
                -seed004_gamma,
                lo,
                hi,
                name="seed 004: w = (−1, 1, 1)",
                color=_PLANE,
            )
        )
    for trace in _class_points_3d(U, y, hover="point %{customdata}"):
        fig.add_trace(trace)
    fig.add_trace(_support_3d(U, support))
    if curve is not None and np.any(np.isfinite(curve)):
        C = np.asarray(curve, dtype=float)
        fig.add_trace(
            go.Scatter3d(
                x=C[:, 0],
                y=C[:, 1],
                z=C[:, 2],
                mode="lines",
                line=dict(color="black", width=5),
                name="f(x) = 0, exact (the boundary, lifted)",
                hoverinfo="name",
            )
        )
    fig.update_layout(**_scene(("γx₁²", "√2 γx₁x₂", "γx₂²"), height, title), meta="lift")
    return fig


def truncation_figure(errors, n_terms: int, *, height: int = 260) -> go.Figure:
    """max |K_trunc − K| against the number of Taylor terms (log scale), ``n_terms`` marked."""
    errors = np.asarray(errors, dtype=float)
    terms = np.arange(1, errors.shape[0] + 1)
    shown = np.maximum(errors, 1e-17)  # 0 cannot be drawn on a log axis
    fig = go.Figure(
        go.Scatter(
            x=terms,
            y=shown,
            mode="lines+markers",
            name="max |K_trunc − K|",
            hovertemplate="%{x} terms: %{y:.3g}<extra></extra>",
        )
    )
    if 1 <= n_terms <= errors.shape[0]:
        fig.add_trace(
            go.Scatter(
                x=[n_terms],
                y=[shown[n_terms - 1]],
                mode="markers",
                marker=dict(size=13, color=CLASS_COLORS[1], symbol="circle-open", line_width=3),
                name="the slider's terms",
                hoverinfo="skip",
            )
        )
    fig.update_layout(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        xaxis_title="Taylor terms kept (total degree < terms)",
        yaxis=dict(title="max |K_trunc − K|", type="log", exponentformat="power"),
        showlegend=False,
        meta="truncation",
    )
    return fig


def surface_figure(
    xs,
    ys,
    Z,
    X,
    y,
    f_points,
    support,
    *,
    title: str | None = None,
    height: int = HEIGHT_3D,
) -> go.Figure:
    """f(x) over the plane as a 3-D surface (f = 0 drawn on it), the points at height
    f(x_i), the support vectors ringed."""
    Z = np.asarray(Z, dtype=float)
    P = np.column_stack([np.asarray(X, dtype=float), np.asarray(f_points, dtype=float)])
    fig = go.Figure(
        go.Surface(
            x=xs,
            y=ys,
            z=Z,
            colorscale=shade_colorscale(CLASS_COLORS[0], CLASS_COLORS[1]),
            cmin=-F_CLIP,
            cmax=F_CLIP,
            showscale=False,
            opacity=0.9,
            name="f(x)",
            # one level, f = 0 (Plotly draws start, start + size, … ≤ end)
            contours=dict(z=dict(show=True, start=0.0, end=0.5, size=1.0, color="black", width=4)),
            hovertemplate="x₁=%{x:.2f}<br>x₂=%{y:.2f}<br>f(x)=%{z:.3f}<extra></extra>",
        )
    )
    hover = "point %{customdata}<br>f(x)=%{z:.3f}"
    for trace in _class_points_3d(P, y, hover=hover):
        fig.add_trace(trace)
    fig.add_trace(_support_3d(P, support))
    fig.update_layout(**_scene(("x₁", "x₂", "f(x)"), height, title), meta="surface")
    return fig
