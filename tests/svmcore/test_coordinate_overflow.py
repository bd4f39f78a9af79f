"""Coordinates whose squared distances overflow are refused with a message naming the
overflow (no silent NaN), never answered with "not separable" or a NaN model.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmcore.feature_maps import poly_features, rbf_taylor_features

# Tolerance table: none — every check here is exact (an exception or not).

X, Y = datasets.separable_blobs(n=20, random_state=0)


@pytest.mark.parametrize("scale", [1e154, 1e200, 1e307])
@pytest.mark.parametrize(
    "call",
    [
        lambda X, y: svmcore.dual_svm(X, y, kernel=svmcore.rbf(1.0), C=None),
        lambda X, y: svmcore.dual_svm(X, y, kernel=svmcore.linear(), C=1.0, solver="qp"),
        lambda X, y: svmcore.primal_svm(X, y, C=1.0),
        lambda X, y: svmcore.pegasos(X, y, lam=0.1, T=100, random_state=0),
        lambda X, y: svmcore.kernel_pegasos(X, y, kernel=svmcore.rbf(1.0), lam=0.1, T=100),
    ],
)
def test_overflowing_coordinates_name_the_overflow(scale, call):
    with pytest.raises(ValueError, match="overflow double precision") as info:
        call(X * scale, Y)
    assert not isinstance(info.value, svmcore.NotSeparableError)


def test_large_but_safe_coordinates_are_accepted():
    res = svmcore.dual_svm(X * 1e150, Y, kernel=svmcore.linear(), C=None)
    assert np.all(np.isfinite(res.alpha))


# -- kernels and explicit feature maps at the edges: finite or a ValueError naming why --


KERNELS = [svmcore.linear(), svmcore.rbf(1.0), svmcore.polynomial(3, 1.0, 1.0)]


@pytest.mark.parametrize("kernel", KERNELS, ids=str)
def test_a_kernel_refuses_nan_and_overflowing_inputs_by_name(kernel):
    Xn = X.copy()
    Xn[2, 1] = np.nan
    with pytest.raises(ValueError, match="X must be finite"):
        kernel(Xn, X)
    with pytest.raises(ValueError, match="Z must be finite"):
        kernel(X, Xn)
    huge = X / np.abs(X).max() * 1e308  # finite, but every product overflows
    with pytest.raises(ValueError, match="overflow double precision"):
        kernel(huge, X)
    with pytest.raises(ValueError, match="overflow double precision"):
        kernel.diag(huge)


@pytest.mark.parametrize("scale", [1e100, 1e120, 1e150])
def test_rbf_taylor_features_are_finite_at_any_scale(scale):
    F = rbf_taylor_features(X * scale, gamma=1.0, n_terms=5)
    assert np.all(np.isfinite(F)) and np.all(np.abs(F) <= 1.0)


@pytest.mark.parametrize(
    "kwargs", [{"gamma": 1e300, "n_terms": 5}, {"gamma": 1.0, "n_terms": 200}], ids=str
)
def test_rbf_taylor_features_at_extreme_parameters_are_finite_and_right(kwargs):
    X1 = X[:, :1] / np.abs(X).max() * 3.0  # d = 1: 200 terms are 200 columns
    F = rbf_taylor_features(X1, **kwargs)
    assert np.all(np.isfinite(F)) and np.all(np.abs(F) <= 1.0)
    # 200 terms: the truncated Gram matrix is the Gaussian's to rounding (‖x‖ ≤ 3)
    if kwargs["n_terms"] == 200:
        np.testing.assert_allclose(F @ F.T, svmcore.rbf(1.0)(X1), rtol=0, atol=1e-13)


@pytest.mark.parametrize("scale", [1e100, 1e120, 1e150])
def test_poly_features_are_finite_or_name_the_overflow(scale):
    try:
        F = poly_features(X * scale, degree=3, gamma=1.0, coef0=1.0)
    except ValueError as exc:
        assert "X is too large for degree = 3" in str(exc)
    else:
        assert np.all(np.isfinite(F))


def test_poly_features_survive_an_intermediate_overflow():
    # γ^{|m|/2} x^m = (1e-150 · 1e120)^{|m|}: tiny, though x^m alone overflows
    F = poly_features(X * 1e120, degree=3, gamma=1e-300, coef0=1.0)
    assert np.all(np.isfinite(F))


@pytest.mark.parametrize(
    "bad, kind",
    [
        (X.astype(complex), "complex"),
        (np.ma.masked_array(X, mask=np.zeros_like(X)), "masked"),
        (X.astype("datetime64[s]"), "datetime64"),
        (X.astype("timedelta64[s]"), "timedelta64"),
        (np.array([["a", "b"]] * 20), "numeric"),
    ],
    ids=["complex", "masked", "datetime", "timedelta", "strings"],
)
def test_non_real_X_is_a_type_error_naming_X(bad, kind):
    for call in (
        lambda: svmcore.pegasos(bad, Y, lam=0.1, T=5),
        lambda: svmcore.dual_svm(bad, Y, kernel="linear", C=1.0),
        lambda: svmcore.rbf(1.0)(bad),
        lambda: rbf_taylor_features(bad, gamma=1.0, n_terms=3),
    ):
        with pytest.raises(TypeError, match=rf"X must be a .*{kind}"):
            call()


def test_multiclass_optimum_at_a_huge_lambda_is_the_zero_model():
    y3 = np.arange(X.shape[0]) % 3
    for lam in (1e300, 1e200):
        for kernel in (None, "rbf"):
            r = svmcore.multiclass_svm_optimum(X, y3, lam=lam, kernel=kernel)
            assert r.status == "optimal" and np.all(np.isfinite(r.alpha))
            assert r.objective == pytest.approx(1.0, abs=1e-12)  # W ≈ 0: the mean 0-1 hinge


def _feature_calls():
    from tests.api_fuzz import hostile_calls

    yield from hostile_calls(svmcore.rbf, {}, ["gamma"])
    yield from hostile_calls(svmcore.polynomial, {}, ["degree", "gamma", "coef0"])
    yield from hostile_calls(
        rbf_taylor_features, {"X": X, "gamma": 1.0, "n_terms": 4}, ["gamma", "n_terms"]
    )
    yield from hostile_calls(
        poly_features,
        {"X": X, "degree": 3, "gamma": 1.0, "coef0": 1.0},
        ["degree", "gamma", "coef0"],
    )
    for scale in (1e-300, 1e-150, 1e100, 1e150, 1e153, 1e200, 1e308):
        Xs = X / np.abs(X).max() * scale
        for kernel in KERNELS:
            yield f"{kernel}(X·{scale:g})", "X", lambda k=kernel, Xs=Xs: k(Xs)
        yield (
            f"taylor(X·{scale:g})",
            "X",
            lambda Xs=Xs: rbf_taylor_features(Xs, gamma=1.0, n_terms=6),
        )
        yield (
            f"poly_features(X·{scale:g})",
            "X",
            lambda Xs=Xs: poly_features(Xs, degree=4, gamma=1.0, coef0=1.0),
        )
    y3 = np.arange(X.shape[0]) % 3
    yield from hostile_calls(
        svmcore.multiclass_svm_optimum,
        {"X": X, "y": y3, "lam": 0.1, "max_iter": 2000},
        ["lam", "tol", "max_iter"],
    )


def test_hostile_kernel_and_feature_arguments_are_refused_by_name_or_finite():
    from tests.api_fuzz import sweep

    counts, failures = sweep(_feature_calls())
    print("kernel/feature hostile-argument outcomes:", counts)
    assert not failures, failures[:10]
