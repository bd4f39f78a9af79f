"""The house's layers: folders name them, and dependencies point one way.

svmcore needs NumPy only (its estimators add scikit-learn); in svmlab, each folder may
import only the folders below it (state → study → plot → algorithms → export → ui), and
Streamlit only under ``svmlab/ui`` and the registry's control builders.
"""

import ast
import subprocess
import sys
from pathlib import Path

# Tolerance table: none — these are structural checks on imports.

ROOT = Path(__file__).resolve().parents[1]

#: svmlab's folders, bottom first: each may import itself and the folders before it.
LAYERS = ("state", "study", "plot", "algorithms", "export", "ui")
#: What each svmlab folder may import besides svmlab's lower folders.
THIRD_PARTY = {
    "state": {"numpy", "svmcore"},
    "study": {"numpy", "svmcore", "sklearn"},
    "plot": {"numpy", "svmcore", "plotly"},
    "algorithms": {"numpy", "svmcore", "sklearn", "plotly", "streamlit"},
    "export": {"numpy", "svmcore", "plotly", "kaleido", "PIL", "imageio_ffmpeg"},
    "ui": {"numpy", "svmcore", "sklearn", "plotly", "streamlit", "kaleido", "tornado"},
}
HEAVY = {"sklearn", "streamlit", "plotly", "scipy", "pandas", "kaleido", "PIL", "tornado"}


def imported(path: Path) -> set[str]:
    """Every absolute module a file imports (``from a.b import c`` gives a.b and a.b.c)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def folder_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT / "svmlab").parts
    return parts[0] if len(parts) > 1 else None


def svmlab_files():
    return sorted((ROOT / "svmlab").rglob("*.py"))


def test_svmlab_has_few_top_level_modules_and_every_folder_says_its_rule():
    top = sorted(p.name for p in (ROOT / "svmlab").glob("*.py"))
    assert len(top) <= 10, top
    folders = sorted(p for p in (ROOT / "svmlab").iterdir() if (p / "__init__.py").exists())
    assert {p.name for p in folders} == set(LAYERS)
    for p in folders:
        doc = ast.get_docstring(ast.parse((p / "__init__.py").read_text()))
        assert doc and "Rule" in doc, f"{p.name}/__init__.py does not state its rule"


def test_each_svmlab_folder_imports_only_folders_below_it():
    wrong = []
    for path in svmlab_files():
        me = folder_of(path)
        if me is None:
            continue
        allowed = set(LAYERS[: LAYERS.index(me) + 1])
        for mod in imported(path):
            parts = mod.split(".")
            if parts[0] == "svmlab" and len(parts) > 1 and parts[1] in LAYERS:
                if parts[1] not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)} imports {mod}")
    assert not wrong, "\n".join(wrong)


def test_streamlit_only_under_ui_and_the_registry():
    for path in svmlab_files():
        me = folder_of(path)
        tops = {m.split(".")[0] for m in imported(path)}
        if me in ("ui", "algorithms") or me is None:
            continue
        extra = (tops & HEAVY) - THIRD_PARTY[me]
        assert not extra, f"{path.relative_to(ROOT)} imports {sorted(extra)}"


def resolved(name: str) -> str | None:
    """The module file a dotted name stands for (its longest prefix that is a module)."""
    while name:
        p = ROOT / name.replace(".", "/")
        if p.with_suffix(".py").exists() or (p / "__init__.py").exists():
            return name
        name = name.rpartition(".")[0]
    return None


def test_svmlab_has_no_import_cycle_between_modules():
    graph: dict[str, set[str]] = {}
    for path in svmlab_files():
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        deps = graph.setdefault(mod, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from pkg import sub`` imports sub (and pkg's __init__, which is not an edge)
                names = [resolved(f"{node.module}.{a.name}") for a in node.names]
            else:
                continue
            deps.update(n for n in map(resolved, filter(None, names)) if n and n != mod)
        deps -= {d for d in deps if not d.startswith("svmlab.")}
    done: set[str] = set()

    def visit(m: str, stack: list[str]) -> None:
        for d in graph.get(m, ()):
            assert d not in stack, "import cycle: " + " → ".join([*stack[stack.index(d) :], d])
            if d not in done:
                visit(d, [*stack, d])
        done.add(m)

    for m in graph:
        visit(m, [m])


def test_svmcore_imports_numpy_only():
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
        "operator",
    }
    for path in sorted((ROOT / "svmcore").rglob("*.py")):
        if "estimators" in path.relative_to(ROOT / "svmcore").parts:
            continue
        extra = {m.split(".")[0] for m in imported(path)} - allowed
        assert not extra, f"{path.relative_to(ROOT)} imports {sorted(extra)}"


def test_svmcore_dual_family_lives_in_its_folder():
    flat = {p.stem for p in (ROOT / "svmcore").glob("*.py")}
    assert not flat & {"dual", "smo", "smo_textbook", "primal", "dual_qp", "optimum"}, flat


def test_importing_svmcore_loads_no_heavy_library():
    code = (
        "import sys, svmcore, svmcore.sgd.kernel_pegasos, svmcore.sgd.pegasos, "
        "svmcore.dual, svmcore.dual.smo, svmcore.optimum.soft_svm, svmcore.sgd.multiclass_sgd, "
        "svmcore.sgd.multiclass_pegasos, svmcore.sgd.one_vs_all, svmcore.sgd.perceptron; "
        f"print(sorted(m for m in {sorted(HEAVY)!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_pages_do_not_build_figures_or_import_numpy_maths():
    for path in sorted((ROOT / "pages").glob("*.py")):
        tops = {m.split(".")[0] for m in imported(path)}
        assert "plotly" not in tops, f"{path.name} builds figures itself"
        assert "svmcore" not in tops, f"{path.name} calls svmcore directly"
        assert "numpy" not in tops, f"{path.name} does maths"


def _app_files():
    return svmlab_files() + sorted((ROOT / "pages").glob("*.py"))


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
    for path in svmlab_files():
        n = len(path.read_text().splitlines())
        assert n <= 400, f"{path.relative_to(ROOT)} has {n} lines"
