"""scikit-learn estimators over :func:`svmcore.pegasos` and :func:`svmcore.kernel_pegasos`.

They follow scikit-learn's contract (keyword parameters stored unchanged, validation in
``fit``, fitted attributes ending in ``_``) and accept any two labels: ``classes_[0]``
plays −1 and ``classes_[1]`` plays +1. With more than two classes they train one
binary classifier per class against the rest (one-vs-all, seed 002 §2.3) and predict
the class with the largest score.

This module imports scikit-learn; the algorithm modules import NumPy only.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from svmcore._validation import check_random_state
from svmcore.kernels import make_kernel, scale_gamma
from svmcore.sgd.kernel_pegasos import kernel_pegasos
from svmcore.sgd.pegasos import pegasos

__all__ = ["KernelPegasosClassifier", "PegasosClassifier", "store_params"]


def store_params(estimator, params: dict) -> None:
    """Store ``__init__``'s arguments unchanged as attributes of the same names.

    scikit-learn's convention: ``__init__`` only records its arguments (validation
    happens in ``fit``), so ``get_params``/``clone`` see exactly what was passed.

    Parameters
    ----------
    estimator : object
    params : dict
        ``locals()`` at the top of ``__init__`` (the entry ``self`` is skipped).
    """
    for name, value in params.items():
        if name != "self":
            setattr(estimator, name, value)


class _OneVsAllMixin(ClassifierMixin):
    """Label handling shared by the estimators: two classes directly, more by one-vs-all."""

    def _fit_labels(self, X, y):
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least two classes in y, "
                f"got one class: {self.classes_[0]!r}"
            )
        if self.classes_.shape[0] == 2:
            targets = [np.where(y == self.classes_[1], 1.0, -1.0)]
        else:
            targets = [np.where(y == c, 1.0, -1.0) for c in self.classes_]
        return X, targets

    @staticmethod
    def _run_options(rng) -> dict:
        """A fresh seed per binary problem, a small trace."""
        return {"random_state": rng.integers(2**32), "n_snapshots": 20, "n_steps": 0}

    def _scores(self, X) -> np.ndarray:
        """Scores of shape (n, n_models)."""
        raise NotImplementedError

    def decision_function(self, X):
        """Signed distance-like scores: shape (n,) for two classes, (n, k) for k > 2."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        scores = self._scores(X)
        return scores[:, 0] if self.classes_.shape[0] == 2 else scores

    def predict(self, X):
        """The class with the largest score (two classes: classes_[1] where f > 0)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


class PegasosClassifier(_OneVsAllMixin, BaseEstimator):
    """Linear soft-margin SVM trained by Pegasos (see :func:`svmcore.pegasos`).

    Parameters
    ----------
    lam : float, default 1e-3
        λ (C = 1/(λn)).
    T : int, default 10_000
        Number of iterations.
    schedule : {"pegasos", "ssbd"}, default "pegasos"
    averaging : {"average", "last"}, default "last"
        The estimator defaults to the last iterate, which is robust to the large early
        steps that big class weights cause; the texts' output is ``"average"``.
    sampling : {"uniform", "cyclic", "shuffle"}, default "uniform"
    batch_size : int, default 1
    projection : bool, default False
    bias : {"none", "augment", "free"}, default "augment"
        The estimator defaults to LinearSVC's regularized intercept (a constant feature);
        the texts' homogeneous model is ``"none"``; ``"free"`` (an unregularized b with
        its own sub-gradient step) converges slowly, as the Pegasos paper warns.
    class_weight : None, "balanced" or dict of {label: weight}
    random_state : int or None

    Attributes
    ----------
    classes_ : ndarray
    coef_ : ndarray, shape (1, d) or (k, d)
    intercept_ : ndarray, shape (1,) or (k,)
    results_ : list of PegasosResult
        One per binary problem, with their traces.
    n_iter_ : int
    """

    def __init__(
        self,
        *,
        lam=1e-3,
        T=10_000,
        schedule="pegasos",
        averaging="last",
        sampling="uniform",
        batch_size=1,
        projection=False,
        bias="augment",
        class_weight=None,
        random_state=None,
    ):
        store_params(self, locals())

    def fit(self, X, y):
        X, targets = self._fit_labels(X, y)
        rng = check_random_state(self.random_state)
        self.results_ = []
        for k, target in enumerate(targets):
            class_weight = self.class_weight
            if isinstance(class_weight, dict):
                pos = self.classes_[1] if len(targets) == 1 else self.classes_[k]
                class_weight = {
                    1: class_weight.get(pos, 1.0),
                    -1: 1.0 if len(targets) > 1 else class_weight.get(self.classes_[0], 1.0),
                }
            params = {**self.get_params(), "class_weight": class_weight}
            params["batch_size"] = min(self.batch_size, X.shape[0])
            self.results_.append(pegasos(X, target, **{**params, **self._run_options(rng)}))
        self.coef_ = np.array([r.w for r in self.results_])
        self.intercept_ = np.array([r.b for r in self.results_])
        self.n_iter_ = self.T
        return self

    def _scores(self, X):
        return X @ self.coef_.T + self.intercept_


class KernelPegasosClassifier(_OneVsAllMixin, BaseEstimator):
    """Kernel soft-margin SVM trained by SSBD's SGD with kernels (:func:`svmcore.kernel_pegasos`).

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default "rbf"
    gamma : float or "scale", default "scale"
        "scale" uses 1/(d · Var X), as scikit-learn's SVC.
    degree : int, default 3
    coef0 : float, default 1.0
        ζ in (ζ + γ xᵀx′)^Q (must be >= 0).
    lam : float, default 1e-3
    T : int, default 10_000
    schedule : {"ssbd", "pegasos"}, default "ssbd"
    averaging : {"average", "last"}, default "average"
    sampling : {"uniform", "cyclic", "shuffle"}, default "uniform"
    random_state : int or None

    Attributes
    ----------
    classes_ : ndarray
    alpha_ : ndarray, shape (1, n) or (k, n)
        Signed coefficients per binary problem.
    support_ : ndarray of int
        Indices of training points with a non-zero coefficient in any problem.
    support_vectors_ : ndarray
    dual_coef_ : ndarray, shape (n_models, n_SV)
        The signed α of the support vectors (SSBD's α, no extra y factor).
    results_ : list of KernelPegasosResult
    """

    def __init__(
        self,
        *,
        kernel="rbf",
        gamma="scale",
        degree=3,
        coef0=1.0,
        lam=1e-3,
        T=10_000,
        schedule="ssbd",
        averaging="average",
        sampling="uniform",
        random_state=None,
    ):
        store_params(self, locals())

    def _make_kernel(self, X):
        gamma = self.gamma
        if isinstance(gamma, str):
            if gamma != "scale":
                raise ValueError(f"gamma must be a positive number or 'scale', got {gamma!r}")
            gamma = scale_gamma(X)
        return make_kernel(self.kernel, gamma=gamma, degree=self.degree, coef0=self.coef0)

    def fit(self, X, y):
        X, targets = self._fit_labels(X, y)
        self.kernel_ = self._make_kernel(X)
        rng = check_random_state(self.random_state)
        params = {**self.get_params(), "kernel": self.kernel_}
        for name in ("gamma", "degree", "coef0"):  # in kernel_
            del params[name]
        self.results_ = [
            kernel_pegasos(X, target, **{**params, **self._run_options(rng)}) for target in targets
        ]
        alpha = np.array([r.alpha for r in self.results_])
        self.support_ = np.flatnonzero(np.any(alpha != 0, axis=0))
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = alpha[:, self.support_]
        self.alpha_ = alpha
        self.n_iter_ = self.T
        return self

    def _scores(self, X):
        if self.support_.size == 0:
            return np.zeros((X.shape[0], self.dual_coef_.shape[0]))
        return self.kernel_(X, self.support_vectors_) @ self.dual_coef_.T
