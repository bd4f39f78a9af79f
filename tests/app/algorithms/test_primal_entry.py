"""Lin's "SVM with QP solver" on the dual page: the primal entry, multipliers = dual α, KKT list."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svmcore
from svmlab.algorithms import ALGORITHMS, on_page
from svmlab.algorithms.dual_svm import code
from svmlab.algorithms.primal_svm import code as primal_code
from svmlab.algorithms.primal_svm import dual_alpha, features
from tests.conftest import assert_clean, open_page

# Tolerance table ------------------------------------------------------------------------
TOL_SEED_003 = 1e-6  # primal w, b, multipliers vs seed 003's values: the interior point's accuracy
TOL_DUAL_ALPHA = 1e-6  # primal multipliers vs the dual QP's α: two solvers, each to ~1e-9
TOL_KKT = 1e-8  # KKT violations (seed 003, both QPs): the brief's bound (solver tol)

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120
# seed 003's four points and its worked answer
X4 = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y4 = np.array([-1.0, -1.0, 1.0, 1.0])
ALPHA4 = np.array([0.5, 0.5, 1.0, 0.0])


def _primal(**kw):
    return ALGORITHMS["primal_svm"].fit(X4, Y4, {"C": None, "transform": None, **kw})


def test_primal_entry_is_on_the_dual_page():
    assert "primal_svm" in [s.key for s in on_page("dual")]
    assert ALGORITHMS["primal_svm"].fn is svmcore.primal_svm


def test_primal_on_lins_four_points_gives_the_lecture_answer_and_the_dual_alpha():
    r = _primal()
    np.testing.assert_allclose(r.w, [1.0, -1.0], atol=TOL_SEED_003)
    assert r.b == pytest.approx(-1.0, abs=TOL_SEED_003)
    np.testing.assert_allclose(r.alpha, ALPHA4, atol=TOL_SEED_003)
    np.testing.assert_allclose(dual_alpha(r), ALPHA4, atol=TOL_SEED_003)
    np.testing.assert_allclose(r.alpha, dual_alpha(r), atol=TOL_DUAL_ALPHA)
    # the QP's rows a_nᵀ = y_n [1, z_nᵀ] give the points back
    Z, y = features(r)
    np.testing.assert_array_equal(Z, X4)
    np.testing.assert_array_equal(y, Y4)
    # Lin's primal: Q = [[0, 0ᵀ], [0, I]], p = 0, c = 1
    np.testing.assert_array_equal(r.Q, np.diag([0.0, 1.0, 1.0]))
    np.testing.assert_array_equal(r.p, np.zeros(3))
    np.testing.assert_array_equal(r.c, np.ones(4))


def test_kkt_list_of_the_primal_qp_holds_on_seed_003():
    # svmcore's list (tests/test_kkt_residuals.py checks each row by hand)
    rows = _primal().kkt_residuals()
    assert len(rows) == 5  # primal, dual feasibility, Σyα = 0, w = Σαyz, compl. slackness
    assert max(c.violation for c in rows) <= TOL_KKT, rows


def test_kkt_list_of_the_dual_qp_holds_on_seed_003():
    d = svmcore.dual_svm(X4, Y4, kernel=svmcore.make_kernel("linear"), solver="qp", tol=1e-12)
    rows = d.kkt_residuals()
    assert max(c.violation for c in rows) <= TOL_KKT, rows


def test_dual_qp_code_is_lins_kernel_svm_box():
    hard = [line.text for line in code({"solver": "qp", "C": None})]
    assert hard[1].startswith("α ← QP(Q_D, p, A, c)")
    assert "p = −1_N" in hard[0] and "y_n y_m K(x_n, x_m)" in hard[0]
    assert "b ← y_s − Σ_n α_n y_n K(x_n, x_s)" in hard[2]
    soft = [line.text for line in code({"solver": "qp", "C": 1.0})]
    assert "0 ≤ α_n ≤ C" in soft[0] and "0 < α_s < C" in soft[2]
    assert "WSS3" in " ".join(line.text for line in code({"solver": "smo", "C": None}))
    assert "[b; w] ← QP(Q, p, A, c)" in [line.text for line in primal_code({"C": None})]


def _metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r} in {[m.label for m in at.metric]}")


def test_primal_entry_on_the_dual_page_runs_clean_on_lins_points():
    at = open_page("dual_svm")
    at.radio(key="dual_algo").set_value("primal_svm").run()
    assert_clean(at)
    assert at.metric, "the primal QP's metrics"
    at.session_state["data_preset_box"] = True  # the preset menu draws its widgets when open
    at.run()
    at.selectbox(key="data_preset").set_value("lin_four_points").run()
    at.button(key="data_load").click().run()
    at.radio(key="primal_svm_margin").set_value("hard margin (α ≥ 0)").run()
    assert_clean(at)
    assert _metric(at, "w") == "(1, -1)"
    assert float(_metric(at, "b")) == pytest.approx(-1.0, abs=TOL_SEED_003)
    assert any("KKT" in e.label for e in at.expander)
    assert any("dual α" in e.label for e in at.expander)
    at.radio(key="primal_svm_transform").set_value("phi2").run()
    assert_clean(at)
    assert at.metric


def test_dual_qp_shows_the_kkt_list_on_the_page():
    at = open_page("dual_svm")
    at.radio(key="dual_svm_solver").set_value("qp").run()
    assert_clean(at)
    labels = [e.label for e in at.expander]
    assert "The lecture's KKT conditions, checked with numbers" in labels
    assert any("Σ_n y_n α_n = 0" in str(t.value) for t in at.dataframe)


def test_primal_hard_margin_on_the_outlier_offers_its_soft_margin():
    at = open_page("dual_svm")
    at.radio(key="dual_algo").set_value("primal_svm").run()
    at.session_state["data_preset_box"] = True
    at.run()
    at.selectbox(key="data_preset").set_value("blobs_outlier").run()
    at.button(key="data_load").click().run()
    at.radio(key="primal_svm_margin").set_value("hard margin (α ≥ 0)").run()
    assert_clean(at)
    assert not at.metric, "no model: the hard-margin QP is infeasible"
    at.button(key="primal_svm_offer_soft").click().run()
    assert_clean(at)
    assert at.radio(key="primal_svm_margin").value.startswith("soft")
    assert _metric(at, "support vectors")


def test_an_untrustworthy_qp_result_offers_smo():
    # QP vs SMO: a QP result that fails its own KKT check is said in words and SMO offered
    def page():
        import numpy as np

        import svmcore
        from svmlab.algorithms.dual_svm import extras

        X, y = svmcore.datasets.separable_blobs(n=8, random_state=0)
        X = X / np.abs(X).max() * 1e6
        kernel = svmcore.polynomial(degree=6, gamma=1.0, coef0=1.0)
        result = svmcore.dual_svm(X, y, kernel=kernel, solver="qp", max_iter=100)
        assert not result.is_optimal
        extras(result, {"solver": "qp", "C": None})

    at = AppTest.from_function(page, default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert any("not a trustworthy" in w.value or "rescale X" in w.value for w in at.warning)
    at.button(key="dual_svm_use_smo").click().run()
    assert at.session_state["dual_svm_solver"] == "smo"
