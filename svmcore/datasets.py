"""Small 2-D data sets for teaching, in pure NumPy.

Every generator takes ``n`` (number of points), ``noise`` and ``random_state`` and
returns ``(X, y)``: X of shape (n, 2); y in {−1, +1} for the binary sets and in
{0, …, k−1} for :func:`k_blobs`. The seeds' worked examples are here too:
:func:`lin_four_points` (seed 003) and :func:`circle` (seed 004).

:data:`REGISTRY` maps a preset name to a :class:`Dataset` that the app's preset
menu reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from svmcore._validation import check_int, check_positive, check_random_state

__all__ = [
    "REGISTRY",
    "Dataset",
    "blobs_outlier",
    "circle",
    "circles",
    "imbalanced_blobs",
    "k_blobs",
    "lin_four_points",
    "load",
    "moons",
    "overlapping_blobs",
    "separable_blobs",
    "spirals",
    "xor",
]


def _args(n, noise, random_state, *, min_n=2):
    n = check_int(n, "n", low=min_n, high=100_000)
    noise = check_positive(noise, "noise", allow_zero=True)
    return n, noise, check_random_state(random_state)


def _two_class_sizes(n: int, frac_pos: float = 0.5) -> tuple[int, int]:
    n_pos = min(max(round(n * frac_pos), 1), n - 1)
    return n - n_pos, n_pos


def _labels(n_neg: int, n_pos: int) -> np.ndarray:
    return np.concatenate([-np.ones(n_neg), np.ones(n_pos)])


def separable_blobs(n=40, noise=0.5, random_state=0):
    """Two Gaussian blobs far apart (centres (−2, −2) and (2, 2)): linearly separable."""
    n, noise, rng = _args(n, noise, random_state)
    n_neg, n_pos = _two_class_sizes(n)
    sd = min(noise, 0.6)  # keeps the classes separable for any noise asked
    X = np.vstack(
        [rng.normal([-2.0, -2.0], sd, (n_neg, 2)), rng.normal([2.0, 2.0], sd, (n_pos, 2))]
    )
    return X, _labels(n_neg, n_pos)


def overlapping_blobs(n=100, noise=1.0, random_state=0):
    """Two Gaussian blobs that overlap (centres (−1, −1) and (1, 1)): a soft margin is needed."""
    n, noise, rng = _args(n, noise, random_state)
    n_neg, n_pos = _two_class_sizes(n)
    X = np.vstack(
        [rng.normal([-1.0, -1.0], noise, (n_neg, 2)), rng.normal([1.0, 1.0], noise, (n_pos, 2))]
    )
    return X, _labels(n_neg, n_pos)


def blobs_outlier(n=40, noise=0.5, random_state=0):
    """Separable blobs plus one mislabelled point deep in the other class.

    The hard-margin lesson: with the outlier the data are not linearly separable, so
    the hard-margin SVM has no solution, and a soft margin gives up on that one point.
    """
    X, y = separable_blobs(max(n - 1, 2), noise, random_state)
    X = np.vstack([X, [[2.0, 2.0]]])
    y = np.concatenate([y, [-1.0]])
    return X, y


def xor(n=100, noise=0.3, random_state=0):
    """Four blobs at (±1, ±1), labelled by the sign of x₁·x₂ (not linearly separable)."""
    n, noise, rng = _args(n, noise, random_state, min_n=4)
    centres = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    which = np.arange(n) % 4
    X = centres[which] + rng.normal(0.0, noise, (n, 2))
    y = np.where(which < 2, 1.0, -1.0)
    return X, y


def moons(n=100, noise=0.15, random_state=0):
    """Two interleaving half circles (as scikit-learn's ``make_moons``)."""
    n, noise, rng = _args(n, noise, random_state)
    n_neg, n_pos = _two_class_sizes(n)
    a = np.linspace(0.0, np.pi, n_neg)
    b = np.linspace(0.0, np.pi, n_pos)
    X = np.vstack(
        [
            np.column_stack([np.cos(a), np.sin(a)]),
            np.column_stack([1.0 - np.cos(b), 0.5 - np.sin(b)]),
        ]
    )
    X += rng.normal(0.0, noise, X.shape)
    return X, _labels(n_neg, n_pos)


def circles(n=100, noise=0.08, random_state=0, factor=0.5):
    """Two concentric circles, radii 1 and ``factor``: the inner circle is +1."""
    n, noise, rng = _args(n, noise, random_state)
    n_neg, n_pos = _two_class_sizes(n)
    a = np.linspace(0.0, 2 * np.pi, n_neg, endpoint=False)
    b = np.linspace(0.0, 2 * np.pi, n_pos, endpoint=False)
    X = np.vstack(
        [np.column_stack([np.cos(a), np.sin(a)]), factor * np.column_stack([np.cos(b), np.sin(b)])]
    )
    X += rng.normal(0.0, noise, X.shape)
    return X, _labels(n_neg, n_pos)


def spirals(n=100, noise=0.1, random_state=0, turns=1.5):
    """Two interleaved spirals (a hard case: needs an RBF kernel with a large γ)."""
    n, noise, rng = _args(n, noise, random_state)
    n_neg, n_pos = _two_class_sizes(n)

    def arm(m, phase):
        s = np.linspace(0.15, 1.0, m)
        angle = 2 * np.pi * turns * s + phase
        return 2.0 * s[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])

    X = np.vstack([arm(n_neg, 0.0), arm(n_pos, np.pi)])
    X += rng.normal(0.0, noise, X.shape)
    return X, _labels(n_neg, n_pos)


def imbalanced_blobs(n=110, noise=0.8, random_state=0, ratio=10.0):
    """Overlapping blobs with ``ratio`` times more −1 than +1 points (seed 002 §2.1)."""
    n, noise, rng = _args(n, noise, random_state)
    check_positive(ratio, "ratio")
    n_neg, n_pos = _two_class_sizes(n, 1.0 / (1.0 + ratio))
    X = np.vstack(
        [rng.normal([-1.0, -1.0], noise, (n_neg, 2)), rng.normal([1.0, 1.0], noise, (n_pos, 2))]
    )
    return X, _labels(n_neg, n_pos)


def k_blobs(n=90, noise=0.5, random_state=0, k=3):
    """``k`` Gaussian blobs (2 <= k <= 6) on a circle of radius 3; labels 0..k−1."""
    n, noise, rng = _args(n, noise, random_state)
    k = check_int(k, "k", low=2, high=6)
    if n < k:
        raise ValueError(f"n must be >= k = {k} so that every class has a point, got {n}")
    angle = 2 * np.pi * np.arange(k) / k + np.pi / 2
    centres = 3.0 * np.column_stack([np.cos(angle), np.sin(angle)])
    y = np.arange(n) % k
    X = centres[y] + rng.normal(0.0, noise, (n, 2))
    return X, y.astype(np.int64)


def lin_four_points(n=4, noise=0.0, random_state=None):
    """Seed 003's worked example: x = (0,0), (2,2), (2,0), (3,0), y = (−1, −1, +1, +1).

    The hard-margin SVM gives w = (1, −1), b = −1, margin 1/√2, α = (½, ½, 1, 0);
    ``n``, ``noise`` and ``random_state`` are accepted for a uniform interface and ignored.
    """
    X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    return X, y


def circle(n=60, noise=0.0, random_state=0):
    """Seed 004's example: points labelled by sign(x₁² + x₂² − 1).

    Not linearly separable in the plane, but separable by w = (−1, 1, 1) after the
    map φ(x) = (1, x₁², x₂²). Points are uniform in [−2, 2]², keeping a gap of 0.1
    around the unit circle so that the example is cleanly separable; ``noise`` flips
    that fraction of labels.
    """
    n, noise, rng = _args(n, noise, random_state)
    X = np.empty((0, 2))
    while X.shape[0] < n:
        Z = rng.uniform(-2.0, 2.0, (2 * n, 2))
        r = np.sqrt(np.sum(Z**2, axis=1))
        X = np.vstack([X, Z[np.abs(r - 1.0) > 0.1]])
    X = X[:n]
    y = np.sign(np.sum(X**2, axis=1) - 1.0)
    if noise > 0:
        flip = rng.random(n) < min(noise, 0.5)
        y[flip] *= -1.0
    if np.all(y == y[0]):  # tiny n: make sure both classes exist
        X[0] = [0.0, 0.0]
        y[0] = -1.0
        X[-1] = [1.8, 0.0]
        y[-1] = 1.0
    return X, y


@dataclass(frozen=True)
class Dataset:
    """A preset: its generator and what the app needs to offer it."""

    name: str
    title: str
    generator: Callable
    n: int
    noise: float
    n_classes: int = 2
    description: str = ""
    fixed: bool = False  # a worked example: n and noise do not apply


# The presets as a table: name, title, generator, default n and noise.
_PRESETS = [
    ("separable_blobs", "Separable blobs", separable_blobs, 40, 0.5),
    ("overlapping_blobs", "Overlapping blobs", overlapping_blobs, 100, 1.0),
    ("blobs_outlier", "Blobs with one outlier", blobs_outlier, 40, 0.5),
    ("xor", "XOR", xor, 100, 0.3),
    ("moons", "Two moons", moons, 100, 0.15),
    ("circles", "Concentric circles", circles, 100, 0.08),
    ("spirals", "Two spirals", spirals, 100, 0.1),
    ("imbalanced_blobs", "Imbalanced blobs (10:1)", imbalanced_blobs, 110, 0.8),
    ("lin_four_points", "Lin's four points (seed 003)", lin_four_points, 4, 0.0),
    ("circle", "Unit circle (seed 004)", circle, 60, 0.0),
    ("k_blobs", "k blobs (multiclass)", k_blobs, 90, 0.5),
]
_DESCRIPTIONS = {
    "separable_blobs": "Two well-separated blobs: the hard margin exists.",
    "overlapping_blobs": "The classes overlap: only a soft margin fits.",
    "blobs_outlier": "One mislabelled point makes the hard margin impossible.",
    "xor": "Four blobs in a checkerboard: needs a kernel.",
    "moons": "Interleaving half circles: an RBF kernel separates them.",
    "circles": "One class inside the other: polynomial (Q=2) or RBF.",
    "spirals": "A hard case for every kernel but a narrow RBF.",
    "imbalanced_blobs": "Ten times more − than +: try class weights (seed 002 §2.1).",
    "lin_four_points": "x = (0,0), (2,2), (2,0), (3,0): α = (½, ½, 1, 0), w = (1, −1), b = −1.",
    "circle": "Labelled by sign(x₁² + x₂² − 1): separable after φ(x) = (1, x₁², x₂²).",
    "k_blobs": "k Gaussian blobs for the multiclass page (k ≤ 6).",
}
_OTHER_FIELDS = {"lin_four_points": {"fixed": True}, "k_blobs": {"n_classes": 3}}

REGISTRY: dict[str, Dataset] = {
    row[0]: Dataset(*row, description=_DESCRIPTIONS[row[0]], **_OTHER_FIELDS.get(row[0], {}))
    for row in _PRESETS
}


def load(name: str, *, n=None, noise=None, random_state=0, **kwargs):
    """Generate the preset ``name`` from :data:`REGISTRY` (defaults for n and noise)."""
    if name not in REGISTRY:
        raise ValueError(f"unknown data set {name!r}; choose one of {sorted(REGISTRY)}")
    d = REGISTRY[name]
    n = d.n if n is None else n
    noise = d.noise if noise is None else noise
    return d.generator(n=n, noise=noise, random_state=random_state, **kwargs)
