"""The Compare page's numbers (svmlab.study.compare) against hand computations and scikit-learn."""

import numpy as np
import pytest

import svmcore
from svmlab.plot.compare_figure import comparison_figure, overlay_figure
from svmlab.study import compare

# Tolerance table ------------------------------------------------------------------------
TOL_WORKED = 1e-6  # worked example (seed 003's four points, λ = 0.025 ⇔ C = 10): P of the dual
# with b = λ (w = (1, −1), no hinge) and P* of the homogeneous problem = 1/4 + 5λ/8, absolute
# (SMO's tol = 1e-6 on α)
TOL_SVC = 1e-5  # the dual with C = 1/(λn) against scikit-learn's SVC (libsvm, tol 1e-6) and
# against λ × the dual's own primal ½‖w‖² + C Σ ξ, relative
TOL_PEGASOS = 5e-3  # Pegasos / kernel Pegasos at T = 100 000 against the exact homogeneous
# optimum: P − P* ≤ this (SSBD's O(log T/(λT)) at λ = 0.05)
TOL_LIBLINEAR = 1e-6  # LinearSVC (liblinear, tol 1e-8) against P*
TOL_SGDCLASSIFIER = 2e-2  # SGDClassifier (alpha = λ) against P*
TOL_ORDER = 1e-9  # order of the optima: every model's P ≥ its problem's exact minimum − this

LIN_X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
LIN_Y = np.array([-1.0, -1.0, 1.0, 1.0])


@pytest.fixture(scope="module")
def blobs():
    return svmcore.datasets.load("overlapping_blobs", n=60, random_state=0)


@pytest.fixture(scope="module")
def linear_run(blobs):
    X, y = blobs
    return compare.compare_runs(X, y, lam=0.05, kernel="linear", T=100_000, random_state=1)


@pytest.fixture(scope="module")
def rbf_run(blobs):
    X, y = blobs
    return compare.compare_runs(X, y, lam=0.05, kernel="rbf", gamma=0.5, T=100_000)


def test_the_worked_example_by_hand():
    lam = 0.025  # n = 4: C = 1/(λn) = 10 ≥ max α = 1, so the soft margin is Lin's hard one
    cmp = compare.compare_runs(LIN_X, LIN_Y, lam=lam, kernel="linear", T=1_000)
    assert cmp.C == pytest.approx(10.0)
    # Lin's solution w = (1, −1), b = −1: ‖w‖² = 2, every y f ≥ 1, so P = λ/2 · 2 = λ.
    assert cmp.objective("dual_bias") == pytest.approx(lam, abs=TOL_WORKED)
    assert cmp.fitted["dual_bias"].b == pytest.approx(-1.0, abs=TOL_WORKED)
    assert cmp.n_support("dual_bias") == 3
    # Without b the point (0, 0) always has f = 0 (hinge 1, i.e. 1/4 of the mean); the best
    # is w = (1/2, −1), which puts the other three on their margins: P* = 1/4 + λ/2 · 5/4.
    assert cmp.objective("dual_homogeneous") == pytest.approx(0.25 + 5 * lam / 8, abs=TOL_WORKED)
    assert cmp.objective("sk_linearsvc") == pytest.approx(0.25 + 5 * lam / 8, abs=TOL_WORKED)
    assert cmp.agreement("dual_bias") == 1.0


def test_the_mapping_is_shown_with_its_numbers():
    tex = compare.mapping_latex(0.01, 100)
    assert r"\frac{1}{0.01 \cdot 100} = 1" in tex
    assert r"\lambda = 0.01" in tex
    assert "= 0.5" in compare.mapping_latex(0.02, 100)


def test_dual_with_C_equal_one_over_lambda_n_matches_svc_and_its_own_primal(rbf_run, blobs):
    X, y = blobs
    lam, n = rbf_run.lam, rbf_run.n
    assert rbf_run.C == pytest.approx(1.0 / (lam * n))
    P_dual, P_svc = rbf_run.objective("dual_bias"), rbf_run.objective("sk_svc")
    assert P_dual == pytest.approx(P_svc, rel=TOL_SVC)
    # an independent scale: λ × (½‖w‖² + C Σ ξ) of svmcore.dual_svm itself
    d = svmcore.dual_svm(X, y, kernel="rbf", gamma=0.5, C=rbf_run.C, tol=1e-6)
    assert P_dual == pytest.approx(lam * d.primal_objective, rel=TOL_SVC)
    assert rbf_run.n_support("dual_bias") == rbf_run.n_support("sk_svc")
    assert rbf_run.agreement("sk_svc") == 1.0


def test_pegasos_and_sklearn_reach_the_exact_optimum_at_large_T(linear_run):
    P_star = linear_run.objective("dual_homogeneous")  # linear kernel: Pegasos's problem
    for key, tol in [
        ("sgd_linear", TOL_PEGASOS),
        ("sgd_kernel", TOL_PEGASOS),
        ("sk_linearsvc", TOL_LIBLINEAR),
    ]:
        gap = linear_run.objective(key) - P_star
        assert -TOL_ORDER <= gap <= tol, (key, gap)
    assert abs(linear_run.objective("sk_sgd") - P_star) <= TOL_SGDCLASSIFIER
    assert linear_run.agreement("sgd_linear") >= 0.9


def test_kernel_pegasos_approaches_the_homogeneous_dual_and_the_bias_only_helps(rbf_run):
    P_hom, P_bias = rbf_run.objective("dual_homogeneous"), rbf_run.objective("dual_bias")
    assert P_bias <= P_hom + TOL_ORDER, "a free b can only lower the minimum"
    assert 0.0 <= rbf_run.objective("sgd_kernel") - P_hom <= TOL_PEGASOS
    kernel_models = [k for k, m in compare.MODELS.items() if m.solves.endswith(", K")]
    assert len(kernel_models) == 4
    for key in kernel_models:  # nothing in the RKHS of K beats the optimum with a free b
        assert rbf_run.objective(key) >= P_bias - 1e-6, key


def test_each_model_is_measured_against_the_exact_minimum_of_its_own_problem(rbf_run):
    # with the RBF kernel the linear models solve another problem: their P* is the
    # linear homogeneous minimum, which liblinear reaches to its tol
    assert rbf_run.gap("dual_bias") == 0.0 and rbf_run.gap("dual_homogeneous") == 0.0
    assert abs(rbf_run.gap("sk_linearsvc")) <= TOL_LIBLINEAR
    assert abs(rbf_run.gap("sk_svc")) <= 1e-5
    for key in compare.MODELS:
        assert rbf_run.gap(key) >= -1e-6, key
    assert 0.0 < rbf_run.gap("sgd_kernel") <= TOL_PEGASOS


def test_table_rows_name_every_model_with_its_numbers(rbf_run):
    rows = compare.table_rows(rbf_run)
    assert [r["model"] for r in rows] == [m.label for m in compare.MODELS.values()]
    dual = rows[list(compare.MODELS).index("dual_bias")]
    assert dual["agrees with the dual"] == "100.0 %"
    assert dual["objective P"] == round(rbf_run.objective("dual_bias"), 6)
    assert dual["P − P* (its problem)"] == 0.0
    assert all(r["fit time (ms)"] >= 0 for r in rows)
    assert all(r["training error"].endswith("%") for r in rows)


def test_the_same_seed_gives_bit_identical_sgd_models(blobs):
    X, y = blobs
    a = compare.compare_runs(X, y, lam=0.1, T=500, random_state=3)
    b = compare.compare_runs(X, y, lam=0.1, T=500, random_state=3)
    c = compare.compare_runs(X, y, lam=0.1, T=500, random_state=4)
    for key in ("sgd_linear", "sgd_kernel", "sk_sgd"):
        assert np.array_equal(a.fitted[key].coef, b.fitted[key].coef)
        assert np.array_equal(a.fitted[key].X_fit, b.fitted[key].X_fit)
    assert not np.array_equal(a.fitted["sgd_kernel"].coef, c.fitted["sgd_kernel"].coef)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        (dict(lam=0.0), "lam"),
        (dict(lam=float("nan")), "lam"),
        (dict(lam=0.1, T=0), "T"),
        (dict(lam=0.1, T=2.5), "T"),
        (dict(lam=0.1, kernel="sigmoid"), "kernel"),
    ],
)
def test_bad_arguments_are_refused_by_name(blobs, kwargs, word):
    X, y = blobs
    with pytest.raises(ValueError, match=word):
        compare.compare_runs(X, y, **kwargs)


def test_bad_data_are_refused_by_name():
    with pytest.raises(ValueError, match="y must hold both labels"):
        compare.compare_runs(LIN_X, np.ones(4), lam=0.1)
    with pytest.raises(ValueError, match="MAX_N"):
        X = np.random.default_rng(0).normal(size=(compare.MAX_N + 1, 2))
        compare.compare_runs(X, np.where(X[:, 0] > 0, 1.0, -1.0), lam=0.1)


def test_grid_values_and_the_overlay_figure(rbf_run):
    keys = ["sgd_kernel", "dual_bias", "sk_svc"]
    values = compare.grid_values(rbf_run, keys, (-3, 3), (-2, 2), resolution=40)
    xs, ys, Z = values["dual_bias"]
    assert Z.shape == (40, 40) and xs[0] == -3 and ys[-1] == 2
    P = np.array([[xs[7], ys[11]]])
    assert Z[11, 7] == pytest.approx(compare.decision_values(rbf_run, "dual_bias", P)[0])
    fig = comparison_figure(rbf_run, keys, xrange=(-3, 3), yrange=(-2, 2))
    lines = [t for t in fig.data if t.type == "contour"]
    assert [t.name for t in lines] == [compare.MODELS[k].label for k in keys]
    assert all(t.showlegend for t in lines), "a legend click toggles each boundary"
    assert {t.line.dash for t in lines} == {"solid", "dash"}
    empty = overlay_figure(rbf_run.X, rbf_run.y, [], xrange=(-3, 3), yrange=(-2, 2))
    assert not [t for t in empty.data if t.type == "contour"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_optima_are_ordered_on_random_data(seed):
    """Seeded property: with a free b the minimum is lowest; the homogeneous dual is the
    minimum of the homogeneous problems in K (kernel Pegasos) and, for the linear kernel,
    of the linear ones too."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1.0, -1.0)
    lam = float(10 ** rng.uniform(-3, 0))
    for kernel in ("linear", "rbf"):
        cmp = compare.compare_runs(X, y, lam=lam, kernel=kernel, T=2_000, random_state=seed)
        P = {key: cmp.objective(key) for key in compare.MODELS}
        assert P["dual_bias"] <= P["dual_homogeneous"] + TOL_ORDER
        assert P["dual_homogeneous"] <= P["sgd_kernel"] + TOL_ORDER
        assert P["dual_bias"] == pytest.approx(P["sk_svc"], rel=1e-4, abs=1e-9)
        if kernel == "linear":
            for key in ("sgd_linear", "sk_linearsvc", "sk_sgd"):
                assert P["dual_homogeneous"] <= P[key] + TOL_ORDER, key
