"""Multiclass (seed 001, SSBD §17.2; seed 002 §2.3): the entries of multiclass SGD,
multiclass Pegasos (Crammer–Singer) and one-vs-all."""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps, accuracy_row, index_rows, loop_lines
from svmlab.pseudocode import Line, num
from svmlab.sklearn_check import check_multiclass_pegasos
from svmlab.views import MulticlassView, OneVsAllView

__all__ = ["MULTICLASS_PEGASOS", "MULTICLASS_SGD", "ONE_VS_ALL"]

CAPS = Caps(n=600, T=200_000)
OUTPUTS = {"average": "averaged w̄ — SSBD (seed 001)", "last": "last iterate"}
MC_SCHEDULES = {
    "pegasos": "η_t = 1/(λt) — the Pegasos paper (seed 002's step)",
    "ssbd": "W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) — SSBD §15.5",
}
LEARNERS = {
    "pegasos": "linear Pegasos",
    "kernel_pegasos": "kernel Pegasos",
    "dual_svm": "dual SVM (SMO)",
}
OVA_BIASES = {
    "none": "none — the texts' (SSBD's soft-SVM has no bias)",
    "augment": "x ↦ (x, 1), regularized — liblinear's",
    "free": "free b, not regularized — as in SVC",
}
HINGE = (
    r"\frac{1}{n}\sum_{i=1}^{n}\max_{y'}\Big(\Delta(y',y_i)"
    r"+\langle w,\Psi(x_i,y')-\Psi(x_i,y_i)\rangle\Big)"
)


def sgd_options(key: str, X, y, T: int) -> dict:
    """Output, sampling, Δ (when the data have k ≥ 2 classes) and the seed."""
    params = {"T": int(T)}
    params["averaging"] = widgets.radio("Output", OUTPUTS, key=f"{key}_avg", horizontal=True)
    params["sampling"] = st.selectbox(
        "Sampling",
        list(widgets.SAMPLINGS),
        format_func=widgets.SAMPLINGS.get,
        key=f"{key}_sampling",
    )
    k = len(set(np.asarray(y).tolist()))
    if k >= 2:
        st.markdown(
            "**Δ(y′, y)** — the cost of predicting y′ (row) when the truth is y (column); "
            "zero diagonal, non-negative:"
        )
        delta = widgets.delta_editor(k, key=key)
        if delta != tuple(tuple(1.0 - float(i == j) for j in range(k)) for i in range(k)):
            params["delta"] = delta
    params["random_state"] = widgets.seed_input(key)
    return params


def sgd_controls(key: str, X, y) -> dict:
    """Ψ with or without offsets, η (or Corollary 17.2's), T and the SGD options."""
    T = widgets.t_slider(key=f"{key}_T", default=3_000, cap=CAPS.T)
    bias = st.checkbox("Ψ(x, y) with x̃ = (x, 1): one offset per class", True, key=f"{key}_bias")
    eta = widgets.log_slider("η (fixed step size)", -3, 1, 0.1, key=f"{key}_eta")
    B = widgets.log_slider("B (norm bound of Corollary 17.2)", -1, 2, 1.0, key=f"{key}_B")
    eta_rec = None
    if len(X):
        try:
            eta_rec = svmcore.multiclass.recommended_eta(X, int(T), float(B), bias=bool(bias))
        except ValueError:
            eta_rec = None
    if eta_rec is not None:
        st.caption(f"Corollary 17.2: η = √(B²/(ρ²T)) = {eta_rec:.3g} for this B, ρ and T.")
        if st.checkbox("use Corollary 17.2's η", key=f"{key}_use_rec"):
            eta = eta_rec
    return {"eta": float(eta), "bias": bool(bias), **sgd_options(key, X, y, T)}


def pegasos_controls(key: str, X, y) -> dict:
    """λ, the schedule, offsets, the kernel (optional), T and the SGD options."""
    T = widgets.t_slider(key=f"{key}_T", default=3_000, cap=CAPS.T)
    params = {}
    bias = st.checkbox("append a constant 1 (offsets, regularized)", True, key=f"{key}_bias")
    lam = widgets.log_slider("λ (regularization)", -4, 1, 0.01, key=f"{key}_lam")
    schedule = widgets.radio("Schedule", MC_SCHEDULES, key=f"{key}_schedule")
    if st.checkbox("kernelized (coefficients per point and class)", key=f"{key}_kern"):
        params.update(widgets.kernel_controls(key, default="rbf"))
    params.update(lam=float(lam), bias=bool(bias), schedule=schedule)
    return {**params, **sgd_options(key, X, y, T)}


def ova_controls(key: str, X, y) -> dict:
    """The binary learner and its parameters."""
    learner = st.selectbox(
        "Binary learner", list(LEARNERS), format_func=LEARNERS.get, key=f"{key}_learner"
    )
    params = {"learner": learner}
    if learner != "pegasos":
        params.update(widgets.kernel_controls(key, default="rbf"))
    if learner == "dual_svm":
        params["C"] = float(widgets.log_slider("C", -2, 3, 1.0, key=f"{key}_C"))
        return params  # SMO is deterministic: no T, no seed
    params["lam"] = float(widgets.log_slider("λ", -4, 1, 0.01, key=f"{key}_lam"))
    if learner == "pegasos":
        params["bias"] = st.selectbox(
            "Bias b of each binary classifier",
            list(OVA_BIASES),
            key=f"{key}_bias",
            format_func=OVA_BIASES.get,
        )
    params["T"] = int(widgets.t_slider(key=f"{key}_T", default=3_000, cap=CAPS.T))
    params["random_state"] = widgets.seed_input(key)
    return params


def output_line(o: dict, W: str = "w") -> Line:
    """The output under ``averaging``."""
    if o.get("averaging", "average") == "average":
        return Line(f"output {W}̄ = (1/T) Σ_t {W}⁽ᵗ⁾")
    return Line(f"output the last {W}⁽ᵀ⁺¹⁾")


def sgd_code(o: dict) -> list[Line]:
    """Seed 001, SSBD's "SGD for Multiclass Learning"."""
    loop = loop_lines(o, "i")
    if o.get("sampling", "uniform") == "uniform":
        loop = [Line("for t = 1, 2, …, T", "step"), Line("    sample (x, y) ∼ D", "step")]
    return [
        Line("parameters: scalar η > 0, integer T > 0, loss Δ, feature map Ψ"),
        Line("initialize: w⁽¹⁾ = 0 ∈ ℝᵈ"),
        *loop,
        Line("    find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w⁽ᵗ⁾, Ψ(x, y′) − Ψ(x, y)⟩ )", "step"),
        Line("    set v_t = Ψ(x, ŷ) − Ψ(x, y)", "step"),
        Line("    update w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ − η v_t", "step"),
        output_line(o),
    ]


def pegasos_code(o: dict) -> list[Line]:
    """The Crammer–Singer objective by Pegasos (seed 002 §2.3 "we could derive")."""
    ssbd = o.get("schedule") == "ssbd"
    lines = [Line("initialize θ⁽¹⁾ = 0" if ssbd else "initialize W⁽¹⁾ = 0"), *loop_lines(o, "i")]
    find = "    find ŷ ∈ argmax_{y′} ( Δ(y′, y_i) + ⟨w_{y′} − w_{y_i}, x̃_i⟩ )"
    if ssbd:
        lines += [
            Line("    let W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)", "step"),
            Line(find, "step"),
            Line("    if ŷ ≠ y_i: θ_{y_i} += x̃_i,  θ_ŷ −= x̃_i", "update"),
        ]
    else:
        lines += [
            Line("    η_t = 1/(λt)", "step"),
            Line(find, "step"),
            Line("    W⁽ᵗ⁺¹⁾ = (1 − η_t λ) W⁽ᵗ⁾", "step"),
            Line("    if ŷ ≠ y_i: w_{y_i} += η_t x̃_i,  w_ŷ −= η_t x̃_i", "update"),
        ]
    return [*lines, output_line(o, "W")]


def ova_code(o: dict) -> list[Line]:
    """Seed 002 §2.3's one-vs-all."""
    return [
        Line("for each class k = 1, …, K"),
        Line("    relabel: y⁽ᵏ⁾_j = +1 if y_j = k else −1"),
        Line("    train a binary SVM → f_k(x) = w_kᵀx + b_k"),
        Line("predict ŷ = argmax_k f_k(x)"),
        Line("ambiguous where no f_k(x) > 0 or several are"),
    ]


def mc_rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """t, the sampled point (1-based), the step size of the code, the scores, ŷ, the loss."""
    out = index_rows(step, None)
    t = int(step["t"])
    if "lam" not in o:
        out.append(("η", num(o["eta"])))
    elif o.get("schedule") == "ssbd":
        out.append(("1/(λt) in W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)", num(1.0 / (o["lam"] * t))))
    else:
        out.append(("η_t = 1/(λt)", num(1.0 / (o["lam"] * t))))
    out.append(("true class y (index)", num(step["y"])))
    out.append(("Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, 1, …", num(step["scores"])))
    out.append(("ŷ (argmax, ties → smallest)", num(step["y_hat"])))
    out.append(("generalized hinge loss", num(step["loss"])))
    out.append(("ŷ ≠ y → w changed", num(bool(step["changed"]))))
    return out


def no_rows(step: dict, y, o: dict) -> list:
    """One-vs-all records no steps."""
    return []


def mc_view(result, X, y) -> MulticlassView:
    """W (linear) or α (kernelized) per snapshot."""
    s = result.trace.snapshots
    W = np.asarray(s["W"]) if "W" in s else None
    A = None if W is not None else np.asarray(s["alpha"])
    kernel = None if W is not None else result.kernel
    return MulticlassView(
        result.trace.t,
        W,
        A,
        bool(getattr(result, "bias", True)),
        kernel,
        np.asarray(X, dtype=float),
        np.asarray(result.classes_),
        trace=result.trace,
    )


def ova_view(result, X, y) -> OneVsAllView:
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


def mc_metrics(label: str):
    """Metrics of a multiclass SGD run: accuracy, the objective (named ``label``), Δ, #SV."""

    def metrics(result, X, y, k: int, values=None) -> dict:
        s = result.trace.snapshots
        out = {"training accuracy": accuracy_row(s["train_error"][k])}
        out[label] = f"{float(s['objective'][k]):.5g}"
        if "delta_risk" in s:
            out["mean Δ(ŷ, y)"] = f"{float(s['delta_risk'][k]):.4g}"
        if "n_support" in s:
            out["support vectors"] = str(int(s["n_support"][k]))
        return out

    return metrics


def ova_metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, the number of binary classifiers, the ambiguous share of the plane."""
    out = {
        "training accuracy": accuracy_row(result.train_error),
        "binary classifiers": str(len(result.models)),
    }
    if values is not None and values[3] is not None:
        out["ambiguous share of the plane"] = f"{100 * float(np.mean(values[3])):.1f} %"
    return out


MULTICLASS_SGD = AlgorithmSpec(
    key="multiclass_sgd",
    title="SSBD's SGD for multiclass learning (seed 001)",
    page="multiclass",
    fn=svmcore.multiclass_sgd,
    caps=CAPS,
    controls=sgd_controls,
    code=sgd_code,
    view=mc_view,
    metrics=mc_metrics("mean generalized hinge"),
    rows=mc_rows,
    objective=lambda o: r"\min_w\;" + HINGE + r"\qquad(17.3)",
    n_classes=None,
)
MULTICLASS_PEGASOS = AlgorithmSpec(
    key="multiclass_pegasos",
    title="Multiclass Pegasos (Crammer–Singer, seed 002 §2.3)",
    page="multiclass",
    fn=svmcore.multiclass_pegasos,
    caps=CAPS,
    controls=pegasos_controls,
    code=pegasos_code,
    view=mc_view,
    metrics=mc_metrics("objective λ/2‖W‖² + hinge"),
    rows=mc_rows,
    objective=lambda o: r"\min_W\;\frac{\lambda}{2}\lVert W\rVert^2+" + HINGE,
    check=lambda X, y, result, p: check_multiclass_pegasos(X, y, result, lam=p["lam"]),
    check_applies=lambda p: "kernel" not in p and "delta" not in p,
    check_caption="LinearSVC(multi_class='crammer_singer') at C = 1/(λn) solves the same "
    "problem (the 0-1 Δ; its intercept is a regularized constant feature); on demand.",
    n_classes=None,
)
ONE_VS_ALL = AlgorithmSpec(
    key="one_vs_all",
    title="One-vs-all (seed 002 §2.3)",
    page="multiclass",
    fn=svmcore.one_vs_all,
    caps=CAPS,
    controls=ova_controls,
    code=ova_code,
    view=ova_view,
    metrics=ova_metrics,
    rows=no_rows,
    objective=lambda o: (
        r"\text{for each class }k:\;\min_{w_k,b_k}\text{ a binary soft-margin SVM on }"
        r"y^{(k)}_j=\pm1;\qquad\hat y=\arg\max_k\;w_k^\top x+b_k"
    ),
    plane_caption="Grey: ambiguous regions, claimed by no binary classifier (every "
    'f_k(x) ≤ 0) or by several — seed 002\'s points "in between our classifiers"; only '
    "the argmax decides there.",
    n_classes=None,
)
