"""The data panel shared by every page: presets, click mode, class, undo / redo / clear,
import / export, a numeric table, and the glue between the canvas and the session's points.

All data live in one :class:`svmlab.state.canvas_session.CanvasSession` in ``st.session_state``,
so the points are shared by every page of a browser session and survive every control
change. The session keeps one point list with class indices 0..5: binary pages read class
0 as y = −1 and class 1 as y = +1 and leave classes 2..5 out (the panel says how many
points that hides); the multiclass page with k classes reads class j as label j for j < k.

Every button and upload acts in a widget callback, i.e. before the page's script runs
again, so the figure a page draws from :func:`get_data` is always up to date.
"""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from svmlab.state.canvas_session import DEFAULT_PRESET, MODES
from svmlab.state.classes import CLASS_GLYPHS, CLASS_NAMES, class_label, class_names
from svmlab.state.points import (
    MAX_POINTS,
    PointSet,
    PointsFormatError,
    export_csv,
    export_libsvm,
    read_points,
)
from svmlab.ui import event_channel, keyboard, linkstate
from svmlab.ui.canvas import plot_canvas
from svmlab.ui.data_state import panel_state
from svmlab.ui.data_table import table_widgets, warn_unapplied
from svmlab.ui.preset_menu import load_preset, preset_widgets
from svmlab.ui.safe_text import md_text
from svmlab.ui.session import get_session

__all__ = [
    "DEFAULT_PRESET",
    "clear",
    "current_class",
    "current_mode",
    "current_points",
    "data_canvas",
    "data_controls",
    "get_data",
    "handle_event",
    "import_points",
    "load_preset",
    "panel_state",
    "plane_ranges",
    "redo",
    "set_data",
    "shown_points",
    "undo",
]

_MODE_LABELS = {"add": "Add", "erase": "Erase", "move": "Move (drag)"}
BARS_CAPTION = "Hover a bar to ring its point in the plane above; hover a point to find its bar."


# -- the session's points -----------------------------------------------------------------
def plane_ranges() -> tuple[tuple[float, float], tuple[float, float]]:
    """The axis ranges ``((x0, x1), (y0, y1))`` of every page's plane in this session.

    A click never changes them (they must not move under the pointer); any other change
    (import, preset, table, undo, redo, clear) makes them follow the points
    (:mod:`svmlab.state.canvas_session`). All points count, also those of classes a page does
    not show, so every page has the same axes.
    """
    return get_session().ranges()


def current_points() -> PointSet:
    """All points of the session (class indices 0..5)."""
    return get_session().points


def get_data(n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The session's points as ``(X (n, 2), y (n,))`` for a page with ``n_classes`` classes.

    Binary (2): y in {−1.0, +1.0} from classes 0 / 1; classes 2..5 are left out.
    Multiclass (k): y in 0..k−1 (int); classes ≥ k are left out.
    Default data: the moons preset (n = 100, noise = 0.15, seed 0).
    """
    return current_points().labels(n_classes)


def set_data(X, y, *, message: str | None = None) -> bool:
    """Replace the points (undoable); ``y`` as ±1, 0..5 or up to six other integers."""
    s = get_session()
    changed = s.replace(PointSet.from_labels(X, y))
    if message:
        s.say("success", message)
    return changed


def undo() -> bool:
    """Back to the points before the last edit."""
    return get_session().undo()


def redo() -> bool:
    """Forward again to the points the last undo left."""
    return get_session().redo()


def clear() -> bool:
    """Remove every point (undoable); the axes go back to the default plane."""
    return get_session().clear()


def current_mode() -> str:
    """The click mode: "add", "erase" or "move"."""
    mode = get_session().mode
    return mode if mode in MODES else "add"


def current_class():
    """Label of the class a click adds: −1 / +1 on binary pages, 0..k−1 on multiclass."""
    s = get_session()
    return class_label(s.class_index(), s.n_classes)


# -- canvas events ------------------------------------------------------------------------
def handle_event(events) -> bool:
    """Apply canvas events (a list, or one event) to the session's points through the event
    channel (:func:`svmlab.ui.event_channel.deliver`: each ``seq`` above the session's
    ``ack`` once, in order); True if the points changed."""
    events = [events] if isinstance(events, dict) else events
    return bool(event_channel.deliver(get_session(), events if isinstance(events, list) else []))


def shown_points(n_classes: int | None = None):
    """The points the canvas shows and hit-tests: (X, class indices, their indices in the
    session's list), of the classes ``n_classes`` (default: the page's)."""
    p = current_points()
    n_classes = get_session().n_classes if n_classes is None else int(n_classes)
    idx = np.flatnonzero(p.c < n_classes)
    return p.X[idx], p.c[idx], idx


def data_canvas(
    fig,
    *,
    key: str = "canvas",
    height: int = 520,
    n_classes: int | None = None,
    bars=None,
    description: str = "",
    stamp: list | None = None,
    playback: dict | None = None,
    frames_id: str | None = None,
    snapshot: int | None = None,
    fill: bool = False,
    kept: bool = False,
):
    """The clickable canvas for ``fig`` with the panel's mode and class; True if this call
    applied events to the points, after ``fig`` was drawn (the caller reruns the page).

    The events come through the event channel (:mod:`svmlab.ui.event_channel`) and are
    applied in the component's callback, before the page's script reruns, so the figure the
    page built from :func:`get_data` on that run already shows them. ``bars`` (the figure
    of :func:`svmlab.plot.figures.alpha_bar_figure`, bar j = point j) is drawn below the
    plane in the same component, the two linked by hover. ``stamp`` numbers the figure
    (:func:`svmlab.ui.canvas.feed_canvas`: the canvas never goes back to an older one).
    ``description``: the model in words, the plane's accessible name and description.
    ``playback`` (the run's frames) and ``snapshot`` (the one ``fig`` shows) drive the
    canvas's transport (``frames_id``: the name of the frames a feed brings after the
    canvas, :func:`svmlab.ui.canvas.plot_canvas`); the snapshot it stops at comes back as a
    ``"snap"`` event, applied to the scrubber in the callback
    (:func:`svmlab.ui.keyboard.apply_snapshot`) — never after the page has drawn it (a
    widget's value cannot change then; the next stop sends it again). ``fill``: the plane
    fills the window's height; ``kept``: the canvas shows ``fig`` already (:func:`plot_canvas`).
    """
    s = get_session()
    k = s.n_classes if n_classes is None else int(n_classes)
    version = s.version  # the points ``fig`` shows

    def _apply(events: list, *, snaps: bool) -> bool:
        edits = [e for e in events if e.get("type") != "snap"]
        if snaps:
            for ev in events:
                if ev.get("type") == "snap":
                    keyboard.apply_snapshot(ev)
        return s.apply_events(edits) if edits else False

    def _receive(events: list) -> None:
        event_channel.deliver(s, events, lambda evs: _apply(evs, snaps=True))

    events = plot_canvas(
        fig,
        mode=current_mode(),
        new_class=class_label(s.class_index(k), k),
        key=key,
        height=height,
        points=shown_points(k),
        receive=_receive,
        ack=s.ack,
        bars=bars,
        bars_caption=BARS_CAPTION if bars is not None else "",
        description=description,
        stamp=stamp,
        playback=playback,
        frames_id=frames_id,
        snapshot=snapshot,
        fill=fill,
        kept=kept,
    )
    if not s.canvas_seen:
        # A new session (a reconnect to a restarted server, another replica): the browser
        # resends what the old one applied — and what was clicked while it was down.
        s.canvas_seen = True
        edits = [e for e in events if e.get("type") != "snap"]
        event_channel.deliver(s, edits, s.apply_resent)
    # The callback applied them already; the same call applies any it did not see (each
    # seq once), so nothing is lost and nothing is applied twice.
    event_channel.deliver(s, events, lambda evs: _apply(evs, snaps=False))
    linkstate.publish()  # the URL holds the points
    return s.version != version


# -- the widget panel ---------------------------------------------------------------------
def _class_option(j: int, n_classes: int) -> str:
    name = class_names(n_classes)[j]
    return f"{CLASS_GLYPHS[j]} {name} ({CLASS_NAMES[j]})"


def import_points(text: str, name: str, n_classes: int = 2) -> bool:
    """Replace the points by those of a CSV / LIBSVM file's ``text`` (undoable).

    The panel says how many points came and how the file's labels were mapped (e.g.
    "labels 1, 2 → classes −1, +1"); a malformed file raises
    :class:`svmlab.state.points.PointsFormatError` naming the line, and nothing changes.
    """
    s = get_session()
    fmt = "csv" if name.lower().endswith(".csv") else "auto"
    pts, note = read_points(text, fmt, n_classes)
    changed = s.replace(pts)
    hidden = pts.n_hidden(n_classes)
    notes = [note] if note else []
    if hidden:
        notes.append(f"{hidden} of classes ≥ {n_classes} are not shown on this page")
    extra = f" ({'; '.join(notes)})" if notes else ""
    s.say("success", f"Imported {pts.n} points from {name}{extra}.")
    return changed


def _import_file(ukey: str, n_classes: int) -> None:
    s = get_session()
    up = st.session_state.get(ukey)
    s.import_error = None
    if up is None:
        return
    name = getattr(up, "name", "upload")
    if name.lower().endswith(".json"):
        linkstate.load_lesson(up.getvalue(), name)
        return
    try:
        import_points(up.getvalue().decode("utf-8-sig"), name, n_classes)
    except UnicodeDecodeError as exc:
        why = f"{name}: not a UTF-8 text file (byte {exc.start}); nothing was changed."
        s.import_error = (up.file_id, why)
    except PointsFormatError as exc:
        why = f"{name}, {exc}. Nothing was imported; your points are unchanged."
        s.import_error = (up.file_id, why)


def data_controls(*, n_classes: int = 2, key: str = "data", container=None) -> None:
    """The data widgets (in the sidebar unless ``container`` is given).

    Click mode (add / erase / move), the class of new points, undo / redo and clear, a
    preset menu (n, noise, seed), import (CSV / LIBSVM) and export, and an editable table.
    """
    panel_state(n_classes=n_classes, key=key)
    n_classes = int(n_classes)
    s = get_session()
    where = st.sidebar if container is None else container
    with where:
        st.markdown("**Data** — click the plot to draw points")
        mkey, ckey = f"{key}_mode", f"{key}_class"
        st.radio(
            "Click mode",
            MODES,
            format_func=_MODE_LABELS.get,
            horizontal=True,
            key=mkey,
            help="Add: a click adds a point of the chosen class. Erase: click a point to "
            "remove it. Move: drag a point.",
        )
        st.radio(
            "Class of new points",
            list(range(n_classes)),
            format_func=lambda j: _class_option(j, n_classes),
            horizontal=True,
            key=ckey,
        )
        _edit_buttons(s, key)
        # Always present, so that messages appearing do not shift (and re-mount) the
        # expanders below: an open "Import / export" stays open after an upload.
        ukey = f"{key}_upload"
        with st.container():
            _summary(n_classes)
            warn_unapplied(s, key)
            linkstate.budget_note()
            # plain text that may quote a file's name, cells or a link: shown as text
            for kind, text in s.messages:
                getattr(st, kind)(md_text(text))
            s.messages.clear()
            up = st.session_state.get(ukey)
            if s.import_error and getattr(up, "file_id", None) == s.import_error[0]:
                st.error(md_text(s.import_error[1]))
        preset_widgets(n_classes, key)
        # Closed, the panel builds and sends nothing (its files and link change per click).
        box = st.expander("Import / export", key=_io_box_key(key), on_change="rerun")
        if box.open:
            with box:
                _import_export(n_classes, key, ukey)
        table_widgets(n_classes, key)


def _io_box_key(key: str) -> str:
    return f"{key}_io_box"


def link_box_open(key: str = "data") -> bool:
    """Whether the "Import / export" box (the share link and the lesson file) is open."""
    return bool(st.session_state.get(_io_box_key(key)))


def _import_export(n_classes: int, key: str, ukey: str) -> None:
    """The importer, the CSV / LIBSVM downloads and the share link with the lesson file."""
    limit = upload_limit_mb()
    st.file_uploader(
        "Import points (CSV: x1,x2,label — LIBSVM: label 1:x1 2:x2) or a lesson file",
        type=["csv", "txt", "libsvm", "svm", "dat", "json"],
        key=ukey,
        on_change=_import_file,
        args=(ukey, n_classes),
        max_upload_size=limit,
        help=f"Files up to {limit} MB; at most {MAX_POINTS} points. A malformed file is "
        "refused with the line at fault; your points are kept. LIBSVM's labels 1, 2, … become the "
        "classes in order (1, 2 → −1, +1 on a binary page). A lesson file (.json, "
        "below) restores points and settings.",
    )
    # Streamlit's own refusal of a larger file is a small red chip naming no limit
    st.caption(
        f"Files up to {limit} MB (2,000 points of CSV take about 60 KB); a larger file "
        "is refused by the server and your points are kept."
    )
    points = current_points()  # immutable: the file is made from these when clicked
    for fmt, export, mime in (
        ("CSV", export_csv, "text/csv"),
        ("LIBSVM", export_libsvm, "text/plain"),
    ):
        st.download_button(
            f"Download {fmt}",
            # deferred: the file is written on a click, not on every run of the page
            functools.partial(export, points, n_classes),
            file_name=f"svmlab_points.{fmt.lower()}",
            mime=mime,
            key=f"{key}_dl_{fmt.lower()}",
            on_click="ignore",
            width="stretch",
        )
    linkstate.lesson_panel(f"{key}_lesson")


def upload_limit_mb() -> int:
    """The largest file the importer takes, in MB: the server's ``server.maxUploadSize``
    (2 in ``.streamlit/config.toml`` and the Dockerfile)."""
    return int(st.get_option("server.maxUploadSize"))


def _edit_buttons(s, key: str) -> None:
    h = s.history
    c1, c2, c3 = st.columns(3)
    for col, label, fn, disabled in (
        (c1, "Undo", undo, not h.can_undo),
        (c2, "Redo", redo, not h.can_redo),
        (c3, "Clear", clear, h.current.n == 0),
    ):
        wkey = f"{key}_{label.lower()}"
        col.button(label, key=wkey, on_click=fn, disabled=disabled, width="stretch")


def _summary(n_classes: int) -> None:
    p = current_points()
    counts = p.counts()
    names = class_names(n_classes)
    parts = [f"{CLASS_GLYPHS[j]} {names[j]}: {counts[j]}" for j in range(n_classes)]
    st.caption(f"{p.n - p.n_hidden(n_classes)} points · " + " · ".join(parts))
    hidden = p.n_hidden(n_classes)
    if hidden:
        st.warning(
            f"{hidden} point(s) of classes ≥ {n_classes} (drawn on the multiclass page) "
            "are not used here."
        )
