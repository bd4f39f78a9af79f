"""Kernel Pegasos: SSBD's SGD for soft-SVM with kernels (seed 000; seed 002, Algorithm 2)."""

import streamlit as st

from svmlab import controls as ui
from svmlab import runners
from svmlab.router import enter
from svmlab.sklearn_check import check_kernel_pegasos

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

PAGE = "ker"
CAP = runners.CAPS["kernel_pegasos"]

st.title("Kernel Pegasos")
st.latex(
    r"\min_{\alpha\in\mathbb{R}^m}\;\frac{\lambda}{2}\,\alpha^\top K\alpha"
    r"+\frac{1}{m}\sum_{i=1}^{m}\max\Big\{0,\;1-y_i\sum_{j=1}^{m}\alpha_j K(x_j,x_i)\Big\}"
    r"\qquad(16.5)"
)
st.markdown(
    "**What to look for.** The model is f(x) = Σ_j α_j K(x_j, x): every point that was ever "
    "sampled with a margin below 1 gets a bump of the kernel around it (β_i += y_i), and "
    "α(t) = β(t)/(λt) shrinks all bumps as t grows. Watch the **support vectors** — the "
    "ringed points with α_j ≠ 0, marker size ∝ |α_j| — appear in the first steps, then only "
    "the points near the boundary keep growing. With the RBF kernel, γ sets the width of "
    "each bump: a large γ draws islands around single points (overfitting), a small γ a "
    "nearly linear boundary. There is no bias b: SSBD's soft-SVM is homogeneous."
)

X, y = ui.page_data(n_classes=2)
plane = ui.plane_ranges()  # fixed axes: a click never rescales them
left, right = st.columns([1, 2.4], gap="medium")
with left:
    st.subheader("Parameters")
    kparams = ui.kernel_controls(PAGE, default="rbf")
    opts = ui.sgd_controls(PAGE, kind="kernel", n=len(X), T_default=10_000, T_cap=CAP["T"])
    st.caption("Bias: none — SSBD's soft-SVM (16.5) has no b; scikit-learn's SVC has one.")
    seed = st.number_input("Seed", 0, 1_000_000, 0, key=f"{PAGE}_seed")
    st.caption(f"Caps on this page: n ≤ {CAP['n']:,} points, T ≤ {CAP['T']:,}.")

params = dict(**kparams, **opts, random_state=int(seed))
lam, schedule = opts["lam"], opts["schedule"]

with right:
    result, k, hl = ui.run_and_plane("kernel_pegasos", X, y, params, page=PAGE, plane=plane)
    if result is not None:
        alpha = abs(result.trace.snapshots["alpha"][k])
        ui.show_alpha_bars(alpha, y, key=PAGE, highlight=hl)

if result is not None:
    ui.run_report(
        "kernel_pegasos", X, y, result, k, params, page=PAGE, plane=plane,
        code="kernel_ssbd" if schedule == "ssbd" else "kernel_pegasos",
        metrics=runners.metrics("kernel_pegasos", result, X, y, k),
        check=lambda: check_kernel_pegasos(X, y, result, lam=lam),
        check_caption="SVC at C = 1/(λm) (with its bias b); computed on demand.",
        lam=lam,
    )  # fmt: skip
