"""The share link wired into a page (svmlab.ui.linkstate), through Streamlit's AppTest.

A small page runs inside ``linkstate.page_link`` as the router runs every page: one
bound λ select-slider, one bound seed number input, and buttons that change the session's
points and flags as the data panel and the other pages do.
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmlab.state.labstate import LabState
from svmlab.state.lesson import lesson_json
from svmlab.state.points import PointSet
from svmlab.state.urlstate import URL_BUDGET, decode_points, encode_state
from svmlab.ui.event_channel import deliver
from svmlab.ui.safe_text import shown_text

# Tolerance table: none — what the link holds is compared exactly (points decoded from a token
# equal ``urlstate.decode_points`` of that token; parameters and flags). A session's own points
# are written with 16-bit quantization: read back they lie within one step, (x1 − x0)/65535,
# of the drawn ones. A lesson file keeps points exactly.

PAGE = "kernel_pegasos"


def script():
    import numpy as np
    import streamlit as st

    from svmlab.algorithms import widgets
    from svmlab.state.points import PointSet
    from svmlab.ui import linkstate
    from svmlab.ui.session import get_session

    def add_point():
        s = get_session()
        X = np.vstack([s.points.X, [[0.123456789, -0.5]]])
        s.commit(s.history.push(PointSet(X, np.append(s.points.c, 1))), how="click")

    def many_points():
        rng = np.random.default_rng(1)
        get_session().replace(PointSet(rng.uniform(-3, 3, (1600, 2)), rng.integers(0, 2, 1600)))

    def flags():
        st.session_state["svmlab_present"] = True
        st.session_state["svmlab_exercise"] = "ex2"
        st.session_state["svmlab_exercises_done"] = {"ex1", "ex0"}

    def load_lesson():
        linkstate.link_session().messages += linkstate.apply_lesson(
            st.session_state["lesson_text"], "kernel_pegasos"
        )

    with linkstate.page_link("kernel_pegasos"):
        widgets.log_slider("λ", -4, 1, 0.01, key="kernel_pegasos_lam")
        widgets.seed_input("kernel_pegasos")
        st.button("add", on_click=add_point)
        st.button("many", on_click=many_points)
        st.button("flags", on_click=flags)
        st.button("lesson", on_click=load_lesson)
        linkstate.budget_note()
        st.session_state["lesson"] = linkstate.current_state("kernel_pegasos")


def _app(**query) -> AppTest:
    at = AppTest.from_function(script, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def _session(at):
    return at.session_state["svmlab_session"]


def _link_message(at) -> str:
    """The link message as the reader sees it (its quoted input is escaped Markdown)."""
    texts = [shown_text(w.value) for w in at.warning if "could not be read" in w.value]
    assert len(texts) <= 1
    return texts[0] if texts else ""


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _link(points: PointSet, plane=(-3.0, 3.0, -3.0, 3.0)) -> dict:
    q = encode_state(LabState(page=PAGE, points=points, plane=plane))
    return {k: v for k, v in q.items() if k != "page"}  # the URL path names the page


@pytest.fixture
def three():
    return PointSet(np.array([[-1.0, 1.0], [1.2, -1.3], [0.5, 0.5]]), np.array([0, 0, 1]))


def test_the_default_data_leave_the_url_empty():
    at = _app()
    assert not at.exception
    assert dict(at.query_params) == {} and _session(at).points.n == 100
    assert _link_message(at) == ""


def test_a_links_points_and_plane_are_read_and_the_url_is_kept(three):
    q = _link(three, plane=(-4.0, 4.0, -2.0, 2.5))
    at = _app(**q, kernel_pegasos_lam="0.1")
    s = _session(at)
    want = decode_points(q["pts"], (-4.0, 4.0, -2.0, 2.5))
    assert s.points == want and s.plane == ((-4.0, 4.0), (-2.0, 2.5))
    assert at.select_slider[0].value == 0.1
    assert {k: at.query_params[k] for k in q} == q  # written back unchanged
    assert _link_message(at) == ""


def test_a_changed_point_is_written_and_reads_back_within_a_step(three):
    at = _app(**_link(three))
    _button(at, "add").click().run()
    s = _session(at)
    assert s.points.n == 4
    plane = tuple(float(v) for v in at.query_params["plane"].split(","))
    back = decode_points(at.query_params["pts"], plane)
    assert np.abs(back.X - s.points.X).max() <= (plane[1] - plane[0]) / 65535
    assert np.array_equal(back.c, s.points.c)


def test_flags_are_read_from_and_written_to_the_url():
    at = _app(present="1", ex="ex3", done="a,b")
    assert _link_message(at) == ""  # (ex was also read as an unknown parameter)
    assert at.session_state["svmlab_present"] is True
    assert at.session_state["svmlab_exercise"] == "ex3"
    assert at.session_state["svmlab_exercises_done"] == {"a", "b"}
    _button(at, "flags").click().run()
    assert (at.query_params["present"], at.query_params["ex"]) == ("1", "ex2")
    assert at.query_params["done"] == "ex0,ex1"


@pytest.mark.parametrize(
    ("query", "expect"),
    [
        ({"kernel_pegasos_lam": "abc"}, "kernel_pegasos_lam='abc' is not a valid value"),
        ({"kernel_pegasos_seed": "99999999"}, "kernel_pegasos_seed='99999999' is not a valid"),
        ({"nonsense": "1"}, "'nonsense': not a setting of this page"),
        ({"ex": "bad id!"}, "ex: 'bad id!' is not an exercise id"),
        ({"ex": "a,b"}, "ex: 'a,b' is not an exercise id"),
        ({"present": "maybe"}, "present: 'maybe' is not true/false"),
        ({"v": "1", "plane": "1,0,0,1", "pts": "AAAA"}, "plane: the x range 1..0 is empty"),
    ],
)
def test_a_bad_value_gets_one_message_naming_it_and_the_default(query, expect):
    at = _app(**query)
    assert not at.exception
    assert expect in _link_message(at)
    assert at.select_slider[0].value == 0.01 and at.number_input[0].value == 0
    for key in query:
        assert key not in at.query_params or key in ("v",)  # nothing refused stays


def test_a_default_value_written_out_is_not_an_error():
    at = _app(kernel_pegasos_lam="0.01", kernel_pegasos_seed="0")
    assert _link_message(at) == ""


def test_an_altered_token_shows_the_default_points(three):
    q = _link(three)
    q["pts"] = q["pts"][:-4] + ("AAAA" if q["pts"][-4:] != "AAAA" else "BBBB")
    at = _app(**q)
    assert "the link's points could not be read" in _link_message(at)
    assert _session(at).points.n == 100
    assert "pts" not in at.query_params


def test_another_version_is_not_trusted_at_all(three):
    at = _app(**{**_link(three), "v": "2", "kernel_pegasos_lam": "0.1"})
    assert "version 2 is not supported" in _link_message(at)
    assert _session(at).points.n == 100 and at.select_slider[0].value == 0.01
    assert dict(at.query_params) == {}


def test_above_the_budget_the_points_leave_the_url_and_the_page_says_so():
    at = _app()
    _button(at, "many").click().run()
    assert _session(at).points.n == 1600
    assert "pts" not in at.query_params and "plane" not in at.query_params
    assert any("above the budget of 8,192" in w.value for w in at.warning)


def test_a_lesson_file_restores_points_exactly_and_the_settings(three):
    at = _app(**_link(three), kernel_pegasos_lam="0.1", kernel_pegasos_seed="7")
    _button(at, "many").click().run()  # points beyond the URL budget
    state = at.session_state["lesson"]
    assert state.params == {"kernel_pegasos_lam": "0.1", "kernel_pegasos_seed": "7"}
    text = lesson_json(state)
    fresh = _app()
    fresh.session_state["lesson_text"] = text
    _button(fresh, "lesson").click().run()
    assert _session(fresh).points == state.points  # full precision
    assert fresh.select_slider[0].value == 0.1 and fresh.number_input[0].value == 7
    assert _link_message(fresh) == ""


def test_a_bad_lesson_file_is_refused_with_a_message():
    at = _app()
    at.session_state["lesson_text"] = '{"format": "svmlab-lesson", "v": 1, "points": [[1, 2]]}'
    _button(at, "lesson").click().run()
    assert "row 1 is not [x1, x2, class]" in _link_message(at)
    assert _session(at).points.n == 100


@pytest.mark.parametrize("n", [100, 500])
def test_random_points_fit_the_url_budget(n):
    rng = np.random.default_rng(n)
    pts = PointSet(rng.uniform(-3, 3, (n, 2)), rng.integers(0, 2, n))
    q = _link(pts, plane=(-3.5, 3.5, -3.5, 3.5))
    length = sum(len(k) + len(v) + 2 for k, v in q.items())
    # measured ≈ 0.7 KB and 3.0 KB: 500 points fill about 37 % of the 8 KB budget
    assert length <= {100: 1000, 500: 3500}[n] <= URL_BUDGET


def test_a_new_session_skips_the_resent_events_it_shows_and_applies_the_new_ones():
    from svmlab.state.canvas_session import CanvasSession
    from svmlab.state.pointset import PointSet

    # The old server applied seq 4 (add A) and 5 (add B, erase A would be seq 6); the URL
    # brought back its points, quantized. The browser resends 4 and 5 with a new click 7.
    step = 7.0 / 65535
    s = CanvasSession()
    s.restore(PointSet([[1.0 + step / 2, 1.0], [-1.0, 0.5 - step / 2]], [1, 0]))
    resent = [
        {"type": "add", "x": 1.0, "y": 1.0, "cls": 1, "seq": 4},
        {"type": "add", "x": -1.0, "y": 0.5, "cls": -1, "seq": 5},
    ]
    new = {"type": "add", "x": 0.0, "y": 0.0, "cls": 1, "seq": 7}
    assert deliver(s, [*resent, new], s.apply_resent)
    assert s.ack == 7 and s.points.n == 3  # the new click applied, the resent ones not
    assert not deliver(s, [*resent, new]) and s.points.n == 3  # each seq once


def test_a_resent_add_then_erase_of_one_point_ends_without_it():
    from svmlab.state.canvas_session import CanvasSession
    from svmlab.state.pointset import PointSet

    s = CanvasSession()
    s.restore(PointSet([[2.0, 2.0]], [0]))
    events = [
        {"type": "add", "x": 0.0, "y": 0.0, "cls": 1, "seq": 1},
        {"type": "erase", "x": 0.0, "y": 0.0, "index": 1, "seq": 2},
    ]
    deliver(s, events, s.apply_resent)
    assert s.points.n == 1 and s.ack == 2
    assert np.allclose(s.points.X, [[2.0, 2.0]])
