"""Cached runs of the registry's algorithms, and the figures of a run at a snapshot.

Every function takes the algorithm's registry key (its svmcore function name) and reads
everything else from its spec in :data:`svmlab.algorithms.ALGORITHMS`: no function here
knows an algorithm by name. Runs are cached with ``st.cache_data`` keyed by (data,
algorithm, parameters): the arguments are the arrays X, y and plain keyword values,
which Streamlit hashes by content. Changing a control back and forth therefore never
reruns an algorithm, and the drawn points (kept by the data panel) are never touched here.

Runners raise ``ValueError`` (and its subclass ``svmcore.NotSeparableError``) exactly
as svmcore does, plus :class:`CapError` for n or T above the app's caps; the pages
show these with :func:`svmlab.ui.page.safe_run`, never as a traceback.
"""

from __future__ import annotations

import hashlib
import time

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import svmcore
from svmlab.algorithms import ALGORITHMS, CapError, inspected_steps
from svmlab.plot import playback
from svmlab.plot.curves import curves_figure
from svmlab.plot.figures import alpha_bar_figure, plane_range
from svmlab.plot.views import sampled_index
from svmlab.ui import fitpool

__all__ = [
    "CACHE_TTL_S",
    "CapError",
    "ProgressBar",
    "bars_at",
    "bars_dict",
    "check_caps",
    "curves_at",
    "curves_dict",
    "data_key",
    "example",
    "figure_of",
    "fine_values",
    "frames_dict",
    "metrics",
    "plain_index",
    "plane_at",
    "plane_dict",
    "preset_data",
    "run",
    "run_frames",
    "sampled_index",
    "steps",
    "view",
]


#: Seconds a cached entry lives (every cache also has ``max_entries``): a class's runs are
#: reused during the lecture, and a server's memory stays bounded after it.
CACHE_TTL_S = 3600


def figure_of(fig_dict: dict) -> go.Figure:
    """A figure from a cached ``fig.to_dict()``, without validating it again.

    The dicts come from figures plotly.py built (and validated) once; building a
    ``go.Figure`` from one with validation costs as much as the first build.
    """
    return go.Figure(fig_dict, _validate=False)


def plain_index(i):
    """An index (or list of indices, e.g. SMO's pair) as Python ints, for cache keys."""
    if i is None:
        return None
    if isinstance(i, (list, tuple, np.ndarray)):
        return [int(j) for j in i]
    return int(i)


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


@st.cache_data(show_spinner="Training… (cached afterwards)", max_entries=64, ttl=CACHE_TTL_S)
def run(algorithm: str, X, y, **params):
    """Run ``algorithm`` on (X, y) with ``params`` (cached by content); a long run shows a
    progress bar (created and removed inside this function, so a cache hit replays
    nothing visible). A heavy run (:func:`svmlab.ui.fitpool.is_heavy`) goes to the worker
    process, so that the server keeps answering the other sessions meanwhile."""
    slot = st.empty()
    spec = ALGORITHMS[algorithm]
    try:
        if not fitpool.is_heavy(len(X), params):
            return spec.fit(X, y, params, progress=ProgressBar(slot))
        spec.caps.check(len(X), params.get("T"))  # refused here, before any round trip
        estimate = fitpool.estimated_seconds(len(X), params)

        def waiting(elapsed: float) -> None:
            text = f"Training in the background worker… {elapsed:.1f} s"
            slot.progress(min(elapsed / max(estimate, 1e-3), 0.99), text=text)

        return fitpool.fit(algorithm, X, y, params, on_wait=waiting)
    finally:
        slot.empty()


def view(algorithm: str, result, X, y):
    """The model view of a run (pure; no caching needed)."""
    return ALGORITHMS[algorithm].view(result, X, y)


@st.cache_data(show_spinner="Computing the animation frames…", max_entries=16, ttl=CACHE_TTL_S)
def frames_dict(algorithm: str, X, y, n_frames: int = 50, plane=None, **params):
    """The coarse-grid animation of a (cached) run as ``fig.to_dict()``, or None."""
    result = run(algorithm, X, y, **params)
    xr, yr = plane_of(X, plane)
    fig = view(algorithm, result, X, y).animation(X, y, n_frames=n_frames, xrange=xr, yrange=yr)
    return None if fig is None else fig.to_dict()


def run_frames(algorithm: str, X, y, n_frames: int = 50, plane=None, **params):
    """The coarse-grid animation figure of a (cached) run, or None (nothing to play).

    ``plane`` = ``(xrange, yrange)`` the axes (the session's stable range); None: around X.
    """
    d = frames_dict(algorithm, X, y, n_frames=n_frames, plane=plane, **params)
    return None if d is None else figure_of(d)


@st.cache_data(show_spinner=False, max_entries=256, ttl=CACHE_TTL_S)
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


@st.cache_data(show_spinner=False, max_entries=128, ttl=CACHE_TTL_S)
def plane_dict(algorithm: str, X, y, k: int, highlight=None, title=None, plane=None, **params):
    """The figure of snapshot ``k`` on the fine grid as ``fig.to_dict()`` (cached by its
    inputs: a scrub back, a parameter set back or a new session on the same data reuse it)."""
    result = run(algorithm, X, y, **params)
    values = fine_values(algorithm, X, y, k, plane=plane, **params)
    fig = view(algorithm, result, X, y).figure(
        X, y, values, k, highlight=highlight, title=title, xrange=plane[0], yrange=plane[1]
    )
    return fig.to_dict()


def plane_at(
    algorithm: str, X, y, result, k: int, *, highlight=None, title=None, plane=None, **params
):
    """The main figure at snapshot ``k`` on the fine grid (no maths in the pages).

    ``plane`` = ``(xrange, yrange)`` fixes the axes (the data panel's stable range, so
    that a click does not rescale them); None: :func:`svmlab.plot.figures.plane_range` of X.
    ``result`` is the run of (X, y, params) (:func:`run`); the figure is cached by those.
    """
    d = plane_dict(
        algorithm,
        X,
        y,
        int(k),
        highlight=plain_index(highlight),
        title=title,
        plane=plane_of(X, plane),
        **params,
    )
    return figure_of(d)


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL_S)
def curves_dict(algorithm: str, X, y, **params) -> dict | None:
    """The curves under the plane of a (cached) run as ``fig.to_dict()``; None: no trace."""
    spec = ALGORITHMS[algorithm]
    trace = view(algorithm, run(algorithm, X, y, **params), X, y).trace
    if trace is None:
        return None
    fig = curves_figure(trace, dual=spec.dual_curves, labels=spec.curve_labels(params))
    return fig.to_dict()


def curves_at(algorithm: str, X, y, **params) -> go.Figure | None:
    """The curves figure of a run (:func:`svmlab.plot.curves.curves_figure`), cached."""
    d = curves_dict(algorithm, X, y, **params)
    return None if d is None else figure_of(d)


@st.cache_data(show_spinner=False, max_entries=128, ttl=CACHE_TTL_S)
def bars_dict(algorithm: str, X, y, k: int, highlight=None, **params) -> dict:
    """The α bars of snapshot ``k`` (:func:`svmlab.plot.figures.alpha_bar_figure`), cached."""
    v = view(algorithm, run(algorithm, X, y, **params), X, y)
    return alpha_bar_figure(v.alpha[k], y, C=params.get("C"), highlight=highlight).to_dict()


def bars_at(algorithm: str, X, y, k: int, *, highlight=None, **params) -> go.Figure:
    """The α bar chart at snapshot ``k`` (bar j = point j, ``highlight`` ringed)."""
    hl = plain_index(highlight)
    return figure_of(bars_dict(algorithm, X, y, int(k), highlight=hl, **params))


def metrics(algorithm: str, result, X, y, k: int | None = None, plane=None, **params) -> dict:
    """The metrics of snapshot ``k`` (the last one if None), as {label: text}."""
    spec = ALGORITHMS[algorithm]
    v = spec.view(result, X, y)
    k = v.n_snapshots - 1 if k is None else k
    values = fine_values(algorithm, X, y, k, plane=plane_of(X, plane), **params)
    return spec.metrics(result, X, y, k, values)


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL_S)
def steps(algorithm: str, X, y, **params) -> dict:
    """The first steps of a run as the step inspector shows them (the text's step; see
    :func:`svmlab.algorithms.inspected_steps`)."""
    result = run(algorithm, X, y, **params)
    return inspected_steps(ALGORITHMS[algorithm], X, y, params, result.trace)


@st.cache_resource(show_spinner="Training the example…", max_entries=4, ttl=CACHE_TTL_S)
def example_dict(algorithm: str, preset: tuple, title: str, **params) -> tuple[dict, dict]:
    """A preset's last-snapshot figure (``fig.to_dict()``) and metrics, once per server.

    ``preset`` = ``(name, kwargs)`` of :func:`preset_data`. Shared by every session
    (``st.cache_resource``: nothing is copied); callers never mutate it.
    """
    name, kwargs = preset
    X, y = preset_data(name, **kwargs)
    result = run(algorithm, X, y, **params)
    k = view(algorithm, result, X, y).n_snapshots - 1
    fig = plane_at(algorithm, X, y, result, k, title=title, **params)
    return fig.to_dict(), metrics(algorithm, result, X, y, k, **params)


def example(algorithm: str, preset: tuple, title: str, **params) -> tuple[go.Figure, dict]:
    """The figure and metrics of a preset's example run (the home page's), computed once
    per server; see :func:`example_dict`."""
    d, values = example_dict(algorithm, (preset[0], dict(preset[1])), title, **params)
    return figure_of(d), dict(values)
