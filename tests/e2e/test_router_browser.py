"""Deep links on a cold server, in a real browser (docs/routing.md).

With a ``pages/`` folder beside ``app.py``, the first run of a fresh Streamlit server goes
through its pages-directory runner, which runs a deep link's page file alone. So every
deep link is opened on a **fresh server** (``AppServer``, started with ``streamlit run
app.py``), and must show: the page's tab title and heading, the wide layout, the sidebar
navigation with all pages under their sections (the right one current), no exception, no
"Page not found" dialog, and a server log with nothing but Streamlit's start banner.
Clicking through the sidebar from a cold deep link then reaches every page.

Screenshots go to ``artifacts/router_*.png``.
"""

from __future__ import annotations

import re

import pytest

from svmlab.ui import router

from .conftest import AppServer, screenshot

pytestmark = pytest.mark.browser

# Tolerance table: none — titles, headings, links and the server log are compared exactly.

# The wide layout's main column is wider than WIDE_MIN_PX in a 1400 px window (Streamlit's
# centered layout caps it at 736 px; the sidebar takes about 300 px).
WIDE_MIN_PX = 900
LOAD_TIMEOUT_MS = 90_000  # a first page load on a cold server (the page trains its run)
TIMEOUT_MS = 30_000  # one page switch

NAV_LINK = '[data-testid="stSidebarNavLink"]'
SECTION = '[data-testid="stNavSectionHeader"]'
MAIN_BLOCK = '[data-testid="stMainBlockContainer"]'
EXCEPTION = '[data-testid="stException"]'
#: What Streamlit prints when it starts (``streamlit run``); anything else is a finding.
BANNER = re.compile(
    r"^(\S+ \S+ Uvicorn server started on .*|\S+ \S+ Did not auto detect external IP\.|"
    r"Please go to https://docs\.streamlit\.io/ for debugging hints\.|"
    r"You can now view your Streamlit app in your browser\.|"
    r"(Local|Network|External) URL: http\S+)$"
)
TITLES = [s.title for s in router.PAGES]
SECTIONS = list(dict.fromkeys(s.section for s in router.PAGES))


def log_findings(server: AppServer) -> list[str]:
    """The server log's lines that are not Streamlit's start banner."""
    lines = (line.strip() for line in server.output().splitlines())
    return [line for line in lines if line and not BANNER.match(line)]


def wait_for_page(tab, spec: router.PageSpec, timeout: int) -> None:
    """Wait until ``spec`` is the current page and its content has finished running."""
    tab.wait_for_function("t => document.title === t", arg=router.tab_title(spec), timeout=timeout)
    tab.locator(f'{NAV_LINK}[aria-current="page"]', has_text=spec.title).wait_for(timeout=timeout)
    tab.locator("h1").first.wait_for(timeout=timeout)
    # the script has finished: Streamlit's "running" indicator is gone
    tab.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )


def check_page(tab, spec: router.PageSpec) -> None:
    path = "/" if spec.default else f"/{spec.url_path}"
    assert tab.evaluate("location.pathname") == path
    assert tab.title() == router.tab_title(spec)
    assert tab.locator("h1").first.inner_text().strip(), "the page's heading"
    width = tab.locator(MAIN_BLOCK).bounding_box()["width"]
    assert width > WIDE_MIN_PX, f"layout not wide: main column {width} px"
    assert tab.locator(NAV_LINK).all_inner_texts() == TITLES
    assert tab.locator(SECTION).all_inner_texts() == SECTIONS
    current = tab.locator(f'{NAV_LINK}[aria-current="page"]').all_inner_texts()
    assert current == [spec.title]
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
    assert "page not found" not in tab.locator("body").inner_text().lower()


@pytest.fixture
def fresh_tab(browser_context):
    """A new tab and a fresh server (a cold process) of ``app.py`` for each test."""
    server = AppServer("app.py")
    tab = browser_context.new_page()
    try:
        yield server, tab
    finally:
        tab.close()
        server.stop()


@pytest.mark.parametrize("spec", router.PAGES, ids=lambda s: s.url_path or "home")
def test_a_cold_deep_link_opens_its_page_through_the_router(fresh_tab, spec):
    server, tab = fresh_tab
    url = server.url if spec.default else server.url + spec.url_path
    tab.goto(url)
    wait_for_page(tab, spec, LOAD_TIMEOUT_MS)
    screenshot(tab, f"router_cold_{spec.url_path}")
    check_page(tab, spec)
    assert log_findings(server) == []


def test_clicking_through_the_sidebar_from_a_cold_deep_link(fresh_tab):
    server, tab = fresh_tab
    start = router.PAGES[2]  # kernel_pegasos: not the home page
    tab.goto(server.url + start.url_path)
    wait_for_page(tab, start, LOAD_TIMEOUT_MS)
    for spec in [*router.PAGES[3:], router.PAGES[0], router.PAGES[1], start]:
        tab.locator(NAV_LINK, has_text=spec.title).click()
        wait_for_page(tab, spec, TIMEOUT_MS)
        check_page(tab, spec)
    tab.go_back()  # the browser's history follows the pages
    wait_for_page(tab, router.PAGES[1], TIMEOUT_MS)
    check_page(tab, router.PAGES[1])
    assert log_findings(server) == []
