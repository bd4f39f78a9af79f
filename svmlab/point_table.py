"""The per-point reasoning table of issue 11 §4 (pure: arrays in, columns out).

For every training point: its label y, the decision value f(x), the functional margin
y f(x), the slack ξ = max(0, 1 − y f(x)) (seed 003's soft margin), its dual α when
there is one, and a status that says why the point matters:

1. ``"misclassified"``: sign(f(x)) ≠ y (+1 where f > 0, the prediction rule of the
   runs), so ξ ≥ 1;
2. ``"margin violator"``: correctly classified but y f(x) < 1 − ``tol`` (0 < ξ < 1);
3. otherwise (on or outside the margin, y f(x) ≥ 1 − ``tol``):

   * with α (the dual SVM, at any snapshot): ``"non-SV"`` if α ≤ ``tol`` · scale,
     ``"bounded SV"`` if α ≥ C − ``tol`` · scale (soft margin only), else ``"free SV"``
     (scale = C, or max(1, max α) for the hard margin C = None);
   * without α (the SGD runs): by y f only, ``"free SV"`` on the margin
     (|y f − 1| ≤ ``tol``), ``"non-SV"`` beyond it.

At the dual optimum the rules agree with the KKT conditions: α = 0 ⇒ y f ≥ 1,
0 < α < C ⇒ y f = 1, α = C ⇒ y f ≤ 1 (a bounded SV shows as violator/misclassified
when ξ > 0).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["STATUSES", "point_rows"]

STATUSES = ("non-SV", "free SV", "bounded SV", "margin violator", "misclassified")


def _vector(values, name: str, n: int | None = None) -> np.ndarray:
    """``values`` as a finite float vector (of length ``n`` when given)."""
    if isinstance(values, str) or not np.all(
        [isinstance(v, numbers.Real) for v in np.ravel(np.asarray(values, dtype=object))]
    ):
        raise ValueError(f"{name} must be a 1-D array of real numbers")
    out = np.asarray(values, dtype=np.float64)
    if out.ndim != 1 or (n is not None and out.shape[0] != n):
        want = f"length {n} (one per point)" if n is not None else "one dimension"
        raise ValueError(f"{name} must have {want}, got shape {out.shape}")
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return out


def point_rows(f, y, alpha=None, C=None, *, tol=1e-6) -> dict:
    """The columns of the per-point table.

    Parameters
    ----------
    f : array, shape (n,)
        Decision values f(x_i) of the model (or of a snapshot).
    y : array, shape (n,)
        Labels in {−1, +1}.
    alpha : array, shape (n,), optional
        The dual variables α_i ≥ 0 (dual SVM); None for the SGD runs.
    C : float > 0, optional
        The box 0 ≤ α ≤ C of the soft margin; None for the hard margin (or no α).
    tol : float >= 0
        Tolerance of the comparisons y f = 1, α = 0 and α = C (see the module docstring).

    Returns
    -------
    dict of str to ndarray, each of shape (n,)
        ``"index"`` (1-based, as on screen), ``"label"``, ``"f"``, ``"yf"``, ``"xi"``,
        ``"alpha"`` (NaN without α) and ``"status"`` (strings from :data:`STATUSES`).
    """
    f = _vector(f, "f")
    n = f.shape[0]
    y = _vector(y, "y", n)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must hold the labels -1 and +1 only")
    if isinstance(tol, bool) or not np.isscalar(tol) or not (0.0 <= float(tol) < np.inf):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    if C is not None:
        if alpha is None:
            raise ValueError("C needs alpha: the box 0 ≤ α ≤ C classifies the dual variables")
        if isinstance(C, bool) or not np.isscalar(C) or not (0.0 < float(C) < np.inf):
            raise ValueError(f"C must be a finite number > 0 or None, got {C!r}")
    yf = y * f
    xi = np.maximum(0.0, 1.0 - yf)
    status = np.full(n, "non-SV", dtype=object)
    if alpha is None:
        alpha_col = np.full(n, np.nan)
        status[np.abs(yf - 1.0) <= tol] = "free SV"
    else:
        alpha_col = _vector(alpha, "alpha", n)
        scale = float(C) if C is not None else max(1.0, float(np.max(alpha_col, initial=0.0)))
        if np.any(alpha_col < -tol * scale) or (C is not None and np.any(alpha_col > C + tol * C)):
            box = "[0, C]" if C is not None else "[0, ∞)"
            raise ValueError(f"alpha must lie in {box} (to tol), the dual's box")
        status[alpha_col > tol * scale] = "free SV"
        if C is not None:
            status[alpha_col >= C - tol * scale] = "bounded SV"
    status[yf < 1.0 - tol] = "margin violator"
    status[np.where(f > 0, 1.0, -1.0) != y] = "misclassified"
    return {
        "index": np.arange(1, n + 1),
        "label": y,
        "f": f,
        "yf": yf,
        "xi": xi,
        "alpha": alpha_col,
        "status": status.astype(str),
    }
