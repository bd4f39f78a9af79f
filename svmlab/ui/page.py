"""The Streamlit side of an algorithm page, driven by the registry's specs.

:func:`algorithm_page` lays out one page: the objective of the options chosen, the
parameters (the spec's control builder), the run on the clickable canvas with its
scrubber (:mod:`svmlab.ui.plane`), the α bars, and the report (metrics, curves, playback,
the step inspector beside the pseudo-code, the check against scikit-learn). The safe runner
turns every svmcore ``ValueError`` into a message on the page. The pages add their prose
only.

A click reruns the canvas's own fragment first (:mod:`svmlab.ui.plane_cell`), then the page;
its event is applied by its callback (:mod:`svmlab.ui.event_channel`) before either runs.
Streamlit sends the elements in the order the script draws them and the browser applies
them in that order, while the layout is given by containers; so the page lays out its
containers first (the title and objective, the parameters' column, the plane's column; the
sidebar's data panel keeps its place, :func:`page_data` with ``defer``) and fills the
plane's first. A click changes the points, not the parameters: when every parameter widget
holds the value the page's last run left (:func:`svmlab.ui.plane_first.expected`), the page
runs that run's parameters on the new points (:func:`svmlab.ui.plane.run_checked`), draws
the canvas with the finished figure of the new run's last snapshot
(:func:`svmlab.ui.plane.draw_canvas`) and waits briefly for the browser to paint it
(:func:`svmlab.ui.plane_first.let_it_paint`); then it draws the parameter widgets and the
data panel, whose parameters must be the canvas's (else it reruns at once, widgets first
while their values stay: a parameter computed from the points). Any other run (a widget
changed, a session's first, a share link) draws the data panel and the widgets first, then
the run and its canvas. Then the fragment of the report (:func:`plane_and_report`: the
scrubber, the report, then the run's frames for the canvas's playback).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmlab.algorithms import ALGORITHMS, on_page, widgets
from svmlab.plot import pseudocode
from svmlab.plot.look.theme import PageLook
from svmlab.state.run_context import RunContext
from svmlab.ui import (
    access,
    export_panel,
    plane_cell,
    plane_first,
    plotbox,
    presenter,
    runners,
    session,
)
from svmlab.ui.data_panel import data_controls, get_data, load_preset, plane_ranges
from svmlab.ui.fragment_state import (
    mark_local,
    page_changed,
    page_run,
    points_version,
    remember_page_state,
    take_local,
    take_page_run,
)
from svmlab.ui.panels import convergence, point_reasoning, seed_texts
from svmlab.ui.panels import exercise as exercise_panel
from svmlab.ui.panels.split import generalization_report, train_part
from svmlab.ui.plane import (
    canvas,
    data_problem,
    feed,
    feed_frames,
    new_run_snapshot,
    page_look,
    run_checked,
    safe_run,
    scrub,
    scrubber,
)

__all__ = [
    "PLOTLY_CONFIG",
    "algorithm_page",
    "binary_page",
    "canvas",
    "data_problem",
    "inspector",
    "load_k_blobs",
    "page_data",
    "page_look",
    "parameters",
    "plane_and_report",
    "plane_ranges",
    "safe_run",
    "scrubber",
    "show_check",
    "show_metrics",
]

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def inspector(shown: RunContext, look: PageLook) -> None:
    """The first steps of the text's loop beside its pseudo-code, with the model of the
    last snapshot at or before the step and the sampled point (or SMO pair) ringed."""
    spec = ALGORITHMS[shown.algorithm]
    steps = runners.steps(shown)
    n_steps = len(steps.get("t", ()))
    if n_steps == 0:
        st.info("This run recorded no individual steps.")
        return
    key = f"{shown.algorithm}_step"
    # The inspector follows t: a new snapshot on the plane (played, stepped, scrubbed) moves
    # it to the last recorded step at or before that snapshot's iteration.
    at = (shown.run_key, shown.snapshot)
    if st.session_state.get(session.INSPECT_FOLLOWS) != at and shown.snapshot is not None:
        st.session_state[session.INSPECT_FOLLOWS] = at
        t = int(shown.result.trace.t[shown.snapshot])
        st.session_state[key] = int(np.clip(np.searchsorted(steps["t"], t, "right"), 1, n_steps))
    k = st.slider(
        f"Step (the first {n_steps} steps are recorded; it follows the plane's t)",
        1,
        n_steps,
        key=key,
        on_change=mark_local,
    )
    step = {name: values[k - 1] for name, values in steps.items()}
    left, right = st.columns([1.1, 1])
    with left:
        st.markdown(pseudocode.render_html(spec.code(shown.params), step), unsafe_allow_html=True)
        rows = spec.rows(step, shown.y, shown.params)
        access.step_table(spec.code(shown.params), step, rows)  # in words, then as a table
    with right:
        t = int(step["t"])
        trace = shown.result.trace
        snap = trace.index_at(t)
        hl = [int(step[name]) for name in ("i", "j") if name in step and int(step[name]) >= 0]
        fig = runners.plane_at(
            shown.at(snap),
            look,  # as on the plane above: the test points, the page's theme
            highlight=hl or None,
            title=f"model at t = {int(trace.t[snap])} (snapshot ≤ step t = {t})",
        )
        fig.update_layout(height=420)
        st.plotly_chart(fig, key=f"{shown.algorithm}_step_fig", config=PLOTLY_CONFIG)


def show_check(key: str, compute) -> None:
    """A button that runs ``compute()`` -> list of CheckLine and shows the table."""
    if st.button("Check against scikit-learn", key=f"{key}_check", on_click=mark_local):
        try:
            with st.spinner("Solving the same problem with scikit-learn…"):
                lines = compute()
        except Exception as exc:
            st.error(f"scikit-learn could not solve this problem: {exc}")
            return
        mark = {True: "✓ agree", False: "✗ differs", None: ""}  # no emoji: not every font has them
        st.table(
            {
                "quantity": [ln.label for ln in lines],
                "SVM Lab": [ln.ours for ln in lines],
                "scikit-learn": [ln.sklearn for ln in lines],
                "agree": [mark[ln.ok] for ln in lines],
            }
        )


def show_metrics(values: dict) -> None:
    """A row of st.metric, one per entry."""
    items = list(values.items())
    per_row = 4
    for start in range(0, max(len(items), 1), per_row):
        cols = st.columns(per_row)
        for col, (label, value) in zip(cols, items[start : start + per_row], strict=False):
            col.metric(label, value)


def run_report(shown: RunContext) -> None:
    """What every page shows below its plane: metrics, curves, playback, the step
    inspector beside the pseudo-code, the check against scikit-learn, the spec's extras."""
    spec = ALGORITHMS[shown.algorithm]
    look = page_look()
    access.under_plane(shown, bars=spec.bars)  # the model in words, the α bars' table
    show_metrics(runners.metrics(shown))
    view = runners.view(shown)
    if view.trace is not None:
        curves = runners.curves_at(shown, look)
        # Redrawn on every click: a chart kept mounted, updated after the plane's paint.
        plotbox.plot(
            curves, key=f"{shown.algorithm}_curves", config=PLOTLY_CONFIG, table=mark_local
        )
        if view.trace.n_steps:
            # Tracked (a callback): a closed inspector computes and sends nothing.
            box = st.expander(
                spec.step_title, key=f"{shown.algorithm}_inspect", on_change=mark_local
            )
            if box.open:
                with box:
                    inspector(shown, look)
    if spec.check is not None and spec.check_applies(shown.params):
        st.header("Check against scikit-learn")
        st.caption(spec.check_caption)
        show_check(
            shown.algorithm,
            lambda: spec.check(shown.X, shown.y, shown.result, dict(shown.params)),
        )
    if spec.extras is not None:
        spec.extras(shown.result, dict(shown.params))
    seed_texts.panel(shown)
    generalization_report(shown)
    convergence.panel(shown)
    point_reasoning.panel(shown)
    export_panel.export_panel(shown)


#: The lab's layout on an algorithm page (its own CSS, drawn by :func:`algorithm_page`):
#: little chrome above the plane — the title beside the objective, compact paddings, a
#: narrower sidebar — so that the plane, its transport and its readout fit one screen at
#: 1280 × 720 and 1920 × 1080. On a phone the columns stack with the plane first.
LAB_CSS = """<style>
[data-testid="stMainBlockContainer"] {
  padding-top: 2.6rem !important; padding-bottom: 2rem !important;
  padding-left: 1.5rem !important; padding-right: 1.5rem !important; max-width: 100% !important;
}
[data-testid="stSidebar"][data-collapsed="false"] { width: 244px !important; }
.st-key-svmlab_lab_params .katex-display { overflow-x: auto; overflow-y: hidden; margin: 0.2em 0; }
.st-key-svmlab_lab_params .katex { font-size: 0.86em; }
.st-key-svmlab_lab_params h2 { font-size: 1.2rem; padding: 0.25rem 0 0; }
.st-key-svmlab_lab_head h1 { font-size: 1.65rem; padding: 0; line-height: 1.15; }
.st-key-svmlab_lab_head .katex-display { margin: 0.1em 0; }
.st-key-svmlab_lab_head .katex { font-size: 1.08em; }
@media (max-width: 640px) {
  [data-testid="stMainBlockContainer"] { padding-top: 4rem !important; }
  [data-testid="stColumn"]:has(.st-key-svmlab_lab_plane) { order: -1; }
}
</style>"""


def algorithm_page(page: str, X, y, *, plane, title: str = "", prose: str = "", note=None) -> None:
    """One page: the title beside the objective, then the parameters in a narrow column
    (the prose one click away above them) beside the run on the canvas, which fills the
    screen's height with its transport and readout under it; the report below.

    The page's algorithms are the registry's specs whose ``page`` is ``page``; with
    more than one, a radio chooses (key ``f"{page}_algo"``). The scrubber and the report
    are one fragment (:func:`plane_and_report`); the canvas is in a fragment of its own
    (:mod:`svmlab.ui.plane_cell`: a click reruns it alone, then the page), drawn once the
    report's fragment has chosen the snapshot — or, for a new run, before it. ``note``: a
    callable that draws a message above the parameters (e.g. the multiclass page's missing
    classes).

    The layout's containers come first, then what fills them: on a click (the widgets'
    values as the page's last run left them, :func:`svmlab.ui.plane_first.expected`) the
    new run's canvas, then the parameter widgets and the sidebar's data widgets (kept for
    later by :func:`page_data`), whose parameters must be the canvas's (else the page
    reruns); on any other run the widgets first, then the run.
    """
    with plane_cell.page_running():
        _algorithm_page(page, X, y, plane=plane, title=title, prose=prose, note=note)


def _algorithm_page(page: str, X, y, *, plane, title: str, prose: str, note) -> None:
    if presenter.is_on():  # the plane full screen with a compact toolbar
        plane_first.deferred_data_controls()
        return presenter.presenter_page(page, X, y, plane=plane, draw=plane_cell.presenter_plane)
    specs = on_page(page)
    st.html(LAB_CSS)
    with st.container(key="svmlab_lab_head"):
        name, objective_slot = st.columns([1.25, 2.75], vertical_alignment="center")
        if title:
            name.title(title, anchor=False)
    with st.container(key="svmlab_lab_body"):
        left, right = st.columns([1, 3.5], gap="small")
    params_box = left.container(key="svmlab_lab_params")
    plane_box = right.container(key="svmlab_lab_plane")
    guess = plane_first.expected(page, [s.key for s in specs])
    if guess is not None:
        # The plane first: the run of the last parameters and its canvas, before the
        # widgets (their toggle follows them, in the parameters' column).
        early_ctx = RunContext(guess.algorithm, X, y, guess.params, plane)
        early, first, slot = _run_and_plane(early_ctx, page=page, box=plane_box, toggle=None)
    else:
        plane_first.deferred_data_controls()  # the sidebar's data widgets first, as they were
    with params_box:
        spec, params = parameters(page, specs, X, y, prose=prose, note=note)
        toggle_slot = st.container()
    plane_first.deferred_data_controls()
    with objective_slot:
        st.latex(spec.objective(params))
    ctx = RunContext(spec.key, X, y, params, plane)
    if guess is not None:
        if ctx.run_key != early_ctx.run_key:
            # The widgets gave other parameters (e.g. computed from the points): the run
            # of theirs, drawn widgets first from now on while their values stay.
            plane_first.distrust(page)
            st.rerun()
        ran = early
        if first is not None:
            with toggle_slot:  # the canvas read it; drawn under the parameters
                convergence.other_boundary(early.at(first), toggle=True)
    else:
        ran, first, slot = _run_and_plane(ctx, page=page, box=plane_box, toggle=toggle_slot)
    if ran is not None:
        page_run()
        plane_and_report(ran, page=page, column=right, version=points_version())
        if first is None:  # the snapshot the fragment's scrubber chose
            shown = st.session_state[session.SHOWN]
            plane_cell.canvas_cell(shown, page=page, slot=slot, toggle=toggle_slot)
        plane_first.remember(page, ran.algorithm, ran.params)  # every widget drawn
    exercise_panel.goal_box(ctx, container=objective_slot)


def _run_and_plane(ctx: RunContext, *, page: str, box, toggle):
    """The run of ``ctx`` in ``box`` (the plane's column) and a slot for its canvas. A new
    run (a click, a parameter) is shown at its last snapshot: its canvas goes first, before
    the widgets that follow it and the report, and the page waits for its paint
    (:func:`svmlab.ui.plane_first.let_it_paint`); the run's frames follow the report
    (:func:`svmlab.ui.plane.feed_frames`). Else (``first`` None) the fragment's scrubber
    chooses the snapshot and the page draws it in ``slot``. Returns (ran, first, slot)."""
    with box:
        ran = run_checked(ctx, page=page)
        slot = st.container()
    first = None if ran is None else new_run_snapshot(ran)
    if first is not None:
        plane_cell.canvas_cell(ran.at(first), page=page, slot=slot, toggle=toggle, new_run=True)
    return ran, first, slot


def parameters(page: str, specs, X, y, *, prose: str = "", note=None):
    """The parameters' column: ``note``, the prose one click away, the algorithm's radio
    (with more than one spec) and the spec's controls; the spec and its parameters."""
    if note is not None:
        note()
    if prose:
        with st.popover("What to look for", width="stretch"):
            st.markdown(prose)
    st.header("Parameters")
    spec = specs[0]
    if len(specs) > 1:
        titles = {s.key: s.title for s in specs}
        spec = ALGORITHMS[widgets.radio("Algorithm", titles, key=f"{page}_algo")]
    params = spec.controls(spec.key, X, y)
    caps = f"n ≤ {spec.caps.n:,} points" + (f", T ≤ {spec.caps.T:,}" if spec.caps.T else "")
    st.caption(f"Caps on this page: {caps}.")
    return spec, params


@st.fragment
def plane_and_report(ran: RunContext, *, page: str, column, version):
    """The scrubber of the run ``ran`` in ``column`` (under the canvas) and, below the
    columns, its report (:func:`run_report`): one fragment.

    A scrub, a step of the inspector, the animation toggle or the scikit-learn check
    (:func:`mark_local`) and the buttons of the panels rerun this fragment only, not the
    sidebar and the parameters, which they cannot change; a scrub sends the canvas its new
    figure (:func:`svmlab.ui.plane.feed`). A change of the page's state
    (:func:`page_changed`, e.g. a button that sets a parameter) or of the points reruns the
    whole page, as without a fragment. A canvas edit is the page's own: it reruns the page.
    """
    whole_page = take_page_run()
    local = take_local()
    if not whole_page and (
        points_version() != version or (not local and page_changed(ran.algorithm, page))
    ):
        st.rerun()
    with column:
        shown = scrub(ran)
        feed(shown, page=page, whole_page=whole_page)
    try:
        run_report(shown)
    finally:
        with column:  # a new run's frames, after the report: the plane is drawn first
            feed_frames(shown, page=page, whole_page=whole_page)
    remember_page_state(ran.algorithm, page)
    plane_first.remember(page, ran.algorithm, ran.params)  # a click's canvas goes first


def binary_page(page: str, *, title: str, prose: str) -> None:
    """A binary page: the shared points, then :func:`algorithm_page` with its title."""
    X, y = page_data(n_classes=2, defer=True)
    algorithm_page(page, X, y, plane=plane_ranges(), title=title, prose=prose)


def page_data(n_classes: int = 2, *, defer: bool = False):
    """The data widgets (sidebar) and the shared points of this page (its training part).

    ``defer``: the data widgets' place is kept in the sidebar and :func:`algorithm_page`
    draws them (after a click's canvas); their values are read now
    (:func:`svmlab.ui.plane_first.defer_data_controls`). Every change of the points is a widget
    callback's, made before the script runs, so the points are the same either way."""
    plane_cell.note_classes(n_classes)  # the plane's fragment reads the points so
    if defer:
        plane_first.defer_data_controls(n_classes=n_classes)
    else:
        plane_first.drop_deferred()
        data_controls(n_classes=n_classes)
    X, y = get_data(n_classes=n_classes)
    return train_part(np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y), n_classes)


def load_k_blobs(k: int) -> None:
    """Replace the points by k Gaussian blobs (undoable in the data panel)."""
    load_preset("k_blobs", k=int(k))
