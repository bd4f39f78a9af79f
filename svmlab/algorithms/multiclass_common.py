"""What the multiclass entries share (seed 001, SSBD §17.2; seed 002 §2.3): the caps, the
SGD options (output, sampling, Δ), the output line, the inspector's rows, the view and the
metrics of a multiclass SGD run."""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmlab import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps, accuracy_row, index_rows
from svmlab.pseudocode import Line, num
from svmlab.views import MulticlassView

__all__ = ["CAPS", "HINGE", "output_line", "rows", "sgd_options", "sgd_spec", "view"]

CAPS = Caps(n=600, T=200_000)
OUTPUTS = {"average": "averaged w̄ — SSBD (seed 001)", "last": "last iterate"}
HINGE = (
    r"\frac{1}{n}\sum_{i=1}^{n}\max_{y'}\Big(\Delta(y',y_i)"
    r"+\langle w,\Psi(x_i,y')-\Psi(x_i,y_i)\rangle\Big)"
)


def sgd_options(key: str, X, y, T: int) -> dict:
    """Output, sampling, Δ (when the data have k ≥ 2 classes) and the seed."""
    params = {"T": int(T)}
    params["averaging"] = widgets.radio("Output", OUTPUTS, key=f"{key}_avg", horizontal=True)
    params["sampling"] = st.selectbox(
        "Sampling",
        list(widgets.SAMPLINGS),
        format_func=widgets.SAMPLINGS.get,
        key=f"{key}_sampling",
    )
    k = len(set(np.asarray(y).tolist()))
    if k >= 2:
        st.markdown(
            "**Δ(y′, y)** — the cost of predicting y′ (row) when the truth is y (column); "
            "zero diagonal, non-negative:"
        )
        delta = widgets.delta_editor(k, key=key)
        if delta != tuple(tuple(1.0 - float(i == j) for j in range(k)) for i in range(k)):
            params["delta"] = delta
    params["random_state"] = widgets.seed_input(key)
    return params


def output_line(o: dict, W: str = "w") -> Line:
    """The output under ``averaging``."""
    if o.get("averaging", "average") == "average":
        return Line(f"output {W}̄ = (1/T) Σ_t {W}⁽ᵗ⁾")
    return Line(f"output the last {W}⁽ᵀ⁺¹⁾")


def rows(step: dict, y, o: dict) -> list[tuple[str, str]]:
    """t, the sampled point (1-based), the step size of the code, the scores, ŷ, the loss."""
    out = index_rows(step, None)
    t = int(step["t"])
    if "lam" not in o:
        out.append(("η", num(o["eta"])))
    elif o.get("schedule") == "ssbd":
        out.append(("1/(λt) in W⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)", num(1.0 / (o["lam"] * t))))
    else:
        out.append(("η_t = 1/(λt)", num(step.get("eta", 1.0 / (o["lam"] * t)))))
    out.append(("true class y (index)", num(step["y"])))
    out.append(("Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, 1, …", num(step["scores"])))
    out.append(("ŷ (argmax, ties → smallest)", num(step["y_hat"])))
    out.append(("generalized hinge loss", num(step["loss"])))
    out.append(("ŷ ≠ y → w changed", num(bool(step["changed"]))))
    return out


def view(result, X, y) -> MulticlassView:
    """W (linear) or α (kernelized) per snapshot."""
    s = result.trace.snapshots
    W = np.asarray(s["W"]) if "W" in s else None
    A = None if W is not None else np.asarray(s["alpha"])
    kernel = None if W is not None else result.kernel
    return MulticlassView(
        result.trace.t,
        W,
        A,
        bool(getattr(result, "bias", True)),
        kernel,
        np.asarray(X, dtype=float),
        np.asarray(result.classes_),
        trace=result.trace,
    )


def metrics_named(label: str):
    """Metrics of a multiclass SGD run: accuracy, the objective (named ``label``), Δ, #SV."""

    def metrics(result, X, y, k: int, values=None) -> dict:
        s = result.trace.snapshots
        out = {"training accuracy": accuracy_row(s["train_error"][k])}
        out[label] = f"{float(s['objective'][k]):.5g}"
        if "delta_risk" in s:
            out["mean Δ(ŷ, y)"] = f"{float(s['delta_risk'][k]):.4g}"
        if "n_support" in s:
            out["support vectors"] = str(int(s["n_support"][k]))
        return out

    return metrics


def sgd_spec(entry: dict, *, objective_label: str, **fields) -> AlgorithmSpec:
    """The spec of a multiclass SGD entry module (``entry``: its ``globals()``): the
    shared view, rows and caps, its objective named ``objective_label`` in the metrics."""
    return AlgorithmSpec.of(
        entry,
        page="multiclass",
        caps=CAPS,
        view=view,
        rows=rows,
        metrics=metrics_named(objective_label),
        n_classes=None,
        **fields,
    )
