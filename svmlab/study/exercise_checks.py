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
    "hard_margin_svs",
    "kernel_pegasos_bias",
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
def two_svs(a: Attempt, start: dict) -> Verdict:
    """Exercise two_svs: exactly 4 points, hard margin, linear K, exactly 2 SVs."""
    miss = _needs(a.params.get("C") is None and _is_linear(a.params), "a hard margin, linear K")
    if miss:
        return miss
    n, sv = len(a.X), hard_margin_svs(a.result.alpha)
    alphas = ", ".join(f"{v:.3g}" for v in a.result.alpha[sv])
    text = f"n = {n} points, {sv.size} support vectors (α = {alphas})"
    if n != 4:
        return Verdict(False, text + ": use exactly 4 points.")
    if sv.size == 2:
        return Verdict(True, text + ": two points alone fix the boundary.")
    return Verdict(False, text + ": the goal is exactly 2.")


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
    """Exercise one_bounded: a soft margin with exactly one α_i = C."""
    C = a.params.get("C")
    miss = _needs(C is not None, "a soft margin")
    if miss:
        return miss
    r = a.result
    text = f"C = {C:g}: {r.bounded_.size} bounded SVs (α = C), {r.free_.size} free (0 < α < C)"
    if r.bounded_.size == 1:
        return Verdict(True, text + ": exactly one point pays its slack ξ > 0 at full price C.")
    more = "lower C" if r.bounded_.size == 0 else "raise C"
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
    """Exercise pegasos_T: P(w̄) − P* ≤ 1e-2 for the averaged output."""
    p = a.params
    miss = _needs(
        p.get("averaging", "average") == "average" and p.get("w_ref") is None,
        "the averaged output w̄ (no w_r)",
    )
    if miss:
        return miss
    bias, cw = p.get("bias", "none"), p.get("class_weight")
    opt = svmcore.soft_svm_optimum(a.X, a.y, lam=p["lam"], bias=bias, class_weight=cw)
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
