"""The data panel shared by every page: presets, click mode, class, undo / clear, import /
export, a numeric table, and the glue between the canvas and the session's points.

All data live in ``st.session_state`` (one :class:`svmlab.points.History` under
``"svmlab_history"``), so the points are shared by every page of a browser session and
survive every control change. The session keeps one point list with class indices 0..5:
binary pages read class 0 as y = −1 and class 1 as y = +1 and leave classes 2..5 out
(the panel says how many points that hides); the multiclass page with k classes reads
class j as label j for j < k.

Every button and upload acts in a widget callback, i.e. before the page's script runs
again, so the figure a page draws from :func:`get_data` is always up to date.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from svmcore.datasets import REGISTRY
from svmlab.canvas import ACK_KEY, MODES, plot_canvas
from svmlab.figures import stable_range
from svmlab.points import (
    MAX_POINTS,
    History,
    PointSet,
    PointsFormatError,
    apply_event,
    export_csv,
    export_libsvm,
    parse_points,
    points_from_rows,
)
from svmlab.style import CLASS_GLYPHS, CLASS_NAMES, MAX_CLASSES, class_label, class_names

__all__ = [
    "DEFAULT_PRESET",
    "current_class",
    "current_mode",
    "current_points",
    "data_canvas",
    "data_controls",
    "get_data",
    "handle_event",
    "load_preset",
    "plane_ranges",
    "set_data",
    "undo",
]

#: The data every session starts with: (preset name, n, noise, seed).
DEFAULT_PRESET = ("moons", 100, 0.15, 0)
#: Largest n offered for a preset (the canvas caps points at MAX_POINTS).
MAX_PRESET_N = 500

_HISTORY = "svmlab_history"
_MODE = "svmlab_mode"
_CLASS = "svmlab_class"  # class index 0..5
_N_CLASSES = "svmlab_n_classes"
_MESSAGE = "svmlab_message"  # (kind, text) shown once by data_controls
_IMPORT_ERROR = "svmlab_import_error"  # (file_id, text)
_VERSION = "svmlab_version"
_PLANE = "svmlab_plane"  # the plane's axis ranges ((x0, x1), (y0, y1)), stable under clicks
_MODE_LABELS = {"add": "Add", "erase": "Erase", "move": "Move (drag)"}


# -- the session's points -----------------------------------------------------------------
def _history() -> History:
    h = st.session_state.get(_HISTORY)
    if not isinstance(h, History):
        name, n, noise, seed = DEFAULT_PRESET
        X, y = REGISTRY[name].generator(n=n, noise=noise, random_state=seed)
        h = History(PointSet.from_labels(X, y))
        st.session_state[_HISTORY] = h
    return h


def _commit(h: History) -> bool:
    """Store ``h``; True if the current points changed."""
    old = st.session_state.get(_HISTORY)
    st.session_state[_HISTORY] = h
    changed = not isinstance(old, History) or old.current is not h.current
    if changed:
        st.session_state[_VERSION] = st.session_state.get(_VERSION, 0) + 1
    return changed


def plane_ranges() -> tuple[tuple[float, float], tuple[float, float]]:
    """The axis ranges ``((x0, x1), (y0, y1))`` of every page's plane in this session.

    Kept in session state so that the axes do not move under the pointer: a click (always
    inside the plot) never changes them; they grow only when points lie outside them (an
    import, a table edit, an undo) and start afresh around the data after a preset load,
    a clear or an import (:func:`svmlab.figures.stable_range`). All points count, also
    those of classes a page does not show, so every page has the same axes.
    """
    r = stable_range(current_points().X, st.session_state.get(_PLANE))
    st.session_state[_PLANE] = r
    return r


def _reset_plane() -> None:
    """The data were replaced: the next :func:`plane_ranges` fits the axes to them."""
    st.session_state.pop(_PLANE, None)


def current_points() -> PointSet:
    """All points of the session (class indices 0..5)."""
    return _history().current


def get_data(n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The session's points as ``(X (n, 2), y (n,))`` for a page with ``n_classes`` classes.

    Binary (2): y in {−1.0, +1.0} from classes 0 / 1; classes 2..5 are left out.
    Multiclass (k): y in 0..k−1 (int); classes ≥ k are left out.
    Default data: the moons preset (n = 100, noise = 0.15, seed 0).
    """
    return current_points().labels(n_classes)


def set_data(X, y, *, message: str | None = None) -> bool:
    """Replace the points (undoable); ``y`` as ±1, 0..5 or up to six other integers."""
    changed = _commit(_history().push(PointSet.from_labels(X, y)))
    _reset_plane()
    if message:
        st.session_state[_MESSAGE] = ("success", message)
    return changed


def load_preset(name: str, *, n=None, noise=None, seed: int = 0, k: int | None = None) -> bool:
    """Replace the points by a :data:`svmcore.datasets.REGISTRY` preset (undoable)."""
    d = REGISTRY[name]
    kwargs = {"k": k} if (name == "k_blobs" and k is not None) else {}
    X, y = d.generator(
        n=d.n if n is None else int(n),
        noise=d.noise if noise is None else float(noise),
        random_state=int(seed),
        **kwargs,
    )
    return set_data(X, y)


def undo() -> bool:
    """Back to the points before the last edit."""
    return _commit(_history().undo())


def clear() -> bool:
    """Remove every point (undoable); the axes go back to the default plane."""
    _reset_plane()
    return _commit(_history().clear())


def current_mode() -> str:
    """The click mode: "add", "erase" or "move"."""
    mode = st.session_state.get(_MODE, "add")
    return mode if mode in MODES else "add"


def _n_classes() -> int:
    return int(st.session_state.get(_N_CLASSES, 2))


def _class_idx(n_classes: int | None = None) -> int:
    k = _n_classes() if n_classes is None else n_classes
    j = int(st.session_state.get(_CLASS, 1))
    return j if 0 <= j < k else min(1, k - 1)


def current_class():
    """Label of the class a click adds: −1 / +1 on binary pages, 0..k−1 on multiclass."""
    k = _n_classes()
    return class_label(_class_idx(k), k)


# -- canvas events ------------------------------------------------------------------------
def handle_event(event) -> bool:
    """Apply a canvas event (add / erase / move, possibly a batch) to the session's points.

    Events carrying a ``nonce`` are applied once (the newest applied nonce is kept in
    session state and sent back to the browser as ``ack``). Returns True if the points
    changed. A refused event (e.g. beyond the point cap) leaves a message for the panel.
    """
    if not isinstance(event, Mapping):
        return False
    batch = event.get("events")
    events = [e for e in batch if isinstance(e, Mapping)] if isinstance(batch, list) else []
    if not events:
        events = [event]
    events.sort(key=lambda e: e.get("nonce") if isinstance(e.get("nonce"), (int, float)) else 0)
    ack = st.session_state.get(ACK_KEY, 0)
    h = _history()
    changed = False
    for ev in events:
        nonce = ev.get("nonce")
        has_nonce = isinstance(nonce, (int, float)) and not isinstance(nonce, bool)
        if has_nonce and nonce <= ack:
            continue
        new, message = apply_event(h.current, ev)
        if message:
            st.session_state[_MESSAGE] = ("warning", message)
        if new is not h.current:
            h = h.push(new)
            changed = True
        if has_nonce:
            ack = max(ack, int(nonce))
    st.session_state[ACK_KEY] = ack
    if changed:
        _commit(h)
    return changed


def _shown_points(n_classes: int):
    p = current_points()
    idx = np.flatnonzero(p.c < n_classes)
    return p.X[idx], p.c[idx], idx


def data_canvas(fig, *, key: str = "canvas", height: int = 520, n_classes: int | None = None):
    """The clickable canvas for ``fig`` with the panel's mode and class; True if data changed.

    The event is applied in the component's callback, before the page's script reruns, so
    the figure the page built from :func:`get_data` on that run already shows it; the page
    need not call ``st.rerun()`` (True tells it that the points changed on this run).
    """
    k = _n_classes() if n_classes is None else int(n_classes)
    flag = f"_svmlab_changed_{key}"

    def _on_event() -> None:
        try:
            ev = st.session_state[key].get("event")
        except (KeyError, AttributeError):
            ev = None
        if handle_event(ev):
            st.session_state[flag] = True

    changed = bool(st.session_state.pop(flag, False))
    event = plot_canvas(
        fig,
        mode=current_mode(),
        new_class=class_label(_class_idx(k), k),
        key=key,
        height=height,
        points=_shown_points(k),
        on_event=_on_event,
    )
    if event is not None and handle_event(event):  # a callback that did not run
        changed = True
    return changed


# -- the widget panel ---------------------------------------------------------------------
def _seed_widget(wkey: str, value) -> None:
    """Give a widget its remembered value (widget state is dropped on other pages)."""
    if wkey not in st.session_state:
        st.session_state[wkey] = value


def _class_option(j: int, n_classes: int) -> str:
    name = class_names(n_classes)[j]
    return f"{CLASS_GLYPHS[j]} {name} ({CLASS_NAMES[j]})"


def _import_file(ukey: str, n_classes: int) -> None:
    up = st.session_state.get(ukey)
    if up is None:
        st.session_state.pop(_IMPORT_ERROR, None)
        return
    name = getattr(up, "name", "upload")
    try:
        raw = up.getvalue()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        st.session_state[_IMPORT_ERROR] = (
            up.file_id,
            f"{name}: not a UTF-8 text file (byte {exc.start}); nothing was changed.",
        )
        return
    fmt = "csv" if name.lower().endswith(".csv") else "auto"
    try:
        pts = parse_points(text, fmt)
    except PointsFormatError as exc:
        st.session_state[_IMPORT_ERROR] = (
            up.file_id,
            f"{name}, {exc}. Nothing was imported; your points are unchanged.",
        )
        return
    st.session_state.pop(_IMPORT_ERROR, None)
    _commit(_history().push(pts))
    _reset_plane()
    hidden = pts.n_hidden(n_classes)
    note = f" ({hidden} of classes ≥ {n_classes} are not shown on this page)" if hidden else ""
    st.session_state[_MESSAGE] = ("success", f"Imported {pts.n} points from {name}{note}.")


def _apply_table(tkey: str, version: int, n_classes: int) -> None:
    if st.session_state.get(_VERSION, 0) != version:
        st.session_state[_MESSAGE] = (
            "warning",
            "The points changed while the table was open; table edits were not applied.",
        )
        return
    state = st.session_state.get(tkey) or {}
    X, c, _ = _shown_points(n_classes)
    labels = [class_label(j, n_classes) for j in c.tolist()]
    rows = [[float(a), float(b), lab] for (a, b), lab in zip(X.tolist(), labels, strict=True)]
    cols = ("x1", "x2", "label")
    for i, change in (state.get("edited_rows") or {}).items():
        for col, val in change.items():
            if col in cols and int(i) < len(rows):
                rows[int(i)][cols.index(col)] = val
    deleted = {int(i) for i in state.get("deleted_rows") or []}
    rows = [r for i, r in enumerate(rows) if i not in deleted]
    for added in state.get("added_rows") or []:
        rows.append([added.get("x1"), added.get("x2"), added.get("label")])
    try:
        if rows:
            x1, x2, lab = zip(*rows, strict=True)
        else:
            x1 = x2 = lab = ()
        shown = points_from_rows(x1, x2, lab)
        if shown.n and shown.c.max() >= n_classes:
            bad = int(np.argmax(shown.c >= n_classes)) + 1
            raise PointsFormatError(f"label must be one of {_labels_text(n_classes)}", bad)
    except PointsFormatError as exc:
        st.session_state[_MESSAGE] = ("error", f"Table, row {str(exc).removeprefix('line ')}")
        return
    p = current_points()
    hidden = p.c >= n_classes
    new = PointSet(np.vstack([shown.X, p.X[hidden]]), np.concatenate([shown.c, p.c[hidden]]))
    if new.n > MAX_POINTS:
        st.session_state[_MESSAGE] = ("error", f"The canvas holds at most {MAX_POINTS} points.")
        return
    if _commit(_history().push(new)):
        st.session_state[_MESSAGE] = ("success", f"Table applied: {new.n} points.")


def _labels_text(n_classes: int) -> str:
    return "−1, +1" if n_classes == 2 else ", ".join(str(j) for j in range(n_classes))


def data_controls(*, n_classes: int = 2, key: str = "data", container=None) -> None:
    """The data widgets (in the sidebar unless ``container`` is given).

    Click mode (add / erase / move), the class of new points, undo and clear, a preset
    menu (n, noise, seed), import (CSV / LIBSVM) and export, and an editable table.
    """
    n_classes = int(n_classes)
    if not 2 <= n_classes <= MAX_CLASSES:
        raise ValueError(f"n_classes must be in 2..{MAX_CLASSES}, got {n_classes}")
    st.session_state[_N_CLASSES] = n_classes
    where = st.sidebar if container is None else container
    h = _history()
    with where:
        st.markdown("**Data** — click the plot to draw points")
        mkey, ckey = f"{key}_mode", f"{key}_class"
        _seed_widget(mkey, current_mode())
        st.radio(
            "Click mode",
            MODES,
            format_func=_MODE_LABELS.get,
            horizontal=True,
            key=mkey,
            on_change=lambda: st.session_state.__setitem__(_MODE, st.session_state[mkey]),
            help="Add: a click adds a point of the chosen class. Erase: click a point to "
            "remove it. Move: drag a point.",
        )
        st.session_state[_MODE] = st.session_state[mkey]
        if st.session_state.get(ckey) not in range(n_classes):
            st.session_state[ckey] = _class_idx(n_classes)
        st.radio(
            "Class of new points",
            list(range(n_classes)),
            format_func=lambda j: _class_option(j, n_classes),
            horizontal=True,
            key=ckey,
            on_change=lambda: st.session_state.__setitem__(_CLASS, st.session_state[ckey]),
        )
        st.session_state[_CLASS] = st.session_state[ckey]
        c1, c2 = st.columns(2)
        c1.button(
            "Undo",
            key=f"{key}_undo",
            on_click=undo,
            disabled=not h.can_undo,
            width="stretch",
        )
        c2.button(
            "Clear", key=f"{key}_clear", on_click=clear, disabled=h.current.n == 0,
            width="stretch",
        )  # fmt: skip
        # Always present, so that messages appearing do not shift (and re-mount) the
        # expanders below: an open "Import / export" stays open after an upload.
        notices = st.container()
        with notices:
            _summary(n_classes)
            msg = st.session_state.pop(_MESSAGE, None)
            if msg:
                getattr(st, msg[0])(msg[1])
            err = st.session_state.get(_IMPORT_ERROR)
            ukey = f"{key}_upload"
            if err:
                up = st.session_state.get(ukey)
                if up is not None and getattr(up, "file_id", None) == err[0]:
                    st.error(err[1])
        _preset_widgets(n_classes, key)
        with st.expander("Import / export"):
            st.file_uploader(
                "Import points (CSV: x1,x2,label — LIBSVM: label 1:x1 2:x2)",
                type=["csv", "txt", "libsvm", "svm", "dat"],
                key=ukey,
                on_change=_import_file,
                args=(ukey, n_classes),
                help=f"At most {MAX_POINTS} points. A malformed file is refused with the "
                "line at fault; your points are kept.",
            )
            pts = current_points()
            st.download_button(
                "Download CSV",
                export_csv(pts, n_classes),
                file_name="svmlab_points.csv",
                mime="text/csv",
                key=f"{key}_dl_csv",
                on_click="ignore",
                width="stretch",
            )
            st.download_button(
                "Download LIBSVM",
                export_libsvm(pts, n_classes),
                file_name="svmlab_points.libsvm",
                mime="text/plain",
                key=f"{key}_dl_libsvm",
                on_click="ignore",
                width="stretch",
            )
        _table_widgets(n_classes, key)


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


def _preset_widgets(n_classes: int, key: str) -> None:
    names = [
        name
        for name, d in REGISTRY.items()
        if d.n_classes == 2 or (n_classes > 2 and name == "k_blobs")
    ]
    pkey, nkey, zkey, skey = (f"{key}_preset", f"{key}_n", f"{key}_noise", f"{key}_seed")
    for wkey, perm, default in (
        (pkey, "svmlab_preset", DEFAULT_PRESET[0]),
        (nkey, "svmlab_preset_n", DEFAULT_PRESET[1]),
        (zkey, "svmlab_preset_noise", DEFAULT_PRESET[2]),
        (skey, "svmlab_preset_seed", DEFAULT_PRESET[3]),
    ):
        _seed_widget(wkey, st.session_state.get(perm, default))
    if st.session_state[pkey] not in names:
        st.session_state[pkey] = names[0]

    def _on_preset() -> None:
        d = REGISTRY[st.session_state[pkey]]
        st.session_state[nkey] = int(d.n)
        st.session_state[zkey] = float(d.noise)

    def _load() -> None:
        name = st.session_state[pkey]
        st.session_state["svmlab_preset"] = name
        st.session_state["svmlab_preset_n"] = st.session_state[nkey]
        st.session_state["svmlab_preset_noise"] = st.session_state[zkey]
        st.session_state["svmlab_preset_seed"] = st.session_state[skey]
        try:
            load_preset(
                name,
                n=st.session_state[nkey],
                noise=st.session_state[zkey],
                seed=st.session_state[skey],
                k=n_classes,
            )
        except ValueError as exc:
            st.session_state[_MESSAGE] = ("error", f"Preset {name}: {exc}")
            return
        st.session_state[_MESSAGE] = ("success", f"Loaded {REGISTRY[name].title}.")

    with st.expander("Preset data", expanded=False):
        st.selectbox(
            "Preset",
            names,
            format_func=lambda name: REGISTRY[name].title,
            key=pkey,
            on_change=_on_preset,
        )
        d = REGISTRY[st.session_state[pkey]]
        if d.description:
            st.caption(d.description)
        st.slider(
            "n (points)", 4, MAX_PRESET_N, key=nkey, step=1, disabled=d.fixed,
            help=f"At most {MAX_PRESET_N} points per preset ({MAX_POINTS} on the canvas).",
        )  # fmt: skip
        st.slider("noise", 0.0, 2.0, key=zkey, step=0.01, disabled=d.fixed)
        st.number_input("seed", min_value=0, max_value=2**31 - 1, step=1, key=skey)
        st.button("Load preset", key=f"{key}_load", on_click=_load, width="stretch")


def _table_widgets(n_classes: int, key: str) -> None:
    version = st.session_state.get(_VERSION, 0)
    tkey = f"{key}_table_{version}"
    X, c, _ = _shown_points(n_classes)
    df = pd.DataFrame(
        {
            "x1": X[:, 0],
            "x2": X[:, 1],
            "label": [class_label(j, n_classes) for j in c.tolist()],
        }
    )
    options = [-1, 1] if n_classes == 2 else list(range(n_classes))
    with st.expander("Edit points as a table"):
        st.caption(
            "For keyboard users and exact coordinates: edit, add or delete rows, then Apply."
        )
        with st.form(f"{key}_table_form", border=False):
            st.data_editor(
                df,
                key=tkey,
                num_rows="dynamic",
                hide_index=True,
                width="stretch",
                column_config={
                    "x1": st.column_config.NumberColumn("x1", format="%.4f", required=True),
                    "x2": st.column_config.NumberColumn("x2", format="%.4f", required=True),
                    "label": st.column_config.SelectboxColumn(
                        "label", options=options, required=True
                    ),
                },
            )
            st.form_submit_button(
                "Apply table", on_click=_apply_table, args=(tkey, version, n_classes)
            )
