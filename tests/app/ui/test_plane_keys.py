"""The plane by keyboard: its keys (``assets/plane_cursor.js``) are not the lab's shortcuts,
its modules travel with the canvas, and the outline it reads out goes to the browser as JSON.

The lab's shortcuts (:data:`svmlab.ui.keyboard.SHORTCUTS`) are taken by ``assets/keys.js``
on every page; the plane's own keys (Enter, Delete, n, m, l, o) must not be among them, or
a press on the plane would also change the run. Space, PageUp / PageDown and Home / End
stay the lab's (a clicker works with the focus on the plane).
"""

from __future__ import annotations

import json

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.study.describe import describe_model
from svmlab.study.plane_outline import plane_outline
from svmlab.ui import keyboard
from svmlab.ui.static_assets import PRELUDES, component_js

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


def test_the_canvas_module_carries_the_keyboard_preludes_before_its_own_code():
    assert PRELUDES[-3:] == ("plane_cursor.js", "plane_tree.js", "listen.js")
    js = component_js("canvas.js", preludes=PRELUDES)
    for name in ("class PlaneKeys", "class PlaneTree", "class Listen"):
        assert js.index(name) < js.index("class Canvas")
    assert "new PlaneKeys(this)" in js and "this.keys.render(data)" in js


def test_the_outline_is_json_for_the_browser():
    X, y = svmcore.datasets.load("moons", n=30, noise=0.15, random_state=0)
    spec = ALGORITHMS["dual_svm"]
    params = dict(C=1.0, kernel="rbf", gamma=1.0, solver="smo", tol=1e-3)
    view = spec.view(spec.fit(X, y, params), X, y)
    k = view.n_snapshots - 1
    values = view.grid_values((-3, 3), (-3, 3), 30, k)
    text = describe_model(view, X, y, k, values=values, xrange=(-3, 3), yrange=(-3, 3))
    out = plane_outline(view, X, y, k, description=text)
    back = json.loads(json.dumps(out, allow_nan=False))
    assert back == out
