"""The page's themes: contrast ratios of their colours (WCAG 2.1), and their figures.

The high-contrast projector theme meets WCAG AAA for text (1.4.6: 7 : 1 for body text),
light and dark AA (1.4.3: 4.5 : 1); every theme's figure lines and outlines reach the
non-text minimum (1.4.11: 3 : 1) against the background they are drawn on.
"""

from __future__ import annotations

import numpy as np
import pytest

from svmlab.plot.figures import plane_figure
from svmlab.plot.look import theme
from svmlab.plot.look.palettes import THEME_BY_NAME, get_theme
from svmlab.plot.look.roles import trace_role
from svmlab.plot.regions import multiclass_figure
from svmlab.state.classes import CLASS_COLORS
from svmlab.state.labstate import THEMES

# Tolerance table ------------------------------------------------------------------------
TOL_FLOAT = 1e-12  # a ratio or a width computed in floating point vs its exact value
#: (the WCAG thresholds 7, 4.5 and 3 : 1 are inequalities; colours are compared exactly)

#: The minimum text contrast per theme: AAA for the projector's, AA for the others.
TEXT_MINIMUM = {"light": 4.5, "dark": 4.5, "contrast": 7.0}


def _surfaces(t):
    """Every background text is drawn on: the page, the sidebar and fields, the buttons."""
    return {"background": t.background, "panel": t.panel, "raised": t.raised}


@pytest.mark.parametrize("name", THEMES)
def test_text_colours_reach_the_themes_minimum_on_every_surface(name):
    t = get_theme(name)
    need = TEXT_MINIMUM[name]
    for fg in ("text", "muted", "link"):
        for where, bg in _surfaces(t).items():
            ratio = theme.contrast_ratio(getattr(t, fg), bg)
            assert ratio >= need, (name, fg, where, round(ratio, 2))
    assert theme.contrast_ratio(t.on_primary, t.primary) >= need  # a primary button's text
    for kind, fg, bg in t.alerts:
        assert theme.contrast_ratio(fg, bg) >= need, (name, kind)


def test_the_projector_theme_meets_aaa_with_room_to_spare_for_body_text():
    t = get_theme("contrast")
    ratios = {k: theme.contrast_ratio(v, t.background) for k, v in t.colours().items()}
    assert ratios["text"] == pytest.approx(21.0, rel=TOL_FLOAT)  # black on white
    assert min(ratios["text"], ratios["muted"], ratios["link"]) >= 7.0
    for kind in ("info", "success", "warning", "error"):
        assert theme.contrast_ratio(t.colours()[f"{kind}_text"], t.colours()[f"{kind}_bg"]) >= 7


@pytest.mark.parametrize("name", THEMES)
def test_lines_borders_and_accents_reach_the_non_text_minimum(name):
    t = get_theme(name)
    for colour in (t.ink, t.primary):
        assert theme.contrast_ratio(colour, t.background) >= 3.0, (name, colour)
    if name == "contrast":  # the projector's fields and buttons keep visible edges
        assert theme.contrast_ratio(t.border, t.background) >= 3.0
        assert theme.contrast_ratio(t.border, t.panel) >= 3.0


def test_themes_are_the_share_links_names_and_light_is_the_default():
    assert tuple(THEME_BY_NAME) == THEMES == ("light", "dark", "contrast")
    assert theme.DEFAULT_THEME == "light"
    assert theme.DARK["background"] == get_theme("dark").background
    with pytest.raises(ValueError, match="theme must be one of"):
        get_theme("sepia")


def _plane():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(16, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    xs = ys = np.linspace(-3, 3, 21)
    Z = np.add.outer(0.0 * ys, xs)
    return plane_figure(
        X, y, xs, ys, Z, support=np.arange(4), highlight=1, xrange=(-3, 3), yrange=(-3, 3)
    )


def _by_role(fig, role):
    return [tr for tr in fig.to_dict()["data"] if trace_role(tr) == role]


def test_the_projector_figure_is_black_on_white_with_thicker_lines_and_outlined_points():
    light = _plane()
    t = get_theme("contrast")
    fig = theme.themed_figure(light, "contrast")
    assert fig.layout.paper_bgcolor == fig.layout.plot_bgcolor == t.background
    assert theme.contrast_ratio(fig.layout.font.color, t.background) >= 7.0
    assert fig.layout.xaxis.tickfont.color == t.text
    for role in ("boundary", "margin"):
        (before,), (after,) = _by_role(light, role), _by_role(fig, role)
        assert after["line"]["color"] == t.ink
        assert after["line"]["width"] == pytest.approx(1.5 * before["line"]["width"], rel=TOL_FLOAT)
    for pts in _by_role(fig, "points"):
        assert pts["marker"]["line"]["color"] == "#000000"  # outlined against the shading
        assert pts["marker"]["color"] in CLASS_COLORS  # the classes keep their colours
    highlight = _by_role(fig, "highlight")  # the sampled point's ring and its dark outline
    assert highlight
    for hl in highlight:
        assert theme.contrast_ratio(hl["marker"]["color"], t.background) >= 3.0  # not yellow
    (shade,) = _by_role(fig, "shading")
    assert [c for _, c in shade["colorscale"]][1] == t.background


@pytest.mark.parametrize("name", ["dark", "contrast"])
def test_every_theme_restyles_the_regions_and_their_edges(name):
    t = get_theme(name)
    rng = np.random.default_rng(0)
    xs = ys = np.linspace(-2, 2, 15)
    G = np.array([(a, b) for b in ys for a in xs])
    fig = theme.themed_figure(
        multiclass_figure(
            rng.normal(size=(9, 2)), np.arange(9) % 3, xs, ys, G @ rng.normal(size=(2, 3))
        ),
        name,
    )
    (regions,) = _by_role(fig, "regions")
    assert [c for _, c in regions["colorscale"]][::2] == [
        theme.mix(CLASS_COLORS[j], t.background, t.region_fade) for j in range(3)
    ]
    assert [tr["line"]["color"] for tr in _by_role(fig, "boundary")] == [t.ink]


def test_charts_keep_their_colours_and_only_black_takes_the_ink():
    import plotly.graph_objects as go

    chart = go.Figure(
        [
            go.Scatter(x=[1, 2], y=[1, 2], line=dict(color="#1f4e99"), name="averaged"),
            go.Scatter(x=[1, 2], y=[2, 1], marker=dict(color="black"), mode="markers"),
            go.Contour(
                z=[[0, 1], [1, 0]],
                contours=dict(start=0, end=0, coloring="none"),
                line=dict(color="#d9822b"),
            ),
        ]
    )
    out = theme.themed_figure(chart, "dark", roles=False)
    assert out.data[0].line.color == "#1f4e99" and out.data[2].line.color == "#d9822b"
    assert out.data[1].marker.color == theme.DARK["ink"]
    assert out.layout.paper_bgcolor == theme.DARK["background"]


def test_the_light_theme_is_the_figure_as_drawn_and_screen_figure_picks_by_name():
    light = _plane()
    assert theme.themed_figure(light, "light") is light
    assert theme.screen_figure(light, theme="contrast").layout.font.color == "#000000"
    big = theme.screen_figure(light, theme="contrast", projector=True)
    assert big.layout.font.size >= 24 and big.layout.paper_bgcolor == "#FFFFFF"
    with pytest.raises(ValueError, match="theme must be one of"):
        theme.themed_figure(light, "neon")
