"""Math rendered to MathML when the docs are built: no MathJax, nothing from a CDN.

Sphinx's default HTML math renderer loads MathJax from a CDN. This one converts each
formula's LaTeX with ``latex2mathml`` at build time; browsers draw MathML themselves
(MathML Core: Chromium 109+, Firefox, Safari), so the pages work offline.
"""

from __future__ import annotations

from docutils import nodes
from latex2mathml.converter import convert


def _inline(self, node):
    self.body.append(convert(node.astext().strip(), display="inline"))
    raise nodes.SkipNode


def _block(self, node):
    latex = node.astext().strip()
    parts = [p for p in latex.split("\n\n") if p.strip()] if not node.get("nowrap") else [latex]
    self.body.append(self.starttag(node, "div", CLASS="math mathml"))
    if node.get("number"):
        self.body.append(f'<span class="eqno">({node["number"]})')
        if node["ids"]:
            self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    for part in parts:
        self.body.append(convert(part.strip(), display="block"))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (_inline, None), (_block, None))
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
