"""SSBD's SGD for multiclass learning (seed 001, §17.2): its registry entry."""

from __future__ import annotations

import streamlit as st

import svmcore
from svmlab.algorithms import multiclass_common as mc
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import loop_lines
from svmlab.plot.pseudocode import Line

__all__ = ["SPEC"]


def controls(key: str, X, y) -> dict:
    """Ψ with or without offsets, η (or Corollary 17.2's), T and the SGD options."""
    T = widgets.t_slider(key=f"{key}_T", default=3_000, cap=mc.CAPS.T)
    bias = st.checkbox(
        "Ψ(x, y) with x̃ = (x, 1): one offset per class", True, key=f"{key}_bias", bind=widgets.BIND
    )
    eta = widgets.log_slider("η (fixed step size)", -3, 1, 0.1, key=f"{key}_eta")
    B = widgets.log_slider("B (norm bound of Corollary 17.2)", -1, 2, 1.0, key=f"{key}_B")
    mc.remember_data(key, X, y)
    eta_rec = corollary_17_2_caption(key, X, int(T), float(B), bool(bias))
    if eta_rec is not None and st.checkbox(
        "use Corollary 17.2's η", key=f"{key}_use_rec", bind=widgets.BIND
    ):
        eta = eta_rec
    return {"eta": float(eta), "bias": bool(bias), **mc.sgd_options(key, X, y, T)}


def corollary_17_2_caption(key: str, X, T: int, B: float, bias: bool) -> float | None:
    """ε, ρ, the condition T ≥ B²ρ²/ε² and η = √(B²/(ρ²T)) with their numbers."""
    if not len(X):
        return None
    eps = st.number_input(
        "ε (Corollary 17.2's accuracy)", 1e-4, 1e3, 0.1, key=f"{key}_eps", bind=widgets.BIND
    )
    rho = mc.psi_rho(X, bias)
    if not rho > 0:
        return None
    c = mc.corollary_17_2(rho, B, float(eps), T)
    meets = "meets it" if c["meets"] else "does **not** meet it"
    st.markdown(
        f"Corollary 17.2: ‖Ψ(x, y)‖ ≤ ρ/2 with ρ = 2 max_i ‖{'x̃' if bias else 'x'}_i‖ = "
        f"{rho:.4g}; T ≥ B²ρ²/ε² = {B:.3g}²·{rho:.4g}²/{float(eps):.3g}² = "
        f"{c['T_min']:,.0f} — T = {T:,} {meets}; η = √(B²/(ρ²T)) = {c['eta']:.4g}."
    )
    return c["eta"]


def code(o: dict) -> list[Line]:
    """Seed 001, SSBD's "SGD for Multiclass Learning"."""
    loop = loop_lines(o, "i")
    if o.get("sampling", "uniform") == "uniform":
        loop = [Line("for t = 1, 2, …, T", "step"), Line("    sample (x, y) ∼ D", "step")]
    weighted = bool(o.get("class_weight"))
    params = "parameters: scalar η > 0, integer T > 0, loss Δ, feature map Ψ"
    return [
        Line(params + (", class weights c_y (seed 002 §2.1)" if weighted else "")),
        Line("initialize: w⁽¹⁾ = 0 ∈ ℝᵈ"),
        *loop,
        Line("    find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w⁽ᵗ⁾, Ψ(x, y′) − Ψ(x, y)⟩ )", "step"),
        Line("    set v_t = Ψ(x, ŷ) − Ψ(x, y)", "step"),
        Line(f"    update w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ − η {'c_y ' if weighted else ''}v_t", "step"),
        mc.output_line(o),
    ]


def objective(o: dict) -> str:
    """The generalized hinge risk (17.3), weighted by c_{y_i} (seed 002 §2.1) when the run
    has class weights: no regularizer."""
    return r"\min_w\;" + mc.hinge(o) + r"\qquad(17.3)"


SPEC = mc.sgd_spec(
    globals(),
    objective_label="mean generalized hinge",
    title="SSBD's SGD for multiclass learning (seed 001)",
    fn=svmcore.multiclass_sgd,
    curve_labels=lambda p: {"objective": "mean generalized hinge (no regularizer)"},
    extras=mc.psi_extras("multiclass_sgd"),
    no_optimum="SSBD's SGD for multiclass learning (fixed η, no regularizer) minimises the "
    "mean generalized hinge L_S(w), and Corollary 17.2 measures w̄ against min_{‖u‖≤B} L(u), "
    "not against an unconstrained minimum (on separable data L_S → 0 only as ‖w‖ → ∞). That "
    "ball-constrained minimum is not computed here: choose Multiclass Pegasos (the same loss "
    "plus λ/2‖W‖²) to see P(W_t) − P* against t.",
    seed_panels=(sp_texts.REMARK_17_3,),
)
