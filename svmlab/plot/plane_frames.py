"""The run's frames for playback on the plane itself, compact enough to go with every run.

The canvas (``assets/canvas.js``) plays a run on the page's own plane: it keeps the
figure of the snapshot shown (:func:`svmlab.plot.figures.plane_figure` with
``complete=True``: every trace a snapshot can have, each tagged by its ``meta``) and, per
frame, swaps the data of the traces a snapshot changes. What it needs of each snapshot is
sent with the run, before play is pressed (:func:`plane_frames`):

* the model on a ``GRID``² grid over the plane — f(x) of a binary model, quantized to int8
  on [−Z_LIMIT, Z_LIMIT] (a step of Z_LIMIT/127 ≈ 0.024 in f), or the predicted class of a
  multiclass one. The browser shades it and traces the boundary f = 0 and the margins
  f = ±1 on it (marching squares, as :mod:`svmlab.plot.isolines` on the server);
* the marker size of each point (|α| as the figure shows it, in steps of ``SIZE_STEP`` px),
  the rings (0 none, 1 a support vector — free for the dual —, 2 a bounded one) and the
  sampled point(s) of the step;
* the readout under the plane: t, the training accuracy, the number of support vectors and
  the objective, from the run's own snapshot fields when it has them.

Each array of frames is sent as the byte differences between consecutive frames, deflated
(zlib) and base64-encoded: consecutive snapshots differ little, so 100 frames of a 40²
grid are ~30 kB instead of 160 kB. The browser inflates them (``DecompressionStream``)
once, when the run arrives. Pure: NumPy and the standard library.
"""

from __future__ import annotations

import base64
import zlib

import numpy as np

from svmlab.plot.figures import marker_sizes
from svmlab.plot.playback import select_frames
from svmlab.plot.trace_meta import (
    BOUNDARY_META,
    MARGIN_META,
    REGIONS_META,
    SAMPLED_HALO_META,
    SAMPLED_META,
    SHADE_META,
    SV_BOUNDED_META,
    SV_FREE_META,
    SV_META,
)
from svmlab.plot.views import BinaryView, sampled_index

__all__ = [
    "GRID",
    "MAX_FRAMES",
    "SIZE_STEP",
    "Z_LIMIT",
    "has_frames",
    "pack",
    "plane_frames",
    "readout",
    "unpack",
]

#: Grid points per axis of a frame (the paused plane's figure has 120² for its lines).
GRID = 40
#: At most this many frames (evenly spread over the snapshots, first and last kept).
MAX_FRAMES = 120
#: f is quantized on [−Z_LIMIT, Z_LIMIT] (the shading saturates at ±2 anyway).
Z_LIMIT = 3.0
#: Marker sizes are sent in steps of this many pixels.
SIZE_STEP = 0.25


def pack(a: np.ndarray) -> str:
    """Frames ``a`` (F, …) of int8 or uint8 as text: each frame's bytes minus the previous
    frame's (mod 256; the first as is), deflated and base64-encoded."""
    a = np.ascontiguousarray(a)
    if a.dtype not in (np.int8, np.uint8):
        raise TypeError(f"a must be int8 or uint8, got {a.dtype}")
    u = a.view(np.uint8).reshape(a.shape[0], -1)
    d = np.diff(u, axis=0, prepend=np.zeros((1, u.shape[1]), np.uint8))  # wraps mod 256
    return base64.b64encode(zlib.compress(d.tobytes(), 3)).decode("ascii")


def unpack(text: str, shape, dtype) -> np.ndarray:
    """The inverse of :func:`pack` (what the browser does), for tests."""
    raw = np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=np.uint8)
    d = raw.reshape(shape[0], -1)
    u = np.cumsum(d, axis=0, dtype=np.uint64) % 256
    return u.astype(np.uint8).view(np.dtype(dtype)).reshape(shape)


def _f32(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode("ascii")


def readout(view, idx, y) -> list[dict]:
    """The readout of the snapshots ``idx`` of the run of labels ``y``: the training
    accuracy, the support vectors and the objective, each ``{"label", "format", "values"}``
    (format "pct", "int" or "g4"). The run's own snapshot fields when it has them (the
    metrics under the plane read the same), else computed from the view."""
    trace = view.trace
    s = {} if trace is None else trace.snapshots
    idx = np.asarray(idx, dtype=np.int64)
    rows = []
    if "train_error" in s:
        acc = 100.0 * (1.0 - np.asarray(s["train_error"], dtype=float)[idx])
        rows.append(("training accuracy", "pct", acc))
    elif isinstance(view, BinaryView):
        yy = np.where(np.asarray(y, dtype=float) > 0, 1.0, -1.0)
        F = _train_values(view, idx)
        acc = 100.0 * np.mean(np.where(F >= 0, 1.0, -1.0) == yy[None, :], axis=1)
        rows.append(("training accuracy", "pct", acc))
    if "n_support" in s:
        rows.append(("SVs", "int", np.asarray(s["n_support"])[idx]))
    elif isinstance(view, BinaryView):
        rows.append(("SVs", "int", np.asarray(view.support)[idx].sum(axis=1)))
    for name, label in (("objective", "objective"), ("dual_objective", "dual objective")):
        if name in s:
            rows.append((label, "g4", np.asarray(s[name], dtype=float)[idx]))
            break
    return [
        {"label": label, "format": fmt, "values": [float(f"{v:.6g}") for v in np.ravel(vals)]}
        for label, fmt, vals in rows
    ]


def _train_values(view: BinaryView, idx) -> np.ndarray:
    """f at the training points for the snapshots ``idx``, (len(idx), n): one product."""
    X = np.asarray(view.X, dtype=float)
    coef = np.asarray(view.coef, dtype=float)[idx]
    F = coef @ X.T if view.kernel is None else coef @ view.kernel(X, X)
    if view.b is not None:
        F = F + np.asarray(view.b, dtype=float)[idx][:, None]
    return F


def _rings(view: BinaryView, idx) -> tuple[np.ndarray, list[str]]:
    """Ring codes (len(idx), n) uint8 and the ``meta`` of each code (0: none)."""
    n = np.asarray(view.X).shape[0]
    codes = np.zeros((len(idx), n), dtype=np.uint8)
    dual = view.C is not None
    for m, k in enumerate(np.asarray(idx).tolist()):
        r = view.rings(k)
        if dual:
            codes[m, np.asarray(r["free"], dtype=np.int64)] = 1
            codes[m, np.asarray(r["bounded"], dtype=np.int64)] = 2
        else:
            codes[m, np.asarray(r["support"], dtype=np.int64)] = 1
    return codes, ["", SV_FREE_META, SV_BOUNDED_META] if dual else ["", SV_META]


def _sampled(trace, idx) -> list[list[int]]:
    if trace is None:
        return [[] for _ in idx]
    out = []
    for k in np.asarray(idx).tolist():
        i = sampled_index(trace, k)
        out.append([] if i is None else [int(j) for j in np.atleast_1d(i)])
    return out


def has_frames(view) -> bool:
    """Whether the run of ``view`` has frames to play (a trace of at least two snapshots):
    :func:`plane_frames` returns None exactly when this is False."""
    return getattr(view, "trace", None) is not None and view.n_snapshots >= 2


def plane_frames(
    view,
    X,
    y,
    *,
    xrange,
    yrange,
    size_map=None,
    resolution: int = GRID,
    max_frames: int = MAX_FRAMES,
) -> dict | None:
    """The frames of the run of ``view`` on the plane ``xrange`` × ``yrange``, as JSON data
    for the canvas; None when there is nothing to play (one snapshot, or no trace).

    Parameters
    ----------
    view : a model view of :mod:`svmlab.plot.views` (binary or multiclass).
    X, y : the run's points (n, 2) and labels.
    size_map : callable, optional
        Marker sizes as drawn (px) → as the page's look draws them (the projector enlarges
        them); None: unchanged.
    resolution : int
        Grid points per axis (at least 2).
    max_frames : int
        At most this many frames (at least 2).

    Returns
    -------
    dict or None
        ``n`` frames of snapshots ``index`` at iterations ``t``; ``kind`` "f" (binary:
        ``z`` int8, f = z · ``z_step``) or "class" (``z`` uint8 class indices);
        ``grid`` [x0, x1, y0, y1, r]; ``X`` the points (float32, base64); ``size`` (uint8,
        px / ``size_step``) and ``ring`` (uint8 codes, ``ring_meta`` the trace of each
        code) or None; ``sampled`` the sampled point(s) of each frame; ``readout``
        (:func:`readout`); ``metas`` the tags of the traces the frames change. Arrays of
        frames are :func:`pack`-ed.
    """
    resolution, max_frames = int(resolution), int(max_frames)
    if resolution < 2:
        raise ValueError(f"resolution must be at least 2, got {resolution}")
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2, got {max_frames}")
    if not has_frames(view):
        return None
    trace = view.trace
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    idx = select_frames(view.n_snapshots, max_frames)
    fr = view.frames(xrange, yrange, resolution, idx)
    binary = isinstance(view, BinaryView)
    out = {
        "v": 1,
        "n": len(idx),
        "index": idx.tolist(),
        "t": [int(v) for v in np.asarray(view.t)[idx]],
        "grid": [float(xrange[0]), float(xrange[1]), float(yrange[0]), float(yrange[1]),
                 resolution],
        "X": _f32(X),
        "n_points": int(X.shape[0]),
        "sampled": _sampled(trace, idx),
        "readout": readout(view, idx, y),
        "size": None,
        "ring": None,
        "ring_meta": [],
    }  # fmt: skip
    if binary:
        z = np.rint(np.clip(np.nan_to_num(fr.F), -Z_LIMIT, Z_LIMIT) / Z_LIMIT * 127)
        out.update(kind="f", z=pack(z.astype(np.int8)), z_step=Z_LIMIT / 127)
        out["metas"] = [SHADE_META, BOUNDARY_META, MARGIN_META, SAMPLED_META, SAMPLED_HALO_META]
        if view.alpha is not None:
            raw = np.stack([marker_sizes(view.alpha[k], X.shape[0]) for k in idx.tolist()])
            px = raw if size_map is None else np.asarray(size_map(raw), dtype=float)
            q = np.clip(np.rint(px / SIZE_STEP), 0, 255).astype(np.uint8)
            out.update(size=pack(q), size_step=SIZE_STEP)
        codes, metas = _rings(view, idx)
        out.update(ring=pack(codes), ring_meta=metas)
        out["metas"] += metas[1:]
    else:
        z = np.clip(np.rint(fr.F), 0, 255).astype(np.uint8)
        metas = [REGIONS_META, BOUNDARY_META, SAMPLED_META, SAMPLED_HALO_META]
        k = len(getattr(view, "classes", ())) or int(z.max()) + 1
        out.update(kind="class", z=pack(z), z_step=1.0, metas=metas, n_classes=k)
    return out
