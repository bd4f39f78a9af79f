"""The split and the sweep on the pages, through Streamlit's AppTest."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svmcore
from svmlab.state.pointset import PointSet
from svmlab.study.split import train_test_split
from tests.conftest import open_page

# Tolerance table: none — the checks compare shown text and widget values exactly; the numbers
# themselves are checked against direct computations in tests/app/study/test_split.py and
# test_sweep.py.


def _shown(at: AppTest, *, clean: bool = True) -> dict:
    """The page's metrics {label: value}; first, unless ``clean`` is False, that it ran
    without an exception or an error message."""
    assert not at.exception, [e.message for e in at.exception]
    assert not (clean and at.error), [e.value for e in at.error]
    return {m.label: m.value for m in at.metric}


def _set_points(at: AppTest, X, y) -> None:
    at.session_state["svmlab_session"].replace(PointSet.from_labels(X, y))
    at.run()


@pytest.mark.parametrize("page", ["linear_pegasos", "kernel_pegasos", "dual_svm"])
def test_holdout_trains_on_the_training_part_and_shows_the_test_error(page):
    at = open_page(page)
    assert "test error" not in _shown(at)  # off by default
    at.radio(key="split").set_value("holdout").run()
    # the default moons (n = 100), 30 % of each class held out
    assert _shown(at)["training / test points"] == "70 / 30"
    assert _shown(at)["test error"].endswith("%")
    caption = " ".join(c.value for c in at.caption)
    assert "30 of the 100 points held out (stratified, 30% of each class, seed 0)" in caption


def test_the_shown_test_error_is_the_models_error_on_the_held_out_points():
    at = open_page("kernel_pegasos")
    X, y = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    at.radio(key="split").set_value("holdout").run()
    at.slider(key="test_frac").set_value(0.4).run()
    at.number_input(key="test_seed").set_value(5).run()
    s = train_test_split(y, test_fraction=0.4, random_state=5)
    assert _shown(at)["training / test points"] == f"{s.train.size} / {s.test.size}"
    result = svmcore.kernel_pegasos(
        X[s.train],
        y[s.train],
        kernel=svmcore.make_kernel("rbf", gamma=1.0),
        lam=0.01,
        T=10_000,
        random_state=0,
    )
    err = np.mean(result.predict(X[s.test]) != y[s.test])
    assert _shown(at)["test error"] == f"{err:.1%}"


def test_the_split_is_kept_across_pages():
    at = open_page("linear_pegasos")
    at.radio(key="split").set_value("holdout").run()
    at.number_input(key="test_seed").set_value(3).run()
    at.switch_page("pages/dual_svm.py").run()
    assert at.radio(key="split").value == "holdout"
    assert at.number_input(key="test_seed").value == 3
    assert _shown(at)["training / test points"] == "70 / 30"


def test_a_split_that_empties_a_class_is_refused_and_every_point_trains():
    at = open_page("linear_pegasos")
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 0.0]])
    _set_points(at, X, np.array([-1, 1, 1, 1, 1]))
    at.radio(key="split").set_value("holdout").run()
    at.slider(key="test_frac").set_value(0.5).run()
    assert "test error" not in _shown(at, clean=False)
    msgs = [e.value for e in at.error]
    assert any("No test set" in m and "class -1" in m for m in msgs), msgs


def test_fresh_test_set_on_the_multiclass_page():
    at = open_page("multiclass")
    at.button(key="multiclass_load_blobs").click().run()  # 3 blobs, the preset k_blobs
    at.radio(key="split").set_value("fresh").run()
    assert _shown(at)["training / test points"] == "90 / 90"
    first = _shown(at)["test error"]
    caption = " ".join(c.value for c in at.caption)
    assert "90 fresh points of k blobs" in caption
    at.button(key="test_redraw").click().run()
    assert at.number_input(key="test_seed").value == 1
    assert "seed pair (0, 1)" in " ".join(c.value for c in at.caption)
    assert _shown(at)["test error"].endswith("%") and first.endswith("%")


def test_sweep_runs_only_on_demand_and_loads_a_cell():
    at = open_page("dual_svm")
    assert "dual_svm_sweep_run" not in [b.key for b in at.button]  # closed: nothing drawn
    at.session_state["dual_svm_sweep_box"] = True
    at.run()
    assert at.button(key="dual_svm_sweep_run").label == "Run sweep"
    assert "dual_svm_sweep_cell" not in [s.key for s in at.selectbox]  # nothing computed
    at.button(key="dual_svm_sweep_run").click().run()
    assert _shown(at)
    best = next(m.value for m in at.markdown if m.value.startswith("**Best cell** (outlined):"))
    assert "C = " in best and "γ = " in best
    cell = at.selectbox(key="dual_svm_sweep_cell")
    cell.set_value(0).run()  # C = 0.01, γ = 0.01
    at.button(key="dual_svm_sweep_load").click().run()
    assert _shown(at)["training accuracy"]
    assert at.select_slider(key="dual_svm_C").value == 0.01
    assert at.select_slider(key="dual_svm_gamma").value == 0.01
    # the sweep stays on screen (its inputs other than C and γ are unchanged)
    assert any(m.value.startswith("**Best cell** (outlined):") for m in at.markdown)


def test_sweep_on_the_linear_page_is_over_lambda_only_and_the_perceptron_has_none():
    at = open_page("linear_pegasos")
    at.session_state["pegasos_sweep_box"] = True
    at.run()
    at.button(key="pegasos_sweep_run").click().run()
    assert _shown(at)
    best = next(m.value for m in at.markdown if m.value.startswith("**Best cell** (outlined):"))
    assert "λ = " in best and "γ" not in best
    at.radio(key="linear_algo").set_value("perceptron").run()
    at.session_state["perceptron_sweep_box"] = True
    at.run()
    assert _shown(at)
    assert any("no λ, C or γ to sweep" in c.value for c in at.caption)


def test_fresh_test_set_warns_when_the_points_are_not_a_presets_draw():
    at = open_page("kernel_pegasos")
    X, y = svmcore.datasets.load("moons", n=100, noise=0.15, random_state=0)
    _set_points(at, X[:-1], y[:-1])  # one point erased
    at.radio(key="split").set_value("fresh").run()
    assert any("not an unedited draw of a preset" in w.value for w in at.warning)
    assert _shown(at)["training / test points"] == "99 / 100"


def test_an_empty_canvas_with_a_split_shows_no_error():
    at = open_page("kernel_pegasos")
    at.radio(key="split").set_value("holdout").run()
    at.button(key="data_clear").click().run()
    assert "test error" not in _shown(at)
    assert any("nothing to split yet" in c.value for c in at.caption)


def test_the_animation_and_the_inspector_draw_the_test_points_too():
    import json

    from svmlab.plot.look.roles import as_array
    from svmlab.plot.split_figure import TEST_META

    at = open_page("kernel_pegasos")
    at.radio(key="split").set_value("holdout").run()
    at.toggle(key="kernel_pegasos_anim_on").set_value(True).run()
    at.session_state["kernel_pegasos_inspect"] = True
    at.run()
    assert _shown(at)
    figs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    anim = [f for f in figs if f.get("frames")]
    step = [f for f in figs if not f.get("frames") and "model at t" in str(f["layout"])]
    assert len(anim) == 1 and len(step) == 1
    for fig in (anim[0], step[0]):
        tests = [t for t in fig["data"] if t.get("meta") == TEST_META]
        assert sum(as_array(t["x"]).size for t in tests) == 30  # the held-out 30 %
    # the frames update the run's traces only: the test points stay as drawn
    n_base = len(anim[0]["frames"][0]["traces"])
    assert all(i < n_base for i in anim[0]["frames"][0]["traces"])
    assert len(anim[0]["data"]) > n_base
