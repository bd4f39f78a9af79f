"""Dependencies point one way: pages → svmlab → svmcore; svmcore needs NumPy only."""

import ast
import subprocess
import sys
from pathlib import Path

# Tolerance table: none — these are structural checks on imports.

ROOT = Path(__file__).resolve().parents[1]
ESTIMATOR_MODULES = {"estimators.py", "dual_estimator.py", "multiclass_estimators.py"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_svmcore_algorithms_import_numpy_only():
    allowed = {"numpy", "svmcore", "__future__", "dataclasses", "collections", "numbers",
               "importlib", "math", "typing", "heapq", "functools", "itertools", "types",
               "warnings", "sys", "time"}  # fmt: skip
    for path in sorted((ROOT / "svmcore").rglob("*.py")):
        if path.name in ESTIMATOR_MODULES:
            continue
        extra = imported_modules(path) - allowed
        assert not extra, f"{path.name} imports {sorted(extra)}"


def test_importing_svmcore_loads_no_heavy_library():
    code = (
        "import sys, svmcore, svmcore.sgd.kernel_pegasos, svmcore.sgd.pegasos, svmcore.dual, "
        "svmcore.sgd.multiclass_sgd, svmcore.sgd.multiclass_pegasos, svmcore.sgd.one_vs_all, "
        "svmcore.sgd.perceptron; "
        "print(sorted(m for m in ('sklearn', 'streamlit', 'plotly', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_figures_and_playback_do_not_import_streamlit():
    for name in ("figures.py", "playback.py", "points.py", "style.py"):
        assert "streamlit" not in imported_modules(ROOT / "svmlab" / name), name


def test_pages_do_not_build_figures_or_import_numpy_maths():
    for path in sorted((ROOT / "pages").glob("*.py")):
        mods = imported_modules(path)
        assert "plotly" not in mods, f"{path.name} builds figures itself"
        assert "svmcore" not in mods, f"{path.name} calls svmcore directly"
        assert "numpy" not in mods, f"{path.name} does maths"
