"""scikit-learn estimators over :func:`svmcore.multiclass_sgd` and
:func:`svmcore.multiclass_pegasos` (SSBD §17.2, seed 002 §2.3).

Thin wrappers: ``fit`` validates with scikit-learn's helpers and runs the pure function,
whose result (with its trace) is kept in ``result_``. With two classes,
``decision_function`` returns the single column f_1 − f_0 (positive → ``classes_[1]``),
as scikit-learn's binary classifiers do; otherwise the (n, k) scores.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from svmcore.estimators.pegasos import store_params
from svmcore.sgd.multiclass_pegasos import multiclass_pegasos
from svmcore.sgd.multiclass_sgd import multiclass_sgd

__all__ = ["MulticlassPegasosClassifier", "MulticlassSGDClassifier"]


class _MulticlassMixin(ClassifierMixin, BaseEstimator):
    """Shared prediction code; subclasses define ``_run(X, y)``."""

    def fit(self, X, y):
        """Fit on X (n, d) and labels y (n,) of any values (at least two classes).

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.result_ = self._run(X, y)
        self.classes_ = self.result_.classes_
        return self

    def _scores(self, X) -> np.ndarray:
        check_is_fitted(self, "result_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.result_.decision_function(X)

    def decision_function(self, X) -> np.ndarray:
        """Class scores, shape (n, k); with two classes, f_1 − f_0 of shape (n,)."""
        S = self._scores(X)
        if S.shape[1] == 2:
            return S[:, 1] - S[:, 0]
        return S

    def predict(self, X) -> np.ndarray:
        """argmax of the class scores (ties: the first class in ``classes_``)."""
        S = self._scores(X)
        return self.classes_[np.argmax(S, axis=1)]

    @property
    def trace_(self):
        """The run's :class:`~svmcore.trace.Trace`."""
        check_is_fitted(self, "result_")
        return self.result_.trace


class MulticlassSGDClassifier(_MulticlassMixin):
    """SSBD's SGD for multiclass learning (§17.2) as a scikit-learn classifier.

    Parameters
    ----------
    eta : float > 0
        Fixed step size η.
    T : int >= 1
        Number of iterations.
    delta : array (k, k) or None
        Cost matrix Δ[y′, y] over the sorted classes (None: 0-1 loss).
    bias : bool
        Augment x with a constant 1 (one offset per class).
    averaging : {"average", "last"}
    sampling : {"uniform", "cyclic", "shuffle"}
    random_state : int, Generator or None
    n_snapshots, n_steps : int
        Trace sizes.

    Attributes
    ----------
    result_ : MulticlassSGDResult
    classes_ : ndarray (k,)
    coef_ : ndarray (k, d)
    intercept_ : ndarray (k,)
    n_features_in_ : int
    """

    def __init__(
        self,
        *,
        eta=0.1,
        T=2000,
        delta=None,
        bias=True,
        averaging="average",
        sampling="uniform",
        random_state=None,
        n_snapshots=100,
        n_steps=300,
    ):
        store_params(self, locals())

    def _run(self, X, y):
        result = multiclass_sgd(X, y, **self.get_params())
        self.coef_ = np.array(result.coef)
        self.intercept_ = np.array(result.intercept)
        return result


class MulticlassPegasosClassifier(_MulticlassMixin):
    """Multiclass Pegasos on the Crammer–Singer objective (seed 002 §2.3), optionally
    with a kernel.

    Parameters
    ----------
    lam : float > 0
        λ (C = 1/(λn)).
    T : int >= 1
    kernel : None, Kernel or {"linear", "poly", "rbf"}
        None: linear with explicit weights (``coef_``, ``intercept_``).
    gamma, degree, coef0 : kernel parameters (scikit-learn's names).
    delta : array (k, k) or None
    bias : bool
        Constant feature 1 (K + 1 with a kernel); the offsets are regularized.
    schedule : {"pegasos", "ssbd"}
    averaging : {"average", "last"}
    sampling : {"uniform", "cyclic", "shuffle"}
    random_state : int, Generator or None
    n_snapshots, n_steps : int

    Attributes
    ----------
    result_ : MulticlassPegasosResult
    classes_ : ndarray (k,)
    coef_, intercept_ : linear version only.
    dual_coef_ : ndarray (n, k), kernel version only (the α).
    support_ : kernel version only.
    n_features_in_ : int
    """

    def __init__(
        self,
        *,
        lam=1e-3,
        T=2000,
        kernel=None,
        gamma=1.0,
        degree=3,
        coef0=1.0,
        delta=None,
        bias=True,
        schedule="pegasos",
        averaging="average",
        sampling="uniform",
        random_state=None,
        n_snapshots=100,
        n_steps=300,
    ):
        store_params(self, locals())

    def _run(self, X, y):
        result = multiclass_pegasos(X, y, **self.get_params())
        if result.kernel is None:
            W = result.W
            self.coef_ = np.array(W[:, :-1] if result.bias else W)
            self.intercept_ = np.array(W[:, -1]) if result.bias else np.zeros(W.shape[0])
        else:
            self.dual_coef_ = np.array(result.alpha)
            self.support_ = np.array(result.support_)
        return result
