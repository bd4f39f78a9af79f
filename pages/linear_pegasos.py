"""Linear Pegasos: SGD on the soft-SVM primal (seed 002, Algorithm 1; SSBD §15.5)."""

import streamlit as st

from svmlab import controls as ui
from svmlab import runners
from svmlab.router import enter
from svmlab.sklearn_check import check_pegasos

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

PAGE = "lin"
CAP = runners.CAPS["pegasos"]

st.title("Linear Pegasos")
st.latex(
    r"\min_{w}\;\frac{\lambda}{2}\lVert w\rVert^2"
    r"+\frac{1}{n}\sum_{i=1}^{n}\max\{0,\;1-y_i\langle w, x_i\rangle\}"
)
st.markdown(
    "**What to look for.** Each step samples one point *i*; if its margin "
    "y_i⟨w_t, x_i⟩ is below 1 the step pulls w towards y_i x_i, otherwise it only shrinks w "
    "by (1 − η_t λ). Early steps are huge (η_t = 1/(λt)), so the boundary swings wildly and "
    "then settles; the averaged output w̄ is much calmer than the last iterate. Ringed points "
    "are the ones with y f(x) ≤ 1 (inside or on the margin): they are the only ones that "
    "still move w. A larger λ means a smaller ‖w‖, i.e. a wider margin and more ringed points."
)

X, y = ui.page_data(n_classes=2)
plane = ui.plane_ranges()  # fixed axes: a click never rescales them
left, right = st.columns([1, 2.4], gap="medium")
with left:
    st.subheader("Parameters")
    opts = ui.sgd_controls(PAGE, kind="linear", n=len(X), T_default=1_000, T_cap=CAP["T"])
    bias = st.selectbox(
        "Bias b",
        ["none", "augment", "free"],
        format_func={
            "none": "none — the texts' (SSBD's soft-SVM has no bias)",
            "augment": "x ↦ (x, 1), regularized — liblinear's (LinearSVC)",
            "free": "free b, not regularized — as in SVC",
        }.get,
        key=f"{PAGE}_bias",
    )
    batch_size = st.select_slider(
        "Mini-batch size k", [1, 2, 4, 8, 16, 32, 64], value=1, key=f"{PAGE}_batch"
    )
    projection = st.checkbox("Project onto the ball ‖w‖ ≤ 1/√λ (Pegasos paper)", key=f"{PAGE}_proj")
    cw = st.selectbox(
        "Class weights (seed 002 §2.1)",
        ["none", "balanced", "custom"],
        key=f"{PAGE}_cw",
    )
    class_weight = None
    if cw == "balanced":
        class_weight = "balanced"
    elif cw == "custom":
        w_pos = ui.log_slider("weight of class +1 (class −1 has 1)", -1, 1, 1.0, key=f"{PAGE}_cwp")
        class_weight = {-1: 1.0, 1: float(w_pos)}
    seed = st.number_input("Seed", 0, 1_000_000, 0, key=f"{PAGE}_seed")
    st.caption(f"Caps on this page: n ≤ {CAP['n']:,} points, T ≤ {CAP['T']:,}.")

params = dict(
    **opts, bias=bias, batch_size=int(batch_size), projection=bool(projection),
    class_weight=class_weight, random_state=int(seed),
)  # fmt: skip
lam, schedule = opts["lam"], opts["schedule"]

with right:
    result, k, _ = ui.run_and_plane("pegasos", X, y, params, page=PAGE, plane=plane)

if result is not None:
    ui.run_report(
        "pegasos", X, y, result, k, params, page=PAGE, plane=plane,
        code="pegasos_ssbd" if schedule == "ssbd" else "pegasos",
        metrics=runners.metrics("pegasos", result, X, y, k),
        check=lambda: check_pegasos(X, y, result, lam=lam, bias=bias),
        check_caption="LinearSVC(loss='hinge') at C = 1/(λn) solves the same problem; "
        "computed on demand.",
        lam=lam, projection=projection,
    )  # fmt: skip
