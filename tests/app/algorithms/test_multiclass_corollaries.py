"""Seed 001 on the multiclass page: Corollary 17.2's ρ, ε, T ≥ B²ρ²/ε² and η; Corollary
17.1's λ; the Ψ(x_i, y′) construction and its scores at the current snapshot.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmcore.sgd.multiclass_common import psi
from svmcore.sgd.multiclass_sgd import recommended_eta
from svmlab.algorithms import multiclass_common as mc

# Tolerance table ------------------------------------------------------------------------
TOL_HAND = 1e-12  # ρ, η, λ, T_min by hand, relative: closed forms, a few float operations
TOL_PAGE = 1e-3  # numbers read off the page, relative: it prints 4 significant digits
# Ψ vs svmcore.psi: exact (both copy x̃ into one block); scores by hand: exact (small integers)

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120
X_HAND = np.array([[3.0, 4.0], [0.0, 1.0]])  # ‖x_1‖ = 5, ‖x̃_1‖ = √26


def test_rho_by_hand():
    assert mc.psi_rho(X_HAND, bias=False) == pytest.approx(10.0, rel=TOL_HAND)
    assert mc.psi_rho(X_HAND, bias=True) == pytest.approx(2 * np.sqrt(26.0), rel=TOL_HAND)


def test_rho_bounds_every_psi_by_half():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 3))
    rho = mc.psi_rho(X, bias=True)
    norms = [np.linalg.norm(psi(x, c, 4, bias=True)) for x in X for c in range(4)]
    assert max(norms) == pytest.approx(rho / 2, rel=TOL_HAND)


def test_corollary_17_2_by_hand():
    # no bias: ρ = 10; B = 2, ε = 1: T ≥ 4·100/1 = 400; at T = 100, η = √(4/(100·100)) = 0.02
    c = mc.corollary_17_2(10.0, 2.0, 1.0, 100)
    assert c["T_min"] == pytest.approx(400.0, rel=TOL_HAND)
    assert c["meets"] is False
    assert c["eta"] == pytest.approx(0.02, rel=TOL_HAND)
    # bias: ρ² = 104; B = 1, ε = 0.5: T ≥ 104/0.25 = 416, and T = 416 meets it; η = 1/208
    c = mc.corollary_17_2(mc.psi_rho(X_HAND, True), 1.0, 0.5, 416)
    assert c["T_min"] == pytest.approx(416.0, rel=TOL_HAND)
    assert c["meets"] or np.isclose(c["T_min"], 416.0)
    assert c["eta"] == pytest.approx(1 / 208, rel=TOL_HAND)


@pytest.mark.parametrize("bias", [True, False])
def test_eta_is_svmcores_recommended_eta(bias):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(9, 2))
    rho = mc.psi_rho(X, bias)
    eta = mc.corollary_17_2(rho, 3.0, 0.1, 1234)["eta"]
    assert eta == pytest.approx(recommended_eta(X, 1234, 3.0, bias=bias), rel=TOL_HAND)


def test_corollary_17_1_by_hand():
    # ρ = 10 (no bias), B = 1, m = 2: λ = √(2·100/(1·2)) = 10
    assert mc.corollary_17_1(10.0, 1.0, 2) == pytest.approx(10.0, rel=TOL_HAND)
    # ρ² = 104, B = 2, m = 13: λ = √(208/52) = 2
    assert mc.corollary_17_1(mc.psi_rho(X_HAND, True), 2.0, 13) == pytest.approx(2.0, rel=TOL_HAND)


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="eps"):
        mc.corollary_17_2(1.0, 1.0, 0.0, 10)
    with pytest.raises(ValueError, match="rho and B"):
        mc.corollary_17_1(1.0, -1.0, 10)


@pytest.mark.parametrize("bias", [True, False])
def test_psi_rows_are_svmcores_psi(bias):
    rng = np.random.default_rng(2)
    x, k = rng.normal(size=3), 4
    W = rng.normal(size=(k, 3 + bias))
    tab = mc.psi_table(x, W, 1 - np.eye(k), 2, bias)
    for c in range(k):
        np.testing.assert_array_equal(tab["Psi"][c], psi(x, c, k, bias=bias))


def test_scores_by_hand():
    W = np.eye(3)  # ⟨w, Ψ(x, c)⟩ = x̃_c: x̃ = (3, 4, 1)
    tab = mc.psi_table([3.0, 4.0], W, 1 - np.eye(3), 0, True)
    np.testing.assert_array_equal(tab["score"], [3.0, 4.0, 1.0])
    np.testing.assert_array_equal(tab["augmented"], [0.0, 2.0, -1.0])  # Δ + s − s_0
    assert (tab["y_pred"], tab["y_hat"]) == (1, 1)
    tab = mc.psi_table([3.0, 4.0], np.zeros((3, 3)), 1 - np.eye(3), 0, True)
    assert tab["y_hat"] == 1  # the tie between classes 1 and 2 goes to the smallest


# -- the page ---------------------------------------------------------------------------
def _multiclass() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/multiclass.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _shown(at: AppTest, start: str) -> str:
    found = [m.value for m in at.markdown if m.value.startswith(start)]
    assert found, f"no markdown starting {start!r}"
    return found[0]


def _number(text: str, before: str) -> float:
    m = re.search(re.escape(before) + r"\s*([0-9.,e+-]+)", text)
    assert m, (before, text)
    return float(m.group(1).replace(",", "").rstrip("."))


def test_page_shows_corollary_17_2_and_psi():
    at = _multiclass()
    X, y = at.session_state["multiclass_sgd_psi_data"]
    text = _shown(at, "Corollary 17.2")
    rho = mc.psi_rho(X, True)
    assert _number(text, "‖x̃_i‖ =") == pytest.approx(rho, rel=TOL_PAGE)
    T = at.select_slider(key="multiclass_sgd_T").value
    c = mc.corollary_17_2(rho, 1.0, 0.1, T)
    assert _number(text, "η = √(B²/(ρ²T)) =") == pytest.approx(c["eta"], rel=TOL_PAGE)
    assert ("does **not** meet" in text) is (not c["meets"])
    at.number_input(key="multiclass_sgd_eps").set_value(0.001).run()
    assert "does **not** meet" in _shown(at, "Corollary 17.2")
    # Ψ for point 2: one row per class, x̃_2 in its own block
    at.number_input(key="multiclass_sgd_psi_i").set_value(2).run()
    assert not at.exception, [e.message for e in at.exception]
    k = len(np.unique(y))
    tables = [df.value for df in at.dataframe if "block 0, 1" in df.value.columns]
    assert tables, "the Ψ table"
    P = tables[0].drop(columns="y′").to_numpy(dtype=float)
    np.testing.assert_array_equal(P, [psi(X[1], c, k, bias=True) for c in range(k)])
    assert any(m.value.startswith("h_w(x_i) = argmax") for m in at.markdown)


def test_page_shows_corollary_17_1_for_multiclass_pegasos():
    at = _multiclass()
    at.radio(key="multiclass_algo").set_value("multiclass_pegasos").run()
    assert not at.exception, [e.message for e in at.exception]
    X, _ = at.session_state["multiclass_pegasos_psi_data"]
    text = _shown(at, "Corollary 17.1")
    lam = mc.corollary_17_1(mc.psi_rho(X, True), 1.0, len(X))
    assert _number(text, "SSBD's λ‖w‖²; this page minimises λ/2‖W‖², so its λ is") == (
        pytest.approx(2 * lam, rel=TOL_PAGE)
    )
    at.checkbox(key="multiclass_pegasos_use_rec").check().run()
    assert not at.exception, [e.message for e in at.exception]
    assert any("block 0, 1" in df.value.columns for df in at.dataframe)


def test_kernelized_pegasos_says_why_there_is_no_corollary_17_1():
    at = _multiclass()
    at.radio(key="multiclass_algo").set_value("multiclass_pegasos").run()
    at.checkbox(key="multiclass_pegasos_kern").check().run()
    assert not at.exception, [e.message for e in at.exception]
    assert not [m for m in at.markdown if m.value.startswith("Corollary 17.1")]
    assert any("the linear Ψ(x, y)" in c.value for c in at.caption)
