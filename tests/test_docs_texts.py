"""docs/texts.md maps the texts' items to code and tests: every file, test and name it
cites must exist, so that the map cannot silently rot when code moves."""

import ast
import re
from pathlib import Path

# Tolerance table: none — existence checks.

ROOT = Path(__file__).resolve().parents[1]
TEXTS = (ROOT / "docs" / "texts.md").read_text("utf-8")
#: `path.py`, `path.py::name`, and the `::name` shorthands that follow a cited test file.
CITATION = re.compile(r"`((?:svmcore|svmlab|tests|pages|assets|benchmarks|docs)/[\w/.-]+)(::\w+)?`")
SHORTHAND = re.compile(r"`::(\w+)`")


def _names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def test_every_cited_file_and_test_exists():
    missing = []
    for line in TEXTS.splitlines():
        last = None
        for m in re.finditer(rf"{CITATION.pattern}|{SHORTHAND.pattern}", line):
            path, name, short = m.group(1), m.group(2), m.group(3)
            if path:
                last = ROOT / path
                if not last.exists():
                    missing.append(path)
                    continue
                name = name[2:] if name else None
            else:
                name = short
            if name and last is not None and last.suffix == ".py" and last.exists():
                if name not in _names(last):
                    missing.append(f"{last.relative_to(ROOT)}::{name}")
    assert not missing, missing


def test_the_five_seeds_are_named():
    for seed in ("000", "001", "002", "003", "004"):
        assert f"seed {seed}" in TEXTS.lower() or f"| {seed}" in TEXTS, seed
