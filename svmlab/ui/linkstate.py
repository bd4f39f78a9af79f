"""The address bar is the lab: the session's points and flags in the URL, checked on arrival.

Every parameter widget binds itself to the URL (``bind="query-params"``, the widget key is
the parameter's name, a default value is left out). This module holds the rest of a share
link (:mod:`svmlab.state.urlstate`'s codec, version 1):

* ``v=1``, ``plane=x0,x1,y0,y1`` and ``pts=<token>`` — the session's points, written
  whenever they change (click, undo, import, preset, table), left out while the session
  still shows the default data. Above :data:`~svmlab.state.urlstate.URL_BUDGET` they are left
  out and the data panel offers the lesson file (:mod:`svmlab.state.lesson`) instead.
* ``present=1``, ``theme=…``, ``ex=<id>``, ``done=<id>,<id>`` — presenter mode, the
  theme (:mod:`svmlab.ui.themes`; light is left out) and the exercise page's state
  (:mod:`svmlab.ui.session`).

The link is read once per browser session (a fresh tab, a reload, a reconnect to a
restarted server): :func:`page_link` wraps every page run of the router. Nothing in it is
trusted: the codec names what it refused, and after the first run the raw query string is
compared with what the bound widgets accepted, because Streamlit silently drops an invalid
bound value (and clamps an out-of-range number). The page then shows ONE message listing
what was wrong, and opens with what could be read. A link of another version, or one too
long to read, is not used at all: its parameters are cleared before any widget reads them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import urlencode

import streamlit as st

from svmlab.algorithms import bound_widgets as bw
from svmlab.state import urlstate
from svmlab.state.labstate import LabState
from svmlab.state.lesson import lesson_json, read_lesson
from svmlab.state.statecheck import ANY_VALUE, RESERVED, exercise_ids, is_name, show_value
from svmlab.state.urlstate import IGNORED_KEYS, URL_BUDGET, decode_state
from svmlab.ui import server_hooks, session, themes
from svmlab.ui.safe_text import md_text
from svmlab.ui.session import get_session, session_object

__all__ = [
    "LINK_KEYS",
    "LinkSession",
    "apply_lesson",
    "budget_note",
    "current_state",
    "lesson_panel",
    "link_session",
    "load_lesson",
    "page_link",
    "publish",
    "share_link",
]

PRESENT, EXERCISE, DONE = session.PRESENT, session.EXERCISE, session.EXERCISES_DONE
#: The query parameters this module writes (the widgets write their own).
LINK_KEYS = ("v", "plane", "pts", "present", "theme", "ex", "done")
_POINT_KEYS = ("v", "plane", "pts")
#: True while :func:`page_link` runs a page (else the data panel fills its slot at once).
_IN_PAGE: ContextVar[bool] = ContextVar("linkstate_in_page", default=False)
#: This run's (placeholder, key) for the data panel's share box and lesson download.
_SHARE: ContextVar[tuple | None] = ContextVar("linkstate_share_slot", default=None)


@dataclass
class LinkSession:
    """What the link module keeps per browser session.

    Attributes
    ----------
    raw : dict of str to list of str, optional
        The query string at session start, until the first complete run has checked it.
    messages : list of str
        What the link held that was refused (shown in one message on ``page``).
    page : str
        The page the link opened (messages are dropped when the user leaves it).
    written : tuple
        ``(points, plane)`` and the ``v``/``plane``/``pts`` parameters last computed.
    too_long : int
        The length of the link that did not fit the budget (0: it fits).
    """

    raw: dict[str, list[str]] | None = None
    messages: list[str] = field(default_factory=list)
    page: str = ""
    written: tuple = ((None, None), {})
    too_long: int = 0


def link_session() -> LinkSession:
    """This browser session's :class:`LinkSession` (created on first use)."""
    return session_object(session.LINK, LinkSession)


def _check_widgets(raw: Mapping[str, list[str]]) -> list[str]:
    """Messages for the raw parameters the bound widgets did not take as written."""
    messages, unknown = [], []
    for key, values in raw.items():
        if key in LINK_KEYS or key.lower() in IGNORED_KEYS:
            continue
        meta = bw.bound_widget(key)
        if meta is None:
            unknown.append(key)
            continue
        now = st.query_params.get_all(key)
        shown = f"{key}={show_value(values[-1])}"
        if now == values:
            continue
        if len(values) > 1 and now == values[-1:]:
            messages.append(f"{key} is given {len(values)} times; the last value is used")
        elif now:
            messages.append(f"{shown} is out of range; {show_value(','.join(now))} is used")
        elif not bw.same_value(meta, values, bw.url_texts(meta, meta.deserializer(None))):
            used = bw.widget_text(key)
            why = "not a finite number" if bw.nonfinite_keys({key: values}) else "not a valid value"
            messages.append(f"{shown} is {why}; the default {used!r} is used")
    if unknown:
        names = ", ".join(show_value(k) for k in unknown[:5]) + (" …" if len(unknown) > 5 else "")
        messages.append(f"{names}: not a setting of this page (or of these settings); ignored")
        for key in unknown:
            if key in st.query_params and bw.bound_widget(key) is None:
                del st.query_params[key]
    return messages


# -- reading the link once per session ---------------------------------------------------
def _restore(raw: dict[str, list[str]]) -> tuple[list[str], bool]:
    """Apply the link's points and flags; returns (messages, refused)."""
    ignore = [k for k in raw if k not in (*_POINT_KEYS, "present", "done")]  # "ex": below
    result = decode_state(raw, ignore=ignore)
    # DecodeResult.refused: another version, or too long to read; nothing is trusted
    refused = any(m.startswith(("version ", "the link is ")) for m in result.messages)
    messages = []
    for text in result.messages:
        if text.startswith("points: "):
            why = text.removeprefix("points: ").removesuffix("; not loaded")
            text = f"the link's points could not be read ({why}); the default points are shown"
        messages.append(text)
    state = result.state
    if "points" in result.read:
        x0, x1, y0, y1 = state.plane
        get_session().restore(state.points, ((x0, x1), (y0, y1)))
    if "present" in result.read:
        st.session_state[PRESENT] = state.present
    themes.from_link(result)
    if "done" in result.read:
        st.session_state[DONE] = set(state.done)
    if "ex" in raw:
        text = raw["ex"][-1]
        try:
            ids = exercise_ids([text]) if "," not in text else None
        except ValueError:
            ids = None
        if ids:
            st.session_state[EXERCISE] = text
        else:
            messages.append(f"ex: {show_value(text)} is not an exercise id; ignored")
    return messages, refused


# -- writing the link --------------------------------------------------------------------
def _point_params(s) -> dict[str, str]:
    """``v``, ``plane`` and ``pts`` of the session's points ({} for the untouched default)."""
    if s.version == 0:
        return {}
    (x0, x1), (y0, y1) = s.ranges()
    q = urlstate.encode_state(LabState(points=s.points, plane=(x0, x1, y0, y1)))
    plane = tuple(float(v) for v in q["plane"].split(","))
    return {"v": q["v"], "plane": q["plane"], "pts": urlstate.encode_points(s.points, plane)}


def _flag_params() -> dict[str, str | None]:
    ex = st.session_state.get(EXERCISE)
    done = st.session_state.get(DONE) or ()
    try:
        done_text = ",".join(sorted(exercise_ids(sorted(done)))) or None
        (ex,) = exercise_ids([ex]) if ex else (None,)
    except ValueError:  # an id the link cannot hold: leave it out of the URL
        done_text, ex = None, None
    return {"present": "1" if st.session_state.get(PRESENT) else None, "ex": ex, "done": done_text}


def publish() -> None:
    """Write the session's points and flags into the URL where they differ from it.

    Called on every complete run and by the data canvas (a click inside a fragment);
    nothing happens in a session that :func:`page_link` has not opened (an app without
    the router, whose query parameters are its own).
    Above the URL budget the points are left out and :func:`lesson_panel` says so.
    """
    link = link_session()
    if link.raw is not None or not link.page:
        return  # the link is not checked yet, or this is not the router's app (a test app)
    s = get_session()
    token = (s.points, s.plane)
    if link.written[0][0] is not token[0] or link.written[0][1] != token[1]:
        link.written = (token, _point_params(s))
    want = {**dict(link.written[1]), **_flag_params(), "theme": themes.link_value()}
    rest = {k: v for k, v in st.query_params.to_dict().items() if k not in LINK_KEYS}
    length = len(urlencode({**rest, **{k: v for k, v in want.items() if v}}, safe=","))
    link.too_long = length if length > URL_BUDGET else 0
    if link.too_long:
        want.update(dict.fromkeys(_POINT_KEYS))
    # A key some widget binds itself is that widget's (Streamlit refuses to write it).
    want = {k: want.get(k) for k in LINK_KEYS if bw.bound_widget(k) is None}
    sets = {k: v for k, v in want.items() if v is not None and st.query_params.get(k) != v}
    if sets:
        st.query_params.update(sets)
    for key in [k for k, v in want.items() if v is None and k in st.query_params]:
        del st.query_params[key]


def _show(link: LinkSession, slot) -> None:
    if not link.messages:
        return

    def dismiss():
        link.messages.clear()

    with slot.container():
        # the messages quote what the link or a file held: shown as text (svmlab/ui/safe_text.py)
        lines = "\n".join(f"- {md_text(m)}" for m in link.messages)
        st.warning(f"**This link could not be read in full**; the page shows the rest.\n{lines}")
        st.button("Dismiss", key="svmlab_link_dismiss", on_click=dismiss)


@contextmanager
def page_link(page: str) -> Iterator[None]:
    """Around every page run of the router: read the link once, check and write it.

    The first run of a session applies the link's points and flags before the page runs;
    a link of another version (or too long to read) is cleared and the page rerun with
    the defaults. After a complete run, the bound widgets' values are compared with the
    link (first run only) and the URL is brought up to date.
    """
    link = link_session()
    if link.raw is None and not link.page:
        link.page = page
        link.raw = {k: st.query_params.get_all(k) for k in st.query_params}
        messages, refused = _restore(link.raw)
        link.messages += messages
        if refused:
            link.raw = {}
            st.query_params.clear()
            st.rerun()
        # "inf", "nan", "1e309" make Streamlit's number_input raise (on every reload): they
        # leave the URL before a widget reads it (widgets read the run's starting query,
        # hence the rerun); then _check_widgets names them and the defaults used.
        bad = bw.nonfinite_keys({k: v for k, v in link.raw.items() if k not in LINK_KEYS})
        if bad:
            for key in bad:
                del st.query_params[key]
            st.rerun()
    if link.page != page:
        link.messages.clear()
        link.page = page
    # a link Streamlit dropped unread (too long): it says so only in the server's log
    link.messages += server_hooks.dropped_query_messages()
    # Always there (empty when all was read), so that the page's elements below never shift
    # between runs: a shift would re-mount them (an open expander would close).
    slot = st.empty()
    token = _IN_PAGE.set(True)  # per script thread: two runs of a session may overlap
    _SHARE.set(None)
    try:
        yield
    finally:
        _IN_PAGE.reset(token)
    if link.raw is not None:
        link.messages += _check_widgets(link.raw)
        link.raw = None
    publish()
    _share_panel(link)
    _show(link, slot)


# -- lesson files --------------------------------------------------------------------------
def current_state(page: str) -> LabState:
    """The page's state for a lesson file: points at full precision, every bound parameter
    in the URL (as the URL writes it), the plane and the flags."""
    s = get_session()
    (x0, x1), (y0, y1) = s.ranges()
    params = {
        k: v
        for k, v in st.query_params.to_dict().items()
        if k not in LINK_KEYS
        and is_name(k)
        and k not in RESERVED
        and bw.bound_widget(k) is not None
    }
    flags = _flag_params()
    return LabState(
        page=page,
        params=params,
        points=s.points,
        classes=s.n_classes,
        plane=(x0, x1, y0, y1),
        present=bool(flags["present"]),
        theme=themes.current_name(),
        done=frozenset((flags["done"] or "").split(",")) - {""},
    )


def apply_lesson(text, page: str) -> list[str]:
    """Load a lesson file (a widget callback: before the widgets run); the problems.
    Its points replace the drawing as an import does (undoable); its settings go to the
    page's widgets (:func:`svmlab.algorithms.bound_widgets.apply_texts`)."""
    result = read_lesson(text, ANY_VALUE)
    messages = [f"lesson: {m}" if not m.startswith("lesson") else m for m in result.messages]
    state = result.state
    if "points" in result.read:
        plane = state.plane
        ranges = None if plane is None else ((plane[0], plane[1]), (plane[2], plane[3]))
        get_session().replace(state.points, plane=ranges)
    if "present" in result.read:
        st.session_state[PRESENT] = state.present
    themes.from_link(result)
    if "done" in result.read:
        st.session_state[DONE] = set(state.done)
    if state.params and state.page != page:
        messages.append(f"lesson: its settings are for the page {state.page!r}; not applied here")
        return messages
    return messages + bw.apply_texts(state.params, "lesson: ")


def budget_note() -> None:
    """Bring the URL up to date; above the budget, say that the points are not in it."""
    publish()
    link = link_session()
    if link.too_long:
        st.warning(
            f"{get_session().points.n} points make a link of {link.too_long:,} characters, "
            f"above the budget of {URL_BUDGET:,}: the address bar keeps the settings but not "
            "the points (a reload would lose them). Download the lesson file (Import / "
            "export) to keep or share them."
        )


def lesson_panel(key: str = "lesson") -> None:
    """The copy-link box and the lesson file's download (the importer reads lesson files)."""
    # Filled at the end of the run (page_link), when every widget has written the URL.
    _SHARE.set((st.empty(), key))
    if not _IN_PAGE.get():
        _share_panel(link_session())


def load_lesson(data: bytes, name: str) -> None:
    """Load a lesson file the data panel's importer received (a widget callback)."""
    link = link_session()
    messages = apply_lesson(data, link.page or "home")
    link.messages += messages
    if not messages:
        get_session().say("success", f"Loaded the lesson file {name}.")


def share_link() -> str | None:
    """The page's share link as the address bar holds it (None outside a browser session)."""
    base = st.context.url
    if not base:
        return None
    query = urlencode([(k, v) for k in st.query_params for v in st.query_params.get_all(k)])
    return f"{base}?{query}" if query else base


def _share_panel(link: LinkSession) -> None:
    """The copy-link box and the lesson file's download, in the data panel's slot."""
    if _SHARE.get() is None:
        return
    (slot, key), _ = _SHARE.get(), _SHARE.set(None)  # filled once per run
    page = link.page or "home"
    with slot.container():
        url = None if link.too_long else share_link()
        if url:
            st.caption("Share link (the address bar holds the same; copy it from here):")
            st.code(url, language=None, wrap_lines=True)
        st.download_button(
            "Download lesson file (points + settings)",
            partial(lesson_json, current_state(page)),  # the JSON only when clicked
            file_name=f"svmlab_{page}_lesson.json",
            mime="application/json",
            key=f"{key}_dl",
            on_click="ignore",
            width="stretch",
        )
