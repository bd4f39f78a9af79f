"""Model views: what the figures need of a run, per snapshot, whatever the algorithm.

An algorithm's registry spec turns its result into a view (``spec.view(result, X, y)``);
runners, playback and the pages then only talk to the view:

* :class:`BinaryView` — f(x) = Σ_j c_j K(x_j, x) + b (or wᵀx + b) at S snapshots, with
  |α| for marker sizes and the support vectors to ring (free / bounded for the dual);
* :class:`MulticlassView` — the k scores ⟨w_y, x̃⟩ (or Σ_j α_{j,y} K̃(x_j, x)) at S snapshots;
* :class:`OneVsAllView` — one snapshot, k binary classifiers, the ambiguous regions.

Each view gives ``grid_values`` (what its figure shows on a grid at snapshot k),
``figure`` (that figure) and ``animation`` (the browser-side animation, or None);
``train_values(k)`` gives f (or the k scores) at the training points (the per-point
table) and ``other_iterate(values, name)`` the dashed boundary of another iterate of the
same run from its ``grid_values`` (the last iterate beside the averaged output).
Pure: NumPy and Plotly only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmlab.plot import playback
from svmlab.plot.convergence_figure import last_boundary_trace, last_regions_trace
from svmlab.plot.figures import grid, plane_figure
from svmlab.plot.regions import multiclass_figure

__all__ = [
    "BinaryView",
    "MulticlassView",
    "OneVsAllView",
    "SnapshotView",
    "linear_view",
    "sampled_at",
    "sampled_index",
]


def sampled_at(trace, t) -> np.ndarray:
    """The sample index drawn at each iteration in ``t`` (−1 where no step was recorded)."""
    t = np.asarray(t)
    out = np.full(t.shape, -1, dtype=np.int64)
    steps_t = trace.steps.get("t")
    steps_i = trace.steps.get("i")
    if steps_t is None or steps_i is None or len(steps_t) == 0:
        return out
    pos = np.searchsorted(steps_t, t)
    ok = (pos < len(steps_t)) & (steps_t[np.minimum(pos, len(steps_t) - 1)] == t)
    out[ok] = np.asarray(steps_i)[pos[ok]]
    return out


def sampled_index(trace, k: int):
    """The point sampled at snapshot ``k``'s iteration, if that step was recorded.

    For SMO traces (snapshots "i", "j"): the pair moved at that iteration, as a list.
    """
    s = trace.snapshots
    if "i" in s and "j" in s:
        pair = [int(s["i"][k]), int(s["j"][k])]
        pair = [p for p in pair if p >= 0]
        return pair or None
    i = int(sampled_at(trace, np.asarray([trace.t[k]]))[0])
    return None if i < 0 else i


class SnapshotView:
    """What the views share: S snapshots at iterations ``t``, and their animation."""

    @property
    def n_snapshots(self) -> int:
        return int(self.t.shape[0])

    def frames(self, xrange, yrange, resolution: int, idx) -> playback.Frames:
        """The grid values at the snapshots ``idx`` (one matrix product): the model's
        :meth:`frame_args` given to its ``frame_builder`` (:mod:`svmlab.plot.playback`)."""
        idx = np.asarray(idx)
        return self.frame_builder(
            xrange,
            yrange,
            resolution=resolution,
            **self.frame_args(idx),
            X=self.X,
            kernel=self.kernel,
            t=self.t[idx],
            index=idx,
        )

    def animation(self, X, y, *, n_frames: int, xrange, yrange):
        """The browser-side animation over at most ``n_frames`` snapshots."""
        idx = playback.select_frames(self.n_snapshots, n_frames)
        frames = self.frames(xrange, yrange, playback.COARSE_RESOLUTION, idx)
        sampled = sampled_at(self.trace, self.t[idx])
        return self.animate(X, y, frames, idx, sampled, xrange=xrange, yrange=yrange)


@dataclass(frozen=True, eq=False)
class BinaryView(SnapshotView):
    """A binary model per snapshot.

    ``coef`` (S, n) kernel coefficients with ``kernel`` set, or (S, d) weights w with
    ``kernel=None``; ``b`` (S,) or None; ``alpha`` (S, n) |α| for marker sizes or None;
    ``support`` (S, n) bool; ``t`` (S,). With ``C`` set (the dual), support vectors are
    ringed as free (α < C) or bounded (α = C); ``final`` gives the solver's own
    (free, bounded) index arrays at the last snapshot. ``ring``: a linear view's
    threshold (the points with y f(x) ≤ ``ring`` are ringed, :func:`linear_view`).
    """

    t: np.ndarray
    coef: np.ndarray
    b: np.ndarray | None
    kernel: object
    X: np.ndarray
    alpha: np.ndarray | None
    support: np.ndarray
    C: float | None = None
    final: tuple | None = None
    trace: object = None
    ring: float | None = None

    frame_builder = staticmethod(playback.decision_frames)  # f on a grid

    def frame_args(self, idx) -> dict:
        """The coefficients and offsets of the snapshots ``idx``."""
        return dict(coef=self.coef[idx], b=None if self.b is None else self.b[idx])

    def grid_values(self, xrange, yrange, resolution: int, k: int):
        """(xs, ys, Z (r, r)): f at snapshot ``k`` on a grid."""
        fr = self.frames(xrange, yrange, resolution, [k])
        return fr.xs, fr.ys, fr.F[0]

    def train_values(self, k: int) -> np.ndarray:
        """f(x_i) at snapshot ``k`` for the training points, shape (n,)."""
        A = self.X if self.kernel is None else self.kernel(self.X, self.X)
        f = A @ np.asarray(self.coef[k], dtype=float)
        return f if self.b is None else f + float(self.b[k])

    @staticmethod
    def other_iterate(values, name: str):
        """The boundary f = 0 of another iterate from its ``grid_values`` (a dashed trace)."""
        xs, ys, Z = values
        return last_boundary_trace(xs, ys, Z, name=name)

    def rings(self, k: int) -> dict:
        """The support vectors of snapshot ``k`` as keyword arguments of plane_figure."""
        if self.C is None:
            return {"support": np.flatnonzero(self.support[k])}
        if self.final is not None and k == self.n_snapshots - 1:
            return {"free": self.final[0], "bounded": self.final[1]}
        at_bound = self.alpha[k] >= self.C * (1 - 1e-8)
        return {
            "free": np.flatnonzero(self.support[k] & ~at_bound),
            "bounded": np.flatnonzero(self.support[k] & at_bound),
        }

    def figure(self, X, y, values, k, *, highlight=None, title=None, xrange, yrange):
        """The plane at snapshot ``k`` from ``grid_values``."""
        xs, ys, Z = values
        return plane_figure(
            X,
            y,
            xs,
            ys,
            Z,
            alpha=None if self.alpha is None else self.alpha[k],
            highlight=highlight,
            title=title,
            xrange=xrange,
            yrange=yrange,
            **self.rings(k),
        )

    def animate(self, X, y, frames, idx, sampled, *, xrange, yrange):
        """The animation of ``frames`` (snapshots ``idx``, sampled points ``sampled``)."""
        return playback.animation_figure(
            X,
            y,
            frames,
            alpha=None if self.alpha is None else self.alpha[idx],
            support=self.support[idx],
            sampled=sampled,
            xrange=xrange,
            yrange=yrange,
        )


def linear_view(result, X, y, *, ring: float) -> BinaryView:
    """The view of a linear run (snapshots ``w``, ``b``): f(x) = ⟨w_t, x⟩ + b_t; the points
    with y f(x) ≤ ``ring`` are ringed (1: on or inside the margin; 0: misclassified)."""
    X = np.asarray(X, dtype=float)
    s = result.trace.snapshots
    W = np.asarray(s["w"], dtype=float)
    B = np.asarray(s["b"], dtype=float) if "b" in s else np.zeros(W.shape[0])
    margins = np.asarray(y, dtype=float)[None, :] * (W @ X.T + B[:, None])  # (S, n)
    return BinaryView(
        result.trace.t, W, B, None, X, None, margins <= ring, trace=result.trace, ring=ring
    )


@dataclass(frozen=True, eq=False)
class MulticlassView(SnapshotView):
    """A k-class model per snapshot: ``W`` (S, k, d′) (x̃ = (x, 1) with ``bias``) or
    ``alpha`` (S, n, k) with ``kernel`` (K̃ = K + 1 with ``bias``); ``classes`` the labels."""

    t: np.ndarray
    W: np.ndarray | None
    alpha: np.ndarray | None
    bias: bool
    kernel: object
    X: np.ndarray
    classes: np.ndarray
    trace: object = None
    support = None

    @property
    def labels(self) -> list[str]:
        return [f"class {c}" for c in np.asarray(self.classes).tolist()]

    def class_index(self, y) -> np.ndarray:
        """Class index 0..k−1 of each label in ``classes`` order."""
        return np.searchsorted(np.asarray(self.classes), np.asarray(y))

    frame_builder = staticmethod(playback.multiclass_frames)  # the predicted class

    def frame_args(self, idx) -> dict:
        """The weights or coefficients of the snapshots ``idx``, and the bias flag."""
        return dict(
            W=None if self.W is None else self.W[idx],
            bias=self.bias,
            alpha=None if self.alpha is None else self.alpha[idx],
        )

    def scores(self, G, k: int) -> np.ndarray:
        """The k scores (G, k) of the grid points ``G`` at snapshot ``k``."""
        if self.W is not None:
            Ga = np.column_stack([G, np.ones(len(G))]) if self.bias else G
            return Ga @ self.W[k].T
        Kg = self.kernel(G, self.X) + (1.0 if self.bias else 0.0)
        return Kg @ self.alpha[k]

    def grid_values(self, xrange, yrange, resolution: int, k: int):
        """(xs, ys, scores (G, k), ambiguity None) at snapshot ``k``."""
        xs, ys, G = grid(xrange, yrange, resolution)
        return xs, ys, self.scores(G, k), None

    def train_values(self, k: int) -> np.ndarray:
        """The k scores of the training points at snapshot ``k``, shape (n, k)."""
        return self.scores(self.X, k)

    @staticmethod
    def other_iterate(values, name: str):
        """The region boundaries of another iterate from its ``grid_values`` (dashed)."""
        xs, ys, scores = values[:3]
        return last_regions_trace(xs, ys, scores, name=name)

    def figure(self, X, y, values, k, *, highlight=None, title=None, xrange, yrange):
        """The regions of the predicted classes at snapshot ``k``."""
        xs, ys, scores, amb = values
        return multiclass_figure(
            X,
            self.class_index(y),
            xs,
            ys,
            scores,
            ambiguity=amb,
            highlight=highlight,
            labels=self.labels,
            title=title,
            xrange=xrange,
            yrange=yrange,
        )

    def animate(self, X, y, frames, idx, sampled, *, xrange, yrange):
        """The animation of the regions in ``frames`` (sampled points ``sampled``)."""
        return playback.multiclass_animation_figure(
            X,
            self.class_index(y),
            frames,
            k=len(self.classes),
            sampled=sampled,
            xrange=xrange,
            yrange=yrange,
            labels=self.labels,
        )


@dataclass(frozen=True, eq=False)
class OneVsAllView(MulticlassView):
    """One-vs-all: one snapshot; ``decision`` maps (G, 2) points to the k scores f_k;
    ``ambiguity`` maps scores to the ambiguous grid points (none or several f_k > 0)."""

    decision: object = None
    ambiguity: object = None

    def grid_values(self, xrange, yrange, resolution: int, k: int):
        """(xs, ys, scores (G, k), ambiguous (G,) bool)."""
        xs, ys, G = grid(xrange, yrange, resolution)
        scores = self.decision(G)
        return xs, ys, scores, self.ambiguity(scores)

    def train_values(self, k: int) -> np.ndarray:
        """The k binary decision values f_c(x_i) of the training points, shape (n, k)."""
        return np.asarray(self.decision(self.X), dtype=float)

    def animation(self, X, y, *, n_frames: int, xrange, yrange):
        """No animation: one-vs-all trains k binary classifiers, no single run to play."""
        return None
