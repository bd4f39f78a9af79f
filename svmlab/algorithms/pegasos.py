"""Linear Pegasos (seed 002, Algorithm 1; SSBD §15.5): its registry entry.

The pseudo-code follows the options: seed 002's ``for iter … for j …`` loop for cyclic
sampling, the paper's random i otherwise; η_t = 1/(λt) (seed 002) or SSBD's θ box
w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) — which has no line for a mini-batch, a projection, a free b or w_r, so
with any of them the SSBD schedule is shown as the explicit step with η_t = 1/(λ(t+1));
mini-batches A_t, class weights c_{y_i}, the free or augmented bias and the projection
change the update and the objective; the output line follows ``averaging``. Every line
shown is one the run executes, every symbol defined before its first use. Transfer
learning (seed 002 §2.2) regularizes towards a stored reference w_r: the shrink becomes
a pull, w_{t+1} = (1 − η_tλ) w_t + η_tλ w_r + …, and the objective λ/2‖w − w_r‖² + …
(the note's C/|D_d| Σ hinge + ½‖w_d − w_r‖² with λ = 1/C).
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
from svmlab.plot.views import BinaryView, linear_view
from svmlab.study.convergence import binary_optimum
from svmlab.study.sklearn_check import check_pegasos

__all__ = ["SPEC"]

BIASES = {
    "none": "none — the texts' (SSBD's soft-SVM has no bias)",
    "augment": "x ↦ (x, 1), regularized — liblinear's (LinearSVC)",
    "free": "free b, not regularized — as in SVC",
}


def controls(key: str, X, y) -> dict:
    """λ, T, schedule, output, sampling, bias, mini-batch, projection, class weights, seed."""
    params = widgets.sgd_controls(key, kind="linear", n=len(X), T_default=1_000, T_cap=SPEC.caps.T)
    params["bias"] = st.selectbox(
        "Bias b", list(BIASES), format_func=BIASES.get, key=f"{key}_bias", bind=widgets.BIND
    )
    params["batch_size"] = int(
        st.select_slider(
            "Mini-batch size k",
            [1, 2, 4, 8, 16, 32, 64],
            value=1,
            key=f"{key}_batch",
            bind=widgets.BIND,
        )
    )
    params["projection"] = bool(
        st.checkbox(
            "Project onto the ball ‖w‖ ≤ 1/√λ (Pegasos paper)", key=f"{key}_proj", bind=widgets.BIND
        )
    )
    params["class_weight"] = widgets.class_weight_control(key)
    if params["class_weight"] is not None:
        st.caption(class_weight_caption(y))
    w_ref = transfer_control(key, params["bias"])
    if w_ref is not None:
        params["w_ref"] = w_ref
    params["random_state"] = widgets.seed_input(key)
    return params


def class_weight_caption(y) -> str:
    """Seed 002 §2.1's C·N/(2N_±) weights, with this data's numbers and the note's example."""
    y = np.asarray(y)
    n, n_pos = len(y), int(np.count_nonzero(y == 1))
    n_neg = n - n_pos
    here = ""
    if n_pos and n_neg:
        here = (
            f' Here N = {n}, N₊ = {n_pos}, N₋ = {n_neg}: "balanced" gives '
            f"c₊ = {n / (2 * n_pos):.4g}, c₋ = {n / (2 * n_neg):.4g}."
        )
    return (
        "Seed 002 §2.1: min ½‖w‖² + (CN/(2N₊)) Σ_{y_j=+1} ξ_j + (CN/(2N₋)) Σ_{y_j=−1} ξ_j; "
        "divided by CN it is λ/2‖w‖² + (1/N) Σ_j c_{y_j} ξ_j with λ = 1/(CN) (C = 1/(λN)) "
        'and c_± = N/(2N_±): "balanced".' + here + " The note's "
        "example, 1 red and 10 blue points: c_red = 11/2 = 5.5, c_blue = 11/20 = 0.55, "
        "ratio 10 — as if the red point were duplicated 10 times."
    )


def transfer_control(key: str, bias: str):
    """Seed 002 §2.2: use the stored w_r (``st.session_state[f"{key}_wref"]`` = (w, b),
    set under the report); the svmcore ``w_ref`` (w, or (w, b) with bias "augment")."""
    st.markdown("**Transfer learning: regularize towards a reference w_r (seed 002 §2.2)**")
    ref = st.session_state.get(f"{key}_wref")
    if ref is None:
        st.caption("No w_r stored yet: run, then press “Set w_r from this run” below the report.")
        return None
    w_r, b_r = ref
    st.caption(f"Stored w_r = ({', '.join(f'{v:.4g}' for v in w_r)}), b_r = {b_r:.4g}.")
    use = st.checkbox("Regularize towards w_r", key=f"{key}_use_wref")
    st.button("Clear w_r", key=f"{key}_clear_wref", on_click=clear_reference, args=(key,))
    if not use:
        return None
    # b_r is regularized only with the augmented bias; a free b (the note's b_d) is not
    return tuple(w_r) + ((b_r,) if bias == "augment" else ())


def store_reference(key: str, w, b: float) -> None:
    """Button callback: keep a run's (w, b) as the reference w_r."""
    st.session_state[f"{key}_wref"] = (tuple(float(v) for v in w), float(b))


def clear_reference(key: str) -> None:
    """Button callback: forget the reference w_r."""
    st.session_state.pop(f"{key}_wref", None)
    st.session_state[f"{key}_use_wref"] = False


def extras(result, params: dict) -> None:
    """The button that stores this run's (w, b) as the reference w_r of seed 002 §2.2."""
    key = SPEC.key
    st.button(
        "Set w_r from this run",
        key=f"{key}_set_wref",
        on_click=store_reference,
        args=(key, np.asarray(result.w), float(result.b)),
        help="Keep (w, b) of this run as the reference w_r (seed 002 §2.2, transfer learning)",
    )
    st.caption(
        "Seed 002 §2.2: min_{w_d, b_d} C/|D_d| Σ_{(x,y)∈D_d} max(0, 1 − y(w_dᵀx + b_d)) "
        "+ ½‖w_d − w_r‖²; divided by C it is the objective above with λ = 1/C (C = 1/(λn) "
        "when C multiplies the sum, as in SVC). A low C (large λ) trusts w_r; a large C the "
        'new data. The note\'s b_d is not regularized: bias "free".'
    )


def theta_box(o: dict) -> bool:
    """Whether the code shown is SSBD §15.5's θ box itself: the SSBD schedule with one
    sample per step, no projection, no free b and no w_r. With any of those the box has
    no line for it, so the code is the explicit step with SSBD's η_t = 1/(λ(t+1)) — the
    same recursion (w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) ⇔ w_{t+1} = (1 − η_tλ) w_t + η_t …)."""
    return (
        o.get("schedule") == "ssbd"
        and int(o.get("batch_size", 1)) == 1
        and not o.get("projection")
        and o.get("bias", "none") != "free"
        and o.get("w_ref") is None
    )


def batch_line(o: dict, k: int, test: str) -> Line:
    """How A_t is drawn under the sampling option, and A_t⁺ its violators."""
    draw = {
        "cyclic": f"A_t = the next k = {k} indices of 1, 2, …, n, 1, 2, …",
        "shuffle": f"A_t = the next k = {k} indices of a fresh random order of {{1, …, n}}",
    }.get(o.get("sampling"), f"choose A_t: k = {k} indices, each uniformly from {{1, …, n}}")
    return Line(f"    {draw};  A_t⁺ = {{i ∈ A_t : {test}}}", "step")


def code(o: dict) -> list[Line]:
    """Seed 002's Algorithm 1 (or SSBD §15.5's θ box) under the options ``o``.

    Every line is one the run executes, every symbol defined before it is used: SSBD's
    θ box for the SSBD schedule when it covers the options (:func:`theta_box`), else the
    explicit step w_{t+1} = (1 − η_tλ) w_t + … with η_t = 1/(λt) (seed 002) or
    1/(λ(t+1)) (SSBD's schedule as a step).
    """
    ref = o.get("w_ref") is not None
    ssbd = theta_box(o)
    k = int(o.get("batch_size", 1))
    i = sp.sample_symbol(o) if k == 1 else "i"
    bias = o.get("bias", "none")
    free = bias == "free"
    c = f"c_{{y_{i}}} " if o.get("class_weight") else ""
    x = f"x̃_{i}" if bias == "augment" else f"x_{i}"
    w = "w⁽ᵗ⁾" if ssbd else "w_t"
    # the texts' test, y_i⟨w_t, x_i⟩ < 1; with a free b, y_i(⟨w_t, x_i⟩ + b_t) < 1
    test = f"y_{i} (⟨w_t, {x}⟩ + b_t) < 1" if free else f"y_{i} ⟨{w}, {x}⟩ < 1"
    lines = []
    if bias == "augment":
        lines.append(Line("x̃ = (x, 1): w holds (w, b), b regularized with w"))
    if ref:
        lines.append(Line("w_r: the stored reference (seed 002 §2.2)"))
    if c:
        lines.append(Line("c_y: the weight of class y on its hinge terms (seed 002 §2.1)"))
    start = "initialize θ⁽¹⁾ = 0" if ssbd else "initialize w₁ = 0"
    # seed 002's epoch loop counts t itself (t = t + 1): it starts from t = 0
    lines.append(Line(start + (", t = 0" if o.get("sampling") == "cyclic" and k == 1 else "")))
    if free:
        lines.append(Line("initialize b₁ = 0"))
    if k == 1:
        lines += sp.loop_lines(o, i)
    else:
        lines += [Line("for t = 1, 2, …, T do", "step"), batch_line(o, k, test)]
    if ssbd:
        lines += [
            Line("    let w⁽ᵗ⁾ = (1/(λt)) θ⁽ᵗ⁾", "step"),
            Line(f"    if {test}", "step"),
            Line(f"        set θ⁽ᵗ⁺¹⁾ = θ⁽ᵗ⁾ + {c}y_{i} {x}", "update"),
            Line("    else", "skip"),
            Line("        set θ⁽ᵗ⁺¹⁾ = θ⁽ᵗ⁾", "skip"),
        ]
        if o.get("averaging", "average") == "average":
            return [*lines, Line("output w̄ = (1/T) Σ_{t=1}^T w⁽ᵗ⁾")]
        return [*lines, Line("output w⁽ᵀ⁺¹⁾ = θ⁽ᵀ⁺¹⁾/(λ(T+1))")]
    if o.get("schedule") == "ssbd":
        lines.append(
            Line("    η_t = 1/(λ(t+1))   (SSBD §15.5's schedule, written as a step)", "step")
        )
    else:
        lines.append(Line("    η_t = 1/(λt)", "step"))
    shrink = "(1 − η_t λ) w_t + η_t λ w_r" if ref else "(1 − η_t λ) w_t"
    if k > 1:
        lines.append(Line(f"    w_{{t+1}} = {shrink} + (η_t/k) Σ_{{i∈A_t⁺}} {c}y_i {x}", "step"))
        if free:
            lines.append(Line(f"    b_{{t+1}} = b_t + (η_t/k) Σ_{{i∈A_t⁺}} {c}y_i", "step"))
    else:
        lines += [
            Line(f"    if {test} then", "step"),
            Line(f"        w_{{t+1}} = {shrink} + η_t {c}y_{i} {x}", "update"),
        ]
        if free:
            lines.append(Line(f"        b_{{t+1}} = b_t + η_t {c}y_{i}", "update"))
        lines += [Line("    else", "skip"), Line(f"        w_{{t+1}} = {shrink}", "skip")]
        if free:
            lines.append(Line("        b_{t+1} = b_t", "skip"))
    if o.get("projection") and ref:
        lines.append(
            Line("    w_{t+1} ← w_r + min{1, (1/√λ)/‖w_{t+1} − w_r‖} (w_{t+1} − w_r)", "step")
        )
    elif o.get("projection"):
        lines.append(Line("    w_{t+1} ← min{1, (1/√λ)/‖w_{t+1}‖} w_{t+1}", "step"))
    if o.get("averaging", "average") == "average":
        return [*lines, Line("output w̄ = (1/T) Σ_{t=1}^T w_t")]
    return [*lines, Line("output w_{T+1}")]


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """t, the sampled index, its label, the step size and the margin, as in the code."""
    k = int(o.get("batch_size", 1))
    i = sp.sample_symbol(o) if k == 1 else "i"
    out = sp.index_rows(step, y, symbol=i)
    if k > 1 and out[1:]:
        out[1] = (f"first {i} of A_t (1-based)", out[1][1])
    t, lam = int(step["t"]), float(o["lam"])
    if theta_box(o):
        out.append(("1/(λt) in w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)", num(1.0 / (lam * t))))
    elif o.get("schedule") == "ssbd":
        out.append(("η_t = 1/(λ(t+1))", num(step.get("eta", 1.0 / (lam * (t + 1))))))
    else:
        out.append(("η_t = 1/(λt)", num(step.get("eta", 1.0 / (lam * t)))))
    if "margin" in step:
        out.append((f"margin y_{i} f(x_{i})", num(step["margin"])))
    if k > 1:
        if "n_violations" in step:
            out.append(("|A_t⁺| (violators in A_t)", num(int(step["n_violations"]))))
        if "update" in step:
            out.append(("A_t⁺ ≠ ∅ → sum non-zero", num(bool(step["update"]))))
    elif "update" in step:
        out.append(("margin < 1 → update", num(bool(step["update"]))))
    return out


def objective(o: dict) -> str:
    """The objective the options minimise (λ/2‖w‖² + mean (weighted) hinge)."""
    bias = o.get("bias", "none")
    # y_i⟨w, x_i⟩ as the texts write it; y_i(⟨w, x_i⟩ + b) with a bias
    f = r"(\langle w, x_i\rangle + b)" if bias != "none" else r"\langle w, x_i\rangle"
    ref = o.get("w_ref") is not None
    norm = r"\lVert w - w_r\rVert^2" if ref else r"\lVert w\rVert^2"
    b2 = "(b - b_r)^2" if ref else "b^2"
    reg = (
        rf"\frac{{\lambda}}{{2}}\big({norm} + {b2}\big)"
        if bias == "augment"
        else rf"\frac{{\lambda}}{{2}}{norm}"
    )
    c = "c_{y_i}" if o.get("class_weight") else ""
    ball = r"\lVert w - w_r\rVert" if ref else r"\lVert w\rVert"
    tail = rf"\quad\text{{over }}{ball}\le 1/\sqrt{{\lambda}}" if o.get("projection") else ""
    return (
        rf"\min_{{w{', b' if bias != 'none' else ''}}}\;{reg}"
        rf"+\frac{{1}}{{n}}\sum_{{i=1}}^{{n}}{c}\max\{{0,\;1-y_i{f}\}}{tail}"
    )


def view(result, X, y) -> BinaryView:
    """w_t, b_t per snapshot; the ringed points are those with y f(x) ≤ 1."""
    return linear_view(result, X, y, ring=1.0)


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, points with y f ≤ 1, Lin's margin 1/‖w‖, the band width, the objective."""
    s = result.trace.snapshots
    w = np.asarray(s["w"][k], dtype=float)
    return sp.sgd_metrics(s, k, float(w @ w))


SPEC = AlgorithmSpec.of(
    globals(),
    title="Linear Pegasos (seed 002, Algorithm 1; SSBD §15.5)",
    page="linear",
    fn=svmcore.pegasos,
    caps=Caps(n=2000, T=1_000_000),
    check=lambda X, y, result, p: check_pegasos(
        X, y, result, lam=p["lam"], bias=p["bias"], class_weight=p.get("class_weight")
    ),
    # LinearSVC has no reference vector: no check with w_r
    check_applies=lambda p: p.get("w_ref") is None,
    check_caption="LinearSVC(loss='hinge') at C = 1/(λn) — with the run's class weights as "
    "its class_weight — solves the same problem; computed on demand.",
    extras=extras,
    optimum=binary_optimum,
    seed_panels=(sp_texts.PERCEPTRON_TO_PEGASOS, sp_texts.TELESCOPING),
)
