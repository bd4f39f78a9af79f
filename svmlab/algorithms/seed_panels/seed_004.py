"""Seed 004 beside a kernel run: the problem in α ((4), (5)), the representer argument and
Mercer's condition, with the run's numbers."""

from __future__ import annotations

import numpy as np

from svmlab.algorithms.seed_panels.base import SeedPanel, fmt, snapshot_t, vec
from svmlab.plot.seed_figures import Caption, Figure, Latex, Markdown, Table, spectrum_figure
from svmlab.study import kernel_alpha
from svmlab.study import pegasos_derivation as pd

__all__ = ["PROBLEM_IN_ALPHA", "REPRESENTER", "mercer_blocks"]


# -- seed 004: the problem in α, the representer argument, Mercer -------------------------
def problem_in_alpha_blocks(result, X, y, k: int, params: dict) -> list:
    """Seed 004's (4) and (5) at the run's α, against the run's own objective (16.5)."""
    X = np.asarray(X, dtype=float)
    s = result.trace.snapshots
    alpha = np.asarray(s["alpha"][k], dtype=float)
    lam = float(params["lam"])
    cw = params.get("class_weight")
    c = pd.sample_weights(np.asarray(y, dtype=float), cw)
    K = result.kernel(X)
    ob = kernel_alpha.objective_5(K, y, alpha, lam / 2.0, c)
    run = float(s["objective"][k]) if "objective" in s else float("nan")
    ci = "c_{y_i}" if cw else ""
    return [
        Markdown(
            f"Seed 004 §1.1 at this run's α (t = {snapshot_t(result, k):,}; SSBD's signed "
            "α_j, w = Σ_j α_j φ(x_j)). Seed 004 writes λ‖w‖² (no ½): its λ is half of this "
            f"page's, λ₍₄₎ = {lam:g}/2 = {lam / 2:g}."
            + (" With class weights each hinge term carries c_{y_i} (seed 002 §2.1)." if cw else "")
        ),
        Latex(
            rf"(4)\;\frac1n\sum_{{i=1}}^n{ci}\max\Big\{{0,1-y_i\sum_{{j=1}}^n\alpha_jK_{{i,j}}\Big\}}"
            r"+\lambda\sum_{i,j=1}^n\alpha_i\alpha_jK_{i,j}"
            rf"\qquad(5)\;\frac1n\sum_{{i=1}}^n{ci}\max\{{0,1-y_i(K\alpha)_i\}}"
            r"+\lambda\,\alpha^\top K\alpha"
        ),
        Table(
            {
                "term": [
                    "(1/n) Σ_i " + (ci + " " if cw else "") + "max{0, 1 − y_i (Kα)_i}",
                    "Σ_{i,j} α_i α_j K_ij  (4)",
                    "αᵀKα  (5)",
                    "λ₍₄₎ = λ/2",
                    "objective (4)",
                    "objective (5)",
                    "the run's objective λ/2 αᵀKα + mean hinge (SSBD's 16.5)",
                ],
                "value": [
                    fmt(ob.hinge),
                    fmt(ob.quadratic_sum),
                    fmt(ob.quadratic_matrix),
                    fmt(lam / 2.0),
                    fmt(ob.value_4),
                    fmt(ob.value),
                    fmt(run),
                ],
            }
        ),
        Markdown(
            f"**(4) = (5) = the run's objective** to "
            f"{max(abs(ob.value_4 - ob.value), abs(ob.value - run)):.2g}: the same problem, "
            "with seed 004's λ half of SSBD's."
        ),
    ]


PROBLEM_IN_ALPHA = SeedPanel(
    "problem_5",
    "Seed 004: the problem in α — objectives (4) and (5) at this run's α",
    problem_in_alpha_blocks,
)


def representer_blocks(result, X, y, k: int, params: dict) -> list:
    """Seed 004's span argument (w = Σ α_j φ(x_j) explicitly) and Mercer's PSD K."""
    X = np.asarray(X, dtype=float)
    alpha = np.asarray(result.trace.snapshots["alpha"][k], dtype=float)
    kernel = result.kernel
    K = kernel(X)
    spec = kernel_alpha.gram_spectrum(K)
    mercer = Markdown(
        f"Mercer (seed 004 §1.2): K must be positive semidefinite on every x_1, …, x_n. Here "
        f"the smallest eigenvalue of K is {spec.smallest:.4g} (largest {spec.largest:.4g}; "
        f"rounding allows −{spec.tol:.1g}): "
        + ("**PSD** ✓." if spec.psd else f"**not PSD** ({spec.n_negative} negative).")
        + " The feature-space page shows the whole spectrum."
    )
    blocks = [
        Markdown(
            "Seed 004 §1.1: an optimal w lies in the span of φ(x_1), …, φ(x_n) — a component "
            "orthogonal to the span changes no ⟨w, φ(x_i)⟩ and only adds to ‖w‖ — so "
            "w = Σ_j α_j φ(x_j): the kernel run's α is that w."
        ),
        Latex(
            r"w=\sum_{j=1}^n\alpha_j\phi(x_j),\quad\langle w,\phi(x_i)\rangle=(K\alpha)_i,"
            r"\quad\|w\|^2=\alpha^\top K\alpha"
        ),
    ]
    try:
        rep = kernel_alpha.representer(X, alpha, kernel)
    except ValueError as exc:
        return [*blocks, Markdown(f"With {kernel}: {exc}."), mercer]
    D = rep.w.shape[0]
    shown = min(D, 10)
    blocks += [
        Caption(
            f"With {kernel}, φ is explicit (dimension {D}; svmcore.kernel_features): "
            f"w = Σ_j α_j φ(x_j) at t = {snapshot_t(result, k):,}"
            + (f", its first {shown} coordinates:" if shown < D else ":")
        ),
        Table({"coordinate": [f"w[{j + 1}]" for j in range(shown)], "value": vec(rep.w[:shown])}),
        Table(
            {
                "": ["‖w‖² (explicit)", "αᵀKα", "max_i |⟨w, φ(x_i)⟩ − (Kα)_i|"],
                "value": [
                    fmt(rep.norm2_explicit),
                    fmt(rep.norm2_kernel),
                    f"{float(np.max(np.abs(rep.f_explicit - rep.f_kernel))):.2g}",
                ],
            }
        ),
        Markdown(
            f"**The explicit w and the kernel form agree to {rep.max_difference:.2g}**: "
            "the same decision values and the same norm, so (1) in w and (5) in α are one "
            "objective."
        ),
        mercer,
    ]
    return blocks


REPRESENTER = SeedPanel(
    "representer",
    "Seed 004: the representer argument w = Σ α_j φ(x_j), and Mercer's condition",
    representer_blocks,
)


def mercer_blocks(K, X) -> list:
    """Seed 004 §1.2 for the feature page: K's spectrum beside a function that fails."""
    spec = kernel_alpha.gram_spectrum(K)
    bad = kernel_alpha.gram_spectrum(kernel_alpha.distance_gram(X))
    return [
        Figure(
            spectrum_figure(
                spec.eigenvalues, other=bad.eigenvalues, other_name="−‖x − x′‖² (no kernel)"
            )
        ),
        Markdown(
            f"Mercer (seed 004 §1.2): K is a Gram matrix of some φ when it is positive "
            f"semidefinite on every x_1, …, x_n. On these {K.shape[0]} points its smallest "
            f"eigenvalue is **{spec.smallest:.4g}** (largest {spec.largest:.4g}; rounding "
            f"allows −{spec.tol:.1g}): "
            + ("**PSD** ✓." if spec.psd else f"**not PSD** ({spec.n_negative} below −tol).")
            + f" The function −‖x − x′‖² is symmetric but no kernel: its smallest eigenvalue "
            f"here is {bad.smallest:.4g} (its diagonal is 0, so its eigenvalues sum to 0)."
        ),
    ]
