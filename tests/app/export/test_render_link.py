"""``python -m svmlab render URL -o FILE``: links rendered headlessly; bad links refused.

No timing assertions. Tests that start Chromium (every file written) carry the
``browser`` marker, as in ``tests/app/export/test_export_files.py``; the link checks run without it.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from svmlab.__main__ import main
from svmlab.state.pointset import PointSet
from svmlab.state.urlstate import encode_points
from svmlab.ui.render_link import (
    LinkError,
    page_and_query,
    refused_values,
    render_link,
    shown_from_link,
)

# Tolerance table ------------------------------------------------------------------------
TOL_LINK_POINTS = 1e-12  # the link's points vs the page's: within half a step of the link's 16-bit
# quantization (plane / 65535 per axis) plus this, absolute
# PNG pixel size: exact (preset size × scale 3); magic bytes, exit codes, stderr lines: exact

ROOT = Path(__file__).resolve().parents[3]
PLANE = (-2.0, 3.0, -1.5, 2.0)
MAGIC = {
    "png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    "svg": lambda b: b.lstrip().startswith((b"<svg", b"<?xml")) and b"</svg>" in b[-64:],
    "pdf": lambda b: b.startswith(b"%PDF-") and b"%%EOF" in b[-32:],
    "html": lambda b: (
        b.lstrip().lower().startswith((b"<!doctype html", b"<html")) and b"</html>" in b[-64:]
    ),
    "gif": lambda b: b.startswith(b"GIF89a"),
    "mp4": lambda b: b[4:8] == b"ftyp",
}


def points() -> PointSet:
    """Twelve points of two classes, separable with a margin."""
    rng = np.random.default_rng(7)
    X = np.vstack([rng.normal((-1.0, 0.0), 0.3, (6, 2)), rng.normal((1.5, 0.8), 0.3, (6, 2))])
    return PointSet(X, np.repeat([0, 1], 6))


def link(page: str = "kernel_pegasos", **params) -> str:
    """A share link as the app writes it: page path, v=1, plane=, pts=, widget values."""
    pts = encode_points(points(), PLANE)
    plane = ",".join(repr(v) for v in PLANE)
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"http://localhost:8501/{page}?v=1&plane={plane}&pts={pts}" + (f"&{query}" * bool(query))


# -- reading links (no Chromium) -----------------------------------------------------------
def test_the_link_names_the_page_and_its_query():
    spec, query = page_and_query(link("dual_svm", dual_svm_C="1.0"))
    assert spec.url_path == "dual_svm"
    assert query["dual_svm_C"] == "1.0" and query["v"] == "1"
    spec, query = page_and_query("multiclass?multiclass_k=3")
    assert spec.url_path == "multiclass" and query == {"multiclass_k": "3"}


def test_the_page_runs_on_the_links_points():
    shown = shown_from_link(link("kernel_pegasos"))
    P = points()
    assert shown.algorithm == "kernel_pegasos" and shown.result is not None
    step = np.array([PLANE[1] - PLANE[0], PLANE[3] - PLANE[2]]) / 65535
    assert shown.X.shape == P.X.shape
    assert np.all(np.abs(shown.X - P.X) <= step / 2 + TOL_LINK_POINTS)
    assert np.array_equal(shown.y, np.where(P.c == 1, 1.0, -1.0))
    assert tuple(shown.plane[0]) == PLANE[:2] and tuple(shown.plane[1]) == PLANE[2:]


def test_snap_in_the_link_chooses_the_snapshot():
    assert shown_from_link(link("linear_pegasos", snap="7")).snapshot == 7


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://localhost:8501/nope?v=1", "unknown page 'nope'"),
        ("http://localhost:8501/", "home page"),
        ("", "the link is empty"),
        (link().replace("pts=", "pts=A"), "points cannot be read"),
        (link()[:-6], "points cannot be read"),
        (link().replace("plane=-2.0", "plane=-2.5"), "points cannot be read"),
        (link(kernel_pegasos_gamma="abc"), "refused the link's value(s): kernel_pegasos_gamma"),
        (link(kernel_pegasos_lam="-1"), "refused the link's value(s): kernel_pegasos_lam"),
        (link(snap="x"), "snap must be a snapshot index"),
    ],
)
def test_a_bad_link_is_refused_in_one_sentence(url, message):
    with pytest.raises(LinkError, match=re.escape(message)):
        shown_from_link(url)


TOY_PAGE = """
import streamlit as st
labels = {"ssbd": "SSBD (η = 1/(λt))", "pegasos": "Pegasos"}
st.radio("schedule", list(labels), format_func=labels.get, key="toy_schedule", bind="query-params")
st.select_slider("λ", [0.01, 0.1, 1.0], value=0.1, key="toy_lam", bind="query-params")
st.number_input("T", 1, 10_000, 500, key="toy_T", bind="query-params")
st.checkbox("unbound", key="toy_unbound")
"""


@pytest.mark.parametrize(
    ("query", "refused"),
    [
        ({"toy_schedule": "Pegasos", "toy_lam": "1.0", "toy_T": "700"}, []),  # labels, values
        ({"toy_lam": "0.1", "toy_T": "500", "other": "x"}, []),  # defaults by hand, no widget
        ({"toy_schedule": "pegasos"}, ["toy_schedule='pegasos' (the page shows 'ssbd')"]),
        ({"toy_lam": "0.5", "toy_T": "1e9"}, ["toy_lam='0.5'", "toy_T='1e9'"]),
        ({"toy_unbound": "true"}, ["toy_unbound (this page does not read it from a link)"]),
    ],
)
def test_a_widget_value_the_page_did_not_take_is_named(query, refused, tmp_path):
    from streamlit.testing.v1 import AppTest

    script = tmp_path / "toy.py"
    script.write_text(TOY_PAGE)
    at = AppTest.from_file(str(script), default_timeout=30)
    at.query_params.update(query)
    at.run()
    found = refused_values(query, dict(at.query_params), at)
    assert len(found) == len(refused), found
    assert all(f.startswith(r) for f, r in zip(found, refused, strict=True)), found


def test_bad_options_are_refused_before_rendering(tmp_path):
    with pytest.raises(LinkError, match="must end in one of"):
        render_link(link(), tmp_path / "figure.jpg")
    with pytest.raises(LinkError, match="style must be one of"):
        render_link(link(), tmp_path / "figure.png", style="poster")
    with pytest.raises(LinkError, match=r"snapshot must be in \[-100, 100\)"):
        render_link(link(), tmp_path / "figure.png", snapshot=100)


def test_a_bad_link_exits_non_zero_with_one_line_on_stderr(tmp_path, capsys):
    out = tmp_path / "figure.png"
    assert main(["render", "http://localhost:8501/nope", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("svmlab render: error: unknown page")
    assert not out.exists()


def test_the_module_runs_as_a_command_and_fails_cleanly(tmp_path):
    bad = link().replace("pts=", "pts=A")
    proc = subprocess.run(
        [sys.executable, "-m", "svmlab", "render", bad, "-o", str(tmp_path / "f.svg")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "points cannot be read" in proc.stderr


# -- writing files (Chromium) --------------------------------------------------------------
@pytest.mark.browser
@pytest.mark.parametrize("fmt", list(MAGIC))
def test_every_format_is_written_from_a_link(fmt, tmp_path):
    out = tmp_path / f"figure.{fmt}"
    style = "slides" if fmt in ("png", "gif", "mp4") else "paper"
    assert main(["render", link(), "-o", str(out), "--style", style]) == 0
    data = out.read_bytes()
    assert MAGIC[fmt](data), data[:16]
    assert len(data) > 2_000
    if fmt == "png":
        assert Image.open(io.BytesIO(data)).size == (3 * 1280, 3 * 720)
    if fmt == "gif":
        im = Image.open(io.BytesIO(data))
        assert im.n_frames == 50 and im.size == (1280, 720)
        assert len(data) <= 5_000_000
    if fmt == "html":
        text = data.decode()
        assert not re.search(r'(src|href)="http', text), "no external reference"
        assert "<link" not in text and not re.search(r"<script[^>]*\bsrc=", text)
        assert "Plotly.newPlot" in text and '"sliders"' in text and '"updatemenus"' in text


@pytest.mark.browser
def test_the_snapshot_option_changes_the_figure(tmp_path):
    first, last = tmp_path / "first.svg", tmp_path / "last.svg"
    render_link(link("linear_pegasos"), first, snapshot=0)
    render_link(link("linear_pegasos"), last, snapshot=-1)
    assert first.read_bytes() != last.read_bytes()


@pytest.mark.browser
def test_an_algorithm_without_a_run_writes_stills_and_html_not_gif(tmp_path, monkeypatch):
    import svmlab.ui.render_link as rl

    P = points()
    X, y = P.X, P.c
    params = dict(learner="pegasos", lam=0.01, bias="none", T=300, random_state=0)
    shown = dict(algorithm="one_vs_all", X=X, y=y, params=params, k=0, plane=None)
    monkeypatch.setattr(rl, "shown_from_link", lambda url: shown)
    render_link(link("multiclass"), tmp_path / "f.html")
    assert MAGIC["html"]((tmp_path / "f.html").read_bytes())
    with pytest.raises(LinkError, match="no run to animate"):
        render_link(link("multiclass"), tmp_path / "f.gif")
    assert not (tmp_path / "f.gif").exists()


def test_figure_bytes_refuses_a_bad_format_or_a_still_figure_for_a_gif():
    import plotly.graph_objects as go

    from svmlab.export import figure_bytes

    with pytest.raises(ValueError, match="fmt must be one of png, svg, pdf, html, gif, mp4"):
        figure_bytes(go.Figure(), "jpg")
    with pytest.raises(ValueError, match="fig must be an animation figure"):
        figure_bytes(go.Figure(), "gif")


def test_renders_help_says_that_the_output_follows_a_symlink():
    from svmlab.__main__ import parser

    render = parser()._subparsers._group_actions[0].choices["render"]
    (output,) = [a for a in render._actions if "--output" in a.option_strings]
    assert "symbolic link is followed" in output.help
