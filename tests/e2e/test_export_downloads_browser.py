"""The Export section in a real browser: download PNG, SVG, PDF, HTML, GIF and the script.

The app runs as in the other browser tests (``streamlit run app.py``); Debian's headless
Chromium, driven by playwright in a thread of its own (the session's other browser tests
may hold a playwright loop in this one), opens Kernel Pegasos, opens the Export section,
and downloads each file with ``page.expect_download()``: the PNG, SVG and PDF of the plane
(deferred downloads: made when clicked), the animation as HTML, the GIF after "Prepare
GIF" (its progress bar, then a download button), the "Reproduce in Python" script, and
the points as CSV and LIBSVM from the sidebar's "Import / export" (deferred too).
Each file is checked: magic bytes, size, no external reference in the HTML, the script
compiles. No request leaves localhost.
"""

from __future__ import annotations

import io
import re
import threading

import pytest
from PIL import Image

from .conftest import CHROMIUM, CHROMIUM_ARGS, outside_requests, screenshot

# Tolerance table: none — exact checks (magic bytes, pixel sizes, byte bounds).

pytestmark = pytest.mark.browser

LOAD_TIMEOUT_MS = 90_000
GIF_TIMEOUT_MS = 180_000  # 50 frames rendered on a shared 2-core machine
KEY = "kernel_pegasos_export"
MAGIC = {
    "png": b"\x89PNG\r\n\x1a\n",
    "svg": None,
    "pdf": b"%PDF-",
    "html": None,
    "gif": b"GIF89a",
}


def download(page, selector: str, timeout: float = 60_000) -> bytes:
    with page.expect_download(timeout=timeout) as info:
        page.locator(selector).locator("visible=true").first.click()
    path = info.value.path()
    with open(path, "rb") as f:
        return f.read()


def scenario(url: str) -> dict:
    """Open the page, download every file; returns {name: bytes} plus the requests."""
    from playwright.sync_api import sync_playwright

    files: dict = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        ctx = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
        page = ctx.new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        try:
            page.goto(url + "kernel_pegasos", timeout=LOAD_TIMEOUT_MS)
            page.locator(".svmlab-canvas-plot").first.wait_for(timeout=LOAD_TIMEOUT_MS)
            page.get_by_text("Export: figures for slides and papers").click()
            for fmt in ("png", "svg", "pdf"):
                files[fmt] = download(page, f".st-key-{KEY}_plane_{fmt} button")
            files["curves.pdf"] = download(page, f".st-key-{KEY}_curves_pdf button")
            files["html"] = download(page, f".st-key-{KEY}_anim_html button")
            files["script"] = download(page, f".st-key-{KEY}_script button")
            # the points, from the sidebar's data panel (deferred: written on the click)
            page.locator('[data-testid="stSidebar"]').get_by_text("Import / export").click()
            files["points.csv"] = download(page, ".st-key-data_dl_csv button")
            files["points.libsvm"] = download(page, ".st-key-data_dl_libsvm button")
            page.locator(f".st-key-{KEY}_anim_gif button").locator("visible=true").first.click()
            ready = page.locator(f".st-key-{KEY}_anim_gif_dl button").first
            ready.wait_for(timeout=GIF_TIMEOUT_MS)
            files["gif"] = download(page, f".st-key-{KEY}_anim_gif_dl button")
            files["exceptions"] = page.locator('[data-testid="stException"]').count()
            files["errors"] = page.locator('[data-testid="stAlertContentError"]').count()
            screenshot(page, "export_downloads")
        finally:
            files["requests"] = list(requests)
            ctx.close()
            browser.close()
    return files


def test_the_export_section_downloads_every_file(start_app):
    server = start_app("app.py")
    out: dict = {}

    def target():
        try:
            out.update(scenario(server.url))
        except BaseException as exc:  # re-raised in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    assert out["exceptions"] == 0 and out["errors"] == 0
    for fmt, magic in MAGIC.items():
        if magic is not None:
            assert out[fmt].startswith(magic), (fmt, out[fmt][:16])
    assert Image.open(io.BytesIO(out["png"])).size[0] == 3 * 700, "screen preset at scale 3"
    assert b"<svg" in out["svg"][:400] and out["svg"].rstrip().endswith(b"</svg>")
    assert out["curves.pdf"].startswith(b"%PDF-")
    html = out["html"].decode()
    assert html.lstrip().lower().startswith("<!doctype html") and len(out["html"]) > 1_000_000
    assert not re.search(r'(src|href)="http', html), "no external reference"
    assert not re.search(r"<script[^>]*\bsrc=", html) and "<link" not in html
    gif = Image.open(io.BytesIO(out["gif"]))
    assert gif.n_frames == 50 and len(out["gif"]) <= 5_000_000
    compile(out["script"].decode(), "reproduce.py", "exec")
    rows = out["points.csv"].decode().splitlines()
    header = rows.index("x1,x2,label")
    assert len(rows) - header - 1 == 100, "the default moons, n = 100"
    assert {r.rsplit(",", 1)[1] for r in rows[header + 1 :]} == {"-1", "1"}
    assert len(out["points.libsvm"].decode().splitlines()) >= 100
    assert b"svmcore.kernel_pegasos(" in out["script"]
    for name in ("png", "svg", "pdf"):
        assert len(out[name]) > 10_000, name
    assert outside_requests(out["requests"]) == []
