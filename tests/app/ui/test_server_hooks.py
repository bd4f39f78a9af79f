"""The server's guards on what a websocket client sends (svmlab.ui.server_hooks), at the
protocol level: a real ``streamlit run app.py`` and clients speaking Streamlit's protocol
(``benchmarks/loadclient.py``), as a browser or a script would.

* ``BackMsg(clear_cache=True)`` from one client must not clear the caches every session
  shares: session A's rerun after session B sent it hits every cached run (Streamlit's
  own ``/_stcore/metrics`` counts the misses of ``svmlab.ui.runners.run``).
* A link above Streamlit's limits (1,000 parameters, 512 KiB), which Streamlit drops with
  a server log line only, opens the page with a message saying why.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import urllib.request

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from benchmarks.loadclient import ProtocolSession
from svmlab.ui import server_hooks
from svmlab.ui.safe_text import shown_text
from tests.e2e.conftest import ROOT, AppServer

# Tolerance table: none — counts are exact.

PAGE = "kernel_pegasos"


@pytest.fixture(scope="module")
def server():
    app = AppServer(ROOT / "app.py")
    yield app
    app.stop()


def _lookups(port: int, result: str) -> int:
    """``svmlab.ui.runners.run``'s cache lookups with ``result`` (hit / miss) so far."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=10).read()
    pattern = (
        r'cache_lookups_total\{cache="svmlab\.ui\.runners\.run",cache_type="st_cache_data",'
        rf'result="{result}"\}} (\d+)'
    )
    match = re.search(pattern, text.decode())
    return int(match.group(1)) if match else 0


def _run(coro):
    # in a thread of its own: Playwright's sync API (the browser tests, when they run in the
    # same process first) leaves an event loop running in the main thread
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_a_clients_clear_cache_leaves_every_sessions_cache(server):
    async def scenario():
        a, b = ProtocolSession(server.port, PAGE), ProtocolSession(server.port, PAGE)
        try:
            assert (await a.open()).status == "FINISHED_SUCCESSFULLY"
            assert (await b.open()).status == "FINISHED_SUCCESSFULLY"
            misses, hits = _lookups(server.port, "miss"), _lookups(server.port, "hit")
            assert misses >= 1  # the page's run is in the cache
            msg = BackMsg()
            msg.clear_cache = True
            for _ in range(3):  # a student's loop
                await b.ws.send(msg.SerializeToString())
            assert (await b.rerun()).status == "FINISHED_SUCCESSFULLY"  # after the clears
            assert (await a.rerun()).status == "FINISHED_SUCCESSFULLY"
            return misses, hits, _lookups(server.port, "miss"), _lookups(server.port, "hit")
        finally:
            await a.close()
            await b.close()

    misses, hits, misses_after, hits_after = _run(scenario())
    assert misses_after == misses  # nothing was computed again
    assert hits_after > hits
    assert server.output().count("refused a client's clear_cache request") >= 3


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("&".join(f"k{i}=1" for i in range(1001)), "the link has 1,001 parameters"),
        ("pts=" + "A" * 600_000, "the link has 1 parameters and 600,004 characters"),
    ],
    ids=["1001 parameters", "600 KB"],
)
def test_a_link_too_long_for_streamlit_says_so(server, query, said):
    async def scenario():
        warm = ProtocolSession(server.port, PAGE)  # the hooks are installed by a first run
        c = ProtocolSession(server.port, PAGE, query=query)
        try:
            await warm.open()
            result = await c.open()
            return result, [shown_text(a) for a in c.alerts]
        finally:
            await warm.close()
            await c.close()

    result, alerts = _run(scenario())
    assert result.status == "FINISHED_SUCCESSFULLY" and not result.exceptions
    link = [a for a in alerts if "could not be read in full" in a]
    assert len(link) == 1 and said in link[0], alerts
    assert "above the limit of 1,000 parameters or 524,288 characters" in link[0]


def test_clear_cache_is_honoured_in_development_mode(monkeypatch):
    """In-process: the hook passes the request on when ``global.developmentMode`` is set."""
    from streamlit import config
    from streamlit.runtime.app_session import AppSession

    server_hooks.install()
    calls = []
    monkeypatch.setattr("streamlit.runtime.caching.cache_data.clear", lambda: calls.append(1))
    monkeypatch.setattr("streamlit.runtime.caching.cache_resource.clear", lambda: None)

    class Fake:
        id = "s"
        _session_state = type("S", (), {"clear": lambda self: None})()

    real = config.get_option
    for dev, want in ((False, 0), (True, 1)):
        calls.clear()
        monkeypatch.setattr(
            config, "get_option", lambda k, d=dev: d if k == "global.developmentMode" else real(k)
        )
        AppSession._handle_clear_cache_request(Fake())
        assert len(calls) == want
        monkeypatch.setattr(config, "get_option", real)
