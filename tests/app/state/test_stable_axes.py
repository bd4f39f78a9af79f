"""Stable axes: a click inside the plane never rescales it (the canvas must not jump under
the pointer); points outside grow it; a preset load, a clear or an import starts afresh.

Pure checks of :func:`svmlab.plot.figures.stable_range`, then the data panel's session range
(:func:`svmlab.ui.data_panel.plane_ranges`) through Streamlit's AppTest, with the canvas
events the browser sends, and the real Linear Pegasos page.
"""

import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from svmlab.plot import figures as fg

# Tolerance table ------------------------------------------------------------------------
TOL_RANGE = 0.0  # an unchanged range is the very same numbers

TIMEOUT_S = 120

ROOT = Path(__file__).resolve().parents[3]


def test_stable_range_keeps_the_axes_for_points_inside():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (30, 2))
    r0 = fg.stable_range(X, None)
    assert r0 == fg.plane_range(X)
    (x0, x1), (y0, y1) = r0
    # a click near each corner, just inside: the range is returned unchanged
    corners = np.array([[x0 + 1e-3, y0 + 1e-3], [x1 - 1e-3, y1 - 1e-3], [x0 + 1e-3, y1]])
    X2 = np.vstack([X, corners])
    assert fg.stable_range(X2, r0) == r0
    assert fg.plane_range(X2) != r0  # (what the old code did: rescale)
    # removing points never shrinks it
    assert fg.stable_range(X[:3], r0) == r0
    assert fg.stable_range(np.empty((0, 2)), r0) == r0


def test_stable_range_grows_to_contain_points_outside():
    r0 = ((-1.0, 1.0), (-2.0, 2.0))
    X = np.array([[0.0, 0.0], [3.0, 0.5]])
    (x0, x1), (y0, y1) = fg.stable_range(X, r0)
    assert x0 == -1.0 and x1 > 3.0  # grown past the point (with the padding)
    assert (y0, y1) == (-2.0, 2.0)  # the y range already held every point


def test_stable_range_without_a_current_range_or_a_broken_one_fits_the_data():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    assert fg.stable_range(X, None) == fg.plane_range(X)
    assert fg.stable_range(X, ((1.0, 1.0), (0.0, 1.0))) == fg.plane_range(X)
    assert fg.stable_range(X, ((np.nan, 1.0), (0.0, 1.0))) == fg.plane_range(X)


def _script():
    import json

    import streamlit as st

    from svmlab.plot.figures import plane_figure
    from svmlab.ui import data_panel, data_table
    from svmlab.ui.session import get_session

    data_panel.data_controls(n_classes=2)
    event = st.session_state.pop("inject", None)
    if event is not None:
        data_panel.handle_event(event)
    table = st.session_state.pop("fake_table", None)
    if table is not None:
        st.session_state["_fake"] = table
        data_table.apply_table("_fake", get_session().version, 2)
    X, y = data_panel.get_data(2)
    xr, yr = data_panel.plane_ranges()
    fig = plane_figure(X, y, xrange=xr, yrange=yr)
    st.code(
        json.dumps(
            {
                "n": int(X.shape[0]),
                "x": list(fig.layout.xaxis.range),
                "y": list(fig.layout.yaxis.range),
            }
        )
    )


def _run(at, **state):
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception, at.exception
    return json.loads(at.main.code[-1].value)


def test_clicks_inside_the_plane_do_not_change_the_axes():
    at = AppTest.from_function(_script, default_timeout=TIMEOUT_S)
    at.session_state["data_preset_box"] = True  # "Load preset" below: the menu is open
    out = _run(at)
    assert out["n"] == 100
    x0, x1 = out["x"]
    y0, y1 = out["y"]
    # six clicks, the last ones right at the edges: with axes fitted to the data each of
    # these would have moved them
    spots = [
        (x0 + 0.02, y0 + 0.02),
        (x1 - 0.02, y1 - 0.02),
        (x0 + 0.01, (y0 + y1) / 2),
        ((x0 + x1) / 2, y1 - 0.01),
        (x1 - 0.01, y0 + 0.01),
        (0.0, 0.0),
    ]
    for seq, (x, y) in enumerate(spots, start=1):
        ev = {"type": "add", "x": x, "y": y, "cls": 1 if seq % 2 else -1, "seq": seq}
        out = _run(at, inject=ev)
        assert out["n"] == 100 + seq
        assert abs(out["x"][0] - x0) <= TOL_RANGE and abs(out["x"][1] - x1) <= TOL_RANGE
        assert abs(out["y"][0] - y0) <= TOL_RANGE and abs(out["y"][1] - y1) <= TOL_RANGE
    # moving a point inside the plane and erasing one: still the same axes
    out = _run(at, inject={"type": "erase", "index": 0, "x": 0, "y": 0, "rx": 0.1, "ry": 0.1})
    assert (out["x"], out["y"]) == ([x0, x1], [y0, y1])

    # a table edit puts a point far outside: the axes grow to show it
    out = _run(at, fake_table={"added_rows": [{"x1": 40.0, "x2": -30.0, "label": 1}]})
    assert out["x"][0] <= x0 and out["x"][1] > 40.0  # grown, never shrunk
    assert out["y"][0] < -30.0 and out["y"][1] >= y1

    # clear: back to the default plane; then a preset load fits its data afresh
    at.sidebar.button(key="data_clear").click()
    out = _run(at)
    assert out["n"] == 0 and (out["x"], out["y"]) == ([-3.0, 3.0], [-3.0, 3.0])
    at.sidebar.button(key="data_load").click()
    out = _run(at)
    assert out["n"] == 100 and (out["x"], out["y"]) == ([x0, x1], [y0, y1])


def test_the_real_page_draws_on_the_session_range():
    """Linear Pegasos: a point added inside the plane keeps the page's axes."""
    from svmlab.state.points import PointSet

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/linear_pegasos.py").run()
    assert not at.exception
    session = at.session_state["svmlab_session"]
    r0 = session.plane
    (_x0, x1), (_y0, y1) = r0
    p = session.points
    corner = PointSet(np.vstack([p.X, [[x1 - 0.01, y1 - 0.01]]]), np.append(p.c, 1))
    session.apply_events([{"type": "add", "x": x1 - 0.01, "y": y1 - 0.01, "cls": 1}])
    assert session.points == corner
    at.run()
    assert not at.exception
    assert at.session_state["svmlab_session"].plane == r0
    assert fg.plane_range(corner.X) != r0  # the data's own range would have moved
