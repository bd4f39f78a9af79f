"""The dual SVM (seed 003, Lin): hard / soft margin as a QP, solved by a QP solver or SMO."""

import streamlit as st

from svmlab import controls as ui
from svmlab import runners
from svmlab.router import enter
from svmlab.sklearn_check import check_dual

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

PAGE = "dual"
CAP = runners.CAPS["dual"]
QP_CAP = 300
HARD, SOFT = "hard margin (α ≥ 0)", "soft margin (0 ≤ α ≤ C)"

st.title("Dual SVM: the QP and SMO")
objective_slot = st.container()
X, y = ui.page_data(n_classes=2)
plane = ui.plane_ranges()  # fixed axes: a click never rescales them
left, right = st.columns([1, 2.4], gap="medium")
with left:
    st.subheader("Parameters")
    margin = st.radio("Margin", [SOFT, HARD], key="dual_margin")
    hard = margin == HARD
    C = None
    if not hard:
        C = float(ui.log_slider("C (penalty on the slacks ξₙ)", -2, 3, 1.0, key=f"{PAGE}_C"))
    kparams = ui.kernel_controls(PAGE, default="rbf")
    solver = st.radio(
        "Solver", ["smo", "qp"], key=f"{PAGE}_solver", horizontal=True,
        format_func={"smo": "SMO (two α at a time)", "qp": "QP(Q, p, A, c) (interior point)"}.get,
    )  # fmt: skip
    if solver == "smo":
        tol = ui.log_slider(
            "tol: stop when m(α) − M(α) ≤ tol", -6, -1, 1e-3, key=f"{PAGE}_tol",
            help="libsvm's eps: the largest KKT violation of a pair.",
        )  # fmt: skip
    else:
        tol = ui.log_slider(
            "tol: relative residual of the interior point", -12, -4, 1e-9, key=f"{PAGE}_qptol"
        )
    st.caption(f"Caps on this page: n ≤ {CAP['n']} points (n ≤ {QP_CAP} for the dense QP solver).")

with objective_slot:
    if hard:
        st.latex(
            r"\min_{\alpha}\;\frac{1}{2}\alpha^\top Q_D\,\alpha-\mathbf{1}^\top\alpha"
            r"\quad\text{s.t.}\quad y^\top\alpha=0,\;\;\alpha_n\ge 0,"
            r"\qquad q_{n,m}=y_n y_m K(x_n,x_m)"
        )
    else:
        st.latex(
            r"\min_{\alpha}\;\frac{1}{2}\alpha^\top Q_D\,\alpha-\mathbf{1}^\top\alpha"
            r"\quad\text{s.t.}\quad y^\top\alpha=0,\;\;0\le\alpha_n\le C,"
            r"\qquad q_{n,m}=y_n y_m K(x_n,x_m)"
        )
    st.markdown(
        "**What to look for.** Only the support vectors (α_n > 0) shape the boundary "
        "g(x) = sign(Σ_n α_n y_n K(x_n, x) + b). With a soft margin, **free** support vectors "
        "(0 < α_n < C, round rings) sit exactly on the margins f = ±1 and fix b; **bounded** ones "
        "(α_n = C, grey squares) are inside the margin or misclassified. SMO climbs the dual two "
        "multipliers at a time (the yellow pair): scrub through its iterations and watch the "
        "duality gap close. A hard margin on data that no boundary separates has no solution — "
        'try it on the "blobs with one outlier" preset.'
    )

params = dict(**kparams, C=C, solver=solver, tol=float(tol))
with right:
    too_big = solver == "qp" and len(X) > QP_CAP
    result, k, hl = ui.run_and_plane(
        "dual", X, y, params, page=PAGE, plane=plane,
        problem=f"The dense QP solver is capped at n = {QP_CAP} points (you have {len(X)}); "
        "use SMO for more." if too_big else None,
    )  # fmt: skip
    if result is not None:
        alpha = result.trace.snapshots["alpha"][k]
        ui.show_alpha_bars(alpha, y, key=PAGE, C=C, highlight=hl)

if result is not None:
    ui.run_report(
        "dual", X, y, result, k, params, page=PAGE, plane=plane, code="smo", dual=True,
        metrics=runners.dual_metrics(result, X, y, k),
        check=lambda: check_dual(X, y, result, C=C),
        check_caption="sklearn.svm.SVC (libsvm) at the same C (hard margin: C = 10¹⁰): the "
        "same support vectors, the dual objective and b; computed on demand.",
        step_title="Step by step: SMO's first pair updates beside the pseudo-code",
    )  # fmt: skip
    with st.expander("KKT conditions per point"):
        ui.show_kkt(result)
    if solver == "qp" and getattr(result, "Q", None) is not None:
        with st.expander("The lecture's QP(Q, p, A, c)"):
            ui.show_qp(result)
