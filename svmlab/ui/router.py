"""The app's page table and its router: wide layout, sections, titles and URL paths.

``app.py`` is ``router.run()``: ``st.navigation`` over :data:`PAGES`, then the page the
URL asks for. Every page script in ``pages/`` starts with ``enter(__file__)``, because
with a ``pages/`` folder beside ``app.py`` Streamlit runs the *first* script run of a
fresh server through its pages-directory runner: a cold deep link such as
``/kernel_pegasos`` executes ``pages/kernel_pegasos.py`` alone, without ``app.py``
(streamlit/streamlit#10276, #8860). :func:`enter` then runs the page through the router
and stops the lone run; ``st.navigation`` also switches the server to the router for every
later run. Inside the router's own run of a page, :func:`enter` does nothing: calling
``st.navigation`` again there would re-scope the page's widgets to the main script (their
state would leak between pages).

That runner picks the file by its name, so each page's URL path is its file's stem
(``pages/<url_path>.py``); ``tests/app/ui/test_router.py`` checks it. See ``docs/routing.md``.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from svmlab.ui import linkstate, plane_first, presenter, server_hooks, themes
from svmlab.ui.static_assets import APP_DIR

__all__ = ["APP_TITLE", "PAGES", "PAGES_DIR", "PageSpec", "enter", "navigation", "run", "tab_title"]

APP_TITLE = "SVM Lab"
#: The page scripts' folder, found from svmlab's files (not from the running script, which
#: is a page itself on a cold deep link, or under ``AppTest.from_file``): ``pages/`` of the
#: checkout, or of the installed wheel's ``svmlab/_app/`` (:data:`svmlab.ui.static_assets.APP_DIR`).
PAGES_DIR = APP_DIR / "pages"


@dataclass(frozen=True)
class PageSpec:
    """One page of the app.

    Parameters
    ----------
    section : str
        The sidebar section the page is listed under.
    url_path : str
        The page's URL path and its file's stem: the page is ``pages/<url_path>.py``.
        The default page is served at ``/`` instead.
    title : str
        The page's label in the sidebar navigation.
    default : bool
        Whether this is the home page (served at ``/``).
    """

    section: str
    url_path: str
    title: str
    default: bool = False

    @property
    def script(self) -> Path:
        """The page script, ``pages/<url_path>.py``."""
        return PAGES_DIR / f"{self.url_path}.py"


PAGES = (
    PageSpec("SVM Lab", "home", "Home", default=True),
    PageSpec("Binary", "linear_pegasos", "Linear Pegasos"),
    PageSpec("Binary", "kernel_pegasos", "Kernel Pegasos"),
    PageSpec("Dual", "dual_svm", "Dual SVM (QP / SMO)"),
    PageSpec("Multiclass", "multiclass", "Multiclass"),
    PageSpec("Kernels", "feature_space", "Feature space"),
    PageSpec("Study", "compare", "Compare solvers"),
    PageSpec("Study", "exercises", "Exercises"),
)


def tab_title(spec: PageSpec) -> str:
    """The browser tab's title: the app's name, after the page's title on other pages."""
    return APP_TITLE if spec.default else f"{spec.title} · {APP_TITLE}"


#: The reconnect guard's auto-rerun interval: a day (the browser's timer must stay below
#: 2³¹ ms), so that it costs nothing while it marks the page as auto-rerunning.
RECONNECT_GUARD_S = 24 * 3600

#: True while :func:`run` runs a page (per script thread: each session runs in its own).
_IN_ROUTER: ContextVar[bool] = ContextVar("router_running", default=False)


def navigation():
    """Register every page with ``st.navigation``, in the wide layout.

    Returns
    -------
    streamlit.navigation.page.StreamlitPage
        The page the URL asks for (the home page for ``/`` or an unknown path).
    """
    sections: dict[str, list] = {}
    titles = {}
    for spec in PAGES:
        page = st.Page(spec.script, title=spec.title, url_path=spec.url_path, default=spec.default)
        sections.setdefault(spec.section, []).append(page)
        titles[page.url_path] = tab_title(spec)
    page = st.navigation(sections)
    st.set_page_config(page_title=titles[page.url_path], layout="wide")
    return page


@st.fragment(run_every=RECONNECT_GUARD_S)
def reconnect_guard() -> None:
    """An empty fragment that makes the browser rerun the whole page after a reconnect.

    Streamlit's client asks a reconnected server for a full run only if the page has an
    auto-rerunning fragment (or the last run was a fragment's); otherwise its next click
    inside the plane's fragment reaches a fresh session (a restarted server, another
    replica) as a rerun of a fragment that session never ran, and is dropped ("The
    fragment with id … does not exist anymore"). With this guard on every page the
    reconnect reruns the page from its URL, and the canvas's unacknowledged clicks are
    applied (``CanvasSession.apply_resent``). It reruns itself once a day, doing nothing.
    """


def _run_page(page) -> None:
    # Once per server process, on its first run (Streamlit imports the app's modules
    # then): refuse a client's clear_cache, note a link too long for Streamlit
    # (svmlab/ui/server_hooks.py says why).
    server_hooks.install()
    token = _IN_ROUTER.set(True)
    try:
        with linkstate.page_link(
            page.url_path or "home"
        ):  # the share link (svmlab/ui/linkstate.py)
            themes.apply()  # the theme switch and the page's colours (svmlab/ui/themes.py)
            presenter.chrome()  # keyboard shortcuts and the presenter switch, on every page
            reconnect_guard()
            plane_first.drop_deferred()  # data widgets kept for later by an earlier run
            page.run()
            plane_first.deferred_data_controls()  # a page that kept them and did not draw them
    finally:
        _IN_ROUTER.reset(token)


def run() -> None:
    """Run the page the URL asks for through the router (``app.py``)."""
    _run_page(navigation())


def enter(script: str) -> None:
    """The first line of every page script: ``enter(__file__)``.

    Inside the router's run of the page, nothing. Run alone by Streamlit's
    pages-directory runner (a cold deep link), run the page through the router instead and
    stop this run. Run alone as the app's script (``AppTest.from_file`` on a page), nothing
    either: the URL asks for no page, and the page renders as it is.

    Parameters
    ----------
    script : str
        The page script's path (its ``__file__``).

    Raises
    ------
    ValueError
        If ``script`` is not one of :data:`PAGES`.
    """
    if _IN_ROUTER.get():
        return
    path = Path(script).resolve()
    spec = next((s for s in PAGES if s.script == path), None)
    if spec is None:
        raise ValueError(f"script must be a page of svmlab.ui.router.PAGES, got {script!r}")
    page = navigation()
    if page.url_path != ("" if spec.default else spec.url_path):
        return  # this script is the app's main script, not the page the URL asked for
    _run_page(page)
    st.stop()
