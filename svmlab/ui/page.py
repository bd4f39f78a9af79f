"""The Streamlit side of an algorithm page, driven by the registry's specs.

:func:`algorithm_page` lays out one page: the objective of the options chosen, the
parameters (the spec's control builder), the run on the clickable canvas with its
scrubber, the α bars, and the report (metrics, curves, playback, the step inspector
beside the pseudo-code, the check against scikit-learn). The safe runner turns every
svmcore ``ValueError`` into a message on the page. The pages add their prose only.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmcore.exceptions import NotSeparableError
from svmlab.algorithms import ALGORITHMS, on_page, widgets
from svmlab.plot import pseudocode
from svmlab.plot.figures import plane_figure
from svmlab.ui import export_panel, keyboard, plotbox, presenter, runners
from svmlab.ui.data_panel import (
    data_canvas,
    data_controls,
    get_data,
    link_box_open,
    load_preset,
    plane_ranges,
)
from svmlab.ui.fragment_state import (
    LOCAL_KEY,
    PAGE_RUN_KEY,
    PAGE_STATE_KEY,
    mark_local,
    page_changed,
    page_state,
    points_version,
)
from svmlab.ui.panels import convergence, point_reasoning, seed_texts
from svmlab.ui.panels import exercise as exercise_panel
from svmlab.ui.panels.split import generalization_report, train_part, with_test_points

__all__ = [
    "PLOTLY_CONFIG",
    "algorithm_page",
    "binary_page",
    "canvas",
    "data_problem",
    "inspector",
    "load_k_blobs",
    "page_data",
    "plane_and_report",
    "plane_ranges",
    "safe_run",
    "scrubber",
    "show_animation",
    "show_check",
    "show_metrics",
]

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def data_problem(X, y, n_classes: int | None) -> str | None:
    """A message if the data cannot be trained on (binary: both classes; else two), or None."""
    n = 0 if X is None else len(X)
    labels = set(np.unique(np.asarray(y)).tolist()) if n else set()
    if n_classes is None:
        if n < 2 or len(labels) < 2:
            return "Add points of at least two classes to train a multiclass classifier."
        return None
    if n < 2:
        return f"Add at least 2 points (one of each class) — you have {n}."
    if len(labels) < 2:
        return (
            "All points are in one class: add at least one point of the other class "
            "(pick it in the data panel) to train a classifier."
        )
    return None


def safe_run(algorithm: str, X, y, **params):
    """Run (cached); any svmcore ValueError is shown on the page and None returned."""
    try:
        return runners.run(algorithm, X, y, **params)
    except NotSeparableError as exc:
        st.warning(f"**Not separable:** {exc}")
        offer = ALGORITHMS[algorithm].not_separable
        if offer is not None:
            offer()
        return None
    except runners.CapError as exc:
        st.warning(f"**Above the app's cap:** {exc}")
        return None
    except (ValueError, FloatingPointError, OverflowError) as exc:
        st.error(f"**Cannot train with these settings:** {exc}")
        return None


def scrubber(t, *, key: str, signature: str) -> int:
    """Select a snapshot: a slider over the iterations ``t`` plus step buttons.

    Resets to the last snapshot whenever ``signature`` (data + parameters) changes.
    Returns the snapshot index k.
    """
    t = np.asarray(t)
    S = t.shape[0]
    if S <= 1:
        return 0
    sig_key = f"{key}__sig"
    seen = st.session_state.get(sig_key)
    if seen != signature or st.session_state.get(key, S - 1) >= S:
        st.session_state[sig_key] = signature
        # The last snapshot is the widget's default, left out of the URL: a first run keeps
        # a link's snapshot and a page visit writes nothing (no browser history entry).
        if seen is not None and st.session_state.get(key, S - 1) != S - 1:
            st.session_state[key] = S - 1

    keyboard.register_scrubber(key, S)  # the arrow keys step it (svmlab.ui.keyboard)

    def _scrubbed():
        # The plane's fragment alone reruns, unless the page shows the snapshot outside
        # it: the data panel's copy-link box (the link holds the snapshot) or an exercise's
        # goal box (it checks the run as drawn). Then the whole page reruns.
        if not link_box_open() and exercise_panel.active_exercise() is None:
            mark_local()

    def _move(delta):
        keyboard.move_snapshot(key, delta, S)
        _scrubbed()

    c1, c2, c3 = st.columns([1, 1, 6], vertical_alignment="bottom")
    c1.button("◀ step", key=f"{key}_back", on_click=_move, args=(-1,), help="previous snapshot")
    c2.button("step ▶", key=f"{key}_fwd", on_click=_move, args=(1,), help="next snapshot")
    k = c3.select_slider(
        "Scrub through the run (snapshot at iteration t; fine grid when paused here)",
        options=list(range(S)),
        value=S - 1,
        key=key,
        format_func=lambda j: f"t = {int(t[j]):,}",
        bind=widgets.BIND,
        on_change=_scrubbed,
    )
    return int(k)


def show_animation(algorithm: str, X, y, params: dict, *, plane) -> None:
    """The Plotly-native animation (plays in the browser), opt-out for big data."""
    # Off until asked for: its 50 frames are about 1 MB, built and sent on every rerun
    # while it is on (cached by the run's inputs, so a scrub or a revisit reuses them).
    on = st.toggle(
        "Animate the run in the browser (50 frames, coarse grid)",
        value=False,
        key=f"{algorithm}_anim_on",
        help="Play, pause and scrub run in your browser; no round trip to Python.",
        on_change=mark_local,
    )
    if not on:
        return
    fig = runners.run_frames(algorithm, X, y, n_frames=50, plane=plane, **params)
    if fig is None:
        return
    fig = with_test_points(fig)  # hollow, static (the frames update the run's traces only)
    fig = keyboard.page_figure(fig, inplace=True)  # dark page; run_frames gave a copy
    st.plotly_chart(fig, key=f"{algorithm}_anim", config=PLOTLY_CONFIG)
    st.caption(
        "▶ slow / play / fast start the animation, ❙❙ pause stops it, the slider scrubs. "
        "The yellow ring marks the point sampled at that step (first steps only)."
    )


def inspector(algorithm: str, X, y, result, params: dict, *, plane) -> None:
    """The first steps of the text's loop beside its pseudo-code, with the model of the
    last snapshot at or before the step and the sampled point (or SMO pair) ringed."""
    spec = ALGORITHMS[algorithm]
    steps = runners.steps(algorithm, X, y, **params)
    n_steps = len(steps.get("t", ()))
    if n_steps == 0:
        st.info("This run recorded no individual steps.")
        return
    k = st.slider(
        f"Step (the first {n_steps} steps are recorded)",
        1,
        n_steps,
        1,
        key=f"{algorithm}_step",
        on_change=mark_local,
    )
    step = {name: values[k - 1] for name, values in steps.items()}
    left, right = st.columns([1.1, 1])
    with left:
        st.markdown(pseudocode.render_html(spec.code(params), step), unsafe_allow_html=True)
        rows = spec.rows(step, y, params)
        st.table({"": [r[0] for r in rows], "value": [r[1] for r in rows]})
    with right:
        t = int(step["t"])
        trace = result.trace
        snap = trace.index_at(t)
        hl = [int(step[name]) for name in ("i", "j") if name in step and int(step[name]) >= 0]
        fig = runners.plane_at(
            algorithm,
            X,
            y,
            result,
            snap,
            highlight=hl or None,
            title=f"model at t = {int(trace.t[snap])} (snapshot ≤ step t = {t})",
            plane=plane,
            **params,
        )
        fig.update_layout(height=420)
        fig = with_test_points(fig)  # as on the plane above
        fig = keyboard.page_figure(fig, inplace=True)  # dark page
        st.plotly_chart(fig, key=f"{algorithm}_step_fig", config=PLOTLY_CONFIG)


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
                "": [ln.label for ln in lines],
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


def run_and_plane(algorithm: str, X, y, params: dict, *, page: str, plane):
    """Check the data, run (cached), and draw the plane as the clickable canvas with its
    scrubber. Returns ``(result, k, highlight)``, or ``(None, None, None)`` when there is
    nothing to show (the reason is on the page and the points stay drawable)."""
    spec = ALGORITHMS[algorithm]
    problem = data_problem(X, y, spec.n_classes) or (
        spec.problem(X, params) if spec.problem else None
    )
    result = None
    if problem:
        st.warning(problem)
    else:
        result = safe_run(algorithm, X, y, **params)
    if result is None:
        points_canvas(X, y, key=f"{page}_canvas")
        return None, None, None
    view = runners.view(algorithm, result, X, y)
    slot = st.container()
    signature = runners.data_key(X, y) + repr(params)
    k = scrubber(view.t, key=f"{algorithm}_snap", signature=signature)
    hl = None if view.trace is None else runners.sampled_index(view.trace, k)
    st.session_state["svmlab_shown"] = dict(
        algorithm=algorithm, X=X, y=y, params=params, k=k, plane=plane
    )
    bars = None
    if spec.bars:  # α per point, drawn and hover-linked inside the canvas component
        bars = runners.bars_at(algorithm, X, y, k, highlight=hl, **params)
    with slot:
        fig = runners.plane_at(algorithm, X, y, result, k, highlight=hl, plane=plane, **params)
        if other := convergence.other_boundary(algorithm, X, y, result, k, params, plane=plane):
            fig.add_trace(other)
        canvas(fig, key=f"{page}_canvas", bars=bars)
        if spec.plane_caption:
            st.caption(spec.plane_caption)
    return result, k, hl


def run_report(algorithm: str, X, y, result, k: int, params: dict, *, plane) -> None:
    """What every page shows below its plane: metrics, curves, playback, the step
    inspector beside the pseudo-code, the check against scikit-learn, the spec's extras."""
    spec = ALGORITHMS[algorithm]
    show_metrics(runners.metrics(algorithm, result, X, y, k, plane=plane, **params))
    view = runners.view(algorithm, result, X, y)
    if view.trace is not None:
        curves = runners.curves_at(algorithm, X, y, **params)
        # Redrawn on every click: a chart kept mounted, updated after the plane's paint.
        plotbox.plot(curves, key=f"{algorithm}_curves", config=PLOTLY_CONFIG)
        st.subheader("Playback")
        show_animation(algorithm, X, y, params, plane=plane)
        if view.trace.n_steps:
            # Tracked (a callback): a closed inspector computes and sends nothing.
            box = st.expander(spec.step_title, key=f"{algorithm}_inspect", on_change=mark_local)
            if box.open:
                with box:
                    inspector(algorithm, X, y, result, params, plane=plane)
    if spec.check is not None and spec.check_applies(params):
        st.subheader("Check against scikit-learn")
        st.caption(spec.check_caption)
        show_check(algorithm, lambda: spec.check(X, y, result, params))
    if spec.extras is not None:
        spec.extras(result, params)
    seed_texts.panel(algorithm, X, y, result, k, params)
    generalization_report(algorithm, X, y, result, k, params, plane=plane)
    convergence.panel(algorithm, X, y, result, k, params, plane=plane)
    point_reasoning.panel(algorithm, X, y, result, k, params, plane=plane)
    export_panel.export_panel(algorithm, X, y, result, k, params, plane=plane)


def algorithm_page(page: str, X, y, *, plane, prose: str = "") -> None:
    """One page: the objective, the prose, the parameters, the run and its report.

    The page's algorithms are the registry's specs whose ``page`` is ``page``; with
    more than one, a radio chooses (key ``f"{page}_algo"``). The run, its plane and its
    report are one fragment (:func:`plane_and_report`).
    """
    if presenter.is_on():  # the plane full screen with a compact toolbar
        return presenter.presenter_page(page, X, y, plane=plane, draw=run_and_plane)
    specs = on_page(page)
    objective_slot = st.container()
    if prose:
        st.markdown(prose)
    left, right = st.columns([1, 2.4], gap="medium")
    with left:
        st.subheader("Parameters")
        spec = specs[0]
        if len(specs) > 1:
            titles = {s.key: s.title for s in specs}
            spec = ALGORITHMS[widgets.radio("Algorithm", titles, key=f"{page}_algo")]
        params = spec.controls(spec.key, X, y)
        caps = f"n ≤ {spec.caps.n:,} points" + (f", T ≤ {spec.caps.T:,}" if spec.caps.T else "")
        st.caption(f"Caps on this page: {caps}.")
    with objective_slot:
        st.latex(spec.objective(params))
    st.session_state[PAGE_RUN_KEY] = True
    plane_and_report(
        spec.key, X, y, params, page=page, plane=plane, column=right, version=points_version()
    )
    exercise_panel.goal_box(spec.key, X, y, params, container=objective_slot)


@st.fragment
def plane_and_report(algorithm: str, X, y, params: dict, *, page: str, plane, column, version):
    """The run on its canvas in ``column`` (:func:`run_and_plane`) and, below the columns,
    its report (:func:`run_report`): one fragment.

    A step of the inspector, the animation toggle or the scikit-learn check
    (:func:`mark_local`) and the buttons of the panels rerun this fragment only, not the
    sidebar and the parameters, which they cannot change. A canvas edit (the points the
    sidebar counts) or any other change of the page's state (:func:`page_changed`, e.g. a
    button that sets a parameter) reruns the whole page, as without a fragment.
    """
    whole_page = bool(st.session_state.pop(PAGE_RUN_KEY, False))
    local = bool(st.session_state.pop(LOCAL_KEY, False))
    if not whole_page and (
        points_version() != version or (not local and page_changed(algorithm, page))
    ):
        st.rerun()
    with column:
        result, k, _ = run_and_plane(algorithm, X, y, params, page=page, plane=plane)
    if points_version() != version:  # an event the callback had not seen, applied just now
        st.rerun()
    if result is not None:
        run_report(algorithm, X, y, result, k, params, plane=plane)
    st.session_state[PAGE_STATE_KEY] = page_state(algorithm, page)


def binary_page(page: str, *, title: str, prose: str) -> None:
    """A binary page: its title, the shared points, then :func:`algorithm_page`."""
    st.title(title)
    X, y = page_data(n_classes=2)
    algorithm_page(page, X, y, plane=plane_ranges(), prose=prose)


def page_data(n_classes: int = 2):
    """Render the data widgets (sidebar) and return the shared points of this page."""
    data_controls(n_classes=n_classes)
    X, y = get_data(n_classes=n_classes)
    return train_part(np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y), n_classes)


def canvas(fig, *, key: str, bars=None) -> None:
    """The clickable canvas (the data panel applies a click before the page reruns), with
    the α bars (a figure, bar j = point j) below the plane in the same component."""
    data_canvas(with_test_points(fig), key=key, bars=bars)


def load_k_blobs(k: int) -> None:
    """Replace the points by k Gaussian blobs (undoable in the data panel)."""
    load_preset("k_blobs", k=int(k))


def points_canvas(X, y, *, key: str) -> None:
    """The canvas with the points only (no model yet), so that points can still be added."""
    xr, yr = plane_ranges()
    canvas(plane_figure(X, y, xrange=xr, yrange=yr), key=key)
