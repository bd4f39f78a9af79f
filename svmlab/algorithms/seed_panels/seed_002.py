"""Seed 002 beside a linear run: Algorithm 1 → Algorithm 2 (the telescoping sum) and
the Perceptron → Pegasos change, with the run's numbers."""

from __future__ import annotations

import numpy as np

from svmlab.algorithms.seed_panels.base import SeedPanel, clean, fmt, run_indices, snapshot_t, vec
from svmlab.plot.pseudocode import num
from svmlab.plot.seed_figures import Caption, Html, Latex, Markdown, Table, code_pairs_html
from svmlab.study import pegasos_derivation as pd

__all__ = ["PERCEPTRON_TO_PEGASOS", "TELESCOPING"]


def _one_sample_problems(params: dict) -> str:
    """The options under which Algorithm 1's update is not one sum of the data ("" if none)."""
    why = []
    if int(params.get("batch_size", 1)) > 1:
        why.append("mini-batches (θ then sums (1/k) Σ over A_t)")
    if params.get("projection"):
        why.append("the projection (it rescales w after the sum)")
    if params.get("bias") == "free":
        why.append("a free b (b moves by η_t y without the shrink (1 − η_tλ))")
    if params.get("w_ref") is not None:
        why.append("w_r (each step adds λ w_r)")
    return ", ".join(why)


# -- seed 002: Algorithm 1 → Algorithm 2 --------------------------------------------------
def telescoping_blocks(result, X, y, k: int, params: dict) -> list:
    """Seed 002 §3's telescoping sum with this run's θ, β and w at snapshot k."""
    why = _one_sample_problems(params)
    if why:
        raise ValueError(
            "Seed 002's derivation is for its Algorithm 1 with one sample per step; this run "
            "uses " + why + ". Untick them to see the telescoping sum."
        )
    X = np.asarray(X, dtype=float)
    t = snapshot_t(result, k)
    lam = float(params["lam"])
    schedule = params.get("schedule", "pegasos")
    bias = params.get("bias", "none")
    cw = params.get("class_weight")
    tr = pd.telescoping(
        X,
        y,
        lam=lam,
        indices=run_indices(params, X.shape[0], t),
        schedule=schedule,
        bias=bias,
        class_weight=cw,
    )
    x = "x̃" if bias == "augment" else "x"
    c = "c_{y} " if cw else ""
    ssbd = schedule == "ssbd"
    s_next = t + 1 - tr.shift
    blocks = [
        Markdown(
            "Seed 002 §3: with η_t = 1/(λt), Algorithm 1's update multiplied by t is one "
            "line of a telescoping sum; summed over the t steps, wₜ₊₁ is the data's sum "
            "θₜ₊₁ divided by λt, and grouped by point it is Algorithm 2's counter β."
            + (
                " Under SSBD's schedule the same sum reads w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt), one index "
                "later: s(t) = t below (s(t) = t − 1 under η_t = 1/(λt))."
                if ssbd
                else ""
            )
        ),
        Latex(
            r"t\,w_{t+1}-(t-1)\,w_t=\tfrac{1}{\lambda}\,\mathbf{1}[y^{(t)}w_t^\top x^{(t)}<1]"
            r"\,y^{(t)}x^{(t)}\quad(\text{one line for each }t)"
        ),
        Latex(
            r"\Rightarrow\;w_{t+1}=\frac{1}{\lambda t}\sum_{k=1}^{t}"
            r"\mathbf{1}[y^{(k)}w_k^\top x^{(k)}<1]\,y^{(k)}x^{(k)}"
            r"=\frac{\theta_{t+1}}{\lambda t}=\sum_i\alpha_i^{(t+1)}y_ix_i,"
            r"\qquad\lambda t\,\alpha_i^{(t+1)}=\beta_i"
        ),
        Caption(
            f"The first steps of this run (λ = {lam:g}, s(t) = {'t' if ssbd else 't − 1'}"
            + (", x̃ = (x, 1)" if bias == "augment" else "")
            + (", each term weighted by c_y (seed 002 §2.1)" if cw else "")
            + "): s(k+1) wₖ₊₁ − s(k) wₖ equals (1/λ)·1[test]·"
            + f"{c}y {x} — the lines the sum telescopes."
        ),
        Table(
            {
                "step k": [r["k"] for r in tr.first],
                "point i_k (1-based)": [r["i"] + 1 for r in tr.first],
                "test fired": ["yes" if r["fired"] else "no" for r in tr.first],
                "s(k+1) wₖ₊₁ − s(k) wₖ": [num(clean(r["lhs"])) for r in tr.first],
                f"(1/λ)·1[…]·{c}y {x}": [num(clean(r["rhs"])) for r in tr.first],
            }
        ),
    ]
    s = result.trace.snapshots
    w_run = np.asarray(s["w"][k], dtype=float)
    if bias == "augment":
        w_run = np.append(w_run, float(s["b"][k]))
    last = params.get("averaging", "average") == "last"
    out_name = (
        f"the run's output wₜ₊₁ (t = {t:,})"
        if last
        else f"the run's output w̄ = (1/t) Σ w_τ (t = {t:,})"
    )
    ours = tr.w_last if last else tr.w_average
    names = [f"{x}[{j + 1}]" for j in range(w_run.shape[0])]
    if bias == "augment":
        names[-1] = "b (the last weight)"
    cols = {
        "coordinate": names,
        "θₜ₊₁ = Σ_fired " + f"{c}y {x}": vec(tr.theta),
        "Σ_i β_i " + f"{c}y_i {x}_i": vec(tr.theta_from_counts),
        f"θₜ₊₁/(λ·{s_next:,})": vec(tr.w_last),
    }
    if not last:
        cols["(θ H(s(t)) − Σ v_u H(s(u)))/(λt)"] = vec(tr.w_average)
    cols[out_name] = vec(w_run)
    cols["|difference|"] = [f"{v:.2g}" for v in np.abs(ours - w_run)]
    blocks.append(Table(cols))
    scale = max(1.0, float(np.max(np.abs(tr.theta))))
    blocks.append(
        Markdown(
            f"**The sum and the run agree to {float(np.max(np.abs(ours - w_run))):.2g}**"
            f" (θ by steps and by points to "
            f"{float(np.max(np.abs(tr.theta - tr.theta_from_counts))) / scale:.2g}, "
            f"relative). The test fired on {tr.n_fired:,} of the {t:,} steps, at "
            f"{int(np.count_nonzero(tr.counts))} of the {X.shape[0]} points."
            + (
                " The plotted output is the average; its w̄ is the harmonic-sum form of the "
                "same θ's, Σ_{τ≤t} w_τ = Σ_u v_u (H(s(t)) − H(s(u)))/λ."
                if not last
                else ""
            )
        )
    )
    order = np.argsort(-tr.counts, kind="stable")[: min(10, int(np.count_nonzero(tr.counts)))]
    if order.size:
        blocks.append(
            Caption(
                "Algorithm 2's counters at this snapshot (the most-updated points): "
                f"β_i = λ·s(t+1)·α_i⁽ᵗ⁺¹⁾ with s(t+1) = {s_next:,}; seed 002 counts β_j += 1, "
                "SSBD's signed β is y_j times it."
            )
        )
        blocks.append(
            Table(
                {
                    "point (1-based)": (order + 1).tolist(),
                    "label y": [int(v) for v in np.asarray(y)[order]],
                    "β_i (updates at i)": tr.counts[order].tolist(),
                    "α_i = β_i/(λ s(t+1))": [fmt(b / (lam * s_next)) for b in tr.counts[order]],
                }
            )
        )
    return blocks


TELESCOPING = SeedPanel(
    "telescoping",
    "Seed 002: from Algorithm 1 to Algorithm 2 — the telescoping sum, with this run's θ",
    telescoping_blocks,
)


# -- seed 002 §1: Perceptron → Pegasos ----------------------------------------------------
def perceptron_pegasos_blocks(result, X, y, k: int, params: dict) -> list:
    """The Perceptron beside seed 002's Algorithm 1, the changed lines highlighted, and how
    often each test fired on this run's indices."""
    head = [
        Markdown(
            'Seed 002 §1: "just by changing a few lines of code in our Perceptron '
            'Algorithms, we can get the Pegasos Algorithm." Highlighted: the lines that change.'
        ),
        Html(code_pairs_html(pd.perceptron_to_pegasos(), right="Pegasos (seed 002, Algorithm 1)")),
    ]
    problems = _one_sample_problems(params)
    if int(params.get("batch_size", 1)) > 1:  # a step draws k indices: no step-for-step count
        return [
            *head,
            Markdown(
                "With mini-batches a step draws k points: untick them to count "
                "each test on the run's indices."
            ),
        ]
    X = np.asarray(X, dtype=float)
    t = snapshot_t(result, k)
    idx = run_indices(params, X.shape[0], t)
    bias = params.get("bias", "none")
    perc = pd.perceptron_counts(X, y, indices=idx, bias=bias)
    lines = [
        f"On this run's i_1 … i_t (t = {t:,}, {params.get('sampling', 'uniform')} sampling): "
        f"the Perceptron's test y_j w_tᵀx_j ≤ 0 fires on **{perc.n_fired:,}** steps"
    ]
    if "lam" not in params:
        lines.append(" (choose Linear Pegasos to count Algorithm 1's test on the same kind of run)")
    elif problems:
        lines.append(f" (Algorithm 1's own count needs one sample per step, without {problems})")
    else:  # the Pegasos page: its own test on the same indices
        peg = pd.telescoping(
            X,
            y,
            lam=float(params["lam"]),
            indices=idx,
            schedule=params.get("schedule", "pegasos"),
            bias=bias,
            class_weight=params.get("class_weight"),
        )
        lines.append(
            f", Pegasos' y_j w_tᵀx_j < 1 (λ = {float(params['lam']):g}) on "
            f"**{peg.n_fired:,}**: Pegasos also corrects points that are right but inside the "
            "margin, and shrinks w on every step"
        )
    return [*head, Markdown("".join(lines) + ".")]


PERCEPTRON_TO_PEGASOS = SeedPanel(
    "perceptron_pegasos",
    "Seed 002: Perceptron → Pegasos, the lines that change (side by side)",
    perceptron_pegasos_blocks,
)
