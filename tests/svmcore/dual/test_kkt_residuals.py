"""Lin's KKT conditions (seed 003) as svmcore reports them: ``kkt_residuals()``.

Seed 003 writes the KKT conditions of the hard-margin SVM as primal feasibility
y_n(wᵀz_n + b) ≥ 1, dual feasibility α_n ≥ 0, Σ_n y_n α_n = 0 and w = Σ_n α_n y_n z_n
(the inner minimisation over b and w) and complementary slackness α_n(1 − y_n(wᵀz_n + b))
= 0; the soft margin's Lagrangian ℒ(b, w, ξ, α, β) adds ξ_n ≥ 0, β_n = C − α_n ≥ 0 and
β_n ξ_n = 0, with primal feasibility y_n(wᵀz_n + b) ≥ 1 − ξ_n.
"""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svmcore
from svmcore.dual.result import KKTCondition, kkt_residuals

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-15  # violations at the hand-written optimum: exact rationals in doubles
TOL_SMO = 1e-12  # violations of SMO's certified optimum (tol 1e-12): gap ~1e-16, rounding only
TOL_QP = 1e-8  # violations of the QP solvers (primal, dual QP): interior point (~1e-9)
TOL_PAGE_DUAL = 1e-9  # the page's table at Lin's points, C = 0.562: SMO at the page's tol 1e-6
TOL_PAGE_PRIMAL = 1e-7  # the primal entry's table, same points and C: its interior point, ~1e-8
# a broken α's violations: exact (hand-computed from numbers)

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120

# seed 003's four points and its worked hard-margin answer
X4 = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y4 = np.array([-1.0, -1.0, 1.0, 1.0])
ALPHA_HARD = np.array([0.5, 0.5, 1.0, 0.0])
W_HARD, B_HARD = np.array([1.0, -1.0]), -1.0

# The soft margin at C = 0.562 (< 1 = the hard margin's largest α): the point (2, 0) is
# inside the margin with α₃ = C; w is unique, w = (2/3, −2/3), b = −1, so y f = (1, 1, 1/3, 1)
# and ξ = (0, 0, 2/3, 0). From w = Σ α_n y_n x_n and Σ y_n α_n = 0 by hand:
# w₂ = −2α₂ = −2/3 → α₂ = 1/3;  w₁ = −2α₂ + 2C + 3α₄ = 2/3 → α₄ = (4/3 − 2C)/3;
# α₁ = C + α₄ − α₂.
C_SOFT = 0.562
W_SOFT, B_SOFT = np.array([2.0, -2.0]) / 3.0, -1.0
_A4 = (4.0 / 3.0 - 2.0 * C_SOFT) / 3.0
ALPHA_SOFT = np.array([C_SOFT + _A4 - 1.0 / 3.0, 1.0 / 3.0, C_SOFT, _A4])

HARD_LIST = [
    ("primal feasibility", "y_n(wᵀz_n + b) ≥ 1"),
    ("dual feasibility", "α_n ≥ 0"),
    ("∂ℒ/∂b = 0", "Σ_n y_n α_n = 0"),
    ("∂ℒ/∂w = 0", "w = Σ_n α_n y_n z_n"),
    ("complementary slackness", "α_n(1 − y_n(wᵀz_n + b)) = 0"),
]
SOFT_LIST = [
    ("primal feasibility", "y_n(wᵀz_n + b) ≥ 1 − ξ_n"),
    ("primal feasibility", "ξ_n ≥ 0"),
    ("dual feasibility", "0 ≤ α_n ≤ C"),
    ("∂ℒ/∂b = 0", "Σ_n y_n α_n = 0"),
    ("∂ℒ/∂w = 0", "w = Σ_n α_n y_n z_n"),
    ("complementary slackness", "α_n(1 − ξ_n − y_n(wᵀz_n + b)) = 0"),
    ("complementary slackness", "(C − α_n) ξ_n = 0"),
]


def by_hand(alpha, w, b, C=None) -> list[float]:
    """Each condition of the list written out on its own, in the list's order."""
    yf = Y4 * (X4 @ w + b)
    w_alpha = (alpha * Y4) @ X4
    if C is None:
        return [
            max(0.0, *(1.0 - yf)),  # y_n f_n ≥ 1
            max(0.0, *(-alpha)),  # α_n ≥ 0
            abs(float(np.sum(Y4 * alpha))),  # Σ y_n α_n = 0
            float(np.max(np.abs(w - w_alpha))),  # w = Σ α_n y_n z_n
            float(np.max(np.abs(alpha * (1.0 - yf)))),  # α_n(1 − y_n f_n) = 0
        ]
    xi = np.maximum(0.0, 1.0 - yf)
    return [
        max(0.0, *(1.0 - xi - yf)),  # y_n f_n ≥ 1 − ξ_n
        max(0.0, *(-xi)),  # ξ_n ≥ 0
        max(0.0, *(-alpha), *(alpha - C)),  # 0 ≤ α_n ≤ C
        abs(float(np.sum(Y4 * alpha))),
        float(np.max(np.abs(w - w_alpha))),
        float(np.max(np.abs(alpha * (1.0 - xi - yf)))),  # α_n(1 − ξ_n − y_n f_n) = 0
        float(np.max(np.abs((C - alpha) * xi))),  # (C − α_n) ξ_n = 0
    ]


def _check_list(conds, expected):
    assert isinstance(conds, tuple) and all(isinstance(c, KKTCondition) for c in conds)
    assert [(c.name, c.condition) for c in conds] == expected
    assert all(c.violation >= 0.0 for c in conds)


def test_hand_written_hard_margin_optimum_satisfies_every_condition():
    yf = Y4 * (X4 @ W_HARD + B_HARD)
    np.testing.assert_array_equal(yf, [1.0, 1.0, 1.0, 2.0])
    conds = kkt_residuals(Y4, ALPHA_HARD, yf, None, w=W_HARD, w_alpha=(ALPHA_HARD * Y4) @ X4)
    _check_list(conds, HARD_LIST)
    assert [c.violation for c in conds] == by_hand(ALPHA_HARD, W_HARD, B_HARD) == [0.0] * 5


def test_hand_written_soft_margin_optimum_satisfies_every_condition():
    np.testing.assert_allclose((ALPHA_SOFT * Y4) @ X4, W_SOFT, atol=TOL_HAND)
    yf = Y4 * (X4 @ W_SOFT + B_SOFT)
    np.testing.assert_allclose(yf, [1.0, 1.0, 1.0 / 3.0, 1.0], atol=TOL_HAND)
    conds = kkt_residuals(Y4, ALPHA_SOFT, yf, C_SOFT, w=W_SOFT, w_alpha=(ALPHA_SOFT * Y4) @ X4)
    _check_list(conds, SOFT_LIST)
    hand = by_hand(ALPHA_SOFT, W_SOFT, B_SOFT, C_SOFT)
    np.testing.assert_allclose([c.violation for c in conds], hand, atol=TOL_HAND)
    assert max(hand) <= TOL_HAND


@pytest.mark.parametrize("solver", ["smo", "qp"])
def test_dual_result_on_lins_points_hard_margin(solver):
    r = svmcore.dual_svm(X4, Y4, kernel="linear", solver=solver, tol=1e-12)
    np.testing.assert_allclose(r.alpha, ALPHA_HARD, atol=1e-8)
    conds = r.kkt_residuals()
    _check_list(conds, HARD_LIST)
    hand = by_hand(r.alpha, r.w, r.b)
    np.testing.assert_allclose([c.violation for c in conds], hand, rtol=1e-12, atol=1e-15)
    assert max(c.violation for c in conds) <= (TOL_SMO if solver == "smo" else TOL_QP)


def test_certified_soft_margin_optimum_at_C_0562_shows_no_violation():
    # a certified optimum (duality gap ~1e-16): every KKT row ~1e-12 — in particular
    # primal feasibility y_n f_n ≥ 1 − ξ_n, which the app once showed as violated by 1.33
    r = svmcore.dual_svm(X4, Y4, kernel="linear", C=C_SOFT, solver="smo", tol=1e-12)
    assert r.is_optimal and abs(r.duality_gap) <= 1e-12
    np.testing.assert_allclose(r.alpha, ALPHA_SOFT, atol=1e-12)
    np.testing.assert_allclose(r.w, W_SOFT, atol=1e-12)
    assert r.b == pytest.approx(B_SOFT, abs=1e-12)
    conds = r.kkt_residuals()
    _check_list(conds, SOFT_LIST)
    hand = by_hand(r.alpha, r.w, r.b, C_SOFT)
    np.testing.assert_allclose([c.violation for c in conds], hand, rtol=1e-12, atol=1e-15)
    assert max(c.violation for c in conds) <= TOL_SMO, conds
    # the QP solver's optimum, to its own accuracy
    q = svmcore.dual_svm(X4, Y4, kernel="linear", C=C_SOFT, solver="qp", tol=1e-12)
    assert max(c.violation for c in q.kkt_residuals()) <= TOL_QP


@pytest.mark.parametrize("C", [None, C_SOFT])
def test_primal_result_reports_the_same_list(C):
    p = svmcore.primal_svm(X4, Y4, C=C)
    conds = p.kkt_residuals()
    _check_list(conds, HARD_LIST if C is None else SOFT_LIST)
    hand = by_hand(p.alpha, p.w, p.b, C)
    np.testing.assert_allclose([c.violation for c in conds], hand, rtol=1e-12, atol=1e-15)
    assert max(c.violation for c in conds) <= TOL_QP, conds
    Z, y = p.training_features()
    np.testing.assert_array_equal(Z, X4)
    np.testing.assert_array_equal(y, Y4)


def test_a_nonlinear_kernel_lists_no_w_row():
    r = svmcore.dual_svm(X4, Y4, kernel="rbf", gamma=0.5, C=1.0, tol=1e-10)
    names = [c.condition for c in r.kkt_residuals()]
    assert "w = Σ_n α_n y_n z_n" not in names and len(names) == 6


def test_each_violation_of_a_wrong_point_is_reported_exactly():
    # α = (1, 0, 1, 0) with w = (1, −1), b = −1: Σ yα = 0 holds; Σ α y x = −x₁ + x₃ = (2, 0)
    alpha = np.array([1.0, 0.0, 1.0, 0.0])
    yf = Y4 * (X4 @ W_HARD + B_HARD)  # (1, 1, 1, 2): feasible
    conds = {
        c.condition: c.violation
        for c in kkt_residuals(Y4, alpha, yf, None, w=W_HARD, w_alpha=(alpha * Y4) @ X4)
    }
    assert conds["Σ_n y_n α_n = 0"] == 0.0
    assert conds["w = Σ_n α_n y_n z_n"] == 1.0
    # b = −2 moves every y f by −y_n: (2, 2, 0, 1): point 3 violates y f ≥ 1 by 1, and
    # its α₃ = 1 gives α₃(1 − y₃f₃) = 1; α₁(1 − 2) = −1 in absolute value 1
    yf2 = Y4 * (X4 @ W_HARD - 2.0)
    hard = {c.condition: c.violation for c in kkt_residuals(Y4, alpha, yf2)}
    assert hard["y_n(wᵀz_n + b) ≥ 1"] == 1.0
    assert hard["α_n(1 − y_n(wᵀz_n + b)) = 0"] == 1.0
    # soft margin C = 0.5: α = 1 exceeds C by 0.5; ξ = 0 so (C − α)ξ = 0
    soft = {c.condition: c.violation for c in kkt_residuals(Y4, alpha, yf, 0.5)}
    assert soft["0 ≤ α_n ≤ C"] == 0.5
    assert soft["(C − α_n) ξ_n = 0"] == 0.0
    # a point inside the margin (y f = 0.5 → ξ = 0.5) with α = 0: (C − α)ξ = 0.25
    soft = {
        c.condition: c.violation
        for c in kkt_residuals(Y4, np.zeros(4), np.array([0.5, 1, 1, 1]), 0.5)
    }
    assert soft["(C − α_n) ξ_n = 0"] == 0.25
    # given slacks that do not cover the margin: y f = 0.5, ξ = 0.25 → 1 − ξ − y f = 0.25
    given = kkt_residuals(
        Y4, np.zeros(4), np.array([0.5, 1, 1, 1]), 0.5, xi=np.array([0.25, 0, 0, -0.1])
    )
    rows = {c.condition: c.violation for c in given}
    assert rows["y_n(wᵀz_n + b) ≥ 1 − ξ_n"] == 0.25
    assert rows["ξ_n ≥ 0"] == 0.1
    # without a bias there is no Σ y_n α_n = 0 row
    assert "Σ_n y_n α_n = 0" not in {c.condition for c in kkt_residuals(Y4, alpha, yf, bias=False)}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": np.zeros(3)}, "alpha must have shape"),
        ({"yf": np.zeros((4, 1))}, "yf must have shape"),
        ({"C": -1.0}, "C must be a positive"),
        ({"xi": np.zeros(4)}, "xi is for the soft margin"),
        ({"C": 1.0, "xi": np.zeros(2)}, "xi must have shape"),
    ],
)
def test_bad_input_names_the_argument(kwargs, match):
    args = {"y": Y4, "alpha": ALPHA_HARD, "yf": np.ones(4), **kwargs}
    with pytest.raises(ValueError, match=match):
        kkt_residuals(**args)


# -- the page shows svmcore's list -----------------------------------------------------------
def _dual_page_on_lins_points() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/dual_svm.py")
    at.run()
    at.session_state["data_preset_box"] = True  # the preset menu draws its widgets when open
    at.run()
    at.selectbox(key="data_preset").set_value("lin_four_points").run()
    at.button(key="data_load").click().run()
    return at


def _kkt_table(at: AppTest) -> dict:
    for frame in at.dataframe:
        value = frame.value
        if "largest violation" in getattr(value, "columns", []):
            symbols, worst = value["in seed 003's symbols"], value["largest violation"]
            return dict(zip(symbols, worst, strict=True))
    raise AssertionError("no KKT table on the page")


def _clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.mark.parametrize("algo", ["dual_svm", "primal_svm"])
def test_the_page_shows_svmcore_list_at_C_0562(algo):
    at = _dual_page_on_lins_points()
    at.radio(key="dual_algo").set_value(algo).run()
    at.radio(key=f"{algo}_margin").set_value("soft margin (0 ≤ α ≤ C)").run()
    at.select_slider(key=f"{algo}_C").set_value(C_SOFT).run()
    if algo == "dual_svm":
        at.selectbox(key="dual_svm_kernel").set_value("linear").run()
        at.select_slider(key="dual_svm_tol").set_value(1e-6).run()
    _clean(at)
    table = _kkt_table(at)
    assert list(table) == [cond for _, cond in SOFT_LIST]
    worst = max(float(v) for v in table.values())
    # not "1.33e+00" for y_n(wᵀz_n + b) ≥ 1 − ξ_n; the primal QP is an interior point
    assert worst <= (TOL_PAGE_DUAL if algo == "dual_svm" else TOL_PAGE_PRIMAL), table
    assert float(table["y_n(wᵀz_n + b) ≥ 1 − ξ_n"]) == 0.0
