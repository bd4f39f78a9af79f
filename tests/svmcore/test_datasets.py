"""The preset data sets and the seeds' worked examples."""

import numpy as np
import pytest

from svmcore import datasets

# Tolerance table: none — generated data are compared bit for bit, the seeds'
# examples exactly, and separability by strict inequalities.


@pytest.mark.parametrize("name", sorted(datasets.REGISTRY))
def test_every_preset_generates_valid_data(name):
    spec = datasets.REGISTRY[name]
    X, y = datasets.load(name, random_state=1)
    assert X.ndim == 2 and X.shape[1] == 2 and X.shape[0] == len(y)
    assert np.all(np.isfinite(X))
    assert len(np.unique(y)) == spec.n_classes
    if spec.n_classes == 2:
        assert set(np.unique(y)) == {-1.0, 1.0}
    X2, y2 = datasets.load(name, random_state=1)
    np.testing.assert_array_equal(X, X2)  # same seed, same data
    np.testing.assert_array_equal(y, y2)
    if not spec.fixed:
        assert len(datasets.load(name, n=37, random_state=0)[1]) == 37


def test_seed003_four_points():
    X, y = datasets.lin_four_points()
    np.testing.assert_array_equal(X, [[0, 0], [2, 2], [2, 0], [3, 0]])
    np.testing.assert_array_equal(y, [-1, -1, 1, 1])


def test_seed004_circle_is_separable_after_phi():
    X, y = datasets.circle(200, random_state=0)
    phi = np.column_stack([np.ones(len(y)), X[:, 0] ** 2, X[:, 1] ** 2])
    w = np.array([-1.0, 1.0, 1.0])  # the lecture's separating hyperplane in φ-space
    assert np.all(y * (phi @ w) > 0)


def test_separable_blobs_are_separable_and_outlier_is_not():
    X, y = datasets.separable_blobs(100, noise=2.0, random_state=0)
    w = np.array([1.0, 1.0])
    assert np.all(y * (X @ w) > 0)
    X, y = datasets.blobs_outlier(40, random_state=0)
    assert y[-1] == -1 and X[-1] @ w > 0  # a −1 point deep in the +1 blob


def test_imbalanced_ratio_and_k_blobs():
    _, y = datasets.imbalanced_blobs(110, ratio=10.0)
    assert np.sum(y < 0) == 100 and np.sum(y > 0) == 10
    _, y = datasets.k_blobs(60, k=6)
    assert np.bincount(y).tolist() == [10] * 6


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: datasets.moons(n=1), "n must be >= 2"),
        (lambda: datasets.moons(noise=-1.0), "noise must be >= 0"),
        (lambda: datasets.k_blobs(k=7), "k must be <= 6"),
        (lambda: datasets.k_blobs(n=3, k=4), "n must be >= k"),
        (lambda: datasets.load("nope"), "unknown data set"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
