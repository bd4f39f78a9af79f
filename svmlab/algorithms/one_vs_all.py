"""One-vs-all over any binary learner (seed 002 §2.3): its registry entry."""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab import widgets
from svmlab.algorithms.multiclass_common import CAPS
from svmlab.algorithms.pegasos import BIASES
from svmlab.algorithms.spec import AlgorithmSpec, accuracy_row
from svmlab.pseudocode import Line
from svmlab.views import OneVsAllView

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
    params["T"] = int(widgets.t_slider(key=f"{key}_T", default=3_000, cap=CAPS.T))
    params["random_state"] = widgets.seed_input(key)
    return params


def code(o: dict) -> list[Line]:
    """Seed 002 §2.3's one-vs-all."""
    return [
        Line("for each class k = 1, …, K"),
        Line("    relabel: y⁽ᵏ⁾_j = +1 if y_j = k else −1"),
        Line("    train a binary SVM → f_k(x) = w_kᵀx + b_k"),
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
    """Seed 002 §2.3: one binary SVM per class, the argmax predicts."""
    return (
        r"\text{for each class }k:\;\min_{w_k,b_k}\text{ a binary soft-margin SVM on }"
        r"y^{(k)}_j=\pm1;\qquad\hat y=\arg\max_k\;w_k^\top x+b_k"
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
