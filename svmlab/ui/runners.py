"""Cached runs of the registry's algorithms, and the finished figures of a run at a snapshot.

Every function takes a :class:`~svmlab.state.run_context.RunContext` (the registry key, the
points, the parameters, the plane, and once it has run its result and the snapshot shown)
and reads everything else from the spec in :data:`svmlab.algorithms.ALGORITHMS`: no
function here knows an algorithm by name. Runs and figures are cached with
``st.cache_data`` on the context's keys, hashed once per context
(:attr:`~svmlab.state.run_context.RunContext.run_key`, and
:attr:`~svmlab.state.run_context.RunContext.key` with the plane): the context itself is
passed as an argument Streamlit does not hash (``_ctx``). Changing a control back and forth
therefore never reruns an algorithm, and the drawn points (kept by the data panel) are never
touched here.

A figure leaves this module finished: the page's look (:class:`svmlab.plot.look.theme.PageLook`:
the test points, the dark page, the projector) is given where the figure is built
(:func:`svmlab.plot.look.theme.page_figure`), inside its cache.

Runners raise ``ValueError`` (and its subclass ``svmcore.NotSeparableError``) exactly
as svmcore does, plus :class:`CapError` for n or T above the app's caps; the pages
show these with :func:`svmlab.ui.page.safe_run`, never as a traceback.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import svmcore
from svmlab.algorithms import ALGORITHMS, CapError, inspected_steps
from svmlab.plot import playback
from svmlab.plot.curves import curves_figure
from svmlab.plot.figures import alpha_bar_figure
from svmlab.plot.look.theme import PageLook, page_figure
from svmlab.plot.views import sampled_index
from svmlab.state.run_context import RunContext
from svmlab.ui import fitpool

__all__ = [
    "CACHE_TTL_S",
    "CapError",
    "PageLook",
    "ProgressBar",
    "RunContext",
    "bars_at",
    "check_caps",
    "curves_at",
    "example",
    "figure_of",
    "fine_values",
    "metrics",
    "plain_index",
    "plane_at",
    "preset_data",
    "ran",
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


def _look_key(look: PageLook | None) -> str:
    return "" if look is None else look.key


def _finished(d: dict, look: PageLook | None, *, plane: bool = False) -> dict:
    """A figure dict in the page's ``look`` (:func:`svmlab.plot.look.theme.page_figure`)."""
    if look is None or look.plain:
        return d
    fig = page_figure(figure_of(d), look, plane=plane, inplace=True)
    return fig.to_dict()


# -- the run ---------------------------------------------------------------------------------
def _run_key(ctx: RunContext) -> str:
    return ctx.run_key


@st.cache_data(
    show_spinner="Training… (cached afterwards)",
    max_entries=64,
    ttl=CACHE_TTL_S,
    hash_funcs={RunContext: _run_key},  # the context's run key: its inputs, hashed once
)
def run(ctx: RunContext):
    """The svmcore result of the run of ``ctx`` (cached on its
    :attr:`~svmlab.state.run_context.RunContext.run_key`); a long run shows a progress bar
    (created and removed inside this function, so a cache hit replays nothing visible). A
    heavy run (:func:`svmlab.ui.fitpool.is_heavy`) goes to the worker process, so that the
    server keeps answering the other sessions meanwhile."""
    slot = st.empty()
    spec = ALGORITHMS[ctx.algorithm]
    X, y, params = ctx.X, ctx.y, ctx.params
    try:
        if not fitpool.is_heavy(len(X), params):
            return spec.fit(X, y, params, progress=ProgressBar(slot))
        spec.caps.check(len(X), params.get("T"))  # refused here, before any round trip
        estimate = fitpool.estimated_seconds(len(X), params)

        def waiting(elapsed: float) -> None:
            text = f"Training in the background worker… {elapsed:.1f} s"
            slot.progress(min(elapsed / max(estimate, 1e-3), 0.99), text=text)

        return fitpool.fit(ctx.algorithm, X, y, params, on_wait=waiting)
    finally:
        slot.empty()


def ran(ctx: RunContext) -> RunContext:
    """``ctx`` with its result (run, cached, if it has none yet)."""
    return ctx if ctx.result is not None else ctx.with_result(run(ctx))


def view(ctx: RunContext):
    """The model view of the run of ``ctx`` (pure; run, cached, if it has no result yet)."""
    ctx = ran(ctx)
    return ALGORITHMS[ctx.algorithm].view(ctx.result, ctx.X, ctx.y)


def _snapshot(ctx: RunContext) -> int:
    """The snapshot of ``ctx`` (the last one when it names none)."""
    return view(ctx).n_snapshots - 1 if ctx.snapshot is None else int(ctx.snapshot)


# -- values and figures on the plane ---------------------------------------------------------
@st.cache_data(show_spinner=False, max_entries=256, ttl=CACHE_TTL_S)
def _fine(key: str, k: int, resolution: int, _ctx: RunContext):
    (xr, yr) = _ctx.plane
    return view(_ctx).grid_values(xr, yr, resolution, k)


def fine_values(ctx: RunContext, resolution: int = playback.FINE_RESOLUTION):
    """What the figure of the snapshot of ``ctx`` shows on the fine grid over its plane."""
    return _fine(ctx.key, _snapshot(ctx), int(resolution), ctx)


@st.cache_data(show_spinner=False, max_entries=128, ttl=CACHE_TTL_S)
def _plane(key, k, highlight, title, other_key, look_key, _ctx, _other, _look) -> dict:
    """The finished plane of snapshot ``k`` as ``fig.to_dict()`` (cached by its inputs: a
    scrub back, a parameter set back or a new session on the same data reuse it)."""
    ctx = _ctx.at(k)
    values = fine_values(ctx)
    fig = view(ctx).figure(
        ctx.X, ctx.y, values, k, highlight=highlight, title=title, xrange=ctx.plane[0],
        yrange=ctx.plane[1],
    )  # fmt: skip
    if _other is not None:  # another output of the same run (a dashed boundary)
        ctx_other, name = _other
        other_values = fine_values(ctx_other.at(k))
        fig.add_trace(view(ctx).other_iterate(other_values, name))
    return page_figure(fig, _look, plane=True, inplace=True).to_dict()


def plane_at(
    ctx: RunContext, look: PageLook | None = None, *, highlight=None, title=None, other=None
) -> go.Figure:
    """The plane at the snapshot of ``ctx`` on the fine grid, in the page's ``look``.

    ``ctx.plane`` fixes the axes (the data panel's stable range, so that a click does not
    rescale them). ``highlight``: the point(s) ringed. ``other``: ``(context, name)`` of
    another output of the same run (:func:`svmlab.ui.panels.convergence.other_boundary`),
    drawn dashed. The figure is cached by those inputs.
    """
    other_key = None if other is None else (other[0].key, other[1])
    d = _plane(
        ctx.key,
        _snapshot(ctx),
        plain_index(highlight),
        title,
        other_key,
        _look_key(look),
        ctx,
        other,
        look,
    )
    return figure_of(d)


@st.cache_data(show_spinner=False, max_entries=128, ttl=CACHE_TTL_S)
def _bars(run_key: str, k: int, highlight, look_key: str, _ctx, _look) -> dict:
    v = view(_ctx)
    C = _ctx.params.get("C")
    d = alpha_bar_figure(v.alpha[k], _ctx.y, C=C, highlight=highlight).to_dict()
    return _finished(d, _look)


def bars_at(ctx: RunContext, look: PageLook | None = None, *, highlight=None) -> go.Figure:
    """The α bar chart at the snapshot of ``ctx`` (bar j = point j, ``highlight`` ringed)."""
    hl = plain_index(highlight)
    return figure_of(_bars(ctx.run_key, _snapshot(ctx), hl, _look_key(look), ctx, look))


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL_S)
def _curves(run_key: str, look_key: str, _ctx, _look) -> dict | None:
    spec = ALGORITHMS[_ctx.algorithm]
    trace = view(_ctx).trace
    if trace is None:
        return None
    fig = curves_figure(trace, dual=spec.dual_curves, labels=spec.curve_labels(_ctx.params))
    return _finished(fig.to_dict(), _look)


def curves_at(ctx: RunContext, look: PageLook | None = None) -> go.Figure | None:
    """The curves under the plane (:func:`svmlab.plot.curves.curves_figure`) in the page's
    ``look``, cached; None: the run has no trace."""
    d = _curves(ctx.run_key, _look_key(look), ctx, look)
    return None if d is None else figure_of(d)


@st.cache_data(show_spinner="Computing the animation frames…", max_entries=16, ttl=CACHE_TTL_S)
def _frames(key: str, n_frames: int, look_key: str, _ctx, _look) -> dict | None:
    xr, yr = _ctx.plane
    fig = view(_ctx).animation(_ctx.X, _ctx.y, n_frames=n_frames, xrange=xr, yrange=yr)
    if fig is None:
        return None
    # the test points are static (the frames update the run's traces only)
    return page_figure(fig, _look, plane=True, inplace=True).to_dict()


def run_frames(ctx: RunContext, look: PageLook | None = None, n_frames: int = 50):
    """The coarse-grid animation of the run of ``ctx`` on its plane in the page's ``look``,
    or None (nothing to play)."""
    d = _frames(ctx.key, int(n_frames), _look_key(look), ctx, look)
    return None if d is None else figure_of(d)


def metrics(ctx: RunContext) -> dict:
    """The metrics of the snapshot of ``ctx`` (the last one if it names none), as
    {label: text}."""
    ctx = ran(ctx)
    k = _snapshot(ctx)
    spec = ALGORITHMS[ctx.algorithm]
    return spec.metrics(ctx.result, ctx.X, ctx.y, k, fine_values(ctx.at(k)))


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL_S)
def _steps(run_key: str, _ctx: RunContext) -> dict:
    ctx = ran(_ctx)
    spec = ALGORITHMS[ctx.algorithm]
    return inspected_steps(spec, ctx.X, ctx.y, ctx.params, ctx.result.trace)


def steps(ctx: RunContext) -> dict:
    """The first steps of a run as the step inspector shows them (the text's step; see
    :func:`svmlab.algorithms.inspected_steps`)."""
    return _steps(ctx.run_key, ctx)


@st.cache_resource(show_spinner="Training the example…", max_entries=4, ttl=CACHE_TTL_S)
def example_dict(algorithm: str, preset: tuple, title: str, **params) -> tuple[dict, dict]:
    """A preset's last-snapshot figure (``fig.to_dict()``) and metrics, once per server.

    ``preset`` = ``(name, kwargs)`` of :func:`preset_data`. Shared by every session
    (``st.cache_resource``: nothing is copied); callers never mutate it.
    """
    name, kwargs = preset
    X, y = preset_data(name, **kwargs)
    ctx = ran(RunContext(algorithm, X, y, params))
    ctx = ctx.at(view(ctx).n_snapshots - 1)
    fig = plane_at(ctx, title=title)
    return fig.to_dict(), metrics(ctx)


def example(algorithm: str, preset: tuple, title: str, **params) -> tuple[go.Figure, dict]:
    """The figure and metrics of a preset's example run (the home page's), computed once
    per server; see :func:`example_dict`."""
    d, values = example_dict(algorithm, (preset[0], dict(preset[1])), title, **params)
    return figure_of(d), dict(values)
