"""Multiclass: SSBD's multiclass SGD (seed 001), multiclass Pegasos, one-vs-all (seed 002)."""

import streamlit as st

from svmlab import controls as ui
from svmlab import runners
from svmlab.figures import curves_figure
from svmlab.router import enter
from svmlab.sklearn_check import check_multiclass_pegasos

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

PAGE = "mc"
CAP = runners.CAPS["multiclass"]

st.title("Multiclass SVM")
ALGOS = {
    "mc_sgd": "SSBD's SGD for multiclass learning (seed 001)",
    "mc_pegasos": "Multiclass Pegasos (Crammer–Singer, seed 002 §2.3)",
    "mc_ova": "One-vs-all (seed 002 §2.3)",
}

with st.sidebar:
    n_classes = st.select_slider(
        "Classes on this page (k)", [2, 3, 4, 5, 6], value=3, key=f"{PAGE}_k",
        help="The canvas offers this many classes; points of classes ≥ k are left out.",
    )  # fmt: skip
X, y = ui.page_data(n_classes=int(n_classes))
plane = ui.plane_ranges()  # fixed axes: a click never rescales them
k = len(set(y.tolist()))  # classes present in the drawn data
if k < int(n_classes):
    st.info(
        f"The data have {k} of the {n_classes} classes: draw points of the others (pick the "
        "class in the sidebar), or load k Gaussian blobs."
    )
    st.button(f"Load {n_classes} blobs", key=f"{PAGE}_load_blobs", on_click=ui.load_k_blobs,
              args=(int(n_classes),))  # fmt: skip

left, right = st.columns([1, 2.4], gap="medium")
with left:
    st.subheader("Parameters")
    algorithm = st.radio("Algorithm", list(ALGOS), format_func=ALGOS.get, key=f"{PAGE}_algo")
    T = ui.t_slider(key=f"{PAGE}_T", default=3_000, cap=CAP["T"])
    params = {}
    if algorithm == "mc_sgd":
        bias = st.checkbox(
            "Ψ(x, y) with x̃ = (x, 1): one offset per class", True, key=f"{PAGE}_bias"
        )
        eta = ui.log_slider("η (fixed step size)", -3, 1, 0.1, key=f"{PAGE}_eta")
        B = ui.log_slider("B (norm bound of Corollary 17.2)", -1, 2, 1.0, key=f"{PAGE}_B")
        eta_rec = ui.recommended_eta(X, int(T), float(B), bool(bias)) if len(X) else None
        if eta_rec is not None:
            st.caption(f"Corollary 17.2: η = √(B²/(ρ²T)) = {eta_rec:.3g} for this B, ρ and T.")
            if st.checkbox("use Corollary 17.2's η", key=f"{PAGE}_use_rec"):
                eta = eta_rec
        params.update(eta=float(eta), bias=bool(bias))
    elif algorithm == "mc_pegasos":
        bias = st.checkbox("append a constant 1 (offsets, regularized)", True, key=f"{PAGE}_bias")
        lam = ui.log_slider("λ (regularization)", -4, 1, 0.01, key=f"{PAGE}_lam")
        schedule = st.radio(
            "Schedule", ["pegasos", "ssbd"], key=f"{PAGE}_schedule", horizontal=True,
            format_func={"pegasos": "Pegasos paper: 1/(λ(t−1))", "ssbd": "SSBD: 1/(λt)"}.get,
        )  # fmt: skip
        if st.checkbox("kernelized (coefficients per point and class)", key=f"{PAGE}_kern"):
            params.update(ui.kernel_controls(PAGE, default="rbf"))
        params.update(lam=float(lam), bias=bool(bias), schedule=schedule)
    else:
        learners = {
            "pegasos": "linear Pegasos",
            "kernel_pegasos": "kernel Pegasos",
            "dual_svm": "dual SVM (SMO)",
        }
        learner = st.selectbox(
            "Binary learner", list(learners), format_func=learners.get, key=f"{PAGE}_learner"
        )
        params["learner"] = learner
        if learner == "dual_svm":
            params.update(ui.kernel_controls(PAGE, default="rbf"))
            params["C"] = float(ui.log_slider("C", -2, 3, 1.0, key=f"{PAGE}_C"))
        else:
            if learner == "kernel_pegasos":
                params.update(ui.kernel_controls(PAGE, default="rbf"))
            params["lam"] = float(ui.log_slider("λ", -4, 1, 0.01, key=f"{PAGE}_lam"))
            if learner == "pegasos":
                params["bias"] = st.selectbox(
                    "Bias b of each binary classifier", ["none", "augment", "free"],
                    key=f"{PAGE}_ova_bias",
                    format_func={
                        "none": "none — the texts' (SSBD's soft-SVM has no bias)",
                        "augment": "x ↦ (x, 1), regularized — liblinear's",
                        "free": "free b, not regularized — as in SVC",
                    }.get,
                )  # fmt: skip
            params["T"] = int(T)
    if algorithm != "mc_ova":
        params["T"] = int(T)
        params["averaging"] = st.radio(
            "Output", ["average", "last"], key=f"{PAGE}_avg", horizontal=True,
            format_func={"average": "averaged w̄ (the texts)", "last": "last iterate"}.get,
        )  # fmt: skip
        params["sampling"] = st.selectbox(
            "Sampling", ["uniform", "cyclic", "shuffle"], key=f"{PAGE}_sampling"
        )
        if k >= 2:
            st.markdown("**Δ(y′, y)** — the cost of predicting y′ (row) when the truth is y "
                        "(column); zero diagonal, non-negative:")  # fmt: skip
            delta = ui.delta_editor(k, key=PAGE)
            if delta != tuple(tuple(1.0 - float(i == j) for j in range(k)) for i in range(k)):
                params["delta"] = delta
    if algorithm == "mc_ova" and params["learner"] == "dual_svm":
        pass  # SMO is deterministic
    else:
        params["random_state"] = int(st.number_input("Seed", 0, 1_000_000, 0, key=f"{PAGE}_seed"))
    st.caption(f"Caps on this page: n ≤ {CAP['n']:,} points, T ≤ {CAP['T']:,}.")

with right:
    problem = ui.check_multiclass_data(X, y)
    result = None
    if problem:
        st.warning(problem)
    else:
        result = ui.safe_run(algorithm, X, y, **params)
    if result is None:
        ui.points_canvas(X, y, key=f"{PAGE}_canvas")
    elif algorithm == "mc_ova":
        fig = runners.mc_plane_at(algorithm, X, y, result, 0, plane=plane, **params)
        ui.canvas(fig, key=f"{PAGE}_canvas")
        st.caption(
            "Grey: ambiguous regions, claimed by no binary classifier (every f_k(x) ≤ 0) or by "
            'several — seed 002\'s points "in between our classifiers"; only the argmax '
            "decides there."
        )
    else:
        slot = st.container()
        snap = ui.scrubber(
            result.trace, key=f"{PAGE}_snap", signature=runners.data_key(X, y) + repr(params)
        )
        with slot:
            fig = runners.mc_plane_at(
                algorithm, X, y, result, snap,
                highlight=runners.sampled_index(result.trace, snap), plane=plane, **params,
            )  # fmt: skip
            ui.canvas(fig, key=f"{PAGE}_canvas")

if result is not None:
    if algorithm == "mc_ova":
        values = runners.mc_metrics(algorithm, result)
        values["ambiguous share of the plane"] = runners.ova_ambiguous_fraction(
            X, y, plane=plane, **params
        )
        ui.show_metrics(values)
    else:
        ui.show_metrics(runners.mc_metrics(algorithm, result, snap))
        st.plotly_chart(curves_figure(result.trace), key=f"{PAGE}_curves", config=ui.PLOTLY_CONFIG)
        st.subheader("Playback")
        if st.toggle("Animate the run in the browser", value=len(X) <= 300, key=f"{PAGE}_anim_on"):
            st.plotly_chart(
                runners.mc_run_frames(algorithm, X, y, n_frames=50, plane=plane, **params),
                key=f"{PAGE}_anim", config=ui.PLOTLY_CONFIG,
            )  # fmt: skip
        with st.expander("Step by step: the first steps beside the pseudo-code"):
            ui.inspector(
                result.trace, key=PAGE,
                code="multiclass_sgd" if algorithm == "mc_sgd" else "multiclass_pegasos",
                figure_at=lambda j, hl, title: runners.mc_plane_at(
                    algorithm, X, y, result, j, highlight=hl, title=title, plane=plane, **params
                ),
            )  # fmt: skip
        if algorithm == "mc_pegasos" and "kernel" not in params and "delta" not in params:
            st.subheader("Check against scikit-learn")
            st.caption(
                "LinearSVC(multi_class='crammer_singer') at C = 1/(λn) solves the same problem "
                "(the 0-1 Δ; its intercept is a regularized constant feature); on demand."
            )
            ui.show_check(PAGE, lambda: check_multiclass_pegasos(X, y, result, lam=params["lam"]))
