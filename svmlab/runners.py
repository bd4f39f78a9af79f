"""Cached runs of the svmcore algorithms, and the per-snapshot model views the figures need.

Every run is cached with ``st.cache_data`` keyed by (data, algorithm, parameters): the
arguments are the arrays X, y and plain keyword values, which Streamlit hashes by
content. Changing a control back and forth therefore never reruns an algorithm, and
the drawn points (kept by the data panel) are never touched here.

Runners raise ``ValueError`` (and its subclass ``svmcore.NotSeparableError``) exactly
as svmcore does, plus :class:`CapError` for n or T above the app's caps; the pages
show these with :func:`svmlab.controls.safe_run`, never as a traceback.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

import numpy as np
import streamlit as st

import svmcore
from svmlab import playback
from svmlab.figures import plane_range

__all__ = [
    "CAPS",
    "CapError",
    "ModelView",
    "check_caps",
    "data_key",
    "fine_values",
    "model_view",
    "preset_data",
    "run",
    "run_frames",
]

#: The app's caps on n (points) and T (iterations), per algorithm; stated in the UI.
CAPS = {
    "pegasos": {"n": 2000, "T": 1_000_000},
    "kernel_pegasos": {"n": 500, "T": 100_000},
    "dual": {"n": 500, "T": None},
    "multiclass": {"n": 600, "T": 200_000},
}


class CapError(ValueError):
    """n or T above the app's caps."""


def preset_data(name: str, **kwargs):
    """A preset data set from :data:`svmcore.datasets.REGISTRY` (as (X, y))."""
    return svmcore.datasets.load(name, **kwargs)


def check_caps(algorithm: str, n: int, T: int | None = None) -> None:
    """Raise :class:`CapError` if n or T exceed the caps of ``algorithm``."""
    cap = CAPS[algorithm]
    if n > cap["n"]:
        raise CapError(
            f"This page runs on at most n = {cap['n']} points (you have {n}); "
            "remove some points or pick a smaller preset."
        )
    if T is not None and cap["T"] is not None and T > cap["T"]:
        raise CapError(f"T is capped at {cap['T']:,} on this page (asked for {T:,}).")


def _plane(X, plane):
    """``plane`` as a hashable ``((x0, x1), (y0, y1))`` of floats; None: around X."""
    if plane is None:
        return plane_range(X)
    (x0, x1), (y0, y1) = plane
    return (float(x0), float(x1)), (float(y0), float(y1))


def data_key(X, y) -> str:
    """A short content hash of the data (for widget-state bookkeeping)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(np.ascontiguousarray(X, dtype=float).tobytes())
    h.update(np.ascontiguousarray(y, dtype=float).tobytes())
    return h.hexdigest()


def _fn(name: str):
    """The svmcore function ``name`` (through svmcore's lazy exports)."""
    return getattr(svmcore, name)


def _kernel(params: dict):
    return svmcore.make_kernel(
        params.get("kernel", "rbf"),
        gamma=params.get("gamma", 1.0),
        degree=params.get("degree", 3),
        coef0=params.get("coef0", 1.0),
    )


#: The algorithms whose svmcore function reports its progress (progress(t, T)).
_REPORTS_PROGRESS = ("pegasos", "kernel_pegasos", "mc_sgd", "mc_pegasos")


def _run_uncached(algorithm: str, X, y, params: dict, progress=None):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    T = params.get("T")
    check_caps("multiclass" if algorithm.startswith("mc_") else algorithm, X.shape[0], T)
    if progress is not None and algorithm in _REPORTS_PROGRESS:
        params = {**params, "progress": progress}
    if algorithm == "pegasos":
        return _fn("pegasos")(X, y, **params)
    if algorithm == "kernel_pegasos":
        p = dict(params)
        kernel = _kernel(p)
        for name in ("kernel", "gamma", "degree", "coef0"):
            p.pop(name, None)
        return _fn("kernel_pegasos")(X, y, kernel=kernel, **p)
    if algorithm == "dual":
        p = dict(params)
        kernel = _kernel(p)
        for name in ("kernel", "gamma", "degree", "coef0"):
            p.pop(name, None)
        return _fn("dual_svm")(X, y, kernel=kernel, **p)
    if algorithm == "mc_sgd":
        return _fn("multiclass_sgd")(X, y, **params)
    if algorithm == "mc_pegasos":
        return _fn("multiclass_pegasos")(X, y, **params)
    if algorithm == "mc_ova":
        return _fn("one_vs_all")(X, y, **params)
    raise ValueError(f"unknown algorithm {algorithm!r}")


class _ProgressBar:
    """``progress(t, T)`` for svmcore: a progress bar in ``slot`` once a run has taken
    longer than ``delay`` seconds (short runs show nothing), updated at most every 0.1 s."""

    def __init__(self, slot, delay: float = 0.3):
        self.slot = slot
        self.start = time.perf_counter()
        self.delay = delay
        self.shown = 0.0

    def __call__(self, t: int, T: int) -> None:
        now = time.perf_counter()
        if now - self.start < self.delay or now - self.shown < 0.1:
            return
        self.shown = now
        self.slot.progress(min(t / max(T, 1), 1.0), text=f"Training… t = {t:,} of T = {T:,}")


@st.cache_data(show_spinner="Training… (cached afterwards)", max_entries=64)
def run(algorithm: str, X, y, **params):
    """Run ``algorithm`` on (X, y) with ``params`` (cached by content); a long run shows a
    progress bar (created and removed inside this function, so a cache hit replays
    nothing visible)."""
    slot = st.empty()
    try:
        return _run_uncached(algorithm, X, y, params, progress=_ProgressBar(slot))
    finally:
        slot.empty()


@dataclass(frozen=True, eq=False)
class ModelView:
    """What the figures need of a binary run, per snapshot.

    ``coef`` (S, n) kernel coefficients with ``kernel`` set, or (S, d) weights w with
    ``kernel=None``; ``b`` (S,) or None; ``alpha`` (S, n) |α| for marker sizes or
    None; ``support`` (S, n) bool; ``t`` (S,).
    """

    coef: np.ndarray
    b: np.ndarray | None
    kernel: object
    alpha: np.ndarray | None
    support: np.ndarray
    t: np.ndarray


def model_view(algorithm: str, result, X, y) -> ModelView:
    """Per-snapshot coefficients of a binary run (pure; no caching needed)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    tr = result.trace
    s = tr.snapshots
    if algorithm == "pegasos":
        W = np.asarray(s["w"], dtype=float)
        B = np.asarray(s["b"], dtype=float) if "b" in s else np.zeros(W.shape[0])
        margins = y[None, :] * (W @ X.T + B[:, None])  # (S, n)
        return ModelView(W, B, None, None, margins <= 1.0, np.asarray(tr.t))
    if algorithm == "kernel_pegasos":
        A = np.asarray(s["alpha"], dtype=float)
        return ModelView(A, None, result.kernel, np.abs(A), A != 0, np.asarray(tr.t))
    if algorithm == "dual":
        A = np.asarray(s["alpha"], dtype=float)
        B = np.asarray(s["b"], dtype=float) if "b" in s else np.full(A.shape[0], result.b)
        return ModelView(A * y[None, :], B, result.kernel, A, A > 1e-12, np.asarray(tr.t))
    raise ValueError(f"no binary model view for {algorithm!r}")


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


@st.cache_data(show_spinner="Computing the animation frames…", max_entries=32)
def run_frames(algorithm: str, X, y, n_frames: int = 50, plane=None, **params):
    """The coarse-grid animation figure of a (cached) run: one matrix product.

    ``plane`` = ``(xrange, yrange)`` the axes (the session's stable range); None: around X.
    """
    result = run(algorithm, X, y, **params)
    view = model_view(algorithm, result, X, y)
    xr, yr = _plane(X, plane)
    idx = playback.select_frames(view.coef.shape[0], n_frames)
    frames = playback.decision_frames(
        xr,
        yr,
        resolution=playback.COARSE_RESOLUTION,
        coef=view.coef[idx],
        b=None if view.b is None else view.b[idx],
        X=X,
        kernel=view.kernel,
        t=view.t[idx],
        index=idx,
    )
    return playback.animation_figure(
        X,
        y,
        frames,
        alpha=None if view.alpha is None else view.alpha[idx],
        support=view.support[idx],
        sampled=sampled_at(result.trace, view.t[idx]),
        xrange=xr,
        yrange=yr,
    )


@st.cache_data(show_spinner=False, max_entries=256)
def fine_values(
    algorithm: str, X, y, k: int, resolution: int = playback.FINE_RESOLUTION, plane=None,
    **params,
):  # fmt: skip
    """(xs, ys, Z) of snapshot ``k`` on the fine grid (when paused) over ``plane``."""
    result = run(algorithm, X, y, **params)
    view = model_view(algorithm, result, X, y)
    xr, yr = _plane(X, plane)
    fr = playback.decision_frames(
        xr,
        yr,
        resolution=resolution,
        coef=view.coef[k : k + 1],
        b=None if view.b is None else view.b[k : k + 1],
        X=X,
        kernel=view.kernel,
    )
    return fr.xs, fr.ys, fr.F[0]


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


def plane_at(algorithm: str, X, y, result, k: int, *, highlight=None, title=None, plane=None,
             **params):  # fmt: skip
    """The main figure at snapshot ``k`` on the fine grid (no maths in the pages).

    ``plane`` = ``(xrange, yrange)`` fixes the axes (the data panel's stable range, so
    that a click does not rescale them); None: :func:`svmlab.figures.plane_range` of X.
    """
    from svmlab.figures import plane_figure

    view = model_view(algorithm, result, X, y)
    plane = _plane(X, plane)
    xs, ys, Z = fine_values(algorithm, X, y, k, plane=plane, **params)
    if algorithm == "dual" and k == view.coef.shape[0] - 1:
        kw = {"free": result.free_, "bounded": result.bounded_}
    elif algorithm == "dual":
        a = view.alpha[k]
        C = result.C if result.C is not None else np.inf
        at_bound = a >= C * (1 - 1e-8)
        kw = {"free": np.flatnonzero(view.support[k] & ~at_bound),
              "bounded": np.flatnonzero(view.support[k] & at_bound)}  # fmt: skip
    else:
        kw = {"support": np.flatnonzero(view.support[k])}
    return plane_figure(
        X,
        y,
        xs,
        ys,
        Z,
        alpha=None if view.alpha is None else view.alpha[k],
        highlight=highlight,
        title=title,
        xrange=plane[0],
        yrange=plane[1],
        **kw,
    )


def metrics(algorithm: str, result, X, y, k: int | None = None) -> dict:
    """Training accuracy, #SV, margin width 2/‖w‖ (where defined) and objective(s)."""
    tr = result.trace
    s = tr.snapshots
    k = tr.n_snapshots - 1 if k is None else k
    out = {}
    if "train_error" in s:
        out["training accuracy"] = f"{100 * (1 - float(s['train_error'][k])):.1f} %"
    if "n_support" in s:
        out["support vectors"] = f"{int(s['n_support'][k])}"
    elif algorithm == "dual":
        out["support vectors"] = f"{int(np.count_nonzero(s['alpha'][k] > 1e-12))}"
    w = None
    if algorithm == "pegasos":
        w = np.asarray(s["w"][k], dtype=float)
    elif algorithm == "dual" and getattr(result, "w", None) is not None and k == tr.n_snapshots - 1:
        w = np.asarray(result.w, dtype=float)
    elif algorithm in ("kernel_pegasos", "dual"):
        # ‖w‖² = cᵀKc in feature space: the margin is defined for every kernel.
        view = model_view(algorithm, result, X, y)
        c = view.coef[k]
        norm2 = float(c @ result.kernel(np.asarray(X, dtype=float)) @ c)
        if norm2 > 0:
            out["margin 2/‖w‖ (feature space)"] = f"{2 / np.sqrt(norm2):.4g}"
    if w is not None:
        nw = float(np.linalg.norm(w))
        out["margin 2/‖w‖"] = f"{2 / nw:.4g}" if nw > 0 else "∞ (w = 0)"
    for name, label in (
        ("objective", "primal objective"),
        ("primal_objective", "primal objective"),
        ("dual_objective", "dual objective"),
        ("duality_gap", "duality gap"),
    ):
        if name in s:
            out[label] = f"{float(s[name][k]):.6g}"
    return out


# -- multiclass ----------------------------------------------------------------------
def mc_class_index(result, y) -> np.ndarray:
    """Class index 0..k−1 of each label in the result's ``classes_`` order."""
    return np.searchsorted(np.asarray(result.classes_), np.asarray(y))


def _mc_snapshot_params(algorithm: str, result):
    """(W (S,k,d′) or None, alpha (S,n,k) or None, bias, kernel) of a multiclass run."""
    s = result.trace.snapshots
    bias = bool(getattr(result, "bias", True))
    if "W" in s:
        return np.asarray(s["W"]), None, bias, None
    return None, np.asarray(s["alpha"]), bias, result.kernel


@st.cache_data(show_spinner=False, max_entries=128)
def mc_values(algorithm: str, X, y, k: int, resolution: int = playback.FINE_RESOLUTION,
              plane=None, **params):  # fmt: skip
    """(xs, ys, scores (G, k), ambiguity (G,) bool or None) of snapshot ``k`` on a grid."""
    from svmlab.figures import grid

    result = run(algorithm, X, y, **params)
    xr, yr = _plane(X, plane)
    xs, ys, G = grid(xr, yr, resolution)
    if algorithm == "mc_ova":
        from svmcore.sgd.one_vs_all import ambiguity_regions

        scores = result.decision_function(G)
        return xs, ys, scores, ambiguity_regions(scores).ambiguous
    W, A, bias, kernel = _mc_snapshot_params(algorithm, result)
    if W is not None:
        Ga = np.column_stack([G, np.ones(len(G))]) if bias else G
        scores = Ga @ W[k].T
    else:
        Kg = kernel(G, np.asarray(X, dtype=float)) + (1.0 if bias else 0.0)
        scores = Kg @ A[k]
    return xs, ys, scores, None


def mc_plane_at(algorithm: str, X, y, result, k: int, *, highlight=None, title=None,
                plane=None, **params):  # fmt: skip
    """The multiclass regions figure at snapshot ``k`` (ambiguity shaded for one-vs-all)."""
    from svmlab.figures import multiclass_figure

    plane = _plane(X, plane)
    xs, ys, scores, amb = mc_values(algorithm, X, y, k, plane=plane, **params)
    labels = [f"class {c}" for c in np.asarray(result.classes_).tolist()]
    return multiclass_figure(
        X, mc_class_index(result, y), xs, ys, scores, ambiguity=amb, highlight=highlight,
        labels=labels, title=title, xrange=plane[0], yrange=plane[1],
    )  # fmt: skip


@st.cache_data(show_spinner="Computing the animation frames…", max_entries=32)
def mc_run_frames(algorithm: str, X, y, n_frames: int = 50, plane=None, **params):
    """The browser-side animation of a multiclass SGD / Pegasos run (axes: ``plane``)."""
    result = run(algorithm, X, y, **params)
    W, A, bias, kernel = _mc_snapshot_params(algorithm, result)
    t_all = np.asarray(result.trace.t)
    idx = playback.select_frames(t_all.shape[0], n_frames)
    xr, yr = _plane(X, plane)
    frames = playback.multiclass_frames(
        xr, yr, resolution=playback.COARSE_RESOLUTION,
        W=None if W is None else W[idx], bias=bias, alpha=None if A is None else A[idx],
        X=X, kernel=kernel, t=t_all[idx], index=idx,
    )  # fmt: skip
    labels = [f"class {c}" for c in np.asarray(result.classes_).tolist()]
    return playback.multiclass_animation_figure(
        X, mc_class_index(result, y), frames, k=len(result.classes_),
        sampled=sampled_at(result.trace, t_all[idx]), xrange=xr, yrange=yr, labels=labels,
    )  # fmt: skip


def mc_metrics(algorithm: str, result, k: int | None = None) -> dict:
    """Training accuracy, objective, mean Δ, #SV (kernel) of a multiclass run."""
    out = {}
    if algorithm == "mc_ova":
        out["training accuracy"] = f"{100 * (1 - result.train_error):.1f} %"
        out["binary classifiers"] = str(len(result.models))
        return out
    s = result.trace.snapshots
    k = result.trace.n_snapshots - 1 if k is None else k
    out["training accuracy"] = f"{100 * (1 - float(s['train_error'][k])):.1f} %"
    if "objective" in s:
        label = "mean generalized hinge" if algorithm == "mc_sgd" else "objective λ/2‖W‖² + hinge"
        out[label] = f"{float(s['objective'][k]):.5g}"
    if "delta_risk" in s:
        out["mean Δ(ŷ, y)"] = f"{float(s['delta_risk'][k]):.4g}"
    if "n_support" in s:
        out["support vectors"] = str(int(s["n_support"][k]))
    return out


def dual_metrics(result, X, y, k: int) -> dict:
    """Metrics of the dual page: accuracy, free / bounded SVs, margin, objectives, gap."""
    out = metrics("dual", result, X, y, k)
    last = k == result.trace.n_snapshots - 1
    if last:
        out["support vectors"] = str(len(result.support_))
        out["free / bounded SVs"] = f"{len(result.free_)} / {len(result.bounded_)}"
        f = result.decision_function(np.asarray(X, dtype=float))
        out["training accuracy"] = f"{100 * np.mean(np.where(f > 0, 1, -1) == y):.1f} %"
        out["dual objective"] = f"{float(result.dual_objective):.6g}"
        out["primal objective"] = f"{float(result.primal_objective):.6g}"
        out["duality gap"] = f"{float(result.duality_gap):.2e}"
    return out


def ova_ambiguous_fraction(X, y, plane=None, **params) -> str:
    """Share of the plotted plane that one-vs-all leaves ambiguous (none or several claim)."""
    _, _, _, amb = mc_values("mc_ova", X, y, 0, plane=_plane(X, plane), **params)
    return f"{100 * float(np.mean(amb)):.1f} %"
