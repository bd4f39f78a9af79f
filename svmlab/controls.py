"""Streamlit widgets shared by the algorithm pages.

Log-scale sliders, kernel controls with the formula, the safe runner (every svmcore
``ValueError`` becomes a message on the page), the snapshot scrubber with step
buttons, the browser-side animation, the step inspector beside the pseudo-code, the
metrics row and the scikit-learn check. The pages only lay these out.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmcore.exceptions import NotSeparableError
from svmlab import pseudocode, runners
from svmlab.data_panel import data_canvas, data_controls, get_data, load_preset, plane_ranges
from svmlab.figures import alpha_bar_figure, plane_figure

__all__ = [
    "check_binary_data",
    "data_canvas",
    "data_controls",
    "get_data",
    "inspector",
    "kernel_controls",
    "log_slider",
    "plane_ranges",
    "safe_run",
    "scrubber",
    "show_animation",
    "show_check",
    "soft_margin_offer",
]

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def _fmt(v: float) -> str:
    return f"{v:.3g}" if 1e-3 <= abs(v) < 1e4 else f"{v:.0e}"


def log_options(lo_exp: float, hi_exp: float, per_decade: int = 4) -> list[float]:
    """Values 10^lo … 10^hi, ``per_decade`` per decade, rounded to 3 significant digits."""
    num = round((hi_exp - lo_exp) * per_decade) + 1
    return [float(f"{v:.3g}") for v in np.logspace(lo_exp, hi_exp, num)]


def log_slider(label, lo_exp, hi_exp, default, *, key, help=None, per_decade=4, fmt=_fmt):
    """A select-slider over log-spaced values (ranges spanning decades)."""
    options = log_options(lo_exp, hi_exp, per_decade)
    default = min(options, key=lambda v: abs(np.log10(v) - np.log10(default)))
    return st.select_slider(label, options=options, value=default, key=key, help=help,
                            format_func=fmt)  # fmt: skip


def kernel_controls(prefix: str, default: str = "rbf") -> dict:
    """Kernel choice and its parameters (γ, Q, ζ), with the formula; returns params."""
    names = ["linear", "poly", "rbf"]
    titles = {"linear": "linear", "poly": "polynomial", "rbf": "Gaussian (RBF)"}
    kernel = st.selectbox(
        "Kernel K", names, index=names.index(default), key=f"{prefix}_kernel",
        format_func=titles.get,
    )  # fmt: skip
    params = {"kernel": kernel}
    if kernel in ("poly", "rbf"):
        params["gamma"] = log_slider(
            "γ (gamma)", -2, 2, 1.0, key=f"{prefix}_gamma",
            help="RBF: larger γ = narrower bumps around each point.",
        )  # fmt: skip
    if kernel == "poly":
        params["degree"] = st.slider("Q (degree)", 1, 6, 2, key=f"{prefix}_degree")
        params["coef0"] = st.slider("ζ (coef0)", 0.0, 5.0, 1.0, 0.5, key=f"{prefix}_coef0")
    import svmcore

    k = svmcore.make_kernel(
        kernel,
        gamma=params.get("gamma", 1.0),
        degree=params.get("degree", 3),
        coef0=params.get("coef0", 1.0),
    )
    st.latex(k.latex)
    if k.name != "linear":
        st.latex(k.latex_values)
    return params


def check_binary_data(X, y, *, min_points: int = 2) -> str | None:
    """A message if the binary data cannot be trained on, else None."""
    n = 0 if X is None else len(X)
    if n < min_points:
        return f"Add at least {min_points} points (one of each class) — you have {n}."
    labels = set(np.unique(np.asarray(y)).tolist())
    if len(labels) < 2:
        return (
            "All points are in one class: add at least one point of the other class "
            "(pick it in the data panel) to train a classifier."
        )
    return None


def check_multiclass_data(X, y) -> str | None:
    """A message if the multiclass data cannot be trained on, else None."""
    n = 0 if X is None else len(X)
    if n < 2 or len(np.unique(np.asarray(y))) < 2:
        return "Add points of at least two classes to train a multiclass classifier."
    return None


def safe_run(algorithm: str, X, y, **params):
    """Run (cached); any svmcore ValueError is shown on the page and None returned."""
    try:
        return runners.run(algorithm, X, y, **params)
    except NotSeparableError as exc:
        st.warning(f"**Not separable:** {exc}")
        soft_margin_offer()
        return None
    except runners.CapError as exc:
        st.warning(f"**Above the app's cap:** {exc}")
        return None
    except (ValueError, FloatingPointError, OverflowError) as exc:
        st.error(f"**Cannot train with these settings:** {exc}")
        return None


def soft_margin_offer() -> None:
    """The button that switches the dual page to a soft margin."""

    def _to_soft():
        st.session_state["dual_margin"] = "soft margin (0 ≤ α ≤ C)"

    st.button("Use a soft margin instead (C = 1)", on_click=_to_soft, key="offer_soft")


def scrubber(trace, *, key: str, signature: str) -> int:
    """Select a snapshot: a slider over t plus step back / forward buttons.

    Resets to the last snapshot whenever ``signature`` (data + parameters) changes.
    Returns the snapshot index k.
    """
    S = trace.n_snapshots
    if S <= 1:
        st.caption(f"One snapshot only (t = {int(trace.t[0]) if S else 0}).")
        return 0
    sig_key = f"{key}__sig"
    if st.session_state.get(sig_key) != signature or st.session_state.get(key, 0) >= S:
        st.session_state[sig_key] = signature
        st.session_state[key] = S - 1

    def _move(delta):
        st.session_state[key] = int(np.clip(st.session_state.get(key, S - 1) + delta, 0, S - 1))

    c1, c2, c3 = st.columns([1, 1, 6], vertical_alignment="bottom")
    c1.button("◀ step", key=f"{key}_back", on_click=_move, args=(-1,), help="previous snapshot")
    c2.button("step ▶", key=f"{key}_fwd", on_click=_move, args=(1,), help="next snapshot")
    t = np.asarray(trace.t)
    k = c3.select_slider(
        "Scrub through the run (snapshot at iteration t; fine grid when paused here)",
        options=list(range(S)),
        key=key,
        format_func=lambda j: f"t = {int(t[j]):,}",
    )
    return int(k)


def show_animation(algorithm: str, X, y, params: dict, *, key: str) -> None:
    """The Plotly-native animation (plays in the browser), opt-out for big data."""
    on = st.toggle(
        "Animate the run in the browser (50 frames, coarse grid)",
        value=len(X) <= 300,
        key=f"{key}_anim_on",
        help="Play, pause and scrub run in your browser; no round trip to Python.",
    )
    if not on:
        return
    fig = runners.run_frames(algorithm, X, y, n_frames=50, plane=plane_ranges(), **params)
    st.plotly_chart(fig, key=f"{key}_anim", config=PLOTLY_CONFIG)
    st.caption(
        "▶ slow / play / fast start the animation, ❙❙ pause stops it, the slider scrubs. "
        "The yellow ring marks the point sampled at that step (first steps only)."
    )


def inspector(trace, *, code: str, key: str, figure_at, y=None, projection: bool = False,
              lam=None) -> None:  # fmt: skip
    """Step-by-step view of the first recorded steps beside the pseudo-code.

    ``figure_at(snapshot_index, highlight, title)`` returns the figure of the model at
    the last snapshot taken at or before the step, with the sampled point highlighted.
    """
    n_steps = trace.n_steps
    if n_steps == 0:
        st.info("This run recorded no individual steps.")
        return
    k = st.slider(
        f"Step (the first {n_steps} steps are recorded)", 1, n_steps, 1, key=f"{key}_step"
    )
    step = {name: values[k - 1] for name, values in trace.steps.items()}
    left, right = st.columns([1.1, 1])
    with left:
        active = pseudocode.active_lines(code, step, projection=projection)
        st.markdown(pseudocode.render_html(code, active), unsafe_allow_html=True)
        rows = pseudocode.step_values(code, step, y=y, lam=lam)
        st.table({"": [r[0] for r in rows], "value": [r[1] for r in rows]})
    with right:
        t = int(step["t"])
        snap = trace.index_at(t)
        i = step.get("i")
        hl = None if i is None else int(i)
        if "j" in step:  # SMO: the pair moved
            hl = [int(i), int(step["j"])]
        fig = figure_at(
            snap,
            hl,
            f"model at t = {int(trace.t[snap])} (snapshot ≤ step t = {t})",
        )
        fig.update_layout(height=420)
        st.plotly_chart(fig, key=f"{key}_step_fig", config=PLOTLY_CONFIG)


def show_alpha_bars(alpha, y, *, key: str, C=None, highlight=None) -> None:
    """The α bar chart under the data canvas; the canvas links their hover (bar j <-> point j)."""
    st.plotly_chart(
        alpha_bar_figure(alpha, y, C=C, highlight=highlight),
        key=f"{key}_alpha",
        config=PLOTLY_CONFIG,
    )
    st.caption("Hover a bar to ring its point in the plane above; hover a point to find its bar.")


def show_check(key: str, compute) -> None:
    """A button that runs ``compute()`` -> list of CheckLine and shows the table."""
    if st.button("Check against scikit-learn", key=f"{key}_check"):
        try:
            with st.spinner("Solving the same problem with scikit-learn…"):
                lines = compute()
        except Exception as exc:
            st.error(f"scikit-learn could not solve this problem: {exc}")
            return
        mark = {True: "✓ agree", False: "✗ differs", None: ""}  # no emoji: not every font has them
        st.table(
            {
                "": [ln.label for ln in lines],
                "SVM Lab": [ln.ours for ln in lines],
                "scikit-learn": [ln.sklearn for ln in lines],
                "agree": [mark[ln.ok] for ln in lines],
            }
        )


def show_metrics(values: dict) -> None:
    """A row of st.metric, one per entry."""
    items = list(values.items())
    per_row = 4
    for start in range(0, max(len(items), 1), per_row):
        cols = st.columns(per_row)
        for col, (label, value) in zip(cols, items[start : start + per_row], strict=False):
            col.metric(label, value)


T_OPTIONS = [10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000]


_SCHEDULES = {
    "linear": {
        "pegasos": "Pegasos paper: ηₜ = 1/(λt), wₜ = θₜ/(λ(t−1)) (seed 002)",
        "ssbd": "SSBD: w(t) = θ(t)/(λt) (§15.5)",
    },
    "kernel": {
        "ssbd": "SSBD: α(t) = β(t)/(λt) (seed 000)",
        "pegasos": "Pegasos paper: α(t) = β(t)/(λ(t−1)) (seed 002)",
    },
}
_OUTPUTS = {
    "linear": {"average": "averaged w̄ (the texts)", "last": "last iterate"},
    "kernel": {"average": "averaged ᾱ (the texts)", "last": "last α(T+1)"},
}
_SAMPLINGS = {
    "uniform": "uniform at random (the texts)",
    "cyclic": "cyclic epochs (seed 002's loop)",
    "shuffle": "shuffled epochs",
}


def sgd_controls(page: str, *, kind: str, n: int, T_default: int, T_cap: int) -> dict:
    """λ (with C = 1/(λn)), T, schedule, output and sampling: the Pegasos pages' controls.

    ``kind`` is "linear" (w, θ; the paper's schedule first) or "kernel" (α, β; SSBD's
    schedule first, as the texts default). Returns the keyword arguments for svmcore.
    """
    lam = log_slider("λ (regularization)", -4, 1, 0.01, key=f"{page}_lam")
    if n:
        st.caption(f"λ = {lam:g} ⇔ C = 1/(λn) = {1 / (lam * n):.4g} in scikit-learn")
    T = t_slider(key=f"{page}_T", default=T_default, cap=T_cap)
    schedule = st.radio(
        "Step-size schedule", list(_SCHEDULES[kind]), format_func=_SCHEDULES[kind].get,
        key=f"{page}_schedule",
    )  # fmt: skip
    averaging = st.radio(
        "Output", list(_OUTPUTS[kind]), format_func=_OUTPUTS[kind].get, key=f"{page}_avg",
        horizontal=True,
    )  # fmt: skip
    sampling = st.selectbox(
        "Sampling of i", list(_SAMPLINGS), format_func=_SAMPLINGS.get, key=f"{page}_sampling"
    )
    return {"lam": float(lam), "T": int(T), "schedule": schedule, "averaging": averaging,
            "sampling": sampling}  # fmt: skip


def run_and_plane(algorithm: str, X, y, params: dict, *, page: str, plane, problem=None):
    """Check the data, run (cached), and draw the plane as the clickable canvas with its
    scrubber. Returns ``(result, k, highlight)``, or ``(None, None, None)`` when there is
    nothing to show (the reason is on the page and the points stay drawable)."""
    problem = problem or check_binary_data(X, y)
    result = None
    if problem:
        st.warning(problem)
    else:
        result = safe_run(algorithm, X, y, **params)
    if result is None:
        points_canvas(X, y, key=f"{page}_canvas")
        return None, None, None
    slot = st.container()
    k = scrubber(result.trace, key=f"{page}_snap", signature=runners.data_key(X, y) + repr(params))
    hl = runners.sampled_index(result.trace, k)
    with slot:
        fig = runners.plane_at(algorithm, X, y, result, k, highlight=hl, plane=plane, **params)
        canvas(fig, key=f"{page}_canvas")
    return result, k, hl


def run_report(algorithm: str, X, y, result, k: int, params: dict, *, page: str, code: str,
               plane, metrics: dict, check, check_caption: str, dual: bool = False,
               step_title: str = "Step by step: the first steps beside the pseudo-code",
               **inspector_kwargs) -> None:  # fmt: skip
    """What every binary page shows below its plane: metrics, curves, playback, the step
    inspector beside the pseudo-code, and the on-demand check against scikit-learn."""
    from svmlab.figures import curves_figure

    show_metrics(metrics)
    st.plotly_chart(
        curves_figure(result.trace, dual=dual), key=f"{page}_curves", config=PLOTLY_CONFIG
    )
    st.subheader("Playback")
    show_animation(algorithm, X, y, params, key=page)
    if result.trace.n_steps:
        with st.expander(step_title, expanded=False):
            inspector(
                result.trace, code=code, key=page, y=y,
                figure_at=lambda j, hl, title: runners.plane_at(
                    algorithm, X, y, result, j, highlight=hl, title=title, plane=plane, **params
                ),
                **inspector_kwargs,
            )  # fmt: skip
    st.subheader("Check against scikit-learn")
    st.caption(check_caption)
    show_check(page, check)


def t_slider(*, key: str, default: int, cap: int) -> int:
    """T on a log scale up to the page's cap (the cap is stated)."""
    options = [t for t in T_OPTIONS if t <= cap]
    return st.select_slider(
        f"T (iterations; capped at {cap:,})", options=options, value=default, key=key,
        format_func=lambda v: f"{v:,}",
    )  # fmt: skip


def page_data(n_classes: int = 2):
    """Render the data widgets (sidebar) and return the shared points of this page."""
    data_controls(n_classes=n_classes)
    X, y = get_data(n_classes=n_classes)
    return np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y)


def canvas(fig, *, key: str) -> None:
    """The clickable canvas (the data panel applies a click before the page reruns)."""
    data_canvas(fig, key=key)


def load_k_blobs(k: int) -> None:
    """Replace the points by k Gaussian blobs (undoable in the data panel)."""
    load_preset("k_blobs", k=int(k))


def points_canvas(X, y, *, key: str) -> None:
    """The canvas with the points only (no model yet), so that points can still be added."""
    xr, yr = plane_ranges()
    canvas(plane_figure(X, y, xrange=xr, yrange=yr), key=key)


def delta_editor(k: int, *, key: str):
    """An editable k × k cost matrix Δ[y′, y] (rows ŷ = y′, columns the true y); 0-1 by default.

    Returns a nested tuple (hashable for the cache); svmcore validates it.
    """
    import pandas as pd

    default = pd.DataFrame(
        1.0 - np.eye(k),
        index=[f"ŷ={j}" for j in range(k)],
        columns=[f"y={j}" for j in range(k)],
    )
    edited = st.data_editor(default, key=f"{key}_delta_{k}", width="stretch")
    return tuple(tuple(float(v) for v in row) for row in np.asarray(edited, dtype=float))


def recommended_eta(X, T: int, B: float, bias: bool):
    """Corollary 17.2's η for a norm bound B (None if not computable)."""
    try:
        from svmcore.sgd.multiclass_sgd import recommended_eta as _eta

        return _eta(X, T, B, bias=bias)
    except (ImportError, ValueError):
        return None


def show_kkt(result) -> None:
    """The per-point KKT report of a dual run, as a table (whatever form svmcore gives)."""
    kkt = getattr(result, "kkt", None)
    st.caption(
        "α_n = 0 ⇒ y_n f(x_n) ≥ 1;  0 < α_n < C ⇒ y_n f(x_n) = 1;  α_n = C ⇒ y_n f(x_n) ≤ 1 "
        f"(largest violation: {getattr(result, 'max_kkt_violation', float('nan')):.3g})."
    )
    if kkt is None:
        return
    try:
        if hasattr(kkt, "_asdict"):
            kkt = kkt._asdict()
        elif hasattr(kkt, "__dataclass_fields__"):
            kkt = {f: getattr(kkt, f) for f in kkt.__dataclass_fields__}
        if isinstance(kkt, dict):
            cols = {k: np.asarray(v) for k, v in kkt.items() if np.ndim(v) == 1}
            st.dataframe(cols, height=260)
        else:
            st.dataframe(kkt, height=260)
    except Exception:
        st.text(str(kkt)[:5000])


def show_qp(result) -> None:
    """Shapes and a corner of the lecture's Q, p, A, c."""
    for name in ("Q", "p", "A", "c"):
        value = getattr(result, name, None)
        if value is None:
            continue
        arr = np.asarray(value)
        st.markdown(f"**{name}** — shape {arr.shape}")
        st.dataframe(arr[:8, :8] if arr.ndim == 2 else arr[:8].reshape(1, -1), height=180)
