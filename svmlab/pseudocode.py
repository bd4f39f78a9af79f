"""The algorithms' pseudo-code as the lecture texts write it, with the lines of a step.

Each algorithm is a list of lines (plain text with the texts' symbols). Given one
recorded step of a trace (``trace.step(k)``: t, i, margin, update, eta...),
:func:`active_lines` says which lines that step executed, and :func:`render_html`
returns the code as HTML with those lines highlighted (the page shows it with
``st.markdown(..., unsafe_allow_html=True)``). Pure: no Streamlit.

Sources: seed 000 (SSBD, "SGD for Solving Soft-SVM with Kernels"), seed 002 (the
Pegasos lecture note, Algorithms 1 and 2), seed 001 (SSBD, "SGD for Multiclass
Learning"), seed 003 (Lin, dual SVM; SMO as in libsvm).
"""

from __future__ import annotations

import html

__all__ = ["CODE", "active_lines", "code_key", "render_html", "step_values"]

CODE: dict[str, list[str]] = {
    # Seed 002, Algorithm 1 with the Pegasos paper's random sampling and η_t = 1/(λt).
    "pegasos": [
        "initialize w₁ = 0",
        "for t = 1, 2, …, T do",
        "    choose i uniformly at random from {1, …, n}",
        "    η_t = 1/(λt)",
        "    if y_i ⟨w_t, x_i⟩ < 1 then",
        "        w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i",
        "    else",
        "        w_{t+1} = (1 − η_t λ) w_t",
        "    [projection] w_{t+1} ← min{1, (1/√λ)/‖w_{t+1}‖} w_{t+1}",
        "output w̄ = (1/T) Σ_t w_t   (or the last w_{T+1})",
    ],
    # SSBD §15.5 (the linear case of seed 000's box): θ accumulates y_i x_i.
    "pegasos_ssbd": [
        "initialize θ⁽¹⁾ = 0",
        "for t = 1, …, T",
        "    let w⁽ᵗ⁾ = (1/(λt)) θ⁽ᵗ⁾",
        "    choose i uniformly at random from [m]",
        "    if y_i ⟨w⁽ᵗ⁾, x_i⟩ < 1",
        "        set θ⁽ᵗ⁺¹⁾ = θ⁽ᵗ⁾ + y_i x_i",
        "    else",
        "        set θ⁽ᵗ⁺¹⁾ = θ⁽ᵗ⁾",
        "output w̄ = (1/T) Σ_t w⁽ᵗ⁾",
    ],
    # Seed 000, SSBD's box, verbatim up to typography.
    "kernel_ssbd": [
        "Goal: solve Equation (16.5)          parameter: T",
        "initialize: β⁽¹⁾ = 0",
        "for t = 1, …, T",
        "    let α⁽ᵗ⁾ = (1/(λt)) β⁽ᵗ⁾",
        "    choose i uniformly at random from [m]",
        "    for all j ≠ i set β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾",
        "    if (y_i Σ_{j=1}^m α_j⁽ᵗ⁾ K(x_j, x_i) < 1)",
        "        set β_i⁽ᵗ⁺¹⁾ = β_i⁽ᵗ⁾ + y_i",
        "    else",
        "        set β_i⁽ᵗ⁺¹⁾ = β_i⁽ᵗ⁾",
        "output: w̄ = Σ_j ᾱ_j ψ(x_j) where ᾱ = (1/T) Σ_t α⁽ᵗ⁾",
    ],
    # Seed 002, Algorithm 2 (kernelized Pegasos), β⁽ᵗ⁾ = λ(t−1) α⁽ᵗ⁾.
    "kernel_pegasos": [
        "initialize β⁽¹⁾ = 0",
        "for t = 1, 2, …, T do",
        "    randomly choose (x⁽ᵗ⁾, y⁽ᵗ⁾) = (x_j, y_j) from the training data",
        "    if y_j (1/(λ(t−1))) Σ_i β_i⁽ᵗ⁾ y_i K(x_i, x_j) < 1 then",
        "        β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾ + 1",
        "    else",
        "        β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾",
        "α_i = β_i⁽ᵀ⁺¹⁾/(λT);  ŷ = sign(Σ_i α_i y_i K(x_i, x))",
    ],
    # Seed 003's dual, solved two multipliers at a time (SMO, libsvm's WSS2).
    "smo": [
        "α = 0,  ∇D(α) = Qα − 1 = −1",
        "repeat",
        "    i ∈ argmax { −y_t ∇D(α)_t : t ∈ I_up(α) }",
        "    j ∈ argmin second-order gain over t ∈ I_low(α) with −y_t ∇D(α)_t < −y_i ∇D(α)_i",
        "    if m(α) − M(α) ≤ tol: stop (KKT hold up to tol)",
        "    solve the 2-variable QP in (α_i, α_j), keep yᵀα = 0, clip to 0 ≤ α ≤ C",
        "    ∇D(α) += Q_{:,i} Δα_i + Q_{:,j} Δα_j",
        "b = y_s − Σ_n α_n y_n K(x_n, x_s) averaged over free SVs (0 < α_s < C)",
    ],
    # Seed 001, SSBD's "SGD for Multiclass Learning".
    "multiclass_sgd": [
        "parameters: scalar η > 0, integer T > 0, loss Δ, feature map Ψ",
        "initialize: w⁽¹⁾ = 0 ∈ ℝᵈ",
        "for t = 1, 2, …, T",
        "    sample (x, y) ∼ D",
        "    find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w⁽ᵗ⁾, Ψ(x, y′) − Ψ(x, y)⟩ )",
        "    set v_t = Ψ(x, ŷ) − Ψ(x, y)",
        "    update w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ − η v_t",
        "output w̄ = (1/T) Σ_t w⁽ᵗ⁾",
    ],
    # Crammer–Singer objective by Pegasos (seed 002 §2.3 "we could derive").
    "multiclass_pegasos": [
        "initialize W⁽¹⁾ = 0",
        "for t = 1, 2, …, T",
        "    sample (x, y); η_t = 1/(λt)",
        "    find ŷ ∈ argmax_{y′} ( Δ(y′, y) + ⟨w_{y′}, x⟩ − ⟨w_y, x⟩ )",
        "    W⁽ᵗ⁺¹⁾ = (1 − η_t λ) W⁽ᵗ⁾",
        "    if ŷ ≠ y: w_y += η_t x,  w_ŷ −= η_t x",
        "output W̄ = (1/T) Σ_t W⁽ᵗ⁾  (or the last W)",
    ],
    "one_vs_all": [
        "for each class k = 1, …, K",
        "    relabel: y⁽ᵏ⁾_j = +1 if y_j = k else −1",
        "    train a binary SVM → f_k(x) = w_kᵀx + b_k",
        "predict ŷ = argmax_k f_k(x)",
        "ambiguous where no f_k(x) > 0 or several are",
    ],
}


def code_key(algorithm: str, schedule: str | None = None) -> str:
    """The CODE entry for an algorithm and its step-size schedule."""
    if algorithm == "pegasos":
        return "pegasos_ssbd" if schedule == "ssbd" else "pegasos"
    if algorithm == "kernel_pegasos":
        return "kernel_ssbd" if schedule in (None, "ssbd") else "kernel_pegasos"
    return algorithm


def active_lines(key: str, step: dict | None, *, projection: bool = False) -> list[int]:
    """0-based indices of the lines that ``step`` executed (empty for no step)."""
    if step is None:
        return []
    upd = bool(step.get("update", step.get("changed", False)))
    if key == "pegasos":
        lines = [1, 2, 3, 4, 5] if upd else [1, 2, 3, 4, 6, 7]
        return [*lines, 8] if projection else lines
    if key == "pegasos_ssbd":
        return [1, 2, 3, 4, 5] if upd else [1, 2, 3, 4, 6, 7]
    if key == "kernel_ssbd":
        return [2, 3, 4, 5, 6, 7] if upd else [2, 3, 4, 5, 6, 8, 9]
    if key == "kernel_pegasos":
        return [1, 2, 3, 4] if upd else [1, 2, 3, 5, 6]
    if key == "smo":
        return [1, 2, 3, 4, 5, 6]
    if key == "multiclass_sgd":
        return [2, 3, 4, 5, 6]
    if key == "multiclass_pegasos":
        return [1, 2, 3, 4, 5] if upd else [1, 2, 3, 4]
    if key == "one_vs_all":
        return [0, 1, 2]
    return []


def render_html(key: str, active=()) -> str:
    """The pseudo-code as an HTML <pre> block with the ``active`` lines highlighted."""
    active = set(active)
    rows = []
    for n, line in enumerate(CODE[key]):
        body = line.lstrip(" ")
        # Leading spaces as &nbsp; (Markdown rendering would collapse them).
        text = "&nbsp;" * (len(line) - len(body)) + html.escape(body)
        if n in active:
            rows.append(
                f'<span style="background:#F0E442;color:#000;display:block">▶ {text}</span>'
            )
        else:
            rows.append(f'<span style="display:block">&nbsp;&nbsp;{text}</span>')
    return (
        '<pre style="font-size:0.85rem;line-height:1.35;padding:0.6rem;'
        'background:#f6f6f6;color:#222;border-radius:6px;white-space:pre-wrap">'
        + "".join(rows)
        + "</pre>"
    )


def _num(v) -> str:
    if hasattr(v, "shape") and getattr(v, "ndim", 0) > 0:
        return "(" + ", ".join(_num(x) for x in v.tolist()) + ")"
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    try:
        return f"{float(v):.4g}"
    except (TypeError, ValueError):
        return str(v)


def step_values(key: str, step: dict, *, y=None, lam=None) -> list[tuple[str, str]]:
    """The live values of a step as (symbol, value) rows for the inspector."""
    rows: list[tuple[str, str]] = []
    t = step.get("t")
    i = step.get("i")
    rows.append(("t", _num(t)))
    if i is not None:
        rows.append(("sampled i", _num(i)))
    if y is not None and i is not None and 0 <= int(i) < len(y):
        rows.append(("y_i", _num(int(y[int(i)]))))
    if "eta" in step:
        if key == "kernel_ssbd":
            rows.append(("factor 1/(λt) in α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)", _num(step["eta"])))
        elif key == "kernel_pegasos":
            rows.append(("factor 1/(λ(t−1))", _num(step["eta"])))
        else:
            rows.append(("η_t", _num(step["eta"])))
    if "margin" in step:
        label = {
            "kernel_ssbd": "margin y_i Σ_j α_j⁽ᵗ⁾ K(x_j, x_i)",
            "kernel_pegasos": "margin y_i Σ_j α_j⁽ᵗ⁾ K(x_j, x_i)",
            "pegasos": "margin y_i ⟨w_t, x_i⟩",
            "pegasos_ssbd": "margin y_i ⟨w⁽ᵗ⁾, x_i⟩",
        }.get(key, "margin")
        rows.append((label, _num(step["margin"])))
    if "update" in step:
        rows.append(("margin < 1 → update", _num(bool(step["update"]))))
        if key in ("kernel_ssbd", "kernel_pegasos") and i is not None:
            changed = f"β_{int(i)}" if step["update"] else "none"
            rows.append(("β changed", changed))
    if "j" in step:
        rows.append(("SMO pair (i, j)", f"({_num(i)}, {_num(step['j'])})"))
    if "delta_i" in step:
        rows.append(("Δα_i", _num(step["delta_i"])))
    if "delta_j" in step:
        rows.append(("Δα_j", _num(step["delta_j"])))
    if "objective" in step and key == "smo":
        rows.append(("dual objective ½αᵀQα − 1ᵀα", _num(step["objective"])))
    if "scores" in step:
        rows.append(("Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, 1, …", _num(step["scores"])))
    if "y" in step:
        rows.append(("true class y", _num(step["y"])))
    if "y_hat" in step:
        rows.append(("ŷ (argmax, ties → smallest)", _num(step["y_hat"])))
    if "loss" in step:
        rows.append(("generalized hinge loss", _num(step["loss"])))
    if "changed" in step:
        rows.append(("ŷ ≠ y → w changed", _num(bool(step["changed"]))))
    shown = {"t", "i", "eta", "margin", "update", "y_hat", "scores", "y", "loss", "changed",
             "j", "delta_i", "delta_j", "objective"}  # fmt: skip
    for name, value in step.items():
        if name not in shown:
            rows.append((name, _num(value)))
    return rows
