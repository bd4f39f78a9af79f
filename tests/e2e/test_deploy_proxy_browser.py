"""The app through deploy/nginx.conf in Chromium: its security headers break nothing.

nginx (Debian's, as ``scripts/test.sh`` installs it) runs the repository's config with the
upstream pointed at one local replica. Through it: every page loads and draws with ZERO
Content-Security-Policy violations (clicks on the canvas, the Import / export box, a CSV
upload, the feature page's 3-D plots), the headers are on every response, Streamlit's
metrics are closed, and the rate limits answer 429 to a client opening websockets or
uploading in a loop.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.test_deploy import local_nginx_conf

from . import conftest
from .conftest import ROOT, AppServer
from .test_app_browser import CANVAS_JS, TO_PAGE_JS

# Tolerance table: none — counts are exact.

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed"),
]

APP_PORT, PROXY_PORT = 8725, 8726  # this work's port range
TIMEOUT_MS = 60_000
SIDEBAR = '[data-testid="stSidebar"]'
VIOLATIONS_JS = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.effectiveDirective + ' ' + e.blockedURI + ' ' + e.sourceFile));"""


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(conftest, "free_port", lambda: APP_PORT)
        app = AppServer(ROOT / "app.py")
    work = tmp_path_factory.mktemp("nginx")
    conf = local_nginx_conf(APP_PORT, PROXY_PORT, work)
    nginx = subprocess.Popen(
        ["nginx", "-c", str(conf), "-p", str(work), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{PROXY_PORT}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                if time.monotonic() > deadline or nginx.poll() is not None:
                    raise RuntimeError((work / "error.log").read_text()) from None
                time.sleep(0.3)
        yield base
    finally:
        try:
            nginx.send_signal(signal.SIGTERM)  # the process this fixture started (fast stop)
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait(timeout=10)
        finally:
            app.stop()


def _status(url: str, *, method: str = "GET", cookie: str | None = None):
    """(status, headers) of one request (headers: an ``email.message.Message``)."""
    req = urllib.request.Request(url, method=method, data=b"" if method != "GET" else None)
    if cookie:
        req.add_header("Cookie", f"svmlab_route={cookie}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers


def test_the_headers_are_on_every_response_and_metrics_are_closed(proxy):
    for path in ("", "kernel_pegasos", "_stcore/health", "_stcore/metrics", "no/such/file"):
        _, headers = _status(proxy + path)
        assert "frame-ancestors 'self'" in headers["Content-Security-Policy"], path
        assert headers["X-Frame-Options"] == "SAMEORIGIN"
        assert headers["Referrer-Policy"] == "same-origin"
        assert any("svmlab_route=" in c for c in headers.get_all("Set-Cookie")), path
    assert _status(proxy + "_stcore/metrics")[0] == 403
    assert _status(proxy + "_stcore/agent/openapi.json")[0] == 403


def test_every_page_works_with_no_csp_violation(proxy, browser_context):
    tab = browser_context.new_page()
    tab.add_init_script(VIOLATIONS_JS)
    tab.goto(proxy + "kernel_pegasos")
    ready = "() => { const s = (%s)(); return !!s && s.pending === 0 && %s; }"
    tab.wait_for_function(ready % (CANVAS_JS, "true"), timeout=TIMEOUT_MS)
    n = tab.evaluate(CANVAS_JS)["n"]
    x, y, *_ = tab.evaluate(TO_PAGE_JS, [0.4, -0.6])
    tab.mouse.click(x, y)
    tab.wait_for_function(ready % (CANVAS_JS, f"s.n === {n + 1}"), timeout=TIMEOUT_MS)
    side = tab.locator(SIDEBAR)
    side.get_by_text("Import / export").click()
    uploader = side.locator('[data-testid="stFileUploader"]').filter(has_text="Import points")
    csv = "x1,x2,label\n" + "".join(f"{k / 10},{-k / 10},{1 if k % 2 else -1}\n" for k in range(9))
    uploader.locator("input[type=file]").set_input_files(
        files=[{"name": "nine.csv", "mimeType": "text/csv", "buffer": csv.encode()}]
    )
    tab.wait_for_function(ready % (CANVAS_JS, "s.n === 9"), timeout=TIMEOUT_MS)
    violations = tab.evaluate("window.__csp")
    for page in ("", "linear_pegasos", "dual_svm", "multiclass", "feature_space", "compare"):
        tab.goto(proxy + page)
        if page:  # a lab page: its figures are drawn
            tab.wait_for_function(
                "() => document.querySelectorAll('.js-plotly-plot').length > 0",
                timeout=TIMEOUT_MS,
            )
        tab.wait_for_timeout(1500)
        tab.wait_for_function(
            """() => !document.querySelector('[data-testid="stStatusWidget"]')""",
            timeout=TIMEOUT_MS,
        )
        assert tab.locator('[data-testid="stException"]').count() == 0, page
        violations += tab.evaluate("window.__csp")
    assert violations == []
    tab.close()


def test_a_client_in_a_loop_is_rate_limited(proxy):
    """The per-browser limits (burst 20 websockets, 10 uploads): a loop meets 429."""
    ws = [_status(proxy + "_stcore/stream", cookie="loop")[0] for _ in range(30)]
    assert ws.count(429) >= 5 and 429 not in ws[:20], ws
    up = [
        _status(proxy + "_stcore/upload_file/s/f", method="PUT", cookie="loop2")[0]
        for _ in range(20)
    ]
    assert up.count(429) >= 5 and 429 not in up[:10], up
    assert _status(proxy + "_stcore/stream", cookie="another")[0] != 429  # others are served
