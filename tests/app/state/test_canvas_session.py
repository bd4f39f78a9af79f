"""The canvas's session object (svmlab.state.canvas_session) and its data rules (events, the
plane's range, file labels, typed cells), as plain functions and through Streamlit's AppTest.

* events: each ``seq`` applied once, whatever the order, repeats and batches they come in
  (the event channel, :func:`svmlab.ui.event_channel.deliver`);
* the plane follows the points after an import, an undo and a redo (clicks keep it);
* file labels map as documented (1, 2 → −1, +1; 1, 2, 3 → 0, 1, 2) and the import says so;
  a LIBSVM file whose first line holds only a label is read as LIBSVM;
* a table cell is stored exactly as typed or refused naming the row and the column;
* the component's JavaScript links the α bars without plotly internals and never re-sends.
"""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmlab.plot import figures as fg
from svmlab.state.canvas_session import FILL, CanvasSession, follow_range
from svmlab.state.points import (
    CLASS_INDEX_MARK,
    COORD_LIMIT,
    History,
    PointSet,
    PointsFormatError,
    export_csv,
    export_libsvm,
    label_map_text,
    labels_to_classes,
    parse_cell,
    parse_points,
    read_points,
)
from svmlab.ui.event_channel import STATE, contract, deliver, event_seq, events_of
from svmlab.ui.safe_text import shown_text

# Tolerance table: none — coordinates are stored as sent or typed (compared exactly), ranges
# are the same doubles.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 30


def _session(*xy) -> CanvasSession:
    X = np.array(xy, dtype=float).reshape(-1, 2)
    return CanvasSession(history=History(PointSet(X, np.ones(len(X), dtype=int))))


def _add(x, y, seq=None):
    ev = {"type": "add", "x": x, "y": y, "cls": 1}
    return ev if seq is None else {**ev, "seq": seq}


# -- events: each seq once ------------------------------------------------------------------
def test_each_seq_is_applied_once_whatever_the_order_and_the_repeats():
    s = _session((0, 0))
    a, b, c = _add(1, 1, 10), _add(2, 2, 11), _add(3, 3, 12)
    assert deliver(s, [b, a]) and s.ack == 11
    assert s.points.X.tolist() == [[0, 0], [1, 1], [2, 2]]  # applied in seq order
    assert not deliver(s, [a, b])  # the same list again (a later rerun): nothing
    assert deliver(s, [a, b, c]) and s.ack == 12
    assert s.points.X.tolist() == [[0, 0], [1, 1], [2, 2], [3, 3]]
    assert not deliver(s, [c, c, {**c, "x": 9}])  # a repeated seq, whatever it holds
    assert s.points.n == 4 and s.version == 2  # one version per applied batch


def test_only_seq_counts_the_old_nonce_format_is_gone():
    s = _session()
    old = {"type": "add", "x": 0.5, "y": 0.5, "cls": 1, "nonce": 7}
    assert event_seq(old) is None and event_seq({**old, "seq": 7.0}) == 7
    assert event_seq({"seq": True}) is None and event_seq({"seq": float("nan")}) is None
    assert events_of({"events": [old, "junk", 3]}) == [old]
    assert events_of({"event": old}) == [] and events_of(None) == []
    assert deliver(s, [{**old, "seq": 8}]) and s.ack == 8


def test_events_without_seq_apply_as_given_and_refusals_leave_a_message():
    s = _session()
    assert deliver(s, [_add(0.5, 0.25), {"type": "bogus"}, "junk"])
    assert s.points.X.tolist() == [[0.5, 0.25]] and s.ack == 0
    deliver(s, [{**_add(0, 0, 5), "cls": 9}])
    assert s.ack == 5 and s.points.n == 1
    assert s.messages and "label must be" in s.messages[-1][1]


def test_the_channel_contract_goes_to_the_browser_in_the_components_data():
    assert contract(ack=12, batch=200) == {"ack": 12, "batch": 200, "state": STATE}
    with pytest.raises(ValueError, match="batch must be at least 1"):
        contract(ack=0, batch=0)


# -- the plane follows the points -------------------------------------------------------------
def test_clicks_keep_the_plane_and_an_undone_import_gives_it_back():
    rng = np.random.default_rng(0)
    s = _session(*rng.uniform(-1, 1, (40, 2)))
    r0 = s.ranges()
    big = PointSet([[-1e6, -1e6], [1e6, 1e6], [1e6, -1e6], [-1e6, 1e6]], [0, 1, 0, 1])
    s.replace(big)
    assert s.ranges() == fg.plane_range(big.X)
    s.undo()
    assert s.ranges() == r0  # the user's plane, not ±1.3e6
    s.redo()
    assert s.ranges() == fg.plane_range(big.X)
    s.undo()
    assert s.ranges() == r0
    deliver(s, [_add(r0[0][1] - 1e-3, r0[1][1] - 1e-3, 1)])  # a click at the corner
    assert s.ranges() == r0 != fg.plane_range(s.points.X)  # kept, not refitted
    s.undo()  # the click undone: the points still fill the plane, which stays
    assert s.ranges() == r0
    s.redo()
    assert s.ranges() == r0


def test_follow_range_rules():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    fitted = fg.plane_range(X)
    assert follow_range(X, None) == fitted
    assert follow_range(X, fitted) == fitted
    wide = ((-10.0, 10.0), (-10.0, 10.0))  # the points fill less than FILL of it
    assert (fitted[0][1] - fitted[0][0]) / 20 < FILL and follow_range(X, wide) == fitted
    near = ((-1.0, 2.5), (-1.0, 2.5))  # they fill more than FILL: kept
    assert follow_range(X, near) == near
    assert follow_range(np.array([[5.0, 0.0]]), near) == fg.plane_range([[5.0, 0.0]])


def _undo_script():
    import json

    import numpy as np
    import streamlit as st

    from svmlab.ui import data_panel

    step = st.session_state.get("step", "")
    if step == "import":
        big = np.array([[-1e6, -1e6], [1e6, 1e6], [1e6, -1e6], [-1e6, 1e6]] * 2)
        data_panel.set_data(big, np.array([-1, 1, -1, 1, 1, -1, 1, -1]))
    elif step == "undo":
        data_panel.undo()
    X, _ = data_panel.get_data(2)
    st.code(json.dumps({"plane": data_panel.plane_ranges(), "X": X.tolist()}))


def test_an_import_at_1e6_undone_gives_back_the_users_plane():
    at = AppTest.from_function(_undo_script, default_timeout=TIMEOUT_S)
    outs = []
    for step in ("", "import", "undo"):
        at.session_state["step"] = step
        at.run()
        assert not at.exception, at.exception
        outs.append(json.loads(at.main.code[-1].value))
    first, big, back = outs
    assert big["plane"][0][1] > 1e6
    assert back["X"] == first["X"]
    assert back["plane"] == first["plane"]  # was ±1.3e6: the points in one pixel


def test_the_plane_figure_redraws_both_axes_when_the_range_changes():
    X, y = np.zeros((1, 2)), np.ones(1)
    a = fg.plane_figure(X, y, xrange=(-1, 1), yrange=(-2, 2))
    b = fg.plane_figure(X, y, xrange=(-1, 1), yrange=(-3, 3))
    c = fg.plane_figure(X, y, xrange=(-1.0, 1.0), yrange=(-2.0, 2.0))
    assert a.layout.xaxis.uirevision == a.layout.yaxis.uirevision
    assert a.layout.xaxis.uirevision != b.layout.xaxis.uirevision  # x too, not only y
    assert a.layout.xaxis.uirevision == c.layout.xaxis.uirevision  # clicks: unchanged


# -- labels -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("labels", "classes", "note"),
    [
        ([1, 2, 2, 1], [0, 1, 1, 0], "labels 1, 2 → classes −1, +1"),
        ([-1, 1], [0, 1], None),
        ([0, 1], [0, 1], "labels 0, 1 → classes −1, +1"),
        ([1, 2, 3], [0, 1, 2], "labels 1, 2, 3 → classes −1, +1, 2"),
        ([7, 9, 8], [0, 2, 1], "labels 7, 8, 9 → classes −1, +1, 2"),
    ],
)
def test_file_labels_map_as_documented_and_the_mapping_is_said(labels, classes, note):
    c = labels_to_classes(labels)
    assert c.tolist() == classes
    assert label_map_text(labels, c, 2) == note


def test_label_notes_on_a_multiclass_page_and_kept_indices():
    assert label_map_text([1, 2, 3], [0, 1, 2], 3) == "labels 1, 2, 3 → classes 0, 1, 2"
    assert label_map_text([0, 2, 5], [0, 2, 5], 6) is None
    assert labels_to_classes([0, 1, 5]).tolist() == [0, 1, 5]


def test_a_binary_libsvm_file_with_labels_1_and_2_shows_every_point():
    text = "".join(f"{1 + k % 2} 1:{k} 2:{-k}\n" for k in range(10))
    pts, note = read_points(text, "auto", 2)
    X, y = pts.labels(2)
    assert X.shape[0] == 10 and sorted(set(y.tolist())) == [-1.0, 1.0]  # was 4 of 10
    assert note == "labels 1, 2 → classes −1, +1"


def test_a_libsvm_file_whose_first_line_is_a_lone_label_is_libsvm():
    p = parse_points("1\n2 1:0.5 2:1.5\n")
    assert p.X.tolist() == [[0.0, 0.0], [0.5, 1.5]] and p.c.tolist() == [0, 1]
    with pytest.raises(PointsFormatError, match="line 1: expected 3 values"):
        parse_points("1\n2 1:0.5\n", "csv")


@pytest.mark.parametrize("classes", [[1, 2, 2], [2], [0], [3, 5], [0, 4]])
def test_class_index_exports_read_back_the_same_classes(classes):
    p = PointSet(np.arange(2 * len(classes), dtype=float).reshape(-1, 2), classes)
    for text in (export_csv(p, 6), export_libsvm(p, 6)):
        assert parse_points(text).c.tolist() == classes
        assert (CLASS_INDEX_MARK in text) == (0 not in classes)


# -- table cells --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("1e-3", 1e-3),
        ("-2.5E+4", -25000.0),
        ("0,5", 0.5),
        (" 7 ", 7.0),
        ("-.25", -0.25),
        ("1e6", 1e6),
        (3.0, 3.0),
    ],
)
def test_a_cell_is_stored_exactly_as_typed(typed, value):
    assert parse_cell(typed, 4, "x1") == value


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("1e308", f"beyond the limit ±{COORD_LIMIT:g}"),
        ("-1000001", "beyond the limit"),
        ("nan", "'nan' is not a number"),
        ("inf", "'inf' is not a number"),
        ("abc", "'abc' is not a number"),
        ("1,000.5", "is not a number"),
        ("1_000", "is not a number"),
        ("", "x2 is empty"),
        (None, "x2 is empty"),
    ],
)
def test_a_cell_that_is_not_a_number_is_refused_naming_row_and_column(typed, words):
    with pytest.raises(PointsFormatError) as info:
        parse_cell(typed, 7, "x2")
    assert str(info.value).startswith("row 7: x2") and words in str(info.value)


# -- the component's JavaScript ---------------------------------------------------------------
def _code(name: str) -> str:
    js = (ROOT / "assets" / name).read_text()
    return "\n".join(line.split("//")[0] for line in js.splitlines())  # without comments


def test_the_canvas_javascript_uses_no_plotly_internals_and_never_re_sends():
    code = _code("canvas.js")
    channel = _code("event_channel.js")
    for banned in (
        "_fullLayout",
        "_fullData",
        "._ev",
        "MutationObserver",
        "dispatchEvent",
        "querySelectorAll",
        "setTriggerValue",
        "setInterval",
        "RESEND",
    ):
        assert banned not in code and banned not in channel, banned
    # the canvas hands its setStateValue to the channel, which alone sets the state value,
    # once per new event, on no timer
    assert code.count("setStateValue") == 1 and "this.channel.update(" in code
    assert "setState(" not in code.replace("setStateValue", "")
    assert channel.count("this.setState(") == 1 and "setTimeout(" not in channel


def test_the_components_share_one_event_channel_and_no_window_globals():
    # One channel module prepended to the canvas and the keyboard component; the contract's
    # constants come from Python (data.channel); the components talk through no window
    # global (each keeps its own state: the keyboard its one listener per tab).
    from svmlab.ui import canvas, keyboard

    channel = _code("event_channel.js")
    for name, module in (("canvas.js", canvas), ("keys.js", keyboard)):
        js = module._COMPONENT.js if hasattr(module._COMPONENT, "js") else None
        code = _code(name)
        assert "new EventChannel()" in code and "class EventChannel" not in code
        assert "data.channel" in code or "this.data.channel" in code
        for word in ("seq", "MAX_BATCH", "Date.now"):
            assert word not in code, (name, word)
        globals_used = set(re.findall(r"window\.(__svmlab\w+)|window\[(\w+)\]", code))
        assert globals_used <= {("", "STATE")}, (name, globals_used)
        assert js is None or channel.strip()[:40] in js
    assert "__svmlabCanvas" not in _code("plotly_loader.js")
    # the plot box waits for the plane's drawing: it reads the canvas from the page's canvas
    # element, as the feed and the keys do, never from a window global
    plot = _code("plot.js")
    assert "root.__svmlabCanvas" in plot and "window.__svmlabCanvas" not in plot


def _import_script():
    import streamlit as st

    from svmlab.ui import data_panel

    text = st.session_state.pop("upload", None)
    if text is not None:
        data_panel.import_points(text, "two.libsvm", 2)
    data_panel.data_controls(n_classes=2)
    X, y = data_panel.get_data(2)
    st.code(f"{X.shape[0]} {sorted(set(y.tolist()))}")


def test_the_import_message_says_how_labels_were_mapped():
    at = AppTest.from_function(_import_script, default_timeout=TIMEOUT_S)
    at.session_state["upload"] = "".join(f"{1 + k % 2} 1:{k} 2:{-k}\n" for k in range(10))
    at.run()
    assert not at.exception, at.exception
    assert at.main.code[-1].value == "10 [-1.0, 1.0]"
    msgs = [shown_text(m.value) for m in at.sidebar.success]  # as the reader sees it
    assert msgs == ["Imported 10 points from two.libsvm (labels 1, 2 → classes −1, +1)."]


def test_point_links_find_each_points_marker_in_the_plane_figure():
    from svmlab.ui.canvas import point_links

    X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    fig = fg.plane_figure(X, np.array([1.0, -1.0, 1.0]), alpha=np.array([0.0, 0.5, 1.0]))
    links = point_links(fig, 4)
    curves = [i for i, t in enumerate(fig.data) if t.meta == fg.POINTS_META]
    assert links[1] == [curves[0], 0, 2.0, 3.0]  # class −1 trace, its first marker
    assert links[0] == [curves[1], 0, 0.0, 1.0] and links[2] == [curves[1], 1, 4.0, 5.0]
    assert links[3] is None  # no such point
    assert point_links(fig.to_json(), 3) == links[:3]


def _bars_script():
    import numpy as np

    from svmlab.plot.figures import alpha_bar_figure, plane_figure
    from svmlab.ui import data_panel

    data_panel.data_controls(n_classes=2)
    X, y = data_panel.get_data(2)
    alpha = np.linspace(0.0, 1.0, len(y))
    data_panel.data_canvas(
        plane_figure(X, y, alpha=alpha), key="canvas", bars=alpha_bar_figure(alpha, y)
    )


def test_data_canvas_takes_the_alpha_bars():
    at = AppTest.from_function(_bars_script, default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, at.exception


def test_an_event_holding_a_401_digit_integer_is_refused_not_raised():
    """A crafted event (JSON integers have no size limit) neither raises nor moves ``ack``."""
    s = _session((0, 0))
    huge = 10**400
    assert not deliver(s, [{**_add(0, 0, 1), "x": huge}])  # no such point: refused
    assert s.ack == 1 and s.points.n == 1
    assert deliver(s, [_add(1, 1, huge)]) and s.ack == 1  # no seq: applied as given
    assert deliver(s, [_add(2, 2, 2)]) and s.ack == 2 and s.points.n == 3
