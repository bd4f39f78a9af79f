"""Seed 002 §2.1's class weights in one-vs-all (seed 002 §2.3): each binary problem
"class k against the rest" is imbalanced, and the SGD learners weigh its hinge by c_±.
"""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms.one_vs_all import binary_class_weights, class_weight_caption, objective

# Tolerance table: none — the weights by hand are exact; one-vs-all's k-th learner and the
# weighted binary run on the same relabelled data are the same svmcore call, compared exactly


def test_binary_class_weights_by_hand():
    y = [0, 0, 0, 1, 2, 2]  # n = 6: class 1 alone against 5
    assert binary_class_weights(y, "balanced") == [
        (0, 3, 3, 1.0, 1.0),
        (1, 1, 5, 3.0, 0.6),  # c₊ = 6/(2·1), c₋ = 6/(2·5)
        (2, 2, 4, 1.5, 0.75),
    ]
    assert binary_class_weights(y, {1: 4.0})[1] == (1, 1, 5, 4.0, 1.0)
    assert binary_class_weights(y, None)[0][3:] == (1.0, 1.0)
    assert "class 1: N₊ = 1, N₋ = 5, c₊ = 3, c₋ = 0.6" in class_weight_caption(y, "balanced")


@pytest.mark.parametrize("learner", ["pegasos", "kernel_pegasos"])
def test_each_binary_learner_is_the_weighted_run(learner):
    rng = np.random.default_rng(0)
    X = np.vstack(
        [rng.normal(c, 0.7, (m, 2)) for c, m in (([0, 0], 30), ([3, 0], 6), ([0, 3], 12))]
    )
    y = np.repeat([0, 1, 2], [30, 6, 12])
    kw = {"lam": 0.05, "T": 800, "random_state": 1, "class_weight": "balanced"}
    if learner == "kernel_pegasos":
        kw["kernel"] = svmcore.make_kernel("rbf", gamma=0.5)
    ova = svmcore.one_vs_all(X, y, learner=learner, **kw)
    plain = svmcore.one_vs_all(X, y, learner=learner, **{**kw, "class_weight": None})
    fit = getattr(svmcore, learner)
    for c, model in enumerate(ova.models):
        single = fit(X, np.where(y == c, 1.0, -1.0), **kw)
        np.testing.assert_array_equal(model.decision_function(X), single.decision_function(X))
    # the rare class 1 is weighted up: its classifier claims more of its own points
    f1, f1_plain = ova.models[1].decision_function(X), plain.models[1].decision_function(X)
    assert np.mean(f1[y == 1] > 0) >= np.mean(f1_plain[y == 1] > 0)


def test_the_objective_shows_the_weights():
    assert "c_{y^{(k)}_j}" in objective({"learner": "pegasos", "class_weight": "balanced"})
    assert r"b_k^2" in objective(
        {"learner": "pegasos", "bias": "augment", "class_weight": "balanced"}
    )
    assert "c_{y" not in objective({"learner": "pegasos"})
