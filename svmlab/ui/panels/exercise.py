"""The exercises on the Streamlit side: opening one, and its goal box on the algorithm page.

Session state (:mod:`svmlab.ui.session`): :data:`~svmlab.ui.session.EXERCISE` is the active
exercise id or None, :data:`~svmlab.ui.session.EXERCISES_DONE` the set of ids solved;
:data:`~svmlab.ui.session.EXERCISE_START` holds the quantities recorded when the active
exercise opened (e.g. its starting margin). The goal box checks the run that
:func:`svmlab.ui.plane.scrub` last chose (:data:`svmlab.ui.session.SHOWN`) when it is
the run of the settings on screen.
"""

from __future__ import annotations

import streamlit as st

from svmlab.algorithms import ALGORITHMS
from svmlab.state.run_context import RunContext
from svmlab.study.exercises import EXERCISES, Attempt, Verdict
from svmlab.ui import session
from svmlab.ui.access import focus_next
from svmlab.ui.data_panel import set_data
from svmlab.ui.router import PAGES

__all__ = [
    "ACTIVE",
    "DONE",
    "START",
    "active_exercise",
    "done_ids",
    "follow",
    "goal_box",
    "leave_exercise",
    "open_exercise",
    "page_title",
    "start_exercise",
    "verdict",
]

ACTIVE, DONE, START = session.EXERCISE, session.EXERCISES_DONE, session.EXERCISE_START
GO = session.EXERCISE_GO  # set by "Open": switch to the exercise's page on this run
#: The goal box's key: "Open" puts the focus there once its page has run.
GOAL_KEY = "exercise_goal"


def done_ids() -> set:
    """The ids solved in this session (kept as a set in the session state)."""
    done = st.session_state.get(DONE)
    if not isinstance(done, set):
        done = {d for d in (done or ()) if d in EXERCISES}
        st.session_state[DONE] = done
    return done


def active_exercise():
    """The active :class:`~svmlab.study.exercises.Exercise`, or None."""
    return EXERCISES.get(st.session_state.get(ACTIVE) or "")


def page_title(ex) -> str:
    """The sidebar title of the exercise's page."""
    return next((p.title for p in PAGES if p.url_path == ex.page), ex.page)


def open_exercise(ex_id: str) -> None:
    """Make ``ex_id`` active: load its points (undoable) and settings, record its start.

    A widget callback: it runs before the page script, so the widgets get these values.
    """
    ex = EXERCISES[ex_id]
    st.session_state[ACTIVE] = ex_id
    set_data(ex.X, ex.y, message=f"Exercise “{ex.title}”: its starting points are loaded.")
    for key, value in ex.widgets.items():
        st.session_state[key] = value
    st.session_state[START] = {"id": ex_id, **ex.start()}


def start_exercise(ex_id: str) -> None:
    """ "Open" on the exercises page: :func:`open_exercise`, then go to its page."""
    open_exercise(ex_id)
    st.session_state[GO] = ex_id
    focus_next(GOAL_KEY)  # on its page, the focus goes to the goal box


def follow() -> None:
    """Switch to the page of an exercise just opened (call in the page body)."""
    ex = EXERCISES.get(st.session_state.pop(GO, None) or "")
    if ex is not None:
        st.switch_page(ex.script)


def leave_exercise() -> None:
    """No active exercise (the solved ones stay solved)."""
    st.session_state[ACTIVE] = None


@st.cache_data(max_entries=64, show_spinner="Checking the goal…")
def _verdict(ex_id: str, run_key: str, start: dict, _shown: RunContext) -> Verdict:
    attempt = Attempt(_shown.algorithm, _shown.X, _shown.y, dict(_shown.params), _shown.result)
    return EXERCISES[ex_id].evaluate(attempt, start)


def verdict(ex_id: str, shown: RunContext, start: dict) -> Verdict:
    """The exercise's verdict on the run ``shown`` (with its result), cached by exercise,
    run and start."""
    return _verdict(ex_id, shown.run_key, start, shown)


def drawn_run(ctx: RunContext) -> RunContext | None:
    """The run the page last drew (:data:`svmlab.ui.session.SHOWN`, with its result) if it
    is the run of ``ctx`` (the settings on screen), else None."""
    shown = st.session_state.get(session.SHOWN)
    if isinstance(shown, RunContext) and shown.same_run(ctx) and shown.result is not None:
        return shown
    return None


def goal_box(ctx: RunContext, *, container=None) -> None:
    """The active exercise's statement, hint and live check, on an algorithm page whose
    run (on screen) is ``ctx``.

    Nothing when no exercise is active. ``container``: where to draw (default: here).
    """
    ex = active_exercise()
    if ex is None:
        return
    with (
        container if container is not None else st.container(),
        st.container(border=True, key=GOAL_KEY),
    ):
        solved = " — done ✓" if ex.id in done_ids() else ""
        st.markdown(f"**Exercise: {ex.title}**{solved}")
        st.markdown(ex.statement)
        with st.expander("Hint"):
            st.markdown(ex.hint)
        shown = drawn_run(ctx)
        if ALGORITHMS[ex.algorithm].page != ALGORITHMS[ctx.algorithm].page:
            st.info(f"This exercise runs on the page “{page_title(ex)}”.")
            st.page_link(ex.script, label=f"Go to {page_title(ex)}")
        elif shown is None:
            st.info("No run of these settings is drawn yet: nothing to check.")
        else:
            start = st.session_state.get(START) or {}
            if start.get("id") != ex.id:
                start = {"id": ex.id, **ex.start()}
            v = verdict(ex.id, shown, start)
            if v.done:
                done_ids().add(ex.id)
                st.success(f"Done ✓ {v.feedback}")
            else:
                st.info(f"Not yet: {v.feedback}")
        left, right = st.columns(2)
        left.button(
            "Reload its points and settings",
            key="exercise_reload",
            on_click=open_exercise,
            args=(ex.id,),
        )
        right.button("Leave the exercise", key="exercise_leave", on_click=leave_exercise)
