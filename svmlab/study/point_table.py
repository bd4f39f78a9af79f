"""The per-point reasoning table (pure: arrays in, columns out).

For every training point: its label y, the decision value f(x), the functional margin
y f(x), the slack ξ = max(0, 1 − y f(x)) (seed 003's soft margin), its dual α when
there is one, its position and its status.

Position (every binary model): where the point lies, from y f(x) and the prediction
rule (+1 where f > 0, as the runs predict):

1. ``"misclassified"``: sign(f(x)) ≠ y, so ξ ≥ 1;
2. ``"inside the margin"``: correctly classified but y f(x) < 1 − ``tol`` (0 < ξ < 1);
3. ``"on the margin"``: |y f(x) − 1| ≤ ``tol``;
4. ``"beyond the margin"``: y f(x) > 1 + ``tol``.

Status (who the support vectors are, as the plane rings them and the metrics count them):

* with the dual's α (at any snapshot): ``"non-SV"`` if α ≤ ``tol`` · scale,
  ``"bounded SV"`` if α ≥ C − ``tol`` · scale (soft margin only), else ``"free SV"``
  (scale = C, or max(1, max α) for the hard margin C = None) — whatever the position: a
  bounded SV lies on or inside its margin (KKT: α = C ⇒ y f ≤ 1), possibly misclassified;
* kernel Pegasos (:func:`table_columns`): ``"SV"`` where SSBD's α_j ≠ 0 (the ringed
  points), else ``"non-SV"``;
* without α (the linear SGD runs): by y f only, ``"free SV"`` on the margin
  (|y f − 1| ≤ ``tol``), ``"non-SV"`` beyond it, ``"margin violator"`` inside it,
  ``"misclassified"`` on the wrong side.

Multiclass (:func:`multiclass_point_rows`): the k scores s_c(x_i), the multiclass margin
m_i = s_{y_i} − max_{c ≠ y_i} s_c in the place of y f (seed 002 §2.3's constraint
s_{y_i} ≥ s_c + 1 − ξ_i), ξ = max(0, 1 − m) and the statuses of the runs without α,
"misclassified" where the argmax (ties: the smallest class, as the runs predict) is not
y_i.

At the dual optimum the statuses and positions agree with the KKT conditions: non-SV
(α = 0) ⇒ on or beyond the margin, free SV (0 < α < C) ⇒ on the margin, bounded SV
(α = C) ⇒ on or inside the margin.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "DISTANCE",
    "POSITIONS",
    "STATUSES",
    "multiclass_point_rows",
    "point_rows",
    "table_columns",
    "w_norm",
]

STATUSES = ("non-SV", "SV", "free SV", "bounded SV", "margin violator", "misclassified")
POSITIONS = ("misclassified", "inside the margin", "on the margin", "beyond the margin")


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
        ``"alpha"`` (NaN without α), ``"position"`` (from :data:`POSITIONS`) and
        ``"status"`` (from :data:`STATUSES`).
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
    wrong = np.where(f > 0, 1.0, -1.0) != y
    position = np.full(n, "beyond the margin", dtype=object)
    position[np.abs(yf - 1.0) <= tol] = "on the margin"
    position[yf < 1.0 - tol] = "inside the margin"
    position[wrong] = "misclassified"
    status = np.full(n, "non-SV", dtype=object)
    if alpha is None:  # the SGD runs: the status follows y f alone
        alpha_col = np.full(n, np.nan)
        status[np.abs(yf - 1.0) <= tol] = "free SV"
        status[yf < 1.0 - tol] = "margin violator"
        status[wrong] = "misclassified"
    else:  # the dual: the status is its α's, wherever the point lies
        alpha_col = _vector(alpha, "alpha", n)
        scale = float(C) if C is not None else max(1.0, float(np.max(alpha_col, initial=0.0)))
        if np.any(alpha_col < -tol * scale) or (C is not None and np.any(alpha_col > C + tol * C)):
            box = "[0, C]" if C is not None else "[0, ∞)"
            raise ValueError(f"alpha must lie in {box} (to tol), the dual's box")
        status[alpha_col > tol * scale] = "free SV"
        if C is not None:
            status[alpha_col >= C - tol * scale] = "bounded SV"
    return {
        "index": np.arange(1, n + 1),
        "label": y,
        "f": f,
        "yf": yf,
        "xi": xi,
        "alpha": alpha_col,
        "position": position.astype(str),
        "status": status.astype(str),
    }


def multiclass_point_rows(scores, y_idx, *, tol=1e-6) -> dict:
    """The columns of the per-point table of a k-class model.

    Parameters
    ----------
    scores : array, shape (n, k)
        The class scores s_c(x_i) (columns in class order).
    y_idx : array of int, shape (n,)
        The class index 0..k−1 of each point's label.
    tol : float >= 0
        Tolerance of m = 1 (as in :func:`point_rows`).

    Returns
    -------
    dict of str to ndarray
        ``"index"`` (1-based), ``"label"`` (the class index), ``"scores"`` (n, k),
        ``"margin"`` m_i, ``"xi"``, ``"status"``.
    """
    S = np.asarray(scores, dtype=float)
    if S.ndim != 2 or S.shape[1] < 2:
        raise ValueError(f"scores must have shape (n, k) with k >= 2, got {S.shape}")
    if not np.all(np.isfinite(S)):
        raise ValueError("scores must be finite (no NaN or infinity)")
    n, k = S.shape
    yi = _vector(y_idx, "y_idx", n)
    if not np.all((yi == np.round(yi)) & (yi >= 0) & (yi < k)):
        raise ValueError(f"y_idx must hold class indices 0..{k - 1}")
    yi = yi.astype(np.int64)
    rows = np.arange(n)
    others = S.copy()
    others[rows, yi] = -np.inf
    margin = S[rows, yi] - others.max(axis=1)
    # point_rows with y = +1 and f = m gives ξ and the margin statuses
    out = point_rows(margin, np.ones(n), tol=tol)
    status = out["status"].astype(object)
    wrong = np.argmax(S, axis=1) != yi
    status[(margin <= 0) & ~wrong] = "margin violator"  # a tie won by y_i (smallest class)
    status[wrong] = "misclassified"
    return {
        "index": out["index"],
        "label": yi,
        "scores": S,
        "margin": margin,
        "xi": out["xi"],
        "status": status.astype(str),
    }


def _ring_status(view, k: int, n: int) -> np.ndarray:
    """The status of each point as the plane rings it at snapshot ``k`` (``view.rings``):
    the dual's free / bounded SVs, or the SVs (α_j ≠ 0) of kernel Pegasos."""
    rings = view.rings(k)
    status = np.full(n, "non-SV", dtype=object)
    if "support" in rings:
        status[np.asarray(rings["support"], dtype=int)] = "SV"
    else:
        status[np.asarray(rings.get("free", ()), dtype=int)] = "free SV"
        status[np.asarray(rings.get("bounded", ()), dtype=int)] = "bounded SV"
    return status.astype(str)


#: The distance column's name: Lin's distance(x, b, w) = |wᵀx + b|/‖w‖.
DISTANCE = "distance |f(x)|/‖w‖"


def w_norm(view, k: int) -> float:
    """‖w‖ of a binary view at snapshot ``k``: of w itself (linear), or √(cᵀKc) in the
    kernel's feature space (f = Σ_j c_j K(x_j, ·) + b)."""
    c = np.asarray(view.coef[k], dtype=float)
    if view.kernel is None:
        return float(np.sqrt(c @ c))
    K = np.asarray(view.kernel(view.X, view.X), dtype=float)
    return float(np.sqrt(max(0.0, float(c @ K @ c))))


def table_columns(view, y, k: int, *, tol=1e-6) -> dict:
    """The per-point table of a model view (:mod:`svmlab.plot.views`) at snapshot ``k``, as
    ordered display columns {name: array (n,)}.

    Binary views: i, y, f(x), y f(x), Lin's distance |f(x)|/‖w‖ (seed 003, *Linear SVM*;
    ‖w‖ in the feature space for a kernel, ‖w‖² = cᵀKc; NaN while w = 0), ξ, α, position,
    status. Where the view has α (the
    dual: α ≥ 0 in [0, C]; kernel Pegasos: SSBD's signed α_j, f = Σ_j α_j K(x_j, x)) the
    status is the plane's rings at ``k`` — the dual's free / bounded SVs (the metrics'
    counts at the last snapshot), kernel Pegasos' SVs α_j ≠ 0 — so the table, the plane
    and the metrics name the same points; the linear SGD views (no α) are classified by
    y f alone. Multiclass views: i, y, one score per class, the margin m, ξ, status.
    """
    values = np.asarray(view.train_values(k), dtype=float)
    if values.ndim == 2:
        rows = multiclass_point_rows(values, view.class_index(y), tol=tol)
        cols = {"i": rows["index"], "y": np.asarray(view.classes)[rows["label"]]}
        for c, label in enumerate(np.asarray(view.classes).tolist()):
            cols[f"s_{label}(x)"] = rows["scores"][:, c]
        cols["margin m"] = rows["margin"]
        cols["ξ"] = rows["xi"]
        cols["status"] = rows["status"]
        return cols
    y = np.asarray(y, dtype=float)
    rows = point_rows(values, y, tol=tol)
    status, alpha = rows["status"], rows["alpha"]
    if view.alpha is not None:  # the dual (view.C set) or kernel Pegasos: its α and rings
        status = _ring_status(view, k, y.shape[0])
        coef = np.asarray(view.coef[k], dtype=float)
        signed = view.C is None and view.kernel is not None and coef.shape == y.shape
        alpha = coef if signed else np.asarray(view.alpha[k], dtype=float)
    norm = w_norm(view, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        distance = np.abs(rows["f"]) / norm if norm > 0 else np.full(y.shape[0], np.nan)
    return {
        "i": rows["index"],
        "y": rows["label"].astype(int),
        "f(x)": rows["f"],
        "y f(x)": rows["yf"],
        DISTANCE: distance,
        "ξ": rows["xi"],
        "α": alpha,
        "position": rows["position"],
        "status": status,
    }
