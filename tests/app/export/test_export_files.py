"""Figure and animation export (svmlab.export): presets, PNG/SVG/PDF, HTML/GIF/MP4.

No timing assertions (the times live in benchmarks/bench_export.py). Tests that start
Chromium carry the ``browser`` marker and are skipped without it (unless CI is set).
"""

from __future__ import annotations

import ast
import io
import os
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from svmlab.export import (
    PRESETS,
    animation_gif,
    animation_html,
    animation_mp4,
    frame_count,
    frame_figure,
    plain_text,
    style_figure,
    to_pdf,
    to_png,
    to_svg,
)
from svmlab.export.demo import demo_figures
from svmlab.export.render import browser_path, offline_page
from svmlab.plot.look.roles import as_array, trace_role
from svmlab.plot.look.styles import PX_PER_PT
from svmlab.state.classes import CLASS_COLORS

# Tolerance table: none — every check is exact (magic bytes, pixel sizes, font sizes in CSS px
# against 24 pt = 32 px and 8 pt = 10.67 px to 0.01 px, trace attributes).

ROOT = Path(__file__).resolve().parents[3]
_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
no_chromium = pytest.mark.skipif(browser_path() is None and not _CI, reason="no Chromium")


@pytest.fixture(scope="module")
def figs():
    return demo_figures(n=24, n_frames=4)


def roles(fig) -> list[str]:
    return [trace_role(tr.to_plotly_json()) for tr in fig.data]


def traces(fig, role: str):
    return [tr for tr, r in zip(fig.data, roles(fig), strict=True) if r == role]


def font_sizes(node) -> list[float]:
    """Every ``font.size`` in a layout dict (titles, axes, legend, annotations, controls)."""
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("font", "tickfont") and isinstance(value, dict) and "size" in value:
                out.append(float(value["size"]))
            if key != "template":
                out += font_sizes(value)
    elif isinstance(node, list):
        for value in node:
            out += font_sizes(value)
    return out


# --- plain Unicode text (no MathJax) --------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        ("$\\lambda = 0.1$", "λ = 0.1"),
        ("slack $\\xi_i$ and $\\alpha_{ij}$", "slack ξᵢ and αᵢⱼ"),
        ("$\\gamma \\geq 0$, $x^2$", "γ ≥ 0, x²"),
        ("$$\\sum_i \\alpha_i y_i = 0$$", "Σᵢ αᵢ yᵢ = 0"),
        ("no maths here", "no maths here"),
        ("$w_{q}$", "w<sub>q</sub>"),  # no Unicode subscript q: Plotly's markup
    ],
)
def test_plain_text_turns_latex_into_unicode(latex, plain):
    assert plain_text(latex) == plain


def test_plain_text_passes_non_strings_through():
    assert plain_text(None) is None
    assert plain_text(3) == 3


def test_styled_figure_has_no_latex_left(figs):
    styled = style_figure(figs["plane"], "slides")
    assert "$" not in styled.layout.title.text
    assert "λ = 0.05" in styled.layout.title.text and "γ = 2" in styled.layout.title.text


# --- roles: which trace is what -------------------------------------------------------


def test_roles_of_every_app_figure(figs):
    plane = roles(figs["plane"])
    for role in ("shading", "boundary", "margin", "support"):
        assert plane.count(role) == 1, (role, plane)
    assert plane.count("highlight") == 2, "the yellow ring and its dark outline"
    assert plane.count("points") == 2
    anim = roles(figs["animation"])
    assert anim.count("shading") == 1 and anim.count("boundary") == 1
    assert anim.count("points") == 2 and "support" in anim and "highlight" in anim
    assert set(roles(figs["curves"])) == {"line"}
    assert roles(figs["alpha"]) == ["bars"]
    multi = roles(figs["multiclass"])
    assert multi[0] == "regions" and multi.count("points") == 3


def test_as_array_decodes_plotly_typed_arrays(figs):
    d = figs["plane"].to_dict()
    z = as_array(d["data"][0]["z"])
    assert z.shape == np.asarray(figs["plane"].data[0].z).shape
    np.testing.assert_array_equal(z, np.asarray(figs["plane"].data[0].z))


# --- presets --------------------------------------------------------------------------


def test_style_figure_returns_a_copy(figs):
    before = figs["plane"].to_json()
    style_figure(figs["plane"], "print", shading=False, legend=False, ticks=False)
    assert figs["plane"].to_json() == before


@pytest.mark.parametrize("name", ["plane", "curves", "alpha", "multiclass", "animation"])
def test_slides_text_is_at_least_24_pt(figs, name):
    fig = style_figure(figs[name], "slides")
    sizes = font_sizes(fig.layout.to_plotly_json())
    assert sizes and min(sizes) / PX_PER_PT >= 24 - 1e-9, sizes
    assert (fig.layout.width, fig.layout.height) == (1280, 720)


def test_slides_thicken_lines_and_markers(figs):
    screen, slides = style_figure(figs["plane"], "screen"), style_figure(figs["plane"], "slides")
    for role in ("boundary", "margin"):
        assert traces(slides, role)[0].line.width >= 2 * traces(screen, role)[0].line.width
    small = [np.min(as_array(tr.marker.size)) for tr in traces(screen, "points")]
    big = [np.min(as_array(tr.marker.size)) for tr in traces(slides, "points")]
    assert all(b >= 16 and b > s for b, s in zip(big, small, strict=True))
    assert not slides.layout.xaxis.showgrid and not slides.layout.yaxis.showgrid


def test_slides_label_log_axes_by_decades_in_the_palette(figs):
    fig = style_figure(figs["curves"], "slides")
    log_axes = [a for a in fig.layout if a.startswith("xaxis") and fig.layout[a].type == "log"]
    assert len(log_axes) == 3 and all(fig.layout[a].dtick == 1 for a in log_axes)
    assert tuple(fig.layout.colorway) == CLASS_COLORS


def test_slides_scale_the_marker_sizes_of_every_frame(figs):
    fig = style_figure(figs["animation"], "slides")
    point_ids = [i for i, r in enumerate(roles(fig)) if r == "points"]
    for frame in fig.frames:
        for tid, tr in zip(frame.traces, frame.data, strict=True):
            if tid in point_ids:
                assert np.min(as_array(tr.marker.size)) >= 16


@pytest.mark.parametrize(("width", "px"), [(None, 336), ("single", 336), ("double", 672)])
def test_paper_is_a_column_wide_with_8_pt_sans_serif(figs, width, px):
    fig = style_figure(figs["plane"], "paper", width=width)
    assert fig.layout.width == px  # 3.5 in or 7 in at 96 px per inch
    assert fig.layout.font.size == pytest.approx(8 * 96 / 72)
    assert fig.layout.font.family.endswith("sans-serif")
    assert set(font_sizes(fig.layout.to_plotly_json())) <= {8 * PX_PER_PT, 9 * PX_PER_PT}


def test_paper_shading_is_vector_filled_contours(figs):
    fig = style_figure(figs["plane"], "paper")
    assert not [tr for tr in fig.data if tr.type == "heatmap"]
    shade = traces(fig, "shading")[0]
    assert shade.type == "contour" and shade.contours.coloring == "fill"


def _is_gray(colour: str) -> bool:
    h = colour.lstrip("#")
    return len(h) == 6 and h[0:2] == h[2:4] == h[4:6]


def test_print_tells_classes_and_lines_apart_without_colour(figs):
    plane = style_figure(figs["plane"], "print")
    points = traces(plane, "points")
    symbols = [tr.marker.symbol for tr in points]
    assert len(set(symbols)) == len(symbols) == 2
    assert all(_is_gray(tr.marker.color) for tr in points)
    assert traces(plane, "boundary")[0].line.dash != traces(plane, "margin")[0].line.dash
    rings = traces(plane, "support") + traces(plane, "highlight")
    assert len({tr.marker.symbol for tr in rings}) == 2
    assert all(_is_gray(c) for _, c in traces(plane, "shading")[0].colorscale)
    multi = style_figure(figs["multiclass"], "print")
    assert len({tr.marker.symbol for tr in traces(multi, "points")}) == 3
    assert all(_is_gray(c) for _, c in multi.data[0].colorscale)


def test_print_gives_lines_of_one_subplot_different_dashes():
    import plotly.graph_objects as go

    fig = go.Figure([go.Scatter(x=[1, 2], y=[1, 2], name=n, mode="lines") for n in "abc"])
    styled = style_figure(fig, "print")
    assert len({tr.line.dash for tr in styled.data}) == 3
    assert all(_is_gray(tr.line.color) for tr in styled.data)


def test_the_other_iterates_boundary_stays_dashed_in_every_preset():
    """The last iterate's boundary beside the averaged output's (the convergence toggle)
    is dashed on the page; exported, it must stay dashed, the output's solid."""
    import plotly.graph_objects as go

    from svmlab.plot.convergence_figure import last_boundary_trace
    from svmlab.plot.figures import boundary_trace

    xs = ys = np.linspace(-1.0, 1.0, 5)
    Z = np.add.outer(ys, xs)
    fig = go.Figure([boundary_trace(xs, ys, Z), last_boundary_trace(xs, ys, Z - 0.3)])
    for preset in ("screen", "slides", "paper", "print"):
        out = style_figure(fig, preset)
        assert [trace_role(t.to_plotly_json()) for t in out.data] == ["boundary", "boundary"]
        assert out.data[0].line.dash in (None, "solid")
        assert out.data[1].line.dash == "dash", preset


def test_print_bars_get_gray_and_a_pattern_per_class(figs):
    bars = style_figure(figs["alpha"], "print").data[0]
    assert all(_is_gray(c) for c in bars.marker.color)
    assert len(set(bars.marker.pattern.shape)) == 2  # the two classes


def test_hide_options_remove_what_they_hide(figs):
    plane = style_figure(figs["plane"], "screen", shading=False, legend=False, ticks=False)
    assert traces(plane, "shading")[0].visible is False
    assert plane.layout.showlegend is False
    for axis in (plane.layout.xaxis, plane.layout.yaxis):
        assert axis.showticklabels is False and axis.ticks == ""
    anim = style_figure(figs["animation"], "slides", shading=False)
    assert roles(figs["animation"])[0] == "shading" and roles(anim)[0] == "margin"
    assert anim.data[0].contours.coloring == "none"  # its margin lines f = ±1 stay
    multi = style_figure(figs["multiclass"], "paper", shading=False)
    assert multi.data[0].visible is False
    shown = style_figure(figs["plane"], "screen")
    assert traces(shown, "shading")[0].visible is not False and shown.layout.showlegend


def test_bad_arguments_raise_value_errors(figs):
    with pytest.raises(ValueError, match="preset"):
        style_figure(figs["plane"], "poster")
    with pytest.raises(ValueError, match="width"):
        style_figure(figs["plane"], "paper", width="triple")
    with pytest.raises(ValueError, match="width"):
        style_figure(figs["plane"], "paper", width=float("nan"))
    with pytest.raises(ValueError, match="fig must be an animation"):
        animation_gif(figs["plane"], fps=5)
    with pytest.raises(ValueError, match="fps"):
        animation_mp4(figs["animation"], fps=0)
    with pytest.raises(ValueError, match="index"):
        frame_figure(figs["animation"], 99)
    with pytest.raises(ValueError, match="fmt"):
        from svmlab.export.render import render

        render(figs["plane"], "bmp")


# --- frames and HTML (no browser) -----------------------------------------------------


def test_frame_figure_is_a_still_with_the_iteration_in_the_title(figs):
    anim = figs["animation"]
    assert frame_count(anim) == 4 and frame_count(figs["plane"]) == 0
    first = frame_figure(anim, 0)
    assert not first.frames and not first.layout.sliders and not first.layout.updatemenus
    label = anim.layout.sliders[0].steps[0].label
    assert first.layout.title.text == f"t = {label}"
    np.testing.assert_array_equal(as_array(first.data[0].z), as_array(anim.frames[0].data[0].z))
    last = frame_figure(anim, -1)
    assert not np.array_equal(as_array(first.data[0].z), as_array(last.data[0].z))


def test_html_is_self_contained_and_plays(figs):
    html = animation_html(figs["animation"], preset="slides").decode("utf-8")
    assert not re.search(r'(src|href)="http', html)
    assert not re.search(r"<script[^>]*\bsrc=", html) and "<link" not in html
    assert "plotly.js v" in html and len(html) > 3_000_000  # plotly.js inlined
    assert '"frames"' in html.replace(" ", "") or "addFrames" in html
    assert "sliders" in html and "updatemenus" in html  # scrub, play and pause


def test_offline_render_page_loads_local_scripts_only():
    page = offline_page().generate_index()
    srcs = re.findall(r'src="([^"]+)"', page)
    assert srcs and all(s.startswith("file://") for s in srcs)
    assert any(s.endswith("plotly.min.js") for s in srcs)
    assert "mathjax" not in page.lower()


def test_export_modules_do_not_import_streamlit():
    for path in sorted((ROOT / "svmlab" / "export").glob("*.py")):
        tree = ast.parse(path.read_text())
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not any(m.split(".")[0] == "streamlit" for m in mods), path.name
        assert len(path.read_text().splitlines()) <= 400, path.name


# --- rendering through Chromium -------------------------------------------------------


@pytest.mark.browser
@no_chromium
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_png_has_the_figure_size_times_scale(figs, preset):
    fig = style_figure(figs["plane"], preset)
    png = to_png(fig, scale=3)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).size == (3 * fig.layout.width, 3 * fig.layout.height)


@pytest.mark.browser
@no_chromium
def test_png_of_an_unsized_figure_uses_the_default_size(figs):
    png = to_png(figs["curves"], scale=1)
    assert Image.open(io.BytesIO(png)).size == (700, figs["curves"].layout.height)


@pytest.mark.browser
@no_chromium
def test_svg_is_plain_unicode_text_and_paper_svg_has_no_image(figs):
    screen = to_svg(style_figure(figs["plane"], "screen")).decode("utf-8")
    assert screen.lstrip().startswith("<svg") and screen.rstrip().endswith("</svg>")
    assert "λ = 0.05" in screen and "\\lambda" not in screen
    assert "<image" in screen  # the heatmap shading is embedded as an image
    paper = to_svg(style_figure(figs["plane"], "paper")).decode("utf-8")
    assert "<image" not in paper and "<path" in paper  # all vector
    assert not re.search(r'(src|href)="http', paper)


@pytest.mark.browser
@no_chromium
def test_pdf_is_one_vector_page(figs):
    pdf = to_pdf(style_figure(figs["plane"], "paper", width="double"))
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 1


@pytest.mark.browser
@no_chromium
def test_gif_has_every_frame_and_reports_progress(figs):
    calls = []
    gif = animation_gif(
        figs["animation"], fps=4, preset="paper", progress=lambda i, n: calls.append((i, n))
    )
    assert gif.startswith(b"GIF89a") and len(gif) <= 5_000_000
    im = Image.open(io.BytesIO(gif))
    assert im.n_frames == 4 and im.size == (
        336,
        style_figure(figs["animation"], "paper").layout.height,
    )
    assert im.info["duration"] == 250 and im.info.get("loop") == 0
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


@pytest.mark.browser
@no_chromium
def test_mp4_is_an_mp4_with_progress(figs):
    calls = []
    mp4 = animation_mp4(
        figs["animation"], fps=5, preset="print", progress=lambda i, n: calls.append(i)
    )
    assert mp4[4:8] == b"ftyp" and b"moov" in mp4 and b"avc1" in mp4
    assert calls == [1, 2, 3, 4]


def test_a_missing_browser_is_a_clear_error(figs, monkeypatch):
    from svmlab.export import close_renderer

    close_renderer()
    monkeypatch.setenv("SVMLAB_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(RuntimeError, match="figure export needs Chromium"):
        to_svg(figs["alpha"])


@pytest.mark.browser
@no_chromium
def test_concurrent_frame_exports_do_not_mix_frames(figs):
    from concurrent.futures import ThreadPoolExecutor

    from svmlab.export.render import png_frames

    styled = style_figure(figs["animation"], "paper")
    stills = [frame_figure(styled, 0), frame_figure(styled, -1)]
    alone = [next(png_frames([fig])) for fig in stills]
    assert alone[0] != alone[1]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda fig: list(png_frames([fig] * 3)), stills))
    assert together == [[alone[0]] * 3, [alone[1]] * 3]


@pytest.mark.browser
@no_chromium
def _play_html(path: Path) -> tuple[list[str], str, str]:
    """Requests made, and the plot's drawing before and after scrubbing to frame 0."""
    from playwright.sync_api import sync_playwright

    requests = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path(), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri())
            page.wait_for_selector("g.slider-group", timeout=30_000)
            assert page.locator("g.updatemenu-button").count() == 4  # 3 speeds + pause
            drawn = "document.querySelector('.cartesianlayer').innerHTML"
            before = page.evaluate(drawn)
            page.evaluate(
                "Plotly.animate(document.querySelector('.js-plotly-plot'), ['0'], "
                "{frame: {duration: 0, redraw: true}, transition: {duration: 0}})"
            )
            page.wait_for_timeout(500)
            return requests, before, page.evaluate(drawn)
        finally:
            browser.close()


@pytest.mark.browser
@no_chromium
def test_html_plays_offline_in_chromium(figs, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "run.html"
    path.write_bytes(animation_html(figs["animation"]))
    # a thread of its own: the browser tests may hold a Playwright loop in this one
    with ThreadPoolExecutor(1) as pool:
        requests, before, after = pool.submit(_play_html, path).result()
    assert requests and [u for u in requests if not u.startswith(("file:", "data:"))] == []
    assert before != after  # scrubbing to frame 0 redrew the boundary and the points
