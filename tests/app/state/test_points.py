"""The data canvas's click logic and file formats as plain functions (svmlab.state.points)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from svmlab.state.classes import (
    CLASS_COLORS,
    CLASS_SYMBOLS,
    class_index,
    class_label,
    class_style,
)
from svmlab.state.points import (
    MAX_POINTS,
    MAX_UNDO,
    History,
    PointSet,
    PointsFormatError,
    apply_event,
    export_csv,
    export_libsvm,
    labels_to_classes,
    parse_csv,
    parse_libsvm,
    parse_points,
    points_from_rows,
)

# Tolerance table ------------------------------------------------------------------------
TOL_ROUND_TRIP = 0.0  # file round trips: coordinates go through float text and back exactly (repr
# round-trips)
TOL_EVENT = 1e-12  # an added point vs the event's coordinates, absolute (used as sent)


def _set(*rows):
    """PointSet from (x1, x2, class index) rows."""
    a = np.array(rows, dtype=float).reshape(-1, 3)
    return PointSet(a[:, :2], a[:, 2].astype(int))


# -- style ----------------------------------------------------------------------------------
def test_every_class_has_its_own_colour_and_shape():
    assert len(set(CLASS_COLORS)) == len(CLASS_COLORS) == 6
    assert len(set(CLASS_SYMBOLS)) == len(CLASS_SYMBOLS) == 6
    assert class_style(1) == {
        "color": CLASS_COLORS[1],
        "symbol": CLASS_SYMBOLS[1],
        "glyph": "✖",
        "name": "vermillion",
    }


@pytest.mark.parametrize(("label", "index"), [(-1, 0), (1, 1), (0, 0), (2, 2), (5, 5), ("3", 3)])
def test_class_index_maps_binary_and_multiclass_labels(label, index):
    assert class_index(label) == index


@pytest.mark.parametrize("label", [6, -2, 1.5, "a", None])
def test_class_index_refuses_unknown_labels(label):
    with pytest.raises(ValueError, match=r"label must be -1 or an integer 0\.\.5"):
        class_index(label)


def test_class_label_is_the_inverse_on_each_kind_of_page():
    assert [class_label(j, 2) for j in (0, 1)] == [-1, 1]
    assert [class_label(j, 4) for j in range(4)] == [0, 1, 2, 3]


# -- clicks -> points ----------------------------------------------------------------------
def test_add_event_puts_the_point_at_the_clicked_coordinates_with_the_class():
    p = _set((0, 0, 0))
    new, msg = apply_event(p, {"type": "add", "x": 0.25, "y": -1.5, "cls": 1, "nonce": 7})
    assert msg is None
    assert new.n == 2
    np.testing.assert_allclose(new.X[-1], [0.25, -1.5], atol=TOL_EVENT)
    assert new.c[-1] == 1
    _, y = new.labels(2)
    assert y.tolist() == [-1.0, 1.0]
    assert p.n == 1  # the old set is unchanged (immutable)


def test_add_event_with_binary_minus_one_is_class_zero():
    new, _ = apply_event(PointSet(), {"type": "add", "x": 1, "y": 2, "cls": -1})
    assert new.c.tolist() == [0]
    assert new.labels(2)[1].tolist() == [-1.0]


@pytest.mark.parametrize(
    "event",
    [
        {"type": "add", "x": float("nan"), "y": 0, "cls": 1},
        {"type": "add", "x": "a", "y": 0, "cls": 1},
        {"type": "add", "y": 0, "cls": 1},
        {"type": "teleport", "x": 0, "y": 0},
        None,
        "add",
        {"type": "erase", "x": 0, "y": 0, "index": 99},
        {"type": "move", "x": 0, "y": 0, "index": True},
    ],
)
def test_malformed_events_change_nothing_and_do_not_raise(event):
    p = _set((0, 0, 0), (1, 1, 1))
    new, _ = apply_event(p, event)
    assert new == p


def test_add_refuses_beyond_the_cap_with_a_message():
    p = PointSet(np.zeros((MAX_POINTS, 2)), np.zeros(MAX_POINTS, dtype=int))
    new, msg = apply_event(p, {"type": "add", "x": 0, "y": 0, "cls": 1})
    assert new is p
    assert str(MAX_POINTS) in msg
    with pytest.raises(ValueError, match="at most 2000 points"):
        p.add(0, 0, 1)


def test_erase_by_index_when_the_point_is_still_there():
    p = _set((0, 0, 0), (1, 1, 1), (2, 2, 0))
    new, _ = apply_event(p, {"type": "erase", "index": 1, "x": 1, "y": 1, "rx": 0.1, "ry": 0.1})
    assert new.X.tolist() == [[0, 0], [2, 2]]
    assert new.c.tolist() == [0, 0]


def test_erase_with_a_stale_index_falls_back_to_the_nearest_point_in_the_radius():
    p = _set((0, 0, 0), (1, 1, 1), (2, 2, 0))
    # index 0 is far from (2, 2): the point at (2, 2) is erased instead
    new, _ = apply_event(p, {"type": "erase", "index": 0, "x": 2.01, "y": 2, "rx": 0.1, "ry": 0.1})
    assert new.X.tolist() == [[0, 0], [1, 1]]


def test_erase_nearest_only_within_the_radius():
    p = _set((0, 0, 0), (1, 1, 1))
    same, i = p.erase_nearest(0.5, 0.5, 0.2)
    assert i is None and same is p
    new, i = p.erase_nearest(0.9, 1.05, 0.2)
    assert i == 1 and new.X.tolist() == [[0, 0]]
    # an ellipse: 0.5 along x is inside rx = 1, along y it would be outside ry = 0.1
    new, i = p.erase_nearest(0.5, 0.0, 1.0, ry=0.1)
    assert i == 0
    with pytest.raises(ValueError, match="radius must be > 0"):
        p.erase_nearest(0, 0, 0)


def test_move_keeps_class_and_order():
    p = _set((0, 0, 0), (1, 1, 1), (2, 2, 0))
    ev = {"type": "move", "index": 1, "x": -1, "y": 3, "from_x": 1, "from_y": 1}
    new, _ = apply_event(p, {**ev, "rx": 0.1, "ry": 0.1})
    assert new.X.tolist() == [[0, 0], [-1, 3], [2, 2]]
    assert new.c.tolist() == [0, 1, 0]


def test_move_with_a_stale_index_moves_the_point_that_was_dragged():
    p = _set((0, 0, 0), (1, 1, 1), (2, 2, 0))
    ev = {"type": "move", "index": 2, "x": 5, "y": 5, "from_x": 1, "from_y": 1, "rx": 0.1}
    new, _ = apply_event(p, {**ev, "ry": 0.1})
    assert new.X.tolist() == [[0, 0], [5, 5], [2, 2]]


def test_history_undo_and_clear():
    h = History(_set((0, 0, 0)))
    assert not h.can_undo
    h = h.push(h.current.add(1, 1, 1))
    h = h.push(h.current.add(2, 2, 0))
    assert h.current.n == 3
    h = h.clear()
    assert h.current.n == 0 and h.can_undo
    h = h.undo()
    assert h.current.n == 3
    h = h.undo().undo()
    assert h.current.n == 1 and not h.can_undo
    assert h.undo() is h  # nothing more to undo
    assert h.push(_set((0, 0, 0))) is h  # an identical set is not a new step


def test_history_redo_goes_forward_again_until_a_new_edit():
    h = History(_set((0, 0, 0)))
    one = h.push(h.current.add(1, 1, 1))
    two = one.push(one.current.add(2, 2, 0))
    assert not two.can_redo and two.redo() is two
    back = two.undo().undo()
    assert back.current.n == 1 and back.can_redo
    assert back.redo().current == one.current and back.redo().redo().current == two.current
    assert not back.redo().redo().can_redo
    fork = back.redo().push(_set((9, 9, 1)))  # a new edit drops what was undone
    assert not fork.can_redo and fork.undo().current == one.current


def test_history_keeps_at_most_max_undo_steps():
    h = History()
    for i in range(MAX_UNDO + 10):
        h = h.push(h.current.add(i, 0, 0))
    assert len(h.past) == MAX_UNDO
    for _ in range(MAX_UNDO):
        h = h.undo()
    assert h.current.n == 10


def test_labels_for_binary_and_multiclass_pages():
    p = _set((0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 0, 3))
    X, y = p.labels(2)
    assert X[:, 0].tolist() == [0, 1] and y.tolist() == [-1.0, 1.0]
    assert p.n_hidden(2) == 2
    X, y = p.labels(4)
    assert y.tolist() == [0, 1, 2, 3] and y.dtype.kind == "i"
    assert p.n_hidden(4) == 0


def test_pointset_is_immutable_and_validated():
    p = _set((0, 0, 0))
    with pytest.raises(ValueError):
        p.X[0, 0] = 5.0
    with pytest.raises(ValueError, match="finite"):
        PointSet([[np.nan, 0]], [0])
    with pytest.raises(ValueError, match="class indices"):
        PointSet([[0, 0]], [6])


# -- parsing ---------------------------------------------------------------------------------
def test_parse_csv_with_header_comments_and_binary_labels():
    text = "# drawn in SVM Lab\nx1,x2,label\n0,0,-1\n\n2.5,1e-1,+1\n"
    p = parse_csv(text)
    assert p.X.tolist() == [[0.0, 0.0], [2.5, 0.1]]
    assert p.c.tolist() == [0, 1]


def test_parse_csv_headers_name_the_columns_in_any_order():
    p = parse_csv("label;x;y\n1;3;4\n-1;5;6\n")
    assert p.X.tolist() == [[3, 4], [5, 6]] and p.c.tolist() == [1, 0]
    p = parse_csv("x1 x2 y\n1 2 0\n3 4 2\n")
    assert p.c.tolist() == [0, 2]


def test_parse_csv_without_header_and_other_integer_labels_are_renumbered():
    p = parse_csv("0,0,7\n1,1,9\n2,2,8\n")
    assert p.c.tolist() == [0, 2, 1]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("x1,x2,label\n0,0,1\n1,abc,-1\n", 3, "x2 'abc' is not a number"),
        ("0,0,1\n0,0\n", 2, "expected 3 values"),
        ("0,0,1\n0,0,1,4\n", 2, "expected 3 values"),
        ("0,0,1\n0,0,0.5\n", 2, "label 0.5 is not an integer"),
        ("0,0,1\n0,inf,1\n", 2, "not finite"),
        ("0,0,1\n0,1e9,1\n", 2, "beyond"),
        ("a,b,c\n0,0,1\n", 1, "names no label column"),
        ("x1,x2\n0,0\n", 1, "expected 3"),
        ("\n".join(f"0,0,{k}" for k in (10, 11, 12, 13, 14, 15, 16)), 7, "7th class"),
    ],
)
def test_parse_csv_errors_name_the_line_and_the_problem(text, line, words):
    with pytest.raises(PointsFormatError) as info:
        parse_csv(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")
    assert words in str(info.value)


def test_parse_csv_refuses_an_empty_file_and_more_than_the_cap():
    with pytest.raises(PointsFormatError, match="no data lines"):
        parse_csv("# nothing\n\n")
    with pytest.raises(PointsFormatError, match="header but no data"):
        parse_csv("x1,x2,label\n")
    text = "\n".join("0,0,1" for _ in range(MAX_POINTS + 1))
    with pytest.raises(PointsFormatError, match=f"line {MAX_POINTS + 1}: more than"):
        parse_csv(text)


def test_parse_libsvm_sparse_lines():
    p = parse_libsvm("+1 1:0.5 2:-2\n-1 2:3 # x1 missing = 0\n-1\n")
    assert p.X.tolist() == [[0.5, -2.0], [0.0, 3.0], [0.0, 0.0]]
    assert p.c.tolist() == [1, 0, 0]
    p = parse_libsvm("1 1:0 2:0\n2 1:1 2:1\n3 1:2 2:2\n")  # LIBSVM's multiclass 1..k
    assert p.c.tolist() == [0, 1, 2]  # as documented (file labels: were kept as 1, 2, 3)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("+1 1:0 2:0\n-1 1:0 3:1\n", 2, "feature index 3 is out of range"),
        ("+1 1:0 2:0\n-1 2:0 1:1\n", 2, "indices must increase"),
        ("+1 1:0 2:0\n-1 1=0\n", 2, "not of the form index:value"),
        ("+1 1:0 2:0\nplus 1:0\n", 2, "label 'plus' is not a number"),
        ("+1 1:0 2:x\n", 1, "feature 2 'x' is not a number"),
    ],
)
def test_parse_libsvm_errors_name_the_line(text, line, words):
    with pytest.raises(PointsFormatError) as info:
        parse_libsvm(text)
    assert info.value.line == line and words in str(info.value)


def test_parse_points_detects_the_format():
    assert parse_points("+1 1:2 2:3\n").X.tolist() == [[2, 3]]
    assert parse_points("2,3,1\n").X.tolist() == [[2, 3]]
    with pytest.raises(ValueError, match="fmt must be one of"):
        parse_points("", "xml")


def test_labels_to_classes_rules():
    assert labels_to_classes([-1, 1, 1]).tolist() == [0, 1, 1]
    assert labels_to_classes([0, 1, 5]).tolist() == [0, 1, 5]
    assert labels_to_classes([-3, 10]).tolist() == [0, 1]


def test_points_from_rows_for_the_table_editor():
    p = points_from_rows([0.0, 1.0, None], [0.0, 2.0, None], [-1, 1, None])
    assert p.X.tolist() == [[0, 0], [1, 2]] and p.c.tolist() == [0, 1]
    with pytest.raises(PointsFormatError, match="line 2: x2 is empty"):
        points_from_rows([0.0, 1.0], [0.0, float("nan")], [1, 1])
    with pytest.raises(PointsFormatError, match="line 1: label must be"):
        points_from_rows([0.0], [0.0], [9])


# -- export round trips -----------------------------------------------------------------------
def test_export_csv_text():
    p = _set((0.1, -2, 0), (3, 4.5, 1))
    assert export_csv(p) == "x1,x2,label\n0.1,-2.0,-1\n3.0,4.5,1\n"
    assert export_libsvm(p) == "-1 1:0.1 2:-2.0\n+1 1:3.0 2:4.5\n"
    q = _set((0, 0, 0), (1, 1, 2))
    assert export_csv(q, 3).splitlines()[1:] == ["0.0,0.0,0", "1.0,1.0,2"]
    assert export_libsvm(q, 3).splitlines() == ["0 1:0.0 2:0.0", "2 1:1.0 2:1.0"]


@settings(max_examples=60, deadline=None)
@given(
    X=hst.lists(
        hst.tuples(
            hst.floats(-1e5, 1e5, allow_nan=False, allow_infinity=False),
            hst.floats(-1e5, 1e5, allow_nan=False, allow_infinity=False),
        ),
        min_size=1,
        max_size=30,
    ),
    data=hst.data(),
    n_classes=hst.sampled_from([2, 3, 6]),
)
def test_export_then_import_gives_the_same_points(X, data, n_classes):
    c = data.draw(hst.lists(hst.integers(0, n_classes - 1), min_size=len(X), max_size=len(X)))
    p = PointSet(np.array(X), np.array(c))
    for text in (export_csv(p, n_classes), export_libsvm(p, n_classes)):
        q = parse_points(text)
        assert np.max(np.abs(q.X - p.X), initial=0.0) <= TOL_ROUND_TRIP
        assert q.c.tolist() == p.c.tolist()


def test_nearest_is_measured_in_screen_units():
    p = _set((0, 0, 0), (0, 0.5, 1))
    # with equal scales the point (0, 0.5) is nearer to (0.6, 0.5)... on x units
    i, d = p.nearest(0.6, 0.5)
    assert i == 1 and math.isclose(d, 0.6)
    # if y is stretched (ry small), the y gap counts more
    i, _ = p.nearest(0.0, 0.2, rx=1.0, ry=0.01)
    assert i == 0
