"""The Perceptron (seed 002 starts from it): its registry entry, on the linear page.

w₁ = 0; w ← w + y_i x_i whenever y_i⟨w, x_i⟩ ≤ 0; output the last w. No step size, no
regularizer: the code shown follows the sampling (seed 002's ``for iter … for j …`` loop
when cyclic) and the bias.
"""

from __future__ import annotations

import streamlit as st

import svmcore
from svmlab.algorithms import seed_panels as sp_texts
from svmlab.algorithms import spec as sp
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps
from svmlab.plot.pseudocode import Line, num
from svmlab.plot.views import BinaryView, linear_view

__all__ = ["SPEC"]

BIASES = {
    "none": "none — the text's homogeneous ⟨w, x⟩",
    "augment": "x ↦ (x, 1): b updated with w",
}


def controls(key: str, X, y) -> dict:
    """T, sampling, bias and the seed."""
    T = widgets.t_slider(key=f"{key}_T", default=1_000, cap=SPEC.caps.T)
    sampling = st.selectbox(
        "Sampling of i",
        list(widgets.SAMPLINGS),
        format_func=widgets.SAMPLINGS.get,
        key=f"{key}_sampling",
        bind=widgets.BIND,
    )
    bias = st.selectbox(
        "Bias b", list(BIASES), format_func=BIASES.get, key=f"{key}_bias", bind=widgets.BIND
    )
    return {
        "T": int(T),
        "sampling": sampling,
        "bias": bias,
        "random_state": widgets.seed_input(key),
    }


def code(o: dict) -> list[Line]:
    """The Perceptron's loop under the options ``o``."""
    i = sp.sample_symbol(o)
    x = f"x̃_{i}" if o.get("bias") == "augment" else f"x_{i}"
    lines = [Line("x̃ = (x, 1): w holds (w, b)")] if o.get("bias") == "augment" else []
    return [
        *lines,
        Line("initialize w₁ = 0"),
        *sp.loop_lines(o, i),
        Line(f"    if y_{i} ⟨w_t, {x}⟩ ≤ 0 then", "step"),
        Line(f"        w_{{t+1}} = w_t + y_{i} {x}", "update"),
        Line("    else", "skip"),
        Line("        w_{t+1} = w_t", "skip"),
        Line("output w_{T+1}"),
    ]


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """t, the sampled index (1-based), its label, the margin and the test."""
    i = sp.sample_symbol(o)
    out = sp.index_rows(step, y, symbol=i)
    out.append((f"y_{i} ⟨w_t, x_{i}⟩", num(step["margin"])))
    out.append(("≤ 0 → w += y x", num(bool(step["update"]))))
    return out


def objective(o: dict) -> str:
    """The perceptron criterion, whose sub-gradient the update follows."""
    bias = o.get("bias") == "augment"
    f = r"(\langle w, x_i\rangle + b)" if bias else r"\langle w, x_i\rangle"
    return rf"\min_w\;\frac{{1}}{{n}}\sum_{{i=1}}^{{n}}\max\{{0,\;-y_i{f}\}}"


def view(result, X, y) -> BinaryView:
    """w_t, b_t per snapshot; ringed: the points with y f(x) ≤ 0 (the loop still updates)."""
    return linear_view(result, X, y, ring=0.0)


def metrics(result, X, y, k: int, values=None) -> dict:
    """Accuracy, the points the loop would still update, the perceptron criterion."""
    s = result.trace.snapshots
    return {
        "training accuracy": sp.accuracy_row(s["train_error"][k]),
        "points with y f(x) ≤ 0": str(int(s["n_support"][k])),
        "perceptron criterion": f"{float(s['objective'][k]):.6g}",
    }


SPEC = AlgorithmSpec.of(
    globals(),
    title="Perceptron (seed 002)",
    page="linear",
    fn=svmcore.perceptron,
    caps=Caps(n=2000, T=1_000_000),
    no_optimum="The Perceptron minimises no objective: its loop stops changing w once every "
    "point has y⟨w, x⟩ > 0, and any such w (any scale) is as good as another, so there is no "
    "P* to converge to. Its theorem bounds the number of updates instead, (R/γ)² on separable "
    "data.",
    seed_panels=(sp_texts.PERCEPTRON_TO_PEGASOS, sp_texts.MISTAKE_COUNTS),
)
