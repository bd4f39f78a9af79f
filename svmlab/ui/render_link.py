"""``python -m svmlab render URL -o FILE``: a share link rendered headlessly to a file.

A share link holds the page (the URL path), the widgets' values (bound to the URL with
Streamlit's ``bind="query-params"``: ``kernel_pegasos_lam=0.1``, …) and the points
(``pts=`` on ``plane=``, :mod:`svmlab.state.urlstate`). The faithful way to turn it into the
figure is to run the page itself: :func:`shown_from_link` runs the page script with
Streamlit's ``AppTest`` and the link's query parameters, then reads the run the page drew
(its :class:`~svmlab.state.run_context.RunContext`, session key
:data:`svmlab.ui.session.SHOWN`); :func:`render_link` rebuilds the figure from that
with the page's view functions (:mod:`svmlab.export.reproduce`), styles it
(:func:`svmlab.export.style_figure`) and writes the format of the file's extension:

=========  ===================================================================
.png       the plane at the snapshot shown, scale 3
.svg .pdf  the plane, vector
.html      the run's animation, self-contained (the plane if there is no run)
.gif .mp4  the run's animation, 50 frames
=========  ===================================================================

A link that cannot be trusted is refused with :class:`LinkError` (one sentence): an
unknown page, the home page (no plane), unreadable or altered points, a non-finite number
(``inf``, ``nan``, ``1e309``: refused before any widget reads it), a widget value the
page refused, a page that fails or draws no plane.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np

from svmlab import export
from svmlab.algorithms.bound_widgets import nonfinite_keys
from svmlab.export.reproduce import animation_of, plane_figure_of, run_shown, view_of
from svmlab.state.canvas_session import CanvasSession
from svmlab.state.pointset import History
from svmlab.state.run_context import RunContext
from svmlab.state.statecheck import RESERVED, show_value
from svmlab.state.urlstate import IGNORED_KEYS, decode_state
from svmlab.ui import session
from svmlab.ui.router import PAGES

__all__ = [
    "FORMATS",
    "N_FRAMES",
    "LinkError",
    "page_and_query",
    "refused_values",
    "render_link",
    "shown_from_link",
]

FORMATS = tuple(export.MIME)
N_FRAMES = 50
#: Seconds the page may take to run headlessly (training included).
PAGE_TIMEOUT_S = 300.0


class LinkError(ValueError):
    """A link that cannot be rendered; the message is one sentence."""


def page_and_query(url: str):
    """The page spec and the query parameters (str or list of str) of a link.

    ``url`` is a whole link (``http://host:8501/kernel_pegasos?…``), a path with a query
    (``/kernel_pegasos?…``) or ``page?query``.

    Raises
    ------
    LinkError
        If the link names no page, the home page or an unknown page, or is not text.
    """
    if not isinstance(url, str) or not url.strip():
        raise LinkError("the link is empty")
    text = url.strip()
    parts = urlsplit(text if "://" in text or text.startswith("/") else "/" + text)
    name = parts.path.rstrip("/").rsplit("/", 1)[-1]
    known = {spec.url_path: spec for spec in PAGES}
    if name == "" or (name in known and known[name].default):
        raise LinkError("the link opens the home page, which draws no plane: link to a lab page")
    if name not in known:
        raise LinkError(f"unknown page {name[:40]!r} (pages: {', '.join(sorted(known))})")
    try:
        query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False)
    except ValueError as exc:
        raise LinkError(f"the link's query cannot be read ({exc})") from None
    return known[name], {k: v[-1] if len(v) == 1 else v for k, v in query.items()}


def _seed_points(at, query: dict) -> None:
    """Put the link's points (``pts`` on ``plane``) in the page's session before it runs."""
    if "pts" not in query:
        return
    reserved = {k: v for k, v in query.items() if k in ("v", "pts", "plane")}
    decoded = decode_state(reserved)
    if decoded.messages or decoded.state.plane is None:
        problem = "; ".join(decoded.messages) or "no plane= to place them on"
        raise LinkError(f"the link's points cannot be read: {problem}")
    x0, x1, y0, y1 = decoded.state.plane
    points = CanvasSession(history=History(decoded.state.points), plane=((x0, x1), (y0, y1)))
    at.session_state[session.CANVAS] = points


def _same(text: str, value) -> bool:
    """Whether a widget's ``value`` is plainly what ``text`` says (a number, a flag, a name)."""
    if isinstance(value, bool):
        return text.strip().lower() in (("true", "1") if value else ("false", "0"))
    if isinstance(value, int | float | np.number):
        try:
            return float(text.replace(",", "").strip()) == float(value)
        except ValueError:
            return False
    return str(value) == text


def _binding(at, key: str) -> str | None:
    """How the page's widget ``key`` is bound ("query-params"), "" if unbound, None if it
    is no widget of the page. AppTest gives no public accessor to a widget's metadata in
    Streamlit 1.67: read through its SessionState (public methods), defensively."""
    try:
        state = at._session_state._state
        wid = state.get_widget_id_from_key(key)
        if wid is None:
            return None
        return state.get_widget_metadata(wid).bind or ""
    except (AttributeError, KeyError, TypeError):
        return "query-params" if key in at.session_state else None


def refused_values(given: dict, after: dict, at) -> list[str]:
    """The link's widget values the page did not take (``at``: the AppTest after its run).

    Streamlit seeds a bound widget from the URL and drops from the URL a value it cannot
    accept (and a default one) without a word; the URL text of an option is its label.
    So: a value still in the URL after the run was taken; a dropped one was refused unless
    it plainly is the widget's value (a default written by hand); a widget the page does
    not bind ignores the link.
    """
    out = []
    for key, text in given.items():
        if key in RESERVED or key in IGNORED_KEYS or not isinstance(text, str):
            continue
        bind = _binding(at, key)
        if bind is None:
            continue  # no widget of this page: nothing reads it
        if bind != "query-params":
            out.append(f"{key} (this page does not read it from a link)")
        elif after.get(key) != text and not _same(text, at.session_state[key]):
            out.append(f"{key}={text[:40]!r} (the page shows {at.session_state[key]!r})")
    return out


def shown_from_link(url: str, *, timeout: float = PAGE_TIMEOUT_S) -> RunContext:
    """Run the link's page headlessly with its query; the run it drew, at its snapshot.

    Raises
    ------
    LinkError
        If the link cannot be read, the page fails, refuses a value or draws no plane.
    """
    from streamlit.testing.v1 import AppTest

    spec, query = page_and_query(url)
    # before the page's widgets read them: Streamlit's number_input raises on "inf"
    bad = nonfinite_keys({k: v for k, v in query.items() if k not in RESERVED})
    if bad:
        key, text = next(iter(bad.items()))
        raise LinkError(f"{key}={show_value(text)} is not a finite number")
    at = AppTest.from_file(str(spec.script), default_timeout=timeout)
    at.query_params.update(query)
    _seed_points(at, query)
    try:
        at.run()
    except Exception as exc:  # AppTest's own errors (a timeout)
        raise LinkError(f"the page {spec.url_path!r} did not run: {exc}") from None
    if at.exception:
        raise LinkError(f"the page {spec.url_path!r} failed: {at.exception[0].message}")
    refused = refused_values(query, dict(at.query_params), at)
    if refused:
        raise LinkError(f"the page refused the link's value(s): {'; '.join(refused)}")
    shown = at.session_state[session.SHOWN] if session.SHOWN in at.session_state else None
    if not isinstance(shown, RunContext):
        said = [e.value for e in (*at.error, *at.warning)]
        why = f": {said[0]}" if said else ""
        raise LinkError(f"the page {spec.url_path!r} drew no plane{why}")
    if "snap" in query:  # the link's snapshot, when the page does not bind it itself
        try:
            shown = shown.at(int(query["snap"]))
        except (TypeError, ValueError):
            raise LinkError(f"snap must be a snapshot index, got {query['snap']!r}") from None
    return shown


def _output_format(out) -> str:
    fmt = Path(out).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise LinkError(f"the output file must end in one of .{', .'.join(FORMATS)}; got {out}")
    return fmt


def render_link(
    url: str,
    out,
    *,
    style: str = "screen",
    snapshot: int | None = None,
    shading: bool = True,
    legend: bool = True,
    ticks: bool = True,
    width=None,
) -> Path:
    """Render the share link ``url`` to the file ``out`` (its format from its extension).

    Parameters
    ----------
    url : str
        The link (whole URL, or page path with its query).
    out : str or Path
        The file to write: .png .svg .pdf (the plane), .html .gif .mp4 (the animation).
        An existing file is replaced; a symbolic link is followed (its target is written),
        as any command-line tool does with the user's own rights.
    style : {"screen", "slides", "paper", "print"}
        The style preset (:data:`svmlab.export.PRESETS`).
    snapshot : int, optional
        The snapshot k to draw (negative: from the end); None: the link's (``snap=`` or
        the page's scrubber).
    shading, legend, ticks, width
        As :func:`svmlab.export.style_figure`.

    Returns
    -------
    Path
        ``out``.

    Raises
    ------
    LinkError
        A bad link, extension, style or snapshot (one sentence).
    """
    fmt = _output_format(out)
    if style not in export.PRESETS:
        raise LinkError(f"style must be one of {', '.join(export.PRESETS)}, got {style!r}")
    shown = RunContext.of(shown_from_link(url))
    result = run_shown(shown)
    n = view_of(shown, result).n_snapshots
    if snapshot is None:
        snapshot = n - 1 if shown.snapshot is None else shown.snapshot
    if not -n <= int(snapshot) < n:
        raise LinkError(f"snapshot must be in [{-n}, {n}) for this run, got {snapshot}")
    shown = shown.with_result(result).at(int(snapshot) % n)
    fig = None
    if fmt in export.files.ANIMATED:
        fig = animation_of(shown, result, n_frames=N_FRAMES)
        if fig is None and fmt != "html":
            raise LinkError("this page's algorithm has no run to animate: write .png or .html")
    if fig is None:
        fig = plane_figure_of(shown, result)
    style_opts = dict(shading=shading, legend=legend, ticks=ticks, width=width)
    data = export.figure_bytes(fig, fmt, preset=style, **style_opts)
    path = Path(out)
    path.write_bytes(data)
    return path
