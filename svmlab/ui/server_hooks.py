"""Two hooks on Streamlit's handling of a browser's messages, installed once per server.

Streamlit 1.67 has no public API for either, so :func:`install` wraps two methods of its
``AppSession`` (``streamlit/runtime/app_session.py``), the object that handles every
``BackMsg`` a websocket client sends. The router calls it on every run; it patches once
per process, and each wrapper calls Streamlit's own method for everything it does not
change.

* **No client clears every session's cache.** ``BackMsg(clear_cache=True)`` makes
  ``_handle_clear_cache_request`` clear ``st.cache_data`` and ``st.cache_resource`` for the
  whole server (the toolbar's "Clear cache", hidden in this app, sends it; any websocket
  client can). One student's script in a loop would make the whole class recompute every
  fit (measured: a scrub of 0.10 s became 2.6 s and 4.5 CPU-s, each time). Outside
  Streamlit's development mode (``global.developmentMode``) the request is refused and
  logged; the caches expire by their own ``ttl`` and ``max_entries``.
* **A link too long for Streamlit says so.** Streamlit drops a query string above
  1,000 parameters or 512 KiB (``sanitize_query_string``, with a server log line only), so
  the page opened with the defaults and no word. The wrapper of
  ``_handle_rerun_script_request`` notes the dropped link's size per session;
  :func:`dropped_query` gives it to the page's next run (:mod:`svmlab.ui.linkstate` shows it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_QUERY_FIELDS",
    "dropped_query",
    "dropped_query_messages",
    "install",
    "installed",
]

#: Streamlit's limits on a client's query string (``runtime/state/query_params.py``).
MAX_QUERY_CHARS = 512 * 1024
MAX_QUERY_FIELDS = 1000

_LOCK = threading.Lock()
_DROPPED: OrderedDict[str, tuple[int, int]] = OrderedDict()  # session id -> (chars, fields)
_MAX_PENDING = 1024  # sessions whose next run has not read the note yet (bounded)


def installed() -> bool:
    """Whether this process's ``AppSession`` carries the hooks."""
    from streamlit.runtime.app_session import AppSession

    return bool(getattr(AppSession, "_svmlab_hooks", False))


def install() -> None:
    """Wrap ``AppSession``'s clear-cache and rerun handlers (once per process)."""
    from streamlit import config
    from streamlit.logger import get_logger
    from streamlit.runtime import app_session
    from streamlit.runtime.state import query_params

    cls = app_session.AppSession
    with _LOCK:
        if getattr(cls, "_svmlab_hooks", False):
            return
        log = get_logger(__name__)
        limits = (
            getattr(query_params, "CLIENT_STATE_QUERY_STRING_MAX_LENGTH", MAX_QUERY_CHARS),
            getattr(query_params, "CLIENT_STATE_QUERY_STRING_MAX_FIELDS", MAX_QUERY_FIELDS),
        )
        clear_cache = cls._handle_clear_cache_request
        rerun = cls._handle_rerun_script_request

        def _handle_clear_cache_request(self) -> None:
            if config.get_option("global.developmentMode"):
                clear_cache(self)
                return
            log.warning("refused a client's clear_cache request (session %s)", self.id)

        def _handle_rerun_script_request(self, client_state=None) -> None:
            query = getattr(client_state, "query_string", "") or ""
            fields = query.count("&") + 1 if query else 0
            if len(query) > limits[0] or fields > limits[1]:
                with _LOCK:
                    _DROPPED[self.id] = (len(query), fields)
                    while len(_DROPPED) > _MAX_PENDING:
                        _DROPPED.popitem(last=False)
            rerun(self, client_state)

        cls._handle_clear_cache_request = _handle_clear_cache_request
        cls._handle_rerun_script_request = _handle_rerun_script_request
        cls._svmlab_hooks = True


def dropped_query() -> tuple[int, int] | None:
    """``(characters, parameters)`` of the link Streamlit dropped for this session's run
    (once: the note is taken), or None."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    with _LOCK:
        return _DROPPED.pop(ctx.session_id, None)


def dropped_query_messages() -> list[str]:
    """The link message's line for a link :func:`dropped_query` noted ([] if none)."""
    dropped = dropped_query()
    if dropped is None:
        return []
    chars, fields = dropped
    return [
        f"the link has {fields:,} parameters and {chars:,} characters, above the limit of "
        f"{MAX_QUERY_FIELDS:,} parameters or {MAX_QUERY_CHARS:,} characters: none of it "
        "was read; opened with the defaults"
    ]
