"""The theme switch (svmlab.ui.themes): the control, the share link, the page's CSS, the
figures and the ``t`` key, through Streamlit's AppTest (the browser: tests/e2e).

"""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.plot.look.palettes import get_theme
from svmlab.ui import keyboard, themes

# Tolerance table: none — names, query parameters and CSS text are exact


def script():
    import numpy as np
    import streamlit as st

    from svmlab.plot.figures import plane_figure
    from svmlab.plot.look.theme import page_figure
    from svmlab.ui import keyboard, linkstate, themes
    from svmlab.ui.plane import page_look

    with linkstate.page_link("kernel_pegasos"):
        themes.apply()
        keyboard.listen()
        X = np.array([[0.0, 0.0], [1.0, 1.0]])
        fig = page_figure(plane_figure(X, np.array([-1.0, 1.0])), page_look(), plane=True)
        st.session_state["bg"] = fig.layout.paper_bgcolor
        st.button("t key", on_click=keyboard.apply_action, args=("theme",))


def _app(**query) -> AppTest:
    at = AppTest.from_function(script, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def _css(at) -> str:
    (html,) = [h for h in at.html if "--svmlab-bg" in h.proto.body]
    return html.proto.body


def test_a_link_without_a_theme_opens_in_light_and_writes_none():
    at = _app()
    assert at.segmented_control(key=themes.WIDGET_KEY).value == "light"
    assert "theme" not in at.query_params
    assert "--svmlab-bg: #FFFFFF" in _css(at)
    assert at.session_state["bg"] in (None, "#FFFFFF")  # the light figure, as drawn


@pytest.mark.parametrize("name", ["dark", "contrast"])
def test_a_linked_theme_sets_the_control_the_css_and_the_figures(name):
    at = _app(theme=name)
    t = get_theme(name)
    assert at.segmented_control(key=themes.WIDGET_KEY).value == name
    assert at.query_params["theme"] == name
    assert f"--svmlab-bg: {t.background}" in _css(at)
    assert at.session_state["bg"] == t.background
    assert not [w for w in at.warning if "could not be read" in w.value]


def test_choosing_a_theme_writes_the_link_and_light_leaves_it_out():
    at = _app()
    at.segmented_control(key=themes.WIDGET_KEY).set_value("contrast").run()
    assert at.query_params["theme"] == "contrast"
    assert "--svmlab-text: #000000" in _css(at)
    at.segmented_control(key=themes.WIDGET_KEY).set_value("light").run()
    assert "theme" not in at.query_params


def test_a_bad_linked_theme_is_named_and_the_page_is_light():
    at = _app(theme="neon")
    (msg,) = [w.value for w in at.warning if "could not be read" in w.value]
    # shown as text: Markdown's characters escaped (svmlab/ui/safe_text.py)
    assert "theme: 'neon' is not one of light, dark, contrast" in msg.replace("\\", "")
    assert at.segmented_control(key=themes.WIDGET_KEY).value == "light"


def test_the_t_key_cycles_light_dark_contrast():
    at = _app()
    seen = []
    for _ in range(3):
        at.button[0].click().run()
        seen.append(at.segmented_control(key=themes.WIDGET_KEY).value)
    assert seen == ["dark", "contrast", "light"]
    assert "t" in keyboard.key_map() and keyboard.key_map()["t"] == "theme"


#: A rule only the overrides of Streamlit's colours have: the sidebar's background.
OVERRIDE = "[data-testid='stSidebar'], [data-testid='stSidebarContent']"


def _rules(css: str) -> str:
    return re.sub(r"/\*.*?\*/", "", css, flags=re.S)


def test_page_css_keeps_streamlits_own_colours_when_they_are_the_themes():
    light, dark, contrast = (get_theme(n) for n in ("light", "dark", "contrast"))
    for t, streamlit_dark in ((light, False), (dark, True)):
        css = _rules(themes.page_css(t, streamlit_is_dark=streamlit_dark))
        assert OVERRIDE not in css and "invert" not in css  # variables and SVM Lab's own
        assert ".svmlab-keys-panel" in css and f"--svmlab-text: {t.text}" in css
    flipped = themes.page_css(dark, streamlit_is_dark=False)
    assert OVERRIDE in flipped and "invert(1)" in flipped  # the data grid's canvas too
    assert "invert" not in themes.page_css(dark, streamlit_is_dark=None)
    high = themes.page_css(contrast, streamlit_is_dark=False)
    assert OVERRIDE in high and "text-decoration: underline" in high and "invert" not in high
    assert "invert(1)" in themes.page_css(contrast, streamlit_is_dark=True)
    assert "color-scheme: dark" in flipped and "color-scheme: light" in high
