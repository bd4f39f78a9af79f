"""What holds about the smallest objective among the Compare page's fits (pure).

Only models on one feature space minimise over the same functions. There a free b can
only lower the minimum (b = 0 is one of its choices): the exact minimum with a free b (the
dual SVM with b, seed 003 at C = 1/(λn)) is the smallest P any model there can have, and
the exact minimum without b the smallest of the homogeneous ones. The linear models
(Pegasos, LinearSVC, SGDClassifier) work on x itself, which is another feature space
unless the page's kernel K is linear: across feature spaces no order holds, and
:func:`ordering_text` names the smallest P found on the fits shown instead of assuming one.
"""

from __future__ import annotations

from dataclasses import dataclass

from svmlab.study.compare import MODELS, REFERENCE, Comparison

__all__ = ["SpaceOrder", "feature_space", "ordering", "ordering_text"]


def feature_space(cmp: Comparison, key: str) -> str:
    """The feature space model ``key`` lives in: "K" (the page's kernel) or "linear" (x
    itself); with a linear K both are one space, "linear"."""
    if cmp.kernel.name == "linear" or not MODELS[key].solves.endswith(", K"):
        return "linear"
    return "K"


@dataclass(frozen=True)
class SpaceOrder:
    """The models of one feature space and what holds among them on the fits shown.

    Attributes
    ----------
    space : {"K", "linear"}
    keys : tuple of str
        Its models, in :data:`MODELS` order.
    smallest : str
        The model with the smallest P among them.
    P_smallest : float
    P_star_free_b : float or None
        The exact minimum with a free b on this space (the dual SVM with b's P), when the
        space has that model (the kernel K's space).
    P_star_homogeneous : float
        The exact minimum without b on this space.
    """

    space: str
    keys: tuple
    smallest: str
    P_smallest: float
    P_star_free_b: float | None
    P_star_homogeneous: float


def ordering(cmp: Comparison) -> list[SpaceOrder]:
    """Per feature space (the kernel K's first), its models and the smallest P among them.

    Only models on the same feature space minimise over the same functions: there the
    exact minimum with a free b is the smallest P any of them can have, and the exact
    minimum without b the smallest of the homogeneous ones. Across spaces no order holds.
    """
    out = []
    for space in ("K", "linear"):
        keys = tuple(k for k in MODELS if feature_space(cmp, k) == space)
        if not keys:
            continue
        P = {k: cmp.objective(k) for k in keys}
        best = min(keys, key=P.get)
        free_b = cmp.optima[MODELS[REFERENCE].solves] if REFERENCE in keys else None
        homog = "homogeneous, K" if space == "K" else "homogeneous, linear"
        out.append(SpaceOrder(space, keys, best, P[best], free_b, cmp.optima[homog]))
    return out


def ordering_text(cmp: Comparison) -> str:
    """What the table shows about the smallest P, in words with its numbers (Markdown)."""
    groups = ordering(cmp)
    parts = []
    for g in groups:
        names = "; ".join(MODELS[k].label for k in g.keys)
        if g.space == "K":
            where = f"**On the kernel K's feature space** ({names})"
        elif len(groups) > 1:
            where = f"**On the features x itself** ({names})"
        else:
            where = f"**On the one feature space of every model here** (K is linear: {names})"
        line = f"{where} the smallest P is {g.P_smallest:.6g}, by *{MODELS[g.smallest].label}*"
        if g.P_star_free_b is not None:
            line += (
                f"; there P* is {g.P_star_free_b:.6g} with a free b and "
                f"{g.P_star_homogeneous:.6g} without b (a free b can only lower it)"
            )
        else:
            line += f"; there P* (no b) is {g.P_star_homogeneous:.6g}"
        parts.append(line + ".")
    if len(groups) > 1:
        best = min(groups, key=lambda g: g.P_smallest)
        parts.append(
            "Different feature spaces are different problems, so no solver has the smallest "
            f"P by construction: here the smallest of all is *{MODELS[best.smallest].label}*'s."
        )
    return " ".join(parts)
