"""Exercises: goals checked by the solver; "Open" loads one on its page."""

import streamlit as st

from svmlab.study.exercises import EXERCISES
from svmlab.ui.panels import exercise as panel
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

panel.follow()  # an exercise opened on the previous click: go to its page
st.title("Exercises")
st.markdown(
    "Each exercise loads its own points and settings on its page, where a goal box checks "
    "your run against the solver's own numbers (support vectors, the margin 1/‖w‖, P*, a "
    "fresh test set) every time the picture changes. Progress is kept for this session."
)
done = panel.done_ids()
st.progress(len(done) / len(EXERCISES), text=f"{len(done)} of {len(EXERCISES)} done")
active = panel.active_exercise()
for number, ex in enumerate(EXERCISES.values(), start=1):
    with st.container(border=True):
        mark = " — done ✓" if ex.id in done else ""
        now = " (open now)" if active is ex else ""
        st.markdown(f"**{number}. {ex.title}**{mark}{now}")
        st.caption(f"On the page “{panel.page_title(ex)}”.")
        st.markdown(ex.statement)
        st.button(
            "Open" if active is not ex else "Open again (reload its points)",
            key=f"exercise_open_{ex.id}",
            on_click=panel.start_exercise,
            args=(ex.id,),
        )
if active is not None:
    st.button("Leave the exercise", key="exercises_leave", on_click=panel.leave_exercise)
