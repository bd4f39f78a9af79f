"""The app's accessibility layer (svmlab.ui.access) on the real pages, through AppTest.

WCAG 2.2: captions at ≥ 4.5 : 1 and a focus ring at ≥ 3 : 1 on the page and the sidebar in
both themes (1.4.3, 2.4.13), targets of 24 px (2.5.8), no motion when the system asks for
none (2.3.3); one h1 then h2 sections (1.3.1); the model in words under the plane, every
chart's numbers as a table built only when opened, and the inspector's step in words tied
to the pseudo-code's line that ran.
"""

from __future__ import annotations

import pytest

from svmlab.plot.look import theme
from svmlab.ui import access
from tests.conftest import assert_clean, open_page

# Tolerance table: none — WCAG's thresholds are exact (3 : 1 non-text, 4.5 : 1 text).
NON_TEXT = 3.0
TEXT = 4.5


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_captions_and_the_focus_ring_meet_wcag_on_the_page_and_the_sidebar(scheme):
    for bg in access.BACKGROUNDS[scheme]:
        assert theme.contrast_ratio(access.CAPTION[scheme], bg) >= TEXT, (scheme, bg)
        assert theme.contrast_ratio(access.FOCUS_RING[scheme], bg) >= NON_TEXT, (scheme, bg)


def test_the_page_css_sets_the_focus_ring_captions_targets_and_reduced_motion():
    css = access.page_css("dark")
    assert f"outline: 3px solid {access.FOCUS_RING['dark']}" in css
    assert f"color: {access.CAPTION['dark']}" in css
    assert f"min-height: {access.MIN_TARGET_PX}px" in css
    assert "prefers-reduced-motion: reduce" in css and "transition-duration: 0.01ms" in css
    with pytest.raises(ValueError, match="theme"):
        access.page_css("sepia")


def _texts(at) -> list[str]:
    return [m.value for m in at.markdown]


def test_the_linear_page_describes_its_model_under_the_plane():
    at = open_page("linear_pegasos")
    assert_clean(at)
    labels = [e.label for e in at.expander]
    assert "Describe the model (text)" in labels
    texts = _texts(at)
    summary = next(t for t in texts if t.startswith("**Plane, the model at t = "))
    assert "boundary" in summary and "training error" in summary
    assert any("Boundary f(x) = 0: the line" in t and "Margin: 1/‖w‖" in t for t in texts)


def test_section_headings_are_h2_under_the_pages_one_h1():
    for page in ("linear_pegasos", "home"):
        at = open_page(page)
        assert [t.proto.tag for t in at.title] == ["h1"]
        assert at.header and not at.subheader, "sections are h2, never an h1 → h3 jump"


def test_chart_tables_are_built_only_when_opened():
    at = open_page("kernel_pegasos")
    n = len(at.dataframe)
    labels = [e.label for e in at.expander]
    assert "View the α bars as a table" in labels and "View the chart as a table" in labels
    at.session_state["kernel_pegasos_alpha_table"] = True
    at.session_state["kernel_pegasos_curves_table"] = True
    at.run()
    assert_clean(at)
    assert len(at.dataframe) == n + 2
    columns = [list(df.value.columns) for df in at.dataframe]
    assert ["point", "x₁", "x₂", "y", "α"] in columns
    assert any(c[0] == "iteration t" and "primal objective" in c for c in columns)


def test_the_inspector_narrates_its_step_with_the_line_that_ran():
    at = open_page("linear_pegasos")
    at.session_state["pegasos_inspect"] = True
    at.run()
    at.slider(key="pegasos_step").set_value(1).run()
    narration = [t for t in _texts(at) if 'role="status"' in t]
    assert narration and "t = 1: sampled i (1-based) = " in narration[0]
    assert "Ran: " in narration[0]
