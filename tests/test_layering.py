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
    allowed = {
        "numpy",
        "svmcore",
        "__future__",
        "dataclasses",
        "collections",
        "numbers",
        "importlib",
        "math",
        "typing",
        "heapq",
        "functools",
        "itertools",
        "types",
        "warnings",
        "sys",
        "time",
    }
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
    pure = (
        "figures.py",
        "playback.py",
        "points.py",
        "style.py",
        "curves.py",
        "regions.py",
        "views.py",
        "pseudocode.py",
    )
    for name in pure:
        assert "streamlit" not in imported_modules(ROOT / "svmlab" / name), name


def test_pages_do_not_build_figures_or_import_numpy_maths():
    for path in sorted((ROOT / "pages").glob("*.py")):
        mods = imported_modules(path)
        assert "plotly" not in mods, f"{path.name} builds figures itself"
        assert "svmcore" not in mods, f"{path.name} calls svmcore directly"
        assert "numpy" not in mods, f"{path.name} does maths"


def _app_files():
    return sorted((ROOT / "svmlab").rglob("*.py")) + sorted((ROOT / "pages").glob("*.py"))


def test_no_branch_on_an_algorithm_name_outside_the_registry():
    from svmlab.algorithms import ALGORITHMS

    names = set(ALGORITHMS) | {"dual", "mc_sgd", "mc_pegasos", "mc_ova", "multiclass"}
    registry = ROOT / "svmlab" / "algorithms"
    for path in _app_files():
        if registry in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                consts = [c for c in [node.left, *node.comparators] if isinstance(c, ast.Constant)]
                hits = [c.value for c in consts if c.value in names]
                assert not hits, f"{path.name}:{node.lineno} compares with {hits}"


def test_no_private_name_crosses_a_module_and_no_getattr_dispatch():
    for path in _app_files():
        text = path.read_text()
        assert "getattr(svmcore" not in text, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} imports {private} from {node.module}"


def test_no_app_module_over_400_lines():
    for path in sorted((ROOT / "svmlab").rglob("*.py")):
        n = len(path.read_text().splitlines())
        assert n <= 400, f"{path.relative_to(ROOT)} has {n} lines"
