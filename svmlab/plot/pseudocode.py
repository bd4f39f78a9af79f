"""Pseudo-code as the lecture texts write it: tagged lines, the lines a step ran, HTML.

An algorithm's code is a function of the options chosen on the page (its registry
entry's ``code(options)``) returning a list of :class:`Line`: the code on screen is the
code of those options (the sampling loop, the step size, the output...). Each line says
*which steps execute it* (``runs``: never — set-up and output —, every step, only steps
whose update fired, only steps whose update did not fire), so the active lines of a step
follow from the step's record (its ``update`` / ``changed`` flag), never from hard-coded
list positions. Pure: no Streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Line", "active_lines", "num", "render_html", "updated"]

RUNS = ("never", "step", "update", "skip")


@dataclass(frozen=True)
class Line:
    """One line of pseudo-code.

    ``runs``: "never" (set-up, output), "step" (every iteration), "update" (only when the
    step's update fired), "skip" (only when it did not).
    """

    text: str
    runs: str = "never"

    def __post_init__(self):
        if self.runs not in RUNS:
            raise ValueError(f"runs must be one of {RUNS}, got {self.runs!r}")


def updated(step: Mapping) -> bool:
    """Whether a recorded step's update fired: its ``update`` flag (SGD), ``changed``
    (multiclass), or, for SMO, whether it was a pair update (``kind`` "pair"; a Newton
    step — kind "newton"/"polish", i = j = −1 — runs the code's other branch)."""
    if "update" in step:
        return bool(step["update"])
    if "changed" in step:
        return bool(step["changed"])
    if "kind" in step:
        return str(step["kind"]) == "pair"
    return int(step.get("i", 0)) >= 0


def active_lines(lines, step: Mapping | None) -> list[int]:
    """0-based indices of the ``lines`` that ``step`` executed (none without a step)."""
    if step is None:
        return []
    fired = updated(step)
    runs = {"step"} | ({"update"} if fired else {"skip"})
    return [n for n, ln in enumerate(lines) if ln.runs in runs]


def render_html(lines, step: Mapping | None = None) -> str:
    """The ``lines`` as an HTML <pre> block, the lines ``step`` executed highlighted."""
    active = set(active_lines(lines, step))
    rows = []
    for n, line in enumerate(lines):
        body = line.text.lstrip(" ")
        # Leading spaces as &nbsp; (Markdown rendering would collapse them).
        text = "&nbsp;" * (len(line.text) - len(body)) + html.escape(body)
        if n in active:
            rows.append(
                f'<span style="background:#F0E442;color:#000;display:block">▶ {text}</span>'
            )
        else:
            rows.append(f'<span style="display:block">&nbsp;&nbsp;{text}</span>')
    return (
        '<pre style="font-size:0.85rem;line-height:1.35;padding:0.6rem;'
        'background:#f6f6f6;color:#222;border-radius:6px;white-space:pre-wrap">'
        + "".join(rows)
        + "</pre>"
    )


def num(v) -> str:
    """A value as the inspector shows it (4 significant digits, vectors in parentheses)."""
    if hasattr(v, "shape") and getattr(v, "ndim", 0) > 0:
        return "(" + ", ".join(num(x) for x in v.tolist()) + ")"
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(num(x) for x in v) + ")"
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    try:
        return f"{float(v) + 0.0:.4g}"  # + 0.0: −0 shows as 0
    except (TypeError, ValueError):
        return str(v)
