"""Lemma 16.3 live (seed 000): kernel Pegasos with the linear kernel is linear Pegasos.

The numbers the kernel page shows (:func:`svmlab.study.lemma.lemma_16_3`) are checked against
each other, against a plain transcription of SSBD's linear SGD for soft-SVM on the same
indices, and against the page's own run; then the page is driven through AppTest.
"""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svmcore
from svmcore import datasets
from svmlab.study.lemma import draw_indices, lemma_16_3

# Tolerance table ------------------------------------------------------------------------
TOL_LEMMA = 1e-12  # max |Σ_j ᾱ_j x_j − w̄_linear|, absolute (the lemma's identity up to rounding)
TOL_BOX = 1e-12  # relative, against the plain loop below on the same indices

TIMEOUT_S = 120  # per AppTest run

ROOT = Path(__file__).resolve().parents[3]
SCHEDULES = ["ssbd", "pegasos"]
OUTPUTS = ["average", "last"]


def linear_sgd_box(X, y, lam, idx, schedule, averaging, c=None):
    """SGD for soft-SVM in the feature space ψ(x) = x, literally: θ += c_y y_i x_i when
    y_i⟨w⁽ᵗ⁾, x_i⟩ < 1, w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) ("ssbd") or θ⁽ᵗ⁾/(λ(t−1)) ("pegasos", w⁽¹⁾ = 0)."""
    T, shift = len(idx), 0 if schedule == "ssbd" else 1
    c = np.ones(len(y)) if c is None else c
    theta, w_sum = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    for t in range(1, T + 1):
        s = t - shift
        w = theta / (lam * s) if s > 0 else np.zeros_like(theta)
        w_sum += w
        i = idx[t - 1]
        if y[i] * (w @ X[i]) < 1:
            theta = theta + c[i] * y[i] * X[i]
    if averaging == "average":
        return w_sum / T
    return theta / (lam * (T + 1 - shift))


@pytest.fixture(scope="module")
def blobs():
    X, y = datasets.moons(60, noise=0.3, random_state=1)
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("averaging", OUTPUTS)
@pytest.mark.parametrize("class_weight", [None, "balanced", {-1: 1.0, 1: 3.0}])
def test_kernel_and_linear_outputs_agree_on_the_same_indices(
    blobs, schedule, averaging, class_weight
):
    X, y = blobs
    X, y = X[:45], y[:45]  # unequal classes, so "balanced" weights are not all 1
    lam, T = 0.05, 3000
    opts = {"schedule": schedule, "averaging": averaging, "class_weight": class_weight}
    out = lemma_16_3(X, y, lam=lam, T=T, random_state=7, **opts)
    assert out.indices.shape == (T,)
    assert out.max_abs_difference <= TOL_LEMMA
    assert np.linalg.norm(out.w_linear) > 0.1, "a non-trivial w̄"
    # an independent transcription of SGD on ψ(x) = x with the same weights and indices
    if class_weight is None:
        c = None
    elif class_weight == "balanced":
        c = np.where(y > 0, len(y) / (2 * np.sum(y > 0)), len(y) / (2 * np.sum(y < 0)))
    else:
        c = np.where(y > 0, class_weight[1], class_weight[-1])
    ref = linear_sgd_box(X, y, lam, out.indices, schedule, averaging, c)
    np.testing.assert_allclose(out.w_kernel, ref, rtol=TOL_BOX, atol=1e-14)
    np.testing.assert_allclose(out.w_linear, ref, rtol=TOL_BOX, atol=1e-14)


def test_class_weights_change_the_outputs(blobs):
    X, y = blobs
    args = {"lam": 0.05, "T": 2000, "random_state": 0}
    plain = lemma_16_3(X[:45], y[:45], **args)
    weighted = lemma_16_3(X[:45], y[:45], class_weight={-1: 1.0, 1: 3.0}, **args)
    assert np.max(np.abs(plain.w_linear - weighted.w_linear)) > 1e-3


@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_drawn_indices_are_the_page_runs_indices(blobs, sampling):
    """The screen says the shared i_1..i_T are the run above's: the page's run (indices
    from ``sampling`` and the seed) gives the same Σ_j ᾱ_j x_j bit for bit."""
    X, y = blobs
    args = {"lam": 0.1, "T": 500, "schedule": "ssbd", "averaging": "average"}
    out = lemma_16_3(X, y, sampling=sampling, random_state=3, **args)
    page_run = svmcore.kernel_pegasos(
        X, y, kernel="linear", sampling=sampling, random_state=3, **args
    )
    np.testing.assert_array_equal(page_run.alpha @ X, out.w_kernel)


def test_draw_indices_follow_the_sampling():
    np.testing.assert_array_equal(draw_indices(3, 7, "cyclic"), [0, 1, 2, 0, 1, 2, 0])
    shuffled = draw_indices(4, 8, "shuffle", random_state=0)
    assert sorted(shuffled[:4]) == [0, 1, 2, 3] and sorted(shuffled[4:]) == [0, 1, 2, 3]
    np.testing.assert_array_equal(
        draw_indices(5, 6, "uniform", random_state=2),
        np.random.default_rng(2).integers(0, 5, size=6),
    )


@pytest.mark.parametrize(
    ("args", "word"), [((5, 3, "random"), "sampling"), ((0, 3), "n"), ((5, 0), "T")]
)
def test_draw_indices_rejects_bad_input(args, word):
    with pytest.raises(ValueError, match=word):
        draw_indices(*args)


# -- the kernel page ---------------------------------------------------------------------
def _kernel_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/kernel_pegasos.py")
    at.run()
    return at


def test_kernel_page_shows_lemma_16_3_with_the_linear_kernel():
    at = _kernel_page()
    assert any("ψ(x) = x itself" in c.value for c in at.caption), "the one line for RBF"
    at.selectbox(key="kernel_pegasos_kernel").set_value("linear").run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert any("same i_1..i_T" in c.value for c in at.caption)
    tables = [t.value for t in at.table if "|difference|" in t.value.columns]
    assert len(tables) == 1
    table = tables[0]
    kern, lin = table.columns[1], table.columns[2]
    assert "Σ_j ᾱ_j x_j (kernel Pegasos)" in kern and "linear Pegasos" in lin, list(table.columns)
    w_kernel = table[kern].astype(float).to_numpy()
    assert np.max(np.abs(w_kernel - table[lin].astype(float).to_numpy())) <= TOL_LEMMA
    assert np.linalg.norm(w_kernel) > 0, "a trained w̄"
    shown = [m.value for m in at.markdown if "max |difference|" in m.value]
    assert shown and float(shown[0].split("=")[1].split("**")[0]) <= TOL_LEMMA
