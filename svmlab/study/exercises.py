"""Exercises checked by the solver (the Exercises page and the goal box). Pure: no Streamlit.

Each :class:`Exercise` names the page and the registry algorithm it runs on, says what
to do and gives a hint, carries its starting points and widget settings (loaded when a
student opens it) and a check of the run on screen against solver quantities
(:mod:`svmlab.study.exercise_checks`). :data:`EXERCISES` maps an id to its exercise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from svmcore.datasets import load
from svmlab.study import exercise_checks as ck
from svmlab.study.exercise_checks import (
    BOUNDED_X,
    BOUNDED_Y,
    DOUBLE_X,
    DOUBLE_Y,
    HARD,
    OVERFIT_X,
    OVERFIT_Y,
    SOFT,
    Attempt,
    Verdict,
)

__all__ = ["EXERCISES", "Attempt", "Exercise", "Verdict", "pts"]


def pts(rows, labels):
    """Points and labels as float arrays."""
    return np.asarray(rows, dtype=float), np.asarray(labels, dtype=float)


@dataclass(frozen=True, eq=False)
class Exercise:
    """One exercise.

    Attributes
    ----------
    id, title : str
    page : str
        The URL path of its page (``pages/<page>.py``).
    algorithm : str
        The registry key whose run is checked.
    statement, hint : str
    X, y : ndarray
        The starting points (binary ±1, or 0..k−1 on the multiclass page).
    widgets : dict
        Session-state widget keys and their starting values.
    check : callable
        ``check(attempt, start) -> Verdict``; ``start`` is :meth:`start` of the exercise.
    baseline : callable or None
        ``baseline(X, y) -> dict`` of starting quantities (recorded when opened).
    """

    id: str
    title: str
    page: str
    algorithm: str
    statement: str
    hint: str
    X: np.ndarray
    y: np.ndarray
    widgets: dict
    check: Callable
    baseline: Callable | None = field(default=None)

    @property
    def script(self) -> str:
        """The page script, for ``st.switch_page`` / ``st.page_link``."""
        return f"pages/{self.page}.py"

    def start(self) -> dict:
        """The quantities recorded when the exercise opens (e.g. the starting margin)."""
        return {} if self.baseline is None else self.baseline(self.X, self.y)

    def evaluate(self, attempt: Attempt, start: dict | None = None) -> Verdict:
        """The verdict on ``attempt`` (a run of another algorithm is never done)."""
        if attempt.algorithm != self.algorithm:
            return Verdict(False, f"This exercise checks the algorithm “{self.algorithm}”.")
        return self.check(attempt, self.start() if start is None else start)


# -- the starting points -------------------------------------------------------------------
LIN_X, LIN_Y = pts([[0, 0], [2, 2], [2, 0], [3, 0]], [-1, -1, 1, 1])  # seed 003's example

DUAL = {"dual_algo": "dual_svm", "dual_svm_solver": "smo", "dual_svm_rbf_form": "gamma"}
DUAL_HARD_LINEAR = {**DUAL, "dual_svm_margin": HARD, "dual_svm_kernel": "linear"}
DUAL_SOFT_RBF = {**DUAL, "dual_svm_margin": SOFT, "dual_svm_kernel": "rbf"}
SGD = {"sampling": "uniform", "cw": "none", "seed": 0}

EXERCISES: dict[str, Exercise] = {
    ex.id: ex
    for ex in (
        Exercise(
            "two_svs",
            "Two support vectors",
            "dual_svm",
            "dual_svm",
            "Seed 003's four points put 3 points on the fat boundary y_n(wᵀx_n + b) = 1 of "
            "the hard-margin SVM, and all 3 are support vectors. Move them (keep exactly 4 "
            "points) so that exactly 2 points lie on that boundary: then both have α_n > 0 "
            "and they are the only support vectors, whichever optimal α a solver returns. "
            "The check counts the points on the boundary of the unique optimal (w, b), not "
            "one solver's α > 0: when more points lie on it, several α are optimal (on a "
            "square, SMO gives 2 positive α, the QP all 4 at ¼).",
            "Support vectors lie on the margins f = ±1 (α_n > 0 ⇒ y_n f(x_n) = 1). If one "
            "point of each class is closest to the other class, the others can leave the "
            "margin.",
            LIN_X,
            LIN_Y,
            DUAL_HARD_LINEAR,
            ck.two_svs,
        ),
        Exercise(
            "double_margin",
            "Double the margin",
            "dual_svm",
            "dual_svm",
            "Move one point so that the hard-margin SVM's margin 1/‖w‖ doubles.",
            "The margin is half the distance between the classes; find the point that "
            "sets it, and move it away from the other class.",
            DOUBLE_X,
            DOUBLE_Y,
            DUAL_HARD_LINEAR,
            ck.double_margin,
            ck.margin_start,
        ),
        Exercise(
            "one_bounded",
            "Exactly one bounded SV",
            "dual_svm",
            "dual_svm",
            "The fifth point (1, 0.5) sits close to the other class. Keep these five points "
            "and the linear kernel, and find C so that exactly one point is a bounded "
            "support vector (α = C). The check solves the same dual to 1e-10, whatever the "
            "solver on the page.",
            "With a large C the soft margin acts as a hard one: no α reaches C. Lower C "
            "step by step; when C is too small several α hit the box.",
            BOUNDED_X,
            BOUNDED_Y,
            {**DUAL, "dual_svm_margin": SOFT, "dual_svm_kernel": "linear", "dual_svm_C": 100.0},
            ck.one_bounded,
        ),
        Exercise(
            "kernel_pegasos_bias",
            "Kernel Pegasos vs the dual",
            "kernel_pegasos",
            "kernel_pegasos",
            "With the linear kernel, kernel Pegasos and the dual SVM at C = 1/(λn) solve "
            "almost the same problem. Move the points so that they predict at least one "
            "training point differently — and say why.",
            "Look at where the boundary of kernel Pegasos can go: f(0) = Σ α_j K(x_j, 0) = 0 "
            "for the linear kernel. What if both classes sit far from the origin?",
            *load("separable_blobs", n=40, random_state=0),
            {
                "kernel_pegasos_kernel": "linear",
                "kernel_pegasos_lam": 0.01,
                "kernel_pegasos_T": 10_000,
                "kernel_pegasos_avg": "average",
                "kernel_pegasos_schedule": "ssbd",
                **{f"kernel_pegasos_{k}": v for k, v in SGD.items()},
            },
            ck.kernel_pegasos_bias,
        ),
        Exercise(
            "overfit_gamma",
            "A γ that overfits",
            "dual_svm",
            "dual_svm",
            "On these 60 noisy moons, find γ (and C) so that the RBF SVM has training error "
            "0 % and an error above 20 % on 400 fresh points of the same preset.",
            "A large γ makes each kernel bump narrow: the boundary can wrap every single "
            "point, but between the points it knows nothing.",
            OVERFIT_X,
            OVERFIT_Y,
            {**DUAL_SOFT_RBF, "dual_svm_gamma": 1.0, "dual_svm_C": 1.0},
            ck.overfit,
        ),
        Exercise(
            "ova_ambiguous",
            "An ambiguous region",
            "multiclass",
            "one_vs_all",
            "One-vs-all trains one binary classifier per class. Move points so that some "
            "training point lies where no classifier claims it (all f_k < 0) or several do.",
            "Between the three blobs every f_k can be negative. Drag a point of one class "
            "into the middle.",
            *load("k_blobs", n=60, random_state=0, k=3),
            {
                "multiclass_k": 3,
                "multiclass_algo": "one_vs_all",
                "one_vs_all_learner": "pegasos",
                "one_vs_all_lam": 0.01,
                "one_vs_all_bias": "none",
                "one_vs_all_T": 3_000,
                "one_vs_all_seed": 0,
            },
            ck.ova_ambiguous,
        ),
        Exercise(
            "pegasos_T",
            "How many steps to P*?",
            "linear_pegasos",
            "pegasos",
            "Pick T so that Pegasos's averaged output w̄ is within 1e-2 of the exact minimum "
            "P* of the same objective (svmcore's exact dual solver).",
            "SSBD's bound for the averaged output is O(log T/(λT)): at λ = 0.01 that needs "
            "T in the thousands.",
            *load("overlapping_blobs", n=60, random_state=0),
            {
                "linear_algo": "pegasos",
                "pegasos_lam": 0.01,
                "pegasos_T": 10,
                "pegasos_avg": "average",
                "pegasos_schedule": "pegasos",
                "pegasos_bias": "none",
                "pegasos_batch": 1,
                "pegasos_proj": False,
                **{f"pegasos_{k}": v for k, v in SGD.items()},
            },
            ck.pegasos_T,
        ),
        Exercise(
            "all_free",
            "Every point a support vector",
            "dual_svm",
            "dual_svm",
            "With C = 1000 and the RBF kernel, find γ so that every point is a free support "
            "vector (0 < α < C).",
            "When γ is large, K(x, x′) ≈ 0 for every pair of distinct points: each point "
            "needs its own α to reach its margin.",
            *load("moons", n=30, noise=0.15, random_state=0),
            {**DUAL_SOFT_RBF, "dual_svm_gamma": 1.0, "dual_svm_C": 1000.0},
            ck.all_free,
        ),
    )
}
