"""The model in words: a text description of the plane at a snapshot, the α table and the
step narration — for a screen reader, and for everyone who reads rather than looks.

:func:`describe_model` says what the plane shows at snapshot k of a run: the boundary
f(x) = 0 (for a linear model its equation w₁x₁ + w₂x₂ + b = 0 with numbers; otherwise where
it crosses the plane's edges and which regions are which class), the margin 1/‖w‖ (Lin's
geometric margin, seed 003; in the feature space for a kernel), the support vectors (how
many, free and bounded for the dual, the largest α with its point number counted from 1,
as the texts count), and the training errors. Its first line is a one-sentence summary
(the plane's accessible name); the whole text is its accessible description.

:func:`alpha_table` is the α bars as a table, :func:`narrate_step` one step of the
inspector as a sentence tied to the pseudo-code's line that ran.

Pure: NumPy and :mod:`svmlab.state`; a model view (:mod:`svmlab.plot.views`) is read
through its attributes only (``t``, ``coef``, ``b``, ``kernel``, ``alpha``, ``support``,
``C``, ``rings``, ``train_values``, ``classes``).
"""

from __future__ import annotations

import numpy as np

from svmlab.study.plane_words import (
    class_words,
    coarse,
    crossing_text,
    direction,
    edge_crossings,
    edge_runs,
    equation,
    fmt,
    gfmt,
    line_crossings,
    numbers,
    point,
    region_sentence,
)

__all__ = ["alpha_table", "describe_model", "narrate_step", "summary_line"]


def summary_line(text: str) -> str:
    """The first line of a description (its one-sentence summary)."""
    return text.split("\n", 1)[0]


def _linear_w(view, k: int, X):
    """(w, b) of a linear model at snapshot k, or None for another kernel."""
    kernel = getattr(view, "kernel", None)
    coef = np.asarray(view.coef[k], dtype=float)
    b = 0.0 if view.b is None else float(view.b[k])
    if kernel is None:
        return coef[:2], b
    if getattr(kernel, "name", None) == "linear":
        return np.asarray(X, dtype=float).T @ coef, b
    return None


def _norm2(view, k: int, X) -> float:
    """‖w‖² of the binary model at snapshot k (in the feature space for a kernel)."""
    coef = np.asarray(view.coef[k], dtype=float)
    if view.kernel is None:
        return float(coef @ coef)
    X = np.asarray(X, dtype=float)
    keep = np.flatnonzero(coef)
    if keep.size == 0:
        return 0.0
    return float(coef[keep] @ view.kernel(X[keep], X[keep]) @ coef[keep])


def _time(view, k: int) -> str:
    t = np.asarray(view.t)
    if t.shape[0] <= 1:
        return "the trained model"
    last = " (the last snapshot)" if k == t.shape[0] - 1 else f" (snapshot {k + 1} of {t.shape[0]})"
    return f"the model at t = {int(t[k]):,}{last}"


def _errors(wrong, n: int) -> str:
    wrong = np.flatnonzero(wrong)
    if wrong.size == 0:
        return f"Training errors: none — all {n} points are on their class's side."
    acc = 100.0 * (1 - wrong.size / n)
    verb = "is" if wrong.size == 1 else "are"
    return (
        f"Training errors: {wrong.size} of {n} points {verb} misclassified (training accuracy "
        f"{acc:.1f} %): point{'s' if wrong.size > 1 else ''} {numbers(wrong)}."
    )


def _support(view, k: int, X, y, f) -> tuple[str, str]:
    """(summary phrase, sentence) of the support vectors at snapshot k."""
    X = np.asarray(X, dtype=float)
    alpha = None if view.alpha is None else np.asarray(view.alpha[k], dtype=float)
    C = getattr(view, "C", None)
    if C is not None:
        rings = view.rings(k)
        free, bounded = np.asarray(rings["free"]), np.asarray(rings["bounded"])
        n_sv = len(free) + len(bounded)
        box = "the hard margin has no bound C" if not np.isfinite(C) else f"α_n = C = {gfmt(C)}"
        text = (
            f"Support vectors (α_n > 0): {n_sv} — {len(free)} free (0 < α_n < C, on the "
            f"margins f(x) = ±1, ringed by circles) and {len(bounded)} bounded ({box}, "
            "ringed by grey squares)."
        )
        if not np.isfinite(C):
            text = f"Support vectors (α_n > 0): {n_sv}, ringed (hard margin: none bounded)."
        phrase = f"{n_sv} support vectors ({len(free)} free, {len(bounded)} bounded)"
    else:
        support = np.flatnonzero(np.asarray(view.support[k], dtype=bool))
        n_sv = support.size
        ring = getattr(view, "ring", None)
        if alpha is not None:
            text = f"Support vectors (α_j ≠ 0): {n_sv}, ringed and drawn larger as |α_j| grows."
            phrase = f"{n_sv} support vectors"
        elif ring is not None and ring <= 0:
            text = f"Ringed: {n_sv} points with y f(x) ≤ 0 (misclassified or on the boundary)."
            phrase = f"{n_sv} points with y f(x) ≤ 0"
        else:
            text = (
                f"Support vectors: {n_sv} points with y f(x) ≤ 1 (on or inside the margin), ringed."
            )
            phrase = f"{n_sv} support vectors (y f(x) ≤ 1)"
    if alpha is not None and alpha.size and float(np.max(alpha)) > 0:
        j = int(np.argmax(alpha))
        top = float(alpha[j])
        ties = int(np.count_nonzero(alpha >= top * (1 - 1e-8)))
        label = "+1" if float(y[j]) > 0 else "−1"
        who = f"point {j + 1}" if ties == 1 else f"{ties} points, the first point {j + 1}"
        text += (
            f" The largest α is {gfmt(top)}: {who}, at {point(*X[j])} "
            f"(y = {label}, y f(x) = {fmt(float(y[j]) * f[j])})."
        )
    return phrase, text


def describe_binary(view, X, y, k: int, values, xrange, yrange) -> str:
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y, dtype=float)
    n = X.shape[0]
    neg, pos = class_words("y = −1", 0), class_words("y = +1", 1)
    f = np.asarray(view.train_values(k), dtype=float)
    xs, ys, Z = values
    lines = []
    lin = _linear_w(view, k, X)
    norm2 = _norm2(view, k, X) if lin is None else float(lin[0] @ lin[0])
    where = "" if lin is not None else " in the feature space"
    if lin is not None:
        w, b = lin
        if not np.any(w):
            boundary = f"w = 0: f(x) = b = {fmt(b)} everywhere, so no boundary"
            lines.append(f"Boundary: none — w = 0 and f(x) = {fmt(b)} on the whole plane.")
        else:
            cross = line_crossings(w, b, xrange, yrange)
            boundary = f"boundary {equation(w, b)}"
            seen = (
                f"it crosses the plane at {crossing_text(cross)}"
                if cross
                else "it lies outside the plane shown"
            )
            lines.append(
                f"Boundary f(x) = 0: the line {equation(w, b)} (w = ({fmt(w[0])}, "
                f"{fmt(w[1])}), b = {fmt(b)}); {seen}. On its side towards "
                f"{direction(w)} f(x) > 0: class {pos}; on the other side class {neg}."
            )
    else:
        Zc = np.asarray(Z, dtype=float)
        cross = edge_crossings(xs, ys, Zc)
        if np.all(Zc > 0) or np.all(Zc <= 0):
            side = pos if np.all(Zc > 0) else neg
            boundary = "no boundary in the plane"
            lines.append(f"Boundary: none in the plane shown — all of it is classed {side}.")
        elif cross:
            boundary = f"a curved boundary crossing the edges {len(cross)} times"
            lines.append(
                "Boundary f(x) = 0: a curve (the kernel's) that crosses the plane's edges at "
                f"{crossing_text(cross)}."
            )
        else:
            boundary = "a closed boundary inside the plane"
            lines.append("Boundary f(x) = 0: closed curves inside the plane, reaching no edge.")
        cx, cy, cz = coarse(xs, ys, Zc)
        lines.append("Regions: " + region_sentence(pos, cz > 0, cx, cy, xrange, yrange))
        lines.append("Regions: " + region_sentence(neg, cz <= 0, cx, cy, xrange, yrange))
    if norm2 > 0:
        m = 1.0 / np.sqrt(norm2)
        lines.append(
            f"Margin: 1/‖w‖ = {gfmt(m)}{where}; the dashed lines f(x) = ±1 on either side of "
            f"the boundary are 2/‖w‖ = {gfmt(2 * m)} apart{where and ' there'}."
        )
    else:
        lines.append("Margin: undefined (w = 0).")
    sv_phrase, sv_text = _support(view, k, X, y, f)
    lines.append(sv_text)
    wrong = np.where(f > 0, 1.0, -1.0) != np.where(y > 0, 1.0, -1.0)
    lines.append(_errors(wrong, n))
    n_err = int(np.count_nonzero(wrong))
    summary = (
        f"Plane, {_time(view, k)}: {boundary}; {sv_phrase}; "
        f"{n_err} training error{'s' if n_err != 1 else ''} on {n} points."
    )
    return "\n".join([summary, *lines])


def describe_multiclass(view, X, y, k: int, values, xrange, yrange) -> str:
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    classes = np.asarray(view.classes)
    xs, ys, scores, amb = values
    scores = np.asarray(scores, dtype=float)
    kk = scores.shape[1]
    grid_cls = np.argmax(scores, axis=1).reshape(len(ys), len(xs))
    names = [f"class {c}" for c in classes.tolist()]
    words = [class_words(names[j], int(classes[j])) for j in range(kk)]
    lines = []
    cx, cy, cc = coarse(xs, ys, grid_cls)
    present = [j for j in range(kk) if np.any(cc == j)]
    for j in range(kk):
        lines.append("Regions: " + region_sentence(words[j], cc == j, cx, cy, xrange, yrange))
    lines.append("Along the edges: " + "; ".join(edge_runs(xs, ys, grid_cls, names)) + ".")
    if amb is not None:
        share = 100.0 * float(np.mean(np.asarray(amb, dtype=bool)))
        if share == 0:
            lines.append("Ambiguous regions: none (exactly one f_c is positive everywhere).")
        else:
            lines.append(
                f"Ambiguous (grey): {share:.1f} % of the plane, where no f_c or more than one "
                "f_c is positive; the argmax of the f_c decides there."
            )
    pred = classes[np.argmax(np.asarray(view.train_values(k), dtype=float), axis=1)]
    wrong = pred != y
    lines.append(_errors(wrong, len(y)))
    n_err = int(np.count_nonzero(wrong))
    summary = (
        f"Plane, {_time(view, k)}: {len(present)} class regions "
        f"({', '.join(names[j] for j in present)}); {n_err} training error"
        f"{'s' if n_err != 1 else ''} on {len(y)} points."
    )
    return "\n".join([summary, *lines])


def describe_model(view, X, y, k: int, *, values, xrange, yrange) -> str:
    """The plane of ``view`` at snapshot ``k`` in words (see the module docstring).

    Parameters
    ----------
    view : BinaryView or MulticlassView
        The run's model view (:mod:`svmlab.plot.views`).
    X : array, shape (n, 2)
    y : array, shape (n,)
        Labels: ±1 (binary) or the multiclass labels.
    k : int
        The snapshot shown.
    values : tuple
        ``view.grid_values(xrange, yrange, r, k)``: what the plane shades.
    xrange, yrange : (float, float)
        The plane's axes.

    Returns
    -------
    str
        Lines: a one-sentence summary first (:func:`summary_line`), then one line per
        aspect (boundary, regions, margin, support vectors, training errors).
    """
    k = int(k)
    if not 0 <= k < int(np.asarray(view.t).shape[0]):
        raise ValueError(f"k must be a snapshot index in 0..{len(view.t) - 1}, got {k}")
    if len(values) == 4:
        return describe_multiclass(view, X, y, k, values, xrange, yrange)
    return describe_binary(view, X, y, k, values, xrange, yrange)


def alpha_table(alpha, y, X, *, C=None) -> dict[str, list]:
    """The α bars as columns: point n (from 1), x₁, x₂, y, α_n and, with C, the status
    (0, free 0 < α < C, bounded α = C)."""
    a = np.asarray(alpha, dtype=float).reshape(-1)
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    if not a.shape[0] == X.shape[0] == y.shape[0]:
        raise ValueError(
            f"alpha, y and X must have one row per point, got {a.shape[0]}, {y.shape[0]}, "
            f"{X.shape[0]}"
        )
    table = {
        "point": list(range(1, a.shape[0] + 1)),
        "x₁": X[:, 0].tolist(),
        "x₂": X[:, 1].tolist(),
        "y": [int(v) for v in y.tolist()],
        "α": a.tolist(),
    }
    if C is not None:
        C = float(C)
        bound = np.isfinite(C) & (a >= C * (1 - 1e-8))
        table["status"] = [
            "bounded (α = C)" if b else ("free (0 < α < C)" if v > 1e-12 else "α = 0")
            for v, b in zip(a.tolist(), np.atleast_1d(bound).tolist(), strict=True)
        ]
    return table


def narrate_step(rows, lines=None, active=()) -> str:
    """One inspector step as a sentence: its rows (symbol, value) in order, then the
    pseudo-code's branch that ran (the lines of ``lines`` at ``active`` that run only on
    an update or only without one).

    E.g. "t = 12: sampled i (1-based) = 86, y_i = 1, η_t = 1/(λt) = 0.0833, margin y_i f(x_i)
    = 0.4, margin < 1 → update: yes. Ran: w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i."
    """
    rows = list(rows)
    if not rows:
        return ""
    head = f"{rows[0][0]} = {rows[0][1]}"
    rest = []
    for symbol, value in rows[1:]:
        sep = ": " if "→" in symbol else " = "
        rest.append(f"{symbol}{sep}{value}")
    text = head + (": " + ", ".join(rest) if rest else "") + "."
    ran = [
        lines[n].text.strip()
        for n in active
        if lines is not None and getattr(lines[n], "runs", "") in ("update", "skip")
    ]
    if ran:
        text += " Ran: " + "; ".join(ran) + "."
    return text
