"""Parameter widgets the algorithm specs build their controls from.

Log-scale sliders, the T slider with the page's cap, the kernel controls with their
formula, the SGD options (λ, T, schedule, output, sampling) and the Δ editor. Every
widget key is ``f"{key}_{name}"`` with ``key`` the algorithm's registry key (its svmcore
function name), so one algorithm has one key everywhere. No runs, no figures here.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import svmcore
from svmlab.algorithms.bound_widgets import BIND  # every parameter widget is bound to the URL

__all__ = [
    "BIND",
    "T_OPTIONS",
    "delta_editor",
    "kernel_controls",
    "lambda_caption",
    "log_options",
    "log_slider",
    "output_labels",
    "sgd_controls",
    "t_slider",
]


T_OPTIONS = [10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000]

KERNEL_TITLES = {"linear": "linear", "poly": "polynomial", "rbf": "Gaussian (RBF)"}
RBF_FORMS = {
    "gamma": "exp(−γ‖x − x′‖²) — SSBD, Lin",
    "sigma": "exp(−‖x − x′‖²/σ) — seed 004",
}

#: Step-size schedules, outputs and samplings, each label naming the text that uses it.
SCHEDULES = {
    "linear": {
        "pegasos": "η_t = 1/(λt) — seed 002, Algorithm 1 (the Pegasos paper)",
        "ssbd": "w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt) — SSBD §15.5 (seed 000's linear case)",
    },
    "kernel": {
        "ssbd": "α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt) — SSBD's box (seed 000)",
        "pegasos": "β⁽ᵗ⁾ = λ(t−1)α⁽ᵗ⁾ — seed 002, Algorithm 2",
    },
}
#: The outputs under the paper's schedule (``output_labels`` gives SSBD's schedule's).
#: SSBD's SGD with its average is §15.5 (linear); seed 000 is §16.3, its kernel box.
OUTPUTS = {
    "linear": {
        "average": "averaged w̄ = (1/T) Σ_t w_t — SSBD §15.5",
        "last": "last iterate w_{T+1} — seed 002, Algorithm 1",
    },
    "kernel": {
        "average": "averaged ᾱ = (1/T) Σ_t α⁽ᵗ⁾ — SSBD §16.3's box (seed 000)",
        "last": "last α = β⁽ᵀ⁺¹⁾/(λT) — seed 002, Algorithm 2",
    },
}
#: The last iterate under SSBD's schedule, w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt), α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt), at t = T + 1.
SSBD_LAST = {
    "linear": "last iterate w⁽ᵀ⁺¹⁾ = θ⁽ᵀ⁺¹⁾/(λ(T+1)) — SSBD's box stopped after step T",
    "kernel": "last α⁽ᵀ⁺¹⁾ = β⁽ᵀ⁺¹⁾/(λ(T+1)) — SSBD's box stopped after step T",
}


def output_labels(kind: str, schedule: str) -> dict:
    """The Output radio's labels under ``schedule``: the last iterate is β⁽ᵀ⁺¹⁾/(λT) under
    the paper's (seed 002's Algorithm 2), β⁽ᵀ⁺¹⁾/(λ(T+1)) under SSBD's."""
    labels = dict(OUTPUTS[kind])
    if schedule == "ssbd":
        labels["last"] = SSBD_LAST[kind]
    return labels


def lambda_caption(lam: float) -> str:
    """How this page's λ (λ/2‖w‖², SSBD §15.5, seed 002) reads in seed 004."""
    return (
        f"Seed 004 writes its objective (1) as λ‖w‖² + mean hinge (no ½): there the same "
        f"objective has λ = {lam / 2:g}, half of this one. Its Algorithm 1 "
        f"(α^t = β^t/(λt), SSBD's box) is the SGD of λ/2‖w‖², with this page's λ = {lam:g}."
    )


SAMPLINGS = {
    "uniform": "uniform at random — SSBD, the Pegasos paper",
    "cyclic": "cyclic epochs — seed 002's for iter … for j … loop",
    "shuffle": "shuffled epochs (a fresh order each epoch)",
}


def fmt(v: float) -> str:
    """A slider value: 3 significant digits, or scientific outside [1e−3, 1e4)."""
    return f"{v:.3g}" if 1e-3 <= abs(v) < 1e4 else f"{v:.0e}"


def log_options(lo_exp: float, hi_exp: float, per_decade: int = 4) -> list[float]:
    """Values 10^lo … 10^hi, ``per_decade`` per decade, rounded to 3 significant digits."""
    num = round((hi_exp - lo_exp) * per_decade) + 1
    return [float(f"{v:.3g}") for v in np.logspace(lo_exp, hi_exp, num)]


def log_slider(label, lo_exp, hi_exp, default, *, key, help=None, per_decade=4):
    """A select-slider over log-spaced values (ranges spanning decades)."""
    options = log_options(lo_exp, hi_exp, per_decade)
    default = min(options, key=lambda v: abs(np.log10(v) - np.log10(default)))
    return st.select_slider(
        label, options=options, value=default, key=key, help=help, format_func=fmt, bind=BIND
    )


def t_slider(*, key: str, default: int, cap: int) -> int:
    """T on a log scale up to the page's cap (the cap is stated)."""
    options = [t for t in T_OPTIONS if t <= cap]
    return st.select_slider(
        f"T (iterations; capped at {cap:,})",
        options=options,
        value=default,
        key=key,
        format_func=lambda v: f"{v:,}",
        bind=BIND,
    )


def kernel_controls(key: str, default: str = "rbf") -> dict:
    """Kernel choice and its parameters (γ, Q, ζ), with the formula; returns params."""
    names = list(KERNEL_TITLES)
    kernel = st.selectbox(
        "Kernel K",
        names,
        index=names.index(default),
        key=f"{key}_kernel",
        format_func=KERNEL_TITLES.get,
        bind=BIND,
    )
    params = {"kernel": kernel}
    form = "gamma"
    if kernel == "rbf":
        form = radio("Gaussian written as", RBF_FORMS, key=f"{key}_rbf_form", horizontal=True)
    if form == "sigma":
        sigma = log_slider("σ (seed 004: exp(−‖x − x′‖²/σ))", -2, 2, 1.0, key=f"{key}_sigma")
        params["gamma"] = 1.0 / float(sigma)
        st.caption(f"σ = {sigma:g} ⇔ γ = 1/σ = {params['gamma']:.4g} (the same kernel)")
        st.latex(svmcore.rbf_sigma(float(sigma)).latex)
        st.latex(svmcore.rbf_sigma(float(sigma)).latex_values)
        return params
    if kernel in ("poly", "rbf"):
        params["gamma"] = log_slider(
            "γ (gamma)",
            -2,
            2,
            1.0,
            key=f"{key}_gamma",
            help="RBF: larger γ = narrower bumps around each point.",
        )
    if kernel == "poly":
        params["degree"] = st.slider("Q (degree)", 1, 6, 2, key=f"{key}_degree", bind=BIND)
        params["coef0"] = st.slider("ζ (coef0)", 0.0, 5.0, 1.0, 0.5, key=f"{key}_coef0", bind=BIND)
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


def radio(label: str, labels: dict, *, key: str, horizontal: bool = False):
    """A radio over the keys of ``labels``, each shown with its label."""
    return st.radio(
        label, list(labels), format_func=labels.get, key=key, horizontal=horizontal, bind=BIND
    )


def sgd_controls(key: str, *, kind: str, n: int, T_default: int, T_cap: int) -> dict:
    """λ (with C = 1/(λn)), T, schedule, output and sampling: the Pegasos pages' controls.

    ``kind`` is "linear" (w, θ; the paper's schedule first) or "kernel" (α, β; SSBD's
    schedule first, as the texts default). Returns the keyword arguments for svmcore.
    """
    lam = log_slider("λ (regularization)", -4, 1, 0.01, key=f"{key}_lam")
    if n:
        st.caption(f"λ = {lam:g} ⇔ C = 1/(λn) = {1 / (lam * n):.4g} in scikit-learn")
    st.caption(lambda_caption(float(lam)))
    T = t_slider(key=f"{key}_T", default=T_default, cap=T_cap)
    schedule = radio("Step-size schedule", SCHEDULES[kind], key=f"{key}_schedule")
    averaging = radio("Output", output_labels(kind, schedule), key=f"{key}_avg")
    sampling = st.selectbox(
        "Sampling of i",
        list(SAMPLINGS),
        format_func=SAMPLINGS.get,
        key=f"{key}_sampling",
        bind=BIND,
    )
    return {
        "lam": float(lam),
        "T": int(T),
        "schedule": schedule,
        "averaging": averaging,
        "sampling": sampling,
    }


CLASS_WEIGHTS = {
    "none": "none — every point weighs 1",
    "balanced": "balanced c_± = n/(2n_±) — seed 002 §2.1",
    "custom": "custom c_+ (c_− = 1) — seed 002 §2.1",
}


#: The same choices for k classes (the multiclass SGD runs' weighted hinge).
MULTICLASS_WEIGHTS = {
    "none": "none — every point weighs 1",
    "balanced": "balanced c_y = n/(k n_y) — seed 002 §2.1",
    "custom": "custom c_y per class — seed 002 §2.1",
}


def class_weight_control(key: str, classes=None):
    """Seed 002 §2.1's class weights c_y on the hinge loss: None, "balanced" or a dict.

    ``classes`` (the sorted labels of a multiclass run): one weight per class, the dict
    keyed by those labels; None: the binary ±1 control.
    """
    choices = CLASS_WEIGHTS if classes is None else MULTICLASS_WEIGHTS
    cw = st.selectbox(
        "Class weights (seed 002 §2.1)",
        list(choices),
        format_func=choices.get,
        key=f"{key}_cw",
        bind=BIND,
    )
    if cw == "balanced":
        return "balanced"
    if cw == "custom" and classes is not None:
        out = {}
        for j, label in enumerate(classes):
            label = label.item() if hasattr(label, "item") else label
            out[label] = float(
                log_slider(f"weight c_y of class {label}", -1, 1, 1.0, key=f"{key}_cw_{j}")
            )
        return out
    if cw == "custom":
        w_pos = log_slider("weight c_+ of class +1 (class −1 has 1)", -1, 1, 1.0, key=f"{key}_cwp")
        return {-1: 1.0, 1: float(w_pos)}
    return None


def seed_input(key: str) -> int:
    """The random seed of a run."""
    return int(st.number_input("Seed", 0, 1_000_000, 0, key=f"{key}_seed", bind=BIND))


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
