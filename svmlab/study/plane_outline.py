"""The plane as a tree for the keyboard (in the spirit of Olli and Data Navigator): the model,
its boundary and margins, the support vectors by α, every point — each node a sentence.

:func:`plane_outline` turns a run at snapshot k into JSON-ready data for the canvas
(``assets/plane_tree.js`` draws it as a ``role="tree"``; ``assets/plane_cursor.js`` reads
the counts out after a point is added, moved or erased):

* ``summary``: the description's first line (:func:`svmlab.study.describe.describe_model`);
  ``boundary``: its lines on the boundary, the regions and the margin; ``other``: the rest
  (support vectors, training errors);
* ``counts``: "57 support vectors (50 free, 7 bounded), training accuracy 99 %" — the
  support vectors as the description counts them (the dual's free and bounded rings,
  Lin's KKT conditions, seed 003; kernel Pegasos' α_j ≠ 0, SSBD §16.3; the linear SGD runs'
  ringed points y f(x) ≤ 1) and the training accuracy of sign f (multiclass: the argmax);
* ``points``: for point j (0-based here, "point j + 1" in the texts, as the texts count)
  ``[x₁, x₂, sentence]``, the sentence from the per-point table
  (:func:`svmlab.study.point_table.table_columns`): its place, class, α, status and the
  margin y f(x) (multiclass: m = s_y − max_{c≠y} s_c);
* ``sv``: the support vectors' point indices, largest α first (|α| for kernel Pegasos'
  signed α_j, SSBD §16.3); without α (the linear SGD runs) the ringed points, smallest y f(x) first;
  ``sv_label``: the tree node's name.

Pure: NumPy; a model view (:mod:`svmlab.plot.views`) is read through its attributes.
"""

from __future__ import annotations

import numpy as np

from svmlab.study.describe import summary_line, support_phrase
from svmlab.study.plane_words import fmt, gfmt, point
from svmlab.study.point_table import table_columns

__all__ = ["BOUNDARY_HEADS", "accuracy_text", "class_name", "plane_outline"]

#: The description's lines that go under "Boundary and margins".
BOUNDARY_HEADS = ("Boundary", "Regions", "Margin", "Along the edges", "Ambiguous")


def class_name(label, *, binary: bool = True) -> str:
    """A label as the texts write a class: "class +1", "class −1" (``binary``: labels ±1),
    "class 2" (multiclass: the label itself, 1 included)."""
    v = float(label)
    if binary:
        return "class +1" if v > 0 else "class −1"
    return f"class {int(v) if v == int(v) else v}"


def accuracy_text(share: float) -> str:
    """A percentage with at most one decimal: 99 → "99 %", 98.52 → "98.5 %"."""
    text = f"{float(share):.1f}".rstrip("0").rstrip(".")
    return f"{text} %"


def _point_sentences(cols: dict, X, y, binary: bool) -> list[str]:
    out = []
    for j in range(X.shape[0]):
        head = f"point {j + 1} at {point(*X[j])}, {class_name(y[j], binary=binary)}"
        if binary:
            alpha = float(cols["α"][j])
            status, where = str(cols["status"][j]), str(cols["position"][j])
            parts = [] if np.isnan(alpha) else [f"α = {gfmt(alpha)}"]
            parts.append(status)
            margin = f"y f(x) = {fmt(cols['y f(x)'][j])}"
            parts.append(margin if where == status else f"{margin} ({where})")
        else:
            parts = [f"margin m = {fmt(cols['margin m'][j])}", str(cols["status"][j])]
        out.append(f"{head}: {', '.join(parts)}")
    return out


def plane_outline(view, X, y, k: int, *, description: str) -> dict:
    """The plane of ``view`` at snapshot ``k`` as the keyboard tree's data (see the module
    docstring).

    Parameters
    ----------
    view : BinaryView or MulticlassView
        The run's model view (:mod:`svmlab.plot.views`).
    X : array, shape (n, 2)
    y : array, shape (n,)
        Labels: ±1 (binary) or the multiclass labels.
    k : int
        The snapshot shown.
    description : str
        :func:`svmlab.study.describe.describe_model` of the same snapshot.

    Returns
    -------
    dict
        ``n``, ``summary``, ``boundary``, ``other``, ``counts``, ``n_sv`` (None for
        multiclass), ``accuracy`` (percent), ``points``, ``sv``, ``sv_label``.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    n = X.shape[0]
    if y.shape[0] != n:
        raise ValueError(f"y must have one label per point of X ({n}), got {y.shape[0]}")
    k = int(k)
    if not 0 <= k < int(np.asarray(view.t).shape[0]):
        raise ValueError(f"k must be a snapshot index in 0..{len(view.t) - 1}, got {k}")
    cols = table_columns(view, y, k)
    binary = "y f(x)" in cols
    lines = [ln for ln in description.split("\n")[1:] if ln.strip()]
    boundary = [ln for ln in lines if ln.startswith(BOUNDARY_HEADS)]
    other = [ln for ln in lines if not ln.startswith(BOUNDARY_HEADS)]
    values = np.asarray(view.train_values(k), dtype=float)
    if binary:
        wrong = np.where(values > 0, 1.0, -1.0) != np.where(y.astype(float) > 0, 1.0, -1.0)
    else:
        classes = np.asarray(view.classes)
        wrong = classes[np.argmax(values, axis=1)] != y
    accuracy = 100.0 * (1.0 - float(np.mean(wrong))) if n else 100.0
    acc_text = f"training accuracy {accuracy_text(accuracy)}"
    sv: list[int] = []
    n_sv = None
    sv_label = ""
    if binary:
        phrase = support_phrase(view, X, y.astype(float), k)
        counts = f"{phrase}, {acc_text}"
        if view.alpha is not None:
            status = np.asarray(cols["status"])
            ids = np.flatnonzero(np.isin(status, ("SV", "free SV", "bounded SV")))
            signed = np.asarray(cols["α"], dtype=float)
            a = np.abs(signed)[ids]
            sv = ids[np.argsort(-a, kind="stable")].tolist()
            by = "|α|" if np.any(signed < 0) else "α"  # kernel Pegasos: SSBD's signed α_j
            sv_label = f"Support vectors by {by}, largest first ({len(sv)})"
        else:
            ids = np.flatnonzero(np.asarray(view.support[k], dtype=bool))
            yf = np.asarray(cols["y f(x)"], dtype=float)[ids]
            sv = ids[np.argsort(yf, kind="stable")].tolist()
            sv_label = f"Ringed points by y f(x), smallest first ({len(sv)})"
        n_sv = len(sv)
    else:
        counts = acc_text
    return {
        "n": int(n),
        "summary": summary_line(description),
        "boundary": boundary,
        "other": other,
        "counts": counts,
        "n_sv": n_sv,
        "accuracy": accuracy,
        "points": [
            [float(X[j, 0]), float(X[j, 1]), text]
            for j, text in enumerate(_point_sentences(cols, X, y, binary))
        ],
        "sv": [int(j) for j in sv],
        "sv_label": sv_label,
    }
