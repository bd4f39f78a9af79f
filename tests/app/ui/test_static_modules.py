"""The big components' JavaScript is served from ``static/`` and loaded once per page
(svmlab.ui.static_assets.component_module): a click's message carries a loader of a few
hundred bytes instead of the data canvas's ~45 kB module."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui import static_assets
from svmlab.ui.static_assets import component_js, component_module

# Tolerance table: none — file names, contents and sizes are compared exactly.

ROOT = Path(__file__).resolve().parents[3]
#: The most bytes a loader may take (it names one URL).
LOADER_MAX = 1_000


def test_the_module_is_written_once_under_its_hash_and_the_loader_imports_it(tmp_path):
    loader = component_module("canvas.js", preludes=static_assets.PRELUDES, static_dir=tmp_path)
    (path,) = tmp_path.glob("svmlab-canvas-*.js")
    assert path.read_text(encoding="utf-8") == component_js(
        "canvas.js", preludes=static_assets.PRELUDES
    )
    assert json.dumps(static_assets.static_url(path.name)) in loader
    assert "import(SRC)" in loader and "export default function" in loader
    assert len(loader) < LOADER_MAX < path.stat().st_size
    stamp = path.stat().st_mtime_ns
    assert component_module("canvas.js", preludes=static_assets.PRELUDES, static_dir=tmp_path)
    assert path.stat().st_mtime_ns == stamp, "written once"
    component_module("plot.js", static_dir=tmp_path)
    assert len(list(tmp_path.glob("svmlab-*.js"))) == 2, "another module, another name"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_app_folder_keeps_the_module_inline(tmp_path):
    tmp_path.chmod(0o555)
    try:
        assert component_module("plot.js", static_dir=tmp_path) == component_js("plot.js")
    finally:
        tmp_path.chmod(0o755)


def test_an_unwritable_folder_keeps_the_module_inline(tmp_path):
    blocker = tmp_path / "static"
    blocker.write_text("a file where the folder would be")
    assert component_module("plot.js", static_dir=blocker) == component_js("plot.js")


def test_outside_an_app_the_module_goes_to_the_apps_own_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(static_assets, "APP_DIR", tmp_path)
    monkeypatch.chdir(tmp_path)
    loader = component_module("plot.js")
    (path,) = (tmp_path / "static").glob("svmlab-plot-*.js")
    assert path.name in loader


def test_the_canvas_message_carries_the_loader_not_the_module():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/kernel_pegasos.py")
    at.run()
    assert not at.exception
    sizes = {
        n.proto.component_name.rsplit(".", 1)[-1]: len(n.proto.js_content)
        for n in at.get("bidi_component")
    }
    assert sizes["svmlab_canvas"] < LOADER_MAX and sizes["svmlab_plot"] < LOADER_MAX
    assert list((ROOT / "static").glob("svmlab-canvas-*.js")), "the module is served"
