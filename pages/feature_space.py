"""The feature space: what a kernel does to the points (seed 003, Lin; seed 004; SSBD §16.3)."""

import streamlit as st

from svmlab.algorithms import seed_panels, widgets
from svmlab.plot import feature_figures as ff
from svmlab.state.run_context import RunContext
from svmlab.study import feature_run
from svmlab.study import feature_space as fs
from svmlab.ui import access, plotbox, runners
from svmlab.ui import page as ui
from svmlab.ui.data_panel import load_preset
from svmlab.ui.panels import seed_texts
from svmlab.ui.prose import prose
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

PAGE = "feature"
#: The trainers offered (registry keys): both fit f(x) = Σ_j c_j K(x_j, x) + b.
MODELS = {
    "dual_svm": "dual SVM, soft margin (seed 003), SMO",
    "kernel_pegasos": "kernel Pegasos (SSBD §16.3), no bias",
}
cached = st.cache_data(max_entries=16, show_spinner=False)
explicit_run = cached(feature_run.explicit_vs_kernel)
truncation_errors = cached(fs.truncation_errors)


def circle_example() -> None:
    """Seed 004's circle, with K₂ at γ = 1, ζ = 0 (Φ₂ is then (x₁², √2x₁x₂, x₂²) only)."""
    load_preset("circle")
    st.session_state.update(
        {
            f"{PAGE}_kernel": "poly",
            f"{PAGE}_gamma": 1.0,
            f"{PAGE}_degree": 2,
            f"{PAGE}_coef0": 0.0,
            f"{PAGE}_model": "dual_svm",
            f"{PAGE}_seed004": True,
        }
    )


def dual_controls() -> dict:
    C = widgets.log_slider("C (soft margin)", -2, 3, 10.0, key=f"{PAGE}_C")
    return {"C": float(C), "solver": "smo", "tol": 1e-3}


def sgd_controls(key: str, T_default: int, T_cap: int, *, row: bool = False) -> dict:
    """λ, T and the seed (side by side with ``row``)."""
    cols = st.columns(3) if row else [st.container()] * 3
    with cols[0]:
        lam = widgets.log_slider("λ (regularization)", -4, 1, 0.01, key=f"{key}_lam")
    with cols[1]:
        T = widgets.t_slider(key=f"{key}_T", default=T_default, cap=T_cap)
    with cols[2]:
        seed = widgets.seed_input(key)
    return {"lam": float(lam), "T": int(T), "random_state": seed}


TRAINER_CONTROLS = {
    "dual_svm": dual_controls,
    "kernel_pegasos": lambda: sgd_controls(PAGE, 10_000, 100_000),
}


def train(model: str, X, y, params: dict):
    """The trained model of ``params`` (cached run), or None (the reason is on the page)."""
    ran = ui.safe_run(RunContext(model, X, y, params))
    return None if ran is None else fs.trained_model(runners.view(ran))


def chart(fig, key: str) -> None:
    plotbox.chart(fig, key=f"{PAGE}_{key}", config=ui.PLOTLY_CONFIG)


st.title("The feature space")
X, y = ui.page_data(n_classes=2)
st.markdown(prose("feature_space"))
problem = ui.data_problem(X, y, 2)
if problem is None and len(X) > fs.MAX_N:
    problem = f"This page draws its views for n ≤ {fs.MAX_N} points (you have {len(X)})."
if problem:
    st.warning(problem)
    st.stop()
plane = ui.plane_ranges()

left, right = st.columns([1, 2.2], gap="medium")
with left:
    st.header("Kernel and model")
    st.button(
        "Seed 004's circle example",
        key=f"{PAGE}_circle",
        on_click=circle_example,
        help=fs.CIRCLE_HELP,
    )
    kernel_params = widgets.kernel_controls(PAGE, default="poly")
    model = widgets.radio("Model trained", MODELS, key=f"{PAGE}_model")
    trainer = TRAINER_CONTROLS[model]()
    trained = train(model, X, y, {**kernel_params, **trainer})

with right:
    st.header("1. The Gram matrix")
    kernel = fs.kernel_of(kernel_params)
    alpha = None if trained is None else trained.alpha
    order = fs.gram_order(y, alpha)
    gram = ff.gram_figure(kernel(X), y, order)
    chart(gram, "gram")
    access.figure_box(
        gram, key=f"{PAGE}_gram_table", label="View the Gram matrix as a table", first="point i"
    )
    st.caption(
        f"K_ij = K(x_i, x_j) for {kernel}: rows and columns by class (−1, then +1), within a "
        "class by |α| (the trained model's support vectors first). Hover a cell for i, j and "
        "K(x_i, x_j); the indices are the plane's point numbers."
    )
    mercer = st.expander(
        "Mercer's condition: the smallest eigenvalue of K (seed 004 §1.2)",
        key=f"{PAGE}_mercer",
        on_change="rerun",
    )
    if mercer.open:  # lazy: the eigenvalues only when asked for
        with mercer:
            seed_texts.render(seed_panels.mercer_blocks(kernel(X), X), key=f"{PAGE}_mercer")

st.header("2. Lin's Φ₂: the poly-2 kernel as a plane in 3-D")
lift_params, same = fs.lift_kernel(kernel_params)
st.latex(
    r"\Phi_2(x) = (\zeta,\ \sqrt{2\gamma\zeta}\,x_1,\ \sqrt{2\gamma\zeta}\,x_2,\ "
    r"\gamma x_1^2,\ \sqrt{2}\gamma x_1 x_2,\ \gamma x_2^2),\quad "
    r"\Phi_2(x)^\top\Phi_2(x') = (\zeta + \gamma x^\top x')^2"
)
lifted = trained if same else train(model, X, y, {**lift_params, **trainer})
if not same:
    st.caption(
        f"The page's kernel is not K₂: this view trains the same model with K₂ at "
        f"γ = {lift_params['gamma']:g}, ζ = {lift_params['coef0']:g}."
    )
if lifted is not None:
    lift = fs.phi2_lift(lifted)
    _, curve = fs.lifted_boundary(lift, *plane)
    show_seed004 = st.toggle(
        "Show seed 004's plane x₁² + x₂² = 1 (w = (−1, 1, 1) on φ(x) = (1, x₁², x₂²))",
        key=f"{PAGE}_seed004",
        bind="query-params",
    )
    fig = ff.lift_figure(
        lift.U,
        y,
        lifted.support,
        w_u=lift.w_u,
        offset=lift.offset,
        curve=curve,
        exact_plane=lift.exact_plane,
        seed004_gamma=lift.gamma if show_seed004 else None,
    )
    chart(fig, "lift")
    st.markdown(fs.describe_lift(lift, float(abs(lifted.decision(X)).max())))
    if show_seed004:
        right_n = fs.seed004_check(X, y)
        st.caption(f"Seed 004's w = (−1, 1, 1) classifies {right_n} of {len(X)} points right.")

st.header("3. The Gaussian kernel as an infinite-dimensional Φ")
rbf_params = fs.surface_kernel(kernel_params)
gamma = rbf_params["gamma"]
st.latex(
    r"e^{-\gamma\lVert x-x'\rVert^2} = e^{-\gamma\lVert x\rVert^2}e^{-\gamma\lVert x'\rVert^2}"
    r"\sum_{k=0}^{\infty}\frac{(2\gamma\,x^\top x')^k}{k!}"
)
n_terms = st.slider(
    "Taylor terms kept (k < terms)", 1, fs.MAX_TERMS, 10, key=f"{PAGE}_terms", bind="query-params"
)
errors = truncation_errors(X, gamma=gamma, max_terms=fs.MAX_TERMS)
c1, c2 = st.columns([1, 2])
c1.metric(f"max |K_trunc − K| with {n_terms} terms", f"{errors[n_terms - 1]:.3g}")
c1.metric("features of the truncated Φ", f"{fs.taylor_dimension(X.shape[1], n_terms):,}")
c1.caption(f"γ = {gamma:g}, on the current {len(X)} points.")
with c2:
    taylor = ff.truncation_figure(errors, n_terms)
    chart(taylor, "taylor")
    access.figure_box(taylor, key=f"{PAGE}_taylor_table")

st.header("4. The same run, explicitly on Φ(x)")
st.markdown(prose("feature_space_explicit"))
run_params = sgd_controls(f"{PAGE}_run", 1_000, 10_000, row=True)
try:
    run = explicit_run(X, y, kernel, **run_params, n_terms=n_terms)
except ValueError as exc:
    st.error(f"**Cannot run:** {exc}")
else:
    ui.show_metrics(
        {
            "dimension D of Φ": f"{run.n_features:,}",
            "max |Δ f(x_i)|": f"{run.max_df:.2e}",
            "max |Δ w̄|": f"{run.max_dw:.2e}",
            "max |ΦΦᵀ − K|": f"{run.map_error:.2e}",
        }
    )
    st.caption(feature_run.explicit_verdict(run))

st.header("5. f(x) as a landscape: Gaussian bumps around the support vectors")
surfaced = trained
if kernel_params.get("kernel") != "rbf":
    surfaced = train(model, X, y, {**rbf_params, **trainer})
if surfaced is not None:
    xs, ys, Z = fs.surface_values(surfaced, *plane)
    fig = ff.surface_figure(xs, ys, Z, X, y, surfaced.decision(X), surfaced.support)
    chart(fig, "surface")
    which = "the page's model" if surfaced is trained else "the page's model with this kernel"
    st.caption(
        f"f(x) = Σ_j c_j exp(−γ‖x − x_j‖²) + b with γ = {gamma:g} ({which}): each support "
        "vector (ringed) raises or lowers a bump of width ~1/√γ; the black line on the "
        "surface is the boundary f = 0. Drag to rotate."
    )
