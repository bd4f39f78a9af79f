"""The per-point reasoning table (pure: arrays in, columns out).

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

Multiclass (:func:`multiclass_point_rows`): the k scores s_c(x_i), the multiclass margin
m_i = s_{y_i} − max_{c ≠ y_i} s_c in the place of y f (seed 002 §2.3's constraint
s_{y_i} ≥ s_c + 1 − ξ_i), ξ = max(0, 1 − m) and the same statuses, "misclassified" where
the argmax (ties: the smallest class, as the runs predict) is not y_i.

At the dual optimum the rules agree with the KKT conditions: α = 0 ⇒ y f ≥ 1,
0 < α < C ⇒ y f = 1, α = C ⇒ y f ≤ 1 (a bounded SV shows as violator/misclassified
when ξ > 0).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["STATUSES", "multiclass_point_rows", "point_rows"]

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


def table_columns(view, y, k: int, *, tol=1e-6) -> dict:
    """The per-point table of a model view (:mod:`svmlab.plot.views`) at snapshot ``k``, as
    ordered display columns {name: array (n,)}.

    Binary views: i, y, f(x), y f(x), ξ, α, status. The dual's views (``view.C`` set) give
    their α ≥ 0 and C to the statuses; the SGD views are classified by y f alone, with
    kernel Pegasos' signed α_j (f = Σ_j α_j K(x_j, x)) shown and no α for a linear w.
    Multiclass views: i, y, one score per class, the margin m, ξ, status.
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
    if view.C is not None:  # the dual: α ≥ 0 in the box [0, C] (C = ∞: the hard margin)
        C = None if not np.isfinite(view.C) else float(view.C)
        rows = point_rows(values, y, np.asarray(view.alpha[k], dtype=float), C, tol=tol)
        alpha = rows["alpha"]
    else:
        rows = point_rows(values, y, tol=tol)
        coef = np.asarray(view.coef[k], dtype=float)
        alpha = coef if view.kernel is not None and coef.shape == y.shape else rows["alpha"]
    return {
        "i": rows["index"],
        "y": rows["label"].astype(int),
        "f(x)": rows["f"],
        "y f(x)": rows["yf"],
        "ξ": rows["xi"],
        "α": alpha,
        "status": rows["status"],
    }
