"""One-vs-all multiclass classification over any binary learner (seed 002 §2.3).

Seed 002 §2.3: "The simplest is called a One-vs-all Classifier in which we learn n
classifiers, one for each of the n classes. We could run into issues if we want to
classify a point that fell in between our classifiers as we would need to decide in
which class it belongs. We can predict the most probable class using the formula
ŷ = argmax_k w_kᵀx + b_k."

For each class c a binary learner is trained on labels +1 (class c) / −1 (every other
class); the scores are the k decision values f_c(x) and the prediction is their argmax
(ties: the smallest class index). :func:`ambiguity_regions` marks the points that the
binary classifiers do not settle on their own: claimed by no class (every f_c(x) <= 0)
or by several (more than one f_c(x) > 0) — the points "in between our classifiers",
where only the argmax decides.

There is no loop of its own and so no ``step``: each binary learner has its own (the
SGD learners take ``engine``, which :func:`one_vs_all` passes through).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from svmcore._validation import check_choice, check_X
from svmcore.sgd.common import ENGINES
from svmcore.sgd.multiclass_common import check_multiclass_y

__all__ = [
    "LEARNERS",
    "SGD_LEARNERS",
    "Ambiguity",
    "OneVsAllResult",
    "ambiguity_regions",
    "one_vs_all",
]

#: Named binary learners of svmcore.
LEARNERS = ("pegasos", "kernel_pegasos", "perceptron", "dual_svm")
#: The learners that take ``engine`` (the SGD family).
SGD_LEARNERS = ("pegasos", "kernel_pegasos", "perceptron")


@dataclass(frozen=True, eq=False)
class Ambiguity:
    """Which points the k binary classifiers claim.

    Attributes
    ----------
    n_claims : ndarray of int, shape (m,)
        Number of classes c with f_c(x) > 0.
    none : ndarray of bool, shape (m,)
        Claimed by no class (n_claims == 0).
    several : ndarray of bool, shape (m,)
        Claimed by more than one class (n_claims >= 2).
    """

    n_claims: np.ndarray
    none: np.ndarray
    several: np.ndarray

    @property
    def unique(self) -> np.ndarray:
        """Claimed by exactly one class: the binary classifiers agree on their own."""
        return self.n_claims == 1

    @property
    def ambiguous(self) -> np.ndarray:
        """Claimed by none or by several: only the argmax decides."""
        return self.n_claims != 1

    @property
    def fraction(self) -> float:
        """Fraction of ambiguous points."""
        return float(np.mean(self.ambiguous)) if self.n_claims.size else 0.0


def ambiguity_regions(scores) -> Ambiguity:
    """Mark the points claimed by no class or by several from one-vs-all scores (m, k)."""
    S = np.asarray(scores, dtype=np.float64)
    if S.ndim != 2 or S.shape[1] < 2:
        raise ValueError(f"scores must have shape (m, k) with k >= 2, got {S.shape}")
    n_claims = np.count_nonzero(S > 0, axis=1)
    return Ambiguity(n_claims=n_claims, none=n_claims == 0, several=n_claims >= 2)


@dataclass(frozen=True, eq=False)
class OneVsAllResult:
    """Output of :func:`one_vs_all`.

    Attributes
    ----------
    classes_ : ndarray, shape (k,)
        The sorted labels.
    models : tuple of k binary results
        ``models[c]`` separates class c (+1) from the rest (−1).
    learner : str
        The learner's name (or the callable's ``__name__``).
    train_error : float
        Fraction of training points whose argmax prediction is wrong.
    """

    classes_: np.ndarray
    models: tuple
    learner: str
    train_error: float

    def decision_function(self, X) -> np.ndarray:
        """The k binary decision values f_c(x), shape (m, k)."""
        return _stack_scores(self.models, check_X(X))

    def predict(self, X) -> np.ndarray:
        """ŷ = argmax_c f_c(x) as labels (ties: the smallest class)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]

    def ambiguity(self, X) -> Ambiguity:
        """:func:`ambiguity_regions` of the scores at X."""
        return ambiguity_regions(self.decision_function(X))


def _resolve(learner) -> tuple[Callable, str]:
    """The learner function and its name (imported here: the dependencies are visible)."""
    if callable(learner):
        return learner, getattr(learner, "__name__", type(learner).__name__)
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {list(LEARNERS)} or a callable, got {learner!r}")
    if learner == "pegasos":
        from svmcore.sgd.pegasos import pegasos as fit
    elif learner == "kernel_pegasos":
        from svmcore.sgd.kernel_pegasos import kernel_pegasos as fit
    elif learner == "perceptron":
        from svmcore.sgd.perceptron import perceptron as fit
    else:
        from svmcore.dual.solver import dual_svm as fit
    return fit, learner


def one_vs_all(X, y, *, learner="pegasos", engine="fast", **learner_params) -> OneVsAllResult:
    """Train one binary classifier per class (class c → +1, the rest → −1).

    Parameters
    ----------
    X : array, shape (n, d)
    y : array, shape (n,)
        Labels of any sortable values, at least two distinct.
    learner : {"pegasos", "kernel_pegasos", "perceptron", "dual_svm"} or callable
        A binary learner of svmcore, or any ``fit(X, y_pm, **learner_params)`` returning
        an object with ``decision_function(X) -> (m,)`` (y_pm in {−1, +1}).
    engine : {"fast", "textbook"}
        Passed to the SGD learners (and to any other learner when not "fast").
    **learner_params
        Passed unchanged to every binary fit (e.g. ``lam``, ``T``, ``kernel``, ``C``,
        ``random_state``: the same seed is used for each class, so runs are repeatable).

    Returns
    -------
    OneVsAllResult
    """
    X = check_X(X)
    classes, y_idx = check_multiclass_y(y, X.shape[0])
    check_choice(engine, "engine", ENGINES)
    fit, name = _resolve(learner)
    if (isinstance(learner, str) and learner in SGD_LEARNERS) or engine != "fast":
        learner_params = {**learner_params, "engine": engine}
    models = []
    for c in range(classes.shape[0]):
        y_pm = np.where(y_idx == c, 1.0, -1.0)
        model = fit(X, y_pm, **learner_params)
        if not hasattr(model, "decision_function"):
            raise ValueError(
                f"learner {name!r} must return an object with decision_function(X), "
                f"got {type(model).__name__}"
            )
        models.append(model)
    scores = _stack_scores(models, X)
    error = float(np.mean(np.argmax(scores, axis=1) != y_idx))
    return OneVsAllResult(classes_=classes, models=tuple(models), learner=name, train_error=error)


def _stack_scores(models, X: np.ndarray) -> np.ndarray:
    """The models' decision values as the columns of an (m, k) matrix."""
    cols = [np.asarray(m.decision_function(X), dtype=np.float64).reshape(-1) for m in models]
    return np.column_stack(cols)
