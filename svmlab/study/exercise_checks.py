"""The checks of the exercises (:mod:`svmlab.study.exercises`): solver quantities → a verdict.

Pure (no Streamlit). Each check takes an :class:`Attempt` (the run on screen: registry
key, points, svmcore keyword arguments, result) and the quantities recorded when the
exercise opened, and returns a :class:`Verdict` — done or not, and a sentence with the
numbers (support vectors, the margin 1/‖w‖, P − P* by svmcore's exact solver, the test
error on a fresh sample of the preset).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

import svmcore
from svmcore.datasets import load

__all__ = [
    "BOUNDED_X",
    "BOUNDED_Y",
    "DOUBLE_X",
    "DOUBLE_Y",
    "HARD",
    "OVERFIT",
    "OVERFIT_X",
    "OVERFIT_Y",
    "SOFT",
    "Attempt",
    "Verdict",
    "all_free",
    "double_margin",
    "exact_hard_margin",
    "hard_margin_svs",
    "kernel_pegasos_bias",
    "margin_points",
    "margin_start",
    "moved_points",
    "one_bounded",
    "ova_ambiguous",
    "overfit",
    "overfit_test_set",
    "pegasos_T",
    "two_svs",
]

#: The dual page's margin radio values (svmlab.algorithms.dual_svm.HARD / SOFT).
HARD, SOFT = "hard margin (α ≥ 0)", "soft margin (0 ≤ α ≤ C)"
#: α below this fraction of max α counts as 0 (the QP's interior point leaves ~1e-9).
ALPHA_ZERO = 1e-6
#: |y_n f(x_n) − 1| up to this counts as on the margin (of a tightly solved (w, b)).
MARGIN_TOL = 1e-6


@dataclass(frozen=True, eq=False)
class Attempt:
    """The run on screen: registry key, points, svmcore keyword arguments, result."""

    algorithm: str
    X: np.ndarray
    y: np.ndarray
    params: dict
    result: object


class Verdict(NamedTuple):
    """Whether the goal is reached, and why (with the numbers): ``(done, feedback)``."""

    done: bool
    feedback: str


# -- shared quantities ---------------------------------------------------------------------
def hard_margin_svs(alpha) -> np.ndarray:
    """Indices with α_i > ALPHA_ZERO · max α (the support vectors)."""
    a = np.asarray(alpha, dtype=float)
    return np.flatnonzero(a > ALPHA_ZERO * max(float(a.max(initial=0.0)), 1e-300))


def moved_points(X0, y0, X, y) -> int | None:
    """How many of the points (X, y) are not among the starting points (X0, y0), or None
    when the number of points changed."""
    X0, X = np.asarray(X0, float), np.asarray(X, float)
    if X.shape != X0.shape:
        return None
    start = set(_keys(X0, y0))
    return sum(key not in start for key in _keys(X, y))


def _keys(X, y) -> list[tuple]:
    """Each point with its label, rounded to 1e-9 (a drag is a move, not a tiny change)."""
    return [(round(a, 9), round(b, 9), float(c)) for (a, b), c in zip(X, y, strict=True)]


def _errors(result, X, y) -> float:
    return float(np.mean(np.where(result.decision_function(X) >= 0, 1.0, -1.0) != y))


def _is_linear(params) -> bool:
    return params.get("kernel") == "linear"


def _needs(ok: bool, what: str) -> Verdict | None:
    return None if ok else Verdict(False, f"Set {what} first.")


# -- the checks ----------------------------------------------------------------------------
def exact_hard_margin(X, y):
    """The hard-margin linear SVM solved tightly (SMO to m(α) − M(α) ≤ 1e-10), for verdicts
    that must not depend on the page's solver or tolerance; None if not separable."""
    try:
        return svmcore.dual_svm(X, y, kernel="linear", C=None, tol=1e-10)
    except svmcore.NotSeparableError:
        return None


def margin_points(X, y, w, b) -> np.ndarray:
    """Indices n with y_n(wᵀx_n + b) = 1 to :data:`MARGIN_TOL`: seed 003's "SV candidates"
    on the fat boundary (a property of the unique optimal (w, b), not of one solver's α)."""
    yf = np.asarray(y, float) * (np.asarray(X, float) @ np.asarray(w, float) + float(b))
    return np.flatnonzero(np.abs(yf - 1.0) <= MARGIN_TOL)


def _points(idx) -> str:
    """The words for the points ``idx``: 'point 3' or 'points 1, 5' (1-based, as on screen)."""
    word = "point" if len(idx) == 1 else "points"
    return f"{word} " + ", ".join(str(int(i) + 1) for i in idx)


def two_svs(a: Attempt, start: dict) -> Verdict:
    """Exercise two_svs: exactly 4 points, hard margin, linear K, exactly 2 points on the
    margin y_n(wᵀx_n + b) = 1.

    The verdict is read off the unique optimal (w, b) of the hard margin (solved tightly
    here, whatever the page's solver), not off one solver's α: on a degenerate set several
    optimal α give the same (w, b) — on the square (0, 0), (0, 2) | (2, 0), (2, 2) SMO
    returns 2 positive α, the QP all 4 at ¼. With exactly 2 margin points (one per class)
    both must carry α > 0 (Σ y_n α_n = 0, w ≠ 0): then they are the support vectors of
    every optimal α.
    """
    miss = _needs(a.params.get("C") is None and _is_linear(a.params), "a hard margin, linear K")
    if miss:
        return miss
    n, sv = len(a.X), hard_margin_svs(a.result.alpha)
    alphas = ", ".join(f"{v:.3g}" for v in a.result.alpha[sv])
    run = f"this run's solver has {sv.size} support vectors (α = {alphas})"
    if n != 4:
        return Verdict(False, f"n = {n} points, {run}: use exactly 4 points.")
    r = exact_hard_margin(a.X, a.y)
    if r is None:
        return Verdict(False, "The points are not linearly separable: no hard margin.")
    on = margin_points(a.X, a.y, r.w, r.b)
    text = (
        f"n = 4 points; {on.size} on the margin y_n(wᵀx_n + b) = 1 ({_points(on)}) of "
        f"the optimal w = ({r.w[0]:.3g}, {r.w[1]:.3g}), b = {r.b:.3g}; {run}"
    )
    if on.size == 2:
        return Verdict(
            True,
            text + ": two points alone fix the boundary — both need α > 0, so they are the "
            "support vectors whichever optimal α a solver returns.",
        )
    if sv.size == 2:
        return Verdict(
            False,
            text + f": another optimal α can use all {on.size} margin points (the QP spreads "
            "α over them); the goal is exactly 2 points on the margin.",
        )
    return Verdict(False, text + ": the goal is exactly 2 points on the margin.")


def margin_start(X, y) -> dict:
    """The starting margin 1/‖w‖ of the hard-margin linear SVM on (X, y)."""
    r = svmcore.dual_svm(X, y, kernel="linear", C=None, tol=1e-8)
    return {"margin": float(r.margin)}


def double_margin(a: Attempt, start: dict) -> Verdict:
    """Exercise double_margin: one point moved, margin ≥ 1.99 × the starting one."""
    miss = _needs(a.params.get("C") is None and _is_linear(a.params), "a hard margin, linear K")
    if miss:
        return miss
    m0, m = start["margin"], float(a.result.margin)
    moved = moved_points(DOUBLE_X, DOUBLE_Y, a.X, a.y)
    text = f"margin 1/‖w‖ = {m:.4g}, {m / m0:.3g} × the starting {m0:.4g}"
    if moved is None or moved > 1:
        return Verdict(False, text + "; move exactly one of the starting points (reload them).")
    if m >= 1.99 * m0:
        return Verdict(True, text + " — doubled.")
    return Verdict(False, text + "; the goal is × 2.")


def one_bounded(a: Attempt, start: dict) -> Verdict:
    """Exercise one_bounded: the exercise's five points, the linear K, a soft margin with
    exactly one α_n = C.

    α is that of the same dual solved tightly here (SMO to 1e-10), so the page's solver
    and tolerance do not change the verdict; α_n ≥ C(1 − 10⁻⁶) counts as α_n = C (an
    interior point stops just short of the box).
    """
    C = a.params.get("C")
    miss = _needs(C is not None and _is_linear(a.params), "a soft margin, linear K")
    if miss:
        return miss
    if moved_points(BOUNDED_X, BOUNDED_Y, a.X, a.y) != 0:
        return Verdict(
            False, "Reload the exercise's five points: the goal is about them (and C only)."
        )
    r = svmcore.dual_svm(a.X, a.y, kernel="linear", C=C, tol=1e-10)
    bounded = np.flatnonzero(r.alpha >= C * (1.0 - ALPHA_ZERO))
    free = np.flatnonzero((r.alpha > ALPHA_ZERO * C) & (r.alpha < C * (1.0 - ALPHA_ZERO)))
    which = f" ({_points(bounded)})" if bounded.size else ""
    text = f"C = {C:g}: {bounded.size} bounded SVs (α = C){which}, {free.size} free (0 < α < C)"
    if bounded.size == 1:
        return Verdict(True, text + ": exactly one point pays its slack ξ > 0 at full price C.")
    more = "lower C" if bounded.size == 0 else "raise C"
    return Verdict(False, text + f"; the goal is exactly 1 ({more}).")


def kernel_pegasos_bias(a: Attempt, start: dict) -> Verdict:
    """Exercise kernel_pegasos_bias: some training point predicted unlike the dual."""
    miss = _needs(
        _is_linear(a.params) and a.params.get("class_weight") is None,
        "the linear K, no class weights",
    )
    if miss:
        return miss
    n, lam = len(a.y), float(a.params["lam"])
    d = svmcore.dual_svm(a.X, a.y, kernel="linear", C=1.0 / (lam * n), tol=1e-6)
    ours = np.where(a.result.decision_function(a.X) >= 0, 1.0, -1.0)
    k = int(np.count_nonzero(ours != d.predict(a.X)))
    text = (
        f"{k} of {n} training points predicted differently from the dual SVM at C = 1/(λn) = "
        f"{1.0 / (lam * n):.4g}, whose bias is b = {d.b:.3g}"
    )
    if k:
        return Verdict(
            True,
            text + ". Kernel Pegasos has no b: its boundary ⟨w, x⟩ = 0 passes through the "
            "origin, the dual's ⟨w, x⟩ + b = 0 need not.",
        )
    return Verdict(False, text + "; the goal is at least 1.")


OVERFIT = dict(name="moons", n=60, noise=0.35, seed=3, test_n=400, test_seed=1003)
OVERFIT_X, OVERFIT_Y = load(
    OVERFIT["name"], n=OVERFIT["n"], noise=OVERFIT["noise"], random_state=OVERFIT["seed"]
)


def overfit_test_set():
    """A fresh sample of the exercise's preset (same distribution, another seed)."""
    o = OVERFIT
    return load(o["name"], n=o["test_n"], noise=o["noise"], random_state=o["test_seed"])


def overfit(a: Attempt, start: dict) -> Verdict:
    """Exercise overfit_gamma: training error 0 and test error > 20 % (RBF)."""
    miss = _needs(a.params.get("kernel") == "rbf", "the Gaussian (RBF) kernel")
    if miss:
        return miss
    if moved_points(OVERFIT_X, OVERFIT_Y, a.X, a.y) != 0:
        return Verdict(False, "Reload the exercise's points: the test set is drawn like them.")
    Xt, yt = overfit_test_set()
    train, test = _errors(a.result, a.X, a.y), _errors(a.result, Xt, yt)
    text = (
        f"γ = {a.params.get('gamma', 1.0):g}: training error {100 * train:.1f} %, test error "
        f"{100 * test:.1f} % on {len(yt)} fresh points"
    )
    if train == 0 and test > 0.2:
        return Verdict(True, text + ": a perfect fit that does not generalize.")
    return Verdict(False, text + "; the goal is 0 % and above 20 %.")


def ova_ambiguous(a: Attempt, start: dict) -> Verdict:
    """Exercise ova_ambiguous: a training point claimed by no or several f_k."""
    amb = svmcore.ambiguity_regions(a.result.decision_function(a.X))
    none, several = int(amb.none.sum()), int(amb.several.sum())
    text = f"{none} training points claimed by no classifier, {several} by several"
    if none + several:
        return Verdict(True, text + ": argmax decides there, no single f_k > 0 does.")
    return Verdict(False, text + "; the goal is at least one.")


def pegasos_T(a: Attempt, start: dict) -> Verdict:
    """Exercise pegasos_T: P(w̄) − P* ≤ 1e-2 for the averaged output.

    P* is svmcore's exact minimum of the run's own objective (same λ, bias, class
    weights). Where svmcore has no exact solver for the options (a free b together with
    class weights: its dual SVM has one C for every point) the verdict says so and what
    to change, instead of letting the solver's error through.
    """
    p = a.params
    miss = _needs(
        p.get("averaging", "average") == "average" and p.get("w_ref") is None,
        "the averaged output w̄ (no w_r)",
    )
    if miss:
        return miss
    bias, cw = p.get("bias", "none"), p.get("class_weight")
    if bias == "free" and cw is not None:
        return Verdict(
            False,
            "No exact P* for a free b with class weights: svmcore's exact solver for a free "
            "b is the dual SVM, which has one C = 1/(λn) for every point, not c_{y_i}/(λn). "
            'Set the bias to "none" or "augment", or the class weights to none, to compare '
            "w̄ with P*.",
        )
    try:
        opt = svmcore.soft_svm_optimum(a.X, a.y, lam=p["lam"], bias=bias, class_weight=cw)
    except ValueError as exc:  # options the exact solver refuses: said, never raised
        return Verdict(False, f"No exact P* for these options — {exc}")
    gap = float(a.result.objective) - opt.objective
    text = f"T = {p['T']:,}: P(w̄) − P* = {gap:.2e} (P* = {opt.objective:.6g} by {opt.solver})"
    if gap <= 1e-2:
        return Verdict(True, text + " ≤ 1e-2.")
    return Verdict(False, text + "; the goal is ≤ 1e-2.")


def all_free(a: Attempt, start: dict) -> Verdict:
    """Exercise all_free: every point a free SV (0 < α < C), RBF soft margin."""
    miss = _needs(
        a.params.get("kernel") == "rbf" and a.params.get("C") is not None,
        "a soft margin with the RBF K",
    )
    if miss:
        return miss
    r, n = a.result, len(a.y)
    text = (
        f"γ = {a.params.get('gamma', 1.0):g}: {r.free_.size} of {n} points are free SVs, "
        f"{r.bounded_.size} bounded"
    )
    if r.free_.size == n:
        return Verdict(True, text + ": every point sits on its own margin — memorized.")
    return Verdict(False, text + f"; the goal is all {n}.")


def _pts(rows, labels):
    return np.asarray(rows, dtype=float), np.asarray(labels, dtype=float)


DOUBLE_X, DOUBLE_Y = _pts([[-2, 0], [-2, 1], [2, 0], [0, 0.5]], [-1, -1, 1, 1])
#: Seed 003's four points and a fifth, (1, 0.5), close to the other class (one_bounded).
BOUNDED_X, BOUNDED_Y = _pts([[0, 0], [2, 2], [2, 0], [3, 0], [1.0, 0.5]], [-1, -1, 1, 1, 1])
