"""Playback of a run over its trace: frames computed ahead, and a browser-side animation.

Every binary model of SVM Lab is ``f(x) = Σ_j c_j K(x_j, x) + b`` for some coefficients
c (signed α for kernel Pegasos, αₙyₙ for the dual) or ``f(x) = wᵀx + b`` (linear
Pegasos). A trace stores those coefficients at S snapshots, so the decision values of
all snapshots on a grid of G points are *one* matrix product::

    F = K(grid, X) @ COEF.T + b        # (G, n) @ (n, S) -> (G, S)

A coarse grid is used for the animation (small payload), a fine grid for the single
frame shown when paused. :func:`animation_figure` builds a Plotly-native animation
(frames, play/pause buttons at three speeds, a slider) so that playing and scrubbing
run in the browser without a round trip to Python.

Pure functions: NumPy and Plotly only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.figures import (
    CLASS_COLORS,
    F_CLIP,
    boundary_trace,
    class_index,
    grid,
    highlight_trace,
    highlight_traces,
    marker_sizes,
    plane_layout,
    point_traces,
    ring_trace,
    shade_colorscale,
)
from svmlab.plot.look.plain import DEFAULT_WIDTH
from svmlab.plot.look.styles import place_controls
from svmlab.plot.regions import multiclass_figure

__all__ = [
    "COARSE_RESOLUTION",
    "FINE_RESOLUTION",
    "Frames",
    "animation_figure",
    "decision_frames",
    "payload_bytes",
    "select_frames",
]

#: Grid resolution while playing (payload) and when paused (detail).
COARSE_RESOLUTION = 40
FINE_RESOLUTION = 120
#: Milliseconds per frame of the three play buttons.
SPEEDS = {"▶ slow": 600, "▶ play": 200, "▶▶ fast": 60}
#: The font size (px) the play buttons and slider are placed for (Plotly's default).
CONTROLS_FONT_PX = 12


@dataclass(frozen=True, eq=False)
class Frames:
    """Decision values of selected snapshots on a grid.

    Attributes
    ----------
    xs, ys : (r,) grid coordinates.
    F : (S', r, r) float32, f at every grid point for each selected snapshot.
    index : (S',) the selected snapshot indices into the trace.
    t : (S',) their iterations.
    """

    xs: np.ndarray
    ys: np.ndarray
    F: np.ndarray
    index: np.ndarray
    t: np.ndarray

    def __len__(self) -> int:
        return int(self.index.shape[0])


def select_frames(n_snapshots: int, n_frames: int = 50) -> np.ndarray:
    """At most ``n_frames`` snapshot indices spread evenly over 0..S−1 (first and last kept)."""
    if n_snapshots <= 0:
        return np.zeros(0, dtype=np.int64)
    n_frames = max(1, min(int(n_frames), n_snapshots))
    return np.unique(np.rint(np.linspace(0, n_snapshots - 1, n_frames)).astype(np.int64))


def decision_frames(
    xrange,
    yrange,
    *,
    resolution: int,
    coef,
    b=None,
    X=None,
    kernel=None,
    t=None,
    index=None,
) -> Frames:
    """f on a ``resolution``² grid for each row of ``coef`` — one matrix product.

    Parameters
    ----------
    coef : (S, n) kernel coefficients c (then ``X`` (n, 2) and ``kernel`` are needed),
        or (S, 2) weight vectors w when ``kernel`` is None (linear model wᵀx + b).
    b : (S,) offsets or None (no bias, as in SSBD's soft-SVM).
    t : (S,) iterations of the rows (defaults to 1..S); ``index`` their snapshot ids.
    """
    xs, ys, G = grid(xrange, yrange, resolution)
    coef = np.atleast_2d(np.asarray(coef, dtype=float))
    S = coef.shape[0]
    if kernel is None:
        F = (G @ coef.T).T.reshape(S, len(ys), len(xs))  # (G, 2) @ (2, S)
    else:
        # Only the points with a coefficient ≠ 0 in some row (the support vectors): the
        # others add exact zeros.
        keep = np.flatnonzero(np.any(coef != 0, axis=0))
        Xk, ck = np.asarray(X, dtype=float)[keep], coef[:, keep]
        if getattr(kernel, "name", None) == "rbf" and Xk.shape[1] == 2:
            # On a grid the Gaussian kernel factors, exp(−γ‖g − x‖²) =
            # exp(−γ(g₁ − x₁)²) exp(−γ(g₂ − x₂)²): 2r × n′ exponentials instead of
            # r² × n′ (equal to ~1e-15 relative). For a few snapshots f = (E_y ∘ c) E_xᵀ,
            # (r, n′) @ (n′, r) each; for many, the grid's kernel rows E_y ∘ E_x once.
            with np.errstate(over="ignore"):
                ex = np.exp(-kernel.gamma * (xs[:, None] - Xk[None, :, 0]) ** 2)  # (rx, n′)
                ey = np.exp(-kernel.gamma * (ys[:, None] - Xk[None, :, 1]) ** 2)  # (ry, n′)
            if 8 * S <= len(xs):
                F = (ey[None, :, :] * ck[:, None, :]) @ ex.T  # (S, ry, rx)
            else:
                K = (ey[:, None, :] * ex[None, :, :]).reshape(len(ys) * len(xs), Xk.shape[0])
                F = (K @ ck.T).T.reshape(S, len(ys), len(xs))
        else:
            F = (kernel(G, Xk) @ ck.T).T.reshape(S, len(ys), len(xs))  # (G, n′) @ (n′, S)
    if b is not None:
        F = F + np.asarray(b, dtype=float).reshape(S, 1, 1)
    F = np.nan_to_num(F, nan=0.0, posinf=1e6, neginf=-1e6).astype(np.float32)
    t = np.arange(1, S + 1) if t is None else np.asarray(t)
    index = np.arange(S) if index is None else np.asarray(index)
    return Frames(xs=xs, ys=ys, F=F, index=index, t=t)


def _f32(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float32)


def _round(Z: np.ndarray) -> np.ndarray:
    """Clip to the shaded range and keep 3 decimals: float32 base64 in the JSON."""
    return np.round(np.clip(Z, -3 * F_CLIP, 3 * F_CLIP), 3).astype(np.float32)


def _contours(xs, ys, Z):
    shade = go.Contour(
        x=xs,
        y=ys,
        z=Z,
        zmin=-F_CLIP,
        zmax=F_CLIP,
        colorscale=shade_colorscale(CLASS_COLORS[0], CLASS_COLORS[1]),
        contours=dict(start=-1.0, end=1.0, size=2.0, coloring="heatmap", showlines=True),
        line=dict(color="black", width=1.2, dash="dash"),
        showscale=False,
        hoverinfo="skip",
        name="f(x) = ±1",
        showlegend=True,
    )
    boundary = boundary_trace(xs, ys, Z, showlegend=None)
    return shade, boundary


def animation_figure(
    X,
    y,
    frames: Frames,
    *,
    alpha=None,
    support=None,
    sampled=None,
    xrange,
    yrange,
    title: str | None = None,
    height: int = 520,
) -> go.Figure:
    """A Plotly animation over ``frames`` that plays and scrubs in the browser.

    Parameters
    ----------
    X, y : the points (n, 2) and labels ±1.
    frames : :class:`Frames` (coarse grid).
    alpha : (S', n) or None — |α| per point per frame, shown as marker size.
    support : (S', n) bool or None — support vectors per frame (ringed).
    sampled : (S',) int or None — the point sampled at each frame's step (−1: none).

    The trace order is fixed: shading (+ margins), boundary, one scatter per class,
    rings, sampled point; every frame updates all of them.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    c = class_index(y)
    k = max(int(c.max()) + 1, 2) if c.size else 2
    n_fr = len(frames)

    def base(m: int):
        Z = _round(frames.F[m])
        shade, boundary = _contours(frames.xs, frames.ys, Z)
        a = None if alpha is None else np.asarray(alpha[m], dtype=float)
        sv = np.flatnonzero(support[m]) if support is not None else np.zeros(0, np.int64)
        i = None if sampled is None else int(sampled[m])
        return [
            shade,
            boundary,
            *point_traces(X, y, alpha=a),
            ring_trace(X, sv, name="support vector"),
            *highlight_traces(X, i if i is not None and i >= 0 else None),
        ]

    def update(m: int) -> list[dict]:
        # Plain dicts (no per-frame validation): only what changes between frames.
        Z = _round(frames.F[m])
        a = None if alpha is None else np.asarray(alpha[m], dtype=float)
        sizes = np.round(marker_sizes(a, X.shape[0]), 1).astype(np.float32)
        sv = np.flatnonzero(support[m]) if support is not None else np.zeros(0, np.int64)
        i = -1 if sampled is None else int(sampled[m])
        hl = X[[i]] if 0 <= i < X.shape[0] else np.empty((0, 2))
        return [
            {"type": "contour", "z": Z},
            {"type": "contour", "z": Z},
            *({"type": "scatter", "marker": {"size": sizes[c == j]}} for j in range(k)),
            {"type": "scatter", "x": _f32(X[sv, 0]), "y": _f32(X[sv, 1])},
            {"type": "scatter", "x": _f32(hl[:, 0]), "y": _f32(hl[:, 1])},  # the outline
            {"type": "scatter", "x": _f32(hl[:, 0]), "y": _f32(hl[:, 1])},
        ]

    last = n_fr - 1
    fig = go.Figure(base(last))
    trace_ids = list(range(len(fig.data)))
    fig.frames = [go.Frame(name=str(m), data=update(m), traces=trace_ids) for m in range(n_fr)]

    plane_layout(fig, xrange, yrange, title, height)
    _add_controls(fig, frames)
    return fig


def payload_bytes(fig: go.Figure) -> int:
    """Size of the figure's JSON as sent to the browser, in bytes."""
    return len(fig.to_json().encode())


def multiclass_frames(
    xrange,
    yrange,
    *,
    resolution: int,
    W=None,
    bias: bool = True,
    alpha=None,
    X=None,
    kernel=None,
    t=None,
    index=None,
) -> Frames:
    """Predicted class index (argmax of the k scores) on a grid for each snapshot.

    ``W`` (S, k, d′) for the linear models (x̃ = (x, 1) with ``bias``), or ``alpha``
    (S, n, k) with ``X`` and ``kernel`` (K̃ = K + 1 with ``bias``): one matrix product for
    all the snapshots (BLAS, not ``einsum``'s loops).
    ``F`` holds the class index as float32, shape (S, r, r).
    """
    xs, ys, G = grid(xrange, yrange, resolution)
    if W is not None:
        W = np.asarray(W, dtype=float)
        Ga = np.column_stack([G, np.ones(len(G))]) if bias else G
        # (G, d′) @ (S, d′, k) -> (S, G, k): per snapshot the view's own x̃ᵀW product
        scores = Ga @ W.transpose(0, 2, 1)
    else:
        K = kernel(G, np.asarray(X, dtype=float))
        if bias:
            K = K + 1.0
        A = np.asarray(alpha, dtype=float)  # (S, n, k)
        S, n, k = A.shape
        # one (G, n) @ (n, S·k) product for every snapshot's scores, then (S, G, k)
        scores = (K @ A.transpose(1, 0, 2).reshape(n, S * k)).reshape(-1, S, k)
        scores = scores.transpose(1, 0, 2)
    S = scores.shape[0]
    F = scores.argmax(axis=2).reshape(S, len(ys), len(xs)).astype(np.float32)
    t = np.arange(1, S + 1) if t is None else np.asarray(t)
    index = np.arange(S) if index is None else np.asarray(index)
    return Frames(xs=xs, ys=ys, F=F, index=index, t=t)


def multiclass_animation_figure(
    X,
    y_idx,
    frames: Frames,
    *,
    k: int,
    sampled=None,
    xrange,
    yrange,
    labels=None,
    height: int = 520,
) -> go.Figure:
    """A Plotly animation of the predicted regions (class indices 0..k−1 per frame)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    n_fr = len(frames)
    last = n_fr - 1
    # Scores that put class argmax = F: one-hot of the last frame builds the base figure.
    onehot = np.eye(k)[frames.F[last].astype(int).ravel()]
    i_last = None if sampled is None or sampled[last] < 0 else int(sampled[last])
    fig = multiclass_figure(
        X,
        y_idx,
        frames.xs,
        frames.ys,
        onehot,
        xrange=xrange,
        yrange=yrange,
        labels=labels,
        height=height,
        boundaries=False,  # the frames carry the argmax only (the regions move, lines would not)
    )
    fig.add_traces(highlight_traces(X, i_last))
    hl_id = len(fig.data) - 1  # the ring; its outline just before it
    fig_frames = []
    for m in range(n_fr):
        i = None if sampled is None or sampled[m] < 0 else int(sampled[m])
        hl = highlight_trace(X, i)
        fig_frames.append(
            go.Frame(
                name=str(m),
                data=[
                    go.Heatmap(z=frames.F[m].astype(np.uint8)),
                    go.Scatter(x=hl.x, y=hl.y),
                    go.Scatter(x=hl.x, y=hl.y),
                ],
                traces=[0, hl_id - 1, hl_id],
            )
        )
    fig.frames = fig_frames
    _add_controls(fig, frames)
    return fig


def _add_controls(fig: go.Figure, frames: Frames) -> None:
    """Play buttons at three speeds, pause, and a slider over the frames."""

    def anim_args(duration):
        return [
            None,
            dict(
                frame=dict(duration=duration, redraw=True),
                transition=dict(duration=0),
                fromcurrent=True,
                mode="immediate",
            ),
        ]

    buttons = [dict(label=lab, method="animate", args=anim_args(ms)) for lab, ms in SPEEDS.items()]
    pause = [[None], dict(frame=dict(duration=0, redraw=False), mode="immediate")]
    buttons.append(dict(label="❙❙ pause", method="animate", args=pause))
    steps = [
        dict(
            method="animate",
            label=str(int(frames.t[m])),
            args=[
                [str(m)],
                dict(
                    frame=dict(duration=0, redraw=True),
                    mode="immediate",
                    transition=dict(duration=0),
                ),
            ],
        )
        for m in range(len(frames))
    ]
    layout = dict(
        updatemenus=[dict(type="buttons", direction="left", showactive=False, buttons=buttons)],
        # the current t at the slider's right end
        sliders=[
            dict(
                active=len(frames) - 1,
                currentvalue=dict(prefix="t = ", xanchor="right"),
                steps=steps,
            )
        ],
    )
    # under the x axis, clear of its tick labels and title (12 px: the template's font)
    width = fig.layout.width or DEFAULT_WIDTH
    bottom = place_controls(layout, CONTROLS_FONT_PX, plot_width=width - 50)
    fig.update_layout(margin=dict(l=40, r=10, t=40, b=bottom), **layout)
