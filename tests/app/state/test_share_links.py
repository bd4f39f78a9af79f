"""Share links and lesson files: round trips, the URL budget, and links that lie."""

import base64
import json
import struct
import subprocess
import sys
import zlib
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmlab.state import lesson, urlstate
from svmlab.state.labstate import THEMES, DecodeResult, LabState
from svmlab.state.points import MAX_POINTS, PointSet
from svmlab.state.statecheck import COORD_BOUND, DEFAULT_SCHEMA, ParamSpec

# Tolerance table ------------------------------------------------------------------------
TOL_LINK_POINT = 1e-12  # a link's point vs the drawn point, each coordinate: half a quantization
# step, span / (2 · 65535), + this · span (span = the plane's width or height; a step is
# 0.03 px on a 2000-px plane)
# a lesson file's point: exact (floats written with repr); parameters, page, classes,
# snapshot, presenter flag, exercises, plane: exact; encode(decode(encode(s))): exact string
# equality with encode(s)

ROOT = Path(__file__).resolve().parents[3]
PLANE = (-3.0, 3.0, -2.0, 2.5)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_state(n, seed=0, plane=PLANE, classes=2):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.uniform(plane[0], plane[1], n), rng.uniform(plane[2], plane[3], n)])
    return LabState(
        page="kernel_pegasos",
        alg="kernel_pegasos",
        params={"kernel": "rbf", "gamma": 1.0, "lam": 0.01, "T": 500, "random_state": 0},
        points=PointSet(X, rng.integers(0, classes, n)),
        classes=classes,
        plane=plane,
        snap=499,
    )


def steps(plane):
    return np.array([plane[1] - plane[0], plane[3] - plane[2]]) / urlstate.QUANT_LEVELS


# -- strategies -------------------------------------------------------------------------
def value_of(spec: ParamSpec):
    if spec.kind == "bool":
        s = st.booleans()
    elif spec.kind == "str":
        s = st.sampled_from(spec.choices)
    elif spec.kind == "int":
        s = st.integers(int(spec.low), int(spec.high))
    else:
        s = st.floats(spec.low, spec.high, allow_nan=False)
    return st.one_of(s, st.none()) if spec.optional else s


params_st = st.fixed_dictionaries(
    {}, optional={name: value_of(spec) for name, spec in DEFAULT_SCHEMA.items()}
)
coord = st.floats(-1e6, 1e6, allow_nan=False)


@st.composite
def planes(draw):
    x0, y0 = draw(coord), draw(coord)
    w = draw(st.floats(1e-3, 1e6)) * max(1.0, abs(x0)) * 1e-3
    h = draw(st.floats(1e-3, 1e6)) * max(1.0, abs(y0)) * 1e-3
    # the far edges stay within the codec's coordinate bound (a wider plane is refused)
    return (x0, min(x0 + w, COORD_BOUND), y0, min(y0 + h, COORD_BOUND))


@st.composite
def states(draw, inside=True):
    plane = draw(planes())
    n = draw(st.integers(0, 40))
    if inside:
        tx = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
        ty = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
        X = np.column_stack(
            [
                plane[0] + np.array(tx) * (plane[1] - plane[0]),
                plane[2] + np.array(ty) * (plane[3] - plane[2]),
            ]
        ).clip([plane[0], plane[2]], [plane[1], plane[3]])
    else:
        X = np.array(draw(st.lists(st.tuples(coord, coord), min_size=n, max_size=n)))
    c = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    return LabState(
        page=draw(st.sampled_from(["home", "linear_pegasos", "kernel_pegasos", "multiclass"])),
        alg=draw(st.sampled_from([None, "pegasos", "kernel_pegasos", "dual_svm"])),
        params=draw(params_st),
        points=PointSet(X.reshape(-1, 2), c),
        classes=draw(st.integers(2, 6)),
        plane=plane if inside or draw(st.booleans()) else None,
        snap=draw(st.one_of(st.none(), st.integers(0, 10**6))),
        present=draw(st.booleans()),
        theme=draw(st.sampled_from(THEMES)),
        done=frozenset(draw(st.lists(st.from_regex(r"[a-z0-9_.-]{1,8}", fullmatch=True)))),
    )


def same_but_points(a: LabState, b: LabState):
    for name in ("page", "alg", "params", "classes", "snap", "present", "theme", "done"):
        assert getattr(a, name) == getattr(b, name), name


# -- worked example ---------------------------------------------------------------------
def test_worked_example_by_hand():
    """On the plane [−1, 1]², (0, 0) → q = rint(32767.5) = 32768 → x = 1/65535 (half a step
    off: the worst case); the corners come back exactly; (0.5, −0.25) → q = 49151, 24576."""
    s = LabState(points=PointSet([[0, 0], [1, -1], [0.5, -0.25]], [0, 1, 5]), plane=(-1, 1, -1, 1))
    r = urlstate.decode_state(urlstate.encode_state(s))
    assert r.ok and r.read >= {"points", "plane"}
    X = r.state.points.X
    assert X[0] == pytest.approx([1 / 65535, 1 / 65535], abs=1e-16)
    assert X[1].tolist() == [1.0, -1.0]
    assert X[2] == pytest.approx([2 * 49151 / 65535 - 1, 2 * 24576 / 65535 - 1], abs=1e-16)
    assert r.state.points.c.tolist() == [0, 1, 5]


def test_query_parameter_names():
    s = replace(random_state(3), present=True, done=frozenset({"ex2", "ex1"}), classes=3)
    q = urlstate.encode_state(s)
    assert list(q)[:9] == ["v", "page", "alg", "classes", "plane", "pts", "snap", "present", "done"]
    assert (q["v"], q["classes"], q["present"], q["done"]) == ("1", "3", "1", "ex1,ex2")
    assert q["plane"] == "-3.0,3.0,-2.0,2.5" and q["gamma"] == "1.0" and q["T"] == "500"
    assert urlstate.encode_state(LabState()) == {"v": "1", "page": "home"}


# -- round trips ------------------------------------------------------------------------
@SETTINGS
@given(states())
def test_link_round_trip_and_idempotence(s):
    q = urlstate.encode_state(s)
    r = urlstate.decode_state(q)
    assert r.messages == ()
    same_but_points(r.state, s)
    assert r.state.plane == s.plane
    tol = steps(s.plane) / 2 + TOL_LINK_POINT * steps(s.plane) * urlstate.QUANT_LEVELS
    assert np.all(np.abs(r.state.points.X - s.points.X) <= tol)
    assert np.array_equal(r.state.points.c, s.points.c)
    assert urlstate.encode_state(r.state) == q
    assert urlstate.parse_link(urlstate.state_to_query_string(s)).state == r.state


@SETTINGS
@given(states(inside=False))
def test_points_outside_the_plane_widen_it(s):
    q = urlstate.encode_state(s)
    r = urlstate.decode_state(q)
    assert r.ok
    plane = r.state.plane
    if s.points.n:
        lo, hi = s.points.X.min(axis=0), s.points.X.max(axis=0)
        assert plane[0] <= lo[0] and plane[1] >= hi[0] and plane[2] <= lo[1] and plane[3] >= hi[1]
        tol = steps(plane) / 2 + TOL_LINK_POINT * steps(plane) * urlstate.QUANT_LEVELS
        assert np.all(np.abs(r.state.points.X - s.points.X) <= tol)
    assert urlstate.encode_state(r.state) == q


@SETTINGS
@given(states(inside=False))
def test_lesson_round_trip_is_exact(s):
    text = lesson.lesson_json(s)
    r = lesson.read_lesson(text)
    assert r.messages == () and r.state == s
    assert lesson.lesson_json(r.state) == text


def test_parse_link_takes_the_page_from_the_path():
    s = random_state(5)
    query = urlstate.state_to_query_string(s)
    for link in (
        f"http://localhost:8501/kernel_pegasos?{query}",
        f"?{query}",
        query,
        f"/kernel_pegasos?{query}",
    ):
        assert (
            urlstate.parse_link(link).state == urlstate.decode_state(urlstate.encode_state(s)).state
        )
    r = urlstate.parse_link(f"https://lab.example/app/dual_svm?{query}")
    assert r.state.page == "dual_svm"
    assert r.messages == ("page: the link names 'kernel_pegasos'; opened on 'dual_svm'",)
    assert urlstate.parse_link("http://localhost:8501/?present=1").state == LabState(present=True)


# -- the URL budget ---------------------------------------------------------------------
def link_length(n, classes=2):
    s = random_state(n, seed=n, classes=classes)
    return len(f"/{s.page}?{urlstate.state_to_query_string(s)}")


def test_500_points_fit_in_8_kb(capsys):
    """Uniform random points (the worst case for zlib), 2 and 6 classes."""
    lengths = {(n, k): link_length(n, k) for n in (100, 500) for k in (2, 6)}
    with capsys.disabled():
        print(
            "\nshare-link length (characters):",
            ", ".join(f"{n} points/{k} classes: {v}" for (n, k), v in lengths.items()),
        )
    assert lengths[(500, 6)] <= urlstate.URL_BUDGET and lengths[(500, 2)] <= 8 * 1024
    assert lengths[(100, 2)] < 1200
    assert urlstate.link_fits(random_state(500)) and not urlstate.link_fits(random_state(2000))


def test_a_full_canvas_still_decodes():
    s = random_state(MAX_POINTS)
    assert len(urlstate.state_to_query_string(s)) <= urlstate.MAX_QUERY
    assert urlstate.parse_link(urlstate.state_to_query_string(s)).ok
    with pytest.raises(ValueError, match="points: at most 2000"):
        urlstate.encode_points(
            PointSet(np.zeros((MAX_POINTS + 1, 2)), np.zeros(MAX_POINTS + 1)), PLANE
        )


# -- links that lie ---------------------------------------------------------------------
def query_of(n=30, **changes):
    return {**urlstate.encode_state(random_state(n)), **changes}


def assert_points_refused(r: DecodeResult, fragment: str):
    assert isinstance(r, DecodeResult) and "points" not in r.read
    assert any(m.startswith("points: ") and fragment in m for m in r.messages), r.messages


@SETTINGS
@given(st.data())
def test_a_flipped_character_of_the_points_is_caught(data):
    q = query_of()
    token = q["pts"]
    i = data.draw(st.integers(0, len(token) - 1))
    ch = data.draw(
        st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    )
    if ch == token[i] or (i == len(token) - 1 and len(token) % 4):
        return  # no change, or only the unused padding bits of the last character
    r = urlstate.decode_state({**q, "pts": token[:i] + ch + token[i + 1 :]})
    assert r.state.params == random_state(30).params  # the rest is still read
    if "points" in r.read:
        # only a flip of the deflate stream's unused padding bits decodes at all, and then
        # to the very same points: never a silently different data set
        same = urlstate.decode_state(q).state.points
        assert np.array_equal(r.state.points.X, same.X) and np.array_equal(r.state.points.c, same.c)
    else:
        assert_points_refused(r, "")


def test_each_kind_of_bad_points_names_its_fault():
    q = query_of()
    cases = {
        "bad base64": q["pts"][:10] + "!" + q["pts"][11:],
        "truncated": q["pts"][:-8],
        "checksum": None,
    }
    for fragment, token in cases.items():
        if token is not None:
            assert_points_refused(urlstate.decode_state({**q, "pts": token}), fragment)
    altered_plane = {**q, "plane": "-3.0,3.0,-2.0,2.6"}
    assert_points_refused(urlstate.decode_state(altered_plane), "the checksum does not match")
    assert_points_refused(urlstate.decode_state({**q, "plane": "x"}), "no valid plane")


def forged_token(plane_text, n, c=0):
    raw = struct.pack("<BH", 16, n) + bytes(4 * n) + bytes([c]) * n
    crc = zlib.crc32(plane_text.encode() + raw).to_bytes(4, "big")
    return base64.urlsafe_b64encode(crc + zlib.compress(raw)).decode().rstrip("=")


def test_forged_tokens_with_a_valid_checksum_are_still_checked():
    plane = "-1.0,1.0,-1.0,1.0"
    assert urlstate.decode_state({"plane": plane, "pts": forged_token(plane, 3)}).ok
    r = urlstate.decode_state({"plane": plane, "pts": forged_token(plane, 3, c=7)})
    assert_points_refused(r, "class index 7 is outside 0..5")
    assert_points_refused(
        urlstate.decode_state({"plane": plane, "pts": forged_token(plane, 5000)}),
        "more than 2000 points",
    )


def test_a_truncated_link_never_gives_other_points():
    query = urlstate.state_to_query_string(random_state(50))
    full = urlstate.parse_link(query).state.points
    for cut in range(0, len(query), 7):
        r = urlstate.parse_link(query[:cut])
        assert isinstance(r, DecodeResult)
        if "points" in r.read:
            assert r.state.points == full
        elif "pts=" in query[:cut]:
            assert any(m.startswith("points: ") for m in r.messages)


def test_the_codec_imports_no_streamlit():
    code = (
        "import sys, svmlab.state.urlstate, svmlab.state.lesson; "
        "print(sorted(m for m in ('streamlit', 'plotly', 'sklearn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("0", "version 0 is not supported; opened with the defaults"),
        ("2", "version 2 is not supported; opened with the defaults"),
        ("", "version '' is not supported; opened with the defaults"),
        ("abc", "version 'abc' is not supported; opened with the defaults"),
    ],
)
def test_other_versions_open_with_the_defaults(version, message):
    r = urlstate.decode_state(query_of(v=version))
    assert r.messages == (message,) and r.state == LabState() and r.read == {"page"}
    doc = json.dumps({"format": "svmlab-lesson", "v": version})
    assert lesson.read_lesson(doc).messages == (message,)


def test_oversized_links_open_with_the_defaults():
    r = urlstate.parse_link("lam=0.1&pts=" + "A" * 20_000)
    assert r.state == LabState() and "above the limit" in r.messages[0]
    r = urlstate.decode_state({f"k{i}": "1" for i in range(500)}, page="dual_svm")
    assert r.state == LabState(page="dual_svm") and "above the limit" in r.messages[0]


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("lam", "abc", "lam: 'abc' is not a number; the default 0.01 is used"),
        ("lam", "nan", "lam: 'nan' is not a finite number; the default 0.01 is used"),
        ("lam", "-inf", "lam: '-inf' is not a finite number; the default 0.01 is used"),
        ("lam", "1e999", "lam: '1e999' is not a finite number; the default 0.01 is used"),
        ("lam", "1e9", "lam: '1e9' is outside 1e-06..100; the default 0.01 is used"),
        ("T", "1.5", "T: '1.5' is not an integer; the default 1000 is used"),
        (
            "T",
            "99999999999999999999",
            "T: '99999999999999999999' is not an integer; the default 1000 is used",
        ),
        (
            "kernel",
            "sigmoid",
            "kernel: 'sigmoid' is not one of linear, poly, rbf; the default 'rbf' is used",
        ),
        ("bias", "yes", "bias: 'yes' is not true/false (1/0); the default True is used"),
        ("zeta", "1", "zeta: unknown parameter; ignored"),
        ("snap", "-1", "snap: '-1' is outside 0..1000000000; ignored"),
        ("classes", "7", "classes: '7' is outside 2..6; ignored"),
        ("present", "2", "present: '2' is not true/false (1/0); ignored"),
        ("done", "a,b c", "done: 'b c' is not an exercise id; ignored"),
        ("plane", "0,1,1,0", "plane: the y range 1..0 is empty or reversed; ignored"),
        ("plane", "0,inf,0,1", "plane: 'inf' is not a finite number; ignored"),
        ("page", "../etc", "page: '../etc' is not a page name; ignored"),
        ("alg", "os.system", "alg: 'os.system' is not a function name; opened with the defaults"),
    ],
)
def test_bad_values_are_named_and_dropped(key, text, message):
    q = {"v": "1", "alg": "pegasos", key: text}
    r = urlstate.decode_state(q)
    assert message in r.messages
    assert key not in r.read and key not in r.state.params
    # the lesson file says the same of the same value
    doc = {"format": "svmlab-lesson", "v": 1, "alg": "pegasos", "params": {}}
    if key in DEFAULT_SCHEMA or key == "zeta":
        doc["params"][key] = text
    else:
        doc[key] = text
    assert message in lesson.read_lesson(json.dumps(doc)).messages


def test_duplicates_unknown_algorithms_and_streamlit_keys():
    r = urlstate.parse_link("alg=pegasos&lam=0.1&lam=0.2&embed=true")
    assert r.messages == ("lam: given 2 times; the last value is used",)
    assert r.state.params == {"lam": 0.2}
    r = urlstate.parse_link("alg=rm_rf&lam=0.1")
    assert r.messages == (
        "alg: 'rm_rf' is not a known algorithm; opened with the defaults",
        "lam: a parameter without a known algorithm; ignored",
    )
    assert r.state == LabState()


def test_a_registry_schema_function():
    schemas = {"dual_svm": {"C": ParamSpec("float", 1.0, 1e-2, 1e3)}}
    r = urlstate.parse_link("/dual_svm?alg=dual_svm&C=5&lam=1", schemas.get, pages={"dual_svm"})
    assert r.state.params == {"C": 5.0} and r.messages == ("lam: unknown parameter; ignored",)
    r = urlstate.parse_link("/nowhere?alg=pegasos&C=5", schemas.get, pages={"dual_svm"})
    assert r.state.page == "home" and len(r.messages) == 3


@SETTINGS
@given(st.text(max_size=300))
def test_any_text_is_read_without_an_exception(text):
    assert isinstance(urlstate.parse_link(text), DecodeResult)
    assert isinstance(
        urlstate.parse_link("?v=1&alg=pegasos&" + quote(text, safe="&=")), DecodeResult
    )
    assert isinstance(lesson.read_lesson(text), DecodeResult)


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from([*urlstate.RESERVED, *DEFAULT_SCHEMA, "x"]),
        st.one_of(st.text(max_size=30), st.lists(st.text(max_size=5))),
    )
)
def test_any_parameters_are_read_without_an_exception(params):
    r = urlstate.decode_state({"alg": "pegasos", **params})
    assert isinstance(r, DecodeResult)
    assert urlstate.encode_state(r.state)  # whatever was read is a valid state


# -- lesson files -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "lesson: not JSON (line 1, column 1"),
        ("{", "lesson: not JSON"),
        (
            '{"format": "svmlab-lesson", "v": 1, "lam": NaN}',
            "lesson: not JSON (NaN is not a number)",
        ),
        ("[1, 2]", 'not an SVM Lab lesson file (no "format": "svmlab-lesson")'),
        ("[" * 100_000, "lesson: not JSON"),
        (" " * (lesson.MAX_LESSON_CHARS + 1), "above the limit of 1000000"),
    ],
)
def test_unreadable_lesson_files(text, fragment):
    r = lesson.read_lesson(text)
    assert r.state == LabState() and len(r.messages) == 1 and fragment in r.messages[0]


@pytest.mark.parametrize(
    ("points", "fragment"),
    [
        ([[0, 0, 0], [1, "a", 1]], "row 2 is not [x1, x2, class]"),
        ([[0, 0, 0], [1, 1e300, 1]], "row 2 is not [x1, x2, class] with finite |x| ≤ 1e+09"),
        ([[0, 0, 6]], "row 1: class 6 is not in 0..5"),
        ([[0, 0, 1.5]], "row 1: class 1.5 is not in 0..5"),
        ([[0, 0]], "row 1 is not"),
        ({"x": 1}, "not a list of [x1, x2, class] rows"),
        ([[0, 0, 0]] * (MAX_POINTS + 1), "2001 points, above the cap of 2000"),
    ],
)
def test_a_lesson_file_with_a_bad_point_loads_no_points(points, fragment):
    doc = {"format": "svmlab-lesson", "v": 1, "page": "dual_svm", "points": points, "extra": 1}
    r = lesson.read_lesson(json.dumps(doc))
    assert "points" not in r.read and r.state.page == "dual_svm"
    assert r.messages[0] == "extra: unknown field; ignored"
    assert any(m.startswith("points: ") and fragment in m for m in r.messages), r.messages


def test_a_state_refuses_bad_values_with_a_value_error():
    with pytest.raises(ValueError, match="params: 'pts' is not a usable parameter name"):
        LabState(params={"pts": 1})
    with pytest.raises(ValueError, match=r"params\['lam'\] must be"):
        LabState(params={"lam": float("nan")})
    with pytest.raises(ValueError, match="page must be"):
        LabState(page="../x")
    with pytest.raises(ValueError, match="plane must be"):
        LabState(plane=(1, 0, 0, 1))
    assert LabState(params={"lam": np.float64(0.5), "T": np.int64(3)}).params == {
        "lam": 0.5,
        "T": 3,
    }
