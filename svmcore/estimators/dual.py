"""scikit-learn estimator over :func:`svmcore.dual.solver.dual_svm` (seed 003's dual SVM).

``DualSVC`` follows ``sklearn.svm.SVC``'s parameter and attribute names (support_,
support_vectors_, dual_coef_ = y_i α_i of the support vectors, intercept_, coef_ for the
linear kernel, n_support_, classes_); ``C=None`` gives the hard margin. More than two
classes are handled one-vs-all: one binary dual SVM per class, predicting the class with
the largest decision value.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from svmcore.dual.solver import dual_svm
from svmcore.kernels import resolve_gamma

__all__ = ["DualSVC"]


class DualSVC(ClassifierMixin, BaseEstimator):
    """Kernel SVM trained on seed 003's dual (:func:`svmcore.dual.dual_svm`: by default the
    solver that suits the problem; SMO, the lecture's generic QP or the low-rank interior
    point on request).

    Parameters
    ----------
    C : float > 0 or None, default=1.0
        Soft-margin penalty; None for the hard margin (raises NotSeparableError on
        data that the kernel cannot separate).
    kernel : {"linear", "poly", "rbf"}, default="rbf"
    gamma : "scale", "auto" or float > 0, default="scale"
        "scale" is 1/(d·Var X) and "auto" 1/d, as in scikit-learn.
    degree : int, default=3
    coef0 : float >= 0, default=0.0
        ζ of the polynomial kernel (seed 003 requires ζ ≥ 0).
    tol : float, default=1e-3
        Stopping tolerance m(α) − M(α) ≤ tol (libsvm's rule).
    solver : {"auto", "smo", "qp", "lowrank"}, default="auto"
        See :func:`svmcore.dual.dual_svm` ("auto" picks by the problem).
    max_iter : int or None, default=None
        None: :func:`svmcore.dual.dual_svm`'s default, which grows with n. A binary
        problem that stops before its tolerance (status "max_iter" or "inaccurate") raises
        scikit-learn's ``ConvergenceWarning`` with the solver's message.
    cache_size : float, default=64.0
        Kernel cache in MB.
    shrinking : bool, default=True
    engine : {"fast", "textbook"}, default="fast"
        SMO's run: libsvm's (cache, shrinking, Newton steps) or the plain pair loop of
        :mod:`svmcore.dual.smo.textbook` (the same optimum; with solver="auto" it means SMO).

    Attributes
    ----------
    classes_, support_, support_vectors_, dual_coef_, intercept_, coef_ (linear kernel),
    n_support_, n_features_in_, results_ (the DualSVMResult of each binary problem),
    n_iter_, status_.
    """

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        gamma="scale",
        degree=3,
        coef0=0.0,
        tol=1e-3,
        solver="auto",
        max_iter=None,
        cache_size=64.0,
        shrinking=True,
        engine="fast",
    ):
        # scikit-learn's contract: store every parameter as given, validate in fit
        for name, value in list(locals().items()):
            if name != "self":
                setattr(self, name, value)

    def fit(self, X, y):
        """Fit one dual SVM (two classes) or one per class (one-vs-all)."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        k = self.classes_.shape[0]
        if k < 2:
            raise ValueError(
                f"y must contain at least two classes; got only one class ({self.classes_[0]!r})"
            )
        gamma = resolve_gamma(self.gamma, X)
        kw = dict(
            kernel=self.kernel,
            C=self.C,
            gamma=gamma,
            degree=self.degree,
            coef0=self.coef0,
            tol=self.tol,
            solver=self.solver,
            max_iter=self.max_iter,
            cache_size=self.cache_size,
            shrinking=self.shrinking,
            engine=self.engine,
            n_snapshots=2,
            n_steps=0,
        )
        targets = [1] if k == 2 else range(k)
        self.results_ = [dual_svm(X, np.where(yi == c, 1.0, -1.0), **kw) for c in targets]
        sv = np.unique(np.concatenate([r.support_ for r in self.results_]))
        self.support_ = sv.astype(np.int32)
        self.support_vectors_ = X[sv]
        coef = np.zeros((len(self.results_), sv.shape[0]))
        for row, r in enumerate(self.results_):
            coef[row] = (r.alpha * r.y)[sv]
        self.dual_coef_ = coef
        self.intercept_ = np.array([r.b for r in self.results_])
        self.n_support_ = np.array([np.sum(yi[sv] == c) for c in range(k)], dtype=np.int32)
        self.n_iter_ = np.array([r.n_iter for r in self.results_])
        self.status_ = [r.status for r in self.results_]
        for c, r in zip(targets, self.results_, strict=True):
            if r.status != "optimal":
                label = np.asarray(self.classes_[c]).item()
                which = "" if k == 2 else f" (class {label!r} vs the rest)"
                warnings.warn(
                    f"DualSVC{which} did not converge: status {r.status!r}. {r.message}",
                    ConvergenceWarning,
                    stacklevel=2,
                )
        self.gamma_ = gamma
        self._kernel = self.results_[0].kernel
        return self

    @property
    def coef_(self):
        """w = Σ y_i α_i x_i per binary problem (linear kernel only), shape (1 or k, d)."""
        check_is_fitted(self, "results_")
        if self._kernel.name != "linear":
            raise AttributeError("coef_ is only available when kernel='linear'")
        return self.dual_coef_ @ self.support_vectors_

    def decision_function(self, X):
        """Σ y_i α_i K(x_i, x) + b: shape (n,) for two classes, (n, k) one-vs-all."""
        check_is_fitted(self, "results_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.support_vectors_.shape[0]:
            D = self._kernel(X, self.support_vectors_) @ self.dual_coef_.T + self.intercept_
        else:
            D = np.tile(self.intercept_, (X.shape[0], 1))
        return D[:, 0] if D.shape[1] == 1 else D

    def predict(self, X):
        """The class with the largest decision value (classes_[1] if f(x) ≥ 0 for two)."""
        D = self.decision_function(X)
        if D.ndim == 1:
            return self.classes_[(D >= 0).astype(int)]
        return self.classes_[np.argmax(D, axis=1)]
