"""Seed 002 §2.2 (transfer learning) and §2.1 (class weights) on the linear page.

The shown objective and pseudo-code change with w_r; the run with w_r is the recursion
w_{t+1} = (1 − η_tλ) w_t + η_tλ w_r + η_t 1[y_j⟨w_t, x_j⟩ < 1] y_j x_j written out here
in a plain loop (seed 002's cyclic Algorithm 1); the inspector's steps are
``svmcore.sgd.pegasos.step`` with ``w_ref``; the class-weight caption states the note's
C·N/(2N_±) with the numbers of its 1-red/10-blue example.
"""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svmcore
from svmcore.sgd.pegasos import step
from svmlab.algorithms.pegasos import SPEC, class_weight_caption
from svmlab.algorithms.spec import inspected_steps

# Tolerance table ------------------------------------------------------------------------
TOL_LOOP = 1e-12  # run vs the plain loop written here, inspector vs ``step``, relative (the same
# arithmetic in a different order); the stored w_r vs the run's (w, b): exact (floats copied)

TIMEOUT_S = 120
ROOT = Path(__file__).resolve().parents[3]

W_R = (0.5, -0.3)


def _data():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(1.0, 0.8, (12, 2)), rng.normal(-1.0, 0.8, (12, 2))])
    y = np.repeat([1, -1], 12)
    return X, y


def _params(**kw):
    p = {"lam": 0.1, "T": 60, "schedule": "pegasos", "averaging": "last", "sampling": "cyclic"}
    p |= {"bias": "none", "batch_size": 1, "projection": False, "class_weight": None}
    p |= {"random_state": 0, "w_ref": W_R}
    p.update(kw)
    return p


# -- what is shown ---------------------------------------------------------------------
def test_objective_and_code_show_the_pull_towards_w_r():
    plain, ref = _params(w_ref=None), _params()
    assert r"\lVert w - w_r\rVert^2" in SPEC.objective(ref)
    assert "w_r" not in SPEC.objective(plain)
    texts = [line.text.strip() for line in SPEC.code(ref)]
    assert "w_{t+1} = (1 − η_t λ) w_t + η_t λ w_r + η_t y_j x_j" in texts
    assert "w_{t+1} = (1 − η_t λ) w_t + η_t λ w_r" in texts
    assert not any("w_r" in line.text for line in SPEC.code(plain))


def test_augmented_bias_objective_pulls_b_towards_b_r():
    obj = SPEC.objective(_params(bias="augment", w_ref=(*W_R, 0.2)))
    assert r"(b - b_r)^2" in obj


def test_no_sklearn_check_with_w_r():
    assert SPEC.check_applies(_params(w_ref=None))
    assert not SPEC.check_applies(_params())


# -- the numbers -------------------------------------------------------------------------
def _plain_loop(X, y, lam, T, w_r):
    """Seed 002's Algorithm 1 (cyclic j) with the pull towards w_r, written out."""
    w = np.zeros(2)
    margins = []
    for t in range(1, T + 1):
        j = (t - 1) % len(y)
        eta = 1.0 / (lam * t)
        m = y[j] * (w @ X[j])
        margins.append(m)
        w = (1 - eta * lam) * w + eta * lam * np.asarray(w_r) + (eta * y[j] * X[j] if m < 1 else 0)
    return w, np.array(margins)


def test_run_with_w_r_is_the_written_out_recursion_and_svmcore():
    X, y = _data()
    p = _params()
    result = SPEC.fit(X, y, p)
    w, _ = _plain_loop(X, y, p["lam"], p["T"], W_R)
    np.testing.assert_allclose(result.w, w, rtol=TOL_LOOP, atol=1e-14)
    direct = svmcore.pegasos(
        X, y, lam=0.1, T=60, averaging="last", sampling="cyclic", random_state=0, w_ref=W_R
    )
    np.testing.assert_array_equal(result.w, direct.w)
    # the objective reported is λ/2‖w − w_r‖² + mean hinge
    diff = result.w - np.asarray(W_R)
    hinge = np.maximum(0.0, 1.0 - y * (X @ result.w)).mean()
    assert result.objective == pytest.approx(p["lam"] / 2 * diff @ diff + hinge, rel=TOL_LOOP)
    # and w_r changes the run
    assert not np.allclose(result.w, SPEC.fit(X, y, _params(w_ref=None)).w)


def test_inspector_values_are_the_step_with_w_ref():
    X, y = _data()
    p = _params(sampling="uniform", T=40)
    result = SPEC.fit(X, y, p)
    shown = inspected_steps(SPEC, X, y, p, result.trace)
    w, b = np.zeros(2), 0.0
    for t, i, margin in zip(shown["t"], shown["i"], shown["margin"], strict=True):
        eta = 1.0 / (p["lam"] * t)
        w, b, m = step(w, b, X[[i]], y[[i]], eta, p["lam"], w_ref=np.asarray(W_R))
        assert margin == pytest.approx(float(m[0]), rel=TOL_LOOP, abs=1e-14)
    np.testing.assert_allclose(result.w, w, rtol=TOL_LOOP)


def test_class_weight_caption_states_the_notes_formula_and_numbers():
    y = np.array([1] + [-1] * 10)  # the note's 1 red, 10 blue
    text = class_weight_caption(y)
    assert "CN/(2N₊)" in text and "CN/(2N₋)" in text
    # N/(2N_±) computed here: 11/2 and 11/20, ratio 10 (the red point "duplicated 10 times")
    assert f"c₊ = {11 / 2:.4g}" in text and f"c₋ = {11 / 20:.4g}" in text
    assert "5.5" in text and "0.55" in text and "10 times" in text
    balanced = svmcore.pegasos(np.eye(11, 2), y, lam=1.0, T=1, class_weight="balanced")
    assert balanced.T == 1  # the option the caption describes is accepted


# -- the page ------------------------------------------------------------------------------
def _open() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/linear_pegasos.py")
    at.run()
    return at


def _clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def test_page_sets_uses_and_clears_w_r():
    at = _open()
    _clean(at)
    assert not any(c.key == "pegasos_use_wref" for c in at.checkbox)
    at.button(key="pegasos_set_wref").click().run()
    _clean(at)
    w_r, b_r = at.session_state["pegasos_wref"]
    assert len(w_r) == 2 and np.all(np.isfinite(w_r)) and np.isfinite(b_r)
    assert any("Stored w_r" in c.value for c in at.caption)
    before = [m.value for m in at.metric]
    at.checkbox(key="pegasos_use_wref").check().run()
    _clean(at)
    assert any(r"w - w_r" in x.value for x in at.latex)
    # the scikit-learn check does not apply (LinearSVC has no w_r)
    assert not any(b.key == "pegasos_check" for b in at.button)
    assert [m.value for m in at.metric] != before
    at.selectbox(key="pegasos_bias").set_value("augment").run()
    _clean(at)
    assert any(r"(b - b_r)^2" in x.value for x in at.latex)
    at.button(key="pegasos_clear_wref").click().run()
    _clean(at)
    assert "pegasos_wref" not in at.session_state
    assert not any(r"w_r" in x.value for x in at.latex)
