"""Figures as plain data for export: LaTeX made plain Unicode, the default pixel size.

Rendering offline needs no MathJax (which would be fetched from the internet), so every
``$…$`` span of a figure's texts becomes Unicode (λ, γ, ξᵢ, α instead of ``$\\lambda$``).
"""

from __future__ import annotations

import copy
import re

__all__ = [
    "DEFAULT_HEIGHT",
    "DEFAULT_WIDTH",
    "figure_size",
    "plain_figure",
    "plain_text",
    "plain_tree",
]

#: Pixel size of a figure whose layout sets none (Plotly's own default is 700 × 450).
DEFAULT_WIDTH = 700
DEFAULT_HEIGHT = 520

# LaTeX commands the app's texts might use, as Unicode: "command glyph" pairs.
_LATEX_PAIRS = r"""
\lambda λ \gamma γ \alpha α \beta β \eta η \sigma σ \xi ξ \Psi Ψ \psi ψ \phi φ \Phi Φ
\Delta Δ \delta δ \theta θ \mu μ \nu ν \epsilon ε \varepsilon ε \sum Σ \leq ≤ \le ≤
\geq ≥ \ge ≥ \neq ≠ \pm ± \cdot · \times × \infty ∞ \in ∈ \langle ⟨ \rangle ⟩ \| ‖
\top ᵀ \to →
""".split()
_LATEX = dict(zip(_LATEX_PAIRS[::2], _LATEX_PAIRS[1::2], strict=True))
_LATEX.update({r"\quad": " ", r"\,": " ", r"\;": " ", r"\!": ""})
_SUB = str.maketrans("0123456789+-=()aeijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-=()nTi", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿᵀⁱ")
_MATH = re.compile(r"\$\$?(.+?)\$\$?", re.S)
_COMMAND = re.compile(r"\\(?:mathrm|text|mathbf|boldsymbol|operatorname|mathit)\{([^{}]*)\}")
_SCRIPT = re.compile(r"([_^])(\{[^{}]*\}|.)")


def _math_to_unicode(expr: str) -> str:
    expr = _COMMAND.sub(r"\1", expr)
    for command in sorted(_LATEX, key=len, reverse=True):
        expr = expr.replace(command, _LATEX[command])

    def script(m: re.Match) -> str:
        body = m.group(2).strip("{}")
        table = _SUB if m.group(1) == "_" else _SUP
        mapped = body.translate(table)
        # a character without a Unicode sub/superscript keeps Plotly's own markup
        if any(ch == orig for ch, orig in zip(mapped, body, strict=True) if ch.isalnum()):
            tag = "sub" if m.group(1) == "_" else "sup"
            return f"<{tag}>{body}</{tag}>"
        return mapped

    expr = _SCRIPT.sub(script, expr)
    return expr.replace("{", "").replace("}", "").replace("\\", "")


def plain_text(text):
    """``text`` with every LaTeX span ``$…$`` / ``$$…$$`` turned into plain Unicode.

    ``"$\\lambda = 0.1, \\xi_i$"`` → ``"λ = 0.1, ξᵢ"``. Non-strings (None) pass through.
    Rendering then needs no MathJax (which would be fetched from the internet).
    """
    if not isinstance(text, str) or "$" not in text:
        return text
    return _MATH.sub(lambda m: _math_to_unicode(m.group(1)), text).replace("$", "")


def plain_tree(node):
    """Apply :func:`plain_text` to every ``text``/``name``/``title`` string of a figure dict."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("text", "name", "title", "label", "prefix") and isinstance(value, str):
                out[key] = plain_text(value)
            else:
                out[key] = plain_tree(value)
        return out
    if isinstance(node, list):
        return [plain_tree(v) for v in node]
    return node


def plain_figure(fig) -> dict:
    """The figure as a dict (frames included) with all LaTeX text made plain Unicode."""
    d = fig.to_dict() if hasattr(fig, "to_dict") else copy.deepcopy(dict(fig))
    return plain_tree(d)


def figure_size(fig) -> tuple[int, int]:
    """``(width, height)`` in CSS pixels: the layout's, else DEFAULT_WIDTH × DEFAULT_HEIGHT."""
    layout = fig.get("layout", {}) if isinstance(fig, dict) else fig.layout.to_plotly_json()
    width = layout.get("width") or DEFAULT_WIDTH
    height = layout.get("height") or DEFAULT_HEIGHT
    return round(float(width)), round(float(height))
