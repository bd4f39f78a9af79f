"""The losses and objectives shared by the SGD runs and the exact optima.

SSBD's soft-SVM objective (16.5) in its linear form, λ/2 ‖w‖² + (1/m) Σ_i ℓ^hinge(w, (x_i, y_i)),
with the hinge loss ℓ^hinge = max{0, 1 − y ⟨w, x⟩} (SSBD §15.2) and optional per-example
class weights c_i (seed 002 §2.1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["hinge_objective"]


def hinge_objective(f, y, norm2, lam, c=None) -> float:
    """λ/2 ‖w‖² + (1/n) Σ c_i max{0, 1 − y_i f_i} (c = 1 when None)."""
    loss = np.maximum(0.0, 1.0 - y * f)
    if c is not None:
        loss = c * loss
    return 0.5 * lam * norm2 + float(np.mean(loss))
