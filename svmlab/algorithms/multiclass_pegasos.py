"""Multiclass Pegasos (the Crammer–Singer objective, seed 002 §2.3): its registry entry."""

from __future__ import annotations

import streamlit as st

import svmcore
from svmlab.algorithms import multiclass_common as mc
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import loop_lines
from svmlab.plot.pseudocode import Line, num
from svmlab.study.convergence import multiclass_optimum
from svmlab.study.sklearn_check import check_multiclass_pegasos

__all__ = ["SPEC"]

MC_SCHEDULES = {
    "pegasos": "η_t = 1/(λt) — the Pegasos paper (seed 002's step)",
    "ssbd": "W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) — SSBD §15.5",
}


def controls(key: str, X, y) -> dict:
    """λ, the schedule, offsets, the kernel (optional), T and the SGD options."""
    T = widgets.t_slider(key=f"{key}_T", default=3_000, cap=mc.CAPS.T)
    params = {}
    bias = st.checkbox(
        "append a constant 1 (offsets, regularized)", True, key=f"{key}_bias", bind=widgets.BIND
    )
    lam = widgets.log_slider("λ (regularization)", -4, 1, 0.01, key=f"{key}_lam")
    mc.remember_data(key, X, y)
    schedule = widgets.radio("Schedule", MC_SCHEDULES, key=f"{key}_schedule")
    if st.checkbox(
        "kernelized (coefficients per point and class)", key=f"{key}_kern", bind=widgets.BIND
    ):
        params.update(widgets.kernel_controls(key, default="rbf"))
        st.caption(
            "Corollary 17.1's λ and the Ψ table are shown for the linear Ψ(x, y) only "
            "(kernelized unticked); with a kernel, Ψ lives in the kernel's feature space."
        )
    else:
        lam_rec = corollary_17_1_caption(key, X, bool(bias))
        if lam_rec is not None and st.checkbox(
            "use Corollary 17.1's λ", key=f"{key}_use_rec", bind=widgets.BIND
        ):
            lam = lam_rec
    params.update(lam=float(lam), bias=bool(bias), schedule=schedule)
    return {**params, **mc.sgd_options(key, X, y, T)}


def corollary_17_1_caption(key: str, X, bias: bool) -> float | None:
    """Corollary 17.1's λ = √(2ρ²/(B²m)) with its numbers, in this page's λ (twice SSBD's)."""
    if not len(X):
        return None
    B = widgets.log_slider("B (norm bound of Corollary 17.1)", -1, 2, 1.0, key=f"{key}_B")
    rho = mc.psi_rho(X, bias)
    if not rho > 0:
        return None
    m = len(X)
    lam_ssbd = mc.corollary_17_1(rho, float(B), m)
    st.markdown(
        f"Corollary 17.1: ρ = 2 max_i ‖{'x̃' if bias else 'x'}_i‖ = {rho:.4g}, m = {m}; "
        f"λ = √(2ρ²/(B²m)) = √(2·{rho:.4g}²/({float(B):.3g}²·{m})) = {lam_ssbd:.4g} in "
        f"SSBD's λ‖w‖²; this page minimises λ/2‖W‖², so its λ is {2 * lam_ssbd:.4g}."
    )
    return 2.0 * lam_ssbd


def code(o: dict) -> list[Line]:
    """The Crammer–Singer objective by Pegasos (seed 002 §2.3 "we could derive"), on W
    (linear Ψ) or on the coefficients α (kernelized): the update the run executes."""
    ssbd = o.get("schedule") == "ssbd"
    bias = o.get("bias", True)
    if "kernel" in o:
        return kernel_code(o, ssbd, bias)
    x = "x̃_i" if bias else "x_i"
    c = "c_{y_i} " if o.get("class_weight") else ""
    lines = [Line("x̃_i = (x_i, 1): one offset per class, regularized with w")] if bias else []
    lines += [
        Line("W: one weight vector w_c per class c"),
        Line("initialize θ⁽¹⁾ = 0" if ssbd else "initialize W⁽¹⁾ = 0"),
        *loop_lines(o, "i"),
    ]
    find = f"    find ŷ ∈ argmax_{{y′}} ( Δ(y′, y_i) + ⟨w_{{y′}}⁽ᵗ⁾ − w_{{y_i}}⁽ᵗ⁾, {x}⟩ )"
    if ssbd:
        lines += [
            Line("    let W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)", "step"),
            Line(find, "step"),
            Line(f"    if ŷ ≠ y_i: θ_{{y_i}} += {c}{x},  θ_ŷ −= {c}{x}", "update"),
        ]
    else:
        lines += [
            Line("    η_t = 1/(λt)", "step"),
            Line(find, "step"),
            Line("    W⁽ᵗ⁺¹⁾ = (1 − η_t λ) W⁽ᵗ⁾", "step"),
            Line(
                f"    if ŷ ≠ y_i: w_{{y_i}}⁽ᵗ⁺¹⁾ += η_t {c}{x},  w_ŷ⁽ᵗ⁺¹⁾ −= η_t {c}{x}", "update"
            ),
        ]
    return [*lines, mc.output_line(o, "W")]


def kernel_code(o: dict, ssbd: bool, bias: bool) -> list[Line]:
    """The kernelized run: w_c = Σ_j α_{j,c} φ(x_j), so the update acts on α (n × k)."""
    Kt = "K̃(x_j, x_i)" if bias else "K(x_j, x_i)"
    c = " c_{y_i}" if o.get("class_weight") else ""
    one = "c_{y_i}" if c else "1"
    lines = [
        Line("K̃(x, x′) = K(x, x′) + 1: φ(x) with a constant 1 appended (the offsets)")
        if bias
        else Line("no offsets: the kernel K itself"),
        Line(f"f_c(x_i) = Σ_j α_{{j,c}} {Kt}: the class-c score (w_c = Σ_j α_{{j,c}} φ(x_j))"),
        Line("initialize β⁽¹⁾ = 0 (n × k)" if ssbd else "initialize α⁽¹⁾ = 0 (n × k)"),
        *loop_lines(o, "i"),
    ]
    find = "    find ŷ ∈ argmax_{y′} ( Δ(y′, y_i) + f_{y′}(x_i) − f_{y_i}(x_i) )   (α = α⁽ᵗ⁾)"
    if ssbd:
        lines += [
            Line("    let α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)", "step"),
            Line(find, "step"),
            Line(f"    if ŷ ≠ y_i: β_{{i,y_i}} += {one},  β_{{i,ŷ}} −= {one}", "update"),
        ]
        out = (
            "ᾱ = (1/T) Σ_t α⁽ᵗ⁾"
            if o.get("averaging", "average") == "average"
            else ("α⁽ᵀ⁺¹⁾ = β⁽ᵀ⁺¹⁾/(λ(T+1))")
        )
    else:
        lines += [
            Line("    η_t = 1/(λt)", "step"),
            Line(find, "step"),
            Line("    α⁽ᵗ⁺¹⁾ = (1 − η_t λ) α⁽ᵗ⁾", "step"),
            Line(
                f"    if ŷ ≠ y_i: α_{{i,y_i}}⁽ᵗ⁺¹⁾ += η_t{c},  α_{{i,ŷ}}⁽ᵗ⁺¹⁾ −= η_t{c}", "update"
            ),
        ]
        out = "ᾱ = (1/T) Σ_t α⁽ᵗ⁾" if o.get("averaging", "average") == "average" else "α⁽ᵀ⁺¹⁾"
    return [*lines, Line(f"output {out}")]


#: The shared rows' labels in the kernelized notation of :func:`kernel_code`.
KERNEL_LABELS = {
    "1/(λt) in W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)": "1/(λt) in α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)",
    mc.SCORES_LABEL: "Δ(y′, y) + f_{y′}(x) − f_y(x) for y′ = 0, 1, …",
}


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """The shared multiclass rows, with what a step changes under the code shown: θ (or β)
    only when ŷ ≠ y; under η_t = 1/(λt) every step shrinks W (or α) by 1 − η_tλ, and the
    update line adds ±η_t when ŷ ≠ y."""
    kernel = "kernel" in o
    out = []
    for label, value in mc.rows(step, y, o):
        if label.startswith("ŷ ≠ y →"):
            continue
        out.append((KERNEL_LABELS.get(label, label) if kernel else label, value))
    changed = bool(step["changed"])
    if o.get("schedule") == "ssbd":
        what = "β_{i,y_i}, β_{i,ŷ}" if kernel else "θ_{y_i}, θ_ŷ"
        out.append((f"ŷ ≠ y → {what} changed", num(changed)))
        return out
    lam = float(o["lam"])
    eta = float(step.get("eta", 1.0 / (lam * int(step["t"]))))
    M = "α" if kernel else "W"
    out.append((f"1 − η_t λ (every step: {M}⁽ᵗ⁺¹⁾ = (1 − η_t λ) {M}⁽ᵗ⁾ …)", num(1.0 - eta * lam)))
    x = "x̃_i" if o.get("bias", True) else "x_i"
    c = " c_{y_i}" if o.get("class_weight") else ""
    moved = (
        f"α_{{i,y_i}} += η_t{c}, α_{{i,ŷ}} −= η_t{c}"
        if kernel
        else f"w_{{y_i}} += η_t{c} {x}, w_ŷ −= η_t{c} {x}"
    )
    out.append((f"ŷ ≠ y → {moved}", num(changed)))
    return out


#: Seed 002 §2.3's multiclass SVM: one slack ξ_j per point, one (w, b) per class; with the
#: 0-1 Δ (and x̃ = (x, 1) carrying b) the generalized hinge above is exactly this ξ_j.
CONSTRAINTS = (
    r"\text{seed 002, 2.3: }\xi_j\ge 0,\;\;"
    r"w^{(y_j)\top}x_j+b^{(y_j)}\ge w^{(y')\top}x_j+b^{(y')}+1-\xi_j\;\;\forall y'\ne y_j"
)


def objective(o: dict) -> str:
    """λ/2‖W‖² plus the generalized hinge risk (weighted by c_{y_i}, seed 002 §2.1, with
    class weights), and seed 002 §2.3's constraints (0-1 Δ)."""
    hinge = r"\min_W\;\frac{\lambda}{2}\lVert W\rVert^2+" + mc.hinge(o)
    if "delta" in o:  # a cost matrix Δ other than 0-1: the note's constraints no longer apply
        return hinge
    return r"\begin{gathered}" + hinge + r"\\" + CONSTRAINTS + r"\end{gathered}"


SPEC = mc.sgd_spec(
    globals(),
    objective_label="objective λ/2‖W‖² + hinge",
    title="Multiclass Pegasos (Crammer–Singer, seed 002 §2.3)",
    fn=svmcore.multiclass_pegasos,
    curve_labels=lambda p: {"objective": "λ/2‖W‖² + mean generalized hinge"},
    check=lambda X, y, result, p: check_multiclass_pegasos(X, y, result, lam=p["lam"]),
    extras=mc.psi_extras("multiclass_pegasos"),
    optimum=multiclass_optimum,
    check_applies=lambda p: "kernel" not in p and "delta" not in p and not p.get("class_weight"),
    check_caption="LinearSVC(multi_class='crammer_singer') at C = 1/(λn) solves the same "
    "problem (the 0-1 Δ, no class weights; its intercept is a regularized constant feature); "
    "on demand.",
    seed_panels=(sp_texts.REMARK_17_3,),
)
