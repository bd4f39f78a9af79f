"""Reproduce in Python (svmlab.export.reproduce): the generated script recreates the page's figure.

Each registry algorithm is taken from its page run headlessly (Streamlit's AppTest), so
The run context the page recorded (session key ``SHOWN``) is the input; the script runs in a
subprocess and writes Plotly's JSON; the app's figure is ``runners.plane_at`` (the page's
own call).
"""

from __future__ import annotations

import base64
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from svmlab.algorithms import ALGORITHMS
from svmlab.export.reproduce import (
    animation_of,
    check_shown,
    curves_figure_of,
    plane_figure_of,
    py_literal,
    reproduce_script,
)
from svmlab.state.run_context import RunContext
from svmlab.ui import runners, session

# Tolerance table ------------------------------------------------------------------------
TOL_FIGURE = 1e-12  # script's figure vs the app's figure (decision values z, points x/y, sizes),
# absolute: the same floats (repr round-trips) through the same NumPy code; any drift is a
# defect; embedded points vs the page's points: exact (repr of a float reads back
# bit-identically)

TIMEOUT_S = 120
ROOT = Path(__file__).resolve().parents[3]
PAGE_FILES = {"linear": "linear_pegasos", "kernel": "kernel_pegasos", "dual": "dual_svm"}


def shown_on_page(key: str, **widgets) -> RunContext:
    """The page of ``key`` run headlessly with its algorithm chosen; the run it drew."""
    spec = ALGORITHMS[key]
    at = AppTest.from_file(
        str(ROOT / "pages" / f"{PAGE_FILES.get(spec.page, spec.page)}.py"),
        default_timeout=TIMEOUT_S,
    )
    at.run()
    if spec.n_classes is None:  # three classes on the multiclass page
        at.button(key="multiclass_load_blobs").click().run()
    if f"{spec.page}_algo" in at.session_state:
        at.radio(key=f"{spec.page}_algo").set_value(key).run()
    for name, value in widgets.items():
        at.session_state[name] = value
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    shown = at.session_state[session.SHOWN]
    assert isinstance(shown, RunContext) and shown.algorithm == key
    return shown


def app_figure(shown):
    """The page's plane at snapshot k: ``runners.plane_at`` as ``plane.plane_figures`` calls it
    (on a light page without a split: no look)."""
    ctx = runners.ran(RunContext.of(shown))
    view = runners.view(ctx)
    hl = None if view.trace is None else runners.sampled_index(view.trace, ctx.snapshot)
    return runners.plane_at(ctx, highlight=hl)


def numeric(value):
    """``value`` as a float array (Plotly's typed-array JSON decoded), or None."""
    if isinstance(value, dict) and "bdata" in value:  # plotly.js typed array, exact bytes
        a = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        value = a.reshape([int(v) for v in str(shape).split(",")]) if shape else a
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return a if a.size else None


def assert_same_figure(got, want) -> int:
    """Every trace's x, y, z and marker sizes equal to TOL_FIGURE; returns the arrays compared."""
    assert len(got.data) == len(want.data)
    compared = 0
    for a, b in zip(got.data, want.data, strict=True):
        assert a.type == b.type
        for name in ("x", "y", "z"):
            wb = numeric(getattr(b, name, None))
            if wb is None:
                continue
            wa = numeric(getattr(a, name, None))
            assert wa is not None and wa.shape == wb.shape, (b.type, name)
            np.testing.assert_allclose(wa, wb, rtol=0, atol=TOL_FIGURE, err_msg=f"{b.type}.{name}")
            compared += 1
        if getattr(b, "marker", None) is not None and numeric(b.marker.size) is not None:
            np.testing.assert_allclose(
                numeric(a.marker.size), numeric(b.marker.size), atol=TOL_FIGURE
            )
    return compared


def run_script(src: str, tmp_path: Path):
    script = tmp_path / "reproduce.py"
    script.write_text(src)
    out = tmp_path / "figure.json"
    proc = subprocess.run(
        [sys.executable, str(script), str(out)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return pio.from_json(out.read_text())


@pytest.mark.parametrize("key", list(ALGORITHMS))
def test_the_script_recreates_the_pages_figure(key, tmp_path):
    shown = shown_on_page(key)
    src = reproduce_script(shown)
    assert len(src.splitlines()) < 160 + len(shown.X) // 2, "short: the points and a few lines"
    assert f"svmcore.{ALGORITHMS[key].fn.__name__}(" in src, "it calls the svmcore function"
    got = run_script(src, tmp_path)
    want = app_figure(shown)
    assert assert_same_figure(got, want) >= 3, "the grid values and the points were compared"


def test_a_changed_setting_and_an_earlier_snapshot_are_reproduced(tmp_path):
    shown = shown_on_page("kernel_pegasos", kernel_pegasos_kernel="poly")
    shown = shown.at(17)  # an earlier snapshot than the page's last one
    assert shown.params["kernel"] == "poly"
    got = run_script(reproduce_script(shown), tmp_path)
    assert_same_figure(got, app_figure(shown))
    with pytest.raises(AssertionError):  # the snapshot matters: k = 17 is not the last one
        assert_same_figure(got, app_figure(shown.at(shown.snapshot + 60)))


def test_the_script_embeds_the_points_exactly():
    X = np.array([[0.1, 1 / 3], [-2.5e-7, 7.0], [math.pi, -math.e]])
    y = np.array([-1.0, 1.0, 1.0])
    shown = dict(
        algorithm="pegasos",
        X=X,
        y=y,
        params=dict(lam=0.1, T=30, random_state=3),
        k=2,
        plane=((-3.0, 4.0), (-3.0, 8.0)),
    )
    src = reproduce_script(shown)
    ns: dict = {}
    exec(compile(src.split("# The run:")[0], "script", "exec"), ns)
    assert np.array_equal(ns["X"], X) and np.array_equal(ns["y"], y)
    assert ns["y"].dtype == y.dtype


def test_pure_rebuilds_equal_the_runners():
    shown = dict(
        algorithm="kernel_pegasos",
        X=np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]),
        y=np.array([-1.0, 1.0, 1.0]),
        params=dict(lam=0.1, T=50, random_state=0),
        k=3,
        plane=None,
    )
    assert_same_figure(plane_figure_of(shown), app_figure(shown))
    assert curves_figure_of(shown) is not None
    anim = animation_of(shown, n_frames=5)
    assert len(anim.frames) == 5


def test_py_literal_writes_plain_python():
    value = {"a": np.float64(0.1), "b": (1, np.int64(2)), "c": [True, None, "x"], "d": math.inf}
    assert eval(py_literal(value)) == {"a": 0.1, "b": (1, 2), "c": [True, None, "x"], "d": math.inf}
    assert py_literal((1,)) == "(1,)"
    assert math.isnan(eval(py_literal(float("nan"))))
    with pytest.raises(ValueError, match="value must be a plain Python value"):
        py_literal(object())


@pytest.mark.parametrize(
    ("shown", "match"),
    [
        ([], "shown must be a RunContext or a dict"),
        ({"algorithm": "pegasos"}, "missing"),
        (dict(algorithm="nope", X=[[0, 0]], y=[1], params={}, k=0, plane=None), "registry key"),
        (dict(algorithm="pegasos", X=[0, 0], y=[1], params={}, k=0, plane=None), r"\(n, 2\)"),
        (dict(algorithm="pegasos", X=[[0, 0]], y=[1], params=[], k=0, plane=None), "params"),
    ],
)
def test_bad_shown_is_refused_by_name(shown, match):
    with pytest.raises(ValueError, match=match):
        check_shown(shown)


def test_a_snapshot_outside_the_run_is_refused():
    shown = dict(
        algorithm="pegasos",
        X=[[0.0, 0.0], [1.0, 1.0]],
        y=[-1.0, 1.0],
        params=dict(lam=0.1, T=10, random_state=0),
        k=10_000,
        plane=None,
    )
    with pytest.raises(ValueError, match="k must be a snapshot index"):
        plane_figure_of(shown)
