"""Screen themes (:mod:`svmlab.plot.look.theme`): contrast on dark pages, the projector look."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from svmlab.plot.figures import plane_figure, tint
from svmlab.plot.look import theme
from svmlab.plot.look.roles import as_array, trace_role
from svmlab.plot.playback import animation_figure, decision_frames
from svmlab.plot.regions import multiclass_figure
from svmlab.plot.split_figure import TEST_META
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS

# Tolerance table ------------------------------------------------------------------------
TOL_CONTRAST = 1e-2  # WCAG contrast ratios of known pairs, absolute: the published values have
# 2 decimals; contrast thresholds (3 : 1, 4.5 : 1, …): inequalities, no tolerance (WCAG 2.1
# 1.4.3, 1.4.11); colours, sizes, font sizes: exact (set by the theme, no arithmetic error)

BG = theme.DARK["background"]


def _plane():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0)
    xs = ys = np.linspace(-3, 3, 25)
    gx, gy = np.meshgrid(xs, ys)
    Z = gx + 0.3 * gy
    return plane_figure(
        X, y, xs, ys, Z, support=np.arange(5), xrange=(-3, 3), yrange=(-3, 3), title="t = 1"
    )


def _by_role(fig, role):
    return [tr for tr in fig.to_dict()["data"] if trace_role(tr) == role]


# -- colour arithmetic, checked against WCAG's own numbers -----------------------------------
@pytest.mark.parametrize(
    ("a", "b", "ratio"),
    [
        ("#000000", "#FFFFFF", 21.0),  # the maximum
        ("#FFFFFF", "#FFFFFF", 1.0),  # the minimum
        ("#777777", "#FFFFFF", 4.48),  # WebAIM's classic just-below-AA grey
        ("#767676", "#FFFFFF", 4.54),  # and the first grey that passes AA
    ],
)
def test_contrast_ratio_matches_wcag_reference_values(a, b, ratio):
    assert theme.contrast_ratio(a, b) == pytest.approx(ratio, abs=TOL_CONTRAST)
    assert theme.contrast_ratio(b, a) == theme.contrast_ratio(a, b)


def test_relative_luminance_of_the_primaries_is_the_srgb_weights():
    assert theme.relative_luminance("#FF0000") == pytest.approx(0.2126)
    assert theme.relative_luminance("#00FF00") == pytest.approx(0.7152)
    assert theme.relative_luminance("#0000FF") == pytest.approx(0.0722)


def test_mix_goes_from_the_colour_to_the_background():
    assert theme.mix("#0072B2", BG, 0.0) == "#0072b2"
    assert theme.mix("#0072B2", BG, 1.0) == BG.lower()
    # the light figures' tint is the same mix with white
    assert theme.mix("#D55E00", "#FFFFFF", 0.55) == tint("#D55E00", 0.55)


@pytest.mark.parametrize(
    ("colour", "amount", "words"), [("blue", 0.5, "colour"), ("#0072B2", 1.5, "amount")]
)
def test_bad_colours_and_amounts_are_refused_by_name(colour, amount, words):
    with pytest.raises(ValueError, match=words):
        theme.mix(colour, BG, amount)


# -- the dark theme keeps the colour-blind-safe palette readable ----------------------------
def test_every_class_colour_has_3_to_1_contrast_on_the_dark_background():
    ratios = [theme.contrast_ratio(c, BG) for c in CLASS_COLORS]
    assert min(ratios) >= 3.0, ratios  # WCAG 1.4.11 (graphical objects)


def test_points_stand_out_from_the_dark_shading_at_least_as_well_as_on_white():
    fig = theme.dark_figure(_plane())
    scale = [c for _, c in _by_role(fig, "shading")[0]["colorscale"]]
    light = [tint(c, 0.55) for c in CLASS_COLORS[:2]] + ["#ffffff"]
    dark_min = min(theme.contrast_ratio(c, s) for c in CLASS_COLORS for s in scale)
    light_min = min(theme.contrast_ratio(c, s) for c in CLASS_COLORS for s in light)
    assert dark_min >= max(2.0, light_min), (dark_min, light_min)
    # the points' white outline and the light boundary stand out from every shade
    assert min(theme.contrast_ratio("#FFFFFF", s) for s in scale) >= 7.0
    assert min(theme.contrast_ratio(theme.DARK["ink"], s) for s in scale) >= 4.5


def test_dark_figure_recolours_page_shading_and_lines_but_keeps_the_classes():
    light = _plane()
    before = light.to_dict()
    fig = theme.dark_figure(light)
    assert light.to_dict() == before, "the input figure is not changed"
    assert fig.layout.paper_bgcolor == BG and fig.layout.plot_bgcolor == BG
    assert fig.layout.font.color == theme.DARK["text"]
    (shade,) = _by_role(fig, "shading")
    assert [c for _, c in shade["colorscale"]][1] == BG  # f(x) = 0 is the background
    for role in ("boundary", "margin"):
        assert [tr["line"]["color"] for tr in _by_role(fig, role)] == [theme.DARK["ink"]]
    (support,) = _by_role(fig, "support")
    assert support["marker"]["color"] == theme.DARK["ink"]
    points = _by_role(fig, "points")
    assert [p["marker"]["color"] for p in points] == list(CLASS_COLORS[:2])
    assert [p["marker"]["symbol"] for p in points] == list(CLASS_SYMBOLS[:2])


def test_inplace_restyles_the_figure_itself_as_the_copy_would():
    fig = _plane()
    copy = theme.dark_figure(fig)
    assert fig.layout.paper_bgcolor != BG, "the copy left the original alone"
    same = theme.dark_figure(fig, inplace=True)
    assert same is fig and same.to_dict() == copy.to_dict()


def _regions_problem(*, n: int, k: int, seed: int):
    """n random points of k classes and the scores (x₁, −x₁, x₂, −x₂)[:k] on a 9² grid."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.arange(n) % k
    xs = ys = np.linspace(-2, 2, 9)
    G = np.array([(a, b) for b in ys for a in xs])
    scores = np.column_stack([G[:, 0], -G[:, 0], G[:, 1], -G[:, 1]])[:, :k]
    return X, y, xs, ys, G, scores


def test_dark_multiclass_regions_fade_each_class_into_the_background():
    X, y, xs, ys, _, scores = _regions_problem(n=12, k=4, seed=1)
    fig = theme.dark_figure(multiclass_figure(X, y, xs, ys, scores))
    (regions,) = _by_role(fig, "regions")
    colours = [c for _, c in regions["colorscale"]][::2]
    assert colours == [theme.mix(CLASS_COLORS[j], BG, theme.REGION_FADE) for j in range(4)]


def test_ambiguous_cells_stay_grey_and_the_others_clear_on_both_pages():
    X, y, xs, ys, G, scores = _regions_problem(n=9, k=3, seed=2)
    amb = G[:, 0] > 1.0  # the right edge: claimed by no class or several
    light = multiclass_figure(X, y, xs, ys, scores, ambiguity=amb)
    for fig in (light, theme.dark_figure(light)):
        (a,) = _by_role(fig, "ambiguity")
        z = as_array(a["z"])  # on the wire: int8
        assert z.dtype == np.int8 and np.array_equal(z.ravel(), amb.astype(np.int8))
        scale = a["colorscale"]
        low = [c for s, c in scale if s < 0.5]  # z = 0 (zmin): not ambiguous
        high = [c for s, c in scale if s > 0.5]  # z = 1: ambiguous
        assert low and all(c.replace(" ", "").endswith(",0)") for c in low), scale
        assert high and not any(c.replace(" ", "").endswith(",0)") for c in high), scale


def test_dark_animation_keeps_its_frames_and_draws_light_margins():
    X = np.array([[-1.0, 0.0], [1.0, 0.0]])
    y = np.array([-1.0, 1.0])
    W = np.array([[1.0, 0.0], [1.0, 0.5], [1.0, 1.0], [0.5, 1.0]])  # w at 4 snapshots
    frames = decision_frames((-2, 2), (-2, 2), resolution=12, coef=W)
    anim = animation_figure(X, y, frames, xrange=(-2, 2), yrange=(-2, 2))
    fig = theme.dark_figure(anim)
    assert len(fig.frames) == len(anim.frames) == 4
    (shade,) = _by_role(fig, "shading")
    assert shade["line"]["color"] == theme.DARK["ink"]
    assert fig.layout.updatemenus[0].bgcolor == theme.DARK["panel"]


# -- the projector ------------------------------------------------------------------------
def test_projector_figure_has_large_text_thick_lines_and_big_markers():
    light = _plane()
    fig = theme.projector_figure(light)
    assert fig.layout.font.size >= 24 and fig.layout.font.color == "#000000"
    assert fig.layout.xaxis.tickfont.size >= 24 and fig.layout.legend.font.size >= 24
    assert fig.layout.width is None and fig.layout.height is None  # the page sizes it
    assert tuple(fig.layout.margin[s] for s in "lrtb") == theme.PROJECTOR_MARGIN
    (b0,), (b1,) = _by_role(light, "boundary"), _by_role(fig, "boundary")
    assert b1["line"]["width"] >= 2 * b0["line"]["width"]
    s0 = as_array(_by_role(light, "points")[0]["marker"]["size"]).astype(float)
    s1 = as_array(_by_role(fig, "points")[0]["marker"]["size"]).astype(float)
    assert np.all(s1 >= 1.8 * s0 - 1e-9)


def test_projector_dark_and_page_figure_choose_the_look():
    light = _plane()
    dark = theme.projector_figure(light, dark=True)
    assert dark.layout.paper_bgcolor == BG and dark.layout.font.size >= 24
    assert theme.page_figure(light, None) is light
    assert theme.page_figure(light, theme.PageLook()) is light
    assert theme.page_figure(light, theme.PageLook(dark=True)).layout.paper_bgcolor == BG
    assert theme.page_figure(light, theme.PageLook(projector=True)).layout.font.size >= 24


def test_page_figure_draws_the_test_points_on_planes_only_then_the_theme():
    light = _plane()
    look = theme.PageLook(dark=True, test_X=[[0.5, 0.5], [1.0, -1.0]], test_y=[1.0, -1.0])
    plane = theme.page_figure(light, look, plane=True)
    tests = [t for t in plane.data if t.meta == TEST_META]
    assert [t.name for t in tests] == ["test: y = −1", "test: y = +1"]
    assert plane.layout.paper_bgcolor == BG and len(light.data) == len(plane.data) - 2
    other = theme.page_figure(light, look)  # not a plane (bars, curves): the theme only
    assert not [t for t in other.data if t.meta == TEST_META]
    assert other.layout.paper_bgcolor == BG
    assert theme.page_figure(light, theme.PageLook(test_X=[[0, 0]], test_y=[1.0])) is light


def test_a_figure_that_is_not_a_figure_is_refused():
    with pytest.raises(ValueError, match="fig must be"):
        theme.dark_figure("{}")
    assert isinstance(theme.dark_figure({"data": [], "layout": {}}), go.Figure)
