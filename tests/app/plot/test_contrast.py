"""WCAG 2.2 contrast of the colours the plane and the pages use, in the light and dark themes.

Non-text contrast (1.4.11): the class colours ≥ 3 : 1 on the page; the points' outline,
the support-vector rings, the bounded-SV squares and the sampled point's mark ≥ 3 : 1
against everything they sit on (the page and every class's shading). Colour is not the
only cue (1.4.1): the α bars carry a pattern per class. (Captions and the focus ring:
``tests/app/ui/test_access.py``.)

Ratios are WCAG's (L1 + 0.05) / (L2 + 0.05) (:func:`svmlab.plot.look.theme.contrast_ratio`);
the backgrounds are the exact shading colours the figures use (light: the class colour
tinted towards white; dark: faded towards the dark page).
"""

from __future__ import annotations

import numpy as np
import pytest

from svmlab.plot import figures as fg
from svmlab.plot.look import theme
from svmlab.plot.look.roles import trace_role
from svmlab.state.classes import CLASS_COLORS

# Tolerance table: none — WCAG's thresholds are exact (3 : 1 for non-text contrast).
NON_TEXT = 3.0
TEXT = 4.5

LIGHT_BG = theme.LIGHT["background"]
DARK_BG = theme.DARK["background"]
#: What a mark sits on in the light theme: the page, the binary shading at full strength
#: (tint 0.55), the multiclass regions (tint 0.6).
LIGHT_UNDER = [LIGHT_BG] + [fg.tint(c, a) for c in CLASS_COLORS for a in (0.55, 0.6)]
#: The same on a dark page (colours faded into the dark background).
DARK_UNDER = [DARK_BG] + [
    theme.mix(c, DARK_BG, f) for c in CLASS_COLORS for f in (theme.SHADE_FADE, theme.REGION_FADE)
]


def worst(colour: str, under) -> float:
    return min(theme.contrast_ratio(colour, b) for b in under)


@pytest.mark.parametrize("colour", CLASS_COLORS)
def test_every_class_colour_is_three_to_one_on_white_and_on_the_dark_page(colour):
    assert theme.contrast_ratio(colour, LIGHT_BG) >= NON_TEXT, colour
    assert theme.contrast_ratio(colour, DARK_BG) >= NON_TEXT, colour


def _plane(highlight=3):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    xs = ys = np.linspace(-3, 3, 30)
    Z = np.add.outer(ys, xs)
    alpha = np.abs(rng.normal(size=12))
    free, bounded = np.arange(0, 3), np.arange(3, 6)
    return fg.plane_figure(
        X, y, xs, ys, Z, alpha=alpha, free=free, bounded=bounded, highlight=highlight
    )


def _by_role(fig, role):
    return [t for t in fig.data if trace_role(t.to_plotly_json()) == role]


def test_points_are_opaque_with_an_outline_that_sets_them_off_the_shading():
    fig = _plane()
    points = _by_role(fig, "points")
    assert points
    for tr in points:
        assert tr.marker.opacity == 1.0, "plotly.js draws sized markers at 0.7 unless told"
        assert tr.marker.line.width >= 1.0
        assert worst(tr.marker.line.color, LIGHT_UNDER) >= NON_TEXT
    dark = theme.dark_figure(fig)
    for tr in _by_role(dark, "points"):
        assert worst(tr.marker.line.color, DARK_UNDER) >= NON_TEXT


def test_rings_and_bounded_squares_are_three_to_one_on_every_shading_in_both_themes():
    fig = _plane()
    support = _by_role(fig, "support")
    assert {t.marker.symbol for t in support} == {"circle-open", "square-open"}
    for tr in support:
        assert worst(tr.marker.color, LIGHT_UNDER) >= NON_TEXT, tr.name
    for tr in _by_role(theme.dark_figure(fig), "support"):
        assert worst(tr.marker.color, DARK_UNDER) >= NON_TEXT, tr.name


def test_the_sampled_point_is_a_yellow_ring_on_a_dark_outline_in_both_themes():
    fig = _plane(highlight=3)
    halo, ring = _by_role(fig, "highlight")
    assert ring.marker.color == "#F0E442"
    assert halo.marker.line.width > ring.marker.line.width, "the outline shows round the ring"
    # light: the outline against what it sits on, the yellow against the outline
    assert worst(halo.marker.color, LIGHT_UNDER) >= NON_TEXT
    assert theme.contrast_ratio(ring.marker.color, halo.marker.color) >= NON_TEXT
    # dark: the yellow itself against the dark page and shading
    assert worst(ring.marker.color, DARK_UNDER) >= NON_TEXT


def test_alpha_bars_carry_a_pattern_per_class_besides_colour():
    y = np.array([-1, 1, -1, 1])
    fig = fg.alpha_bar_figure(np.array([0.1, 0.2, 0.3, 0.4]), y)
    shapes = list(fig.data[0].marker.pattern.shape)
    assert shapes[0] == shapes[2] and shapes[1] == shapes[3] and shapes[0] != shapes[1]
    assert "y = +1" in fig.data[0].text[1], "the hover names the class too"
