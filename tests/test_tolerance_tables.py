"""Every test module states its tolerances in one place and one form (the house style).

Right after the imports, either a table of module-level constants named ``TOL_*``, one line
each with a comment saying what is compared::

    # Tolerance table ------------------------------------------------------------------------
    TOL_TRANSCRIPTION = 1e-12  # the algorithm box written out in the test vs the engine

(further ``#`` lines may follow a constant to keep its justification), or one line saying
why no comparison needs one::

    # Tolerance table: none — snapshot indices and classes are compared exactly

Checked: every ``tests/**/test_*.py`` has exactly one such line and no other tolerance
section (in its docstring or in comments); the table sits between the last top-level import
and the first function or class; a constant named like a tolerance is a ``TOL_*`` of the
table, and every ``TOL_*`` is used.
"""

import ast
import re
from pathlib import Path

import pytest

# Tolerance table: none — structural checks on the test modules' text.

ROOT = Path(__file__).resolve().parents[1]
TESTS = sorted((ROOT / "tests").rglob("test_*.py"))
HEADER = "# Tolerance table " + "-" * 72
NONE = re.compile(r"# Tolerance table: none — \S.*")
#: Any line that looks like the start of a tolerance section, in any of the old forms.
SECTION_LINE = re.compile(
    r"^#\s*(?:-+\s*)?(?:tolerance table|tolerances?\s*:|no tolerances?\b)", re.I
)
#: A tolerance section inside the module docstring (the old forms).
DOC_SECTION = re.compile(
    r"(?:^\s*|[.;]\s+)(?:tolerance table|tolerances?\s*[:(]|no tolerances?\b)", re.I | re.M
)
CONSTANT = re.compile(r"TOL_[A-Z0-9_]+ = [^#]+  # \S.*")
#: A module-level name spelled like a tolerance (RTOL, X_TOL, COORD_ATOL, RING_TOL_PX, …).
TOLERANCE_NAME = re.compile(r"(?:^|_)[AR]?TOL(?:_|$)")


def _ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _top_level_names(tree: ast.Module) -> dict[str, int]:
    """Module-level assigned names -> line of the assignment."""
    names = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    names[name.id] = node.lineno
    return names


def test_the_test_modules_are_found():
    assert len(TESTS) > 50
    assert Path(__file__) in TESTS


@pytest.mark.parametrize("path", TESTS, ids=_ids)
def test_one_tolerance_table_right_after_the_imports(path: Path):
    text = path.read_text("utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)

    sections = [i for i, line in enumerate(lines) if SECTION_LINE.match(line)]
    assert len(sections) == 1, f"{len(sections)} tolerance sections at lines {sections}"
    at = sections[0]
    line = lines[at]
    assert line == HEADER or NONE.fullmatch(line), f"line {at + 1}: {line!r} is not the form"

    doc = ast.get_docstring(tree) or ""
    found = DOC_SECTION.search(doc)
    assert not found, f"the docstring still has a tolerance section: {found.group(0)!r}"

    imports = [n.lineno for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    defs = [
        n.lineno
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    if imports:
        assert max(imports) < at + 1, "the table comes after the last top-level import"
    if defs:
        assert at + 1 < min(defs), "the table comes before the first function or class"

    names = _top_level_names(tree)
    tolerances = {n: ln for n, ln in names.items() if n.startswith("TOL_")}
    misnamed = sorted(n for n in names if TOLERANCE_NAME.search(n) and not n.startswith("TOL_"))
    assert not misnamed, f"tolerances must be named TOL_*: {misnamed}"

    if line != HEADER:
        assert not tolerances, f"'none' but the module defines {sorted(tolerances)}"
        return

    block = []
    for row in lines[at + 1 :]:
        if not row.strip():
            break
        block.append(row)
    in_table = set()
    for row in block:
        if row.startswith("#"):
            continue
        assert CONSTANT.fullmatch(row), f"not 'TOL_NAME = value  # what is compared': {row!r}"
        in_table.add(row.split(" = ")[0])
    assert in_table, "the table holds no TOL_* constant"
    assert set(tolerances) == in_table, f"TOL_* outside the table: {set(tolerances) - in_table}"


@pytest.mark.parametrize("path", TESTS, ids=_ids)
def test_every_tolerance_constant_is_used(path: Path):
    tree = ast.parse(path.read_text("utf-8"))
    defined = {n for n in _top_level_names(tree) if n.startswith("TOL_")}
    used = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }
    assert defined <= used, f"defined and never used: {sorted(defined - used)}"
