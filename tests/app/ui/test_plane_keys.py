"""The plane by keyboard: its keys (``assets/plane_cursor.js``) are not the lab's shortcuts,
and its script is a static file loaded once (a component's module travels with every rerun).

The lab's shortcuts (:data:`svmlab.ui.keyboard.SHORTCUTS`) are taken by ``assets/keys.js``
on every page; the plane's own keys (Enter, Delete, n, m, l, o) must not be among them, or
a press on the plane would also change the run. Space, PageUp / PageDown and Home / End
stay the lab's (a clicker works with the focus on the plane).
"""

from __future__ import annotations

from svmlab.ui import keyboard
from svmlab.ui.static_assets import (
    PLANE_FILE,
    PRELUDES,
    component_js,
    ensure_plane_js,
    plane_js,
)

# Tolerance table: none — keys, names and texts are compared exactly.

PLANE_KEYS = ("Enter", "Delete", "Backspace", "n", "N", ".", ",", "m", "M", "l", "L", "o", "O")


def test_the_plane_keys_are_not_lab_shortcuts_and_the_clicker_keys_are():
    lab = keyboard.key_map()
    assert not set(PLANE_KEYS) & set(lab)
    for key in (" ", "PageUp", "PageDown", "Home", "End"):
        assert key in lab, "playback keys stay the lab's, also on the plane"
    shown = " ".join(k for k, _ in keyboard.PLANE_SHORTCUTS)
    for key in ("Enter", "Delete", "n", "m", "l"):
        assert key in shown, "the ? overlay lists the plane's keys"


def test_the_plane_script_is_served_once_not_sent_with_every_rerun(tmp_path):
    js = plane_js()
    assert js.startswith("(() => {") and js.rstrip().endswith("})();")
    for name in ("class PlaneKeys", "class PlaneTree", "class Listen"):
        assert name in js
    assert "window.SvmlabPlane = (canvas) => new PlaneKeys(canvas);" in js
    assert "\n//" not in js, "comment lines are left out"
    url = ensure_plane_js(tmp_path)
    assert (tmp_path / PLANE_FILE).read_text(encoding="utf-8") == js
    assert url.startswith("/app/static/svmlab_plane.js?v=")
    assert ensure_plane_js(tmp_path) == url, "the same content, the same URL"
    canvas_module = component_js("canvas.js", preludes=PRELUDES)
    assert "class PlaneKeys" not in canvas_module, "the component's module stays small"
    assert "window.SvmlabPlane(this)" in canvas_module
