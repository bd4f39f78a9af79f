"""What the multiclass entries share (seed 001, SSBD §17.2; seed 002 §2.3): the caps, the
SGD options (output, sampling, Δ), the output line, the inspector's rows, the view and the
metrics of a multiclass SGD run."""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmcore.sgd.multiclass_common import check_multiclass_class_weight, psi
from svmlab.algorithms import widgets
from svmlab.algorithms.spec import AlgorithmSpec, Caps, accuracy_row, index_rows
from svmlab.plot.pseudocode import Line, num
from svmlab.plot.views import MulticlassView

__all__ = [
    "CAPS",
    "HINGE",
    "SCORES_LABEL",
    "class_weight_caption",
    "corollary_17_1",
    "corollary_17_2",
    "hinge",
    "output_line",
    "psi_extras",
    "psi_rho",
    "psi_table",
    "rows",
    "sgd_options",
    "sgd_spec",
    "view",
]

CAPS = Caps(n=600, T=200_000)
OUTPUTS = {"average": "averaged w̄ — SSBD (seed 001)", "last": "last iterate"}
SCORES_LABEL = "Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ for y′ = 0, 1, …"
HINGE = (
    r"\frac{1}{n}\sum_{i=1}^{n}\max_{y'}\Big(\Delta(y',y_i)"
    r"+\langle w,\Psi(x_i,y')-\Psi(x_i,y_i)\rangle\Big)"
)


def hinge(o: dict) -> str:
    """The (weighted) generalized hinge risk: seed 002 §2.1's c_{y_i} before each max."""
    if not o.get("class_weight"):
        return HINGE
    return HINGE.replace(r"\max_{y'}", r"c_{y_i}\max_{y'}", 1)


def class_weights(y, o: dict):
    """(classes, c per class) of the run's ``class_weight``, or None when unweighted."""
    if not o.get("class_weight") or not len(y):
        return None
    classes, y_idx = np.unique(np.asarray(y), return_inverse=True)
    per_class, _ = check_multiclass_class_weight(o["class_weight"], classes, y_idx.reshape(-1))
    return classes, per_class


def class_weight_caption(y, class_weight) -> str:
    """Seed 002 §2.1's weighted hinge for k classes, with this data's c_y."""
    y = np.asarray(y)
    text = (
        "Seed 002 §2.1, for k classes: each point's generalized hinge is weighted by the "
        "weight of its class, (1/n) Σ_i c_{y_i} max_{y′}(…), so the step on (x_i, y_i) "
        'moves w by η c_{y_i} v_t; "balanced" c_y = n/(k n_y) gives every class the same '
        "total weight n/k."
    )
    found = class_weights(y, {"class_weight": class_weight})
    if found is not None:
        classes, c = found
        counts = [int(np.count_nonzero(y == label)) for label in classes]
        here = ", ".join(
            f"c_{label} = {w:.4g} (n_y = {m})"
            for label, w, m in zip(classes, c, counts, strict=True)
        )
        text += f" Here n = {len(y)}, k = {len(classes)}: {here}."
    return text


def sgd_options(key: str, X, y, T: int) -> dict:
    """Output, sampling, Δ and the class weights c_y (seed 002 §2.1; when the data have
    k ≥ 2 classes) and the seed."""
    params = {"T": int(T)}
    params["averaging"] = widgets.radio("Output", OUTPUTS, key=f"{key}_avg", horizontal=True)
    params["sampling"] = st.selectbox(
        "Sampling",
        list(widgets.SAMPLINGS),
        format_func=widgets.SAMPLINGS.get,
        key=f"{key}_sampling",
        bind=widgets.BIND,
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
        classes = np.unique(np.asarray(y))
        class_weight = widgets.class_weight_control(key, classes=classes)
        if class_weight is not None:
            params["class_weight"] = class_weight
            st.caption(class_weight_caption(y, class_weight))
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
    found = class_weights(y, o)
    if found is not None:
        out.append(("class weight c_y (the step is scaled by it)", num(found[1][int(step["y"])])))
    out.append((SCORES_LABEL, num(step["scores"])))
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
        rows=entry.get("rows", rows),
        metrics=metrics_named(objective_label),
        n_classes=None,
        **fields,
    )


# -- seed 001's corollaries and Ψ, in numbers -------------------------------------------
def psi_rho(X, bias: bool) -> float:
    """Corollary 17.2's ρ from the data: ρ = 2 max_{i, y} ‖Ψ(x_i, y)‖ = 2 max_i ‖x̃_i‖.

    Ψ(x, y) holds x̃ in block y and zeros elsewhere, so ‖Ψ(x, y)‖ = ‖x̃‖ for every y and
    ‖Ψ(x_i, y)‖ ≤ ρ/2 holds on the training set.
    """
    X = np.asarray(X, dtype=float)
    sq = np.sum(X * X, axis=1) + (1.0 if bias else 0.0)
    return 2.0 * float(np.sqrt(np.max(sq)))


def corollary_17_2(rho: float, B: float, eps: float, T: int) -> dict:
    """Corollary 17.2's numbers: T ≥ B²ρ²/ε² (the T needed) and η = √(B²/(ρ²T))."""
    if not eps > 0:
        raise ValueError(f"eps must be > 0 (got {eps})")
    if not (rho > 0 and B > 0 and T >= 1):
        raise ValueError(f"rho and B must be > 0 and T >= 1 (got {rho}, {B}, {T})")
    T_min = B * B * rho * rho / (eps * eps)
    return {"T_min": T_min, "meets": T >= T_min, "eta": float(np.sqrt(B * B / (rho * rho * T)))}


def corollary_17_1(rho: float, B: float, m: int) -> float:
    """Corollary 17.1's λ = √(2ρ²/(B²m)) for SSBD's Multiclass SVM, min λ‖w‖² + L_S."""
    if not (rho > 0 and B > 0 and m >= 1):
        raise ValueError(f"rho and B must be > 0 and m >= 1 (got {rho}, {B}, {m})")
    return float(np.sqrt(2.0 * rho * rho / (B * B * m)))


def psi_table(x, W, delta, y_true: int, bias: bool) -> dict:
    """Ψ(x, y′) for every class y′ and the scores at W (shape (k, d′), row c = block c).

    Returns ``Psi`` (k, k d′): row y′ is Ψ(x, y′) (x̃ in block y′, zeros elsewhere);
    ``score`` ⟨w, Ψ(x, y′)⟩ (argmax: the prediction h_w(x)); ``augmented``
    Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩ (argmax: the ŷ of SGD's step, ties → smallest).
    """
    x = np.asarray(x, dtype=float).reshape(-1)
    W = np.asarray(W, dtype=float)
    k = W.shape[0]
    Psi = np.stack([psi(x, c, k, bias=bias) for c in range(k)])  # (k, k d′)
    score = Psi @ W.reshape(-1)
    aug = np.asarray(delta, dtype=float)[:, y_true] + score - score[y_true]
    return {
        "Psi": Psi,
        "score": score,
        "augmented": aug,
        "y_pred": int(np.argmax(score)),
        "y_hat": int(np.argmax(aug)),
    }


def remember_data(key: str, X, y) -> None:
    """Keep the page's (X, y) for :func:`psi_extras` (the extras hook gets no data)."""
    st.session_state[f"{key}_psi_data"] = (np.asarray(X, dtype=float), np.asarray(y))


def psi_extras(key: str):
    """The extras hook of a multiclass entry: Ψ(x_i, y′) and the scores for a chosen i."""

    def extras(result, params: dict) -> None:
        X, y = st.session_state.get(f"{key}_psi_data", (None, None))
        s = result.trace.snapshots
        if X is None or "W" not in s or len(X) == 0:
            return
        with st.expander("Ψ(x, y) for one point (seed 001, the class-sensitive feature map)"):
            i = st.number_input("point i (1-based)", 1, len(X), 1, key=f"{key}_psi_i")
            snap = int(np.clip(st.session_state.get(f"{key}_snap", -1), -1, len(s["W"]) - 1))
            y_idx = np.searchsorted(result.classes_, y)
            tab = psi_table(X[i - 1], s["W"][snap], result.delta, int(y_idx[i - 1]), result.bias)
            show_psi(tab, i, int(y_idx[i - 1]), result, int(result.trace.t[snap]))

    return extras


def show_psi(tab: dict, i: int, yi: int, result, t: int) -> None:
    """Ψ(x_i, y′) as a table (one row per class y′) and the two score columns."""
    xt = "x̃_i = (x_i, 1)" if result.bias else "x_i"
    st.caption(
        f"Ψ(x_i, y′) puts {xt} in block y′ and zeros elsewhere; w = the run's output "
        f"at the snapshot shown (t = {t}); y_i = {result.classes_[yi]} (class index {yi})."
    )
    d = tab["Psi"].shape[1] // len(result.classes_)
    k = len(result.classes_)
    cols = {f"block {c}, {j + 1}": tab["Psi"][:, c * d + j] for c in range(k) for j in range(d)}
    st.dataframe({"y′": result.classes_.tolist(), **cols}, hide_index=True)
    st.dataframe(
        {
            "y′": result.classes_.tolist(),
            "⟨w, Ψ(x_i, y′)⟩": tab["score"],
            "Δ(y′, y_i) + ⟨w, Ψ(x_i, y′) − Ψ(x_i, y_i)⟩": tab["augmented"],
        },
        hide_index=True,
    )
    st.markdown(
        f"h_w(x_i) = argmax ⟨w, Ψ(x_i, y′)⟩ = **{result.classes_[tab['y_pred']]}**; "
        f"SGD's ŷ = argmax (Δ + ⟨w, Ψ(x_i, y′) − Ψ(x_i, y_i)⟩) = "
        f"**{result.classes_[tab['y_hat']]}** (ties → smallest class)."
    )
