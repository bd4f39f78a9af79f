"""Every page through Streamlit's AppTest: runs clean, and each key control does something.

A page "runs clean" when it raises nothing and shows no st.error; each control test
changes one widget and asserts what a user would see change (a metric, a message).
"""

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import assert_clean, open_page

# Tolerance table ------------------------------------------------------------------------
TOL_SHOWN = 1e-3  # margin and band width read off the page, relative (shown to 4 digits)
TOL_B = 1e-6  # b shown on the page vs seed 003's b = −1, absolute

PAGES = ["home", "linear_pegasos", "kernel_pegasos", "dual_svm", "multiclass"]


def _metric(at: AppTest, label_start: str, *, exact: bool = False) -> str:
    for m in at.metric:
        if m.label == label_start or (not exact and m.label.startswith(label_start)):
            return m.value
    raise AssertionError(f"no metric {label_start!r} in {[m.label for m in at.metric]}")


def _load_preset(at: AppTest, name: str, n: int | None = None) -> None:
    at.session_state["data_preset_box"] = True  # the preset menu draws its widgets when open
    at.run()
    at.selectbox(key="data_preset").set_value(name).run()
    if n is not None:
        at.slider(key="data_n").set_value(n).run()
    at.button(key="data_load").click().run()


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_clean_by_default(page):
    at = open_page(page)
    assert_clean(at)
    if page == "home":
        assert any("training accuracy" in m.value for m in at.markdown), "the trained example"
    else:
        assert at.metric, "a trained model shows its metrics"


def test_home_links_to_every_page():
    at = open_page("home")
    labels = {link.proto.label for link in at.get("page_link")}
    assert labels == {
        "Linear Pegasos",
        "Kernel Pegasos",
        "Dual SVM (QP / SMO)",
        "Multiclass",
        "Feature space",
        "Compare solvers",
        "Exercises",
    }


# -- linear Pegasos ----------------------------------------------------------------------
def test_linear_lambda_changes_objective_and_margin():
    at = open_page("linear_pegasos")
    before = (_metric(at, "primal objective"), _metric(at, "margin 1/"))
    at.select_slider(key="pegasos_lam").set_value(1.0).run()
    assert_clean(at)
    after = (_metric(at, "primal objective"), _metric(at, "margin 1/"))
    assert after[0] != before[0]
    assert float(after[1]) > float(before[1]), "a larger λ gives a wider margin"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("pegasos_T", 10_000),
        ("pegasos_schedule", "ssbd"),
        ("pegasos_avg", "last"),
        ("pegasos_bias", "free"),
        ("pegasos_batch", 8),
        ("pegasos_sampling", "cyclic"),
    ],
)
def test_linear_controls_change_the_result(key, value):
    at = open_page("linear_pegasos")
    before = _metric(at, "primal objective")
    at.get_by_key(key).set_value(value).run()
    assert_clean(at)
    assert _metric(at, "primal objective") != before


def test_linear_projection_and_class_weights_run():
    at = open_page("linear_pegasos")
    at.checkbox(key="pegasos_proj").check().run()
    at.selectbox(key="pegasos_cw").set_value("balanced").run()
    assert_clean(at)
    assert _metric(at, "training accuracy").endswith("%")


def test_the_perceptron_runs_on_the_linear_page_with_its_own_code():
    at = open_page("linear_pegasos")
    at.radio(key="linear_algo").set_value("perceptron").run()
    assert_clean(at)
    assert _metric(at, "perceptron criterion") != ""
    at.session_state["perceptron_inspect"] = True  # open the step inspector (lazy when closed)
    at.run()
    assert any("perceptron" in lt.value.lower() or r"-y_i" in lt.value for lt in at.latex)
    html = [m.value for m in at.markdown if "<pre" in m.value]
    assert html and "w_{t+1} = w_t + y_i x_i" in html[0]
    at.selectbox(key="perceptron_sampling").set_value("cyclic").run()
    assert_clean(at)
    html = [m.value for m in at.markdown if "<pre" in m.value]
    assert "for iter" in html[0] and "w_{t+1} = w_t + y_j x_j" in html[0]


def test_step_buttons_move_the_scrubber_and_the_metrics_follow():
    at = open_page("linear_pegasos")
    last = at.select_slider(key="pegasos_snap").value
    at.button(key="pegasos_snap_back").click().run()
    assert at.select_slider(key="pegasos_snap").value == last - 1
    at.select_slider(key="pegasos_snap").set_value(0).run()
    assert_clean(at)
    assert _metric(at, "primal objective") != ""


def test_inspector_highlights_the_pseudocode_of_the_step():
    at = open_page("linear_pegasos")
    assert not [m for m in at.markdown if "<pre" in m.value], "a closed inspector sends nothing"
    at.session_state["pegasos_inspect"] = True
    at.run()
    at.slider(key="pegasos_step").set_value(1).run()
    html = [m.value for m in at.markdown if "<pre" in m.value]
    assert html and "▶" in html[0], "the executed lines are marked"
    tables = [t.value for t in at.table]
    assert any("sampled i" in str(t) for t in tables)


def test_sklearn_check_on_demand():
    at = open_page("linear_pegasos")
    n_tables = len(at.table)
    at.button(key="pegasos_check").click().run()
    assert_clean(at)
    assert len(at.table) == n_tables + 1
    assert "C = 1/(λn)" in str(at.table[-1].value)


# -- kernel Pegasos ----------------------------------------------------------------------
def test_kernel_gamma_changes_the_model_and_the_formula():
    at = open_page("kernel_pegasos")
    before = _metric(at, "primal objective")
    at.select_slider(key="kernel_pegasos_gamma").set_value(10.0).run()
    assert_clean(at)
    assert _metric(at, "primal objective") != before
    assert any("10" in lt.value for lt in at.latex), "the formula shows the new γ"


def test_kernel_sigma_form_is_seed_004s_gaussian_with_gamma_one_over_sigma():
    at = open_page("kernel_pegasos")
    before = _metric(at, "primal objective")
    assert any("half of this one" in c.value for c in at.caption), "seed 004's λ is said"
    at.radio(key="kernel_pegasos_rbf_form").set_value("sigma").run()
    at.select_slider(key="kernel_pegasos_sigma").set_value(1.0).run()
    assert_clean(at)
    assert _metric(at, "primal objective") == before, "σ = 1 is γ = 1: the same run"
    assert any(r"/ \sigma" in lt.value for lt in at.latex)
    at.select_slider(key="kernel_pegasos_sigma").set_value(0.1).run()
    assert_clean(at)
    assert any("γ = 1/σ = 10" in c.value for c in at.caption)
    assert _metric(at, "primal objective") != before


def test_kernel_class_weights_change_the_run_and_the_objective():
    at = open_page("kernel_pegasos")
    before = _metric(at, "primal objective")
    at.selectbox(key="kernel_pegasos_cw").set_value("balanced").run()
    assert_clean(at)  # the default data have 50 points per class: balanced weights are all 1
    assert _metric(at, "primal objective") == before
    at.selectbox(key="kernel_pegasos_cw").set_value("custom").run()
    at.select_slider(key="kernel_pegasos_cwp").set_value(10.0).run()
    assert_clean(at)
    assert _metric(at, "primal objective") != before
    assert any("c_{y_i}" in lt.value for lt in at.latex)


def test_kernel_polynomial_shows_degree_and_coef0():
    at = open_page("kernel_pegasos")
    at.selectbox(key="kernel_pegasos_kernel").set_value("poly").run()
    assert_clean(at)
    assert at.slider(key="kernel_pegasos_degree").value == 2
    assert any(r"\zeta" in lt.value for lt in at.latex)


def test_kernel_lambda_and_schedule_change_the_objective():
    at = open_page("kernel_pegasos")
    before = _metric(at, "primal objective")
    at.select_slider(key="kernel_pegasos_lam").set_value(0.1).run()
    mid = _metric(at, "primal objective")
    at.radio(key="kernel_pegasos_schedule").set_value("pegasos").run()
    assert_clean(at)
    assert len({before, mid, _metric(at, "primal objective")}) == 3


def test_one_class_only_gives_a_message_not_a_traceback():
    at = open_page("kernel_pegasos")
    at.button(key="data_clear").click().run()
    assert_clean(at)
    assert any("Add at least" in w.value for w in at.warning)
    at.button(key="data_undo").click().run()  # the points come back
    assert_clean(at)
    assert at.metric


# -- dual --------------------------------------------------------------------------------
def test_hard_margin_on_outlier_preset_says_not_separable_and_offers_soft_margin():
    at = open_page("dual_svm")
    _load_preset(at, "blobs_outlier")
    at.selectbox(key="dual_svm_kernel").set_value("linear").run()
    at.radio(key="dual_svm_margin").set_value("hard margin (α ≥ 0)").run()
    assert_clean(at)
    assert any("separable" in w.value.lower() for w in at.warning)
    at.button(key="offer_soft").click().run()
    assert_clean(at)
    assert at.radio(key="dual_svm_margin").value.startswith("soft")
    assert at.metric


def test_dual_C_changes_the_dual_objective():
    at = open_page("dual_svm")
    before = _metric(at, "dual objective")
    at.select_slider(key="dual_svm_C").set_value(10.0).run()
    assert_clean(at)
    assert _metric(at, "dual objective") != before


def test_dual_qp_solver_above_its_cap_gives_a_message():
    at = open_page("dual_svm")
    _load_preset(at, "overlapping_blobs", n=400)
    at.radio(key="dual_svm_solver").set_value("qp").run()
    assert_clean(at)
    assert any("capped" in w.value for w in at.warning)


# -- multiclass --------------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["multiclass_sgd", "multiclass_pegasos", "one_vs_all"])
def test_multiclass_algorithms_run_on_k_blobs(algo):
    at = open_page("multiclass")
    at.button(key="multiclass_load_blobs").click().run()
    at.radio(key="multiclass_algo").set_value(algo).run()
    assert_clean(at)
    assert _metric(at, "training accuracy") == "100.0 %"


def test_multiclass_eta_changes_the_objective():
    at = open_page("multiclass")
    before = _metric(at, "mean generalized hinge")
    at.select_slider(key="multiclass_sgd_eta").set_value(0.001).run()
    assert_clean(at)
    assert _metric(at, "mean generalized hinge") != before


def test_multiclass_kernelized_pegasos_shows_support_vectors():
    at = open_page("multiclass")
    at.radio(key="multiclass_algo").set_value("multiclass_pegasos").run()
    at.checkbox(key="multiclass_pegasos_kern").check().run()
    assert_clean(at)
    assert int(_metric(at, "support vectors")) > 0


def test_one_vs_all_shows_the_ambiguity_caption():
    at = open_page("multiclass")
    at.radio(key="multiclass_algo").set_value("one_vs_all").run()
    assert_clean(at)
    assert any("ambiguous" in c.value for c in at.caption)


# -- worked example, extremes and caps ---------------------------------------------------
def test_dual_qp_on_lins_four_points_gives_the_lecture_margin_and_shows_the_qp():
    at = open_page("dual_svm")
    _load_preset(at, "lin_four_points")
    at.selectbox(key="dual_svm_kernel").set_value("linear").run()
    at.radio(key="dual_svm_margin").set_value("hard margin (α ≥ 0)").run()
    at.radio(key="dual_svm_solver").set_value("qp").run()
    assert_clean(at)
    # seed 003: α = (½, ½, 1, 0), w = (1, −1), b = −1: Lin's margin 1/‖w‖ = 1/√2, the band
    # between f = ±1 is 2/‖w‖ = √2 wide (shown to 4 digits)
    assert float(_metric(at, "margin 1/‖w‖")) == pytest.approx(2**-0.5, rel=TOL_SHOWN)
    assert float(_metric(at, "band width 2/‖w‖")) == pytest.approx(2**0.5, rel=TOL_SHOWN)
    assert _metric(at, "w = Σ") == "(1, -1)"
    assert float(_metric(at, "b", exact=True)) == pytest.approx(-1.0, abs=TOL_B)
    assert _metric(at, "support vectors") == "3"
    assert any("Q" in m.value and "shape" in m.value for m in at.markdown)
    at.button(key="dual_svm_check").click().run()
    assert_clean(at)
    assert "✓" in str(at.table[-1].value)


def test_extreme_parameters_never_raise():
    at = open_page("kernel_pegasos")
    at.selectbox(key="kernel_pegasos_kernel").set_value("poly").run()
    at.select_slider(key="kernel_pegasos_gamma").set_value(100.0).run()
    at.slider(key="kernel_pegasos_degree").set_value(6).run()
    at.select_slider(key="kernel_pegasos_lam").set_value(0.0001).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.metric or at.error


def test_caps_are_stated_and_enforced():
    from svmlab.ui import runners

    at = open_page("kernel_pegasos")
    assert any("Caps on this page" in c.value for c in at.caption)
    with pytest.raises(runners.CapError, match="at most n = 500"):
        runners.check_caps("kernel_pegasos", 501, 10)
    with pytest.raises(runners.CapError, match="T is capped"):
        runners.check_caps("kernel_pegasos", 10, 10**6)


def test_multiclass_pegasos_check_against_crammer_singer():
    at = open_page("multiclass")
    at.button(key="multiclass_load_blobs").click().run()
    at.radio(key="multiclass_algo").set_value("multiclass_pegasos").run()
    at.button(key="multiclass_pegasos_check").click().run()
    assert_clean(at)
    table = str(at.table[-1].value)
    assert "mean generalized hinge" in table and "✓" in table
