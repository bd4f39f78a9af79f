"""Every exercise's check on an unsolved (its start) and a solved configuration, by hand."""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS, widgets
from svmlab.algorithms import dual_svm as dual_entry
from svmlab.study.exercise_checks import hard_margin_svs, margin_start, moved_points
from svmlab.study.exercises import EXERCISES, HARD, SOFT, Attempt
from svmlab.ui.router import PAGES

# Tolerance table ------------------------------------------------------------------------
TOL_MARGIN = 1e-6  # margins of the hard-margin SVM by SMO at tol 1e-8, absolute (the hand values
# are 1/√2, 1 and 2); "doubled" means ≥ 1.99 × the start (the check's own 1 % slack)
# the other checks compare counts (support vectors, bounded α, disagreements, ambiguous
# points) and thresholds the configurations below clear by a wide margin (test error 29 % vs
# 20 %; P − P* = 6e-3 vs 1e-2): no tolerance

DUAL = dict(solver="smo", tol=1e-3)
SGD = dict(sampling="uniform", class_weight=None, random_state=0, averaging="average")
KP = dict(kernel="linear", lam=0.01, T=10_000, schedule="ssbd", **SGD)
PEG = dict(lam=0.01, schedule="pegasos", bias="none", batch_size=1, projection=False, **SGD)
OVA = dict(learner="pegasos", lam=0.01, bias="none", T=3_000, random_state=0)


def attempt(ex_id, params, X=None, y=None):
    ex = EXERCISES[ex_id]
    X = ex.X if X is None else np.asarray(X, dtype=float)
    y = ex.y if y is None else np.asarray(y, dtype=float)
    result = ALGORITHMS[ex.algorithm].fn(X, y, **params)
    return ex.evaluate(Attempt(ex.algorithm, X, y, params, result))


# -- the catalogue -------------------------------------------------------------------------
def test_at_least_eight_exercises_each_on_a_page_with_its_algorithm():
    assert len(EXERCISES) >= 8
    pages = {p.url_path for p in PAGES}
    for ex_id, ex in EXERCISES.items():
        assert ex.id == ex_id and ex.title and ex.statement and ex.hint
        assert ex.page in pages and ex.script == f"pages/{ex.page}.py"
        assert ex.algorithm in ALGORITHMS
        assert len(ex.X) == len(ex.y) >= 4


def test_starting_widget_values_are_values_the_widgets_offer():
    assert (HARD, SOFT) == (dual_entry.HARD, dual_entry.SOFT)
    sliders = {"_C": (-2, 3), "_lam": (-4, 1), "_gamma": (-2, 2)}
    for ex in EXERCISES.values():
        for key, value in ex.widgets.items():
            for suffix, (lo, hi) in sliders.items():
                if key.endswith(suffix):
                    assert value in widgets.log_options(lo, hi), (ex.id, key, value)
            if key.endswith("_T"):
                assert value in widgets.T_OPTIONS, (ex.id, key)


def test_every_start_is_unsolved_with_its_own_settings():
    starts = {
        "two_svs": dict(kernel="linear", C=None, **DUAL),
        "double_margin": dict(kernel="linear", C=None, **DUAL),
        "one_bounded": dict(kernel="linear", C=100.0, **DUAL),
        "kernel_pegasos_bias": KP,
        "overfit_gamma": dict(kernel="rbf", gamma=1.0, C=1.0, **DUAL),
        "ova_ambiguous": OVA,
        "pegasos_T": dict(T=10, **PEG),
        "all_free": dict(kernel="rbf", gamma=1.0, C=1000.0, **DUAL),
    }
    assert set(starts) == set(EXERCISES)
    for ex_id, params in starts.items():
        v = attempt(ex_id, params)
        assert not v.done, (ex_id, v.feedback)
        assert any(ch.isdigit() for ch in v.feedback), "feedback gives the numbers"


def test_a_run_of_another_algorithm_is_never_done():
    ex = EXERCISES["two_svs"]
    v = ex.evaluate(Attempt("primal_svm", ex.X, ex.y, {}, None))
    assert not v.done and "dual_svm" in v.feedback


# -- solved configurations -----------------------------------------------------------------
def test_two_svs():
    # Lin's four points: α = (1/2, 1/2, 1, 0), three support vectors.
    v = attempt("two_svs", dict(kernel="linear", C=None, **DUAL))
    assert "3 support vectors (α = 0.5, 0.5, 1)" in v.feedback
    # One point per class closest, (0, 0) and (2, 0): the others are 2 away from x₁ = 1.
    X = [[0, 0], [-1, 1], [2, 0], [3, 1]]
    assert attempt("two_svs", dict(kernel="linear", C=None, **DUAL), X).done
    five = attempt(
        "two_svs", dict(kernel="linear", C=None, **DUAL), [*X, [4, 0]], [-1, -1, 1, 1, 1]
    )
    assert not five.done and "exactly 4" in five.feedback
    soft = attempt("two_svs", dict(kernel="linear", C=1.0, **DUAL), X)
    assert not soft.done and "hard margin" in soft.feedback


def test_double_margin():
    ex = EXERCISES["double_margin"]
    # (0, 0.5) is 2 from the −1 points on x₁ = −2: margin 1; at (2, 1) it is 4 away: 2.
    assert ex.start()["margin"] == pytest.approx(1.0, abs=TOL_MARGIN)
    assert margin_start(EXERCISES["two_svs"].X, EXERCISES["two_svs"].y)["margin"] == (
        pytest.approx(1 / np.sqrt(2), abs=TOL_MARGIN)
    )
    hard = dict(kernel="linear", C=None, **DUAL)
    moved = ex.X.copy()
    moved[3] = [2.0, 1.0]
    v = attempt("double_margin", hard, moved)
    assert v.done, v.feedback
    half = ex.X.copy()
    half[3] = [0.5, 0.5]  # 2.5 away: margin 1.25, not doubled
    assert not attempt("double_margin", hard, half).done
    two = moved.copy()
    two[0] = [-3.0, 0.0]  # two points moved
    v = attempt("double_margin", hard, two)
    assert not v.done and "exactly one" in v.feedback


def test_moved_points_counts_by_position_and_label():
    X0, y0 = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([-1.0, 1.0])
    assert moved_points(X0, y0, X0[::-1], y0[::-1]) == 0, "order does not matter"
    assert moved_points(X0, y0, X0, -y0) == 2, "a relabelled point counts"
    assert moved_points(X0, y0, X0[:1], y0[:1]) is None


def test_one_bounded():
    # scanned by hand over the C slider: 0 bounded for C ≥ 17.8, 1 for C in [1.78, 10],
    # 2 at C = 1, 4 for C ≤ 0.562
    assert attempt("one_bounded", dict(kernel="linear", C=3.16, **DUAL)).done
    few = attempt("one_bounded", dict(kernel="linear", C=0.1, **DUAL))
    assert not few.done and "4 bounded" in few.feedback and "raise C" in few.feedback


def test_kernel_pegasos_bias():
    ex = EXERCISES["kernel_pegasos_bias"]
    # Shifted by (6, 6), the blobs sit far from the origin: no line through 0 separates
    # them as the dual's (b ≈ −4) does.
    v = attempt("kernel_pegasos_bias", KP, ex.X + 6.0)
    assert v.done and "20 of 40" in v.feedback and "no b" in v.feedback
    weighted = attempt("kernel_pegasos_bias", {**KP, "class_weight": "balanced"}, ex.X + 6.0)
    assert not weighted.done


def test_overfit_gamma():
    v = attempt("overfit_gamma", dict(kernel="rbf", gamma=100.0, C=1.0, **DUAL))
    assert v.done and "training error 0.0 %" in v.feedback and "test error 29.0 %" in v.feedback
    X = EXERCISES["overfit_gamma"].X.copy()
    X[0] += 0.5
    v = attempt("overfit_gamma", dict(kernel="rbf", gamma=100.0, C=1.0, **DUAL), X)
    assert not v.done and "Reload" in v.feedback


def test_ova_ambiguous():
    ex = EXERCISES["ova_ambiguous"]
    X = ex.X.copy()
    X[np.flatnonzero(ex.y == 0)[0]] = [0.0, 0.0]  # a class-0 point dragged into the middle
    v = attempt("ova_ambiguous", OVA, X)
    assert v.done and "1 training points claimed by no classifier" in v.feedback


def test_pegasos_T():
    v = attempt("pegasos_T", dict(T=3_000, **PEG))
    assert v.done and "6.4" in v.feedback and "coordinate descent" in v.feedback
    last = attempt("pegasos_T", dict(T=3_000, **{**PEG, "averaging": "last"}))
    assert not last.done and "averaged" in last.feedback
    # the check's P* is the exact minimum: scikit-learn's LinearSVC (C = 1/(λn)) agrees
    from sklearn.svm import LinearSVC

    ex = EXERCISES["pegasos_T"]
    P_star = svmcore.soft_svm_optimum(ex.X, ex.y, lam=0.01).objective
    ref = LinearSVC(C=1 / (0.01 * 60), loss="hinge", fit_intercept=False, tol=1e-10)
    w = ref.fit(ex.X, ex.y).coef_.ravel()
    P_ref = 0.005 * w @ w + np.mean(np.maximum(0, 1 - ex.y * (ex.X @ w)))
    assert P_star == pytest.approx(P_ref, abs=1e-6)


def test_all_free():
    v = attempt("all_free", dict(kernel="rbf", gamma=31.6, C=1000.0, **DUAL))
    assert v.done and "30 of 30" in v.feedback


def test_hard_margin_svs_ignores_the_interior_points_dust():
    assert hard_margin_svs([0.5, 1e-9, 0.0, 1.0]).tolist() == [0, 3]
    assert hard_margin_svs([0.0, 0.0]).size == 0
