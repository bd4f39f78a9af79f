"""Cached runs of the registry's algorithms, and the figures of a run at a snapshot.

Every function takes the algorithm's registry key (its svmcore function name) and reads
everything else from its spec in :data:`svmlab.algorithms.ALGORITHMS`: no function here
knows an algorithm by name. Runs are cached with ``st.cache_data`` keyed by (data,
algorithm, parameters): the arguments are the arrays X, y and plain keyword values,
which Streamlit hashes by content. Changing a control back and forth therefore never
reruns an algorithm, and the drawn points (kept by the data panel) are never touched here.

Runners raise ``ValueError`` (and its subclass ``svmcore.NotSeparableError``) exactly
as svmcore does, plus :class:`CapError` for n or T above the app's caps; the pages
show these with :func:`svmlab.controls.safe_run`, never as a traceback.
"""

from __future__ import annotations

import hashlib
import time

import numpy as np
import streamlit as st

import svmcore
from svmlab import playback
from svmlab.algorithms import ALGORITHMS, CapError, inspected_steps
from svmlab.figures import plane_range
from svmlab.views import sampled_index

__all__ = [
    "CapError",
    "ProgressBar",
    "check_caps",
    "data_key",
    "fine_values",
    "metrics",
    "plane_at",
    "preset_data",
    "run",
    "run_frames",
    "sampled_index",
    "steps",
    "view",
]


def preset_data(name: str, **kwargs):
    """A preset data set from :data:`svmcore.datasets.REGISTRY` (as (X, y))."""
    return svmcore.datasets.load(name, **kwargs)


def check_caps(algorithm: str, n: int, T: int | None = None) -> None:
    """Raise :class:`CapError` if n or T exceed the caps of ``algorithm``."""
    ALGORITHMS[algorithm].caps.check(n, T)


def plane_of(X, plane):
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


class ProgressBar:
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
        return ALGORITHMS[algorithm].fit(X, y, params, progress=ProgressBar(slot))
    finally:
        slot.empty()


def view(algorithm: str, result, X, y):
    """The model view of a run (pure; no caching needed)."""
    return ALGORITHMS[algorithm].view(result, X, y)


@st.cache_data(show_spinner="Computing the animation frames…", max_entries=32)
def run_frames(algorithm: str, X, y, n_frames: int = 50, plane=None, **params):
    """The coarse-grid animation figure of a (cached) run, or None (nothing to play).

    ``plane`` = ``(xrange, yrange)`` the axes (the session's stable range); None: around X.
    """
    result = run(algorithm, X, y, **params)
    xr, yr = plane_of(X, plane)
    return view(algorithm, result, X, y).animation(X, y, n_frames=n_frames, xrange=xr, yrange=yr)


@st.cache_data(show_spinner=False, max_entries=256)
def fine_values(
    algorithm: str,
    X,
    y,
    k: int,
    resolution: int = playback.FINE_RESOLUTION,
    plane=None,
    **params,
):
    """What the figure of snapshot ``k`` shows on the fine grid over ``plane``."""
    result = run(algorithm, X, y, **params)
    xr, yr = plane_of(X, plane)
    return view(algorithm, result, X, y).grid_values(xr, yr, resolution, k)


def plane_at(
    algorithm: str, X, y, result, k: int, *, highlight=None, title=None, plane=None, **params
):
    """The main figure at snapshot ``k`` on the fine grid (no maths in the pages).

    ``plane`` = ``(xrange, yrange)`` fixes the axes (the data panel's stable range, so
    that a click does not rescale them); None: :func:`svmlab.figures.plane_range` of X.
    """
    plane = plane_of(X, plane)
    values = fine_values(algorithm, X, y, k, plane=plane, **params)
    return view(algorithm, result, X, y).figure(
        X, y, values, k, highlight=highlight, title=title, xrange=plane[0], yrange=plane[1]
    )


def metrics(algorithm: str, result, X, y, k: int | None = None, plane=None, **params) -> dict:
    """The metrics of snapshot ``k`` (the last one if None), as {label: text}."""
    spec = ALGORITHMS[algorithm]
    v = spec.view(result, X, y)
    k = v.n_snapshots - 1 if k is None else k
    values = fine_values(algorithm, X, y, k, plane=plane_of(X, plane), **params)
    return spec.metrics(result, X, y, k, values)


@st.cache_data(show_spinner=False, max_entries=64)
def steps(algorithm: str, X, y, **params) -> dict:
    """The first steps of a run as the step inspector shows them (the text's step; see
    :func:`svmlab.algorithms.inspected_steps`)."""
    result = run(algorithm, X, y, **params)
    return inspected_steps(ALGORITHMS[algorithm], X, y, params, result.trace)
