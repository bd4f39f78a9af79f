"""Multiclass Pegasos (the Crammer–Singer objective, seed 002 §2.3): its registry entry."""

from __future__ import annotations

import streamlit as st

import svmcore
from svmlab.algorithms import multiclass_common as mc
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import loop_lines
from svmlab.plot.pseudocode import Line
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
    return [*lines, mc.output_line(o, "W")]


#: Seed 002 §2.3's multiclass SVM: one slack ξ_j per point, one (w, b) per class; with the
#: 0-1 Δ (and x̃ = (x, 1) carrying b) the generalized hinge above is exactly this ξ_j.
CONSTRAINTS = (
    r"\text{seed 002, 2.3: }\xi_j\ge 0,\;\;"
    r"w^{(y_j)\top}x_j+b^{(y_j)}\ge w^{(y')\top}x_j+b^{(y')}+1-\xi_j\;\;\forall y'\ne y_j"
)


def objective(o: dict) -> str:
    """λ/2‖W‖² plus the generalized hinge risk, and seed 002 §2.3's constraints (0-1 Δ)."""
    hinge = r"\min_W\;\frac{\lambda}{2}\lVert W\rVert^2+" + mc.HINGE
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
    check_applies=lambda p: "kernel" not in p and "delta" not in p,
    check_caption="LinearSVC(multi_class='crammer_singer') at C = 1/(λn) solves the same "
    "problem (the 0-1 Δ; its intercept is a regularized constant feature); on demand.",
    seed_panels=(sp_texts.REMARK_17_3,),
)
