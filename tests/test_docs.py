"""The documentation: Sphinx builds docs/ offline with warnings as errors, every public
svmcore name has its API page, the gallery's figures are drawn, and no page loads anything
from another host (no CDN: no MathJax, no DataTables, no web font).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import svmcore

# Tolerance table: none — every check is exact.

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GALLERY = ROOT / "examples" / "gallery"
#: A resource the page loads from another host: <script src>, <link href>, <img src>,
#: <iframe src>, CSS @import or url() with an absolute http(s) or protocol-relative URL.
REMOTE = re.compile(
    r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?//"""
    r"""|<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?//"""
    r"""|@import\s+(?:url\()?["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//""",
    re.I,
)


def public_names() -> list[str]:
    return [n for n in svmcore.__all__ if not isinstance(getattr(svmcore, n), types.ModuleType)]


def test_the_api_reference_lists_every_public_svmcore_name():
    text = (DOCS / "api.rst").read_text()
    listed = set(re.findall(r"^   ([\w.]+)$", text, flags=re.M))
    missing = [n for n in public_names() if n not in listed]
    assert not missing, f"docs/api.rst does not list {missing}"


def test_the_remote_pattern_finds_cdn_loads_and_spares_links():
    assert REMOTE.search('<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex.js">')
    assert REMOTE.search("<link rel=stylesheet href='//fonts.googleapis.com/css'>")
    assert REMOTE.search("@import url(https://fonts.example/x.css);")
    assert not REMOTE.search('<a href="https://www.sphinx-doc.org/">Sphinx</a>')
    assert not REMOTE.search('<script src="_static/furo.js"></script>')


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q"]
    cmd += ["-d", str(out / "doctrees"), str(DOCS), str(out / "html")]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    print(f"docs built in {time.perf_counter() - start:.1f} s")
    assert done.returncode == 0, f"sphinx -W failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return out / "html"


@pytest.mark.slow
@pytest.mark.browser
def test_the_docs_build_with_warnings_as_errors(html):
    for page in ("index", "install", "api", "deploy", "routing", "gallery/index"):
        assert (html / f"{page}.html").is_file(), page
    for guide in ("lecturer", "student", "instructor", "library", "benchmarks"):
        assert (html / "guide" / f"{guide}.html").is_file(), guide
    for name in public_names():
        assert (html / "generated" / f"svmcore.{name}.html").is_file(), name


@pytest.mark.slow
@pytest.mark.browser
def test_every_gallery_example_has_its_figures(html):
    examples = sorted(p.stem for p in GALLERY.glob("plot_*.py"))
    assert len(examples) >= 5
    for stem in examples:
        page = (html / "gallery" / f"{stem}.html").read_text()
        images = re.findall(rf'src="\.\./_images/(sphx_glr_{stem}_\d+\.png)"', page)
        assert images, f"{stem}: no figure on its page"
        for name in images:
            assert (html / "_images" / name).read_bytes().startswith(b"\x89PNG"), name


@pytest.mark.slow
@pytest.mark.browser
def test_no_page_loads_anything_from_another_host(html):
    offenders = {}
    for path in html.rglob("*"):
        if path.suffix in (".html", ".css", ".js") and path.is_file():
            found = REMOTE.findall(path.read_text(errors="replace"))
            if found:
                offenders[str(path.relative_to(html))] = found[:3]
    assert not offenders, offenders
    student = (html / "guide" / "student.html").read_text()
    assert "<math" in student  # the formulas are MathML made at build time …
    assert not re.search(r"<script[^>]*mathjax", student, re.I)  # … not MathJax
