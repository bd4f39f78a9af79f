"""One-vs-all over any binary learner (seed 002 §2.3): its registry entry.

Each binary problem "class k against the rest" is imbalanced (N₊ = n_k, N₋ = n − n_k), the
case of seed 002 §2.1: the SGD learners take its class weights c_± on the hinge, per
binary problem (:func:`binary_class_weights`); the dual SVM learner has none.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab.algorithms import widgets
from svmlab.algorithms.multiclass_common import CAPS
from svmlab.algorithms.pegasos import BIASES
from svmlab.algorithms.spec import AlgorithmSpec, accuracy_row
from svmlab.plot.pseudocode import Line
from svmlab.plot.views import OneVsAllView

__all__ = ["SPEC"]

LEARNERS = {
    "pegasos": "linear Pegasos",
    "kernel_pegasos": "kernel Pegasos",
    "dual_svm": "dual SVM (SMO)",
}


def controls(key: str, X, y) -> dict:
    """The binary learner and its parameters."""
    learner = st.selectbox(
        "Binary learner",
        list(LEARNERS),
        format_func=LEARNERS.get,
        key=f"{key}_learner",
        bind=widgets.BIND,
    )
    params = {"learner": learner}
    if learner != "pegasos":
        params.update(widgets.kernel_controls(key, default="rbf"))
    if learner == "dual_svm":
        params["C"] = float(widgets.log_slider("C", -2, 3, 1.0, key=f"{key}_C"))
        params["solver"] = "smo"  # the label's SMO (dual_svm's default picks by the problem)
        return params  # SMO is deterministic: no T, no seed
    params["lam"] = float(widgets.log_slider("λ", -4, 1, 0.01, key=f"{key}_lam"))
    if learner == "pegasos":
        params["bias"] = st.selectbox(
            "Bias b of each binary classifier",
            list(BIASES),
            key=f"{key}_bias",
            bind=widgets.BIND,
            format_func=BIASES.get,
        )
    params["class_weight"] = widgets.class_weight_control(key)
    if params["class_weight"] is not None:
        st.caption(class_weight_caption(y, params["class_weight"]))
    params["T"] = int(widgets.t_slider(key=f"{key}_T", default=3_000, cap=CAPS.T))
    params["random_state"] = widgets.seed_input(key)
    return params


def decision(o: dict) -> tuple[str, str]:
    """f_k(x) of the k-th binary classifier, as its learner computes it: linear Pegasos
    w_kᵀx (+ b_k with a bias, free or regularized), kernel Pegasos Σ_j α_{k,j} K(x_j, x)
    (SSBD's signed α, no bias), the dual SVM Σ_j α_{k,j} y⁽ᵏ⁾_j K(x_j, x) + b_k (Lin)."""
    learner = o.get("learner", "pegasos")
    if learner == "kernel_pegasos":
        return "Σ_j α_{k,j} K(x_j, x)", r"\sum_j \alpha_{k,j} K(x_j, x)"
    if learner == "dual_svm":
        return (
            "Σ_j α_{k,j} y⁽ᵏ⁾_j K(x_j, x) + b_k",
            r"\sum_j \alpha_{k,j}\, y^{(k)}_j K(x_j, x) + b_k",
        )
    if o.get("bias", "none") == "none":
        return "w_kᵀx", r"w_k^\top x"
    return "w_kᵀx + b_k", r"w_k^\top x + b_k"


BIAS_NOTES = {
    "none": "   (no b: the texts' homogeneous soft-SVM)",
    "augment": "   (b_k regularized with w_k: x̃ = (x, 1))",
    "free": "   (b_k free, not regularized)",
}


def binary_class_weights(y, class_weight) -> list[tuple]:
    """Seed 002 §2.1's weights in each binary problem "class k (+1) against the rest (−1)":
    one (class, N₊, N₋, c₊, c₋) per class; "balanced" is c_± = N/(2N_±), a dict
    {−1: c₋, +1: c₊} the same two weights in every problem, None 1 and 1."""
    y = np.asarray(y)
    n = y.shape[0]
    out = []
    for c in np.unique(y).tolist():
        n_pos = int(np.count_nonzero(y == c))
        n_neg = n - n_pos
        if class_weight == "balanced":
            w_pos, w_neg = n / (2.0 * n_pos), n / (2.0 * n_neg)
        elif isinstance(class_weight, dict):
            w_pos, w_neg = float(class_weight.get(1, 1.0)), float(class_weight.get(-1, 1.0))
        else:
            w_pos = w_neg = 1.0
        out.append((c, n_pos, n_neg, w_pos, w_neg))
    return out


def class_weight_caption(y, class_weight) -> str:
    """The weights of every binary problem, with this data's numbers."""
    parts = [
        f"class {c}: N₊ = {p}, N₋ = {m}, c₊ = {wp:.4g}, c₋ = {wm:.4g}"
        for c, p, m, wp, wm in binary_class_weights(y, class_weight)
    ]
    return (
        "Seed 002 §2.1 in each binary problem (class k → +1, the rest → −1, so N₊ ≪ N₋): "
        "the hinge of a point weighs c_{y⁽ᵏ⁾}. " + "; ".join(parts) + "."
    )


def code(o: dict) -> list[Line]:
    """Seed 002 §2.3's one-vs-all, with each binary learner's f_k as it computes it."""
    learner = o.get("learner", "pegasos")
    f, _ = decision(o)
    note = BIAS_NOTES.get(o.get("bias", "none"), "") if learner == "pegasos" else ""
    return [
        Line("for each class k = 1, …, K"),
        Line("    relabel: y⁽ᵏ⁾_j = +1 if y_j = k else −1"),
        Line(f"    train {LEARNERS.get(learner, learner)} on (x_j, y⁽ᵏ⁾_j) → f_k(x) = {f}{note}"),
        Line("predict ŷ = argmax_k f_k(x)"),
        Line("ambiguous where no f_k(x) > 0 or several are"),
    ]


def rows(step: dict, y, o: dict) -> list:
    """One-vs-all records no steps."""
    return []


def view(result, X, y) -> OneVsAllView:
    """One snapshot: the k binary decision values and their ambiguous regions."""
    return OneVsAllView(
        np.zeros(1, dtype=np.int64),
        None,
        None,
        False,
        None,
        np.asarray(X, dtype=float),
        np.asarray(result.classes_),
        decision=result.decision_function,
        ambiguity=lambda scores: svmcore.ambiguity_regions(scores).ambiguous,
    )


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, the number of binary classifiers, the ambiguous share of the plane."""
    out = {
        "training accuracy": accuracy_row(result.train_error),
        "binary classifiers": str(len(result.models)),
    }
    if values is not None and values[3] is not None:
        out["ambiguous share of the plane"] = f"{100 * float(np.mean(values[3])):.1f} %"
    return out


def objective(o: dict) -> str:
    """Seed 002 §2.3: one binary classifier per class, the argmax of their f_k predicts; with
    class weights, each binary hinge weighted by seed 002 §2.1's c_{y⁽ᵏ⁾}."""
    learner = o.get("learner", "pegasos")
    what = {"pegasos": "a binary soft-SVM", "kernel_pegasos": "a binary kernel soft-SVM"}
    _, f = decision(o)
    if o.get("class_weight") is not None:
        aug = learner == "pegasos" and o.get("bias") == "augment"
        reg = r"\big(\lVert w_k\rVert^2+b_k^2\big)" if aug else r"\lVert w_k\rVert^2"
        return (
            rf"\text{{for each class }}k:\;\min\;\frac{{\lambda}}{{2}}{reg}"
            r"+\frac1n\sum_{j=1}^n c_{y^{(k)}_j}\max\{0,1-y^{(k)}_jf_k(x_j)\},"
            rf"\;\;y^{{(k)}}_j=\pm1;\qquad\hat y=\arg\max_k\;{f}"
        )
    return (
        rf"\text{{for each class }}k:\;\text{{{what.get(learner, 'a binary soft-margin SVM')}}}"
        r"\text{ on }"
        rf"y^{{(k)}}_j=\pm1;\qquad\hat y=\arg\max_k\;{f}"
    )


SPEC = AlgorithmSpec.of(
    globals(),
    title="One-vs-all (seed 002 §2.3)",
    page="multiclass",
    fn=svmcore.one_vs_all,
    caps=CAPS,
    plane_caption="Grey: ambiguous regions, claimed by no binary classifier (every "
    'f_k(x) ≤ 0) or by several — seed 002\'s points "in between our classifiers"; only '
    "the argmax decides there.",
    n_classes=None,
)
