"""The data panel with streamlit's AppTest: session data, canvas events, undo / clear,
presets, and the sharing of one point list between binary and multiclass pages."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui.safe_text import shown_text

# Tolerance table: none — events carry coordinates as sent; they are stored unchanged (compared
# exactly).

TIMEOUT_S = 30


def _script():
    """A page: the panel, an optional injected canvas event, and the data as JSON."""
    import json

    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    from svmlab.ui import data_panel

    k = int(st.session_state.get("k", 2))
    data_panel.data_controls(n_classes=k)
    event = st.session_state.pop("inject", None)
    changed = data_panel.handle_event(event) if event is not None else False
    X, y = data_panel.get_data(k)
    data_panel.data_canvas(go.Figure(go.Scatter(x=X[:, 0], y=X[:, 1])), key="canvas")
    st.code(
        json.dumps(
            {
                "n": int(X.shape[0]),
                "X": np.round(X, 12).tolist(),
                "y": np.asarray(y).tolist(),
                "changed": changed,
                "mode": data_panel.current_mode(),
                "cls": data_panel.current_class(),
            }
        )
    )


def _run(at, **state):
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception, at.exception
    return json.loads(at.main.code[-1].value)


@pytest.fixture
def at():
    return AppTest.from_function(_script, default_timeout=TIMEOUT_S)


def test_default_data_is_the_moons_preset(at):
    out = _run(at)
    assert out["n"] == 100
    assert sorted(set(out["y"])) == [-1.0, 1.0]
    assert out["mode"] == "add" and out["cls"] == 1


def test_add_event_is_applied_once_per_seq(at):
    _run(at)
    ev = {"type": "add", "x": 0.125, "y": -2.5, "cls": -1, "seq": 10}
    out = _run(at, inject=ev)
    assert out["n"] == 101 and out["changed"]
    assert out["X"][-1] == [0.125, -2.5] and out["y"][-1] == -1.0
    out = _run(at, inject=ev)  # the same event again (a re-sent batch): ignored
    assert out["n"] == 101 and not out["changed"]
    batch = [ev, {**ev, "seq": 12, "x": 1.0}]  # the pending list: 10 again and 12
    out = _run(at, inject=batch)
    assert out["n"] == 102 and out["X"][-1] == [1.0, -2.5]


def test_erase_and_move_events_and_undo_clear_buttons(at):
    out = _run(at)
    x0, y0 = out["X"][0]
    out = _run(at, inject={"type": "erase", "index": 0, "x": x0, "y": y0, "rx": 0.1, "ry": 0.1})
    assert out["n"] == 99 and [x0, y0] not in out["X"]
    x1, y1 = out["X"][0]
    ev = {"type": "move", "index": 0, "x": 5, "y": 6, "from_x": x1, "from_y": y1, "rx": 0.1}
    out = _run(at, inject={**ev, "ry": 0.1})
    assert out["X"][0] == [5, 6] and out["n"] == 99
    at.sidebar.button(key="data_undo").click()
    out = _run(at)
    assert out["X"][0] == [x1, y1]
    at.sidebar.button(key="data_clear").click()
    out = _run(at)
    assert out["n"] == 0
    at.sidebar.button(key="data_undo").click()
    out = _run(at)
    assert out["n"] == 99


def test_mode_and_class_widgets_drive_the_canvas(at):
    _run(at)
    at.sidebar.radio(key="data_mode").set_value("erase")
    at.sidebar.radio(key="data_class").set_value(0)
    out = _run(at)
    assert out["mode"] == "erase" and out["cls"] == -1


def test_preset_menu_loads_n_points(at):
    at.session_state["data_preset_box"] = True  # the preset menu draws its widgets when open
    _run(at)
    at.sidebar.selectbox(key="data_preset").set_value("xor")
    _run(at)
    at.sidebar.slider(key="data_n").set_value(40)
    at.sidebar.button(key="data_load").click()
    out = _run(at)
    assert out["n"] == 40
    assert any("Loaded XOR" in shown_text(s.value) for s in at.sidebar.success)


def test_multiclass_points_are_hidden_on_binary_pages_with_a_warning(at):
    at.session_state["data_preset_box"] = True
    _run(at, k=3)
    at.sidebar.selectbox(key="data_preset").set_value("k_blobs")
    _run(at, k=3)
    at.sidebar.button(key="data_load").click()
    out = _run(at, k=3)
    assert out["n"] == 90 and sorted(set(out["y"])) == [0, 1, 2]
    out = _run(at, k=2)
    assert out["n"] == 60 and sorted(set(out["y"])) == [-1.0, 1.0]
    assert any("30 point(s) of classes ≥ 2" in w.value for w in at.sidebar.warning)


def test_an_add_beyond_the_cap_is_refused_with_a_message(at):
    from svmlab.state.points import MAX_POINTS

    _run(at)
    many = [
        {"type": "add", "x": 0.0, "y": 0.0, "cls": 1, "seq": 100 + i}
        for i in range(MAX_POINTS - 100 + 1)
    ]
    out = _run(at, inject=many)
    assert out["n"] == MAX_POINTS
    out = _run(at)  # the message is shown on the next run of the panel
    assert any(str(MAX_POINTS) in w.value for w in at.sidebar.warning)


def _table_script():
    import json

    import streamlit as st

    from svmlab.ui import data_panel, data_table
    from svmlab.ui.session import get_session

    data_panel.data_controls(n_classes=2)
    fake = st.session_state.pop("fake_table", None)
    if fake is not None:
        st.session_state["_fake"] = fake
        data_table.apply_table("_fake", get_session().version, 2)
    X, y = data_panel.get_data(2)
    st.code(json.dumps({"n": int(X.shape[0]), "X": X.tolist(), "y": y.tolist()}))


def test_table_edits_add_delete_and_bad_rows():
    at = AppTest.from_function(_table_script, default_timeout=TIMEOUT_S)
    out = _run(at)
    assert out["n"] == 100
    edits = {
        "edited_rows": {0: {"x1": 9.0, "label": 1}},
        "deleted_rows": [1, 2],
        "added_rows": [{"x1": -7.0, "x2": 7.0, "label": -1}],
    }
    out = _run(at, fake_table=edits)
    assert out["n"] == 99
    assert out["X"][0][0] == 9.0 and out["y"][0] == 1.0
    assert out["X"][-1] == [-7.0, 7.0] and out["y"][-1] == -1.0
    bad = {"added_rows": [{"x1": 1.0, "x2": None, "label": 1}]}
    out = _run(at, fake_table=bad)
    assert out["n"] == 99  # refused, nothing lost
    # (here the edit is applied after the panel ran; the app applies it in a callback)
    out = _run(at)
    assert any("row 100: x2 is empty" in shown_text(e.value) for e in at.sidebar.error)
    out = _run(at)
    assert not at.sidebar.error  # shown once


def test_plotly_js_is_copied_from_the_plotly_package(tmp_path):
    from svmlab.ui.static_assets import ensure_plotly_js, plotly_js_source, static_url

    target = ensure_plotly_js(tmp_path / "static")
    assert target.read_bytes()[:200] == plotly_js_source().read_bytes()[:200]
    assert target.stat().st_size == plotly_js_source().stat().st_size
    assert ensure_plotly_js(tmp_path / "static") == target  # idempotent
    assert not list((tmp_path / "static").glob(".plotly-*"))  # no temporary left over
    assert static_url() == "/app/static/plotly.min.js"
