"""Figures ready for print: measured on the rendered layout, not on screenshots.

* paper / print: a compact legend inside the plane, the plot area ≥ 75 % of the figure's
  width and of its height (the SVG's plot-area clip rectangle: Plotly's own numbers after
  its automargins, which ``full_figure_for_development`` does not report);
* an HTML animation's play buttons and slider clear of the x axis's tick labels and title
  (boxes of the drawn elements in Chromium);
* PDF shading at the plot's own resolution (the embedded image's pixel size), not the
  page's 60² grid that viewers enlarge into blocks;
* GIF / MP4 frames: a margin above the title (rows of the rendered frame);
* multiclass regions: the edges between the classes of ŷ(x) = argmax_y s_y(x) (SSBD §17.2)
  traced as lines on the score differences.
"""

from __future__ import annotations

import io
import re
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import plotly.graph_objects as go
import pytest
from PIL import Image

from svmlab.export import animation_gif, animation_html, frame_figure, style_figure, to_pdf
from svmlab.export.animation import TITLE_SCALE, title_pad
from svmlab.export.demo import demo_figures
from svmlab.export.render import browser_path, to_svg
from svmlab.plot import figures, playback
from svmlab.plot.look import styles, theme
from svmlab.plot.look.roles import as_array, trace_role
from svmlab.plot.regions import class_boundaries, multiclass_figure

# Tolerance table ------------------------------------------------------------------------
TOL_EDGE = 1e-9  # a vertex on a class edge: linear interpolation of linear scores is exact
TOL_GAP_PX = 2.0  # a control's box vs an axis label's box: anti-aliased text edges
TOL_BOX_PX = 1.0  # the legend's box vs the plot area's, in rounded SVG coordinates
#: (a vertex near a junction of three classes is off by at most one grid cell: the max of
#: the scores kinks there; and a frame's title starts ≥ 6 blank rows below its top edge)

no_chromium = pytest.mark.skipif(browser_path() is None, reason="no Chromium")


@pytest.fixture(scope="module")
def figs():
    out = demo_figures(n=40, n_frames=4)
    plane = go.Figure(out["plane"])
    plane.update_layout(title_text=None)  # the page's plane has no title
    out["plane_untitled"] = plane
    return out


def _roles(fig) -> list[str]:
    return [trace_role(tr.to_plotly_json()) for tr in fig.data]


# -- multiclass edges as lines ----------------------------------------------------------------
def _linear_scores(resolution=41):
    xs, ys, G = figures.grid((-2.0, 2.0), (-2.0, 2.0), resolution)
    W = np.array([[1.0, 0.2], [-0.8, 0.9], [-0.1, -1.0]])
    b = np.array([0.1, -0.2, 0.0])
    return xs, ys, G @ W.T + b, W, b


def test_class_edges_lie_where_the_two_best_scores_tie():
    xs, ys, scores, W, b = _linear_scores()
    x, y = class_boundaries(xs, ys, scores)
    pts = np.column_stack([x, y])[np.isfinite(x)]
    assert len(pts) > 50
    s = np.sort(pts @ W.T + b, axis=1)
    gap = s[:, -1] - s[:, -2]  # 0 on an edge between the two best classes
    cell = xs[1] - xs[0]
    slope = np.abs(W[:, None, :] - W[None, :, :]).sum(axis=2).max()
    assert np.all(gap <= cell * slope)  # never off by more than a cell (at the junction)
    assert np.mean(gap <= TOL_EDGE) >= 0.95  # and exact on every cell edge away from it


def test_each_edge_is_a_line_through_the_plane_not_cell_steps():
    xs, ys, scores, W, b = _linear_scores()
    x, y = class_boundaries(xs, ys, scores)
    # the edge between classes 0 and 1 is a segment of the line (w0 − w1)·x + b0 − b1 = 0
    pts = np.column_stack([x, y])[np.isfinite(x)]
    s = pts @ W.T + b
    top2 = np.sort(np.argsort(s, axis=1)[:, -2:], axis=1)
    on01 = pts[(top2 == [0, 1]).all(axis=1)]
    d = W[0] - W[1]
    dist = np.abs(on01 @ d + b[0] - b[1]) / np.linalg.norm(d)
    assert len(on01) > 10 and dist.max() <= TOL_EDGE


def test_one_class_everywhere_and_ties_draw_no_edge():
    xs, ys, _, _, _ = _linear_scores(11)
    n = len(xs) * len(ys)
    assert class_boundaries(xs, ys, np.column_stack([np.ones(n), np.zeros(n)]))[0].size == 0
    assert class_boundaries(xs, ys, np.zeros((n, 3)))[0].size == 0  # t = 0: all scores 0
    with pytest.raises(ValueError, match="scores"):
        class_boundaries(xs, ys, np.zeros((n + 1, 3)))


def test_regions_figure_draws_the_edges_as_boundary_lines_on_smoothed_regions():
    xs, ys, scores, _, _ = _linear_scores()
    X = np.array([[1.0, 0.0], [-1.0, 1.0], [0.0, -1.5]])
    fig = multiclass_figure(X, np.arange(3), xs, ys, scores)
    roles = _roles(fig)
    assert roles[0] == "regions" and fig.data[0].zsmooth == "fast"
    (edges,) = [tr for tr, r in zip(fig.data, roles, strict=True) if r == "boundary"]
    assert edges.mode == "lines" and edges.meta == figures.BOUNDARY_META
    expected = class_boundaries(xs, ys, scores)[0].astype(np.float32)  # float32 on the wire
    np.testing.assert_array_equal(as_array(edges.x), expected)
    # the themes and the presets style it as the binary plane's boundary
    dark = theme.dark_figure(fig)
    assert next(tr for tr in dark.data if tr.name == edges.name).line.color == theme.DARK["ink"]
    slides = style_figure(fig, "slides")
    assert next(tr for tr in slides.data if tr.name == edges.name).line.width >= 2 * 2.0


def test_the_regions_animation_has_no_edge_lines_its_frames_would_not_move():
    fr = playback.multiclass_frames(
        (-1, 1), (-1, 1), resolution=11, W=np.ones((3, 3, 3)), bias=True
    )
    X = np.zeros((3, 2))
    fig = playback.multiclass_animation_figure(
        X, np.arange(3), fr, k=3, xrange=(-1, 1), yrange=(-1, 1)
    )
    assert "boundary" not in _roles(fig)


# -- layout numbers (no browser) ----------------------------------------------------------------
def test_controls_are_placed_below_the_axis_in_pixels_at_any_size(figs):
    for preset in ("screen", "slides", "paper", "print"):
        layout = style_figure(figs["animation"], preset).layout
        font = layout.font.size
        ticklen = layout.xaxis.ticklen or 5
        below = styles.axis_clearance(font, ticklen)
        menu, slider = layout.updatemenus[0], layout.sliders[0]
        assert (menu.y, menu.yanchor, menu.pad.t) == (0, "top", below)
        assert slider.y == 0 and slider.pad.t >= below
        assert layout.margin.b >= slider.pad.t + 2.9 * font  # the slider's rail and labels


def test_paper_plane_legend_sits_inside_and_the_height_follows_the_axes(figs):
    fig = style_figure(figs["plane_untitled"], "paper")
    legend = fig.layout.legend
    assert legend.orientation == "v" and legend.x in (0, 1) and legend.y in (0, 1)
    assert legend.font.size == pytest.approx(8 * styles.PX_PER_PT)
    (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    m = fig.layout.margin
    plot_w = fig.layout.width - m.l - m.r
    assert fig.layout.height - m.t - m.b == pytest.approx(plot_w * (y1 - y0) / (x1 - x0), abs=1)


def test_the_legend_goes_to_the_corner_with_fewest_points():
    rng = np.random.default_rng(0)
    pts = rng.uniform(0, 1, (200, 2))
    pts = pts[~((pts[:, 0] < 0.3) & (pts[:, 1] < 0.3))]  # the bottom-left corner is empty
    data = [dict(mode="markers", meta=figures.POINTS_META, x=pts[:, 0], y=pts[:, 1])]
    assert styles.legend_corner(data, (0, 1), (0, 1), (0.25, 0.25)) == "bottom left"
    assert styles.legend_corner([], (0, 1), (0, 1), (0.25, 0.25)) == "top right"


def test_frame_titles_have_a_margin_above(figs):
    for preset in ("slides", "paper"):
        still = frame_figure(style_figure(figs["animation"], preset), 0)
        title = still.layout.title
        assert (title.y, title.yref, title.yanchor) == (1, "container", "top")
        size = title.font.size or TITLE_SCALE * still.layout.font.size  # Plotly's default
        assert title.pad.t == title_pad(size) >= 0.35 * size


# -- measured in Chromium -----------------------------------------------------------------------
def _plot_box(svg: str) -> tuple[float, float, float, float, float, float]:
    """(figure width, height, plot x, y, width, height) of a rendered SVG."""
    size = re.search(r'<svg[^>]*width="([\d.]+)" height="([\d.]+)"', svg)
    W, H = (float(v) for v in size.groups())
    m = re.search(
        r'class="axesclip" id="clip\w+?xy"><rect x="([-\d.]+)" y="([-\d.]+)" '
        r'width="([\d.]+)" height="([\d.]+)"',
        svg,
    )
    return (W, H, *map(float, m.groups()))


def _legend_box(svg: str) -> tuple[float, float, float, float]:
    at = re.search(r'<g class="legend"[^>]*transform="translate\(([-\d.]+),\s*([-\d.]+)\)"', svg)
    box = re.search(r'<clipPath id="legend\w+"><rect width="([\d.]+)" height="([\d.]+)"', svg)
    return (*map(float, at.groups()), *map(float, box.groups()))


@pytest.mark.browser
@no_chromium
@pytest.mark.parametrize("preset", ["paper", "print"])
@pytest.mark.parametrize("width", ["single", "double"])
@pytest.mark.parametrize("name", ["plane_untitled", "multiclass"])
def test_paper_plot_area_is_at_least_three_quarters_of_the_figure(figs, preset, width, name):
    svg = to_svg(style_figure(figs[name], preset, width=width)).decode()
    W, H, x, y, w, h = _plot_box(svg)
    assert w / W >= 0.75 and h / H >= 0.75, (w / W, h / H)
    lx, ly, lw, lh = _legend_box(svg)  # the legend inside the plot area
    t = TOL_BOX_PX
    assert x - t <= lx and lx + lw <= x + w + t and y - t <= ly and ly + lh <= y + h + t


@pytest.mark.browser
@no_chromium
def test_paper_plot_area_with_a_title_keeps_most_of_the_figure(figs):
    W, H, _, _, w, h = _plot_box(to_svg(style_figure(figs["plane"], "paper")).decode())
    assert w / W >= 0.75 and h / H >= 0.7, (w / W, h / H)


def _pdf_images(pdf: bytes) -> list[tuple[int, int]]:
    found = re.findall(rb"/Subtype\s*/Image\s*/Width (\d+)\s*/Height (\d+)", pdf)
    return [(int(w), int(h)) for w, h in found]


@pytest.mark.browser
@no_chromium
@pytest.mark.parametrize("preset", ["screen", "slides"])
def test_pdf_shading_has_the_plots_resolution_not_the_grids(figs, preset):
    fig = style_figure(figs["plane"], preset)
    svg = to_svg(fig).decode()
    _, _, _, _, w, h = _plot_box(svg)
    (size,) = _pdf_images(to_pdf(fig))  # the shading, embedded once
    assert size[0] >= round(w) - 1 and size[1] >= round(h) - 1  # ≥ 1 image pixel per CSS px
    assert size[0] > 4 * figures.SHADE_RESOLUTION
    # and it is smooth: neighbouring pixels differ by a few levels, never by a block's step
    pdf = to_pdf(fig)
    m = re.search(rb"/Subtype\s*/Image.*?/Length (\d+)>>\s*stream\r?\n", pdf, re.S)
    raw = zlib.decompress(pdf[m.end() : m.end() + int(m.group(1))])
    img = np.frombuffer(raw[: size[0] * size[1] * 3], np.uint8).reshape(size[1], size[0], 3)
    assert np.abs(np.diff(img.astype(int), axis=1)).max() <= 12


def _rendered_boxes(path) -> dict:
    from playwright.sync_api import sync_playwright

    script = """() => { const r = s => [...document.querySelectorAll(s)].map(e => {
        const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });
      return {ticks: r('.xtick text'), title: r('.xtitle'), buttons: r('.updatemenu-button'),
              slider: r('.slider-group'), plot: r('.nsewdrag')}; }"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(path.as_uri())
            page.wait_for_selector("g.slider-group", timeout=30_000)
            return page.evaluate(script)
        finally:
            browser.close()


def _overlap(a, b, gap=TOL_GAP_PX) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


@pytest.mark.browser
@no_chromium
@pytest.mark.parametrize("preset", [None, "screen", "slides", "paper"])
def test_html_controls_are_clear_of_the_x_axis(figs, tmp_path, preset):
    path = tmp_path / "anim.html"
    path.write_bytes(animation_html(figs["animation"], preset=preset))
    with ThreadPoolExecutor(1) as pool:  # the browser tests may hold a Playwright loop here
        boxes = pool.submit(_rendered_boxes, path).result()
    axis = boxes["ticks"] + boxes["title"]
    controls = boxes["buttons"] + boxes["slider"]
    assert axis and len(boxes["buttons"]) == 4 and boxes["slider"]
    assert not [(c, a) for c in controls for a in axis if _overlap(c, a)]
    lowest = max(a[3] for a in axis)
    assert all(c[1] >= lowest for c in controls)  # under the axis, not beside it


@pytest.mark.browser
@no_chromium
def test_gif_frames_leave_a_margin_above_the_title(figs):
    gif = animation_gif(figs["animation"], preset="slides")
    im = Image.open(io.BytesIO(gif))
    im.seek(0)
    rgb = np.asarray(im.convert("RGB")).astype(int)
    background = rgb[0, 0]
    ink = np.abs(rgb - background).sum(axis=2) > 60  # text and lines
    first = int(np.argmax(ink.any(axis=1)))
    assert first >= 6, first  # the title no longer starts on the top edge
