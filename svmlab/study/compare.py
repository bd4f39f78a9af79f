"""The Compare page's runs: one soft-SVM problem through every solver of the app and
scikit-learn's, on one objective scale. Pure: no Streamlit (the page caches).

Seed 002 / SSBD §15.5 (Pegasos) and seed 000 (kernel Pegasos) minimise

    P(w) = λ/2 ‖w‖² + (1/n) Σ_i max{0, 1 − y_i f(x_i)},   f(x) = ⟨w, φ(x)⟩ (+ b),

seed 003's soft-margin SVM minimises ½‖w‖² + C Σ_i ξ_i, which is the same problem times
1/(λ n) when **C = 1/(λn)**, and scikit-learn's ``SGDClassifier(loss="hinge")``
minimises (1/n) Σ hinge + alpha · ½‖w‖², i.e. **alpha = λ**. Every model here is scored
on that one scale, P = λ/2 ‖w‖² + (1/n) Σ hinge, with ‖w‖² in the model's own feature
space and the bias b, where a model has one, left out of the regularizer (the dual's b
is free). On one feature space a free b can only lower the minimum (b = 0 is one of its
choices): among the models on the kernel K the dual with b reaches the smallest P any of
them can have, and the homogeneous dual (no yᵀα = 0, :func:`svmcore.soft_svm_optimum`
with ``bias="none"``) is the exact minimum without b, which (kernel) Pegasos approaches
as T grows. The linear models (Pegasos, LinearSVC, SGDClassifier) work on x itself: unless
K is linear that is another feature space, another problem, and their P may lie below or
above the kernel models' — :func:`svmlab.study.compare_ordering.ordering` says which is smallest
on the fits shown.

Each fitted model is kept as an expansion f(x) = Σ_j coef_j K(x_j, x) + b over
``X_fit`` (a linear model is one "point" w with coefficient 1 under the linear kernel),
so one function evaluates every model on the plane.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

import numpy as np

import svmcore
from svmcore.kernels import Kernel, linear, make_kernel

__all__ = [
    "MAX_N",
    "MODELS",
    "Comparison",
    "Fitted",
    "ModelSpec",
    "compare_runs",
    "decision_values",
    "grid_values",
    "mapping_latex",
    "table_rows",
]

#: Largest n compared (the exact duals hold n × n matrices; seven fits per change).
MAX_N = 500


@dataclass(frozen=True)
class ModelSpec:
    """One solver of the comparison: its label, what it solves, its line style."""

    label: str
    solves: str
    color: str
    dash: str
    fit: Callable


@dataclass(frozen=True, eq=False)
class Fitted:
    """A fitted model as f(x) = Σ_j coef_j K(X_fit_j, x) + b.

    Attributes
    ----------
    key : str
        Its key in :data:`MODELS`.
    kernel : Kernel
    X_fit : ndarray, shape (m, d)
    coef : ndarray, shape (m,)
    b : float
    n_support : int
        α_j > 0 for the dual solvers, α_j ≠ 0 for kernel Pegasos, else the points with
        y f(x) ≤ 1 (on or inside the margin).
    seconds : float
        Wall-clock time of the fit (shown, never asserted).
    """

    key: str
    kernel: Kernel
    X_fit: np.ndarray
    coef: np.ndarray
    b: float
    n_support: int | None
    seconds: float

    def decision_function(self, X) -> np.ndarray:
        """f(x) for each row of X, shape (m,)."""
        return self.kernel(np.asarray(X, dtype=float), self.X_fit) @ self.coef + self.b

    def norm2(self) -> float:
        """‖w‖² = coefᵀ K(X_fit, X_fit) coef (the bias excluded)."""
        return float(self.coef @ self.kernel(self.X_fit) @ self.coef)


def _linear(w) -> tuple:
    return linear(), np.asarray(w, dtype=float).reshape(1, -1), np.ones(1)


def _sk_kernel(k: Kernel) -> dict:
    kw = {"kernel": k.name}
    if k.gamma is not None:
        kw["gamma"] = k.gamma
    if k.degree is not None:
        kw.update(degree=k.degree, coef0=k.coef0)
    return kw


def _pegasos(X, y, o):
    r = svmcore.pegasos(X, y, lam=o["lam"], T=o["T"], random_state=o["random_state"])
    return (*_linear(r.w), 0.0, None)


def _kernel_pegasos(X, y, o):
    r = svmcore.kernel_pegasos(
        X, y, kernel=o["kernel"], lam=o["lam"], T=o["T"], random_state=o["random_state"]
    )
    return o["kernel"], X, r.alpha, 0.0, r.n_support


def _dual_bias(X, y, o):
    r = svmcore.dual_svm(X, y, kernel=o["kernel"], C=o["C"], solver="smo", tol=1e-6)
    return o["kernel"], X, y * r.alpha, r.b, int(r.support_.size)


def _dual_homogeneous(X, y, o):
    r = svmcore.soft_svm_optimum(X, y, lam=o["lam"], kernel=o["kernel"], bias="none", tol=1e-8)
    return o["kernel"], X, r.coef, 0.0, int(np.count_nonzero(r.alpha))


def _linear_svc(X, y, o):
    from sklearn.svm import LinearSVC

    m = LinearSVC(C=o["C"], loss="hinge", fit_intercept=False, tol=1e-8, max_iter=200_000)
    return (*_linear(m.fit(X, y).coef_.ravel()), 0.0, None)


def _svc(X, y, o):
    from sklearn.svm import SVC

    m = SVC(C=o["C"], tol=1e-6, **_sk_kernel(o["kernel"])).fit(X, y)
    coef = np.zeros(X.shape[0])
    coef[m.support_] = m.dual_coef_.ravel()
    return o["kernel"], X, coef, float(m.intercept_[0]), int(m.support_.size)


def _sgd(X, y, o):
    from sklearn.linear_model import SGDClassifier

    m = SGDClassifier(
        loss="hinge",
        alpha=o["lam"],
        fit_intercept=False,
        max_iter=1000,
        tol=1e-6,
        random_state=o["random_state"],
    )
    return (*_linear(m.fit(X, y).coef_.ravel()), 0.0, None)


#: The solvers, in the table's order; the dual with b is the reference of "agreement".
MODELS: dict[str, ModelSpec] = {
    "sgd_linear": ModelSpec(
        "Pegasos (linear, λ)", "homogeneous, linear", "#0072B2", "solid", _pegasos
    ),
    "sgd_kernel": ModelSpec(
        "kernel Pegasos (λ, K)", "homogeneous, K", "#D55E00", "solid", _kernel_pegasos
    ),
    "dual_bias": ModelSpec(
        "dual SVM (C = 1/(λn), K, with b)", "with free b, K", "#000000", "solid", _dual_bias
    ),
    "dual_homogeneous": ModelSpec(
        "homogeneous dual (no yᵀα = 0, K)", "homogeneous, K", "#CC79A7", "dash", _dual_homogeneous
    ),
    "sk_linearsvc": ModelSpec(
        "scikit-learn LinearSVC (C, hinge)", "homogeneous, linear", "#4590BA", "dot", _linear_svc
    ),
    "sk_svc": ModelSpec("scikit-learn SVC (C, K)", "with free b, K", "#009E73", "dash", _svc),
    "sk_sgd": ModelSpec(
        "scikit-learn SGDClassifier (alpha = λ)", "homogeneous, linear", "#B87F00", "dot", _sgd
    ),
}
REFERENCE = "dual_bias"


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of :func:`compare_runs`.

    Attributes
    ----------
    X, y : ndarray
    lam, C, alpha : float
        λ, C = 1/(λn), alpha = λ.
    kernel : Kernel
    T, random_state : int
    fitted : dict of str to Fitted
        Every model of :data:`MODELS`, by key.
    optima : dict of str to float
        P* of each problem (a :attr:`ModelSpec.solves`): the exact homogeneous minimum
        (:func:`svmcore.soft_svm_optimum`) for the linear and the K features, and the
        dual SVM's P for the problem with a free b.
    """

    X: np.ndarray
    y: np.ndarray
    lam: float
    C: float
    alpha: float
    kernel: Kernel
    T: int
    random_state: int
    fitted: dict
    optima: dict

    @property
    def n(self) -> int:
        return int(self.y.shape[0])

    def objective(self, key: str) -> float:
        """P = λ/2 ‖w‖² + (1/n) Σ max{0, 1 − y_i f(x_i)} of model ``key`` (b not regularized)."""
        m = self.fitted[key]
        f = m.decision_function(self.X)
        return 0.5 * self.lam * m.norm2() + float(np.mean(np.maximum(0.0, 1.0 - self.y * f)))

    def predictions(self, key: str) -> np.ndarray:
        """sign f(x_i) on the training points (+1 on the boundary)."""
        return np.where(self.fitted[key].decision_function(self.X) >= 0, 1.0, -1.0)

    def train_error(self, key: str) -> float:
        return float(np.mean(self.predictions(key) != self.y))

    def gap(self, key: str) -> float:
        """P − P* of model ``key`` against the exact minimum of its own problem."""
        return self.objective(key) - self.optima[MODELS[key].solves]

    def agreement(self, key: str) -> float:
        """Fraction of training points predicted as the dual SVM with b predicts them."""
        return float(np.mean(self.predictions(key) == self.predictions(REFERENCE)))

    def n_support(self, key: str) -> int:
        m = self.fitted[key]
        if m.n_support is not None:
            return m.n_support
        return int(np.count_nonzero(self.y * m.decision_function(self.X) <= 1.0 + 1e-9))


def compare_runs(
    X, y, *, lam, kernel="rbf", gamma=1.0, degree=3, coef0=1.0, T=10_000, random_state=0
) -> Comparison:
    """Fit every model of :data:`MODELS` on (X, y) for the one λ.

    Parameters
    ----------
    X : array, shape (n, d); y : array, shape (n,) of ±1 (both classes present)
    lam : float > 0
        λ; the dual and SVC get C = 1/(λn), SGDClassifier alpha = λ.
    kernel, gamma, degree, coef0 :
        The kernel of the kernel models (:func:`svmcore.make_kernel`); the linear models
        (Pegasos, LinearSVC, SGDClassifier) always use the linear kernel.
    T : int >= 1
        Iterations of both Pegasos runs.
    random_state : int
        The seed of both Pegasos runs and of SGDClassifier.

    Returns
    -------
    Comparison
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, d) and y (n,), got {X.shape} and {y.shape}")
    n = X.shape[0]
    if n > MAX_N:
        raise ValueError(f"X has n = {n} points; the comparison takes at most MAX_N = {MAX_N}")
    if not np.all(np.isin(y, (-1.0, 1.0))) or np.unique(y).size < 2:
        raise ValueError("y must hold both labels −1 and +1 (and only those)")
    if not (isinstance(lam, int | float) and np.isfinite(lam) and lam > 0):
        raise ValueError(f"lam must be a positive finite number, got {lam!r}")
    if int(T) != T or T < 1:
        raise ValueError(f"T must be an integer >= 1, got {T!r}")
    k = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
    o = {"lam": float(lam), "C": 1.0 / (lam * n), "kernel": k, "T": int(T)}
    o["random_state"] = int(random_state)
    # scikit-learn is imported before the clock starts: its import is not a fit time.
    for module in ("sklearn.svm", "sklearn.linear_model"):
        import_module(module)

    fitted = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # liblinear / SGD convergence chatter: P says it all
        for key, spec in MODELS.items():
            start = time.perf_counter()
            kern, X_fit, coef, b, n_sv = spec.fit(X, y, o)
            seconds = time.perf_counter() - start
            fitted[key] = Fitted(key, kern, X_fit, np.asarray(coef, float), float(b), n_sv, seconds)
    cmp = Comparison(X, y, o["lam"], o["C"], o["lam"], k, o["T"], o["random_state"], fitted, {})
    linear_star = svmcore.soft_svm_optimum(X, y, lam=o["lam"], kernel="linear", tol=1e-8)
    cmp.optima.update(
        {
            MODELS["sgd_linear"].solves: linear_star.objective,
            MODELS["dual_homogeneous"].solves: cmp.objective("dual_homogeneous"),
            MODELS[REFERENCE].solves: cmp.objective(REFERENCE),
        }
    )
    return cmp


def table_rows(cmp: Comparison) -> list[dict]:
    """The table: one row per model (objective on the one scale, errors, SVs, time)."""
    return [
        {
            "model": spec.label,
            "problem": spec.solves,
            "objective P": round(cmp.objective(key), 6),
            "P − P* (its problem)": float(f"{cmp.gap(key):.2e}"),
            "training error": f"{100 * cmp.train_error(key):.1f} %",
            "SVs": cmp.n_support(key),
            "fit time (ms)": round(1000 * cmp.fitted[key].seconds, 1),
            "agrees with the dual": f"{100 * cmp.agreement(key):.1f} %",
        }
        for key, spec in MODELS.items()
    ]


def decision_values(cmp: Comparison, key: str, P) -> np.ndarray:
    """f of model ``key`` at the points P (m, d)."""
    return cmp.fitted[key].decision_function(P)


def grid_values(cmp: Comparison, keys, xrange, yrange, resolution: int = 120) -> dict:
    """{key: (xs, ys, Z)} with Z (r, r) = f of each model on the plane's grid."""
    xs = np.linspace(xrange[0], xrange[1], resolution)
    ys = np.linspace(yrange[0], yrange[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    P = np.column_stack([gx.ravel(), gy.ravel()])
    return {
        key: (xs, ys, decision_values(cmp, key, P).reshape(resolution, resolution)) for key in keys
    }


def mapping_latex(lam: float, n: int) -> str:
    """λ ↔ C ↔ alpha with the numbers: C = 1/(λn), alpha = λ."""
    C = 1.0 / (lam * n)
    return (
        rf"C = \frac{{1}}{{\lambda n}} = \frac{{1}}{{{lam:g} \cdot {n}}} = {C:.4g}"
        rf",\qquad \text{{alpha}} = \lambda = {lam:g}"
    )
