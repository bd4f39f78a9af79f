"""Compare: one soft-SVM problem through Pegasos, kernel Pegasos, the dual SVM (with and
without b) and scikit-learn, on the session's points, on one objective scale."""

import streamlit as st

from svmlab.algorithms import widgets
from svmlab.plot.compare_figure import comparison_figure
from svmlab.study import compare, compare_ordering
from svmlab.ui import page as ui
from svmlab.ui import plotbox
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

PAGE = "compare"
run = st.cache_data(max_entries=16, show_spinner="Fitting the seven models…")(compare.compare_runs)

st.title("Compare the solvers")
st.markdown(
    "The same points and the same λ through every solver: **Pegasos** (linear, SSBD §15.5 / "
    "seed 002), **kernel Pegasos** (seed 000), seed 003's **dual SVM** with C = 1/(λn) "
    "(with its free bias b), the **homogeneous dual** (no yᵀα = 0: the exact minimum that "
    "Pegasos approaches) and **scikit-learn**'s LinearSVC, SVC and SGDClassifier. All are "
    "scored on one scale, **P = λ/2 ‖w‖² + (1/n) Σ max{0, 1 − y_i f(x_i)}** (‖w‖² in the "
    "model's own feature space, the bias b not regularized). On one feature space a free b "
    "can only lower the minimum (b = 0 is one of its choices): among the models on the "
    "kernel K, the dual with b reaches the smallest P any of them can have and the "
    "homogeneous dual the smallest without b. The linear models work on x itself — unless "
    "K is linear another feature space, another problem — so their P may lie below or above "
    "the kernel models'; the line under the table says which is smallest on these fits."
)
X, y = ui.page_data(n_classes=2)
left, right = st.columns([1, 2.4], gap="medium")
with left:
    st.header("Parameters")
    lam = widgets.log_slider("λ (regularization)", -4, 1, 0.01, key=f"{PAGE}_lam")
    kernel = widgets.kernel_controls(PAGE, default="rbf")
    T = widgets.t_slider(key=f"{PAGE}_T", default=10_000, cap=100_000)
    seed = widgets.seed_input(PAGE)
    shown = st.multiselect(
        "Boundaries drawn",
        list(compare.MODELS),
        default=["sgd_kernel", "dual_bias", "dual_homogeneous", "sk_svc"],
        format_func=lambda key: compare.MODELS[key].label,
        key=f"{PAGE}_show",
        bind="query-params",  # the boundaries shown belong in a share link
    )
problem = ui.data_problem(X, y, 2)
with right:
    if problem:
        st.warning(problem)
        st.stop()
    st.latex(compare.mapping_latex(float(lam), len(X)))
    try:
        cmp = run(X, y, lam=float(lam), T=int(T), random_state=seed, **kernel)
    except ValueError as exc:
        st.warning(f"**Cannot compare on these points:** {exc}")
        st.stop()
    xr, yr = ui.plane_ranges()
    fig = comparison_figure(cmp, shown, xrange=xr, yrange=yr)
    plotbox.chart(fig, key=f"{PAGE}_plane", config=ui.PLOTLY_CONFIG)
    st.caption("Click a legend entry to hide or show that boundary.")
st.header("On one scale")
st.dataframe(compare.table_rows(cmp), hide_index=True, key=f"{PAGE}_table")
st.markdown(compare_ordering.ordering_text(cmp))
st.caption(
    "Objective P = λ/2 ‖w‖² + (1/n) Σ hinge (b not regularized); P − P*: above the exact "
    "minimum of the model's own problem (homogeneous linear or in K: svmcore's dual "
    "coordinate descent; with a free b: the dual SVM by SMO). SVs: α > 0 for the duals "
    "and SVC, α ≠ 0 for kernel Pegasos, y f(x) ≤ 1 for the linear models. Agreement: the "
    "share of training points predicted as the dual SVM with b predicts them. Fit times "
    "are one run on this machine (wall clock; they vary from run to run)."
)
