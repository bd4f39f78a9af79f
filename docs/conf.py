"""Sphinx configuration of SVM Lab's documentation (build: ``bash scripts/docs.sh``).

Offline by design: the theme (furo) ships its own CSS and JavaScript, math is MathML made
at build time (``_ext/mathml.py``, no MathJax), and the gallery's figures are the app's
own Plotly figures written to PNG by SVM Lab's exporter (Kaleido on the system Chromium)
while the docs are built. ``tests/test_docs.py`` builds them with warnings as errors and
checks that no page loads anything from another host.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # svmcore and svmlab from this checkout
sys.path.insert(0, str(DOCS / "_ext"))
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import svmcore  # noqa: E402

project = "SVM Lab"
author = "SVM Lab contributors"
copyright = "SVM Lab contributors"
release = version = svmcore.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "mathml",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# -- offline HTML ----------------------------------------------------------------------------
html_theme = "furo"
html_title = f"SVM Lab {release}"
html_math_renderer = "mathml"
html_static_path: list[str] = []
html_show_sourcelink = False
html_last_updated_fmt = None
html_copy_source = False

# -- Markdown (the user guide, docs/deploy.md, docs/routing.md) ------------------------------
myst_enable_extensions = ["dollarmath", "deflist"]
myst_heading_anchors = 3
# docs/deploy.md opens with "## Deploying for a class" (tests/test_deploy.py wants it so).
suppress_warnings = ["myst.header"]

# -- the API reference -----------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # the numpydoc sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- the gallery: the app's figures, written to PNG when the docs are built -------------------
from plotly_gallery import use_gallery_renderer  # noqa: E402  (docs/_ext)

use_gallery_renderer()

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples" / "gallery"),
    "gallery_dirs": "gallery",
    "filename_pattern": r"plot_",
    "image_scrapers": ("plotly_gallery.plotly_scraper",),
    "reset_modules": ("plotly_gallery.reset_shown",),
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "abort_on_example_error": True,
    "show_memory": False,
    "write_computation_times": False,  # its page loads DataTables from a CDN
    "show_signature": False,
    "remove_config_comments": True,
}


def _close_renderer(app, exception):
    from svmlab.export import close_renderer

    close_renderer()


def setup(app):
    app.connect("build-finished", _close_renderer)
