"""The plane first: on a click, the canvas goes to the browser before the parameter widgets
and the sidebar's data panel.

Streamlit sends every element of a script run in the order the script calls it (the layout
is given by the containers, not by that order), and the browser applies them in that order:
a canvas drawn after the parameters and the data panel waits behind their ~70 messages, and
behind the server's work on them. A click changes the points, not the parameters, so the
page (:func:`svmlab.ui.page.algorithm_page`) can run the new fit and draw its canvas before
the widgets that give the parameters, with the parameters of its last run — if the widgets'
values are those that run left (:func:`expected`).

The widgets are drawn after the canvas, into the containers laid out before it, and their
parameters are compared with the ones the canvas was drawn with: if they differ (a
parameter computed from the points, such as Corollary 17.1's λ), the page reruns at once
with the widgets' values (the canvas of the right run replaces the other) and draws its
widgets first for as long as their values stay as they are (:func:`distrust`). Every other
run — the session's first, a changed widget, a share link, another page — draws the widgets
first, as they decide the run. Streamlit only.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from svmlab.ui import session
from svmlab.ui.data_panel import data_controls
from svmlab.ui.data_state import panel_state

__all__ = [
    "PAINT_WINDOW_S",
    "Expected",
    "defer_data_controls",
    "deferred_data_controls",
    "distrust",
    "drop_deferred",
    "expected",
    "let_it_paint",
    "remember",
    "widget_state",
]

#: Seconds a script run waits after sending a new run's plane before it sends the rest of
#: the page (:func:`let_it_paint`), and the step at which it checks for a new rerun.
PAINT_WINDOW_S = 0.1
_PAINT_STEP_S = 0.005


@dataclass(frozen=True)
class Expected:
    """The parameters of a page's last run and the widgets' values that gave them.

    ``trusted``: False once the widgets gave other parameters from the same values
    (:func:`distrust`); the page then draws its widgets first while their values stay as
    they are (``unchanged``: they were, at the start of this script run).
    """

    algorithm: str
    state: dict
    params: dict
    trusted: bool = True
    unchanged: bool = False


def _kept(value) -> bool:
    """Whether a value counts as a widget's: not data the page keeps beside its widgets
    (arrays, e.g. the multiclass page's copy of the points)."""
    if isinstance(value, np.ndarray):
        return False
    if isinstance(value, (tuple, list)):
        return not any(isinstance(v, np.ndarray) for v in value)
    return True


def widget_state(algorithm: str, page: str) -> dict:
    """The values (by ``repr``) of the session-state keys ``f"{algorithm}_…"`` (every
    parameter widget of an algorithm is keyed so, :mod:`svmlab.algorithms.widgets`) and the
    page's algorithm choice ``f"{page}_algo"``, toggles and buttons included."""
    out = {}
    for name in list(st.session_state.keys()):
        if isinstance(name, str) and (name.startswith(f"{algorithm}_") or name == f"{page}_algo"):
            value = st.session_state[name]
            if _kept(value):
                out[name] = repr(value)
    return out


def _records() -> dict:
    return session.session_object(session.PLANE_FIRST, dict)


def remember(page: str, algorithm: str, params) -> None:
    """At the end of a run of ``page`` (the page's or its fragment's): its algorithm and
    parameters with the widgets' values as the run leaves them."""
    records = _records()
    old = records.get(page)
    trusted = old is None or old.trusted or not old.unchanged
    state = widget_state(algorithm, page)
    records[page] = Expected(algorithm, state, dict(params), trusted, unchanged=not trusted)


def expected(page: str, algorithms) -> Expected | None:
    """The algorithm and parameters ``page``'s widgets will give in this run, known before
    they are drawn: those of its last run if every widget's value is the one that run left
    (and they were not :func:`distrust`-ed); else None."""
    records = _records()
    rec = records.get(page)
    if rec is None:
        return None
    unchanged = rec.algorithm in algorithms and widget_state(rec.algorithm, page) == rec.state
    if not rec.trusted:
        records[page] = replace(rec, unchanged=unchanged)  # distrusted while unchanged
        return None
    return rec if unchanged else None


def distrust(page: str) -> None:
    """The widgets of ``page`` gave other parameters than :func:`expected` said: draw them
    first until their values change."""
    records = _records()
    rec = records.get(page)
    if rec is not None:
        records[page] = replace(rec, trusted=False, unchanged=True)


def let_it_paint() -> None:
    """Wait :data:`PAINT_WINDOW_S` after a new run's canvas is sent, before the rest of
    the page — or until the browser asks for a new run (another click).

    The browser applies Streamlit's messages in order, re-rendering the whole page for each
    burst of them (~25 ms for an algorithm page's ~100 elements); a burst that arrives
    while it hands the canvas its new figure, draws it (~25–50 ms of Plotly) and paints it
    goes first, and so does the CPU the server spends on the report meanwhile. The wait (no
    CPU) lets the browser paint the new plane before the widgets and the report arrive;
    they follow that much later, below the plane or unchanged. Measured with
    ``benchmarks/bench_browser.py`` (click → refitted boundary painted, median of 10 clicks
    on this 2-core machine shared at a load of 1.5–2.3): 0.23–0.26 s with the widgets
    first; 0.16–0.18 s with the plane first and this wait. A/B runs of 15 clicks: the plane
    first without a wait 0.20–0.21 s, with 0.06 s 0.16–0.17 s, with 0.1 s 0.15–0.16 s.
    """
    end = time.monotonic() + PAINT_WINDOW_S
    while (left := end - time.monotonic()) > 0 and not _rerun_requested():
        time.sleep(min(left, _PAINT_STEP_S))


def _rerun_requested() -> bool:
    """Whether the browser has asked for a new script run since this one started (a
    click during :func:`let_it_paint`: the wait ends, and the run with it at its next
    element). Streamlit has no public call for it; False where its internals differ."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        requests = get_script_run_ctx(suppress_warning=True).script_requests
        return requests._state.name != "CONTINUE"  # private: see the docstring
    except Exception:  # pragma: no cover - outside a script run, or Streamlit changed
        return False


#: The data widgets a page draws later in this script run (:func:`defer_data_controls`):
#: their place in the sidebar and the page's classes. Per script thread (each run its own).
_DEFERRED: ContextVar[tuple | None] = ContextVar("plane_first_deferred", default=None)


def defer_data_controls(*, n_classes: int = 2) -> None:
    """Keep the data widgets' place in the sidebar (here, among the sidebar's elements)
    and draw them later in this run (:func:`deferred_data_controls`), after a click's
    canvas; what they tell the canvas is taken now
    (:func:`svmlab.ui.data_state.panel_state`)."""
    panel_state(n_classes=n_classes)
    _DEFERRED.set((st.sidebar.container(), int(n_classes)))


def deferred_data_controls() -> None:
    """Draw the data widgets :func:`defer_data_controls` kept a place for (once; nothing
    if none is due)."""
    due, _ = _DEFERRED.get(), _DEFERRED.set(None)
    if due is not None:
        slot, n_classes = due
        data_controls(n_classes=n_classes, container=slot)


def drop_deferred() -> None:
    """Forget data widgets kept for later (a new script run: they were another run's)."""
    _DEFERRED.set(None)
