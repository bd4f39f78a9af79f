"""Home: what SVM Lab teaches, a ready trained example, and links to every page."""

import streamlit as st

from svmlab.ui import page as ui
from svmlab.ui import plotbox, runners
from svmlab.ui.router import PAGES, enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

st.title("SVM Lab")
st.markdown(
    "Draw points, pick an algorithm, and **watch a support vector machine learn** — play, "
    "pause, step and scrub through every run, with the algorithm's pseudo-code from the "
    "lecture texts beside the picture.\n\n"
    "- **Linear and kernel Pegasos** (SSBD's SGD for soft-SVM; the Pegasos lecture note): "
    "see one sample at a time move the boundary, which points become support vectors and "
    "how their α grow.\n"
    "- **The dual SVM** (Lin's lectures): hard and soft margin as a quadratic program, "
    "solved by a QP solver or by SMO two multipliers at a time; free and bounded support "
    "vectors, KKT conditions, and what happens when the data are not separable.\n"
    "- **Multiclass** (SSBD §17.2): the multiclass SGD with Ψ and Δ, multiclass Pegasos "
    "and one-vs-all with its ambiguous regions.\n"
    "- **Why**: the feature space of a kernel, the solvers compared on one objective, "
    "convergence to the exact optimum, test error and sweeps, and **exercises** checked by "
    "the solver.\n\n"
    "The points you draw are shared by all pages. Everything runs locally."
)

EXAMPLE = dict(kernel="rbf", gamma=1.0, lam=0.01, T=10_000, random_state=0)
TITLE = "Two moons, kernel Pegasos with the RBF kernel (γ = 1, λ = 0.01, T = 10,000)"
# Computed once per server (cached): every later visit only sends the figure.
fig, metrics = runners.example(
    "kernel_pegasos", ("moons", dict(n=100, noise=0.15, random_state=0)), TITLE, **EXAMPLE
)
left, right = st.columns([2, 1], gap="medium")
with left:
    plotbox.plane_chart(fig, key="home_example", config=ui.PLOTLY_CONFIG)
with right:
    st.header("This example")
    st.markdown(
        "The shading is f(x) = Σ_j α_j K(x_j, x); the solid line is the boundary f = 0 and "
        "the dashed lines the margins f = ±1. Ringed points are support vectors (α_j ≠ 0), "
        "drawn larger the larger |α_j| is."
    )
    st.markdown("\n".join(f"- {name}: **{value}**" for name, value in metrics.items()))
    st.header("Pages")
    for page in (p for p in PAGES if not p.default):  # every page of the router's table
        st.page_link(f"pages/{page.url_path}.py", label=page.title)
