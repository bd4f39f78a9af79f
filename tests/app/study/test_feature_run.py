"""Lemma 16.3 for any explicit Φ: linear Pegasos on Φ(x) = kernel Pegasos with K
(svmlab.study.feature_run).
"""

import itertools

import numpy as np
import pytest

import svmcore
from svmlab.study.feature_run import EXACT_RTOL, explicit_verdict, explicit_vs_kernel

# Tolerance table ------------------------------------------------------------------------
TOL_EXACT_MAP = 1e-12  # max |Δ f(x_i)|, max |Δ w̄| for an exact Φ, relative (to max(1, max |f|),
# max(1, max |w̄|)); measured ≤ 4e-13
TOL_FEW_TERMS = 1e-6  # truncated Gaussian map, 3 terms: the runs differ by more than this
TOL_MANY_TERMS = 1e-9  # truncated Gaussian map, 30 terms: the runs agree to this (max |Δ f|)
TOL_SAME_STEPS = 1e-12  # truncated map, same steps (12 terms): max |Δ w̄| ≤ this < 1e-7 < max |Δ f|
# the kernel run is svmcore.kernel_pegasos' own: exact (the same indices)

KERNELS = [
    svmcore.linear(),
    svmcore.polynomial(2, 1.0, 1.0),
    svmcore.polynomial(2, 0.5, 0.0),
    svmcore.polynomial(3, 0.5, 2.0),
]
OPTIONS = list(itertools.product(["ssbd", "pegasos"], ["average", "last"], ["uniform", "cyclic"]))


@pytest.mark.parametrize("kernel", KERNELS, ids=str)
@pytest.mark.parametrize(("schedule", "averaging", "sampling"), OPTIONS)
def test_explicit_run_equals_the_kernel_run(kernel, schedule, averaging, sampling):
    X, y = svmcore.datasets.load("moons", n=60, random_state=2)
    run = explicit_vs_kernel(
        X,
        y,
        kernel,
        lam=0.01,
        T=2000,
        schedule=schedule,
        averaging=averaging,
        sampling=sampling,
        random_state=5,
    )
    assert run.max_df <= TOL_EXACT_MAP * max(1.0, np.max(np.abs(run.f_kernel)))
    assert run.max_dw <= TOL_EXACT_MAP * max(1.0, np.max(np.abs(run.w_kernel)))
    assert run.exact_map and run.agree
    assert np.any(run.w_kernel != 0), "the runs did something"
    assert explicit_verdict(run).startswith("Equal up to floating-point rounding")


def test_the_kernel_side_is_the_pages_own_run():
    # the shared indices are svmcore.sample_indices': the kernel run is the one the
    # registry runs with the same seed (no indices passed).
    X, y = svmcore.datasets.load("xor", n=50)
    kernel = svmcore.polynomial(2, 1.0, 1.0)
    run = explicit_vs_kernel(X, y, kernel, lam=0.05, T=700, sampling="shuffle", random_state=11)
    own = svmcore.kernel_pegasos(
        X, y, kernel=kernel, lam=0.05, T=700, sampling="shuffle", random_state=11
    )
    np.testing.assert_array_equal(run.f_kernel, kernel(X) @ own.alpha)
    np.testing.assert_array_equal(
        run.indices, svmcore.sample_indices(50, 700, "shuffle", random_state=11)
    )
    assert run.n_features == 6


def test_a_truncated_gaussian_map_differs_and_more_terms_close_the_gap():
    X, y = svmcore.datasets.load("moons", n=60)
    X = X / np.max(np.abs(X))  # inside the unit box: 30 terms reach rounding
    common = dict(lam=0.01, T=1500, random_state=0)
    few = explicit_vs_kernel(X, y, svmcore.rbf(1.0), n_terms=3, **common)
    many = explicit_vs_kernel(X, y, svmcore.rbf(1.0), n_terms=30, **common)
    assert not few.exact_map and few.max_df > TOL_FEW_TERMS
    assert "drift apart" in explicit_verdict(few) and few.max_dw > TOL_FEW_TERMS
    same_steps = explicit_vs_kernel(X, y, svmcore.rbf(1.0), n_terms=12, **common)
    # 12 terms (Gram error 2e-6): no margin crosses 1 differently, w̄ agrees, f does not
    assert same_steps.max_dw <= TOL_SAME_STEPS < 1e-7 < same_steps.max_df
    assert "took the same steps" in explicit_verdict(same_steps)
    assert many.map_error <= EXACT_RTOL and many.max_df <= TOL_MANY_TERMS
    assert few.n_features == 6 and many.n_features == 465


def test_class_weights_pass_to_both_runs():
    X, y = svmcore.datasets.load("imbalanced_blobs", n=44)
    kernel = svmcore.polynomial(2, 0.5, 1.0)
    common = dict(lam=0.05, T=800, random_state=1)
    plain = explicit_vs_kernel(X, y, kernel, **common)
    weighted = explicit_vs_kernel(X, y, kernel, class_weight={-1: 1.0, 1: 4.0}, **common)
    assert weighted.agree and weighted.max_df <= TOL_EXACT_MAP * max(
        1.0, np.abs(weighted.f_kernel).max()
    )
    assert np.max(np.abs(weighted.w_kernel - plain.w_kernel)) > 1e-3, "the weights did act"


def test_bad_input_is_named():
    X, y = svmcore.datasets.load("moons", n=10)
    with pytest.raises(ValueError, match="lam"):
        explicit_vs_kernel(X, y, svmcore.linear(), lam=0.0, T=10)
    with pytest.raises(ValueError, match="T"):
        explicit_vs_kernel(X, y, svmcore.linear(), lam=0.1, T=0)
    with pytest.raises(ValueError, match="settings must give lam and T"):
        explicit_vs_kernel(X, y, svmcore.linear(), lam=0.1)
