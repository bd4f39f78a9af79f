"""The primal SVM as QP(Q, p, A, c) (seed 003, Lin, "SVM with QP solver") — its entry.

Lin's linear hard-margin SVM algorithm on u = (b, w):

    Q = [[0, 0ᵀ_d], [0_d, I_d]],  p = 0_{d+1},  a_nᵀ = y_n [1, z_nᵀ],  c_n = 1,
    [b; w] ← QP(Q, p, A, c),  return b and w as g_SVM.

The soft margin adds the slacks ξ (u = (b, w, ξ), p = (0, 0, C·1)). z_n = x_n, or seed
003's Φ₂(x_n) (:func:`svmcore.phi2`). The QP's multipliers of the margin constraints are
the dual α: the report shows them beside the dual's and checks the KKT list.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import svmcore
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import spec as sp
from svmlab.algorithms import widgets
from svmlab.algorithms.dual_svm import (
    QP_CAP,
    SHOW_ALPHA,
    margin_controls,
    show_kkt_conditions,
    show_qp,
    soft_margin_offer,
)
from svmlab.algorithms.spec import AlgorithmSpec, Caps
from svmlab.plot.pseudocode import Line, num, render_html
from svmlab.plot.views import BinaryView

__all__ = ["SPEC", "Phi2", "dual_alpha", "features", "phi2_gram"]

TRANSFORMS = {
    "linear": "linear: z = x (d̃ = 2)",
    "phi2": "polynomial, degree 2: z = Φ₂(x) (d̃ = 7)",
}
WHY = (
    "The primal QP has w itself among its variables, so z = Φ(x) must be written out: "
    "only a small explicit Φ fits — z = x, or Lin's Φ₂(x) = (1, x₁, x₂, x₁x₁, x₁x₂, x₂x₁, "
    "x₂x₂). A high-degree polynomial makes d̃ huge and the Gaussian kernel's Φ is "
    "infinite-dimensional: that is why the lecture turns to the dual."
)


@dataclass(frozen=True)
class Phi2:
    """Seed 003's Φ₂ (:func:`svmcore.phi2`) as the ``transform``: a value, not a function,
    so that Streamlit can cache runs by their parameters (it cannot hash a function)."""

    def __call__(self, X) -> np.ndarray:
        """Φ₂(X), shape (n, 1 + d + d²)."""
        return svmcore.phi2(X)


def controls(key: str, X, y) -> dict:
    """Margin (hard / soft with C) and the feature transform (linear or Φ₂)."""
    C = margin_controls(key)
    name = widgets.radio("Features z_n", TRANSFORMS, key=f"{key}_transform", horizontal=True)
    st.caption(WHY)
    return {"C": C, "transform": Phi2() if name == "phi2" else None}


def problem(X, params: dict) -> str | None:
    """Why this run cannot start (the dense QP above its cap), or None."""
    if len(X) > QP_CAP:
        return f"The dense primal QP is capped at n = {QP_CAP} points (you have {len(X)})."
    return None


def code(o: dict) -> list[Line]:
    """Seed 003's "Linear hard-margin SVM algorithm" box (soft margin: with ξ)."""
    z = "Φ₂(x_n)" if o.get("transform") is not None else "x_n"
    lines = [Line(f"z_n = {z}")]
    if o.get("C") is None:
        lines += [
            Line("Q = [[0, 0ᵀ_d], [0_d, I_d]];  p = 0_{d+1};  a_nᵀ = y_n [1, z_nᵀ];  c_n = 1"),
            Line("[b; w] ← QP(Q, p, A, c)", "update"),
        ]
    else:
        lines += [
            Line("Q = diag(0, I_d, 0_N);  p = (0, 0_d, C·1_N)"),
            Line("a_nᵀ = [y_n, y_n z_nᵀ, e_nᵀ], c_n = 1;  rows ξ_n ≥ 0 (c = 0)"),
            Line("[b; w; ξ] ← QP(Q, p, A, c)", "update"),
        ]
    return [*lines, Line("return b and w as g_SVM(x) = sign(wᵀz + b)")]


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """The QP records no steps: nothing to inspect."""
    return []


def objective(o: dict) -> str:
    """Seed 003's primal, hard or soft margin."""
    z = r"\Phi_2(x_n)" if o.get("transform") is not None else "x_n"
    if o.get("C") is None:
        return (
            r"\min_{b,w}\;\frac{1}{2}w^\top w\quad\text{s.t.}\quad"
            rf"y_n(w^\top z_n+b)\ge 1,\qquad z_n={z}"
        )
    return (
        r"\min_{b,w,\xi}\;\frac{1}{2}w^\top w+C\sum_n\xi_n\quad\text{s.t.}\quad"
        rf"y_n(w^\top z_n+b)\ge 1-\xi_n,\;\xi_n\ge 0,\qquad z_n={z}"
    )


def phi2_gram(X, Z=None) -> np.ndarray:
    """Φ₂(x)ᵀΦ₂(x') = 1 + xᵀx' + (xᵀx')², shape (n, m): the view's kernel for Φ₂."""
    Z = X if Z is None else Z
    return svmcore.phi2(X) @ svmcore.phi2(Z).T


def view(result, X, y) -> BinaryView:
    """One snapshot: f(x) = wᵀx + b (linear), or Σ_n α_n y_n Φ₂(x_n)ᵀΦ₂(x) + b; the
    support vectors ringed (free / bounded with a soft margin)."""
    X = np.asarray(X, dtype=float)
    alpha = np.asarray(result.alpha, dtype=float)
    sv = np.zeros(alpha.shape[0], dtype=bool)
    sv[result.support_] = True
    C = result.C if result.C is not None else np.inf
    bounded = sv & (alpha >= C * (1 - 1e-8))
    if result.transform is None:
        coef, kernel = np.asarray(result.w, dtype=float)[None, :], None
    else:
        coef, kernel = (alpha * np.asarray(y, dtype=float))[None, :], phi2_gram
    return BinaryView(
        np.array([1]),
        coef,
        np.array([float(result.b)]),
        kernel,
        X,
        alpha[None, :],
        sv[None, :],
        C=C,
        final=(np.flatnonzero(sv & ~bounded), np.flatnonzero(bounded)),
    )


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, SVs, Lin's margin, w and b, the objective and the duality gap."""
    X = np.asarray(X, dtype=float)
    out = {
        "training accuracy": sp.accuracy_row(np.mean(result.predict(X) != y)),
        "support vectors": str(len(result.support_)),
    }
    out.update(sp.margin_rows(float(result.w @ result.w)))
    if result.transform is None or result.w.shape[0] <= SHOW_ALPHA:
        out["w"] = num(result.w)
    out["b"] = num(float(result.b))
    if result.alpha.shape[0] <= SHOW_ALPHA:
        out["multipliers α"] = num(result.alpha)
    out["primal objective"] = f"{float(result.objective):.6g}"
    out["duality gap"] = f"{float(result.duality_gap):.2e}"
    return out


def features(result) -> tuple[np.ndarray, np.ndarray]:
    """(Z, y) read back from the QP's rows a_nᵀ = y_n [1, z_nᵀ, …]: (n, d̃) and (n,)."""
    return result.training_features()


def dual_alpha(result) -> np.ndarray:
    """The dual QP's α on the same z_n (linear kernel in z-space), to set beside the
    primal's multipliers."""
    Z, y = features(result)
    return svmcore.dual_svm(
        Z, y, kernel=svmcore.make_kernel("linear"), C=result.C, solver="qp", tol=1e-12
    ).alpha


def extras(result, params: dict) -> None:
    """Status, the QP(Q, p, A, c) with u = (b, w), the multipliers beside the dual α, and
    the KKT list."""
    if result.status != "optimal":
        st.warning(f"**Solver status: {result.status}** (duality gap {result.duality_gap:.2e}).")
    u = "(b, w)" if result.C is None else "(b, w, ξ)"
    with st.expander(f"The lecture's QP(Q, p, A, c) on u = {u}", expanded=True):
        st.markdown(render_html(code(params)), unsafe_allow_html=True)
        show_qp(result)
    alpha = np.asarray(result.alpha, dtype=float)
    with st.expander("The QP's multipliers are the dual α"):
        dual = dual_alpha(result)
        st.caption(f"Largest |α_primal − α_dual|: {float(np.abs(alpha - dual).max()):.2e}.")
        st.dataframe(
            {
                "point": np.arange(1, alpha.shape[0] + 1),
                "α (primal QP)": alpha,
                "α (dual QP)": dual,
            },
            height=200,
        )
    show_kkt_conditions(result.kkt_residuals(), soft=result.C is not None)


SPEC = AlgorithmSpec.of(
    globals(),
    title="Primal SVM: QP(Q, p, A, c) on (b, w) (seed 003)",
    page="dual",
    fn=svmcore.primal_svm,
    caps=Caps(n=QP_CAP),
    extras=extras,
    problem=problem,
    not_separable=soft_margin_offer("primal_svm", "primal_svm_offer_soft"),
    seed_panels=(sp_texts.LAGRANGE, sp_texts.MARGIN_BOUND),
)
