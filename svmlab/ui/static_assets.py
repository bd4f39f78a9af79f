"""Where the app's files are, and plotly.js copied into the app's ``static/`` folder.

The app's files beside the Python packages (``app.py``, ``pages/``, ``assets/``,
``.streamlit/config.toml``) are found through :data:`APP_DIR`: the project's root in a
checkout (or an editable install), ``svmlab/_app/`` in an installed wheel (``setup.py``
copies them there when it builds the wheel).

Streamlit serves ``<folder of app.py>/static/`` at ``/app/static/`` when
``[server] enableStaticServing = true`` (see ``.streamlit/config.toml``). The data canvas
loads ``/app/static/plotly.min.js`` from there, so nothing comes from a CDN and no
third-party bundle is committed (``static/`` is git-ignored): the file is copied at app
start from ``plotly/package_data/plotly.min.js``, the very version plotly.py was built for.

The big components' JavaScript goes there too (:func:`component_module`): the data canvas's
module is ~45 kB, and a component's inline module travels in every message that draws it —
every click. Written once into ``static/`` under a name with its content's hash, it is
loaded once by the browser (and cached); each message carries a loader of a few hundred
bytes instead.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = [
    "APP_DIR",
    "ASSETS_DIR",
    "PLANE_FILE",
    "PLANE_JS",
    "PLOTLY_JS",
    "PRELUDES",
    "app_static_dir",
    "component_css",
    "component_js",
    "component_module",
    "ensure_plane_js",
    "ensure_plotly_js",
    "plane_js",
    "plotly_js_source",
    "static_url",
]

PLOTLY_JS = "plotly.min.js"


def _app_dir() -> Path:
    import svmlab  # the package's folder, wherever this module sits inside it

    package = Path(svmlab.__file__).resolve().parent
    installed = package / "_app"  # the wheel's copy (setup.py)
    return installed if (installed / "app.py").is_file() else package.parent


#: The folder holding ``app.py``, ``pages/``, ``assets/`` and ``.streamlit/config.toml``.
APP_DIR = _app_dir()
#: The components' JavaScript and CSS, and the pages' prose (``assets/prose/``).
ASSETS_DIR = APP_DIR / "assets"

_done: set[str] = set()


def plotly_js_source() -> Path:
    """The plotly.min.js bundled with the installed plotly package."""
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / PLOTLY_JS
    if not path.is_file():  # pragma: no cover - a broken plotly install
        raise FileNotFoundError(f"plotly.js not found in the plotly package at {path}")
    return path


def app_static_dir() -> Path:
    """``static/`` next to the running app's main script (else next to ``sys.argv[0]``)."""
    main = None
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        main = getattr(ctx, "main_script_path", None) if ctx is not None else None
    except Exception:  # pragma: no cover - streamlit internals moved
        main = None
    if not main:
        main = sys.argv[0] if sys.argv and sys.argv[0] else os.getcwd() + "/app.py"
    return _static_dir_of(str(main))


@functools.lru_cache(maxsize=8)
def _static_dir_of(main: str) -> Path:
    """``static/`` beside ``main``, resolved once (a resolve is a few system calls, and every
    canvas asks)."""
    return Path(main).resolve().parent / "static"


def ensure_plotly_js(static_dir: str | os.PathLike | None = None) -> Path:
    """Copy plotly.min.js into ``static_dir`` (default :func:`app_static_dir`) if missing.

    Idempotent and cheap after the first call of a process; the copy is atomic (written
    to a temporary file, then renamed) so that a browser never gets half a file.
    Returns the path of the copy.
    """
    target_dir = Path(static_dir) if static_dir is not None else app_static_dir()
    target = target_dir / PLOTLY_JS
    key = str(target)
    if key in _done and target.is_file():
        return target
    source = plotly_js_source()
    if not target.is_file() or target.stat().st_size != source.stat().st_size:
        target_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target_dir, prefix=".plotly-", suffix=".tmp")
        os.close(fd)
        try:
            shutil.copyfile(source, tmp)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    _done.add(key)
    return target


def static_url(name: str = PLOTLY_JS) -> str:
    """URL path of a file in ``static/`` (honours ``server.baseUrlPath``)."""
    base = ""
    try:
        import streamlit as st

        base = (st.get_option("server.baseUrlPath") or "").strip("/")
    except Exception:  # pragma: no cover - outside streamlit
        base = ""
    prefix = f"/{base}" if base else ""
    return f"{prefix}/app/static/{name}"


#: The modules a component's own may need, prepended in this order: the one plotly.js loader
#: (``assets/plotly_loader.js``), the one acknowledged-event channel
#: (``assets/event_channel.js``, its Python side :mod:`svmlab.ui.event_channel`) and the
#: plane's playback (``assets/playback.js``: the run's frames, the transport and readout).
PRELUDES = ("plotly_loader.js", "event_channel.js", "playback.js")


def component_js(name: str, *, preludes: tuple[str, ...] = ("plotly_loader.js",)) -> str:
    """The JavaScript module of a component: the ``preludes`` (of :data:`PRELUDES`, shared
    by the components that use them), then ``assets/<name>``, without their comment lines,
    blank lines and indentation (the module travels with every rerun that draws the
    component; line breaks are kept, so no statement changes).

    Raises
    ------
    ValueError
        If a prelude is not one of :data:`PRELUDES`.
    """
    unknown = [p for p in preludes if p not in PRELUDES]
    if unknown:
        raise ValueError(f"preludes must be among {PRELUDES}, got {unknown}")
    files = [p for p in PRELUDES if p in preludes] + [name]
    lines = "\n".join((ASSETS_DIR / f).read_text(encoding="utf-8") for f in files).splitlines()
    return "\n".join(ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("//"))


#: The loader sent in a component's messages instead of its module (:func:`component_module`):
#: it imports the module from ``static/`` once per page (kept on ``window`` by its URL, so
#: that later messages call it at once) and hands it each call; the cleanup Streamlit gets
#: is the module's own.
_LOADER = """const SRC = new URL(%s, window.location.origin).href;
export default function (component) {
const cache = (window.__svmlabModules = window.__svmlabModules || {});
let cleanup = null;
let gone = false;
const run = (m) => {
cleanup = m.default(component);
if (gone && typeof cleanup === "function") cleanup();
};
const ready = cache[SRC];
if (ready && ready.default) run(ready);
else {
if (!ready) cache[SRC] = import(SRC);
Promise.resolve(cache[SRC]).then((m) => { cache[SRC] = m; run(m); });
}
return () => {
gone = true;
if (typeof cleanup === "function") cleanup();
};
}"""


def component_module(
    name: str,
    *,
    preludes: tuple[str, ...] = ("plotly_loader.js",),
    static_dir: str | os.PathLike | None = None,
) -> str:
    """A component's JavaScript as a small loader of its module (:func:`component_js`),
    which is written into ``static_dir`` (default: the running app's, :func:`app_static_dir`;
    outside an app, :data:`APP_DIR`'s) as
    ``svmlab-<name>-<hash of its text>.js`` and served at :func:`static_url` (a new text, a
    new name: a browser never runs an old copy). Where the file cannot be written (a
    read-only app folder), the module itself, inline, as before.
    """
    text = component_js(name, preludes=preludes)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    filename = f"svmlab-{Path(name).stem}-{digest}.js"
    if static_dir is None:
        # the running app's folder; imported outside one (a test, a script): the app's own
        static_dir = app_static_dir() if _in_script_run() else APP_DIR / "static"
    target_dir = Path(static_dir)
    try:
        _write_once(target_dir / filename, text)
    except OSError:
        return text
    return _LOADER % json.dumps(static_url(filename))


def _in_script_run() -> bool:
    """Whether an app's script runs in this thread (Streamlit knows its main script)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:  # pragma: no cover - streamlit internals moved
        return False
    return ctx is not None and bool(getattr(ctx, "main_script_path", None))


def _write_once(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` unless it is there already (atomically: written to a
    temporary file, then renamed)."""
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".svmlab-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def component_css(name: str) -> str:
    """The stylesheet ``assets/<name>`` without its comments, blank lines and indentation
    (it travels with every rerun that draws its component, as :func:`component_js`)."""
    text = re.sub(r"/\*.*?\*/", "", (ASSETS_DIR / name).read_text(encoding="utf-8"), flags=re.S)
    return "\n".join(ln.strip() for ln in text.splitlines() if ln.strip())


#: The plane's keyboard, in this order: the crosshair, the live region and the edits
#: (``assets/plane_cursor.js``), the tree over the model (``assets/plane_tree.js``), listen
#: mode (``assets/listen.js``). Served as one static script (:func:`ensure_plane_js`): a
#: component's module travels with every rerun that draws it, a static file once.
PLANE_JS = ("plane_cursor.js", "plane_tree.js", "listen.js")
PLANE_FILE = "svmlab_plane.js"


@functools.lru_cache(maxsize=1)
def plane_js() -> str:
    """The static script of the plane's keyboard: :data:`PLANE_JS` without their comment
    and blank lines, in one function scope that defines ``window.SvmlabPlane(canvas)``
    (the canvas, ``assets/canvas.js``, calls it once the script has loaded)."""
    lines = "\n".join((ASSETS_DIR / f).read_text(encoding="utf-8") for f in PLANE_JS)
    body = "\n".join(
        ln.strip() for ln in lines.splitlines() if ln.strip() and not ln.lstrip().startswith("//")
    )
    return (
        '(() => {\n"use strict";\n'
        + body
        + "\nwindow.SvmlabPlane = (canvas) => new PlaneKeys(canvas);\n})();\n"
    )


def ensure_plane_js(static_dir: str | os.PathLike | None = None) -> str:
    """Write :func:`plane_js` into ``static_dir`` (default :func:`app_static_dir`) if it
    differs (atomically, as :func:`ensure_plotly_js`); return its URL with the content's
    hash (``?v=…``: a browser never keeps an old copy)."""
    import hashlib

    text = plane_js()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    target_dir = Path(static_dir) if static_dir is not None else app_static_dir()
    target = target_dir / PLANE_FILE
    key = f"{target}|{digest}"
    if key not in _done or not target.is_file():
        _write_once(target, text)
        _done.add(key)
    return f"{static_url(PLANE_FILE)}?v={digest}"
