"""Kernel Pegasos (seed 000, SSBD's box; seed 002, Algorithm 2): its registry entry.

Under ``schedule="ssbd"`` the code is SSBD's box (signed β, β_i += y_i, α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt));
under ``"pegasos"`` it is seed 002's Algorithm 2 in its own notation: the sampled index
is j, β counts the updates (β_j += 1, unsigned), and the margin uses 1/(λ(t−1)) —
undefined at t = 1, where β⁽¹⁾ = 0 and the sum is 0. svmcore's β is SSBD's signed one,
so the inspector shows Algorithm 2's count as y_j β_j.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import spec as sp
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps
from svmlab.plot.pseudocode import Line, num
from svmlab.plot.views import BinaryView
from svmlab.study.convergence import binary_optimum
from svmlab.study.lemma import lemma_16_3
from svmlab.study.sklearn_check import check_kernel_pegasos

__all__ = ["SPEC"]


def controls(key: str, X, y) -> dict:
    """Kernel, λ, T, schedule, output, sampling, seed."""
    params = widgets.kernel_controls(key, default="rbf")
    params.update(
        widgets.sgd_controls(key, kind="kernel", n=len(X), T_default=10_000, T_cap=SPEC.caps.T)
    )
    params["class_weight"] = widgets.class_weight_control(key)
    st.caption("Bias: none — SSBD's soft-SVM (16.5) has no b; scikit-learn's SVC has one.")
    params["random_state"] = widgets.seed_input(key)
    return params


def code(o: dict) -> list[Line]:
    """SSBD's box (schedule "ssbd") or seed 002's Algorithm 2 ("pegasos")."""
    last = o.get("averaging", "average") == "last"

    def c(i: str) -> str:  # seed 002 §2.1's class weight on the step, if any
        return f"c_{{y_{i}}} " if o.get("class_weight") else ""

    weights = (
        [Line("c_y: the weight of class y on its hinge terms (seed 002 §2.1)")]
        if o.get("class_weight")
        else []
    )
    if o.get("schedule", "ssbd") == "ssbd":
        i = sp.sample_symbol(o)
        j = "k" if i == "j" else "j"
        out = (
            "output: α⁽ᵀ⁺¹⁾ = β⁽ᵀ⁺¹⁾/(λ(T+1))"
            if last
            else ("output: w̄ = Σ_j ᾱ_j ψ(x_j) where ᾱ = (1/T) Σ_t α⁽ᵗ⁾")
        )
        return [
            Line("Goal: solve Equation (16.5)          parameter: T"),
            *weights,
            Line("initialize: β⁽¹⁾ = 0"),
            *sp.loop_lines(o, i, "m"),
            Line("    let α⁽ᵗ⁾ = (1/(λt)) β⁽ᵗ⁾", "step"),
            Line(f"    for all {j} ≠ {i} set β_{j}⁽ᵗ⁺¹⁾ = β_{j}⁽ᵗ⁾", "step"),
            Line(f"    if (y_{i} Σ_{{{j}=1}}^m α_{j}⁽ᵗ⁾ K(x_{j}, x_{i}) < 1)", "step"),
            Line(f"        set β_{i}⁽ᵗ⁺¹⁾ = β_{i}⁽ᵗ⁾ + {c(i)}y_{i}", "update"),
            Line("    else", "skip"),
            Line(f"        set β_{i}⁽ᵗ⁺¹⁾ = β_{i}⁽ᵗ⁾", "skip"),
            Line(out),
        ]
    loop = sp.loop_lines(o, "j")
    if o.get("sampling", "uniform") == "uniform":
        loop = [
            Line("for t = 1, 2, …, T do", "step"),
            Line("    randomly choose (x⁽ᵗ⁾, y⁽ᵗ⁾) = (x_j, y_j) from the training data", "step"),
        ]
    out = (
        "α_i = β_i⁽ᵀ⁺¹⁾/(λT);  ŷ = sign(Σ_i α_i y_i K(x_i, x))"
        if last
        else "output ᾱ = (1/T) Σ_t α⁽ᵗ⁾, α⁽ᵗ⁾ = β⁽ᵗ⁾/(λ(t−1))  (SSBD's average; the note has none)"
    )
    return [
        *weights,
        Line("initialize β⁽¹⁾ = 0"),
        *loop,
        Line("    if y_j (1/(λ(t−1))) Σ_i β_i⁽ᵗ⁾ y_i K(x_i, x_j) < 1 then", "step"),
        Line("        β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾ + " + (c("j").strip() or "1"), "update"),
        Line("    else", "skip"),
        Line("        β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾", "skip"),
        Line(out),
    ]


def class_weights(y, o: dict):
    """c_{y_j} per point under the page's class weights (None without them)."""
    weights = o.get("class_weight")
    if not weights or y is None:
        return None
    y = np.where(np.asarray(y, dtype=float) > 0, 1.0, -1.0)
    if weights == "balanced":  # svmcore's rule: n/(2 n_y)
        return len(y) / (2.0 * np.where(y > 0, np.sum(y > 0), np.sum(y < 0)))
    return np.where(y > 0, float(weights.get(1, 1.0)), float(weights.get(-1, 1.0)))


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """The step in the notation of the code shown (SSBD's box or seed 002's Algorithm 2);
    with class weights the update adds c_{y_j} (c_{y_i} y_i), as the code says, and the
    count of updates of j is β_j / c_{y_j}."""
    t, lam = int(step["t"]), float(o["lam"])
    upd = bool(step.get("update", False))
    c = class_weights(y, o)
    if o.get("schedule", "ssbd") == "ssbd":
        i = sp.sample_symbol(o)
        out = sp.index_rows(step, y, symbol=i)
        out.append(("1/(λt) in α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)", num(1.0 / (lam * t))))
        out.append((f"margin y_{i} Σ_j α_j⁽ᵗ⁾ K(x_j, x_{i})", num(step["margin"])))
        out.append(("margin < 1 → update", num(upd)))
        if "beta_i" in step:
            step_text = f"c_{{y_{i}}} y_{i}" if c is not None else f"y_{i}"
            out.append((f"β_{i}⁽ᵗ⁺¹⁾ (signed: += {step_text})", num(step["beta_i"])))
            if c is not None:
                updates = abs(float(step["beta_i"])) / float(c[int(step["i"])])
                out.append((f"updates of {i} so far (|β_{i}|/c_{{y_{i}}})", num(updates + 0.0)))
        return out
    out = sp.index_rows(step, y, symbol="j")
    # seed 002's own quantities, recorded by the textbook step (computed if absent)
    factor = float(step.get("factor", np.nan if t == 1 else 1.0 / (lam * (t - 1))))
    if np.isnan(factor):
        out.append(("1/(λ(t−1))", "undefined at t = 1 (β⁽¹⁾ = 0: the sum is 0)"))
    else:
        out.append(("1/(λ(t−1))", num(factor)))
    out.append(("y_j (1/(λ(t−1))) Σ_i β_i⁽ᵗ⁾ y_i K(x_i, x_j)", num(step["margin"])))
    out.append((f"< 1 → β_j += {'c_{y_j}' if c is not None else '1'}", num(upd)))
    if "beta_j" in step:
        count = float(step["beta_j"]) + 0.0  # no −0
    elif "beta_i" in step and y is not None:
        count = float(step["beta_i"]) * float(y[int(step["i"])]) + 0.0
    else:
        return out
    if c is None:
        out.append(("β_j⁽ᵗ⁺¹⁾ (count of updates of j)", num(count)))
    else:
        out.append(("β_j⁽ᵗ⁺¹⁾ (c_{y_j} × the updates of j)", num(count)))
        out.append(("updates of j so far (β_j/c_{y_j})", num(count / float(c[int(step["i"])]))))
    return out


def objective(o: dict) -> str:
    """SSBD's (16.5), with seed 002 §2.1's class weights c_{y_i} when chosen."""
    c = "c_{y_i}" if o.get("class_weight") else ""
    return (
        r"\min_{\alpha\in\mathbb{R}^m}\;\frac{\lambda}{2}\,\alpha^\top K\alpha"
        rf"+\frac{{1}}{{m}}\sum_{{i=1}}^{{m}}{c}"
        r"\max\Big\{0,\;1-y_i\sum_{j=1}^{m}\alpha_j K(x_j,x_i)\Big\}"
        + ("" if c else r"\qquad(16.5)")
    )


def view(result, X, y) -> BinaryView:
    """Signed α per snapshot: f(x) = Σ_j α_j K(x_j, x); support vectors α_j ≠ 0."""
    A = np.asarray(result.trace.snapshots["alpha"], dtype=float)
    X = np.asarray(X, dtype=float)
    return BinaryView(
        result.trace.t, A, None, result.kernel, X, np.abs(A), A != 0, trace=result.trace
    )


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, #SV, the margin in feature space (‖w‖² = αᵀKα), the objective."""
    s = result.trace.snapshots
    a = np.asarray(s["alpha"][k], dtype=float)
    norm2 = float(a @ result.kernel(np.asarray(X, dtype=float)) @ a)  # ‖w‖² in feature space
    return sp.sgd_metrics(s, k, norm2, " (feature space)")


def extras(result, params: dict) -> None:
    """Lemma 16.3 live (seed 000): with the linear kernel, w̄ = Σ_j ᾱ_j x_j beside linear
    Pegasos' w̄ on the same i_1..i_T, and their difference; otherwise one line on why not."""
    st.header("Lemma 16.3 live: kernel SGD = SGD on ψ(x)")
    if params.get("kernel") != "linear":
        st.caption(
            "Lemma 16.3 compares kernel SGD with SGD on the feature space ψ(x); for the "
            "linear kernel ψ(x) = x itself, so choose Kernel K = linear to see the two w̄ "
            "side by side."
        )
        return
    keys = ("lam", "T", "schedule", "averaging", "sampling", "class_weight", "random_state")
    X = np.asarray(result.X_fit, dtype=float)
    check = lemma_16_3(X, result.y, **{k: params[k] for k in keys if k in params})
    last = params.get("averaging", "average") == "last"
    w = "w⁽ᵀ⁺¹⁾" if last else "w̄"
    kern = (
        f"{w} = Σ_j α_j⁽ᵀ⁺¹⁾ x_j (kernel Pegasos)"
        if last
        else f"{w} = Σ_j ᾱ_j x_j (kernel Pegasos)"
    )
    lin = f"{w} (linear Pegasos, bias none)"
    st.caption(
        f"Both runs use the same i_1..i_T (T = {len(check.indices):,}, drawn once with "
        f"default_rng({params.get('random_state')}), "
        f"{params.get('sampling', 'uniform')} sampling — the run above's), "
        "the same λ, schedule, output"
        + (" and class weights" if params.get("class_weight") else "")
        + "."
    )
    st.table(
        {
            "coordinate": [f"{w}_{k + 1}" for k in range(X.shape[1])],
            kern: [f"{v:.15g}" for v in check.w_kernel],
            lin: [f"{v:.15g}" for v in check.w_linear],
            "|difference|": [f"{v:.3g}" for v in np.abs(check.w_kernel - check.w_linear)],
        }
    )
    st.markdown(f"**max |difference| = {check.max_abs_difference:.3g}** (rounding only).")


SPEC = AlgorithmSpec.of(
    globals(),
    title="Kernel Pegasos (seed 000; seed 002, Algorithm 2)",
    page="kernel",
    fn=svmcore.kernel_pegasos,
    caps=Caps(n=500, T=100_000),
    kernel_params=True,
    bars=True,
    check=lambda X, y, result, p: check_kernel_pegasos(
        X, y, result, lam=p["lam"], class_weight=p.get("class_weight")
    ),
    check_caption="SVC at C = 1/(λm) (with its bias b, and the run's class weights as its "
    "class_weight); computed on demand.",
    extras=extras,
    optimum=binary_optimum,
    seed_panels=(sp_texts.PROBLEM_IN_ALPHA, sp_texts.REPRESENTER),
)
