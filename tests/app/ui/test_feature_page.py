"""The feature-space page through Streamlit's AppTest: runs clean, and each control does
what a student would see (a number, a message).
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

# Tolerance table ------------------------------------------------------------------------
TOL_EXPLICIT_PHI = 1e-11  # the explicit-Φ run's max |Δ f| and max |Δ w̄| read off the page
# (rounding; the unit tests check 1e-12 relative); all else exact

TIMEOUT_S = 120  # per AppTest run (first runs train and are cached afterwards)
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    app.run()
    app.switch_page("pages/feature_space.py")
    app.run()
    return app


def metric(at: AppTest, start: str) -> str:
    for m in at.metric:
        if m.label.startswith(start):
            return m.value
    raise AssertionError(f"no metric {start!r} in {[m.label for m in at.metric]}")


def text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def test_default_page_shows_every_view(at):
    clean(at)
    assert at.title[0].value == "The feature space"
    charts = {c.proto.id for c in at.get("plotly_chart")}
    assert len(charts) == 4, "Gram heatmap, Φ₂ lift, Taylor error, f surface"
    assert metric(at, "dimension D of Φ") == "6", "Lin's Φ₂ of the default poly-2 kernel"
    assert float(metric(at, "max |Δ f(x_i)|")) <= TOL_EXPLICIT_PHI
    assert float(metric(at, "max |Δ w̄|")) <= TOL_EXPLICIT_PHI
    assert "Lemma 16.3 holds" in text(at)
    assert "The linear terms" in text(at), "ζ = 1: the plane is said to be a slice"


def test_the_circle_example_loads_seed_004(at):
    at.button(key="feature_circle").click().run()
    clean(at)
    assert at.selectbox(key="feature_kernel").value == "poly"
    assert at.slider(key="feature_coef0").value == 0.0
    body = text(at)
    assert "ζ = 0, so Φ₂ has no linear terms" in body
    assert "classifies 60 of 60 points right" in body


def test_the_taylor_slider_changes_the_error_and_the_features(at):
    before = float(metric(at, "max |K_trunc − K| with 10 terms"))
    at.slider(key="feature_terms").set_value(20).run()
    clean(at)
    assert metric(at, "features of the truncated Φ") == "210"
    assert float(metric(at, "max |K_trunc − K| with 20 terms")) < before


def test_the_gaussian_kernel_runs_on_the_truncated_map(at):
    at.selectbox(key="feature_kernel").set_value("rbf").run()
    clean(at)
    assert metric(at, "dimension D of Φ") == "55", "10 Taylor terms in the plane"
    assert "Φ is truncated" in text(at)
    assert "The page's kernel is not K₂" in text(at), "the lift trains its own K₂ model"


@pytest.mark.parametrize(("key", "value"), [("feature_model", "kernel_pegasos")])
def test_kernel_pegasos_as_the_model(at, key, value):
    at.radio(key=key).set_value(value).run()
    clean(at)
    assert at.select_slider(key="feature_lam").value == 0.01
    assert len(at.get("plotly_chart")) == 4


def test_too_many_points_are_refused_with_a_message(at):
    at.session_state["data_preset_box"] = True  # the preset menu draws its widgets when open
    at.run()
    at.selectbox(key="data_preset").set_value("moons").run()
    at.slider(key="data_n").set_value(250).run()
    at.button(key="data_load").click().run()
    clean(at)
    assert any("n ≤ 200" in w.value for w in at.warning)
    assert not at.get("plotly_chart")
