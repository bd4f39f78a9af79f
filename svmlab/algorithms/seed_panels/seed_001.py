"""Seed 001 beside a multiclass run: SSBD's Remark 17.3 with the run's numbers."""

from __future__ import annotations

import numpy as np

from svmlab.algorithms.seed_panels.base import SeedPanel, snapshot_t
from svmlab.plot.seed_figures import Caption, Markdown, Table
from svmlab.study import label_set

__all__ = ["REMARK_17_3"]


# -- seed 001: Remark 17.3 ----------------------------------------------------------------
def remark_17_3_blocks(result, X, y, k: int, params: dict) -> list:
    """Remark 17.3's numbers for the run's linear W at snapshot k."""
    s = result.trace.snapshots
    if "W" not in s:
        raise ValueError(
            "Remark 17.3 is shown for the linear Ψ(x, y) (untick kernelized): with a kernel "
            "Ψ lives in the kernel's feature space and W is not written out."
        )
    X = np.asarray(X, dtype=float)
    W = np.asarray(s["W"][k], dtype=float)
    y_idx = np.searchsorted(np.asarray(result.classes_), np.asarray(y))
    T = int(params["T"]) if "eta" in params else None  # SSBD's SGD: Corollary 17.2's T
    r = label_set.remark_17_3(X, y_idx, W, delta=result.delta, bias=bool(result.bias), T=T)
    classes = np.asarray(result.classes_).tolist()
    rows = {
        "|Y| = k (classes)": f"{r.k}",
        "d′ (length of x̃)" if result.bias else "d′ (length of x)": f"{r.d_tilde}",
        "dimension of Ψ(x, y) and of w: k d′": f"{r.dim_psi}",
        "ρ = 2 max ‖Ψ(x_i, y)‖ = 2 max ‖x̃_i‖ (no k)": f"{r.rho:.6g}",
        "B = ‖w‖ = √(Σ_c ‖w_c‖²), the run's w": f"{r.B:.6g}",
        "L_S^{g-hinge}(w), the run's mean generalized hinge": f"{r.hinge:.6g}",
        "Corollary 17.1: √(8ρ²B²/m) (no k)": f"{r.corollary_17_1:.6g}",
    }
    if r.corollary_17_2 is not None:
        rows[f"Corollary 17.2: ε = Bρ/√T at T = {r.T:,} (no k)"] = f"{r.corollary_17_2:.6g}"
    return [
        Markdown(
            "Seed 001, **Remark 17.3**: the risk bounds of Corollaries 17.1 and 17.2 do not "
            "depend explicitly on |Y|; they may depend on it implicitly, via the norm of "
            "Ψ(x, y), and they are meaningful only when some u with ‖u‖ ≤ B has a small "
            "generalized hinge loss. With this run (t = "
            f"{snapshot_t(result, k):,}, m = {r.m} points), B taken as the run's ‖w‖:"
        ),
        Table({"": list(rows), "value": list(rows.values())}),
        Caption("Where k hides: w has one block w_c per class, ‖w‖² = Σ_c ‖w_c‖²."),
        Table(
            {
                "class c": classes,
                "‖w_c‖": [f"{v:.6g}" for v in r.block_norms],
                "share of ‖w‖²": [f"{v * v / max(r.B**2, 1e-300):.3f}" for v in r.block_norms],
            }
        ),
        Markdown(
            "Neither bound term contains k, and ρ would not change if classes were added: "
            "‖Ψ(x, y)‖ = ‖x̃‖ for every label. But the dimension k d′ grows with k, and a ball "
            "‖u‖ ≤ B shared by k blocks leaves each class about B/√k: more classes need a "
            "larger B (a larger bound) for some u to have a small loss."
        ),
    ]


REMARK_17_3 = SeedPanel(
    "remark_17_3",
    "Seed 001: Remark 17.3 — the bounds and the size of the label set, with this run",
    remark_17_3_blocks,
)
