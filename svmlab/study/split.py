"""Generalization (L_D against L_S): a seeded, stratified train/test split, a fresh test set
drawn from a preset's distribution, and the test error of a run at every snapshot.

The texts train on a sample S and judge the output by its error on the distribution
(SSBD ch. 2: L_D(h) against L_S(h)); a held-out test set is the estimate of L_D a
student can compute. Pure: NumPy only (no Streamlit, no figures).

* :func:`train_test_split` — per class, a seeded share of the points goes to the test
  part (stratified, so no class is missing from either part when it has points enough);
  a split that would leave a class without training points is refused.
* :func:`fresh_test_set` — a new sample of a :data:`svmcore.datasets.REGISTRY` preset,
  same generator, n and noise, from a seed independent of the training draw.
* :func:`decision_values`, :func:`predictions`, :func:`snapshot_errors` — f (or the k
  scores) of a model view (:mod:`svmlab.plot.views`) at new points, at every snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore.datasets import REGISTRY
from svmlab.state.pointset import PointSet

__all__ = [
    "TEST_STREAM",
    "Split",
    "decision_values",
    "drawn_from",
    "fresh_test_set",
    "k_of",
    "predictions",
    "snapshot_errors",
    "train_test_split",
]


#: The last word of a fresh test set's seed (hex "7E57": test), never 0.
TEST_STREAM = 0x7E57


@dataclass(frozen=True)
class Split:
    """Indices (sorted, 0-based) of the training and the test part of n points."""

    train: np.ndarray
    test: np.ndarray


def train_test_split(y, *, test_fraction: float, random_state: int = 0) -> Split:
    """A stratified split: round(test_fraction · n_c) of each class's n_c points are held out.

    The points of each class are taken in the order of one seeded permutation
    (``np.random.default_rng(random_state)``), so a seed gives the same split every time,
    and the class proportions of both parts follow those of ``y``.

    Parameters
    ----------
    y : array (n,)
        The labels (±1 or 0..k−1).
    test_fraction : float
        The share of each class held out, in (0, 1).
    random_state : int
        The seed.

    Returns
    -------
    Split

    Raises
    ------
    ValueError
        If ``test_fraction`` is not in (0, 1), if the test part would be empty, or if a
        class would have no point left in the training part (its points are too few).
    """
    y = np.asarray(y).reshape(-1)
    f = float(test_fraction)
    if not 0.0 < f < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction!r}")
    perm = np.random.default_rng(random_state).permutation(y.shape[0])
    test = []
    for c in np.unique(y):
        idx = perm[y[perm] == c]  # the class's points in the permutation's order
        n_test = int(np.floor(f * idx.size + 0.5))
        if n_test >= idx.size:
            raise ValueError(
                f"test_fraction={f:g} would put all {idx.size} point(s) of class {c:g} in the "
                "test part: the training part needs at least one point of every class "
                "(lower the test fraction or add points)"
            )
        test.append(idx[:n_test])
    test_idx = np.sort(np.concatenate(test)) if test else np.zeros(0, dtype=np.int64)
    if test_idx.size == 0:
        raise ValueError(
            f"test_fraction={f:g} of {y.shape[0]} point(s) leaves the test part empty "
            "(raise the test fraction or add points)"
        )
    train_idx = np.setdiff1d(np.arange(y.shape[0]), test_idx)
    return Split(train=train_idx, test=test_idx)


def fresh_test_set(name: str, *, n: int, noise: float, seed: int, test_seed: int, k: int = 3):
    """A new sample of the preset ``name`` (same generator, ``n`` and ``noise``).

    The generator's seed is ``(seed, test_seed, TEST_STREAM)``: ``np.random.default_rng``
    makes that a stream independent of the training draw's ``seed`` (the nonzero tag
    matters: NumPy's SeedSequence reads ``(s, 0)`` as ``s``), and the same seeds give the
    same points every time. ``k`` is the number of classes of the
    multiclass preset (ignored by the binary ones).

    Raises
    ------
    ValueError
        If ``name`` is not a preset, or it is a fixed worked example (nothing is sampled).
    """
    if name not in REGISTRY:
        raise ValueError(f"name must be a preset of {sorted(REGISTRY)}, got {name!r}")
    d = REGISTRY[name]
    if d.fixed:
        raise ValueError(f"name={name!r} is a fixed worked example: it has no distribution")
    return d.generator(
        n=int(n),
        noise=float(noise),
        random_state=[int(seed), int(test_seed), TEST_STREAM],
        **k_of(name, k),
    )


def k_of(name: str, k: int) -> dict:
    """The ``k`` keyword of a multiclass preset's generator ({} for a binary one)."""
    return {"k": int(k)} if REGISTRY[name].n_classes > 2 else {}


def drawn_from(X, y, candidates, *, n_classes: int = 2) -> dict | None:
    """The first preset of ``candidates`` whose draw is exactly the points (X, y), or None.

    ``candidates`` are dicts ``name``, ``n``, ``noise``, ``seed`` (the preset menu's
    values); a draw's labels are read as a page with ``n_classes`` classes reads them
    (±1 or 0..k−1, classes ≥ k left out).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    for p in candidates:
        d = REGISTRY.get(p["name"])
        if d is None or d.fixed:
            continue
        try:
            Xp, yp = d.generator(
                n=int(p["n"]),
                noise=float(p["noise"]),
                random_state=int(p["seed"]),
                **k_of(p["name"], n_classes),
            )
        except ValueError:
            continue
        Xp, yp = PointSet.from_labels(Xp, yp).labels(n_classes)
        if Xp.shape == X.shape and np.array_equal(Xp, X) and np.array_equal(yp, y):
            return dict(p)
    return None


def decision_values(view, X_new) -> np.ndarray:
    """What the view's model gives at ``X_new`` (m, 2) at every snapshot.

    Binary views: f(x) at each snapshot, shape (S, m) — f = Σ_j coef_j K(x_j, x) + b, or
    ⟨w, x⟩ + b without a kernel. Multiclass views: the k scores, shape (S, m, k); the
    one-vs-all view has one snapshot (its ``decision``).
    """
    X_new = np.asarray(X_new, dtype=float).reshape(-1, 2)
    if getattr(view, "decision", None) is not None:  # one-vs-all: one snapshot
        return np.asarray(view.decision(X_new), dtype=float)[None]
    if hasattr(view, "scores"):  # multiclass: W (S, k, d′) or α (S, n, k)
        if view.W is not None:
            Xa = np.column_stack([X_new, np.ones(len(X_new))]) if view.bias else X_new
            return np.einsum("md,skd->smk", Xa, view.W)
        Kg = view.kernel(X_new, view.X) + (1.0 if view.bias else 0.0)  # (m, n)
        return np.einsum("mn,snk->smk", Kg, view.alpha)
    # binary: coef (S, n) with a kernel, or w (S, d)
    F = (view.kernel(X_new, view.X) if view.kernel is not None else X_new) @ view.coef.T
    F = F.T  # (S, m)
    return F if view.b is None else F + np.asarray(view.b, dtype=float)[:, None]


def predictions(view, X_new) -> np.ndarray:
    """The predicted labels at ``X_new`` at every snapshot, shape (S, m).

    Binary: +1 where f > 0, else −1 (scikit-learn's rule, as svmcore's SGD ``predict``);
    multiclass: the class of the largest score (the first on a tie).
    """
    F = decision_values(view, X_new)
    if F.ndim == 2:
        return np.where(F > 0, 1.0, -1.0)
    return np.asarray(view.classes)[np.argmax(F, axis=2)]


def snapshot_errors(view, X_new, y_new) -> np.ndarray:
    """The error rate on (``X_new``, ``y_new``) at every snapshot, shape (S,)."""
    y_new = np.asarray(y_new).reshape(-1)
    if y_new.size == 0:
        raise ValueError("y_new must hold at least one point")
    return np.mean(predictions(view, X_new) != y_new[None, :], axis=1)
