"""Small figures of every kind the app builds, for the export tests and benchmark.

They come from the public functions of :mod:`svmlab.plot.figures` and :mod:`svmlab.plot.playback`
on small data (moons, kernel Pegasos with an RBF kernel, SSBD §16.3), the way
:mod:`svmlab.ui.runners` builds the pages' figures.
"""

from __future__ import annotations

import numpy as np

from svmcore import datasets, kernel_pegasos
from svmlab.plot import curves, figures, playback, regions

__all__ = ["demo_figures"]


def demo_figures(n: int = 40, *, n_frames: int = 50, random_state: int = 0) -> dict:
    """Figures ``plane``, ``curves``, ``alpha``, ``multiclass`` and ``animation``.

    Parameters
    ----------
    n : int
        Number of moons points (kernel Pegasos with λ = 0.05, T = 20·n, γ = 2).
    n_frames : int
        Frames of the animation (at most the trace's snapshots, 100).
    random_state : int
        Seed of the data and the run.
    """
    X, y = datasets.moons(n=n, random_state=random_state)
    res = kernel_pegasos(
        X, y, kernel="rbf", gamma=2.0, lam=0.05, T=20 * n, random_state=random_state
    )
    A = np.asarray(res.trace.snapshots["alpha"], dtype=float)  # (S, n) signed α
    xr, yr = figures.plane_range(X)
    xs, ys, G = figures.grid(xr, yr, playback.FINE_RESOLUTION)
    Z = res.decision_function(G).reshape(len(ys), len(xs))
    sv = np.flatnonzero(A[-1])
    plane = figures.plane_figure(
        X,
        y,
        xs,
        ys,
        Z,
        alpha=np.abs(A[-1]),
        support=sv,
        highlight=0,
        xrange=xr,
        yrange=yr,
        title="kernel Pegasos, $\\lambda = 0.05$, $\\gamma = 2$",
    )
    idx = playback.select_frames(A.shape[0], n_frames)
    t = np.asarray(res.trace.t)[idx]
    frames = playback.decision_frames(
        xr,
        yr,
        resolution=playback.COARSE_RESOLUTION,
        coef=A[idx],
        X=X,
        kernel=res.kernel,
        t=t,
        index=idx,
    )
    animation = playback.animation_figure(
        X,
        y,
        frames,
        alpha=np.abs(A[idx]),
        support=A[idx] != 0,
        sampled=np.full(len(idx), -1),
        xrange=xr,
        yrange=yr,
    )
    # Multiclass regions of three blobs from nearest-centroid scores (any (G, k) scores do).
    Xk, yk = datasets.k_blobs(n=30, k=3, random_state=random_state)
    xk, yk_r = figures.plane_range(Xk)
    kx, ky, Gk = figures.grid(xk, yk_r, 60)
    means = np.stack([Xk[yk == j].mean(axis=0) for j in range(3)])
    scores = -((Gk[:, None, :] - means[None]) ** 2).sum(axis=2)
    multiclass = regions.multiclass_figure(Xk, yk, kx, ky, scores, xrange=xk, yrange=yk_r)
    return {
        "plane": plane,
        "curves": curves.curves_figure(res.trace),
        "alpha": figures.alpha_bar_figure(np.abs(A[-1]), y),
        "multiclass": multiclass,
        "animation": animation,
    }
