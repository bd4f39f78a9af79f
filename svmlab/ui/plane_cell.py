"""The canvas in a fragment of its own: a click reruns the plane alone, then the page.

A click on the canvas changes the points, and every element of the page that shows the
run must follow: the sidebar's count, the report, the curves. A whole page's run sends the
browser every element before the canvas (the router's theme, shortcuts and presenter
switch, the layout, ~30 messages; the browser re-renders the page for them before it
hands the canvas its new figure). Inside a fragment (``st.fragment``) the canvas's click
reruns the fragment alone: its first message is the canvas's new figure. The fragment's
run (:func:`click_run`) fits the page's last parameters on the new points, draws the canvas
at the new run's last snapshot, waits for its paint (:func:`svmlab.ui.plane_first.let_it_paint`)
and then reruns the whole page (``st.rerun(scope="app")``), which draws the widgets, the
report and the run's frames as after any click — and the canvas again at the same place,
without its figure: ``kept`` (:func:`svmlab.ui.canvas.plot_canvas`), the browser has it.

Where the fragment cannot know the run without drawing the page — the split holds test
points out (its widgets decide the training part), the page's widgets changed, there is
nothing to train on, the run fails — it reruns the whole page at once, as without the
fragment. Measured with ``benchmarks/bench_browser.py``'s clicks (click → refitted boundary
painted, n = 190…200, this 2-core machine): median 0.124–0.139 s in the fragment against
0.170–0.203 s with the whole page's run first (batches of clicks alternating between two
servers, at a load of 2.2–2.8); the benchmark itself 0.132 s on a quiet machine. Streamlit
only.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import streamlit as st

from svmlab.algorithms import on_page
from svmlab.state.run_context import RunContext
from svmlab.ui import keyboard, plane_first, runners, session
from svmlab.ui.data_panel import get_data, plane_ranges
from svmlab.ui.panels import convergence
from svmlab.ui.plane import draw_canvas, new_run_snapshot, run_checked, run_problem, scrub

__all__ = [
    "canvas_cell",
    "click_points",
    "click_run",
    "note_classes",
    "page_running",
    "plane_cell",
    "presenter_plane",
    "skip_paint_wait",
]

#: True while a page's own script run draws the page (:func:`page_running`); a run of the
#: fragment alone (a click inside it) finds it False.
_PAGE_RUNNING: ContextVar[bool] = ContextVar("plane_cell_page_running", default=False)
#: The classes of the page's points in this script run (:func:`note_classes`); None: a
#: page that did not say (its fragment reruns the page on a click).
_PAGE_CLASSES: ContextVar[int | None] = ContextVar("plane_cell_page_classes", default=None)


def note_classes(n_classes: int) -> None:
    """The page's points have ``n_classes`` classes in this script run
    (:func:`svmlab.ui.page.page_data`): the fragment can read them on a click."""
    _PAGE_CLASSES.set(int(n_classes))


@contextmanager
def page_running():
    """``with page_running():`` around a page's drawing: :func:`plane_cell` called inside
    draws its canvas; called by Streamlit alone (a click in the fragment), it runs
    :func:`click_run`."""
    token = _PAGE_RUNNING.set(True)
    try:
        yield
    finally:
        _PAGE_RUNNING.reset(token)
        _PAGE_CLASSES.set(None)  # this run's (the next page says its own)


def click_points(n_classes: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """The points a page with ``n_classes`` classes trains on, known without drawing the
    page — when the split holds no test points out (``split`` is "none": every point
    trains, :func:`svmlab.ui.panels.split.train_part`); else None (its widgets decide)."""
    if n_classes is None or st.session_state.get("split") != "none":
        return None
    X, y = get_data(n_classes=int(n_classes))
    return np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y)


def click_run(page: str, algorithms: list[str], n_classes: int | None) -> None:
    """The fragment's own run (a click on the canvas): the page's last parameters
    (:func:`svmlab.ui.plane_first.expected`) fitted on the new points, the canvas at the
    new run's last snapshot, a wait for its paint; then the whole page reruns. Anything
    the fragment cannot decide alone reruns the whole page at once."""
    points = click_points(n_classes)
    guess = plane_first.expected(page, algorithms)
    if points is None or guess is None:
        st.rerun(scope="app")
    X, y = points
    # The canvas's place, before the run's progress and spinner: the canvas keeps the
    # element it has in the page's run (the same path: no new element, no second drawing).
    holder = st.container()
    ctx = RunContext(guess.algorithm, X, y, guess.params, plane_ranges())
    if run_problem(ctx):
        st.rerun(scope="app")  # the page says why (svmlab.ui.plane.run_checked)
    try:
        ran = runners.ran(ctx)
    except Exception:  # the page's run shows it (svmlab.ui.plane.safe_run)
        st.rerun(scope="app")
    first = new_run_snapshot(ran)
    if first is not None:  # a new run: its canvas now, the page's run after its paint
        # the run's frames: in a feed after the plane (the report's fragment brings them);
        # presenter mode, without a report, has them in the canvas's data
        later = not keyboard.is_presenting()
        with holder:
            draw_canvas(ran.at(first), page=page, toggle=None, frames_later=later)
            st.session_state[session.PLANE_PAINTED] = ran.run_key
        plane_first.let_it_paint()
    st.rerun(scope="app")


def skip_paint_wait(ran: RunContext) -> bool:
    """Whether the canvas of ``ran`` was painted by the fragment's run just before this
    page's run (no second wait for its paint, no second copy of its figure); the mark is
    taken."""
    return st.session_state.pop(session.PLANE_PAINTED, None) == ran.run_key


@st.fragment
def plane_cell(
    page: str, draw: Callable[[], None], algorithms: list[str], n_classes: int | None
) -> None:
    """The canvas's fragment: in a page's run (:func:`page_running`), ``draw()`` (the
    canvas of the snapshot the page shows); run alone by a click inside it,
    :func:`click_run`. ``algorithms``, ``n_classes``: the page's specs' keys and the classes
    of its points (None: the fragment never runs the click itself)."""
    if _PAGE_RUNNING.get():
        with st.container():  # the canvas's place (click_run's holder)
            draw()
    else:
        click_run(page, algorithms, n_classes)


def canvas_cell(shown: RunContext, *, page: str, slot, toggle, new_run: bool = False) -> None:
    """The canvas of ``shown`` in ``slot`` (a container of the plane's column), inside the
    plane's fragment (:func:`plane_cell`), and the "other output" toggle in ``toggle`` (a
    container, or None: the value only) — a widget outside the fragment, so drawn before
    it (:func:`svmlab.ui.plane.draw_canvas` then reads its value).

    ``new_run``: ``shown`` is a new run's last snapshot, drawn before the widgets and the
    report — its frames follow in the feed (``frames_later``), and the page waits for its
    paint (:func:`svmlab.ui.plane_first.let_it_paint`), unless the fragment's own run drew
    it just before (:func:`skip_paint_wait`: then its figure is not sent again either,
    whatever ``new_run``).
    """
    if toggle is not None:
        with toggle:
            convergence.other_boundary(shown, toggle=True)
    kept = skip_paint_wait(shown)
    algorithms = [spec.key for spec in on_page(page)]
    with slot:
        plane_cell(
            page,
            lambda: draw_canvas(shown, page=page, toggle=None, frames_later=new_run, kept=kept),
            algorithms,
            _PAGE_CLASSES.get(),
        )
    if new_run and not kept:
        plane_first.let_it_paint()


def presenter_plane(ctx: RunContext, *, page: str) -> RunContext | None:
    """Presenter mode's plane (:func:`svmlab.ui.presenter.presenter_page`'s ``draw``), no
    report: the run, the scrubber (a scrub reruns the page), then the canvas of the
    snapshot it chose in the plane's fragment (a click reruns it alone first). The run
    shown, or None."""
    ran = run_checked(ctx, page=page)
    if ran is None:
        return None
    slot = st.container()
    shown = scrub(ran)
    canvas_cell(shown, page=page, slot=slot, toggle=None)
    plane_first.remember(page, ran.algorithm, ran.params)  # what a click's fragment runs
    return shown
