"""SVM Lab as an installable package: the wheel, the ``svmlab`` command, the app's files.

The slow tests build the wheel from a copy of the checkout, install it into a fresh
virtual environment (``--system-site-packages``: its dependencies come from this machine,
as pip resolves them) and use it from a temporary folder outside the checkout, with no
``PYTHONPATH``: ``svmlab --help``, ``import svmcore``, ``svmlab render`` on a share link and
``svmlab serve`` answering ``/_stcore/health``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

from svmlab.__main__ import main, parser, served_script
from svmlab.ui import static_assets
from svmlab.ui.router import PAGES

# Tolerance table: none — every check is exact (exit codes, file magic, paths, HTTP bodies).

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirements(path: Path) -> list[str]:
    lines = [ln.split("#", 1)[0].strip() for ln in path.read_text().splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("-")]


def _setup_module():
    """setup.py's ``app_files`` (imported without running ``setup()``)."""
    text = (ROOT / "setup.py").read_text().split("\nsetup(", 1)[0]
    scope = {"__file__": str(ROOT / "setup.py"), "__name__": "svmlab_setup"}
    exec(compile(text, "setup.py", "exec"), scope)
    return scope


# -- fast checks ----------------------------------------------------------------------------
def test_the_dependencies_are_requirements_txt():
    assert PYPROJECT["project"]["dependencies"] == _requirements(ROOT / "requirements.txt")


def test_the_build_finds_every_package_and_the_command_is_declared():
    find = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    from setuptools import find_packages

    found = set(find_packages(str(ROOT), include=find["include"]))
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("svmcore", "svmlab")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert found == on_disk
    assert PYPROJECT["project"]["scripts"] == {"svmlab": "svmlab.__main__:main"}
    assert PYPROJECT["build-system"]["build-backend"] == "setuptools.build_meta"


def test_the_wheel_carries_every_file_the_app_reads():
    files = set(_setup_module()["app_files"]())
    assert {"app.py", ".streamlit/config.toml"} <= files
    for spec in PAGES:
        assert spec.script.relative_to(ROOT).as_posix() in files
    for path in (ROOT / "assets").rglob("*"):
        if path.is_file():
            assert path.relative_to(ROOT).as_posix() in files
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]
    assert not [f for f in files if "static" in f.split("/")]  # plotly.js is copied at start
    manifest = (ROOT / "MANIFEST.in").read_text()  # the sdist carries them too
    for line in ("include app.py", "include .streamlit/config.toml", "recursive-include pages"):
        assert line in manifest
    assert "recursive-include assets" in manifest


def test_in_a_checkout_the_app_files_are_the_checkouts():
    assert static_assets.APP_DIR == ROOT
    assert static_assets.ASSETS_DIR == ROOT / "assets"


def test_the_command_line_offers_serve_and_render(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "serve" in out and "render" in out
    assert parser().prog == "svmlab"
    with pytest.raises(SystemExit) as exc:
        main(["render", "x", "-o", "y.png", "--server.port", "1"])
    assert exc.value.code == 2  # only serve takes Streamlit's options


def test_serve_runs_from_a_cache_copy_where_the_app_folder_is_read_only(tmp_path, monkeypatch):
    app = tmp_path / "site" / "_app"
    (app / ".streamlit").mkdir(parents=True)
    (app / "app.py").write_text("from svmlab import router\n\nrouter.run()\n")
    (app / ".streamlit" / "config.toml").write_text("[server]\nenableStaticServing = true\n")
    real = static_assets.ensure_plotly_js

    def ensure(static_dir=None):
        if Path(static_dir).parent == app:
            raise PermissionError(f"read-only: {static_dir}")
        return real(static_dir)

    monkeypatch.setattr(static_assets, "ensure_plotly_js", ensure)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    script = served_script(app)
    assert script.parent.parent == tmp_path / "cache" / "svmlab"
    assert script.read_text() == (app / "app.py").read_text()
    assert (script.parent / ".streamlit" / "config.toml").is_file()
    assert (script.parent / "static" / static_assets.PLOTLY_JS).is_file()
    monkeypatch.setattr(static_assets, "ensure_plotly_js", real)
    assert served_script(app) == app / "app.py"  # writable: the app's own folder


def test_the_reproduce_script_says_how_to_make_svmcore_importable():
    import numpy as np

    from svmlab.export.reproduce import reproduce_script

    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    shown = dict(algorithm="pegasos", X=X, y=np.array([-1, 1, -1, 1]), params={}, k=0, plane=None)
    header = reproduce_script(shown).split('"""', 2)[1]
    assert "pip install" in header and "PYTHONPATH=" in header


# -- the wheel in a fresh virtual environment (slow) ------------------------------------------
def _run(cmd, *, cwd, env, timeout=300):
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"{cmd} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}"
    return out.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv's bin folder, a working folder outside the checkout, the environment, wheel)."""
    base = tmp_path_factory.mktemp("package")
    src = base / "src"
    skip = shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", "static", "artifacts", "tests",
        "docs", "examples", "benchmarks", ".ci", ".hypothesis", ".pytest_cache", ".ruff_cache",
    )  # fmt: skip
    shutil.copytree(ROOT, src, ignore=skip)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", base, src]
    _run(build, cwd=base, env=env)
    (wheel,) = base.glob("svm_lab-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", venv], cwd=base, env=env)
    py = venv / "bin" / "python"
    pip = [py, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    _run([*pip, "--force-reinstall", "--no-deps", wheel], cwd=base, env=env)
    _run([*pip, wheel], cwd=base, env=env)  # the dependencies, as pip resolves them
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    work = base / "elsewhere"
    work.mkdir()
    return venv / "bin", work, env, wheel


@pytest.mark.slow
def test_the_wheel_holds_the_packages_and_the_app(installed):
    *_, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"svmcore/__init__.py", "svmlab/__main__.py", "svmlab/_app/app.py"} <= names
    assert "svmlab/_app/.streamlit/config.toml" in names
    assert {f"svmlab/_app/pages/{s.url_path}.py" for s in PAGES} <= names
    assert "svmlab/_app/assets/prose/kernel_pegasos.md" in names
    assert not [n for n in names if n.startswith(("tests/", "pages/", "assets/", "docs/"))]
    assert not [n for n in names if "/static/" in n]


@pytest.mark.slow
def test_the_installed_command_and_svmcore_work_outside_the_checkout(installed):
    bindir, work, env, _ = installed
    out = _run([bindir / "svmlab", "--help"], cwd=work, env=env)
    assert "serve" in out and "render" in out
    code = (
        "import svmcore, svmlab.ui.static_assets as s, svmlab.ui.router as r; "
        "print(svmcore.__file__); print(s.APP_DIR); print(r.PAGES_DIR)"
    )
    core, app, pages = _run([bindir / "python", "-c", code], cwd=work, env=env).split()
    venv = bindir.parent
    assert Path(core).is_relative_to(venv) and not Path(core).is_relative_to(ROOT)
    assert Path(app) == Path(core).parents[1] / "svmlab" / "_app"
    assert Path(pages) == Path(app) / "pages"


@pytest.mark.slow
@pytest.mark.browser
def test_the_installed_render_command_writes_a_png(installed):
    from tests.app.export.test_render_link import link

    bindir, work, env, _ = installed
    cmd = [bindir / "svmlab", "render", link("dual_svm"), "-o", "plane.png"]
    out = _run(cmd, cwd=work, env=env)
    assert out.startswith("wrote plane.png")
    assert (work / "plane.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.slow
def test_the_installed_serve_command_starts_the_app(installed):
    from tests.e2e.conftest import free_port

    bindir, work, env, _ = installed
    port = free_port()
    cmd = [bindir / "svmlab", "serve", "--server.port", str(port), "--server.headless", "true"]
    log = work / "serve.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen(
            cmd, cwd=work, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        health = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    health = r.read().strip()
                    break
            except OSError:
                time.sleep(0.3)
        assert health == b"ok", log.read_text()[-3000:]
        # the installed .streamlit/config.toml is read (static serving) and plotly.js is there
        with urllib.request.urlopen(f"{base}/app/static/{static_assets.PLOTLY_JS}") as r:
            assert r.status == 200 and len(r.read()) > 1_000_000
        with urllib.request.urlopen(f"{base}/kernel_pegasos") as r:
            assert r.status == 200 and re.search(rb"<html", r.read(), re.I)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
