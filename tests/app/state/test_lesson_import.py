"""Lesson files through the importer: never a crash, undoable, settings checked with their
range, and the upload limit said next to the uploader.

* ``read_lesson`` promises never to raise: a 401-digit integer (which Python's ``float``
  cannot hold: ``OverflowError``) in any field, and random JSON in every field, give a
  result with messages.
* Importing a lesson replaces the drawing like a CSV import does: Undo brings the earlier
  points back, Redo the lesson's.
* A setting the page's widget does not take says what it takes: a number out of the
  widget's range names the range, a choice names the choices.
* The importer says the upload limit (``server.maxUploadSize``, 2 MB) before a file is
  refused by the server.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from svmlab.state import lesson
from svmlab.state.labstate import FIELDS, DecodeResult
from svmlab.ui.safe_text import shown_text

# Tolerance table: none — points are compared exactly; messages as the reader sees them.

TIMEOUT_S = 60
HUGE = 10**400  # 401 digits
BASE = {"format": "svmlab-lesson", "v": 1}


# -- never a crash ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "doc",
    [
        {**BASE, "points": [[HUGE, 0, 0]]},
        {**BASE, "points": [[0, -HUGE, 1]]},
        {**BASE, "points": [[0, 0, HUGE]]},
        {**BASE, "points": [[0.5, 0, 0], [1, 2, 1], [HUGE, HUGE, HUGE]]},
        {**BASE, "params": {"lam": HUGE, "T": HUGE, "kernel": HUGE, "bias": HUGE}},
        {**BASE, "alg": "pegasos", "params": {"lam": HUGE, "T": -HUGE}},
        {**BASE, "plane": [-HUGE, HUGE, 0, 1]},
        {**BASE, "classes": HUGE, "snap": -HUGE, "present": HUGE, "done": [HUGE]},
        {**BASE, "page": HUGE, "alg": HUGE, HUGE: 1},
        {"format": "svmlab-lesson", "v": HUGE},
    ],
    ids=lambda d: ",".join(str(k)[:8] for k in d if k not in BASE) or "v",
)
def test_a_401_digit_integer_anywhere_is_refused_with_a_message(doc):
    r = lesson.read_lesson(json.dumps(doc))
    assert isinstance(r, DecodeResult) and r.messages
    assert "points" not in r.read or r.state.points.n == 0


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**450), max_value=10**450)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from([*FIELDS, "v", "x"]), JSON, max_size=6))
def test_random_json_in_every_field_never_raises(fields):
    r = lesson.read_lesson(json.dumps({**BASE, **fields}))
    assert isinstance(r, DecodeResult)


# -- the importer: undoable, settings with their range -----------------------------------------
def _script():
    import streamlit as st

    from svmlab.algorithms import widgets
    from svmlab.ui import data_panel, linkstate

    class Upload:
        file_id = "f1"
        name = "lesson.json"

        def getvalue(self):
            return st.session_state["lesson_bytes"]

    def upload():
        st.session_state["data_upload"] = Upload()
        data_panel._import_file("data_upload", 2)  # what the uploader's on_change does

    with linkstate.page_link("kernel_pegasos"):
        widgets.kernel_controls("kernel_pegasos")
        widgets.t_slider(key="kernel_pegasos_T", default=10_000, cap=100_000)
        widgets.seed_input("kernel_pegasos")
        st.button("upload", on_click=upload)
        data_panel.data_controls(n_classes=2)


def _app() -> AppTest:
    return AppTest.from_function(_script, default_timeout=TIMEOUT_S).run()


def _load(at: AppTest, doc: dict) -> AppTest:
    at.session_state["lesson_bytes"] = json.dumps(doc).encode()
    next(b for b in at.button if b.label == "upload").click().run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _points(at: AppTest) -> np.ndarray:
    return at.session_state["svmlab_session"].points.X


def _link_lines(at: AppTest) -> list[str]:
    boxes = [shown_text(w.value) for w in at.warning if "could not be read" in w.value]
    return [line[2:] for line in boxes[0].split("\n")[1:]] if boxes else []


def test_an_imported_lesson_is_undone_and_redone_like_a_csv_import():
    at = _app()
    before = _points(at).copy()
    rows = [[0.125, -1.5, 0], [2.0, 0.25, 1], [-0.5, 0.75, 1]]
    _load(at, {**BASE, "page": "kernel_pegasos", "points": rows})
    assert _points(at).tolist() == [r[:2] for r in rows]
    undo = at.sidebar.button(key="data_undo")
    assert not undo.disabled
    undo.click().run()
    assert np.array_equal(_points(at), before)
    at.sidebar.button(key="data_redo").click().run()
    assert _points(at).tolist() == [r[:2] for r in rows]


@pytest.mark.parametrize(
    ("params", "line"),
    [
        (
            {"kernel_pegasos_T": 1_000_000_000_000},
            "lesson: kernel_pegasos_T: 1000000000000 is out of range 10 … 100,000; "
            "the page keeps 10,000",
        ),
        (
            {"kernel_pegasos_T": 50},
            "lesson: kernel_pegasos_T: 50 is not one of 10, 30, 100, 300, 1,000, 3,000, "
            "10,000, 30,000, 100,000; the page keeps 10,000",
        ),
        (
            {"kernel_pegasos_seed": 5_000_000},
            "lesson: kernel_pegasos_seed: 5000000 is out of range 0 … 1000000; the page keeps 0",
        ),
        (
            {"kernel_pegasos_kernel": "cubic"},
            "lesson: kernel_pegasos_kernel: 'cubic' is not one of linear, polynomial, "
            "Gaussian (RBF); the page keeps Gaussian (RBF)",
        ),
        (
            {"kernel_pegasos_T": [1, 2]},
            "lesson: kernel_pegasos_T: a list is not a single value; ignored",
        ),
    ],
)
def test_a_setting_the_widget_does_not_take_names_what_it_takes(params, line):
    at = _load(_app(), {**BASE, "page": "kernel_pegasos", "params": params})
    assert _link_lines(at) == [line]


def test_a_setting_written_as_a_number_or_as_its_label_is_taken():
    at = _app()
    _load(at, {**BASE, "page": "kernel_pegasos", "params": {"kernel_pegasos_T": 1000}})
    assert _link_lines(at) == [] and at.select_slider(key="kernel_pegasos_T").value == 1000
    params = {"kernel_pegasos_T": "30,000", "kernel_pegasos_seed": 7}
    _load(at, {**BASE, "page": "kernel_pegasos", "params": params})
    assert _link_lines(at) == [] and at.select_slider(key="kernel_pegasos_T").value == 30_000
    assert at.number_input(key="kernel_pegasos_seed").value == 7


def test_the_importer_says_the_upload_limit():
    at = AppTest.from_function(_script, default_timeout=TIMEOUT_S)
    at.session_state["data_io_box"] = True  # the "Import / export" box, open
    at.run()
    (uploader,) = at.get("file_uploader")
    assert uploader.proto.max_upload_size_mb == 2  # .streamlit/config.toml
    assert "Files up to 2 MB" in uploader.proto.help
