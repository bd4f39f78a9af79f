"""The "check against scikit-learn" lines: the same problem solved by scikit-learn.

* Linear Pegasos minimises λ/2‖w‖² + (1/n) Σ c_{y_i} max{0, 1 − y_i wᵀx_i}; scikit-learn's
  ``LinearSVC(loss="hinge", class_weight=…)`` minimises ½‖w‖² + C Σ c_{y_i} max{0, …}, the
  same problem times 1/λ when C = 1/(λn). With class weights (seed 002 §2.1) both sides
  solve the weighted problem: the run's c_± go to scikit-learn as ``class_weight``
  ("balanced" is the same rule, N/(2N_±), in both). We compare the two objectives (in the
  λ form, weighted as the run's) and predictions.
* Kernel Pegasos (SSBD's soft-SVM has no bias) is compared with ``SVC`` at
  C = 1/(λn) (with the run's class weights) — which has a bias b, so the numbers are close
  but not equal.
* The dual SVM is compared with ``SVC`` (libsvm) at the same C (hard margin: C = 10¹⁰):
  support vectors, dual objective ½αᵀQα − 1ᵀα and b.
* Linear multiclass Pegasos (the Crammer–Singer objective λ/2‖W‖² + mean generalized
  hinge with the 0-1 Δ) is compared with ``LinearSVC(multi_class="crammer_singer")`` at
  C = 1/(λn); its intercept is a regularized constant feature, like our ``bias=True``.

Pure functions returning a list of :class:`CheckLine`; the page calls them when the
user presses the button (scikit-learn is imported here only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "CheckLine",
    "check_dual",
    "check_kernel_pegasos",
    "check_multiclass_pegasos",
    "check_pegasos",
    "class_weights",
]

HARD_MARGIN_C = 1e10


@dataclass(frozen=True)
class CheckLine:
    """One line of the comparison: what, our value, scikit-learn's, and whether they agree."""

    label: str
    ours: str
    sklearn: str
    ok: bool | None = None


def _hinge_objective(f, y, norm2, lam, c=None):
    """λ/2 ‖w‖² + (1/n) Σ c_i max{0, 1 − y_i f_i} (c = 1 when None)."""
    loss = np.maximum(0.0, 1.0 - y * f)
    return 0.5 * lam * norm2 + float(np.mean(loss if c is None else c * loss))


def class_weights(class_weight, y) -> tuple[np.ndarray | None, dict | None]:
    """(c_i per point, scikit-learn's ``class_weight``) of the run's ``class_weight``.

    The per-point c_i are svmcore's own (:func:`svmcore._validation.check_class_weight`,
    seed 002 §2.1), and scikit-learn gets them as the dict {−1: c₋, +1: c₊}, so both sides
    weight each point alike. (None, None) without class weights.
    """
    if class_weight is None:
        return None, None
    from svmcore._validation import check_class_weight

    y = np.asarray(y, dtype=float)
    c = check_class_weight(class_weight, y)
    per_class = {label: float(c[y == label][0]) if np.any(y == label) else 1.0 for label in (-1, 1)}
    return c, per_class


def _weights_line(per_class: dict | None) -> list[CheckLine]:
    if per_class is None:
        return []
    ours = f"c₋ = {per_class[-1]:.4g}, c₊ = {per_class[1]:.4g}"
    return [CheckLine("class weights (seed 002 §2.1)", ours, f"class_weight = {ours}")]


def check_pegasos(
    X, y, result, *, lam: float, bias: str = "none", class_weight=None
) -> list[CheckLine]:
    """Pegasos vs ``LinearSVC(C=1/(λn), loss="hinge")``, with the run's class weights."""
    from sklearn.svm import LinearSVC

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n = X.shape[0]
    C = 1.0 / (lam * n)
    c, per_class = class_weights(class_weight, y)
    # "augment" regularises the bias like liblinear's intercept (intercept_scaling=1).
    fit_intercept = bias != "none"
    ref = LinearSVC(
        C=C,
        loss="hinge",
        fit_intercept=fit_intercept,
        class_weight=per_class,
        tol=1e-8,
        max_iter=200_000,
    )
    ref.fit(X, y)
    w_ref = ref.coef_.ravel()
    b_ref = float(ref.intercept_[0]) if fit_intercept else 0.0
    f_ref = X @ w_ref + b_ref
    reg_ref = w_ref @ w_ref + (b_ref**2 if bias == "augment" else 0.0)
    obj_ref = _hinge_objective(f_ref, y, reg_ref, lam, c)
    w = np.asarray(result.w, dtype=float)
    b = float(getattr(result, "b", 0.0))
    f = X @ w + b
    reg = w @ w + (b**2 if bias == "augment" else 0.0)
    obj = _hinge_objective(f, y, reg, lam, c)
    agree = float(np.mean(np.sign(f) == np.sign(f_ref)))
    note = " (the free bias is not regularised; liblinear's is — close, not equal)"
    hinge = "mean hinge" if c is None else "mean c_{y_i}·hinge"
    return [
        CheckLine("C = 1/(λn)", f"λ = {lam:.4g}", f"C = {C:.4g}"),
        *_weights_line(per_class),
        CheckLine(
            f"objective λ/2‖w‖² + {hinge}" + (note if bias == "free" else ""),
            f"{obj:.6f}",
            f"{obj_ref:.6f}",
            ok=abs(obj - obj_ref) <= 1e-2 * max(1.0, abs(obj_ref)),
        ),
        CheckLine("objective difference (ours − sklearn)", f"{obj - obj_ref:+.2e}", "", None),
        CheckLine("w", np.array2string(w, precision=4), np.array2string(w_ref, precision=4)),
        CheckLine(
            "same prediction on the training points", f"{100 * agree:.1f} %", "", agree > 0.95
        ),
    ]


def check_kernel_pegasos(X, y, result, *, lam: float, class_weight=None) -> list[CheckLine]:
    """Kernel Pegasos vs ``SVC`` at C = 1/(λn) (SVC has a bias; SSBD's problem has none),
    with the run's class weights."""
    from sklearn.svm import SVC

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n = X.shape[0]
    k = result.kernel
    C = 1.0 / (lam * n)
    c, per_class = class_weights(class_weight, y)
    kw = {"kernel": k.name}
    if k.name != "linear":
        kw["gamma"] = k.gamma
    if k.name == "poly":
        kw.update(degree=k.degree, coef0=k.coef0)
    ref = SVC(C=C, tol=1e-6, class_weight=per_class, **kw).fit(X, y)
    K = k(X)
    coef_ref = np.zeros(n)
    coef_ref[ref.support_] = ref.dual_coef_.ravel()
    f_ref = K @ coef_ref + float(ref.intercept_[0])
    obj_ref = _hinge_objective(f_ref, y, float(coef_ref @ K @ coef_ref), lam, c)
    a = np.asarray(result.alpha, dtype=float)
    f = K @ a
    obj = _hinge_objective(f, y, float(a @ K @ a), lam, c)
    agree = float(np.mean(np.sign(f) == np.sign(f_ref)))
    hinge = "mean hinge" if c is None else "mean c_{y_i}·hinge"
    return [
        CheckLine("C = 1/(λn)", f"λ = {lam:.4g}", f"C = {C:.4g}"),
        *_weights_line(per_class),
        CheckLine(
            f"objective λ/2 αᵀKα + {hinge} (SVC adds a bias b)",
            f"{obj:.6f}",
            f"{obj_ref:.6f}",
            ok=obj <= obj_ref * 1.05 + 1e-3,
        ),
        CheckLine("support vectors", f"{np.count_nonzero(a)}", f"{ref.support_.size}"),
        CheckLine(
            "same prediction on the training points", f"{100 * agree:.1f} %", "", agree > 0.9
        ),
    ]


def check_dual(X, y, result, *, C: float | None) -> list[CheckLine]:
    """Dual SVM vs ``SVC`` (libsvm) at the same C: support vectors, objective, b."""
    from sklearn.svm import SVC

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    k = result.kernel
    kw = {"kernel": k.name}
    if k.name != "linear":
        kw["gamma"] = k.gamma
    if k.name == "poly":
        kw.update(degree=k.degree, coef0=k.coef0)
    C_ref = HARD_MARGIN_C if C is None else C
    ref = SVC(C=C_ref, tol=1e-8, **kw).fit(X, y)
    n = X.shape[0]
    alpha_ref = np.zeros(n)
    alpha_ref[ref.support_] = np.abs(ref.dual_coef_.ravel())
    Q = (y[:, None] * y[None, :]) * k(X)
    alpha = np.asarray(result.alpha, dtype=float)
    d_ours = 0.5 * alpha @ Q @ alpha - alpha.sum()
    d_ref = 0.5 * alpha_ref @ Q @ alpha_ref - alpha_ref.sum()
    sv = set(np.flatnonzero(alpha > 1e-8 * max(1.0, alpha.max(initial=0.0))).tolist())
    sv_ref = set(ref.support_.tolist())
    b_ref = float(ref.intercept_[0])
    diff = sorted(sv ^ sv_ref)
    return [
        CheckLine(
            "support vectors",
            f"{len(sv)}",
            f"{len(sv_ref)}",
            ok=not diff,
        ),
        CheckLine(
            "points in one support set only",
            ", ".join(map(str, diff[:20])) or "none",
            "",
            ok=not diff,
        ),
        CheckLine(
            "dual objective ½αᵀQα − 1ᵀα",
            f"{d_ours:.8g}",
            f"{d_ref:.8g}",
            ok=abs(d_ours - d_ref) <= 1e-4 * max(1.0, abs(d_ref)),
        ),
        CheckLine("objective difference (ours − libsvm)", f"{d_ours - d_ref:+.2e}", ""),
        CheckLine("b", f"{float(result.b):.6g}", f"{b_ref:.6g}", ok=abs(result.b - b_ref) < 1e-2),
    ]


def check_multiclass_pegasos(X, y, result, *, lam: float) -> list[CheckLine]:
    """Linear multiclass Pegasos vs ``LinearSVC(multi_class="crammer_singer")``."""
    from sklearn.svm import LinearSVC

    from svmcore.sgd.multiclass_common import generalized_hinge, zero_one_delta

    X = np.asarray(X, dtype=float)
    n = X.shape[0]
    classes = np.asarray(result.classes_)
    y_idx = np.searchsorted(classes, np.asarray(y))
    k = classes.shape[0]
    C = 1.0 / (lam * n)
    bias = bool(result.bias)
    ref = LinearSVC(
        C=C,
        multi_class="crammer_singer",
        fit_intercept=bias,
        intercept_scaling=1.0,
        tol=1e-8,
        max_iter=100_000,
    ).fit(X, y_idx)
    W_ref = ref.coef_ if k > 2 else np.vstack([-ref.coef_, ref.coef_]) / 2
    if bias:
        b = ref.intercept_ if k > 2 else np.array([-ref.intercept_[0], ref.intercept_[0]]) / 2
        W_ref = np.column_stack([W_ref, b])
    Xa = np.column_stack([X, np.ones(n)]) if bias else X
    D = zero_one_delta(k)

    def objective(W):
        return 0.5 * lam * float(np.sum(W * W)) + float(
            np.mean(generalized_hinge(Xa @ W.T, y_idx, D))
        )

    obj, obj_ref = objective(np.asarray(result.W)), objective(W_ref)
    agree = float(np.mean(np.argmax(Xa @ result.W.T, axis=1) == np.argmax(Xa @ W_ref.T, axis=1)))
    return [
        CheckLine("C = 1/(λn)", f"λ = {lam:.4g}", f"C = {C:.4g}"),
        CheckLine(
            "objective λ/2‖W‖² + mean generalized hinge",
            f"{obj:.6f}",
            f"{obj_ref:.6f}",
            ok=abs(obj - obj_ref) <= 1e-2 * max(1.0, abs(obj_ref)),
        ),
        CheckLine("objective difference (ours − sklearn)", f"{obj - obj_ref:+.2e}", "", None),
        CheckLine(
            "same prediction on the training points", f"{100 * agree:.1f} %", "", agree > 0.95
        ),
    ]
