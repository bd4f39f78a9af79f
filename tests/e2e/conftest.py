"""Browser-test harness: start a Streamlit app, drive Debian's headless Chromium with the
``playwright`` Python package, record every request, save screenshots to ``artifacts/``.

The app is started as the README's ``bash scripts/app.sh`` does after installing, i.e.
``python3 -m streamlit run <app> --server.port <free port> --server.headless true``.
Chromium is ``/usr/bin/chromium`` (never ``playwright install``). Without it the tests
are skipped, unless ``CI`` is set: then they run (and fail if the browser is missing).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}
STARTUP_TIMEOUT_S = 60


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM) or _in_ci():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing (and CI is not set)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def free_port() -> int:
    """A free TCP port: the first free one of ``SVMLAB_E2E_PORTS`` ("8800-8819") when set
    (machines shared by several test runs give each its range), else any."""
    span = os.environ.get("SVMLAB_E2E_PORTS", "").strip()
    if span:
        lo, _, hi = span.partition("-")
        for port in range(int(lo), int(hi or lo) + 1):
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError(f"no free port in SVMLAB_E2E_PORTS={span}")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The README's command (``bash scripts/app.sh`` + arguments for ``streamlit run``).
README_COMMAND = ("bash", "scripts/app.sh")


class AppServer:
    """A ``streamlit run`` subprocess in its own process group.

    ``AppServer(script)`` runs ``python -m streamlit run <script> …``; with ``command``
    (e.g. :data:`README_COMMAND`) it runs that command instead, followed by the same
    ``--server.port <free port> --server.headless true`` arguments.
    """

    def __init__(self, script: str | Path = "app.py", *, command=None):
        self.script = str(script)
        self.command = None if command is None else tuple(command)
        self.port = free_port()
        self.url = f"http://localhost:{self.port}/"
        self.log = tempfile.NamedTemporaryFile(
            prefix="svmlab-e2e-", suffix=".log", delete=False, mode="w+"
        )
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        head = (
            list(self.command)
            if self.command is not None
            else [sys.executable, "-m", "streamlit", "run", self.script]
        )
        cmd = [
            *head,
            "--server.port",
            str(self.port),
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        health = f"http://127.0.0.1:{self.port}/_stcore/health"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{self.output()}")
            try:
                with urllib.request.urlopen(health, timeout=2) as r:
                    if r.status == 200 and r.read().strip() == b"ok":
                        return
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"streamlit was not healthy within {STARTUP_TIMEOUT_S} s")

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the group this harness started
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def start_app():
    """Factory: ``start_app(script, command=None)`` -> AppServer (stopped at the end of the
    session; one server per script and command)."""
    servers: dict[str, AppServer] = {}

    def _start(script: str | Path, command=None) -> AppServer:
        key = f"{script}|{command}"
        if key not in servers:
            servers[key] = AppServer(script, command=command)
        return servers[key]

    yield _start
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory):
    """A persistent Chromium context (the user-data dir is a fresh temporary folder)."""
    from playwright.sync_api import sync_playwright

    user_data = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        # Playwright passes --user-data-dir itself for a persistent context.
        ctx = p.chromium.launch_persistent_context(
            str(user_data),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000},
            accept_downloads=False,
        )
        yield ctx
        ctx.close()


@pytest.fixture
def page(browser_context):
    """A new tab whose every request URL is recorded in ``page.requests``."""
    pg = browser_context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.requests = requests
    pg.js_errors = errors
    yield pg
    pg.close()


def outside_requests(urls) -> list[str]:
    """The URLs that leave this machine (not localhost / 127.0.0.1, not blob: / data:)."""
    bad = []
    for url in urls:
        u = urlparse(url)
        if u.scheme in ("blob", "data", "about"):
            inner = urlparse(u.path) if u.scheme == "blob" else None
            if inner is None or not inner.hostname or inner.hostname in LOCAL_HOSTS:
                continue
        if u.hostname not in LOCAL_HOSTS:
            bad.append(url)
    return bad


def screenshot(pg, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path
