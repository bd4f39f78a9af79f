"""Coordinates whose squared distances overflow are refused with a message naming the
overflow (no silent NaN), never answered with "not separable" or a NaN model.
"""

import numpy as np
import pytest

import svmcore
from svmcore import datasets

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
