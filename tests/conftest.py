"""Shared test helpers: the checkout's root and the app's pages through Streamlit's AppTest.

Markers (pyproject.toml): ``browser`` for headless-Chromium tests (tests/e2e), ``slow`` for
tests that run the app's pages or a long fuzz/contract sweep. The fast lane is
``pytest -m "not slow and not browser"``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Seconds one AppTest run may take (a page's first run trains; later runs are cached).
TIMEOUT_S = 180


def open_page(page: str = "home", *, query: dict | None = None, timeout: float = TIMEOUT_S):
    """The real app (``app.py``) run through AppTest, switched to ``pages/<page>.py``."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    if page != "home":
        at.switch_page(f"pages/{page}.py")
        at.run()
    return at


def assert_clean(at) -> None:
    """The last run raised nothing and showed no error box."""
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def metrics(at) -> dict[str, str]:
    """The page's metrics, ``{label: value}``."""
    return {m.label: m.value for m in at.metric}


_APPTEST_MODULES: dict[str, bool] = {}


def pytest_collection_modifyitems(config, items):
    """A test that runs the app's pages through AppTest is ``slow`` (seconds per page run)."""
    import pytest

    for item in items:
        path = str(item.path)
        if path not in _APPTEST_MODULES:
            _APPTEST_MODULES[path] = "AppTest" in item.path.read_text("utf-8")
        if _APPTEST_MODULES[path] and "browser" not in item.keywords:
            item.add_marker(pytest.mark.slow)
