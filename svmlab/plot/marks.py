"""The marks on the plane: the support vectors' rings and the sampled point's ring.

Colours chosen for WCAG 2.2's non-text contrast (1.4.11, ≥ 3 : 1 against what a mark sits
on: the page and every class's shading; ``tests/app/plot/test_contrast.py``). Pure Plotly
traces; :mod:`svmlab.plot.figures` re-exports them.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

__all__ = [
    "BOUNDED",
    "HALO",
    "HIGHLIGHT",
    "POINT_OUTLINE",
    "RING",
    "highlight_halo",
    "highlight_trace",
    "highlight_traces",
    "ring_trace",
]

RING = "#222222"
#: Bounded SVs' square rings: ≥ 3.7 : 1 on white and on every class's shading (WCAG 1.4.11).
BOUNDED = "#555555"
HIGHLIGHT = "#F0E442"  # Okabe–Ito yellow: the sampled point of the current step
#: The dark outline under the yellow ring (yellow alone is 1.3 : 1 on white): ≥ 8 : 1 on
#: white and on every shading, and the yellow ≥ 14 : 1 against it.
HALO = "#1F2328"
#: The points' outline on a light page (a dark page draws it white: look/theme.py): it
#: separates a point from its own class's shading (a fill alone is 1.6–2.6 : 1 there).
POINT_OUTLINE = dict(color="#1F2328", width=1.0)


def ring_trace(X, idx, *, name: str, color: str = RING, symbol: str = "circle-open", size=22):
    """Rings around the points ``idx`` (support vectors)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    idx = np.asarray(idx, dtype=np.int64).reshape(-1)
    return go.Scatter(
        x=X[idx, 0],
        y=X[idx, 1],
        mode="markers",
        name=name,
        marker=dict(symbol=symbol, size=size, color=color, line=dict(width=2, color=color)),
        hoverinfo="skip",
    )


def _sampled(X, i) -> np.ndarray:
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    idx = [] if i is None else [int(j) for j in np.atleast_1d(i)]
    idx = [j for j in idx if 0 <= j < X.shape[0]]
    return X[idx] if idx else np.empty((0, 2))


def highlight_trace(X, i) -> go.Scatter:
    """A yellow ring on the sampled point(s) of the current step (``i``: int, list or None)."""
    pts = _sampled(X, i)
    return go.Scatter(
        x=pts[:, 0],
        y=pts[:, 1],
        mode="markers",
        name="sampled xᵢ",
        marker=dict(
            symbol="circle-open", size=30, color=HIGHLIGHT, line=dict(width=4, color=HIGHLIGHT)
        ),
        hoverinfo="skip",
    )


def highlight_halo(X, i) -> go.Scatter:
    """The dark outline drawn under :func:`highlight_trace`'s yellow ring (same points)."""
    pts = _sampled(X, i)
    return go.Scatter(
        x=pts[:, 0],
        y=pts[:, 1],
        mode="markers",
        name="sampled xᵢ (outline)",
        showlegend=False,
        marker=dict(symbol="circle-open", size=30, color=HALO, line=dict(width=8, color=HALO)),
        hoverinfo="skip",
    )


def highlight_traces(X, i) -> list[go.Scatter]:
    """The sampled point's mark: the dark outline, then the yellow ring on it."""
    return [highlight_halo(X, i), highlight_trace(X, i)]
