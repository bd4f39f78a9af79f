"""The dual SVM (seed 003, Lin): hard / soft margin QP by SMO or a QP solver — its entry.

SMO picks the pair as libsvm does with second-order information (WSS3) and, every few
pairs, tries one projected Newton step on the free multipliers; the trace records those
as steps with i = j = −1, which the code shows as their own line.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import spec as sp
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps
from svmlab.plot.pseudocode import Line, num, render_html
from svmlab.plot.views import BinaryView
from svmlab.study.sklearn_check import check_dual

__all__ = [
    "HARD",
    "QP_CAP",
    "SOFT",
    "SPEC",
    "margin_controls",
    "qp_code",
    "show_kkt_conditions",
    "show_qp",
    "soft_margin_offer",
]

HARD, SOFT = "hard margin (α ≥ 0)", "soft margin (0 ≤ α ≤ C)"
SOLVERS = {"smo": "SMO (two α at a time)", "qp": "QP(Q, p, A, c) (interior point)"}
#: The dense interior-point solver's cap on n.
QP_CAP = 300
#: Up to this many points the metrics list α itself (seed 003's worked examples).
SHOW_ALPHA = 10


def margin_controls(key: str) -> float | None:
    """The margin radio (hard / soft) and, for the soft margin, C; returns C (None: hard)."""
    margin = st.radio("Margin", [SOFT, HARD], key=f"{key}_margin", bind=widgets.BIND)
    if margin == HARD:
        return None
    return float(widgets.log_slider("C (penalty on the slacks ξₙ)", -2, 3, 1.0, key=f"{key}_C"))


def controls(key: str, X, y) -> dict:
    """Margin (hard / soft with C), kernel, solver and its tolerance."""
    C = margin_controls(key)
    params = widgets.kernel_controls(key, default="rbf")
    solver = widgets.radio("Solver", SOLVERS, key=f"{key}_solver", horizontal=True)
    if solver == "smo":
        tol = widgets.log_slider(
            "tol: stop when m(α) − M(α) ≤ tol",
            -6,
            -1,
            1e-3,
            key=f"{key}_tol",
            help="libsvm's eps: the largest KKT violation of a pair.",
        )
    else:
        tol = widgets.log_slider(
            "tol: relative residual of the interior point", -12, -4, 1e-9, key=f"{key}_qptol"
        )
    st.caption(f"The dense QP solver takes n ≤ {QP_CAP} points.")
    params.update(C=C, solver=solver, tol=float(tol))
    return params


def problem(X, params: dict) -> str | None:
    """Why this run cannot start (the dense QP above its cap), or None."""
    if params.get("solver") == "qp" and len(X) > QP_CAP:
        return (
            f"The dense QP solver is capped at n = {QP_CAP} points (you have {len(X)}); "
            "use SMO for more."
        )
    return None


def soft_margin_offer(key: str, button: str):
    """The ``not_separable`` hook of the entry ``key``: a button (widget key ``button``)
    that switches its margin radio (:func:`margin_controls`) to a soft margin."""

    def to_soft():
        st.session_state[f"{key}_margin"] = SOFT

    def offer() -> None:
        st.button("Use a soft margin instead (C = 1)", on_click=to_soft, key=button)

    return offer


def qp_code(o: dict) -> list[Line]:
    """Seed 003's "Kernel hard-margin SVM algorithm" box (soft margin: the box 0 ≤ α ≤ C)."""
    soft = o.get("C") is not None
    box = "0 ≤ α_n ≤ C" if soft else "α_n ≥ 0"
    free = "a free SV (x_s, y_s), 0 < α_s < C" if soft else "an SV (x_s, y_s), α_s > 0"
    return [
        Line("q_{n,m} = y_n y_m K(x_n, x_m);  p = −1_N;  (A, c) for yᵀα = 0 and " + box),
        Line("α ← QP(Q_D, p, A, c)", "update"),
        Line(f"b ← y_s − Σ_n α_n y_n K(x_n, x_s) with {free}"),
        Line("return SVs and their α_n as well as b: g_SVM(x) = sign(Σ_SV α_n y_n K(x_n, x) + b)"),
    ]


def code(o: dict) -> list[Line]:
    """SMO with libsvm's second-order working-set selection (WSS3) on seed 003's dual; with
    the QP solver, seed 003's kernel SVM box (:func:`qp_code`)."""
    if o.get("solver") == "qp":
        return qp_code(o)
    box = "0 ≤ α ≤ C" if o.get("C") is not None else "α ≥ 0"
    return [
        Line("α = 0,  ∇D(α) = Qα − 1 = −1"),
        Line("repeat", "step"),
        Line("    i ∈ argmax { −y_t ∇D(α)_t : t ∈ I_up(α) }", "update"),
        Line(
            "    j ∈ argmin_{t ∈ I_low(α), −y_t ∇D_t < −y_i ∇D_i} −(y_i∇D_i − y_t∇D_t)²/a_it"
            "   (WSS3)",
            "update",
        ),
        Line("    if m(α) − M(α) ≤ tol: stop (KKT hold up to tol)", "step"),
        Line(f"    solve the 2-variable QP in (α_i, α_j), keep yᵀα = 0, clip to {box}", "update"),
        Line("    ∇D(α) += Q_{:,i} Δα_i + Q_{:,j} Δα_j", "update"),
        Line(
            "    every few pairs: one projected Newton step on the free α (0 < α_n, α_n < C), "
            "kept if ½αᵀQα − 1ᵀα decreases",
            "skip",
        ),
        Line("b = y_s − Σ_n α_n y_n K(x_n, x_s) averaged over free SVs (0 < α_s < C)"),
    ]


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """t, the pair (1-based) and Δα, or the Newton step; the dual objective."""
    out = [("t", num(step["t"]))]
    i, j = int(step["i"]), int(step["j"])
    kind = str(step.get("kind", "pair" if i >= 0 else "newton"))
    if kind != "pair":
        what = "the decomposition's final" if kind == "polish" else "a projected"
        out.append(("step", f"{what} Newton step on the free α (no pair)"))
    else:
        out.append(("SMO pair (i, j) (1-based)", f"({i + 1}, {j + 1})"))
        out.append(("Δα_i", num(step["delta_i"])))
        out.append(("Δα_j", num(step["delta_j"])))
    out.append(("dual objective ½αᵀQα − 1ᵀα", num(step["objective"])))
    return out


def objective(o: dict) -> str:
    """Seed 003's dual, hard or soft margin."""
    box = r"0\le\alpha_n\le C" if o.get("C") is not None else r"\alpha_n\ge 0"
    return (
        r"\min_{\alpha}\;\frac{1}{2}\alpha^\top Q_D\,\alpha-\mathbf{1}^\top\alpha"
        rf"\quad\text{{s.t.}}\quad y^\top\alpha=0,\;\;{box},"
        r"\qquad q_{n,m}=y_n y_m K(x_n,x_m)"
    )


def view(result, X, y) -> BinaryView:
    """α per snapshot: f(x) = Σ_n α_n y_n K(x_n, x) + b; free and bounded SVs."""
    s = result.trace.snapshots
    A = np.asarray(s["alpha"], dtype=float)
    B = np.asarray(s["b"], dtype=float) if "b" in s else np.full(A.shape[0], result.b)
    C = result.C if result.C is not None else np.inf
    return BinaryView(
        result.trace.t,
        A * np.asarray(y, dtype=float)[None, :],
        B,
        result.kernel,
        np.asarray(X, dtype=float),
        A,
        A > 1e-12,
        C=C,
        final=(result.free_, result.bounded_),
        trace=result.trace,
    )


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, SVs, Lin's margin, w and b, the objectives and the duality gap."""
    X = np.asarray(X, dtype=float)
    s = result.trace.snapshots
    A = np.asarray(s["alpha"][k], dtype=float)
    last = k == result.trace.n_snapshots - 1
    out = {}
    if last:
        out["training accuracy"] = sp.accuracy_row(np.mean(result.predict(X) != y))
        out["support vectors"] = str(len(result.support_))
        out["free / bounded SVs"] = f"{len(result.free_)} / {len(result.bounded_)}"
    else:
        out["support vectors"] = f"{int(np.count_nonzero(A > 1e-12))}"
    if A.shape[0] <= SHOW_ALPHA:
        out["α"] = num(A)
    c = A * np.asarray(y, dtype=float)
    if result.kernel.name == "linear":
        w = X.T @ c  # w = Σ_n α_n y_n x_n
        out.update(sp.margin_rows(float(w @ w)))
        out["w = Σ αₙyₙxₙ"] = num(w)
    else:
        out.update(sp.margin_rows(float(c @ result.kernel(X) @ c), " (feature space)"))
    b = float(result.b) if last else float(s["b"][k]) if "b" in s else float(result.b)
    out["b"] = num(b)
    if last:
        out["dual objective"] = f"{float(result.dual_objective):.6g}"
        out["primal objective"] = f"{float(result.primal_objective):.6g}"
        out["duality gap"] = f"{float(result.duality_gap):.2e}"
    else:
        out.update(
            sp.snapshot_rows(
                s,
                k,
                {
                    "primal_objective": "primal objective",
                    "dual_objective": "dual objective",
                    "duality_gap": "duality gap",
                },
            )
        )
    return out


def use_smo() -> None:
    """Switch the solver radio to SMO (a callback: it runs before the page reruns)."""
    st.session_state["dual_svm_solver"] = "smo"


def extras(result, params: dict) -> None:
    """The solver's status if not optimal, the per-point KKT table and, for the QP solver,
    the lecture's QP(Q, p, A, c)."""
    if not result.is_optimal:
        st.warning(f"**Solver status: {result.status}.** {result.message}")
        if params.get("solver") == "qp":
            st.button("Solve with SMO instead", key="dual_svm_use_smo", on_click=use_smo)
    with st.expander("KKT conditions per point"):
        show_kkt(result)
    show_kkt_conditions(result.kkt_residuals(), soft=result.C is not None)
    if params.get("solver") == "qp" and result.Q is not None:
        with st.expander("The lecture's QP(Q, p, A, c)"):
            st.markdown(render_html(qp_code(params)), unsafe_allow_html=True)
            show_qp(result)


def show_qp(result) -> None:
    """The matrices Q, p, A, c of ``result`` (their top-left 8 × 8 corner)."""
    for name in ("Q", "p", "A", "c"):
        arr = np.asarray(getattr(result, name))
        st.markdown(f"**{name}** — shape {arr.shape}")
        st.dataframe(arr[:8, :8] if arr.ndim == 2 else arr[:8].reshape(1, -1), height=180)


def show_kkt_conditions(conditions, *, soft: bool = False) -> None:
    """Lin's KKT list (``result.kkt_residuals()``: svmcore's
    :class:`~svmcore.dual.result.KKTCondition` entries) as a table, in an expander."""
    with st.expander("The lecture's KKT conditions, checked with numbers"):
        slack = " ξ_n = max(0, 1 − y_n(wᵀz_n + b)), the smallest slacks of (b, w)." if soft else ""
        st.caption(
            "Each condition of seed 003's KKT list with its largest violation over n "
            "(0: it holds exactly)." + slack
        )
        st.dataframe(  # not st.table: the scikit-learn check's table stays the last one
            {
                "KKT condition": [c.name for c in conditions],
                "in seed 003's symbols": [c.condition for c in conditions],
                "largest violation": [f"{c.violation:.2e}" for c in conditions],
            },
            hide_index=True,
        )


def show_kkt(result) -> None:
    """The per-point KKT report (``result.kkt``: margin, status, violation) as a table."""
    if result.C is None:
        rule = "α_n = 0 ⇒ y_n f(x_n) ≥ 1;  α_n > 0 ⇒ y_n f(x_n) = 1"
    else:
        rule = "α_n = 0 ⇒ y_n f(x_n) ≥ 1;  0 < α_n < C ⇒ y_n f(x_n) = 1;  α_n = C ⇒ y_n f(x_n) ≤ 1"
    st.caption(f"{rule} (largest violation: {float(result.max_kkt_violation):.3g}).")
    kkt = result.kkt
    st.dataframe(
        {
            "point": np.arange(1, len(result.alpha) + 1),
            "α_n": np.asarray(result.alpha),
            "y_n f(x_n)": np.asarray(kkt.margin),
            "status": np.asarray(kkt.status),
            "violation": np.asarray(kkt.violation),
        },
        height=260,
    )


SPEC = AlgorithmSpec.of(
    globals(),
    title="Dual SVM: the QP and SMO (seed 003)",
    page="dual",
    fn=svmcore.dual_svm,
    caps=Caps(n=500),
    kernel_params=True,
    bars=True,
    dual_curves=True,
    curve_labels=lambda p: (
        {}
        if p.get("solver") == "smo"
        else {"max_violation": "interior-point residual (not m(α) − M(α))"}
    ),
    check=lambda X, y, result, p: check_dual(X, y, result, C=p["C"]),
    check_caption="sklearn.svm.SVC (libsvm) at the same C (hard margin: C = 10¹⁰): the "
    "same support vectors, the dual objective and b; computed on demand.",
    step_title="Step by step: SMO's first pair updates beside the pseudo-code",
    extras=extras,
    problem=problem,
    not_separable=soft_margin_offer("dual_svm", "offer_soft"),
    seed_panels=(sp_texts.LAGRANGE, sp_texts.MARGIN_BOUND),
)
