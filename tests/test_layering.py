"""The house's layers: folders name them, and dependencies point one way.

svmcore needs NumPy only (its estimators add scikit-learn); in svmlab, each folder may
import only the folders below it (state → study → plot → algorithms → export → ui), and
Streamlit only under ``svmlab/ui`` and the registry's control builders.
"""

import ast
import re
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


#: A session key's spelling: ``svmlab_`` (or ``_svmlab_``) and a name.
SESSION_KEY = re.compile(r"_?svmlab_\w+")
#: Calls whose first argument names a thing that is not session state.
NAMING_CALLS = {"component", "ContextVar"}
#: Calls whose second argument is an attribute's name.
ATTRIBUTE_CALLS = {"getattr", "setattr", "hasattr", "delattr"}


def _call_name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def session_key_spellings(source: str) -> list[tuple[int, str]]:
    """The ``"svmlab_…"`` strings of a module that are not an element's own key.

    A string is a session key's spelling when it is ``svmlab_<name>`` (an f-string counts
    when its text starts so and holds no ".": not a file name). Allowed outside
    ``svmlab/ui/session.py``: an element's key — the ``key=`` of a call, written there or
    held by a name that the module passes as ``key=`` — the name given to a component or a
    context variable (first argument of ``component(...)`` / ``ContextVar(...)``) and an
    attribute's name (second argument of ``getattr`` and its kin).
    """
    tree = ast.parse(source)
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    key_names = {
        k.value.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for k in node.keywords
        if k.arg == "key" and isinstance(k.value, ast.Name)
    }
    named = {
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and _call_name(node.func) in NAMING_CALLS
        and node.args
        and isinstance(node.args[0], ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if isinstance(parent.get(node), ast.JoinedStr):
                continue  # a piece of an f-string: the f-string is looked at whole
            text = node.value
            if not SESSION_KEY.fullmatch(text):
                continue
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
            text = "".join(parts)
            first = node.values[0] if node.values else None
            if not (
                isinstance(first, ast.Constant)
                and SESSION_KEY.match(str(first.value))
                and "." not in text
            ):
                continue
        else:
            continue
        up = parent.get(node)
        if isinstance(up, ast.keyword) and up.arg == "key":
            continue
        if isinstance(up, ast.Call) and _call_name(up.func) in NAMING_CALLS:
            if up.args[:1] == [node]:
                continue
        if isinstance(up, ast.Call) and _call_name(up.func) in ATTRIBUTE_CALLS:
            if up.args[1:2] == [node]:
                continue
        if isinstance(up, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id in key_names | named for t in up.targets
        ):
            continue
        found.append((node.lineno, text))
    return sorted(found)


def test_the_session_key_scanner_tells_session_keys_from_element_keys():
    src = (
        "import streamlit as st\n"
        "from contextvars import ContextVar\n"
        'st.session_state["svmlab_x"] = 1\n'
        'st.button("b", key="svmlab_button")\n'
        'st.toggle("t", key=f"svmlab_tool_{name}")\n'
        'flag = f"_svmlab_flag_{name}"\n'
        'WKEY = "svmlab_radio"\n'
        "st.radio('r', [1], key=WKEY)\n"
        'NAME = "svmlab_canvas"\n'
        "C = st.components.v2.component(NAME, html='')\n"
        'V = ContextVar("svmlab_var")\n'
        'FILE = f"svmlab_{page}_lesson.json"\n'
        '"""svmlab_docs are prose"""\n'
        'getattr(cls, "_svmlab_hooks", False)\n'
    )
    assert session_key_spellings(src) == [(3, "svmlab_x"), (6, "_svmlab_flag_")]


def test_every_session_key_is_spelled_in_the_session_module_only():
    # svmlab/ui/session.py lists every key SVM Lab keeps in st.session_state; the app's
    # modules take them from there (element keys stay beside their elements). Only a module
    # that imports Streamlit can touch the session (a Plotly template's name is no key).
    files = [ROOT / "app.py", *svmlab_files(), *sorted((ROOT / "pages").glob("*.py"))]
    spelled = []
    for path in files:
        if path == ROOT / "svmlab" / "ui" / "session.py" or "streamlit" not in {
            m.split(".")[0] for m in imported(path)
        }:
            continue
        for line, text in session_key_spellings(path.read_text(encoding="utf-8")):
            spelled.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not spelled, "\n".join(spelled)
