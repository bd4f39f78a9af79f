"""The page table and the router's contract with the page scripts (docs/routing.md).

Streamlit's pages-directory runner serves a cold deep link ``/<name>`` by running
``pages/<name>.py`` alone, so: every page script is in the table under its file's stem,
every page script calls ``enter(__file__)`` before anything else, and nothing reads a Streamlit
internal. The cold deep links themselves are driven in a browser in
``tests/e2e/test_router_browser.py``.
"""

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui import page as controls
from svmlab.ui import router

# Tolerance table: none — these are structural checks and exact page settings.

TIMEOUT_S = 120  # per AppTest run (a page trains its first run)

ROOT = Path(__file__).resolve().parents[3]
#: What a user sees and links to: section, URL path, sidebar title (the brief's contract).
EXPECTED = [
    ("SVM Lab", "home", "Home"),
    ("Binary", "linear_pegasos", "Linear Pegasos"),
    ("Binary", "kernel_pegasos", "Kernel Pegasos"),
    ("Dual", "dual_svm", "Dual SVM (QP / SMO)"),
    ("Multiclass", "multiclass", "Multiclass"),
    ("Kernels", "feature_space", "Feature space"),
    ("Study", "compare", "Compare solvers"),
    ("Study", "exercises", "Exercises"),
]
#: Built from pieces so that a grep of the project for them finds nothing but their use.
INTERNALS = ("Pages" + "Manager", "run" + "py", "uses_pages_" + "directory", "_mpa_" + "v1")


def test_the_page_table_keeps_titles_sections_and_url_paths():
    assert [(s.section, s.url_path, s.title) for s in router.PAGES] == EXPECTED
    assert [s.url_path for s in router.PAGES if s.default] == ["home"], "one home page, at /"


def test_every_page_script_is_in_the_table_under_its_file_name():
    # the pages-directory runner finds a cold deep link's page by its file's stem
    scripts = {p.name for p in (ROOT / "pages").glob("*.py") if p.name != "__init__.py"}
    assert scripts == {f"{s.url_path}.py" for s in router.PAGES}
    for spec in router.PAGES:
        assert spec.script == ROOT / "pages" / f"{spec.url_path}.py"
        assert spec.script.is_file(), spec.script


def _first_statement_after_imports(path: Path) -> ast.stmt:
    body = ast.parse(path.read_text()).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the module docstring
    return next(s for s in body if not isinstance(s, ast.Import | ast.ImportFrom))


@pytest.mark.parametrize("spec", router.PAGES, ids=lambda s: s.url_path)
def test_every_page_script_enters_through_the_router_first(spec):
    stmt = ast.unparse(_first_statement_after_imports(spec.script))
    assert stmt == "enter(__file__)", f"{spec.script.name} starts with {stmt!r}"


def test_app_runs_the_router():
    assert ast.unparse(_first_statement_after_imports(ROOT / "app.py")) == "router.run()"


def test_enter_refuses_a_script_that_is_not_a_page():
    with pytest.raises(ValueError, match=r"script must be a page of svmlab\.ui\.router\.PAGES"):
        router.enter(str(ROOT / "app.py"))


def test_tab_titles_name_the_page():
    titles = [router.tab_title(s) for s in router.PAGES]
    assert titles[0] == "SVM Lab"
    assert titles[1:] == [f"{t} · SVM Lab" for _, _, t in EXPECTED[1:]]


def test_nothing_reads_the_streamlit_internals_of_the_old_router():
    files = [
        p
        for ext in ("py", "md", "toml", "sh", "js")
        for p in ROOT.rglob(f"*.{ext}")
        if not {"static", "artifacts", ".git"} & set(p.relative_to(ROOT).parts)
    ]
    assert len(files) > 20, "the scan sees the project"
    hits = [(p.name, w) for p in files for w in INTERNALS if w in p.read_text(errors="replace")]
    assert not hits, hits
    assert not hasattr(controls, "ensure_router")


# The home page is left out: its st.page_link paths are relative to app.py's folder, which
# is the script's folder on a server (a cold "/" runs app.py, not pages/home.py).
@pytest.mark.parametrize("spec", router.PAGES[1:], ids=lambda s: s.url_path)
def test_a_page_run_alone_renders_like_a_deep_link(spec):
    # what the pages-directory runner does on a cold server: run the page file as the script
    at = AppTest.from_file(str(spec.script), default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title, "the page rendered its heading"
