"""The canvas's own fragment (:mod:`svmlab.ui.plane_cell`): what a click's run of the
fragment alone can know without drawing the page — the points the run trains on when the
train/test split holds none out — and the page's run that draws the canvas inside it.

The fragment's own run (a click in the browser) is covered in
``tests/e2e/test_plane_first_browser.py``: AppTest runs whole scripts only.
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

# Tolerance table: none — points and labels are compared exactly (the same arrays).

TIMEOUT_S = 120


def _script():
    """click_points for the classes and split given in the session; the session's points."""
    import streamlit as st

    from svmlab.ui import plane_cell
    from svmlab.ui.data_panel import get_data

    k = st.session_state.get("_k")
    st.session_state["_got"] = plane_cell.click_points(k)
    st.session_state["_all"] = get_data(n_classes=k or 2)


def _run(**state) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=TIMEOUT_S)
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception
    return at


@pytest.mark.parametrize("k", [2, 3])
def test_without_a_split_every_point_trains(k):
    at = _run(_k=k, split="none")
    X, y = at.session_state["_got"]
    X_all, y_all = at.session_state["_all"]
    assert X.dtype == float and X.shape == (len(y_all), 2)
    np.testing.assert_array_equal(X, X_all)
    np.testing.assert_array_equal(y, y_all)
    assert set(np.unique(y).tolist()) <= ({-1.0, 1.0} if k == 2 else {0, 1, 2})


@pytest.mark.parametrize("split", ["holdout", "fresh"])
def test_a_split_s_widgets_decide_the_training_points(split):
    assert _run(_k=2, split=split).session_state["_got"] is None


def test_unknown_split_or_classes_leave_the_click_to_the_page():
    assert _run(_k=2).session_state["_got"] is None, "no split widget drawn yet"
    assert _run(_k=None, split="none").session_state["_got"] is None


def _page_script():
    """plane_cell inside a page's run draws the canvas (here: a marker) in a container of
    its own, and the page's classes are forgotten after it."""
    import streamlit as st

    from svmlab.ui import plane_cell

    with plane_cell.page_running():
        plane_cell.note_classes(2)
        plane_cell.plane_cell("kernel_pegasos", lambda: st.text("canvas"), ["kernel_pegasos"], 2)
    st.session_state["_classes_after"] = plane_cell._PAGE_CLASSES.get()


def test_a_page_s_run_draws_the_canvas_inside_the_fragment():
    at = AppTest.from_function(_page_script, default_timeout=TIMEOUT_S).run()
    assert not at.exception
    assert [t.value for t in at.text] == ["canvas"]
    assert at.session_state["_classes_after"] is None
